/* Moving a site's command from where it rests to where the next test starts, within every limit
 * (docs/site_controller.md, "Between tests"): one straight path in actuator space, travelled along
 * a trapezoidal velocity profile that starts and ends at rest. Internal to the site controller;
 * no clock, no allocation in a tick. */
#ifndef HS_SITE_MOVE_H
#define HS_SITE_MOVE_H

#include "hysim/site_controller.h"

typedef struct hs_site_move {
    int n, active;
    double rate;
    double from[HS_SITE_MAX_ACT], to[HS_SITE_MAX_ACT];
    double V, A;      /* the path parameter's speed and acceleration limits, 1/s and 1/s^2 */
    double ta, tc, T; /* s: accelerating, coasting, the whole move */
    int64_t k;        /* ticks into the move */
} hs_site_move;

/* Plans the move from `from` (at rest) to `to` for n actuators at `rate`: the path parameter's
 * speed and acceleration are chosen so that every actuator stays within half its velocity limit,
 * half its step limit per tick and half its acceleration limit (0 = none), and within the
 * unloading's `vel` and `acc` when they are given (the speed the site moves a loaded specimen at;
 * acc defaults to reaching vel in 0.1 s). Without any speed or acceleration limit the move takes
 * one tick. Returns the move's duration in s (0: already there). */
double hs_site_move_plan(hs_site_move *m, int n, double rate, const hs_site_limits *lim,
                         const hs_site_unload_params *p, const double *from, const double *to);
/* A move's reach in one tick (n): the largest change of actuator j's command, from rest, that
 * keeps it within the speeds and accelerations a move keeps (v/rate and a/rate^2 of
 * hs_site_move_plan's v and a: within half of every limit); INFINITY without any of them. A rig
 * that far from where the command should be may be commanded there in one tick. */
void hs_site_move_reach(int n, double rate, const hs_site_limits *lim,
                        const hs_site_unload_params *p, double *reach);
/* One tick of the move: writes the command (n); returns 1 on the move's ticks (the last one
 * commands `to` bit for bit and ends the move), 0 after it (the command `to`). */
int hs_site_move_tick(hs_site_move *m, double *x_cmd);

#endif
