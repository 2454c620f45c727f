/* bouc_wen_infill (OpenSees BoucWenInfill): without degradation (deltak = deltaf = 0) and
 * without pinching (As = 0) it is Bouc-Wen with gamma = beta0 eta0 and beta = beta0, the same
 * backward-Euler step as hysim's bouc_wen; with strength degradation (deltaf > 0) the force at
 * the peaks of cycles of one amplitude falls cycle after cycle, as the damage index grows with
 * the energy; pinching (As > 0) lowers the force while reloading through z = 0. */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>

static hs_material *make_infill(double deltaf, double As)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    const char *keys[] = {"mass",   "alpha",  "beta0", "eta0", "n",  "k",    "xy",
                          "deltak", "deltaf", "psi",   "Zs",   "As", "epsp", "tolerance"};
    const double vals[] = {10.0, 0.05,   0.5, 0.3, 2.0, 100.0, 1.0,
                           0.0,  deltaf, 0.0, 0.3, As,  0.5,   1e-14};
    for (int i = 0; i < 14; i++) hs_options_set_num(o, keys[i], vals[i]);
    hs_material *m = NULL;
    assert_int_equal(hs_material_create(NULL, "bouc_wen_infill", o, &m), 0);
    hs_options_destroy(&o);
    return m;
}

static double go(hs_material *m, double e)
{
    assert_int_equal(hs_material_set_trial(m, e, 0.0), 0);
    assert_int_equal(hs_material_commit(m), 0);
    return hs_material_stress(m);
}

/* Three cycles of amplitude 3, steps of 0.01 (k = 1 .. 3600). */
static double cycles(int k)
{
    return 3.0 * sin(2.0 * 3.14159265358979323846 * k / 1200.0);
}

static void test_is_bouc_wen(void **state)
{
    (void)state;
    hs_material *m = make_infill(0.0, 0.0);
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "alpha", 0.05);
    hs_options_set_num(o, "k0", 100.0);
    hs_options_set_num(o, "n", 2.0);
    hs_options_set_num(o, "gamma", 0.5 * 0.3);
    hs_options_set_num(o, "beta", 0.5);
    hs_material *bw = NULL;
    assert_int_equal(hs_material_create(NULL, "bouc_wen", o, &bw), 0);
    hs_options_destroy(&o);
    double worst = 0.0;
    for (int k = 1; k <= 3600; k++) worst = fmax(worst, fabs(go(m, cycles(k)) - go(bw, cycles(k))));
    print_message("    bouc_wen_infill without degradation or pinching against bouc_wen: %.3g\n",
                  worst);
    assert_true(worst <= 1e-10 * 100.0);
    hs_material_destroy(&bw);
    hs_material_destroy(&m);
}

static void test_degradation_and_pinching(void **state)
{
    (void)state;
    hs_material *d = make_infill(0.02, 0.0), *p = make_infill(0.0, 1.0), *u = make_infill(0.0, 0.0);
    double peak[3] = {0}, below = 0.0;
    for (int k = 1; k <= 3600; k++) {
        const double sd = go(d, cycles(k)), sp = go(p, cycles(k)), su = go(u, cycles(k));
        if (k % 1200 == 300) peak[k / 1200] = sd; /* the positive peaks */
        if (k > 1200 && cycles(k) > 0.0 && cycles(k) < cycles(k + 1)) below = fmax(below, su - sp);
    }
    print_message("    strength degradation: peaks %.6g %.6g %.6g; pinching lowers reloading by "
                  "up to %.3g\n",
                  peak[0], peak[1], peak[2], below);
    assert_true(peak[1] < peak[0] && peak[2] < peak[1]);
    assert_true(below > 0.5);
    hs_material_destroy(&d);
    hs_material_destroy(&p);
    hs_material_destroy(&u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_is_bouc_wen),
        cmocka_unit_test(test_degradation_and_pinching),
    };
    return cmocka_run_group_tests_name("materials_bouc_wen_infill", tests, NULL, NULL);
}
