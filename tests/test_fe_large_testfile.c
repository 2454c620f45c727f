/* A test file whose model is a large frame (docs/fe_model.md, "Test files above 5000 DOFs")
 * against the library path on the same frame. bench/frame_gen.h's 50 bays x 130 stories
 * (n = 19890, every DOF with mass) is written as an OpenSees Tcl script (hs_frame_write_tcl,
 * Rayleigh a0 = 0.2 1/s, a1 = 0.001 s) and run from a test file (`model: {opensees: frame.tcl}`,
 * a sine record, 100 steps of 1/256 s) by the coordinator; the library path builds the same
 * frame with hs_frame_build, takes hs_fe_sparse_dynamics and steps the integrator with
 * f = -M iota ag. With cr and with hht:
 * - the roof's x displacement at every step is the library path's to 1e-12 of the peak (the same
 *   matrices assembled in the same order: the difference is printed);
 * - nothing on the test-file path allocates an n x n array: the largest allocation through
 *   hs_malloc/hs_calloc/hs_realloc (hs_alloc_largest) stays below n^2 x 8 / 20 bytes (one dense
 *   matrix is 3.2 GB);
 * - the run's periods are ARPACK's lowest 20, the first equal to hs_model_modes_lowest on the
 *   library's model to 1e-12.
 * And a model of 5001 DOFs with springs: no dense M or C, and modal damping, every mode, a full
 * mass matrix, a dense extra stiffness, its modes and its dynamics refused with what to change,
 * none of them allocating an n x n array. */
#include "hs_test.h"

#include "hysim/coordinator.h"
#include "hysim/model.h"
#include "hysim/testfile.h"

#include "../bench/frame_gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BAYS    50
#define STORIES 130
#define STEPS   100
#define DT      (1.0 / 256.0)
#define AG      3.0 /* m/s^2 */
#define FREQ    2.0 /* Hz */
#define A0      0.2
#define A1      0.001

static double ground(int k)
{
    return AG * sin(2.0 * HS_PI * FREQ * k * DT);
}

/* The folder with frame.tcl, rec.txt and NAME.yaml for each integrator. */
static char dir[64];

