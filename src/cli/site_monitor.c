/* `hysim site --config F --monitor [HOST:]PORT` (docs/monitor.md): the site server's live page.
 * The program's waiting loop copies the server's status (a snapshot the controller loop publishes
 * without ever waiting) into a sample every poll and pushes it into the monitor's ring. Abort
 * stops the server as SIGINT does: the coordinator is told, the laboratory brought to rest. */
#include "cli_monitor.h"

#include "hysim/cmdgen.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int hs_cli_monitor_site_start(hs_ctx *ctx, const char *listen, const hs_site_server_config *cfg,
                              hs_cli_monitor **out)
{
    hs_monitor_layout l;
    memset(&l, 0, sizeof l);
    snprintf(l.title, sizeof l.title, "%s", cfg->site.name);
    snprintf(l.role, sizeof l.role, "site");
    snprintf(l.units_length, sizeof l.units_length, "length");
    snprintf(l.units_force, sizeof l.units_force, "force");
    snprintf(l.units_time, sizeof l.units_time, "s");
    l.nact = cfg->site.nact < HS_MON_MAX_ACT ? cfg->site.nact : HS_MON_MAX_ACT;
    l.nsites = 1;
    snprintf(l.site_names[0], HS_MON_NAME, "%s", cfg->site.name);
    for (int j = 0; j < l.nact; j++)
        snprintf(l.act_names[j], HS_MON_NAME, "%s", cfg->site.actuator_names[j]);
    hs_cli_monitor *m = hs_cli_monitor_new(ctx, listen, &l);
    if (!m) return hs_ctx_message(ctx)[0] ? HS_EINPUT : HS_ENOMEM;
    *out = m;
    return 0;
}

int hs_cli_monitor_site_poll(hs_cli_monitor *m, hs_site_server *srv,
                             const hs_site_server_config *cfg)
{
    hs_site_server_status st;
    hs_site_server_status_get(srv, &st);
    hs_monitor_sample s;
    memset(&s, 0, sizeof s);
    s.step = st.last_step + 1;
    s.steps = 0; /* the coordinator knows */
    s.t = cfg->site.rate > 0.0 ? (double)st.ticks / cfg->site.rate : 0.0;
    s.nact = cfg->site.nact < HS_MON_MAX_ACT ? cfg->site.nact : HS_MON_MAX_ACT;
    s.nsites = 1;
    for (int j = 0; j < s.nact; j++) {
        s.x_cmd[j] = st.command[j];
        s.x_meas[j] = st.x[j];
        s.f_meas[j] = st.f[j];
        const double a = hs_cli_monitor_use(st.x[j], cfg->site.actuator[j].stroke),
                     b = hs_cli_monitor_use(st.f[j], cfg->site.actuator[j].force_max);
        s.limit_use[j] = a > b ? a : b;
    }
    s.site_states[0] = st.state >= 0 && st.state < HS_CMDGEN_NSTATES ? HS_CMDGEN_BIT(st.state) : 0;
    s.site_delay[0] = NAN; /* per step at the coordinator's page */
    s.energy_error = NAN;
    /* its own hold_timeout's time left (a coordinator's HOLD restarts it) */
    s.site_hold_left[0] = s.hold_left = st.hold_left;
    hs_monitor *mon = hs_cli_monitor_server(m);
    hs_monitor_publish(mon, &s);
    return hs_monitor_command_get(mon) == HS_MON_ABORT;
}
