/* OpenSees Concrete01: Kent-Scott-Park concrete without tensile strength (compression negative).
 * Envelope: s = fpc (2 x - x^2), x = e / epsc0, down to epsc0; then linear to (epscu, fpcu);
 * then flat at fpcu. Tension carries nothing. Unloading from the extreme compressive strain e_min
 * follows the Karsan-Jirsa rule: it reaches zero stress at e_end = ratio epsc0 with
 *   ratio = 0.145 x^2 + 0.13 x (x < 2),   0.707 (x - 2) + 0.834 (x >= 2),   x = e_min / epsc0
 * (e_min capped at epscu), with slope s(e_min) / (e_min - e_end), or Ec0 = 2 fpc / epsc0 when the
 * rule would ask for a stiffer one (then e_end = e_min - s / Ec0). Reloading retraces the
 * unloading line up to the envelope. The trial is the unloading-line predictor
 * s_c + E_u (e - e_c) and, going further into compression, the larger (less compressive) of it
 * and the reload/envelope value, as OpenSees 3.8 (SRC/material/uniaxial/Concrete01.cpp, read for
 * facts). Any of fpc, epsc0, fpcu, epscu given positive is taken as its negative (as OpenSees).
 * An increment |e - e_c| < DBL_EPSILON leaves the committed state as the trial.
 * Committed state (checkpoints): [strain, stress, tangent, e_min, e_end, unload slope]. */
#include "material_impl.h"

#include <float.h>
#include <math.h>
#include <string.h>

