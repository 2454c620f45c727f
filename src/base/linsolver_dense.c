/* The dense kind of the linear solver. A matrix symmetric to round-off with a positive diagonal
 * is first factored as symmetric positive-definite (LAPACK's Cholesky of its upper triangle,
 * A = U^T U, solved by two BLAS dtrsv); when that fails (indefinite) or the matrix is not
 * symmetric, it is copied again from its source and factored by LU with partial pivoting
 * (dgetrf/dgetrs). The storage is the solver's n x n matrix: nothing is allocated per factor.
 *
 * Which LAPACK routine (OpenBLAS 0.3.21 serial, 2026-11-29, factor and solve of an SPD matrix,
 * medians of 9 rounds at load 4, pinned): n = 36 dgetrf + dgetrs 11.2 us, dpotrf + dpotrs 9.4,
 * dpotf2 ('U') + 2 dtrsv 5.8 (OpenBLAS' blocked dpotrf recurses into dtrsm and dsyrk kernels
 * whose set-up outweighs 36 columns; dpotrs' two dtrsm cost 10.7 k instructions, the two dtrsv
 * 9.1 k); dpotf2 + dtrsv against dpotrf + dpotrs 17.0 / 34.4 us at n = 64, 34.9 / 69.6 at 100,
 * 236 / 348 at 160, 1532 / 828 at 256: the unblocked dpotf2 up to n = 160, dpotrf beyond. */
#include "linsolver_impl.h"

#include <cblas.h>
#include <math.h>
#include <string.h>

#define HS_LS_UNBLOCKED_MAX 160

size_t hs_ls_dense_size(int n)
{
    return (size_t)n * (size_t)n;
}

/* The matrix of A into s->lu (n x n, column-major). */
static void dense_fill(hs_linsolver *s, const hs_ls_source *A)
{
    const int n = s->n;
    if (A->csc) {
        hs_csc_to_dense(A->csc, s->lu);
    } else if (A->packed) {
        memset(s->lu, 0, hs_ls_dense_size(n) * sizeof(double));
        for (int j = 0; j < n; j++) {
            const int lo = j - A->kd > 0 ? j - A->kd : 0;
            const int hi = j + A->kd < n - 1 ? j + A->kd : n - 1;
            for (int i = lo; i <= hi; i++) HS_AT(s->lu, n, i, j) = HS_BAND_AT(A->a, A->kd, i, j);
        }
    } else {
        memcpy(s->lu, A->a, hs_ls_dense_size(n) * sizeof(double));
    }
}

/* Whether the n x n a is symmetric to round-off with a positive diagonal; root: n scratch. */
static int dense_symmetric(int n, const double *a, double *root)
{
    for (int j = 0; j < n; j++) {
        const double d = a[(size_t)j * (size_t)n + (size_t)j];
        if (!(d > 0.0)) return 0; /* also NaN */
        root[j] = sqrt(d);
    }
    for (int j = 1; j < n; j++) {
        const double *col = a + (size_t)j * (size_t)n, rj = HS_LS_SYMMETRY_TOL * root[j];
        for (int i = 0; i < j; i++)
            if (fabs(col[i] - a[(size_t)i * (size_t)n + (size_t)j]) > rj * root[i]) return 0;
    }
    return 1;
}

/* The pattern the solver was created for (hs_linsolver_create_sparse), kept so that a matrix of
 * that pattern is tested for symmetry over its entries and written in the upper triangle only:
 * the mirror slot of each entry above the diagonal (-1: none, the mirror is a zero), the entries
 * below it without a mirror above, the diagonal's slots (the pattern's, copied to recognise it). */
struct hs_ls_dense_pattern {
    hs_csc *P;   /* a copy of the pattern */
    int *mirror; /* nnz: for an entry above the diagonal, the slot of its mirror (its own when
                    the mirror is outside the pattern) */
    int *diag;   /* n: the slot of (j, j); NULL when one is outside the pattern */
    int *lonely; /* the entries whose mirror is outside the pattern (a zero): slot, column */
    int nlonely;
};

void hs_ls_dense_pattern_free(hs_linsolver *s)
{
    hs_ls_dense_pattern *dp = s->dpat;
    if (!dp) return;
    hs_csc_destroy(&dp->P);
    hs_free(dp->mirror);
    hs_free(dp->diag);
    hs_free(dp->lonely);
    hs_free(dp);
    s->dpat = NULL;
}

