/* The script's own analysis' matrices as values over one pattern (opensees_analysis.h,
 * hs_os_storage): the frame's sparse pattern, or the full n x n one whose values are the dense
 * column-major matrix. The restores, products and factors that the analysis does at every
 * iteration, written once for both. */
#include "opensees_analysis.h"

#include <string.h>

/* The full n x n pattern: column j holds rows 0 .. n - 1, so its values are a dense matrix. */
static int full_pattern(hs_ctx *ctx, int n, hs_csc **out)
{
    const size_t nn = (size_t)n * (size_t)n;
    int *ti = hs_calloc(nn, sizeof *ti), *tj = hs_calloc(nn, sizeof *tj);
    int rc = ti && tj ? 0 : HS_ENOMEM;
    for (size_t k = 0; !rc && k < nn; k++) {
        ti[k] = (int)(k % (size_t)n);
        tj[k] = (int)(k / (size_t)n);
    }
    if (!rc) rc = hs_csc_from_triplets(ctx, n, n, (int)nn, ti, tj, NULL, out);
    hs_free(ti);
    hs_free(tj);
    return rc;
}

int hs_os_storage_init(hs_ctx *ctx, hs_fe *fe, int n, hs_os_storage *s)
{
    memset(s, 0, sizeof *s);
    const hs_csc *P = NULL;
    if (hs_fe_sparse_pattern(fe, &P) == 0 && P->nrows == n) {
        s->P = P;
        s->sparse = 1;
    } else { /* condensed DOFs: the dense restore, in the full pattern */
        hs_ctx_clear(ctx);
        const int rc = full_pattern(ctx, n, &s->full);
        if (rc) return rc;
        s->P = s->full;
    }
    s->n = n;
    s->nnz = (size_t)hs_csc_nnz(s->P);
    s->view = *s->P;
    return 0;
}

void hs_os_storage_free(hs_os_storage *s)
{
    hs_csc_destroy(&s->full);
    s->P = NULL;
}

int hs_os_storage_to_full(hs_ctx *ctx, hs_os_storage *s)
{
    hs_os_storage_free(s);
    const int rc = full_pattern(ctx, s->n, &s->full);
    if (rc) return rc;
    s->P = s->full;
    s->sparse = 0;
    s->nnz = (size_t)hs_csc_nnz(s->P);
    s->view = *s->P;
    return 0;
}

int hs_os_storage_gather(const hs_os_storage *s, const double *D, double *v)
{
    const int n = s->n;
    size_t all = 0, inside = 0; /* nonzeros of D, and those at P's places */
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++) all += HS_AT(D, n, i, j) != 0.0;
        for (int p = s->P->colptr[j]; p < s->P->colptr[j + 1]; p++) {
            v[p] = HS_AT(D, n, s->P->rowind[p], j);
            inside += v[p] != 0.0;
        }
    }
    return all != inside;
}

void hs_os_storage_matvec_sub(const hs_os_storage *s, const double *restrict A,
                              const double *restrict x, double *restrict y)
{
    const int *cp = s->P->colptr, *ri = s->P->rowind;
    for (int j = 0; j < s->n; j++) {
        const double xj = x[j];
        if (xj == 0.0) continue;
        for (int p = cp[j], end = cp[j + 1]; p < end; p++) y[ri[p]] -= A[p] * xj;
    }
}

void hs_os_storage_matvec(const hs_os_storage *s, const double *A, const double *x, double *y)
{
    const int *cp = s->P->colptr, *ri = s->P->rowind;
    memset(y, 0, (size_t)s->n * sizeof *y);
    for (int j = 0; j < s->n; j++)
        for (int p = cp[j]; p < cp[j + 1]; p++) y[ri[p]] += A[p] * x[j];
}

int hs_os_storage_part(hs_ctx *ctx, const hs_os_storage *s, hs_fe *fe, hs_os_part *part)
{
    memset(part, 0, sizeof *part);
    if (!s->sparse) return 0;
    const hs_csc *Pg = NULL;
    int rc = hs_fe_sparse_pattern(fe, &Pg);
    if (!rc) {
        part->nnz = (size_t)hs_csc_nnz(Pg);
        part->map = hs_calloc(part->nnz + 1, sizeof *part->map);
        part->val = hs_dvec(part->nnz + 1);
        rc = part->map && part->val ? hs_csc_slot_map(ctx, s->P, Pg, part->map) : HS_ENOMEM;
    }
    if (rc) hs_os_part_free(part);
    return rc;
}

void hs_os_part_free(hs_os_part *part)
{
    hs_free(part->map);
    hs_free(part->val);
    part->map = NULL;
    part->val = NULL;
}

int hs_os_storage_restore(const hs_os_storage *s, const hs_os_part *part, hs_fe *fe,
                          const double *d, const double *v, double *r, double *Kt, double *Ct)
{
    if (!s->sparse) {
        memset(r, 0, (size_t)s->n * sizeof *r);
        memset(Kt, 0, s->nnz * sizeof *Kt);
        if (Ct) memset(Ct, 0, s->nnz * sizeof *Ct);
        return hs_fe_restore(fe, d, v, r, Kt, Ct);
    }
    if (!part || !part->map) return hs_fe_restore_sparse(fe, d, v, r, Kt, Ct);
    const int rc = hs_fe_restore_sparse(fe, d, v, r, part->val, NULL);
    for (size_t k = 0; !rc && k < part->nnz; k++) Kt[part->map[k]] = part->val[k];
    return rc;
}

int hs_os_storage_initial(const hs_os_storage *s, const hs_os_part *part, hs_fe *fe, double *K)
{
    memset(K, 0, s->nnz * sizeof *K);
    if (!s->sparse) return hs_fe_initial_stiffness(fe, K);
    if (!part || !part->map) return hs_fe_initial_stiffness_sparse(fe, K);
    memset(part->val, 0, part->nnz * sizeof *part->val);
    const int rc = hs_fe_initial_stiffness_sparse(fe, part->val);
    for (size_t k = 0; !rc && k < part->nnz; k++) K[part->map[k]] = part->val[k];
    return rc;
}

int hs_os_storage_solver(hs_ctx *ctx, const hs_os_storage *s, hs_linsolver **out)
{
    if (!s->sparse) return hs_linsolver_create(ctx, "dense", s->n, out);
    return hs_linsolver_create_sparse(ctx, NULL, s->P, out); /* the linsolver's own choice */
}

int hs_os_storage_factor(hs_os_storage *s, hs_linsolver *ls, const double *A)
{
    if (!s->sparse) return hs_linsolver_factor(ls, A);
    s->view.val = (double *)A; /* factored from, never written */
    const int rc = hs_linsolver_factor_csc(ls, &s->view);
    s->view.val = NULL;
    return rc;
}
