/* The pre-test procedures' common drive (pretest_drive.c): commands clamped to the actuators'
 * stroke, ramped within their velocity (step) and acceleration limits, the force watched, and a
 * return to the rest at the end or on a trip. */
#ifndef HS_PRETEST_IMPL_H
#define HS_PRETEST_IMPL_H

#include "hysim/pretest.h"

typedef struct hs_pretest_drive {
    hs_ctx *ctx;
    const hs_pretest_lab *lab;
    double cmd[HS_PRETEST_MAX_ACT];                      /* last command sent */
    double v[HS_PRETEST_MAX_ACT];                        /* its change at the last tick */
    double x[HS_PRETEST_MAX_ACT], f[HS_PRETEST_MAX_ACT]; /* last measurements */
    int64_t ticks;
} hs_pretest_drive;

/* Checks the lab description and its rest (within the stroke: HS_ELIMIT naming the actuator);
 * the last command sent is the rest. */
int hs_pretest_drive_begin(hs_ctx *ctx, const hs_pretest_lab *lab, hs_pretest_drive *d);
/* One tick toward rest + cmd (nact), clamped to the stroke; the command follows it within the
 * velocity, step and acceleration limits (pretest_drive.c, follow); HS_ELIMIT (after returning to
 * the rest) when a measured force passes its limit, with the channel, value and limit in the
 * message. d->cmd is the command sent (absolute), d->x and d->f the measurements (absolute). */
int hs_pretest_drive_tick(hs_pretest_drive *d, const double *cmd);
/* Ramps every command back to the rest within the velocity and acceleration limits (arriving at
 * rest: no change at the last tick), then `settle` s there. */
int hs_pretest_drive_home(hs_pretest_drive *d, double settle);

#endif
