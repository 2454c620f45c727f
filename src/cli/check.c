/* `hysim check FILE` (validate a test definition) and `hysim modes FILE` (periods and shapes of
 * the initial-stiffness model). Both exit 0 when the file is valid and 2 when it is not. */
#include "check_physics.h"
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double two_pi = 6.283185307179586476925286766559;

static const char *const check_usage =
    "usage: hysim check FILE [--strict] [--set KEY=VALUE ...]\n"
    "  validates a test definition without running it, prints the periods and the record's PGA\n"
    "  and duration, and warns (one numbered line each, exit 0) about likely physics mistakes:\n"
    "  dt beyond the integrator's stability limit, a step that is not a whole number of\n"
    "  controller ticks, a record in g read as length/s^2 (or the reverse), weights given as\n"
    "  masses, a stroke or velocity limit below a response-spectrum estimate, Rayleigh factors\n"
    "  of a Tcl script's own eigen that miss their damping once the experimental elements'\n"
    "  stiffness is in. Exit 2 when the file is invalid or the integrator cannot take measured\n"
    "  forces; with --strict, exit 1 when there is a warning. `hysim run` refuses a test with\n"
    "  warnings and a remote site unless given --accept-warnings. Experimental DOFs without\n"
    "  mass (a control point on a frame's massless DOF) are listed with the integrators that\n"
    "  take them (newmark, hht, alpha_os, os_tangent, implicit_hht_fe with fallback\n"
    "  os_tangent); exit 2 for the others.\n";
static const char *const modes_usage =
    "usage: hysim modes FILE [--set KEY=VALUE ...]\n"
    "  prints the periods and mode shapes of the initial-stiffness model (experimental\n"
    "  elements with their initial stiffness), the DOFs of a frame model (structure.model),\n"
    "  and each mode's participation factor and effective mass along the ground influence\n";

/* Reads FILE [--set KEY=VALUE ...] [--help]; *file receives FILE. Returns -1 after printing the
 * usage for --help (exit 0). */
static int load(int argc, char **argv, const char *cmd, const char **file, int *strict,
                hs_ctx **ctx, hs_test_def **def)
{
    const char *usage = strcmp(cmd, "check") == 0 ? check_usage : modes_usage;
    hs_cli_sets sets = {.n = 0};
    *file = NULL;
    for (int i = 1; i < argc; i++) {
        const int took = hs_cli_take_set(argc, argv, &i, cmd, &sets);
        if (took < 0) return HS_EXIT_INPUT;
        if (took) continue;
        if (hs_cli_is_help(argv[i])) {
            fputs(usage, stdout);
            return -1;
        }
        if (strict && strcmp(argv[i], "--strict") == 0) {
            *strict = 1;
            continue;
        }
        if (argv[i][0] == '-' || *file) {
            fprintf(stderr, "hysim %s: unexpected argument '%s'\n%s", cmd, argv[i], usage);
            return HS_EXIT_INPUT;
        }
        *file = argv[i];
    }
    if (!*file) {
        fputs(usage, stderr);
        return HS_EXIT_INPUT;
    }
    if (hs_ctx_create(ctx)) {
        fprintf(stderr, "hysim: out of memory\n");
        return HS_EXIT_FAILED;
    }
    int rc = hs_testfile_load_set(*ctx, *file, sets.set, sets.n, def);
    if (rc) {
        const char *msg = hs_ctx_message(*ctx);
        fprintf(stderr, "%s\n", msg[0] ? msg : hs_strerror(rc));
        hs_ctx_destroy(ctx);
        return HS_EXIT_INPUT;
    }
    if ((*def)->script_analysis[0]) { /* nothing is run at load: the script's analysis is */
        if (strcmp(cmd, "check") == 0)
            printf("%s: ok (no analysis section: %s runs its own analysis at hysim run)\n", *file,
                   (*def)->script_analysis);
        else
            fprintf(stderr,
                    "%s: no analysis section: the script runs its own analysis; hysim %s needs "
                    "the test file's (add an analysis section)\n",
                    *file, cmd);
        hs_test_def_destroy(def);
        hs_ctx_destroy(ctx);
        return strcmp(cmd, "check") == 0 ? -1 : HS_EXIT_INPUT;
    }
    return HS_EXIT_OK;
}

