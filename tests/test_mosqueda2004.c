/* Mosqueda et al.'s (2004) geographically distributed continuous test, replayed in virtual time:
 * the two-story shear frame with one column at each of two virtual sites, explicit Newmark, dt =
 * 0.01 s, time scale 120 (1.2 s of wall time per step), 3000 steps, and a network whose round trip
 * from D_target to the next D_update delivers about 95 % of the targets within 0.7 s. Units kip,
 * in. */
#include "hs_test.h"

#include "hs_build.h"

#include "hysim/cmdgen.h"
#include "hysim/coordinator.h"
#include "hysim/link.h"
#include "hysim/results.h"
#include "hysim/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STEPS  3000
#define MEDIAN 0.12 /* s, each direction */
#define SIGMA  0.7

static hs_options *link_opts(double median, double sigma)
{
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_str(o, "delay", "lognormal");
    hs_options_set_num(o, "median", median);
    hs_options_set_num(o, "sigma", sigma);
    return o;
}

/* Story 1 (yielding, bilinear fy = 1 kip, 5 % hardening) at lab1, story 2 (elastic) at lab2. */
static hs_test_def *frame(hs_ctx *ctx, const hs_ground_motion *gm, int hybrid, double median,
                          hs_options *relax)
{
    const double m = 4.0 / 386.1, mass[2] = {m, m};
    hs_test_def *def = hs_tb_new(ctx, 2, mass, "newmark_explicit", gm->acc, gm->npts, gm->dt);
    def->time_scale = 120.0;
    const double K[4] = {5.6, -2.8, -2.8, 2.8};
    hs_options *o1 = NULL, *o2 = NULL;
    hs_options_create(&o1);
    hs_options_create(&o2);
    hs_options_set_num(o1, "k", 2.8);
    hs_options_set_num(o1, "fy", 1.0);
    hs_options_set_num(o1, "b", 0.05);
    hs_options_set_num(o2, "k", 2.8);
    if (!hybrid) {
        hs_tb_story(def, 0, "bilinear", o1);
        hs_tb_story(def, 1, "elastic", o2);
        hs_options_destroy(&o1);
        hs_options_destroy(&o2);
    }
    hs_tb_damping(def, K, 0, 0, 0.02, 0.02);
    if (!hybrid) return def;
    hs_options_set_str(o1, "material", "bilinear");
    hs_options_set_str(o2, "material", "elastic");
    hs_tb_site(def, "lab1", 1, 0, "material", o1);
    hs_tb_site(def, "lab2", 1, 0, "material", o2);
    hs_site_config *sites[2] = {&def->sites[0], &def->sites[1]}; /* after both (realloc) */
    for (int k = 0; k < 2; k++) {
        sites[k]->time_scale = 120.0;
        sites[k]->actuator[0].a = 2.0;
        sites[k]->displacement.rms = 1e-4;
        sites[k]->force.rms = 1e-3;
        sites[k]->link_opts = link_opts(median, SIGMA);
        if (relax) {
            hs_options_create(&sites[k]->relaxation_opts);
            for (size_t i = 0; i < hs_options_count(relax); i++)
                hs_options_set_num(sites[k]->relaxation_opts, hs_options_key(relax, i),
                                   hs_options_num(relax, hs_options_key(relax, i), 0.0));
        }
    }
    const double T1[2] = {1.0, 0.0}, T2[2] = {-1.0, 1.0}, k1[1] = {2.8};
    hs_tb_element(def, 0, 1, T1, k1);
    hs_tb_element(def, 1, 1, T2, k1);
    return def;
}

static void free_links(hs_test_def *def)
{
    for (int s = 0; s < def->nsites; s++) hs_options_destroy(&def->sites[s].link_opts);
}

/* P(delay > x) for the delay from D_target to the next D_update at one site: the coordinator
 * waits for both sites' measurements (max of two up-link delays), then the target goes down. */
static void expected(double t_slow, double t_hold, double *p_slow, double *p_hold, double *p07)
{
    hs_options *o = link_opts(MEDIAN, SIGMA);
    hs_delay_dist *d = NULL;
    assert_int_equal(hs_delay_dist_create(NULL, "lognormal", o, &d), 0);
    hs_rng rng;
    hs_rng_seed(&rng, 12345, 1);
    const int n = 400000;
    int slow = 0, hold = 0, within = 0;
    for (int i = 0; i < n; i++) {
        const double up = fmax(hs_delay_dist_sample(d, &rng), hs_delay_dist_sample(d, &rng));
        const double delay = up + hs_delay_dist_sample(d, &rng);
        slow += delay > t_slow;
        hold += delay > t_hold;
        within += delay <= 0.7;
    }
    *p_slow = (double)slow / n;
    *p_hold = (double)hold / n;
    *p07 = (double)within / n;
    hs_delay_dist_destroy(&d);
    hs_options_destroy(&o);
}

