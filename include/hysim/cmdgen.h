/* hysim command generator: the site's event-driven predictor/corrector (Mosqueda et al. 2004, Fig.
 * 4). It turns one target per integration step (all actuators of the site together) into a
 * continuous actuator command at the controller rate, whatever the integration step and however
 * late the target is.
 *
 * States: extrapolate (predict past the last target from the target history), interpolate (correct
 * towards the target that arrived), slow (extrapolate at a reduced velocity), hold (stand still),
 * free_vibration (the coordinator fell silent: the site integrates its specimen's free vibration
 * with a locally stored mass, damping ratio and the measured force, until the motion dies out),
 * done (the test has ended on the site's side). Events: D_update (a target arrived,
 * hs_cmdgen_target), D_target (the command reached the target: returned by hs_cmdgen_tick so that
 * the site sends its measurement), TimeOut (extrapolate -> slow -> hold -> free_vibration).
 *
 * Every switch is continuous in the command and its velocity (restart form of the polynomials);
 * hold keeps the command bit-for-bit constant. Time is the tick count over the rate: the
 * generator reads no clock. Everything is allocated at creation; ticks never allocate.
 * See docs/site_controller.md. */
#ifndef HYSIM_CMDGEN_H
#define HYSIM_CMDGEN_H

#include "hysim/base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hs_cmdgen_state {
    HS_CMDGEN_EXTRAPOLATE = 0,
    HS_CMDGEN_INTERPOLATE,
    HS_CMDGEN_SLOW,
    HS_CMDGEN_HOLD,
    HS_CMDGEN_FREE_VIBRATION,
    HS_CMDGEN_DONE,
    HS_CMDGEN_NSTATES
} hs_cmdgen_state;

/* Bit of a state in a step's state sequence (hs_cmdgen_step.states). */
#define HS_CMDGEN_BIT(state) (1 << (state))

/* Events reported by hs_cmdgen_tick (bit set). */
enum {
    HS_CMDGEN_EV_UPDATE = 1,  /* D_update: the pending target was taken this tick */
    HS_CMDGEN_EV_TARGET = 2,  /* D_target: this tick's command is the target (bit-exact) */
    HS_CMDGEN_EV_TIMEOUT = 4, /* TimeOut: the state changes after this tick */
    HS_CMDGEN_EV_DONE = 8     /* the test ended on the site's side (state done from now on) */
};

typedef struct hs_cmdgen_params {
    int nact;          /* actuators of the site (1 .. 16) */
    double rate;       /* controller ticks per wall second; default 1024 */
    double dt;         /* integration step (simulation seconds); required */
    double time_scale; /* wall seconds per simulated second; default 1 */
    int order;         /* predictor/corrector order 1, 2 or 3; default 3 */
    /* TimeOut rules, as fractions of the step's parameter x in [0, 1] (x = 1: next target) */
    double extrapolate_limit; /* extrapolate up to this x; default 0.6 */
    double slow_limit;        /* slow extrapolates up to this x; default 0.8 */
    double slow_factor;       /* slow velocity / extrapolation velocity; default 0.5 */
    double blend;        /* speed changes at the ends of slow take blend * N ticks; default 0.05 */
    double hold_timeout; /* wall seconds in hold before free_vibration; 0 = hold forever */
    /* Free vibration (only when mass != NULL; otherwise the hold timeout ends the test in place) */
    const double *mass;      /* nact x nact, column-major, actuator coordinates (copied) */
    const double *stiffness; /* nact x nact initial stiffness (copied) or NULL: damping matrix and
                                operator-splitting correction; required when zeta > 0 */
    double zeta;             /* damping ratio in every mode; default 0.05 */
    double fv_dt;   /* simulated seconds per tick; 0 = 1 / (rate * time_scale) (the test's pace) */
    double v_tol;   /* |v| below this (length per simulated s); 0 = rel_tol * peak |v| */
    double f_tol;   /* |f| below this (force); 0 = rel_tol * peak |f| */
    double rel_tol; /* default 1e-3 */
    double quiet_time;  /* wall seconds both stay below tolerance before stopping; default 0.1 */
    double stop_time;   /* wall seconds of the final smooth stop (velocity to zero); default 0.1 */
    double fv_max_time; /* wall seconds of free vibration before stopping anyway; default 600 */
    /* Stepwise (OpenFresco's trial-by-trial protocols): after D_target the command stays on the
     * target, bit for bit (state hold, hold_timeout applies), instead of extrapolating; the
     * approach to the next target starts from rest and ends at rest (cubic Hermite with zero end
     * slopes over the step's N ticks: monotone, no position outside the two targets). Default 0. */
    int stepwise;
    /* Catch-up cap, per actuator: the largest command change per tick the corrector may use
     * (0 = none). When a target comes late (after slow or hold, e.g. after late ticks) the
     * corrector has fewer ticks left and would move faster than the predictor did; with a cap it
     * takes as many more ticks as keep its peak speed at the cap (a re-ramp: the step lasts
     * longer, the command never jumps). A segment that cannot meet the cap at any length (the
     * targets themselves move faster) keeps its length: the site's velocity limit then trips.
     * The site controller sets 0.9 x velocity_limit / rate. */
    double max_increment[16];
    /* Its second-difference cap, per actuator: the largest change of the command's increment per
     * tick (0 = none), also met by lengthening the corrector. A short catch-up (a target a
     * millimetre from a held command) at the speed cap would accelerate as 8/3 cap^2 / distance:
     * beyond an acceleration limit when the distance is small. The site controller sets
     * 0.9 x acceleration_limit / rate^2. */
    double max_change2[16];
} hs_cmdgen_params;

