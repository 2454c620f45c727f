/* Element mass in 1-D and 3-D and masses on rigid slaves (docs/fe_model.md, "Mass"):
 *  - the 12 x 12 consistent mass of a 3-D beam in its local axes equals the textbook matrix
 *    (Przemieniecki 1968, Theory of Matrix Structural Analysis, section 11.3, written out below
 *    in fractions) with the torsional term rho L J / (3 A), as OpenSees' ElasticBeam3d; the
 *    lumped one is rho L / 2 on the translations and nothing on the rotations;
 *  - a skewed beam with a skewed vecxz: M_global = T^T M_local T, T = blockdiag(R, R, R, R) with
 *    R's rows the local axes of OpenSees' LinearCrdTransf3d, to 1e-12; the corotational
 *    transformation gives the same matrix (OpenSees turns the mass with the initial axes);
 *  - a 3-D cantilever of n consistent-mass beams: the first bending frequency in each plane
 *    converges to 1.8751^2 sqrt(E I / (m L^4)) from above as h^4, and the first torsional and
 *    axial ones to pi / (2 L) sqrt(G A / rho) and pi / (2 L) sqrt(E A / rho) from above as h^2
 *    (OpenSees' torsional inertia is rho J / A per length: the polar moment taken as J);
 *  - trusses: consistent rho L / 6 [2 1; 1 2] in each direction at any angle in ndm 3 ndf 3 and
 *    ndm 2 ndf 2; a 1-D bar of n consistent trusses converges to the rod's first frequency from
 *    above, with lumped mass from below;
 *  - masses on the slaves of a rigid diaphragm (with lever arms): the master's mass block is
 *    sum m_k T_k^T T_k (its rotation couples to its translations), the periods equal those of
 *    the same total mass and rotational inertia on a master at the centre of mass (1e-10), and
 *    the sparse path's M equals the dense M entry for entry (a slave with no element included),
 *    and four integrators (Newmark, central difference, alpha-OS, CR) give the same history on
 *    the sparse and the dense path under a ground motion loaded as -M iota ag with the full M
 *    (1e-9 of the peak);
 *  - a 3-D cantilever of 90 consistent-mass beams (540 DOFs, above HS_MODES_DENSE_MAX): the
 *    sparse eigen-analysis (ARPACK on the sparse K0 and the full sparse M; it took the diagonal
 *    before, 35 % off) gives the first bending frequencies in both planes to 1e-7 and the dense
 *    solver's lowest four to 2e-6 (the dense one loses digits to the conditioning);
 *  - the same 3-D frame (consistent and lumped beams and trusses, lumped element and nodal masses
 *    on rigid slaves) from an OpenSees Tcl script and from YAML: the same full mass matrix (to
 *    1e-14: the script's lumped element mass reaches the nodes as nodal mass, the YAML's through
 *    the element) and the same stiffness bit for bit. */
#include "hs_frame_dense.h"
#include "hs_output.h"
#include "hs_test.h"
#include "hs_tcl_def.h"

#include "hysim/fe.h"
#include "hysim/integrator.h"
#include "hysim/sparse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;
static const int FIX6[6] = {1, 1, 1, 1, 1, 1};

static void finalize(hs_ctx *ctx, hs_fe *fe)
{
    const int rc = hs_fe_finalize(fe);
    if (rc) fprintf(stderr, "finalize: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
}

static hs_fe *model(hs_ctx *ctx, int ndm, int ndf)
{
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, ndm, ndf), 0);
    return fe;
}

static void node(hs_fe *fe, int id, const double *crd, const int *fix, const double *m)
{
    assert_true(hs_fe_add_node_crd(fe, id, crd) >= 0);
    if (fix) assert_int_equal(hs_fe_fix(fe, id, fix), 0);
    if (m) assert_int_equal(hs_fe_add_mass(fe, id, m), 0);
}

/* The textbook consistent mass of a 3-D beam in local axes over [u v w tx ty tz]_1,2 (12 x 12,
 * column-major), m = rho L, torsion with the polar moment J / A. */
static void textbook_mass(double rho, double L, double J, double A, double M[144])
{
    memset(M, 0, 144 * sizeof(double));
    const double m = rho * L, r = J / A;
    struct {
        int i, j;
        double v;
    } e[] = {
        {0, 0, 1.0 / 3},
        {0, 6, 1.0 / 6},
        {6, 6, 1.0 / 3},
        {1, 1, 13.0 / 35},
        {1, 5, 11.0 * L / 210},
        {1, 7, 9.0 / 70},
        {1, 11, -13.0 * L / 420},
        {2, 2, 13.0 / 35},
        {2, 4, -11.0 * L / 210},
        {2, 8, 9.0 / 70},
        {2, 10, 13.0 * L / 420},
        {3, 3, r / 3},
        {3, 9, r / 6},
        {4, 4, L * L / 105},
        {4, 8, -13.0 * L / 420},
        {4, 10, -L * L / 140},
        {5, 5, L * L / 105},
        {5, 7, 13.0 * L / 420},
        {5, 11, -L * L / 140},
        {7, 7, 13.0 / 35},
        {7, 11, -11.0 * L / 210},
        {8, 8, 13.0 / 35},
        {8, 10, 11.0 * L / 210},
        {9, 9, r / 3},
        {10, 10, L * L / 105},
        {11, 11, L * L / 105},
    };
    for (size_t k = 0; k < sizeof e / sizeof e[0]; k++)
        M[e[k].j * 12 + e[k].i] = M[e[k].i * 12 + e[k].j] = m * e[k].v;
}

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static void unit(double v[3])
{
    const double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int k = 0; k < 3; k++) v[k] /= n;
}

