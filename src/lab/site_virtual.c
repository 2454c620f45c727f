/* The virtual site: a virtual laboratory (actuators, sensors, specimen) driven by the site
 * controller (seed 000's event-driven command generator, delay compensation, safety limits) at
 * the controller rate, in the test's clock. The controller ticks on its own between targets: a
 * target that arrives late (links, compute time) finds it extrapolating, slowing or holding.
 * A perfect lab ticks once per step (rate 1 / (dt time_scale)), so its specimen is loaded exactly
 * as a numerical model would be (the consistency test relies on it). */
#include "site_impl.h"

#include "hysim/site_controller.h"
#include "hysim/tracking.h"

#include <math.h>
#include <string.h>

typedef struct site_virtual {
    hs_specimen *inner; /* the specimen model */
    hs_specimen *relax; /* relaxation wrapper around it, or NULL */
    hs_vlab *lab;
    hs_site_controller *sc;
    hs_compensator *comp[HS_SITE_MAX_ACT];
    hs_tracking *track[HS_SITE_MAX_ACT];
    double rate;
    int64_t max_ticks_per_step;
    int limit_flags;
    int ended;
} site_virtual;

/* Ticks the controller once, keeping the tracking figures; returns its events. */
static int sv_tick(hs_site *s, site_virtual *v)
{
    int ev = hs_site_controller_tick(v->sc);
    if (ev < 0) return hs_fail(s->ctx, ev, "site %s: %s", s->cfg.name, hs_ctx_message(s->ctx));
    const double *desired = hs_cmdgen_command(hs_site_controller_cmdgen(v->sc));
    const double *actual = hs_vlab_true_displacement(v->lab);
    for (int j = 0; j < s->cfg.nact; j++) hs_tracking_add(v->track[j], desired[j], actual[j]);
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
                           "site %s: ended the test on its side at %.3f s (hold timeout, the "
                           "specimen was unloaded)",
                           s->cfg.name, (double)hs_site_controller_ticks(v->sc) / v->rate);
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
    if (report.limit_flags)
        return hs_fail(
            s->ctx, HS_ELIMIT, "site %s: safety limit on actuator %s (value %g): the site holds",
            s->cfg.name,
            report.limit_channel >= 0 ? s->cfg.actuator_names[report.limit_channel] : "?",
            report.limit_value);
    return 0;
}

static int sv_initial_stiffness(const hs_site *s, double *K)
{
    const site_virtual *v = s->data;
    return hs_specimen_initial_stiffness(v->inner, K);
}

static hs_vlab *sv_vlab(hs_site *s)
{
    return ((site_virtual *)s->data)->lab;
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
    out->limit_flags = v->limit_flags | hs_vlab_flags(v->lab);
    out->ended = v->ended;
    out->nact = s->cfg.nact;
    for (int j = 0; j < s->cfg.nact; j++) {
        out->mte[j] = hs_tracking_mte(v->track[j]);
        out->rms[j] = hs_tracking_rms(v->track[j]);
        out->ti_peak[j] = hs_tracking_ti_peak(v->track[j]);
        out->a_es[j] = v->comp[j] ? hs_compensator_a_es(v->comp[j]) : 1.0;
    }
    return 0;
}

static void sv_destroy(hs_site *s)
{
    site_virtual *v = s->data;
    if (!v) return;
    hs_site_controller_destroy(&v->sc);
    hs_vlab_destroy(&v->lab);
    for (int j = 0; j < HS_SITE_MAX_ACT; j++) {
        hs_compensator_destroy(&v->comp[j]);
        hs_tracking_destroy(&v->track[j]);
    }
    hs_specimen_destroy(&v->relax);
    hs_specimen_destroy(&v->inner);
    hs_free(v);
    s->data = NULL;
}

/* The command generator's parameters from the site's `command` options. */
static int sv_cmdgen_params(hs_site *s, double dt, const double *K0, hs_cmdgen_params *p)
{
    const hs_site_config *c = &s->cfg;
    const hs_options *o = c->command_opts;
    site_virtual *v = s->data;
    *p = hs_cmdgen_params_default();
    p->nact = c->nact;
    p->rate = v->rate;
    p->dt = dt;
    p->time_scale = c->perfect ? 1.0 : c->time_scale;
    p->order = (int)hs_options_num(o, "order", p->order);
    p->extrapolate_limit = hs_options_num(o, "extrapolate_limit", p->extrapolate_limit);
    p->slow_limit = hs_options_num(o, "slow_limit", p->slow_limit);
    p->slow_factor = hs_options_num(o, "slow_factor", p->slow_factor);
    p->blend = hs_options_num(o, "blend", p->blend);
    p->hold_timeout = hs_options_num(o, "hold_timeout", p->hold_timeout);
    p->zeta = hs_options_num(o, "zeta", p->zeta);
    p->fv_dt = hs_options_num(o, "fv_dt", p->fv_dt);
    p->v_tol = hs_options_num(o, "v_tol", p->v_tol);
    p->f_tol = hs_options_num(o, "f_tol", p->f_tol);
    p->rel_tol = hs_options_num(o, "rel_tol", p->rel_tol);
    p->quiet_time = hs_options_num(o, "quiet_time", p->quiet_time);
    p->stop_time = hs_options_num(o, "stop_time", p->stop_time);
    p->fv_max_time = hs_options_num(o, "fv_max_time", p->fv_max_time);
    const double *mass = NULL;
    const size_t nm = hs_options_list(o, "mass", &mass);
    if (mass && nm == (size_t)(c->nact * c->nact)) {
        p->mass = mass; /* given row by row; symmetric, so the layout does not matter */
        p->stiffness = K0;
    }
    return 0;
}

