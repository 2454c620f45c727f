/* Large 2-D frames on the sparse path (issue 10, section 5): bench/frame_gen.h's regular moment
 * frames of about 1k, 2k, 5k and 20k DOFs (elastic beams and columns, masses with rotational
 * inertia at the joints, Rayleigh 2 % at 1 Hz and 10 Hz), under a sine ground acceleration
 * (0.3 g, 1.5 Hz), dt = 1/1024 s. Per frame: the time to define and finalize the model, to
 * assemble M, C, K0 in compressed columns (pattern, element slots and values), to factor
 * CR's M + dt/2 C + dt^2/4 K0 (the solver hs_linsolver_create_sparse picks) and to refactor
 * that matrix numerically with KLU, CHOLMOD and LAPACK's band (CPU time); then the step time (wall
 * clock per step: mean, p50, p99, max; and the mean CPU time) of cr          factored once (alpha1
 * a = A^-1 M a: two solves a step), hht         linear model: the effective matrix factored once,
 *   hht-newton  the same frame declared nonlinear: the tangent assembled into its pattern and
 *               refactored (KLU) at every Newton iteration,
 *   hht-initial the same nonlinear frame with `tangent: initial` (modified Newton: the matrix
 *               factored once at setup, a step costs restores and solves only),
 * the p99 step time as a fraction of dt and the Newton solves per step (0: factored once, one
 * solve). Then the same frame as a hybrid test (the sparse
 * path with experimental elements, hysim/experiment_sparse.h): two elements with control points
 * on frame nodes (two coupled actuators in x at a quarter of the height on column lines 0 and 1;
 * a brace at 30 degrees to the ground at mid-height on the last column line), answered by perfect
 * virtual sites with linear specimens (r_exp = T^T K0l T d_cmd, computed from T's few entries),
 * stepped by alpha_os and cr (predict, the sites, correct), with the ratio of their mean step to
 * the numerical cr's of the same run. With OPENSEES=/path/to/OpenSees the same frame is
 * written as a Tcl script and run through OpenSees (Newmark with `algorithm Linear -factorOnce`
 * against cr, HHT with Newton against hht-newton; `system UmfPack`, `numberer RCM`), timed inside
 * the script with `clock microseconds` after a first step; hysim reads the same model script
 * (frame_model.tcl, which OpenSees' run script sources) through its Tcl front end
 * (docs/opensees_tcl.md) and steps that model for the ratio OpenSees / hysim per step, printed in
 * the same run. Printed, never asserted.
 * Usage: bench_frame [largest n (default 20000)] [steps (default 2048)] */
#include "frame_gen.h"

#include "hysim/experiment_sparse.h"
#include "../src/opensees/opensees_tcl.h" /* hysim's Tcl front end: the same model as OpenSees' */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DT   (1.0 / 1024.0)
#define AG   (0.3 * 9.81)
#define FREQ 1.5
/* The nonlinear frames' base hinges (bench/frame_gen.h): bilinear, k in N m/rad, yield moment
 * in N m (b = 0.05), chosen so that they yield under this ground motion. */
