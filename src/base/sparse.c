/* Compressed-column sparse matrices (include/hysim/sparse.h). */
#include "hysim/linalg.h"

#include <string.h>

static int csc_alloc(hs_ctx *ctx, int nrows, int ncols, int nnz, hs_csc **out)
{
    hs_csc *A = hs_calloc(1, sizeof *A);
    if (!A) return hs_fail(ctx, HS_ENOMEM, "sparse matrix: out of memory");
    A->nrows = nrows;
    A->ncols = ncols;
    A->colptr = hs_calloc((size_t)ncols + 1, sizeof *A->colptr);
    A->rowind = hs_calloc((size_t)nnz, sizeof *A->rowind);
    A->val = hs_dvec((size_t)nnz);
    if (!A->colptr || !A->rowind || !A->val) {
        hs_csc_destroy(&A);
        return hs_fail(ctx, HS_ENOMEM, "sparse matrix: out of memory (%d entries)", nnz);
    }
    *out = A;
    return 0;
}

void hs_csc_destroy(hs_csc **A)
{
    if (!A || !*A) return;
    hs_free((*A)->colptr);
    hs_free((*A)->rowind);
    hs_free((*A)->val);
    hs_free(*A);
    *A = NULL;
}

int hs_csc_from_triplets(hs_ctx *ctx, int nrows, int ncols, int nt, const int *ti, const int *tj,
                         const double *tx, hs_csc **out)
{
    if (!out || nrows < 0 || ncols < 0 || nt < 0 || (nt > 0 && (!ti || !tj)))
        return hs_fail(ctx, HS_EINVAL, "sparse matrix: invalid triplets");
    for (int k = 0; k < nt; k++)
        if (ti[k] < 0 || ti[k] >= nrows || tj[k] < 0 || tj[k] >= ncols)
            return hs_fail(ctx, HS_EINVAL,
                           "sparse matrix: triplet %d at (%d, %d) is outside the %d x %d matrix", k,
                           ti[k], tj[k], nrows, ncols);
    /* Bucket by row (stable), then by column in row order: the columns come out sorted. */
    int *rowptr = hs_calloc((size_t)nrows + 1, sizeof *rowptr);
    int *byrow = hs_calloc((size_t)nt, sizeof *byrow);
    int *colptr = hs_calloc((size_t)ncols + 1, sizeof *colptr);
    int *rows = hs_calloc((size_t)nt, sizeof *rows);
    double *vals = hs_dvec((size_t)nt);
    int rc = 0;
    if (!rowptr || !byrow || !colptr || !rows || !vals) {
        rc = hs_fail(ctx, HS_ENOMEM, "sparse matrix: out of memory (%d triplets)", nt);
        goto done;
    }
    for (int k = 0; k < nt; k++) rowptr[ti[k] + 1]++;
    for (int i = 0; i < nrows; i++) rowptr[i + 1] += rowptr[i];
    for (int k = 0; k < nt; k++) byrow[rowptr[ti[k]]++] = k;
    for (int k = 0; k < nt; k++) colptr[tj[k] + 1]++;
    for (int j = 0; j < ncols; j++) colptr[j + 1] += colptr[j];
    for (int r = 0; r < nt; r++) { /* colptr[j] is column j's next free slot */
        const int k = byrow[r];
        const int p = colptr[tj[k]]++;
        rows[p] = ti[k];
        vals[p] = tx ? tx[k] : 0.0;
    }
    for (int j = ncols; j > 0; j--) colptr[j] = colptr[j - 1];
    colptr[0] = 0;
    /* Sum duplicates (adjacent now) and count the unique entries. */
    int nnz = 0;
    for (int j = 0; j < ncols; j++) {
        const int start = nnz;
        for (int p = colptr[j]; p < colptr[j + 1]; p++) {
            if (nnz > start && rows[nnz - 1] == rows[p]) {
                vals[nnz - 1] += vals[p];
            } else {
                rows[nnz] = rows[p];
                vals[nnz++] = vals[p];
            }
        }
        colptr[j] = start;
    }
    colptr[ncols] = nnz;
    hs_csc *A = NULL;
    rc = csc_alloc(ctx, nrows, ncols, nnz, &A);
    if (rc) goto done;
    memcpy(A->colptr, colptr, ((size_t)ncols + 1) * sizeof *colptr);
    memcpy(A->rowind, rows, (size_t)nnz * sizeof *rows);
    memcpy(A->val, vals, (size_t)nnz * sizeof *vals);
    *out = A;
done:
    hs_free(rowptr);
    hs_free(byrow);
    hs_free(colptr);
    hs_free(rows);
    hs_free(vals);
    return rc;
}

