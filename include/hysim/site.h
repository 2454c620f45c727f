/* hysim sites: where experimental substructures live. The coordinator talks to every site through
 * this interface only: send a target (actuator coordinates, step, simulation time), obtain the
 * measurement when the target is reached (displacement and force per actuator, time stamp, the
 * recent samples that force estimation needs), commit. Kinds: "virtual" (an in-process virtual
 * laboratory, src/lab/site_virtual.c); "remote" (a site reached over the network: the native
 * protocol at hysim://HOST:PORT, or an OpenFresco server at openfresco-a:// or openfresco-b://,
 * src/net/site_remote.c and site_openfresco.c). Kinds that live outside the lab layer join the
 * table of kinds in src/coord/site_kinds.c, beside "remote" (the
 * coordinator calls it before it builds its sites). */
#ifndef HYSIM_SITE_H
#define HYSIM_SITE_H

#include "hysim/base.h"
#include "hysim/experiment.h"
#include "hysim/lab.h"
#include "hysim/labio.h"
#include "hysim/nees.h"
#include "hysim/options.h"
#include "hysim/setup.h"
#include "hysim/shm_lab.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HS_SITE_MAX_ACT 16

/* A site's configuration, as the test file states it (docs/testfile.md, `sites`). */
typedef struct hs_site_config {
    char name[64];
    char kind[16]; /* "virtual" | "remote" */
    int nact;
    char actuator_names[HS_SITE_MAX_ACT][32];
    double rate; /* controller ticks per second (default 1024) */
    int perfect; /* no delay, no noise, no relaxation */
    uint64_t seed;
    hs_actuator_params actuator[HS_SITE_MAX_ACT];
    double schedule[HS_SITE_MAX_ACT][16]; /* storage for actuator[i].schedule (t, a pairs) */
    /* the site controller's own limits on the command beyond stroke, velocity and force (which
     * live in actuator[i]); 0: none. acceleration_limit: |x_c(k) - 2 x_c(k-1) + x_c(k-2)| rate^2;
     * step_limit: |x_c(k) - x_c(k-1)|, the largest step per tick (hysim/site_controller.h) */
    double acceleration_limit[HS_SITE_MAX_ACT], step_limit[HS_SITE_MAX_ACT];
    hs_sensor_params displacement, force; /* the site's sensors (all channels) */
    char specimen_type[32];
    hs_options *specimen_opts;       /* owned by the test definition */
    hs_options *relaxation_opts;     /* NULL: no relaxation */
    double voltage[HS_SITE_MAX_ACT]; /* specimen inputs (mr_damper command voltage) */
    int has_voltage;
    double time_scale; /* wall seconds per simulated second (1 = real time) */
    /* The site controller (all owned by the test definition, NULL for defaults):
     *  command: the command generator's options (order, extrapolate, slow, slow_factor,
     *           blend, hold_timeout, zeta, mass, ...: see include/hysim/cmdgen.h);
     *  compensation: {type: none|polynomial|inverse|adaptive_inverse, ...} (compensator.h),
     *           the same for every actuator;
     *  link: the network between the coordinator and this site in virtual time ({delay, loss,
     *           rto, max_retries, outages}: include/hysim/link.h), both directions alike. */
    hs_options *command_opts;
    hs_options *compensation_opts;
    hs_options *link_opts;
    /* remote sites: where (hysim://HOST:PORT, openfresco-a://HOST:PORT, openfresco-b://...),
     * the key file shared with a native site, plain mode (no key: explicit opt-in, both ends),
     * the seconds to wait for a measurement (analysis.site_timeout; 0: 60) and the least
     * controller rate the test needs (the file's `rate` when given, 0: any) */
    char url[256], key[256];
    int plain;
    double timeout;
    double need_rate;
    /* openfresco-b:// only: the session also carries the actuators' velocities (sizeCtrl
     * [n, n, 0, 0, 1], sizeDaq [n, n, 0, n, 0]; hs_site_set_velocity), for a ShadowSite whose
     * setup is on the client side and whose server drives its control directly (an ActorSite
     * -control: OpenFresco's SimUniaxialMaterials control takes displacements and velocities) */
    int ofr_velocity;
    /* the NEES ASCII protocol (hysim/nees.h): control points of a nees:// site, or of a site
     * server's NEES port (given: the `nees` section was written) */
    hs_nees_config nees;
    /* the test's unit names for messages (a limit trip); empty: "length units" and so on */
    char units_length[16], units_force[16], units_time[16];
    /* rehearsal (docs/pretest.md): the site file describing a remote site's laboratory
     * (`twin: SITE.yaml`), a pre-test result updating the twin (`pretest: FILE.json`; both
     * resolved against the test file's folder, empty when not given), and 1 once this
     * configuration is a virtual twin standing in for the site (hysim run --rehearse) */
    char twin[256], pretest[256];
    int rehearsal;
    /* the laboratory back end of a site server (site file `lab`, docs/lab_backends.md):
     * kind "virtual" (default, also when empty), "udp", "shm" or "driver" with its configuration */
    struct {
        char kind[16];
        hs_lab_udp_config udp;
        hs_lab_shm_config shm;
        struct {
            char path[256], options[256];
        } driver; /* kind "driver": the library (resolved) and its open's options */
    } lab;
    /* an experimental setup (site file `setup`, docs/setups.md): the `actuators` above are then
     * the control point's DOFs the coordinator commands (with the site's limits on each), and
     * the setup's own actuators, with their pins, dynamics and limits, move the platform; the
     * laboratory has one channel per setup actuator. has_setup 0: none. */
    int has_setup;
    hs_setup_geometry setup;
    char setup_names[HS_SITE_MAX_ACT][32];
    hs_actuator_params setup_actuator[HS_SITE_MAX_ACT];
    hs_setup_limits setup_limits[HS_SITE_MAX_ACT];
} hs_site_config;

