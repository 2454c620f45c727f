/* Lateness of the site's real-time loop, idle (issue 12 section 7): the loop of the site server
 * (hysim/rt_loop.h: sleep to `spin` before each deadline, spin to it) with no work in its ticks,
 * at 1024, 2048 and 4096 Hz, in three configurations measured in the same run:
 *
 *  - old:        the fixed 100 us spin margin, no PM QoS latency request (the loop before);
 *  - fixed+qos:  the fixed 100 us margin with the latency request held;
 *  - calibrated: the latency request held and the margin chosen from the wake-up latency measured
 *                at the row's start (as `hysim site` does without `spin` in its site file).
 *
 * SCHED_FIFO and mlockall are asked for once, for the whole run (each said granted or refused).
 * Per row: the lateness start - deadline of every tick (ns, preallocated, sorted for nearest-rank
 * percentiles), p50, p99, p99.9, max, the late ticks (more than a quarter period) by cause, and
 * the ratio of the row's p99.9 to the old row's at the same rate. Figures only: nothing is
 * asserted. Usage: bench_loop [seconds per row, default 2]. */
#include "hysim/rt_loop.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TICKS (4096 * 60)
#define NCAL      256

typedef struct row {
    double rate;
    int qos, calibrate;
    const char *name;
    /* results */
    int64_t spin, n, late_by_cause[HS_RT_NCAUSES];
    double p50, p99, p999, max; /* us */
} row;

static int64_t lat[MAX_TICKS], cal[NCAL];

static void run_row(row *r, double seconds, hs_rt_grants *g)
{
    const int64_t period = (int64_t)(1e9 / r->rate);
    const int64_t late = period / 4;
    /* the latency request is held for the qos rows only */
    if (r->qos && g->latency_fd < 0) {
        hs_rt_grants q;
        hs_rt_acquire(&q, 1); /* SCHED_FIFO and mlockall again (already held), the request */
        g->latency = q.latency;
        g->latency_fd = q.latency_fd;
    }
    if (!r->qos) hs_rt_release(g);
    r->spin = r->calibrate ? hs_rt_calibrate(period, cal, NCAL) : HS_RT_SPIN_FIXED_NS;
    int64_t n = (int64_t)(seconds * r->rate);
    if (n > MAX_TICKS) n = MAX_TICKS;
    hs_rt_tick_times t = {.prev_end = hs_rt_now(), .prev_late = 0};
    const int64_t t0 = t.prev_end;
    memset(r->late_by_cause, 0, sizeof r->late_by_cause);
    for (int64_t k = 1; k <= n; k++) {
        t.deadline = t0 + (int64_t)((double)k * 1e9 / r->rate + 0.5);
        t.start = hs_rt_wait(t.deadline, r->spin, &t.woke);
        lat[k - 1] = t.start - t.deadline;
        r->late_by_cause[hs_rt_late_cause(&t, late)]++;
        t.prev_end = hs_rt_now();
        t.prev_late = lat[k - 1];
    }
    r->n = n;
    hs_rt_spin_margin(lat, (size_t)n, period); /* sorts */
    r->p50 = 1e-3 * (double)hs_rt_quantile(lat, (size_t)n, 0.5);
    r->p99 = 1e-3 * (double)hs_rt_quantile(lat, (size_t)n, 0.99);
    r->p999 = 1e-3 * (double)hs_rt_quantile(lat, (size_t)n, 0.999);
    r->max = 1e-3 * (double)lat[n - 1];
}

typedef struct bench {
    double seconds;
    row rows[9];
    int nrows;
    hs_rt_grants g;
} bench;

static void *loop_thread(void *arg)
{
    bench *b = arg;
    hs_rt_acquire(&b->g, 1);
    printf("SCHED_FIFO %s; mlockall %s; latency request %s\n",
           b->g.fifo ? "granted" : b->g.fifo_why, b->g.locked ? "granted" : b->g.lock_why,
           b->g.latency ? "held" : b->g.latency_why);
    hs_rt_release(&b->g);
    for (int i = 0; i < b->nrows; i++) run_row(&b->rows[i], b->seconds, &b->g);
    hs_rt_release(&b->g);
    return NULL;
}

int main(int argc, char **argv)
{
    static bench b;
    b.seconds = argc > 1 ? atof(argv[1]) : 2.0;
    if (!(b.seconds > 0.0 && b.seconds <= 60.0)) {
        fprintf(stderr, "usage: bench_loop [seconds per row, > 0 and <= 60]\n");
        return 2;
    }
    const double rates[] = {1024.0, 2048.0, 4096.0};
    for (int i = 0; i < 3; i++) {
        b.rows[b.nrows++] = (row){.rate = rates[i], .qos = 0, .calibrate = 0, .name = "old"};
        b.rows[b.nrows++] = (row){.rate = rates[i], .qos = 1, .calibrate = 0, .name = "fixed+qos"};
        b.rows[b.nrows++] = (row){.rate = rates[i], .qos = 1, .calibrate = 1, .name = "calibrated"};
    }
    pthread_t th;
    if (pthread_create(&th, NULL, loop_thread, &b) || pthread_join(th, NULL)) {
        fprintf(stderr, "bench_loop: cannot run the loop's thread\n");
        return 1;
    }
    printf("%-6s %-11s %8s %8s %8s %8s %8s %9s %7s  late: %s / %s / %s / %s\n", "Hz", "loop",
           "spin us", "p50 us", "p99 us", "p99.9 us", "max us", "ticks", "p99.9/old",
           hs_rt_cause_name(HS_RT_WAKE_LATE), hs_rt_cause_name(HS_RT_OVERRAN),
           hs_rt_cause_name(HS_RT_CATCH_UP), hs_rt_cause_name(HS_RT_PREEMPTED));
    for (int i = 0; i < b.nrows; i++) {
        const row *r = &b.rows[i], *old = &b.rows[i - i % 3];
        printf(
            "%-6.0f %-11s %8.1f %8.1f %8.1f %8.1f %8.1f %9lld %9.2f  %lld / %lld / %lld / %lld\n",
            r->rate, r->name, 1e-3 * (double)r->spin, r->p50, r->p99, r->p999, r->max,
            (long long)r->n, old->p999 > 0.0 ? r->p999 / old->p999 : 0.0,
            (long long)r->late_by_cause[HS_RT_WAKE_LATE],
            (long long)r->late_by_cause[HS_RT_OVERRAN], (long long)r->late_by_cause[HS_RT_CATCH_UP],
            (long long)r->late_by_cause[HS_RT_PREEMPTED]);
    }
    return 0;
}
