/* Checkpoint files (docs/checkpoints.md). DIR/checkpoint.bin: a fixed header (magic, version, byte
 * order, the test file's hash, step, counts, the payload's FNV-1a checksum, the test file's path)
 * and the coordinator's state as doubles; written to DIR/checkpoint.bin.tmp, fsync'd, renamed over
 * the old one, and the folder fsync'd, so a kill at any instant leaves either the old or the new
 * checkpoint whole. DIR/records.bin: the recorded results, one row of doubles per record, appended
 * (pwrite at the row's offset) at each checkpoint with the records since the previous one and
 * fsync'd before the checkpoint that counts them. Everything is allocated and opened at setup:
 * writing a checkpoint is file I/O between steps and allocates nothing. */
#include "coordinator_impl.h"

#include "hysim/checkpoint.h"
#include "hysim/results.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define HS_CK_MAGIC        "HSCKPT\r\n"
#define HS_CK_BOM          0x01020304u
#define HS_CK_HEADER_BYTES 1152u /* multiple of 8: the state that follows stays aligned */
#define HS_CK_PATH         4200

/* header offsets */
enum {
    OFF_MAGIC = 0,
    OFF_VERSION = 8,
    OFF_HEADER_BYTES = 12,
    OFF_BOM = 16,
    OFF_ONE = 24, /* the double 1.0: same floating-point format */
    OFF_HASH = 32,
    OFF_STEP = 64,
    OFF_STEPS = 72,
    OFF_RECORDS = 80,
    OFF_WIDTH = 88,
    OFF_STATE = 96,
    OFF_CHECKSUM = 104,
    OFF_PATH = 112 /* 1024 bytes, NUL-terminated */
};

struct hs_coord_ckpt {
    int64_t every;
    char path[HS_CK_PATH], tmp[HS_CK_PATH], records[HS_CK_PATH];
    int dir_fd, rec_fd;
    int64_t rec_written; /* rows already in records.bin */
    double spacing_s;    /* wall seconds at least between two due checkpoints (0: none) */
    double last_s;       /* CLOCK_MONOTONIC of the last checkpoint (or of the setup) */
    size_t state_size, width;
    unsigned char *buf; /* header + state */
    double *row;        /* one record */
    uint8_t hash[HS_CHECKPOINT_HASH_BYTES];
    char test_path[1024];
};

void hs_checkpoint_hash_bytes(const void *bytes, size_t len, uint8_t hash[HS_CHECKPOINT_HASH_BYTES])
{
    crypto_generichash(hash, HS_CHECKPOINT_HASH_BYTES, bytes, len, NULL, 0);
}

int hs_checkpoint_hash_file(hs_ctx *ctx, const char *path, uint8_t hash[HS_CHECKPOINT_HASH_BYTES])
{
    FILE *f = fopen(path, "rb");
    if (!f) return hs_fail(ctx, HS_EIO, "%s: cannot open: %s", path, strerror(errno));
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, HS_CHECKPOINT_HASH_BYTES);
    unsigned char chunk[8192];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) crypto_generichash_update(&st, chunk, got);
    const int err = ferror(f);
    fclose(f);
    if (err) return hs_fail(ctx, HS_EIO, "%s: read error", path);
    crypto_generichash_final(&st, hash, HS_CHECKPOINT_HASH_BYTES);
    return 0;
}

static uint64_t hs_fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * UINT64_C(1099511628211);
    return h;
}

static void put_u32(unsigned char *b, size_t off, uint32_t v)
{
    memcpy(b + off, &v, sizeof v);
}
static void put_u64(unsigned char *b, size_t off, uint64_t v)
{
    memcpy(b + off, &v, sizeof v);
}
static uint32_t get_u32(const unsigned char *b, size_t off)
{
    uint32_t v;
    memcpy(&v, b + off, sizeof v);
    return v;
}
static uint64_t get_u64(const unsigned char *b, size_t off)
{
    uint64_t v;
    memcpy(&v, b + off, sizeof v);
    return v;
}

