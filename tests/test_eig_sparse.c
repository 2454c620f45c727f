/* The sparse eigen-analysis (hs_sparse_eig: ARPACK shift-invert Lanczos on a sparse factor of K)
 * against a closed form and against LAPACK:
 * - a chain of 2000 equal masses m and springs k, fixed at both ends: omega_j^2 =
 *   (4 k / m) sin^2(j pi / (2 (N + 1))); the lowest six to 1e-9 (relative);
 * - a mid-size frame (bench/frame_gen.h, 10 bays x 30 stories, n = 990, rotational mass at the
 *   joints): the lowest ten periods equal LAPACK's dense dsygv (hs_sym_eig) to 1e-9 and the
 *   shapes are M-orthonormal and LAPACK's up to sign (|phi_a' M phi_l| = 1 to 1e-8). */
#include "hs_test.h"

#include "../bench/frame_gen.h"

#include <math.h>
#include <stdlib.h>

static const double PI = 3.14159265358979323846;

static void test_chain_closed_form(void **state)
{
    (void)state;
    enum { N = 2000, NEV = 6 };
    const double m = 2.0, k = 500.0;
    int *ti = calloc(3 * N, sizeof *ti), *tj = calloc(3 * N, sizeof *tj);
    double *tx = calloc(3 * N, sizeof *tx), *mv = calloc(N, sizeof *mv);
    int *di = calloc(N, sizeof *di);
    int nt = 0;
    for (int i = 0; i < N; i++) {
        ti[nt] = tj[nt] = i;
        tx[nt++] = 2.0 * k;
        if (i + 1 < N) {
            ti[nt] = i;
            tj[nt] = i + 1;
            tx[nt++] = -k;
            ti[nt] = i + 1;
            tj[nt] = i;
            tx[nt++] = -k;
        }
        di[i] = i;
        mv[i] = m;
    }
    hs_csc *K = NULL, *M = NULL;
    assert_int_equal(hs_csc_from_triplets(NULL, N, N, nt, ti, tj, tx, &K), 0);
    assert_int_equal(hs_csc_from_triplets(NULL, N, N, N, di, di, mv, &M), 0);
    double w2[NEV];
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    const int rc = hs_sparse_eig(ctx, K, M, NEV, w2, NULL);
    if (rc) fprintf(stderr, "%s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    double worst = 0.0;
    for (int j = 1; j <= NEV; j++) {
        const double s = sin(j * PI / (2.0 * (N + 1))), exact = 4.0 * k / m * s * s;
        worst = fmax(worst, fabs(w2[j - 1] - exact) / exact);
    }
    print_message("chain of %d: lowest %d omega^2 against the closed form: %.2g (relative)\n", N,
                  NEV, worst);
    assert_true(worst <= 1e-9);
    hs_csc_destroy(&K);
    hs_csc_destroy(&M);
    hs_ctx_destroy(&ctx);
    free(ti);
    free(tj);
    free(tx);
    free(mv);
    free(di);
}

static void test_frame_against_lapack(void **state)
{
    (void)state;
    enum { NEV = 10 };
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_fe *fe = NULL;
    assert_int_equal(hs_frame_build(ctx, 10, 30, 0, 0.0, 0.0, &fe), 0);
    hs_fe_matrices mats = {0};
    hs_dynamics dyn;
    assert_int_equal(hs_fe_sparse_dynamics(fe, 0.0, 0.0, &mats, &dyn), 0);
    const int n = dyn.n;
    const size_t nn = (size_t)n * (size_t)n;
    double *Kd = calloc(nn, sizeof *Kd), *Md = calloc(nn, sizeof *Md);
    double *wl = calloc((size_t)n, sizeof *wl), *pl = calloc(nn, sizeof *pl);
    double *pa = calloc((size_t)n * NEV, sizeof *pa), wa[NEV];
    hs_csc_to_dense(mats.K0, Kd);
    hs_csc_to_dense(mats.M, Md);
    assert_int_equal(hs_sym_eig(ctx, n, Kd, Md, wl, pl), 0);
    const int rc = hs_sparse_eig(ctx, mats.K0, mats.M, NEV, wa, pa);
    if (rc) fprintf(stderr, "%s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    double dper = 0.0, dorth = 0.0, dshape = 0.0;
    for (int k = 0; k < NEV; k++) {
        const double ta = 2.0 * PI / sqrt(wa[k]), tl = 2.0 * PI / sqrt(wl[k]);
        dper = fmax(dper, fabs(ta - tl) / tl);
        const double *a = pa + (size_t)k * (size_t)n;
        for (int q = 0; q < NEV; q++) {
            const double *b = pa + (size_t)q * (size_t)n, *l = pl + (size_t)q * (size_t)n;
            double ab = 0.0, al = 0.0;
            for (int i = 0; i < n; i++) {
                ab += a[i] * HS_AT(Md, n, i, i) * b[i];
                al += a[i] * HS_AT(Md, n, i, i) * l[i];
            }
            dorth = fmax(dorth, fabs(ab - (q == k ? 1.0 : 0.0)));
            if (q == k) dshape = fmax(dshape, fabs(fabs(al) - 1.0));
        }
    }
    print_message("frame n = %d: T1 = %.5f s, T10 = %.5f s; ARPACK against LAPACK: periods %.2g, "
                  "M-orthonormality %.2g, shapes %.2g\n",
                  n, 2.0 * PI / sqrt(wa[0]), 2.0 * PI / sqrt(wa[NEV - 1]), dper, dorth, dshape);
    assert_true(dper <= 1e-9);
    assert_true(dorth <= 1e-9);
    assert_true(dshape <= 1e-8);
    free(Kd);
    free(Md);
    free(wl);
    free(pl);
    free(pa);
    hs_fe_matrices_free(&mats);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain_closed_form),
        cmocka_unit_test(test_frame_against_lapack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
