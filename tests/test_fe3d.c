/* The frame model in 1-D and 3-D and its geometric constraints (include/hysim/fe.h,
 * docs/fe_model.md) against closed forms:
 *  - a 3-D cantilever along a skewed axis: in the member's frame (local x along the chord, y =
 *    vecxz x x, z = x x y, as OpenSees' LinearCrdTransf3d) the tip's translational stiffness is
 *    diag(EA/L, 3EIz/L^3, 3EIy/L^3) and its rotational one diag(GJ/L, EIy/L, EIz/L), with Iy != Iz
 *    so that swapped axes fail; a vertical column with vecxz = global x bends with Iz in global y;
 *  - P-Delta in 3-D: a column under P loses P/L of lateral stiffness in both directions;
 *  - a corotational 3-D truss: a finite rigid rotation leaves no force;
 *  - a rigid link (beam): the slave moves as u_m + theta_m x r, a force on the slave reaches the
 *    master with its moment r x f; a bar: translations only;
 *  - a rigid-diaphragm floor on four columns: the x, y and torsional periods of the symmetric
 *    floor (2 pi sqrt(m / K), 2 pi sqrt(J / K_theta)) and, with the mass moved off the stiffness
 *    centre by e, the coupled y-torsion periods of the 2 x 2 closed form; the same floor rotated
 *    into the y-z plane (perp x) and the z-x plane (perp y) has the same periods;
 *  - a 1-D chain of springs (trusses and zero-length springs) has the shear building's periods;
 *  - 2-D: a truss-only model (ndf 2) has EA/L (c^2, cs; cs, s^2); a rigid link (beam) moves its
 *    slave by the lever arm;
 *  - errors: a fixed slave, a DOF of two constraints, a chain, vecxz along the member, a beam in
 *    a 1-D model (a slave's mass on a lever arm: test_fe_mass3d.c). */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double PI = 3.14159265358979323846;
static const int FIX6[6] = {1, 1, 1, 1, 1, 1};

static void finalize(hs_ctx *ctx, hs_fe *fe)
{
    int rc = hs_fe_finalize(fe);
    if (rc) fprintf(stderr, "finalize: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
}

static hs_fe *model3d(hs_ctx *ctx)
{
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 3, 6), 0);
    return fe;
}

static void node3(hs_fe *fe, int id, double x, double y, double z, const int *fix, const double *m)
{
    const double crd[3] = {x, y, z};
    assert_true(hs_fe_add_node_crd(fe, id, crd) >= 0);
    if (fix) assert_int_equal(hs_fe_fix(fe, id, fix), 0);
    if (m) assert_int_equal(hs_fe_add_mass(fe, id, m), 0);
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

/* a^T K b for 3 x 3 K (column-major) */
static double form(const double *K, const double a[3], const double b[3])
{
    double s = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) s += a[i] * K[j * 3 + i] * b[j];
    return s;
}

/* The condensed 3 x 3 stiffness of node 2's translations (rot = 0) or rotations (rot = 1) of a
 * cantilever 1 -> 2 along `axis` (unit) of length L. */
static void cantilever(hs_ctx *ctx, const double axis[3], const double vecxz[3],
                       const hs_fe_section_3d *sec, double L, int rot, double K[9])
{
    hs_fe *fe = model3d(ctx);
    const double mt[6] = {1, 1, 1, 0, 0, 0}, mr[6] = {0, 0, 0, 1, 1, 1};
    node3(fe, 1, 0.5, -0.25, 2.0, FIX6, NULL);
    node3(fe, 2, 0.5 + L * axis[0], -0.25 + L * axis[1], 2.0 + L * axis[2], NULL, rot ? mr : mt);
    assert_true(hs_fe_add_beam_3d(fe, "b", 1, 2, sec, vecxz, HS_FE_LINEAR, 0.0) >= 0);
    finalize(ctx, fe);
    assert_int_equal(hs_fe_ndof(fe), 3);
    assert_int_equal(hs_fe_condensed(fe), 3);
    for (int d = 0; d < 3; d++) assert_int_equal(hs_fe_dof(fe, 2, d + 3 * rot), d);
    memset(K, 0, 9 * sizeof(double));
    assert_int_equal(hs_fe_initial_stiffness(fe, K), 0);
    hs_fe_destroy(&fe);
}

