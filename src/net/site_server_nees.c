/* NEES clients on the site server (the NEES ASCII "LabVIEW plugin" protocol: UI-SimCor,
 * OpenFresco's ECLabVIEW, the LBCB tools; docs/nees.md): plain TCP lines through the byte-free
 * session of hysim/nees.h, answered by the same controller, limits and safety as the other
 * protocols. The protocol has no authentication: the port opens only when the site file has a
 * `nees` section, the site says so when it starts, and peers outside `nees.allow` are refused at
 * accept.
 *
 * A move (execute, or propose in LabView2) posts a target (a new step of `step_time` wall s) and
 * its reply waits, without blocking the network thread, for the measurement at the target; bytes
 * a client sends meanwhile are kept for after the reply. Each reply line goes out in one write
 * (TCP_NODELAY: one segment), and two lines of one request `line_gap` apart, so that no reader
 * sees two lines in one read (ECLabVIEW and the Java library cannot take it); the later lines wait
 * in the connection's queue, sent from the network thread's poll when due, so that the thread
 * never sleeps for a client (pipelined requests cannot stall it, nor delay a stop). The first
 * request of a connection that moves starts a new test on a fresh laboratory.
 *
 * Only complete, valid requests (answered without an error token) count as the client's activity
 * (issue 17): a connection with none within frame_timeout of its accept is dropped, and a session
 * ends with close-session, the peer's EOF, or `idle_timeout` s without a valid request (bytes,
 * partial lines and declined lines do not keep it open). Declined requests are logged for the
 * first few of a connection, then at most once every 10 s with the count of those not logged. */
#include "site_server_impl.h"

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>

struct hs_srv_nees {
    hs_nees_session *sess;
    hs_nees_lines lines;
    int moving;     /* a target is posted for the session */
    int64_t t_move; /* ns: when */
    int bound;      /* this connection runs a test */
    int requests;   /* lines answered */
    uint8_t *stash; /* bytes received during a move or a reply of several lines */
    size_t stash_len;
    hs_nees_action reply; /* the reply being sent: lines [next, nlines) still to go */
    int next;
    int64_t line_at;     /* ns: when the next line may go */
    int64_t declines;    /* declined requests of this connection */
    int64_t unlogged;    /* declines not logged (the rate limit) */
    int64_t decline_log; /* ns: the last decline logged */
};

#define DECLINES_LOGGED 5    /* the first declines of a connection logged one by one */
#define DECLINE_LOG_GAP 10.0 /* s between two decline logs after them */

#define STASH_CAP HS_NEES_MAX_LINE

void hs_srv_nees_destroy(hs_srv_nees **np)
{
    hs_srv_nees *n = *np;
    if (!n) return;
    hs_nees_session_destroy(&n->sess);
    hs_free(n->stash);
    hs_free(n);
    *np = NULL;
}

static void finish(hs_site_server *s, int refused, const char *what)
{
    hs_srv_log_peer(s, refused ? HS_LOG_WARN : HS_LOG_INFO, "%s", what);
    if (refused) hs_srv_count(s, &s->status.refused);
    hs_srv_nees *n = s->conn.nees;
    if (n && n->unlogged)
        hs_srv_log_peer(s, HS_LOG_WARN, "%lld more declined requests were not logged",
                        (long long)n->unlogged);
    if (n && n->bound && s->test.live) s->test.ended = 1; /* the test was this session's */
    hs_srv_close(s);                                      /* frees the session */
}