int hs_csc_from_dense(hs_ctx *ctx, int n, const double *D, hs_csc **out)
{
    if (!out || n < 0 || !D) return hs_fail(ctx, HS_EINVAL, "sparse matrix: invalid dense matrix");
    int nnz = 0;
    for (size_t k = 0; k < (size_t)n * (size_t)n; k++) nnz += D[k] != 0.0;
    hs_csc *A = NULL;
    const int rc = csc_alloc(ctx, n, n, nnz, &A);
    if (rc) return rc;
    int p = 0;
    for (int j = 0; j < n; j++) {
        A->colptr[j] = p;
        for (int i = 0; i < n; i++)
            if (HS_AT(D, n, i, j) != 0.0) {
                A->rowind[p] = i;
                A->val[p++] = HS_AT(D, n, i, j);
            }
    }
    A->colptr[n] = p;
    *out = A;
    return 0;
}

int hs_csc_copy(hs_ctx *ctx, const hs_csc *A, hs_csc **out)
{
    const int nnz = hs_csc_nnz(A);
    hs_csc *C = NULL;
    const int rc = csc_alloc(ctx, A->nrows, A->ncols, nnz, &C);
    if (rc) return rc;
    memcpy(C->colptr, A->colptr, ((size_t)A->ncols + 1) * sizeof *C->colptr);
    memcpy(C->rowind, A->rowind, (size_t)nnz * sizeof *C->rowind);
    memcpy(C->val, A->val, (size_t)nnz * sizeof *C->val);
    *out = C;
    return 0;
}

/* Walks the union of columns j of B and C; writes its rows to rows (when not NULL); returns the
 * count. */
static int union_column(const hs_csc *B, const hs_csc *C, int j, int *rows)
{
    int pb = B->colptr[j], pc = C->colptr[j], count = 0;
    const int eb = B->colptr[j + 1], ec = C->colptr[j + 1];
    while (pb < eb || pc < ec) {
        int i;
        if (pc >= ec || (pb < eb && B->rowind[pb] < C->rowind[pc]))
            i = B->rowind[pb++];
        else if (pb >= eb || C->rowind[pc] < B->rowind[pb])
            i = C->rowind[pc++];
        else {
            i = B->rowind[pb++];
            pc++;
        }
        if (rows) rows[count] = i;
        count++;
    }
    return count;
}

int hs_csc_pattern_union(hs_ctx *ctx, const hs_csc *B, const hs_csc *C, hs_csc **out)
{
    if (!out || B->nrows != C->nrows || B->ncols != C->ncols)
        return hs_fail(ctx, HS_EINVAL, "sparse matrix: union of a %d x %d and a %d x %d matrix",
                       B->nrows, B->ncols, C->nrows, C->ncols);
    int nnz = 0;
    for (int j = 0; j < B->ncols; j++) nnz += union_column(B, C, j, NULL);
    hs_csc *A = NULL;
    const int rc = csc_alloc(ctx, B->nrows, B->ncols, nnz, &A);
    if (rc) return rc;
    for (int j = 0; j < B->ncols; j++)
        A->colptr[j + 1] = A->colptr[j] + union_column(B, C, j, A->rowind + A->colptr[j]);
    *out = A;
    return 0;
}

int hs_csc_same_pattern(const hs_csc *A, const hs_csc *B)
{
    if (A->nrows != B->nrows || A->ncols != B->ncols) return 0;
    if (A->colptr == B->colptr && A->rowind == B->rowind) return 1;
    return memcmp(A->colptr, B->colptr, ((size_t)A->ncols + 1) * sizeof *A->colptr) == 0 &&
           memcmp(A->rowind, B->rowind, (size_t)hs_csc_nnz(A) * sizeof *A->rowind) == 0;
}

int hs_csc_pattern_contains(const hs_csc *A, const hs_csc *B)
{
    if (A->nrows != B->nrows || A->ncols != B->ncols) return 0;
    for (int j = 0; j < A->ncols; j++) {
        int pa = A->colptr[j];
        const int ea = A->colptr[j + 1];
        for (int pb = B->colptr[j]; pb < B->colptr[j + 1]; pb++) {
            while (pa < ea && A->rowind[pa] < B->rowind[pb]) pa++;
            if (pa >= ea || A->rowind[pa] != B->rowind[pb]) return 0;
        }
    }
    return 1;
}

int hs_csc_slot_map(hs_ctx *ctx, const hs_csc *P, const hs_csc *B, int *map)
{
    if (P->nrows != B->nrows || P->ncols != B->ncols)
        return hs_fail(ctx, HS_EINVAL, "sparse matrix: slots of a %d x %d matrix in a %d x %d one",
                       B->nrows, B->ncols, P->nrows, P->ncols);
    for (int j = 0; j < P->ncols; j++) {
        int pa = P->colptr[j];
        const int ea = P->colptr[j + 1];
        for (int pb = B->colptr[j]; pb < B->colptr[j + 1]; pb++) {
            while (pa < ea && P->rowind[pa] < B->rowind[pb]) pa++;
            if (pa >= ea || P->rowind[pa] != B->rowind[pb])
                return hs_fail(ctx, HS_EINVAL,
                               "sparse matrix: entry (%d, %d) lies outside the assembled pattern",
                               B->rowind[pb], j);
            map[pb] = pa;
        }
    }
    return 0;
}

