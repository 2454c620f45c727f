/* The compressed-column sparse matrix against the dense kernels of linalg.h on the same matrices:
 * assembly from triplets with duplicates (the dense matrix accumulated from the same triplets in
 * the same order, so equal bit for bit), products, A = a B + b C on the same and on merged
 * patterns, the bandwidth, the product of a symmetric matrix by rows, bad triplets, and no
 * allocation outside creation. */
#include "hs_test.h"
#include "hysim/rng.h"

#include <math.h>
#include <string.h>

#define N  40
#define NT 400

typedef struct triplets {
    int i[NT], j[NT];
    double x[NT];
} triplets;

/* Random triplets with many duplicates, each within `band` of the diagonal (band < 0: anywhere),
 * and the dense matrix accumulated from them. */
static void random_triplets(hs_rng *r, int band, triplets *t, double *D)
{
    memset(D, 0, sizeof(double) * N * N);
    for (int k = 0; k < NT; k++) {
        t->j[k] = (int)(hs_rng_uniform(r) * N);
        int i = (int)(hs_rng_uniform(r) * N);
        if (band >= 0) {
            i = t->j[k] + (int)(hs_rng_uniform(r) * (2 * band + 1)) - band;
            if (i < 0) i = 0;
            if (i > N - 1) i = N - 1;
        }
        t->i[k] = i;
        t->x[k] = hs_rng_normal(r);
        HS_AT(D, N, t->i[k], t->j[k]) += t->x[k];
    }
}

static void test_triplets_and_products(void **state)
{
    (void)state;
    hs_rng r;
    hs_rng_seed(&r, 11, 0);
    triplets t;
    double D[N * N], D2[N * N];
    random_triplets(&r, -1, &t, D);
    hs_csc *A = NULL;
    assert_int_equal(hs_csc_from_triplets(NULL, N, N, NT, t.i, t.j, t.x, &A), 0);
    int distinct = 0; /* distinct (i, j) among the triplets: the entries of the pattern */
    for (int k = 0; k < NT; k++) {
        int seen = 0;
        for (int l = 0; l < k && !seen; l++) seen = t.i[l] == t.i[k] && t.j[l] == t.j[k];
        distinct += !seen;
    }
    assert_int_equal(hs_csc_nnz(A), distinct);
    assert_true(distinct < NT); /* the draw has duplicates to sum */
    for (int j = 0; j < N; j++)
        for (int p = A->colptr[j] + 1; p < A->colptr[j + 1]; p++)
            assert_true(A->rowind[p - 1] < A->rowind[p]);
    hs_csc_to_dense(A, D2);
    assert_memory_equal(D, D2, sizeof D);
    assert_int_equal(hs_csc_bandwidth(A), hs_mat_bandwidth(N, D));

    double x[N], y[N], yd[N];
    for (int i = 0; i < N; i++) x[i] = hs_rng_normal(&r);
    const uint64_t before = hs_alloc_count();
    hs_csc_matvec(A, x, y);
    hs_matvec(N, D, x, yd);
    for (int i = 0; i < N; i++) HS_ASSERT_NEAR(y[i], yd[i], 1e-13 * (1.0 + fabs(yd[i])));
    hs_csc_matvec_add(A, x, -0.5, y);
    hs_matvec_add(N, D, x, -0.5, yd);
    for (int i = 0; i < N; i++) HS_ASSERT_NEAR(y[i], yd[i], 1e-13 * (1.0 + fabs(yd[i])));
    assert_true(hs_alloc_count() == before);
    hs_csc_destroy(&A);
}

/* A + A^T of random triplets is symmetric: the product by rows equals the scattered one bit for
 * bit into y = 0 with alpha 1 (the same products in the same order), the dense one to round-off
 * otherwise; one entry changed, or one entry of the pattern without its mirror, is not symmetric.
 */
