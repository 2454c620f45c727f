/* Site controller: command generator -> compensation -> limits -> virtual lab -> measurement.
 * Round trip in a perfect lab (measured = target, f = K x, history and time stamps, step
 * records), inverse compensation of a first-order actuator (Gc Gp = 1/z: measured = target),
 * safety limits (never crossed, reported, latched), free vibration of a two-story shear building
 * held in its first mode (modal damping ratio and mode shape kept), no allocation in ticks. */
#include "hs_test.h"

#include "hysim/site_controller.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

typedef struct bench {
    hs_specimen *spec;
    hs_vlab *lab;
    hs_site_controller *sc;
    hs_compensator *comp[2];
    /* measurement buffers */
    double x[2], f[2], ht[HS_EXP_HISTORY], hx[2 * HS_EXP_HISTORY], hf[2 * HS_EXP_HISTORY];
    hs_site_measurement m;
} bench;

/* K row by row (n x n), actuator delay a (0: perfect lab), exact sensors. */
static void bench_open(bench *b, int n, const double *K, double a, hs_site_controller_params *p)
{
    memset(b, 0, sizeof *b);
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_list(o, "K", K, (size_t)(n * n));
    assert_int_equal(hs_specimen_create(NULL, "linear", n, o, &b->spec), 0);
    hs_options_destroy(&o);
    hs_actuator_params ap = hs_actuator_params_default();
    ap.rate = p->gen.rate;
    if (a > 0) ap.a = a;
    hs_vlab_params vp = {
        .n_act = n, .perfect = a > 0 ? 0 : 1, .seed = 1, .actuator = &ap, .actuator_count = 1};
    assert_int_equal(hs_vlab_create(NULL, &vp, b->spec, &b->lab), 0);
    p->gen.nact = n;
    assert_int_equal(hs_site_controller_create(NULL, p, b->lab, &b->sc), 0);
    b->m = (hs_site_measurement){
        .x = b->x, .f = b->f, .hist_t = b->ht, .hist_x = b->hx, .hist_f = b->hf};
}

static void bench_close(bench *b)
{
    hs_site_controller_destroy(&b->sc);
    hs_vlab_destroy(&b->lab);
    hs_specimen_destroy(&b->spec);
    for (int j = 0; j < 2; j++) hs_compensator_destroy(&b->comp[j]);
}

static hs_site_controller_params params(double rate, double dt, double ts)
{
    hs_site_controller_params p = hs_site_controller_params_default();
    p.gen.rate = rate;
    p.gen.dt = dt;
    p.gen.time_scale = ts;
    return p;
}

/* Ticks until a measurement is ready; returns the ticks taken. */
static int until_measurement(bench *b, hs_site_report *r)
{
    for (int k = 1; k < 100000; k++) {
        const int ev = hs_site_controller_tick(b->sc);
        assert_true(ev >= 0);
        if (ev & HS_SC_EV_MEASUREMENT) {
            assert_int_equal(hs_site_controller_measurement(b->sc, &b->m, r), 0);
            return k;
        }
    }
    fail_msg("no measurement");
    return -1;
}

/* Perfect lab (x = command, exact sensors): at D_target the measured displacement is the target
 * bit for bit and the force K x; the time stamp is the target's; the history holds the last 8
 * samples, uniformly dt / N apart in simulation time when the target came during extrapolate;
 * the step record has the scripted delay and states. */
static void test_perfect_round_trip(void **state)
{
    (void)state;
    const double K[4] = {3.0, -1.0, -1.0, 2.0};
    hs_site_controller_params p = params(1024.0, 0.01, 10.0); /* N = 102, T1 61, T2 41 */
    bench b;
    bench_open(&b, 2, K, 0.0, &p);
    const int N = hs_cmdgen_ticks_per_step(hs_site_controller_cmdgen(b.sc));
    assert_int_equal(N, 102);
    const int delay[10] = {0, 0, 5, 30, 60, 61, 80, 102, 250, 3};
    const uint64_t allocs = hs_alloc_count();
    for (int i = 0; i < 10; i++) {
        for (int k = 0; k < delay[i]; k++) {
            const int ev = hs_site_controller_tick(b.sc);
            assert_true(ev >= 0 && !(ev & HS_SC_EV_MEASUREMENT));
        }
        const double t = (i + 1) * 0.01;
        const double x[2] = {0.5 * sin(2 * PI * t / 0.3), 0.2 * cos(2 * PI * t / 0.17)};
        assert_int_equal(hs_site_controller_target(b.sc, i + 1, t, x), 0);
        hs_site_report r;
        until_measurement(&b, &r);
        assert_true(b.x[0] == x[0] && b.x[1] == x[1]);
        HS_ASSERT_NEAR(b.f[0], 3.0 * x[0] - x[1], 1e-15);
        HS_ASSERT_NEAR(b.f[1], -x[0] + 2.0 * x[1], 1e-15);
        assert_true(b.m.t == t);
        assert_int_equal(b.m.nhist, HS_EXP_HISTORY);
        assert_true(b.ht[HS_EXP_HISTORY - 1] == t);
        assert_true(b.hx[2 * (HS_EXP_HISTORY - 1)] == x[0]);
        assert_true(b.hf[2 * (HS_EXP_HISTORY - 1) + 1] == b.f[1]);
        if (i > 0 && delay[i] < 61)
            for (int k = 1; k < HS_EXP_HISTORY; k++)
                HS_ASSERT_NEAR(b.ht[k] - b.ht[k - 1], 0.01 / N, 1e-15);
        assert_int_equal(r.step, i + 1);
        assert_int_equal(r.limit_flags, 0);
        assert_int_equal(r.record.step, i + 1);
        if (i > 0) {
            assert_int_equal(r.record.delay_ticks, delay[i]);
            assert_int_equal(!!(r.record.states & HS_CMDGEN_BIT(HS_CMDGEN_SLOW)), delay[i] >= 61);
            assert_int_equal(!!(r.record.states & HS_CMDGEN_BIT(HS_CMDGEN_HOLD)),
                             delay[i] >= 61 + 41);
        }
        assert_int_equal(b.m.ticks, r.record.ticks);
        HS_ASSERT_NEAR(r.t_wall, (double)r.tick / 1024.0, 0.0);
    }
    assert_int_equal(hs_alloc_count(), allocs);
    hs_cmdgen_summary s;
    hs_cmdgen_summary_get(hs_site_controller_cmdgen(b.sc), &s);
    assert_int_equal(s.steps, 10);
    assert_int_equal(s.steps_slow, 4); /* delays 61, 80, 102, 250 */
    assert_int_equal(s.steps_hold, 2); /* 102, 250 */
    printf("perfect lab: 10 steps, slow %.0f %%, hold %.0f %%, max delay %.4f s, run %.4f s\n",
           s.pct_slow, s.pct_hold, s.max_delay, s.total_time);
    bench_close(&b);
}

