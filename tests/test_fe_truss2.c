/* OpenSees' Truss2 (hs_fe_set_truss_transverse, src/fe/fe_truss.c) and the softening factor beta
 * of its ConcretewBeta (hs_material_set_trial_transverse) against closed forms:
 * - ConcretewBeta at a strain on its compression parabola, s = beta (E0 e + a e^2) with
 *   a = fpc / ec0^2 - E0 / ec0, beta(et) 1 at et <= 0, linear to bint at etbint, linear to bres
 *   at etbres, bres after (ConcretewBeta::computeBeta); the tangent beta (E0 + 2 a e); et = 0 is
 *   the plain uniaxial law. Beta acts from a committed compression only (OpenSees' setValues:
 *   no beta while the committed stress is >= 0), so each case first commits e = -0.0006.
 * - A Truss2 along x whose transverse truss leans at 60 degrees: its material reads
 *   et = (e_o - e |cos 60|) / |sin 60|, e_o the transverse truss's strain; the force is A beta
 *   s(e) and the tangent A beta Et / L, with no term between the two trusses (as OpenSees).
 * - In 3-D, a transverse chord along z across a bar along x: et = e_o.
 * - A transverse truss parallel to the element (theta = 0) has no effect; one of a material
 *   without beta (elastic-perfectly plastic) is the plain truss; coincident transverse nodes
 *   are refused. */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* the census's BiaxialConcrete_matTest.tcl material (ksi) */
static const double FPC = -5.8, EC0 = -0.002, E0 = 4341.0;
static const double BINT = 0.3, ETBINT = 0.01, BRES = 0.1, ETBRES = 0.025;

static hs_options *concrete(void)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    const char *names[] = {"fpc",  "ec0",    "fcint", "ecint",  "fcres", "ecres",
                           "ft",   "ftint",  "etint", "ftres",  "etres", "E",
                           "bint", "etbint", "bres",  "etbres", "alpha", "lambda"};
    const double values[] = {FPC, EC0, -0.058, -0.004, 0.0,    -1.0, 0.3046, 0.003, 0.0012,
                             0.0, 1.0, E0,     BINT,   ETBINT, BRES, ETBRES, 0.5,   0.5};
    for (size_t k = 0; k < sizeof values / sizeof values[0]; k++)
        hs_options_set_num(o, names[k], values[k]);
    return o;
}

static double beta_of(double et)
{
    if (et <= 0.0) return 1.0;
    if (et <= ETBINT) return 1.0 + (BINT - 1.0) * et / ETBINT;
    if (et <= ETBRES) return BINT + (BRES - BINT) * (et - ETBINT) / (ETBRES - ETBINT);
    return BRES;
}

static double parabola(double e)
{
    return E0 * e + (FPC / (EC0 * EC0) - E0 / EC0) * e * e;
}

static void test_beta_of_the_transverse_strain(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_options *o = concrete();
    hs_material *m = NULL;
    assert_int_equal(hs_material_create(ctx, "concrete_w_beta", o, &m), 0);
    assert_true(hs_material_has_transverse(m));
    const double e = -0.0012, a = FPC / (EC0 * EC0) - E0 / EC0;
    /* from the virgin state (stress 0) beta is 1 */
    assert_int_equal(hs_material_set_trial_transverse(m, e, 0.0, 0.02), 0);
    assert_true(fabs(hs_material_stress(m) - parabola(e)) < 1e-12);
    assert_int_equal(hs_material_set_trial(m, -0.0006, 0.0), 0);
    assert_int_equal(hs_material_commit(m), 0);
    const double ets[] = {-0.01, 0.0, 0.004, ETBINT, 0.02, ETBRES, 0.05};
    for (size_t k = 0; k < sizeof ets / sizeof ets[0]; k++) {
        assert_int_equal(hs_material_set_trial_transverse(m, e, 0.0, ets[k]), 0);
        const double b = beta_of(ets[k]);
        assert_true(fabs(hs_material_stress(m) - b * parabola(e)) < 1e-12);
        assert_true(fabs(hs_material_tangent(m) - b * (E0 + 2.0 * a * e)) < 1e-9);
    }
    /* 0.004 of the way to etbint: 1 - 0.4 (1 - 0.3) = 0.72 */
    assert_int_equal(hs_material_set_trial_transverse(m, e, 0.0, 0.004), 0);
    assert_true(fabs(hs_material_stress(m) - 0.72 * parabola(e)) < 1e-12);
    /* the plain law: beta 1 */
    assert_int_equal(hs_material_set_trial(m, e, 0.0), 0);
    assert_true(fabs(hs_material_stress(m) - parabola(e)) < 1e-12);
    hs_material_destroy(&m);
    hs_options_destroy(&o);
    hs_ctx_destroy(&ctx);
}

