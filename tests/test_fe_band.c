/* A frame model without condensed DOFs and a narrow band gives its tangents in packed band
 * storage (hs_fe_tangent_band, hs_fe_restore_band; src/fe/fe_assemble.c), so that a shear
 * building read as zero-length elements (OpenSees' Tcl) steps as the spring model does:
 * - a 1-D chain of 8 Bouc-Wen zero-length stories: hs_fe_tangent_band = 1, and at a displaced,
 *   moving state hs_fe_restore_band gives the forces and every band entry of Kt and Ct of the
 *   dense hs_fe_restore bit for bit (Ct from a viscous story), the entries outside the band zero;
 * - the same chain wrapped as a model (dyn.tangent_band = 2: the tridiagonal solver) and the
 *   spring model of the same stories (hs_model_add_story) under newmark, hht and alpha_os give
 *   the same 400-step history of every floor bit for bit, the top yielding (the comparison means
 *   something). */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { STORIES = 8, STEPS = 400 };

static const double PI = 3.14159265358979323846, MASS = 5e4;

static hs_options *bouc_wen(double k0)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "k0", k0);
    hs_options_set_num(o, "alpha", 0.05);
    hs_options_set_num(o, "n", 2.0);
    hs_options_set_num(o, "gamma", 2e4);
    hs_options_set_num(o, "beta", 2e4);
    return o;
}

/* the chain: node 1 the ground, node s + 1 floor s; story s zero-length Bouc-Wen (k0 falling
 * with height), with a viscous story 3 beside it when `viscous` */
static hs_fe *chain(hs_ctx *ctx, int viscous)
{
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 1, 1), 0);
    const int fix[1] = {1};
    const double m[1] = {MASS};
    for (int s = 0; s <= STORIES; s++) {
        assert_true(hs_fe_add_node(fe, s + 1, 0.0, 0.0) >= 0);
        if (s == 0)
            assert_int_equal(hs_fe_fix(fe, 1, fix), 0);
        else
            assert_int_equal(hs_fe_add_mass(fe, s + 1, m), 0);
    }
    for (int s = 1; s <= STORIES; s++) {
        hs_options *o = bouc_wen(2e7 * (1.0 - 0.05 * s));
        char name[16];
        snprintf(name, sizeof name, "story%d", s);
        assert_true(hs_fe_add_zero_length(fe, name, s, s + 1, HS_FE_UX, "bouc_wen", o) >= 0);
        hs_options_destroy(&o);
    }
    if (viscous) {
        hs_options *o = NULL;
        assert_int_equal(hs_options_create(&o), 0);
        hs_options_set_num(o, "c", 3e5);
        hs_options_set_num(o, "alpha", 0.5);
        assert_true(hs_fe_add_zero_length(fe, "damper", 3, 4, HS_FE_UX, "viscous", o) >= 0);
        hs_options_destroy(&o);
    }
    const int rc = hs_fe_finalize(fe);
    if (rc) fprintf(stderr, "%s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    return fe;
}

