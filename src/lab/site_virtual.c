/* The virtual site: a virtual laboratory (actuators, sensors, specimen) in the coordinator's
 * process. Until the event-driven command generator lands, each target is reached by a linear
 * ramp from the previous target over the ticks of one step, N = round(dt * time_scale * rate),
 * and measured at the last tick. A perfect lab reaches the target in a single tick, so the
 * specimen is loaded exactly as a numerical model would be (the consistency test relies on it). */
#include "site_impl.h"

#include <math.h>
#include <string.h>

typedef struct site_virtual {
    hs_specimen *inner; /* the specimen model */
    hs_specimen *relax; /* relaxation wrapper around it, or NULL */
    hs_vlab *lab;
    double dt;
    int ticks_per_step;
    double *x_prev, *x_target, *x_cmd, *x_meas, *f_meas;
    /* ring of the last HS_EXP_HISTORY samples */
    double ring_t[HS_EXP_HISTORY], *ring_x, *ring_f;
    int ring_n, ring_head;
    double t_target;
    int flags;
    int pending;
} site_virtual;

static int sv_setup(hs_site *s, double dt)
{
    site_virtual *v = s->data;
    v->dt = dt;
    const double ticks = s->cfg.perfect ? 1.0 : floor(dt * s->cfg.time_scale * s->cfg.rate + 0.5);
    v->ticks_per_step = ticks < 1.0 ? 1 : (int)ticks;
    return 0;
}

static int sv_send_target(hs_site *s, int64_t step, double t, const double *x)
{
    (void)step;
    site_virtual *v = s->data;
    memcpy(v->x_target, x, (size_t)s->cfg.nact * sizeof(double));
    v->t_target = t;
    v->pending = 1;
    return 0;
}

static void sv_remember(site_virtual *v, int nact, double t)
{
    const int slot = v->ring_head;
    v->ring_t[slot] = t;
    memcpy(v->ring_x + (size_t)slot * (size_t)nact, v->x_meas, (size_t)nact * sizeof(double));
    memcpy(v->ring_f + (size_t)slot * (size_t)nact, v->f_meas, (size_t)nact * sizeof(double));
    v->ring_head = (slot + 1) % HS_EXP_HISTORY;
    if (v->ring_n < HS_EXP_HISTORY) v->ring_n++;
}