/* What a site answers for one target. Buffers are the caller's, sized nact and
 * HS_EXP_HISTORY * nact. */
typedef struct hs_site_measurement {
    double t;      /* simulation time at which the target was reached */
    double *x, *f; /* measured displacement and force */
    int nhist;     /* samples in the history (<= HS_EXP_HISTORY), oldest first */
    double *hist_t, *hist_x, *hist_f;
    int flags;   /* HS_ACT_LIMIT_* seen during the step */
    int ticks;   /* controller ticks the step took */
    double wall; /* the test clock's time (s) when the target was reached */
    /* the site controller's record of the step (0 for sites without one) */
    int states;   /* bit (1 << hs_cmdgen_state) of every state visited in the step */
    double delay; /* s from the previous D_target to this step's D_update */
    double te[HS_SITE_MAX_ACT], ti[HS_SITE_MAX_ACT]; /* tracking error and TI per actuator */
} hs_site_measurement;

typedef struct hs_site hs_site;

/* A site kind's constructor: fills the new site's ops and data (src/lab/site_impl.h). */
typedef int (*hs_site_kind_fn)(hs_site *s);
int hs_site_kind_virtual(hs_site *s); /* "virtual": src/lab/site_virtual.c */
int hs_site_kind_remote(hs_site *s);  /* "remote": src/net/site_remote.c (URL scheme: protocol) */
/* A site of the given kind's constructor (cfg is copied; its option pointers are lent). */
int hs_site_create_kind(hs_ctx *ctx, const hs_site_config *cfg, hs_site_kind_fn create,
                        hs_site **out);

/* A site of cfg->kind, from the constant table of kinds (src/coord/site_kinds.c: the layer that
 * sees both the lab and the network). cfg is copied (its option pointers are lent). */
int hs_site_create(hs_ctx *ctx, const hs_site_config *cfg, hs_site **out);
void hs_site_destroy(hs_site **s);
/* Prepares a test with integration step dt (simulation seconds). */
int hs_site_setup(hs_site *s, double dt);
/* `wall`: the time on the test's clock (s) at which the target reaches the site: in virtual time
 * the link's delivery time (the site's controller ticks on until then); a real site stamps its
 * own clock instead. */
int hs_site_send_target(hs_site *s, int64_t step, double t, const double *x, double wall);
int hs_site_get_measurement(hs_site *s, hs_site_measurement *m);
int hs_site_commit(hs_site *s, int64_t step);
/* The test has ended on the coordinator's side (completed, or unstable): a remote site is told
 * (BYE) and lets its test go. Not called for an aborted run: the sites keep holding their tests
 * for `hysim run --resume` (destroying a site closes its connection without BYE). */
void hs_site_end(hs_site *s);

/* What a site reports at the end of a test: Mosqueda et al.'s (2004) Table 1 row (command
 * generator) and Chen and Ricles' (2010) tracking figures per actuator. */
