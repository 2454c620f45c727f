/* The sparse kinds of the linear solver, through SuiteSparse (Debian's libsuitesparse-dev):
 * `cholmod` (symmetric positive-definite: CHOLMOD's fill-reducing ordering and symbolic analysis
 * once, a numeric supernodal Cholesky per factor), `klu` (general: KLU's BTF and AMD ordering
 * once, then klu_refactor, a numeric LU with the pivot order of the last full factor) and
 * `sparse` (CHOLMOD when the matrix is symmetric positive-definite, KLU otherwise).
 *
 * The pattern is the one given at creation, or that of the first matrix factored. A later matrix
 * whose nonzeros lie inside it (structural zeros are fine) is copied into it and refactored
 * numerically; one with a nonzero outside it widens the pattern to the union and analyses again
 * (allocates: a setup event, or a tangent that fills a new entry). Where SuiteSparse allocates:
 * the analyses, the first numeric factor (CHOLMOD's L values, KLU's Numeric), KLU's full factor
 * when refactoring with the old pivots fails or their reciprocal condition estimate falls by 1e3,
 * kind sparse's first fall back to KLU (its analysis), CHOLMOD's first solve (its Y, E and X,
 * reused after) and every CHOLMOD factor (cholmod_super_numeric's dense update workspace: a
 * header and its values, freed on return). KLU's refactor and solve and CHOLMOD's solves allocate
 * nothing. SuiteSparse allocates through hs_malloc, so hs_alloc_count sees all of it. */
#include "linsolver_impl.h"

