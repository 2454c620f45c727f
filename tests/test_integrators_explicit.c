/* alpha_os, cr, kr_alpha, ghaboussi_pc: linear properties from closed forms and from independent
 * few-line implementations of the reference methods written here (average-acceleration Newmark,
 * the generalised-alpha / HHT amplification map, Hashash et al. 2004, eq. 7-11), the Chopra SDOF
 * case, no allocation in steps, and the hybrid split (experimental force measured at the command).
 */
#include "hs_test.h"

#include <math.h>
#include <string.h>

#define HS_PI 3.14159265358979323846

static hs_options *opt1(const char *key, double value)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    if (key) hs_options_set_num(o, key, value);
    return o;
}

/* ---- spectral properties from the one-step amplification matrix ---- */

/* Spectral radius and period error of `type` at omega dt = W (undamped SDOF, omega = 1). */
static void spectral(const char *type, const char *key, double value, double W, double *rho,
                     double *pe)
{
    hs_options *o = opt1(key, value);
    double A[9];
    assert_int_equal(hs_test_amplification(type, o, 1.0, W, 0.0, A), 0);
    hs_test_spectral(A, W, rho, pe);
    hs_options_destroy(&o);
}

/* The generalised-alpha method in Chung and Hulbert's convention, written from its definition:
 *   (1 - am) a1 + am a0 + W^2 [(1 - af) d1 + af d0] = 0,
 *   d1 = d0 + v0 + (1/2 - beta) a0 + beta a1,  v1 = v0 + (1 - gamma) a0 + gamma a1   (dt = 1)
 * gamma = 1/2 - am + af, beta = (1 - am + af)^2 / 4. HHT-alpha is am = 0, af = -alpha. */
static void genalpha_spectral(double am, double af, double W, double *rho, double *pe)
{
    const double gamma = 0.5 - am + af, beta = 0.25 * (1.0 - am + af) * (1.0 - am + af);
    double A[9];
    for (int j = 0; j < 3; j++) {
        double x[3] = {0, 0, 0};
        x[j] = 1.0;
        const double dp = x[0] + x[1] + (0.5 - beta) * x[2];
        const double a1 = -(am * x[2] + W * W * ((1.0 - af) * dp + af * x[0])) /
                          ((1.0 - am) + W * W * (1.0 - af) * beta);
        A[j * 3 + 0] = dp + beta * a1;
        A[j * 3 + 1] = x[1] + (1.0 - gamma) * x[2] + gamma * a1;
        A[j * 3 + 2] = a1;
    }
    hs_test_spectral(A, W, rho, pe);
}

/* Average-acceleration Newmark: eigenvalues (1 - W^2/4 +- i W) / (1 + W^2/4), modulus 1, phase
 * 2 atan(W/2), so the period error is W / (2 atan(W/2)) - 1. */
static double avg_accel_period_error(double W)
{
    return W / (2.0 * atan(0.5 * W)) - 1.0;
}

static void test_cr_spectral(void **state)
{
    (void)state;
    const double Ws[] = {0.1, 1.0, HS_PI, 10.0, 100.0};
    for (size_t k = 0; k < sizeof Ws / sizeof Ws[0]; k++) {
        double rho, pe;
        spectral("cr", NULL, 0.0, Ws[k], &rho, &pe);
        HS_ASSERT_NEAR(rho, 1.0, 1e-10); /* no numerical damping at any omega dt */
        HS_ASSERT_NEAR(pe, avg_accel_period_error(Ws[k]), 1e-9);
    }
    double rho, pe;
    spectral("cr", NULL, 0.0, 1.0, &rho, &pe);
    HS_ASSERT_NEAR(pe, 0.0784, 1e-4);
}

static void test_kr_alpha_spectral(void **state)
{
    (void)state;
    double rho, pe, rho_ref, pe_ref;
    /* rho_inf = 1 is CR: spectral radius 1 and the average-acceleration period */
    const double Ws[] = {0.5, 1.0, HS_PI, 10.0};
    for (size_t k = 0; k < sizeof Ws / sizeof Ws[0]; k++) {
        spectral("kr_alpha", "rho_inf", 1.0, Ws[k], &rho, &pe);
        HS_ASSERT_NEAR(rho, 1.0, 1e-10);
        HS_ASSERT_NEAR(pe, avg_accel_period_error(Ws[k]), 1e-9);
    }
    /* rho_inf = 0.5: the figures */
    spectral("kr_alpha", "rho_inf", 0.5, 1.0, &rho, &pe);
    HS_ASSERT_NEAR(rho, 0.98931, 1e-4);
    spectral("kr_alpha", "rho_inf", 0.5, HS_PI, &rho, &pe);
    HS_ASSERT_NEAR(rho, 0.86823, 1e-4);
    /* and the generalised-alpha method with the same rho_inf, at every omega dt (Kolay and
     * Ricles built KR-alpha to share its characteristic equation) */
    const double rhos[] = {0.0, 0.5, 0.8};
    for (size_t i = 0; i < sizeof rhos / sizeof rhos[0]; i++) {
        const double r = rhos[i], am = (2.0 * r - 1.0) / (r + 1.0), af = r / (r + 1.0);
        for (size_t k = 0; k < sizeof Ws / sizeof Ws[0]; k++) {
            spectral("kr_alpha", "rho_inf", r, Ws[k], &rho, &pe);
            genalpha_spectral(am, af, Ws[k], &rho_ref, &pe_ref);
            HS_ASSERT_NEAR(rho, rho_ref, 1e-9);
            if (!isnan(pe_ref)) HS_ASSERT_NEAR(pe, pe_ref, 1e-9);
        }
        /* spectral radius -> rho_inf as omega dt -> infinity */
        spectral("kr_alpha", "rho_inf", r, 1e6, &rho, &pe);
        HS_ASSERT_NEAR(rho, r, 1e-3);
    }
}

