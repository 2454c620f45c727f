/* A hybrid test of a large frame on the sparse path (hysim/experiment_sparse.h, the Kes branch
 * of alpha_os, cr, newmark and hht) against the dense path on the same structure. The frame is
 * bench/frame_gen.h's 3 bays x 30 stories numbered column line by column line (n = 360,
 * half-bandwidth 95); two experimental elements have their control points on frame nodes: A: two
 * actuators along x at level 10 of column lines 0 and 1, coupled (K0l = k [2 -1; -1 2]) and
 * carrying a specimen mass (Ml = diag(m, m)) that joins M; B: one actuator on a brace from the
 * ground to the node at level 20 of column line 3, at 30 degrees from the horizontal (T row = cos
 * e_x + sin e_y). The sites are perfect virtual labs with linear specimens: the measured force is
 * exactly K0l x_cmd at x_cmd = T d_cmd, and the global force T^T K0l T d_cmd. The dense path gets
 * M + T^T Ml T, K0 + T^T K0l T and Ke = T^T K0l T as n x n arrays built here by plain loops; the
 * sparse path gets the frame's compressed columns with hs_dynamics_add_experiment_sparse.
 * - The sparse Ke and the totals equal the dense ones (to 1e-15 of the largest entry: the
 *   congruence sums the same products in another order).
 * - 300 steps of a ground motion with alpha_os, cr, hht and newmark (Newton's matrix holds Kes:
 *   a Woodbury update of its factor without it): the same displacements at every DOF and
 *   step on both paths, to 1e-9 of the peak (the bound of tests/test_fe_sparse.c: two orderings
 *   and kinds of factor; the measured differences are printed).
 * - No step after the first allocates on the sparse path (hs_alloc_count).
 * - Integrators whose Ke changes between steps (os_tangent, implicit_hht_fe) are refused on a
 *   sparse-only structure with a message that names the four that take it, and fall back to the
 *   dense path when the dense matrices are given too.
 * - The coordinator's composition (a model with the experiment as extra stiffness, Rayleigh
 *   damping, hs_model_dynamics, then hs_dynamics_add_experiment_sparse): sparse C = dense C (with
 *   a1 Ke in both) and alpha_os sparse = dense to 1e-9 of the peak. */
#include "hs_test.h"
#include "hs_frame_dense.h"

#include "hysim/experiment_sparse.h"

#include "../bench/frame_gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BAYS    3
#define STORIES 30
#define STEPS   300
#define DT      (1.0 / 256.0)
#define NACT    3
#define KEXP    2e7 /* N/m, about a story column's lateral stiffness */
#define MEXP    5e3 /* kg */

static const double PI = HS_PI;

/* The experiment: T (NACT x n), K0l, Ml. */
typedef struct experiment {
    double *T;
    double K0l[NACT * NACT], Ml[NACT * NACT];
} experiment;

static void experiment_build(hs_fe *fe, experiment *e)
{
    const int n = hs_fe_ndof(fe);
    e->T = calloc((size_t)NACT * (size_t)n, sizeof(double));
    const int a = hs_fe_dof(fe, hs_frame_node(BAYS, STORIES, 1, 0, 10), HS_FE_UX),
              b = hs_fe_dof(fe, hs_frame_node(BAYS, STORIES, 1, 1, 10), HS_FE_UX),
              cx = hs_fe_dof(fe, hs_frame_node(BAYS, STORIES, 1, 3, 20), HS_FE_UX),
              cy = hs_fe_dof(fe, hs_frame_node(BAYS, STORIES, 1, 3, 20), HS_FE_UY);
    assert_true(a >= 0 && b >= 0 && cx >= 0 && cy >= 0);
    HS_AT(e->T, NACT, 0, a) = 1.0;
    HS_AT(e->T, NACT, 1, b) = 1.0;
    HS_AT(e->T, NACT, 2, cx) = cos(PI / 6.0);
    HS_AT(e->T, NACT, 2, cy) = sin(PI / 6.0);
    memset(e->K0l, 0, sizeof e->K0l);
    memset(e->Ml, 0, sizeof e->Ml);
    HS_AT(e->K0l, NACT, 0, 0) = HS_AT(e->K0l, NACT, 1, 1) = 2.0 * KEXP;
    HS_AT(e->K0l, NACT, 0, 1) = HS_AT(e->K0l, NACT, 1, 0) = -KEXP;
    HS_AT(e->K0l, NACT, 2, 2) = KEXP;
    HS_AT(e->Ml, NACT, 0, 0) = HS_AT(e->Ml, NACT, 1, 1) = MEXP;
}

