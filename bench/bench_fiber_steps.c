/* The distribution of the step times of the fiber frame of issue 18, item 7 (p99 below 50 % of
 * dt at 1024 Hz on one core): bench/opensees/rc_frame_3x3.tcl (21 forceBeamColumn members of 5
 * Lobatto points and 62 fibers, Concrete02 and Steel02; gravity first) and its dynamic analysis
 * HHT (alpha 0.9) with Newton at dt = 1/1024 s, run as `hysim run` runs the script's own
 * analysis (the same script as bench/rc_frame_compare.sh, without recorders). The wall time of
 * each step is the interval from one commit to the next (CLOCK_MONOTONIC, hs_os_live_set_probe),
 * over STEPS steps of the dynamic analysis (its first, which builds the analysis, left out). The
 * steps are paced as a lab's loop paces them: each starts on its tick of 1/1024 s (the probe
 * sleeps to it, absolute, and the step's time counts from the wake-up); `burst` runs them back to
 * back. The process is pinned to one CPU, with SCHED_FIFO (paced only: back to back, the
 * kernel's real-time throttling would stop it for 50 ms a second) and locked memory where the
 * system grants them (each said granted or refused). Prints p50, p99,
 * p99.9, the largest and the mean, each as a fraction of the 977 us budget, and the allocations
 * made during the steps (hs_alloc_count: the step allocates nothing).
 *
 * Usage: bench_fiber_steps [STEPS] [CPU] [burst] (4096 steps on the last CPU of the affinity
 * mask by default). Run it from a Release build on an idle machine; the load average is printed. */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include "hysim/hysim.h"
#include "hysim/rt_loop.h"

#include "../src/opensees/opensees_analysis.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef HS_BENCH_SOURCE_DIR
#define HS_BENCH_SOURCE_DIR "."
#endif

typedef struct stamps {
    int64_t *dur;     /* each step's time (ns): from the last commit (or the wake-up after it) */
    uint64_t *allocs; /* hs_alloc_count at each commit */
    size_t n, cap;    /* steps seen, room (the last cap are kept) */
    int paced;        /* 1: each step starts on the next tick of 1/1024 s, as a lab's loop */
    int64_t start, tick;
} stamps;

#define PERIOD_NS (1000000000LL / 1024)

/* At each commit: the step's time, then (paced) sleep to the next tick, absolute. */
static void stamp(void *user)
{
    stamps *s = user;
    const int64_t now = hs_rt_now();
    const size_t k = s->n++ % s->cap;
    s->dur[k] = s->start ? now - s->start : 0;
    s->allocs[k] = hs_alloc_count();
    if (s->paced) {
        s->tick = s->tick && s->tick + PERIOD_NS > now ? s->tick + PERIOD_NS : now + PERIOD_NS;
        const struct timespec ts = {(time_t)(s->tick / 1000000000LL),
                                    (long)(s->tick % 1000000000LL)};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
        }
    }
    s->start = hs_rt_now();
}

/* Copies a file of the source tree into dir. */
static int copy(const char *from, const char *dir, const char *name)
{
    char to[4096];
    snprintf(to, sizeof to, "%s/%s", dir, name);
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    char buf[8192];
    size_t k;
    int rc = in && out ? 0 : -1;
    while (!rc && (k = fread(buf, 1, sizeof buf, in)) > 0)
        rc = fwrite(buf, 1, k, out) == k ? 0 : -1;
    if (in) fclose(in);
    if (out && fclose(out)) rc = -1;
    if (rc) fprintf(stderr, "bench_fiber_steps: cannot copy %s to %s\n", from, to);
    return rc;
}

/* The frame's script and its dynamic analysis of `steps` steps, as rc_frame_compare.sh writes. */
static int write_script(const char *dir, int steps)
{
    char path[4096], from[4096];
    snprintf(from, sizeof from, "%s/bench/opensees/rc_frame_3x3.tcl", HS_BENCH_SOURCE_DIR);
    if (copy(from, dir, "frame.tcl")) return -1;
    snprintf(from, sizeof from, "%s/examples/opensees/ground_accel_g.txt", HS_BENCH_SOURCE_DIR);
    if (copy(from, dir, "ground_accel_g.txt")) return -1;
    snprintf(path, sizeof path, "%s/frame.tcl", dir);
    FILE *f = fopen(path, "a");
    if (!f) return -1;
    fprintf(f,
            "constraints Plain\nsystem BandGeneral\nnumberer RCM\n"
            "test NormDispIncr 1.0e-10 20\nalgorithm Newton\nintegrator HHT 0.9\n"
            "analysis Transient\n"
            "if {[analyze %d [expr {1.0 / 1024.0}]] != 0} { error \"the dynamic analysis "
            "failed\" }\n",
            steps);
    return fclose(f) ? -1 : 0;
}