static int sv_create_controller(hs_site *s, double dt)
{
    site_virtual *v = s->data;
    const hs_site_config *c = &s->cfg;
    double K0[HS_SITE_MAX_ACT * HS_SITE_MAX_ACT];
    const int have_k = hs_specimen_initial_stiffness(v->inner, K0) == 0;
    hs_site_controller_params p = hs_site_controller_params_default();
    int rc = sv_cmdgen_params(s, dt, have_k ? K0 : NULL, &p.gen);
    if (rc) return rc;
    hs_site_limits limits[HS_SITE_MAX_ACT];
    for (int j = 0; j < c->nact; j++)
        limits[j] = (hs_site_limits){.disp = c->actuator[j].stroke,
                                     .vel = c->actuator[j].velocity_max,
                                     .force = c->actuator[j].force_max};
    p.limits = limits;
    p.stiffness = have_k ? K0 : NULL;
    p.compensator = v->comp;
    rc = hs_site_controller_create(s->ctx, &p, v->lab, &v->sc);
    if (rc) return hs_fail(s->ctx, rc, "site %s: %s", c->name, hs_ctx_message(s->ctx));
    const int N = hs_cmdgen_ticks_per_step(hs_site_controller_cmdgen(v->sc));
    v->max_ticks_per_step = 100 * (int64_t)N + (int64_t)(10.0 * v->rate);
    return 0;
}

/* The laboratory at the controller rate (a perfect lab ticks once per step). */
static int sv_create_lab(hs_site *s)
{
    site_virtual *v = s->data;
    const hs_site_config *c = &s->cfg;
    hs_specimen *spec = v->relax ? v->relax : v->inner;
    int rc;
    hs_actuator_params act[HS_SITE_MAX_ACT];
    for (int j = 0; j < c->nact; j++) {
        act[j] = c->actuator[j];
        act[j].rate = v->rate;
    }
    hs_vlab_params p = {.n_act = c->nact,
                        .perfect = c->perfect,
                        .seed = c->seed,
                        .actuator = act,
                        .actuator_count = c->nact,
                        .displacement = c->displacement,
                        .force = c->force};
    rc = hs_vlab_create(s->ctx, &p, spec, &v->lab);
    if (rc) return hs_fail(s->ctx, rc, "site %s: %s", c->name, hs_ctx_message(s->ctx));
    return 0;
}

/* The lab and the controller need dt: the virtual site builds them at setup. */
static int sv_setup_controller(hs_site *s, double dt)
{
    site_virtual *v = s->data;
    hs_site_controller_destroy(&v->sc);
    hs_vlab_destroy(&v->lab);
    if (s->cfg.perfect) v->rate = 1.0 / dt;
    int rc = sv_create_lab(s);
    return rc ? rc : sv_create_controller(s, dt);
}

int hs_site_create_virtual(hs_site *s)
{
    const hs_site_config *c = &s->cfg;
    site_virtual *v = hs_calloc(1, sizeof *v);
    if (!v) return HS_ENOMEM;
    s->data = v;
    s->ops.setup = sv_setup_controller;
    s->ops.send_target = sv_send_target;
    s->ops.get_measurement = sv_get_measurement;
    s->ops.initial_stiffness = sv_initial_stiffness;
    s->ops.vlab = sv_vlab;
    s->ops.summary = sv_summary;
    s->ops.destroy = sv_destroy;
    v->rate = c->rate > 0.0 ? c->rate : 1024.0;
    int rc = hs_specimen_create(s->ctx, c->specimen_type, c->nact, c->specimen_opts, &v->inner);
    if (rc) return hs_fail(s->ctx, rc, "site %s: specimen: %s", c->name, hs_ctx_message(s->ctx));
    for (int j = 0; c->has_voltage && j < c->nact; j++) {
        rc = hs_specimen_set_input(v->inner, j, c->voltage[j]);
        if (rc)
            return hs_fail(s->ctx, rc, "site %s: specimen %s takes no voltage", c->name,
                           c->specimen_type);
    }
    if (c->relaxation_opts && !c->perfect) {
        rc = hs_specimen_create_relaxation(s->ctx, v->inner, c->relaxation_opts, &v->relax);
        if (rc) return rc;
    }
    for (int j = 0; j < c->nact; j++) {
        rc = hs_tracking_create(s->ctx, 0, 1, &v->track[j]);
        if (rc) return rc;
        if (c->compensation_opts && !c->perfect) {
            const char *type = hs_options_str(c->compensation_opts, "type", "none");
            rc = hs_compensator_create(s->ctx, type, c->compensation_opts, v->rate, &v->comp[j]);
            if (rc)
                return hs_fail(s->ctx, rc, "site %s: compensation: %s", c->name,
                               hs_ctx_message(s->ctx));
        }
    }
    return 0;
}
