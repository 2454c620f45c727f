/* Beam-column sections (src/fe/fe_section.c, fe_section_geometry.c) against closed forms: patch
 * and layer areas and centroids, EA and EI of elastic fibers (midpoint rule: b h^3 / 12 (1 - 1/n^2)
 * over n layers), the fully plastic moment fy b h^2 / 4 of a steel rectangle, OpenSees' signs
 * (a positive curvature kz compresses the fibers at positive y and gives a positive Mz), the
 * centroid shift of an off-centre section, the elastic section, the aggregated materials, and
 * the tangent of a reinforced-concrete section against finite differences. */
#include "hs_test.h"

#include "fe/fe_section.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

static hs_material *mat(const char *type, const char *k1, double v1, const char *k2, double v2,
                        const char *k3, double v3)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    if (k1) hs_options_set_num(o, k1, v1);
    if (k2) hs_options_set_num(o, k2, v2);
    if (k3) hs_options_set_num(o, k3, v3);
    hs_material *m = NULL;
    assert_int_equal(hs_material_create(NULL, type, o, &m), 0);
    hs_options_destroy(&o);
    return m;
}

static hs_material *elastic(double E)
{
    return mat("elastic", "k", E, NULL, 0, NULL, 0);
}

static double sum(const double *a, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += a[i];
    return s;
}

static double moment(const double *a, const double *x, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += a[i] * x[i];
    return s;
}

static double moment2(const double *a, const double *x, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += a[i] * x[i] * x[i];
    return s;
}

static void test_patches_and_layers(void **state)
{
    (void)state;
    double y[512], z[512], A[512];
    /* rect 0.3 x 0.5, 10 x 4 cells: equal areas, centroid at the centre of each cell */
    int n = hs_fe_patch_rect(NULL, 10, 4, -0.15, -0.25, 0.15, 0.25, y, z, A, 512);
    assert_int_equal(n, 40);
    HS_ASSERT_NEAR(sum(A, n), 0.15, 1e-15);
    HS_ASSERT_NEAR(A[0], 0.15 / 40, 1e-17);
    HS_ASSERT_NEAR(y[0], -0.135, 1e-15);
    HS_ASSERT_NEAR(z[0], -0.1875, 1e-15);
    HS_ASSERT_NEAR(moment(A, y, n), 0.0, 1e-16);
    /* a trapezoid (bases 2 and 1, height 1): area 1.5, centroid height h (b1 + 2 b2) / 3 (b1 + b2)
     * = 4/9 */
    const double trap[8] = {0.0, 0.0, 2.0, 0.0, 1.5, 1.0, 0.5, 1.0};
    n = hs_fe_patch_quad(NULL, 7, 5, trap, y, z, A, 512);
    assert_int_equal(n, 35);
    HS_ASSERT_NEAR(sum(A, n), 1.5, 1e-14);
    HS_ASSERT_NEAR(moment(A, z, n) / 1.5, 4.0 / 9.0, 1e-14);
    HS_ASSERT_NEAR(moment(A, y, n) / 1.5, 1.0, 1e-14);
    /* clockwise corners are refused */
    const double cw[8] = {0.0, 0.0, 0.5, 1.0, 1.5, 1.0, 2.0, 0.0};
    assert_int_equal(hs_fe_patch_quad(NULL, 2, 2, cw, y, z, A, 512), -1);
    /* a ring of annular sectors (OpenSees 3.8's CircSectionCell): its exact area, centred */
    n = hs_fe_patch_circ(NULL, 36, 4, 0.2, -0.1, 0.1, 0.3, 0.0, 360.0, y, z, A, 512);
    assert_int_equal(n, 144);
    HS_ASSERT_NEAR(sum(A, n), PI * (0.09 - 0.01), 1e-15);
    HS_ASSERT_NEAR(moment(A, y, n) / sum(A, n), 0.2, 1e-14);
    HS_ASSERT_NEAR(moment(A, z, n) / sum(A, n), -0.1, 1e-14);
    /* half a disc in any number of sectors: its exact area and centroid 4 r / (3 pi) above its
     * diameter (each sector's centroid is exact, so the sum is) */
    n = hs_fe_patch_circ(NULL, 7, 3, 0.0, 0.0, 0.0, 0.3, 0.0, 180.0, y, z, A, 512);
    HS_ASSERT_NEAR(sum(A, n), PI * 0.09 / 2.0, 1e-15);
    HS_ASSERT_NEAR(moment(A, z, n) / sum(A, n), 4.0 * 0.3 / (3.0 * PI), 1e-14);
    /* a disc's second moment from the sector centroids: sum A y^2 -> pi r^4 / 4 as the cells
     * shrink (the cells' own moments are left out, as OpenSees' fibers do) */
    n = hs_fe_patch_circ(NULL, 32, 16, 0.0, 0.0, 0.0, 0.3, 0.0, 360.0, y, z, A, 512);
    HS_ASSERT_NEAR(moment2(A, y, n) / (PI * pow(0.3, 4) / 4.0), 1.0, 5e-3);
    /* straight layer: ends included, one bar halfway */
    n = hs_fe_layer_straight(NULL, 4, 0.001, -0.2, 0.1, 0.2, 0.1, y, z, A, 512);
    assert_int_equal(n, 4);
    HS_ASSERT_NEAR(y[1], -0.2 + 0.4 / 3.0, 1e-16);
    HS_ASSERT_NEAR(z[3], 0.1, 0);
    n = hs_fe_layer_straight(NULL, 1, 0.001, -0.2, 0.1, 0.2, 0.3, y, z, A, 512);
    HS_ASSERT_NEAR(y[0], 0.0, 0);
    HS_ASSERT_NEAR(z[0], 0.2, 1e-16);
    /* whole circle of 8 bars: the last one at 315 degrees; sum A y^2 = n A r^2 / 2 */
    n = hs_fe_layer_circ(NULL, 8, 0.001, 0.0, 0.0, 0.25, 0.0, 0.0, 1, y, z, A, 512);
    assert_int_equal(n, 8);
    HS_ASSERT_NEAR(y[7], 0.25 * cos(PI * 315.0 / 180.0), 1e-16);
    double Iy = 0.0;
    for (int i = 0; i < n; i++) Iy += A[i] * y[i] * y[i];
    HS_ASSERT_NEAR(Iy, 8 * 0.001 * 0.0625 / 2.0, 1e-18);
    assert_int_equal(hs_fe_layer_straight(NULL, 0, 0.001, 0, 0, 1, 1, y, z, A, 512), -1);
}

