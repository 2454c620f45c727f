/* What a hybrid run leaves behind about its actuators: /actuators/{command, measured, force,
 * tangent} in results.h5 (docs/outputs.md), filled by the coordinator each step, and the three
 * actuator figures of `hysim plot`. The two-story test of Mosqueda & Ahmadizadeh 2008b (all
 * stiffness experimental, two actuators on the story drifts; units kN, mm, s) in the virtual
 * laboratory. */
#include "hs_test.h"

#include "hs_build.h"
#include "hs_output.h"

#include "hysim/coordinator.h"
#include "hysim/integrator.h"
#include "hysim/results.h"

#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DT (10.0 / 1024.0)

/* Dataset `name`: rows x cols doubles (checked), its units and column names (checked). */
static double *h5_block(hid_t file, const char *name, hsize_t rows, hsize_t cols, const char *units,
                        const char *const *names)
{
    double *x = hs_h5_read(file, name, rows, cols, units);
    hid_t set = H5Dopen2(file, name, H5P_DEFAULT);
    assert_true(set >= 0);
    hs_h5_names(set, "names", names, (int)cols);
    H5Dclose(set);
    return x;
}

typedef struct actuator_series {
    int64_t n;
    double *cmd, *meas, *force, *tangent; /* n x 2, n x 4 */
} actuator_series;

static actuator_series read_actuators(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/results.h5", dir);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(file >= 0);
    hid_t t = H5Dopen2(file, "time", H5P_DEFAULT);
    hid_t space = H5Dget_space(t);
    hsize_t n = 0;
    H5Sget_simple_extent_dims(space, &n, NULL);
    H5Sclose(space);
    H5Dclose(t);
    static const char *const names[2] = {"lab.a1", "lab.a2"};
    static const char *const tnames[4] = {"K(lab.a1,lab.a1)", "K(lab.a2,lab.a1)",
                                          "K(lab.a1,lab.a2)", "K(lab.a2,lab.a2)"};
    actuator_series a = {.n = (int64_t)n};
    a.cmd = h5_block(file, "actuators/command", n, 2, "mm", names);
    a.meas = h5_block(file, "actuators/measured", n, 2, "mm", names);
    a.force = h5_block(file, "actuators/force", n, 2, "kN", names);
    a.tangent = h5_block(file, "actuators/tangent", n, 4, "kN/mm", tnames);
    H5Fclose(file);
    return a;
}

static void free_series(actuator_series *a)
{
    free(a->cmd);
    free(a->meas);
    free(a->force);
    free(a->tangent);
}

/* Runs def to the end, writes it into a fresh dir; the coordinator is returned for inspection. */
static hs_coordinator *run(hs_ctx *ctx, hs_test_def *def, char *dir, size_t len)
{
    hs_coordinator *c = NULL;
    if (hs_coordinator_create(ctx, def, &c)) fail_msg("create: %s", hs_ctx_message(ctx));
    if (hs_coordinator_run(c)) fail_msg("run: %s", hs_ctx_message(ctx));
    hs_test_make_dir(dir, len, "test_hybrid_outputs");
    assert_int_equal(hs_coordinator_write(c, dir), 0);
    return c;
}

/* Mosqueda and Ahmadizadeh's (2008b) nonlinear case in a lab with delay and noise, os_tangent: the
 * recorded series are the coordinator's measurements, row by row; the tangent starts at K0l and
 * softens past yield. */
static void test_os_tangent_nonlinear(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_ground_motion *gm = hs_tb_synthetic(ctx, 3, 0.35 * 0.85 * 9806.65, 6.0, DT);
    hs_test_def *def = hs_tb_mosqueda2008b(ctx, gm, "os_tangent", 0, 0.60, 0.15, 1);
    const double *K0l = def->experimental[0].K0l;
    char dir[4096];
    hs_coordinator *c = run(ctx, def, dir, sizeof dir);
    const hs_experiment *e = hs_coordinator_experiment(c);
    assert_non_null(e);
    assert_int_equal(e->nact, 2);
    actuator_series a = read_actuators(dir);
    assert_true(a.n == def->steps + 1);
    const int64_t last = a.n - 1;

    /* the last row is the coordinator's last command and measurement */
    for (int i = 0; i < 2; i++) {
        assert_true(a.cmd[last * 2 + i] == e->x_cmd[i]);
        assert_true(a.meas[last * 2 + i] == e->x_meas[i]);
        assert_true(a.force[last * 2 + i] == e->f_meas[i]);
        /* nothing is commanded or measured at t = 0 */
        assert_true(isnan(a.cmd[i]) && isnan(a.meas[i]) && isnan(a.force[i]));
    }
    /* the tangent starts at the initial stiffness, exactly */
    for (int k = 0; k < 4; k++) assert_true(a.tangent[k] == K0l[k]);

    /* every row is the measurement of its step: the experimental work integrated from the
     * recorded series (trapezoids from rest) is the coordinator's own (summary.json) */
    double work = 0.0, xp[2] = {0, 0}, fp[2] = {0, 0};
    for (int64_t k = 1; k < a.n; k++)
        for (int i = 0; i < 2; i++) {
            const double x = a.meas[k * 2 + i], f = a.force[k * 2 + i];
            work += 0.5 * (fp[i] + f) * (x - xp[i]);
            xp[i] = x;
            fp[i] = f;
        }
    hs_hybrid_stats st;
    assert_int_equal(hs_coordinator_hybrid_stats(c, &st), 0);
    HS_ASSERT_NEAR(work, st.experimental_work, 1e-12 * fabs(st.experimental_work));
    assert_true(st.experimental_work > 0.0); /* yielding coupons dissipate */

    /* the actuators lag by 3 controller samples: measured != command, but close to it; the
     * Bouc-Wen coupons soften past yield (2 mm): the first story's estimate drops well below
     * k1 (post-yield 0.05 k1) and stays positive (the estimator's floor) */
    double peak = 0.0, lag = 0.0, kmin = INFINITY;
    for (int64_t k = 1; k < a.n; k++) {
        peak = fmax(peak, fabs(a.cmd[k * 2]));
        lag = fmax(lag, fabs(a.meas[k * 2] - a.cmd[k * 2]));
        kmin = fmin(kmin, a.tangent[k * 4]);
        assert_true(isfinite(a.tangent[k * 4 + 3]));
        assert_true(a.tangent[k * 4 + 1] == a.tangent[k * 4 + 2]); /* symmetric */
    }
    print_message(
        "os_tangent, Mosqueda & Ahmadizadeh 2008b nonlinear: peak drift %.2f mm, largest tracking "
        "difference %.3g mm, smallest K11 %.4g kN/mm (k1 = %.4g)\n",
        peak, lag, kmin, K0l[0]);
    assert_true(peak > 2.0 * 2.0);
    assert_true(lag > 0.0 && lag < 0.2 * peak);
    assert_true(kmin < 0.5 * K0l[0] && kmin > 0.0);

    if (hs_test_plot(dir)) {
        const char *pngs[] = {"displacement.png",         "hysteresis.png",         "energy.png",
                              "actuators_hysteresis.png", "actuators_tracking.png", "tangent.png"};
        for (size_t i = 0; i < sizeof pngs / sizeof pngs[0]; i++)
            assert_true(hs_test_is_png(dir, pngs[i]));
    }
    free_series(&a);
    hs_coordinator_destroy(&c);
    hs_test_remove_dir(dir);
    hs_tb_free(def);
    hs_ground_motion_destroy(&gm);
    hs_ctx_destroy(&ctx);
}

