/* The site's first command (docs/lab_backends.md, "The site's first command"), in virtual time:
 * - a rig resting at 1.2 mm (a laboratory with a position operation): the controller started
 *   there commands 1.2 mm at its first tick (less the move's first sample, A / (2 rate^2)), then
 *   moves to its rest 0 within half of the velocity and acceleration limits, in the trapezoid's
 *   time d / V + V / A, ends at 0 bit for bit and then follows a test's targets within the limits;
 *   started at 0 instead (today's first command) the first tick would have asked 1.2 mm in one
 *   tick, 1.23 m/s against a limit of 20 mm/s;
 * - hs_site_rig_start refuses a rig beyond the stroke (or not a number), naming the site, the
 *   actuator, the position, the limit and the units, and keeps the rest 0 with a warning naming
 *   the back end for a laboratory that cannot tell where it rests;
 * - a controller restored from a held test's state (a site restarted from its state file) with the
 *   rig read again: within one tick's reach of the held command (A / rate^2 within half of the
 *   limits) the command holds; 1 mm or two reaches off, the command starts at the rig and moves
 *   back within half of every limit, in the trapezoid's (or triangle's) time, ends at the held
 *   command bit for bit and holds there; beyond the stroke refused, nothing moves. */
#include "hs_test.h"

#include "hysim/labio.h"
#include "hysim/site_controller.h"
#include "lab/site_build.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE   1024.0
#define X0     1.2e-3 /* m: where the rig rests */
#define STROKE 5e-3
#define VEL    20e-3 /* m/s */
#define ACC    0.5   /* m/s^2 */

typedef struct tlab {
    double x, rest; /* a perfect actuator: x follows the command */
    int has_position;
} tlab;

static int t_exchange(void *self, const double *cmd, hs_lab_input *in)
{
    tlab *l = self;
    l->x = cmd[0];
    in->x[0] = l->x;
    in->f[0] = 1000.0 * l->x;
    in->status = 0;
    return 0;
}
static const double *t_x(void *self)
{
    return &((tlab *)self)->x;
}
static int t_position(void *self, hs_ctx *ctx, double *x)
{
    (void)ctx;
    tlab *l = self;
    l->x = x[0] = l->rest;
    return 0;
}
static const hs_lab_ops with_position = {
    .kind = "shm", .exchange = t_exchange, .true_displacement = t_x, .position = t_position};
static const hs_lab_ops without_position = {
    .kind = "udp", .exchange = t_exchange, .true_displacement = t_x};

static const hs_site_limits LIM = {.disp = STROKE, .vel = VEL, .acc = ACC, .force = 100.0};

static hs_site_controller *controller(hs_lab *lab)
{
    hs_site_controller_params p = hs_site_controller_params_default();
    p.gen.nact = 1;
    p.gen.rate = RATE;
    p.gen.dt = 0.01;
    p.gen.time_scale = 1.0;
    p.limits = &LIM;
    hs_site_controller *sc = NULL;
    assert_int_equal(hs_site_controller_create_lab(NULL, &p, lab, &sc), 0);
    return sc;
}

/* One tick: the command's speed and acceleration (from c1, c2, the two before) within the
 * limits' halves when `half`, else the limits; returns the command. */
static double tick_within(hs_site_controller *sc, double *c1, double *c2, int half)
{
    assert_true(hs_site_controller_tick(sc) >= 0);
    assert_int_equal(hs_site_controller_tripped(sc, NULL), 0);
    const double c = hs_site_controller_command(sc)[0], v = fabs(c - *c1) * RATE,
                 a = fabs(c - 2.0 * *c1 + *c2) * RATE * RATE, k = half ? 0.5 : 1.0;
    if (!(v <= k * VEL * (1.0 + 1e-9) && a <= k * ACC * (1.0 + 1e-9) && fabs(c) <= STROKE))
        fail_msg("command %g: speed %g (limit %g), acceleration %g (limit %g)", c, v, k * VEL, a,
                 k * ACC);
    *c2 = *c1;
    *c1 = c;
    return c;
}

