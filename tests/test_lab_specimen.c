/* Virtual lab, specimens and the lab: forces against closed forms (K x, Tp^T P Tp, plasticity
 * with degradation, the MR damper's energy balance and high-velocity asymptote, relaxation
 * exponentials), perfect mode, state, no allocation in ticks. */
#include "hs_test.h"

#include "hysim/lab.h"
#include "hysim/material.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

static hs_ctx *g_ctx; /* outlives every specimen made by make() */

static hs_specimen *make(const char *type, int n, const hs_options *o)
{
    hs_specimen *s = NULL;
    int rc = hs_specimen_create(g_ctx, type, n, o, &s);
    if (rc) print_error("%s: %s\n", type, hs_ctx_message(g_ctx));
    assert_int_equal(rc, 0);
    return s;
}

/* ---------------------------------------------------------------- linear, intrinsic, material */

static void test_linear_coupled(void **state)
{
    (void)state;
    const double K[9] = {3, -1, 0.5, -2, 5, -1.5, 0.25, -0.75, 4}; /* row by row, not symmetric */
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_list(o, "K", K, 9);
    hs_specimen *s = NULL;
    assert_int_equal(hs_specimen_create(NULL, "linear", 3, o, &s), 0);
    const double xs[3][3] = {{1, 0, 0}, {0.3, -0.7, 1.1}, {-2, 4, 0.5}};
    for (int c = 0; c < 3; c++) {
        assert_int_equal(hs_specimen_set_trial(s, 0.01 * (c + 1), xs[c]), 0);
        const double *f = hs_specimen_force(s);
        for (int i = 0; i < 3; i++)
            HS_ASSERT_NEAR(f[i],
                           K[3 * i] * xs[c][0] + K[3 * i + 1] * xs[c][1] + K[3 * i + 2] * xs[c][2],
                           1e-14);
        assert_int_equal(hs_specimen_commit(s), 0);
    }
    double Ki[9];
    assert_int_equal(hs_specimen_initial_stiffness(s, Ki), 0);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) assert_true(Ki[j * 3 + i] == K[3 * i + j]);
    hs_specimen_destroy(&s);
    assert_null(s);
    hs_options_set_list(o, "K", K, 8);
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    assert_int_equal(hs_specimen_create(ctx, "linear", 3, o, &s), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "K has 8 values"));
    hs_ctx_destroy(&ctx);
    hs_options_destroy(&o);
}

/* Shear building of 3 stories in intrinsic coordinates (story drifts, Mosqueda & Ahmadizadeh 2008b,
 * eq. 5.3): K = Tp^T diag(k) Tp = [k1+k2, -k2, 0; -k2, k2+k3, -k3; 0, -k3, k3]. */
static void test_intrinsic_shear_building(void **state)
{
    (void)state;
    const double T[9] = {1, 0, 0, -1, 1, 0, 0, -1, 1};
    const double k[3] = {40, 25, 10};
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_list(o, "Tp", T, 9);
    hs_options_set_num(o, "p", 3);
    hs_options_set_str(o, "material", "elastic");
    hs_options_set_list(o, "k", k, 3);
    hs_specimen *s = make("intrinsic", 3, o);
    const double Kx[9] = {k[0] + k[1], -k[1], 0, -k[1], k[1] + k[2], -k[2], 0, -k[2], k[2]};
    double Ki[9];
    assert_int_equal(hs_specimen_initial_stiffness(s, Ki), 0);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) HS_ASSERT_NEAR(Ki[j * 3 + i], Kx[3 * i + j], 1e-13);
    const double x[3] = {0.2, 0.5, -0.3};
    assert_int_equal(hs_specimen_set_trial(s, 0.1, x), 0);
    const double *f = hs_specimen_force(s);
    for (int i = 0; i < 3; i++)
        HS_ASSERT_NEAR(f[i], Kx[3 * i] * x[0] + Kx[3 * i + 1] * x[1] + Kx[3 * i + 2] * x[2], 1e-13);
    hs_specimen_destroy(&s);

    /* two actuators reading two intrinsic DOFs, Tp = [1 1; 1 -1]:
     * K = [ka + kb, ka - kb; ka - kb, ka + kb] */
    const double T2[4] = {1, 1, 1, -1};
    hs_options_set_list(o, "Tp", T2, 4);
    hs_options_set_num(o, "p", 2);
    hs_options_set_list(o, "k", k, 2);
    s = make("intrinsic", 2, o);
    assert_int_equal(hs_specimen_initial_stiffness(s, Ki), 0);
    HS_ASSERT_NEAR(Ki[0], k[0] + k[1], 1e-13);
    HS_ASSERT_NEAR(Ki[1], k[0] - k[1], 1e-13);
    HS_ASSERT_NEAR(Ki[2], k[0] - k[1], 1e-13);
    HS_ASSERT_NEAR(Ki[3], k[0] + k[1], 1e-13);
    hs_specimen_destroy(&s);
    hs_options_destroy(&o);
}

