/* The virtual site: a virtual laboratory (actuators, sensors, specimen) driven by the site
 * controller (Mosqueda et al.'s (2004) event-driven command generator, delay compensation, safety
 * limits) at the controller rate, in the test's clock. The controller ticks on its own between
 * targets: a target that arrives late (links, compute time) finds it extrapolating, slowing or
 * holding. A perfect lab ticks once per step (rate 1 / (dt time_scale)), so its specimen is loaded
 * exactly as a numerical model would be (the consistency test relies on it). */
#include "site_build.h"
#include "site_impl.h"

#include "hysim/site_controller.h"
#include "hysim/tracking.h"

#include <math.h>
#include <string.h>

typedef struct site_virtual {
    hs_site_rig rig; /* specimen, compensators, laboratory (site_build.h) */
    hs_site_controller *sc;
    hs_tracking *track[HS_SITE_MAX_ACT];
    double rate;
    int64_t max_ticks_per_step;
    int limit_flags;
    int ended;
    /* tick-level peaks per actuator: |command sent|, |velocity|, |true force| */
    double peak_cmd[HS_SITE_MAX_ACT], peak_vel[HS_SITE_MAX_ACT], peak_force[HS_SITE_MAX_ACT];
    double last_actual[HS_SITE_MAX_ACT]; /* a setup's control DOFs at the last tick */
} site_virtual;

/* Ticks the controller once, keeping the tracking figures; returns its events. */
static int sv_tick(hs_site *s, site_virtual *v)
{
    int ev = hs_site_controller_tick(v->sc);
    if (ev < 0) return hs_fail(s->ctx, ev, "site %s: %s", s->cfg.name, hs_ctx_message(s->ctx));
    const double *desired = hs_cmdgen_command(hs_site_controller_cmdgen(v->sc));
    /* the site's channels: the vlab's actuators, or a setup's control DOFs (docs/setups.md) */
    const double *actual = hs_lab_true_displacement(v->rig.io);
    const double *cmd = hs_site_controller_command(v->sc), *f = hs_lab_true_force(v->rig.io);
    for (int j = 0; j < s->cfg.nact; j++) {
        hs_tracking_add(v->track[j], desired[j], actual[j]);
        const double vel = s->cfg.has_setup
                               ? fabs(actual[j] - v->last_actual[j]) * v->rate
                               : fabs(hs_actuator_velocity(hs_vlab_actuator(v->rig.lab, j)));
        v->last_actual[j] = actual[j];
        v->peak_cmd[j] = fmax(v->peak_cmd[j], fabs(cmd[j]));
        v->peak_vel[j] = fmax(v->peak_vel[j], vel);
        v->peak_force[j] = fmax(v->peak_force[j], fabs(f[j]));
    }
    if (ev & HS_CMDGEN_EV_DONE) v->ended = 1;
    return ev;
}

/* Ticks until the controller's clock reaches `wall` (s). */
static int sv_advance(hs_site *s, site_virtual *v, double wall)
{
    const int64_t until = (int64_t)floor(wall * v->rate + 1e-6);
    while (hs_site_controller_ticks(v->sc) < until) {
        int ev = sv_tick(s, v);
        if (ev < 0) return ev;
        if (v->ended)
            return hs_fail(s->ctx, HS_EABORTED,
                           "site %s: ended the test on its side at %.3f s (%s)", s->cfg.name,
                           (double)hs_site_controller_ticks(v->sc) / v->rate,
                           hs_site_ended_why(&s->cfg));
    }
    return 0;
}

static int sv_send_target(hs_site *s, int64_t step, double t, const double *x, double wall)
{
    site_virtual *v = s->data;
    int rc = sv_advance(s, v, wall);
    if (rc) return rc;
    rc = hs_site_controller_target(v->sc, step, t, x);
    if (rc == HS_ELIMIT)
        return hs_fail(s->ctx, HS_ELIMIT, "site %s: holding after a safety limit trip",
                       s->cfg.name);
    return rc ? hs_fail(s->ctx, rc, "site %s: %s", s->cfg.name, hs_ctx_message(s->ctx)) : 0;
}

