/* Pre-test procedures (hysim/pretest.h) on known virtual plants: the identified stiffness within
 * 1 % with noise on, the delay within one tick of the configured transport delay and first-order
 * constant, the noise RMS within 10 % of the sensors' configured RMS, a hum found in the spectrum,
 * and the force limit stopping a procedure and bringing the lab back to zero; on a rig resting at
 * 0.3 (lab.rest), every procedure's first and last command at the rest, every tick within the
 * velocity and acceleration limits, K0l and a exact, and the refusals before anything moves. */
#include "hs_test.h"

#include "hysim/lab.h"
#include "hysim/pretest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct plant {
    hs_specimen *spec;
    hs_vlab *lab;
    double peak_cmd[2];
} plant;

static int vlab_exchange(void *user, const double *cmd, double *x, double *f)
{
    plant *p = user;
    for (int j = 0; j < 2; j++) p->peak_cmd[j] = fmax(p->peak_cmd[j], fabs(cmd[j]));
    return hs_vlab_tick(p->lab, cmd, x, f);
}

static const double K_true[4] = {3.0, -1.0, -1.0, 2.0}; /* row by row */
static const double a_true[2] = {3.0, 8.0};
static const int D_true[2] = {0, 4};

/* Two coupled actuators at 1024 Hz: a = 3 (no transport delay) and a = 8 with 4 ticks of transport
 * delay; displacement noise 1e-4, force noise 2e-3. */
static void plant_create(plant *p, double force_max, hs_pretest_lab *L)
{
    memset(p, 0, sizeof *p);
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    assert_int_equal(hs_options_set_list(o, "K", K_true, 4), 0);
    assert_int_equal(hs_specimen_create(NULL, "linear", 2, o, &p->spec), 0);
    hs_options_destroy(&o);
    hs_actuator_params act[2];
    for (int j = 0; j < 2; j++) {
        act[j] = hs_actuator_params_default();
        act[j].a = a_true[j];
        act[j].transport_delay = D_true[j];
        act[j].stroke = 1.0;
        act[j].velocity_max = 20.0;
        act[j].force_max = force_max;
    }
    hs_vlab_params vp = {.n_act = 2,
                         .seed = 7,
                         .actuator = act,
                         .actuator_count = 2,
                         .displacement = {1e-4, 0, 0.0},
                         .force = {2e-3, 0, 0.0}};
    assert_int_equal(hs_vlab_create(NULL, &vp, p->spec, &p->lab), 0);
    memset(L, 0, sizeof *L);
    L->nact = 2;
    L->rate = 1024.0;
    L->exchange = vlab_exchange;
    L->user = p;
    for (int j = 0; j < 2; j++) {
        L->stroke[j] = 1.0;
        L->velocity_max[j] = 20.0;
        L->force_max[j] = force_max;
    }
}

static void plant_destroy(plant *p)
{
    hs_vlab_destroy(&p->lab);
    hs_specimen_destroy(&p->spec);
}

static void test_stiffness(void **state)
{
    (void)state;
    plant p;
    hs_pretest_lab L;
    plant_create(&p, 10.0, &L);
    const hs_pretest_stiffness_params sp = {.amplitude = 0.1, .frequency = 0.5, .cycles = 3};
    hs_pretest_stiffness k;
    assert_int_equal(hs_pretest_stiffness_run(NULL, &L, &sp, &k), 0);
    for (int i = 0; i < 4; i++) {
        assert_true(fabs(k.K[i] - K_true[i]) <= 0.01 * fabs(K_true[i]));
        /* the estimate is within 5 of its own standard errors, which are small but not zero */
        assert_true(k.stderr_K[i] > 0.0 && k.stderr_K[i] < 1e-3 * fabs(K_true[i]));
        assert_true(fabs(k.K[i] - K_true[i]) <= 5.0 * k.stderr_K[i] + 1e-12);
        assert_true(k.scatter[i] > 0.0 && k.scatter[i] < 0.01 * fabs(K_true[i]));
        HS_ASSERT_NEAR(k.residual_rms[i], 2e-3, 3e-4); /* the load cell's noise */
    }
    assert_true(p.peak_cmd[0] <= 0.1 + 1e-12 && p.peak_cmd[1] <= 0.1 + 1e-12);
    /* the lab is back at rest at zero */
    HS_ASSERT_NEAR(hs_vlab_true_displacement(p.lab)[0], 0.0, 1e-6);
    HS_ASSERT_NEAR(hs_vlab_true_displacement(p.lab)[1], 0.0, 1e-6);
    plant_destroy(&p);
}

