/* What `hysim plot` reads from a run's results.h5 (see docs/outputs.md). */
#ifndef HS_PLOT_DATA_H
#define HS_PLOT_DATA_H

#include <stddef.h>
#include <stdint.h>

#define HS_PLOT_TEXT 256

typedef struct hs_plot_data {
    int64_t n; /* records */
    int ndof, nsprings, ngroups;
    double *t;        /* n */
    double *d;        /* n x ndof, row-major */
    char **dof_names; /* ndof: the DOFs' names (/displacement's names; d1..dn in older files) */
    double *ag;       /* n: the ground acceleration (/ground_acceleration), NULL when absent */
    char unit_acceleration[HS_PLOT_TEXT];
    double *sdef, *sforce; /* n x nsprings, or NULL without springs */
    char **spring_names;   /* nsprings */
    int has_energy;
    double *e_input, *e_kinetic, *e_damping, *e_strain, *e_experimental, *e_error_rel; /* n */
    /* /actuators (hybrid runs), nact = 0 without: n x nact each, the tangent n x nact^2 (record
     * k's K_l column-major) */
    int nact;
    char **act_names; /* nact */
    double *act_cmd, *act_meas, *act_force, *act_tangent;
    char unit_stiffness[HS_PLOT_TEXT];
    /* /actuators/{tracking_error, tracking_indicator} (n x nact), NULL when absent */
    double *act_te, *act_ti;
    char unit_ti[HS_PLOT_TEXT];
    /* /sites (runs with site controllers), nsites = 0 without: n x nsites states (bit k = state k
     * of the command generator, as numbers) and delays (s); per site the TimeOut limits (s, NaN
     * when unknown) */
    int nsites;
    char **site_names; /* nsites */
    double *site_states, *site_delay;
    double *slow_after, *hold_after;
    char name[HS_PLOT_TEXT], status[HS_PLOT_TEXT], integrator[HS_PLOT_TEXT];
    char unit_time[HS_PLOT_TEXT], unit_length[HS_PLOT_TEXT], unit_force[HS_PLOT_TEXT],
        unit_energy[HS_PLOT_TEXT];
} hs_plot_data;

/* Reads `path`; returns 0, or -1 with a message in err (what is missing or malformed). */
int hs_plot_data_read(const char *path, hs_plot_data *out, char *err, size_t errlen);
void hs_plot_data_free(hs_plot_data *p);

#endif
