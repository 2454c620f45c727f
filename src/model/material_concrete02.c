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
#include <stdint.h>
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
     * envelope's strain at ft (e0) and at zero stress (eu), the compression envelope's linear
     * piece (rise dfc = fcu - fc over deps = epscu - epsc0, slope t_lin) */
    double ec0, e_r, s_r, e0, eu, dfc, deps, t_lin;
    /* the values the law's four lanes use, four times each: read as vectors where they are used
     * (no broadcasts at each call of the law) */
    struct {
        double ec0[4], Ets[4], e0[4], eu[4], ft[4], epsc0[4], fc[4], epscu[4], dfc[4], deps[4],
            fcu[4], t_lin[4], s_r[4], e_r[4];
    } v;
} c2_law;

typedef struct concrete02 {
    c2_law law;
    c2_state c, t;
} concrete02;

/* The rows of the states (material_fibers.h): c2_state's members in order. */
enum { C2_E, C2_S, C2_T, C2_EMIN, C2_DT, C2_SM, C2_ER, C2_ET };

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
    p->dfc = p->fcu - p->fc;
    p->deps = p->epscu - p->epsc0;
    p->t_lin = p->dfc / p->deps;
    for (int l = 0; l < 4; l++) {
        p->v.ec0[l] = p->ec0;
        p->v.Ets[l] = p->Ets;
        p->v.e0[l] = p->e0;
        p->v.eu[l] = p->eu;
        p->v.ft[l] = p->ft;
        p->v.epsc0[l] = p->epsc0;
        p->v.fc[l] = p->fc;
        p->v.epscu[l] = p->epscu;
        p->v.dfc[l] = p->dfc;
        p->v.deps[l] = p->deps;
        p->v.fcu[l] = p->fcu;
        p->v.t_lin[l] = p->t_lin;
        p->v.s_r[l] = p->s_r;
        p->v.e_r[l] = p->e_r;
    }
}

/* The law runs on four fibers at once (GNU C vectors: AVX2 where the CPU has it, two SSE2
 * halves elsewhere): each piece of the envelopes and each branch computed for every lane and one
 * chosen per lane by masks, with OpenSees' operations in OpenSees' order (the same bits). */
#pragma GCC diagnostic ignored "-Wpsabi" /* vectors passed to static helpers: no ABI involved */
/* (always inlined into the clones below, which then compile them for their instruction set) */
#define C2_INLINE static inline __attribute__((always_inline))
typedef double c2_v __attribute__((vector_size(4 * sizeof(double))));
typedef int64_t c2_m __attribute__((vector_size(4 * sizeof(int64_t))));

C2_INLINE c2_v c2_all(double x)
{
    return (c2_v){x, x, x, x};
}

C2_INLINE c2_v c2_get(const double *a)
{
    c2_v v;
    memcpy(&v, a, sizeof v);
    return v;
}

C2_INLINE void c2_put(double *a, c2_v v)
{
    memcpy(a, &v, sizeof v);
}

/* the four lanes of m or'ed (in the vector registers) */
C2_INLINE int64_t c2_or_lanes(c2_m m)
{
    const c2_m h = m | __builtin_shufflevector(m, m, 2, 3, 0, 1);
    return (h | __builtin_shufflevector(h, h, 1, 0, 3, 2))[0];
}

/* a where m is set, else b */
C2_INLINE c2_v c2_sel(c2_m m, c2_v a, c2_v b)
{
    return (c2_v)((m & (c2_m)a) | (~m & (c2_m)b));
}

C2_INLINE void c2_tension(const c2_law *p, c2_v e, c2_v *s, c2_v *t)
{
    const c2_v ec0 = c2_get(p->v.ec0), Ets = c2_get(p->v.Ets), e0 = c2_get(p->v.e0);
    const c2_m lin = (c2_m)(e <= e0), soft = (c2_m)(e <= c2_get(p->v.eu));
    *s = c2_sel(lin, e * ec0, c2_sel(soft, c2_get(p->v.ft) - Ets * (e - e0), c2_all(0.0)));
    *t = c2_sel(lin, ec0, c2_sel(soft, -Ets, c2_all(1.0e-10)));
}

