/* Virtual lab, actuator: responses against the closed forms of the discrete models. */
#include "hs_test.h"

#include "hysim/lab.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

static hs_actuator *make(const hs_actuator_params *p)
{
    hs_actuator *a = NULL;
    assert_int_equal(hs_actuator_create(NULL, p, &a), 0);
    return a;
}

/* Step response of x(k+1) = x(k) + (1 - x(k)) / a: x(k) = 1 - (1 - 1/a)^k. */
static void test_first_order_step(void **state)
{
    (void)state;
    hs_actuator_params p = hs_actuator_params_default();
    p.a = 7.5;
    hs_actuator *a = make(&p);
    for (int k = 1; k <= 200; k++) {
        hs_actuator_tick(a, 1.0);
        HS_ASSERT_NEAR(hs_actuator_position(a), 1.0 - pow(1.0 - 1.0 / p.a, k), 1e-14);
    }
    hs_actuator_destroy(&a);
    assert_null(a);
}

/* Steady-state sine response against Gp(z) = 1 / (a z - (a - 1)) at theta = omega h:
 * |Gp| = 1 / |a e^{i theta} - (a - 1)|, delay = atan2(a sin theta, a cos theta - (a - 1)) / theta
 * samples (-> a for theta -> 0). Measured by the discrete Fourier coefficient at theta over a
 * whole number of periods, after the transient (1 - 1/a)^k has died out. */
static void check_sine_delay(double a_const, int m, int N)
{
    hs_actuator_params p = hs_actuator_params_default();
    p.a = a_const;
    hs_actuator *a = make(&p);
    const double th = 2.0 * PI * m / N;
    const int K0 = 40 * (int)ceil(a_const) + 4 * N;
    double cr = 0, ci = 0, mr = 0, mi = 0;
    for (int k = 0; k < K0 + N; k++) {
        const double xc = sin(th * k);
        const double xm = hs_actuator_position(a); /* x_m(k) */
        if (k >= K0) {
            cr += xc * cos(th * k);
            ci -= xc * sin(th * k);
            mr += xm * cos(th * k);
            mi -= xm * sin(th * k);
        }
        hs_actuator_tick(a, xc);
    }
    /* G = (mr + i mi) / (cr + i ci) */
    const double den = cr * cr + ci * ci;
    const double gr = (mr * cr + mi * ci) / den, gi = (mi * cr - mr * ci) / den;
    const double delay = -atan2(gi, gr) / th;
    const double delay_exact = atan2(a_const * sin(th), a_const * cos(th) - (a_const - 1.0)) / th;
    const double mag_exact = 1.0 / hypot(a_const * cos(th) - (a_const - 1.0), a_const * sin(th));
    print_message("a = %g, theta = %.5f rad/sample: delay %.9f samples (closed form %.9f), "
                  "gain %.9f (closed form %.9f)\n",
                  a_const, th, delay, delay_exact, hypot(gr, gi), mag_exact);
    HS_ASSERT_NEAR(delay, delay_exact, 1e-3);
    HS_ASSERT_NEAR(hypot(gr, gi), mag_exact, 1e-6);
    hs_actuator_destroy(&a);
}

static void test_first_order_sine_delay(void **state)
{
    (void)state;
    check_sine_delay(8.0, 8, 4096);   /* 2 Hz at 1024 Hz: slow, delay close to a */
    check_sine_delay(8.0, 128, 4096); /* 32 Hz: the delay departs from a */
    check_sine_delay(30.0, 4, 4096);
    check_sine_delay(1.0, 100, 1000); /* a = 1: pure one-sample update, delay 1 */
}

/* A transport delay of D samples shifts the output by exactly D samples. */
static void test_transport_delay(void **state)
{
    (void)state;
    enum { K = 600, D = 37 };
    hs_actuator_params p = hs_actuator_params_default();
    p.a = 3.0;
    hs_actuator *a0 = make(&p);
    p.transport_delay = D;
    hs_actuator *aD = make(&p);
    double y0[K], yD[K];
    for (int k = 0; k < K; k++) {
        const double xc = sin(0.05 * k) + 0.3 * cos(0.17 * k) + 0.1 * k / K;
        hs_actuator_tick(a0, xc);
        hs_actuator_tick(aD, xc);
        y0[k] = hs_actuator_position(a0);
        yD[k] = hs_actuator_position(aD);
    }
    for (int k = 0; k < D; k++) assert_true(yD[k] == 0.0);
    for (int k = D; k < K; k++) assert_true(yD[k] == y0[k - D]);
    hs_actuator_destroy(&a0);
    hs_actuator_destroy(&aD);
}

/* Second-order servo-valve stage with a = 1: the samples equal the continuous step response
 * y(t) = 1 - e^{-zeta w t} (cos wd t + zeta / sqrt(1 - zeta^2) sin wd t) at t = k h (exact ZOH
 * discretisation), overshoot exp(-zeta pi / sqrt(1 - zeta^2)), DC gain 1. */
