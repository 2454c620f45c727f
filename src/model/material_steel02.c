/* OpenSees Steel02: Giuffre-Menegotto-Pinto steel (Menegotto & Pinto 1973) with the isotropic
 * hardening of Filippou et al. (1983). On each branch, from the last reversal (e_r, s_r) towards
 * the intersection (e_0, s_0) of the elastic line through it with the hardening asymptote,
 *   x = (e - e_r) / (e_0 - e_r),   s* = b x + (1 - b) x / (1 + |x|^R)^(1/R),
 *   s = s_r + s* (s_0 - s_r),      R = R0 (1 - cR1 xi / (cR2 + xi)),
 * xi = |(e_pl - e_0) / e_y| with e_pl the strain of the previous reversal on the opposite side
 * (e_y = fy / E0). The asymptote of a branch towards tension passes through
 * (shift e_y, shift fy) with slope b E0, shift = 1 + a3 ((e_max - e_min) / (2 a4 e_y))^0.8
 * (towards compression a1, a2 and the mirror image). Reversals are detected from the sign of the
 * increment e - e_c against the committed branch, so the trial is a function of the committed state
 * and the trial strain alone, and the tangent is the exact derivative of s on the branch.
 * sig_init: initial stress; the strain seen by the law is e + sig_init / E0 (as OpenSees).
 * Committed state (checkpoints): [strain, e (with e_init), s, tangent, e_min, e_max, e_pl, e_0,
 * s_0, e_r, s_r, kon] with kon 0 virgin, 1 towards tension, 2 towards compression, 3 at rest. */
#include "material_impl.h"
#include "material_steel02_impl.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

