/* zeroLengthSection (src/fe/fe_zero_length_section.c) against the twoNodeLink (fe_link.c, its own
 * local axes code): a section of six elastic materials aggregated on P, Vy, Vz, T, My, Mz between
 * two coincident nodes, oriented by -orient x yp off the global axes, has the restoring force and
 * tangent of a link with the same materials on its directions 1..6 (axial, shears along local y
 * and z, torsion, moments about local y and z), 3-D and 2-D (P, Vy, Mz; directions 1, 2, 3), to
 * 1e-12 of the largest entry; a fiber section's zeroLengthSection carries the fibers' resultants
 * (axial force sum A E eps, moment E I kappa for the curvature given as the relative rotation);
 * a Steel02 fiber hinge cycled past yield continues bit for bit from a checkpoint. */
#include "hs_test.h"

#include "hysim/fe.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double K[6] = {3e6, 1.1e5, 2.3e5, 4e3, 7e4, 9e4}; /* P Vy Vz T My Mz */
/* OpenSees' section codes in that order (Mz 1, P 2, Vy 3, My 4, Vz 5, T 6) */
static const int CODE[6] = {2, 3, 5, 6, 4, 1};

static hs_fe *pair(int ndm, int link, hs_options *o[6])
{
    const int ndf = ndm == 3 ? 6 : 3, nd = ndm == 3 ? 6 : 3;
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(NULL, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, ndm, ndf), 0);
    const double c[3] = {1, 2, 0.5};
    assert_true(hs_fe_add_node_crd(fe, 1, c) >= 0);
    assert_true(hs_fe_add_node_crd(fe, 2, c) >= 0);
    const int fix[6] = {1, 1, 1, 1, 1, 1};
    const double m[6] = {1, 1, 1, 1, 1, 1};
    assert_int_equal(hs_fe_fix(fe, 1, fix), 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, m), 0);
    const double x3[3] = {0.6, 0.8, 0.3}, yp3[3] = {-0.5, 0.4, 1.0};
    const double x2[3] = {0.6, 0.8, 0.0}, yp2[3] = {-0.8, 0.6, 0.0};
    const double *x = ndm == 3 ? x3 : x2, *yp = ndm == 3 ? yp3 : yp2;
    /* 2-D: P, Vy, Mz only (materials 0, 1, 5) */
    const int use[6] = {0, 1, ndm == 3 ? 2 : 5, 3, 4, 5};
    if (link) {
        hs_fe_link_def d;
        hs_fe_link_def_init(&d); /* unit scale factors, no given stiffness */
        d.ndir = nd;
        d.has_orient = 1;
        d.has_yp = ndm == 3;
        d.shear_dist = d.shear_dist_z = 0.0;
        for (int k = 0; k < nd; k++) {
            d.dirs[k] = k;
            d.mat_type[k] = "elastic";
            d.mat_opts[k] = o[use[k]];
        }
        memcpy(d.orient, x, sizeof d.orient);
        memcpy(d.yp, yp, sizeof d.yp);
        assert_true(hs_fe_add_link(fe, "link", 1, 2, &d) >= 0);
    } else {
        hs_fe_section_def *s = NULL;
        assert_int_equal(hs_fe_section_def_create(NULL, ndm, &s), 0);
        for (int k = 0; k < nd; k++)
            assert_int_equal(hs_fe_section_def_uniaxial(s, CODE[use[k]], "elastic", o[use[k]]), 0);
        assert_true(hs_fe_add_zero_length_section(fe, "zls", 1, 2, s, x, yp) >= 0);
        hs_fe_section_def_destroy(&s);
    }
    assert_int_equal(hs_fe_finalize(fe), 0);
    return fe;
}

static void test_equals_link(void **state)
{
    (void)state;
    hs_options *o[6];
    for (int k = 0; k < 6; k++) {
        assert_int_equal(hs_options_create(&o[k]), 0);
        hs_options_set_num(o[k], "k", K[k]);
    }
    for (int ndm = 2; ndm <= 3; ndm++) {
        hs_fe *a = pair(ndm, 0, o), *b = pair(ndm, 1, o);
        const int n = hs_fe_ndof(a);
        assert_int_equal(n, ndm == 3 ? 6 : 3);
        const double d[6] = {0.01, -0.02, 0.015, 0.03, -0.01, 0.02};
        double ra[6] = {0}, rb[6] = {0}, Ka[36] = {0}, Kb[36] = {0};
        assert_int_equal(hs_fe_restore(a, d, NULL, ra, Ka, NULL), 0);
        assert_int_equal(hs_fe_restore(b, d, NULL, rb, Kb, NULL), 0);
        double kmax = 0.0, rmax = 0.0;
        for (int i = 0; i < n * n; i++) kmax = fmax(kmax, fabs(Kb[i]));
        for (int i = 0; i < n; i++) rmax = fmax(rmax, fabs(rb[i]));
        for (int i = 0; i < n * n; i++) HS_ASSERT_NEAR(Ka[i], Kb[i], 1e-12 * kmax);
        for (int i = 0; i < n; i++) HS_ASSERT_NEAR(ra[i], rb[i], 1e-12 * rmax);
        /* the section's deformations: P = x . du (x normalised) */
        double e[6];
        assert_int_equal(hs_fe_element_response(a, 0, HS_FE_DEFORMATION, e), 0);
        const double nx = ndm == 3 ? sqrt(0.36 + 0.64 + 0.09) : 1.0;
        const double P = (0.6 * d[0] + 0.8 * d[1] + (ndm == 3 ? 0.3 * d[2] : 0.0)) / nx;
        HS_ASSERT_NEAR(e[0], P, 1e-15);
        hs_fe_destroy(&a);
        hs_fe_destroy(&b);
    }
    for (int k = 0; k < 6; k++) hs_options_destroy(&o[k]);
}

