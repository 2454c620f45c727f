/* analysis.initial_acceleration: equilibrium (default) or zero (OpenSees' start), through the
 * test file, the coordinator and the integrator. A linear SDOF (m = 1, k = omega^2, undamped)
 * under a step ground acceleration (every sample ag, the first one too) integrated by Newmark's
 * average acceleration: the two starts differ by the free response of the discrete map from
 * (d, v, a) = (0, 0, da), da = -ag (the run from equilibrium minus the run from zero, the loads
 * being the same). Closed form: the first step gives d1 = (h^2 / 4) da / (1 + omega^2 h^2 / 4),
 * v1 = 2 d1 / h (a1 = -omega^2 d1: equilibrium holds from step 1); from there the trapezoidal
 * rule is the Cayley rotation of (omega d, v) by Omega h = 2 atan(omega h / 2) a step, so
 *   omega dd_n = rho sin(Omega h (n - 1) + phi),  rho = |(omega d1, v1)|, phi = atan2(omega d1,
 * v1). The equilibrium run is also checked against its own closed form (the same rotation of (omega
 * (d - s), v) about the static displacement s = -ag / omega^2: d_n = s (1 - cos(Omega h n))), and
 * the default against an explicit `equilibrium`, bit for bit. */
#include "hs_test.h"

#include "hysim/coordinator.h"
#include "hysim/testfile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { NSTEP = 400 };
static const double h = 0.01, omega = 12.0, ag = 2.0;
static char dir[64], record[128];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/hs_ia_XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(record, sizeof record, "%s/step.txt", dir);
    FILE *f = fopen(record, "w");
    assert_non_null(f);
    for (int k = 0; k <= NSTEP + 1; k++) fprintf(f, "%.17g\n", ag);
    fclose(f);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(record);
    rmdir(dir);
    return 0;
}

/* The displacement after each step (d[0] = 0 .. d[NSTEP]); `start` the analysis line or "". */
static void run(const char *start, double *d)
{
    char text[1024];
    snprintf(text, sizeof text,
             "hysim: 1\nname: sdof-step\nunits: {force: kN, length: m, time: s}\n"
             "structure:\n  dofs: 1\n  mass: [1]\n  ground_influence: [1]\n"
             "  shear_building:\n    stories: [{material: k}]\n  damping: {none: true}\n"
             "materials:\n  k: {type: elastic, k: %.17g}\n"
             "ground_motion: {file: %s, format: columns, dt: %g}\n"
             "analysis:\n  integrator: {type: newmark, beta: 0.25, gamma: 0.5}\n  dt: %g\n"
             "  steps: %d\n%s",
             omega * omega, record, h, h, NSTEP, start);
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = NULL;
    const int rc = hs_testfile_load_string(ctx, text, strlen(text), "ia.yaml", &def);
    if (rc) fprintf(stderr, "%s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    hs_coordinator *c = NULL;
    assert_int_equal(hs_coordinator_create(ctx, def, &c), 0);
    hs_coordinator_set_recording(c, 0);
    d[0] = hs_coordinator_displacement(c)[0];
    for (int k = 1; k <= NSTEP; k++) {
        assert_int_equal(hs_coordinator_advance(c, 1), 0);
        d[k] = hs_coordinator_displacement(c)[0];
    }
    hs_coordinator_destroy(&c);
    hs_test_def_destroy(&def);
    hs_ctx_destroy(&ctx);
}

static void test_zero_against_equilibrium(void **state)
{
    (void)state;
    static double de[NSTEP + 1], dz[NSTEP + 1], dd[NSTEP + 1];
    run("  initial_acceleration: equilibrium\n", de);
    run("  initial_acceleration: zero\n", dz);
    run("", dd);
    assert_memory_equal(dd, de, sizeof de); /* the default is equilibrium */

    const double Oh = 2.0 * atan(omega * h / 2.0), da = -ag;
    const double d1 = h * h / 4.0 * da / (1.0 + omega * omega * h * h / 4.0), v1 = 2.0 * d1 / h;
    const double rho = hypot(omega * d1, v1), phi = atan2(omega * d1, v1);
    const double stat = -ag / (omega * omega); /* the static displacement under the step */
    double worst = 0.0, worst_eq = 0.0, peak = 0.0, peak_diff = 0.0;
    for (int n = 1; n <= NSTEP; n++) {
        const double diff = rho * sin(Oh * (double)(n - 1) + phi) / omega;
        const double eq = stat * (1.0 - cos(Oh * (double)n));
        if (fabs(de[n] - dz[n] - diff) > worst) worst = fabs(de[n] - dz[n] - diff);
        if (fabs(de[n] - eq) > worst_eq) worst_eq = fabs(de[n] - eq);
        if (fabs(de[n]) > peak) peak = fabs(de[n]);
        if (fabs(diff) > peak_diff) peak_diff = fabs(diff);
    }
    print_message("    %d steps: peak |d| %.6g, zero start off by up to %.4g (%.3g of the peak); "
                  "difference vs closed form %.3g, equilibrium run vs closed form %.3g\n",
                  NSTEP, peak, peak_diff, peak_diff / peak, worst, worst_eq);
    assert_true(peak_diff > 1e-3 * peak); /* the two starts really differ */
    assert_true(worst <= 1e-12 * peak);
    assert_true(worst_eq <= 1e-12 * peak);
}

static void test_bad_value(void **state)
{
    (void)state;
    const char *text = "hysim: 1\nname: x\nunits: {force: kN, length: m, time: s}\n"
                       "structure:\n  dofs: 1\n  mass: [1]\n  ground_influence: [1]\n"
                       "  shear_building:\n    stories: [{material: k}]\n  damping: {none: true}\n"
                       "materials:\n  k: {type: elastic, k: 1}\n"
                       "ground_motion: {synthetic: {seed: 1, pga: 1, duration: 1, dt: 0.01}}\n"
                       "analysis:\n  integrator: {type: newmark}\n  dt: 0.01\n  steps: 10\n"
                       "  initial_acceleration: zeros\n";
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = NULL;
    assert_int_equal(hs_testfile_load_string(ctx, text, strlen(text), "bad.yaml", &def), HS_EINPUT);
    print_message("    %s\n", hs_ctx_message(ctx));
    assert_non_null(strstr(hs_ctx_message(ctx), "bad.yaml:18:"));
    assert_non_null(strstr(hs_ctx_message(ctx), "'zeros'"));
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_against_equilibrium),
        cmocka_unit_test(test_bad_value),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