/* The 12 x 12 mass of a free beam a -> b (both nodes carry every DOF: consistent mass gives each
 * rotation its inertia) in [ux uy uz rx ry rz]_a,b order; lumped beams get a unit rotational
 * mass at the nodes, subtracted here. */
static void beam_mass(hs_ctx *ctx, const double a[3], const double b[3], const double vecxz[3],
                      const hs_fe_section_3d *sec, double rho, int consistent, hs_fe_transf tr,
                      double Mg[144])
{
    hs_fe *fe = model(ctx, 3, 6);
    const double mr[6] = {0, 0, 0, 1, 1, 1};
    node(fe, 1, a, NULL, consistent ? NULL : mr);
    node(fe, 2, b, NULL, consistent ? NULL : mr);
    const int e = hs_fe_add_beam_3d(fe, "b", 1, 2, sec, vecxz, tr, 0.0);
    assert_true(e >= 0);
    assert_int_equal(hs_fe_set_element_mass(fe, e, rho, consistent), 0);
    finalize(ctx, fe);
    assert_int_equal(hs_fe_ndof(fe), 12);
    assert_int_equal(hs_fe_mass_is_lumped(fe), !consistent);
    double M[144];
    hs_fe_mass_matrix(fe, M);
    for (int j = 0; j < 12; j++)
        for (int i = 0; i < 12; i++) {
            const int di = hs_fe_dof(fe, 1 + i / 6, i % 6), dj = hs_fe_dof(fe, 1 + j / 6, j % 6);
            assert_true(di >= 0 && dj >= 0);
            Mg[j * 12 + i] = M[dj * 12 + di] - (!consistent && i == j && i % 6 >= 3 ? 1.0 : 0.0);
        }
    hs_fe_destroy(&fe);
}

static double max_abs(const double *a, int n)
{
    double m = 0.0;
    for (int k = 0; k < n; k++) m = fmax(m, fabs(a[k]));
    return m;
}

static void test_beam_matrix(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const hs_fe_section_3d sec = {2e11, 8e10, 0.01, 3e-5, 2e-5, 8e-5};
    const double rho = 78.5;
    /* along global x with vecxz = z: local axes = global axes */
    const double a[3] = {0, 0, 0}, b[3] = {2.5, 0, 0}, vz[3] = {0, 0, 1};
    double Mg[144], Mt[144];
    beam_mass(ctx, a, b, vz, &sec, rho, 1, HS_FE_LINEAR, Mg);
    textbook_mass(rho, 2.5, sec.J, sec.A, Mt);
    for (int k = 0; k < 144; k++) HS_ASSERT_NEAR(Mg[k], Mt[k], 1e-13 * max_abs(Mt, 144));
    double total = 0.0; /* a rigid translation in y carries rho L */
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 12; j++) total += (i % 6 == 1 && j % 6 == 1) ? Mg[j * 12 + i] : 0.0;
    HS_ASSERT_NEAR(total, rho * 2.5, 1e-12 * rho * 2.5);
    /* lumped: rho L / 2 on the translations, nothing else */
    beam_mass(ctx, a, b, vz, &sec, rho, 0, HS_FE_LINEAR, Mg);
    for (int j = 0; j < 12; j++)
        for (int i = 0; i < 12; i++)
            HS_ASSERT_NEAR(Mg[j * 12 + i], i == j && i % 6 < 3 ? rho * 2.5 / 2 : 0.0, 1e-12);

    /* skewed member and vecxz: M_global = T^T M_local T */
    const double p[3] = {0.3, -0.2, 0.5}, q[3] = {2.1, 1.4, 1.7}, vx[3] = {0.2, -0.5, 1.0};
    double R[9], *x = &R[0], *y = &R[3], *z = &R[6];
    for (int k = 0; k < 3; k++) x[k] = q[k] - p[k];
    const double L = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    unit(x);
    cross(vx, x, y);
    unit(y);
    cross(x, y, z);
    textbook_mass(rho, L, sec.J, sec.A, Mt);
    double Me[144] = {0}; /* T^T Mt T, T block-diagonal: entry (3I+a, 3J+b) */
    for (int J = 0; J < 4; J++)
        for (int I = 0; I < 4; I++)
            for (int bb = 0; bb < 3; bb++)
                for (int aa = 0; aa < 3; aa++) {
                    double s = 0.0;
                    for (int r = 0; r < 3; r++)
                        for (int c = 0; c < 3; c++)
                            s += R[3 * r + aa] * Mt[(3 * J + c) * 12 + 3 * I + r] * R[3 * c + bb];
                    Me[(3 * J + bb) * 12 + 3 * I + aa] = s;
                }
    const hs_fe_transf trs[2] = {HS_FE_LINEAR, HS_FE_COROTATIONAL};
    for (int t = 0; t < 2; t++) {
        beam_mass(ctx, p, q, vx, &sec, rho, 1, trs[t], Mg);
        double d = 0.0;
        for (int k = 0; k < 144; k++) d = fmax(d, fabs(Mg[k] - Me[k]));
        printf("skewed beam (%s): max |M_global - T^T M_local T| = %.3g of %.3g\n",
               t ? "corotational" : "linear", d, max_abs(Me, 144));
        assert_true(d <= 1e-12 * max_abs(Me, 144));
        assert_true(fabs(Me[1 * 12 + 0]) > 1e-3 * max_abs(Me, 144)); /* really skewed */
    }
    hs_ctx_destroy(&ctx);
}

