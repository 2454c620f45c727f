/* The driver laboratory back end (include/hysim/driver.h): the example driver
 * (examples/drivers/first_order.c) against the closed form of its first-order actuator and linear
 * spring, the site controller over it against the same model in the virtual laboratory, a site
 * file's `lab: {kind: driver}`, and the refusals: a missing file, a missing symbol, a wrong ABI
 * version, a failing open, a real laboratory under an in-process site. */
#include "hs_test.h"

#include "hysim/labio.h"
#include "hysim/site_controller.h"
#include "hysim/site_server.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A step command u held from tick 1: x(n) = u (1 - (1 - 1/a)^n), f = k x, the controller's tick n
 * (the solution of x(k+1) = x(k) + (u - x(k)) / a from rest). */
static void test_closed_form(void **state)
{
    (void)state;
    hs_lab *lab = NULL;
    assert_int_equal(
        hs_lab_driver_create(NULL, HS_DRIVER_FIRST_ORDER, "a=4 k=2.5", 2, 1000.0, &lab), 0);
    assert_string_equal(hs_lab_kind(lab), "driver");
    const double u[2] = {1.0, -0.5};
    double x[2], f[2];
    hs_lab_input in = {.x = x, .f = f};
    for (int n = 1; n <= 20; n++) {
        assert_int_equal(hs_lab_exchange(lab, u, &in), 0);
        const double g = 1.0 - pow(0.75, n);
        for (int j = 0; j < 2; j++) {
            assert_true(fabs(x[j] - u[j] * g) < 1e-14);
            assert_true(fabs(f[j] - 2.5 * u[j] * g) < 1e-14);
        }
        assert_int_equal((int)in.ctrl_tick, n);
        assert_int_equal((int)in.status, 0);
    }
    assert_true(fabs(x[0] - 0.996828) < 1e-6); /* 1 - 0.75^20 */
    assert_string_equal(hs_lab_alarm(lab), "");
    hs_lab_destroy(&lab);
}

/* One target through a site controller: measured x and f, and the ticks it took. */
typedef struct step_out {
    double x, f;
    int ticks;
    double model; /* x(k+1) = x(k) + (u(k) - x(k)) / 4 over the commands the controller sent */
} step_out;

static step_out run_step(hs_site_controller *sc)
{
    const double tgt[1] = {0.3};
    assert_int_equal(hs_site_controller_target(sc, 1, 0.01, tgt), 0);
    step_out o = {0};
    for (int t = 1; t <= 200; t++) {
        const int ev = hs_site_controller_tick(sc);
        assert_true(ev >= 0);
        assert_false(ev & HS_SC_EV_LIMIT);
        o.model += (hs_site_controller_command(sc)[0] - o.model) / 4.0;
        if (ev & HS_SC_EV_MEASUREMENT) {
            double ht[HS_EXP_HISTORY], hx[HS_EXP_HISTORY], hf[HS_EXP_HISTORY];
            hs_site_measurement m = {
                .x = &o.x, .f = &o.f, .hist_t = ht, .hist_x = hx, .hist_f = hf};
            hs_site_report rep;
            assert_int_equal(hs_site_controller_measurement(sc, &m, &rep), 0);
            o.ticks = t;
            return o;
        }
    }
    fail_msg("no measurement in 200 ticks");
    return o;
}

/* The site controller over the driver measures what the first-order model gives for the commands
 * it sent (integrated here), and the numbers of the same model in the virtual laboratory (actuator
 * delay a = 4 samples, linear specimen K = 2.5, exact sensors): the two implement x(k+1) = x(k) +
 * (u(k) - x(k)) / a and f = K x independently. */
static void test_site_controller(void **state)
{
    (void)state;
    hs_site_controller_params p = hs_site_controller_params_default();
    p.gen.nact = 1;
    p.gen.rate = 1000.0;
    p.gen.dt = 0.01;
    hs_lab *lab = NULL;
    assert_int_equal(
        hs_lab_driver_create(NULL, HS_DRIVER_FIRST_ORDER, "a=4 k=2.5", 1, 1000.0, &lab), 0);
    hs_site_controller *sc = NULL;
    assert_int_equal(hs_site_controller_create_lab(NULL, &p, lab, &sc), 0);
    const step_out d = run_step(sc);
    hs_site_controller_destroy(&sc);
    hs_lab_destroy(&lab);

    const double K[1] = {2.5};
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_list(o, "K", K, 1);
    hs_specimen *spec = NULL;
    assert_int_equal(hs_specimen_create(NULL, "linear", 1, o, &spec), 0);
    hs_options_destroy(&o);
    hs_actuator_params ap = hs_actuator_params_default();
    ap.rate = 1000.0;
    ap.a = 4.0;
    hs_vlab_params vp = {.n_act = 1, .seed = 1, .actuator = &ap, .actuator_count = 1};
    hs_vlab *v = NULL;
    assert_int_equal(hs_vlab_create(NULL, &vp, spec, &v), 0);
    assert_int_equal(hs_site_controller_create(NULL, &p, v, &sc), 0);
    const step_out r = run_step(sc);
    hs_site_controller_destroy(&sc);
    hs_vlab_destroy(&v);
    hs_specimen_destroy(&spec);

    assert_int_equal(d.ticks, r.ticks);
    assert_true(fabs(d.x - r.x) < 1e-12);
    assert_true(fabs(d.f - r.f) < 1e-12);
    assert_true(fabs(d.f - 2.5 * d.x) < 1e-12);
    assert_int_equal(d.ticks, 10); /* dt 0.01 s at 1000 Hz */
    assert_true(fabs(d.x - d.model) < 1e-14);
    assert_true(fabs(d.f - 2.5 * d.model) < 1e-14);
    assert_true(d.x > 0.1 && d.x < 0.3); /* the actuator lags the target 0.3 */
}

