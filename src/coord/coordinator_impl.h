/* The coordinator's private layout. */
#ifndef HS_COORDINATOR_IMPL_H
#define HS_COORDINATOR_IMPL_H

/* Room for the `hybrid` and `sites` members of summary.json. */
#define HS_EXTRA_JSON_MAX 65536
/* The periods a large model's run computes (its lowest modes, ARPACK). */
#define HS_COORD_LARGE_MODES 20

#include "energy_impl.h"
#include "experiment_impl.h"

#include "hysim/coordinator.h"
#include "hysim/experiment_sparse.h"
#include "hysim/integrator.h"
#include "hysim/model.h"

#include <stdatomic.h>
#include <stdio.h>

struct hs_results;
struct hs_results_recorder;
struct hs_recorders;

struct hs_coordinator {
    hs_ctx *ctx;
    hs_test_def *def; /* lent */
    hs_model *model;  /* lent (def->model) */
    int n, nsprings, ngroups;
    hs_dynamics dyn;
    hs_integrator *it;
    struct hs_results *results;
    struct hs_results_live *live_csv; /* response.csv formatted while the run goes on */
    char live_dir[4096];              /* ... into this folder (hs_coordinator_set_output) */
    hs_energy_acc energy;
    hs_coord_exp exp;          /* experimental substructures (has_exp) */
    hs_experiment_csc exp_csc; /* their Ke on the sparse path (dyn.Kes; docs/fe_model.md) */
    int has_exp;
    char *extra_json; /* summary members written after the run */
    /* hs_coordinator_set_reference: a reference run's results, lent; NULL for none */
    const struct hs_results *reference;
    /* hs_coordinator_set_trace: what the run was made from and by, lent; NULL for none */
    const struct hs_run_trace *trace;
    double *K0, *m_iota, *f0, *f1, *d_cmd, *d_prev, *v_prev, *a_prev, *periods;
    int nperiods; /* periods computed: n, or the lowest HS_COORD_LARGE_MODES of a large model */
    double *spring_def, *spring_force; /* the model's springs, then the frame's (nfe_springs) */
    /* the frame's springs in the results (hs_fe_spring_columns): per column the element and its
     * basic component; NULL without a frame or springs */
    int nfe_springs;
    int *fe_spring_el, *fe_spring_comp;
    /* multi-support excitation: the frame model whose supports move (lent), or NULL, and the
     * Rayleigh coefficients of C_fs = a0 M_fs + a1 K_fs (docs/fe_model.md) */
    struct hs_fe *supports;
    double ray_a0, ray_a1;
    double *Kl; /* nact x nact: the integrator's experimental tangent, recorded (has_exp) */
    struct hs_recorders *recorders; /* the frame model's recorders, NULL for none */
    double *rec_row;                /* their values at a record */
    int64_t steps_done;
    int recording, stopped;
    hs_run_status status;
    char reason[1024];
    double wall_time;
    hs_progress_fn progress;
    void *progress_user;
    int64_t progress_every;
    hs_coord_point_fn point_hook; /* tests only */
    void *point_user;
    struct hs_coord_ckpt *ck;  /* checkpoints (checkpoint.c), NULL when off */
    int resumed;               /* 1 after hs_coordinator_resume */
    uint8_t run_id[16];        /* the resumed checkpoint's run id (HS_CHECKPOINT_RUN_ID_BYTES) */
    atomic_int stop_requested; /* hs_coordinator_request_stop (another thread) */
    char stop_reason[256];     /* written before stop_requested is set */
};

/* The frame model's recorders (coordinator_recorders.c): created with the results store (the
 * layout's recorder list into *layout, to be freed by the caller; NULL without recorders),
 * gathered after each record, freed. */
int hs_coord_recorders_init(hs_coordinator *c, struct hs_results_recorder **layout);
int hs_coord_recorders_record(hs_coordinator *c, double ag);
void hs_coord_recorders_free(hs_coordinator *c);

/* The whole state as doubles (checkpoint_state.c); never allocates. */
size_t hs_coord_state_size(hs_coordinator *c);
int hs_coord_state_save(hs_coordinator *c, double *out);
int hs_coord_state_load(hs_coordinator *c, const double *in);
/* mkdir -p dir (coordinator_write.c); `too_long` is the message when the name does not fit. */
int hs_coord_mkdirs(hs_ctx *ctx, const char *dir, const char *too_long);
/* Checkpoints (checkpoint.c): after each committed step, writes one when due (between steps; the
 * only file I/O of the loop, and it allocates nothing); frees the checkpoint state. */
int hs_coord_ckpt_after_step(hs_coordinator *c);
void hs_coord_ckpt_free(hs_coordinator *c);

#endif