static int cmp64(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const int steps = argc > 1 ? atoi(argv[1]) : 4096;
    const int burst = argc > 3 && strcmp(argv[3], "burst") == 0;
    if (steps < 100 || steps > 1000000) {
        fprintf(stderr, "usage: bench_fiber_steps [STEPS, 100 .. 1000000] [CPU] [burst]\n");
        return 2;
    }
    cpu_set_t set;
    int cpu = argc > 2 ? atoi(argv[2]) : -1;
    if (cpu < 0 && !sched_getaffinity(0, sizeof set, &set))
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET((size_t)c, &set)) cpu = c;
    CPU_ZERO(&set);
    CPU_SET((size_t)(cpu < 0 ? 0 : cpu), &set);
    const int pinned = sched_setaffinity(0, sizeof set, &set) == 0;
    hs_rt_grants g; /* back to back, SCHED_FIFO would meet the kernel's real-time throttling */
    hs_rt_acquire(&g, !burst);

    char dir[] = "/tmp/hs_bench_fiber_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    stamps s = {.cap = (size_t)steps, .paced = !burst};
    s.dur = calloc(s.cap, sizeof *s.dur);
    s.allocs = calloc(s.cap, sizeof *s.allocs);
    hs_ctx *ctx = NULL;
    int rc = s.dur && s.allocs && !hs_ctx_create(&ctx) ? write_script(dir, steps + 1) : -1;
    char script[4096];
    snprintf(script, sizeof script, "%s/frame.tcl", dir);
    if (!rc) {
        hs_os_live_set_probe(stamp, &s);
        rc = hs_opensees_script_run(ctx, script, dir);
        hs_os_live_set_probe(NULL, NULL);
        if (rc) fprintf(stderr, "bench_fiber_steps: %s\n", hs_ctx_message(ctx));
    }
    hs_rt_release(&g);
    const char *files[] = {"frame.tcl", "ground_accel_g.txt"};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, files[k]);
        unlink(path);
    }
    if (rmdir(dir)) fprintf(stderr, "bench_fiber_steps: could not remove %s\n", dir);
    if (!rc && s.n < s.cap + 1) rc = -1;
    if (!rc) {
        /* the last `steps` commits: the dynamic analysis' but its first (the analysis built) */
        int64_t *dt = calloc((size_t)steps, sizeof *dt);
        double sum = 0.0;
        const size_t first = s.n % s.cap;
        const uint64_t allocs = s.allocs[(first + s.cap - 1) % s.cap] - s.allocs[first];
        for (int k = 0; dt && k < steps; k++) {
            dt[k] = s.dur[k];
            sum += (double)dt[k];
        }
        if (dt) {
            qsort(dt, (size_t)steps, sizeof *dt, cmp64);
            const double budget = 1e9 / 1024.0;
            double load[3] = {0};
            if (getloadavg(load, 3) < 0) load[0] = -1.0;
            printf("# the fiber frame (rc_frame_3x3.tcl), HHT Newton at 1024 Hz, the script's own "
                   "analysis: %d steps %s; CPU %d %s; %s; %s; load average %.2f %.2f %.2f\n",
                   steps, burst ? "back to back" : "paced at 1024 Hz (each from its tick)", cpu,
                   pinned ? "pinned" : "not pinned (refused)", g.fifo ? "SCHED_FIFO" : g.fifo_why,
                   g.locked ? "memory locked" : g.lock_why, load[0], load[1], load[2]);
            printf("| %-8s | %9s | %11s |\n", "step", "us", "of 977 us");
            const char *name[] = {"p50", "p99", "p99.9", "max"};
            const double q[] = {0.5, 0.99, 0.999, 1.0};
            for (int k = 0; k < 4; k++) {
                const double us = (double)hs_rt_quantile(dt, (size_t)steps, q[k]) / 1e3;
                printf("| %-8s | %9.1f | %10.1f%% |\n", name[k], us, 100.0 * us * 1e3 / budget);
            }
            printf("| %-8s | %9.1f | %10.1f%% |\n", "mean", sum / steps / 1e3,
                   100.0 * sum / steps / budget);
            printf("allocations during the last %d steps: %llu\n", steps - 1,
                   (unsigned long long)allocs);
            printf("goal (issue 18, item 7): p99 below 50%% of the budget: %s\n",
                   (double)hs_rt_quantile(dt, (size_t)steps, 0.99) < 0.5 * budget ? "met"
                                                                                  : "NOT met");
        }
        free(dt);
        rc = dt ? 0 : -1;
    }
    hs_ctx_destroy(&ctx);
    free(s.dur);
    free(s.allocs);
    return rc ? 1 : 0;
}