static void test_alpha_os_spectral(void **state)
{
    (void)state;
    double rho, pe, rho_ref, pe_ref;
    spectral("alpha_os", "alpha", -1.0 / 3.0, 1.0, &rho, &pe);
    HS_ASSERT_NEAR(rho, 0.98931, 1e-4);
    HS_ASSERT_NEAR(pe, 0.1105, 1e-4);
    spectral("alpha_os", "alpha", -1.0 / 3.0, HS_PI, &rho, &pe);
    HS_ASSERT_NEAR(rho, 0.86823, 1e-4);
    spectral("alpha_os", "alpha", -0.1, 1.0, &rho, &pe);
    HS_ASSERT_NEAR(rho, 0.99385, 1e-4);
    spectral("alpha_os", "alpha", -0.1, HS_PI, &rho, &pe);
    HS_ASSERT_NEAR(rho, 0.92140, 1e-4);
    /* with K_I the true stiffness alpha-OS is HHT-alpha (am = 0, af = -alpha) */
    const double alphas[] = {-1.0 / 3.0, -0.2, -0.05, 0.0};
    const double Ws[] = {0.5, 1.0, HS_PI, 10.0, 1000.0};
    for (size_t i = 0; i < sizeof alphas / sizeof alphas[0]; i++)
        for (size_t k = 0; k < sizeof Ws / sizeof Ws[0]; k++) {
            spectral("alpha_os", "alpha", alphas[i], Ws[k], &rho, &pe);
            genalpha_spectral(0.0, -alphas[i], Ws[k], &rho_ref, &pe_ref);
            HS_ASSERT_NEAR(rho, rho_ref, 1e-9);
            HS_ASSERT_NEAR(pe, pe_ref, 1e-9);
        }
    /* and HHT's limit (1 + alpha) / (1 - alpha) as omega dt -> infinity */
    spectral("alpha_os", "alpha", -1.0 / 3.0, 1e6, &rho, &pe);
    HS_ASSERT_NEAR(rho, 0.5, 1e-3);
}

static void test_ghaboussi_spectral_numerical(void **state)
{
    (void)state;
    /* all numerical and linear: K^L is the whole stiffness, average-acceleration Newmark */
    const double Ws[] = {0.5, 1.0, HS_PI, 100.0};
    for (size_t k = 0; k < sizeof Ws / sizeof Ws[0]; k++) {
        double rho, pe;
        spectral("ghaboussi_pc", NULL, 0.0, Ws[k], &rho, &pe);
        HS_ASSERT_NEAR(rho, 1.0, 1e-10);
        HS_ASSERT_NEAR(pe, avg_accel_period_error(Ws[k]), 1e-9);
    }
}

/* Amplification of one step on an undamped SDOF (m = 1) whose stiffness is split into a
 * numerical part kL and an experimental part kE; the test plays the lab: r_exp = kE d_cmd. */
static void amplification_split(const char *type, double kL, double kE, double dt, double A[9])
{
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    const double M = 1.0, C = 0.0, K0 = kL + kE;
    hs_test_linear model = {1, &kL};
    hs_dynamics dyn = {.n = 1,
                       .M = &M,
                       .C = &C,
                       .K0 = &K0,
                       .Ke = &kE,
                       .restore = hs_test_linear_restore,
                       .commit = hs_test_commit_nothing,
                       .user = &model,
                       .linear = 1};
    const double zero = 0.0;
    for (int j = 0; j < 3; j++) {
        double x0[3] = {0, 0, 0};
        x0[j] = 1.0;
        hs_integrator *it = NULL;
        assert_int_equal(hs_integrator_create(ctx, type, NULL, &it), 0);
        assert_int_equal(hs_integrator_setup(it, &dyn, dt, &x0[0], &x0[1], &zero), 0);
        assert_int_equal(hs_integrator_set_state(it, &x0[0], &x0[1], &x0[2]), 0);
        double dcmd = 0.0, rexp = 0.0;
        hs_step_io io = {.step = 0, .t = 0.0, .f_n = &zero, .f_n1 = &zero, .d_cmd = &dcmd};
        assert_int_equal(hs_integrator_predict(it, &io), 0);
        rexp = kE * dcmd;
        io.r_exp = &rexp;
        assert_int_equal(hs_integrator_correct(it, &io), 0);
        A[j * 3 + 0] = hs_integrator_displacement(it)[0];
        A[j * 3 + 1] = hs_integrator_velocity(it)[0];
        A[j * 3 + 2] = hs_integrator_acceleration(it)[0];
        hs_integrator_destroy(&it);
    }
    hs_ctx_destroy(&ctx);
}

