/* hysim coordinator: runs one test: model + integrator (+ sites, in later issues) + recorders;
 * owns the step loop, the energy balance and the final status. */
#ifndef HYSIM_COORDINATOR_H
#define HYSIM_COORDINATOR_H

#include "hysim/base.h"
#include "hysim/energy.h"
#include "hysim/experiment.h"
#include "hysim/testfile.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { HS_RUN_COMPLETED = 0, HS_RUN_UNSTABLE, HS_RUN_ABORTED } hs_run_status;
const char *hs_run_status_name(hs_run_status s); /* "completed" | "unstable" | "aborted" */

typedef struct hs_coordinator hs_coordinator;
struct hs_results;

/* Progress: called every `every` steps from the loop (the callback may print; the library not). */
typedef void (*hs_progress_fn)(void *user, int64_t step, int64_t steps);

/* Builds the run from a loaded definition (lent: it must outlive the coordinator). Allocates
 * everything the loop needs: the loop itself allocates nothing. */
int hs_coordinator_create(hs_ctx *ctx, hs_test_def *def, hs_coordinator **out);
/* Why `integrator` cannot run a multi-support excitation (docs/fe_model.md), or NULL when it can:
 * `exact` superposes the modes of K0 and never sees the supports' displacement; `kr_alpha`
 * evaluates the restoring force at t(n + alpha_f), where the supports are not placed. */
const char *hs_coordinator_multi_support_refusal(const char *integrator);
void hs_coordinator_destroy(hs_coordinator **c);
/* Records the results at all (default on); off for benchmarks. */
void hs_coordinator_set_recording(hs_coordinator *c, int on);
void hs_coordinator_set_progress(hs_coordinator *c, hs_progress_fn fn, void *user, int64_t every);
/* Named points of a step, for tests that interrupt a run at an exact instant (`hysim run`'s
 * HS_TEST_KILL_AT, docs/checkpoints.md): TARGETS once the targets of step `step` have gone to
 * every site (none measured yet); CHECKPOINT once step `step` is corrected, recorded and its
 * checkpoint (when due) is durable, before COMMIT goes to the sites; COMMIT once the sites have
 * been told. */
typedef enum { HS_COORD_AT_TARGETS = 0, HS_COORD_AT_CHECKPOINT, HS_COORD_AT_COMMIT } hs_coord_point;
typedef void (*hs_coord_point_fn)(void *user, hs_coord_point at, int64_t step);
void hs_coordinator_set_point_hook(hs_coordinator *c, hs_coord_point_fn fn, void *user);
/* Runs every step. Returns 0 when completed; otherwise the status says why it stopped (the
 * message in ctx names the step and DOF) and every step recorded up to then is kept. */
int hs_coordinator_run(hs_coordinator *c);
/* Runs steps [current, current + k); for tests of the allocation-free loop. */
int hs_coordinator_advance(hs_coordinator *c, int64_t k);

hs_run_status hs_coordinator_status(const hs_coordinator *c);
const char *hs_coordinator_reason(const hs_coordinator *c); /* "" when completed */
int64_t hs_coordinator_steps_done(const hs_coordinator *c);
const hs_energy *hs_coordinator_energy(const hs_coordinator *c);
/* ndof periods (s), ascending index; a model above HS_DENSE_MAX_DOFS: its lowest 20 (ARPACK),
 * the rest NaN. */
const double *hs_coordinator_periods(const hs_coordinator *c);
struct hs_results *
hs_coordinator_results(const hs_coordinator *c); /* lent; NULL if not recording */
const double *hs_coordinator_displacement(const hs_coordinator *c);
double hs_coordinator_wall_time(const hs_coordinator *c);
/* Statistics of the experimental substructures (summary.json's `hybrid` block). */
typedef struct hs_hybrid_stats {
    int64_t steps, implicit_steps, fallback_steps, stiffness_updates;
    double implicit_percent, stiffness_update_percent, iterations_mean;
    int iterations_max;
    double experimental_work;
} hs_hybrid_stats;
/* HS_EINVAL when the test has no experimental substructure. */
int hs_coordinator_hybrid_stats(const hs_coordinator *c, hs_hybrid_stats *out);

/* The experimental substructures in actuator coordinates as the integrator saw them in the
 * last step (command, measurement, layout; lent), or NULL when the test has none. */
const hs_experiment *hs_coordinator_experiment(const hs_coordinator *c);

/* The i-th site of the test (lent), NULL when out of range. */
struct hs_site;
struct hs_site *hs_coordinator_site(const hs_coordinator *c, int i);

