/* Command generator (Mosqueda et al.'s (2004) event-driven predictor/corrector): exactness of the
 * polynomials, continuity of the command across every state switch, TimeOut tick counts, hold, free
 * vibration against the damped SDOF's logarithmic decrement, Table 1 statistics, no allocation. */
#include "hs_test.h"

#include "hysim/cmdgen.h"
#include "lab/cmdgen_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

/* rate 1000 Hz, dt 0.01, time_scale 100: N = 1000 ticks per step, T1 = 600, T2 = 400 */
static hs_cmdgen_params params(int nact, double rate, double dt, double time_scale)
{
    hs_cmdgen_params p = hs_cmdgen_params_default();
    p.nact = nact;
    p.rate = rate;
    p.dt = dt;
    p.time_scale = time_scale;
    return p;
}

static hs_cmdgen *make(const hs_cmdgen_params *p)
{
    hs_cmdgen *g = NULL;
    assert_int_equal(hs_cmdgen_create(NULL, p, &g), 0);
    return g;
}

/* A log of every tick: the command (n per tick), the state that produced it, the events. */
typedef struct tick_log {
    int n;
    long nt, cap;
    double *c;
    int *state, *ev;
} tick_log;

static void log_init(tick_log *L, int n, long cap)
{
    L->n = n;
    L->nt = 0;
    L->cap = cap;
    L->c = calloc((size_t)(cap * n), sizeof(double));
    L->state = calloc((size_t)cap, sizeof(int));
    L->ev = calloc((size_t)cap, sizeof(int));
    assert_non_null(L->c);
}

static void log_free(tick_log *L)
{
    free(L->c);
    free(L->state);
    free(L->ev);
}

static int tick(hs_cmdgen *g, tick_log *L, const double *f)
{
    double x[16];
    const int before = (int)hs_cmdgen_current_state(g);
    const int ev = hs_cmdgen_tick(g, f, x);
    assert_true(ev >= 0);
    if (L) {
        assert_true(L->nt < L->cap);
        memcpy(L->c + L->nt * L->n, x, (size_t)L->n * sizeof(double));
        L->state[L->nt] = (ev & HS_CMDGEN_EV_UPDATE) ? HS_CMDGEN_INTERPOLATE : before;
        L->ev[L->nt] = ev;
        L->nt++;
    }
    return ev;
}

static int tick_until_target(hs_cmdgen *g, tick_log *L)
{
    int k = 0;
    for (;;) {
        k++;
        if (tick(g, L, NULL) & HS_CMDGEN_EV_TARGET) return k;
        assert_true(k < 1000000);
    }
}

/* Runs a script: targets (nsteps x n), each sent `delay[i]` ticks after the previous D_target
 * (the first one from rest). Returns after the last D_target. */
static void drive(hs_cmdgen *g, tick_log *L, const double *targets, const int *delay, int nsteps)
{
    const int n = hs_cmdgen_nact(g);
    for (int i = 0; i < nsteps; i++) {
        if (i > 0)
            for (int k = 0; k < delay[i]; k++) tick(g, L, NULL);
        assert_int_equal(hs_cmdgen_target(g, targets + i * n), 0);
        tick_until_target(g, L);
    }
}

/* The predictor equals ALGORITHMS.md's written-out forms (OpenFresco's predict order 1-3). */
static void test_predictor_forms(void **state)
{
    (void)state;
    const double s[4] = {0.731, -0.214, 0.5, 1.9}; /* s1 newest */
    const double xs[5] = {0.0, 0.1, 0.37, 0.6, 1.0};
    for (int i = 0; i < 5; i++) {
        const double x = xs[i];
        const double f1 = s[0] * (1 + x) - s[1] * x;
        const double f2 =
            s[0] * (1 + x) * (2 + x) / 2 - s[1] * x * (2 + x) + s[2] * x * (1 + x) / 2;
        const double f3 = s[0] * (1 + x) * (2 + x) * (3 + x) / 6 -
                          s[1] * x * (2 + x) * (3 + x) / 2 + s[2] * x * (1 + x) * (3 + x) / 2 -
                          s[3] * x * (1 + x) * (2 + x) / 6;
        const double f[3] = {f1, f2, f3};
        for (int order = 1; order <= 3; order++) {
            double c, dc, cp, cm, cp2, cm2;
            hs_cmdgen_predict(1, order, s, x, &c, &dc);
            HS_ASSERT_NEAR(c, f[order - 1], 1e-14);
            /* derivative against central differences of the same polynomial with Richardson's
             * extrapolation, exact for cubics up to round-off */
            hs_cmdgen_predict(1, order, s, x + 1e-2, &cp, NULL);
            hs_cmdgen_predict(1, order, s, x - 1e-2, &cm, NULL);
            hs_cmdgen_predict(1, order, s, x + 5e-3, &cp2, NULL);
            hs_cmdgen_predict(1, order, s, x - 5e-3, &cm2, NULL);
            const double d1 = (cp - cm) / 2e-2, d2 = (cp2 - cm2) / 1e-2;
            HS_ASSERT_NEAR(dc, (4 * d2 - d1) / 3, 1e-11);
        }
    }
}

