/* Newton matrices kept as Woodbury updates of a factored base (newton_update.h). */
#include "newton_update.h"

#include <lapacke.h>
#include <string.h>

struct hs_newton_update {
    hs_ctx *ctx;
    hs_linsolver *ls; /* the base's factor */
    const hs_csc *P;
    int n, nnz, max_dofs, max_cols;
    int has_base;
    double *base; /* the base's values (nnz) */
    /* the update: S (idx, s DOFs; pos[i] its place in S or -1), D's entries (row and column
     * places in S, value), the capacitance I + G D (s x s, LU with ipiv) */
    int s, *idx, *pos;
    int nd, *d_row, *d_col, *d_pos; /* d_pos: the entry's position in the pattern */
    double *d_val;
    int *colof, *cand; /* per position: its column; scratch: the positions to compare */
    char *mark;
    double *cap;
    lapack_int *ipiv;
    /* W's kept columns: col[i] the column of DOF i in Wc (n x max_cols) or -1 */
    int ncols, *col;
    double *Wc;
    double *xs, *w; /* scratch: x_S, D x_S (max_dofs each) */
    long factors, updates, unchanged;
};

void hs_newton_update_destroy(hs_newton_update **pu)
{
    if (!pu || !*pu) return;
    hs_newton_update *u = *pu;
    hs_linsolver_destroy(&u->ls);
    int *ints[] = {u->idx, u->pos, u->d_row, u->d_col, u->d_pos, u->colof, u->cand, u->col};
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) hs_free(ints[k]);
    double *dbl[] = {u->base, u->d_val, u->cap, u->Wc, u->xs, u->w};
    for (size_t k = 0; k < sizeof dbl / sizeof dbl[0]; k++) hs_free(dbl[k]);
    hs_free(u->ipiv);
    hs_free(u->mark);
    hs_free(u);
    *pu = NULL;
}

int hs_newton_update_create(hs_ctx *ctx, hs_linsolver *ls, const hs_csc *pattern, int max_dofs,
                            hs_newton_update **out)
{
    hs_newton_update *u = hs_calloc(1, sizeof *u);
    if (!u) {
        hs_linsolver_destroy(&ls);
        return hs_fail(ctx, HS_ENOMEM, "Newton update: out of memory");
    }
    u->ctx = ctx;
    u->ls = ls;
    u->P = pattern;
    u->n = pattern->ncols;
    u->nnz = hs_csc_nnz(pattern);
    u->max_dofs = max_dofs < u->n ? max_dofs : u->n;
    u->max_cols = 4 * u->max_dofs < u->n ? 4 * u->max_dofs : u->n;
    const size_t n = (size_t)u->n, m = (size_t)u->max_dofs, nnz = (size_t)u->nnz;
    u->base = hs_dvec(nnz + 1);
    u->idx = hs_calloc(m + 1, sizeof *u->idx);
    u->pos = hs_calloc(n, sizeof *u->pos);
    u->col = hs_calloc(n, sizeof *u->col);
    u->d_row = hs_calloc(nnz + 1, sizeof *u->d_row);
    u->d_col = hs_calloc(nnz + 1, sizeof *u->d_col);
    u->d_val = hs_dvec(nnz + 1);
    u->d_pos = hs_calloc(nnz + 1, sizeof *u->d_pos);
    u->colof = hs_calloc(nnz + 1, sizeof *u->colof);
    u->cand = hs_calloc(nnz + 1, sizeof *u->cand);
    u->mark = hs_calloc(nnz + 1, 1);
    u->cap = hs_dvec(m * m + 1);
    u->ipiv = hs_calloc(m + 1, sizeof *u->ipiv);
    u->Wc = hs_dvec(n * (size_t)u->max_cols + 1);
    u->xs = hs_dvec(m + 1);
    u->w = hs_dvec(m + 1);
    if (!u->base || !u->idx || !u->pos || !u->col || !u->d_row || !u->d_col || !u->d_val ||
        !u->d_pos || !u->colof || !u->cand || !u->mark || !u->cap || !u->ipiv || !u->Wc || !u->xs ||
        !u->w) {
        hs_newton_update_destroy(&u);
        return hs_fail(ctx, HS_ENOMEM, "Newton update: out of memory (n = %zu, %d DOFs)", n,
                       max_dofs);
    }
    for (size_t i = 0; i < n; i++) u->pos[i] = u->col[i] = -1;
    for (int j = 0; j < u->n; j++)
        for (int p = pattern->colptr[j]; p < pattern->colptr[j + 1]; p++) u->colof[p] = j;
    *out = u;
    return 0;
}

static void clear_update(hs_newton_update *u)
{
    for (int a = 0; a < u->s; a++) u->pos[u->idx[a]] = -1;
    u->s = u->nd = 0;
}

/* J factored: the new base (its kept columns dropped). */
static int refactor(hs_newton_update *u, const hs_csc *J)
{
    clear_update(u);
    for (int c = 0; c < u->n; c++) u->col[c] = -1;
    u->ncols = 0;
    u->has_base = 0;
    const int rc = hs_linsolver_factor_csc(u->ls, J);
    if (rc) return rc;
    memcpy(u->base, J->val, (size_t)u->nnz * sizeof *u->base);
    u->has_base = 1;
    u->factors++;
    return 0;
}

