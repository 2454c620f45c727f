/* hysim results: the store that the coordinator fills one record per committed step (the first
 * at t = 0), and its writers: response.csv, results.h5 (HDF5) and summary.json.
 * The store is preallocated for `capacity` records; recording never allocates, so the step loop
 * stays allocation-free. A run that stops early (unstable, aborted) keeps every recorded step and
 * the writers write exactly the records that exist. Files are written atomically (a temporary
 * name in the same directory, then rename). See docs/outputs.md for the file formats. */
#ifndef HYSIM_RESULTS_H
#define HYSIM_RESULTS_H

#include "hysim/base.h"
#include "hysim/energy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One recorder of the frame model (include/hysim/recorders.h) as the store keeps it: `ncols`
 * columns with their names and units; `response` says what they are ("disp", "force", ...);
 * `nodes` (nnodes ids: one per column for node recorders, i and j for a drift; 0 for none),
 * `elements` (one name per column, or NULL) and `components` (the DOF or component of each
 * column, "ux", "M_i"; or NULL) say where each column comes from. */
typedef struct hs_results_recorder {
    const char *name, *response;
    int ncols;
    const char *const *columns, *const *units;
    int nnodes;
    const int *nodes;
    const char *const *elements, *const *components;
} hs_results_recorder;

typedef struct hs_results_layout {
    int ndof, nsprings, ngroups;
    /* ndof: the DOFs' names, the columns of response.csv and the `names` of /displacement,
     * /velocity, /acceleration (hs_model_dof_name: "n3_ux", "floor2"); NULL: "d1", ... */
    const char *const *dof_names;
    const char *const *spring_names; /* nsprings */
    const char *const *group_names;  /* ngroups (at most HS_ENERGY_MAX_GROUPS) */
    int64_t capacity;                /* max records (steps + 1); preallocated */
    const char *units_force, *units_length, *units_time; /* as stated by the test; NULL = "" */
    /* Optional actuator block (hybrid runs): nact actuators of the experimental substructures,
     * stacked over every element of every site; 0 for none. Names (e.g. "site.actuator") may be
     * NULL ("actuator1", ...). */
    int nact;
    const char *const *actuator_names;
    /* Optional site block (hybrid runs with site controllers): nsites sites (0 for none) with
     * their names (NULL: "site1", ...) and, per site, the command generator's TimeOut limits in
     * seconds after a D_target: slow_after (extrapolate -> slow) and hold_after (slow -> hold);
     * either array may be NULL, an entry NaN, when unknown. */
    int nsites;
    const char *const *site_names;
    const double *site_slow_after, *site_hold_after;
    /* Optional recorder block: nrecorders recorders (0 for none), their columns side by side in
     * each record, NaN until recorded (src/results/results_recorders.c). */
    int nrecorders;
    const hs_results_recorder *recorders;
} hs_results_layout;

typedef struct hs_results hs_results;

/* Copies the layout (names and units included). ctx (may be NULL) receives error messages of
 * every later call on the store. */
int hs_results_create(hs_ctx *ctx, const hs_results_layout *layout, hs_results **out);
void hs_results_destroy(hs_results **r); /* NULL-safe, sets *r = NULL */

/* One record per committed step (the first at t = 0). d, v, a: ndof values (relative to the
 * ground); spring_def, spring_force: nsprings values (may be NULL when nsprings == 0; NULL
 * otherwise records NaN); energy may be NULL (NaN recorded), else its first ngroups group
 * values are recorded. ag: ground acceleration (length/time^2). Never allocates; HS_EINVAL when
 * full. */
int hs_results_record(hs_results *r, double t, double ag, const double *d, const double *v,
                      const double *a, const double *spring_def, const double *spring_force,
                      const hs_energy *energy);
int64_t hs_results_count(const hs_results *r);
/* The actuators of the last record (call after hs_results_record for the same step): commanded
 * and measured displacement and measured force (nact values each, in actuator coordinates), and
 * Kl, the integrator's estimated experimental tangent (nact x nact, column-major) or NULL when
 * it has none (NaN recorded). Records without this call hold NaN. Never allocates; HS_EINVAL
 * without an actuator block or a record. */
int hs_results_record_actuators(hs_results *r, const double *x_cmd, const double *x_meas,
                                const double *f_meas, const double *Kl);
