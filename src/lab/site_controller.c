/* The site controller: one controller tick of a site, from the command generator through delay
 * compensation and the site's safety limits to the laboratory and back to an outgoing
 * measurement. No clock is read: time is the tick count over the rate. */
#include "hysim/site_controller.h"

#include "hysim/labio.h"
#include "hysim/linalg.h"
#include "site_move.h"
#include "site_unload.h"

#include <math.h>
#include <string.h>

#define NMAX                      HS_SITE_MAX_ACT
#define HS_SITE_CATCH_UP_FRACTION 0.9
#define HS_SITE_TARGET_HISTORY    4
#define HS_SITE_NEAR_LIMIT        0.5 /* targets this close to a speed limit: the path overshoots */
#define NH                        HS_EXP_HISTORY

struct hs_site_controller {
    hs_ctx *ctx;
    hs_cmdgen *gen;
    hs_lab *lab;
    hs_lab *own_lab; /* the wrapper over a lent hs_vlab (hs_site_controller_create) */
    int n;
    int64_t lab_tick; /* the laboratory controller's own tick count, last exchange */
    double rate, dt;
    hs_site_limits lim[NMAX];
    double K0[NMAX * NMAX];
    int has_k0;
    hs_compensator *comp[NMAX];
    int target_delay; /* 1: the compensator acts on the generator's command of the tick before */
    double conv_q, conv_limit; /* the A/D and D/A converters (interval 0: none) */
    double x_gen[NMAX], x_cmd[NMAX], x_sent[NMAX], x_meas[NMAX], f_meas[NMAX];
    double x_sent2[NMAX]; /* the command sent the tick before x_sent (the acceleration limit) */
    /* the last NH samples, a ring */
    double ring_t[NH], ring_x[NH * NMAX], ring_f[NH * NMAX];
    int ring_n, ring_head;
    int64_t ticks;
    int step_flags; /* actuator flags seen during the step */
    /* targets */
    int started, awaiting; /* a target arrived; the current one is not yet reached */
    int64_t step;
    double t_target, t_base, t_sample;
    /* the outgoing measurement */
    int ready;
    double out_t, out_x[NMAX], out_f[NMAX], out_ht[NH], out_hx[NH * NMAX], out_hf[NH * NMAX];
    int out_nhist, out_flags, out_ticks;
    hs_site_report out_rep;
    /* a latched limit trip */
    int trip_flags, trip_channel;
    double trip_value, trip_bound, trip_growth, trip_speed;
    int trip_cause;
    const char *trip_lab;  /* the back end's kind of a laboratory alarm */
    int abort_pending;     /* the operator's abort, reported at the next tick */
    hs_site_unload unload; /* after a trip */
    hs_site_move move;     /* to where the next test starts (hs_site_controller_move_to) */
    /* the last targets, newest first, for the trip's cause */
    double tgt[HS_SITE_TARGET_HISTORY][NMAX];
    int ntgt;
};

hs_site_controller_params hs_site_controller_params_default(void)
{
    hs_site_controller_params p;
    memset(&p, 0, sizeof p);
    p.gen = hs_cmdgen_params_default();
    return p;
}

void hs_site_controller_destroy(hs_site_controller **scp)
{
    if (!scp || !*scp) return;
    hs_cmdgen_destroy(&(*scp)->gen);
    hs_lab_destroy(&(*scp)->own_lab);
    hs_free(*scp);
    *scp = NULL;
}

int hs_site_controller_create(hs_ctx *ctx, const hs_site_controller_params *p, hs_vlab *lab,
                              hs_site_controller **out)
{
    if (!p || !lab || !out) return hs_fail(ctx, HS_EINVAL, "site controller: missing arguments");
    const int n = p->gen.nact;
    if (n >= 1 && (!hs_vlab_actuator(lab, n - 1) || hs_vlab_actuator(lab, n)))
        return hs_fail(ctx, HS_EINPUT, "site controller: the laboratory does not have %d actuators",
                       n);
    hs_lab *io = NULL;
    int rc = hs_lab_virtual(ctx, lab, &io);
    if (!rc) rc = hs_site_controller_create_lab(ctx, p, io, out);
    if (rc) {
        hs_lab_destroy(&io);
        return rc;
    }
    (*out)->own_lab = io;
    return 0;
}