/* The lowest eigenvalue of (K, M) whose shape lies in the node DOFs `dofs` (a 0/1 mask over ux
 * uy uz rx ry rz) of a cantilever along global x, whose motions in the DOF groups (u), (v, rz),
 * (w, ry), (rx) decouple. */
static double lowest_in(const hs_fe *fe, int nn, const double *w2, const double *phi,
                        const int dofs[6])
{
    const int n = hs_fe_ndof(fe);
    for (int k = 0; k < n; k++) {
        double in = 0.0, all = 0.0;
        for (int id = 2; id <= nn; id++)
            for (int d = 0; d < 6; d++) {
                const int q = hs_fe_dof(fe, id, d);
                if (q < 0) continue;
                const double v = phi[(size_t)k * (size_t)n + (size_t)q];
                all += v * v;
                in += dofs[d] ? v * v : 0.0;
            }
        if (in > 0.999999 * all) return sqrt(w2[k]);
    }
    fail_msg("no mode in that DOF group");
    return 0.0;
}

static void test_cantilever_3d(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const hs_fe_section_3d sec = {2e11, 8e10, 0.01, 1e-5, 2e-5, 8e-5};
    const double rho = 78.5, L = 3.0, b1 = 1.875104068711961, vz[3] = {0, 0, 1};
    const double m4 = rho * L * L * L * L;
    const double exact[4] = {
        b1 * b1 * sqrt(sec.E * sec.Iz / m4), b1 * b1 * sqrt(sec.E * sec.Iy / m4),
        PI / (2 * L) * sqrt(sec.G * sec.A / rho), PI / (2 * L) * sqrt(sec.E * sec.A / rho)};
    static const int groups[4][6] = {
        {0, 1, 0, 0, 0, 1}, {0, 0, 1, 0, 1, 0}, {0, 0, 0, 1, 0, 0}, {1, 0, 0, 0, 0, 0}};
    static const char *const names[4] = {"bending in y (Iz)", "bending in z (Iy)", "torsion",
                                         "axial"};
    double prev[4] = {0};
    for (int ne = 1; ne <= 16; ne *= 2) {
        hs_fe *fe = model(ctx, 3, 6);
        for (int k = 0; k <= ne; k++)
            node(fe, k + 1, (const double[3]){L * k / ne, 0, 0}, k ? NULL : FIX6, NULL);
        for (int k = 0; k < ne; k++) {
            const int e = hs_fe_add_beam_3d(fe, "b", k + 1, k + 2, &sec, vz, HS_FE_LINEAR, 0.0);
            assert_true(e >= 0);
            assert_int_equal(hs_fe_set_element_mass(fe, e, rho, 1), 0);
        }
        finalize(ctx, fe);
        const int n = hs_fe_ndof(fe);
        assert_int_equal(n, 6 * ne); /* every DOF carries mass, torsion included */
        double *K = hs_dvec((size_t)n * (size_t)n), *M = hs_dvec((size_t)n * (size_t)n),
               *w2 = hs_dvec((size_t)n), *phi = hs_dvec((size_t)n * (size_t)n);
        assert_int_equal(hs_fe_initial_stiffness(fe, K), 0);
        hs_fe_mass_matrix(fe, M);
        assert_int_equal(hs_sym_eig(ctx, n, K, M, w2, phi), 0);
        for (int g = 0; g < 4; g++) {
            const double w = lowest_in(fe, ne + 1, w2, phi, groups[g]), err = w / exact[g] - 1.0;
            printf("%2d elements, %-18s omega = %.10g rad/s, closed form %.10g, error %.3g\n", ne,
                   names[g], w, exact[g], err);
            assert_true(err > 0.0); /* Rayleigh-Ritz: from above */
            if (ne > 1) assert_true(err < prev[g] / (g < 2 ? 8.0 : 3.5)); /* h^4, h^2 */
            prev[g] = err;
        }
        hs_free(K);
        hs_free(M);
        hs_free(w2);
        hs_free(phi);
        hs_fe_destroy(&fe);
    }
    assert_true(prev[0] < 2e-7 && prev[1] < 2e-7); /* 16 elements: 1.3e-7 measured */
    assert_true(prev[2] < 5e-4 && prev[3] < 5e-4); /* 4.0e-4 */
    hs_ctx_destroy(&ctx);
}

