/* The two-node link element (hs_fe_add_link, OpenSees twoNodeLink semantics) against closed
 * forms: the stiffness of a skewed link with three elastic directions and a shear distance,
 * entry by entry (K = B^T diag(k) B written out); a rigid-body motion (translation and rotation
 * about node i) deforms nothing, also in a yielding Bouc-Wen link; `orient` turns the local axes
 * away from the chord; with coincident nodes a Bouc-Wen link responds as a zero-length element
 * with the same material, bit for bit, under three integrators; OpenFresco's rate responses
 * (hs_fe_link_rates) are B v, B a and the materials' rates over their velocity factors. */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const int FIX_ALL[3] = {1, 1, 1}, FIX_Y_RZ[3] = {0, 1, 1};

static hs_options *elastic(double k)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "k", k);
    return o;
}

static hs_options *bouc_wen(void)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "k0", 2e7);
    hs_options_set_num(o, "alpha", 0.05);
    hs_options_set_num(o, "n", 2.0); /* yield near z = 5 mm, 1e5 N */
    hs_options_set_num(o, "gamma", 2e4);
    hs_options_set_num(o, "beta", 2e4);
    return o;
}

static void finalize(hs_ctx *ctx, hs_fe *fe)
{
    int rc = hs_fe_finalize(fe);
    if (rc) fprintf(stderr, "finalize: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
}

/* Two free nodes with mass on every DOF (no condensation: n = 6, DOFs in node order). */
static hs_fe *two_free_nodes(hs_ctx *ctx, double xj, double yj)
{
    hs_fe *fe = NULL;
    const double m[3] = {1.0, 1.0, 1.0};
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_true(hs_fe_add_node(fe, 1, 0.0, 0.0) >= 0);
    assert_true(hs_fe_add_node(fe, 2, xj, yj) >= 0);
    assert_int_equal(hs_fe_add_mass(fe, 1, m), 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, m), 0);
    return fe;
}

/* Link from (0, 0) to (3, 4): c = 0.6, s = 0.8, L = 5; elastic kx (axial), ky (shear), kr,
 * shear distance sd. B rows: axial [-c -s 0 c s 0]; shear [s -c -sd L -s c -(1-sd) L];
 * moment [0 0 -1 0 0 1]. */
