/* hysim pretest --config SITE.yaml -o OUT.json [--noise S] [--stiffness A[,F[,N]]]
 * [--dynamics A[,HOLD[,N]]] [--test TEST.yaml [--site NAME]] [--log FILE]: the pre-test
 * procedures on a site file's laboratory (docs/pretest.md), about where its rig rests, written as
 * one JSON file a test file can reference. */
#include "cli.h"

#include "hysim/pretest.h"
#include "hysim/site_server.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const usage =
    "usage: hysim pretest --config SITE.yaml -o OUT.json [--noise SECONDS]\n"
    "                     [--stiffness AMPLITUDE[,FREQUENCY[,CYCLES]]]\n"
    "                     [--dynamics STEP[,HOLD[,REPEATS]]] [--test TEST.yaml [--site NAME]]\n"
    "                     [--log FILE]\n"
    "  runs the pre-test procedures on the site file's laboratory, each actuator in turn, about\n"
    "  where its rig rests (read from a real laboratory before any command), and writes their\n"
    "  results to OUT.json (docs/pretest.md); without a procedure option all three:\n"
    "  --noise SECONDS     zero command: mean, RMS and spectrum peak per channel (default 2 s)\n"
    "  --stiffness A,F,N   N sine cycles (default 3) of amplitude A at F Hz (default 0.5): K0l\n"
    "                      (default A: 2 % of the stroke)\n"
    "  --dynamics A,H,N    N up-and-down steps (default 2) of height A held H s (default 0.25):\n"
    "                      transport delay, first-order constant a, a_es (default A: the\n"
    "                      stiffness amplitude)\n"
    "  --test TEST.yaml    compares K0l with the initial_stiffness of the test's experimental\n"
    "                      elements at site NAME (--site, default the site file's name)\n"
    "  --log FILE          every tick's command, displacement and force as CSV\n"
    "exit codes: 0 done, 1 failed (a limit tripped: the lab was returned to its rest), 2 bad\n"
    "input or a rig beyond its stroke (nothing moved)\n";

static void say(void *user, hs_log_level level, const char *message)
{
    (void)user;
    fprintf(stderr, "hysim pretest: %s%s\n", level <= HS_LOG_WARN ? "warning: " : "", message);
}

/* "A[,B[,C]]": up to three positive numbers, the third (a count) whole; 0 when any is malformed. */
static int numbers(const char *arg, double *v, int max)
{
    const char *p = arg;
    for (int i = 0; i < max; i++) {
        char *end = NULL;
        v[i] = strtod(p, &end);
        if (end == p || !isfinite(v[i]) || !(v[i] > 0.0)) return 0;
        if (i == 2 && !(v[i] == floor(v[i]) && v[i] <= 1e6)) return 0;
        if (*end == '\0') return 1;
        if (*end != ',') return 0;
        p = end + 1;
    }
    return 0;
}

/* The test file's initial_stiffness over the site's actuators (NaN where none is given). */
static int reference(hs_ctx *ctx, const char *test, const char *site, hs_pretest_report *r)
{
    hs_test_def *def = NULL;
    if (hs_testfile_load(ctx, test, &def)) return HS_EXIT_INPUT;
    const int n = r->nact;
    for (int i = 0; i < n * n; i++) r->reference[i] = NAN;
    for (int e = 0; e < def->nexp; e++) {
        const hs_exp_element_def *x = &def->experimental[e];
        if (strcmp(x->site, site) != 0 || !x->K0l) continue;
        for (int a = 0; a < x->nact; a++)
            for (int b = 0; b < x->nact; b++)
                if (x->channel[a] < n && x->channel[b] < n)
                    r->reference[x->channel[a] * n + x->channel[b]] = x->K0l[b * x->nact + a];
        r->has_reference = 1;
    }
    snprintf(r->units_length, sizeof r->units_length, "%s", def->units_length);
    snprintf(r->units_force, sizeof r->units_force, "%s", def->units_force);
    hs_test_def_destroy(&def);
    if (!r->has_reference) {
        hs_fail(ctx, HS_EINPUT,
                "%s: no experimental element at site '%s' gives an initial_stiffness (name the "
                "test's site with --site NAME)",
                test, site);
        return HS_EXIT_INPUT;
    }
    return HS_EXIT_OK;
}

static void print_report(const hs_pretest_report *r)
{
    const int n = r->nact;
    for (int j = 0; j < n; j++) {
        printf("%s:", r->actuators[j]);
        if (r->has_noise)
            printf(" noise RMS %.4g %s (peak at %.4g Hz), %.4g %s (peak at %.4g Hz);",
                   r->noise.x[j].rms, r->units_length, r->noise.x[j].peak_freq, r->noise.f[j].rms,
                   r->units_force, r->noise.f[j].peak_freq);
        if (r->has_stiffness)
            printf(" K0l[%s][%s] %.6g +- %.2g (scatter %.2g)%s", r->actuators[j], r->actuators[j],
                   r->stiffness.K[j * n + j], r->stiffness.stderr_K[j * n + j],
                   r->stiffness.scatter[j * n + j], r->has_dynamics ? ";" : "");
        if (r->has_reference && isfinite(r->reference[j * n + j]))
            printf(" (test file %.6g)", r->reference[j * n + j]);
        if (r->has_dynamics)
            printf(" transport delay %d ticks, a %.3f samples, a_es %.3f", r->dynamics.delay[j],
                   r->dynamics.a[j], r->dynamics.a_es[j]);
        printf("\n");
    }
}

