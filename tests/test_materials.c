/* Uniaxial materials: elastic (with eta and Eneg), bilinear (kinematic hardening), Bouc-Wen
 * (OpenSees BoucWen), viscous, steel01, steel02, elastic_pp_gap, elastic_pp, concrete01,
 * concrete02, hysteretic, and the conformance of every registered one. Reference
 * numbers come from closed forms, never from the code under test. */
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
    const char *names[] = {"elastic", "bilinear", "bouc_wen",      "viscous",
                           "steel01", "steel02",  "elastic_pp_gap"};
    for (size_t i = 0; i < 7; i++) assert_non_null(hs_material_registry_find(names[i]));
    assert_true(hs_material_registry_count() >= 7);
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

/* ---- steel01 (OpenSees Steel01) ---- */

/* fy = 50, E0 = 29000, b = 0.02: e_y = fy / E0; hardening slope b E0 = 580. */
#define S_FY 50.0
#define S_E0 29000.0
#define S_B  0.02
#define S_EY (S_FY / S_E0)

static void test_steel01_monotonic(void **state)
{
    (void)state;
    hs_material *m = make(NULL, "steel01", "fy", S_FY, "E0", S_E0, "b", S_B, NULL);
    HS_ASSERT_NEAR(hs_material_initial_tangent(m), S_E0, 0);
    go(m, 0.5 * S_EY);
    HS_ASSERT_NEAR(hs_material_stress(m), 25.0, 1e-12);
    HS_ASSERT_NEAR(hs_material_tangent(m), S_E0, 0);
    go(m, 0.01); /* fy + b E0 (e - e_y) */
    HS_ASSERT_NEAR(hs_material_stress(m), S_FY + 580.0 * (0.01 - S_EY), 1e-12);
    HS_ASSERT_NEAR(hs_material_tangent(m), 580.0, 1e-12);
    /* compression from a fresh material: the mirror image, in one increment */
    hs_material_reset(m);
    go(m, -0.02);
    HS_ASSERT_NEAR(hs_material_stress(m), -S_FY + 580.0 * (-0.02 + S_EY), 1e-12);
    hs_material_destroy(&m);
}

/* Triangular cycles 0 -> a -> -a -> 0 of amplitude a = 5 e_y in steps of e_y / 10, so that every
 * kink (first yield at e_y, reversed yield 2 e_y after a reversal) is a step point and the
 * trapezoid rule is exact. Returns the loop area of the last cycle and its peak stresses. */
static void steel_cycles(hs_material *m, double a, int nq, int cycles, double *area, double *smax,
                         double *smin)
{
    for (int c = 0; c < cycles; c++) {
        *area = 0.0;
        *smax = -INFINITY;
        *smin = INFINITY;
        for (int i = 1; i <= 4 * nq; i++) {
            const double e0 = hs_material_strain(m), s0 = hs_material_stress(m);
            const int j = i % (4 * nq);
            const double e = j <= nq       ? a * j / nq
                             : j <= 3 * nq ? a * (2 * nq - j) / nq
                                           : a * (j - 4 * nq) / nq;
            go(m, e);
            const double s = hs_material_stress(m);
            *area += 0.5 * (s + s0) * (e - e0);
            *smax = fmax(*smax, s);
            *smin = fmin(*smin, s);
        }
    }
}

static void test_steel01_cyclic(void **state)
{
    (void)state;
    hs_material *m = make(NULL, "steel01", "fy", S_FY, "E0", S_E0, "b", S_B, NULL);
    const double a = 5.0 * S_EY;
    double area, smax, smin;
    steel_cycles(m, a, 50, 3, &area, &smax, &smin);
    /* the kinematic-hardening parallelogram: reversal points +-(b E0 a + (1 - b) fy),
     * area 4 fy (1 - b) (a - e_y) */
    const double sa = 580.0 * a + (1.0 - S_B) * S_FY;
    HS_ASSERT_NEAR(smax, sa, 1e-12 * sa);
    HS_ASSERT_NEAR(smin, -sa, 1e-12 * sa);
    HS_ASSERT_NEAR(area, 4.0 * S_FY * (1.0 - S_B) * (a - S_EY), 1e-9 * area);
    hs_material_destroy(&m);

    /* Isotropic hardening (a1 = 0.1, a2 = 1): after the reversal at e_max = 5 e_y the
     * compression envelope moves out by shiftN = 1 + a1 (5 e_y / (2 a2 e_y))^0.8, from the
     * increment after the reversal on (as OpenSees). */
    m = make(NULL, "steel01", "fy", S_FY, "E0", S_E0, "b", S_B, "a1", 0.1, "a2", 1.0, "a3", 0.0,
             "a4", 1.0, NULL);
    go(m, a);
    go(m, -4.0 * S_EY); /* the reversal increment: the old envelope b E0 e - (1 - b) fy */
    HS_ASSERT_NEAR(hs_material_stress(m), 580.0 * -4.0 * S_EY - (1.0 - S_B) * S_FY, 1e-12);
    go(m, -6.0 * S_EY);
    const double shift_n = 1.0 + 0.1 * pow(2.5, 0.8);
    HS_ASSERT_NEAR(hs_material_stress(m), 580.0 * -6.0 * S_EY - shift_n * (1.0 - S_B) * S_FY,
                   1e-12);
    HS_ASSERT_NEAR(hs_material_tangent(m), 580.0, 1e-12);
    hs_material_destroy(&m);
}

