/* Integrators on single- and two-DOF problems with independent references:
 *  - Chopra's SDOF (Dynamics of Structures, chapter 5 examples: m = 0.2533, k = 10, zeta = 5 %,
 *    p(t) = 10 sin(pi t / 0.6) for t <= 0.6, dt = 0.1): the published displacement tables;
 *  - Newton on a softening spring and on the bilinear material: convergence, the iteration count
 *    in io->iterations, and the discrete equation of motion (written out here) satisfied;
 *  - a hybrid run against a virtual linear lab equals the numerical run (the linearisation
 *    r_e(d) = r_exp + Ke (d - d_cmd) is then exact);
 *  - HHT checkpoints (r(n) is state), the exact solver's classical-damping check. */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

/* ---- Chopra's SDOF ------------------------------------------------------------------------ */

static double chopra_load(double t)
{
    return t <= 0.6 + 1e-12 ? 10.0 * sin(PI * t / 0.6) : 0.0;
}

static void chopra_run(const char *type, const hs_options *opts, const double expected[10])
{
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_model *m = NULL;
    assert_int_equal(hs_model_create(ctx, 1, &m), 0);
    const double mass = 0.2533, zeta = 0.05;
    assert_int_equal(hs_model_set_mass(m, &mass), 0);
    hs_options *k = NULL;
    hs_options_create(&k);
    hs_options_set_num(k, "k", 10.0);
    assert_true(hs_model_add_story(m, 0, "elastic", k, "spring") >= 0);
    hs_options_destroy(&k);
    assert_int_equal(hs_model_damping_modal(m, &zeta), 0);
    double K0 = 0.0;
    hs_dynamics dyn;
    assert_int_equal(hs_model_dynamics(m, &K0, &dyn), 0);
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, type, opts, &it), 0);
    const double zero = 0.0, dt = 0.1;
    assert_int_equal(hs_integrator_setup(it, &dyn, dt, &zero, &zero, &zero), 0);
    double f0 = 0.0, f1, dcmd;
    printf("  %-18s", type);
    for (int n = 0; n < 10; n++) {
        f1 = chopra_load((n + 1) * dt);
        hs_step_io io = {.step = n, .t = n * dt, .f_n = &f0, .f_n1 = &f1, .d_cmd = &dcmd};
        int rc = hs_integrator_step(it, &io);
        if (rc) fail_msg("%s: %s", type, hs_ctx_message(ctx));
        printf(" %9.6f", hs_integrator_displacement(it)[0]);
        HS_ASSERT_NEAR(hs_integrator_displacement(it)[0], expected[n], 1e-5);
        f0 = f1;
    }
    printf("\n");
    hs_integrator_destroy(&it);
    hs_model_destroy(&m);
    hs_ctx_destroy(&ctx);
}

static void test_chopra_exact(void **state)
{
    (void)state;
    /* Chopra ch. 5, piecewise-linear interpolation of the excitation */
    const double u[10] = {0.031759, 0.227414, 0.633564, 1.133887,  1.489569,
                          1.448001, 0.903657, 0.057912, -0.757767, -1.243233};
    chopra_run("exact", NULL, u);
}

static void test_chopra_average_acceleration(void **state)
{
    (void)state;
    /* Chopra ch. 5, average acceleration */
    const double u[10] = {0.043667, 0.232619, 0.612071, 1.082543,  1.430954,
                          1.423078, 0.962175, 0.190776, -0.604380, -1.144195};
    chopra_run("newmark", NULL, u);
}

static void test_chopra_linear_acceleration(void **state)
{
    (void)state;
    /* Chopra ch. 5, linear acceleration */
    const double u[10] = {0.029984, 0.219334, 0.616610, 1.113016,  1.478209,
                          1.462486, 0.951430, 0.127306, -0.695431, -1.220830};
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_num(o, "beta", 1.0 / 6.0);
    chopra_run("newmark", o, u);
    /* HHT with alpha = 0 is average-acceleration Newmark */
    const double avg[10] = {0.043667, 0.232619, 0.612071, 1.082543,  1.430954,
                            1.423078, 0.962175, 0.190776, -0.604380, -1.144195};
    hs_options_set_num(o, "alpha", 0.0);
    chopra_run("hht", o, avg);
    hs_options_destroy(&o);
}

static void test_chopra_central_difference(void **state)
{
    (void)state;
    /* Chopra ch. 5, central difference */
    const double u[10] = {0.000000, 0.191382, 0.629334,  1.182485,  1.580809,
                          1.541173, 0.914047, -0.024740, -0.896868, -1.372579};
    chopra_run("central_difference", NULL, u);
}