/* The step just committed, for a live view (docs/monitor.md): every pointer is lent and valid
 * until the next step; the actuator and site members are 0/NULL without experimental
 * substructures. Never allocates. */
typedef struct hs_step_view {
    int64_t step, steps; /* steps done, steps of the test */
    double t;            /* simulation time of the step */
    int ndof;
    const double *d; /* ndof: displacement relative to the ground */
    int nact;
    const double *x_cmd, *x_meas, *f_meas; /* nact: command, measurement, measured force */
    const int *act_site;                   /* nact: the site of each stacked actuator */
    const int *act_channel;                /* nact: its channel at that site */
    int nsites;
    const int *site_states;   /* nsites: bits (1 << hs_cmdgen_state) visited in the step */
    const double *site_delay; /* nsites: D_target -> D_update delay (s) */
    const hs_energy *energy;
} hs_step_view;
void hs_coordinator_step_view(const hs_coordinator *c, hs_step_view *out);
/* The model's name of DOF i ("n3_ux", "floor2", "d3"; the results' names) into buf. */
const char *hs_coordinator_dof_name(const hs_coordinator *c, int i, char *buf, size_t cap);
/* Asks the loop to stop before its next step (thread-safe: an operator's abort from another
 * thread): the run ends `aborted` with `reason`, every committed step kept. */
void hs_coordinator_request_stop(hs_coordinator *c, const char *reason);
/* Between steps while the loop is held (an operator's pause): keeps every site's connection
 * alive (hs_site_idle). Call it from the loop's thread, a few times a second. */
void hs_coordinator_idle(hs_coordinator *c);
/* How site `site` holds while the loop is held (hs_site_hold: HS_SITE_HOLD_* and, in *left, the
 * wall s its hold would last if no keep-alive reached it from now). Loop's thread only. */
int hs_coordinator_site_hold(const hs_coordinator *c, int site, double *left);
/* Checkpoints (docs/checkpoints.md). Every `every` committed steps (0: off) the loop writes
 * dir/checkpoint.bin atomically (temporary file, fsync, rename) with the whole state, after
 * appending the records since the previous checkpoint to dir/records.bin. `hash` is the test
 * file's content hash (hs_checkpoint_hash_file, hysim/checkpoint.h) and `test_path` its path, both
 * stored for `hysim run --resume DIR`. Allocates and opens everything here: writing a checkpoint
 * allocates nothing. On a fresh coordinator it starts both files anew; after
 * hs_coordinator_resume (call that first) it keeps the records it reloaded. With `every` equal to
 * the test file's default `checkpoint_every`, checkpoints are also spaced by the file's
 * `checkpoint_spacing_s` of wall time; any other `every` is kept exactly. */
int hs_coordinator_set_checkpoints(hs_coordinator *c, const char *dir, int64_t every,
                                   const uint8_t hash[32], const char *test_path);
/* Writes a checkpoint now (between steps). */
int hs_coordinator_checkpoint(hs_coordinator *c);
/* Restores a coordinator just created from the same definition to the state in dir/checkpoint.bin
 * (its hash must equal `hash` unless hash is NULL; steps and sizes must agree), reloads the
 * records from dir/records.bin, then resumes every site (hs_site_resume: the site must hold the
 * last committed target). hs_coordinator_run then continues to the end. */
int hs_coordinator_resume(hs_coordinator *c, const char *dir, const uint8_t hash[32]);

/* Writes summary.json, response.csv and results.h5 (and results.mat when the definition asks for
 * it) into dir (created if missing). */
int hs_coordinator_write(hs_coordinator *c, const char *dir);
/* A reference run of the same structure (lent; NULL: none, the default). With it, a hybrid run's
 * summary.json carries "rths_criteria", the RTHS benchmark's J1-J9 (Silva et al. 2020) of the
 * first actuator and the first three DOFs against the reference (docs/rths_benchmark.md). */
void hs_coordinator_set_reference(hs_coordinator *c, const struct hs_results *ref);
/* What the run was made from and by (lent; NULL: none, the default): summary.json, results.h5
 * and results.mat then carry it (hysim/run_trace.h, docs/outputs.md "Trace"). */
struct hs_run_trace;
void hs_coordinator_set_trace(hs_coordinator *c, const struct hs_run_trace *trace);
/* Names the folder hs_coordinator_write will be given, before the run (after a resume): a second
 * thread then formats response.csv into dir/response.csv.part while the run goes on, and
 * hs_coordinator_write finishes and renames it (docs/outputs.md). Optional; a run written
 * elsewhere, or never, removes the .part file. Creates dir. */
int hs_coordinator_set_output(hs_coordinator *c, const char *dir);

#ifdef __cplusplus
}
#endif
#endif
