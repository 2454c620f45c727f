/* 3-D beam-columns with sections (src/fe/fe_beamcolumn2d.c's basic system with nq = 6,
 * fe_beamcolumn_element.c's 3-D transformations) against the elastic 3-D beam (fe_beam3d.c,
 * fe_corot3d.c): an inclined cantilever whose section is a grid of elastic fibers with -GJ (off
 * the reference axes, so the centroid shift matters) has, force-based (Lobatto 5) and
 * displacement-based (Legendre 3), the restoring force and tangent of the elasticBeamColumn with
 * EA = E sum A, EIz = E sum A y^2, EIy = E sum A z^2 (about the fibers' centroid) and GJ, at a
 * tip displacement with every component (axial, both bending planes, torsion) for the Linear,
 * PDelta and Corotational transformations, to 1e-10 of the largest entry; so does `section
 * Elastic` 3-D. Then a steel fiber cantilever bent about its strong axis: its basic forces obey
 * the fiber section's axis conventions (OpenSees' FiberSection3d: Mz = -sum s A y,
 * My = sum s A z). */
#include "hs_test.h"

#include "fe/fe_beamcolumn.h"
#include "hysim/fe.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NF 48

typedef struct fibers {
    double y[NF], z[NF], A[NF];
    int n;
    double area, Iz, Iy;
} fibers;

/* An 8 x 6 grid of fibers over a 0.4 x 0.3 rectangle whose corner is off the reference axes. */
static void grid(fibers *f)
{
    f->n = hs_fe_patch_rect(NULL, 8, 6, -0.1, -0.05, 0.3, 0.25, f->y, f->z, f->A, NF);
    assert_int_equal(f->n, NF);
    double A = 0, Qy = 0, Qz = 0;
    for (int i = 0; i < f->n; i++) A += f->A[i], Qz += f->A[i] * f->y[i], Qy += f->A[i] * f->z[i];
    const double yb = Qz / A, zb = Qy / A;
    f->area = A;
    f->Iz = f->Iy = 0.0;
    for (int i = 0; i < f->n; i++) {
        f->Iz += f->A[i] * (f->y[i] - yb) * (f->y[i] - yb);
        f->Iy += f->A[i] * (f->z[i] - zb) * (f->z[i] - zb);
    }
}

enum { REF_BEAM, FIBER_FORCE, FIBER_DISP, ELASTIC_FORCE };

/* The cantilever from (0, 0, 0) to (0.6, -0.4, 3), vecxz (1, 0.2, 0): the tip carries mass on
 * its six DOFs so nothing is condensed. */
static hs_fe *cantilever(int kind, hs_fe_transf transf, const fibers *f, hs_options *el)
{
    const double E = 2e11, G = 8e10, J = 1.5e-3;
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(NULL, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 3, 6), 0);
    assert_true(hs_fe_add_node_crd(fe, 1, (const double[]){0, 0, 0}) >= 0);
    assert_true(hs_fe_add_node_crd(fe, 2, (const double[]){0.6, -0.4, 3}) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, (const int[]){1, 1, 1, 1, 1, 1}), 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, (const double[]){1e3, 1e3, 1e3, 10, 10, 10}), 0);
    const double vecxz[3] = {1, 0.2, 0};
    if (kind == REF_BEAM) {
        const hs_fe_section_3d s = {.E = E, .G = G, .A = f->area, .J = J, .Iy = f->Iy, .Iz = f->Iz};
        assert_true(hs_fe_add_beam_3d(fe, "col", 1, 2, &s, vecxz, transf, 0.0) >= 0);
    } else {
        hs_fe_section_def *d = NULL;
        assert_int_equal(hs_fe_section_def_create(NULL, 3, &d), 0);
        if (kind == ELASTIC_FORCE) {
            assert_int_equal(hs_fe_section_def_elastic(d, E * f->area, E * f->Iz, E * f->Iy, G * J),
                             0);
        } else {
            for (int i = 0; i < f->n; i++)
                assert_int_equal(
                    hs_fe_section_def_fiber(d, f->y[i], f->z[i], f->A[i], "elastic", el), 0);
            assert_int_equal(hs_fe_section_def_torsion(d, G * J), 0);
        }
        const hs_fe_beam_column_def def = {.force_based = kind != FIBER_DISP,
                                           .integration =
                                               kind == FIBER_DISP ? "Legendre" : "Lobatto",
                                           .npoints = kind == FIBER_DISP ? 3 : 5,
                                           .sec = {d},
                                           .vecxz = {vecxz[0], vecxz[1], vecxz[2]}};
        assert_true(hs_fe_add_beam_column(fe, "col", 1, 2, &def, transf) >= 0);
        hs_fe_section_def_destroy(&d);
    }
    assert_int_equal(hs_fe_finalize(fe), 0);
    return fe;
}