int hs_site_controller_create_lab(hs_ctx *ctx, const hs_site_controller_params *p, hs_lab *lab,
                                  hs_site_controller **out)
{
    if (!p || !lab || !out) return hs_fail(ctx, HS_EINVAL, "site controller: missing arguments");
    const int n = p->gen.nact;
    if (n < 1 || n > NMAX)
        return hs_fail(ctx, HS_EINPUT, "site controller: %d actuators (1 to %d allowed)", n, NMAX);
    if (hs_lab_nact(lab) != n)
        return hs_fail(ctx, HS_EINPUT, "site controller: the laboratory does not have %d actuators",
                       n);
    if (hs_lab_rate(lab) != p->gen.rate)
        return hs_fail(ctx, HS_EINPUT,
                       "site controller: controller rate %g Hz, the laboratory runs at %g Hz",
                       p->gen.rate, hs_lab_rate(lab));
    for (int j = 0; p->limits && j < n; j++)
        if (!(p->limits[j].disp >= 0.0) || !(p->limits[j].vel >= 0.0) ||
            !(p->limits[j].force >= 0.0) || !(p->limits[j].acc >= 0.0) ||
            !(p->limits[j].step >= 0.0))
            return hs_fail(ctx, HS_EINPUT,
                           "site controller: actuator %d: limits must be >= 0 (0 = none)", j);
    for (int j = 0; p->compensator && j < n; j++)
        if (p->compensator[j] && hs_compensator_rate(p->compensator[j]) != p->gen.rate)
            return hs_fail(ctx, HS_EINPUT,
                           "site controller: actuator %d: compensator at %g Hz, controller at "
                           "%g Hz",
                           j, hs_compensator_rate(p->compensator[j]), p->gen.rate);
    hs_site_controller *sc = hs_calloc(1, sizeof *sc);
    if (!sc) return hs_fail(ctx, HS_ENOMEM, "site controller: out of memory");
    /* a late target is caught up at no more than 90 % of the velocity and acceleration limits
     * (the compensator's lead keeps the rest): a re-ramp, never a jump that trips a limit */
    hs_cmdgen_params gen = p->gen;
    for (int j = 0; p->limits && j < n; j++) {
        double cap = p->limits[j].vel > 0.0 ? p->limits[j].vel / p->gen.rate : INFINITY;
        if (p->limits[j].step > 0.0 && p->limits[j].step < cap) cap = p->limits[j].step;
        if (isfinite(cap) && !(gen.max_increment[j] > 0.0))
            gen.max_increment[j] = HS_SITE_CATCH_UP_FRACTION * cap;
        if (p->limits[j].acc > 0.0 && !(gen.max_change2[j] > 0.0))
            gen.max_change2[j] =
                HS_SITE_CATCH_UP_FRACTION * p->limits[j].acc / (p->gen.rate * p->gen.rate);
    }
    int rc = hs_cmdgen_create(ctx, &gen, &sc->gen);
    if (rc) {
        hs_site_controller_destroy(&sc);
        return rc;
    }
    sc->ctx = ctx;
    sc->lab = lab;
    sc->n = n;
    sc->rate = p->gen.rate;
    sc->dt = p->gen.dt;
    for (int j = 0; p->limits && j < n; j++) sc->lim[j] = p->limits[j];
    const double *K = p->stiffness ? p->stiffness : p->gen.stiffness;
    if (K) {
        memcpy(sc->K0, K, (size_t)n * (size_t)n * sizeof(double));
        sc->has_k0 = 1;
    }
    for (int j = 0; p->compensator && j < n; j++) {
        sc->comp[j] = p->compensator[j];
        if (sc->comp[j]) hs_compensator_reset(sc->comp[j], 0.0);
    }
    sc->target_delay = p->target_delay;
    sc->conv_q = p->converter_interval;
    sc->conv_limit = p->converter_limit > 0.0 ? p->converter_limit : INFINITY;
    sc->trip_channel = -1;
    rc = hs_site_unload_init(ctx, &sc->unload, &p->unload, n, p->gen.rate,
                             sc->has_k0 ? sc->K0 : NULL, p->limits);
    if (rc) {
        hs_site_controller_destroy(&sc);
        return rc;
    }
    *out = sc;
    return 0;
}

int hs_site_controller_target(hs_site_controller *sc, int64_t step, double t, const double *x)
{
    if (sc->trip_flags)
        return hs_fail(sc->ctx, HS_ELIMIT,
                       "site controller: target of step %lld refused: a safety limit tripped on "
                       "actuator %d (flags %d, value %g); the site holds",
                       (long long)step, sc->trip_channel, sc->trip_flags, sc->trip_value);
    for (int j = 0; j < sc->n; j++)
        if (!isfinite(x[j]))
            return hs_fail(sc->ctx, HS_EINPUT,
                           "site controller: target of step %lld refused: actuator %d's target is "
                           "%g, not a number; the site keeps its command",
                           (long long)step, j, x[j]);
    int rc = hs_cmdgen_target(sc->gen, x);
    if (rc) return rc;
    memmove(sc->tgt[1], sc->tgt[0], (HS_SITE_TARGET_HISTORY - 1) * sizeof sc->tgt[0]);
    memcpy(sc->tgt[0], x, (size_t)sc->n * sizeof(double));
    if (sc->ntgt < HS_SITE_TARGET_HISTORY) sc->ntgt++;
    if (!sc->started) {
        sc->started = 1;
        sc->t_base = t - sc->dt;
    }
    sc->step = step;
    sc->t_target = t;
    sc->awaiting = 1;
    return 0;
}