C2_INLINE void c2_compression(const c2_law *p, c2_v e, c2_v *s, c2_v *t)
{
    const c2_v epsc0 = c2_get(p->v.epsc0), fc = c2_get(p->v.fc), x = e / epsc0;
    const c2_m par = (c2_m)(e >= epsc0), lin = (c2_m)(e > c2_get(p->v.epscu));
    const c2_v s_lin = c2_get(p->v.dfc) * (e - epsc0) / c2_get(p->v.deps) + fc;
    *s = c2_sel(par, fc * x * (c2_all(2.0) - x), c2_sel(lin, s_lin, c2_get(p->v.fcu)));
    *t = c2_sel(par, c2_get(p->v.ec0) * (c2_all(1.0) - x),
                c2_sel(lin, c2_get(p->v.t_lin), c2_all(1.0e-10)));
}

/* The unloading line from (e_min, s_m) on the envelope: its slope E_r and the strain e_t where
 * it meets zero. */
C2_INLINE void c2_line(const c2_law *p, c2_v e_min, c2_v s_m, c2_v *E_r, c2_v *e_t)
{
    *E_r = (s_m - c2_get(p->v.s_r)) / (e_min - c2_get(p->v.e_r));
    *e_t = e_min - s_m / *E_r;
}

/* The unloading line from e_min (the state's cached values). */
static void c2_unloading(const c2_law *p, c2_state *t)
{
    const c2_v e_min = c2_all(t->e_min);
    c2_v s_m, t_m, E_r, e_t;
    c2_compression(p, e_min, &s_m, &t_m);
    c2_line(p, e_min, s_m, &E_r, &e_t);
    t->s_m = s_m[0];
    t->E_r = E_r[0];
    t->e_t = e_t[0];
}

/* Four fibers' trial states (rows of ldt doubles) from their committed states c (rows of ldc
 * doubles, read here rather than passed in registers: fewer spills in the AVX2 build) and strains
 * e, the lanes that keep their committed state (an increment below DBL_EPSILON), that go beyond
 * e_min (env) and that are up to e_t (un): beyond e_min the envelope and a new unloading line; up
 * to e_t the elastic predictor clamped by the unloading lines; beyond, the secant to the largest
 * tensile excursion d_t, then the tension envelope of e - e_t. taken: the branches to compute
 * (bits: 1 env, 2 up to e_t, 4 beyond e_t; at least those of the lanes). */