/* A free truss a -> b (ndm, ndf) with mass rho: its M over [translations]_a,b in node order. */
static void truss_mass(hs_ctx *ctx, int ndm, int ndf, const double *a, const double *b,
                       int consistent, double *Mg)
{
    hs_fe *fe = model(ctx, ndm, ndf);
    node(fe, 1, a, NULL, NULL);
    node(fe, 2, b, NULL, NULL);
    const int e = hs_fe_add_truss(fe, "t", 1, 2, 2e8, 1e-3, HS_FE_LINEAR, 0.0);
    assert_true(e >= 0);
    assert_int_equal(hs_fe_set_element_mass(fe, e, 30.0, consistent), 0);
    finalize(ctx, fe);
    const int n = hs_fe_ndof(fe), nd = 2 * ndm;
    assert_int_equal(n, nd);
    double M[36];
    hs_fe_mass_matrix(fe, M);
    for (int j = 0; j < nd; j++)
        for (int i = 0; i < nd; i++)
            Mg[j * nd + i] =
                M[hs_fe_dof(fe, 1 + j / ndm, j % ndm) * n + hs_fe_dof(fe, 1 + i / ndm, i % ndm)];
    hs_fe_destroy(&fe);
}

static void test_trusses(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const double a3[3] = {0.2, -0.4, 1.0}, b3[3] = {2.0, 1.1, -0.3};
    const double a2[2] = {0.2, -0.4}, b2[2] = {2.0, 1.1};
    const double L3 = sqrt(1.8 * 1.8 + 1.5 * 1.5 + 1.3 * 1.3), L2 = sqrt(1.8 * 1.8 + 1.5 * 1.5);
    for (int cons = 0; cons < 2; cons++)
        for (int ndm = 2; ndm <= 3; ndm++) {
            double M[36];
            truss_mass(ctx, ndm, ndm, ndm == 3 ? a3 : a2, ndm == 3 ? b3 : b2, cons, M);
            const double m = 30.0 * (ndm == 3 ? L3 : L2), nd = 2 * ndm;
            for (int j = 0; j < nd; j++)
                for (int i = 0; i < nd; i++) {
                    const double want = i % ndm != j % ndm ? 0.0
                                        : cons             ? (i == j ? m / 3 : m / 6)
                                        : i == j           ? m / 2
                                                           : 0.0;
                    HS_ASSERT_NEAR(M[j * (int)nd + i], want, 1e-13 * m);
                }
        }
    /* a 1-D bar of ne trusses fixed at x = 0: the rod's first frequency pi / (2 L) sqrt(EA/rho)
     * from above with consistent mass, from below with lumped mass */
    const double E = 2e8, A = 1e-3, rho = 30.0, L = 4.0, exact = PI / (2 * L) * sqrt(E * A / rho);
    for (int cons = 0; cons < 2; cons++) {
        double prev = 0.0;
        for (int ne = 2; ne <= 16; ne *= 2) {
            hs_fe *fe = model(ctx, 1, 1);
            for (int k = 0; k <= ne; k++)
                node(fe, k + 1, (const double[1]){L * k / ne}, k ? NULL : (const int[1]){1}, NULL);
            for (int k = 0; k < ne; k++) {
                const int e = hs_fe_add_truss(fe, "t", k + 1, k + 2, E, A, HS_FE_LINEAR, 0.0);
                assert_int_equal(hs_fe_set_element_mass(fe, e, rho, cons), 0);
            }
            finalize(ctx, fe);
            const int n = hs_fe_ndof(fe);
            assert_int_equal(n, ne);
            double K[256] = {0}, M[256], w2[16], phi[256]; /* K: added to */
            assert_int_equal(hs_fe_initial_stiffness(fe, K), 0);
            hs_fe_mass_matrix(fe, M);
            assert_int_equal(hs_sym_eig(ctx, n, K, M, w2, phi), 0);
            const double err = sqrt(w2[0]) / exact - 1.0;
            printf("1-D bar, %2d %s trusses: omega1 = %.10g, rod %.10g, error %.3g\n", ne,
                   cons ? "consistent" : "lumped", sqrt(w2[0]), exact, err);
            assert_true(cons ? err > 0.0 : err < 0.0);
            if (ne > 2) assert_true(fabs(err) < fabs(prev) / 3.5); /* h^2 */
            prev = err;
            hs_fe_destroy(&fe);
        }
        assert_true(fabs(prev) < 1e-3);
    }
    hs_ctx_destroy(&ctx);
}

