/* The coordinator's side of the experimental substructures: the sites, the stacked actuator
 * layout (T, initial stiffness), the per-step exchange and the hybrid statistics. */
#ifndef HS_COORD_EXPERIMENT_IMPL_H
#define HS_COORD_EXPERIMENT_IMPL_H

#include "hysim/experiment.h"
#include "hysim/link.h"
#include "hysim/site.h"
#include "hysim/testfile.h"

#define HS_ITER_HIST 16

typedef struct hs_coord_exp {
    hs_ctx *ctx;
    int nsites, nelem, nact, n;
    hs_site **sites;
    int *act_site, *act_channel; /* per stacked actuator: its site and channel */
    double *T, *K0l, *Tp, *Ke;   /* nact x n, nact x nact, nact x nact or NULL, n x n (NULL
                                    above HS_DENSE_MAX_DOFS) */
    double *x_cmd, *x_meas, *f_meas, *x_prev, *f_prev; /* nact */
    double *hist_t, *hist_x, *hist_f;                  /* HS_EXP_HISTORY (x nact) */
    double *noise_d, *noise_f;                         /* nact */
    double *r_exp;                                     /* n */
    /* per site: exchange buffers */
    double **site_x;
    hs_site_measurement *meas;
    /* the site controllers in the last exchange: states and delay per site, tracking error and
     * indicator per stacked actuator (recorded in the results' site block) */
    int *site_states;
    double *site_delay, *te, *ti;
    hs_experiment view;
    /* statistics */
    int64_t steps, implicit_steps, fallback_steps, updated_steps, iter_sum;
    int iter_max;
    int64_t iter_hist[HS_ITER_HIST];
    int flags_seen;
    double work; /* experimental work, integral of f_meas . dx_meas */
    /* the test's clock (virtual time): links per site, the integrator's compute time */
    hs_link **down, **up;      /* per site, NULL entries: instantaneous */
    hs_compute_model *compute; /* NULL: 0 */
    hs_vtime now;              /* the coordinator's time */
    double site_timeout;       /* s */
    int real;                  /* 1: the monotonic clock (clock: real, or a remote site) */
    double real_t0;            /* monotonic s at the start (real clock) */
    double max_wait;           /* largest wait for a measurement (s) */
    hs_vtime sent;             /* when the step's targets left */
} hs_coord_exp;

/* Builds the sites and the layout. K0 (n x n) gets the experimental initial stiffness added. */
int hs_coord_exp_init(hs_coord_exp *e, hs_ctx *ctx, const hs_test_def *def, double *K0);
void hs_coord_exp_free(hs_coord_exp *e);
/* Sends T d_cmd to every site (before waiting for any answer). */
int hs_coord_exp_send_targets(hs_coord_exp *e, int64_t step, double t_next, const double *d_cmd);
/* Collects every site's measurement of the step; fills the view and r_exp. */
int hs_coord_exp_collect(hs_coord_exp *e, int64_t step);
/* The step's bookkeeping (work, statistics); the sites are told by hs_coord_exp_commit_sites. */
void hs_coord_exp_commit(hs_coord_exp *e, int iterations, int fallback, int stiffness_updated);
/* COMMIT to every site: after the step's checkpoint is durable (docs/checkpoints.md). */
int hs_coord_exp_commit_sites(hs_coord_exp *e, int64_t step);
/* The end of a test that ran to its end (completed or unstable): BYE to every site. An aborted
 * run never calls it, so that every site keeps holding its test for a resume. */
void hs_coord_exp_end(hs_coord_exp *e);
/* The run stopped part-way: each site is told why (hs_site_leave) and keeps its test held. */
void hs_coord_exp_leave(hs_coord_exp *e, const char *why);
/* The integrator's modelled computing time for one step, on the test's clock. */
void hs_coord_exp_compute(hs_coord_exp *e);
/* The `hybrid` and `sites` members of summary.json (JSON text without braces around). */
int hs_coord_exp_summary_json(const hs_coord_exp *e, char *buf, size_t size);

#endif
