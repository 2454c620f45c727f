/* bwbn (OpenSees BWBN) against closed forms. Without pinching (zetas = 0, so h = 1) the law is
 * Bouc-Wen's, integrated by backward Euler: with n = 1 each step is the linear equation
 * z = z_c + (Ao - (gamma + beta sgn(de z)) z) de, solved here by hand along a cycle; with n = 2 it
 * is hysim's bouc_wen without degradation (the same implicit step). With pinching the force
 * stays between the pinched and the unpinched loops: at the same strain path, |z| is never above
 * the unpinched one's while loading away from zero. */
#include "hs_material_test.h"

#include <math.h>
#include <stdio.h>

static hs_material *make_bwbn(double n, double zetas, double q)
{
    char spec[400];
    snprintf(spec, sizeof spec,
             "alpha 0.05 ko 100 n %g gamma 0.4 beta 0.6 Ao 1 q %.17g zetas %.17g p 2 Shi 0.3 "
             "deltaShi 0.01 lamda 0.2 tolerance 1e-14",
             n, q, zetas);
    return hs_test_material("bwbn", spec);
}

#define go hs_test_material_go

/* Strain path: 0 -> 3 -> -2 -> 1 in steps of 0.01. */
static double path(int k)
{
    if (k <= 300) return 0.01 * k;
    if (k <= 800) return 3.0 - 0.01 * (k - 300);
    return -2.0 + 0.01 * (k - 800);
}

static void test_n1_backward_euler(void **state)
{
    (void)state;
    hs_material *m = make_bwbn(1.0, 0.0, 0.0);
    const double a = 0.05, ko = 100.0, g = 0.4, b = 0.6;
    double z = 0.0, e_c = 0.0, worst = 0.0;
    for (int k = 1; k <= 1100; k++) {
        const double e = path(k), de = e - e_c;
        /* z = z_c + (1 - psi |z|) de with psi = g + b sgn(de z): try each sign of z */
        double zn = 0.0;
        for (int sz = -1; sz <= 1; sz += 2) {
            const double psi = g + b * (de * sz > 0.0 ? 1.0 : -1.0);
            const double cand = (z + de) / (1.0 + psi * sz * de);
            if (cand * sz >= 0.0) zn = cand;
        }
        z = zn;
        e_c = e;
        const double want = a * ko * e + (1.0 - a) * ko * z;
        worst = fmax(worst, fabs(go(m, e) - want));
    }
    print_message("    bwbn, n = 1, no pinching: largest difference from backward Euler by hand "
                  "%.3g (force peak about %.3g)\n",
                  worst, a * ko * 3.0 + (1.0 - a) * ko);
    assert_true(worst <= 1e-11 * ko);
    hs_material_destroy(&m);
}

static void test_n2_is_bouc_wen(void **state)
{
    (void)state;
    hs_material *m = make_bwbn(2.0, 0.0, 0.0);
    hs_material *bw = hs_test_material("bouc_wen", "alpha 0.05 k0 100 n 2 gamma 0.4 beta 0.6");
    double worst = 0.0;
    for (int k = 1; k <= 1100; k++) worst = fmax(worst, fabs(go(m, path(k)) - go(bw, path(k))));
    print_message("    bwbn, n = 2, no pinching, against bouc_wen: %.3g\n", worst);
    assert_true(worst <= 1e-9 * 100.0);
    hs_material_destroy(&bw);
    hs_material_destroy(&m);
}

/* Pinching lowers the slope of z near z = q zu: once the energy is large, the pinched
 * material's force at the same strain is below the unpinched one's on reloading from zero. */
static void test_pinching(void **state)
{
    (void)state;
    hs_material *p = make_bwbn(2.0, 0.8, 0.2), *u = make_bwbn(2.0, 0.0, 0.2);
    double below = 0.0;
    for (int k = 1; k <= 1100; k++) {
        const double sp = go(p, path(k)), su = go(u, path(k));
        if (k > 900 && k < 1000) below = fmax(below, su - sp); /* reloading through zero z */
    }
    print_message("    bwbn: pinching lowers the reloading force by up to %.3g\n", below);
    assert_true(below > 1.0);
    hs_material_destroy(&p);
    hs_material_destroy(&u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n1_backward_euler),
        cmocka_unit_test(test_n2_is_bouc_wen),
        cmocka_unit_test(test_pinching),
    };
    return cmocka_run_group_tests_name("materials_bwbn", tests, NULL, NULL);
}