/* First-order actuator Gp(z) = 1 / (a z - (a - 1)), a = 4: without compensation the measurement
 * lags the target; with inverse compensation a_es = a (Chen & Ricles 2010, Gc Gp = 1/z) the
 * actuator's position after each tick is the generator's command of that tick, so the measurement
 * at D_target is the target to round-off. */
static double tracking_error(int compensate)
{
    const double K[1] = {2.8};
    hs_site_controller_params p = params(1024.0, 0.01, 10.0);
    bench b;
    hs_compensator *comp[1] = {NULL};
    if (compensate) {
        hs_options *o = NULL;
        hs_options_create(&o);
        hs_options_set_num(o, "a_es", 4.0);
        assert_int_equal(hs_compensator_create(NULL, "inverse", o, 1024.0, &comp[0]), 0);
        hs_options_destroy(&o);
        p.compensator = comp;
    }
    bench_open(&b, 1, K, 4.0, &p);
    double err = 0.0;
    for (int i = 0; i < 30; i++) {
        const double t = (i + 1) * 0.01, x = 0.7 * sin(2 * PI * t / 0.2);
        assert_int_equal(hs_site_controller_target(b.sc, i + 1, t, &x), 0);
        until_measurement(&b, NULL);
        if (fabs(b.x[0] - x) > err) err = fabs(b.x[0] - x);
    }
    bench_close(&b);
    hs_compensator_destroy(&comp[0]);
    return err;
}

static void test_inverse_compensation(void **state)
{
    (void)state;
    const double raw = tracking_error(0), comp = tracking_error(1);
    printf("actuator a = 4: max |x_m - target| at D_target %.3e uncompensated, %.3e with inverse "
           "compensation a_es = 4\n",
           raw, comp);
    assert_true(raw > 1e-3);
    assert_true(comp < 1e-13);
}

/* Displacement limit 1.0 on a first-order actuator: the targets climb past it; the command that
 * would cross is never sent (the position never exceeds 1.0), the site holds the last command
 * bit for bit, the trip is reported with the refused value and later targets are refused. */
static void test_displacement_limit(void **state)
{
    (void)state;
    const double K[1] = {2.0};
    hs_site_controller_params p = params(1024.0, 0.01, 10.0);
    const hs_site_limits lim = {.disp = 1.0};
    p.limits = &lim;
    bench b;
    bench_open(&b, 1, K, 3.0, &p);
    const uint64_t allocs = hs_alloc_count();
    double xmax = 0.0;
    int tripped = 0, i = 0;
    hs_site_report r;
    while (!tripped) {
        i++;
        const double x = 0.3 * i;
        assert_int_equal(hs_site_controller_target(b.sc, i, i * 0.01, &x), 0);
        for (;;) {
            const double before = hs_site_controller_command(b.sc)[0];
            const int ev = hs_site_controller_tick(b.sc);
            assert_true(ev >= 0);
            const double pos = hs_vlab_true_displacement(b.lab)[0];
            if (fabs(pos) > xmax) xmax = fabs(pos);
            if (ev & HS_SC_EV_LIMIT) {
                tripped = 1;
                assert_true(ev & HS_SC_EV_MEASUREMENT);
                assert_int_equal(hs_site_controller_measurement(b.sc, &b.m, &r), 0);
                assert_true(hs_site_controller_command(b.sc)[0] == before); /* held */
                break;
            }
            if (ev & HS_SC_EV_MEASUREMENT) {
                hs_site_controller_measurement(b.sc, &b.m, NULL);
                break;
            }
        }
        assert_true(i < 10);
    }
    const double held = hs_site_controller_command(b.sc)[0];
    for (int k = 0; k < 2000; k++) {
        assert_true(hs_site_controller_tick(b.sc) >= 0);
        assert_true(hs_site_controller_command(b.sc)[0] == held);
        const double pos = hs_vlab_true_displacement(b.lab)[0];
        if (fabs(pos) > xmax) xmax = fabs(pos);
    }
    assert_int_equal(hs_alloc_count(), allocs);
    printf("displacement limit 1.0: trip at step %d, refused command %.6f, held %.6f, max |x| "
           "%.6f\n",
           i, r.limit_value, held, xmax);
    assert_true(xmax <= 1.0);
    assert_true(held <= 1.0 && r.limit_value > 1.0);
    assert_int_equal(r.limit_flags, HS_SITE_LIMIT_DISPLACEMENT);
    assert_int_equal(r.limit_channel, 0);
    assert_true(b.m.flags & HS_SITE_LIMIT_DISPLACEMENT);
    int ch = -1;
    assert_int_equal(hs_site_controller_tripped(b.sc, &ch), HS_SITE_LIMIT_DISPLACEMENT);
    assert_int_equal(ch, 0);
    const double x = 0.0;
    assert_int_equal(hs_site_controller_target(b.sc, i + 1, (i + 1) * 0.01, &x), HS_ELIMIT);
    bench_close(&b);
}

