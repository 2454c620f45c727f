/* The banded kinds of the linear solver, reading the band of a dense n x n matrix. A band
 * symmetric to round-off (HS_LS_SYMMETRY_TOL, as the dense kind tests it) is first factored as
 * symmetric positive-definite (LAPACKE dpttrf for kd = 1, dpbtrf otherwise, on its upper half: no
 * pivoting, and the solves keep divisions off their critical path); when that fails (indefinite) or
 * the band is not symmetric, LU with partial pivoting (dgttrf for kd = 1, dgbtrf with kl = ku = kd
 * otherwise; a diagonal, kd = 0, is divided by as such). Newton matrices of structures are
 * symmetric and, but for strong softening, positive-definite. */
#include "linsolver_impl.h"

#include <math.h>
#include <string.h>

static inline int band_lo(int j, int kd)
{
    return j - kd > 0 ? j - kd : 0;
}
static inline int band_hi(int n, int j, int kd)
{
    return j + kd < n - 1 ? j + kd : n - 1;
}

size_t hs_ls_banded_size(const hs_linsolver *s)
{
    const size_t n = (size_t)s->n;
    if (s->kind == HS_LS_TRIDIAGONAL) return 4 * n;
    return (size_t)s->ldab * n;
}

/* Whether a_ij (i < j) and its mirror a_ji are equal to round-off (linsolver_dense.c's test,
 * HS_LS_SYMMETRY_TOL, against their diagonals; a mirror pair equal to the bit costs nothing more).
 */
static inline int mirrors_close(double aij, double aji, double aii, double ajj)
{
    return aij == aji || fabs(aij - aji) <= HS_LS_SYMMETRY_TOL * sqrt(aii) * sqrt(ajj);
}

/* The symmetry test of the band within kd, to round-off. A packed source of half-bandwidth >= kd
 * compares its two halves in place (each Newton factor of a small model: a tenth of the generic
 * reads). */
static int band_symmetric(const hs_ls_source *A, int n, int kd)
{
    if (A->packed && !A->csc && A->kd == 1 && kd == 1) { /* (i + 1, i) against (i, i + 1) */
        const double *a = A->a;
        for (int i = 0; i + 1 < n; i++)
            if (!mirrors_close(a[3 * (size_t)i + 3], a[3 * (size_t)i + 2], a[3 * (size_t)i + 1],
                               a[3 * (size_t)i + 4]))
                return 0;
        return 1;
    }
    if (A->packed && !A->csc && A->kd >= kd) {
        const double *B = A->a;
        for (int j = 0; j < n; j++) {
            const int hi = band_hi(n, j, kd);
            for (int i = j + 1; i <= hi; i++)
                if (!mirrors_close(HS_BAND_AT(B, A->kd, j, i), HS_BAND_AT(B, A->kd, i, j),
                                   HS_BAND_AT(B, A->kd, j, j), HS_BAND_AT(B, A->kd, i, i)))
                    return 0;
        }
        return 1;
    }
    for (int j = 0; j < n; j++) {
        const int hi = band_hi(n, j, kd);
        for (int i = j + 1; i <= hi; i++)
            if (!mirrors_close(hs_ls_at(A, n, j, i), hs_ls_at(A, n, i, j), hs_ls_at(A, n, j, j),
                               hs_ls_at(A, n, i, i)))
                return 0;
    }
    return 1;
}

