/* The compensator plug-in ABI (include/hysim/compensator_plugin.h): the example plug-in
 * (examples/compensators/feedforward_p.c) by hand and in the RTHS benchmark in process (its J1-J9
 * printed); a faulty plug-in (NaN, a jump, an error return) inside the site controller never
 * moves the actuator past a limit; a site file loads a plug-in, a test file refuses one; bad
 * libraries are refused with a sentence saying what to do. */
#include "hs_test.h"

#include "hysim/compensator.h"
#include "hysim/ground_motion.h"
#include "hysim/rths.h"
#include "hysim/site_controller.h"
#include "hysim/site_server.h"
#include "hysim/testfile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define RATE 4096.0

/* The example by hand: tau = 0.01 s, kp = 0.5 at 100 Hz; targets 0, 1, 3 and measured 0, 0, 1:
 * tick 1: x_c = 0; tick 2: v = 100: 1 + 1 + 0.5 (1 - 0) = 2.5; tick 3: v = 200:
 * 3 + 2 + 0.5 (3 - 1) = 6. */
static void test_example_by_hand(void **state)
{
    (void)state;
    hs_compensator *c = NULL;
    assert_int_equal(
        hs_compensator_plugin_create(NULL, HS_COMP_FEEDFORWARD_P, "tau=0.01 kp=0.5", 0, 100.0, &c),
        0);
    assert_string_equal(hs_compensator_type(c), "plugin");
    HS_ASSERT_NEAR(hs_compensator_tick_force(c, 0.0, 0.0, 7.0), 0.0, 1e-12);
    HS_ASSERT_NEAR(hs_compensator_tick_force(c, 1.0, 0.0, 7.0), 2.5, 1e-9);
    HS_ASSERT_NEAR(hs_compensator_tick_force(c, 3.0, 1.0, 7.0), 6.0, 1e-9);
    /* a reset re-opens it at rest about x0 = 2: the same target history shifted gives the same
     * commands shifted */
    hs_compensator_reset(c, 2.0);
    HS_ASSERT_NEAR(hs_compensator_tick(c, 2.0, 2.0), 2.0, 1e-12);
    HS_ASSERT_NEAR(hs_compensator_tick(c, 3.0, 2.0), 4.5, 1e-9);
    hs_compensator_destroy(&c);
}

static double plugin_fn(void *self, double x_t, double x_m, double f_m)
{
    return hs_compensator_tick_force(self, x_t, x_m, f_m);
}

/* One benchmark run with the plug-in (options) or a built-in compensator (type, a_es). */
static void bench_run(const hs_rths_plant_params *plant, const char *options, const char *type,
                      double a_es, const double *ag, size_t n, const double *yref, double *y,
                      double *xt, double *xm, hs_rths_criteria *j)
{
    hs_compensator *c = NULL;
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "a_es", a_es);
    if (options)
        assert_int_equal(
            hs_compensator_plugin_create(NULL, HS_COMP_FEEDFORWARD_P, options, 0, RATE, &c), 0);
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    const int rc = hs_rths_run_with(ctx, plant, type, o, options ? plugin_fn : NULL, c, NULL, ag, n,
                                    RATE, y, xt, xm);
    if (rc) fail_msg("%s", hs_ctx_message(ctx));
    hs_ctx_destroy(&ctx);
    hs_compensator_destroy(&c);
    hs_options_destroy(&o);
    hs_rths_criteria_compute(xt, xm, y, yref, n, 3, 1.0 / RATE, j);
}

/* The example in the benchmark's loop, in process, on the synthetic record (20 s, PGA
 * 1.25 m/s^2, as tests/test_rths_benchmark.c), tau the nominal plant's delay. With kp = 0 it is
 * the inverse compensator with a_es = 1 + tau / h (Chen and Ricles 2010): the same J1-J9 through
 * the plug-in ABI as built in. With kp = 0.3 the feedback lowers the tracking error J2 below the
 * inverse compensator's on the nominal and three perturbed plants. Prints the J1-J9 rows. */