static void test_starts_where_the_rig_rests(void **state)
{
    (void)state;
    tlab l = {.rest = X0};
    hs_lab *lab = NULL;
    assert_int_equal(hs_lab_create(NULL, &with_position, &l, 1, RATE, &lab), 0);
    hs_site_controller *sc = controller(lab);
    double x = 0.0;
    assert_int_equal(hs_lab_position(NULL, lab, &x), 0);
    assert_true(x == X0);
    /* V = 0.5 VEL = 10 mm/s, reached in 0.1 s (A = 0.1 m/s^2, below 0.5 ACC = 0.25): V^2 / A =
     * 1 mm < 1.2 mm, a trapezoid of d / V + V / A = 0.12 + 0.1 s (site_move.h) */
    const double T = hs_site_controller_start_at(sc, &x);
    assert_true(fabs(T - 0.22) <= 1e-12);
    assert_true(hs_site_controller_command(sc)[0] == X0);
    double c1 = X0, c2 = X0;
    const double first = tick_within(sc, &c1, &c2, 1);
    printf("rig at %.4g m: first command %.9g m (%.3g m off), move of %.3g s\n", X0, first,
           X0 - first, T);
    assert_true(fabs(first - X0) <= 0.5 * 0.1 / (RATE * RATE) * (1.0 + 1e-9));
    assert_true(first < X0);
    int64_t k = 1;
    while (hs_site_controller_moving(sc)) {
        assert_true(k < 10 * (int64_t)RATE);
        tick_within(sc, &c1, &c2, 1);
        k++;
    }
    assert_true(llabs(k - (int64_t)ceil(T * RATE)) <= 1);
    assert_true(hs_site_controller_command(sc)[0] == 0.0);
    /* a second start is no start: the controller has ticked */
    assert_true(hs_site_controller_start_at(sc, &x) == 0.0);
    assert_true(hs_site_controller_command(sc)[0] == 0.0);
    /* then a test from rest: targets 0.02 mm apart every 10 ms (2 mm/s), within the limits */
    for (int s = 1; s <= 20; s++) {
        const double tgt = 2e-5 * s;
        assert_int_equal(hs_site_controller_target(sc, s, 0.01 * s, &tgt), 0);
        for (int t = 0; t < 100; t++) {
            const int ev = hs_site_controller_tick(sc);
            assert_true(ev >= 0);
            assert_int_equal(hs_site_controller_tripped(sc, NULL), 0);
            if (ev & HS_SC_EV_MEASUREMENT) {
                double mx, mf, ht[HS_EXP_HISTORY], hx[HS_EXP_HISTORY], hf[HS_EXP_HISTORY];
                hs_site_measurement m = {
                    .x = &mx, .f = &mf, .hist_t = ht, .hist_x = hx, .hist_f = hf};
                assert_int_equal(hs_site_controller_measurement(sc, &m, NULL), 0);
                break;
            }
        }
    }
    assert_true(fabs(l.x - 4e-4) <= 2e-5);
    hs_site_controller_destroy(&sc);
    hs_lab_destroy(&lab);
    /* today's first command, 0, from a rig at 1.2 mm: 1.2 mm in one tick */
    assert_true(X0 * RATE > 50.0 * VEL);
}

static hs_site_config site_config(void)
{
    hs_site_config c;
    memset(&c, 0, sizeof c);
    snprintf(c.name, sizeof c.name, "east");
    c.nact = 1;
    snprintf(c.actuator_names[0], sizeof c.actuator_names[0], "a1");
    c.actuator[0].stroke = STROKE;
    snprintf(c.units_length, sizeof c.units_length, "m");
    return c;
}