static void test_ghaboussi_stability_limit(void **state)
{
    (void)state;
    /* Hashash et al. 2004, Table 1: conditionally stable, Omega_crit = 2 sqrt(1 / (1 - chi)), chi =
     * kL / kT; no amplitude change below it, and less period distortion than Newmark */
    const double chis[] = {0.0, 0.5, 0.8};
    const double dt = 0.01;
    for (size_t i = 0; i < sizeof chis / sizeof chis[0]; i++) {
        const double chi = chis[i], Wc = 2.0 * sqrt(1.0 / (1.0 - chi));
        double A[9], rho, pe;
        for (int side = 0; side < 2; side++) {
            const double W = (side ? 1.01 : 0.99) * Wc, kT = W * W / (dt * dt);
            amplification_split("ghaboussi_pc", chi * kT, (1.0 - chi) * kT, dt, A);
            hs_test_spectral(A, W, &rho, &pe);
            if (side)
                assert_true(rho > 1.05);
            else
                HS_ASSERT_NEAR(rho, 1.0, 1e-9);
        }
        const double kT = 1.0 / (dt * dt); /* omega dt = 1 */
        amplification_split("ghaboussi_pc", chi * kT, (1.0 - chi) * kT, dt, A);
        hs_test_spectral(A, 1.0, &rho, &pe);
        HS_ASSERT_NEAR(rho, 1.0, 1e-10);
        assert_true(fabs(pe) < avg_accel_period_error(1.0));
    }
}

/* ---- time histories ---- */

/* A 2-DOF shear building (m1 = 2, m2 = 1, k1 = 800, k2 = 500), Rayleigh damping, ground motion */
#define NDOF 2
static const double Mb[4] = {2.0, 0.0, 0.0, 1.0};
static const double Kb[4] = {1300.0, -500.0, -500.0, 500.0};
static const double K1[4] = {800.0, 0.0, 0.0, 0.0};         /* story 1: the numerical part */
static const double K2[4] = {500.0, -500.0, -500.0, 500.0}; /* story 2: the experimental part */
static double Cb[4];
static void build_damping(void)
{
    for (int k = 0; k < 4; k++) Cb[k] = 0.4 * Mb[k] + 0.002 * Kb[k];
}

static double ground(double t)
{
    return 3.0 * sin(2.0 * HS_PI * 1.7 * t) * exp(-0.3 * t) +
           1.2 * sin(2.0 * HS_PI * 4.1 * t + 0.3);
}

/* f(t) = -M 1 ag(t) */
static void ground_force(double t, double f[NDOF])
{
    const double ag = ground(t);
    f[0] = -Mb[0] * ag;
    f[1] = -Mb[3] * ag;
}

static void solve2(const double A[4], const double b[2], double x[2])
{
    const double det = A[0] * A[3] - A[2] * A[1];
    x[0] = (b[0] * A[3] - A[2] * b[1]) / det;
    x[1] = (A[0] * b[1] - A[1] * b[0]) / det;
}

static void mv2(const double A[4], const double x[2], double y[2])
{
    y[0] = A[0] * x[0] + A[2] * x[1];
    y[1] = A[1] * x[0] + A[3] * x[1];
}

/* Average-acceleration Newmark written out: (M + dt/2 C + dt^2/4 K) a1
 * = f1 - C (v + dt/2 a) - K (d + dt v + dt^2/4 a); d, v, a (steps+1 rows of n). */
static void newmark_reference(int n, const double *M, const double *C, const double *K,
                              const double *f, double dt, int steps, double *d, double *v,
                              double *a)
{
    double A[4], rhs[2], t1[2], t2[2];
    for (int k = 0; k < n * n; k++) A[k] = M[k] + 0.5 * dt * C[k] + 0.25 * dt * dt * K[k];
    /* a0 from equilibrium */
    if (n == 1) {
        a[0] = (f[0] - C[0] * v[0] - K[0] * d[0]) / M[0];
    } else {
        mv2(C, v, t1);
        mv2(K, d, t2);
        rhs[0] = f[0] - t1[0] - t2[0];
        rhs[1] = f[1] - t1[1] - t2[1];
        solve2(M, rhs, a);
    }
    for (int s = 0; s < steps; s++) {
        const double *d0 = d + s * n, *v0 = v + s * n, *a0 = a + s * n;
        double dp[2], vp[2];
        for (int i = 0; i < n; i++) {
            dp[i] = d0[i] + dt * v0[i] + 0.25 * dt * dt * a0[i];
            vp[i] = v0[i] + 0.5 * dt * a0[i];
        }
        double *d1 = d + (s + 1) * n, *v1 = v + (s + 1) * n, *a1 = a + (s + 1) * n;
        if (n == 1) {
            a1[0] = (f[s + 1] - C[0] * vp[0] - K[0] * dp[0]) / A[0];
        } else {
            mv2(C, vp, t1);
            mv2(K, dp, t2);
            for (int i = 0; i < 2; i++) rhs[i] = f[(s + 1) * n + i] - t1[i] - t2[i];
            solve2(A, rhs, a1);
        }
        for (int i = 0; i < n; i++) {
            d1[i] = dp[i] + 0.25 * dt * dt * a1[i];
            v1[i] = vp[i] + 0.5 * dt * a1[i];
        }
    }
}