static void test_dynamics(void **state)
{
    (void)state;
    plant p;
    hs_pretest_lab L;
    plant_create(&p, 10.0, &L);
    const hs_pretest_dynamics_params dp = {
        .amplitude = 0.05, .hold = 0.25, .repeats = 2, .max_delay = 64};
    hs_pretest_dynamics d;
    assert_int_equal(hs_pretest_dynamics_run(NULL, &L, &dp, &d), 0);
    for (int j = 0; j < 2; j++) {
        assert_true(abs(d.delay[j] - D_true[j]) <= 1);
        assert_true(fabs(d.a[j] - a_true[j]) <= 1.0);
        HS_ASSERT_NEAR(d.a_es[j], d.a[j] + d.delay[j], 0.0);
        assert_true(fabs(d.a_es[j] - (a_true[j] + D_true[j])) <= 1.0);
        HS_ASSERT_NEAR(d.fit_rms[j], 1e-4, 2e-5); /* the misfit is the sensor's noise */
    }
    plant_destroy(&p);
}

/* Noiseless, the fit recovers the model exactly: D to the tick and a to 1e-6. */
static void test_fit_exact(void **state)
{
    (void)state;
    enum { N = 600 };
    double u[N], y[N];
    for (int c = 0; c < 3; c++) {
        const double a = (double[]){1.0, 2.5, 30.0}[c];
        const int D = (int[]){0, 7, 2}[c];
        double x = 0.0;
        for (int k = 0; k < N; k++) {
            u[k] = k < 300 ? 0.2 : -0.1;
            const double uk = k >= D ? u[k - D] : 0.0;
            x = x + (uk - x) / a;
            y[k] = x;
        }
        int Df = -1;
        double af = 0.0, rms = 1.0;
        hs_pretest_fit_delay(u, y, N, 20, &Df, &af, &rms);
        assert_int_equal(Df, D);
        HS_ASSERT_NEAR(af, a, 1e-6 * a);
        assert_true(rms < 1e-9);
    }
}

static void test_noise(void **state)
{
    (void)state;
    plant p;
    hs_pretest_lab L;
    plant_create(&p, 10.0, &L);
    hs_pretest_noise n;
    assert_int_equal(hs_pretest_noise_run(NULL, &L, 4.0, &n), 0);
    assert_int_equal((int)n.ticks, 4096);
    for (int j = 0; j < 2; j++) {
        assert_true(fabs(n.x[j].rms - 1e-4) <= 0.1e-4);
        assert_true(fabs(n.f[j].rms - 2e-3) <= 0.2e-3);
        assert_true(fabs(n.x[j].mean) < 1e-5);
        /* white noise: density 2 sigma^2 / rate; the largest of 128 averaged bins lies above it
         * but within twice it */
        const double white = sqrt(2.0 * 1e-8 / 1024.0);
        assert_true(n.x[j].peak_amp > white && n.x[j].peak_amp < 2.0 * white);
    }
    plant_destroy(&p);
}

/* A 50 Hz hum of amplitude 1e-3 over noise: the peak is at 50 Hz within half a bin (2 Hz). */
typedef struct hum {
    int64_t k;
} hum;

static int hum_exchange(void *user, const double *cmd, double *x, double *f)
{
    hum *h = user;
    (void)cmd;
    const double t = (double)h->k++ / 1024.0;
    x[0] = 1e-3 * sin(2.0 * 3.14159265358979323846 * 50.0 * t) + 1e-5 * sin(1e3 * t * t);
    f[0] = 0.5;
    return 0;
}

static void test_noise_hum(void **state)
{
    (void)state;
    hum h = {0};
    hs_pretest_lab L = {.nact = 1, .rate = 1024.0, .exchange = hum_exchange, .user = &h};
    hs_pretest_noise n;
    assert_int_equal(hs_pretest_noise_run(NULL, &L, 2.0, &n), 0);
    assert_true(fabs(n.x[0].peak_freq - 50.0) <= 2.0);
    HS_ASSERT_NEAR(n.x[0].rms, 1e-3 / sqrt(2.0), 2e-5);
    HS_ASSERT_NEAR(n.f[0].mean, 0.5, 1e-15);
    HS_ASSERT_NEAR(n.f[0].rms, 0.0, 1e-15);
}

/* A force limit of 0.2 under K11 = 3 and 0.1 amplitude cycles: the procedure stops with
 * HS_ELIMIT and the lab is returned to zero. Inputs beyond the limits are refused. */
static void test_limits(void **state)
{
    (void)state;
    plant p;
    hs_pretest_lab L;
    plant_create(&p, 0.2, &L);
    hs_pretest_stiffness k;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_pretest_stiffness_params sp = {.amplitude = 0.1, .frequency = 0.5, .cycles = 3};
    assert_int_equal(hs_pretest_stiffness_run(ctx, &L, &sp, &k), HS_ELIMIT);
    assert_non_null(strstr(hs_ctx_message(ctx), "force limit 0.2"));
    HS_ASSERT_NEAR(hs_vlab_true_displacement(p.lab)[0], 0.0, 1e-6);
    assert_true(p.peak_cmd[0] < 0.2 / 3.0 + 0.01);
    sp.amplitude = 1.5; /* beyond the stroke */
    assert_int_equal(hs_pretest_stiffness_run(ctx, &L, &sp, &k), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "stroke 1"));
    sp.amplitude = 0.1;
    sp.frequency = 40.0; /* 2 pi 40 0.1 = 25 > 20 */
    assert_int_equal(hs_pretest_stiffness_run(ctx, &L, &sp, &k), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "velocity limit 20"));
    hs_ctx_destroy(&ctx);
    plant_destroy(&p);
}

