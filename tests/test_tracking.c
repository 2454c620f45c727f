/* Tracking metrics (Chen & Ricles 2010, eq. 3, 4a, 4b) against closed forms: the tracking indicator
 * of a sine and its delayed copy (the area of the inscribed polygon of the ellipse, and the ellipse
 * itself), polygons of known area and orientation, MTE and RMS of known error signals. */
#include "hs_test.h"

#include "hysim/tracking.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

static hs_tracking *make(size_t capacity, size_t stride)
{
    hs_tracking *t = NULL;
    assert_int_equal(hs_tracking_create(NULL, capacity, stride, &t), 0);
    return t;
}

/* c_i = A sin(th i), m_i = B sin(th i - phi). Eq. 3 telescopes to
 * dTI_i = (A_i+1 - A_i - TA_i+1 + TA_i) / 2 = (c_i m_i+1 - c_i+1 m_i) / 2 (shoelace term), and
 * c_i m_i+1 - c_i+1 m_i = A B [sin(th i) sin(th i + th - phi) - sin(th i + th) sin(th i - phi)]
 *                       = A B sin(th) sin(phi)         (product-to-sum, the cos(2 th i ...) cancel)
 * so TI after n increments is n A B sin(th) sin(phi) / 2 exactly: over one period (N samples) the
 * area of the N-gon inscribed in the ellipse, N A B sin(2 pi / N) sin(phi) / 2, which tends to the
 * ellipse's area pi A B sin(phi) (the loop of a sine and its delayed copy). Positive when the
 * measured lags (phi > 0), as Chen & Ricles 2010 states. */
static double sine_ti(int N, int D, double A, double B, int n, double *rate_expected)
{
    hs_tracking *t = make(0, 1);
    const double th = 2.0 * PI / N, phi = th * D;
    for (int i = 0; i <= n; i++) hs_tracking_add(t, A * sin(th * i), B * sin(th * i - phi));
    *rate_expected = 0.5 * A * B * sin(th) * sin(phi);
    const double ti = hs_tracking_ti(t);
    assert_true(hs_tracking_count(t) == (size_t)n + 1);
    hs_tracking_destroy(&t);
    return ti;
}

static void test_ti_delayed_sine(void **state)
{
    (void)state;
    double rate;
    /* lag of 5 samples, 200 samples per period, 3 periods */
    double ti = sine_ti(200, 5, 2.0, 2.0, 600, &rate);
    assert_true(ti > 0.0);
    HS_ASSERT_NEAR(ti, 600 * rate, 1e-12 * fabs(600 * rate));
    /* a lead gives the opposite sign */
    ti = sine_ti(200, -5, 2.0, 2.0, 600, &rate);
    assert_true(ti < 0.0);
    HS_ASSERT_NEAR(ti, 600 * rate, 1e-12 * fabs(600 * rate));
    /* any step count, unequal amplitudes */
    ti = sine_ti(37, 3, 1.5, 0.7, 101, &rate);
    HS_ASSERT_NEAR(ti, 101 * rate, 1e-12 * fabs(101 * rate));
    /* one period of a finely sampled loop: the ellipse's area pi A B sin(phi), within the N-gon's
     * relative deficit 1 - sin(th)/th <= th^2 / 6 (3.9e-7 at N = 4096) */
    const int N = 4096, D = 100;
    const double A = 10.0, B = 9.0, phi = 2.0 * PI * D / N;
    ti = sine_ti(N, D, A, B, N, &rate);
    const double ellipse = PI * A * B * sin(phi);
    const double th = 2.0 * PI / N;
    printf("TI over one period: %.9g, ellipse area pi A B sin(phi) = %.9g (rel. diff %.2e)\n", ti,
           ellipse, (ellipse - ti) / ellipse);
    assert_true(ellipse - ti >= 0.0);
    assert_true(ellipse - ti <= ellipse * th * th / 6.0 * 1.0000001);
    HS_ASSERT_NEAR(ti, 0.5 * N * A * B * sin(th) * sin(phi), 1e-11 * ellipse);
}

