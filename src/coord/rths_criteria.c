/* The nine evaluation criteria of the RTHS benchmark (Silva et al. 2020) exactly as its package's
 * F4_evaluation_PI.m, lines 11-39, computes and rounds them: J1 time delay, J2 normalised RMS and
 * J3 peak tracking error, J4 / J5 normalised RMS / peak error of the measured displacement against
 * the reference's floor 1, J6 / J7 normalised RMS error of floors 2 / 3, J8 / J9 peak error of
 * floors 2 / 3; and hysim's signed delay beside them (docs/rths_benchmark.md, "Criteria"). */
#include "hysim/rths.h"

#include <math.h>
#include <stdio.h>

/* normalised cross-correlation of x_t(k) and x_m(k + lag) over their overlap: 1 where x_m is x_t
 * shifted by lag (Cauchy-Schwarz), whatever the overlap's length */
static double xcorr(const double *a, const double *b, size_t n, long lag)
{
    double s = 0.0, aa = 0.0, bb = 0.0;
    for (size_t k = 0; k < n; k++) {
        const long j = (long)k + lag;
        if (j < 0 || j >= (long)n) continue;
        s += a[k] * b[j];
        aa += a[k] * a[k];
        bb += b[j] * b[j];
    }
    return aa > 0.0 && bb > 0.0 ? s / sqrt(aa * bb) : 0.0;
}

double hs_rths_delay(const double *x_t, const double *x_m, size_t n, double dt, double max_lag)
{
    if (!x_t || !x_m || n < 3 || !(dt > 0.0)) return NAN;
    long L = (long)floor(max_lag / dt);
    if (L > (long)n - 2) L = (long)n - 2;
    if (L < 1) L = 1;
    long best = 0;
    double cbest = -INFINITY;
    for (long lag = -L; lag <= L; lag++) {
        const double c = xcorr(x_t, x_m, n, lag);
        if (c > cbest) {
            cbest = c;
            best = lag;
        }
    }
    if (!(cbest > 0.0)) return NAN; /* a zero signal, or nothing alike */
    double frac = 0.0;              /* parabola through the peak and its neighbours */
    if (best > -L && best < L) {
        const double cm = xcorr(x_t, x_m, n, best - 1), cp = xcorr(x_t, x_m, n, best + 1);
        const double den = cm - 2.0 * cbest + cp;
        if (den < 0.0) frac = 0.5 * (cm - cp) / den;
    }
    return ((double)best + frac) * dt;
}

/* MATLAB's corr of two columns of m samples: Pearson's correlation coefficient */
static double pearson(const double *a, const double *b, size_t m)
{
    double ma = 0.0, mb = 0.0;
    for (size_t k = 0; k < m; k++) {
        ma += a[k];
        mb += b[k];
    }
    ma /= (double)m;
    mb /= (double)m;
    double s = 0.0, aa = 0.0, bb = 0.0;
    for (size_t k = 0; k < m; k++) {
        s += (a[k] - ma) * (b[k] - mb);
        aa += (a[k] - ma) * (a[k] - ma);
        bb += (b[k] - mb) * (b[k] - mb);
    }
    return aa > 0.0 && bb > 0.0 ? s / sqrt(aa * bb) : NAN;
}

double hs_rths_delay_package(const double *x_t, const double *x_m, size_t n, double dt,
                             int max_samples)
{
    if (!x_t || !x_m || !(dt > 0.0) || max_samples < 1 || n < (size_t)max_samples + 2) return NAN;
    /* F4_evaluation_PI.m:11-22: r1(jj) = corr(X_m(jj:end), x_t(1:end-jj+1)), jj = 1..50; the
     * first largest (MATLAB's max) at I; the delay (I - 1) dt */
    int best = -1;
    double rbest = -INFINITY;
    for (int l = 0; l < max_samples; l++) {
        const double r = pearson(x_m + l, x_t, n - (size_t)l);
        if (r > rbest) {
            rbest = r;
            best = l;
        }
    }
    return best < 0 ? NAN : (double)best * dt;
}

/* MATLAB's round(x * scale) / scale (half away from zero, as C's round) */
static double rounded(double x, double scale)
{
    return isfinite(x) ? round(x * scale) / scale : x;
}

