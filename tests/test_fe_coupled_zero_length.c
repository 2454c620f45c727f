/* CoupledZeroLength (src/fe/fe_coupled_zero_length.c) against closed forms: one material on the
 * resultant r = sqrt(dX^2 + dY^2) of two DOFs of the relative displacement.
 * - An elastic material (k, eta): the force E (dX, dY) and the tangent E I on the two DOFs (the
 *   exact derivative of that force), the damping tangent eta I; with Eneg the sign rule of
 *   OpenSees' CoupledZeroLength::update: r is negative when a component is negative and dX + dY
 *   < 0, so (-0.3, 0.1) takes Eneg and (0.3, -0.1) takes E.
 * - An elastic-perfectly plastic material pulled along (0.6, 0.8) past yield: the force is Fy
 *   along that direction; back at zero displacement (strain 0) the force keeps the committed
 *   direction, with the material's stress there (Fy in compression), as commitState keeps fX, fY.
 * - The committed direction survives a checkpoint: a model loaded from the saved state gives the
 *   same force at zero displacement.
 * - In 3-D (ndf 6) the two directions may be any DOFs: uy and rz here. */
#include "hs_test.h"

#include "hysim/fe.h"

#include <math.h>
#include <string.h>

/* Node 1 fixed, node 2 free in its ndf DOFs, with unit masses; a coupled element on d1, d2. */
static hs_fe *model(int ndm, int d1, int d2, const char *type, hs_options *o)
{
    const int ndf = ndm == 3 ? 6 : 3;
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(NULL, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, ndm, ndf), 0);
    const double c[3] = {0.5, 1.0, 0.0};
    assert_true(hs_fe_add_node_crd(fe, 1, c) >= 0);
    assert_true(hs_fe_add_node_crd(fe, 2, c) >= 0);
    const int fix[6] = {1, 1, 1, 1, 1, 1};
    const double m[6] = {1, 1, 1, 1, 1, 1};
    assert_int_equal(hs_fe_fix(fe, 1, fix), 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, m), 0);
    assert_true(hs_fe_add_coupled_zero_length(fe, "czl", 1, 2, d1, d2, type, o) >= 0);
    assert_int_equal(hs_fe_finalize(fe), 0);
    return fe;
}

static void test_elastic(void **state)
{
    (void)state;
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "k", 1000.0);
    hs_options_set_num(o, "eta", 20.0);
    hs_options_set_num(o, "Eneg", 400.0);
    hs_fe *fe = model(2, 0, 1, "elastic", o);
    assert_int_equal(hs_fe_ndof(fe), 3);
    /* (dX, dY), the stiffness that applies by the sign rule */
    const double cases[4][3] = {
        {0.03, 0.04, 1000.0}, {-0.3, 0.1, 400.0}, {0.3, -0.1, 1000.0}, {-0.02, -0.01, 400.0}};
    for (int c = 0; c < 4; c++) {
        const double d[3] = {cases[c][0], cases[c][1], 0.0}, v[3] = {0.0, 0.0, 0.0};
        double r[3] = {0}, K[9] = {0}, C[9] = {0};
        assert_int_equal(hs_fe_restore(fe, d, v, r, K, C), 0);
        const double E = cases[c][2];
        HS_ASSERT_NEAR(r[0], E * d[0], 1e-12 * E);
        HS_ASSERT_NEAR(r[1], E * d[1], 1e-12 * E);
        HS_ASSERT_NEAR(r[2], 0.0, 0.0);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                HS_ASSERT_NEAR(K[j * 3 + i], i == j && i < 2 ? E : 0.0, 1e-12 * E);
                HS_ASSERT_NEAR(C[j * 3 + i], i == j && i < 2 ? 20.0 : 0.0, 1e-12);
            }
    }
    /* the tangent is the force's derivative (central differences at (0.03, 0.04)) */
    double K[9] = {0};
    const double d0[3] = {0.03, 0.04, 0.0};
    assert_int_equal(hs_fe_restore(fe, d0, NULL, (double[3]){0}, K, NULL), 0);
    for (int j = 0; j < 2; j++) {
        double dp[3] = {0.03, 0.04, 0.0}, dm[3] = {0.03, 0.04, 0.0}, rp[3] = {0}, rm[3] = {0};
        dp[j] += 1e-6;
        dm[j] -= 1e-6;
        assert_int_equal(hs_fe_restore(fe, dp, NULL, rp, NULL, NULL), 0);
        assert_int_equal(hs_fe_restore(fe, dm, NULL, rm, NULL, NULL), 0);
        for (int i = 0; i < 2; i++)
            HS_ASSERT_NEAR((rp[i] - rm[i]) / 2e-6, K[j * 3 + i], 1e-6 * 1000.0);
    }
    hs_fe_destroy(&fe);
    hs_options_destroy(&o);
}

