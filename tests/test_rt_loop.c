/* The real-time loop's tools (hysim/rt_loop.h): the spin margin from wake-up latencies and the
 * cause of a late tick as pure functions on synthetic time stamps (virtual time), then a smoke
 * test on the real clock with loose bounds (properties of the clock, never a speed). */
#include "hs_test.h"
#include "hysim/rt_loop.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define US 1000
static const int64_t P1024 = 976562; /* ns, the period at 1024 Hz */

static void test_quantile_nearest_rank(void **state)
{
    (void)state;
    int64_t v[100];
    for (int i = 0; i < 100; i++) v[i] = i + 1;
    assert_int_equal(hs_rt_quantile(v, 100, 0.99), 99);
    assert_int_equal(hs_rt_quantile(v, 100, 0.5), 50);
    assert_int_equal(hs_rt_quantile(v, 100, 1.0), 100);
    assert_int_equal(hs_rt_quantile(v, 100, 0.0), 1);
    assert_int_equal(hs_rt_quantile(v, 1, 0.99), 1);
    assert_int_equal(hs_rt_quantile(v, 0, 0.99), 0);
    /* 256 samples (the site's calibration): rank ceil(0.99 * 256) = 254 */
    int64_t w[256];
    for (int i = 0; i < 256; i++) w[i] = 10 * i;
    assert_int_equal(hs_rt_quantile(w, 256, 0.99), 2530);
}