/* Velocity limit: a sudden far target; no sent increment ever exceeds vel / rate. Force limit
 * (two coupled actuators, perfect lab, K0 = K): the predicted force f_m + K0 (x_c - x_m) is the
 * force the command would produce, so the measured force never exceeds the limit. */
static void test_velocity_and_force_limits(void **state)
{
    (void)state;
    {
        const double K[1] = {1.0};
        hs_site_controller_params p = params(1024.0, 0.01, 10.0);
        const hs_site_limits lim = {.vel = 5.0};
        p.limits = &lim;
        bench b;
        bench_open(&b, 1, K, 0.0, &p);
        double prev = 0.0, vmax = 0.0;
        const double x1 = 0.01, x2 = 1.0; /* 1.0 in 0.1 s: 10 on average, above 5 */
        int ev = 0;
        assert_int_equal(hs_site_controller_target(b.sc, 1, 0.01, &x1), 0);
        until_measurement(&b, NULL);
        prev = hs_site_controller_command(b.sc)[0];
        assert_int_equal(hs_site_controller_target(b.sc, 2, 0.02, &x2), 0);
        for (int k = 0; k < 500; k++) {
            ev |= hs_site_controller_tick(b.sc);
            const double c = hs_site_controller_command(b.sc)[0];
            if (fabs(c - prev) * 1024.0 > vmax) vmax = fabs(c - prev) * 1024.0;
            prev = c;
        }
        printf("velocity limit 5: max sent velocity %.4f, trip flags %d\n", vmax,
               hs_site_controller_tripped(b.sc, NULL));
        assert_true(ev & HS_SC_EV_LIMIT);
        assert_true(vmax <= 5.0);
        assert_int_equal(hs_site_controller_tripped(b.sc, NULL), HS_SITE_LIMIT_VELOCITY);
        bench_close(&b);
    }
    {
        const double K[4] = {3.0, -1.0, -1.0, 2.0};
        hs_site_controller_params p = params(1024.0, 0.01, 10.0);
        const hs_site_limits lim[2] = {{.disp = 0.0}, {.force = 2.0}};
        p.limits = lim;
        p.stiffness = K; /* symmetric: row or column order alike */
        bench b;
        bench_open(&b, 2, K, 0.0, &p);
        double fmax = 0.0;
        int ev = 0;
        for (int i = 1; i <= 20 && !(ev & HS_SC_EV_LIMIT); i++) {
            const double x[2] = {0.1 * i, 0.25 * i}; /* f2 = -x1 + 2 x2 = 0.4 i */
            assert_int_equal(hs_site_controller_target(b.sc, i, 0.01 * i, x), 0);
            for (;;) {
                ev = hs_site_controller_tick(b.sc);
                const double *f = hs_vlab_true_force(b.lab);
                if (fabs(f[1]) > fmax) fmax = fabs(f[1]);
                if (ev & HS_SC_EV_MEASUREMENT) {
                    hs_site_controller_measurement(b.sc, &b.m, NULL);
                    break;
                }
            }
        }
        int ch = -1;
        printf("force limit 2 on actuator 1: max |f| %.6f, trip flags %d on actuator %d\n", fmax,
               hs_site_controller_tripped(b.sc, &ch), ch);
        assert_true(ev & HS_SC_EV_LIMIT);
        assert_true(fmax <= 2.0 && fmax > 1.9);
        assert_int_equal(hs_site_controller_tripped(b.sc, &ch), HS_SITE_LIMIT_FORCE);
        assert_int_equal(ch, 1);
        assert_true(b.m.flags & HS_SITE_LIMIT_FORCE);
        bench_close(&b);
    }
}

/* Late targets (as after late ticks on a loaded machine: the loop runs its missed ticks back to
 * back, so the next target comes in ticks after the generator slowed down and held) are caught
 * up by a re-ramp, never by a jump that trips the velocity limit. Virtual time: the late ticks
 * are ticked before the target is given. A cosine from rest at 80 % of the velocity limit (5
 * length/s at the lab): every 7th target comes 150 ticks late (N = 102: past slow, in hold). The
 * corrector from the held command (zero speed) to the target in the 20 ticks left would peak at
 * about 4/3 of the steady speed (a cubic Hermite from rest), 5.3 > 5: with the controller's cap
 * (0.9 x limit / rate) the segment is lengthened instead and the test goes on, every target
 * reached exactly, the sent speed never above 4.5; with the cap disabled the same schedule
 * trips the velocity limit. */