/* Adds DOF i to S; 0 when S is full. */
static int add_dof(hs_newton_update *u, int i)
{
    if (u->pos[i] >= 0) return 1;
    if (u->s == u->max_dofs) return 0;
    u->pos[i] = u->s;
    u->idx[u->s++] = i;
    return 1;
}

/* Column i of W = B^-1 e_i, computed at its first use; NULL when no room is left. */
static const double *w_column(hs_newton_update *u, int i, int *rc)
{
    const size_t n = (size_t)u->n;
    if (u->col[i] < 0) {
        if (u->ncols == u->max_cols) return NULL;
        double *w = u->Wc + n * (size_t)u->ncols;
        memset(w, 0, n * sizeof *w);
        w[i] = 1.0;
        *rc = hs_linsolver_solve(u->ls, w);
        if (*rc) return NULL;
        u->col[i] = u->ncols++;
    }
    return u->Wc + n * (size_t)u->col[i];
}

/* J's entry at position p against the base's: a difference joins D (its row and column S); 0
 * when S is full. */
static int diff_entry(hs_newton_update *u, const hs_csc *J, int p)
{
    if (J->val[p] == u->base[p]) return 1;
    const int i = J->rowind[p], j = u->colof[p];
    if (!add_dof(u, i) || !add_dof(u, j)) return 0;
    u->d_pos[u->nd] = p;
    u->d_row[u->nd] = i;
    u->d_col[u->nd] = j;
    u->d_val[u->nd++] = J->val[p] - u->base[p];
    return 1;
}

int hs_newton_update_factor(hs_newton_update *u, const hs_csc *J)
{
    return hs_newton_update_factor_at(u, J, NULL, 0);
}

int hs_newton_update_factor_at(hs_newton_update *u, const hs_csc *J, const int *at, int nat)
{
    if (!u->has_base) return refactor(u, J);
    int nc = 0; /* the positions to compare: the last D's and `at` (all when at is NULL) */
    if (at) {
        for (int k = 0; k < u->nd; k++) {
            u->cand[nc++] = u->d_pos[k];
            u->mark[u->d_pos[k]] = 1;
        }
        for (int k = 0; k < nat; k++)
            if (!u->mark[at[k]]) {
                u->mark[at[k]] = 1;
                u->cand[nc++] = at[k];
            }
        for (int k = 0; k < nc; k++) u->mark[u->cand[k]] = 0;
    }
    clear_update(u);
    if (at) {
        for (int k = 0; k < nc; k++)
            if (!diff_entry(u, J, u->cand[k])) return refactor(u, J);
    } else {
        for (int p = 0; p < u->nnz; p++)
            if (!diff_entry(u, J, p)) return refactor(u, J);
    }
    if (u->s == 0) {
        u->unchanged++;
        return 0;
    }
    const int s = u->s;
    for (int k = 0; k < u->nd; k++) { /* D's rows and columns as places in S */
        u->d_row[k] = u->pos[u->d_row[k]];
        u->d_col[k] = u->pos[u->d_col[k]];
    }
    /* cap = I + G D, G = (B^-1)_SS: column b of G D sums G[:, c] D[c, b] over D's entries */
    memset(u->cap, 0, (size_t)s * (size_t)s * sizeof *u->cap);
    for (int a = 0; a < s; a++) u->cap[(size_t)a * (size_t)s + (size_t)a] = 1.0;
    for (int k = 0; k < u->nd; k++) {
        int rc = 0;
        const double *w = w_column(u, u->idx[u->d_row[k]], &rc);
        if (rc) return rc;
        if (!w) return refactor(u, J);
        double *cb = u->cap + (size_t)u->d_col[k] * (size_t)s;
        for (int a = 0; a < s; a++) cb[a] += w[u->idx[a]] * u->d_val[k];
    }
    const lapack_int info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, s, s, u->cap, s, u->ipiv);
    if (info > 0) return refactor(u, J); /* let the full factor judge J's singularity */
    if (info < 0) return hs_fail(u->ctx, HS_EINVAL, "Newton update: LU argument %d", (int)-info);
    u->updates++;
    return 0;
}

int hs_newton_update_solve(hs_newton_update *u, double *b)
{
    int rc = hs_linsolver_solve(u->ls, b); /* y = B^-1 b */
    if (rc || u->s == 0) return rc;
    const int s = u->s;
    for (int a = 0; a < s; a++) u->xs[a] = b[u->idx[a]];
    const lapack_int info =
        LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', s, 1, u->cap, s, u->ipiv, u->xs, s);
    if (info) return hs_fail(u->ctx, HS_EINVAL, "Newton update: LU solve argument %d", (int)-info);
    memset(u->w, 0, (size_t)s * sizeof *u->w); /* w = D x_S */
    for (int k = 0; k < u->nd; k++) u->w[u->d_row[k]] += u->d_val[k] * u->xs[u->d_col[k]];
    for (int c = 0; c < s; c++) { /* x = y - W w */
        if (u->w[c] == 0.0) continue;
        const double *wc = u->Wc + (size_t)u->n * (size_t)u->col[u->idx[c]];
        for (int i = 0; i < u->n; i++) b[i] -= wc[i] * u->w[c];
    }
    return 0;
}

void hs_newton_update_counts(const hs_newton_update *u, long *factors, long *updates,
                             long *unchanged, int *dofs)
{
    if (factors) *factors = u->factors;
    if (updates) *updates = u->updates;
    if (unchanged) *unchanged = u->unchanged;
    if (dofs) *dofs = u->s;
}