static void test_valve_step(void **state)
{
    (void)state;
    hs_actuator_params p = hs_actuator_params_default();
    p.rate = 4096;
    p.valve_freq = 20.0;
    p.valve_zeta = 0.2;
    hs_actuator *a = make(&p);
    const double w = 2 * PI * p.valve_freq, z = p.valve_zeta, h = 1.0 / p.rate;
    const double wd = w * sqrt(1 - z * z);
    double peak = 0;
    for (int k = 1; k <= 4096; k++) {
        hs_actuator_tick(a, 1.0);
        const double t = k * h, x = hs_actuator_position(a);
        const double y = 1 - exp(-z * w * t) * (cos(wd * t) + z / sqrt(1 - z * z) * sin(wd * t));
        HS_ASSERT_NEAR(x, y, 1e-12);
        if (x > peak) peak = x;
    }
    const double os = exp(-z * PI / sqrt(1 - z * z));
    /* the sampled peak is within h/2 of the true one: error <= |y''| (h/2)^2 / 2 */
    const double tol = 0.5 * w * w * (1 + os) * (h / 2) * (h / 2);
    print_message("valve 20 Hz, zeta 0.2 at 4096 Hz: peak %.7f, 1 + exp(-zeta pi/sqrt(1-zeta^2)) "
                  "= %.7f (tolerance %.1e)\n",
                  peak, 1 + os, tol);
    assert_true(peak <= 1 + os + 1e-12);
    HS_ASSERT_NEAR(peak, 1 + os, tol);
    HS_ASSERT_NEAR(hs_actuator_position(a), 1.0, 1e-9); /* e^{-zeta w t} at 1 s: 1e-11 */
    hs_actuator_destroy(&a);

    /* critically and over-damped: no overshoot, DC gain 1 */
    const double zetas[2] = {1.0, 1.5};
    for (int i = 0; i < 2; i++) {
        p.valve_zeta = zetas[i];
        a = make(&p);
        double mx = 0, prev = 0;
        for (int k = 0; k < 8192; k++) {
            hs_actuator_tick(a, 1.0);
            const double x = hs_actuator_position(a);
            assert_true(x >= prev - 1e-15); /* monotone */
            prev = x;
            if (x > mx) mx = x;
        }
        assert_true(mx <= 1.0 + 1e-12);
        HS_ASSERT_NEAR(hs_actuator_position(a), 1.0, 1e-9);
        hs_actuator_destroy(&a);
    }
}

/* Stroke and velocity are never exceeded; the limits are flagged when (and only when) hit. */
static void test_limits(void **state)
{
    (void)state;
    hs_actuator_params p = hs_actuator_params_default();
    p.a = 2.0;
    p.stroke = 0.4;
    p.velocity_max = 10.0;
    p.force_max = 5.0;
    hs_actuator *a = make(&p);
    const double h = 1.0 / p.rate;
    int nv = 0, ns = 0;
    double prev = 0;
    for (int k = 0; k < 2048; k++) {
        const int f = hs_actuator_tick(a, 3.0 * sin(2 * PI * 5.0 * k * h));
        const double x = hs_actuator_position(a);
        assert_true(fabs(x) <= p.stroke);
        assert_true(fabs(x - prev) <= p.velocity_max * h * (1 + 1e-12));
        HS_ASSERT_NEAR(hs_actuator_velocity(a), (x - prev) / h, 1e-9);
        if (f & HS_ACT_LIMIT_VELOCITY) nv++;
        if (f & HS_ACT_LIMIT_STROKE) ns++;
        prev = x;
    }
    print_message("limits: %d of 2048 ticks at the velocity limit, %d at the stroke\n", nv, ns);
    assert_true(nv > 0 && ns > 0);
    assert_int_equal(hs_actuator_flags_seen(a) & HS_ACT_LIMIT_FORCE, 0);
    assert_int_equal(hs_actuator_check_force(a, 4.9), 0);
    assert_int_equal(hs_actuator_check_force(a, -5.1), HS_ACT_LIMIT_FORCE);
    assert_true(hs_actuator_flags_seen(a) & HS_ACT_LIMIT_FORCE);
    hs_actuator_destroy(&a);

    /* a gentle command: no flag, and the same response as without limits */
    hs_actuator_params q = p;
    q.stroke = q.velocity_max = 0;
    a = make(&p);
    hs_actuator *b = make(&q);
    for (int k = 0; k < 2048; k++) {
        const double xc = 0.35 * sin(2 * PI * 1.0 * k * h); /* peak velocity 2.2 < 10 */
        assert_int_equal(hs_actuator_tick(a, xc), 0);
        hs_actuator_tick(b, xc);
        assert_true(hs_actuator_position(a) == hs_actuator_position(b));
    }
    assert_int_equal(hs_actuator_flags_seen(a), 0);
    hs_actuator_destroy(&a);
    hs_actuator_destroy(&b);
}

/* a(t) from a schedule (linear between points) and a = a0 + c |v_cmd|: a ramp of velocity V is
 * followed with the steady lag e = a V h (e(k+1) = (1 - 1/a) e(k) + V h). */
