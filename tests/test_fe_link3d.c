/* The two-node link (hs_fe_add_link, OpenSees twoNodeLink) in 3-D, 1-D and 2-D truss models
 * against closed forms computed here, independently of src/fe:
 *  - a skewed 3-D link with six elastic directions and shear distances s_y, s_z: K = B^T diag(k)
 *    B entry by entry, B built from the local axes of a Gram-Schmidt rotation matrix (x, then y'
 *    made orthogonal to x, z = x cross y) and the local rows (axial, shears with the moments
 *    -s_y L rz'_i - (1 - s_y) L rz'_j and +s_z L ry'_i + (1 - s_z) L ry'_j, torsion, moments),
 *    for orient given (x and y'), y' alone and OpenSees' default axes; the sparse path's
 *    stiffness equals the dense one entry for entry;
 *  - a rigid-body motion (translation and a small rotation about a skewed axis) of the
 *    chord-aligned link deforms nothing: the signs of the shear-distance terms;
 *  - OpenSees' default local axes: chord along +Y (y' = -X), vertical chord (y' = Y), coincident
 *    nodes (the global axes);
 *  - with coincident nodes, a link with bouc_wen or steel01 in one direction (default axes, or
 *    orient turning local x onto global Z) responds as a zero-length element with the same
 *    material in the same global DOF, bit for bit under Newmark and HHT;
 *  - the recorded global force [F M]_i,j (node DOF order), local force, basic force and
 *    deformation, and a reaction of a 3-D link;
 *  - a 1-D link (local x is global X even when node j lies left of node i) and a 2-D ndf-2
 *    link (axial and shear on four DOFs);
 *  - errors: y' along x, a direction the model lacks. */
#include "hs_test.h"

#include "hysim/sparse.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const int FIX6[6] = {1, 1, 1, 1, 1, 1};

static hs_options *elastic(double k)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "k", k);
    return o;
}

static void finalize(hs_ctx *ctx, hs_fe *fe)
{
    int rc = hs_fe_finalize(fe);
    if (rc) fprintf(stderr, "finalize: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
}

/* A 3-D model (ndf 6) with nodes 1 at xi and 2 at xj, each with unit mass on every DOF. */
static hs_fe *two_nodes_3d(hs_ctx *ctx, const double xi[3], const double xj[3])
{
    hs_fe *fe = NULL;
    const double m[6] = {1, 1, 1, 1, 1, 1};
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 3, 6), 0);
    assert_true(hs_fe_add_node_crd(fe, 1, xi) >= 0);
    assert_true(hs_fe_add_node_crd(fe, 2, xj) >= 0);
    assert_int_equal(hs_fe_add_mass(fe, 1, m), 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, m), 0);
    return fe;
}

/* Rotation matrix (rows: local x, y, z) by Gram-Schmidt from x and y'. */
static void gram_schmidt(const double x[3], const double yp[3], double Rm[3][3])
{
    const double nx = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    for (int c = 0; c < 3; c++) Rm[0][c] = x[c] / nx;
    const double p = yp[0] * Rm[0][0] + yp[1] * Rm[0][1] + yp[2] * Rm[0][2];
    double y[3], ny = 0.0;
    for (int c = 0; c < 3; c++) {
        y[c] = yp[c] - p * Rm[0][c];
        ny += y[c] * y[c];
    }
    for (int c = 0; c < 3; c++) Rm[1][c] = y[c] / sqrt(ny);
    Rm[2][0] = Rm[0][1] * Rm[1][2] - Rm[0][2] * Rm[1][1];
    Rm[2][1] = Rm[0][2] * Rm[1][0] - Rm[0][0] * Rm[1][2];
    Rm[2][2] = Rm[0][0] * Rm[1][1] - Rm[0][1] * Rm[1][0];
}

/* Row of B (12 global DOFs [u r]_i,j) of local direction d (0..5) for axes Rm, length L, shear
 * distances sy, sz. */
