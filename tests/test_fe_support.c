/* Multi-support excitation of the frame model (hs_fe_add_support_motion, docs/fe_model.md):
 *  - the condensed coupling to the supports agrees with the rigid-body motion r (1 on every ux):
 *    K_ms 1 = -K_c r (the damping load of equal support velocities is the uniform one), the
 *    restoring force of the frame moved rigidly with its supports is zero, and M_ms 1 =
 *    -(M iota - M r) with iota the uniform influence (OpenSees loads -M R ag over the fixed nodes
 *    too), so the total-displacement load of equal motions is the uniform one; lumped and
 *    consistent mass; the support histories from displacements and from accelerations;
 *  - errors: a free DOF, a DOF given twice, an unknown node. */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const int FIX_ALL[3] = {1, 1, 1};

/* Portal frame on supports 1 and 2, beams with consistent mass, node masses on 3 and 4. */
static hs_fe *portal(hs_ctx *ctx, int consistent)
{
    hs_fe *fe = NULL;
    const double m[3] = {20.0, 0.0, 0.0};
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_true(hs_fe_add_node(fe, 1, 0.0, 0.0) >= 0);
    assert_true(hs_fe_add_node(fe, 2, 6.0, 0.0) >= 0);
    assert_true(hs_fe_add_node(fe, 3, 0.0, 3.5) >= 0);
    assert_true(hs_fe_add_node(fe, 4, 6.0, 3.5) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, FIX_ALL), 0);
    assert_int_equal(hs_fe_fix(fe, 2, FIX_ALL), 0);
    assert_int_equal(hs_fe_add_mass(fe, 3, m), 0);
    assert_int_equal(hs_fe_add_mass(fe, 4, m), 0);
    const int e[3] = {hs_fe_add_beam(fe, "c1", 1, 3, 30e6, 0.02, 2e-3, HS_FE_LINEAR, 0.0),
                      hs_fe_add_beam(fe, "c2", 2, 4, 30e6, 0.02, 2e-3, HS_FE_LINEAR, 0.0),
                      hs_fe_add_beam(fe, "b", 3, 4, 30e6, 0.03, 4e-3, HS_FE_LINEAR, 0.0)};
    for (int k = 0; k < 3; k++) {
        assert_true(e[k] >= 0);
        assert_int_equal(hs_fe_set_element_mass(fe, e[k], 0.5, consistent), 0);
    }
    int rc = hs_fe_finalize(fe);
    if (rc) fprintf(stderr, "finalize: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    return fe;
}

