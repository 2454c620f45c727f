/* The frame model's recorders on 3-D models (include/hysim/recorders.h, docs/outputs.md
 * "Recorders"), against equilibrium and closed forms:
 *  - a cantilever along a skewed axis (local axes as OpenSees' LinearCrdTransf3d: x along the
 *    chord, y = vecxz x x, z = x x y, written here independently) held at an arbitrary tip
 *    displacement and rotation: the base reactions are minus the tip's restoring force and
 *    minus its moment about the base (the tip force's lever arm included); the local end forces
 *    are the fixed-end stiffness terms of an Euler-Bernoulli member in the local frame ([N Vy Vz
 *    T My Mz]_i,j, the forces on the member's ends); the basic forces [N Mz_i Mz_j My_i My_j T]
 *    are the same numbers and the basic deformations the end rotations relative to the chord;
 *    the global force at j is the restoring force;
 *  - a one-story 3-D frame with a rigid floor (rigid diaphragm perpendicular to z, its mass and
 *    rotational inertia at an off-centre master) shaken in y, undamped, through the coordinator:
 *    every slave's recorded ux, uy, rz is the master's u + theta x r at every step; the columns'
 *    and the brace's base reactions in x and y sum to the master's mass times its absolute
 *    acceleration, and their moment about the vertical axis (base moments plus x Fy - y Fx) to
 *    the floor's inertia moment; a drift across z is the displacement over the story height;
 *    the 190 recorded steps allocate nothing;
 *  - recorders refuse what a 3-D model does not have, with FILE:LINE:COL. */
#include "hs_test.h"
#include "hs_text_def.h"

#include "hysim/coordinator.h"
#include "hysim/fe.h"
#include "hysim/recorders.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int FIX6[6] = {1, 1, 1, 1, 1, 1};

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void unit(double v[3])
{
    const double n = sqrt(dot(v, v));
    for (int k = 0; k < 3; k++) v[k] /= n;
}

static hs_recorder_def def(const char *name, hs_rec_response resp, int *items, int nitems,
                           int ndofs)
{
    hs_recorder_def d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "%s", name);
    d.response = resp;
    d.items = items;
    d.nitems = nitems;
    d.ndofs = ndofs;
    for (int k = 0; k < ndofs; k++) d.dofs[k] = k;
    return d;
}

