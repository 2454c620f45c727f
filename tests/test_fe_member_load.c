/* Member loads and moment releases of the frame model (src/fe/fe_member_load.c; OpenSees'
 * eleLoad -beamUniform / -beamPoint, elasticBeamColumn -release) against the textbook closed forms
 * of Euler-Bernoulli beams (any structural analysis text, e.g. Timoshenko & Gere's tables):
 *  - fixed-fixed beams: end forces of a uniform load w (R = wL/2, M = wL^2/12) and of a point load
 *    P at a (R_i = P b^2 (3a + b) / L^3, M_i = P a b^2 / L^2, M_j = P a^2 b / L^2), axial parts
 *    (wx L / 2 each end; Px b / L and Px a / L), for the elastic beam, the displacement-based and
 *    (uniform loads, integrated exactly by Lobatto 5) the force-based beam-column, 2-D and 3-D;
 *  - cantilevers: tip deflections w L^4 / 8EI, rotations w L^3 / 6EI, P a^2 (3L - a) / 6EI and
 *    P a^2 / 2EI, axial wx L^2 / 2EA and Px a / EA; the force-based element's support reactions
 *    under a point load, which equilibrium alone fixes;
 *  - releases: a beam fixed at i and pinned at j (propped) has k = 3EI/L^3 at j and the fixed-end
 *    moments w L^2 / 8 and P a b (L + b) / (2 L^2) at i, none at j; 3-D about local y too;
 *  - partial uniform loads (over a L .. b L) against the integrals of the point load's closed
 *    forms over the loaded part (Simpson's rule, exact for their cubics);
 *  - the load factor scales them all (a pattern's factor). */
#include "hs_test.h"

#include "hysim/fe.h"

#include <math.h>
#include <string.h>

static const double E = 30000.0, A = 20.0, I = 1400.0, Iy = 1200.0, G = 18000.0, L = 100.0;

enum { ELASTIC, DISP, FORCE };

/* n x n dense solve (column-major K, overwritten), b becomes x */
static void solve(int n, double *K, double *b)
{
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(K[c * n + r]) > fabs(K[c * n + p])) p = r;
        for (int j = 0; j < n; j++) {
            const double t = K[j * n + c];
            K[j * n + c] = K[j * n + p];
            K[j * n + p] = t;
        }
        const double t = b[c];
        b[c] = b[p];
        b[p] = t;
        for (int r = c + 1; r < n; r++) {
            const double f = K[c * n + r] / K[c * n + c];
            for (int j = c; j < n; j++) K[j * n + r] -= f * K[j * n + c];
            b[r] -= f * b[c];
        }
    }
    for (int r = n - 1; r >= 0; r--) {
        double s = b[r];
        for (int j = r + 1; j < n; j++) s -= K[j * n + r] * b[j];
        b[r] = s / K[r * n + r];
    }
}

static hs_fe_section_def *section(int ndm)
{
    hs_fe_section_def *d = NULL;
    assert_int_equal(hs_fe_section_def_create(NULL, ndm, &d), 0);
    assert_int_equal(hs_fe_section_def_elastic(d, E * A, E * I, E * Iy, G * (I + Iy)), 0);
    return d;
}

/* element `name` of `kind` from node a to node b (along x), its index */
static int element(hs_fe *fe, int ndm, int kind, const char *name, int a, int b,
                   const hs_fe_section_def *sec)
{
    const double vecxz[3] = {0, 0, 1};
    if (kind == ELASTIC && ndm == 2)
        return hs_fe_add_beam(fe, name, a, b, E, A, I, HS_FE_LINEAR, 0);
    if (kind == ELASTIC) {
        const hs_fe_section_3d s = {.E = E, .G = G, .A = A, .J = I + Iy, .Iy = Iy, .Iz = I};
        return hs_fe_add_beam_3d(fe, name, a, b, &s, vecxz, HS_FE_LINEAR, 0);
    }
    const hs_fe_beam_column_def def = {.force_based = kind == FORCE,
                                       .integration = kind == FORCE ? "Lobatto" : "Legendre",
                                       .npoints = kind == FORCE ? 5 : 3,
                                       .sec = {sec},
                                       .vecxz = {0, 0, 1}};
    return hs_fe_add_beam_column(fe, name, a, b, &def, HS_FE_LINEAR);
}

