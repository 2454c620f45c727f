/* The RTHS benchmark (Silva et al. 2020): the criteria J1-J9 on synthetic signals whose values are
 * known by hand, the plant's discrete model against its continuous transfer function, and the
 * benchmark's compensator comparison (docs/rths_benchmark.md). */
#include "hs_test.h"

#include "hysim/compensator.h"
#include "hysim/rths.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

/* a signal at rest outside [0.5, 3.5] s, so that shifting it within 4 s loses nothing */
static double burst(double t)
{
    if (t <= 0.5 || t >= 3.5) return 0.0;
    const double w = sin(PI * (t - 0.5) / 3.0);
    return w * w * (sin(2 * PI * 1.3 * t) + 0.4 * sin(2 * PI * 3.1 * t + 0.5));
}

/* J1 of a pure delay of D samples is D dt; of a fractional delay within a tenth of a sample */
static void test_delay_criterion(void **state)
{
    (void)state;
    const double dt = 1.0 / 1024.0;
    const size_t n = 4096;
    static double xt[4096], xm[4096];
    for (size_t k = 0; k < n; k++) xt[k] = burst((double)k * dt);
    for (size_t k = 0; k < n; k++) xm[k] = k >= 7 ? xt[k - 7] : 0.0;
    HS_ASSERT_NEAR(hs_rths_delay(xt, xm, n, dt, 0.5), 7 * dt, 0.05 * dt);
    /* lead (over-compensation): negative */
    for (size_t k = 0; k < n; k++) xm[k] = k + 5 < n ? xt[k + 5] : 0.0;
    HS_ASSERT_NEAR(hs_rths_delay(xt, xm, n, dt, 0.5), -5 * dt, 0.05 * dt);
    /* 12.4 samples, analytically */
    for (size_t k = 0; k < n; k++) xm[k] = burst(((double)k - 12.4) * dt);
    HS_ASSERT_NEAR(hs_rths_delay(xt, xm, n, dt, 0.5), 12.4 * dt, 0.1 * dt);
    /* the package's J1 (F4_evaluation_PI.m:11-22): whole samples 0..49, so 12.4 samples give 12 */
    HS_ASSERT_NEAR(hs_rths_delay_package(xt, xm, n, dt, 50), 12 * dt, 1e-15);
    for (size_t k = 0; k < n; k++) xm[k] = k >= 7 ? xt[k - 7] : 0.0;
    HS_ASSERT_NEAR(hs_rths_delay_package(xt, xm, n, dt, 50), 7 * dt, 1e-15);
    hs_rths_criteria c;
    hs_rths_criteria_compute(xt, xm, NULL, NULL, n, 3, dt, &c);
    HS_ASSERT_NEAR(c.J[1], 6.8e-3, 1e-15); /* 6.836 ms rounded to 0.1 ms, in s */
    HS_ASSERT_NEAR(c.J1_signed, 7 * dt, 0.05 * dt);
    /* a lead is not seen (lag 0), a delay beyond 49 samples stops at 49 */
    for (size_t k = 0; k < n; k++) xm[k] = k + 5 < n ? xt[k + 5] : 0.0;
    HS_ASSERT_NEAR(hs_rths_delay_package(xt, xm, n, dt, 50), 0.0, 0.0);
    for (size_t k = 0; k < n; k++) xm[k] = k >= 60 ? xt[k - 60] : 0.0;
    HS_ASSERT_NEAR(hs_rths_delay_package(xt, xm, n, dt, 50), 49 * dt, 1e-15);
}

/* J2-J9 by hand: x_t = (0, 1, -2, 1), x_m = (0, 1.5, -2, 1): the error (0, 0.5, 0, 0) has mean
 * 0.125 and squared deviations 3 0.125^2 + 0.375^2 = 0.1875, x_t mean 0 and 6: J2 =
 * 100 sqrt(0.1875 / 6) = 17.678 %, rounded as F4 to 17.68; J3 peak 0.5 / 2 = 25 %. Floors: floor
 * i's response (1 + 0.1 i) yref_i: normalised RMS and peak 10 i % at J6 / J8 (floor 2), J7 / J9
 * (floor 3), the package's order; J4 / J5 are the measured x_m's against the reference's floor 1
 * (here x_t), so J2 and J3 again; without x_m, floor 1's 10 %. */
