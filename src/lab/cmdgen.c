/* The command generator's state machine (Mosqueda et al. 2004, Fig. 4): extrapolate, interpolate,
 * slow, hold, free_vibration, done; events D_update, D_target, TimeOut. One call per controller
 * tick.
 *
 * The step parameter x runs from 0 (the last target, where D_target happened) to 1 (the next
 * target). Extrapolate advances x by 1/N per tick on the predictor P through the last targets and
 * times out after T1 = round(extrapolate_limit N) ticks; slow keeps following P while x advances
 * at a reduced, continuously varying speed (slow_profile) and reaches slow_limit exactly when it
 * times out after T2 = round((slow_limit - extrapolate_limit) N / slow_factor) ticks, at zero
 * speed; hold stands still. On D_update the corrector restarts from the command and its velocity
 * (cubic Hermite segment) and reaches the target at the end of the step's remaining ticks with
 * the slope of the order-n polynomial through the newest targets, which is the next step's
 * predictor: every switch keeps the command and its velocity continuous. */
#include "cmdgen_impl.h"

#include <math.h>
#include <string.h>

hs_cmdgen_params hs_cmdgen_params_default(void)
{
    hs_cmdgen_params p;
    memset(&p, 0, sizeof p);
    p.nact = 1;
    p.rate = 1024.0;
    p.time_scale = 1.0;
    p.order = 3;
    p.extrapolate_limit = 0.6;
    p.slow_limit = 0.8;
    p.slow_factor = 0.5;
    p.blend = 0.05;
    p.zeta = 0.05;
    p.rel_tol = 1e-3;
    p.quiet_time = 0.1;
    p.stop_time = 0.1;
    p.fv_max_time = 600.0;
    return p;
}

static const char *const state_names[HS_CMDGEN_NSTATES] = {"extrapolate", "interpolate",    "slow",
                                                           "hold",        "free_vibration", "done"};

const char *hs_cmdgen_state_name(int state)
{
    return state >= 0 && state < HS_CMDGEN_NSTATES ? state_names[state] : "unknown";
}

static int validate(hs_ctx *ctx, const hs_cmdgen_params *p)
{
    if (p->nact < 1 || p->nact > 16)
        return hs_fail(ctx, HS_EINPUT, "command generator: %d actuators (1 to 16 allowed)",
                       p->nact);
    if (!(p->rate > 0.0) || !(p->dt > 0.0) || !(p->time_scale > 0.0))
        return hs_fail(ctx, HS_EINPUT,
                       "command generator: rate (%g), dt (%g) and time_scale (%g) must be > 0",
                       p->rate, p->dt, p->time_scale);
    if (p->order < 1 || p->order > HS_CMDGEN_MAX_ORDER)
        return hs_fail(ctx, HS_EINPUT, "command generator: order %d (1, 2 or 3)", p->order);
    if (!(p->extrapolate_limit > 0.0) || !(p->slow_limit > p->extrapolate_limit) ||
        !(p->slow_limit <= 1.0))
        return hs_fail(ctx, HS_EINPUT,
                       "command generator: TimeOut limits need 0 < extrapolate_limit (%g) < "
                       "slow_limit (%g) <= 1",
                       p->extrapolate_limit, p->slow_limit);
    if (!(p->slow_factor > 0.0) || !(p->slow_factor <= 1.0) || !(p->blend >= 0.0))
        return hs_fail(ctx, HS_EINPUT,
                       "command generator: slow_factor %g must be in (0, 1], blend %g >= 0",
                       p->slow_factor, p->blend);
    if (!(p->hold_timeout >= 0.0) || !(p->zeta >= 0.0) || !(p->zeta < 1.0))
        return hs_fail(ctx, HS_EINPUT,
                       "command generator: hold_timeout %g must be >= 0, zeta %g in [0, 1)",
                       p->hold_timeout, p->zeta);
    if (p->mass && p->zeta > 0.0 && !p->stiffness)
        return hs_fail(ctx, HS_EINPUT,
                       "command generator: free vibration with damping ratio %g needs the "
                       "initial stiffness (actuator coordinates)",
                       p->zeta);
    return 0;
}