/* ---- Newton on a softening spring ----------------------------------------------------------- */

/* r = k d / (1 + |d| / dy), Kt = k / (1 + |d| / dy)^2, elastic (path independent). The callback
 * records what the integrator did: restores, commits, the last trial displacement. */
typedef struct softening {
    double k, dy;
    int restores, commits;
    double last_d;
} softening;

static double soft_force(const softening *s, double d)
{
    return s->k * d / (1.0 + fabs(d) / s->dy);
}

static int soft_restore(void *user, const double *d, const double *v, double *r, double *Kt,
                        double *Ct)
{
    (void)v;
    softening *s = user;
    const double q = 1.0 + fabs(d[0]) / s->dy;
    r[0] = s->k * d[0] / q;
    if (Kt) Kt[0] = s->k / (q * q);
    if (Ct) Ct[0] = 0.0;
    s->restores++;
    s->last_d = d[0];
    return 0;
}

static int soft_commit(void *user)
{
    ((softening *)user)->commits++;
    return 0;
}

/* Runs 300 steps of a strongly softening SDOF and checks, step by step, the discrete equations
 * (Newmark relations and the mosqueda2008b HHT equation with the experimental mass term):
 *   d1 = d + dt v + dt^2 ((1/2 - beta) a + beta a1),  v1 = v + dt ((1 - gamma) a + gamma a1)
 *   M a1 - alpha Me (a1 - a) + (1 + alpha)(c v1 + r(d1)) - alpha (c v + r(d))
 *      = (1 + alpha) f1 - alpha f0 */
static void softening_run(const char *type, double alpha, double beta, double gamma, double Me)
{
    softening s = {.k = 100.0, .dy = 0.01};
    double M = 1.0, C = 2.0 * 0.02 * 10.0, K0 = s.k;
    hs_dynamics dyn = {.n = 1,
                       .M = &M,
                       .Me = Me > 0.0 ? &Me : NULL,
                       .C = &C,
                       .K0 = &K0,
                       .restore = soft_restore,
                       .commit = soft_commit,
                       .user = &s,
                       .linear = 0};
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_options *o = NULL;
    hs_options_create(&o);
    if (strcmp(type, "hht") == 0) hs_options_set_num(o, "alpha", alpha);
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, type, o, &it), 0);
    /* omega dt = 0.5: the predictor is far enough from the solution for Newton to iterate */
    const double zero = 0.0, dt = 0.05;
    assert_int_equal(hs_integrator_setup(it, &dyn, dt, &zero, &zero, &zero), 0);
    double f0 = 0.0, f1, dcmd;
    int total = 0, maxit = 0, multi = 0;
    double dmax = 0.0, worst = 0.0;
    for (int n = 0; n < 300; n++) {
        f1 = 5.0 * sin(8.0 * (n + 1) * dt);
        const double d = hs_integrator_displacement(it)[0], v = hs_integrator_velocity(it)[0],
                     a = hs_integrator_acceleration(it)[0];
        const int commits = s.commits;
        hs_step_io io = {.step = n, .t = n * dt, .f_n = &f0, .f_n1 = &f1, .d_cmd = &dcmd};
        int rc = hs_integrator_step(it, &io);
        if (rc) fail_msg("%s step %d: %s", type, n + 1, hs_ctx_message(ctx));
        const double d1 = hs_integrator_displacement(it)[0], v1 = hs_integrator_velocity(it)[0],
                     a1 = hs_integrator_acceleration(it)[0];
        assert_int_equal(s.commits, commits + 1); /* one commit per step */
        assert_true(s.last_d == d1);              /* restored at the final state */
        assert_true(io.iterations >= 1 && io.iterations <= 20);
        HS_ASSERT_NEAR(d1, d + dt * v + dt * dt * ((0.5 - beta) * a + beta * a1), 1e-12);
        HS_ASSERT_NEAR(v1, v + dt * ((1.0 - gamma) * a + gamma * a1), 1e-12);
        const double lhs = M * a1 - alpha * Me * (a1 - a) +
                           (1.0 + alpha) * (C * v1 + soft_force(&s, d1)) -
                           alpha * (C * v + soft_force(&s, d));
        const double rhs = (1.0 + alpha) * f1 - alpha * f0;
        worst = fmax(worst, fabs(lhs - rhs));
        total += io.iterations;
        maxit = io.iterations > maxit ? io.iterations : maxit;
        multi += io.iterations >= 2;
        dmax = fmax(dmax, fabs(d1));
        f0 = f1;
    }
    printf("  %-8s alpha %6.3f Me %.1f: peak |d| = %.4f (%.1f dy), Newton iterations: mean %.2f, "
           "max %d; worst equation residual %.2e\n",
           type, alpha, Me, dmax, dmax / s.dy, total / 300.0, maxit, worst);
    assert_true(dmax > 3.0 * s.dy); /* the spring did soften */
    assert_true(multi > 30);        /* Newton really iterated */
    assert_true(worst <= 1e-8 * 5.0);
    hs_integrator_destroy(&it);
    hs_options_destroy(&o);
    hs_ctx_destroy(&ctx);
}

