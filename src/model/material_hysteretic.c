/* OpenSees Hysteretic: a trilinear backbone in each direction (points (e1p, s1p), (e2p, s2p),
 * (e3p, s3p) and their negative twins; two points give the middle one halfway), with pinching
 * (pinchX of the strain, pinchY of the force at the pinching point), damage from ductility
 * (damage1) and from energy (damage2) that stretches the opposite extreme strain at each reversal,
 * and unloading stiffness degraded by (e_max / e1p)^-beta. Facts from OpenSees 3.8
 * (SRC/material/uniaxial/HystereticMaterial.cpp, read for facts):
 * - Envelope: the piecewise-linear backbone; beyond e3p it continues with the third slope when
 *   that slope is positive, else stays at s3p; its tangent outside the backbone is 1e-9 E1.
 * - Reloading towards tension (from the negative side) starts from the zero-force strain
 *   e_nu = e_c - s_c / (Eun kn) of the unloading line, then aims at the pinching point
 *   (e_ch, pinchY s(e_max)), e_ch = e_rel + pinchX (e_max - (1 - pinchY) s(e_max) / (Eup kp) -
 *   e_rel), then at the envelope point at e_max; the force is the smaller of that target line and
 *   the unloading predictor s_c + Eup kp (e - e_c). Towards compression the mirror image.
 * - Eup, Eun: the largest of the three slopes on each side; kp = (e_max / e1p)^-beta when >= 1.
 * - Damage at a reversal (after an excursion beyond e1): the opposite extreme grows by the factor
 *   1 + damage2 E_h / E_a + damage1 (e_ext - e1) / e1, E_h the dissipated energy, E_a the area
 *   under both backbones.
 * The trial is a function of the committed state and the trial strain; |e - e_c| < DBL_EPSILON
 * leaves the committed state (stress and tangent) as the trial.
 * Committed state (checkpoints): [strain, stress, tangent, e_max, e_min, e_pu, e_nu, energy,
 * loading] (loading 0 virgin, 1 towards tension, 2 towards compression). */
#include "material_impl.h"

#include <float.h>
#include <math.h>

