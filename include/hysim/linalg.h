/* hysim linear algebra: column-major n x n matrices, band-limited kernels for matrices whose
 * nonzeros lie near the diagonal, a factor-once linear solver behind a small interface (dense LU
 * or banded LU through LAPACKE, sparse Cholesky or LU through SuiteSparse CHOLMOD or KLU), and
 * the generalised symmetric eigenproblem. Solves never allocate. */
#ifndef HYSIM_LINALG_H
#define HYSIM_LINALG_H

#include "hysim/base.h"
#include "hysim/sparse.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Element (i, j) of a column-major matrix with leading dimension n. */
#define HS_AT(A, n, i, j) ((A)[(size_t)(j) * (size_t)(n) + (size_t)(i)])

/* The largest structure (DOFs) for which hysim keeps dense n x n matrices (200 MB each at this
 * size). Above it a model keeps only compressed columns (docs/fe_model.md, "Large frames"), and
 * what needs the dense ones (condensed massless DOFs, consistent mass, springs, modal damping,
 * the dense-only integrators) is refused with a message that says what to change. */
#define HS_DENSE_MAX_DOFS 5000

/* y = A x  (n x n) */
void hs_matvec(int n, const double *A, const double *x, double *y);
/* y += alpha A x */
void hs_matvec_add(int n, const double *A, const double *x, double alpha, double *y);
/* C = alpha A + beta B (n x n, C may alias A or B) */
void hs_mat_axpby(int n, double alpha, const double *A, double beta, const double *B, double *C);
/* C = A B (n x n; C must not alias) */
void hs_matmul(int n, const double *A, const double *B, double *C);
double hs_dot(int n, const double *x, const double *y);
double hs_norm2(int n, const double *x);
double hs_norm_inf(int n, const double *x);

/* Band-limited kernels on the same dense storage: only entries with |i - j| <= kd are read
 * (kd >= n - 1 reads everything, in the same order as the dense kernels above). */
/* Half-bandwidth of A: the largest |i - j| with A(i, j) != 0; 0 for NULL or diagonal A. */
int hs_mat_bandwidth(int n, const double *A);
/* y = A x and y += alpha A x for A with half-bandwidth kd. */
void hs_band_matvec(int n, int kd, const double *A, const double *x, double *y);
void hs_band_matvec_add(int n, int kd, const double *A, const double *x, double alpha, double *y);

/* Packed band storage of an n x n matrix of half-bandwidth kd: (2 kd + 1) x n doubles, element
 * (i, j) with |i - j| <= kd at B[j (2 kd + 1) + kd + i - j] (LAPACK's general band layout without
 * its fill-in rows). A band pass then reads contiguous memory (on dense storage each column's
 * band sits on its own page once n is large). */
#define HS_BAND_LD(kd)          (2 * (size_t)(kd) + 1)
#define HS_BAND_AT(B, kd, i, j) ((B)[(size_t)(j)*HS_BAND_LD(kd) + (size_t)((kd) + (i) - (j))])
/* B (packed, kd) = the band of the dense A. */
void hs_band_pack(int n, int kd, const double *A, double *B);
/* y = B x and y += alpha B x, B packed (the operations and order of hs_band_matvec_add). */
void hs_packed_matvec(int n, int kd, const double *B, const double *x, double *y);
void hs_packed_matvec_add(int n, int kd, const double *B, const double *x, double alpha, double *y);

typedef struct hs_linsolver hs_linsolver;

/* A solver for n x n systems; `kind` "dense" (LAPACKE dpotrf/dpotrs when symmetric to round-off
 * and positive-definite, else dgetrf/dgetrs: linsolver_dense.c), "banded" (kd = n - 1),
 * "cholmod" (sparse symmetric positive-definite, SuiteSparse CHOLMOD), "klu" (sparse general,
 * SuiteSparse KLU) or "sparse" (CHOLMOD when the matrix is symmetric positive-definite, KLU
 * otherwise, as "banded" does with LAPACK); the sparse kinds analyse the pattern of the first
 * matrix factored (and analyse again when a later one has a nonzero outside it). */
int hs_linsolver_create(hs_ctx *ctx, const char *kind, int n, hs_linsolver **out);
/* A solver for n x n systems whose nonzeros lie within kd of the diagonal. `kind` "dense",
 * "banded" (LAPACKE dgbtrf/dgbtrs; dgttrf/dgttrs when kd = 1) or NULL: banded when the band is
 * narrow enough to pay (see linsolver.c), dense otherwise. */
