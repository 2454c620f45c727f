/* hysim virtual laboratory: the physical models a site steps at its controller rate.
 *  - actuator: servo-hydraulic actuator per channel (first-order servo loop with a delay of about
 *    `a` samples, optional transport delay and servo-valve stage, variable delay, stroke, velocity
 *    and force limits);
 *  - sensor: measurement = true value + seeded Gaussian noise, then quantisation;
 *  - specimen: the experimental substructure, forces from the actuator displacements
 *    ("linear", "material", "intrinsic", "bilinear_degrading", "mr_damper", and the
 *    "relaxation" wrapper);
 *  - vlab: n_act actuators + sensors + one specimen stepped together (with a `perfect` mode).
 * Everything is allocated at creation; ticks never allocate. Units are the test's own, except
 * where a model says otherwise (mr_damper parameters are in N, cm, s, V). See docs/lab.md. */
#ifndef HYSIM_LAB_H
#define HYSIM_LAB_H

#include "hysim/base.h"
#include "hysim/options.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- actuator */

/* Limit flags of an actuator tick (bit set). */
enum {
    HS_ACT_LIMIT_STROKE = 1,   /* position saturated at +-stroke */
    HS_ACT_LIMIT_VELOCITY = 2, /* increment saturated at velocity_max / rate */
    HS_ACT_LIMIT_FORCE = 4     /* |force| above force_max (flagged, not enforced) */
};

typedef struct hs_actuator_params {
    double rate;         /* controller rate (Hz); default 1024 */
    double a;            /* delay constant a0 >= 1 (samples): x(k+1) = x(k) + (u(k) - x(k)) / a */
    int transport_delay; /* pure delay of the command, in samples (>= 0) */
    double valve_freq;   /* servo-valve stage natural frequency (Hz); 0 = no stage */
    double valve_zeta;   /* its damping ratio (> 0) */
    const double *schedule; /* piecewise-linear a(t): pairs t0, a0, t1, a1, ... (copied) or NULL */
    size_t schedule_points; /* number of (t, a) pairs */
    double a_per_velocity;  /* c in a = a(t) + c |v_cmd| (samples per length/time); 0 = none */
    double stroke;          /* |x| <= stroke; 0 = no limit */
    double velocity_max;    /* |dx/dt| <= velocity_max; 0 = no limit */
    double force_max;       /* |f| > force_max is flagged; 0 = no limit */
    int perfect;            /* 1: x_m(k) = x_c(k) exactly (limits still apply) */
} hs_actuator_params;

/* Defaults: rate 1024, a 1, no transport delay, no valve stage, no schedule, no limits. */
hs_actuator_params hs_actuator_params_default(void);
/* Fills params from options: rate, a, transport_delay, valve_freq, valve_zeta, schedule (list
 * t0 a0 t1 a1 ...; lent from opts), a_per_velocity, stroke, velocity_max, force_max, perfect. */
int hs_actuator_params_from_options(hs_ctx *ctx, const hs_options *opts, hs_actuator_params *p);

typedef struct hs_actuator hs_actuator;
int hs_actuator_create(hs_ctx *ctx, const hs_actuator_params *p, hs_actuator **out);
void hs_actuator_destroy(hs_actuator **a);
/* Puts the actuator at rest at position x0 (all internal states, tick count 0, flags cleared). */
void hs_actuator_reset(hs_actuator *a, double x0);
/* One controller sample: takes the command x_c(k), advances to x_m(k+1), returns this tick's
 * limit flags (0 when none). Never allocates. */