static void b_row(int d, double Rm[3][3], double L, double sy, double sz, double B[12])
{
    double t[12] = {0}; /* local row: [u' r']_i, [u' r']_j */
    t[d] = -1.0;
    t[6 + d] = 1.0;
    if (d == 1) t[5] = -sy * L, t[11] = -(1.0 - sy) * L;
    if (d == 2) t[4] = sz * L, t[10] = (1.0 - sz) * L;
    for (int blk = 0; blk < 4; blk++) /* u'_blk = Rm u_blk: B_blk = t_blk^T Rm */
        for (int c = 0; c < 3; c++) {
            double s = 0.0;
            for (int r = 0; r < 3; r++) s += t[3 * blk + r] * Rm[r][c];
            B[3 * blk + c] = s;
        }
}

/* A 6-direction elastic link from xi to xj (orient x and/or y' as given) against the closed
 * form with axes Rm. */
static void check_skewed(const double xi[3], const double xj[3], const double *ox,
                         const double *oyp, double Rm[3][3])
{
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const double k[6] = {3e6, 2e5, 4e5, 5e4, 7e4, 9e4}, sy = 0.3, sz = 0.8;
    hs_options *o[6];
    hs_fe *fe = two_nodes_3d(ctx, xi, xj);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    assert_true(def.shear_dist == 0.5 && def.shear_dist_z == 0.5);
    def.ndir = 6;
    for (int d = 0; d < 6; d++) {
        o[d] = elastic(k[d]);
        def.dirs[d] = 5 - d; /* any order */
        def.mat_type[d] = "elastic";
        def.mat_opts[d] = o[d];
    }
    if (ox) def.has_orient = 1, memcpy(def.orient, ox, sizeof def.orient);
    if (oyp) def.has_yp = 1, memcpy(def.yp, oyp, sizeof def.yp);
    def.shear_dist = sy;
    def.shear_dist_z = sz;
    const int rc = hs_fe_add_link(fe, "skew", 1, 2, &def);
    if (rc < 0) fprintf(stderr, "%s\n", hs_ctx_message(ctx));
    assert_true(rc >= 0);
    finalize(ctx, fe);
    assert_int_equal(hs_fe_ndof(fe), 12);
    int q[12];
    for (int i = 0; i < 12; i++) q[i] = hs_fe_dof(fe, i < 6 ? 1 : 2, i % 6);
    double K[144] = {0}, B[6][12], L = 0.0;
    for (int c = 0; c < 3; c++) L += (xj[c] - xi[c]) * (xj[c] - xi[c]);
    L = sqrt(L);
    assert_int_equal(hs_fe_initial_stiffness(fe, K), 0);
    for (int d = 0; d < 6; d++) b_row(d, Rm, L, sy, sz, B[d]);
    double kmax = 0.0;
    for (int i = 0; i < 144; i++) kmax = fmax(kmax, fabs(K[i]));
    assert_true(kmax > 1e5);
    for (int j = 0; j < 12; j++)
        for (int i = 0; i < 12; i++) {
            double e = 0.0;
            for (int d = 0; d < 6; d++) e += k[d] * B[5 - d][i] * B[5 - d][j]; /* dirs[d] = 5 - d */
            const double got = K[q[j] * 12 + q[i]];
            if (fabs(got - e) > 1e-12 * kmax)
                fprintf(stderr, "K(%d,%d) = %.17g, closed form %.17g\n", i, j, got, e);
            assert_true(fabs(got - e) <= 1e-12 * kmax);
        }
    /* the sparse path (every DOF carries mass): the same stiffness in compressed columns */
    const hs_csc *P = NULL;
    assert_int_equal(hs_fe_sparse_pattern(fe, &P), 0);
    double val[144] = {0};
    assert_true(hs_csc_nnz(P) <= 144);
    assert_int_equal(hs_fe_initial_stiffness_sparse(fe, val), 0);
    int nz_sparse = 0, nz_dense = 0;
    for (int j = 0; j < 12; j++)
        for (int p = P->colptr[j]; p < P->colptr[j + 1]; p++) {
            assert_true(val[p] == K[j * 12 + P->rowind[p]]);
            nz_sparse += val[p] != 0.0;
        }
    for (int i = 0; i < 144; i++) nz_dense += K[i] != 0.0;
    assert_int_equal(nz_sparse, nz_dense);
    for (int d = 0; d < 6; d++) hs_options_destroy(&o[d]);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

static void test_skewed_link_stiffness(void **state)
{
    (void)state;
    const double xi[3] = {1.0, 2.0, -1.0}, xj[3] = {3.0, -1.0, 5.0}; /* chord (2, -3, 6), L 7 */
    const double chord[3] = {2.0, -3.0, 6.0}, Y[3] = {0.0, 1.0, 0.0};
    double Rm[3][3];
    /* OpenSees' default: x along the chord, y' = global Y */
    gram_schmidt(chord, Y, Rm);
    check_skewed(xi, xj, NULL, NULL, Rm);
    /* -orient yp1 yp2 yp3 (3-D, three numbers): x along the chord, y' given */
    const double yp[3] = {1.0, 1.0, 0.5};
    gram_schmidt(chord, yp, Rm);
    check_skewed(xi, xj, NULL, yp, Rm);
    /* -orient x1 x2 x3 yp1 yp2 yp3: x off the chord (L stays the nodes' distance) */
    const double ox[3] = {1.0, 0.5, -0.25}, oyp[3] = {-0.3, 0.2, 1.0};
    gram_schmidt(ox, oyp, Rm);
    check_skewed(xi, xj, ox, oyp, Rm);
}

/* A rigid-body motion of a chord-aligned link with shear distances: no force in any direction
 * (the moment terms of both shears have the signs that cancel the rotation's relative
 * translation). */
static void test_rigid_body_motion(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const double xi[3] = {0.5, -1.0, 2.0}, xj[3] = {2.5, 2.0, -4.0};
    hs_fe *fe = two_nodes_3d(ctx, xi, xj);
    hs_options *o = elastic(1e6);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    def.ndir = 6;
    for (int d = 0; d < 6; d++) {
        def.dirs[d] = d;
        def.mat_type[d] = "elastic";
        def.mat_opts[d] = o;
    }
    def.shear_dist = 0.2;
    def.shear_dist_z = 0.7;
    assert_true(hs_fe_add_link(fe, "rigid", 1, 2, &def) >= 0);
    finalize(ctx, fe);
    const double th[3] = {1.3e-3, -0.7e-3, 2.1e-3}, t[3] = {0.01, -0.02, 0.005};
    const double r[3] = {xj[0] - xi[0], xj[1] - xi[1], xj[2] - xi[2]};
    const double txr[3] = {th[1] * r[2] - th[2] * r[1], th[2] * r[0] - th[0] * r[2],
                           th[0] * r[1] - th[1] * r[0]};
    double d[12] = {0}, f[12] = {0};
    for (int c = 0; c < 3; c++) {
        d[hs_fe_dof(fe, 1, c)] = t[c];
        d[hs_fe_dof(fe, 1, 3 + c)] = th[c];
        d[hs_fe_dof(fe, 2, c)] = t[c] + txr[c];
        d[hs_fe_dof(fe, 2, 3 + c)] = th[c];
    }
    assert_int_equal(hs_fe_restore(fe, d, NULL, f, NULL, NULL), 0);
    for (int i = 0; i < 12; i++) assert_true(fabs(f[i]) <= 1e-9 * 1e6 * 1e-3);
    /* a pure rotation of node 2 about the chord's normal deforms the shears: some force */
    double d2[12] = {0}, f2[12] = {0};
    d2[hs_fe_dof(fe, 2, 5)] = 1e-3;
    assert_int_equal(hs_fe_restore(fe, d2, NULL, f2, NULL, NULL), 0);
    double fm = 0.0;
    for (int i = 0; i < 12; i++) fm = fmax(fm, fabs(f2[i]));
    assert_true(fm > 100.0);
    hs_options_destroy(&o);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

/* One elastic direction dir of a link from xi to xj with default axes: the stiffness it adds on
 * node 2's translation c (K(c, c)). */
static double default_axes_k(const double xi[3], const double xj[3], int dir, int c)
{
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_fe *fe = two_nodes_3d(ctx, xi, xj);
    hs_options *o = elastic(1e6);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    def.ndir = 1;
    def.dirs[0] = dir;
    def.mat_type[0] = "elastic";
    def.mat_opts[0] = o;
    def.shear_dist = def.shear_dist_z = 1.0; /* the shear's centre at node j: no moment there */
    assert_true(hs_fe_add_link(fe, "l", 1, 2, &def) >= 0);
    finalize(ctx, fe);
    double K[144] = {0};
    assert_int_equal(hs_fe_initial_stiffness(fe, K), 0);
    const int q = hs_fe_dof(fe, 2, c);
    const double v = K[q * 12 + q];
    hs_options_destroy(&o);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
    return v;
}

static void test_default_axes(void **state)
{
    (void)state;
    const double o[3] = {0, 0, 0}, up[3] = {0, 2, 0}, down[3] = {0, -2, 0}, vert[3] = {0, 0, 3};
    /* chord along +Y: y' = -X, so local y is -X and local z is +Z */
    assert_true(default_axes_k(o, up, HS_FE3_UY, 0) == 1e6);
    assert_true(default_axes_k(o, up, HS_FE3_UZ, 2) == 1e6);
    assert_true(default_axes_k(o, up, HS_FE3_UY, 2) == 0.0);
    /* along -Y: y' = +X; local y = +X, z = +Z */
    assert_true(default_axes_k(o, down, HS_FE3_UY, 0) == 1e6);
    assert_true(default_axes_k(o, down, HS_FE3_UZ, 2) == 1e6);
    /* vertical: y' = Y: local y is Y, local z is -X */
    assert_true(default_axes_k(o, vert, HS_FE3_UY, 1) == 1e6);
    assert_true(default_axes_k(o, vert, HS_FE3_UZ, 0) == 1e6);
    assert_true(default_axes_k(o, vert, HS_FE3_UX, 2) == 1e6);
    /* coincident nodes (OpenSees would need -orient): the global axes */
    for (int d = 0; d < 3; d++) assert_true(default_axes_k(o, o, d, d) == 1e6);
    assert_true(default_axes_k(o, o, HS_FE3_UY, 0) == 0.0);
}

/* Node 1 fixed, node 2 (coincident) free in global DOF `free` only with mass 5e4; a link with
 * `mat` in local direction dir (orient: local x along global Z, y' along global X) or a
 * zero-length element in `free`. */
static hs_model *one_dof(hs_ctx *ctx, int link, int dir, int orient, int free, const char *mat,
                         const hs_options *o)
{
    hs_fe *fe = NULL;
    const double crd[3] = {1.0, 2.0, 3.0};
    double m[6] = {0};
    int fix[6] = {1, 1, 1, 1, 1, 1};
    m[free] = 5e4;
    fix[free] = 0;
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 3, 6), 0);
    assert_true(hs_fe_add_node_crd(fe, 1, crd) >= 0);
    assert_true(hs_fe_add_node_crd(fe, 2, crd) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, FIX6), 0);
    assert_int_equal(hs_fe_fix(fe, 2, fix), 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, m), 0);
    if (link) {
        hs_fe_link_def def;
        hs_fe_link_def_init(&def);
        def.ndir = 1;
        def.dirs[0] = dir;
        def.mat_type[0] = mat;
        def.mat_opts[0] = o;
        if (orient) {
            def.has_orient = def.has_yp = 1;
            def.orient[2] = 1.0;
            def.yp[0] = 1.0;
        }
        assert_true(hs_fe_add_link(fe, "s", 1, 2, &def) >= 0);
    } else {
        assert_true(hs_fe_add_zero_length(fe, "s", 1, 2, free, mat, o) >= 0);
    }
    finalize(ctx, fe);
    hs_model *md = NULL;
    assert_int_equal(hs_model_create(ctx, 1, &md), 0);
    double mass[1];
    hs_fe_mass(fe, mass);
    assert_int_equal(hs_model_set_mass(md, mass), 0);
    assert_int_equal(hs_model_attach_fe(md, fe), 0);
    return md;
}

