/* Cost of one material evaluation (set_trial) on a seismic-like strain history: per step, three
 * Newton-like trials around the step's strain, then a commit. Prints one line per case:
 *   material=<name> n=<n> evals=<count> ns_per_eval=<t> steps_per_s_at_15_evals=<r>
 * Usage: bench_materials [steps] (default 2000000). */
#include "hysim/hysim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int run(const char *label, const char *type, hs_options *o, long steps)
{
    hs_ctx *ctx = NULL;
    hs_material *m = NULL;
    if (hs_ctx_create(&ctx) || hs_material_create(ctx, type, o, &m)) {
        fprintf(stderr, "bench_materials: %s: %s\n", label, hs_ctx_message(ctx));
        hs_ctx_destroy(&ctx);
        return 1;
    }
    /* two incommensurate harmonics, amplitude about 2.5 yield displacements, 400 steps a cycle */
    const double w1 = 2 * 3.14159265358979 / 400.0, w2 = w1 * 0.377;
    double sink = 0.0;
    const double t0 = now();
    for (long i = 1; i <= steps; i++) {
        const double x = (double)i;
        const double e = 1.8 * sin(w1 * x) + 0.7 * sin(w2 * x);
        int rc = hs_material_set_trial(m, e * (1 + 1e-3), 0.0);
        rc |= hs_material_set_trial(m, e * (1 - 1e-4), 0.0);
        rc |= hs_material_set_trial(m, e, 0.0);
        sink += hs_material_stress(m) + hs_material_tangent(m);
        rc |= hs_material_commit(m);
        if (rc) {
            fprintf(stderr, "bench_materials: %s: %s\n", label, hs_ctx_message(ctx));
            return 1;
        }
    }
    const double dt = now() - t0, evals = 3.0 * (double)steps;
    const double ns = 1e9 * dt / evals;
    printf("material=%s evals=%.0f ns_per_eval=%.2f steps_per_s_at_15_evals=%.3g check=%.6g\n",
           label, evals, ns, 1e9 / (15.0 * ns), sink / (double)steps);
    hs_material_destroy(&m);
    hs_ctx_destroy(&ctx);
    return 0;
}

int main(int argc, char **argv)
{
    const long steps = argc > 1 ? atol(argv[1]) : 2000000;
    int rc = 0;
    hs_options *o = NULL;
    const double ns[3] = {1.0, 2.0, 1.5};
    const char *labels[3] = {"bouc_wen_n1", "bouc_wen_n2", "bouc_wen_n1.5"};
    for (int i = 0; i < 3; i++) {
        hs_options_create(&o);
        hs_options_set_num(o, "alpha", 0.05);
        hs_options_set_num(o, "k0", 2.8);
        hs_options_set_num(o, "n", ns[i]);
        hs_options_set_num(o, "gamma", 0.5);
        hs_options_set_num(o, "beta", 0.5);
        rc |= run(labels[i], "bouc_wen", o, steps);
        hs_options_destroy(&o);
    }
    hs_options_create(&o);
    hs_options_set_num(o, "alpha", 0.05);
    hs_options_set_num(o, "k0", 2.8);
    hs_options_set_num(o, "n", 2.0);
    hs_options_set_num(o, "gamma", 0.5);
    hs_options_set_num(o, "beta", 0.5);
    hs_options_set_num(o, "delta_a", 2e-6);
    hs_options_set_num(o, "delta_nu", 2e-6);
    hs_options_set_num(o, "delta_eta", 2e-6);
    rc |= run("bouc_wen_n2_degrading", "bouc_wen", o, steps);
    hs_options_destroy(&o);
    hs_options_create(&o);
    hs_options_set_num(o, "k", 2.8);
    hs_options_set_num(o, "fy", 1.0);
    hs_options_set_num(o, "b", 0.05);
    rc |= run("bilinear", "bilinear", o, steps);
    hs_options_destroy(&o);
    return rc;
}