/* A rectangle b x h of n x m fibers of one material, reference axes offset by (dy, dz). */
static fe_section *rect_section(int ndm, double b, double h, int n, int m, double dy, double dz,
                                hs_material *(*make)(void))
{
    fe_section *s = NULL;
    assert_int_equal(fe_section_create(NULL, ndm, &s), 0);
    double y[1024], z[1024], A[1024];
    const int k =
        hs_fe_patch_rect(NULL, n, m, dy - h / 2, dz - b / 2, dy + h / 2, dz + b / 2, y, z, A, 1024);
    assert_int_equal(k, n * m);
    for (int i = 0; i < k; i++)
        assert_int_equal(fe_section_add_fiber(s, y[i], z[i], A[i], make()), 0);
    return s;
}

static hs_material *steel_e(void)
{
    return elastic(200e9);
}

static hs_material *steel_pp(void)
{
    return mat("elastic_pp", "E", 200e9, "epsyP", 250e6 / 200e9, NULL, 0);
}

static void test_elastic_fibers(void **state)
{
    (void)state;
    const double E = 200e9, b = 0.3, h = 0.5;
    /* 2-D, 10 layers along y, reference axes 1 m away: the centroid is found */
    fe_section *s = rect_section(2, b, h, 10, 3, 1.0, 0.0, steel_e);
    assert_int_equal(fe_section_finalize(s), 0);
    assert_int_equal(s->order, 2);
    HS_ASSERT_NEAR(s->ybar, 1.0, 1e-14);
    double ks[36];
    fe_section_initial_tangent(s, ks);
    const double EA = E * b * h, EI = E * b * h * h * h / 12.0 * (1.0 - 1.0 / 100.0);
    HS_ASSERT_NEAR(ks[0], EA, 1e-13 * EA);
    HS_ASSERT_NEAR(ks[3], EI, 1e-13 * EI);
    HS_ASSERT_NEAR(ks[1], 0.0, 1e-13 * EA * h);
    const double e[2] = {1e-4, 2e-3};
    assert_int_equal(fe_section_set_trial(s, e), 0);
    HS_ASSERT_NEAR(s->s[0], EA * 1e-4, 1e-12 * EA * 1e-4);
    HS_ASSERT_NEAR(s->s[1], EI * 2e-3, 1e-12 * EI * 2e-3);
    /* OpenSees' sign: positive kz compresses the fibers at positive y */
    int top = 0;
    for (int i = 0; i < s->nfib; i++)
        if (s->y[i] > s->y[top]) top = i;
    assert_true(s->strain[top] < 0.0);
    fe_section_destroy(&s);
    /* 3-D with -GJ: EIy from the 6 columns along z, torsion uncoupled */
    s = rect_section(3, b, h, 4, 6, 0.0, -2.0, steel_e);
    assert_int_equal(fe_section_finalize(s), HS_EINPUT); /* no -GJ */
    fe_section_destroy(&s);
    s = rect_section(3, b, h, 4, 6, 0.0, -2.0, steel_e);
    assert_int_equal(fe_section_set_torsion(s, 5e6), 0);
    assert_int_equal(fe_section_finalize(s), 0);
    assert_int_equal(s->order, 4);
    const double EIz = E * b * h * h * h / 12.0 * (1.0 - 1.0 / 16.0);
    const double EIy = E * h * b * b * b / 12.0 * (1.0 - 1.0 / 36.0);
    const double e3[4] = {0.0, 1e-3, -2e-3, 0.01};
    assert_int_equal(fe_section_set_trial(s, e3), 0);
    HS_ASSERT_NEAR(s->ks[1 * 4 + 1], EIz, 1e-13 * EIz);
    HS_ASSERT_NEAR(s->ks[2 * 4 + 2], EIy, 1e-13 * EIy);
    HS_ASSERT_NEAR(s->ks[1 * 4 + 2], 0.0, 1e-13 * EIy);
    HS_ASSERT_NEAR(s->s[1], EIz * 1e-3, 1e-12 * EIz * 1e-3);
    HS_ASSERT_NEAR(s->s[2], -EIy * 2e-3, 1e-12 * EIy * 2e-3);
    HS_ASSERT_NEAR(s->s[3], 5e6 * 0.01, 1e-9);
    HS_ASSERT_NEAR(s->s[0], 0.0, 1e-9 * EA * 1e-3);
    fe_section_destroy(&s);
}

