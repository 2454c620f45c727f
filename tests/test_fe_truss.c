/* Trusses of a uniaxial material (hs_fe_add_truss_material, src/fe/fe_truss.c) against closed
 * forms: an elastic-perfectly-plastic bar pulled along its skewed chord yields at A fy, unloads
 * elastically to the residual -A fy, and ignores a transverse displacement (linear
 * transformation: OpenSees' Truss); the corotational bar (OpenSees' CorotTruss) carries no force
 * after a rigid rotation of 90 degrees and its tangent is the derivative of its force (central
 * differences); a 3-D bar yields along its chord; the recorders' basic force and strain; the
 * sections a truss may name (elastic: E A; one material on P or in every fiber). */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double A = 2.0, E = 200.0, EPSY = 0.01; /* fy = 2, yield force 4 */

static hs_options *epp(void)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "E", E);
    hs_options_set_num(o, "epsyP", EPSY);
    return o;
}

/* A bar from a fixed node 1 at the origin to a free node 2 at xj (ndm 2 or 3, translations
 * only): n = ndm dynamic DOFs, node 2's translations. */
static hs_fe *bar(hs_ctx *ctx, int ndm, const double xj[3], hs_fe_transf transf)
{
    hs_fe *fe = NULL;
    const int fixed[3] = {1, 1, 1};
    const double m[3] = {1.0, 1.0, 1.0}, origin[3] = {0.0, 0.0, 0.0};
    hs_options *o = epp();
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, ndm, ndm), 0);
    assert_true(hs_fe_add_node_crd(fe, 1, origin) >= 0);
    assert_true(hs_fe_add_node_crd(fe, 2, xj) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, fixed), 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, m), 0);
    const int k = hs_fe_add_truss_material(fe, "bar", 1, 2, A, transf, "elastic_pp", o);
    if (k < 0) fprintf(stderr, "truss: %s\n", hs_ctx_message(ctx));
    assert_int_equal(k, 0);
    hs_options_destroy(&o);
    const int rc = hs_fe_finalize(fe);
    if (rc) fprintf(stderr, "finalize: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    assert_int_equal(hs_fe_ndof(fe), ndm);
    return fe;
}

static void restore(hs_fe *fe, const double *d, double *r, double *K)
{
    const int n = hs_fe_ndof(fe);
    memset(r, 0, (size_t)n * sizeof *r);
    if (K) memset(K, 0, (size_t)(n * n) * sizeof *K);
    assert_int_equal(hs_fe_restore(fe, d, NULL, r, K, NULL), 0);
}

