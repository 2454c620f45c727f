/* The hysim program's subcommands; each returns the process exit code. */
#ifndef HS_CLI_H
#define HS_CLI_H

#include "hysim/hysim.h"

enum { HS_EXIT_OK = 0, HS_EXIT_FAILED = 1, HS_EXIT_INPUT = 2, HS_EXIT_ABORTED = 3 };

/* `--help` or `-h` (every subcommand prints its usage on stdout and exits 0). */
int hs_cli_is_help(const char *arg);

/* `--set KEY=VALUE` options of run, check and modes (at most HS_CLI_MAX_SETS). */
#define HS_CLI_MAX_SETS 64
typedef struct hs_cli_sets {
    const char *set[HS_CLI_MAX_SETS];
    size_t n;
} hs_cli_sets;
/* When argv[*i] is --set, takes its argument into sets and returns 1 (*i advanced); returns -1
 * after printing an error when it has no argument or there are too many; 0 for another word. */
int hs_cli_take_set(int argc, char **argv, int *i, const char *cmd, hs_cli_sets *sets);

int hs_cli_run(int argc, char **argv);
/* run_script.c: a test file whose script runs its own analysis. */
struct hs_test_def;
struct hs_ctx;
int hs_cli_run_script(struct hs_ctx *ctx, const struct hs_test_def *def, const char *dir, int force,
                      int quiet);
int hs_cli_check(int argc, char **argv);
int hs_cli_modes(int argc, char **argv);
int hs_cli_plot(int argc, char **argv);
int hs_cli_site(int argc, char **argv);
int hs_cli_keygen(int argc, char **argv);
int hs_cli_plant(int argc, char **argv);
int hs_cli_report(int argc, char **argv);
int hs_cli_pretest(int argc, char **argv);
/* hysim run with a remote site (run_precheck.c): HS_EXIT_INPUT after printing `hysim check`'s
 * warnings and the refusal when there is a warning and accept is 0; HS_EXIT_OK otherwise, the
 * warnings accepted printed (unless quiet) and added to the trace (when not NULL). */
struct hs_run_trace;
int hs_cli_run_precheck(const hs_test_def *def, const char *file, int accept, int quiet,
                        struct hs_run_trace *trace);
/* hysim run --rehearse (run_rehearse.c): the sites become their virtual twins, and the limits
 * reached are printed after the run. */
struct hs_coordinator;
int hs_cli_rehearse_prepare(hs_ctx *ctx, hs_test_def *def, int quiet);
void hs_cli_rehearse_print(const struct hs_coordinator *c, const hs_test_def *def);
/* run_signals.c: SIGINT, SIGTERM, SIGHUP stop `hysim run` after the step in progress, every step
 * kept (the check, after each step, asks the coordinator to stop once a signal came). */
void hs_cli_run_signals_install(void);
void hs_cli_run_signals_check(struct hs_coordinator *c);

#endif
