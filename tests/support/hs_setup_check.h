/* The checks every experimental setup's geometry passes, at n deterministic pseudo-random poses
 * within +-umax (translations) and +-rmax (rotations): forward-inverse round trips (1e-12), the
 * force resultant against the actuators' force vectors and their moments summed by hand (1e-12),
 * virtual work p . dq = f . dx by central differences (2-D setups, 1e-7) and the inverse force
 * map (1e-12). Prints the worst of each. Shared by test_setup.c, test_setup_presets.c and
 * test_opensees_expsetup.c. */
#ifndef HS_SETUP_CHECK_H
#define HS_SETUP_CHECK_H

#include "hysim/setup.h"

void hs_test_setup_check(const hs_setup_geometry *g, double umax, double rmax, int n);

/* OpenFresco's FourActuators3d strokes x (4) at D = (ux, uy, phix, phiy), lengths L1 .. L4, a1 ..
 * a4, h, turned by phiLocX phi (degrees), from ESFourActuators3d.cpp's transfTrialDisp. */
void hs_test_openfresco_four_actuators(const double L[4], const double a[4], double h, double phi,
                                       const double D[4], double x[4]);

#endif