#include <cholmod.h>
#include <float.h>
#include <klu.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* after <cholmod.h> and <klu.h>: their calls through the table that hs_suitesparse_require fills
 * (SuiteSparse is loaded when the first sparse solver is created, not at the program's start) */
#include "base/suitesparse_libs_names.h"

struct hs_ls_sparse {
    hs_csc *pat; /* the analysed pattern; its values are the matrix last factored */
    /* cholmod: the matrix is permuted here once (CHOLMOD's fill-reducing ordering, `pinv` its
     * inverse), and its lower triangle C = tril(P A P') (from pat->val[cmap[k]]) is factored with
     * the natural ordering, which CHOLMOD's supernodal factor reads in place */
    int *mirror; /* the position of (j, i) for each entry (i, j) of pat, -1 when absent */
    int *pinv, *cmap;
    hs_csc *C;
    double *w; /* n: the permuted right-hand side */
    cholmod_common cc;
    cholmod_sparse Ch; /* a header over C */
    cholmod_factor *L;
    cholmod_dense *X, *Y, *E;
    klu_common kc;
    klu_symbolic *sym;
    klu_numeric *num;
    double rcond_full;  /* klu: the reciprocal condition estimate of the last full factor */
    int by_klu;         /* the last factor is KLU's (kind sparse: the matrix was not SPD) */
    int asym_p, asym_j; /* cholmod: an entry (pat->rowind[asym_p], asym_j) without its mirror */
};

static int uses_cholmod(const hs_linsolver *s)
{
    return s->kind != HS_LS_KLU;
}
static int uses_klu(const hs_linsolver *s)
{
    return s->kind != HS_LS_CHOLMOD;
}

static void ss_use_counted_allocation(void)
{
    SuiteSparse_config.malloc_func = hs_malloc;
    SuiteSparse_config.calloc_func = hs_calloc;
    SuiteSparse_config.realloc_func = hs_realloc;
    SuiteSparse_config.free_func = hs_free;
}

static const char *kind_name(const hs_linsolver *s)
{
    return s->kind == HS_LS_CHOLMOD ? "cholmod" : s->kind == HS_LS_KLU ? "klu" : "sparse";
}

/* Rows lo..hi of column j that the dense or packed source can hold. */
static void source_rows(const hs_ls_source *A, int n, int j, int *lo, int *hi)
{
    const int kd = A->packed ? A->kd : n - 1;
    *lo = j - kd > 0 ? j - kd : 0;
    *hi = j + kd < n - 1 ? j + kd : n - 1;
}

/* Copies the source's values into P's pattern; 0 when a nonzero of the source lies outside. */
static int gather(hs_csc *P, const hs_ls_source *A)
{
    const int n = P->ncols;
    if (A->csc && hs_csc_same_pattern(P, A->csc)) {
        memcpy(P->val, A->csc->val, (size_t)hs_csc_nnz(P) * sizeof *P->val);
        return 1;
    }
    if (A->csc && !hs_csc_pattern_contains(P, A->csc)) return 0;
    for (int j = 0; j < n; j++) {
        int p = P->colptr[j];
        const int end = P->colptr[j + 1];
        if (A->csc) {
            for (int q = A->csc->colptr[j]; q < A->csc->colptr[j + 1]; q++) {
                while (P->rowind[p] < A->csc->rowind[q]) P->val[p++] = 0.0;
                P->val[p++] = A->csc->val[q];
            }
        } else {
            int lo, hi;
            source_rows(A, n, j, &lo, &hi);
            for (int i = lo; i <= hi; i++) {
                const double v = A->packed ? HS_BAND_AT(A->a, A->kd, i, j) : HS_AT(A->a, n, i, j);
                while (p < end && P->rowind[p] < i) P->val[p++] = 0.0;
                if (p < end && P->rowind[p] == i)
                    P->val[p++] = v;
                else if (v != 0.0)
                    return 0;
            }
        }
        while (p < end) P->val[p++] = 0.0;
    }
    return 1;
}

/* The pattern of the source's nonzeros (all of a csc source's entries). */
static int source_pattern(hs_ctx *ctx, int n, const hs_ls_source *A, hs_csc **out)
{
    if (A->csc) return hs_csc_copy(ctx, A->csc, out);
    int nt = 0;
    for (int pass = 0; pass < 2; pass++) {
        int *ti = NULL, *tj = NULL;
        if (pass == 1) {
            ti = hs_calloc((size_t)nt, sizeof *ti);
            tj = hs_calloc((size_t)nt, sizeof *tj);
            if (!ti || !tj) {
                hs_free(ti);
                hs_free(tj);
                return hs_fail(ctx, HS_ENOMEM, "linear solver: out of memory (%d entries)", nt);
            }
        }
        int k = 0;
        for (int j = 0; j < n; j++) {
            int lo, hi;
            source_rows(A, n, j, &lo, &hi);
            for (int i = lo; i <= hi; i++)
                if (hs_ls_at(A, n, i, j) != 0.0) {
                    if (ti) {
                        ti[k] = i;
                        tj[k] = j;
                    }
                    k++;
                }
        }
        if (pass == 0) {
            nt = k;
            continue;
        }
        const int rc = hs_csc_from_triplets(ctx, n, n, nt, ti, tj, NULL, out);
        hs_free(ti);
        hs_free(tj);
        return rc;
    }
    return 0;
}

static void release_analysis(hs_ls_sparse *sp)
{
    if (sp->L) cholmod_free_factor(&sp->L, &sp->cc);
    if (sp->num) klu_free_numeric(&sp->num, &sp->kc);
    if (sp->sym) klu_free_symbolic(&sp->sym, &sp->kc);
    hs_free(sp->mirror);
    hs_free(sp->pinv);
    hs_free(sp->cmap);
    hs_free(sp->w);
    sp->mirror = sp->pinv = sp->cmap = NULL;
    sp->w = NULL;
    hs_csc_destroy(&sp->C);
    hs_csc_destroy(&sp->pat);
}

static cholmod_sparse cholmod_header(hs_csc *A, int stype)
{
    return (cholmod_sparse){.nrow = (size_t)A->nrows,
                            .ncol = (size_t)A->ncols,
                            .nzmax = (size_t)hs_csc_nnz(A),
                            .p = A->colptr,
                            .i = A->rowind,
                            .x = A->val,
                            .stype = stype,
                            .itype = CHOLMOD_INT,
                            .xtype = CHOLMOD_REAL,
                            .dtype = CHOLMOD_DOUBLE,
                            .sorted = 1,
                            .packed = 1};
}

static int cholmod_failed(hs_linsolver *s, const char *what)
{
    const int status = s->sparse->cc.status;
    return hs_fail(s->ctx, status == CHOLMOD_OUT_OF_MEMORY ? HS_ENOMEM : HS_EINVAL,
                   "linear solver (cholmod): %s of the %d x %d matrix failed (CHOLMOD status %d)",
                   what, s->n, s->n, status);
}

/* The ordering of pat (CHOLMOD's choice: AMD, or METIS when AMD fills much), C's pattern and the
 * symbolic factor of C in the natural ordering. */
static int cholmod_analysis(hs_linsolver *s)
{
    hs_ls_sparse *sp = s->sparse;
    const hs_csc *P = sp->pat;
    const int n = s->n, nnz = hs_csc_nnz(P);
    sp->mirror = hs_calloc((size_t)nnz + 1, sizeof *sp->mirror);
    sp->pinv = hs_calloc((size_t)n, sizeof *sp->pinv);
    sp->w = hs_dvec((size_t)n);
    int *ti = hs_calloc((size_t)nnz + 1, sizeof *ti), *tj = hs_calloc((size_t)nnz + 1, sizeof *tj);
    double *tk = hs_dvec((size_t)nnz + 1);
    int rc = 0;
    if (!sp->mirror || !sp->pinv || !sp->w || !ti || !tj || !tk) {
        rc = hs_fail(s->ctx, HS_ENOMEM, "linear solver (cholmod): out of memory");
        goto done;
    }
    for (int j = 0; j < n; j++)
        for (int p = P->colptr[j]; p < P->colptr[j + 1]; p++)
            sp->mirror[p] = hs_csc_find(P, j, P->rowind[p]);
    cholmod_sparse A = cholmod_header(sp->pat, -1);
    sp->cc.nmethods = 0; /* CHOLMOD's default strategy */
    sp->cc.postorder = 1;
    cholmod_factor *L0 = cholmod_analyze(&A, &sp->cc);
    if (!L0) {
        rc = cholmod_failed(s, "ordering");
        goto done;
    }
    const int *perm = L0->Perm;
    for (int k = 0; k < n; k++) sp->pinv[perm[k]] = k;
    cholmod_free_factor(&L0, &sp->cc);
    /* C's entries from the lower triangle of pat, each remembering its source (exact in a
     * double) */
    int nt = 0;
    for (int j = 0; j < n; j++)
        for (int p = P->colptr[j]; p < P->colptr[j + 1]; p++) {
            const int i = P->rowind[p];
            if (i < j) continue;
            const int a = sp->pinv[i], b = sp->pinv[j];
            ti[nt] = a > b ? a : b;
            tj[nt] = a > b ? b : a;
            tk[nt++] = p;
        }
    rc = hs_csc_from_triplets(s->ctx, n, n, nt, ti, tj, tk, &sp->C);
    if (rc) goto done;
    const int cnnz = hs_csc_nnz(sp->C);
    sp->cmap = hs_calloc((size_t)cnnz + 1, sizeof *sp->cmap);
    if (!sp->cmap) {
        rc = hs_fail(s->ctx, HS_ENOMEM, "linear solver (cholmod): out of memory");
        goto done;
    }
    for (int c = 0; c < cnnz; c++) sp->cmap[c] = (int)sp->C->val[c];
    sp->Ch = cholmod_header(sp->C, -1);
    sp->cc.nmethods = 1;
    sp->cc.method[0].ordering = CHOLMOD_NATURAL;
    sp->cc.postorder = 0;
    sp->cc.supernodal = CHOLMOD_SUPERNODAL; /* factors tril(C) in place, LL' */
    sp->L = cholmod_analyze(&sp->Ch, &sp->cc);
    if (!sp->L) rc = cholmod_failed(s, "analysis");
done:
    hs_free(ti);
    hs_free(tj);
    hs_free(tk);
    return rc;
}

static int klu_analysis(hs_linsolver *s)
{
    hs_ls_sparse *sp = s->sparse;
    sp->sym = klu_analyze(s->n, sp->pat->colptr, sp->pat->rowind, &sp->kc);
    if (!sp->sym)
        return hs_fail(s->ctx, sp->kc.status == KLU_OUT_OF_MEMORY ? HS_ENOMEM : HS_EINVAL,
                       "linear solver (klu): analysis of the %d x %d pattern failed (KLU status "
                       "%d)",
                       s->n, s->n, sp->kc.status);
    return 0;
}

/* The symbolic analysis of pattern P (taken over by the solver); kind sparse analyses for KLU
 * when it first needs it. */
static int analyse(hs_linsolver *s, hs_csc *P)
{
    hs_ls_sparse *sp = s->sparse;
    release_analysis(sp);
    sp->pat = P;
    return uses_cholmod(s) ? cholmod_analysis(s) : klu_analysis(s);
}

int hs_ls_sparse_create(hs_linsolver *s, const hs_csc *pattern)
{
    char what[64];
    snprintf(what, sizeof what, "linear solver (%s, %d unknowns)", kind_name(s), s->n);
    const int loaded = hs_suitesparse_require(s->ctx, what);
    if (loaded) return loaded;
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, ss_use_counted_allocation);
    hs_ls_sparse_destroy(s); /* a pattern given after a creation without one */
    hs_ls_sparse *sp = hs_calloc(1, sizeof *sp);
    if (!sp) return hs_fail(s->ctx, HS_ENOMEM, "linear solver: out of memory");
    s->sparse = sp;
    if (uses_cholmod(s)) {
        cholmod_start(&sp->cc);
        sp->cc.print = 0; /* errors come back as hs_fail messages */
    }
    if (uses_klu(s)) {
        klu_defaults(&sp->kc);
        sp->kc.tol = 0.1; /* partial pivoting threshold (KLU's 0.001 lets growth cost digits) */
    }
    if (!pattern) return 0;
    if (pattern->nrows != s->n || pattern->ncols != s->n)
        return hs_fail(s->ctx, HS_EINVAL, "linear solver: a %d x %d pattern for %d unknowns",
                       pattern->nrows, pattern->ncols, s->n);
    hs_csc *P = NULL;
    const int rc = hs_csc_copy(s->ctx, pattern, &P);
    return rc ? rc : analyse(s, P);
}

