/* hysim run FILE [-o DIR] [--force] [--quiet] [--set KEY=VALUE ...] [--monitor [HOST:]PORT];
 * hysim run [FILE] --resume DIR (docs/checkpoints.md). The run folder is locked for the life of
 * the run, a folder holding an earlier run is refused unless --force (or --resume) is given, and
 * it is probed before the first step (hysim/run_folder.h, docs/outputs.md).
 *
 * Test hooks (not part of the library): when the environment variable HS_TEST_KILL_AT_STEP=k is
 * set, the program ends itself with _exit(137) right after committing step k (after that step's
 * checkpoint, when one is due), as `kill -9` would at that instant; tests/cli/resume.sh uses it
 * to interrupt a run at a chosen step. HS_TEST_KILL_AT=POINT:k does the same at a named point of
 * step k (hs_coord_point): `targets` (the targets of step k sent, none measured), `checkpoint`
 * (step k durable, COMMIT not sent) or `commit`; tests/cli/distributed_resume.sh uses it. */
#include "cli.h"
#include "cli_monitor.h"

#include "hysim/checkpoint.h"
#include "hysim/coordinator.h"
#include "hysim/results.h"
#include "hysim/run_folder.h"
#include "hysim/run_trace.h"
#include "hysim/site.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void hs_cli_bar(int64_t step, int64_t steps)
{
    const int width = 40;
    const int filled = steps > 0 ? (int)((double)width * (double)step / (double)steps) : width;
    fprintf(stderr, "\r[%.*s%*s] %3d%% step %lld/%lld", filled,
            "########################################", width - filled, "",
            steps > 0 ? (int)(100.0 * (double)step / (double)steps) : 100, (long long)step,
            (long long)steps);
    if (step >= steps) fputc('\n', stderr);
    fflush(stderr);
}

typedef struct hs_cli_progress_state {
    int bar;                 /* draw the progress bar */
    int64_t bar_every;       /* steps between redraws */
    int64_t kill_at;         /* test hook: _exit(137) after this step (0: never) */
    hs_cli_monitor *monitor; /* --monitor: the live page (NULL: none) */
    hs_coordinator *c;       /* a signal stops it after the step (run_signals.c) */
} hs_cli_progress_state;

static void hs_cli_progress(void *user, int64_t step, int64_t steps)
{
    const hs_cli_progress_state *p = user;
    if (p->bar && (step % p->bar_every == 0 || step == steps)) hs_cli_bar(step, steps);
    if (p->kill_at > 0 && step == p->kill_at) _exit(137);
    if (p->monitor) hs_cli_monitor_run_step(p->monitor);
    hs_cli_run_signals_check(p->c);
}

/* HS_TEST_KILL_AT=POINT:k (see the top) */
typedef struct hs_cli_kill_at {
    hs_coord_point at;
    int64_t step;
} hs_cli_kill_at;

static void hs_cli_kill_point(void *user, hs_coord_point at, int64_t step)
{
    const hs_cli_kill_at *k = user;
    if (at == k->at && step == k->step) _exit(137);
}

static int hs_cli_kill_at_parse(const char *v, hs_cli_kill_at *k)
{
    static const char *const names[] = {"targets", "checkpoint", "commit"};
    const char *colon = v ? strchr(v, ':') : NULL;
    if (!colon) return 0;
    for (int i = 0; i < 3; i++)
        if ((size_t)(colon - v) == strlen(names[i]) &&
            strncmp(v, names[i], strlen(names[i])) == 0) {
            k->at = (hs_coord_point)i;
            k->step = atoll(colon + 1);
            return k->step > 0;
        }
    return 0;
}

/* The checkpoint to resume: its test file (when none was given) and the file's hash. */
static int hs_cli_resume_info(hs_ctx *ctx, const char *dir, const char **file,
                              hs_checkpoint_info *info)
{
    if (hs_checkpoint_read_info(ctx, dir, info)) {
        fprintf(stderr, "hysim run --resume: %s\n", hs_ctx_message(ctx));
        return HS_EXIT_INPUT;
    }
    if (!*file) {
        if (!info->test_path[0]) {
            fprintf(stderr, "hysim run --resume: %s/%s names no test file: give it\n", dir,
                    HS_CHECKPOINT_FILE);
            return HS_EXIT_INPUT;
        }
        *file = info->test_path;
    }
    return HS_EXIT_OK;
}

/* Mosqueda et al.'s (2004) Table 1 row and Chen and Ricles' (2010) tracking figures for each site.
 */