/* p(t) of degree `deg` per actuator, t in steps */
static double poly(const double *a, int deg, double t)
{
    double v = 0.0;
    for (int k = deg; k >= 0; k--) v = v * t + a[k];
    return v;
}

/* With a target history on a polynomial of degree `order`, once `order` + 1 targets are on it,
 * the predictor and the restart corrector reproduce it at every tick (theory: Lagrange
 * extrapolation and the cubic Hermite are exact for such polynomials), whatever the tick at
 * which the target arrives (before the extrapolate TimeOut). Order 2 on a cubic is not exact. */
static double max_error(int order, int deg)
{
    const double a[2][4] = {{0.3, 0.2, -0.05, 0.004}, {-1.2, 0.05, 0.03, -0.002}};
    hs_cmdgen_params p = params(2, 1000.0, 0.01, 100.0);
    p.order = order;
    hs_cmdgen *g = make(&p);
    const int N = hs_cmdgen_ticks_per_step(g);
    assert_int_equal(N, 1000);
    const double x0[2] = {poly(a[0], deg, 0.0), poly(a[1], deg, 0.0)};
    hs_cmdgen_reset(g, x0);
    const int delays[12] = {0, 1, 250, 599, 123, 450, 37, 598, 5, 300, 77, 12};
    double err = 0.0;
    for (int i = 1; i <= 12; i++) {
        if (i > 1)
            for (int k = 1; k <= delays[i - 1]; k++) {
                double x[2];
                const int ev = hs_cmdgen_tick(g, NULL, x);
                assert_int_equal(ev, 0);
                if (i - 1 >= order)
                    for (int j = 0; j < 2; j++) {
                        const double e = fabs(x[j] - poly(a[j], deg, i - 1 + (double)k / N));
                        if (e > err) err = e;
                    }
            }
        const double t[2] = {poly(a[0], deg, i), poly(a[1], deg, i)};
        assert_int_equal(hs_cmdgen_target(g, t), 0);
        for (int k = (i > 1 ? delays[i - 1] : 0) + 1;; k++) {
            double x[2];
            const int ev = hs_cmdgen_tick(g, NULL, x);
            if (i - 1 >= order)
                for (int j = 0; j < 2; j++) {
                    const double e = fabs(x[j] - poly(a[j], deg, i - 1 + (double)k / N));
                    if (e > err) err = e;
                }
            if (ev & HS_CMDGEN_EV_TARGET) {
                assert_int_equal(k, N); /* no TimeOut: the step takes N ticks */
                assert_true(x[0] == t[0] && x[1] == t[1]);
                break;
            }
        }
    }
    hs_cmdgen_destroy(&g);
    return err;
}

static void test_polynomial_exactness(void **state)
{
    (void)state;
    for (int order = 1; order <= 3; order++) {
        const double e = max_error(order, order);
        printf("order %d on a degree-%d history: max |c - p| = %.3g\n", order, order, e);
        assert_true(e < 1e-12);
    }
    const double e = max_error(2, 3);
    printf("order 2 on a cubic history: max |c - p| = %.3g (not exact)\n", e);
    assert_true(e > 1e-6);
}

/* TimeOut at exactly T1 = round(0.6 N) ticks after D_target (x = 0.6) and T1 + T2 =
 * T1 + round(0.2 N / 0.5) (x = 0.8, zero speed); the hold timeout T_h = round(hold_timeout rate)
 * later (no mass: the test ends in place). Hold is bit-for-bit constant. */
