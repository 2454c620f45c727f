/* Conformance of EVERY registered integrator (the suite loops over the registry, so an
 * integrator is tested the day it is registered):
 *  (a) spectral radius and period error of the one-step amplification matrix on the linear
 *      undamped (or lightly damped) SDOF, against closed forms from the literature written out
 *      here, independent of the library;
 *  (b) the order of accuracy, observed by halving dt on a damped SDOF under a smooth load,
 *      against the closed-form solution; it must reach the registry's `order` - 0.1;
 *  (c) nothing allocates during 1000 steps (numerical run, and hybrid run through predict /
 *      correct with a virtual linear lab for the integrators that take measured forces).
 *
 * ADDING AN INTEGRATOR: add one or more rows to `expectations` below (a closed-form function,
 * or literal values at given omega dt). An integrator without a row fails the suite with
 * "no expectations for integrator X". */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NPOINTS 4
#define TOL     1e-4

typedef struct spectral_point {
    double Omega;        /* omega dt; 0 ends the list */
    double rho;          /* expected spectral radius, NAN: from the closed form */
    double period_error; /* expected T_numerical / T - 1, NAN: from the closed form */
} spectral_point;

struct expectation;
typedef void (*closed_form_fn)(const struct expectation *e, double Omega, double *rho,
                               double *period_error);

typedef struct expectation {
    const char *name;    /* registry name */
    const char *label;   /* what the row checks */
    const char *keys[2]; /* options (NULL: none) */
    double values[2];
    double xi;             /* damping ratio of the SDOF */
    double param;          /* passed to the closed form (Newmark beta, HHT alpha) */
    closed_form_fn closed; /* may be NULL when every point is literal */
    spectral_point points[NPOINTS];
} expectation;

/* Newmark family with gamma = 1/2, undamped: d(n+1) - 2 d(n) + d(n-1) = dt^2 (beta a(n+1) +
 * (1 - 2 beta) a(n) + beta a(n-1)) with a = -omega^2 d gives roots on the unit circle with
 * cos(phase) = 1 - Omega^2 / (2 (1 + beta Omega^2)) (below the stability limit). beta = 0:
 * central difference, phase = acos(1 - Omega^2/2); beta = 1/4: phase = 2 atan(Omega/2). */
static void newmark_gamma_half(const expectation *e, double Omega, double *rho, double *perr)
{
    const double beta = e->param;
    const double phase = acos(1.0 - Omega * Omega / (2.0 * (1.0 + beta * Omega * Omega)));
    *rho = 1.0;
    *perr = Omega / phase - 1.0;
}

/* The classical Runge-Kutta method on q' = [[0, 1], [-omega^2, 0]] q, undamped: the amplification
 * of each mode is the Taylor polynomial of exp(z) to z^4 at z = +-i Omega:
 * lambda = 1 - Omega^2/2 + Omega^4/24 + i (Omega - Omega^3/6), |lambda|^2 = 1 - Omega^6/72 +
 * Omega^8/576. */
static void rk4_free(const expectation *e, double Omega, double *rho, double *perr)
{
    (void)e;
    const double W = Omega * Omega;
    const double re = 1.0 - W / 2.0 + W * W / 24.0, im = Omega - W * Omega / 6.0;
    *rho = sqrt(re * re + im * im);
    *perr = Omega / atan2(im, re) - 1.0;
}

/* HHT-alpha (Hilber, Hughes, Taylor 1977), undamped, in the scaled variables (d, dt v, dt^2 a):
 *   D a1 = -Omega^2 d - (1+alpha) Omega^2 (dt v) - (1+alpha)(1/2 - beta) Omega^2 (dt^2 a),
 *   D = 1 + (1+alpha) beta Omega^2,
 *   d1 = d + dt v + (1/2 - beta) dt^2 a + beta a1,   dt v1 = dt v + (1 - gamma) dt^2 a + gamma a1
 * (the scaling does not change the eigenvalues). */