static void test_rigid_body_coupling(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    for (int consistent = 0; consistent < 2; consistent++) {
        hs_fe *fe = portal(ctx, consistent);
        const int n = hs_fe_ndof(fe);
        /* both supports move in x with d = t (v = 1, a = 0), then with a = 1 from rest */
        const double ramp[3] = {0.0, 1.0, 2.0}, acc[3] = {1.0, 1.0, 1.0};
        assert_int_equal(
            hs_fe_add_support_motion(fe, 1, HS_FE_UX, HS_FE_MOTION_DISPLACEMENT, ramp, 3, 1.0), 0);
        assert_int_equal(
            hs_fe_add_support_motion(fe, 2, HS_FE_UX, HS_FE_MOTION_DISPLACEMENT, ramp, 3, 1.0), 0);
        assert_int_equal(hs_fe_support_prepare(fe), 0);
        assert_int_equal(hs_fe_support_count(fe), 2);
        double K[64] = {0}, iota[8], M[64], f[8] = {0}, Kiota[8] = {0};
        assert_true(n <= 8);
        assert_int_equal(hs_fe_initial_stiffness(fe, K), 0);
        hs_fe_influence(fe, HS_FE_UX, iota);
        hs_fe_mass_matrix(fe, M);
        double rigid[8]; /* the rigid-body translation in x: 1 on every ux */
        for (int i = 0; i < n; i++) {
            char name[48];
            rigid[i] = strstr(hs_fe_dof_column(fe, i, name, sizeof name), "ux") ? 1.0 : 0.0;
        }
        hs_fe_support_set_time(fe, 0.5);
        assert_true(fabs(hs_fe_support_displacement(fe, 0) - 0.5) <= 1e-15);
        assert_true(hs_fe_node_displacement(fe, 2, HS_FE_UX) == 0.5); /* the support moved */
        assert_int_equal(hs_fe_support_load(fe, 0.0, 1.0, f), 0);     /* -K_ms 1 */
        double kmax = 0.0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                Kiota[i] += K[j * n + i] * rigid[j];
                kmax = fmax(kmax, fabs(K[j * n + i]));
            }
        for (int i = 0; i < n; i++) assert_true(fabs(f[i] - Kiota[i]) <= 1e-9 * kmax);
        /* the restoring force of the rigid motion: supports and every x DOF at 0.5 */
        double d[8], r[8] = {0};
        for (int i = 0; i < n; i++) d[i] = 0.5 * rigid[i];
        assert_int_equal(hs_fe_restore(fe, d, NULL, r, NULL, NULL), 0);
        for (int i = 0; i < n; i++) assert_true(fabs(r[i]) <= 1e-9 * kmax);
        hs_fe_destroy(&fe);
        /* mass: supports accelerating at 1: -M_ms 1 = M iota - M_ff iota_f (iota_f: 1 on ux) */
        fe = portal(ctx, consistent);
        assert_int_equal(
            hs_fe_add_support_motion(fe, 1, HS_FE_UX, HS_FE_MOTION_ACCELERATION, acc, 3, 1.0), 0);
        assert_int_equal(
            hs_fe_add_support_motion(fe, 2, HS_FE_UX, HS_FE_MOTION_ACCELERATION, acc, 3, 1.0), 0);
        assert_int_equal(hs_fe_support_prepare(fe), 0);
        hs_fe_support_set_time(fe, 1.0); /* a = 1, v = 1, d = 0.5 (trapezoid from rest) */
        assert_true(fabs(hs_fe_support_displacement(fe, 0) - 0.5) <= 1e-15);
        memset(f, 0, sizeof f);
        assert_int_equal(hs_fe_support_load(fe, 0.0, 0.0, f), 0);
        double mmax = 0.0;
        for (int i = 0; i < n; i++) {
            double mi = 0.0;
            for (int j = 0; j < n; j++) {
                mi += M[j * n + i] * (iota[j] - rigid[j]);
                mmax = fmax(mmax, fabs(M[j * n + i]));
            }
            assert_true(fabs(f[i] + mi) <= 1e-12 * mmax); /* f = -M_ms 1 */
            if (!consistent) assert_true(f[i] == 0.0);
            if (consistent && i == 0) assert_true(fabs(f[i]) > 0.01); /* a coupling to test */
        }
        hs_fe_destroy(&fe);
    }
    hs_ctx_destroy(&ctx);
}

static void test_support_errors(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_fe *fe = portal(ctx, 0);
    const double x[2] = {0.0, 1.0};
    assert_int_equal(hs_fe_add_support_motion(fe, 3, HS_FE_UX, 0, x, 2, 0.1), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "node 3 ux: the DOF is free"));
    assert_int_equal(hs_fe_add_support_motion(fe, 1, HS_FE_UY, 0, x, 2, 0.1), 0);
    assert_int_equal(hs_fe_add_support_motion(fe, 1, HS_FE_UY, 0, x, 2, 0.1), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "given twice"));
    assert_int_equal(hs_fe_add_support_motion(fe, 9, HS_FE_UY, 0, x, 2, 0.1), HS_EINPUT);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rigid_body_coupling),
        cmocka_unit_test(test_support_errors),
    };
    return cmocka_run_group_tests_name("fe_support", tests, NULL, NULL);
}
