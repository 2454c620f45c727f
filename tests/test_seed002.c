/* Seed 002 (Chen and Ricles, actuator delay compensation with multiple actuators) replayed in the
 * virtual laboratory: the eight real-time hybrid tests of Table 2, summarised as in Table 3.
 * Units kN, mm, s. Every choice below is repeated in docs/seed002.md.
 *
 * Structure: a 2-story shear model standing in for seed 002's perimeter MRF ("MRF stand-in"):
 *   story stiffnesses those of the seed's Table 1, k1 = 36.007 kN/mm, k2 = 23.894 kN/mm;
 *   floor masses m1 = m2 = 0.25 kN s^2/mm (250 t) for a first period of 0.91 s (the seed's frame
 *   has 1.42 s; we shorten it so that 20 s of record hold many cycles). Closed form for equal
 *   masses: omega^2 = (k1 + 2 k2 -+ sqrt(k1^2 + 4 k2^2)) / (2 m): T1 = 0.9077 s, T2 = 0.3707 s.
 *   Rayleigh damping 2 % in modes 1 and 2 (the frame's own; the dampers add theirs).
 * Dampers: one MR damper per story, the experimental substructures, each at its own virtual site
 *   (story1, story2) with one actuator on the story drift (x1 = d1, x2 = d2 - d1). Spencer et al.
 *   (1997) model (mr_damper specimen) scaled by 118 (about 200 kN at the prototype's rating
 *   motion, docs/lab.md), passive at a constant 2.25 V, accumulator offset removed (x0 = 0),
 *   length_cm 0.1 and force_N 1000 for mm and kN. The frame is numerical; the dampers state no
 *   initial stiffness, so the elements' K0l is 0 (CR's K0 is the frame's).
 * Integration: CR (`cr`), dt = 10/1024 s, real time (time_scale 1), 1024 Hz site controllers
 *   (10 ticks per step).
 * Actuators (unknown to the compensators): first-order servo loops with a = 20.48 samples
 *   (20 ms, story 1) and 30.72 samples (30 ms, story 2), each drifting linearly by +20 % over the
 *   record (schedule). Stroke 60 mm (the perfect-lab peaks are 37 and 43 mm), velocity limits
 *   760 and 560 mm/s (the seed's actuators); these are the sites' safety limits too.
 *   Sensor noise 0.01 mm and 0.2 kN RMS.
 * Ground motion: the project's synthetic record (seed 2, PGA 4500 mm/s^2 = 0.46 g, 20 s, Jennings
 *   envelope), no shared data; the dampers deform by about 40 mm.
 * Compensation per site, Table 2 (a_es in controller samples, kp for mm, ki = 0.1 kp):
 *   a_es = kp = 0: none; kp = 0, a_es > 0: inverse (fixed); kp > 0: adaptive_inverse.
 * What is asserted (trends of Table 3, not its figures):
 *   - the adaptive tests (2, 4, 6, 7, 8) complete, and their RMS is smaller, on both actuators,
 *     than that of the fixed test with the same a_es (2 < 1, 4 < 3, 6 < 5);
 *   - whatever the initial estimate, adaptive RMS stays below 8 % on every actuator;
 *   - Tests 1 and 5 (fixed estimates far from the delays: 0 and 60) have larger RMS than every
 *     other test, on both actuators (the seed's Test 1 has no figures, its Test 5 is the worst);
 *   - TI's sign follows the estimate (docs/compensation.md: the law's fixed point is a + 1):
 *     Test 5 (a_es 60, over-estimated) has negative max TI on both actuators, as in the seed;
 *     Test 1 (no compensation) positive on both; Test 3 (a_es 30) negative on actuator 1
 *     (a + 1 <= 25.6 < 30) and positive on actuator 2 (a + 1 >= 31.7 > 30);
 *   - the periods of the stand-in against the closed form;
 *   - no site tripped a safety limit and no actuator touched its stroke in any test;
 *   - test_seed002_safety: on a stronger record (seed 3) Test 5's over-compensated command leaves
 *     the stroke and the site ends the test safely (aborted, reason naming the site, no actuator
 *     at its stroke), while Test 4 completes it.
 * Difference from the seed: Test 1 does not go unstable here. With only the dampers
 * experimental, a delay tau lags their forces by omega tau = 0.14-0.51 rad in modes 1 and 2, so
 * they still dissipate (cos(omega tau) > 0.87); the seed's 122-DOF frame has modes this model
 * lacks. The test asserts what the model gives: Test 1 completes, with large errors. */
