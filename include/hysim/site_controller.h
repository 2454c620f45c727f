/* hysim site controller: the body of a site's control loop, one call per controller tick.
 *
 *   command generator (hysim/cmdgen.h)  ->  delay compensation (hysim/compensator.h, one per
 *   actuator; identity when absent)  ->  safety limits  ->  laboratory exchange (hysim/labio.h:
 *   the virtual lab or a udp target; a status bit holds the site like a limit)  ->
 *   measurement (displacement, force, the last HS_EXP_HISTORY samples)
 *
 * On D_target the controller fills an outgoing measurement and flags it (HS_SC_EV_MEASUREMENT).
 * It enforces the site's own safety limits whatever the coordinator sends: a command that would
 * cross a displacement, velocity, acceleration, step-per-tick or (predicted) force limit is never
 * sent, and a measured displacement or force beyond its limit stops the test as well; the site
 * holds the last command sent, latches the trip and reports it (HS_SC_EV_LIMIT, and an outgoing
 * measurement with the HS_SITE_LIMIT_* flag). The same code runs in the virtual site and in the
 * real-clock site server: it reads no clock (time is the tick count over the rate) and never
 * allocates in a tick. See docs/site_controller.md. */
#ifndef HYSIM_SITE_CONTROLLER_H
#define HYSIM_SITE_CONTROLLER_H

#include "hysim/base.h"
#include "hysim/cmdgen.h"
#include "hysim/compensator.h"
#include "hysim/lab.h"
#include "hysim/site.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limit flags of a trip, beside the actuators' HS_ACT_LIMIT_* (1, 2, 4) in
 * hs_site_measurement.flags. */
enum {
    HS_SITE_LIMIT_DISPLACEMENT = 16,     /* |x_cmd| would exceed disp */
    HS_SITE_LIMIT_VELOCITY = 32,         /* |x_cmd(k) - x_cmd(k-1)| rate would exceed vel */
    HS_SITE_LIMIT_FORCE = 64,            /* |f_m + K0 (x_cmd - x_m)| would exceed force */
    HS_SITE_LIMIT_ACCELERATION = 128,    /* |x_cmd(k) - 2 x_cmd(k-1) + x_cmd(k-2)| rate^2 > acc */
    HS_SITE_LIMIT_STEP = 256,            /* |x_cmd(k) - x_cmd(k-1)| would exceed step */
    HS_SITE_LIMIT_MEASURED_DISP = 512,   /* a measured displacement |x_m| beyond disp (or lab data
                                            that is not a measurement: HS_SITE_CAUSE_LAB_DATA) */
    HS_SITE_LIMIT_MEASURED_FORCE = 1024, /* a measured force |f_m| beyond force (or lab data) */
    HS_SITE_LIMIT_LAB = 2048, /* the laboratory's status: interlock, fault or watchdog (labio.h) */
    HS_SITE_LIMIT_ABORT = 4096, /* the operator aborted the test at the site */
    HS_SITE_LIMIT_ANY = 16 | 32 | 64 | 128 | 256 | 512 | 1024 | 2048 | 4096
};

/* Events of a controller tick (bit set), beside the generator's HS_CMDGEN_EV_* (1, 2, 4, 8). */
enum {
    HS_SC_EV_MEASUREMENT =
        16,             /* an outgoing measurement is ready (hs_site_controller_measurement) */
    HS_SC_EV_LIMIT = 32 /* a safety limit tripped this tick: the site holds */
};

/* One actuator's safety limits; 0 = none. disp and force also bound every measurement. */
typedef struct hs_site_limits {
    double disp;  /* |command| <= disp, |measured displacement| <= disp */
    double vel;   /* |command increment| * rate <= vel */
    double force; /* |predicted force| <= force, |measured force| <= force */
    double acc;   /* |second difference of the command| * rate^2 <= acc */
    double step;  /* |command increment| <= step (the largest step per tick) */
} hs_site_limits;

/* Controlled unloading after a trip (docs/site_controller.md, "Controlled unloading"): the site
 * holds `after` seconds, then ramps each command toward the zero-force position estimated from the
 * measured force and the initial stiffness, x0 = x_m - K0^-1 f_m (re-estimated every tick), at
 * no more than `vel` (capped at half the velocity limit and half the step limit per tick) and
 * `acc` (capped at half the acceleration limit), braking so that it never overshoots x0 nor
 * crosses the stroke; it stops (velocity brought to zero at `acc`) once every |f_m| <= force_tol,
 * or where the stroke would be crossed. vel = 0: no unloading (the trip holds, as before). Needs
 * K0; a laboratory that is gone (watchdog) is held and never commanded to move again. */
