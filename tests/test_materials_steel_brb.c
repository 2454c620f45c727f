/* steel_brb (OpenSees SteelBRB, Zona & Dall'Asta 2012) against closed forms: with alpha = 2, no
 * kinematic hardening (beta = 0) and no isotropic hardening (sigmaY_T = sigmaY_C = sigmaY0) the
 * law's flow rule de_p = |s / sy|^alpha de makes ds/de = E (1 - (s / sy)^2), so monotonic loading
 * from zero stress at e0 is s = sy tanh(E (e - e0) / sy); the material integrates it by backward
 * Euler, so the error falls as the step (first order). Unloading is elastic down to zero stress,
 * from where the compression branch is the same tanh. */
#include "hs_material_test.h"

#include <math.h>
#include <stdio.h>

static hs_material *make(double E, double sy, double alpha, double beta)
{
    char spec[400];
    snprintf(spec, sizeof spec,
             "E %.17g sigmaY0 %.17g sigmaY_T %.17g alpha_T %.17g beta_T %.17g delta_T 0.1 "
             "sigmaY_C %.17g alpha_C %.17g beta_C %.17g delta_C 0.1",
             E, sy, sy, alpha, beta, sy, alpha, beta);
    return hs_test_material("steel_brb", spec);
}

#define go hs_test_material_go

/* Largest |s - sy tanh(...)| / sy over a push to 3 yield strains, n steps per yield strain, an
 * elastic unloading to zero stress and a push to -3 yield strains from there. */
static double tanh_error(int n)
{
    const double E = 200000.0, sy = 300.0, ey = sy / E;
    hs_material *m = make(E, sy, 2.0, 0.0);
    double worst = 0.0, e = 0.0;
    for (int i = 1; i <= 3 * n; i++) {
        e = ey * i / n;
        worst = fmax(worst, fabs(go(m, e) - sy * tanh(E * e / sy)) / sy);
    }
    /* elastic unloading: the stress falls by E de exactly */
    const double s_top = hs_material_stress(m), e_top = e;
    const double e0 = e_top - s_top / E; /* zero stress */
    for (int i = 1; i <= 10; i++) {
        e = e_top - (e_top - e0) * i / 11.0;
        HS_ASSERT_NEAR(go(m, e), s_top - E * (e_top - e), 1e-9 * sy);
        assert_true(hs_material_tangent(m) == E);
    }
    /* through zero stress into compression: the same tanh from e0 */
    for (int i = 1; i <= 3 * n; i++) {
        e = e0 - ey * i / n;
        worst = fmax(worst, fabs(go(m, e) + sy * tanh(E * (e0 - e) / sy)) / sy);
    }
    hs_material_destroy(&m);
    return worst;
}

static void test_tanh(void **state)
{
    (void)state;
    const double e1 = tanh_error(200), e2 = tanh_error(400), e3 = tanh_error(800);
    print_message("    steel_brb, alpha 2: largest error against s = sy tanh(E e / sy) %.3g, "
                  "%.3g, %.3g of sy with 200, 400, 800 steps per yield strain\n",
                  e1, e2, e3);
    assert_true(e3 < 2e-3);
    /* first order: halving the step halves the error */
    assert_true(fabs(e1 / e2 - 2.0) < 0.1 && fabs(e2 / e3 - 2.0) < 0.1);
}

/* beta > 0: the plastic strain moves the centre of the elastic range by beta E e_p; a large
 * alpha makes the law nearly elastic-plastic: s - beta E e_p = sy once yielding. */
static void test_kinematic(void **state)
{
    (void)state;
    const double E = 200000.0, sy = 300.0, beta = 0.02, ey = sy / E;
    hs_material *m = make(E, sy, 40.0, beta);
    for (int i = 1; i <= 4000; i++) go(m, 10.0 * ey * i / 4000.0);
    const double s = hs_material_stress(m), ep = 10.0 * ey - s / E;
    /* the rate (x / de)^(1/alpha) of the last step is within 1e-3 of 1 */
    HS_ASSERT_NEAR((s - beta * E * ep) / sy, 1.0, 2e-3);
    /* bilinear with hardening b = beta / (1 + beta) beyond yield, within the same margin */
    const double s_bilinear = sy + beta / (1.0 + beta) * E * (10.0 * ey - ey);
    HS_ASSERT_NEAR(s / s_bilinear, 1.0, 2e-3);
    hs_material_destroy(&m);
}

static void test_validation(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_material *m = NULL;
    assert_int_equal(
        hs_test_material_try(ctx, "steel_brb",
                             "E 2e5 sigmaY0 250 sigmaY_T 400 alpha_T 1 beta_T 0.01 "
                             "delta_T 0.5 sigmaY_C 450 alpha_C 1 beta_C 0.02 delta_C 0",
                             &m),
        HS_EINPUT);
    assert_string_equal(hs_ctx_message(ctx), "steel_brb: delta_C must be > 0 (got 0)");
    assert_null(m);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tanh),
        cmocka_unit_test(test_kinematic),
        cmocka_unit_test(test_validation),
    };
    return cmocka_run_group_tests_name("materials_steel_brb", tests, NULL, NULL);
}