static int64_t ticks_of(double v)
{
    return (int64_t)floor(v + 0.5);
}

static void timing(hs_cmdgen *g)
{
    const hs_cmdgen_params *p = &g->p;
    const double N = (double)g->N;
    g->T1 = ticks_of(p->extrapolate_limit * N);
    if (g->T1 < 1) g->T1 = 1;
    g->T2 = ticks_of((p->slow_limit - p->extrapolate_limit) * N / p->slow_factor);
    if (g->T2 < 1) g->T2 = 1;
    /* slow covers dN of the parameter (times N) so that x reaches slow_limit exactly */
    double dN = p->slow_limit * N - (double)g->T1;
    if (dN < 0.0) dN = 0.0;
    int64_t B = ticks_of(p->blend * N);
    if (B > g->T2 / 2) B = g->T2 / 2;
    if ((double)B > 2.0 * dN) B = (int64_t)floor(2.0 * dN);
    g->B = B;
    g->slow_m = g->T2 > B ? (dN - 0.5 * (double)B) / (double)(g->T2 - B) : 0.0;
    g->Th = ticks_of(p->hold_timeout * p->rate);
}

void hs_cmdgen_destroy(hs_cmdgen **gp)
{
    if (!gp || !*gp) return;
    hs_cmdgen *g = *gp;
    hs_cmdgen_fv_free(&g->fv);
    hs_free(g->hist);
    hs_free(g->target);
    hs_free(g->cmd);
    hs_free(g->vel);
    hs_free(g->ic0);
    hs_free(g->im0);
    hs_free(g->ic1);
    hs_free(g->im1);
    hs_free(g);
    *gp = NULL;
}

int hs_cmdgen_create(hs_ctx *ctx, const hs_cmdgen_params *p, hs_cmdgen **out)
{
    if (!p || !out) return hs_fail(ctx, HS_EINVAL, "command generator: no parameters");
    int rc = validate(ctx, p);
    if (rc) return rc;
    hs_cmdgen *g = hs_calloc(1, sizeof *g);
    if (!g) return hs_fail(ctx, HS_ENOMEM, "command generator: out of memory");
    g->ctx = ctx;
    g->p = *p;
    g->p.mass = g->p.stiffness = NULL; /* copies live in g->fv */
    g->n = p->nact;
    g->order = p->order;
    const double N = floor(p->dt * p->time_scale * p->rate + 0.5);
    g->N = N < 1.0 ? 1 : (int64_t)N;
    timing(g);
    const size_t n = (size_t)g->n;
    g->hist = hs_dvec(n * (HS_CMDGEN_MAX_ORDER + 1));
    g->target = hs_dvec(n);
    g->cmd = hs_dvec(n);
    g->vel = hs_dvec(n);
    g->ic0 = hs_dvec(n);
    g->im0 = hs_dvec(n);
    g->ic1 = hs_dvec(n);
    g->im1 = hs_dvec(n);
    if (!g->hist || !g->target || !g->cmd || !g->vel || !g->ic0 || !g->im0 || !g->ic1 || !g->im1) {
        hs_cmdgen_destroy(&g);
        return hs_fail(ctx, HS_ENOMEM, "command generator: out of memory");
    }
    /* hs_cmdgen_fv_setup reads the caller's matrices through p */
    g->p.mass = p->mass;
    g->p.stiffness = p->stiffness;
    rc = hs_cmdgen_fv_setup(g);
    g->p.mass = g->p.stiffness = NULL;
    if (rc) {
        hs_cmdgen_destroy(&g);
        return rc;
    }
    hs_cmdgen_reset(g, NULL);
    *out = g;
    return 0;
}

int hs_cmdgen_reset(hs_cmdgen *g, const double *x0)
{
    const size_t n = (size_t)g->n;
    for (int k = 0; k <= HS_CMDGEN_MAX_ORDER; k++)
        for (size_t j = 0; j < n; j++) g->hist[(size_t)k * n + j] = x0 ? x0[j] : 0.0;
    for (size_t j = 0; j < n; j++) {
        g->cmd[j] = x0 ? x0[j] : 0.0;
        g->vel[j] = 0.0;
    }
    g->state = HS_CMDGEN_HOLD;
    g->started = 0;
    g->pending = 0;
    g->x = 0.0;
    g->k = 0;
    hs_cmdgen_fv_reset(&g->fv);
    hs_cmdgen_stats_clear(g);
    return 0;
}

