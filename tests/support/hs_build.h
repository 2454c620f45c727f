/* Test definitions built in code (no YAML): shear buildings, virtual sites, experimental
 * elements. Every builder asserts its own success; hs_tb_free releases what they made. */
#ifndef HS_BUILD_H
#define HS_BUILD_H

#include "hysim/hysim.h"
#include "hysim/site.h"

/* A definition with n DOFs, lumped masses, the integrator and the record (copied). */
hs_test_def *hs_tb_new(hs_ctx *ctx, int n, const double *mass, const char *integrator,
                       const double *acc, size_t npts, double dt);
/* Story i (0-based) of material `type` with options (lent). */
void hs_tb_story(hs_test_def *def, int story, const char *type, const hs_options *opts);
/* Damping C = a0 M + a1 K for a structure whose whole initial stiffness is K (n x n): Rayleigh
 * at modes i, j (0-based) with ratios zi, zj; i == j gives stiffness-proportional at mode i. */
void hs_tb_damping(hs_test_def *def, const double *K, int i, int j, double zi, double zj);
/* A virtual site; returns its config to adjust (actuator delay, noise...). The specimen options
 * are taken over (freed by hs_tb_free). */
hs_site_config *hs_tb_site(hs_test_def *def, const char *name, int nact, int perfect,
                           const char *specimen_type, hs_options *specimen_opts);
/* An experimental element at site `site` (index) driving its channels 0..nact-1 through T
 * (nact x n, column-major), with initial stiffness K0l (nact x nact) or NULL. */
void hs_tb_element(hs_test_def *def, int site, int nact, const double *T, const double *K0l);
void hs_tb_free(hs_test_def *def);

/* The project's synthetic record (ground motion "synthetic": seed, PGA, duration, dt). */
hs_ground_motion *hs_tb_synthetic(hs_ctx *ctx, double seed, double pga, double duration, double dt);

/* Mosqueda and Ahmadizadeh's (2008b) two-story test (units kN, mm, s): equal floor masses 0.01 and
 * story stiffnesses k1, k2 giving periods T1, T2; 5 % damping in mode 1, mass-proportional; all
 * stiffness experimental: story drifts x1 = d1, x2 = d2 - d1 on two actuators of site "lab"
 * (actuator delay a = 3 samples), linear specimen K = diag(k1, k2) or Bouc-Wen coupons (yield drift
 * 2 mm, 5 % post-yield); the lab perfect or with displacement and force noise. The element's
 * initial stiffness K0l = diag(k1, k2) is def->experimental[0].K0l. */
hs_test_def *hs_tb_mosqueda2008b(hs_ctx *ctx, const hs_ground_motion *gm, const char *integrator,
                                 int perfect, double T1, double T2, int bouc_wen);

/* A smooth broadband record: amp * sin^2 envelope * (sin 9t + 0.6 sin(23t + 1)). malloc'ed. */
double *hs_tb_record(size_t npts, double dt, double amp);

#endif
