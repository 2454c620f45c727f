/* Factor and solve times of the linear-solver kinds on the effective stiffness of 2-D frames
 * (K + 4/dt^2 M, Newmark's with dt = 0.01 s: symmetric positive-definite) of about 1k, 2k, 5k
 * and 20k DOFs: a grid of beam-column nodes (3 DOFs each: ux, uy, rz), elastic beams (5 m) and
 * columns (3.5 m), lumped masses, fixed base, numbered floor by floor (the band of a frame: about
 * 3 nodes-per-floor). Two shapes per size: 10 bays (a tall frame, narrow band) and as many bays as
 * floors (a wide band). Kinds: `banded` (LAPACK dpbtrf/dpbtrs on packed band storage, the path
 * integrators use), `dense` (LAPACK dgetrf/dgetrs, up to 2000 DOFs), `cholmod` and `klu`
 * (SuiteSparse; the analysis timed apart, then numeric refactors of the same pattern). Each time
 * is the mean over repetitions for at least `seconds` of CPU; ratios are banded / sparse in the
 * same run. Every solve is checked (relative residual printed).
 * Usage: bench_sparse [seconds per measurement] */
#include "hysim/hysim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct frame {
    int bays, floors, n;
    hs_csc *K; /* effective stiffness */
} frame;

/* DOF of node (column c, floor f >= 1), or -1 at the fixed base. */
static int dof(const frame *fr, int c, int f, int k)
{
    return f == 0 ? -1 : 3 * ((f - 1) * (fr->bays + 1) + c) + k;
}

/* Adds the 2-D elastic beam-column between nodes a and b (global coordinates) to the triplets. */
static int add_element(const frame *fr, int ca, int fa, int cb, int fb, double L, double cx,
                       double cy, int *ti, int *tj, double *tx, int nt)
{
    const double E = 200e6, A = 0.01, I = 1e-4; /* kN/m^2, m^2, m^4 */
    const double ea = E * A / L, k12 = 12 * E * I / (L * L * L), k6 = 6 * E * I / (L * L),
                 k4 = 4 * E * I / L, k2 = 2 * E * I / L;
    const double kl[6][6] = {{ea, 0, 0, -ea, 0, 0},       {0, k12, k6, 0, -k12, k6},
                             {0, k6, k4, 0, -k6, k2},     {-ea, 0, 0, ea, 0, 0},
                             {0, -k12, -k6, 0, k12, -k6}, {0, k6, k2, 0, -k6, k4}};
    const double T[6][6] = {{cx, cy, 0, 0, 0, 0}, {-cy, cx, 0, 0, 0, 0}, {0, 0, 1, 0, 0, 0},
                            {0, 0, 0, cx, cy, 0}, {0, 0, 0, -cy, cx, 0}, {0, 0, 0, 0, 0, 1}};
    int d[6];
    for (int k = 0; k < 3; k++) {
        d[k] = dof(fr, ca, fa, k);
        d[3 + k] = dof(fr, cb, fb, k);
    }
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            if (d[i] < 0 || d[j] < 0) continue;
            double v = 0.0; /* (T' kl T)(i, j) */
            for (int p = 0; p < 6; p++)
                for (int q = 0; q < 6; q++) v += T[p][i] * kl[p][q] * T[q][j];
            ti[nt] = d[i], tj[nt] = d[j], tx[nt++] = v;
        }
    return nt;
}

static int frame_build(int bays, int floors, frame *fr)
{
    fr->bays = bays;
    fr->floors = floors;
    fr->n = 3 * (bays + 1) * floors;
    const int elements = floors * (bays + 1) + floors * bays;
    const int cap = 36 * elements + fr->n;
    int *ti = malloc((size_t)cap * sizeof *ti), *tj = malloc((size_t)cap * sizeof *tj);
    double *tx = malloc((size_t)cap * sizeof *tx);
    int nt = 0;
    for (int f = 1; f <= floors; f++)
        for (int c = 0; c <= bays; c++) {
            nt = add_element(fr, c, f - 1, c, f, 3.5, 0.0, 1.0, ti, tj, tx, nt); /* column */
            if (c < bays) nt = add_element(fr, c, f, c + 1, f, 5.0, 1.0, 0.0, ti, tj, tx, nt);
        }
    const double a0 = 4.0 / (0.01 * 0.01), m = 10.0, mr = 0.05; /* t, t m^2 */
    for (int i = 0; i < fr->n; i++) ti[nt] = tj[nt] = i, tx[nt++] = a0 * (i % 3 == 2 ? mr : m);
    const int rc = hs_csc_from_triplets(NULL, fr->n, fr->n, nt, ti, tj, tx, &fr->K);
    free(ti), free(tj), free(tx);
    return rc;
}