static void test_link_equals_zero_length(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_options *bw = NULL, *st = NULL;
    assert_int_equal(hs_options_create(&bw), 0);
    hs_options_set_num(bw, "k0", 2e7);
    hs_options_set_num(bw, "alpha", 0.05);
    hs_options_set_num(bw, "n", 2.0);
    hs_options_set_num(bw, "gamma", 2e4);
    hs_options_set_num(bw, "beta", 2e4); /* yield near 5 mm */
    assert_int_equal(hs_options_create(&st), 0);
    hs_options_set_num(st, "fy", 1e5);
    hs_options_set_num(st, "E0", 2e7);
    hs_options_set_num(st, "b", 0.05); /* yield at 5 mm */
    static const struct {
        const char *mat;
        int dir, orient, free; /* link direction, orient, the zero-length's global DOF */
    } cases[] = {
        {"bouc_wen", HS_FE3_UZ, 0, HS_FE3_UZ}, /* shear z, default axes */
        {"steel01", HS_FE3_UY, 0, HS_FE3_UY},  /* shear y */
        {"steel01", HS_FE3_UX, 1, HS_FE3_UZ},  /* axial along global Z (orient) */
        {"bouc_wen", HS_FE3_RY, 0, HS_FE3_RY}, /* moment about y */
    };
    static const char *const types[] = {"newmark", "hht"};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int t = 0; t < 2; t++) {
            const hs_options *o = cases[c].mat[0] == 'b' ? bw : st;
            hs_model *zl = one_dof(ctx, 0, 0, 0, cases[c].free, cases[c].mat, o);
            hs_model *ln =
                one_dof(ctx, 1, cases[c].dir, cases[c].orient, cases[c].free, cases[c].mat, o);
            double a[400], b[400], peak = 0.0;
            hs_test_run_sine(ctx, zl, types[t], 2e5, a);
            hs_test_run_sine(ctx, ln, types[t], 2e5, b);
            for (int n = 0; n < 400; n++) {
                assert_true(a[n] == b[n]);
                peak = fmax(peak, fabs(a[n]));
            }
            assert_true(peak > 2.0 * 0.005); /* it yielded */
            hs_model_destroy(&zl);
            hs_model_destroy(&ln);
        }
    hs_options_destroy(&bw);
    hs_options_destroy(&st);
    hs_ctx_destroy(&ctx);
}