const hs_param_spec hs_material_steel02_params[] = {
    {"fy", HS_PARAM_NUM, 1, "yield stress (force), > 0"},
    {"E0", HS_PARAM_NUM, 1, "initial elastic tangent, > 0"},
    {"b", HS_PARAM_NUM, 1, "strain-hardening ratio (asymptote slope / E0), 0 <= b < 1"},
    {"R0", HS_PARAM_NUM, 0,
     "curvature of the transition from elastic to plastic, > 0 (default 15)"},
    {"cR1", HS_PARAM_NUM, 0, "reduction of R with the plastic excursion (default 0.925)"},
    {"cR2", HS_PARAM_NUM, 0, "its strain scale, in units of fy/E0, > 0 (default 0.15)"},
    {"a1", HS_PARAM_NUM, 0, "isotropic hardening of the compression asymptote, >= 0 (default 0)"},
    {"a2", HS_PARAM_NUM, 0, "its strain scale, in units of fy/E0, > 0 (default 1)"},
    {"a3", HS_PARAM_NUM, 0, "isotropic hardening of the tension asymptote, >= 0 (default 0)"},
    {"a4", HS_PARAM_NUM, 0, "its strain scale, in units of fy/E0, > 0 (default 1)"},
    {"sig_init", HS_PARAM_NUM, 0, "initial stress (default 0)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

enum { S2_STATE = 12, S2_CACHED = 3 };

typedef struct s2_state {
    double strain;         /* the material's strain (without e_init) */
    double e, s, t;        /* law strain (with e_init), stress, tangent */
    double e_min, e_max;   /* extreme strains at reversals */
    double e_pl, e_0, s_0; /* previous reversal's strain, asymptotes' intersection */
    double e_r, s_r;       /* last reversal */
    double kon;            /* 0 virgin, 1 towards tension, 2 towards compression, 3 at rest */
    /* cached from e_pl and e_0 at each departure from rest and reversal (not checkpointed):
     * R, 1 / R, and the |x| below which 1 + |x|^R rounds to 1 (no pow needed there) */
    double R, inv_R, x_lin;
} s2_state;
_Static_assert(sizeof(s2_state) == S2_ROWS * sizeof(double) && S2_ROWS == S2_STATE + S2_CACHED &&
                   offsetof(s2_state, kon) == S2_KON * sizeof(double) &&
                   offsetof(s2_state, x_lin) == S2_X_LIN * sizeof(double),
               "a flat array of doubles, material_steel02_impl.h's rows");

typedef struct steel02 {
    s2_law law;
    s2_state c, t; /* committed, trial */
} steel02;

/* R of the branch (Menegotto & Pinto 1973, Filippou et al. 1983) and what follows from it. If
 * |x| < 2^-k with k R >= 54 then |x|^R < 2^-54 and 1 + |x|^R is 1 exactly, as is its 1/R-th
 * power: the pows are skipped there with the same result to the bit. */
static void s2_curvature(const s2_law *p, s2_state *t)
{
    const double ey = p->fy / p->E0;
    const double xi = fabs((t->e_pl - t->e_0) / ey);
    t->R = p->R0 * (1.0 - (p->cR1 * xi) / (p->cR2 + xi));
    t->inv_R = 1.0 / t->R;
    const double k = ceil(54.0 / t->R);
    t->x_lin = k < 1074.0 ? ldexp(1.0, -(int)k) : 0.0;
}

/* The branch's asymptote intersection after a reversal at the committed point c, towards
 * tension (dir 1) or compression (dir -1). */
static void s2_reverse(const s2_law *p, const s2_state *c, s2_state *t, double dir)
{
    const double ey = p->fy / p->E0, Esh = p->b * p->E0;
    t->e_r = c->e;
    t->s_r = c->s;
    double shift;
    if (dir > 0.0) {
        if (c->e < t->e_min) t->e_min = c->e;
        shift = p->a3 > 0.0 ? 1.0 + p->a3 * pow((t->e_max - t->e_min) / (2.0 * (p->a4 * ey)), 0.8)
                            : 1.0;
    } else {
        if (c->e > t->e_max) t->e_max = c->e;
        shift = p->a1 > 0.0 ? 1.0 + p->a1 * pow((t->e_max - t->e_min) / (2.0 * (p->a2 * ey)), 0.8)
                            : 1.0;
    }
    /* (operations in OpenSees' order, so that the two agree to the last bit) */
    t->e_0 = (dir * (p->fy * shift - Esh * ey * shift) - t->s_r + p->E0 * t->e_r) / (p->E0 - Esh);
    t->s_0 = dir * p->fy * shift + Esh * (t->e_0 - dir * ey * shift);
    t->e_pl = dir > 0.0 ? t->e_max : t->e_min;
    s2_curvature(p, t);
}

/* The trial state t at strain from the committed state c, up to the point on the branch: 1 and x
 * when the curve needs 1 + |x|^R and its 1/R-th power (s2_curve then gives the stress and
 * tangent), else 0 with t's stress and tangent. */
static int s2_branch(const s2_law *p, const s2_state *c, s2_state *t, double strain, double *x_out)
{
    *t = *c;
    t->strain = strain;
    t->e = strain + p->e_init;
    const double de = t->e - c->e, ey = p->fy / p->E0;
    if (!(t->kon > 0.5 && t->kon < 2.5)) { /* kon 0 or 3 (ordered compares: no NaN checks) */
        if (fabs(de) < 10.0 * DBL_EPSILON) {
            t->s = p->sig_init;
            t->t = p->E0;
            t->kon = 3.0;
            return 0;
        }
        /* first departure from rest: the monotonic envelope through (+-e_y, +-fy) */
        t->e_max = ey;
        t->e_min = -ey;
        const double dir = de < 0.0 ? -1.0 : 1.0;
        t->kon = dir < 0.0 ? 2.0 : 1.0;
        t->e_0 = t->e_pl = dir * ey;
        t->s_0 = dir * p->fy;
        s2_curvature(p, t);
    }
    if (t->kon > 1.5 && de > 0.0) { /* kon 2 */
        t->kon = 1.0;
        s2_reverse(p, c, t, 1.0);
    } else if (t->kon < 1.5 && de < 0.0) { /* kon 1 */
        t->kon = 2.0;
        s2_reverse(p, c, t, -1.0);
    }
    const double de0 = t->e_0 - t->e_r, x = (t->e - t->e_r) / de0, ds = t->s_0 - t->s_r;
    if (fabs(x) < t->x_lin) {
        /* 1 + |x|^R is 1: x / 1 and (1 - b) / 1 are exact, the divisions left out (same bits) */
        t->s = (p->b * x + p->b1 * x) * ds + t->s_r;
        t->t = (p->b + p->b1) * ds / de0;
        return 0;
    }
    *x_out = x;
    return 1;
}

/* The stress and tangent on t's branch at x from d1 = 1 + |x|^R and d2 = d1^(1/R). */
static void s2_curve(const s2_law *p, s2_state *t, double x, double d1, double d2)
{
    const double de0 = t->e_0 - t->e_r, ds = t->s_0 - t->s_r;
    t->s = (p->b * x + p->b1 * x / d2) * ds + t->s_r;
    t->t = (p->b + p->b1 / (d1 * d2)) * ds / de0;
}

/* The trial state t at strain from the committed state c, with glibc's scalar pow (the
 * material object's path: OpenSees' operations in OpenSees' order, the same bits). */
static void s2_trial(const s2_law *p, const s2_state *c, s2_state *t, double strain)
{
    double x;
    if (!s2_branch(p, c, t, strain, &x)) return;
    /* (exp(R log |x|) and exp(log(d1) / R) take 15 % fewer instructions than the two pows in
     * glibc 2.36 but are not the same bits) */
    const double d1 = 1.0 + pow(fabs(x), t->R), d2 = pow(d1, t->inv_R);
    s2_curve(p, t, x, d1, d2);
}

/* d1 = 1 + ax^R and d2 = d1^(1/R) for k <= 4 lanes, glibc's scalar pow */
static void s2_pows_scalar(size_t k, const double *ax, const double *R, const double *inv_R,
                           double *d1, double *d2)
{
    for (size_t l = 0; l < k; l++) {
        d1[l] = 1.0 + pow(ax[l], R[l]);
        d2[l] = pow(d1[l], inv_R[l]);
    }
}

/* n fibers' trial states, one fiber after the other (s2_state): each fiber's branch first, then
 * the pows of the fibers on the curve four at a time (pows), then their stresses and tangents. */
static void s2_fibers_with(s2_pows_fn *pows, const s2_law *p, size_t n, const double *strain,
                           const s2_state *c, s2_state *t, double *stress, double *tangent)
{
    double x[4], ax[4], R[4], inv_R[4], d1[4], d2[4];
    size_t at[4], k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!s2_branch(p, &c[i], &t[i], strain[i], &x[k])) {
            stress[i] = t[i].s;
            tangent[i] = t[i].t;
        } else
            at[k++] = i;
        if (k < 4 && (k == 0 || i + 1 < n)) continue;
        for (size_t l = 0; l < 4; l++) { /* the lanes past k: copies of the first */
            const size_t j = l < k ? l : 0;
            ax[l] = fabs(x[j]);
            R[l] = t[at[j]].R;
            inv_R[l] = t[at[j]].inv_R;
        }
        pows(k, ax, R, inv_R, d1, d2);
        for (size_t l = 0; l < k; l++) {
            s2_state *f = &t[at[l]];
            s2_curve(p, f, x[l], d1[l], d2[l]);
            stress[at[l]] = f->s;
            tangent[at[l]] = f->t;
        }
        k = 0;
    }
}

