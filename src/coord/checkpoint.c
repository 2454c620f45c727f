/* Checkpoint files (docs/checkpoints.md). DIR/checkpoint.bin: a fixed header (magic, version, byte
 * order, the hash of the test file and its inputs, step, counts, the payload's FNV-1a checksum,
 * the test file's path)
 * and the coordinator's state as doubles; written to DIR/checkpoint.bin.tmp, fsync'd, renamed over
 * the old one, and the folder fsync'd, so a kill at any instant leaves either the old or the new
 * checkpoint whole. DIR/records.bin: the recorded results, one row per record (its doubles and a
 * checksum of the row and its index), appended
 * (pwrite at the row's offset) at each checkpoint with the records since the previous one and
 * fsync'd before the checkpoint that counts them. Everything is allocated and opened at setup:
 * writing a checkpoint is file I/O between steps and allocates nothing. */
#include "coordinator_impl.h"

#include "hysim/checkpoint.h"
#include "hysim/results.h"
#include "hysim/testfile.h"

#include "../base/regular_file.h"

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
    OFF_PATH = 112,   /* 1024 bytes, NUL-terminated */
    OFF_RUN_ID = 1136 /* 16 bytes */
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
    uint8_t run_id[HS_CHECKPOINT_RUN_ID_BYTES];
    char test_path[1024];
};

void hs_checkpoint_hash_bytes(const void *bytes, size_t len, uint8_t hash[HS_CHECKPOINT_HASH_BYTES])
{
    crypto_generichash(hash, HS_CHECKPOINT_HASH_BYTES, bytes, len, NULL, 0);
}

/* Adds a file's length (u64, little-endian) and bytes to st. */
static int hash_add_file(hs_ctx *ctx, crypto_generichash_state *st, const char *path)
{
    FILE *f = NULL;
    uint64_t size = 0;
    int rc = hs_fopen_regular(ctx, path, &f, &size);
    if (rc) return rc;
    unsigned char len[8];
    for (int i = 0; i < 8; i++) len[i] = (unsigned char)(size >> (8 * i));
    crypto_generichash_update(st, len, sizeof len);
    unsigned char chunk[8192];
    size_t got, total = 0;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        crypto_generichash_update(st, chunk, got);
        total += got;
    }
    const int err = ferror(f);
    fclose(f);
    if (err) return hs_fail(ctx, HS_EIO, "%s: read error", path);
    if (total != size) return hs_fail(ctx, HS_EIO, "%s: changed while being read", path);
    return 0;
}

int hs_checkpoint_hash_file(hs_ctx *ctx, const char *path, uint8_t hash[HS_CHECKPOINT_HASH_BYTES])
{
    FILE *f = NULL;
    int rc = hs_fopen_regular(ctx, path, &f, NULL);
    if (rc) return rc;
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

int hs_checkpoint_hash_test(hs_ctx *ctx, const char *test_path, const hs_test_def *def,
                            uint8_t hash[HS_CHECKPOINT_HASH_BYTES])
{
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, HS_CHECKPOINT_HASH_BYTES);
    int rc = hash_add_file(ctx, &st, test_path);
    for (int i = 0; !rc && def && i < def->ninputs; i++)
        rc = hash_add_file(ctx, &st, def->inputs[i]);
    if (!rc) crypto_generichash_final(&st, hash, HS_CHECKPOINT_HASH_BYTES);
    return rc;
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
    memcpy(out->run_id, h + OFF_RUN_ID, sizeof out->run_id);
    if (out->step < 0 || out->step > out->steps || out->records < 0 ||
        out->state_size > (uint64_t)1 << 40 || out->record_width > (uint64_t)1 << 30)
        return hs_fail(ctx, HS_EINPUT, "%s: the header holds impossible counts", path);
    return 0;
}

/* Opens DIR/checkpoint.bin (a regular file) and checks its header and that the file is exactly as
 * long as the header says, before anything is allocated or read after the header: a header that
 * announces a huge state costs nothing. *fd stays open for hs_ck_read_state. */
