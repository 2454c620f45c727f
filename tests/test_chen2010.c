/* Chen & Ricles 2010 (Chen and Ricles, actuator delay compensation with multiple actuators)
 * replayed in the virtual laboratory: the eight real-time hybrid tests of Table 2, summarised as in
 * Table 3. Units kN, mm, s. Every choice below is repeated, with its reason, in docs/chen2010.md.
 *
 * Structure ("MRF stand-in", 4 DOFs): the paper's perimeter MRF with its dampers and braces
 * reduced to two floors and two brace-damper junctions.
 *   DOFs 1, 2: floors, m = 0.25 kN s^2/mm (250 t) each; story springs k1 = 36.007 and
 *   k2 = 23.894 kN/mm (the paper's Table 1).
 *   DOFs 3, 4: the junction between story i's brace and its damper, m_b = 0.02 kN s^2/mm (20 t,
 *   the lumped mass of the brace, its gusset and the damper's moving parts); a numerical brace
 *   spring k_b = 100 kN/mm from the junction to floor i; the damper joins the floor below
 *   (ground for story 1) and the junction, so the actuator drives the damper's own deformation
 *   (T rows: x1 = d3, x2 = d4 - d1).
 *   Rayleigh damping 2 % in the bare frame's modes 1 and 2 (C = a0 M + a1 K_frame; the braces
 *   and dampers add no stiffness-proportional damping).
 * Dampers: one MR damper per story, the experimental substructures, each at its own virtual site
 *   (story1, story2) with one actuator. Spencer et al. (1997) model (mr_damper) scaled by 118,
 *   passive at a constant 2.25 V, x0 = 0, length_cm 0.1 and force_N 1000 for mm and kN, with a
 *   softer pre-yield branch: A = 4 instead of 301 and gamma = beta = 363 * 4 / 301 cm^-2, which
 *   keeps the saturated z, (A / (gamma + beta))^(1/2) = 0.644 cm, hence the yield force
 *   alpha z c1 / (c0 + c1) = 117.7 kN, and gives a yield displacement z / A = 1.61 mm. Below it
 *   (and above a few rad/s) the damper is a spring K_d = alpha A c1 / (c0 + c1) = 73.13 kN/mm
 *   beside a dashpot c0 c1 / (c0 + c1) = 0.310 kN s/mm; K_d is each element's K0l.
 * Integration: CR (`cr`), dt = 10/1024 s, real time (time_scale 1), 1024 Hz site controllers
 *   (10 ticks per step).
 * Actuators (unknown to the compensators): first-order servo loops with a = 20.48 samples
 *   (20 ms, story 1) and 30.72 samples (30 ms, story 2), each drifting linearly by +20 % over the
 *   record (schedule). Stroke 60 mm, velocity limits 760 and 560 mm/s (the paper's actuators);
 *   these are the sites' safety limits too. Sensor noise 0.01 mm and 0.2 kN RMS.
 * Ground motion: the project's synthetic record (seed 2, PGA 4500 mm/s^2 = 0.46 g, 20 s, Jennings
 *   envelope), no shared data; the dampers deform by about 40 mm.
 * Why Test 1 is unstable: the brace-junction mode (14.4 Hz with the floors held) has the damper's
 *   pre-yield spring in it; a first-order lag tau on that spring's force is negative damping.
 *   The linearised junction, m_b s^2 + k_b + K*(s) / (1 + tau s) = 0 with the damper's pre-yield
 *   K*(s) = c1 s (alpha A + c0 s) / (alpha A + (c0 + c1) s), has its root at -11.9 1/s without
 *   lag, -3.2 1/s with 5 ms, and +4.6 1/s with 20 and 30 ms (amplitude x 100 per second).
 * Compensation per site, Table 2 (a_es in controller samples, kp for mm, ki = 0.1 kp):
 *   a_es = kp = 0: none; kp = 0, a_es > 0: inverse (fixed); kp > 0: adaptive_inverse.
 * What is asserted:
 *   - the stand-in's K0 periods against the trace and determinant of M^-1 K0 (closed forms);
 *   - Test 1 (no compensation) goes unstable and the sites end it safely: status aborted, the
 *     reason naming a site that tripped a safety limit, no actuator at its stroke, within the
 *     first 10 s; with the sites' limits removed, its dampers still oscillate at the end of the
 *     record (last 2 s, ground motion faded) at more than 10 times the perfect lab's velocity;
 *   - Tests 2-8 complete with no trip and no actuator at its stroke or velocity limit;
 *   - the adaptive tests' RMS is smaller, on both actuators, than that of the fixed test with the
 *     same a_es (2 < 1, 4 < 3, 6 < 5), and below 8 % whatever the initial estimate;
 *   - Tests 1 and 5 (fixed estimates far from the delays: 0 and 60) have larger RMS than every
 *     other test, on both actuators (Test 1's over the steps it ran);
 *   - TI's sign follows the estimate (docs/compensation.md: the law's fixed point is a + 1):
 *     Test 5 (a_es 60) negative on both actuators, as in the paper; Test 1 positive on both;
 *     Test 3 (a_es 30) negative on actuator 1 (a + 1 <= 25.6 < 30) and positive on actuator 2
 *     (a + 1 >= 31.7 > 30);
 *   - test_chen2010_safety: on a stronger record (seed 3, PGA 4160) Test 5's over-compensated
 *     command leaves the stroke and the site ends the test safely, while Test 4 completes it. */