int hs_results_actuator_count(const hs_results *r); /* nact of the layout (0: no block) */
/* The site controllers of the last record (call after hs_results_record for the same step):
 * states (nsites: bit (1 << hs_cmdgen_state) of every state the site's command generator visited
 * in the step) and delay (nsites: seconds on the test's clock from the previous D_target to this
 * step's D_update), and per stacked actuator (nact values, the actuator block's order) the
 * tracking error te (command - measured) and the tracking indicator ti (Chen & Ricles 2010, eq. 3).
 * Any pointer may be NULL (states 0, NaN recorded); so may te and ti when nact == 0. Records
 * without this call hold 0 and NaN. Never allocates; HS_EINVAL without a site block or a record. */
int hs_results_record_sites(hs_results *r, const int *states, const double *delay, const double *te,
                            const double *ti);
int hs_results_site_count(const hs_results *r); /* nsites of the layout (0: no block) */

/* The recorders of the last record (call after hs_results_record for the same step): the
 * recorders' values side by side (hs_results_recorder_width). Never allocates; HS_EINVAL without
 * a recorder block or a record. */
int hs_results_record_recorders(hs_results *r, const double *values);
int hs_results_recorder_count(const hs_results *r);
size_t hs_results_recorder_width(const hs_results *r); /* columns of all recorders */
/* Recorder j's values at record k (its columns), NULL when out of range. */
const double *hs_results_series_recorder(const hs_results *r, int j, int64_t k);
/* DIR/recorders/NAME.csv for every recorder: header t and the column names, one row per record,
 * 17 significant digits as response.csv. Nothing without a recorder block. */
int hs_results_write_recorders_csv(const hs_results *r, const char *dir);

/* Records as rows, for checkpoints (src/results/results_records.c): a row holds every series of one
 * record (t, ag, d, v, a, spring deformations and forces, the six energies, group energies, and
 * the actuator block's command, measurement, force and tangent, and the site block's delays,
 * tracking errors and indicators and state bits, and the recorders, when there are), `width`
 * doubles. pack copies record k (0 <= k < count) into row; append adds a row as the next record
 * (HS_EINVAL when full); truncate keeps the first `count` records. Never allocate. */
size_t hs_results_record_width(const hs_results *r);
/* The same width for a layout, before any store exists (what a run will keep: `hysim check`). */
size_t hs_results_layout_width(const hs_results_layout *layout);
int hs_results_record_pack(const hs_results *r, int64_t k, double *row);
int hs_results_record_append(hs_results *r, const double *row);
int hs_results_truncate(hs_results *r, int64_t count);

/* Accessors for tests and the summary: */
const double *hs_results_series_d(const hs_results *r, int64_t k); /* ndof values of record k */
double hs_results_peak_abs_disp(const hs_results *r, int dof); /* max over records; 0-based dof */
/* Record k's actuator commands and measurements (nact values each); NULL without an actuator
 * block or out of range. */
const double *hs_results_series_act_cmd(const hs_results *r, int64_t k);
const double *hs_results_series_act_meas(const hs_results *r, int64_t k);

/* A reference run's displacements from DIR/response.csv (docs/outputs.md): ndof DOFs, record k at
 * t = k dt (within 1e-6 dt), at most max_records records; v and a are not in the file (recorded
 * 0). For the criteria of a hybrid run against it (hs_coordinator_set_reference). Errors name the
 * file and line. */
int hs_results_read_reference(hs_ctx *ctx, const char *dir, int ndof, double dt,
                              int64_t max_records, hs_results **out);

/* One input of a run (docs/outputs.md, "Trace"): what named it, where, its size and SHA-256
 * (libsodium's crypto_hash_sha256, lowercase hex). A key file is listed by its fingerprint
 * instead (the SHA-256 of "hysim key fingerprint" and the key's 32 bytes, never the key) and
 * size 0; an input that could not be read has size -1 and an empty hash. text: the file's
 * bytes when results.h5 embeds them (the test file and the Tcl scripts), else NULL. */
typedef struct hs_run_input {
    const char *role, *path;
    int64_t size;
    char sha256[65];
    const char *text;
} hs_run_input;

