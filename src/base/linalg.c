/* Dense linear algebra helpers (column-major) and LAPACKE eigen/inverse routines; the linear
 * solver is in linsolver.c, band-limited kernels in linalg_band.c. */
#include "hysim/linalg.h"

#include <lapacke.h>
#include <math.h>
#include <string.h>

void hs_matvec(int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < n; i++) y[i] = 0.0;
    hs_matvec_add(n, A, x, 1.0, y);
}

void hs_matvec_add(int n, const double *A, const double *x, double alpha, double *y)
{
    for (int j = 0; j < n; j++) {
        const double s = alpha * x[j];
        if (s == 0.0) continue;
        const double *col = A + (size_t)j * (size_t)n;
        for (int i = 0; i < n; i++) y[i] += col[i] * s;
    }
}

void hs_mat_axpby(int n, double alpha, const double *A, double beta, const double *B, double *C)
{
    const size_t nn = (size_t)n * (size_t)n;
    for (size_t k = 0; k < nn; k++) C[k] = alpha * (A ? A[k] : 0.0) + beta * (B ? B[k] : 0.0);
}

void hs_matmul(int n, const double *A, const double *B, double *C)
{
    for (int j = 0; j < n; j++)
        hs_matvec(n, A, B + (size_t)j * (size_t)n, C + (size_t)j * (size_t)n);
}

double hs_dot(int n, const double *x, const double *y)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i] * y[i];
    return s;
}

double hs_norm2(int n, const double *x)
{
    return sqrt(hs_dot(n, x, x));
}

/* NaN entries are skipped, as fmax would (a comparison with NaN is false), without the call;
 * four running maxima break the dependency chain (the maximum is exact in any order). */
double hs_norm_inf(int n, const double *x)
{
    double m[4] = {0.0, 0.0, 0.0, 0.0};
    int i = 0;
    for (; i + 4 <= n; i += 4)
        for (int k = 0; k < 4; k++) {
            const double a = fabs(x[i + k]);
            if (a > m[k]) m[k] = a;
        }
    for (; i < n; i++) {
        const double a = fabs(x[i]);
        if (a > m[0]) m[0] = a;
    }
    const double m01 = m[1] > m[0] ? m[1] : m[0], m23 = m[3] > m[2] ? m[3] : m[2];
    return m23 > m01 ? m23 : m01;
}

int hs_gen_eigvals(hs_ctx *ctx, int n, const double *A, double *wr, double *wi)
{
    const size_t nn = (size_t)n * (size_t)n;
    double *a = hs_dvec(nn);
    if (!a) return HS_ENOMEM;
    memcpy(a, A, nn * sizeof(double));
    lapack_int info = LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', n, a, n, wr, wi, NULL, 1, NULL, 1);
    hs_free(a);
    return info == 0 ? 0 : hs_fail(ctx, HS_ECONVERGE, "dgeev failed (info %d)", (int)info);
}

int hs_mat_inverse(hs_ctx *ctx, int n, double *A)
{
    lapack_int *ipiv = hs_calloc((size_t)n, sizeof *ipiv);
    if (!ipiv) return HS_ENOMEM;
    lapack_int info = LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, A, n, ipiv);
    if (info == 0) info = LAPACKE_dgetri(LAPACK_COL_MAJOR, n, A, n, ipiv);
    hs_free(ipiv);
    return info == 0 ? 0
                     : hs_fail(ctx, HS_ESINGULAR, "matrix inverse: singular (info %d)", (int)info);
}
