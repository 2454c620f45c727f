/* The two-node link, the element mass and the moving supports on the DOF maps u = T u_r
 * (docs/fe_model.md, "Constraints", "Mass", "Multi-support excitation"):
 *  - a consistent-mass beam that ends at a rigid-link slave puts T^T M T on the master: the 3 x 3
 *    mass of the master equals T^T M_s T with M_s the same beam's end block at a free node and T
 *    the rigid body's lever arms (ux_s = ux_m - dy rz_m, uy_s = uy_m + dx rz_m, rz_s = rz_m);
 *  - the sparse path: its M equals the dense consistent mass entry for entry, and with a moving
 *    support its restoring force equals the dense restore's (the support's map term neq + s is
 *    skipped by the pattern, read by the elements); the support stays a fixed DOF for the
 *    queries (hs_fe_dof, hs_fe_dof_row; hs_fe_node_map, the recorders': an empty map) and its
 * reaction is the column's axial force EA/L u_s;
 *  - a link's recorder responses (basic force and deformation per direction, global end forces
 *    B^T q, local ones, the reaction at its fixed end) against a vertical link's B by hand;
 *  - refused with the reason: a support motion at the master of a
 *    constraint. */
#include "hs_test.h"

#include "hysim/fe.h"
#include "hysim/integrator.h"
#include "hysim/sparse.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const int FIX_ALL[3] = {1, 1, 1};

static void finalize(hs_ctx *ctx, hs_fe *fe)
{
    const int rc = hs_fe_finalize(fe);
    if (rc) fprintf(stderr, "finalize: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
}

/* A cantilever beam 1 -> 3 with consistent mass; node 3 free (rigid = 0) or the rigid-beam slave
 * of node 2 at (x2, y2) (rigid = 1). */
static hs_fe *beam_to(hs_ctx *ctx, int rigid, double x2, double y2)
{
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_true(hs_fe_add_node(fe, 1, 0.0, 0.0) >= 0);
    assert_true(hs_fe_add_node(fe, 3, 2.5, 1.5) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, FIX_ALL), 0);
    if (rigid) {
        assert_true(hs_fe_add_node(fe, 2, x2, y2) >= 0);
        assert_int_equal(hs_fe_rigid_link(fe, HS_FE_RIGID_BEAM, 2, 3), 0);
    }
    const int e = hs_fe_add_beam(fe, "b", 1, 3, 30e6, 0.02, 2e-3, HS_FE_LINEAR, 0.0);
    assert_true(e >= 0);
    assert_int_equal(hs_fe_set_element_mass(fe, e, 0.8, 1), 0);
    finalize(ctx, fe);
    return fe;
}

static void test_rigid_slave_mass(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const double x2 = 3.2, y2 = 0.9, dx = 2.5 - x2, dy = 1.5 - y2;
    hs_fe *free_end = beam_to(ctx, 0, 0, 0), *slave = beam_to(ctx, 1, x2, y2);
    assert_int_equal(hs_fe_ndof(free_end), 3);
    assert_int_equal(hs_fe_ndof(slave), 3);
    double Ms[9], Mr[9], T[9] = {1, 0, 0, 0, 1, 0, -dy, dx, 1}; /* column-major */
    hs_fe_mass_matrix(free_end, Ms);
    hs_fe_mass_matrix(slave, Mr);
    assert_false(hs_fe_mass_is_lumped(slave));
    double mmax = 0.0, err = 0.0;
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) {
            double s = 0.0; /* (T^T Ms T)_ij */
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) s += T[i * 3 + a] * Ms[b * 3 + a] * T[j * 3 + b];
            err = fmax(err, fabs(Mr[j * 3 + i] - s));
            mmax = fmax(mmax, fabs(s));
        }
    printf("rigid slave: T^T M T vs the master's mass: %.3g of %.3g\n", err, mmax);
    assert_true(mmax > 0.1);
    assert_true(err <= 1e-13 * mmax);
    hs_fe_destroy(&free_end);
    hs_fe_destroy(&slave);
    hs_ctx_destroy(&ctx);
}

/* Portal frame with consistent beam mass (every DOF dynamic: the sparse path takes it). */
static hs_fe *portal(hs_ctx *ctx)
{
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    const double x[4] = {0, 6, 0, 6}, y[4] = {0, 0, 3.5, 3.5};
    for (int k = 0; k < 4; k++) assert_true(hs_fe_add_node(fe, k + 1, x[k], y[k]) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, FIX_ALL), 0);
    assert_int_equal(hs_fe_fix(fe, 2, FIX_ALL), 0);
    const int e[3] = {hs_fe_add_beam(fe, "c1", 1, 3, 30e6, 0.02, 2e-3, HS_FE_LINEAR, 0.0),
                      hs_fe_add_beam(fe, "c2", 2, 4, 30e6, 0.02, 2e-3, HS_FE_LINEAR, 0.0),
                      hs_fe_add_beam(fe, "b", 3, 4, 30e6, 0.03, 4e-3, HS_FE_LINEAR, 0.0)};
    for (int k = 0; k < 3; k++) assert_int_equal(hs_fe_set_element_mass(fe, e[k], 0.5, 1), 0);
    finalize(ctx, fe);
    return fe;
}