int hs_linsolver_create_band(hs_ctx *ctx, const char *kind, int n, int kd, hs_linsolver **out);
/* A solver analysed once on `pattern` (n x n): `kind` "cholmod", "klu", "sparse", "dense",
 * "banded" or NULL (sparse when hs_linsolver_sparse_pays, else banded or dense as
 * hs_linsolver_create_band chooses). Later factors of matrices within the pattern are numeric
 * only (linsolver_sparse.c says where SuiteSparse allocates). */
int hs_linsolver_create_sparse(hs_ctx *ctx, const char *kind, const hs_csc *pattern,
                               hs_linsolver **out);
/* 1 when a sparse solver should beat LAPACK's banded or dense one on an n x n matrix of
 * half-bandwidth kd with nnz entries (the crossover bench/bench_sparse.c measures). */
int hs_linsolver_sparse_pays(int n, int kd, double nnz);
/* "dense", "banded", "cholmod", "klu" or "sparse": what the solver does. */
const char *hs_linsolver_kind(const hs_linsolver *s);
/* Copies A (dense n x n storage; a banded solver reads the band only) and factors it.
 * HS_ESINGULAR when singular. */
int hs_linsolver_factor(hs_linsolver *s, const double *A);
/* The same from packed band storage of half-bandwidth kd (kd <= the solver's when banded). */
int hs_linsolver_factor_packed(hs_linsolver *s, int kd, const double *B);
/* The same from compressed columns (any kind; a banded solver needs A within its band). */
int hs_linsolver_factor_csc(hs_linsolver *s, const hs_csc *A);
/* Solves A x = b in place (b becomes x). Never allocates (cholmod: after its first solve). */
int hs_linsolver_solve(hs_linsolver *s, double *b);
/* Solves A X = B in place for nrhs right sides (B n x nrhs, column-major): one LAPACK/BLAS call
 * for them all where that is cheaper than column by column (linsolver_dense.c). Never allocates
 * (cholmod: after its first solve). */
int hs_linsolver_solve_n(hs_linsolver *s, int nrhs, double *B);
void hs_linsolver_destroy(hs_linsolver **s);

/* Static condensation of the DOFs flagged in drop[n] out of the dense n x n K (column-major), in
 * place: the kept block becomes Kmm - Km0 K00^-1 K0m (src/base/condense.c), the dropped rows and
 * columns zero. HS_ESINGULAR when K00 is singular (no stiffness of their own). Allocates. */
int hs_static_condense(hs_ctx *ctx, int n, double *K, const unsigned char *drop);

/* Generalised symmetric-definite eigenproblem K phi = omega^2 M phi (LAPACKE dsygv), right across
 * mass scales: when masses span many orders (1e-10 beside real ones), the low modes come from
 * the inverted problem M x = K x / omega^2 (K positive definite), as shift-invert gives them
 * (src/base/eig_dense.c). omega2 ascending (n); phi (n x n, column-major, columns M-orthonormal).
 */
int hs_sym_eig(hs_ctx *ctx, int n, const double *K, const double *M, double *omega2, double *phi);

/* K phi = omega^2 M phi with a nonsymmetric K (a P-Delta tangent), as OpenSees' eigen
 * -fullGenLapack solves it (LAPACK dggev; FullGenEigenSolver.cpp): omega2 ascending, a complex
 * eigenvalue as -|lambda|, an infinite one as INFINITY; phi the right eigenvectors (real parts),
 * each scaled to phi' M phi = 1 where that is positive (src/base/eig_general.c). */
int hs_gen_eig(hs_ctx *ctx, int n, const double *K, const double *M, double *omega2, double *phi);

/* Eigenvalues of a general real n x n matrix (LAPACKE dgeev): real and imaginary parts. */
int hs_gen_eigvals(hs_ctx *ctx, int n, const double *A, double *wr, double *wi);

/* Small dense systems (row-major, n <= HS_SMALL_MAX) through LAPACK without allocation, for the
 * elements' state determination (src/base/linalg_small.c): A X = B in place (A overwritten by its
 * factor, B n x m by X), and the inverse of A into inv; -1 when A is singular or too large. */
#define HS_SMALL_MAX 48
int hs_small_solve(int n, double *A, double *B, int m);
int hs_small_inverse(int n, const double *A, double *inv);

/* Inverse of a general matrix, in place (LAPACKE dgetrf/dgetri); setup use only (allocates). */
int hs_mat_inverse(hs_ctx *ctx, int n, double *A);

#ifdef __cplusplus
}
#endif
#endif
