/* The step loop of any test file (a YAML model or an OpenSees Tcl model through the Tcl front
 * end), as a lab's coordinator runs it: the file's model, integrator, dt and record, the ground
 * force -M iota ag (full M when the model's is), recorders off. Prints the microseconds a step of
 * wall-clock and CPU time, each the median of R repetitions of the whole record, and the fastest
 * wall time; bench/opensees_compare.sh reads the line "STEP_US wall cpu".
 * Usage: bench_model_step FILE [repetitions] (5 by default). */
#include "hysim/hysim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* CPU seconds of the file's step loop (or -1); its wall seconds in *wall */
static double time_loop(hs_ctx *ctx, const hs_test_def *def, int64_t *steps, double *wall)
{
    const int n = hs_model_ndof(def->model);
    const size_t nn = (size_t)n * (size_t)n;
    double *K0 = calloc(nn, sizeof(double)), *f0 = calloc((size_t)n, sizeof(double));
    double *f1 = calloc((size_t)n, sizeof(double)), *dcmd = calloc((size_t)n, sizeof(double));
    double *mi = calloc((size_t)n, sizeof(double)); /* M iota */
    hs_dynamics dyn;
    hs_integrator *it = NULL;
    double seconds = -1.0;
    int rc = hs_model_dynamics(def->model, K0, &dyn);
    if (!rc) rc = hs_integrator_create(ctx, def->integrator, def->integrator_opts, &it);
    if (!rc) rc = hs_integrator_setup(it, &dyn, def->dt, NULL, NULL, f0);
    if (!rc) {
        const double *iota = hs_model_influence(def->model), *M = hs_model_mass_matrix(def->model);
        const double *m = hs_model_mass(def->model);
        if (M)
            hs_matvec(n, M, iota, mi);
        else /* large: the lumped masses */
            for (int i = 0; i < n; i++) mi[i] = m[i] * iota[i];
        const double start = clock_s(CLOCK_PROCESS_CPUTIME_ID), w0 = clock_s(CLOCK_MONOTONIC);
        for (int64_t k = 0; !rc && k < def->steps; k++) {
            const double ag = hs_ground_motion_at(def->gm, (double)(k + 1) * def->dt);
            for (int i = 0; i < n; i++) f1[i] = -mi[i] * ag;
            hs_step_io io = {
                .step = k, .t = (double)k * def->dt, .f_n = f0, .f_n1 = f1, .d_cmd = dcmd};
            rc = hs_integrator_step(it, &io);
            memcpy(f0, f1, (size_t)n * sizeof(double));
        }
        *wall = clock_s(CLOCK_MONOTONIC) - w0;
        if (!rc) seconds = clock_s(CLOCK_PROCESS_CPUTIME_ID) - start;
        *steps = def->steps;
    }
    if (rc) fprintf(stderr, "bench_model_step: %s\n", hs_ctx_message(ctx));
    hs_integrator_destroy(&it);
    free(K0);
    free(f0);
    free(f1);
    free(dcmd);
    free(mi);
    return seconds;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_model_step FILE [repetitions]\n");
        return 2;
    }
    const int reps = argc > 2 ? atoi(argv[2]) : 5;
    if (reps < 1 || reps > 1000) return fprintf(stderr, "repetitions: 1 to 1000\n"), 2;
    hs_ctx *ctx = NULL;
    hs_test_def *def = NULL;
    if (hs_ctx_create(&ctx) || hs_testfile_load(ctx, argv[1], &def)) {
        fprintf(stderr, "bench_model_step: %s\n", ctx ? hs_ctx_message(ctx) : "no memory");
        hs_ctx_destroy(&ctx);
        return 2;
    }
    double *us = calloc((size_t)reps, sizeof *us), *wus = calloc((size_t)reps, sizeof *wus);
    int64_t steps = 0;
    int rc = (!us || !wus) ? 1 : 0;
    for (int r = 0; r < reps && !rc; r++) {
        double wall = 0.0;
        const double s = time_loop(ctx, def, &steps, &wall);
        if (s < 0.0) rc = 1;
        us[r] = 1e6 * s / (double)steps;
        wus[r] = 1e6 * wall / (double)steps;
    }
    if (!rc) {
        qsort(us, (size_t)reps, sizeof *us, cmp);
        qsort(wus, (size_t)reps, sizeof *wus, cmp);
        printf("%s: %d DOFs, %s, %lld steps: %.3f us a step wall, %.3f CPU (medians of %d), "
               "%.3f fastest wall\nSTEP_US %.6g %.6g\n",
               argv[1], hs_model_ndof(def->model), def->integrator, (long long)steps, wus[reps / 2],
               us[reps / 2], reps, wus[0], wus[reps / 2], us[reps / 2]);
    }
    free(us);
    free(wus);
    hs_test_def_destroy(&def);
    hs_ctx_destroy(&ctx);
    return rc;
}
