/* `hysim run` of a test file whose OpenSees script runs its own analysis (no analysis section;
 * docs/opensees_tcl.md): the run's folder (locked, refused when it holds a run unless --force),
 * the script, its recorders' files in the folder. */
#include "cli.h"

#include "hysim/run_folder.h"
#include "hysim/testfile.h"

#include <stdio.h>
#include <time.h>

int hs_cli_run_script(hs_ctx *ctx, const hs_test_def *def, const char *dir, int force, int quiet)
{
    hs_run_folder *folder = NULL;
    if (hs_run_folder_open(ctx, dir, force ? HS_RUN_FOLDER_FORCE : HS_RUN_FOLDER_NEW, 0, &folder)) {
        fprintf(stderr, "hysim run: %s\n", hs_ctx_message(ctx));
        return HS_EXIT_INPUT;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const int rc = hs_testfile_run_script(ctx, def, dir);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    hs_run_folder_close(&folder);
    if (rc) {
        fprintf(stderr, "%s: %s\n", def->path, hs_ctx_message(ctx));
        return rc == HS_EINPUT ? HS_EXIT_INPUT : HS_EXIT_FAILED;
    }
    if (!quiet)
        printf("%s: the script %s ran its own analysis in %.3f s; its recorders wrote in %s\n",
               def->name, def->script_analysis,
               (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec), dir);
    return HS_EXIT_OK;
}
