/* The sparse linear-solver kinds (CHOLMOD, KLU) against LAPACK's dense LU on the same random
 * systems (symmetric positive-definite and general), a 2-D Laplacian with a known solution, a
 * numeric refactor on the same pattern that allocates nothing, a pattern that grows, and singular,
 * indefinite and nonsymmetric matrices refused with a message that says what to do. */
#include "hs_test.h"
#include "hysim/rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N 120

/* A random sparse n x n matrix (about 4 entries a column off the diagonal, duplicates summed):
 * symmetric positive-definite (diagonally dominant) when spd, general (diagonal of the same size
 * as the rest: pivoting matters) otherwise. */
static hs_csc *random_matrix(hs_rng *r, int n, int spd)
{
    const int per = 4, nt = n * (2 * per + 1);
    int *ti = calloc((size_t)nt, sizeof *ti), *tj = calloc((size_t)nt, sizeof *tj);
    double *tx = calloc((size_t)nt, sizeof *tx), *rowsum = calloc((size_t)n, sizeof *rowsum);
    int k = 0;
    for (int j = 0; j < n; j++)
        for (int m = 0; m < per; m++) {
            const int i = (int)(hs_rng_uniform(r) * n);
            const double v = hs_rng_normal(r);
            ti[k] = i, tj[k] = j, tx[k++] = v;
            if (spd) { /* the mirror entry, and diagonal dominance */
                ti[k] = j, tj[k] = i, tx[k++] = v;
                rowsum[i] += fabs(v);
                rowsum[j] += fabs(v);
            }
        }
    for (int i = 0; i < n; i++)
        ti[k] = tj[k] = i, tx[k++] = spd ? rowsum[i] + 1.0 : hs_rng_normal(r);
    hs_csc *A = NULL;
    assert_int_equal(hs_csc_from_triplets(NULL, n, n, k, ti, tj, tx, &A), 0);
    free(ti), free(tj), free(tx), free(rowsum);
    return A;
}

/* ||A x - b||_inf / (||A||_inf ||x||_inf) */
static double relative_residual(const hs_csc *A, const double *x, const double *b)
{
    const int n = A->nrows;
    double *res = calloc((size_t)n, sizeof *res), *absrow = calloc((size_t)n, sizeof *absrow);
    hs_csc_matvec(A, x, res);
    for (int j = 0; j < n; j++)
        for (int p = A->colptr[j]; p < A->colptr[j + 1]; p++)
            absrow[A->rowind[p]] += fabs(A->val[p]);
    double rmax = 0.0, anorm = 0.0;
    for (int i = 0; i < n; i++) {
        rmax = fmax(rmax, fabs(res[i] - b[i]));
        anorm = fmax(anorm, absrow[i]);
    }
    free(res), free(absrow);
    return rmax / (anorm * hs_norm_inf(n, x));
}

/* Solves A x = b with `kind` from the csc matrix and compares with LAPACK's dense LU. */
static void against_lapack(const char *kind, const hs_csc *A, const double *b)
{
    const int n = A->nrows;
    double *D = calloc((size_t)n * (size_t)n, sizeof *D), xd[N], xs[N];
    hs_csc_to_dense(A, D);
    hs_linsolver *dense = NULL, *s = NULL;
    assert_int_equal(hs_linsolver_create(NULL, "dense", n, &dense), 0);
    assert_int_equal(hs_linsolver_factor(dense, D), 0);
    memcpy(xd, b, sizeof xd);
    assert_int_equal(hs_linsolver_solve(dense, xd), 0);
    assert_int_equal(hs_linsolver_create_sparse(NULL, kind, A, &s), 0);
    assert_string_equal(hs_linsolver_kind(s), kind);
    assert_int_equal(hs_linsolver_factor_csc(s, A), 0);
    memcpy(xs, b, sizeof xs);
    assert_int_equal(hs_linsolver_solve(s, xs), 0);
    const double rr = relative_residual(A, xs, b);
    print_message("%s n %d: relative residual %.2e (LAPACK %.2e)\n", kind, n, rr,
                  relative_residual(A, xd, b));
    assert_true(rr < 1e-14);
    double dmax = 0.0;
    for (int i = 0; i < n; i++) dmax = fmax(dmax, fabs(xs[i] - xd[i]));
    assert_true(dmax <= 1e-10 * hs_norm_inf(n, xd));
    /* the same from the dense storage (the pattern found from its nonzeros) */
    hs_linsolver *s2 = NULL;
    assert_int_equal(hs_linsolver_create(NULL, kind, n, &s2), 0);
    assert_int_equal(hs_linsolver_factor(s2, D), 0);
    memcpy(xs, b, sizeof xs);
    assert_int_equal(hs_linsolver_solve(s2, xs), 0);
    assert_true(relative_residual(A, xs, b) < 1e-14);
    hs_linsolver_destroy(&s2);
    hs_linsolver_destroy(&s);
    hs_linsolver_destroy(&dense);
    free(D);
}