static void test_material_per_actuator(void **state)
{
    (void)state;
    const double k[2] = {2, 5};
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_str(o, "material", "elastic");
    hs_options_set_list(o, "k", k, 2);
    hs_specimen *s = make("material", 2, o);
    const double x[2] = {0.3, -0.4};
    assert_int_equal(hs_specimen_set_trial(s, 0.5, x), 0);
    HS_ASSERT_NEAR(hs_specimen_force(s)[0], 0.6, 1e-15);
    HS_ASSERT_NEAR(hs_specimen_force(s)[1], -2.0, 1e-15);
    hs_specimen_destroy(&s);
    hs_options_destroy(&o);

    if (!hs_material_registry_find("bouc_wen")) {
        print_message("bouc_wen not registered: skipping its part\n");
        return;
    }
    /* Bouc-Wen per actuator: the initial stiffness is k0; a tiny displacement gives k0 x */
    hs_options_create(&o);
    hs_options_set_str(o, "material", "bouc_wen");
    hs_options_set_num(o, "alpha", 0.1);
    hs_options_set_num(o, "k0", 2.8);
    hs_options_set_num(o, "n", 2);
    hs_options_set_num(o, "gamma", 0.5);
    hs_options_set_num(o, "beta", 0.5);
    hs_options_set_num(o, "delta_nu", 0.05);
    s = make("material", 1, o);
    double K = 0;
    assert_int_equal(hs_specimen_initial_stiffness(s, &K), 0);
    HS_ASSERT_NEAR(K, 2.8, 1e-12);
    const double xs = 1e-6;
    assert_int_equal(hs_specimen_set_trial(s, 0.001, &xs), 0);
    HS_ASSERT_NEAR(hs_specimen_force(s)[0] / xs, 2.8, 1e-4);
    hs_specimen_destroy(&s);
    hs_options_destroy(&o);
}

/* ---------------------------------------------------------------- bilinear_degrading */

/* Drives one channel along a straight segment in steps of at most 0.01, committing each. */
static double drive(hs_specimen *s, double *t, double *x, double to)
{
    const int n = (int)ceil(fabs(to - *x) / 0.01);
    const double x0 = *x;
    for (int i = 1; i <= n; i++) {
        *x = x0 + (to - x0) * i / n;
        *t += 0.01;
        assert_int_equal(hs_specimen_set_trial(s, *t, x), 0);
        assert_int_equal(hs_specimen_commit(s), 0);
    }
    return hs_specimen_force(s)[0];
}