static void test_in_the_benchmark(void **state)
{
    (void)state;
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "seed", 1);
    hs_options_set_num(o, "pga", 1.25);
    hs_options_set_num(o, "duration", 20.0);
    hs_options_set_num(o, "dt", 0.005);
    hs_ground_motion *gm = NULL;
    assert_int_equal(hs_ground_motion_create(NULL, "synthetic", o, &gm), 0);
    hs_options_destroy(&o);
    const size_t n = (size_t)(20.0 * RATE) + 1;
    double *ag = hs_dvec(n), *yref = hs_dvec(3 * n), *y = hs_dvec(3 * n), *xt = hs_dvec(n),
           *xm = hs_dvec(n);
    assert_true(ag && yref && y && xt && xm);
    for (size_t k = 0; k < n; k++) ag[k] = hs_ground_motion_at(gm, (double)k / RATE);
    hs_ground_motion_destroy(&gm);
    assert_int_equal(hs_rths_run(NULL, NULL, NULL, NULL, ag, n, RATE, yref, NULL, NULL), 0);
    const hs_rths_plant_params nominal = hs_rths_plant_nominal();
    const double tau = hs_rths_plant_delay(&nominal);
    char opts0[64], opts[64];
    snprintf(opts0, sizeof opts0, "tau=%.17g kp=0", tau);
    snprintf(opts, sizeof opts, "tau=%.17g kp=0.3", tau);
    print_message(
        "| plant | compensation | J1 (ms) | J2 (%%) | J3 (%%) | J4 (%%) | J5 (%%) | J6 (%%) "
        "| J7 (%%) | J8 (%%) | J9 (%%) |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int p = 0; p <= 3; p++) {
        const hs_rths_plant_params plant = p ? hs_rths_plant_perturbed((unsigned)p, 1.0) : nominal;
        hs_rths_criteria inv, ff0, ff;
        bench_run(&plant, NULL, "inverse", 1.0 + tau * RATE, ag, n, yref, y, xt, xm, &inv);
        bench_run(&plant, opts0, NULL, 0.0, ag, n, yref, y, xt, xm, &ff0);
        bench_run(&plant, opts, NULL, 0.0, ag, n, yref, y, xt, xm, &ff);
        const hs_rths_criteria *rows[3] = {&inv, &ff0, &ff};
        static const char *const names[3] = {"inverse a_es = 1 + tau / h (built in)",
                                             "feedforward_p plug-in, kp = 0",
                                             "feedforward_p plug-in, kp = 0.3"};
        for (int r = 0; r < 3; r++) {
            const double *J = rows[r]->J;
            print_message("| %s | %s | %.1f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | "
                          "%.2f |\n",
                          p ? (p == 1   ? "perturbed 1"
                               : p == 2 ? "perturbed 2"
                                        : "perturbed 3")
                            : "nominal",
                          names[r], 1e3 * J[1], J[2], J[3], J[4], J[5], J[6], J[7], J[8], J[9]);
        }
        for (int i = 1; i <= 9; i++) HS_ASSERT_NEAR(ff0.J[i], inv.J[i], 0.0101);
        assert_true(ff.J[2] < inv.J[2] - 0.5 && ff.J[3] < inv.J[3]);
    }
    hs_free(ag);
    hs_free(yref);
    hs_free(y);
    hs_free(xt);
    hs_free(xm);
}

/* A faulty plug-in inside the site controller over a perfect virtual lab (a spring): targets a
 * slow sine of 2 mm, limits stroke 5 mm, velocity 20 mm/s, step 0.05 mm; the plug-in misbehaves
 * from tick 300. Every command sent stays within the limits; the site trips. */
static void faulty_run(const char *options, int expect_flags)
{
    const double K[1] = {2.0};
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_list(o, "K", K, 1);
    hs_specimen *spec = NULL;
    assert_int_equal(hs_specimen_create(NULL, "linear", 1, o, &spec), 0);
    hs_options_destroy(&o);
    hs_actuator_params ap = hs_actuator_params_default();
    ap.rate = 1024.0;
    hs_vlab_params vp = {.n_act = 1, .perfect = 1, .seed = 1, .actuator = &ap, .actuator_count = 1};
    hs_vlab *lab = NULL;
    assert_int_equal(hs_vlab_create(NULL, &vp, spec, &lab), 0);
    hs_compensator *comp = NULL;
    assert_int_equal(hs_compensator_plugin_create(NULL, HS_COMP_FAULTY, options, 0, 1024.0, &comp),
                     0);
    const hs_site_limits lim = {.disp = 5.0, .vel = 20.0, .step = 0.05};
    hs_site_controller_params p = hs_site_controller_params_default();
    p.gen.nact = 1;
    p.gen.rate = 1024.0;
    p.gen.dt = 0.01;
    p.gen.time_scale = 1.0;
    p.limits = &lim;
    p.compensator = &comp;
    hs_site_controller *sc = NULL;
    assert_int_equal(hs_site_controller_create(NULL, &p, lab, &sc), 0);
    double prev = 0.0, peak = 0.0, vpeak = 0.0;
    int tripped = 0;
    for (int64_t step = 1; step <= 200 && !tripped; step++) {
        const double x = 2.0 * sin(2.0 * 3.14159265358979 * 0.5 * 0.01 * (double)step);
        if (hs_site_controller_target(sc, step, 0.01 * (double)step, &x)) break;
        for (int k = 0; k < 11; k++) { /* a step of 0.01 s is about 10 ticks */
            const int ev = hs_site_controller_tick(sc);
            assert_true(ev >= 0);
            const double c = hs_site_controller_command(sc)[0];
            assert_true(isfinite(c));
            peak = fmax(peak, fabs(c));
            vpeak = fmax(vpeak, fabs(c - prev) * 1024.0);
            prev = c;
            int ch = -1;
            if (hs_site_controller_tripped(sc, &ch)) tripped = hs_site_controller_tripped(sc, &ch);
            hs_site_measurement m;
            double mx[1], mf[1], ht[HS_EXP_HISTORY], hx[HS_EXP_HISTORY], hf[HS_EXP_HISTORY];
            m = (hs_site_measurement){.x = mx, .f = mf, .hist_t = ht, .hist_x = hx, .hist_f = hf};
            if (ev & HS_SC_EV_MEASUREMENT) hs_site_controller_measurement(sc, &m, NULL);
        }
    }
    print_message("faulty plug-in '%s': tripped 0x%x after %lld ticks, peak command %.4g mm, "
                  "peak speed %.4g mm/s\n",
                  options, (unsigned)tripped, (long long)hs_site_controller_ticks(sc), peak, vpeak);
    assert_true(tripped & expect_flags);
    assert_true(peak <= lim.disp && vpeak <= lim.vel * (1.0 + 1e-9));
    hs_site_controller_destroy(&sc);
    hs_compensator_destroy(&comp);
    hs_vlab_destroy(&lab);
    hs_specimen_destroy(&spec);
}