int hs_cli_check(int argc, char **argv)
{
    hs_ctx *ctx = NULL;
    hs_test_def *def = NULL;
    const char *file;
    int strict = 0;
    int code = load(argc, argv, "check", &file, &strict, &ctx, &def);
    if (code) return code < 0 ? HS_EXIT_OK : code;
    printf("%s: ok (%d DOFs, integrator %s, %lld steps)\n", file, hs_model_ndof(def->model),
           def->integrator, (long long)def->steps);
    for (int k = 0; k < def->nrecorders; k++) /* output.recorders: what recorders/ will hold */
        printf("%s %s (%s, %d column%s)%s", k ? "," : "recorders:", def->recorders[k].name,
               hs_rec_response_name(def->recorders[k].response),
               hs_recorder_columns(&def->recorders[k], hs_model_fe(def->model)),
               hs_recorder_columns(&def->recorders[k], hs_model_fe(def->model)) == 1 ? "" : "s",
               k + 1 == def->nrecorders ? "\n" : "");
    const int warnings = hs_check_physics(stdout, def, NULL);
    if (warnings < 0) code = HS_EXIT_FAILED;
    if (warnings > 0) printf("%s: %d warning%s\n", file, warnings, warnings > 1 ? "s" : "");
    if (warnings > 0 && strict) {
        fprintf(stderr, "hysim check --strict: %s: %d warning%s (printed above): exit 1\n", file,
                warnings, warnings > 1 ? "s" : "");
        code = HS_EXIT_FAILED;
    }
    hs_test_def_destroy(&def);
    hs_ctx_destroy(&ctx);
    return code;
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

/* The participation lines below for a diagonal mass (mass[n]). */
static void participation_lumped(const double *mass, const double *iota, int n, const double *phi,
                                 int nmodes)
{
    double total = 0.0;
    for (int i = 0; i < n; i++) total += iota[i] * mass[i] * iota[i];
    if (!(total > 0.0)) return;
    printf("participation along the ground influence (total mass %.6g):\n", total);
    double sum = 0.0;
    for (int k = 0; k < nmodes; k++) {
        const double *s = phi + (size_t)k * (size_t)n;
        double smi = 0.0, sms = 0.0;
        for (int i = 0; i < n; i++) {
            smi += s[i] * mass[i] * iota[i];
            sms += s[i] * mass[i] * s[i];
        }
        const double meff = smi * smi / sms;
        sum += meff;
        printf("  mode %d: factor %.5g, effective mass %.5g (%.2f %%, sum %.2f %%)\n", k + 1,
               smi / sms, meff, 100.0 * meff / total, 100.0 * sum / total);
    }
}

/* The frame model's DOFs, then per mode (shapes scaled to max 1) the participation factor
 * Gamma = phi^T M iota / phi^T M phi and the effective mass (phi^T M iota)^2 / phi^T M phi as a
 * share of iota^T M iota (Chopra, Dynamics of Structures, section 13.2). */
static void participation(const hs_model *m, const double *phi, int nmodes)
{
    const int n = hs_model_ndof(m);
    const hs_fe *fe = hs_model_fe(m);
    if (fe && n > HS_MODES_DENSE_MAX) {
        printf("DOFs: %d (%d massless DOFs condensed)\n", n, hs_fe_condensed(fe));
    } else if (fe) {
        char name[48];
        printf("DOFs:");
        for (int i = 0; i < n; i++)
            printf("%s %d = %s", i ? "," : "", i + 1, hs_model_dof_name(m, i, name, sizeof name));
        printf(" (%d massless DOFs condensed", hs_fe_condensed(fe));
        if (hs_fe_kept_massless(fe) > 0)
            printf("; %d kept without mass for experimental elements", hs_fe_kept_massless(fe));
        printf(")\n");
    }
    const double *M = hs_model_mass_matrix(m), *iota = hs_model_influence(m);
    if (!M) { /* a large model: lumped masses, nothing n x n */
        participation_lumped(hs_model_mass(m), iota, n, phi, nmodes);
        return;
    }
    double total = 0.0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) total += iota[i] * HS_AT(M, n, i, j) * iota[j];
    if (!(total > 0.0)) return;
    printf("participation along the ground influence (total mass %.6g):\n", total);
    double sum = 0.0;
    for (int k = 0; k < nmodes; k++) {
        const double *s = phi + (size_t)k * (size_t)n;
        double smi = 0.0, sms = 0.0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                smi += s[i] * HS_AT(M, n, i, j) * iota[j];
                sms += s[i] * HS_AT(M, n, i, j) * s[j];
            }
        const double meff = smi * smi / sms;
        sum += meff;
        printf("  mode %d: factor %.5g, effective mass %.5g (%.2f %%, sum %.2f %%)\n", k + 1,
               smi / sms, meff, 100.0 * meff / total, 100.0 * sum / total);
    }
}

