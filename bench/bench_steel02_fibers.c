/* Steel02 over fiber arrays (src/model/material_fibers.h): the kernels this processor runs
 * (hs_steel02_kernels: on x86-64 with AVX2 and FMA the lanes of four fibers and glibc's vector
 * pow over the call's packed curve lanes, four lanes a pow or, with AVX-512F, eight:
 * src/model/material_steel02_mvec.c) against the baseline measured in the same run, the scalar
 * kernel with glibc's scalar pow one fiber at a time (hs_steel02_fibers_scalar, what a processor
 * without AVX2 runs), for n fibers a call: 3, 12, 50 (the 5 sections' 10 bars of an element of
 * bench/opensees/rc_frame_3x3.tcl in one call, as the frame runs them) and 315. The frame's bars
 * (fy 420 MPa, E0 200 GPa, b 0.01, R0 18), each fiber on its own cyclic history about a drift,
 * three trials a step (Newton) then the commit; the share of evaluations on the curve (that need
 * the pows) is printed. Alternated rounds, medians; prints ns a fiber evaluation and the ratio of
 * the scalar kernel's to the law's entry's (the last column).
 * Usage: bench_steel02_fibers [evaluations a case] (default 3000000). */
#include "hysim/hysim.h"

#include "../src/model/material_fibers.h"
#include "../src/model/material_steel02_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAXN = 315, MAXS = 16, ROUNDS = 5 };

typedef void kernel_fn(const void *params, size_t n, size_t ld, const double *strain,
                       const double *committed, double *trial, double *stress, double *tangent);

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* fiber i's strain at step k in yield strains: small vibrations about the last excursion past
 * yield, which comes now and then */
static double history(size_t i, long k)
{
    const double x = (double)k, w = 0.011 * (1.0 + 0.07 * (double)(i % 13));
    const double big = pow(fabs(sin(0.09 * w * x + 0.5 * (double)i)), 301.0);
    return 0.02 * sin(w * x + 0.5 * (double)i) + 1.6 * big;
}

/* trial j of 3 at step k: Newton's iterates past the step's strain by 10 % and 1 % of its
 * increment, then the strain */
static double strain_at(size_t i, long k, int j)
{
    const double e = history(i, k), de = e - history(i, k - 1);
    return e + (j == 0 ? 0.1 : j == 1 ? 0.01 : 0.0) * de;
}

enum { TABLE = 1024 }; /* steps of strains computed beforehand, then again from the first */
static double table[TABLE][3][MAXN];

/* ns a fiber evaluation of kernel k on n fibers over steps steps (the strains of table) */
static double run(kernel_fn *k, const hs_fiber_law *law, const double *one, size_t n, long steps,
                  double *sink)
{
    static double c[MAXS * MAXN], t[MAXS * MAXN], s[MAXN], tg[MAXN];
    for (size_t v = 0; v < law->state_n; v++)
        for (size_t i = 0; i < n; i++) c[v * n + i] = one[v];
    const double t0 = now();
    for (long step = 0; step < steps; step++) {
        for (int j = 0; j < 3; j++) k(law->params, n, n, table[step % TABLE][j], c, t, s, tg);
        *sink += s[0] + tg[n - 1];
        memcpy(c, t, law->state_n * n * sizeof(double));
    }
    return 1e9 * (now() - t0) / (3.0 * (double)steps * (double)n);
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const long evals = argc > 1 ? atol(argv[1]) : 3000000;
    hs_options *o = NULL;
    hs_material *m = NULL;
    if (hs_options_create(&o)) return 1;
    hs_options_set_num(o, "fy", 420e6);
    hs_options_set_num(o, "E0", 200e9);
    hs_options_set_num(o, "b", 0.01);
    hs_options_set_num(o, "R0", 18.0);
    if (hs_material_create(NULL, "steel02", o, &m)) return 1;
    hs_options_destroy(&o);
    hs_fiber_law law;
    double one[MAXS], sink = 0.0;
    if (!hs_material_fiber_law(m, &law, one) || law.state_n > MAXS || !law.rows) return 1;
    printf("# Steel02 over fiber arrays, ns a fiber evaluation (medians of %d alternated rounds, "
           "%ld evaluations a case)\n",
           ROUNDS, evals);
    s2_kernel_fn *kernel[3];
    const char *name[3];
    const size_t nk = hs_steel02_kernels(kernel, name);
    if (kernel[nk - 1] != law.trial) return 1;
    printf("| fibers a call |");
    for (size_t q = 0; q < nk; q++) printf(" %s%s |", name[q], q + 1 == nk ? " (entry)" : "");
    printf(" ratio |\n|---|");
    for (size_t q = 0; q <= nk; q++) printf("---|");
    printf("\n");
    const size_t ns[] = {3, 12, 50, 315};
    for (size_t c = 0; c < sizeof ns / sizeof ns[0]; c++) {
        const size_t n = ns[c];
        const long steps = evals / (3 * (long)n);
        for (long step = 0; step < TABLE; step++)
            for (int j = 0; j < 3; j++)
                for (size_t i = 0; i < n; i++)
                    table[step][j][i] = 420e6 / 200e9 * strain_at(i, step, j);
        double a[3][ROUNDS];
        for (int r = 0; r < ROUNDS; r++)
            for (size_t q = 0; q < nk; q++) a[q][r] = run(kernel[q], &law, one, n, steps, &sink);
        printf("| %zu |", n);
        for (size_t q = 0; q < nk; q++) {
            qsort(a[q], ROUNDS, sizeof a[q][0], cmp);
            printf(" %.1f |", a[q][ROUNDS / 2]);
        }
        printf(" %.2f |\n", a[0][ROUNDS / 2] / a[nk - 1][ROUNDS / 2]);
    }
    /* the share on the curve, once, with the entry */
    {
        static double c[MAXS * MAXN], t[MAXS * MAXN], e[MAXN], s[MAXN], tg[MAXN];
        const size_t n = 50;
        long on_curve = 0, all = 0;
        for (size_t v = 0; v < law.state_n; v++)
            for (size_t i = 0; i < n; i++) c[v * n + i] = one[v];
        for (long step = 0; step < 20000; step++) {
            for (size_t i = 0; i < n; i++) e[i] = 420e6 / 200e9 * strain_at(i, step, 2);
            law.trial(law.params, n, n, e, c, t, s, tg);
            for (size_t i = 0; i < n; i++) { /* |x| >= x_lin (the state's rows 1, 7, 9, 14) */
                const double x = (t[n + i] - t[9 * n + i]) / (t[7 * n + i] - t[9 * n + i]);
                on_curve += fabs(x) >= t[14 * n + i];
            }
            all += (long)n;
            memcpy(c, t, law.state_n * n * sizeof(double));
        }
        printf("# %.0f %% of the evaluations on the curve (the pows); check %.6g\n",
               100.0 * (double)on_curve / (double)all, sink);
    }
    hs_material_destroy(&m);
    return 0;
}
