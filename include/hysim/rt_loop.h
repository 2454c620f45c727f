/* hysim real-time loop: what a periodic loop on CLOCK_MONOTONIC needs to run on time on a
 * general-purpose Linux kernel, as real-time test tools (cyclictest) do it:
 *
 *   - hs_rt_acquire: SCHED_FIFO, mlockall and a PM QoS request on /dev/cpu_dma_latency (0 us,
 *     held open for the loop's life, so the cores do not enter deep idle states), each granted or
 *     refused with the reason;
 *   - hs_rt_calibrate / hs_rt_spin_margin: the spin margin chosen from the measured wake-up
 *     latency (sleep one period N times, a high percentile of the lateness, bounded);
 *   - hs_rt_wait: sleep (clock_nanosleep, TIMER_ABSTIME) until `spin` before a deadline, then
 *     spin to it;
 *   - hs_rt_late_cause: why a tick started late, from its time stamps (pure: tested in virtual
 *     time).
 * Times are int64 nanoseconds on CLOCK_MONOTONIC. See docs/site_server.md, "The controller
 * loop". */
#ifndef HYSIM_RT_LOOP_H
#define HYSIM_RT_LOOP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bounds of a calibrated spin margin (ns); it is also at most half the period. */
#define HS_RT_SPIN_MIN_NS 20000
#define HS_RT_SPIN_MAX_NS 1000000
/* The fixed margin the loop used before calibration, kept as the benchmark's baseline. */
#define HS_RT_SPIN_FIXED_NS 100000
/* The percentile of the wake-up latency the margin covers, and the guard added to it (the time
 * from the wake-up to the spin's first clock read). */
#define HS_RT_SPIN_PERCENTILE 0.99
#define HS_RT_SPIN_GUARD_NS   10000

int64_t hs_rt_now(void); /* CLOCK_MONOTONIC, ns */

/* What the system granted the loop's thread. */
typedef struct hs_rt_grants {
    int fifo;       /* SCHED_FIFO granted */
    int locked;     /* mlockall(MCL_CURRENT | MCL_FUTURE) granted */
    int latency;    /* a 0 us PM QoS request held on /dev/cpu_dma_latency */
    int latency_fd; /* its file descriptor (-1: none); closing it withdraws the request */
    char fifo_why[160], lock_why[160], latency_why[160]; /* the reason of each refusal, "" */
} hs_rt_grants;

/* Asks for all three (want = 0: for none, each reason says so). Called from the loop's thread.
 * Never fails: a refusal is recorded with its reason. */
void hs_rt_acquire(hs_rt_grants *g, int want);
/* Withdraws the latency request (the scheduling class and locked memory stay). */
void hs_rt_release(hs_rt_grants *g);

/* The spin margin (ns) for the wake-up latencies lat[0..n) (ns, sorted in place): the
 * HS_RT_SPIN_PERCENTILE quantile (nearest rank) plus HS_RT_SPIN_GUARD_NS, bounded to
 * [HS_RT_SPIN_MIN_NS, min(HS_RT_SPIN_MAX_NS, period_ns / 2)]. n = 0: the upper bound. */
int64_t hs_rt_spin_margin(int64_t *lat, size_t n, int64_t period_ns);
/* The nearest-rank quantile p (0..1) of sorted v[0..n) (0 when n = 0). */
int64_t hs_rt_quantile(const int64_t *sorted, size_t n, double p);
/* Sleeps n times for one period (absolute deadlines, as the loop does) and stores each
 * wake-up's lateness in lat[0..n) (ns, sorted on return); returns hs_rt_spin_margin. */
int64_t hs_rt_calibrate(int64_t period_ns, int64_t *lat, size_t n);

/* The margin for the next tick: `spin` while the loop's work is active (quiet, the ticks since the
 * last active one, at most `grace`), 0 otherwise (sleep to the deadline: an idle loop spends no
 * core spinning). */
int64_t hs_rt_spin_gate(int64_t spin, int64_t quiet, int64_t grace);

/* Sleeps until deadline - spin (when that is still ahead), then spins to the deadline. Returns
 * the start time (>= deadline); *woke is the time the sleep returned, or -1 when the loop did
 * not sleep. */
int64_t hs_rt_wait(int64_t deadline, int64_t spin, int64_t *woke);

/* Why a tick started late. */
enum {
    HS_RT_ON_TIME = 0,   /* start - deadline <= late */
    HS_RT_WAKE_LATE = 1, /* the sleep returned after the deadline: the wake-up latency
                            exceeded the spin margin (deep idle state, timer slack) */
    HS_RT_OVERRAN = 2,   /* the previous tick, itself on time, ended after this deadline: its
                            work took longer than the time left in its period */
    HS_RT_CATCH_UP = 3,  /* the previous tick was itself late and ended after this deadline:
                            a back-to-back tick of the catch-up after an earlier late one */
    HS_RT_PREEMPTED = 4, /* the loop was ready before the deadline (woke in time, or did not
                            need to sleep) yet started late: preempted while spinning, or
                            unknown */
    HS_RT_NCAUSES = 5
};

/* The time stamps of one tick (ns). */
typedef struct hs_rt_tick_times {
    int64_t deadline;
    int64_t woke;      /* the sleep returned (-1: the loop did not sleep) */
    int64_t start;     /* the tick's work began */
    int64_t prev_end;  /* the previous tick's work ended (the loop's start for the first) */
    int64_t prev_late; /* the previous tick's start - deadline (0 for the first) */
} hs_rt_tick_times;

/* HS_RT_ON_TIME or the cause of a late start (start - deadline > late_ns), judged in the order
 * catch-up, overran (the loop arrived after the deadline), wake-up late, preempted. */
int hs_rt_late_cause(const hs_rt_tick_times *t, int64_t late_ns);
const char *hs_rt_cause_name(int cause); /* "wake-up late", ... */

#ifdef __cplusplus
}
#endif
#endif