static void test_skewed_link_stiffness(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const double kx = 3e6, ky = 2e5, kr = 7e4, sd = 0.3, c = 0.6, s = 0.8, L = 5.0;
    hs_options *ox = elastic(kx), *oy = elastic(ky), *oz = elastic(kr);
    hs_fe *fe = two_free_nodes(ctx, 3.0, 4.0);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    assert_true(def.shear_dist == 0.5); /* OpenSees' default */
    def.ndir = 3;
    def.dirs[0] = HS_FE_RZ; /* any order */
    def.dirs[1] = HS_FE_UX;
    def.dirs[2] = HS_FE_UY;
    def.mat_type[0] = def.mat_type[1] = def.mat_type[2] = "elastic";
    def.mat_opts[0] = oz;
    def.mat_opts[1] = ox;
    def.mat_opts[2] = oy;
    def.shear_dist = sd;
    assert_true(hs_fe_add_link(fe, "iso", 1, 2, &def) >= 0);
    finalize(ctx, fe);
    assert_int_equal(hs_fe_ndof(fe), 6);
    double K[36] = {0};
    assert_int_equal(hs_fe_initial_stiffness(fe, K), 0);
    const double a = sd * L, b = (1.0 - sd) * L;
    const double B[3][6] = {
        {-c, -s, 0.0, c, s, 0.0}, {s, -c, -a, -s, c, -b}, {0.0, 0.0, -1.0, 0.0, 0.0, 1.0}};
    const double k[3] = {kx, ky, kr};
    double kmax = 0.0;
    for (int i = 0; i < 36; i++) kmax = fmax(kmax, fabs(K[i]));
    for (int j = 0; j < 6; j++)
        for (int i = 0; i < 6; i++) {
            double e = 0.0;
            for (int d = 0; d < 3; d++) e += k[d] * B[d][i] * B[d][j];
            assert_true(fabs(K[j * 6 + i] - e) <= 1e-12 * kmax);
        }
    /* a few entries written out */
    assert_true(fabs(K[0] - (kx * c * c + ky * s * s)) <= 1e-12 * kmax);
    assert_true(fabs(K[2 * 6 + 0] - ky * s * (-a)) <= 1e-12 * kmax);
    assert_true(fabs(K[2 * 6 + 2] - (ky * a * a + kr)) <= 1e-12 * kmax);
    assert_true(fabs(K[5 * 6 + 2] - (ky * a * b - kr)) <= 1e-12 * kmax);
    assert_true(fabs(K[4 * 6 + 1] - (-(kx * s * s + ky * c * c))) <= 1e-12 * kmax);
    /* rigid rotation th about node 1 and a translation: no force */
    const double th = 1e-3, d[6] = {0.02, -0.01, th, 0.02 - 4.0 * th, -0.01 + 3.0 * th, th};
    double r[6] = {0};
    assert_int_equal(hs_fe_restore(fe, d, NULL, r, NULL, NULL), 0);
    for (int i = 0; i < 6; i++) assert_true(fabs(r[i]) <= 1e-12 * kmax * th);
    /* a pure local shear slip of node 2 (perpendicular to the chord): force ky delta along -y' */
    const double dl = 1e-3, d2[6] = {0, 0, 0, -s * dl, c * dl, 0};
    double r2[6] = {0};
    assert_int_equal(hs_fe_restore(fe, d2, NULL, r2, NULL, NULL), 0);
    assert_true(fabs(r2[3] - ky * dl * (-s)) <= 1e-12 * ky * dl);
    assert_true(fabs(r2[4] - ky * dl * c) <= 1e-12 * ky * dl);
    assert_true(fabs(r2[2] - (-a) * ky * dl) <= 1e-12 * ky * dl * L); /* moment at i */
    assert_true(fabs(r2[5] - (-b) * ky * dl) <= 1e-12 * ky * dl * L);
    hs_fe_destroy(&fe);
    hs_options_destroy(&ox);
    hs_options_destroy(&oy);
    hs_options_destroy(&oz);
    hs_ctx_destroy(&ctx);
}

/* orient [0, 1] on a horizontal link: local x is global Y, local y global -X. An axial spring
 * then stiffens uy only; a yielding Bouc-Wen link sees no deformation under a rigid motion. */
