/* The linear solver's private layout, shared by the dense (linsolver_dense.c), banded
 * (linsolver_banded.c) and sparse (linsolver_sparse.c) paths. */
#ifndef HS_LINSOLVER_IMPL_H
#define HS_LINSOLVER_IMPL_H

#include "hysim/linalg.h"
#include "hysim/sparse.h"

#include <float.h>
#include <lapacke.h>

/* Symmetric to round-off: |a_ij - a_ji| <= 8 eps sqrt(a_ii a_jj) for every pair, every a_ii > 0
 * (a positive-definite matrix has |a_ij| <= sqrt(a_ii a_jj); the tangent of a structure summed in
 * another order than its mirror, as the fiber frame's force-based elements give it, differs by
 * at most 0.37 eps of that bound, bench/opensees/rc_frame_3x3.tcl over 257 steps). The factor of
 * the upper triangle then solves a matrix within 8 n eps of A in the norm scaled by its diagonal,
 * the order of the LU's own backward error. */
#define HS_LS_SYMMETRY_TOL (8.0 * DBL_EPSILON)

typedef enum {
    HS_LS_DENSE,
    HS_LS_BANDED,
    HS_LS_TRIDIAGONAL,
    HS_LS_CHOLMOD,
    HS_LS_KLU,
    HS_LS_SPARSE /* CHOLMOD when symmetric positive-definite, KLU otherwise */
} hs_ls_kind;

typedef struct hs_ls_sparse hs_ls_sparse;
typedef struct hs_ls_dense_pattern hs_ls_dense_pattern;

struct hs_linsolver {
    hs_ctx *ctx;
    hs_ls_kind kind;
    int n, kd; /* order and half-bandwidth (n - 1 for dense) */
    int factored;
    int spd; /* dense, banded kinds: 1 when the last factor was the symmetric positive-definite one
              */
    /* dense: the LU or the Cholesky factor (upper triangle) (n x n); banded: LAPACK band storage
     * (ldab x n, ldab = 3 kd + 1; kd + 1 rows for the symmetric factor); tridiagonal: dl (n - 1), d
     * (n), du (n - 1), du2 (n - 2) one after the other for LU, d (n), e (n - 1) for the symmetric
     * factor */
    double *lu;
    lapack_int ldab;
    lapack_int *ipiv;
    double *work;              /* dense: n scratch (the square roots of the diagonal) */
    hs_ls_sparse *sparse;      /* cholmod, klu: the library's state (linsolver_sparse.c) */
    hs_ls_dense_pattern *dpat; /* dense, created for a pattern: its mirrors (linsolver_dense.c) */
};

/* The matrix to factor: dense n x n storage, packed band storage of half-bandwidth kd (its
 * entries farther from the diagonal are zero) or compressed columns (csc, when not NULL). */
typedef struct hs_ls_source {
    const double *a;
    int packed, kd;
    const hs_csc *csc;
} hs_ls_source;

static inline double hs_ls_at(const hs_ls_source *m, int n, int i, int j)
{
    if (m->csc) { /* binary search in column j */
        int lo = m->csc->colptr[j], hi = m->csc->colptr[j + 1] - 1;
        while (lo <= hi) {
            const int mid = lo + (hi - lo) / 2, r = m->csc->rowind[mid];
            if (r == i) return m->csc->val[mid];
            if (r < i)
                lo = mid + 1;
            else
                hi = mid - 1;
        }
        return 0.0;
    }
    if (!m->packed) return HS_AT(m->a, n, i, j);
    const int dist = i > j ? i - j : j - i;
    return dist <= m->kd ? HS_BAND_AT(m->a, m->kd, i, j) : 0.0;
}

/* Storage size (doubles) and the factor/solve of the dense kind. */
size_t hs_ls_dense_size(int n);
lapack_int hs_ls_dense_factor(hs_linsolver *s, const hs_ls_source *A);
lapack_int hs_ls_dense_solve(hs_linsolver *s, double *b);
lapack_int hs_ls_dense_solve_n(hs_linsolver *s, int nrhs, double *B);
/* The dense kind created for pattern P: the slots that test a matrix of P for symmetry and write
 * its upper triangle (allocates); their release. */
int hs_ls_dense_set_pattern(hs_linsolver *s, const hs_csc *P);
void hs_ls_dense_pattern_free(hs_linsolver *s);

/* Storage size (doubles) and the factor/solve of the banded and tridiagonal kinds. */
size_t hs_ls_banded_size(const hs_linsolver *s);
lapack_int hs_ls_banded_factor(hs_linsolver *s, const hs_ls_source *A);
lapack_int hs_ls_banded_solve(hs_linsolver *s, double *b);
lapack_int hs_ls_banded_solve_n(hs_linsolver *s, int nrhs, double *B);

/* The sparse kinds: state creation (analysis now when pattern is given, else at the first
 * factor), numeric factor, solve, release. */
int hs_ls_sparse_create(hs_linsolver *s, const hs_csc *pattern);
int hs_ls_sparse_factor(hs_linsolver *s, const hs_ls_source *A);
int hs_ls_sparse_solve(hs_linsolver *s, double *b);
void hs_ls_sparse_destroy(hs_linsolver *s);

#endif