static void test_bilinear_degrading(void **state)
{
    (void)state;
    /* k 10, fy 5 (uy 0.5), elastic-perfectly plastic, excursion rule d = 0.1, r_min 0.5:
     * the j-th excursion yields at 5 (0.9)^(j - 1), never below 2.5 */
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_num(o, "k", 10);
    hs_options_set_num(o, "fy", 5);
    hs_options_set_num(o, "d", 0.1);
    hs_options_set_num(o, "r_min", 0.5);
    hs_specimen *s = make("bilinear_degrading", 1, o);
    double t = 0, x = 0;
    HS_ASSERT_NEAR(drive(s, &t, &x, 0.3), 3.0, 1e-12); /* elastic */
    HS_ASSERT_NEAR(drive(s, &t, &x, 1.5), 5.0, 1e-12);
    HS_ASSERT_NEAR(drive(s, &t, &x, 1.25), 2.5, 1e-12); /* elastic unloading, slope k */
    HS_ASSERT_NEAR(drive(s, &t, &x, 1.5), 5.0, 1e-12);  /* same side: same excursion level */
    HS_ASSERT_NEAR(drive(s, &t, &x, -1.5), -4.5, 1e-12);
    HS_ASSERT_NEAR(drive(s, &t, &x, 1.5), 4.05, 1e-12);
    HS_ASSERT_NEAR(drive(s, &t, &x, -1.5), -5 * pow(0.9, 3), 1e-12);
    for (int c = 0; c < 5; c++) {
        drive(s, &t, &x, 1.5);
        drive(s, &t, &x, -1.5);
    }
    HS_ASSERT_NEAR(drive(s, &t, &x, 1.5), 2.5, 1e-12); /* floor r_min fy */
    hs_specimen_destroy(&s);

    /* b = 0.1: post-yield slope b k on monotonic loading: f = fy + b k (x - uy) */
    hs_options_set_num(o, "b", 0.1);
    s = make("bilinear_degrading", 1, o);
    t = x = 0;
    HS_ASSERT_NEAR(drive(s, &t, &x, 1.5), 5.0 + 1.0 * (1.5 - 0.5), 1e-12);
    hs_specimen_destroy(&s);

    /* cumulative rule, b = 0, beta = 0.1: fy(ep) = 5 - beta k ep = 5 - ep until the floor;
     * monotonic: f = k (x - ep) = 5 - ep -> ep = (k x - fy) / (k - beta k) */
    hs_options_set_num(o, "b", 0.0);
    hs_options_set_str(o, "rule", "cumulative");
    hs_options_set_num(o, "beta", 0.1);
    s = make("bilinear_degrading", 1, o);
    t = x = 0;
    const double ep = (10 * 1.5 - 5) / 9.0;
    HS_ASSERT_NEAR(drive(s, &t, &x, 1.5), 5.0 - ep, 1e-12);
    HS_ASSERT_NEAR(drive(s, &t, &x, 4.0), 2.5, 1e-12); /* ep > (1 - r_min) uy / beta = 2.5 */
    /* isotropic, b = 0: the elastic range is now [-2.5, 2.5], 0.5 wide in displacement */
    HS_ASSERT_NEAR(drive(s, &t, &x, 3.75), 0.0, 1e-12);
    HS_ASSERT_NEAR(drive(s, &t, &x, 3.6), -1.5, 1e-12);
    HS_ASSERT_NEAR(drive(s, &t, &x, 0.0), -2.5, 1e-12);
    hs_specimen_destroy(&s);
    hs_options_destroy(&o);
}

/* ---------------------------------------------------------------- MR damper */

/* Published parameters (N, cm, s, V), as in the model's defaults. */
typedef struct mrp {
    double c0a, c0b, k0, c1a, c1b, k1, x0, aa, ab, g, b, A;
} mrp;
static const mrp MR = {21.0, 3.50, 46.9, 283, 2.95, 5.00, 14.3, 140, 695, 363, 363, 301};

/* Runs steady sine cycles x = X sin(w t) at `rate`; returns the peak |F| and, over the last
 * cycle, the loop area (trapezoids of F dx) and the dissipation
 * int (c0 (xd - yd)^2 + c1 yd^2 + alpha z (xd - yd)) dt from the model's states: the stored
 * energies k0 (x - y)^2 / 2 and k1 (x - x0)^2 / 2 return to their values over a cycle. */