typedef struct hs_site_unload_params {
    double after;     /* s of hold before the ramp (default 0) */
    double vel;       /* ramp speed, length/s; 0 = no unloading */
    double acc;       /* ramp acceleration, length/s^2; 0 = vel / 0.1 s */
    double force_tol; /* |f_m| that counts as unloaded; 0 = 1 % of the largest |f_m| at its start */
} hs_site_unload_params;

/* The unloading's state (hs_site_controller_unload_state). */
enum {
    HS_SITE_UNLOAD_OFF = 0,    /* no trip */
    HS_SITE_UNLOAD_HOLD = 1,   /* tripped, holding before the ramp */
    HS_SITE_UNLOAD_RAMP = 2,   /* moving toward the zero-force position */
    HS_SITE_UNLOAD_DONE = 3,   /* every |f_m| <= force_tol, at rest */
    HS_SITE_UNLOAD_STROKE = 4, /* stopped where the stroke would be crossed, at rest */
    HS_SITE_UNLOAD_HELD = 5    /* held for good: no unloading configured, no K0, or the
                                  laboratory is gone (watchdog) or its measurement is not a
                                  number */
};

typedef struct hs_site_controller_params {
    hs_cmdgen_params gen;         /* nact, rate, dt, time_scale, TimeOut rules, free vibration */
    const hs_site_limits *limits; /* nact entries (copied) or NULL: none */
    /* K0 (nact x nact, copied) for the force prediction f_m + K0 (x_cmd - x_m); NULL: the
     * generator's stiffness, or none (then the force limit trips on the measured force) */
    const double *stiffness;
    /* Delay compensation, nact entries (lent; the caller destroys them after the controller);
     * NULL, or a NULL entry: identity. Each is reset to the rest position at creation. */
    hs_compensator *const *compensator;
    hs_site_unload_params unload; /* after a trip (default: none) */
    /* 1: the compensator (or, without one, the command) takes the generator's command of the tick
     * before, as the RTHS benchmark's discrete controller reads the target x_t(t_k) while the
     * numerical substructure moves to t_k+1 (Silva et al. 2020; docs/rths_benchmark.md). 0 (the
     * default): this tick's. The limits apply to the command as always. */
    int target_delay;
    /* A/D and D/A converters around the compensator (the RTHS benchmark's controller_model.slx,
     * F1_input_file.m:157-160): the target and the measured displacement it reads and the command
     * it sends are saturated at +-converter_limit (0: none) and quantised to whole multiples of
     * converter_interval (0, the default: no converters), in the site's length unit. */
    double converter_interval, converter_limit;
} hs_site_controller_params;

hs_site_controller_params hs_site_controller_params_default(void);

/* What a site reports with a measurement beyond hs_site_measurement. */
typedef struct hs_site_report {
    int64_t step;          /* the step of the target (as given to hs_site_controller_target) */
    int64_t tick;          /* controller tick of the measurement (1, 2, ...) */
    double t_wall;         /* tick / rate */
    hs_cmdgen_step record; /* states visited, delay D_target -> D_update, ticks per state */
    int limit_flags;       /* HS_SITE_LIMIT_* of a trip, 0 when none */
    int limit_channel;     /* actuator that tripped, -1 when none */
    double limit_value;    /* the offending command, velocity, acceleration, step, predicted
                              force, or measured displacement or force */
    double limit_bound;    /* the limit it crossed */
    int limit_cause;       /* HS_SITE_CAUSE_*: the likely cause, from the targets' history */
    double limit_growth;   /* diverging causes: the targets' growth factor per step */
    double limit_speed;    /* HS_SITE_CAUSE_FAST_TARGETS: the targets' own speed at the lab */
    const char *lab;       /* HS_SITE_LIMIT_LAB: the back end's kind ("udp", "shm", "driver",
                              "virtual"; static text), NULL otherwise */
} hs_site_report;

/* The likely cause of a trip, judged at the trip from the last targets (their increments) and
 * the step's states. Not kept in checkpoints (a trip ends the test). */
