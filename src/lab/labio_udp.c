/* The udp laboratory back end (docs/lab_backends.md): one command datagram per controller tick to
 * a real-time target, and its reply awaited for at most reply_timeout within the tick. Replies
 * from another address, of the wrong size, with a counter already seen or older than the last
 * accepted, or answering an earlier command (with an echo field) are counted and discarded; a
 * tick without an accepted reply keeps the last measurement, and max_missing of them in a row
 * raise HS_LAB_ST_WATCHDOG (the site holds). The socket is not connect()ed, so that datagrams
 * from other addresses are seen, counted and logged rather than filtered by the kernel. */
#define _GNU_SOURCE
#include "hysim/labio.h"

#include "lab_watchdog.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct udp_lab {
    hs_ctx *ctx;
    int fd, n, max_missing;
    int fixed_local;  /* local: names a port (the target's periodic reply comes there) */
    int bind_pending; /* that port was taken by the previous test's laboratory: bound at the
                       * first exchange, after the hand-over let it go (u_detach) */
    struct sockaddr_in local;
    double rate, reply_timeout;
    struct sockaddr_in remote;
    hs_lab_udp_config cfg;
    uint32_t counter, last_counter;
    int seen; /* a reply was accepted */
    int64_t ticks, ctrl_tick;
    uint32_t status;
    double x[HS_LAB_MAX_ACT], f[HS_LAB_MAX_ACT];
    hs_lab_udp_counts counts;
    hs_lab_watch watch;
    char alarm[200];
    uint8_t out[HS_UDP_MAX_BYTES], in[HS_UDP_MAX_BYTES + 1];
} udp_lab;

int hs_udp_address(const char *text, void *out)
{
    char host[64];
    const char *colon = text ? strrchr(text, ':') : NULL;
    if (!colon || colon == text || (size_t)(colon - text) >= sizeof host) return HS_EINPUT;
    memcpy(host, text, (size_t)(colon - text));
    host[colon - text] = '\0';
    char *end = NULL;
    const long port = strtol(colon + 1, &end, 10);
    if (end == colon + 1 || *end || port < 0 || port > 65535) return HS_EINPUT;
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, host, &a.sin_addr) != 1) return HS_EINPUT;
    memcpy(out, &a, sizeof a);
    return 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One datagram: 1 when it is accepted (and taken into u), 0 when discarded. */
static int take(udp_lab *u, const struct sockaddr_in *from, size_t len, hs_udp_values *v)
{
    if (from->sin_addr.s_addr != u->remote.sin_addr.s_addr ||
        from->sin_port != u->remote.sin_port) {
        u->counts.foreign++;
        if (u->counts.foreign == 1 || u->counts.foreign % 1000 == 0) {
            char a[INET_ADDRSTRLEN] = "?";
            inet_ntop(AF_INET, &from->sin_addr, a, sizeof a);
            hs_log(u->ctx, HS_LOG_WARN,
                   "lab udp: ignored a datagram from %s:%u (expected replies from %s only; %lld "
                   "ignored so far)",
                   a, (unsigned)ntohs(from->sin_port), u->cfg.remote, (long long)u->counts.foreign);
        }
        return 0;
    }
    hs_udp_values r = *v;
    if (hs_udp_unpack(&u->cfg.reply, u->in, len, &r)) {
        u->counts.malformed++;
        return 0;
    }
    if (hs_udp_layout_has(&u->cfg.reply, HS_UDP_COUNTER) && u->seen) {
        const int32_t d = (int32_t)(r.counter - u->last_counter);
        if (d == 0) {
            u->counts.duplicated++;
            return 0;
        }
        if (d < 0) {
            u->counts.out_of_order++;
            return 0;
        }
    }
    if (hs_udp_layout_has(&u->cfg.reply, HS_UDP_ECHO) && r.echo != u->counter) {
        if ((int32_t)(r.echo - u->counter) < 0)
            u->counts.late++;
        else
            u->counts.malformed++; /* answers a command never sent */
        return 0;
    }
    *v = r;
    u->seen = 1;
    u->last_counter = r.counter;
    return 1;
}