#include "hs_test.h"

#include "hs_build.h"

#include "hysim/coordinator.h"
#include "hysim/site_controller.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define DT         (10.0 / 1024.0)
#define DURATION   20.0
#define PGA        4500.0
#define PGA_SAFETY 4160.0 /* test_chen2010_safety's record (seed 3) */
#define MASS       0.25
#define K1         36.007
#define K2         23.894
#define MB         0.02  /* brace-damper junction mass, kN s^2/mm */
#define KB         100.0 /* brace stiffness, kN/mm */
#define BW_A       4.0   /* the dampers' Bouc-Wen A (Spencer's prototype: 301) */
#define STROKE     60.0
#define RMS_MAX    8.0 /* %: the adaptive tests' bound */

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
    double vtail[2]; /* largest |step velocity| of the true position in the last 2 s (mm/s) */
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

/* The Spencer et al. (1997) parameters of src/lab/specimen_mr_damper.c at 2.25 V, scaled by 118
 * and converted to kN and mm (1 N/cm = 1e-4 kN/mm, 1 N s/cm = 1e-4 kN s/mm). */
#define MR_SCALE   118.0
#define MR_VOLTAGE 2.25
#define MR_ALPHA   (MR_SCALE * (140.0 + 695.0 * MR_VOLTAGE) * 1e-4) /* kN/mm per unit A */
#define MR_C0      (MR_SCALE * (21.0 + 3.50 * MR_VOLTAGE) * 1e-4)
#define MR_C1      (MR_SCALE * (283.0 + 2.95 * MR_VOLTAGE) * 1e-4)
/* the damper's pre-yield spring, each element's K0l */
#define KD (MR_ALPHA * BW_A * MR_C1 / (MR_C0 + MR_C1))

static hs_options *mr_damper(void)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "scale", MR_SCALE);
    hs_options_set_num(o, "voltage", MR_VOLTAGE);
    hs_options_set_num(o, "x0", 0.0);
    hs_options_set_num(o, "A", BW_A);
    hs_options_set_num(o, "gamma", 363.0 * BW_A / 301.0); /* same saturated z as the prototype */
    hs_options_set_num(o, "beta", 363.0 * BW_A / 301.0);
    hs_options_set_num(o, "length_cm", 0.1);
    hs_options_set_num(o, "force_N", 1000.0);
    return o;
}

/* Rayleigh coefficients for 2 % in the bare frame's modes 1 and 2 (equal floor masses:
 * omega^2 = (k1 + 2 k2 -+ sqrt(k1^2 + 4 k2^2)) / (2 m)). */