/* A unit square in the (command, measured) plane: counter-clockwise encloses +1 (command moves
 * first, measured follows: a lag), clockwise -1. The peak keeps the sign of the largest |TI|. */
static void test_ti_polygons_and_peak(void **state)
{
    (void)state;
    hs_tracking *t = make(0, 1);
    static const double ccw[5][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 0}};
    for (int i = 0; i < 5; i++) hs_tracking_add(t, ccw[i][0], ccw[i][1]);
    HS_ASSERT_NEAR(hs_tracking_ti(t), 1.0, 1e-15);
    hs_tracking_reset(t);
    assert_true(hs_tracking_count(t) == 0 && hs_tracking_ti(t) == 0.0);
    /* twice clockwise (-2), then three times counter-clockwise (-2 + 3 = +1) */
    hs_tracking_add(t, 0, 0);
    for (int r = 0; r < 2; r++)
        for (int i = 3; i >= 0; i--) hs_tracking_add(t, ccw[i][0], ccw[i][1]);
    HS_ASSERT_NEAR(hs_tracking_ti(t), -2.0, 1e-15);
    for (int r = 0; r < 3; r++)
        for (int i = 1; i < 5; i++) hs_tracking_add(t, ccw[i][0], ccw[i][1]);
    HS_ASSERT_NEAR(hs_tracking_ti(t), 1.0, 1e-15);
    HS_ASSERT_NEAR(hs_tracking_ti_peak(t), -2.0, 1e-15);
    /* a triangle of base 3 and height 2, anywhere in the plane: area 3 */
    hs_tracking_reset(t);
    hs_tracking_add(t, 5, -1);
    hs_tracking_add(t, 8, -1);
    hs_tracking_add(t, 6, 1);
    hs_tracking_add(t, 5, -1);
    HS_ASSERT_NEAR(hs_tracking_ti(t), 3.0, 1e-14);
    hs_tracking_destroy(&t);
}

/* c = A sin(2 pi i / N), m = c - B cos(2 pi i / N) over whole periods (N >= 3): sum c^2 = P N A^2
 * / 2 and sum e^2 = P N B^2 / 2, so RMS = 100 B / A %, and MTE = B (reached at i = 0). */
static void test_mte_rms_known_error(void **state)
{
    (void)state;
    hs_tracking *t = make(0, 1);
    const int N = 64, P = 5;
    const double A = 3.0, B = 0.2;
    for (int i = 0; i < N * P; i++) {
        const double c = A * sin(2.0 * PI * i / N);
        hs_tracking_add(t, c, c - B * cos(2.0 * PI * i / N));
    }
    HS_ASSERT_NEAR(hs_tracking_rms(t), 100.0 * B / A, 1e-12);
    HS_ASSERT_NEAR(hs_tracking_mte(t), B, 1e-15);
    HS_ASSERT_NEAR(hs_tracking_error(t), B * cos(2.0 * PI * (N * P - 1) / N), 1e-15);
    hs_tracking_destroy(&t);

    /* a pure delay of D samples (D even): e_i = 2 A sin(phi/2) cos(th (i - D/2)), so
     * RMS = 200 sin(phi/2) % and MTE = 2 A sin(phi/2) (at i = D/2 + multiples of N/2). */
    t = make(0, 1);
    const int D = 6;
    const double th = 2.0 * PI / N, phi = th * D;
    for (int i = 0; i < N * P; i++) hs_tracking_add(t, A * sin(th * i), A * sin(th * (i - D)));
    HS_ASSERT_NEAR(hs_tracking_rms(t), 200.0 * sin(phi / 2.0), 1e-12);
    HS_ASSERT_NEAR(hs_tracking_mte(t), 2.0 * A * sin(phi / 2.0), 1e-14);
    hs_tracking_destroy(&t);

    /* edge cases: nothing, all zero, zero command with an error */
    t = make(0, 1);
    assert_true(hs_tracking_mte(t) == 0.0 && hs_tracking_rms(t) == 0.0);
    hs_tracking_add(t, 0, 0);
    assert_true(hs_tracking_rms(t) == 0.0);
    hs_tracking_add(t, 0, 1e-3);
    assert_true(isnan(hs_tracking_rms(t)));
    HS_ASSERT_NEAR(hs_tracking_mte(t), 1e-3, 0.0);
    hs_tracking_destroy(&t);
}