static void test_skewed_cantilever(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_fe *fe = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 3, 6), 0);
    const hs_fe_section_3d sec = {
        .E = 200e6, .G = 77e6, .A = 0.01, .J = 3e-5, .Iy = 2e-5, .Iz = 9e-5};
    const double L = 3.0, base[3] = {0.5, -0.25, 2.0};
    double x[3] = {1.0, 2.0, 2.0}, v[3] = {0.3, -1.0, 0.4}, y[3], z[3];
    unit(x);
    cross(v, x, y);
    unit(y);
    cross(x, y, z);
    const double tip[3] = {base[0] + L * x[0], base[1] + L * x[1], base[2] + L * x[2]};
    const double m[6] = {1, 1, 1, 0.1, 0.1, 0.1};
    assert_true(hs_fe_add_node_crd(fe, 1, base) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, FIX6), 0);
    assert_true(hs_fe_add_node_crd(fe, 2, tip) >= 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, m), 0);
    assert_true(hs_fe_add_beam_3d(fe, "b", 1, 2, &sec, v, HS_FE_LINEAR, 0.0) >= 0);
    /* node 3 on a rigid arm off the tip: u_3 = u_2 + theta_2 x off, theta_3 = theta_2 */
    const double off[3] = {0.4, -0.3, 0.5},
                 at3[3] = {tip[0] + off[0], tip[1] + off[1], tip[2] + off[2]};
    assert_true(hs_fe_add_node_crd(fe, 3, at3) >= 0);
    assert_int_equal(hs_fe_rigid_link(fe, HS_FE_RIGID_BEAM, 2, 3), 0);
    assert_int_equal(hs_fe_finalize(fe), 0);
    assert_int_equal(hs_fe_ndof(fe), 6);
    for (int d = 0; d < 6; d++) assert_int_equal(hs_fe_dof(fe, 2, d), d);

    /* an arbitrary tip state: translations (m) and rotations (rad) in global axes */
    const double d[6] = {1.3e-3, -0.7e-3, 2.1e-3, 0.9e-3, -1.7e-3, 0.6e-3};
    double r[6] = {0}, iota[6], a0[6] = {0};
    assert_int_equal(hs_fe_restore(fe, d, NULL, r, NULL, NULL), 0);
    assert_int_equal(hs_fe_commit(fe), 0);
    hs_fe_influence(fe, 0, iota);

    int n1[1] = {1}, n2[1] = {2}, n3[1] = {3}, el[1] = {0};
    hs_recorder_def defs[7] = {
        def("base", HS_REC_REACTION, n1, 1, 6), def("tip", HS_REC_DISP, n2, 1, 6),
        def("gf", HS_REC_FORCE, el, 1, 0),      def("lf", HS_REC_LOCAL_FORCE, el, 1, 0),
        def("q", HS_REC_BASIC_FORCE, el, 1, 0), def("ub", HS_REC_DEFORMATION, el, 1, 0),
        def("link", HS_REC_DISP, n3, 1, 6)};
    hs_recorders *rec = NULL;
    int rc = hs_recorders_create(ctx, defs, 7, fe, iota, "kN", "m", "s", &rec);
    if (rc) fprintf(stderr, "%s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    assert_int_equal(hs_recorders_width(rec), 6 + 6 + 12 + 12 + 6 + 6 + 6);
    const char *const *cols = hs_recorders_column_names(rec, 3);
    assert_string_equal(cols[1], "b_Vy_i");
    assert_string_equal(cols[10], "b_My_j");
    assert_string_equal(hs_recorders_column_names(rec, 2)[9], "b_Mx_j");
    assert_string_equal(hs_recorders_column_units(rec, 2)[9], "kN*m");
    assert_string_equal(hs_recorders_column_names(rec, 4)[3], "b_My_i");
    assert_string_equal(hs_recorders_column_names(rec, 0)[4], "n1_ry");
    double row[54];
    assert_int_equal(hs_recorders_gather(rec, d, a0, a0, 0.0, row), 0);
    const double *R = row, *u = row + 6, *gf = row + 12, *lf = row + 24, *q = row + 36,
                 *ub = row + 42, *link = row + 48;
    const double fs = sqrt(dot(r, r)), ms = sqrt(dot(r + 3, r + 3));
    for (int k = 0; k < 6; k++) HS_ASSERT_NEAR(u[k], d[k], 1e-18);
    double txo[3];
    cross(d + 3, off, txo);
    for (int k = 0; k < 3; k++) {
        HS_ASSERT_NEAR(link[k], d[k] + txo[k], 1e-17);
        HS_ASSERT_NEAR(link[3 + k], d[3 + k], 1e-18);
    }
    print_message("    rigid arm: node 3 u = (%.6g, %.6g, %.6g) m, u_2 + theta x r = (%.6g, %.6g, "
                  "%.6g) m\n",
                  link[0], link[1], link[2], d[0] + txo[0], d[1] + txo[1], d[2] + txo[2]);
    /* equilibrium: R_f = -F, R_m = -(M + (tip - base) x F) */
    const double arm[3] = {L * x[0], L * x[1], L * x[2]};
    double mF[3];
    cross(arm, r, mF);
    for (int k = 0; k < 3; k++) {
        HS_ASSERT_NEAR(R[k] / fs, -r[k] / fs, 1e-12);
        HS_ASSERT_NEAR(R[3 + k] / ms, -(r[3 + k] + mF[k]) / ms, 1e-12);
        HS_ASSERT_NEAR(gf[6 + k] / fs, r[k] / fs, 1e-12);
        HS_ASSERT_NEAR(gf[9 + k] / ms, r[3 + k] / ms, 1e-12);
    }
    /* the closed form in the local frame: tip translations (ua, v, w) and rotations (tx, ty,
     * tz) along x, y, z; the base fixed */
    const double ua = d[0] * x[0] + d[1] * x[1] + d[2] * x[2], vv = dot(d, y), w = dot(d, z);
    const double tx = dot(d + 3, x), ty = dot(d + 3, y), tz = dot(d + 3, z);
    const double EA = sec.E * sec.A, EIz = sec.E * sec.Iz, EIy = sec.E * sec.Iy, GJ = sec.G * sec.J,
                 L2 = L * L, L3 = L2 * L;
    const double N = EA / L * ua, T = GJ / L * tx;
    const double Vy = 12 * EIz / L3 * vv - 6 * EIz / L2 * tz,
                 Vz = 12 * EIy / L3 * w + 6 * EIy / L2 * ty;
    const double expect[12] = {-N,
                               -Vy,
                               -Vz,
                               -T,
                               6 * EIy / L2 * w + 2 * EIy / L * ty,
                               -6 * EIz / L2 * vv + 2 * EIz / L * tz,
                               N,
                               Vy,
                               Vz,
                               T,
                               6 * EIy / L2 * w + 4 * EIy / L * ty,
                               -6 * EIz / L2 * vv + 4 * EIz / L * tz};
    double scale = 0.0;
    for (int k = 0; k < 12; k++) scale = fmax(scale, fabs(expect[k]));
    for (int k = 0; k < 12; k++) HS_ASSERT_NEAR(lf[k] / scale, expect[k] / scale, 1e-12);
    const double qe[6] = {N, expect[5], expect[11], expect[4], expect[10], T};
    for (int k = 0; k < 6; k++) HS_ASSERT_NEAR(q[k] / scale, qe[k] / scale, 1e-12);
    const double ube[6] = {ua, -vv / L, tz - vv / L, w / L, ty + w / L, tx};
    for (int k = 0; k < 6; k++) HS_ASSERT_NEAR(ub[k], ube[k], 1e-15);
    hs_recorders_destroy(&rec);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

/* A 1-D chain (ndm 1, ndf 1: support 1 at x = 0, trusses to 2 at x = 2 and 3 at x = 5, a
 * zero-length spring from 1 to 3) and a 2-D truss pair (ndm 2, ndf 2: supports at (0, 0) and
 * (6, 0), the apex (3, 4) loaded): at an arbitrary displacement of the free nodes, each support's
 * reaction is minus the element forces the free nodes carry (equilibrium), and the truss's
 * global forces are N times its direction cosines, N = EA/L times its elongation. */
static void test_low_dimensions(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_fe *fe = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 1, 1), 0);
    const int fix1[1] = {1};
    const double m1[1] = {2.0};
    assert_true(hs_fe_add_node(fe, 1, 0.0, 0.0) >= 0);
    assert_true(hs_fe_add_node(fe, 2, 2.0, 0.0) >= 0);
    assert_true(hs_fe_add_node(fe, 3, 5.0, 0.0) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, fix1), 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, m1), 0);
    assert_int_equal(hs_fe_add_mass(fe, 3, m1), 0);
    assert_true(hs_fe_add_truss(fe, "t1", 1, 2, 1e5, 1e-3, HS_FE_LINEAR, 0.0) >= 0);
    assert_true(hs_fe_add_truss(fe, "t2", 2, 3, 1e5, 2e-3, HS_FE_LINEAR, 0.0) >= 0);
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    assert_int_equal(hs_options_set_num(o, "k", 30.0), 0);
    assert_true(hs_fe_add_zero_length(fe, "s", 1, 3, 0, "elastic", o) >= 0);
    hs_options_destroy(&o);
    assert_int_equal(hs_fe_finalize(fe), 0);
    const double d[2] = {0.01, 0.025}; /* nodes 2, 3 */
    double r[2] = {0}, iota[2], z[2] = {0};
    assert_int_equal(hs_fe_restore(fe, d, NULL, r, NULL, NULL), 0);
    assert_int_equal(hs_fe_commit(fe), 0);
    hs_fe_influence(fe, 0, iota);
    int n1[1] = {1}, e2[1] = {1};
    hs_recorder_def defs[2] = {def("base", HS_REC_REACTION, n1, 1, 1),
                               def("t2f", HS_REC_FORCE, e2, 1, 0)};
    hs_recorders *rec = NULL;
    assert_int_equal(hs_recorders_create(ctx, defs, 2, fe, iota, "kN", "m", "s", &rec), 0);
    assert_int_equal(hs_recorders_width(rec), 3);
    assert_string_equal(hs_recorders_column_names(rec, 0)[0], "n1_ux");
    assert_string_equal(hs_recorders_column_names(rec, 1)[1], "t2_Fx_j");
    double row[3];
    assert_int_equal(hs_recorders_gather(rec, d, z, z, 0.0, row), 0);
    const double N2 = 1e5 * 2e-3 / 3.0 * (d[1] - d[0]);
    HS_ASSERT_NEAR(row[0], -(r[0] + r[1]), 1e-13);
    HS_ASSERT_NEAR(row[0], -(1e5 * 1e-3 / 2.0 * d[0] + 30.0 * d[1]), 1e-13);
    HS_ASSERT_NEAR(row[1], -N2, 1e-13);
    HS_ASSERT_NEAR(row[2], N2, 1e-13);
    hs_recorders_destroy(&rec);
    hs_fe_destroy(&fe);

    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 2, 2), 0);
    const int fix2[2] = {1, 1};
    const double m2[2] = {1.0, 1.0};
    assert_true(hs_fe_add_node(fe, 1, 0.0, 0.0) >= 0);
    assert_true(hs_fe_add_node(fe, 2, 3.0, 4.0) >= 0);
    assert_true(hs_fe_add_node(fe, 3, 6.0, 0.0) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, fix2), 0);
    assert_int_equal(hs_fe_fix(fe, 3, fix2), 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, m2), 0);
    assert_true(hs_fe_add_truss(fe, "a", 1, 2, 1e5, 1e-3, HS_FE_LINEAR, 0.0) >= 0);
    assert_true(hs_fe_add_truss(fe, "b", 2, 3, 1e5, 1e-3, HS_FE_LINEAR, 0.0) >= 0);
    assert_int_equal(hs_fe_finalize(fe), 0);
    const double u2[2] = {0.004, -0.003};
    double r2[2] = {0}, io2[2], z2[2] = {0};
    assert_int_equal(hs_fe_restore(fe, u2, NULL, r2, NULL, NULL), 0);
    assert_int_equal(hs_fe_commit(fe), 0);
    hs_fe_influence(fe, 0, io2);
    int sup[2] = {1, 3}, ea[1] = {0};
    hs_recorder_def defs2[3] = {def("sup", HS_REC_REACTION, sup, 2, 2),
                                def("af", HS_REC_FORCE, ea, 1, 0),
                                def("an", HS_REC_BASIC_FORCE, ea, 1, 0)};
    assert_int_equal(hs_recorders_create(ctx, defs2, 3, fe, io2, "kN", "m", "s", &rec), 0);
    assert_int_equal(hs_recorders_width(rec), 4 + 4 + 1);
    assert_string_equal(hs_recorders_column_names(rec, 0)[3], "n3_uy");
    assert_string_equal(hs_recorders_column_names(rec, 1)[3], "a_Fy_j");
    double row2[9];
    assert_int_equal(hs_recorders_gather(rec, u2, z2, z2, 0.0, row2), 0);
    const double Na = 1e5 * 1e-3 / 5.0 * (0.6 * u2[0] + 0.8 * u2[1]);
    HS_ASSERT_NEAR(row2[0] + row2[2], -r2[0], 1e-13);
    HS_ASSERT_NEAR(row2[1] + row2[3], -r2[1], 1e-13);
    const double fa[4] = {-0.6 * Na, -0.8 * Na, 0.6 * Na, 0.8 * Na};
    for (int k = 0; k < 4; k++) HS_ASSERT_NEAR(row2[4 + k], fa[k], 1e-13);
    HS_ASSERT_NEAR(row2[8], Na, 1e-13);
    HS_ASSERT_NEAR(row2[0], fa[0], 1e-13); /* support 1 carries truss a only */
    hs_recorders_destroy(&rec);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