/* A perfect lab with a linear specimen K = diag(k1, k2): every measured force is K times the
 * measured displacement, the measurement is the command, and the estimated tangent stays K. */
static void test_perfect_linear(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_ground_motion *gm = hs_tb_synthetic(ctx, 3, 0.1 * 9806.65, 3.0, DT);
    hs_test_def *def = hs_tb_mosqueda2008b(ctx, gm, "implicit_hht_fe", 1, 0.60, 0.15, 0);
    const double *K0l = def->experimental[0].K0l;
    char dir[4096];
    hs_coordinator *c = run(ctx, def, dir, sizeof dir);
    actuator_series a = read_actuators(dir);
    double peak = 0.0;
    for (int64_t k = 1; k < a.n; k++) {
        for (int i = 0; i < 2; i++) {
            const double x = a.meas[k * 2 + i], f = a.force[k * 2 + i], kk = K0l[i * 3];
            peak = fmax(peak, fabs(x));
            HS_ASSERT_NEAR(x, a.cmd[k * 2 + i], 1e-12 * (1.0 + fabs(x)));
            HS_ASSERT_NEAR(f, kk * x, 1e-9 * kk * (1e-3 + fabs(x)));
        }
        for (int q = 0; q < 4; q++) HS_ASSERT_NEAR(a.tangent[k * 4 + q], K0l[q], 1e-6 * K0l[0]);
    }
    assert_true(peak > 0.5); /* a real response, mm */
    free_series(&a);
    hs_coordinator_destroy(&c);
    hs_test_remove_dir(dir);
    hs_tb_free(def);
    hs_ground_motion_destroy(&gm);
    hs_ctx_destroy(&ctx);
}

/* An integrator without a tangent estimate (alpha_os): the tangent series is NaN throughout,
 * and `hysim plot` draws the actuators but no tangent.png. */
static void test_no_tangent(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, "alpha_os", NULL, &it), 0);
    double K[4];
    assert_int_equal(hs_integrator_experimental_stiffness(it, K), HS_EUNSUPPORTED);
    hs_integrator_destroy(&it);
    assert_int_equal(hs_integrator_create(ctx, "os_tangent", NULL, &it), 0);
    assert_int_equal(hs_integrator_experimental_stiffness(it, K), HS_EUNSUPPORTED); /* unsized */
    hs_integrator_destroy(&it);

    hs_ground_motion *gm = hs_tb_synthetic(ctx, 3, 0.1 * 9806.65, 2.0, DT);
    hs_test_def *def = hs_tb_mosqueda2008b(ctx, gm, "alpha_os", 0, 0.60, 0.15, 0);
    char dir[4096];
    hs_coordinator *c = run(ctx, def, dir, sizeof dir);
    actuator_series a = read_actuators(dir);
    for (int64_t k = 0; k < a.n * 4; k++) assert_true(isnan(a.tangent[k]));
    assert_true(isfinite(a.force[(a.n - 1) * 2]));
    if (hs_test_plot(dir)) {
        assert_true(hs_test_is_png(dir, "actuators_hysteresis.png"));
        assert_true(hs_test_is_png(dir, "actuators_tracking.png"));
        char path[4200];
        snprintf(path, sizeof path, "%s/tangent.png", dir);
        assert_int_equal(access(path, F_OK), -1);
    }
    free_series(&a);
    hs_coordinator_destroy(&c);
    hs_test_remove_dir(dir);
    hs_tb_free(def);
    hs_ground_motion_destroy(&gm);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_os_tangent_nonlinear),
        cmocka_unit_test(test_perfect_linear),
        cmocka_unit_test(test_no_tangent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