/* A model of nodes 1 (x = 0), 2 (x = L) and, for a fixed-fixed beam, 3 (x = 2L): the ends fixed,
 * node 2 free with mass on every DOF; element 0 from 1 to 2 and (fixed-fixed) element 1 from 3 to
 * 2, each with load ld (factor f). */
static hs_fe *model(int ndm, int kind, int fixed_fixed, const hs_fe_member_load *ld, double f,
                    int release, hs_fe_section_def *sec)
{
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(NULL, &fe), 0);
    if (ndm == 3) assert_int_equal(hs_fe_set_dimension(fe, 3, 6), 0);
    const int fix[6] = {1, 1, 1, 1, 1, 1};
    const double m[6] = {1, 1, 1, 1, 1, 1};
    for (int n = 1; n <= 2 + fixed_fixed; n++) {
        const double crd[3] = {(n - 1) * L, 0, 0};
        assert_true(hs_fe_add_node_crd(fe, n, crd) >= 0);
        if (n != 2) assert_int_equal(hs_fe_fix(fe, n, fix), 0);
    }
    assert_int_equal(hs_fe_add_mass(fe, 2, m), 0);
    for (int k = 0; k <= fixed_fixed; k++) {
        const int e = element(fe, ndm, kind, k ? "b" : "a", k ? 3 : 1, 2, sec);
        assert_int_equal(e, k);
        if (ld) assert_int_equal(hs_fe_add_member_load(fe, e, 7, ld), k);
        if (release) assert_int_equal(hs_fe_set_beam_release(fe, e, release, release), 0);
    }
    assert_int_equal(hs_fe_finalize(fe), 0);
    hs_fe_member_load_scale(fe, 7, f);
    return fe;
}

/* element 0's local end forces at zero displacement (its fixed-end forces) */
static void fixed_end(hs_fe *fe, double *loc)
{
    double d[6] = {0}, r[6] = {0};
    assert_int_equal(hs_fe_restore(fe, d, NULL, r, NULL, NULL), 0);
    assert_int_equal(hs_fe_commit(fe), 0);
    assert_int_equal(hs_fe_element_response(fe, 0, HS_FE_LOCAL_FORCE, loc), 0);
}

/* the cantilever's static displacements of node 2 (Newton from zero: K d = -r(d)) */
static void cantilever(hs_fe *fe, double *d)
{
    const int n = hs_fe_ndof(fe);
    memset(d, 0, (size_t)n * sizeof *d);
    for (int it = 0; it < 3; it++) {
        double r[6] = {0}, K[36] = {0};
        assert_int_equal(hs_fe_restore(fe, d, NULL, r, K, NULL), 0);
        for (int i = 0; i < n; i++) r[i] = -r[i];
        solve(n, K, r);
        for (int i = 0; i < n; i++) d[i] += r[i];
    }
    assert_int_equal(hs_fe_commit(fe), 0);
}