static void expect_refusal(const char *path, const char *options, int code, const char *want)
{
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_lab *lab = NULL;
    assert_int_equal(hs_lab_driver_create(ctx, path, options, 1, 1000.0, &lab), code);
    assert_null(lab);
    if (!strstr(hs_ctx_message(ctx), want)) fail_msg("got '%s'", hs_ctx_message(ctx));
    hs_ctx_destroy(&ctx);
}

static void test_refusals(void **state)
{
    (void)state;
    expect_refusal("/nonexistent/libnone.so", "", HS_EINPUT,
                   "lab driver /nonexistent/libnone.so: cannot load it");
    expect_refusal(HS_DRIVER_NO_SYMBOL, "", HS_EINPUT,
                   "no symbol hysim_driver_v1: the library is not a hysim driver");
    expect_refusal(HS_DRIVER_WRONG_ABI, "", HS_EINPUT,
                   "ABI version 2, this hysim needs 1: rebuild the driver");
    expect_refusal(HS_DRIVER_FIRST_ORDER, "a=0.5", HS_EIO,
                   "open failed: first_order: options \"a=0.5\": need a=NUMBER >= 1");
}

/* `lab: {kind: driver}` in a site file: path and options read, a missing file at FILE:LINE:COL. */
static void test_site_file(void **state)
{
    (void)state;
    char text[2048];
    const char *head = "site:\n  name: s\n  plain: true\n  actuators: {a1: {}}\n"
                       "  specimen: {type: linear, K: [[2.5]]}\n  lab:\n";
    snprintf(text, sizeof text, "%s    kind: driver\n    path: %s\n    options: \"a=4 k=2.5\"\n",
             head, HS_DRIVER_FIRST_ORDER);
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_site_file *f = NULL;
    if (hs_site_file_load_string(ctx, text, strlen(text), "s.yaml", &f))
        fail_msg("%s", hs_ctx_message(ctx));
    const hs_site_config *c = &hs_site_file_config(f)->site;
    assert_string_equal(c->lab.kind, "driver");
    assert_string_equal(c->lab.driver.path, HS_DRIVER_FIRST_ORDER);
    assert_string_equal(c->lab.driver.options, "a=4 k=2.5");
    hs_site_file_destroy(&f);
    const char *bad[][2] = {
        {"    kind: driver\n    path: /nonexistent/libx.so\n",
         "s.yaml:8:11: site.lab.path: cannot find '/nonexistent/libx.so'"},
        {"    kind: driver\n", "s.yaml:7:5: missing required key 'path' in site.lab"},
        {"    kind: driver\n    path: " HS_DRIVER_FIRST_ORDER "\n    remote: \"1.2.3.4:5\"\n",
         "s.yaml:9:13: site.lab.remote: only a udp laboratory has a remote"},
        {"    kind: udp\n    remote: \"1.2.3.4:5\"\n    path: x.so\n",
         "s.yaml:9:11: site.lab.path: only a driver laboratory has a path"},
        {"    kind: virtual\n    options: x\n",
         "s.yaml:8:14: site.lab.options: only a driver laboratory has a options"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, "%s%s", head, bad[i][0]);
        assert_int_equal(hs_site_file_load_string(ctx, text, strlen(text), "s.yaml", &f),
                         HS_EINPUT);
        if (!strstr(hs_ctx_message(ctx), bad[i][1]))
            fail_msg("case %zu: got '%s'", i, hs_ctx_message(ctx));
    }
    hs_ctx_destroy(&ctx);
}

/* A real laboratory under an in-process (virtual kind) site is refused at creation, saying to run
 * `hysim site` (issue 17, item 1.3): such a site would resume from the run's checkpoint without
 * reading where the rig is, and before the refusal it crashed at its first tick (the virtual
 * site's tick read the virtual lab's actuators, absent over a real back end: a null hs_vlab). */
static void test_in_process_refused(void **state)
{
    (void)state;
    char text[2048];
    snprintf(text, sizeof text,
             "site:\n  name: s\n  plain: true\n  rate: 1000\n  actuators: {a1: {stroke: 50}}\n"
             "  specimen: {type: linear, K: [[2.5]]}\n  lab:\n    kind: driver\n    path: %s\n"
             "    options: \"x0=1.2\"\n",
             HS_DRIVER_FIRST_ORDER);
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_site_file *f = NULL;
    if (hs_site_file_load_string(ctx, text, strlen(text), "s.yaml", &f))
        fail_msg("%s", hs_ctx_message(ctx));
    hs_site_config c = hs_site_file_config(f)->site;
    snprintf(c.kind, sizeof c.kind, "virtual");
    hs_site *s = NULL;
    assert_int_equal(hs_site_create(ctx, &c, &s), HS_EINPUT);
    assert_null(s);
    if (!strstr(hs_ctx_message(ctx), "site s: a 'driver' laboratory runs behind `hysim site` "
                                     "only") ||
        !strstr(hs_ctx_message(ctx), "give the test a remote site"))
        fail_msg("got '%s'", hs_ctx_message(ctx));
    snprintf(c.lab.kind, sizeof c.lab.kind, "virtual"); /* the virtual lab is the in-process one */
    assert_int_equal(hs_site_create(ctx, &c, &s), 0);
    hs_site_destroy(&s);
    hs_site_file_destroy(&f);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_closed_form),        cmocka_unit_test(test_site_controller),
        cmocka_unit_test(test_refusals),           cmocka_unit_test(test_site_file),
        cmocka_unit_test(test_in_process_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