/* Runs `type` on a linear model: numerical stiffness Kn, experimental Ke (NULL: none; else the
 * test plays the lab, r_exp = Ke d_cmd); loads f (steps+1 rows); records d, v, a (steps+1). */
static void run_linear(const char *type, const hs_options *o, int n, const double *M,
                       const double *C, const double *Kn, const double *Ke, const double *f,
                       double dt, int steps, const double *d0, const double *v0, double *d,
                       double *v, double *a)
{
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    double K0[4], rexp[2], dcmd[2];
    for (int k = 0; k < n * n; k++) K0[k] = Kn[k] + (Ke ? Ke[k] : 0.0);
    hs_test_linear model = {n, Kn};
    hs_dynamics dyn = {.n = n,
                       .M = M,
                       .C = C,
                       .K0 = K0,
                       .Ke = Ke,
                       .restore = hs_test_linear_restore,
                       .commit = hs_test_commit_nothing,
                       .user = &model,
                       .linear = 1};
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, type, o, &it), 0);
    assert_int_equal(hs_integrator_setup(it, &dyn, dt, d0, v0, f), 0);
    const size_t nb = (size_t)n * sizeof(double);
    memcpy(d, hs_integrator_displacement(it), nb);
    memcpy(v, hs_integrator_velocity(it), nb);
    memcpy(a, hs_integrator_acceleration(it), nb);
    for (int s = 0; s < steps; s++) {
        hs_step_io io = {
            .step = s, .t = s * dt, .f_n = f + s * n, .f_n1 = f + (s + 1) * n, .d_cmd = dcmd};
        int rc = hs_integrator_predict(it, &io);
        if (!rc && Ke) {
            for (int i = 0; i < n; i++) {
                rexp[i] = 0.0;
                for (int j = 0; j < n; j++) rexp[i] += Ke[j * n + i] * dcmd[j];
            }
            io.r_exp = rexp;
        }
        if (!rc) rc = hs_integrator_correct(it, &io);
        if (rc) print_error("%s step %d: %s\n", type, s, hs_ctx_message(ctx));
        assert_int_equal(rc, 0);
        memcpy(d + (s + 1) * n, hs_integrator_displacement(it), nb);
        memcpy(v + (s + 1) * n, hs_integrator_velocity(it), nb);
        memcpy(a + (s + 1) * n, hs_integrator_acceleration(it), nb);
    }
    hs_integrator_destroy(&it);
    hs_ctx_destroy(&ctx);
}

static double max_abs(const double *x, int count)
{
    double m = 0.0;
    for (int i = 0; i < count; i++) m = fmax(m, fabs(x[i]));
    return m;
}

static double max_diff(const double *x, const double *y, int count)
{
    double m = 0.0;
    for (int i = 0; i < count; i++) m = fmax(m, fabs(x[i] - y[i]));
    return m;
}

#define STEPS 400

/* CR's displacements obey average-acceleration Newmark's two-step recurrence
 *   (M + dt/2 C + dt^2/4 K) d(n+1) - (2M - dt^2/2 K) d(n) + (M - dt/2 C + dt^2/4 K) d(n-1) = dt^2
 * g(n) with g(n) = f(n) where Newmark has (f(n+1) + 2 f(n) + f(n-1))/4, and v(n) = (d(n) -
 * d(n-1))/dt. So CR driven by the (1, 2, 1)/4 average of the load and started from Newmark's first
 * step reproduces Newmark to round-off; KR-alpha with rho_inf = 1 does the same. */
