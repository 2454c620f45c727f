/* OpenSees Concrete02: concrete with linear tension softening (compression negative).
 * Compression envelope as Concrete01 (s = fc (2 x - x^2), x = e / epsc0, then linear to
 * (epscu, fcu), then flat, tangent 1e-10 there); tension envelope s = Ec0 e up to
 * ft, then s = ft - Ets (e - ft / Ec0) down to zero, then zero (tangent 1e-10). Unloading from
 * the extreme compressive strain e_min aims at the point (e_r, Ec0 e_r) of the initial line,
 *   e_r = (fcu - lambda Ec0 epscu) / (Ec0 (1 - lambda)),
 * with slope E_r = (s(e_min) - Ec0 e_r) / (e_min - e_r): the stress is the elastic predictor
 * s_c + Ec0 (e - e_c) clamped between s(e_min) + E_r (e - e_min) (below) and E_r / 2 (e - e_t)
 * (above), e_t = e_min - s(e_min) / E_r the strain where the unloading line meets zero. Beyond e_t
 * (tension side) the stress follows the secant to the largest tensile excursion d_t reached so
 * far, s = s_t(d_t) / d_t (e - e_t), and the tension envelope of e - e_t beyond it.
 * As OpenSees 3.8 (SRC/material/uniaxial/Concrete02.cpp, read for facts). fc, epsc0, fcu, epscu
 * given positive are taken negative; the 4-number form takes lambda = 0.1, ft = 0.1 |fc|,
 * Ets = 0.1 fc / epsc0 (OpenSees' defaults). |e - e_c| < DBL_EPSILON leaves the committed state.
 * Committed state (checkpoints): [strain, stress, tangent, e_min, d_t]. */
#include "material_impl.h"

#include <float.h>
#include <math.h>
#include <string.h>

