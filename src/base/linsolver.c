/* The factor-once linear solver: creation (the choice of kind) and the dispatch to the dense
 * (linsolver_dense.c), banded (linsolver_banded.c) and sparse (linsolver_sparse.c) paths. */
#include "linsolver_impl.h"

#include <string.h>

/* A band pays when LAPACK's band factor and solve cost no more than the dense ones of the same
 * matrix, whatever the matrix turns out to be (the kind is chosen before any factor). Both kinds
 * take the Cholesky of a matrix symmetric to round-off (dpbtrf, dense dpotf2 up to n = 160 and
 * dpotrf beyond: linsolver_dense.c) and LU otherwise (dgbtrf, dgetrf). Measured in instructions
 * (bench/band_lu_callgrind.sh: one factor_packed and one solve, OpenBLAS 0.3.21 serial,
 * 2026-11-29, the dense Cholesky; widest kd where band <= dense):
 *   symmetric positive-definite, and not symmetric to the last bit (a structure's tangent summed
 *     in another order, as the fiber frame's): 1 up to n = 10, 2 at 12-14, 3 at 16, 5 at 20, 6
 *     at 24, 8-10 at 30-40, 12 at 48, 14-16 at 60, 18-20 at 72, 24 at 90-100, 30 at 120, 36-42
 *     at 150, 120-140 at 200 (the blocked dpotrf); n = 36, kd = 12: 74 k against 66 k;
 *   general, with row exchanges (dgbtrf against dgetrf): 3 at 12, 8 at 20, 16 at 36-40, 22 at
 *     60-72, 36 at 100, 48 at 120-150, 80 at 200; kd = 1 (dpttrf, dgttrf) 0.003-0.3 of the dense
 *     cost for every n.
 * So kd <= 1, or 4 kd < n from n = 12 on, or 3 kd <= n past n = 160: it loses 0.3 % at n = 12,
 * kd = 2 and 2-5 % at n = 14, kd = 3 on the symmetric matrices and leaves the general matrix's
 * band gain between n / 4 and n / 3 untaken (band / dense 0.85-0.97). The former rule, 3 kd <= n,
 * was measured against the dense LU, which every dense matrix took until the Cholesky. */
static int ls_band_pays(int n, int kd)
{
    return kd <= 1 || (n >= 12 && 4 * kd < n) || (n > 160 && 3 * kd <= n);
}

int hs_linsolver_create_band(hs_ctx *ctx, const char *kind, int n, int kd, hs_linsolver **out)
{
    if (!out || n <= 0) return hs_fail(ctx, HS_EINVAL, "linear solver: invalid size %d", n);
    if (kd < 0 || kd > n - 1) kd = n - 1;
    hs_ls_kind k;
    if (!kind)
        k = ls_band_pays(n, kd) ? HS_LS_BANDED : HS_LS_DENSE;
    else if (strcmp(kind, "dense") == 0)
        k = HS_LS_DENSE;
    else if (strcmp(kind, "banded") == 0)
        k = HS_LS_BANDED;
    else if (strcmp(kind, "cholmod") == 0)
        k = HS_LS_CHOLMOD;
    else if (strcmp(kind, "klu") == 0)
        k = HS_LS_KLU;
    else if (strcmp(kind, "sparse") == 0)
        k = HS_LS_SPARSE;
    else
        return hs_fail(ctx, HS_EUNSUPPORTED,
                       "linear solver: unknown kind '%s' (dense, banded, cholmod, klu, sparse)",
                       kind);
    if (k == HS_LS_BANDED && kd == 1) k = HS_LS_TRIDIAGONAL;
    hs_linsolver *s = hs_calloc(1, sizeof *s);
    if (!s) return HS_ENOMEM;
    s->ctx = ctx;
    s->kind = k;
    s->n = n;
    s->kd = k == HS_LS_DENSE ? n - 1 : kd;
    s->ldab = 3 * s->kd + 1;
    if (k == HS_LS_CHOLMOD || k == HS_LS_KLU || k == HS_LS_SPARSE) {
        const int rc = hs_ls_sparse_create(s, NULL);
        if (rc) {
            hs_linsolver_destroy(&s);
            return rc;
        }
        *out = s;
        return 0;
    }
    const size_t size = k == HS_LS_DENSE ? hs_ls_dense_size(n) : hs_ls_banded_size(s);
    s->lu = hs_dvec(size);
    s->ipiv = hs_calloc((size_t)n, sizeof *s->ipiv);
    if (k == HS_LS_DENSE) s->work = hs_dvec((size_t)n);
    if (!s->lu || !s->ipiv || (k == HS_LS_DENSE && !s->work)) {
        hs_linsolver_destroy(&s);
        return HS_ENOMEM;
    }
    *out = s;
    return 0;
}

int hs_linsolver_create(hs_ctx *ctx, const char *kind, int n, hs_linsolver **out)
{
    return hs_linsolver_create_band(ctx, kind ? kind : "dense", n, n - 1, out);
}

/* A sparse factor (CHOLMOD's supernodal Cholesky) beats LAPACK's band one past a half-bandwidth of
 * about 100 on 2-D frames (bench/bench_sparse.c: banded/cholmod factor time 0.9 at kd = 56 and
 * 80, 2.0 at 125, 3.3 at 248), and the dense LU (2/3 n^3) from n = 100 or so when the band is
 * too wide to pay against it (3 kd > n, the rule measured against the dense LU; the dense
 * Cholesky against the sparse kinds is not measured, so the sparse choice is the same as it
 * was). Either way the matrix must be sparse: at most a tenth of its entries. */