static void hs_cli_print_sites(const hs_coordinator *c, const hs_test_def *def)
{
    if (def->nsites == 0) return;
    printf("%-10s %7s %14s %14s %8s %8s   tracking per actuator: MTE, RMS %%, max TI\n", "site",
           "steps", "max delay (s)", "run time (s)", "% slow", "% hold");
    for (int s = 0; s < def->nsites; s++) {
        hs_site_summary ss;
        if (hs_site_summary_get(hs_coordinator_site(c, s), &ss)) continue;
        printf("%-10s %7lld %14.3f %14.1f %8.2f %8.2f  ", def->sites[s].name, (long long)ss.steps,
               ss.max_delay, ss.total_time, ss.pct_slow, ss.pct_hold);
        for (int j = 0; j < ss.nact; j++)
            printf(" %s: %.3g, %.3g, %.3g", def->sites[s].actuator_names[j], ss.mte[j], ss.rms[j],
                   ss.ti_peak[j]);
        printf("%s\n", ss.ended ? "  (ended on the site's side)" : "");
    }
}

static const char *const run_usage =
    "usage: hysim run FILE [-o DIR] [--force] [--quiet] [--rehearse] [--set KEY=VALUE ...]\n"
    "                 [--monitor [HOST:]PORT] [--accept-warnings]\n"
    "       hysim run [FILE] --resume DIR [--quiet] [--accept-warnings]\n"
    "  runs a test definition; results go to DIR (default output.dir, else runs/NAME).\n"
    "  --set KEY=VALUE  changes one scalar of the file (dotted path, list items as KEY[i]):\n"
    "                   --set analysis.dt=0.005, --set ground_motion.file=PATH (relative to\n"
    "                   the working folder; replaces a synthetic record); checked like the file\n"
    "  --resume DIR     goes on after the last checkpoint in DIR (docs/checkpoints.md)\n"
    "  --force          replaces an earlier run in DIR (without it such a folder is refused)\n"
    "  --rehearse       runs the test on the sites' virtual twins (a remote site's `twin:`\n"
    "                   site file, updated by its `pretest:` results) and reports how close\n"
    "                   each actuator came to its limits (docs/pretest.md)\n"
    "  --accept-warnings  runs a test with a remote site although `hysim check` warns about it\n"
    "                   (without it such a test is refused before any command is sent)\n"
    "  --quiet          prints nothing but errors\n"
    "  --monitor [HOST:]PORT  serves a live page of the test (pause, resume, abort with the\n"
    "                   token printed here; loopback unless HOST is given; docs/monitor.md)\n"
    "exit codes: 0 completed, 1 unstable (or failed), 2 bad input, 3 aborted\n";

