/* The dense solver (LAPACK's Cholesky when symmetric to round-off and positive-definite, else
 * dgetrf/dgetrs) on small matrices and the small systems of the elements (hs_small_solve,
 * hs_small_inverse: LAPACK without allocation, row-major) against solutions known in advance and
 * against LAPACK's dgesv:
 * - symmetric positive-definite B B^T + n I for n = 1 to 40 and 170 (the blocked dpotrf past
 *   160), its mirror entries apart by up to 2 eps sqrt(a_ii a_jj) (a tangent summed in another
 *   order): factored by Cholesky, x back to 1e-12 and equal to dgesv's to 1e-12 (the upper
 *   triangle's matrix, within 8 n eps of A); factor and solve allocate nothing;
 * - symmetric indefinite (a positive diagonal; LAPACK's dpotrf refuses it): Cholesky fails, LU
 *   solves it, x back to 1e-12 and equal to dgesv's to 1e-13;
 * - an SPD matrix with one mirror pair apart by 100 eps sqrt(a_ii a_jj): not symmetric to
 *   round-off, LU (dgesv's solution to 1e-13); apart by 4 eps: Cholesky;
 * - the same through a solver created for a sparse pattern (hs_linsolver_create_sparse, kind
 *   dense: symmetry tested over the pattern's entries, the upper triangle written alone): an SPD
 *   band-and-corner pattern (Cholesky), symmetric indefinite (LU), entries below and above the
 *   diagonal whose mirror is outside the pattern (0: Cholesky; 100 eps: LU), and a matrix of
 *   another pattern through the same solver; each against dgesv to 1e-12, no allocation;
 * - several right sides at once (hs_linsolver_solve_n: 1 to 5 sides; the dense Cholesky and LU,
 *   the band's symmetric and general factors, kd = 1 and 3, and the sparse kind): each column
 *   back to its known x to 1e-12 and equal to the one-side solve's to 1e-14, no allocation;
 * - for n = 1 to 40, a nonsymmetric matrix with a zero diagonal
 *   (every column must pivot) and random entries, b = A x for a known x: x back to 1e-12 (relative
 *   to its largest entry), and equal to dgesv's solution to 1e-13; solves never allocate;
 * - the second-difference matrix tridiag(-1, 2, -1), K x = ones: x_i = i (n + 1 - i) / 2;
 * - singular matrices (a zero column, two equal rows) are refused with HS_ESINGULAR;
 * - hs_small_solve with three right sides and hs_small_inverse on the same row-major matrices:
 *   A X = B back to 1e-12, A inv(A) = I to 1e-12, no allocation; a singular matrix gives -1. */
#include "hs_test.h"

#include "../src/base/linsolver_impl.h" /* s->spd: which factor was taken */

#include <lapacke.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { NMAX = 40 };

static double uniform(unsigned *seed) /* [-1, 1), an LCG: no libc dependence */
{
    *seed = *seed * 1664525u + 1013904223u;
    return (double)(*seed >> 8) / 8388608.0 - 1.0;
}

enum { NBIG = 170 };

/* x back from b = A x through the dense solver (asserted: the factor taken, spd 1 or 0), and
 * against dgesv's solution of the same A; both relative to x's largest entry; A is kept. */
