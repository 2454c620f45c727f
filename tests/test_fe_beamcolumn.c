/* OpenSees' beamIntegration rules and the 2-D displacement- and force-based beam-columns in their
 * basic system (src/fe/fe_beam_integration.c, fe_beamcolumn2d.c) against theory: the rules'
 * polynomial exactness, an elastic section's basic stiffness [EA/L; 4EI/L 2EI/L; 2EI/L 4EI/L] to
 * round-off for both formulations, and a force-based steel cantilever pushed to its plastic
 * moment whose sections stay in equilibrium with the basic forces (Spacone et al. 1996), with the
 * element iterations counted. */
#include "hs_test.h"

#include "fe/fe_beamcolumn.h"
#include "hysim/fe.h"

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
            assert_int_equal(fe_bc2d_create(NULL, fb, L, &bi, secs, NULL, &e), 0);
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
    const int k = hs_fe_patch_rect(NULL, n, 1, -h / 2, -b / 2, h / 2, b / 2, y, z, A, 64);
    for (int i = 0; i < k; i++)
        assert_int_equal(fe_section_add_fiber(s, y[i], z[i], A[i], steel()), 0);
    assert_int_equal(fe_section_finalize(s), 0);
    return s;
}

/* A force-based element of length L: 5 Lobatto points, each a b x h steel rectangle of 40
 * layers. */
static fe_bc2d *steel_force_based(double b, double h, double L, fe_beam_integration *bi)
{
    assert_int_equal(fe_beam_integration_make(NULL, FE_BI_LOBATTO, 5, L, 0, 0, 0, 0, bi), 0);
    fe_section *secs[FE_BI_MAX];
    for (int i = 0; i < 5; i++) secs[i] = steel_rect(b, h, 40);
    fe_bc2d *e = NULL;
    assert_int_equal(fe_bc2d_create(NULL, 1, L, bi, secs, NULL, &e), 0);
    return e;
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
    fe_bc2d *e = steel_force_based(b, h, L, &bi);
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
    /* the same deformations again: the state stays, to the bit, with no iteration (OpenSees'
     * update returns when the increment's norm is within DBL_EPSILON) */
    const double q_same[3] = {e->q[0], e->q[1], e->q[2]};
    const double v_same[3] = {e->v[0], e->v[1], e->v[2]};
    const long calls = e->calls;
    assert_int_equal(fe_bc2d_set_trial(e, v_same), 0);
    assert_int_equal(e->iters_last, 0);
    assert_true(e->calls == calls);
    for (int a = 0; a < 3; a++) assert_true(e->q[a] == q_same[a]);
    /* revert returns to the committed state */
    const double q1 = e->q[1];
    const double v[3] = {0.0, -6.5 * Dy / L, th - 6.5 * Dy / L};
    assert_int_equal(fe_bc2d_set_trial(e, v), 0);
    assert_int_equal(fe_bc2d_revert(e), 0);
    HS_ASSERT_NEAR(e->q[1], q1, 0);
    fe_bc2d_destroy(&e);
}

/* A force-based cantilever pushed past yield (3 yield rotations at I, the end J free to turn),
 * then given the same basic deformations again: no element iteration, the same forces and
 * tangent to the bit (OpenSees' ForceBeamColumn2d::update returns when |dv| <= DBL_EPSILON). An
 * extra iteration would move the sections by their residual strains and, in a state accepted
 * unconverged (Example3.2.tcl's ModifiedNewton step), turn yielding fibres elastic: the tangent
 * checked here is the softened one, below 0.8 of the initial. */
static void test_force_based_same_trial(void **state)
{
    (void)state;
    const double b = 0.2, h = 0.4, L = 3.0;
    fe_beam_integration bi;
    fe_bc2d *e = steel_force_based(b, h, L, &bi);
    double k0[9];
    assert_int_equal(fe_bc2d_initial_stiffness(e, k0), 0);
    const double My = 250e6 * b * h * h / 6.0, th_y = My / k0[4]; /* the rotation at first yield */
    for (int k = 1; k <= 30; k++) {
        const double v[3] = {1e-5 * k, 0.1 * th_y * k, -0.05 * th_y * k};
        assert_int_equal(fe_bc2d_set_trial(e, v), 0);
        assert_int_equal(fe_bc2d_commit(e), 0);
    }
    double q[3], kb[9];
    memcpy(q, e->q, sizeof q);
    memcpy(kb, e->kb, sizeof kb);
    const long calls = e->calls, iters = e->iters_total;
    assert_int_equal(fe_bc2d_set_trial(e, e->v), 0);
    assert_true(e->calls == calls && e->iters_total == iters); /* no state determination ran */
    for (int a = 0; a < 3; a++) assert_true(e->q[a] == q[a]);
    for (int a = 0; a < 9; a++) assert_true(e->kb[a] == kb[a]);
    print_message("    past yield: kb11 %.6g (initial %.6g)\n", e->kb[4], k0[4]);
    assert_true(e->kb[4] < 0.8 * k0[4]);
    fe_bc2d_destroy(&e);
}