/* The fully plastic moment of a steel rectangle: every fiber at +-fy, Mp = fy b h^2 / 4 exactly
 * with an even number of layers; and N = 0 under pure bending. */
static void test_plastic_moment(void **state)
{
    (void)state;
    const double fy = 250e6, b = 0.2, h = 0.4;
    fe_section *s = rect_section(2, b, h, 40, 1, 0.0, 0.0, steel_pp);
    assert_int_equal(fe_section_finalize(s), 0);
    const double ky = 2.0 * fy / 200e9 / h; /* the curvature at first yield */
    double e[2] = {0.0, 0.0};
    for (int k = 1; k <= 50; k++) { /* to 100 times the yield curvature */
        e[1] = 2.0 * ky * k;
        assert_int_equal(fe_section_set_trial(s, e), 0);
        assert_int_equal(fe_section_commit(s), 0);
    }
    /* every layer's centroid (the nearest h / 80 from the axis) is past yield at h / 200: Mp
     * to the round-off of the sums (taken four fibers at a time, then added) */
    const double Mp = fy * b * h * h / 4.0;
    assert_true(s->s[1] < Mp * (1.0 + 4.0 * DBL_EPSILON) && s->s[1] > Mp * (1.0 - 1e-3));
    const double M_committed = s->s[1];
    e[1] = 1.0; /* every layer yielded */
    assert_int_equal(fe_section_set_trial(s, e), 0);
    HS_ASSERT_NEAR(s->s[1], Mp, 1e-12 * Mp);
    HS_ASSERT_NEAR(s->s[0], 0.0, 1e-12 * fy * b * h);
    HS_ASSERT_NEAR(s->ks[3], 0.0, 0);
    /* revert: back to the committed state */
    assert_int_equal(fe_section_revert(s), 0);
    HS_ASSERT_NEAR(s->s[1], M_committed, 0);
    fe_section_destroy(&s);
}

static void test_elastic_and_aggregated(void **state)
{
    (void)state;
    fe_section *s = NULL;
    assert_int_equal(fe_section_create(NULL, 2, &s), 0);
    assert_int_equal(fe_section_set_elastic(s, 3e9, 4e7, 0, 0), 0);
    assert_int_equal(fe_section_add_uniaxial(s, FE_SEC_VY, elastic(1e8)), 0);
    assert_int_equal(fe_section_add_uniaxial(s, FE_SEC_MZ, elastic(1.0)), HS_EINPUT);
    assert_int_equal(fe_section_finalize(s), 0);
    assert_int_equal(s->order, 3);
    assert_int_equal(fe_section_slot(s, FE_SEC_VY), 2);
    const double e[3] = {1e-4, -1e-3, 2e-3};
    assert_int_equal(fe_section_set_trial(s, e), 0);
    HS_ASSERT_NEAR(s->s[0], 3e5, 1e-9);
    HS_ASSERT_NEAR(s->s[1], -4e4, 1e-9);
    HS_ASSERT_NEAR(s->s[2], 2e5, 1e-9);
    HS_ASSERT_NEAR(s->ks[2 * 3 + 2], 1e8, 0);
    fe_section_destroy(&s);
    /* section Uniaxial: one material on Mz */
    assert_int_equal(fe_section_create(NULL, 2, &s), 0);
    assert_int_equal(
        fe_section_add_uniaxial(s, FE_SEC_MZ, mat("steel01", "fy", 100.0, "E0", 1e4, "b", 0.1)), 0);
    assert_int_equal(fe_section_finalize(s), 0);
    assert_int_equal(s->order, 1);
    assert_int_equal(s->code[0], FE_SEC_MZ);
    const double k = 0.02;
    assert_int_equal(fe_section_set_trial(s, &k), 0);
    HS_ASSERT_NEAR(s->s[0], 100.0 + 0.1 * 1e4 * (0.02 - 0.01), 1e-10);
    fe_section_destroy(&s);
}

static hs_material *concrete_law(double fc, double epsc0, double fcu, double epscu)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "fc", fc);
    hs_options_set_num(o, "epsc0", epsc0);
    hs_options_set_num(o, "fcu", fcu);
    hs_options_set_num(o, "epscu", epscu);
    hs_material *m = NULL;
    assert_int_equal(hs_material_create(NULL, "concrete02", o, &m), 0);
    hs_options_destroy(&o);
    return m;
}

static hs_material *concrete(void)
{
    return concrete_law(-30e6, -0.002, -6e6, -0.01);
}