/* Recorders of a 3-D link whose node 1 is fixed: global force = K u (node DOF order), basic
 * force k ub, deformation ub, reaction = the force at node 1. */
static void test_link_responses(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const double xi[3] = {0, 0, 0}, xj[3] = {0, 0, 2.0}; /* vertical: y = Y, z = -X */
    hs_fe *fe = two_nodes_3d(ctx, xi, xj);
    assert_int_equal(hs_fe_fix(fe, 1, FIX6), 0);
    hs_options *ka = elastic(4e6), *ks = elastic(3e5);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    def.ndir = 2;
    def.dirs[0] = HS_FE3_UX;
    def.dirs[1] = HS_FE3_UZ;
    def.mat_type[0] = def.mat_type[1] = "elastic";
    def.mat_opts[0] = ka;
    def.mat_opts[1] = ks;
    def.shear_dist_z = 0.25;
    assert_true(hs_fe_add_link(fe, "pad", 1, 2, &def) >= 0);
    finalize(ctx, fe);
    assert_int_equal(hs_fe_ndof(fe), 6);
    /* node 2: ux = 0.01 (local -z), uz = 0.002 (axial), ry = 0.003 */
    double d[6] = {0}, r[6] = {0};
    d[hs_fe_dof(fe, 2, 0)] = 0.01;
    d[hs_fe_dof(fe, 2, 2)] = 0.002;
    d[hs_fe_dof(fe, 2, 4)] = 0.003;
    assert_int_equal(hs_fe_restore(fe, d, NULL, r, NULL, NULL), 0);
    assert_int_equal(hs_fe_commit(fe), 0);
    const int e = hs_fe_element_index(fe, "pad");
    assert_int_equal(hs_fe_element_response_size(fe, e, HS_FE_GLOBAL_FORCE), 12);
    assert_int_equal(hs_fe_element_response_size(fe, e, HS_FE_BASIC_FORCE), 2);
    /* local x = Z, y = Y, z = -X: uz'_j = -ux_j, ry'_j = ry_j (about local y = Y) */
    const double L = 2.0, sz = 0.25;
    const double ub_ax = 0.002, ub_z = -0.01 + (1.0 - sz) * L * 0.003;
    double q[2], ub[2], f[12], R;
    assert_int_equal(hs_fe_element_response(fe, e, HS_FE_DEFORMATION, ub), 0);
    assert_int_equal(hs_fe_element_response(fe, e, HS_FE_BASIC_FORCE, q), 0);
    assert_true(fabs(ub[0] - ub_ax) <= 1e-15 && fabs(ub[1] - ub_z) <= 1e-15);
    assert_true(fabs(q[0] - 4e6 * ub_ax) <= 1e-9 && fabs(q[1] - 3e5 * ub_z) <= 1e-9);
    assert_int_equal(hs_fe_element_response(fe, e, HS_FE_GLOBAL_FORCE, f), 0);
    /* f = B^T q: axial along Z; shear z (local -X) with the moment about Y at each end */
    const double Vz = q[1];
    const double expect[12] = {Vz,  0, -q[0], 0, sz * L * Vz,         0,
                               -Vz, 0, q[0],  0, (1.0 - sz) * L * Vz, 0};
    for (int i = 0; i < 12; i++) assert_true(fabs(f[i] - expect[i]) <= 1e-9);
    /* local force T_lb^T q: [u' r']_i,j with the shear's moments about local y */
    double fl[12];
    assert_int_equal(hs_fe_element_response_size(fe, e, HS_FE_LOCAL_FORCE), 12);
    assert_int_equal(hs_fe_element_response(fe, e, HS_FE_LOCAL_FORCE, fl), 0);
    const double loc[12] = {-q[0], 0, -Vz, 0, sz * L * Vz,         0,
                            q[0],  0, Vz,  0, (1.0 - sz) * L * Vz, 0};
    for (int i = 0; i < 12; i++) assert_true(fabs(fl[i] - loc[i]) <= 1e-9);
    for (int i = 0; i < 6; i++) /* the restore: node 2's force */
        assert_true(fabs(r[hs_fe_dof(fe, 2, i)] - f[6 + i]) <= 1e-9);
    assert_int_equal(hs_fe_reaction(fe, 1, 4, &R), 0);
    assert_true(fabs(R - sz * L * Vz) <= 1e-9);
    hs_options_destroy(&ka);
    hs_options_destroy(&ks);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

/* 1-D: node j left of node i, local x still global X (OpenSees): deformation u_j - u_i. */
static void test_link_1d(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_fe *fe = NULL;
    const int fix1[1] = {1};
    const double m[1] = {2.0};
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 1, 1), 0);
    assert_true(hs_fe_add_node(fe, 1, 0.0, 0.0) >= 0);
    assert_true(hs_fe_add_node(fe, 2, -3.0, 0.0) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, fix1), 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, m), 0);
    hs_options *st = NULL;
    assert_int_equal(hs_options_create(&st), 0);
    hs_options_set_num(st, "fy", 10.0);
    hs_options_set_num(st, "E0", 1000.0);
    hs_options_set_num(st, "b", 0.1);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    def.ndir = 1;
    def.dirs[0] = HS_FE_UX;
    def.mat_type[0] = "steel01";
    def.mat_opts[0] = st;
    assert_true(hs_fe_add_link(fe, "l", 1, 2, &def) >= 0);
    def.dirs[0] = HS_FE_UY;
    assert_true(hs_fe_add_link(fe, "bad", 1, 2, &def) < 0);
    assert_non_null(strstr(hs_ctx_message(ctx), "element 'bad': direction 1 must be ux"));
    finalize(ctx, fe);
    /* u_2 = +0.02: tension past yield (e_y = 0.01): s = 10 + 0.1 * 1000 * 0.01 = 11 */
    double d = 0.02, r = 0.0, ub;
    assert_int_equal(hs_fe_restore(fe, &d, NULL, &r, NULL, NULL), 0);
    assert_int_equal(hs_fe_commit(fe), 0);
    assert_true(fabs(r - 11.0) <= 1e-12);
    assert_int_equal(hs_fe_element_response(fe, 0, HS_FE_DEFORMATION, &ub), 0);
    assert_true(ub == 0.02);
    hs_options_destroy(&st);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