/* max|a - b| / max|b| * 100, a and b with their own strides */
static double peak_error(const double *a, size_t sa, const double *b, size_t sb, size_t n)
{
    double e = 0.0, r = 0.0;
    for (size_t k = 0; k < n; k++) {
        e = fmax(e, fabs(a[k * sa] - b[k * sb]));
        r = fmax(r, fabs(b[k * sb]));
    }
    return r > 0.0 ? 100.0 * e / r : NAN;
}

/* std(a - b) / std(b) * 100, the standard deviations about the means (MATLAB's std, as the
 * package computes its normalised RMS errors) */
static double rms_error(const double *a, size_t sa, const double *b, size_t sb, size_t n)
{
    if (n < 2) return NAN;
    double me = 0.0, mr = 0.0;
    for (size_t k = 0; k < n; k++) {
        me += a[k * sa] - b[k * sb];
        mr += b[k * sb];
    }
    me /= (double)n;
    mr /= (double)n;
    double e = 0.0, r = 0.0;
    for (size_t k = 0; k < n; k++) {
        const double d = a[k * sa] - b[k * sb] - me, q = b[k * sb] - mr;
        e += d * d;
        r += q * q;
    }
    return r > 0.0 ? 100.0 * sqrt(e / r) : NAN;
}

double hs_rths_peak_error(const double *y, const double *yref, size_t n, size_t stride)
{
    return peak_error(y, stride, yref, stride, n);
}

double hs_rths_rms_error(const double *y, const double *yref, size_t n, size_t stride)
{
    return rms_error(y, stride, yref, stride, n);
}

void hs_rths_criteria_compute(const double *x_t, const double *x_m, const double *y,
                              const double *yref, size_t n, int nf, double dt,
                              hs_rths_criteria *out)
{
    for (int j = 0; j < 10; j++) out->J[j] = NAN;
    out->J1_signed = NAN;
    if (x_t && x_m) {
        /* J1 in ms to 0.1 ms (F4_evaluation_PI.m:22), kept in s */
        out->J[1] = rounded(hs_rths_delay_package(x_t, x_m, n, dt, 50), 1e4);
        out->J[2] = rms_error(x_m, 1, x_t, 1, n);
        out->J[3] = peak_error(x_m, 1, x_t, 1, n);
        out->J1_signed = hs_rths_delay(x_t, x_m, n, dt, 0.1);
    }
    const size_t s = (size_t)nf;
    if (y && yref && nf >= 1) {
        /* J4, J5: the measured displacement X_m against the reference's floor 1 (lines 29, 31);
         * the numerical floor 1 when nothing was measured */
        const double *y1 = x_m ? x_m : y;
        const size_t s1 = x_m ? 1 : s;
        out->J[4] = rms_error(y1, s1, yref, s, n);
        out->J[5] = peak_error(y1, s1, yref, s, n);
        /* floors 2 and 3 of the numerical substructure (lines 33-39) */
        static const int rms_j[3] = {0, 6, 7}, peak_j[3] = {0, 8, 9};
        for (int i = 1; i < nf && i < 3; i++) {
            out->J[rms_j[i]] = rms_error(y + i, s, yref + i, s, n);
            out->J[peak_j[i]] = peak_error(y + i, s, yref + i, s, n);
        }
    }
    for (int j = 2; j <= 9; j++) out->J[j] = rounded(out->J[j], 100.0); /* % to 0.01 */
}

int hs_rths_criteria_json(const hs_rths_criteria *c, char *buf, size_t size)
{
    size_t len = 0;
    for (int j = 0; j <= 9; j++) {
        char num[40] = "null"; /* a criterion without its signals */
        if (j && isfinite(c->J[j])) snprintf(num, sizeof num, "%.6g", c->J[j]);
        const int w =
            j == 0 ? snprintf(buf + len, len < size ? size - len : 0, "\"rths_criteria\": {")
            : j == 1
                ? snprintf(buf + len, len < size ? size - len : 0, "\"J1_s\": %s", num)
                : snprintf(buf + len, len < size ? size - len : 0, ", \"J%d_percent\": %s", j, num);
        if (w > 0) len += (size_t)w;
    }
    char num[40] = "null"; /* hysim's own signed delay, beside the package's J1 */
    if (isfinite(c->J1_signed)) snprintf(num, sizeof num, "%.6g", c->J1_signed);
    const int w = snprintf(buf + len, len < size ? size - len : 0, ", \"J1_signed_s\": %s}", num);
    if (w > 0) len += (size_t)w;
    return len < size ? 0 : HS_EINVAL;
}
