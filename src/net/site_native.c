/* A remote site over hysim's native protocol (docs/protocol.md, docs/distributed.md): TCP with
 * TCP_NODELAY, the secure channel's handshake with the key file (plain mode only when the test
 * file says `plain: true`), HELLO negotiation (actuators, controller rate, limits, dt, time
 * scale, names), then per step TARGET (tagged with the step) -> MEASUREMENT -> COMMIT, with
 * HEARTBEATs while a measurement is awaited, and BYE at the end.
 *
 * The site paces the test on its own clock: the `wall` argument of send_target is ignored and
 * the coordinator's wait is bounded by the site's timeout (analysis.site_timeout) on the
 * monotonic clock. A lost connection, a timeout, a refusal or an ERROR from the site returns
 * HS_ENET / HS_ETIMEOUT / the site's code with a message naming the site; the connection is
 * then dead for good (later calls fail at once). */
#include "site_net.h"

#include "hysim/cmdgen.h"
#include "hysim/secure.h"

#include <math.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define HEARTBEAT_S 1.0 /* a heartbeat when the coordinator has sent nothing for this long */
#define HOLD_S                                                                                     \
    1.0 /* while paused, a HOLD at least this often (a quarter of a shorter                        \
           hold_timeout) */

typedef struct site_native {
    hs_site_url url;
    uint8_t key[HS_SECURE_KEY_SIZE];
    int fd;
    hs_socket_link link; /* fd's transport (waits inside recv) */
    hs_secure *ch;
    int timeout_ms;
    double rate;     /* the site's controller rate (HELLO_ACK) */
    double dt;       /* the test's step (for a reconnection) */
    int used;        /* a TARGET went over this connection: RESUME needs a new one */
    int bound;       /* the site binds this connection to the test (a TARGET or RESUME) */
    int broken;      /* the connection is gone: every later call fails */
    int64_t pending; /* step whose measurement is awaited, -1 none */
    double target[HS_SITE_MAX_ACT];
    double last_sent; /* monotonic s of our last frame */
    uint64_t echo_ns; /* sent_ns of the site's last heartbeat */
    uint32_t caps;    /* negotiated (HELLO_ACK) */
    int64_t done;     /* steps done (committed): a HOLD's step */
    /* an operator's pause (sn_idle, sn_hold): the last HOLD sent, the site's last answer */
    double hold_sent, hold_t; /* monotonic s; 0: none in this pause */
    hs_wire_hold hold;
    char lost_why[512]; /* why the connection died while paused ("" none) */
    hs_wire_msg in, out;
    /* the summary, from the measurements */
    int64_t steps, steps_slow, steps_hold, state_ticks[8];
    double max_delay, total_time;
    int limit_flags, ended;
    double mte[HS_SITE_MAX_ACT], rms[HS_SITE_MAX_ACT], ti_peak[HS_SITE_MAX_ACT];
    double a_es[HS_SITE_MAX_ACT]; /* NaN until the site reports it (HS_WIRE_CAP_STEP_STATS) */
    int64_t resumes;
    double max_outage;
} site_native;

/* The summary's figures, in the coordinator's checkpoint (their order: sn_state_walk), so that a
 * resumed run's site summary goes on from where the killed run left it. */
#define SN_STATE_FIXED   (9 + 8)
#define SN_STATE_PER_ACT 4

static uint64_t now_ns(void)
{
    return (uint64_t)(hs_site_clock() * 1e9);
}

/* Marks the connection dead and fails with `code`, naming the site and quoting the channel's
 * message when there is one. */
static int broken(hs_site *s, int code, const char *what)
{
    site_native *n = s->data;
    n->broken = 1;
    const char *why = hs_ctx_message(s->ctx);
    return hs_fail(s->ctx, code, "site %s (%s): %s%s%s", s->cfg.name, s->cfg.url, what,
                   why[0] ? ": " : "", why);
}

static int send_msg(hs_site *s, const char *what)
{
    site_native *n = s->data;
    if (n->broken && n->lost_why[0]) /* during a pause: said at the next step */
        return hs_fail(s->ctx, n->ended ? HS_EABORTED : HS_ENET, "%s", n->lost_why);
    if (n->broken || !n->ch)
        return hs_fail(s->ctx, HS_ENET, "site %s (%s): the connection is lost", s->cfg.name,
                       s->cfg.url);
    hs_ctx_clear(s->ctx);
    const int rc = hs_secure_send(n->ch, &n->out);
    if (rc) return broken(s, rc == HS_ETIMEOUT ? HS_ETIMEOUT : HS_ENET, what);
    n->last_sent = hs_site_clock();
    return 0;
}