static void test_newton_softening(void **state)
{
    (void)state;
    softening_run("newmark", 0.0, 0.25, 0.5, 0.0);
    softening_run("hht", -0.05, 0.25 * 1.05 * 1.05, 0.55, 0.0);
    softening_run("hht", -0.3, 0.25 * 1.3 * 1.3, 0.8, 0.3);
}

/* Newton must give up cleanly: one iteration allowed on a nonlinear spring */
static void test_newton_gives_up(void **state)
{
    (void)state;
    softening s = {.k = 100.0, .dy = 0.01};
    double M = 1.0, C = 0.0, K0 = s.k;
    hs_dynamics dyn = {.n = 1,
                       .M = &M,
                       .C = &C,
                       .K0 = &K0,
                       .restore = soft_restore,
                       .commit = soft_commit,
                       .user = &s};
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_num(o, "max_iter", 1);
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, "newmark", o, &it), 0);
    const double zero = 0.0, f0 = 0.0, f1 = 50.0;
    double dcmd;
    assert_int_equal(hs_integrator_setup(it, &dyn, 0.05, &zero, &zero, &zero), 0);
    hs_step_io io = {.step = 0, .t = 0.0, .f_n = &f0, .f_n1 = &f1, .d_cmd = &dcmd};
    assert_int_equal(hs_integrator_step(it, &io), HS_ECONVERGE);
    printf("  %s\n", hs_ctx_message(ctx));
    assert_non_null(strstr(hs_ctx_message(ctx), "did not converge"));
    hs_integrator_destroy(&it);
    hs_options_destroy(&o);
    hs_ctx_destroy(&ctx);
}

/* ---- the bilinear material through the model --------------------------------------------- */

static void test_newton_bilinear(void **state)
{
    (void)state;
    if (!hs_material_registry_find("bilinear")) {
        printf("  SKIP: the bilinear material is not registered in this build\n");
        skip();
    }
    const char *types[2] = {"newmark", "hht"};
    for (int t = 0; t < 2; t++) {
        hs_ctx *ctx = NULL;
        hs_ctx_create(&ctx);
        hs_model *m = NULL;
        assert_int_equal(hs_model_create(ctx, 1, &m), 0);
        const double mass = 1.0, zeta = 0.02;
        hs_model_set_mass(m, &mass);
        hs_options *mo = NULL;
        hs_options_create(&mo);
        hs_options_set_num(mo, "k", 100.0);
        hs_options_set_num(mo, "fy", 1.0);
        hs_options_set_num(mo, "b", 0.05);
        assert_true(hs_model_add_story(m, 0, "bilinear", mo, "bilinear") >= 0);
        hs_options_destroy(&mo);
        assert_int_equal(hs_model_damping_modal(m, &zeta), 0);
        double K0;
        hs_dynamics dyn;
        assert_int_equal(hs_model_dynamics(m, &K0, &dyn), 0);
        assert_int_equal(dyn.linear, 0);
        hs_integrator *it = NULL;
        assert_int_equal(hs_integrator_create(ctx, types[t], NULL, &it), 0);
        const double zero = 0.0, dt = 0.01, alpha = t == 1 ? -0.05 : 0.0;
        const double C = hs_model_damping(m)[0];
        assert_int_equal(hs_integrator_setup(it, &dyn, dt, &zero, &zero, &zero), 0);
        double f0 = 0.0, f1, dcmd, r0 = 0.0, worst = 0.0, dmax = 0.0;
        int maxit = 0, total = 0;
        for (int n = 0; n < 400; n++) {
            f1 = 3.0 * sin(6.0 * (n + 1) * dt);
            const double v = hs_integrator_velocity(it)[0];
            hs_step_io io = {.step = n, .t = n * dt, .f_n = &f0, .f_n1 = &f1, .d_cmd = &dcmd};
            int rc = hs_integrator_step(it, &io);
            if (rc) fail_msg("%s step %d: %s", types[t], n + 1, hs_ctx_message(ctx));
            /* the committed spring force is r(n+1): the equation with it */
            const double r1 = hs_model_spring_force(m, 0);
            const double a1 = hs_integrator_acceleration(it)[0], v1 = hs_integrator_velocity(it)[0];
            const double res = mass * a1 + (1 + alpha) * (C * v1 + r1) - alpha * (C * v + r0) -
                               ((1 + alpha) * f1 - alpha * f0);
            worst = fmax(worst, fabs(res));
            maxit = io.iterations > maxit ? io.iterations : maxit;
            total += io.iterations;
            dmax = fmax(dmax, fabs(hs_integrator_displacement(it)[0]));
            r0 = r1;
            f0 = f1;
        }
        printf("  bilinear %-8s peak |d| %.4f (yield at 0.01), iterations mean %.2f max %d, worst "
               "residual %.2e\n",
               types[t], dmax, total / 400.0, maxit, worst);
        assert_true(dmax > 0.02);
        assert_true(maxit <= 20 && maxit >= 1);
        assert_true(worst < 1e-8);
        hs_integrator_destroy(&it);
        hs_model_destroy(&m);
        hs_ctx_destroy(&ctx);
    }
}

