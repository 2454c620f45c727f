/* Base: errors, options, counted allocation, dense linear algebra. */
#include "hs_test.h"

#include <math.h>
#include <string.h>

static void test_strerror(void **state)
{
    (void)state;
    assert_string_equal(hs_strerror(HS_EINPUT), "invalid input");
    assert_string_equal(hs_strerror(12345), "unknown error");
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    assert_int_equal(hs_fail(ctx, HS_EINPUT, "f.yaml:%d:%d: bad", 3, 7), HS_EINPUT);
    assert_string_equal(hs_ctx_message(ctx), "f.yaml:3:7: bad");
    assert_int_equal(hs_ctx_code(ctx), HS_EINPUT);
    hs_ctx_destroy(&ctx);
    assert_null(ctx);
}

static void test_options(void **state)
{
    (void)state;
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "alpha", -0.1);
    hs_options_set_str(o, "type", "hht");
    const double l[3] = {1, 2, 3};
    hs_options_set_list(o, "ratios", l, 3);
    hs_options_set_num(o, "alpha", -0.2); /* overwrite */
    assert_true(hs_options_num(o, "alpha", 0) == -0.2);
    assert_true(hs_options_num(o, "beta", 0.25) == 0.25);
    assert_string_equal(hs_options_str(o, "type", ""), "hht");
    const double *v = NULL;
    assert_int_equal(hs_options_list(o, "ratios", &v), 3);
    assert_true(v[2] == 3.0);
    assert_int_equal(hs_options_count(o), 3);
    hs_options_destroy(&o);
}

static void test_alloc_count(void **state)
{
    (void)state;
    uint64_t before = hs_alloc_count();
    void *p = hs_malloc(16);
    assert_true(hs_alloc_count() == before + 1);
    hs_free(p);
}

static void test_linsolve(void **state)
{
    (void)state;
    /* [4 1; 2 3] x = [1; 2] -> x = [0.1; 0.6] */
    const double A[4] = {4, 2, 1, 3};
    double b[2] = {1, 2};
    hs_linsolver *s = NULL;
    assert_int_equal(hs_linsolver_create(NULL, "dense", 2, &s), 0);
    assert_int_equal(hs_linsolver_factor(s, A), 0);
    uint64_t before = hs_alloc_count();
    assert_int_equal(hs_linsolver_solve(s, b), 0);
    assert_true(hs_alloc_count() == before);
    HS_ASSERT_NEAR(b[0], 0.1, 1e-14);
    HS_ASSERT_NEAR(b[1], 0.6, 1e-14);
    const double S[4] = {1, 2, 2, 4};
    assert_int_equal(hs_linsolver_factor(s, S), HS_ESINGULAR);
    hs_linsolver_destroy(&s);
}

static void test_sym_eig(void **state)
{
    (void)state;
    /* two-story shear building, m = 1, k = 1: omega^2 = (3 -+ sqrt 5) / 2 */
    const double K[4] = {2, -1, -1, 1}, M[4] = {1, 0, 0, 1};
    double w2[2], phi[4];
    assert_int_equal(hs_sym_eig(NULL, 2, K, M, w2, phi), 0);
    HS_ASSERT_NEAR(w2[0], (3 - sqrt(5)) / 2, 1e-13);
    HS_ASSERT_NEAR(w2[1], (3 + sqrt(5)) / 2, 1e-13);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strerror),    cmocka_unit_test(test_options),
        cmocka_unit_test(test_alloc_count), cmocka_unit_test(test_linsolve),
        cmocka_unit_test(test_sym_eig),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