/* What a run was made from and by (the trace of summary.json, results.h5 and results.mat). */
typedef struct hs_run_trace {
    const char *version, *build; /* the program's version and how it was built */
    const char *host;            /* the computer that ran the test */
    const char *start, *end;     /* ISO 8601 UTC ("2026-11-28T08:10:00Z") */
    int noverrides;
    const char *const *overrides; /* the --set KEY=VALUE arguments */
    const char *effective;        /* the test definition after them (YAML) */
    int ninputs;
    const hs_run_input *inputs; /* the test file first */
    int naccepted;
    const char *const *accepted; /* hysim check's warnings accepted (--accept-warnings) */
    const char *resumed_from;    /* "" or the checkpoint a resumed run went on from */
} hs_run_trace;

typedef struct hs_run_summary {
    const char *name, *status /* completed | unstable | aborted */, *reason /* "" if completed */;
    const char *integrator;
    int64_t steps;
    double dt;
    int ndof;
    const double *periods; /* ndof, ascending index 1..n as TESTFILE.md says; may be NULL */
    int nperiods;          /* entries of periods: the lowest modes of a large model; 0: ndof */
    double wall_time_s;
    /* Further top-level members, already JSON ("\"hybrid\": {...}, \"sites\": [...]"), written
     * as given before wall_time_s; NULL or "" for none. */
    const char *extra_json;
    const hs_run_trace *trace; /* NULL: none (written as "trace" and /trace) */
} hs_run_summary;

/* response.csv: header t and the DOFs' names (the layout's dof_names; d1..dn without); one row per
 * record, each number with 17 significant digits (printf's "%.17g" characters: they read back to
 * the same double). */
int hs_results_write_csv(const hs_results *r, const char *path);
/* results.h5: every recorded series with a `units` attribute; root attributes from s (may be
 * NULL). With an actuator block also /actuators/{command, measured, force, tangent}; with a site
 * block /sites/{states, delay} and /actuators/{tracking_error, tracking_indicator}. */
int hs_results_write_hdf5(const hs_results *r, const hs_run_summary *s, const char *path);
/* HDF5 and matio are loaded when results.h5 or results.mat is first written or read, not when the
 * program starts (a missing library fails that write with a message naming it; HS_HDF5_LIBRARY
 * and HS_MATIO_LIBRARY name other files). This starts loading both on a detached background
 * thread (once per process; the writers wait for it): call it before a run that will write them,
 * so that the loading overlaps the model's set-up and steps. */
void hs_results_libs_preload(void);
/* response.csv written while the run records (results_live.c): a second thread formats every
 * record hs_results_record has completed into PATH.part as the run goes on; finish (after the
 * last record) writes the rest and renames it over PATH when keep is set, else removes it. The
 * thread reads only the time and displacements of completed records; the recording thread never
 * waits for it. Do not truncate or append records (resume) while one is started. */
typedef struct hs_results_live hs_results_live;
int hs_results_live_csv_start(hs_results *r, const char *path, hs_results_live **out);
int hs_results_live_csv_finish(hs_results_live **live, int keep); /* NULL-safe */
/* results.mat (libmatio): the series, units, names and root attributes of results.h5 under the
 * same names for MATLAB and GNU Octave (docs/outputs.md). version 5 (MAT v5, readable by MATLAB,
 * Octave and scipy.io.loadmat), 73 (MAT 7.3, HDF5-based) or 0: v5 unless a series exceeds v5's
 * 2 GiB per variable. */
int hs_results_write_mat(const hs_results *r, const hs_run_summary *s, const char *path,
                         int version);
/* The MAT version version 0 chooses: 5, or 73 when a series exceeds v5's 2 GiB per variable. */
int hs_results_mat_version(const hs_results *r);
/* results.h5 and, when mat_path is not NULL, results.mat (version 0) at once: results.h5 on a
 * second thread while MAT v5 is written (one after the other for 7.3, also HDF5). */
int hs_results_write_h5_mat(const hs_results *r, const hs_run_summary *s, const char *h5_path,
                            const char *mat_path);
/* summary.json: the run's metrics (TESTFILE.md "What a run leaves behind"). */
int hs_results_write_summary(const hs_results *r, const hs_run_summary *s, const char *path);

#ifdef __cplusplus
}
#endif
#endif