static void test_skewed_cantilever(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const hs_fe_section_3d sec = {
        .E = 200e9, .G = 77e9, .A = 0.01, .J = 3e-5, .Iy = 2e-5, .Iz = 9e-5};
    const double L = 3.0;
    double x[3] = {1.0, 2.0, 2.0}, v[3] = {0.3, -1.0, 0.4}, y[3], z[3], K[9];
    unit(x);
    cross(v, x, y); /* the convention under test, written independently */
    unit(y);
    cross(x, y, z);
    cantilever(ctx, x, v, &sec, L, 0, K);
    const double kt[3] = {sec.E * sec.A / L, 3 * sec.E * sec.Iz / (L * L * L),
                          3 * sec.E * sec.Iy / (L * L * L)};
    const double *ax[3] = {x, y, z};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            HS_ASSERT_NEAR(form(K, ax[a], ax[b]) / kt[0], a == b ? kt[a] / kt[0] : 0.0, 1e-12);
    cantilever(ctx, x, v, &sec, L, 1, K);
    const double kr[3] = {sec.G * sec.J / L, sec.E * sec.Iy / L, sec.E * sec.Iz / L};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            HS_ASSERT_NEAR(form(K, ax[a], ax[b]) / kr[2], a == b ? kr[a] / kr[2] : 0.0, 1e-12);
    /* a vertical column, vecxz = global x: local y = x x z = -global y, local z = global x; so
     * Iz (the strong axis here) resists global y and Iy global x */
    const double up[3] = {0, 0, 1}, gx[3] = {1, 0, 0};
    cantilever(ctx, up, gx, &sec, L, 0, K);
    HS_ASSERT_NEAR(K[0] / kt[2], 1.0, 1e-12);
    HS_ASSERT_NEAR(K[4] / kt[1], 1.0, 1e-12);
    HS_ASSERT_NEAR(K[8] / kt[0], 1.0, 1e-12);
    hs_ctx_destroy(&ctx);
}

static void test_pdelta_3d(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const hs_fe_section_3d sec = {
        .E = 30e6, .G = 12e6, .A = 0.05, .J = 2e-4, .Iy = 1e-4, .Iz = 3e-4};
    const double L = 4.0, P = 100.0, m[6] = {10, 10, 0, 0, 0, 0}, vx[3] = {1, 0, 0};
    hs_fe *fe = model3d(ctx);
    node3(fe, 1, 0, 0, 0, FIX6, NULL);
    node3(fe, 2, 0, 0, L, NULL, m);
    assert_true(hs_fe_add_beam_3d(fe, "col", 1, 2, &sec, vx, HS_FE_PDELTA, P) >= 0);
    finalize(ctx, fe);
    assert_false(hs_fe_is_linear(fe));
    double d[2] = {0.0, 0.0}, r[2] = {0.0, 0.0}, K[4] = {0};
    assert_int_equal(hs_fe_restore(fe, d, NULL, r, K, NULL), 0);
    /* local z = global x bends with Iy, local y = -global y with Iz */
    HS_ASSERT_NEAR(K[0] / (3 * sec.E * sec.Iy / (L * L * L) - P / L), 1.0, 1e-12);
    HS_ASSERT_NEAR(K[3] / (3 * sec.E * sec.Iz / (L * L * L) - P / L), 1.0, 1e-12);
    HS_ASSERT_NEAR(K[1], 0.0, 1e-9 * fabs(K[0]));
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

static void test_corotational_truss_3d(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 3, 3), 0);
    const int fix3[3] = {1, 1, 1};
    const double m[3] = {1, 1, 1}, E = 1e6, A = 0.01, L = 2.0;
    node3(fe, 1, 0, 0, 0, fix3, NULL);
    node3(fe, 2, L, 0, 0, NULL, m);
    assert_true(hs_fe_add_truss(fe, "t", 1, 2, E, A, HS_FE_COROTATIONAL, 0.0) >= 0);
    finalize(ctx, fe);
    /* node 2 on the sphere of radius L (rotated 40 degrees about (0, 1, 1)): no force */
    const double c = cos(40 * PI / 180), s = sin(40 * PI / 180);
    double dd[3] = {L * c - L, L * s / sqrt(2.0), -L * s / sqrt(2.0)}, r[3] = {0};
    assert_int_equal(hs_fe_restore(fe, dd, NULL, r, NULL, NULL), 0);
    for (int k = 0; k < 3; k++) HS_ASSERT_NEAR(r[k] / (E * A), 0.0, 1e-13);
    /* stretched by 1 % along that direction: EA/L (0.01 L) along it */
    const double n[3] = {c, s / sqrt(2.0), -s / sqrt(2.0)};
    for (int k = 0; k < 3; k++) dd[k] = 1.01 * L * n[k] - (k == 0 ? L : 0.0), r[k] = 0.0;
    assert_int_equal(hs_fe_restore(fe, dd, NULL, r, NULL, NULL), 0);
    for (int k = 0; k < 3; k++) HS_ASSERT_NEAR(r[k] / (E * A * 0.01), n[k], 1e-12);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