static void mr_loop(double volt, double X, double f, double rate, double *peak, double *area,
                    double *diss)
{
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_num(o, "voltage", volt);
    hs_specimen *s = make("mr_damper", 1, o);
    hs_options_destroy(&o);
    const double w = 2 * PI * f, h = 1.0 / rate;
    const int N = (int)lround(rate / f), cycles = 3;
    double st[6];
    assert_int_equal(hs_specimen_state_size(s), 6);
    *peak = *area = *diss = 0;
    double xprev = 0, Fprev = 0, Dprev = 0;
    const uint64_t before = hs_alloc_count();
    for (int k = 1; k <= cycles * N; k++) {
        const double x = X * sin(w * k * h);
        assert_int_equal(hs_specimen_set_trial(s, k * h, &x), 0);
        assert_int_equal(hs_specimen_commit(s), 0);
        const double F = hs_specimen_force(s)[0];
        hs_specimen_state_save(s, st); /* t, x, y, z, u, v */
        const double y = st[2], z = st[3], u = st[4];
        const double xd = (x - xprev) / h; /* the model's step velocity */
        const double al = MR.aa + MR.ab * u, c0 = MR.c0a + MR.c0b * u, c1 = MR.c1a + MR.c1b * u;
        const double yd = (al * z + c0 * xd + MR.k0 * (x - y)) / (c0 + c1);
        HS_ASSERT_NEAR(F, c1 * yd + MR.k1 * (x - MR.x0), 1e-9 * (1 + fabs(F)));
        const double D = c0 * (xd - yd) * (xd - yd) + c1 * yd * yd + al * z * (xd - yd);
        if (k > (cycles - 1) * N) {
            *area += 0.5 * (F + Fprev) * (x - xprev);
            *diss += 0.5 * (D + Dprev) * h;
        }
        if (k > N && fabs(F) > *peak) *peak = fabs(F);
        xprev = x;
        Fprev = F;
        Dprev = D;
    }
    assert_true(hs_alloc_count() == before);
    hs_specimen_destroy(&s);
}

static void test_mr_damper_loops(void **state)
{
    (void)state;
    const double volts[5] = {0, 0.5, 1.0, 1.5, 2.25};
    double last = 0;
    for (int i = 0; i < 5; i++) {
        double peak, area, diss;
        mr_loop(volts[i], 1.5, 2.5, 4096, &peak, &area, &diss);
        print_message("MR damper 2.5 Hz, 1.5 cm, %.2f V: peak |F| %.1f N, loop area %.2f N cm, "
                      "dissipation integral %.2f N cm\n",
                      volts[i], peak, area, diss);
        assert_true(peak > last); /* force rises with voltage */
        last = peak;
        assert_true(area > 0);
        HS_ASSERT_NEAR(area / diss, 1.0, 1e-3);
    }
}

/* Constant velocity V from rest with z saturated at z0 = sqrt(A / (gamma + beta)) (reached
 * within ~1 / (z0 (gamma + beta)) = 0.002 cm of relative motion): the internal lag e = x - y obeys
 * (c0 + c1) de/dt = c1 V - alpha z0 - k0 e, so
 *   de/dt = (c1 V - alpha z0) / (c0 + c1) exp(-k0 t / (c0 + c1)),
 *   F = c1 (V - de/dt) + k1 (V t - x0);
 * at high V the force grows as c0 c1 / (c0 + c1) V + c1 alpha z0 / (c0 + c1): the post-yield
 * viscous branch (c0 in series with c1). */
static void test_mr_damper_asymptote(void **state)
{
    (void)state;
    const double volts[2] = {0, 2.25}, V = 50.0, rate = 1024, h = 1.0 / rate;
    const double z0 = sqrt(MR.A / (MR.g + MR.b));
    for (int i = 0; i < 2; i++) {
        hs_options *o = NULL;
        hs_options_create(&o);
        hs_options_set_num(o, "voltage", volts[i]);
        hs_specimen *s = make("mr_damper", 1, o);
        hs_options_destroy(&o);
        const double u = volts[i];
        const double al = MR.aa + MR.ab * u, c0 = MR.c0a + MR.c0b * u, c1 = MR.c1a + MR.c1b * u;
        double worst = 0;
        for (int k = 1; k <= 60; k++) {
            const double t = k * h, x = V * t;
            assert_int_equal(hs_specimen_set_trial(s, t, &x), 0);
            assert_int_equal(hs_specimen_commit(s), 0);
            const double ed = (c1 * V - al * z0) / (c0 + c1) * exp(-MR.k0 * t / (c0 + c1));
            const double Fx = c1 * (V - ed) + MR.k1 * (x - MR.x0);
            const double err = fabs(hs_specimen_force(s)[0] - Fx) / fabs(Fx);
            if (k >= 10 && err > worst) worst = err;
        }
        print_message("MR ramp %g cm/s at %.2f V: F(t = 60 h) %.2f N, worst relative error vs "
                      "closed form %.1e; high-velocity slope c0 c1/(c0 + c1) = %.2f N s/cm\n",
                      V, volts[i], hs_specimen_force(s)[0], worst, c0 * c1 / (c0 + c1));
        assert_true(worst < 1e-4);
        hs_specimen_destroy(&s);
    }
}

