/* Dense linear algebra helpers and the factor-once linear solver (LAPACKE, column-major). */
#include "hysim/linalg.h"

#include <lapacke.h>
#include <math.h>
#include <string.h>

void hs_matvec(int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < n; i++) y[i] = 0.0;
    hs_matvec_add(n, A, x, 1.0, y);
}

void hs_matvec_add(int n, const double *A, const double *x, double alpha, double *y)
{
    for (int j = 0; j < n; j++) {
        const double s = alpha * x[j];
        if (s == 0.0) continue;
        const double *col = A + (size_t)j * (size_t)n;
        for (int i = 0; i < n; i++) y[i] += col[i] * s;
    }
}

void hs_mat_axpby(int n, double alpha, const double *A, double beta, const double *B, double *C)
{
    const size_t nn = (size_t)n * (size_t)n;
    for (size_t k = 0; k < nn; k++) C[k] = alpha * (A ? A[k] : 0.0) + beta * (B ? B[k] : 0.0);
}

void hs_matmul(int n, const double *A, const double *B, double *C)
{
    for (int j = 0; j < n; j++) hs_matvec(n, A, B + (size_t)j * (size_t)n, C + (size_t)j * (size_t)n);
}

double hs_dot(int n, const double *x, const double *y)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i] * y[i];
    return s;
}

double hs_norm2(int n, const double *x) { return sqrt(hs_dot(n, x, x)); }

double hs_norm_inf(int n, const double *x)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
    return m;
}

struct hs_linsolver {
    hs_ctx *ctx;
    int n;
    int factored;
    double *lu;
    lapack_int *ipiv;
};

int hs_linsolver_create(hs_ctx *ctx, const char *kind, int n, hs_linsolver **out)
{
    if (!out || n <= 0) return hs_fail(ctx, HS_EINVAL, "linear solver: invalid size %d", n);
    if (kind && strcmp(kind, "dense") != 0)
        return hs_fail(ctx, HS_EUNSUPPORTED, "linear solver: unknown kind '%s'", kind);
    hs_linsolver *s = hs_calloc(1, sizeof *s);
    if (!s) return HS_ENOMEM;
    s->ctx = ctx;
    s->n = n;
    s->lu = hs_dvec((size_t)n * (size_t)n);
    s->ipiv = hs_calloc((size_t)n, sizeof *s->ipiv);
    if (!s->lu || !s->ipiv) {
        hs_linsolver_destroy(&s);
        return HS_ENOMEM;
    }
    *out = s;
    return 0;
}

int hs_linsolver_factor(hs_linsolver *s, const double *A)
{
    const size_t nn = (size_t)s->n * (size_t)s->n;
    memcpy(s->lu, A, nn * sizeof(double));
    lapack_int info =
        LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, s->n, s->n, s->lu, s->n, s->ipiv);
    s->factored = (info == 0);
    if (info > 0)
        return hs_fail(s->ctx, HS_ESINGULAR, "linear solver: matrix is singular (pivot %d)",
                       (int)info);
    if (info < 0) return hs_fail(s->ctx, HS_EINVAL, "linear solver: dgetrf argument %d", (int)-info);
    return 0;
}

int hs_linsolver_solve(hs_linsolver *s, double *b)
{
    if (!s->factored) return hs_fail(s->ctx, HS_EINVAL, "linear solver: not factored");
    lapack_int info =
        LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', s->n, 1, s->lu, s->n, s->ipiv, b, s->n);
    return info == 0 ? 0 : hs_fail(s->ctx, HS_EINVAL, "linear solver: dgetrs failed");
}

void hs_linsolver_destroy(hs_linsolver **s)
{
    if (!s || !*s) return;
    hs_free((*s)->lu);
    hs_free((*s)->ipiv);
    hs_free(*s);
    *s = NULL;
}

int hs_sym_eig(hs_ctx *ctx, int n, const double *K, const double *M, double *omega2, double *phi)
{
    const size_t nn = (size_t)n * (size_t)n;
    double *b = hs_dvec(nn);
    if (!b) return HS_ENOMEM;
    memcpy(phi, K, nn * sizeof(double));
    memcpy(b, M, nn * sizeof(double));
    lapack_int info = LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, 'V', 'U', n, phi, n, b, n, omega2);
    hs_free(b);
    if (info != 0)
        return hs_fail(ctx, HS_ESINGULAR,
                       "eigenvalue analysis failed (dsygv info %d): is the mass positive and the "
                       "stiffness symmetric?",
                       (int)info);
    return 0;
}

int hs_gen_eigvals(hs_ctx *ctx, int n, const double *A, double *wr, double *wi)
{
    const size_t nn = (size_t)n * (size_t)n;
    double *a = hs_dvec(nn);
    if (!a) return HS_ENOMEM;
    memcpy(a, A, nn * sizeof(double));
    lapack_int info = LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', n, a, n, wr, wi, NULL, 1, NULL, 1);
    hs_free(a);
    return info == 0 ? 0 : hs_fail(ctx, HS_ECONVERGE, "dgeev failed (info %d)", (int)info);
}

int hs_mat_inverse(hs_ctx *ctx, int n, double *A)
{
    lapack_int *ipiv = hs_calloc((size_t)n, sizeof *ipiv);
    if (!ipiv) return HS_ENOMEM;
    lapack_int info = LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, A, n, ipiv);
    if (info == 0) info = LAPACKE_dgetri(LAPACK_COL_MAJOR, n, A, n, ipiv);
    hs_free(ipiv);
    return info == 0 ? 0 : hs_fail(ctx, HS_ESINGULAR, "matrix inverse: singular (info %d)", (int)info);
}