static int late_targets_run(double max_increment, double *vmax, int64_t *stretched, int *cause)
{
    const double K[1] = {1.0};
    hs_site_controller_params p = params(1024.0, 0.01, 10.0); /* N = 102 */
    const hs_site_limits lim = {.vel = 5.0};
    p.limits = &lim;
    p.gen.max_increment[0] = max_increment; /* 0: the controller's own cap */
    bench b;
    bench_open(&b, 1, K, 0.0, &p);
    /* x = A (1 - cos(2 pi t)), t simulated: from rest; peak lab speed A 2 pi / time_scale = 4 */
    const double A = 4.0 * 10.0 / (2.0 * PI);
    double prev = 0.0;
    int tripped = 0;
    *vmax = 0.0;
    for (int i = 1; i <= 60 && !tripped; i++) {
        const int late = i % 7 == 0 ? 150 : 0;
        for (int k = 0; k < late; k++) {
            const int ev = hs_site_controller_tick(b.sc);
            assert_true(ev >= 0 && !(ev & HS_SC_EV_MEASUREMENT));
            const double c = hs_site_controller_command(b.sc)[0];
            *vmax = fmax(*vmax, fabs(c - prev) * 1024.0);
            prev = c;
        }
        const double t = 0.01 * i, x = A * (1.0 - cos(2.0 * PI * t));
        assert_int_equal(hs_site_controller_target(b.sc, i, t, &x), 0);
        for (;;) {
            const int ev = hs_site_controller_tick(b.sc);
            assert_true(ev >= 0);
            const double c = hs_site_controller_command(b.sc)[0];
            *vmax = fmax(*vmax, fabs(c - prev) * 1024.0);
            prev = c;
            if (ev & HS_SC_EV_LIMIT) {
                tripped = 1;
                printf("velocity trip at step %d (its target %d ticks late)\n", i, late);
            }
            if (ev & HS_SC_EV_MEASUREMENT) {
                hs_site_report r;
                assert_int_equal(hs_site_controller_measurement(b.sc, &b.m, &r), 0);
                if (!tripped) assert_true(b.x[0] == x); /* perfect lab: the target exactly */
                *cause = r.limit_cause;
                break;
            }
        }
    }
    hs_cmdgen_summary g;
    hs_cmdgen_summary_get(hs_site_controller_cmdgen(b.sc), &g);
    *stretched = g.stretched;
    bench_close(&b);
    return tripped;
}

static void test_late_targets_re_ramp(void **state)
{
    (void)state;
    double vmax;
    int64_t stretched;
    int cause = -1;
    const int tripped = late_targets_run(0.0, &vmax, &stretched, &cause);
    printf("late targets with the catch-up cap: trip %d, max sent speed %.4f (limit 5, cap 4.5), "
           "%lld segments re-ramped\n",
           tripped, vmax, (long long)stretched);
    assert_int_equal(tripped, 0);
    assert_true(vmax <= 4.5 + 1e-9);
    assert_true(vmax > 3.9);     /* the sine's own speed, 4, was reached */
    assert_true(stretched >= 1); /* the late targets near the peak speed (t = 0.21, 0.28, ...) */
    const int tripped_uncapped = late_targets_run(1e9, &vmax, &stretched, &cause);
    printf("the same without the cap: trip %d, max speed commanded %.4f, %lld re-ramped\n",
           tripped_uncapped, vmax, (long long)stretched);
    assert_int_equal(tripped_uncapped, 1);
    assert_int_equal(stretched, 0);
    /* the trip's cause: the late target's catch-up (the targets themselves move at 4 of 5) */
    assert_int_equal(cause, HS_SITE_CAUSE_LATE);
}

/* A coordinator that stops after a target (killed; resumed later from its checkpoint) leaves
 * the site extrapolating past that target, slowing and holding beyond it; the next target then
 * comes from a held command a short distance away. A catch-up at the speed cap alone accelerates
 * as about 8/3 cap^2 / distance: over a short distance, beyond the acceleration limit (the
 * resumed test of tests/cli/site_resume_moved.sh tripped so on a loaded machine). Virtual time:
 * a ramp from rest to a lab speed of 1 (limit 5), N = 102 ticks a step; after step 20
 * no target for 400 ticks (extrapolate, slow, hold), then step 21's. With the controller's caps
 * (0.9 x the velocity and acceleration limits) the segment is lengthened: no trip, every sent
 * second difference within 0.9 x the acceleration limit, step 21's target reached exactly; with
 * the acceleration cap disabled the same schedule trips the acceleration limit. Returns the trip
 * flags; *amax the largest |second difference| x rate^2 sent. */