/* A reinforced-concrete column section (Concrete02 core, Steel02 bars in two layers) in 3-D:
 * the tangent is a one-sided difference of the resultants along a cyclic path of axial load and
 * biaxial bending; set_trial and commit allocate nothing. */
static void test_rc_tangent(void **state)
{
    (void)state;
    fe_section *s = rect_section(3, 0.4, 0.4, 10, 10, 0.0, 0.0, concrete);
    double y[8], z[8], A[8];
    for (int side = -1; side <= 1; side += 2) {
        const int n =
            hs_fe_layer_straight(NULL, 4, 5e-4, side * 0.16, -0.16, side * 0.16, 0.16, y, z, A, 8);
        for (int i = 0; i < n; i++)
            assert_int_equal(
                fe_section_add_fiber(s, y[i], z[i], A[i],
                                     mat("steel02", "fy", 420e6, "E0", 200e9, "b", 0.01)),
                0);
    }
    assert_int_equal(fe_section_set_torsion(s, 1e7), 0);
    assert_int_equal(fe_section_finalize(s), 0);
    const uint64_t allocs = hs_alloc_count();
    int checked = 0;
    for (int k = 1; k <= 60; k++) {
        const double t = k / 60.0;
        double e[4] = {-5e-4 * t, 0.02 * t * sin(4 * PI * t), 0.01 * t * cos(3 * PI * t), 0.0};
        assert_int_equal(fe_section_set_trial(s, e), 0);
        if (k % 5 == 0) {
            /* forward and backward differences: a fiber whose law has a kink within h of its
             * strain matches one of them */
            double ks[16], s0[4], fwd[16], bwd[16];
            memcpy(ks, s->ks, sizeof ks);
            memcpy(s0, s->s, sizeof s0);
            const double h = 1e-9;
            for (int j = 0; j < 3; j++) {
                double ep[4], em[4];
                memcpy(ep, e, sizeof e);
                memcpy(em, e, sizeof e);
                ep[j] += h;
                em[j] -= h;
                assert_int_equal(fe_section_set_trial(s, ep), 0);
                for (int i = 0; i < 3; i++) fwd[i * 4 + j] = (s->s[i] - s0[i]) / h;
                assert_int_equal(fe_section_set_trial(s, em), 0);
                for (int i = 0; i < 3; i++) bwd[i * 4 + j] = (s0[i] - s->s[i]) / h;
            }
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) {
                    /* scale: EA, EA d, EA d^2 with d = 0.2 m the half depth */
                    const double sc = ks[0] * pow(0.2, (i > 0) + (j > 0));
                    const double err = fmin(fabs(ks[i * 4 + j] - fwd[i * 4 + j]),
                                            fabs(ks[i * 4 + j] - bwd[i * 4 + j]));
                    if (err > 1e-5 * sc)
                        fprintf(stderr,
                                "step %d, entry (%d, %d): tangent %.9g, differences %.9g "
                                "%.9g\n",
                                k, i, j, ks[i * 4 + j], fwd[i * 4 + j], bwd[i * 4 + j]);
                    assert_true(err <= 1e-5 * sc);
                }
            checked++;
            assert_int_equal(fe_section_set_trial(s, e), 0);
        }
        assert_int_equal(fe_section_commit(s), 0);
    }
    assert_true(hs_alloc_count() == allocs);
    assert_int_equal(checked, 12);
    fe_section_destroy(&s);
}

static hs_material *cover(void)
{
    return concrete_law(-25e6, -0.002, -5e6, -0.006);
}

static hs_material *steel(void)
{
    return mat("steel02", "fy", 420e6, "E0", 200e9, "b", 0.01);
}

/* Sums of one fiber: the reference resultants of test_fiber_groups. */
static void ref_add(hs_material *m, double y, double A, double eps, double kz, double r[5])
{
    assert_int_equal(hs_material_set_trial(m, eps - y * kz, 0.0), 0);
    const double f = hs_material_stress(m) * A, k = hs_material_tangent(m) * A;
    r[0] += f;
    r[1] -= f * y;
    r[2] += k;
    r[3] -= k * y;
    r[4] += k * y * y;
}

/* The flat fiber arrays (fe_section.h) against one material object per fiber summed as the
 * section's formulas say: a 2-D RC section of two Concrete02 laws (core and cover), Steel02 bars
 * in layers along z and ElasticPP fibers (no fiber law: material objects), along a cyclic path
 * of axial strain and curvature that cracks, crushes and yields. The fibers of one law at one y
 * are merged (the 4 bars of a layer, a patch's columns along z): 10 x 3 core cells, 2 x (10 x 1)
 * cover cells, 3 layers of 4 bars and 2 ElasticPP fibers are 10 + 10 + 3 + 2 = 25 fibers, and
 * the resultants and tangent equal the objects' to round-off (1e-12 of their scale). Then
 * checkpoints: the committed state saved at step 20 and loaded after step 40 gives step 21's
 * trial again; reset gives the virgin response. */
