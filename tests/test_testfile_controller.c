/* The test definition loader's site-controller keys (sites.NAME.command, compensation, link) and
 * analysis.compute_time / site_timeout: a file with all of them loads into the option values it
 * states, under the names the command generator, compensator registry, hs_link_create and
 * hs_compute_model_create read; the objects built from those options behave as theory says
 * (lognormal median = survival 1/2, a histogram's mean from its bins, an outage holds a message
 * to its end, the adaptive compensator starts at its a_es); each of a table of bad files fails
 * with the exact FILE:LINE:COL and a phrase naming the problem. */
#include "hs_test.h"

#include "hs_text_def.h"

#include "hysim/compensator.h"
#include "hysim/link.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const base =
    "hysim: 1\n"                                                     /* 1 */
    "name: controller\n"                                             /* 2 */
    "units: {force: kN, length: mm, time: s}\n"                      /* 3 */
    "structure:\n"                                                   /* 4 */
    "  dofs: 2\n"                                                    /* 5 */
    "  mass: [1, 1]\n"                                               /* 6 */
    "  damping: {rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}\n" /* 7 */
    "experimental:\n"                                                /* 8 */
    "  - {name: frame, site: lab1, dofs: [1, 2], T: [[1, 0], [-1, 1]], actuators: [a1, a2]}\n"
    "  - {name: base, site: lab2, story: 1, actuators: [b1]}\n"         /* 10 */
    "sites:\n"                                                          /* 11 */
    "  lab1:\n"                                                         /* 12 */
    "    kind: virtual\n"                                               /* 13 */
    "    actuators: {a1: {delay_samples: 3}, a2: {delay_samples: 3}}\n" /* 14 */
    "    specimen: {type: linear, K: [[4, -2], [-2, 2]]}\n"             /* 15 */
    "    command: {order: 2, extrapolate: 0.5, slow: 0.9, slow_factor: 0.4, blend: 0.1,\n"
    "              hold_timeout: 30, zeta: 0.05, mass: [[2, 0.5], [0.5, 1]], v_tol: 0.001,\n"
    "              f_tol: 0.01, rel_tol: 0.002, quiet_time: 0.2, stop_time: 0.3, "
    "fv_max_time: 100}\n" /* 18 */
    "    compensation: {type: adaptive_inverse, a_es: 30, kp: 0.4, ki: 0.04}\n"
    "    link: {delay: {lognormal: {median: 0.205, sigma: 0.75}}, loss: 0.01, rto: 0.2,\n"
    "           max_retries: 5, outages: [[100, 105], [200, 201.5]]}\n" /* 21 */
    "  lab2:\n"                                                         /* 22 */
    "    kind: virtual\n"                                               /* 23 */
    "    rate: 2048\n"                                                  /* 24 */
    "    actuators: {b1: {}}\n"                                         /* 25 */
    "    specimen: {type: linear, K: [[3]]}\n"                          /* 26 */
    "    compensation: {type: polynomial, delay: 2}\n"                  /* 27 */
    "    link: {delay: {histogram: delays.txt}}\n"                      /* 28 */
    "ground_motion:\n"                                                  /* 29 */
    "  synthetic: {seed: 7, pga: 3.0, duration: 2, dt: 0.01}\n"         /* 30 */
    "analysis:\n"                                                       /* 31 */
    "  integrator: {type: central_difference}\n"                        /* 32 */
    "  dt: 0.01\n"                                                      /* 33 */
    "  duration: 2\n"                                                   /* 34 */
    "  compute_time: {lognormal: {median: 0.02, sigma: 0.5}}\n"         /* 35 */
    "  site_timeout: 30\n";                                             /* 36 */

/* A folder holding the histograms the files refer to. */
typedef struct fixture {
    char dir[64], yaml[128], good[128], bad[128];
} fixture;

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void fixture_open(fixture *fx)
{
    snprintf(fx->dir, sizeof fx->dir, "/tmp/hs_tfctl_XXXXXX");
    assert_non_null(mkdtemp(fx->dir));
    snprintf(fx->yaml, sizeof fx->yaml, "%s/t.yaml", fx->dir);
    snprintf(fx->good, sizeof fx->good, "%s/delays.txt", fx->dir);
    snprintf(fx->bad, sizeof fx->bad, "%s/one_row.txt", fx->dir);
    /* bins centred 0.1 s and 0.3 s, equal counts: edges 0, 0.2, 0.4, mean 0.2 s */
    write_file(fx->good, "# delay count\n0.1 5\n0.3 5\n");
    write_file(fx->bad, "0.1 5\n");
}