/* 2-D with ndf 2: axial k_a and shear k_s on a link at angle (c, s): K = k_a a a^T + k_s b b^T,
 * a = [-c -s c s], b = [s -c -s c]; the moment direction does not exist. */
static void test_link_2d_truss_nodes(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_fe *fe = NULL;
    const double m[2] = {1.0, 1.0}, c = 0.6, s = 0.8, ka = 5e5, ks = 2e4;
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 2, 2), 0);
    assert_true(hs_fe_add_node(fe, 1, 1.0, 1.0) >= 0);
    assert_true(hs_fe_add_node(fe, 2, 4.0, 5.0) >= 0);
    assert_int_equal(hs_fe_add_mass(fe, 1, m), 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, m), 0);
    hs_options *oa = elastic(ka), *os = elastic(ks);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    def.ndir = 2;
    def.dirs[0] = HS_FE_UY;
    def.dirs[1] = HS_FE_UX;
    def.mat_type[0] = def.mat_type[1] = "elastic";
    def.mat_opts[0] = os;
    def.mat_opts[1] = oa;
    def.shear_dist = 0.2; /* no rotations: nothing to carry */
    assert_true(hs_fe_add_link(fe, "l", 1, 2, &def) >= 0);
    def.dirs[0] = HS_FE_RZ;
    assert_true(hs_fe_add_link(fe, "m", 1, 2, &def) < 0);
    assert_non_null(strstr(hs_ctx_message(ctx), "direction 1 must be ux or uy"));
    finalize(ctx, fe);
    assert_int_equal(hs_fe_ndof(fe), 4);
    double K[16] = {0};
    assert_int_equal(hs_fe_initial_stiffness(fe, K), 0);
    const double a[4] = {-c, -s, c, s}, b[4] = {s, -c, -s, c};
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++)
            assert_true(fabs(K[j * 4 + i] - (ka * a[i] * a[j] + ks * b[i] * b[j])) <= 1e-12 * ka);
    hs_options_destroy(&oa);
    hs_options_destroy(&os);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