#define HINGE_K  2e8
#define HINGE_FY 3e5

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void rayleigh(double *a0, double *a1)
{
    const double wi = 2.0 * 3.14159265358979323846, wj = 10.0 * wi, z = 0.02;
    *a1 = 2.0 * z / (wi + wj);
    *a0 = *a1 * wi * wj;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct stats {
    double mean, p50, p99, max, cpu_mean;
    double solves; /* Newton solves per step (io.iterations; 0 for a factored-once step) */
} stats;

static stats summarize(double *t, int steps, double cpu_total)
{
    stats s = {0};
    for (int k = 0; k < steps; k++) s.mean += t[k] / steps;
    qsort(t, (size_t)steps, sizeof *t, cmp_double);
    s.p50 = t[steps / 2];
    s.p99 = t[(int)floor(0.99 * (steps - 1))];
    s.max = t[steps - 1];
    s.cpu_mean = cpu_total / steps;
    return s;
}

/* The ground motion's mass column M iota (x), allocated (NULL when out of memory). */
static double *ground_mass(hs_fe *fe)
{
    const int n = hs_fe_ndof(fe);
    double *mi = calloc((size_t)n, sizeof *mi), *iota = calloc((size_t)n, sizeof *iota);
    if (mi && iota) {
        hs_fe_mass(fe, mi);
        hs_fe_influence(fe, HS_FE_UX, iota);
        for (int i = 0; i < n; i++) mi[i] *= iota[i];
    }
    free(iota);
    if (!iota) {
        free(mi);
        return NULL;
    }
    return mi;
}

/* Steps `type` with the options `opt` (key, value pairs, NULL-terminated; may be NULL) on dyn;
 * per-step wall times into stats; with `fe`, the steps ending with a hinge (an element whose
 * material's tangent is below its initial one) on its yield branch, into *yielded (untimed). */
static int time_steps(hs_ctx *ctx, const char *type, const char *const *opt, const hs_dynamics *dyn,
                      const double *mi, int steps, stats *out, double *setup_s, hs_fe *fe,
                      int *yielded)
{
    const int n = dyn->n;
    hs_integrator *it = NULL;
    double *f0 = calloc((size_t)n, sizeof *f0), *f1 = calloc((size_t)n, sizeof *f1);
    double *dcmd = calloc((size_t)n, sizeof *dcmd), *t = calloc((size_t)steps, sizeof *t);
    hs_options *o = NULL;
    int rc = hs_options_create(&o);
    for (int k = 0; !rc && opt && opt[k]; k += 2) rc = hs_options_set_str(o, opt[k], opt[k + 1]);
    if (yielded) *yielded = 0;
    if (!rc) rc = hs_integrator_create(ctx, type, o, &it);
    hs_options_destroy(&o);
    const double t0 = cpu();
    if (!rc) rc = hs_integrator_setup(it, dyn, DT, NULL, NULL, f0);
    *setup_s = cpu() - t0;
    const double c0 = cpu();
    long solves = 0;
    for (int s = 0; !rc && s < steps; s++) {
        const double g0 = AG * sin(2.0 * 3.14159265358979323846 * FREQ * s * DT),
                     g1 = AG * sin(2.0 * 3.14159265358979323846 * FREQ * (s + 1) * DT);
        for (int i = 0; i < n; i++) {
            f0[i] = -mi[i] * g0;
            f1[i] = -mi[i] * g1;
        }
        hs_step_io io = {.step = s, .t = s * DT, .f_n = f0, .f_n1 = f1, .d_cmd = dcmd};
        const double w0 = wall();
        rc = hs_integrator_step(it, &io);
        t[s] = wall() - w0;
        solves += io.iterations;
        for (int e = 0; fe && yielded && !rc && e < hs_fe_element_count(fe); e++) {
            const hs_material *m = hs_fe_element_material(fe, e);
            if (m && hs_material_tangent(m) < hs_material_initial_tangent(m)) {
                ++*yielded;
                break;
            }
        }
    }
    if (!rc) {
        *out = summarize(t, steps, cpu() - c0);
        out->solves = (double)solves / steps;
    }
    if (rc) fprintf(stderr, "%s: %s\n", type, hs_ctx_message(ctx));
    hs_integrator_destroy(&it);
    free(f0);
    free(f1);
    free(dcmd);
    free(t);
    return rc;
}

/* The hybrid frame's experiment: NACT actuators, each on at most two DOFs (dof, coefficient). */
#define NACT 3
#define KEXP 2e7 /* N/m, about a story column's lateral stiffness */
typedef struct bench_exp {
    int dof[NACT][2];
    double c[NACT][2], K0l[NACT * NACT];
    double *T; /* NACT x n, column-major (for hs_dynamics_add_experiment_sparse) */
} bench_exp;

static int bench_exp_build(hs_fe *fe, int bays, int stories, bench_exp *e)
{
    const int n = hs_fe_ndof(fe), s1 = stories / 4, s2 = stories / 2;
    memset(e, 0, sizeof *e);
    e->dof[0][0] = hs_fe_dof(fe, hs_frame_node(bays, stories, 0, 0, s1), HS_FE_UX);
    e->dof[1][0] = hs_fe_dof(fe, hs_frame_node(bays, stories, 0, 1, s1), HS_FE_UX);
    e->dof[2][0] = hs_fe_dof(fe, hs_frame_node(bays, stories, 0, bays, s2), HS_FE_UX);
    e->dof[2][1] = hs_fe_dof(fe, hs_frame_node(bays, stories, 0, bays, s2), HS_FE_UY);
    e->dof[0][1] = e->dof[0][0];
    e->dof[1][1] = e->dof[1][0];
    e->c[0][0] = e->c[1][0] = 1.0;
    e->c[2][0] = cos(3.14159265358979323846 / 6.0);
    e->c[2][1] = sin(3.14159265358979323846 / 6.0);
    e->K0l[0] = e->K0l[4] = 2.0 * KEXP;
    e->K0l[1] = e->K0l[3] = -KEXP;
    e->K0l[8] = KEXP;
    e->T = calloc((size_t)NACT * (size_t)n, sizeof *e->T);
    if (!e->T) return -1;
    for (int i = 0; i < NACT; i++)
        for (int k = 0; k < 2; k++) {
            if (e->dof[i][k] < 0) return -1;
            HS_AT(e->T, NACT, i, e->dof[i][k]) += e->c[i][k];
        }
    return 0;
}

/* Perfect virtual sites with linear specimens: r = T^T K0l T d (r zero elsewhere). */
static void bench_exp_sites(const bench_exp *e, const double *d, double *r)
{
    double x[NACT] = {0}, f[NACT] = {0};
    for (int i = 0; i < NACT; i++)
        for (int k = 0; k < 2; k++) x[i] += e->c[i][k] * d[e->dof[i][k]];
    for (int i = 0; i < NACT; i++)
        for (int j = 0; j < NACT; j++) f[i] += HS_AT(e->K0l, NACT, i, j) * x[j];
    for (int i = 0; i < NACT; i++)
        for (int k = 0; k < 2; k++) r[e->dof[i][k]] = 0.0;
    for (int i = 0; i < NACT; i++)
        for (int k = 0; k < 2; k++) r[e->dof[i][k]] += e->c[i][k] * f[i];
}

/* time_steps as a hybrid test: predict, the sites at d_cmd, correct; the wall time of all three.
 */
static int time_hybrid_steps(hs_ctx *ctx, const char *type, const hs_dynamics *dyn,
                             const bench_exp *e, const double *mi, int steps, stats *out,
                             double *setup_s)
{
    const int n = dyn->n;
    hs_integrator *it = NULL;
    double *f0 = calloc((size_t)n, sizeof *f0), *f1 = calloc((size_t)n, sizeof *f1);
    double *dcmd = calloc((size_t)n, sizeof *dcmd), *t = calloc((size_t)steps, sizeof *t);
    double *rexp = calloc((size_t)n, sizeof *rexp);
    int rc = hs_integrator_create(ctx, type, NULL, &it);
    const double t0 = cpu();
    if (!rc) rc = hs_integrator_setup(it, dyn, DT, NULL, NULL, f0);
    *setup_s = cpu() - t0;
    const double c0 = cpu();
    for (int s = 0; !rc && s < steps; s++) {
        const double g0 = AG * sin(2.0 * 3.14159265358979323846 * FREQ * s * DT),
                     g1 = AG * sin(2.0 * 3.14159265358979323846 * FREQ * (s + 1) * DT);
        for (int i = 0; i < n; i++) {
            f0[i] = -mi[i] * g0;
            f1[i] = -mi[i] * g1;
        }
        hs_step_io io = {.step = s, .t = s * DT, .f_n = f0, .f_n1 = f1, .d_cmd = dcmd};
        const double w0 = wall();
        rc = hs_integrator_predict(it, &io);
        if (!rc) {
            bench_exp_sites(e, dcmd, rexp);
            io.r_exp = rexp;
            rc = hs_integrator_correct(it, &io);
        }
        t[s] = wall() - w0;
    }
    if (!rc) *out = summarize(t, steps, cpu() - c0);
    if (rc) fprintf(stderr, "%s (hybrid): %s\n", type, hs_ctx_message(ctx));
    hs_integrator_destroy(&it);
    free(f0);
    free(f1);
    free(dcmd);
    free(rexp);
    free(t);
    return rc;
}

/* The hybrid rows: alpha_os and cr with the experiment on the sparse path. */
static void bench_hybrid(hs_ctx *ctx, hs_fe *fe, int bays, int stories, const hs_dynamics *dyn,
                         const double *mi, int steps, double cr_mean)
{
    bench_exp e;
    hs_experiment_csc xm = {0};
    hs_dynamics d = *dyn;
    int rc = bench_exp_build(fe, bays, stories, &e) ? HS_EINPUT : 0;
    if (!rc) rc = hs_dynamics_add_experiment_sparse(ctx, &d, NACT, e.T, e.K0l, NULL, &xm);
    static const char *const types[] = {"alpha_os", "cr"};
    for (int q = 0; !rc && q < 2; q++) {
        stats s;
        double setup = 0.0;
        if (time_hybrid_steps(ctx, types[q], &d, &e, mi, steps, &s, &setup)) continue;
        char name[24];
        snprintf(name, sizeof name, "%s-hybrid", q == 0 ? "aos" : "cr");
        printf("  %-11s %9.2f %9.3f %9.3f %9.3f %9.3f %9.3f %8.0f%%  (mean %.2f x cr)\n", name,
               1e3 * setup, 1e3 * s.mean, 1e3 * s.p50, 1e3 * s.p99, 1e3 * s.max, 1e3 * s.cpu_mean,
               100.0 * s.p99 / DT, cr_mean > 0.0 ? s.mean / cr_mean : 0.0);
    }
    if (rc) fprintf(stderr, "hybrid frame: %s\n", hs_ctx_message(ctx));
    hs_experiment_csc_free(&xm);
    free(e.T);
}

/* A numeric refactor of A with the given kind (after a first factor), in seconds. */
static double time_refactor(hs_ctx *ctx, const char *kind, const hs_csc *A, double *solve)
{
    hs_linsolver *ls = NULL;
    int rc = hs_linsolver_create_sparse(ctx, kind, A, &ls);
    if (!rc) rc = hs_linsolver_factor_csc(ls, A);
    double t0 = cpu();
    const int reps = 5, sreps = 200;
    for (int k = 0; !rc && k < reps; k++) rc = hs_linsolver_factor_csc(ls, A);
    const double t = (cpu() - t0) / reps;
    double *x = calloc((size_t)A->ncols, sizeof *x);
    if (!x) rc = HS_ENOMEM;
    t0 = cpu();
    for (int k = 0; !rc && k < sreps; k++) {
        x[k % A->ncols] = 1.0;
        rc = hs_linsolver_solve(ls, x);
    }
    *solve = (cpu() - t0) / sreps;
    free(x);
    hs_linsolver_destroy(&ls);
    return rc ? -1.0 : t;
}

/* CR's A = M + dt/2 C + dt^2/4 K0: the first factor (analysis included) by the kind that the
 * sparse creation picks (its name into kind), and numeric refactors by KLU, CHOLMOD and LAPACK's
 * band (refactor[3]) and the time of a solve with each (solve[3]), in seconds. */
static int time_factor(hs_ctx *ctx, const hs_dynamics *dyn, double *first, double refactor[3],
                       double solve[3], char *kind, size_t cap)
{
    hs_csc *A = NULL;
    hs_linsolver *ls = NULL;
    int rc = hs_csc_pattern_union(ctx, dyn->Ms, dyn->K0s, &A);
    if (!rc) rc = hs_csc_axpby(ctx, 1.0, dyn->Ms, 0.25 * DT * DT, dyn->K0s, A);
    if (!rc && dyn->Cs) rc = hs_csc_axpby(ctx, 1.0, A, 0.5 * DT, dyn->Cs, A);
    const double t0 = cpu();
    if (!rc) rc = hs_linsolver_create_sparse(ctx, NULL, A, &ls);
    if (!rc) rc = hs_linsolver_factor_csc(ls, A);
    *first = cpu() - t0;
    if (!rc) snprintf(kind, cap, "%s", hs_linsolver_kind(ls));
    static const char *const kinds[] = {"klu", "cholmod", "banded"};
    for (int k = 0; !rc && k < 3; k++) refactor[k] = time_refactor(ctx, kinds[k], A, &solve[k]);
    hs_linsolver_destroy(&ls);
    hs_csc_destroy(&A);
    return rc;
}

/* The frame's model (nodes, masses, elements, Rayleigh damping) as an OpenSees script. */
static int write_tcl_model(const char *path, int bays, int stories)
{
    double a0, a1;
    rayleigh(&a0, &a1);
    return hs_frame_write_tcl(path, bays, stories, a0, a1);
}

/* OpenSees' run script: sources the model at `model` (an absolute path), then the ground motion
 * and the analysis; `newton`: HHT (alpha 0.95 = hysim's -0.05) with Newton, else Newmark with
 * Linear -factorOnce. */
static int write_tcl(const char *path, const char *model, int steps, int newton)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "source %s\n", model);
    fprintf(f, "timeSeries Trig 1 0.0 1e6 %.17g -factor %.17g\n", 1.0 / FREQ, AG);
    fprintf(f, "pattern UniformExcitation 1 1 -accel 1\n");
    fprintf(f, "constraints Plain\nnumberer RCM\nsystem UmfPack\n");
    fprintf(f, "test NormDispIncr 1e-10 20\n");
    fprintf(f, newton ? "algorithm Newton\nintegrator HHT 0.95\n"
                      : "algorithm Linear -factorOnce\nintegrator Newmark 0.5 0.25\n");
    fprintf(f, "analysis Transient\nanalyze 1 %.17g\n", DT);
    fprintf(f, "set t0 [clock microseconds]\nanalyze %d %.17g\nset t1 [clock microseconds]\n",
            steps - 1, DT);
    fprintf(f, "puts \"STEP_US [expr ($t1 - $t0) / %d.0]\"\n", steps - 1);
    return fclose(f);
}

