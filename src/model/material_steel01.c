/* OpenSees Steel01: bilinear steel with kinematic and optional isotropic hardening.
 * The stress is the elastic predictor s_c + E0 (e - e_c) clamped between the bounding lines
 *   s_up(e) = b E0 e + shiftP (1 - b) fy,   s_lo(e) = b E0 e - shiftN (1 - b) fy;
 * tangent E0 when the predictor is inside (to DBL_EPSILON), b E0 on a bounding line.
 * Isotropic hardening (OpenSees' rule, a1..a4): at a reversal from loading to unloading,
 *   shiftN = 1 + a1 ((e_max - e_min) / (2 a2 e_y))^0.8,
 * from unloading to loading shiftP = 1 + a3 ((e_max - e_min) / (2 a4 e_y))^0.8, e_y = fy / E0,
 * e_max / e_min the extreme committed strains at reversals. As in OpenSees the shifts found at
 * a reversal take effect from the next increment, and an increment |e - e_c| <= DBL_EPSILON leaves
 * the committed state (tangent included) as the trial.
 * Committed state (checkpoints): [strain, stress, tangent, e_min, e_max, shiftP, shiftN, loading].
 */
#include "material_impl.h"

#include <float.h>
#include <math.h>
#include <string.h>

const hs_param_spec hs_material_steel01_params[] = {
    {"fy", HS_PARAM_NUM, 1, "yield stress (force), > 0"},
    {"E0", HS_PARAM_NUM, 1, "initial elastic tangent, > 0"},
    {"b", HS_PARAM_NUM, 1, "strain-hardening ratio (post-yield / initial tangent), 0 <= b < 1"},
    {"a1", HS_PARAM_NUM, 0, "isotropic hardening of the compression envelope, >= 0 (default 0)"},
    {"a2", HS_PARAM_NUM, 0, "its strain scale, in units of fy/E0, > 0 (default 55)"},
    {"a3", HS_PARAM_NUM, 0, "isotropic hardening of the tension envelope, >= 0 (default 0)"},
    {"a4", HS_PARAM_NUM, 0, "its strain scale, in units of fy/E0, > 0 (default 55)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

enum { S1_STATE = 8 };

typedef struct s1_state {
    double e, s, t;          /* strain, stress, tangent */
    double e_min, e_max;     /* extreme strains at reversals */
    double shift_p, shift_n; /* isotropic shifts of the tension / compression envelopes */
    double loading;          /* 0 virgin, 1 loading, -1 unloading */
} s1_state;
_Static_assert(sizeof(s1_state) == S1_STATE * sizeof(double), "a flat array of doubles");

typedef struct s1_law {
    double fy, E0, b, a1, a2, a3, a4;
} s1_law;

typedef struct steel01 {
    s1_law law;
    s1_state c, t; /* committed, trial */
} steel01;

/* The trial state t at strain from the committed state c (OpenSees' operations in its order). */
static void s1_trial(const s1_law *p, const s1_state *c, s1_state *t, double strain)
{
    *t = *c;
    const double de = strain - c->e;
    if (fabs(de) > DBL_EPSILON) {
        t->e = strain;
        const double band = p->fy * (1.0 - p->b), hard = p->b * p->E0 * strain;
        const double pred = c->s + p->E0 * de;
        t->s = fmax(hard - t->shift_n * band, fmin(hard + t->shift_p * band, pred));
        t->t = fabs(t->s - pred) < DBL_EPSILON ? p->E0 : p->b * p->E0;
        if (t->loading == 0.0) t->loading = de > 0.0 ? 1.0 : -1.0;
        const double ey = p->fy / p->E0;
        if (t->loading == 1.0 && de < 0.0) {
            t->loading = -1.0;
            if (c->e > t->e_max) t->e_max = c->e;
            if (p->a1 > 0.0) /* (else 1 + 0 pow(...) = 1: the same bits, no pow) */
                t->shift_n = 1.0 + p->a1 * pow((t->e_max - t->e_min) / (2.0 * p->a2 * ey), 0.8);
            else
                t->shift_n = 1.0;
        }
        if (t->loading == -1.0 && de > 0.0) {
            t->loading = 1.0;
            if (c->e < t->e_min) t->e_min = c->e;
            if (p->a3 > 0.0)
                t->shift_p = 1.0 + p->a3 * pow((t->e_max - t->e_min) / (2.0 * p->a4 * ey), 0.8);
            else
                t->shift_p = 1.0;
        }
    }
}

/* n fibers (material_fibers.h: the law over fiber arrays, one fiber's state after the other) */
HS_FIBER_KERNEL(s1_fibers, s1_law, s1_state, s1_trial)

/* Checks a checkpoint state (its loading flag); nothing is cached. */
static int s1_load(const void *params, hs_ctx *ctx, double *state)
{
    (void)params;
    if (!(state[7] == 0.0 || state[7] == 1.0 || state[7] == -1.0))
        return hs_fail(ctx, HS_EINPUT,
                       "steel01: checkpoint state has loading flag %g (must be -1, 0 or 1)",
                       state[7]);
    return 0;
}

static int steel01_fiber_law(const hs_material *m, hs_fiber_law *law, double *state)
{
    const steel01 *p = m->data;
    *law = (hs_fiber_law){s1_fibers, s1_load,  &p->law, sizeof p->law,
                          S1_STATE,  S1_STATE, 0,       p->law.E0};
    if (state) memcpy(state, &p->c, sizeof p->c);
    return 1;
}

static int steel01_set_trial(hs_material *m, double strain, double strain_rate)
{
    (void)strain_rate;
    steel01 *p = m->data;
    s1_trial(&p->law, &p->c, &p->t, strain);
    m->rate_tangent = 0.0;
    m->stress = p->t.s;
    m->tangent = p->t.t;
    return 0;
}

static int steel01_commit(hs_material *m)
{
    steel01 *p = m->data;
    p->c = p->t;
    return 0;
}

static int steel01_revert(hs_material *m)
{
    steel01 *p = m->data;
    p->t = p->c;
    m->strain = p->c.e;
    m->stress = p->c.s;
    m->tangent = p->c.t;
    m->rate_tangent = 0.0;
    return 0;
}

static int steel01_reset(hs_material *m)
{
    steel01 *p = m->data;
    p->c = (s1_state){0.0, 0.0, p->law.E0, 0.0, 0.0, 1.0, 1.0, 0.0};
    p->t = p->c;
    return 0;
}

static double steel01_initial_tangent(const hs_material *m)
{
    return ((const steel01 *)m->data)->law.E0;
}

static size_t steel01_state_size(const hs_material *m)
{
    (void)m;
    return S1_STATE;
}

static int steel01_state_save(const hs_material *m, double *out)
{
    const s1_state *c = &((const steel01 *)m->data)->c;
    const double v[S1_STATE] = {c->e,     c->s,       c->t,       c->e_min,
                                c->e_max, c->shift_p, c->shift_n, c->loading};
    for (int i = 0; i < S1_STATE; i++) out[i] = v[i];
    return 0;
}

static int steel01_state_load(hs_material *m, const double *in)
{
    steel01 *p = m->data;
    double st[S1_STATE];
    memcpy(st, in, sizeof st);
    const int rc = s1_load(&p->law, m->ctx, st);
    if (rc) return rc;
    p->c = (s1_state){in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7]};
    p->t = p->c;
    m->strain = p->c.e; /* the trial after loading is the committed state */
    m->strain_rate = 0.0;
    return 0;
}

static void steel01_destroy(hs_material *m)
{
    hs_free(m->data);
}

static int s1_check(hs_material *m, int ok, const char *what, double got)
{
    return ok ? 0 : hs_fail(m->ctx, HS_EINPUT, "steel01: %s (got %g)", what, got);
}

int hs_material_create_steel01(hs_material *m, const hs_options *opts)
{
    steel01 *p = hs_calloc(1, sizeof *p);
    if (!p) return HS_ENOMEM;
    m->data = p;
    p->law.fy = hs_options_num(opts, "fy", 0.0);
    p->law.E0 = hs_options_num(opts, "E0", 0.0);
    p->law.b = hs_options_num(opts, "b", 0.0);
    p->law.a1 = hs_options_num(opts, "a1", 0.0);
    p->law.a2 = hs_options_num(opts, "a2", 55.0);
    p->law.a3 = hs_options_num(opts, "a3", 0.0);
    p->law.a4 = hs_options_num(opts, "a4", 55.0);
    m->ops.set_trial = steel01_set_trial;
    m->ops.commit = steel01_commit;
    m->ops.revert = steel01_revert;
    m->ops.reset = steel01_reset;
    m->ops.initial_tangent = steel01_initial_tangent;
    m->ops.state_size = steel01_state_size;
    m->ops.state_save = steel01_state_save;
    m->ops.state_load = steel01_state_load;
    m->ops.destroy = steel01_destroy;
    m->ops.fiber_law = steel01_fiber_law;
    int rc;
    if ((rc = s1_check(m, p->law.fy > 0.0 && isfinite(p->law.fy), "fy must be > 0", p->law.fy)) ||
        (rc = s1_check(m, p->law.E0 > 0.0 && isfinite(p->law.E0), "E0 must be > 0", p->law.E0)) ||
        (rc = s1_check(m, p->law.b >= 0.0 && p->law.b < 1.0, "b must be in [0, 1)", p->law.b)) ||
        (rc = s1_check(m, p->law.a1 >= 0.0 && isfinite(p->law.a1), "a1 must be >= 0", p->law.a1)) ||
        (rc = s1_check(m, p->law.a2 > 0.0 && isfinite(p->law.a2), "a2 must be > 0", p->law.a2)) ||
        (rc = s1_check(m, p->law.a3 >= 0.0 && isfinite(p->law.a3), "a3 must be >= 0", p->law.a3)) ||
        (rc = s1_check(m, p->law.a4 > 0.0 && isfinite(p->law.a4), "a4 must be > 0", p->law.a4)))
        return rc;
    steel01_reset(m);
    return 0;
}