static lapack_int tridiagonal_factor(hs_linsolver *s, const hs_ls_source *A)
{
    const int n = s->n;
    if (band_symmetric(A, n, 1)) { /* d (n), e (n - 1) */
        double *d = s->lu, *e = d + n;
        if (A->packed && !A->csc && A->kd >= 1) { /* symmetric: the band's column j, rows j, j+1 */
            const double *B = A->a;
            for (int i = 0; i < n; i++) d[i] = HS_BAND_AT(B, A->kd, i, i);
            for (int i = 0; i + 1 < n; i++) e[i] = HS_BAND_AT(B, A->kd, i + 1, i);
        } else {
            for (int i = 0; i < n; i++) d[i] = hs_ls_at(A, n, i, i);
            for (int i = 0; i + 1 < n; i++) e[i] = hs_ls_at(A, n, i + 1, i);
        }
        s->spd = LAPACKE_dpttrf_work(n, d, e) == 0;
        if (s->spd) return 0;
    }
    double *dl = s->lu, *d = dl + (n - 1), *du = d + n, *du2 = du + (n - 1);
    for (int i = 0; i < n; i++) d[i] = hs_ls_at(A, n, i, i);
    for (int i = 0; i + 1 < n; i++) {
        dl[i] = hs_ls_at(A, n, i + 1, i);
        du[i] = hs_ls_at(A, n, i, i + 1);
    }
    return LAPACKE_dgttrf_work(n, dl, d, du, du2, s->ipiv);
}

static lapack_int band_factor(hs_linsolver *s, const hs_ls_source *A)
{
    const int n = s->n, kd = s->kd;
    if (kd > 0 &&
        band_symmetric(A, n, kd)) { /* upper band: A(i, j) at row kd + i - j, ldab kd + 1 */
        const size_t ld = (size_t)kd + 1;
        for (int j = 0; j < n; j++) {
            double *col = s->lu + (size_t)j * ld;
            for (int i = band_lo(j, kd); i <= j; i++) col[kd + i - j] = hs_ls_at(A, n, i, j);
        }
        s->spd = LAPACKE_dpbtrf_work(LAPACK_COL_MAJOR, 'U', n, kd, s->lu, kd + 1) == 0;
        if (s->spd) return 0;
    }
    /* general band: A(i, j) at row 2 kd + i - j of column j; rows 0..kd-1 take the fill-in,
     * which dgbtrf zeroes itself ("rows 1 to KL of the array need not be set"; the corners
     * outside the matrix are not referenced): no zeroing here (a byte an instruction under
     * callgrind, 12 k of the 120 k of n = 36, kd = 14) */
    const size_t ld = (size_t)s->ldab;
    for (int j = 0; j < n; j++) {
        double *col = s->lu + (size_t)j * ld;
        const int hi = band_hi(n, j, kd);
        for (int i = band_lo(j, kd); i <= hi; i++) col[2 * kd + i - j] = hs_ls_at(A, n, i, j);
    }
    return LAPACKE_dgbtrf_work(LAPACK_COL_MAJOR, n, n, kd, kd, s->lu, s->ldab, s->ipiv);
}

lapack_int hs_ls_banded_factor(hs_linsolver *s, const hs_ls_source *A)
{
    s->spd = 0;
    return s->kind == HS_LS_TRIDIAGONAL ? tridiagonal_factor(s, A) : band_factor(s, A);
}

lapack_int hs_ls_banded_solve(hs_linsolver *s, double *b)
{
    return hs_ls_banded_solve_n(s, 1, b);
}

/* LAPACK's band and tridiagonal solves take every right side in one call. */
lapack_int hs_ls_banded_solve_n(hs_linsolver *s, int nrhs, double *B)
{
    const int n = s->n;
    if (s->kind == HS_LS_TRIDIAGONAL) {
        if (s->spd) return LAPACKE_dpttrs_work(LAPACK_COL_MAJOR, n, nrhs, s->lu, s->lu + n, B, n);
        double *dl = s->lu, *d = dl + (n - 1), *du = d + n, *du2 = du + (n - 1);
        return LAPACKE_dgttrs_work(LAPACK_COL_MAJOR, 'N', n, nrhs, dl, d, du, du2, s->ipiv, B, n);
    }
    if (s->spd)
        return LAPACKE_dpbtrs_work(LAPACK_COL_MAJOR, 'U', n, s->kd, nrhs, s->lu, s->kd + 1, B, n);
    return LAPACKE_dgbtrs_work(LAPACK_COL_MAJOR, 'N', n, s->kd, s->kd, nrhs, s->lu, s->ldab,
                               s->ipiv, B, n);
}
