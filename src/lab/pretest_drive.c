/* The pre-test procedures' drive: commands relative to where the rig rests, every command clamped
 * to +-stroke and ramped within velocity_max / rate (and the step limit) per tick and the
 * acceleration limit before it leaves, every measured force checked against force_max
 * (pretest_impl.h). */
#include "pretest_impl.h"

#include <math.h>
#include <string.h>

int hs_pretest_drive_begin(hs_ctx *ctx, const hs_pretest_lab *lab, hs_pretest_drive *d)
{
    if (!lab || !lab->exchange || !d) return hs_fail(ctx, HS_EINVAL, "pretest: no laboratory");
    if (lab->nact < 1 || lab->nact > HS_PRETEST_MAX_ACT)
        return hs_fail(ctx, HS_EINPUT, "pretest: %d actuators (1 to %d)", lab->nact,
                       HS_PRETEST_MAX_ACT);
    if (!(lab->rate >= 1.0 && isfinite(lab->rate)))
        return hs_fail(ctx, HS_EINPUT, "pretest: controller rate %g Hz (must be >= 1)", lab->rate);
    for (int j = 0; j < lab->nact; j++)
        if (!isfinite(lab->rest[j]) ||
            (lab->stroke[j] > 0.0 && !(fabs(lab->rest[j]) <= lab->stroke[j])))
            return hs_fail(ctx, HS_ELIMIT,
                           "pretest: actuator %d rests at %g, beyond its stroke %g: nothing is "
                           "commanded; bring the rig within the stroke at the laboratory's own "
                           "controller first",
                           j + 1, lab->rest[j], lab->stroke[j]);
    memset(d, 0, sizeof *d);
    d->ctx = ctx;
    d->lab = lab;
    memcpy(d->cmd, lab->rest, (size_t)lab->nact * sizeof(double)); /* the first command is it */
    return 0;
}

static double clamp(double v, double lim)
{
    return lim > 0.0 ? fmin(fmax(v, -lim), lim) : v;
}

/* One tick of a command at `cmd` that changed by *v at the last tick, toward `to`: the change of
 * this tick stays within +-V (the speed per tick) and within A of *v (the acceleration per tick
 * squared), lands on `to` when that is reachable, and otherwise goes toward it no faster than it
 * can still brake: moving s now leaves |to - cmd| - s, and braking from s by A per tick covers
 * s^2 / (2 A) - s / 2, so s <= A (sqrt(1/4 + 2 |to - cmd| / A) - 1/2). A trapezoidal (or
 * triangular) velocity profile, as a move between tests (site_move.c), that also follows a
 * moving target (the stiffness sines). Infinite V and A: the old rule (one velocity step). */
static double follow(double cmd, double *v, double to, double V, double A)
{
    const double dx = to - cmd;
    const double lo = fmax(*v - A, -V), hi = fmin(*v + A, V);
    if (dx >= lo && dx <= hi) { /* lands: `to` bit for bit */
        *v = dx;
        return to;
    }
    const double brake = isfinite(A) ? A * (sqrt(0.25 + 2.0 * fabs(dx) / A) - 0.5) : INFINITY;
    *v = fmin(fmax(copysign(fmin(V, brake), dx), lo), hi);
    return cmd + *v;
}

/* Actuator j's limits per tick: the speed V (velocity limit / rate, or the step limit) and the
 * acceleration A (limit / rate^2; without one, the velocity limit reached in 0.1 s) */
static void per_tick(const hs_pretest_lab *L, int j, double *V, double *A)
{
    const double vel = L->velocity_max[j], h = 1.0 / L->rate;
    *V = vel > 0.0 ? vel * h : INFINITY;
    if (L->step_max[j] > 0.0) *V = fmin(*V, L->step_max[j]);
    const double acc = L->acceleration_max[j] > 0.0 ? L->acceleration_max[j]
                       : vel > 0.0                  ? vel / 0.1
                                                    : INFINITY;
    *A = acc * h * h;
}

static int exchange(hs_pretest_drive *d, const double *want)
{
    const hs_pretest_lab *L = d->lab;
    for (int j = 0; j < L->nact; j++) {
        double V, A;
        per_tick(L, j, &V, &A);
        const double to = clamp(L->rest[j] + want[j], L->stroke[j]);
        /* the stroke wins over the acceleration should a ramp overshoot a target at the stroke;
         * the change kept is the one sent */
        const double was = d->cmd[j];
        d->cmd[j] = clamp(follow(was, &d->v[j], to, V, A), L->stroke[j]);
        d->v[j] = d->cmd[j] - was;
    }
    const int rc = L->exchange(L->user, d->cmd, d->x, d->f);
    if (rc)
        return hs_fail(d->ctx, rc, "pretest: tick %lld: %s", (long long)d->ticks + 1,
                       hs_ctx_message(d->ctx));
    d->ticks++;
    return 0;
}

int hs_pretest_drive_home(hs_pretest_drive *d, double settle)
{
    const hs_pretest_lab *L = d->lab;
    const double zero[HS_PRETEST_MAX_ACT] = {0};
    /* at most about stroke / (velocity_max h) ticks to come back; 1 without any limit */
    for (int guard = 0; guard < 100000000; guard++) {
        int moving = 0;
        for (int j = 0; j < L->nact; j++) moving |= d->cmd[j] != L->rest[j] || d->v[j] != 0.0;
        if (!moving) break;
        int rc = exchange(d, zero);
        if (rc) return rc;
    }
    const int64_t n = (int64_t)ceil(settle * L->rate);
    for (int64_t k = 0; k < n; k++) {
        int rc = exchange(d, zero);
        if (rc) return rc;
    }
    return 0;
}

int hs_pretest_drive_tick(hs_pretest_drive *d, const double *cmd)
{
    int rc = exchange(d, cmd);
    if (rc) return rc;
    const hs_pretest_lab *L = d->lab;
    for (int j = 0; j < L->nact; j++)
        if (L->force_max[j] > 0.0 && !(fabs(d->f[j]) <= L->force_max[j])) {
            const double f = d->f[j];
            const int64_t at = d->ticks;
            hs_pretest_drive_home(d, 0.25);
            return hs_fail(d->ctx, HS_ELIMIT,
                           "pretest: actuator %d: measured force %g beyond its force limit %g at "
                           "tick %lld (command %g): stopped and returned to its rest; use a "
                           "smaller amplitude",
                           j + 1, f, L->force_max[j], (long long)at, d->cmd[j]);
        }
    return 0;
}
