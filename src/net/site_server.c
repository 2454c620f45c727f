/* The site server: creation (laboratory, sockets, rings), the threads, and the network thread's
 * loop: one poll() over the listening sockets, the peer being served, the connections still in
 * their handshake (site_server_pending.c) and a wake-up pipe (written by the controller loop when
 * it posts a measurement, and by stop). One peer at a time holds the site, and only once its
 * handshake is done: another one is then refused ("busy") and closed. A bad peer is refused,
 * logged and closed; the server keeps serving. */
#include "site_server_impl.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sodium.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void hs_srv_count(hs_site_server *s, uint64_t *counter)
{
    pthread_mutex_lock(&s->status_lock);
    (*counter)++;
    pthread_mutex_unlock(&s->status_lock);
}

void hs_srv_log_peer(hs_site_server *s, hs_log_level level, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    hs_log(s->ctx, level, "site %s: %s: %s", s->cfg.site.name,
           s->conn.kind ? s->conn.peer : "server", text);
}

void hs_srv_status_copy(hs_site_server *s, hs_site_server_status *out)
{
    pthread_mutex_lock(&s->status_lock);
    *out = s->status;
    pthread_mutex_unlock(&s->status_lock);
}

void hs_site_server_status_get(hs_site_server *s, hs_site_server_status *out)
{
    hs_srv_status_copy(s, out);
    out->realtime = s->grants.fifo;
    out->locked = s->grants.locked;
    out->latency_request = s->latency_granted;
    out->spin = 1e-9 * (double)s->spin_ns;
    out->spin_calibrated = !(s->cfg.spin > 0.0);
    out->wake_p99 = 1e-9 * (double)s->wake_p99;
    out->wake_max = 1e-9 * (double)s->wake_max;
    out->log_dropped = atomic_load(&s->log_dropped);
    out->log_rotations = atomic_load(&s->log_rotations);
}

int hs_srv_at_rest(const hs_site_server_status *st)
{
    if (st->tripped) /* at rest once its unloading has settled (or when there is none) */
        return st->unload == HS_SITE_UNLOAD_DONE || st->unload == HS_SITE_UNLOAD_STROKE ||
               st->unload == HS_SITE_UNLOAD_HELD;
    return st->state == HS_CMDGEN_HOLD || st->state == HS_CMDGEN_DONE;
}

void hs_srv_pump(hs_site_server *s)
{
    hs_srv_meas m;
    const int64_t gen = atomic_load(&s->generation);
    hs_srv_test *t = &s->test;
    while (hs_ring_pop(&s->meas, &m)) {
        if (m.generation != gen) continue; /* a laboratory already retired */
        /* the held state replaces the measurement's, unless a target is out: then the loop may
         * already be past that hold, and the target's measurement writes the file anyway */
        if (m.step == HS_SRV_HOLD_SNAPSHOT) {
            if (t->have_meas && t->live && !t->ended && !t->awaiting && !t->openfresco &&
                s->cfg.state_path[0])
                (void)hs_srv_state_write(s); /* a failure is said at the next measurement */
            continue;
        }
        if (m.step >= 0 && m.step != t->last_step && m.error == 0) continue;
        t->awaiting = 0;
        t->meas = m;
        t->have_meas = m.error == 0;
        t->meas_new = 1;
        /* the test goes on when the state cannot be written (a restarted site could not resume
         * it): said once per test, and again once it can be written */
        if (t->have_meas && !t->openfresco && s->cfg.state_path[0]) {
            const int failed = hs_srv_state_write(s) != 0;
            if (failed != t->state_failed)
                hs_log(s->ctx, failed ? HS_LOG_WARN : HS_LOG_INFO, "site %s: %s", s->cfg.site.name,
                       failed ? hs_ctx_message(s->ctx) : "the test's state is written again");
            t->state_failed = failed;
        }
    }
}

int hs_srv_post_target(hs_site_server *s, int64_t step, double t, const double *x)
{
    hs_srv_target tg = {.generation = atomic_load(&s->generation), .step = step, .t = t};
    memcpy(tg.x, x, (size_t)s->nact * sizeof(double));
    if (!hs_ring_push(&s->targets, &tg))
        return hs_fail(s->ctx, HS_EPROTO, "the controller has not taken the previous target");
    hs_srv_test *te = &s->test;
    te->last_step = step;
    memcpy(te->last_x, x, (size_t)s->nact * sizeof(double));
    te->awaiting = 1;
    te->meas_new = 0;
    pthread_mutex_lock(&s->status_lock);
    s->status.last_step = step;
    pthread_mutex_unlock(&s->status_lock);
    return 0;
}

