/* hysim energy balance, accumulated step by step in the relative-displacement formulation:
 *   input   = integral of f . du           (f = -M iota ag, plus applied loads)
 *   kinetic = 1/2 v^T M v
 *   damping = integral of (C v) . du  + the work of rate-dependent materials (dampers)
 *   strain  = sum over springs of integral of F de (per material group: recoverable + hysteretic)
 *             + the experimental strain energy, integral of r_e . du from measured forces
 *   error_rel = |input - kinetic - damping - strain| / max(|input|, kinetic + |damping| + |strain|)
 * Work integrals use the exact quadrature of the cubic Hermite interpolants of each step (so a
 * linear model with an exact integrator balances to round-off); spring work uses the trapezoidal
 * rule on committed force and deformation (exact for linear springs). */
#ifndef HYSIM_ENERGY_H
#define HYSIM_ENERGY_H

#include "hysim/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HS_ENERGY_MAX_GROUPS 32

typedef struct hs_energy {
    double input, kinetic, damping, strain, experimental, error_rel;
    int ngroups;
    double group[HS_ENERGY_MAX_GROUPS]; /* strain energy per material group (numerical springs) */
} hs_energy;

#ifdef __cplusplus
}
#endif
#endif