static void solve_both(int n, const double *A, int spd, double *err, double *vs_lapack)
{
    static double L[NBIG * NBIG];
    double x[NBIG], b[NBIG], y[NBIG], z[NBIG];
    lapack_int ipiv[NBIG];
    unsigned seed = 99u + (unsigned)n;
    for (int i = 0; i < n; i++) x[i] = uniform(&seed) * pow(10.0, i % 3);
    hs_matvec(n, A, x, b);
    hs_linsolver *s = NULL;
    assert_int_equal(hs_linsolver_create(NULL, "dense", n, &s), 0);
    assert_int_equal(hs_linsolver_factor(s, A), 0); /* a first factor, then one counted */
    const uint64_t before = hs_alloc_count();
    assert_int_equal(hs_linsolver_factor(s, A), 0);
    assert_int_equal(s->spd, spd);
    memcpy(y, b, (size_t)n * sizeof(double));
    assert_int_equal(hs_linsolver_solve(s, y), 0);
    assert_true(hs_alloc_count() == before);
    hs_linsolver_destroy(&s);
    memcpy(L, A, (size_t)n * (size_t)n * sizeof(double));
    memcpy(z, b, (size_t)n * sizeof(double));
    assert_int_equal(LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, L, n, ipiv, z, n), 0);
    double xmax = 0.0, e = 0.0, el = 0.0;
    for (int i = 0; i < n; i++) {
        xmax = fmax(xmax, fabs(x[i]));
        e = fmax(e, fabs(y[i] - x[i]));
        el = fmax(el, fabs(y[i] - z[i]));
    }
    *err = fmax(*err, e / xmax);
    *vs_lapack = fmax(*vs_lapack, el / xmax);
}

static void test_random_against_lapack(void **state)
{
    (void)state;
    static double A[NMAX * NMAX];
    double worst = 0.0, vs_lapack = 0.0;
    unsigned seed = 21u;
    for (int n = 1; n <= NMAX; n++) {
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) HS_AT(A, n, i, j) = i == j ? 0.0 : uniform(&seed);
            if (n > 1) HS_AT(A, n, (j + 1) % n, j) += 4.0 * (j % 2 ? -1.0 : 1.0); /* regular */
        }
        if (n == 1) A[0] = -3.0; /* LU: a negative diagonal */
        solve_both(n, A, 0, &worst, &vs_lapack);
    }
    print_message("n = 1 to %d: x back to %.2g, against LAPACK's dgesv %.2g (relative)\n", NMAX,
                  worst, vs_lapack);
    assert_true(worst <= 1e-12);
    assert_true(vs_lapack <= 1e-13);
}

/* A = B B^T + n I (B uniform in [-1, 1)), then each mirror a_ij (i < j) moved by up to `asym`
 * sqrt(a_ii a_jj). */
static void spd_matrix(int n, unsigned seed, double asym, double *A)
{
    static double B[NBIG * NBIG];
    for (int k = 0; k < n * n; k++) B[k] = uniform(&seed);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double t = i == j ? (double)n : 0.0;
            for (int k = 0; k < n; k++) t += HS_AT(B, n, i, k) * HS_AT(B, n, j, k);
            HS_AT(A, n, i, j) = t;
        }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < j; i++)
            HS_AT(A, n, i, j) +=
                asym * uniform(&seed) * DBL_EPSILON * sqrt(HS_AT(A, n, i, i) * HS_AT(A, n, j, j));
}

static void test_spd_cholesky(void **state)
{
    (void)state;
    static double A[NBIG * NBIG];
    double err = 0.0, vs = 0.0;
    for (int n = 1; n <= NMAX + 1; n++) {
        const int m = n <= NMAX ? n : NBIG;
        spd_matrix(m, 5u + (unsigned)m, 0.0, A);
        solve_both(m, A, 1, &err, &vs);
        spd_matrix(m, 6u + (unsigned)m, 2.0, A); /* 2 eps apart: symmetric to round-off */
        solve_both(m, A, 1, &err, &vs);
    }
    print_message("SPD, n = 1 to %d and %d: x back to %.2g, against dgesv %.2g (relative)\n", NMAX,
                  NBIG, err, vs);
    assert_true(err <= 1e-12);
    assert_true(vs <= 1e-12);
}