static void test_fiber_groups(void **state)
{
    (void)state;
    enum { NC = 30 + 20 + 12 + 2 };
    const double b = 0.3, h = 0.5, cv = 0.04;
    double y[NC], z[NC], A[NC];
    int n = hs_fe_patch_rect(NULL, 10, 3, -h / 2 + cv, -b / 2 + cv, h / 2 - cv, b / 2 - cv, y, z, A,
                             NC);
    assert_int_equal(n, 30);
    for (int side = -1; side <= 1; side += 2) /* cover faces along z, mirrored */
        n += hs_fe_patch_rect(NULL, 10, 1, -h / 2 + cv, side < 0 ? -b / 2 : b / 2 - cv, h / 2 - cv,
                              side < 0 ? -b / 2 + cv : b / 2, y + n, z + n, A + n, NC - n);
    for (int l = 0; l < 3; l++)
        n += hs_fe_layer_straight(NULL, 4, 5e-4, (l - 1) * 0.2, -0.1, (l - 1) * 0.2, 0.1, y + n,
                                  z + n, A + n, NC - n);
    y[n] = 0.24, z[n] = 0.0, A[n++] = 1e-4;
    y[n] = -0.24, z[n] = 0.0, A[n++] = 1e-4;
    assert_int_equal(n, NC);
    fe_section *s = NULL;
    assert_int_equal(fe_section_create(NULL, 2, &s), 0);
    hs_material *ref[NC];
    for (int i = 0; i < NC; i++) {
        hs_material *(*make)(void) = i < 30 ? concrete : i < 50 ? cover : i < 62 ? steel : steel_pp;
        hs_material *m = make();
        ref[i] = make();
        assert_int_equal(fe_section_add_fiber(s, y[i], z[i], A[i], m), 0);
    }
    assert_int_equal(fe_section_finalize(s), 0);
    assert_int_equal(s->nfib, 25);
    assert_int_equal(s->ngrp, 3);
    assert_int_equal(s->nfib - s->nobj, 2); /* the ElasticPP fibers keep their objects */
    const double yb = s->ybar;
    const uint64_t allocs = hs_alloc_count();
    double saved[4096], e21[2], s21[2], ks21[4];
    assert_true(fe_section_state_size(s) < 4096);
    double worst = 0.0;
    for (int k = 1; k <= 40; k++) {
        const double t = k / 40.0;
        const double e[2] = {-1e-3 * t + 2e-3 * sin(5 * PI * t) * t,
                             0.03 * t * sin(3 * PI * t) + 0.01 * cos(7 * PI * t) * t};
        assert_int_equal(fe_section_set_trial(s, e), 0);
        double r[5] = {0};
        for (int i = 0; i < NC; i++) ref_add(ref[i], y[i] - yb, A[i], e[0], e[1], r);
        const double got[5] = {s->s[0], s->s[1], s->ks[0], s->ks[1], s->ks[3]};
        const double scale[5] = {fabs(r[0]) + 1e3, fabs(r[1]) + 1e2, r[2], fabs(r[3]) + r[2] * h,
                                 r[4]};
        for (int c = 0; c < 5; c++) worst = fmax(worst, fabs(got[c] - r[c]) / scale[c]);
        for (int i = 0; i < NC; i++) assert_int_equal(hs_material_commit(ref[i]), 0);
        assert_int_equal(fe_section_commit(s), 0);
        if (k == 20) assert_int_equal(fe_section_state_save(s, saved), 0);
        if (k == 21) {
            memcpy(e21, e, sizeof e21);
            memcpy(s21, s->s, sizeof s21);
            memcpy(ks21, s->ks, sizeof ks21);
        }
    }
    assert_true(hs_alloc_count() == allocs);
    print_message("    flat fiber arrays against material objects: %.3g of scale (25 of %d "
                  "fibers evaluated)\n",
                  worst, NC);
    assert_true(worst < 1e-12);
    assert_int_equal(fe_section_state_load(s, saved), 0);
    assert_int_equal(fe_section_revert(s), 0);
    assert_int_equal(fe_section_set_trial(s, e21), 0);
    for (int c = 0; c < 2; c++) assert_true(s->s[c] == s21[c]);
    for (int c = 0; c < 4; c++) assert_true(s->ks[c] == ks21[c]);
    /* reset: the virgin tangent EA = sum E0 A at zero deformation */
    assert_int_equal(fe_section_reset(s), 0);
    double k0[4];
    fe_section_initial_tangent(s, k0);
    HS_ASSERT_NEAR(s->ks[0], k0[0], 1e-12 * k0[0]);
    HS_ASSERT_NEAR(s->ks[3], k0[3], 1e-12 * k0[3]);
    for (int i = 0; i < NC; i++) hs_material_destroy(&ref[i]);
    fe_section_destroy(&s);
}

/* The laws of a batch's RC sections: core, cover and bars. */
typedef struct rc_laws {
    hs_material *(*core)(void), *(*cover)(void), *(*bar)(void);
} rc_laws;

static hs_material *concrete01_law(double fpc, double epsc0, double fpcu, double epscu)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "fpc", fpc);
    hs_options_set_num(o, "epsc0", epsc0);
    hs_options_set_num(o, "fpcu", fpcu);
    hs_options_set_num(o, "epscu", epscu);
    hs_material *m = NULL;
    assert_int_equal(hs_material_create(NULL, "concrete01", o, &m), 0);
    hs_options_destroy(&o);
    return m;
}