/* D += T^T A T (dense n x n), by the definition. */
static void congruence_add(int n, const double *T, const double *A, double *D)
{
    for (int q = 0; q < n; q++)
        for (int p = 0; p < n; p++) {
            double s = 0.0;
            for (int i = 0; i < NACT; i++)
                for (int j = 0; j < NACT; j++)
                    s += HS_AT(T, NACT, i, p) * HS_AT(A, NACT, i, j) * HS_AT(T, NACT, j, q);
            HS_AT(D, n, p, q) += s;
        }
}

/* The dense hybrid dynamics: C from the frame's own K0 (Rayleigh), K0 and M total. */
static void dense_dynamics(hs_fe *fe, const experiment *e, hs_frame_dense *df, hs_dynamics *dyn)
{
    hs_frame_dense_dynamics(fe, df, dyn);
    const int n = dyn->n;
    const size_t nn = (size_t)n * (size_t)n;
    df->Ke = calloc(nn, sizeof(double));
    df->Me = calloc(nn, sizeof(double));
    assert_true(df->Ke && df->Me);
    congruence_add(n, e->T, e->K0l, df->Ke);
    congruence_add(n, e->T, e->Ml, df->Me);
    hs_mat_axpby(n, 1.0, df->K0, 1.0, df->Ke, df->K0);
    hs_mat_axpby(n, 1.0, df->M, 1.0, df->Me, df->M);
    dyn->Me = df->Me;
    dyn->Ke = df->Ke;
}

/* The sparse hybrid dynamics (and, with `both`, the dense matrices too). */
static void sparse_dynamics(hs_ctx *ctx, hs_fe *fe, const experiment *e, hs_fe_matrices *mats,
                            hs_experiment_csc *xm, hs_dynamics *dyn)
{
    double a0, a1;
    hs_frame_rayleigh(&a0, &a1);
    assert_int_equal(hs_fe_sparse_dynamics(fe, a0, a1, mats, dyn), 0);
    assert_int_equal(hs_dynamics_add_experiment_sparse(ctx, dyn, NACT, e->T, e->K0l, e->Ml, xm), 0);
}

/* A perfect virtual site with linear specimens: r_exp = T^T K0l T d_cmd. Never allocates. */
static void perfect_sites(int n, const experiment *e, const double *d_cmd, double *r_exp)
{
    double x[NACT], f[NACT];
    for (int i = 0; i < NACT; i++) {
        x[i] = 0.0;
        for (int p = 0; p < n; p++) x[i] += HS_AT(e->T, NACT, i, p) * d_cmd[p];
    }
    for (int i = 0; i < NACT; i++) {
        f[i] = 0.0;
        for (int j = 0; j < NACT; j++) f[i] += HS_AT(e->K0l, NACT, i, j) * x[j];
    }
    for (int p = 0; p < n; p++) {
        r_exp[p] = 0.0;
        for (int i = 0; i < NACT; i++) r_exp[p] += HS_AT(e->T, NACT, i, p) * f[i];
    }
}