static void check_timeouts(double rate, double dt, double ts)
{
    hs_cmdgen_params p = params(1, rate, dt, ts);
    p.hold_timeout = 0.25;
    hs_cmdgen *g = make(&p);
    const int N = hs_cmdgen_ticks_per_step(g);
    assert_int_equal(N, (int)floor(dt * ts * rate + 0.5));
    const long T1 = (long)floor(0.6 * N + 0.5), T2 = (long)floor(0.2 * N / 0.5 + 0.5);
    const long Th = (long)floor(0.25 * rate + 0.5);
    const double t1 = 0.5;
    assert_int_equal(hs_cmdgen_target(g, &t1), 0);
    assert_int_equal(tick_until_target(g, NULL), N);
    long timeouts[3] = {0, 0, 0};
    int nto = 0;
    double x = 0.0, prev = 0.0;
    for (long k = 1; k <= T1 + T2 + Th + 10; k++) {
        const int ev = hs_cmdgen_tick(g, NULL, &x);
        if (k > T1 + T2 + 1) assert_memory_equal(&x, &prev, sizeof x); /* hold: bit-exact */
        prev = x;
        if (ev & HS_CMDGEN_EV_TIMEOUT) {
            assert_true(nto < 3);
            timeouts[nto++] = k;
            if (nto == 1) {
                HS_ASSERT_NEAR(hs_cmdgen_step_fraction(g), (double)T1 / N, 1e-15);
                assert_int_equal(hs_cmdgen_current_state(g), HS_CMDGEN_SLOW);
            }
            if (nto == 2) {
                HS_ASSERT_NEAR(hs_cmdgen_step_fraction(g), 0.8, 1e-13);
                assert_true(hs_cmdgen_velocity(g)[0] == 0.0);
                assert_int_equal(hs_cmdgen_current_state(g), HS_CMDGEN_HOLD);
            }
            if (nto == 3) {
                assert_true(ev & HS_CMDGEN_EV_DONE);
                assert_int_equal(hs_cmdgen_current_state(g), HS_CMDGEN_DONE);
            }
        }
    }
    printf("N = %d: TimeOuts at ticks %ld, %ld, %ld (expected %ld, %ld, %ld)\n", N, timeouts[0],
           timeouts[1], timeouts[2], T1, T1 + T2, T1 + T2 + Th);
    assert_int_equal(timeouts[0], T1);
    assert_int_equal(timeouts[1], T1 + T2);
    assert_int_equal(timeouts[2], T1 + T2 + Th);
    assert_int_equal(hs_cmdgen_target(g, &t1), HS_EABORTED);
    hs_cmdgen_destroy(&g);
}

static void test_timeouts(void **state)
{
    (void)state;
    check_timeouts(1000.0, 0.01, 100.0); /* N = 1000 */
    check_timeouts(1024.0, 0.01, 120.0); /* Mosqueda et al. 2004: 1.2 s steps, N = 1229 */
}

/* The operator's pause (docs/monitor.md): a coordinator's HOLD every 150 ticks keeps a hold of
 * hold_timeout 0.2 s (T_h = 200 ticks at 1000 Hz) going for 1500 ticks, seven and a half hold
 * timeouts, the command bit for bit constant; hold_left counts down from T_h / rate after each
 * renewal and through extrapolate and slow before; once the renewals stop the hold ends exactly
 * T_h ticks after the last one. Without renewals the same generator ends the test at T1 + T2 + T_h
 * (test_timeouts). */