/* ---- steel02 (Giuffre-Menegotto-Pinto) ---- */

/* The Menegotto-Pinto branch from (er, sr) towards (e0, s0) with exponent R, and its slope. */
static double mp_stress(double e, double er, double sr, double e0, double s0, double R,
                        double *slope)
{
    const double x = (e - er) / (e0 - er), q = 1.0 + pow(fabs(x), R);
    if (slope) *slope = (S_B + (1.0 - S_B) * pow(q, -1.0 - 1.0 / R)) * (s0 - sr) / (e0 - er);
    return sr + (s0 - sr) * (S_B * x + (1.0 - S_B) * x * pow(q, -1.0 / R));
}

static void test_steel02_curve(void **state)
{
    (void)state;
    hs_material *m = make(NULL, "steel02", "fy", S_FY, "E0", S_E0, "b", S_B, NULL);
    /* first loading: from the origin towards (e_y, fy), xi = 0 so R = R0 = 15 (the default) */
    const double es[4] = {0.5 * S_EY, S_EY, 3.0 * S_EY, 10.0 * S_EY};
    for (int i = 0; i < 4; i++) {
        go(m, es[i]);
        double kt;
        const double s = mp_stress(es[i], 0.0, 0.0, S_EY, S_FY, 15.0, &kt);
        HS_ASSERT_NEAR(hs_material_stress(m), s, 1e-12 * S_FY);
        HS_ASSERT_NEAR(hs_material_tangent(m), kt, 1e-9 * S_E0);
    }
    /* at e_y the curve is (1 - b) fy / 2^(1/R) + b fy below the corner; at 10 e_y it is on the
     * asymptote fy + b E0 (e - e_y) to (1 - b) fy (1 - (1 + 10^-15)^(-1/15)) ~ 3e-15 */
    HS_ASSERT_NEAR(mp_stress(S_EY, 0.0, 0.0, S_EY, S_FY, 15.0, NULL),
                   S_B * S_FY + (1.0 - S_B) * S_FY * pow(2.0, -1.0 / 15.0), 1e-12);
    HS_ASSERT_NEAR(hs_material_stress(m), S_FY + 580.0 * 9.0 * S_EY, 1e-9);

    /* Reversal at (er, sr) = (10 e_y, s(10 e_y)): the new asymptote is the compression line
     * -fy + b E0 (e + e_y) (a1 = 0), met by the elastic line sr + E0 (e - er) at e0;
     * xi = |e_pl - e0| / e_y with e_pl = -e_y; R = R0 (1 - cR1 xi / (cR2 + xi)). */
    const double er = 10.0 * S_EY, sr = hs_material_stress(m);
    const double e0 = (sr - S_E0 * er + S_FY - S_B * S_E0 * S_EY) / (S_B * S_E0 - S_E0);
    const double s0 = -S_FY + S_B * S_E0 * (e0 + S_EY);
    HS_ASSERT_NEAR(s0, sr + S_E0 * (e0 - er), 1e-9);
    const double xi = fabs(-S_EY - e0) / S_EY, R = 15.0 * (1.0 - 0.925 * xi / (0.15 + xi));
    const double eb[3] = {8.0 * S_EY, 6.0 * S_EY, -2.0 * S_EY};
    for (int i = 0; i < 3; i++) {
        go(m, eb[i]);
        double kt;
        const double s = mp_stress(eb[i], er, sr, e0, s0, R, &kt);
        HS_ASSERT_NEAR(hs_material_stress(m), s, 1e-12 * S_FY);
        HS_ASSERT_NEAR(hs_material_tangent(m), kt, 1e-9 * S_E0);
    }
    hs_material_destroy(&m);
}

