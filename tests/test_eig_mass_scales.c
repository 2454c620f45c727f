/* Eigenvalues right across mass scales (hs_sym_eig, LAPACK; hs_sparse_eig, ARPACK), against
 * solves that do not share their arithmetic:
 * - two DOFs in series, a real mass (1 to 1e3) at the first and a tiny one (1e-12 to 1e-6) at the
 *   second: both omega^2 from the quadratic det(K - w M) = 0, in its cancellation-free form;
 * - a fixed-base chain of 24 DOFs whose masses mix real ones (1 to 1e3) and, every third DOF, tiny
 *   ones (1e-12 to 1e-8), as in OpenSees' PortalFrame2d.tcl (1e-10 on uy and rz): every omega^2 by
 * Sturm-sequence bisection (the count of negative pivots of K - w M), a solve by inertia alone; the
 * modes below the tiny-mass ones to 1e-10, every mode to 1e-6, the shapes M-orthonormal and with a
 * small residual;
 * - the same pattern over 600 DOFs through ARPACK's shift-invert Lanczos: the lowest 6 to 1e-9. */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { CHAIN = 24, LONG_CHAIN = 600, NEV = 6 };

/* A fixed-base chain: spring s[i] below DOF i, mass m[i] at it; K tridiagonal. */
typedef struct chain {
    int n;
    double s[LONG_CHAIN], m[LONG_CHAIN];
} chain;

/* deterministic pseudo-random numbers in [0, 1) (an LCG: the test must not depend on libc) */
static double uniform(unsigned *seed)
{
    *seed = *seed * 1664525u + 1013904223u;
    return (double)(*seed >> 8) / 16777216.0;
}

/* every third DOF tiny (1e-12 to 1e-8), the others 1 to 1e3 (log-uniform); springs 1e4 to 1e6 */
static void chain_make(chain *c, int n, unsigned seed)
{
    c->n = n;
    for (int i = 0; i < n; i++) {
        c->s[i] = pow(10.0, 4.0 + 2.0 * uniform(&seed));
        const int tiny = i % 3 == 2;
        c->m[i] = tiny ? pow(10.0, -12.0 + 4.0 * uniform(&seed)) : pow(10.0, 3.0 * uniform(&seed));
    }
}

static double diag_k(const chain *c, int i)
{
    return c->s[i] + (i + 1 < c->n ? c->s[i + 1] : 0.0);
}

/* the number of omega^2 below w: negative pivots of the LDL' of K - w M */
static int sturm_count(const chain *c, double w)
{
    int neg = 0;
    double d = 1.0;
    for (int i = 0; i < c->n; i++) {
        const double off = i > 0 ? c->s[i] : 0.0;
        d = diag_k(c, i) - w * c->m[i] - (i > 0 ? off * off / d : 0.0);
        if (d == 0.0) d = -1e-300;
        neg += d < 0.0;
    }
    return neg;
}

/* the j-th omega^2 (0-based) by geometric bisection to the last bit */
static double sturm_eig(const chain *c, int j)
{
    double hi = 0.0;
    for (int i = 0; i < c->n; i++) hi = fmax(hi, 2.0 * diag_k(c, i) / c->m[i]);
    double lo = hi * 1e-40;
    assert_int_equal(sturm_count(c, lo), 0);
    for (int it = 0; it < 400 && hi > lo * (1.0 + 4e-16); it++) {
        const double mid = sqrt(lo) * sqrt(hi);
        if (sturm_count(c, mid) > j)
            hi = mid;
        else
            lo = mid;
    }
    return sqrt(lo) * sqrt(hi);
}

static void chain_dense(const chain *c, double *K, double *M)
{
    const int n = c->n;
    for (int i = 0; i < n; i++) {
        HS_AT(K, n, i, i) = diag_k(c, i);
        HS_AT(M, n, i, i) = c->m[i];
        if (i + 1 < n) HS_AT(K, n, i, i + 1) = HS_AT(K, n, i + 1, i) = -c->s[i + 1];
    }
}

static void test_two_dofs_closed_form(void **state)
{
    (void)state;
    const double heavy[] = {1.0, 30.0, 1e3}, light[] = {1e-12, 1e-10, 1e-6};
    const double k1 = 2e4, k2 = 7e5;
    double worst = 0.0;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            const double m1 = heavy[a], m2 = light[b];
            const double K[4] = {k1 + k2, -k2, -k2, k2}, M[4] = {m1, 0, 0, m2};
            /* m1 m2 w^2 - (m1 k2 + m2 (k1 + k2)) w + k1 k2 = 0 */
            const double p = m1 * k2 + m2 * (k1 + k2), q = 4.0 * m1 * m2 * k1 * k2;
            const double big = (p + sqrt(p * p - q)) / (2.0 * m1 * m2),
                         low = k1 * k2 / (m1 * m2 * big);
            double w2[2], phi[4];
            assert_int_equal(hs_sym_eig(NULL, 2, K, M, w2, phi), 0);
            worst = fmax(worst, fmax(fabs(w2[0] / low - 1.0), fabs(w2[1] / big - 1.0)));
        }
    print_message("two DOFs, masses 1..1e3 beside 1e-12..1e-6: worst omega^2 %.2g (relative)\n",
                  worst);
    assert_true(worst <= 1e-12);
}

