/* Controlled unloading after a trip (site_unload.h, docs/site_controller.md): hold, then ramp each
 * command toward the zero-force position x0 = x_m - K0^-1 f_m at a bounded speed and
 * acceleration, braking in time for x0 and for the stroke, and come to rest once the measured
 * forces are below the tolerance. Every command it writes respects the site's limits by
 * construction: its velocity changes by at most amax / rate a tick (amax <= acc / 2), stays within
 * vmax (<= vel / 2, <= step rate / 2), and |x| + v^2 / (2 amax) <= stroke holds at every tick, so
 * braking at amax always stops inside the stroke. */
#include "site_unload.h"

#include "hysim/linalg.h"

#include <math.h>
#include <string.h>

#define HS_UNLOAD_RAMP_TIME 0.1 /* s to reach vel when acc is not given */
#define HS_UNLOAD_REL_TOL   0.01

int hs_site_unload_init(hs_ctx *ctx, hs_site_unload *u, const hs_site_unload_params *p, int n,
                        double rate, const double *K0, const hs_site_limits *lim)
{
    memset(u, 0, sizeof *u);
    if (!(p->after >= 0.0 && p->after < 1e6) || !(p->vel >= 0.0 && isfinite(p->vel)) ||
        !(p->acc >= 0.0 && isfinite(p->acc)) || !(p->force_tol >= 0.0 && isfinite(p->force_tol)))
        return hs_fail(ctx, HS_EINPUT,
                       "site controller: unload: after, velocity, acceleration and force_tol must "
                       "be finite and >= 0 (got %g s, %g, %g, %g)",
                       p->after, p->vel, p->acc, p->force_tol);
    u->n = n;
    u->rate = rate;
    u->p = *p;
    u->hold_ticks = (int64_t)llround(p->after * rate);
    if (u->hold_ticks < 1) u->hold_ticks = 1;
    for (int j = 0; j < n; j++) {
        double v = p->vel, a = p->acc > 0.0 ? p->acc : p->vel / HS_UNLOAD_RAMP_TIME;
        if (lim && lim[j].vel > 0.0) v = fmin(v, 0.5 * lim[j].vel);
        if (lim && lim[j].step > 0.0) v = fmin(v, 0.5 * lim[j].step * rate);
        if (lim && lim[j].acc > 0.0) a = fmin(a, 0.5 * lim[j].acc);
        u->vmax[j] = v;
        u->amax[j] = a;
        u->abrake[j] = lim && lim[j].acc > 0.0 ? lim[j].acc : INFINITY;
    }
    if (K0 && p->vel > 0.0) {
        memcpy(u->Kinv, K0, (size_t)n * (size_t)n * sizeof(double));
        u->has_kinv = hs_mat_inverse(ctx, n, u->Kinv) == 0;
        if (!u->has_kinv) hs_ctx_clear(ctx); /* a singular K0: the site holds after a trip */
    }
    return 0;
}

void hs_site_unload_start(hs_site_unload *u, int can_move, const double *v0)
{
    const int ramp = can_move && u->p.vel > 0.0 && u->has_kinv;
    u->state = ramp ? HS_SITE_UNLOAD_HOLD : HS_SITE_UNLOAD_HELD;
    u->held = 0;
    u->settling = 0;
    for (int j = 0; j < u->n; j++) u->v[j] = v0 && isfinite(v0[j]) ? v0[j] : 0.0;
}

