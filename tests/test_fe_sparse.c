/* The frame's sparse path (fe_sparse.c, fe_dynamics.c, the integrators' compressed-column
 * branch) against the dense path on the same frame (bench/frame_gen.h: 3 bays x 30 stories with
 * rotational mass at the joints, numbered column line by column line: n = 360, half-bandwidth 95,
 * so that both paths take the sparse factor of hs_linsolver_sparse_pays; the dense path reads the
 * dense n x n matrices and the tangent in dense storage, the sparse path the compressed columns,
 * with KLU for Newton's refactors):
 * - the sparse initial stiffness is the dense one entry for entry (the same sums in the same
 *   order: exactly);
 * - 300 steps of a ground motion give the same displacements at every DOF and step for cr,
 *   alpha_os, newmark, central_difference, newmark_explicit (linear frame) and hht with Newton on
 *   a frame whose first-story columns stand on bilinear rotational springs that yield. The two
 *   paths factor the same matrices through different orderings and kinds (CHOLMOD/KLU on the
 *   sparse path), so they agree to round-off amplified by the conditioning of the effective
 *   matrix: the bound is 1e-9 of the peak displacement (the measured differences are printed,
 *   about 1e-13 of the peak);
 * - on the sparse path no step after the first allocates (hs_alloc_count), Newton's refactors
 *   included;
 * - an integrator without the sparse branch, and a frame with massless (condensed) DOFs, are
 *   refused with a message that says what to do. */
#include "hs_test.h"
#include "hs_frame_dense.h"

#include "../bench/frame_gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BAYS    3
#define STORIES 30
#define STEPS   300
#define DT      (1.0 / 256.0)

static const double PI = HS_PI;