static void test_fixed_fixed(void **state)
{
    (void)state;
    const double w = -3.0, wx = 2.0, P = -200.0, Px = 150.0, xl = 0.4, a = xl * L, b = L - a;
    for (int ndm = 2; ndm <= 3; ndm++)
        for (int kind = ELASTIC; kind <= FORCE; kind++) {
            hs_fe_section_def *sec = section(ndm);
            const int o = ndm == 3 ? 6 : 3, mz = ndm == 3 ? 5 : 2; /* local layout */
            /* uniform (factor 0.5 on twice the load) */
            const hs_fe_member_load u = {0, 2 * w, 0, 2 * wx, 0, 0, 0, 0, 0, 0};
            hs_fe *fe = model(ndm, kind, 1, &u, 0.5, 0, sec);
            double loc[12];
            fixed_end(fe, loc);
            HS_ASSERT_NEAR(loc[1], -w * L / 2, 1e-9);
            HS_ASSERT_NEAR(loc[o + 1], -w * L / 2, 1e-9);
            HS_ASSERT_NEAR(loc[mz], -w * L * L / 12, 1e-8);
            HS_ASSERT_NEAR(loc[o + mz], w * L * L / 12, 1e-8);
            HS_ASSERT_NEAR(loc[0], -wx * L / 2, 1e-9);
            HS_ASSERT_NEAR(loc[o], -wx * L / 2, 1e-9);
            hs_fe_destroy(&fe);
            if (kind != FORCE) { /* point load (the force-based one: its rule's flexibility) */
                const hs_fe_member_load p = {1, P, 0, Px, xl, 0, 0, 0, 0, 0};
                fe = model(ndm, kind, 1, &p, 1.0, 0, sec);
                fixed_end(fe, loc);
                HS_ASSERT_NEAR(loc[1], -P * b * b * (3 * a + b) / (L * L * L), 1e-9);
                HS_ASSERT_NEAR(loc[o + 1], -P * a * a * (a + 3 * b) / (L * L * L), 1e-9);
                HS_ASSERT_NEAR(loc[mz], -P * a * b * b / (L * L), 1e-8);
                HS_ASSERT_NEAR(loc[o + mz], P * a * a * b / (L * L), 1e-8);
                HS_ASSERT_NEAR(loc[0], -Px * b / L, 1e-9);
                HS_ASSERT_NEAR(loc[o], -Px * a / L, 1e-9);
                hs_fe_destroy(&fe);
            }
            if (ndm == 3) { /* along local z: the moments about y turn the other way */
                const hs_fe_member_load uz = {0, 0, w, 0, 0, 0, 0, 0, 0, 0};
                fe = model(ndm, kind, 1, &uz, 1.0, 0, sec);
                fixed_end(fe, loc);
                HS_ASSERT_NEAR(loc[2], -w * L / 2, 1e-9);
                HS_ASSERT_NEAR(loc[4], w * L * L / 12, 1e-8);
                HS_ASSERT_NEAR(loc[10], -w * L * L / 12, 1e-8);
                hs_fe_destroy(&fe);
            }
            hs_fe_section_def_destroy(&sec);
        }
}

/* Simpson's rule over [a, b] with one interval pair: exact for the cubics below */
static double simpson(double (*g)(double, double), double len, double a, double b)
{
    return (b - a) / 6.0 * (g(a, len) + 4.0 * g(0.5 * (a + b), len) + g(b, len));
}
/* a unit point load at x on a fixed-fixed beam: the end moments and the reaction at i; on a
 * cantilever (fixed at 0): the tip deflection over EI */
static double fem_i(double x, double l)
{
    return x * (l - x) * (l - x) / (l * l);
}
static double fem_j(double x, double l)
{
    return x * x * (l - x) / (l * l);
}
static double reac_i(double x, double l)
{
    return (l - x) * (l - x) * (l + 2.0 * x) / (l * l * l);
}
static double tip(double x, double l)
{
    return x * x * (3.0 * l - x) / 6.0;
}

/* A partial uniform load w over a L .. b L (OpenSees' -beamUniform w 0 aL bL): the fixed-fixed
 * elastic beam's end forces and the cantilever's tip deflection equal the integrals of the point
 * load's closed forms over the loaded part; the force-based cantilever's support reactions. */
