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
#include <float.h>
#include <math.h>
#include <string.h>

/* Symmetric to round-off: |a_ij - a_ji| <= 8 eps sqrt(a_ii a_jj) for every pair, every a_ii > 0
 * (a positive-definite matrix has |a_ij| <= sqrt(a_ii a_jj); the tangent of a structure summed in
 * another order than its mirror, as the fiber frame's force-based elements give it, differs by
 * at most 0.37 eps of that bound, bench/opensees/rc_frame_3x3.tcl over 257 steps). The factor of
 * the upper triangle then solves a matrix within 8 n eps of A in the norm scaled by its diagonal,
 * the order of the LU's own backward error. */
#define HS_LS_SYMMETRY_TOL  (8.0 * DBL_EPSILON)
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

lapack_int hs_ls_dense_factor(hs_linsolver *s, const hs_ls_source *A)
{
    const int n = s->n;
    s->spd = 0;
    dense_fill(s, A);
    if (dense_symmetric(n, s->lu, s->work)) {
        const lapack_int ln = n;
        lapack_int info = 0;
        if (n <= HS_LS_UNBLOCKED_MAX)
            LAPACK_dpotf2("U", &ln, s->lu, &ln, &info);
        else
            LAPACK_dpotrf("U", &ln, s->lu, &ln, &info);
        s->spd = info == 0;
        if (s->spd) return 0;
        dense_fill(s, A); /* the Cholesky overwrote the upper triangle */
    }
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
