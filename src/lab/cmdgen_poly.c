/* The command generator's polynomials: the order 1-3 predictor through the last targets
 * (Lagrange form on the nodes 0, -1, -2, -3 of the step parameter; the same polynomial as
 * OpenFresco's predict forms, docs/site_controller.md), the cubic Hermite segment of the restart
 * corrector, and slow's speed profile. */
#include "cmdgen_impl.h"

void hs_cmdgen_predict(int n, int order, const double *hist, double x, double *c, double *dc)
{
    double L[HS_CMDGEN_MAX_ORDER + 1], dL[HS_CMDGEN_MAX_ORDER + 1];
    for (int i = 0; i <= order; i++) {
        const double xi = -(double)i;
        double value = 1.0, slope = 0.0;
        for (int m = 0; m <= order; m++) {
            if (m == i) continue;
            const double xm = -(double)m, w = 1.0 / (xi - xm);
            /* d/dx of prod (x - xm) w: product rule, accumulated */
            slope = slope * (x - xm) * w + value * w;
            value *= (x - xm) * w;
        }
        L[i] = value;
        dL[i] = slope;
    }
    for (int j = 0; j < n; j++) {
        double v = 0.0, d = 0.0;
        for (int i = 0; i <= order; i++) {
            v += L[i] * hist[(size_t)i * (size_t)n + (size_t)j];
            d += dL[i] * hist[(size_t)i * (size_t)n + (size_t)j];
        }
        c[j] = v;
        if (dc) dc[j] = d;
    }
}

double hs_cmdgen_hermite(double c0, double m0, double c1, double m1, double s, double *ds)
{
    const double s2 = s * s, s3 = s2 * s;
    const double h00 = 2.0 * s3 - 3.0 * s2 + 1.0, h10 = s3 - 2.0 * s2 + s;
    const double h01 = -2.0 * s3 + 3.0 * s2, h11 = s3 - s2;
    if (ds)
        *ds = (6.0 * s2 - 6.0 * s) * c0 + (3.0 * s2 - 4.0 * s + 1.0) * m0 +
              (-6.0 * s2 + 6.0 * s) * c1 + (3.0 * s2 - 2.0 * s) * m1;
    if (s == 1.0) return c1; /* the target itself, bit for bit */
    return h00 * c0 + h10 * m0 + h01 * c1 + h11 * m1;
}

/* rho: 1 -> m linearly over [0, B], m on [B, T2 - B], m -> 0 linearly over [T2 - B, T2]. */
void hs_cmdgen_slow_profile(int64_t T2, int64_t B, double m, double tau, double *rho, double *I)
{
    const double b = (double)B, T = (double)T2;
    if (B == 0) {
        *rho = tau < T ? m : 0.0;
        *I = m * tau;
        return;
    }
    if (tau <= b) {
        *rho = 1.0 - (1.0 - m) * tau / b;
        *I = tau - (1.0 - m) * tau * tau / (2.0 * b);
    } else if (tau <= T - b) {
        *rho = m;
        *I = 0.5 * b * (1.0 + m) + m * (tau - b);
    } else {
        const double u = tau - (T - b);
        *rho = m * (1.0 - u / b);
        *I = 0.5 * b * (1.0 + m) + m * (T - 2.0 * b) + m * (u - u * u / (2.0 * b));
    }
}