static void test_cr_equals_newmark_mdof(void **state)
{
    (void)state;
    build_damping();
    const double dt = 0.01;
    static double f[(STEPS + 3) * NDOF], g[(STEPS + 1) * NDOF];
    static double dN[(STEPS + 2) * NDOF], vN[(STEPS + 2) * NDOF], aN[(STEPS + 2) * NDOF];
    static double d[(STEPS + 1) * NDOF], v[(STEPS + 1) * NDOF], a[(STEPS + 1) * NDOF];
    for (int s = 0; s <= STEPS + 2; s++) ground_force(s * dt, f + s * NDOF);
    memset(dN, 0, sizeof dN);
    memset(vN, 0, sizeof vN);
    newmark_reference(NDOF, Mb, Cb, Kb, f, dt, STEPS + 1, dN, vN, aN);
    /* the CR run starts at Newmark's step 1: g(k) belongs to time step k + 1 */
    for (int k = 0; k <= STEPS; k++)
        for (int i = 0; i < NDOF; i++)
            g[k * NDOF + i] =
                0.25 * (f[(k + 2) * NDOF + i] + 2.0 * f[(k + 1) * NDOF + i] + f[k * NDOF + i]);
    double v1[NDOF];
    for (int i = 0; i < NDOF; i++) v1[i] = (dN[NDOF + i] - dN[i]) / dt;
    const double scale = max_abs(dN, (STEPS + 2) * NDOF);
    assert_true(scale > 1e-3);
    const char *types[] = {"cr", "kr_alpha"};
    for (int t = 0; t < 2; t++) {
        hs_options *o = opt1(t ? "rho_inf" : NULL, 1.0);
        run_linear(types[t], o, NDOF, Mb, Cb, Kb, NULL, g, dt, STEPS, dN + NDOF, v1, d, v, a);
        const double err = max_diff(d, dN + NDOF, (STEPS + 1) * NDOF);
        if (err > 1e-10 * scale) print_error("%s: max |d - d_newmark| = %g\n", types[t], err);
        assert_true(err <= 1e-10 * scale);
        hs_options_destroy(&o);
    }
}

/* KR-alpha with rho_inf = 1 is CR for a linear structure, under the same load */
static void test_kr_alpha_one_is_cr(void **state)
{
    (void)state;
    build_damping();
    const double dt = 0.01;
    static double f[(STEPS + 1) * NDOF];
    static double d1[(STEPS + 1) * NDOF], v1[(STEPS + 1) * NDOF], a1[(STEPS + 1) * NDOF];
    static double d2[(STEPS + 1) * NDOF], v2[(STEPS + 1) * NDOF], a2[(STEPS + 1) * NDOF];
    for (int s = 0; s <= STEPS; s++) ground_force(s * dt, f + s * NDOF);
    const double zero[NDOF] = {0, 0};
    run_linear("cr", NULL, NDOF, Mb, Cb, Kb, NULL, f, dt, STEPS, zero, zero, d1, v1, a1);
    hs_options *o = opt1("rho_inf", 1.0);
    run_linear("kr_alpha", o, NDOF, Mb, Cb, Kb, NULL, f, dt, STEPS, zero, zero, d2, v2, a2);
    hs_options_destroy(&o);
    const int cnt = (STEPS + 1) * NDOF;
    assert_true(max_diff(d1, d2, cnt) <= 1e-10 * max_abs(d1, cnt));
    assert_true(max_diff(v1, v2, cnt) <= 1e-10 * max_abs(v1, cnt));
    assert_true(max_diff(a1, a2, cnt) <= 1e-10 * max_abs(a1, cnt));
}

/* Chopra, Dynamics of Structures, Example 5.4: m = 0.2533, k = 10, zeta = 5 %,
 * p(t) = 10 sin(pi t / 0.6) for t <= 0.6, dt = 0.1; average acceleration */
static const double chopra_u[10] = {0.043667, 0.232619, 0.612071, 1.082543,  1.430954,
                                    1.423078, 0.962175, 0.190776, -0.604380, -1.144195};

static double chopra_p(double t)
{
    return t <= 0.6 + 1e-9 ? 10.0 * sin(HS_PI * t / 0.6) : 0.0;
}

static void test_chopra_sdof(void **state)
{
    (void)state;
    const double m = 0.2533, k = 10.0, c = 2.0 * 0.05 * sqrt(k * m), dt = 0.1;
    double f[13], g[11], dN[12], vN[12], aN[12], d[11], v[11], a[11];
    for (int s = 0; s < 13; s++) f[s] = chopra_p(s * dt);
    dN[0] = vN[0] = 0.0;
    newmark_reference(1, &m, &c, &k, f, dt, 11, dN, vN, aN);
    for (int s = 0; s < 10; s++) HS_ASSERT_NEAR(dN[s + 1], chopra_u[s], 1e-5);
    /* CR and KR-alpha(1) with the (1, 2, 1)/4 load from Newmark's step 1 (t = 0.1) */
    for (int s = 0; s <= 10; s++) g[s] = 0.25 * (f[s + 2] + 2.0 * f[s + 1] + f[s]);
    const double v1 = (dN[1] - dN[0]) / dt;
    const char *types[] = {"cr", "kr_alpha"};
    for (int t = 0; t < 2; t++) {
        hs_options *o = opt1(t ? "rho_inf" : NULL, 1.0);
        run_linear(types[t], o, 1, &m, &c, &k, NULL, g, dt, 9, &dN[1], &v1, d, v, a);
        for (int s = 1; s <= 9; s++) HS_ASSERT_NEAR(d[s], chopra_u[s], 1e-5);
        hs_options_destroy(&o);
    }
}

/* Ghaboussi's P-C on the split 2-DOF written from Hashash et al. 2004, eq. 7-11 with K^L = K1
 * (numerical) and K^NL d~b the measured force K2 d~: (M + dt/2 C + dt^2/4 K1) a1 = f1 - C (v + dt/2
 * a)
 * - K1 (d + dt v + dt^2/4 a) - K2 d~. */
