/* A laboratory through an experimental setup (hs_specimen_create_setup, hs_lab_setup_create):
 *  - the MUST-SIM LBCB's layout (six actuators, six DOFs) with perfect actuators and a coupled
 *    linear specimen in the control point's DOFs: every tick the measured pose equals the
 *    command to 1e-12 and the measured control-point force equals K q to 1e-9 of its size, over
 *    a large three-axis motion (strokes and forces went through the exact geometry both ways);
 *  - the strokes sent never cross an actuator's stroke, velocity or acceleration limit, even for
 *    a command that asks for it (a jump, a fast sine, NaN): the lab then reports the fault bit and
 *    an alarm that names the actuator, and the actuators brake within their acceleration limit;
 *  - the rig's pose before the first command (hs_lab_position through the setup): the control
 *    point's pose from the strokes the actuators rest at, to 1e-12; commanding it then moves no
 *    actuator (a fresh wrapper, whose last strokes are 0, faults on the velocity limit at once);
 *    a stroke beyond its limit refused, naming the actuator;
 *  - the forward solve's cost per tick (loose bound; bench/bench_setup.c measures it). */
#include "hs_test.h"

#include "hysim/lab.h"
#include "hysim/labio.h"
#include "hysim/options.h"
#include "hs_lbcb.h"
#include "hysim/setup.h"

#include <math.h>
#include <string.h>

typedef struct rig {
    hs_setup *setup;
    hs_specimen *dofs, *through;
    hs_vlab *vlab;
    hs_lab *lab;
    double K[36];
} rig;

static void rig_make(rig *r, const hs_setup_limits *lim)
{
    memset(r, 0, sizeof *r);
    hs_setup_geometry g = hs_test_lbcb(1);
    assert_int_equal(hs_setup_create(NULL, &g, &r->setup), 0);
    /* a coupled SPD stiffness: diagonal plus a rank-one coupling */
    const double d[6] = {2000, 1500, 3000, 800, 900, 700}, v[6] = {5, -3, 4, 2, -1, 3};
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) r->K[i * 6 + j] = (i == j ? d[i] : 0.0) + v[i] * v[j];
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    assert_int_equal(hs_options_set_list(o, "K", r->K, 36), 0);
    assert_int_equal(hs_specimen_create(NULL, "linear", 6, o, &r->dofs), 0);
    hs_options_destroy(&o);
    assert_int_equal(hs_specimen_create_setup(NULL, r->dofs, r->setup, &r->through), 0);
    hs_actuator_params a = hs_actuator_params_default();
    a.rate = 1024;
    a.perfect = 1;
    hs_vlab_params p = {.n_act = 6, .perfect = 1, .seed = 1, .actuator = &a, .actuator_count = 1};
    assert_int_equal(hs_vlab_create(NULL, &p, r->through, &r->vlab), 0);
    hs_lab *inner = NULL;
    assert_int_equal(hs_lab_virtual(NULL, r->vlab, &inner), 0);
    assert_int_equal(hs_lab_setup_create(NULL, inner, r->setup, lim, &r->lab), 0);
    assert_int_equal(hs_lab_nact(r->lab), 6);
}

static void rig_free(rig *r)
{
    hs_lab_destroy(&r->lab);
    hs_vlab_destroy(&r->vlab);
    hs_specimen_destroy(&r->through);
    hs_specimen_destroy(&r->dofs);
    hs_setup_destroy(&r->setup);
}

static void command_at(int k, double *q)
{
    const double t = k / 1024.0, w = 2.0 * 3.14159265358979 * 0.5;
    const double amp[6] = {0.12, 0.08, 0.05, 0.06, 0.04, 0.07};
    for (int j = 0; j < 6; j++) q[j] = amp[j] * sin(w * t * (1.0 + 0.1 * j)) * fmin(1.0, t);
}

static void test_perfect_lab_round_trip(void **state)
{
    (void)state;
    rig r;
    rig_make(&r, NULL);
    double worst_x = 0.0, worst_f = 0.0, peak_f = 0.0;
    double x[6], f[6], q[6];
    hs_lab_input in = {.x = x, .f = f};
    for (int k = 0; k < 2048; k++) {
        command_at(k, q);
        assert_int_equal(hs_lab_exchange(r.lab, q, &in), 0);
        assert_int_equal(in.status, 0);
        for (int j = 0; j < 6; j++) {
            double kq = 0.0;
            for (int c = 0; c < 6; c++) kq += r.K[j * 6 + c] * q[c];
            worst_x = fmax(worst_x, fabs(x[j] - q[j]));
            worst_f = fmax(worst_f, fabs(f[j] - kq));
            peak_f = fmax(peak_f, fabs(kq));
        }
    }
    print_message("    LBCB perfect lab: pose %.2e, force %.2e of %.3g\n", worst_x, worst_f,
                  peak_f);
    assert_true(worst_x < 1e-12);
    assert_true(worst_f < 1e-9 * peak_f);
    assert_true(peak_f > 100.0);
    rig_free(&r);
}

