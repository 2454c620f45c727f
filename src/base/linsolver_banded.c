/* The banded kinds of the linear solver: LU with partial pivoting of a band matrix (LAPACKE
 * dgbtrf/dgbtrs, kl = ku = kd) and, for kd = 1, of a tridiagonal one (dgttrf/dgttrs, no BLAS
 * calls: the cheapest for shear buildings). Both read the band of a dense n x n matrix. */
#include "linsolver_impl.h"

#include <string.h>

size_t hs_ls_banded_size(const hs_linsolver *s)
{
    const size_t n = (size_t)s->n;
    if (s->kind == HS_LS_TRIDIAGONAL) return 4 * n;
    return (size_t)s->ldab * n;
}

lapack_int hs_ls_banded_factor(hs_linsolver *s, const double *A)
{
    const int n = s->n;
    if (s->kind == HS_LS_TRIDIAGONAL) {
        double *dl = s->lu, *d = dl + (n - 1), *du = d + n, *du2 = du + (n - 1);
        for (int i = 0; i < n; i++) d[i] = HS_AT(A, n, i, i);
        for (int i = 0; i + 1 < n; i++) {
            dl[i] = HS_AT(A, n, i + 1, i);
            du[i] = HS_AT(A, n, i, i + 1);
        }
        return LAPACKE_dgttrf_work(n, dl, d, du, du2, s->ipiv);
    }
    /* band storage: A(i, j) at row 2 kd + i - j of column j; rows 0..kd-1 take the fill-in */
    const int kd = s->kd;
    const size_t ld = (size_t)s->ldab;
    memset(s->lu, 0, ld * (size_t)n * sizeof(double));
    for (int j = 0; j < n; j++) {
        const int lo = j - kd > 0 ? j - kd : 0, hi = j + kd < n - 1 ? j + kd : n - 1;
        double *col = s->lu + (size_t)j * ld;
        for (int i = lo; i <= hi; i++) col[2 * kd + i - j] = HS_AT(A, n, i, j);
    }
    return LAPACKE_dgbtrf_work(LAPACK_COL_MAJOR, n, n, kd, kd, s->lu, s->ldab, s->ipiv);
}

lapack_int hs_ls_banded_solve(hs_linsolver *s, double *b)
{
    const int n = s->n;
    if (s->kind == HS_LS_TRIDIAGONAL) {
        double *dl = s->lu, *d = dl + (n - 1), *du = d + n, *du2 = du + (n - 1);
        return LAPACKE_dgttrs_work(LAPACK_COL_MAJOR, 'N', n, 1, dl, d, du, du2, s->ipiv, b, n);
    }
    return LAPACKE_dgbtrs_work(LAPACK_COL_MAJOR, 'N', n, s->kd, s->kd, 1, s->lu, s->ldab, s->ipiv,
                               b, n);
}