static void test_partial(void **state)
{
    (void)state;
    const double w = -3.0, a = 0.2 * L, b = 0.7 * L;
    for (int ndm = 2; ndm <= 3; ndm++) {
        const int o = ndm == 3 ? 6 : 3, mz = ndm == 3 ? 5 : 2;
        const hs_fe_member_load u = {.y = w, .z = ndm == 3 ? w : 0.0, .a = 0.2, .b = 0.7};
        hs_fe *fe = model(ndm, ELASTIC, 1, &u, 1.0, 0, NULL);
        double loc[12];
        fixed_end(fe, loc);
        HS_ASSERT_NEAR(loc[1], -w * simpson(reac_i, L, a, b), 1e-9);
        HS_ASSERT_NEAR(loc[mz], -w * simpson(fem_i, L, a, b), 1e-8);
        HS_ASSERT_NEAR(loc[o + mz], w * simpson(fem_j, L, a, b), 1e-8);
        if (ndm == 3) HS_ASSERT_NEAR(loc[4], w * simpson(fem_i, L, a, b), 1e-8);
        hs_fe_destroy(&fe);
        fe = model(ndm, ELASTIC, 0, &u, 1.0, 0, NULL);
        double d[6];
        cantilever(fe, d);
        HS_ASSERT_NEAR(d[1], w * simpson(tip, L, a, b) / (E * I), 1e-11);
        hs_fe_destroy(&fe);
        hs_fe_section_def *sec = section(ndm);
        fe = model(ndm, FORCE, 0, &u, 1.0, 0, sec);
        cantilever(fe, d);
        double R[12];
        assert_int_equal(hs_fe_element_response(fe, 0, HS_FE_GLOBAL_FORCE, R), 0);
        HS_ASSERT_NEAR(R[1], -w * (b - a), 1e-9);
        HS_ASSERT_NEAR(R[mz], -w * (b - a) * 0.5 * (a + b), 1e-7);
        hs_fe_destroy(&fe);
        /* a displacement-based beam-column takes none (OpenSees' DispBeamColumn ignores it) */
        fe = NULL;
        assert_int_equal(hs_fe_create(NULL, &fe), 0);
        if (ndm == 3) assert_int_equal(hs_fe_set_dimension(fe, 3, 6), 0);
        const double c0[3] = {0, 0, 0}, c1[3] = {L, 0, 0};
        assert_true(hs_fe_add_node_crd(fe, 1, c0) >= 0);
        assert_true(hs_fe_add_node_crd(fe, 2, c1) >= 0);
        const int e = element(fe, ndm, DISP, "d", 1, 2, sec);
        assert_int_equal(hs_fe_add_member_load(fe, e, 0, &u), HS_EINPUT);
        const hs_fe_member_load bad = {.y = w, .a = 0.7, .b = 0.2};
        const int e2 = element(fe, ndm, ELASTIC, "e", 1, 2, sec);
        assert_int_equal(hs_fe_add_member_load(fe, e2, 0, &bad), HS_EINPUT);
        hs_fe_destroy(&fe);
        hs_fe_section_def_destroy(&sec);
    }
}

/* the integral of w(x) g(x) over [a, b], w linear from w1 to w2 (composite Simpson, 400
 * intervals: the quartic's error far below the tolerances) */
static double weighted(double (*g)(double, double), double len, double a, double b, double w1,
                       double w2)
{
    const int n = 400;
    const double h = (b - a) / n;
    double s = 0.0;
    for (int k = 0; k <= n; k++) {
        const double x = a + k * h, w = w1 + (w2 - w1) * (x - a) / (b - a);
        s += (k == 0 || k == n ? 1.0 : k % 2 ? 4.0 : 2.0) * w * g(x, len);
    }
    return s * h / 3.0;
}

/* A 2-D load varying from w1 at a L to w2 at b L (OpenSees' trapezoid): the fixed-fixed elastic
 * beam's end forces equal the integrals of the point load's closed forms weighted by it. */
static void test_trapezoid(void **state)
{
    (void)state;
    const double w1 = -3.0, w2 = -1.0, a = 0.2 * L, b = 0.9 * L;
    const hs_fe_member_load u = {.y = w1, .a = 0.2, .b = 0.9, .vary = 1, .yb = w2};
    hs_fe *fe = model(2, ELASTIC, 1, &u, 1.0, 0, NULL);
    double loc[6];
    fixed_end(fe, loc);
    HS_ASSERT_NEAR(loc[1], -weighted(reac_i, L, a, b, w1, w2), 1e-9);
    HS_ASSERT_NEAR(loc[2], -weighted(fem_i, L, a, b, w1, w2), 1e-7);
    HS_ASSERT_NEAR(loc[5], weighted(fem_j, L, a, b, w1, w2), 1e-7);
    hs_fe_destroy(&fe);
}