static hs_fe *frame(hs_ctx *ctx, int hinged)
{
    hs_fe *fe = NULL;
    const int rc = hs_frame_build(ctx, BAYS, STORIES, 1, hinged ? 2e8 : 0.0, 3e5, &fe);
    if (rc) fprintf(stderr, "frame: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    return fe;
}

/* Runs `type` on the frame (sparse or dense path): d[step][dof] into out; the steps after the
 * first must not allocate on the sparse path. */
static void run(const char *type, int sparse, int hinged, double *out)
{
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_fe *fe = frame(ctx, hinged);
    const int n = hs_fe_ndof(fe);
    hs_dynamics dyn;
    hs_fe_matrices mats = {0};
    hs_frame_dense df = {0};
    if (sparse) {
        double a0, a1;
        hs_frame_rayleigh(&a0, &a1);
        assert_int_equal(hs_fe_sparse_dynamics(fe, a0, a1, &mats, &dyn), 0);
    } else {
        hs_frame_dense_dynamics(fe, &df, &dyn);
    }
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, type, NULL, &it), 0);
    double *m = calloc((size_t)n, sizeof *m), *iota = calloc((size_t)n, sizeof *iota);
    double *f0 = calloc((size_t)n, sizeof *f0), *f1 = calloc((size_t)n, sizeof *f1);
    double *dcmd = calloc((size_t)n, sizeof *dcmd);
    hs_fe_mass(fe, m);
    hs_fe_influence(fe, HS_FE_UX, iota);
    int rc = hs_integrator_setup(it, &dyn, DT, NULL, NULL, f0);
    if (rc) fprintf(stderr, "setup: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    uint64_t allocations = 0;
    for (int s = 0; s < STEPS; s++) {
        const double ag0 = 4.0 * sin(2.0 * PI * 1.2 * s * DT),
                     ag1 = 4.0 * sin(2.0 * PI * 1.2 * (s + 1) * DT);
        for (int i = 0; i < n; i++) {
            f0[i] = -m[i] * iota[i] * ag0;
            f1[i] = -m[i] * iota[i] * ag1;
        }
        hs_step_io io = {.step = s, .t = s * DT, .f_n = f0, .f_n1 = f1, .d_cmd = dcmd};
        const uint64_t before = hs_alloc_count();
        rc = hs_integrator_step(it, &io);
        if (rc) fprintf(stderr, "%s step %d: %s\n", type, s, hs_ctx_message(ctx));
        assert_int_equal(rc, 0);
        if (s > 0) allocations += hs_alloc_count() - before;
        memcpy(out + (size_t)s * (size_t)n, hs_integrator_displacement(it),
               (size_t)n * sizeof(double));
    }
    if (sparse) {
        print_message("%s sparse path: %llu allocations in steps 2..%d\n", type,
                      (unsigned long long)allocations, STEPS);
        assert_true(allocations == 0);
    }
    free(m);
    free(iota);
    free(f0);
    free(f1);
    free(dcmd);
    hs_integrator_destroy(&it);
    hs_fe_matrices_free(&mats);
    hs_frame_dense_free(&df);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

static void compare(const char *type, int hinged)
{
    const int n = 3 * (BAYS + 1) * STORIES + (hinged ? BAYS + 1 : 0);
    double *sp = calloc((size_t)STEPS * (size_t)n, sizeof *sp);
    double *de = calloc((size_t)STEPS * (size_t)n, sizeof *de);
    run(type, 1, hinged, sp);
    run(type, 0, hinged, de);
    double peak = 0.0, diff = 0.0;
    for (size_t k = 0; k < (size_t)STEPS * (size_t)n; k++) {
        peak = fmax(peak, fabs(de[k]));
        diff = fmax(diff, fabs(sp[k] - de[k]));
    }
    print_message("%s%s: peak %.4g m, largest sparse - dense difference %.3g m (%.2g of the "
                  "peak)\n",
                  type, hinged ? " (hinged, Newton)" : "", peak, diff, diff / peak);
    assert_true(peak > 1e-3); /* the frame moved */
    assert_true(diff <= 1e-9 * peak);
    free(sp);
    free(de);
}

/* fe's initial stiffness assembled both ways: returns the dense n x n one (the caller frees it)
 * and sets *diff, the largest |dense - sparse| entry, and *big, the largest |dense| entry. */
static double *stiffness_both_ways(hs_fe *fe, int n, double *diff, double *big)
{
    const hs_csc *P = NULL;
    assert_int_equal(hs_fe_sparse_pattern(fe, &P), 0);
    double *val = calloc((size_t)hs_csc_nnz(P), sizeof *val);
    assert_int_equal(hs_fe_initial_stiffness_sparse(fe, val), 0);
    hs_csc K = *P;
    K.val = val;
    double *dense = calloc((size_t)n * (size_t)n, sizeof *dense);
    double *fromsparse = calloc((size_t)n * (size_t)n, sizeof *fromsparse);
    assert_int_equal(hs_fe_initial_stiffness(fe, dense), 0);
    hs_csc_to_dense(&K, fromsparse);
    *diff = *big = 0.0;
    for (size_t k = 0; k < (size_t)n * (size_t)n; k++) {
        *diff = fmax(*diff, fabs(dense[k] - fromsparse[k]));
        *big = fmax(*big, fabs(dense[k]));
    }
    free(val);
    free(fromsparse);
    return dense;
}

static void test_initial_stiffness(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_fe *fe = frame(ctx, 1);
    const int n = hs_fe_ndof(fe);
    assert_int_equal(n, 3 * (BAYS + 1) * STORIES + BAYS + 1);
    double diff, big;
    double *dense = stiffness_both_ways(fe, n, &diff, &big);
    const hs_csc *P = NULL;
    assert_int_equal(hs_fe_sparse_pattern(fe, &P), 0);
    print_message("n = %d, %d entries, half-bandwidth %d, largest entry %.4g\n", n, hs_csc_nnz(P),
                  hs_csc_bandwidth(P), big);
    assert_true(big > 1e8);
    assert_true(diff == 0.0);
    /* a column line: its base rotation (hinged) and 3 DOFs per story; a beam joins a joint's ux
     * to the rz of the next line's joint at the same level: 3 STORIES + 1 + 2 apart */
    assert_int_equal(hs_csc_bandwidth(P), 3 * STORIES + 3);
    free(dense);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

static void test_cr(void **state)
{
    (void)state;
    compare("cr", 0);
}
static void test_alpha_os(void **state)
{
    (void)state;
    compare("alpha_os", 0);
}
static void test_newmark(void **state)
{
    (void)state;
    compare("newmark", 0);
}
static void test_central_difference(void **state)
{
    (void)state;
    compare("central_difference", 0);
}
static void test_newmark_explicit(void **state)
{
    (void)state;
    compare("newmark_explicit", 0);
}
static void test_hht_newton(void **state)
{
    (void)state;
    compare("hht", 1);
}

/* 200 steps of `type` on dyn; the last step's displacements into d. */
static void run_dyn(hs_ctx *ctx, const char *type, const hs_dynamics *dyn, const double *m,
                    double *d)
{
    const int n = dyn->n;
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, type, NULL, &it), 0);
    double *f0 = calloc((size_t)n, sizeof *f0), *f1 = calloc((size_t)n, sizeof *f1);
    double *dcmd = calloc((size_t)n, sizeof *dcmd);
    int rc = hs_integrator_setup(it, dyn, DT, NULL, NULL, f0);
    if (rc) fprintf(stderr, "setup: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    for (int s = 0; s < 200; s++) {
        for (int i = 0; i < n; i++) {
            f0[i] = -m[i] * 3.0 * sin(7.0 * s * DT);
            f1[i] = -m[i] * 3.0 * sin(7.0 * (s + 1) * DT);
        }
        hs_step_io io = {.step = s, .t = s * DT, .f_n = f0, .f_n1 = f1, .d_cmd = dcmd};
        assert_int_equal(hs_integrator_step(it, &io), 0);
    }
    memcpy(d, hs_integrator_displacement(it), (size_t)n * sizeof *d);
    free(f0);
    free(f1);
    free(dcmd);
    hs_integrator_destroy(&it);
}