static int send_heartbeat(hs_site *s, int64_t step)
{
    site_native *n = s->data;
    n->out = (hs_wire_msg){.type = HS_WIRE_HEARTBEAT, .step = step < 0 ? 0 : step};
    n->out.heartbeat.sent_ns = now_ns();
    n->out.heartbeat.echo_ns = n->echo_ns;
    return send_msg(s, "sending a heartbeat");
}

/* An ERROR from the site: its code (when it is one of ours) and its sentence. */
static int site_error(hs_site *s, const hs_wire_error *e, int64_t step)
{
    site_native *n = s->data;
    n->broken = 1;
    const int code = e->code <= -1 && e->code >= HS_EUNSUPPORTED ? e->code : HS_EPROTO;
    if (code == HS_EABORTED) n->ended = 1;
    return hs_fail(s->ctx, code, "site %s (%s) reports at step %lld: %s", s->cfg.name, s->cfg.url,
                   (long long)step, e->text);
}

/* The answer to a request (HELLO, RESUME), heartbeats skipped, within the timeout. */
static int recv_answer(hs_site *s, const char *what)
{
    site_native *n = s->data;
    const double deadline = hs_site_clock() + 1e-3 * n->timeout_ms;
    for (;;) {
        const double left = deadline - hs_site_clock();
        hs_ctx_clear(s->ctx);
        const int rc =
            left > 0.0 ? hs_secure_recv(n->ch, &n->in, (int)(1000.0 * left) + 1) : HS_ETIMEOUT;
        if (rc) return broken(s, rc == HS_ETIMEOUT ? HS_ETIMEOUT : rc, what);
        if (n->in.type == HS_WIRE_HOLD_ACK) continue; /* a pause's answer, late */
        if (n->in.type != HS_WIRE_HEARTBEAT) return 0;
        n->echo_ns = n->in.heartbeat.sent_ns;
    }
}

/* ---- connection, authentication, negotiation ---- */

static void hello_offer(const hs_site *s, double dt, hs_wire_hello *h)
{
    const hs_site_config *c = &s->cfg;
    memset(h, 0, sizeof *h);
    h->version_min = h->version_max = HS_WIRE_VERSION;
    h->caps = HS_WIRE_CAP_RESUME | HS_WIRE_CAP_HISTORY | HS_WIRE_CAP_TRACKING |
              HS_WIRE_CAP_FREE_VIBRATION | HS_WIRE_CAP_STEP_STATS | HS_WIRE_CAP_HOLD;
    h->nact = c->nact;
    h->rate = c->need_rate > 0.0 ? c->need_rate : 0.0;
    h->time_scale = c->time_scale > 0.0 ? c->time_scale : 1.0;
    h->dt = dt;
    for (int j = 0; j < c->nact; j++)
        h->limits[j] = (hs_wire_act_limits){.displacement = c->actuator[j].stroke,
                                            .velocity = c->actuator[j].velocity_max,
                                            .force = c->actuator[j].force_max};
    snprintf(h->coordinator, sizeof h->coordinator, "hysim");
    snprintf(h->site, sizeof h->site, "%s", c->name);
}

static int negotiate(hs_site *s, double dt)
{
    site_native *n = s->data;
    n->out = (hs_wire_msg){.type = HS_WIRE_HELLO};
    hello_offer(s, dt, &n->out.hello);
    int rc = send_msg(s, "sending HELLO");
    if (rc) return rc;
    rc = recv_answer(s, "no answer to HELLO");
    if (rc) return rc;
    if (n->in.type == HS_WIRE_ERROR) {
        n->broken = 1;
        const int code = n->in.error.code == HS_EAUTH ? HS_EAUTH : HS_EUNSUPPORTED;
        return hs_fail(s->ctx, code, "site %s (%s) refuses the test: %s", s->cfg.name, s->cfg.url,
                       n->in.error.text);
    }
    if (n->in.type != HS_WIRE_HELLO_ACK) {
        n->broken = 1;
        return hs_fail(s->ctx, HS_EPROTO, "site %s (%s): %s in answer to HELLO", s->cfg.name,
                       s->cfg.url, hs_wire_type_name((int)n->in.type));
    }
    const hs_wire_hello *a = &n->in.hello;
    if (a->nact != s->cfg.nact || !(a->rate > 0.0) || a->version_min != HS_WIRE_VERSION) {
        n->broken = 1;
        return hs_fail(s->ctx, HS_EPROTO,
                       "site %s (%s): HELLO_ACK with %d actuator(s) at %g Hz, version %d (the "
                       "test has %d actuator(s), version %d)",
                       s->cfg.name, s->cfg.url, a->nact, a->rate, a->version_min, s->cfg.nact,
                       HS_WIRE_VERSION);
    }
    n->rate = a->rate;
    n->caps = a->caps;
    return 0;
}

