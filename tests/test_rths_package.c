/* The RTHS benchmark (Silva et al. 2020) as its package runs it, checked against an independent
 * implementation: tests/support/rths_package.py, written in Python (numpy, scipy) from the
 * package's files (Case_1.mat read by scipy, the plant from the blocks of
 * vRTHS_MDOF_SimRT_PI.slx, the reference from scipy.signal.lsim, the criteria from
 * F4_evaluation_PI.m), sharing no code with hysim. El Centro in the package's layout (5 s of zeros
 * before and after, at 0.4 as Li's main.m:5, linear interpolation at 1/4096 s), no compensation,
 * polynomial, inverse and adaptive inverse compensation, the nominal plant and perturbed plants
 * 1-3. Both must give J1-J9 within 0.01 (J1 in ms, to its 0.1 ms resolution: equal), and fail at
 * the same sample where the actuator reaches its capacity. Prints the table of
 * docs/rths_benchmark.md with both columns (ctest -V).
 *
 * Needs the shared records (HS_SHARED_DATA or ../shared: data/records/elcentro.txt), the package
 * (RTHS_BENCHMARK_SRC: its "Building cases/Case_1.mat") and python3 with numpy and scipy
 * (HS_PYTHON, default /usr/bin/python3); skips with a message naming what is absent. */
#include "hs_test.h"

#include "hysim/ground_motion.h"
#include "hysim/rths.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define RATE     4096.0
#define NCOMP    4
#define NPLANT   4
#define G        9.80665
#define INTENS   0.4 /* Li's main.m:5 */
#define ADAPT_KP 0.4
#define ADAPT_KI 0.04

static const char *const comp_names[NCOMP] = {"none", "polynomial", "inverse", "adaptive_inverse"};

typedef struct row {
    int failed; /* the sample at which the force reached the capacity, or -1 */
    double J[10];
} row;

static hs_rths_plant_params plant_of(int i)
{
    return i ? hs_rths_plant_perturbed((unsigned long long)i, 1.0) : hs_rths_plant_nominal();
}

static void plant_name(int i, char *buf, size_t size)
{
    snprintf(buf, size, i ? "perturbed_%d" : "nominal", i);
}

/* El Centro in the package's layout at the controller rate */
static double *el_centro(const char *path, size_t *n)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_str(o, "path", path);
    hs_options_set_num(o, "dt", 0.02);
    hs_options_set_num(o, "scale", G);
    hs_ground_motion *gm = NULL;
    assert_int_equal(hs_ground_motion_create(NULL, "columns", o, &gm), 0);
    hs_options_destroy(&o);
    double *ag = hs_rths_record_layout(gm->acc, gm->npts, gm->dt, INTENS, 5.0, 5.0, RATE, n);
    /* the package's ElCentroAccelNoScaling.mat: 2060 samples from 0 to 41.18 s */
    HS_ASSERT_NEAR(0.02 * (double)(gm->npts - 1) + 10.0, 41.18, 1e-9);
    assert_int_equal(*n, (size_t)floor(41.18 * RATE) + 1);
    hs_ground_motion_destroy(&gm);
    assert_non_null(ag);
    return ag;
}

static void comp_options(int c, double tau, hs_options *o)
{
    if (c == 1) hs_options_set_num(o, "delay", tau);
    if (c >= 2) hs_options_set_num(o, "a_es", tau);
    if (c == 3) {
        hs_options_set_num(o, "kp", ADAPT_KP);
        hs_options_set_num(o, "ki", ADAPT_KI);
    }
}