/* A perfect actuator on a spring of 2.5 resting at 0.3 (a real rig read before any command): the
 * exchange checks every command's step against the velocity limit and its change of step against
 * the acceleration limit from where the rig was, at rest. */
typedef struct rig {
    double x, v, first, last, worst_speed, worst_acc;
    int64_t ticks;
} rig;

static int rig_exchange(void *user, const double *cmd, double *x, double *f)
{
    rig *r = user;
    if (r->ticks++ == 0) r->first = cmd[0];
    r->worst_speed = fmax(r->worst_speed, fabs(cmd[0] - r->x) * 1024.0);
    r->worst_acc = fmax(r->worst_acc, fabs(cmd[0] - r->x - r->v) * 1024.0 * 1024.0);
    r->v = cmd[0] - r->x;
    r->x = r->last = cmd[0];
    x[0] = r->x;
    f[0] = 2.5 * r->x;
    return 0;
}

static void test_about_the_rest(void **state)
{
    (void)state;
    rig r = {.x = 0.3};
    hs_pretest_lab L;
    memset(&L, 0, sizeof L);
    L.nact = 1;
    L.rate = 1024.0;
    L.exchange = rig_exchange;
    L.user = &r;
    L.stroke[0] = 1.0;
    L.velocity_max[0] = 20.0;
    L.acceleration_max[0] = 100.0;
    L.rest[0] = 0.3;
    const double A = 100.0 / (1024.0 * 1024.0); /* the acceleration limit per tick squared */
    hs_pretest_noise n;
    assert_int_equal(hs_pretest_noise_run(NULL, &L, 0.5, &n), 0);
    assert_true(r.first == 0.3 && r.last == 0.3);
    assert_true(fabs(n.x[0].mean - 0.3) <= 1e-15 && fabs(n.f[0].mean - 0.75) <= 1e-15);
    hs_pretest_stiffness st;
    hs_pretest_stiffness_params sp = {.amplitude = 0.1, .frequency = 1.0, .cycles = 2};
    r.ticks = 0;
    assert_int_equal(hs_pretest_stiffness_run(NULL, &L, &sp, &st), 0);
    /* the sine about the rest, its first sample one tick in (0.1 sin(2 pi f / rate) = 6.1e-4)
     * farther than the acceleration allows from rest: the command ramps up, A the first tick;
     * the last command back at the rest */
    assert_true(0.1 * sin(2.0 * 3.141592653589793 / 1024.0) > A);
    assert_true(r.first == 0.3 + A);
    assert_true(r.last == 0.3);
    assert_true(fabs(st.K[0] - 2.5) <= 1e-9);
    hs_pretest_dynamics dy;
    hs_pretest_dynamics_params dp = {.amplitude = 0.05, .hold = 0.25, .repeats = 1, .max_delay = 8};
    r.ticks = 0;
    assert_int_equal(hs_pretest_dynamics_run(NULL, &L, &dp, &dy), 0);
    /* the step up from the rest, ramped within the acceleration limit (before, at the velocity
     * limit from the first tick: 20 / 1024, an acceleration of 20480 against 100): A the first
     * tick */
    assert_true(r.first == 0.3 + A && r.last == 0.3);
    assert_int_equal(dy.delay[0], 0);
    assert_true(fabs(dy.a[0] - 1.0) <= 1e-6);
    assert_true(r.worst_speed <= 20.0 * (1.0 + 1e-12)); /* from the rest on, every tick */
    assert_true(r.worst_acc <= 100.0 * (1.0 + 1e-9));
    assert_true(r.v == 0.0); /* back at rest, not passing through it */
    /* refused before anything moves: an amplitude that fits about 0 but not about the rest, and
     * a rig beyond the stroke */
    const int64_t before = r.ticks;
    sp.amplitude = 0.8;
    assert_int_equal(hs_pretest_stiffness_run(NULL, &L, &sp, &st), HS_EINPUT);
    sp.amplitude = 0.1; /* (2 pi 6)^2 0.1 = 142 > 100, though 2 pi 6 0.1 = 3.8 < 20 */
    sp.frequency = 6.0;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    assert_int_equal(hs_pretest_stiffness_run(ctx, &L, &sp, &st), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "exceeds its acceleration limit 100"));
    hs_ctx_destroy(&ctx);
    dp.amplitude = 0.8;
    assert_int_equal(hs_pretest_dynamics_run(NULL, &L, &dp, &dy), HS_EINPUT);
    L.rest[0] = 1.5;
    assert_int_equal(hs_pretest_noise_run(NULL, &L, 0.5, &n), HS_ELIMIT);
    assert_true(r.ticks == before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stiffness),      cmocka_unit_test(test_dynamics),
        cmocka_unit_test(test_fit_exact),      cmocka_unit_test(test_noise),
        cmocka_unit_test(test_noise_hum),      cmocka_unit_test(test_limits),
        cmocka_unit_test(test_about_the_rest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