/* The likely cause of a trip of kind `flag` on actuator j, from the last targets' increments
 * d1 (newest), d2, d3 and the step's states (judged in this order: diverging, late, fast, beyond,
 * force). */
static void trip_cause(hs_site_controller *sc, int j, int flag)
{
    sc->trip_cause = HS_SITE_CAUSE_NONE;
    sc->trip_growth = sc->trip_speed = 0.0;
    if (!isfinite(sc->trip_value)) {
        sc->trip_cause = HS_SITE_CAUSE_NOT_A_NUMBER;
        return;
    }
    if (flag == HS_SITE_LIMIT_MEASURED_DISP || flag == HS_SITE_LIMIT_MEASURED_FORCE) {
        sc->trip_cause = HS_SITE_CAUSE_MEASURED;
        return;
    }
    if (sc->ntgt >= 4) {
        const double d1 = sc->tgt[0][j] - sc->tgt[1][j], d2 = sc->tgt[1][j] - sc->tgt[2][j],
                     d3 = sc->tgt[2][j] - sc->tgt[3][j];
        const int growing =
            fabs(d3) > 0.0 && fabs(d2) > 1.2 * fabs(d3) && fabs(d1) > 1.2 * fabs(d2);
        if (growing) {
            sc->trip_growth = sqrt(fabs(d1) / fabs(d3));
            const int alternating = d1 * d2 < 0.0 && d2 * d3 < 0.0;
            if (alternating || sc->trip_growth > 1.3) {
                sc->trip_cause = alternating ? HS_SITE_CAUSE_UNSTABLE : HS_SITE_CAUSE_GROWING;
                return;
            }
        }
    }
    const hs_cmdgen_step *rec = hs_cmdgen_current_step(sc->gen);
    const int late_states = HS_CMDGEN_BIT(HS_CMDGEN_SLOW) | HS_CMDGEN_BIT(HS_CMDGEN_HOLD);
    if (flag == HS_SITE_LIMIT_VELOCITY) {
        /* the targets' own speed at the lab: one step's increment over the step's ticks */
        const double N = (double)hs_cmdgen_ticks_per_step(sc->gen);
        sc->trip_speed = sc->ntgt >= 2 ? fabs(sc->tgt[0][j] - sc->tgt[1][j]) * sc->rate / N : 0.0;
        if (sc->trip_speed > sc->lim[j].vel)
            sc->trip_cause = HS_SITE_CAUSE_FAST_TARGETS;
        else if (rec && (rec->states & late_states))
            sc->trip_cause = HS_SITE_CAUSE_LATE;
        else if (sc->trip_speed >= HS_SITE_NEAR_LIMIT * sc->lim[j].vel)
            sc->trip_cause = HS_SITE_CAUSE_NEAR_LIMIT;
    } else if (flag == HS_SITE_LIMIT_DISPLACEMENT) {
        if (sc->ntgt >= 1 && !(fabs(sc->tgt[0][j]) <= sc->lim[j].disp))
            sc->trip_cause = HS_SITE_CAUSE_BEYOND;
        else if (rec && (rec->states & late_states))
            sc->trip_cause = HS_SITE_CAUSE_LATE;
    } else if (flag == HS_SITE_LIMIT_FORCE) {
        sc->trip_cause = HS_SITE_CAUSE_FORCE;
    } else if (flag == HS_SITE_LIMIT_STEP || flag == HS_SITE_LIMIT_ACCELERATION) {
        /* the newest target's increment, spread evenly over the step's ticks, already needs
         * more than the step limit: a jump (otherwise the catch-up after a late target) */
        const double N = (double)hs_cmdgen_ticks_per_step(sc->gen);
        sc->trip_speed = sc->ntgt >= 2 ? fabs(sc->tgt[0][j] - sc->tgt[1][j]) * sc->rate / N : 0.0;
        if (sc->ntgt >= 2 &&
            ((sc->lim[j].step > 0.0 && sc->trip_speed / sc->rate > sc->lim[j].step) ||
             flag == HS_SITE_LIMIT_ACCELERATION))
            sc->trip_cause = HS_SITE_CAUSE_JUMP;
        if (rec && (rec->states & late_states)) sc->trip_cause = HS_SITE_CAUSE_LATE;
        if (sc->trip_cause == HS_SITE_CAUSE_NONE && flag == HS_SITE_LIMIT_STEP &&
            sc->trip_speed >= HS_SITE_NEAR_LIMIT * sc->lim[j].step * sc->rate)
            sc->trip_cause = HS_SITE_CAUSE_NEAR_LIMIT;
    }
}

