/* The banded linear solver and the band-limited kernels, on systems with closed-form solutions:
 * the second-difference matrix K = tridiag(-1, 2, -1), K ones = e_1 + e_n, K^2 ones = 2 e_1 - e_2
 * - e_(n-1) + 2 e_n, K x = ones has x_i = i (n + 1 - i) / 2 (1-based) (symmetric positive-definite:
 * the Cholesky-type path), tridiag(1, 0, 1) of even order (symmetric indefinite: LU with pivoting
 * after the symmetric factor fails) and the lower bidiagonal 2 x_i - x_(i-1) = b_i with x = ones
 * (not symmetric: LU directly); K with one mirror pair 2 eps sqrt(k_ii k_jj) apart (a tangent
 * summed in another order: the symmetric factor, x to 1e-12) and 100 eps apart (LU), kd = 1 (packed
 * in place) and kd = 3. */
#include "hs_test.h"

#include "../src/base/linsolver_impl.h" /* s->spd: which factor was taken */

#include <float.h>
#include <math.h>
#include <string.h>

#define N 12

static void second_difference(int n, double *K)
{
    memset(K, 0, (size_t)n * (size_t)n * sizeof(double));
    for (int i = 0; i < n; i++) {
        HS_AT(K, n, i, i) = 2.0;
        if (i > 0) HS_AT(K, n, i, i - 1) = HS_AT(K, n, i - 1, i) = -1.0;
    }
}

/* Factors A with a solver of the given kind and half-bandwidth, solves for b, checks x. */
static void solve_and_check(const char *kind, int n, int kd, const double *A, const double *b,
                            const double *x, const char *expect_kind)
{
    hs_linsolver *s = NULL;
    assert_int_equal(hs_linsolver_create_band(NULL, kind, n, kd, &s), 0);
    assert_string_equal(hs_linsolver_kind(s), expect_kind);
    assert_int_equal(hs_linsolver_factor(s, A), 0);
    double y[N];
    memcpy(y, b, (size_t)n * sizeof(double));
    const uint64_t before = hs_alloc_count();
    assert_int_equal(hs_linsolver_solve(s, y), 0);
    assert_true(hs_alloc_count() == before); /* solves never allocate */
    for (int i = 0; i < n; i++) assert_true(fabs(y[i] - x[i]) <= 1e-12 * fmax(1.0, fabs(x[i])));
    hs_linsolver_destroy(&s);
}

static void test_tridiagonal(void **state)
{
    (void)state;
    double K[N * N], b[N], x[N];
    second_difference(N, K);
    for (int i = 0; i < N; i++) {
        b[i] = 1.0;
        x[i] = 0.5 * (i + 1) * (N - i); /* i (n + 1 - i) / 2, 1-based */
    }
    solve_and_check("banded", N, 1, K, b, x, "banded"); /* dgttrf */
    solve_and_check("banded", N, 3, K, b, x, "banded"); /* dgbtrf, a wider band than needed */
    solve_and_check(NULL, N, 1, K, b, x, "banded");
    solve_and_check("dense", N, 1, K, b, x, "dense");
}

/* K x = ones with K's (5, 4) moved by `apart` eps sqrt(k_44 k_55): spd the factor expected. */
static void near_symmetric(int kd, double apart, int spd)
{
    double K[N * N], y[N];
    second_difference(N, K);
    HS_AT(K, N, 5, 4) += apart * DBL_EPSILON * 2.0;
    double B[(2 * 3 + 1) * N];
    hs_band_pack(N, kd, K, B);
    hs_linsolver *s = NULL;
    assert_int_equal(hs_linsolver_create_band(NULL, "banded", N, kd, &s), 0);
    for (int packed = 0; packed <= 1; packed++) { /* dense storage, then packed (in place) */
        assert_int_equal(packed ? hs_linsolver_factor_packed(s, kd, B) : hs_linsolver_factor(s, K),
                         0);
        assert_int_equal(s->spd, spd);
        for (int i = 0; i < N; i++) y[i] = 1.0;
        assert_int_equal(hs_linsolver_solve(s, y), 0);
        for (int i = 0; i < N; i++) HS_ASSERT_NEAR(y[i], 0.5 * (i + 1) * (N - i), 1e-12 * N * N);
    }
    hs_linsolver_destroy(&s);
}

static void test_near_symmetric(void **state)
{
    (void)state;
    for (int kd = 1; kd <= 3; kd += 2) {
        near_symmetric(kd, 0.0, 1);
        near_symmetric(kd, 2.0, 1);
        near_symmetric(kd, 100.0, 0);
    }
}

static void test_pentadiagonal(void **state)
{
    (void)state;
    double K[N * N], K2[N * N], b[N] = {0}, x[N];
    second_difference(N, K);
    hs_matmul(N, K, K, K2);
    assert_int_equal(hs_mat_bandwidth(N, K), 1);
    assert_int_equal(hs_mat_bandwidth(N, K2), 2);
    b[0] = b[N - 1] = 2.0;
    b[1] = b[N - 2] = -1.0;
    for (int i = 0; i < N; i++) x[i] = 1.0;
    solve_and_check("banded", N, 2, K2, b, x, "banded");
    solve_and_check(NULL, N, 2, K2, b, x, "banded"); /* 4 kd < n */
}