static void test_steel02_cyclic(void **state)
{
    (void)state;
    /* Symmetric cycles of +-5 e_y: from the second cycle on the loop is steady and
     * point-symmetric (reversal stresses +-s_a), and it lies inside the bilinear loop with the
     * same asymptotes (area 4 fy (1 - b) (a - e_y)), close to it for R0 = 20, cR1 = cR2 = 0
     * (no R degradation): the corners are rounded over about e_y / 10. */
    hs_material *m = make(NULL, "steel02", "fy", S_FY, "E0", S_E0, "b", S_B, "R0", 20.0, "cR1", 0.0,
                          "cR2", 1.0, NULL);
    const double a = 5.0 * S_EY, bilinear = 4.0 * S_FY * (1.0 - S_B) * (a - S_EY);
    double area2, area3, smax, smin;
    steel_cycles(m, a, 500, 2, &area2, &smax, &smin);
    steel_cycles(m, a, 500, 1, &area3, &smax, &smin);
    HS_ASSERT_NEAR(area3, area2, 1e-9 * area2);
    HS_ASSERT_NEAR(smax, -smin, 1e-9 * smax);
    const double sa = 580.0 * a + (1.0 - S_B) * S_FY;
    assert_true(smax < sa && smax > sa - 0.01 * S_FY);
    assert_true(area3 < bilinear && area3 > 0.97 * bilinear);
    hs_material_destroy(&m);

    /* Default R degradation (R0 15, cR1 0.925, cR2 0.15): rounder loops, smaller area. */
    m = make(NULL, "steel02", "fy", S_FY, "E0", S_E0, "b", S_B, NULL);
    double area_d;
    steel_cycles(m, a, 500, 3, &area_d, &smax, &smin);
    assert_true(area_d < area3 && area_d > 0.5 * bilinear);
    hs_material_destroy(&m);
}

/* ---- elastic_pp_gap (OpenSees ElasticPPGap) ---- */

static void test_elastic_pp_gap(void **state)
{
    (void)state;
    /* E = 100, fy = 10, gap = 0.05: closed gap at 0.05, yield at 0.05 + fy / E = 0.15 */
    hs_material *m = make(NULL, "elastic_pp_gap", "E", 100.0, "fy", 10.0, "gap", 0.05, NULL);
    HS_ASSERT_NEAR(hs_material_initial_tangent(m), 0.0, 0);
    go(m, 0.03);
    HS_ASSERT_NEAR(hs_material_stress(m), 0.0, 0);
    HS_ASSERT_NEAR(hs_material_tangent(m), 0.0, 0);
    go(m, 0.1);
    HS_ASSERT_NEAR(hs_material_stress(m), 5.0, 1e-12);
    HS_ASSERT_NEAR(hs_material_tangent(m), 100.0, 0);
    go(m, 0.3); /* plastic plateau */
    HS_ASSERT_NEAR(hs_material_stress(m), 10.0, 1e-12);
    HS_ASSERT_NEAR(hs_material_tangent(m), 0.0, 0);
    /* unloading: the gap has grown to 0.3 - fy / E = 0.2 */
    go(m, 0.25);
    HS_ASSERT_NEAR(hs_material_stress(m), 5.0, 1e-12);
    go(m, 0.18);
    HS_ASSERT_NEAR(hs_material_stress(m), 0.0, 0);
    /* noDamage (OpenSees' rule): a committed strain inside the grown gap but beyond the initial
     * one closes the gap back to it, so the reload makes contact at 0.18, not 0.2 */
    go(m, 0.25);
    HS_ASSERT_NEAR(hs_material_stress(m), 7.0, 1e-12);
    go(m, 0.12);
    go(m, 0.15);
    HS_ASSERT_NEAR(hs_material_stress(m), 3.0, 1e-12);
    /* a strain below the initial gap leaves the gap as it was (0.12) ... */
    go(m, -1.0);
    go(m, 0.1);
    HS_ASSERT_NEAR(hs_material_stress(m), 0.0, 0);
    /* ... one inside it (0.06) closes it to there */
    go(m, 0.06);
    go(m, 0.1);
    HS_ASSERT_NEAR(hs_material_stress(m), 4.0, 1e-12);
    hs_material_destroy(&m);

    /* damage: the grown gap stays; eta = 0.1 hardens: fy + eta E (e - gap - fy / E) */
    m = make(NULL, "elastic_pp_gap", "E", 100.0, "fy", 10.0, "gap", 0.05, "eta", 0.1, NULL);
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "E", 100.0);
    hs_options_set_num(o, "fy", 10.0);
    hs_options_set_num(o, "gap", 0.05);
    hs_options_set_num(o, "eta", 0.1);
    hs_options_set_str(o, "damage", "damage");
    hs_material *d = NULL;
    assert_int_equal(hs_material_create(NULL, "elastic_pp_gap", o, &d), 0);
    hs_options_destroy(&o);
    go(m, 0.35);
    go(d, 0.35);
    HS_ASSERT_NEAR(hs_material_stress(d), 10.0 + 10.0 * 0.2, 1e-12);
    HS_ASSERT_NEAR(hs_material_tangent(d), 10.0, 1e-12);
    /* gap now 0.35 - 12 / 100 = 0.23 */
    go(m, 0.1);
    go(d, 0.1);
    go(m, 0.2);
    go(d, 0.2);
    HS_ASSERT_NEAR(hs_material_stress(d), 0.0, 0);
    /* without damage the gap closed back to 0.1 (and the yield point to 0.1 + fy/E + 0.05 eta
     * / (1 - eta) ... (0.1 - eta gap) / (1 - eta) + fy / E) */
    HS_ASSERT_NEAR(hs_material_stress(m), 10.0, 1e-12);
    go(d, 0.25);
    HS_ASSERT_NEAR(hs_material_stress(d), 100.0 * (0.25 - 0.23), 1e-12);
    hs_material_destroy(&d);
    hs_material_destroy(&m);

    /* compression: fy = -10, gap = -0.05, the mirror image */
    m = make(NULL, "elastic_pp_gap", "E", 100.0, "fy", -10.0, "gap", -0.05, NULL);
    go(m, 0.5);
    HS_ASSERT_NEAR(hs_material_stress(m), 0.0, 0);
    go(m, -0.1);
    HS_ASSERT_NEAR(hs_material_stress(m), -5.0, 1e-12);
    go(m, -0.3);
    HS_ASSERT_NEAR(hs_material_stress(m), -10.0, 1e-12);
    go(m, -0.25);
    HS_ASSERT_NEAR(hs_material_stress(m), -5.0, 1e-12);
    hs_material_destroy(&m);
}