static void fixture_close(fixture *fx)
{
    remove(fx->good);
    remove(fx->bad);
    rmdir(fx->dir);
}

static void test_command_and_compensation(void **state)
{
    (void)state;
    fixture fx;
    fixture_open(&fx);
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = hs_test_load_text(ctx, base, fx.yaml);
    const hs_options *c = def->sites[0].command_opts;
    assert_non_null(c);
    /* the generator's field names */
    static const struct {
        const char *field;
        double value;
    } want[] = {
        {"order", 2},        {"extrapolate_limit", 0.5}, {"slow_limit", 0.9}, {"slow_factor", 0.4},
        {"blend", 0.1},      {"hold_timeout", 30},       {"zeta", 0.05},      {"v_tol", 0.001},
        {"f_tol", 0.01},     {"rel_tol", 0.002},         {"quiet_time", 0.2}, {"stop_time", 0.3},
        {"fv_max_time", 100}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        assert_true(hs_options_has(c, want[i].field));
        HS_ASSERT_NEAR(hs_options_num(c, want[i].field, NAN), want[i].value, 0.0);
    }
    assert_false(hs_options_has(c, "extrapolate"));
    assert_false(hs_options_has(c, "fv_dt"));
    const double *m = NULL;
    assert_int_equal(hs_options_list(c, "mass", &m), 4);
    const double M[4] = {2, 0.5, 0.5, 1};
    for (int i = 0; i < 4; i++) HS_ASSERT_NEAR(m[i], M[i], 0.0);
    assert_null(def->sites[1].command_opts);

    /* compensation: the type and the registry's parameters; the adaptive compensator built from
     * them starts at a_es (delta_a = kp TI + ki J = 0 while desired and measured agree) */
    const hs_options *k = def->sites[0].compensation_opts;
    assert_string_equal(hs_options_str(k, "type", ""), "adaptive_inverse");
    HS_ASSERT_NEAR(hs_options_num(k, "a_es", NAN), 30.0, 0.0);
    HS_ASSERT_NEAR(hs_options_num(k, "kp", NAN), 0.4, 0.0);
    HS_ASSERT_NEAR(hs_options_num(k, "ki", NAN), 0.04, 0.0);
    hs_compensator *comp = NULL;
    assert_int_equal(
        hs_compensator_create(ctx, hs_options_str(k, "type", ""), k, def->sites[0].rate, &comp), 0);
    HS_ASSERT_NEAR(hs_compensator_tick(comp, 0.0, 0.0), 0.0, 0.0);
    HS_ASSERT_NEAR(hs_compensator_a_es(comp), 30.0, 0.0);
    hs_compensator_destroy(&comp);
    /* polynomial, r = 2 samples: the cubic through x_t(k..k-3) evaluated 2 samples ahead is
     * exact for a ramp: x = k gives k + 2 */
    k = def->sites[1].compensation_opts;
    assert_string_equal(hs_options_str(k, "type", ""), "polynomial");
    HS_ASSERT_NEAR(hs_options_num(k, "delay", NAN), 2.0, 0.0);
    assert_int_equal(hs_compensator_create(ctx, "polynomial", k, def->sites[1].rate, &comp), 0);
    double xc = 0.0;
    for (int i = 1; i <= 6; i++) xc = hs_compensator_tick(comp, (double)i, 0.0);
    HS_ASSERT_NEAR(xc, 8.0, 1e-12);
    hs_compensator_destroy(&comp);
    hs_test_def_destroy(&def);
    hs_ctx_destroy(&ctx);
    fixture_close(&fx);
}