/* Through the model (what the coordinator runs): hs_model_dynamics adds the sparse form to a
 * frame that takes it, with C = a0 M + a1 K0 of the model's Rayleigh damping equal to its dense
 * C; cr on it gives the dense path's response, and kr_alpha (no sparse branch) falls back to the
 * dense matrices. */
static void test_model_dynamics(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_fe *fe = frame(ctx, 0);
    const int n = hs_fe_ndof(fe);
    hs_model *mod = NULL;
    assert_int_equal(hs_model_create(ctx, n, &mod), 0);
    double *m = calloc((size_t)n, sizeof *m), *iota = calloc((size_t)n, sizeof *iota);
    hs_fe_mass(fe, m);
    hs_fe_influence(fe, HS_FE_UX, iota);
    assert_int_equal(hs_model_set_mass(mod, m), 0);
    assert_int_equal(hs_model_set_influence(mod, iota), 0);
    assert_int_equal(hs_model_attach_fe(mod, fe), 0);
    assert_int_equal(hs_model_damping_rayleigh(mod, 0, 2, 0.02, 0.02), 0);
    double *K0 = calloc((size_t)n * (size_t)n, sizeof *K0);
    hs_dynamics dyn;
    assert_int_equal(hs_model_dynamics(mod, K0, &dyn), 0);
    assert_non_null(dyn.K0s);
    assert_non_null(dyn.Cs);
    double *C = calloc((size_t)n * (size_t)n, sizeof *C);
    hs_csc_to_dense(dyn.Cs, C);
    double diff = 0.0, big = 0.0;
    for (size_t k = 0; k < (size_t)n * (size_t)n; k++) {
        diff = fmax(diff, fabs(C[k] - dyn.C[k]));
        big = fmax(big, fabs(dyn.C[k]));
    }
    print_message("model: sparse C against the dense C: %.3g (largest entry %.4g)\n", diff, big);
    assert_true(big > 0.0 && diff <= 1e-15 * big);
    hs_dynamics dense = dyn;
    dense.K0s = dense.Ms = dense.Cs = dense.tangent_pattern = NULL;
    double *ds = calloc((size_t)n, sizeof *ds), *dd = calloc((size_t)n, sizeof *dd);
    for (int i = 0; i < n; i++) m[i] *= iota[i];
    run_dyn(ctx, "cr", &dyn, m, ds);
    run_dyn(ctx, "cr", &dense, m, dd);
    double peak = 0.0, dmax = 0.0;
    for (int i = 0; i < n; i++) {
        peak = fmax(peak, fabs(dd[i]));
        dmax = fmax(dmax, fabs(ds[i] - dd[i]));
    }
    print_message("model: cr sparse against dense: %.3g m (peak %.4g m)\n", dmax, peak);
    assert_true(peak > 1e-3 && dmax <= 1e-9 * peak);
    run_dyn(ctx, "kr_alpha", &dyn, m, ds); /* falls back to the dense matrices */
    run_dyn(ctx, "kr_alpha", &dense, m, dd);
    assert_memory_equal(ds, dd, (size_t)n * sizeof *ds);
    free(ds);
    free(dd);
    free(C);
    free(K0);
    free(m);
    free(iota);
    hs_model_destroy(&mod);
    hs_ctx_destroy(&ctx);
}

