/* OpenFresco clients on the site server (protocols A and B, plain TCP; docs/openfresco.md):
 * the byte-in/byte-out sessions of hysim/openfresco.h over the socket, answered by the same
 * controller as the native protocol. A trial is a target (a new step) unless it repeats the last
 * one bit for bit; the controller runs stepwise for these clients (the command approaches each
 * trial along the site's ramp and stays there: no extrapolation past a trial, so the forces for
 * a trial history do not depend on the client's timing); forces and displacements are answered
 * once the target is reached, the network thread sleeping on the controller loop's wake pipe
 * meanwhile. Protocol A works in the element's basic DOFs through the site's map T (forces
 * T^T f, stiffness T^T K0 T from the specimen's initial stiffness; mass and damping as
 * configured, else zero); protocol B in the actuators' own coordinates. TCP_QUICKACK is re-armed
 * after every read (the clients leave Nagle on and send requests that get no reply). A client
 * holds the site only once its handshake is done (site_server_pending.c); one silent for
 * `openfresco.idle_timeout` is dropped, and an address whose sessions end three times in a row
 * without a target is refused for a while (site_server_strikes.c: a client that reconnects
 * cannot hold the site without end). A client that goes away without DIE (or is dropped)
 * ends its test as DIE does (the laboratory holds where it is, and unloads after its hold
 * timeout as for a lost native coordinator); its state is logged, and the next client starts a
 * new test on a fresh laboratory. */
#include "site_server_impl.h"

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* Sleeps until the controller loop posts a measurement (its wake pipe) or `until` passes; the
 * wake-up flag is cleared before the pipe is drained, as the network loop does, so a measurement
 * posted from then on writes again and one posted before is pumped by the caller. */
static void wait_event(hs_site_server *s, int64_t until)
{
    const int64_t left = until - hs_srv_now();
    if (left <= 0) return;
    struct pollfd p = {.fd = s->wake[0], .events = POLLIN};
    const int ms = (int)(left / 1000000 + 1);
    if (poll(&p, 1, ms) > 0) {
        atomic_store(&s->wake_posted, 0);
        char buf[16];
        while (read(s->wake[0], buf, sizeof buf) > 0) {
        }
    }
}

/* Waits (bounded by the timeout) until the posted target has been reached. */
static int wait_reached(hs_site_server *s)
{
    const int64_t until = hs_srv_now() + (int64_t)(s->cfg.timeout * 1e9);
    for (;;) {
        hs_srv_pump(s);
        if (!s->test.awaiting) return 0;
        if (hs_srv_now() > until) {
            hs_srv_log_peer(s, HS_LOG_WARN, "step %lld not reached within %g s",
                            (long long)s->test.last_step, s->cfg.timeout);
            return HS_ETIMEOUT;
        }
        wait_event(s, until);
    }
}

/* An OpenFresco test on a fresh laboratory, once the previous test (if any) holds. */
static int ensure_test(hs_site_server *s)
{
    const hs_srv_test *t = &s->test;
    if (t->live && !t->ended && t->openfresco) return 0;
    const int64_t until = hs_srv_now() + (int64_t)(s->cfg.timeout * 1e9);
    const struct timespec pause = {0, 1000000};
    hs_site_server_status st;
    for (hs_srv_status_copy(s, &st); !hs_srv_at_rest(&st); hs_srv_status_copy(s, &st)) {
        if (hs_srv_now() > until) return HS_ETIMEOUT;
        nanosleep(&pause, NULL);
    }
    const int rc = hs_srv_new_test(s, s->cfg.of_step_time, 1.0, s->conn.peer, 1);
    if (rc) {
        hs_srv_log_peer(s, HS_LOG_ERROR, "%s", hs_ctx_message(s->ctx));
        return rc;
    }
    hs_srv_log_peer(s, HS_LOG_INFO, "new OpenFresco test: a fresh laboratory at rest, %g s a step",
                    s->cfg.of_step_time);
    return 0;
}

static int be_set_trial(void *user, const double *d, const double *v, const double *a, double time)
{
    hs_site_server *s = user;
    (void)v;
    (void)a;
    int rc = ensure_test(s);
    if (!rc) rc = wait_reached(s);
    if (rc) return rc;
    hs_srv_test *t = &s->test;
    if (t->last_step >= 0 && memcmp(d, t->last_x, (size_t)s->nact * sizeof(double)) == 0)
        return 0; /* the same displacement again: nothing to move */
    hs_site_server_status st;
    hs_srv_status_copy(s, &st);
    if (st.tripped) return HS_ELIMIT;
    if (st.state == HS_CMDGEN_FREE_VIBRATION || st.state == HS_CMDGEN_DONE) return HS_EABORTED;
    rc = hs_srv_post_target(s, t->last_step + 1, time, d);
    if (!rc) s->conn.bound = 1; /* the session moved something: not an empty one */
    return rc;
}