static void test_steel_validation(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "fy", 50.0);
    hs_options_set_num(o, "E0", 29000.0);
    hs_options_set_num(o, "b", 1.0);
    hs_material *m = NULL;
    assert_int_equal(hs_material_create(ctx, "steel01", o, &m), HS_EINPUT);
    assert_string_equal(hs_ctx_message(ctx), "steel01: b must be in [0, 1) (got 1)");
    hs_options_set_num(o, "b", 0.01);
    hs_options_set_num(o, "cR1", 1.5);
    assert_int_equal(hs_material_create(ctx, "steel02", o, &m), HS_EINPUT);
    assert_string_equal(hs_ctx_message(ctx), "steel02: cR1 must be in [0, 1) (got 1.5)");
    hs_options_destroy(&o);
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "E", 1.0);
    hs_options_set_num(o, "fy", 1.0);
    hs_options_set_num(o, "gap", -0.1);
    assert_int_equal(hs_material_create(ctx, "elastic_pp_gap", o, &m), HS_EINPUT);
    assert_string_equal(hs_ctx_message(ctx),
                        "elastic_pp_gap: gap must have the sign of fy (or be 0) (got -0.1)");
    hs_options_set_num(o, "gap", 0.1);
    hs_options_set_str(o, "damage", "yes");
    assert_int_equal(hs_material_create(ctx, "elastic_pp_gap", o, &m), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "\"noDamage\" or \"damage\""));
    /* E = 0 is OpenSees' |fy| / 0.002 */
    hs_options_set_str(o, "damage", "noDamage");
    hs_options_set_num(o, "E", 0.0);
    hs_options_set_num(o, "gap", 0.0);
    assert_int_equal(hs_material_create(ctx, "elastic_pp_gap", o, &m), 0);
    HS_ASSERT_NEAR(hs_material_initial_tangent(m), 500.0, 1e-12);
    hs_material_destroy(&m);
    hs_options_destroy(&o);
    hs_ctx_destroy(&ctx);
}

/* OpenSees' Elastic with eta and Eneg: k e + eta v for e >= 0, Eneg e + eta v below. */
static void test_elastic_eta_eneg(void **state)
{
    (void)state;
    hs_material *m = make(NULL, "elastic", "k", 2.5, "eta", 0.3, "Eneg", 1.0, NULL);
    assert_int_equal(hs_material_set_trial(m, -0.4, 3.0), 0);
    HS_ASSERT_NEAR(hs_material_stress(m), -0.4 + 0.9, 1e-15);
    HS_ASSERT_NEAR(hs_material_tangent(m), 1.0, 0);
    HS_ASSERT_NEAR(hs_material_rate_tangent(m), 0.3, 0);
    assert_int_equal(hs_material_set_trial(m, 0.4, -1.0), 0);
    HS_ASSERT_NEAR(hs_material_stress(m), 1.0 - 0.3, 1e-15);
    HS_ASSERT_NEAR(hs_material_tangent(m), 2.5, 0);
    HS_ASSERT_NEAR(hs_material_initial_tangent(m), 2.5, 0);
    assert_false(hs_material_is_linear(m));
    assert_true(hs_material_is_rate_dependent(m));
    hs_material_destroy(&m);
}

/* E = 100, epsyP = 0.1, epsyN = -0.05: elastic range of 0.15 in strain that moves with the
 * plastic strain; eps0 shifts the origin. */