static void test_restore_band_equals_dense(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_fe *fe = chain(ctx, 1);
    const int n = hs_fe_ndof(fe), kd = hs_fe_tangent_band(fe);
    assert_int_equal(n, STORIES);
    assert_int_equal(kd, 1);
    double d[STORIES], v[STORIES], r1[STORIES] = {0}, r2[STORIES] = {0};
    double K[STORIES * STORIES] = {0}, C[STORIES * STORIES] = {0};
    double Kb[3 * STORIES] = {0}, Cb[3 * STORIES] = {0};
    for (int i = 0; i < n; i++) {
        d[i] = 0.004 * (i + 1) * (1.0 + 0.3 * sin(i)); /* beyond yield (5 mm) in places */
        v[i] = 0.05 * cos(1.7 * i);
    }
    assert_int_equal(hs_fe_restore(fe, d, v, r1, K, C), 0);
    assert_int_equal(hs_fe_restore_band(fe, d, v, r2, Kb, Cb, kd), 0);
    int off_band = 0;
    for (int j = 0; j < n; j++) {
        assert_true(r1[j] == r2[j]);
        for (int i = 0; i < n; i++) {
            if (abs(i - j) > kd) {
                off_band += HS_AT(K, n, i, j) != 0.0 || HS_AT(C, n, i, j) != 0.0;
                continue;
            }
            assert_true(HS_AT(K, n, i, j) == HS_BAND_AT(Kb, kd, i, j));
            assert_true(HS_AT(C, n, i, j) == HS_BAND_AT(Cb, kd, i, j));
        }
    }
    assert_int_equal(off_band, 0);
    assert_true(HS_BAND_AT(Cb, kd, 1, 2) < 0.0); /* the damper (floors 2, 3) couples DOFs 1, 2 */
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

/* 400 steps of a ground sine; hist[n * STORIES + i] floor i's displacement */
static void run(hs_ctx *ctx, hs_model *m, const char *type, double *hist, int *band)
{
    double K0[STORIES * STORIES];
    hs_dynamics dyn;
    assert_int_equal(hs_model_damping_stiffness_proportional(m, 0, 0.02), 0);
    assert_int_equal(hs_model_dynamics(m, K0, &dyn), 0);
    *band = dyn.tangent_band;
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, type, NULL, &it), 0);
    const double dt = 0.01, zero[STORIES] = {0};
    assert_int_equal(hs_integrator_setup(it, &dyn, dt, zero, zero, zero), 0);
    for (int n = 0; n < STEPS; n++) {
        double f0[STORIES], f1[STORIES], dcmd[STORIES];
        for (int i = 0; i < STORIES; i++) {
            f0[i] = -MASS * 6.0 * sin(2.0 * PI * n * dt);
            f1[i] = -MASS * 6.0 * sin(2.0 * PI * (n + 1) * dt);
        }
        hs_step_io io = {.step = n, .t = n * dt, .f_n = f0, .f_n1 = f1, .d_cmd = dcmd};
        const int rc = hs_integrator_step(it, &io);
        if (rc) fprintf(stderr, "%s step %d: %s\n", type, n, hs_ctx_message(ctx));
        assert_int_equal(rc, 0);
        memcpy(hist + (size_t)n * STORIES, hs_integrator_displacement(it), sizeof f0);
    }
    hs_integrator_destroy(&it);
}

static void test_chain_steps_as_springs(void **state)
{
    (void)state;
    static const char *const types[] = {"newmark", "hht", "alpha_os"};
    static double a[STEPS * STORIES], b[STEPS * STORIES];
    for (int t = 0; t < 3; t++) {
        hs_ctx *ctx = NULL;
        assert_int_equal(hs_ctx_create(&ctx), 0);
        hs_model *sp = NULL, *fm = NULL;
        const double mass[STORIES] = {MASS, MASS, MASS, MASS, MASS, MASS, MASS, MASS};
        assert_int_equal(hs_model_create(ctx, STORIES, &sp), 0);
        assert_int_equal(hs_model_set_mass(sp, mass), 0);
        for (int s = 1; s <= STORIES; s++) {
            hs_options *o = bouc_wen(2e7 * (1.0 - 0.05 * s));
            assert_true(hs_model_add_story(sp, s - 1, "bouc_wen", o, NULL) >= 0);
            hs_options_destroy(&o);
        }
        hs_fe *fe = chain(ctx, 0);
        assert_int_equal(hs_model_create(ctx, STORIES, &fm), 0);
        double iota[STORIES];
        hs_fe_influence(fe, HS_FE_UX, iota);
        assert_int_equal(hs_model_set_mass(fm, mass), 0);
        assert_int_equal(hs_model_set_influence(fm, iota), 0);
        assert_int_equal(hs_model_attach_fe(fm, fe), 0);
        int band_sp = 0, band_fe = 0;
        run(ctx, sp, types[t], a, &band_sp);
        run(ctx, fm, types[t], b, &band_fe);
        assert_int_equal(band_fe, 2); /* kd = 1: the tridiagonal solvers */
        assert_int_equal(band_sp, band_fe);
        double peak = 0.0;
        for (int k = 0; k < STEPS * STORIES; k++) {
            assert_true(a[k] == b[k]); /* bit for bit */
            peak = fmax(peak, fabs(a[k]));
        }
        print_message("%s: the chain of zero-length stories and the spring model agree bit for bit "
                      "over %d steps (peak %.4f m)\n",
                      types[t], STEPS, peak);
        assert_true(peak > 0.01); /* the stories yield (5 mm) */
        hs_model_destroy(&sp);
        hs_model_destroy(&fm);
        hs_ctx_destroy(&ctx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_restore_band_equals_dense),
        cmocka_unit_test(test_chain_steps_as_springs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