/* n fibers' trial states from their rows (material_fibers.h, ld doubles a row), four at a time
 * gathered into s2_states and scattered back (s2_fibers_with). */
static void s2_fibers_rows(s2_pows_fn *pows, const s2_law *p, size_t n, size_t ld,
                           const double *strain, const double *c, double *t, double *stress,
                           double *tangent)
{
    for (size_t i = 0; i < n; i += 4) {
        const size_t m = n - i < 4 ? n - i : 4;
        s2_state c4[4], t4[4];
        for (size_t l = 0; l < m; l++)
            for (size_t k = 0; k < S2_ROWS; k++) ((double *)(void *)&c4[l])[k] = c[k * ld + i + l];
        s2_fibers_with(pows, p, m, strain + i, c4, t4, stress + i, tangent + i);
        for (size_t l = 0; l < m; l++)
            for (size_t k = 0; k < S2_ROWS; k++)
                t[k * ld + i + l] = ((const double *)(const void *)&t4[l])[k];
    }
}

void hs_steel02_fibers_scalar(const void *params, size_t n, size_t ld, const double *strain,
                              const double *committed, double *trial, double *stress,
                              double *tangent)
{
    s2_fibers_rows(s2_pows_scalar, params, n, ld, strain, committed, trial, stress, tangent);
}