static void test_indefinite_lu(void **state)
{
    (void)state;
    static double A[NMAX * NMAX], C[NMAX * NMAX];
    double err = 0.0, vs = 0.0;
    unsigned seed = 3u;
    for (int n = 2; n <= NMAX; n++) {
        for (int j = 0; j < n; j++) /* symmetric, diagonal 0.5, off-diagonal in [-1, 1) */
            for (int i = 0; i <= j; i++)
                HS_AT(A, n, i, j) = HS_AT(A, n, j, i) = i == j ? 0.5 : uniform(&seed);
        HS_AT(A, n, 0, 1) = HS_AT(A, n, 1, 0) = 1.0; /* the leading 2 x 2 block indefinite */
        memcpy(C, A, (size_t)n * (size_t)n * sizeof(double));
        assert_true(LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', n, C, n) > 0); /* not SPD */
        solve_both(n, A, 0, &err, &vs);
    }
    print_message("symmetric indefinite, n = 2 to %d: LU, x back to %.2g, against dgesv %.2g\n",
                  NMAX, err, vs);
    assert_true(err <= 1e-12);
    assert_true(vs <= 1e-13);
}

static void test_nonsymmetric_spd_lu(void **state)
{
    (void)state;
    static double A[NMAX * NMAX];
    double err = 0.0, vs = 0.0;
    const int n = 24;
    spd_matrix(n, 11u, 0.0, A);
    const double bound = sqrt(HS_AT(A, n, 3, 3) * HS_AT(A, n, 17, 17));
    HS_AT(A, n, 3, 17) += 100.0 * DBL_EPSILON * bound; /* beyond round-off: LU */
    solve_both(n, A, 0, &err, &vs);
    HS_AT(A, n, 3, 17) = HS_AT(A, n, 17, 3) + 4.0 * DBL_EPSILON * bound; /* within: Cholesky */
    solve_both(n, A, 1, &err, &vs);
    print_message("SPD with a mirror pair 100 eps / 4 eps apart: x back to %.2g, against dgesv "
                  "%.2g\n",
                  err, vs);
    assert_true(err <= 1e-12);
    assert_true(vs <= 1e-13);
}

/* Compressed columns of A over the entries where A or keep (n x n, 0/1) is nonzero. */
static hs_csc *csc_of(int n, const double *A, const double *keep)
{
    int ti[NMAX * NMAX], tj[NMAX * NMAX], nt = 0;
    double tx[NMAX * NMAX];
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if (HS_AT(A, n, i, j) != 0.0 || HS_AT(keep, n, i, j) != 0.0) {
                ti[nt] = i;
                tj[nt] = j;
                tx[nt++] = HS_AT(A, n, i, j);
            }
    hs_csc *C = NULL;
    assert_int_equal(hs_csc_from_triplets(NULL, n, n, nt, ti, tj, tx, &C), 0);
    return C;
}

/* A (dense, within P's pattern) through the solver s made for P: factor (spd 1 or 0 asserted),
 * solve, against dgesv on the dense A; no allocation. Returns the largest difference relative to
 * the solution's largest entry. */
static double pattern_solve(hs_linsolver *s, int n, const double *A, const hs_csc *C, int spd)
{
    static double L[NMAX * NMAX];
    double b[NMAX], y[NMAX];
    lapack_int ipiv[NMAX];
    for (int i = 0; i < n; i++) b[i] = 1.0 + 0.1 * i;
    memcpy(y, b, sizeof b);
    const uint64_t before = hs_alloc_count();
    assert_int_equal(hs_linsolver_factor_csc(s, C), 0);
    assert_int_equal(s->spd, spd);
    assert_int_equal(hs_linsolver_solve(s, y), 0);
    assert_true(hs_alloc_count() == before);
    memcpy(L, A, (size_t)n * (size_t)n * sizeof(double));
    assert_int_equal(LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, L, n, ipiv, b, n), 0);
    double xmax = 0.0, e = 0.0;
    for (int i = 0; i < n; i++) {
        xmax = fmax(xmax, fabs(b[i]));
        e = fmax(e, fabs(y[i] - b[i]));
    }
    return e / xmax;
}