static void test_error_criteria(void **state)
{
    (void)state;
    const double xt[4] = {0, 1, -2, 1}, xm[4] = {0, 1.5, -2, 1};
    double yref[12], y[12];
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 3; i++) {
            yref[k * 3 + i] = xt[k] * (i + 1);
            y[k * 3 + i] = (1.0 + 0.1 * (i + 1)) * yref[k * 3 + i];
        }
    hs_rths_criteria c;
    hs_rths_criteria_compute(xt, xm, y, yref, 4, 3, 0.01, &c);
    HS_ASSERT_NEAR(c.J[2], 17.68, 1e-12);
    HS_ASSERT_NEAR(c.J[3], 25.0, 1e-12);
    HS_ASSERT_NEAR(c.J[4], 17.68, 1e-12);
    HS_ASSERT_NEAR(c.J[5], 25.0, 1e-12);
    static const int rms_j[3] = {4, 6, 7}, peak_j[3] = {5, 8, 9};
    for (int i = 1; i < 3; i++) {
        HS_ASSERT_NEAR(c.J[rms_j[i]], 10.0 * (i + 1), 1e-9);
        HS_ASSERT_NEAR(c.J[peak_j[i]], 10.0 * (i + 1), 1e-9);
    }
    hs_rths_criteria_compute(NULL, NULL, y, yref, 4, 3, 0.01, &c);
    HS_ASSERT_NEAR(c.J[4], 10.0, 1e-9);
    HS_ASSERT_NEAR(c.J[5], 10.0, 1e-9);
    hs_rths_criteria_compute(xt, xm, y, yref, 4, 3, 0.01, &c);
    char buf[512];
    assert_int_equal(hs_rths_criteria_json(&c, buf, sizeof buf), 0);
    assert_non_null(strstr(buf, "\"J3_percent\": 25,"));
    assert_non_null(strstr(buf, "\"J9_percent\": 30, \"J1_signed_s\": "));
    assert_int_equal(hs_rths_criteria_json(&c, buf, 20), HS_EINVAL);
    /* no reference: J4-J9 are null */
    hs_rths_criteria_compute(xt, xm, NULL, NULL, 4, 3, 0.01, &c);
    assert_int_equal(hs_rths_criteria_json(&c, buf, sizeof buf), 0);
    assert_non_null(strstr(buf, "\"J4_percent\": null"));
}

/* The plant's transfer function at DC by hand: Gxu(0) = a1b0 / (b2 a3 ke), closed loop
 * gain kp G / (1 + kp G); the discrete model's step response settles there and its load cell reads
 * ke x. The package's nominal plant: G0 = 2.1283e13 / (9.9976e4 3.3 1.19e6) = 54.2096, closed
 * loop 1.0261 G0 / (1 + G0) = 1.00751; ce = 2 0.0097 sqrt(29.13 1.19e6) = 114.221 N s/m. */
static void test_plant_dc(void **state)
{
    (void)state;
    const hs_rths_plant_params p = hs_rths_plant_nominal();
    const double g0 = p.a1b0 / (p.b2 * p.a3 * p.ke), t0 = p.gain * p.kp * g0 / (1.0 + p.kp * g0);
    HS_ASSERT_NEAR(g0, 54.2096, 1e-4);
    HS_ASSERT_NEAR(t0, 1.00751, 1e-5);
    HS_ASSERT_NEAR(p.ce, 114.221, 1e-3);
    double mag, ph;
    hs_rths_gxu_freq(&p, 1e-6, &mag, &ph);
    HS_ASSERT_NEAR(mag / g0, 1.0, 1e-6);
    hs_rths_plant_freq(&p, 1e-6, &mag, &ph);
    HS_ASSERT_NEAR(mag / t0, 1.0, 1e-6);
    hs_rths_plant *pl = NULL;
    assert_int_equal(hs_rths_plant_create(NULL, &p, 4096.0, &pl), 0);
    for (int k = 0; k < 4096 * 8; k++) hs_rths_plant_tick(pl, 1e-3); /* 1 mm step, 8 s */
    HS_ASSERT_NEAR(hs_rths_plant_x(pl) / 1e-3, t0, 1e-6);
    HS_ASSERT_NEAR(hs_rths_plant_f(pl) / (p.ke * hs_rths_plant_x(pl)), 1.0, 1e-6);
    hs_rths_plant_destroy(&pl);
}

/* Steady sinusoid through the discrete model, its gain and phase by projection over whole periods,
 * against the continuous closed loop (delayed by half a sample, the zero-order hold). */
static void sine_response(hs_rths_plant *pl, double rate, double f, double *mag, double *phase)
{
    hs_rths_plant_reset(pl);
    const double w = 2 * PI * f, h = 1.0 / rate;
    const long settle = (long)(4.0 * rate), per = (long)lround(rate / f), N = 20 * per;
    double sc = 0, ss = 0;
    for (long k = 0; k < settle + N; k++) {
        /* command held over [k h, (k + 1) h): its mid-sample value, so the hold adds no lag */
        hs_rths_plant_tick(pl, sin(w * ((double)k + 0.5) * h));
        if (k >= settle) {
            const double t = (double)(k + 1) * h, x = hs_rths_plant_x(pl);
            sc += x * cos(w * t);
            ss += x * sin(w * t);
        }
    }
    *mag = 2.0 * hypot(sc, ss) / (double)N;
    *phase = atan2(sc, ss);
}