const hs_param_spec hs_material_hysteretic_params[] = {
    {"s1p", HS_PARAM_NUM, 1, "first backbone point in tension: stress"},
    {"e1p", HS_PARAM_NUM, 1, "... and strain, > 0"},
    {"s2p", HS_PARAM_NUM, 1, "second point in tension: stress"},
    {"e2p", HS_PARAM_NUM, 1, "... and strain, > e1p"},
    {"s3p", HS_PARAM_NUM, 0, "third point in tension: stress (default: the two-point form)"},
    {"e3p", HS_PARAM_NUM, 0, "... and strain, > e2p"},
    {"s1n", HS_PARAM_NUM, 1, "first backbone point in compression: stress"},
    {"e1n", HS_PARAM_NUM, 1, "... and strain, < 0"},
    {"s2n", HS_PARAM_NUM, 1, "second point in compression: stress"},
    {"e2n", HS_PARAM_NUM, 1, "... and strain, < e1n"},
    {"s3n", HS_PARAM_NUM, 0, "third point in compression: stress"},
    {"e3n", HS_PARAM_NUM, 0, "... and strain, < e2n"},
    {"pinchX", HS_PARAM_NUM, 1, "pinching factor for strain during reloading, in [0, 1]"},
    {"pinchY", HS_PARAM_NUM, 1, "pinching factor for stress during reloading, in [0, 1]"},
    {"damage1", HS_PARAM_NUM, 1, "damage from ductility, >= 0"},
    {"damage2", HS_PARAM_NUM, 1, "damage from energy, >= 0"},
    {"beta", HS_PARAM_NUM, 0, "unloading stiffness degradation exponent, >= 0 (default 0)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

enum { HY_STATE = 9 };
#define HY_POS_INF 1.0e16 /* OpenSees' POS_INF_STRAIN (UniaxialMaterial.h) */

typedef struct hy_state {
    double e, s, t;
    double e_max, e_min, e_pu, e_nu, energy, loading;
} hy_state;
_Static_assert(sizeof(hy_state) == HY_STATE * sizeof(double), "a flat array of doubles");

/* One backbone (positive or negative side, signs as given). */
typedef struct hy_backbone {
    double s1, e1, s2, e2, s3, e3, E1, E2, E3;
} hy_backbone;

typedef struct hysteretic {
    hy_backbone p, n;
    double pinch_x, pinch_y, damage1, damage2, beta;
    double Eup, Eun, energy_a;
    hy_state c, t;
} hysteretic;

/* Envelope stress and tangent at e on backbone b; sgn = 1 tension, -1 compression. */
static double hy_env_stress(const hy_backbone *b, double sgn, double e)
{
    if (sgn * e <= 0.0) return 0.0;
    if (sgn * e <= sgn * b->e1) return b->E1 * e;
    if (sgn * e <= sgn * b->e2) return b->s1 + b->E2 * (e - b->e1);
    if (sgn * e <= sgn * b->e3 || b->E3 > 0.0) return b->s2 + b->E3 * (e - b->e2);
    return b->s3;
}

static double hy_env_tangent(const hy_backbone *b, double sgn, double e)
{
    if (sgn * e < 0.0) return b->E1 * 1.0e-9;
    if (sgn * e <= sgn * b->e1) return b->E1;
    if (sgn * e <= sgn * b->e2) return b->E2;
    if (sgn * e <= sgn * b->e3 || b->E3 > 0.0) return b->E3;
    return b->E1 * 1.0e-9;
}

/* The strain where a softening envelope reaches zero force beyond e, else sgn * HY_POS_INF. */
static double hy_env_limit(const hy_backbone *b, double sgn, double e)
{
    double lim = sgn * HY_POS_INF;
    if (sgn * e <= sgn * b->e1) return lim;
    if (sgn * e <= sgn * b->e2 && b->E2 < 0.0) lim = b->e1 - b->s1 / b->E2;
    if (sgn * e > sgn * b->e2 && b->E3 < 0.0) lim = b->e2 - b->s2 / b->E3;
    if (lim == sgn * HY_POS_INF || sgn * hy_env_stress(b, sgn, lim) > 0.0) return sgn * HY_POS_INF;
    return lim;
}

static double hy_degrade(const hysteretic *p, double e_ext, double e1)
{
    const double k = pow(e_ext / e1, p->beta);
    return k < 1.0 ? 1.0 : 1.0 / k;
}

/* A trial increment towards tension (dir 1) or compression (dir -1) inside the envelope. */
static void hy_increment(const hysteretic *p, hy_state *t, double de, double dir)
{
    const hy_state *c = &p->c;
    const int pos = dir > 0.0;
    const hy_backbone *to = pos ? &p->p : &p->n;
    const double kn = hy_degrade(p, c->e_min, p->n.e1), kp = hy_degrade(p, c->e_max, p->p.e1);
    const double E_to = pos ? p->Eup * kp : p->Eun * kn, E_from = pos ? p->Eun * kn : p->Eup * kp;
    double *e_far = pos ? &t->e_max : &t->e_min, *e_zero = pos ? &t->e_nu : &t->e_pu;
    const double c_far_other = pos ? c->e_min : c->e_max;
    const hy_backbone *from = pos ? &p->n : &p->p;
    if (t->loading == (pos ? 2.0 : 1.0) && dir * c->s <= 0.0) {
        *e_zero = c->e - c->s / E_from;
        const double energy = c->energy - 0.5 * c->s / E_from * c->s;
        double damage = 0.0;
        if (dir * c_far_other < dir * from->e1) {
            damage = p->damage2 * energy / p->energy_a;
            damage += p->damage1 * (c_far_other - from->e1) / from->e1;
        }
        *e_far = (pos ? c->e_max : c->e_min) * (1.0 + damage);
    }
    t->loading = pos ? 1.0 : 2.0;
    if (dir * *e_far > HY_POS_INF) *e_far = dir * HY_POS_INF;
    if (dir * *e_far < dir * to->e1) *e_far = to->e1;
    const double far_s = hy_env_stress(to, dir, *e_far);
    const double lim = hy_env_limit(from, -dir, c_far_other);
    const double rel = dir * lim > dir * *e_zero ? lim : *e_zero;
    const double mp2 = *e_far - (1.0 - p->pinch_y) * far_s / E_to;
    const double ch = rel + (mp2 - rel) * p->pinch_x;
    const double E_back = pos ? p->Eun : p->Eup, E_fwd = pos ? p->Eup : p->Eun;
    if (dir * t->e < dir * *e_zero) {
        t->t = E_from;
        t->s = c->s + t->t * de;
        if (dir * t->s >= 0.0) {
            t->s = 0.0;
            t->t = E_back * 1.0e-9;
        }
    } else if (dir * t->e < dir * ch) {
        if (dir * t->e <= dir * rel) {
            t->s = 0.0;
            t->t = E_fwd * 1.0e-9;
        } else {
            t->t = far_s * p->pinch_y / (ch - rel);
            const double m1 = c->s + E_to * de, m2 = (t->e - rel) * t->t;
            if (dir * m1 < dir * m2) {
                t->s = m1;
                t->t = E_to;
            } else {
                t->s = m2;
            }
        }
    } else {
        t->t = (1.0 - p->pinch_y) * far_s / (*e_far - ch);
        const double m1 = c->s + E_to * de, m2 = p->pinch_y * far_s + (t->e - ch) * t->t;
        if (dir * m1 < dir * m2) {
            t->s = m1;
            t->t = E_to;
        } else {
            t->s = m2;
        }
    }
}

static int hy_set_trial(hs_material *m, double strain, double strain_rate)
{
    (void)strain_rate;
    hysteretic *p = m->data;
    hy_state *t = &p->t;
    *t = p->c;
    m->rate_tangent = 0.0;
    const double de = strain - p->c.e;
    if (fabs(de) >= DBL_EPSILON) {
        t->e = strain;
        if (t->loading == 0.0) t->loading = de < 0.0 ? 2.0 : 1.0;
        if (strain >= p->c.e_max) {
            t->e_max = strain;
            t->t = hy_env_tangent(&p->p, 1.0, strain);
            t->s = hy_env_stress(&p->p, 1.0, strain);
            t->loading = 1.0;
        } else if (strain <= p->c.e_min) {
            t->e_min = strain;
            t->t = hy_env_tangent(&p->n, -1.0, strain);
            t->s = hy_env_stress(&p->n, -1.0, strain);
            t->loading = 2.0;
        } else {
            hy_increment(p, t, de, de < 0.0 ? -1.0 : 1.0);
        }
        t->energy = p->c.energy + 0.5 * (p->c.s + t->s) * de;
    }
    m->stress = t->s;
    m->tangent = t->t;
    return 0;
}

static int hy_reset(hs_material *m)
{
    hysteretic *p = m->data;
    p->c = (hy_state){0.0, 0.0, p->p.E1, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    p->t = p->c;
    return 0;
}

static double hy_initial_tangent(const hs_material *m)
{
    return ((const hysteretic *)m->data)->p.E1;
}

static void hy_destroy(hs_material *m)
{
    hs_free(m->data);
}

static int hy_check(hs_material *m, int ok, const char *what, double got)
{
    return ok ? 0 : hs_fail(m->ctx, HS_EINPUT, "hysteretic: %s (got %g)", what, got);
}

/* Reads one side's backbone (prefix 'p' or 'n'); the two-point form puts point 2 halfway. */
static void hy_read_backbone(hy_backbone *b, const hs_options *opts, char side, int three)
{
    char k[4] = {'s', '1', side, 0};
    b->s1 = hs_options_num(opts, k, 0.0);
    k[0] = 'e';
    b->e1 = hs_options_num(opts, k, 0.0);
    k[1] = '2';
    const double e2 = hs_options_num(opts, k, 0.0);
    k[0] = 's';
    const double s2 = hs_options_num(opts, k, 0.0);
    if (three) {
        b->s2 = s2;
        b->e2 = e2;
        k[1] = '3';
        b->s3 = hs_options_num(opts, k, 0.0);
        k[0] = 'e';
        b->e3 = hs_options_num(opts, k, 0.0);
    } else {
        b->s3 = s2;
        b->e3 = e2;
        b->s2 = 0.5 * (b->s1 + b->s3);
        b->e2 = 0.5 * (b->e1 + b->e3);
    }
    b->E1 = b->s1 / b->e1;
    b->E2 = (b->s2 - b->s1) / (b->e2 - b->e1);
    b->E3 = (b->s3 - b->s2) / (b->e3 - b->e2);
}

int hs_material_create_hysteretic(hs_material *m, const hs_options *opts)
{
    hysteretic *p = hs_calloc(1, sizeof *p);
    if (!p) return HS_ENOMEM;
    m->data = p;
    hs_material_flat_state(m, (double *)&p->c, (double *)&p->t, HY_STATE);
    m->ops.set_trial = hy_set_trial;
    m->ops.reset = hy_reset;
    m->ops.initial_tangent = hy_initial_tangent;
    m->ops.destroy = hy_destroy;
    const int three_p = hs_options_has(opts, "s3p") || hs_options_has(opts, "e3p");
    const int three_n = hs_options_has(opts, "s3n") || hs_options_has(opts, "e3n");
    if (three_p != three_n ||
        (three_p && !(hs_options_has(opts, "s3p") && hs_options_has(opts, "e3p") &&
                      hs_options_has(opts, "s3n") && hs_options_has(opts, "e3n"))))
        return hs_fail(m->ctx, HS_EINPUT,
                       "hysteretic: give all of s3p, e3p, s3n, e3n (three-point backbones) or "
                       "none of them (two-point backbones)");
    hy_read_backbone(&p->p, opts, 'p', three_p);
    hy_read_backbone(&p->n, opts, 'n', three_p);
    p->pinch_x = hs_options_num(opts, "pinchX", 0.0);
    p->pinch_y = hs_options_num(opts, "pinchY", 0.0);
    p->damage1 = hs_options_num(opts, "damage1", 0.0);
    p->damage2 = hs_options_num(opts, "damage2", 0.0);
    p->beta = hs_options_num(opts, "beta", 0.0);
    const hy_backbone *a = &p->p, *b = &p->n;
    int rc;
    if ((rc = hy_check(m, a->e1 > 0.0, "e1p must be > 0", a->e1)) ||
        (rc = hy_check(m, a->e2 > a->e1, "the tension backbone's strains must increase", a->e2)) ||
        (rc = hy_check(m, a->e3 > a->e2, "the tension backbone's strains must increase", a->e3)) ||
        (rc = hy_check(m, b->e1 < 0.0, "e1n must be < 0", b->e1)) ||
        (rc = hy_check(m, b->e2 < b->e1, "the compression backbone's strains must decrease",
                       b->e2)) ||
        (rc = hy_check(m, b->e3 < b->e2, "the compression backbone's strains must decrease",
                       b->e3)) ||
        (rc = hy_check(m, a->s1 > 0.0 && isfinite(a->s1), "s1p must be > 0", a->s1)) ||
        (rc = hy_check(m, b->s1 < 0.0 && isfinite(b->s1), "s1n must be < 0", b->s1)) ||
        (rc = hy_check(m, p->pinch_x >= 0.0 && p->pinch_x <= 1.0, "pinchX must be in [0, 1]",
                       p->pinch_x)) ||
        (rc = hy_check(m, p->pinch_y >= 0.0 && p->pinch_y <= 1.0, "pinchY must be in [0, 1]",
                       p->pinch_y)) ||
        (rc = hy_check(m, p->damage1 >= 0.0, "damage1 must be >= 0", p->damage1)) ||
        (rc = hy_check(m, p->damage2 >= 0.0, "damage2 must be >= 0", p->damage2)) ||
        (rc = hy_check(m, p->beta >= 0.0 && isfinite(p->beta), "beta must be >= 0", p->beta)))
        return rc;
    p->Eup = fmax(a->E1, fmax(a->E2, a->E3));
    p->Eun = fmax(b->E1, fmax(b->E2, b->E3));
    p->energy_a = 0.5 * (a->e1 * a->s1 + (a->e2 - a->e1) * (a->s2 + a->s1) +
                         (a->e3 - a->e2) * (a->s3 + a->s2) + b->e1 * b->s1 +
                         (b->e2 - b->e1) * (b->s2 + b->s1) + (b->e3 - b->e2) * (b->s3 + b->s2));
    hy_reset(m);
    return 0;
}
