/* hysim recorders of the frame model (docs/outputs.md "Recorders"): node responses of any node
 * DOF (displacement, velocity, relative and absolute acceleration, reaction at a support),
 * element responses (global, local and basic forces, deformations, a truss's strain) and story
 * drifts, chosen in the test file (`output.recorders`). The coordinator gathers them at every
 * recorded step into a preallocated row (hs_recorders_gather never allocates); the results store
 * keeps them with the other series (checkpoints included) and writes them to results.h5
 * (/recorders), recorders/NAME.csv and results.mat. */
#ifndef HYSIM_RECORDERS_H
#define HYSIM_RECORDERS_H

#include "hysim/base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hs_rec_response {
    HS_REC_DISP,      /* node: displacement relative to the ground */
    HS_REC_VEL,       /* node: velocity relative to the ground */
    HS_REC_ACCEL,     /* node: acceleration relative to the ground */
    HS_REC_ABS_ACCEL, /* node: relative + ground acceleration of the DOF's direction */
    HS_REC_REACTION,  /* node: reaction at a fixed DOF */
    HS_REC_FORCE,     /* element: global end forces */
    HS_REC_LOCAL_FORCE,
    HS_REC_BASIC_FORCE,
    HS_REC_DEFORMATION,
    HS_REC_STRAIN, /* truss */
    HS_REC_DRIFT   /* (u_j - u_i) / (perpendicular coordinate j - i) */
} hs_rec_response;
#define HS_REC_NRESPONSES 11
#define HS_REC_MAX_DOFS   6

/* The response's name in the test file and the files ("disp", "abs_accel", "local_force", ...). */
const char *hs_rec_response_name(hs_rec_response r);
int hs_rec_response_is_node(hs_rec_response r);    /* disp .. reaction */
int hs_rec_response_is_element(hs_rec_response r); /* force .. strain */

/* One recorder of the test file. */
typedef struct hs_recorder_def {
    char name[64]; /* names the dataset and the CSV file: a letter, then letters, digits, '_' */
    hs_rec_response response;
    int nitems;
    int *items; /* node ids (node recorders) or element indices (element recorders); owned */
    int ndofs;
    int dofs[HS_REC_MAX_DOFS]; /* node recorders: DOF indices */
    int drift_i, drift_j;      /* drift: node ids */
    int drift_dof, drift_perp; /* drift: the DOF (a translation) and the perpendicular axis (0 = x,
                                  1 = y, 2 = z) */
} hs_recorder_def;

struct hs_fe;
typedef struct hs_recorders hs_recorders;

/* The columns recorder d will have over the frame model fe (its values per record). */
int hs_recorder_columns(const hs_recorder_def *d, const struct hs_fe *fe);

/* The run's recorders over the frame model fe (lent, finalized). iota: the model's ground
 * influence on its dynamic DOFs (n), from which the excitation's direction is found; units name
 * the columns' units. */
int hs_recorders_create(hs_ctx *ctx, const hs_recorder_def *defs, int n, struct hs_fe *fe,
                        const double *iota, const char *units_force, const char *units_length,
                        const char *units_time, hs_recorders **out);
void hs_recorders_destroy(hs_recorders **r); /* NULL-safe */
int hs_recorders_count(const hs_recorders *r);
int hs_recorders_width(const hs_recorders *r); /* values of one gathered row, all recorders */
/* Recorder k's name, response, column count, column names ("n3_ux", "c1_Mi", ...) and units. */
const char *hs_recorders_name(const hs_recorders *r, int k);
const char *hs_recorders_response(const hs_recorders *r, int k);
int hs_recorders_columns(const hs_recorders *r, int k);
const char *const *hs_recorders_column_names(const hs_recorders *r, int k);
const char *const *hs_recorders_column_units(const hs_recorders *r, int k);
/* What each column of recorder k is: node ids (node recorders: one per column; a drift: i and j;
 * element recorders: none, NULL) with their count, element names (element recorders: one per
 * column, else NULL) and the DOF or component of each column ("ux", "M_i", "N"). */
const int *hs_recorders_nodes(const hs_recorders *r, int k, int *count);
const char *const *hs_recorders_elements(const hs_recorders *r, int k);
const char *const *hs_recorders_components(const hs_recorders *r, int k);
/* Every recorder's values at the last commit into row (hs_recorders_width), from the dynamic
 * DOFs' displacement, velocity and acceleration (relative) and the ground acceleration ag.
 * Never allocates. */
int hs_recorders_gather(hs_recorders *r, const double *d, const double *v, const double *a,
                        double ag, double *row);
/* The ground acceleration of DOF index dof for a ground acceleration ag: what abs_accel adds to
 * the relative acceleration (the one place that says it; multi-support excitation changes it). */
double hs_recorders_ground_accel(const hs_recorders *r, int node, int dof, double ag);

#ifdef __cplusplus
}
#endif
#endif