static void test_rig_start_refusals(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    const hs_site_config c = site_config();
    const double rests[3] = {6e-3, -5.5e-3, NAN};
    const char *said[3] = {
        "site east: actuator a1 rests at 0.006 m, beyond its stroke limit 0.005 m",
        "site east: actuator a1 rests at -0.0055 m, beyond its stroke limit 0.005 m",
        "site east: actuator a1 rests at nan m, beyond its stroke limit 0.005 m"};
    for (int i = 0; i < 3; i++) {
        tlab l = {.rest = rests[i]};
        hs_site_rig r;
        memset(&r, 0, sizeof r);
        assert_int_equal(hs_lab_create(ctx, &with_position, &l, 1, RATE, &r.io), 0);
        hs_site_controller *sc = controller(r.io);
        assert_int_equal(hs_site_rig_start(ctx, &c, &r, sc), HS_ELIMIT);
        const char *msg = hs_ctx_message(ctx);
        if (!strstr(msg, said[i]) || !strstr(msg, "bring the rig within the stroke"))
            fail_msg("refusal %d: %s", i, msg);
        assert_true(hs_site_controller_command(sc)[0] == 0.0);
        hs_site_controller_destroy(&sc);
        hs_lab_destroy(&r.io);
    }
    /* within the stroke: started there */
    tlab in = {.rest = -X0};
    hs_site_rig r;
    memset(&r, 0, sizeof r);
    assert_int_equal(hs_lab_create(ctx, &with_position, &in, 1, RATE, &r.io), 0);
    hs_site_controller *sc = controller(r.io);
    assert_int_equal(hs_site_rig_start(ctx, &c, &r, sc), 0);
    assert_true(hs_site_controller_command(sc)[0] == -X0);
    assert_true(hs_site_controller_moving(sc));
    hs_site_controller_destroy(&sc);
    hs_lab_destroy(&r.io);
    /* a physical back end that cannot tell: refused */
    tlab blind = {.rest = X0};
    assert_int_equal(hs_lab_create(ctx, &without_position, &blind, 1, RATE, &r.io), 0);
    sc = controller(r.io);
    double x = 7.0;
    assert_int_equal(hs_lab_position(ctx, r.io, &x), HS_EUNSUPPORTED);
    assert_true(x == 7.0);
    assert_non_null(strstr(hs_ctx_message(ctx), "lab udp: it reports no position"));
    /* refused, naming the site and what the laboratory said (the udp back end's remedies:
     * test_labio, "udp position without a fixed local") */
    assert_int_equal(hs_site_rig_start(ctx, &c, &r, sc), HS_EUNSUPPORTED);
    assert_non_null(strstr(hs_ctx_message(ctx), "site east: lab udp: it reports no position"));
    assert_non_null(strstr(hs_ctx_message(ctx), "The site's first command"));
    assert_true(hs_site_controller_command(sc)[0] == 0.0); /* nothing commanded: at rest */
    assert_false(hs_site_controller_moving(sc));
    hs_site_controller_destroy(&sc);
    hs_lab_destroy(&r.io);
    hs_ctx_destroy(&ctx);
}

/* A controller run through a short test to its hold: its state (as a site's state file keeps it)
 * into `saved` (allocated), its held command returned. */
static double held_test(double **saved, size_t *n)
{
    tlab l = {.rest = 0.0};
    hs_lab *lab = NULL;
    assert_int_equal(hs_lab_create(NULL, &with_position, &l, 1, RATE, &lab), 0);
    hs_site_controller *sc = controller(lab);
    double c1 = 0.0, c2 = 0.0;
    for (int s = 1; s <= 20; s++) { /* from rest to rest at 0.1 mm in 0.2 s, a half cosine */
        const double tgt = 0.5e-4 * (1.0 - cos(3.141592653589793 * s / 20.0));
        assert_int_equal(hs_site_controller_target(sc, s, 0.01 * s, &tgt), 0);
        for (int t = 0; t < 100; t++) {
            tick_within(sc, &c1, &c2, 0);
            if (hs_site_controller_ready(sc)) {
                double mx, mf, ht[HS_EXP_HISTORY], hx[HS_EXP_HISTORY], hf[HS_EXP_HISTORY];
                hs_site_measurement m = {
                    .x = &mx, .f = &mf, .hist_t = ht, .hist_x = hx, .hist_f = hf};
                assert_int_equal(hs_site_controller_measurement(sc, &m, NULL), 0);
                break;
            }
        }
    }
    /* no more targets (the coordinator is gone): extrapolate, slow down, hold */
    int k = 0;
    while (hs_cmdgen_current_state(hs_site_controller_cmdgen(sc)) != HS_CMDGEN_HOLD) {
        assert_true(++k < 10 * (int)RATE);
        tick_within(sc, &c1, &c2, 0);
    }
    const double held = hs_site_controller_command(sc)[0];
    assert_true(held > 5e-5);
    *n = hs_site_controller_state_size(sc);
    *saved = malloc(*n * sizeof(double));
    assert_non_null(*saved);
    assert_int_equal(hs_site_controller_state_save(sc, *saved), 0);
    hs_site_controller_destroy(&sc);
    hs_lab_destroy(&lab);
    return held;
}

