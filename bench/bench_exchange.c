/* Latency of one step's exchange between a coordinator and a site, on loopback (127.0.0.1), for
 * 1, 2 and 8 actuators, all measured in one run:
 *
 *  - floor: raw TCP ping-pong of the native exchange's sizes (write the plain TARGET frame's
 *    bytes, read the plain MEASUREMENT frame's bytes back; TCP_NODELAY at both ends);
 *  - native plain and native secured: TARGET -> MEASUREMENT frames (hysim/wire.h) through the
 *    secure channel (hysim/secure.h; secured: handshake once, then sealed frames) over the
 *    transport the coordinator uses (hs_transport_socket: receives wait inside recv), the site's
 *    end a thread with its own channel; the MEASUREMENT as a site sends it in a running test (8
 *    history samples, 6 command generator states, tracking figures);
 *  - floor of OpenFresco A's sizes: raw TCP, two writes of 2,048 bytes, 2,048 bytes back;
 *  - OpenFresco A: setTrialResponse (3) then getForce (10) and its reply, as OpenSees'
 *    genericClient does (sizes [n,n,n,0,1, 0,0,0,n,0, 256], Nagle left on at the client), the
 *    server a session of hysim/openfresco.h with TCP_NODELAY and TCP_QUICKACK re-armed after every
 *    read (docs/openfresco.md);
 *  - and one row through the whole site server (hs_site_server, perfect lab, 2 actuators, plain
 *    mode, a 2,000 Hz controller, one tick a step): TARGET -> MEASUREMENT, then COMMIT.
 *
 * Every case runs in two placements: one core (both ends pinned to the first CPU: the protocol's
 * CPU cost shows) and two cores (coordinator on the first CPU, site on the second: each message
 * wakes the other CPU, which on a virtual machine costs more than the protocol does; unpinned, the
 * scheduler picks either from case to case). The site server row is left to the scheduler.
 * Each case: warm-up, then N exchanges (default 20,000; the site server row N / 10), each timed
 * on CLOCK_MONOTONIC into a preallocated array, sorted for the percentiles (nearest rank).
 * p50/floor is each p50 over the floor's p50 of the same actuator count, measured in this run.
 * Every wait is bounded (5 s socket and channel timeouts); the loops stop by themselves.
 * A last pair of rows times a genericClient Newton step (three trials, then commit) against the
 * trivial OpenFresco A server and against the site server's OpenFresco A port (stepwise
 * controller at 8,192 Hz, one tick a trial): what a new trial costs at a real site.
 * Usage: bench_exchange [exchanges per case] [newton: only the Newton-step rows]. */
#define _GNU_SOURCE /* pthread_setaffinity_np, CPU_SET */
#include "hysim/cmdgen.h"
#include "hysim/hysim.h"
#include "hysim/openfresco.h"
#include "hysim/secure.h"
#include "hysim/site_server.h"
#include "hysim/wire.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define TIMEOUT_MS   5000
#define OFA_DATA     256 /* genericClient's dataSize for n <= 16 */
#define STIFFNESS    2.5 /* the specimen answers f = k x */
#define SITE_RATE    2000.0
#define NEWTON_ITER  3 /* trials of a genericClient Newton step */
#define MAX_EXCHANGE 1000000

typedef enum { K_FLOOR, K_NATIVE, K_OFA, K_OFA_NEWTON } kind;

typedef struct xcase {
    char name[48];
    kind kind;
    int nact;
    hs_secure_mode mode; /* native */
    int writes;          /* floor: writes of out_len bytes per exchange */
    size_t out_len, back_len;
    int warm, count;
    int client_cpu, server_cpu; /* the CPU each end's thread is pinned to */
} xcase;

typedef struct result {
    double p50, p99, max, rate; /* us, us, us, exchanges per s */
} result;

/* ---- clock, sockets ---- */

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Pins the calling thread to one CPU (cpu < 0: to every CPU of `all`). */
static cpu_set_t all_cpus;

