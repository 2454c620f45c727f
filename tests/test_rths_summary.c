/* J1-J9 of the RTHS benchmark (Silva et al. 2020) in a hybrid run's summary.json when the run has a
 * reference (hs_coordinator_set_reference; docs/rths_benchmark.md): Mosqueda and Ahmadizadeh's
 * (2008b) two-story test in the virtual lab (units kN, mm, s), a perfect lab as the reference. */
#include "hs_test.h"

#include "hs_build.h"
#include "hs_output.h"

#include "hysim/coordinator.h"
#include "hysim/results.h"
#include "hysim/rths.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DT (10.0 / 1024.0)

static char *slurp(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/summary.json", dir);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[1 << 16];
    const size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static double member(const char *json, const char *key)
{
    const char *p = strstr(json, key);
    assert_non_null(p);
    p += strlen(key);
    if (strncmp(p, "null", 4) == 0) return NAN;
    return strtod(p, NULL);
}

static hs_coordinator *run(hs_ctx *ctx, hs_test_def *def)
{
    hs_coordinator *c = NULL;
    if (hs_coordinator_create(ctx, def, &c)) fail_msg("create: %s", hs_ctx_message(ctx));
    if (hs_coordinator_run(c)) fail_msg("run: %s", hs_ctx_message(ctx));
    return c;
}

static void test_summary_criteria(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_ground_motion *gm = hs_tb_synthetic(ctx, 3, 0.2 * 9806.65, 4.0, DT);
    hs_test_def *perfect = hs_tb_mosqueda2008b(ctx, gm, "os_tangent", 1, 0.60, 0.15, 0);
    hs_test_def *lab = hs_tb_mosqueda2008b(ctx, gm, "os_tangent", 0, 0.60, 0.15, 0);
    hs_coordinator *ref = run(ctx, perfect), *hyb = run(ctx, lab);
    char dir[4096];

    /* without a reference: no criteria */
    hs_test_make_dir(dir, sizeof dir, "test_rths_summary");
    assert_int_equal(hs_coordinator_write(hyb, dir), 0);
    assert_null(strstr(slurp(dir), "rths_criteria"));
    hs_test_remove_dir(dir);

    /* the perfect lab against itself: the command is the measurement and the floors agree */
    hs_coordinator_set_reference(ref, hs_coordinator_results(ref));
    hs_test_make_dir(dir, sizeof dir, "test_rths_summary");
    assert_int_equal(hs_coordinator_write(ref, dir), 0);
    const char *js = slurp(dir);
    HS_ASSERT_NEAR(member(js, "\"J1_s\": "), 0.0, 1e-12);
    HS_ASSERT_NEAR(member(js, "\"J3_percent\": "), 0.0, 1e-12);
    /* J4 compares the actuator's measurement (the integrator's predictor, as F4 uses X_m) with
     * the reference's floor 1 (the corrected displacement): small, not 0 */
    const double j4_self = member(js, "\"J4_percent\": ");
    print_message("perfect lab against itself: J4 %g %%\n", j4_self);
    assert_true(j4_self > 0.0 && j4_self < 0.5);
    HS_ASSERT_NEAR(member(js, "\"J8_percent\": "), 0.0, 1e-12);
    /* two DOFs: no third floor (J7, J9 are floor 3's) */
    assert_true(isnan(member(js, "\"J7_percent\": ")) && isnan(member(js, "\"J9_percent\": ")));
    hs_test_remove_dir(dir);

    /* the reference written and read back (analysis.reference: {run: DIR}): its response.csv
     * carries every displacement exactly, so the criteria against it are the in-memory ones bit
     * for bit */
    hs_test_make_dir(dir, sizeof dir, "test_rths_summary");
    assert_int_equal(hs_coordinator_write(ref, dir), 0);
    hs_results *back = NULL;
    const int64_t nrec = hs_results_count(hs_coordinator_results(ref));
    assert_int_equal(hs_results_read_reference(ctx, dir, 2, DT, nrec, &back), 0);
    assert_int_equal(hs_results_count(back), nrec);
    hs_rths_criteria mem, file;
    assert_int_equal(hs_rths_criteria_from_results(ctx, hs_coordinator_results(hyb),
                                                   hs_coordinator_results(ref), 0, DT, &mem),
                     0);
    assert_int_equal(
        hs_rths_criteria_from_results(ctx, hs_coordinator_results(hyb), back, 0, DT, &file), 0);
    for (int j = 1; j <= 9; j++)
        assert_true(memcmp(&mem.J[j], &file.J[j], sizeof(double)) == 0); /* NaN too */
    hs_results_destroy(&back);
    /* refused: another DOF count, another step, a folder without a run */
    assert_int_equal(hs_results_read_reference(ctx, dir, 3, DT, nrec, &back), HS_EINPUT);
    print_message("    %s\n", hs_ctx_message(ctx));
    assert_non_null(
        strstr(hs_ctx_message(ctx), "response.csv:1: expected the header t and 3 DOF names"));
    assert_int_equal(hs_results_read_reference(ctx, dir, 2, 2.0 * DT, nrec, &back), HS_EINPUT);
    print_message("    %s\n", hs_ctx_message(ctx));
    assert_non_null(strstr(hs_ctx_message(ctx), "response.csv:3: record 1 is at t = "));
    assert_null(back);
    hs_test_remove_dir(dir);
    assert_int_equal(hs_results_read_reference(ctx, dir, 2, DT, nrec, &back), HS_EIO);
    assert_non_null(strstr(hs_ctx_message(ctx), "run the reference test first"));

    /* the lab with delay and noise against the perfect run: small but nonzero errors */
    hs_coordinator_set_reference(hyb, hs_coordinator_results(ref));
    hs_test_make_dir(dir, sizeof dir, "test_rths_summary");
    assert_int_equal(hs_coordinator_write(hyb, dir), 0);
    js = slurp(dir);
    const double j1 = member(js, "\"J1_s\": "), j3 = member(js, "\"J3_percent\": "),
                 j4 = member(js, "\"J4_percent\": "), j6 = member(js, "\"J6_percent\": ");
    hs_test_remove_dir(dir);
    print_message("lab vs perfect: J1 %g s, J3 %g %%, J4 %g %%, J6 %g %%\n", j1, j3, j4, j6);
    assert_true(fabs(j1) < DT);
    assert_true(j3 > 0.0 && j3 < 20.0);
    assert_true(j4 > 0.0 && j4 < 20.0 && j6 > 0.0 && j6 < 20.0);

    hs_coordinator_destroy(&hyb);
    hs_coordinator_destroy(&ref);
    hs_tb_free(lab);
    hs_tb_free(perfect);
    hs_ground_motion_destroy(&gm);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_summary_criteria)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
