/* The experimental substructures on the sparse path of hs_dynamics (docs/architecture.md,
 * "Linear solvers"): their global stiffness Ke = T^T K0l T and mass Me = T^T Ml T in compressed
 * columns, built from the elements' T (nact x n) without any n x n array, and the structure's
 * K0s, Ms made total (numerical + experimental), as the dense K0 and M are. */
#ifndef HYSIM_EXPERIMENT_SPARSE_H
#define HYSIM_EXPERIMENT_SPARSE_H

#include "hysim/integrator.h"
#include "hysim/sparse.h"

#ifdef __cplusplus
extern "C" {
#endif

/* T^T A T (n x n) in compressed columns for T nact x n and A nact x nact, both column-major:
 * entries only where columns p and q of T are both nonzero (a control point's DOFs). */
int hs_csc_congruence(hs_ctx *ctx, int n, int nact, const double *T, const double *A, hs_csc **out);

/* The matrices that hs_dynamics_add_experiment_sparse makes (owned). */
typedef struct hs_experiment_csc {
    hs_csc *Ke, *Me; /* T^T K0l T, T^T Ml T (NULL without Ml) */
    hs_csc *K0, *M;  /* numerical + experimental */
} hs_experiment_csc;

/* Puts the experimental elements (nact actuators stacked, T nact x n, initial stiffness K0l
 * nact x nact, mass Ml nact x nact in actuator coordinates or NULL) on dyn's sparse path:
 * dyn->Kes, dyn->Mes, and dyn->K0s, dyn->Ms repointed to the totals, all owned by mats. C is left
 * as it is (the numerical part's damping, as on the dense path). Nothing happens when dyn has no
 * sparse form (dyn->K0s NULL). */
int hs_dynamics_add_experiment_sparse(hs_ctx *ctx, hs_dynamics *dyn, int nact, const double *T,
                                      const double *K0l, const double *Ml, hs_experiment_csc *mats);
void hs_experiment_csc_free(hs_experiment_csc *mats);

#ifdef __cplusplus
}
#endif
#endif