C2_INLINE void c2_branches(const c2_law *p, c2_v e, const double *c, size_t ldc, c2_m keep,
                           c2_m env, c2_m un, int64_t taken, double *t, size_t ldt, double *stress,
                           double *tangent)
{
    const c2_v e_c = c2_get(c + C2_E * ldc), s_c = c2_get(c + C2_S * ldc);
    const c2_v t_c = c2_get(c + C2_T * ldc), e_min = c2_get(c + C2_EMIN * ldc);
    const c2_v d_t = c2_get(c + C2_DT * ldc), s_m = c2_get(c + C2_SM * ldc);
    const c2_v E_r = c2_get(c + C2_ER * ldc), e_t = c2_get(c + C2_ET * ldc);
    const c2_v ec0 = c2_get(p->v.ec0), half = c2_all(0.5), de = e - e_c;
    const c2_m beyond = ~keep & ~env & ~un;
    /* beyond e_min (its divisions only where a fiber goes there) */
    c2_v s_env = s_m, t_env = t_c, E_r_env = E_r, e_t_env = e_t;
    if (taken & 1) {
        c2_compression(p, e, &s_env, &t_env);
        c2_line(p, e, s_env, &E_r_env, &e_t_env);
    }
    /* up to e_t (computed where a fiber of the four is there, as each branch below) */
    c2_v s_un = s_c, t_un = t_c;
    if (taken & 2) {
        const c2_v s_lo = s_m + E_r * (e - e_min), s_hi = E_r * half * (e - e_t);
        const c2_v s_el = s_c + ec0 * de;
        const c2_m below = (c2_m)(s_el <= s_lo);
        const c2_v s_1 = c2_sel(below, s_lo, s_el), t_1 = c2_sel(below, E_r, ec0);
        const c2_m above = (c2_m)(s_1 >= s_hi);
        s_un = c2_sel(above, s_hi, s_1);
        t_un = c2_sel(above, half * E_r, t_1);
    }
    /* beyond e_t: the tension envelope at d_t (the secant) or at e - e_t (past d_t); the
     * secant's division in every such block (a test of the lanes that need it, and its
     * mispredictions, cost more than the division) */
    c2_m past = {0};
    c2_v u = d_t, s_tr = s_c, t_tr = t_c;
    if (taken & 4) {
        const c2_m reached = (c2_m)(d_t != c2_all(0.0));
        past = ~(c2_m)(e <= e_t + d_t);
        u = c2_sel(past, e - e_t, d_t);
        c2_v s_ten, t_ten;
        c2_tension(p, u, &s_ten, &t_ten);
        const c2_v t_sec = c2_sel(reached, s_ten / c2_sel(reached, d_t, c2_all(1.0)), ec0);
        s_tr = c2_sel(past, s_ten, t_sec * (e - e_t));
        t_tr = c2_sel(past, t_ten, t_sec);
    }
    /* the branch */
    const c2_v s_new = c2_sel(env, s_env, c2_sel(un, s_un, s_tr));
    const c2_v t_new = c2_sel(env, t_env, c2_sel(un, t_un, t_tr));
    const c2_v s = c2_sel(keep, s_c, s_new), tg = c2_sel(keep, t_c, t_new);
    c2_put(t + C2_E * ldt, c2_sel(keep, e_c, e));
    c2_put(t + C2_S * ldt, s);
    c2_put(t + C2_T * ldt, tg);
    c2_put(t + C2_EMIN * ldt, c2_sel(env, e, e_min));
    c2_put(t + C2_DT * ldt, c2_sel(beyond & past, u, d_t));
    c2_put(t + C2_SM * ldt, c2_sel(env, s_env, s_m));
    c2_put(t + C2_ER * ldt, c2_sel(env, E_r_env, E_r));
    c2_put(t + C2_ET * ldt, c2_sel(env, e_t_env, e_t));
    c2_put(stress, s);
    c2_put(tangent, tg);
}

/* Four fibers' trial states (rows of ldc and ldt doubles) from their committed states and
 * strains (c2_branches). The lanes' branches are found once; where all four take one branch (up
 * to e_t, beyond e_t, beyond e_min: 33, 27 and 14 % of the blocks of four in
 * bench/opensees/rc_frame_3x3.tcl's 2048 steps) or the two sides of e_t (13 %), the branches are
 * built with their masks as constants, which leaves out the selects of the others (the same
 * operations, the same bits). The blocks with a lane beyond e_min are told apart first (all of
 * them, or mixed: the general path), then the others: fewer tests a block than one chain of
 * compares (bench/README.md, Concrete02's kernel). */
C2_INLINE void c2_four(const c2_law *p, const double *strain, const double *c, size_t ldc,
                       double *t, size_t ldt, double *stress, double *tangent)
{
    const c2_v e = c2_get(strain);
    const c2_v eps = c2_all(DBL_EPSILON), de = e - c2_get(c + C2_E * ldc);
    const c2_m keep = ~(c2_m)((c2_v)((c2_m)de & ~(c2_m)c2_all(-0.0)) >= eps); /* |de| < eps */
    const c2_m env = ~keep & (c2_m)(e < c2_get(c + C2_EMIN * ldc));
    const c2_m un = (c2_m)(e <= c2_get(c + C2_ET * ldc));
    /* the lanes' branches as bits, or'ed: 1 beyond e_min, else 2 up to e_t or 4 beyond e_t; 8 kept
     * (a kept lane also sets 2 or 4: the general path then computes a branch more) */
    const c2_m to_e_t = (un & 2) | (~un & 4);
    const int64_t taken = c2_or_lanes((env & 1) | (~env & to_e_t) | (keep & 8));
    const c2_m none = {0}, all = ~none;
    if (taken & 1) {
        if (taken == 1)
            c2_branches(p, e, c, ldc, none, all, none, 1, t, ldt, stress, tangent);
        else
            c2_branches(p, e, c, ldc, keep, env, un, taken, t, ldt, stress, tangent);
    } else if (taken == 2)
        c2_branches(p, e, c, ldc, none, none, all, 2, t, ldt, stress, tangent);
    else if (taken == 4)
        c2_branches(p, e, c, ldc, none, none, none, 4, t, ldt, stress, tangent);
    else if (taken == 6)
        c2_branches(p, e, c, ldc, none, none, un, 6, t, ldt, stress, tangent);
    else
        c2_branches(p, e, c, ldc, keep, env, un, taken, t, ldt, stress, tangent);
}