static void test_orient_and_rigid_motion(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_options *o = elastic(5e5), *bw = bouc_wen();
    hs_fe *fe = two_free_nodes(ctx, 2.0, 0.0);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    def.ndir = 1;
    def.dirs[0] = HS_FE_UX;
    def.mat_type[0] = "elastic";
    def.mat_opts[0] = o;
    def.has_orient = 1;
    def.orient[1] = 2.0; /* normalised */
    assert_true(hs_fe_add_link(fe, "up", 1, 2, &def) >= 0);
    def.has_orient = 0; /* along the chord: local y is global Y, shear couples rz */
    def.dirs[0] = HS_FE_UY;
    def.mat_type[0] = "bouc_wen";
    def.mat_opts[0] = bw;
    assert_true(hs_fe_add_link(fe, "bw", 1, 2, &def) >= 0);
    finalize(ctx, fe);
    double K[36] = {0};
    assert_int_equal(hs_fe_initial_stiffness(fe, K), 0);
    /* uy_i, uy_j: axial 5e5 of "up" plus the Bouc-Wen shear 2e7 */
    assert_true(fabs(K[1 * 6 + 1] - (5e5 + 2e7)) <= 1e-6);
    assert_true(fabs(K[4 * 6 + 1] + (5e5 + 2e7)) <= 1e-6);
    assert_true(K[0] == 0.0 && K[3 * 6 + 3] == 0.0); /* nothing along X */
    assert_true(fabs(K[2 * 6 + 1] - 2e7) <= 1e-6);   /* ky (-c)(-sd L), sd L = 1 */
    /* a large rigid rotation increment by increment: the Bouc-Wen force stays zero */
    for (int step = 1; step <= 5; step++) {
        const double th = 2e-3 * step, d[6] = {0, 0, th, 0, 2.0 * th, th};
        double r[6] = {0};
        assert_int_equal(hs_fe_restore(fe, d, NULL, r, NULL, NULL), 0);
        assert_int_equal(hs_fe_commit(fe), 0);
        assert_true(fabs(hs_material_stress(hs_fe_element_material(fe, 1))) <= 1e-9);
    }
    /* the shear deformation of a translation of node 2 in Y alone: yields (|f| near 1e5 N) */
    const double d[6] = {0, 0, 0, 0, 0.05, 0};
    double r[6] = {0};
    assert_int_equal(hs_fe_restore(fe, d, NULL, r, NULL, NULL), 0);
    const double q = hs_material_stress(hs_fe_element_material_at(fe, 1, 0));
    assert_true(q > 9e4 && q < 2e5);
    assert_true(fabs(r[4] - (q + 5e5 * 0.05)) <= 1e-9 * fabs(r[4]));
    assert_true(fabs(r[5] - (-1.0) * q) <= 1e-9 * q); /* -(1 - sd) L q */
    assert_null(hs_fe_element_material_at(fe, 1, 1));
    hs_fe_destroy(&fe);
    hs_options_destroy(&o);
    hs_options_destroy(&bw);
    hs_ctx_destroy(&ctx);
}

static hs_model *wrap(hs_ctx *ctx, hs_fe *fe)
{
    hs_model *m = NULL;
    const int n = hs_fe_ndof(fe);
    assert_int_equal(hs_model_create(ctx, n, &m), 0);
    double mass[16];
    hs_fe_mass(fe, mass);
    assert_int_equal(hs_model_set_mass(m, mass), 0);
    assert_int_equal(hs_model_attach_fe(m, fe), 0);
    return m;
}

static hs_model *one_dof(hs_ctx *ctx, int link, hs_options *o)
{
    const double mass = 5e4, mm[3] = {mass, 0.0, 0.0};
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_true(hs_fe_add_node(fe, 1, 1.0, 2.0) >= 0);
    assert_true(hs_fe_add_node(fe, 2, 1.0, 2.0) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, FIX_ALL), 0);
    assert_int_equal(hs_fe_fix(fe, 2, FIX_Y_RZ), 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, mm), 0);
    if (link) {
        hs_fe_link_def def;
        hs_fe_link_def_init(&def);
        def.ndir = 1;
        def.dirs[0] = HS_FE_UX;
        def.mat_type[0] = "bouc_wen";
        def.mat_opts[0] = o;
        assert_true(hs_fe_add_link(fe, "s", 1, 2, &def) >= 0);
    } else {
        assert_true(hs_fe_add_zero_length(fe, "s", 1, 2, HS_FE_UX, "bouc_wen", o) >= 0);
    }
    finalize(ctx, fe);
    return wrap(ctx, fe);
}

