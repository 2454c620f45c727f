/* hysim plant's loop (include/hysim/plant.h): the virtual laboratory behind a udp socket. Each
 * command datagram from the site moves the actuators one controller tick and is answered at
 * once with the measurement (the reply echoes the command's counter), so a perfect plant answers
 * exactly what the in-process virtual laboratory would. When no command comes for one and a half
 * periods, the real clock goes on: the actuators tick on the last command, and nothing is sent.
 * The first site that sends a well-formed command is the plant's peer; datagrams from others are
 * counted and ignored. A command with counter 1 (a command packet with a counter) is a site's new
 * laboratory (a new test, from any address): the plant mounts a fresh specimen at rest and takes
 * its sender as the peer. */
#define _GNU_SOURCE
#include "hysim/plant.h"
#include "hysim/shm_lab.h"

#include "lab/site_build.h"

#include <arpa/inet.h>
#include <errno.h>
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
    int fd, n, have_peer;
    struct sockaddr_in peer;
    uint32_t counter, last_cmd;
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

static int remount(hs_ctx *ctx, plant *p)
{
    hs_site_rig_release(&p->rig);
    memset(&p->rig, 0, sizeof p->rig);
    int rc = hs_site_rig_create(ctx, &p->c->lab, p->c->lab.rate, &p->rig);
    if (!rc) rc = hs_site_rig_lab(ctx, &p->c->lab, p->c->lab.rate, &p->rig);
    p->have_peer = 0;
    p->ticks = 0;
    memset(p->cmd, 0, sizeof p->cmd);
    p->k->remounts++;
    return rc;
}

/* One datagram from `from`: answered (1), ignored (0) or an error (< 0). */
static int on_datagram(hs_ctx *ctx, plant *p, const struct sockaddr_in *from, size_t len)
{
    const int counted = hs_udp_layout_has(&p->u->command, HS_UDP_COUNTER);
    hs_udp_values v;
    memset(&v, 0, sizeof v);
    memcpy(v.cmd, p->cmd, sizeof v.cmd);
    const int bad = hs_udp_unpack(&p->u->command, p->in, len, &v) != 0;
    const int other = p->have_peer && (from->sin_addr.s_addr != p->peer.sin_addr.s_addr ||
                                       from->sin_port != p->peer.sin_port);
    if (p->have_peer && !bad && counted && v.counter == 1) {
        /* a site's new laboratory (a new test): a fresh specimen at rest, as a lab mounts one */
        const int rc = remount(ctx, p);
        if (rc) return rc;
    } else if (other) {
        p->k->foreign++;
        return 0;
    }
    if (bad) {
        p->k->malformed++;
        return 0;
    }
    if (counted && p->have_peer) {
        const int32_t d = (int32_t)(v.counter - p->last_cmd);
        if (d <= 0) {
            if (d == 0)
                p->k->duplicated++;
            else
                p->k->out_of_order++;
            return 0;
        }
    }
    if (!p->have_peer) {
        p->peer = *from;
        p->have_peer = 1;
    }
    p->last_cmd = v.counter;
    memcpy(p->cmd, v.cmd, sizeof p->cmd);
    int rc = model_tick(ctx, p);
    if (rc) return rc;
    p->k->commands++;
    hs_udp_values r;
    memset(&r, 0, sizeof r);
    r.counter = ++p->counter;
    r.echo = v.counter;
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
    return 1;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
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
    int rc = hs_shm_map(ctx, s->name, p->n, &b, &created);
    if (rc) return rc;
    hs_shm_command c;
    memset(&c, 0, sizeof c);
    while (!*stop && !hs_shm_read(&b->command.seq, &c, &b->command, sizeof c) &&
           atomic_load(&b->command.seq) != 0) { /* a command being written: read it whole */
    }
    uint64_t session = c.session, last = c.counter; /* what was there before: not ours */
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
            if (p->ticks > 0) rc = remount(ctx, p);
            session = c.session;
            if (rc) break;
        }
        last = c.counter;
        p->have_peer = 1;
        memcpy(p->cmd, c.cmd, (size_t)p->n * sizeof(double));
        rc = model_tick(ctx, p);
        if (rc) break;
        p->k->commands++;
        hs_shm_reply *r = &b->reply;
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
        if (p.fd < 0 || bind(p.fd, (const struct sockaddr *)&a, sizeof a) != 0 ||
            getsockname(p.fd, (struct sockaddr *)&a, &al) != 0)
            rc = hs_fail(ctx, HS_EIO, "plant: cannot bind %s: %s", c->listen, strerror(errno));
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
        if (ready_n == 0) { /* no command: the actuators hold the last one on the real clock */
            if (p.have_peer) {
                rc = model_tick(ctx, &p);
                counts->idle_ticks++;
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