int hs_linsolver_sparse_pays(int n, int kd, double nnz)
{
    if (kd <= 1 || n < 100 || nnz > 0.1 * (double)n * (double)n) return 0;
    return 3 * kd > n || kd > 100;
}

int hs_linsolver_create_sparse(hs_ctx *ctx, const char *kind, const hs_csc *pattern,
                               hs_linsolver **out)
{
    if (!out || !pattern || pattern->nrows != pattern->ncols || pattern->nrows <= 0)
        return hs_fail(ctx, HS_EINVAL, "linear solver: the pattern must be a square matrix");
    const int n = pattern->nrows, kd = hs_csc_bandwidth(pattern);
    if (!kind)
        kind = hs_linsolver_sparse_pays(n, kd, hs_csc_nnz(pattern)) ? "sparse"
               : ls_band_pays(n, kd)                                ? "banded"
                                                                    : "dense";
    const int sparse =
        strcmp(kind, "cholmod") == 0 || strcmp(kind, "klu") == 0 || strcmp(kind, "sparse") == 0;
    hs_linsolver *s = NULL;
    int rc = hs_linsolver_create_band(ctx, kind, n, kd, &s);
    if (!rc && sparse)
        rc = hs_ls_sparse_create(s, pattern);
    else if (!rc && s->kind == HS_LS_DENSE)
        rc = hs_ls_dense_set_pattern(s, pattern);
    if (rc) {
        hs_linsolver_destroy(&s);
        return rc;
    }
    *out = s;
    return 0;
}

const char *hs_linsolver_kind(const hs_linsolver *s)
{
    static const char *const names[] = {"dense", "banded", "banded", "cholmod", "klu", "sparse"};
    return names[s->kind];
}

static int ls_factor(hs_linsolver *s, const hs_ls_source *A)
{
    if (s->sparse) {
        s->factored = 0;
        const int rc = hs_ls_sparse_factor(s, A);
        s->factored = rc == 0;
        return rc;
    }
    const lapack_int info =
        s->kind == HS_LS_DENSE ? hs_ls_dense_factor(s, A) : hs_ls_banded_factor(s, A);
    s->factored = (info == 0);
    if (info > 0)
        return hs_fail(s->ctx, HS_ESINGULAR, "linear solver: matrix is singular (pivot %d)",
                       (int)info);
    if (info < 0)
        return hs_fail(s->ctx, HS_EINVAL, "linear solver: %s LU argument %d", hs_linsolver_kind(s),
                       (int)-info);
    return 0;
}

int hs_linsolver_factor(hs_linsolver *s, const double *A)
{
    const hs_ls_source src = {A, 0, s->kd, NULL};
    return ls_factor(s, &src);
}

int hs_linsolver_factor_packed(hs_linsolver *s, int kd, const double *B)
{
    if (!s->sparse && s->kind != HS_LS_DENSE && kd > s->kd)
        return hs_fail(s->ctx, HS_EINVAL,
                       "linear solver: a matrix of half-bandwidth %d for a solver of band %d", kd,
                       s->kd);
    const hs_ls_source src = {B, 1, kd, NULL};
    return ls_factor(s, &src);
}

int hs_linsolver_factor_csc(hs_linsolver *s, const hs_csc *A)
{
    if (A->nrows != s->n || A->ncols != s->n)
        return hs_fail(s->ctx, HS_EINVAL, "linear solver: a %d x %d matrix for %d unknowns",
                       A->nrows, A->ncols, s->n);
    if (!s->sparse && s->kind != HS_LS_DENSE && hs_csc_bandwidth(A) > s->kd)
        return hs_fail(s->ctx, HS_EINVAL,
                       "linear solver: a matrix of half-bandwidth %d for a solver of band %d",
                       hs_csc_bandwidth(A), s->kd);
    const hs_ls_source src = {NULL, 0, s->kd, A};
    return ls_factor(s, &src);
}

int hs_linsolver_solve(hs_linsolver *s, double *b)
{
    if (!s->factored) return hs_fail(s->ctx, HS_EINVAL, "linear solver: not factored");
    if (s->sparse) return hs_ls_sparse_solve(s, b);
    const lapack_int info =
        s->kind == HS_LS_DENSE ? hs_ls_dense_solve(s, b) : hs_ls_banded_solve(s, b);
    return info == 0
               ? 0
               : hs_fail(s->ctx, HS_EINVAL, "linear solver: %s solve failed", hs_linsolver_kind(s));
}

int hs_linsolver_solve_n(hs_linsolver *s, int nrhs, double *B)
{
    if (!s->factored) return hs_fail(s->ctx, HS_EINVAL, "linear solver: not factored");
    if (nrhs < 0) return hs_fail(s->ctx, HS_EINVAL, "linear solver: %d right sides", nrhs);
    if (s->sparse) {
        for (int c = 0; c < nrhs; c++) {
            const int rc = hs_ls_sparse_solve(s, B + (size_t)c * (size_t)s->n);
            if (rc) return rc;
        }
        return 0;
    }
    const lapack_int info =
        s->kind == HS_LS_DENSE ? hs_ls_dense_solve_n(s, nrhs, B) : hs_ls_banded_solve_n(s, nrhs, B);
    return info == 0
               ? 0
               : hs_fail(s->ctx, HS_EINVAL, "linear solver: %s solve failed", hs_linsolver_kind(s));
}

void hs_linsolver_destroy(hs_linsolver **s)
{
    if (!s || !*s) return;
    hs_ls_sparse_destroy(*s);
    hs_ls_dense_pattern_free(*s);
    hs_free((*s)->lu);
    hs_free((*s)->ipiv);
    hs_free((*s)->work);
    hs_free(*s);
    *s = NULL;
}