int hs_srv_nees_open(hs_site_server *s, int fd, const char *peer, uint32_t addr)
{
    const hs_nees_config *nc = &s->cfg.site.nees;
    if (!hs_nees_allowed(nc, addr)) {
        if (hs_srv_may_log_refusal(s))
            hs_log(s->ctx, HS_LOG_WARN,
                   "site %s: %s: NEES client refused: its address is not in "
                   "site.nees.allow",
                   s->cfg.site.name, peer);
        hs_srv_count(s, &s->status.refused);
        return HS_EINPUT;
    }
    hs_srv_conn *c = &s->conn;
    memset(c, 0, sizeof *c);
    c->kind = HS_SRV_NEES;
    c->fd = fd;
    c->t_rx = hs_srv_now();
    snprintf(c->peer, sizeof c->peer, "%s", peer);
    hs_srv_nees *n = hs_calloc(1, sizeof *n);
    double stroke[HS_SITE_MAX_ACT];
    const char *names[HS_SITE_MAX_ACT];
    for (int j = 0; j < s->nact; j++) {
        stroke[j] = s->cfg.site.actuator[j].stroke;
        names[j] = s->cfg.site.actuator_names[j];
    }
    int rc = n ? 0 : hs_fail(s->ctx, HS_ENOMEM, "out of memory");
    if (!rc && !(n->stash = hs_malloc(STASH_CAP))) rc = hs_fail(s->ctx, HS_ENOMEM, "out of memory");
    if (!rc) rc = hs_nees_session_create(s->ctx, nc, s->nact, names, stroke, &n->sess);
    c->nees = n;
    if (rc) {
        finish(s, 1, hs_ctx_message(s->ctx));
        return rc;
    }
    hs_site_server_status st;
    hs_srv_status_copy(s, &st);
    hs_nees_session_state(n->sess, st.x, st.f);
    hs_srv_log_peer(s, HS_LOG_INFO, "connected (NEES ASCII protocol, no authentication)");
    return 0;
}

static int send_line(hs_site_server *s, const char *line, size_t len)
{
    hs_transport tr = hs_transport_fd(s->conn.fd);
    size_t done = 0;
    while (done < len) {
        const ptrdiff_t w = tr.write(tr.user, (const uint8_t *)line + done, len - done,
                                     (int)(s->cfg.frame_timeout * 1000.0));
        if (w <= 0) return HS_ENET;
        done += (size_t)w;
    }
    return 0;
}

static void log_decline(hs_site_server *s, hs_srv_nees *n, int64_t now)
{
    n->declines++;
    if (n->declines > DECLINES_LOGGED && 1e-9 * (double)(now - n->decline_log) < DECLINE_LOG_GAP) {
        n->unlogged++;
        return;
    }
    const hs_nees_action *a = &n->reply;
    char said[600];
    snprintf(said, sizeof said, "%.*s", (int)a->len[a->nlines - 1] - 1, a->line[a->nlines - 1]);
    for (char *p = said; *p; p++)
        if (*p == '\t') *p = ' ';
    if (n->unlogged)
        hs_srv_log_peer(s, HS_LOG_WARN, "declined: %s (and %lld declined requests not logged)",
                        said, (long long)n->unlogged);
    else
        hs_srv_log_peer(s, HS_LOG_WARN, "declined: %s", said);
    n->unlogged = 0;
    n->decline_log = now;
}

static int replying(const hs_srv_nees *n)
{
    return n->next < n->reply.nlines;
}

/* Sends the reply's lines that are due (line_gap apart); 1 when the session is over. A reply sent
 * whole is the client's activity unless it declined the request. */
static int send_due(hs_site_server *s, hs_srv_nees *n, int64_t now)
{
    const hs_nees_action *a = &n->reply;
    while (replying(n)) {
        if (n->next > 0 && now < n->line_at) return 0;
        if (send_line(s, a->line[n->next], a->len[n->next])) {
            finish(s, 0, "the NEES client disappeared");
            return 1;
        }
        n->next++;
        n->line_at = now + (int64_t)(1e9 * s->cfg.site.nees.line_gap);
    }
    if (a->declined) {
        log_decline(s, n, now);
    } else if (a->nlines > 0) {
        s->conn.t_rx = now;
        s->conn.served = 1;
    }
    if (a->kind == HS_NEES_ACT_CLOSE) {
        finish(s, 0, "the NEES client ended its session (close-session)");
        return 1;
    }
    return 0;
}