static void hht_textbook(const expectation *e, double Omega, double *rho, double *perr)
{
    const double al = e->param, be = 0.25 * (1 - al) * (1 - al), ga = 0.5 - al;
    const double W = Omega * Omega, D = 1.0 + (1.0 + al) * be * W;
    const double ra[3] = {-W / D, -(1.0 + al) * W / D, -(1.0 + al) * (0.5 - be) * W / D};
    double A[9]; /* column-major A[j*3+i]: row i (d, v, a), column j */
    for (int j = 0; j < 3; j++) {
        const double base_d[3] = {1.0, 1.0, 0.5 - be}, base_v[3] = {0.0, 1.0, 1.0 - ga};
        A[j * 3 + 2] = ra[j];
        A[j * 3 + 0] = base_d[j] + be * ra[j];
        A[j * 3 + 1] = base_v[j] + ga * ra[j];
    }
    hs_test_spectral(A, Omega, rho, perr);
}

/* Exact free vibration: eigenvalues exp((-xi +- i sqrt(1 - xi^2)) Omega), period 2 pi /
 * omega_d, against the undamped period (a phase above pi per step aliases: keep Omega < pi). */
static void exact_free(const expectation *e, double Omega, double *rho, double *perr)
{
    *rho = exp(-e->xi * Omega);
    *perr = 1.0 / sqrt(1.0 - e->xi * e->xi) - 1.0;
}

static const double PI = 3.14159265358979323846;

