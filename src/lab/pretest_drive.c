/* The pre-test procedures' drive: commands relative to where the rig rests, every command clamped
 * to +-stroke and to velocity_max / rate per tick before it leaves, every measured force checked
 * against force_max (pretest_impl.h). */
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

static int exchange(hs_pretest_drive *d, const double *want)
{
    const hs_pretest_lab *L = d->lab;
    for (int j = 0; j < L->nact; j++) {
        const double step = L->velocity_max[j] / L->rate;
        const double to = clamp(L->rest[j] + want[j], L->stroke[j]), dx = to - d->cmd[j];
        d->cmd[j] = step > 0.0 && fabs(dx) > step ? d->cmd[j] + copysign(step, dx) : to;
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
    /* at most stroke / (velocity_max h) ticks to come back; 1 tick without a velocity limit */
    for (int guard = 0; guard < 100000000; guard++) {
        int moving = 0;
        for (int j = 0; j < L->nact; j++) moving |= d->cmd[j] != L->rest[j];
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