/* Master 1 on six zero-length springs to ground 0; slave 2 at r from it, rigidly linked. */
static void test_rigid_link(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    for (int beam = 0; beam <= 1; beam++) {
        hs_fe *fe = model3d(ctx);
        const double m[6] = {1, 1, 1, 1, 1, 1}, r[3] = {1.5, -2.0, 0.75}, ks = 1e4;
        node3(fe, 10, 0, 0, 0, FIX6, NULL);
        node3(fe, 1, 1, 1, 1, NULL, m);
        node3(fe, 2, 1 + r[0], 1 + r[1], 1 + r[2], NULL, NULL);
        node3(fe, 11, 1 + r[0], 1 + r[1], 1 + r[2], FIX6, NULL);
        hs_options *o = NULL;
        assert_int_equal(hs_options_create(&o), 0);
        hs_options_set_num(o, "k", 1e6);
        for (int d = 0; d < 6; d++)
            assert_true(hs_fe_add_zero_length(fe, "g", 10, 1, d, "elastic", o) >= 0);
        hs_options_set_num(o, "k",
                           ks); /* the slave on a spring in x: its force reaches the master */
        assert_true(hs_fe_add_zero_length(fe, "s", 11, 2, HS_FE3_UX, "elastic", o) >= 0);
        if (!beam) { /* a bar leaves the slave's rotations free: hold them */
            for (int d = 3; d < 6; d++)
                assert_true(hs_fe_add_zero_length(fe, "rs", 11, 2, d, "elastic", o) >= 0);
        }
        hs_options_destroy(&o);
        assert_int_equal(hs_fe_rigid_link(fe, beam ? HS_FE_RIGID_BEAM : HS_FE_RIGID_BAR, 1, 2), 0);
        finalize(ctx, fe);
        assert_int_equal(hs_fe_ndof(fe), 6);
        assert_int_equal(hs_fe_dof(fe, 2, HS_FE3_UX), beam ? HS_FE_CONSTRAINED : 0);
        for (int dir = 0; dir < 3; dir++) { /* the ground in x, y or z: the master's translation */
            double iota[6];
            hs_fe_influence(fe, dir, iota);
            for (int i = 0; i < 6; i++) assert_true(iota[i] == (i == dir ? 1.0 : 0.0));
        }
        const double d[6] = {0.01, -0.02, 0.005, 0.003, -0.004, 0.006};
        double f[6] = {0};
        assert_int_equal(hs_fe_restore(fe, d, NULL, f, NULL, NULL), 0);
        assert_int_equal(hs_fe_commit(fe), 0);
        double rot[3], us[3] = {0, 0, 0};
        cross(d + 3, r, rot);
        for (int k = 0; k < 3; k++) {
            us[k] = d[k] + (beam ? rot[k] : 0.0);
            HS_ASSERT_NEAR(hs_fe_node_displacement(fe, 2, k), us[k], 1e-15);
            HS_ASSERT_NEAR(hs_fe_node_displacement(fe, 2, 3 + k), beam ? d[3 + k] : 0.0, 1e-15);
        }
        /* the master's force: its springs plus the slave spring's force ks us_x at the slave
         * (and, for the beam, its moment r x f) */
        const double fs[3] = {ks * us[0], 0, 0};
        double mom[3];
        cross(r, fs, mom);
        for (int k = 0; k < 3; k++) {
            HS_ASSERT_NEAR(f[k], 1e6 * d[k] + fs[k], 1e-9);
            HS_ASSERT_NEAR(f[3 + k], 1e6 * d[3 + k] + (beam ? mom[k] : 0.0), 1e-9);
        }
        hs_fe_destroy(&fe);
    }
    hs_ctx_destroy(&ctx);
}