/* Truss2 1 -> 2 along x (L = 1, A = 2) of `type`; the transverse truss 3 -> 4 (elastic, length
 * 1) at `deg` degrees. Dynamic DOFs: node 2 ux, node 4 ux, uy. */
static hs_fe *pair(hs_ctx *ctx, const char *type, const hs_options *o, double deg)
{
    hs_fe *fe = NULL;
    const double t = deg * acos(-1.0) / 180.0, m[2] = {1.0, 1.0};
    const int all[2] = {1, 1}, y[2] = {0, 1};
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 2, 2), 0);
    assert_true(hs_fe_add_node(fe, 1, 0.0, 0.0) >= 0);
    assert_true(hs_fe_add_node(fe, 2, 1.0, 0.0) >= 0);
    assert_true(hs_fe_add_node(fe, 3, 2.0, 0.0) >= 0);
    assert_true(hs_fe_add_node(fe, 4, 2.0 + cos(t), sin(t)) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, all), 0);
    assert_int_equal(hs_fe_fix(fe, 2, y), 0);
    assert_int_equal(hs_fe_fix(fe, 3, all), 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, m), 0);
    assert_int_equal(hs_fe_add_mass(fe, 4, m), 0);
    const int k = hs_fe_add_truss_material(fe, "t2", 1, 2, 2.0, HS_FE_LINEAR, type, o);
    assert_int_equal(k, 0);
    const int rc = hs_fe_set_truss_transverse(fe, k, 3, 4);
    if (rc) fprintf(stderr, "transverse: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    assert_true(hs_fe_add_truss(fe, "other", 3, 4, 400.0, 1.0, HS_FE_LINEAR, 0.0) >= 0);
    assert_int_equal(hs_fe_finalize(fe), 0);
    assert_int_equal(hs_fe_ndof(fe), 3);
    return fe;
}

/* r and K at node 2 shortened by e (strain e) and the transverse truss stretched by eo */
static void at(hs_fe *fe, double deg, double e, double eo, double r[3], double K[9])
{
    const double t = deg * acos(-1.0) / 180.0;
    double d[3];
    d[hs_fe_dof(fe, 2, 0)] = e;
    d[hs_fe_dof(fe, 4, 0)] = eo * cos(t);
    d[hs_fe_dof(fe, 4, 1)] = eo * sin(t);
    memset(r, 0, 3 * sizeof *r);
    memset(K, 0, 9 * sizeof *K);
    assert_int_equal(hs_fe_restore(fe, d, NULL, r, K, NULL), 0);
}

static void test_truss2_reads_the_transverse_strain(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_options *o = concrete();
    hs_fe *fe = pair(ctx, "concrete_w_beta", o, 60.0);
    const int i = hs_fe_dof(fe, 2, 0), j = hs_fe_dof(fe, 4, 0);
    const double e = -0.0012, eo = 0.02, a = FPC / (EC0 * EC0) - E0 / EC0;
    const double et = (eo - e * 0.5) / (sqrt(3.0) / 2.0); /* |cos 60|, |sin 60| */
    double r[3], K[9];
    at(fe, 60.0, -0.0006, 0.0, r, K);
    assert_int_equal(hs_fe_commit(fe), 0);
    at(fe, 60.0, e, eo, r, K);
    const double b = beta_of(et);
    assert_true(b > BRES && b < BINT); /* et 0.0238: between etbint and etbres */
    assert_true(fabs(r[i] - 2.0 * b * parabola(e)) < 1e-12);
    assert_true(fabs(K[i * 3 + i] - 2.0 * b * (E0 + 2.0 * a * e)) < 1e-8);
    assert_true(K[i * 3 + j] == 0.0 && K[j * 3 + i] == 0.0);
    /* the transverse truss in compression: beta 1 */
    at(fe, 60.0, e, -0.001, r, K);
    assert_true(fabs(r[i] - 2.0 * parabola(e)) < 1e-12);
    hs_fe_destroy(&fe);
    /* parallel: no effect */
    fe = pair(ctx, "concrete_w_beta", o, 0.0);
    at(fe, 0.0, -0.0006, 0.0, r, K);
    assert_int_equal(hs_fe_commit(fe), 0);
    at(fe, 0.0, e, eo, r, K);
    assert_true(fabs(r[hs_fe_dof(fe, 2, 0)] - 2.0 * parabola(e)) < 1e-12);
    hs_fe_destroy(&fe);
    hs_options_destroy(&o);
    hs_ctx_destroy(&ctx);
}

