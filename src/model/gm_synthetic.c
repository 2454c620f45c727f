/* Synthetic ground motion: Gaussian white noise w (seeded, deterministic) through the
 * Kanai-Tajimi filter, times an envelope, scaled so that max |ag| = pga exactly.
 *
 * Kanai-Tajimi: a soil layer (omega_g, zeta_g) on bedrock shaken by w:
 *     x'' + 2 zeta_g omega_g x' + omega_g^2 x = -w,
 *     ag = x'' + w = -(2 zeta_g omega_g x' + omega_g^2 x),
 *     |H(omega)|^2 = (omega_g^4 + 4 zeta_g^2 omega_g^2 omega^2)
 *                    / ((omega_g^2 - omega^2)^2 + 4 zeta_g^2 omega_g^2 omega^2).
 * w is a new N(0,1) deviate per step (hs_rng, stream 0), held over the step, and the filter is
 * integrated exactly for such an input: [x; x'] advances by Phi = expm(A dt) and
 * Gamma = int_0^dt expm(A s) B ds, read from the exponential of the augmented matrix
 * [A B; 0 0] dt (Van Loan), computed by a Taylor series with scaling and squaring. Arithmetic
 * only (and no FMA contraction), so a seed gives the same bits on every IEEE-754 machine. The
 * filter runs from rest for 10 of its slowest time constants before the first sample, so the
 * filtered noise is stationary when the record starts. */
#include "ground_motion_impl.h"
#include "hysim/rng.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const hs_param_spec hs_ground_motion_synthetic_params[] = {
    {"seed", HS_PARAM_NUM, 1, "seed of the random numbers, a whole number in [0, 2^53]"},
    {"pga", HS_PARAM_NUM, 1, "peak ground acceleration, length/time^2 (max |ag| equals it)"},
    {"duration", HS_PARAM_NUM, 1, "length of the record (s); npts = round(duration / dt) + 1"},
    {"dt", HS_PARAM_NUM, 1, "time step of the record (s)"},
    {"omega_g", HS_PARAM_NUM, 0, "Kanai-Tajimi ground frequency (rad/s, default 15.6)"},
    {"zeta_g", HS_PARAM_NUM, 0, "Kanai-Tajimi ground damping ratio (default 0.6)"},
    {"envelope", HS_PARAM_STR, 0, "jennings (default) | trapezoid | none"},
    {"rise", HS_PARAM_NUM, 0, "rise time t1 (s, default 0.1 duration)"},
    {"strong", HS_PARAM_NUM, 0, "strong-motion length t2 - t1 (s, default 0.4 duration)"},
    {"decay", HS_PARAM_NUM, 0,
     "jennings decay rate c (1/s, default ln(20) / (duration - t2): 5 % at the end)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

#define HS_GM_MAX_NPTS    100000000.0
#define HS_GM_PI          3.14159265358979323846
#define HS_GM_LN20        2.99573227355399099344
#define HS_GM_WARMUP_TAUS 10.0

/* ln 2 split so that n * HS_GM_LN2_HI is exact for |n| < 2^20 (the fdlibm split). */
#define HS_GM_LN2_HI 6.93147180369123816490e-01
#define HS_GM_LN2_LO 1.90821492927058770002e-10

/* exp x = 2^n exp r, n = round(x / ln 2), |r| <= ln 2 / 2, Taylor series of exp r to r^17/17!. */
double hs_gm_exp(double x)
{
    if (isnan(x)) return x;
    if (x < -745.2) return 0.0;
    if (x > 709.7) return HUGE_VAL;
    const double n = floor(x * 1.44269504088896340736 + 0.5);
    const double r = (x - n * HS_GM_LN2_HI) - n * HS_GM_LN2_LO;
    double p = 1.0;
    for (int k = 17; k >= 1; k--) p = 1.0 + (r / (double)k) * p;
    return ldexp(p, (int)n);
}

typedef enum { HS_ENV_JENNINGS, HS_ENV_TRAPEZOID, HS_ENV_NONE } hs_envelope_kind;

typedef struct synthetic {
    uint64_t seed;
    double pga, duration, dt, omega, zeta;
    hs_envelope_kind envelope;
    double t1, t2, decay;
    size_t npts;
} synthetic;

/* c = a b, 3x3 row-major */
static void mat3_mul(const double *a, const double *b, double *c)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0.0;
            for (int k = 0; k < 3; k++) s += a[3 * i + k] * b[3 * k + j];
            c[3 * i + j] = s;
        }
}

