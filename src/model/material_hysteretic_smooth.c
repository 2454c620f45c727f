/* The smooth rate-independent hysteresis laws of OpenSees' HystereticPoly, HystereticSmooth and
 * HystereticAsym (S. Sessa, 2021-2022): closed-form loading and unloading curves in which the
 * force depends only on the committed (strain, stress), the trial strain and the direction of
 * the increment st = +1 (de >= 0) or -1; no iteration, no other state. Facts from OpenSees 3.8
 * (SRC/material/uniaxial/HystereticPoly.cpp, HystereticSmooth.cpp, HystereticAsym.cpp, read for
 * facts). With k12 = ka - kb:
 * - Poly {ka, kb, a, b1, b2, tol}: u0 = ((k12 / tol)^(1/a) - 1) / 2, U = 1 + 2 u0,
 *   Fbar = k12 (U^(1-a) - 1) / (2 (1 - a)); the curve through the committed point has the
 *   abscissa uj = e_c + st U - st [st (1-a) / k12 (s_c - b1 e_c^3 - b2 e_c^5 - kb e_c - st Fbar
 *   + k12 U^(1-a) / ((1-a) st))]^(1/(1-a)); then
 *   s = b1 e^3 + b2 e^5 + kb e + k12 ((1 + st (e - uj) + 2 u0)^(1-a) - U^(1-a)) / (st (1-a))
 *   + st Fbar, tangent 3 b1 e^2 + 5 b2 e^4 + kb + k12 (1 + st (e - uj) + 2 u0)^-a.
 *   The virgin tangent is that of uj from s_c = e_c = 0, st = 1; the initial tangent is ka.
 * - Smooth {ka, kb, fbar, beta}: alpha = k12 / (2 fbar), the elastic part
 *   f_e(e) = -2 beta e + e^(beta e) - e^(-beta e) + kb e;
 *   uj = st e_c + ln(alpha st / k12 (f_e(e_c) + st fbar - s_c)) / alpha,
 *   s = f_e(e) - st k12 / alpha exp(-alpha (st e - uj)) + st fbar,
 *   tangent kb - 2 beta + beta (e^(beta e) + e^(-beta e)) + k12 exp(-alpha (st e - uj)).
 * - Asym {ka, kb, fo, b1, b2, gamma}: alpha = k12 / (2 fo), g(e) = -(b1 + b2) e + e^(b1 e) -
 *   e^(-b2 e); d2 = (g(e_c) - s_c) e^(-gamma e_c) + kb e_c + st fo,
 *   uj = st e_c + ln(st alpha d2 / k12) / alpha, d3 = kb e - st k12 / alpha exp(-alpha (st e -
 *   uj)) + st fo, s = g(e) + d3 e^(gamma e), tangent g'(e) + e^(gamma e) (gamma d3 + kb +
 *   k12 exp(-alpha (st e - uj))).
 * - Smooth and Asym start with the tangent (ka + kb) / 2, also their initial tangent.
 * A trial at the committed strain returns the committed state (OpenSees would recompute it with
 * st = 1: the same stress to round-off). Committed state (checkpoints): [strain, stress,
 * tangent]. */
#include "material_impl.h"

#include <math.h>

