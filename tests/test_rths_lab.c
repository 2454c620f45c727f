/* The RTHS benchmark's plant as a laboratory (docs/rths_benchmark.md, "The plant as a
 * laboratory"): the specimen `rths_benchmark` in the virtual lab moves its own actuator, and a
 * command sequence through hs_vlab gives the plant's own displacement and load-cell force bit for
 * bit; its state survives a save and load mid-run; a site file and a plant file choose it, and bad
 * values are FILE:LINE:COL errors; a test file's analysis.reference is read and checked alike. */
#include "hs_test.h"

#include "hysim/lab.h"
#include "hysim/options.h"
#include "hysim/plant.h"
#include "hysim/rths.h"
#include "hysim/site_server.h"
#include "hysim/testfile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE 4096.0
#define PI   3.14159265358979323846

static double command(int k)
{
    const double t = (double)k / RATE;
    return 2e-3 * sin(2 * PI * 3.0 * t) + 1e-3 * sin(2 * PI * 11.0 * t + 0.3);
}

static hs_vlab *make_lab(hs_specimen **spec, const char *plant, double seed, double spread,
                         double a)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_str(o, "plant", plant);
    hs_options_set_num(o, "seed", seed);
    hs_options_set_num(o, "spread", spread);
    assert_int_equal(hs_specimen_create(NULL, "rths_benchmark", 1, o, spec), 0);
    hs_options_destroy(&o);
    hs_actuator_params ap = hs_actuator_params_default();
    ap.rate = RATE;
    ap.a = a; /* a lagging actuator model: the lab must bypass it (the plant is the actuator) */
    const hs_vlab_params p = {.n_act = 1, .seed = 1, .actuator = &ap, .actuator_count = 1};
    hs_vlab *lab = NULL;
    assert_int_equal(hs_vlab_create(NULL, &p, *spec, &lab), 0);
    return lab;
}

static void test_lab_is_the_plant(void **state)
{
    (void)state;
    for (int which = 0; which < 2; which++) {
        hs_specimen *spec = NULL;
        hs_vlab *lab = make_lab(&spec, which ? "perturbed" : "nominal", 3, 1.0, 5.0);
        const hs_rths_plant_params p =
            which ? hs_rths_plant_perturbed(3, 1.0) : hs_rths_plant_nominal();
        hs_rths_plant *pl = NULL;
        assert_int_equal(hs_rths_plant_create(NULL, &p, RATE, &pl), 0);
        double K;
        assert_int_equal(hs_specimen_initial_stiffness(spec, &K), 0);
        assert_true(K == p.ke);
        double peak = 0.0;
        for (int k = 0; k < 4096; k++) {
            double x, f;
            const double r = command(k);
            assert_int_equal(hs_vlab_tick(lab, &r, &x, &f), 0);
            hs_rths_plant_tick(pl, r);
            /* the same discretisation (4096 Hz from t - t_c, within 1 ppm) and the same product */
            assert_true(x == hs_rths_plant_x(pl));
            assert_true(f == hs_rths_plant_f(pl));
            peak = fmax(peak, fabs(x));
        }
        print_message("plant %d: peak displacement %.4g m (commands up to 3 mm)\n", which, peak);
        assert_true(peak > 1e-3 && peak < 4e-3); /* it moved, about as commanded */
        hs_rths_plant_destroy(&pl);
        hs_vlab_destroy(&lab);
        hs_specimen_destroy(&spec);
    }
}

/* a lab saved after 1000 ticks and loaded into a fresh one continues exactly */
static void test_lab_state(void **state)
{
    (void)state;
    hs_specimen *sa = NULL, *sb = NULL;
    hs_vlab *a = make_lab(&sa, "perturbed", 2, 1.0, 1.0),
            *b = make_lab(&sb, "perturbed", 2, 1.0, 1.0);
    double x, f, xb, fb;
    for (int k = 0; k < 1000; k++) {
        const double r = command(k);
        assert_int_equal(hs_vlab_tick(a, &r, &x, &f), 0);
    }
    const size_t n = hs_vlab_state_size(a);
    assert_int_equal(n, hs_vlab_state_size(b));
    double *buf = calloc(n, sizeof *buf);
    assert_non_null(buf);
    assert_int_equal(hs_vlab_state_save(a, buf), 0);
    assert_int_equal(hs_vlab_state_load(b, buf), 0);
    for (int k = 1000; k < 2000; k++) {
        const double r = command(k);
        assert_int_equal(hs_vlab_tick(a, &r, &x, &f), 0);
        assert_int_equal(hs_vlab_tick(b, &r, &xb, &fb), 0);
        assert_true(x == xb && f == fb);
    }
    free(buf);
    hs_vlab_destroy(&a);
    hs_vlab_destroy(&b);
    hs_specimen_destroy(&sa);
    hs_specimen_destroy(&sb);
}

