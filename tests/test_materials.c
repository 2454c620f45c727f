/* Uniaxial materials: elastic, bilinear (kinematic hardening), Bouc-Wen (OpenSees BoucWen),
 * viscous. Reference numbers come from closed forms, never from the code under test. */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

/* Creates a material from "key", value pairs ending with NULL. */
static hs_material *make(hs_ctx *ctx, const char *type, ...)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    va_list ap;
    va_start(ap, type);
    for (const char *k = va_arg(ap, const char *); k; k = va_arg(ap, const char *))
        hs_options_set_num(o, k, va_arg(ap, double));
    va_end(ap);
    hs_material *m = NULL;
    int rc = hs_material_create(ctx, type, o, &m);
    if (rc) fprintf(stderr, "create %s: %s\n", type, hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    hs_options_destroy(&o);
    return m;
}

/* Sets the trial strain and commits. */
static void go(hs_material *m, double e)
{
    assert_int_equal(hs_material_set_trial(m, e, 0.0), 0);
    assert_int_equal(hs_material_commit(m), 0);
}

/* Walks linearly from the current strain to `e` in `n` committed steps. */
static void walk(hs_material *m, double e, int n)
{
    const double e0 = hs_material_strain(m);
    for (int i = 1; i <= n; i++) go(m, e0 + (e - e0) * i / n);
}

static void test_registry(void **state)
{
    (void)state;
    const char *names[] = {"elastic", "bilinear", "bouc_wen", "viscous"};
    for (size_t i = 0; i < 4; i++) assert_non_null(hs_material_registry_find(names[i]));
    assert_true(hs_material_registry_count() >= 4);
}

static void test_elastic(void **state)
{
    (void)state;
    hs_material *m = make(NULL, "elastic", "k", 2.5, NULL);
    assert_int_equal(hs_material_set_trial(m, -0.4, 3.0), 0);
    HS_ASSERT_NEAR(hs_material_stress(m), -1.0, 1e-15);
    HS_ASSERT_NEAR(hs_material_tangent(m), 2.5, 0);
    HS_ASSERT_NEAR(hs_material_rate_tangent(m), 0.0, 0);
    assert_true(hs_material_is_linear(m));
    hs_material_destroy(&m);
}

/* k = 100, fy = 10, b = 0.1: yield at 0.1, hardening slope 10, elastic range 2 fy. */
static void test_bilinear_cycle(void **state)
{
    (void)state;
    hs_material *m = make(NULL, "bilinear", "k", 100.0, "fy", 10.0, "b", 0.1, NULL);
    HS_ASSERT_NEAR(hs_material_initial_tangent(m), 100.0, 0);
    go(m, 0.05);
    HS_ASSERT_NEAR(hs_material_stress(m), 5.0, 1e-12);
    HS_ASSERT_NEAR(hs_material_tangent(m), 100.0, 0);
    go(m, 0.1); /* the yield point fy / k */
    HS_ASSERT_NEAR(hs_material_stress(m), 10.0, 1e-12);
    go(m, 0.2); /* fy + b k (e - fy/k) */
    HS_ASSERT_NEAR(hs_material_stress(m), 11.0, 1e-12);
    HS_ASSERT_NEAR(hs_material_tangent(m), 10.0, 1e-12);
    go(m, 0.15); /* elastic unloading */
    HS_ASSERT_NEAR(hs_material_stress(m), 6.0, 1e-12);
    HS_ASSERT_NEAR(hs_material_tangent(m), 100.0, 0);
    /* Reversed yield where the elastic line 11 + 100 (e - 0.2) meets the shifted lower
     * surface 10 e - 9: e = 0, stress -9 = 11 - 2 fy (kinematic: not -fy). */
    go(m, 0.001);
    HS_ASSERT_NEAR(hs_material_stress(m), -8.9, 1e-12);
    HS_ASSERT_NEAR(hs_material_tangent(m), 100.0, 0);
    go(m, -0.1);
    HS_ASSERT_NEAR(hs_material_stress(m), 10.0 * -0.1 - 9.0, 1e-12);
    HS_ASSERT_NEAR(hs_material_tangent(m), 10.0, 1e-12);
    /* Reload: elastic up to the upper surface 10 e + 9, met at e = 0.1 (stress 10). */
    go(m, 0.05);
    HS_ASSERT_NEAR(hs_material_stress(m), -10.0 + 100.0 * 0.15, 1e-12);
    go(m, 0.3);
    HS_ASSERT_NEAR(hs_material_stress(m), 10.0 * 0.3 + 9.0, 1e-12);
    /* One big increment lands on the same surfaces (exact, no sub-stepping needed). */
    hs_material_reset(m);
    HS_ASSERT_NEAR(hs_material_stress(m), 0.0, 0);
    go(m, 0.2);
    HS_ASSERT_NEAR(hs_material_stress(m), 11.0, 1e-12);
    go(m, -0.5);
    HS_ASSERT_NEAR(hs_material_stress(m), 10.0 * -0.5 - 9.0, 1e-12);
    hs_material_destroy(&m);
}