/* Starts sending a reply (its lines point into the session, untouched until it is sent); 1 when
 * the session is over. */
static int send_action(hs_site_server *s, const hs_nees_action *a)
{
    hs_srv_nees *n = s->conn.nees;
    n->reply = *a;
    n->next = 0;
    return send_due(s, n, hs_srv_now());
}

/* A new test on a fresh laboratory for the connection's first move (the previous test at rest). */
static int ensure_test(hs_site_server *s, hs_srv_nees *n, char *why, size_t cap)
{
    if (n->bound) return 0;
    hs_site_server_status st;
    hs_srv_status_copy(s, &st);
    if (!hs_srv_at_rest(&st)) {
        snprintf(why, cap,
                 "the laboratory is not at rest yet (the previous test still moves); "
                 "try again in a moment");
        return HS_EABORTED;
    }
    /* a stepwise test, as the OpenFresco protocols': the NEES clients are quasi-static too, each
     * target approached and held while the client computes the next one */
    const int rc = hs_srv_new_test(s, s->cfg.site.nees.step_time, 1.0, s->conn.peer, 2);
    if (rc) {
        snprintf(why, cap, "%s", hs_ctx_message(s->ctx));
        return rc;
    }
    n->bound = 1;
    hs_srv_count(s, &s->status.sessions);
    /* the fresh laboratory's state, once the loop has published it (bounded) */
    const int64_t gen = atomic_load(&s->generation);
    const struct timespec pause = {0, 200000};
    for (int k = 0; k < 1000; k++) {
        hs_srv_status_copy(s, &st);
        if (st.generation == gen) break;
        nanosleep(&pause, NULL);
    }
    hs_nees_session_state(n->sess, st.x, st.f);
    hs_srv_log_peer(s, HS_LOG_INFO, "new NEES test: a fresh laboratory at rest, %g s a step",
                    s->cfg.site.nees.step_time);
    return 0;
}

/* Posts the move's target; on refusal answers at once. 1 when the session is over. */
static int start_move(hs_site_server *s, hs_srv_nees *n, const double *x)
{
    char why[400] = "";
    int rc = ensure_test(s, n, why, sizeof why);
    hs_site_server_status st;
    hs_srv_status_copy(s, &st);
    if (!rc && st.tripped) {
        snprintf(why, sizeof why, "site %s holds after a safety limit trip; target refused",
                 s->cfg.site.name);
        rc = HS_ELIMIT;
    }
    if (!rc && (st.state == HS_CMDGEN_FREE_VIBRATION || st.state == HS_CMDGEN_DONE)) {
        snprintf(why, sizeof why, "site %s ended the test on its side (%s); target refused",
                 s->cfg.site.name, hs_cmdgen_state_name(st.state));
        rc = HS_EABORTED;
    }
    const hs_srv_test *t = &s->test;
    if (!rc) {
        const int64_t step = t->last_step + 1;
        rc = hs_srv_post_target(s, step, (double)(step + 1) * s->cfg.site.nees.step_time, x);
        if (rc) snprintf(why, sizeof why, "%s", hs_ctx_message(s->ctx));
    }
    if (!rc) {
        n->moving = 1;
        n->t_move = hs_srv_now();
        return 0;
    }
    hs_nees_action a;
    hs_nees_session_moved(n->sess, NULL, NULL, rc, why, &a);
    return send_action(s, &a);
}

