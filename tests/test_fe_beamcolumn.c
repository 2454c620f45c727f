/* OpenSees' beamIntegration rules and the 2-D displacement- and force-based beam-columns in their
 * basic system (src/fe/fe_beam_integration.c, fe_beamcolumn2d.c) against theory: the rules'
 * polynomial exactness, an elastic section's basic stiffness [EA/L; 4EI/L 2EI/L; 2EI/L 4EI/L] to
 * round-off for both formulations, and a force-based steel cantilever pushed to its plastic
 * moment whose sections stay in equilibrium with the basic forces (Spacone et al. 1996), with the
 * element iterations counted. */
#include "hs_test.h"

#include "fe/fe_beamcolumn.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static double integrate(const fe_beam_integration *b, int k)
{
    double s = 0.0;
    for (int i = 0; i < b->n; i++) s += b->w[i] * pow(b->xi[i], k);
    return s;
}

static void exact_to(fe_bi_kind kind, int n, int degree)
{
    fe_beam_integration b;
    assert_int_equal(fe_beam_integration_make(NULL, kind, n, 1.0, 0, 0, NULL, NULL, &b), 0);
    for (int k = 0; k <= degree; k++) {
        if (fabs(integrate(&b, k) - 1.0 / (k + 1)) > 1e-14)
            fprintf(stderr, "rule %d, %d points, x^%d: %.17g\n", kind, n, k, integrate(&b, k));
        HS_ASSERT_NEAR(integrate(&b, k), 1.0 / (k + 1), 1e-14);
    }
    /* and not one degree more (the rules are no better than their theory) */
    if (!(fabs(integrate(&b, degree + 1) - 1.0 / (degree + 2)) > 1e-13))
        fprintf(stderr, "rule %d, %d points: exact to x^%d too\n", kind, n, degree + 1);
    assert_true(fabs(integrate(&b, degree + 1) - 1.0 / (degree + 2)) > 1e-13);
}

static void test_integration_rules(void **state)
{
    (void)state;
    for (int n = 2; n <= 10; n++) {
        exact_to(FE_BI_LOBATTO, n, 2 * n - 3);
        exact_to(FE_BI_LEGENDRE, n, 2 * n - 1);
        exact_to(FE_BI_RADAU, n, 2 * n - 2);
    }
    exact_to(FE_BI_NEWTON_COTES, 2, 1);
    exact_to(FE_BI_NEWTON_COTES, 4, 3);
    exact_to(FE_BI_NEWTON_COTES, 5, 5);
    exact_to(FE_BI_NEWTON_COTES, 7, 7);
    fe_beam_integration b;
    /* Lobatto 3 is Simpson's rule; Radau 2 is OpenSees' table (0, 2/3; 1/4, 3/4) */
    assert_int_equal(fe_beam_integration_make(NULL, FE_BI_LOBATTO, 3, 1, 0, 0, 0, 0, &b), 0);
    HS_ASSERT_NEAR(b.xi[1], 0.5, 4e-16);
    HS_ASSERT_NEAR(b.w[0], 1.0 / 6.0, 4e-16);
    assert_int_equal(fe_beam_integration_make(NULL, FE_BI_RADAU, 2, 1, 0, 0, 0, 0, &b), 0);
    HS_ASSERT_NEAR(b.xi[0], 0.0, 0);
    HS_ASSERT_NEAR(b.xi[1], 2.0 / 3.0, 4e-16);
    HS_ASSERT_NEAR(b.w[1], 0.75, 4e-16);
    /* the hinge rules: weights sum to 1; HingeRadau and HingeRadauTwo integrate quadratics */
    for (int kind = FE_BI_HINGE_RADAU; kind <= FE_BI_HINGE_ENDPOINT; kind++) {
        assert_int_equal(
            fe_beam_integration_make(NULL, (fe_bi_kind)kind, 0, 3.0, 0.3, 0.2, 0, 0, &b), 0);
        HS_ASSERT_NEAR(integrate(&b, 0), 1.0, 1e-15);
        if (kind != FE_BI_HINGE_ENDPOINT) {
            HS_ASSERT_NEAR(integrate(&b, 1), 0.5, 1e-15);
            HS_ASSERT_NEAR(integrate(&b, 2), 1.0 / 3.0, 1e-15);
        }
        assert_int_equal(b.which[0], FE_BI_SEC_I);
        assert_int_equal(b.which[b.n - 1], FE_BI_SEC_J);
    }
    assert_int_equal(fe_beam_integration_make(NULL, FE_BI_HINGE_RADAU, 0, 1.0, 0.2, 0.1, 0, 0, &b),
                     HS_EINPUT);
    assert_int_equal(fe_beam_integration_make(NULL, FE_BI_LOBATTO, 1, 1.0, 0, 0, 0, 0, &b),
                     HS_EINPUT);
    assert_int_equal(fe_beam_integration_kind("HingeRadauTwo"), FE_BI_HINGE_RADAU_TWO);
}