/* A fiber section (two flanges of area Af at y = +-h/2, elastic E) in a 2-D zeroLengthSection
 * along the global axes: a relative rotation kappa and an axial displacement eps give
 * N = 2 Af E eps, Mz = 2 Af E (h/2)^2 kappa. */
static void test_fiber_resultants(void **state)
{
    (void)state;
    const double E = 2e11, Af = 0.01, h = 0.5;
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "k", E);
    hs_fe_section_def *s = NULL;
    assert_int_equal(hs_fe_section_def_create(NULL, 2, &s), 0);
    assert_int_equal(hs_fe_section_def_fiber(s, h / 2, 0, Af, "elastic", o), 0);
    assert_int_equal(hs_fe_section_def_fiber(s, -h / 2, 0, Af, "elastic", o), 0);
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(NULL, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 2, 3), 0);
    assert_true(hs_fe_add_node(fe, 1, 0, 0) >= 0);
    assert_true(hs_fe_add_node(fe, 2, 0, 0) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, (const int[]){1, 1, 1}), 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, (const double[]){1, 1, 1}), 0);
    assert_true(hs_fe_add_zero_length_section(fe, "zls", 1, 2, s, NULL, NULL) >= 0);
    assert_int_equal(hs_fe_finalize(fe), 0);
    const double eps = 1e-4, kappa = 2e-3;
    double r[3] = {0};
    assert_int_equal(hs_fe_restore(fe, (const double[]){eps, 0.0, kappa}, NULL, r, NULL, NULL), 0);
    HS_ASSERT_NEAR(r[0], 2 * Af * E * eps, 1e-12 * 2 * Af * E * eps);
    HS_ASSERT_NEAR(r[1], 0.0, 1e-6);
    HS_ASSERT_NEAR(r[2], 2 * Af * E * h * h / 4 * kappa, 1e-12 * 2 * Af * E * h * h / 4 * kappa);
    hs_fe_destroy(&fe);
    hs_fe_section_def_destroy(&s);
    hs_options_destroy(&o);
}

/* A 2-D hinge of Steel02 fibers (two flanges) cycled in rotation past yield with an axial
 * strain: its state saved halfway and loaded into a twin, the twin's restoring forces equal the
 * original's exactly from then on. */
static void test_checkpoint(void **state)
{
    (void)state;
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "fy", 250e6);
    hs_options_set_num(o, "E0", 200e9);
    hs_options_set_num(o, "b", 0.02);
    hs_fe_section_def *s = NULL;
    assert_int_equal(hs_fe_section_def_create(NULL, 2, &s), 0);
    for (int k = -2; k <= 2; k++)
        assert_int_equal(hs_fe_section_def_fiber(s, 0.1 * k, 0, 0.002, "steel02", o), 0);
    hs_fe *fe[2];
    for (int k = 0; k < 2; k++) {
        assert_int_equal(hs_fe_create(NULL, &fe[k]), 0);
        assert_int_equal(hs_fe_set_dimension(fe[k], 2, 3), 0);
        assert_true(hs_fe_add_node(fe[k], 1, 0, 0) >= 0);
        assert_true(hs_fe_add_node(fe[k], 2, 0, 0) >= 0);
        assert_int_equal(hs_fe_fix(fe[k], 1, (const int[]){1, 1, 1}), 0);
        assert_int_equal(hs_fe_add_mass(fe[k], 2, (const double[]){1, 1, 1}), 0);
        assert_true(hs_fe_add_zero_length_section(fe[k], "zls", 1, 2, s, (const double[]){0, 1, 0},
                                                  (const double[]){-1, 0, 0}) >= 0);
        assert_int_equal(hs_fe_finalize(fe[k]), 0);
    }
    double st[512];
    assert_true(hs_fe_state_size(fe[0]) < 512);
    for (int i = 1; i <= 40; i++) {
        const double d[3] = {0.0, 2e-4, 0.02 * sin(0.3 * i)};
        double r[2][3] = {{0}};
        for (int k = 0; k < (i > 20 ? 2 : 1); k++) {
            assert_int_equal(hs_fe_restore(fe[k], d, NULL, r[k], NULL, NULL), 0);
            assert_int_equal(hs_fe_commit(fe[k]), 0);
        }
        if (i > 20)
            for (int j = 0; j < 3; j++) assert_true(r[0][j] == r[1][j]);
        if (i == 20) {
            assert_int_equal(hs_fe_state_save(fe[0], st), 0);
            assert_int_equal(hs_fe_state_load(fe[1], st), 0);
        }
    }
    for (int k = 0; k < 2; k++) hs_fe_destroy(&fe[k]);
    hs_fe_section_def_destroy(&s);
    hs_options_destroy(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_equals_link),
        cmocka_unit_test(test_fiber_resultants),
        cmocka_unit_test(test_checkpoint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
