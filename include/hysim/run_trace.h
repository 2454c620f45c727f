/* A run's trace (docs/outputs.md, "Trace"): the effective test definition after the --set
 * overrides, the overrides, the name, size and SHA-256 of every input (the test file, records,
 * Tcl scripts and what they source, site files; a key file by its fingerprint, never the key),
 * the test file's and scripts' text, the program's version and build, the host, the start and
 * end time, and the warnings of hysim check accepted for the run. The coordinator writes it into
 * summary.json, results.h5 and results.mat (hs_coordinator_set_trace). */
#ifndef HYSIM_RUN_TRACE_H
#define HYSIM_RUN_TRACE_H

#include "hysim/results.h"
#include "hysim/testfile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Hashes and reads the inputs of def now (their identity at the start of the run) and stamps the
 * start time. An input that cannot be read is listed with size -1 (not an error: the loader has
 * read it). HS_ENOMEM only. */
int hs_run_trace_create(hs_ctx *ctx, const hs_test_def *def, hs_run_trace **out);
/* Stamps the end time (call before writing the results). */
void hs_run_trace_end(hs_run_trace *t);
/* Adds one accepted warning of hysim check (a copy). */
int hs_run_trace_accept(hs_run_trace *t, const char *warning);
/* A resumed run: the folder of the checkpoint it went on from (a copy). */
int hs_run_trace_resumed(hs_run_trace *t, const char *dir);
/* "2026-11-28T08:10:00Z" for the time t (UTC) into buf (at least 21 bytes). */
void hs_run_trace_time(long long t, char *buf, size_t cap);
void hs_run_trace_destroy(hs_run_trace **t); /* NULL-safe */

#ifdef __cplusplus
}
#endif
#endif