static int hs_ck_open(hs_ctx *ctx, const char *dir, char *path, size_t cap, int *fd,
                      hs_checkpoint_info *info, uint64_t *checksum)
{
    *fd = -1;
    if (snprintf(path, cap, "%s/%s", dir, HS_CHECKPOINT_FILE) >= (int)cap)
        return hs_fail(ctx, HS_EINVAL, "checkpoint: folder name too long");
    struct stat st;
    if (lstat(path, &st) != 0 && errno == ENOENT) /* no checkpoint: told apart from the rest */
        return hs_fail(ctx, HS_ENOTFOUND, "%s: cannot open: %s", path, strerror(errno));
    uint64_t size = 0;
    int rc = hs_open_regular(ctx, path, fd, &size);
    if (rc) return rc;
    unsigned char h[HS_CK_HEADER_BYTES];
    rc = read_all(*fd, h, sizeof h, 0) ? hs_fail(ctx, HS_EINPUT, "%s: truncated header", path)
                                       : hs_ck_header_check(ctx, path, h, info);
    /* the header bounds state_size by 2^40 doubles: the product cannot overflow */
    const uint64_t want = HS_CK_HEADER_BYTES + info->state_size * sizeof(double);
    if (!rc && size != want)
        rc = hs_fail(ctx, HS_EINPUT, "%s: %llu bytes, the header announces %llu", path,
                     (unsigned long long)size, (unsigned long long)want);
    if (!rc) *checksum = get_u64(h, OFF_CHECKSUM);
    if (rc) {
        close(*fd);
        *fd = -1;
    }
    return rc;
}

/* Reads the state (n doubles, the file's size checked by hs_ck_open) and checks its checksum. */
static int hs_ck_read_state(hs_ctx *ctx, const char *path, int fd, double *state, size_t n,
                            uint64_t checksum)
{
    if (read_all(fd, state, n * sizeof(double), HS_CK_HEADER_BYTES))
        return hs_fail(ctx, HS_EINPUT, "%s: truncated state", path);
    if (hs_fnv1a((const unsigned char *)state, n * sizeof(double)) != checksum)
        return hs_fail(ctx, HS_EINPUT, "%s: the state does not match its checksum (damaged file)",
                       path);
    return 0;
}