static hs_fe *frame(hs_ctx *ctx)
{
    hs_fe *fe = NULL;
    const int rc = hs_frame_build(ctx, BAYS, STORIES, 1, 0.0, 3e5, &fe);
    if (rc) fprintf(stderr, "frame: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    return fe;
}

/* Steps `type` through a hybrid test on dyn (perfect sites of e): d[step][dof] into out; mi the
 * ground motion's mass (M iota). With `sparse`, the steps after the first must not allocate. */
static void hybrid_steps(hs_ctx *ctx, const char *type, const hs_dynamics *dyn, const experiment *e,
                         const double *mi, int sparse, double *out)
{
    const int n = dyn->n;
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, type, NULL, &it), 0);
    double *f0 = calloc((size_t)n, sizeof *f0), *f1 = calloc((size_t)n, sizeof *f1);
    double *dcmd = calloc((size_t)n, sizeof *dcmd), *rexp = calloc((size_t)n, sizeof *rexp);
    int rc = hs_integrator_setup(it, dyn, DT, NULL, NULL, f0);
    if (rc) fprintf(stderr, "setup: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    uint64_t allocations = 0;
    for (int s = 0; s < STEPS; s++) {
        const double ag0 = 4.0 * sin(2.0 * PI * 1.2 * s * DT),
                     ag1 = 4.0 * sin(2.0 * PI * 1.2 * (s + 1) * DT);
        for (int i = 0; i < n; i++) {
            f0[i] = -mi[i] * ag0;
            f1[i] = -mi[i] * ag1;
        }
        hs_step_io io = {.step = s, .t = s * DT, .f_n = f0, .f_n1 = f1, .d_cmd = dcmd};
        const uint64_t before = hs_alloc_count();
        rc = hs_integrator_predict(it, &io);
        if (!rc) {
            perfect_sites(n, e, dcmd, rexp);
            io.r_exp = rexp;
            rc = hs_integrator_correct(it, &io);
        }
        if (rc) fprintf(stderr, "%s step %d: %s\n", type, s, hs_ctx_message(ctx));
        assert_int_equal(rc, 0);
        if (s > 0) allocations += hs_alloc_count() - before;
        memcpy(out + (size_t)s * (size_t)n, hs_integrator_displacement(it),
               (size_t)n * sizeof(double));
    }
    if (sparse) {
        print_message("%s hybrid sparse path: %llu allocations in steps 2..%d\n", type,
                      (unsigned long long)allocations, STEPS);
        assert_true(allocations == 0);
    }
    free(f0);
    free(f1);
    free(dcmd);
    free(rexp);
    hs_integrator_destroy(&it);
}

