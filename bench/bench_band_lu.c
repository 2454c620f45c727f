/* The dense/band choice of the linear solver (linsolver.c, ls_band_pays), measured: one factor
 * and one solve of an n x n band matrix of half-bandwidth kd given in packed band storage (the
 * Newton path: hs_linsolver_factor_packed), through the kind "dense" (dpotf2 and two dtrsv where
 * symmetric to round-off and positive-definite, dgetrf/dgetrs otherwise: linsolver_dense.c) and
 * the kind "banded" (dpbtrf/dpbtrs on a band symmetric to round-off and positive-definite,
 * dgbtrf/dgbtrs on a general one, dpttrf/dgttrf for kd = 1), on three matrices: `spd`
 * (symmetric, diagonally dominant), `near` (the same but not symmetric to the last bit) and `lu`
 * (entries in [-1, 1]: row exchanges happen). Each solve is checked
 * (relative residual, and the two kinds' solutions compared).
 * Under callgrind (bench/band_lu_callgrind.sh) each measured factor and solve is one dump named
 * "n kd matrix kind" (instructions: deterministic on a loaded machine); without it, the least CPU
 * time of `reps` repetitions and the ratio banded / dense in the same run.
 * Usage: bench_band_lu [reps] [n kd]... (default: a grid of n = 4..200 and kd = 1..n-1). */
#include "hysim/hysim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <valgrind/callgrind.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The band (packed, half-bandwidth kd) of the test matrix: SPD (symmetric, dominant diagonal),
 * NEAR (the same, its upper triangle off by 1e-15 relative: a structure's tangent that is not
 * symmetric to the last bit; LU without row exchanges) or LU (entries in [-1, 1]). */
enum { SPD, NEAR, LU };
static const char *const mat_name[] = {"spd", "near", "lu"};
static void fill(int n, int kd, int mat, double *B)
{
    unsigned s = 12345u + (unsigned)(n * 1000 + kd);
    for (int j = 0; j < n; j++)
        for (int i = j - kd > 0 ? j - kd : 0; i <= j + kd && i < n; i++) {
            s = s * 1103515245u + 12345u;
            const double r = (double)(s >> 8) / (double)(1u << 24) * 2.0 - 1.0;
            const double a =
                i == j ? 2.0 * kd + 2.0 : -1.0 / (1.0 + (double)((i < j ? i : j) % 7 + abs(i - j)));
            HS_BAND_AT(B, kd, i, j) = mat == LU ? r : mat == NEAR && i < j ? a * (1 + 1e-15) : a;
        }
}

/* One factor and solve through kind; the solution in x (b on entry), the least CPU time over
 * reps (0 under callgrind: one dump instead). */
static double measure(hs_ctx *ctx, const char *kind, int n, int kd, const double *B,
                      const double *b, double *x, int reps, const char *label)
{
    hs_linsolver *s = NULL;
    if (hs_linsolver_create_band(ctx, kind, n, kd, &s)) return -1.0;
    double best = 1e30;
    for (int r = 0; r < (RUNNING_ON_VALGRIND ? 2 : reps + 1); r++) { /* the first warms up */
        for (int i = 0; i < n; i++) x[i] = b[i];
        const int last = r > 0 && RUNNING_ON_VALGRIND;
        if (last) CALLGRIND_ZERO_STATS;
        const double t0 = now();
        const int rc = hs_linsolver_factor_packed(s, kd, B) || hs_linsolver_solve(s, x);
        const double t = now() - t0;
        if (last) CALLGRIND_DUMP_STATS_AT(label);
        if (rc) {
            hs_linsolver_destroy(&s);
            return -1.0;
        }
        if (r > 0 && t < best) best = t;
    }
    hs_linsolver_destroy(&s);
    return RUNNING_ON_VALGRIND ? 0.0 : best;
}

static int run(hs_ctx *ctx, int n, int kd, int reps)
{
    const size_t nb = HS_BAND_LD(kd) * (size_t)n;
    double *B = calloc(nb, sizeof *B), *b = calloc((size_t)n, sizeof *b),
           *x = calloc((size_t)n, sizeof *x), *y = calloc((size_t)n, sizeof *y),
           *r = calloc((size_t)n, sizeof *r);
    int bad = !B || !b || !x || !y || !r;
    for (int mat = SPD; !bad && mat <= LU; mat++) {
        fill(n, kd, mat, B);
        for (int i = 0; i < n; i++) b[i] = 1.0 + (double)(i % 5);
        char ld[64], lb[64];
        snprintf(ld, sizeof ld, "%d %d %s dense", n, kd, mat_name[mat]);
        snprintf(lb, sizeof lb, "%d %d %s banded", n, kd, mat_name[mat]);
        const double td = measure(ctx, "dense", n, kd, B, b, x, reps, ld);
        const double tb = measure(ctx, "banded", n, kd, B, b, y, reps, lb);
        hs_packed_matvec(n, kd, B, y, r);
        double res = 0.0, nb2 = 0.0, diff = 0.0, nx = 0.0;
        for (int i = 0; i < n; i++) {
            res += (r[i] - b[i]) * (r[i] - b[i]);
            nb2 += b[i] * b[i];
            diff = fmax(diff, fabs(x[i] - y[i]));
            nx = fmax(nx, fabs(x[i]));
        }
        if (td < 0 || tb < 0 || !(sqrt(res / nb2) < 1e-10)) {
            fprintf(stderr, "bench_band_lu: n %d kd %d %s failed (residual %.3g)\n", n, kd,
                    mat_name[mat], sqrt(res / nb2));
            bad = 1;
        } else if (!RUNNING_ON_VALGRIND) {
            printf("%4d %4d %-4s %10.3f %10.3f %6.2f %9.2e\n", n, kd, mat_name[mat], td * 1e6,
                   tb * 1e6, tb / td, diff / nx);
        }
    }
    free(B);
    free(b);
    free(x);
    free(y);
    free(r);
    return bad;
}

int main(int argc, char **argv)
{
    hs_ctx *ctx = NULL;
    if (hs_ctx_create(&ctx)) return 1;
    const int reps = argc > 1 ? atoi(argv[1]) : 200;
    int bad = 0;
    if (!RUNNING_ON_VALGRIND) printf("#  n   kd  mat  dense_us  banded_us  ratio  max|dx|/|x|\n");
    if (argc > 3) {
        for (int a = 2; a + 1 < argc; a += 2)
            bad |= run(ctx, atoi(argv[a]), atoi(argv[a + 1]), reps);
    } else {
        static const int ns[] = {4,  5,  6,  8,  10, 12, 14,  16,  20,  24, 30,
                                 36, 40, 48, 60, 72, 90, 100, 120, 150, 200};
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            const int n = ns[k];
            int last = 0;
            for (int kd = 1; kd < n; kd += kd < 8 ? 1 : kd < 24 ? 2 : kd < 60 ? 6 : 20)
                bad |= run(ctx, n, last = kd, reps);
            if (last != n - 1) bad |= run(ctx, n, n - 1, reps);
        }
    }
    hs_ctx_destroy(&ctx);
    return bad;
}