static void frame_rayleigh(double *a0, double *a1)
{
    const double root = sqrt(K1 * K1 + 4.0 * K2 * K2);
    const double w1 = sqrt((K1 + 2.0 * K2 - root) / (2.0 * MASS)),
                 w2 = sqrt((K1 + 2.0 * K2 + root) / (2.0 * MASS));
    *a1 = 2.0 * 0.02 / (w1 + w2);
    *a0 = *a1 * w1 * w2;
}

static void add_spring(hs_test_def *def, const char *name, int from, int to, double k)
{
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_num(o, "k", k);
    assert_true(hs_model_add_spring(def->model, name, from, to, "elastic", o, name) >= 0);
    hs_options_destroy(&o);
}

/* The MRF stand-in with one damper site per story; row == NULL: perfect labs; limits == 0:
 * the sites' stroke and velocity limits removed (to watch the instability grow). */
static hs_test_def *mr_frame(hs_ctx *ctx, const hs_ground_motion *gm, const table2_row *row,
                             int limits)
{
    const double mass[4] = {MASS, MASS, MB, MB};
    hs_test_def *def = hs_tb_new(ctx, 4, mass, "cr", gm->acc, gm->npts, gm->dt);
    add_spring(def, "story1", HS_GROUND, 0, K1);
    add_spring(def, "story2", 0, 1, K2);
    add_spring(def, "brace1", 2, 0, KB); /* junction 1 to floor 1 */
    add_spring(def, "brace2", 3, 1, KB); /* junction 2 to floor 2 */
    double a0, a1;
    frame_rayleigh(&a0, &a1);
    double *C = (double *)hs_model_damping(def->model);
    const double Kf[4] = {K1 + K2, -K2, -K2, K2};
    memset(C, 0, 16 * sizeof(double));
    for (int i = 0; i < 4; i++) C[i * 4 + i] = a0 * mass[i];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) C[j * 4 + i] += a1 * Kf[j * 2 + i];
    const double end = (double)(gm->npts - 1) * gm->dt;
    for (int s = 0; s < 2; s++) {
        hs_site_config *c = hs_tb_site(def, SITE[s], 1, row == NULL, "mr_damper", mr_damper());
        c->actuator[0].a = A0[s];
        c->actuator[0].stroke = limits ? STROKE : 1e9;
        c->actuator[0].velocity_max = limits ? VMAX[s] : 1e9;
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
    /* the damper's own deformation: story 1 from the ground to junction 1, story 2 from floor 1
     * to junction 2 */
    const double T1[4] = {0.0, 0.0, 1.0, 0.0}, T2[4] = {-1.0, 0.0, 0.0, 1.0}, K0l[1] = {KD};
    hs_tb_element(def, 0, 1, T1, K0l);
    hs_tb_element(def, 1, 1, T2, K0l);
    return def;
}

static void mr_frame_free(hs_test_def *def)
{
    for (int s = 0; s < def->nsites; s++) hs_options_destroy(&def->sites[s].compensation_opts);
    hs_tb_free(def);
}