static void test_elastic_pp(void **state)
{
    (void)state;
    hs_material *m = make(NULL, "elastic_pp", "E", 100.0, "epsyP", 0.1, "epsyN", -0.05, NULL);
    go(m, 0.05);
    HS_ASSERT_NEAR(hs_material_stress(m), 5.0, 1e-13);
    HS_ASSERT_NEAR(hs_material_tangent(m), 100.0, 0);
    go(m, 0.2); /* yields at 0.1: plastic strain 0.1 */
    HS_ASSERT_NEAR(hs_material_stress(m), 10.0, 0);
    HS_ASSERT_NEAR(hs_material_tangent(m), 0.0, 0);
    go(m, 0.15);
    HS_ASSERT_NEAR(hs_material_stress(m), 5.0, 1e-13);
    go(m, 0.0); /* compression yield at 0.1 - 0.05 = 0.05: plastic strain 0.05 */
    HS_ASSERT_NEAR(hs_material_stress(m), -5.0, 0);
    HS_ASSERT_NEAR(hs_material_tangent(m), 0.0, 0);
    go(m, 0.1);
    HS_ASSERT_NEAR(hs_material_stress(m), 5.0, 1e-13);
    HS_ASSERT_NEAR(hs_material_tangent(m), 100.0, 0);
    hs_material_destroy(&m);
    m = make(NULL, "elastic_pp", "E", 100.0, "epsyP", 0.1, "eps0", 0.02, NULL);
    go(m, 0.07);
    HS_ASSERT_NEAR(hs_material_stress(m), 5.0, 1e-13);
    go(m, -0.2); /* epsyN defaults to -epsyP */
    HS_ASSERT_NEAR(hs_material_stress(m), -10.0, 0);
    hs_material_destroy(&m);
}

/* fpc = -4, epsc0 = -0.002, fpcu = -0.8, epscu = -0.006 (Ec0 = 4000): the Kent-Scott-Park
 * envelope, the Karsan-Jirsa unloading from e_min = 2 epsc0 (zero stress at 0.834 epsc0), no
 * tension, and reloading along the unloading line back to the envelope. */
static void test_concrete01(void **state)
{
    (void)state;
    hs_material *m =
        make(NULL, "concrete01", "fpc", -4.0, "epsc0", -0.002, "fpcu", -0.8, "epscu", -0.006, NULL);
    HS_ASSERT_NEAR(hs_material_initial_tangent(m), 4000.0, 1e-9);
    go(m, -0.001); /* x = 0.5: fpc (2 x - x^2) = 0.75 fpc */
    HS_ASSERT_NEAR(hs_material_stress(m), -3.0, 1e-12);
    HS_ASSERT_NEAR(hs_material_tangent(m), 2000.0, 1e-9);
    go(m, -0.002);
    HS_ASSERT_NEAR(hs_material_stress(m), -4.0, 1e-12);
    go(m, -0.004); /* linear descent of slope -3.2 / 0.004 = -800 */
    HS_ASSERT_NEAR(hs_material_stress(m), -2.4, 1e-12);
    HS_ASSERT_NEAR(hs_material_tangent(m), -800.0, 1e-9);
    const double e_end = 0.834 * -0.002, Eu = -2.4 / (-0.004 - e_end);
    go(m, -0.003);
    HS_ASSERT_NEAR(hs_material_stress(m), Eu * (-0.003 - e_end), 1e-12);
    HS_ASSERT_NEAR(hs_material_tangent(m), Eu, 1e-9);
    go(m, -0.001); /* past the zero-stress strain */
    HS_ASSERT_NEAR(hs_material_stress(m), 0.0, 0);
    go(m, 0.001); /* no tension */
    HS_ASSERT_NEAR(hs_material_stress(m), 0.0, 0);
    HS_ASSERT_NEAR(hs_material_tangent(m), 0.0, 0);
    go(m, -0.0035); /* reloading along the unloading line */
    HS_ASSERT_NEAR(hs_material_stress(m), Eu * (-0.0035 - e_end), 1e-12);
    go(m, -0.005);
    HS_ASSERT_NEAR(hs_material_stress(m), -4.0 + 800.0 * 0.003, 1e-12);
    go(m, -0.008);
    HS_ASSERT_NEAR(hs_material_stress(m), -0.8, 0);
    HS_ASSERT_NEAR(hs_material_tangent(m), 0.0, 0);
    hs_material_destroy(&m);
    /* positive numbers are taken as their negatives (as OpenSees) */
    m = make(NULL, "concrete01", "fpc", 4.0, "epsc0", 0.002, "fpcu", 0.8, "epscu", 0.006, NULL);
    go(m, -0.001);
    HS_ASSERT_NEAR(hs_material_stress(m), -3.0, 1e-12);
    hs_material_destroy(&m);
}

/* fc = -4, epsc0 = -0.002, fcu = -0.8, epscu = -0.006, lambda = 0.1, ft = 0.4, Ets = 400:
 * the tension envelope (linear to ft at ft / Ec0 = 1e-4, softening to zero at 0.0011); after
 * crushing to -0.004 the unloading aims at (e_r, Ec0 e_r), e_r = 1.6 / 3600, and is bounded by
 * half its slope through the zero-stress strain e_t; beyond e_t, the tension envelope from e_t. */