static void disconnect(site_native *n)
{
    hs_secure_destroy(&n->ch);
    if (n->fd >= 0) close(n->fd);
    n->fd = -1;
}

static int sn_setup(hs_site *s, double dt)
{
    site_native *n = s->data;
    disconnect(n);
    n->broken = 0;
    n->pending = -1;
    n->dt = dt;
    n->used = n->bound = 0;
    int rc = hs_site_tcp_connect(s, &n->url, n->timeout_ms, &n->fd);
    if (rc) {
        n->broken = 1;
        return rc;
    }
    hs_secure_config sc = {.role = HS_SECURE_COORDINATOR,
                           .mode = s->cfg.plain ? HS_SECURE_PLAIN : HS_SECURE_PSK,
                           .timeout_ms = n->timeout_ms};
    memcpy(sc.key, n->key, sizeof sc.key);
    const hs_transport tr = hs_transport_socket(&n->link, n->fd);
    rc = hs_secure_create(s->ctx, &sc, &tr, &n->ch);
    sodium_memzero(sc.key, sizeof sc.key);
    if (rc) return broken(s, rc, "secure channel");
    hs_ctx_clear(s->ctx);
    rc = hs_secure_handshake(n->ch);
    if (rc == HS_EAUTH)
        return broken(s, HS_EAUTH,
                      s->cfg.plain ? "authentication failed (plain mode)"
                                   : "authentication failed (check the key file)");
    if (rc) return broken(s, rc == HS_ETIMEOUT ? HS_ETIMEOUT : rc, "handshake failed");
    n->last_sent = hs_site_clock();
    return negotiate(s, dt);
}

/* ---- the step ---- */

static int sn_send_target(hs_site *s, int64_t step, double t, const double *x, double wall)
{
    (void)wall; /* the site stamps its own clock */
    site_native *n = s->data;
    if (n->pending >= 0)
        return hs_fail(s->ctx, HS_EINVAL,
                       "site %s: target of step %lld sent before step %lld "
                       "was measured",
                       s->cfg.name, (long long)step + 1, (long long)n->pending);
    /* on the wire steps count from 1: the target of t(k+1) is step k+1, and COMMIT of step N
     * means N steps are done (RESUME speaks of steps done too) */
    n->out = (hs_wire_msg){.type = HS_WIRE_TARGET, .step = step + 1};
    n->out.target.t = t;
    n->out.target.nact = s->cfg.nact;
    for (int j = 0; j < s->cfg.nact; j++) n->out.target.x[j] = n->target[j] = x[j];
    n->used = n->bound = 1;
    n->hold_sent = n->hold_t = 0.0; /* a pause, if any, is over */
    int rc = send_msg(s, "sending a target");
    if (!rc) n->pending = step + 1; /* on the wire steps count from 1 */
    return rc;
}

