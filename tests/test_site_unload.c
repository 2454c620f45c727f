/* Controlled unloading after a trip (docs/site_controller.md, "Controlled unloading"), in virtual
 * time against a scripted laboratory (a first-order actuator per channel and a linear specimen
 * with a zero-force offset, f = K (x - x_off), and a status word raised at a given tick):
 * - an operator abort while moving (two coupled actuators): the command brakes within the
 *   acceleration limit, holds `after` bit for bit, ramps to the zero-force position and stops
 *   with every measured force below the tolerance; stroke, step, velocity, acceleration and force
 *   hold at every tick;
 * - an interlock bit: unloads to the specimen's zero-force position (an offset of 0.2);
 * - a zero-force position beyond the stroke: the ramp stops inside the stroke, at rest;
 * - a watchdog (the laboratory is gone): held bit for bit, never moved again;
 * - the alarm sentences per back end (udp, shm, driver) and of the abort;
 * - between tests (hs_site_controller_move_to): from where a test left the command (unloaded at
 *   an offset, or held at the end of a test with two actuators) to the next test's start at 0,
 *   every tick within half of every limit, along a straight path, in the trapezoid's time, ending
 *   at 0 bit for bit and staying there. */
#include "hs_test.h"

#include "hysim/labio.h"
#include "hysim/site_controller.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE 1024.0

typedef struct tlab {
    int n;
    double K[4], off[2], alpha; /* K row by row; x += alpha (cmd - x) each tick */
    double x[2], f[2];
    int64_t tick, status_at;
    uint32_t status;
    int64_t bad_at; /* from this tick on, channel 0 reports bad_x, bad_f (0: never) */
    double bad_x, bad_f;
} tlab;

static int t_exchange(void *self, const double *cmd, hs_lab_input *in)
{
    tlab *l = self;
    l->tick++;
    for (int j = 0; j < l->n; j++) l->x[j] += l->alpha * (cmd[j] - l->x[j]);
    for (int j = 0; j < l->n; j++) {
        l->f[j] = 0.0;
        for (int i = 0; i < l->n; i++) l->f[j] += l->K[j * l->n + i] * (l->x[i] - l->off[i]);
    }
    memcpy(in->x, l->x, (size_t)l->n * sizeof(double));
    memcpy(in->f, l->f, (size_t)l->n * sizeof(double));
    if (l->bad_at > 0 && l->tick >= l->bad_at) {
        in->x[0] = l->bad_x;
        in->f[0] = l->bad_f;
    }
    in->ctrl_tick = l->tick;
    in->status = l->status_at > 0 && l->tick >= l->status_at ? l->status : 0;
    in->missing = in->missing_max = (in->status & HS_LAB_ST_WATCHDOG) ? 5 : 0;
    return 0;
}
static const double *t_x(void *self)
{
    return ((tlab *)self)->x;
}
static const double *t_f(void *self)
{
    return ((tlab *)self)->f;
}
static const hs_lab_ops tlab_ops = {
    .kind = "shm", .exchange = t_exchange, .true_displacement = t_x, .true_force = t_f};

typedef struct rig {
    tlab l;
    hs_lab *lab;
    hs_site_controller *sc;
    hs_site_limits lim[2];
    double c1[2], c2[2]; /* the last two commands */
    double worst[4];     /* largest |step|, velocity, acceleration, |f| over all ticks */
    int64_t ticks;
} rig;

static void rig_open(rig *r, int n, const double *K, const double *off, const hs_site_limits *lim,
                     const hs_site_unload_params *u)
{
    memset(r, 0, sizeof *r);
    r->l.n = n;
    memcpy(r->l.K, K, (size_t)(n * n) * sizeof(double));
    if (off) memcpy(r->l.off, off, (size_t)n * sizeof(double));
    r->l.alpha = 0.25; /* a lagging actuator: 4 ticks' time constant */
    for (int j = 0; j < n; j++) r->lim[j] = *lim;
    /* the rest state: f = -K off at x = 0 is what the lab reports; start from its own rest */
    assert_int_equal(hs_lab_create(NULL, &tlab_ops, &r->l, n, RATE, &r->lab), 0);
    hs_site_controller_params p = hs_site_controller_params_default();
    p.gen.nact = n;
    p.gen.rate = RATE;
    p.gen.dt = 0.01;
    p.gen.time_scale = 1.0;
    p.limits = r->lim;
    p.stiffness = K; /* symmetric: row or column order alike */
    p.unload = *u;
    assert_int_equal(hs_site_controller_create_lab(NULL, &p, r->lab, &r->sc), 0);
}