int hs_checkpoint_read_info(hs_ctx *ctx, const char *dir, hs_checkpoint_info *out)
{
    char path[HS_CK_PATH];
    int fd = -1;
    uint64_t checksum = 0;
    const int rc = hs_ck_open(ctx, dir, path, sizeof path, &fd, out, &checksum);
    if (fd >= 0) close(fd);
    return rc;
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

/* A row of records.bin: the record's `width` doubles, then the FNV-1a 64 of the run's id, the
 * test's hash, the row's index and those doubles, so a flipped bit, a row written elsewhere or a
 * row moved is found on resume, and so is a records.bin of another run or another test. */
static uint64_t hs_ck_row_checksum(const uint8_t *run_id, const uint8_t *hash, int64_t r,
                                   const double *row, size_t width)
{
    unsigned char idx[8];
    const uint64_t u = (uint64_t)r;
    memcpy(idx, &u, sizeof idx);
    uint64_t h = UINT64_C(14695981039346656037);
    for (size_t i = 0; i < HS_CHECKPOINT_RUN_ID_BYTES; i++)
        h = (h ^ run_id[i]) * UINT64_C(1099511628211);
    for (size_t i = 0; i < HS_CHECKPOINT_HASH_BYTES; i++)
        h = (h ^ hash[i]) * UINT64_C(1099511628211);
    for (size_t i = 0; i < sizeof idx; i++) h = (h ^ idx[i]) * UINT64_C(1099511628211);
    const unsigned char *p = (const unsigned char *)row;
    for (size_t i = 0; i < width * sizeof(double); i++) h = (h ^ p[i]) * UINT64_C(1099511628211);
    return h;
}

static size_t hs_ck_row_bytes(size_t width)
{
    return (width + 1) * sizeof(double); /* the checksum takes the place of one double */
}

/* The records since the last checkpoint, then fdatasync: they exist before a checkpoint counts
 * them. */
static int hs_ck_append_records(hs_coordinator *c, struct hs_coord_ckpt *k, int64_t *count)
{
    *count = c->results ? hs_results_count(c->results) : 0;
    if (!c->results || !k->width) return 0;
    const size_t row_bytes = hs_ck_row_bytes(k->width);
    for (int64_t r = k->rec_written; r < *count; r++) {
        hs_results_record_pack(c->results, r, k->row);
        const uint64_t sum = hs_ck_row_checksum(k->run_id, k->hash, r, k->row, k->width);
        memcpy(k->row + k->width, &sum, sizeof sum);
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
    memcpy(h + OFF_RUN_ID, k->run_id, sizeof k->run_id);
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
    for (int s = 0; every > 1 && s < c->def->nsites; s++)
        if (strcmp(c->def->sites[s].kind, "remote") == 0)
            return hs_fail(
                c->ctx, HS_EINPUT,
                "checkpoint: every %lld steps with remote site '%s': a remote site keeps "
                "only its last step, so its run resumes only from a checkpoint of every "
                "step (1) or none (0)",
                (long long)every, c->def->sites[s].name);
    int rc = hs_coord_mkdirs(c->ctx, dir, "checkpoint: folder name too long");
    if (rc) return rc;
    struct hs_coord_ckpt *k = hs_calloc(1, sizeof *k);
    if (!k) return HS_ENOMEM;
    k->dir_fd = k->rec_fd = -1;
    c->ck = k;
    k->every = every;
    /* the wall-clock spacing belongs to the file's default interval only: an interval the caller
     * chooses is kept exactly, step for step */
    k->spacing_s = every == c->def->checkpoint_every ? c->def->checkpoint_spacing_s : 0.0;
    k->last_s = hs_ck_now();
    if (hash) memcpy(k->hash, hash, HS_CHECKPOINT_HASH_BYTES);
    /* a fresh run draws its id; a resumed one goes on under its checkpoint's */
    if (c->resumed)
        memcpy(k->run_id, c->run_id, sizeof k->run_id);
    else if (sodium_init() >= 0)
        randombytes_buf(k->run_id, sizeof k->run_id);
    else
        rc = hs_fail(c->ctx, HS_EUNSUPPORTED, "checkpoint: libsodium did not start");
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
                !(k->row = hs_dvec(k->width + 1))))
        rc = HS_ENOMEM;
    if (!rc && (k->dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
        rc = hs_fail(c->ctx, HS_EIO, "%s: cannot open the folder: %s", dir, strerror(errno));
    if (!rc && (k->rec_fd = open(k->records, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0)
        rc = hs_fail(c->ctx, HS_EIO, "%s: cannot open: %s", k->records, strerror(errno));
    /* a fresh run starts both files anew; a resumed one keeps the rows it reloaded */
    k->rec_written = c->resumed && c->results ? hs_results_count(c->results) : 0;
    if (!rc && ftruncate(k->rec_fd, (off_t)k->rec_written * (off_t)hs_ck_row_bytes(k->width)))
        rc = hs_fail(c->ctx, HS_EIO, "%s: cannot truncate: %s", k->records, strerror(errno));
    if (!rc && !c->resumed && unlink(k->path) != 0 && errno != ENOENT)
        rc = hs_fail(c->ctx, HS_EIO, "%s: cannot remove the old checkpoint: %s", k->path,
                     strerror(errno));
    if (rc) hs_coord_ckpt_free(c);
    return rc;
}

/* Reads `count` rows of records.bin into the (emptied) results store, each checked against its
 * checksum; the file's length is checked first. */
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
    int fd = -1;
    uint64_t size = 0;
    int rc = hs_open_regular(c->ctx, path, &fd, &size);
    if (rc) return rc;
    const size_t row_bytes = hs_ck_row_bytes(width);
    if (size / row_bytes < (uint64_t)info->records)
        rc = hs_fail(c->ctx, HS_EINPUT,
                     "%s: %llu bytes hold %llu whole records, fewer than the %lld records the "
                     "checkpoint counts",
                     path, (unsigned long long)size, (unsigned long long)(size / row_bytes),
                     (long long)info->records);
    double *row = rc ? NULL : hs_dvec(width + 1);
    if (!rc && !row) rc = HS_ENOMEM;
    if (!rc) rc = hs_results_truncate(c->results, 0);
    for (int64_t r = 0; !rc && r < info->records; r++) {
        uint64_t sum = 0;
        if (read_all(fd, row, row_bytes, (off_t)r * (off_t)row_bytes))
            rc = hs_fail(c->ctx, HS_EINPUT, "%s: cannot read row %lld: %s", path, (long long)r,
                         strerror(errno ? errno : EIO));
        else if (memcpy(&sum, row + width, sizeof sum),
                 sum != hs_ck_row_checksum(info->run_id, info->hash, r, row, width))
            rc = hs_fail(c->ctx, HS_EINPUT,
                         "%s: row %lld (counted from 0, the record at t = 0) does not match its "
                         "checksum: the file is damaged, or it was written by another run (its "
                         "rows are bound to the run id and test hash of the checkpoint.bin "
                         "written with it: keep the two files of one run together); the run "
                         "cannot resume from it (start it again with --force)",
                         path, (long long)r);
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
    char path[HS_CK_PATH];
    int fd = -1;
    uint64_t checksum = 0;
    hs_checkpoint_info info;
    int rc = hs_ck_open(c->ctx, dir, path, sizeof path, &fd, &info, &checksum);
    /* everything the header says is checked before the state is allocated and read */
    if (!rc && hash && memcmp(hash, info.hash, HS_CHECKPOINT_HASH_BYTES) != 0)
        rc = hs_fail(c->ctx, HS_EINPUT,
                     "%s: belongs to another version of the test or of a file it reads (the "
                     "content hash differs): the definition, its record or another input changed "
                     "since the checkpoint",
                     path);
    if (!rc && info.steps != c->def->steps)
        rc = hs_fail(c->ctx, HS_EINPUT, "%s: a test of %lld steps, this one has %lld", path,
                     (long long)info.steps, (long long)c->def->steps);
    if (!rc && info.state_size != n)
        rc = hs_fail(c->ctx, HS_EINPUT,
                     "%s: %llu doubles of state, this test's coordinator has %zu (another "
                     "definition or hysim version)",
                     path, (unsigned long long)info.state_size, n);
    double *state = rc ? NULL : hs_dvec(n ? n : 1);
    if (!rc && !state) rc = HS_ENOMEM;
    if (!rc) rc = hs_ck_read_state(c->ctx, path, fd, state, n, checksum);
    if (fd >= 0) close(fd);
    if (!rc) rc = hs_coord_state_load(c, state);
    hs_free(state);
    if (!rc && c->steps_done != info.step)
        rc = hs_fail(c->ctx, HS_EINPUT, "%s/%s: header step %lld, state step %lld", dir,
                     HS_CHECKPOINT_FILE, (long long)info.step, (long long)c->steps_done);
    if (!rc && c->results && info.records != (c->recording ? info.step + 1 : info.records))
        rc = hs_fail(c->ctx, HS_EINPUT, "%s/%s: %lld records for %lld steps", dir,
                     HS_CHECKPOINT_FILE, (long long)info.records, (long long)info.step);
    if (!rc) rc = hs_ck_load_records(c, dir, &info);
    if (!rc) memcpy(c->run_id, info.run_id, sizeof c->run_id);
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