int hs_cmdgen_target(hs_cmdgen *g, const double *x_target)
{
    if (g->state == HS_CMDGEN_FREE_VIBRATION || g->state == HS_CMDGEN_DONE)
        return hs_fail(g->ctx, HS_EABORTED,
                       "command generator: target of step %lld arrived in state %s: the test "
                       "has ended on the site's side",
                       (long long)g->cur.step, state_names[g->state]);
    if (g->pending || g->state == HS_CMDGEN_INTERPOLATE)
        return hs_fail(g->ctx, HS_EPROTO,
                       "command generator: a target arrived while the previous one (step %lld) "
                       "was not yet reached",
                       (long long)g->cur.step);
    memcpy(g->target, x_target, (size_t)g->n * sizeof(double));
    g->pending = 1;
    return 0;
}

/* The largest |change per tick| of the Hermite segment from (p0, v0) to (p1, v1) over M ticks,
 * v0 and v1 per tick: h'(s) = a s^2 + b s + c per unit s, divided by M. */
static double segment_peak_rate(double p0, double v0, double p1, double v1, int64_t M)
{
    const double D = p1 - p0, m0 = v0 * (double)M, m1 = v1 * (double)M;
    const double a = -6.0 * D + 3.0 * m0 + 3.0 * m1, b = 6.0 * D - 4.0 * m0 - 2.0 * m1, c = m0;
    double peak = fmax(fabs(c), fabs(a + b + c));
    if (a != 0.0) {
        const double s = -b / (2.0 * a);
        if (s > 0.0 && s < 1.0) peak = fmax(peak, fabs((a * s + b) * s + c));
    }
    return peak / (double)M;
}

/* The largest |second difference per tick^2| of the same segment: h''(s) = 2 a s + b per unit
 * s^2 is linear in s, its peak at an end; divided by M^2 (a cubic's sampled second difference
 * is h'' itself, exactly). */
static double segment_peak_change2(double p0, double v0, double p1, double v1, int64_t M)
{
    const double D = p1 - p0, m0 = v0 * (double)M, m1 = v1 * (double)M;
    const double a = -6.0 * D + 3.0 * m0 + 3.0 * m1, b = 6.0 * D - 4.0 * m0 - 2.0 * m1;
    return fmax(fabs(b), fabs(2.0 * a + b)) / ((double)M * (double)M);
}

/* 1 when the segment of L ticks keeps every actuator within its caps (max_increment and
 * max_change2); *capped 1 when any actuator has one. */
static int segment_within_caps(const hs_cmdgen *g, int64_t L, const double *v1, int *capped)
{
    int ok = 1;
    *capped = 0;
    for (int j = 0; j < g->n; j++) {
        const double cap = g->p.max_increment[j], cap2 = g->p.max_change2[j];
        if (cap > 0.0) {
            *capped = 1;
            ok &= segment_peak_rate(g->cmd[j], g->vel[j], g->target[j], v1[j], L) <= cap;
        }
        if (cap2 > 0.0) {
            *capped = 1;
            ok &= segment_peak_change2(g->cmd[j], g->vel[j], g->target[j], v1[j], L) <= cap2;
        }
    }
    return ok;
}

/* The segment length that keeps every capped actuator within its caps: M itself when it does,
 * else the shortest longer one (up to 64 steps' ticks); M when none does. */
static int64_t catch_up_length(hs_cmdgen *g, int64_t M, const double *v1)
{
    int capped;
    if (segment_within_caps(g, M, v1, &capped) || !capped) return M;
    for (int64_t L = M + 1; L <= 64 * g->N; L += L / 16 > 1 ? L / 16 : 1)
        if (segment_within_caps(g, L, v1, &capped)) return L;
    return M;
}