static void take(hs_site *s, const hs_wire_measurement *w, hs_site_measurement *m)
{
    site_native *n = s->data;
    const int na = s->cfg.nact;
    m->t = w->t;
    for (int j = 0; j < na; j++) {
        m->x[j] = w->x[j];
        m->f[j] = w->f[j];
        m->te[j] = n->target[j] - w->x[j];    /* the target against what was reached */
        m->ti[j] = w->stats ? w->ti[j] : NAN; /* a site that does not report it: unknown */
        n->mte[j] = w->mte[j];
        n->rms[j] = w->rms[j];
        n->ti_peak[j] = w->ti_peak[j];
        if (w->stats) n->a_es[j] = w->a_es[j];
    }
    m->nhist = w->nhist;
    for (int k = 0; k < w->nhist; k++) {
        m->hist_t[k] = w->hist_t[k];
        for (int j = 0; j < na; j++) {
            m->hist_x[k * na + j] = w->hist_x[k * na + j];
            m->hist_f[k * na + j] = w->hist_f[k * na + j];
        }
    }
    m->flags = (int)w->flags;
    m->ticks = w->ticks > INT32_MAX ? INT32_MAX : (int)w->ticks;
    m->wall = hs_site_clock();
    m->states = (int)w->states;
    m->delay = (double)w->delay_ticks / n->rate;
    n->steps++;
    if (w->states & HS_CMDGEN_BIT(HS_CMDGEN_SLOW)) n->steps_slow++;
    if (w->states & HS_CMDGEN_BIT(HS_CMDGEN_HOLD)) n->steps_hold++;
    if (w->states & HS_CMDGEN_BIT(HS_CMDGEN_DONE)) n->ended = 1;
    for (int k = 0; k < w->nstates && k < 8; k++) n->state_ticks[k] += w->state_ticks[k];
    /* the first new step after a resume waited for the coordinator's restart: an outage, not a
     * delay of the network or the integrator */
    if (w->stats && (w->stats_flags & HS_WIRE_MEAS_RESUMED)) {
        if (m->delay > n->max_outage) n->max_outage = m->delay;
    } else if (m->delay > n->max_delay)
        n->max_delay = m->delay;
    n->total_time = w->t_reached;
    n->limit_flags |= m->flags;
}

static int sn_get_measurement(hs_site *s, hs_site_measurement *m)
{
    site_native *n = s->data;
    const int64_t step = n->pending;
    if (step < 0) return hs_fail(s->ctx, HS_EINVAL, "site %s: no target awaits", s->cfg.name);
    const double start = hs_site_clock(), deadline = start + 1e-3 * n->timeout_ms;
    for (;;) {
        const double now = hs_site_clock();
        if (now >= deadline) {
            n->broken = 1;
            return hs_fail(s->ctx, HS_ETIMEOUT,
                           "site %s (%s): no measurement of step %lld within %g s", s->cfg.name,
                           s->cfg.url, (long long)step, 1e-3 * n->timeout_ms);
        }
        if (now - n->last_sent >= HEARTBEAT_S) {
            const int rc = send_heartbeat(s, step);
            if (rc) return rc;
        }
        double wait = deadline - now;
        if (wait > HEARTBEAT_S) wait = HEARTBEAT_S;
        hs_ctx_clear(s->ctx);
        const int rc = hs_secure_recv(n->ch, &n->in, (int)(1000.0 * wait) + 1);
        if (rc == HS_ETIMEOUT) continue;
        if (rc) {
            char what[96];
            snprintf(what, sizeof what, "connection lost while step %lld was awaited",
                     (long long)step);
            return broken(s, rc == HS_EAUTH || rc == HS_EPROTO ? rc : HS_ENET, what);
        }
        switch (n->in.type) {
        case HS_WIRE_HEARTBEAT:
            n->echo_ns = n->in.heartbeat.sent_ns;
            continue;
        case HS_WIRE_HOLD_ACK: /* the last pause's answer, late */
            continue;
        case HS_WIRE_ERROR:
            return site_error(s, &n->in.error, step);
        case HS_WIRE_BYE:
            n->broken = 1;
            return hs_fail(s->ctx, HS_ENET,
                           "site %s (%s) closed the test (BYE) while step %lld was awaited",
                           s->cfg.name, s->cfg.url, (long long)step);
        case HS_WIRE_MEASUREMENT:
            if (n->in.step < step) continue; /* an answer to a repeated target: seen already */
            if (n->in.step == step && n->in.meas.nact == s->cfg.nact) {
                take(s, &n->in.meas, m);
                n->pending = -1;
                return 0;
            }
            n->broken = 1;
            return hs_fail(s->ctx, HS_EPROTO,
                           "site %s (%s): measurement of step %lld with %d actuator(s) while "
                           "step %lld (%d actuator(s)) was awaited",
                           s->cfg.name, s->cfg.url, (long long)n->in.step, n->in.meas.nact,
                           (long long)step, s->cfg.nact);
        default:
            n->broken = 1;
            return hs_fail(s->ctx, HS_EPROTO,
                           "site %s (%s): unexpected %s while step %lld was "
                           "awaited",
                           s->cfg.name, s->cfg.url, hs_wire_type_name((int)n->in.type),
                           (long long)step);
        }
    }
}

