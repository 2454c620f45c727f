/* A laboratory in a control point's DOFs over a laboratory of a setup's actuators
 * (include/hysim/setup.h, docs/setups.md). The site controller sees the control DOFs, with the
 * site's own limits on each; this wrapper keeps every physical actuator within its stroke,
 * velocity and acceleration limits: a stroke that would cross one is never sent. The actuators
 * then brake together (one common factor per tick keeps the platform's pose consistent) and hold,
 * and the fault bit holds the site. Allocates at creation only. */
#include "hysim/labio.h"
#include "hysim/setup.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct through_lab {
    hs_lab *inner;
    const hs_setup *setup;
    int nact, ndof;
    double rate;
    hs_setup_limits lim[HS_SETUP_MAX_ACT];
    double s[HS_SETUP_MAX_ACT], s_prev[HS_SETUP_MAX_ACT]; /* strokes sent, last and before */
    double want[HS_SETUP_MAX_ACT];                        /* this tick's strokes */
    double xa[HS_SETUP_MAX_ACT], fa[HS_SETUP_MAX_ACT];    /* measured strokes and forces */
    double q[6];                                          /* measured pose (warm start) */
    double q_true[6], x_true[6], f_true[6];
    int tripped; /* an actuator limit: braking, then holding, fault from then on */
    char alarm[256];
} through_lab;

/* Whether strokes `x` may follow s and s_prev; on a violation names it in the alarm. */
static int within_limits(through_lab *w, const double *x)
{
    for (int i = 0; i < w->nact; i++) {
        const hs_setup_limits *l = &w->lim[i];
        const double d = x[i] - w->s[i], dd = d - (w->s[i] - w->s_prev[i]);
        const char *what = NULL;
        double value = 0.0, bound = 0.0;
        if (!isfinite(x[i])) {
            what = "stroke (not a number)";
            value = x[i];
        } else if (l->stroke > 0.0 && fabs(x[i]) > l->stroke) {
            what = "stroke", value = x[i], bound = l->stroke;
        } else if (l->vel > 0.0 && fabs(d) * w->rate > l->vel) {
            what = "velocity", value = d * w->rate, bound = l->vel;
        } else if (l->acc > 0.0 && fabs(dd) * w->rate * w->rate > l->acc) {
            what = "acceleration", value = dd * w->rate * w->rate, bound = l->acc;
        }
        if (what && !isfinite(x[i])) {
            snprintf(w->alarm, sizeof w->alarm,
                     "setup actuator %d: its stroke would not be a number (a command of the "
                     "control point is not a number); the command was not sent, the actuators "
                     "braked and hold",
                     i + 1);
            return 0;
        }
        if (what) {
            snprintf(w->alarm, sizeof w->alarm,
                     "setup actuator %d: its %s would be %.6g against the limit %.6g; the command "
                     "was not sent, the actuators braked and hold (check the setup's geometry and "
                     "the targets near the workspace's edge)",
                     i + 1, what, value, bound);
            return 0;
        }
    }
    return 1;
}

/* The braking strokes: the last increment scaled by one common factor, reduced as fast as the
 * tightest acceleration limit allows (at once without one), never beyond a stroke. */
static void brake(through_lab *w, double *x)
{
    double keep = 0.0; /* the fraction of the last increment kept this tick */
    double margin = INFINITY;
    for (int i = 0; i < w->nact; i++) {
        const double d = fabs(w->s[i] - w->s_prev[i]);
        if (d > 0.0 && w->lim[i].acc > 0.0)
            margin = fmin(margin, w->lim[i].acc / (w->rate * w->rate * d));
        else if (d > 0.0)
            margin = 0.0;
    }
    if (isfinite(margin)) keep = fmax(0.0, 1.0 - margin);
    for (int i = 0; i < w->nact; i++) {
        x[i] = w->s[i] + keep * (w->s[i] - w->s_prev[i]);
        if (w->lim[i].stroke > 0.0) x[i] = fmax(-w->lim[i].stroke, fmin(w->lim[i].stroke, x[i]));
    }
}

static int t_exchange(void *self, const double *cmd, hs_lab_input *in)
{
    through_lab *w = self;
    if (!w->tripped) {
        hs_setup_strokes(w->setup, cmd, w->want);
        if (!within_limits(w, w->want)) w->tripped = 1;
    }
    if (w->tripped) brake(w, w->want);
    memcpy(w->s_prev, w->s, sizeof w->s);
    memcpy(w->s, w->want, sizeof w->s);
    hs_lab_input li = {.x = w->xa, .f = w->fa};
    const int rc = hs_lab_exchange(w->inner, w->s, &li);
    in->status = li.status;
    in->ctrl_tick = li.ctrl_tick;
    in->missing = li.missing;
    in->missing_max = li.missing_max;
    if (rc) return rc;
    if (hs_setup_pose(w->setup, w->xa, w->q) != 0) {
        if (!w->tripped)
            snprintf(w->alarm, sizeof w->alarm,
                     "setup: the measured strokes reach no pose of the control point (a "
                     "transducer or the setup's geometry is wrong); the actuators hold");
        w->tripped = 1;
    }
    memcpy(in->x, w->q, sizeof(double) * (size_t)w->ndof);
    hs_setup_forces(w->setup, w->q, w->fa, in->f);
    if (w->tripped) in->status |= HS_LAB_ST_FAULT;
    return 0;
}

