/* `hysim run FILE --monitor [HOST:]PORT` (docs/monitor.md): the step loop's side of the live page.
 * The progress callback calls hs_cli_monitor_run_step after every committed step; it copies the
 * step's view into a sample at most every HS_CLI_MON_PERIOD wall seconds (and at the last step)
 * and pushes it into the monitor's lock-free ring (a full ring drops and counts; nothing waits).
 * Pause holds the loop between steps: no new targets go out, so every site holds on its own. */
#include "cli_monitor.h"

#include "hysim/cmdgen.h"
#include "hysim/site.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define HS_CLI_MON_PERIOD 0.04 /* s between samples: 25 a second */

struct hs_cli_monitor {
    hs_monitor *mon;
    hs_coordinator *c;             /* run: the test */
    const hs_test_def *def;        /* run: its definition */
    double last;                   /* monotonic s of the last sample */
    double paused_s;               /* wall s paused so far (the page's ETA leaves them out) */
    double stroke[HS_MON_MAX_ACT]; /* per stacked actuator; 0: none */
    double force_max[HS_MON_MAX_ACT];
    int hold_said[HS_MON_MAX_SITES]; /* the hold (HS_SITE_HOLD_*) last said on the terminal */
    hs_monitor_sample s;
};

static double hs_cli_mon_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int clampn(int n, int max)
{
    return n < max ? n : max;
}

double hs_cli_monitor_use(double x, double limit)
{
    return limit > 0.0 ? fabs(x) / limit : 0.0;
}

hs_cli_monitor *hs_cli_monitor_new(hs_ctx *ctx, const char *listen, const hs_monitor_layout *l)
{
    hs_cli_monitor *m = hs_calloc(1, sizeof *m);
    if (!m) return NULL;
    if (hs_monitor_create(ctx, listen, l, 256, &m->mon)) {
        hs_free(m);
        return NULL;
    }
    fprintf(stderr, "hysim monitor: http://%s:%d/  token %s (pause, resume and abort need it)\n",
            hs_monitor_host(m->mon), hs_monitor_port(m->mon), hs_monitor_token(m->mon));
    fflush(stderr);
    return m;
}

hs_monitor *hs_cli_monitor_server(hs_cli_monitor *m)
{
    return m->mon;
}

int hs_cli_monitor_run_start(hs_ctx *ctx, const char *listen, const hs_test_def *def,
                             hs_coordinator *c, hs_cli_monitor **out)
{
    hs_monitor_layout l;
    memset(&l, 0, sizeof l);
    snprintf(l.title, sizeof l.title, "%s", def->name);
    snprintf(l.role, sizeof l.role, "test");
    snprintf(l.units_length, sizeof l.units_length, "%s", def->units_length);
    snprintf(l.units_force, sizeof l.units_force, "%s", def->units_force);
    snprintf(l.units_time, sizeof l.units_time, "%s", def->units_time);
    hs_step_view v;
    hs_coordinator_step_view(c, &v);
    l.ndof = clampn(v.ndof, HS_MON_MAX_DOF);
    l.nact = clampn(v.nact, HS_MON_MAX_ACT);
    l.nsites = clampn(v.nsites, HS_MON_MAX_SITES);
    for (int s = 0; s < l.nsites; s++)
        snprintf(l.site_names[s], HS_MON_NAME, "%s", def->sites[s].name);
    for (int i = 0; i < l.ndof; i++) hs_coordinator_dof_name(c, i, l.dof_names[i], HS_MON_DOF_NAME);
    double stroke[HS_MON_MAX_ACT], force_max[HS_MON_MAX_ACT];
    for (int j = 0; j < l.nact; j++) {
        const hs_site_config *site = &def->sites[v.act_site[j]];
        const int ch = v.act_channel[j];
        snprintf(l.act_names[j], HS_MON_NAME, "%.63s.%.31s", site->name, site->actuator_names[ch]);
        /* a remote site's limits live in its own file: unknown here */
        const int local = strcmp(site->kind, "remote") != 0;
        stroke[j] = local ? site->actuator[ch].stroke : 0.0;
        force_max[j] = local ? site->actuator[ch].force_max : 0.0;
    }
    hs_cli_monitor *m = hs_cli_monitor_new(ctx, listen, &l);
    if (!m) return hs_ctx_message(ctx)[0] ? HS_EINPUT : HS_ENOMEM;
    m->c = c;
    m->def = def;
    memcpy(m->stroke, stroke, sizeof stroke);
    memcpy(m->force_max, force_max, sizeof force_max);
    *out = m;
    return 0;
}