static int trip(hs_site_controller *sc, int j, int flag, double value, double bound)
{
    sc->trip_flags = flag;
    sc->trip_channel = j;
    sc->trip_value = value;
    sc->trip_bound = bound;
    trip_cause(sc, j, flag);
    hs_site_unload_start(&sc->unload, 1, NULL); /* the command that would cross is not sent */
    return flag;
}

/* The first limit the command x_cmd would cross: flags, channel and value. A command that is not
 * a number crosses the first limit there is, or the stroke when there is none. */
static int check_limits(hs_site_controller *sc)
{
    const int n = sc->n;
    for (int j = 0; j < n; j++) {
        const hs_site_limits *L = &sc->lim[j];
        const double x = sc->x_cmd[j], dx = x - sc->x_sent[j],
                     ddx = x - 2.0 * sc->x_sent[j] + sc->x_sent2[j];
        if (!isfinite(x) || (L->disp > 0.0 && !(fabs(x) <= L->disp)))
            return trip(sc, j, HS_SITE_LIMIT_DISPLACEMENT, x, L->disp);
        if (L->vel > 0.0 && !(fabs(dx) * sc->rate <= L->vel))
            return trip(sc, j, HS_SITE_LIMIT_VELOCITY, dx * sc->rate, L->vel);
        if (L->step > 0.0 && !(fabs(dx) <= L->step))
            return trip(sc, j, HS_SITE_LIMIT_STEP, dx, L->step);
        if (L->acc > 0.0 && !(fabs(ddx) * sc->rate * sc->rate <= L->acc))
            return trip(sc, j, HS_SITE_LIMIT_ACCELERATION, ddx * sc->rate * sc->rate, L->acc);
        if (L->force > 0.0) {
            double f = sc->f_meas[j];
            for (int i = 0; sc->has_k0 && i < n; i++)
                f += HS_AT(sc->K0, n, j, i) * (sc->x_cmd[i] - sc->x_meas[i]);
            if (!(fabs(f) <= L->force)) return trip(sc, j, HS_SITE_LIMIT_FORCE, f, L->force);
        }
    }
    return 0;
}

/* The first measurement beyond its limit (stroke, force limit): flags, channel and value. Lab
 * data that is not a measurement (not a number, beyond HS_SITE_LAB_DATA_MAX) trips whatever the
 * limits, named as such (before, 1e300 went on to the integrator and was reported as an unstable
 * integration, and NaN stopped nothing). */
static int check_measurements(hs_site_controller *sc)
{
    /* a virtual laboratory's data is the model's own response (a diverging one is the
     * integrator's to call unstable): only a real laboratory's data is checked */
    const int real_lab = strcmp(hs_lab_kind(sc->lab), "virtual") != 0;
    for (int j = 0; real_lab && j < sc->n; j++) {
        const double x = sc->x_meas[j], f = sc->f_meas[j];
        const int bad_x = !(fabs(x) <= HS_SITE_LAB_DATA_MAX),
                  bad_f = !(fabs(f) <= HS_SITE_LAB_DATA_MAX);
        if (bad_x || bad_f) {
            const int flag =
                trip(sc, j, bad_x ? HS_SITE_LIMIT_MEASURED_DISP : HS_SITE_LIMIT_MEASURED_FORCE,
                     bad_x ? x : f, HS_SITE_LAB_DATA_MAX);
            sc->trip_cause = HS_SITE_CAUSE_LAB_DATA;
            hs_site_unload_start(&sc->unload, 0, NULL); /* no unloading from data like that */
            return flag;
        }
    }
    for (int j = 0; j < sc->n; j++) {
        const hs_site_limits *L = &sc->lim[j];
        if (L->disp > 0.0 && !(fabs(sc->x_meas[j]) <= L->disp))
            return trip(sc, j, HS_SITE_LIMIT_MEASURED_DISP, sc->x_meas[j], L->disp);
        if (L->force > 0.0 && !(fabs(sc->f_meas[j]) <= L->force))
            return trip(sc, j, HS_SITE_LIMIT_MEASURED_FORCE, sc->f_meas[j], L->force);
    }
    return 0;
}

