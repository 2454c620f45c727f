/* Pre-test initial stiffness: each actuator in turn follows `cycles` sine cycles of the given
 * amplitude and frequency while the others hold zero; column j of K0l is the least-squares slope
 * (with an intercept) of every measured force against actuator j's measured displacement. Its
 * standard error, the scatter of the per-cycle slopes and the residual RMS come with it. */
#include "pretest_impl.h"

#include <math.h>
#include <string.h>

static const double two_pi = 6.28318530717958647692;

typedef struct sums {
    double n, x, xx, y, xy, yy;
} sums;

static void add(sums *s, double x, double y)
{
    s->n += 1.0;
    s->x += x;
    s->xx += x * x;
    s->y += y;
    s->xy += x * y;
    s->yy += y * y;
}

/* slope, its standard error and the residual RMS of y = c + k x */
static double slope(const sums *s, double *se, double *res)
{
    const double sxx = s->xx - s->x * s->x / s->n, sxy = s->xy - s->x * s->y / s->n,
                 syy = s->yy - s->y * s->y / s->n;
    const double k = sxx > 0.0 ? sxy / sxx : 0.0, r = fmax(syy - k * sxy, 0.0);
    if (se) *se = s->n > 2.0 && sxx > 0.0 ? sqrt(r / (s->n - 2.0) / sxx) : 0.0;
    if (res) *res = sqrt(r / s->n);
    return k;
}

static int check(hs_ctx *ctx, const hs_pretest_lab *L, const hs_pretest_stiffness_params *p)
{
    if (!(p->amplitude > 0.0 && p->frequency > 0.0 && p->cycles >= 1 && isfinite(p->amplitude) &&
          isfinite(p->frequency)))
        return hs_fail(ctx, HS_EINPUT,
                       "pretest stiffness: amplitude %g, frequency %g Hz, %d cycles: all must be "
                       "> 0",
                       p->amplitude, p->frequency, p->cycles);
    if (!(p->frequency <= L->rate / 20.0))
        return hs_fail(ctx, HS_EINPUT,
                       "pretest stiffness: %g Hz is above a twentieth of the controller rate "
                       "(%g Hz): use a slower cycle",
                       p->frequency, L->rate);
    for (int j = 0; j < L->nact; j++) {
        if (L->stroke[j] > 0.0 && fabs(L->rest[j]) + p->amplitude > L->stroke[j])
            return hs_fail(ctx, HS_EINPUT,
                           "pretest stiffness: actuator %d: amplitude %g exceeds its stroke %g "
                           "(about its rest %g)",
                           j + 1, p->amplitude, L->stroke[j], L->rest[j]);
        const double v = two_pi * p->frequency * p->amplitude;
        if (L->velocity_max[j] > 0.0 && v > L->velocity_max[j])
            return hs_fail(ctx, HS_EINPUT,
                           "pretest stiffness: actuator %d: the cycles' peak velocity 2 pi f A = "
                           "%g exceeds its velocity limit %g: lower the frequency or amplitude",
                           j + 1, v, L->velocity_max[j]);
        const double a = two_pi * p->frequency * v;
        if (L->acceleration_max[j] > 0.0 && a > L->acceleration_max[j])
            return hs_fail(ctx, HS_EINPUT,
                           "pretest stiffness: actuator %d: the cycles' peak acceleration "
                           "(2 pi f)^2 A = %g exceeds its acceleration limit %g: lower the "
                           "frequency or amplitude",
                           j + 1, a, L->acceleration_max[j]);
    }
    return 0;
}

int hs_pretest_stiffness_run(hs_ctx *ctx, const hs_pretest_lab *L,
                             const hs_pretest_stiffness_params *p, hs_pretest_stiffness *out)
{
    hs_pretest_drive d;
    int rc = hs_pretest_drive_begin(ctx, L, &d);
    if (!rc) rc = check(ctx, L, p);
    if (rc) return rc;
    const int m = L->nact;
    const int64_t per_cycle = (int64_t)llround(L->rate / p->frequency);
    memset(out, 0, sizeof *out);
    out->nact = m;
    for (int j = 0; j < m && !rc; j++) {
        sums total[HS_PRETEST_MAX_ACT], cyc[HS_PRETEST_MAX_ACT];
        double ks[HS_PRETEST_MAX_ACT] = {0}, kk[HS_PRETEST_MAX_ACT] = {0};
        memset(total, 0, sizeof total);
        double cmd[HS_PRETEST_MAX_ACT] = {0};
        for (int c = 0; c < p->cycles && !rc; c++) {
            memset(cyc, 0, sizeof cyc);
            for (int64_t k = 1; k <= per_cycle && !rc; k++) {
                cmd[j] = p->amplitude * sin(two_pi * (double)k / (double)per_cycle);
                rc = hs_pretest_drive_tick(&d, cmd);
                for (int i = 0; i < m; i++) {
                    add(&cyc[i], d.x[j], d.f[i]);
                    add(&total[i], d.x[j], d.f[i]);
                }
            }
            for (int i = 0; i < m; i++) {
                const double k = slope(&cyc[i], NULL, NULL);
                ks[i] += k;
                kk[i] += k * k;
            }
        }
        if (!rc) rc = hs_pretest_drive_home(&d, 0.25);
        for (int i = 0; i < m && !rc; i++) {
            const int at = i * m + j;
            out->K[at] = slope(&total[i], &out->stderr_K[at], &out->residual_rms[at]);
            const double nc = p->cycles, mean = ks[i] / nc;
            out->scatter[at] = nc > 1 ? sqrt(fmax(kk[i] - nc * mean * mean, 0.0) / (nc - 1)) : 0.0;
        }
    }
    return rc;
}