static void test_random_against_lapack(void **state)
{
    (void)state;
    hs_rng r;
    hs_rng_seed(&r, 21, 0);
    double b[N];
    for (int trial = 0; trial < 3; trial++) {
        for (int i = 0; i < N; i++) b[i] = hs_rng_normal(&r);
        hs_csc *S = random_matrix(&r, N, 1), *G = random_matrix(&r, N, 0);
        against_lapack("cholmod", S, b);
        against_lapack("klu", S, b);
        against_lapack("klu", G, b);
        hs_csc_destroy(&S);
        hs_csc_destroy(&G);
    }
}

/* The 5-point Laplacian of an m x m grid (Dirichlet boundary): 4 on the diagonal, -1 to the
 * neighbours; b = A x* for x*_k = sin(k). */
static hs_csc *laplacian(int m)
{
    const int n = m * m, nt = 5 * n;
    int *ti = calloc((size_t)nt, sizeof *ti), *tj = calloc((size_t)nt, sizeof *tj);
    double *tx = calloc((size_t)nt, sizeof *tx);
    int k = 0;
    for (int gy = 0; gy < m; gy++)
        for (int gx = 0; gx < m; gx++) {
            const int c = gy * m + gx;
            ti[k] = tj[k] = c, tx[k++] = 4.0;
            const int nb[4][2] = {{gx - 1, gy}, {gx + 1, gy}, {gx, gy - 1}, {gx, gy + 1}};
            for (int q = 0; q < 4; q++)
                if (nb[q][0] >= 0 && nb[q][0] < m && nb[q][1] >= 0 && nb[q][1] < m)
                    ti[k] = nb[q][1] * m + nb[q][0], tj[k] = c, tx[k++] = -1.0;
        }
    hs_csc *A = NULL;
    assert_int_equal(hs_csc_from_triplets(NULL, n, n, k, ti, tj, tx, &A), 0);
    free(ti), free(tj), free(tx);
    return A;
}

static void laplacian_solve(const char *kind, int m)
{
    hs_csc *A = laplacian(m);
    const int n = m * m;
    assert_int_equal(hs_csc_bandwidth(A), m);
    double *xs = calloc((size_t)n, sizeof *xs), *b = calloc((size_t)n, sizeof *b);
    for (int k = 0; k < n; k++) xs[k] = sin((double)k);
    hs_csc_matvec(A, xs, b);
    hs_linsolver *s = NULL;
    assert_int_equal(hs_linsolver_create_sparse(NULL, kind, A, &s), 0);
    assert_int_equal(hs_linsolver_factor_csc(s, A), 0);
    assert_int_equal(hs_linsolver_solve(s, b), 0);
    double err = 0.0;
    for (int k = 0; k < n; k++) err = fmax(err, fabs(b[k] - xs[k]));
    print_message("%s Laplacian %d x %d (%d unknowns): max error %.2e\n", kind, m, m, n, err);
    assert_true(err < 1e-10);
    hs_linsolver_destroy(&s);
    hs_csc_destroy(&A);
    free(xs), free(b);
}

