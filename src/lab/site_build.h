/* Building a site's laboratory from its configuration (hs_site_config): the specimen (with its
 * input voltages and the relaxation wrapper), one delay compensator per actuator, the virtual
 * laboratory at the controller rate, and the site controller over it (command generator options,
 * safety limits from the actuators, initial stiffness for the force prediction and free
 * vibration). Shared by the virtual site (site_virtual.c) and the site server
 * (src/net/site_server*.c), so that both run the same laboratory for the same configuration. */
#ifndef HS_SITE_BUILD_H
#define HS_SITE_BUILD_H

#include "hysim/compensator.h"
#include "hysim/lab.h"
#include "hysim/labio.h"
#include "hysim/site.h"
#include "hysim/site_controller.h"
#include "hysim/tracking.h"

/* The parts; the controller is the caller's (it is rebuilt per integration step size). */
typedef struct hs_site_rig {
    hs_specimen *inner; /* the specimen model */
    hs_specimen *relax; /* relaxation wrapper around it, or NULL */
    hs_vlab *lab;       /* the virtual lab; NULL until hs_site_rig_lab, and for lab kind udp */
    hs_lab *io;         /* the laboratory exchange the controller drives (hysim/labio.h) */
    hs_compensator *comp[HS_SITE_MAX_ACT];
    /* with an experimental setup (c->has_setup, docs/setups.md): its geometry, and the specimen
     * seen through it (the virtual lab's specimen, one channel per setup actuator) */
    hs_setup *setup;
    hs_specimen *through;
} hs_site_rig;

/* Specimen (voltages, relaxation unless perfect) and compensators at `rate` (none when perfect
 * or not configured). *r must be zeroed; on failure the caller still calls hs_site_rig_release. */
int hs_site_rig_create(hs_ctx *ctx, const hs_site_config *c, double rate, hs_site_rig *r);
/* (Re)creates the laboratory at `rate`: the virtual one over the specimen (relaxation
 * outermost), or the back end of c->lab (udp: the specimen stays the site's model, for K0). */
int hs_site_rig_lab(hs_ctx *ctx, const hs_site_config *c, double rate, hs_site_rig *r);
/* A site controller over the rig's laboratory for steps of dt simulated seconds lasting
 * dt * time_scale wall seconds: the command generator's options from c->command_opts, the
 * actuators' stroke, velocity and force limits as safety limits, the specimen's initial
 * stiffness (when it has one) for the force prediction and free vibration. `stepwise`: the
 * command stays on each target until the next one (OpenFresco's trial-by-trial protocols;
 * hs_cmdgen_params.stepwise) instead of extrapolating. */
int hs_site_rig_controller(hs_ctx *ctx, const hs_site_config *c, hs_site_rig *r, double rate,
                           double dt, double time_scale, int stepwise, hs_site_controller **out);
/* Where the rig rests (docs/lab_backends.md, "The site's first command"), read before any
 * command: 0 with x (nact) filled; HS_ELIMIT (naming actuator, position, stroke and units) when
 * beyond an actuator's stroke or not a number; the back end's error for a real one that cannot
 * tell; 1 for the virtual lab (x 0: it rests there by construction). Shared by the site's first
 * command and the pre-tests' rest (docs/pretest.md). */
int hs_site_rig_position(hs_ctx *ctx, const hs_site_config *c, hs_site_rig *r, double *x);
/* The site's first command (docs/lab_backends.md, "The site's first command"), before the
 * controller's first tick: the rig's position from the laboratory (hs_lab_position), refused
 * (HS_ELIMIT, naming actuator, position, stroke and units) when beyond an actuator's stroke or
 * not a number, else the controller started there and moving to its rest within half of every
 * limit (hs_site_controller_start_at). A back end that cannot tell (the virtual lab; udp without
 * a fixed local port) keeps the rest 0, with a warning for a real one. Through a setup: the
 * control point's pose from the actuators' strokes (forward kinematics). For a controller
 * restored from a held test's state (it has ticked), the same read and refusal, then the command
 * holds when the rig is within one tick's reach of the held command, or moves back to it from the
 * rig within half of every limit (hs_site_controller_resume_at; docs/site_server.md, "A site
 * restarted with a held test"). */
int hs_site_rig_start(hs_ctx *ctx, const hs_site_config *c, hs_site_rig *r, hs_site_controller *sc);
/* Whether the site can unload the specimen after its hold timeout: only with `command.mass`
 * (free vibration); without it the hold timeout ends the test in place, the specimen loaded. */
int hs_site_can_unload(const hs_site_config *c);
/* How the site ended a test on its side (a hold timeout), truthfully for either case. */
const char *hs_site_ended_why(const hs_site_config *c);
/* The laboratory's state as doubles, in one order: the virtual lab (actuators, sensors,
 * specimen), the controller (with its command generator), then per actuator its compensator
 * (when present) and its tracking figures. The virtual site's checkpoint state and the site
 * server's state file (docs/site_server.md) both use it. Save and load allocate nothing. */
size_t hs_site_rig_state_size(const hs_site_rig *r, const hs_site_controller *sc,
                              hs_tracking *const *track, int nact);
int hs_site_rig_state_save(const hs_site_rig *r, const hs_site_controller *sc,
                           hs_tracking *const *track, int nact, double *out);
int hs_site_rig_state_load(hs_site_rig *r, hs_site_controller *sc, hs_tracking *const *track,
                           int nact, const double *in);
/* Destroys the lab, the compensators and the specimens (destroy the controller first). */
void hs_site_rig_release(hs_site_rig *r);

#endif