static double clamp(double x, double lo, double hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

/* The velocity that brings the command to x0 without overshoot: at most vmax, at most the speed
 * from which amax stops it at x0, at most the distance in one tick. */
static double approach(double e, double vmax, double amax, double rate)
{
    const double s = fmin(fmin(vmax, sqrt(2.0 * amax * fabs(e))), fabs(e) * rate);
    return e > 0.0 ? s : e < 0.0 ? -s : 0.0;
}

/* Into the hold (and the held state) from a moving command: the velocity brought to zero at the
 * acceleration limit, abruptly where there is none or where braking would leave the stroke.
 * Returns 1 while braking (x_cmd written). */
static int brake(hs_site_unload *u, const hs_site_limits *lim, const double *x_sent, double *x_cmd)
{
    if (u->state != HS_SITE_UNLOAD_HOLD && u->state != HS_SITE_UNLOAD_HELD) return 0;
    int moving = 0;
    for (int j = 0; j < u->n; j++) moving |= u->v[j] != 0.0;
    if (!moving) return 0;
    const double h = 1.0 / u->rate;
    for (int j = 0; j < u->n; j++) {
        const double dv = u->abrake[j] * h, S = lim ? lim[j].disp : 0.0;
        u->v[j] = isfinite(dv) ? clamp(0.0, u->v[j] - dv, u->v[j] + dv) : 0.0;
        x_cmd[j] = x_sent[j] + u->v[j] * h;
        if (S > 0.0 && !(fabs(x_cmd[j]) <= S)) { /* the stroke first: stop here */
            u->v[j] = 0.0;
            x_cmd[j] = x_sent[j];
        }
    }
    return 1;
}

void hs_site_unload_tick(hs_site_unload *u, const hs_site_limits *lim, const double *x_sent,
                         const double *x_meas, const double *f_meas, double *x_cmd)
{
    const int n = u->n;
    memcpy(x_cmd, x_sent, (size_t)n * sizeof(double)); /* hold unless the ramp moves */
    if (brake(u, lim, x_sent, x_cmd)) return;
    if (u->state == HS_SITE_UNLOAD_HOLD) {
        if (++u->held < u->hold_ticks) return;
        double fm = 0.0;
        int finite = 1;
        for (int j = 0; j < n; j++) {
            fm = fmax(fm, fabs(f_meas[j]));
            finite &= isfinite(f_meas[j]) && isfinite(x_meas[j]);
        }
        u->force_tol = u->p.force_tol > 0.0 ? u->p.force_tol : HS_UNLOAD_REL_TOL * fm;
        u->state = !finite              ? HS_SITE_UNLOAD_HELD
                   : fm <= u->force_tol ? HS_SITE_UNLOAD_DONE
                                        : HS_SITE_UNLOAD_RAMP;
        return;
    }
    if (u->state != HS_SITE_UNLOAD_RAMP) return;
    const double h = 1.0 / u->rate;
    int finite = 1, unloaded = 1;
    for (int j = 0; j < n; j++) {
        finite &= isfinite(f_meas[j]) && isfinite(x_meas[j]);
        unloaded &= fabs(f_meas[j]) <= u->force_tol;
    }
    if (!u->settling && (!finite || unloaded))
        u->settling = !finite ? HS_SITE_UNLOAD_HELD : HS_SITE_UNLOAD_DONE;
    double vnew[HS_SITE_MAX_ACT];
    for (int j = 0; j < n && !u->settling; j++) {
        double x0 = x_meas[j];
        for (int i = 0; i < n; i++) x0 -= HS_AT(u->Kinv, n, j, i) * f_meas[i];
        const double vd = approach(x0 - x_sent[j], u->vmax[j], u->amax[j], u->rate),
                     dv = u->amax[j] * h;
        vnew[j] = clamp(clamp(vd, u->v[j] - dv, u->v[j] + dv), -u->vmax[j], u->vmax[j]);
        /* the stroke: stop where braking from the next position could no longer stay inside */
        const double xn = x_sent[j] + vnew[j] * h, S = lim ? lim[j].disp : 0.0;
        if (S > 0.0 && xn * vnew[j] > 0.0 && fabs(xn) + vnew[j] * vnew[j] / (2.0 * u->amax[j]) > S)
            u->settling = HS_SITE_UNLOAD_STROKE;
    }
    int moving = 0;
    for (int j = 0; j < n; j++) {
        if (u->settling) {
            const double dv = u->amax[j] * h;
            vnew[j] = clamp(0.0, u->v[j] - dv, u->v[j] + dv);
        }
        u->v[j] = vnew[j];
        x_cmd[j] = x_sent[j] + vnew[j] * h;
        moving |= vnew[j] != 0.0;
    }
    if (u->settling && !moving) u->state = u->settling;
}
