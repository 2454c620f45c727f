/* Pre-test actuator dynamics: each actuator in turn steps up by `amplitude`, holds, steps back,
 * holds (`repeats` times) while the others hold zero; the transport delay D (ticks) and the
 * first-order constant a (samples) of the servo model in docs/lab.md are fitted to the whole record
 * by least squares of the measured displacement against the model driven by the commands actually
 * sent. a_es = a + D: the slow-signal lag in samples, which an inverse compensator starts from
 * (docs/compensation.md: Gc Gp = 1/z when a_es = a and D = 0). */
#include "pretest_impl.h"

#include <math.h>
#include <string.h>

#define A_MAX 1000.0

/* Sum of squared misfits of the model (D, r = 1 - 1/a). */
static double misfit(const double *u, const double *y, int64_t n, int D, double r)
{
    double x = 0.0, s = 0.0;
    for (int64_t k = 0; k < n; k++) {
        const double uk = k >= D ? u[k - D] : 0.0;
        x = uk + r * (x - uk); /* x + (u - x) / a */
        s += (y[k] - x) * (y[k] - x);
    }
    return s;
}

int hs_pretest_fit_delay(const double *u, const double *y, int64_t n, int max_delay, int *delay,
                         double *a, double *rms)
{
    const double r_hi = 1.0 - 1.0 / A_MAX;
    const int grid = 64;
    double best = INFINITY;
    for (int D = 0; D <= max_delay; D++) {
        /* a coarse grid in r, then golden-section refinement around its best point */
        int g_best = 0;
        double s_best = INFINITY;
        for (int g = 0; g <= grid; g++) {
            const double s = misfit(u, y, n, D, r_hi * g / grid);
            if (s < s_best) s_best = s, g_best = g;
        }
        double lo = r_hi * fmax(g_best - 1, 0) / grid, hi = r_hi * fmin(g_best + 1, grid) / grid;
        const double phi = 0.5 * (sqrt(5.0) - 1.0);
        double c = hi - phi * (hi - lo), e = lo + phi * (hi - lo);
        double fc = misfit(u, y, n, D, c), fe = misfit(u, y, n, D, e);
        for (int it = 0; it < 60; it++) {
            if (fc < fe) {
                hi = e, e = c, fe = fc;
                c = hi - phi * (hi - lo);
                fc = misfit(u, y, n, D, c);
            } else {
                lo = c, c = e, fc = fe;
                e = lo + phi * (hi - lo);
                fe = misfit(u, y, n, D, e);
            }
        }
        const double r = 0.5 * (lo + hi), s = fmin(s_best, misfit(u, y, n, D, r));
        if (s < best) {
            best = s;
            *delay = D;
            *a = s == s_best ? 1.0 / (1.0 - r_hi * g_best / grid) : 1.0 / (1.0 - r);
        }
    }
    *rms = sqrt(best / (double)n);
    return 0;
}

static int check(hs_ctx *ctx, const hs_pretest_lab *L, const hs_pretest_dynamics_params *p)
{
    if (!(p->amplitude > 0.0 && isfinite(p->amplitude) && p->hold > 0.0 && p->repeats >= 1 &&
          p->max_delay >= 0 && p->max_delay <= 4096))
        return hs_fail(ctx, HS_EINPUT,
                       "pretest dynamics: step %g, hold %g s, %d repeats, max delay %d ticks: the "
                       "step and hold must be > 0, repeats >= 1, the delay 0 to 4096",
                       p->amplitude, p->hold, p->repeats, p->max_delay);
    if (!(p->hold * L->rate >= 4.0 * p->max_delay && p->hold * L->rate >= 32.0))
        return hs_fail(ctx, HS_EINPUT,
                       "pretest dynamics: hold %g s is %g ticks: give at least 32 ticks and 4 "
                       "times the largest delay searched (%d)",
                       p->hold, p->hold * L->rate, p->max_delay);
    for (int j = 0; j < L->nact; j++)
        if (L->stroke[j] > 0.0 && L->rest[j] + p->amplitude > L->stroke[j])
            return hs_fail(ctx, HS_EINPUT,
                           "pretest dynamics: actuator %d: step %g exceeds its stroke %g (up from "
                           "its rest %g)",
                           j + 1, p->amplitude, L->stroke[j], L->rest[j]);
    return 0;
}

int hs_pretest_dynamics_run(hs_ctx *ctx, const hs_pretest_lab *L,
                            const hs_pretest_dynamics_params *p, hs_pretest_dynamics *out)
{
    hs_pretest_drive d;
    int rc = hs_pretest_drive_begin(ctx, L, &d);
    if (!rc) rc = check(ctx, L, p);
    if (rc) return rc;
    const int m = L->nact;
    const int64_t hold = (int64_t)ceil(p->hold * L->rate), n = 2 * hold * p->repeats;
    double *u = hs_dvec((size_t)n), *y = hs_dvec((size_t)n);
    if (!u || !y) rc = hs_fail(ctx, HS_ENOMEM, "pretest dynamics: out of memory");
    memset(out, 0, sizeof *out);
    out->nact = m;
    for (int j = 0; j < m && !rc; j++) {
        double cmd[HS_PRETEST_MAX_ACT] = {0};
        for (int64_t k = 0; k < n && !rc; k++) {
            cmd[j] = (k / hold) % 2 == 0 ? p->amplitude : 0.0;
            rc = hs_pretest_drive_tick(&d, cmd);
            u[k] = d.cmd[j]; /* as sent: the velocity limit may have ramped it */
            y[k] = d.x[j];
        }
        if (!rc) rc = hs_pretest_drive_home(&d, 0.25);
        if (!rc) {
            hs_pretest_fit_delay(u, y, n, p->max_delay, &out->delay[j], &out->a[j],
                                 &out->fit_rms[j]);
            out->a_es[j] = out->a[j] + out->delay[j];
        }
    }
    hs_free(u);
    hs_free(y);
    return rc;
}