static int sn_commit(hs_site *s, int64_t step)
{
    site_native *n = s->data;
    n->out = (hs_wire_msg){.type = HS_WIRE_COMMIT, .step = step + 1};
    const int rc = send_msg(s, "sending a commit");
    if (!rc) n->done = step + 1;
    return rc;
}

/* The longest gap between two HOLDs: HOLD_S, or a quarter of the site's hold_timeout. */
static double hold_period(const site_native *n)
{
    const double th = n->hold_t > 0.0 ? n->hold.hold_timeout : 0.0;
    return th > 0.0 && th / 4.0 < HOLD_S ? th / 4.0 : HOLD_S;
}

/* Marks the connection dead during a pause; the next step reports `why` (and the run ends). */
static int lost_paused(hs_site *s, int code, const char *why)
{
    site_native *n = s->data;
    n->broken = 1;
    snprintf(n->lost_why, sizeof n->lost_why,
             "site %.63s (%.127s) while the test was paused: %.255s", s->cfg.name, s->cfg.url, why);
    return hs_fail(s->ctx, code, "%s", n->lost_why);
}

/* What the site sent between steps, taken without waiting: heartbeats, answers to HOLD, or its
 * ERROR (it lost us, or ended the test). */
static int drain(hs_site *s)
{
    site_native *n = s->data;
    for (;;) {
        hs_ctx_clear(s->ctx);
        const int rc = hs_secure_recv(n->ch, &n->in, 0);
        if (rc == HS_ETIMEOUT) return 0;
        if (rc) return lost_paused(s, HS_ENET, "the connection is lost");
        switch (n->in.type) {
        case HS_WIRE_HEARTBEAT:
            n->echo_ns = n->in.heartbeat.sent_ns;
            break;
        case HS_WIRE_HOLD_ACK:
            n->hold = n->in.hold;
            n->hold_t = hs_site_clock();
            if (n->hold.state == HS_CMDGEN_FREE_VIBRATION || n->hold.state == HS_CMDGEN_DONE)
                n->ended = 1;
            break;
        case HS_WIRE_ERROR:
            if (n->in.error.code == HS_EABORTED) n->ended = 1;
            return lost_paused(s, HS_EABORTED, n->in.error.text);
        default:
            return lost_paused(s, HS_EPROTO,
                               n->in.type == HS_WIRE_BYE ? "it closed the test (BYE)"
                                                         : "an unexpected message");
        }
    }
}

/* Between steps for a while (hs_site_idle, an operator's pause): a site that speaks HOLD gets one
 * at once and then every hold_period (it restarts its hold_timeout and answers how long its hold
 * lasts); another gets a heartbeat when the coordinator has been silent for HEARTBEAT_S, as while
 * a measurement is awaited (its hold_timeout then runs). */
static int sn_idle(hs_site *s)
{
    site_native *n = s->data;
    if (n->broken || !n->ch) return 0;
    int rc = drain(s);
    if (rc) return rc;
    const double now = hs_site_clock();
    if ((n->caps & HS_WIRE_CAP_HOLD) && n->pending < 0 && n->bound) {
        if (n->hold_sent > 0.0 && now - n->hold_sent < hold_period(n)) return 0;
        n->out = (hs_wire_msg){.type = HS_WIRE_HOLD, .step = n->done};
        rc = send_msg(s, "sending HOLD");
        if (!rc) n->hold_sent = now;
        return rc;
    }
    if (now - n->last_sent < HEARTBEAT_S) return 0;
    return send_heartbeat(s, n->pending);
}

/* The site's hold as its answers to HOLD tell it (hs_site_hold). */
static int sn_hold(const hs_site *s, double *left)
{
    const site_native *n = s->data;
    *left = NAN;
    if (!(n->caps & HS_WIRE_CAP_HOLD) || !(n->hold_t > 0.0)) return HS_SITE_HOLD_UNKNOWN;
    if (n->hold.state == HS_CMDGEN_FREE_VIBRATION || n->hold.state == HS_CMDGEN_DONE) {
        *left = 0.0;
        return HS_SITE_HOLD_ENDED;
    }
    if (!(n->hold.hold_timeout > 0.0)) {
        *left = INFINITY;
        return HS_SITE_HOLD_UNTIMED;
    }
    const double age = hs_site_clock() - n->hold_t;
    *left = n->hold.left > age ? n->hold.left - age : 0.0;
    /* kept while the answers come: two periods and the network's half second */
    return !n->broken && age <= 2.0 * hold_period(n) + 0.5 ? HS_SITE_HOLD_KEPT
                                                           : HS_SITE_HOLD_LAPSING;
}