/* A portal frame (columns 3.5 m, beam 6 m, masses on all DOFs of the top nodes so nothing is
 * condensed) whose members are beam-columns with an elastic section, force- or
 * displacement-based: the restoring force and tangent equal those of the elastic beams at a
 * large sway, for the Linear, PDelta and Corotational transformations (1e-10 of the largest
 * entry). */
static hs_fe *portal(int kind, hs_fe_transf transf)
{
    const double E = 2e11, A = 0.01, I = 2e-4;
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(NULL, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 2, 3), 0);
    const double xy[4][2] = {{0, 0}, {6, 0}, {0, 3.5}, {6, 3.5}};
    const int fix[3] = {1, 1, 1};
    const double m[3] = {1e3, 1e3, 10.0};
    for (int n = 0; n < 4; n++) assert_true(hs_fe_add_node(fe, n + 1, xy[n][0], xy[n][1]) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, fix), 0);
    assert_int_equal(hs_fe_fix(fe, 2, fix), 0);
    assert_int_equal(hs_fe_add_mass(fe, 3, m), 0);
    assert_int_equal(hs_fe_add_mass(fe, 4, m), 0);
    const int con[3][2] = {{1, 3}, {2, 4}, {3, 4}};
    hs_fe_section_def *d = NULL;
    assert_int_equal(hs_fe_section_def_create(NULL, 2, &d), 0);
    assert_int_equal(hs_fe_section_def_elastic(d, E * A, E * I, 0, 0), 0);
    for (int k = 0; k < 3; k++) {
        if (kind == 0) {
            assert_true(hs_fe_add_beam(fe, NULL, con[k][0], con[k][1], E, A, I, transf, 0) >= 0);
        } else {
            const hs_fe_beam_column_def def = {
                .force_based = kind == 1, .integration = "Lobatto", .npoints = 5, .sec = {d}};
            assert_true(hs_fe_add_beam_column(fe, NULL, con[k][0], con[k][1], &def, transf) >= 0);
        }
    }
    hs_fe_section_def_destroy(&d);
    assert_int_equal(hs_fe_finalize(fe), 0);
    return fe;
}

static void test_portal_elastic(void **state)
{
    (void)state;
    for (int t = HS_FE_LINEAR; t <= HS_FE_COROTATIONAL; t++) {
        hs_fe *ref = portal(0, (hs_fe_transf)t);
        const int n = hs_fe_ndof(ref);
        assert_int_equal(n, 6);
        double d[6] = {0.07, -0.004, 0.01, 0.069, 0.003, 0.012};
        double r0[6] = {0}, K0[36] = {0};
        assert_int_equal(hs_fe_restore(ref, d, NULL, r0, K0, NULL), 0);
        double kmax = 0.0;
        for (int i = 0; i < 36; i++) kmax = fmax(kmax, fabs(K0[i]));
        for (int kind = 1; kind <= 2; kind++) {
            hs_fe *fe = portal(kind, (hs_fe_transf)t);
            double r[6] = {0}, K[36] = {0}, Ki[36] = {0}, Ki0[36] = {0};
            assert_int_equal(hs_fe_restore(fe, d, NULL, r, K, NULL), 0);
            for (int i = 0; i < 6; i++) HS_ASSERT_NEAR(r[i], r0[i], 1e-10 * kmax * 0.07);
            for (int i = 0; i < 36; i++) HS_ASSERT_NEAR(K[i], K0[i], 1e-10 * kmax);
            assert_int_equal(hs_fe_initial_stiffness(fe, Ki), 0);
            assert_int_equal(hs_fe_initial_stiffness(ref, Ki0), 0);
            for (int i = 0; i < 36; i++) HS_ASSERT_NEAR(Ki[i], Ki0[i], 1e-10 * kmax);
            assert_false(hs_fe_is_linear(fe));
            hs_fe_destroy(&fe);
        }
        hs_fe_destroy(&ref);
    }
}

