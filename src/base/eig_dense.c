/* The generalized symmetric eigenproblem K phi = omega^2 M phi of a dense model, right across
 * mass scales (hs_sym_eig, linalg.h).
 *
 * LAPACK's dsygv factors M = L L' and solves L^-1 K L^-T: its eigenvalues carry an absolute error
 * of about eps * omega2_max. Masses of 1e-10 beside real ones (OpenSees' verification script
 * PortalFrame2d.tcl puts them on uy and rz) push omega2_max to 1e19 and leave the lowest modes,
 * the ones every damping and period uses, wrong by 15 %. The inverted problem M x = mu K x
 * (mu = 1 / omega^2, K = R' R by Cholesky) has the symmetric weakness: an absolute error of about
 * eps * mu_max, exact for the lowest modes, noise for the highest. This is what shift-invert
 * Lanczos does (OpenSees' ARPACK eigen, hysim's src/base/eig_sparse.c).
 *
 * So: the direct solve alone when its spread omega2_max / omega2_min is small enough that its
 * lowest mode keeps 1e-10 (EIG_SPREAD); otherwise the inverted solve as well (when K is positive
 * definite), the modes below a split from the inverted one and the modes above it from the direct
 * one. The split is the widest gap of the spectrum among the splits where both halves keep 1e-10
 * relative (each half's error grows with its distance from its own exact end); when no split
 * qualifies, the one of least error. A wide gap keeps the two halves' shapes M-orthogonal: tiny
 * masses open one (the massive modes below, the tiny-mass modes far above). */
#include "hysim/linalg.h"

#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

/* omega2_max / omega2_min up to which one solve keeps every eigenvalue to about 1e-10 relative */
#define EIG_SPREAD 1e6

/* K phi = w M phi by dsygv (phi M-orthonormal); info as LAPACK's (> n: M not positive definite) */
static lapack_int eig_direct(int n, const double *K, const double *M, double *w, double *phi,
                             double *work)
{
    const size_t nn = (size_t)n * (size_t)n;
    memcpy(phi, K, nn * sizeof(double));
    memcpy(work, M, nn * sizeof(double));
    return LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, 'V', 'U', n, phi, n, work, n, w);
}

/* M x = mu K x by dsygv, returned as w = 1 / mu ascending (mu <= 0: infinite) with x scaled to
 * x' M x = 1; info as LAPACK's (> n: K not positive definite), n + 1 also when M is indefinite
 * (a mu below -1e-12 of the largest) */
static lapack_int eig_inverted(int n, const double *K, const double *M, double *w, double *phi,
                               double *work)
{
    const size_t nn = (size_t)n * (size_t)n;
    memcpy(work, M, nn * sizeof(double));
    memcpy(phi, K, nn * sizeof(double));
    double *mu = w;
    lapack_int info = LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, 'V', 'U', n, work, n, phi, n, mu);
    if (info) return info;
    /* mu ascending; M indefinite (not a mass) when one is negative beyond round-off */
    if (mu[0] < -1e-12 * fabs(mu[n - 1])) return n + 1;
    /* mu ascending: the largest mu is the lowest omega^2; reverse columns into phi */
    for (int j = 0; j < n; j++) {
        const int src = n - 1 - j;
        const double m = mu[src];
        const double s = m > 0.0 ? 1.0 / sqrt(m) : 1.0;
        const double *x = work + (size_t)src * (size_t)n;
        double *y = phi + (size_t)j * (size_t)n;
        for (int i = 0; i < n; i++) y[i] = s * x[i];
    }
    for (int j = 0; j < n / 2; j++) {
        const double t = mu[j];
        mu[j] = mu[n - 1 - j];
        mu[n - 1 - j] = t;
    }
    for (int j = 0; j < n; j++) w[j] = mu[j] > 0.0 ? 1.0 / mu[j] : INFINITY;
    return 0;
}

/* The number of modes to take from the inverted solve wl (the rest from the direct one wh). */
static int eig_split(int n, const double *wl, const double *wh)
{
    const double lo = wl[0], hi = wh[n - 1];
    /* each mode's best estimate: the inverted one below the spectrum's geometric middle */
    const double mid = sqrt(lo) * sqrt(hi);
    int best = n, widest = 0;
    double best_err = INFINITY, widest_gap = 0.0;
    for (int s = 1; s < n; s++) {
        const double below = isfinite(wl[s - 1]) && wl[s - 1] <= mid ? wl[s - 1] : wh[s - 1];
        const double above = isfinite(wl[s]) && wl[s] <= mid ? wl[s] : wh[s];
        const double err = fmax(below / lo, hi / above); /* both halves' error, in eps */
        if (err < best_err) best_err = err, best = s;
        if (err <= EIG_SPREAD && above / below > widest_gap) widest_gap = above / below, widest = s;
    }
    return widest ? widest : best;
}

int hs_sym_eig(hs_ctx *ctx, int n, const double *K, const double *M, double *omega2, double *phi)
{
    const size_t nn = (size_t)n * (size_t)n;
    double *work = hs_dvec(nn), *phi_l = NULL, *w_l = NULL;
    if (!work) return HS_ENOMEM;
    int rc = 0;
    lapack_int info = eig_direct(n, K, M, omega2, phi, work);
    /* M only semidefinite with a zero diagonal (DOFs without mass, kept for experimental
     * elements): the inverted solve alone, those DOFs' modes at omega^2 = infinity (x' M x = 0:
     * left unscaled); any other M that is not positive definite stays an error */
    int massless = 0;
    for (int i = 0; i < n; i++) massless |= M[(size_t)i * (size_t)n + (size_t)i] == 0.0;
    if (info > n && massless && eig_inverted(n, K, M, omega2, phi, work) == 0) {
        info = 0;
        /* a DOF without mass has mu = 0 exactly only in exact arithmetic: dsygv leaves it a
         * round-off of about eps * mu_max (3e-21 beside 2e-3 in
         * examples/braced_frame_diagonal.yaml, a "period" of 3.6e-10 s); below 16 n eps of mu_max
         * it is that zero */
        const double noise = 16.0 * (double)n * DBL_EPSILON;
        if (omega2[0] > 0.0 && isfinite(omega2[0]))
            for (int j = 1; j < n; j++) /* mu_j < noise mu_max */
                if (omega2[0] < noise * omega2[j]) omega2[j] = INFINITY;
    }
    if (info)
        rc = hs_fail(ctx, HS_ESINGULAR,
                     "eigenvalue analysis failed (dsygv info %d): is the mass positive and the "
                     "stiffness symmetric?",
                     (int)info);
    const int spread = !rc && n > 1 && isfinite(omega2[n - 1]) &&
                       !(omega2[0] > 0.0 && omega2[n - 1] <= EIG_SPREAD * omega2[0]);
    if (spread) {
        phi_l = hs_dvec(nn);
        w_l = hs_dvec((size_t)n);
        rc = (!phi_l || !w_l) ? HS_ENOMEM : 0;
    }
    /* K not positive definite (a mechanism, a free body): the direct solve stands */
    if (spread && !rc && eig_inverted(n, K, M, w_l, phi_l, work) == 0) {
        const int s = eig_split(n, w_l, omega2);
        memcpy(omega2, w_l, (size_t)s * sizeof(double));
        memcpy(phi, phi_l, (size_t)s * (size_t)n * sizeof(double));
    }
    hs_free(work);
    hs_free(phi_l);
    hs_free(w_l);
    return rc;
}
