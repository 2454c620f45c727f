/* The shear law of OpenSees' elastomericBearingPlasticity (ElastomericBearingPlasticity2d.cpp of
 * OpenSees 3.8, its update(), read for facts): a hysteretic component of stiffness
 * k0 = (1 - alpha1) k_init with yield force q_yield (return mapping, plastic displacement u_p),
 * in parallel with a linear hardening k2 = alpha1 k_init and a nonlinear elastic one
 * k3 sgn(u) |u|^mu, k3 = alpha2 k_init:
 *   q_trial = k0 (u - u_p,committed);   |q_trial| <= q_yield: q = q_trial + k2 u + k3 sgn(u)
 * |u|^mu, tangent k0 + k2 + k3 mu |u|^(mu - 1); beyond: u_p = u_p,c + (|q_trial| - q_yield) / k0
 * sgn(q_trial), q = q_yield sgn(q_trial) + k2 u + k3 sgn(u) |u|^mu, tangent k2 + k3 mu |u|^(mu -
 * 1). The whole bearing yields at u_y = q_yield / k0 under the force q_yield / (1 - alpha1) (with
 * alpha2 = 0): not Steel01's Fy = q_yield. The initial tangent is k_init (OpenSees' kbInit).
 * The k3 term is left out when alpha2 = 0 (OpenSees computes 0 |u|^(mu - 1), NaN at u = 0 when
 * mu < 1). A trial at the committed deformation is the committed state (the house rule; OpenSees
 * recomputes it, which can turn a committed plastic tangent k2 into the elastic one by
 * round-off). Committed state (checkpoints): [strain, stress, tangent, u_p]. docs/materials.md. */
#include "material_impl.h"

#include <math.h>

const hs_param_spec hs_material_bearing_plasticity_params[] = {
    {"k_init", HS_PARAM_NUM, 1, "initial elastic stiffness of the shear, > 0"},
    {"q_yield", HS_PARAM_NUM, 1, "yield force of the hysteretic component, >= 0"},
    {"alpha1", HS_PARAM_NUM, 0,
     "post-yield stiffness ratio of the linear hardening, 0 <= alpha1 "
     "< 1 (default 0)"},
    {"alpha2", HS_PARAM_NUM, 0,
     "post-yield stiffness ratio of the nonlinear hardening, >= 0 "
     "(default 0)"},
    {"mu", HS_PARAM_NUM, 0, "exponent of the nonlinear hardening, > 0 (default 2)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

enum { BP_STATE = 4 };

typedef struct bp_state {
    double u, q, k, up; /* deformation, force, tangent, plastic deformation */
} bp_state;
_Static_assert(sizeof(bp_state) == BP_STATE * sizeof(double), "a flat array of doubles");

typedef struct bearing_plasticity {
    double k_init, q_yield, k0, k2, k3, mu;
    bp_state c, t; /* committed, trial */
} bearing_plasticity;

/* The nonlinear hardening's force and tangent at u (none when k3 = 0). */
static void bp_hardening(const bearing_plasticity *p, double u, double *q, double *k)
{
    *q = *k = 0.0;
    if (p->k3 == 0.0) return;
    const double a = fabs(u);
    *q = p->k3 * (u > 0.0 ? 1.0 : u < 0.0 ? -1.0 : 0.0) * pow(a, p->mu);
    *k = p->k3 * p->mu * pow(a, p->mu - 1.0);
}

static int bp_set_trial(hs_material *m, double strain, double strain_rate)
{
    (void)strain_rate;
    bearing_plasticity *p = m->data;
    bp_state *t = &p->t;
    *t = p->c;
    m->rate_tangent = 0.0;
    if (strain == p->c.u) { /* the committed state (the house rule; OpenSees recomputes it) */
        m->stress = t->q;
        m->tangent = t->k;
        return 0;
    }
    t->u = strain;
    double qh, kh;
    bp_hardening(p, strain, &qh, &kh);
    const double q_trial = p->k0 * (strain - p->c.up), norm = fabs(q_trial);
    if (norm - p->q_yield <= 0.0) { /* elastic */
        t->q = q_trial + p->k2 * strain + qh;
        t->k = p->k0 + p->k2 + kh;
    } else { /* return mapping */
        t->up = p->c.up + (norm - p->q_yield) / p->k0 * q_trial / norm;
        t->q = p->q_yield * q_trial / norm + p->k2 * strain + qh;
        t->k = p->k2 + kh;
    }
    m->stress = t->q;
    m->tangent = t->k;
    return 0;
}

static int bp_reset(hs_material *m)
{
    bearing_plasticity *p = m->data;
    p->c = (bp_state){0.0, 0.0, p->k_init, 0.0};
    p->t = p->c;
    return 0;
}

static double bp_initial_tangent(const hs_material *m)
{
    return ((const bearing_plasticity *)m->data)->k_init;
}

static void bp_destroy(hs_material *m)
{
    hs_free(m->data);
}

static int bp_check(hs_material *m, int ok, const char *what, double got)
{
    return ok ? 0 : hs_fail(m->ctx, HS_EINPUT, "bearing_plasticity: %s (got %g)", what, got);
}

int hs_material_create_bearing_plasticity(hs_material *m, const hs_options *opts)
{
    bearing_plasticity *p = hs_calloc(1, sizeof *p);
    if (!p) return HS_ENOMEM;
    m->data = p;
    p->k_init = hs_options_num(opts, "k_init", 0.0);
    p->q_yield = hs_options_num(opts, "q_yield", 0.0);
    const double a1 = hs_options_num(opts, "alpha1", 0.0), a2 = hs_options_num(opts, "alpha2", 0.0);
    p->mu = hs_options_num(opts, "mu", 2.0);
    hs_material_flat_state(m, (double *)&p->c, (double *)&p->t, BP_STATE);
    m->ops.set_trial = bp_set_trial;
    m->ops.reset = bp_reset;
    m->ops.initial_tangent = bp_initial_tangent;
    m->ops.destroy = bp_destroy;
    int rc;
    if ((rc = bp_check(m, p->k_init > 0.0 && isfinite(p->k_init), "k_init must be > 0",
                       p->k_init)) ||
        (rc = bp_check(m, p->q_yield >= 0.0 && isfinite(p->q_yield), "q_yield must be >= 0",
                       p->q_yield)) ||
        (rc = bp_check(m, a1 >= 0.0 && a1 < 1.0, "alpha1 must be 0 <= alpha1 < 1", a1)) ||
        (rc = bp_check(m, a2 >= 0.0 && isfinite(a2), "alpha2 must be >= 0", a2)) ||
        (rc = bp_check(m, p->mu > 0.0 && isfinite(p->mu), "mu must be > 0", p->mu)))
        return rc;
    p->k0 = (1.0 - a1) * p->k_init;
    p->k2 = a1 * p->k_init;
    p->k3 = a2 * p->k_init;
    bp_reset(m);
    return 0;
}
