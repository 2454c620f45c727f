/* The linear solver's private layout, shared by the dense (linsolver.c) and banded
 * (linsolver_banded.c) paths. */
#ifndef HS_LINSOLVER_IMPL_H
#define HS_LINSOLVER_IMPL_H

#include "hysim/linalg.h"

#include <lapacke.h>

typedef enum { HS_LS_DENSE, HS_LS_BANDED, HS_LS_TRIDIAGONAL } hs_ls_kind;

struct hs_linsolver {
    hs_ctx *ctx;
    hs_ls_kind kind;
    int n, kd; /* order and half-bandwidth (n - 1 for dense) */
    int factored;
    int spd; /* banded kinds: 1 when the last factor was the symmetric positive-definite one */
    /* dense: the LU (n x n); banded: LAPACK band storage (ldab x n, ldab = 3 kd + 1; kd + 1 rows
     * for the symmetric factor); tridiagonal: dl (n - 1), d (n), du (n - 1), du2 (n - 2) one after
     * the other for LU, d (n), e (n - 1) for the symmetric factor */
    double *lu;
    lapack_int ldab;
    lapack_int *ipiv;
};

/* Storage size (doubles) and the factor/solve of the banded and tridiagonal kinds. */
size_t hs_ls_banded_size(const hs_linsolver *s);
lapack_int hs_ls_banded_factor(hs_linsolver *s, const double *A);
lapack_int hs_ls_banded_solve(hs_linsolver *s, double *b);

#endif