/* Commands that ask too much: every stroke sent stays within the limits, with margin zero. */
static void test_limits_never_crossed(void **state)
{
    (void)state;
    hs_setup_limits lim[6];
    for (int i = 0; i < 6; i++) lim[i] = (hs_setup_limits){.stroke = 0.2, .vel = 0.5, .acc = 20.0};
    const double rate = 1024.0;
    for (int scenario = 0; scenario < 3; scenario++) {
        rig r;
        rig_make(&r, lim);
        double x[6], f[6], q[6], prev[6] = {0}, prev2[6] = {0};
        hs_lab_input in = {.x = x, .f = f};
        int faulted = -1;
        for (int k = 0; k < 3000; k++) {
            command_at(k, q);
            if (scenario == 0 && k >= 500) q[0] += 0.05; /* a jump */
            if (scenario == 1)                           /* ever faster */
                for (int j = 0; j < 6; j++) q[j] *= 1.0 + k / 100.0;
            if (scenario == 2 && k == 700) q[3] = NAN; /* not a number */
            assert_int_equal(hs_lab_exchange(r.lab, q, &in), 0);
            const double *s = hs_lab_setup_strokes(r.lab);
            assert_non_null(s);
            for (int i = 0; i < 6; i++) {
                assert_true(fabs(s[i]) <= lim[i].stroke);
                assert_true(fabs(s[i] - prev[i]) * rate <= lim[i].vel * (1 + 1e-12));
                assert_true(fabs(s[i] - 2 * prev[i] + prev2[i]) * rate * rate <=
                            lim[i].acc * (1 + 1e-9));
            }
            memcpy(prev2, prev, sizeof prev);
            memcpy(prev, s, sizeof prev);
            if ((in.status & HS_LAB_ST_FAULT) && faulted < 0) faulted = k;
        }
        print_message("    scenario %d: fault at tick %d: %s\n", scenario, faulted,
                      hs_lab_alarm(r.lab));
        assert_true(faulted > 0);
        assert_non_null(strstr(hs_lab_alarm(r.lab), "setup actuator "));
        assert_non_null(strstr(hs_lab_alarm(r.lab), "was not sent"));
        rig_free(&r);
    }
}

/* Six actuators standing at fixed strokes, reported before any command; perfect after. */
typedef struct standing {
    double x[6];
} standing;
static int st_exchange(void *self, const double *cmd, hs_lab_input *in)
{
    standing *l = self;
    memcpy(l->x, cmd, sizeof l->x);
    memcpy(in->x, l->x, sizeof l->x);
    memset(in->f, 0, sizeof l->x);
    in->status = 0;
    return 0;
}
static int st_position(void *self, hs_ctx *ctx, double *x)
{
    (void)ctx;
    memcpy(x, ((standing *)self)->x, sizeof((standing *)self)->x);
    return 0;
}
static const hs_lab_ops standing_ops = {
    .kind = "driver", .exchange = st_exchange, .position = st_position};

static void test_position_through_setup(void **state)
{
    (void)state;
    hs_setup_geometry g = hs_test_lbcb(1);
    hs_setup *setup = NULL;
    assert_int_equal(hs_setup_create(NULL, &g, &setup), 0);
    hs_setup_limits lim[6];
    for (int i = 0; i < 6; i++) lim[i] = (hs_setup_limits){.stroke = 0.2, .vel = 0.5, .acc = 20.0};
    const double q0[6] = {0.03, -0.02, 0.01, 0.02, -0.01, 0.015};
    for (int pass = 0; pass < 3; pass++) { /* read first; not read; a stroke beyond its limit */
        standing st;
        hs_setup_strokes(setup, q0, st.x);
        if (pass == 2) st.x[2] = 0.25;
        hs_lab *inner = NULL, *lab = NULL;
        hs_ctx *ctx = NULL;
        assert_int_equal(hs_ctx_create(&ctx), 0);
        assert_int_equal(hs_lab_create(ctx, &standing_ops, &st, 6, 1024.0, &inner), 0);
        assert_int_equal(hs_lab_setup_create(ctx, inner, setup, lim, &lab), 0);
        double q[6], x[6], f[6];
        hs_lab_input in = {.x = x, .f = f};
        if (pass == 0) {
            assert_int_equal(hs_lab_position(ctx, lab, q), 0);
            for (int k = 0; k < 6; k++) assert_true(fabs(q[k] - q0[k]) <= 1e-12);
            assert_int_equal(hs_lab_exchange(lab, q, &in), 0);
            assert_int_equal(in.status, 0);
            const double *s = hs_lab_setup_strokes(lab);
            double s0[6];
            hs_setup_strokes(setup, q0, s0);
            for (int i = 0; i < 6; i++) assert_true(fabs(s[i] - s0[i]) <= 1e-12);
        } else if (pass == 1) {
            assert_int_equal(hs_lab_exchange(lab, q0, &in), 0);
            assert_true(in.status & HS_LAB_ST_FAULT);
            assert_non_null(strstr(hs_lab_alarm(lab), "velocity"));
        } else {
            assert_int_equal(hs_lab_position(ctx, lab, q), HS_ELIMIT);
            assert_non_null(strstr(hs_ctx_message(ctx),
                                   "setup actuator 3 rests at a stroke of 0.25, beyond its limit "
                                   "0.2"));
        }
        hs_lab_destroy(&lab);
        hs_ctx_destroy(&ctx);
    }
    hs_setup_destroy(&setup);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perfect_lab_round_trip),
        cmocka_unit_test(test_limits_never_crossed),
        cmocka_unit_test(test_position_through_setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