static void test_pivoting(void **state)
{
    (void)state;
    /* tridiag(1, 0, 1), n = 4: x = (1, 2, 3, 4) gives b = (2, 4, 6, 3) */
    double A[16] = {0}, b[4] = {2, 4, 6, 3}, x[4] = {1, 2, 3, 4};
    for (int i = 0; i + 1 < 4; i++) HS_AT(A, 4, i, i + 1) = HS_AT(A, 4, i + 1, i) = 1.0;
    solve_and_check("banded", 4, 1, A, b, x, "banded");
    solve_and_check("banded", 4, 2, A, b, x, "banded");
}

static void test_nonsymmetric(void **state)
{
    (void)state;
    double A[N * N] = {0}, b[N], x[N];
    for (int i = 0; i < N; i++) {
        HS_AT(A, N, i, i) = 2.0;
        if (i > 0) HS_AT(A, N, i, i - 1) = -1.0;
        b[i] = i == 0 ? 2.0 : 1.0;
        x[i] = 1.0;
    }
    solve_and_check("banded", N, 1, A, b, x, "banded");
    solve_and_check("banded", N, 2, A, b, x, "banded");
}

/* A general band of N = 12, kd = 4 (entries sin(1 + 3 i + 7 j), row exchanges happen), factored
 * after another matrix by the same banded solver: the leftovers of the first factor in the
 * band storage (the fill-in rows dgbtrf zeroes itself, the corners it never reads) change no
 * bit of the second, and the band's LU with partial pivoting solves as the dense one. */
static void test_refactor_general_band(void **state)
{
    (void)state;
    const int kd = 4;
    double A1[N * N] = {0}, A2[N * N] = {0}, b[N], x[N], y[N], z[N];
    for (int j = 0; j < N; j++)
        for (int i = j - kd > 0 ? j - kd : 0; i <= j + kd && i < N; i++) {
            HS_AT(A1, N, i, j) = cos(2.0 + 5.0 * i + 3.0 * j);
            HS_AT(A2, N, i, j) = sin(1.0 + 3.0 * i + 7.0 * j);
        }
    for (int i = 0; i < N; i++) b[i] = 1.0 + i % 3;
    hs_linsolver *reused = NULL, *fresh = NULL, *dense = NULL;
    assert_int_equal(hs_linsolver_create_band(NULL, "banded", N, kd, &reused), 0);
    assert_string_equal(hs_linsolver_kind(reused), "banded");
    assert_int_equal(hs_linsolver_create_band(NULL, "banded", N, kd, &fresh), 0);
    assert_int_equal(hs_linsolver_create(NULL, "dense", N, &dense), 0);
    assert_int_equal(hs_linsolver_factor(reused, A1), 0);
    assert_int_equal(hs_linsolver_factor(reused, A2), 0);
    assert_int_equal(hs_linsolver_factor(fresh, A2), 0);
    assert_int_equal(hs_linsolver_factor(dense, A2), 0);
    memcpy(x, b, sizeof b);
    memcpy(y, b, sizeof b);
    memcpy(z, b, sizeof b);
    assert_int_equal(hs_linsolver_solve(reused, x), 0);
    assert_int_equal(hs_linsolver_solve(fresh, y), 0);
    assert_int_equal(hs_linsolver_solve(dense, z), 0);
    assert_memory_equal(x, y, sizeof x);
    double r[N];
    hs_matvec(N, A2, x, r);
    for (int i = 0; i < N; i++) {
        assert_true(fabs(r[i] - b[i]) <= 1e-12 * 3.0);
        assert_true(fabs(x[i] - z[i]) <= 1e-12 * fmax(1.0, fabs(z[i])));
    }
    hs_linsolver_destroy(&reused);
    hs_linsolver_destroy(&fresh);
    hs_linsolver_destroy(&dense);
}