static void test_resumes_where_the_rig_is(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    const hs_site_config c = site_config();
    double *saved = NULL;
    size_t n = 0;
    const double held = held_test(&saved, &n);
    /* one tick's reach within half of the limits: V = VEL / 2 = 10 mm/s reached in 0.1 s, A =
     * 0.1 m/s^2 (< ACC / 2): min(V / rate, A / rate^2) = A / rate^2 = 95.4 nm */
    const double reach = 0.1 / (RATE * RATE);
    const double rigs[4] = {held + 0.9 * reach, held - 1e-3, held + 2.0 * reach, 5.2e-3};
    for (int i = 0; i < 4; i++) {
        tlab l = {.rest = rigs[i]};
        hs_site_rig r;
        memset(&r, 0, sizeof r);
        assert_int_equal(hs_lab_create(ctx, &with_position, &l, 1, RATE, &r.io), 0);
        hs_site_controller *sc = controller(r.io);
        assert_int_equal(hs_site_controller_state_load(sc, saved), 0); /* the restored test */
        assert_true(hs_site_controller_command(sc)[0] == held);
        if (i == 0) { /* within the reach: nothing changes, the command holds */
            double got = 0.0;
            assert_true(hs_site_controller_resume_at(sc, &rigs[i], &got) == 0.0);
            assert_true(fabs(got - reach) <= 1e-12 * reach);
            assert_false(hs_site_controller_moving(sc));
            assert_true(hs_site_controller_command(sc)[0] == held);
        } else if (i == 3) { /* beyond the stroke: refused as at a fresh start, nothing moves */
            assert_int_equal(hs_site_rig_start(ctx, &c, &r, sc), HS_ELIMIT);
            assert_non_null(strstr(hs_ctx_message(ctx), "actuator a1 rests at 0.0052 m, beyond "
                                                        "its stroke limit 0.005 m"));
            assert_true(hs_site_controller_command(sc)[0] == held);
            assert_false(hs_site_controller_moving(sc));
        } else { /* moved while the site was down: back to the held command, within half */
            assert_int_equal(hs_site_rig_start(ctx, &c, &r, sc), 0);
            assert_true(hs_site_controller_moving(sc));
            assert_true(hs_site_controller_command(sc)[0] == rigs[i]);
            double c1 = rigs[i], c2 = rigs[i];
            int64_t k = 0;
            while (hs_site_controller_moving(sc)) {
                assert_true(++k < 10 * (int64_t)RATE);
                tick_within(sc, &c1, &c2, 1);
            }
            /* bit for bit there, and held there at rest (the generator's hold goes on) */
            assert_true(hs_site_controller_command(sc)[0] == held);
            for (int t = 0; t < 200; t++) assert_true(tick_within(sc, &c1, &c2, 1) == held);
            /* a trapezoid or a triangle of the distance d: 2 sqrt(d / A) below V^2 / A */
            const double d = fabs(rigs[i] - held), A = 0.1, V = 0.01,
                         T = d < V * V / A ? 2.0 * sqrt(d / A) : d / V + V / A;
            printf("held %.9g m, rig at %.9g m: back in %lld ticks (%.4g s expected)\n", held,
                   rigs[i], (long long)k, T);
            assert_true(llabs(k - (int64_t)ceil(T * RATE)) <= 1);
            /* before: the first tick commanded the held command, 1 mm in one tick */
            if (i == 1) assert_true(d * RATE > 50.0 * VEL);
        }
        hs_site_controller_destroy(&sc);
        hs_lab_destroy(&r.io);
    }
    free(saved);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_starts_where_the_rig_rests),
        cmocka_unit_test(test_rig_start_refusals),
        cmocka_unit_test(test_resumes_where_the_rig_is),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