int hs_cli_run(int argc, char **argv)
{
    const char *file = NULL, *dir = NULL, *resume = NULL, *monitor = NULL;
    int quiet = 0, force = 0, rehearse = 0, accept_warnings = 0;
    hs_cli_sets sets = {.n = 0};
    for (int i = 1; i < argc; i++) {
        const int took = hs_cli_take_set(argc, argv, &i, "run", &sets);
        if (took < 0) return HS_EXIT_INPUT;
        if (took) continue;
        if (hs_cli_is_help(argv[i])) {
            fputs(run_usage, stdout);
            return HS_EXIT_OK;
        }
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "--resume") == 0 && i + 1 < argc)
            resume = argv[++i];
        else if (strcmp(argv[i], "--monitor") == 0 && i + 1 < argc)
            monitor = argv[++i];
        else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0)
            quiet = 1;
        else if (strcmp(argv[i], "--force") == 0)
            force = 1;
        else if (strcmp(argv[i], "--rehearse") == 0)
            rehearse = 1;
        else if (strcmp(argv[i], "--accept-warnings") == 0)
            accept_warnings = 1;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "hysim run: unknown option '%s'\n", argv[i]);
            return HS_EXIT_INPUT;
        } else if (!file)
            file = argv[i];
        else {
            fprintf(stderr, "hysim run: one test file at a time ('%s')\n", argv[i]);
            return HS_EXIT_INPUT;
        }
    }
    if (!file && !resume) {
        fputs(run_usage, stderr);
        return HS_EXIT_INPUT;
    }
    if (resume && sets.n) {
        fprintf(stderr, "hysim run: --set cannot be combined with --resume (the checkpoint holds "
                        "the test file's hash, not the overrides): resume without --set\n");
        return HS_EXIT_INPUT;
    }
    if (resume && dir) {
        fprintf(stderr, "hysim run: a resumed run goes on in its own folder (%s): drop -o\n",
                resume);
        return HS_EXIT_INPUT;
    }
    if (resume && rehearse) {
        fprintf(stderr, "hysim run: a rehearsal is not resumed: run it anew without --resume\n");
        return HS_EXIT_INPUT;
    }
    if (resume && force) {
        fprintf(stderr, "hysim run: --force starts a run anew and --resume goes on with one: give "
                        "one of them\n");
        return HS_EXIT_INPUT;
    }
    hs_ctx *ctx = NULL;
    if (hs_ctx_create(&ctx)) return HS_EXIT_FAILED;
    /* HDF5 and matio for results.h5 and results.mat, loaded on another thread while the test file
     * is read, the model built and the steps run (src/results/results_libs.c) */
    hs_results_libs_preload();
    hs_test_def *def = NULL;
    hs_coordinator *c = NULL;
    hs_run_folder *folder = NULL;
    hs_results *reference = NULL; /* analysis.reference: the reference run read back */
    hs_run_trace *trace = NULL;   /* what the run is made from and by */
    int code = HS_EXIT_OK;
    hs_checkpoint_info info;
    uint8_t hash[HS_CHECKPOINT_HASH_BYTES];
    /* a resumed run's folder is locked before its checkpoint is read */
    if (resume && hs_run_folder_open(ctx, resume, HS_RUN_FOLDER_RESUME, 0, &folder)) {
        fprintf(stderr, "hysim run --resume: %s\n", hs_ctx_message(ctx));
        code = HS_EXIT_INPUT;
        goto done;
    }
    if (resume && (code = hs_cli_resume_info(ctx, resume, &file, &info)) != HS_EXIT_OK) goto done;
    if (hs_testfile_load_set(ctx, file, sets.set, sets.n, &def)) {
        fprintf(stderr, "%s\n", hs_ctx_message(ctx));
        code = HS_EXIT_INPUT;
        goto done;
    }
    if (!dir) dir = resume ? resume : def->output_dir;
    if (def->script_analysis[0]) { /* the script's own analysis (docs/opensees_tcl.md) */
        code = resume || rehearse ? HS_EXIT_INPUT : hs_cli_run_script(ctx, def, dir, force, quiet);
        if (resume || rehearse)
            fprintf(stderr,
                    "hysim run: %s: a script that runs its own analysis is neither resumed "
                    "nor rehearsed (give the test file an analysis section)\n",
                    file);
        goto done;
    }
    if (rehearse && (code = hs_cli_rehearse_prepare(ctx, def, quiet)) != HS_EXIT_OK) goto done;
    /* its inputs' identity now, before anything moves (docs/outputs.md, "Trace") */
    if (hs_run_trace_create(ctx, def, &trace) || (resume && hs_run_trace_resumed(trace, resume))) {
        fprintf(stderr, "hysim run: out of memory\n");
        code = HS_EXIT_FAILED;
        goto done;
    }
    /* a test with a remote site runs only without warnings, or with them accepted */
    if ((code = hs_cli_run_precheck(def, file, accept_warnings, quiet, trace)) != HS_EXIT_OK)
        goto done;
    /* a fresh run's folder: locked, refused when it holds a run (unless --force), probed, and
     * with room for records.bin and results.h5 */
    const uint64_t need = hs_test_def_record_bytes(def) * (def->checkpoint_every > 0 ? 2u : 1u);
    if (!resume && hs_run_folder_open(ctx, dir, force ? HS_RUN_FOLDER_FORCE : HS_RUN_FOLDER_NEW,
                                      need, &folder)) {
        fprintf(stderr, "hysim run: %s\n", hs_ctx_message(ctx));
        code = HS_EXIT_INPUT;
        goto done;
    }
    if (hs_coordinator_create(ctx, def, &c)) {
        fprintf(stderr, "%s: %s\n", file, hs_ctx_message(ctx));
        code = HS_EXIT_INPUT;
        goto done;
    }
    if (def->reference_run[0]) { /* J1-J9 against it in summary.json (docs/rths_benchmark.md) */
        if (hs_results_read_reference(ctx, def->reference_run, hs_model_ndof(def->model), def->dt,
                                      def->steps + 1, &reference)) {
            fprintf(stderr, "%s: analysis.reference: %s\n", file, hs_ctx_message(ctx));
            code = HS_EXIT_INPUT;
            goto done;
        }
        hs_coordinator_set_reference(c, reference);
    }
    hs_coordinator_set_trace(c, trace);
    if ((resume || def->checkpoint_every > 0) && hs_checkpoint_hash_test(ctx, file, def, hash)) {
        fprintf(stderr, "%s\n", hs_ctx_message(ctx));
        code = HS_EXIT_INPUT;
        goto done;
    }
    if (resume && hs_coordinator_resume(c, resume, hash)) {
        fprintf(stderr, "hysim run --resume %s: %s\n", resume, hs_ctx_message(ctx));
        code = HS_EXIT_INPUT;
        goto done;
    }
    if (resume && !quiet)
        printf("%s: resumed from %s/%s after step %lld of %lld\n", def->name, resume,
               HS_CHECKPOINT_FILE, (long long)hs_coordinator_steps_done(c), (long long)def->steps);
    char cwd[PATH_MAX], abs_path[2 * PATH_MAX + 2];
    if (file[0] != '/' && getcwd(cwd, sizeof cwd))
        snprintf(abs_path, sizeof abs_path, "%s/%s", cwd, file);
    else
        snprintf(abs_path, sizeof abs_path, "%s", file);
    if (def->checkpoint_every > 0 &&
        hs_coordinator_set_checkpoints(c, dir, def->checkpoint_every, hash, abs_path)) {
        fprintf(stderr, "hysim: checkpoints: %s\n", hs_ctx_message(ctx));
        code = HS_EXIT_FAILED;
        goto done;
    }
    const char *kill_at = getenv("HS_TEST_KILL_AT_STEP"); /* test hook, see the top */
    hs_cli_progress_state progress = {.bar = !quiet && isatty(fileno(stderr)),
                                      .bar_every = def->steps >= 100 ? def->steps / 100 : 1,
                                      .kill_at = kill_at ? atoll(kill_at) : 0,
                                      .c = c};
    if (monitor && hs_cli_monitor_run_start(ctx, monitor, def, c, &progress.monitor)) {
        fprintf(stderr, "hysim run: %s\n", hs_ctx_message(ctx));
        code = HS_EXIT_INPUT;
        goto done;
    }
    hs_coordinator_set_progress(c, hs_cli_progress, &progress, 1); /* also for signals */
    hs_cli_run_signals_install();
    hs_cli_kill_at kill_point;
    if (hs_cli_kill_at_parse(getenv("HS_TEST_KILL_AT"), &kill_point))
        hs_coordinator_set_point_hook(c, hs_cli_kill_point, &kill_point);
    if (hs_coordinator_set_output(c, dir)) { /* response.csv formatted as the run goes */
        fprintf(stderr, "hysim: %s\n", hs_ctx_message(ctx));
        code = HS_EXIT_FAILED;
        goto done;
    }
    int rc = hs_coordinator_run(c);
    hs_cli_monitor_end(&progress.monitor, hs_run_status_name(hs_coordinator_status(c)),
                       hs_coordinator_reason(c));
    if (rc) {
        fprintf(stderr, "hysim: %s after %lld of %lld steps: %s\n",
                hs_run_status_name(hs_coordinator_status(c)),
                (long long)hs_coordinator_steps_done(c), (long long)def->steps,
                hs_coordinator_reason(c));
        code = hs_coordinator_status(c) == HS_RUN_ABORTED ? HS_EXIT_ABORTED : HS_EXIT_FAILED;
    }
    hs_run_trace_end(trace);
    if (hs_coordinator_write(c, dir)) {
        fprintf(stderr, "hysim: cannot write results: %s\n", hs_ctx_message(ctx));
        code = HS_EXIT_FAILED;
        goto done;
    }
    if (!quiet) {
        const hs_energy *e = hs_coordinator_energy(c);
        printf("%s: %s, %lld steps of %g %s with %s in %.3f s\n", def->name,
               hs_run_status_name(hs_coordinator_status(c)),
               (long long)hs_coordinator_steps_done(c), def->dt, def->units_time, def->integrator,
               hs_coordinator_wall_time(c));
        printf(
            "energy: input %.6g, kinetic %.6g, damping %.6g, strain %.6g (%s*%s), error %.3g %%\n",
            e->input, e->kinetic, e->damping, e->strain, def->units_force, def->units_length,
            100.0 * e->error_rel);
        hs_cli_print_sites(c, def);
        if (rehearse) hs_cli_rehearse_print(c, def);
        printf("results: %s/summary.json, %s/response.csv, %s/results.h5%s%s%s\n", dir, dir, dir,
               def->output_mat ? ", " : "", def->output_mat ? dir : "",
               def->output_mat ? "/results.mat" : "");
    }
done:
    hs_coordinator_destroy(&c);
    hs_results_destroy(&reference); /* lent to the coordinator */
    hs_run_trace_destroy(&trace);   /* lent too */
    hs_run_folder_close(&folder);
    hs_test_def_destroy(&def);
    hs_ctx_destroy(&ctx);
    return code;
}
