/* `hysim check FILE` (validate a test definition) and `hysim modes FILE` (periods and shapes of
 * the initial-stiffness model). Both exit 0 when the file is valid and 2 when it is not. */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double two_pi = 6.283185307179586476925286766559;

static int load(int argc, char **argv, const char *cmd, hs_ctx **ctx, hs_test_def **def)
{
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: hysim %s FILE\n", cmd);
        return HS_EXIT_INPUT;
    }
    if (hs_ctx_create(ctx)) {
        fprintf(stderr, "hysim: out of memory\n");
        return HS_EXIT_FAILED;
    }
    int rc = hs_testfile_load(*ctx, argv[1], def);
    if (rc) {
        const char *msg = hs_ctx_message(*ctx);
        fprintf(stderr, "%s\n", msg[0] ? msg : hs_strerror(rc));
        hs_ctx_destroy(ctx);
        return HS_EXIT_INPUT;
    }
    return HS_EXIT_OK;
}

int hs_cli_check(int argc, char **argv)
{
    hs_ctx *ctx = NULL;
    hs_test_def *def = NULL;
    int code = load(argc, argv, "check", &ctx, &def);
    if (code) return code;
    printf("%s: ok (%d DOFs, integrator %s, %lld steps)\n", argv[1], hs_model_ndof(def->model),
           def->integrator, (long long)def->steps);
    hs_test_def_destroy(&def);
    hs_ctx_destroy(&ctx);
    return HS_EXIT_OK;
}

/* Scales a mode shape so that its largest component is +1. */
static void normalise(double *phi, int n)
{
    double big = 0.0;
    for (int i = 0; i < n; i++)
        if (fabs(phi[i]) > fabs(big)) big = phi[i];
    if (big != 0.0)
        for (int i = 0; i < n; i++) phi[i] /= big;
}

int hs_cli_modes(int argc, char **argv)
{
    hs_ctx *ctx = NULL;
    hs_test_def *def = NULL;
    int code = load(argc, argv, "modes", &ctx, &def);
    if (code) return code;
    const int n = hs_model_ndof(def->model);
    double *w2 = hs_dvec((size_t)n), *phi = hs_dvec((size_t)n * (size_t)n);
    int rc = (!w2 || !phi) ? HS_ENOMEM : hs_model_modes(def->model, w2, phi);
    if (rc) {
        fprintf(stderr, "%s: %s\n", argv[1],
                hs_ctx_message(ctx)[0] ? hs_ctx_message(ctx) : hs_strerror(rc));
        code = HS_EXIT_INPUT;
    } else {
        const char *t = def->units_time;
        printf("%s: %d DOFs (units: force %s, length %s, time %s)\n", argv[1], n, def->units_force,
               def->units_length, t);
        printf("%4s  %12s  %14s  %s\n", "mode", "period", "frequency", "shape (max 1)");
        printf("%4s  %12s  %14s\n", "", t, strcmp(t, "s") == 0 ? "Hz" : "1/time");
        for (int k = 0; k < n; k++) {
            const double omega = sqrt(w2[k]);
            double *shape = phi + (size_t)k * (size_t)n;
            normalise(shape, n);
            printf("%4d  %12.5g  %14.5g ", k + 1, two_pi / omega, omega / two_pi);
            for (int i = 0; i < n; i++) printf(" %8.4f", shape[i]);
            printf("\n");
        }
    }
    hs_free(w2);
    hs_free(phi);
    hs_test_def_destroy(&def);
    hs_ctx_destroy(&ctx);
    return code;
}