/* Feeds bytes to the session until a move starts (the rest is kept) or they are used up. */
static int process(hs_site_server *s, const uint8_t *buf, size_t len)
{
    hs_srv_nees *n = s->conn.nees;
    size_t off = 0;
    while (off < len) {
        if (n->moving || replying(n)) {
            if (n->stash_len + (len - off) > STASH_CAP) {
                finish(s, 1, "refused: more than 64 KB sent while a reply was under way");
                return 1;
            }
            memmove(n->stash + n->stash_len, buf + off, len - off);
            n->stash_len += len - off;
            return 0;
        }
        size_t used = 0;
        const int got = hs_nees_lines_push(&n->lines, buf + off, len - off, &used);
        off += used;
        if (!got) break;
        /* a connection's first propose starts its test, so that the DOFs it leaves out stay
         * where the fresh laboratory has them */
        const char *w = n->lines.buf + strspn(n->lines.buf, " \t");
        if (!n->bound && strncasecmp(w, "propose", 7) == 0) {
            char why[200];
            if (ensure_test(s, n, why, sizeof why))
                hs_srv_log_peer(s, HS_LOG_WARN, "%s", why); /* the move will be refused */
        }
        hs_nees_action a;
        if (n->lines.truncated)
            hs_nees_session_overlong(n->sess, &a);
        else
            hs_nees_session_line(n->sess, n->lines.buf, &a);
        n->requests++;
        if (a.kind == HS_NEES_ACT_MOVE) {
            if (start_move(s, n, a.x)) return 1;
        } else if (send_action(s, &a)) {
            return 1;
        }
    }
    return 0;
}

/* What the client sent during a move or a reply of several lines, once it is over. */
static void resume(hs_site_server *s, hs_srv_nees *n)
{
    const size_t len = n->stash_len;
    if (!len) return;
    memcpy(s->io, n->stash, len);
    n->stash_len = 0;
    process(s, s->io, len);
}

void hs_srv_nees_input(hs_site_server *s)
{
    hs_srv_conn *c = &s->conn;
    const ssize_t r = recv(c->fd, s->io, s->io_cap, MSG_DONTWAIT);
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (r <= 0) {
        finish(s, 0, "the NEES client closed the connection");
        return;
    }
    process(s, s->io, (size_t)r); /* only valid requests count as activity (send_due) */
}

void hs_srv_nees_poll(hs_site_server *s, int64_t now)
{
    hs_srv_pump(s);
    hs_srv_nees *n = s->conn.nees;
    if (!n) return;
    const hs_nees_config *nc = &s->cfg.site.nees;
    if (replying(n)) {
        if (send_due(s, n, now) || replying(n)) return;
        resume(s, n);
        return;
    }
    if (n->moving) {
        const hs_srv_test *t = &s->test;
        hs_nees_action a;
        if (!t->awaiting) {
            char why[256] = "";
            const int err = t->have_meas ? 0 : t->meas.error ? t->meas.error : HS_EPROTO;
            const hs_site_report *r = &t->meas.report;
            if (err && r->limit_flags)
                hs_site_limit_message(
                    why, sizeof why, s->cfg.site.name,
                    r->limit_channel >= 0 ? s->cfg.site.actuator_names[r->limit_channel] : "?", r,
                    s->cfg.site.units_length, s->cfg.site.units_force, s->cfg.site.units_time);
            else if (err)
                snprintf(why, sizeof why,
                         "site %s: step %lld refused by the controller (%s); the site holds",
                         s->cfg.site.name, (long long)t->last_step, hs_strerror(err));
            hs_nees_session_moved(n->sess, t->meas.m.x, t->meas.m.f, err, why, &a);
        } else if (1e-9 * (double)(now - n->t_move) > s->cfg.timeout + nc->step_time) {
            char why[200];
            snprintf(why, sizeof why, "site %s: step %lld not reached within %g s",
                     s->cfg.site.name, (long long)t->last_step, s->cfg.timeout);
            hs_nees_session_moved(n->sess, NULL, NULL, HS_ETIMEOUT, why, &a);
        } else {
            return;
        }
        n->moving = 0;
        if (send_action(s, &a) || replying(n)) return;
        resume(s, n);
        return;
    }
    const double idle = 1e-9 * (double)(now - s->conn.t_rx);
    if (!s->conn.served && idle > s->cfg.frame_timeout)
        finish(s, 1, "refused: no valid NEES request within frame_timeout of the connection");
    else if (s->conn.served && idle > nc->idle_timeout)
        finish(s, 0,
               "the NEES client sent no valid request for longer than site.nees.idle_timeout; "
               "session ended");
}