/* Series with a stride and a capacity: entry j is sample j * stride; recording stops at the
 * capacity while the metrics go on. No allocation while adding. */
static void test_series_and_alloc(void **state)
{
    (void)state;
    hs_tracking *t = make(10, 3);
    assert_true(hs_tracking_stride(t) == 3);
    const double *c, *m, *e, *ti;
    assert_true(hs_tracking_series(t, &c, &m, &e, &ti) == 0);
    const uint64_t before = hs_alloc_count();
    for (int i = 0; i < 7; i++) hs_tracking_add(t, i, 0.5 * i);
    assert_true(hs_tracking_series(t, &c, &m, &e, &ti) == 3); /* samples 0, 3, 6 */
    for (int j = 0; j < 3; j++) {
        assert_true(c[j] == 3.0 * j && m[j] == 1.5 * j && e[j] == 1.5 * j);
    }
    /* along the straight line m = c / 2 there is no area */
    assert_true(ti[2] == 0.0);
    for (int i = 7; i < 100; i++) hs_tracking_add(t, i, 0.5 * i);
    assert_true(hs_alloc_count() == before);
    assert_true(hs_tracking_count(t) == 100);
    assert_true(hs_tracking_series(t, &c, NULL, NULL, NULL) == 10);
    assert_true(c[9] == 27.0);
    HS_ASSERT_NEAR(hs_tracking_mte(t), 49.5, 0.0);
    hs_tracking_destroy(&t);
    assert_null(t);
}

/* Save, go on, load, go on again: the same numbers. */
static void test_state_replay(void **state)
{
    (void)state;
    hs_tracking *t = make(0, 1);
    for (int i = 0; i < 50; i++) hs_tracking_add(t, sin(0.1 * i), sin(0.1 * i - 0.3));
    double s[32];
    assert_true(hs_tracking_state_size(t) <= 32);
    hs_tracking_state_save(t, s);
    for (int i = 50; i < 80; i++) hs_tracking_add(t, sin(0.1 * i), 0.9 * sin(0.1 * i - 0.2));
    const double ti = hs_tracking_ti(t), rms = hs_tracking_rms(t), mte = hs_tracking_mte(t),
                 pk = hs_tracking_ti_peak(t);
    hs_tracking *u = make(0, 1);
    assert_int_equal(hs_tracking_state_load(u, s), 0);
    assert_true(hs_tracking_count(u) == 50);
    for (int i = 50; i < 80; i++) hs_tracking_add(u, sin(0.1 * i), 0.9 * sin(0.1 * i - 0.2));
    assert_true(hs_tracking_ti(u) == ti && hs_tracking_rms(u) == rms && hs_tracking_mte(u) == mte &&
                hs_tracking_ti_peak(u) == pk);
    s[0] = -1.0;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_tracking *v = NULL;
    assert_int_equal(hs_tracking_create(ctx, 0, 1, &v), 0);
    assert_int_equal(hs_tracking_state_load(v, s), HS_EINPUT);
    hs_tracking_destroy(&v);
    hs_ctx_destroy(&ctx);
    hs_tracking_destroy(&t);
    hs_tracking_destroy(&u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ti_delayed_sine),     cmocka_unit_test(test_ti_polygons_and_peak),
        cmocka_unit_test(test_mte_rms_known_error), cmocka_unit_test(test_series_and_alloc),
        cmocka_unit_test(test_state_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