static int be_values(hs_site_server *s, const double *src, double *out)
{
    const int rc = wait_reached(s);
    if (rc) return rc;
    if (s->test.have_meas)
        memcpy(out, src, (size_t)s->nact * sizeof(double));
    else
        memset(out, 0, (size_t)s->nact * sizeof(double));
    return 0;
}

static int be_get_force(void *user, double *out)
{
    hs_site_server *s = user;
    return be_values(s, s->test.meas.m.f, out);
}

static int be_get_disp(void *user, double *out)
{
    hs_site_server *s = user;
    return be_values(s, s->test.meas.m.x, out);
}

static int be_stiffness(void *user, double *K)
{
    hs_site_server *s = user;
    if (!s->has_K0) return HS_EUNSUPPORTED;
    memcpy(K, s->K0, (size_t)s->nact * (size_t)s->nact * sizeof(double));
    return 0;
}

static int be_commit(void *user, double time)
{
    hs_site_server *s = user;
    (void)time;
    hs_srv_test *t = &s->test;
    if (t->last_step > t->last_committed) t->last_committed = t->last_step;
    pthread_mutex_lock(&s->status_lock);
    s->status.last_committed = t->last_committed;
    pthread_mutex_unlock(&s->status_lock);
    return 0;
}

static void be_close(void *user)
{
    hs_site_server *s = user;
    if (s->test.openfresco) s->test.ended = 1;
}

/* Protocol A: basic DOFs through the map; mass and damping as configured (row by row). */
static const hs_ofr_backend *mapped(hs_site_server *s)
{
    return hs_ofr_map_backend(s->conn.map);
}
static int a_set_trial(void *u, const double *d, const double *v, const double *a, double t)
{
    const hs_ofr_backend *m = mapped(u);
    return m->set_trial(m->user, d, v, a, t);
}
static int a_get_force(void *u, double *out)
{
    const hs_ofr_backend *m = mapped(u);
    return m->get_force(m->user, out);
}
static int a_initial(void *u, double *K)
{
    const hs_ofr_backend *m = mapped(u);
    return m->get_initial_stiffness(m->user, K);
}
static int a_tangent(void *u, double *K)
{
    const hs_ofr_backend *m = mapped(u);
    return m->get_tangent_stiffness(m->user, K);
}
static int a_matrix(const hs_site_server *s, const double *rows, double *out)
{
    const int nb = s->cfg.nbasic;
    for (int i = 0; i < nb; i++)
        for (int j = 0; j < nb; j++) out[(size_t)j * (size_t)nb + (size_t)i] = rows[i * nb + j];
    return 0;
}
static int a_mass(void *u, double *M)
{
    const hs_site_server *s = u;
    return a_matrix(s, s->cfg.mass, M);
}
static int a_damping(void *u, double *C)
{
    const hs_site_server *s = u;
    return a_matrix(s, s->cfg.damping, C);
}
static int a_commit(void *u, double t)
{
    const hs_ofr_backend *m = mapped(u);
    return m->commit(m->user, t);
}
static void a_close(void *u)
{
    const hs_ofr_backend *m = mapped(u);
    m->close(m->user);
}

int hs_srv_ofr_session(hs_site_server *s, int proto, hs_ofr_server **ofr, hs_ofr_map **map)
{
    const hs_ofr_backend inner = {
        s,    be_set_trial, be_get_disp, be_get_force, be_stiffness, be_stiffness,
        NULL, NULL,         be_commit,   be_close};
    hs_ofr_server_config oc = {.n = s->nact, .server_tag = 1};
    if (proto != HS_OFR_PROTO_A)
        return hs_ofr_server_create(s->ctx, HS_OFR_PROTO_B, &oc, &inner, ofr);
    const int na = s->nact, nb = s->cfg.nbasic;
    double T[HS_SITE_MAX_ACT * HS_SITE_SERVER_MAX_BASIC];
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) T[(size_t)j * (size_t)na + (size_t)i] = s->cfg.T[i * nb + j];
    int rc = hs_ofr_map_create(s->ctx, na, nb, T, &inner, map);
    /* the outer backend finds the map in the slot (s->conn.map): the handshake calls no backend,
     * and the map moves to the slot with the session */
    const hs_ofr_backend outer = {s,         a_set_trial, NULL,   a_get_force, a_initial,
                                  a_tangent, a_damping,   a_mass, a_commit,    a_close};
    oc.n = nb;
    if (!rc) rc = hs_ofr_server_create(s->ctx, HS_OFR_PROTO_A, &oc, &outer, ofr);
    return rc;
}

static void feed(hs_site_server *s, const uint8_t *in, size_t n);

void hs_srv_ofr_adopt(hs_site_server *s, hs_srv_pending *p)
{
    hs_srv_conn *c = &s->conn;
    memset(c, 0, sizeof *c);
    c->kind = p->kind;
    c->fd = p->fd;
    c->ofr = p->ofr;
    c->map = p->map;
    p->fd = -1;
    p->ofr = NULL;
    p->map = NULL;
    c->t_rx = hs_srv_now();
    snprintf(c->peer, sizeof c->peer, "%s", p->peer);
    c->served = 1;
    pthread_mutex_lock(&s->status_lock);
    s->status.connected = 1;
    pthread_mutex_unlock(&s->status_lock);
    hs_srv_count(s, &s->status.sessions);
    hs_srv_log_peer(s, HS_LOG_INFO, "handshake done; holds the site (OpenFresco protocol %s)",
                    c->kind == HS_SRV_OFA ? "A" : "B");
    if (p->rx_len) feed(s, p->rx, p->rx_len);
}