int hs_cli_modes(int argc, char **argv)
{
    hs_ctx *ctx = NULL;
    hs_test_def *def = NULL;
    const char *file;
    int code = load(argc, argv, "modes", &file, NULL, &ctx, &def);
    if (code) return code < 0 ? HS_EXIT_OK : code;
    const int n = hs_model_ndof(def->model);
    /* a large frame: its lowest modes by ARPACK, without the shapes' n columns */
    const int large = hs_model_modes_sparse(def->model), nev = large ? (n > 21 ? 20 : n - 1) : n;
    double *w2 = hs_dvec((size_t)n), *phi = hs_dvec((size_t)n * (size_t)nev);
    int rc = (!w2 || !phi) ? HS_ENOMEM : hs_model_modes_lowest(def->model, nev, w2, phi);
    if (rc) {
        fprintf(stderr, "%s: %s\n", file,
                hs_ctx_message(ctx)[0] ? hs_ctx_message(ctx) : hs_strerror(rc));
        code = HS_EXIT_INPUT;
    } else {
        const char *t = def->units_time;
        printf("%s: %d DOFs (units: force %s, length %s, time %s)\n", file, n, def->units_force,
               def->units_length, t);
        if (large)
            printf("the lowest %d modes (ARPACK shift-invert Lanczos on the sparse stiffness); "
                   "shapes not printed\n",
                   nev);
        printf("%4s  %12s  %14s  %s\n", "mode", "period", "frequency",
               large ? "" : "shape (max 1)");
        printf("%4s  %12s  %14s\n", "", t, strcmp(t, "s") == 0 ? "Hz" : "1/time");
        for (int k = 0; k < nev; k++) {
            const double omega = sqrt(w2[k]);
            double *shape = phi + (size_t)k * (size_t)n;
            normalise(shape, n);
            if (!isfinite(omega)) {
                printf("%4d  %12s  %14s  (a DOF without mass: static)\n", k + 1, "-", "-");
                continue;
            }
            printf("%4d  %12.5g  %14.5g ", k + 1, two_pi / omega, omega / two_pi);
            for (int i = 0; i < n && !large; i++) printf(" %8.4f", shape[i]);
            printf("\n");
        }
        /* DOFs without mass (kept for experimental elements) close the list at omega = inf:
         * static, no period, no participation */
        int with_mass = nev;
        while (with_mass > 1 && !isfinite(w2[with_mass - 1])) with_mass--;
        participation(def->model, phi, with_mass);
    }
    hs_free(w2);
    hs_free(phi);
    hs_test_def_destroy(&def);
    hs_ctx_destroy(&ctx);
    return code;
}
