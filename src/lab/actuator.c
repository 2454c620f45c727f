/* Servo-hydraulic actuator, one channel, stepped at the controller rate h = 1 / rate.
 * command x_c(k) -> transport delay of D samples -> servo-valve stage (second order, exact
 * zero-order-hold discretisation, DC gain 1) -> first-order servo loop with the delay constant a
 * (Chen & Ricles 2010: x(k+1) = x(k) + (u(k) - x(k)) / a, Gp(z) = 1 / (a z - (a - 1))) whose
 * increment is saturated by the velocity limit and whose position is saturated by the stroke. */
#include "hysim/lab.h"

#include <math.h>
#include <string.h>

struct hs_actuator {
    hs_ctx *ctx;
    hs_actuator_params p;
    double h;
    double *schedule; /* 2 * schedule_points, owned copy */
    double *ring;     /* transport delay line, D entries */
    /* valve stage: p(k+1) = F p(k) + G u(k), 2 states */
    int has_valve;
    double F[4], G[2]; /* F row-major */
    /* state */
    double x, x_prev, x_cmd_prev, vp, vpd, a_now;
    double ticks;
    size_t head;
    int flags, flags_seen;
};

hs_actuator_params hs_actuator_params_default(void)
{
    hs_actuator_params p;
    memset(&p, 0, sizeof p);
    p.rate = 1024.0;
    p.a = 1.0;
    p.valve_zeta = 0.7;
    return p;
}

int hs_actuator_params_from_options(hs_ctx *ctx, const hs_options *o, hs_actuator_params *p)
{
    *p = hs_actuator_params_default();
    p->rate = hs_options_num(o, "rate", p->rate);
    p->a = hs_options_num(o, "a", p->a);
    double d = hs_options_num(o, "transport_delay", 0.0);
    if (!(d >= 0.0 && d < 1e6 && d == floor(d)))
        return hs_fail(ctx, HS_EINPUT,
                       "actuator: transport_delay must be a whole number of "
                       "samples >= 0 (got %g)",
                       d);
    p->transport_delay = (int)d;
    p->valve_freq = hs_options_num(o, "valve_freq", 0.0);
    p->valve_zeta = hs_options_num(o, "valve_zeta", p->valve_zeta);
    const double *s = NULL;
    size_t n = hs_options_list(o, "schedule", &s);
    if (n % 2)
        return hs_fail(ctx, HS_EINPUT, "actuator: schedule needs pairs t, a (got %zu numbers)", n);
    p->schedule = n ? s : NULL;
    p->schedule_points = n / 2;
    p->a_per_velocity = hs_options_num(o, "a_per_velocity", 0.0);
    p->stroke = hs_options_num(o, "stroke", 0.0);
    p->velocity_max = hs_options_num(o, "velocity_max", 0.0);
    p->force_max = hs_options_num(o, "force_max", 0.0);
    p->perfect = hs_options_num(o, "perfect", 0.0) != 0.0;
    return 0;
}

/* Exact discretisation of x'' + 2 zeta w x' + w^2 x = w^2 u with u held over h:
 * A = mu I + N, mu = -zeta w, N^2 = delta I, delta = w^2 (zeta^2 - 1);
 * exp(A h) = exp(mu h) (C I + S N);  G = (F - I) A^-1 B = (1 - F11, -F21). */
static void valve_discretise(hs_actuator *a)
{
    const double w = 2.0 * 3.14159265358979323846 * a->p.valve_freq, z = a->p.valve_zeta, h = a->h;
    const double mu = -z * w, delta = w * w * (z * z - 1.0);
    double C, S;
    if (delta > 0.0) {
        const double r = sqrt(delta);
        C = cosh(r * h);
        S = sinh(r * h) / r;
    } else if (delta < 0.0) {
        const double r = sqrt(-delta);
        C = cos(r * h);
        S = sin(r * h) / r;
    } else {
        C = 1.0;
        S = h;
    }
    const double e = exp(mu * h);
    /* N = A - mu I = [[-mu, 1], [-w^2, -2 zeta w - mu]] */
    a->F[0] = e * (C - S * mu);
    a->F[1] = e * S;
    a->F[2] = e * S * (-w * w);
    a->F[3] = e * (C + S * (-2.0 * z * w - mu));
    a->G[0] = 1.0 - a->F[0];
    a->G[1] = -a->F[2];
}