static void rig_close(rig *r)
{
    hs_site_controller_destroy(&r->sc);
    hs_lab_destroy(&r->lab);
}

/* One tick; every limit checked on the command sent and on the specimen. */
static int rig_tick(rig *r)
{
    const int ev = hs_site_controller_tick(r->sc);
    assert_true(ev >= 0);
    const double *c = hs_site_controller_command(r->sc);
    for (int j = 0; j < r->l.n; j++) {
        const hs_site_limits *L = &r->lim[j];
        const double s = fabs(c[j] - r->c1[j]), v = s * RATE,
                     a = fabs(c[j] - 2.0 * r->c1[j] + r->c2[j]) * RATE * RATE;
        assert_true(isfinite(c[j]));
        assert_true(fabs(c[j]) <= L->disp && fabs(r->l.x[j]) <= L->disp);
        if (!(s <= L->step && v <= L->vel && a <= L->acc && fabs(r->l.f[j]) <= L->force))
            fail_msg("tick %lld actuator %d: step %g velocity %g acceleration %g force %g",
                     (long long)r->ticks + 1, j, s, v, a, r->l.f[j]);
        const double w[4] = {s, v, a, fabs(r->l.f[j])};
        for (int q = 0; q < 4; q++) r->worst[q] = fmax(r->worst[q], w[q]);
        r->c2[j] = r->c1[j];
        r->c1[j] = c[j];
    }
    r->ticks++;
    return ev;
}

/* Targets s * x_end, s = k / steps, each followed by its ticks until the measurement. Stops after
 * `stop_after` targets (the last one mid-step: 5 ticks). */
static void drive(rig *r, const double *x_end, int steps, int stop_after)
{
    for (int k = 1; k <= stop_after; k++) {
        double x[2];
        for (int j = 0; j < r->l.n; j++) x[j] = x_end[j] * k / steps;
        if (hs_site_controller_target(r->sc, k, 0.01 * k, x)) {
            hs_site_report rep;
            hs_site_controller_trip_report(r->sc, &rep);
            char text[300];
            hs_site_limit_message(text, sizeof text, "lab", "a", &rep, "m", "kN", "s");
            fail_msg("step %d refused: %s", k, text);
        }
        for (int t = 0; t < 100; t++) {
            if (k == stop_after && t == 5) return;
            if (rig_tick(r) & HS_SC_EV_MEASUREMENT) {
                double mx[2], mf[2], ht[HS_EXP_HISTORY], hx[2 * HS_EXP_HISTORY],
                    hf[2 * HS_EXP_HISTORY];
                hs_site_measurement m = {
                    .x = mx, .f = mf, .hist_t = ht, .hist_x = hx, .hist_f = hf};
                assert_int_equal(hs_site_controller_measurement(r->sc, &m, NULL), 0);
                break;
            }
        }
    }
}

/* Ticks until the unloading has settled (at most `max` ticks); returns the ticks taken and the
 * ticks held bit for bit (the hold before the ramp). */
static int64_t until_settled(rig *r, int64_t max, int64_t *held)
{
    int64_t k = 0, run = 0, best = 0;
    double prev[2];
    memcpy(prev, hs_site_controller_command(r->sc), sizeof prev);
    for (; k < max && !hs_site_controller_unload_settled(r->sc); k++) {
        rig_tick(r);
        const double *c = hs_site_controller_command(r->sc);
        int same = 1;
        for (int j = 0; j < r->l.n; j++) same &= c[j] == prev[j];
        run = same ? run + 1 : 0;
        best = run > best ? run : best;
        memcpy(prev, c, sizeof prev);
    }
    if (held) *held = best;
    return k;
}

/* Still for `ticks` ticks, bit for bit. */
static void assert_still(rig *r, int ticks)
{
    double c0[2];
    memcpy(c0, hs_site_controller_command(r->sc), sizeof c0);
    for (int k = 0; k < ticks; k++) {
        rig_tick(r);
        for (int j = 0; j < r->l.n; j++) assert_true(hs_site_controller_command(r->sc)[j] == c0[j]);
    }
}

static const hs_site_limits LIM = {
    .disp = 1.0, .vel = 1.0, .force = 10.0, .acc = 2000.0, .step = 0.004};