/* The force on node 2 at displacement (a, b) of DOFs (i1, i2) of n. */
static void force_at(hs_fe *fe, int n, int i1, int i2, double a, double b, double *r)
{
    double d[6] = {0};
    d[i1] = a;
    d[i2] = b;
    memset(r, 0, (size_t)n * sizeof *r);
    assert_int_equal(hs_fe_restore(fe, d, NULL, r, NULL, NULL), 0);
}

static void test_plastic_direction(void **state)
{
    (void)state;
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "E", 1000.0);
    hs_options_set_num(o, "epsyP", 0.01); /* Fy = 10 */
    for (int ndm = 2; ndm <= 3; ndm++) {
        /* 2-D: ux, uy; 3-D: uy and rz (node DOFs 1 and 5) */
        const int i1 = ndm == 3 ? 1 : 0, i2 = ndm == 3 ? 5 : 1, n = ndm == 3 ? 6 : 3;
        hs_fe *fe = model(ndm, i1, i2, "elastic_pp", o);
        assert_int_equal(hs_fe_ndof(fe), n);
        double r[6];
        force_at(fe, n, i1, i2, 0.03, 0.04, r); /* r = 0.05: yielded, s = 10 */
        HS_ASSERT_NEAR(r[i1], 6.0, 1e-12);
        HS_ASSERT_NEAR(r[i2], 8.0, 1e-12);
        for (int k = 0; k < n; k++)
            if (k != i1 && k != i2) HS_ASSERT_NEAR(r[k], 0.0, 0.0);
        assert_int_equal(hs_fe_commit(fe), 0);
        /* back at zero: plastic strain 0.04, E (0 - 0.04) = -40 beyond -Fy: s = -10, along the
         * committed force's direction (0.6, 0.8) */
        force_at(fe, n, i1, i2, 0.0, 0.0, r);
        HS_ASSERT_NEAR(r[i1], -6.0, 1e-12);
        HS_ASSERT_NEAR(r[i2], -8.0, 1e-12);
        /* the direction and the material's state through a checkpoint */
        const size_t ns = hs_fe_state_size(fe);
        double *saved = test_malloc(ns * sizeof *saved);
        assert_int_equal(hs_fe_state_save(fe, saved), 0);
        hs_fe *twin = model(ndm, i1, i2, "elastic_pp", o);
        assert_int_equal(hs_fe_state_size(twin), ns);
        assert_int_equal(hs_fe_state_load(twin, saved), 0);
        double r2[6];
        force_at(twin, n, i1, i2, 0.0, 0.0, r2);
        HS_ASSERT_NEAR(r2[i1], -6.0, 1e-12);
        HS_ASSERT_NEAR(r2[i2], -8.0, 1e-12);
        /* a fresh element at zero displacement has no direction: no force */
        hs_fe *fresh = model(ndm, i1, i2, "elastic_pp", o);
        force_at(fresh, n, i1, i2, 0.0, 0.0, r2);
        HS_ASSERT_NEAR(r2[i1], 0.0, 0.0);
        HS_ASSERT_NEAR(r2[i2], 0.0, 0.0);
        test_free(saved);
        hs_fe_destroy(&fresh);
        hs_fe_destroy(&twin);
        hs_fe_destroy(&fe);
    }
    hs_options_destroy(&o);
}

static void test_bad_directions(void **state)
{
    (void)state;
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(NULL, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 2, 3), 0);
    assert_true(hs_fe_add_node(fe, 1, 0, 0) >= 0);
    assert_true(hs_fe_add_node(fe, 2, 0, 0) >= 0);
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "k", 1.0);
    assert_true(hs_fe_add_coupled_zero_length(fe, "a", 1, 2, 0, 0, "elastic", o) < 0);
    assert_true(hs_fe_add_coupled_zero_length(fe, "b", 1, 2, 0, 3, "elastic", o) < 0);
    hs_options_destroy(&o);
    hs_fe_destroy(&fe);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elastic),
        cmocka_unit_test(test_plastic_direction),
        cmocka_unit_test(test_bad_directions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