static void test_refusals(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_fe *fe = frame(ctx, 0);
    hs_dynamics dyn;
    hs_fe_matrices mats = {0};
    assert_int_equal(hs_fe_sparse_dynamics(fe, 0.0, 0.0, &mats, &dyn), 0);
    assert_null(mats.C);
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, "kr_alpha", NULL, &it), 0);
    assert_int_equal(hs_integrator_setup(it, &dyn, DT, NULL, NULL, NULL), HS_EUNSUPPORTED);
    assert_non_null(strstr(hs_ctx_message(ctx), "use central_difference"));
    hs_integrator_destroy(&it);
    hs_fe_matrices_free(&mats);
    hs_fe_destroy(&fe);
    /* a portal whose rotations carry no mass: condensed, so no sparse path */
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    static const int FIX[3] = {1, 1, 1};
    const double m[3] = {1e3, 1e3, 0.0};
    assert_true(hs_fe_add_node(fe, 1, 0.0, 0.0) >= 0);
    assert_true(hs_fe_add_node(fe, 2, 0.0, 3.0) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, FIX), 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, m), 0);
    assert_true(hs_fe_add_beam(fe, "c", 1, 2, 2e11, 0.01, 1e-4, HS_FE_LINEAR, 0.0) >= 0);
    assert_int_equal(hs_fe_finalize(fe), 0);
    const hs_csc *P = NULL;
    assert_int_equal(hs_fe_sparse_pattern(fe, &P), HS_EUNSUPPORTED);
    assert_non_null(strstr(hs_ctx_message(ctx), "rotational mass"));
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

/* A 3-D story on a rigid diaphragm: the sparse assembly goes through the DOF maps (u = T u_r) with
 * their lever-arm terms, as the dense one: the same initial stiffness. */
static void test_rigid_diaphragm_3d(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 3, 6), 0);
    const double plan[4][2] = {{0, 0}, {6, 0}, {6, 4}, {0, 5}}; /* not symmetric: torsion */
    const int fixed[6] = {1, 1, 1, 1, 1, 1}, master_fix[6] = {0, 0, 1, 1, 1, 0};
    const double m_top[6] = {0, 0, 2, 0.1, 0.1, 0}, m_master[6] = {10, 10, 0, 0, 0, 40};
    const hs_fe_section_3d sec = {200e6, 80e6, 0.01, 2e-4, 1e-4, 3e-4};
    const double vz[3] = {1, 0, 0};
    int slaves[4];
    for (int c = 0; c < 4; c++) {
        const double base[3] = {plan[c][0], plan[c][1], 0}, top[3] = {plan[c][0], plan[c][1], 3};
        assert_true(hs_fe_add_node_crd(fe, 1 + c, base) >= 0);
        assert_true(hs_fe_add_node_crd(fe, 5 + c, top) >= 0);
        assert_int_equal(hs_fe_fix(fe, 1 + c, fixed), 0);
        assert_int_equal(hs_fe_add_mass(fe, 5 + c, m_top), 0);
        char name[16];
        snprintf(name, sizeof name, "col%d", c + 1);
        assert_true(hs_fe_add_beam_3d(fe, name, 1 + c, 5 + c, &sec, vz, HS_FE_LINEAR, 0.0) >= 0);
        slaves[c] = 5 + c;
    }
    const double centre[3] = {3, 2.5, 3};
    assert_true(hs_fe_add_node_crd(fe, 9, centre) >= 0);
    assert_int_equal(hs_fe_fix(fe, 9, master_fix), 0);
    assert_int_equal(hs_fe_add_mass(fe, 9, m_master), 0);
    assert_true(hs_fe_rigid_diaphragm(fe, 2, 9, slaves, 4) >= 0);
    assert_int_equal(hs_fe_finalize(fe), 0);
    const int n = hs_fe_ndof(fe);
    assert_int_equal(n, 3 + 4 * 3); /* the master's ux uy rz, each top's uz rx ry */
    double diff, big;
    double *dense = stiffness_both_ways(fe, n, &diff, &big);
    /* the master's torsion collects every column's lever arm: K(rz, rz) > sum of the columns'
     * own torsion 4 G J / L */
    const int rz = hs_fe_dof(fe, 9, 5);
    assert_true(rz >= 0);
    print_message("3-D story on a diaphragm: n = %d, K(rz, rz) = %.6g, |sparse - dense| = %.3g\n",
                  n, HS_AT(dense, n, rz, rz), diff);
    assert_true(HS_AT(dense, n, rz, rz) > 10.0 * 4.0 * sec.G * sec.J / 3.0);
    assert_true(diff <= 1e-12 * big);
    free(dense);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_initial_stiffness),  cmocka_unit_test(test_cr),
        cmocka_unit_test(test_alpha_os),           cmocka_unit_test(test_newmark),
        cmocka_unit_test(test_central_difference), cmocka_unit_test(test_newmark_explicit),
        cmocka_unit_test(test_hht_newton),         cmocka_unit_test(test_model_dynamics),
        cmocka_unit_test(test_refusals),           cmocka_unit_test(test_rigid_diaphragm_3d),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