static int u_exchange(void *self, const double *cmd, hs_lab_input *in)
{
    udp_lab *u = self;
    if (u->bind_pending) {
        if (bind(u->fd, (const struct sockaddr *)&u->local, sizeof u->local) != 0)
            return hs_fail(u->ctx, HS_EIO,
                           "lab udp: cannot bind %s for the new test: %s (another program took the "
                           "port while the tests handed over)",
                           u->cfg.local, strerror(errno));
        u->bind_pending = 0;
    }
    hs_udp_values v;
    memset(&v, 0, sizeof v);
    u->counter++;
    u->ticks++;
    v.counter = u->counter;
    v.time = (double)u->ticks / u->rate;
    memcpy(v.cmd, cmd, (size_t)u->n * sizeof(double));
    hs_udp_pack(&u->cfg.command, &v, u->out);
    if (sendto(u->fd, u->out, u->cfg.command.size, 0, (const struct sockaddr *)&u->remote,
               sizeof u->remote) == (ssize_t)u->cfg.command.size)
        u->counts.sent++;
    memcpy(v.x, u->x, sizeof v.x);
    memcpy(v.f, u->f, sizeof v.f);
    v.status = u->status;
    v.tick = u->ctrl_tick;
    /* once the watchdog has fired, the target is gone: look for a reply without waiting, so that
     * the site's loop keeps its clock while it holds */
    const double deadline = now_s() + (hs_lab_watch_gone(&u->watch) ? 0.0 : u->reply_timeout);
    int accepted = 0;
    for (;;) {
        for (;;) { /* drain what has arrived; the newest acceptable reply wins */
            struct sockaddr_in from;
            socklen_t fl = sizeof from;
            const ssize_t got =
                recvfrom(u->fd, u->in, sizeof u->in, MSG_DONTWAIT, (struct sockaddr *)&from, &fl);
            if (got < 0) break;
            accepted |= take(u, &from, (size_t)got, &v);
        }
        const double left = deadline - now_s();
        if (accepted || left <= 0.0) break;
        struct pollfd p = {.fd = u->fd, .events = POLLIN};
        const struct timespec ts = {.tv_sec = (time_t)left,
                                    .tv_nsec = (long)((left - (double)(time_t)left) * 1e9)};
        if (ppoll(&p, 1, &ts, NULL) < 0 && errno != EINTR) break;
    }
    if (accepted) {
        u->counts.received++;
        memcpy(u->x, v.x, sizeof u->x);
        memcpy(u->f, v.f, sizeof u->f);
        u->status = v.status & (HS_LAB_ST_INTERLOCK | HS_LAB_ST_FAULT);
        u->ctrl_tick = v.tick;
    }
    const uint32_t st = hs_lab_watch_tick(&u->watch, accepted, u->status, u->ticks);
    memcpy(in->x, u->x, (size_t)u->n * sizeof(double));
    memcpy(in->f, u->f, (size_t)u->n * sizeof(double));
    in->status = st;
    in->ctrl_tick = u->ctrl_tick;
    in->missing = u->counts.missing_run;
    in->missing_max = u->max_missing;
    return 0;
}

/* The rig's position before any command: the target's periodic reply to the site's fixed local
 * address (a target that answers only commands cannot say where it rests), waited for at most
 * HS_LAB_POSITION_WAIT. Any well-formed reply from the remote counts, whatever command it echoes
 * (none yet, or a former site's); its counter is taken as the last seen. */
static int u_position(void *self, hs_ctx *ctx, double *x)
{
    udp_lab *u = self;
    if (!u->fixed_local && u->cfg.rests_at_zero) { /* the operator's statement */
        hs_log(ctx, HS_LOG_WARN,
               "lab udp %s: no fixed site.lab.local; site.lab.rests_at_zero states that the rig "
               "rests at 0: the first command is 0",
               u->cfg.remote);
        memset(x, 0, (size_t)u->n * sizeof(double));
        return 0;
    }
    if (!u->fixed_local)
        return hs_fail(ctx, HS_EUNSUPPORTED,
                       "lab udp %s: no fixed site.lab.local (HOST:PORT with a port) where the "
                       "target sends its periodic reply: the site cannot read where the rig rests "
                       "before its first command; give site.lab.local a port and make the target "
                       "send its periodic reply there, or, if the rig is known to rest at 0, say "
                       "so with site.lab.rests_at_zero: true",
                       u->cfg.remote);
    if (u->bind_pending)
        return hs_fail(ctx, HS_EIO,
                       "lab udp: cannot bind %s (site.lab.local): the address is in use by another "
                       "program; stop it, or give another local port (and the target's reply "
                       "address with it)",
                       u->cfg.local);
    const double deadline = now_s() + HS_LAB_POSITION_WAIT;
    for (;;) {
        struct sockaddr_in from;
        socklen_t fl = sizeof from;
        const ssize_t got =
            recvfrom(u->fd, u->in, sizeof u->in, MSG_DONTWAIT, (struct sockaddr *)&from, &fl);
        hs_udp_values v;
        memset(&v, 0, sizeof v);
        if (got > 0 && from.sin_addr.s_addr == u->remote.sin_addr.s_addr &&
            from.sin_port == u->remote.sin_port &&
            hs_udp_unpack(&u->cfg.reply, u->in, (size_t)got, &v) == 0) {
            memcpy(u->x, v.x, sizeof u->x);
            memcpy(u->f, v.f, sizeof u->f);
            u->ctrl_tick = v.tick;
            u->seen = 1;
            u->last_counter = v.counter;
            memcpy(x, u->x, (size_t)u->n * sizeof(double));
            return 0;
        }
        const double left = deadline - now_s();
        if (left <= 0.0) break;
        if (got >= 0) continue; /* another sender's or a malformed datagram: the next one */
        struct pollfd p = {.fd = u->fd, .events = POLLIN};
        const struct timespec ts = {.tv_sec = (time_t)left,
                                    .tv_nsec = (long)((left - (double)(time_t)left) * 1e9)};
        if (ppoll(&p, 1, &ts, NULL) < 0 && errno != EINTR) break;
    }
    return hs_fail(ctx, HS_ETIMEOUT,
                   "lab udp: no reply from the target %s reached %s within %g s: the site needs "
                   "the rig's position before its first command; make the target send its "
                   "periodic reply to %s (site.lab.local) while no command comes, then start the "
                   "site",
                   u->cfg.remote, u->cfg.local, HS_LAB_POSITION_WAIT, u->cfg.local);
}