const hs_param_spec hs_material_concrete01_params[] = {
    {"fpc", HS_PARAM_NUM, 1, "compressive strength (stress), != 0; taken negative"},
    {"epsc0", HS_PARAM_NUM, 1, "strain at the compressive strength, != 0; taken negative"},
    {"fpcu", HS_PARAM_NUM, 1, "crushing strength (stress); taken negative"},
    {"epscu", HS_PARAM_NUM, 1, "strain at crushing, beyond epsc0; taken negative"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

enum { C1_STATE = 6 };

typedef struct c1_state {
    double e, s, t;          /* strain, stress, tangent */
    double e_min, e_end, Eu; /* extreme compressive strain, zero-stress strain, unload slope */
} c1_state;
_Static_assert(sizeof(c1_state) == C1_STATE * sizeof(double), "a flat array of doubles");

typedef struct c1_law {
    double fpc, epsc0, fpcu, epscu;
} c1_law;

typedef struct concrete01 {
    c1_law law;
    c1_state c, t;
} concrete01;

static double c1_ec0(const c1_law *p)
{
    return 2.0 * p->fpc / p->epsc0;
}

/* The compressive envelope at t->e into t->s, t->t. */
static void c1_envelope(const c1_law *p, c1_state *t)
{
    if (t->e > p->epsc0) {
        const double x = t->e / p->epsc0;
        t->s = p->fpc * (2.0 * x - x * x);
        t->t = c1_ec0(p) * (1.0 - x);
    } else if (t->e > p->epscu) {
        t->t = (p->fpc - p->fpcu) / (p->epsc0 - p->epscu);
        t->s = p->fpc + t->t * (t->e - p->epsc0);
    } else {
        t->s = p->fpcu;
        t->t = 0.0;
    }
}

/* The unloading line from the envelope point (t->e_min, t->s): its zero-stress strain and slope. */
static void c1_unload(const c1_law *p, c1_state *t)
{
    const double x = fmax(t->e_min, p->epscu) / p->epsc0;
    const double ratio = x < 2.0 ? 0.145 * x * x + 0.13 * x : 0.707 * (x - 2.0) + 0.834;
    t->e_end = ratio * p->epsc0;
    const double d = t->e_min - t->e_end, ec0 = c1_ec0(p), d_el = t->s / ec0;
    if (d > -DBL_EPSILON) {
        t->Eu = ec0;
    } else if (d <= d_el) {
        t->e_end = t->e_min - d;
        t->Eu = t->s / d;
    } else {
        t->e_end = t->e_min - d_el;
        t->Eu = ec0;
    }
}

/* Going further into compression: along the envelope past e_min, else the reloading line. */
static void c1_reload(const c1_law *p, c1_state *t)
{
    if (t->e <= t->e_min) {
        t->e_min = t->e;
        c1_envelope(p, t);
        c1_unload(p, t);
    } else if (t->e <= t->e_end) {
        t->t = t->Eu;
        t->s = t->t * (t->e - t->e_end);
    } else {
        t->s = 0.0;
        t->t = 0.0;
    }
}

/* The trial state t at strain from the committed state c (OpenSees' operations in its order). */
static void c1_trial(const c1_law *p, const c1_state *c, c1_state *t, double strain)
{
    *t = *c;
    if (fabs(strain - c->e) >= DBL_EPSILON) {
        t->e = strain;
        if (strain > 0.0) {
            t->s = 0.0;
            t->t = 0.0;
        } else {
            const double pred = c->s + t->Eu * strain - t->Eu * c->e;
            if (strain < c->e) {
                c1_reload(p, t);
                if (pred > t->s) {
                    t->s = pred;
                    t->t = t->Eu;
                }
            } else if (pred <= 0.0) {
                t->s = pred;
                t->t = t->Eu;
            } else {
                t->s = 0.0;
                t->t = 0.0;
            }
        }
    }
}

/* n fibers (material_fibers.h: the law over fiber arrays, one fiber's state after the other) */
HS_FIBER_KERNEL(c1_fibers, c1_law, c1_state, c1_trial)

/* Any six numbers are a state: nothing to check, nothing cached. */
static int c1_load(const void *params, hs_ctx *ctx, double *state)
{
    (void)params;
    (void)ctx;
    (void)state;
    return 0;
}

static int c1_fiber_law(const hs_material *m, hs_fiber_law *law, double *state)
{
    const concrete01 *p = m->data;
    *law = (hs_fiber_law){c1_fibers, c1_load,  &p->law, sizeof p->law,
                          C1_STATE,  C1_STATE, 0,       c1_ec0(&p->law)};
    if (state) memcpy(state, &p->c, sizeof p->c);
    return 1;
}

static int c1_set_trial(hs_material *m, double strain, double strain_rate)
{
    (void)strain_rate;
    concrete01 *p = m->data;
    c1_trial(&p->law, &p->c, &p->t, strain);
    m->rate_tangent = 0.0;
    m->stress = p->t.s;
    m->tangent = p->t.t;
    return 0;
}

static int c1_reset(hs_material *m)
{
    concrete01 *p = m->data;
    const double ec0 = c1_ec0(&p->law);
    p->c = (c1_state){0.0, 0.0, ec0, 0.0, 0.0, ec0};
    p->t = p->c;
    return 0;
}

static double c1_initial_tangent(const hs_material *m)
{
    return c1_ec0(&((const concrete01 *)m->data)->law);
}

static void c1_destroy(hs_material *m)
{
    hs_free(m->data);
}

static int c1_check(hs_material *m, int ok, const char *what, double got)
{
    return ok ? 0 : hs_fail(m->ctx, HS_EINPUT, "concrete01: %s (got %g)", what, got);
}

int hs_material_create_concrete01(hs_material *m, const hs_options *opts)
{
    concrete01 *p = hs_calloc(1, sizeof *p);
    if (!p) return HS_ENOMEM;
    m->data = p;
    p->law.fpc = -fabs(hs_options_num(opts, "fpc", 0.0));
    p->law.epsc0 = -fabs(hs_options_num(opts, "epsc0", 0.0));
    p->law.fpcu = -fabs(hs_options_num(opts, "fpcu", 0.0));
    p->law.epscu = -fabs(hs_options_num(opts, "epscu", 0.0));
    hs_material_flat_state(m, (double *)&p->c, (double *)&p->t, C1_STATE);
    m->ops.set_trial = c1_set_trial;
    m->ops.reset = c1_reset;
    m->ops.initial_tangent = c1_initial_tangent;
    m->ops.destroy = c1_destroy;
    m->ops.fiber_law = c1_fiber_law;
    int rc;
    if ((rc = c1_check(m, p->law.fpc < 0.0 && isfinite(p->law.fpc), "fpc must be non-zero",
                       p->law.fpc)) ||
        (rc = c1_check(m, p->law.epsc0 < 0.0 && isfinite(p->law.epsc0), "epsc0 must be non-zero",
                       p->law.epsc0)) ||
        (rc = c1_check(m, isfinite(p->law.fpcu), "fpcu must be finite", p->law.fpcu)) ||
        (rc = c1_check(m, p->law.epscu < p->law.epsc0 && isfinite(p->law.epscu),
                       "|epscu| must exceed |epsc0|", p->law.epscu)))
        return rc;
    c1_reset(m);
    return 0;
}