static double peak_error(hs_ctx *ctx, hs_test_def *a, hs_test_def *b, double *peak,
                         hs_site_summary *ss, double *wall)
{
    hs_coordinator *ca = NULL, *cb = NULL;
    assert_int_equal(hs_coordinator_create(ctx, a, &ca), 0);
    assert_int_equal(hs_coordinator_create(ctx, b, &cb), 0);
    assert_int_equal(hs_coordinator_run(ca), 0);
    const clock_t c0 = clock();
    if (hs_coordinator_run(cb)) fail_msg("%s", hs_ctx_message(ctx));
    *wall = (double)(clock() - c0) / CLOCKS_PER_SEC;
    const hs_results *ra = hs_coordinator_results(ca), *rb = hs_coordinator_results(cb);
    double err = 0.0;
    *peak = 0.0;
    for (int64_t k = 0; k < hs_results_count(ra); k++) {
        const double *x = hs_results_series_d(ra, k), *y = hs_results_series_d(rb, k);
        *peak = fmax(*peak, fabs(x[0]));
        err = fmax(err, fabs(x[0] - y[0]));
    }
    (void)ss;
    hs_coordinator_destroy(&ca);
    hs_coordinator_destroy(&cb);
    return err;
}

static void test_mosqueda2004_table1(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_ground_motion *gm = hs_tb_synthetic(ctx, 5, 0.3 * 386.1, 0.01 * STEPS, 0.01);

    hs_test_def *num = frame(ctx, gm, 0, MEDIAN, NULL);
    hs_test_def *hyb = frame(ctx, gm, 1, MEDIAN, NULL);
    hs_coordinator *c = NULL;
    assert_int_equal(hs_coordinator_create(ctx, num, &c), 0);
    assert_int_equal(hs_coordinator_run(c), 0);
    const hs_results *rn = hs_coordinator_results(c);
    double *ref = malloc(2 * (STEPS + 1) * sizeof(double));
    for (int64_t k = 0; k <= STEPS; k++) memcpy(ref + 2 * k, hs_results_series_d(rn, k), 16);
    const double peak = hs_results_peak_abs_disp(rn, 0);
    hs_coordinator_destroy(&c);

    hs_coordinator *h = NULL;
    assert_int_equal(hs_coordinator_create(ctx, hyb, &h), 0);
    const clock_t c0 = clock();
    if (hs_coordinator_run(h)) fail_msg("%s", hs_ctx_message(ctx));
    const double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
    const hs_results *rh = hs_coordinator_results(h);
    double err = 0.0;
    for (int64_t k = 0; k <= STEPS; k++)
        err = fmax(err, fabs(hs_results_series_d(rh, k)[0] - ref[2 * k]));

    /* thresholds of the command generator at 1024 Hz and W = 1.2 s */
    hs_cmdgen_params p = hs_cmdgen_params_default();
    p.nact = 1;
    p.dt = 0.01;
    p.time_scale = 120.0;
    hs_cmdgen *g = NULL;
    assert_int_equal(hs_cmdgen_create(ctx, &p, &g), 0);
    int64_t t1, t2, th;
    hs_cmdgen_timeout_ticks(g, &t1, &t2, &th);
    hs_cmdgen_destroy(&g);
    const double t_slow = (double)t1 / 1024.0, t_hold = (double)(t1 + t2) / 1024.0;
    double p_slow, p_hold, p07;
    expected(t_slow, t_hold, &p_slow, &p_hold, &p07);

    print_message("Mosqueda et al. 2004 replay: lognormal links (median %.2f s, sigma %.2f each "
                  "way): %.1f %% "
                  "of round trips within 0.7 s\n",
                  MEDIAN, SIGMA, 100.0 * p07);
    print_message("%-6s %6s %10s %12s %8s %8s   expected slow %.2f %% (> %.3f s), hold %.2f %% "
                  "(> %.3f s)\n",
                  "site", "steps", "max delay", "run time (s)", "% slow", "% hold", 100 * p_slow,
                  t_slow, 100 * p_hold, t_hold);
    for (int s = 0; s < 2; s++) {
        hs_site_summary ss;
        assert_int_equal(hs_site_summary_get(hs_coordinator_site(h, s), &ss), 0);
        print_message("%-6s %6lld %10.3f %12.1f %8.2f %8.2f\n", s ? "lab2" : "lab1",
                      (long long)ss.steps, ss.max_delay, ss.total_time, ss.pct_slow, ss.pct_hold);
        assert_int_equal(ss.steps, STEPS);
        /* binomial sampling error of 3000 steps, 4 standard errors */
        const double se_s = sqrt(p_slow * (1 - p_slow) / STEPS),
                     se_h = sqrt(p_hold * (1 - p_hold) / STEPS);
        HS_ASSERT_NEAR(ss.pct_slow / 100.0, p_slow, 4.0 * se_s + 1e-3);
        HS_ASSERT_NEAR(ss.pct_hold / 100.0, p_hold, 4.0 * se_h + 1e-3);
        assert_true(ss.total_time >= STEPS * 1.2);
    }
    print_message("first-story drift: numerical peak %.3f in, largest hybrid difference %.3f in "
                  "(%.1f %% of the peak); the replay took %.2f s of CPU\n",
                  peak, err, 100.0 * err / peak, cpu);
    assert_true(err < 0.25 * peak);
    hs_coordinator_destroy(&h);
    free(ref);
    free_links(hyb);
    hs_tb_free(num);
    hs_tb_free(hyb);
    hs_ground_motion_destroy(&gm);
    hs_ctx_destroy(&ctx);
    (void)peak_error;
}