void hs_srv_close(hs_site_server *s)
{
    hs_srv_conn *c = &s->conn;
    if (!c->kind) return;
    hs_srv_close_fd(c->fd);
    hs_secure_destroy(&c->ch);
    hs_ofr_server_destroy(&c->ofr);
    hs_ofr_map_destroy(&c->map);
    hs_srv_nees_destroy(&c->nees);
    const int served = c->served, native = c->kind == HS_SRV_NATIVE;
    memset(c, 0, sizeof *c);
    c->fd = -1;
    pthread_mutex_lock(&s->status_lock);
    s->status.connected = 0;
    pthread_mutex_unlock(&s->status_lock);
    /* --once: the first test that has ended (BYE, or an OpenFresco client gone); a coordinator
     * gone without BYE left its test held for a resume, which the site waits for */
    if (served && s->cfg.once && (!native || s->test.ended)) atomic_store(&s->finished, 1);
}

/* ---- sockets ---- */

static int listen_on(hs_site_server *s, int port, int *fd_out, int *bound)
{
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return hs_fail(s->ctx, HS_ENET, "site %s: socket: %s", s->cfg.site.name, strerror(errno));
    const int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, s->cfg.host, &a.sin_addr);
    socklen_t len = sizeof a;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 64) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &len) != 0) {
        const int e = errno;
        close(fd);
        return hs_fail(s->ctx, HS_ENET, "site %s: cannot listen on %s:%d: %s", s->cfg.site.name,
                       s->cfg.host, port, strerror(e));
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    *fd_out = fd;
    *bound = ntohs(a.sin_port);
    return 0;
}

/* 127.0.0.0/8: only this host reaches the port. */
static int loopback(const char *host)
{
    struct in_addr a;
    return inet_pton(AF_INET, host, &a) == 1 && (ntohl(a.s_addr) >> 24) == 127u;
}

/* A NEES client (no handshake, no authentication: docs/nees.md) holds the slot at once when it is
 * free and its address is allowed (hs_srv_nees_open); its own silent-peer timeout bounds how long
 * a stranger can hold it. A busy site refuses it without naming its peer. */
static void nees_accept(hs_site_server *s, int fd, const char *peer, uint32_t addr)
{
    char held[512];
    if (s->conn.kind || hs_srv_held(s, held, sizeof held)) {
        if (hs_srv_may_log_refusal(s))
            hs_log(s->ctx, HS_LOG_WARN, "site %s: %s: NEES client refused: %s", s->cfg.site.name,
                   peer, s->conn.kind ? "busy (a test is running)" : held);
        close(fd);
        hs_srv_count(s, &s->status.busy);
        return;
    }
    pthread_mutex_lock(&s->status_lock);
    s->status.connected = 1;
    pthread_mutex_unlock(&s->status_lock);
    if (hs_srv_nees_open(s, fd, peer, addr) && !s->conn.kind) {
        close(fd);
        pthread_mutex_lock(&s->status_lock);
        s->status.connected = 0;
        pthread_mutex_unlock(&s->status_lock);
    }
}

/* Takes the connections waiting on a listening socket (at most a few per call, so that a flood
 * of connections cannot keep the thread from the peer it serves); each one is pending until its
 * handshake is done (site_server_pending.c), except NEES clients (nees_accept). */
static void on_accept(hs_site_server *s, int which)
{
    for (int k = 0; k < 4; k++) {
        struct sockaddr_in a;
        socklen_t len = sizeof a;
        const int fd = accept(s->lfd[which], (struct sockaddr *)&a, &len);
        if (fd < 0) return;
        const int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        char ip[INET_ADDRSTRLEN] = "?", peer[64];
        inet_ntop(AF_INET, &a.sin_addr, ip, sizeof ip);
        snprintf(peer, sizeof peer, "%s:%u", ip, (unsigned)ntohs(a.sin_port));
        if (which == HS_SITE_PORT_NEES)
            nees_accept(s, fd, peer, ntohl(a.sin_addr.s_addr));
        else if ((which == HS_SITE_PORT_OFA || which == HS_SITE_PORT_OFB) &&
                 hs_srv_struck_out(s, ntohl(a.sin_addr.s_addr), hs_srv_now()))
            close(fd); /* an address that held the site empty again and again (logged there) */
        else
            hs_srv_pending_accept(s, which, fd, peer);
    }
}