static void test_ghaboussi_split_reference(void **state)
{
    (void)state;
    build_damping();
    const double dt = 0.01;
    static double f[(STEPS + 1) * NDOF];
    static double d[(STEPS + 1) * NDOF], v[(STEPS + 1) * NDOF], a[(STEPS + 1) * NDOF];
    static double dr[(STEPS + 1) * NDOF], vr[(STEPS + 1) * NDOF], ar[(STEPS + 1) * NDOF];
    for (int s = 0; s <= STEPS; s++) ground_force(s * dt, f + s * NDOF);
    const double zero[NDOF] = {0, 0};
    run_linear("ghaboussi_pc", NULL, NDOF, Mb, Cb, K1, K2, f, dt, STEPS, zero, zero, d, v, a);
    /* reference */
    double A[4], t1[2], t2[2], t3[2], rhs[2];
    for (int k = 0; k < 4; k++) A[k] = Mb[k] + 0.5 * dt * Cb[k] + 0.25 * dt * dt * K1[k];
    memset(dr, 0, 2 * sizeof(double));
    memset(vr, 0, 2 * sizeof(double));
    solve2(Mb, f, ar); /* a0 = M^-1 f0 at rest */
    for (int s = 0; s < STEPS; s++) {
        const double *d0 = dr + s * 2, *v0 = vr + s * 2, *a0 = ar + s * 2;
        double dp[2], vp[2];
        for (int i = 0; i < 2; i++) {
            dp[i] = d0[i] + dt * v0[i] + 0.25 * dt * dt * a0[i];
            vp[i] = v0[i] + 0.5 * dt * a0[i];
        }
        mv2(Cb, vp, t1);
        mv2(K1, dp, t2);
        mv2(K2, dp, t3);
        for (int i = 0; i < 2; i++) rhs[i] = f[(s + 1) * 2 + i] - t1[i] - t2[i] - t3[i];
        solve2(A, rhs, ar + (s + 1) * 2);
        for (int i = 0; i < 2; i++) {
            dr[(s + 1) * 2 + i] = dp[i] + 0.25 * dt * dt * ar[(s + 1) * 2 + i];
            vr[(s + 1) * 2 + i] = vp[i] + 0.5 * dt * ar[(s + 1) * 2 + i];
        }
    }
    const int cnt = (STEPS + 1) * NDOF;
    assert_true(max_abs(dr, cnt) > 1e-3);
    assert_true(max_diff(d, dr, cnt) <= 1e-10 * max_abs(dr, cnt));
    assert_true(max_diff(v, vr, cnt) <= 1e-10 * max_abs(vr, cnt));
    assert_true(max_diff(a, ar, cnt) <= 1e-10 * max_abs(ar, cnt));
    /* all numerical it is average-acceleration Newmark */
    run_linear("ghaboussi_pc", NULL, NDOF, Mb, Cb, Kb, NULL, f, dt, STEPS, zero, zero, d, v, a);
    newmark_reference(NDOF, Mb, Cb, Kb, f, dt, STEPS, dr, vr, ar);
    assert_true(max_diff(d, dr, cnt) <= 1e-10 * max_abs(dr, cnt));
}

/* The same linear structure, whole stiffness numerical or story 2 "experimental" (measured at
 * the command, r_exp = K2 d_cmd, dyn->Ke = K2): the same response. */
static void test_hybrid_split(void **state)
{
    (void)state;
    build_damping();
    const double dt = 0.01;
    static double f[(STEPS + 1) * NDOF];
    static double d1[(STEPS + 1) * NDOF], v1[(STEPS + 1) * NDOF], a1[(STEPS + 1) * NDOF];
    static double d2[(STEPS + 1) * NDOF], v2[(STEPS + 1) * NDOF], a2[(STEPS + 1) * NDOF];
    for (int s = 0; s <= STEPS; s++) ground_force(s * dt, f + s * NDOF);
    const double zero[NDOF] = {0, 0};
    const struct {
        const char *type, *key;
        double value;
    } cases[] = {{"alpha_os", "alpha", -0.05},
                 {"alpha_os", "alpha", -1.0 / 3.0},
                 {"cr", NULL, 0.0},
                 {"kr_alpha", "rho_inf", 1.0},
                 {"kr_alpha", "rho_inf", 0.5},
                 {"kr_alpha", "rho_inf", 0.0}};
    const int cnt = (STEPS + 1) * NDOF;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        hs_options *o = opt1(cases[c].key, cases[c].value);
        run_linear(cases[c].type, o, NDOF, Mb, Cb, Kb, NULL, f, dt, STEPS, zero, zero, d1, v1, a1);
        run_linear(cases[c].type, o, NDOF, Mb, Cb, K1, K2, f, dt, STEPS, zero, zero, d2, v2, a2);
        hs_options_destroy(&o);
        const double e = max_diff(d1, d2, cnt) / max_abs(d1, cnt);
        if (!(e <= 1e-9)) print_error("%s: relative difference %g\n", cases[c].type, e);
        assert_true(e <= 1e-9);
        assert_true(max_diff(v1, v2, cnt) <= 1e-9 * max_abs(v1, cnt));
        assert_true(max_diff(a1, a2, cnt) <= 1e-9 * max_abs(a1, cnt));
    }
}