/* The floor of examples/fe_3d_floor.yaml without P-Delta and damping (so that the element forces
 * balance the inertia exactly), with recorders. */
static const char *FLOOR =
    "hysim: 1\n"
    "name: floor\n"
    "units: {force: kN, length: m, time: s}\n"
    "structure:\n"
    "  model:\n"
    "    ndm: 3\n"
    "    ndf: 6\n"
    "    nodes:\n"
    "      - {id: 1, x: 0, y: 0, z: 0, fix: [1, 1, 1, 1, 1, 1]}\n"
    "      - {id: 2, x: 6, y: 0, z: 0, fix: [1, 1, 1, 1, 1, 1]}\n"
    "      - {id: 3, x: 6, y: 4, z: 0, fix: [1, 1, 1, 1, 1, 1]}\n"
    "      - {id: 4, x: 0, y: 4, z: 0, fix: [1, 1, 1, 1, 1, 1]}\n"
    "      - {id: 11, x: 0, y: 0, z: 3.5}\n"
    "      - {id: 12, x: 6, y: 0, z: 3.5}\n"
    "      - {id: 13, x: 6, y: 4, z: 3.5}\n"
    "      - {id: 14, x: 0, y: 4, z: 3.5}\n"
    "      - {id: 100, x: 3.4, y: 2.2, z: 3.5, fix: [0, 0, 1, 1, 1, 0],\n"
    "         mass: [40, 40, 0, 0, 0, 173.33333333333334]}\n"
    "    elements:\n"
    "      - {type: elastic_beam, name: col1, nodes: [1, 11], E: 30e6, G: 12e6, A: 0.04, J: 2e-4,\n"
    "         Iy: 1.5e-4, Iz: 3e-4, vecxz: [1, 0, 0]}\n"
    "      - {type: elastic_beam, name: col2, nodes: [2, 12], E: 30e6, G: 12e6, A: 0.04, J: 2e-4,\n"
    "         Iy: 1.5e-4, Iz: 3e-4, vecxz: [0, 1, 0]}\n"
    "      - {type: elastic_beam, name: col3, nodes: [3, 13], E: 30e6, G: 12e6, A: 0.04, J: 2e-4,\n"
    "         Iy: 1.5e-4, Iz: 3e-4, vecxz: [1, 0, 0]}\n"
    "      - {type: elastic_beam, name: col4, nodes: [4, 14], E: 30e6, G: 12e6, A: 0.04, J: 2e-4,\n"
    "         Iy: 1.5e-4, Iz: 3e-4, vecxz: [0, 1, 0]}\n"
    "      - {type: elastic_beam, name: beam1, nodes: [11, 12], E: 30e6, G: 12e6, A: 0.05,\n"
    "         J: 3e-4, Iy: 2e-4, Iz: 6e-4, vecxz: [0, 1, 1]}\n"
    "      - {type: elastic_beam, name: beam2, nodes: [12, 13], E: 30e6, G: 12e6, A: 0.05,\n"
    "         J: 3e-4, Iy: 2e-4, Iz: 6e-4, vecxz: [0, 0, 1]}\n"
    "      - {type: truss, name: brace, nodes: [1, 14], E: 30e6, A: 0.002}\n"
    "    rigid_diaphragm:\n"
    "      - {perp: z, master: 100, slaves: [11, 12, 13, 14]}\n"
    "    excitation: y\n"
    "  damping: {none: true}\n"
    "ground_motion: {synthetic: {seed: 7, pga: 3.0, duration: 2, dt: 0.01}}\n"
    "analysis: {integrator: {type: newmark}, dt: 0.01, steps: 200}\n"
    "output:\n"
    "  recorders:\n"
    "    - {name: base, node: [1, 2, 3, 4], dofs: [x, y, rz], response: reaction}\n"
    "    - {name: floor_a, node: 100, dofs: [x, y, rz], response: abs_accel}\n"
    "    - {name: floor_u, node: [100, 11, 12, 13, 14], dofs: [x, y, rz], response: disp}\n"
    "    - {name: story, drift: {i: 2, j: 12, dof: x, perp: z}}\n"
    "    - {name: brace_f, element: brace, response: force}\n"
    "    - {name: brace_n, element: brace, response: basic_force}\n";