static void write_files(void)
{
    snprintf(dir, sizeof dir, "/tmp/hs_large_tf_XXXXXX");
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/frame.tcl", dir);
    assert_int_equal(hs_frame_write_tcl(path, BAYS, STORIES, A0, A1), 0);
    snprintf(path, sizeof path, "%s/rec.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int k = 0; k <= 2 * STEPS; k++) fprintf(f, "%.17g\n", ground(k));
    assert_int_equal(fclose(f), 0);
}

static void remove_files(void)
{
    char path[128];
    static const char *const names[] = {"frame.tcl", "rec.txt", "cr.yaml", "hht.yaml"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

/* The roof's x history (STEPS values) and T1 through the test file and the coordinator. */
static void run_testfile(hs_ctx *ctx, const char *integrator, double *roof, double *t1)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s.yaml", dir, integrator);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "hysim: 1\nname: large\nunits: {force: N, length: m, time: s}\n"
            "structure:\n  model: {opensees: frame.tcl}\n"
            "ground_motion: {file: rec.txt, format: columns, dt: %.17g}\n"
            "analysis:\n  integrator: {type: %s}\n  dt: %.17g\n  steps: %d\n",
            DT, integrator, DT, STEPS);
    assert_int_equal(fclose(f), 0);
    hs_test_def *def = NULL;
    int rc = hs_testfile_load(ctx, path, &def);
    if (rc) fprintf(stderr, "%s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    const int n = hs_model_ndof(def->model);
    assert_int_equal(n, 3 * (BAYS + 1) * STORIES);
    assert_true(hs_model_is_large(def->model));
    assert_null(hs_model_mass_matrix(def->model));
    const int dof =
        hs_fe_dof(hs_model_fe(def->model), hs_frame_node(BAYS, STORIES, 0, 0, STORIES), HS_FE_UX);
    assert_true(dof >= 0);
    hs_coordinator *c = NULL;
    rc = hs_coordinator_create(ctx, def, &c);
    if (rc) fprintf(stderr, "%s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    hs_coordinator_set_recording(c, 0);
    for (int k = 0; k < STEPS; k++) {
        assert_int_equal(hs_coordinator_advance(c, 1), 0);
        roof[k] = hs_coordinator_displacement(c)[dof];
    }
    *t1 = hs_coordinator_periods(c)[0];
    assert_true(isnan(hs_coordinator_periods(c)[20])); /* the lowest 20 only */
    hs_coordinator_destroy(&c);
    hs_test_def_destroy(&def);
    /* nothing n x n: a record buffer, a factor's workspace, never a dense matrix */
    const double nn8 = 8.0 * (double)n * (double)n;
    printf("%s: the largest allocation %.1f MB (n^2 x 8 = %.0f MB)\n", integrator,
           (double)hs_alloc_largest() / 1e6, nn8 / 1e6);
    assert_true((double)hs_alloc_largest() < nn8 / 20.0);
}

/* The same frame by the library: hs_frame_build, hs_fe_sparse_dynamics, the integrator. */
static void run_library(hs_ctx *ctx, const char *integrator, double *roof, double *t1)
{
    hs_fe *fe = NULL;
    assert_int_equal(hs_frame_build(ctx, BAYS, STORIES, 0, 0.0, 0.0, &fe), 0);
    const int n = hs_fe_ndof(fe);
    const int dof = hs_fe_dof(fe, hs_frame_node(BAYS, STORIES, 0, 0, STORIES), HS_FE_UX);
    double *mi = calloc((size_t)n, sizeof *mi), *iota = calloc((size_t)n, sizeof *iota);
    double *f0 = calloc((size_t)n, sizeof *f0), *f1 = calloc((size_t)n, sizeof *f1);
    double *dcmd = calloc((size_t)n, sizeof *dcmd);
    assert_true(mi && iota && f0 && f1 && dcmd);
    hs_fe_mass(fe, mi);
    hs_fe_influence(fe, HS_FE_UX, iota);
    for (int i = 0; i < n; i++) mi[i] *= iota[i];
    hs_fe_matrices mats;
    hs_dynamics dyn;
    assert_int_equal(hs_fe_sparse_dynamics(fe, A0, A1, &mats, &dyn), 0);
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, integrator, NULL, &it), 0);
    assert_int_equal(hs_integrator_setup(it, &dyn, DT, NULL, NULL, f0), 0);
    for (int k = 0; k < STEPS; k++) {
        for (int i = 0; i < n; i++) {
            f0[i] = -mi[i] * ground(k);
            f1[i] = -mi[i] * ground(k + 1);
        }
        hs_step_io io = {.step = k, .t = k * DT, .f_n = f0, .f_n1 = f1, .d_cmd = dcmd};
        assert_int_equal(hs_integrator_predict(it, &io), 0);
        assert_int_equal(hs_integrator_correct(it, &io), 0);
        roof[k] = hs_integrator_displacement(it)[dof];
    }
    hs_integrator_destroy(&it);
    hs_fe_matrices_free(&mats);
    /* T1 of the library's model: the frame attached to a model, ARPACK */
    hs_model *m = NULL;
    assert_int_equal(hs_model_create(ctx, n, &m), 0);
    hs_fe_mass(fe, f0);
    assert_int_equal(hs_model_set_mass(m, f0), 0);
    assert_int_equal(hs_model_attach_fe(m, fe), 0);
    double w2;
    assert_int_equal(hs_model_modes_lowest(m, 1, &w2, NULL), 0);
    *t1 = 2.0 * HS_PI / sqrt(w2);
    hs_model_destroy(&m);
    free(mi);
    free(iota);
    free(f0);
    free(f1);
    free(dcmd);
}

static void compare(const char *integrator)
{
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    double tf[STEPS], lib[STEPS], t1_tf, t1_lib;
    run_testfile(ctx, integrator, tf, &t1_tf);
    run_library(ctx, integrator, lib, &t1_lib);
    double peak = 0.0, diff = 0.0;
    for (int k = 0; k < STEPS; k++) {
        peak = fmax(peak, fabs(lib[k]));
        diff = fmax(diff, fabs(tf[k] - lib[k]));
    }
    printf("%s: roof x from the test file vs the library: %.3g m (peak %.4g m); T1 %.12g s, "
           "%.12g s\n",
           integrator, diff, peak, t1_tf, t1_lib);
    assert_true(peak > 0.01);
    assert_true(diff <= 1e-12 * peak);
    assert_true(fabs(t1_tf - t1_lib) <= 1e-12 * t1_lib);
    hs_ctx_destroy(&ctx);
}

/* The message of the last failure contains every phrase. */
static void says(hs_ctx *ctx, int rc, const char *a, const char *b)
{
    assert_true(rc < 0);
    const char *msg = hs_ctx_message(ctx);
    if (!strstr(msg, a) || !strstr(msg, b)) fprintf(stderr, "message: %s\n", msg);
    assert_non_null(strstr(msg, a));
    assert_non_null(strstr(msg, b));
}

/* A model of HS_DENSE_MAX_DOFS + 1 DOFs (a chain of springs) keeps nothing n x n, and what
 * needs dense matrices is refused with what to change, before anything n x n is allocated. */
static void test_large_model_refusals(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    const int n = HS_DENSE_MAX_DOFS + 1;
    const uint64_t before = hs_alloc_largest();
    hs_model *m = NULL;
    assert_int_equal(hs_model_create(ctx, n, &m), 0);
    assert_true(hs_model_is_large(m));
    assert_null(hs_model_mass_matrix(m));
    assert_null(hs_model_damping(m));
    double *mass = calloc((size_t)n, sizeof *mass);
    assert_non_null(mass);
    for (int i = 0; i < n; i++) mass[i] = 1.0;
    assert_int_equal(hs_model_set_mass(m, mass), 0);
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    assert_int_equal(hs_options_set_num(o, "k", 100.0), 0);
    for (int i = 0; i < n; i++) assert_true(hs_model_add_story(m, i, "elastic", o, NULL) >= 0);
    hs_options_destroy(&o);
    says(ctx, hs_model_damping_modal(m, mass), "modal damping", "use Rayleigh damping");
    says(ctx, hs_model_modes(m, mass, NULL), "every mode", "5001 DOFs");
    says(ctx, hs_model_set_mass_matrix(m, mass), "consistent", "lump the masses");
    says(ctx, hs_model_set_extra_stiffness(m, mass), "dense extra stiffness", "compressed columns");
    double w2;
    says(ctx, hs_model_modes_lowest(m, 1, &w2, NULL), "modes of a model with springs",
         "every free DOF with a mass");
    assert_int_equal(hs_model_damping_mass_stiffness(m, 0.1, 0.001), 0); /* coefficients only */
    hs_dynamics dyn;
    says(ctx, hs_model_dynamics(m, NULL, &dyn), "a model with springs",
         "make it a frame model without springs");
    printf("refusals: the largest allocation %.2f MB (n^2 x 8 = %.0f MB)\n",
           (double)hs_alloc_largest() / 1e6, 8e-6 * (double)n * (double)n);
    assert_true(hs_alloc_largest() == before || hs_alloc_largest() < 8u * (uint64_t)n * 100u);
    hs_model_destroy(&m);
    free(mass);
    hs_ctx_destroy(&ctx);
}

static void test_cr(void **state)
{
    (void)state;
    compare("cr");
}

static void test_hht(void **state)
{
    (void)state;
    compare("hht");
}

int main(void)
{
    write_files();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_large_model_refusals),
        cmocka_unit_test(test_cr),
        cmocka_unit_test(test_hht),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    remove_files();
    return failed;
}