static void test_concrete02(void **state)
{
    (void)state;
    hs_material *m = make(NULL, "concrete02", "fc", -4.0, "epsc0", -0.002, "fcu", -0.8, "epscu",
                          -0.006, "lambda", 0.1, "ft", 0.4, "Ets", 400.0, NULL);
    go(m, 5e-5);
    HS_ASSERT_NEAR(hs_material_stress(m), 0.2, 1e-13);
    HS_ASSERT_NEAR(hs_material_tangent(m), 4000.0, 1e-9);
    go(m, 3e-4);
    HS_ASSERT_NEAR(hs_material_stress(m), 0.4 - 400.0 * 2e-4, 1e-13);
    HS_ASSERT_NEAR(hs_material_tangent(m), -400.0, 0);
    go(m, 0.002);
    HS_ASSERT_NEAR(hs_material_stress(m), 0.0, 0);
    hs_material_destroy(&m);
    m = make(NULL, "concrete02", "fc", -4.0, "epsc0", -0.002, "fcu", -0.8, "epscu", -0.006,
             "lambda", 0.1, "ft", 0.4, "Ets", 400.0, NULL);
    go(m, -0.001);
    HS_ASSERT_NEAR(hs_material_stress(m), -3.0, 1e-12);
    go(m, -0.004);
    HS_ASSERT_NEAR(hs_material_stress(m), -2.4, 1e-12);
    const double e_r = 1.6 / 3600.0, E_r = (-2.4 - 4000.0 * e_r) / (-0.004 - e_r);
    const double e_t = -0.004 + 2.4 / E_r;
    go(m, -0.0039); /* elastic unloading inside the bounds */
    HS_ASSERT_NEAR(hs_material_stress(m), -2.0, 1e-12);
    HS_ASSERT_NEAR(hs_material_tangent(m), 4000.0, 1e-9);
    go(m, -0.003); /* on the upper bound E_r / 2 (e - e_t) */
    HS_ASSERT_NEAR(hs_material_stress(m), 0.5 * E_r * (-0.003 - e_t), 1e-12);
    HS_ASSERT_NEAR(hs_material_tangent(m), 0.5 * E_r, 1e-9);
    go(m, -0.001); /* beyond e_t: tension envelope of e - e_t, softening */
    HS_ASSERT_NEAR(hs_material_stress(m), 0.4 - 400.0 * (-0.001 - e_t - 1e-4), 1e-12);
    go(m, -0.0012); /* back along the secant to the largest tensile excursion */
    const double s_x = 0.4 - 400.0 * (-0.001 - e_t - 1e-4);
    HS_ASSERT_NEAR(hs_material_stress(m), s_x / (-0.001 - e_t) * (-0.0012 - e_t), 1e-12);
    hs_material_destroy(&m);
}

/* Hysteretic with two-point backbones (1 at 0.1, 1.5 at 0.6: the middle point halfway), no
 * pinching, damage or degradation: unloading with the largest backbone slope (10), reloading
 * straight to the extreme point reached on the other side (peak-oriented). */
static void test_hysteretic(void **state)
{
    (void)state;
    hs_material *m = make(NULL, "hysteretic", "s1p", 1.0, "e1p", 0.1, "s2p", 1.5, "e2p", 0.6, "s1n",
                          -1.0, "e1n", -0.1, "s2n", -1.5, "e2n", -0.6, "pinchX", 1.0, "pinchY", 1.0,
                          "damage1", 0.0, "damage2", 0.0, NULL);
    go(m, 0.05);
    HS_ASSERT_NEAR(hs_material_stress(m), 0.5, 1e-14);
    go(m, 0.3);
    HS_ASSERT_NEAR(hs_material_stress(m), 1.2, 1e-14);
    HS_ASSERT_NEAR(hs_material_tangent(m), 1.0, 1e-13);
    go(m, 0.25);
    HS_ASSERT_NEAR(hs_material_stress(m), 0.7, 1e-14);
    HS_ASSERT_NEAR(hs_material_tangent(m), 10.0, 1e-13);
    /* from the zero-force strain 0.18 straight to the first yield point (-0.1, -1) */
    go(m, -0.05);
    HS_ASSERT_NEAR(hs_material_stress(m), -(0.18 + 0.05) / 0.28, 1e-13);
    const double s_c = hs_material_stress(m), e_nu = -0.05 - s_c / 10.0;
    /* from its zero-force strain to the extreme point (0.3, 1.2) */
    go(m, 0.1);
    HS_ASSERT_NEAR(hs_material_stress(m), 1.2 * (0.1 - e_nu) / (0.3 - e_nu), 1e-13);
    go(m, 0.4); /* back on the backbone */
    HS_ASSERT_NEAR(hs_material_stress(m), 1.3, 1e-13);
    go(m, -0.8); /* beyond the last point: the last slope goes on */
    HS_ASSERT_NEAR(hs_material_stress(m), -1.7, 1e-13);
    hs_material_destroy(&m);
}

/* ---- conformance: every registered material ---- */

