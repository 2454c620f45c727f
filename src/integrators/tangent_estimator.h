/* Online estimation of the experimental tangent stiffness in actuator coordinates (Mosqueda &
 * Ahmadizadeh 2008b eq. 5.2-5.9; Mosqueda & Ahmadizadeh 2008a, eq. 7-11). Private to the
 * integrators.
 *
 *   K_l = T_p^T P T_p                              (Mosqueda & Ahmadizadeh 2008b, eq. 5.3, Mosqueda
 * & Ahmadizadeh 2008a, eq. 7) dx_p = T_p dx_l,  dr_p = T_p^-T dr_l           (eq. 5.4, 5.5; for a
 * square invertible T_p eq. 5.6 gives the same dr_p) P_ii = dr_p,i / dx_p,i (eq. 5.7) T_p is given
 * (the intrinsic parameters of the specimen, e.g. story drifts) or, when not, taken as Phi^T, Phi
 * the orthonormal eigenvectors of the previous estimate (Mosqueda & Ahmadizadeh 2008a, eq. 9-11);
 * the "previous entry" of P is then that estimate's eigenvalues.
 *
 * Update rule (Mosqueda & Ahmadizadeh 2008b, eq. 5.9): only when ||dx_l||_inf > delta; delta is
 * given, or the greater of 10 x the displacement-noise RMS and the displacement whose force (with
 * the initial stiffness) is 10 x the force-noise RMS. Each parameter i is then updated only when
 *   |dx_p,i| > delta ||T_p(i,:)||_2       (its own increment is above the noise carried to it)
 *   |dx_p,i| > 1e-6 max(|x_p,i|)          (the increment keeps 10 significant digits)
 *   P_ii >= 1e-3 min(P0)                  (positive: K_l stays symmetric positive-definite)
 * and otherwise keeps its previous value. K_l is symmetrised after each update.
 * All storage is allocated by hs_tangent_create; updates never allocate. */
#ifndef HS_TANGENT_ESTIMATOR_H
#define HS_TANGENT_ESTIMATOR_H

#include "hysim/base.h"

typedef struct hs_tangent_estimator hs_tangent_estimator;

/* K0l: initial stiffness (nact x nact, column-major, symmetric positive-definite). Tp: nact x nact
 * invertible intrinsic transformation, or NULL to diagonalise the previous estimate. Copies both.
 */
int hs_tangent_create(hs_ctx *ctx, int nact, const double *K0l, const double *Tp,
                      hs_tangent_estimator **out);
void hs_tangent_destroy(hs_tangent_estimator **te);

/* delta of Mosqueda & Ahmadizadeh 2008b, eq. 5.9 from the noise RMS per actuator (either may be
 * NULL: unknown). */
double hs_tangent_noise_threshold(int nact, const double *K0l, const double *noise_disp_rms,
                                  const double *noise_force_rms);
void hs_tangent_set_threshold(hs_tangent_estimator *te, double delta);
double hs_tangent_threshold(const hs_tangent_estimator *te);

/* Updates the estimate from two measurements (x0, r0) -> (x1, r1) (nact values each). Returns 1
 * when at least one parameter was updated, 0 when the estimate was kept, or a negative HS_E code.
 */
int hs_tangent_update(hs_tangent_estimator *te, const double *x0, const double *x1,
                      const double *r0, const double *r1);

const double *hs_tangent_matrix(const hs_tangent_estimator *te); /* K_l, nact x nact */
int hs_tangent_nact(const hs_tangent_estimator *te);

/* Checkpoints: K_l and P (nact^2 + nact doubles). */
size_t hs_tangent_state_size(const hs_tangent_estimator *te);
void hs_tangent_state_save(const hs_tangent_estimator *te, double *out);
void hs_tangent_state_load(hs_tangent_estimator *te, const double *in);

#endif