static void test_pattern_solver(void **state)
{
    (void)state;
    enum { N = 30, KD = 3 };
    static double A[N * N], keep[N * N];
    unsigned seed = 17u;
    for (int j = 0; j < N; j++) /* a band of 3 and the corners (N - 1, 0), (0, N - 1) */
        for (int i = 0; i < N; i++) {
            const int band = abs(i - j) <= KD || (i + j == N - 1 && abs(i - j) == N - 1);
            HS_AT(keep, N, i, j) = band;
            HS_AT(A, N, i, j) = 0.0;
        }
    HS_AT(keep, N, 20, 2) = 1.0; /* below the diagonal, its mirror (2, 20) outside the pattern */
    for (int j = 0; j < N; j++)  /* diagonally dominant, symmetric: SPD */
        for (int i = 0; i < j; i++)
            if (HS_AT(keep, N, i, j) != 0.0) HS_AT(A, N, i, j) = HS_AT(A, N, j, i) = uniform(&seed);
    for (int j = 0; j < N; j++) HS_AT(A, N, j, j) = 2.0 * KD + 3.0;
    HS_AT(keep, N, 3, 25) = 1.0; /* above the diagonal, its mirror (25, 3) outside the pattern */
    hs_csc *P = csc_of(N, A, keep);
    hs_linsolver *s = NULL;
    assert_int_equal(hs_linsolver_create_sparse(NULL, "dense", P, &s), 0);
    assert_string_equal(hs_linsolver_kind(s), "dense");
    double worst = pattern_solve(s, N, A, P, 1); /* SPD, the lonely entry 0: Cholesky */
    const double bound = sqrt(HS_AT(A, N, 2, 2) * HS_AT(A, N, 20, 20));
    HS_AT(A, N, 20, 2) = 100.0 * DBL_EPSILON * bound; /* its mirror a zero: not symmetric */
    hs_csc *C = csc_of(N, A, keep);
    worst = fmax(worst, pattern_solve(s, N, A, C, 0));
    hs_csc_destroy(&C);
    HS_AT(A, N, 20, 2) = 0.0;
    HS_AT(A, N, 3, 25) = 100.0 * DBL_EPSILON * sqrt(HS_AT(A, N, 3, 3) * HS_AT(A, N, 25, 25));
    C = csc_of(N, A, keep); /* above the diagonal, its mirror a zero: LU */
    worst = fmax(worst, pattern_solve(s, N, A, C, 0));
    hs_csc_destroy(&C);
    HS_AT(A, N, 3, 25) = 0.0;
    HS_AT(A, N, 1, 0) += 2.0 * DBL_EPSILON * sqrt(HS_AT(A, N, 0, 0) * HS_AT(A, N, 1, 1));
    C = csc_of(N, A, keep); /* a mirror pair 2 eps apart: Cholesky */
    worst = fmax(worst, pattern_solve(s, N, A, C, 1));
    hs_csc_destroy(&C);
    HS_AT(A, N, 1, 0) = HS_AT(A, N, 0, 1);
    HS_AT(A, N, 4, 4) = -1.0; /* a negative diagonal: indefinite, LU */
    C = csc_of(N, A, keep);
    worst = fmax(worst, pattern_solve(s, N, A, C, 0));
    hs_csc_destroy(&C);
    HS_AT(A, N, 4, 4) = 0.5; /* positive diagonal, indefinite: the Cholesky fails, LU */
    HS_AT(A, N, 4, 5) = HS_AT(A, N, 5, 4) = 4.0;
    C = csc_of(N, A, keep);
    worst = fmax(worst, pattern_solve(s, N, A, C, 0));
    hs_csc_destroy(&C);
    HS_AT(A, N, 4, 4) = 2.0 * KD + 3.0; /* SPD again, with an entry outside the pattern: the */
    HS_AT(A, N, 4, 5) = HS_AT(A, N, 5, 4) = 0.5; /* dense path */
    HS_AT(A, N, 10, 25) = HS_AT(A, N, 25, 10) = 0.25;
    C = csc_of(N, A, keep);
    worst = fmax(worst, pattern_solve(s, N, A, C, 1));
    hs_csc_destroy(&C);
    hs_linsolver_destroy(&s);
    hs_csc_destroy(&P);
    print_message("dense solver of a pattern: against dgesv %.2g (relative)\n", worst);
    assert_true(worst <= 1e-12);
}