/* scale multiplies the force history exactly; length_cm and force_N convert units. */
static void test_mr_damper_scale_units(void **state)
{
    (void)state;
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_num(o, "voltage", 1.0);
    hs_specimen *a = make("mr_damper", 1, o);
    hs_options_set_num(o, "scale", 66.0);
    hs_specimen *b = make("mr_damper", 1, o);
    hs_options_set_num(o, "scale", 1.0);
    hs_options_set_num(o, "length_cm", 0.1);  /* the test in mm */
    hs_options_set_num(o, "force_N", 1000.0); /* and kN */
    hs_specimen *c = make("mr_damper", 1, o);
    hs_options_destroy(&o);
    for (int k = 1; k <= 2048; k++) {
        const double t = k / 1024.0, x = 2.0 * sin(2 * PI * 1.3 * t), xmm = 10 * x;
        hs_specimen_set_trial(a, t, &x);
        hs_specimen_set_trial(b, t, &x);
        hs_specimen_set_trial(c, t, &xmm);
        hs_specimen_commit(a);
        hs_specimen_commit(b);
        hs_specimen_commit(c);
        const double fa = hs_specimen_force(a)[0];
        HS_ASSERT_NEAR(hs_specimen_force(b)[0], 66.0 * fa, 1e-9 * 66 * fabs(fa) + 1e-9);
        HS_ASSERT_NEAR(hs_specimen_force(c)[0], fa / 1000.0, 1e-12 * fabs(fa) + 1e-15);
    }
    /* the voltage is a command input; there is no initial stiffness */
    assert_int_equal(hs_specimen_set_input(a, 0, 2.0), 0);
    double K1 = 0;
    assert_int_equal(hs_specimen_initial_stiffness(a, &K1), HS_EUNSUPPORTED);
    hs_specimen_destroy(&a);
    hs_specimen_destroy(&b);
    hs_specimen_destroy(&c);
}

/* ---------------------------------------------------------------- relaxation */

/* Linear spring k = 2 ramped to x = 1, held, then moved again. Held from q = 0:
 * f(t) = f0 [1 - phi (1 - exp(-t / tau))]; moving: q(t) = q_h exp(-t / tau_recover). */