static int sv_get_measurement(hs_site *s, hs_site_measurement *m)
{
    site_virtual *v = s->data;
    for (int64_t k = 0; !hs_site_controller_ready(v->sc); k++) {
        if (k > v->max_ticks_per_step)
            return hs_fail(s->ctx, HS_ETIMEOUT, "site %s: the target was not reached in %lld ticks",
                           s->cfg.name, (long long)k);
        int ev = sv_tick(s, v);
        if (ev < 0) return ev;
        if (v->ended && !hs_site_controller_ready(v->sc))
            return hs_fail(s->ctx, HS_EABORTED, "site %s: ended the test on its side", s->cfg.name);
    }
    hs_site_report report;
    int rc = hs_site_controller_measurement(v->sc, m, &report);
    if (rc) return hs_fail(s->ctx, rc, "site %s: no measurement", s->cfg.name);
    m->wall = report.t_wall;
    m->ticks = (int)report.record.ticks;
    m->states = report.record.states;
    m->delay = (double)report.record.delay_ticks / v->rate;
    for (int j = 0; j < s->cfg.nact; j++) {
        m->te[j] = hs_tracking_error(v->track[j]);
        m->ti[j] = hs_tracking_ti(v->track[j]);
    }
    v->limit_flags |= m->flags | report.limit_flags;
    if (report.limit_flags) {
        char text[1024];
        hs_site_limit_message(
            text, sizeof text, s->cfg.name,
            report.limit_channel >= 0 ? s->cfg.actuator_names[report.limit_channel] : "?", &report,
            s->cfg.units_length, s->cfg.units_force, s->cfg.units_time);
        return hs_fail(s->ctx, HS_ELIMIT, "%s", text);
    }
    return 0;
}

static int sv_initial_stiffness(const hs_site *s, double *K)
{
    const site_virtual *v = s->data;
    return hs_specimen_initial_stiffness(v->rig.inner, K);
}

static hs_vlab *sv_vlab(hs_site *s)
{
    return ((site_virtual *)s->data)->rig.lab;
}

static int sv_summary(const hs_site *s, hs_site_summary *out)
{
    const site_virtual *v = s->data;
    hs_cmdgen_summary g;
    hs_cmdgen_summary_get(hs_site_controller_cmdgen(v->sc), &g);
    memset(out, 0, sizeof *out);
    out->steps = g.steps;
    out->max_delay = g.max_delay;
    out->total_time = g.total_time;
    int64_t t1 = 0, t2 = 0;
    hs_cmdgen_timeout_ticks(hs_site_controller_cmdgen(v->sc), &t1, &t2, NULL);
    out->slow_after = (double)t1 / v->rate;
    out->hold_after = (double)(t1 + t2) / v->rate;
    out->pct_slow = g.pct_slow;
    out->pct_hold = g.pct_hold;
    for (int k = 0; k < HS_CMDGEN_NSTATES && k < 8; k++) out->state_ticks[k] = g.state_ticks[k];
    out->limit_flags = v->limit_flags | hs_vlab_flags(v->rig.lab);
    out->ended = v->ended;
    out->nact = s->cfg.nact;
    for (int j = 0; j < s->cfg.nact; j++) {
        out->mte[j] = hs_tracking_mte(v->track[j]);
        out->rms[j] = hs_tracking_rms(v->track[j]);
        out->ti_peak[j] = hs_tracking_ti_peak(v->track[j]);
        out->a_es[j] = v->rig.comp[j] ? hs_compensator_a_es(v->rig.comp[j]) : 1.0;
        out->peak_cmd[j] = v->peak_cmd[j];
        out->peak_vel[j] = v->peak_vel[j];
        out->peak_force[j] = v->peak_force[j];
        out->stroke[j] = s->cfg.actuator[j].stroke;
        out->velocity_max[j] = s->cfg.actuator[j].velocity_max;
        out->force_max[j] = s->cfg.actuator[j].force_max;
    }
    out->has_peaks = 1;
    out->rehearsal = s->cfg.rehearsal;
    return 0;
}

