/* hysim sparse matrices: compressed columns (CSC), the layout of SuiteSparse. Row indices are
 * sorted within each column and unique; an entry in the pattern may hold 0 (a structural zero:
 * the pattern stays fixed while values change). Creation allocates; every other operation works
 * in place and never allocates. */
#ifndef HYSIM_SPARSE_H
#define HYSIM_SPARSE_H

#include "hysim/base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hs_csc {
    int nrows, ncols;
    int *colptr; /* ncols + 1: column j holds entries colptr[j] .. colptr[j + 1] - 1 */
    int *rowind; /* nnz row indices, ascending within each column */
    double *val; /* nnz values */
} hs_csc;

static inline int hs_csc_nnz(const hs_csc *A)
{
    return A->colptr[A->ncols];
}

/* A (nrows x ncols) from nt triplets (ti[k], tj[k], tx[k]), 0-based; duplicates are summed (the
 * assembly of element matrices). tx NULL gives the pattern with zero values. */
int hs_csc_from_triplets(hs_ctx *ctx, int nrows, int ncols, int nt, const int *ti, const int *tj,
                         const double *tx, hs_csc **out);
/* The nonzeros of a dense column-major n x n matrix. */
int hs_csc_from_dense(hs_ctx *ctx, int n, const double *D, hs_csc **out);
/* The union of the patterns of B and C (same sizes), values zero. */
int hs_csc_pattern_union(hs_ctx *ctx, const hs_csc *B, const hs_csc *C, hs_csc **out);
/* A copy of A (pattern and values). */
int hs_csc_copy(hs_ctx *ctx, const hs_csc *A, hs_csc **out);
void hs_csc_destroy(hs_csc **A);

/* 1 when A and B have the same sizes and pattern. */
int hs_csc_same_pattern(const hs_csc *A, const hs_csc *B);
/* 1 when every entry of B's pattern is in A's. */
int hs_csc_pattern_contains(const hs_csc *A, const hs_csc *B);

/* map[k] = the position in P of entry k of B (hs_csc_nnz(B) ints): the slots that an assembly
 * into P's values adds B's into. HS_EINVAL (with a message) when B has an entry outside P. */
int hs_csc_slot_map(hs_ctx *ctx, const hs_csc *P, const hs_csc *B, int *map);

/* y = A x (nrows) and y += alpha A x. */
void hs_csc_matvec(const hs_csc *A, const double *x, double *y);
void hs_csc_matvec_add(const hs_csc *A, const double *x, double alpha, double *y);
/* The position of entry (i, j) in A's values, or -1 when the pattern has no such entry (rows
 * ascending within a column: bisection). */
int hs_csc_find(const hs_csc *A, int i, int j);
/* 1 when A is square and equal to its transpose, pattern and values bit for bit. */
int hs_csc_is_symmetric(const hs_csc *A);
/* y += alpha A x for a symmetric A (hs_csc_is_symmetric), by rows: y_j += alpha (column j . x),
 * one dot product a row and no scattered writes, each row's products summed in four partial sums
 * (entries p, p + 4, ... apart), so that the additions do not wait for one another: about 1.6
 * times hs_csc_matvec_add's speed on a frame's stiffness. Equal to hs_csc_matvec_add to
 * round-off (the order of the sums differs), the same for the same A and x every time. */
void hs_csc_symmetric_matvec_add(const hs_csc *A, const double *x, double alpha, double *y);
/* A = a B + b C, where A's pattern holds B's and C's (the same pattern, or one from
 * hs_csc_pattern_union); A may be B or C. HS_EINVAL, A unchanged, otherwise. C may be NULL (A = a
 * B). */
int hs_csc_axpby(hs_ctx *ctx, double a, const hs_csc *B, double b, const hs_csc *C, hs_csc *A);
/* Half-bandwidth of the pattern: the largest |i - j| of its entries (0 for a diagonal). */
int hs_csc_bandwidth(const hs_csc *A);
/* D (dense column-major nrows x ncols) = A. */
void hs_csc_to_dense(const hs_csc *A, double *D);

/* The nev lowest eigenpairs of K phi = omega2 M phi (K symmetric positive-definite, M symmetric
 * positive semi-definite, n x n) by ARPACK's shift-invert Lanczos (dsaupd mode 3, shift 0) on a
 * sparse factor of K (hs_linsolver_create_sparse): omega2 ascending (nev values), phi (n x nev,
 * column-major, M-orthonormal; NULL: not computed). 1 <= nev < n. For large models; small ones
 * use hs_sym_eig (LAPACK, every mode). */
int hs_sparse_eig(hs_ctx *ctx, const hs_csc *K, const hs_csc *M, int nev, double *omega2,
                  double *phi);

#ifdef __cplusplus
}
#endif
#endif
