/* Step-by-step energy balance (see include/hysim/energy.h for the definitions). */
#ifndef HS_ENERGY_IMPL_H
#define HS_ENERGY_IMPL_H

#include "hysim/energy.h"
#include "hysim/model.h"
#include "hysim/sparse.h"

typedef struct hs_energy_acc {
    int n, nsprings;
    const double *M, *C;   /* lent */
    const hs_csc *Ms, *Cs; /* lent: a large model's (M, C NULL), or NULL */
    hs_energy e;
    double *vg;                  /* velocity at the 5 quadrature points (5 n) */
    double *cv;                  /* C vg (n) */
    double *coef;                /* the step's quintic per DOF: 3 c3, 4 c4, c5 (3 n) */
    int kd_M, kd_C;              /* half-bandwidths of M and C */
    double *spring_e, *spring_f; /* committed deformation and force of each spring at t_n */
    int *spring_group;
    int *spring_rate; /* 1 when the spring's work is damping */
    double *fe_r;     /* the frame model's committed restoring force at t_n (n), or NULL */
} hs_energy_acc;

int hs_energy_acc_init(hs_energy_acc *acc, const hs_model *m, const double *M, const double *C);
/* A large model: kinetic and damping work from M and C in compressed columns (Cs may be NULL:
 * no damping). */
void hs_energy_acc_set_sparse(hs_energy_acc *acc, const hs_csc *Ms, const hs_csc *Cs);
void hs_energy_acc_free(hs_energy_acc *acc);
/* Adds the work of one step from the states at t_n (d0, v0, a0) and t_n+1 (d1, v1, a1), the
 * external forces f0, f1 (linear between), the work the experimental substructures took in the
 * step (from measured forces and displacements), and the springs' committed state at t_n+1. */
void hs_energy_acc_step(hs_energy_acc *acc, const hs_model *m, double h, const double *d0,
                        const double *v0, const double *a0, const double *d1, const double *v1,
                        const double *a1, const double *f0, const double *f1,
                        double experimental_work);

#endif