typedef struct timing {
    double analyse, factor, solve, residual;
} timing;

static double relative_residual(const hs_csc *A, const double *x, const double *b)
{
    double *r = malloc((size_t)A->nrows * sizeof *r);
    hs_csc_matvec(A, x, r);
    double num = 0.0, den = 0.0;
    for (int i = 0; i < A->nrows; i++) {
        num = fmax(num, fabs(r[i] - b[i]));
        den = fmax(den, fabs(b[i]));
    }
    free(r);
    return num / den;
}

/* Times the kind on K: analysis (sparse kinds: create; others: create), factor, solve. */
static int measure(const char *kind, const frame *fr, double seconds, timing *t)
{
    const int n = fr->n, kd = hs_csc_bandwidth(fr->K);
    double *b = malloc((size_t)n * sizeof *b), *x = malloc((size_t)n * sizeof *x), *src = NULL;
    for (int i = 0; i < n; i++) b[i] = sin(0.37 * i) + (i % 3 == 0);
    const int banded = strcmp(kind, "banded") == 0, dense = strcmp(kind, "dense") == 0;
    if (banded) { /* packed band storage, as the integrators keep it */
        src = calloc(HS_BAND_LD(kd) * (size_t)n, sizeof *src);
        for (int j = 0; j < n; j++)
            for (int p = fr->K->colptr[j]; p < fr->K->colptr[j + 1]; p++)
                HS_BAND_AT(src, kd, fr->K->rowind[p], j) = fr->K->val[p];
    } else if (dense) {
        src = malloc((size_t)n * (size_t)n * sizeof *src);
        hs_csc_to_dense(fr->K, src);
    }
    hs_linsolver *s = NULL;
    double t0 = now();
    int rc = banded  ? hs_linsolver_create_band(NULL, "banded", n, kd, &s)
             : dense ? hs_linsolver_create(NULL, "dense", n, &s)
                     : hs_linsolver_create_sparse(NULL, kind, fr->K, &s);
    t->analyse = now() - t0;
    int reps = 0;
    t0 = now();
    do {
        rc = rc       ? rc
             : banded ? hs_linsolver_factor_packed(s, kd, src)
             : dense  ? hs_linsolver_factor(s, src)
                      : hs_linsolver_factor_csc(s, fr->K);
        reps++;
    } while (!rc && now() - t0 < seconds);
    t->factor = (now() - t0) / reps;
    reps = 0;
    t0 = now();
    do {
        memcpy(x, b, (size_t)n * sizeof *x);
        if (!rc) rc = hs_linsolver_solve(s, x);
        reps++;
    } while (!rc && now() - t0 < seconds);
    t->solve = (now() - t0) / reps;
    t->residual = rc ? NAN : relative_residual(fr->K, x, b);
    hs_linsolver_destroy(&s);
    free(b), free(x), free(src);
    return rc;
}

int main(int argc, char **argv)
{
    const double seconds = argc > 1 ? atof(argv[1]) : 0.2;
    const int sizes[] = {1000, 2000, 5000, 20000};
    printf("# CPU ms per call; ratio = banded time / the kind's time (> 1: the kind is faster)\n");
    printf("%6s %5s %6s %4s %8s | %-7s %9s %9s %9s %7s %7s %8s\n", "DOF", "bays", "floors", "kd",
           "nnz", "kind", "analyse", "factor", "solve", "f ratio", "s ratio", "residual");
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (int shape = 0; shape < 2; shape++) {
            int bays = 10;
            if (shape == 1) bays = (int)lround(sqrt(sizes[z] / 3.0)) - 1;
            const int floors = (int)lround(sizes[z] / (3.0 * (bays + 1)));
            frame fr = {0};
            if (frame_build(bays, floors, &fr)) return 1;
            const char *kinds[] = {"banded", "dense", "cholmod", "klu"};
            timing ref = {0};
            for (size_t k = 0; k < 4; k++) {
                if (k == 1 && fr.n > 2000) continue; /* dense: 2/3 n^3 flops */
                timing t;
                if (measure(kinds[k], &fr, seconds, &t)) {
                    fprintf(stderr, "bench_sparse: %s failed on %d DOFs\n", kinds[k], fr.n);
                    return 1;
                }
                if (k == 0) ref = t;
                printf("%6d %5d %6d %4d %8d | %-7s %9.3f %9.3f %9.4f %7.2f %7.2f %8.1e\n", fr.n,
                       bays, floors, hs_csc_bandwidth(fr.K), hs_csc_nnz(fr.K), kinds[k],
                       1e3 * t.analyse, 1e3 * t.factor, 1e3 * t.solve, ref.factor / t.factor,
                       ref.solve / t.solve, t.residual);
                fflush(stdout);
            }
            hs_csc_destroy(&fr.K);
        }
    return 0;
}