static void test_singular_and_choice(void **state)
{
    (void)state;
    /* tridiag(1, 0, 1) of odd order is singular */
    double A[9] = {0};
    for (int i = 0; i + 1 < 3; i++) HS_AT(A, 3, i, i + 1) = HS_AT(A, 3, i + 1, i) = 1.0;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    for (int kd = 1; kd <= 2; kd++) {
        hs_linsolver *s = NULL;
        assert_int_equal(hs_linsolver_create_band(ctx, "banded", 3, kd, &s), 0);
        assert_int_equal(hs_linsolver_factor(s, A), HS_ESINGULAR);
        assert_int_equal(hs_linsolver_solve(s, A), HS_EINVAL); /* not factored */
        hs_linsolver_destroy(&s);
    }
    /* the automatic choice: narrow bands are banded, wide ones dense */
    hs_linsolver *s = NULL;
    assert_int_equal(hs_linsolver_create_band(ctx, NULL, 100, 10, &s), 0);
    assert_string_equal(hs_linsolver_kind(s), "banded");
    hs_linsolver_destroy(&s);
    assert_int_equal(hs_linsolver_create_band(ctx, NULL, 100, 40, &s), 0);
    assert_string_equal(hs_linsolver_kind(s), "dense");
    hs_linsolver_destroy(&s);
    /* the measured crossover (linsolver.c, ls_band_pays): 4 kd < n from n = 12, 3 kd <= n past
     * n = 160 (the dense Cholesky blocked), else kd 1 */
    static const struct {
        int n, kd;
        const char *kind;
    } choice[] = {{36, 8, "banded"}, {36, 9, "dense"},    {36, 14, "dense"},  {12, 2, "banded"},
                  {12, 3, "dense"},  {10, 2, "dense"},    {10, 1, "banded"},  {4, 1, "banded"},
                  {4, 2, "dense"},   {160, 39, "banded"}, {160, 40, "dense"}, {200, 66, "banded"},
                  {200, 67, "dense"}};
    for (size_t k = 0; k < sizeof choice / sizeof choice[0]; k++) {
        assert_int_equal(hs_linsolver_create_band(ctx, NULL, choice[k].n, choice[k].kd, &s), 0);
        assert_string_equal(hs_linsolver_kind(s), choice[k].kind);
        hs_linsolver_destroy(&s);
    }
    assert_int_equal(hs_linsolver_create_band(ctx, "pardiso", 10, 1, &s), HS_EUNSUPPORTED);
    assert_non_null(strstr(hs_ctx_message(ctx), "dense, banded, cholmod, klu, sparse"));
    hs_ctx_destroy(&ctx);
}

static void test_band_kernels(void **state)
{
    (void)state;
    double K[N * N], ones[N], y[N];
    second_difference(N, K);
    for (int i = 0; i < N; i++) ones[i] = 1.0;
    hs_band_matvec(N, 1, K, ones, y); /* K ones = e_1 + e_n */
    for (int i = 0; i < N; i++) assert_true(y[i] == (i == 0 || i == N - 1 ? 1.0 : 0.0));
    hs_band_matvec_add(N, 1, K, ones, -2.0, y); /* y - 2 K ones */
    for (int i = 0; i < N; i++) assert_true(y[i] == (i == 0 || i == N - 1 ? -1.0 : 0.0));
    /* packed storage gives the same products */
    double B[3 * N];
    hs_band_pack(N, 1, K, B);
    assert_true(HS_BAND_AT(B, 1, 0, 0) == 2.0 && HS_BAND_AT(B, 1, 1, 0) == -1.0);
    assert_true(B[0] == 0.0 && B[3 * N - 1] == 0.0); /* the padding corners */
    hs_packed_matvec(N, 1, B, ones, y);
    for (int i = 0; i < N; i++) assert_true(y[i] == (i == 0 || i == N - 1 ? 1.0 : 0.0));
    double K2[N * N], B2[5 * N], z[N];
    hs_matmul(N, K, K, K2);
    hs_band_pack(N, 2, K2, B2);
    hs_packed_matvec(N, 2, B2, ones, z); /* K^2 ones = 2 e_1 - e_2 - e_(n-1) + 2 e_n */
    for (int i = 0; i < N; i++)
        assert_true(z[i] == (i == 0 || i == N - 1 ? 2.0 : i == 1 || i == N - 2 ? -1.0 : 0.0));
    /* a packed factor solves as the dense one */
    hs_linsolver *s = NULL;
    assert_int_equal(hs_linsolver_create_band(NULL, NULL, N, 2, &s), 0);
    assert_int_equal(hs_linsolver_factor_packed(s, 2, B2), 0);
    z[0] = z[N - 1] = 2.0;
    for (int i = 1; i < N - 1; i++) z[i] = i == 1 || i == N - 2 ? -1.0 : 0.0;
    assert_int_equal(hs_linsolver_solve(s, z), 0);
    for (int i = 0; i < N; i++) assert_true(fabs(z[i] - 1.0) <= 1e-12);
    hs_linsolver_destroy(&s);
    assert_int_equal(hs_linsolver_create(NULL, "dense", N, &s), 0);
    assert_int_equal(hs_linsolver_factor_packed(s, 1, B), 0);
    for (int i = 0; i < N; i++) z[i] = 1.0;
    assert_int_equal(hs_linsolver_solve(s, z), 0); /* K x = ones */
    for (int i = 0; i < N; i++) assert_true(fabs(z[i] - 0.5 * (i + 1) * (N - i)) <= 1e-12 * N * N);
    hs_linsolver_destroy(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tridiagonal),         cmocka_unit_test(test_pentadiagonal),
        cmocka_unit_test(test_near_symmetric),      cmocka_unit_test(test_pivoting),
        cmocka_unit_test(test_singular_and_choice), cmocka_unit_test(test_band_kernels),
        cmocka_unit_test(test_nonsymmetric),        cmocka_unit_test(test_refactor_general_band),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