static const double *u_x(void *self)
{
    return ((udp_lab *)self)->x;
}
static const double *u_f(void *self)
{
    return ((udp_lab *)self)->f;
}
static const char *u_alarm(void *self)
{
    return ((udp_lab *)self)->alarm;
}
static void u_detach(void *self)
{
    udp_lab *u = self;
    if (u->fixed_local && u->fd >= 0) {
        close(u->fd);
        u->fd = -1;
    }
}
static void u_destroy(void *self)
{
    udp_lab *u = self;
    if (u->fd >= 0) close(u->fd);
    hs_free(u);
}

static const hs_lab_ops udp_ops = {.kind = "udp",
                                   .exchange = u_exchange,
                                   .true_displacement = u_x,
                                   .true_force = u_f,
                                   .alarm = u_alarm,
                                   .position = u_position,
                                   .detach = u_detach,
                                   .destroy = u_destroy};

int hs_lab_udp_create(hs_ctx *ctx, const hs_lab_udp_config *c, int nact, double rate, hs_lab **out)
{
    if (!c || !out || nact < 1 || nact > HS_LAB_MAX_ACT || !(rate > 0.0))
        return hs_fail(ctx, HS_EINVAL, "lab udp: missing configuration");
    if (c->command.size < 1 || c->reply.size < 1)
        return hs_fail(ctx, HS_EINPUT, "lab udp: the command and reply packets need fields");
    udp_lab *u = hs_calloc(1, sizeof *u);
    if (!u) return hs_fail(ctx, HS_ENOMEM, "lab udp: out of memory");
    u->ctx = ctx;
    u->fd = -1;
    u->n = nact;
    u->rate = rate;
    u->cfg = *c;
    u->max_missing = c->max_missing;
    u->reply_timeout = c->reply_timeout > 0.0 ? c->reply_timeout : 0.5 / rate;
    u->watch = (hs_lab_watch){.max_missing = c->max_missing,
                              .missing = &u->counts.missing,
                              .run = &u->counts.missing_run,
                              .run_max = &u->counts.missing_run_max,
                              .alarm = u->alarm,
                              .alarm_cap = sizeof u->alarm};
    snprintf(u->watch.who, sizeof u->watch.who, "lab udp %s", u->cfg.remote);
    struct sockaddr_in local;
    if (hs_udp_address(c->remote, &u->remote) ||
        hs_udp_address(c->local[0] ? c->local : "0.0.0.0:0", &local)) {
        u_destroy(u);
        return hs_fail(ctx, HS_EINPUT, "lab udp: remote '%s' or local '%s' is not HOST:PORT",
                       c->remote, c->local);
    }
    u->fixed_local = local.sin_port != 0;
    u->local = local;
    u->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    int bound = u->fd >= 0 ? bind(u->fd, (const struct sockaddr *)&local, sizeof local) : -1;
    if (bound != 0 && errno == EADDRINUSE && u->fixed_local) {
        u->bind_pending = 1; /* the current test's laboratory holds it until the hand-over */
        bound = 0;
    }
    if (bound != 0) {
        const int e = errno;
        u_destroy(u);
        return hs_fail(ctx, HS_EIO, "lab udp: cannot bind %s: %s",
                       c->local[0] ? c->local : "0.0.0.0:0", strerror(e));
    }
    const int rc = hs_lab_create(ctx, &udp_ops, u, nact, rate, out);
    if (rc) u_destroy(u);
    return rc;
}

hs_lab_udp_counts hs_lab_udp_counts_get(hs_lab *lab)
{
    hs_lab_udp_counts z;
    memset(&z, 0, sizeof z);
    if (!lab || strcmp(hs_lab_kind(lab), "udp") != 0) return z;
    return ((udp_lab *)hs_lab_self(lab))->counts;
}