/* Force relaxation (Mosqueda et al. 2004, Fig. 9): while the actuator holds, a fraction of the
 * force decays; the measured force of the elastic second-story column then falls short of k x. With
 * a slow network (frequent holds) the shortfall shows; with a fast one (holds rare) it vanishes. */
static double relaxation_shortfall(hs_ctx *ctx, const hs_ground_motion *gm, double median,
                                   double *pct_hold)
{
    hs_options *relax = NULL;
    hs_options_create(&relax);
    hs_options_set_num(relax, "fraction", 0.2);
    hs_options_set_num(relax, "tau", 2.0);
    hs_options_set_num(relax, "v_still", 1e-4);
    hs_test_def *hyb = frame(ctx, gm, 1, median, relax);
    hs_options_destroy(&relax);
    hyb->steps = 600;
    hs_coordinator *h = NULL;
    assert_int_equal(hs_coordinator_create(ctx, hyb, &h), 0);
    double worst = 0.0, fpeak = 0.0;
    for (int k = 0; k < 600; k++) {
        if (hs_coordinator_advance(h, 1)) fail_msg("%s", hs_ctx_message(ctx));
        const hs_experiment *e = hs_coordinator_experiment(h);
        const double f = e->f_meas[1], x = e->x_meas[1]; /* story 2: elastic, k = 2.8 */
        fpeak = fmax(fpeak, fabs(2.8 * x));
        if (fabs(x) > 0.05) worst = fmax(worst, (2.8 * x - f) / (2.8 * x));
    }
    hs_site_summary ss;
    hs_site_summary_get(hs_coordinator_site(h, 1), &ss);
    *pct_hold = ss.pct_hold;
    hs_coordinator_destroy(&h);
    free_links(hyb);
    hs_tb_free(hyb);
    (void)fpeak;
    return worst;
}

static void test_mosqueda2004_relaxation(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_ground_motion *gm = hs_tb_synthetic(ctx, 5, 0.3 * 386.1, 6.0, 0.01);
    double hold_slow, hold_fast;
    const double slow = relaxation_shortfall(ctx, gm, 0.45, &hold_slow);
    const double fast = relaxation_shortfall(ctx, gm, 0.02, &hold_fast);
    print_message("relaxation (20 %%, tau 2 s): slow network %.1f %% of steps held, largest force "
                  "shortfall %.1f %% of k x; fast network %.1f %% held, shortfall %.2f %%\n",
                  hold_slow, 100 * slow, hold_fast, 100 * fast);
    assert_true(hold_slow > 5.0);
    assert_true(hold_fast < 0.5);
    assert_true(slow > 0.02);       /* holds of about a second lose several % of the force */
    assert_true(fast < 0.5 * slow); /* and without holds the loss is much smaller */
    hs_ground_motion_destroy(&gm);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mosqueda2004_table1),
        cmocka_unit_test(test_mosqueda2004_relaxation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