static void test_files_choose_it(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    static const char good_site[] =
        "site:\n  name: rths\n  plain: true\n  rate: 4096\n"
        "  actuators: {a1: {}}\n"
        "  specimen: {type: rths_benchmark, plant: perturbed, seed: 2}\n";
    hs_site_file *sf = NULL;
    int rc = hs_site_file_load_string(ctx, good_site, strlen(good_site), "site.yaml", &sf);
    if (rc) print_message("%s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    hs_site_file_destroy(&sf);
    static const char good_plant[] = "plant:\n  listen: \"127.0.0.1:0\"\n  rate: 4096\n"
                                     "  actuators: {a1: {}}\n  specimen: {type: rths_benchmark}\n"
                                     "  command_packet: [{counter: uint32}, {command: float64, "
                                     "channel: a1}]\n"
                                     "  reply_packet: [{counter: uint32}, {displacement: float64, "
                                     "channel: a1}, {force: float64, channel: a1}]\n";
    hs_plant_file *pf = NULL;
    rc = hs_plant_file_load_string(ctx, good_plant, strlen(good_plant), "plant.yaml", &pf);
    if (rc) print_message("%s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    hs_plant_file_destroy(&pf);
    static const char *const bad[][2] = {
        {"site:\n  name: e\n  plain: true\n  actuators: {a1: {}}\n"
         "  specimen: {type: rths_benchmark, plant: wobbly}\n",
         "site.yaml:5:13: site.specimen: specimen rths_benchmark: plant must be nominal or "
         "perturbed (got 'wobbly')"},
        {"site:\n  name: e\n  plain: true\n  actuators: {a1: {}, a2: {}}\n"
         "  specimen: {type: rths_benchmark}\n",
         "site.yaml:5:13: site.specimen: specimen rths_benchmark: one actuator"},
        {"site:\n  name: e\n  plain: true\n  actuators: {a1: {}}\n"
         "  specimen: {type: rths_benchmark, plant: perturbed, spread: -1}\n",
         "spread must be in [0, 10] (got -1)"},
        {"site:\n  name: e\n  plain: true\n  actuators: {a1: {}}\n"
         "  specimen: {type: rths_benchmark, sead: 3}\n",
         "site.yaml:5:36: unknown key 'sead' in site.specimen; did you mean 'seed'?"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rc = hs_site_file_load_string(ctx, bad[i][0], strlen(bad[i][0]), "site.yaml", &sf);
        print_message("    %s\n", hs_ctx_message(ctx));
        assert_int_equal(rc, HS_EINPUT);
        assert_non_null(strstr(hs_ctx_message(ctx), bad[i][1]));
    }
    hs_ctx_destroy(&ctx);
}

/* analysis.reference in a test file: kept as written; its mistakes are FILE:LINE:COL errors */
static void test_reference_key(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    static const char head[] = "hysim: 1\nname: r\nunits: {force: N, length: m, time: s}\n"
                               "structure:\n  dofs: 1\n  mass: [1000]\n  springs: [{from: "
                               "ground, to: 1, material: k}]\n  damping: {none: true}\n"
                               "materials:\n  k: {type: elastic, k: 1.0e6}\n"
                               "ground_motion:\n  synthetic: {seed: 1, pga: 1, duration: 1, dt: "
                               "0.01}\nanalysis:\n  integrator: {type: central_difference}\n  "
                               "dt: 0.01\n  steps: 10\n";
    static const char *const cases[][2] = {
        {"  reference: {run: runs/ref}\n", NULL},
        {"  reference: {runn: runs/ref}\n",
         "t.yaml:17:15: unknown key 'runn' in analysis.reference; did you mean 'run'?"},
        {"  reference: {}\n", "t.yaml:17:14: missing required key 'run' in analysis.reference"},
    };
    char text[2048];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(text, sizeof text, "%s%s", head, cases[i][0]);
        hs_test_def *def = NULL;
        const int rc = hs_testfile_load_string(ctx, text, strlen(text), "t.yaml", &def);
        print_message("    %s\n", rc ? hs_ctx_message(ctx) : "loaded");
        if (!cases[i][1]) {
            assert_int_equal(rc, 0);
            assert_string_equal(def->reference_run, "runs/ref");
        } else {
            assert_int_equal(rc, HS_EINPUT);
            assert_non_null(strstr(hs_ctx_message(ctx), cases[i][1]));
        }
        hs_test_def_destroy(&def);
    }
    hs_ctx_destroy(&ctx);
}

/* The benchmark's numerical stiffness as a specimen (rths_frame): Kn = K - ke e1 e1' of the chosen
 * plant. Nominal: Kn11 = 26054883.88 - 1.19e6 = 24864883.88 N/m (the package's Case_1.mat K less
 * F1_input_file.m:25's k_e), the rest K's; perturbed seed 2: the perturbed ke subtracted, as
 * hs_rths_structure_build does; the force is Kn x; bad keys are refused with the specimen named. */
static void test_frame_specimen(void **state)
{
    (void)state;
    for (int seed = 0; seed <= 2; seed += 2) {
        hs_options *o = NULL;
        assert_int_equal(hs_options_create(&o), 0);
        hs_options_set_str(o, "plant", seed ? "perturbed" : "nominal");
        hs_options_set_num(o, "seed", seed);
        hs_specimen *spec = NULL;
        assert_int_equal(hs_specimen_create(NULL, "rths_frame", 3, o, &spec), 0);
        hs_options_destroy(&o);
        const hs_rths_plant_params p =
            seed ? hs_rths_plant_perturbed(2, 1.0) : hs_rths_plant_nominal();
        double K[9];
        assert_int_equal(hs_specimen_initial_stiffness(spec, K), 0);
        HS_ASSERT_NEAR(K[0], 26054883.879603837 - p.ke, 1e-6);
        HS_ASSERT_NEAR(K[1], -23133938.877108198, 1e-6);
        HS_ASSERT_NEAR(K[2], 5937035.463339146, 1e-6);
        HS_ASSERT_NEAR(K[8], 9267275.506224312, 1e-6);
        if (!seed)
            HS_ASSERT_NEAR(K[0], 24864883.879603837, 1e-6);
        else
            assert_true(fabs(p.ke - 1.19e6) > 1.0); /* a draw that moves ke */
        const double x[3] = {1e-3, 2e-3, 3e-3};
        assert_int_equal(hs_specimen_set_trial(spec, 0.01, x), 0);
        const double *f = hs_specimen_force(spec);
        for (int i = 0; i < 3; i++)
            HS_ASSERT_NEAR(f[i], K[3 * i] * x[0] + K[3 * i + 1] * x[1] + K[3 * i + 2] * x[2], 1e-6);
        hs_specimen_destroy(&spec);
    }
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_str(o, "plant", "wobbly");
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_specimen *spec = NULL;
    assert_int_equal(hs_specimen_create(ctx, "rths_frame", 3, o, &spec), HS_EINPUT);
    assert_non_null(
        strstr(hs_ctx_message(ctx),
               "specimen rths_frame: plant must be nominal or perturbed (got 'wobbly')"));
    hs_options_set_str(o, "plant", "nominal");
    assert_int_equal(hs_specimen_create(ctx, "rths_frame", 2, o, &spec), HS_EINPUT);
    hs_options_destroy(&o);
    assert_non_null(strstr(hs_ctx_message(ctx), "three actuators, one per floor (got 2)"));
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lab_is_the_plant), cmocka_unit_test(test_lab_state),
        cmocka_unit_test(test_files_choose_it),  cmocka_unit_test(test_reference_key),
        cmocka_unit_test(test_frame_specimen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