/* D_update: restart the corrector from the command (value and velocity) towards the target. */
static void begin_interpolation(hs_cmdgen *g)
{
    const int n = g->n;
    const double xu = g->started ? g->x : 0.0;
    int64_t M = ticks_of((1.0 - xu) * (double)g->N);
    if (M < 1) M = 1;
    for (int k = g->order; k > 0; k--)
        memcpy(g->hist + (size_t)k * (size_t)n, g->hist + (size_t)(k - 1) * (size_t)n,
               (size_t)n * sizeof(double));
    memcpy(g->hist, g->target, (size_t)n * sizeof(double));
    /* end slope: the next predictor's slope at its start (per unit x), in units of s; zero
     * when stepwise (the command then stays on the target) */
    hs_cmdgen_predict(n, g->order, g->hist, 0.0, g->ic1, g->im1);
    for (int j = 0; j < n; j++) /* per tick */
        g->im1[j] = g->p.stepwise ? 0.0 : g->im1[j] / (double)g->N;
    const int64_t L = catch_up_length(g, M, g->im1);
    if (L != M) g->sum.stretched++;
    M = L;
    g->iM = M;
    for (int j = 0; j < n; j++) {
        g->ic0[j] = g->cmd[j];
        g->im0[j] = g->vel[j] * (double)M;
        g->ic1[j] = g->target[j];
        g->im1[j] *= (double)M;
    }
    g->x_u = xu;
    g->state = HS_CMDGEN_INTERPOLATE;
    g->k = 0;
    if (!g->started) {
        g->started = 1;
        hs_cmdgen_stats_clear(g);
        g->cur.step = 1;
    }
    hs_cmdgen_stats_update(g);
}

static void extrapolate(hs_cmdgen *g, double x, double rho)
{
    hs_cmdgen_predict(g->n, g->order, g->hist, x, g->cmd, g->vel);
    const double w = rho / (double)g->N;
    for (int j = 0; j < g->n; j++) g->vel[j] *= w;
    g->x = x;
}

int hs_cmdgen_tick(hs_cmdgen *g, const double *f_meas, double *x_cmd)
{
    int ev = 0;
    if (g->pending) {
        begin_interpolation(g);
        g->pending = 0;
        ev |= HS_CMDGEN_EV_UPDATE;
    }
    const hs_cmdgen_state produced = g->state;
    switch (g->state) {
    case HS_CMDGEN_EXTRAPOLATE:
        g->k++;
        extrapolate(g, (double)g->k / (double)g->N, 1.0);
        if (g->k == g->T1) {
            g->state = HS_CMDGEN_SLOW;
            g->x_slow0 = g->x;
            g->k = 0;
            ev |= HS_CMDGEN_EV_TIMEOUT;
        }
        break;
    case HS_CMDGEN_SLOW: {
        g->k++;
        double rho, I;
        hs_cmdgen_slow_profile(g->T2, g->B, g->slow_m, (double)g->k, &rho, &I);
        extrapolate(g, g->x_slow0 + I / (double)g->N, rho);
        if (g->k == g->T2) {
            for (int j = 0; j < g->n; j++) g->vel[j] = 0.0;
            g->state = HS_CMDGEN_HOLD;
            g->k = 0;
            ev |= HS_CMDGEN_EV_TIMEOUT;
        }
        break;
    }
    case HS_CMDGEN_HOLD:
        g->k++;
        for (int j = 0; j < g->n; j++) g->vel[j] = 0.0;
        if (g->started && g->Th > 0 && g->k == g->Th) {
            ev |= HS_CMDGEN_EV_TIMEOUT;
            g->k = 0;
            if (g->fv.enabled) {
                g->state = HS_CMDGEN_FREE_VIBRATION;
            } else {
                g->state = HS_CMDGEN_DONE;
                ev |= HS_CMDGEN_EV_DONE;
            }
        }
        break;
    case HS_CMDGEN_INTERPOLATE: {
        g->k++;
        const double s = g->k == g->iM ? 1.0 : (double)g->k / (double)g->iM;
        for (int j = 0; j < g->n; j++) {
            double ds;
            if (g->p.stepwise) {
                /* from rest to rest: c0 + (c1 - c0) w(s), w = s^2 (3 - 2 s), which stays within
                 * [c0, c1] in floating point too (and on c0 when c1 == c0) */
                const double dc = g->ic1[j] - g->ic0[j];
                g->cmd[j] = g->k == g->iM ? g->ic1[j] : g->ic0[j] + dc * (s * s * (3.0 - 2.0 * s));
                ds = dc * 6.0 * s * (1.0 - s);
            } else {
                g->cmd[j] = hs_cmdgen_hermite(g->ic0[j], g->im0[j], g->ic1[j], g->im1[j], s, &ds);
            }
            g->vel[j] = ds / (double)g->iM;
        }
        g->x = g->x_u + (1.0 - g->x_u) * s;
        if (g->k == g->iM) {
            ev |= HS_CMDGEN_EV_TARGET;
            g->state = g->p.stepwise ? HS_CMDGEN_HOLD : HS_CMDGEN_EXTRAPOLATE;
            g->k = 0;
            g->x = 0.0;
            if (g->p.stepwise)
                for (int j = 0; j < g->n; j++) g->vel[j] = 0.0;
        }
        break;
    }
    case HS_CMDGEN_FREE_VIBRATION: {
        const int rc = hs_cmdgen_fv_tick(g, f_meas);
        if (rc < 0) return rc;
        if (rc & HS_CMDGEN_EV_DONE) {
            g->state = HS_CMDGEN_DONE;
            ev |= HS_CMDGEN_EV_DONE;
        }
        break;
    }
    case HS_CMDGEN_DONE:
    default:
        for (int j = 0; j < g->n; j++) g->vel[j] = 0.0;
        break;
    }
    if (ev & HS_CMDGEN_EV_TIMEOUT) g->sum.timeouts++;
    hs_cmdgen_stats_tick(g, produced);
    if ((ev & HS_CMDGEN_EV_TIMEOUT) && g->started) g->cur.states |= HS_CMDGEN_BIT(g->state);
    if (ev & HS_CMDGEN_EV_TARGET) hs_cmdgen_stats_target(g);
    memcpy(x_cmd, g->cmd, (size_t)g->n * sizeof(double));
    return ev;
}