static void test_abort_unloads_two_actuators(void **state)
{
    (void)state;
    const double K[4] = {20.0, -10.0, -10.0, 10.0}, x_end[2] = {0.2, 0.3};
    const hs_site_unload_params u = {.after = 0.25, .vel = 0.2, .force_tol = 0.01};
    rig r;
    rig_open(&r, 2, K, NULL, &LIM, &u);
    drive(&r, x_end, 100, 80); /* moving at 0.24, 0.36 per s when the operator aborts */
    const double v_abort = fabs(r.c1[1] - r.c2[1]) * RATE;
    hs_site_controller_abort(r.sc);
    const int ev = rig_tick(&r); /* the abort is reported with this tick's measurement */
    assert_true(ev & HS_SC_EV_LIMIT);
    assert_true(ev & HS_SC_EV_MEASUREMENT);
    double mx[2], mf[2], ht[HS_EXP_HISTORY], hx[2 * HS_EXP_HISTORY], hf[2 * HS_EXP_HISTORY];
    hs_site_measurement m = {.x = mx, .f = mf, .hist_t = ht, .hist_x = hx, .hist_f = hf};
    hs_site_report rep;
    assert_int_equal(hs_site_controller_measurement(r.sc, &m, &rep), 0);
    assert_int_equal(rep.limit_flags, HS_SITE_LIMIT_ABORT);
    assert_int_equal(rep.limit_cause, HS_SITE_CAUSE_OPERATOR);
    assert_true(m.flags & HS_SITE_LIMIT_ABORT);
    char text[300];
    hs_site_limit_message(text, sizeof text, "lab1", "a1", &rep, "m", "kN", "s");
    assert_non_null(strstr(text, "site lab1: operator abort"));
    assert_non_null(strstr(text, "unloads under control"));
    const double x = 0.0;
    assert_int_equal(hs_site_controller_target(r.sc, 81, 0.81, &x), HS_ELIMIT);
    assert_int_equal(hs_site_controller_unload_state(r.sc), HS_SITE_UNLOAD_HOLD);
    const double f0 = fmax(fabs(r.l.f[0]), fabs(r.l.f[1]));
    double peak_ramp_v = 0.0;
    int64_t held = 0, k = 0;
    /* brake and hold, then the ramp: record its peak speed */
    for (; k < 20 * (int64_t)RATE && !hs_site_controller_unload_settled(r.sc); k++) {
        const int ramping = hs_site_controller_unload_state(r.sc) == HS_SITE_UNLOAD_RAMP;
        const double before[2] = {r.c1[0], r.c1[1]};
        rig_tick(&r);
        if (ramping)
            for (int j = 0; j < 2; j++)
                peak_ramp_v = fmax(peak_ramp_v, fabs(r.c1[j] - before[j]) * RATE);
        else if (r.c1[0] == before[0] && r.c1[1] == before[1])
            held++;
    }
    printf("abort while moving at %.3f/s: unloaded from |f| %.4g in %lld ticks (%lld held bit for "
           "bit), ramp peak speed %.4f/s; largest step %.3g, velocity %.4g, acceleration %.4g, "
           "|f| %.4g; final f %.3g, %.3g at x %.5f, %.5f\n",
           v_abort, f0, (long long)k, (long long)held, peak_ramp_v, r.worst[0], r.worst[1],
           r.worst[2], r.worst[3], r.l.f[0], r.l.f[1], r.l.x[0], r.l.x[1]);
    assert_true(v_abort > 0.3);
    assert_int_equal(hs_site_controller_unload_state(r.sc), HS_SITE_UNLOAD_DONE);
    assert_true(held >= 256); /* after = 0.25 s = 256 ticks, bit for bit */
    assert_true(peak_ramp_v > 0.19 &&
                peak_ramp_v <= 0.2 + 1e-12); /* the ramp's speed, never more */
    assert_true(fabs(r.l.f[0]) <= 0.01 && fabs(r.l.f[1]) <= 0.01);
    /* zero force of this specimen is x = 0: |x| <= |K^-1| 0.01 (K^-1 = [0.1 0.1; 0.1 0.2]) */
    assert_true(fabs(r.l.x[0]) <= 0.002 + 1e-12 && fabs(r.l.x[1]) <= 0.003 + 1e-12);
    assert_still(&r, 1024);
    rig_close(&r);
}

