/* Virtual clock: event order (time, then insertion), no allocation after creation, periodic ticks
 * without drift, cancellation, bounded runs. */
#include "hs_test.h"

#include "hysim/rng.h"
#include "hysim/vclock.h"

#include <stdlib.h>
#include <string.h>

static void test_vtime_conversion(void **state)
{
    (void)state;
    assert_true(hs_vtime_from_seconds(1.2) == INT64_C(1200000000));
    assert_true(hs_vtime_from_seconds(0.72) == INT64_C(720000000));
    assert_true(hs_vtime_from_seconds(3600.0) == INT64_C(3600000000000));
    assert_true(hs_vtime_from_seconds(-1.0) == 0);
    assert_true(hs_vtime_from_seconds(1e30) == HS_VTIME_NEVER);
    assert_true(hs_vtime_seconds(INT64_C(1500000000)) == 1.5);
}

static void test_order_time_then_insertion(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_vclock *c = NULL;
    assert_int_equal(hs_vclock_create(ctx, 5, &c), 0);
    /* kinds record the push order; times 5, 3, 5, 3, 0 */
    const hs_vtime t[5] = {5, 3, 5, 3, 0};
    for (int k = 0; k < 5; k++)
        assert_int_equal(hs_vclock_push(c, t[k], k, 10 + k, (uint32_t)k), 0);
    /* full */
    assert_int_equal(hs_vclock_push(c, 9, 9, 9, 9), HS_ENOMEM);
    assert_int_equal(hs_vclock_pending(c), 5);
    hs_vevent e;
    assert_int_equal(hs_vclock_peek(c, &e), 1);
    assert_int_equal(e.kind, 4);
    const int expect[5] = {4, 1, 3, 0, 2}; /* by time, equal times by push order */
    for (int i = 0; i < 5; i++) {
        assert_int_equal(hs_vclock_pop(c, &e), 1);
        assert_int_equal(e.kind, expect[i]);
        assert_int_equal(e.target, 10 + expect[i]);
        assert_true(e.payload == (uint32_t)expect[i]);
        assert_true(e.time == t[expect[i]]);
        assert_true(hs_vclock_now(c) == e.time);
    }
    assert_int_equal(hs_vclock_pop(c, &e), 0);
    assert_true(hs_vclock_now(c) == 5);
    /* the past cannot be scheduled; now itself can */
    assert_int_equal(hs_vclock_push(c, 4, 0, 0, 0), HS_EINVAL);
    assert_non_null(strstr(hs_ctx_message(ctx), "before now"));
    assert_int_equal(hs_vclock_push(c, 5, 0, 0, 0), 0);
    assert_true(hs_vclock_pushed(c) == 6);
    hs_vclock_destroy(&c);
    assert_null(c);
    hs_ctx_destroy(&ctx);
}

#define N_EVENTS 1000000

/* 1e6 events with many ties: they leave in (time, push order) order, each exactly once, and
 * nothing is allocated between creation and destruction. */
static void test_million_events(void **state)
{
    (void)state;
    hs_vtime *when = malloc(N_EVENTS * sizeof *when);
    unsigned char *seen = calloc(N_EVENTS, 1);
    assert_non_null(when);
    assert_non_null(seen);
    hs_vclock *c = NULL;
    assert_int_equal(hs_vclock_create(NULL, N_EVENTS, &c), 0);
    const uint64_t allocs = hs_alloc_count();
    hs_rng rng;
    hs_rng_seed(&rng, 12345, 0);
    for (uint32_t i = 0; i < N_EVENTS; i++) {
        when[i] = (hs_vtime)(hs_rng_next(&rng) % 20000u); /* ~50 events per distinct time */
        assert_int_equal(hs_vclock_push(c, when[i], 1, 2, i), 0);
    }
    hs_vevent prev = {.time = -1}, e;
    size_t popped = 0;
    while (hs_vclock_pop(c, &e)) {
        if (e.time == prev.time && !(e.seq > prev.seq)) fail_msg("tie out of push order");
        if (e.time < prev.time) fail_msg("time went back at event %zu", popped);
        if (e.time != when[e.payload] || e.seq != e.payload || seen[e.payload])
            fail_msg("event %u corrupted or popped twice", e.payload);
        seen[e.payload] = 1;
        prev = e;
        popped++;
    }
    assert_int_equal(popped, N_EVENTS);
    /* hold model: pop one, push one later; the clock never goes back */
    for (uint32_t i = 0; i < 1000; i++)
        assert_int_equal(hs_vclock_push(c, hs_vclock_now(c) + (hs_vtime)i, 0, 0, i), 0);
    hs_vtime last = hs_vclock_now(c);
    for (int i = 0; i < 200000; i++) {
        assert_int_equal(hs_vclock_pop(c, &e), 1);
        if (e.time < last) fail_msg("hold model: time went back");
        last = e.time;
        assert_int_equal(hs_vclock_push(c, e.time + (hs_vtime)(hs_rng_next(&rng) % 1000u), 0, 0, 0),
                         0);
    }
    assert_int_equal(hs_vclock_pending(c), 1000);
    assert_true(hs_alloc_count() == allocs);
    hs_vclock_destroy(&c);
    free(when);
    free(seen);
}