static void test_sparse_consistent_and_support(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_fe *fe = portal(ctx);
    const int n = hs_fe_ndof(fe);
    assert_int_equal(n, 6);
    const double ramp[3] = {0.0, 0.01, 0.02};
    assert_int_equal(
        hs_fe_add_support_motion(fe, 2, HS_FE_UY, HS_FE_MOTION_DISPLACEMENT, ramp, 3, 1.0), 0);
    assert_int_equal(hs_fe_support_prepare(fe), 0);
    hs_fe_matrices mats;
    hs_dynamics dyn;
    assert_int_equal(hs_fe_sparse_dynamics(fe, 0.0, 0.0, &mats, &dyn), 0);
    double M[36], Ms[36];
    hs_fe_mass_matrix(fe, M);
    hs_csc_to_dense(mats.M, Ms);
    for (int k = 0; k < n * n; k++) assert_true(Ms[k] == M[k]);
    /* the support 2 raised by 0.015: the dense and sparse restoring forces at d = 0 */
    hs_fe_support_set_time(fe, 1.5);
    double d[6] = {0}, r_dense[6] = {0}, r_sparse[6], rmax = 0.0, err = 0.0;
    assert_int_equal(hs_fe_restore(fe, d, d, r_dense, NULL, NULL), 0);
    assert_int_equal(hs_fe_restore_sparse(fe, d, d, r_sparse, NULL, NULL), 0);
    for (int i = 0; i < n; i++) {
        rmax = fmax(rmax, fabs(r_dense[i]));
        err = fmax(err, fabs(r_sparse[i] - r_dense[i]));
    }
    printf("support raised 0.015: |r| %.4g, sparse - dense %.3g\n", rmax, err);
    assert_true(rmax > 1.0); /* the column c2 pushes its top up: EA/L 0.015 */
    assert_true(err <= 1e-12 * rmax);
    /* the moving support stays a fixed DOF for the queries; its reaction is the column's force */
    double row[6], reac = 0.0;
    assert_int_equal(hs_fe_dof(fe, 2, HS_FE_UY), HS_FE_FIXED);
    assert_int_equal(hs_fe_dof_row(fe, 2, HS_FE_UY, row), HS_FE_FIXED);
    hs_fe_dof_map nm;
    assert_int_equal(hs_fe_node_map(fe, 2, HS_FE_UY, &nm), 0);
    assert_int_equal(nm.n, 0);
    HS_ASSERT_NEAR(hs_fe_node_displacement(fe, 2, HS_FE_UY), 0.015, 1e-17);
    assert_int_equal(hs_fe_commit(fe), 0);
    assert_int_equal(hs_fe_reaction(fe, 2, HS_FE_UY, &reac), 0);
    const double ea = 30e6 * 0.02 / 3.5 * 0.015;
    HS_ASSERT_NEAR(reac, ea, 1e-12 * ea);
    HS_ASSERT_NEAR(r_dense[hs_fe_dof(fe, 4, HS_FE_UY)], -ea, 1e-12 * ea);
    hs_fe_matrices_free(&mats);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

static void test_refusals(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 3, 6), 0);
    const double a[3] = {0, 0, 0}, b[3] = {0, 0, 3};
    assert_true(hs_fe_add_node_crd(fe, 1, a) >= 0);
    assert_true(hs_fe_add_node_crd(fe, 2, b) >= 0);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    def.ndir = 1;
    def.mat_type[0] = "elastic";
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    assert_int_equal(hs_options_set_num(o, "k", 100.0), 0);
    def.mat_opts[0] = o;
    assert_true(hs_fe_add_link(fe, "l", 1, 2, &def) >= 0); /* 3-D links: test_fe_link3d.c */
    const int e = hs_fe_add_truss(fe, "t", 1, 2, 1e6, 0.01, HS_FE_LINEAR, 0.0);
    assert_true(e >= 0);
    assert_int_equal(hs_fe_set_element_mass(fe, e, 0.5, 0), 0); /* 3-D: test_fe_mass3d.c */
    hs_fe_destroy(&fe);
    hs_options_destroy(&o);

    /* a support motion at the master of an equal_dof (a truss model: ndf 2) */
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 2, 2), 0);
    assert_true(hs_fe_add_node(fe, 1, 0, 0) >= 0);
    assert_true(hs_fe_add_node(fe, 2, 0, 3) >= 0);
    assert_true(hs_fe_add_node(fe, 3, 4, 3) >= 0);
    const int fx[2] = {1, 0};
    assert_int_equal(hs_fe_fix(fe, 1, fx), 0);
    const int dofs[2] = {0, 1};
    assert_int_equal(hs_fe_equal_dof(fe, 1, 3, dofs), 0);
    const double m[2] = {10, 10};
    assert_int_equal(hs_fe_add_mass(fe, 2, m), 0);
    assert_int_equal(hs_fe_add_mass(fe, 3, m), 0);
    assert_true(hs_fe_add_truss(fe, "t1", 1, 2, 1e6, 0.01, HS_FE_LINEAR, 0.0) >= 0);
    assert_true(hs_fe_add_truss(fe, "t2", 2, 3, 1e6, 0.01, HS_FE_LINEAR, 0.0) >= 0);
    assert_true(hs_fe_add_truss(fe, "t3", 1, 3, 1e6, 0.01, HS_FE_LINEAR, 0.0) >= 0);
    finalize(ctx, fe);
    const double ramp[2] = {0.0, 0.01};
    assert_true(hs_fe_add_support_motion(fe, 1, HS_FE_UX, HS_FE_MOTION_DISPLACEMENT, ramp, 2, 1.0) <
                0);
    assert_non_null(strstr(hs_ctx_message(ctx), "master of a constraint"));
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

