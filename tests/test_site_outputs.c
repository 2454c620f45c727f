/* What a hybrid run leaves behind about its site controllers (docs/outputs.md): /sites/{states,
 * delay} and /actuators/{tracking_error, tracking_indicator} in results.h5, recorded by the
 * coordinator each step, and the figures sites_states.png, sites_delay.png and actuators_ti.png.
 * Mosqueda et al.'s (2004) two-story frame (one column at each of two virtual sites, units kip, in,
 * s) over lognormal links, on a short record at a time scale of 12 so that it runs in about a
 * second: many steps slow down, some hold. */
#include "hs_test.h"

#include "hs_build.h"
#include "hs_output.h"

#include "hysim/coordinator.h"
#include "hysim/results.h"

#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STEPS 400
#define DT    0.01
#define SCALE 12.0
#define RATE  1024.0

/* The TimeOut rules of Mosqueda et al. 2004 (docs/site_controller.md): N = round(dt * time_scale *
 * rate) = round(122.88) = 123 ticks per step; extrapolate for T1 = round(0.6 N) = round(73.8) = 74
 * ticks, slow for T2 = round((0.8 - 0.6) N / 0.5) = round(49.2) = 49 ticks: a step slows when
 * its target comes 74 ticks or more after the previous D_target, holds from 123 ticks. */
#define SLOW_AFTER (74.0 / RATE)
#define HOLD_AFTER (123.0 / RATE)

enum { BIT_E = 1, BIT_I = 2, BIT_S = 4, BIT_H = 8 };

static hs_options *link_opts(void)
{
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_str(o, "delay", "lognormal");
    hs_options_set_num(o, "median", 0.022);
    hs_options_set_num(o, "sigma", 0.7);
    return o;
}

/* Story 1 (bilinear, fy = 1 kip) at lab1, story 2 (elastic) at lab2, k = 2.8 kip/in each. */
static hs_test_def *frame(hs_ctx *ctx, const hs_ground_motion *gm)
{
    const double m = 4.0 / 386.1, mass[2] = {m, m};
    hs_test_def *def = hs_tb_new(ctx, 2, mass, "newmark_explicit", gm->acc, gm->npts, gm->dt);
    def->time_scale = SCALE;
    snprintf(def->units_force, sizeof def->units_force, "kip");
    snprintf(def->units_length, sizeof def->units_length, "in");
    const double K[4] = {5.6, -2.8, -2.8, 2.8};
    hs_tb_damping(def, K, 0, 0, 0.02, 0.02);
    hs_options *o1 = NULL, *o2 = NULL;
    hs_options_create(&o1);
    hs_options_create(&o2);
    hs_options_set_str(o1, "material", "bilinear");
    hs_options_set_num(o1, "k", 2.8);
    hs_options_set_num(o1, "fy", 1.0);
    hs_options_set_num(o1, "b", 0.05);
    hs_options_set_str(o2, "material", "elastic");
    hs_options_set_num(o2, "k", 2.8);
    hs_tb_site(def, "lab1", 1, 0, "material", o1);
    hs_tb_site(def, "lab2", 1, 0, "material", o2);
    for (int s = 0; s < 2; s++) {
        hs_site_config *site = &def->sites[s];
        site->time_scale = SCALE;
        site->rate = RATE;
        site->actuator[0].a = 2.0;
        site->displacement.rms = 1e-4;
        site->force.rms = 1e-3;
        site->link_opts = link_opts();
    }
    const double T1[2] = {1.0, 0.0}, T2[2] = {-1.0, 1.0}, k1[1] = {2.8};
    hs_tb_element(def, 0, 1, T1, k1);
    hs_tb_element(def, 1, 1, T2, k1);
    return def;
}

static void h5_limits(hid_t file, const char *name, double *out)
{
    hid_t g = H5Gopen2(file, "sites", H5P_DEFAULT);
    assert_true(g >= 0);
    hid_t attr = H5Aopen(g, name, H5P_DEFAULT);
    assert_true(attr >= 0);
    assert_true(H5Aread(attr, H5T_NATIVE_DOUBLE, out) >= 0);
    H5Aclose(attr);
    H5Gclose(g);
}

