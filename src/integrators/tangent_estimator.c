/* Online experimental tangent stiffness in actuator coordinates: see tangent_estimator.h
 * (Mosqueda & Ahmadizadeh 2008b, eq. 5.2-5.9, Mosqueda & Ahmadizadeh 2008a, eq. 7-11). */
#include "tangent_estimator.h"

#include "hysim/linalg.h"

#include <lapacke.h>
#include <math.h>
#include <string.h>

#define HS_TE_REL_GUARD                                                                            \
    1e-6                     /* an intrinsic increment below this fraction of |x_p| is round-off   \
                              */
#define HS_TE_MIN_RATIO 1e-3 /* floor of an accepted parameter, relative to the smallest P0 */

struct hs_tangent_estimator {
    hs_ctx *ctx;
    int m;          /* actuators */
    int given;      /* 1: T_p given; 0: T_p from the eigenvectors of the previous estimate */
    double delta;   /* threshold of eq. 5.9 */
    double pfloor;  /* smallest accepted parameter */
    double *K0, *K; /* initial and current K_l (m x m) */
    double *Tp;     /* T_p (m x m); rebuilt from the eigenvectors when not given */
    double *TpiT;   /* T_p^-T (m x m), the force transformation of eq. 5.5 */
    double *P;      /* parameters of the current estimate (m) */
    double *Pprev;  /* parameters of the previous estimate in the current T_p (m) */
    double *rown;   /* ||T_p(i,:)||_2 (m) */
    double *dx, *dr, *dxp, *drp, *xp0, *xp1; /* work (m) */
    double *eig, *work;                      /* eigen work: copy of K (m x m) and LAPACK work */
    lapack_int lwork;
};

static void te_free(hs_tangent_estimator *te)
{
    double **v[] = {&te->K0,    &te->K,    &te->Tp,  &te->TpiT, &te->P,
                    &te->Pprev, &te->rown, &te->dx,  &te->dr,   &te->dxp,
                    &te->drp,   &te->xp0,  &te->xp1, &te->eig,  &te->work};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        hs_free(*v[i]);
        *v[i] = NULL;
    }
}

void hs_tangent_destroy(hs_tangent_estimator **te)
{
    if (!te || !*te) return;
    te_free(*te);
    hs_free(*te);
    *te = NULL;
}

/* Eigenvalues (ascending, into w) and orthonormal eigenvectors (columns of te->eig) of K. */
static int te_eigen(hs_tangent_estimator *te, const double *K, double *w)
{
    const int m = te->m;
    memcpy(te->eig, K, (size_t)m * (size_t)m * sizeof(double));
    lapack_int info =
        LAPACKE_dsyev_work(LAPACK_COL_MAJOR, 'V', 'U', m, te->eig, m, w, te->work, te->lwork);
    if (info != 0)
        return hs_fail(te->ctx, HS_ECONVERGE,
                       "tangent estimator: eigenvalue analysis of the %d x %d stiffness failed "
                       "(dsyev info %d)",
                       m, m, (int)info);
    return 0;
}

/* T_p = Phi^T from te->eig; its inverse transpose is T_p itself (orthonormal rows). */
static void te_tp_from_eigenvectors(hs_tangent_estimator *te)
{
    const int m = te->m;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            HS_AT(te->Tp, m, i, j) = HS_AT(te->eig, m, j, i);
            HS_AT(te->TpiT, m, i, j) = HS_AT(te->eig, m, j, i);
        }
    for (int i = 0; i < m; i++) te->rown[i] = 1.0;
}

/* K = T_p^T diag(P) T_p, symmetrised. */
static void te_assemble(hs_tangent_estimator *te)
{
    const int m = te->m;
    for (int j = 0; j < m; j++)
        for (int i = 0; i <= j; i++) {
            double s = 0.0;
            for (int k = 0; k < m; k++)
                s += HS_AT(te->Tp, m, k, i) * te->P[k] * HS_AT(te->Tp, m, k, j);
            HS_AT(te->K, m, i, j) = s;
            HS_AT(te->K, m, j, i) = s;
        }
}

/* y = A x (m x m) or y = A^T x */
static void te_mv(int m, const double *A, const double *x, double *y, int transpose)
{
    for (int i = 0; i < m; i++) {
        double s = 0.0;
        for (int k = 0; k < m; k++) s += (transpose ? HS_AT(A, m, k, i) : HS_AT(A, m, i, k)) * x[k];
        y[i] = s;
    }
}