/* Resuming from a checkpoint: `step` steps are done and the site should hold x_held. On a fresh
 * connection (reconnecting when this one carried targets): HELLO, then RESUME; the site answers
 * RESUME_ACK with its last committed step (it must be `step`) and the command it holds, or ERROR
 * (nothing held, the specimen unloaded). */
static int sn_resume(hs_site *s, int64_t step, const double *x_held)
{
    site_native *n = s->data;
    int rc = 0;
    if (n->used || n->broken || !n->ch) rc = sn_setup(s, n->dt);
    if (rc) return rc;
    n->out = (hs_wire_msg){.type = HS_WIRE_RESUME, .step = step};
    rc = send_msg(s, "sending RESUME");
    if (rc) return rc;
    rc = recv_answer(s, "no answer to RESUME");
    if (rc) return rc;
    if (n->in.type == HS_WIRE_ERROR) return site_error(s, &n->in.error, step);
    if (n->in.type != HS_WIRE_RESUME_ACK || n->in.resume.nact != s->cfg.nact) {
        n->broken = 1;
        return hs_fail(s->ctx, HS_EPROTO, "site %s (%s): %s in answer to RESUME", s->cfg.name,
                       s->cfg.url, hs_wire_type_name((int)n->in.type));
    }
    if (n->in.step != step) {
        n->broken = 1;
        return hs_fail(s->ctx, HS_EPROTO,
                       "site %s (%s): the site has committed %lld step(s), the checkpoint %lld",
                       s->cfg.name, s->cfg.url, (long long)n->in.step, (long long)step);
    }
    n->resumes++;
    n->bound = 1;
    n->done = step;
    /* A site that lost its coordinator extrapolated, slowed and held (Mosqueda et al. 2004): it
     * holds near, not at, the checkpoint's target. The resume goes on from there (the next target
     * brings the actuators back, through the site's command generator); the offset is reported. */
    for (int j = 0; j < s->cfg.nact; j++) {
        const double x = n->in.resume.x[j];
        if (fabs(x - x_held[j]) > 1e-9 * (1.0 + fabs(x_held[j])))
            hs_log(s->ctx, HS_LOG_WARN,
                   "site %s: actuator %s holds %.9g, %.3g from the checkpoint's target %.9g; the "
                   "next target brings it back",
                   s->cfg.name, s->cfg.actuator_names[j], x, x - x_held[j], x_held[j]);
    }
    return 0;
}

static int sn_summary(const hs_site *s, hs_site_summary *out)
{
    const site_native *n = s->data;
    memset(out, 0, sizeof *out);
    out->steps = n->steps;
    out->max_delay = n->max_delay;
    out->total_time = n->total_time;
    const double steps = n->steps > 0 ? (double)n->steps : 1.0;
    out->pct_slow = 100.0 * (double)n->steps_slow / steps;
    out->pct_hold = 100.0 * (double)n->steps_hold / steps;
    memcpy(out->state_ticks, n->state_ticks, sizeof out->state_ticks);
    out->limit_flags = n->limit_flags;
    out->ended = n->ended;
    out->nact = s->cfg.nact;
    for (int j = 0; j < s->cfg.nact; j++) {
        out->mte[j] = n->mte[j];
        out->rms[j] = n->rms[j];
        out->ti_peak[j] = n->ti_peak[j];
        out->a_es[j] = n->a_es[j];
    }
    out->resumes = n->resumes;
    out->max_outage = n->max_outage;
    return 0;
}

