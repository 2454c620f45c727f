/* OpenFresco's 3-D experimental beam-column (EEBeamColumn3d: Linear, PDelta, Corotational) as
 * hysim's link
 * (hs_fe_link_def exp_beam in 3-D, src/fe/fe_link_beam3.c) against closed forms computed here.
 * OpenFresco's Cantilever3D: a column of length L along global Z from a fixed node i, its
 * geomTransf vecxz (0, -1, 0), so local x = Z, y = vecxz x x = -X, z = x x y = -Y; node j moves
 * by u = (dx, dy, dz, rx, ry, rz), node i at rest, so B's deformations are node j's local
 * displacements: db = [dz, -dx, -ry, -dy, -rx, rz] (axial, shear y, rz', shear z, ry', torsion).
 *  - Its stiffness is -initStif through the transformation: node j's block in global axes is
 *    R^T P^T kb P R (P: B's order of the local DOFs), to 1e-12, initial and tangent alike.
 *  - Specimens (elastic, ky and kz) on the two shears only: the force at j is (ky dx, kz dy,
 *    kb00 dz, 0, 0, kb55 rz) (EEBeamColumn3d's elastic axial force and torsion where the test
 *    measures none), node i's moments My = -L ky dx, Mx = L kz dy (the shears at node j);
 *  - the recorded basic deformations and forces are the shears' (db1, db3; ky db1, kz db3). */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double L = 54.0;
/* Cantilever3D_Main.tcl's -initStif (rows = columns: symmetric) */
static const double KB[36] = {1213,   0,       0,       0, 0, 0, 0, 11.2, -302.4, 0,     0, 0, 0,
                              -302.4, 10886.4, 0,       0, 0, 0, 0, 0,    11.2,   302.4, 0, 0, 0,
                              0,      302.4,   10886.4, 0, 0, 0, 0, 0,    0,      1E8};
static const double KY = 2.8, KZ = 3.1;

typedef struct model {
    hs_ctx *ctx;
    hs_fe *fe;
    hs_options *o[2];
} model;

static hs_options *elastic(double k)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "k", k);
    return o;
}

/* Cantilever3D's column under transformation transf, its specimens on the shears: the link's
 * index, or < 0 (refused) */
static int add_column(model *m, hs_fe_transf transf)
{
    memset(m, 0, sizeof *m);
    hs_ctx_create(&m->ctx);
    assert_int_equal(hs_fe_create(m->ctx, &m->fe), 0);
    assert_int_equal(hs_fe_set_dimension(m->fe, 3, 6), 0);
    const double xi[3] = {0, 0, 0}, xj[3] = {0, 0, L}, one[6] = {1, 1, 1, 1, 1, 1};
    assert_true(hs_fe_add_node_crd(m->fe, 1, xi) >= 0);
    assert_true(hs_fe_add_node_crd(m->fe, 2, xj) >= 0);
    assert_int_equal(hs_fe_add_mass(m->fe, 1, one), 0);
    assert_int_equal(hs_fe_add_mass(m->fe, 2, one), 0);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    def.ndir = 2; /* Cantilever3D's setup drives B's DOFs 2 and 4: the shears */
    def.dirs[0] = HS_FE3_UY, def.dirs[1] = HS_FE3_UZ;
    m->o[0] = elastic(KY), m->o[1] = elastic(KZ);
    for (int d = 0; d < 2; d++) def.mat_type[d] = "elastic", def.mat_opts[d] = m->o[d];
    def.has_yp = 1; /* local y = vecxz x x = -X */
    def.yp[0] = -1.0, def.yp[1] = 0.0, def.yp[2] = 0.0;
    def.shear_dist = def.shear_dist_z = def.k_shear_dist = def.k_shear_dist_z = 1.0;
    def.nk = 6;
    const int kd[6] = {HS_FE3_UX, HS_FE3_UY, HS_FE3_RZ, HS_FE3_UZ, HS_FE3_RY, HS_FE3_RX};
    memcpy(def.kdirs, kd, sizeof kd);
    memcpy(def.kb, KB, sizeof KB);
    def.k_tangent = 1;
    def.exp_beam = 1;
    def.beam_transf = transf;
    return hs_fe_add_link(m->fe, "col", 1, 2, &def);
}

static void build(model *m)
{
    const int rc = add_column(m, HS_FE_LINEAR);
    if (rc < 0) fprintf(stderr, "%s\n", hs_ctx_message(m->ctx));
    assert_true(rc >= 0);
    assert_int_equal(hs_fe_finalize(m->fe), 0);
}

static void destroy(model *m)
{
    for (int d = 0; d < 2; d++) hs_options_destroy(&m->o[d]);
    hs_fe_destroy(&m->fe);
    hs_ctx_destroy(&m->ctx);
}