int hs_tangent_create(hs_ctx *ctx, int nact, const double *K0l, const double *Tp,
                      hs_tangent_estimator **out)
{
    if (!out || nact <= 0 || !K0l)
        return hs_fail(ctx, HS_EINVAL, "tangent estimator: %d actuators or no initial stiffness",
                       nact);
    hs_tangent_estimator *te = hs_calloc(1, sizeof *te);
    if (!te) return HS_ENOMEM;
    te->ctx = ctx;
    te->m = nact;
    te->given = Tp != NULL;
    const size_t m = (size_t)nact, mm = m * m;
    double **sq[] = {&te->K0, &te->K, &te->Tp, &te->TpiT, &te->eig};
    double **vec[] = {&te->P,   &te->Pprev, &te->rown, &te->dx, &te->dr,
                      &te->dxp, &te->drp,   &te->xp0,  &te->xp1};
    int rc = 0;
    for (size_t i = 0; i < sizeof sq / sizeof sq[0]; i++)
        if (!(*sq[i] = hs_dvec(mm))) rc = HS_ENOMEM;
    for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++)
        if (!(*vec[i] = hs_dvec(m))) rc = HS_ENOMEM;
    if (!rc) {
        double q = 0.0;
        te->lwork = -1;
        lapack_int info =
            LAPACKE_dsyev_work(LAPACK_COL_MAJOR, 'V', 'U', nact, te->eig, nact, te->P, &q, -1);
        te->lwork = info == 0 ? (lapack_int)q : 3 * nact;
        if (te->lwork < 3 * nact) te->lwork = 3 * nact;
        if (!(te->work = hs_dvec((size_t)te->lwork))) rc = HS_ENOMEM;
    }
    if (rc) {
        hs_tangent_destroy(&te);
        return rc;
    }
    /* symmetric positive-definite initial stiffness */
    for (size_t k = 0; k < mm; k++) te->K0[k] = K0l[k];
    for (int i = 0; i < nact; i++)
        for (int j = 0; j < i; j++) {
            const double a = HS_AT(K0l, nact, i, j), b = HS_AT(K0l, nact, j, i);
            if (fabs(a - b) > 1e-9 * (fabs(a) + fabs(b)) + 1e-300) {
                hs_tangent_destroy(&te);
                return hs_fail(ctx, HS_EINPUT,
                               "tangent estimator: the initial stiffness is not symmetric "
                               "(K(%d,%d) = %g, K(%d,%d) = %g)",
                               i + 1, j + 1, a, j + 1, i + 1, b);
            }
            HS_AT(te->K0, nact, i, j) = HS_AT(te->K0, nact, j, i) = 0.5 * (a + b);
        }
    rc = te_eigen(te, te->K0, te->Pprev);
    if (!rc && !(te->Pprev[0] > 0.0))
        rc = hs_fail(ctx, HS_EINPUT,
                     "tangent estimator: the initial stiffness is not positive-definite (smallest "
                     "eigenvalue %g)",
                     te->Pprev[0]);
    if (!rc) {
        te->pfloor = HS_TE_MIN_RATIO * te->Pprev[0];
        memcpy(te->P, te->Pprev, m * sizeof(double));
    }
    if (!rc && te->given) {
        /* P0 = diag(T_p^-T K0 T_p^-1); T_p^-T kept for eq. 5.5 */
        memcpy(te->Tp, Tp, mm * sizeof(double));
        memcpy(te->TpiT, Tp, mm * sizeof(double));
        rc = hs_mat_inverse(ctx, nact, te->TpiT); /* T_p^-1 for now */
        if (rc == HS_ESINGULAR)
            rc =
                hs_fail(ctx, HS_EINPUT, "tangent estimator: T_p (%d x %d) is singular", nact, nact);
        if (!rc) {
            double pmin = INFINITY;
            for (int i = 0; i < nact; i++) {
                /* (T_p^-T K0 T_p^-1)_ii = sum_kl Tinv(k,i) K0(k,l) Tinv(l,i) */
                double s = 0.0;
                for (int k = 0; k < nact; k++)
                    for (int l = 0; l < nact; l++)
                        s += HS_AT(te->TpiT, nact, k, i) * HS_AT(te->K0, nact, k, l) *
                             HS_AT(te->TpiT, nact, l, i);
                te->P[i] = s;
                pmin = fmin(pmin, s);
                double r = 0.0;
                for (int j = 0; j < nact; j++) r += HS_AT(Tp, nact, i, j) * HS_AT(Tp, nact, i, j);
                te->rown[i] = sqrt(r);
            }
            if (!(pmin > 0.0))
                rc = hs_fail(ctx, HS_EINPUT,
                             "tangent estimator: T_p does not diagonalise the initial stiffness "
                             "into positive parameters (smallest %g)",
                             pmin);
            else
                te->pfloor = HS_TE_MIN_RATIO * pmin;
            for (int i = 0; i < nact; i++) /* transpose T_p^-1 into T_p^-T */
                for (int j = 0; j < i; j++) {
                    const double t = HS_AT(te->TpiT, nact, i, j);
                    HS_AT(te->TpiT, nact, i, j) = HS_AT(te->TpiT, nact, j, i);
                    HS_AT(te->TpiT, nact, j, i) = t;
                }
        }
    }
    if (rc) {
        hs_tangent_destroy(&te);
        return rc;
    }
    memcpy(te->K, te->K0, mm * sizeof(double));
    *out = te;
    return 0;
}