static hs_material *core01(void)
{
    return concrete01_law(-30e6, -0.002, -6e6, -0.01);
}

static hs_material *cover01(void)
{
    return concrete01_law(-25e6, -0.002, -5e6, -0.006);
}

static hs_material *steel01(void)
{
    return mat("steel01", "fy", 420e6, "E0", 200e9, "b", 0.01);
}

static const rc_laws LAWS02 = {concrete, cover, steel}; /* Concrete02, Steel02: rows */

/* A 2-D RC section of a force-based element's point: a core of ncore cells along y, two cover
 * cells a side, 3 layers of 2 bars, of laws L; extra adds an ElasticPP fiber (a material object:
 * no batch). */
static fe_section *rc_point(int ncore, int extra, const rc_laws *L)
{
    fe_section *s = NULL;
    assert_int_equal(fe_section_create(NULL, 2, &s), 0);
    double y[64], z[64], A[64];
    int n = hs_fe_patch_rect(NULL, ncore, 1, -0.21, -0.11, 0.21, 0.11, y, z, A, 64);
    for (int i = 0; i < n; i++)
        assert_int_equal(fe_section_add_fiber(s, y[i], z[i], A[i], L->core()), 0);
    for (int side = -1; side <= 1; side += 2) {
        n = hs_fe_patch_rect(NULL, 2, 1, side < 0 ? -0.25 : 0.21, -0.15, side < 0 ? -0.21 : 0.25,
                             0.15, y, z, A, 64);
        for (int i = 0; i < n; i++)
            assert_int_equal(fe_section_add_fiber(s, y[i], z[i], A[i], L->cover()), 0);
    }
    for (int l = 0; l < 3; l++) {
        n = hs_fe_layer_straight(NULL, 2, 5e-4, (l - 1) * 0.18, -0.1, (l - 1) * 0.18, 0.1, y, z, A,
                                 64);
        for (int i = 0; i < n; i++)
            assert_int_equal(fe_section_add_fiber(s, y[i], z[i], A[i], L->bar()), 0);
    }
    if (extra) assert_int_equal(fe_section_add_fiber(s, 0.2, 0.0, 1e-4, steel_pp()), 0);
    assert_int_equal(fe_section_finalize(s), 0);
    return s;
}

/* Section p's deformations at step k (a cyclic path that cracks, crushes and yields; each point
 * its own amplitude and phase, as along a member). */
static void batch_path(int p, double t, double e[FE_SEC_MAX])
{
    e[0] = -8e-4 * t + 1.5e-3 * sin((5 + p) * PI * t) * t;
    e[1] = (0.02 + 0.006 * p) * t * sin(3 * PI * t + p) + 0.008 * cos(7 * PI * t) * t;
}

/* The checkpoint states of two sections: the same bytes. */
static void same_states(const fe_section *a, const fe_section *b)
{
    static double sa[4096], sb[4096];
    const size_t n = fe_section_state_size(a);
    assert_true(n == fe_section_state_size(b) && n <= 4096);
    assert_int_equal(fe_section_state_save(a, sa), 0);
    assert_int_equal(fe_section_state_save(b, sb), 0);
    assert_memory_equal(sa, sb, n * sizeof(double));
}

/* fe_section_batch (the points of a force-based element in one law call a material group)
 * against the same sections set one after the other: five RC sections of different core
 * subdivisions (groups of 7 to 13 merged fibers, tails of every length), of Concrete02 and Steel02
 * (states as rows) and of Concrete01 and Steel01 (one fiber after the other), along cyclic paths
 * with two trials a step, reverts, a step where one section alone was set, checkpoints saved and
 * loaded: the resultants and tangents the same bits at every trial, the checkpoint states the same
 * bytes; nothing allocated. Sections with a material object or another law's parameters make no
 * batch.
 * shared: the batch takes its scratch from a model's fe_batch_scratch, shared with a second batch
 * (other sections, more fibers: the scratch grows) whose trial runs after each of the first's,
 * overwriting the scratch: a batch's trial reads nothing left there by its last one. */