static void hysim_rows(const double *ag, size_t n, double tau, row rows[NPLANT][NCOMP])
{
    double *yref = hs_dvec(3 * n), *y = hs_dvec(3 * n), *xt = hs_dvec(n), *xm = hs_dvec(n);
    assert_true(yref && y && xt && xm);
    assert_int_equal(hs_rths_run(NULL, NULL, NULL, NULL, ag, n, RATE, yref, NULL, NULL), 0);
    for (int p = 0; p < NPLANT; p++) {
        const hs_rths_plant_params plant = plant_of(p);
        for (int c = 0; c < NCOMP; c++) {
            hs_options *o = NULL;
            assert_int_equal(hs_options_create(&o), 0);
            comp_options(c, tau, o);
            hs_ctx *ctx = NULL;
            assert_int_equal(hs_ctx_create(&ctx), 0);
            const int rc = hs_rths_run(ctx, &plant, comp_names[c], o, ag, n, RATE, y, xt, xm);
            row *r = &rows[p][c];
            r->failed = -1;
            if (rc) {
                assert_int_equal(rc, HS_EUNSTABLE);
                assert_int_equal(
                    sscanf(hs_ctx_message(ctx), "rths run: stopped at sample %d", &r->failed), 1);
            } else {
                hs_rths_criteria j;
                hs_rths_criteria_compute(xt, xm, y, yref, n, 3, 1.0 / RATE, &j);
                memcpy(r->J, j.J, sizeof r->J);
                r->J[1] *= 1e3; /* ms, as the package prints it */
            }
            hs_ctx_destroy(&ctx);
            hs_options_destroy(&o);
        }
    }
    hs_free(yref);
    hs_free(y);
    hs_free(xt);
    hs_free(xm);
}

/* the independent implementation's rows; 0, or 77 when it skips */
static int python_rows(const char *record, const char *package, double tau, row rows[NPLANT][NCOMP])
{
    /* the input as one command-line argument: no file left behind, even when the test is killed */
    static char cfg[8192];
    size_t len = 0;
    len += (size_t)snprintf(
        cfg + len, sizeof cfg - len,
        "{\"record\": \"%s\", \"dt\": 0.02, \"g\": %.17g, \"scale\": %.17g, \"lead\": 5, "
        "\"trail\": 5, \"rate\": %.17g, \"package\": \"%s\", \"plants\": [",
        record, G, INTENS, RATE, package);
    for (int p = 0; p < NPLANT; p++) {
        const hs_rths_plant_params q = plant_of(p);
        char name[32];
        plant_name(p, name, sizeof name);
        /* the draws are the benchmark's input, not its implementation: hysim's seeded ones */
        len += (size_t)snprintf(
            cfg + len, sizeof cfg - len,
            "%s{\"name\": \"%s\", \"a1b0\": %.17g, \"a2\": %.17g, \"a3\": %.17g, \"b1\": %.17g, "
            "\"b2\": %.17g, \"me\": %.17g, \"ke\": %.17g, \"gain\": %.17g}",
            p ? ", " : "", name, q.a1b0, q.a2, q.a3, q.b1, q.b2, q.me, q.ke, q.gain);
    }
    len += (size_t)snprintf(
        cfg + len, sizeof cfg - len,
        "], \"comps\": [{\"type\": \"none\"}, {\"type\": \"polynomial\", \"delay\": %.17g}, "
        "{\"type\": \"inverse\", \"a_es\": %.17g}, {\"type\": \"adaptive_inverse\", \"a_es\": "
        "%.17g, \"kp\": %g, \"ki\": %g}]}\n",
        tau, tau, tau, ADAPT_KP, ADAPT_KI);
    assert_true(len < sizeof cfg && !strchr(cfg, '\''));
    const char *py = getenv("HS_PYTHON");
    static char cmd[12288];
    snprintf(cmd, sizeof cmd, "%s %s '%s'", py ? py : "/usr/bin/python3",
             hs_test_source_path("tests/support/rths_package.py"), cfg);
    FILE *pipe = popen(cmd, "r");
    assert_non_null(pipe);
    char line[512];
    int got = 0;
    while (fgets(line, sizeof line, pipe)) {
        char pn[64], cn[64];
        double v[9];
        int k = -1, p = -1, c = -1;
        if (sscanf(line, "%63s %63s", pn, cn) != 2) continue;
        for (int i = 0; i < NPLANT; i++) {
            char name[32];
            plant_name(i, name, sizeof name);
            if (!strcmp(name, pn)) p = i;
        }
        for (int i = 0; i < NCOMP; i++)
            if (!strcmp(comp_names[i], cn)) c = i;
        if (p < 0 || c < 0) continue;
        row *r = &rows[p][c];
        r->failed = -1;
        if (sscanf(line, "%*s %*s failed %d", &k) == 1) {
            r->failed = k;
            got++;
        } else if (sscanf(line, "%*s %*s %lf %lf %lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2],
                          &v[3], &v[4], &v[5], &v[6], &v[7], &v[8]) == 9) {
            for (int j = 0; j < 9; j++) r->J[j + 1] = v[j];
            got++;
        }
    }
    const int st = pclose(pipe);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 77) return 77;
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_int_equal(got, NPLANT * NCOMP);
    return 0;
}