void hs_ls_sparse_destroy(hs_linsolver *s)
{
    hs_ls_sparse *sp = s->sparse;
    if (!sp) return;
    release_analysis(sp);
    if (uses_cholmod(s)) {
        cholmod_free_dense(&sp->X, &sp->cc);
        cholmod_free_dense(&sp->Y, &sp->cc);
        cholmod_free_dense(&sp->E, &sp->cc);
        cholmod_finish(&sp->cc);
    }
    hs_free(sp);
    s->sparse = NULL;
}

enum { CHOLMOD_NOT_SYMMETRIC = 1, CHOLMOD_NOT_SPD = 2 };

/* CHOLMOD's numeric factor: 0, CHOLMOD_NOT_SYMMETRIC, CHOLMOD_NOT_SPD, or an error (with its
 * message). */
static int cholmod_numeric(hs_linsolver *s)
{
    hs_ls_sparse *sp = s->sparse;
    const hs_csc *P = sp->pat;
    for (int j = 0; j < s->n; j++)
        for (int p = P->colptr[j]; p < P->colptr[j + 1]; p++)
            if (P->val[p] != (sp->mirror[p] >= 0 ? P->val[sp->mirror[p]] : 0.0)) {
                sp->asym_p = p;
                sp->asym_j = j;
                return CHOLMOD_NOT_SYMMETRIC;
            }
    const int cnnz = hs_csc_nnz(sp->C);
    for (int c = 0; c < cnnz; c++) sp->C->val[c] = P->val[sp->cmap[c]];
    cholmod_factorize(&sp->Ch, sp->L, &sp->cc);
    if (sp->cc.status == CHOLMOD_NOT_POSDEF) return CHOLMOD_NOT_SPD;
    if (sp->cc.status != CHOLMOD_OK) return cholmod_failed(s, "factorization");
    return 0;
}