/* No allocation in 1000 hybrid steps; checkpoints restore the run exactly (alpha_os keeps p(n),
 * made non-zero here by a K0 stiffer than the structure). */
static void test_no_alloc_and_checkpoint(void **state)
{
    (void)state;
    build_damping();
    const char *types[] = {"alpha_os", "cr", "kr_alpha", "ghaboussi_pc"};
    const double dt = 0.005;
    double K0[4], rexp[2], dcmd[2], f0[2], f1[2];
    for (int k = 0; k < 4; k++) K0[k] = 1.2 * Kb[k];
    hs_test_linear model = {NDOF, K1};
    hs_dynamics dyn = {.n = NDOF,
                       .M = Mb,
                       .C = Cb,
                       .K0 = K0,
                       .Ke = K2,
                       .restore = hs_test_linear_restore,
                       .commit = hs_test_commit_nothing,
                       .user = &model,
                       .linear = 1};
    for (int t = 0; t < 4; t++) {
        hs_ctx *ctx = NULL;
        hs_integrator *it = NULL;
        assert_int_equal(hs_ctx_create(&ctx), 0);
        assert_int_equal(hs_integrator_create(ctx, types[t], NULL, &it), 0);
        ground_force(0.0, f0);
        assert_int_equal(hs_integrator_setup(it, &dyn, dt, NULL, NULL, f0), 0);
        const size_t ns = hs_integrator_state_size(it);
        double saved[64], after[2][2];
        assert_true(ns <= 64);
        const uint64_t before = hs_alloc_count();
        for (int s = 0; s < 1000; s++) {
            if (s == 500) assert_int_equal(hs_integrator_state_save(it, saved), 0);
            if (s == 600) memcpy(after[0], hs_integrator_displacement(it), sizeof after[0]);
            ground_force(s * dt, f0);
            ground_force((s + 1) * dt, f1);
            hs_step_io io = {.step = s, .t = s * dt, .f_n = f0, .f_n1 = f1, .d_cmd = dcmd};
            assert_int_equal(hs_integrator_predict(it, &io), 0);
            mv2(K2, dcmd, rexp);
            io.r_exp = rexp;
            assert_int_equal(hs_integrator_correct(it, &io), 0);
        }
        assert_true(hs_alloc_count() == before);
        assert_int_equal(hs_integrator_state_load(it, saved), 0);
        for (int s = 500; s < 600; s++) {
            ground_force(s * dt, f0);
            ground_force((s + 1) * dt, f1);
            hs_step_io io = {.step = s, .t = s * dt, .f_n = f0, .f_n1 = f1, .d_cmd = dcmd};
            assert_int_equal(hs_integrator_predict(it, &io), 0);
            mv2(K2, dcmd, rexp);
            io.r_exp = rexp;
            assert_int_equal(hs_integrator_correct(it, &io), 0);
        }
        memcpy(after[1], hs_integrator_displacement(it), sizeof after[1]);
        assert_true(fabs(after[0][0]) > 0.0);
        assert_true(after[0][0] == after[1][0] && after[0][1] == after[1][1]);
        hs_integrator_destroy(&it);
        hs_ctx_destroy(&ctx);
    }
}

/* ---- a smooth softening spring r = k0 dy tanh(d / dy): order 2 survives the nonlinearity ---- */

typedef struct soft {
    double k0, dy;
    int commits;
    double last_d; /* displacement of the last restore */
} soft;

static int soft_restore(void *user, const double *d, const double *v, double *r, double *Kt,
                        double *Ct)
{
    (void)v;
    soft *s = user;
    const double th = tanh(d[0] / s->dy);
    r[0] = s->k0 * s->dy * th;
    if (Kt) Kt[0] = s->k0 * (1.0 - th * th);
    if (Ct) Ct[0] = 0.0;
    s->last_d = d[0];
    return 0;
}

static int soft_commit(void *user)
{
    ((soft *)user)->commits++;
    return 0;
}

/* m = 1, c = 2 xi omega0, p = P sin(5 t): the right-hand side of the first-order system */
static void soft_rhs(const soft *s, double c, double t, const double y[2], double dy[2])
{
    dy[0] = y[1];
    dy[1] = 3.0 * sin(5.0 * t) - c * y[1] - s->k0 * s->dy * tanh(y[0] / s->dy);
}

/* Max displacement error over [0, T] against classical Runge-Kutta with a step 1/50 of dt,
 * checking the restore/commit protocol at every step. */