/* ---- hybrid with a virtual linear lab equals the numerical run ------------------------------ */

static void test_hybrid_linear_lab(void **state)
{
    (void)state;
    const char *types[3] = {"newmark", "hht", "central_difference"};
    for (int t = 0; t < 3; t++) {
        const double Kn[4] = {200.0, -100.0, -100.0, 100.0};   /* numerical part */
        const double Kall[4] = {260.0, -100.0, -100.0, 100.0}; /* numerical + lab */
        hs_test_linear num = {2, Kn}, all = {2, Kall};
        const double Ke[4] = {60.0, 0.0, 0.0, 0.0}; /* the lab: a spring on DOF 1 */
        double M[4] = {1.0, 0.0, 0.0, 2.0}, C[4];
        for (int k = 0; k < 4; k++) C[k] = 0.2 * M[k] + 0.001 * all.K[k];
        hs_dynamics dn = {.n = 2,
                          .M = M,
                          .C = C,
                          .K0 = all.K,
                          .restore = hs_test_linear_restore,
                          .commit = hs_test_commit_nothing,
                          .user = &all,
                          .linear = 1};
        hs_dynamics dh = dn;
        dh.Ke = Ke;
        dh.user = &num;
        hs_ctx *ctx = NULL;
        hs_ctx_create(&ctx);
        hs_integrator *a = NULL, *b = NULL;
        assert_int_equal(hs_integrator_create(ctx, types[t], NULL, &a), 0);
        assert_int_equal(hs_integrator_create(ctx, types[t], NULL, &b), 0);
        const double d0[2] = {0.01, -0.02}, v0[2] = {0.1, 0.0}, z[2] = {0, 0};
        assert_int_equal(hs_integrator_setup(a, &dn, 0.02, d0, v0, z), 0);
        assert_int_equal(hs_integrator_setup(b, &dh, 0.02, d0, v0, z), 0);
        double f0[2] = {0, 0}, f1[2], ca[2], cb[2], rexp[2], diff = 0.0, peak = 0.0;
        for (int n = 0; n < 500; n++) {
            f1[0] = 10.0 * sin(3.0 * (n + 1) * 0.02);
            f1[1] = 0.0;
            hs_step_io ia = {.step = n, .t = n * 0.02, .f_n = f0, .f_n1 = f1, .d_cmd = ca};
            hs_step_io ib = ia;
            ib.d_cmd = cb;
            assert_int_equal(hs_integrator_step(a, &ia), 0);
            assert_int_equal(hs_integrator_predict(b, &ib), 0);
            hs_matvec(2, Ke, cb, rexp); /* measured at the command */
            ib.r_exp = rexp;
            assert_int_equal(hs_integrator_correct(b, &ib), 0);
            for (int i = 0; i < 2; i++) {
                diff = fmax(diff, fabs(hs_integrator_displacement(a)[i] -
                                       hs_integrator_displacement(b)[i]));
                peak = fmax(peak, fabs(hs_integrator_displacement(a)[i]));
            }
            memcpy(f0, f1, sizeof f0);
        }
        printf("  %-18s hybrid (virtual linear lab) vs numerical: max difference %.2e (peak "
               "%.3f)\n",
               types[t], diff, peak);
        assert_true(diff <= 1e-10 * peak);
        hs_integrator_destroy(&a);
        hs_integrator_destroy(&b);
        hs_ctx_destroy(&ctx);
    }
}

