/* The RTHS benchmark as a test file equals the C path (issue 20, item 3; docs/rths_benchmark.md,
 * "The benchmark as a test file"): `hysim run` (HS_CLI) of examples/rths_elcentro/reference.yaml
 * and rths_benchmark.yaml (the package's loop: ode4 with the Unit Delay on the fed-back force, the
 * controller on the target of t_k, Cn = C - ce e1 e1' and Kn = K - ke e1 e1' of the plant tested,
 * El Centro with 5 s of zeros before and after at 0.4 g interpolated at 1/4096 s) gives the J1-J9
 * of hs_rths_run (the loop written out at the controller rate, which test_rths_package checks
 * against an independent Python implementation of the package) within 0.01, for the nominal plant
 * and perturbed plant 1 with the inverse compensator, and the nominal one with the package's A/D
 * and D/A converters (command.converter_interval, converter_limit). Skipped, saying why, without
 * HS_CLI (run through ctest) or without the shared El Centro record. */
#include "hs_test.h"

#include "hs_output.h"
#include "hysim/ground_motion.h"
#include "hysim/options.h"
#include "hysim/rths.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define RATE   4096.0
#define G      9.80665
#define INTENS 0.4   /* Li's main.m:5 */
#define A_ES   102.6 /* the nominal plant's 25.05 ms at 4096 Hz */

/* The C path: J1-J9 of hs_rths_run, El Centro in the package's layout */
static void c_path(const char *record, int seed, int converters, hs_rths_criteria *c)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_str(o, "path", record);
    hs_options_set_num(o, "dt", 0.02);
    hs_options_set_num(o, "scale", G);
    hs_ground_motion *gm = NULL;
    assert_int_equal(hs_ground_motion_create(NULL, "columns", o, &gm), 0);
    hs_options_destroy(&o);
    size_t n = 0;
    double *ag = hs_rths_record_layout(gm->acc, gm->npts, gm->dt, INTENS, 5.0, 5.0, RATE, &n);
    hs_ground_motion_destroy(&gm);
    assert_non_null(ag);
    double *y = hs_dvec(3 * n), *yref = hs_dvec(3 * n), *xt = hs_dvec(n), *xm = hs_dvec(n);
    assert_true(y && yref && xt && xm);
    const hs_rths_plant_params p =
        seed ? hs_rths_plant_perturbed((unsigned long long)seed, 1.0) : hs_rths_plant_nominal();
    assert_int_equal(hs_rths_run(NULL, &p, NULL, NULL, ag, n, RATE, yref, NULL, NULL), 0);
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "a_es", A_ES);
    const hs_rths_run_opts ro = {.loop = HS_RTHS_LOOP_PACKAGE, .converters = converters};
    assert_int_equal(
        hs_rths_run_with(NULL, &p, "inverse", o, NULL, NULL, &ro, ag, n, RATE, y, xt, xm), 0);
    hs_options_destroy(&o);
    hs_rths_criteria_compute(xt, xm, y, yref, n, 3, 1.0 / RATE, c);
    hs_free(ag);
    hs_free(y);
    hs_free(yref);
    hs_free(xt);
    hs_free(xm);
}

/* `hysim run FILE -o DIR --quiet SETS` through the shell; its exit status */
static int run_cli(const char *cli, const char *file, const char *dir, const char *sets)
{
    char cmd[8192];
    const int len = snprintf(cmd, sizeof cmd, "'%s' run '%s' -o '%s' --quiet %s >/dev/null", cli,
                             file, dir, sets);
    assert_true(len > 0 && (size_t)len < sizeof cmd);
    const int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The number after "key": in the file's text, NAN when absent */
static double json_number(const char *path, const char *key)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char text[1 << 16];
    const size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *at = strstr(text, pat);
    return at ? strtod(at + strlen(pat), NULL) : NAN;
}

/* the run folders, removed by the teardown even when an assertion fails */
static char dir[4096];

static int remove_dir(void **state)
{
    (void)state;
    if (!dir[0]) return 0;
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    dir[0] = '\0';
    return system(cmd) == 0 ? 0 : -1;
}