static int cholmod_refusal(hs_linsolver *s, int why)
{
    hs_ls_sparse *sp = s->sparse;
    const hs_csc *P = sp->pat;
    if (why == CHOLMOD_NOT_SPD)
        return hs_fail(s->ctx, HS_ESINGULAR,
                       "linear solver (cholmod): the matrix is not positive definite (pivot %d "
                       "of %d in the fill-reducing order); use kind klu or sparse for singular "
                       "or indefinite matrices",
                       (int)sp->L->minor, s->n);
    const int p = sp->asym_p, m = sp->mirror[p];
    return hs_fail(s->ctx, HS_EINVAL,
                   "linear solver (cholmod): the matrix is not symmetric at (%d, %d): %.17g "
                   "against %.17g (use kind klu or sparse for general matrices)",
                   P->rowind[p], sp->asym_j, P->val[p], m >= 0 ? P->val[m] : 0.0);
}

static int klu_singular(hs_linsolver *s)
{
    hs_ls_sparse *sp = s->sparse;
    return hs_fail(s->ctx, HS_ESINGULAR,
                   "linear solver (klu): the matrix is singular (column %d of %d has no usable "
                   "pivot; reciprocal condition estimate %.3g): check supports and massless DOFs",
                   sp->kc.singular_col < s->n ? sp->kc.singular_col : -1, s->n,
                   sp->num ? sp->kc.rcond : 0.0);
}

