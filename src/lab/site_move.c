/* Moving a resting command to where the next test starts (site_move.h): the position along the
 * path is s(t) in [0, 1], a trapezoid in velocity (accelerate at A, coast at V, brake at A) or a
 * triangle when the path is too short to reach V. Each actuator's command is from + (to - from)
 * s(t) sampled at the ticks; since |s'| <= V and |s''| <= A everywhere (s is C1 with a bounded
 * second derivative, also where it meets the rest at both ends), the sampled command's first
 * difference is at most |to - from| V / rate and its second difference at most
 * |to - from| A / rate^2: within the limits by construction, whatever the tick. */
#include "site_move.h"

#include <math.h>
#include <string.h>

#define HS_MOVE_RAMP_TIME 0.1 /* s to reach the speed when no acceleration is given */

/* Actuator j's speed and acceleration along a move: half of its velocity limit, of its step
 * limit per tick and of its acceleration limit, and the unloading's speed (inf: none). */
static void speeds(int j, double rate, const hs_site_limits *lim, const hs_site_unload_params *p,
                   double *v_out, double *a_out)
{
    double v = p && p->vel > 0.0 ? p->vel : INFINITY;
    if (lim && lim[j].vel > 0.0) v = fmin(v, 0.5 * lim[j].vel);
    if (lim && lim[j].step > 0.0) v = fmin(v, 0.5 * lim[j].step * rate);
    double a = p && p->acc > 0.0 ? p->acc : v / HS_MOVE_RAMP_TIME; /* inf without a speed */
    if (lim && lim[j].acc > 0.0) a = fmin(a, 0.5 * lim[j].acc);
    *v_out = v;
    *a_out = a;
}

void hs_site_move_reach(int n, double rate, const hs_site_limits *lim,
                        const hs_site_unload_params *p, double *reach)
{
    for (int j = 0; j < n; j++) {
        double v, a;
        speeds(j, rate, lim, p, &v, &a);
        reach[j] = fmin(v / rate, a / (rate * rate));
    }
}

double hs_site_move_plan(hs_site_move *m, int n, double rate, const hs_site_limits *lim,
                         const hs_site_unload_params *p, const double *from, const double *to)
{
    memset(m, 0, sizeof *m);
    m->n = n;
    m->rate = rate;
    memcpy(m->from, from, (size_t)n * sizeof(double));
    memcpy(m->to, to, (size_t)n * sizeof(double));
    double V = INFINITY, A = INFINITY;
    int far = 0;
    for (int j = 0; j < n; j++) {
        const double d = fabs(to[j] - from[j]);
        if (!(d > 0.0)) continue;
        far = 1;
        double v, a;
        speeds(j, rate, lim, p, &v, &a);
        V = fmin(V, v / d);
        A = fmin(A, a / d);
    }
    if (!far) return 0.0;
    m->active = 1;
    m->V = V;
    m->A = A;
    if (isinf(A)) { /* no limit to keep: one tick, as any command */
        m->T = 0.0;
        return 1.0 / rate;
    }
    if (V * V / A >= 1.0) { /* a triangle: the peak speed sqrt(A) stays below V */
        m->ta = sqrt(1.0 / A);
        m->tc = 0.0;
    } else {
        m->ta = V / A;
        m->tc = (1.0 - V * V / A) / V;
    }
    m->T = 2.0 * m->ta + m->tc;
    return m->T;
}

/* The path parameter at t s into the move. */
static double along(const hs_site_move *m, double t)
{
    if (t >= m->T) return 1.0;
    if (t < m->ta) return 0.5 * m->A * t * t;
    const double vpeak = m->A * m->ta, s1 = 0.5 * m->A * m->ta * m->ta;
    if (t < m->ta + m->tc) return s1 + vpeak * (t - m->ta);
    const double r = m->T - t;
    return 1.0 - 0.5 * m->A * r * r;
}

int hs_site_move_tick(hs_site_move *m, double *x_cmd)
{
    if (!m->active) {
        memcpy(x_cmd, m->to, (size_t)m->n * sizeof(double));
        return 0;
    }
    const double t = (double)++m->k / m->rate;
    const double s = along(m, t);
    for (int j = 0; j < m->n; j++)
        x_cmd[j] = s >= 1.0 ? m->to[j] : m->from[j] + (m->to[j] - m->from[j]) * s;
    if (s >= 1.0) m->active = 0;
    return 1;
}