static void test_testfile_equals_c_path(void **state)
{
    (void)state;
    const char *cli = getenv("HS_CLI"), *src = getenv("HS_SOURCE_DIR");
    const char *record = hs_test_shared_path("data/records/elcentro.txt");
    if (!cli || !cli[0] || !src || !src[0]) {
        printf("HS_CLI or HS_SOURCE_DIR not set (run through ctest): skipping\n");
        skip();
    }
    if (!record) {
        printf("the shared El Centro record (HS_SHARED_DATA or ../shared/data, "
               "records/elcentro.txt) is absent: skipping\n");
        skip();
    }
    char ref[4200], run[4200], file[4200], sets[4096];
    hs_test_make_dir(dir, sizeof dir, "test_rths_testfile");
    snprintf(ref, sizeof ref, "%s/reference", dir);
    snprintf(file, sizeof file, "%s/examples/rths_elcentro/reference.yaml", src);
    snprintf(sets, sizeof sets, "--set 'ground_motion.file=%s' --set ground_motion.dt=0.02",
             record);
    assert_int_equal(run_cli(cli, file, ref, sets), 0);
    snprintf(file, sizeof file, "%s/examples/rths_elcentro/rths_benchmark.yaml", src);
    static const char *const keys[10] = {NULL,         "J1_s",       "J2_percent", "J3_percent",
                                         "J4_percent", "J5_percent", "J6_percent", "J7_percent",
                                         "J8_percent", "J9_percent"};
    static const char *const names[3] = {"nominal", "perturbed 1", "nominal, converters"};
    printf("| plant | path | J1 (ms) | J2 | J3 | J4 | J5 | J6 | J7 | J8 | J9 |\n");
    /* the nominal and perturbed 1 plants, then the nominal with the package's converters */
    for (int run_i = 0; run_i < 3; run_i++) {
        const int seed = run_i == 1, conv = run_i == 2;
        hs_rths_criteria c;
        c_path(record, seed, conv, &c);
        int len = snprintf(sets, sizeof sets,
                           "--set 'ground_motion.file=%s' --set ground_motion.dt=0.02"
                           " --set 'analysis.reference.run=%s'",
                           record, ref);
        if (seed)
            snprintf(
                sets + len, sizeof sets - (size_t)len,
                " --set sites.rths.specimen.plant=perturbed --set sites.rths.specimen.seed=%d"
                " --set sites.frame.specimen.plant=perturbed --set sites.frame.specimen.seed=%d"
                " --set structure.damping.rths_benchmark.plant=perturbed"
                " --set structure.damping.rths_benchmark.seed=%d",
                seed, seed, seed);
        if (conv) /* 2^-18 m within +-3.8 m (F1_input_file.m:157-160) */
            snprintf(sets + len, sizeof sets - (size_t)len,
                     " --set sites.rths.command.converter_interval=%.17g"
                     " --set sites.rths.command.converter_limit=%g",
                     1.0 / (double)(1L << HS_RTHS_CONVERTER_BITS), HS_RTHS_CONVERTER_LIMIT);
        snprintf(run, sizeof run, "%s/run%d", dir, run_i);
        assert_int_equal(run_cli(cli, file, run, sets), 0);
        char summary[4300];
        snprintf(summary, sizeof summary, "%s/summary.json", run);
        double J[10];
        for (int j = 1; j <= 9; j++) J[j] = json_number(summary, keys[j]);
        J[1] *= 1e3; /* ms */
        const double c1 = c.J[1] * 1e3;
        printf("| %s | C path | %.1f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
               names[run_i], c1, c.J[2], c.J[3], c.J[4], c.J[5], c.J[6], c.J[7], c.J[8], c.J[9]);
        printf(
            "| %s | test file | %.1f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
            names[run_i], J[1], J[2], J[3], J[4], J[5], J[6], J[7], J[8], J[9]);
        HS_ASSERT_NEAR(J[1], c1, 0.01 + 1e-9);
        for (int j = 2; j <= 9; j++) HS_ASSERT_NEAR(J[j], c.J[j], 0.01 + 1e-9);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_testfile_equals_c_path, remove_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
