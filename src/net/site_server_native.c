/* The native protocol on the site server (docs/protocol.md, docs/site_server.md): frames are
 * assembled without blocking (the header first, its length bounded before the body is read),
 * the handshake runs through the secure channel's state machine, then HELLO (negotiated),
 * RESUME, TARGET (applied once per step number), COMMIT, HEARTBEAT, BYE. Any refusal is logged,
 * answered with an ERROR frame and a sentence, and the connection closed. */
#include "site_server_impl.h"

#include <errno.h>
#include <math.h>
#include <sodium.h>
#include <stdarg.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define CAP (HS_WIRE_HEADER_SIZE + HS_WIRE_MAX_LENGTH)

static int send_bytes(hs_site_server *s, int fd, const uint8_t *buf, size_t len)
{
    return hs_srv_send_bytes(fd, buf, len, hs_srv_ms(s->cfg.frame_timeout));
}

/* Sends msg: sealed once the channel is ready, plain during the handshake. */
static int send_msg(hs_site_server *s, const hs_wire_msg *msg)
{
    hs_srv_conn *c = &s->conn;
    size_t len = 0;
    int rc;
    if (hs_secure_ready(c->ch)) {
        rc = hs_secure_seal(c->ch, msg, s->tx, CAP, &len);
    } else {
        hs_wire_status st;
        rc = hs_wire_encode(msg, c->tx_frames, s->tx, CAP, &len, &st);
    }
    if (!rc) rc = send_bytes(s, c->fd, s->tx, len);
    if (!rc) c->tx_frames++;
    return rc;
}