static void test_cantilever(void **state)
{
    (void)state;
    const double w = -3.0, wx = 2.0, P = -200.0, Px = 150.0, xl = 0.6, a = xl * L;
    for (int ndm = 2; ndm <= 3; ndm++)
        for (int kind = ELASTIC; kind <= FORCE; kind++) {
            hs_fe_section_def *sec = section(ndm);
            const int uy = 1, rz = ndm == 3 ? 5 : 2;
            const hs_fe_member_load u = {0, w, ndm == 3 ? w : 0, wx, 0, 0, 0, 0, 0, 0};
            hs_fe *fe = model(ndm, kind, 0, &u, 1.0, 0, sec);
            double d[6];
            cantilever(fe, d);
            HS_ASSERT_NEAR(d[0], wx * L * L / (2 * E * A), 1e-12);
            HS_ASSERT_NEAR(d[uy], w * pow(L, 4) / (8 * E * I), 1e-11);
            HS_ASSERT_NEAR(d[rz], w * pow(L, 3) / (6 * E * I), 1e-13);
            if (ndm == 3) {
                HS_ASSERT_NEAR(d[2], w * pow(L, 4) / (8 * E * Iy), 1e-11);
                HS_ASSERT_NEAR(d[4], -w * pow(L, 3) / (6 * E * Iy), 1e-13);
            }
            hs_fe_destroy(&fe);
            const hs_fe_member_load p = {1, P, ndm == 3 ? P : 0, Px, xl, 0, 0, 0, 0, 0};
            fe = model(ndm, kind, 0, &p, 1.0, 0, sec);
            cantilever(fe, d);
            double R[12];
            assert_int_equal(hs_fe_element_response(fe, 0, HS_FE_GLOBAL_FORCE, R), 0);
            HS_ASSERT_NEAR(R[0], -Px, 1e-9); /* the support's reactions */
            HS_ASSERT_NEAR(R[1], -P, 1e-9);
            HS_ASSERT_NEAR(R[rz], -P * a, 1e-7);
            if (kind != FORCE) {
                HS_ASSERT_NEAR(d[0], Px * a / (E * A), 1e-12);
                HS_ASSERT_NEAR(d[uy], P * a * a * (3 * L - a) / (6 * E * I), 1e-11);
                HS_ASSERT_NEAR(d[rz], P * a * a / (2 * E * I), 1e-13);
            }
            hs_fe_destroy(&fe);
            hs_fe_section_def_destroy(&sec);
        }
}