static int held_catch_up_run(double max_change2, double *amax, int64_t *stretched)
{
    const double K[1] = {1.0}, rate = 1024.0;
    hs_site_controller_params p = params(rate, 0.01, 10.0); /* N = 102 */
    const hs_site_limits lim = {.vel = 5.0, .acc = 180.0};
    p.limits = &lim;
    p.gen.max_change2[0] = max_change2; /* 0: the controller's own cap */
    bench b;
    bench_open(&b, 1, K, 0.0, &p);
    double c1 = 0.0, c2 = 0.0;
    int flags = 0;
    *amax = 0.0;
    for (int i = 1; i <= 24 && !flags; i++) {
        const int late = i == 21 ? 400 : 0;
        const double t = 0.01 * i, x = 10.0 * t * t / (t + 0.05); /* from rest to 10 x t */
        for (int k = 0; k < late + 100000 && !flags; k++) {
            if (k == late) assert_int_equal(hs_site_controller_target(b.sc, i, t, &x), 0);
            const int ev = hs_site_controller_tick(b.sc);
            assert_true(ev >= 0);
            const double c = hs_site_controller_command(b.sc)[0];
            *amax = fmax(*amax, fabs(c - 2.0 * c1 + c2) * rate * rate);
            c2 = c1;
            c1 = c;
            if (ev & HS_SC_EV_LIMIT) {
                flags = hs_site_controller_tripped(b.sc, NULL);
                printf("trip at step %d, tick %d of it (its target %d ticks late)\n", i, k, late);
            }
            if (k >= late && (ev & HS_SC_EV_MEASUREMENT)) {
                hs_site_report r;
                assert_int_equal(hs_site_controller_measurement(b.sc, &b.m, &r), 0);
                if (!flags) assert_true(b.x[0] == x); /* perfect lab: the target exactly */
                break;
            }
        }
    }
    hs_cmdgen_summary g;
    hs_cmdgen_summary_get(hs_site_controller_cmdgen(b.sc), &g);
    *stretched = g.stretched;
    bench_close(&b);
    return flags;
}

static void test_held_catch_up_within_acceleration(void **state)
{
    (void)state;
    double amax;
    int64_t stretched;
    const int flags = held_catch_up_run(0.0, &amax, &stretched);
    printf("catch-up from a hold past the last target, both caps: trip flags %d, max sent "
           "acceleration %.2f (limit 180, cap 162), %lld segments re-ramped\n",
           flags, amax, (long long)stretched);
    assert_int_equal(flags, 0);
    assert_true(amax <= 162.0 * (1.0 + 1e-9));
    assert_true(stretched >= 1);
    const int flags_v = held_catch_up_run(1e9, &amax, &stretched);
    printf("the speed cap alone: trip flags %d (the catch-up's first tick refused; %.2f the "
           "largest sent before it)\n",
           flags_v, amax);
    assert_int_equal(flags_v, HS_SITE_LIMIT_ACCELERATION);
}

/* The trip message names the limit, value, bound, units and cause, and its longest form fits a
 * wire error sentence (255 bytes) for a 20-character site name and 6-character units. */
static void test_limit_message(void **state)
{
    (void)state;
    char buf[1024];
    hs_site_report r;
    memset(&r, 0, sizeof r);
    r.limit_flags = HS_SITE_LIMIT_VELOCITY;
    r.limit_value = -123456.789;
    r.limit_bound = 100000.5;
    size_t longest = 0;
    for (int cause = 0; cause <= HS_SITE_CAUSE_MEASURED; cause++)
        for (int kind = 0; kind < 7; kind++) {
            r.limit_flags = HS_SITE_LIMIT_DISPLACEMENT << kind; /* 16 ... 1024 */
            r.limit_cause = cause;
            r.limit_growth = 12.3456;
            r.limit_speed = -98765.4321;
            const int w = hs_site_limit_message(buf, sizeof buf, "abcdefghijklmnopqrst", "actuat",
                                                &r, "metres", "kN", "s");
            if ((size_t)w > longest) longest = (size_t)w;
        }
    printf("longest trip message: %zu characters\n", longest);
    assert_true(longest < 255);
    r.limit_flags = HS_SITE_LIMIT_VELOCITY;
    r.limit_cause = HS_SITE_CAUSE_UNSTABLE;
    r.limit_value = 23.5;
    r.limit_bound = 20.0;
    r.limit_growth = 4.07;
    hs_site_limit_message(buf, sizeof buf, "lab1", "a1", &r, "in", "kip", "s");
    assert_string_equal(buf, "site lab1: safety limit: velocity limit on a1: 23.5 in/s beyond 20 "
                             "in/s; likely an unstable integration: targets grow x4.07 a step, "
                             "alternating (omega dt too large? see hysim check); the site holds, "
                             "the test stops");
    /* a measurement beyond its limit: the value, the limit, the units, the cause */
    r.limit_flags = HS_SITE_LIMIT_MEASURED_FORCE;
    r.limit_cause = HS_SITE_CAUSE_MEASURED;
    r.limit_value = -412.5;
    r.limit_bound = 400.0;
    hs_site_limit_message(buf, sizeof buf, "lab1", "a2", &r, "mm", "kN", "s");
    assert_string_equal(buf,
                        "site lab1: safety limit: force limit on a2: measured -412.5 kN beyond "
                        "+-400 kN; the command is within limits: a failing specimen or "
                        "sensor, or a controller not following; the site holds, the test "
                        "stops");
    r.limit_flags = HS_SITE_LIMIT_ACCELERATION;
    r.limit_cause = HS_SITE_CAUSE_JUMP;
    r.limit_value = 5000.0;
    r.limit_bound = 2000.0;
    r.limit_speed = 250.0;
    hs_site_limit_message(buf, sizeof buf, "lab1", "a1", &r, "mm", "kN", "s");
    assert_string_equal(buf, "site lab1: safety limit: acceleration limit on a1: 5000 beyond 2000 "
                             "mm/s^2; the targets jump (250 mm/s over the step): check the "
                             "coordinator; the site holds, the test stops");
}

