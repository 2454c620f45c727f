/* Polynomial force estimation from the last measurements: see force_estimator.h. */
#include "force_estimator.h"

#include "hysim/linalg.h"

#include <math.h>
#include <string.h>

struct hs_force_estimator {
    hs_ctx *ctx;
    int m;      /* actuators */
    double h;   /* allowed extrapolation beyond the samples, seconds */
    int fitted; /* 1 after a successful fit */
    double t_first, t_last, span;
    double *cx, *cf;  /* coefficients, 3 per actuator */
    hs_linsolver *ne; /* normal equations V^T V (3 x 3) */
};

void hs_force_estimator_destroy(hs_force_estimator **fe)
{
    if (!fe || !*fe) return;
    hs_linsolver_destroy(&(*fe)->ne);
    hs_free((*fe)->cx);
    hs_free((*fe)->cf);
    hs_free(*fe);
    *fe = NULL;
}

int hs_force_estimator_create(hs_ctx *ctx, int nact, double max_extrapolation,
                              hs_force_estimator **out)
{
    if (!out || nact <= 0)
        return hs_fail(ctx, HS_EINVAL, "force estimator: invalid number of actuators %d", nact);
    if (!(max_extrapolation >= 0.0) || !isfinite(max_extrapolation))
        return hs_fail(ctx, HS_EINPUT,
                       "force estimator: the extrapolation limit must be >= 0 (got %g)",
                       max_extrapolation);
    hs_force_estimator *fe = hs_calloc(1, sizeof *fe);
    if (!fe) return HS_ENOMEM;
    fe->ctx = ctx;
    fe->m = nact;
    fe->h = max_extrapolation;
    fe->cx = hs_dvec(3 * (size_t)nact);
    fe->cf = hs_dvec(3 * (size_t)nact);
    int rc = (!fe->cx || !fe->cf) ? HS_ENOMEM : hs_linsolver_create(ctx, "dense", 3, &fe->ne);
    if (rc) {
        hs_force_estimator_destroy(&fe);
        return rc;
    }
    *out = fe;
    return 0;
}

int hs_force_estimator_fit(hs_force_estimator *fe, int nhist, const double *t, const double *x,
                           const double *f)
{
    fe->fitted = 0;
    const int ns = nhist < HS_FE_SAMPLES ? nhist : HS_FE_SAMPLES;
    if (ns < 3 || !t || !x || !f) return 1;
    const int k0 = nhist - ns, m = fe->m;
    for (int k = k0 + 1; k < nhist; k++)
        if (!(t[k] > t[k - 1])) return 1;
    fe->t_first = t[k0];
    fe->t_last = t[nhist - 1];
    fe->span = fe->t_last - fe->t_first;
    /* normal equations in the normalised time: N = V^T V, V = [1 tau tau^2] */
    double tau[HS_FE_SAMPLES], N[9] = {0};
    for (int k = 0; k < ns; k++) tau[k] = (t[k0 + k] - fe->t_last) / fe->span;
    for (int k = 0; k < ns; k++) {
        const double p[3] = {1.0, tau[k], tau[k] * tau[k]};
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) N[j * 3 + i] += p[i] * p[j];
    }
    if (hs_linsolver_factor(fe->ne, N)) return 1; /* not with 3+ increasing times */
    for (int j = 0; j < m; j++) {
        double *bx = fe->cx + 3 * j, *bf = fe->cf + 3 * j;
        for (int i = 0; i < 3; i++) bx[i] = bf[i] = 0.0;
        for (int k = 0; k < ns; k++) {
            const double p[3] = {1.0, tau[k], tau[k] * tau[k]};
            const double xk = x[(size_t)(k0 + k) * (size_t)m + (size_t)j];
            const double fk = f[(size_t)(k0 + k) * (size_t)m + (size_t)j];
            for (int i = 0; i < 3; i++) {
                bx[i] += p[i] * xk;
                bf[i] += p[i] * fk;
            }
        }
        if (hs_linsolver_solve(fe->ne, bx) || hs_linsolver_solve(fe->ne, bf)) return 1;
    }
    fe->fitted = 1;
    return 0;
}

/* Real root of a tau^2 + b tau + c = 0 nearest tau = 0; 1 when there is none. */
static int nearest_root(double a, double b, double c, double *tau)
{
    if (c == 0.0) {
        *tau = 0.0;
        return 0;
    }
    if (a == 0.0 && b == 0.0) return 1; /* flat history: the displacement is never reached */
    const double disc = b * b - 4.0 * a * c;
    if (disc < 0.0) return 1; /* complex roots: the trial displacement is beyond a turning point */
    const double q = -0.5 * (b + copysign(sqrt(disc), b));
    /* q != 0 here (q = 0 needs b = 0 and a c = 0, with c != 0 and (a, b) != 0) */
    const double r2 = c / q; /* the root that stays finite as a -> 0 */
    if (a == 0.0) {
        *tau = r2;
        return 0;
    }
    const double r1 = q / a;
    *tau = fabs(r1) < fabs(r2) ? r1 : r2;
    return 0;
}

int hs_force_estimator_estimate(const hs_force_estimator *fe, const double *x, double *f,
                                double *t_est, int *which)
{
    for (int j = 0; j < fe->m; j++) {
        const double *cx = fe->cx + 3 * j, *cf = fe->cf + 3 * j;
        double tau = 0.0;
        int refused = !fe->fitted || nearest_root(cx[2], cx[1], cx[0] - x[j], &tau);
        const double t = fe->t_last + tau * fe->span;
        if (!refused && !(t >= fe->t_first - fe->h && t <= fe->t_last + fe->h)) refused = 1;
        if (refused) {
            if (which) *which = j;
            return 1;
        }
        f[j] = cf[0] + tau * (cf[1] + tau * cf[2]);
        if (t_est) t_est[j] = t;
    }
    return 0;
}
