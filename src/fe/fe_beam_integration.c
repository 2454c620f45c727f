/* OpenSees' beamIntegration rules (fe_beam_integration.h). The Gauss-type points are the roots of
 * Legendre polynomials found by Newton's method from Chebyshev-like starting values. */
#include "fe_beam_integration.h"

#include "hysim/linalg.h"

#include <math.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

/* P_n(x) and P_{n-1}(x) by the three-term recurrence. */
static void legendre(int n, double x, double *pn, double *pn1)
{
    double p0 = 1.0, p1 = x;
    if (n == 0) {
        *pn = 1.0;
        *pn1 = 0.0;
        return;
    }
    for (int k = 2; k <= n; k++) {
        const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
    }
    *pn = p1;
    *pn1 = p0;
}

/* Newton's method on f, its derivative a central difference (the roots are simple and the
 * starting values close; the step goes to round-off). */
static double newton_root(double (*f)(int, double), int n, double x)
{
    for (int it = 0; it < 100; it++) {
        const double h = 1e-7, d = (f(n, x + h) - f(n, x - h)) / (2.0 * h);
        const double dx = f(n, x) / d;
        x -= dx;
        if (fabs(dx) < 1e-16) break;
    }
    return x;
}

static double f_legendre(int n, double x)
{
    double pn, pn1;
    legendre(n, x, &pn, &pn1);
    return pn;
}

/* P'_{n-1}(x) (1 - x^2) / (n - 1) = P_{n-2}(x) - x P_{n-1}(x) (up to a constant): the
 * interior Lobatto points are its roots. */
static double f_lobatto(int n, double x)
{
    double pn1, pn2;
    legendre(n - 1, x, &pn1, &pn2);
    return pn2 - x * pn1;
}

/* (P_{n-1} + P_n) / (1 + x): the Radau points other than -1. */
static double f_radau(int n, double x)
{
    double pn, pn1;
    legendre(n, x, &pn, &pn1);
    return (pn + pn1) / (1.0 + x);
}

static void gauss(int n, double *x, double *w)
{
    for (int i = 0; i < n; i++) {
        double r = newton_root(f_legendre, n, -cos(PI * (i + 0.75) / (n + 0.5)));
        double pn, pn1;
        legendre(n, r, &pn, &pn1);
        const double dp = n * (r * pn - pn1) / (r * r - 1.0);
        x[i] = r;
        w[i] = 2.0 / ((1.0 - r * r) * dp * dp);
    }
}

static void lobatto(int n, double *x, double *w)
{
    x[0] = -1.0;
    x[n - 1] = 1.0;
    for (int i = 1; i < n - 1; i++) x[i] = newton_root(f_lobatto, n, -cos(PI * i / (n - 1)));
    for (int i = 0; i < n; i++) {
        double p, q;
        legendre(n - 1, x[i], &p, &q);
        w[i] = 2.0 / (n * (n - 1.0) * p * p);
    }
}

static void radau(int n, double *x, double *w)
{
    x[0] = -1.0;
    w[0] = 2.0 / ((double)n * n);
    for (int i = 1; i < n; i++) {
        const double r = newton_root(f_radau, n, -cos(2.0 * PI * i / (2.0 * n - 1.0)));
        double p, q;
        legendre(n - 1, r, &p, &q);
        x[i] = r;
        w[i] = (1.0 - r) / ((double)n * n * p * p);
    }
}

/* Equally spaced points on [-1, 1], ends included; the weights integrate 1, x, ..., x^(n-1)
 * exactly (the moment equations V^T w = m solved by LAPACK). */
static void newton_cotes(int n, double *x, double *w)
{
    double V[FE_BI_MAX * FE_BI_MAX];
    for (int i = 0; i < n; i++) x[i] = -1.0 + 2.0 * i / (n - 1);
    for (int k = 0; k < n; k++) {
        for (int i = 0; i < n; i++) V[k * n + i] = pow(x[i], k);
        w[k] = k % 2 ? 0.0 : 2.0 / (k + 1.0);
    }
    if (hs_small_solve(n, V, w, 1)) /* distinct points: never singular */
        for (int i = 0; i < n; i++) w[i] = NAN;
}

/* The hinge rules: ends, the interior two Gauss points between the hinges (alpha, beta as
 * OpenSees' Hinge*BeamIntegration.cpp). */