int hs_actuator_create(hs_ctx *ctx, const hs_actuator_params *p, hs_actuator **out)
{
    if (!p || !out) return hs_fail(ctx, HS_EINVAL, "actuator: no parameters");
    if (!(p->rate > 0.0))
        return hs_fail(ctx, HS_EINPUT, "actuator: rate must be > 0 Hz (got %g)", p->rate);
    if (!(p->a >= 1.0))
        return hs_fail(ctx, HS_EINPUT, "actuator: delay constant a must be >= 1 sample (got %g)",
                       p->a);
    if (p->transport_delay < 0)
        return hs_fail(ctx, HS_EINPUT, "actuator: transport_delay must be >= 0 (got %d)",
                       p->transport_delay);
    if (p->valve_freq < 0.0 || (p->valve_freq > 0.0 && !(p->valve_zeta > 0.0)))
        return hs_fail(ctx, HS_EINPUT,
                       "actuator: valve_freq must be >= 0 and valve_zeta > 0 (got %g, %g)",
                       p->valve_freq, p->valve_zeta);
    if (p->valve_freq >= 0.5 * p->rate)
        return hs_fail(ctx, HS_EINPUT,
                       "actuator: valve_freq %g Hz is not below the Nyquist frequency %g Hz",
                       p->valve_freq, 0.5 * p->rate);
    if (p->stroke < 0.0 || p->velocity_max < 0.0 || p->force_max < 0.0 || p->a_per_velocity < 0.0)
        return hs_fail(ctx, HS_EINPUT,
                       "actuator: stroke, velocity_max, force_max, a_per_velocity must be >= 0");
    for (size_t i = 0; i < p->schedule_points; i++) {
        if (!(p->schedule[2 * i + 1] >= 1.0))
            return hs_fail(ctx, HS_EINPUT, "actuator: schedule point %zu: a = %g must be >= 1", i,
                           p->schedule[2 * i + 1]);
        if (i > 0 && !(p->schedule[2 * i] > p->schedule[2 * i - 2]))
            return hs_fail(ctx, HS_EINPUT, "actuator: schedule point %zu: times must increase", i);
    }
    hs_actuator *a = hs_calloc(1, sizeof *a);
    if (!a) return hs_fail(ctx, HS_ENOMEM, "actuator: out of memory");
    a->ctx = ctx;
    a->p = *p;
    a->h = 1.0 / p->rate;
    if (p->schedule_points) {
        a->schedule = hs_malloc(2 * p->schedule_points * sizeof(double));
        if (!a->schedule) goto nomem;
        memcpy(a->schedule, p->schedule, 2 * p->schedule_points * sizeof(double));
        a->p.schedule = a->schedule;
    }
    if (p->transport_delay > 0) {
        a->ring = hs_calloc((size_t)p->transport_delay, sizeof(double));
        if (!a->ring) goto nomem;
    }
    a->has_valve = p->valve_freq > 0.0;
    if (a->has_valve) valve_discretise(a);
    hs_actuator_reset(a, 0.0);
    *out = a;
    return 0;
nomem:
    hs_actuator_destroy(&a);
    return hs_fail(ctx, HS_ENOMEM, "actuator: out of memory");
}

void hs_actuator_destroy(hs_actuator **a)
{
    if (!a || !*a) return;
    hs_free((*a)->schedule);
    hs_free((*a)->ring);
    hs_free(*a);
    *a = NULL;
}

void hs_actuator_reset(hs_actuator *a, double x0)
{
    a->x = a->x_prev = a->x_cmd_prev = a->vp = x0;
    a->vpd = 0.0;
    a->a_now = a->p.a;
    a->ticks = 0.0;
    a->head = 0;
    a->flags = a->flags_seen = 0;
    for (int i = 0; i < a->p.transport_delay; i++) a->ring[i] = x0;
}

/* a(t) from the schedule: linear between points, constant outside. */
static double schedule_at(const hs_actuator *a, double t)
{
    const double *s = a->schedule;
    const size_t n = a->p.schedule_points;
    if (t <= s[0]) return s[1];
    for (size_t i = 1; i < n; i++)
        if (t < s[2 * i]) {
            const double w = (t - s[2 * i - 2]) / (s[2 * i] - s[2 * i - 2]);
            return s[2 * i - 1] + w * (s[2 * i + 1] - s[2 * i - 1]);
        }
    return s[2 * n - 1];
}