static void pin(int cpu)
{
    cpu_set_t set = all_cpus;
    if (cpu >= 0) {
        CPU_ZERO(&set);
        CPU_SET((size_t)cpu, &set);
    }
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void socket_bounds(int fd, int nodelay)
{
    const struct timeval tv = {TIMEOUT_MS / 1000, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    const int one = 1;
    if (nodelay) setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

static int listen_loopback(int *port)
{
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) || listen(fd, 1) ||
        getsockname(fd, (struct sockaddr *)&a, &len)) {
        close(fd);
        return -1;
    }
    *port = ntohs(a.sin_port);
    return fd;
}

static int connect_loopback(int port, int nodelay)
{
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socket_bounds(fd, nodelay);
    if (connect(fd, (struct sockaddr *)&a, sizeof a)) {
        close(fd);
        return -1;
    }
    return fd;
}

static int accept_bounded(int lfd)
{
    struct pollfd p = {.fd = lfd, .events = POLLIN};
    if (poll(&p, 1, TIMEOUT_MS) != 1) return -1;
    return accept(lfd, NULL, NULL);
}

static int send_all(int fd, const uint8_t *buf, size_t len)
{
    while (len > 0) {
        const ssize_t w = send(fd, buf, len, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        buf += w;
        len -= (size_t)w;
    }
    return 0;
}

static int recv_all(int fd, uint8_t *buf, size_t len)
{
    while (len > 0) {
        const ssize_t r = recv(fd, buf, len, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        buf += r;
        len -= (size_t)r;
    }
    return 0;
}

/* ---- the native messages ---- */

static double target_x(int64_t step, int j)
{
    return 0.01 * sin(0.01 * (double)step + 0.5 * (double)j);
}

static void target_fill(hs_wire_msg *m, int64_t step, int nact)
{
    m->type = HS_WIRE_TARGET;
    m->step = step;
    m->target.t = 0.01 * (double)step;
    m->target.nact = nact;
    for (int j = 0; j < nact; j++) m->target.x[j] = target_x(step, j);
}

/* A MEASUREMENT as the site server sends it once its history ring is full. */
static void measurement_fill(hs_wire_msg *m, const hs_wire_msg *tg)
{
    const int n = tg->target.nact;
    hs_wire_measurement *w = &m->meas;
    m->type = HS_WIRE_MEASUREMENT;
    m->step = tg->step;
    w->t = tg->target.t;
    w->t_received = w->t_reached = 1e-9 * (double)now_ns();
    w->nact = n;
    w->nhist = HS_WIRE_MAX_HISTORY;
    w->nstates = HS_CMDGEN_NSTATES;
    w->flags = 0;
    w->states = 1u << HS_CMDGEN_INTERPOLATE;
    w->ticks = 10;
    w->delay_ticks = 2;
    for (int s = 0; s < HS_CMDGEN_NSTATES; s++) w->state_ticks[s] = s == 1 ? 10 : 0;
    for (int j = 0; j < n; j++) {
        w->x[j] = tg->target.x[j];
        w->f[j] = STIFFNESS * tg->target.x[j];
        w->mte[j] = 1e-3;
        w->rms[j] = 0.5;
        w->ti_peak[j] = -1e-4;
    }
    for (int k = 0; k < HS_WIRE_MAX_HISTORY; k++) {
        w->hist_t[k] = w->t - 1e-3 * (double)(HS_WIRE_MAX_HISTORY - 1 - k);
        for (int j = 0; j < n; j++) {
            w->hist_x[k * n + j] = w->x[j];
            w->hist_f[k * n + j] = w->f[j];
        }
    }
}

/* Sizes of the plain TARGET and MEASUREMENT frames for nact actuators. */
static int native_sizes(int nact, size_t *target, size_t *meas)
{
    static hs_wire_msg t, m;
    static uint8_t buf[HS_WIRE_HEADER_SIZE + HS_WIRE_MAX_LENGTH];
    hs_wire_status st;
    target_fill(&t, 1, nact);
    measurement_fill(&m, &t);
    if (hs_wire_encode(&t, 0, buf, sizeof buf, target, &st) ||
        hs_wire_encode(&m, 0, buf, sizeof buf, meas, &st)) {
        fprintf(stderr, "bench_exchange: encoding: %s\n", st.text);
        return -1;
    }
    return 0;
}

/* A channel over fd with the transport a coordinator uses (src/net/site_native.c); *link
 * outlives it. */
static hs_secure *channel(hs_ctx *ctx, int fd, hs_secure_role role, hs_secure_mode mode,
                          hs_socket_link *link)
{
    hs_secure_config cfg = {.role = role, .mode = mode, .timeout_ms = TIMEOUT_MS};
    for (int i = 0; i < HS_SECURE_KEY_SIZE; i++) cfg.key[i] = (uint8_t)(17 * i + 1);
    const hs_transport tr = hs_transport_socket(link, fd);
    hs_secure *ch = NULL;
    if (hs_secure_create(ctx, &cfg, &tr, &ch)) return NULL;
    if (hs_secure_handshake(ch)) hs_secure_destroy(&ch);
    return ch;
}

/* ---- OpenFresco A: the server's backend ---- */

typedef struct ofa_specimen {
    int n;
    double d[HS_WIRE_MAX_ACT];
} ofa_specimen;

static int ofa_set_trial(void *user, const double *disp, const double *vel, const double *accel,
                         double time)
{
    (void)vel, (void)accel, (void)time;
    ofa_specimen *s = user;
    memcpy(s->d, disp, (size_t)s->n * sizeof(double));
    return 0;
}

static int ofa_get_force(void *user, double *out)
{
    const ofa_specimen *s = user;
    for (int j = 0; j < s->n; j++) out[j] = STIFFNESS * s->d[j];
    return 0;
}

/* ---- the site's end (a thread) ---- */

typedef struct server {
    const xcase *c;
    int lfd;
    int rc;
    char why[200];
} server;

static int serve_floor(server *sv, int fd)
{
    const xcase *c = sv->c;
    static uint8_t in[2 * OFA_DATA * 8], out[2 * OFA_DATA * 8];
    memset(out, 0x5a, sizeof out);
    const size_t want = (size_t)c->writes * c->out_len;
    for (int k = 0; k < c->warm + c->count; k++)
        if (recv_all(fd, in, want) || send_all(fd, out, c->back_len)) return -1;
    return 0;
}

static int serve_native(server *sv, int fd, hs_ctx *ctx)
{
    const xcase *c = sv->c;
    static hs_wire_msg in, out;
    hs_socket_link link;
    hs_secure *ch = channel(ctx, fd, HS_SECURE_SITE, c->mode, &link);
    if (!ch) return -1;
    int rc = 0;
    for (int k = 0; !rc && k < c->warm + c->count; k++) {
        rc = hs_secure_recv(ch, &in, TIMEOUT_MS);
        if (!rc && in.type != HS_WIRE_TARGET) rc = hs_fail(ctx, HS_EPROTO, "not a TARGET");
        if (rc) break;
        measurement_fill(&out, &in);
        rc = hs_secure_send(ch, &out);
    }
    hs_secure_destroy(&ch);
    return rc;
}

static int serve_ofa(server *sv, int fd, hs_ctx *ctx)
{
    ofa_specimen spec = {.n = sv->c->nact};
    const hs_ofr_backend be = {
        .user = &spec, .set_trial = ofa_set_trial, .get_force = ofa_get_force};
    const hs_ofr_server_config cfg = {.n = spec.n};
    hs_ofr_server *s = NULL;
    if (hs_ofr_server_create(ctx, HS_OFR_PROTO_A, &cfg, &be, &s)) return -1;
    static uint8_t buf[4 * OFA_DATA * 8];
    const int one = 1;
    int rc = 0;
    while (!rc && (hs_ofr_server_state(s) == HS_OFR_HANDSHAKE ||
                   hs_ofr_server_state(s) == HS_OFR_RUNNING)) {
        const ssize_t r = recv(fd, buf, sizeof buf, 0);
        setsockopt(fd, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof one);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            rc = hs_fail(ctx, HS_ENET, "OpenFresco server: %s", r ? strerror(errno) : "closed");
            break;
        }
        size_t off = 0;
        while (!rc && off < (size_t)r) {
            size_t used = 0, len = 0;
            rc = hs_ofr_server_feed(s, buf + off, (size_t)r - off, &used);
            off += used;
            const uint8_t *reply = hs_ofr_server_reply(s, &len);
            if (reply) {
                if (send_all(fd, reply, len)) rc = hs_fail(ctx, HS_ENET, "OpenFresco reply");
                hs_ofr_server_reply_sent(s);
            }
            if (!used && !reply) break;
        }
    }
    hs_ofr_server_destroy(&s);
    return rc;
}

static void *server_main(void *arg)
{
    server *sv = arg;
    pin(sv->c->server_cpu);
    hs_ctx *ctx = NULL;
    if (hs_ctx_create(&ctx)) {
        sv->rc = -1;
        return NULL;
    }
    const int fd = accept_bounded(sv->lfd);
    if (fd < 0) {
        sv->rc = -1;
        snprintf(sv->why, sizeof sv->why, "no client within %d ms", TIMEOUT_MS);
    } else {
        socket_bounds(fd, 1);
        switch (sv->c->kind) {
        case K_FLOOR:
            sv->rc = serve_floor(sv, fd);
            break;
        case K_NATIVE:
            sv->rc = serve_native(sv, fd, ctx);
            break;
        case K_OFA:
        case K_OFA_NEWTON:
            sv->rc = serve_ofa(sv, fd, ctx);
            break;
        }
        if (sv->rc && !sv->why[0])
            snprintf(sv->why, sizeof sv->why, "%s",
                     hs_ctx_message(ctx)[0] ? hs_ctx_message(ctx) : strerror(errno));
        close(fd);
    }
    hs_ctx_destroy(&ctx);
    return NULL;
}

/* ---- the coordinator's end (timed) ---- */

typedef struct timing {
    int64_t *lat; /* count entries, ns */
    int64_t first, last;
} timing;

static void record(const xcase *c, timing *tm, int k, int64_t t0, int64_t t1)
{
    if (k < c->warm) return;
    if (k == c->warm) tm->first = t0;
    tm->lat[k - c->warm] = t1 - t0;
    tm->last = t1;
}

static int client_floor(const xcase *c, int fd, timing *tm)
{
    static uint8_t out[OFA_DATA * 8], in[2 * OFA_DATA * 8];
    memset(out, 0xa5, sizeof out);
    for (int k = 0; k < c->warm + c->count; k++) {
        const int64_t t0 = now_ns();
        for (int w = 0; w < c->writes; w++)
            if (send_all(fd, out, c->out_len)) return -1;
        if (recv_all(fd, in, c->back_len)) return -1;
        record(c, tm, k, t0, now_ns());
    }
    return 0;
}

static int client_native(const xcase *c, int fd, hs_ctx *ctx, timing *tm, double *handshake_us)
{
    static hs_wire_msg out, in;
    const int64_t h0 = now_ns();
    hs_socket_link link;
    hs_secure *ch = channel(ctx, fd, HS_SECURE_COORDINATOR, c->mode, &link);
    if (!ch) return -1;
    *handshake_us = 1e-3 * (double)(now_ns() - h0);
    int rc = 0;
    for (int k = 0; !rc && k < c->warm + c->count; k++) {
        target_fill(&out, k + 1, c->nact);
        const int64_t t0 = now_ns();
        rc = hs_secure_send(ch, &out);
        if (!rc) rc = hs_secure_recv(ch, &in, TIMEOUT_MS);
        const int64_t t1 = now_ns();
        if (!rc && (in.type != HS_WIRE_MEASUREMENT || in.step != k + 1 ||
                    in.meas.x[c->nact - 1] != out.target.x[c->nact - 1]))
            rc = hs_fail(ctx, HS_EPROTO, "step %d: not the step's measurement", k + 1);
        record(c, tm, k, t0, t1);
    }
    hs_secure_destroy(&ch);
    return rc;
}

/* Sends what the OpenFresco client has queued. */
static int ofa_flush(hs_ofr_client *cl, int fd)
{
    size_t len = 0;
    const uint8_t *out = hs_ofr_client_output(cl, &len);
    if (out && send_all(fd, out, len)) return -1;
    if (out) hs_ofr_client_output_sent(cl);
    return 0;
}

static int ofa_until_ready(hs_ofr_client *cl, int fd)
{
    static uint8_t buf[OFA_DATA * 8];
    while (!hs_ofr_client_ready(cl)) {
        const ssize_t r = recv(fd, buf, sizeof buf, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        size_t used = 0;
        if (hs_ofr_client_feed(cl, buf, (size_t)r, &used)) return -1;
    }
    return 0;
}

static int client_ofa(const xcase *c, int fd, hs_ctx *ctx, timing *tm)
{
    const int n = c->nact;
    const hs_ofr_client_config cfg = {
        .sizes = {.ctrl = {n, n, n, 0, 1}, .daq = {0, 0, 0, n, 0}, .data_size = OFA_DATA}};
    hs_ofr_client *cl = NULL;
    if (hs_ofr_client_create(ctx, HS_OFR_PROTO_A, &cfg, &cl)) return -1;
    int rc = ofa_flush(cl, fd);
    double d[HS_WIRE_MAX_ACT], v[HS_WIRE_MAX_ACT], a[HS_WIRE_MAX_ACT];
    for (int k = 0; !rc && k < c->warm + c->count; k++) {
        for (int j = 0; j < n; j++) {
            d[j] = target_x(k, j);
            v[j] = 0.1 * d[j];
            a[j] = 0.01 * d[j];
        }
        const int64_t t0 = now_ns();
        rc = hs_ofr_client_set_trial(cl, d, v, a, 0.01 * (double)k);
        if (!rc) rc = ofa_flush(cl, fd);
        if (!rc) rc = hs_ofr_client_request(cl, HS_OFR_GET_FORCE);
        if (!rc) rc = ofa_flush(cl, fd);
        if (!rc) rc = ofa_until_ready(cl, fd);
        const int64_t t1 = now_ns();
        size_t nv = 0;
        const double *q = rc ? NULL : hs_ofr_client_reply(cl, &nv);
        if (!rc && (!q || nv != (size_t)n || q[n - 1] != STIFFNESS * d[n - 1]))
            rc = hs_fail(ctx, HS_EPROTO, "exchange %d: not the force k d", k);
        record(c, tm, k, t0, t1);
    }
    if (!rc) rc = hs_ofr_client_request(cl, HS_OFR_DIE);
    if (!rc) rc = ofa_flush(cl, fd);
    hs_ofr_client_destroy(&cl);
    return rc;
}

/* A genericClient Newton step, timed whole: NEWTON_ITER trials (3 with a new displacement,
 * then 10 and its reply), then commit (5, no reply): 2 NEWTON_ITER + 1 messages. The server is
 * the trivial one (k d at once) or the site server (each trial reached by its controller). */
static int client_ofa_newton(const xcase *c, int fd, hs_ctx *ctx, timing *tm)
{
    const int n = c->nact;
    const hs_ofr_client_config cfg = {
        .sizes = {.ctrl = {n, n, n, 0, 1}, .daq = {0, 0, 0, n, 0}, .data_size = OFA_DATA}};
    hs_ofr_client *cl = NULL;
    if (hs_ofr_client_create(ctx, HS_OFR_PROTO_A, &cfg, &cl)) return -1;
    int rc = ofa_flush(cl, fd);
    double d[HS_WIRE_MAX_ACT], v[HS_WIRE_MAX_ACT] = {0}, a[HS_WIRE_MAX_ACT] = {0};
    for (int k = 0; !rc && k < c->warm + c->count; k++) {
        const int64_t t0 = now_ns();
        for (int it = 0; !rc && it < NEWTON_ITER; it++) {
            for (int j = 0; j < n; j++)
                d[j] = target_x(k, j) * (1.0 + 0.01 * (double)(NEWTON_ITER - 1 - it));
            rc = hs_ofr_client_set_trial(cl, d, v, a, 0.01 * (double)k);
            if (!rc) rc = ofa_flush(cl, fd);
            if (!rc) rc = hs_ofr_client_request(cl, HS_OFR_GET_FORCE);
            if (!rc) rc = ofa_flush(cl, fd);
            if (!rc) rc = ofa_until_ready(cl, fd);
            size_t nv = 0;
            const double *q = rc ? NULL : hs_ofr_client_reply(cl, &nv);
            if (!rc && (!q || nv != (size_t)n ||
                        fabs(q[n - 1] - STIFFNESS * d[n - 1]) > 1e-12 * fabs(STIFFNESS * d[n - 1])))
                rc = hs_fail(ctx, HS_EPROTO, "step %d, trial %d: not the force k d", k, it);
        }
        if (!rc) rc = hs_ofr_client_request(cl, HS_OFR_COMMIT);
        if (!rc) rc = ofa_flush(cl, fd);
        record(c, tm, k, t0, now_ns());
    }
    if (!rc) rc = hs_ofr_client_request(cl, HS_OFR_DIE);
    if (!rc) rc = ofa_flush(cl, fd);
    hs_ofr_client_destroy(&cl);
    return rc;
}

static int cmp_i64(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static double rank_us(const int64_t *sorted, int n, double p)
{
    int i = (int)ceil(p * (double)n) - 1;
    if (i < 0) i = 0;
    return 1e-3 * (double)sorted[i];
}

static void summarize(const timing *tm, int count, result *r)
{
    qsort(tm->lat, (size_t)count, sizeof *tm->lat, cmp_i64);
    r->p50 = rank_us(tm->lat, count, 0.50);
    r->p99 = rank_us(tm->lat, count, 0.99);
    r->max = rank_us(tm->lat, count, 1.0);
    r->rate = (double)count / (1e-9 * (double)(tm->last - tm->first));
}

static int run_case(const xcase *c, timing *tm, result *r, double *handshake_us)
{
    int port = 0;
    server sv = {.c = c, .lfd = listen_loopback(&port)};
    if (sv.lfd < 0) {
        fprintf(stderr, "bench_exchange: cannot listen on 127.0.0.1: %s\n", strerror(errno));
        return -1;
    }
    pin(c->client_cpu);
    pthread_t th;
    if (pthread_create(&th, NULL, server_main, &sv)) {
        close(sv.lfd);
        pin(-1);
        return -1;
    }
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    /* genericClient leaves Nagle on; every other client sets TCP_NODELAY */
    const int fd = connect_loopback(port, c->kind != K_OFA && c->kind != K_OFA_NEWTON);
    int rc = fd < 0 ? -1 : 0;
    if (!rc) switch (c->kind) {
        case K_FLOOR:
            rc = client_floor(c, fd, tm);
            break;
        case K_NATIVE:
            rc = client_native(c, fd, ctx, tm, handshake_us);
            break;
        case K_OFA:
            rc = client_ofa(c, fd, ctx, tm);
            break;
        case K_OFA_NEWTON:
            rc = client_ofa_newton(c, fd, ctx, tm);
            break;
        }
    if (rc)
        fprintf(stderr, "bench_exchange: %s, %d actuator(s): %s\n", c->name, c->nact,
                hs_ctx_message(ctx)[0] ? hs_ctx_message(ctx) : strerror(errno));
    if (fd >= 0) close(fd);
    pthread_join(th, NULL);
    close(sv.lfd);
    pin(-1);
    hs_ctx_destroy(&ctx);
    if (!rc && sv.rc) {
        fprintf(stderr, "bench_exchange: %s, %d actuator(s), site end: %s\n", c->name, c->nact,
                sv.why);
        rc = -1;
    }
    if (!rc) summarize(tm, c->count, r);
    return rc;
}

/* ---- the whole path: hs_site_server ---- */

static int site_recv(hs_secure *ch, hs_wire_msg *m)
{
    for (;;) {
        const int rc = hs_secure_recv(ch, m, TIMEOUT_MS);
        if (rc || m->type != HS_WIRE_HEARTBEAT) return rc;
    }
}

static int site_client(const xcase *c, int port, hs_ctx *ctx, timing *tm)
{
    static hs_wire_msg out, in;
    const int fd = connect_loopback(port, 1);
    if (fd < 0) return hs_fail(ctx, HS_ENET, "cannot connect to the site server");
    hs_socket_link link;
    hs_secure *ch = channel(ctx, fd, HS_SECURE_COORDINATOR, HS_SECURE_PLAIN, &link);
    int rc = ch ? 0 : -1;
    memset(&out, 0, sizeof out);
    out.type = HS_WIRE_HELLO;
    out.hello.version_min = out.hello.version_max = HS_WIRE_VERSION;
    out.hello.caps = HS_WIRE_CAP_ALL;
    out.hello.nact = c->nact;
    out.hello.time_scale = 1.0;
    out.hello.dt = 1.0 / SITE_RATE; /* one controller tick a step */
    snprintf(out.hello.coordinator, sizeof out.hello.coordinator, "bench");
    snprintf(out.hello.site, sizeof out.hello.site, "bench");
    if (!rc) rc = hs_secure_send(ch, &out);
    if (!rc) rc = site_recv(ch, &in);
    if (!rc && in.type != HS_WIRE_HELLO_ACK)
        rc = hs_fail(ctx, HS_EPROTO, "HELLO answered with %s: %s", hs_wire_type_name((int)in.type),
                     in.type == HS_WIRE_ERROR ? in.error.text : "");
    for (int k = 0; !rc && k < c->warm + c->count; k++) {
        target_fill(&out, k + 1, c->nact);
        const int64_t t0 = now_ns();
        rc = hs_secure_send(ch, &out);
        if (!rc) rc = site_recv(ch, &in);
        const int64_t t1 = now_ns();
        if (!rc && (in.type != HS_WIRE_MEASUREMENT || in.step != k + 1))
            rc = hs_fail(ctx, HS_EPROTO, "step %d: %s instead of its MEASUREMENT%s%s", k + 1,
                         hs_wire_type_name((int)in.type), in.type == HS_WIRE_ERROR ? ": " : "",
                         in.type == HS_WIRE_ERROR ? in.error.text : "");
        record(c, tm, k, t0, t1);
        out = (hs_wire_msg){.type = HS_WIRE_COMMIT, .step = k + 1};
        if (!rc) rc = hs_secure_send(ch, &out);
    }
    if (!rc) {
        out = (hs_wire_msg){.type = HS_WIRE_BYE};
        rc = hs_secure_send(ch, &out);
        if (!rc) rc = site_recv(ch, &in);
    }
    hs_secure_destroy(&ch);
    close(fd);
    return rc;
}

static int run_site_server(const xcase *c, timing *tm, result *r, int *late, int64_t *ticks)
{
    char text[512];
    snprintf(text, sizeof text,
             "site:\n  name: bench\n  listen: \"127.0.0.1:0\"\n  plain: true\n  rate: %g\n"
             "  perfect: true\n  actuators: {a1: {stroke: 10}, a2: {stroke: 10}}\n"
             "  specimen: {type: linear, K: [[%g, 0], [0, %g]]}\n",
             SITE_RATE, STIFFNESS, STIFFNESS);
    hs_ctx *ctx = NULL;
    hs_site_file *file = NULL;
    hs_site_server *s = NULL;
    hs_ctx_create(&ctx);
    int rc = hs_site_file_load_string(ctx, text, strlen(text), "bench-site.yaml", &file);
    if (!rc) rc = hs_site_server_create(ctx, hs_site_file_config(file), &s);
    if (!rc) rc = hs_site_server_start(s);
    if (!rc) rc = site_client(c, hs_site_server_port(s, HS_SITE_PORT_NATIVE), ctx, tm);
    if (rc) fprintf(stderr, "bench_exchange: site server: %s\n", hs_ctx_message(ctx));
    if (s) {
        hs_site_server_stop(s, 5.0);
        hs_site_server_status st;
        hs_site_server_status_get(s, &st);
        *late = (int)st.late_ticks;
        *ticks = st.ticks;
    }
    hs_site_server_destroy(&s);
    hs_site_file_destroy(&file);
    hs_ctx_destroy(&ctx);
    if (!rc) summarize(tm, c->count, r);
    return rc;
}

/* The same Newton steps against the site server's OpenFresco A port: a perfect two-actuator lab
 * at `rate` Hz, one tick a trial (step_time 1 / OFR_RATE, T the identity), k on the diagonal. */
static int run_site_server_ofa(const xcase *c, double rate, timing *tm, result *r, int *late,
                               int64_t *ticks)
{
    char text[640];
    snprintf(text, sizeof text,
             "site:\n  name: bench\n  listen: \"127.0.0.1:0\"\n  plain: true\n  rate: %g\n"
             "  perfect: true\n  actuators: {a1: {stroke: 10}, a2: {stroke: 10}}\n"
             "  specimen: {type: linear, K: [[%g, 0], [0, %g]]}\n"
             "  openfresco: {protocol_a: 0, step_time: %.17g}\n",
             rate, STIFFNESS, STIFFNESS, 1.0 / rate);
    hs_ctx *ctx = NULL;
    hs_site_file *file = NULL;
    hs_site_server *s = NULL;
    hs_ctx_create(&ctx);
    int rc = hs_site_file_load_string(ctx, text, strlen(text), "bench-site.yaml", &file);
    if (!rc) rc = hs_site_server_create(ctx, hs_site_file_config(file), &s);
    if (!rc) rc = hs_site_server_start(s);
    const int fd = rc ? -1 : connect_loopback(hs_site_server_port(s, HS_SITE_PORT_OFA), 0);
    if (!rc && fd < 0) rc = hs_fail(ctx, HS_ENET, "cannot connect to the site server");
    if (!rc) rc = client_ofa_newton(c, fd, ctx, tm);
    if (fd >= 0) close(fd);
    if (rc)
        fprintf(stderr, "bench_exchange: site server (OpenFresco A): %s\n", hs_ctx_message(ctx));
    if (s) {
        hs_site_server_stop(s, 5.0);
        hs_site_server_status st;
        hs_site_server_status_get(s, &st);
        *late = (int)st.late_ticks;
        *ticks = st.ticks;
    }
    hs_site_server_destroy(&s);
    hs_site_file_destroy(&file);
    hs_ctx_destroy(&ctx);
    if (!rc) summarize(tm, c->count, r);
    return rc;
}

/* ---- the table ---- */

static void row(const xcase *c, const result *r, double floor_p50)
{
    char bytes[32];
    if (c->writes > 1)
        snprintf(bytes, sizeof bytes, "%dx%zu/%zu", c->writes, c->out_len, c->back_len);
    else
        snprintf(bytes, sizeof bytes, "%zu/%zu", c->out_len, c->back_len);
    printf("%-34s %4d %13s %8.1f %8.1f %9.1f %9.0f %8.2f\n", c->name, c->nact, bytes, r->p50,
           r->p99, r->max, r->rate, r->p50 / floor_p50);
    fflush(stdout);
}

/* The five cases of each actuator count with both ends pinned as given; the plain native p50
 * over the floor's for 1, 2, 8 actuators into ratio[3], the 2-actuator floor into *floor2. */
static int placement(const char *title, int ccpu, int scpu, int warm, int count, timing *tm,
                     double ratio[3], double *floor2, double *handshake_us)
{
    static const int nacts[3] = {1, 2, 8};
    int failed = 0;
    printf("\n%s\n", title);
    printf("%-34s %4s %13s %8s %8s %9s %9s %8s\n", "case", "nact", "bytes", "p50 us", "p99 us",
           "max us", "exch/s", "p50/flr");
    for (int i = 0; i < 3; i++) {
        const int n = nacts[i];
        size_t tl = 0, ml = 0;
        if (native_sizes(n, &tl, &ml)) return -1;
        const size_t of = OFA_DATA * sizeof(double), tag = HS_WIRE_TAG_SIZE;
        const xcase cases[5] = {
            {"floor: raw TCP, native sizes", K_FLOOR, n, 0, 1, tl, ml, warm, count, ccpu, scpu},
            {"native plain", K_NATIVE, n, HS_SECURE_PLAIN, 1, tl, ml, warm, count, ccpu, scpu},
            {"native secured (sealed)", K_NATIVE, n, HS_SECURE_PSK, 1, tl + tag, ml + tag, warm,
             count, ccpu, scpu},
            {"raw TCP, OpenFresco A sizes", K_FLOOR, n, 0, 2, of, of, warm, count, ccpu, scpu},
            {"OpenFresco A (3, 10 -> reply)", K_OFA, n, 0, 2, of, of, warm, count, ccpu, scpu},
        };
        double floor_p50 = 0.0;
        for (int k = 0; k < 5; k++) {
            result r;
            double hs = 0.0;
            if (run_case(&cases[k], tm, &r, &hs)) {
                failed = -1;
                continue;
            }
            if (k == 0) floor_p50 = r.p50;
            if (k == 0 && n == 2) *floor2 = r.p50;
            if (k == 1) ratio[i] = r.p50 / floor_p50;
            if (k == 2 && *handshake_us == 0.0) *handshake_us = hs;
            row(&cases[k], &r, floor_p50);
        }
    }
    return failed;
}

static void goal(const char *where, const double ratio[3])
{
    int met = 1;
    for (int i = 0; i < 3; i++) met = met && ratio[i] > 0.0 && ratio[i] <= 1.2;
    printf("goal (issue 21): plain native p50 within 1.2 x the floor (%s): %.2f, %.2f, %.2f for 1, "
           "2, 8 "
           "actuators: %s\n",
           where, ratio[0], ratio[1], ratio[2], met ? "met" : "NOT met");
}

int main(int argc, char **argv)
{
    const int count = argc > 1 ? atoi(argv[1]) : 20000;
    if (count < 100 || count > MAX_EXCHANGE) {
        fprintf(stderr, "usage: bench_exchange [exchanges per case, 100 .. %d]\n", MAX_EXCHANGE);
        return 2;
    }
    const int warm = count / 10 < 2000 ? count / 10 : 2000;
    timing tm = {.lat = calloc((size_t)count, sizeof(int64_t))};
    if (!tm.lat) return 1;
    if (sched_getaffinity(0, sizeof all_cpus, &all_cpus)) CPU_ZERO(&all_cpus);
    int cpu[2] = {-1, -1};
    for (int c = 0, k = 0; c < CPU_SETSIZE && k < 2; c++)
        if (CPU_ISSET((size_t)c, &all_cpus)) cpu[k++] = c;
    if (cpu[0] < 0) {
        fprintf(stderr, "bench_exchange: no CPU in this process's affinity mask\n");
        return 1;
    }
    printf("exchange latency on 127.0.0.1: %d exchanges per case after %d of warm-up (site "
           "server row: %d after %d)\n",
           count, warm, count / 10, warm / 10);
    printf("bytes: out/back per exchange (frames as sent); p50/flr: p50 over the p50 of the floor "
           "of the same actuator count and placement, measured in this run\n");
    double one[3] = {0}, two[3] = {0}, floor2 = 0.0, handshake_us = 0.0;
    /* "newton" as the second argument: only the OpenFresco Newton-step rows */
    const int only_newton = argc > 2 && strcmp(argv[2], "newton") == 0;
    int failed = 0;
    char title[160];
    if (!only_newton) {
        snprintf(title, sizeof title,
                 "one core: both ends pinned to CPU %d (the protocol's CPU cost shows)", cpu[0]);
        failed = placement(title, cpu[0], cpu[0], warm, count, &tm, one, &floor2, &handshake_us);
        if (cpu[1] >= 0) {
            snprintf(
                title, sizeof title,
                "two cores: coordinator on CPU %d, site on CPU %d (each message wakes the other "
                "CPU)",
                cpu[0], cpu[1]);
            failed |=
                placement(title, cpu[0], cpu[1], warm, count, &tm, two, &floor2, &handshake_us);
        }
        {
            const xcase site = {"whole path: hs_site_server *",
                                K_NATIVE,
                                2,
                                HS_SECURE_PLAIN,
                                1,
                                0,
                                0,
                                warm / 10,
                                count / 10,
                                -1,
                                -1};
            size_t tl = 0, ml = 0;
            native_sizes(2, &tl, &ml);
            xcase shown = site;
            shown.out_len = tl;
            shown.back_len = ml;
            result r;
            int late = 0;
            int64_t ticks = 0;
            printf(
                "\nthe whole site server, threads placed by the scheduler (p50/flr over the last "
                "2-actuator floor above)\n");
            if (run_site_server(&site, &tm, &r, &late, &ticks)) {
                failed = 1;
            } else {
                row(&shown, &r, floor2);
                printf(
                    "  * plain mode, perfect lab, %g Hz controller, one tick a step (dt %g s, time "
                    "scale 1), COMMIT after each measurement (not timed); %lld ticks, %d late\n",
                    SITE_RATE, 1.0 / SITE_RATE, (long long)ticks, late);
            }
        }
    }
    {
        /* a genericClient Newton step: the trivial server, then the site server */
        const size_t of = OFA_DATA * sizeof(double);
        const int w = warm / 10, nc = count / 10;
        const xcase trivial = {"OpenFresco A Newton step, trivial",
                               K_OFA_NEWTON,
                               2,
                               0,
                               2 * NEWTON_ITER + 1,
                               of,
                               of,
                               w,
                               nc,
                               -1,
                               -1};
        xcase site = trivial;
        printf("\na genericClient Newton step (%d trials: 3 with a new d, 10 and its reply; then "
               "5), threads placed by the scheduler; p50/flr over the trivial server's p50\n",
               NEWTON_ITER);
        result rt, rs;
        int late = 0;
        int64_t ticks = 0;
        if (run_case(&trivial, &tm, &rt, &(double){0.0})) {
            failed = 1;
        } else {
            row(&trivial, &rt, rt.p50);
            static const double rates[2] = {2000.0, 8192.0};
            for (int i = 0; i < 2; i++) {
                snprintf(site.name, sizeof site.name, "OpenFresco A Newton, site %.0f Hz *",
                         rates[i]);
                if (run_site_server_ofa(&site, rates[i], &tm, &rs, &late, &ticks)) {
                    failed = 1;
                    continue;
                }
                row(&site, &rs, rt.p50);
                printf(
                    "  * hs_site_server's OpenFresco A port: perfect lab, stepwise controller at "
                    "%g Hz, one tick a trial (step_time %.3g s); %lld ticks, %d late; above the "
                    "trivial server: %.1f us a trial (a tick: %.1f us)\n",
                    rates[i], 1.0 / rates[i], (long long)ticks, late,
                    (rs.p50 - rt.p50) / NEWTON_ITER, 1e6 / rates[i]);
                printf("goal: the site server's Newton step p50 within 2 x the trivial server's: "
                       "%.2f: %s\n",
                       rs.p50 / rt.p50, rs.p50 <= 2.0 * rt.p50 ? "met" : "NOT met");
            }
        }
    }
    if (!only_newton) {
        printf("\nsecured handshake (once per connection, one core): %.0f us\n", handshake_us);
        goal("one core", one);
        if (cpu[1] >= 0) goal("two cores", two);
    }
    free(tm.lat);
    return failed ? 1 : 0;
}
