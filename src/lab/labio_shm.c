/* The shm laboratory back end (docs/lab_backends.md, include/hysim/shm_lab.h): the site writes its
 * command into a POSIX shared-memory block under a sequence lock, then waits at most reply_timeout
 * within the tick for a reply that echoes that command's counter. A torn read is never used (it is
 * retried, then skipped); a tick without a fresh reply keeps the last measurement, and max_missing
 * of them in a row raise HS_LAB_ST_WATCHDOG (the site holds), as in the udp back end. */
#define _GNU_SOURCE
#include "hysim/shm_lab.h"

#include "lab_watchdog.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct shm_lab {
    hs_ctx *ctx;
    hs_lab_shm_config cfg;
    hs_shm_block *b;
    int n, created, max_missing;
    double reply_timeout;
    uint64_t counter;
    uint64_t reply_counter; /* of the last reply taken (0: none yet) */
    int restarted;          /* the reply counter went back: the laboratory's process restarted */
    int64_t ticks, ctrl_tick;
    uint32_t status;
    double x[HS_LAB_MAX_ACT], f[HS_LAB_MAX_ACT];
    hs_lab_shm_counts counts;
    hs_lab_watch watch;
    char alarm[320];
} shm_lab;

static int valid_name(const char *name)
{
    const size_t len = strlen(name);
    return len >= 2 && len < 64 && name[0] == '/' && !strchr(name + 1, '/');
}

/* The uid of `owner` (a user name or a number); -1 when there is none. */
static long owner_uid(const char *owner)
{
    if (!owner || !owner[0]) return -1;
    char *end = NULL;
    const long n = strtol(owner, &end, 10);
    if (end != owner && *end == '\0' && n >= 0) return n;
    const struct passwd *pw = getpwnam(owner);
    return pw ? (long)pw->pw_uid : -2;
}

static const char *user_name(uid_t uid)
{
    const struct passwd *pw = getpwuid(uid);
    return pw ? pw->pw_name : "?";
}

/* An existing block: 0 when its owner and mode are safe to map, else the refusal. */
static int check_owner(hs_ctx *ctx, const char *name, const struct stat *st, const char *owner)
{
    const long want = owner_uid(owner);
    if (want == -2)
        return hs_fail(ctx, HS_EINPUT, "lab shm %s: owner '%s' is no user of this computer", name,
                       owner);
    const uid_t me = geteuid();
    if (st->st_uid != me && (want < 0 || (long)st->st_uid != want)) {
        char also[64] = "";
        if (want >= 0) snprintf(also, sizeof also, " or the configured owner %s", owner);
        const char *who = user_name(st->st_uid);
        return hs_fail(ctx, HS_EAUTH,
                       "lab shm %s: the block belongs to uid %u (%s), not to this user (uid %u%s): "
                       "another user may have planted it to move the specimen or forge replies; "
                       "remove it (rm /dev/shm%s) once no process of yours uses it, or name the "
                       "laboratory process's user in lab.owner",
                       name, (unsigned)st->st_uid, who, (unsigned)me, also, name);
    }
    const mode_t open_to = want >= 0 ? S_IWOTH : (S_IWGRP | S_IWOTH);
    if (st->st_mode & open_to)
        return hs_fail(ctx, HS_EAUTH,
                       "lab shm %s: the block's mode %04o lets %s write it (a command or a reply "
                       "could be forged): remove it (rm /dev/shm%s) once no process uses it; "
                       "hysim creates it at mode 0600",
                       name, (unsigned)(st->st_mode & 07777),
                       st->st_mode & S_IWOTH ? "every user" : "its group", name);
    return 0;
}

int hs_shm_map(hs_ctx *ctx, const char *name, int nact, hs_shm_block **out, int *created)
{
    return hs_shm_map_as(ctx, name, nact, NULL, out, created);
}

