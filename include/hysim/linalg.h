/* hysim dense linear algebra: column-major n x n matrices, a factor-once linear solver behind a
 * small interface (dense LU through LAPACKE now; a sparse KLU path can join later), and the
 * generalised symmetric eigenproblem. Solves never allocate. */
#ifndef HYSIM_LINALG_H
#define HYSIM_LINALG_H

#include "hysim/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Element (i, j) of a column-major matrix with leading dimension n. */
#define HS_AT(A, n, i, j) ((A)[(size_t)(j) * (size_t)(n) + (size_t)(i)])

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

typedef struct hs_linsolver hs_linsolver;

/* A solver for n x n systems; `kind` "dense" (LAPACKE dgetrf/dgetrs). */
int hs_linsolver_create(hs_ctx *ctx, const char *kind, int n, hs_linsolver **out);
/* Copies A and factors it. HS_ESINGULAR when singular. */
int hs_linsolver_factor(hs_linsolver *s, const double *A);
/* Solves A x = b in place (b becomes x). Never allocates. */
int hs_linsolver_solve(hs_linsolver *s, double *b);
void hs_linsolver_destroy(hs_linsolver **s);

/* Generalised symmetric-definite eigenproblem K phi = omega^2 M phi (LAPACKE dsygv).
 * omega2 ascending (n); phi (n x n, column-major, columns M-orthonormal). */
int hs_sym_eig(hs_ctx *ctx, int n, const double *K, const double *M, double *omega2, double *phi);

/* Eigenvalues of a general real n x n matrix (LAPACKE dgeev): real and imaginary parts. */
int hs_gen_eigvals(hs_ctx *ctx, int n, const double *A, double *wr, double *wi);

/* Inverse of a general matrix, in place (LAPACKE dgetrf/dgetri); setup use only (allocates). */
int hs_mat_inverse(hs_ctx *ctx, int n, double *A);

#ifdef __cplusplus
}
#endif
#endif