static fe_section *elastic_section(double EA, double EI)
{
    fe_section *s = NULL;
    assert_int_equal(fe_section_create(NULL, 2, &s), 0);
    assert_int_equal(fe_section_set_elastic(s, EA, EI, 0, 0), 0);
    assert_int_equal(fe_section_finalize(s), 0);
    return s;
}

static void test_elastic_stiffness(void **state)
{
    (void)state;
    const double EA = 2e9, EI = 3e7, L = 3.5;
    const double ref[9] = {EA / L, 0, 0, 0, 4 * EI / L, 2 * EI / L, 0, 2 * EI / L, 4 * EI / L};
    const struct {
        fe_bi_kind kind;
        int n;
    } rules[] = {{FE_BI_LOBATTO, 3}, {FE_BI_LOBATTO, 5},      {FE_BI_LEGENDRE, 2},
                 {FE_BI_RADAU, 3},   {FE_BI_NEWTON_COTES, 3}, {FE_BI_HINGE_RADAU, 0}};
    for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++)
        for (int fb = 0; fb <= 1; fb++) {
            fe_beam_integration bi;
            assert_int_equal(
                fe_beam_integration_make(NULL, rules[r].kind, rules[r].n, L, 0.3, 0.4, 0, 0, &bi),
                0);
            fe_section *secs[FE_BI_MAX];
            for (int i = 0; i < bi.n; i++) secs[i] = elastic_section(EA, EI);
            fe_bc2d *e = NULL;
            assert_int_equal(fe_bc2d_create(NULL, fb, L, &bi, secs, &e), 0);
            const double v[3] = {1e-3, 2e-3, -5e-4};
            assert_int_equal(fe_bc2d_set_trial(e, v), 0);
            for (int k = 0; k < 9; k++)
                HS_ASSERT_NEAR(e->kb[k], ref[k], 1e-12 * 4 * EI / L + 1e-12 * EA / L * (k == 0));
            for (int a = 0; a < 3; a++) {
                const double qa = ref[a * 3] * v[0] + ref[a * 3 + 1] * v[1] + ref[a * 3 + 2] * v[2];
                HS_ASSERT_NEAR(e->q[a], qa, 1e-12 * fabs(qa) + 1e-6);
            }
            if (fb) assert_true(e->iters_last <= 2); /* linear: one iteration, one check */
            fe_bc2d_destroy(&e);
        }
}

static hs_material *steel(void)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "E", 200e9);
    hs_options_set_num(o, "epsyP", 250e6 / 200e9);
    hs_material *m = NULL;
    assert_int_equal(hs_material_create(NULL, "elastic_pp", o, &m), 0);
    hs_options_destroy(&o);
    return m;
}

static fe_section *steel_rect(double b, double h, int n)
{
    fe_section *s = NULL;
    assert_int_equal(fe_section_create(NULL, 2, &s), 0);
    double y[64], z[64], A[64];
    const int k = fe_patch_rect(NULL, n, 1, -h / 2, -b / 2, h / 2, b / 2, y, z, A, 64);
    for (int i = 0; i < k; i++)
        assert_int_equal(fe_section_add_fiber(s, y[i], z[i], A[i], steel()), 0);
    assert_int_equal(fe_section_finalize(s), 0);
    return s;
}

