/* bouc_wen_infill (OpenSees BoucWenInfill): without degradation (deltak = deltaf = 0) and
 * without pinching (As = 0) it is Bouc-Wen with gamma = beta0 eta0 and beta = beta0, the same
 * backward-Euler step as hysim's bouc_wen; with strength degradation (deltaf > 0) the force at
 * the peaks of cycles of one amplitude falls cycle after cycle, as the damage index grows with
 * the energy; pinching (As > 0) lowers the force while reloading through z = 0. */
#include "hs_material_test.h"

#include <math.h>
#include <stdio.h>

static hs_material *make_infill(double deltaf, double As)
{
    char spec[400];
    snprintf(spec, sizeof spec,
             "mass 10 alpha 0.05 beta0 0.5 eta0 0.3 n 2 k 100 xy 1 deltak 0 deltaf %.17g psi 0 "
             "Zs 0.3 As %.17g epsp 0.5 tolerance 1e-14",
             deltaf, As);
    return hs_test_material("bouc_wen_infill", spec);
}

#define go hs_test_material_go

/* Three cycles of amplitude 3, steps of 0.01 (k = 1 .. 3600). */
static double cycles(int k)
{
    return 3.0 * sin(2.0 * 3.14159265358979323846 * k / 1200.0);
}

static void test_is_bouc_wen(void **state)
{
    (void)state;
    hs_material *m = make_infill(0.0, 0.0);
    hs_material *bw = hs_test_material("bouc_wen", "alpha 0.05 k0 100 n 2 gamma 0.15 beta 0.5");
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