#if defined(HS_HAVE_MVEC) && defined(__x86_64__)
unsigned hs_steel02_branches(const void *params, size_t n, size_t ld, const double *strain,
                             const double *committed, double *trial, double *stress,
                             double *tangent, double *x)
{
    unsigned curve = 0;
    for (size_t l = 0; l < n; l++) {
        s2_state c, t;
        for (size_t k = 0; k < S2_ROWS; k++) ((double *)(void *)&c)[k] = committed[k * ld + l];
        if (s2_branch(params, &c, &t, strain[l], &x[l]))
            curve |= 1u << l;
        else {
            stress[l] = t.s;
            tangent[l] = t.t;
        }
        for (size_t k = 0; k < S2_ROWS; k++)
            trial[k * ld + l] = ((const double *)(const void *)&t)[k];
    }
    return curve;
}

static s2_kernel_fn *s2_fibers = hs_steel02_fibers_scalar;

/* The law's entry (hs_fiber_law.trial): the AVX2 kernel with glibc's vector pow
 * (material_steel02_mvec.c) where the processor has AVX2 and FMA (libmvec's AVX2 variant needs
 * both), its pows eight lanes a call where it has AVX-512F too (the same bits: bench/README.md),
 * chosen when the program loads; glibc's scalar pow elsewhere. */
__attribute__((constructor)) static void s2_fibers_choose(void)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        s2_fibers = __builtin_cpu_supports("avx512f") ? hs_steel02_fibers_avx2_pow8
                                                      : hs_steel02_fibers_avx2;
}
#else
static s2_kernel_fn *const s2_fibers = hs_steel02_fibers_scalar;
#endif

size_t hs_steel02_kernels(s2_kernel_fn **kernel, const char **name)
{
    size_t k = 0;
    kernel[k] = hs_steel02_fibers_scalar;
    name[k++] = "scalar pow";
#if defined(HS_HAVE_MVEC) && defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        kernel[k] = hs_steel02_fibers_avx2;
        name[k++] = "AVX2 lanes, 4-lane vector pow";
        if (__builtin_cpu_supports("avx512f")) {
            kernel[k] = hs_steel02_fibers_avx2_pow8;
            name[k++] = "AVX2 lanes, 8-lane vector pow";
        }
    }
#endif
    return k;
}

static int s2_load(const void *params, hs_ctx *ctx, double *state)
{
    const double kon = state[S2_STATE - 1];
    if (!(kon == 0.0 || kon == 1.0 || kon == 2.0 || kon == 3.0))
        return hs_fail(ctx, HS_EINPUT,
                       "steel02: checkpoint state has branch flag %g (must be 0, 1, 2 or 3)", kon);
    s2_curvature(params, (s2_state *)(void *)state);
    return 0;
}

static int steel02_fiber_law(const hs_material *m, hs_fiber_law *law, double *state)
{
    const steel02 *p = m->data;
    *law = (hs_fiber_law){s2_fibers, s2_load,  &p->law,      sizeof p->law,
                          S2_ROWS,   S2_STATE, 1 /* rows */, p->law.E0};
    if (state) memcpy(state, &p->c, sizeof p->c);
    return 1;
}

static int steel02_set_trial(hs_material *m, double strain, double strain_rate)
{
    (void)strain_rate;
    steel02 *p = m->data;
    s2_trial(&p->law, &p->c, &p->t, strain);
    m->rate_tangent = 0.0;
    m->stress = p->t.s;
    m->tangent = p->t.t;
    return 0;
}

static int steel02_commit(hs_material *m)
{
    steel02 *p = m->data;
    p->c = p->t;
    return 0;
}

static int steel02_revert(hs_material *m)
{
    steel02 *p = m->data;
    p->t = p->c;
    m->strain = p->c.strain;
    m->stress = p->c.s;
    m->tangent = p->c.t;
    m->rate_tangent = 0.0;
    return 0;
}

static int steel02_reset(hs_material *m)
{
    steel02 *p = m->data;
    const double ey = p->law.fy / p->law.E0;
    p->c = (s2_state){0.0,       p->law.e_init, p->law.sig_init,
                      p->law.E0, -ey,           ey,
                      0.0,       0.0,           0.0,
                      0.0,       0.0,           0.0,
                      0.0,       0.0,           0.0};
    s2_curvature(&p->law, &p->c);
    p->t = p->c;
    return 0;
}

static double steel02_initial_tangent(const hs_material *m)
{
    return ((const steel02 *)m->data)->law.E0;
}

static size_t steel02_state_size(const hs_material *m)
{
    (void)m;
    return S2_STATE;
}