/* A floor on four columns with a rigid diaphragm (perp z), master node 100 at (xm, ym). slaves:
 * the masses are on the four column tops and on node 15 (a slave without an element, its other
 * DOFs fixed); else the total mass and its rotational inertia about the centre of mass are on
 * the master (which must then sit there). every: every free DOF gets a mass (sparse path). */
static hs_fe *floor_model(hs_ctx *ctx, int slaves, double xm, double ym, int every)
{
    static const double X[5] = {0, 6, 6, 0, 2.5}, Y[5] = {0, 0, 4, 4, 3.0},
                        mk[5] = {10, 20, 15, 25, 5};
    hs_fe *fe = model(ctx, 3, 6);
    const hs_fe_section_3d sec = {30e6, 12e6, 0.16, 2e-3, 1.2e-3, 2e-3};
    double mt = 0.0, sx = 0.0, sy = 0.0, ip = 0.0;
    for (int k = 0; k < 5; k++) {
        mt += mk[k];
        sx += mk[k] * X[k];
        sy += mk[k] * Y[k];
    }
    for (int k = 0; k < 5; k++)
        ip += mk[k] * ((X[k] - sx / mt) * (X[k] - sx / mt) + (Y[k] - sy / mt) * (Y[k] - sy / mt));
    const int top_fix[6] = {0, 0, 1, 1, 1, 0}, mid_fix[6] = {0, 0, 1, 1, 1, 0};
    for (int k = 0; k < 4; k++) {
        const double mo[6] = {slaves ? mk[k] : 0, slaves ? mk[k] : 0, every ? 1.0 : 0,
                              every ? 0.1 : 0,    every ? 0.1 : 0,    0};
        node(fe, k + 1, (const double[3]){X[k], Y[k], 0}, FIX6, NULL);
        node(fe, k + 11, (const double[3]){X[k], Y[k], 3}, NULL, mo);
        assert_true(hs_fe_add_beam_3d(fe, "c", k + 1, k + 11, &sec, (const double[3]){1, 0.3, 0},
                                      HS_FE_LINEAR, 0.0) >= 0);
    }
    const double m15[6] = {slaves ? mk[4] : 0, slaves ? mk[4] : 0, 0, 0, 0, 0};
    node(fe, 15, (const double[3]){X[4], Y[4], 3}, mid_fix, m15);
    const double mm[6] = {slaves ? 0 : mt, slaves ? 0 : mt, 0, 0, 0, slaves ? 0 : ip};
    if (!slaves) {
        xm = sx / mt;
        ym = sy / mt;
    }
    node(fe, 100, (const double[3]){xm, ym, 3}, top_fix, mm);
    assert_int_equal(hs_fe_rigid_diaphragm(fe, 2, 100, (const int[5]){11, 12, 13, 14, 15}, 5), 0);
    finalize(ctx, fe);
    return fe;
}

static void periods(hs_ctx *ctx, hs_fe *fe, double *w2)
{
    const int n = hs_fe_ndof(fe);
    double *K = hs_dvec((size_t)n * (size_t)n), *M = hs_dvec((size_t)n * (size_t)n),
           *phi = hs_dvec((size_t)n * (size_t)n);
    assert_int_equal(hs_fe_initial_stiffness(fe, K), 0);
    hs_fe_mass_matrix(fe, M);
    assert_int_equal(hs_sym_eig(ctx, n, K, M, w2, phi), 0);
    hs_free(K);
    hs_free(M);
    hs_free(phi);
}