static void test_hold_renew(void **state)
{
    (void)state;
    hs_cmdgen_params p = params(1, 1000.0, 0.01, 1.0); /* N = 10 */
    p.hold_timeout = 0.2;
    hs_cmdgen *g = make(&p);
    int64_t T1, T2, Th;
    hs_cmdgen_timeout_ticks(g, &T1, &T2, &Th);
    assert_int_equal(T1, 6);
    assert_int_equal(T2, 4);
    assert_int_equal(Th, 200);
    assert_true(isinf(hs_cmdgen_hold_left(g))); /* before the first target nothing times out */
    const double t1 = 0.5;
    assert_int_equal(hs_cmdgen_target(g, &t1), 0);
    assert_int_equal(tick_until_target(g, NULL), 10);
    HS_ASSERT_NEAR(hs_cmdgen_hold_left(g), (6 + 4 + 200) / 1000.0, 1e-15);
    assert_int_equal(hs_cmdgen_hold_renew(g), 0); /* extrapolating: nothing to restart */
    double x = 0.0, held = 0.0;
    for (int k = 0; k < 10; k++) hs_cmdgen_tick(g, NULL, &x);
    assert_int_equal(hs_cmdgen_current_state(g), HS_CMDGEN_HOLD);
    HS_ASSERT_NEAR(hs_cmdgen_hold_left(g), 0.2, 1e-15);
    held = x;
    int64_t last = 0;
    for (int64_t k = 1; k <= 1500; k++) {
        const int ev = hs_cmdgen_tick(g, NULL, &x);
        assert_false(ev & HS_CMDGEN_EV_TIMEOUT);
        assert_memory_equal(&x, &held, sizeof x);
        if (k % 150 == 0) {
            HS_ASSERT_NEAR(hs_cmdgen_hold_left(g), 0.05, 1e-15); /* 200 - 150 ticks */
            assert_int_equal(hs_cmdgen_hold_renew(g), 1);
            HS_ASSERT_NEAR(hs_cmdgen_hold_left(g), 0.2, 1e-15);
            last = k;
        }
    }
    assert_int_equal(hs_cmdgen_current_state(g), HS_CMDGEN_HOLD);
    int64_t k = 1500;
    for (int ev = 0; !(ev & HS_CMDGEN_EV_TIMEOUT);) ev = hs_cmdgen_tick(g, NULL, &x), k++;
    printf(
        "hold kept by 10 renewals for 1500 ticks (T_h 200); it ended %lld ticks after the last\n",
        (long long)(k - last));
    assert_int_equal(k - last, 200);
    assert_int_equal(hs_cmdgen_current_state(g), HS_CMDGEN_DONE);
    assert_true(hs_cmdgen_hold_left(g) == 0.0);
    assert_int_equal(hs_cmdgen_hold_renew(g), 0); /* done cannot be undone */
    hs_cmdgen_destroy(&g);
    /* hold_timeout 0: the hold lasts for ever, nothing to renew */
    p.hold_timeout = 0.0;
    g = make(&p);
    assert_int_equal(hs_cmdgen_target(g, &t1), 0);
    tick_until_target(g, NULL);
    for (int j = 0; j < 20; j++) hs_cmdgen_tick(g, NULL, &x);
    assert_int_equal(hs_cmdgen_current_state(g), HS_CMDGEN_HOLD);
    assert_true(isinf(hs_cmdgen_hold_left(g)));
    assert_int_equal(hs_cmdgen_hold_renew(g), 0);
    hs_cmdgen_destroy(&g);
}

/* Fit a cubic through 4 consecutive samples c[i0 .. i0+3] (tick spacing 1) and evaluate value and
 * slope (per tick) at index i (Lagrange on the nodes 0..3). */
static void cubic_at(const double *c, int stride, long i0, double i, double *value, double *slope)
{
    double v = 0.0, d = 0.0;
    for (int a = 0; a < 4; a++) {
        double L = 1.0, dL = 0.0;
        for (int m = 0; m < 4; m++) {
            if (m == a) continue;
            const double w = 1.0 / (a - m), u = i - (double)i0 - m;
            dL = dL * u * w + L * w;
            L *= u * w;
        }
        v += L * c[(i0 + a) * stride];
        d += dL * c[(i0 + a) * stride];
    }
    *value = v;
    *slope = d;
}

/* Targets on a smooth but non-polynomial history arrive in every state: early and late in
 * extrapolate, in slow's first blend, its plateau and its final blend, and in hold. At every
 * switch the command and its first difference are continuous:
 *  - the second difference at the switch is within the natural bound, the largest second
 *    difference of the two ticks on either side (C1 pieces: it mixes the two accelerations),
 *    whereas a jump in velocity would show as a first-difference-sized second difference;
 *  - where both pieces are cubics in the tick index (extrapolate and slow's plateau before,
 *    interpolate and extrapolate after), a cubic fitted on 4 ticks on each side meets the other
 *    in value and slope at the switch to round-off. */