/* The laboratory's status word raised a bit: the site holds (latched like a limit trip). */
static void lab_trip(hs_site_controller *sc, const hs_lab_input *in)
{
    const uint32_t status = in->status;
    sc->trip_flags = HS_SITE_LIMIT_LAB;
    sc->trip_channel = -1;
    sc->trip_lab = hs_lab_kind(sc->lab);
    sc->trip_value = (status & HS_LAB_ST_WATCHDOG) ? (double)in->missing : (double)status;
    sc->trip_bound = (status & HS_LAB_ST_WATCHDOG) ? (double)in->missing_max : 0.0;
    sc->trip_growth = sc->trip_speed = 0.0;
    sc->trip_cause = (status & HS_LAB_ST_WATCHDOG) ? HS_SITE_CAUSE_LAB_WATCHDOG
                     : (status & HS_LAB_ST_FAULT)  ? HS_SITE_CAUSE_LAB_FAULT
                                                   : HS_SITE_CAUSE_LAB_INTERLOCK;
    /* a laboratory that is gone is held and never commanded to move again; a moving command
     * brakes into the hold within the acceleration limit */
    double v[NMAX];
    for (int j = 0; j < sc->n; j++) v[j] = (sc->x_cmd[j] - sc->x_sent[j]) * sc->rate;
    const int gone = (status & HS_LAB_ST_WATCHDOG) != 0;
    hs_site_unload_start(&sc->unload, !gone, gone ? NULL : v);
}

void hs_site_controller_abort(hs_site_controller *sc)
{
    if (sc->trip_flags) return;
    sc->trip_flags = HS_SITE_LIMIT_ABORT;
    sc->trip_channel = -1;
    sc->trip_value = sc->trip_bound = sc->trip_growth = sc->trip_speed = 0.0;
    sc->trip_cause = HS_SITE_CAUSE_OPERATOR;
    sc->abort_pending = 1;
    double v[NMAX]; /* a moving command brakes into the hold within the acceleration limit */
    for (int j = 0; j < sc->n; j++) v[j] = (sc->x_sent[j] - sc->x_sent2[j]) * sc->rate;
    hs_site_unload_start(&sc->unload, 1, v);
}

int hs_site_controller_hold_renew(hs_site_controller *sc)
{
    if (sc->trip_flags || sc->move.active) return 0; /* a trip's hold is the site's own */
    return hs_cmdgen_hold_renew(sc->gen);
}

double hs_site_controller_hold_left(const hs_site_controller *sc)
{
    return sc->trip_flags ? 0.0 : hs_cmdgen_hold_left(sc->gen);
}

int hs_site_controller_unload_state(const hs_site_controller *sc)
{
    return sc->trip_flags ? sc->unload.state : HS_SITE_UNLOAD_OFF;
}

int hs_site_controller_unload_settled(const hs_site_controller *sc)
{
    const int st = hs_site_controller_unload_state(sc);
    return st == HS_SITE_UNLOAD_DONE || st == HS_SITE_UNLOAD_STROKE || st == HS_SITE_UNLOAD_HELD;
}

static void remember(hs_site_controller *sc)
{
    const size_t n = (size_t)sc->n, slot = (size_t)sc->ring_head;
    sc->ring_t[slot] = sc->t_sample;
    memcpy(sc->ring_x + slot * n, sc->x_meas, n * sizeof(double));
    memcpy(sc->ring_f + slot * n, sc->f_meas, n * sizeof(double));
    sc->ring_head = (sc->ring_head + 1) % NH;
    if (sc->ring_n < NH) sc->ring_n++;
}

static void fill_measurement(hs_site_controller *sc, double t)
{
    const size_t n = (size_t)sc->n;
    sc->out_t = t;
    memcpy(sc->out_x, sc->x_meas, n * sizeof(double));
    memcpy(sc->out_f, sc->f_meas, n * sizeof(double));
    sc->out_nhist = sc->ring_n;
    for (int k = 0; k < sc->ring_n; k++) {
        const size_t slot = (size_t)((sc->ring_head - sc->ring_n + k + NH) % NH);
        sc->out_ht[k] = sc->ring_t[slot];
        memcpy(sc->out_hx + (size_t)k * n, sc->ring_x + slot * n, n * sizeof(double));
        memcpy(sc->out_hf + (size_t)k * n, sc->ring_f + slot * n, n * sizeof(double));
    }
    const hs_cmdgen_step *rec =
        sc->trip_flags ? hs_cmdgen_current_step(sc->gen) : hs_cmdgen_last_step(sc->gen);
    sc->out_flags = sc->step_flags | sc->trip_flags;
    sc->out_ticks = rec ? (int)rec->ticks : 0;
    hs_site_report *r = &sc->out_rep;
    r->step = sc->step;
    r->tick = sc->ticks;
    r->t_wall = (double)sc->ticks / sc->rate;
    if (rec)
        r->record = *rec;
    else
        memset(&r->record, 0, sizeof r->record);
    r->limit_flags = sc->trip_flags;
    r->limit_channel = sc->trip_channel;
    r->limit_value = sc->trip_value;
    r->limit_bound = sc->trip_bound;
    r->limit_cause = sc->trip_cause;
    r->limit_growth = sc->trip_growth;
    r->limit_speed = sc->trip_speed;
    r->lab = sc->trip_lab;
    sc->ready = 1;
    sc->step_flags = 0;
}

