/* elastic_bilin (OpenSees ElasticBilin) and the smooth hysteresis laws hysteretic_poly,
 * hysteretic_smooth and hysteretic_asym (OpenSees HystereticPoly, HystereticSmooth,
 * HystereticAsym) against closed forms: the bilinear branches; the hysteretic part of each
 * smooth law obeys dh/de = alpha (st fbar - h) st (an exponential approach to the band
 * +-fbar, Smooth and Asym) or the power law of Poly, whose band tends to
 * +-(ka - kb) (1 + U^(1-a)) / (2 (a - 1)); after a reversal from saturation the tangent is ka. */
#include "hs_material_test.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#define make hs_test_material
#define go   hs_test_material_go

/* A material from a printf format of its "key value ..." string. */
static hs_material *make_f(const char *type, const char *fmt, ...)
{
    char spec[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(spec, sizeof spec, fmt, ap);
    va_end(ap);
    return hs_test_material(type, spec);
}

static void test_elastic_bilin(void **state)
{
    (void)state;
    hs_material *m = make("elastic_bilin", "E1p 1000 E2p 100 eps2p 0.002");
    HS_ASSERT_NEAR(go(m, 0.001), 1.0, 1e-15);
    HS_ASSERT_NEAR(go(m, 0.005), 2.0 + 0.3, 1e-14);
    HS_ASSERT_NEAR(hs_material_tangent(m), 100.0, 0.0);
    HS_ASSERT_NEAR(go(m, 0.001), 1.0, 1e-15); /* no hysteresis: the same path back */
    HS_ASSERT_NEAR(go(m, -0.005), -2.3, 1e-14);
    HS_ASSERT_NEAR(hs_material_initial_tangent(m), 1000.0, 0.0);
    hs_material_destroy(&m);
    /* both sides given; a negative eps2p and a positive eps2n are taken by magnitude */
    m = make("elastic_bilin", "E1p 1000.0 E2p 100.0 eps2p -0.002 E1n 800.0 E2n -50.0 eps2n 0.001");
    HS_ASSERT_NEAR(go(m, 0.003), 2.0 + 0.1, 1e-14);
    HS_ASSERT_NEAR(go(m, -0.0005), -0.4, 1e-15);
    HS_ASSERT_NEAR(hs_material_tangent(m), 800.0, 0.0);
    HS_ASSERT_NEAR(go(m, -0.003), -0.8 + 0.1, 1e-15);
    HS_ASSERT_NEAR(hs_material_tangent(m), -50.0, 0.0);
    hs_material_destroy(&m);
}

/* The exponential laws: along a strain path of committed steps with reversals, the hysteretic
 * part h(e) = elastic(e, s) follows h = st fbar - (st fbar - h_r) exp(-alpha st (e - e_r)) from
 * each reversal point (e_r, h_r); its derivative is the tangent's hysteretic part. */
typedef double (*part_fn)(const double *p, double e, double s, double *dh_ds, double *dh_de);

static double smooth_part(const double *p, double e, double s, double *dh_ds, double *dh_de)
{
    const double b = p[3], kb = p[1]; /* ka kb fbar beta */
    *dh_ds = 1.0;
    *dh_de = -(-2.0 * b + b * exp(b * e) + b * exp(-b * e) + kb);
    return s - (-2.0 * b * e + exp(b * e) - exp(-b * e) + kb * e);
}

static double asym_part(const double *p, double e, double s, double *dh_ds, double *dh_de)
{
    const double kb = p[1], b1 = p[3], b2 = p[4], g = p[5]; /* ka kb fo b1 b2 gamma */
    const double ge = -(b1 + b2) * e + exp(b1 * e) - exp(-b2 * e);
    const double dge = -(b1 + b2) + b1 * exp(b1 * e) + b2 * exp(-b2 * e);
    *dh_ds = exp(-g * e);
    *dh_de = -dge * exp(-g * e) - g * (s - ge) * exp(-g * e) - kb;
    return (s - ge) * exp(-g * e) - kb * e;
}

static void check_exponential(hs_material *m, const double *p, part_fn part)
{
    const double ka = p[0], kb = p[1], fbar = p[2], alpha = (ka - kb) / (2.0 * fbar);
    const double turns[] = {0.9, -0.7, 0.4, -0.2, 0.8};
    double e = 0.0, e_r = 0.0, h_r = 0.0, worst = 0.0, worst_t = 0.0;
    for (int k = 0; k < 5; k++) {
        const double st = turns[k] > e ? 1.0 : -1.0;
        const double e0 = e;
        for (int i = 1; i <= 40; i++) {
            e = e0 + (turns[k] - e0) * i / 40.0;
            const double s = go(m, e);
            double dh_ds, dh_de;
            const double h = part(p, e, s, &dh_ds, &dh_de);
            const double ex = exp(-alpha * st * (e - e_r));
            const double want = st * fbar - (st * fbar - h_r) * ex;
            worst = fmax(worst, fabs(h - want));
            /* dh/de = dh_ds tangent + dh_de = alpha (st fbar - h_r) ex st */
            const double dh = dh_ds * hs_material_tangent(m) + dh_de;
            worst_t = fmax(worst_t, fabs(dh - alpha * st * (st * fbar - h_r) * ex));
        }
        double dh_ds, dh_de;
        h_r = part(p, e, hs_material_stress(m), &dh_ds, &dh_de);
        e_r = e;
    }
    print_message("    %s: largest error of the band law %.2g, of its slope %.2g\n",
                  hs_material_type(m), worst, worst_t);
    assert_true(worst <= 1e-12 * fbar);
    assert_true(worst_t <= 1e-10 * ka);
}

static void test_hysteretic_smooth(void **state)
{
    (void)state;
    const double p[] = {5.0, 0.5, 0.45, 1.0};
    hs_material *m = make_f("hysteretic_smooth", "ka %.17g kb %.17g fbar %.17g beta %.17g", p[0],
                            p[1], p[2], p[3]);
    /* virgin tangent (ka + kb) / 2: h = fbar (1 - exp(-alpha e)) */
    HS_ASSERT_NEAR(hs_material_tangent(m), 2.75, 1e-15);
    check_exponential(m, p, smooth_part);
    hs_material_destroy(&m);
    /* alpha instead of fbar: the same law */
    hs_material *a = make("hysteretic_smooth", "ka 5.0 kb 0.5 alpha 5.0 beta 1.0");
    hs_material *b = make("hysteretic_smooth", "ka 5.0 kb 0.5 fbar 0.45 beta 1.0");
    for (int i = 1; i < 30; i++) assert_true(go(a, sin(0.3 * i)) == go(b, sin(0.3 * i)));
    hs_material_destroy(&a);
    hs_material_destroy(&b);
}

static void test_hysteretic_asym(void **state)
{
    (void)state;
    const double p[] = {5.0, 0.5, 0.45, 1.5, 1.0, 0.3};
    hs_material *m =
        make_f("hysteretic_asym", "ka %.17g kb %.17g fo %.17g b1 %.17g b2 %.17g gamma %.17g", p[0],
               p[1], p[2], p[3], p[4], p[5]);
    HS_ASSERT_NEAR(hs_material_tangent(m), 2.75, 1e-15);
    check_exponential(m, p, asym_part);
    hs_material_destroy(&m);
}

/* Poly with b1 = b2 = 0 and a small tol: the band saturates at +-h_inf =
 * +-(ka - kb)(1 + U^(1-a)) / (2 (a - 1)), and the tangent right after a reversal from
 * saturation is kb + (ka - kb)(1 + U^(1-a))^(-a/(1-a)), within tol of ka. */
static void test_hysteretic_poly(void **state)
{
    (void)state;
    const double ka = 100.0, kb = 10.0, a = 20.0, tol = 1e-8;
    hs_material *m =
        make_f("hysteretic_poly", "ka %.17g kb %.17g a %.17g b1 %.17g b2 %.17g tol %.17g", ka, kb,
               a, 0.0, 0.0, tol);
    const double U = pow((ka - kb) / tol, 1.0 / a), Ua = pow(U, 1.0 - a);
    const double h_inf = (ka - kb) * (1.0 + Ua) / (2.0 * (a - 1.0));
    for (int i = 1; i <= 100; i++) go(m, 2.0 * i / 100.0);
    HS_ASSERT_NEAR(hs_material_stress(m) - kb * 2.0, h_inf, 1e-8 * h_inf);
    for (int i = 1; i <= 200; i++) go(m, 2.0 - 4.0 * i / 200.0);
    HS_ASSERT_NEAR(hs_material_stress(m) + kb * 2.0, -h_inf, 1e-8 * h_inf);
    /* (the tangent after the reversal: a tiny step back) */
    assert_int_equal(hs_material_set_trial(m, -2.0 + 1e-12, 0.0), 0);
    const double k_rev = kb + (ka - kb) * pow(1.0 + Ua, -a / (1.0 - a));
    HS_ASSERT_NEAR(hs_material_tangent(m), k_rev, 1e-9 * ka);
    HS_ASSERT_NEAR(k_rev, ka, 1e-6 * ka);
    /* the elastic part adds b1 e^3 + b2 e^5 to the stress */
    hs_material *q =
        make_f("hysteretic_poly", "ka %.17g kb %.17g a %.17g b1 %.17g b2 %.17g tol %.17g", ka, kb,
               a, 3.0, -2.0, tol);
    hs_material *r =
        make_f("hysteretic_poly", "ka %.17g kb %.17g a %.17g b1 %.17g b2 %.17g tol %.17g", ka, kb,
               a, 0.0, 0.0, tol);
    double worst = 0.0;
    for (int i = 1; i <= 60; i++) {
        const double e = 0.8 * sin(0.2 * i);
        worst = fmax(worst, fabs(go(q, e) - go(r, e) - (3.0 * pow(e, 3) - 2.0 * pow(e, 5))));
    }
    assert_true(worst <= 1e-12 * h_inf);
    hs_material_destroy(&q);
    hs_material_destroy(&r);
    hs_material_destroy(&m);
}

static void test_validation(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_material *m = NULL;
    assert_int_equal(
        hs_test_material_try(ctx, "hysteretic_smooth", "ka 5 kb 6 fbar 0.4 beta 1", &m), HS_EINPUT);
    assert_string_equal(hs_ctx_message(ctx), "hysteretic_smooth: kb must be < ka (got 6)");
    assert_int_equal(
        hs_test_material_try(ctx, "hysteretic_smooth", "ka 5 kb 0.5 fbar 0.4 alpha 2 beta 1", &m),
        HS_EINPUT);
    assert_string_equal(hs_ctx_message(ctx),
                        "hysteretic_smooth: give one of fbar and alpha (fbar = (ka - kb) / (2 "
                        "alpha))");
    assert_int_equal(hs_test_material_try(ctx, "hysteretic_poly", "ka 5 kb 0.5 a 1 b1 0 b2 0", &m),
                     HS_EINPUT);
    assert_string_equal(hs_ctx_message(ctx), "hysteretic_poly: a must be > 0 and != 1 (got 1)");
    assert_null(m);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elastic_bilin),   cmocka_unit_test(test_hysteretic_smooth),
        cmocka_unit_test(test_hysteretic_asym), cmocka_unit_test(test_hysteretic_poly),
        cmocka_unit_test(test_validation),
    };
    return cmocka_run_group_tests_name("materials_smooth", tests, NULL, NULL);
}
