/* Steps per second of every integrator on shear buildings of 2, 15, 100 and 1000 stories,
 * linear and Bouc-Wen, recorders off (the integrator's step loop alone, as a lab's coordinator
 * runs it). The 15-story Bouc-Wen row is Mosqueda and Ahmadizadeh's (2008a) setback building (first
 * story 1.77 kN/mm, others 8.86 kN/mm, yield 3.6 mm, T1 = 1.0 s, 2 % Rayleigh damping). Ground
 * motion: El Centro 180 when ../shared is present, else the project's synthetic record. Prints a
 * table; targets for the 15-story Bouc-Wen case: alpha_os >= 1,000,000 and hht >= 400,000 steps/s.
 * iter/step: mean Newton (or estimation) iterations per step.
 * Usage: bench_integrators [seconds per row] [integrator] [stories] (the last two filter rows). */
#include "hysim/hysim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CPU time of this process: the bench is single-threaded, and on a shared machine the wall
 * clock would count the time other processes hold the core. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int build(hs_ctx *ctx, int n, int bouc_wen, hs_model **out)
{
    hs_model *m = NULL;
    int rc = hs_model_create(ctx, n, &m);
    double *mass = calloc((size_t)n, sizeof(double));
    for (int i = 0; i < n; i++) mass[i] = 0.0014825502271979857;
    if (!rc) rc = hs_model_set_mass(m, mass);
    free(mass);
    hs_options *o = NULL;
    hs_options_create(&o);
    for (int s = 0; !rc && s < n; s++) {
        const double k = s == 0 ? 1.77 : 8.86;
        if (bouc_wen) {
            hs_options_set_num(o, "alpha", 0.05);
            hs_options_set_num(o, "k0", k);
            hs_options_set_num(o, "n", 2);
            hs_options_set_num(o, "gamma", 0.0385802469);
            hs_options_set_num(o, "beta", 0.0385802469);
            hs_options_set_num(o, "A0", 1.0);
            rc = hs_model_add_story(m, s, "bouc_wen", o, "story");
        } else {
            hs_options_set_num(o, "k", k);
            rc = hs_model_add_story(m, s, "elastic", o, "story");
        }
        if (rc > 0) rc = 0;
    }
    hs_options_destroy(&o);
    if (!rc) rc = hs_model_damping_rayleigh(m, 0, n > 1 ? 1 : 0, 0.02, 0.02);
    if (rc) {
        hs_model_destroy(&m);
        return rc;
    }
    *out = m;
    return 0;
}

static int load_record(hs_ctx *ctx, hs_ground_motion **gm)
{
    hs_options *o = NULL;
    hs_options_create(&o);
    const char *at2 = "../shared/data/records/I-ELC180.AT2";
    int rc;
    FILE *f = fopen(at2, "r");
    if (f) {
        fclose(f);
        hs_options_set_str(o, "path", at2);
        hs_options_set_num(o, "scale", 9806.65);
        rc = hs_ground_motion_create(ctx, "at2", o, gm);
    } else {
        hs_options_set_num(o, "seed", 7);
        hs_options_set_num(o, "pga", 3000.0);
        hs_options_set_num(o, "duration", 40.0);
        hs_options_set_num(o, "dt", 0.01);
        rc = hs_ground_motion_create(ctx, "synthetic", o, gm);
    }
    hs_options_destroy(&o);
    return rc;
}

/* Runs `type` on the model for at least `budget` seconds (and up to the record's end, cycling
 * through it), returns steps per second or a negative value on failure. */
