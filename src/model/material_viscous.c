/* Viscous damper: force = c |v|^alpha sign(v), v the deformation rate (linear when alpha = 1).
 * Rate-dependent: the tangent d force / d strain is 0 and the rate tangent is
 * c alpha |v|^(alpha - 1). For alpha < 1 that is infinite at v = 0, so the rate tangent uses
 * max(|v|, v_reg) in place of |v| (finite, continuous at |v| = v_reg); the force stays exact.
 * Committed state (checkpoints): [strain, strain_rate]. */
#include "material_impl.h"

#include <math.h>

const hs_param_spec hs_material_viscous_params[] = {
    {"c", HS_PARAM_NUM, 1, "damping coefficient, force/(length/time)^alpha, >= 0"},
    {"alpha", HS_PARAM_NUM, 0, "velocity exponent, > 0 (default 1: linear viscous)"},
    {"v_reg", HS_PARAM_NUM, 0,
     "velocity below which the rate tangent is held at c alpha v_reg^(alpha-1) when alpha < 1 "
     "(default 1e-6)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

typedef struct viscous {
    double c, alpha, v_reg;
    int linear;      /* alpha == 1: no pow() */
    double e_c, v_c; /* committed strain and rate */
} viscous;

static int viscous_set_trial(hs_material *m, double strain, double strain_rate)
{
    (void)strain;
    const viscous *p = m->data;
    m->tangent = 0.0;
    if (p->linear) {
        m->stress = p->c * strain_rate;
        m->rate_tangent = p->c;
        return 0;
    }
    const double a = fabs(strain_rate);
    const double f = a > 0.0 ? p->c * pow(a, p->alpha) : 0.0;
    m->stress = strain_rate < 0.0 ? -f : f;
    if (p->alpha < 1.0 && a < p->v_reg)
        m->rate_tangent = p->c * p->alpha * pow(p->v_reg, p->alpha - 1.0);
    else
        m->rate_tangent = a > 0.0 ? p->alpha * f / a : 0.0; /* alpha > 1 at v = 0: 0 */
    return 0;
}

static int viscous_commit(hs_material *m)
{
    viscous *p = m->data;
    p->e_c = m->strain;
    p->v_c = m->strain_rate;
    return 0;
}

static int viscous_revert(hs_material *m)
{
    const viscous *p = m->data;
    m->strain = p->e_c;
    m->strain_rate = p->v_c;
    return viscous_set_trial(m, p->e_c, p->v_c);
}

static int viscous_reset(hs_material *m)
{
    viscous *p = m->data;
    p->e_c = p->v_c = 0.0;
    return 0;
}

/* Stiffness at rest: none (the damper's contribution goes through the rate tangent). */
static double viscous_initial_tangent(const hs_material *m)
{
    (void)m;
    return 0.0;
}

static size_t viscous_state_size(const hs_material *m)
{
    (void)m;
    return 2;
}

static int viscous_state_save(const hs_material *m, double *out)
{
    const viscous *p = m->data;
    out[0] = p->e_c;
    out[1] = p->v_c;
    return 0;
}

static int viscous_state_load(hs_material *m, const double *in)
{
    viscous *p = m->data;
    p->e_c = in[0];
    p->v_c = in[1];
    m->strain = p->e_c;
    m->strain_rate = p->v_c;
    return 0;
}

static void viscous_destroy(hs_material *m)
{
    hs_free(m->data);
}

int hs_material_create_viscous(hs_material *m, const hs_options *opts)
{
    viscous *p = hs_calloc(1, sizeof *p);
    if (!p) return HS_ENOMEM;
    m->data = p;
    p->c = hs_options_num(opts, "c", 0.0);
    p->alpha = hs_options_num(opts, "alpha", 1.0);
    p->v_reg = hs_options_num(opts, "v_reg", 1e-6);
    p->linear = p->alpha == 1.0;
    m->rate_dependent = 1;
    m->linear = 0;
    m->ops.set_trial = viscous_set_trial;
    m->ops.commit = viscous_commit;
    m->ops.revert = viscous_revert;
    m->ops.reset = viscous_reset;
    m->ops.initial_tangent = viscous_initial_tangent;
    m->ops.state_size = viscous_state_size;
    m->ops.state_save = viscous_state_save;
    m->ops.state_load = viscous_state_load;
    m->ops.destroy = viscous_destroy;
    if (!(p->c >= 0.0 && isfinite(p->c)))
        return hs_fail(m->ctx, HS_EINPUT, "viscous: c must be >= 0 (got %g)", p->c);
    if (!(p->alpha > 0.0 && isfinite(p->alpha)))
        return hs_fail(m->ctx, HS_EINPUT, "viscous: alpha must be > 0 (got %g)", p->alpha);
    if (!(p->v_reg > 0.0 && isfinite(p->v_reg)))
        return hs_fail(m->ctx, HS_EINPUT, "viscous: v_reg must be > 0 (got %g)", p->v_reg);
    return 0;
}