static void test_against_the_independent_implementation(void **state)
{
    (void)state;
    const char *rec = hs_test_shared_path("data/records/elcentro.txt");
    if (!rec) {
        print_message("SKIP: data/records/elcentro.txt absent (set HS_SHARED_DATA to the shared "
                      "data folder)\n");
        skip();
    }
    char record[4096], package[4096], mat[4200];
    snprintf(record, sizeof record, "%s", rec);
    const char *pkg = getenv("RTHS_BENCHMARK_SRC");
    snprintf(package, sizeof package, "%s", pkg ? pkg : "");
    snprintf(mat, sizeof mat, "%s/Building cases/Case_1.mat", package);
    if (!pkg || access(mat, R_OK) != 0) {
        print_message("SKIP: the benchmark's package is absent (set RTHS_BENCHMARK_SRC to the "
                      "folder holding F1_input_file.m and Building cases/Case_1.mat)\n");
        skip();
    }
    size_t n = 0;
    double *ag = el_centro(record, &n);
    /* every compensator tuned on the nominal plant's delay, as an operator would from a
     * pre-test: 25.05 ms = 102.6 samples at 4096 Hz */
    const hs_rths_plant_params nominal = hs_rths_plant_nominal();
    const double tau = hs_rths_plant_delay(&nominal) * RATE;
    static row ours[NPLANT][NCOMP], theirs[NPLANT][NCOMP];
    hysim_rows(ag, n, tau, ours);
    hs_free(ag);
    if (python_rows(record, package, tau, theirs) == 77) {
        print_message("SKIP: python3 with numpy and scipy is absent (HS_PYTHON names another)\n");
        skip();
    }
    print_message(
        "| plant | compensation | run | J1 (ms) | J2 (%%) | J3 (%%) | J4 (%%) | J5 (%%) | "
        "J6 (%%) | J7 (%%) | J8 (%%) | J9 (%%) |\n|---|---|---|---|---|---|---|---|---|"
        "---|---|---|\n");
    for (int p = 0; p < NPLANT; p++)
        for (int c = 0; c < NCOMP; c++) {
            char name[32];
            plant_name(p, name, sizeof name);
            const row *two[2] = {&ours[p][c], &theirs[p][c]};
            for (int w = 0; w < 2; w++) {
                const row *r = two[w];
                const char *who = w ? "independent (Python)" : "hysim";
                if (r->failed >= 0)
                    print_message("| %s | %s | %s | failed: %.0f N reached at t = %.3f s |\n", name,
                                  comp_names[c], who, HS_RTHS_FORCE_CAPACITY,
                                  (double)r->failed / RATE);
                else
                    print_message("| %s | %s | %s | %.1f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f "
                                  "| %.2f | %.2f |\n",
                                  name, comp_names[c], who, r->J[1], r->J[2], r->J[3], r->J[4],
                                  r->J[5], r->J[6], r->J[7], r->J[8], r->J[9]);
            }
            /* the same outcome; J1-J9 within 0.01 (both rounded as F4: J1 equal to 0.1 ms) */
            assert_int_equal(ours[p][c].failed < 0, theirs[p][c].failed < 0);
            if (ours[p][c].failed >= 0) {
                assert_true(abs(ours[p][c].failed - theirs[p][c].failed) <= 1);
                continue;
            }
            for (int j = 1; j <= 9; j++) HS_ASSERT_NEAR(ours[p][c].J[j], theirs[p][c].J[j], 0.0101);
        }
    /* the benchmark's point: without compensation the plant's delay destabilises the test, the
     * inverse compensator holds it on every plant */
    for (int p = 0; p < NPLANT; p++) {
        assert_true(ours[p][0].failed > 0);
        assert_true(ours[p][2].failed < 0 && ours[p][2].J[2] < 10.0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_the_independent_implementation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