/* A X = B for nrhs sides through a solver of `kind` (kd: its band) on A (n x n, band kd). */
static void sides_check(const char *kind, int n, int kd, const double *A, double *worst_x,
                        double *worst_one)
{
    enum { M = 5 };
    double X[NMAX * M], B[NMAX * M], y[NMAX];
    unsigned seed = 41u;
    for (int k = 0; k < n * M; k++) X[k] = uniform(&seed);
    for (int c = 0; c < M; c++) hs_matvec(n, A, X + c * n, B + c * n);
    hs_linsolver *s = NULL;
    assert_int_equal(hs_linsolver_create_band(NULL, kind, n, kd, &s), 0);
    assert_int_equal(hs_linsolver_factor(s, A), 0);
    for (int nrhs = 1; nrhs <= M; nrhs++) {
        double Y[NMAX * M];
        memcpy(Y, B, (size_t)(n * nrhs) * sizeof(double));
        assert_int_equal(hs_linsolver_solve_n(s, nrhs, Y), 0); /* the first: sparse kinds */
        memcpy(Y, B, (size_t)(n * nrhs) * sizeof(double)); /* may allocate at their first solve */
        const uint64_t before = hs_alloc_count();
        assert_int_equal(hs_linsolver_solve_n(s, nrhs, Y), 0);
        assert_true(hs_alloc_count() == before);
        for (int c = 0; c < nrhs; c++) {
            memcpy(y, B + c * n, (size_t)n * sizeof(double));
            assert_int_equal(hs_linsolver_solve(s, y), 0);
            for (int i = 0; i < n; i++) {
                *worst_x = fmax(*worst_x, fabs(Y[c * n + i] - X[c * n + i]));
                *worst_one = fmax(*worst_one, fabs(Y[c * n + i] - y[i]));
            }
        }
    }
    hs_linsolver_destroy(&s);
}

static void test_several_sides(void **state)
{
    (void)state;
    enum { N = 12 };
    static double S[N * N], G[N * N];
    unsigned seed = 23u;
    for (int j = 0; j < N; j++) /* S: SPD of band 3; G: the same band, not symmetric */
        for (int i = 0; i < N; i++) {
            const int near = abs(i - j) <= 3;
            HS_AT(S, N, i, j) = i == j ? 8.0 : near ? 1.0 / (1.0 + i + j) : 0.0;
            HS_AT(G, N, i, j) = near ? uniform(&seed) + (i == j ? 4.0 : 0.0) : 0.0;
        }
    double worst_x = 0.0, worst_one = 0.0;
    sides_check("dense", N, N - 1, S, &worst_x, &worst_one);
    sides_check("dense", N, N - 1, G, &worst_x, &worst_one);
    sides_check("banded", N, 3, S, &worst_x, &worst_one);
    sides_check("banded", N, 3, G, &worst_x, &worst_one);
    sides_check("sparse", N, 3, S, &worst_x, &worst_one);
    static double T[N * N]; /* tridiagonal: the kd = 1 factors */
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) HS_AT(T, N, i, j) = abs(i - j) <= 1 ? HS_AT(S, N, i, j) : 0.0;
    sides_check("banded", N, 1, T, &worst_x, &worst_one);
    print_message("several sides: X back to %.2g, against one side at a time %.2g\n", worst_x,
                  worst_one);
    assert_true(worst_x <= 1e-12);
    assert_true(worst_one <= 1e-14);
}