static void test_graded_chain_dense(void **state)
{
    (void)state;
    static chain c;
    chain_make(&c, CHAIN, 7u);
    const int n = c.n;
    const size_t nn = (size_t)n * (size_t)n;
    double *K = calloc(nn, sizeof *K), *M = calloc(nn, sizeof *M), *phi = calloc(nn, sizeof *phi);
    double w2[CHAIN], ref[CHAIN];
    chain_dense(&c, K, M);
    assert_int_equal(hs_sym_eig(NULL, n, K, M, w2, phi), 0);
    int nreal = 0;
    for (int i = 0; i < n; i++) nreal += c.m[i] >= 1.0;
    double low = 0.0, all = 0.0, orth = 0.0, resid = 0.0;
    for (int j = 0; j < n; j++) {
        ref[j] = sturm_eig(&c, j);
        const double e = fabs(w2[j] / ref[j] - 1.0);
        if (j < nreal) low = fmax(low, e);
        all = fmax(all, e);
        const double *x = phi + (size_t)j * (size_t)n;
        for (int q = 0; q < n; q++) {
            const double *y = phi + (size_t)q * (size_t)n;
            double xy = 0.0;
            for (int i = 0; i < n; i++) xy += x[i] * c.m[i] * y[i];
            orth = fmax(orth, fabs(xy - (q == j ? 1.0 : 0.0)));
        }
        double r2 = 0.0, k2 = 0.0;
        for (int i = 0; i < n; i++) {
            double kx = 0.0;
            for (int q = 0; q < n; q++) kx += HS_AT(K, n, i, q) * x[q];
            const double r = kx - w2[j] * c.m[i] * x[i];
            r2 += r * r;
            k2 += kx * kx;
        }
        resid = fmax(resid, sqrt(r2 / k2));
    }
    print_message("chain of %d (%d real masses, %d tiny): omega^2 from %.3g to %.3g; against "
                  "Sturm bisection: the %d massive modes %.2g, every mode %.2g; M-orthonormality "
                  "%.2g, residual %.2g\n",
                  n, nreal, n - nreal, ref[0], ref[n - 1], nreal, low, all, orth, resid);
    assert_true(ref[n - 1] / ref[0] > 1e12); /* the masses do span many orders */
    assert_true(low <= 1e-10);
    assert_true(all <= 1e-6);
    assert_true(orth <= 1e-8);
    assert_true(resid <= 1e-8);
    free(K);
    free(M);
    free(phi);
}

static void test_graded_chain_arpack(void **state)
{
    (void)state;
    static chain c;
    chain_make(&c, LONG_CHAIN, 11u);
    const int n = c.n;
    int *ti = calloc(3 * (size_t)n, sizeof *ti), *tj = calloc(3 * (size_t)n, sizeof *tj);
    int *di = calloc((size_t)n, sizeof *di);
    double *tx = calloc(3 * (size_t)n, sizeof *tx);
    int nt = 0;
    for (int i = 0; i < n; i++) {
        ti[nt] = tj[nt] = di[i] = i;
        tx[nt++] = diag_k(&c, i);
        if (i + 1 < n) {
            ti[nt] = i, tj[nt] = i + 1, tx[nt++] = -c.s[i + 1];
            ti[nt] = i + 1, tj[nt] = i, tx[nt++] = -c.s[i + 1];
        }
    }
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_csc *K = NULL, *M = NULL;
    assert_int_equal(hs_csc_from_triplets(ctx, n, n, nt, ti, tj, tx, &K), 0);
    assert_int_equal(hs_csc_from_triplets(ctx, n, n, n, di, di, c.m, &M), 0);
    double w2[NEV], worst = 0.0;
    const int rc = hs_sparse_eig(ctx, K, M, NEV, w2, NULL);
    if (rc) fprintf(stderr, "%s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    for (int j = 0; j < NEV; j++) worst = fmax(worst, fabs(w2[j] / sturm_eig(&c, j) - 1.0));
    print_message("chain of %d, masses 1e-12 to 1e3: ARPACK's lowest %d omega^2 against Sturm "
                  "bisection %.2g\n",
                  n, NEV, worst);
    assert_true(worst <= 1e-9);
    hs_csc_destroy(&K);
    hs_csc_destroy(&M);
    hs_ctx_destroy(&ctx);
    free(ti);
    free(tj);
    free(di);
    free(tx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_dofs_closed_form),
        cmocka_unit_test(test_graded_chain_dense),
        cmocka_unit_test(test_graded_chain_arpack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
