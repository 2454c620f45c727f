/* The lowest modes of a large sparse model: ARPACK's implicitly restarted Lanczos (Debian's
 * libarpack2-dev) in shift-invert mode for the generalized problem (dsaupd mode 3, bmat = 'G'):
 * OP = K^-1 M (shift 0), B = M; the eigenvalues of largest magnitude of OP are the lowest
 * omega^2 of K phi = omega^2 M phi. K is factored once (CHOLMOD, or LAPACK's band when narrow);
 * each Lanczos step is one product with M and one solve. */
#include "hysim/linalg.h"
#include "hysim/sparse.h"

#include <arpack.h>
#include <stdio.h>
#include <string.h>

/* after <arpack.h>: its calls through the table that hs_arpack_require fills (ARPACK is loaded
 * when a large model's modes are first asked for, not at the program's start) */
#include "base/arpack_libs_names.h"

#define EIG_TOL      0.0 /* ARPACK's default: machine precision */
#define EIG_MAX_ITER 1000

typedef struct eig_work {
    double *resid, *v, *workd, *workl, *d, *z;
    int *select;
} eig_work;

static void eig_free(eig_work *w)
{
    hs_free(w->resid);
    hs_free(w->v);
    hs_free(w->workd);
    hs_free(w->workl);
    hs_free(w->d);
    hs_free(w->z);
    hs_free(w->select);
}

int hs_sparse_eig(hs_ctx *ctx, const hs_csc *K, const hs_csc *M, int nev, double *omega2,
                  double *phi)
{
    const int n = K->ncols;
    if (K->nrows != n || M->nrows != n || M->ncols != n || nev < 1 || nev >= n)
        return hs_fail(ctx, HS_EINVAL,
                       "sparse eigen-analysis: %d modes of a %d x %d K and a %d x %d M (need 1 "
                       "<= modes < n)",
                       nev, K->nrows, K->ncols, M->nrows, M->ncols);
    const int ncv = 2 * nev + 20 < n ? 2 * nev + 20 : n, lworkl = ncv * (ncv + 8);
    eig_work w = {0};
    w.resid = hs_dvec((size_t)n);
    w.v = hs_dvec((size_t)n * (size_t)ncv);
    w.workd = hs_dvec(3 * (size_t)n);
    w.workl = hs_dvec((size_t)lworkl);
    w.d = hs_dvec((size_t)nev);
    w.z = hs_dvec((size_t)n * (size_t)nev);
    w.select = hs_calloc((size_t)ncv, sizeof *w.select);
    hs_linsolver *ls = NULL;
    char what[80];
    snprintf(what, sizeof what, "sparse eigen-analysis (%d modes of %d DOFs)", nev, n);
    int rc = hs_arpack_require(ctx, what);
    if (!rc)
        rc = (!w.resid || !w.v || !w.workd || !w.workl || !w.d || !w.z || !w.select)
                 ? hs_fail(ctx, HS_ENOMEM, "sparse eigen-analysis: out of memory (n = %d)", n)
                 : 0;
    if (!rc) rc = hs_linsolver_create_sparse(ctx, NULL, K, &ls);
    if (!rc) rc = hs_linsolver_factor_csc(ls, K);
    if (rc == HS_ESINGULAR)
        rc = hs_fail(ctx, HS_EINPUT,
                     "sparse eigen-analysis: the stiffness is singular (%s); the structure is "
                     "unstable or not restrained to the ground",
                     hs_ctx_message(ctx));
    a_int iparam[11] = {0}, ipntr[14] = {0}, ido = 0, info = 0;
    iparam[0] = 1; /* exact shifts */
    iparam[2] = EIG_MAX_ITER;
    iparam[6] = 3; /* shift-invert, generalized */
    while (!rc) {
        dsaupd_c(&ido, "G", n, "LM", nev, EIG_TOL, w.resid, ncv, w.v, n, iparam, ipntr, w.workd,
                 w.workl, lworkl, &info);
        if (ido == 99) break;
        double *x = w.workd + ipntr[0] - 1, *y = w.workd + ipntr[1] - 1;
        if (ido == -1) { /* y = K^-1 M x */
            hs_csc_matvec(M, x, y);
            rc = hs_linsolver_solve(ls, y);
        } else if (ido == 1) { /* M x is given */
            memcpy(y, w.workd + ipntr[2] - 1, (size_t)n * sizeof *y);
            rc = hs_linsolver_solve(ls, y);
        } else if (ido == 2) {
            hs_csc_matvec(M, x, y);
        } else {
            rc = hs_fail(ctx, HS_EINVAL, "sparse eigen-analysis: ARPACK asked for %d", (int)ido);
        }
    }
    if (!rc && info < 0)
        rc = hs_fail(ctx, HS_EINVAL, "sparse eigen-analysis: ARPACK dsaupd error %d", (int)info);
    if (!rc && info == 1)
        rc = hs_fail(ctx, HS_ECONVERGE,
                     "sparse eigen-analysis: %d of %d modes converged in %d Lanczos restarts",
                     (int)iparam[4], nev, EIG_MAX_ITER);
    if (!rc) {
        dseupd_c(1, "A", w.select, w.d, w.z, n, 0.0, "G", n, "LM", nev, EIG_TOL, w.resid, ncv, w.v,
                 n, iparam, ipntr, w.workd, w.workl, lworkl, &info);
        if (info != 0)
            rc =
                hs_fail(ctx, HS_EINVAL, "sparse eigen-analysis: ARPACK dseupd error %d", (int)info);
    }
    if (!rc) { /* ascending: dseupd's order is ascending already, but make sure */
        for (int a = 0; a < nev; a++) {
            int lo = a;
            for (int b = a + 1; b < nev; b++)
                if (w.d[b] < w.d[lo]) lo = b;
            const double t = w.d[a];
            w.d[a] = w.d[lo];
            w.d[lo] = t;
            for (int i = 0; lo != a && i < n; i++) {
                const double zt = w.z[(size_t)a * (size_t)n + (size_t)i];
                w.z[(size_t)a * (size_t)n + (size_t)i] = w.z[(size_t)lo * (size_t)n + (size_t)i];
                w.z[(size_t)lo * (size_t)n + (size_t)i] = zt;
            }
        }
        memcpy(omega2, w.d, (size_t)nev * sizeof *omega2);
        if (phi) memcpy(phi, w.z, (size_t)n * (size_t)nev * sizeof *phi);
    }
    hs_linsolver_destroy(&ls);
    eig_free(&w);
    return rc;
}
