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
 * solve). With OPENSEES=/path/to/OpenSees the same frame is
 * written as a Tcl script and run through OpenSees (Newmark with `algorithm Linear -factorOnce`
 * against cr, HHT with Newton against hht-newton; `system UmfPack`, `numberer RCM`), timed inside
 * the script with `clock microseconds` after a first step, and the ratio OpenSees / hysim per step
 * printed in the same run. Printed, never asserted.
 * Usage: bench_frame [largest n (default 20000)] [steps (default 2048)] */
#include "frame_gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DT   (1.0 / 1024.0)
#define AG   (0.3 * 9.81)
#define FREQ 1.5

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

/* Steps `type` (option `tangent` when not NULL) on dyn; per-step wall times into stats. */
static int time_steps(hs_ctx *ctx, const char *type, const char *tangent, const hs_dynamics *dyn,
                      const double *mi, int steps, stats *out, double *setup_s)
{
    const int n = dyn->n;
    hs_integrator *it = NULL;
    double *f0 = calloc((size_t)n, sizeof *f0), *f1 = calloc((size_t)n, sizeof *f1);
    double *dcmd = calloc((size_t)n, sizeof *dcmd), *t = calloc((size_t)steps, sizeof *t);
    hs_options *o = NULL;
    int rc = hs_options_create(&o);
    if (!rc && tangent) rc = hs_options_set_str(o, "tangent", tangent);
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

/* A numeric refactor of A with the given kind (after a first factor), in seconds. */
static double time_refactor(hs_ctx *ctx, const char *kind, const hs_csc *A)
{
    hs_linsolver *ls = NULL;
    int rc = hs_linsolver_create_sparse(ctx, kind, A, &ls);
    if (!rc) rc = hs_linsolver_factor_csc(ls, A);
    const double t0 = cpu();
    const int reps = 5;
    for (int k = 0; !rc && k < reps; k++) rc = hs_linsolver_factor_csc(ls, A);
    const double t = (cpu() - t0) / reps;
    hs_linsolver_destroy(&ls);
    return rc ? -1.0 : t;
}

/* CR's A = M + dt/2 C + dt^2/4 K0: the first factor (analysis included) by the kind that the
 * sparse creation picks (its name into kind), and numeric refactors by KLU, CHOLMOD and LAPACK's
 * band (refactor[3]), in seconds. */
static int time_factor(hs_ctx *ctx, const hs_dynamics *dyn, double *first, double refactor[3],
                       char *kind, size_t cap)
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
    for (int k = 0; !rc && k < 3; k++) refactor[k] = time_refactor(ctx, kinds[k], A);
    hs_linsolver_destroy(&ls);
    hs_csc_destroy(&A);
    return rc;
}

/* The frame as an OpenSees script in dir; `newton`: HHT (alpha 0.95 = hysim's -0.05) with
 * Newton, else Newmark with Linear -factorOnce. */
static int write_tcl(const char *path, int bays, int stories, int steps, int newton)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    double a0, a1;
    rayleigh(&a0, &a1);
    fprintf(f, "model BasicBuilder -ndm 2 -ndf 3\n");
    for (int s = 0; s <= stories; s++)
        for (int c = 0; c <= bays; c++) {
            const int id = hs_frame_node(bays, stories, 0, c, s);
            fprintf(f, "node %d %.17g %.17g\n", id, c * HS_FRAME_BAY, s * HS_FRAME_STORY);
            if (s == 0)
                fprintf(f, "fix %d 1 1 1\n", id);
            else
                fprintf(f, "mass %d %.17g %.17g %.17g\n", id, HS_FRAME_MASS, HS_FRAME_MASS,
                        HS_FRAME_ROT_MASS);
        }
    fprintf(f, "geomTransf Linear 1\n");
    int e = 1;
    for (int s = 1; s <= stories; s++)
        for (int c = 0; c <= bays; c++) {
            const int top = hs_frame_node(bays, stories, 0, c, s);
            fprintf(f, "element elasticBeamColumn %d %d %d %.17g %.17g %.17g 1\n", e++,
                    hs_frame_node(bays, stories, 0, c, s - 1), top, HS_FRAME_COL_A, HS_FRAME_E,
                    HS_FRAME_COL_I);
            if (c < bays)
                fprintf(f, "element elasticBeamColumn %d %d %d %.17g %.17g %.17g 1\n", e++, top,
                        hs_frame_node(bays, stories, 0, c + 1, s), HS_FRAME_BEAM_A, HS_FRAME_E,
                        HS_FRAME_BEAM_I);
        }
    fprintf(f, "rayleigh %.17g %.17g 0 0\n", a0, a1);
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