static void test_rigid_floor(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_test_def *def = NULL;
    hs_coordinator *c = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    int rc = hs_testfile_load_string(ctx, FLOOR, strlen(FLOOR), "floor.yaml", &def);
    if (!rc) rc = hs_coordinator_create(ctx, def, &c);
    if (!rc) rc = hs_coordinator_advance(c, 10);
    const uint64_t before = hs_alloc_count(); /* recording every step allocates nothing */
    if (!rc) rc = hs_coordinator_advance(c, (int)def->steps - 10);
    const uint64_t allocs = hs_alloc_count() - before;
    if (rc) fprintf(stderr, "%s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    const hs_results *res = hs_coordinator_results(c);
    assert_int_equal(hs_results_count(res), def->steps + 1);
    assert_true(allocs == 0);
    const double xy[5][2] = {{3.4, 2.2}, {0, 0}, {6, 0}, {6, 4}, {0, 4}}; /* 100, 11 .. 14 */
    const double base[4][2] = {{0, 0}, {6, 0}, {6, 4}, {0, 4}};
    const double m = 40.0, I = 173.33333333333334;
    double peak_u = 0.0, peak_f = 0.0, peak_m = 0.0, worst_u = 0.0, worst_f = 0.0, worst_m = 0.0,
           worst_drift = 0.0, worst_brace = 0.0;
    for (int64_t k = 0; k <= def->steps; k++) {
        const double *R = hs_results_series_recorder(res, 0, k),
                     *a = hs_results_series_recorder(res, 1, k),
                     *u = hs_results_series_recorder(res, 2, k),
                     *dr = hs_results_series_recorder(res, 3, k),
                     *bf = hs_results_series_recorder(res, 4, k),
                     *bn = hs_results_series_recorder(res, 5, k);
        assert_non_null(R);
        const double th = u[2];
        for (int s = 1; s <= 4; s++) { /* u_s = u_m + theta x (x_s - x_m) */
            const double ex = u[0] - th * (xy[s][1] - xy[0][1]),
                         ey = u[1] + th * (xy[s][0] - xy[0][0]);
            worst_u = fmax(worst_u,
                           fabs(u[3 * s] - ex) + fabs(u[3 * s + 1] - ey) + fabs(u[3 * s + 2] - th));
        }
        peak_u = fmax(peak_u, fabs(u[1]));
        double fx = 0.0, fy = 0.0, mz = 0.0;
        for (int b = 0; b < 4; b++) {
            fx += R[3 * b];
            fy += R[3 * b + 1];
            mz += R[3 * b + 2] + base[b][0] * R[3 * b + 1] - base[b][1] * R[3 * b];
        }
        const double mze = xy[0][0] * m * a[1] - xy[0][1] * m * a[0] + I * a[2];
        peak_f = fmax(peak_f, fabs(m * a[1]));
        peak_m = fmax(peak_m, fabs(mze));
        worst_f = fmax(worst_f, fabs(fx - m * a[0]) + fabs(fy - m * a[1]));
        worst_m = fmax(worst_m, fabs(mz - mze));
        worst_drift = fmax(worst_drift, fabs(dr[0] - u[6] / 3.5)); /* node 12 ux over 3.5 m */
        /* the brace's global force along its axis (0, 4, 3.5) / |.|, N at j */
        const double Lb = sqrt(16.0 + 3.5 * 3.5);
        worst_brace =
            fmax(worst_brace, fabs(bf[7] - bn[0] * 4.0 / Lb) + fabs(bf[8] - bn[0] * 3.5 / Lb) +
                                  fabs(bf[6]) + fabs(bf[1] + bf[7]));
    }
    print_message("    rigid floor: peak master uy %.4g m; slaves vs u + theta x r %.3g m; base "
                  "force vs m a_abs %.3g of %.4g kN; torsion vs inertia %.3g of %.4g kN m\n",
                  peak_u, worst_u, worst_f, peak_f, worst_m, peak_m);
    assert_true(peak_u > 1e-4);
    assert_true(worst_u <= 1e-14 * peak_u);
    assert_true(peak_f > 1.0 && peak_m > 1.0);
    assert_true(worst_f <= 1e-8 * peak_f);
    assert_true(worst_m <= 1e-8 * peak_m);
    assert_true(worst_drift <= 1e-15);
    assert_true(worst_brace <= 1e-9 * peak_f);
    hs_coordinator_destroy(&c);
    hs_test_def_destroy(&def);
    hs_ctx_destroy(&ctx);
}

/* A floor recorder line replacing FLOOR's recorders; the message carries LINE:COL and says what. */
static void refused(const char *recorder, int line, const char *says)
{
    hs_test_refused_tail(FLOOR, "  recorders:\n", recorder, line, says);
}

static void test_errors(void **state)
{
    (void)state;
    refused("    - {node: 100, dofs: [x, w], response: disp}\n", 41, "x, y, z, rx, ry or rz");
    refused("    - {node: 11, dofs: [z], response: reaction}\n", 41, "node 11 z is not fixed");
    refused("    - {drift: {i: 2, j: 12, dof: rz, perp: z}}\n", 41, "along a translation");
    refused("    - {drift: {i: 11, j: 12, dof: y, perp: z}}\n", 41, "same z coordinate");
    refused("    - {element: col1, response: strain}\n", 41,
            "element 'col1' (elastic_beam) has no strain");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skewed_cantilever),
        cmocka_unit_test(test_low_dimensions),
        cmocka_unit_test(test_rigid_floor),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