const hs_param_spec hs_material_hysteretic_poly_params[] = {
    {"ka", HS_PARAM_NUM, 1, "initial stiffness of the hysteretic part, > 0"},
    {"kb", HS_PARAM_NUM, 1, "asymptotic stiffness, < ka"},
    {"a", HS_PARAM_NUM, 1, "smoothness exponent, > 0 and != 1"},
    {"b1", HS_PARAM_NUM, 1, "coefficient of strain^3 of the elastic part"},
    {"b2", HS_PARAM_NUM, 1, "coefficient of strain^5 of the elastic part"},
    {"tol", HS_PARAM_NUM, 0, "stiffness tolerance that sets the yield region, > 0 (default 1e-20)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

const hs_param_spec hs_material_hysteretic_smooth_params[] = {
    {"ka", HS_PARAM_NUM, 1, "initial stiffness after a reversal, > 0"},
    {"kb", HS_PARAM_NUM, 1, "asymptotic stiffness, < ka"},
    {"fbar", HS_PARAM_NUM, 0, "half the height of the loop's band, > 0 (or give alpha)"},
    {"alpha", HS_PARAM_NUM, 0, "smoothness, > 0: fbar = (ka - kb) / (2 alpha)"},
    {"beta", HS_PARAM_NUM, 1, "exponential hardening (beta > 0) or softening of the elastic part"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

const hs_param_spec hs_material_hysteretic_asym_params[] = {
    {"ka", HS_PARAM_NUM, 1, "initial stiffness after a reversal, > 0"},
    {"kb", HS_PARAM_NUM, 1, "asymptotic stiffness, < ka"},
    {"fo", HS_PARAM_NUM, 0, "half the height of the loop's band, > 0 (or give alpha)"},
    {"alpha", HS_PARAM_NUM, 0, "smoothness, > 0: fo = (ka - kb) / (2 alpha)"},
    {"b1", HS_PARAM_NUM, 1, "exponential hardening in tension"},
    {"b2", HS_PARAM_NUM, 1, "exponential hardening in compression"},
    {"gamma", HS_PARAM_NUM, 1, "asymmetry: the band scales with exp(gamma strain)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

enum { SH_STATE = 3 };
typedef enum { SH_POLY, SH_SMOOTH, SH_ASYM } sh_kind;

typedef struct sh_state {
    double e, s, t;
} sh_state;

typedef struct hysteretic_smooth {
    sh_kind kind;
    double ka, kb, k12, alpha;
    double b1, b2;    /* Poly: the e^3 and e^5 coefficients; Asym: the exponents */
    double fbar;      /* Poly: Fbar; Smooth: fbar; Asym: fo */
    double beta, gm;  /* Smooth: beta; Asym: gamma */
    double u0, U, Ua; /* Poly: u0, 1 + 2 u0, U^(1-a) */
    double t0;        /* the virgin tangent */
    sh_state c, t;
} hysteretic_smooth;

static double poly_elastic(const hysteretic_smooth *p, double e)
{
    return p->b1 * pow(e, 3) + p->b2 * pow(e, 5) + p->kb * e;
}

/* Poly: the curve's abscissa through the committed point (e_c, s_c) in direction st. */
static double poly_uj(const hysteretic_smooth *p, double ec, double sc, double st)
{
    const double a1 = 1.0 - p->alpha;
    const double base =
        st * a1 / p->k12 * (sc - poly_elastic(p, ec) - st * p->fbar + p->k12 / a1 * p->Ua / st);
    return ec + st * p->U - st * pow(base, 1.0 / a1);
}

static void poly_trial(const hysteretic_smooth *p, double st, double e, double *s, double *t)
{
    const double a1 = 1.0 - p->alpha;
    const double uj = poly_uj(p, p->c.e, p->c.s, st);
    const double x = 1.0 + st * e - st * uj + 2.0 * p->u0;
    *s = poly_elastic(p, e) + p->k12 * (pow(x, a1) / st / a1 - p->Ua / a1 / st) + st * p->fbar;
    *t = 3.0 * p->b1 * pow(e, 2) + 5.0 * p->b2 * pow(e, 4) + p->kb + p->k12 * pow(x, -p->alpha);
}

static double smooth_elastic(const hysteretic_smooth *p, double e)
{
    return -2.0 * p->beta * e + exp(p->beta * e) - exp(-p->beta * e) + p->kb * e;
}

static void smooth_trial(const hysteretic_smooth *p, double st, double e, double *s, double *t)
{
    const double ec = p->c.e;
    const double uj =
        ec * st + 1.0 / p->alpha *
                      log(p->alpha * st / p->k12 * (smooth_elastic(p, ec) + p->fbar * st - p->c.s));
    const double ex = exp(-p->alpha * (e * st - uj));
    *s = smooth_elastic(p, e) - st * p->k12 / p->alpha * ex + p->fbar * st;
    *t = p->kb - 2.0 * p->beta + p->beta * exp(p->beta * e) + p->beta * exp(-p->beta * e) +
         p->k12 * ex;
}

static double asym_elastic(const hysteretic_smooth *p, double e)
{
    return -e * (p->b1 + p->b2) + exp(p->b1 * e) - exp(-p->b2 * e);
}

static void asym_trial(const hysteretic_smooth *p, double st, double e, double *s, double *t)
{
    const double ec = p->c.e;
    const double d2 = (asym_elastic(p, ec) - p->c.s) * exp(-p->gm * ec) + p->kb * ec + st * p->fbar;
    const double uj = ec * st + 1.0 / p->alpha * log(st * p->alpha * d2 / p->k12);
    const double ex = exp(-p->alpha * (e * st - uj));
    const double d3 = p->kb * e - st * p->k12 / p->alpha * ex + p->fbar * st;
    *s = asym_elastic(p, e) + d3 * exp(p->gm * e);
    *t = -(p->b1 + p->b2) + p->b1 * exp(p->b1 * e) + p->b2 * exp(-p->b2 * e) +
         exp(p->gm * e) * (p->gm * d3 + p->kb + p->k12 * ex);
}

static int sh_set_trial(hs_material *m, double strain, double strain_rate)
{
    (void)strain_rate;
    hysteretic_smooth *p = m->data;
    p->t = p->c;
    if (strain != p->c.e) {
        const double st = strain - p->c.e >= 0.0 ? 1.0 : -1.0;
        p->t.e = strain;
        if (p->kind == SH_POLY)
            poly_trial(p, st, strain, &p->t.s, &p->t.t);
        else if (p->kind == SH_SMOOTH)
            smooth_trial(p, st, strain, &p->t.s, &p->t.t);
        else
            asym_trial(p, st, strain, &p->t.s, &p->t.t);
    }
    m->stress = p->t.s;
    m->tangent = p->t.t;
    m->rate_tangent = 0.0;
    return 0;
}

static int sh_reset(hs_material *m)
{
    hysteretic_smooth *p = m->data;
    p->c = (sh_state){0.0, 0.0, p->t0};
    p->t = p->c;
    return 0;
}

static double sh_initial_tangent(const hs_material *m)
{
    const hysteretic_smooth *p = m->data;
    return p->kind == SH_POLY ? p->ka : 0.5 * (p->ka + p->kb);
}

static void sh_destroy(hs_material *m)
{
    hs_free(m->data);
}

static int sh_check(hs_material *m, int ok, const char *what, double got)
{
    return ok ? 0 : hs_fail(m->ctx, HS_EINPUT, "%s: %s (got %g)", m->type, what, got);
}

/* Smooth and Asym: the band's half height, given as itself (key) or through alpha. */
static int sh_band(hs_material *m, hysteretic_smooth *p, const hs_options *opts, const char *key)
{
    const int has_f = hs_options_has(opts, key), has_a = hs_options_has(opts, "alpha");
    if (has_f == has_a)
        return hs_fail(m->ctx, HS_EINPUT,
                       "%s: give one of %s and alpha (%s = (ka - kb) / (2 alpha))", m->type, key,
                       key);
    const double v = hs_options_num(opts, has_f ? key : "alpha", 0.0);
    int rc = sh_check(m, v > 0.0 && isfinite(v),
                      has_f ? "the band's half height must be > 0" : "alpha must be > 0", v);
    if (rc) return rc;
    p->fbar = has_f ? v : p->k12 * 0.5 / v;
    p->alpha = p->k12 * 0.5 / p->fbar;
    return 0;
}

static hysteretic_smooth *sh_create(hs_material *m, const hs_options *opts, sh_kind kind)
{
    hysteretic_smooth *p = hs_calloc(1, sizeof *p);
    if (!p) return NULL;
    m->data = p;
    hs_material_flat_state(m, (double *)&p->c, (double *)&p->t, SH_STATE);
    m->ops.set_trial = sh_set_trial;
    m->ops.reset = sh_reset;
    m->ops.initial_tangent = sh_initial_tangent;
    m->ops.destroy = sh_destroy;
    p->kind = kind;
    p->ka = hs_options_num(opts, "ka", 0.0);
    p->kb = hs_options_num(opts, "kb", 0.0);
    p->k12 = p->ka - p->kb;
    p->t0 = 0.5 * (p->ka + p->kb);
    return p;
}

static int sh_check_k(hs_material *m, const hysteretic_smooth *p)
{
    int rc;
    if ((rc = sh_check(m, p->ka > 0.0 && isfinite(p->ka), "ka must be > 0", p->ka))) return rc;
    return sh_check(m, p->kb < p->ka && isfinite(p->kb), "kb must be < ka", p->kb);
}

int hs_material_create_hysteretic_poly(hs_material *m, const hs_options *opts)
{
    hysteretic_smooth *p = sh_create(m, opts, SH_POLY);
    if (!p) return HS_ENOMEM;
    p->alpha = hs_options_num(opts, "a", 0.0);
    p->b1 = hs_options_num(opts, "b1", 0.0);
    p->b2 = hs_options_num(opts, "b2", 0.0);
    const double tol = hs_options_num(opts, "tol", 1.0e-20);
    int rc;
    if ((rc = sh_check_k(m, p)) ||
        (rc = sh_check(m, p->alpha > 0.0 && p->alpha != 1.0 && isfinite(p->alpha),
                       "a must be > 0 and != 1", p->alpha)) ||
        (rc = sh_check(m, isfinite(p->b1), "b1 must be a finite number", p->b1)) ||
        (rc = sh_check(m, isfinite(p->b2), "b2 must be a finite number", p->b2)) ||
        (rc = sh_check(m, tol > 0.0 && isfinite(tol), "tol must be > 0", tol)))
        return rc;
    const double a1 = 1.0 - p->alpha;
    p->u0 = 0.5 * (pow(p->k12 / tol, 1.0 / p->alpha) - 1.0);
    p->U = 1.0 + 2.0 * p->u0;
    p->Ua = pow(p->U, a1);
    p->fbar = 0.5 * p->k12 * (p->Ua - 1.0) / a1;
    const double uj = poly_uj(p, 0.0, 0.0, 1.0);
    p->t0 = p->kb + p->k12 * pow(1.0 - uj + 2.0 * p->u0, -p->alpha);
    sh_reset(m);
    return 0;
}

int hs_material_create_hysteretic_smooth(hs_material *m, const hs_options *opts)
{
    hysteretic_smooth *p = sh_create(m, opts, SH_SMOOTH);
    if (!p) return HS_ENOMEM;
    p->beta = hs_options_num(opts, "beta", 0.0);
    int rc;
    if ((rc = sh_check_k(m, p)) || (rc = sh_band(m, p, opts, "fbar")) ||
        (rc = sh_check(m, isfinite(p->beta), "beta must be a finite number", p->beta)))
        return rc;
    sh_reset(m);
    return 0;
}

int hs_material_create_hysteretic_asym(hs_material *m, const hs_options *opts)
{
    hysteretic_smooth *p = sh_create(m, opts, SH_ASYM);
    if (!p) return HS_ENOMEM;
    p->b1 = hs_options_num(opts, "b1", 0.0);
    p->b2 = hs_options_num(opts, "b2", 0.0);
    p->gm = hs_options_num(opts, "gamma", 0.0);
    int rc;
    if ((rc = sh_check_k(m, p)) || (rc = sh_band(m, p, opts, "fo")) ||
        (rc = sh_check(m, isfinite(p->b1), "b1 must be a finite number", p->b1)) ||
        (rc = sh_check(m, isfinite(p->b2), "b2 must be a finite number", p->b2)) ||
        (rc = sh_check(m, isfinite(p->gm), "gamma must be a finite number", p->gm)))
        return rc;
    sh_reset(m);
    return 0;
}