static void test_symmetric_product(void **state)
{
    (void)state;
    hs_rng r;
    hs_rng_seed(&r, 12, 0);
    triplets t;
    double D[N * N], S[N * N];
    random_triplets(&r, 6, &t, D);
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) HS_AT(S, N, i, j) = HS_AT(D, N, i, j) + HS_AT(D, N, j, i);
    hs_csc *A = NULL, *B = NULL;
    assert_int_equal(hs_csc_from_dense(NULL, N, S, &A), 0);
    assert_int_equal(hs_csc_from_dense(NULL, N, D, &B), 0);
    assert_true(hs_csc_is_symmetric(A));
    assert_false(hs_csc_is_symmetric(B)); /* random triplets: not symmetric */
    double x[N], y[N], ys[N], yd[N];
    for (int i = 0; i < N; i++) x[i] = hs_rng_normal(&r);
    const uint64_t before = hs_alloc_count();
    memset(y, 0, sizeof y);
    memset(ys, 0, sizeof ys);
    hs_csc_matvec_add(A, x, 1.0, y);
    hs_csc_symmetric_matvec_add(A, x, 1.0, ys);
    for (int i = 0; i < N; i++) HS_ASSERT_NEAR(ys[i], y[i], 1e-14 * (1.0 + fabs(y[i])));
    hs_csc_matvec_add(A, x, -0.7, y);
    hs_csc_symmetric_matvec_add(A, x, -0.7, ys);
    hs_matvec(N, S, x, yd);
    for (int i = 0; i < N; i++) {
        const double want = yd[i] - 0.7 * yd[i];
        HS_ASSERT_NEAR(ys[i], want, 1e-13 * (1.0 + fabs(yd[i])));
        HS_ASSERT_NEAR(ys[i], y[i], 1e-13 * (1.0 + fabs(yd[i])));
    }
    assert_true(hs_alloc_count() == before);
    /* the first off-diagonal entry changed in value, then dropped from the pattern */
    int p = -1;
    for (int q = 0; q < A->colptr[1] && p < 0; q++)
        if (A->rowind[q] != 0) p = q; /* column 0, a row below the diagonal */
    assert_true(p > 0);
    const int i0 = A->rowind[p];
    HS_AT(S, N, i0, 0) *= 1.0 + 1e-15;
    hs_csc_destroy(&A);
    assert_int_equal(hs_csc_from_dense(NULL, N, S, &A), 0);
    assert_false(hs_csc_is_symmetric(A));
    HS_AT(S, N, i0, 0) = 0.0;
    hs_csc_destroy(&A);
    assert_int_equal(hs_csc_from_dense(NULL, N, S, &A), 0);
    assert_false(hs_csc_is_symmetric(A));
    hs_csc_destroy(&A);
    hs_csc_destroy(&B);
}

static void test_axpby(void **state)
{
    (void)state;
    hs_rng r;
    hs_rng_seed(&r, 12, 0);
    triplets tb, tc;
    double B[N * N], C[N * N], E[N * N], G[N * N];
    random_triplets(&r, 3, &tb, B);  /* a band */
    random_triplets(&r, -1, &tc, C); /* anywhere: the patterns differ */
    hs_csc *Bs = NULL, *Cs = NULL, *U = NULL, *S = NULL;
    assert_int_equal(hs_csc_from_triplets(NULL, N, N, NT, tb.i, tb.j, tb.x, &Bs), 0);
    assert_int_equal(hs_csc_from_triplets(NULL, N, N, NT, tc.i, tc.j, tc.x, &Cs), 0);
    assert_int_equal(hs_csc_bandwidth(Bs), 3);
    assert_false(hs_csc_same_pattern(Bs, Cs));
    assert_int_equal(hs_csc_pattern_union(NULL, Bs, Cs, &U), 0);
    assert_true(hs_csc_pattern_contains(U, Bs) && hs_csc_pattern_contains(U, Cs));
    assert_false(hs_csc_pattern_contains(Bs, U));
    const uint64_t before = hs_alloc_count();
    assert_int_equal(hs_csc_axpby(NULL, 2.0, Bs, -3.0, Cs, U), 0); /* merged patterns */
    assert_true(hs_alloc_count() == before);
    hs_mat_axpby(N, 2.0, B, -3.0, C, E);
    hs_csc_to_dense(U, G);
    assert_memory_equal(E, G, sizeof E);
    /* the union has exactly the entries of B or C */
    int both = 0;
    for (int k = 0; k < N * N; k++) both += B[k] != 0.0 || C[k] != 0.0;
    assert_int_equal(hs_csc_nnz(U), both);
    /* the same pattern, in place: B = 0.5 B + 4 B */
    assert_int_equal(hs_csc_copy(NULL, Bs, &S), 0);
    assert_int_equal(hs_csc_axpby(NULL, 0.5, Bs, 4.0, S, Bs), 0);
    hs_csc_to_dense(Bs, G);
    hs_mat_axpby(N, 0.5, B, 4.0, B, E);
    assert_memory_equal(E, G, sizeof E);
    /* a target whose pattern misses entries of C is refused and left as it was */
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    assert_int_equal(hs_csc_axpby(ctx, 1.0, S, 1.0, Cs, S), HS_EINVAL);
    assert_non_null(strstr(hs_ctx_message(ctx), "hs_csc_pattern_union"));
    hs_csc_to_dense(S, G);
    assert_memory_equal(B, G, sizeof B);
    hs_ctx_destroy(&ctx);
    hs_csc_destroy(&Bs);
    hs_csc_destroy(&Cs);
    hs_csc_destroy(&U);
    hs_csc_destroy(&S);
}

static void test_bad_triplets(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    const int ti[] = {0, 5}, tj[] = {1, 1};
    const double tx[] = {1.0, 2.0};
    hs_csc *A = NULL;
    assert_int_equal(hs_csc_from_triplets(ctx, 5, 5, 2, ti, tj, tx, &A), HS_EINVAL);
    assert_null(A);
    assert_non_null(strstr(hs_ctx_message(ctx), "triplet 1 at (5, 1) is outside the 5 x 5"));
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_triplets_and_products),
        cmocka_unit_test(test_symmetric_product),
        cmocka_unit_test(test_axpby),
        cmocka_unit_test(test_bad_triplets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