/* OpenSees' time per step in seconds of the model script in dir, or a negative number. */
static double opensees_step(const char *os, const char *dir, int steps, int newton)
{
    char tcl[128], log[128], model[128], cmd[512];
    snprintf(tcl, sizeof tcl, "%s/frame.tcl", dir);
    snprintf(log, sizeof log, "%s/opensees.log", dir);
    snprintf(model, sizeof model, "%s/frame_model.tcl", dir);
    double us = -1.0;
    if (write_tcl(tcl, model, steps, newton) == 0) {
        snprintf(cmd, sizeof cmd, "timeout 900 '%s' '%s' > '%s' 2>&1", os, tcl, log);
        if (system(cmd) == 0) {
            FILE *f = fopen(log, "r");
            char line[256];
            while (f && fgets(line, sizeof line, f))
                if (sscanf(line, "STEP_US %lf", &us) == 1) break;
            if (f) fclose(f);
        }
    }
    remove(tcl);
    remove(log);
    return us > 0.0 ? 1e-6 * us : -1.0;
}

/* hysim's frame from the model script at `path`, through the Tcl front end, with its Rayleigh
 * factors. */
static int tcl_frame(hs_ctx *ctx, const char *path, hs_fe **fe, double *a0, double *a1)
{
    hs_os_model m;
    int tangent = 0;
    int rc = hs_opensees_tcl_run(ctx, path, &m);
    if (!rc) rc = hs_os_build_fe(ctx, &m, path, fe);
    if (!rc) rc = hs_os_rayleigh_coefficients(ctx, &m, path, a0, a1, &tangent);
    hs_os_model_clear(&m);
    return rc;
}