static void test_links_and_compute_time(void **state)
{
    (void)state;
    fixture fx;
    fixture_open(&fx);
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = hs_test_load_text(ctx, base, fx.yaml);
    const hs_options *o = def->sites[0].link_opts;
    assert_string_equal(hs_options_str(o, "delay", ""), "lognormal");
    HS_ASSERT_NEAR(hs_options_num(o, "median", NAN), 0.205, 0.0);
    HS_ASSERT_NEAR(hs_options_num(o, "sigma", NAN), 0.75, 0.0);
    HS_ASSERT_NEAR(hs_options_num(o, "loss", NAN), 0.01, 0.0);
    HS_ASSERT_NEAR(hs_options_num(o, "rto", NAN), 0.2, 0.0);
    HS_ASSERT_NEAR(hs_options_num(o, "max_retries", NAN), 5.0, 0.0);
    const double *w = NULL;
    assert_int_equal(hs_options_list(o, "outages", &w), 4);
    const double W[4] = {100, 105, 200, 201.5};
    for (int i = 0; i < 4; i++) HS_ASSERT_NEAR(w[i], W[i], 0.0);
    /* the link built from them: P(X > median) = 1/2; a message sent at 100 s, inside the
     * outage [100, 105), arrives at 105 s or later */
    hs_link *link = NULL;
    assert_int_equal(hs_link_create(ctx, o, def->seed, HS_LINK_ID(0, HS_LINK_DOWN), &link), 0);
    HS_ASSERT_NEAR(hs_delay_dist_survival(hs_link_delay(link), 0.205), 0.5, 1e-15);
    hs_link_delivery d;
    assert_int_equal(hs_link_send(link, hs_vtime_from_seconds(100.0), &d), 0);
    assert_true(d.arrival >= hs_vtime_from_seconds(105.0));
    hs_link_destroy(&link);

    /* {histogram: delays.txt}: resolved against the test file's folder; bins 0.1 and 0.3 s with
     * equal counts and uniform density: mean 0.2 s */
    o = def->sites[1].link_opts;
    assert_string_equal(hs_options_str(o, "delay", ""), "empirical");
    assert_string_equal(hs_options_str(o, "histogram", ""), fx.good);
    assert_string_equal(hs_options_str(o, "file", ""), fx.good);
    assert_false(hs_options_has(o, "loss"));
    assert_int_equal(hs_link_create(ctx, o, def->seed, HS_LINK_ID(1, HS_LINK_DOWN), &link), 0);
    HS_ASSERT_NEAR(hs_delay_dist_mean(hs_link_delay(link)), 0.2, 1e-15);
    hs_link_destroy(&link);

    /* compute time: lognormal, median 0.02 s */
    o = def->compute_time_opts;
    assert_string_equal(hs_options_str(o, "type", ""), "lognormal");
    HS_ASSERT_NEAR(hs_options_num(o, "median", NAN), 0.02, 0.0);
    HS_ASSERT_NEAR(hs_options_num(o, "sigma", NAN), 0.5, 0.0);
    hs_compute_model *cm = NULL;
    assert_int_equal(hs_compute_model_create(ctx, o, def->seed, 0, &cm), 0);
    HS_ASSERT_NEAR(hs_delay_dist_survival(hs_compute_model_dist(cm), 0.02), 0.5, 1e-15);
    hs_compute_model_destroy(&cm);
    HS_ASSERT_NEAR(def->site_timeout, 30.0, 0.0);
    hs_test_def_destroy(&def);

    /* {constant: 0.05}: every step takes 50 ms; no site_timeout: 60 s */
    char *text =
        hs_test_substitute(base, "{lognormal: {median: 0.02, sigma: 0.5}}", "{constant: 0.05}");
    char *text2 = hs_test_substitute(text, "  site_timeout: 30\n", "");
    def = hs_test_load_text(ctx, text2, fx.yaml);
    o = def->compute_time_opts;
    assert_string_equal(hs_options_str(o, "type", ""), "constant");
    HS_ASSERT_NEAR(hs_options_num(o, "value", NAN), 0.05, 0.0);
    assert_int_equal(hs_compute_model_create(ctx, o, def->seed, 0, &cm), 0);
    assert_true(hs_compute_model_sample(cm) == hs_vtime_from_seconds(0.05));
    hs_compute_model_destroy(&cm);
    HS_ASSERT_NEAR(def->site_timeout, 60.0, 0.0);
    hs_test_def_destroy(&def);
    free(text);
    free(text2);
    hs_ctx_destroy(&ctx);
    fixture_close(&fx);
}