/* 3-D (ndf 3): the bar along x, the transverse chord along z (theta 90 degrees: et = e_o) */
static void test_truss2_in_3d(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_options *o = concrete();
    hs_fe *fe = NULL;
    const double x1[3] = {0, 0, 0}, x2[3] = {1, 0, 0}, x3[3] = {2, 0, 0}, x4[3] = {2, 0, 1};
    const double m[3] = {1, 1, 1};
    const int all[3] = {1, 1, 1}, yz[3] = {0, 1, 1}, xy[3] = {1, 1, 0};
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 3, 3), 0);
    assert_true(hs_fe_add_node_crd(fe, 1, x1) >= 0 && hs_fe_add_node_crd(fe, 2, x2) >= 0);
    assert_true(hs_fe_add_node_crd(fe, 3, x3) >= 0 && hs_fe_add_node_crd(fe, 4, x4) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, all) | hs_fe_fix(fe, 2, yz) | hs_fe_fix(fe, 3, all), 0);
    assert_int_equal(hs_fe_fix(fe, 4, xy), 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, m) | hs_fe_add_mass(fe, 4, m), 0);
    const int k = hs_fe_add_truss_material(fe, "t2", 1, 2, 2.0, HS_FE_LINEAR, "concrete_w_beta", o);
    assert_int_equal(hs_fe_set_truss_transverse(fe, k, 3, 4), 0);
    assert_true(hs_fe_add_truss(fe, "other", 3, 4, 400.0, 1.0, HS_FE_LINEAR, 0.0) >= 0);
    assert_int_equal(hs_fe_finalize(fe), 0);
    const int i = hs_fe_dof(fe, 2, 0), j = hs_fe_dof(fe, 4, 2);
    double d[2] = {0}, r[2];
    d[i] = -0.0006;
    assert_int_equal(hs_fe_restore(fe, d, NULL, r, NULL, NULL), 0);
    assert_int_equal(hs_fe_commit(fe), 0);
    d[i] = -0.0012;
    d[j] = 0.02;
    memset(r, 0, sizeof r);
    assert_int_equal(hs_fe_restore(fe, d, NULL, r, NULL, NULL), 0);
    assert_true(fabs(r[i] - 2.0 * beta_of(0.02) * parabola(-0.0012)) < 1e-12);
    hs_fe_destroy(&fe);
    hs_options_destroy(&o);
    hs_ctx_destroy(&ctx);
}

static void test_truss2_of_a_plain_material(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "E", 200.0);
    hs_options_set_num(o, "epsyP", 0.01);
    hs_fe *fe = pair(ctx, "elastic_pp", o, 90.0);
    const int i = hs_fe_dof(fe, 2, 0);
    double r[3], K[9];
    at(fe, 90.0, 0.005, 0.3, r, K); /* A E e = 2 200 0.005 = 2 */
    assert_true(fabs(r[i] - 2.0) < 1e-12 && fabs(K[i * 3 + i] - 400.0) < 1e-12);
    hs_fe_destroy(&fe);
    /* coincident transverse nodes: refused */
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 2, 2), 0);
    assert_true(hs_fe_add_node(fe, 1, 0.0, 0.0) >= 0);
    assert_true(hs_fe_add_node(fe, 2, 1.0, 0.0) >= 0);
    const int k = hs_fe_add_truss_material(fe, "t2", 1, 2, 1.0, HS_FE_LINEAR, "elastic_pp", o);
    assert_int_equal(hs_fe_set_truss_transverse(fe, k, 2, 2), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "coincide"));
    hs_fe_destroy(&fe);
    hs_options_destroy(&o);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_beta_of_the_transverse_strain),
        cmocka_unit_test(test_truss2_reads_the_transverse_strain),
        cmocka_unit_test(test_truss2_in_3d),
        cmocka_unit_test(test_truss2_of_a_plain_material),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