int hs_ls_dense_set_pattern(hs_linsolver *s, const hs_csc *P)
{
    const int n = s->n, nnz = hs_csc_nnz(P);
    hs_ls_dense_pattern *dp = hs_calloc(1, sizeof *dp);
    if (!dp) return HS_ENOMEM;
    s->dpat = dp;
    int rc = hs_csc_copy(s->ctx, P, &dp->P);
    if (rc) {
        hs_ls_dense_pattern_free(s);
        return rc;
    }
    dp->mirror = hs_calloc((size_t)nnz + 1, sizeof *dp->mirror);
    dp->diag = hs_calloc((size_t)n, sizeof *dp->diag);
    dp->lonely = hs_calloc(2 * (size_t)nnz + 1, sizeof *dp->lonely);
    if (!dp->mirror || !dp->diag || !dp->lonely) {
        hs_ls_dense_pattern_free(s);
        return HS_ENOMEM;
    }
    int full_diag = 1;
    for (int j = 0; j < n; j++) {
        dp->diag[j] = hs_csc_find(P, j, j);
        full_diag &= dp->diag[j] >= 0;
        for (int p = P->colptr[j]; p < P->colptr[j + 1]; p++) {
            const int i = P->rowind[p], m = hs_csc_find(P, j, i);
            dp->mirror[p] = m >= 0 ? m : p;
            if (i != j && m < 0) {
                dp->lonely[2 * dp->nlonely] = p;
                dp->lonely[2 * dp->nlonely++ + 1] = j;
            }
        }
    }
    if (!full_diag) { /* a zero on the diagonal: never positive-definite */
        hs_free(dp->diag);
        dp->diag = NULL;
    }
    return 0;
}

/* A matrix of the solver's pattern: its upper triangle into s->lu (the lower one is left as it
 * is: the Cholesky and its solves never read it) while its entries are tested for symmetry to
 * round-off; 1 when symmetric with a positive diagonal. */
static int pattern_upper(hs_linsolver *s, const hs_csc *A)
{
    const hs_ls_dense_pattern *dp = s->dpat;
    if (!dp->diag) return 0;
    const int n = s->n, *cp = dp->P->colptr, *ri = dp->P->rowind;
    const double *val = A->val;
    double *root = s->work;
    for (int j = 0; j < n; j++) {
        const double d = val[dp->diag[j]];
        if (!(d > 0.0)) return 0; /* also NaN */
        root[j] = sqrt(d);
    }
    int symmetric = 1;
    for (int j = 0; j < n; j++) { /* rows ascending: those above the diagonal come first */
        double *col = s->lu + (size_t)j * (size_t)n;
        const double rj = HS_LS_SYMMETRY_TOL * root[j];
        memset(col, 0, (size_t)j * sizeof *col);
        col[j] = val[dp->diag[j]];
        for (int p = cp[j], end = dp->diag[j]; p < end; p++) {
            const int i = ri[p];
            const double v = val[p];
            col[i] = v;
            symmetric &= fabs(v - val[dp->mirror[p]]) <= rj * root[i];
        }
    }
    for (int k = 0; k < dp->nlonely; k++) { /* a mirror outside the pattern: a zero */
        const int p = dp->lonely[2 * k], i = ri[p], j = dp->lonely[2 * k + 1];
        symmetric &= fabs(val[p]) <= HS_LS_SYMMETRY_TOL * root[i] * root[j];
    }
    return symmetric;
}

lapack_int hs_ls_dense_factor(hs_linsolver *s, const hs_ls_source *A)
{
    const int n = s->n;
    s->spd = 0;
    int symmetric, full = 0; /* full: s->lu holds all of A */
    if (A->csc && s->dpat && hs_csc_same_pattern(s->dpat->P, A->csc)) {
        symmetric = pattern_upper(s, A->csc);
    } else {
        dense_fill(s, A);
        full = 1;
        symmetric = dense_symmetric(n, s->lu, s->work);
    }
    if (symmetric) {
        const lapack_int ln = n;
        lapack_int info = 0;
        if (n <= HS_LS_UNBLOCKED_MAX)
            LAPACK_dpotf2("U", &ln, s->lu, &ln, &info);
        else
            LAPACK_dpotrf("U", &ln, s->lu, &ln, &info);
        s->spd = info == 0;
        if (s->spd) return 0;
    }
    if (symmetric || !full) dense_fill(s, A); /* the Cholesky overwrote the upper triangle */
    return LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, s->lu, n, s->ipiv);
}

lapack_int hs_ls_dense_solve(hs_linsolver *s, double *b)
{
    const int n = s->n;
    if (s->spd) { /* U^T U x = b */
        cblas_dtrsv(CblasColMajor, CblasUpper, CblasTrans, CblasNonUnit, n, s->lu, n, b, 1);
        cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, n, s->lu, n, b, 1);
        return 0;
    }
    return LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', n, 1, s->lu, n, s->ipiv, b, n);
}

/* Several right sides: the Cholesky's by two dtrsm from three on (instructions of a solve of
 * all, n = 8: 4 sides 3.9 k against 6.8 k by dtrsv, 1 side 2.6 k against 1.7 k; n = 4, 2 sides
 * 2.0 k against 1.9 k; n = 16, 8 sides 11.0 k against 30.1 k), column by column below; the LU's
 * by one dgetrs. */
lapack_int hs_ls_dense_solve_n(hs_linsolver *s, int nrhs, double *B)
{
    const int n = s->n;
    if (s->spd && nrhs >= 3) {
        cblas_dtrsm(CblasColMajor, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit, n, nrhs, 1.0,
                    s->lu, n, B, n);
        cblas_dtrsm(CblasColMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, n, nrhs, 1.0,
                    s->lu, n, B, n);
        return 0;
    }
    if (s->spd) {
        for (int c = 0; c < nrhs; c++) hs_ls_dense_solve(s, B + (size_t)c * (size_t)n);
        return 0;
    }
    return LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', n, nrhs, s->lu, n, s->ipiv, B, n);
}
