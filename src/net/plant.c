/* hysim plant's loop (include/hysim/plant.h): the virtual laboratory behind a udp socket. Each
 * command datagram from the site moves the actuators one controller tick and is answered at
 * once with the measurement (the reply echoes the command's counter), so a perfect plant answers
 * exactly what the in-process virtual laboratory would. When no command comes for one and a half
 * periods, the real clock goes on: the actuators tick on the last command, and nothing is sent.
 * The plant serves one peer (issue 17): the configured `peer:` address and port, or else the first
 * sender of a well-formed command until it ends or falls silent for peer_timeout; datagrams from
 * anyone else are counted and dropped (a warning on the first and every 1000th). A command with
 * counter 1 from the peer (a command packet with a counter) is the site's new laboratory (a new
 * test), and so is a new peer: the plant mounts a fresh specimen at rest.
 *
 * A site opens a new socket (a new port, unless its `local:` is fixed) for each test, so a first-
 * come peer must be seen to end: when another sender's datagram is dropped, the plant resends its
 * last reply to the peer (at most once a period; a live site discards it as a duplicate), and
 * the kernel's ICMP "port unreachable" for it (IP_RECVERR) says the peer's socket is closed. The
 * peer has then ended: the last dropped datagram, if it came within a period, is served at once,
 * its sender the new peer. Where ICMP does not come back, peer_timeout of silence does it. */
#define _GNU_SOURCE
#include "hysim/plant.h"
#include "hysim/shm_lab.h"

#include "lab/site_build.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/errqueue.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct plant {
    const hs_plant_config *c;
    const hs_lab_udp_config *u;
    hs_site_rig rig;
    int fd, n, have_peer, fixed_peer; /* fixed_peer: `peer:` configured, never released */
    struct sockaddr_in peer;
    double peer_seen; /* monotonic s of the peer's last well-formed command */
    double probe_at;  /* monotonic s of the last reply resent to the peer (is it still there?) */
    struct sockaddr_in held_from; /* the last datagram dropped from another sender, and when */
    size_t held_len;
    double held_at;
    uint8_t held[HS_UDP_MAX_BYTES + 1];
    uint32_t counter, last_cmd;
    int served; /* commands were served since the specimen was mounted (a new site remounts) */
    double cmd[HS_LAB_MAX_ACT], x[HS_LAB_MAX_ACT], f[HS_LAB_MAX_ACT];
    int64_t ticks;
    hs_plant_counts *k;
    uint8_t in[HS_UDP_MAX_BYTES + 1], out[HS_UDP_MAX_BYTES];
} plant;

static int model_tick(hs_ctx *ctx, plant *p)
{
    const int rc = hs_vlab_tick(p->rig.lab, p->cmd, p->x, p->f);
    if (rc)
        return hs_fail(ctx, rc, "plant: tick %lld: %s", (long long)p->ticks + 1,
                       hs_ctx_message(ctx));
    p->ticks++;
    p->k->ticks++;
    return 0;
}

/* Holds the actuators on the configured start position until they stand there (one tick for a
 * perfect plant; a first-order servo converges geometrically), before any command: the rig's
 * time before the site starts, not counted as ticks. */
static int settle(hs_ctx *ctx, plant *p)
{
    double dev = 0.0;
    for (int j = 0; j < p->n; j++) dev = fmax(dev, fabs(p->c->start[j]));
    if (!(dev > 0.0)) return 0;
    memcpy(p->cmd, p->c->start, (size_t)p->n * sizeof(double));
    for (int k = 0; k < 100000; k++) {
        const int rc = hs_vlab_tick(p->rig.lab, p->cmd, p->x, p->f);
        if (rc) return hs_fail(ctx, rc, "plant: moving to the start: %s", hs_ctx_message(ctx));
        const double *xt = hs_vlab_true_displacement(p->rig.lab); /* not the noisy sensor */
        double off = 0.0;
        for (int j = 0; j < p->n; j++) off = fmax(off, fabs(xt[j] - p->cmd[j]));
        if (off <= 1e-12 * dev) return 0;
    }
    return hs_fail(ctx, HS_ECONVERGE,
                   "plant: the actuators did not reach --start within 100000 ticks: give a start "
                   "within their stroke, or a plant whose actuators follow a held command");
}

