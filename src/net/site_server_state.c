/* The site's test state file (`site.state`, docs/site_server.md): after each fresh measurement,
 * before it goes to the coordinator, the network thread writes the test record (coordinator,
 * step and time scale, last applied and committed step, last target, the measurement itself) and
 * the laboratory's state at that measurement (the loop's snapshot, site_build.h's walk) to
 * FILE.tmp, fsyncs it, renames it over FILE and fsyncs the folder. A site process that is killed
 * and started again reads it back and holds the same test, at the same step, for
 * `hysim run --resume`: a coordinator never holds a measurement the site could forget. The file
 * is for the same hysim build on the same machine (raw native layout, checked by magic, version,
 * sizes and a checksum). */
#include "site_server_impl.h"

#include "../base/regular_file.h"
#include "hysim/shm_lab.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <sodium.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HS_SRV_STATE_MAGIC   "HSSITE\r\n"
#define HS_SRV_STATE_VERSION 2u

typedef struct hs_srv_state_head {
    char magic[8];
    uint32_t version, nact;
    uint64_t head_bytes, snap_n, checksum; /* checksum: FNV-1a of head (checksum 0) and snap */
    double dt, time_scale;
    char coordinator[HS_WIRE_NAME_MAX];
    int64_t last_step, last_committed;
    double last_x[HS_SITE_MAX_ACT];
    hs_srv_meas meas;
    uint8_t site_hash[32]; /* the site file's (hs_site_server_config.site_hash) */
} hs_srv_state_head;

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * UINT64_C(1099511628211);
    return h;
}

static uint64_t checksum(const hs_srv_state_head *h, const double *snap)
{
    hs_srv_state_head c = *h;
    c.checksum = 0;
    return fnv1a(fnv1a(UINT64_C(14695981039346656037), &c, sizeof c), snap,
                 (size_t)h->snap_n * sizeof(double));
}