static void test_switch_continuity(void **state)
{
    (void)state;
    hs_cmdgen_params p = params(1, 1000.0, 0.01, 100.0); /* N 1000, T1 600, T2 400, B 50 */
    hs_cmdgen *g = make(&p);
    enum { NS = 12 };
    const int delay[NS] = {0, 10, 300, 620, 800, 990, 1150, 2000, 0, 4, 700, 1000};
    double targets[NS];
    for (int i = 0; i < NS; i++)
        targets[i] = 0.8 * sin(2 * PI * (i + 1) / 7.0) + 0.3 * cos(2 * PI * (i + 1) / 3.1);
    tick_log L;
    log_init(&L, 1, 40000);
    drive(g, &L, targets, delay, NS);
    const double *c = L.c;
    int switches = 0, fitted = 0, kinds = 0;
    double worst_ratio = 0.0, worst_value = 0.0, worst_slope = 0.0;
    for (long s = 5; s + 4 < L.nt; s++) {
        if (L.state[s] == L.state[s - 1]) continue;
        switches++;
        kinds |= 1 << (L.state[s - 1] * 8 + L.state[s]);
        const double D = c[s] - 2 * c[s - 1] + c[s - 2];
        double bound = 0.0;
        for (long t = s - 2; t <= s + 2; t++) {
            if (t == s) continue;
            const double Dt = fabs(c[t] - 2 * c[t - 1] + c[t - 2]);
            if (Dt > bound) bound = Dt;
        }
        const double first = fabs(c[s - 1] - c[s - 2]);
        if (fabs(D) > 1e-15) {
            const double r = fabs(D) / (bound + 1e-300);
            if (r > worst_ratio) worst_ratio = r;
        }
        assert_true(fabs(D) <= bound * (1 + 1e-9) + 1e-14);
        /* a velocity halving at extrapolate -> slow would give |D| = first / 2 */
        if (L.state[s - 1] == HS_CMDGEN_EXTRAPOLATE && L.state[s] == HS_CMDGEN_SLOW)
            assert_true(bound < 0.05 * first);
        /* cubic pieces on both sides: old piece ends at s - 1, new piece starts there */
        long tau = 0; /* ticks of slow up to s - 1: the plateau is tau in [B, T2 - B] */
        while (L.state[s - 1 - tau] == HS_CMDGEN_SLOW) tau++;
        const int left_cubic =
            L.state[s - 1] == HS_CMDGEN_EXTRAPOLATE || L.state[s - 1] == HS_CMDGEN_INTERPOLATE ||
            (L.state[s - 1] == HS_CMDGEN_SLOW && tau - 3 >= 50 && tau <= 400 - 50);
        const int right_cubic =
            L.state[s] == HS_CMDGEN_INTERPOLATE || L.state[s] == HS_CMDGEN_EXTRAPOLATE;
        int ok = 1;
        for (long t = s - 4; t < s; t++) ok &= L.state[t] == L.state[s - 1];
        for (long t = s; t < s + 4; t++) ok &= L.state[t] == L.state[s];
        if (right_cubic && ok) {
            double vr, dr, vl, dl;
            cubic_at(c, 1, s, (double)(s - 1), &vr, &dr);
            if (fabs(vr - c[s - 1]) > worst_value) worst_value = fabs(vr - c[s - 1]);
            HS_ASSERT_NEAR(vr, c[s - 1], 1e-12);
            if (left_cubic || L.state[s - 1] == HS_CMDGEN_HOLD) {
                if (L.state[s - 1] == HS_CMDGEN_HOLD) {
                    vl = c[s - 1];
                    dl = 0.0;
                } else {
                    cubic_at(c, 1, s - 4, (double)(s - 1), &vl, &dl);
                }
                if (fabs(dr - dl) > worst_slope) worst_slope = fabs(dr - dl);
                HS_ASSERT_NEAR(dr, dl, 1e-11);
                fitted++;
            }
        }
    }
    printf("%d switches (%d with cubic pieces on both sides): worst |second difference| / "
           "natural bound %.3f, value mismatch %.2g, slope mismatch %.2g per tick\n",
           switches, fitted, worst_ratio, worst_value, worst_slope);
    /* every kind of switch was exercised */
    const int E = HS_CMDGEN_EXTRAPOLATE, I = HS_CMDGEN_INTERPOLATE, S = HS_CMDGEN_SLOW,
              H = HS_CMDGEN_HOLD;
    assert_true(kinds & (1 << (E * 8 + I)));
    assert_true(kinds & (1 << (I * 8 + E)));
    assert_true(kinds & (1 << (E * 8 + S)));
    assert_true(kinds & (1 << (S * 8 + I)));
    assert_true(kinds & (1 << (S * 8 + H)));
    assert_true(kinds & (1 << (H * 8 + I)));
    assert_true(fitted >= 10);
    log_free(&L);
    hs_cmdgen_destroy(&g);
}