static void test_site_outputs(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_ground_motion *gm = hs_tb_synthetic(ctx, 5, 0.3 * 386.1, DT * STEPS, DT);
    hs_test_def *def = frame(ctx, gm);
    assert_int_equal(def->steps, STEPS);

    hs_coordinator *c = NULL;
    if (hs_coordinator_create(ctx, def, &c)) fail_msg("create: %s", hs_ctx_message(ctx));
    if (hs_coordinator_run(c)) fail_msg("run: %s", hs_ctx_message(ctx));
    char dir[4096], path[4200];
    hs_test_make_dir(dir, sizeof dir, "test_site_outputs");
    assert_int_equal(hs_coordinator_write(c, dir), 0);
    hs_site_summary ss[2];
    for (int s = 0; s < 2; s++)
        assert_int_equal(hs_site_summary_get(hs_coordinator_site(c, s), &ss[s]), 0);

    snprintf(path, sizeof path, "%s/results.h5", dir);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(file >= 0);
    const hsize_t n = STEPS + 1;
    double *states = hs_h5_read(file, "sites/states", n, 2, "1");
    double *delay = hs_h5_read(file, "sites/delay", n, 2, "s");
    double *te = hs_h5_read(file, "actuators/tracking_error", n, 2, "in");
    double *ti = hs_h5_read(file, "actuators/tracking_indicator", n, 2, "in^2");
    double slow_after[2], hold_after[2];
    h5_limits(file, "slow_after_s", slow_after);
    h5_limits(file, "hold_after_s", hold_after);
    H5Fclose(file);

    for (int s = 0; s < 2; s++) {
        assert_true(slow_after[s] == SLOW_AFTER);
        assert_true(hold_after[s] == HOLD_AFTER);
        assert_true(states[s] == 0 && isnan(delay[s])); /* t = 0: no step yet */
        int64_t slow = 0, hold = 0, plain = 0;
        double max_delay = 0;
        for (int k = 1; k <= STEPS; k++) {
            const int b = (int)states[2 * k + s];
            const double d = delay[2 * k + s];
            assert_true(states[2 * k + s] == (double)b && b > 0 && b < 64);
            /* every step ends by interpolating to its target; it extrapolates while it waits */
            assert_true(b & BIT_I);
            assert_true(!(b & BIT_E) == !(d > 0));
            /* TimeOuts: slow from 74 ticks after D_target, hold from 123 (delay = ticks / rate) */
            if (!(b & BIT_S) != !(d >= SLOW_AFTER) || !(b & BIT_H) != !(d >= HOLD_AFTER))
                fail_msg("%s step %d: delay %.6f s, states 0x%x", s ? "lab2" : "lab1", k, d, b);
            slow += (b & BIT_S) != 0;
            hold += (b & BIT_H) != 0;
            plain += !(b & BIT_S);
            max_delay = fmax(max_delay, d);
        }
        print_message("%s: %lld steps, %lld slowed (%.2f %%), %lld held (%.2f %%), largest delay "
                      "%.3f s\n",
                      s ? "lab2" : "lab1", (long long)ss[s].steps, (long long)slow, ss[s].pct_slow,
                      (long long)hold, ss[s].pct_hold, max_delay);
        /* the links make every kind of step happen */
        assert_true(plain > 0 && slow > hold && hold > 0);
        /* the records agree exactly with the site's Table 1 */
        assert_int_equal(ss[s].steps, STEPS);
        assert_true(100.0 * (double)slow / STEPS == ss[s].pct_slow);
        assert_true(100.0 * (double)hold / STEPS == ss[s].pct_hold);
        assert_int_equal(slow, llround(ss[s].pct_slow * STEPS / 100.0));
        assert_int_equal(hold, llround(ss[s].pct_hold * STEPS / 100.0));
        assert_true(max_delay == ss[s].max_delay);
        /* tracking: each record is one sample of the site's own figures (Chen & Ricles 2010, eq. 3,
         * 4a) */
        assert_true(isnan(te[s]) && isnan(ti[s]));
        double te_max = 0, ti_max = 0;
        for (int k = 1; k <= STEPS; k++) {
            assert_true(isfinite(te[2 * k + s]) && isfinite(ti[2 * k + s]));
            te_max = fmax(te_max, fabs(te[2 * k + s]));
            ti_max = fmax(ti_max, fabs(ti[2 * k + s]));
        }
        assert_true(te_max > 0 && te_max <= ss[s].mte[0]);
        assert_true(ti_max > 0 && ti_max <= fabs(ss[s].ti_peak[0]));
    }
    free(states);
    free(delay);
    free(te);
    free(ti);
    hs_coordinator_destroy(&c);

    if (hs_test_plot(dir)) {
        const char *pngs[] = {"sites_states.png", "sites_delay.png", "actuators_ti.png",
                              "actuators_tracking.png"};
        for (size_t i = 0; i < sizeof pngs / sizeof pngs[0]; i++)
            assert_true(hs_test_is_png(dir, pngs[i]));
    }
    hs_test_remove_dir(dir);
    for (int s = 0; s < def->nsites; s++) hs_options_destroy(&def->sites[s].link_opts);
    hs_tb_free(def);
    hs_ground_motion_destroy(&gm);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_site_outputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