int hs_cmdgen_hold_renew(hs_cmdgen *g)
{
    if (g->state != HS_CMDGEN_HOLD || !g->started || g->Th <= 0) return 0;
    g->k = 0;
    return 1;
}

double hs_cmdgen_hold_left(const hs_cmdgen *g)
{
    if (!g->started || g->Th <= 0) return INFINITY;
    int64_t ticks = g->Th; /* the hold's own, then what comes before it */
    switch (g->state) {
    case HS_CMDGEN_HOLD:
        ticks -= g->k;
        break;
    case HS_CMDGEN_SLOW:
        ticks += g->T2 - g->k;
        break;
    case HS_CMDGEN_EXTRAPOLATE:
        ticks += g->T1 - g->k + g->T2;
        break;
    case HS_CMDGEN_INTERPOLATE: /* then extrapolate and slow, or (stepwise) hold at once */
        ticks += g->iM - g->k + (g->p.stepwise ? 0 : g->T1 + g->T2);
        break;
    default: /* free vibration, done */
        return 0.0;
    }
    return (double)(ticks > 0 ? ticks : 0) / g->p.rate;
}

hs_cmdgen_state hs_cmdgen_current_state(const hs_cmdgen *g)
{
    return g->state;
}
int hs_cmdgen_nact(const hs_cmdgen *g)
{
    return g->n;
}
int hs_cmdgen_ticks_per_step(const hs_cmdgen *g)
{
    return (int)g->N;
}
void hs_cmdgen_timeout_ticks(const hs_cmdgen *g, int64_t *t_extrapolate, int64_t *t_slow,
                             int64_t *t_hold)
{
    if (t_extrapolate) *t_extrapolate = g->T1;
    if (t_slow) *t_slow = g->T2;
    if (t_hold) *t_hold = g->Th;
}
double hs_cmdgen_step_fraction(const hs_cmdgen *g)
{
    return g->x;
}
const double *hs_cmdgen_command(const hs_cmdgen *g)
{
    return g->cmd;
}
const double *hs_cmdgen_velocity(const hs_cmdgen *g)
{
    return g->vel;
}