/* A hostile coordinator against a lagging lab (a = 3, K = 2) with every limit on: stroke 1,
 * velocity 5/s, acceleration 2000/s^2, step 0.004 a tick, force 1.5 (predicted and measured).
 * Six kinds of targets (beyond the stroke, jumps, not a number, huge, a fast sawtooth, random),
 * each against a fresh site; every tick's sent command is checked against every limit (the
 * acceleration on every tick but the one that stops the motion at a trip: the hold repeats the
 * last command bit for bit), and the lab's true position and measured force too. */
enum { HOSTILE_KINDS = 6, HOSTILE_STEPS = 300 };
/* Target i of a hostile kind: 20 slow steps first (0.001 a step: the site moves within its
 * limits), then the attack. */
static double hostile_target(int kind, int i, unsigned *seed, double prev)
{
    if (i <= 20) return 0.001 * i;
    const int j = i - 20;
    switch (kind) {
    case 0:
        return 0.02 + 0.03 * j; /* walks out past the stroke at 0.03 a step (within speed) */
    case 1:
        return j % 2 ? 0.9 : -0.9; /* jumps across the whole stroke */
    case 2:
        return j == 7 ? NAN : 0.02 + 0.002 * j; /* one target not a number */
    case 3:
        return j < 4 ? 0.02 : j % 2 ? 1e300 : -INFINITY; /* huge */
    case 4:
        return -0.3 + 0.03 * (j % 21); /* a sawtooth: up 0.03 a step to 0.3, down at once */
    default:
        *seed = *seed * 1103515245u + 12345u; /* a random walk, steps uniform in [-0.05, 0.05) */
        return prev + 0.1 * ((double)(*seed >> 8) / 16777216.0) - 0.05;
    }
}

static void test_hostile_coordinator(void **state)
{
    (void)state;
    const double K[1] = {2.0}, rate = 1024.0;
    const hs_site_limits lim = {
        .disp = 1.0, .vel = 5.0, .force = 1.5, .acc = 2000.0, .step = 0.004};
    for (int kind = 0; kind < HOSTILE_KINDS; kind++) {
        hs_site_controller_params p = params(rate, 0.01, 1.0);
        p.limits = &lim;
        p.stiffness = K;
        bench b;
        bench_open(&b, 1, K, 3.0, &p);
        unsigned seed = 12345u;
        double prev = 0.0;
        double c1 = 0.0, c2 = 0.0, worst[5] = {0};
        int64_t ticks = 0, refused = 0, stops = 0;
        for (int i = 1; i <= HOSTILE_STEPS; i++) {
            const double x = hostile_target(kind, i, &seed, prev);
            prev = isfinite(x) ? x : prev;
            if (hs_site_controller_target(b.sc, i, 0.01 * i, &x)) refused++;
            for (int k = 0; k < 40; k++) {
                const int was = hs_site_controller_tripped(b.sc, NULL);
                const int ev = hs_site_controller_tick(b.sc);
                assert_true(ev >= 0);
                const double c = hs_site_controller_command(b.sc)[0];
                const double v = fabs(c - c1);
                double a = fabs(c - 2.0 * c1 + c2) * rate * rate;
                assert_true(isfinite(c));
                assert_true(fabs(c) <= lim.disp);
                assert_true(v <= lim.step && v * rate <= lim.vel);
                if (was || !hs_site_controller_tripped(b.sc, NULL))
                    assert_true(a <= lim.acc);
                else { /* the stop: the last command again */
                    assert_true(c == c1);
                    stops++;
                    a = 0.0; /* not counted in the largest acceleration printed */
                }
                const double xt = hs_vlab_true_displacement(b.lab)[0];
                const double ft = hs_vlab_true_force(b.lab)[0];
                assert_true(fabs(xt) <= lim.disp && fabs(ft) <= lim.force + 1e-12);
                const double w[5] = {fabs(c), v, v * rate, a, fabs(ft)};
                for (int q = 0; q < 5; q++)
                    if (w[q] > worst[q]) worst[q] = w[q];
                c2 = c1;
                c1 = c;
                ticks++;
                if (ev & HS_SC_EV_MEASUREMENT) {
                    assert_int_equal(hs_site_controller_measurement(b.sc, &b.m, NULL), 0);
                    break;
                }
            }
        }
        int ch = -1;
        const int flags = hs_site_controller_tripped(b.sc, &ch);
        printf("hostile %d: %lld ticks, %lld targets refused, trip flags %d on %d; largest |x_c| "
               "%.4g, step %.4g, velocity %.4g, acceleration %.4g, |f| %.4g\n",
               kind, (long long)ticks, (long long)refused, flags, ch, worst[0], worst[1], worst[2],
               worst[3], worst[4]);
        if (kind == 2) {
            /* slow targets but one not a number: that one refused, no trip, the rest followed */
            assert_int_equal(flags, 0);
            assert_int_equal(refused, 1);
            HS_ASSERT_NEAR(hs_site_controller_command(b.sc)[0], 0.02 + 0.002 * (HOSTILE_STEPS - 20),
                           1e-12);
        } else {
            assert_true(flags != 0); /* every other hostile sequence trips a limit */
            assert_int_equal(stops, 1);
            assert_true(refused >= HOSTILE_STEPS / 2); /* after the trip each target is refused */
        }
        bench_close(&b);
    }
}

