/* Controlled unloading after a trip (docs/site_controller.md, "Controlled unloading"): the site
 * controller's trip holds, then ramps each command toward the zero-force position estimated from
 * the measured force and the initial stiffness, within every limit. Internal to the site
 * controller; no clock, no allocation in a tick. */
#ifndef HS_SITE_UNLOAD_H
#define HS_SITE_UNLOAD_H

#include "hysim/site_controller.h"

typedef struct hs_site_unload {
    int n, state;
    double rate;
    hs_site_unload_params p;
    double Kinv[HS_SITE_MAX_ACT * HS_SITE_MAX_ACT]; /* K0^-1, column-major */
    int has_kinv;
    double vmax[HS_SITE_MAX_ACT], amax[HS_SITE_MAX_ACT];
    double v[HS_SITE_MAX_ACT];      /* the command's velocity per actuator, length/s */
    double abrake[HS_SITE_MAX_ACT]; /* braking into the hold: the acceleration limit (inf: none) */
    double force_tol;
    int64_t hold_ticks, held; /* ticks of hold before the ramp; ticks held so far */
    int settling;             /* force below tol (or the stroke reached): braking to rest */
} hs_site_unload;

/* At creation: the parameters, K0 (or NULL) and the limits; HS_EINPUT for a bad parameter. */
int hs_site_unload_init(hs_ctx *ctx, hs_site_unload *u, const hs_site_unload_params *p, int n,
                        double rate, const double *K0, const hs_site_limits *lim);
/* At the trip: `can_move` = 0 holds for good (laboratory gone). v0 (n, length/s, or NULL: an
 * abrupt stop, as for a limit trip): the command's velocity, brought to zero at the acceleration
 * limit before the hold (an abort or an interlock while moving). */
void hs_site_unload_start(hs_site_unload *u, int can_move, const double *v0);
/* One tick after the trip: the command to send (x_cmd, n) from the last two sent and the last
 * measurement. Every command respects the limits lim[] (stroke, velocity, step, acceleration;
 * the predicted force never grows beyond the force limit). */
void hs_site_unload_tick(hs_site_unload *u, const hs_site_limits *lim, const double *x_sent,
                         const double *x_meas, const double *f_meas, double *x_cmd);

#endif