static void batch_against_one_by_one(const rc_laws *L, int shared)
{
    enum { NP = 5 };
    const int ncore[NP] = {10, 10, 7, 13, 9};
    fe_section *a[NP], *b[NP];
    for (int p = 0; p < NP; p++) {
        a[p] = rc_point(ncore[p], 0, L);
        b[p] = rc_point(ncore[p], 0, L);
    }
    assert_int_equal(a[0]->ngrp, 3);
    fe_section_batch *bt = NULL, *other = NULL;
    fe_batch_scratch *scratch = NULL;
    fe_section *o[NP];
    if (shared) {
        assert_int_equal(fe_batch_scratch_create(&scratch), 0);
        for (int p = 0; p < NP; p++) o[p] = rc_point(ncore[p] + 4, 0, L);
    }
    assert_int_equal(fe_section_batch_create(a, NP, scratch, &bt), 0);
    assert_non_null(bt);
    if (shared) {
        assert_int_equal(fe_section_batch_create(o, NP, scratch, &other), 0);
        assert_non_null(other);
    }
    const uint64_t allocs = hs_alloc_count();
    double e[NP][FE_SEC_MAX] = {{0}}, saved[NP][4096];
    int trials = 0;
    for (int k = 1; k <= 60; k++) {
        for (int it = 0; it < 2; it++) { /* an element iteration, then the converged one */
            const double t = (k - 0.3 * (1 - it)) / 60.0;
            for (int p = 0; p < NP; p++) batch_path(p, t, e[p]);
            fe_section_batch_set_trial(bt, e);
            if (other) { /* (its results at other paths: the scratch overwritten) */
                double eo[NP][FE_SEC_MAX] = {{0}};
                for (int p = 0; p < NP; p++) batch_path(NP - 1 - p, 1.0 - t, eo[p]);
                fe_section_batch_set_trial(other, eo);
            }
            for (int p = 0; p < NP; p++) {
                assert_int_equal(fe_section_set_trial(b[p], e[p]), 0);
                assert_memory_equal(a[p]->s, b[p]->s, 2 * sizeof(double));
                assert_memory_equal(a[p]->ks, b[p]->ks, 4 * sizeof(double));
                trials++;
            }
        }
        for (int p = 0; p < NP; p++) /* (the element reverts all its points, then commits) */
            if (k % 7 == 0) {
                assert_int_equal(fe_section_revert(a[p]), 0);
                assert_int_equal(fe_section_revert(b[p]), 0);
                assert_memory_equal(a[p]->s, b[p]->s, 2 * sizeof(double));
                assert_memory_equal(a[p]->ks, b[p]->ks, 4 * sizeof(double));
            }
        for (int p = 0; p < NP; p++) {
            assert_int_equal(fe_section_commit(a[p]), 0);
            assert_int_equal(fe_section_commit(b[p]), 0);
        }
        if (k == 33) { /* one section set alone after the commit (its own path), then all of
                          them committed: the others keep their committed states */
            const double e1[FE_SEC_MAX] = {1e-4, -0.01};
            assert_int_equal(fe_section_set_trial(a[1], e1), 0);
            assert_int_equal(fe_section_set_trial(b[1], e1), 0);
            assert_memory_equal(a[1]->s, b[1]->s, 2 * sizeof(double));
            for (int p = 0; p < NP; p++) {
                assert_int_equal(fe_section_commit(a[p]), 0);
                assert_int_equal(fe_section_commit(b[p]), 0);
            }
            for (int p = 0; p < NP; p++) same_states(a[p], b[p]);
        }
        if (k % 10 == 0)
            for (int p = 0; p < NP; p++) same_states(a[p], b[p]);
        if (k == 20)
            for (int p = 0; p < NP; p++) assert_int_equal(fe_section_state_save(a[p], saved[p]), 0);
    }
    assert_true(hs_alloc_count() == allocs);
    /* back to step 20 from the checkpoint (loaded into the batch's sections and the others) and
     * on again: the same bits */
    for (int p = 0; p < NP; p++) {
        assert_int_equal(fe_section_state_load(a[p], saved[p]), 0);
        assert_int_equal(fe_section_state_load(b[p], saved[p]), 0);
        assert_int_equal(fe_section_revert(a[p]), 0);
        assert_int_equal(fe_section_revert(b[p]), 0);
        same_states(a[p], b[p]);
    }
    for (int k = 21; k <= 30; k++) {
        for (int p = 0; p < NP; p++) batch_path(p, k / 60.0, e[p]);
        fe_section_batch_set_trial(bt, e);
        if (other) fe_section_batch_set_trial(other, e);
        for (int p = 0; p < NP; p++) {
            assert_int_equal(fe_section_set_trial(b[p], e[p]), 0);
            assert_memory_equal(a[p]->s, b[p]->s, 2 * sizeof(double));
            assert_memory_equal(a[p]->ks, b[p]->ks, 4 * sizeof(double));
            assert_int_equal(fe_section_commit(a[p]), 0);
            assert_int_equal(fe_section_commit(b[p]), 0);
        }
    }
    for (int p = 0; p < NP; p++) same_states(a[p], b[p]);
    print_message("    batch of %d sections: %d trials, the same bits as one by one\n", NP, trials);
    for (int p = 0; p < NP; p++) {
        fe_section_destroy(&a[p]);
        fe_section_destroy(&b[p]);
    }
    fe_section_batch_destroy(&bt);
    if (shared) {
        fe_section_batch_destroy(&other);
        for (int p = 0; p < NP; p++) fe_section_destroy(&o[p]);
        fe_batch_scratch_destroy(&scratch);
    }
}

/* The fibers' places shared by the sections made from one description (fe_section_make): the
 * sections of a description read one copy of y, z and A (the same pointers), a description of other
 * fibers keeps its own, and a shared section answers as one built on its own with the same fibers
 * (the same bits at every trial of a cyclic path); the places outlive whichever goes first, the
 * description or its sections (ASan: no leak, no double free). */