/* OpenSees against hysim on the same Tcl model: hysim's cr and hht-newton mean step times of
 * the frame read from the script, OpenSees' per step, and their ratio. */
static void compare_opensees(hs_ctx *ctx, const char *os, int bays, int stories, int steps)
{
    char dir[] = "/tmp/hs_bench_frame_XXXXXX", model[128];
    if (!mkdtemp(dir)) return;
    snprintf(model, sizeof model, "%s/frame_model.tcl", dir);
    hs_fe *fe = NULL;
    hs_fe_matrices mats = {0};
    hs_dynamics dyn;
    double a0, a1, mean[3] = {0, 0, 0};
    const double t0 = cpu();
    int rc = write_tcl_model(model, bays, stories) ? HS_EIO : tcl_frame(ctx, model, &fe, &a0, &a1);
    const double t_read = cpu() - t0;
    if (!rc) rc = hs_fe_sparse_dynamics(fe, a0, a1, &mats, &dyn);
    double *mi = rc ? NULL : ground_mass(fe);
    if (!rc && !mi) rc = HS_ENOMEM;
    static const char *const refactor[] = {"update", "refactor", NULL};
    for (int q = 0; !rc && q < 3; q++) {
        hs_dynamics d = dyn;
        if (q > 0) d.linear = 0; /* Newton, as OpenSees' */
        stats s;
        double setup = 0.0;
        rc = time_steps(ctx, q == 0 ? "cr" : "hht", q == 2 ? refactor : NULL, &d, mi, steps, &s,
                        &setup, NULL, NULL);
        mean[q] = s.mean;
    }
    if (rc)
        fprintf(stderr, "the Tcl model: %s\n", hs_ctx_message(ctx));
    else {
        const double lin = opensees_step(os, dir, steps, 0),
                     newt = opensees_step(os, dir, steps, 1);
        printf("  the same Tcl model (frame_model.tcl; hysim's front end read it in %.0f ms, n = "
               "%d), %d steps:\n    OpenSees (UmfPack): Newmark Linear -factorOnce %.3f ms/step, "
               "HHT Newton %.3f ms/step\n    hysim: cr %.3f ms/step (OpenSees / hysim = %.1f), "
               "hht-newton %.3f ms/step (%.1f; its matrix kept: the tangent never changes), "
               "hht-refactor %.3f ms/step (%.1f)\n",
               1e3 * t_read, dyn.n, steps, 1e3 * lin, 1e3 * newt, 1e3 * mean[0], lin / mean[0],
               1e3 * mean[1], newt / mean[1], 1e3 * mean[2], newt / mean[2]);
    }
    free(mi);
    hs_fe_matrices_free(&mats);
    hs_fe_destroy(&fe);
    remove(model);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    const int nmax = argc > 1 ? atoi(argv[1]) : 20000;
    const int steps0 = argc > 2 ? atoi(argv[2]) : 2048;
    const char *os = getenv("OPENSEES");
    const char *only = getenv("BENCH_FRAME_ONLY"); /* e.g. "hht-initial": only those rows */
    if (os && access(os, X_OK) != 0) os = NULL;
    static const int sizes[][2] = {{10, 30}, {16, 40}, {24, 70}, {50, 130}};
    hs_ctx *ctx = NULL;
    if (hs_ctx_create(&ctx)) return 1;
    double a0, a1;
    rayleigh(&a0, &a1);
    printf("2-D frames, dt = 1/1024 s; times in ms; step times wall clock (CPU mean in [])\n");
    if (!os) printf("(OpenSees: set OPENSEES=/path/to/OpenSees for the comparison)\n");
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        const int bays = sizes[k][0], stories = sizes[k][1];
        const int n = 3 * (bays + 1) * stories;
        if (n > nmax) break;
        const int steps = n > 10000 ? steps0 / 4 : steps0;
        hs_fe *fe = NULL;
        double t0 = cpu();
        int rc = hs_frame_build(ctx, bays, stories, 0, 0.0, 0.0, &fe);
        const double t_define = cpu() - t0;
        hs_fe_matrices mats = {0};
        hs_dynamics dyn;
        t0 = cpu();
        if (!rc) rc = hs_fe_sparse_dynamics(fe, a0, a1, &mats, &dyn);
        const double t_assemble = cpu() - t0;
        double t_factor = 0.0, t_refactor[3] = {0}, t_solve[3] = {0};
        char kind[16] = "?";
        if (!rc) rc = time_factor(ctx, &dyn, &t_factor, t_refactor, t_solve, kind, sizeof kind);
        if (rc) {
            fprintf(stderr, "frame %d x %d: %s\n", bays, stories, hs_ctx_message(ctx));
            hs_fe_destroy(&fe);
            continue;
        }
        printf("\n%d bays x %d stories: n = %d, %d entries, half-bandwidth %d, %d steps\n", bays,
               stories, n, hs_csc_nnz(dyn.K0s), hs_csc_bandwidth(dyn.K0s), steps);
        printf("  define+finalize %.1f, assemble M C K0 (sparse) %.2f, factor (%s) %.2f; numeric "
               "refactor: klu %.2f, cholmod %.2f, banded %.2f; a solve: klu %.3f, cholmod %.3f, "
               "banded %.3f\n",
               1e3 * t_define, 1e3 * t_assemble, kind, 1e3 * t_factor, 1e3 * t_refactor[0],
               1e3 * t_refactor[1], 1e3 * t_refactor[2], 1e3 * t_solve[0], 1e3 * t_solve[1],
               1e3 * t_solve[2]);
        double *mi = ground_mass(fe);
        /* the elastic frame: cr and hht factored once; the frame on yielding base hinges: hht
         * with full Newton (its matrix kept as Woodbury updates, or refactored at every
         * iteration) and with the initial tangent */
        hs_fe *feh = NULL;
        hs_fe_matrices mh = {0};
        hs_dynamics dh;
        double *mih = NULL;
        if (hs_frame_build(ctx, bays, stories, 0, HINGE_K, HINGE_FY, &feh) ||
            hs_fe_sparse_dynamics(feh, a0, a1, &mh, &dh) || !(mih = ground_mass(feh))) {
            fprintf(stderr, "hinged frame %d x %d: %s\n", bays, stories, hs_ctx_message(ctx));
            feh = NULL;
        }
        static const char *const update[] = {"update", "woodbury", NULL};
        static const char *const refactor[] = {"update", "refactor", NULL};
        static const char *const initial[] = {"tangent", "initial", NULL};
        static const struct row {
            const char *name, *type;
            const char *const *opt;
            int hinged;
        } rows[] = {{"cr", "cr", NULL, 0},
                    {"hht", "hht", NULL, 0},
                    {"hht-newton", "hht", update, 1},
                    {"hht-refactor", "hht", refactor, 1},
                    {"hht-initial", "hht", initial, 1}};
        double cr_mean = 0.0; /* the numerical CR step: the hybrid rows' baseline */
        printf("  %-13s %8s %9s %9s %9s %9s %9s %8s %7s %7s\n", "", "setup", "mean", "p50", "p99",
               "max", "[cpu]", "p99/dt", "solves", "yielded");
        /* each hinged row starts from the virgin hinges (the rows share the model) */
        double *virgin = feh ? calloc(hs_fe_state_size(feh), sizeof *virgin) : NULL;
        if (feh && (!virgin || hs_fe_state_save(feh, virgin))) {
            fprintf(stderr, "hinged frame %d x %d: cannot save its state\n", bays, stories);
            hs_fe_destroy(&feh);
        }
        for (size_t q = 0; q < sizeof rows / sizeof rows[0]; q++) {
            if (only && !strstr(only, rows[q].name)) continue;
            if (rows[q].hinged && (!feh || hs_fe_state_load(feh, virgin))) continue;
            stats s;
            double setup = 0.0;
            int yielded = 0;
            if (time_steps(ctx, rows[q].type, rows[q].opt, rows[q].hinged ? &dh : &dyn,
                           rows[q].hinged ? mih : mi, steps, &s, &setup,
                           rows[q].hinged ? feh : NULL, &yielded))
                continue;
            if (q == 0) cr_mean = s.mean;
            printf("  %-13s %8.2f %9.3f %9.3f %9.3f %9.3f %9.3f %7.0f%% %7.2f", rows[q].name,
                   1e3 * setup, 1e3 * s.mean, 1e3 * s.p50, 1e3 * s.p99, 1e3 * s.max,
                   1e3 * s.cpu_mean, 100.0 * s.p99 / DT, s.solves);
            if (rows[q].hinged) printf(" %6.0f%%", 100.0 * yielded / steps);
            printf("\n");
        }
        free(mih);
        free(virgin);
        hs_fe_matrices_free(&mh);
        hs_fe_destroy(&feh);
        if (!only || strstr(only, "hybrid"))
            bench_hybrid(ctx, fe, bays, stories, &dyn, mi, steps, cr_mean);
        if (os) compare_opensees(ctx, os, bays, stories, steps > 512 ? 512 : steps);
        free(mi);
        hs_fe_matrices_free(&mats);
        hs_fe_destroy(&fe);
        fflush(stdout);
    }
    hs_ctx_destroy(&ctx);
    return 0;
}