static void test_plant_frequency_response(void **state)
{
    (void)state;
    const double rate = 4096.0;
    const hs_rths_plant_params nominal = hs_rths_plant_nominal();
    const hs_rths_plant_params pert = hs_rths_plant_perturbed(3, 1.0);
    const hs_rths_plant_params *ps[2] = {&nominal, &pert};
    for (int i = 0; i < 2; i++) {
        hs_rths_plant *pl = NULL;
        assert_int_equal(hs_rths_plant_create(NULL, ps[i], rate, &pl), 0);
        const double fs[3] = {1.0, 4.0, 16.0};
        for (int j = 0; j < 3; j++) {
            double mc, pc, md, pd;
            hs_rths_plant_freq(ps[i], 2 * PI * fs[j], &mc, &pc);
            sine_response(pl, rate, fs[j], &md, &pd);
            print_message("plant %d at %g Hz: continuous %.5f, %.5f rad; discrete %.5f, %.5f\n", i,
                          fs[j], mc, pc, md, pd);
            HS_ASSERT_NEAR(md / mc, 1.0, 2e-3);
            HS_ASSERT_NEAR(remainder(pd - pc, 2 * PI), 0.0, 2e-3);
        }
        hs_rths_plant_destroy(&pl);
    }
    /* the perturbed plant differs from the nominal one where the benchmark perturbs it, within
     * five of its standard deviations, and not elsewhere */
    const double dev[4] = {(pert.b1 - nominal.b1) / 3.3, (pert.b2 - nominal.b2) / 3.3e3,
                           (pert.a3 - nominal.a3) / 1.3, (pert.ke - nominal.ke) / 50e3};
    for (int i = 0; i < 4; i++) assert_true(fabs(dev[i]) > 1e-6 && fabs(dev[i]) < 5.0);
    assert_true(pert.a1b0 == nominal.a1b0 && pert.a2 == nominal.a2 && pert.me == nominal.me);
    HS_ASSERT_NEAR(pert.ce / sqrt(pert.me * pert.ke), 2.0 * 0.0097, 1e-12);
}

/* From recorded results: a run whose actuator lags its command by 3 records and whose floors are
 * (1 + 0.1 i) times the reference's: J1 = 3 dt, J6-J9 = 10 i % (floors 2, 3); J4, J5 compare the
 * measurement with the reference's floor 1, which is the command here: J2, J3 again. Without a
 * reference J4-J9 are NaN. */
static void test_criteria_from_results(void **state)
{
    (void)state;
    const int64_t n = 600;
    const double dt = 0.01;
    const char *const act_names[1] = {"a1"};
    hs_results_layout lay = {.ndof = 3, .capacity = n, .nact = 1, .actuator_names = act_names};
    hs_results *run = NULL, *ref = NULL;
    assert_int_equal(hs_results_create(NULL, &lay, &run), 0);
    lay.nact = 0;
    assert_int_equal(hs_results_create(NULL, &lay, &ref), 0);
    for (int64_t k = 0; k < n; k++) {
        const double t = (double)k * dt, b = burst(t * 0.6), bl = burst((t - 3 * dt) * 0.6);
        const double d[3] = {b, 2 * b, 3 * b}, dr[3] = {1.1 * b, 2 * 1.2 * b, 3 * 1.3 * b};
        const double z[3] = {0, 0, 0};
        assert_int_equal(hs_results_record(ref, t, 0.0, d, z, z, NULL, NULL, NULL), 0);
        assert_int_equal(hs_results_record(run, t, 0.0, dr, z, z, NULL, NULL, NULL), 0);
        assert_int_equal(hs_results_record_actuators(run, &b, &bl, &b, NULL), 0);
    }
    hs_rths_criteria c;
    assert_int_equal(hs_rths_criteria_from_results(NULL, run, ref, 0, dt, &c), 0);
    HS_ASSERT_NEAR(c.J[1], 3 * dt, 1e-15);
    HS_ASSERT_NEAR(c.J1_signed, 3 * dt, 0.1 * dt);
    assert_true(c.J[2] > 1.0 && c.J[4] == c.J[2] && c.J[5] == c.J[3]);
    static const int rms_j[3] = {4, 6, 7}, peak_j[3] = {5, 8, 9};
    for (int i = 1; i < 3; i++) {
        HS_ASSERT_NEAR(c.J[rms_j[i]], 10.0 * (i + 1), 1e-9);
        HS_ASSERT_NEAR(c.J[peak_j[i]], 10.0 * (i + 1), 1e-9);
    }
    assert_int_equal(hs_rths_criteria_from_results(NULL, run, NULL, 0, dt, &c), 0);
    HS_ASSERT_NEAR(c.J[1], 3 * dt, 1e-15);
    assert_true(isnan(c.J[4]) && isnan(c.J[9]));
    /* the reference has no actuators: its own criteria are J4-J9 against itself, 0 */
    assert_int_equal(hs_rths_criteria_from_results(NULL, ref, ref, 0, dt, &c), 0);
    assert_true(isnan(c.J[1]) && c.J[4] == 0.0);
    hs_results_destroy(&run);
    hs_results_destroy(&ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_delay_criterion),
        cmocka_unit_test(test_error_criteria),
        cmocka_unit_test(test_plant_dc),
        cmocka_unit_test(test_plant_frequency_response),
        cmocka_unit_test(test_criteria_from_results),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