/* A cantilever (node I fixed) of a steel rectangle, force-based with 5 Lobatto points, pushed at
 * the tip: basic deformations v = [0, -D/L, th - D/L] with the tip rotation th found so that the
 * tip moment q2 vanishes (Newton on kb). The base moment tends to Mp = fy b h^2 / 4 (first yield
 * at 2/3 of it); every section's moment equals the linear distribution (xi - 1) q1 + xi q2 to the
 * element tolerance; the iterations per call are counted. */
static void test_force_based_cantilever(void **state)
{
    (void)state;
    const double b = 0.2, h = 0.4, L = 3.0, fy = 250e6, E = 200e9;
    const double Mp = fy * b * h * h / 4.0, My = fy * b * h * h / 6.0;
    fe_beam_integration bi;
    assert_int_equal(fe_beam_integration_make(NULL, FE_BI_LOBATTO, 5, L, 0, 0, 0, 0, &bi), 0);
    fe_section *secs[FE_BI_MAX];
    for (int i = 0; i < 5; i++) secs[i] = steel_rect(b, h, 40);
    fe_bc2d *e = NULL;
    assert_int_equal(fe_bc2d_create(NULL, 1, L, &bi, secs, &e), 0);
    /* tip deflection at My with the 40 layers' EI = E b h^3 / 12 (1 - 1/40^2) */
    const double Dy = My * L * L / (3.0 * E * b * h * h * h / 12.0 * (1.0 - 1.0 / 1600.0));
    double th = 0.0;
    const uint64_t allocs = hs_alloc_count();
    int steps = 0;
    for (int k = 1; k <= 60; k++, steps++) {
        const double D = Dy * 0.1 * k;
        for (int it = 0; it < 30; it++) { /* solve q2(th) = 0 */
            const double v[3] = {0.0, -D / L, th - D / L};
            assert_int_equal(fe_bc2d_set_trial(e, v), 0);
            if (fabs(e->q[2]) < 1e-9 * Mp) break;
            th -= e->q[2] / e->kb[8];
        }
        if (fabs(e->q[2]) >= 1e-9 * Mp) fe_bc2d_destroy(&e);
        assert_non_null(e);
        assert_int_equal(fe_bc2d_commit(e), 0);
        /* equilibrium of every section with the basic forces */
        for (int p = 0; p < 5; p++) {
            const double M = (bi.xi[p] - 1.0) * e->q[1] + bi.xi[p] * e->q[2];
            HS_ASSERT_NEAR(e->sec[p]->s[1], M, 1e-6 * Mp);
        }
        if (k == 5) HS_ASSERT_NEAR(-e->q[1], 0.5 * My, 1e-9 * My); /* elastic: linear in D */
    }
    assert_true(hs_alloc_count() == allocs);
    /* base moment (q1 is the moment at I in the basic system's sign) near Mp at 6 Dy */
    const double Mb = -e->q[1];
    print_message("    cantilever: base moment %.6g at 6 yield deflections (My %.6g, Mp %.6g); "
                  "element iterations: %ld in %ld calls, at most %d\n",
                  Mb, My, Mp, e->iters_total, e->calls, e->iters_max);
    assert_true(Mb > 0.97 * Mp && Mb < Mp);
    assert_true(e->iters_max <= 10 * e->max_iter);
    /* revert returns to the committed state */
    const double q1 = e->q[1];
    const double v[3] = {0.0, -6.5 * Dy / L, th - 6.5 * Dy / L};
    assert_int_equal(fe_bc2d_set_trial(e, v), 0);
    assert_int_equal(fe_bc2d_revert(e), 0);
    HS_ASSERT_NEAR(e->q[1], q1, 0);
    fe_bc2d_destroy(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integration_rules),
        cmocka_unit_test(test_elastic_stiffness),
        cmocka_unit_test(test_force_based_cantilever),
    };
    return cmocka_run_group_tests_name("fe_beamcolumn", tests, NULL, NULL);
}