/* A measured force beyond its limit (no stiffness to predict it from: the command check cannot
 * see it coming): the site trips on the measurement after the lab's tick, names it with its
 * value, holds the command bit for bit, and refuses later targets. */
static void test_measured_force_limit(void **state)
{
    (void)state;
    const double K[1] = {2.0};
    hs_site_controller_params p = params(1024.0, 0.01, 1.0);
    const hs_site_limits lim = {.disp = 1.0, .force = 0.5};
    p.limits = &lim;
    bench b;
    bench_open(&b, 1, K, 3.0, &p);
    hs_site_report r;
    memset(&r, 0, sizeof r);
    int i = 1;
    for (; i <= 40 && !hs_site_controller_tripped(b.sc, NULL); i++) {
        const double x = 0.02 * i; /* f = 2 x crosses 0.5 at x = 0.25 */
        assert_int_equal(hs_site_controller_target(b.sc, i, 0.01 * i, &x), 0);
        until_measurement(&b, &r);
    }
    int ch = -1;
    assert_int_equal(hs_site_controller_tripped(b.sc, &ch), HS_SITE_LIMIT_MEASURED_FORCE);
    assert_int_equal(ch, 0);
    assert_int_equal(r.limit_flags, HS_SITE_LIMIT_MEASURED_FORCE);
    assert_int_equal(r.limit_cause, HS_SITE_CAUSE_MEASURED);
    /* the first measured force past 0.5: one tick's rise (at most K 0.02 / 3 over a tick) */
    assert_true(r.limit_value > 0.5 && r.limit_value < 0.5 + 2.0 * 0.02 / 3.0);
    HS_ASSERT_NEAR(r.limit_bound, 0.5, 0.0);
    const double held = hs_site_controller_command(b.sc)[0];
    for (int k = 0; k < 100; k++) {
        assert_true(hs_site_controller_tick(b.sc) >= 0);
        assert_true(hs_site_controller_command(b.sc)[0] == held);
    }
    const double x = 0.0;
    assert_int_equal(hs_site_controller_target(b.sc, i, 0.01 * i, &x), HS_ELIMIT);
    bench_close(&b);
}

/* A measured displacement beyond the stroke while every command and the actuator's true position
 * are within it: a noisy displacement sensor (RMS 0.01) on a slow move to 0.095 of a stroke of
 * 0.1. The site trips on the measurement, names it with the measured value, holds. */
static void test_measured_stroke_limit(void **state)
{
    (void)state;
    const double K[1] = {2.0};
    hs_site_controller_params p = params(1024.0, 0.01, 1.0);
    const hs_site_limits lim = {.disp = 0.1};
    p.limits = &lim;
    p.gen.nact = 1;
    hs_specimen *spec = NULL;
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_list(o, "K", K, 1);
    assert_int_equal(hs_specimen_create(NULL, "linear", 1, o, &spec), 0);
    hs_options_destroy(&o);
    hs_actuator_params ap = hs_actuator_params_default();
    ap.rate = 1024.0;
    hs_vlab_params vp = {
        .n_act = 1, .seed = 1, .actuator = &ap, .actuator_count = 1, .displacement = {.rms = 0.01}};
    hs_vlab *lab = NULL;
    hs_site_controller *sc = NULL;
    assert_int_equal(hs_vlab_create(NULL, &vp, spec, &lab), 0);
    assert_int_equal(hs_site_controller_create(NULL, &p, lab, &sc), 0);
    double x = 0.0; /* 0.005 a step to 0.095, then stay */
    double cmax = 0.0, xmax = 0.0;
    hs_site_measurement m;
    double mx[1], mf[1], ht[HS_EXP_HISTORY], hx[HS_EXP_HISTORY], hf[HS_EXP_HISTORY];
    m = (hs_site_measurement){.x = mx, .f = mf, .hist_t = ht, .hist_x = hx, .hist_f = hf};
    hs_site_report r;
    memset(&r, 0, sizeof r);
    for (int i = 1; i <= 200 && !hs_site_controller_tripped(sc, NULL); i++) {
        x = fmin(0.005 * i, 0.095);
        assert_int_equal(hs_site_controller_target(sc, i, 0.01 * i, &x), 0);
        for (int k = 0; k < 100; k++) {
            const int ev = hs_site_controller_tick(sc);
            assert_true(ev >= 0);
            cmax = fmax(cmax, fabs(hs_site_controller_command(sc)[0]));
            xmax = fmax(xmax, fabs(hs_vlab_true_displacement(lab)[0]));
            if (ev & HS_SC_EV_MEASUREMENT) {
                assert_int_equal(hs_site_controller_measurement(sc, &m, &r), 0);
                break;
            }
        }
    }
    printf("measured stroke: largest command %.4f, largest position %.4f, trip flags %d\n", cmax,
           xmax, hs_site_controller_tripped(sc, NULL));
    assert_int_equal(hs_site_controller_tripped(sc, NULL), HS_SITE_LIMIT_MEASURED_DISP);
    assert_true(cmax <= 0.1 && xmax <= 0.1); /* every command and position within the stroke */
    assert_int_equal(r.limit_flags, HS_SITE_LIMIT_MEASURED_DISP);
    assert_int_equal(r.limit_cause, HS_SITE_CAUSE_MEASURED);
    assert_true(fabs(r.limit_value) > 0.1 && r.limit_value == m.x[0]); /* the measurement */
    hs_site_controller_destroy(&sc);
    hs_vlab_destroy(&lab);
    hs_specimen_destroy(&spec);
}