int hs_shm_map_as(hs_ctx *ctx, const char *name, int nact, const char *owner, hs_shm_block **out,
                  int *created)
{
    *out = NULL;
    *created = 0;
    if (!name || !valid_name(name))
        return hs_fail(ctx, HS_EINPUT,
                       "lab shm: name '%s' must be '/' and 1..62 more characters without '/'",
                       name ? name : "");
    if (nact < 1 || nact > HS_SHM_MAX_ACT)
        return hs_fail(ctx, HS_EINVAL, "lab shm: %d actuators (1..%d)", nact, HS_SHM_MAX_ACT);
    int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
        *created = 1;
        if (ftruncate(fd, (off_t)sizeof(hs_shm_block)) != 0) {
            const int e = errno;
            close(fd);
            shm_unlink(name);
            *created = 0;
            return hs_fail(ctx, HS_EIO, "lab shm %s: cannot size it: %s", name, strerror(e));
        }
    } else if (errno == EEXIST) {
        fd = shm_open(name, O_RDWR | O_CLOEXEC, 0);
    }
    if (fd < 0)
        return hs_fail(ctx, HS_EIO, "lab shm %s: cannot open it: %s", name, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        const int e = errno;
        close(fd);
        if (*created) shm_unlink(name);
        *created = 0;
        return hs_fail(ctx, HS_EIO, "lab shm %s: cannot stat it: %s", name, strerror(e));
    }
    if (!*created) {
        const int refused = check_owner(ctx, name, &st, owner);
        if (refused) {
            close(fd);
            return refused;
        }
    }
    if (st.st_size != (off_t)sizeof(hs_shm_block)) {
        close(fd);
        if (*created) shm_unlink(name);
        *created = 0;
        return hs_fail(ctx, HS_EPROTO,
                       "lab shm %s: %lld bytes, expected %zu (a block of another layout version: "
                       "remove it with `rm /dev/shm%s` once no process uses it)",
                       name, (long long)st.st_size, sizeof(hs_shm_block), name);
    }
    void *m = mmap(NULL, sizeof(hs_shm_block), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) {
        if (*created) shm_unlink(name);
        *created = 0;
        return hs_fail(ctx, HS_EIO, "lab shm %s: cannot map it: %s", name, strerror(errno));
    }
    hs_shm_block *b = m;
    if (*created) {
        b->version = HS_SHM_VERSION;
        b->nact = (uint32_t)nact;
        b->size = (uint32_t)sizeof(hs_shm_block);
        atomic_thread_fence(memory_order_release);
        b->magic = HS_SHM_MAGIC;
    } else if (b->magic != HS_SHM_MAGIC || b->version != HS_SHM_VERSION ||
               b->size != sizeof(hs_shm_block) || b->nact != (uint32_t)nact) {
        const unsigned magic = b->magic, version = b->version, n = b->nact;
        munmap(m, sizeof(hs_shm_block));
        return hs_fail(ctx, HS_EPROTO,
                       "lab shm %s: magic 0x%x version %u nact %u, expected 0x%x version %u nact "
                       "%d (another program's block or another site file's actuators)",
                       name, magic, version, n, HS_SHM_MAGIC, HS_SHM_VERSION, nact);
    }
    *out = b;
    return 0;
}