/* One walk over the summary's figures: saves into `out`, or loads from `in`. */
static void sn_state_walk(site_native *n, int nact, double *out, const double *in)
{
    size_t k = 0;
#define SN_I64(x)                                                                                  \
    do {                                                                                           \
        if (in)                                                                                    \
            (x) = (int64_t)in[k];                                                                  \
        else                                                                                       \
            out[k] = (double)(x);                                                                  \
        k++;                                                                                       \
    } while (0)
#define SN_F64(x)                                                                                  \
    do {                                                                                           \
        if (in)                                                                                    \
            (x) = in[k];                                                                           \
        else                                                                                       \
            out[k] = (x);                                                                          \
        k++;                                                                                       \
    } while (0)
    int64_t flags = n->limit_flags, ended = n->ended;
    SN_I64(n->steps);
    SN_I64(n->steps_slow);
    SN_I64(n->steps_hold);
    SN_I64(n->resumes);
    SN_F64(n->max_delay);
    SN_F64(n->total_time);
    SN_F64(n->max_outage);
    SN_I64(flags);
    SN_I64(ended);
    n->limit_flags = (int)flags;
    n->ended = (int)ended;
    for (int i = 0; i < 8; i++) SN_I64(n->state_ticks[i]);
    for (int j = 0; j < nact; j++) {
        SN_F64(n->mte[j]);
        SN_F64(n->rms[j]);
        SN_F64(n->ti_peak[j]);
        SN_F64(n->a_es[j]);
    }
#undef SN_I64
#undef SN_F64
}

static size_t sn_state_size(const hs_site *s)
{
    return SN_STATE_FIXED + SN_STATE_PER_ACT * (size_t)s->cfg.nact;
}

static int sn_state_save(const hs_site *s, double *out)
{
    sn_state_walk(s->data, s->cfg.nact, out, NULL);
    return 0;
}

static int sn_state_load(hs_site *s, const double *in)
{
    sn_state_walk(s->data, s->cfg.nact, NULL, in);
    return 0;
}

/* The test's end (hs_site_end): BYE, and the site lets the test go. */
static void sn_end(hs_site *s)
{
    site_native *n = s->data;
    if (!n->ch || n->broken) return; /* a dead site is not waited for */
    n->out = (hs_wire_msg){.type = HS_WIRE_BYE};
    hs_secure_send(n->ch, &n->out);
}

/* The run stopped part-way (hs_site_leave): ERROR with the reason, so that the site's log says
 * why; no BYE, so the site keeps holding the test for a resume. */
static void sn_leave(hs_site *s, const char *why)
{
    site_native *n = s->data;
    if (!n->ch || n->broken || n->ended) return;
    n->out = (hs_wire_msg){.type = HS_WIRE_ERROR};
    n->out.error.code = HS_EABORTED;
    snprintf(n->out.error.text, sizeof n->out.error.text, "%s", why ? why : "the run stopped");
    hs_secure_send(n->ch, &n->out);
}

/* Closes the connection without BYE: an aborted run's sites keep holding their tests. */
static void sn_destroy(hs_site *s)
{
    site_native *n = s->data;
    if (!n) return;
    disconnect(n);
    sodium_memzero(n->key, sizeof n->key);
    hs_free(n);
    s->data = NULL;
}

int hs_site_create_native(hs_site *s, const hs_site_url *u)
{
    site_native *n = hs_calloc(1, sizeof *n);
    if (!n) return HS_ENOMEM;
    s->data = n;
    n->url = *u;
    n->fd = -1;
    n->pending = -1;
    n->timeout_ms = hs_site_timeout_ms(s);
    for (int j = 0; j < HS_SITE_MAX_ACT; j++) n->a_es[j] = NAN;
    s->ops.setup = sn_setup;
    s->ops.send_target = sn_send_target;
    s->ops.get_measurement = sn_get_measurement;
    s->ops.commit = sn_commit;
    s->ops.summary = sn_summary;
    s->ops.resume = sn_resume;
    s->ops.idle = sn_idle;
    s->ops.hold = sn_hold;
    s->ops.leave = sn_leave;
    s->ops.end = sn_end;
    s->ops.state_size = sn_state_size;
    s->ops.state_save = sn_state_save;
    s->ops.state_load = sn_state_load;
    s->ops.destroy = sn_destroy;
    if (s->cfg.plain) return 0;
    if (!s->cfg.key[0])
        return hs_fail(s->ctx, HS_EINPUT,
                       "site %s (%s): no key file (give `key`, or `plain: true` on both ends)",
                       s->cfg.name, s->cfg.url);
    const int rc = hs_secure_key_read(s->ctx, s->cfg.key, n->key);
    if (rc) return hs_fail(s->ctx, rc, "site %s: key: %s", s->cfg.name, hs_ctx_message(s->ctx));
    return 0;
}