/* element force (node i then j, 6 each) and tangent at node j's displacement uj */
static void force(model *m, const double uj[6], double f[12], double K[144], double K0[144])
{
    double d[12] = {0}, r[12] = {0}, Kt[144] = {0}, Ki[144] = {0};
    int q[12];
    for (int i = 0; i < 12; i++) q[i] = hs_fe_dof(m->fe, i < 6 ? 1 : 2, i % 6);
    for (int i = 0; i < 6; i++) d[q[6 + i]] = uj[i];
    assert_int_equal(hs_fe_initial_stiffness(m->fe, Ki), 0);
    assert_int_equal(hs_fe_restore(m->fe, d, NULL, r, Kt, NULL), 0);
    for (int i = 0; i < 12; i++) f[i] = r[q[i]];
    for (int j = 0; j < 12; j++)
        for (int i = 0; i < 12; i++) {
            K[j * 12 + i] = Kt[q[j] * 12 + q[i]];
            K0[j * 12 + i] = Ki[q[j] * 12 + q[i]];
        }
}

static void test_stiffness_is_init_stif(void **state)
{
    (void)state;
    model m;
    build(&m);
    const double u[6] = {0.7, -1.1, 0.02, 0.003, -0.004, 0.0005};
    double f[12], K[144], K0[144];
    force(&m, u, f, K, K0);
    /* global j DOF g -> local DOF l with sign s (R: x' = Z, y' = -X, z' = -Y) */
    const int loc[6] = {1, 2, 0, 4, 5, 3};
    const double sg[6] = {-1, -1, 1, -1, -1, 1};
    const int perm[6] = {0, 1, 5, 2, 4, 3}; /* B's DOF p is local DOF perm[p] */
    int bof[6];
    for (int p = 0; p < 6; p++) bof[perm[p]] = p;
    double worst = 0.0;
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 6; b++) {
            const double kab = sg[a] * sg[b] * KB[bof[loc[b]] * 6 + bof[loc[a]]];
            const double e = fabs(K[(6 + b) * 12 + 6 + a] - kab);
            if (e > worst) worst = e;
            HS_ASSERT_NEAR(K[(6 + b) * 12 + 6 + a], kab, 1e-12 * (fabs(kab) + 1.0));
            HS_ASSERT_NEAR(K0[(6 + b) * 12 + 6 + a], kab, 1e-12 * (fabs(kab) + 1.0));
        }
    printf("node j's block of the tangent = R^T P^T kb P R: worst %.3g (kb55 %.3g)\n", worst,
           KB[35]);
    const double fj[6] = {KY * u[0], KZ * u[1], KB[0] * u[2], 0.0, 0.0, KB[35] * u[5]};
    for (int i = 0; i < 6; i++) {
        HS_ASSERT_NEAR(f[6 + i], fj[i], 1e-12 * (fabs(fj[i]) + 1.0));
        if (i < 3) HS_ASSERT_NEAR(f[i], -fj[i], 1e-12 * (fabs(fj[i]) + 1.0));
    }
    HS_ASSERT_NEAR(f[3], L * KZ * u[1], 1e-12 * L * KZ);  /* Mx at i */
    HS_ASSERT_NEAR(f[4], -L * KY * u[0], 1e-12 * L * KY); /* My at i */
    HS_ASSERT_NEAR(f[5], -KB[35] * u[5], 1e-12 * KB[35]);
    printf("F_j = (%.9g, %.9g, %.9g, %.3g, %.3g, %.9g), closed form (%.9g, %.9g, %.9g, 0, 0, "
           "%.9g)\n",
           f[6], f[7], f[8], f[9], f[10], f[11], fj[0], fj[1], fj[2], fj[5]);
    assert_int_equal(hs_fe_commit(m.fe), 0);
    double db[2], qb[2];
    assert_int_equal(hs_fe_element_response(m.fe, 0, HS_FE_DEFORMATION, db), 0);
    assert_int_equal(hs_fe_element_response(m.fe, 0, HS_FE_BASIC_FORCE, qb), 0);
    HS_ASSERT_NEAR(db[0], -u[0], 1e-15);
    HS_ASSERT_NEAR(db[1], -u[1], 1e-15);
    HS_ASSERT_NEAR(qb[0], -KY * u[0], 1e-14);
    HS_ASSERT_NEAR(qb[1], -KZ * u[1], 1e-14);
    double b[18];
    int driven[6];
    assert_int_equal(hs_fe_exp_beam3_basic(m.fe, 0, b, driven), 0);
    const double dbw[6] = {u[2], -u[0], -u[4], -u[1], -u[3], u[5]};
    for (int p = 0; p < 6; p++) {
        HS_ASSERT_NEAR(b[p], dbw[p], 1e-15);
        assert_int_equal(driven[p], p == 1 || p == 3);
    }
    destroy(&m);
}

static void build_with(model *m, hs_fe_transf transf)
{
    const int rc = add_column(m, transf);
    if (rc < 0) fprintf(stderr, "%s\n", hs_ctx_message(m->ctx));
    assert_true(rc >= 0);
    assert_int_equal(hs_fe_finalize(m->fe), 0);
}

/* PDelta (PDeltaCrdTransf3d: N / L on the local transverse offsets, N = qA0, here the elastic
 * axial force kb00 dz): node j's force gains (N dx / L, N dy / L, 0) (local y = -X, z = -Y),
 * node i's the opposite, the moments are Linear's; the tangent gains N / L on node j's X and Y. */