/* ---- checkpoints and input checks ------------------------------------------------------------ */

static void test_hht_checkpoint(void **state)
{
    (void)state;
    softening s = {.k = 100.0, .dy = 0.01};
    double M = 1.0, C = 0.4, K0 = s.k;
    hs_dynamics dyn = {.n = 1,
                       .M = &M,
                       .C = &C,
                       .K0 = &K0,
                       .restore = soft_restore,
                       .commit = soft_commit,
                       .user = &s};
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, "hht", NULL, &it), 0);
    const double zero = 0.0, dt = 0.01;
    assert_int_equal(hs_integrator_setup(it, &dyn, dt, &zero, &zero, &zero), 0);
    assert_int_equal(hs_integrator_state_size(it), 2 + 4 + 1); /* t, step, d v a f, r(n) */
    double saved[7], first[50], f0 = 0.0, f1, dcmd;
    for (int pass = 0; pass < 3; pass++) {
        if (pass == 1) assert_int_equal(hs_integrator_state_save(it, saved), 0);
        if (pass == 2) assert_int_equal(hs_integrator_state_load(it, saved), 0);
        if (pass == 2) f0 = 5.0 * sin(8.0 * 50 * dt);
        const int start = pass == 0 ? 0 : 50;
        for (int n = start; n < start + 50; n++) {
            f1 = 5.0 * sin(8.0 * (n + 1) * dt);
            hs_step_io io = {.step = n, .t = n * dt, .f_n = &f0, .f_n1 = &f1, .d_cmd = &dcmd};
            assert_int_equal(hs_integrator_step(it, &io), 0);
            if (pass == 1) first[n - 50] = hs_integrator_displacement(it)[0];
            if (pass == 2) assert_true(hs_integrator_displacement(it)[0] == first[n - 50]);
            f0 = f1;
        }
    }
    hs_integrator_destroy(&it);
    hs_ctx_destroy(&ctx);
}

static void test_exact_needs_classical_damping(void **state)
{
    (void)state;
    const double K[4] = {200.0, -100.0, -100.0, 100.0};
    hs_test_linear s = {2, K};
    double M[4] = {1.0, 0.0, 0.0, 1.0}, C[4] = {1.0, 0.0, 0.0, 0.0}; /* a dashpot on DOF 1 */
    hs_dynamics dyn = {.n = 2,
                       .M = M,
                       .C = C,
                       .K0 = s.K,
                       .restore = hs_test_linear_restore,
                       .commit = hs_test_commit_nothing,
                       .user = &s,
                       .linear = 1};
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, "exact", NULL, &it), 0);
    const double z[2] = {0, 0};
    assert_int_equal(hs_integrator_setup(it, &dyn, 0.01, z, z, z), HS_EINPUT);
    printf("  %s\n", hs_ctx_message(ctx));
    assert_non_null(strstr(hs_ctx_message(ctx), "not classical"));
    /* and refuses nonlinear models */
    dyn.linear = 0;
    C[0] = 0.0;
    assert_int_equal(hs_integrator_setup(it, &dyn, 0.01, z, z, z), HS_EINPUT);
    hs_integrator_destroy(&it);
    /* option ranges */
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_num(o, "alpha", -0.5);
    assert_int_equal(hs_integrator_create(ctx, "hht", o, &it), HS_EINPUT);
    assert_null(it);
    hs_options_set_num(o, "beta", 0.0);
    assert_int_equal(hs_integrator_create(ctx, "newmark", o, &it), HS_EINPUT);
    hs_options_destroy(&o);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chopra_exact),
        cmocka_unit_test(test_chopra_average_acceleration),
        cmocka_unit_test(test_chopra_linear_acceleration),
        cmocka_unit_test(test_chopra_central_difference),
        cmocka_unit_test(test_newton_softening),
        cmocka_unit_test(test_newton_gives_up),
        cmocka_unit_test(test_newton_bilinear),
        cmocka_unit_test(test_hybrid_linear_lab),
        cmocka_unit_test(test_hht_checkpoint),
        cmocka_unit_test(test_exact_needs_classical_damping),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