static int send_all(hs_site_server *s, const uint8_t *buf, size_t len)
{
    return hs_srv_send_bytes(s->conn.fd, buf, len, hs_srv_ms(s->cfg.frame_timeout));
}

/* A client gone without DIE ends its test: the laboratory holds where it is (the controller
 * runs stepwise) and unloads after its hold timeout, as for a lost native coordinator; the
 * specimen's state goes to the log, and the next client starts a new test on a fresh
 * laboratory. */
static void end_lost_test(hs_site_server *s)
{
    hs_srv_test *t = &s->test;
    if (!t->live || !t->openfresco || t->ended) return;
    t->ended = 1;
    hs_srv_count(s, &s->status.lost);
    hs_site_server_status st;
    hs_srv_status_copy(s, &st);
    char xs[HS_SITE_MAX_ACT * 26], fs[HS_SITE_MAX_ACT * 26];
    size_t nx = 0, nf = 0;
    for (int j = 0; j < s->nact; j++) {
        nx += (size_t)snprintf(xs + nx, sizeof xs - nx, "%s%.17g", j ? ", " : "", st.x[j]);
        nf += (size_t)snprintf(fs + nf, sizeof fs - nf, "%s%.17g", j ? ", " : "", st.f[j]);
    }
    hs_srv_log_peer(s, HS_LOG_WARN,
                    "OpenFresco client lost without DIE after step %lld: test ended; the "
                    "laboratory holds at x = [%s], f = [%s] (state %s) and unloads after its hold "
                    "timeout; the next client starts a new test on a fresh laboratory",
                    (long long)t->last_step, xs, fs, hs_cmdgen_state_name(st.state));
}

static void finish(hs_site_server *s, int refused, const char *what)
{
    hs_srv_log_peer(s, refused ? HS_LOG_WARN : HS_LOG_INFO, "%s", what);
    end_lost_test(s);
    if (refused) hs_srv_count(s, &s->status.refused);
    hs_srv_strike(s, s->conn.peer, !s->conn.bound, hs_srv_now());
    hs_srv_close(s);
}

/* Bytes from the client through its session, replies sent. */
static void feed(hs_site_server *s, const uint8_t *in, size_t n)
{
    hs_srv_conn *c = &s->conn;
    size_t off = 0;
    while (off < n && c->kind) {
        size_t used = 0;
        const int rc = hs_ofr_server_feed(c->ofr, in + off, n - off, &used);
        off += used;
        size_t len = 0;
        const uint8_t *reply = hs_ofr_server_reply(c->ofr, &len);
        if (reply && len) {
            if (send_all(s, reply, len)) {
                finish(s, 0, "the OpenFresco client disappeared");
                return;
            }
            hs_ofr_server_reply_sent(c->ofr);
        }
        if (rc) {
            char why[400];
            snprintf(why, sizeof why, "refused: %s", hs_ctx_message(s->ctx));
            finish(s, 1, why);
            return;
        }
        if (hs_ofr_server_state(c->ofr) == HS_OFR_CLOSED) {
            finish(s, 0, "the OpenFresco client ended its test (DIE)");
            return;
        }
        if (!used && !reply) break;
    }
}

void hs_srv_ofr_input(hs_site_server *s)
{
    hs_srv_conn *c = &s->conn;
    const ssize_t r = recv(c->fd, s->io, s->io_cap, MSG_DONTWAIT);
    const int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof one);
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (r <= 0) {
        char why[160];
        const size_t part = hs_ofr_server_partial(c->ofr);
        snprintf(why, sizeof why, "the OpenFresco client closed the connection%s",
                 part ? " in the middle of a message" : "");
        finish(s, 0, why);
        return;
    }
    c->t_rx = hs_srv_now();
    feed(s, s->io, (size_t)r);
}

/* An OpenFresco client has no error channel and cannot tell a dropped connection from a slow
 * site, but one silent for `openfresco.idle_timeout` holds the site for nobody: it is dropped
 * (its test, if any, is left holding like a lost coordinator's). */
void hs_srv_ofr_poll(hs_site_server *s, int64_t now)
{
    hs_srv_pump(s);
    const hs_srv_conn *c = &s->conn;
    const double silent = 1e-9 * (double)(now - c->t_rx);
    if (silent > s->cfg.of_idle_timeout) {
        char why[160];
        snprintf(why, sizeof why,
                 "the OpenFresco client was silent for %.1f s (openfresco.idle_timeout %g s): "
                 "dropped",
                 silent, s->cfg.of_idle_timeout);
        hs_srv_count(s, &s->status.lost);
        finish(s, 0, why);
    }
}