static void hs_cli_mon_sample(hs_cli_monitor *m, int paused)
{
    hs_step_view v;
    hs_coordinator_step_view(m->c, &v);
    hs_monitor_sample *s = &m->s;
    s->step = v.step;
    s->steps = v.steps;
    s->t = v.t;
    s->ndof = clampn(v.ndof, HS_MON_MAX_DOF);
    s->nact = clampn(v.nact, HS_MON_MAX_ACT);
    s->nsites = clampn(v.nsites, HS_MON_MAX_SITES);
    memcpy(s->d, v.d, (size_t)s->ndof * sizeof(double));
    for (int j = 0; j < s->nact; j++) {
        s->x_cmd[j] = v.x_cmd[j];
        s->x_meas[j] = v.x_meas[j];
        s->f_meas[j] = v.f_meas[j];
        const double a = hs_cli_monitor_use(v.x_meas[j], m->stroke[j]),
                     b = hs_cli_monitor_use(v.f_meas[j], m->force_max[j]);
        s->limit_use[j] = a > b ? a : b;
    }
    for (int i = 0; i < s->nsites; i++) {
        /* paused: no target goes out, every site holds (its own page shows its controller) */
        s->site_states[i] = paused ? HS_CMDGEN_BIT(HS_CMDGEN_HOLD) : v.site_states[i];
        s->site_delay[i] = v.site_delay[i];
    }
    s->energy_error = v.energy->error_rel;
    s->paused = paused;
    s->paused_s = m->paused_s;
    s->hold_left = NAN;
    for (int i = 0; i < s->nsites; i++) {
        double left = NAN;
        s->site_hold[i] = paused ? hs_coordinator_site_hold(m->c, i, &left) : HS_SITE_HOLD_UNKNOWN;
        s->site_hold_left[i] = left;
        /* the first hold to end unless the operator resumes: one that is not kept alive */
        if (s->site_hold[i] != HS_SITE_HOLD_KEPT && isfinite(left) && !(left >= s->hold_left))
            s->hold_left = left;
    }
    hs_monitor_publish(m->mon, s);
}

/* While paused: says on the terminal, once per change, a site whose hold is not kept alive. */
static void hs_cli_mon_say_holds(hs_cli_monitor *m)
{
    for (int i = 0; i < m->s.nsites; i++) {
        const int h = m->s.site_hold[i];
        const double left = m->s.site_hold_left[i];
        if (h == m->hold_said[i]) continue;
        const char *name = m->def->sites[i].name;
        if (h == HS_SITE_HOLD_KEPT && m->hold_said[i] > HS_SITE_HOLD_KEPT)
            fprintf(stderr, "hysim monitor: site %s answers the keep-alive again\n", name);
        else if (h == HS_SITE_HOLD_LAPSING)
            fprintf(stderr,
                    "hysim monitor: site %s no longer answers the keep-alive: its hold ends in "
                    "%.1f s (its hold_timeout); resume before, or the site unloads and the test "
                    "cannot go on\n",
                    name, left);
        else if (h == HS_SITE_HOLD_ENDED)
            fprintf(stderr,
                    "hysim monitor: site %s has ended its hold (free vibration or done): the "
                    "test cannot go on there\n",
                    name);
        m->hold_said[i] = h;
    }
}

void hs_cli_monitor_run_step(hs_cli_monitor *m)
{
    double now = hs_cli_mon_now();
    const int64_t step = hs_coordinator_steps_done(m->c);
    if (now - m->last >= HS_CLI_MON_PERIOD || step >= m->def->steps || step <= 1) {
        hs_cli_mon_sample(m, 0);
        m->last = now;
    }
    hs_monitor_command cmd = hs_monitor_command_get(m->mon);
    if (cmd == HS_MON_PAUSE) {
        fprintf(stderr, "\nhysim monitor: paused by the operator after step %lld: the sites hold\n",
                (long long)step);
        const struct timespec nap = {0, 20000000};
        const double paused_at = now, paused_before = m->paused_s;
        memset(m->hold_said, 0, sizeof m->hold_said);
        while ((cmd = hs_monitor_command_get(m->mon)) == HS_MON_PAUSE) {
            m->paused_s = paused_before + (hs_cli_mon_now() - paused_at);
            hs_coordinator_idle(m->c); /* the sites hold, kept alive (HOLD) where they can be */
            if ((now = hs_cli_mon_now()) - m->last >= 0.25) { /* the page sees the pause */
                hs_cli_mon_sample(m, 1);
                hs_cli_mon_say_holds(m);
                m->last = now;
            }
            nanosleep(&nap, NULL);
        }
        if (cmd == HS_MON_RUN) fprintf(stderr, "hysim monitor: resumed by the operator\n");
    }
    if (cmd == HS_MON_ABORT)
        hs_coordinator_request_stop(m->c, "aborted by the operator from the monitor page");
}

void hs_cli_monitor_end(hs_cli_monitor **pm, const char *status, const char *reason)
{
    if (!pm || !*pm) return;
    hs_cli_monitor *m = *pm;
    if (m->c) hs_cli_mon_sample(m, 0); /* the last step */
    hs_monitor_finish(m->mon, status, reason);
    const unsigned long long dropped = hs_monitor_dropped(m->mon);
    if (dropped)
        fprintf(stderr, "hysim monitor: %llu samples dropped (the page fell behind)\n", dropped);
    hs_monitor_destroy(&m->mon);
    hs_free(m);
    *pm = NULL;
}