static void test_rigid_slave_masses(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const double xm = 2.0, ym = 1.0;
    hs_fe *on_slaves = floor_model(ctx, 1, xm, ym, 0), *on_master = floor_model(ctx, 0, 0, 0, 0);
    assert_false(hs_fe_mass_is_lumped(on_slaves));
    assert_true(hs_fe_mass_is_lumped(on_master));
    const int n = hs_fe_ndof(on_slaves);
    assert_int_equal(n, 3);
    assert_int_equal(hs_fe_ndof(on_master), 3);
    /* the master's block: sum m_k [1 0 -dy; 0 1 dx; -dy dx dx^2 + dy^2] */
    static const double X[5] = {0, 6, 6, 0, 2.5}, Y[5] = {0, 0, 4, 4, 3.0},
                        mk[5] = {10, 20, 15, 25, 5};
    double want[9] = {0};
    for (int k = 0; k < 5; k++) {
        const double dx = X[k] - xm, dy = Y[k] - ym;
        const double t[2][3] = {{1, 0, -dy}, {0, 1, dx}};
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                want[j * 3 + i] += mk[k] * (t[0][i] * t[0][j] + t[1][i] * t[1][j]);
    }
    double M[9];
    hs_fe_mass_matrix(on_slaves, M);
    const int d[3] = {hs_fe_dof(on_slaves, 100, 0), hs_fe_dof(on_slaves, 100, 1),
                      hs_fe_dof(on_slaves, 100, 5)};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            HS_ASSERT_NEAR(M[d[j] * 3 + d[i]], want[j * 3 + i], 1e-12 * want[8]);
    assert_true(fabs(want[6]) > 1.0 && fabs(want[7]) > 1.0); /* really coupled */
    double w_s[3], w_m[3];
    periods(ctx, on_slaves, w_s);
    periods(ctx, on_master, w_m);
    for (int k = 0; k < 3; k++) {
        printf("floor mode %d: T = %.12g s (masses on the slaves), %.12g s (on the master at the "
               "centre of mass)\n",
               k + 1, 2 * PI / sqrt(w_s[k]), 2 * PI / sqrt(w_m[k]));
        HS_ASSERT_NEAR(w_s[k] / w_m[k], 1.0, 1e-10);
    }
    hs_fe_destroy(&on_slaves);
    hs_fe_destroy(&on_master);

    /* the sparse path (every free DOF with mass): its M equals the dense one entry for entry */
    hs_fe *fe = floor_model(ctx, 1, xm, ym, 1);
    const int ns = hs_fe_ndof(fe);
    assert_int_equal(hs_fe_condensed(fe), 0);
    double *Md = hs_dvec((size_t)ns * (size_t)ns), *Ms = hs_dvec((size_t)ns * (size_t)ns);
    hs_fe_mass_matrix(fe, Md);
    hs_fe_matrices mats;
    hs_dynamics dyn;
    assert_int_equal(hs_fe_sparse_dynamics(fe, 0.1, 0.0, &mats, &dyn), 0);
    const hs_csc *S = mats.M;
    for (int j = 0; j < ns; j++)
        for (int p = S->colptr[j]; p < S->colptr[j + 1]; p++)
            Ms[(size_t)j * (size_t)ns + (size_t)S->rowind[p]] += S->val[p];
    for (size_t k = 0; k < (size_t)ns * (size_t)ns; k++) assert_true(Ms[k] == Md[k]);
    /* C = 0.1 M lies in the pattern: its master block holds the coupling */
    const int um = hs_fe_dof(fe, 100, 0), rm = hs_fe_dof(fe, 100, 5);
    double c = 0.0;
    for (int p = mats.C->colptr[rm]; p < mats.C->colptr[rm + 1]; p++)
        if (mats.C->rowind[p] == um) c = mats.C->val[p];
    HS_ASSERT_NEAR(c, 0.1 * Md[(size_t)rm * (size_t)ns + (size_t)um], 1e-14);
    assert_true(fabs(c) > 0.1);
    hs_fe_matrices_free(&mats);
    hs_free(Md);
    hs_free(Ms);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

/* 200 steps of `type` on the floor with slave masses (sparse or dense path), the master's
 * displacements into out (200 x 3). */
static void floor_history(const char *type, int sparse, double *out)
{
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_fe *fe = floor_model(ctx, 1, 2.0, 1.0, 1);
    const int n = hs_fe_ndof(fe);
    hs_dynamics dyn;
    hs_fe_matrices mats = {0};
    hs_frame_dense df = {0};
    double a0, a1;
    hs_frame_rayleigh(&a0, &a1);
    if (sparse)
        assert_int_equal(hs_fe_sparse_dynamics(fe, a0, a1, &mats, &dyn), 0);
    else
        hs_frame_dense_dynamics(fe, &df, &dyn);
    double *M = hs_dvec((size_t)n * (size_t)n), *iota = hs_dvec((size_t)n),
           *miota = hs_dvec((size_t)n), *f0 = hs_dvec((size_t)n), *f1 = hs_dvec((size_t)n),
           *dcmd = hs_dvec((size_t)n);
    hs_fe_mass_matrix(fe, M);
    hs_fe_influence(fe, 0, iota);
    hs_matvec(n, M, iota, miota);
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, type, NULL, &it), 0);
    int rc = hs_integrator_setup(it, &dyn, 0.002, NULL, NULL, f0);
    if (rc) fprintf(stderr, "%s setup: %s\n", type, hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    const int um = hs_fe_dof(fe, 100, 0), vm = hs_fe_dof(fe, 100, 1), rm = hs_fe_dof(fe, 100, 5);
    for (int s = 0; s < 200; s++) {
        const double ag0 = 3.0 * sin(2.0 * PI * 2.0 * s * 0.002),
                     ag1 = 3.0 * sin(2.0 * PI * 2.0 * (s + 1) * 0.002);
        for (int i = 0; i < n; i++) {
            f0[i] = -miota[i] * ag0;
            f1[i] = -miota[i] * ag1;
        }
        hs_step_io io = {.step = s, .t = s * 0.002, .f_n = f0, .f_n1 = f1, .d_cmd = dcmd};
        rc = hs_integrator_step(it, &io);
        if (rc) fprintf(stderr, "%s step %d: %s\n", type, s, hs_ctx_message(ctx));
        assert_int_equal(rc, 0);
        const double *d = hs_integrator_displacement(it);
        out[3 * s] = d[um];
        out[3 * s + 1] = d[vm];
        out[3 * s + 2] = d[rm];
    }
    hs_integrator_destroy(&it);
    hs_fe_matrices_free(&mats);
    hs_frame_dense_free(&df);
    hs_free(M);
    hs_free(iota);
    hs_free(miota);
    hs_free(f0);
    hs_free(f1);
    hs_free(dcmd);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

static void test_slave_masses_sparse_run(void **state)
{
    (void)state;
    static const char *const types[] = {"newmark", "central_difference", "alpha_os", "cr"};
    for (int k = 0; k < 4; k++) {
        double sp[600], de[600], peak = 0.0, diff = 0.0;
        floor_history(types[k], 1, sp);
        floor_history(types[k], 0, de);
        for (int i = 0; i < 600; i++) {
            peak = fmax(peak, fabs(de[i]));
            diff = fmax(diff, fabs(sp[i] - de[i]));
        }
        printf("floor with slave masses, %-18s sparse vs dense: %.3g of peak %.3g\n", types[k],
               diff, peak);
        assert_true(peak > 1e-4);
        assert_true(diff <= 1e-9 * peak);
    }
}

static void test_sparse_modes_full_mass(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const hs_fe_section_3d sec = {2e11, 8e10, 0.01, 1e-5, 2e-5, 8e-5};
    const int ne = 90;
    hs_fe *fe = model(ctx, 3, 6);
    for (int k = 0; k <= ne; k++)
        node(fe, k + 1, (const double[3]){3.0 * k / ne, 0.1 * k / ne, 0}, k ? NULL : FIX6, NULL);
    for (int k = 0; k < ne; k++) {
        const int e = hs_fe_add_beam_3d(fe, "b", k + 1, k + 2, &sec, (const double[3]){0, 0, 1},
                                        HS_FE_LINEAR, 0.0);
        assert_int_equal(hs_fe_set_element_mass(fe, e, 78.5, 1), 0);
    }
    finalize(ctx, fe);
    const int n = hs_fe_ndof(fe);
    assert_true(n > HS_MODES_DENSE_MAX);
    hs_model *m = NULL;
    assert_int_equal(hs_model_create(ctx, n, &m), 0);
    double *M = hs_dvec((size_t)n * (size_t)n), *w_dense = hs_dvec((size_t)n), w_sparse[4];
    hs_fe_mass_matrix(fe, M);
    assert_int_equal(hs_model_set_mass_matrix(m, M), 0);
    assert_int_equal(hs_model_attach_fe(m, fe), 0);
    assert_true(hs_model_modes_sparse(m));
    assert_int_equal(hs_model_modes_lowest(m, 4, w_sparse, NULL), 0);
    assert_int_equal(hs_model_modes(m, w_dense, NULL), 0);
    /* modes 1 and 2: the first bending about local y (Iy) and z (Iz) of the beam's length */
    const double b1 = 1.875104068711961, L = sqrt(9.0 + 0.01), L4 = L * L * L * L,
                 exact[2] = {pow(b1, 4) * sec.E * sec.Iy / (78.5 * L4),
                             pow(b1, 4) * sec.E * sec.Iz / (78.5 * L4)};
    for (int k = 0; k < 4; k++) {
        printf("540-DOF cantilever mode %d: omega^2 %.12g (sparse), %.12g (dense)", k + 1,
               w_sparse[k], w_dense[k]);
        if (k < 2) printf(", Euler-Bernoulli %.12g", exact[k]);
        printf("\n");
        /* the dense dsygv loses digits to M's and K's conditioning at 540 DOFs: 4e-7 measured */
        HS_ASSERT_NEAR(w_sparse[k] / w_dense[k], 1.0, 2e-6);
        if (k < 2) HS_ASSERT_NEAR(w_sparse[k] / exact[k], 1.0, 1e-7); /* 8e-9 measured */
    }
    hs_free(M);
    hs_free(w_dense);
    hs_model_destroy(&m);
    hs_ctx_destroy(&ctx);
}

static const char FRAME_TCL[] =
    "model BasicBuilder -ndm 3 -ndf 6\n"
    "node 1 0 0 0; node 2 4 0 0; node 3 4 3 0\n"
    "node 11 0 0 3; node 12 4 0 3; node 13 4 3 3; node 100 1.5 1.0 3\n"
    "foreach n {1 2 3} { fix $n 1 1 1 1 1 1 }\n"
    "fix 100 0 0 1 1 1 0\n"
    "mass 11 5 5 0 0 0 0\n"
    "mass 13 3 3 0 0 0 0\n"
    "rigidDiaphragm 3 100 11 12 13\n"
    "geomTransf Linear 1 1 0.2 0\n"
    "geomTransf Linear 2 0 0 1\n"
    "element elasticBeamColumn 1 1 11 0.04 30e6 12e6 2e-4 1.5e-4 3e-4 1 -mass 0.9 -cMass\n"
    "element elasticBeamColumn 2 2 12 0.04 30e6 12e6 2e-4 1.5e-4 3e-4 1 -mass 0.9\n"
    "element elasticBeamColumn 3 3 13 0.04 30e6 12e6 2e-4 1.5e-4 3e-4 1 -mass 0.9 -cMass\n"
    "element elasticBeamColumn 4 11 12 0.05 30e6 12e6 3e-4 2e-4 6e-4 2 -mass 1.2\n"
    "uniaxialMaterial Elastic 1 30e6\n"
    "element truss 5 1 13 0.002 1 -rho 0.3 -cMass 1\n"
    "element truss 6 2 11 0.002 1 -rho 0.3\n";

#define COL3D "E: 30e6, G: 12e6, A: 0.04, J: 2e-4, Iy: 1.5e-4, Iz: 3e-4, vecxz: [1, 0.2, 0]"
static const char FRAME_YAML[] =
    "structure:\n  model:\n    ndm: 3\n    nodes:\n"
    "      - {id: 1, x: 0, y: 0, z: 0, fix: [1, 1, 1, 1, 1, 1]}\n"
    "      - {id: 2, x: 4, y: 0, z: 0, fix: [1, 1, 1, 1, 1, 1]}\n"
    "      - {id: 3, x: 4, y: 3, z: 0, fix: [1, 1, 1, 1, 1, 1]}\n"
    "      - {id: 11, x: 0, y: 0, z: 3, mass: [5, 5, 0, 0, 0, 0]}\n"
    "      - {id: 12, x: 4, y: 0, z: 3}\n"
    "      - {id: 13, x: 4, y: 3, z: 3, mass: [3, 3, 0, 0, 0, 0]}\n"
    "      - {id: 100, x: 1.5, y: 1.0, z: 3, fix: [0, 0, 1, 1, 1, 0]}\n"
    "    elements:\n"
    "      - {type: elastic_beam, nodes: [1, 11], " COL3D ", rho: 0.9, mass_type: consistent}\n"
    "      - {type: elastic_beam, nodes: [2, 12], " COL3D ", rho: 0.9}\n"
    "      - {type: elastic_beam, nodes: [3, 13], " COL3D ", rho: 0.9, mass_type: consistent}\n"
    "      - {type: elastic_beam, nodes: [11, 12], E: 30e6, G: 12e6, A: 0.05, J: 3e-4, Iy: 2e-4, "
    "Iz: 6e-4, vecxz: [0, 0, 1], rho: 1.2}\n"
    "      - {type: truss, nodes: [1, 13], E: 30e6, A: 0.002, rho: 0.3, mass_type: consistent}\n"
    "      - {type: truss, nodes: [2, 11], E: 30e6, A: 0.002, rho: 0.3}\n"
    "    rigid_diaphragm:\n      - {perp: z, master: 100, slaves: [11, 12, 13]}\n"
    "  damping: {none: true}\n";

static void test_tcl_same_as_yaml(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "fe_mass3d");
    hs_tcl_write_file(dir, "frame.tcl", FRAME_TCL);
    hs_test_def *tcl = hs_tcl_load(ctx, dir, "tcl",
                                   "structure:\n  model: {opensees: frame.tcl}\n"
                                   "  damping: {none: true}\n",
                                   NULL, 0),
                *yaml = hs_tcl_load(ctx, dir, "yaml", FRAME_YAML, NULL, 0);
    assert_non_null(tcl);
    assert_non_null(yaml);
    const int n = hs_model_ndof(tcl->model);
    assert_int_equal(hs_model_ndof(yaml->model), n);
    const hs_fe *fe = hs_model_fe(tcl->model);
    assert_false(hs_fe_mass_is_lumped(fe));
    const size_t nn = (size_t)n * (size_t)n;
    const double *Mt = hs_model_mass_matrix(tcl->model), *My = hs_model_mass_matrix(yaml->model);
    const double mmax = max_abs(Mt, (int)nn);
    for (size_t k = 0; k < nn; k++) HS_ASSERT_NEAR(Mt[k], My[k], 1e-14 * mmax);
    /* the master's ux-rz coupling: the slaves' masses and the beam's lumped mass on lever arms */
    const int ux = hs_fe_dof(fe, 100, 0), rz = hs_fe_dof(fe, 100, 5);
    assert_true(fabs(Mt[(size_t)rz * (size_t)n + (size_t)ux]) > 1.0);
    double *Kt = calloc(nn, sizeof *Kt), *Ky = calloc(nn, sizeof *Ky);
    assert_int_equal(hs_model_initial_stiffness(tcl->model, Kt), 0);
    assert_int_equal(hs_model_initial_stiffness(yaml->model, Ky), 0);
    assert_memory_equal(Kt, Ky, nn * sizeof *Kt);
    free(Kt);
    free(Ky);
    hs_test_def_destroy(&tcl);
    hs_test_def_destroy(&yaml);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_beam_matrix),
        cmocka_unit_test(test_cantilever_3d),
        cmocka_unit_test(test_trusses),
        cmocka_unit_test(test_rigid_slave_masses),
        cmocka_unit_test(test_slave_masses_sparse_run),
        cmocka_unit_test(test_tcl_same_as_yaml),
        cmocka_unit_test(test_sparse_modes_full_mass),
    };
    return cmocka_run_group_tests_name("fe_mass3d", tests, NULL, NULL);
}