static void test_bilinear_revert_state(void **state)
{
    (void)state;
    hs_material *m = make(NULL, "bilinear", "k", 100.0, "fy", 10.0, "b", 0.1, NULL);
    go(m, 0.2);
    const double s_c = hs_material_stress(m);
    assert_int_equal(hs_material_set_trial(m, -0.3, 0.0), 0);
    assert_int_equal(hs_material_revert(m), 0);
    assert_true(hs_material_stress(m) == s_c);
    assert_true(hs_material_strain(m) == 0.2);
    assert_int_equal(hs_material_state_size(m), 3);
    double st[3];
    assert_int_equal(hs_material_state_save(m, st), 0);
    hs_material *c = make(NULL, "bilinear", "k", 100.0, "fy", 10.0, "b", 0.1, NULL);
    assert_int_equal(hs_material_state_load(c, st), 0);
    assert_true(hs_material_stress(c) == s_c);
    go(c, 0.0); /* elastic unloading from the loaded state: 11 - 20 */
    HS_ASSERT_NEAR(hs_material_stress(c), -9.0, 1e-12);
    hs_material_destroy(&c);
    hs_material_destroy(&m);
}

/* Bouc-Wen with OpenSees-like parameters and all three degradations on. */
static hs_material *bw_degrading(void)
{
    return make(NULL, "bouc_wen", "alpha", 0.1, "k0", 10.0, "n", 2.0, "gamma", 0.5, "beta", 0.5,
                "A0", 1.0, "delta_a", 0.05, "delta_nu", 0.05, "delta_eta", 0.05, NULL);
}

/* Trial tangent against the central difference of the trial stress (committed state fixed). */
static void check_tangent_fd(hs_material *m, double e)
{
    const double h = 1e-7 * fmax(1.0, fabs(e));
    assert_int_equal(hs_material_set_trial(m, e + h, 0.0), 0);
    const double sp = hs_material_stress(m);
    assert_int_equal(hs_material_set_trial(m, e - h, 0.0), 0);
    const double sm = hs_material_stress(m);
    assert_int_equal(hs_material_set_trial(m, e, 0.0), 0);
    const double fd = (sp - sm) / (2 * h), kt = hs_material_tangent(m);
    if (fabs(kt - fd) > 1e-6 * fabs(fd))
        fprintf(stderr, "e %g: tangent %.12g fd %.12g\n", e, kt, fd);
    assert_true(fabs(kt - fd) <= 1e-6 * fabs(fd));
}

/* Root in [lo, hi] (bisection) of the backward-Euler equation of n = 8, A = 1:
 * z - zc - h (1 - z^8 psi) = 0, psi the value of gamma + beta sgn(h z) on that interval. */