/* The table. Rows of other integrators (alpha_os, cr, kr_alpha, ghaboussi_pc, ...) go here. */
static const expectation expectations[] = {
    {"newmark_explicit",
     "gamma = 1/2, beta = 0",
     {NULL, NULL},
     {0, 0},
     0.0,
     0.0,
     newmark_gamma_half,
     {{0.5, NAN, NAN}, {1.0, NAN, NAN}, {1.9, NAN, NAN}}},
    {"central_difference",
     "phase = acos(1 - Omega^2/2)",
     {NULL, NULL},
     {0, 0},
     0.0,
     0.0,
     newmark_gamma_half,
     {{0.5, NAN, NAN}, {1.0, NAN, NAN}, {1.9, NAN, NAN}}},
    {"newmark",
     "average acceleration: phase = 2 atan(Omega/2)",
     {NULL, NULL},
     {0, 0},
     0.0,
     0.25,
     newmark_gamma_half,
     {{1.0, 1.0, 0.0784}, {1.0, NAN, NAN}, {PI, NAN, NAN}, {10.0, NAN, NAN}}},
    {"newmark",
     "linear acceleration (beta = 1/6)",
     {"beta", NULL},
     {1.0 / 6.0, 0},
     0.0,
     1.0 / 6.0,
     newmark_gamma_half,
     {{0.5, NAN, NAN}, {1.0, NAN, NAN}, {3.0, NAN, NAN}}},
    {"hht",
     "alpha = -0.05 (default), textbook matrix",
     {NULL, NULL},
     {0, 0},
     0.0,
     -0.05,
     hht_textbook,
     {{0.1, NAN, NAN}, {1.0, NAN, NAN}, {PI, NAN, NAN}, {10.0, NAN, NAN}}},
    /* alpha = -1/3: rho(1) = 0.98931, rho(pi) = 0.86823 (the values alpha-OS and KR-alpha with
     * rho_inf = 0.5 share), rho -> (1 + alpha)/(1 - alpha) = 1/2 as Omega -> infinity */
    {"hht",
     "alpha = -1/3, published radii",
     {"alpha", NULL},
     {-1.0 / 3.0, 0},
     0.0,
     -1.0 / 3.0,
     hht_textbook,
     {{1.0, 0.98931, NAN}, {PI, 0.86823, NAN}, {1e10, 0.5, NAN}, {0.7, NAN, NAN}}},
    /* the hybrid integrators reduce to HHT-alpha on a numerical model (no io->exp) */
    {"os_tangent",
     "numerical model: HHT-alpha, alpha = -1/3",
     {"alpha", NULL},
     {-1.0 / 3.0, 0},
     0.0,
     -1.0 / 3.0,
     hht_textbook,
     {{1.0, 0.98931, NAN}, {PI, 0.86823, NAN}, {10.0, NAN, NAN}}},
    {"implicit_hht_fe",
     "numerical model: HHT-alpha, alpha = -0.05",
     {NULL, NULL},
     {0, 0},
     0.0,
     -0.05,
     hht_textbook,
     {{0.1, NAN, NAN}, {1.0, NAN, NAN}, {PI, NAN, NAN}, {10.0, NAN, NAN}}},
    {"exact",
     "undamped: rho = 1, no period error",
     {NULL, NULL},
     {0, 0},
     0.0,
     0.0,
     exact_free,
     {{1.0, 1.0, 0.0}, {3.0, 1.0, 0.0}, {0.1, NAN, NAN}}},
    {"exact",
     "xi = 5 %: rho = exp(-xi Omega)",
     {NULL, NULL},
     {0, 0},
     0.05,
     0.0,
     exact_free,
     {{1.0, NAN, NAN}, {PI, NAN, NAN}}},
    {"ode4",
     "undamped: exp(i Omega) to 4th order (Taylor)",
     {NULL, NULL},
     {0, 0},
     0.0,
     0.0,
     rk4_free,
     {{0.5, NAN, NAN}, {1.0, 0.993905, NAN}, {2.0, NAN, NAN}}},
    /* alpha_os with K_I the true stiffness is HHT-alpha */
    {"alpha_os",
     "alpha = -0.05 (default): HHT textbook matrix",
     {NULL, NULL},
     {0, 0},
     0.0,
     -0.05,
     hht_textbook,
     {{0.1, NAN, NAN}, {1.0, NAN, NAN}, {PI, NAN, NAN}, {10.0, NAN, NAN}}},
    {"alpha_os",
     "alpha = -1/3, published radii and period",
     {"alpha", NULL},
     {-1.0 / 3.0, 0},
     0.0,
     -1.0 / 3.0,
     hht_textbook,
     {{1.0, 0.98931, 0.1105}, {PI, 0.86823, NAN}, {1e10, 0.5, NAN}}},
    {"alpha_os",
     "alpha = -0.1, published radii",
     {"alpha", NULL},
     {-0.1, 0},
     0.0,
     -0.1,
     hht_textbook,
     {{1.0, 0.99385, NAN}, {PI, 0.92140, NAN}}},
    /* cr: the characteristic equation of average-acceleration Newmark */
    {"cr",
     "average-acceleration poles: phase = 2 atan(Omega/2)",
     {NULL, NULL},
     {0, 0},
     0.0,
     0.25,
     newmark_gamma_half,
     {{1.0, 1.0, 0.0784}, {PI, NAN, NAN}, {10.0, NAN, NAN}, {100.0, NAN, NAN}}},
    {"kr_alpha",
     "rho_inf = 1 (CR): average-acceleration poles",
     {"rho_inf", NULL},
     {1.0, 0},
     0.0,
     0.25,
     newmark_gamma_half,
     {{1.0, 1.0, 0.0784}, {PI, NAN, NAN}, {10.0, NAN, NAN}}},
    /* generalised-alpha with rho_inf = 1/2 has alpha_m = 0: HHT with alpha = -1/3 */
    {"kr_alpha",
     "rho_inf = 0.5 (default): HHT alpha = -1/3 poles",
     {NULL, NULL},
     {0, 0},
     0.0,
     -1.0 / 3.0,
     hht_textbook,
     {{1.0, 0.98931, NAN}, {PI, 0.86823, NAN}, {0.5, NAN, NAN}, {1e4, NAN, NAN}}},
    /* ghaboussi_pc, all numerical and linear: K^L is the whole stiffness, average acceleration */
    {"ghaboussi_pc",
     "all numerical: average acceleration",
     {NULL, NULL},
     {0, 0},
     0.0,
     0.25,
     newmark_gamma_half,
     {{1.0, 1.0, 0.0784}, {PI, NAN, NAN}, {10.0, NAN, NAN}}},
};
#define NEXPECT (sizeof expectations / sizeof expectations[0])

static hs_options *row_options(const expectation *e)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    for (int k = 0; k < 2; k++)
        if (e->keys[k]) hs_options_set_num(o, e->keys[k], e->values[k]);
    return o;
}

