/* The nine evaluation criteria of the RTHS benchmark (Silva et al. 2020) in the order of its
 * package's F4_evaluation.m: J1 time delay, J2 normalised RMS and J3 peak tracking error, J4 / J5
 * normalised RMS / peak error of floor 1, J6 / J7 normalised RMS error of floors 2 / 3, J8 / J9
 * peak error of floors 2 / 3 (docs/rths_benchmark.md, "Criteria"). */
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

double hs_rths_peak_error(const double *y, const double *yref, size_t n, size_t stride)
{
    double e = 0.0, r = 0.0;
    for (size_t k = 0; k < n; k++) {
        e = fmax(e, fabs(y[k * stride] - yref[k * stride]));
        r = fmax(r, fabs(yref[k * stride]));
    }
    return r > 0.0 ? 100.0 * e / r : NAN;
}

/* std(y - yref) / std(yref) * 100, the standard deviations about the means (MATLAB's std, as
 * the package computes its normalised RMS errors) */
double hs_rths_rms_error(const double *y, const double *yref, size_t n, size_t stride)
{
    if (n < 2) return NAN;
    double me = 0.0, mr = 0.0;
    for (size_t k = 0; k < n; k++) {
        me += y[k * stride] - yref[k * stride];
        mr += yref[k * stride];
    }
    me /= (double)n;
    mr /= (double)n;
    double e = 0.0, r = 0.0;
    for (size_t k = 0; k < n; k++) {
        const double d = y[k * stride] - yref[k * stride] - me, q = yref[k * stride] - mr;
        e += d * d;
        r += q * q;
    }
    return r > 0.0 ? 100.0 * sqrt(e / r) : NAN;
}

void hs_rths_criteria_compute(const double *x_t, const double *x_m, const double *y,
                              const double *yref, size_t n, int nf, double dt,
                              hs_rths_criteria *out)
{
    for (int j = 0; j < 10; j++) out->J[j] = NAN;
    if (x_t && x_m) {
        out->J[1] = hs_rths_delay(x_t, x_m, n, dt, 0.1);
        out->J[2] = hs_rths_rms_error(x_m, x_t, n, 1);
        out->J[3] = hs_rths_peak_error(x_m, x_t, n, 1);
    }
    /* floor i's normalised RMS and peak errors land at these J */
    static const int rms_j[3] = {4, 6, 7}, peak_j[3] = {5, 8, 9};
    if (y && yref)
        for (int i = 0; i < nf && i < 3; i++) {
            out->J[rms_j[i]] = hs_rths_rms_error(y + i, yref + i, n, (size_t)nf);
            out->J[peak_j[i]] = hs_rths_peak_error(y + i, yref + i, n, (size_t)nf);
        }
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
    const int w = snprintf(buf + len, len < size ? size - len : 0, "}");
    if (w > 0) len += (size_t)w;
    return len < size ? 0 : HS_EINVAL;
}
