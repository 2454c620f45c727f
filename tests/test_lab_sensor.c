/* Virtual lab, sensors: the seeded noise (statistics within standard errors), determinism,
 * quantisation bounds; the generator against published reference values. */
#include "hs_test.h"

#include "hysim/lab.h"
#include "hysim/rng.h"

#include <math.h>
#include <stdlib.h>

/* splitmix64 seeded with 0: the reference outputs of Vigna's splitmix64.c. */
static void test_splitmix_reference(void **state)
{
    (void)state;
    uint64_t s = 0;
    assert_true(hs_splitmix64(&s) == UINT64_C(0xE220A8397B1DCDAF));
    assert_true(hs_splitmix64(&s) == UINT64_C(0x6E789E6AA1B965F4));
    assert_true(hs_splitmix64(&s) == UINT64_C(0x06C45D188009454F));
}

/* The portable log against the C library's, to a few ulp. */
static void test_portable_log(void **state)
{
    (void)state;
    double worst = 0;
    for (int i = 1; i <= 20000; i++) {
        const double x = i * 1.37e-4 + 1e-300 * i;
        const double e = fabs(hs_log_portable(x) - log(x)) / fmax(fabs(log(x)), 1e-300);
        if (e > worst) worst = e;
    }
    HS_ASSERT_NEAR(hs_log_portable(1.0), 0.0, 0.0);
    HS_ASSERT_NEAR(hs_log_portable(2.0), 0.69314718055994530942, 2e-16);
    assert_true(worst < 1e-15);
}

/* 100 000 readings of a constant: the noise has mean 0 and the requested RMS within three
 * standard errors (sigma / sqrt(N) for the mean, sigma / sqrt(2N) for the RMS), and 68.27 % of
 * it within one sigma (binomial standard error). */
static void test_noise_statistics(void **state)
{
    (void)state;
    enum { N = 100000 };
    const hs_sensor_params p = {0.3, 0, 0.0};
    hs_sensor *s = NULL;
    assert_int_equal(hs_sensor_create(NULL, &p, 12345, 1, &s), 0);
    double sum = 0, sum2 = 0;
    int inside = 0;
    for (int i = 0; i < N; i++) {
        const double e = hs_sensor_measure(s, 2.0) - 2.0;
        sum += e;
        sum2 += e * e;
        if (fabs(e) < p.rms) inside++;
    }
    const double mean = sum / N, rms = sqrt(sum2 / N);
    const double frac = (double)inside / N, pin = 0.682689492137086;
    print_message("noise: mean %.5f (3 SE %.5f), rms %.5f (requested 0.3, 3 SE %.5f), within 1 "
                  "sigma %.4f (0.6827)\n",
                  mean, 3 * p.rms / sqrt(N), rms, 3 * p.rms / sqrt(2.0 * N), frac);
    assert_true(fabs(mean) < 3 * p.rms / sqrt(N));
    assert_true(fabs(rms - p.rms) < 3 * p.rms / sqrt(2.0 * N));
    assert_true(fabs(frac - pin) < 3 * sqrt(pin * (1 - pin) / N));
    hs_sensor_destroy(&s);
    assert_null(s);
}

/* Same seed and stream -> same sequence; another stream or seed -> another sequence; the state
 * save/load resumes the sequence exactly. */
static void test_determinism(void **state)
{
    (void)state;
    const hs_sensor_params p = {1.0, 0, 0.0};
    hs_sensor *a = NULL, *b = NULL, *c = NULL, *d = NULL;
    assert_int_equal(hs_sensor_create(NULL, &p, 7, 3, &a), 0);
    assert_int_equal(hs_sensor_create(NULL, &p, 7, 3, &b), 0);
    assert_int_equal(hs_sensor_create(NULL, &p, 7, 4, &c), 0);
    assert_int_equal(hs_sensor_create(NULL, &p, 8, 3, &d), 0);
    int same_c = 0, same_d = 0;
    for (int i = 0; i < 1000; i++) {
        const double ya = hs_sensor_measure(a, 0.0);
        assert_true(ya == hs_sensor_measure(b, 0.0));
        same_c += ya == hs_sensor_measure(c, 0.0);
        same_d += ya == hs_sensor_measure(d, 0.0);
    }
    assert_int_equal(same_c, 0);
    assert_int_equal(same_d, 0);
    double st[HS_RNG_STATE_SIZE];
    assert_int_equal(hs_sensor_state_size(a), HS_RNG_STATE_SIZE);
    hs_sensor_state_save(a, st);
    double y[101];
    for (int i = 0; i < 101; i++) y[i] = hs_sensor_measure(a, 1.0);
    hs_sensor_state_load(a, st);
    for (int i = 0; i < 101; i++) assert_true(hs_sensor_measure(a, 1.0) == y[i]);
    hs_sensor_destroy(&a);
    hs_sensor_destroy(&b);
    hs_sensor_destroy(&c);
    hs_sensor_destroy(&d);
}

/* Quantisation: 2^bits levels -range + i q, q = 2 range / (2^bits - 1); error <= q / 2 inside
 * the range, clamped outside; measuring never allocates. */
static void test_quantisation(void **state)
{
    (void)state;
    const hs_sensor_params p = {0.0, 8, 10.0};
    hs_sensor *s = NULL;
    assert_int_equal(hs_sensor_create(NULL, &p, 1, 1, &s), 0);
    const double q = 20.0 / 255.0;
    HS_ASSERT_NEAR(hs_sensor_level(s), q, 1e-15);
    const uint64_t before = hs_alloc_count();
    for (int i = 0; i <= 100000; i++) {
        const double y = -10.0 + 20.0 * i / 100000.0;
        const double m = hs_sensor_measure(s, y);
        assert_true(fabs(m - y) <= q / 2 * (1 + 1e-12));
        const double lev = (m + 10.0) / q;
        HS_ASSERT_NEAR(lev, round(lev), 1e-9);
    }
    assert_true(hs_alloc_count() == before);
    assert_true(hs_sensor_measure(s, 25.0) == 10.0);
    assert_true(hs_sensor_measure(s, -1e9) == -10.0);
    /* 1 bit: the two levels are the ends */
    assert_true(hs_quantise(0.1, 1, 2.0) == 2.0);
    assert_true(hs_quantise(-0.1, 1, 2.0) == -2.0);
    hs_sensor_destroy(&s);

    /* noise and quantisation together: a 16-bit channel with noise stays on the levels */
    const hs_sensor_params pn = {0.01, 16, 5.0};
    assert_int_equal(hs_sensor_create(NULL, &pn, 99, 2, &s), 0);
    const double q16 = 10.0 / 65535.0;
    for (int i = 0; i < 1000; i++) {
        const double m = hs_sensor_measure(s, 1.234);
        HS_ASSERT_NEAR((m + 5.0) / q16, round((m + 5.0) / q16), 1e-6);
        assert_true(fabs(m - 1.234) < 0.01 * 6 + q16);
    }
    hs_sensor_destroy(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_splitmix_reference), cmocka_unit_test(test_portable_log),
        cmocka_unit_test(test_noise_statistics),   cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_quantisation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