static int hinges(hs_ctx *ctx, fe_bi_kind kind, double L, double lpI, double lpJ,
                  fe_beam_integration *b)
{
    const char *name = kind == FE_BI_HINGE_RADAU       ? "HingeRadau"
                       : kind == FE_BI_HINGE_RADAU_TWO ? "HingeRadauTwo"
                                                       : "HingeEndpoint";
    const double r = 1.0 / L;
    /* the interior span between the hinge regions' integration lengths */
    const double span = kind == FE_BI_HINGE_RADAU ? 4.0 : 1.0;
    if (!(L > 0.0 && lpI >= 0.0 && lpJ >= 0.0 && span * (lpI + lpJ) < L))
        return hs_fail(ctx, HS_EINPUT,
                       "beamIntegration %s: hinge lengths lpI = %g, lpJ = %g on an element of "
                       "length %g (need lpI, lpJ >= 0 and %g (lpI + lpJ) < L)",
                       name, lpI, lpJ, L, span);
    const double g = 1.0 / sqrt(3.0);
    double alpha, beta;
    if (kind == FE_BI_HINGE_ENDPOINT) {
        alpha = 0.5 - (lpI + lpJ) * 0.5 * r;
        beta = 0.5 + (lpI - lpJ) * 0.5 * r;
        b->n = 4;
        const double xi[4] = {0.0, beta - alpha * g, beta + alpha * g, 1.0};
        const double w[4] = {lpI * r, 0.5 - 0.5 * (lpI + lpJ) * r, 0.5 - 0.5 * (lpI + lpJ) * r,
                             lpJ * r};
        const int which[4] = {FE_BI_SEC_I, FE_BI_SEC_E, FE_BI_SEC_E, FE_BI_SEC_J};
        memcpy(b->xi, xi, sizeof xi);
        memcpy(b->w, w, sizeof w);
        memcpy(b->which, which, sizeof which);
        return 0;
    }
    const int two = kind == FE_BI_HINGE_RADAU_TWO;
    const double a = two ? 2.0 / 3.0 : 8.0 / 3.0, s = two ? 0.5 : 2.0;
    alpha = 0.5 - s * (lpI + lpJ) * r;
    beta = 0.5 + s * (lpI - lpJ) * r;
    const double w0 = two ? 0.25 : 1.0, w1 = two ? 0.75 : 3.0;
    b->n = 6;
    const double xi[6] = {0.0, a * lpI * r, beta - alpha * g, beta + alpha * g, 1.0 - a * lpJ * r,
                          1.0};
    const double w[6] = {w0 * lpI * r, w1 * lpI * r, alpha, alpha, w1 * lpJ * r, w0 * lpJ * r};
    /* HingeRadau (Scott & Fenves 2006's modified Gauss-Radau): the hinge sections at the ends
     * only, its second point in each hinge region is the interior section's; HingeRadauTwo: both
     * points of each hinge region the hinge's (OpenSees' HingeRadauBeamIntegration.cpp and
     * HingeRadauTwoBeamIntegration.cpp, the secTags of their OPS_ functions) */
    const int which[6] = {FE_BI_SEC_I, two ? FE_BI_SEC_I : FE_BI_SEC_E, FE_BI_SEC_E,
                          FE_BI_SEC_E, two ? FE_BI_SEC_J : FE_BI_SEC_E, FE_BI_SEC_J};
    memcpy(b->xi, xi, sizeof xi);
    memcpy(b->w, w, sizeof w);
    memcpy(b->which, which, sizeof which);
    return 0;
}

int fe_beam_integration_make(hs_ctx *ctx, fe_bi_kind kind, int n, double L, double lpI, double lpJ,
                             const double *xi, const double *w, fe_beam_integration *b)
{
    memset(b, 0, sizeof *b);
    b->kind = kind;
    if (kind >= FE_BI_HINGE_RADAU) return hinges(ctx, kind, L, lpI, lpJ, b);
    static const char *names[] = {"Lobatto", "Legendre", "Radau", "NewtonCotes", "UserDefined"};
    const int lo = kind == FE_BI_LOBATTO || kind == FE_BI_NEWTON_COTES ? 2 : 1;
    if (n < lo || n > FE_BI_MAX)
        return hs_fail(ctx, HS_EINPUT, "beamIntegration %s: %d integration points (%d to %d)",
                       names[kind], n, lo, FE_BI_MAX);
    b->n = n;
    double x[FE_BI_MAX], wt[FE_BI_MAX];
    switch (kind) {
    case FE_BI_LOBATTO:
        lobatto(n, x, wt);
        break;
    case FE_BI_LEGENDRE:
        gauss(n, x, wt);
        break;
    case FE_BI_RADAU:
        radau(n, x, wt);
        break;
    case FE_BI_NEWTON_COTES:
        newton_cotes(n, x, wt);
        break;
    default:
        for (int i = 0; i < n; i++) {
            if (!(xi[i] >= 0.0 && xi[i] <= 1.0 && isfinite(w[i])))
                return hs_fail(ctx, HS_EINPUT,
                               "beamIntegration UserDefined: point %d at %g with weight %g "
                               "(points in [0, 1], finite weights)",
                               i + 1, xi[i], w[i]);
            x[i] = 2.0 * xi[i] - 1.0;
            wt[i] = 2.0 * w[i];
        }
    }
    for (int i = 0; i < n; i++) {
        b->xi[i] = 0.5 * (x[i] + 1.0);
        b->w[i] = 0.5 * wt[i];
        b->which[i] = FE_BI_SEC_I;
    }
    return 0;
}

int fe_beam_integration_kind(const char *name)
{
    static const char *names[] = {"Lobatto",     "Legendre",   "Radau",         "NewtonCotes",
                                  "UserDefined", "HingeRadau", "HingeRadauTwo", "HingeEndpoint"};
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        if (name && strcmp(name, names[i]) == 0) return i;
    return -1;
}
