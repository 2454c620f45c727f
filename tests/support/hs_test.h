/* Helpers shared by the tests. Include after <cmocka.h>'s prerequisites. */
#ifndef HS_TEST_H
#define HS_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hysim/hysim.h"

/* assert |a - b| <= tol, printing both numbers on failure */
#define HS_ASSERT_NEAR(a, b, tol) hs_assert_near((a), (b), (tol), #a, __FILE__, __LINE__)
void hs_assert_near(double a, double b, double tol, const char *expr, const char *file, int line);

/* Path of a file in ../shared (next to the project), or NULL when ../shared is absent.
 * `rel` like "data/records/ELC270.txt". The returned string is static. */
const char *hs_test_shared_path(const char *rel);
/* Path relative to the source tree (HS_SOURCE_DIR or the compile-time default). Static. */
const char *hs_test_source_path(const char *rel);

/* The monotonic clock in seconds, and a pause of ms milliseconds (real time: for the tests that
 * talk to real sockets and processes, with loose bounds). */
double hs_test_now_s(void);
void hs_test_pause_ms(int ms);

/* A linear restoring force for hs_dynamics: r = K d with K n x n (column-major, lent), tangent
 * K, no damping tangent; .restore = hs_test_linear_restore, .commit = hs_test_commit_nothing,
 * .user = a hs_test_linear. */
typedef struct hs_test_linear {
    int n;
    const double *K;
} hs_test_linear;
int hs_test_linear_restore(void *user, const double *d, const double *v, double *r, double *Kt,
                           double *Ct);
/* A commit that has nothing to keep (path-independent models). */
int hs_test_commit_nothing(void *user);

/* Runs integrator `type` for 400 steps of dt = 0.01 s under a load p sin(2 pi t) on DOF 0 of
 * model m, after giving m 2 % stiffness-proportional damping on mode 1; hist[0 .. 400) receives
 * DOF 0's displacement after each step. Failures end the test (the context's message printed). */
void hs_test_run_sine(hs_ctx *ctx, hs_model *m, const char *type, double p, double *hist);

/* One-step amplification of an integrator on the undamped linear SDOF m = 1, k = omega^2 with
 * no load: runs one step from unit initial conditions and returns the 3x3 map of (d, v, a)
 * (column-major, A[j*3+i]). `dt` is the step. */
int hs_test_amplification(const char *type, const hs_options *opts, double omega, double dt,
                          double xi, double A[9]);
/* Spectral radius and relative period error (T_numerical / T - 1) from the amplification
 * matrix at omega dt: taken from the principal complex-conjugate pair. */
void hs_test_spectral(const double A[9], double omega_dt, double *rho, double *period_error);

#endif