static void test_laplacian(void **state)
{
    (void)state;
    laplacian_solve("cholmod", 317); /* 100489 unknowns */
    laplacian_solve("klu", 100);     /* 10^4 */
}

/* New values on the same pattern: a numeric refactor that allocates nothing (but CHOLMOD's
 * update workspace), solves that allocate nothing, the new solution. */
static void test_refactor(void **state)
{
    (void)state;
    const char *kinds[] = {"cholmod", "klu"};
    hs_rng r;
    hs_rng_seed(&r, 22, 0);
    for (int k = 0; k < 2; k++) {
        hs_csc *A = random_matrix(&r, N, 1), *A2 = NULL;
        assert_int_equal(hs_csc_copy(NULL, A, &A2), 0);
        double b[N], x[N];
        for (int i = 0; i < N; i++) b[i] = hs_rng_normal(&r);
        hs_linsolver *s = NULL;
        assert_int_equal(hs_linsolver_create_sparse(NULL, kinds[k], A, &s), 0);
        assert_int_equal(hs_linsolver_factor_csc(s, A), 0);
        memcpy(x, b, sizeof x);
        assert_int_equal(hs_linsolver_solve(s, x), 0);
        for (int step = 1; step <= 5; step++) {
            /* A2 = A + step * shift on the diagonal, scaled off it: same pattern, new values */
            for (int j = 0; j < N; j++)
                for (int p = A->colptr[j]; p < A->colptr[j + 1]; p++)
                    A2->val[p] =
                        A->rowind[p] == j ? A->val[p] + 0.7 * step : A->val[p] * (1.0 + 0.1 * step);
            const uint64_t before = hs_alloc_count();
            assert_int_equal(hs_linsolver_factor_csc(s, A2), 0);
            const uint64_t factored = hs_alloc_count();
            memcpy(x, b, sizeof x);
            assert_int_equal(hs_linsolver_solve(s, x), 0);
            const uint64_t solved = hs_alloc_count();
            if (step == 1)
                print_message("%s refactor: %d allocations in the factor, %d in the solve\n",
                              kinds[k], (int)(factored - before), (int)(solved - factored));
            assert_true(solved == factored); /* solves never allocate */
            /* KLU refactors in place; CHOLMOD's supernodal factor takes one dense update
             * workspace (a header and its values) per call, which its API cannot lend */
            assert_true(factored - before <= (k == 0 ? 2u : 0u));
            assert_true(relative_residual(A2, x, b) < 1e-14);
            assert_true(relative_residual(A, x, b) > 1e-6); /* it is the new matrix's solution */
        }
        hs_linsolver_destroy(&s);
        hs_csc_destroy(&A);
        hs_csc_destroy(&A2);
    }
}

/* A dense-storage matrix with a nonzero outside the analysed pattern: analysed again, solved. */
static void test_pattern_grows(void **state)
{
    (void)state;
    const int n = 6;
    double D[36] = {0}, b[6], x[6];
    for (int i = 0; i < n; i++) HS_AT(D, n, i, i) = 4.0;
    for (int i = 0; i + 1 < n; i++) HS_AT(D, n, i + 1, i) = HS_AT(D, n, i, i + 1) = -1.0;
    const char *kinds[] = {"cholmod", "klu"};
    for (int k = 0; k < 2; k++) {
        hs_linsolver *s = NULL;
        assert_int_equal(hs_linsolver_create(NULL, kinds[k], n, &s), 0);
        assert_int_equal(hs_linsolver_factor(s, D), 0);
        double E[36];
        memcpy(E, D, sizeof E);
        HS_AT(E, n, 0, 5) = HS_AT(E, n, 5, 0) = 0.5; /* a new coupling of DOFs 0 and 5 */
        assert_int_equal(hs_linsolver_factor(s, E), 0);
        for (int i = 0; i < n; i++) x[i] = b[i] = 1.0 + i;
        assert_int_equal(hs_linsolver_solve(s, x), 0);
        double Ex[6];
        hs_matvec(n, E, x, Ex);
        for (int i = 0; i < n; i++) HS_ASSERT_NEAR(Ex[i], b[i], 1e-13);
        hs_linsolver_destroy(&s);
    }
}