/* Free vibration of a linear SDOF (m, k, zeta) from a hold at x = 1: Newmark's average
 * acceleration with the stored damping ratio decays with the logarithmic decrement
 * delta = 2 pi zeta / sqrt(1 - zeta^2) between successive maxima; the motion dies out, the
 * command comes to rest (zero velocity, |f| below tolerance) and stays bit-for-bit constant. */
static void test_free_vibration(void **state)
{
    (void)state;
    const double m = 2.0, T = 0.5, zeta = 0.05, w = 2 * PI / T, k = m * w * w;
    hs_cmdgen_params p = params(1, 1024.0, 0.01, 2.0); /* 1024 ticks per period of the SDOF */
    p.mass = &m;
    p.stiffness = &k;
    p.zeta = zeta;
    p.hold_timeout = 0.05;
    hs_cmdgen *g = make(&p);
    const double x0 = 1.0;
    hs_cmdgen_reset(g, &x0);
    assert_int_equal(hs_cmdgen_target(g, &x0), 0);
    tick_until_target(g, NULL);
    const uint64_t allocs = hs_alloc_count();
    double x = x0, f = k * x0;
    double c[3] = {x0, x0, x0};
    double peaks[64];
    int np = 0, ev = 0;
    long ticks = 0, fv_ticks = 0;
    while (!(ev & HS_CMDGEN_EV_DONE)) {
        ev = hs_cmdgen_tick(g, &f, &x);
        assert_true(ev >= 0);
        f = k * x; /* perfect actuator, linear specimen */
        ticks++;
        if (hs_cmdgen_current_state(g) == HS_CMDGEN_FREE_VIBRATION) fv_ticks++;
        c[0] = c[1];
        c[1] = c[2];
        c[2] = x;
        if (fv_ticks > 2 && c[1] > c[0] && c[1] >= c[2] && np < 64) peaks[np++] = c[1];
        assert_true(ticks < 200000);
    }
    assert_int_equal(hs_alloc_count(), allocs);
    const double delta = 2 * PI * zeta / sqrt(1 - zeta * zeta);
    assert_true(np >= 6);
    double worst = 0.0;
    for (int i = 0; i + 1 < np && peaks[i + 1] > 1e-3; i++) {
        const double d = log(peaks[i] / peaks[i + 1]);
        if (fabs(d / delta - 1) > worst) worst = fabs(d / delta - 1);
        assert_true(fabs(d / delta - 1) < 1e-4);
    }
    const double first = log(peaks[0] / peaks[5]) / 5;
    printf("free vibration: %d maxima, log decrement %.6f over 5 cycles vs 2 pi zeta / sqrt(1 - "
           "zeta^2) = %.6f (worst cycle %.1e relative); %ld ticks to rest, final x = %.2e\n",
           np, first, delta, worst, ticks, x);
    /* at rest: velocity zero, force below the relative tolerance of its peak (k x0) */
    assert_true(hs_cmdgen_velocity(g)[0] == 0.0);
    assert_true(fabs(k * x) <= 2e-3 * k * x0);
    hs_cmdgen_summary s;
    hs_cmdgen_summary_get(g, &s);
    assert_int_equal(s.fv_capped, 0);
    for (int i = 0; i < 100; i++) {
        const double before = x;
        assert_int_equal(hs_cmdgen_tick(g, &f, &x), 0);
        assert_memory_equal(&x, &before, sizeof x);
    }
    assert_int_equal(hs_cmdgen_target(g, &x0), HS_EABORTED);
    hs_cmdgen_destroy(&g);
}