/* The peer being served: measurements to forward, heartbeats, timeouts. */
static void serve(hs_site_server *s, int64_t now)
{
    if (s->conn.kind == HS_SRV_NATIVE)
        hs_srv_native_poll(s, now);
    else if (s->conn.kind == HS_SRV_NEES)
        hs_srv_nees_poll(s, now);
    else if (s->conn.kind)
        hs_srv_ofr_poll(s, now);
    else
        hs_srv_pump(s);
    hs_srv_check_ended(s);
}

static void *net_main(void *arg)
{
    hs_site_server *s = arg;
    while (!atomic_load(&s->stop_net) && !atomic_load(&s->finished)) {
        struct pollfd p[6 + HS_SRV_MAX_PENDING];
        int np = 0, which[6 + HS_SRV_MAX_PENDING];
        for (int k = 0; k < 4; k++)
            if (s->lfd[k] >= 0) {
                p[np] = (struct pollfd){.fd = s->lfd[k], .events = POLLIN};
                which[np++] = k;
            }
        p[np] = (struct pollfd){.fd = s->wake[0], .events = POLLIN};
        which[np++] = -1;
        if (s->conn.kind) {
            p[np] = (struct pollfd){.fd = s->conn.fd, .events = POLLIN};
            which[np++] = -2;
        }
        for (int k = 0; k < HS_SRV_MAX_PENDING; k++)
            if (s->pending[k].kind) {
                p[np] = (struct pollfd){.fd = s->pending[k].fd, .events = POLLIN};
                which[np++] = -3 - k;
            }
        /* the loop wakes this thread through the pipe when it posts a measurement; the
         * millisecond while one is awaited is a safety net, else often enough for the timers */
        const int wait_ms = s->test.awaiting ? 1 : 20;
        const int r = poll(p, (nfds_t)np, wait_ms);
        if (r < 0 && errno != EINTR) break;
        /* the peer being served first (its frames, then its measurement and timers), strangers
         * after: a flood of connections delays no measurement */
        for (int k = 0; r > 0 && k < np; k++) {
            if (!(p[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            if (which[k] == -1) {
                /* cleared before the drain: a measurement posted from here on writes again,
                 * one posted before is pumped below */
                atomic_store(&s->wake_posted, 0);
                char buf[16];
                while (read(s->wake[0], buf, sizeof buf) > 0) {
                }
            } else if (which[k] == -2 && s->conn.kind == HS_SRV_NATIVE) {
                hs_srv_native_input(s);
            } else if (which[k] == -2 && s->conn.kind == HS_SRV_NEES) {
                hs_srv_nees_input(s);
            } else if (which[k] == -2 && s->conn.kind) {
                hs_srv_ofr_input(s);
            }
        }
        serve(s, hs_srv_now());
        for (int k = 0; r > 0 && k < np; k++) {
            if (!(p[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            if (which[k] >= 0)
                on_accept(s, which[k]);
            else if (which[k] <= -3)
                hs_srv_pending_input(s, -3 - which[k]);
        }
        hs_srv_pending_poll(s, hs_srv_now());
        hs_srv_reclaim(s);
    }
    if (s->conn.kind == HS_SRV_NATIVE) hs_srv_native_bye(s, "the site server is stopping");
    hs_srv_close(s);
    hs_srv_pending_close_all(s);
    return NULL;
}

/* ---- life cycle ---- */

int hs_site_server_create(hs_ctx *ctx, const hs_site_server_config *cfg, hs_site_server **out)
{
    if (!cfg || !out) return hs_fail(ctx, HS_EINVAL, "site server: no configuration");
    *out = NULL;
    const hs_site_config *c = &cfg->site;
    if (c->nact < 1 || c->nact > HS_SITE_MAX_ACT)
        return hs_fail(ctx, HS_EINVAL, "site server: %d actuators", c->nact);
    if (cfg->mode != HS_SECURE_PSK && cfg->mode != HS_SECURE_PLAIN)
        return hs_fail(ctx, HS_EINVAL, "site server: mode must be psk or plain");
    if (!(cfg->heartbeat > 0.0 && cfg->heartbeat <= HS_SITE_SERVER_HEARTBEAT_MAX) ||
        !(cfg->timeout > cfg->heartbeat && cfg->timeout <= HS_SITE_SERVER_TIMEOUT_MAX) ||
        !(cfg->frame_timeout > 0.0 && cfg->frame_timeout <= HS_SITE_SERVER_FRAME_TIMEOUT_MAX) ||
        !(cfg->spin >= 0.0 && cfg->spin <= HS_SITE_SERVER_SPIN_MAX) ||
        !(cfg->late >= 0.0 && cfg->late <= HS_SITE_SERVER_LATE_MAX) ||
        !(cfg->of_step_time > 0.0 && cfg->of_step_time <= HS_SITE_SERVER_STEP_TIME_MAX) ||
        !(cfg->of_idle_timeout > 0.0 && cfg->of_idle_timeout <= HS_SITE_SERVER_IDLE_TIMEOUT_MAX))
        return hs_fail(ctx, HS_EINVAL,
                       "site server: needs 0 < heartbeat <= %g s, heartbeat < timeout <= %g s, "
                       "0 < frame_timeout <= %g s, 0 <= spin <= %g s, 0 <= late <= %g s, "
                       "0 < OpenFresco step_time <= %g s, 0 < idle_timeout <= %g s",
                       HS_SITE_SERVER_HEARTBEAT_MAX, HS_SITE_SERVER_TIMEOUT_MAX,
                       HS_SITE_SERVER_FRAME_TIMEOUT_MAX, HS_SITE_SERVER_SPIN_MAX,
                       HS_SITE_SERVER_LATE_MAX, HS_SITE_SERVER_STEP_TIME_MAX,
                       HS_SITE_SERVER_IDLE_TIMEOUT_MAX);
    hs_site_server *s = hs_calloc(1, sizeof *s);
    if (!s) return hs_fail(ctx, HS_ENOMEM, "site server: out of memory");
    s->ctx = ctx;
    s->cfg = *cfg;
    s->nact = c->nact;
    s->rate = c->rate > 0.0 ? c->rate : 1024.0;
    snprintf(s->ended_why, sizeof s->ended_why, "the site ended the test on its side (%s)",
             hs_site_ended_why(c));
    for (int k = 0; k < 4; k++) s->lfd[k] = s->port[k] = -1;
    s->wake[0] = s->wake[1] = -1;
    s->conn.fd = -1;
    for (int k = 0; k < HS_SRV_MAX_PENDING; k++) s->pending[k].fd = -1;
    s->test.last_step = s->test.last_committed = -1;
    pthread_mutex_init(&s->status_lock, NULL);
    s->status.last_step = s->status.last_committed = -1;
    s->tick_size = sizeof(hs_srv_tick) + 3 * (size_t)s->nact * sizeof(double);
    size_t cap = 1;
    while (cap * 2 * s->tick_size <= (8u << 20) && cap < 65536) cap *= 2;
    int rc = hs_ring_init(&s->targets, sizeof(hs_srv_target), 1);
    if (!rc) rc = hs_ring_init(&s->meas, sizeof(hs_srv_meas), 8);
    if (!rc && cfg->log_path) rc = hs_ring_init(&s->ticks, s->tick_size, cap);
    s->rx = hs_malloc(HS_WIRE_HEADER_SIZE + HS_WIRE_MAX_LENGTH);
    s->tx = hs_malloc(HS_WIRE_HEADER_SIZE + HS_WIRE_MAX_LENGTH);
    s->io_cap = 65536;
    s->io = hs_malloc(s->io_cap);
    if (!rc && (!s->rx || !s->tx || !s->io)) rc = HS_ENOMEM;
    if (rc == HS_ENOMEM) hs_fail(ctx, rc, "site server: out of memory");
    /* the first laboratory: the test of the state file, held for a resume; otherwise at rest,
     * waiting for a test (no timeouts before a first target) */
    if (!rc && s->cfg.state_path[0]) rc = hs_srv_state_restore(s);
    if (!rc && !s->bench) rc = hs_srv_bench_create(s, 1.0, 1.0, &s->bench);
    /* the first command is where the rig rests, never a jump (docs/lab_backends.md): to 0, or
     * back to a restored test's held command */
    if (!rc) rc = hs_site_rig_start(ctx, c, &s->bench->rig, s->bench->sc);
    if (!rc) {
        s->has_K0 = hs_specimen_initial_stiffness(s->bench->rig.inner, s->K0) == 0;
        atomic_store(&s->generation, s->bench->generation);
        const double *x = hs_lab_true_displacement(s->bench->rig.io);
        memcpy(s->status.x, x, (size_t)s->nact * sizeof(double));
        memcpy(s->status.command, hs_site_controller_command(s->bench->sc),
               (size_t)s->nact * sizeof(double)); /* a restored test holds it */
        s->status.state = (int)hs_cmdgen_current_state(hs_site_controller_cmdgen(s->bench->sc));
        s->status.moving = hs_site_controller_moving(s->bench->sc);
    }
    if (!rc) rc = listen_on(s, cfg->port, &s->lfd[0], &s->port[0]);
    if (!rc && cfg->ofa_port >= 0) rc = listen_on(s, cfg->ofa_port, &s->lfd[1], &s->port[1]);
    if (!rc && cfg->ofb_port >= 0) rc = listen_on(s, cfg->ofb_port, &s->lfd[2], &s->port[2]);
    if (!rc && c->nees.given && !c->nees.nallow && !c->nees.allow_any && !loopback(cfg->host))
        rc = hs_fail(ctx, HS_EINPUT,
                     "site %s: the NEES port (no authentication) would listen on %s, beyond "
                     "loopback, open to any peer: list the coordinators that may connect in "
                     "site.nees.allow: [a.b.c.d, a.b.c.d/bits], or write 'allow: any' to admit "
                     "every peer that reaches the port (docs/nees.md)",
                     c->name, cfg->host);
    if (!rc && c->nees.given) {
        rc = listen_on(s, c->nees.port, &s->lfd[3], &s->port[3]);
        if (!rc)
            hs_log(ctx, HS_LOG_WARN,
                   "site %s: NEES port %s:%d: the NEES ASCII protocol has NO authentication and "
                   "NO encryption: any peer that reaches this port%s can move the actuators "
                   "(within their limits)",
                   c->name, cfg->host, s->port[3],
                   c->nees.nallow ? " from an address in site.nees.allow" : "");
    }
    if (!rc && pipe(s->wake) != 0)
        rc = hs_fail(ctx, HS_EIO, "site server: pipe: %s", strerror(errno));
    for (int k = 0; !rc && k < 2; k++) /* the loop's write must never block */
        fcntl(s->wake[k], F_SETFL, fcntl(s->wake[k], F_GETFL) | O_NONBLOCK);
    if (!rc && cfg->log_path && !(cfg->log_max >= HS_SITE_SERVER_LOG_MIN))
        rc = hs_fail(ctx, HS_EINVAL,
                     "site server: the tick log may not be kept in files of %g bytes (at least "
                     "%g)",
                     cfg->log_max, HS_SITE_SERVER_LOG_MIN);
    if (!rc && cfg->log_path && !(s->log = fopen(cfg->log_path, "w")))
        rc = hs_fail(ctx, HS_EIO, "site server: cannot write the tick log '%s': %s", cfg->log_path,
                     strerror(errno));
    s->log_on = s->log != NULL;
    if (rc) {
        hs_site_server_destroy(&s);
        return rc;
    }
    *out = s;
    return 0;
}

int hs_site_server_start(hs_site_server *s)
{
    if (!s || s->running) return HS_EINVAL;
    /* the threads do not take the caller's SIGINT and SIGTERM */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    int e = pthread_create(&s->th_ctl, NULL, hs_srv_loop_main, s);
    int started = e == 0;
    if (!e && s->log) {
        e = pthread_create(&s->th_log, NULL, hs_srv_log_main, s);
        started |= (e == 0) << 1;
    }
    if (!e) {
        e = pthread_create(&s->th_net, NULL, net_main, s);
        started |= (e == 0) << 2;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    s->running = started;
    if (e) {
        hs_site_server_stop(s, 0.0);
        return hs_fail(s->ctx, HS_EIO, "site server: cannot start a thread: %s", strerror(e));
    }
    while (!atomic_load(&s->ctl_ready)) {
        const struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    const hs_rt_grants *g = &s->grants;
    const char *why[] = {g->fifo ? "" : g->fifo_why, g->locked ? "" : g->lock_why,
                         g->latency ? "" : g->latency_why};
    for (int i = 0; i < 3; i++)
        if (why[i][0]) hs_log(s->ctx, HS_LOG_WARN, "site %s: %s", s->cfg.site.name, why[i]);
    char spin[96];
    if (s->cfg.spin > 0.0)
        snprintf(spin, sizeof spin, "from the site file");
    else
        snprintf(spin, sizeof spin, "from the wake-up latency: p99 %.1f us, max %.1f us",
                 1e-3 * (double)s->wake_p99, 1e-3 * (double)s->wake_max);
    hs_log(s->ctx, HS_LOG_INFO,
           "site %s: controller loop at %g Hz: SCHED_FIFO %s, mlockall %s, latency request "
           "(/dev/cpu_dma_latency) %s; spin %.1f us (%s)",
           s->cfg.site.name, s->rate, g->fifo ? "granted" : "refused",
           g->locked ? "granted" : "refused", g->latency ? "held" : "refused",
           1e-3 * (double)s->spin_ns, spin);
    if (!hs_site_can_unload(&s->cfg.site))
        hs_log(s->ctx, HS_LOG_WARN,
               "site %s: no command.mass: after its hold timeout the site ends a test in place, "
               "the specimen still loaded; give command.mass (and zeta) for it to unload",
               s->cfg.site.name);
    return 0;
}

int hs_site_server_port(const hs_site_server *s, int which)
{
    return s && which >= 0 && which < 4 ? s->port[which] : -1;
}

int hs_site_server_finished(const hs_site_server *s)
{
    return s && atomic_load(&s->finished);
}

void hs_site_server_abort(hs_site_server *s)
{
    if (s) atomic_store(&s->abort_req, 1);
}

int hs_site_server_stop(hs_site_server *s, double rest_timeout)
{
    if (!s || !s->running) return 0;
    int rc = 0;
    if (s->running & 4) {
        atomic_store(&s->stop_net, 1);
        if (write(s->wake[1], "x", 1) < 0) {
        }
        pthread_join(s->th_net, NULL);
    }
    if (s->running & 1) {
        /* the laboratory comes to rest on its own (slow, hold); the loop stops once it holds */
        atomic_store(&s->stop_ctl, 1);
        const int64_t until = hs_srv_now() + (int64_t)(rest_timeout * 1e9);
        while (!atomic_load(&s->ctl_at_rest) && hs_srv_now() < until) {
            const struct timespec pause = {0, 1000000};
            nanosleep(&pause, NULL);
        }
        if (!atomic_load(&s->ctl_at_rest)) {
            hs_log(s->ctx, HS_LOG_WARN,
                   "site %s: the laboratory did not come to rest within %g s; stopping anyway",
                   s->cfg.site.name, rest_timeout);
            rc = HS_ETIMEOUT;
        }
        atomic_store(&s->stop_ctl, 2);
        pthread_join(s->th_ctl, NULL);
    }
    if (s->running & 2) {
        atomic_store(&s->stop_log, 1);
        pthread_join(s->th_log, NULL);
    }
    s->running = 0;
    hs_srv_reclaim(s);
    hs_srv_bench *pending = atomic_exchange(&s->bench_next, NULL);
    hs_srv_bench_destroy(&pending);
    return rc;
}

void hs_site_server_destroy(hs_site_server **sp)
{
    if (!sp || !*sp) return;
    hs_site_server *s = *sp;
    hs_site_server_stop(s, 10.0);
    hs_srv_close(s);
    hs_srv_pending_close_all(s);
    for (int k = 0; k < 4; k++)
        if (s->lfd[k] >= 0) close(s->lfd[k]);
    for (int k = 0; k < 2; k++)
        if (s->wake[k] >= 0) close(s->wake[k]);
    if (s->log) fclose(s->log);
    hs_srv_bench_report(s, s->bench);
    hs_srv_bench_destroy(&s->bench);
    hs_ring_free(&s->targets);
    hs_ring_free(&s->meas);
    hs_ring_free(&s->ticks);
    hs_free(s->rx);
    hs_free(s->tx);
    hs_free(s->io);
    pthread_mutex_destroy(&s->status_lock);
    sodium_memzero(s->cfg.key, sizeof s->cfg.key);
    hs_free(s);
    *sp = NULL;
}