static void test_elastic_fibers_equal_elastic_beam(void **state)
{
    (void)state;
    fibers f;
    grid(&f);
    hs_options *el = NULL;
    assert_int_equal(hs_options_create(&el), 0);
    hs_options_set_num(el, "k", 2e11);
    /* axial, both transverse directions, twist and both bending rotations at the tip */
    const double d[6] = {0.03, -0.02, 0.004, 0.015, -0.01, 0.02};
    for (int t = HS_FE_LINEAR; t <= HS_FE_COROTATIONAL; t++) {
        hs_fe *ref = cantilever(REF_BEAM, (hs_fe_transf)t, &f, el);
        assert_int_equal(hs_fe_ndof(ref), 6);
        double r0[6] = {0}, K0[36] = {0}, Ki0[36] = {0};
        assert_int_equal(hs_fe_restore(ref, d, NULL, r0, K0, NULL), 0);
        assert_int_equal(hs_fe_initial_stiffness(ref, Ki0), 0);
        double kmax = 0.0, rmax = 0.0;
        for (int i = 0; i < 36; i++) kmax = fmax(kmax, fabs(K0[i]));
        for (int i = 0; i < 6; i++) rmax = fmax(rmax, fabs(r0[i]));
        for (int kind = FIBER_FORCE; kind <= ELASTIC_FORCE; kind++) {
            hs_fe *fe = cantilever(kind, (hs_fe_transf)t, &f, el);
            double r[6] = {0}, K[36] = {0}, Ki[36] = {0};
            assert_int_equal(hs_fe_restore(fe, d, NULL, r, K, NULL), 0);
            double er = 0.0, ek = 0.0;
            for (int i = 0; i < 6; i++) er = fmax(er, fabs(r[i] - r0[i]) / rmax);
            for (int i = 0; i < 36; i++) ek = fmax(ek, fabs(K[i] - K0[i]) / kmax);
            print_message("    transf %d, kind %d: force %.2e, tangent %.2e of the peak\n", t, kind,
                          er, ek);
            for (int i = 0; i < 6; i++) HS_ASSERT_NEAR(r[i], r0[i], 1e-10 * rmax);
            for (int i = 0; i < 36; i++) HS_ASSERT_NEAR(K[i], K0[i], 1e-10 * kmax);
            assert_int_equal(hs_fe_initial_stiffness(fe, Ki), 0);
            for (int i = 0; i < 36; i++) HS_ASSERT_NEAR(Ki[i], Ki0[i], 1e-10 * kmax);
            hs_fe_destroy(&fe);
        }
        hs_fe_destroy(&ref);
    }
    hs_options_destroy(&el);
}

/* A vertical steel cantilever (local x = global Z, vecxz = global X: local y = vecxz x x = -Y,
 * local z = x x y = X; fe3d_axes) of a fiber section 0.4 deep along local y and 0.2 wide along
 * local z, force-based: a tip rotation about global X (local z) gives Mz only, about global Y
 * (local -y) My only, each with the elastic values q_i = 2 EI / L theta, q_j = 4 EI / L theta of
 * that axis while elastic (strong: I = b h^3 / 12; weak: h b^3 / 12) and, yielded, a tip moment
 * just below the plastic moment sigma_y Z of that axis (Z = b h^2 / 4 or h b^2 / 4). */