int hs_actuator_tick(hs_actuator *a, double x_cmd);
double hs_actuator_position(const hs_actuator *a); /* x_m after the last tick */
double hs_actuator_velocity(const hs_actuator *a); /* (x_m(k+1) - x_m(k)) * rate */
double hs_actuator_delay(const hs_actuator *a);    /* the a used by the last tick */
double hs_actuator_time(const hs_actuator *a);     /* ticks * h */
double hs_actuator_rate(const hs_actuator *a);
/* Flags HS_ACT_LIMIT_FORCE when |f| > force_max; returns the flag (or 0). */
int hs_actuator_check_force(hs_actuator *a, double f);
int hs_actuator_flags(const hs_actuator *a);      /* flags of the last tick (+ force check) */
int hs_actuator_flags_seen(const hs_actuator *a); /* all flags since the last reset */
size_t hs_actuator_state_size(const hs_actuator *a);
int hs_actuator_state_save(const hs_actuator *a, double *out);
int hs_actuator_state_load(hs_actuator *a, const double *in);

/* ---------------------------------------------------------------- sensor */

typedef struct hs_sensor_params {
    double rms;   /* Gaussian noise RMS (0 = none) */
    int bits;     /* quantisation: 2^bits levels over [-range, range]; 0 = none */
    double range; /* full scale (> 0 when bits > 0) */
} hs_sensor_params;

typedef struct hs_sensor hs_sensor;
/* `seed` and `stream` seed the noise (one stream per channel and quantity). */
int hs_sensor_create(hs_ctx *ctx, const hs_sensor_params *p, uint64_t seed, uint64_t stream,
                     hs_sensor **out);
void hs_sensor_destroy(hs_sensor **s);
double hs_sensor_measure(hs_sensor *s, double true_value); /* never allocates */
double hs_sensor_level(const hs_sensor *s); /* quantisation step 2 range / (2^bits - 1), or 0 */
size_t hs_sensor_state_size(const hs_sensor *s);
int hs_sensor_state_save(const hs_sensor *s, double *out);
int hs_sensor_state_load(hs_sensor *s, const double *in);
/* Quantisation alone: nearest of 2^bits levels -range + i 2 range / (2^bits - 1), clamped. */
double hs_quantise(double y, int bits, double range);

/* ---------------------------------------------------------------- specimen */

typedef struct hs_specimen hs_specimen;

/* Registered types and options (see docs/lab.md):
 *  linear:             K (list, n_act x n_act, row by row)
 *  material:           material (type name) + that material's parameters, each a number (same
 *                      for every actuator) or a list of n_act numbers
 *  intrinsic:          Tp (list, p x n_act, row by row), p, material + parameters (number or
 *                      list of p numbers): x_p = Tp x, r = Tp^T f_p  (Mosqueda & Ahmadizadeh 2008b,
 * eq. 5.3-5.4) bilinear_degrading: k, fy, b (post-yield ratio), rule ("excursion" | "cumulative"),
 *                      d (reduction per excursion) or beta (per yield displacement of
 *                      accumulated plastic deformation), r_min (floor of fy / fy0)
 *  mr_damper:          Spencer et al. (1997) parameters (N, cm, s, V), voltage, scale,
 *                      length_cm, force_N (unit conversion), substeps, max_substep
 *  rths_benchmark:     plant (nominal | perturbed), seed, spread: the RTHS benchmark's actuator
 *                      and specimen (include/hysim/rths.h), one channel, N and m; its input is
 *                      the servo command and it moves the actuator itself */
int hs_specimen_create(hs_ctx *ctx, const char *type, int n_act, const hs_options *opts,
                       hs_specimen **out);
/* Force relaxation wrapper around `inner` (lent: the caller keeps and destroys it, after the
 * wrapper). Options: fraction, tau, v_still, tau_recover (default tau). */
int hs_specimen_create_relaxation(hs_ctx *ctx, hs_specimen *inner, const hs_options *opts,
                                  hs_specimen **out);
void hs_specimen_destroy(hs_specimen **s);
/* A specimen in a control point's DOFs (`inner`, lent, one channel per control DOF) seen through
 * an experimental setup (hysim/setup.h, lent): its channels are the setup's actuators, whose
 * strokes place the control point; its forces hold the platform against the inner specimen's
 * (src/lab/specimen_setup.c). Both must outlive the wrapper. */
