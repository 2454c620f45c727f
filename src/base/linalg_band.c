/* Band-limited kernels on dense column-major storage and on packed band storage: a matrix whose
 * nonzeros lie within kd of the diagonal costs O(n kd) instead of O(n^2). The loops visit the
 * band in the order of the dense kernels in linalg.c, so with kd >= n - 1 they give the same
 * bits, and the packed kernels give the bits of the dense-storage ones. */
#include "hysim/linalg.h"

#include <string.h>

static inline int band_lo(int j, int kd)
{
    return j - kd > 0 ? j - kd : 0;
}
static inline int band_hi(int n, int j, int kd)
{
    return j + kd < n - 1 ? j + kd : n - 1;
}

int hs_mat_bandwidth(int n, const double *A)
{
    if (!A) return 0;
    int kd = 0;
    for (int j = 0; j < n; j++) {
        const double *col = A + (size_t)j * (size_t)n;
        for (int i = 0; i < n; i++) {
            const int dist = i > j ? i - j : j - i;
            if (dist > kd && col[i] != 0.0) kd = dist;
        }
    }
    return kd;
}

void hs_band_matvec(int n, int kd, const double *A, const double *x, double *y)
{
    for (int i = 0; i < n; i++) y[i] = 0.0;
    hs_band_matvec_add(n, kd, A, x, 1.0, y);
}

/* kd = 1 (shear buildings): the column loop unrolled; the same operations in the same order. */
static void band_matvec_add_tridiagonal(int n, const double *A, const double *x, double alpha,
                                        double *y)
{
    for (int j = 0; j < n; j++) {
        const double s = alpha * x[j];
        if (s == 0.0) continue;
        const double *col = A + (size_t)j * (size_t)n;
        if (j > 0) y[j - 1] += col[j - 1] * s;
        y[j] += col[j] * s;
        if (j + 1 < n) y[j + 1] += col[j + 1] * s;
    }
}

void hs_band_matvec_add(int n, int kd, const double *A, const double *x, double alpha, double *y)
{
    if (kd == 0) {
        for (int j = 0; j < n; j++) {
            const double s = alpha * x[j];
            if (s != 0.0) y[j] += A[(size_t)j * (size_t)n + (size_t)j] * s;
        }
        return;
    }
    if (kd == 1 && n > 1) {
        band_matvec_add_tridiagonal(n, A, x, alpha, y);
        return;
    }
    for (int j = 0; j < n; j++) {
        const double s = alpha * x[j];
        if (s == 0.0) continue;
        const double *col = A + (size_t)j * (size_t)n;
        const int hi = band_hi(n, j, kd);
        for (int i = band_lo(j, kd); i <= hi; i++) y[i] += col[i] * s;
    }
}

void hs_band_pack(int n, int kd, const double *A, double *B)
{
    memset(B, 0, HS_BAND_LD(kd) * (size_t)n * sizeof(double));
    for (int j = 0; j < n; j++) {
        const int hi = band_hi(n, j, kd);
        for (int i = band_lo(j, kd); i <= hi; i++) HS_BAND_AT(B, kd, i, j) = HS_AT(A, n, i, j);
    }
}

void hs_packed_matvec(int n, int kd, const double *B, const double *x, double *y)
{
    for (int i = 0; i < n; i++) y[i] = 0.0;
    hs_packed_matvec_add(n, kd, B, x, 1.0, y);
}

void hs_packed_matvec_add(int n, int kd, const double *B, const double *x, double alpha, double *y)
{
    const size_t ld = HS_BAND_LD(kd);
    if (kd == 0) {
        for (int j = 0; j < n; j++) {
            const double s = alpha * x[j];
            if (s != 0.0) y[j] += B[j] * s;
        }
        return;
    }
    if (kd == 1) { /* column j holds (j-1, j), (j, j), (j+1, j) */
        for (int j = 0; j < n; j++) {
            const double s = alpha * x[j];
            if (s == 0.0) continue;
            const double *col = B + (size_t)j * 3;
            if (j > 0) y[j - 1] += col[0] * s;
            y[j] += col[1] * s;
            if (j + 1 < n) y[j + 1] += col[2] * s;
        }
        return;
    }
    for (int j = 0; j < n; j++) {
        const double s = alpha * x[j];
        if (s == 0.0) continue;
        const double *col = B + (size_t)j * ld + (size_t)kd; /* col[i - j] */
        const int lo = band_lo(j, kd) - j, hi = band_hi(n, j, kd) - j;
        for (int k = lo; k <= hi; k++) y[j + k] += col[k] * s;
    }
}