static int write_all(int fd, const void *p, size_t n)
{
    const unsigned char *q = p;
    while (n > 0) {
        const ssize_t w = write(fd, q, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        q += w;
        n -= (size_t)w;
    }
    return 0;
}

static int read_all(int fd, void *p, size_t n)
{
    unsigned char *q = p;
    while (n > 0) {
        const ssize_t r = read(fd, q, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        q += r;
        n -= (size_t)r;
    }
    return 0;
}

/* fsync of the file's folder, so that the rename survives a power cut */
static void sync_folder(const char *path)
{
    char copy[sizeof((hs_site_server_config *)0)->state_path];
    snprintf(copy, sizeof copy, "%s", path);
    const int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    fsync(fd);
    close(fd);
}

int hs_srv_state_write(hs_site_server *s)
{
    const hs_srv_test *t = &s->test;
    hs_srv_bench *b = t->bench;
    if (!b || !b->snap) return 0;
    /* the loop may be writing a newer state (a hold after the measurement): a whole copy */
    uint64_t seq = 0;
    for (int i = 0; i < 1000 && !seq; i++)
        seq = hs_shm_read(&b->snap_seq, b->snap_copy, b->snap, b->snap_n * sizeof(double));
    if (!seq)
        return hs_fail(s->ctx, HS_EIO, "%s: the laboratory's state changed during every copy",
                       s->cfg.state_path);
    hs_srv_state_head h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, HS_SRV_STATE_MAGIC, 8);
    h.version = HS_SRV_STATE_VERSION;
    h.nact = (uint32_t)s->nact;
    h.head_bytes = sizeof h;
    h.snap_n = b->snap_n;
    h.dt = t->dt;
    h.time_scale = t->time_scale;
    memcpy(h.coordinator, t->coordinator, sizeof h.coordinator);
    h.last_step = t->last_step;
    h.last_committed = t->last_committed;
    memcpy(h.last_x, t->last_x, sizeof h.last_x);
    h.meas = t->meas;
    memcpy(h.site_hash, s->cfg.site_hash, sizeof h.site_hash);
    h.checksum = checksum(&h, b->snap_copy);
    char tmp[sizeof s->cfg.state_path + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp", s->cfg.state_path);
    /* a link or a FIFO put there is refused, never followed or waited on */
    const int fd =
        open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
    if (fd < 0) return hs_fail(s->ctx, HS_EIO, "%s: cannot create: %s", tmp, strerror(errno));
    int bad = write_all(fd, &h, sizeof h) ||
              write_all(fd, b->snap_copy, (size_t)h.snap_n * sizeof(double)) || fsync(fd) != 0;
    const int e = errno;
    if (close(fd) != 0) bad = 1;
    if (bad || rename(tmp, s->cfg.state_path) != 0) {
        unlink(tmp);
        return hs_fail(s->ctx, HS_EIO, "%s: cannot write the test's state: %s", s->cfg.state_path,
                       strerror(bad ? e : errno));
    }
    sync_folder(s->cfg.state_path);
    return 0;
}

void hs_srv_state_forget(hs_site_server *s)
{
    if (s->cfg.state_path[0] && unlink(s->cfg.state_path) == 0) sync_folder(s->cfg.state_path);
}

/* A bench for the file's test with its laboratory's state loaded; the test record restored. */
static int restore(hs_site_server *s, int fd, const char *path)
{
    hs_srv_state_head h;
    struct stat st;
    if (read_all(fd, &h, sizeof h) || memcmp(h.magic, HS_SRV_STATE_MAGIC, 8) != 0 ||
        h.version != HS_SRV_STATE_VERSION || h.head_bytes != sizeof h)
        return hs_fail(s->ctx, HS_EINPUT,
                       "%s: not a state file of this hysim build; remove it to start the site "
                       "without a test",
                       path);
    if (h.nact != (uint32_t)s->nact || fstat(fd, &st) != 0 ||
        (uint64_t)st.st_size != sizeof h + h.snap_n * sizeof(double) ||
        !(h.dt > 0.0 && h.time_scale > 0.0))
        return hs_fail(s->ctx, HS_EINPUT,
                       "%s: a test of %u actuator(s) or of another size (the site has %d); "
                       "remove it to start the site without a test",
                       path, h.nact, s->nact);
    h.coordinator[sizeof h.coordinator - 1] = '\0';
    if (memcmp(h.site_hash, s->cfg.site_hash, sizeof h.site_hash) != 0) {
        char was[17], now[17];
        sodium_bin2hex(was, sizeof was, h.site_hash, 8);
        sodium_bin2hex(now, sizeof now, s->cfg.site_hash, 8);
        return hs_fail(s->ctx, HS_EINPUT,
                       "%s: the test of %s held here (step %lld applied) was written under "
                       "another site file (BLAKE2b %s..., %s now hashes to %s...): its "
                       "laboratory, limits or specimen may differ. Put the site file back as it "
                       "was to resume the test, or start the site with --release to give the "
                       "test up",
                       path, h.coordinator, (long long)h.last_step, was,
                       s->cfg.site_file[0] ? s->cfg.site_file : "the site file", now);
    }
    hs_srv_bench *b = NULL;
    int rc = hs_srv_bench_create(s, h.dt, h.time_scale, &b);
    if (rc) return rc;
    if (b->snap_n != h.snap_n || read_all(fd, b->snap, b->snap_n * sizeof(double)) ||
        checksum(&h, b->snap) != h.checksum)
        rc = hs_fail(s->ctx, HS_EINPUT,
                     "%s: damaged, or written for another laboratory (%llu doubles of state, "
                     "this site's laboratory has %zu); remove it to start the site without a test",
                     path, (unsigned long long)h.snap_n, b->snap_n);
    if (!rc && hs_site_rig_state_load(&b->rig, b->sc, b->track, s->nact, b->snap))
        rc = hs_fail(s->ctx, HS_EINPUT, "%s: %s", path, hs_ctx_message(b->ctx));
    if (rc) {
        hs_srv_bench_destroy(&b);
        return rc;
    }
    s->bench = b;
    hs_srv_test *t = &s->test;
    memset(t, 0, sizeof *t);
    t->live = 1;
    t->bench = b;
    memcpy(t->coordinator, h.coordinator, sizeof t->coordinator);
    t->coordinator[sizeof t->coordinator - 1] = '\0';
    t->dt = h.dt;
    t->time_scale = h.time_scale;
    t->last_step = h.last_step;
    t->last_committed = h.last_committed;
    memcpy(t->last_x, h.last_x, sizeof t->last_x);
    t->meas = h.meas;
    t->meas.generation = b->generation;
    t->have_meas = 1;
    t->outage_step = -1;
    s->status.last_step = t->last_step;
    s->status.last_committed = t->last_committed;
    hs_log(s->ctx, HS_LOG_INFO,
           "site %s: the test of %s restored from %s: step %lld applied, %lld committed; it is "
           "held for a resume",
           s->cfg.site.name, t->coordinator, path, (long long)t->last_step,
           (long long)t->last_committed);
    return 0;
}

int hs_srv_state_restore(hs_site_server *s)
{
    const char *path = s->cfg.state_path;
    /* O_NONBLOCK: a FIFO opens at once (and is refused below) instead of waiting for a writer */
    const int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0 && errno == ENOENT) { /* no test held: probe that the file can be written */
        char tmp[sizeof s->cfg.state_path + 8];
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        const int probe = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0600);
        if (probe < 0)
            return hs_fail(s->ctx, HS_EINPUT, "site.state: cannot write '%s': %s", tmp,
                           strerror(errno));
        close(probe);
        unlink(tmp);
        return 0;
    }
    if (fd < 0) return hs_fail(s->ctx, HS_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    if (s->cfg.release) { /* the operator's decision at the site: the held test is given up */
        close(fd);
        if (unlink(path) != 0)
            return hs_fail(s->ctx, HS_EINPUT, "%s: cannot remove it to release its test: %s", path,
                           strerror(errno));
        sync_folder(path);
        hs_log(s->ctx, HS_LOG_WARN,
               "site %s: the test held in %s is released by the operator (--release): the file "
               "is removed and the site starts without a test; the specimen stays where it is "
               "until a new test moves it",
               s->cfg.site.name, path);
        return 0;
    }
    struct stat st;
    memset(&st, 0, sizeof st);
    int rc;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        rc = hs_fail(s->ctx, HS_EINPUT,
                     "%s: is %s, not a regular file: site.state names the file the site writes "
                     "its test to; remove it or give another path",
                     path, hs_file_kind((unsigned)st.st_mode));
    } else {
        (void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        rc = restore(s, fd, path);
    }
    close(fd);
    return rc;
}