hs_cmdgen_params hs_cmdgen_params_default(void);

/* One integration step as the site lived it: from the D_target of the previous step (or the
 * first D_update) to this step's D_target. */
typedef struct hs_cmdgen_step {
    int64_t step;        /* 1, 2, ... */
    int states;          /* HS_CMDGEN_BIT of every state visited */
    int64_t delay_ticks; /* ticks from the step's start to its D_update */
    int64_t ticks;       /* ticks the step took */
    int64_t state_ticks[HS_CMDGEN_NSTATES];
} hs_cmdgen_step;

/* Mosqueda et al.'s (2004) Table 1 for one site, plus tick counts. */
typedef struct hs_cmdgen_summary {
    int64_t steps;     /* completed steps (D_target) */
    double max_delay;  /* wall s from a D_target to the next D_update (largest) */
    double total_time; /* wall s from the first D_update to now */
    double pct_slow;   /* % of completed steps that reached slow (those reaching hold too) */
    double pct_hold;   /* % of completed steps that reached hold */
    int64_t steps_slow, steps_hold, timeouts;
    int64_t state_ticks[HS_CMDGEN_NSTATES];
    int fv_capped;     /* free vibration stopped by fv_max_time rather than by dying out */
    int64_t stretched; /* corrector segments lengthened to respect max_increment (re-ramps; not
                          kept in checkpoints) */
} hs_cmdgen_summary;

typedef struct hs_cmdgen hs_cmdgen;

int hs_cmdgen_create(hs_ctx *ctx, const hs_cmdgen_params *p, hs_cmdgen **out);
void hs_cmdgen_destroy(hs_cmdgen **g);
/* At rest at x0 (nact; NULL = zeros): target history filled with x0, statistics cleared, waiting
 * for the first target (the state reads hold; no timeouts before the first target). */
int hs_cmdgen_reset(hs_cmdgen *g, const double *x0);
/* D_update: the next target (nact), taken at the next tick. HS_EPROTO when a target is still
 * pending or being interpolated; HS_EABORTED in free_vibration or done. */
int hs_cmdgen_target(hs_cmdgen *g, const double *x_target);
/* One controller tick: the command for this sample in x_cmd (nact). f_meas: the forces measured
 * after the previous tick (nact), read in free_vibration only (may be NULL otherwise).
 * Returns the events (>= 0) or a negative HS_E* code. Never allocates. */
int hs_cmdgen_tick(hs_cmdgen *g, const double *f_meas, double *x_cmd);

hs_cmdgen_state hs_cmdgen_current_state(const hs_cmdgen *g);
const char *hs_cmdgen_state_name(int state); /* "extrapolate", ..., "done" */
int hs_cmdgen_nact(const hs_cmdgen *g);
int hs_cmdgen_ticks_per_step(const hs_cmdgen *g); /* N = round(dt * time_scale * rate), >= 1 */
/* Tick counts of the TimeOut rules: extrapolate lasts T1 ticks, slow T2 ticks. */
void hs_cmdgen_timeout_ticks(const hs_cmdgen *g, int64_t *t_extrapolate, int64_t *t_slow,
                             int64_t *t_hold);
double hs_cmdgen_step_fraction(const hs_cmdgen *g);   /* x of the current command in its step */
const double *hs_cmdgen_command(const hs_cmdgen *g);  /* last command (nact, lent) */
const double *hs_cmdgen_velocity(const hs_cmdgen *g); /* its velocity per tick (nact, lent) */
/* The last completed step, or NULL before the first D_target. */
const hs_cmdgen_step *hs_cmdgen_last_step(const hs_cmdgen *g);
/* The operator's pause (docs/monitor.md, "A pause longer than a hold_timeout"): the coordinator,
 * alive and authenticated, keeps the hold going. In hold (after a first target) the hold timer
 * restarts: hold_timeout counts again from this tick. Returns 1 when it restarted, 0 in any other
 * state (extrapolate, slow and interpolate reach hold with a full timer; free vibration and done
 * cannot be undone). Never allocates. */
int hs_cmdgen_hold_renew(hs_cmdgen *g);
/* Wall seconds before the hold timeout would end the test if no target (and no renewal) came:
 * the rest of the current state's ticks to hold, plus the hold's own; INFINITY without a
 * hold_timeout or before the first target; 0 in free vibration or done. */
double hs_cmdgen_hold_left(const hs_cmdgen *g);
/* The step in progress (its counts so far). */
const hs_cmdgen_step *hs_cmdgen_current_step(const hs_cmdgen *g);
void hs_cmdgen_summary_get(const hs_cmdgen *g, hs_cmdgen_summary *s);
/* The whole dynamic state (everything that influences later ticks, and the statistics) as
 * doubles, for checkpoints (src/lab/cmdgen_state.c). Load into a generator created with the same
 * parameters: HS_EINPUT when the actuator count, order, ticks per step or free-vibration setup
 * differ, or a saved count or flag is impossible. Never allocates. */
size_t hs_cmdgen_state_size(const hs_cmdgen *g);
int hs_cmdgen_state_save(const hs_cmdgen *g, double *out);
int hs_cmdgen_state_load(hs_cmdgen *g, const double *in);

#ifdef __cplusplus
}
#endif
#endif