static void test_p_delta(void **state)
{
    (void)state;
    model m;
    build_with(&m, HS_FE_PDELTA);
    const double u[6] = {0.7, -1.1, 0.02, 0.003, -0.004, 0.0005};
    double f[12], K[144], K0[144];
    force(&m, u, f, K, K0);
    const double N = KB[0] * u[2], g = N / L;
    const double fj[6] = {KY * u[0] + g * u[0], KZ * u[1] + g * u[1], KB[0] * u[2], 0.0, 0.0,
                          KB[35] * u[5]};
    for (int i = 0; i < 6; i++) {
        HS_ASSERT_NEAR(f[6 + i], fj[i], 1e-12 * (fabs(fj[i]) + 1.0));
        if (i < 3) HS_ASSERT_NEAR(f[i], -fj[i], 1e-12 * (fabs(fj[i]) + 1.0));
    }
    HS_ASSERT_NEAR(f[3], L * KZ * u[1], 1e-12 * L * KZ);
    HS_ASSERT_NEAR(f[4], -L * KY * u[0], 1e-12 * L * KY);
    HS_ASSERT_NEAR(K[6 * 12 + 6] - K0[6 * 12 + 6], g, 1e-12 * fabs(K0[6 * 12 + 6]));
    HS_ASSERT_NEAR(K[7 * 12 + 7] - K0[7 * 12 + 7], g, 1e-12 * fabs(K0[7 * 12 + 7]));
    HS_ASSERT_NEAR(K[6 * 12 + 0] - K0[6 * 12 + 0], -g, 1e-12 * fabs(K0[6 * 12 + 6]));
    printf("PDelta: F_j = (%.9g, %.9g, %.9g), closed form (%.9g, %.9g, %.9g); N / L = %.6g\n", f[6],
           f[7], f[8], fj[0], fj[1], fj[2], g);
    destroy(&m);
}

/* Corotational (CorotCrdTransf3d's A, EEBeamColumn3d's linear A <-> B): a pure stretch dz gives
 * the elastic axial force kb00 dz along Z exactly (A's elongation is dz); at a large drift
 * without nodal rotations (moments then conjugate to the rotations as they are physically) the
 * element's forces are in equilibrium in the deformed configuration, sum F = 0 and M_i + M_j +
 * x_j x F_j = 0 (Linear's miss it by the axial force times the drift); the tangent at rest is
 * -initStif's and symmetric at the drift (-initStif in A with qA's geometric stiffness). */
static void test_corotational(void **state)
{
    (void)state;
    model m, lin;
    build_with(&m, HS_FE_COROTATIONAL);
    build_with(&lin, HS_FE_LINEAR);
    double f[12], K[144], K0[144], fl[12], Kl[144], K0l[144];
    const double rest[6] = {0};
    force(&m, rest, f, K, K0);
    for (int i = 0; i < 144; i++) HS_ASSERT_NEAR(K[i], K0[i], 1e-12 * (fabs(K0[i]) + 1.0));
    const double stretch[6] = {0.0, 0.0, 0.03, 0.0, 0.0, 0.0};
    force(&m, stretch, f, K, K0);
    HS_ASSERT_NEAR(f[8], KB[0] * 0.03, 1e-12 * KB[0]);
    for (int i = 0; i < 12; i++)
        if (i != 2 && i != 8) HS_ASSERT_NEAR(f[i], 0.0, 1e-9);
    const double u[6] = {4.0, -2.5, 0.6, 0.0, 0.0, 0.0}, x[3] = {u[0], u[1], L + u[2]};
    double moment[2][3];
    for (int k = 0; k < 2; k++) {
        const double *g = k ? fl : f;
        force(k ? &lin : &m, u, k ? fl : f, k ? Kl : K, k ? K0l : K0);
        for (int c = 0; c < 3; c++) {
            const int a = (c + 1) % 3, b = (c + 2) % 3;
            moment[k][c] = g[3 + c] + g[9 + c] + x[a] * g[6 + b] - x[b] * g[6 + a];
            if (!k) HS_ASSERT_NEAR(g[c] + g[6 + c], 0.0, 1e-12 * KB[0]);
        }
    }
    double worst = 0.0, asym = 0.0;
    for (int c = 0; c < 3; c++) worst = fmax(worst, fabs(moment[0][c]));
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 12; j++) asym = fmax(asym, fabs(K[j * 12 + i] - K[i * 12 + j]));
    printf("Corotational at a drift of (%.2g, %.2g): moment balance %.3g (Linear's %.3g, %.3g), "
           "tangent asymmetry %.3g\n",
           u[0], u[1], worst, moment[1][0], moment[1][1], asym);
    assert_true(worst < 1e-9 * KB[0] * L);
    assert_true(fabs(moment[1][0]) + fabs(moment[1][1]) > 1e-3);
    assert_true(asym < 1e-9 * KB[35]);
    destroy(&m);
    destroy(&lin);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stiffness_is_init_stif),
        cmocka_unit_test(test_p_delta),
        cmocka_unit_test(test_corotational),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