static void test_faulty_plugin_held_by_the_limits(void **state)
{
    (void)state;
    faulty_run("fault=nan at=300", HS_SITE_LIMIT_DISPLACEMENT);
    faulty_run("fault=error at=300", HS_SITE_LIMIT_DISPLACEMENT);
    faulty_run("fault=jump at=300 size=4", HS_SITE_LIMIT_DISPLACEMENT); /* beyond the stroke */
    faulty_run("fault=jump at=300 size=0.04", HS_SITE_LIMIT_VELOCITY);  /* 41 mm/s for a tick */
}

/* A site file loads a plug-in (path checked, library probed at load); a test file refuses it. */
static void test_site_file_only(void **state)
{
    (void)state;
    char text[1024];
    const char *head = "site:\n  name: s\n  plain: true\n  actuators: {a1: {}}\n"
                       "  specimen: {type: linear, K: [[2.5]]}\n";
    snprintf(text, sizeof text, "%s  compensation: {type: plugin, path: %s, options: \"kp=0.2\"}\n",
             head, HS_COMP_FEEDFORWARD_P);
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_site_file *f = NULL;
    if (hs_site_file_load_string(ctx, text, strlen(text), "s.yaml", &f))
        fail_msg("%s", hs_ctx_message(ctx));
    const hs_site_config *c = &hs_site_file_config(f)->site;
    assert_string_equal(hs_options_str(c->compensation_opts, "type", ""), "plugin");
    assert_string_equal(hs_options_str(c->compensation_opts, "options", ""), "kp=0.2");
    hs_site_file_destroy(&f);
    const char *const bad[][2] = {
        {"  compensation: {type: plugin, path: /nonexistent/libx.so}\n",
         "s.yaml:6:38: site.compensation.path: cannot find '/nonexistent/libx.so'"},
        {"  compensation: {type: plugin, path: " HS_COMP_FEEDFORWARD_P ", options: \"tau=-1\"}\n",
         "open failed: option 'tau=-1': known are tau (s, >= 0) and kp (>= 0)"},
        {"  compensation: {type: plugin}\n", "missing required key 'path' in site.compensation"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, "%s%s", head, bad[i][0]);
        assert_int_equal(hs_site_file_load_string(ctx, text, strlen(text), "s.yaml", &f),
                         HS_EINPUT);
        print_message("    %s\n", hs_ctx_message(ctx));
        if (!strstr(hs_ctx_message(ctx), bad[i][1]))
            fail_msg("case %zu: got '%s'", i, hs_ctx_message(ctx));
    }
    /* a test file: refused at the type */
    snprintf(text, sizeof text,
             "hysim: 1\nname: t\nunits: {force: kN, length: mm, time: s}\n"
             "structure: {dofs: 1, mass: [1], damping: {stiffness_proportional: {mode: 1, ratio: "
             "0.02}}}\n"
             "experimental:\n  - {name: e, site: lab, dofs: [1], actuators: [a1]}\n"
             "sites:\n  lab:\n    kind: virtual\n    actuators: {a1: {}}\n"
             "    specimen: {type: linear, K: [[3]]}\n"
             "    compensation: {type: plugin, path: %s}\n"
             "ground_motion:\n  synthetic: {seed: 7, pga: 3.0, duration: 2, dt: 0.01}\n"
             "analysis: {integrator: {type: central_difference}, dt: 0.01, duration: 2}\n",
             HS_COMP_FEEDFORWARD_P);
    hs_test_def *def = NULL;
    assert_int_equal(hs_testfile_load_string(ctx, text, strlen(text), "t.yaml", &def), HS_EINPUT);
    print_message("    %s\n", hs_ctx_message(ctx));
    assert_non_null(strstr(hs_ctx_message(ctx), "t.yaml:12:"));
    assert_non_null(
        strstr(hs_ctx_message(ctx), "a compensator plug-in is loaded by a site file only"));
    /* a library that is not a plug-in */
    hs_compensator *cp = NULL;
    assert_int_equal(hs_compensator_plugin_create(ctx, "/nonexistent/libx.so", "", 0, 1024.0, &cp),
                     HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "cannot load it"));
    assert_null(cp);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example_by_hand),
        cmocka_unit_test(test_in_the_benchmark),
        cmocka_unit_test(test_faulty_plugin_held_by_the_limits),
        cmocka_unit_test(test_site_file_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
