/* The cost of an experimental setup per controller tick (docs/setups.md): the LBCB's six
 * actuators (include/hysim/setup.h) with exact geometry, at poses along a three-axis motion:
 *
 *  - strokes:  the inverse kinematics of one command (closed form; the baseline);
 *  - pose:     the forward kinematics of one measurement (Gauss-Newton, warm-started from the
 *              last tick's pose, as the site does every tick);
 *  - forces:   the control point's force and moment resultant;
 *  - tick:     all three, what a site adds per tick, against the tick of 4096 Hz (244 us).
 *
 * Each row: the median and p99 of 20,000 timings (ns), its ratio to the strokes row, and the
 * tick row's share of a 4096 Hz tick. Figures only: nothing is asserted. */
#include "../tests/support/hs_lbcb.h" /* the tests' LBCB */
#include "hysim/setup.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 20000

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void row(const char *name, double *t, double base)
{
    qsort(t, N, sizeof *t, cmp);
    const double p50 = t[N / 2], p99 = t[(size_t)(0.99 * N)];
    printf("%-8s p50 %8.0f ns  p99 %8.0f ns  ratio to strokes %6.2f  share of a 4096 Hz tick "
           "%.4f\n",
           name, p50, p99, base > 0 ? p50 / base : 1.0, p99 / (1e9 / 4096.0));
}

int main(void)
{
    hs_setup_geometry g = hs_test_lbcb(1);
    hs_setup *s = NULL;
    if (hs_setup_create(NULL, &g, &s)) return 1;
    static double ts[N], tp[N], tf[N], tt[N];
    double q[6], x[6], qm[6] = {0}, f[6] = {10, -20, 5, 7, -3, 11}, p[6], sink = 0.0;
    for (int k = 0; k < N; k++) {
        const double t = k / 4096.0;
        for (int j = 0; j < 6; j++) q[j] = 0.05 * sin(2.0 * 3.14159265 * (0.3 + 0.1 * j) * t);
        double t0 = now_ns();
        hs_setup_strokes(s, q, x);
        double t1 = now_ns();
        hs_setup_pose(s, x, qm);
        double t2 = now_ns();
        hs_setup_forces(s, qm, f, p);
        double t3 = now_ns();
        ts[k] = t1 - t0;
        tp[k] = t2 - t1;
        tf[k] = t3 - t2;
        tt[k] = t3 - t0;
        sink += p[0] + qm[0];
    }
    qsort(ts, N, sizeof *ts, cmp);
    const double base = ts[N / 2];
    printf("bench_setup: the LBCB (6 actuators, 6 DOFs, exact geometry), %d ticks\n", N);
    row("strokes", ts, base);
    row("pose", tp, base);
    row("forces", tf, base);
    row("tick", tt, base);
    hs_setup_destroy(&s);
    return sink == 12345.0;
}