/* Two roots of m J w^4 - (K1 J + K2 m) w^2 + (K1 K2 - K12^2) = 0, ascending. */
static void eig2(double K1, double K2, double K12, double m, double J, double w2[2])
{
    const double b = K1 / m + K2 / J, c = (K1 * K2 - K12 * K12) / (m * J);
    const double disc = sqrt(b * b - 4 * c);
    w2[0] = 2 * c / (b + disc);
    w2[1] = (b + disc) / 2;
}

/* The floor rotated by a cyclic permutation of the axes (x -> y -> z -> x, `rot` times): a node,
 * its fixities and masses (translations and rotations permute alike). */
static void permute(int rot, const double *in, double *out)
{
    for (int k = 0; k < 3; k++) out[(k + rot) % 3] = in[k];
}

static void node_rot(hs_fe *fe, int rot, int id, double x, double y, double z, const int *fix,
                     const double *m)
{
    const double p[3] = {x, y, z};
    double q[3], f6[6], fr[6], m6[6];
    permute(rot, p, q);
    int fixr[6];
    if (fix) {
        for (int k = 0; k < 6; k++) f6[k] = fix[k];
        permute(rot, f6, fr);
        permute(rot, f6 + 3, fr + 3);
        for (int k = 0; k < 6; k++) fixr[k] = (int)fr[k];
    }
    if (m) {
        permute(rot, m, m6);
        permute(rot, m + 3, m6 + 3);
    }
    node3(fe, id, q[0], q[1], q[2], fix ? fixr : NULL, m ? m6 : NULL);
}