/* A steel fiber cantilever as a frame element (force-based, 5 Lobatto points, Corotational):
 * pushed at the tip in committed steps, its checkpoint state saved halfway and loaded into a twin
 * continues bit for bit; revert returns the committed force. */
static void test_frame_checkpoint(void **state)
{
    (void)state;
    hs_fe *fe[2];
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "fy", 250e6);
    hs_options_set_num(o, "E0", 200e9);
    hs_options_set_num(o, "b", 0.02);
    hs_fe_section_def *d = NULL;
    assert_int_equal(hs_fe_section_def_create(NULL, 2, &d), 0);
    double y[40], z[40], A[40];
    const int nf = hs_fe_patch_rect(NULL, 20, 1, -0.2, -0.1, 0.2, 0.1, y, z, A, 40);
    for (int i = 0; i < nf; i++)
        assert_int_equal(hs_fe_section_def_fiber(d, y[i], z[i], A[i], "steel02", o), 0);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(hs_fe_create(NULL, &fe[k]), 0);
        assert_int_equal(hs_fe_set_dimension(fe[k], 2, 3), 0);
        assert_true(hs_fe_add_node(fe[k], 1, 0, 0) >= 0);
        assert_true(hs_fe_add_node(fe[k], 2, 0, 3) >= 0);
        assert_int_equal(hs_fe_fix(fe[k], 1, (const int[]){1, 1, 1}), 0);
        assert_int_equal(hs_fe_add_mass(fe[k], 2, (const double[]){1e3, 1e3, 1.0}), 0);
        const hs_fe_beam_column_def def = {
            .force_based = 1, .integration = "Lobatto", .npoints = 5, .sec = {d}};
        assert_true(hs_fe_add_beam_column(fe[k], "col", 1, 2, &def, HS_FE_COROTATIONAL) >= 0);
        assert_int_equal(hs_fe_finalize(fe[k]), 0);
    }
    double st[4096];
    assert_true(hs_fe_state_size(fe[0]) < 4096);
    for (int i = 1; i <= 40; i++) {
        const double dd[3] = {0.004 * i * sin(0.3 * i), -1e-4 * i, 0.002 * i * sin(0.3 * i)};
        double r[2][3] = {{0}};
        for (int k = 0; k < (i > 20 ? 2 : 1); k++) {
            assert_int_equal(hs_fe_restore(fe[k], dd, NULL, r[k], NULL, NULL), 0);
            assert_int_equal(hs_fe_commit(fe[k]), 0);
        }
        if (i > 20)
            for (int j = 0; j < 3; j++) assert_true(r[0][j] == r[1][j]);
        if (i == 20) {
            assert_int_equal(hs_fe_state_save(fe[0], st), 0);
            assert_int_equal(hs_fe_state_load(fe[1], st), 0);
        }
    }
    /* a trial far away, reverted: back at the last committed displacement, the same force */
    const double r_c = hs_fe_committed_force(fe[0])[0];
    const double d40[3] = {0.004 * 40 * sin(12.0), -4e-3, 0.08 * sin(12.0)};
    double r[3] = {0};
    assert_int_equal(hs_fe_restore(fe[0], (const double[]){0.3, 0, 0}, NULL, r, NULL, NULL), 0);
    assert_int_equal(hs_fe_revert(fe[0]), 0);
    memset(r, 0, sizeof r);
    assert_int_equal(hs_fe_restore(fe[0], d40, NULL, r, NULL, NULL), 0);
    HS_ASSERT_NEAR(r[0], r_c, 1e-9 * fabs(r_c));
    long total, calls;
    int largest;
    hs_fe_beam_column_iterations(fe[0], &total, &largest, &calls);
    print_message("    fiber cantilever: %ld element iterations in %ld calls, at most %d\n", total,
                  calls, largest);
    assert_true(calls > 0 && largest >= 1);
    for (int k = 0; k < 2; k++) hs_fe_destroy(&fe[k]);
    hs_fe_section_def_destroy(&d);
    hs_options_destroy(&o);
}

/* A free force-based elastic member (5 Lobatto points, Linear and PDelta) along each global axis
 * both ways and inclined (0.6, 0.8): its stiffness and restoring force equal the textbook ones
 * turned to the global axes here, K = R^T k R with k the local [EA/L; 12EI/L^3, 6EI/L^2, 4EI/L,
 * 2EI/L] matrix plus N/L on the transverse translations (N = EA (u_j - u_i) / L, PDelta only),
 * r = K u, to 1e-12 of the largest entry (the element's own turn takes a shortcut along the
 * axes). */