static void sv_destroy(hs_site *s)
{
    site_virtual *v = s->data;
    if (!v) return;
    hs_site_controller_destroy(&v->sc);
    hs_site_rig_release(&v->rig);
    for (int j = 0; j < HS_SITE_MAX_ACT; j++) hs_tracking_destroy(&v->track[j]);
    hs_free(v);
    s->data = NULL;
}

/* ---------------------------------------------------------------- checkpoint state
 * layout: limit_flags, ended, vlab (actuators, sensors, specimen), site controller (with its
 * command generator), then per actuator: compensator (when present), tracking; then the peaks
 * (|command|, |velocity|, |force| per actuator) */
static size_t sv_state_size(const hs_site *s)
{
    const site_virtual *v = s->data;
    return 2 + hs_site_rig_state_size(&v->rig, v->sc, v->track, s->cfg.nact) +
           3 * (size_t)s->cfg.nact;
}

static double *sv_peaks(site_virtual *v, int k)
{
    return k == 0 ? v->peak_cmd : k == 1 ? v->peak_vel : v->peak_force;
}

static int sv_state_save(const hs_site *s, double *out)
{
    site_virtual *v = s->data;
    const size_t n = (size_t)s->cfg.nact;
    out[0] = (double)v->limit_flags;
    out[1] = (double)v->ended;
    const int rc = hs_site_rig_state_save(&v->rig, v->sc, v->track, s->cfg.nact, out + 2);
    out += 2 + hs_site_rig_state_size(&v->rig, v->sc, v->track, s->cfg.nact);
    for (int k = 0; k < 3; k++) memcpy(out + (size_t)k * n, sv_peaks(v, k), n * sizeof(double));
    return rc;
}

static int sv_state_load(hs_site *s, const double *in)
{
    site_virtual *v = s->data;
    if (!(in[0] >= 0.0 && in[0] < 2147483648.0 && in[0] == floor(in[0])) ||
        !(in[1] == 0.0 || in[1] == 1.0))
        return hs_fail(s->ctx, HS_EINPUT, "site %s: the saved state holds bad flags", s->cfg.name);
    v->limit_flags = (int)in[0];
    v->ended = (int)in[1];
    const int rc = hs_site_rig_state_load(&v->rig, v->sc, v->track, s->cfg.nact, in + 2);
    if (rc) return hs_fail(s->ctx, rc, "site %s: %s", s->cfg.name, hs_ctx_message(s->ctx));
    in += 2 + hs_site_rig_state_size(&v->rig, v->sc, v->track, s->cfg.nact);
    for (int i = 0; i < 3 * s->cfg.nact; i++)
        if (!(in[i] >= 0.0 && in[i] < INFINITY))
            return hs_fail(s->ctx, HS_EINPUT, "site %s: the saved state holds a bad peak (%g)",
                           s->cfg.name, in[i]);
    const size_t n = (size_t)s->cfg.nact;
    for (int k = 0; k < 3; k++) memcpy(sv_peaks(v, k), in + (size_t)k * n, n * sizeof(double));
    return 0;
}

/* A virtual site's state comes back with hs_site_state_load; resuming checks that it stands where
 * the coordinator left it: `step` targets reached, the last one being x_held bit for bit (at
 * D_target the generator's command is the target itself). */