static void test_interlock_unloads_to_offset(void **state)
{
    (void)state;
    const double K[1] = {20.0}, off[1] = {0.2}, x_end[1] = {0.6};
    const hs_site_unload_params u = {.after = 0.1, .vel = 0.1, .force_tol = 0.02};
    rig r;
    rig_open(&r, 1, K, off, &LIM, &u);
    r.l.status = HS_LAB_ST_INTERLOCK;
    r.l.status_at = 2000000; /* not yet */
    drive(&r, x_end, 200, 200);
    r.l.status_at = r.l.tick + 1;
    int64_t held = 0;
    const int64_t k = until_settled(&r, 20 * (int64_t)RATE, &held);
    int ch = 0;
    assert_int_equal(hs_site_controller_tripped(r.sc, &ch), HS_SITE_LIMIT_LAB);
    hs_site_report rep;
    hs_site_controller_trip_report(r.sc, &rep);
    assert_int_equal(rep.limit_cause, HS_SITE_CAUSE_LAB_INTERLOCK);
    char text[300];
    hs_site_limit_message(text, sizeof text, "lab1", "a1", &rep, "m", "kN", "s");
    printf("interlock: %s\n  unloaded in %lld ticks (%lld held), x %.5f, f %.4g\n", text,
           (long long)k, (long long)held, r.l.x[0], r.l.f[0]);
    assert_non_null(strstr(text, "the shm controller raised its interlock bit (status 0x1"));
    assert_int_equal(hs_site_controller_unload_state(r.sc), HS_SITE_UNLOAD_DONE);
    assert_true(held >= 102); /* 0.1 s */
    assert_true(fabs(r.l.f[0]) <= 0.02);
    assert_true(fabs(r.l.x[0] - 0.2) <= 0.001 + 1e-12); /* the zero-force position, not 0 */
    assert_still(&r, 1024);
    rig_close(&r);
}

static void test_unload_stops_at_stroke(void **state)
{
    (void)state;
    const double K[1] = {10.0}, off[1] = {-1.5}, x_end[1] = {0.3};
    const hs_site_limits lim = {
        .disp = 1.0, .vel = 0.6, .force = 100.0, .acc = 2000.0, .step = 0.004};
    const hs_site_unload_params u = {.after = 0.05, .vel = 0.4, .acc = 1.0};
    rig r;
    rig_open(&r, 1, K, off, &lim, &u);
    drive(&r, x_end, 100, 100);
    hs_site_controller_abort(r.sc);
    memset(r.worst, 0, sizeof r.worst); /* the unloading's own */
    const int64_t k = until_settled(&r, 20 * (int64_t)RATE, NULL);
    const double c = hs_site_controller_command(r.sc)[0];
    printf("zero force beyond the stroke: stopped after %lld ticks at %.5f (stroke 1), f %.4g; "
           "largest velocity %.4g\n",
           (long long)k, c, r.l.f[0], r.worst[1]);
    assert_int_equal(hs_site_controller_unload_state(r.sc), HS_SITE_UNLOAD_STROKE);
    assert_true(c < -0.99 && c >= -1.0); /* braked in time, close to the stroke */
    assert_true(r.worst[1] <= 0.3 + 1e-12 &&
                r.worst[1] > 0.29); /* vel 0.4 capped at half the limit */
    assert_still(&r, 2048);
    assert_true(fabs(r.l.x[0]) <= 1.0);
    rig_close(&r);
}

static void test_watchdog_holds_for_good(void **state)
{
    (void)state;
    const double K[1] = {20.0}, x_end[1] = {0.4};
    const hs_site_unload_params u = {.after = 0.1, .vel = 0.1};
    rig r;
    rig_open(&r, 1, K, NULL, &LIM, &u);
    r.l.status = HS_LAB_ST_WATCHDOG;
    r.l.status_at = 2000000;
    drive(&r, x_end, 100, 60); /* moving */
    r.l.status_at = r.l.tick + 1;
    rig_tick(&r); /* the tick that sees the watchdog */
    assert_int_equal(hs_site_controller_unload_state(r.sc), HS_SITE_UNLOAD_HELD);
    const double held = hs_site_controller_command(r.sc)[0];
    assert_true(held > 0.2);
    hs_site_report rep;
    hs_site_controller_trip_report(r.sc, &rep);
    char text[300];
    hs_site_limit_message(text, sizeof text, "lab1", "a1", &rep, "m", "kN", "s");
    printf("watchdog: %s\n", text);
    assert_non_null(strstr(text, "watchdog: 5 ticks in a row without a fresh sample in the shm "
                                 "segment (limit 5); likely the real-time process stopped"));
    /* the stop is abrupt (a gone laboratory is sent nothing new), then never another value */
    r.c2[0] = r.c1[0]; /* the abrupt stop's acceleration is not the unloading's */
    assert_still(&r, 4096);
    rig_close(&r);
}