static double root_n8(double zc, double h, double psi, double lo, double hi)
{
    const double glo = lo - zc - h * (1 - pow(lo, 8) * psi);
    for (int i = 0; i < 200; i++) {
        const double mid = 0.5 * (lo + hi), g = mid - zc - h * (1 - pow(mid, 8) * psi);
        if ((g < 0) == (glo < 0))
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

static void test_bouc_wen_tangent(void **state)
{
    (void)state;
    hs_material *m = bw_degrading();
    /* Sine loop of amplitude 2 z_u in 200 steps; check the tangent at 20 points of it (loading,
     * yielding, unloading, reversed loading), for the step increment and for a 5x increment. */
    int checked = 0;
    for (int i = 1; i <= 200; i++) {
        const double e = 2.0 * sin(2 * PI * i / 200.0);
        if (i % 10 == 3) {
            const double e_prev = hs_material_strain(m);
            check_tangent_fd(m, e);
            check_tangent_fd(m, e_prev + 5 * (e - e_prev));
            checked += 2;
        }
        go(m, e);
    }
    assert_int_equal(checked, 40);
    hs_material_destroy(&m);

    /* Non-integer n (pow path) and a huge increment with sharp yield (n = 8) that needs
     * sub-steps: the tangent is still the derivative of the discrete solution. */
    m = make(NULL, "bouc_wen", "alpha", 0.05, "k0", 3.0, "n", 1.5, "gamma", 0.7, "beta", 0.3,
             "delta_eta", 0.02, NULL);
    walk(m, 0.7, 7);
    check_tangent_fd(m, 0.2);
    check_tangent_fd(m, 1.9);
    hs_material_destroy(&m);
    /* n = 8, one increment of 40 from the virgin state: z is the root in [0, 1] of the
     * backward-Euler equation z = 40 (1 - z^8). */
    m = make(NULL, "bouc_wen", "alpha", 0.1, "k0", 1.0, "n", 8.0, "gamma", 0.5, "beta", 0.5, NULL);
    assert_int_equal(hs_material_set_trial(m, 40.0, 0.0), 0);
    HS_ASSERT_NEAR((hs_material_stress(m) - 0.1 * 40.0) / 0.9, root_n8(0.0, 40.0, 1.0, 0.0, 1.0),
                   1e-10);
    check_tangent_fd(m, 40.0);
    hs_material_destroy(&m);

    /* Large reversals from saturation with gamma = 0.9, beta = 0.1 (unloading Psi = 0.8): the
     * backward-Euler equation also has a spurious root above z_u = 1; the material must return
     * the one inside [-1, 1]. h = -5 crosses zero (Psi = 1 there), h = -0.5 does not. */
    m = make(NULL, "bouc_wen", "alpha", 0.1, "k0", 1.0, "n", 8.0, "gamma", 0.9, "beta", 0.1, NULL);
    walk(m, 5.0, 100);
    const double e_c = hs_material_strain(m), z_c = (hs_material_stress(m) - 0.1 * e_c) / 0.9;
    assert_true(z_c > 0.999 && z_c < 1.0);
    assert_int_equal(hs_material_set_trial(m, e_c - 5.0, 0.0), 0);
    HS_ASSERT_NEAR((hs_material_stress(m) - 0.1 * (e_c - 5.0)) / 0.9,
                   root_n8(z_c, -5.0, 1.0, -1.0, 0.0), 1e-10);
    check_tangent_fd(m, e_c - 5.0);
    assert_int_equal(hs_material_set_trial(m, e_c - 0.5, 0.0), 0);
    HS_ASSERT_NEAR((hs_material_stress(m) - 0.1 * (e_c - 0.5)) / 0.9,
                   root_n8(z_c, -0.5, 0.8, 0.0, z_c), 1e-10);
    check_tangent_fd(m, e_c - 0.5);
    hs_material_destroy(&m);

    /* Sub-steps: n = 1, gamma = beta = 1/2 from z = 0 gives z_(k+1) = (z_k + h) / (1 + h), so
     * N sub-steps over e give z = 1 - (1 + e/N)^-N and dz/de = (1 + e/N)^-(N+1). */
    const double Ns[2] = {1.0, 16.0};
    for (int i = 0; i < 2; i++) {
        const double N = Ns[i], e = 2.0;
        m = make(NULL, "bouc_wen", "alpha", 0.2, "k0", 2.0, "n", 1.0, "gamma", 0.5, "beta", 0.5,
                 "substeps", N, NULL);
        assert_int_equal(hs_material_set_trial(m, e, 0.0), 0);
        HS_ASSERT_NEAR(hs_material_stress(m), 0.4 * e + 1.6 * (1 - pow(1 + e / N, -N)), 1e-12);
        HS_ASSERT_NEAR(hs_material_tangent(m), 0.4 + 1.6 * pow(1 + e / N, -N - 1), 1e-12);
        check_tangent_fd(m, 1.3);
        hs_material_destroy(&m);
    }
    /* sub-steps with degradation: the chain rule carries dE/de through the sub-steps */
    m = make(NULL, "bouc_wen", "alpha", 0.1, "k0", 10.0, "n", 2.0, "gamma", 0.5, "beta", 0.5,
             "delta_a", 0.2, "delta_nu", 0.2, "delta_eta", 0.2, "substeps", 8.0, NULL);
    for (int i = 1; i <= 40; i++) {
        const double e = 2.0 * sin(2 * PI * i / 20.0);
        if (i % 5 == 2) check_tangent_fd(m, 3 * e - 2 * hs_material_strain(m));
        go(m, e);
    }
    hs_material_destroy(&m);
}

/* Triangular strain cycles of amplitude a in 4 nq steps each. Returns the trapezoid area of the
 * stress-strain loop of the last cycle, the trapezoid of z de over it (z from the stress), the
 * backward-Euler sum (1 - alpha) k0 z_(i+1) de_i (z at the step's end, as E is defined) and the
 * increase of the material's dissipated-energy variable E over it. */
static void bw_cycles(hs_material *m, double ka, double kh, double a, int cycles, int nq,
                      double *area, double *zarea, double *rsum, double *dE, double *peaks)
{
    double st[4], E0 = 0.0;
    *area = *zarea = *rsum = 0.0;
    for (int c = 0; c < cycles; c++) {
        if (c == cycles - 1) {
            assert_int_equal(hs_material_state_save(m, st), 0);
            E0 = st[2];
            *area = *zarea = *rsum = 0.0;
        }
        if (peaks) peaks[c] = -INFINITY;
        for (int i = 1; i <= 4 * nq; i++) {
            const double e0 = hs_material_strain(m), s0 = hs_material_stress(m);
            const int j = i % (4 * nq);
            const double e = j <= nq       ? a * j / nq
                             : j <= 3 * nq ? a * (2 * nq - j) / nq
                                           : a * (j - 4 * nq) / nq;
            go(m, e);
            const double s = hs_material_stress(m);
            if (peaks && s > peaks[c]) peaks[c] = s;
            if (c == cycles - 1) {
                *area += 0.5 * (s + s0) * (e - e0);
                *zarea += 0.5 * ((s - ka * e) + (s0 - ka * e0)) / kh * (e - e0);
                *rsum += (s - ka * e) * (e - e0);
            }
        }
    }
    assert_int_equal(hs_material_state_save(m, st), 0);
    *dE = st[2] - E0;
}

/* Closed form for n = 1, gamma = beta = 1/2, A = 1: on a branch z grows linearly (dz/de = 1)
 * while de z < 0 and as 1 - exp(-(e - e0)) after crossing zero. The steady loop of amplitude a
 * has peak z_m = 1 - exp(-(2 a - z_m)) and area oint z de = 4 a - 4 z_m - z_m^2. */
static double bw_n1_loop_area(double a)
{
    double zm = 1.0;
    for (int i = 0; i < 100; i++) zm = 1.0 - exp(-(2 * a - zm));
    return 4 * a - 4 * zm - zm * zm;
}

static void test_bouc_wen_energy(void **state)
{
    (void)state;
    const double alphas[2] = {0.0, 0.2}, k0 = 2.0, a = 3.0;
    const double zloop = bw_n1_loop_area(a);
    for (int i = 0; i < 2; i++) {
        const double ka = alphas[i] * k0, kh = (1 - alphas[i]) * k0;
        hs_material *m = make(NULL, "bouc_wen", "alpha", alphas[i], "k0", k0, "n", 1.0, "gamma",
                              0.5, "beta", 0.5, NULL);
        double area, zarea, rsum, dE;
        bw_cycles(m, ka, kh, a, 3, 2000, &area, &zarea, &rsum, &dE, NULL);
        assert_true(area > 0.0);
        /* loop area = hysteretic energy (1 - alpha) k0 oint z de = increase of E */
        HS_ASSERT_NEAR(area, kh * zarea, 1e-9 * area);
        HS_ASSERT_NEAR(dE, rsum, 1e-9 * area); /* E's bookkeeping */
        HS_ASSERT_NEAR(dE, area, 2e-3 * area); /* first order in the step */
        /* and the closed-form steady loop (first-order in the step 1.5e-3) */
        HS_ASSERT_NEAR(area, kh * zloop, 3e-3 * area);
        hs_material_destroy(&m);
    }
    /* n = 2, degrading: E still accumulates the loop's work. */
    hs_material *m = bw_degrading();
    double area, zarea, rsum, dE;
    bw_cycles(m, 1.0, 9.0, 2.0, 2, 8000, &area, &zarea, &rsum, &dE, NULL);
    assert_true(area > 0.0);
    HS_ASSERT_NEAR(dE, rsum, 1e-9 * area);
    HS_ASSERT_NEAR(dE, area, 1e-3 * area);
    hs_material_destroy(&m);
}

static void test_bouc_wen_yield_limit(void **state)
{
    (void)state;
    /* z_u = (A0 / (gamma + beta))^(1/n) */
    const double ns[2] = {2.0, 1.5};
    for (int i = 0; i < 2; i++) {
        const double zu = pow(1.5 / (0.3 + 0.2), 1.0 / ns[i]);
        hs_material *m = make(NULL, "bouc_wen", "alpha", 0.02, "k0", 5.0, "n", ns[i], "gamma", 0.3,
                              "beta", 0.2, "A0", 1.5, NULL);
        HS_ASSERT_NEAR(hs_material_initial_tangent(m), 0.02 * 5.0 + 0.98 * 5.0 * 1.5, 1e-12);
        walk(m, 20.0, 2000);
        const double z = (hs_material_stress(m) - 0.02 * 5.0 * 20.0) / (0.98 * 5.0);
        HS_ASSERT_NEAR(z, zu, 1e-3);
        /* unloading from z_u starts with dz/de = A0 - z_u^n (gamma - beta) = 1.5 - 3 * 0.1 */
        go(m, 19.999);
        HS_ASSERT_NEAR(hs_material_tangent(m), 0.02 * 5.0 + 0.98 * 5.0 * 1.2, 2e-3 * 5.98);
        walk(m, -20.0, 4000);
        const double zn = (hs_material_stress(m) + 0.02 * 5.0 * 20.0) / (0.98 * 5.0);
        HS_ASSERT_NEAR(zn, -zu, 1e-3);
        hs_material_destroy(&m);
    }
}

static void test_bouc_wen_degradation(void **state)
{
    (void)state;
    double peaks_d[4], peaks_0[4], area, zarea, rsum, dE;
    hs_material *d = make(NULL, "bouc_wen", "alpha", 0.05, "k0", 1.0, "n", 2.0, "gamma", 0.5,
                          "beta", 0.5, "delta_a", 0.05, "delta_eta", 0.05, NULL);
    hs_material *o =
        make(NULL, "bouc_wen", "alpha", 0.05, "k0", 1.0, "n", 2.0, "gamma", 0.5, "beta", 0.5, NULL);
    bw_cycles(d, 0.05, 0.95, 3.0, 4, 300, &area, &zarea, &rsum, &dE, peaks_d);
    bw_cycles(o, 0.05, 0.95, 3.0, 4, 300, &area, &zarea, &rsum, &dE, peaks_0);
    for (int c = 0; c < 4; c++) {
        if (c) assert_true(peaks_d[c] < peaks_d[c - 1]);
        assert_true(peaks_d[c] < peaks_0[c]);
        /* without degradation the peak is 0.05 * 3 + 0.95 z with z <= z_u = 1 */
        assert_true(peaks_0[c] <= 0.05 * 3 + 0.95 + 1e-12 && peaks_0[c] > 0.05 * 3 + 0.95 * 0.99);
    }
    hs_material_destroy(&d);
    hs_material_destroy(&o);
}

static void test_bouc_wen_revert_state(void **state)
{
    (void)state;
    hs_material *m = bw_degrading();
    walk(m, 1.3, 13);
    walk(m, -0.4, 10);
    const double s_c = hs_material_stress(m), t_c = hs_material_tangent(m);
    const double e_c = hs_material_strain(m);
    assert_int_equal(hs_material_set_trial(m, 0.8, 0.0), 0);
    assert_true(hs_material_stress(m) != s_c);
    assert_int_equal(hs_material_revert(m), 0);
    assert_true(hs_material_stress(m) == s_c);
    assert_true(hs_material_tangent(m) == t_c);
    assert_true(hs_material_strain(m) == e_c);
    /* a trial at the committed strain is the committed state */
    assert_int_equal(hs_material_set_trial(m, 0.3, 0.0), 0);
    assert_int_equal(hs_material_set_trial(m, e_c, 0.0), 0);
    assert_true(hs_material_stress(m) == s_c);

    /* save/load round trip: a fresh material continues exactly like the original */
    assert_int_equal(hs_material_state_size(m), 4);
    double st[4];
    assert_int_equal(hs_material_state_save(m, st), 0);
    hs_material *c = bw_degrading();
    assert_int_equal(hs_material_state_load(c, st), 0);
    assert_true(hs_material_stress(c) == s_c);
    for (int i = 1; i <= 30; i++) {
        const double e = -0.4 + 2.0 * sin(0.3 * i);
        go(m, e);
        go(c, e);
        assert_true(hs_material_stress(c) == hs_material_stress(m));
        assert_true(hs_material_tangent(c) == hs_material_tangent(m));
    }
    /* reset returns to the virgin state */
    assert_int_equal(hs_material_reset(m), 0);
    assert_true(hs_material_stress(m) == 0.0);
    HS_ASSERT_NEAR(hs_material_tangent(m), 10.0, 1e-15);
    hs_material_destroy(&c);
    hs_material_destroy(&m);
}

static void test_bouc_wen_validation(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "alpha", 0.1);
    hs_options_set_num(o, "n", 0.5);
    hs_options_set_num(o, "gamma", 0.5);
    hs_options_set_num(o, "beta", 0.5);
    hs_material *m = NULL;
    assert_int_equal(hs_material_create(ctx, "bouc_wen", o, &m), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "k0"));
    hs_options_set_num(o, "k0", 1.0);
    assert_int_equal(hs_material_create(ctx, "bouc_wen", o, &m), HS_EINPUT);
    assert_string_equal(hs_ctx_message(ctx), "bouc_wen: n must be >= 1 (got 0.5)");
    assert_null(m);
    hs_options_set_num(o, "n", 1.0);
    hs_options_set_num(o, "beta", -0.5);
    assert_int_equal(hs_material_create(ctx, "bouc_wen", o, &m), HS_EINPUT);
    assert_string_equal(hs_ctx_message(ctx), "bouc_wen: gamma + beta must be > 0 (got 0)");
    hs_options_destroy(&o);

    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "k", 1.0);
    hs_options_set_num(o, "fy", 1.0);
    hs_options_set_num(o, "b", 1.5);
    assert_int_equal(hs_material_create(ctx, "bilinear", o, &m), HS_EINPUT);
    assert_string_equal(hs_ctx_message(ctx), "bilinear: b must be in [0, 1) (got 1.5)");
    hs_options_destroy(&o);
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "c", 1.0);
    hs_options_set_num(o, "alpha", 0.0);
    assert_int_equal(hs_material_create(ctx, "viscous", o, &m), HS_EINPUT);
    assert_string_equal(hs_ctx_message(ctx), "viscous: alpha must be > 0 (got 0)");
    hs_options_destroy(&o);
    hs_ctx_destroy(&ctx);
}

