/* Full-precision numbers in response.csv (src/io/number_text.c): the text of each double must be
 * the same characters as glibc's printf("%.17g") (an independent implementation with exact
 * arithmetic) and read back (strtod) to the same bits. Checked on chosen edge cases (powers of
 * ten and their neighbours, ties, the range limits of the fast path) and on two million random
 * doubles: random bit patterns (every exponent) and values spread evenly in log10 |x| over
 * [-14, 19] (the fast path and both fallbacks). The same with fewer digits (hs_number_text_g,
 * the OpenSees recorders' -precision) against printf("%.*g"). */
#include "hs_test.h"

#include "base/number_text.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checked;

static void check(double x)
{
    char mine[HS_NUMBER_TEXT_MAX], ref[64];
    const size_t len = hs_number_text(x, mine);
    snprintf(ref, sizeof ref, "%.17g", x);
    if (strcmp(mine, ref) != 0 || len != strlen(ref)) {
        print_error("x = %a: hs_number_text gives '%s' (length %zu), printf '%s'\n", x, mine, len,
                    ref);
        fail();
    }
    if (!isnan(x)) {
        const double back = strtod(mine, NULL);
        if (memcmp(&back, &x, sizeof x) != 0) {
            print_error("x = %a: '%s' reads back as %a\n", x, mine, back);
            fail();
        }
    }
    checked++;
}

/* x with `digits` significant digits against printf("%.*g") (the recorders' -precision) */
static void check_g(double x, int digits)
{
    char mine[HS_NUMBER_TEXT_MAX], ref[64];
    const size_t len = hs_number_text_g(x, digits, mine);
    snprintf(ref, sizeof ref, "%.*g", digits, x);
    if (strcmp(mine, ref) != 0 || len != strlen(ref)) {
        print_error("x = %a, %d digits: hs_number_text_g gives '%s' (length %zu), printf '%s'\n", x,
                    digits, mine, len, ref);
        fail();
    }
    checked++;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void edge_cases(void **state)
{
    (void)state;
    const double specials[] = {0.0,
                               -0.0,
                               NAN,
                               INFINITY,
                               -INFINITY,
                               DBL_MIN,
                               DBL_MAX,
                               DBL_TRUE_MIN,
                               1.0,
                               -1.0,
                               0.1,
                               0.5,
                               1.5,
                               2.5,
                               1.0 / 3.0,
                               2.0 / 3.0,
                               123.456,
                               9007199254740991.0,
                               9007199254740992.0,
                               9007199254740993.0,
                               99999999999999999.0,
                               9.9999999999999999e16,
                               9.99999999999999999e-5,
                               1e-11,
                               0.99999999999999989,
                               0.99999999999999994,
                               5e-324,
                               1.7976931348623157e308,
                               0.30000000000000004,
                               4.35,
                               0.01};
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) {
        check(specials[i]);
        check(-specials[i]);
    }
    for (int p = -20; p <= 25; p++) { /* powers of ten, their neighbours, and halves */
        const double x = pow(10.0, p);
        check(x);
        check(nextafter(x, 0.0));
        check(nextafter(x, INFINITY));
        check(-x);
        check(5.0 * x);
        check(2.5 * x);
    }
    for (int e = -60; e <= 70; e++) check(ldexp(1.0, e));         /* powers of two */
    for (long k = 1; k < 100000; k += 7) check((double)k * 0.01); /* times on a grid */
}

static void random_bits(void **state)
{
    (void)state;
    for (int i = 0; i < 1000000; i++) {
        double x;
        const uint64_t u = next();
        memcpy(&x, &u, sizeof x);
        check(x);
    }
}

static void random_log_uniform(void **state)
{
    (void)state;
    for (int i = 0; i < 1000000; i++) {
        const double u = (double)(next() >> 11) * 0x1.0p-53;
        const double x = pow(10.0, -14.0 + 33.0 * u);
        check((next() & 1u) ? -x : x);
    }
    print_message("test_number_text: %d doubles, every one as printf(\"%%.17g\") and bit exact\n",
                  checked);
}

/* Every precision from 0 (printf's 1) to 17 on ties (half to even: 2.5 -> "2", 0.125 -> "0.12"),
 * carries into the next decade (9.5 -> "1e+01"), the edges of %f and %e styles, and random
 * doubles: log-uniform over [1e-14, 1e19] and random bit patterns. */
static void precisions(void **state)
{
    (void)state;
    const double ties[] = {0.5,   1.5,  2.5,       0.125,  0.375, 9.5,   99.5,  0.000125,
                           1e-5,  1e-4, 99999.5,   123456, 1e15,  1e16,  1e17,  4.35,
                           0.015, 1.0,  1234.5678, 0.1,    0.3,   65536, 1e-11, 2.5e-5};
    for (int d = 0; d <= 17; d++)
        for (size_t i = 0; i < sizeof ties / sizeof ties[0]; i++) {
            check_g(ties[i], d);
            check_g(-ties[i], d);
            check_g(nextafter(ties[i], 0.0), d);
            check_g(nextafter(ties[i], INFINITY), d);
        }
    for (int i = 0; i < 200000; i++) {
        const double u = (double)(next() >> 11) * 0x1.0p-53;
        const double x = pow(10.0, -14.0 + 33.0 * u);
        const int d = 1 + (int)(next() % 17u);
        check_g((next() & 1u) ? -x : x, d);
        double r;
        const uint64_t b = next();
        memcpy(&r, &b, sizeof r);
        check_g(r, d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(edge_cases),
        cmocka_unit_test(precisions),
        cmocka_unit_test(random_bits),
        cmocka_unit_test(random_log_uniform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