static int remount(hs_ctx *ctx, plant *p)
{
    hs_site_rig_release(&p->rig);
    memset(&p->rig, 0, sizeof p->rig);
    int rc = hs_site_rig_create(ctx, &p->c->lab, p->c->lab.rate, &p->rig);
    if (!rc) rc = hs_site_rig_lab(ctx, &p->c->lab, p->c->lab.rate, &p->rig);
    p->ticks = 0;
    p->last_cmd = 0;
    p->served = 0;
    memset(p->cmd, 0, sizeof p->cmd);
    memset(p->x, 0, sizeof p->x);
    memset(p->f, 0, sizeof p->f);
    p->k->remounts++;
    return rc;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int same_address(const struct sockaddr_in *a, const struct sockaddr_in *b)
{
    return a->sin_addr.s_addr == b->sin_addr.s_addr && a->sin_port == b->sin_port;
}

static void warn_foreign(hs_ctx *ctx, const plant *p, const struct sockaddr_in *from)
{
    if (p->k->foreign != 1 && p->k->foreign % 1000 != 0) return;
    char a[INET_ADDRSTRLEN] = "?", b[INET_ADDRSTRLEN] = "?";
    inet_ntop(AF_INET, &from->sin_addr, a, sizeof a);
    inet_ntop(AF_INET, &p->peer.sin_addr, b, sizeof b);
    hs_log(ctx, HS_LOG_WARN,
           "plant: dropped a datagram from %s:%u: the plant serves %s:%u only (%s; %lld dropped "
           "so far)",
           a, (unsigned)ntohs(from->sin_port), b, (unsigned)ntohs(p->peer.sin_port),
           p->fixed_peer ? "its configured peer" : "the first sender, until it is silent",
           (long long)p->k->foreign);
}

/* The measurement to the peer, echoing the last command's counter (0: none yet). */
static void send_reply(plant *p)
{
    hs_udp_values r;
    memset(&r, 0, sizeof r);
    r.counter = ++p->counter;
    r.echo = p->last_cmd;
    r.tick = p->ticks;
    r.time = (double)p->ticks / p->c->lab.rate;
    r.status = p->c->interlock_after > 0 && p->k->commands >= p->c->interlock_after
                   ? HS_LAB_ST_INTERLOCK
                   : 0;
    memcpy(r.x, p->x, sizeof r.x);
    memcpy(r.f, p->f, sizeof r.f);
    hs_udp_pack(&p->u->reply, &r, p->out);
    if (sendto(p->fd, p->out, p->u->reply.size, 0, (const struct sockaddr *)&p->peer,
               sizeof p->peer) == (ssize_t)p->u->reply.size)
        p->k->replies++;
}

/* One datagram from `from`: answered (1), ignored (0) or an error (< 0). */
static int on_datagram(hs_ctx *ctx, plant *p, const struct sockaddr_in *from, size_t len)
{
    const int counted = hs_udp_layout_has(&p->u->command, HS_UDP_COUNTER);
    const double now = now_s();
    if (p->have_peer && !same_address(from, &p->peer) &&
        (p->fixed_peer || now - p->peer_seen < p->c->peer_timeout)) {
        p->k->foreign++;
        warn_foreign(ctx, p, from);
        if (!p->fixed_peer) { /* kept, in case the peer has ended (on_peer_gone) */
            memcpy(p->held, p->in, len);
            p->held_len = len;
            p->held_from = *from;
            p->held_at = now;
            if (now - p->probe_at >= 1.0 / p->c->lab.rate) {
                p->probe_at = now;
                sendto(p->fd, p->out, p->u->reply.size, 0, (const struct sockaddr *)&p->peer,
                       sizeof p->peer);
            }
        }
        return 0;
    }
    hs_udp_values v;
    memset(&v, 0, sizeof v);
    memcpy(v.cmd, p->cmd, sizeof v.cmd);
    if (hs_udp_unpack(&p->u->command, p->in, len, &v) != 0) {
        p->k->malformed++;
        return 0;
    }
    const int fresh = !p->have_peer || !same_address(from, &p->peer);
    if (fresh) { /* the first sender, or a new one after the peer ended or fell silent */
        p->peer = *from;
        p->have_peer = 1;
        p->k->peers++;
        p->last_cmd = 0;
        p->held_len = 0;
    }
    p->peer_seen = now;
    if ((fresh || (counted && v.counter == 1)) && p->served) {
        /* the peer's new laboratory (a new test): a fresh specimen at rest, as a lab mounts one */
        const int rc = remount(ctx, p);
        if (rc) return rc;
    }
    if (counted && !fresh) {
        const int32_t d = (int32_t)(v.counter - p->last_cmd);
        if (d <= 0) {
            if (d == 0)
                p->k->duplicated++;
            else
                p->k->out_of_order++;
            return 0;
        }
    }
    p->last_cmd = v.counter;
    memcpy(p->cmd, v.cmd, sizeof p->cmd);
    int rc = model_tick(ctx, p);
    if (rc) return rc;
    p->k->commands++;
    p->served = 1;
    send_reply(p);
    return 1;
}

/* The plant behind the shm back end (include/hysim/shm_lab.h): polls the command block every
 * 20 us; a new command counter moves the actuators one tick and is answered at once (echoed),
 * a new session (a site opened the block) mounts a fresh specimen at rest, and one and a half
 * periods without a command tick the actuators on the last one (the real clock). The block is
 * created when absent and then removed again when the plant stops. */
static int run_shm(hs_ctx *ctx, plant *p, volatile sig_atomic_t *stop)
{
    const hs_lab_shm_config *s = &p->c->shm;
    hs_shm_block *b = NULL;
    int created = 0;
    int rc = hs_shm_map_as(ctx, s->name, p->n, s->owner, &b, &created);
    if (rc) return rc;
    hs_shm_command c;
    memset(&c, 0, sizeof c);
    while (!*stop && !hs_shm_read(&b->command.seq, &c, &b->command, sizeof c) &&
           atomic_load(&b->command.seq) != 0) { /* a command being written: read it whole */
    }
    uint64_t session = c.session, last = c.counter; /* what was there before: not ours */
    hs_shm_reply *r = &b->reply;
    /* where the rig rests, before any command: a reply that answers no new command (the site
     * reads it as the rig's position before its first command) */
    hs_shm_write_begin(&r->seq);
    r->counter = ++p->counter;
    r->echo = last;
    r->tick = p->ticks;
    r->status = 0;
    memcpy(r->x, p->x, (size_t)p->n * sizeof(double));
    memcpy(r->f, p->f, (size_t)p->n * sizeof(double));
    hs_shm_write_end(&r->seq);
    const double period = 1.0 / p->c->lab.rate;
    double idle_at = now_s() + 1.5 * period;
    const struct timespec nap = {0, 20000};
    while (!rc && !*stop) {
        if (!hs_shm_read(&b->command.seq, &c, &b->command, sizeof c) || c.counter == last) {
            if (p->have_peer && now_s() >= idle_at) { /* no command: hold the last one */
                rc = model_tick(ctx, p);
                p->k->idle_ticks++;
                idle_at += period;
            } else
                nanosleep(&nap, NULL);
            continue;
        }
        if (c.session != session) {
            if (p->served) rc = remount(ctx, p);
            session = c.session;
            if (rc) break;
        }
        last = c.counter;
        p->have_peer = 1;
        memcpy(p->cmd, c.cmd, (size_t)p->n * sizeof(double));
        rc = model_tick(ctx, p);
        if (rc) break;
        p->k->commands++;
        p->served = 1;
        hs_shm_write_begin(&r->seq);
        r->counter = ++p->counter;
        r->echo = c.counter;
        r->tick = p->ticks;
        r->status = p->c->interlock_after > 0 && p->k->commands >= p->c->interlock_after
                        ? HS_LAB_ST_INTERLOCK
                        : 0;
        memcpy(r->x, p->x, (size_t)p->n * sizeof(double));
        memcpy(r->f, p->f, (size_t)p->n * sizeof(double));
        hs_shm_write_end(&r->seq);
        p->k->replies++;
        idle_at = now_s() + 1.5 * period;
    }
    hs_shm_unmap(b, s->name, created);
    return rc;
}

/* The socket's error queue: an ICMP "port unreachable" for the peer's address means its socket
 * is closed (the site ended that laboratory). Then the datagram held from the next sender, if it
 * came within a period, is served at once. 0, or an error (< 0). */
static int on_errors(hs_ctx *ctx, plant *p)
{
    int gone = 0;
    for (;;) {
        struct sockaddr_in to;
        uint8_t ctl[512], data[64];
        struct iovec iov = {.iov_base = data, .iov_len = sizeof data};
        struct msghdr m = {.msg_name = &to,
                           .msg_namelen = sizeof to,
                           .msg_iov = &iov,
                           .msg_iovlen = 1,
                           .msg_control = ctl,
                           .msg_controllen = sizeof ctl};
        if (recvmsg(p->fd, &m, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) break;
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
            if (c->cmsg_level != IPPROTO_IP || c->cmsg_type != IP_RECVERR) continue;
            struct sock_extended_err e;
            memcpy(&e, CMSG_DATA(c), sizeof e);
            if (e.ee_origin == SO_EE_ORIGIN_ICMP && e.ee_errno == ECONNREFUSED &&
                m.msg_namelen >= sizeof to && p->have_peer && !p->fixed_peer &&
                same_address(&to, &p->peer))
                gone = 1;
        }
    }
    if (!gone) return 0;
    p->have_peer = 0;
    p->k->peers_ended++;
    if (!p->held_len || now_s() - p->held_at > 1.0 / p->c->lab.rate) return 0;
    const struct sockaddr_in from = p->held_from;
    const size_t len = p->held_len;
    memcpy(p->in, p->held, len);
    p->held_len = 0;
    const int r = on_datagram(ctx, p, &from, len);
    return r < 0 ? r : 0;
}

int hs_plant_run(hs_ctx *ctx, const hs_plant_config *c, volatile sig_atomic_t *stop,
                 void (*ready)(void *user, int port), void *user, hs_plant_counts *counts)
{
    plant p;
    memset(&p, 0, sizeof p);
    memset(counts, 0, sizeof *counts);
    p.c = c;
    p.u = &c->lab.lab.udp;
    p.n = c->lab.has_setup ? c->lab.setup.nact : c->lab.nact; /* a setup: its actuators */
    p.k = counts;
    p.fd = -1;
    int rc = hs_site_rig_create(ctx, &c->lab, c->lab.rate, &p.rig);
    if (!rc) rc = hs_site_rig_lab(ctx, &c->lab, c->lab.rate, &p.rig);
    if (!rc) rc = settle(ctx, &p);
    if (c->shm.name[0]) {
        if (!rc && ready) ready(user, -1);
        if (!rc) rc = run_shm(ctx, &p, stop);
        hs_site_rig_release(&p.rig);
        return rc;
    }
    struct sockaddr_in a;
    if (!rc && hs_udp_address(c->listen, &a))
        rc = hs_fail(ctx, HS_EINPUT, "plant: listen '%s' is not HOST:PORT", c->listen);
    if (!rc) {
        p.fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        socklen_t al = sizeof a;
        const int one = 1; /* ICMP errors for the replies: a peer that has ended (on_errors) */
        if (p.fd < 0 || setsockopt(p.fd, IPPROTO_IP, IP_RECVERR, &one, sizeof one) != 0 ||
            bind(p.fd, (const struct sockaddr *)&a, sizeof a) != 0 ||
            getsockname(p.fd, (struct sockaddr *)&a, &al) != 0)
            rc = hs_fail(ctx, HS_EIO, "plant: cannot bind %s: %s", c->listen, strerror(errno));
    }
    if (!rc && c->peer[0]) {
        if (hs_udp_address(c->peer, &p.peer))
            rc = hs_fail(ctx, HS_EINPUT, "plant: peer '%s' is not HOST:PORT", c->peer);
        p.have_peer = p.fixed_peer = 1;
        counts->peers = 1;
    }
    if (!rc && ready) ready(user, (int)ntohs(a.sin_port));
    const double period = 1.0 / c->lab.rate;
    const struct timespec idle = {
        .tv_sec = (time_t)(1.5 * period),
        .tv_nsec = (long)((1.5 * period - (double)(time_t)(1.5 * period)) * 1e9)};
    while (!rc && !*stop) {
        struct pollfd pf = {.fd = p.fd, .events = POLLIN};
        const int ready_n = ppoll(&pf, 1, &idle, NULL);
        if (ready_n < 0) {
            if (errno == EINTR) continue;
            rc = hs_fail(ctx, HS_EIO, "plant: poll: %s", strerror(errno));
            break;
        }
        if (ready_n > 0 && (pf.revents & POLLERR)) {
            rc = on_errors(ctx, &p);
            if (rc) break;
        }
        if (ready_n == 0) { /* no command: the actuators hold the last one on the real clock */
            if (p.have_peer) {
                rc = model_tick(ctx, &p);
                counts->idle_ticks++;
                if (!rc && p.fixed_peer) send_reply(&p); /* the target's periodic reply */
            }
            continue;
        }
        for (;;) {
            struct sockaddr_in from;
            socklen_t fl = sizeof from;
            const ssize_t got =
                recvfrom(p.fd, p.in, sizeof p.in, MSG_DONTWAIT, (struct sockaddr *)&from, &fl);
            if (got < 0) break;
            const int r = on_datagram(ctx, &p, &from, (size_t)got);
            if (r < 0) {
                rc = r;
                break;
            }
        }
    }
    if (p.fd >= 0) close(p.fd);
    hs_site_rig_release(&p.rig);
    return rc;
}