static void test_shared_places(void **state)
{
    (void)state;
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "fy", 420e6);
    hs_options_set_num(o, "E0", 200e9);
    hs_options_set_num(o, "b", 0.01);
    double y[64], z[64], A[64];
    const int n = hs_fe_patch_rect(NULL, 12, 2, -0.3, -0.2, 0.3, 0.2, y, z, A, 64);
    hs_fe_section_def *d = NULL, *d2 = NULL;
    assert_int_equal(hs_fe_section_def_create(NULL, 2, &d), 0);
    assert_int_equal(hs_fe_section_def_create(NULL, 2, &d2), 0);
    for (int i = 0; i < n; i++) {
        assert_int_equal(hs_fe_section_def_fiber(d, y[i], z[i], A[i], "steel02", o), 0);
        /* d2: the same fibers but the last one moved 1 mm */
        const double dy = i == n - 1 ? 1e-3 : 0.0;
        assert_int_equal(hs_fe_section_def_fiber(d2, y[i] + dy, z[i], A[i], "steel02", o), 0);
    }
    fe_section *s[3] = {NULL, NULL, NULL}, *other = NULL, *own = NULL;
    for (int k = 0; k < 3; k++) assert_int_equal(fe_section_make(d, &s[k]), 0);
    assert_int_equal(fe_section_make(d2, &other), 0);
    for (int k = 1; k < 3; k++) {
        assert_ptr_equal(s[k]->y, s[0]->y);
        assert_ptr_equal(s[k]->z, s[0]->z);
        assert_ptr_equal(s[k]->A, s[0]->A);
    }
    assert_ptr_not_equal(other->y, s[0]->y);
    assert_ptr_not_equal(other->A, s[0]->A);
    /* the same fibers in a section of its own */
    assert_int_equal(fe_section_create(NULL, 2, &own), 0);
    for (int i = 0; i < n; i++) {
        hs_material *m = NULL;
        assert_int_equal(hs_material_create(NULL, "steel02", o, &m), 0);
        assert_int_equal(fe_section_add_fiber(own, y[i], z[i], A[i], m), 0);
    }
    assert_int_equal(fe_section_finalize(own), 0);
    assert_null(own->places);
    hs_fe_section_def_destroy(&d); /* (the sections keep the places) */
    for (int k = 1; k <= 40; k++) {
        const double e[FE_SEC_MAX] = {-2e-4 * k * 0.01, 0.012 * sin(0.4 * k) * k / 40.0};
        assert_int_equal(fe_section_set_trial(s[1], e), 0);
        assert_int_equal(fe_section_set_trial(own, e), 0);
        assert_memory_equal(s[1]->s, own->s, 2 * sizeof(double));
        assert_memory_equal(s[1]->ks, own->ks, 4 * sizeof(double));
        assert_int_equal(fe_section_commit(s[1]), 0);
        assert_int_equal(fe_section_commit(own), 0);
    }
    fe_section_destroy(&s[0]);
    fe_section_destroy(&s[2]);
    assert_true(fabs(s[1]->y[0] - own->y[0]) == 0.0); /* (still readable: s[1] holds them) */
    fe_section_destroy(&s[1]);
    fe_section_destroy(&own);
    fe_section_destroy(&other); /* then d2: the sections go first */
    hs_fe_section_def_destroy(&d2);
    hs_options_destroy(&o);
}

static void test_section_batch(void **state)
{
    (void)state;
    batch_against_one_by_one(&LAWS02, 0);
    batch_against_one_by_one(&LAWS02, 1);
    /* Concrete01 and Steel01: their states one fiber after the other (no rows) */
    const rc_laws laws01 = {core01, cover01, steel01};
    batch_against_one_by_one(&laws01, 0);
    batch_against_one_by_one(&laws01, 1);
    /* no batch: a material object (ElasticPP) in one section; another law's parameters */
    fe_section_batch *bt = NULL;
    fe_section *c[2] = {rc_point(8, 0, &LAWS02), rc_point(8, 1, &LAWS02)};
    assert_int_equal(fe_section_batch_create(c, 2, NULL, &bt), 0);
    assert_null(bt);
    for (int p = 0; p < 2; p++) {
        fe_section_destroy(&c[p]);
        c[p] = rect_section(2, 0.3, 0.5, 8, 1, 0.0, 0.0, p ? cover : concrete);
        assert_int_equal(fe_section_finalize(c[p]), 0);
    }
    assert_int_equal(c[0]->ngrp, 1);
    assert_int_equal(c[1]->ngrp, 1);
    assert_int_equal(fe_section_batch_create(c, 2, NULL, &bt), 0);
    assert_null(bt);
    for (int p = 0; p < 2; p++) fe_section_destroy(&c[p]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_patches_and_layers), cmocka_unit_test(test_elastic_fibers),
        cmocka_unit_test(test_plastic_moment),     cmocka_unit_test(test_elastic_and_aggregated),
        cmocka_unit_test(test_rc_tangent),         cmocka_unit_test(test_fiber_groups),
        cmocka_unit_test(test_section_batch),      cmocka_unit_test(test_shared_places),
    };
    return cmocka_run_group_tests_name("fe_section", tests, NULL, NULL);
}