static void test_link3d_errors(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const double xi[3] = {0, 0, 0}, xj[3] = {1, 1, 0};
    hs_fe *fe = two_nodes_3d(ctx, xi, xj);
    hs_options *o = elastic(1.0);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    def.ndir = 1;
    def.dirs[0] = HS_FE3_RZ;
    def.mat_type[0] = "elastic";
    def.mat_opts[0] = o;
    def.has_yp = 1;
    def.yp[0] = def.yp[1] = -2.0; /* along the chord */
    assert_true(hs_fe_add_link(fe, "par", 1, 2, &def) < 0);
    assert_non_null(strstr(hs_ctx_message(ctx), "element 'par': the local y' vector"));
    assert_non_null(strstr(hs_ctx_message(ctx), "parallel to the local x axis"));
    def.has_yp = 0;
    def.shear_dist_z = -0.1;
    assert_true(hs_fe_add_link(fe, "sz", 1, 2, &def) < 0);
    assert_non_null(strstr(hs_ctx_message(ctx), "along local z"));
    def.shear_dist_z = 0.5;
    def.dirs[0] = 6;
    assert_true(hs_fe_add_link(fe, "d7", 1, 2, &def) < 0);
    assert_non_null(strstr(hs_ctx_message(ctx), "direction 1 must be ux, uy, uz, rx, ry or rz"));
    assert_int_equal(hs_fe_element_count(fe), 0);
    hs_options_destroy(&o);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skewed_link_stiffness),
        cmocka_unit_test(test_rigid_body_motion),
        cmocka_unit_test(test_default_axes),
        cmocka_unit_test(test_link_equals_zero_length),
        cmocka_unit_test(test_link_responses),
        cmocka_unit_test(test_link_1d),
        cmocka_unit_test(test_link_2d_truss_nodes),
        cmocka_unit_test(test_link3d_errors),
    };
    return cmocka_run_group_tests_name("fe_link3d", tests, NULL, NULL);
}