static int klu_numeric_factor(hs_linsolver *s)
{
    hs_ls_sparse *sp = s->sparse;
    const hs_csc *P = sp->pat;
    if (sp->num) {
        if (klu_refactor(P->colptr, P->rowind, P->val, sp->sym, sp->num, &sp->kc) &&
            klu_rcond(sp->sym, sp->num, &sp->kc) && sp->kc.rcond >= 1e-3 * sp->rcond_full &&
            sp->kc.rcond >= DBL_EPSILON)
            return 0;
        klu_free_numeric(&sp->num, &sp->kc); /* the old pivots no longer serve: pivot again */
    }
    sp->num = klu_factor(P->colptr, P->rowind, P->val, sp->sym, &sp->kc);
    if (!sp->num) {
        if (sp->kc.status == KLU_SINGULAR) return klu_singular(s);
        return hs_fail(s->ctx, sp->kc.status == KLU_OUT_OF_MEMORY ? HS_ENOMEM : HS_EINVAL,
                       "linear solver (klu): factorization failed (KLU status %d)", sp->kc.status);
    }
    klu_rcond(sp->sym, sp->num, &sp->kc);
    sp->rcond_full = sp->kc.rcond;
    if (sp->kc.rcond < DBL_EPSILON) {
        const int rc = klu_singular(s);
        klu_free_numeric(&sp->num, &sp->kc);
        return rc;
    }
    return 0;
}

int hs_ls_sparse_factor(hs_linsolver *s, const hs_ls_source *A)
{
    hs_ls_sparse *sp = s->sparse;
    if (A->csc && (A->csc->nrows != s->n || A->csc->ncols != s->n))
        return hs_fail(s->ctx, HS_EINVAL, "linear solver (%s): a %d x %d matrix for %d unknowns",
                       kind_name(s), A->csc->nrows, A->csc->ncols, s->n);
    if (!sp->pat || !gather(sp->pat, A)) { /* a new pattern: analyse the union */
        hs_csc *src = NULL, *P = NULL;
        int rc = source_pattern(s->ctx, s->n, A, &src);
        if (!rc && sp->pat) {
            rc = hs_csc_pattern_union(s->ctx, sp->pat, src, &P);
            hs_csc_destroy(&src);
        } else {
            P = src;
        }
        if (!rc)
            rc = analyse(s, P);
        else
            hs_csc_destroy(&P);
        if (rc) return rc;
        gather(sp->pat, A);
    }
    if (uses_cholmod(s)) { /* kind sparse: CHOLMOD when it can, KLU otherwise */
        const int why = cholmod_numeric(s);
        if (why <= 0) {
            sp->by_klu = 0;
            return why;
        }
        if (s->kind == HS_LS_CHOLMOD) return cholmod_refusal(s, why);
    }
    if (!sp->sym) {
        const int rc = klu_analysis(s);
        if (rc) return rc;
    }
    sp->by_klu = 1;
    return klu_numeric_factor(s);
}

int hs_ls_sparse_solve(hs_linsolver *s, double *b)
{
    hs_ls_sparse *sp = s->sparse;
    if (sp->by_klu) {
        if (!klu_solve(sp->sym, sp->num, s->n, 1, b, &sp->kc))
            return hs_fail(s->ctx, HS_EINVAL, "linear solver (klu): solve failed (KLU status %d)",
                           sp->kc.status);
        return 0;
    }
    const int n = s->n;
    for (int i = 0; i < n; i++) sp->w[sp->pinv[i]] = b[i];
    cholmod_dense B = {.nrow = (size_t)n,
                       .ncol = 1,
                       .nzmax = (size_t)n,
                       .d = (size_t)n,
                       .x = sp->w,
                       .xtype = CHOLMOD_REAL,
                       .dtype = CHOLMOD_DOUBLE};
    if (!cholmod_solve2(CHOLMOD_A, sp->L, &B, NULL, &sp->X, NULL, &sp->Y, &sp->E, &sp->cc))
        return cholmod_failed(s, "solve");
    const double *x = sp->X->x;
    for (int i = 0; i < n; i++) b[i] = x[sp->pinv[i]];
    return 0;
}