static double soft_error(const char *type, const hs_options *o, double dt, double T)
{
    soft s = {4.0 * HS_PI * HS_PI, 0.05, 0, 0.0};
    const double M = 1.0, c = 2.0 * 0.02 * 2.0 * HS_PI, K0 = s.k0;
    hs_dynamics dyn = {.n = 1,
                       .M = &M,
                       .C = &c,
                       .K0 = &K0,
                       .restore = soft_restore,
                       .commit = soft_commit,
                       .user = &s,
                       .linear = 0};
    hs_ctx *ctx = NULL;
    hs_integrator *it = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    assert_int_equal(hs_integrator_create(ctx, type, o, &it), 0);
    const double zero = 0.0;
    assert_int_equal(hs_integrator_setup(it, &dyn, dt, &zero, &zero, &zero), 0);
    const int steps = (int)lround(T / dt), sub = 50;
    const double h = dt / sub;
    double y[2] = {0.0, 0.0}, err = 0.0, peak = 0.0;
    for (int n = 0; n < steps; n++) {
        const double f0 = 3.0 * sin(5.0 * n * dt), f1 = 3.0 * sin(5.0 * (n + 1) * dt);
        double dcmd;
        hs_step_io io = {.step = n, .t = n * dt, .f_n = &f0, .f_n1 = &f1, .d_cmd = &dcmd};
        assert_int_equal(hs_integrator_step(it, &io), 0);
        assert_int_equal(s.commits, n + 1);                         /* one commit */
        assert_true(s.last_d == hs_integrator_displacement(it)[0]); /* at the final state */
        for (int k = 0; k < sub; k++) {
            const double t = n * dt + k * h;
            double k1[2], k2[2], k3[2], k4[2], yt[2];
            soft_rhs(&s, c, t, y, k1);
            for (int i = 0; i < 2; i++) yt[i] = y[i] + 0.5 * h * k1[i];
            soft_rhs(&s, c, t + 0.5 * h, yt, k2);
            for (int i = 0; i < 2; i++) yt[i] = y[i] + 0.5 * h * k2[i];
            soft_rhs(&s, c, t + 0.5 * h, yt, k3);
            for (int i = 0; i < 2; i++) yt[i] = y[i] + h * k3[i];
            soft_rhs(&s, c, t + h, yt, k4);
            for (int i = 0; i < 2; i++)
                y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        }
        err = fmax(err, fabs(hs_integrator_displacement(it)[0] - y[0]));
        peak = fmax(peak, fabs(y[0]));
    }
    assert_true(peak > 5.0 * s.dy && peak < 20.0 * s.dy); /* well into the soft range */
    hs_integrator_destroy(&it);
    hs_ctx_destroy(&ctx);
    return err;
}

static void test_nonlinear_softening_order(void **state)
{
    (void)state;
    const struct {
        const char *type, *key;
        double value;
    } cases[] = {{"alpha_os", "alpha", -0.05},
                 {"alpha_os", "alpha", -1.0 / 3.0},
                 {"cr", NULL, 0.0},
                 {"kr_alpha", "rho_inf", 1.0},
                 {"kr_alpha", "rho_inf", 0.5},
                 {"ghaboussi_pc", NULL, 0.0}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        hs_options *o = opt1(cases[c].key, cases[c].value);
        const double e1 = soft_error(cases[c].type, o, 0.01, 2.0);
        const double e2 = soft_error(cases[c].type, o, 0.005, 2.0);
        hs_options_destroy(&o);
        const double order = log2(e1 / e2);
        print_message("  %-12s %s = %-8.4g error %.3e (dt 0.01), %.3e (dt 0.005): order %.2f\n",
                      cases[c].type, cases[c].key ? cases[c].key : "", cases[c].value, e1, e2,
                      order);
        assert_true(order > 1.8);
    }
}

static void test_options_rejected(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_integrator *it = NULL;
    hs_options *o = opt1("alpha", 0.1);
    assert_int_equal(hs_integrator_create(ctx, "alpha_os", o, &it), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "alpha"));
    hs_options_destroy(&o);
    o = opt1("alpha", -0.4);
    assert_int_equal(hs_integrator_create(ctx, "alpha_os", o, &it), HS_EINPUT);
    hs_options_destroy(&o);
    o = opt1("rho_inf", 1.5);
    assert_int_equal(hs_integrator_create(ctx, "kr_alpha", o, &it), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "rho_inf"));
    hs_options_destroy(&o);
    assert_null(it);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cr_spectral),
        cmocka_unit_test(test_kr_alpha_spectral),
        cmocka_unit_test(test_alpha_os_spectral),
        cmocka_unit_test(test_ghaboussi_spectral_numerical),
        cmocka_unit_test(test_ghaboussi_stability_limit),
        cmocka_unit_test(test_cr_equals_newmark_mdof),
        cmocka_unit_test(test_kr_alpha_one_is_cr),
        cmocka_unit_test(test_chopra_sdof),
        cmocka_unit_test(test_ghaboussi_split_reference),
        cmocka_unit_test(test_hybrid_split),
        cmocka_unit_test(test_no_alloc_and_checkpoint),
        cmocka_unit_test(test_nonlinear_softening_order),
        cmocka_unit_test(test_options_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