void hs_shm_unmap(hs_shm_block *b, const char *name, int unlink_it)
{
    if (b) munmap(b, sizeof *b);
    if (unlink_it && name) shm_unlink(name);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* 1 when a fresh reply to the current command was taken into s. */
static int take_reply(shm_lab *s)
{
    hs_shm_reply r;
    if (!hs_shm_read(&s->b->reply.seq, &r, &s->b->reply, sizeof r)) {
        if (atomic_load_explicit(&s->b->reply.seq, memory_order_relaxed) != 0) s->counts.torn++;
        return 0;
    }
    if (r.echo != s->counter) return 0;
    if (s->reply_counter && r.counter <= s->reply_counter) {
        /* a fresh reply counter: the process behind the block restarted with a new specimen
         * state, which is not where this test left the specimen (issue 17): hold, never take it */
        if (!s->restarted)
            snprintf(s->alarm, sizeof s->alarm,
                     "lab shm %s: the laboratory's reply counter went back from %llu to %llu: "
                     "its process restarted; the site holds (check the rig, then a new test)",
                     s->cfg.name, (unsigned long long)s->reply_counter,
                     (unsigned long long)r.counter);
        s->restarted = 1;
        return 0;
    }
    /* a measured value that is not a number goes through to the site controller, which names it
     * (laboratory data) instead of a discard that ends as a watchdog */
    memcpy(s->x, r.x, (size_t)s->n * sizeof(double));
    memcpy(s->f, r.f, (size_t)s->n * sizeof(double));
    s->status = r.status & (HS_LAB_ST_INTERLOCK | HS_LAB_ST_FAULT);
    s->ctrl_tick = r.tick;
    s->reply_counter = r.counter;
    return 1;
}

static int s_exchange(void *self, const double *cmd, hs_lab_input *in)
{
    shm_lab *s = self;
    hs_shm_command *c = &s->b->command;
    s->counter++;
    s->ticks++;
    hs_shm_write_begin(&c->seq);
    c->counter = s->counter;
    memcpy(c->cmd, cmd, (size_t)s->n * sizeof(double));
    hs_shm_write_end(&c->seq);
    s->counts.sent++;
    /* once the watchdog has fired, the laboratory is gone: look without waiting (as udp) */
    const double deadline = now_s() + (hs_lab_watch_gone(&s->watch) ? 0.0 : s->reply_timeout);
    int fresh = take_reply(s);
    while (!fresh && now_s() < deadline) {
        const struct timespec nap = {0, 10000}; /* 10 us */
        nanosleep(&nap, NULL);
        fresh = take_reply(s);
    }
    if (fresh) s->counts.received++;
    const uint32_t st = hs_lab_watch_tick(
        &s->watch, fresh, s->status | (s->restarted ? HS_LAB_ST_FAULT : 0u), s->ticks);
    memcpy(in->x, s->x, (size_t)s->n * sizeof(double));
    memcpy(in->f, s->f, (size_t)s->n * sizeof(double));
    in->status = st;
    in->ctrl_tick = s->ctrl_tick;
    in->missing = s->counts.missing_run;
    in->missing_max = s->max_missing;
    return 0;
}

/* The rig's position before any command: the reply the laboratory's process writes when it maps
 * the block (and at every tick after), waited for at most HS_LAB_POSITION_WAIT. Taken as a
 * measurement (x, f), not as the answer to a command: the first exchange still waits for its own
 * echoed reply. */
static int s_position(void *self, hs_ctx *ctx, double *x)
{
    shm_lab *s = self;
    const double deadline = now_s() + HS_LAB_POSITION_WAIT;
    hs_shm_reply r;
    for (;;) {
        if (hs_shm_read(&s->b->reply.seq, &r, &s->b->reply, sizeof r)) break;
        if (now_s() >= deadline)
            return hs_fail(ctx, HS_ETIMEOUT,
                           "lab shm %s: the laboratory's process wrote no reply within %g s: the "
                           "site needs the rig's position before its first command; start the "
                           "laboratory's process first (it writes its position into the block "
                           "when it maps it), then the site",
                           s->cfg.name, HS_LAB_POSITION_WAIT);
        const struct timespec nap = {0, 200000}; /* 0.2 ms */
        nanosleep(&nap, NULL);
    }
    memcpy(s->x, r.x, (size_t)s->n * sizeof(double));
    memcpy(s->f, r.f, (size_t)s->n * sizeof(double));
    s->ctrl_tick = r.tick;
    memcpy(x, s->x, (size_t)s->n * sizeof(double));
    return 0;
}

static const double *s_x(void *self)
{
    return ((shm_lab *)self)->x;
}
static const double *s_f(void *self)
{
    return ((shm_lab *)self)->f;
}
static const char *s_alarm(void *self)
{
    return ((shm_lab *)self)->alarm;
}
static void s_destroy(void *self)
{
    shm_lab *s = self;
    hs_shm_unmap(s->b, s->cfg.name, s->created);
    hs_free(s);
}

static const hs_lab_ops shm_ops = {.kind = "shm",
                                   .exchange = s_exchange,
                                   .true_displacement = s_x,
                                   .true_force = s_f,
                                   .alarm = s_alarm,
                                   .position = s_position,
                                   .destroy = s_destroy};

int hs_lab_shm_create(hs_ctx *ctx, const hs_lab_shm_config *c, int nact, double rate, hs_lab **out)
{
    if (!c || !out || nact < 1 || nact > HS_LAB_MAX_ACT || !(rate > 0.0))
        return hs_fail(ctx, HS_EINVAL, "lab shm: missing configuration");
    shm_lab *s = hs_calloc(1, sizeof *s);
    if (!s) return hs_fail(ctx, HS_ENOMEM, "lab shm: out of memory");
    s->ctx = ctx;
    s->cfg = *c;
    s->n = nact;
    s->max_missing = c->max_missing;
    s->reply_timeout = c->reply_timeout > 0.0 ? c->reply_timeout : 0.5 / rate;
    s->watch = (hs_lab_watch){.max_missing = c->max_missing,
                              .missing = &s->counts.missing,
                              .run = &s->counts.missing_run,
                              .run_max = &s->counts.missing_run_max,
                              .alarm = s->alarm,
                              .alarm_cap = sizeof s->alarm};
    snprintf(s->watch.who, sizeof s->watch.who, "lab shm %s", s->cfg.name);
    int rc = hs_shm_map_as(ctx, c->name, nact, c->owner, &s->b, &s->created);
    if (rc) {
        hs_free(s);
        return rc;
    }
    /* continue the block's command counter, so that a reply left from an earlier run is never
     * taken for an answer to this one */
    s->counter = s->b->command.counter;
    hs_shm_command *cmd = &s->b->command;
    hs_shm_write_begin(&cmd->seq);
    cmd->session++;
    hs_shm_write_end(&cmd->seq);
    rc = hs_lab_create(ctx, &shm_ops, s, nact, rate, out);
    if (rc) s_destroy(s);
    return rc;
}

hs_lab_shm_counts hs_lab_shm_counts_get(hs_lab *lab)
{
    hs_lab_shm_counts z;
    memset(&z, 0, sizeof z);
    if (!lab || strcmp(hs_lab_kind(lab), "shm") != 0) return z;
    return ((shm_lab *)hs_lab_self(lab))->counts;
}