static void test_variable_delay(void **state)
{
    (void)state;
    const double sched[6] = {0.0, 2.0, 1.0, 10.0, 2.0, 4.0};
    hs_actuator_params p = hs_actuator_params_default();
    p.a = 2.0;
    p.schedule = sched;
    p.schedule_points = 3;
    hs_actuator *a = make(&p);
    for (int k = 0; k <= 3 * 1024; k++) {
        hs_actuator_tick(a, 0.0);
        const double t = k / 1024.0;
        const double ex = t < 1 ? 2 + 8 * t : (t < 2 ? 10 - 6 * (t - 1) : 4);
        HS_ASSERT_NEAR(hs_actuator_delay(a), ex, 1e-12);
    }
    hs_actuator_destroy(&a);

    p = hs_actuator_params_default();
    p.a = 2.0;
    p.a_per_velocity = 0.5;
    a = make(&p);
    const double V = 4.0, h = 1.0 / p.rate;
    double xc = 0;
    for (int k = 0; k < 2000; k++) {
        xc = V * h * k;
        hs_actuator_tick(a, xc);
    }
    const double aex = 2.0 + 0.5 * V;
    HS_ASSERT_NEAR(hs_actuator_delay(a), aex, 1e-9);
    /* after the last tick the position is x_m(K) and the next command would be xc + V h */
    HS_ASSERT_NEAR((xc + V * h) - hs_actuator_position(a), aex * V * h, 1e-12);
    hs_actuator_destroy(&a);
}

/* perfect: the position equals the command exactly. */
static void test_perfect(void **state)
{
    (void)state;
    hs_actuator_params p = hs_actuator_params_default();
    p.a = 20;
    p.transport_delay = 10;
    p.valve_freq = 30;
    p.perfect = 1;
    hs_actuator *a = make(&p);
    for (int k = 0; k < 500; k++) {
        const double xc = sin(0.1 * k) * exp(0.001 * k);
        hs_actuator_tick(a, xc);
        assert_true(hs_actuator_position(a) == xc);
    }
    hs_actuator_destroy(&a);
}

/* State save and load: the continuation is identical; ticks never allocate. */
static void test_state_and_alloc(void **state)
{
    (void)state;
    const double sched[4] = {0.0, 3.0, 0.5, 6.0};
    hs_actuator_params p = hs_actuator_params_default();
    p.a = 3;
    p.transport_delay = 11;
    p.valve_freq = 40;
    p.valve_zeta = 0.5;
    p.schedule = sched;
    p.schedule_points = 2;
    p.a_per_velocity = 0.01;
    p.stroke = 0.8;
    p.velocity_max = 20;
    hs_actuator *a = make(&p);
    const uint64_t before = hs_alloc_count();
    for (int k = 0; k < 300; k++) hs_actuator_tick(a, sin(0.07 * k));
    assert_true(hs_alloc_count() == before);
    const size_t n = hs_actuator_state_size(a);
    assert_int_equal(n, 10 + 11);
    double *s = calloc(n, sizeof *s);
    assert_int_equal(hs_actuator_state_save(a, s), 0);
    double y[200];
    for (int k = 0; k < 200; k++) {
        hs_actuator_tick(a, sin(0.07 * (300 + k)));
        y[k] = hs_actuator_position(a);
    }
    assert_int_equal(hs_actuator_state_load(a, s), 0);
    for (int k = 0; k < 200; k++) {
        hs_actuator_tick(a, sin(0.07 * (300 + k)));
        assert_true(hs_actuator_position(a) == y[k]);
    }
    free(s);
    hs_actuator_destroy(&a);
}

static void test_bad_params(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_actuator *a = NULL;
    hs_actuator_params p = hs_actuator_params_default();
    p.a = 0.5;
    assert_int_equal(hs_actuator_create(ctx, &p, &a), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "a must be >= 1"));
    p = hs_actuator_params_default();
    p.valve_freq = 600;
    assert_int_equal(hs_actuator_create(ctx, &p, &a), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "Nyquist"));
    /* from options */
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_num(o, "a", 4);
    hs_options_set_num(o, "transport_delay", 2.5);
    assert_int_equal(hs_actuator_params_from_options(ctx, o, &p), HS_EINPUT);
    hs_options_set_num(o, "transport_delay", 3);
    assert_int_equal(hs_actuator_params_from_options(ctx, o, &p), 0);
    assert_true(p.a == 4 && p.transport_delay == 3 && p.rate == 1024);
    hs_options_destroy(&o);
    assert_null(a);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_order_step), cmocka_unit_test(test_first_order_sine_delay),
        cmocka_unit_test(test_transport_delay),  cmocka_unit_test(test_valve_step),
        cmocka_unit_test(test_limits),           cmocka_unit_test(test_variable_delay),
        cmocka_unit_test(test_perfect),          cmocka_unit_test(test_state_and_alloc),
        cmocka_unit_test(test_bad_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