static int t_flags(void *self, int channel)
{
    through_lab *w = self;
    (void)channel; /* every control DOF moves with every actuator */
    int f = 0;
    for (int i = 0; i < w->nact; i++) f |= hs_lab_actuator_flags(w->inner, i);
    return f;
}

static const double *t_x(void *self)
{
    through_lab *w = self;
    const double *xa = hs_lab_true_displacement(w->inner);
    memcpy(w->q_true, w->q, sizeof w->q_true);
    if (xa) hs_setup_pose(w->setup, xa, w->q_true);
    memcpy(w->x_true, w->q_true, sizeof w->x_true);
    return w->x_true;
}

static const double *t_f(void *self)
{
    through_lab *w = self;
    const double *fa = hs_lab_true_force(w->inner);
    t_x(self);
    if (fa) hs_setup_forces(w->setup, w->q_true, fa, w->f_true);
    return w->f_true;
}

static const char *t_alarm(void *self)
{
    through_lab *w = self;
    return w->tripped ? w->alarm : hs_lab_alarm(w->inner);
}

/* The control point's pose before the first command, from the strokes the inner laboratory
 * reports (forward kinematics); the strokes are also taken as the last ones sent, so that the
 * first command's strokes are checked against where the actuators stand, not against 0. */
static int t_position(void *self, hs_ctx *ctx, double *x)
{
    through_lab *w = self;
    double xa[HS_SETUP_MAX_ACT];
    const int rc = hs_lab_position(ctx, w->inner, xa);
    if (rc) return rc;
    for (int i = 0; i < w->nact; i++)
        if (!isfinite(xa[i]) || (w->lim[i].stroke > 0.0 && fabs(xa[i]) > w->lim[i].stroke))
            return hs_fail(ctx, HS_ELIMIT,
                           "setup actuator %d rests at a stroke of %g, beyond its limit %g (the "
                           "test's length units): the site will not command it; bring it within "
                           "its stroke at the laboratory's own controller, then start the site",
                           i + 1, xa[i], w->lim[i].stroke);
    memset(w->q, 0, sizeof w->q);
    if (hs_setup_pose(w->setup, xa, w->q) != 0)
        return hs_fail(ctx, HS_EINPUT,
                       "setup: the strokes the laboratory reports before its first command reach "
                       "no pose of the control point (a transducer or the setup's geometry is "
                       "wrong): check them, then start the site");
    memcpy(w->s, xa, sizeof(double) * (size_t)w->nact);
    memcpy(w->s_prev, xa, sizeof(double) * (size_t)w->nact);
    memcpy(w->xa, xa, sizeof(double) * (size_t)w->nact);
    memcpy(x, w->q, sizeof(double) * (size_t)w->ndof);
    return 0;
}

static void t_destroy(void *self)
{
    through_lab *w = self;
    hs_lab_destroy(&w->inner);
    hs_free(w);
}

static const hs_lab_ops setup_ops = {.kind = "setup",
                                     .exchange = t_exchange,
                                     .actuator_flags = t_flags,
                                     .true_displacement = t_x,
                                     .true_force = t_f,
                                     .alarm = t_alarm,
                                     .position = t_position,
                                     .destroy = t_destroy};

int hs_lab_setup_create(hs_ctx *ctx, hs_lab *inner, const hs_setup *setup,
                        const hs_setup_limits *limits, hs_lab **out)
{
    *out = NULL;
    if (hs_lab_nact(inner) != hs_setup_nact(setup))
        return hs_fail(ctx, HS_EINPUT,
                       "setup: the laboratory has %d actuators, the setup %d; declare one "
                       "laboratory channel per setup actuator",
                       hs_lab_nact(inner), hs_setup_nact(setup));
    through_lab *w = hs_calloc(1, sizeof *w);
    if (!w) return HS_ENOMEM;
    w->inner = inner;
    w->setup = setup;
    w->nact = hs_setup_nact(setup);
    w->ndof = hs_setup_ndof(setup);
    w->rate = hs_lab_rate(inner);
    if (limits) memcpy(w->lim, limits, sizeof(hs_setup_limits) * (size_t)w->nact);
    const int rc = hs_lab_create(ctx, &setup_ops, w, w->ndof, w->rate, out);
    if (rc) {
        w->inner = NULL; /* the caller keeps it on failure */
        t_destroy(w);
    }
    return rc;
}

const double *hs_lab_setup_strokes(hs_lab *lab)
{
    if (strcmp(hs_lab_kind(lab), "setup") != 0) return NULL;
    const through_lab *w = hs_lab_self(lab);
    return w->s;
}