/* The A/D or D/A converter: a saturation at the limit, then a quantiser of the interval (the RTHS
 * benchmark's controller_model.slx, F1_input_file.m:157-160); identity without converters */
static double converter(const hs_site_controller *sc, double x)
{
    if (!(sc->conv_q > 0.0)) return x;
    return sc->conv_q * round(fmax(-sc->conv_limit, fmin(sc->conv_limit, x)) / sc->conv_q);
}

/* The tick's command: the generator's through the compensators and the limits, or after a trip
 * the hold and the unloading. Returns the events or a negative code. */
static int tick_command(hs_site_controller *sc, int was_tripped)
{
    const int n = sc->n;
    int ev = 0;
    if (sc->abort_pending) { /* the operator's abort: reported with this tick's measurement */
        sc->abort_pending = 0;
        ev |= HS_SC_EV_LIMIT;
    }
    if (!sc->trip_flags) {
        double before[NMAX]; /* the generator's command of the tick before (target_delay) */
        memcpy(before, sc->x_gen, (size_t)n * sizeof(double));
        const int gev = hs_cmdgen_tick(sc->gen, sc->f_meas, sc->x_gen);
        if (gev < 0) return gev;
        ev |= gev;
        const double *x_in = sc->target_delay ? before : sc->x_gen;
        for (int j = 0; j < n; j++) {
            const double xt = converter(sc, x_in[j]), xm = converter(sc, sc->x_meas[j]);
            sc->x_cmd[j] = converter(
                sc,
                sc->comp[j] ? hs_compensator_tick_force(sc->comp[j], xt, xm, sc->f_meas[j]) : xt);
        }
        if (check_limits(sc)) ev |= HS_SC_EV_LIMIT;
    }
    if (sc->trip_flags && !was_tripped) /* the trip's tick holds the last command sent */
        memcpy(sc->x_cmd, sc->x_sent, (size_t)n * sizeof(double));
    else if (sc->trip_flags) /* then hold and unload under control */
        hs_site_unload_tick(&sc->unload, sc->lim, sc->x_sent, sc->x_meas, sc->f_meas, sc->x_cmd);
    return ev;
}

int hs_site_controller_tick(hs_site_controller *sc)
{
    const int n = sc->n;
    int ev = 0;
    const int was_tripped = sc->trip_flags != 0;
    if (sc->move.active) { /* the move to the next test's start overrides everything */
        hs_site_move_tick(&sc->move, sc->x_cmd);
    } else {
        ev = tick_command(sc, was_tripped);
        if (ev < 0) return ev;
    }
    hs_lab_input in = {.x = sc->x_meas, .f = sc->f_meas};
    const int rc = hs_lab_exchange(sc->lab, sc->x_cmd, &in);
    if (rc)
        return hs_fail(sc->ctx, rc, "site controller: tick %lld: %s", (long long)sc->ticks + 1,
                       hs_ctx_message(sc->ctx));
    sc->ticks++;
    sc->lab_tick = in.ctrl_tick;
    for (int j = 0; j < n; j++) sc->step_flags |= hs_lab_actuator_flags(sc->lab, j);
    if (in.status && !sc->trip_flags) { /* interlock, fault or watchdog: the site holds */
        lab_trip(sc, &in);
        ev |= HS_SC_EV_LIMIT;
    }
    memcpy(sc->x_sent2, sc->x_sent, (size_t)n * sizeof(double));
    memcpy(sc->x_sent, sc->x_cmd, (size_t)n * sizeof(double));
    if (!sc->trip_flags && check_measurements(sc)) ev |= HS_SC_EV_LIMIT;
    if (sc->trip_flags && !was_tripped) sc->move.active = 0; /* a trip ends a move: hold */
    /* the sample's simulation time: the step parameter between the last target and the next */
    if (!(ev & HS_SC_EV_LIMIT) && !sc->trip_flags) {
        const double x = hs_cmdgen_step_fraction(sc->gen);
        if (ev & HS_CMDGEN_EV_TARGET)
            sc->t_sample = sc->t_target;
        else if (sc->awaiting && hs_cmdgen_current_state(sc->gen) == HS_CMDGEN_INTERPOLATE)
            sc->t_sample = sc->t_base + x * (sc->t_target - sc->t_base);
        else if (sc->started)
            sc->t_sample = sc->t_base + x * sc->dt;
    }
    remember(sc);
    if (ev & HS_SC_EV_LIMIT) {
        fill_measurement(sc, sc->t_sample);
        ev |= HS_SC_EV_MEASUREMENT;
    } else if (ev & HS_CMDGEN_EV_TARGET) {
        fill_measurement(sc, sc->t_target);
        sc->t_base = sc->t_target;
        sc->awaiting = 0;
        ev |= HS_SC_EV_MEASUREMENT;
    }
    return ev;
}