/* n trial states from the committed ones (material_fibers.h; one fiber: ld = 1, the c2_state
 * structs), four fibers at a time; the last n % 4 padded with copies of the first of them. */
C2_INLINE void c2_fibers_body(const void *params, size_t n, size_t ld, const double *strain,
                              const double *c, double *t, double *stress, double *tangent)
{
    const c2_law *p = params;
    size_t i = 0;
    { /* (the pointers advanced: one register each, where indices gave one a row) */
        const double *ep = strain, *cp = c;
        double *tp = t, *sp = stress, *kp = tangent;
        for (; i + 4 <= n; i += 4, ep += 4, cp += 4, tp += 4, sp += 4, kp += 4)
            c2_four(p, ep, cp, ld, tp, ld, sp, kp);
    }
    if (i == n) return;
    enum { M = C2_STATE + C2_CACHED };
    double e4[4], c4[M * 4], t4[M * 4], s4[4], k4[4];
    for (size_t l = 0; l < 4; l++) {
        const size_t f = i + l < n ? i + l : i;
        e4[l] = strain[f];
        for (size_t k = 0; k < M; k++) c4[k * 4 + l] = c[k * ld + f];
    }
    c2_four(p, e4, c4, 4, t4, 4, s4, k4);
    for (size_t l = 0; i + l < n; l++) {
        stress[i + l] = s4[l];
        tangent[i + l] = k4[l];
        for (size_t k = 0; k < M; k++) t[k * ld + i + l] = t4[k * 4 + l];
    }
}

/* The law's entry: on x86-64 one clone per instruction set, chosen when the program loads (an
 * ifunc); the operations and their order are the same in each (-ffp-contract=off), so every
 * clone gives the same bits, which tests/test_material_concrete02_portable.c checks against the
 * plain build below. */
#if defined(__x86_64__)
__attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#endif
static void
c2_fibers(const void *params, size_t n, size_t ld, const double *strain, const double *c, double *t,
          double *stress, double *tangent)
{
    c2_fibers_body(params, n, ld, strain, c, t, stress, tangent);
}

/* The same law built for the processor's baseline only (SSE2 on x86-64), for the test above. */
void hs_concrete02_fibers_baseline(const void *params, size_t n, size_t ld, const double *strain,
                                   const double *c, double *t, double *stress, double *tangent)
{
    c2_fibers_body(params, n, ld, strain, c, t, stress, tangent);
}

static int c2_load(const void *params, hs_ctx *ctx, double *state)
{
    (void)ctx;
    c2_unloading(params, (c2_state *)(void *)state);
    return 0;
}

static int c2_fiber_law(const hs_material *m, hs_fiber_law *law, double *state)
{
    const concrete02 *p = m->data;
    *law = (hs_fiber_law){c2_fibers, c2_load,      &p->law,   sizeof p->law, C2_STATE + C2_CACHED,
                          C2_STATE,  1 /* rows */, p->law.ec0};
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
    c2_fibers(&p->law, 1, 1, &strain, (const double *)(const void *)&p->c, (double *)(void *)&p->t,
              &m->stress, &m->tangent);
    m->rate_tangent = 0.0;
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
