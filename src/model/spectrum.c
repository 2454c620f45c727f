/* The response spectrum at one frequency (include/hysim/ground_motion.h): a linear oscillator
 * integrated exactly over each piece of the piecewise-linear record, as the `exact` integrator
 * does per mode (src/integrators/exact.c states the recurrence). Used by `hysim check` for the
 * modal response-spectrum estimate of a test's response. */
#include "hysim/ground_motion.h"

#include <math.h>

/* Free-vibration factors over h: e^(-sigma h), c, S (S = sin(wd h) / wd; cosh, sinh when
 * overdamped; 1 and h when critical). */
static void free_factors(double omega, double zeta, double h, double *ex, double *c, double *S)
{
    const double sigma = zeta * omega, wd2 = omega * omega - sigma * sigma;
    *ex = exp(-sigma * h);
    if (wd2 > 0.0) {
        const double wd = sqrt(wd2);
        *c = cos(wd * h);
        *S = sin(wd * h) / wd;
    } else if (wd2 < 0.0) {
        const double wd = sqrt(-wd2);
        *c = cosh(wd * h);
        *S = sinh(wd * h) / wd;
    } else {
        *c = 1.0;
        *S = h;
    }
}

int hs_ground_motion_sdof_peak(const hs_ground_motion *gm, double omega, double zeta, double t_end,
                               double *sd, double *sv)
{
    if (!gm || !gm->acc || gm->npts == 0 || !(gm->dt > 0.0) || !(omega > 0.0) || !(zeta >= 0.0) ||
        !isfinite(omega) || !isfinite(t_end) || !sd || !sv)
        return HS_EINVAL;
    const double w2 = omega * omega, sigma = zeta * omega;
    const double period = 6.283185307179586 / omega;
    /* sub-steps: a whole number per record interval, each at most period / 20 */
    const int sub = (int)fmin(1e6, ceil(gm->dt / (period / 20.0)));
    const double h = gm->dt / (double)sub;
    double ex, c, S;
    free_factors(omega, zeta, h, &ex, &c, &S);
    double q = 0.0, qd = 0.0, peak_d = 0.0, peak_v = 0.0;
    const double t_stop = fmax(t_end, 0.0);
    const size_t nint = gm->npts > 1 ? gm->npts - 1 : 0;
    for (size_t k = 0; (double)k * gm->dt < t_stop; k++) {
        /* p = -ag, linear over the interval; zero after the record (hs_ground_motion_at) */
        const double a0 = k < nint ? gm->acc[k] : 0.0;
        const double a1 = k < nint ? gm->acc[k + 1] : 0.0;
        const double slope = -(a1 - a0) / (double)sub / h; /* dp/dt */
        for (int j = 0; j < sub; j++) {
            const double p0 = -a0 + slope * h * (double)j;
            /* particular solution q_p(tau) = (p0 + s tau)/w2 - 2 sigma s / w2^2, q_p' = s / w2 */
            const double qp0 = p0 / w2 - 2.0 * sigma * slope / (w2 * w2), qpd = slope / w2;
            const double qh = q - qp0, qhd = qd - qpd;
            const double qh1 = ex * (qh * c + (qhd + sigma * qh) * S);
            const double qhd1 = ex * (qhd * c - (sigma * qhd + w2 * qh) * S);
            q = qh1 + qp0 + slope * h / w2;
            qd = qhd1 + qpd;
            peak_d = fmax(peak_d, fabs(q));
            peak_v = fmax(peak_v, fabs(qd));
        }
    }
    *sd = peak_d;
    *sv = peak_v;
    return 0;
}