static void test_axis_turn(void **state)
{
    (void)state;
    const double E = 2e11, A = 0.01, I = 2e-4, L = 4.0;
    const double dirs[5][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {0.6, 0.8}};
    const double ea = E * A / L, k12 = 12 * E * I / (L * L * L), k6 = 6 * E * I / (L * L),
                 k4 = 4 * E * I / L, k2 = 2 * E * I / L;
    const double kl[6][6] = {{ea, 0, 0, -ea, 0, 0},       {0, k12, k6, 0, -k12, k6},
                             {0, k6, k4, 0, -k6, k2},     {-ea, 0, 0, ea, 0, 0},
                             {0, -k12, -k6, 0, k12, -k6}, {0, k6, k2, 0, -k6, k4}};
    const double u[6] = {2e-5, -1e-5, 1e-5, 1e-4, -2e-4, 3e-5};
    hs_fe_section_def *d = NULL;
    assert_int_equal(hs_fe_section_def_create(NULL, 2, &d), 0);
    assert_int_equal(hs_fe_section_def_elastic(d, E * A, E * I, 0, 0), 0);
    for (int t = HS_FE_LINEAR; t <= HS_FE_PDELTA; t++)
        for (int m = 0; m < 5; m++) {
            const double c = dirs[m][0], s = dirs[m][1];
            hs_fe *fe = NULL;
            assert_int_equal(hs_fe_create(NULL, &fe), 0);
            assert_int_equal(hs_fe_set_dimension(fe, 2, 3), 0);
            assert_true(hs_fe_add_node(fe, 1, 1.0, 2.0) >= 0);
            assert_true(hs_fe_add_node(fe, 2, 1.0 + c * L, 2.0 + s * L) >= 0);
            for (int n = 1; n <= 2; n++)
                assert_int_equal(hs_fe_add_mass(fe, n, (const double[]){1e3, 1e3, 10.0}), 0);
            const hs_fe_beam_column_def def = {
                .force_based = 1, .integration = "Lobatto", .npoints = 5, .sec = {d}};
            assert_true(hs_fe_add_beam_column(fe, NULL, 1, 2, &def, (hs_fe_transf)t) >= 0);
            assert_int_equal(hs_fe_finalize(fe), 0);
            assert_int_equal(hs_fe_ndof(fe), 6);
            double R[6][6] = {{0}}; /* local = R global */
            for (int n = 0; n < 6; n += 3) {
                R[n][n] = R[n + 1][n + 1] = c;
                R[n][n + 1] = s;
                R[n + 1][n] = -s;
                R[n + 2][n + 2] = 1.0;
            }
            double k[6][6];
            memcpy(k, kl, sizeof k);
            if (t == HS_FE_PDELTA) {
                const double N = ea * ((c * u[3] + s * u[4]) - (c * u[0] + s * u[1]));
                k[1][1] += N / L;
                k[4][4] += N / L;
                k[1][4] -= N / L;
                k[4][1] -= N / L;
            }
            double K0[36] = {0}, kmax = 0.0;
            for (int i = 0; i < 6; i++)
                for (int j = 0; j < 6; j++) {
                    for (int a = 0; a < 6; a++)
                        for (int b = 0; b < 6; b++) K0[j * 6 + i] += R[a][i] * k[a][b] * R[b][j];
                    kmax = fmax(kmax, fabs(K0[j * 6 + i]));
                }
            double r[6] = {0}, K[36] = {0};
            assert_int_equal(hs_fe_restore(fe, u, NULL, r, K, NULL), 0);
            for (int i = 0; i < 36; i++) HS_ASSERT_NEAR(K[i], K0[i], 1e-12 * kmax);
            for (int i = 0; i < 6; i++) {
                double ri = 0.0;
                for (int j = 0; j < 6; j++) ri += K0[j * 6 + i] * u[j];
                HS_ASSERT_NEAR(r[i], ri, 1e-12 * kmax * 2e-4);
            }
            hs_fe_destroy(&fe);
        }
    hs_fe_section_def_destroy(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integration_rules),
        cmocka_unit_test(test_elastic_stiffness),
        cmocka_unit_test(test_force_based_cantilever),
        cmocka_unit_test(test_force_based_same_trial),
        cmocka_unit_test(test_portal_elastic),
        cmocka_unit_test(test_frame_checkpoint),
        cmocka_unit_test(test_axis_turn),
    };
    return cmocka_run_group_tests_name("fe_beamcolumn", tests, NULL, NULL);
}