/* e = expm(a): scale to ||a|| <= 1/4, Taylor to the 20th power (Horner), square back. */
static void mat3_expm(const double *a, double *e)
{
    double norm = 0.0;
    for (int i = 0; i < 3; i++) {
        double r = fabs(a[3 * i]) + fabs(a[3 * i + 1]) + fabs(a[3 * i + 2]);
        if (r > norm) norm = r;
    }
    int squarings = 0;
    double factor = 1.0;
    while (norm * factor > 0.25 && squarings < 200) {
        factor *= 0.5;
        squarings++;
    }
    double x[9], p[9], q[9];
    for (int i = 0; i < 9; i++) x[i] = a[i] * factor;
    for (int i = 0; i < 9; i++) p[i] = (i % 4 == 0) ? 1.0 : 0.0;
    for (int k = 20; k >= 1; k--) { /* p = I + x p / k */
        mat3_mul(x, p, q);
        for (int i = 0; i < 9; i++) p[i] = ((i % 4 == 0) ? 1.0 : 0.0) + q[i] / (double)k;
    }
    for (int s = 0; s < squarings; s++) {
        mat3_mul(p, p, q);
        memcpy(p, q, sizeof q);
    }
    memcpy(e, p, sizeof p);
}

/* Exact one-step map of the filter for a piecewise constant input. */
typedef struct kt_filter {
    double p00, p01, p10, p11, g0, g1;
} kt_filter;

static kt_filter kt_filter_make(double omega, double zeta, double dt)
{
    const double a[9] = {0.0, dt,  0.0, -omega * omega * dt, -2.0 * zeta * omega * dt, -dt,
                         0.0, 0.0, 0.0};
    double e[9];
    mat3_expm(a, e);
    return (kt_filter){e[0], e[1], e[3], e[4], e[2], e[5]};
}

static double envelope_at(const synthetic *s, double t)
{
    switch (s->envelope) {
    case HS_ENV_NONE:
        return 1.0;
    case HS_ENV_JENNINGS:
        if (t < s->t1) return (t / s->t1) * (t / s->t1);
        if (t <= s->t2) return 1.0;
        return hs_gm_exp(-s->decay * (t - s->t2));
    case HS_ENV_TRAPEZOID:
        if (t < s->t1) return t / s->t1;
        if (t <= s->t2) return 1.0;
        return t >= s->duration ? 0.0 : (s->duration - t) / (s->duration - s->t2);
    }
    return 1.0;
}

/* Slowest decay rate of the filter's free response (1/s). */
static double kt_slowest_rate(double omega, double zeta)
{
    return zeta < 1.0 ? zeta * omega : omega * (zeta - sqrt(zeta * zeta - 1.0));
}