enum {
    HS_SITE_CAUSE_NONE = 0,           /* nothing recognised */
    HS_SITE_CAUSE_UNSTABLE = 1,       /* increments alternate in sign and grow: an explicit
                                         integrator beyond its stability limit (omega dt) */
    HS_SITE_CAUSE_GROWING = 2,        /* increments grow geometrically, same sign: diverging */
    HS_SITE_CAUSE_LATE = 3,           /* the target came after slow or hold: the catch-up */
    HS_SITE_CAUSE_FAST_TARGETS = 4,   /* the targets themselves move faster than the limit */
    HS_SITE_CAUSE_BEYOND = 5,         /* the target itself is beyond the stroke */
    HS_SITE_CAUSE_FORCE = 6,          /* the specimen's force at the command would exceed it */
    HS_SITE_CAUSE_JUMP = 7,           /* the newest target jumps: its increment alone needs more
                                         than the step or acceleration limit allows */
    HS_SITE_CAUSE_NOT_A_NUMBER = 8,   /* the command is not a number (a NaN target) */
    HS_SITE_CAUSE_MEASURED = 9,       /* a measurement beyond its limit while the command is within
                                         (a specimen or sensor failure, a slipping fixture, a
                                         controller not following its command) */
    HS_SITE_CAUSE_LAB_INTERLOCK = 10, /* the lab controller's interlock bit */
    HS_SITE_CAUSE_LAB_FAULT = 11,     /* the lab controller's fault bit */
    HS_SITE_CAUSE_LAB_WATCHDOG = 12,  /* too many replies missing in a row (labio.h) */
    HS_SITE_CAUSE_OPERATOR = 13,      /* the operator aborted (hs_site_controller_abort) */
    HS_SITE_CAUSE_NEAR_LIMIT = 14,    /* the targets' own speed is at least half the velocity or
                                         step limit: the command's path between them (predictor,
                                         corrector) peaks above it */
    HS_SITE_CAUSE_LAB_DATA = 15       /* the laboratory sent a measured value that is not a number
                                         or beyond HS_SITE_LAB_DATA_MAX: not a measurement */
};
/* The largest |value| a measured displacement or force can be, in any unit system a structural
 * laboratory uses (1e12 N is 1e9 kN); beyond it, or not a number, the laboratory's data is
 * refused, limits or not (HS_SITE_CAUSE_LAB_DATA), before it reaches the integrator. */
#define HS_SITE_LAB_DATA_MAX 1e12

/* One line for a trip: which limit, the offending value and the limit with their units, the
 * likely cause and what to do, ending "the site holds, the test stops". Units may be NULL or ""
 * (then "length", "force", "s"). At most 254 characters (a wire error sentence) for a site name
 * of up to 20 and unit names of up to 6 characters. Returns snprintf's length. */
int hs_site_limit_message(char *buf, size_t cap, const char *site, const char *actuator,
                          const hs_site_report *r, const char *length, const char *force,
                          const char *time);

typedef struct hs_site_controller hs_site_controller;

/* `lab` is lent (the caller destroys it after the controller); its actuators rest at 0. */
int hs_site_controller_create(hs_ctx *ctx, const hs_site_controller_params *p, hs_vlab *lab,
                              hs_site_controller **out);
/* The same over any laboratory back end (hysim/labio.h; lent, nact actuators at the rate). */
typedef struct hs_lab hs_lab;
int hs_site_controller_create_lab(hs_ctx *ctx, const hs_site_controller_params *p, hs_lab *lab,
                                  hs_site_controller **out);
void hs_site_controller_destroy(hs_site_controller **sc);
/* D_update: the target of `step` (actuator coordinates, nact) at simulation time t.
 * HS_ELIMIT after a trip; the generator's errors otherwise (hs_cmdgen_target). */
int hs_site_controller_target(hs_site_controller *sc, int64_t step, double t, const double *x);
/* One controller tick. Returns the events (>= 0) or a negative HS_E* code. Never allocates. */
int hs_site_controller_tick(hs_site_controller *sc);
/* Copies the outgoing measurement (buffers as in hysim/site.h) and, when r != NULL, the report;
 * clears the ready flag. HS_EINVAL when none is ready. */
int hs_site_controller_measurement(hs_site_controller *sc, hs_site_measurement *m,
                                   hs_site_report *r);
int hs_site_controller_ready(const hs_site_controller *sc);
/* The operator's abort: latched like a trip (HS_SITE_LIMIT_ABORT, cause HS_SITE_CAUSE_OPERATOR),
 * so the site holds and unloads as after any trip; the next tick reports it with a measurement.
 * No effect after a trip. Never allocates (safe from the loop thread). */
