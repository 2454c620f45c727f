/* OpenSees' SteelBRB: the buckling-restrained brace steel of Zona & Dall'Asta (2012), with
 * separate tension and compression yield surfaces and isotropic hardening that saturates
 * exponentially with the cumulated plastic strain. Facts from OpenSees 3.8
 * (SRC/material/uniaxial/SteelBRB.cpp, Q. Gu & Y. Peng 2012, read for facts):
 * - The plastic strain increment x of an increment de solves
 *   x = |u / v|^alpha de,  u = s0 + E (de - x) - beta E (ep_c + x),
 *   v = sigmaY0 + (sigmaY - sigmaY0) (1 - exp(-(cum_c + |x|) / delta)),
 *   by Newton from x = 0 kept inside [min(0, de), max(0, de)] (a step that leaves the bracket
 *   goes to its middle; the bracket shrinks by the residual's sign), at most 20 iterations,
 *   until |residual| <= tol; |de| < 1e-16 gives x = 0. The stress is s0 + E (de - x).
 * - Loading (s_c de >= 0): s0 = s_c and de the whole increment, with the tension parameters
 *   when s_c >= 0 (so also from s_c = 0 towards compression), else the compression ones.
 * - Unloading (s_c de < 0): elastic while |de| <= |s_c / E|; beyond, the elastic part down to
 *   zero stress and then loading from s0 = 0 with the rest, with the other side's parameters.
 * - Tangent: E (1 - (C + |A|^alpha) / (1 + C (1 + beta) + D)), A = u / v,
 *   C = alpha |A|^(alpha-2) A de E / v, D = alpha |A|^(alpha-2) A de u / v^2 (sigmaY - sigmaY0) /
 *   delta sgn(x) exp(-(cum_c + |x|) / delta), sgn(0) = 1; E when elastic.
 * OpenSees returns x = 0 (with a message) when the iteration fails; hysim stops with an error.
 * A trial at the committed strain is the committed state, tangent included (OpenSees gives E
 * there). Committed state (checkpoints): [strain, stress, tangent, plastic strain, cumulated
 * plastic strain]. */
#include "material_impl.h"

#include <math.h>
#include <stdio.h>