#include "hs_test.h"

#include "hs_build.h"

#include "hysim/coordinator.h"
#include "hysim/site_controller.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define DT       (10.0 / 1024.0)
#define DURATION 20.0
#define PGA      4500.0
#define MASS     0.25
#define K1       36.007
#define K2       23.894
#define STROKE   60.0
#define RMS_MAX  8.0 /* %: the adaptive tests' bound */

static const double A0[2] = {20.48, 30.72};   /* samples at 1024 Hz: 20 ms, 30 ms */
static const double VMAX[2] = {760.0, 560.0}; /* mm/s */
static const char *const SITE[2] = {"story1", "story2"};

typedef struct table2_row {
    double a_es[2], kp[2];
} table2_row;

static const table2_row TABLE2[8] = {
    {{0, 0}, {0.0, 0.0}},   {{0, 0}, {0.4, 0.4}},   {{30, 30}, {0.0, 0.0}}, {{30, 30}, {0.4, 0.4}},
    {{60, 60}, {0.0, 0.0}}, {{60, 60}, {0.4, 0.4}}, {{0, 60}, {0.4, 0.4}},  {{60, 0}, {0.4, 0.4}},
};

typedef struct replay {
    int status;
    int64_t steps;
    double mte[2], rms[2], ti[2], a_es[2];
    double peak[2];  /* largest |true actuator position| at the end of a step (mm) */
    double fpeak[2]; /* largest |damper force| (kN) */
    int flags[2];    /* HS_ACT_LIMIT_* | HS_SITE_LIMIT_* seen by the site */
    char reason[512];
} replay;

static hs_options *compensation(double a_es, double kp)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    if (a_es == 0.0 && kp == 0.0) {
        hs_options_set_str(o, "type", "none");
    } else if (kp == 0.0) {
        hs_options_set_str(o, "type", "inverse");
        hs_options_set_num(o, "a_es", a_es);
    } else {
        hs_options_set_str(o, "type", "adaptive_inverse");
        hs_options_set_num(o, "a_es", a_es);
        hs_options_set_num(o, "kp", kp);
        hs_options_set_num(o, "ki", 0.1 * kp);
    }
    return o;
}

static hs_options *mr_damper(void)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "scale", 118.0);
    hs_options_set_num(o, "voltage", 2.25);
    hs_options_set_num(o, "x0", 0.0);
    hs_options_set_num(o, "length_cm", 0.1);
    hs_options_set_num(o, "force_N", 1000.0);
    return o;
}

/* The MRF stand-in with one damper site per story; row == NULL: perfect labs. */
static hs_test_def *mr_frame(hs_ctx *ctx, const hs_ground_motion *gm, const table2_row *row)
{
    const double mass[2] = {MASS, MASS};
    hs_test_def *def = hs_tb_new(ctx, 2, mass, "cr", gm->acc, gm->npts, gm->dt);
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_num(o, "k", K1);
    hs_tb_story(def, 0, "elastic", o);
    hs_options_set_num(o, "k", K2);
    hs_tb_story(def, 1, "elastic", o);
    hs_options_destroy(&o);
    const double K[4] = {K1 + K2, -K2, -K2, K2};
    hs_tb_damping(def, K, 0, 1, 0.02, 0.02);
    const double end = (double)(gm->npts - 1) * gm->dt;
    for (int s = 0; s < 2; s++) {
        hs_site_config *c = hs_tb_site(def, SITE[s], 1, row == NULL, "mr_damper", mr_damper());
        c->actuator[0].a = A0[s];
        c->actuator[0].stroke = STROKE;
        c->actuator[0].velocity_max = VMAX[s];
        const double sched[4] = {0.0, A0[s], end, 1.2 * A0[s]};
        memcpy(c->schedule[0], sched, sizeof sched);
        c->displacement.rms = 0.01;
        c->force.rms = 0.2;
        if (row) c->compensation_opts = compensation(row->a_es[s], row->kp[s]);
    }
    for (int s = 0; s < 2; s++) { /* after both sites: hs_tb_site reallocates the array */
        def->sites[s].actuator[0].schedule = def->sites[s].schedule[0];
        def->sites[s].actuator[0].schedule_points = 2;
    }
    const double T1[2] = {1.0, 0.0}, T2[2] = {-1.0, 1.0}, K0l[1] = {0.0};
    hs_tb_element(def, 0, 1, T1, K0l);
    hs_tb_element(def, 1, 1, T2, K0l);
    return def;
}

