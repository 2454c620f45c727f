/* Helpers shared by the tests. */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef HS_DEFAULT_SOURCE_DIR
#define HS_DEFAULT_SOURCE_DIR "."
#endif

void hs_assert_near(double a, double b, double tol, const char *expr, const char *file, int line)
{
    if (!(fabs(a - b) <= tol)) {
        print_error("%s:%d: %s = %.10g, expected %.10g (tolerance %.3g, off by %.3g)\n", file, line,
                    expr, a, b, tol, fabs(a - b));
        _fail(file, line);
    }
}

const char *hs_test_source_path(const char *rel)
{
    static char buf[4096];
    const char *root = getenv("HS_SOURCE_DIR");
    snprintf(buf, sizeof buf, "%s/%s", root ? root : HS_DEFAULT_SOURCE_DIR, rel);
    return buf;
}

const char *hs_test_shared_path(const char *rel)
{
    static char buf[4096];
    /* HS_SHARED_DATA names the shared data folder itself (as the shell tests use it), for a
     * source tree that is not beside ../shared (a git worktree) */
    const char *data = getenv("HS_SHARED_DATA"), *root = getenv("HS_SOURCE_DIR");
    if (data && strncmp(rel, "data/", 5) == 0)
        snprintf(buf, sizeof buf, "%s/%s", data, rel + 5);
    else
        snprintf(buf, sizeof buf, "%s/../shared/%s", root ? root : HS_DEFAULT_SOURCE_DIR, rel);
    if (access(buf, R_OK) != 0) return NULL;
    return buf;
}

int hs_test_linear_restore(void *user, const double *d, const double *v, double *r, double *Kt,
                           double *Ct)
{
    (void)v;
    const hs_test_linear *m = user;
    const size_t nn = (size_t)m->n * (size_t)m->n;
    hs_matvec(m->n, m->K, d, r);
    if (Kt) memcpy(Kt, m->K, nn * sizeof(double));
    if (Ct) memset(Ct, 0, nn * sizeof(double));
    return 0;
}

int hs_test_commit_nothing(void *user)
{
    (void)user;
    return 0;
}

int hs_test_amplification(const char *type, const hs_options *opts, double omega, double dt,
                          double xi, double A[9])
{
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    double M = 1.0, C = 2.0 * xi * omega, K = omega * omega;
    hs_test_linear s = {1, &K};
    hs_dynamics dyn = {.n = 1,
                       .M = &M,
                       .C = &C,
                       .K0 = &K,
                       .restore = hs_test_linear_restore,
                       .commit = hs_test_commit_nothing,
                       .user = &s,
                       .linear = 1};
    const double zero = 0.0;
    int rc = 0;
    for (int j = 0; j < 3 && !rc; j++) {
        /* Start from unit state j with the other two zero, on a fresh integrator (so that no
         * state of a previous column survives). Setup sees (d, v) of the start, so extra state
         * derived from it (HHT's r(n)) is consistent; the acceleration it computes from
         * equilibrium is then overwritten: the map is what one step does to (d, v, a). */
        double x0[3] = {0, 0, 0};
        x0[j] = 1.0;
        hs_integrator *it = NULL;
        rc = hs_integrator_create(ctx, type, opts, &it);
        if (!rc) rc = hs_integrator_setup(it, &dyn, dt, &x0[0], &x0[1], &zero);
        if (!rc) rc = hs_integrator_set_state(it, &x0[0], &x0[1], &x0[2]);
        double dcmd = 0.0;
        hs_step_io io = {.step = 0, .t = 0.0, .f_n = &zero, .f_n1 = &zero, .d_cmd = &dcmd};
        if (!rc) rc = hs_integrator_step(it, &io);
        if (!rc) {
            A[j * 3 + 0] = hs_integrator_displacement(it)[0];
            A[j * 3 + 1] = hs_integrator_velocity(it)[0];
            A[j * 3 + 2] = hs_integrator_acceleration(it)[0];
        }
        hs_integrator_destroy(&it);
    }
    if (rc) fprintf(stderr, "amplification %s: %s\n", type, hs_ctx_message(ctx));
    hs_ctx_destroy(&ctx);
    return rc;
}

void hs_test_spectral(const double A[9], double omega_dt, double *rho, double *period_error)
{
    double wr[3], wi[3];
    hs_gen_eigvals(NULL, 3, A, wr, wi);
    /* the principal pair: the complex eigenvalue with the largest modulus */
    int best = -1;
    double bestmod = -1.0;
    double r = 0.0;
    for (int i = 0; i < 3; i++) {
        const double mod = hypot(wr[i], wi[i]);
        r = fmax(r, mod);
        if (wi[i] > 0.0 && mod > bestmod) {
            bestmod = mod;
            best = i;
        }
    }
    if (rho) *rho = r;
    if (period_error) {
        if (best < 0)
            *period_error = NAN;
        else {
            const double phase = atan2(wi[best], wr[best]);
            *period_error = omega_dt / phase - 1.0;
        }
    }
}

void hs_test_run_sine(hs_ctx *ctx, hs_model *m, const char *type, double p, double *hist)
{
    double K0 = 0.0;
    hs_dynamics dyn;
    assert_int_equal(hs_model_damping_stiffness_proportional(m, 0, 0.02), 0);
    assert_int_equal(hs_model_dynamics(m, &K0, &dyn), 0);
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, type, NULL, &it), 0);
    const double PI = 3.14159265358979323846, zero = 0.0, dt = 0.01;
    assert_int_equal(hs_integrator_setup(it, &dyn, dt, &zero, &zero, &zero), 0);
    for (int n = 0; n < 400; n++) {
        double f0 = p * sin(2.0 * PI * n * dt), f1 = p * sin(2.0 * PI * (n + 1) * dt), dcmd;
        hs_step_io io = {.step = n, .t = n * dt, .f_n = &f0, .f_n1 = &f1, .d_cmd = &dcmd};
        int rc = hs_integrator_step(it, &io);
        if (rc) fprintf(stderr, "%s step %d: %s\n", type, n, hs_ctx_message(ctx));
        assert_int_equal(rc, 0);
        hist[n] = hs_integrator_displacement(it)[0];
    }
    hs_integrator_destroy(&it);
}

double hs_test_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void hs_test_pause_ms(int ms)
{
    const struct timespec p = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&p, NULL);
}
