/* Pre-test noise: a zero-command run; per channel (displacement and force of each actuator) the
 * mean, the RMS about it, and the peak of Welch's spectrum (Hann segments of 256 ticks, half
 * overlapping; one-sided density, units^2/Hz, reported as its square root). */
#include "pretest_impl.h"

#include <math.h>
#include <string.h>

#define SEG 256

static const double pi = 3.14159265358979323846;

/* Mean, RMS and spectrum peak of y[0..n) sampled at `rate`. */
static void channel(const double *y, int64_t n, double rate, hs_pretest_channel *c)
{
    double s = 0.0;
    for (int64_t k = 0; k < n; k++) s += y[k];
    c->mean = s / (double)n;
    double q = 0.0;
    for (int64_t k = 0; k < n; k++) q += (y[k] - c->mean) * (y[k] - c->mean);
    c->rms = sqrt(q / (double)n);
    double psd[SEG / 2 + 1] = {0}, w[SEG], wsum = 0.0;
    for (int i = 0; i < SEG; i++) {
        w[i] = 0.5 - 0.5 * cos(2.0 * pi * i / SEG);
        wsum += w[i] * w[i];
    }
    int segs = 0;
    for (int64_t start = 0; start + SEG <= n; start += SEG / 2, segs++)
        for (int b = 1; b <= SEG / 2; b++) { /* a direct DFT: 256 points, a few segments */
            double re = 0.0, im = 0.0;
            for (int i = 0; i < SEG; i++) {
                const double v = w[i] * (y[start + i] - c->mean), ph = 2.0 * pi * b * i / SEG;
                re += v * cos(ph);
                im -= v * sin(ph);
            }
            psd[b] += (b == SEG / 2 ? 1.0 : 2.0) * (re * re + im * im) / (rate * wsum);
        }
    c->peak_freq = 0.0;
    c->peak_amp = 0.0;
    for (int b = 1; b <= SEG / 2 && segs > 0; b++)
        if (psd[b] / segs > c->peak_amp * c->peak_amp) {
            c->peak_amp = sqrt(psd[b] / segs);
            c->peak_freq = b * rate / SEG;
        }
}

int hs_pretest_noise_run(hs_ctx *ctx, const hs_pretest_lab *lab, double duration,
                         hs_pretest_noise *out)
{
    hs_pretest_drive d;
    int rc = hs_pretest_drive_begin(ctx, lab, &d);
    if (rc) return rc;
    const double n_real = ceil(duration * lab->rate);
    if (!(n_real >= SEG && n_real <= 1e8))
        return hs_fail(ctx, HS_EINPUT,
                       "pretest noise: %g s at %g Hz is %g ticks: give at least %d ticks "
                       "(%.3g s) and at most 1e8",
                       duration, lab->rate, n_real, SEG, SEG / lab->rate);
    const int64_t n = (int64_t)n_real;
    const int m = lab->nact;
    double *buf = hs_dvec((size_t)n * 2u * (size_t)m);
    if (!buf)
        return hs_fail(ctx, HS_ENOMEM, "pretest noise: out of memory for %lld ticks", (long long)n);
    const double zero[HS_PRETEST_MAX_ACT] = {0};
    for (int64_t k = 0; k < n && !rc; k++) {
        rc = hs_pretest_drive_tick(&d, zero);
        for (int j = 0; j < m; j++) {
            buf[(size_t)j * (size_t)n + (size_t)k] = d.x[j];
            buf[(size_t)(m + j) * (size_t)n + (size_t)k] = d.f[j];
        }
    }
    if (!rc) {
        memset(out, 0, sizeof *out);
        out->duration = (double)n / lab->rate;
        out->ticks = n;
        for (int j = 0; j < m; j++) {
            channel(buf + (size_t)j * (size_t)n, n, lab->rate, &out->x[j]);
            channel(buf + (size_t)(m + j) * (size_t)n, n, lab->rate, &out->f[j]);
        }
    }
    hs_free(buf);
    return rc;
}