/* Runs `type` as a hybrid test on the sparse or dense path: d[step][dof] into out. */
static void run(const char *type, int sparse, double *out)
{
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_fe *fe = frame(ctx);
    const int n = hs_fe_ndof(fe);
    experiment e;
    experiment_build(fe, &e);
    hs_dynamics dyn;
    hs_fe_matrices mats = {0};
    hs_experiment_csc xm = {0};
    hs_frame_dense df = {0};
    if (sparse)
        sparse_dynamics(ctx, fe, &e, &mats, &xm, &dyn);
    else
        dense_dynamics(fe, &e, &df, &dyn);
    double *m = calloc((size_t)n, sizeof *m), *iota = calloc((size_t)n, sizeof *iota);
    hs_fe_mass(fe, m);
    hs_fe_influence(fe, HS_FE_UX, iota);
    for (int i = 0; i < n; i++) /* the specimens' mass is in M: it feels the ground too */
        m[i] = (m[i] + HS_AT(e.Ml, NACT, 0, 0) * HS_AT(e.T, NACT, 0, i) +
                HS_AT(e.Ml, NACT, 1, 1) * HS_AT(e.T, NACT, 1, i)) *
               iota[i];
    hybrid_steps(ctx, type, &dyn, &e, m, sparse, out);
    free(m);
    free(iota);
    free(e.T);
    hs_experiment_csc_free(&xm);
    hs_fe_matrices_free(&mats);
    hs_frame_dense_free(&df);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

static void compare(const char *type)
{
    const int n = 3 * (BAYS + 1) * STORIES;
    double *sp = calloc((size_t)STEPS * (size_t)n, sizeof *sp);
    double *de = calloc((size_t)STEPS * (size_t)n, sizeof *de);
    run(type, 1, sp);
    run(type, 0, de);
    double peak = 0.0, diff = 0.0;
    for (size_t k = 0; k < (size_t)STEPS * (size_t)n; k++) {
        peak = fmax(peak, fabs(de[k]));
        diff = fmax(diff, fabs(sp[k] - de[k]));
    }
    print_message("%s hybrid: peak %.4g m, largest sparse - dense difference %.3g m (%.2g of the "
                  "peak)\n",
                  type, peak, diff, diff / peak);
    assert_true(peak > 1e-3);
    assert_true(diff <= 1e-9 * peak);
    free(sp);
    free(de);
}

/* The sparse Ke, Me and totals against the dense ones built by the definition. */
static void test_matrices(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_fe *fe = frame(ctx);
    const int n = hs_fe_ndof(fe);
    const size_t nn = (size_t)n * (size_t)n;
    experiment e;
    experiment_build(fe, &e);
    hs_dynamics sd, dd;
    hs_fe_matrices mats = {0};
    hs_experiment_csc xm = {0};
    hs_frame_dense df = {0};
    const hs_csc *K0num = NULL;
    sparse_dynamics(ctx, fe, &e, &mats, &xm, &sd);
    K0num = mats.K0;
    dense_dynamics(fe, &e, &df, &dd);
    assert_true(sd.K0s != K0num && sd.K0s == xm.K0 && sd.Kes == xm.Ke && sd.Mes == xm.Me);
    /* A's two control points and B's two DOFs: 2 x 2 + 2 x 2 entries of Ke, A's 2 of Me */
    assert_int_equal(hs_csc_nnz(xm.Ke), 8);
    assert_int_equal(hs_csc_nnz(xm.Me), 2);
    double *D = malloc(nn * sizeof *D);
    const hs_csc *sparse[] = {xm.Ke, xm.Me, xm.K0, xm.M};
    const double *dense[] = {df.Ke, df.Me, df.K0, df.M};
    for (size_t k = 0; k < 4; k++) {
        hs_csc_to_dense(sparse[k], D);
        double big = 0.0, diff = 0.0;
        for (size_t q = 0; q < nn; q++) {
            big = fmax(big, fabs(dense[k][q]));
            diff = fmax(diff, fabs(D[q] - dense[k][q]));
        }
        assert_true(big > 0.0);
        assert_true(diff <= 1e-15 * big);
    }
    /* the brace's 2 x 2 block: k (cos, sin)^T (cos, sin) */
    const int cx = hs_fe_dof(fe, hs_frame_node(BAYS, STORIES, 1, 3, 20), HS_FE_UX),
              cy = hs_fe_dof(fe, hs_frame_node(BAYS, STORIES, 1, 3, 20), HS_FE_UY);
    hs_csc_to_dense(xm.Ke, D);
    assert_true(fabs(HS_AT(D, n, cx, cy) - KEXP * 0.5 * sqrt(3.0) * 0.5) <= 1e-9 * KEXP);
    assert_true(fabs(HS_AT(D, n, cy, cy) - KEXP * 0.25) <= 1e-9 * KEXP);
    free(D);
    free(e.T);
    hs_experiment_csc_free(&xm);
    hs_fe_matrices_free(&mats);
    hs_frame_dense_free(&df);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

static void test_alpha_os(void **state)
{
    (void)state;
    compare("alpha_os");
}

static void test_cr(void **state)
{
    (void)state;
    compare("cr");
}

/* Newton's matrix holds Kes: kept as a Woodbury update of the factor without it */
static void test_hht(void **state)
{
    (void)state;
    compare("hht");
}

static void test_newmark(void **state)
{
    (void)state;
    compare("newmark");
}

/* What the coordinator does with a test file's frame and experimental elements: the model holds
 * the experiment's stiffness as its extra stiffness Kx (modes and Rayleigh damping see it),
 * hs_model_dynamics gives the sparse form with a1 Kx in Cs (equal to the dense C), and
 * hs_dynamics_add_experiment_sparse adds Ke to K0s. alpha_os on that sparse dynamics against the
 * dense one (K0 + Ke, Ke): the same displacements to 1e-9 of the peak. */
static void test_model_composition(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_fe *fe = frame(ctx);
    const int n = hs_fe_ndof(fe);
    const size_t nn = (size_t)n * (size_t)n;
    experiment e;
    experiment_build(fe, &e);
    hs_model *mod = NULL;
    assert_int_equal(hs_model_create(ctx, n, &mod), 0);
    double *m = calloc((size_t)n, sizeof *m), *iota = calloc((size_t)n, sizeof *iota);
    hs_fe_mass(fe, m);
    hs_fe_influence(fe, HS_FE_UX, iota);
    assert_int_equal(hs_model_set_mass(mod, m), 0);
    assert_int_equal(hs_model_set_influence(mod, iota), 0);
    assert_int_equal(hs_model_attach_fe(mod, fe), 0);
    double *Ke = calloc(nn, sizeof *Ke), *K0 = calloc(nn, sizeof *K0), *C = calloc(nn, sizeof *C);
    congruence_add(n, e.T, e.K0l, Ke);
    assert_int_equal(hs_model_set_extra_stiffness(mod, Ke), 0);
    assert_int_equal(hs_model_damping_rayleigh(mod, 0, 2, 0.02, 0.02), 0);
    hs_dynamics dyn;
    assert_int_equal(hs_model_dynamics(mod, K0, &dyn), 0);
    assert_non_null(dyn.K0s);
    hs_csc_to_dense(dyn.Cs, C);
    double diff = 0.0, big = 0.0, kx = 0.0;
    for (size_t k = 0; k < nn; k++) {
        diff = fmax(diff, fabs(C[k] - dyn.C[k]));
        big = fmax(big, fabs(dyn.C[k]));
        if (Ke[k] != 0.0) kx = fmax(kx, fabs(C[k]));
    }
    print_message("model with Kx: sparse C against the dense C: %.3g (largest entry %.4g)\n", diff,
                  big);
    assert_true(kx > 0.0 && big > 0.0 && diff <= 1e-15 * big);
    /* the coordinator's composition */
    hs_experiment_csc xm = {0};
    hs_dynamics sd = dyn, dd = dyn;
    assert_int_equal(hs_dynamics_add_experiment_sparse(ctx, &sd, NACT, e.T, e.K0l, NULL, &xm), 0);
    hs_mat_axpby(n, 1.0, K0, 1.0, Ke, K0);
    dd.Ke = Ke;
    dd.K0s = dd.Ms = dd.Cs = dd.tangent_pattern = NULL;
    sd.Ke = Ke; /* both given, as the coordinator does: the sparse path takes Kes */
    for (int i = 0; i < n; i++) m[i] *= iota[i];
    double *sp = calloc((size_t)STEPS * (size_t)n, sizeof *sp);
    double *de = calloc((size_t)STEPS * (size_t)n, sizeof *de);
    hybrid_steps(ctx, "alpha_os", &sd, &e, m, 1, sp);
    hybrid_steps(ctx, "alpha_os", &dd, &e, m, 0, de);
    double peak = 0.0, dmax = 0.0;
    for (size_t k = 0; k < (size_t)STEPS * (size_t)n; k++) {
        peak = fmax(peak, fabs(de[k]));
        dmax = fmax(dmax, fabs(sp[k] - de[k]));
    }
    print_message("model: alpha_os hybrid sparse against dense: %.3g m (peak %.4g m)\n", dmax,
                  peak);
    assert_true(peak > 1e-3 && dmax <= 1e-9 * peak);
    free(sp);
    free(de);
    free(Ke);
    free(K0);
    free(C);
    free(m);
    free(iota);
    free(e.T);
    hs_experiment_csc_free(&xm);
    hs_model_destroy(&mod);
    hs_ctx_destroy(&ctx);
}

/* os_tangent and implicit_hht_fe on a sparse-only hybrid frame: refused, naming alpha_os, cr,
 * newmark and hht; with the dense matrices given too, os_tangent sets up (the dense path). */
static void test_refusals(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_fe *fe = frame(ctx);
    experiment e;
    experiment_build(fe, &e);
    hs_dynamics sd, dd;
    hs_fe_matrices mats = {0};
    hs_experiment_csc xm = {0};
    hs_frame_dense df = {0};
    sparse_dynamics(ctx, fe, &e, &mats, &xm, &sd);
    const char *types[] = {"os_tangent", "implicit_hht_fe"};
    for (size_t k = 0; k < 2; k++) {
        hs_integrator *it = NULL;
        assert_int_equal(hs_integrator_create(ctx, types[k], NULL, &it), 0);
        assert_int_equal(hs_integrator_setup(it, &sd, DT, NULL, NULL, NULL), HS_EUNSUPPORTED);
        print_message("%s: %s\n", types[k], hs_ctx_message(ctx));
        assert_non_null(strstr(hs_ctx_message(ctx), "alpha_os, cr, newmark and hht"));
        hs_integrator_destroy(&it);
    }
    dense_dynamics(fe, &e, &df, &dd);
    dd.Ms = sd.Ms;
    dd.Cs = sd.Cs;
    dd.K0s = sd.K0s;
    dd.Kes = sd.Kes;
    dd.Mes = sd.Mes;
    dd.tangent_pattern = sd.tangent_pattern;
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, "os_tangent", NULL, &it), 0);
    assert_int_equal(hs_integrator_setup(it, &dd, DT, NULL, NULL, NULL), 0);
    hs_integrator_destroy(&it);
    free(e.T);
    hs_experiment_csc_free(&xm);
    hs_fe_matrices_free(&mats);
    hs_frame_dense_free(&df);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrices),
        cmocka_unit_test(test_alpha_os),
        cmocka_unit_test(test_cr),
        cmocka_unit_test(test_hht),
        cmocka_unit_test(test_newmark),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_model_composition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