static void test_second_difference(void **state)
{
    (void)state;
    for (int n = 2; n <= 32; n += 5) {
        double K[32 * 32] = {0}, y[32];
        for (int i = 0; i < n; i++) {
            HS_AT(K, n, i, i) = 2.0;
            if (i > 0) HS_AT(K, n, i, i - 1) = HS_AT(K, n, i - 1, i) = -1.0;
            y[i] = 1.0;
        }
        hs_linsolver *s = NULL;
        assert_int_equal(hs_linsolver_create(NULL, "dense", n, &s), 0);
        assert_int_equal(hs_linsolver_factor(s, K), 0);
        assert_int_equal(hs_linsolver_solve(s, y), 0);
        for (int i = 0; i < n; i++) HS_ASSERT_NEAR(y[i], (i + 1) * (n - i) / 2.0, 1e-12 * n * n);
        hs_linsolver_destroy(&s);
    }
}

static void test_singular(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    const double zero_col[9] = {1, 2, 3, 0, 0, 0, 4, 5, 7};
    const double equal_rows[9] = {1, 1, 2, 3, 3, 1, 5, 5, 4}; /* rows 1 and 2 equal */
    hs_linsolver *s = NULL;
    assert_int_equal(hs_linsolver_create(ctx, "dense", 3, &s), 0);
    assert_int_equal(hs_linsolver_factor(s, zero_col), HS_ESINGULAR);
    assert_int_equal(hs_linsolver_factor(s, equal_rows), HS_ESINGULAR);
    double b[3] = {1, 2, 3};
    assert_int_not_equal(hs_linsolver_solve(s, b), 0); /* not factored */
    hs_linsolver_destroy(&s);
    hs_ctx_destroy(&ctx);
}

static void test_small_row_major(void **state)
{
    (void)state;
    static double A[NMAX * NMAX], F[NMAX * NMAX], inv[NMAX * NMAX];
    double X[NMAX * 3], B[NMAX * 3], worst = 0.0, worst_inv = 0.0;
    unsigned seed = 7u;
    for (int n = 1; n <= NMAX; n++) {
        for (int i = 0; i < n; i++) /* row-major, nonsymmetric, every column pivots */
            for (int j = 0; j < n; j++)
                A[i * n + j] = (i == j ? 0.0 : uniform(&seed)) + (j == (i + 1) % n ? 4.0 : 0.0);
        if (n == 1) A[0] = 3.0;
        for (int k = 0; k < n * 3; k++) X[k] = uniform(&seed);
        for (int i = 0; i < n; i++)
            for (int c = 0; c < 3; c++) {
                double s = 0.0;
                for (int j = 0; j < n; j++) s += A[i * n + j] * X[j * 3 + c];
                B[i * 3 + c] = s;
            }
        memcpy(F, A, (size_t)n * (size_t)n * sizeof(double));
        const uint64_t before = hs_alloc_count();
        assert_int_equal(hs_small_solve(n, F, B, 3), 0);
        assert_int_equal(hs_small_inverse(n, A, inv), 0);
        assert_true(hs_alloc_count() == before);
        for (int k = 0; k < n * 3; k++) worst = fmax(worst, fabs(B[k] - X[k]));
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double s = 0.0;
                for (int k = 0; k < n; k++) s += A[i * n + k] * inv[k * n + j];
                worst_inv = fmax(worst_inv, fabs(s - (i == j)));
            }
    }
    print_message("row-major small systems: X back to %.2g, A inv(A) - I %.2g\n", worst, worst_inv);
    assert_true(worst <= 1e-12);
    assert_true(worst_inv <= 1e-12);
    double S[4] = {1.0, 2.0, 2.0, 4.0}, b[2] = {1.0, 1.0}, Si[4];
    assert_int_equal(hs_small_inverse(2, S, Si), -1);
    assert_int_equal(hs_small_solve(2, S, b, 1), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_against_lapack), cmocka_unit_test(test_spd_cholesky),
        cmocka_unit_test(test_indefinite_lu),         cmocka_unit_test(test_nonsymmetric_spd_lu),
        cmocka_unit_test(test_pattern_solver),        cmocka_unit_test(test_several_sides),
        cmocka_unit_test(test_second_difference),     cmocka_unit_test(test_singular),
        cmocka_unit_test(test_small_row_major),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
