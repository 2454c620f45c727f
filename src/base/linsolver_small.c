/* LU with partial pivoting for the dense solver's small matrices (n <= HS_LS_SMALL_MAX): the
 * unblocked algorithm of LAPACK's dgetf2 (the pivot the first entry of largest magnitude in the
 * column, rows swapped across the whole matrix, the multipliers below the diagonal) and dgetrs'
 * solve, in plain loops. For a 4 x 4 or 8 x 8 matrix, OpenBLAS's dgetrf/dgetrs spend most of
 * their time in dispatch (dlaswp, dtrsm, idamax, dgemv calls of a few flops each): a frame of 12
 * DOFs stepped 1.5 times faster without them (bench/README.md, "hysim against OpenSees"). */
#include "linsolver_impl.h"

#include <math.h>

lapack_int hs_ls_small_factor(int n, double *a, lapack_int *ipiv)
{
    lapack_int info = 0;
    for (int j = 0; j < n; j++) {
        double *cj = a + (size_t)j * (size_t)n;
        int p = j;
        double big = fabs(cj[j]);
        for (int i = j + 1; i < n; i++)
            if (fabs(cj[i]) > big) big = fabs(cj[i]), p = i;
        ipiv[j] = p + 1; /* 1-based, as LAPACK */
        if (big == 0.0) {
            if (!info) info = j + 1;
            continue;
        }
        if (p != j)
            for (int c = 0; c < n; c++) {
                double *col = a + (size_t)c * (size_t)n;
                const double t = col[j];
                col[j] = col[p];
                col[p] = t;
            }
        const double d = cj[j];
        int last = j; /* the multipliers' last nonzero: the rows below it change by nothing */
        for (int i = j + 1; i < n; i++) {
            cj[i] /= d;
            if (cj[i] != 0.0) last = i;
        }
        for (int c = j + 1; c < n; c++) {
            double *col = a + (size_t)c * (size_t)n;
            const double ajc = col[j];
            if (ajc != 0.0)
                for (int i = j + 1; i <= last; i++) col[i] -= cj[i] * ajc;
        }
    }
    return info;
}

void hs_ls_small_solve(int n, const double *a, const lapack_int *ipiv, double *b)
{
    for (int j = 0; j < n; j++) {
        const int p = (int)ipiv[j] - 1;
        if (p != j) {
            const double t = b[j];
            b[j] = b[p];
            b[p] = t;
        }
    }
    for (int j = 0; j < n; j++) { /* L y = b, unit diagonal */
        const double *cj = a + (size_t)j * (size_t)n;
        const double bj = b[j];
        if (bj != 0.0)
            for (int i = j + 1; i < n; i++) b[i] -= cj[i] * bj;
    }
    for (int j = n - 1; j >= 0; j--) { /* U x = y */
        const double *cj = a + (size_t)j * (size_t)n;
        b[j] /= cj[j];
        const double bj = b[j];
        if (bj != 0.0)
            for (int i = 0; i < j; i++) b[i] -= cj[i] * bj;
    }
}