/* Slow state's plateau and blends (theory of the profile, docs/site_controller.md): x after tau
 * ticks of slow, for the expected interpolation length in the Table 1 test. */
static double slow_x(double N, double T1, double T2, double B, double tau)
{
    const double dN = 0.8 * N - T1, m = (dN - B / 2) / (T2 - B);
    double I;
    if (tau <= B)
        I = tau - (1 - m) * tau * tau / (2 * B);
    else if (tau <= T2 - B)
        I = B * (1 + m) / 2 + m * (tau - B);
    else {
        const double u = tau - (T2 - B);
        I = B * (1 + m) / 2 + m * (T2 - 2 * B) + m * (u - u * u / (2 * B));
    }
    return (T1 + I) / N;
}

/* Table 1 from a scripted sequence of late targets: the steps whose delay reached the extrapolate
 * TimeOut (>= T1 ticks) reached slow, those >= T1 + T2 reached hold; max delay and total run
 * time follow from the script. */
static void test_table1(void **state)
{
    (void)state;
    hs_cmdgen_params p = params(1, 1000.0, 0.01, 10.0); /* N 100, T1 60, T2 40, B 5 */
    hs_cmdgen *g = make(&p);
    enum { NS = 20 };
    const int delay[NS] = {0,   10, 59, 60, 75,  99, 100, 150, 30,  0,
                           230, 61, 5,  40, 100, 99, 12,  0,   180, 7};
    double targets[NS];
    for (int i = 0; i < NS; i++) targets[i] = 0.01 * (i + 1) * (i % 3 == 0 ? -1 : 1);
    const uint64_t allocs = hs_alloc_count();
    drive(g, NULL, targets, delay, NS);
    assert_int_equal(hs_alloc_count(), allocs);
    int nslow = 0, nhold = 0, maxd = 0;
    double ticks = 100.0; /* the first step: from rest, N ticks */
    for (int i = 1; i < NS; i++) {
        nslow += delay[i] >= 60;
        nhold += delay[i] >= 100;
        if (delay[i] > maxd) maxd = delay[i];
        double xu;
        if (delay[i] < 60)
            xu = delay[i] / 100.0;
        else if (delay[i] < 100)
            xu = slow_x(100, 60, 40, 5, delay[i] - 60);
        else
            xu = 0.8;
        ticks += delay[i] + floor((1 - xu) * 100 + 0.5);
    }
    hs_cmdgen_summary s;
    hs_cmdgen_summary_get(g, &s);
    printf("Table 1: steps %lld, max delay %.3f s, total run time %.3f s, slow %.1f %%, hold "
           "%.1f %% (scripted: %d and %d of %d)\n",
           (long long)s.steps, s.max_delay, s.total_time, s.pct_slow, s.pct_hold, nslow, nhold, NS);
    assert_int_equal(s.steps, NS);
    assert_int_equal(s.steps_slow, nslow);
    assert_int_equal(s.steps_hold, nhold);
    HS_ASSERT_NEAR(s.pct_slow, 100.0 * nslow / NS, 1e-12);
    HS_ASSERT_NEAR(s.pct_hold, 100.0 * nhold / NS, 1e-12);
    HS_ASSERT_NEAR(s.max_delay, maxd / 1000.0, 1e-15);
    HS_ASSERT_NEAR(s.total_time, ticks / 1000.0, 1e-12);
    const hs_cmdgen_step *last = hs_cmdgen_last_step(g);
    assert_non_null(last);
    assert_int_equal(last->step, NS);
    assert_int_equal(last->delay_ticks, delay[NS - 1]);
    assert_int_equal(last->states,
                     HS_CMDGEN_BIT(HS_CMDGEN_EXTRAPOLATE) | HS_CMDGEN_BIT(HS_CMDGEN_INTERPOLATE));
    assert_int_equal(last->ticks, 100);
    hs_cmdgen_destroy(&g);
}