static void test_release(void **state)
{
    (void)state;
    const double w = -3.0, P = -200.0, xl = 0.4, a = xl * L, b = L - a;
    for (int ndm = 2; ndm <= 3; ndm++) {
        const int o = ndm == 3 ? 6 : 3, mz = ndm == 3 ? 5 : 2;
        /* the propped cantilever's stiffness at j: 3EI/L^3 (3-D: about z and y) */
        hs_fe *fe = model(ndm, ELASTIC, 0, NULL, 1.0, 2, NULL);
        const int n = hs_fe_ndof(fe);
        double K[36] = {0};
        assert_int_equal(hs_fe_initial_stiffness(fe, K), 0);
        HS_ASSERT_NEAR(K[1 * n + 1], 3 * E * I / (L * L * L), 1e-12);
        HS_ASSERT_NEAR(K[mz * n + mz], 0.0, 0);
        if (ndm == 3) HS_ASSERT_NEAR(K[2 * n + 2], 3 * E * Iy / (L * L * L), 1e-12);
        hs_fe_destroy(&fe);
        /* released at i: the same stiffness at j, and a rotation at j of 3EI/L */
        fe = model(ndm, ELASTIC, 0, NULL, 1.0, 1, NULL);
        memset(K, 0, sizeof K);
        assert_int_equal(hs_fe_initial_stiffness(fe, K), 0);
        HS_ASSERT_NEAR(K[1 * n + 1], 3 * E * I / (L * L * L), 1e-12);
        HS_ASSERT_NEAR(K[mz * n + mz], 3 * E * I / L, 1e-9);
        hs_fe_destroy(&fe);
        /* fixed-end forces of the propped beam (fixed at i = node 1, pinned at j = node 2) */
        const hs_fe_member_load u = {0, w, 0, 0, 0, 0, 0, 0, 0, 0},
                                p = {1, P, 0, 0, xl, 0, 0, 0, 0, 0};
        fe = model(ndm, ELASTIC, 1, &u, 1.0, 2, NULL);
        double loc[12];
        fixed_end(fe, loc);
        HS_ASSERT_NEAR(loc[mz], -w * L * L / 8, 1e-8);
        HS_ASSERT_NEAR(loc[o + mz], 0.0, 1e-10);
        HS_ASSERT_NEAR(loc[1], -5 * w * L / 8, 1e-9);
        HS_ASSERT_NEAR(loc[o + 1], -3 * w * L / 8, 1e-9);
        hs_fe_destroy(&fe);
        fe = model(ndm, ELASTIC, 1, &p, 1.0, 2, NULL);
        fixed_end(fe, loc);
        HS_ASSERT_NEAR(loc[mz], -P * a * b * (L + b) / (2 * L * L), 1e-8);
        HS_ASSERT_NEAR(loc[o + mz], 0.0, 1e-10);
        hs_fe_destroy(&fe);
        /* both ends released: a simply supported member, the reactions only */
        fe = model(ndm, ELASTIC, 1, &u, 1.0, 3, NULL);
        fixed_end(fe, loc);
        HS_ASSERT_NEAR(loc[mz], 0.0, 1e-10);
        HS_ASSERT_NEAR(loc[1], -w * L / 2, 1e-9);
        hs_fe_destroy(&fe);
    }
    /* bad input */
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(NULL, &fe), 0);
    assert_true(hs_fe_add_node(fe, 1, 0, 0) >= 0);
    assert_true(hs_fe_add_node(fe, 2, L, 0) >= 0);
    const int e = hs_fe_add_beam(fe, "a", 1, 2, E, A, I, HS_FE_COROTATIONAL, 0);
    const hs_fe_member_load far = {1, P, 0, 0, 1.5, 0, 0, 0, 0, 0},
                            u = {0, w, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(hs_fe_add_member_load(fe, e, 0, &u), 0); /* 2-D corotational: taken */
    assert_int_equal(hs_fe_add_member_load(fe, e, 0, &far), HS_EINPUT); /* beyond node j */
    const int t = hs_fe_add_truss(fe, "t", 1, 2, E, A, HS_FE_LINEAR, 0);
    assert_int_equal(hs_fe_add_member_load(fe, t, 0, &u), HS_EINPUT); /* a truss */
    assert_int_equal(hs_fe_set_beam_release(fe, e, 4, 0), HS_EINPUT);
    hs_fe_destroy(&fe);
    /* 3-D corotational: refused */
    assert_int_equal(hs_fe_create(NULL, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 3, 6), 0);
    const double a3[3] = {0, 0, 0}, b3[3] = {L, 0, 0}, vz[3] = {0, 0, 1};
    assert_true(hs_fe_add_node_crd(fe, 1, a3) >= 0);
    assert_true(hs_fe_add_node_crd(fe, 2, b3) >= 0);
    const hs_fe_section_3d s3 = {.E = E, .G = G, .A = A, .J = I + Iy, .Iy = Iy, .Iz = I};
    const int e3 = hs_fe_add_beam_3d(fe, "c", 1, 2, &s3, vz, HS_FE_COROTATIONAL, 0);
    assert_int_equal(hs_fe_add_member_load(fe, e3, 0, &u), HS_EINPUT);
    hs_fe_destroy(&fe);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed_fixed), cmocka_unit_test(test_cantilever),
        cmocka_unit_test(test_release),     cmocka_unit_test(test_partial),
        cmocka_unit_test(test_trapezoid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