/* Without the controller keys: every option object is NULL (the defaults) and the timeout 60 s;
 * a link without `delay` delivers at once. */
static void test_defaults(void **state)
{
    (void)state;
    fixture fx;
    fixture_open(&fx);
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char *a = hs_test_substitute(base,
                                 "  compute_time: {lognormal: {median: 0.02, sigma: 0.5}}\n"
                                 "  site_timeout: 30\n",
                                 "");
    char *b = hs_test_substitute(a,
                                 "    compensation: {type: polynomial, delay: 2}\n"
                                 "    link: {delay: {histogram: delays.txt}}\n",
                                 "");
    char *text = hs_test_substitute(
        b,
        "    link: {delay: {lognormal: {median: 0.205, sigma: 0.75}}, loss: 0.01, "
        "rto: 0.2,\n           max_retries: 5, outages: [[100, 105], [200, "
        "201.5]]}\n",
        "    link: {loss: 0.5}\n");
    hs_test_def *def = hs_test_load_text(ctx, text, fx.yaml);
    assert_null(def->compute_time_opts);
    HS_ASSERT_NEAR(def->site_timeout, 60.0, 0.0);
    assert_null(def->sites[1].command_opts);
    assert_null(def->sites[1].compensation_opts);
    assert_null(def->sites[1].link_opts);
    const hs_options *o = def->sites[0].link_opts;
    assert_string_equal(hs_options_str(o, "delay", ""), "constant");
    HS_ASSERT_NEAR(hs_options_num(o, "value", NAN), 0.0, 0.0);
    hs_link *link = NULL;
    assert_int_equal(hs_link_create(ctx, o, 1, 0, &link), 0);
    HS_ASSERT_NEAR(hs_delay_dist_mean(hs_link_delay(link)), 0.0, 0.0);
    hs_link_destroy(&link);
    hs_test_def_destroy(&def);
    free(a);
    free(b);
    free(text);
    hs_ctx_destroy(&ctx);
    fixture_close(&fx);
}