double hs_tangent_noise_threshold(int nact, const double *K0l, const double *noise_disp_rms,
                                  const double *noise_force_rms)
{
    double delta = 0.0;
    for (int j = 0; j < nact; j++) {
        if (noise_disp_rms) delta = fmax(delta, 10.0 * noise_disp_rms[j]);
        const double kjj = K0l ? HS_AT(K0l, nact, j, j) : 0.0;
        if (noise_force_rms && kjj > 0.0) delta = fmax(delta, 10.0 * noise_force_rms[j] / kjj);
    }
    return delta;
}

void hs_tangent_set_threshold(hs_tangent_estimator *te, double delta)
{
    te->delta = delta > 0.0 ? delta : 0.0;
}
double hs_tangent_threshold(const hs_tangent_estimator *te)
{
    return te->delta;
}
const double *hs_tangent_matrix(const hs_tangent_estimator *te)
{
    return te->K;
}
int hs_tangent_nact(const hs_tangent_estimator *te)
{
    return te->m;
}

int hs_tangent_update(hs_tangent_estimator *te, const double *x0, const double *x1,
                      const double *r0, const double *r1)
{
    const int m = te->m;
    for (int i = 0; i < m; i++) {
        te->dx[i] = x1[i] - x0[i];
        te->dr[i] = r1[i] - r0[i];
    }
    const double dxn = hs_norm_inf(m, te->dx);
    if (!(dxn > te->delta) || !isfinite(dxn) || !isfinite(hs_norm_inf(m, te->dr))) return 0;
    if (te->given) {
        memcpy(te->Pprev, te->P, (size_t)m * sizeof(double));
    } else {
        /* T_p = Phi^T of the previous estimate (Mosqueda & Ahmadizadeh 2008a, eq. 9-11); its
         * parameters are the eigenvalues */
        int rc = te_eigen(te, te->K, te->Pprev);
        if (rc) return rc;
        te_tp_from_eigenvectors(te);
    }
    te_mv(m, te->Tp, te->dx, te->dxp, 0);   /* eq. 5.4 */
    te_mv(m, te->TpiT, te->dr, te->drp, 0); /* eq. 5.5 */
    te_mv(m, te->Tp, x0, te->xp0, 0);
    te_mv(m, te->Tp, x1, te->xp1, 0);
    int updated = 0;
    for (int i = 0; i < m; i++) {
        te->P[i] = te->Pprev[i];
        const double ax = fabs(te->dxp[i]);
        if (!(ax > te->delta * te->rown[i])) continue;
        if (!(ax > HS_TE_REL_GUARD * fmax(fabs(te->xp0[i]), fabs(te->xp1[i])))) continue;
        const double p = te->drp[i] / te->dxp[i]; /* eq. 5.7 */
        if (!(p >= te->pfloor) || !isfinite(p)) continue;
        te->P[i] = p;
        updated = 1;
    }
    if (updated) te_assemble(te); /* eq. 5.3 */
    return updated;
}

size_t hs_tangent_state_size(const hs_tangent_estimator *te)
{
    return (size_t)te->m * (size_t)te->m + (size_t)te->m;
}

void hs_tangent_state_save(const hs_tangent_estimator *te, double *out)
{
    const size_t m = (size_t)te->m;
    memcpy(out, te->K, m * m * sizeof(double));
    memcpy(out + m * m, te->P, m * sizeof(double));
}

void hs_tangent_state_load(hs_tangent_estimator *te, const double *in)
{
    const size_t m = (size_t)te->m;
    memcpy(te->K, in, m * m * sizeof(double));
    memcpy(te->P, in + m * m, m * sizeof(double));
}