int hs_site_controller_measurement(hs_site_controller *sc, hs_site_measurement *m,
                                   hs_site_report *r)
{
    if (!sc->ready) return hs_fail(sc->ctx, HS_EINVAL, "site controller: no measurement is ready");
    const size_t n = (size_t)sc->n;
    m->t = sc->out_t;
    memcpy(m->x, sc->out_x, n * sizeof(double));
    memcpy(m->f, sc->out_f, n * sizeof(double));
    m->nhist = sc->out_nhist;
    memcpy(m->hist_t, sc->out_ht, (size_t)sc->out_nhist * sizeof(double));
    memcpy(m->hist_x, sc->out_hx, (size_t)sc->out_nhist * n * sizeof(double));
    memcpy(m->hist_f, sc->out_hf, (size_t)sc->out_nhist * n * sizeof(double));
    m->flags = sc->out_flags;
    m->ticks = sc->out_ticks;
    if (r) *r = sc->out_rep;
    sc->ready = 0;
    return 0;
}

int hs_site_controller_ready(const hs_site_controller *sc)
{
    return sc->ready;
}
void hs_site_controller_trip_report(const hs_site_controller *sc, hs_site_report *r)
{
    memset(r, 0, sizeof *r);
    r->step = sc->step;
    r->tick = sc->ticks;
    r->t_wall = (double)sc->ticks / sc->rate;
    r->limit_flags = sc->trip_flags;
    r->limit_channel = sc->trip_channel;
    r->limit_value = sc->trip_value;
    r->limit_bound = sc->trip_bound;
    r->limit_cause = sc->trip_cause;
    r->limit_growth = sc->trip_growth;
    r->limit_speed = sc->trip_speed;
    r->lab = sc->trip_lab;
}

int hs_site_controller_tripped(const hs_site_controller *sc, int *channel)
{
    if (channel) *channel = sc->trip_channel;
    return sc->trip_flags;
}
const hs_cmdgen *hs_site_controller_cmdgen(const hs_site_controller *sc)
{
    return sc->gen;
}
double hs_site_controller_move_to(hs_site_controller *sc, const double *x)
{
    memcpy(sc->x_gen, x, (size_t)sc->n * sizeof(double)); /* where the next test starts */
    return hs_site_move_plan(&sc->move, sc->n, sc->rate, sc->lim, &sc->unload.p, sc->x_sent, x);
}
/* The rig is at x: x becomes the last command sent (and measurement), and the command moves
 * from there to `to` within half of every limit. */
static double begin_at(hs_site_controller *sc, const double *x, const double *to)
{
    const size_t n = (size_t)sc->n;
    double dest[NMAX];
    memcpy(dest, to, n * sizeof(double)); /* `to` may be one of those overwritten */
    double *at[] = {sc->x_cmd, sc->x_sent, sc->x_sent2, sc->x_meas};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) memcpy(at[i], x, n * sizeof(double));
    return hs_site_move_plan(&sc->move, sc->n, sc->rate, sc->lim, &sc->unload.p, x, dest);
}
double hs_site_controller_start_at(hs_site_controller *sc, const double *x)
{
    if (sc->ticks) return 0.0; /* only before the first exchange */
    return begin_at(sc, x, sc->x_gen);
}
double hs_site_controller_resume_at(hs_site_controller *sc, const double *x, double *reach)
{
    double r[NMAX];
    hs_site_move_reach(sc->n, sc->rate, sc->lim, &sc->unload.p, r);
    if (reach) memcpy(reach, r, (size_t)sc->n * sizeof(double));
    if (!sc->ticks) return 0.0; /* a controller that has not run: start_at */
    int near = 1;
    for (int j = 0; j < sc->n; j++) near &= fabs(x[j] - sc->x_sent[j]) <= r[j];
    return near ? 0.0 : begin_at(sc, x, sc->x_sent);
}
int hs_site_controller_moving(const hs_site_controller *sc)
{
    return sc->move.active;
}
const double *hs_site_controller_command(const hs_site_controller *sc)
{
    return sc->x_sent;
}
int64_t hs_site_controller_ticks(const hs_site_controller *sc)
{
    return sc->ticks;
}
int64_t hs_site_controller_lab_tick(const hs_site_controller *sc)
{
    return sc->lab_tick;
}
hs_lab *hs_site_controller_lab(hs_site_controller *sc)
{
    return sc->lab;
}