void hs_site_controller_abort(hs_site_controller *sc);
/* The coordinator's keep-alive while its operator pauses (HOLD, docs/site_server.md): restarts
 * the generator's hold timer when it holds (hs_cmdgen_hold_renew); nothing after a trip or during
 * a move between tests. Returns 1 when it restarted. Never allocates. */
int hs_site_controller_hold_renew(hs_site_controller *sc);
/* Wall s before the hold timeout would end the test (hs_cmdgen_hold_left); 0 after a trip. */
double hs_site_controller_hold_left(const hs_site_controller *sc);
/* HS_SITE_UNLOAD_*: where the unloading after a trip stands. */
int hs_site_controller_unload_state(const hs_site_controller *sc);
/* 1 when the site is at rest after a trip: unloaded, stopped at the stroke, or held for good. */
int hs_site_controller_unload_settled(const hs_site_controller *sc);
/* The limit trip (HS_SITE_LIMIT_* flags, 0 when none) and its channel. */
int hs_site_controller_tripped(const hs_site_controller *sc, int *channel);
/* The latched trip as a report (limit fields, step, tick; record zero): for a target refused
 * after the trip, so that the refusal still names the limit. */
void hs_site_controller_trip_report(const hs_site_controller *sc, hs_site_report *r);
/* Between tests (docs/site_controller.md): moves the command, which rests, to x (nact) along a
 * straight path within half of every speed, step and acceleration limit (and the unloading's
 * speed when given), overriding the generator and any unloading until it arrives; a trip on the
 * way ends the move and holds. Returns the move's duration in s (0: already at x). For the site
 * server's hand-over to a new test's laboratory, whose command starts at x. Never allocates. */
double hs_site_controller_move_to(hs_site_controller *sc, const double *x);
/* The site's first command (docs/lab_backends.md, "The site's first command"): before its first
 * tick, the controller takes x (nact), where the laboratory reports the rig rests, as its last
 * command sent (and measurement), then moves the command from there to its rest (the generator's
 * start, 0) as hs_site_controller_move_to does: within half of every speed, step and
 * acceleration limit, overriding the generator until it arrives. The first tick commands x plus
 * the move's first sample. Returns the move's duration in s (0: x is the rest, or the controller
 * has ticked already: then nothing changes). The caller checks x against the stroke first. Never
 * allocates. */
double hs_site_controller_start_at(hs_site_controller *sc, const double *x);
/* The same for a controller restored from a state file (hs_site_controller_state_load: a test
 * held while its site was down), the rig read again at x before the next tick. reach (nact, may
 * be NULL) gets each actuator's reach in one tick within half of every speed, step and
 * acceleration limit (and the unloading's speed): v / rate and a / rate^2 of the move, INFINITY
 * without any. When every actuator is within its reach of the held command (the last command
 * sent), nothing changes (returns 0): the next tick commands the held command, a change no larger
 * than one tick of a move. Otherwise x becomes the last command sent (and measurement) and the
 * command moves back to the held command within half of every limit, overriding the generator
 * until it arrives (bit for bit); then the test goes on from exactly its held state. Returns the
 * move's duration in s (0 also for a controller that has not ticked: see start_at). Never
 * allocates. */
double hs_site_controller_resume_at(hs_site_controller *sc, const double *x, double *reach);
/* 1 while a move runs (its last tick commands where it goes exactly). */
int hs_site_controller_moving(const hs_site_controller *sc);
const hs_cmdgen *hs_site_controller_cmdgen(const hs_site_controller *sc);
const double *hs_site_controller_command(const hs_site_controller *sc); /* last sent (nact) */
int64_t hs_site_controller_ticks(const hs_site_controller *sc);
int64_t hs_site_controller_lab_tick(const hs_site_controller *sc); /* the lab's own count */
hs_lab *hs_site_controller_lab(hs_site_controller *sc);
/* The controller's whole dynamic state as doubles, for checkpoints: commands, last measurement,
 * the sample ring, tick count, target bookkeeping, the outgoing measurement and report, a latched
 * trip, and its command generator's state. The laboratory and the compensators are lent and saved
 * by their owner. Load into a controller created with the same parameters (HS_EINPUT otherwise).
 * Never allocates. */
size_t hs_site_controller_state_size(const hs_site_controller *sc);
int hs_site_controller_state_save(const hs_site_controller *sc, double *out);
int hs_site_controller_state_load(hs_site_controller *sc, const double *in);

#ifdef __cplusplus
}
#endif
#endif