struct hs_setup;
int hs_specimen_create_setup(hs_ctx *ctx, hs_specimen *inner, const struct hs_setup *setup,
                             hs_specimen **out);

/* Trial: actuator displacements x (n_act) at absolute time t (>= the committed time); computes
 * the forces. Rates are (x - x_committed) / (t - t_committed). Never allocates. */
int hs_specimen_set_trial(hs_specimen *s, double t, const double *x);
const double *hs_specimen_force(const hs_specimen *s); /* n_act trial forces (lent) */
int hs_specimen_commit(hs_specimen *s);
int hs_specimen_n_act(const hs_specimen *s);
const char *hs_specimen_type(const hs_specimen *s);
/* Sets a command input of channel i (mr_damper: applied voltage). HS_EUNSUPPORTED otherwise. */
int hs_specimen_set_input(hs_specimen *s, int channel, double value);
/* Initial stiffness matrix (n_act x n_act, column-major). HS_EUNSUPPORTED for mr_damper. */
int hs_specimen_initial_stiffness(const hs_specimen *s, double *K);
/* A specimen that moves its own actuator (control-structure interaction: rths_benchmark) gives
 * the actuator positions of its last trial (n_act, lent; through any wrapper); NULL for the
 * others, whose actuators move them. */
const double *hs_specimen_actuator_position(const hs_specimen *s);
/* The wrapped specimen of a wrapper (relaxation), NULL for a plain one. */
hs_specimen *hs_specimen_inner(hs_specimen *s);
/* Committed state (time, displacements, model state) as doubles, for checkpoints. */
size_t hs_specimen_state_size(const hs_specimen *s);
int hs_specimen_state_save(const hs_specimen *s, double *out);
int hs_specimen_state_load(hs_specimen *s, const double *in);

typedef struct hs_specimen_entry {
    const char *name;
    const hs_param_spec *params;
    const char *summary;
} hs_specimen_entry;
size_t hs_specimen_registry_count(void);
const hs_specimen_entry *hs_specimen_registry_get(size_t i);
const hs_specimen_entry *hs_specimen_registry_find(const char *name);

/* ---------------------------------------------------------------- virtual lab */

typedef struct hs_vlab_params {
    int n_act;
    int perfect;                        /* no delay, no noise, no relaxation */
    uint64_t seed;                      /* noise seed */
    const hs_actuator_params *actuator; /* n_act entries, or 1 shared by all channels */
    int actuator_count;
    hs_sensor_params displacement; /* displacement sensors (all channels) */
    hs_sensor_params force;        /* load cells (all channels) */
} hs_vlab_params;

typedef struct hs_vlab hs_vlab;
/* `specimen` is lent (the caller destroys it after the lab). */
int hs_vlab_create(hs_ctx *ctx, const hs_vlab_params *p, hs_specimen *specimen, hs_vlab **out);
void hs_vlab_destroy(hs_vlab **lab);
/* One controller tick: commands x_cmd (n_act) -> measured displacements and forces (n_act each).
 * Moves the actuators, loads the specimen with the true positions at t = (k + 1) h, commits it,
 * measures. Never allocates. */
int hs_vlab_tick(hs_vlab *lab, const double *x_cmd, double *x_meas, double *f_meas);
const double *hs_vlab_true_displacement(const hs_vlab *lab);
const double *hs_vlab_true_force(const hs_vlab *lab);
int hs_vlab_flags(const hs_vlab *lab); /* OR of the actuators' flags since creation */
double hs_vlab_time(const hs_vlab *lab);
hs_actuator *hs_vlab_actuator(hs_vlab *lab, int channel);
size_t hs_vlab_state_size(const hs_vlab *lab);
int hs_vlab_state_save(const hs_vlab *lab, double *out);
int hs_vlab_state_load(hs_vlab *lab, const double *in);

#ifdef __cplusplus
}
#endif
#endif