static void test_relaxation(void **state)
{
    (void)state;
    const double k = 2, phi = 0.3, tau = 2.0, tau_r = 0.5, rate = 1024, h = 1 / rate;
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_list(o, "K", &k, 1);
    hs_specimen *lin = make("linear", 1, o);
    hs_options_set_num(o, "fraction", phi);
    hs_options_set_num(o, "tau", tau);
    hs_options_set_num(o, "tau_recover", tau_r);
    hs_options_set_num(o, "v_still", 1e-3);
    hs_specimen *s = NULL;
    assert_int_equal(hs_specimen_create_relaxation(g_ctx, lin, o, &s), 0);
    assert_true(hs_specimen_inner(s) == lin);
    double t = 0, x = 0;
    int K = 0;
    for (int i = 1; i <= 1024; i++) { /* ramp at 1 per second: moving */
        x = i * h;
        t = ++K * h;
        hs_specimen_set_trial(s, t, &x);
        hs_specimen_commit(s);
    }
    HS_ASSERT_NEAR(hs_specimen_force(s)[0], 2.0, 1e-14); /* no relaxation while moving */
    const double th = t;
    for (int i = 1; i <= 2 * 1024; i++) { /* hold for tau */
        t = ++K * h;
        hs_specimen_set_trial(s, t, &x);
        hs_specimen_commit(s);
    }
    const double f_tau = hs_specimen_force(s)[0];
    print_message("relaxation: after a hold of tau, f / f0 = %.12f, expected 1 - phi (1 - 1/e) = "
                  "%.12f\n",
                  f_tau / 2.0, 1 - phi * (1 - exp(-1.0)));
    HS_ASSERT_NEAR(f_tau, 2.0 * (1 - phi * (1 - exp(-(t - th) / tau))), 1e-12);
    HS_ASSERT_NEAR(f_tau, 2.0 * (1 - phi * (1 - exp(-1.0))), 1e-12);
    for (int i = 1; i <= 20 * 1024; i++) { /* long hold: (1 - phi) f0 */
        t = ++K * h;
        hs_specimen_set_trial(s, t, &x);
        hs_specimen_commit(s);
    }
    HS_ASSERT_NEAR(hs_specimen_force(s)[0], 2.0 * (1 - phi * (1 - exp(-(t - th) / tau))), 1e-12);
    HS_ASSERT_NEAR(hs_specimen_force(s)[0], 2.0 * (1 - phi), 2.0 * phi * exp(-11.0));
    const double q_h = 2.0 - hs_specimen_force(s)[0], tr = t, xr = x;
    for (int i = 1; i <= 512; i++) { /* motion resumes at 0.2 per second: recovery */
        x = xr + 0.2 * i * h;
        t = ++K * h;
        hs_specimen_set_trial(s, t, &x);
        hs_specimen_commit(s);
        HS_ASSERT_NEAR(hs_specimen_force(s)[0], k * x - q_h * exp(-(t - tr) / tau_r), 1e-12);
    }
    /* state: inner state + q; reloading gives the same force */
    const size_t n = hs_specimen_state_size(s);
    double *st = calloc(n, sizeof *st);
    hs_specimen_state_save(s, st);
    const double f_now = hs_specimen_force(s)[0];
    x += 1;
    hs_specimen_set_trial(s, t + h, &x);
    assert_int_equal(hs_specimen_state_load(s, st), 0);
    HS_ASSERT_NEAR(hs_specimen_force(s)[0], f_now, 1e-15);
    free(st);
    hs_specimen_destroy(&s);
    hs_specimen_destroy(&lin);

    /* the registry path owns its inner specimen */
    hs_options_set_str(o, "inner", "linear");
    s = make("relaxation", 1, o);
    assert_string_equal(hs_specimen_type(hs_specimen_inner(s)), "linear");
    hs_specimen_destroy(&s);
    hs_options_destroy(&o);
}

/* ---------------------------------------------------------------- the lab */

static void test_vlab_perfect(void **state)
{
    (void)state;
    const double K[4] = {4, -1.5, -1.5, 3};
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_list(o, "K", K, 4);
    hs_options_set_str(o, "inner", "linear");
    hs_options_set_num(o, "fraction", 0.5);
    hs_options_set_num(o, "tau", 0.1);
    hs_options_set_num(o, "v_still", 10.0); /* always "still": relaxes strongly unless bypassed */
    hs_specimen *s = make("relaxation", 2, o);
    hs_options_destroy(&o);
    hs_actuator_params ap = hs_actuator_params_default();
    ap.a = 30;
    ap.transport_delay = 5;
    hs_vlab_params p = {2, 1, 42, &ap, 1, {0.01, 16, 10}, {0.05, 16, 100}};
    hs_vlab *lab = NULL;
    assert_int_equal(hs_vlab_create(g_ctx, &p, s, &lab), 0);
    const uint64_t before = hs_alloc_count();
    for (int k = 0; k < 2000; k++) {
        const double xc[2] = {sin(0.01 * k), 0.5 * cos(0.013 * k)};
        double xm[2], fm[2];
        assert_int_equal(hs_vlab_tick(lab, xc, xm, fm), 0);
        for (int i = 0; i < 2; i++) {
            assert_true(xm[i] == xc[i]);
            HS_ASSERT_NEAR(fm[i], K[2 * i] * xc[0] + K[2 * i + 1] * xc[1], 1e-14);
        }
    }
    assert_true(hs_alloc_count() == before);
    HS_ASSERT_NEAR(hs_vlab_time(lab), 2000 / 1024.0, 1e-12);
    hs_vlab_destroy(&lab);
    hs_specimen_destroy(&s);
}