static void test_viscous(void **state)
{
    (void)state;
    hs_material *m = make(NULL, "viscous", "c", 2.0, "alpha", 0.5, NULL);
    assert_true(hs_material_is_rate_dependent(m));
    assert_int_equal(hs_material_set_trial(m, 1.0, 0.25), 0);
    HS_ASSERT_NEAR(hs_material_stress(m), 2.0 * 0.5, 1e-15);
    HS_ASSERT_NEAR(hs_material_tangent(m), 0.0, 0);
    HS_ASSERT_NEAR(hs_material_rate_tangent(m), 2.0 * 0.5 / 0.5, 1e-14);
    assert_int_equal(hs_material_set_trial(m, 1.0, -4.0), 0);
    HS_ASSERT_NEAR(hs_material_stress(m), -2.0 * 2.0, 1e-14);
    /* rate tangent vs central difference of the force in v */
    const double vs[3] = {0.25, -4.0, 0.01};
    for (int i = 0; i < 3; i++) {
        const double v = vs[i], h = 1e-6 * fabs(v);
        hs_material_set_trial(m, 0.0, v + h);
        const double fp = hs_material_stress(m);
        hs_material_set_trial(m, 0.0, v - h);
        const double fm = hs_material_stress(m);
        hs_material_set_trial(m, 0.0, v);
        HS_ASSERT_NEAR(hs_material_rate_tangent(m), (fp - fm) / (2 * h),
                       1e-6 * hs_material_rate_tangent(m));
    }
    /* v = 0 with alpha < 1: zero force, finite regularised rate tangent c alpha v_reg^(alpha-1) */
    hs_material_set_trial(m, 0.0, 0.0);
    HS_ASSERT_NEAR(hs_material_stress(m), 0.0, 0);
    HS_ASSERT_NEAR(hs_material_rate_tangent(m), 2.0 * 0.5 / sqrt(1e-6), 1e-9);
    /* commit / revert / state */
    hs_material_set_trial(m, 0.3, 0.09);
    hs_material_commit(m);
    const double f_c = hs_material_stress(m);
    HS_ASSERT_NEAR(f_c, 2.0 * 0.3, 1e-15);
    hs_material_set_trial(m, 0.5, -1.0);
    hs_material_revert(m);
    assert_true(hs_material_stress(m) == f_c);
    double st[2];
    assert_int_equal(hs_material_state_size(m), 2);
    hs_material_state_save(m, st);
    hs_material *c = make(NULL, "viscous", "c", 2.0, "alpha", 0.5, NULL);
    hs_material_state_load(c, st);
    assert_true(hs_material_stress(c) == f_c);
    hs_material_destroy(&c);
    hs_material_destroy(&m);

    m = make(NULL, "viscous", "c", 3.0, NULL); /* linear */
    hs_material_set_trial(m, 0.0, -0.7);
    HS_ASSERT_NEAR(hs_material_stress(m), -2.1, 1e-15);
    HS_ASSERT_NEAR(hs_material_rate_tangent(m), 3.0, 0);
    hs_material_destroy(&m);
    m = make(NULL, "viscous", "c", 3.0, "alpha", 2.0, NULL);
    hs_material_set_trial(m, 0.0, -0.5);
    HS_ASSERT_NEAR(hs_material_stress(m), -0.75, 1e-15);
    HS_ASSERT_NEAR(hs_material_rate_tangent(m), 3.0, 1e-14);
    hs_material_set_trial(m, 0.0, 0.0);
    HS_ASSERT_NEAR(hs_material_rate_tangent(m), 0.0, 0);
    hs_material_destroy(&m);
}