static void test_rigid_diaphragm(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const double a = 8.0, bw = 5.0, h = 3.5, E = 30e6, G = 12e6, mass = 60.0;
    const hs_fe_section_3d weak = {E, G, 0.16, 2e-3, 1.2e-3, 2.0e-3},
                           strong = {E, G, 0.25, 4e-3, 3.0e-3, 5.0e-3};
    const double vx0[3] = {1, 0, 0}; /* columns: local z = global x: Iy bends in x, Iz in y */
    /* the floor in the x-y plane (perp z), then rotated so that it lies in y-z (perp x) and z-x
     * (perp y): the same periods */
    for (int rot = 0; rot < 3; rot++)
        for (int ecc = 0; ecc <= 1; ecc++) {
            const double e = ecc ? 0.9 : 0.0, J = mass * (a * a + bw * bw) / 12.0;
            hs_fe *fe = model3d(ctx);
            const double xs[4] = {0, a, a, 0}, ys[4] = {0, 0, bw, bw};
            /* strong columns on x = a (two), weak on x = 0: the stiffness centre moves to x_s */
            const hs_fe_section_3d *sec[4] = {&weak, &strong, &strong, &weak};
            const int fm[6] = {0, 0, 1, 1, 1, 0};
            const double m[6] = {mass, mass, 0, 0, 0, J};
            double kx[4], ky[4], gj = 0.0, vx[3];
            permute(rot, vx0, vx);
            for (int c = 0; c < 4; c++) {
                node_rot(fe, rot, 1 + c, xs[c], ys[c], 0, FIX6, NULL);
                node_rot(fe, rot, 11 + c, xs[c], ys[c], h, NULL, NULL);
                assert_true(hs_fe_add_beam_3d(fe, "col", 1 + c, 11 + c, sec[c], vx, HS_FE_LINEAR,
                                              0.0) >= 0);
                kx[c] = 3 * E * sec[c]->Iy / (h * h * h); /* top rotation free */
                ky[c] = 3 * E * sec[c]->Iz / (h * h * h);
                gj += G * sec[c]->J / h;
            }
            double Kx = 0, Ky = 0, Sy = 0;
            for (int c = 0; c < 4; c++) Kx += kx[c], Ky += ky[c], Sy += ky[c] * xs[c];
            const double x_s = Sy / Ky, xm = x_s + e, ym = bw / 2; /* the mass at (xm, ym) */
            node_rot(fe, rot, 100, xm, ym, h, fm, m);
            const int slaves[4] = {11, 12, 13, 14};
            assert_int_equal(hs_fe_rigid_diaphragm(fe, (2 + rot) % 3, 100, slaves, 4), 0);
            finalize(ctx, fe);
            assert_int_equal(hs_fe_ndof(fe), 3);
            double Kt = gj, Kxt = 0, Kyt = 0;
            for (int c = 0; c < 4; c++) {
                const double dx = xs[c] - xm, dy = ys[c] - ym;
                Kt += kx[c] * dy * dy + ky[c] * dx * dx;
                Kxt -= kx[c] * dy;
                Kyt += ky[c] * dx;
            }
            HS_ASSERT_NEAR(Kxt, 0.0, 1e-9 * Kx); /* symmetric in y */
            hs_model *md = NULL;
            assert_int_equal(hs_model_create(ctx, 3, &md), 0);
            double mv[3];
            hs_fe_mass(fe, mv);
            assert_int_equal(hs_model_set_mass(md, mv), 0);
            assert_int_equal(hs_model_attach_fe(md, fe), 0);
            double w2[3];
            assert_int_equal(hs_model_modes(md, w2, NULL), 0);
            double yt[2];
            eig2(Ky, Kt, Kyt, mass, J, yt);
            double ref[3] = {Kx / mass, yt[0], yt[1]};
            if (!ecc) { /* uncoupled: Ky / m and K_theta / J */
                HS_ASSERT_NEAR(yt[0] / fmin(Ky / mass, Kt / J), 1.0, 1e-12);
                HS_ASSERT_NEAR(yt[1] / fmax(Ky / mass, Kt / J), 1.0, 1e-12);
            }
            for (int i = 0; i < 3; i++) /* ascending */
                for (int j = i + 1; j < 3; j++)
                    if (ref[j] < ref[i]) {
                        const double t = ref[i];
                        ref[i] = ref[j];
                        ref[j] = t;
                    }
            for (int i = 0; i < 3; i++) HS_ASSERT_NEAR(sqrt(ref[i] / w2[i]), 1.0, 1e-10);
            if (ecc && rot == 0)
                fprintf(stderr, "diaphragm e = %g: T = %.6f %.6f %.6f s\n", e, 2 * PI / sqrt(w2[0]),
                        2 * PI / sqrt(w2[1]), 2 * PI / sqrt(w2[2]));
            /* a slave moves by u_m + theta_perp x r in the plane */
            const double d[3] = {0.011, -0.007, 0.003};
            double rr[3] = {0, 0, 0}, um[6], us[3], r0[3], r[3], rot_v[3] = {0, 0, 0}, lever[3];
            assert_int_equal(hs_fe_restore(fe, d, NULL, rr, NULL, NULL), 0);
            assert_int_equal(hs_fe_commit(fe), 0);
            for (int k = 0; k < 6; k++) um[k] = hs_fe_node_displacement(fe, 100, k);
            const int perp = (2 + rot) % 3;
            rot_v[perp] = um[3 + perp];
            const double rel0[3] = {xs[0] - xm, ys[0] - ym, 0.0};
            permute(rot, rel0, r0);
            memcpy(r, r0, sizeof r);
            cross(rot_v, r, lever);
            for (int k = 0; k < 3; k++) {
                us[k] = hs_fe_node_displacement(fe, 11, k);
                if (k != perp) HS_ASSERT_NEAR(us[k], um[k] + lever[k], 1e-15);
            }
            HS_ASSERT_NEAR(hs_fe_node_displacement(fe, 11, 3 + perp), um[3 + perp], 0.0);
            hs_model_destroy(&md);
        }
    hs_ctx_destroy(&ctx);
}