static void check_row(const expectation *e)
{
    hs_options *o = row_options(e);
    for (int p = 0; p < NPOINTS && e->points[p].Omega > 0.0; p++) {
        const spectral_point *pt = &e->points[p];
        double A[9], rho, perr, rho_x = pt->rho, perr_x = pt->period_error;
        double rho_c = NAN, perr_c = NAN;
        if (e->closed) e->closed(e, pt->Omega, &rho_c, &perr_c);
        if (isnan(rho_x)) rho_x = rho_c;
        if (isnan(perr_x)) perr_x = perr_c;
        /* omega = Omega with dt = 1 */
        assert_int_equal(hs_test_amplification(e->name, o, pt->Omega, 1.0, e->xi, A), 0);
        hs_test_spectral(A, pt->Omega, &rho, &perr);
        printf("  %-20s %-45s Omega %7.4g: rho %.6f (expected %.6f), period error %.6f "
               "(expected %.6f)\n",
               e->name, e->label, pt->Omega, rho, rho_x, perr, perr_x);
        if (!isnan(rho_x)) HS_ASSERT_NEAR(rho, rho_x, TOL);
        /* a literal value must also agree with the closed form (checks the formula itself) */
        if (!isnan(pt->rho) && !isnan(rho_c)) HS_ASSERT_NEAR(rho_c, pt->rho, TOL);
        if (!isnan(pt->period_error) && !isnan(perr_c))
            HS_ASSERT_NEAR(perr_c, pt->period_error, TOL);
        if (!isnan(perr_x)) HS_ASSERT_NEAR(perr, perr_x, TOL);
    }
    hs_options_destroy(&o);
}

static void test_spectral_properties(void **state)
{
    (void)state;
    for (size_t i = 0; i < hs_integrator_registry_count(); i++) {
        const hs_integrator_entry *en = hs_integrator_registry_get(i);
        int rows = 0;
        for (size_t r = 0; r < NEXPECT; r++)
            if (strcmp(expectations[r].name, en->name) == 0) {
                check_row(&expectations[r]);
                rows++;
            }
        if (rows == 0) fail_msg("no expectations for integrator %s", en->name);
    }
    /* every row names a registered integrator (no stale rows) */
    for (size_t r = 0; r < NEXPECT; r++)
        if (!hs_integrator_registry_find(expectations[r].name))
            fail_msg("expectation row for unregistered integrator %s", expectations[r].name);
}

/* ---- (b) order of accuracy ------------------------------------------------------------- */

typedef struct sdof {
    double m, c, k;
} sdof;

/* m u'' + c u' + k u = P sin(w t), u(0) = u'(0) = 0: steady state A sin + B cos plus the
 * damped free vibration that cancels it at t = 0. */
static double forced_response(const sdof *s, double P, double w, double t)
{
    const double wn = sqrt(s->k / s->m), xi = s->c / (2.0 * s->m * wn);
    const double wd = wn * sqrt(1.0 - xi * xi), kk = s->k - s->m * w * w;
    const double den = kk * kk + s->c * s->c * w * w;
    const double A = P * kk / den, B = -P * s->c * w / den;
    const double C1 = -B, C2 = (-A * w + xi * wn * C1) / wd;
    return A * sin(w * t) + B * cos(w * t) +
           exp(-xi * wn * t) * (C1 * cos(wd * t) + C2 * sin(wd * t));
}

static double max_error(const char *type, const sdof *s, double dt, double T)
{
    const double P = 1.0, w = 5.0;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_test_linear lin = {1, &s->k};
    hs_dynamics dyn = {.n = 1,
                       .M = &s->m,
                       .C = &s->c,
                       .K0 = &s->k,
                       .restore = hs_test_linear_restore,
                       .commit = hs_test_commit_nothing,
                       .user = &lin,
                       .linear = 1};
    hs_integrator *it = NULL;
    const double zero = 0.0;
    assert_int_equal(hs_integrator_create(ctx, type, NULL, &it), 0);
    int rc = hs_integrator_setup(it, &dyn, dt, &zero, &zero, &zero);
    if (rc) fail_msg("%s: %s", type, hs_ctx_message(ctx));
    const int nsteps = (int)lround(T / dt);
    double err = 0.0, f0 = 0.0, f1, dcmd;
    for (int n = 0; n < nsteps; n++) {
        f1 = P * sin(w * (n + 1) * dt);
        hs_step_io io = {.step = n, .t = n * dt, .f_n = &f0, .f_n1 = &f1, .d_cmd = &dcmd};
        rc = hs_integrator_step(it, &io);
        if (rc) fail_msg("%s step %d: %s", type, n + 1, hs_ctx_message(ctx));
        err = fmax(
            err, fabs(hs_integrator_displacement(it)[0] - forced_response(s, P, w, (n + 1) * dt)));
        f0 = f1;
    }
    hs_integrator_destroy(&it);
    hs_ctx_destroy(&ctx);
    return err;
}