/* The alarm sentences name the back end's channel, the count, the limit and the likely cause. */
static void test_alarm_texts(void **state)
{
    (void)state;
    static const struct {
        const char *kind;
        double value, bound;
        const char *text;
    } cases[] = {
        {"udp", 5, 5,
         "site lab1: laboratory alarm: watchdog: 5 replies missing in a row on the udp link "
         "(limit 5); likely the real-time target stopped or the network drops its packets; the "
         "site holds without moving, the test stops"},
        {"shm", 7, 7,
         "site lab1: laboratory alarm: watchdog: 7 ticks in a row without a fresh sample in the "
         "shm segment (limit 7); likely the real-time process stopped or runs late; the site "
         "holds without moving, the test stops"},
        {"driver", 1, 1,
         "site lab1: laboratory alarm: watchdog: 1 failed calls of the lab driver (limit 1); "
         "likely the hardware or its driver stopped (see the site's log); the site holds "
         "without moving, the test stops"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hs_site_report r;
        memset(&r, 0, sizeof r);
        r.limit_flags = HS_SITE_LIMIT_LAB;
        r.limit_cause = HS_SITE_CAUSE_LAB_WATCHDOG;
        r.limit_value = cases[i].value;
        r.limit_bound = cases[i].bound;
        r.lab = cases[i].kind;
        char text[300];
        const int len = hs_site_limit_message(text, sizeof text, "lab1", "?", &r, "m", "kN", "s");
        assert_string_equal(text, cases[i].text);
        assert_true(len <= 254 - 16); /* a site name of 20 characters still fits a wire sentence */
    }
    hs_site_report r;
    memset(&r, 0, sizeof r);
    r.limit_flags = HS_SITE_LIMIT_LAB;
    r.limit_cause = HS_SITE_CAUSE_LAB_FAULT;
    r.limit_value = 2;
    r.lab = "udp";
    char text[300];
    hs_site_limit_message(text, sizeof text, "lab1", "?", &r, "m", "kN", "s");
    assert_string_equal(text, "site lab1: laboratory alarm: the udp controller raised its fault "
                              "bit (status 0x2, limit 0); likely a controller fault (hydraulics, "
                              "servo valve, transducer); the site holds, unloads under control, "
                              "the test stops");
}

/* Targets walking at 0.75 of the step limit (0.03 a step of 10 ticks, limit 0.004 a tick) after
 * 20 slow steps: the corrector's path between them overshoots the limit; the trip names that
 * cause (before: "cause not recognised"). */
static void test_cause_near_limit(void **state)
{
    (void)state;
    const double K[1] = {2.0};
    const hs_site_limits lim = {
        .disp = 1.0, .vel = 5.0, .force = 10.0, .acc = 2000.0, .step = 0.004};
    const hs_site_unload_params u = {0};
    rig r;
    rig_open(&r, 1, K, NULL, &lim, &u);
    int i = 1;
    for (; i <= 60 && !hs_site_controller_tripped(r.sc, NULL); i++) {
        const double x = i <= 20 ? 0.001 * i : 0.02 + 0.03 * (i - 20);
        assert_int_equal(hs_site_controller_target(r.sc, i, 0.01 * i, &x), 0);
        for (int t = 0; t < 100; t++)
            if (hs_site_controller_tick(r.sc) & HS_SC_EV_MEASUREMENT) {
                double mx, mf, ht[HS_EXP_HISTORY], hx[HS_EXP_HISTORY], hf[HS_EXP_HISTORY];
                hs_site_measurement m = {
                    .x = &mx, .f = &mf, .hist_t = ht, .hist_x = hx, .hist_f = hf};
                assert_int_equal(hs_site_controller_measurement(r.sc, &m, NULL), 0);
                break;
            }
    }
    hs_site_report rep;
    hs_site_controller_trip_report(r.sc, &rep);
    char text[300];
    const int len = hs_site_limit_message(text, sizeof text, "a-site-of-20-chars..", "a1", &rep,
                                          "mm", "kN", "s");
    printf("near the limit (step %d): %s\n", i - 1, text);
    assert_int_equal(rep.limit_flags, HS_SITE_LIMIT_STEP);
    assert_int_equal(rep.limit_cause, HS_SITE_CAUSE_NEAR_LIMIT);
    HS_ASSERT_NEAR(rep.limit_speed, 0.03 * RATE / 10.0, 1e-12); /* 0.03 over 10 ticks */
    assert_non_null(strstr(text, "the targets need 3.072 mm/s, near the limit"));
    assert_true(len <= 254); /* fits a wire error sentence with a 20-character site name */
    rig_close(&r);
}

/* Ticks a move to 0 to its end; returns its ticks. Every tick within half of each speed and
 * acceleration limit (rig_tick checks the whole ones), on the straight line from where it began
 * (the actuators' ratio kept), peak speed into *vpeak. */
static int64_t move_home(rig *r, double *vpeak, double *apeak)
{
    const int n = r->l.n;
    double from[2];
    memcpy(from, hs_site_controller_command(r->sc), sizeof from);
    const double zero[2] = {0.0, 0.0};
    hs_site_controller_move_to(r->sc, zero);
    int64_t k = 0;
    *vpeak = *apeak = 0.0;
    while (hs_site_controller_moving(r->sc)) {
        assert_true(k < 60 * (int64_t)RATE);
        const double c1[2] = {r->c1[0], r->c1[1]}, c2[2] = {r->c2[0], r->c2[1]};
        rig_tick(r);
        k++;
        const double *c = hs_site_controller_command(r->sc);
        for (int j = 0; j < n; j++) {
            const double v = fabs(c[j] - c1[j]) * RATE,
                         a = fabs(c[j] - 2.0 * c1[j] + c2[j]) * RATE * RATE;
            *vpeak = fmax(*vpeak, v / fabs(from[j]));
            *apeak = fmax(*apeak, a / fabs(from[j]));
            assert_true(v <= 0.5 * r->lim[j].vel * (1.0 + 1e-9));
            assert_true(a <= 0.5 * r->lim[j].acc * (1.0 + 1e-9));
            /* on the line from `from` to 0: c = from (1 - s), the same s for every actuator */
            assert_true(fabs(c[j] / from[j] - c[0] / from[0]) <= 1e-12);
        }
    }
    for (int j = 0; j < n; j++) assert_true(hs_site_controller_command(r->sc)[j] == 0.0);
    assert_still(r, 512);
    return k;
}

static void test_move_between_tests(void **state)
{
    (void)state;
    /* unloaded by an interlock at the specimen's offset 0.2, then moved to 0 at the unloading's
     * speed 0.1 and acceleration 0.1 / 0.1 s = 1: a trapezoid of D / v + v / a = 2.2 s */
    const double K1[1] = {20.0}, off[1] = {0.2}, x_end[1] = {0.6};
    const hs_site_unload_params u = {.after = 0.1, .vel = 0.1, .force_tol = 0.02};
    rig r;
    rig_open(&r, 1, K1, off, &LIM, &u);
    r.l.status = HS_LAB_ST_INTERLOCK;
    r.l.status_at = 2000000;
    drive(&r, x_end, 200, 200);
    r.l.status_at = r.l.tick + 1;
    until_settled(&r, 20 * (int64_t)RATE, NULL);
    const double D = fabs(hs_site_controller_command(r.sc)[0]);
    double vpeak, apeak;
    int64_t k = move_home(&r, &vpeak, &apeak);
    const double T = D / 0.1 + 0.1 / 1.0;
    printf("move after an unloading: %.5f to 0 in %lld ticks (trapezoid %.4f s = %.1f ticks), "
           "peak speed %.6f, acceleration %.6f\n",
           D, (long long)k, T, T * RATE, vpeak * D, apeak * D);
    assert_true(D > 0.15 && D < 0.25);
    assert_true(llabs(k - (int64_t)ceil(T * RATE)) <= 1);
    assert_true(vpeak * D <= 0.1 * (1.0 + 1e-9) && vpeak * D > 0.0999);
    assert_true(apeak * D <= 1.0 * (1.0 + 1e-6));
    rig_close(&r);
    /* two actuators held where a test left them (no unloading configured: half the velocity
     * limit, 0.5, reached in 0.1 s, 5 /s^2); the path parameter's limits come from the longer
     * distance D: 0.5 / D and 5 / D, a trapezoid of D / 0.5 + 0.1 s */
    const double K2[4] = {20.0, -10.0, -10.0, 10.0}, x2[2] = {0.2, 0.3};
    const hs_site_unload_params none = {0};
    rig_open(&r, 2, K2, NULL, &LIM, &none);
    drive(&r, x2, 100, 100);
    for (int t = 0; t < 2 * (int)RATE; t++) rig_tick(&r); /* slow, hold */
    assert_int_equal(hs_cmdgen_current_state(hs_site_controller_cmdgen(r.sc)), HS_CMDGEN_HOLD);
    const double *held = hs_site_controller_command(r.sc);
    const double h0 = held[0], h1 = held[1], D2 = fmax(fabs(h0), fabs(h1));
    k = move_home(&r, &vpeak, &apeak);
    const double T2 = D2 / 0.5 + 0.1;
    printf("move after a held test: (%.4f, %.4f) to 0 in %lld ticks (trapezoid %.1f ticks)\n", h0,
           h1, (long long)k, T2 * RATE);
    assert_true(D2 > 0.29);
    assert_true(llabs(k - (int64_t)ceil(T2 * RATE)) <= 1);
    rig_close(&r);
    /* no limit at all: the move takes one tick, as any command would */
    const hs_site_limits free_lim = {.disp = 1.0, .force = 10.0};
    rig_open(&r, 1, K1, NULL, &free_lim, &none);
    const double there[1] = {0.3};
    assert_true(hs_site_controller_move_to(r.sc, there) == 1.0 / RATE);
    assert_true(hs_site_controller_tick(r.sc) >= 0);
    assert_true(hs_site_controller_command(r.sc)[0] == 0.3);
    assert_false(hs_site_controller_moving(r.sc));
    rig_close(&r);
}

/* Laboratory data that is not a measurement (a force of 1e300, a NaN displacement): the site trips
 * at once naming the data, the channel and the value, whatever the limits (none here but the
 * stroke), and holds bit for bit without unloading from it (before: 1e300 went on to the
 * integrator and was reported as an unstable integration). */
static void test_lab_data_refused(void **state)
{
    (void)state;
    const double K[1] = {20.0}, x_end[1] = {0.3};
    const hs_site_unload_params u = {.after = 0.1, .vel = 0.1, .force_tol = 0.02};
    const double bad[2][2] = {{0.25, 1e300}, {NAN, 5.0}};
    const char *const want[2] = {"laboratory data: measured force on a1 is 1e+300 kN, not a "
                                 "measurement",
                                 "laboratory data: measured displacement on a1 is nan m"};
    for (int c = 0; c < 2; c++) {
        rig r;
        rig_open(&r, 1, K, NULL, &LIM, &u);
        drive(&r, x_end, 100, 50);
        r.l.bad_at = r.l.tick + 1;
        r.l.bad_x = bad[c][0];
        r.l.bad_f = bad[c][1];
        const int ev = hs_site_controller_tick(r.sc);
        assert_true(ev & HS_SC_EV_LIMIT);
        int ch = -1;
        const int flags = hs_site_controller_tripped(r.sc, &ch);
        hs_site_report rep;
        hs_site_controller_trip_report(r.sc, &rep);
        assert_int_equal(rep.limit_cause, HS_SITE_CAUSE_LAB_DATA);
        assert_int_equal(ch, 0);
        assert_int_equal(flags, c ? HS_SITE_LIMIT_MEASURED_DISP : HS_SITE_LIMIT_MEASURED_FORCE);
        char text[300];
        hs_site_limit_message(text, sizeof text, "lab1", "a1", &rep, "m", "kN", "s");
        printf("%s\n", text);
        assert_non_null(strstr(text, want[c]));
        double held[1];
        memcpy(held, hs_site_controller_command(r.sc), sizeof held);
        for (int k = 0; k < 2048; k++) hs_site_controller_tick(r.sc); /* no unloading from it */
        assert_true(hs_site_controller_command(r.sc)[0] == held[0]);
        rig_close(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_abort_unloads_two_actuators),
        cmocka_unit_test(test_interlock_unloads_to_offset),
        cmocka_unit_test(test_unload_stops_at_stroke),
        cmocka_unit_test(test_watchdog_holds_for_good),
        cmocka_unit_test(test_alarm_texts),
        cmocka_unit_test(test_cause_near_limit),
        cmocka_unit_test(test_move_between_tests),
        cmocka_unit_test(test_lab_data_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