/* 1024 Hz for 600 s: tick n at exactly n * 976562.5 ns rounded half away from zero; tick
 * 614400 at 600 s exactly (adding a rounded period would drift by 0.5 ns a tick: 307 us). */
static void test_periodic_ticks(void **state)
{
    (void)state;
    hs_vclock *c = NULL;
    assert_int_equal(hs_vclock_create(NULL, 4, &c), 0);
    const hs_vtime origin = 7;
    assert_int_equal(hs_vclock_push_tick(c, origin, 1024.0, 0, 3, 1, 0), 0);
    hs_vevent e;
    int64_t n = 0;
    while (hs_vclock_pop(c, &e)) {
        assert_true(e.tick == n);
        const int64_t twice = n * 1953125; /* 2 * exact time in ns */
        const hs_vtime exact_rounded = origin + (twice + 1) / 2;
        if (e.time != exact_rounded)
            fail_msg("tick %lld at %lld ns", (long long)n, (long long)e.time);
        if (hs_vclock_pending(c) != 0) fail_msg("more than one tick pending");
        if (n == 614400) break;
        assert_int_equal(hs_vclock_push_next_tick(c, &e, origin, 1024.0), 0);
        n++;
    }
    assert_true(e.time == origin + INT64_C(600000000000));
    assert_int_equal(hs_vclock_push_tick(c, 0, 0.0, 1, 0, 0, 0), HS_EINVAL);
    hs_vclock_destroy(&c);
}

static void test_cancel_and_pop_until(void **state)
{
    (void)state;
    hs_vclock *c = NULL;
    assert_int_equal(hs_vclock_create(NULL, 16, &c), 0);
    /* (time, kind, target) */
    assert_int_equal(hs_vclock_push(c, 40, 1, 0, 0), 0);
    assert_int_equal(hs_vclock_push(c, 10, 2, 5, 1), 0); /* timeout of target 5: cancelled */
    assert_int_equal(hs_vclock_push(c, 20, 1, 0, 2), 0);
    assert_int_equal(hs_vclock_push(c, 20, 2, 6, 3), 0);
    assert_int_equal(hs_vclock_push(c, 30, 2, 5, 4), 0); /* cancelled */
    assert_int_equal(hs_vclock_push(c, 20, 1, 0, 5), 0);
    assert_int_equal(hs_vclock_cancel(c, 2, 5), 2);
    assert_int_equal(hs_vclock_cancel(c, 2, 5), 0);
    assert_int_equal(hs_vclock_pending(c), 4);
    const uint32_t expect[4] = {2, 3, 5, 0};
    hs_vevent e;
    /* bounded run to 25: three events, then the clock stops at 25 */
    for (int i = 0; i < 3; i++) {
        assert_int_equal(hs_vclock_pop_until(c, 25, &e), 1);
        assert_true(e.payload == expect[i]);
    }
    assert_int_equal(hs_vclock_pop_until(c, 25, &e), 0);
    assert_true(hs_vclock_now(c) == 25);
    assert_int_equal(hs_vclock_pop(c, &e), 1);
    assert_true(e.payload == expect[3]);
    assert_true(hs_vclock_now(c) == 40);
    hs_vclock_destroy(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vtime_conversion),
        cmocka_unit_test(test_order_time_then_insertion),
        cmocka_unit_test(test_million_events),
        cmocka_unit_test(test_periodic_ticks),
        cmocka_unit_test(test_cancel_and_pop_until),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
