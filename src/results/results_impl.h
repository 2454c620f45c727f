/* Inside the results store: the preallocated series and the helpers its writers share. */
#ifndef HS_RESULTS_IMPL_H
#define HS_RESULTS_IMPL_H

#include "hysim/results.h"

#include <stdatomic.h>
#include <stdio.h>

/* Each series is a row-major block of capacity x width doubles (record k at [k * width]). */
struct hs_results {
    hs_ctx *ctx;
    int ndof, nsprings, ngroups;
    char **dof_names; /* ndof: the model's ("n3_ux", "floor2"), or d1..dn */
    char **spring_names, **group_names;
    int64_t capacity, count;
    atomic_int_least64_t published; /* count, stored after each record's t and d (release) */
    char *units_force, *units_length, *units_time;
    char *units_velocity, *units_acceleration, *units_energy; /* derived: in/s, in/s^2, kip*in */
    double *t, *ag;                                           /* capacity */
    double *d, *v, *a;                                        /* capacity x ndof */
    double *sdef, *sforce;                                    /* capacity x nsprings */
    double *e_input, *e_kinetic, *e_damping, *e_strain, *e_experimental, *e_error_rel;
    double *e_groups; /* capacity x ngroups */
    /* actuator block (nact > 0): capacity x nact, and capacity x nact^2 for the tangent (record
     * k's K_l column-major at [k * nact^2]); NaN until recorded */
    int nact;
    char **act_names;      /* nact */
    char *units_stiffness; /* kip/in */
    double *act_cmd, *act_meas, *act_force, *act_tangent;
    /* site block (nsites > 0): capacity x nsites states (0 until recorded) and delays, capacity x
     * nact tracking error and indicator (NaN until recorded); per site its TimeOut limits (s) */
    int nsites;
    char **site_names;               /* nsites */
    double *slow_after, *hold_after; /* nsites, NaN when unknown */
    int *site_states;
    double *site_delay, *act_te, *act_ti;
    char *units_ti; /* in^2 */
    /* recorder block (nrec > 0): capacity x rec_width, NaN until recorded; recorder j's columns
     * start at rec_col0[j] */
    int nrec;
    size_t rec_width;
    char **rec_names, **rec_responses;       /* nrec */
    int *rec_ncols, *rec_col0;               /* nrec */
    char ***rec_columns, ***rec_units;       /* nrec x ncols */
    char ***rec_elements, ***rec_components; /* nrec x ncols, an entry NULL when none */
    int **rec_nodes, *rec_nnodes;            /* nrec x nnodes */
    double *rec;
};

/* Copies of n names (NULL entries, or names == NULL: fallback1, fallback2, ...); NULL when out of
 * memory. */
char **hs_results_names(const char *const *names, int n, const char *fallback);
void hs_results_names_free(char **names, int n); /* NULL-safe */
/* The site block of the layout (results_sites.c): 0 on success (also without one), HS_ENOMEM. */
int hs_results_sites_init(hs_results *r, const hs_results_layout *layout);
void hs_results_sites_free(hs_results *r);

/* The recorder block of the layout (results_recorders.c): 0 on success (also without one). */
int hs_results_recorders_init(hs_results *r, const hs_results_layout *layout);
void hs_results_recorders_free(hs_results *r);

/* response.csv's header line, and its rows of records [from, to) (results_csv.c). */
void hs_results_csv_header(const hs_results *r, FILE *f);
void hs_results_csv_rows(const hs_results *r, FILE *f, int64_t from, int64_t to);

/* hs_results_write_hdf5 with its errors in ctx (another thread's, results_write.c). */
int hs_results_write_hdf5_ctx(const hs_results *r, const hs_run_summary *s, const char *path,
                              hs_ctx *ctx);

/* hs_results_peak_abs_disp of every DOF into peak (ndof values), in one pass over the records. */
void hs_results_peaks(const hs_results *r, double *peak);

/* Atomic writing: a temporary file next to `path`, renamed over it on success. */
typedef struct hs_atomic_file {
    char *path, *tmp;
    FILE *f; /* open for writing (NULL for hs_atomic_reserve) */
} hs_atomic_file;

/* Creates and opens the temporary file ("<path>.tmpXXXXXX"). */
int hs_atomic_open(hs_ctx *ctx, const char *path, hs_atomic_file *af);
/* Reserves a temporary name (the file exists, empty and closed) for writers that open by name. */
int hs_atomic_reserve(hs_ctx *ctx, const char *path, hs_atomic_file *af);
/* Closes (if open) and renames over the target; on `failed` or any error removes the temporary.
 * Returns 0 or HS_EIO (after hs_fail). Frees af's strings either way. */
int hs_atomic_finish(hs_ctx *ctx, hs_atomic_file *af, int failed);

#endif