/* Along the chord (3, 4)/5 by delta: the force A s(delta / L) along it. */
static void test_linear_bar_yields_and_unloads(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const double xj[3] = {3.0, 4.0, 0.0}, c = 0.6, s = 0.8, L = 5.0;
    hs_fe *fe = bar(ctx, 2, xj, HS_FE_LINEAR);
    double r[2], K[4];
    /* half the yield strain: q = A E eps = 2, K = A E / L n n^T */
    double delta = 0.5 * EPSY * L, d[2] = {delta * c, delta * s};
    restore(fe, d, r, K);
    assert_true(fabs(r[0] - 2.0 * c) < 1e-12 && fabs(r[1] - 2.0 * s) < 1e-12);
    assert_true(fabs(K[0] - A * E / L * c * c) < 1e-12 && fabs(K[1] - A * E / L * c * s) < 1e-12);
    assert_true(fabs(K[3] - A * E / L * s * s) < 1e-12 && K[1] == K[2]);
    /* a transverse displacement does not stretch the bar (small displacements) */
    const double dt[2] = {d[0] + 0.3 * s, d[1] - 0.3 * c};
    restore(fe, dt, r, NULL);
    assert_true(fabs(r[0] - 2.0 * c) < 1e-12 && fabs(r[1] - 2.0 * s) < 1e-12);
    restore(fe, d, r, NULL);
    assert_int_equal(hs_fe_commit(fe), 0);
    /* twice the yield strain: A fy = 4, no axial stiffness */
    delta = 2.0 * EPSY * L;
    d[0] = delta * c;
    d[1] = delta * s;
    restore(fe, d, r, K);
    assert_true(fabs(r[0] - 4.0 * c) < 1e-12 && fabs(r[1] - 4.0 * s) < 1e-12);
    assert_true(fabs(K[0]) < 1e-12 && fabs(K[3]) < 1e-12);
    assert_int_equal(hs_fe_commit(fe), 0);
    double q, eps;
    assert_int_equal(hs_fe_element_response(fe, 0, HS_FE_BASIC_FORCE, &q), 0);
    assert_int_equal(hs_fe_element_response(fe, 0, HS_FE_STRAIN, &eps), 0);
    assert_true(fabs(q - 4.0) < 1e-12 && fabs(eps - 2.0 * EPSY) < 1e-15);
    /* back to zero: elastic unloading by E 2 epsy = 2 fy, the residual stress -fy */
    d[0] = d[1] = 0.0;
    restore(fe, d, r, NULL);
    assert_true(fabs(r[0] + 4.0 * c) < 1e-12 && fabs(r[1] + 4.0 * s) < 1e-12);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

/* Corotational: a rigid rotation strains nothing; the tangent is dr/dd. */
static void test_corotational_bar(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const double xj[3] = {3.0, 4.0, 0.0};
    hs_fe *fe = bar(ctx, 2, xj, HS_FE_COROTATIONAL);
    double r[2], K[4], rp[2], rm[2];
    const double turned[2] = {-4.0 - 3.0, 3.0 - 4.0}; /* node 2 from (3, 4) to (-4, 3) */
    restore(fe, turned, r, NULL);
    assert_true(fabs(r[0]) < 1e-12 && fabs(r[1]) < 1e-12);
    /* shortened and turned, elastic (strain -0.0052): central differences */
    const double d[2] = {-0.5, 0.3};
    restore(fe, d, r, K);
    const double dx = 3.0 + d[0], dy = 4.0 + d[1], Ln = sqrt(dx * dx + dy * dy);
    const double q = A * E * (Ln - 5.0) / 5.0;
    assert_true(fabs(r[0] - q * dx / Ln) < 1e-12 && fabs(r[1] - q * dy / Ln) < 1e-12);
    const double h = 1e-6;
    for (int j = 0; j < 2; j++) {
        double dp[2] = {d[0], d[1]}, dm[2] = {d[0], d[1]};
        dp[j] += h;
        dm[j] -= h;
        restore(fe, dp, rp, NULL);
        restore(fe, dm, rm, NULL);
        for (int i = 0; i < 2; i++)
            assert_true(fabs((rp[i] - rm[i]) / (2 * h) - K[j * 2 + i]) < 1e-6);
    }
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

/* 3-D: a bar along (1, 2, 2)/3 pulled past yield along its chord. */
static void test_bar_3d(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const double xj[3] = {1.0, 2.0, 2.0}, n[3] = {1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0};
    for (int t = 0; t < 2; t++) {
        hs_fe *fe = bar(ctx, 3, xj, t ? HS_FE_COROTATIONAL : HS_FE_LINEAR);
        double r[3], K[9], d[3];
        for (int i = 0; i < 3; i++) d[i] = 3.0 * EPSY * 3.0 * n[i]; /* 3 epsy */
        restore(fe, d, r, K);
        for (int i = 0; i < 3; i++) assert_true(fabs(r[i] - 4.0 * n[i]) < 1e-12);
        /* past yield: only the corotational geometric stiffness q / Ln (I - n n^T) */
        const double g = t ? 4.0 / (3.0 * (1.0 + 3.0 * EPSY)) : 0.0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                assert_true(fabs(K[j * 3 + i] - g * ((i == j) - n[i] * n[j])) < 1e-12);
        hs_fe_destroy(&fe);
    }
    hs_ctx_destroy(&ctx);
}

/* The section form (OpenSees' TrussSection): an elastic section's axial stiffness; one material
 * on P, or fibers of one material over their total area; fibers of two materials: neither. */
static void test_truss_sections(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_options *el = NULL, *pp = epp();
    assert_int_equal(hs_options_create(&el), 0);
    hs_options_set_num(el, "k", 3000.0);
    hs_fe_section_def *fib = NULL, *uni = NULL, *mixed = NULL;
    assert_int_equal(hs_fe_section_def_create(ctx, 2, &fib), 0);
    assert_int_equal(hs_fe_section_def_create(ctx, 2, &uni), 0);
    assert_int_equal(hs_fe_section_def_create(ctx, 2, &mixed), 0);
    for (int i = 0; i < 4; i++) { /* four fibers of 0.5 off the reference axis */
        assert_int_equal(hs_fe_section_def_fiber(fib, -1.0 - i, 0.0, 0.5, "elastic", el), 0);
        assert_int_equal(hs_fe_section_def_fiber(mixed, -1.0 - i, 0.0, 0.5,
                                                 i ? "elastic" : "elastic_pp", i ? el : pp),
                         0);
    }
    assert_int_equal(hs_fe_section_def_uniaxial(uni, 2 /* P */, "elastic_pp", pp), 0);
    double EA = 0.0, area = 0.0;
    const char *type = NULL;
    const hs_options *opts = NULL;
    assert_int_equal(hs_fe_section_def_axial(fib, &EA), 1);
    assert_true(fabs(EA - 3000.0 * 2.0) < 1e-9); /* E sum A, about the centroid */
    assert_int_equal(hs_fe_section_def_axial_material(fib, &type, &opts, &area), 1);
    assert_true(!strcmp(type, "elastic") && opts == el && area == 2.0);
    assert_int_equal(hs_fe_section_def_axial(uni, &EA), 0);
    assert_int_equal(hs_fe_section_def_axial_material(uni, &type, &opts, &area), 1);
    assert_true(!strcmp(type, "elastic_pp") && opts == pp && area == 1.0);
    assert_int_equal(hs_fe_section_def_axial(mixed, &EA), 0);
    assert_int_equal(hs_fe_section_def_axial_material(mixed, &type, &opts, &area), 0);
    hs_fe_section_def_destroy(&fib);
    hs_fe_section_def_destroy(&uni);
    hs_fe_section_def_destroy(&mixed);
    hs_options_destroy(&el);
    hs_options_destroy(&pp);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear_bar_yields_and_unloads),
        cmocka_unit_test(test_corotational_bar),
        cmocka_unit_test(test_bar_3d),
        cmocka_unit_test(test_truss_sections),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