/* Parameters for each registered type (a new material must add its line). */
static hs_material *make_sample(const char *type)
{
    if (!strcmp(type, "elastic")) return make(NULL, type, "k", 2.0, NULL);
    if (!strcmp(type, "bilinear")) return make(NULL, type, "k", 10.0, "fy", 1.0, "b", 0.1, NULL);
    if (!strcmp(type, "bouc_wen")) return bw_degrading();
    if (!strcmp(type, "viscous")) return make(NULL, type, "c", 1.0, "alpha", 0.5, NULL);
    if (!strcmp(type, "steel01"))
        return make(NULL, type, "fy", 1.0, "E0", 10.0, "b", 0.05, "a1", 0.05, "a2", 2.0, "a3", 0.04,
                    "a4", 3.0, NULL);
    if (!strcmp(type, "steel02"))
        return make(NULL, type, "fy", 1.0, "E0", 10.0, "b", 0.05, "a1", 0.05, "a2", 2.0, "a3", 0.04,
                    "a4", 3.0, "sig_init", 0.2, NULL);
    if (!strcmp(type, "elastic_pp_gap"))
        return make(NULL, type, "E", 10.0, "fy", 1.0, "gap", 0.05, "eta", 0.05, NULL);
    if (!strcmp(type, "elastic_pp"))
        return make(NULL, type, "E", 10.0, "epsyP", 0.1, "epsyN", -0.08, "eps0", 0.01, NULL);
    /* (crushing strains beyond the history's 0.5, so no flat 1e-10 tangent is met) */
    if (!strcmp(type, "concrete01"))
        return make(NULL, type, "fpc", -1.0, "epsc0", -0.1, "fpcu", -0.2, "epscu", -0.6, NULL);
    if (!strcmp(type, "concrete_w_beta"))
        return make(NULL, type, "fpc", -4.0, "ec0", -0.002, "fcint", -0.04, "ecint", -0.004,
                    "fcres", 0.0, "ecres", -0.02, "ft", 0.4, "ftint", 0.004, "etint", 0.0004,
                    "ftres", 0.0, "etres", 0.01, NULL);
    if (!strcmp(type, "concrete02"))
        return make(NULL, type, "fc", -1.0, "epsc0", -0.1, "fcu", -0.2, "epscu", -0.6, "lambda",
                    0.1, "ft", 0.2, "Ets", 0.2, NULL);
    if (!strcmp(type, "hysteretic"))
        return make(NULL, type, "s1p", 1.0, "e1p", 0.1, "s2p", 1.3, "e2p", 0.3, "s3p", 1.4, "e3p",
                    0.6, "s1n", -0.9, "e1n", -0.1, "s2n", -1.2, "e2n", -0.3, "s3n", -1.3, "e3n",
                    -0.7, "pinchX", 0.8, "pinchY", 0.3, "damage1", 0.01, "damage2", 0.02, "beta",
                    0.3, NULL);
    if (!strcmp(type, "elastic_bilin"))
        return make(NULL, type, "E1p", 10.0, "E2p", 2.0, "eps2p", 0.1, "E1n", 10.0, "E2n", -1.0,
                    "eps2n", -0.2, NULL);
    if (!strcmp(type, "hysteretic_poly"))
        return make(NULL, type, "ka", 10.0, "kb", 1.0, "a", 3.0, "b1", 2.0, "b2", -1.0, "tol", 1e-6,
                    NULL);
    if (!strcmp(type, "hysteretic_smooth"))
        return make(NULL, type, "ka", 10.0, "kb", 1.0, "fbar", 0.5, "beta", 0.8, NULL);
    if (!strcmp(type, "hysteretic_asym"))
        return make(NULL, type, "ka", 10.0, "kb", 1.0, "alpha", 8.0, "b1", 1.2, "b2", 0.7, "gamma",
                    0.4, NULL);
    if (!strcmp(type, "ratchet"))
        return make(NULL, type, "E", 10.0, "freeTravel", 0.07, "freeTravelInitial", 0.03, "RatType",
                    1.0, NULL);
    if (!strcmp(type, "steel_brb"))
        return make(NULL, type, "E", 10.0, "sigmaY0", 0.8, "sigmaY_T", 1.2, "alpha_T", 3.0,
                    "beta_T", 0.02, "delta_T", 0.5, "sigmaY_C", 1.4, "alpha_C", 2.5, "beta_C", 0.03,
                    "delta_C", 0.8, NULL);
    if (!strcmp(type, "bwbn"))
        return make(NULL, type, "alpha", 0.05, "ko", 10.0, "n", 2.0, "gamma", 0.4, "beta", 0.6,
                    "Ao", 1.0, "q", 0.3, "zetas", 0.8, "p", 1.0, "Shi", 0.3, "deltaShi", 0.01,
                    "lamda", 0.2, "tolerance", 1e-12, "maxNumIter", 50.0, NULL);
    if (!strcmp(type, "bouc_wen_infill"))
        return make(NULL, type, "mass", 2.0, "alpha", 0.05, "beta0", 0.5, "eta0", 0.2, "n", 1.5,
                    "k", 10.0, "xy", 0.1, "deltak", 0.01, "deltaf", 0.005, "psi", 0.2, "Zs", 0.2,
                    "As", 0.2, "epsp", 0.5, "tolerance", 1e-13, "maxNumIter", 50.0, NULL);
    if (!strcmp(type, "bearing_plasticity"))
        return make(NULL, type, "k_init", 10.0, "q_yield", 0.5, "alpha1", 0.1, "alpha2", 0.02, "mu",
                    2.5, NULL);
    fprintf(stderr, "no sample parameters for material '%s' in test_conformance\n", type);
    fail();
    return NULL;
}

