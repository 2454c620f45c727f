/* A run's folder (docs/outputs.md, "The run folder"): created, locked for the life of the run,
 * checked for an earlier run's files and probed before the first step, so that a new run never
 * destroys a killed run's checkpoint or a completed run's results by accident, two runs never write
 * one folder at once, and an unwritable or full folder is found before any step is lost. */
#ifndef HYSIM_RUN_FOLDER_H
#define HYSIM_RUN_FOLDER_H

#include "hysim/base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    HS_RUN_FOLDER_NEW = 0, /* a fresh run: refused when the folder holds a run's files */
    HS_RUN_FOLDER_FORCE,   /* a fresh run that replaces them (--force): they are removed */
    HS_RUN_FOLDER_RESUME   /* going on with the run the folder holds (--resume): kept */
} hs_run_folder_mode;

typedef struct hs_run_folder hs_run_folder;

/* The files of a run that a folder may hold (NULL-terminated): checkpoint.bin, its temporary,
 * records.bin, summary.json, response.csv, results.h5. */
extern const char *const hs_run_folder_files[];

/* Opens DIR for a run: creates it and its parents (not for RESUME: it must exist), takes an
 * exclusive flock on the folder itself, held until hs_run_folder_close (or the process ends;
 * HS_EINPUT "in use by another hysim run" when another process holds it), refuses (HS_EINPUT) in
 * mode NEW a folder holding any file of hs_run_folder_files and removes them in mode FORCE, then
 * probes it: a file is created, written, fsync'd and removed, and the file system must have
 * `need_bytes` free (0: not checked). Messages name the folder and say what to do. */
int hs_run_folder_open(hs_ctx *ctx, const char *dir, hs_run_folder_mode mode, uint64_t need_bytes,
                       hs_run_folder **out);
void hs_run_folder_close(hs_run_folder **f); /* NULL-safe: releases the lock */

#ifdef __cplusplus
}
#endif
#endif
