/* Small dense systems of the elements' state determination (row-major, n <= HS_SMALL_MAX)
 * through LAPACK's dgetrf/dgetrs/dgetri on the caller's storage and stack buffers: no allocation,
 * so that an element may call them at every iteration (OpenSees' Matrix::Solve calls dgesv the
 * same way). A row-major A is A^T in LAPACK's column-major view: its LU is that of A^T, and A x = b
 * is solved as (A^T)^T x = b ('T'); the inverse of A^T read row-major is the inverse of A. */
#include "hysim/linalg.h"

#include <lapacke.h>
#include <string.h>

int hs_small_solve(int n, double *A, double *B, int m)
{
    if (n < 1 || n > HS_SMALL_MAX || m < 1 || m > HS_SMALL_MAX) return -1;
    lapack_int ipiv[HS_SMALL_MAX];
    if (LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, A, n, ipiv) != 0) return -1;
    double bt[HS_SMALL_MAX * HS_SMALL_MAX];
    double *b = B;
    if (m > 1) { /* B row-major (n x m) into column-major */
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++) bt[(size_t)j * (size_t)n + (size_t)i] = B[i * m + j];
        b = bt;
    }
    if (LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'T', n, m, A, n, ipiv, b, n) != 0) return -1;
    if (m > 1)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++) B[i * m + j] = bt[(size_t)j * (size_t)n + (size_t)i];
    return 0;
}

int hs_small_inverse(int n, const double *A, double *inv)
{
    if (n < 1 || n > HS_SMALL_MAX) return -1;
    lapack_int ipiv[HS_SMALL_MAX];
    double work[HS_SMALL_MAX * 8];
    memcpy(inv, A, (size_t)n * (size_t)n * sizeof *inv);
    if (LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, inv, n, ipiv) != 0) return -1;
    return LAPACKE_dgetri_work(LAPACK_COL_MAJOR, n, inv, n, ipiv, work, HS_SMALL_MAX * 8) == 0 ? 0
                                                                                               : -1;
}