static int steel02_state_save(const hs_material *m, double *out)
{
    memcpy(out, &((const steel02 *)m->data)->c, S2_STATE * sizeof(double));
    return 0;
}

static int steel02_state_load(hs_material *m, const double *in)
{
    steel02 *p = m->data;
    double st[S2_STATE + S2_CACHED] = {0};
    memcpy(st, in, S2_STATE * sizeof(double));
    const int rc = s2_load(&p->law, m->ctx, st);
    if (rc) return rc;
    memcpy(&p->c, st, sizeof st);
    p->t = p->c;
    m->strain = p->c.strain; /* the trial after loading is the committed state */
    m->strain_rate = 0.0;
    return 0;
}

static void steel02_destroy(hs_material *m)
{
    hs_free(m->data);
}

static int s2_check(hs_material *m, int ok, const char *what, double got)
{
    return ok ? 0 : hs_fail(m->ctx, HS_EINPUT, "steel02: %s (got %g)", what, got);
}

int hs_material_create_steel02(hs_material *m, const hs_options *opts)
{
    steel02 *p = hs_calloc(1, sizeof *p);
    if (!p) return HS_ENOMEM;
    m->data = p;
    p->law.fy = hs_options_num(opts, "fy", 0.0);
    p->law.E0 = hs_options_num(opts, "E0", 0.0);
    p->law.b = hs_options_num(opts, "b", 0.0);
    p->law.R0 = hs_options_num(opts, "R0", 15.0);
    p->law.cR1 = hs_options_num(opts, "cR1", 0.925);
    p->law.cR2 = hs_options_num(opts, "cR2", 0.15);
    p->law.a1 = hs_options_num(opts, "a1", 0.0);
    p->law.a2 = hs_options_num(opts, "a2", 1.0);
    p->law.a3 = hs_options_num(opts, "a3", 0.0);
    p->law.a4 = hs_options_num(opts, "a4", 1.0);
    p->law.sig_init = hs_options_num(opts, "sig_init", 0.0);
    m->ops.set_trial = steel02_set_trial;
    m->ops.commit = steel02_commit;
    m->ops.revert = steel02_revert;
    m->ops.reset = steel02_reset;
    m->ops.initial_tangent = steel02_initial_tangent;
    m->ops.state_size = steel02_state_size;
    m->ops.state_save = steel02_state_save;
    m->ops.state_load = steel02_state_load;
    m->ops.destroy = steel02_destroy;
    m->ops.fiber_law = steel02_fiber_law;
    int rc;
    if ((rc = s2_check(m, p->law.fy > 0.0 && isfinite(p->law.fy), "fy must be > 0", p->law.fy)) ||
        (rc = s2_check(m, p->law.E0 > 0.0 && isfinite(p->law.E0), "E0 must be > 0", p->law.E0)) ||
        (rc = s2_check(m, p->law.b >= 0.0 && p->law.b < 1.0, "b must be in [0, 1)", p->law.b)) ||
        (rc = s2_check(m, p->law.R0 > 0.0 && isfinite(p->law.R0), "R0 must be > 0", p->law.R0)) ||
        (rc = s2_check(m, p->law.cR1 >= 0.0 && p->law.cR1 < 1.0, "cR1 must be in [0, 1)",
                       p->law.cR1)) ||
        (rc = s2_check(m, p->law.cR2 > 0.0 && isfinite(p->law.cR2), "cR2 must be > 0",
                       p->law.cR2)) ||
        (rc = s2_check(m, p->law.a1 >= 0.0 && isfinite(p->law.a1), "a1 must be >= 0", p->law.a1)) ||
        (rc = s2_check(m, p->law.a2 > 0.0 && isfinite(p->law.a2), "a2 must be > 0", p->law.a2)) ||
        (rc = s2_check(m, p->law.a3 >= 0.0 && isfinite(p->law.a3), "a3 must be >= 0", p->law.a3)) ||
        (rc = s2_check(m, p->law.a4 > 0.0 && isfinite(p->law.a4), "a4 must be > 0", p->law.a4)) ||
        (rc = s2_check(m, isfinite(p->law.sig_init), "sig_init must be finite", p->law.sig_init)))
        return rc;
    p->law.e_init = p->law.sig_init / p->law.E0;
    p->law.b1 = 1.0 - p->law.b;
    steel02_reset(m);
    return 0;
}