const hs_param_spec hs_material_steel_brb_params[] = {
    {"E", HS_PARAM_NUM, 1, "elastic modulus, > 0"},
    {"sigmaY0", HS_PARAM_NUM, 1, "initial yield stress, > 0"},
    {"sigmaY_T", HS_PARAM_NUM, 1, "saturated yield stress in tension, > 0"},
    {"alpha_T", HS_PARAM_NUM, 1, "smoothness of the transition in tension, > 0"},
    {"beta_T", HS_PARAM_NUM, 1, "kinematic hardening ratio in tension, >= 0"},
    {"delta_T", HS_PARAM_NUM, 1,
     "cumulated plastic strain of the isotropic saturation, tension, > 0"},
    {"sigmaY_C", HS_PARAM_NUM, 1, "saturated yield stress in compression, > 0"},
    {"alpha_C", HS_PARAM_NUM, 1, "smoothness in compression, > 0"},
    {"beta_C", HS_PARAM_NUM, 1, "kinematic hardening ratio in compression, >= 0"},
    {"delta_C", HS_PARAM_NUM, 1, "isotropic saturation strain in compression, > 0"},
    {"tol", HS_PARAM_NUM, 0, "tolerance of the plastic strain equation, > 0 (default 1e-14)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

enum { BRB_STATE = 5, BRB_MAX_ITER = 20 };

typedef struct brb_state {
    double e, s, t, ep, cum;
} brb_state;
_Static_assert(sizeof(brb_state) == BRB_STATE * sizeof(double), "a flat array of doubles");

/* One side's yield surface. */
typedef struct brb_side {
    double sy, alpha, beta, delta;
} brb_side;

typedef struct steel_brb {
    double E, sy0, tol;
    brb_side ten, com;
    brb_state c, t;
} steel_brb;

/* The plastic-increment equation at x: its residual, and u, v and w = dv/dx. */
typedef struct brb_eq {
    const steel_brb *p;
    const brb_side *sd;
    double s0, de;
} brb_eq;

static double brb_uv(const brb_eq *q, double x, double *u, double *v, double *w)
{
    const steel_brb *p = q->p;
    const brb_side *sd = q->sd;
    const double ex = exp(-(p->c.cum + fabs(x)) / sd->delta);
    *u = q->s0 + p->E * (q->de - x) - sd->beta * p->E * (p->c.ep + x);
    *v = p->sy0 + (sd->sy - p->sy0) * (1.0 - ex);
    *w = (sd->sy - p->sy0) / sd->delta * (x >= 0.0 ? 1.0 : -1.0) * ex;
    return x - pow(fabs(*u / *v), sd->alpha) * q->de;
}

/* Solves for x (Newton in a shrinking bracket); -1 when it does not converge. */
static int brb_solve(const brb_eq *q, double *out)
{
    double x = 0.0, u, v, w;
    *out = 0.0;
    if (fabs(q->de) < 1.0e-16) return 0;
    double lo = q->de > 0.0 ? 0.0 : q->de, hi = q->de > 0.0 ? q->de : 0.0;
    double f_lo = brb_uv(q, lo, &u, &v, &w), f_hi = brb_uv(q, hi, &u, &v, &w);
    double f = brb_uv(q, x, &u, &v, &w);
    const double alpha = q->sd->alpha, beta = q->sd->beta, E = q->p->E;
    for (int i = 1; i <= BRB_MAX_ITER && fabs(f) > q->p->tol; i++) {
        const double A = u / v;
        const double df = 1.0 - q->de * alpha * pow(fabs(A), alpha - 2.0) * A *
                                    (((-E - beta * E) * v - u * w) / v / v);
        double x1 = x - f / df;
        if (x1 < lo || x1 > hi) x1 = (lo + hi) / 2.0;
        f = brb_uv(q, x1, &u, &v, &w);
        if (f_lo * f < 0.0) {
            hi = x1;
            f_hi = f;
        } else if (f_hi * f < 0.0) {
            lo = x1;
            f_lo = f;
        }
        x = x1;
    }
    if (fabs(f) > q->p->tol) return -1;
    *out = x;
    return 0;
}

/* Loading from stress s0 by de on side sd: the trial stress, tangent and plastic state. */
static int brb_load(hs_material *m, const brb_side *sd, double s0, double de)
{
    steel_brb *p = m->data;
    const brb_eq q = {p, sd, s0, de};
    double x, u, v, w;
    if (brb_solve(&q, &x))
        return hs_fail(m->ctx, HS_ECONVERGE,
                       "steel_brb: the plastic strain increment of the step from strain %g to %g "
                       "did not converge in %d iterations to %g; take smaller steps",
                       p->c.e, p->t.e, BRB_MAX_ITER, p->tol);
    brb_uv(&q, x, &u, &v, &w);
    const double A = u / v, ex = exp(-(p->c.cum + fabs(x)) / sd->delta);
    const double C = sd->alpha * pow(fabs(A), sd->alpha - 2.0) * A * de * p->E / v;
    const double D = sd->alpha * pow(fabs(A), sd->alpha - 2.0) * A * de * u / v / v *
                     (sd->sy - p->sy0) / sd->delta * (x >= 0.0 ? 1.0 : -1.0) * ex;
    p->t.s = s0 + p->E * (de - x);
    p->t.t = p->E * (1.0 - (C + pow(fabs(A), sd->alpha)) / (1.0 + C * (1.0 + sd->beta) + D));
    p->t.ep = p->c.ep + x;
    p->t.cum = p->c.cum + fabs(x);
    return 0;
}

static int brb_set_trial(hs_material *m, double strain, double strain_rate)
{
    (void)strain_rate;
    steel_brb *p = m->data;
    const double de = strain - p->c.e, sc = p->c.s;
    int rc = 0;
    p->t = p->c;
    p->t.e = strain;
    if (de == 0.0) {
        /* the committed state */
    } else if (sc * de >= 0.0) {
        rc = brb_load(m, sc >= 0.0 ? &p->ten : &p->com, sc, de);
    } else if (fabs(de) <= fabs(sc / p->E)) {
        p->t.s = sc + p->E * de;
        p->t.t = p->E;
    } else {
        const double e_unload = -sc / p->E;
        rc = brb_load(m, sc < 0.0 ? &p->ten : &p->com, 0.0, de - e_unload);
    }
    m->stress = p->t.s;
    m->tangent = p->t.t;
    m->rate_tangent = 0.0;
    return rc;
}

static int brb_reset(hs_material *m)
{
    steel_brb *p = m->data;
    p->c = (brb_state){0.0, 0.0, p->E, 0.0, 0.0};
    p->t = p->c;
    return 0;
}

static double brb_initial_tangent(const hs_material *m)
{
    return ((const steel_brb *)m->data)->E;
}

static void brb_destroy(hs_material *m)
{
    hs_free(m->data);
}

static int brb_check(hs_material *m, int ok, const char *what, double got)
{
    return ok ? 0 : hs_fail(m->ctx, HS_EINPUT, "steel_brb: %s (got %g)", what, got);
}

static int brb_read_side(hs_material *m, brb_side *sd, const hs_options *opts, char side)
{
    char k[16];
    snprintf(k, sizeof k, "sigmaY_%c", side);
    sd->sy = hs_options_num(opts, k, 0.0);
    snprintf(k, sizeof k, "alpha_%c", side);
    sd->alpha = hs_options_num(opts, k, 0.0);
    snprintf(k, sizeof k, "beta_%c", side);
    sd->beta = hs_options_num(opts, k, 0.0);
    snprintf(k, sizeof k, "delta_%c", side);
    sd->delta = hs_options_num(opts, k, 0.0);
    const int t = side == 'T';
    int rc;
    if ((rc = brb_check(m, sd->sy > 0.0 && isfinite(sd->sy),
                        t ? "sigmaY_T must be > 0" : "sigmaY_C must be > 0", sd->sy)) ||
        (rc = brb_check(m, sd->alpha > 0.0 && isfinite(sd->alpha),
                        t ? "alpha_T must be > 0" : "alpha_C must be > 0", sd->alpha)) ||
        (rc = brb_check(m, sd->beta >= 0.0 && isfinite(sd->beta),
                        t ? "beta_T must be >= 0" : "beta_C must be >= 0", sd->beta)))
        return rc;
    return brb_check(m, sd->delta > 0.0 && isfinite(sd->delta),
                     t ? "delta_T must be > 0" : "delta_C must be > 0", sd->delta);
}

int hs_material_create_steel_brb(hs_material *m, const hs_options *opts)
{
    steel_brb *p = hs_calloc(1, sizeof *p);
    if (!p) return HS_ENOMEM;
    m->data = p;
    hs_material_flat_state(m, (double *)&p->c, (double *)&p->t, BRB_STATE);
    m->ops.set_trial = brb_set_trial;
    m->ops.reset = brb_reset;
    m->ops.initial_tangent = brb_initial_tangent;
    m->ops.destroy = brb_destroy;
    p->E = hs_options_num(opts, "E", 0.0);
    p->sy0 = hs_options_num(opts, "sigmaY0", 0.0);
    p->tol = hs_options_num(opts, "tol", 1.0e-14);
    int rc;
    if ((rc = brb_check(m, p->E > 0.0 && isfinite(p->E), "E must be > 0", p->E)) ||
        (rc = brb_check(m, p->sy0 > 0.0 && isfinite(p->sy0), "sigmaY0 must be > 0", p->sy0)) ||
        (rc = brb_check(m, p->tol > 0.0 && isfinite(p->tol), "tol must be > 0", p->tol)) ||
        (rc = brb_read_side(m, &p->ten, opts, 'T')) || (rc = brb_read_side(m, &p->com, opts, 'C')))
        return rc;
    brb_reset(m);
    return 0;
}