/* ---------------------------------------------------------------- checkpoint state */

#include "cmdgen_step_state.h"

/* One walk for counting, saving and loading (sc is written only when loading). */
static void sc_walk(hs_site_controller *sc, hs_state_io *s)
{
    const size_t n = (size_t)sc->n;
    const int64_t BIG = HS_STATE_I64_MAX;
    double *vecs[] = {sc->x_gen, sc->x_cmd, sc->x_sent, sc->x_meas, sc->f_meas};
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++) hs_state_vec(s, vecs[i], n);
    hs_state_vec(s, sc->ring_t, NH);
    hs_state_vec(s, sc->ring_x, NH * n);
    hs_state_vec(s, sc->ring_f, NH * n);
    sc->ring_n = (int)hs_state_int(s, sc->ring_n, 0, NH);
    sc->ring_head = (int)hs_state_int(s, sc->ring_head, 0, NH - 1);
    sc->ticks = hs_state_int(s, sc->ticks, 0, BIG);
    sc->step_flags = (int)hs_state_int(s, sc->step_flags, 0, INT32_MAX);
    sc->started = (int)hs_state_int(s, sc->started, 0, 1);
    sc->awaiting = (int)hs_state_int(s, sc->awaiting, 0, 1);
    sc->step = hs_state_int(s, sc->step, -BIG, BIG);
    sc->t_target = hs_state_num(s, sc->t_target);
    sc->t_base = hs_state_num(s, sc->t_base);
    sc->t_sample = hs_state_num(s, sc->t_sample);
    sc->ready = (int)hs_state_int(s, sc->ready, 0, 1);
    sc->out_t = hs_state_num(s, sc->out_t);
    hs_state_vec(s, sc->out_x, n);
    hs_state_vec(s, sc->out_f, n);
    hs_state_vec(s, sc->out_ht, NH);
    hs_state_vec(s, sc->out_hx, NH * n);
    hs_state_vec(s, sc->out_hf, NH * n);
    sc->out_nhist = (int)hs_state_int(s, sc->out_nhist, 0, NH);
    sc->out_flags = (int)hs_state_int(s, sc->out_flags, 0, INT32_MAX);
    sc->out_ticks = (int)hs_state_int(s, sc->out_ticks, INT32_MIN, INT32_MAX);
    hs_site_report *r = &sc->out_rep;
    r->step = hs_state_int(s, r->step, -BIG, BIG);
    r->tick = hs_state_int(s, r->tick, 0, BIG);
    r->t_wall = hs_state_num(s, r->t_wall);
    hs_cmdgen_step_state(s, &r->record);
    r->limit_flags = (int)hs_state_int(s, r->limit_flags, 0, INT32_MAX);
    r->limit_channel = (int)hs_state_int(s, r->limit_channel, -1, NMAX - 1);
    r->limit_value = hs_state_num(s, r->limit_value);
    sc->trip_flags = (int)hs_state_int(s, sc->trip_flags, 0, INT32_MAX);
    sc->trip_channel = (int)hs_state_int(s, sc->trip_channel, -1, NMAX - 1);
    sc->trip_value = hs_state_num(s, sc->trip_value);
    hs_state_vec(s, sc->x_sent2, n);
}

/* layout: nact, the walk, the generator's state */
size_t hs_site_controller_state_size(const hs_site_controller *sc)
{
    hs_state_io s = hs_state_writer(NULL);
    sc_walk((hs_site_controller *)sc, &s); /* counting writes nothing */
    return 1 + s.pos + hs_cmdgen_state_size(sc->gen);
}

int hs_site_controller_state_save(const hs_site_controller *sc, double *out)
{
    out[0] = (double)sc->n;
    hs_state_io s = hs_state_writer(out + 1);
    sc_walk((hs_site_controller *)sc, &s); /* saving reads sc only */
    return hs_cmdgen_state_save(sc->gen, out + 1 + s.pos);
}

int hs_site_controller_state_load(hs_site_controller *sc, const double *in)
{
    if (in[0] != (double)sc->n)
        return hs_fail(sc->ctx, HS_EINPUT,
                       "site controller: the saved state is for %g actuators, this controller has "
                       "%d",
                       in[0], sc->n);
    hs_state_io s = hs_state_reader(in + 1);
    sc_walk(sc, &s);
    if (s.bad)
        return hs_fail(sc->ctx, HS_EINPUT,
                       "site controller: the saved state holds an impossible count or flag");
    /* a trip restored from a checkpoint holds for good: the unloading is not part of the state */
    if (sc->trip_flags) hs_site_unload_start(&sc->unload, 0, NULL);
    return hs_cmdgen_state_load(sc->gen, in + 1 + s.pos);
}
