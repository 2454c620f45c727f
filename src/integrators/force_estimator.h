/* Experimental force at a displacement that was never imposed (Mosqueda & Ahmadizadeh 2008b,
 * section 4 and Fig. 1; Mosqueda & Ahmadizadeh 2008a "Estimation of Experimental Restoring
 * Forces"). Private to the integrators.
 *
 * Per actuator, second-order polynomials are fitted by least squares to the last four measured
 * samples of displacement and force against time:
 *   x(tau) = cx0 + cx1 tau + cx2 tau^2,   f(tau) = cf0 + cf1 tau + cf2 tau^2,
 *   tau = (t - t_last) / (t_last - t_first)   (normalised: tau in [-1, 0] over the samples).
 * A trial displacement x* is inverted to the real root tau* of x(tau) = x* nearest the last sample
 * (tau = 0), and the force is f(tau*). The estimate is refused when there is no real root, or
 * when t* falls outside [t_first - h, t_last + h] with h the allowed extrapolation (seconds).
 * All storage is allocated by hs_force_estimator_create; fits and estimates never allocate. */
#ifndef HS_FORCE_ESTIMATOR_H
#define HS_FORCE_ESTIMATOR_H

#include "hysim/base.h"

#define HS_FE_SAMPLES                                                                              \
    4 /* samples per fit (Mosqueda & Ahmadizadeh 2008a: "the last four points")                    \
       */

typedef struct hs_force_estimator hs_force_estimator;

/* nact actuators; max_extrapolation h >= 0 in seconds. */
int hs_force_estimator_create(hs_ctx *ctx, int nact, double max_extrapolation,
                              hs_force_estimator **out);
void hs_force_estimator_destroy(hs_force_estimator **fe);

/* Fits the last min(nhist, 4) samples (oldest first; t[k], x[k * nact + j], f[k * nact + j]).
 * Returns 0, or 1 when no fit is possible (fewer than 3 samples, or times not increasing). */
int hs_force_estimator_fit(hs_force_estimator *fe, int nhist, const double *t, const double *x,
                           const double *f);

/* Forces f (nact) at the trial displacements x (nact), and when t_est is not NULL the times
 * found. Returns 0, or 1 when refused (no fit, no real root, or a time out of limits); then
 * *which (when not NULL) is the first actuator refused (0-based). */
int hs_force_estimator_estimate(const hs_force_estimator *fe, const double *x, double *f,
                                double *t_est, int *which);

#endif
