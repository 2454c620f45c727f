/* Libraries loaded on first use (src/base/lazy_lib.c), on the C library's libm.so.6:
 * - its cos and ldexp through the table give the same bits as the linked ones and the values of
 *   theory (cos 0.5, 3 2^-4), also when two threads load it at once;
 * - the environment variable names another file than the soname (a missing soname is then never
 *   opened);
 * - a file that cannot be opened and a missing symbol fail with the file, the symbol, the label
 *   and the fix in the message (HS_EIO), and a failed library is not tried again. */
#include "hs_test.h"

#include "base/lazy_lib.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct libm_api {
    double (*cos)(double);
    double (*ldexp)(double, int);
    double (*absent)(double);
} libm_api;

static libm_api m_ok, m_env, m_missing, m_nosym;
static const char *const ok_names[] = {"cos", "ldexp"};
static void *const ok_slots[] = {(void *)&m_ok.cos, (void *)&m_ok.ldexp};
static hs_lazy_lib ok_lib = HS_LAZY_LIB("libm", "HS_TEST_LAZY_OK", "libm.so.6", ok_names, ok_slots);
static void *const env_slots[] = {(void *)&m_env.cos, (void *)&m_env.ldexp};
static hs_lazy_lib env_lib =
    HS_LAZY_LIB("libm", "HS_TEST_LAZY_ENV", "libhs-not-installed.so.9", ok_names, env_slots);
static void *const missing_slots[] = {(void *)&m_missing.cos, (void *)&m_missing.ldexp};
static hs_lazy_lib missing_lib =
    HS_LAZY_LIB("a missing library", "HS_TEST_LAZY_MISSING", "libm.so.6", ok_names, missing_slots);
static const char *const nosym_names[] = {"cos", "hs_no_such_symbol_42"};
static void *const nosym_slots[] = {(void *)&m_nosym.cos, (void *)&m_nosym.absent};
static hs_lazy_lib nosym_lib =
    HS_LAZY_LIB("libm", "HS_TEST_LAZY_NOSYM", "libm.so.6", nosym_names, nosym_slots);

static void *load_ok(void *arg)
{
    (void)arg;
    return hs_lazy_lib_load(&ok_lib) ? &ok_lib : NULL;
}

static void the_table_calls_the_library(void **state)
{
    (void)state;
    pthread_t a, b;
    void *ra = NULL, *rb = NULL;
    assert_int_equal(pthread_create(&a, NULL, load_ok, NULL), 0);
    assert_int_equal(pthread_create(&b, NULL, load_ok, NULL), 0);
    pthread_join(a, &ra);
    pthread_join(b, &rb);
    assert_ptr_equal(ra, &ok_lib);
    assert_ptr_equal(rb, &ok_lib);
    assert_int_equal(hs_lazy_lib_require(NULL, &ok_lib, "test", "nothing"), 0);
    volatile double x = 0.5; /* not folded at compile time */
    const double c = m_ok.cos(x), linked = cos(x);
    assert_memory_equal(&c, &linked, sizeof c);
    HS_ASSERT_NEAR(c, 0.87758256189037276, 2e-16);
    assert_true(m_ok.ldexp(3.0, -4) == 0.1875);
}

static void the_environment_names_the_file(void **state)
{
    (void)state;
    setenv("HS_TEST_LAZY_ENV", "libm.so.6", 1);
    assert_int_equal(hs_lazy_lib_load(&env_lib), 1);
    unsetenv("HS_TEST_LAZY_ENV");
    assert_true(m_env.ldexp(1.0, 10) == 1024.0);
}

static void a_missing_file_says_what_to_do(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    setenv("HS_TEST_LAZY_MISSING", "/nonexistent/libhs-missing.so.1", 1);
    assert_int_equal(hs_lazy_lib_require(ctx, &missing_lib, "results.xyz", "install it"), HS_EIO);
    const char *msg = hs_ctx_message(ctx);
    assert_non_null(strstr(msg, "results.xyz: a missing library is needed and cannot load "
                                "/nonexistent/libhs-missing.so.1 ("));
    assert_non_null(strstr(msg, "): install it"));
    /* not tried again, even with the file's name gone */
    unsetenv("HS_TEST_LAZY_MISSING");
    assert_int_equal(hs_lazy_lib_load(&missing_lib), 0);
    assert_null(m_missing.cos);
    hs_ctx_destroy(&ctx);
}

static void a_missing_symbol_is_named(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    assert_int_equal(hs_lazy_lib_require(ctx, &nosym_lib, "test", "use another libm"), HS_EIO);
    assert_string_equal(hs_ctx_message(ctx), "test: libm is needed and libm.so.6 has no symbol "
                                             "hs_no_such_symbol_42: use another libm");
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_table_calls_the_library),
        cmocka_unit_test(the_environment_names_the_file),
        cmocka_unit_test(a_missing_file_says_what_to_do),
        cmocka_unit_test(a_missing_symbol_is_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