/* The lab with delay, noise and quantisation: the true displacement follows the actuator model,
 * the measurements stay within noise and level of the truth, a saved state replays exactly. */
static void test_vlab_virtual(void **state)
{
    (void)state;
    const double k = 2.8;
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_list(o, "K", &k, 1);
    hs_specimen *s = make("linear", 1, o);
    hs_options_destroy(&o);
    hs_actuator_params ap = hs_actuator_params_default();
    ap.a = 4;
    ap.force_max = 2.0;
    hs_actuator *ref = NULL;
    assert_int_equal(hs_actuator_create(NULL, &ap, &ref), 0);
    hs_vlab_params p = {1, 0, 7, &ap, 1, {0.001, 16, 2}, {0.01, 16, 10}};
    hs_vlab *lab = NULL;
    assert_int_equal(hs_vlab_create(g_ctx, &p, s, &lab), 0);
    const size_t n = hs_vlab_state_size(lab);
    double *st = calloc(n, sizeof *st), rec[300][2];
    const uint64_t before = hs_alloc_count();
    for (int kk = 0; kk < 1300; kk++) {
        const double xc = 0.8 * sin(2 * PI * 1.0 * kk / 1024.0);
        double xm, fm;
        if (kk == 1000) hs_vlab_state_save(lab, st);
        assert_int_equal(hs_vlab_tick(lab, &xc, &xm, &fm), 0);
        hs_actuator_tick(ref, xc);
        const double xt = hs_vlab_true_displacement(lab)[0];
        assert_true(xt == hs_actuator_position(ref));
        HS_ASSERT_NEAR(hs_vlab_true_force(lab)[0], k * xt, 1e-15);
        assert_true(fabs(xm - xt) < 6 * 0.001 + 2.0 / 65535);
        assert_true(fabs(fm - k * xt) < 6 * 0.01 + 10.0 / 65535);
        if (kk >= 1000) {
            rec[kk - 1000][0] = xm;
            rec[kk - 1000][1] = fm;
        }
    }
    assert_true(hs_alloc_count() == before);
    assert_true(hs_vlab_flags(lab) & HS_ACT_LIMIT_FORCE); /* 2.8 * 0.8 > 2 */
    assert_int_equal(hs_vlab_state_load(lab, st), 0);
    for (int kk = 1000; kk < 1300; kk++) {
        const double xc = 0.8 * sin(2 * PI * 1.0 * kk / 1024.0);
        double xm, fm;
        assert_int_equal(hs_vlab_tick(lab, &xc, &xm, &fm), 0);
        assert_true(xm == rec[kk - 1000][0] && fm == rec[kk - 1000][1]);
    }
    free(st);
    hs_actuator_destroy(&ref);
    hs_vlab_destroy(&lab);
    hs_specimen_destroy(&s);
}

static void test_registry(void **state)
{
    (void)state;
    const char *names[8] = {"linear",    "material",   "intrinsic",      "bilinear_degrading",
                            "mr_damper", "relaxation", "rths_benchmark", "rths_frame"};
    assert_int_equal(hs_specimen_registry_count(), 8);
    for (int i = 0; i < 8; i++) assert_non_null(hs_specimen_registry_find(names[i]));
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_specimen *s = NULL;
    assert_int_equal(hs_specimen_create(ctx, "no_such", 1, NULL, &s), HS_ENOTFOUND);
    assert_int_equal(hs_specimen_create(ctx, "bilinear_degrading", 1, NULL, &s), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "missing parameter 'k'"));
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear_coupled),
        cmocka_unit_test(test_intrinsic_shear_building),
        cmocka_unit_test(test_material_per_actuator),
        cmocka_unit_test(test_bilinear_degrading),
        cmocka_unit_test(test_mr_damper_loops),
        cmocka_unit_test(test_mr_damper_asymptote),
        cmocka_unit_test(test_mr_damper_scale_units),
        cmocka_unit_test(test_relaxation),
        cmocka_unit_test(test_vlab_perfect),
        cmocka_unit_test(test_vlab_virtual),
        cmocka_unit_test(test_registry),
    };
    hs_ctx_create(&g_ctx);
    const int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hs_ctx_destroy(&g_ctx);
    return rc;
}