static void mr_frame_free(hs_test_def *def)
{
    for (int s = 0; s < def->nsites; s++) hs_options_destroy(&def->sites[s].compensation_opts);
    hs_tb_free(def);
}

static replay run(hs_ctx *ctx, const hs_ground_motion *gm, const table2_row *row, double *T)
{
    hs_test_def *def = mr_frame(ctx, gm, row);
    hs_coordinator *c = NULL;
    if (hs_coordinator_create(ctx, def, &c)) fail_msg("create: %s", hs_ctx_message(ctx));
    if (T) memcpy(T, hs_coordinator_periods(c), 2 * sizeof(double));
    replay r = {0};
    while (hs_coordinator_steps_done(c) < def->steps) {
        if (hs_coordinator_advance(c, 1)) break;
        for (int s = 0; s < 2; s++) {
            hs_vlab *lab = hs_site_vlab(hs_coordinator_site(c, s));
            r.peak[s] = fmax(r.peak[s], fabs(hs_vlab_true_displacement(lab)[0]));
            r.fpeak[s] = fmax(r.fpeak[s], fabs(hs_vlab_true_force(lab)[0]));
        }
    }
    r.status = (int)hs_coordinator_status(c);
    r.steps = hs_coordinator_steps_done(c);
    snprintf(r.reason, sizeof r.reason, "%s", hs_coordinator_reason(c));
    if (r.status != HS_RUN_COMPLETED) print_message("  stopped: %s\n", r.reason);
    for (int s = 0; s < 2; s++) {
        hs_site_summary ss;
        assert_int_equal(hs_site_summary_get(hs_coordinator_site(c, s), &ss), 0);
        r.mte[s] = ss.mte[0];
        r.rms[s] = ss.rms[0];
        r.ti[s] = ss.ti_peak[0];
        r.a_es[s] = ss.a_es[0];
        r.flags[s] = ss.limit_flags;
    }
    hs_coordinator_destroy(&c);
    mr_frame_free(def);
    return r;
}

/* The project's synthetic record (no shared data): Jennings envelope, PGA 0.46 g, 20 s. */
static hs_ground_motion *record(hs_ctx *ctx, double seed)
{
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_num(o, "seed", seed);
    hs_options_set_num(o, "pga", PGA);
    hs_options_set_num(o, "duration", DURATION);
    hs_options_set_num(o, "dt", DT);
    hs_ground_motion *gm = NULL;
    assert_int_equal(hs_ground_motion_create(ctx, "synthetic", o, &gm), 0);
    hs_options_destroy(&o);
    return gm;
}

