/* The monitor's lock-free ring (include/hysim/monitor.h): order and content kept, a full ring
 * refuses and counts without waiting, capacity rounded up to a power of two, and one producer
 * thread against one consumer thread passing 200000 numbered samples: every sample either
 * arrives, in order and intact, or is counted dropped (received + dropped = sent). */
#include "hs_test.h"

#include "hysim/monitor.h"

#include <pthread.h>
#include <string.h>

static hs_monitor_sample numbered(int64_t k)
{
    hs_monitor_sample s;
    memset(&s, 0, sizeof s);
    s.step = k;
    s.t = 0.5 * (double)k;
    s.ndof = 3;
    for (int i = 0; i < HS_MON_MAX_DOF; i++) s.d[i] = (double)k + 0.001 * i;
    return s;
}

static void test_order_and_full(void **state)
{
    (void)state;
    hs_monitor_ring r;
    assert_int_equal(hs_monitor_ring_init(&r, 5), 0);
    assert_int_equal(r.ring.cap, 8); /* 5 -> 8 */
    hs_monitor_sample s, out;
    for (int k = 0; k < 8; k++) {
        s = numbered(k);
        assert_int_equal(hs_monitor_ring_push(&r, &s), 1);
    }
    s = numbered(8);
    assert_int_equal(hs_monitor_ring_push(&r, &s), 0); /* full: dropped */
    assert_int_equal(hs_monitor_ring_push(&r, &s), 0);
    assert_int_equal(hs_monitor_ring_dropped(&r), 2);
    for (int k = 0; k < 3; k++) {
        assert_int_equal(hs_monitor_ring_pop(&r, &out), 1);
        assert_int_equal(out.step, k);
        assert_true(out.d[HS_MON_MAX_DOF - 1] == (double)k + 0.001 * (HS_MON_MAX_DOF - 1));
    }
    s = numbered(100);
    assert_int_equal(hs_monitor_ring_push(&r, &s), 1); /* room again */
    for (int k = 3; k < 8; k++) {
        assert_int_equal(hs_monitor_ring_pop(&r, &out), 1);
        assert_int_equal(out.step, k);
    }
    assert_int_equal(hs_monitor_ring_pop(&r, &out), 1);
    assert_int_equal(out.step, 100);
    assert_int_equal(hs_monitor_ring_pop(&r, &out), 0); /* empty */
    hs_monitor_ring_free(&r);
    hs_ring bad;
    assert_int_equal(hs_ring_init(&bad, 8, 6), HS_EINVAL); /* not a power of two */
    assert_int_equal(hs_ring_init(&bad, 0, 8), HS_EINVAL);
}

#define SENT 200000

static void *producer(void *arg)
{
    hs_monitor_ring *r = arg;
    for (int64_t k = 0; k < SENT; k++) {
        hs_monitor_sample s = numbered(k);
        hs_monitor_ring_push(r, &s);
    }
    return NULL;
}

static void test_two_threads(void **state)
{
    (void)state;
    hs_monitor_ring r;
    assert_int_equal(hs_monitor_ring_init(&r, 64), 0);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, producer, &r), 0);
    int64_t received = 0, last = -1, bad = 0;
    hs_monitor_sample out;
    for (;;) {
        if (hs_monitor_ring_pop(&r, &out)) {
            received++;
            /* in order, and every member of the sample from the same push */
            if (out.step <= last || out.t != 0.5 * (double)out.step ||
                out.d[HS_MON_MAX_DOF - 1] != (double)out.step + 0.001 * (HS_MON_MAX_DOF - 1))
                bad++;
            last = out.step;
            if (out.step == SENT - 1) break;
        } else if (received + (int64_t)hs_monitor_ring_dropped(&r) == SENT) {
            break; /* the last one was dropped */
        }
    }
    pthread_join(th, NULL);
    while (hs_monitor_ring_pop(&r, &out)) received++;
    print_message("ring: %lld received, %llu dropped of %d\n", (long long)received,
                  hs_monitor_ring_dropped(&r), SENT);
    assert_int_equal(bad, 0);
    assert_int_equal(received + (int64_t)hs_monitor_ring_dropped(&r), SENT);
    hs_monitor_ring_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_full),
        cmocka_unit_test(test_two_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
