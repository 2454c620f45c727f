/* The laboratory a site configuration describes, for the pre-test procedures: the same rig as the
 * site's (site_build.h) without compensation, its per-tick exchange (paced on the site's rate for
 * a real back end), its actuators' limits and where the rig rests (read as for the site's first
 * command). */
#include "hysim/pretest.h"
#include "hysim/rt_loop.h"
#include "hysim/site.h"

#include "site_build.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

struct hs_pretest_site {
    hs_site_config cfg; /* a copy without compensation; option pointers lent */
    hs_site_rig rig;
    hs_pretest_lab lab;
    FILE *log; /* the tick log (hs_pretest_site_log), or NULL */
    int64_t ticks;
    /* a real back end's ticks are paced on the site's rate (CLOCK_MONOTONIC, absolute deadlines):
     * the period in ns (0: the virtual lab, ticked as fast as the machine goes) and the next
     * deadline (0: none yet) */
    int64_t period_ns, next_ns;
};

/* Waits for the tick's deadline; a tick later than one period starts the count again (no burst
 * of commands to catch up). */
static void pace(hs_pretest_site *s)
{
    const int64_t now = hs_rt_now();
    if (s->next_ns == 0 || now > s->next_ns + s->period_ns)
        s->next_ns = now;
    else {
        int64_t woke;
        (void)hs_rt_wait(s->next_ns, 0, &woke);
    }
    s->next_ns += s->period_ns;
}

/* Through the site's laboratory exchange: the vlab's actuators, or a setup's control DOFs. */
static int exchange(void *user, const double *cmd, double *x, double *f)
{
    hs_pretest_site *s = user;
    hs_lab_input in = {.x = x, .f = f};
    if (s->period_ns) pace(s);
    const int rc = hs_lab_exchange(s->rig.io, cmd, &in);
    s->ticks++;
    if (!rc && s->log) {
        fprintf(s->log, "%lld", (long long)s->ticks);
        const double *cols[3] = {cmd, x, f};
        for (int c = 0; c < 3; c++)
            for (int j = 0; j < s->cfg.nact; j++) fprintf(s->log, ",%.17g", cols[c][j]);
        fputc('\n', s->log);
    }
    return rc;
}

int hs_pretest_site_log(hs_ctx *ctx, hs_pretest_site *s, const char *path)
{
    if (!(s->log = fopen(path, "w")))
        return hs_fail(ctx, HS_EIO, "pretest: cannot write the tick log '%s': %s", path,
                       strerror(errno));
    fputs("tick", s->log);
    static const char *const col[3] = {"command", "x", "f"};
    for (int c = 0; c < 3; c++)
        for (int j = 0; j < s->cfg.nact; j++)
            fprintf(s->log, ",%s_%s", col[c], s->cfg.actuator_names[j]);
    fputc('\n', s->log);
    return 0;
}

int hs_pretest_site_create(hs_ctx *ctx, const hs_site_config *cfg, hs_pretest_site **out)
{
    if (!cfg || !out) return hs_fail(ctx, HS_EINVAL, "pretest: no site configuration");
    *out = NULL;
    if (cfg->nact < 1 || cfg->nact > HS_PRETEST_MAX_ACT)
        return hs_fail(ctx, HS_EINPUT, "pretest: site %s has %d actuators (1 to %d)", cfg->name,
                       cfg->nact, HS_PRETEST_MAX_ACT);
    hs_pretest_site *s = hs_calloc(1, sizeof *s);
    if (!s) return hs_fail(ctx, HS_ENOMEM, "pretest: out of memory");
    s->cfg = *cfg;
    s->cfg.compensation_opts = NULL;
    int rc = hs_site_rig_create(ctx, &s->cfg, cfg->rate, &s->rig);
    if (!rc) rc = hs_site_rig_lab(ctx, &s->cfg, cfg->rate, &s->rig);
    /* where the rig rests, as at the site's first command (refused beyond the stroke): the
     * procedures' commands are relative to it (docs/pretest.md, "Over a real laboratory") */
    double x[HS_SITE_MAX_ACT] = {0};
    const int at = rc ? rc : hs_site_rig_position(ctx, &s->cfg, &s->rig, x);
    if (at < 0) rc = at;
    if (!rc) {
        memcpy(s->lab.rest, x, (size_t)cfg->nact * sizeof(double));
        if (at == 0) /* a real laboratory: its ticks on the site's rate */
            s->period_ns = (int64_t)llround(1e9 / cfg->rate);
        for (int j = 0; at == 0 && j < cfg->nact; j++)
            hs_log(ctx, HS_LOG_INFO,
                   "pretest: site %s: actuator %s rests at %.9g%s%s: the procedures command "
                   "about it (the first command is it) and return to it",
                   cfg->name, cfg->actuator_names[j], x[j], cfg->units_length[0] ? " " : "",
                   cfg->units_length);
    }
    if (rc) {
        hs_pretest_site_destroy(&s);
        return rc;
    }
    s->lab.nact = cfg->nact;
    s->lab.rate = cfg->rate;
    s->lab.exchange = exchange;
    s->lab.user = s;
    for (int j = 0; j < cfg->nact; j++) {
        s->lab.stroke[j] = cfg->actuator[j].stroke;
        s->lab.velocity_max[j] = cfg->actuator[j].velocity_max;
        s->lab.acceleration_max[j] = cfg->acceleration_limit[j];
        s->lab.step_max[j] = cfg->step_limit[j];
        s->lab.force_max[j] = cfg->actuator[j].force_max;
    }
    *out = s;
    return 0;
}

void hs_pretest_site_destroy(hs_pretest_site **s)
{
    if (!s || !*s) return;
    if ((*s)->log) fclose((*s)->log);
    hs_site_rig_release(&(*s)->rig);
    hs_free(*s);
    *s = NULL;
}

const hs_pretest_lab *hs_pretest_site_lab(const hs_pretest_site *s)
{
    return s ? &s->lab : NULL;
}