/* shuffled input: the margin depends on the distribution, not the order */
static void shuffle(int64_t *v, size_t n, unsigned seed)
{
    for (size_t i = n - 1; i > 0; i--) {
        seed = seed * 1103515245u + 12345u;
        const size_t j = (seed >> 8) % (i + 1);
        const int64_t t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

static void test_spin_margin_from_latency(void **state)
{
    (void)state;
    int64_t lat[100];
    /* a quiet core: 99 wake-ups within 60 us, one 5 ms outlier beyond the 99th percentile:
     * the 99th value (60 us) plus the 10 us guard */
    for (int i = 0; i < 100; i++) lat[i] = (i % 7) * 10 * US;
    lat[3] = 60 * US; /* the 99th largest is 60 us */
    lat[50] = 5000 * US;
    shuffle(lat, 100, 7u);
    assert_int_equal(hs_rt_spin_margin(lat, 100, P1024), 70 * US);
    for (int i = 1; i < 100; i++) assert_true(lat[i - 1] <= lat[i]); /* sorted in place */
    /* deep idle states: 2 % of wake-ups take 500 us, so the 99th percentile is 500 us; the
     * margin is bounded by half the period (488 us at 1024 Hz) */
    for (int i = 0; i < 100; i++) lat[i] = i < 98 ? 5 * US : 500 * US;
    shuffle(lat, 100, 11u);
    assert_int_equal(hs_rt_spin_margin(lat, 100, P1024), P1024 / 2);
    /* the same at 256 Hz: 510 us fits under the half period (1953 us) */
    for (int i = 0; i < 100; i++) lat[i] = i < 98 ? 5 * US : 500 * US;
    assert_int_equal(hs_rt_spin_margin(lat, 100, 3906250), 510 * US);
    /* a very fast wake-up: the lower bound (20 us) */
    for (int i = 0; i < 100; i++) lat[i] = 3 * US;
    assert_int_equal(hs_rt_spin_margin(lat, 100, P1024), HS_RT_SPIN_MIN_NS);
    /* slow wake-ups at a slow rate: the upper bound (1 ms) */
    for (int i = 0; i < 100; i++) lat[i] = 3000 * US;
    assert_int_equal(hs_rt_spin_margin(lat, 100, 100000000), HS_RT_SPIN_MAX_NS);
    /* no sample: the upper bound for the period (4096 Hz: half of 244 us) */
    assert_int_equal(hs_rt_spin_margin(lat, 0, 244140), 122070);
}

static void test_late_cause_single_ticks(void **state)
{
    (void)state;
    const int64_t D = 10000 * US, late = 250 * US;
    /* on time: started 1 us after the deadline; exactly `late` is still on time */
    hs_rt_tick_times t = {
        .deadline = D, .woke = D - 90 * US, .start = D + US, .prev_end = D - 800 * US};
    assert_int_equal(hs_rt_late_cause(&t, late), HS_RT_ON_TIME);
    t.start = D + late;
    assert_int_equal(hs_rt_late_cause(&t, late), HS_RT_ON_TIME);
    /* the sleep returned 400 us after the deadline */
    t.woke = D + 400 * US;
    t.start = t.woke;
    assert_int_equal(hs_rt_late_cause(&t, late), HS_RT_WAKE_LATE);
    /* woke in time (50 us before), started 300 us late: preempted while spinning */
    t.woke = D - 50 * US;
    t.start = D + 300 * US;
    assert_int_equal(hs_rt_late_cause(&t, late), HS_RT_PREEMPTED);
    /* did not need to sleep (arrived inside the spin margin), started late: preempted */
    t.woke = -1;
    t.prev_end = D - 10 * US;
    assert_int_equal(hs_rt_late_cause(&t, late), HS_RT_PREEMPTED);
    /* the previous tick, started on time, ended 300 us after this deadline: overran */
    t.prev_end = D + 300 * US;
    t.prev_late = 2 * US;
    t.start = t.prev_end + US;
    assert_int_equal(hs_rt_late_cause(&t, late), HS_RT_OVERRAN);
    /* the same, the previous tick itself 2 ms late: catch-up */
    t.prev_late = 2000 * US;
    assert_int_equal(hs_rt_late_cause(&t, late), HS_RT_CATCH_UP);
    assert_string_equal(hs_rt_cause_name(HS_RT_WAKE_LATE), "wake-up late");
}

/* A loop in virtual time, as hs_rt_wait and the site's loop run it: a tick arrives when the
 * previous one ends; it sleeps to deadline - spin when that is ahead and wakes `wake` later,
 * then spins to the deadline; its work takes work[k]. */
static void test_late_cause_virtual_loop(void **state)
{
    (void)state;
    enum { N = 12 };
    const int64_t period = 1000 * US, spin = 100 * US, late = 250 * US;
    int64_t work[N], wake[N];
    for (int k = 0; k < N; k++) {
        work[k] = 10 * US;
        wake[k] = 30 * US;
    }
    work[3] = 2600 * US; /* tick 3's work overruns into tick 5's period */
    wake[8] = 400 * US;  /* tick 8 wakes 300 us after its deadline */
    wake[10] = 90 * US;  /* inside the margin: on time */
    int counts[HS_RT_NCAUSES] = {0}, cause_of[N];
    hs_rt_tick_times t = {.prev_end = 0, .prev_late = 0};
    for (int k = 1; k < N; k++) {
        t.deadline = k * period;
        if (t.prev_end < t.deadline - spin) {
            t.woke = t.deadline - spin + wake[k];
            t.start = t.woke > t.deadline ? t.woke : t.deadline;
        } else {
            t.woke = -1;
            t.start = t.prev_end > t.deadline ? t.prev_end : t.deadline;
        }
        cause_of[k] = hs_rt_late_cause(&t, late);
        counts[cause_of[k]]++;
        t.prev_end = t.start + work[k];
        t.prev_late = t.start - t.deadline;
    }
    /* tick 3 ends at 5.6 ms: tick 4 starts 1.6 ms late (overran), tick 5 0.61 ms late
     * (catch-up: tick 4 was late and ended after 5 ms), tick 6 sleeps again, on time */
    assert_int_equal(cause_of[4], HS_RT_OVERRAN);
    assert_int_equal(cause_of[5], HS_RT_CATCH_UP);
    assert_int_equal(cause_of[6], HS_RT_ON_TIME);
    assert_int_equal(cause_of[8], HS_RT_WAKE_LATE);
    assert_int_equal(cause_of[10], HS_RT_ON_TIME);
    assert_int_equal(counts[HS_RT_OVERRAN], 1);
    assert_int_equal(counts[HS_RT_CATCH_UP], 1);
    assert_int_equal(counts[HS_RT_WAKE_LATE], 1);
    assert_int_equal(counts[HS_RT_PREEMPTED], 0);
    assert_int_equal(counts[HS_RT_ON_TIME], N - 1 - 3);
}

typedef struct smoke {
    hs_rt_grants g;
    int64_t margin, lat[64];
    int64_t early, bad_woke, ticks;
    int fd_open_after_release, latency_held;
} smoke;

static void *smoke_thread(void *arg)
{
    smoke *s = arg;
    hs_rt_acquire(&s->g, 1);
    s->margin = hs_rt_calibrate(P1024, s->lat, 64);
    const int64_t t0 = hs_rt_now();
    for (int k = 1; k <= 100; k++) {
        const int64_t deadline = t0 + k * P1024;
        int64_t woke = 0;
        const int64_t start = hs_rt_wait(deadline, s->margin, &woke);
        s->early += start < deadline;
        s->bad_woke += woke != -1 && woke < deadline - s->margin;
        s->ticks++;
    }
    s->latency_held = s->g.latency && s->g.latency_fd >= 0;
    hs_rt_release(&s->g);
    s->fd_open_after_release = s->g.latency_fd >= 0 || s->g.latency;
    return NULL;
}

/* Real clock, loose bounds: a sleep never returns early, the margin lies in its bounds, a tick
 * never starts before its deadline, each request is granted or says why not. */
static void test_real_clock_smoke(void **state)
{
    (void)state;
    smoke s;
    memset(&s, 0, sizeof s);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, smoke_thread, &s), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
    print_message("    SCHED_FIFO %s, mlockall %s, latency request %s; wake-up p99 %.1f us, max "
                  "%.1f us over 64 sleeps: spin %.1f us\n",
                  s.g.fifo ? "granted" : s.g.fifo_why, s.g.locked ? "granted" : s.g.lock_why,
                  s.latency_held ? "held" : s.g.latency_why,
                  1e-3 * (double)hs_rt_quantile(s.lat, 64, 0.99), 1e-3 * (double)s.lat[63],
                  1e-3 * (double)s.margin);
    assert_true(s.g.fifo || s.g.fifo_why[0]);
    assert_true(s.g.locked || s.g.lock_why[0]);
    assert_true(s.latency_held || s.g.latency_why[0]);
    assert_true(s.lat[0] >= 0);
    for (int i = 1; i < 64; i++) assert_true(s.lat[i - 1] <= s.lat[i]);
    assert_true(s.margin >= HS_RT_SPIN_MIN_NS && s.margin <= P1024 / 2);
    assert_int_equal(s.ticks, 100);
    assert_int_equal(s.early, 0);
    assert_int_equal(s.bad_woke, 0);
    assert_int_equal(s.fd_open_after_release, 0);
    /* not asked for: nothing granted, each says so */
    hs_rt_grants g;
    hs_rt_acquire(&g, 0);
    assert_true(!g.fifo && !g.locked && !g.latency && g.latency_fd == -1);
    assert_non_null(strstr(g.latency_why, "not asked for"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quantile_nearest_rank),
        cmocka_unit_test(test_spin_margin_from_latency),
        cmocka_unit_test(test_late_cause_single_ticks),
        cmocka_unit_test(test_late_cause_virtual_loop),
        cmocka_unit_test(test_real_clock_smoke),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