typedef struct hs_site_summary {
    int64_t steps;
    double max_delay;  /* s from a D_target to the next D_update, largest */
    double total_time; /* s of the test on the site's clock */
    double pct_slow, pct_hold;
    int64_t
        state_ticks[8]; /* ticks in extrapolate, interpolate, slow, hold, free_vibration, done */
    int limit_flags;    /* HS_ACT_LIMIT_* and HS_SITE_LIMIT_* seen */
    int ended;          /* 1 when the site ended the test on its side (hold timeout) */
    int nact;
    double mte[HS_SITE_MAX_ACT], rms[HS_SITE_MAX_ACT], ti_peak[HS_SITE_MAX_ACT];
    double a_es[HS_SITE_MAX_ACT]; /* the compensator's final estimate (1: none; NaN: unknown) */
    /* resumed runs (remote sites): how many resumes, and the largest outage, i.e. the delay of
     * the first new step after a resume (kept out of max_delay: it is not the network's) */
    int64_t resumes;
    double max_outage;
    /* the command generator's TimeOut limits: s after a D_target at which a step without its
     * D_update enters slow and hold (Mosqueda et al. 2004, Fig. 8's dashed lines); 0 without a
     * generator */
    double slow_after, hold_after;
    /* sites with an in-process laboratory: per actuator the tick-level peaks of |command sent|,
     * |actuator velocity| and |force| (the lab's true values) and the limits they run against
     * (stroke, velocity_limit, force_limit; 0 = none); `rehearsal` when the site is a virtual
     * twin (hysim run --rehearse) */
    int has_peaks, rehearsal;
    double peak_cmd[HS_SITE_MAX_ACT], peak_vel[HS_SITE_MAX_ACT], peak_force[HS_SITE_MAX_ACT];
    double stroke[HS_SITE_MAX_ACT], velocity_max[HS_SITE_MAX_ACT], force_max[HS_SITE_MAX_ACT];
} hs_site_summary;
int hs_site_summary_get(const hs_site *s, hs_site_summary *out);
int hs_site_nact(const hs_site *s);
const char *hs_site_name(const hs_site *s);
/* The name of actuator j (0-based) as the site's configuration gives it ("" out of range). */
const char *hs_site_actuator_name(const hs_site *s, int j);
/* The longest wall time (s) the coordinator waits for a measurement of this site: `usual` (the
 * test's site_timeout) unless the site's protocol is known to take longer (a NEES lab answers
 * execute after its motion: nees.execute_timeout). */
double hs_site_wait_limit(const hs_site *s, double usual);
/* Initial stiffness in actuator coordinates (nact x nact), from the specimen's model when the
 * site knows it; HS_EUNSUPPORTED otherwise. */
int hs_site_initial_stiffness(const hs_site *s, double *K);
/* The interface stiffness the coordinator assumes for the site (nact x nact, column-major,
 * actuator coordinates: the experimental elements' initial stiffness, zero between channels of
 * different elements). A site that corrects its measured force to the commanded displacement
 * uses it (opensees-adapter://, docs/opensees_adapter.md); the others ignore it (returns 0). */
int hs_site_set_stiffness(hs_site *s, const double *K);
/* The actuators' velocities (nact) sent with the next target by a site whose protocol carries
 * them (openfresco-b:// with ofr_velocity); the others ignore them (returns 0). */
int hs_site_set_velocity(hs_site *s, const double *v);
/* The virtual laboratory behind a virtual site (lent), NULL for other kinds. */
hs_vlab *hs_site_vlab(hs_site *s);

/* The site's state as doubles, for the coordinator's checkpoints (docs/checkpoints.md): a virtual
 * site saves its whole laboratory and controller (0 doubles for kinds whose state lives
 * elsewhere). Load into a site created from the same configuration and set up with the same dt. */
size_t hs_site_state_size(const hs_site *s);
int hs_site_state_save(const hs_site *s, double *out);
int hs_site_state_load(hs_site *s, const double *in);
/* Resuming a test from a checkpoint: `step` is the coordinator's last committed step (steps done)
 * and x_held (nact, actuator coordinates) the target it last sent this site. A virtual site, its
 * state loaded, checks that it stands exactly there; a remote site (with the distributed issue)
 * reconnects, sends RESUME and checks the RESUME_ACK's step and held displacement. HS_EPROTO when
 * the site is elsewhere, HS_EUNSUPPORTED for a kind that cannot resume. */
int hs_site_resume(hs_site *s, int64_t step, const double *x_held);
/* The coordinator is between steps and stays there a while (an operator's pause, docs/monitor.md):
 * a remote site keeps its connection alive (a native site sends a heartbeat when one is due), so
 * that the site holds instead of declaring the coordinator lost. 0 for kinds with nothing to do. */
int hs_site_idle(hs_site *s);
/* How the site's hold stands while the coordinator pauses (docs/monitor.md, "A pause longer than
 * a hold_timeout"); *left gets the wall s before the site's hold would end if nothing more
 * reached it from now (INFINITY: never; NAN: unknown). */
enum {
    HS_SITE_HOLD_UNKNOWN = 0, /* a site that cannot be kept (an older hysim site, OpenFresco,
                                 NEES: its own hold_timeout applies), or no answer yet */
    HS_SITE_HOLD_KEPT = 1,    /* the site answers the keep-alive (HOLD) */
    HS_SITE_HOLD_LAPSING = 2, /* its answers stopped: its hold runs out in *left s */
    HS_SITE_HOLD_UNTIMED = 3, /* nothing times out (an in-process site; hold_timeout 0) */
    HS_SITE_HOLD_ENDED = 4    /* the site has ended its hold (free vibration, done) */
};
int hs_site_hold(const hs_site *s, double *left);
/* The run stopped before its end (an operator's abort, a lost peer, a trip): the site is told why
 * before the connection closes, so that its log says so; the site keeps the test held for a
 * resume, as on any abort. A native site sends ERROR (HS_EABORTED, `why`); other kinds do
 * nothing. */
void hs_site_leave(hs_site *s, const char *why);

#ifdef __cplusplus
}
#endif
#endif