/* A vertical link (chord along +y: local x = global y, local y = -global x), shear distance 0.5:
 * node 2 moved by (ux, uy, rz) = (0.01, 0.02, 0.003) gives ub = (uy, -ux - 0.5 L rz) and the
 * global end forces B^T q, the local ones T_lb^T q; the reaction at the fixed node 1 is node i's
 * force. */
static void test_link_responses(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_true(hs_fe_add_node(fe, 1, 0.0, 0.0) >= 0);
    assert_true(hs_fe_add_node(fe, 2, 0.0, 2.0) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, FIX_ALL), 0);
    const double m[3] = {1, 1, 1};
    assert_int_equal(hs_fe_add_mass(fe, 2, m), 0);
    hs_options *ka = NULL, *ks = NULL;
    assert_int_equal(hs_options_create(&ka), 0);
    assert_int_equal(hs_options_create(&ks), 0);
    assert_int_equal(hs_options_set_num(ka, "k", 5000.0), 0);
    assert_int_equal(hs_options_set_num(ks, "k", 300.0), 0);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    def.ndir = 2;
    def.dirs[0] = HS_FE_UX;
    def.dirs[1] = HS_FE_UY;
    def.mat_type[0] = def.mat_type[1] = "elastic";
    def.mat_opts[0] = ka;
    def.mat_opts[1] = ks;
    const int e = hs_fe_add_link(fe, "lnk", 1, 2, &def);
    assert_true(e >= 0);
    finalize(ctx, fe);
    assert_string_equal(hs_fe_element_type(fe, e), "two_node_link");
    const double d[3] = {0.01, 0.02, 0.003};
    double r[3] = {0};
    assert_int_equal(hs_fe_restore(fe, d, NULL, r, NULL, NULL), 0);
    assert_int_equal(hs_fe_commit(fe), 0);
    const double q0 = 5000.0 * 0.02, q1 = 300.0 * (-0.01 - 0.5 * 2.0 * 0.003);
    const double fg[6] = {q1, -q0, -q1, -q1, q0, -q1};
    double out[6];
    assert_int_equal(hs_fe_element_response_size(fe, e, HS_FE_BASIC_FORCE), 2);
    assert_int_equal(hs_fe_element_response_size(fe, e, HS_FE_LOCAL_FORCE), 6);
    const double fl[6] = {-q0, -q1, -q1, q0, q1, -q1}; /* T_lb^T q: shear moments -s L q1 */
    assert_int_equal(hs_fe_element_response(fe, e, HS_FE_LOCAL_FORCE, out), 0);
    for (int i = 0; i < 6; i++) HS_ASSERT_NEAR(out[i], fl[i], 1e-12 * q0);
    assert_int_equal(hs_fe_element_response(fe, e, HS_FE_BASIC_FORCE, out), 0);
    HS_ASSERT_NEAR(out[0], q0, 1e-12 * q0);
    HS_ASSERT_NEAR(out[1], q1, 1e-12 * q0);
    assert_int_equal(hs_fe_element_response(fe, e, HS_FE_DEFORMATION, out), 0);
    HS_ASSERT_NEAR(out[0], 0.02, 1e-15);
    HS_ASSERT_NEAR(out[1], -0.013, 1e-15);
    assert_int_equal(hs_fe_element_response(fe, e, HS_FE_GLOBAL_FORCE, out), 0);
    for (int i = 0; i < 6; i++) HS_ASSERT_NEAR(out[i], fg[i], 1e-12 * q0);
    for (int i = 0; i < 3; i++) HS_ASSERT_NEAR(r[i], fg[3 + i], 1e-12 * q0); /* restoring force */
    for (int dof = 0; dof < 3; dof++) {
        double reac;
        assert_int_equal(hs_fe_reaction(fe, 1, dof, &reac), 0);
        HS_ASSERT_NEAR(reac, fg[dof], 1e-12 * q0);
    }
    hs_fe_destroy(&fe);
    hs_options_destroy(&ka);
    hs_options_destroy(&ks);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rigid_slave_mass),
        cmocka_unit_test(test_sparse_consistent_and_support),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_link_responses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