int hs_cli_pretest(int argc, char **argv)
{
    const char *config = NULL, *out = NULL, *test = NULL, *site = NULL, *log = NULL;
    double noise_s = 2.0, st[3] = {0, 0.5, 3}, dy[3] = {0, 0.25, 2};
    int do_noise = 0, do_st = 0, do_dy = 0;
    for (int i = 1; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (hs_cli_is_help(a)) {
            fputs(usage, stdout);
            return HS_EXIT_OK;
        }
        int ok = v != NULL;
        if (ok && strcmp(a, "--config") == 0)
            config = v;
        else if (ok && strcmp(a, "-o") == 0)
            out = v;
        else if (ok && strcmp(a, "--test") == 0)
            test = v;
        else if (ok && strcmp(a, "--site") == 0)
            site = v;
        else if (ok && strcmp(a, "--log") == 0)
            log = v;
        else if (ok && strcmp(a, "--noise") == 0)
            do_noise = 1, ok = numbers(v, &noise_s, 1) && noise_s > 0.0;
        else if (ok && strcmp(a, "--stiffness") == 0)
            do_st = 1, ok = numbers(v, st, 3);
        else if (ok && strcmp(a, "--dynamics") == 0)
            do_dy = 1, ok = numbers(v, dy, 3);
        else {
            fprintf(stderr, "hysim pretest: unknown argument '%s'\n%s", a, usage);
            return HS_EXIT_INPUT;
        }
        if (!ok) {
            fprintf(stderr,
                    "hysim pretest: %s '%s': give positive numbers separated by commas (the "
                    "count a whole number)\n",
                    a, v);
            return HS_EXIT_INPUT;
        }
    }
    if (!config || !out) {
        fprintf(stderr, "%s", usage);
        return HS_EXIT_INPUT;
    }
    if (!do_noise && !do_st && !do_dy) do_noise = do_st = do_dy = 1;
    hs_ctx *ctx = NULL;
    if (hs_ctx_create(&ctx)) return HS_EXIT_FAILED;
    hs_ctx_set_logger(ctx, say, NULL, HS_LOG_INFO); /* where the rig rests */
    hs_site_file *file = NULL;
    hs_pretest_site *ps = NULL;
    hs_pretest_report *r = hs_calloc(1, sizeof *r);
    int code = HS_EXIT_OK;
    if (!r || hs_site_file_load(ctx, config, &file)) {
        fprintf(stderr, "hysim pretest: %s\n", r ? hs_ctx_message(ctx) : "out of memory");
        code = HS_EXIT_INPUT;
        goto done;
    }
    const hs_site_config *c = &hs_site_file_config(file)->site;
    snprintf(r->site, sizeof r->site, "%s", c->name);
    r->nact = c->nact;
    r->rate = c->rate;
    for (int j = 0; j < c->nact; j++)
        snprintf(r->actuators[j], sizeof r->actuators[j], "%s", c->actuator_names[j]);
    if (test && (code = reference(ctx, test, site ? site : c->name, r)) != HS_EXIT_OK) {
        fprintf(stderr, "hysim pretest: %s\n", hs_ctx_message(ctx));
        goto done;
    }
    if (hs_pretest_site_create(ctx, c, &ps) || (log && hs_pretest_site_log(ctx, ps, log))) {
        fprintf(stderr, "hysim pretest: %s\n", hs_ctx_message(ctx));
        code = HS_EXIT_INPUT;
        goto done;
    }
    const hs_pretest_lab *lab = hs_pretest_site_lab(ps);
    if (!(st[0] > 0.0)) { /* default amplitude: 2 % of the smallest stroke */
        double s = INFINITY;
        for (int j = 0; j < c->nact; j++)
            if (c->actuator[j].stroke > 0.0) s = fmin(s, c->actuator[j].stroke);
        st[0] = isfinite(s) ? 0.02 * s : 0.0;
    }
    if (!(dy[0] > 0.0)) dy[0] = st[0];
    if ((do_st && !(st[0] > 0.0)) || (do_dy && !(dy[0] > 0.0))) {
        fprintf(stderr,
                "hysim pretest: %s has no stroke to choose an amplitude from: give "
                "--stiffness AMPLITUDE and --dynamics STEP\n",
                config);
        code = HS_EXIT_INPUT;
        goto done;
    }
    int rc = 0;
    if (do_noise) rc = hs_pretest_noise_run(ctx, lab, noise_s, &r->noise);
    r->has_noise = do_noise && !rc;
    r->stiffness_params = (hs_pretest_stiffness_params){st[0], st[1], (int)st[2]};
    if (!rc && do_st) rc = hs_pretest_stiffness_run(ctx, lab, &r->stiffness_params, &r->stiffness);
    r->has_stiffness = do_st && !rc;
    r->dynamics_params = (hs_pretest_dynamics_params){dy[0], dy[1], (int)dy[2], 64};
    if (r->dynamics_params.max_delay * 4 > dy[1] * c->rate)
        r->dynamics_params.max_delay = (int)(dy[1] * c->rate / 4.0);
    if (!rc && do_dy) rc = hs_pretest_dynamics_run(ctx, lab, &r->dynamics_params, &r->dynamics);
    r->has_dynamics = do_dy && !rc;
    if (rc) {
        fprintf(stderr, "hysim pretest: %s\n", hs_ctx_message(ctx));
        code = rc == HS_EINPUT ? HS_EXIT_INPUT : HS_EXIT_FAILED;
        goto done;
    }
    if (hs_pretest_write(ctx, r, out)) {
        fprintf(stderr, "hysim pretest: %s\n", hs_ctx_message(ctx));
        code = HS_EXIT_FAILED;
        goto done;
    }
    print_report(r);
    printf("pretest: %s\n", out);
done:
    hs_pretest_site_destroy(&ps);
    hs_site_file_destroy(&file);
    hs_free(r);
    hs_ctx_destroy(&ctx);
    return code;
}