static int read_options(hs_ctx *ctx, const hs_options *opts, synthetic *s)
{
    const double seed = hs_options_num(opts, "seed", NAN);
    s->pga = hs_options_num(opts, "pga", NAN);
    s->duration = hs_options_num(opts, "duration", NAN);
    s->dt = hs_options_num(opts, "dt", NAN);
    s->omega = hs_options_num(opts, "omega_g", 15.6);
    s->zeta = hs_options_num(opts, "zeta_g", 0.6);
    const char *env = hs_options_str(opts, "envelope", "jennings");
    const char *me = "ground motion synthetic";
    if (!(seed >= 0.0 && seed <= 9007199254740992.0) || floor(seed) != seed)
        return hs_fail(ctx, HS_EINPUT, "%s: seed must be a whole number in [0, 2^53] (got %g)", me,
                       seed);
    s->seed = (uint64_t)seed;
    if (!(s->pga > 0.0) || !isfinite(s->pga))
        return hs_fail(ctx, HS_EINPUT, "%s: pga must be positive (got %g)", me, s->pga);
    if (!(s->dt > 0.0) || !isfinite(s->dt))
        return hs_fail(ctx, HS_EINPUT, "%s: dt must be positive (got %g)", me, s->dt);
    if (!(s->duration >= s->dt) || !(s->duration / s->dt <= HS_GM_MAX_NPTS))
        return hs_fail(
            ctx, HS_EINPUT,
            "%s: duration must be at least dt and at most %g steps (got %g s at dt %g s)", me,
            HS_GM_MAX_NPTS, s->duration, s->dt);
    s->npts = (size_t)floor(s->duration / s->dt + 0.5) + 1;
    if (!(s->omega > 0.0) || !(s->omega * s->dt < HS_GM_PI))
        return hs_fail(ctx, HS_EINPUT,
                       "%s: omega_g must be positive and below the Nyquist frequency pi/dt = %g "
                       "rad/s (got %g)",
                       me, HS_GM_PI / s->dt, s->omega);
    if (!(s->zeta > 0.0 && s->zeta <= 10.0))
        return hs_fail(ctx, HS_EINPUT, "%s: zeta_g must lie in (0, 10] (got %g)", me, s->zeta);
    if (strcmp(env, "jennings") == 0)
        s->envelope = HS_ENV_JENNINGS;
    else if (strcmp(env, "trapezoid") == 0)
        s->envelope = HS_ENV_TRAPEZOID;
    else if (strcmp(env, "none") == 0)
        s->envelope = HS_ENV_NONE;
    else
        return hs_fail(ctx, HS_EINPUT,
                       "%s: unknown envelope '%s' (known: jennings, trapezoid, none)", me, env);
    const double rise = hs_options_num(opts, "rise", 0.1 * s->duration);
    const double strong = hs_options_num(opts, "strong", 0.4 * s->duration);
    if (!(rise >= 0.0) || !(strong >= 0.0) || !(rise + strong <= s->duration))
        return hs_fail(ctx, HS_EINPUT,
                       "%s: need rise >= 0, strong >= 0 and rise + strong <= duration (got %g, "
                       "%g, %g s)",
                       me, rise, strong, s->duration);
    s->t1 = rise;
    s->t2 = rise + strong;
    const double tail = s->duration - s->t2;
    s->decay = hs_options_num(opts, "decay", tail > 0.0 ? HS_GM_LN20 / tail : 1.0);
    if (!(s->decay > 0.0) || !isfinite(s->decay))
        return hs_fail(ctx, HS_EINPUT, "%s: decay must be positive (got %g 1/s)", me, s->decay);
    return 0;
}

int hs_ground_motion_create_synthetic(hs_ctx *ctx, const hs_options *opts, hs_ground_motion **out)
{
    synthetic s = {0};
    int rc = read_options(ctx, opts, &s);
    if (rc) return rc;
    char source[256];
    snprintf(source, sizeof source,
             "synthetic seed=%llu pga=%g duration=%g dt=%g omega_g=%g zeta_g=%g envelope=%s",
             (unsigned long long)s.seed, s.pga, s.duration, s.dt, s.omega, s.zeta,
             hs_options_str(opts, "envelope", "jennings"));
    rc = hs_ground_motion_alloc(ctx, s.npts, s.dt, source, out);
    if (rc) return rc;
    double *acc = (*out)->acc;

    const kt_filter f = kt_filter_make(s.omega, s.zeta, s.dt);
    const double cx = -s.omega * s.omega, cv = -2.0 * s.zeta * s.omega;
    const size_t warmup =
        (size_t)ceil(HS_GM_WARMUP_TAUS / (kt_slowest_rate(s.omega, s.zeta) * s.dt));
    hs_rng rng;
    hs_rng_seed(&rng, s.seed, 0);
    double x = 0.0, v = 0.0;
    for (size_t k = 0; k < warmup + s.npts; k++) {
        if (k >= warmup) {
            const size_t i = k - warmup;
            acc[i] = (cx * x + cv * v) * envelope_at(&s, (double)i * s.dt);
        }
        const double w = hs_rng_normal(&rng);
        const double xn = f.p00 * x + f.p01 * v + f.g0 * w;
        v = f.p10 * x + f.p11 * v + f.g1 * w;
        x = xn;
    }

    /* ag = pga (y / max |y|): |y / max| <= 1 exactly, so max |ag| = pga to the last bit. */
    double peak = 0.0;
    for (size_t i = 0; i < s.npts; i++)
        if (fabs(acc[i]) > peak) peak = fabs(acc[i]);
    if (!(peak > 0.0)) {
        hs_ground_motion_destroy(out);
        return hs_fail(ctx, HS_EINPUT, "ground motion synthetic: the record is zero everywhere");
    }
    for (size_t i = 0; i < s.npts; i++) acc[i] = s.pga * (acc[i] / peak);
    return 0;
}