static replay run(hs_ctx *ctx, const hs_ground_motion *gm, const table2_row *row, int limits,
                  double *T)
{
    hs_test_def *def = mr_frame(ctx, gm, row, limits);
    const int64_t tail = def->steps - (int64_t)lround(2.0 / DT);
    double xprev[2] = {0.0, 0.0};
    hs_coordinator *c = NULL;
    if (hs_coordinator_create(ctx, def, &c)) fail_msg("create: %s", hs_ctx_message(ctx));
    if (T) memcpy(T, hs_coordinator_periods(c), 4 * sizeof(double));
    replay r = {0};
    while (hs_coordinator_steps_done(c) < def->steps) {
        if (hs_coordinator_advance(c, 1)) break;
        for (int s = 0; s < 2; s++) {
            hs_vlab *lab = hs_site_vlab(hs_coordinator_site(c, s));
            r.peak[s] = fmax(r.peak[s], fabs(hs_vlab_true_displacement(lab)[0]));
            r.fpeak[s] = fmax(r.fpeak[s], fabs(hs_vlab_true_force(lab)[0]));
            const double x = hs_vlab_true_displacement(lab)[0];
            if (hs_coordinator_steps_done(c) > tail)
                r.vtail[s] = fmax(r.vtail[s], fabs(x - xprev[s]) / DT);
            xprev[s] = x;
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

/* The project's synthetic record (no shared data): Jennings envelope, 20 s. */
static hs_ground_motion *record(hs_ctx *ctx, double seed, double pga)
{
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_num(o, "seed", seed);
    hs_options_set_num(o, "pga", pga);
    hs_options_set_num(o, "duration", DURATION);
    hs_options_set_num(o, "dt", DT);
    hs_ground_motion *gm = NULL;
    assert_int_equal(hs_ground_motion_create(ctx, "synthetic", o, &gm), 0);
    hs_options_destroy(&o);
    return gm;
}

static void test_chen2010_table3(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_ground_motion *gm = record(ctx, 2, PGA);

    /* The stand-in's periods (of CR's K0: frame, braces, the dampers' pre-yield springs) against
     * two closed forms of the eigenvalues of M^-1 K0: their sum is its trace, their product its
     * determinant (Gaussian elimination below, independent of the library's eigensolver). */
    double T[4];
    const replay ref = run(ctx, gm, NULL, 1, T);
    const double mass[4] = {MASS, MASS, MB, MB};
    /* DOFs: floor 1, floor 2, junction 1, junction 2; damper 1 on d3, damper 2 on d4 - d1 */
    double K[4][4] = {{K1 + K2 + KB + KD, -K2, -KB, -KD},
                      {-K2, K2 + KB, 0.0, -KB},
                      {-KB, 0.0, KB + KD, 0.0},
                      {-KD, -KB, 0.0, KB + KD}};
    double trace = 0.0, det = 1.0, sum = 0.0, prod = 1.0;
    for (int i = 0; i < 4; i++) trace += K[i][i] / mass[i];
    for (int k = 0; k < 4; k++) {
        det *= K[k][k] / mass[k];
        for (int i = k + 1; i < 4; i++) {
            const double f = K[i][k] / K[k][k];
            for (int j = k; j < 4; j++) K[i][j] -= f * K[k][j];
        }
    }
    for (int i = 0; i < 4; i++) {
        const double w2 = pow(2.0 * HS_PI / T[i], 2);
        sum += w2;
        prod *= w2;
    }
    HS_ASSERT_NEAR(sum / trace, 1.0, 1e-12);
    HS_ASSERT_NEAR(prod / det, 1.0, 1e-9);
    assert_int_equal(ref.status, HS_RUN_COMPLETED);
    print_message(
        "Chen & Ricles 2010 replay: MRF stand-in periods %.4f %.4f %.4f %.4f s (K_d = %.2f kN/mm); "
        "perfect labs: damper deformation %.1f / %.1f mm, force %.0f / %.0f kN (stroke "
        "%.0f mm)\n",
        T[0], T[1], T[2], T[3], KD, ref.peak[0], ref.peak[1], ref.fpeak[0], ref.fpeak[1], STROKE);
    /* the limits sit a little above the expected response */
    for (int s = 0; s < 2; s++) assert_true(ref.peak[s] < STROKE && ref.peak[s] > 0.5 * STROKE);

    replay r[8];
    print_message("%-4s %-5s %-5s %-4s %-4s | %-13s | %-13s | %-19s | %-13s | %s\n", "Test",
                  "a_es1", "a_es2", "kp1", "kp2", "MTE (mm)", "RMS (%)", "max TI (mm^2)",
                  "final a_es", "status");
    for (int t = 0; t < 8; t++) {
        r[t] = run(ctx, gm, &TABLE2[t], 1, NULL);
        print_message("%-4d %-5g %-5g %-4g %-4g | %6.2f %6.2f | %6.2f %6.2f | %9.1f %9.1f | "
                      "%6.2f %6.2f | %s (%lld steps)\n",
                      t + 1, TABLE2[t].a_es[0], TABLE2[t].a_es[1], TABLE2[t].kp[0], TABLE2[t].kp[1],
                      r[t].mte[0], r[t].mte[1], r[t].rms[0], r[t].rms[1], r[t].ti[0], r[t].ti[1],
                      r[t].a_es[0], r[t].a_es[1], hs_run_status_name((hs_run_status)r[t].status),
                      (long long)r[t].steps);
    }
    /* Test 1 goes unstable and a site ends it safely, in the first 10 s */
    assert_int_equal(r[0].status, HS_RUN_ABORTED);
    assert_non_null(strstr(r[0].reason, "safety limit"));
    const int trip = strstr(r[0].reason, "site story1") ? 0 : 1;
    assert_non_null(strstr(r[0].reason, trip == 0 ? "site story1" : "site story2"));
    assert_true(r[0].flags[trip] & (HS_SITE_LIMIT_DISPLACEMENT | HS_SITE_LIMIT_VELOCITY));
    assert_true(r[0].steps < 1024);
    for (int s = 0; s < 2; s++) {
        assert_false(r[0].flags[s] & HS_ACT_LIMIT_STROKE);
        assert_true(r[0].peak[s] < STROKE);
    }
    /* without the sites' limits it runs to the end, and its dampers still oscillate when the
     * record has faded: at more than 10 times the perfect lab's velocity in the last 2 s */
    const replay free1 = run(ctx, gm, &TABLE2[0], 0, NULL);
    print_message("Test 1 without site limits: %s; last 2 s, largest damper velocity %.0f / %.0f "
                  "mm/s (perfect labs %.1f / %.1f), largest deformation %.1f / %.1f mm\n",
                  hs_run_status_name((hs_run_status)free1.status), free1.vtail[0], free1.vtail[1],
                  ref.vtail[0], ref.vtail[1], free1.peak[0], free1.peak[1]);
    assert_int_equal(free1.status, HS_RUN_COMPLETED);
    for (int s = 0; s < 2; s++) assert_true(free1.vtail[s] > 10.0 * ref.vtail[s]);
    for (int t = 1; t < 8; t++) {
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

/* The sites end a test safely on an over-compensated test too. On record seed 3 scaled to PGA
 * 4160 mm/s^2 the story-2 damper deforms by 57 mm in the perfect lab, close to the 60 mm stroke.
 * Test 5's fixed a_es = 60 leads the command by 59 samples and enlarges it at every frequency
 * (|Gc|^2 = 1 + 2 a_es (a_es - 1)(1 - cos theta) >= 1; 1.08 at 1.1 Hz), and asks for more than
 * the stroke: the site refuses that command, holds, and the coordinator stops with status aborted
 * and a reason naming the site; no actuator ever reached its stroke. Test 4's adaptive
 * compensation completes the same record. */
static void test_chen2010_safety(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_ground_motion *gm = record(ctx, 3, PGA_SAFETY);
    const replay ref = run(ctx, gm, NULL, 1, NULL);
    const replay r5 = run(ctx, gm, &TABLE2[4], 1, NULL);
    print_message("record seed 3: perfect-lab damper deformation %.1f / %.1f mm; Test 5 %s after "
                  "%lld steps, site flags %d / %d, largest actuator position %.2f / %.2f mm\n",
                  ref.peak[0], ref.peak[1], hs_run_status_name((hs_run_status)r5.status),
                  (long long)r5.steps, r5.flags[0], r5.flags[1], r5.peak[0], r5.peak[1]);
    assert_int_equal(ref.status, HS_RUN_COMPLETED);
    assert_true(ref.peak[1] < STROKE && ref.peak[1] > 0.9 * STROKE);
    assert_int_equal(r5.status, HS_RUN_ABORTED);
    assert_non_null(strstr(r5.reason, "site story2"));
    assert_true(r5.flags[1] & HS_SITE_LIMIT_DISPLACEMENT);
    assert_true(r5.steps < 2048);
    for (int s = 0; s < 2; s++) {
        assert_false(r5.flags[s] & HS_ACT_LIMIT_STROKE);
        assert_true(r5.peak[s] < STROKE);
    }
    const replay r4 = run(ctx, gm, &TABLE2[3], 1, NULL);
    assert_int_equal(r4.status, HS_RUN_COMPLETED);
    assert_int_equal(r4.flags[0] | r4.flags[1], 0);
    hs_ground_motion_destroy(&gm);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chen2010_table3),
        cmocka_unit_test(test_chen2010_safety),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