static int sv_get_measurement(hs_site *s, hs_site_measurement *m)
{
    site_virtual *v = s->data;
    const int nact = s->cfg.nact, N = v->ticks_per_step;
    if (!v->pending) return hs_fail(s->ctx, HS_EINVAL, "site %s: no target to reach", s->cfg.name);
    const double t0 = v->t_target - v->dt;
    int flags = 0;
    for (int k = 1; k <= N; k++) {
        const double w = (double)k / (double)N;
        for (int j = 0; j < nact; j++) v->x_cmd[j] = (1.0 - w) * v->x_prev[j] + w * v->x_target[j];
        int rc = hs_vlab_tick(v->lab, v->x_cmd, v->x_meas, v->f_meas);
        if (rc) return hs_fail(s->ctx, rc, "site %s: %s", s->cfg.name, hs_ctx_message(s->ctx));
        for (int j = 0; j < nact; j++) flags |= hs_actuator_flags(hs_vlab_actuator(v->lab, j));
        sv_remember(v, nact, t0 + w * v->dt);
    }
    memcpy(v->x_prev, v->x_target, (size_t)nact * sizeof(double));
    memcpy(m->x, v->x_meas, (size_t)nact * sizeof(double));
    memcpy(m->f, v->f_meas, (size_t)nact * sizeof(double));
    m->t = v->t_target;
    m->flags = flags;
    m->ticks = N;
    m->nhist = v->ring_n;
    for (int k = 0; k < v->ring_n; k++) {
        const int slot = (v->ring_head - v->ring_n + k + HS_EXP_HISTORY) % HS_EXP_HISTORY;
        m->hist_t[k] = v->ring_t[slot];
        memcpy(m->hist_x + (size_t)k * (size_t)nact, v->ring_x + (size_t)slot * (size_t)nact,
               (size_t)nact * sizeof(double));
        memcpy(m->hist_f + (size_t)k * (size_t)nact, v->ring_f + (size_t)slot * (size_t)nact,
               (size_t)nact * sizeof(double));
    }
    v->pending = 0;
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

static size_t sv_state_size(const hs_site *s)
{
    const site_virtual *v = s->data;
    return hs_vlab_state_size(v->lab) + (size_t)s->cfg.nact;
}

static int sv_state_save(const hs_site *s, double *out)
{
    const site_virtual *v = s->data;
    memcpy(out, v->x_prev, (size_t)s->cfg.nact * sizeof(double));
    return hs_vlab_state_save(v->lab, out + s->cfg.nact);
}

static int sv_state_load(hs_site *s, const double *in)
{
    site_virtual *v = s->data;
    memcpy(v->x_prev, in, (size_t)s->cfg.nact * sizeof(double));
    v->ring_n = v->ring_head = 0;
    return hs_vlab_state_load(v->lab, in + s->cfg.nact);
}

static void sv_destroy(hs_site *s)
{
    site_virtual *v = s->data;
    if (!v) return;
    hs_vlab_destroy(&v->lab);
    hs_specimen_destroy(&v->relax);
    hs_specimen_destroy(&v->inner);
    hs_free(v->x_prev);
    hs_free(v->x_target);
    hs_free(v->x_cmd);
    hs_free(v->x_meas);
    hs_free(v->f_meas);
    hs_free(v->ring_x);
    hs_free(v->ring_f);
    hs_free(v);
    s->data = NULL;
}

int hs_site_create_virtual(hs_site *s)
{
    const hs_site_config *c = &s->cfg;
    site_virtual *v = hs_calloc(1, sizeof *v);
    if (!v) return HS_ENOMEM;
    s->data = v;
    s->ops.setup = sv_setup;
    s->ops.send_target = sv_send_target;
    s->ops.get_measurement = sv_get_measurement;
    s->ops.initial_stiffness = sv_initial_stiffness;
    s->ops.vlab = sv_vlab;
    s->ops.state_size = sv_state_size;
    s->ops.state_save = sv_state_save;
    s->ops.state_load = sv_state_load;
    s->ops.destroy = sv_destroy;
    const size_t n = (size_t)c->nact;
    v->x_prev = hs_dvec(n);
    v->x_target = hs_dvec(n);
    v->x_cmd = hs_dvec(n);
    v->x_meas = hs_dvec(n);
    v->f_meas = hs_dvec(n);
    v->ring_x = hs_dvec(n * HS_EXP_HISTORY);
    v->ring_f = hs_dvec(n * HS_EXP_HISTORY);
    if (!v->x_prev || !v->x_target || !v->x_cmd || !v->x_meas || !v->f_meas || !v->ring_x ||
        !v->ring_f)
        return HS_ENOMEM;
    int rc = hs_specimen_create(s->ctx, c->specimen_type, c->nact, c->specimen_opts, &v->inner);
    if (rc) return hs_fail(s->ctx, rc, "site %s: specimen: %s", c->name, hs_ctx_message(s->ctx));
    for (int j = 0; c->has_voltage && j < c->nact; j++) {
        rc = hs_specimen_set_input(v->inner, j, c->voltage[j]);
        if (rc)
            return hs_fail(s->ctx, rc, "site %s: specimen %s takes no voltage", c->name,
                           c->specimen_type);
    }
    hs_specimen *spec = v->inner;
    if (c->relaxation_opts && !c->perfect) {
        rc = hs_specimen_create_relaxation(s->ctx, v->inner, c->relaxation_opts, &v->relax);
        if (rc) return rc;
        spec = v->relax;
    }
    hs_actuator_params act[HS_SITE_MAX_ACT];
    for (int j = 0; j < c->nact; j++) {
        act[j] = c->actuator[j];
        act[j].rate = c->rate;
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