static void test_chain_1d(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const double k[3] = {4e4, 3e4, 2e4}, mass[3] = {20, 15, 10};
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 1, 1), 0);
    const int fix[1] = {1};
    assert_true(hs_fe_add_node(fe, 1, 0.0, 0.0) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, fix), 0);
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    for (int s = 0; s < 3; s++) {
        const double crd[1] = {2.0 * (s + 1)};
        assert_true(hs_fe_add_node_crd(fe, s + 2, crd) >= 0);
        assert_int_equal(hs_fe_add_mass(fe, s + 2, &mass[s]), 0);
        if (s == 1) { /* a truss of E A / L = k */
            assert_true(
                hs_fe_add_truss(fe, "t", s + 1, s + 2, k[s] * 2.0, 1.0, HS_FE_LINEAR, 0.0) >= 0);
        } else {
            hs_options_set_num(o, "k", k[s]);
            assert_true(hs_fe_add_zero_length(fe, "z", s + 1, s + 2, HS_FE_UX, "elastic", o) >= 0);
        }
    }
    assert_true(hs_fe_add_beam(fe, "b", 1, 2, 1.0, 1.0, 1.0, HS_FE_LINEAR, 0.0) < 0);
    assert_non_null(strstr(hs_ctx_message(ctx), "needs rotations"));
    finalize(ctx, fe);
    char name[32];
    assert_string_equal(hs_fe_dof_column(fe, 2, name, sizeof name), "n4_ux");
    hs_model *chain = NULL, *sb = NULL;
    assert_int_equal(hs_model_create(ctx, 3, &chain), 0);
    double mv[3];
    hs_fe_mass(fe, mv);
    assert_int_equal(hs_model_set_mass(chain, mv), 0);
    assert_int_equal(hs_model_attach_fe(chain, fe), 0);
    assert_int_equal(hs_model_create(ctx, 3, &sb), 0);
    assert_int_equal(hs_model_set_mass(sb, mass), 0);
    for (int s = 0; s < 3; s++) {
        hs_options_set_num(o, "k", k[s]);
        assert_true(hs_model_add_story(sb, s, "elastic", o, "story") >= 0);
    }
    hs_options_destroy(&o);
    double w_c[3], w_s[3];
    assert_int_equal(hs_model_modes(chain, w_c, NULL), 0);
    assert_int_equal(hs_model_modes(sb, w_s, NULL), 0);
    for (int i = 0; i < 3; i++) HS_ASSERT_NEAR(sqrt(w_s[i] / w_c[i]), 1.0, 1e-13);
    hs_model_destroy(&chain);
    hs_model_destroy(&sb);
    hs_ctx_destroy(&ctx);
}

/* 2-D: a truss-only model (ndf 2) at an angle, EA/L (c^2, cs; cs, s^2); a rigid link (beam)
 * carries a column top's sway and rotation to an offset node: u_s = u_m - dy rz, v_s = v_m + dx rz
 */
static void test_2d_truss_and_link(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 2, 2), 0);
    const double E = 2e8, A = 1e-3, x = 3.0, y = 4.0, L = 5.0, m2[2] = {1, 1};
    assert_true(hs_fe_add_node(fe, 1, 0, 0) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, (const int[2]){1, 1}), 0);
    assert_true(hs_fe_add_node(fe, 2, x, y) >= 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, m2), 0);
    assert_true(hs_fe_add_beam(fe, "b", 1, 2, E, A, 1.0, HS_FE_LINEAR, 0.0) < 0);
    assert_true(hs_fe_add_truss(fe, "t", 1, 2, E, A, HS_FE_LINEAR, 0.0) >= 0);
    /* a second bar along x makes it stable */
    assert_true(hs_fe_add_node(fe, 3, x - 2.0, y) >= 0);
    assert_int_equal(hs_fe_fix(fe, 3, (const int[2]){1, 1}), 0);
    assert_true(hs_fe_add_truss(fe, "h", 3, 2, E, A, HS_FE_LINEAR, 0.0) >= 0);
    finalize(ctx, fe);
    double K[4] = {0};
    assert_int_equal(hs_fe_initial_stiffness(fe, K), 0);
    const double k = E * A / L, c = x / L, s = y / L;
    HS_ASSERT_NEAR(K[0] / (k * c * c + E * A / 2.0), 1.0, 1e-13);
    HS_ASSERT_NEAR(K[1] / (k * c * s), 1.0, 1e-13);
    HS_ASSERT_NEAR(K[3] / (k * s * s), 1.0, 1e-13);
    hs_fe_destroy(&fe);

    assert_int_equal(hs_fe_create(ctx, &fe), 0); /* ndf 3 */
    const double EI = 3e4, h = 3.0, mt[3] = {10, 10, 1};
    assert_true(hs_fe_add_node(fe, 1, 0, 0) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, (const int[3]){1, 1, 1}), 0);
    assert_true(hs_fe_add_node(fe, 2, 0, h) >= 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, mt), 0);
    assert_true(hs_fe_add_node(fe, 3, 0.4, h - 0.3) >= 0);
    assert_true(hs_fe_add_beam(fe, "c", 1, 2, 1.0, 1e6, EI, HS_FE_LINEAR, 0.0) >= 0);
    assert_int_equal(hs_fe_rigid_link(fe, HS_FE_RIGID_BEAM, 2, 3), 0);
    finalize(ctx, fe);
    assert_int_equal(hs_fe_ndof(fe), 3);
    const double d[3] = {0.02, -0.001, 0.005};
    double r[3] = {0};
    assert_int_equal(hs_fe_restore(fe, d, NULL, r, NULL, NULL), 0);
    assert_int_equal(hs_fe_commit(fe), 0);
    HS_ASSERT_NEAR(hs_fe_node_displacement(fe, 3, HS_FE_UX), 0.02 + 0.3 * 0.005, 1e-16);
    HS_ASSERT_NEAR(hs_fe_node_displacement(fe, 3, HS_FE_UY), -0.001 + 0.4 * 0.005, 1e-16);
    HS_ASSERT_NEAR(hs_fe_node_displacement(fe, 3, HS_FE_RZ), 0.005, 0.0);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

