/* The generalized eigenproblem K phi = omega^2 M phi of a nonsymmetric K (hs_gen_eig, linalg.h):
 * the tangent of a model with P-Delta links (moments from lateral translations, not the other
 * way) is nonsymmetric, and OpenSees' `eigen -fullGenLapack` then solves the general problem
 * (FullGenEigenSolver.cpp of OpenSees 3.8, read for facts: dggev, lambda = alphar / beta, a
 * complex one reported as -|alpha| / beta, |alpha| eps >= |beta| infinite, the vectors scaled to
 * phi' M phi = 1 when that is positive, then sorted ascending). */
#include "hysim/linalg.h"

#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

int hs_gen_eig(hs_ctx *ctx, int n, const double *K, const double *M, double *omega2, double *phi)
{
    const size_t nn = (size_t)n * (size_t)n;
    double *a = hs_dvec(nn), *b = hs_dvec(nn), *vr = hs_dvec(nn), *ar = hs_dvec((size_t)n),
           *ai = hs_dvec((size_t)n), *be = hs_dvec((size_t)n), *lam = hs_dvec((size_t)n);
    int *id = hs_calloc((size_t)n, sizeof *id);
    int rc = (!a || !b || !vr || !ar || !ai || !be || !lam || !id) ? HS_ENOMEM : 0;
    if (!rc) {
        memcpy(a, K, nn * sizeof(double));
        memcpy(b, M, nn * sizeof(double));
        const lapack_int info =
            LAPACKE_dggev(LAPACK_COL_MAJOR, 'N', 'V', n, a, n, b, n, ar, ai, be, NULL, 1, vr, n);
        if (info)
            rc =
                hs_fail(ctx, HS_ECONVERGE, "eigenvalue analysis failed (dggev info %d)", (int)info);
    }
    for (int i = 0; !rc && i < n; i++) {
        const double mag = hypot(ar[i], ai[i]);
        lam[i] = !(mag * DBL_EPSILON < fabs(be[i])) ? INFINITY
                 : ai[i] == 0.0                     ? ar[i] / be[i]
                                                    : -mag / be[i];
        id[i] = i;
        double *x = vr + (size_t)i * (size_t)n, f = 0.0; /* x' M x */
        for (int c = 0; c < n; c++)
            for (int r = 0; r < n; r++) f += x[r] * M[(size_t)c * (size_t)n + (size_t)r] * x[c];
        if (f > 0.0)
            for (int r = 0; r < n; r++) x[r] /= sqrt(f);
    }
    for (int i = 1; !rc && i < n; i++) /* ascending, stable */
        for (int j = i; j > 0 && lam[id[j - 1]] > lam[id[j]]; j--) {
            const int t = id[j];
            id[j] = id[j - 1];
            id[j - 1] = t;
        }
    for (int j = 0; !rc && j < n; j++) {
        omega2[j] = lam[id[j]];
        memcpy(phi + (size_t)j * (size_t)n, vr + (size_t)id[j] * (size_t)n,
               (size_t)n * sizeof(double));
    }
    hs_free(a);
    hs_free(b);
    hs_free(vr);
    hs_free(ar);
    hs_free(ai);
    hs_free(be);
    hs_free(lam);
    hs_free(id);
    return rc;
}