static const hs_bad_case bad_cases[] = {
    /* the eleven the issue names */
    {"order: 2", "order: 4", "16:22", "sites.lab1.command.order: must be between 1 and 3 (got 4)"},
    {"order: 2", "order: 2, target_delay: 2", "16:39",
     "sites.lab1.command.target_delay: must be between 0 and 1 (got 2)"},
    {"extrapolate: 0.5", "extrapolate: 0.95", "16:38",
     "sites.lab1.command: extrapolate (0.95) must be below slow (0.9)"},
    {"type: adaptive_inverse", "type: adaptiv_inverse", "19:26",
     "sites.lab1.compensation.type: unknown compensator 'adaptiv_inverse'; did you mean "
     "'adaptive_inverse'? (known: none, polynomial, inverse, adaptive_inverse)"},
    {"kp: 0.4, ", "", "19:19", "missing required key 'kp' in sites.lab1.compensation"},
    {"{lognormal: {median: 0.205", "{gamma: {median: 0.205", "20:20",
     "sites.lab1.link.delay: unknown delay distribution 'gamma' (known: constant, uniform, "
     "lognormal, empirical, histogram)"},
    {"median: 0.205", "median: -0.205", "20:31",
     "sites.lab1.link.delay.lognormal: delay lognormal: median must be finite and > 0 (got "
     "-0.205)"},
    {"loss: 0.01", "loss: 1", "20:68", "sites.lab1.link.loss: a probability in [0, 1) (got 1)"},
    {"[200, 201.5]", "[50, 60]", "21:51",
     "sites.lab1.link.outages[2]: windows must be sorted and disjoint (starts at 50, before the "
     "previous window ends at 105)"},
    {"histogram: delays.txt", "histogram: nodelays.txt", "28:31",
     "sites.lab2.link.delay.histogram: cannot find"},
    {"{lognormal: {median: 0.02", "{gamma: {median: 0.02", "35:18",
     "analysis.compute_time: unknown compute-time distribution 'gamma' (known: constant, "
     "lognormal)"},
    {"site_timeout: 30", "site_timeout: 0", "36:17", "analysis.site_timeout: must be > 0 (got 0)"},
    /* more */
    {"slow_factor: 0.4", "slow_facter: 0.4", "16:54",
     "unknown key 'slow_facter' in sites.lab1.command; did you mean 'slow_factor'?"},
    {"zeta: 0.05", "zeta: 1", "17:39", "sites.lab1.command.zeta: must be in [0, 1) (got 1)"},
    {"slow: 0.9", "slow: 1.5", "16:49", "sites.lab1.command.slow: must be in (0, 1] (got 1.5)"},
    {"hold_timeout: 30", "hold_timeout: -1", "17:29",
     "sites.lab1.command.hold_timeout: must be >= 0 (got -1)"},
    {"hold_timeout: 30", "unload_velocity: -2", "17:32",
     "sites.lab1.command.unload_velocity: must be >= 0 (got -2)"},
    {"hold_timeout: 30", "unload_after: 1e6", "17:29",
     "sites.lab1.command.unload_after: must be in [0, 1e+06) (got 1e+06)"},
    {"[[2, 0.5], [0.5, 1]]", "[[2, 0.5], [0.4, 1]]", "17:56",
     "sites.lab1.command.mass: the mass matrix must be symmetric"},
    {"[[2, 0.5], [0.5, 1]]", "[[2]]", "17:51",
     "sites.lab1.command.mass: expected 2 rows (one per actuator), got 1"},
    {"[[2, 0.5], [0.5, 1]]", "[[1, 2], [2, 1]]", "17:51",
     "sites.lab1.command.mass: the mass matrix must be positive definite"},
    {"delay: 2}", "delai: 2}", "27:38",
     "unknown key 'delai' in sites.lab2.compensation; did you mean 'delay'?"},
    {"rto: 0.2", "rtoo: 0.2", "20:74",
     "unknown key 'rtoo' in sites.lab1.link; did you mean 'rto'?"},
    {"{lognormal: {median: 0.205, sigma: 0.75}}", "{constant: 0.1, uniform: {min: 0, max: 1}}",
     "20:19", "sites.lab1.link.delay: expected one distribution"},
    {"median: 0.205, sigma: 0.75", "median: 0.205", "20:31",
     "missing required key 'sigma' in sites.lab1.link.delay.lognormal"},
    {"[[100, 105]", "[[100, 95]", "21:44",
     "sites.lab1.link.outages[1]: the end (95) must be after the start (100)"},
    {"histogram: delays.txt", "histogram: one_row.txt", "28:31",
     "a histogram needs at least two rows (found 1)"},
    {"{lognormal: {median: 0.02, sigma: 0.5}}", "{constant: -1}", "35:28",
     "analysis.compute_time.constant: a duration must be >= 0 (got -1)"},
    {"compensation: {type: polynomial, delay: 2}", "compensation: {type: polynomial, delay: -1}",
     "27:19", "sites.lab2.compensation: compensator polynomial"},
    {"max_retries: 5", "max_retries: 5.5", "21:25",
     "sites.lab1.link.max_retries: expected a whole number, got 5.5"},
    {"    link: {delay: {histogram", "    lnk: {delay: {histogram", "28:5",
     "unknown key 'lnk' in sites.lab2; did you mean 'link'?"},
    {"{type: linear, K: [[3]]}", "{type: mr_damper}\n    command: {mass: [[1]]}", "27:21",
     "needs the specimen's initial stiffness, and this specimen states none"},
};

static void test_bad_files(void **state)
{
    (void)state;
    fixture fx;
    fixture_open(&fx);
    char bad[160];
    snprintf(bad, sizeof bad, "%s/bad.yaml", fx.dir);
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = hs_test_load_text(ctx, base, bad);
    hs_test_def_destroy(&def);
    const size_t ncases = sizeof bad_cases / sizeof bad_cases[0];
    const int failures = hs_test_bad_cases(ctx, base, bad, bad_cases, ncases);
    assert_true(ncases >= 11);
    hs_ctx_destroy(&ctx);
    fixture_close(&fx);
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_command_and_compensation),
        cmocka_unit_test(test_links_and_compute_time),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_bad_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