static void test_link_equals_zero_length(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_options *o = bouc_wen();
    static const char *const types[] = {"newmark", "alpha_os", "hht"};
    for (int t = 0; t < 3; t++) {
        hs_model *zl = one_dof(ctx, 0, o), *ln = one_dof(ctx, 1, o);
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
    hs_options_destroy(&o);
    hs_ctx_destroy(&ctx);
}

static void test_link_errors(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_options *o = elastic(1.0);
    hs_fe *fe = two_free_nodes(ctx, 1.0, 0.0);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    assert_true(hs_fe_add_link(fe, "l", 1, 2, &def) < 0);
    assert_non_null(strstr(hs_ctx_message(ctx), "needs 1 to 3 directions"));
    def.ndir = 2;
    def.dirs[0] = def.dirs[1] = HS_FE_UY;
    def.mat_type[0] = def.mat_type[1] = "elastic";
    def.mat_opts[0] = def.mat_opts[1] = o;
    assert_true(hs_fe_add_link(fe, "l", 1, 2, &def) < 0);
    assert_non_null(strstr(hs_ctx_message(ctx), "direction 2 is given twice"));
    def.dirs[1] = HS_FE_UX;
    def.shear_dist = 1.5;
    assert_true(hs_fe_add_link(fe, "l", 1, 2, &def) < 0);
    assert_non_null(strstr(hs_ctx_message(ctx), "shear_dist"));
    def.shear_dist = 0.5;
    def.mat_type[1] = "no_such_material";
    assert_true(hs_fe_add_link(fe, "l", 1, 2, &def) < 0);
    assert_non_null(strstr(hs_ctx_message(ctx), "element 'l': direction 2"));
    assert_int_equal(hs_fe_element_count(fe), 0);
    hs_fe_destroy(&fe);
    hs_options_destroy(&o);
    hs_ctx_destroy(&ctx);
}

/* OpenFresco's rate responses of a link (hs_fe_link_rates: EETwoNodeLink's ctrlVel, ctrlAccel,
 * daqVel): on the skewed link above (axial and shear, shear distance sd), vb = B v of the last
 * restore, ab = B a of the accelerations given, and the materials' rates over their velocity
 * factors (the shear's specimen scaled by 2.5: it takes 2.5 vb, and answers vb). */
static void test_rates(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const double sd = 0.3, c = 0.6, s = 0.8, L = 5.0;
    hs_options *ox = elastic(3e6), *oy = elastic(2e5);
    hs_fe *fe = two_free_nodes(ctx, 3.0, 4.0);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    def.ndir = 2;
    def.dirs[0] = HS_FE_UX, def.dirs[1] = HS_FE_UY;
    def.mat_type[0] = def.mat_type[1] = "elastic";
    def.mat_opts[0] = ox, def.mat_opts[1] = oy;
    def.shear_dist = sd;
    def.vel_factor[1] = 2.5;
    assert_true(hs_fe_add_link(fe, "link", 1, 2, &def) >= 0);
    finalize(ctx, fe);
    const double a = sd * L, b = (1.0 - sd) * L;
    const double B[2][6] = {{-c, -s, 0.0, c, s, 0.0}, {s, -c, -a, -s, c, -b}};
    const double d[6] = {0.01, -0.02, 0.003, 0.03, 0.01, -0.002},
                 v[6] = {0.4, -0.3, 0.05, -0.2, 0.7, 0.02},
                 acc[6] = {3.0, 1.5, -0.4, -2.5, 0.8, 0.3};
    double r[6] = {0}, vb[2], ab[2], rate[2];
    assert_int_equal(hs_fe_restore(fe, d, v, r, NULL, NULL), 0);
    assert_int_equal(hs_fe_link_rates(fe, 0, acc, vb, ab, rate), 2);
    for (int k = 0; k < 2; k++) {
        double bv = 0.0, ba = 0.0;
        for (int i = 0; i < 6; i++) bv += B[k][i] * v[i], ba += B[k][i] * acc[i];
        printf("direction %d: vb %.15g (B v %.15g), ab %.15g (B a %.15g), rate %.15g\n", k, vb[k],
               bv, ab[k], ba, rate[k]);
        assert_true(fabs(vb[k] - bv) <= 1e-14 * fabs(bv));
        assert_true(fabs(ab[k] - ba) <= 1e-14 * fabs(ba));
        assert_true(fabs(rate[k] - bv) <= 1e-14 * fabs(bv));
    }
    hs_fe_destroy(&fe);
    hs_options_destroy(&ox);
    hs_options_destroy(&oy);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skewed_link_stiffness),
        cmocka_unit_test(test_rates),
        cmocka_unit_test(test_orient_and_rigid_motion),
        cmocka_unit_test(test_link_equals_zero_length),
        cmocka_unit_test(test_link_errors),
    };
    return cmocka_run_group_tests_name("fe_link", tests, NULL, NULL);
}
