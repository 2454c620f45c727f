/* The real-time loop's tools (include/hysim/rt_loop.h): scheduling, locked memory and the PM QoS
 * latency request; the spin margin from the measured wake-up latency; the sleep-then-spin wait;
 * the cause of a late tick. */
#include "hysim/rt_loop.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define HS_RT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HS_RT_ASAN 1
#endif
#endif

int64_t hs_rt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sleep_until(int64_t ns)
{
    struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000), .tv_nsec = (long)(ns % 1000000000)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
    }
}

/* The PM QoS request of the kernel's cpu_dma_latency interface: a 32-bit integer (us) written
 * to the device; the request lasts while the file stays open. */
static void latency_request(hs_rt_grants *g)
{
    const char *dev = "/dev/cpu_dma_latency";
    const int fd = open(dev, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(g->latency_why, sizeof g->latency_why,
                 "no PM QoS latency request (%s: %s): deep idle states may delay wake-ups", dev,
                 strerror(errno));
        return;
    }
    const int32_t zero = 0;
    if (write(fd, &zero, sizeof zero) != (ssize_t)sizeof zero) {
        snprintf(g->latency_why, sizeof g->latency_why,
                 "no PM QoS latency request (writing %s: %s): deep idle states may delay wake-ups",
                 dev, strerror(errno));
        close(fd);
        return;
    }
    g->latency = 1;
    g->latency_fd = fd;
}

void hs_rt_acquire(hs_rt_grants *g, int want)
{
    memset(g, 0, sizeof *g);
    g->latency_fd = -1;
    if (!want) {
        snprintf(g->fifo_why, sizeof g->fifo_why,
                 "real-time scheduling not asked for (realtime: false)");
        snprintf(g->lock_why, sizeof g->lock_why, "memory locking not asked for");
        snprintf(g->latency_why, sizeof g->latency_why, "PM QoS latency request not asked for");
        return;
    }
    const int lo = sched_get_priority_min(SCHED_FIFO), hi = sched_get_priority_max(SCHED_FIFO);
    struct sched_param sp = {.sched_priority = lo + 10 < hi ? lo + 10 : hi};
    const int e = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
    g->fifo = e == 0;
    if (e)
        snprintf(g->fifo_why, sizeof g->fifo_why, "SCHED_FIFO refused (%s): ticks may be late",
                 strerror(e));
#ifdef HS_RT_ASAN
    snprintf(g->lock_why, sizeof g->lock_why,
             "memory not locked: AddressSanitizer's shadow memory cannot be locked");
#else
    g->locked = mlockall(MCL_CURRENT | MCL_FUTURE) == 0;
    if (!g->locked)
        snprintf(g->lock_why, sizeof g->lock_why,
                 "mlockall refused (%s): page faults may delay ticks", strerror(errno));
#endif
    latency_request(g);
}

void hs_rt_release(hs_rt_grants *g)
{
    if (g->latency_fd >= 0) close(g->latency_fd);
    g->latency_fd = -1;
    g->latency = 0;
}

static int cmp_i64(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int64_t hs_rt_quantile(const int64_t *sorted, size_t n, double p)
{
    if (n == 0) return 0;
    /* nearest rank: the smallest value with at least p n values at or below it */
    double r = p * (double)n;
    size_t k = (size_t)r;
    if ((double)k < r) k++;
    if (k < 1) k = 1;
    if (k > n) k = n;
    return sorted[k - 1];
}

int64_t hs_rt_spin_margin(int64_t *lat, size_t n, int64_t period_ns)
{
    int64_t hi = HS_RT_SPIN_MAX_NS;
    if (period_ns / 2 < hi) hi = period_ns / 2;
    if (hi < HS_RT_SPIN_MIN_NS) hi = HS_RT_SPIN_MIN_NS;
    if (n == 0) return hi;
    qsort(lat, n, sizeof *lat, cmp_i64);
    int64_t m = hs_rt_quantile(lat, n, HS_RT_SPIN_PERCENTILE);
    m = m < 0 ? HS_RT_SPIN_GUARD_NS : m + HS_RT_SPIN_GUARD_NS;
    return m < HS_RT_SPIN_MIN_NS ? HS_RT_SPIN_MIN_NS : m > hi ? hi : m;
}

int64_t hs_rt_calibrate(int64_t period_ns, int64_t *lat, size_t n)
{
    int64_t t = hs_rt_now();
    for (size_t i = 0; i < n; i++) {
        t += period_ns;
        sleep_until(t);
        lat[i] = hs_rt_now() - t;
        if (lat[i] > period_ns) t = hs_rt_now(); /* far behind: restart the schedule */
    }
    return hs_rt_spin_margin(lat, n, period_ns);
}

int64_t hs_rt_spin_gate(int64_t spin, int64_t quiet, int64_t grace)
{
    return quiet <= grace ? spin : 0;
}

int64_t hs_rt_wait(int64_t deadline, int64_t spin, int64_t *woke)
{
    *woke = -1;
    if (hs_rt_now() < deadline - spin) {
        sleep_until(deadline - spin);
        *woke = hs_rt_now();
    }
    int64_t now = hs_rt_now();
    while (now < deadline) now = hs_rt_now();
    return now;
}

int hs_rt_late_cause(const hs_rt_tick_times *t, int64_t late_ns)
{
    if (t->start - t->deadline <= late_ns) return HS_RT_ON_TIME;
    if (t->prev_end >= t->deadline) return t->prev_late > late_ns ? HS_RT_CATCH_UP : HS_RT_OVERRAN;
    if (t->woke >= 0 && t->woke > t->deadline) return HS_RT_WAKE_LATE;
    return HS_RT_PREEMPTED;
}

const char *hs_rt_cause_name(int cause)
{
    static const char *const names[HS_RT_NCAUSES] = {"on time", "wake-up late", "work overran",
                                                     "catch-up", "preempted"};
    return cause >= 0 && cause < HS_RT_NCAUSES ? names[cause] : "?";
}