/* A two-story shear building (m, k per story) held in its first mode, x = A phi1,
 * phi1 = (1, (1 + sqrt 5) / 2), omega1^2 = (3 - sqrt 5) / 2 k / m, when the coordinator falls
 * silent: with modal damping zeta in every mode the free vibration stays in mode 1 (x2 / x1 =
 * golden ratio) and decays with delta = 2 pi zeta / sqrt(1 - zeta^2) per cycle, then stops. */
static void test_free_vibration_shear_building(void **state)
{
    (void)state;
    const double m = 1.0, T1 = 0.5, w1 = 2 * PI / T1, zeta = 0.02;
    const double k = w1 * w1 * m * 2.0 / (3.0 - sqrt(5.0)), phi = (1 + sqrt(5.0)) / 2;
    const double K[4] = {2 * k, -k, -k, k}, M[4] = {m, 0, 0, m};
    hs_site_controller_params p = params(1024.0, 0.01, 2.0); /* 1024 ticks per period */
    p.gen.mass = M;
    p.gen.stiffness = K;
    p.gen.zeta = zeta;
    p.gen.hold_timeout = 0.05;
    bench b;
    bench_open(&b, 2, K, 0.0, &p);
    const double A = 0.01, xh[2] = {A, A * phi};
    for (int i = 1; i <= 4; i++) {
        assert_int_equal(hs_site_controller_target(b.sc, i, 0.01 * i, xh), 0);
        until_measurement(&b, NULL);
    }
    const uint64_t allocs = hs_alloc_count();
    double c[3][2] = {{0}};
    double peaks[80], worst_shape = 0.0;
    int np = 0, ev = 0;
    long fv = 0, ticks = 0;
    while (!(ev & HS_CMDGEN_EV_DONE)) {
        ev = hs_site_controller_tick(b.sc);
        assert_true(ev >= 0);
        ticks++;
        const double *x = hs_vlab_true_displacement(b.lab);
        memmove(c[0], c[1], sizeof c[0] * 2);
        c[2][0] = x[0];
        c[2][1] = x[1];
        if (hs_cmdgen_current_state(hs_site_controller_cmdgen(b.sc)) == HS_CMDGEN_FREE_VIBRATION)
            fv++;
        if (fv > 2 && c[1][1] > c[0][1] && c[1][1] >= c[2][1] && np < 80) {
            peaks[np++] = c[1][1];
            const double e = fabs(c[1][1] / c[1][0] / phi - 1);
            if (e > worst_shape) worst_shape = e;
        }
        assert_true(ticks < 300000);
    }
    assert_int_equal(hs_alloc_count(), allocs);
    const double delta = 2 * PI * zeta / sqrt(1 - zeta * zeta);
    double worst = 0.0;
    int cycles = 0;
    for (int i = 0; i + 1 < np && peaks[i + 1] > 0.01 * A; i++, cycles++) {
        const double d = log(peaks[i] / peaks[i + 1]);
        if (fabs(d / delta - 1) > worst) worst = fabs(d / delta - 1);
    }
    const double *f = hs_vlab_true_force(b.lab);
    printf("shear building, mode 1 free vibration: %d cycles, log decrement within %.1e of 2 pi "
           "zeta / sqrt(1 - zeta^2) = %.6f, mode shape within %.1e, %ld ticks to rest, final |f| "
           "%.2e (peak %.2e)\n",
           cycles, worst, delta, worst_shape, ticks, fmax(fabs(f[0]), fabs(f[1])),
           k * A * (phi - 1));
    assert_true(cycles >= 10);
    assert_true(worst < 1e-4);
    assert_true(worst_shape < 1e-9);
    /* at rest: the force is below twice the relative tolerance (1e-3) of its peak, the force
     * k A (phi - 1) of the upper story at the start */
    assert_true(fmax(fabs(f[0]), fabs(f[1])) <= 2e-3 * k * A * (phi - 1));
    const double held[2] = {hs_site_controller_command(b.sc)[0],
                            hs_site_controller_command(b.sc)[1]};
    for (int i = 0; i < 50; i++) {
        assert_int_equal(hs_site_controller_tick(b.sc), 0);
        assert_memory_equal(hs_site_controller_command(b.sc), held, sizeof held);
    }
    assert_int_equal(hs_site_controller_target(b.sc, 5, 0.05, xh), HS_EABORTED);
    bench_close(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perfect_round_trip),
        cmocka_unit_test(test_inverse_compensation),
        cmocka_unit_test(test_displacement_limit),
        cmocka_unit_test(test_velocity_and_force_limits),
        cmocka_unit_test(test_late_targets_re_ramp),
        cmocka_unit_test(test_held_catch_up_within_acceleration),
        cmocka_unit_test(test_limit_message),
        cmocka_unit_test(test_free_vibration_shear_building),
        cmocka_unit_test(test_hostile_coordinator),
        cmocka_unit_test(test_measured_force_limit),
        cmocka_unit_test(test_measured_stroke_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