/* Refuses the peer: log, ERROR frame, close. */
static void refuse(hs_site_server *s, int code, const char *fmt, ...) HS_PRINTF(3, 4);
static void refuse(hs_site_server *s, int code, const char *fmt, ...)
{
    char text[HS_WIRE_TEXT_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    hs_srv_log_peer(s, HS_LOG_WARN, "refused (%s): %s", hs_strerror(code), text);
    hs_wire_msg m;
    hs_wire_error_set(&m, s->test.last_step > 0 ? s->test.last_step : 0, code, "%s", text);
    send_msg(s, &m);
    hs_srv_count(s, &s->status.refused);
    hs_srv_close(s);
}

void hs_srv_native_refuse_busy(hs_site_server *s, hs_srv_pending *p)
{
    hs_wire_msg m;
    const hs_srv_conn *c = &s->conn;
    if (s->cfg.mode == HS_SECURE_PSK)
        hs_wire_error_set(&m, 0, HS_EABORTED, "busy: a test is running with %s",
                          c->coordinator[0] ? c->coordinator : c->peer);
    else /* plain: nobody is authenticated, nobody is told who is connected */
        hs_wire_error_set(&m, 0, HS_EABORTED, "busy: a test is running");
    size_t len = 0;
    if (hs_secure_seal(p->ch, &m, s->tx, CAP, &len) == 0) hs_srv_send_bytes(p->fd, s->tx, len, 0);
    hs_log(s->ctx, HS_LOG_WARN, "site %s: %s: refused: %s", s->cfg.site.name, p->peer,
           m.error.text);
}

void hs_srv_native_bye(hs_site_server *s, const char *why)
{
    hs_wire_msg m;
    if (s->conn.phase == HS_SRV_AUTH) return;
    hs_wire_error_set(&m, 0, HS_EABORTED, "site %s: %s", s->cfg.site.name, why);
    send_msg(s, &m);
    memset(&m, 0, sizeof m);
    m.type = HS_WIRE_BYE;
    send_msg(s, &m);
}

void hs_srv_native_adopt(hs_site_server *s, hs_srv_pending *p)
{
    hs_srv_conn *c = &s->conn;
    memset(c, 0, sizeof *c);
    c->kind = HS_SRV_NATIVE;
    c->fd = p->fd;
    c->ch = p->ch;
    c->tx_frames = p->tx_frames;
    c->phase = HS_SRV_HELLO;
    p->fd = -1;
    p->ch = NULL;
    snprintf(c->peer, sizeof c->peer, "%s", p->peer);
    c->t_rx = hs_srv_now();
    c->rx_need = HS_WIRE_HEADER_SIZE;
    pthread_mutex_lock(&s->status_lock);
    s->status.connected = 1;
    pthread_mutex_unlock(&s->status_lock);
    hs_srv_log_peer(s, HS_LOG_INFO, "%s; holds the site (native protocol)",
                    s->cfg.mode == HS_SECURE_PSK ? "authenticated" : "handshake done (plain)");
}

/* ---- the test ---- */

static void site_description(hs_site_server *s, hs_wire_hello *h)
{
    const hs_site_config *c = &s->cfg.site;
    memset(h, 0, sizeof *h);
    h->version_min = h->version_max = HS_WIRE_VERSION;
    h->caps = HS_WIRE_CAP_ALL;
    h->nact = c->nact;
    h->rate = s->rate;
    h->time_scale = s->cfg.min_time_scale;
    h->dt = 1.0;
    for (int j = 0; j < c->nact; j++)
        h->limits[j] = (hs_wire_act_limits){c->actuator[j].stroke, c->actuator[j].velocity_max,
                                            c->actuator[j].force_max};
    snprintf(h->site, sizeof h->site, "%s", c->name);
}

static void on_hello(hs_site_server *s, const hs_wire_msg *m)
{
    hs_srv_conn *c = &s->conn;
    hs_wire_hello site, ack;
    hs_wire_msg refusal;
    site_description(s, &site);
    if (hs_wire_negotiate(&m->hello, &site, &ack, &refusal)) {
        refuse(s, refusal.error.code, "%s", refusal.error.text);
        return;
    }
    snprintf(c->coordinator, sizeof c->coordinator, "%s",
             m->hello.coordinator[0] ? m->hello.coordinator : c->peer);
    c->dt = m->hello.dt;
    c->time_scale = m->hello.time_scale;
    c->caps = ack.caps;
    hs_wire_msg out;
    memset(&out, 0, sizeof out);
    out.type = HS_WIRE_HELLO_ACK;
    out.hello = ack;
    if (send_msg(s, &out)) {
        hs_srv_log_peer(s, HS_LOG_WARN, "lost while answering HELLO");
        hs_srv_close(s);
        return;
    }
    c->phase = HS_SRV_RUN;
    c->served = 1;
    c->t_hb = 0;
    hs_srv_count(s, &s->status.sessions);
    hs_srv_log_peer(s, HS_LOG_INFO, "coordinator %s: dt %g s, time scale %g (%d ticks a step)",
                    c->coordinator, c->dt, c->time_scale,
                    (int)(c->dt * c->time_scale * s->rate + 0.5));
}

/* The live test this connection may continue: same step and time scale, not ended. */
static int continuable(hs_site_server *s, const hs_site_server_status *st, const char **why)
{
    const hs_srv_test *t = &s->test;
    const hs_srv_conn *c = &s->conn;
    *why = NULL;
    if (t->ended_by_site ||
        (t->live && !t->ended && !t->openfresco &&
         (st->state == HS_CMDGEN_DONE || st->state == HS_CMDGEN_FREE_VIBRATION)))
        *why = s->ended_why;
    else if (!t->live || t->ended || t->openfresco)
        *why = "no test is held here";
    else if (t->dt != c->dt || t->time_scale != c->time_scale)
        *why = "the test held here has another step or time scale";
    return *why == NULL;
}

/* RESUME of a coordinator that restarted from its checkpoint of `step` N steps. The coordinator
 * makes a step durable before it sends COMMIT, and sends the next TARGET only after that COMMIT
 * (docs/checkpoints.md), so a site that has applied step A and committed C can be resumed from N
 * exactly when A == N (COMMIT N received or not: C is N or N - 1) or A == N + 1 with C == N (the
 * coordinator died after its next TARGET: it computes the same target again, which is recognised
 * as a repeat and answered with the stored measurement). The specimen never goes back. Anything
 * else is refused and changes nothing: the test stays held for a coordinator that fits. */
static void on_resume(hs_site_server *s, const hs_wire_msg *m)
{
    hs_srv_conn *c = &s->conn;
    hs_srv_test *t = &s->test;
    hs_site_server_status st;
    hs_srv_status_copy(s, &st);
    const char *why;
    if (c->bound) {
        refuse(s, HS_EPROTO, "RESUME after the test has begun on this connection");
        return;
    }
    if (!continuable(s, &st, &why)) {
        refuse(s, HS_EABORTED, "nothing to resume (coordinator step %lld): %s", (long long)m->step,
               why);
        return;
    }
    if (st.moving) { /* a restarted site brings the rig back to the held command first */
        refuse(s, HS_EABORTED,
               "cannot resume yet: the site is moving the rig back to the held test's command "
               "(it was moved while the site was down; the site's log says how long the move "
               "takes); the test is kept: run `hysim run --resume` again once it has arrived");
        return;
    }
    const int64_t n = m->step, a = t->last_step > 0 ? t->last_step : 0,
                  done = t->last_committed > 0 ? t->last_committed : 0;
    if (!((a == n && (done == n || done == n - 1)) || (a == n + 1 && done == n))) {
        refuse(s, HS_EPROTO,
               "cannot resume from step %lld: the site has applied step %lld and committed %lld "
               "(a checkpoint must be of the site's last step or the one before); the test is "
               "kept",
               (long long)n, (long long)a, (long long)done);
        return;
    }
    t->last_committed = n; /* the checkpoint holds step n: it is committed */
    pthread_mutex_lock(&s->status_lock);
    s->status.last_committed = n;
    pthread_mutex_unlock(&s->status_lock);
    t->meas_new = 0; /* a measurement not yet sent goes with its repeated target */
    t->resumed = 1;
    hs_wire_msg out;
    memset(&out, 0, sizeof out);
    out.type = HS_WIRE_RESUME_ACK;
    out.step = n;
    out.resume.nact = s->nact;
    memcpy(out.resume.x, st.command, (size_t)s->nact * sizeof(double));
    c->bound = c->resumed = 1;
    snprintf(t->coordinator, sizeof t->coordinator, "%s", c->coordinator);
    hs_srv_log_peer(s, HS_LOG_INFO,
                    "coordinator %s resumes from step %lld; the site had committed %lld, applied "
                    "%lld, state %s",
                    c->coordinator, (long long)n, (long long)done, (long long)a,
                    hs_cmdgen_state_name(st.state));
    if (send_msg(s, &out)) hs_srv_close(s);
}

static void send_measurement(hs_site_server *s)
{
    hs_srv_test *t = &s->test;
    hs_wire_msg out;
    memset(&out, 0, sizeof out);
    out.type = HS_WIRE_MEASUREMENT;
    out.step = t->meas.step;
    out.meas = t->meas.m;
    out.meas.stats = (s->conn.caps & HS_WIRE_CAP_STEP_STATS) != 0;
    out.meas.stats_flags = out.step == t->outage_step ? HS_WIRE_MEAS_RESUMED : 0;
    t->meas_new = 0;
    if (send_msg(s, &out)) {
        hs_srv_log_peer(s, HS_LOG_WARN, "coordinator %s disappeared (cannot send step %lld)",
                        s->conn.coordinator, (long long)out.step);
        hs_srv_close(s);
        return;
    }
    if (t->meas.m.flags & HS_SITE_LIMIT_ANY) {
        hs_wire_msg e;
        const hs_site_report *r = &t->meas.report;
        char text[1024];
        hs_site_limit_message(
            text, sizeof text, s->cfg.site.name,
            r->limit_channel >= 0 ? s->cfg.site.actuator_names[r->limit_channel] : "?", r,
            s->cfg.site.units_length, s->cfg.site.units_force, s->cfg.site.units_time);
        hs_wire_error_set(&e, out.step, HS_ELIMIT, "%s", text);
        snprintf(t->trip_text, sizeof t->trip_text, "%s", e.error.text);
        hs_srv_log_peer(s, HS_LOG_WARN, "%s", e.error.text);
        send_msg(s, &e);
    }
}

static void on_target(hs_site_server *s, const hs_wire_msg *m)
{
    hs_srv_conn *c = &s->conn;
    hs_srv_test *t = &s->test;
    const hs_wire_target *tg = &m->target;
    if (tg->nact != s->nact) {
        refuse(s, HS_EPROTO, "TARGET of step %lld has %d values; site %s has %d actuator(s)",
               (long long)m->step, tg->nact, s->cfg.site.name, s->nact);
        return;
    }
    hs_site_server_status st;
    hs_srv_status_copy(s, &st);
    if (!c->bound) {
        const char *why;
        if (st.state == HS_CMDGEN_FREE_VIBRATION && !st.tripped) {
            refuse(s, HS_EABORTED,
                   "site %s unloads its specimen in free vibration after its hold timeout: the "
                   "last test is over and cannot be resumed; start a new test once the motion "
                   "has died out (at most command.fv_max_time)",
                   s->cfg.site.name);
            return;
        }
        if (t->live && !t->ended && !t->openfresco && continuable(s, &st, &why) &&
            !hs_srv_at_rest(&st)) {
            refuse(s, HS_EABORTED,
                   "the test of %s is still moving (state %s); RESUME it, or start a new test "
                   "once the site holds",
                   t->coordinator, hs_cmdgen_state_name(st.state));
            return;
        }
        if (hs_srv_new_test(s, c->dt, c->time_scale, c->coordinator, 0)) {
            refuse(s, HS_EUNSUPPORTED, "%s", hs_ctx_message(s->ctx));
            return;
        }
        c->bound = 1;
        hs_srv_log_peer(s, HS_LOG_INFO, "new test of %s: a fresh laboratory at rest",
                        c->coordinator);
        hs_srv_status_copy(s, &st);
    }
    if (m->step == t->last_step) {
        if (memcmp(tg->x, t->last_x, (size_t)s->nact * sizeof(double)) != 0) {
            refuse(s, HS_EPROTO, "a second TARGET for step %lld with other values",
                   (long long)m->step);
            return;
        }
        hs_srv_log_peer(s, HS_LOG_INFO,
                        "TARGET of step %lld repeated: recognised, not applied "
                        "again",
                        (long long)m->step);
        if (t->have_meas && t->meas.step == m->step) send_measurement(s);
        return;
    }
    if (m->step < t->last_step) {
        refuse(s, HS_EPROTO, "TARGET for step %lld, but the site has applied step %lld",
               (long long)m->step, (long long)t->last_step);
        return;
    }
    if (t->awaiting) {
        refuse(s, HS_EPROTO, "TARGET for step %lld while step %lld is still being reached",
               (long long)m->step, (long long)t->last_step);
        return;
    }
    if (st.tripped && (t->trip_text[0] || st.trip.limit_flags)) { /* the trip, named */
        if (!t->trip_text[0]) {
            const hs_site_report *r = &st.trip;
            hs_site_limit_message(
                t->trip_text, sizeof t->trip_text, s->cfg.site.name,
                r->limit_channel >= 0 ? s->cfg.site.actuator_names[r->limit_channel] : "?", r,
                s->cfg.site.units_length, s->cfg.site.units_force, s->cfg.site.units_time);
        }
        refuse(s, HS_ELIMIT, "%s", t->trip_text);
        return;
    }
    if (st.tripped) {
        refuse(s, HS_ELIMIT,
               "site %s holds after a safety limit trip; target of step %lld "
               "refused",
               s->cfg.site.name, (long long)m->step);
        return;
    }
    if (st.state == HS_CMDGEN_FREE_VIBRATION || st.state == HS_CMDGEN_DONE) {
        refuse(s, HS_EABORTED,
               "site %s ended the test on its side (%s); target of step %lld "
               "refused",
               s->cfg.site.name, hs_cmdgen_state_name(st.state), (long long)m->step);
        return;
    }
    if (hs_srv_post_target(s, m->step, tg->t, tg->x)) {
        refuse(s, HS_EPROTO, "%s", hs_ctx_message(s->ctx));
        return;
    }
    if (c->held) { /* the end of an operator's pause */
        hs_srv_log_peer(
            s, HS_LOG_INFO, "coordinator %s goes on with step %lld after a %.1f s pause",
            c->coordinator, (long long)m->step, 1e-9 * (double)(hs_srv_now() - c->held));
        c->held = 0;
    }
    if (t->resumed) { /* the first new step after a RESUME waited out the outage */
        t->outage_step = m->step;
        t->resumed = 0;
    }
}

/* HOLD: the test's coordinator keeps the hold alive while its operator pauses (docs/site_server.md,
 * "An operator's pause"). Only the peer that holds the slot gets here (it proved the key, or did
 * the plain handshake), and only once this connection is bound to the test (RESUME or a TARGET):
 * nobody else, not a stranger, a NEES or an OpenFresco client, restarts a hold. The loop restarts
 * the hold timer at its next tick (hold_req); the answer says how long the hold lasts now. */
static void on_hold(hs_site_server *s, const hs_wire_msg *m)
{
    hs_srv_conn *c = &s->conn;
    if (!(c->caps & HS_WIRE_CAP_HOLD)) {
        refuse(s, HS_EPROTO, "HOLD from a coordinator that did not ask for it in HELLO");
        return;
    }
    if (!c->bound) {
        refuse(s, HS_EPROTO,
               "HOLD before this connection has a test (RESUME or a TARGET first): only the "
               "test's own coordinator keeps its hold");
        return;
    }
    hs_site_server_status st;
    hs_srv_status_copy(s, &st);
    const int over = st.tripped || st.state == HS_CMDGEN_FREE_VIBRATION ||
                     st.state == HS_CMDGEN_DONE || s->test.ended_by_site;
    if (!over) atomic_store(&s->hold_req, 1);
    hs_srv_count(s, &s->status.holds);
    if (!c->held) {
        c->held = hs_srv_now();
        hs_srv_log_peer(s, HS_LOG_INFO,
                        "coordinator %s pauses after step %lld (its operator): the site holds "
                        "(state %s)%s",
                        c->coordinator, (long long)m->step, hs_cmdgen_state_name(st.state),
                        over ? "; its test is over, nothing to keep"
                             : ", its hold_timeout restarted by each HOLD");
    }
    double left = st.state == HS_CMDGEN_HOLD ? st.hold_timeout : st.hold_left;
    if (over || !(st.hold_timeout > 0.0)) left = 0.0;
    if (!isfinite(left)) left = st.hold_timeout; /* before the first target: a hold to come */
    hs_wire_msg out;
    memset(&out, 0, sizeof out);
    out.type = HS_WIRE_HOLD_ACK;
    out.step = s->test.last_step > 0 ? s->test.last_step : 0;
    out.hold.state = st.state >= 0 && st.state < HS_WIRE_MAX_STATES ? st.state : HS_CMDGEN_HOLD;
    out.hold.hold_timeout = st.hold_timeout;
    out.hold.left = left;
    if (send_msg(s, &out)) {
        hs_srv_log_peer(s, HS_LOG_WARN, "coordinator %s disappeared (HOLD_ACK not sent)",
                        c->coordinator);
        hs_srv_close(s);
    }
}

static void on_commit(hs_site_server *s, const hs_wire_msg *m)
{
    hs_srv_test *t = &s->test;
    if (!s->conn.bound || m->step > t->last_step || m->step < t->last_committed) {
        refuse(s, HS_EPROTO, "COMMIT of step %lld: the site has applied step %lld, committed %lld",
               (long long)m->step, (long long)t->last_step, (long long)t->last_committed);
        return;
    }
    t->last_committed = m->step;
    pthread_mutex_lock(&s->status_lock);
    s->status.last_committed = m->step;
    pthread_mutex_unlock(&s->status_lock);
}

static void on_bye(hs_site_server *s)
{
    hs_srv_conn *c = &s->conn;
    if (c->bound) {
        s->test.ended = 1;
        pthread_mutex_lock(&s->status_lock);
        s->status.test_ended = 1;
        pthread_mutex_unlock(&s->status_lock);
        hs_srv_state_forget(s); /* a restarted site has no test to resume */
    }
    /* the site's own tracking figures at the last measurement, as summary.json reports them */
    char figures[HS_SITE_MAX_ACT * 80] = "";
    const hs_wire_measurement *w = &s->test.meas.m;
    size_t len = 0;
    for (int j = 0; c->bound && s->test.have_meas && j < w->nact && len < sizeof figures; j++) {
        const int k = snprintf(figures + len, sizeof figures - len, "; %s: a_es %.6g, max TI %.6g",
                               s->cfg.site.actuator_names[j], w->a_es[j], w->ti_peak[j]);
        if (k > 0) len += (size_t)k;
    }
    hs_srv_log_peer(s, HS_LOG_INFO, "coordinator %s said BYE (last step %lld, committed %lld)%s",
                    c->coordinator, (long long)s->test.last_step, (long long)s->test.last_committed,
                    figures);
    hs_wire_msg out;
    memset(&out, 0, sizeof out);
    out.type = HS_WIRE_BYE;
    send_msg(s, &out);
    hs_srv_close(s);
}

static void on_message(hs_site_server *s, const hs_wire_msg *m)
{
    hs_srv_conn *c = &s->conn;
    if (m->type == HS_WIRE_ERROR && m->error.code == HS_EABORTED && c->phase == HS_SRV_RUN) {
        /* the coordinator's run stopped part-way (hs_site_leave): the test stays held */
        hs_srv_log_peer(s, HS_LOG_WARN,
                        "coordinator %s stopped its run: %s; the test stays held for hysim run "
                        "--resume",
                        c->coordinator, m->error.text);
        hs_srv_close(s);
        return;
    }
    if (m->type == HS_WIRE_ERROR) {
        hs_srv_log_peer(s, HS_LOG_WARN, "the peer reports error %d: %s", m->error.code,
                        m->error.text);
        hs_srv_close(s);
        return;
    }
    if (c->phase == HS_SRV_HELLO) {
        if (m->type != HS_WIRE_HELLO)
            refuse(s, HS_EPROTO, "expected HELLO, got %s", hs_wire_type_name((int)m->type));
        else
            on_hello(s, m);
        return;
    }
    switch (m->type) {
    case HS_WIRE_TARGET:
        on_target(s, m);
        break;
    case HS_WIRE_COMMIT:
        on_commit(s, m);
        break;
    case HS_WIRE_HEARTBEAT:
        c->peer_hb = m->heartbeat.sent_ns;
        break;
    case HS_WIRE_RESUME:
        on_resume(s, m);
        break;
    case HS_WIRE_HOLD:
        on_hold(s, m);
        break;
    case HS_WIRE_BYE:
        on_bye(s);
        break;
    default:
        refuse(s, HS_EPROTO, "unexpected %s from a coordinator", hs_wire_type_name((int)m->type));
    }
}

/* One whole frame in s->rx. */
static void on_frame(hs_site_server *s, size_t len)
{
    hs_srv_conn *c = &s->conn;
    c->t_rx = hs_srv_now();
    hs_wire_msg m;
    const int rc = hs_secure_open(c->ch, s->rx, len, &m);
    if (rc) {
        refuse(s, rc, "%s", hs_ctx_message(s->ctx));
        return;
    }
    on_message(s, &m);
}

void hs_srv_native_input(hs_site_server *s)
{
    hs_srv_conn *c = &s->conn;
    while (c->kind == HS_SRV_NATIVE) {
        const ssize_t r = recv(c->fd, s->rx + c->rx_len, c->rx_need - c->rx_len, MSG_DONTWAIT);
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
        if (r <= 0) {
            if (c->rx_len)
                refuse(s, HS_EPROTO, "frame cut after %zu of %zu bytes: the peer closed", c->rx_len,
                       c->rx_need);
            else if (c->phase == HS_SRV_RUN && !s->test.ended)
                hs_srv_log_peer(s, HS_LOG_WARN,
                                "coordinator %s disappeared without BYE; the controller carries on",
                                c->coordinator);
            else
                hs_srv_log_peer(s, HS_LOG_INFO, "closed the connection");
            if (c->kind && c->phase != HS_SRV_RUN && !c->rx_len)
                hs_srv_count(s, &s->status.refused);
            hs_srv_close(s);
            return;
        }
        if (c->rx_len == 0) c->t_frame = hs_srv_now();
        c->rx_len += (size_t)r;
        if (c->rx_len < c->rx_need) continue;
        if (c->rx_need == HS_WIRE_HEADER_SIZE) {
            hs_wire_header h;
            hs_wire_status st;
            if (hs_wire_header_decode(s->rx, c->rx_len, 0, &h, &st)) {
                refuse(s, HS_EPROTO, "%s", st.text);
                return;
            }
            c->rx_need = HS_WIRE_HEADER_SIZE + h.length;
            if (c->rx_need > HS_WIRE_HEADER_SIZE) continue;
        }
        const size_t len = c->rx_len;
        c->rx_len = 0;
        c->rx_need = HS_WIRE_HEADER_SIZE;
        on_frame(s, len);
    }
}

void hs_srv_native_poll(hs_site_server *s, int64_t now)
{
    hs_srv_conn *c = &s->conn;
    hs_srv_pump(s);
    if (c->kind != HS_SRV_NATIVE) return;
    if (c->bound && s->test.meas_new) {
        if (s->test.meas.error) {
            const int code = s->test.meas.error;
            s->test.meas_new = 0;
            const hs_site_report *r = &s->test.meas.report;
            if (code == HS_ELIMIT && r->limit_flags) { /* the trip itself, named */
                char text[1024];
                hs_site_limit_message(
                    text, sizeof text, s->cfg.site.name,
                    r->limit_channel >= 0 ? s->cfg.site.actuator_names[r->limit_channel] : "?", r,
                    s->cfg.site.units_length, s->cfg.site.units_force, s->cfg.site.units_time);
                refuse(s, code, "%s", text);
                return;
            }
            refuse(s, code, "site %s: target of step %lld not applied: %s", s->cfg.site.name,
                   (long long)s->test.meas.step,
                   code == HS_ELIMIT ? "a safety limit has tripped, the site holds"
                                     : hs_strerror(code));
            return;
        }
        send_measurement(s);
        if (c->kind != HS_SRV_NATIVE) return;
    }
    const double silent = 1e-9 * (double)(now - c->t_rx);
    if (c->rx_len && 1e-9 * (double)(now - c->t_frame) > s->cfg.frame_timeout) {
        refuse(s, HS_ETIMEOUT, "frame cut: %zu of %zu bytes in %g s", c->rx_len, c->rx_need,
               s->cfg.frame_timeout);
        return;
    }
    if (silent > s->cfg.timeout) {
        if (c->phase == HS_SRV_RUN) {
            hs_site_server_status st;
            hs_srv_status_copy(s, &st);
            hs_srv_count(s, &s->status.lost);
            hs_srv_log_peer(s, HS_LOG_WARN,
                            "coordinator %s lost: silent for %.1f s; the controller carries on "
                            "(state %s) and the site waits for a coordinator",
                            c->coordinator, silent, hs_cmdgen_state_name(st.state));
            hs_wire_msg e;
            hs_wire_error_set(&e, 0, HS_ETIMEOUT, "site %s: silent for %.1f s: declared lost",
                              s->cfg.site.name, silent);
            send_msg(s, &e);
            hs_srv_close(s);
        } else {
            refuse(s, HS_ETIMEOUT, "no HELLO within %g s of the handshake", s->cfg.timeout);
        }
        return;
    }
    if (c->phase == HS_SRV_RUN && 1e-9 * (double)(now - c->t_hb) >= s->cfg.heartbeat) {
        hs_wire_msg hb;
        memset(&hb, 0, sizeof hb);
        hb.type = HS_WIRE_HEARTBEAT;
        hb.step = s->test.last_step > 0 && c->bound ? s->test.last_step : 0;
        hb.heartbeat.sent_ns = (uint64_t)now;
        hb.heartbeat.echo_ns = c->peer_hb;
        c->t_hb = now;
        if (send_msg(s, &hb)) {
            hs_srv_log_peer(s, HS_LOG_WARN, "coordinator %s disappeared (heartbeat not sent)",
                            c->coordinator);
            hs_srv_close(s);
        }
    }
}