static void test_order_of_accuracy(void **state)
{
    (void)state;
    const sdof s = {1.0, 2.0 * 0.05 * 2.0 * PI, 4.0 * PI * PI}; /* T = 1 s, xi = 5 % */
    for (size_t i = 0; i < hs_integrator_registry_count(); i++) {
        const hs_integrator_entry *en = hs_integrator_registry_get(i);
        const double e1 = max_error(en->name, &s, 0.01, 2.0);
        const double e2 = max_error(en->name, &s, 0.005, 2.0);
        const double order = log2(e1 / e2);
        printf("  %-20s max error %.3e (dt 0.01), %.3e (dt 0.005): observed order %.3f "
               "(registered %d)\n",
               en->name, e1, e2, order, en->order);
        if (!(order >= en->order - 0.1))
            fail_msg("%s: observed order %.3f below the registered %d", en->name, order, en->order);
    }
}

/* ---- (c) no allocation in the step loop ------------------------------------------------ */

/* Two DOFs, one linear restoring matrix, Rayleigh-like damping C = a0 M + a1 K (classical). */
static void run_without_allocating(const char *type, int hybrid)
{
    const double K[4] = {300.0, -100.0, -100.0, 100.0};
    hs_test_linear s = {2, K};
    const double Ke[4] = {50.0, 0.0, 0.0, 0.0}; /* the lab: a spring on DOF 1 */
    double K0[4], M[4] = {1.0, 0.0, 0.0, 1.5}, C[4];
    for (int k = 0; k < 4; k++) {
        K0[k] = s.K[k] + (hybrid ? Ke[k] : 0.0);
        C[k] = 0.1 * M[k] + 0.002 * K0[k];
    }
    hs_dynamics dyn = {.n = 2,
                       .M = M,
                       .C = C,
                       .K0 = K0,
                       .Ke = hybrid ? Ke : NULL,
                       .restore = hs_test_linear_restore,
                       .commit = hs_test_commit_nothing,
                       .user = &s,
                       .linear = 1};
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, type, NULL, &it), 0);
    const double d0[2] = {0.01, 0.0}, v0[2] = {0.0, 0.1}, zero[2] = {0, 0};
    int rc = hs_integrator_setup(it, &dyn, 0.01, d0, v0, zero);
    if (rc) fail_msg("%s: %s", type, hs_ctx_message(ctx));
    const uint64_t before = hs_alloc_count();
    double f0[2] = {0, 0}, f1[2], dcmd[2], rexp[2];
    for (int n = 0; n < 1000 && !rc; n++) {
        f1[0] = sin(0.05 * (n + 1));
        f1[1] = 0.5 * cos(0.03 * (n + 1)) - 0.5;
        hs_step_io io = {.step = n, .t = n * 0.01, .f_n = f0, .f_n1 = f1, .d_cmd = dcmd};
        rc = hs_integrator_predict(it, &io);
        if (!rc && hybrid) {
            hs_matvec(2, Ke, dcmd, rexp); /* the virtual lab */
            io.r_exp = rexp;
        }
        if (!rc) rc = hs_integrator_correct(it, &io);
        memcpy(f0, f1, sizeof f0);
    }
    if (rc) fail_msg("%s (%s): %s", type, hybrid ? "hybrid" : "numerical", hs_ctx_message(ctx));
    const uint64_t after = hs_alloc_count();
    printf("  %-20s %-9s allocations during 1000 steps: %llu\n", type,
           hybrid ? "hybrid" : "numerical", (unsigned long long)(after - before));
    assert_true(after == before);
    hs_integrator_destroy(&it);
    hs_ctx_destroy(&ctx);
}

static void test_no_allocation_in_steps(void **state)
{
    (void)state;
    for (size_t i = 0; i < hs_integrator_registry_count(); i++) {
        const hs_integrator_entry *en = hs_integrator_registry_get(i);
        run_without_allocating(en->name, 0);
        if (!en->linear_only) run_without_allocating(en->name, 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spectral_properties),
        cmocka_unit_test(test_order_of_accuracy),
        cmocka_unit_test(test_no_allocation_in_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