static void test_seed002_table3(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_ground_motion *gm = record(ctx, 2);

    /* The stand-in's periods against the closed form for equal floor masses. */
    double T[2];
    const replay ref = run(ctx, gm, NULL, T);
    const double root = sqrt(K1 * K1 + 4.0 * K2 * K2);
    const double w1 = sqrt((K1 + 2.0 * K2 - root) / (2.0 * MASS)),
                 w2 = sqrt((K1 + 2.0 * K2 + root) / (2.0 * MASS));
    HS_ASSERT_NEAR(T[0], 2.0 * HS_PI / w1, 1e-9);
    HS_ASSERT_NEAR(T[1], 2.0 * HS_PI / w2, 1e-9);
    assert_int_equal(ref.status, HS_RUN_COMPLETED);
    print_message("seed 002 replay: MRF stand-in T1 = %.4f s, T2 = %.4f s; perfect labs: damper "
                  "deformation %.1f / %.1f mm, force %.0f / %.0f kN (stroke %.0f mm)\n",
                  T[0], T[1], ref.peak[0], ref.peak[1], ref.fpeak[0], ref.fpeak[1], STROKE);
    /* the limits sit a little above the expected response */
    for (int s = 0; s < 2; s++) assert_true(ref.peak[s] < STROKE && ref.peak[s] > 0.5 * STROKE);

    replay r[8];
    print_message("%-4s %-5s %-5s %-4s %-4s | %-13s | %-13s | %-19s | %-13s | %s\n", "Test",
                  "a_es1", "a_es2", "kp1", "kp2", "MTE (mm)", "RMS (%)", "max TI (mm^2)",
                  "final a_es", "status");
    for (int t = 0; t < 8; t++) {
        r[t] = run(ctx, gm, &TABLE2[t], NULL);
        print_message("%-4d %-5g %-5g %-4g %-4g | %6.2f %6.2f | %6.2f %6.2f | %9.1f %9.1f | "
                      "%6.2f %6.2f | %s (%lld steps)\n",
                      t + 1, TABLE2[t].a_es[0], TABLE2[t].a_es[1], TABLE2[t].kp[0], TABLE2[t].kp[1],
                      r[t].mte[0], r[t].mte[1], r[t].rms[0], r[t].rms[1], r[t].ti[0], r[t].ti[1],
                      r[t].a_es[0], r[t].a_es[1], hs_run_status_name((hs_run_status)r[t].status),
                      (long long)r[t].steps);
    }
    for (int t = 0; t < 8; t++) {
        assert_int_equal(r[t].status, HS_RUN_COMPLETED);
        for (int s = 0; s < 2; s++) {
            assert_int_equal(r[t].flags[s], 0); /* no trip, no stroke or velocity contact */
            assert_true(r[t].peak[s] < STROKE);
        }
    }
    for (int s = 0; s < 2; s++) {
        /* adaptation beats the fixed estimate it starts from */
        assert_true(r[1].rms[s] < r[0].rms[s]);
        assert_true(r[3].rms[s] < r[2].rms[s]);
        assert_true(r[5].rms[s] < r[4].rms[s]);
        /* and gives small errors whatever the initial estimate */
        const int adaptive[5] = {1, 3, 5, 6, 7};
        for (int k = 0; k < 5; k++) assert_true(r[adaptive[k]].rms[s] < RMS_MAX);
        /* the far-off fixed estimates (none, 60) are the worst of all */
        for (int t = 1; t < 8; t++)
            if (t != 4) assert_true(fmin(r[0].rms[s], r[4].rms[s]) > r[t].rms[s]);
        /* lag raises TI, over-compensation lowers it */
        assert_true(r[0].ti[s] > 0.0);
        assert_true(r[4].ti[s] < 0.0);
    }
    assert_true(r[2].ti[0] < 0.0); /* a_es 30 > a1 + 1 (21.5 .. 25.6) */
    assert_true(r[2].ti[1] > 0.0); /* a_es 30 < a2 + 1 (31.7 .. 37.9) */

    hs_ground_motion_destroy(&gm);
    hs_ctx_destroy(&ctx);
}

/* The sites end a test safely. On record seed 3 the story-1 damper deforms by 54 mm in the
 * perfect lab, close to the 60 mm stroke. Test 5's fixed a_es = 60 leads the command by 59
 * samples and enlarges it at every frequency (|Gc|^2 = 1 + 2 a_es (a_es - 1)(1 - cos theta)
 * >= 1; 1.08 at 1.1 Hz), and asks for more than the stroke: the site refuses that command,
 * holds, and the coordinator stops with status aborted and a reason naming the site; no actuator
 * ever reached its stroke. Test 4's adaptive compensation completes the same record. */
static void test_seed002_safety(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_ground_motion *gm = record(ctx, 3);
    const replay ref = run(ctx, gm, NULL, NULL);
    const replay r5 = run(ctx, gm, &TABLE2[4], NULL);
    print_message("record seed 3: perfect-lab damper deformation %.1f / %.1f mm; Test 5 %s after "
                  "%lld steps, site flags %d / %d, largest actuator position %.2f / %.2f mm\n",
                  ref.peak[0], ref.peak[1], hs_run_status_name((hs_run_status)r5.status),
                  (long long)r5.steps, r5.flags[0], r5.flags[1], r5.peak[0], r5.peak[1]);
    assert_int_equal(ref.status, HS_RUN_COMPLETED);
    assert_true(ref.peak[0] < STROKE && ref.peak[0] > 0.85 * STROKE);
    assert_int_equal(r5.status, HS_RUN_ABORTED);
    assert_non_null(strstr(r5.reason, "site story1"));
    assert_true(r5.flags[0] & HS_SITE_LIMIT_DISPLACEMENT);
    assert_true(r5.steps < 2048);
    for (int s = 0; s < 2; s++) {
        assert_false(r5.flags[s] & HS_ACT_LIMIT_STROKE);
        assert_true(r5.peak[s] < STROKE);
    }
    const replay r4 = run(ctx, gm, &TABLE2[3], NULL);
    assert_int_equal(r4.status, HS_RUN_COMPLETED);
    assert_int_equal(r4.flags[0] | r4.flags[1], 0);
    hs_ground_motion_destroy(&gm);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed002_table3),
        cmocka_unit_test(test_seed002_safety),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