static void test_steel_fiber_axes(void **state)
{
    (void)state;
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    const double fy = 250e6, E = 200e9, b = 0.2, h = 0.4, L = 3.0;
    hs_options_set_num(o, "fy", fy);
    hs_options_set_num(o, "E0", E);
    hs_options_set_num(o, "b", 1e-4);
    hs_fe_section_def *d = NULL;
    assert_int_equal(hs_fe_section_def_create(NULL, 3, &d), 0);
    double y[400], z[400], A[400];
    const int nf = hs_fe_patch_rect(NULL, 20, 20, -h / 2, -b / 2, h / 2, b / 2, y, z, A, 400);
    for (int i = 0; i < nf; i++)
        assert_int_equal(hs_fe_section_def_fiber(d, y[i], z[i], A[i], "steel02", o), 0);
    assert_int_equal(hs_fe_section_def_torsion(d, 1e7), 0);
    for (int axis = 0; axis < 2; axis++) {
        hs_fe *fe = NULL;
        assert_int_equal(hs_fe_create(NULL, &fe), 0);
        assert_int_equal(hs_fe_set_dimension(fe, 3, 6), 0);
        assert_true(hs_fe_add_node_crd(fe, 1, (const double[]){0, 0, 0}) >= 0);
        assert_true(hs_fe_add_node_crd(fe, 2, (const double[]){0, 0, L}) >= 0);
        assert_int_equal(hs_fe_fix(fe, 1, (const int[]){1, 1, 1, 1, 1, 1}), 0);
        assert_int_equal(hs_fe_add_mass(fe, 2, (const double[]){1, 1, 1, 1, 1, 1}), 0);
        const hs_fe_beam_column_def def = {.force_based = 1,
                                           .integration = "Lobatto",
                                           .npoints = 5,
                                           .sec = {d},
                                           .vecxz = {1, 0, 0}};
        const int e = hs_fe_add_beam_column(fe, "col", 1, 2, &def, HS_FE_LINEAR);
        assert_true(e >= 0);
        assert_int_equal(hs_fe_finalize(fe), 0);
        const int dof = axis == 0 ? 3 : 4; /* global rx (local z) or ry (local -y) */
        double q[6] = {0};
        /* a 20 x 20 grid: I = (1 - 1 / 20^2) of the solid rectangle's */
        const double I = (axis == 0 ? b * h * h * h / 12 : h * b * b * b / 12) * (1 - 1.0 / 400);
        const double Zp = axis == 0 ? b * h * h / 4 : h * b * b / 4;
        for (int step = 1; step <= 2; step++) {
            double dd[6] = {0};
            dd[dof] = step == 1 ? 1e-5 : 0.05;
            double r[6] = {0};
            assert_int_equal(hs_fe_restore(fe, dd, NULL, r, NULL, NULL), 0);
            assert_int_equal(hs_fe_commit(fe), 0);
            assert_int_equal(hs_fe_element_response(fe, e, HS_FE_BASIC_FORCE, q), 0);
            const int on = axis == 0 ? 1 : 3, off = axis == 0 ? 3 : 1;
            print_message("    axis %d step %d: q = [%g %g %g %g %g %g]\n", axis, step, q[0], q[1],
                          q[2], q[3], q[4], q[5]);
            HS_ASSERT_NEAR(q[off], 0.0, 1e-9 * fabs(q[on]));
            HS_ASSERT_NEAR(q[off + 1], 0.0, 1e-9 * fabs(q[on]));
            if (step == 1) {
                const double k4 = 4 * E * I / L * 1e-5;
                HS_ASSERT_NEAR(fabs(q[on + 1]), k4, 1e-6 * k4);
                HS_ASSERT_NEAR(q[on], 0.5 * q[on + 1], 1e-6 * k4);
            } else {
                assert_true(fabs(q[on + 1]) <= fy * Zp * 1.01);
                assert_true(fabs(q[on + 1]) > 0.9 * fy * Zp);
            }
        }
        hs_fe_destroy(&fe);
    }
    hs_fe_section_def_destroy(&d);
    hs_options_destroy(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elastic_fibers_equal_elastic_beam),
        cmocka_unit_test(test_steel_fiber_axes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