static void test_protocol_and_params(void **state)
{
    (void)state;
    hs_cmdgen_params p = params(1, 1000.0, 0.01, 10.0);
    hs_cmdgen *g = make(&p);
    const double t = 1.0;
    assert_int_equal(hs_cmdgen_target(g, &t), 0);
    assert_int_equal(hs_cmdgen_target(g, &t), HS_EPROTO);
    double x;
    assert_true(hs_cmdgen_tick(g, NULL, &x) & HS_CMDGEN_EV_UPDATE);
    assert_int_equal(hs_cmdgen_target(g, &t), HS_EPROTO); /* still interpolating */
    hs_cmdgen_destroy(&g);
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    p.order = 4;
    assert_int_equal(hs_cmdgen_create(ctx, &p, &g), HS_EINPUT);
    p.order = 3;
    p.slow_limit = 0.5;
    assert_int_equal(hs_cmdgen_create(ctx, &p, &g), HS_EINPUT);
    p.slow_limit = 0.8;
    const double m = 1.0;
    p.mass = &m;
    assert_int_equal(hs_cmdgen_create(ctx, &p, &g), HS_EINPUT); /* zeta > 0 without stiffness */
    printf("%s\n", hs_ctx_message(ctx));
    assert_null(g);
    hs_ctx_destroy(&ctx);
    assert_string_equal(hs_cmdgen_state_name(HS_CMDGEN_FREE_VIBRATION), "free_vibration");
}

/* Stepwise (OpenFresco's trial-by-trial clients): each target is approached from rest along a
 * monotone ramp of N ticks, reached bit for bit, and held bit for bit however long the next one
 * takes (no extrapolation); hold_timeout still applies. */
static void test_stepwise(void **state)
{
    (void)state;
    hs_cmdgen_params p = params(2, 1000.0, 0.01, 2.0); /* N = 20 */
    p.stepwise = 1;
    p.hold_timeout = 0.5;
    hs_cmdgen *g = make(&p);
    const double targets[4][2] = {{1.0, -0.5}, {1.5, -0.25}, {1.25, 0.0}, {1.25, 0.0}};
    double prev[2] = {0.0, 0.0}, x[2];
    for (int k = 0; k < 4; k++) {
        assert_int_equal(hs_cmdgen_target(g, targets[k]), 0);
        int ev = 0, ticks = 0;
        double last[2] = {prev[0], prev[1]};
        while (!(ev & HS_CMDGEN_EV_TARGET)) {
            ev = hs_cmdgen_tick(g, NULL, x);
            ticks++;
            for (int j = 0; j < 2; j++) {
                const double lo = fmin(prev[j], targets[k][j]), hi = fmax(prev[j], targets[k][j]);
                assert_true(x[j] >= lo && x[j] <= hi); /* never outside the two targets */
                assert_true((targets[k][j] - prev[j]) * (x[j] - last[j]) >= 0.0); /* monotone */
                last[j] = x[j];
            }
        }
        assert_int_equal(ticks, 20);
        assert_memory_equal(x, targets[k], sizeof x);
        assert_int_equal(hs_cmdgen_current_state(g), HS_CMDGEN_HOLD);
        const double *v = hs_cmdgen_velocity(g);
        HS_ASSERT_NEAR(v[0], 0.0, 0.0);
        /* a slow client: 400 ticks (0.4 s, under the hold timeout) on the target, bit for bit */
        for (int i = 0; i < 400; i++) {
            assert_int_equal(hs_cmdgen_tick(g, NULL, x), 0);
            assert_memory_equal(x, targets[k], sizeof x);
        }
        prev[0] = targets[k][0];
        prev[1] = targets[k][1];
    }
    /* the hold timeout: 500 ticks after D_target, 400 gone: done (no mass) 100 ticks later */
    int ev = 0, ticks = 0;
    while (!(ev & HS_CMDGEN_EV_DONE)) {
        ev = hs_cmdgen_tick(g, NULL, x);
        ticks++;
        assert_true(ticks <= 100);
    }
    assert_int_equal(ticks, 100);
    hs_cmdgen_destroy(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_predictor_forms),
        cmocka_unit_test(test_polynomial_exactness),
        cmocka_unit_test(test_timeouts),
        cmocka_unit_test(test_switch_continuity),
        cmocka_unit_test(test_free_vibration),
        cmocka_unit_test(test_table1),
        cmocka_unit_test(test_protocol_and_params),
        cmocka_unit_test(test_stepwise),
        cmocka_unit_test(test_hold_renew),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