void hs_csc_matvec(const hs_csc *A, const double *x, double *y)
{
    memset(y, 0, (size_t)A->nrows * sizeof *y);
    hs_csc_matvec_add(A, x, 1.0, y);
}

void hs_csc_matvec_add(const hs_csc *A, const double *x, double alpha, double *y)
{
    for (int j = 0; j < A->ncols; j++) {
        const double ax = alpha * x[j];
        if (ax == 0.0) continue;
        for (int p = A->colptr[j]; p < A->colptr[j + 1]; p++) y[A->rowind[p]] += A->val[p] * ax;
    }
}

int hs_csc_find(const hs_csc *A, int i, int j)
{
    int lo = A->colptr[j], hi = A->colptr[j + 1] - 1;
    while (lo <= hi) {
        const int mid = lo + (hi - lo) / 2;
        if (A->rowind[mid] == i) return mid;
        if (A->rowind[mid] < i)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

int hs_csc_is_symmetric(const hs_csc *A)
{
    if (A->nrows != A->ncols) return 0;
    for (int j = 0; j < A->ncols; j++)
        for (int p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            const int i = A->rowind[p];
            if (i == j) continue;
            const int q = hs_csc_find(A, j, i);
            if (q < 0 || A->val[q] != A->val[p]) return 0;
        }
    return 1;
}

void hs_csc_symmetric_matvec_add(const hs_csc *A, const double *x, double alpha, double *y)
{
    const double *v = A->val;
    const int *r = A->rowind;
    for (int j = 0; j < A->ncols; j++) {
        /* four partial sums: a frame's column of about 14 entries is otherwise one chain of
         * dependent additions (the product's time is the adds' latency, not their count) */
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
        int p = A->colptr[j];
        const int e = A->colptr[j + 1];
        for (; p + 4 <= e; p += 4) {
            s0 += v[p] * x[r[p]];
            s1 += v[p + 1] * x[r[p + 1]];
            s2 += v[p + 2] * x[r[p + 2]];
            s3 += v[p + 3] * x[r[p + 3]];
        }
        for (; p < e; p++) s0 += v[p] * x[r[p]];
        y[j] += alpha * ((s0 + s1) + (s2 + s3));
    }
}

int hs_csc_axpby(hs_ctx *ctx, double a, const hs_csc *B, double b, const hs_csc *C, hs_csc *A)
{
    const int same_b = hs_csc_same_pattern(A, B), same_c = !C || hs_csc_same_pattern(A, C);
    if ((!same_b && !hs_csc_pattern_contains(A, B)) || (!same_c && !hs_csc_pattern_contains(A, C)))
        return hs_fail(ctx, HS_EINVAL,
                       "sparse matrix: A = a B + b C needs A's pattern to hold B's and C's "
                       "(build it with hs_csc_pattern_union)");
    if (same_b && same_c) {
        const int nnz = hs_csc_nnz(A);
        for (int p = 0; p < nnz; p++) A->val[p] = a * B->val[p] + (C ? b * C->val[p] : 0.0);
        return 0;
    }
    /* Merged patterns. A may alias B or C (then its entry p is that matrix's, read before it
     * is written). */
    for (int j = 0; j < A->ncols; j++) {
        int pb = B->colptr[j], pc = C ? C->colptr[j] : 0;
        const int eb = B->colptr[j + 1], ec = C ? C->colptr[j + 1] : 0;
        for (int p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            const int i = A->rowind[p];
            double v = 0.0;
            if (pb < eb && B->rowind[pb] == i) v += a * B->val[pb++];
            if (pc < ec && C->rowind[pc] == i) v += b * C->val[pc++];
            A->val[p] = v;
        }
    }
    return 0;
}

int hs_csc_bandwidth(const hs_csc *A)
{
    int kd = 0;
    for (int j = 0; j < A->ncols; j++) {
        const int p0 = A->colptr[j], p1 = A->colptr[j + 1];
        if (p0 == p1) continue;
        const int up = j - A->rowind[p0], down = A->rowind[p1 - 1] - j;
        if (up > kd) kd = up;
        if (down > kd) kd = down;
    }
    return kd;
}

void hs_csc_to_dense(const hs_csc *A, double *D)
{
    memset(D, 0, (size_t)A->nrows * (size_t)A->ncols * sizeof *D);
    for (int j = 0; j < A->ncols; j++)
        for (int p = A->colptr[j]; p < A->colptr[j + 1]; p++)
            D[(size_t)j * (size_t)A->nrows + (size_t)A->rowind[p]] = A->val[p];
}