/* write(2) until done */
static int write_all(int fd, const void *p, size_t n, off_t off)
{
    const unsigned char *q = p;
    while (n > 0) {
        const ssize_t w = pwrite(fd, q, n, off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        q += w;
        n -= (size_t)w;
        off += w;
    }
    return 0;
}

static int read_all(int fd, void *p, size_t n, off_t off)
{
    unsigned char *q = p;
    while (n > 0) {
        const ssize_t r = pread(fd, q, n, off);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        q += r;
        n -= (size_t)r;
        off += r;
    }
    return 0;
}

static int hs_ck_header_check(hs_ctx *ctx, const char *path, const unsigned char *h,
                              hs_checkpoint_info *out)
{
    double one;
    memcpy(&one, h + OFF_ONE, sizeof one);
    if (memcmp(h + OFF_MAGIC, HS_CK_MAGIC, 8) != 0)
        return hs_fail(ctx, HS_EINPUT, "%s: not a hysim checkpoint", path);
    if (get_u32(h, OFF_BOM) != HS_CK_BOM || one != 1.0)
        return hs_fail(ctx, HS_EINPUT,
                       "%s: written on a machine with another byte order or number format", path);
    if (get_u32(h, OFF_VERSION) != HS_CHECKPOINT_VERSION ||
        get_u32(h, OFF_HEADER_BYTES) != HS_CK_HEADER_BYTES)
        return hs_fail(ctx, HS_EINPUT, "%s: checkpoint version %u (this hysim reads version %d)",
                       path, get_u32(h, OFF_VERSION), HS_CHECKPOINT_VERSION);
    memset(out, 0, sizeof *out);
    out->version = get_u32(h, OFF_VERSION);
    memcpy(out->hash, h + OFF_HASH, HS_CHECKPOINT_HASH_BYTES);
    out->step = (int64_t)get_u64(h, OFF_STEP);
    out->steps = (int64_t)get_u64(h, OFF_STEPS);
    out->records = (int64_t)get_u64(h, OFF_RECORDS);
    out->record_width = get_u64(h, OFF_WIDTH);
    out->state_size = get_u64(h, OFF_STATE);
    memcpy(out->test_path, h + OFF_PATH, sizeof out->test_path);
    out->test_path[sizeof out->test_path - 1] = '\0';
    if (out->step < 0 || out->step > out->steps || out->records < 0 ||
        out->state_size > (uint64_t)1 << 40 || out->record_width > (uint64_t)1 << 30)
        return hs_fail(ctx, HS_EINPUT, "%s: the header holds impossible counts", path);
    return 0;
}

/* Reads the header and, when state != NULL (state_size doubles), the payload. */
static int hs_ck_read(hs_ctx *ctx, const char *dir, hs_checkpoint_info *info, double *state,
                      size_t state_size)
{
    char path[HS_CK_PATH];
    if (snprintf(path, sizeof path, "%s/%s", dir, HS_CHECKPOINT_FILE) >= (int)sizeof path)
        return hs_fail(ctx, HS_EINVAL, "checkpoint: folder name too long");
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return hs_fail(ctx, errno == ENOENT ? HS_ENOTFOUND : HS_EIO, "%s: cannot open: %s", path,
                       strerror(errno));
    unsigned char h[HS_CK_HEADER_BYTES];
    int rc = read_all(fd, h, sizeof h, 0) ? hs_fail(ctx, HS_EINPUT, "%s: truncated header", path)
                                          : hs_ck_header_check(ctx, path, h, info);
    struct stat st;
    if (!rc && (fstat(fd, &st) != 0 ||
                (uint64_t)st.st_size != HS_CK_HEADER_BYTES + info->state_size * sizeof(double)))
        rc = hs_fail(ctx, HS_EINPUT, "%s: %lld bytes, the header announces %llu", path,
                     (long long)st.st_size,
                     (unsigned long long)(HS_CK_HEADER_BYTES + info->state_size * sizeof(double)));
    double *payload = state;
    const size_t n = (size_t)info->state_size;
    if (!rc && !state) payload = hs_dvec(n ? n : 1); /* checking the checksum only */
    if (!rc && !payload) rc = HS_ENOMEM;
    if (!rc && state && state_size != n)
        rc = hs_fail(ctx, HS_EINPUT,
                     "%s: %zu doubles of state, this test's coordinator has %zu (another "
                     "definition or hysim version)",
                     path, n, state_size);
    if (!rc && read_all(fd, payload, n * sizeof(double), HS_CK_HEADER_BYTES))
        rc = hs_fail(ctx, HS_EINPUT, "%s: truncated state", path);
    if (!rc &&
        hs_fnv1a((const unsigned char *)payload, n * sizeof(double)) != get_u64(h, OFF_CHECKSUM))
        rc = hs_fail(ctx, HS_EINPUT, "%s: the state does not match its checksum (damaged file)",
                     path);
    if (!state) hs_free(payload);
    close(fd);
    return rc;
}

int hs_checkpoint_read_info(hs_ctx *ctx, const char *dir, hs_checkpoint_info *out)
{
    return hs_ck_read(ctx, dir, out, NULL, 0);
}

void hs_coord_ckpt_free(hs_coordinator *c)
{
    struct hs_coord_ckpt *k = c->ck;
    if (!k) return;
    if (k->dir_fd >= 0) close(k->dir_fd);
    if (k->rec_fd >= 0) close(k->rec_fd);
    hs_free(k->buf);
    hs_free(k->row);
    hs_free(k);
    c->ck = NULL;
}

/* The records since the last checkpoint, then fdatasync: they exist before a checkpoint counts
 * them. */
static int hs_ck_append_records(hs_coordinator *c, struct hs_coord_ckpt *k, int64_t *count)
{
    *count = c->results ? hs_results_count(c->results) : 0;
    if (!c->results || !k->width) return 0;
    const size_t row_bytes = k->width * sizeof(double);
    for (int64_t r = k->rec_written; r < *count; r++) {
        hs_results_record_pack(c->results, r, k->row);
        if (write_all(k->rec_fd, k->row, row_bytes, (off_t)r * (off_t)row_bytes))
            return hs_fail(c->ctx, HS_EIO, "%s: cannot write record %lld: %s", k->records,
                           (long long)r, strerror(errno));
    }
    if (*count > k->rec_written && fdatasync(k->rec_fd) != 0)
        return hs_fail(c->ctx, HS_EIO, "%s: cannot sync: %s", k->records, strerror(errno));
    k->rec_written = *count;
    return 0;
}

static double hs_ck_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int hs_coordinator_checkpoint(hs_coordinator *c)
{
    struct hs_coord_ckpt *k = c->ck;
    if (!k) return hs_fail(c->ctx, HS_EINVAL, "checkpoint: no checkpoint folder set");
    if (hs_coord_state_size(c) != k->state_size)
        return hs_fail(c->ctx, HS_EINVAL,
                       "checkpoint: the state grew after setup (%zu doubles, %zu prepared)",
                       hs_coord_state_size(c), k->state_size);
    int64_t records = 0;
    int rc = hs_ck_append_records(c, k, &records);
    if (rc) return rc;
    unsigned char *h = k->buf;
    double *state = (double *)(void *)(k->buf + HS_CK_HEADER_BYTES);
    rc = hs_coord_state_save(c, state);
    if (rc) return rc;
    const size_t state_bytes = k->state_size * sizeof(double);
    memset(h, 0, HS_CK_HEADER_BYTES);
    memcpy(h + OFF_MAGIC, HS_CK_MAGIC, 8);
    put_u32(h, OFF_VERSION, HS_CHECKPOINT_VERSION);
    put_u32(h, OFF_HEADER_BYTES, HS_CK_HEADER_BYTES);
    put_u32(h, OFF_BOM, HS_CK_BOM);
    const double one = 1.0;
    memcpy(h + OFF_ONE, &one, sizeof one);
    memcpy(h + OFF_HASH, k->hash, HS_CHECKPOINT_HASH_BYTES);
    put_u64(h, OFF_STEP, (uint64_t)c->steps_done);
    put_u64(h, OFF_STEPS, (uint64_t)c->def->steps);
    put_u64(h, OFF_RECORDS, (uint64_t)records);
    put_u64(h, OFF_WIDTH, (uint64_t)k->width);
    put_u64(h, OFF_STATE, (uint64_t)k->state_size);
    put_u64(h, OFF_CHECKSUM, hs_fnv1a((const unsigned char *)state, state_bytes));
    memcpy(h + OFF_PATH, k->test_path, sizeof k->test_path);
    const int fd = open(k->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return hs_fail(c->ctx, HS_EIO, "%s: cannot create: %s", k->tmp, strerror(errno));
    int bad = write_all(fd, k->buf, HS_CK_HEADER_BYTES + state_bytes, 0) || fsync(fd) != 0;
    const int e = errno;
    if (close(fd) != 0) bad = 1;
    if (bad) {
        unlink(k->tmp);
        return hs_fail(c->ctx, HS_EIO, "%s: cannot write: %s", k->tmp, strerror(e));
    }
    if (rename(k->tmp, k->path) != 0)
        return hs_fail(c->ctx, HS_EIO, "%s: cannot rename into place: %s", k->path,
                       strerror(errno));
    if (fsync(k->dir_fd) != 0 && errno != EINVAL)
        return hs_fail(c->ctx, HS_EIO, "checkpoint: cannot sync its folder: %s", strerror(errno));
    k->last_s = hs_ck_now();
    return 0;
}

int hs_coord_ckpt_after_step(hs_coordinator *c)
{
    struct hs_coord_ckpt *k = c->ck;
    if (!k || k->every <= 0 || c->steps_done % k->every != 0) return 0;
    if (k->spacing_s > 0.0 && hs_ck_now() - k->last_s < k->spacing_s) return 0;
    return hs_coordinator_checkpoint(c);
}

int hs_coordinator_set_checkpoints(hs_coordinator *c, const char *dir, int64_t every,
                                   const uint8_t hash[HS_CHECKPOINT_HASH_BYTES],
                                   const char *test_path)
{
    hs_coord_ckpt_free(c);
    if (every <= 0) return 0;
    if (!dir || !dir[0]) return hs_fail(c->ctx, HS_EINVAL, "checkpoint: no folder given");
    int rc = hs_coord_mkdirs(c->ctx, dir, "checkpoint: folder name too long");
    if (rc) return rc;
    struct hs_coord_ckpt *k = hs_calloc(1, sizeof *k);
    if (!k) return HS_ENOMEM;
    k->dir_fd = k->rec_fd = -1;
    c->ck = k;
    k->every = every;
    k->spacing_s = c->def->checkpoint_spacing_s;
    k->last_s = hs_ck_now();
    if (hash) memcpy(k->hash, hash, HS_CHECKPOINT_HASH_BYTES);
    snprintf(k->test_path, sizeof k->test_path, "%s", test_path ? test_path : "");
    if (snprintf(k->path, sizeof k->path, "%s/%s", dir, HS_CHECKPOINT_FILE) >= HS_CK_PATH - 8)
        rc = hs_fail(c->ctx, HS_EINVAL, "checkpoint: folder name too long");
    /* the temporary name: the path (checked above to leave room) and ".tmp" */
    const size_t plen = strlen(k->path);
    if (!rc && plen + 5 <= sizeof k->tmp) {
        memcpy(k->tmp, k->path, plen);
        memcpy(k->tmp + plen, ".tmp", 5);
    }
    snprintf(k->records, sizeof k->records, "%s/%s", dir, HS_CHECKPOINT_RECORDS);
    k->state_size = hs_coord_state_size(c);
    k->width = c->results ? hs_results_record_width(c->results) : 0;
    if (!rc && (!(k->buf = hs_malloc(HS_CK_HEADER_BYTES + k->state_size * sizeof(double))) ||
                !(k->row = hs_dvec(k->width ? k->width : 1))))
        rc = HS_ENOMEM;
    if (!rc && (k->dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
        rc = hs_fail(c->ctx, HS_EIO, "%s: cannot open the folder: %s", dir, strerror(errno));
    if (!rc && (k->rec_fd = open(k->records, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0)
        rc = hs_fail(c->ctx, HS_EIO, "%s: cannot open: %s", k->records, strerror(errno));
    /* a fresh run starts both files anew; a resumed one keeps the rows it reloaded */
    k->rec_written = c->resumed && c->results ? hs_results_count(c->results) : 0;
    if (!rc && ftruncate(k->rec_fd, (off_t)k->rec_written * (off_t)(k->width * sizeof(double))))
        rc = hs_fail(c->ctx, HS_EIO, "%s: cannot truncate: %s", k->records, strerror(errno));
    if (!rc && !c->resumed && unlink(k->path) != 0 && errno != ENOENT)
        rc = hs_fail(c->ctx, HS_EIO, "%s: cannot remove the old checkpoint: %s", k->path,
                     strerror(errno));
    if (rc) hs_coord_ckpt_free(c);
    return rc;
}

/* Reads `count` rows of records.bin into the (emptied) results store. */
static int hs_ck_load_records(hs_coordinator *c, const char *dir, const hs_checkpoint_info *info)
{
    if (!c->results) return 0;
    const size_t width = hs_results_record_width(c->results);
    if (info->record_width != width)
        return hs_fail(c->ctx, HS_EINPUT,
                       "checkpoint: records of %llu doubles, this test records %zu",
                       (unsigned long long)info->record_width, width);
    char path[HS_CK_PATH];
    snprintf(path, sizeof path, "%s/%s", dir, HS_CHECKPOINT_RECORDS);
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return hs_fail(c->ctx, HS_EIO, "%s: cannot open: %s", path, strerror(errno));
    double *row = hs_dvec(width ? width : 1);
    int rc = row ? hs_results_truncate(c->results, 0) : HS_ENOMEM;
    for (int64_t r = 0; !rc && r < info->records; r++) {
        if (read_all(fd, row, width * sizeof(double), (off_t)r * (off_t)(width * sizeof(double))))
            rc = hs_fail(c->ctx, HS_EINPUT,
                         "%s: holds fewer than the %lld records the checkpoint "
                         "counts",
                         path, (long long)info->records);
        else
            rc = hs_results_record_append(c->results, row);
    }
    hs_free(row);
    close(fd);
    return rc;
}

int hs_coordinator_resume(hs_coordinator *c, const char *dir,
                          const uint8_t hash[HS_CHECKPOINT_HASH_BYTES])
{
    if (c->steps_done != 0 || c->resumed)
        return hs_fail(c->ctx, HS_EINVAL, "checkpoint: resume only a coordinator just created");
    const size_t n = hs_coord_state_size(c);
    double *state = hs_dvec(n ? n : 1);
    if (!state) return HS_ENOMEM;
    hs_checkpoint_info info;
    int rc = hs_ck_read(c->ctx, dir, &info, state, n);
    if (!rc && hash && memcmp(hash, info.hash, HS_CHECKPOINT_HASH_BYTES) != 0)
        rc = hs_fail(c->ctx, HS_EINPUT,
                     "%s/%s: belongs to another version of the test file (its content hash "
                     "differs): the definition changed since the checkpoint",
                     dir, HS_CHECKPOINT_FILE);
    if (!rc && info.steps != c->def->steps)
        rc = hs_fail(c->ctx, HS_EINPUT, "%s/%s: a test of %lld steps, this one has %lld", dir,
                     HS_CHECKPOINT_FILE, (long long)info.steps, (long long)c->def->steps);
    if (!rc) rc = hs_coord_state_load(c, state);
    hs_free(state);
    if (!rc && c->steps_done != info.step)
        rc = hs_fail(c->ctx, HS_EINPUT, "%s/%s: header step %lld, state step %lld", dir,
                     HS_CHECKPOINT_FILE, (long long)info.step, (long long)c->steps_done);
    if (!rc && c->results && info.records != (c->recording ? info.step + 1 : info.records))
        rc = hs_fail(c->ctx, HS_EINPUT, "%s/%s: %lld records for %lld steps", dir,
                     HS_CHECKPOINT_FILE, (long long)info.records, (long long)info.step);
    if (!rc) rc = hs_ck_load_records(c, dir, &info);
    /* every site must stand where the coordinator left it (remote sites: reconnect, RESUME) */
    for (int s = 0; !rc && c->has_exp && s < c->exp.nsites; s++) {
        double x[HS_SITE_MAX_ACT] = {0};
        for (int i = 0; i < c->exp.nact; i++)
            if (c->exp.act_site[i] == s) x[c->exp.act_channel[i]] = c->exp.x_cmd[i];
        rc = hs_site_resume(c->exp.sites[s], c->steps_done, x);
    }
    if (rc) {
        c->stopped = 1; /* half-restored: not runnable */
        return rc;
    }
    c->resumed = 1;
    return 0;
}