/* For each registered material, along a growing sine history (amplitude up to 0.5, yield of the
 * samples near 0.1): the tangent equals the central difference of the trial stress (rate
 * tangent for rate-dependent ones), revert restores the committed stress bit for bit, a trial at
 * the committed strain is the committed state, and a copy loaded from state_save continues
 * bit for bit; nothing is allocated after creation. */
static void test_conformance(void **state)
{
    (void)state;
    for (size_t k = 0; k < hs_material_registry_count(); k++) {
        const char *type = hs_material_registry_get(k)->name;
        hs_material *m = make_sample(type), *c = make_sample(type);
        const int rate = hs_material_is_rate_dependent(m);
        const size_t n = hs_material_state_size(m);
        double st[32];
        assert_true(n <= 32);
        int checked = 0;
        const uint64_t allocs = hs_alloc_count();
        for (int i = 1; i <= 200; i++) {
            const double e = 0.5 * (i / 200.0) * sin(2 * PI * i / 40.0);
            const double v = 0.5 * (i / 200.0) * cos(2 * PI * i / 40.0 + 0.3); /* v != 0 */
            if (i % 7 == 3) {
                const double s_c = hs_material_stress(m), t_c = hs_material_tangent(m);
                const double e_c = hs_material_strain(m);
                if (rate) {
                    const double h = 1e-7;
                    assert_int_equal(hs_material_set_trial(m, e, v + h), 0);
                    const double sp = hs_material_stress(m);
                    assert_int_equal(hs_material_set_trial(m, e, v - h), 0);
                    const double sm = hs_material_stress(m);
                    assert_int_equal(hs_material_set_trial(m, e, v), 0);
                    const double fd = (sp - sm) / (2 * h), kt = hs_material_rate_tangent(m);
                    assert_true(fabs(kt - fd) <= 1e-6 * fmax(fabs(fd), 1e-12));
                } else {
                    check_tangent_fd(m, e);
                }
                checked++;
                /* (elastic keeps no state: its revert is a no-op) */
                assert_int_equal(hs_material_revert(m), 0);
                if (n > 0) {
                    assert_true(hs_material_stress(m) == s_c);
                    assert_true(hs_material_strain(m) == e_c);
                }
                if (!rate) {
                    assert_int_equal(hs_material_set_trial(m, e_c, 0.0), 0);
                    assert_true(hs_material_stress(m) == s_c);
                    assert_true(hs_material_tangent(m) == t_c);
                }
            }
            assert_int_equal(hs_material_set_trial(m, e, v), 0);
            assert_int_equal(hs_material_commit(m), 0);
            if (i == 100) {
                assert_int_equal(hs_material_state_save(m, st), 0);
                assert_int_equal(hs_material_state_load(c, st), 0);
                if (n > 0) assert_true(hs_material_stress(c) == hs_material_stress(m));
            }
            if (i > 100) {
                assert_int_equal(hs_material_set_trial(c, e, v), 0);
                assert_int_equal(hs_material_commit(c), 0);
                assert_true(hs_material_stress(c) == hs_material_stress(m));
                assert_true(hs_material_tangent(c) == hs_material_tangent(m));
            }
        }
        assert_true(hs_alloc_count() == allocs);
        assert_int_equal(checked, 29);
        /* reset is the virgin state: same response as a new material */
        assert_int_equal(hs_material_reset(m), 0);
        hs_material *f = make_sample(type);
        for (int i = 1; i <= 20; i++) {
            const double e = 0.3 * sin(0.4 * i), v = 0.12 * cos(0.4 * i);
            assert_int_equal(hs_material_set_trial(m, e, v), 0);
            assert_int_equal(hs_material_set_trial(f, e, v), 0);
            assert_true(hs_material_stress(f) == hs_material_stress(m));
            assert_int_equal(hs_material_commit(m), 0);
            assert_int_equal(hs_material_commit(f), 0);
        }
        hs_material_destroy(&f);
        hs_material_destroy(&c);
        hs_material_destroy(&m);
    }
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
        cmocka_unit_test(test_steel01_monotonic),
        cmocka_unit_test(test_steel01_cyclic),
        cmocka_unit_test(test_steel02_curve),
        cmocka_unit_test(test_steel02_cyclic),
        cmocka_unit_test(test_elastic_pp_gap),
        cmocka_unit_test(test_steel_validation),
        cmocka_unit_test(test_elastic_eta_eneg),
        cmocka_unit_test(test_elastic_pp),
        cmocka_unit_test(test_concrete01),
        cmocka_unit_test(test_concrete02),
        cmocka_unit_test(test_hysteretic),
        cmocka_unit_test(test_conformance),
    };
    return cmocka_run_group_tests_name("materials", tests, NULL, NULL);
}