int hs_actuator_tick(hs_actuator *a, double x_cmd)
{
    const double t = a->ticks * a->h;
    int flags = 0;
    double u = x_cmd;
    double target;
    if (a->p.perfect) {
        target = x_cmd;
        a->a_now = 1.0;
    } else {
        /* delay constant for this sample */
        double ad = a->schedule ? schedule_at(a, t) : a->p.a;
        if (a->p.a_per_velocity > 0.0)
            ad += a->p.a_per_velocity * fabs(x_cmd - a->x_cmd_prev) / a->h;
        if (ad < 1.0) ad = 1.0;
        a->a_now = ad;
        /* transport delay: the ring holds x_c(k - D) .. x_c(k - 1) */
        if (a->p.transport_delay > 0) {
            u = a->ring[a->head];
            a->ring[a->head] = x_cmd;
            a->head = (a->head + 1) % (size_t)a->p.transport_delay;
        }
        /* servo-valve stage: its output at the end of the sample drives the loop */
        if (a->has_valve) {
            const double p0 = a->vp, p1 = a->vpd;
            a->vp = a->F[0] * p0 + a->F[1] * p1 + a->G[0] * u;
            a->vpd = a->F[2] * p0 + a->F[3] * p1 + a->G[1] * u;
            u = a->vp;
        }
        target = a->x + (u - a->x) / ad;
    }
    double dx = target - a->x;
    if (a->p.velocity_max > 0.0) {
        const double dmax = a->p.velocity_max * a->h;
        if (dx > dmax) {
            dx = dmax;
            flags |= HS_ACT_LIMIT_VELOCITY;
        } else if (dx < -dmax) {
            dx = -dmax;
            flags |= HS_ACT_LIMIT_VELOCITY;
        }
    }
    double xn = (flags & HS_ACT_LIMIT_VELOCITY) ? a->x + dx : target;
    if (a->p.stroke > 0.0) {
        if (xn > a->p.stroke) {
            xn = a->p.stroke;
            flags |= HS_ACT_LIMIT_STROKE;
        } else if (xn < -a->p.stroke) {
            xn = -a->p.stroke;
            flags |= HS_ACT_LIMIT_STROKE;
        }
    }
    a->x_prev = a->x;
    a->x = xn;
    a->x_cmd_prev = x_cmd;
    a->ticks += 1.0;
    a->flags = flags;
    a->flags_seen |= flags;
    return flags;
}

double hs_actuator_position(const hs_actuator *a)
{
    return a->x;
}
double hs_actuator_velocity(const hs_actuator *a)
{
    return (a->x - a->x_prev) / a->h;
}
double hs_actuator_delay(const hs_actuator *a)
{
    return a->a_now;
}
double hs_actuator_time(const hs_actuator *a)
{
    return a->ticks * a->h;
}
double hs_actuator_rate(const hs_actuator *a)
{
    return a->p.rate;
}
int hs_actuator_flags(const hs_actuator *a)
{
    return a->flags;
}
int hs_actuator_flags_seen(const hs_actuator *a)
{
    return a->flags_seen;
}

int hs_actuator_check_force(hs_actuator *a, double f)
{
    if (a->p.force_max > 0.0 && fabs(f) > a->p.force_max) {
        a->flags |= HS_ACT_LIMIT_FORCE;
        a->flags_seen |= HS_ACT_LIMIT_FORCE;
        return HS_ACT_LIMIT_FORCE;
    }
    return 0;
}

/* layout: x, x_prev, x_cmd_prev, vp, vpd, a_now, ticks, head, flags, flags_seen, ring[D] */
#define HS_ACT_FIXED 10

size_t hs_actuator_state_size(const hs_actuator *a)
{
    return HS_ACT_FIXED + (size_t)a->p.transport_delay;
}

int hs_actuator_state_save(const hs_actuator *a, double *out)
{
    out[0] = a->x;
    out[1] = a->x_prev;
    out[2] = a->x_cmd_prev;
    out[3] = a->vp;
    out[4] = a->vpd;
    out[5] = a->a_now;
    out[6] = a->ticks;
    out[7] = (double)a->head;
    out[8] = (double)a->flags;
    out[9] = (double)a->flags_seen;
    for (int i = 0; i < a->p.transport_delay; i++) out[HS_ACT_FIXED + i] = a->ring[i];
    return 0;
}

int hs_actuator_state_load(hs_actuator *a, const double *in)
{
    const double D = (double)a->p.transport_delay;
    if (!(in[7] >= 0.0 && (in[7] < D || (D == 0.0 && in[7] == 0.0)) && in[6] >= 0.0))
        return hs_fail(a->ctx, HS_EINPUT, "actuator: state does not fit this actuator");
    a->x = in[0];
    a->x_prev = in[1];
    a->x_cmd_prev = in[2];
    a->vp = in[3];
    a->vpd = in[4];
    a->a_now = in[5];
    a->ticks = in[6];
    a->head = (size_t)in[7];
    a->flags = (int)in[8];
    a->flags_seen = (int)in[9];
    for (int i = 0; i < a->p.transport_delay; i++) a->ring[i] = in[HS_ACT_FIXED + i];
    return 0;
}