/* OpenSees' time per step in seconds, or a negative number. */
static double opensees_step(const char *os, int bays, int stories, int steps, int newton)
{
    char dir[] = "/tmp/hs_bench_frame_XXXXXX";
    if (!mkdtemp(dir)) return -1.0;
    char tcl[128], log[128], cmd[512];
    snprintf(tcl, sizeof tcl, "%s/frame.tcl", dir);
    snprintf(log, sizeof log, "%s/opensees.log", dir);
    double us = -1.0;
    if (write_tcl(tcl, bays, stories, steps, newton) == 0) {
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
    rmdir(dir);
    return us > 0.0 ? 1e-6 * us : -1.0;
}

int main(int argc, char **argv)
{
    const int nmax = argc > 1 ? atoi(argv[1]) : 20000;
    const int steps0 = argc > 2 ? atoi(argv[2]) : 2048;
    const char *os = getenv("OPENSEES");
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
        double t_factor = 0.0, t_refactor[3] = {0};
        char kind[16] = "?";
        if (!rc) rc = time_factor(ctx, &dyn, &t_factor, t_refactor, kind, sizeof kind);
        if (rc) {
            fprintf(stderr, "frame %d x %d: %s\n", bays, stories, hs_ctx_message(ctx));
            hs_fe_destroy(&fe);
            continue;
        }
        printf("\n%d bays x %d stories: n = %d, %d entries, half-bandwidth %d, %d steps\n", bays,
               stories, n, hs_csc_nnz(dyn.K0s), hs_csc_bandwidth(dyn.K0s), steps);
        printf("  define+finalize %.1f, assemble M C K0 (sparse) %.2f, factor (%s) %.2f; numeric "
               "refactor: klu %.2f, cholmod %.2f, banded %.2f\n",
               1e3 * t_define, 1e3 * t_assemble, kind, 1e3 * t_factor, 1e3 * t_refactor[0],
               1e3 * t_refactor[1], 1e3 * t_refactor[2]);
        double *mi = calloc((size_t)n, sizeof *mi), *iota = calloc((size_t)n, sizeof *iota);
        hs_fe_mass(fe, mi);
        hs_fe_influence(fe, HS_FE_UX, iota);
        for (int i = 0; i < n; i++) mi[i] *= iota[i];
        const char *names[] = {"cr", "hht", "hht-newton", "hht-initial"};
        double mean[4] = {0};
        printf("  %-11s %9s %9s %9s %9s %9s %9s %9s %7s\n", "", "setup", "mean", "p50", "p99",
               "max", "[cpu]", "p99/dt", "solves");
        for (int q = 0; q < 4; q++) {
            hs_dynamics d = dyn;
            /* Newton: tangent and refactor every iteration; modified Newton (initial tangent):
             * factored at setup, no tangent and solves only in the steps */
            if (q >= 2) d.linear = 0;
            stats s;
            double setup = 0.0;
            if (time_steps(ctx, q == 0 ? "cr" : "hht", q == 3 ? "initial" : NULL, &d, mi, steps, &s,
                           &setup))
                continue;
            mean[q] = s.mean;
            printf("  %-11s %9.2f %9.3f %9.3f %9.3f %9.3f %9.3f %8.0f%% %7.2f\n", names[q],
                   1e3 * setup, 1e3 * s.mean, 1e3 * s.p50, 1e3 * s.p99, 1e3 * s.max,
                   1e3 * s.cpu_mean, 100.0 * s.p99 / DT, s.solves);
        }
        if (os) {
            const int os_steps = steps > 512 ? 512 : steps;
            const double lin = opensees_step(os, bays, stories, os_steps, 0);
            const double newt = opensees_step(os, bays, stories, os_steps, 1);
            printf("  OpenSees (UmfPack, %d steps): Newmark Linear -factorOnce %.3f ms/step = "
                   "%.1f x cr; HHT Newton %.3f ms/step = %.1f x hht-newton\n",
                   os_steps, 1e3 * lin, lin / mean[0], 1e3 * newt, newt / mean[2]);
        }
        free(mi);
        free(iota);
        hs_fe_matrices_free(&mats);
        hs_fe_destroy(&fe);
        fflush(stdout);
    }
    hs_ctx_destroy(&ctx);
    return 0;
}