/* Packed band storage (the integrators' layout) into each sparse kind: the solution of the
 * banded LAPACK solver on the same storage. */
static void test_packed_input(void **state)
{
    (void)state;
    const int m = 12, n = m * m;
    hs_csc *A = laplacian(m);
    const int kd = hs_csc_bandwidth(A);
    double *B = calloc(HS_BAND_LD(kd) * (size_t)n, sizeof *B), *xb = calloc((size_t)n, sizeof *xb),
           *xs = calloc((size_t)n, sizeof *xs);
    for (int j = 0; j < n; j++)
        for (int p = A->colptr[j]; p < A->colptr[j + 1]; p++)
            HS_BAND_AT(B, kd, A->rowind[p], j) = A->val[p];
    hs_linsolver *band = NULL;
    assert_int_equal(hs_linsolver_create_band(NULL, "banded", n, kd, &band), 0);
    assert_int_equal(hs_linsolver_factor_packed(band, kd, B), 0);
    for (int i = 0; i < n; i++) xb[i] = cos(0.3 * i);
    assert_int_equal(hs_linsolver_solve(band, xb), 0);
    const char *kinds[] = {"cholmod", "klu", "sparse"};
    for (int k = 0; k < 3; k++) {
        hs_linsolver *s = NULL;
        assert_int_equal(hs_linsolver_create_band(NULL, kinds[k], n, kd, &s), 0);
        assert_int_equal(hs_linsolver_factor_packed(s, kd, B), 0);
        for (int i = 0; i < n; i++) xs[i] = cos(0.3 * i);
        assert_int_equal(hs_linsolver_solve(s, xs), 0);
        for (int i = 0; i < n; i++) HS_ASSERT_NEAR(xs[i], xb[i], 1e-13 * (1.0 + fabs(xb[i])));
        hs_linsolver_destroy(&s);
    }
    hs_linsolver_destroy(&band);
    hs_csc_destroy(&A);
    free(B), free(xb), free(xs);
}

static void expect_refused(const char *kind, int n, const double *D, int code, const char *words)
{
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_linsolver *s = NULL;
    assert_int_equal(hs_linsolver_create(ctx, kind, n, &s), 0);
    assert_int_equal(hs_linsolver_factor(s, D), code);
    print_message("%s: %s\n", kind, hs_ctx_message(ctx));
    assert_non_null(strstr(hs_ctx_message(ctx), words));
    double b[4] = {1, 1, 1, 1};
    assert_int_equal(hs_linsolver_solve(s, b), HS_EINVAL); /* nothing to solve with */
    hs_linsolver_destroy(&s);
    hs_ctx_destroy(&ctx);
}