const hs_param_spec hs_material_concrete02_params[] = {
    {"fc", HS_PARAM_NUM, 1, "compressive strength (stress), != 0; taken negative"},
    {"epsc0", HS_PARAM_NUM, 1, "strain at the compressive strength, != 0; taken negative"},
    {"fcu", HS_PARAM_NUM, 1, "crushing strength (stress); taken negative"},
    {"epscu", HS_PARAM_NUM, 1, "strain at crushing, beyond epsc0; taken negative"},
    {"lambda", HS_PARAM_NUM, 0,
     "ratio of the unloading slope at epscu to the initial slope, 0 <= lambda < 1 (default 0.1)"},
    {"ft", HS_PARAM_NUM, 0, "tensile strength, >= 0 (default 0.1 |fc|)"},
    {"Ets", HS_PARAM_NUM, 0, "tension softening stiffness, >= 0 (default 0.1 fc / epsc0; 0: none)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

enum { C2_STATE = 5, C2_CACHED = 3 };

typedef struct c2_state {
    double e, s, t;    /* strain, stress, tangent */
    double e_min, d_t; /* extreme compressive strain, largest tensile excursion past e_t */
    /* cached from e_min whenever it changes (not checkpointed): the envelope's stress there,
     * the unloading slope E_r and the strain e_t where the unloading line meets zero */
    double s_m, E_r, e_t;
} c2_state;
_Static_assert(sizeof(c2_state) == (C2_STATE + C2_CACHED) * sizeof(double),
               "a flat array of doubles");

typedef struct c2_law {
    double fc, epsc0, fcu, epscu, lambda, ft, Ets;
    /* from the parameters once: Ec0, the point (e_r, s_r) the unloading aims at, the tension
     * envelope's strain at ft (e0) and at zero stress (eu) */
    double ec0, e_r, s_r, e0, eu;
} c2_law;

typedef struct concrete02 {
    c2_law law;
    c2_state c, t;
} concrete02;

static void c2_derive(c2_law *p)
{
    p->ec0 = 2.0 * p->fc / p->epsc0;
    p->e_r = (p->fcu - p->lambda * p->ec0 * p->epscu) / (p->ec0 * (1.0 - p->lambda));
    p->s_r = p->ec0 * p->e_r;
    /* Ets = 0 (OpenSees: ft (1 / 0 + 1 / Ec0), inf or, with ft = 0, NaN): no softening, the
     * plateau at ft for ever, or no tension when ft = 0 */
    p->e0 = p->ft / p->ec0;
    p->eu = p->Ets > 0.0  ? p->ft * (1.0 / p->Ets + 1.0 / p->ec0)
            : p->ft > 0.0 ? INFINITY
                          : -INFINITY;
}

static void c2_tension(const c2_law *p, double e, double *s, double *t)
{
    if (e <= p->e0) {
        *s = e * p->ec0;
        *t = p->ec0;
    } else if (e <= p->eu) {
        *t = -p->Ets;
        *s = p->ft - p->Ets * (e - p->e0);
    } else {
        *t = 1.0e-10;
        *s = 0.0;
    }
}

static void c2_compression(const c2_law *p, double e, double *s, double *t)
{
    const double x = e / p->epsc0;
    if (e >= p->epsc0) {
        *s = p->fc * x * (2.0 - x);
        *t = p->ec0 * (1.0 - x);
    } else if (e > p->epscu) {
        *s = (p->fcu - p->fc) * (e - p->epsc0) / (p->epscu - p->epsc0) + p->fc;
        *t = (p->fcu - p->fc) / (p->epscu - p->epsc0);
    } else {
        *s = p->fcu;
        *t = 1.0e-10;
    }
}

/* The unloading line from e_min (the state's cached values). */
static void c2_unloading(const c2_law *p, c2_state *t)
{
    double dummy;
    c2_compression(p, t->e_min, &t->s_m, &dummy);
    t->E_r = (t->s_m - p->s_r) / (t->e_min - p->e_r);
    t->e_t = t->e_min - t->s_m / t->E_r;
}

/* The trial state t at strain from the committed state c. */
static void c2_trial(const c2_law *p, const c2_state *c, c2_state *t, double strain)
{
    *t = *c;
    const double de = strain - c->e;
    if (!(fabs(de) >= DBL_EPSILON)) return;
    t->e = strain;
    if (strain < t->e_min) {
        c2_compression(p, strain, &t->s, &t->t);
        t->e_min = strain;
        c2_unloading(p, t);
        return;
    }
    const double ec0 = p->ec0, s_m = t->s_m, E_r = t->E_r, e_t = t->e_t;
    if (strain <= e_t) {
        const double s_lo = s_m + E_r * (strain - t->e_min), s_hi = E_r * 0.5 * (strain - e_t);
        t->s = c->s + ec0 * de;
        t->t = ec0;
        if (t->s <= s_lo) {
            t->s = s_lo;
            t->t = E_r;
        }
        if (t->s >= s_hi) {
            t->s = s_hi;
            t->t = 0.5 * E_r;
        }
    } else if (strain <= e_t + t->d_t) {
        double s_n;
        c2_tension(p, t->d_t, &s_n, &t->t);
        t->t = t->d_t != 0.0 ? s_n / t->d_t : ec0;
        t->s = t->t * (strain - e_t);
    } else {
        c2_tension(p, strain - e_t, &t->s, &t->t);
        t->d_t = strain - e_t;
    }
}

/* n fibers (material_fibers.h) */
HS_FIBER_KERNEL(c2_fibers, c2_law, c2_state, c2_trial)

static int c2_load(const void *params, hs_ctx *ctx, double *state)
{
    (void)ctx;
    c2_unloading(params, (c2_state *)(void *)state);
    return 0;
}

static int c2_fiber_law(const hs_material *m, hs_fiber_law *law, double *state)
{
    const concrete02 *p = m->data;
    *law = (hs_fiber_law){c2_fibers, c2_load,   &p->law, sizeof p->law, C2_STATE + C2_CACHED,
                          C2_STATE,  p->law.ec0};
    if (state) memcpy(state, &p->c, sizeof p->c);
    return 1;
}

static void c2_fill(hs_material *m)
{
    concrete02 *p = m->data;
    c2_unloading(&p->law, &p->c);
}

static int c2_set_trial(hs_material *m, double strain, double strain_rate)
{
    (void)strain_rate;
    concrete02 *p = m->data;
    c2_trial(&p->law, &p->c, &p->t, strain);
    m->rate_tangent = 0.0;
    m->stress = p->t.s;
    m->tangent = p->t.t;
    return 0;
}

static int c2_reset(hs_material *m)
{
    concrete02 *p = m->data;
    p->c = (c2_state){0.0, 0.0, p->law.ec0, 0.0, 0.0, 0.0, 0.0, 0.0};
    c2_unloading(&p->law, &p->c);
    p->t = p->c;
    return 0;
}

static double c2_initial_tangent(const hs_material *m)
{
    return ((const concrete02 *)m->data)->law.ec0;
}

static void c2_destroy(hs_material *m)
{
    hs_free(m->data);
}

static int c2_check(hs_material *m, int ok, const char *what, double got)
{
    return ok ? 0 : hs_fail(m->ctx, HS_EINPUT, "concrete02: %s (got %g)", what, got);
}

int hs_material_create_concrete02(hs_material *m, const hs_options *opts)
{
    concrete02 *p = hs_calloc(1, sizeof *p);
    if (!p) return HS_ENOMEM;
    m->data = p;
    p->law.fc = -fabs(hs_options_num(opts, "fc", 0.0));
    p->law.epsc0 = -fabs(hs_options_num(opts, "epsc0", 0.0));
    p->law.fcu = -fabs(hs_options_num(opts, "fcu", 0.0));
    p->law.epscu = -fabs(hs_options_num(opts, "epscu", 0.0));
    p->law.lambda = hs_options_num(opts, "lambda", 0.1);
    p->law.ft = hs_options_num(opts, "ft", 0.1 * fabs(p->law.fc));
    p->law.Ets = hs_options_num(opts, "Ets", 0.1 * p->law.fc / p->law.epsc0);
    hs_material_flat_state(m, (double *)&p->c, (double *)&p->t, C2_STATE + C2_CACHED);
    m->flat_saved = C2_STATE;
    m->flat_fill = c2_fill;
    m->ops.set_trial = c2_set_trial;
    m->ops.reset = c2_reset;
    m->ops.initial_tangent = c2_initial_tangent;
    m->ops.destroy = c2_destroy;
    m->ops.fiber_law = c2_fiber_law;
    int rc;
    if ((rc = c2_check(m, p->law.fc < 0.0 && isfinite(p->law.fc), "fc must be non-zero",
                       p->law.fc)) ||
        (rc = c2_check(m, p->law.epsc0 < 0.0 && isfinite(p->law.epsc0), "epsc0 must be non-zero",
                       p->law.epsc0)) ||
        (rc = c2_check(m, isfinite(p->law.fcu), "fcu must be finite", p->law.fcu)) ||
        (rc = c2_check(m, p->law.epscu < p->law.epsc0 && isfinite(p->law.epscu),
                       "|epscu| must exceed |epsc0|", p->law.epscu)) ||
        (rc = c2_check(m, p->law.lambda >= 0.0 && p->law.lambda < 1.0, "lambda must be in [0, 1)",
                       p->law.lambda)) ||
        (rc = c2_check(m, p->law.ft >= 0.0 && isfinite(p->law.ft), "ft must be >= 0", p->law.ft)) ||
        (rc = c2_check(m, p->law.Ets >= 0.0 && isfinite(p->law.Ets), "Ets must be >= 0",
                       p->law.Ets)))
        return rc;
    c2_derive(&p->law);
    c2_reset(m);
    return 0;
}
