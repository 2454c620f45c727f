/* Force relaxation under constant displacement (Mosqueda et al. 2004, Fig. 9: during a hold the
 * force decays at constant displacement and recovers once the actuator moves again). A wrapper
 * around any specimen; per channel, with f_s the wrapped specimen's force and v the actuator
 * velocity: f = f_s - q |v| <  v_still (still):  dq/dt = (phi f_s - q) / tau |v| >= v_still
 * (moving): dq/dt = -q / tau_recover integrated exactly over each step with f_s held at its trial
 * value: still:  q(t + dt) = phi f_s + (q - phi f_s) exp(-dt / tau) moving: q(t + dt) = q exp(-dt /
 * tau_recover). Held at f_s = f0 from q = 0: f(t) = f0 [1 - phi (1 - exp(-t / tau))] -> (1 - phi)
 * f0. */
#include "specimen_impl.h"

#include <math.h>
#include <string.h>

const hs_param_spec hs_specimen_relaxation_params[] = {
    {"inner", HS_PARAM_STR, 1, "type of the relaxing specimen (its options sit beside these)"},
    {"fraction", HS_PARAM_NUM, 1, "phi: fraction of the force lost after a long hold, 0..1"},
    {"tau", HS_PARAM_NUM, 1, "relaxation time constant (time)"},
    {"v_still", HS_PARAM_NUM, 1, "velocity below which the actuator counts as still"},
    {"tau_recover", HS_PARAM_NUM, 0, "recovery time constant once moving (default tau)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

typedef struct relax {
    double phi, tau, tau_r, v_still;
    double *q_c, *q; /* n */
    int owns_inner;
} relax;

static int relax_set_trial(hs_specimen *s, double dt)
{
    relax *r = s->data;
    int rc = hs_specimen_set_trial(s->inner, s->t, s->x);
    if (rc) return rc;
    const double *fs = hs_specimen_force(s->inner);
    const double es = dt > 0.0 ? exp(-dt / r->tau) : 1.0;
    const double em = dt > 0.0 ? exp(-dt / r->tau_r) : 1.0;
    for (int i = 0; i < s->n; i++) {
        const double v = dt > 0.0 ? (s->x[i] - s->x_c[i]) / dt : 0.0;
        if (dt <= 0.0)
            r->q[i] = r->q_c[i];
        else if (fabs(v) < r->v_still)
            r->q[i] = r->phi * fs[i] + (r->q_c[i] - r->phi * fs[i]) * es;
        else
            r->q[i] = r->q_c[i] * em;
        s->force[i] = fs[i] - r->q[i];
    }
    return 0;
}

static int relax_commit(hs_specimen *s)
{
    relax *r = s->data;
    int rc = hs_specimen_commit(s->inner);
    if (rc) return rc;
    memcpy(r->q_c, r->q, (size_t)s->n * sizeof(double));
    return 0;
}

static int relax_set_input(hs_specimen *s, int channel, double value)
{
    return hs_specimen_set_input(s->inner, channel, value);
}

static int relax_initial_stiffness(const hs_specimen *s, double *K)
{
    return hs_specimen_initial_stiffness(s->inner, K);
}

/* layout: inner state, q[n] */
static size_t relax_state_size(const hs_specimen *s)
{
    return hs_specimen_state_size(s->inner) + (size_t)s->n;
}
static int relax_state_save(const hs_specimen *s, double *out)
{
    const relax *r = s->data;
    int rc = hs_specimen_state_save(s->inner, out);
    if (rc) return rc;
    memcpy(out + hs_specimen_state_size(s->inner), r->q_c, (size_t)s->n * sizeof(double));
    return 0;
}
static int relax_state_load(hs_specimen *s, const double *in)
{
    relax *r = s->data;
    int rc = hs_specimen_state_load(s->inner, in);
    if (rc) return rc;
    memcpy(r->q_c, in + hs_specimen_state_size(s->inner), (size_t)s->n * sizeof(double));
    return 0;
}

static void relax_destroy(hs_specimen *s)
{
    relax *r = s->data;
    if (!r) return;
    if (r->owns_inner) hs_specimen_destroy(&s->inner);
    hs_free(r->q_c);
    hs_free(r->q);
    hs_free(r);
}

static int relax_setup(hs_specimen *s, const hs_options *o)
{
    relax *r = hs_calloc(1, sizeof *r);
    if (!r) return hs_fail(s->ctx, HS_ENOMEM, "specimen relaxation: out of memory");
    s->data = r;
    s->ops.set_trial = relax_set_trial;
    s->ops.commit = relax_commit;
    s->ops.set_input = relax_set_input;
    s->ops.initial_stiffness = relax_initial_stiffness;
    s->ops.state_size = relax_state_size;
    s->ops.state_save = relax_state_save;
    s->ops.state_load = relax_state_load;
    s->ops.destroy = relax_destroy;
    r->phi = hs_options_num(o, "fraction", -1.0);
    r->tau = hs_options_num(o, "tau", 0.0);
    r->v_still = hs_options_num(o, "v_still", -1.0);
    r->tau_r = hs_options_num(o, "tau_recover", r->tau);
    if (!(r->phi >= 0.0 && r->phi <= 1.0 && r->tau > 0.0 && r->tau_r > 0.0 && r->v_still >= 0.0))
        return hs_fail(s->ctx, HS_EINPUT,
                       "specimen relaxation: need 0 <= fraction <= 1, tau > 0, tau_recover > 0, "
                       "v_still >= 0 (got %g, %g, %g, %g)",
                       r->phi, r->tau, r->tau_r, r->v_still);
    r->q_c = hs_dvec((size_t)s->n);
    r->q = hs_dvec((size_t)s->n);
    if (!r->q_c || !r->q) return hs_fail(s->ctx, HS_ENOMEM, "specimen relaxation: out of memory");
    return 0;
}

/* Registry path: creates and owns the inner specimen of type `inner` from the same options. */
int hs_specimen_create_relaxation_owned(hs_specimen *s, const hs_options *o)
{
    const char *type = hs_options_str(o, "inner", "");
    if (strcmp(type, "relaxation") == 0)
        return hs_fail(s->ctx, HS_EINPUT, "specimen relaxation: cannot wrap itself");
    int rc = hs_specimen_create(s->ctx, type, s->n, o, &s->inner);
    if (rc) return rc;
    rc = relax_setup(s, o);
    if (s->data)
        ((relax *)s->data)->owns_inner = 1;
    else
        hs_specimen_destroy(&s->inner);
    return rc;
}

int hs_specimen_create_relaxation(hs_ctx *ctx, hs_specimen *inner, const hs_options *opts,
                                  hs_specimen **out)
{
    if (!inner || !out) return hs_fail(ctx, HS_EINVAL, "specimen relaxation: no inner specimen");
    hs_specimen *s = NULL;
    int rc = hs_specimen_shell(ctx, "relaxation", inner->n, &s);
    if (rc) return rc;
    s->inner = inner;
    rc = relax_setup(s, opts);
    if (!rc) {
        s->t_c = inner->t_c;
        memcpy(s->x_c, inner->x_c, (size_t)s->n * sizeof(double));
        rc = hs_specimen_set_trial(s, s->t_c, s->x_c);
    }
    if (rc) {
        hs_specimen_destroy(&s);
        return rc;
    }
    *out = s;
    return 0;
}