static void test_refused(void **state)
{
    (void)state;
    /* rows 0 and 2 equal: singular in exact arithmetic and in floating point */
    const double singular[16] = {2, 1, 2, 0, 1, 3, 1, 1, 0, 1, 0, 0, 0, 1, 0, 5};
    /* the stiffness of a free-free spring chain (a mechanism): singular, symmetric */
    const double floating[16] = {1, -1, 0, 0, -1, 2, -1, 0, 0, -1, 2, -1, 0, 0, -1, 1};
    /* symmetric indefinite */
    const double indefinite[16] = {1, 2, 0, 0, 2, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    const double nonsymmetric[16] = {4, 1, 0, 0, 0, 4, 0, 0, 0, 0, 4, 0, 0, 0, 0, 4};
    expect_refused("klu", 4, singular, HS_ESINGULAR, "singular");
    expect_refused("klu", 4, floating, HS_ESINGULAR, "check supports");
    expect_refused("cholmod", 4, floating, HS_ESINGULAR, "not positive definite");
    expect_refused("cholmod", 4, indefinite, HS_ESINGULAR, "use kind klu");
    expect_refused("cholmod", 4, nonsymmetric, HS_EINVAL, "not symmetric at (1, 0)");
    expect_refused("cholmod", 4, singular, HS_EINVAL, "not symmetric");
}

static void test_kind_choice(void **state)
{
    (void)state;
    hs_csc *L = laplacian(120);
    hs_linsolver *s = NULL;
    /* a chain (tridiagonal, the shear building) stays banded */
    const int n = 150;
    int ti[450], tj[450], k = 0;
    for (int i = 0; i < n; i++) {
        ti[k] = tj[k] = i, k++;
        if (i > 0) ti[k] = i, tj[k] = i - 1, k++, ti[k] = i - 1, tj[k] = i, k++;
    }
    hs_csc *chain = NULL;
    assert_int_equal(hs_csc_from_triplets(NULL, n, n, k, ti, tj, NULL, &chain), 0);
    assert_int_equal(hs_linsolver_create_sparse(NULL, NULL, chain, &s), 0);
    assert_string_equal(hs_linsolver_kind(s), "banded");
    hs_linsolver_destroy(&s);
    /* a wide band (120) of few entries goes sparse */
    assert_int_equal(hs_linsolver_create_sparse(NULL, NULL, L, &s), 0);
    assert_string_equal(hs_linsolver_kind(s), "sparse");
    hs_linsolver_destroy(&s);
    assert_false(hs_linsolver_sparse_pays(14400, 60, 70000));   /* a band of 60: LAPACK's */
    assert_true(hs_linsolver_sparse_pays(400, 150, 2000));      /* dense LU otherwise */
    assert_false(hs_linsolver_sparse_pays(400, 150, 400 * 60)); /* a dense-ish matrix */
    assert_false(hs_linsolver_sparse_pays(60, 50, 200));        /* small: dense LU is cheap */
    hs_csc_destroy(&chain);
    hs_csc_destroy(&L);
}

/* Kind sparse: CHOLMOD on a symmetric positive-definite matrix, KLU when the same pattern gets
 * indefinite or nonsymmetric values (a softening Newton matrix), CHOLMOD again after; each
 * solution checked. */
static void test_sparse_fallback(void **state)
{
    (void)state;
    hs_rng r;
    hs_rng_seed(&r, 23, 0);
    hs_csc *A = random_matrix(&r, N, 1), *B = NULL;
    assert_int_equal(hs_csc_copy(NULL, A, &B), 0);
    double b[N], x[N];
    for (int i = 0; i < N; i++) b[i] = hs_rng_normal(&r);
    hs_linsolver *s = NULL;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    assert_int_equal(hs_linsolver_create_sparse(ctx, "sparse", A, &s), 0);
    for (int round = 0; round < 4; round++) {
        memcpy(B->val, A->val, (size_t)hs_csc_nnz(A) * sizeof(double));
        if (round == 1) /* indefinite: one diagonal entry made negative */
            for (int p = B->colptr[7]; p < B->colptr[8]; p++)
                if (B->rowind[p] == 7) B->val[p] = -B->val[p];
        if (round == 2) B->val[B->colptr[3]] += 0.25; /* nonsymmetric */
        assert_int_equal(hs_linsolver_factor_csc(s, B), 0);
        memcpy(x, b, sizeof x);
        assert_int_equal(hs_linsolver_solve(s, x), 0);
        assert_true(relative_residual(B, x, b) < 1e-14);
    }
    assert_string_equal(hs_ctx_message(ctx), ""); /* the fallback is no error */
    hs_linsolver_destroy(&s);
    hs_ctx_destroy(&ctx);
    hs_csc_destroy(&A);
    hs_csc_destroy(&B);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_against_lapack),
        cmocka_unit_test(test_laplacian),
        cmocka_unit_test(test_refactor),
        cmocka_unit_test(test_pattern_grows),
        cmocka_unit_test(test_packed_input),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_kind_choice),
        cmocka_unit_test(test_sparse_fallback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