static void test_no_allocation(void **state)
{
    (void)state;
    hs_material *ms[4] = {
        make(NULL, "elastic", "k", 1.0, NULL),
        make(NULL, "bilinear", "k", 1.0, "fy", 0.5, "b", 0.05, NULL),
        bw_degrading(),
        make(NULL, "viscous", "c", 1.0, "alpha", 0.4, NULL),
    };
    const uint64_t before = hs_alloc_count();
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 1000; i++) {
            const double e = 3.0 * sin(0.05 * i), v = 0.15 * cos(0.05 * i);
            assert_int_equal(hs_material_set_trial(ms[k], e, v), 0);
            if (i % 3 == 0) assert_int_equal(hs_material_commit(ms[k]), 0);
            if (i % 7 == 0) assert_int_equal(hs_material_revert(ms[k]), 0);
        }
    assert_true(hs_alloc_count() == before);
    for (int k = 0; k < 4; k++) hs_material_destroy(&ms[k]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_elastic),
        cmocka_unit_test(test_bilinear_cycle),
        cmocka_unit_test(test_bilinear_revert_state),
        cmocka_unit_test(test_bouc_wen_tangent),
        cmocka_unit_test(test_bouc_wen_energy),
        cmocka_unit_test(test_bouc_wen_yield_limit),
        cmocka_unit_test(test_bouc_wen_degradation),
        cmocka_unit_test(test_bouc_wen_revert_state),
        cmocka_unit_test(test_bouc_wen_validation),
        cmocka_unit_test(test_viscous),
        cmocka_unit_test(test_no_allocation),
    };
    return cmocka_run_group_tests_name("materials", tests, NULL, NULL);
}