/* finalize (or the definition, when `at_define`) fails with `msg` */
static void expect(hs_ctx *ctx, hs_fe **fe, int rc, const char *msg)
{
    if (rc == 0) rc = hs_fe_finalize(*fe);
    assert_true(rc != 0);
    if (!strstr(hs_ctx_message(ctx), msg)) fprintf(stderr, "message: %s\n", hs_ctx_message(ctx));
    assert_non_null(strstr(hs_ctx_message(ctx), msg));
    hs_fe_destroy(fe);
}

static hs_fe *floor_model(hs_ctx *ctx, const double *slave_mass)
{
    hs_fe *fe = model3d(ctx);
    const double m[6] = {1, 1, 0, 0, 0, 1}, vx[3] = {1, 0, 0};
    const hs_fe_section_3d sec = {1e6, 4e5, 0.1, 1e-3, 1e-3, 1e-3};
    node3(fe, 1, 0, 0, 0, FIX6, NULL);
    node3(fe, 2, 2, 0, 3, NULL, slave_mass);
    node3(fe, 3, 2, 2, 3, NULL, NULL);
    node3(fe, 9, 0, 1, 3, (const int[6]){0, 0, 1, 1, 1, 0}, m);
    assert_true(hs_fe_add_beam_3d(fe, "c", 1, 2, &sec, vx, HS_FE_LINEAR, 0.0) >= 0);
    return fe;
}

static void test_errors_3d(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const int s2[1] = {2}, s3[1] = {3};
    hs_fe *fe = floor_model(ctx, NULL);
    assert_int_equal(hs_fe_fix(fe, 2, FIX6), 0);
    expect(ctx, &fe, hs_fe_rigid_diaphragm(fe, 2, 9, s2, 1), "node 2 ux is fixed");
    fe = floor_model(ctx, NULL);
    assert_int_equal(hs_fe_rigid_diaphragm(fe, 2, 9, s2, 1), 0);
    expect(ctx, &fe, hs_fe_rigid_link(fe, HS_FE_RIGID_BAR, 3, 2),
           "rigid_link bar: node 2 ux already follows node 9 (rigid_diaphragm)");
    fe = floor_model(ctx, NULL);
    assert_int_equal(hs_fe_rigid_link(fe, HS_FE_RIGID_BEAM, 3, 2), 0);
    expect(ctx, &fe, hs_fe_rigid_diaphragm(fe, 2, 9, s3, 1),
           "rigid_link beam: node 2 ux follows node 3, which itself follows node 9");
    fe = model3d(ctx);
    node3(fe, 1, 0, 0, 0, FIX6, NULL);
    node3(fe, 2, 0, 0, 3, NULL, NULL);
    const hs_fe_section_3d sec = {1e6, 4e5, 0.1, 1e-3, 1e-3, 1e-3};
    expect(ctx, &fe,
           hs_fe_add_beam_3d(fe, "c", 1, 2, &sec, (const double[3]){0, 0, 2}, HS_FE_LINEAR, 0.0),
           "element 'c': vecxz (0, 0, 2) is parallel to the element's axis");
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    expect(ctx, &fe, hs_fe_set_dimension(fe, 3, 4), "ndm 3 with ndf 4 is not a model");
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skewed_cantilever),     cmocka_unit_test(test_pdelta_3d),
        cmocka_unit_test(test_corotational_truss_3d), cmocka_unit_test(test_rigid_link),
        cmocka_unit_test(test_rigid_diaphragm),       cmocka_unit_test(test_chain_1d),
        cmocka_unit_test(test_2d_truss_and_link),     cmocka_unit_test(test_errors_3d),
    };
    return cmocka_run_group_tests_name("fe3d", tests, NULL, NULL);
}