static int sv_resume(hs_site *s, int64_t step, const double *x_held)
{
    site_virtual *v = s->data;
    const hs_cmdgen *g = hs_site_controller_cmdgen(v->sc);
    hs_cmdgen_summary sum;
    hs_cmdgen_summary_get(g, &sum);
    if (sum.steps != step)
        return hs_fail(s->ctx, HS_EPROTO,
                       "site %s: holds the specimen after step %lld, the coordinator resumes after "
                       "step %lld",
                       s->cfg.name, (long long)sum.steps, (long long)step);
    const double *x = hs_cmdgen_command(g);
    for (int j = 0; step > 0 && j < s->cfg.nact; j++)
        if (x[j] != x_held[j])
            return hs_fail(s->ctx, HS_EPROTO,
                           "site %s: actuator %s holds %.17g, the coordinator's last target of "
                           "step %lld is %.17g",
                           s->cfg.name, s->cfg.actuator_names[j], x[j], (long long)step, x_held[j]);
    return 0;
}

/* The lab and the controller need dt: the virtual site builds them at setup (site_build.c). A
 * perfect lab ticks once per step, in the simulation's own time. */
static int sv_setup_controller(hs_site *s, double dt)
{
    site_virtual *v = s->data;
    const hs_site_config *c = &s->cfg;
    hs_site_controller_destroy(&v->sc);
    if (c->perfect) v->rate = 1.0 / dt;
    int rc = hs_site_rig_lab(s->ctx, c, v->rate, &v->rig);
    if (!rc)
        rc = hs_site_rig_controller(s->ctx, c, &v->rig, v->rate, dt,
                                    c->perfect ? 1.0 : c->time_scale, 0, &v->sc);
    /* the first command is where the rig rests (docs/lab_backends.md): the virtual lab's 0 (a
     * real laboratory is refused at creation, hs_site_kind_virtual) */
    if (!rc) rc = hs_site_rig_start(s->ctx, c, &v->rig, v->sc);
    if (rc) return rc;
    const int N = hs_cmdgen_ticks_per_step(hs_site_controller_cmdgen(v->sc));
    v->max_ticks_per_step = 100 * (int64_t)N + (int64_t)(10.0 * v->rate);
    return 0;
}

int hs_site_kind_virtual(hs_site *s)
{
    const hs_site_config *c = &s->cfg;
    /* A real laboratory is driven by `hysim site` only (docs/lab_backends.md): its real clock, its
     * state file, and after a restart its move back from where the rig is to a held test's command
     * (docs/site_server.md). An in-process site runs in the test's (virtual) clock and resumes
     * from the run's checkpoint, which holds the virtual lab's state but cannot know where a real
     * rig stands: it would restore the held command over a rig moved meanwhile. */
    if (c->lab.kind[0] && strcmp(c->lab.kind, "virtual") != 0)
        return hs_fail(s->ctx, HS_EINPUT,
                       "site %s: a '%s' laboratory runs behind `hysim site` only (its real clock, "
                       "and a resume that reads where the rig is): an in-process site runs the "
                       "virtual laboratory. Start `hysim site --config SITE.yaml` with this "
                       "laboratory and give the test a remote site (docs/lab_backends.md)",
                       c->name, c->lab.kind);
    site_virtual *v = hs_calloc(1, sizeof *v);
    if (!v) return HS_ENOMEM;
    s->data = v;
    s->ops.setup = sv_setup_controller;
    s->ops.send_target = sv_send_target;
    s->ops.get_measurement = sv_get_measurement;
    s->ops.initial_stiffness = sv_initial_stiffness;
    s->ops.vlab = sv_vlab;
    s->ops.summary = sv_summary;
    s->ops.state_size = sv_state_size;
    s->ops.state_save = sv_state_save;
    s->ops.state_load = sv_state_load;
    s->ops.resume = sv_resume;
    s->ops.destroy = sv_destroy;
    v->rate = c->rate > 0.0 ? c->rate : 1024.0;
    int rc = hs_site_rig_create(s->ctx, c, v->rate, &v->rig);
    for (int j = 0; !rc && j < c->nact; j++) rc = hs_tracking_create(s->ctx, 0, 1, &v->track[j]);
    return rc;
}