static double time_integrator(hs_ctx *ctx, hs_model *m, const hs_ground_motion *gm,
                              const char *type, double budget, double *iters)
{
    const int n = hs_model_ndof(m);
    double *K0 = calloc((size_t)n * (size_t)n, sizeof(double));
    double *f0 = calloc((size_t)n, sizeof(double)), *f1 = calloc((size_t)n, sizeof(double));
    double *dcmd = calloc((size_t)n, sizeof(double));
    const double *mass = hs_model_mass(m);
    hs_dynamics dyn;
    hs_integrator *it = NULL;
    double rate = -1.0;
    int rc = hs_model_dynamics(m, K0, &dyn);
    if (!rc) rc = hs_integrator_create(ctx, type, NULL, &it);
    if (!rc) rc = hs_integrator_setup(it, &dyn, 0.01, NULL, NULL, f0);
    if (!rc) {
        int64_t steps = 0, iterations = 0;
        const double start = now();
        double elapsed = 0.0;
        size_t k = 0;
        while (!rc && elapsed < budget) {
            for (int chunk = 0; chunk < 256 && !rc; chunk++, steps++) {
                if (k + 1 >= gm->npts) k = 0;
                const double ag = gm->acc[k + 1];
                for (int i = 0; i < n; i++) f1[i] = -mass[i] * ag;
                hs_step_io io = {
                    .step = steps, .t = 0.01 * (double)k, .f_n = f0, .f_n1 = f1, .d_cmd = dcmd};
                rc = hs_integrator_step(it, &io);
                iterations += io.iterations;
                memcpy(f0, f1, (size_t)n * sizeof(double));
                k++;
            }
            elapsed = now() - start;
        }
        if (!rc) rate = (double)steps / elapsed;
        *iters = (double)iterations / (double)steps;
    }
    if (rc) fprintf(stderr, "  %s: %s\n", type, hs_ctx_message(ctx));
    hs_integrator_destroy(&it);
    free(K0);
    free(f0);
    free(f1);
    free(dcmd);
    return rate;
}

int main(int argc, char **argv)
{
    const double budget = argc > 1 ? atof(argv[1]) : 0.25;
    const char *only_type = argc > 2 ? argv[2] : NULL;
    const int only_size = argc > 3 ? atoi(argv[3]) : 0;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_ctx_set_logger(ctx, NULL, NULL, HS_LOG_ERROR);
    hs_ground_motion *gm = NULL;
    if (load_record(ctx, &gm)) {
        fprintf(stderr, "bench: no ground motion: %s\n", hs_ctx_message(ctx));
        return 1;
    }
    printf("# steps per CPU second, one core, recorders off, dt = 0.01, record %s\n", gm->source);
    printf("%-18s %-9s %8s %14s %10s\n", "integrator", "model", "stories", "steps/s", "iter/step");
    const int sizes[] = {2, 15, 100, 1000};
    for (size_t e = 0; e < hs_integrator_registry_count(); e++) {
        const hs_integrator_entry *entry = hs_integrator_registry_get(e);
        if (only_type && strcmp(only_type, entry->name) != 0) continue;
        for (int bw = 0; bw <= 1; bw++) {
            if (bw && entry->linear_only) continue;
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                if (only_size && sizes[s] != only_size) continue;
                hs_model *m = NULL;
                if (build(ctx, sizes[s], bw, &m)) {
                    fprintf(stderr, "bench: model: %s\n", hs_ctx_message(ctx));
                    return 1;
                }
                double iters = 0.0;
                const double rate = time_integrator(ctx, m, gm, entry->name, budget, &iters);
                if (rate > 0)
                    printf("%-18s %-9s %8d %14.0f %10.2f\n", entry->name,
                           bw ? "bouc_wen" : "linear", sizes[s], rate, iters);
                else
                    printf("%-18s %-9s %8d %14s\n", entry->name, bw ? "bouc_wen" : "linear",
                           sizes[s], "failed");
                fflush(stdout);
                hs_model_destroy(&m);
            }
        }
    }
    printf("# targets (15 stories, bouc_wen): alpha_os >= 1000000, hht >= 400000 steps/s\n");
    hs_ground_motion_destroy(&gm);
    hs_ctx_destroy(&ctx);
    return 0;
}
