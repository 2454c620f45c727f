/* The files of a checkpoint, damaged or replaced (docs/checkpoints.md, "Refusals"): a row of
 * records.bin with a flipped bit, a NaN written over a value, two rows swapped: each refused with
 * its row number; a checkpoint whose header announces 1 GiB of state over a sparse file: refused
 * without allocating or reading it; a FIFO in place of checkpoint.bin or records.bin: refused at
 * once (it used to hang); the resume hash covers the record file a test reads; a records.bin of
 * another run of the same test, or of another test with rows as wide, is refused (its rows are
 * bound to the checkpoint's run id and hash; it used to be resumed). */
#include "hs_test.h"
#include "hysim/checkpoint.h"
#include "hysim/coordinator.h"
#include "hysim/results.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const TEXT = "hysim: 1\n"
                                "name: ckfiles\n"
                                "units: {force: kip, length: in, time: s}\n"
                                "structure:\n"
                                "  dofs: 2\n"
                                "  mass: [0.0103600103600104, 0.0103600103600104]\n"
                                "  shear_building:\n"
                                "    stories: [{material: col}, {material: col}]\n"
                                "  damping: {stiffness_proportional: {mode: 1, ratio: 0.02}}\n"
                                "materials:\n"
                                "  col: {type: bilinear, k: 2.8, fy: 0.5, b: 0.05}\n"
                                "ground_motion:\n"
                                "  synthetic: {seed: 7, pga: 250.0, duration: 1, dt: 0.01}\n"
                                "analysis:\n"
                                "  integrator: {type: newmark_explicit}\n"
                                "  dt: 0.01\n"
                                "  steps: 100\n";

typedef struct fixture {
    hs_ctx *ctx;
    hs_test_def *def;
    char dir[64], ck[128], rec[128];
    uint8_t hash[HS_CHECKPOINT_HASH_BYTES];
    size_t row_bytes; /* of records.bin: the record's doubles and its checksum */
} fixture;

/* A run checkpointed every 10 steps and stopped after 35: checkpoint at 30, 31 records. */
static void setup(fixture *f)
{
    memset(f, 0, sizeof *f);
    assert_int_equal(hs_ctx_create(&f->ctx), 0);
    if (hs_testfile_load_string(f->ctx, TEXT, strlen(TEXT), "ckfiles.yaml", &f->def))
        fail_msg("%s", hs_ctx_message(f->ctx));
    snprintf(f->dir, sizeof f->dir, "/tmp/test_ckfiles_XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->ck, sizeof f->ck, "%s/%s", f->dir, HS_CHECKPOINT_FILE);
    snprintf(f->rec, sizeof f->rec, "%s/%s", f->dir, HS_CHECKPOINT_RECORDS);
    hs_checkpoint_hash_bytes(TEXT, strlen(TEXT), f->hash);
    hs_coordinator *c = NULL;
    assert_int_equal(hs_coordinator_create(f->ctx, f->def, &c), 0);
    f->row_bytes = (hs_results_record_width(hs_coordinator_results(c)) + 1) * sizeof(double);
    assert_int_equal(hs_coordinator_set_checkpoints(c, f->dir, 10, f->hash, "ckfiles.yaml"), 0);
    assert_int_equal(hs_coordinator_advance(c, 35), 0);
    hs_coordinator_destroy(&c);
    struct stat st;
    assert_int_equal(stat(f->rec, &st), 0);
    assert_int_equal((size_t)st.st_size, 31 * f->row_bytes); /* rows 0..30 */
}

static void teardown(fixture *f)
{
    unlink(f->ck);
    unlink(f->rec);
    rmdir(f->dir);
    hs_test_def_destroy(&f->def);
    hs_ctx_destroy(&f->ctx);
}

/* The resume's return code; its message in f->ctx. */
static int resume(fixture *f)
{
    hs_coordinator *c = NULL;
    assert_int_equal(hs_coordinator_create(f->ctx, f->def, &c), 0);
    const int rc = hs_coordinator_resume(c, f->dir, f->hash);
    hs_coordinator_destroy(&c);
    return rc;
}

static void rw(const char *path, void *buf, size_t n, off_t off, int write_it)
{
    const int fd = open(path, write_it ? O_WRONLY : O_RDONLY);
    assert_true(fd >= 0);
    const ssize_t done = write_it ? pwrite(fd, buf, n, off) : pread(fd, buf, n, off);
    assert_int_equal(done, (ssize_t)n);
    close(fd);
}

static void expect_refused_row(fixture *f, long row)
{
    char want[96];
    snprintf(want, sizeof want, "records.bin: row %ld (counted from 0", row);
    assert_int_equal(resume(f), HS_EINPUT);
    if (!strstr(hs_ctx_message(f->ctx), want) || !strstr(hs_ctx_message(f->ctx), "checksum"))
        fail_msg("expected '%s': %s", want, hs_ctx_message(f->ctx));
}

static void test_records_damage(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    assert_int_equal(resume(&f), 0); /* intact: resumes */
    unsigned char *saved = malloc(31 * f.row_bytes);
    assert_non_null(saved);
    rw(f.rec, saved, 31 * f.row_bytes, 0, 0);

    /* one flipped bit in the middle of row 7 */
    unsigned char byte = saved[7 * f.row_bytes + 21] ^ 0x10;
    rw(f.rec, &byte, 1, (off_t)(7 * f.row_bytes + 21), 1);
    expect_refused_row(&f, 7);
    rw(f.rec, saved, 31 * f.row_bytes, 0, 1);

    /* a NaN written over the displacement of DOF 1 in row 3 (t, ag, then d) */
    const double nan = NAN;
    rw(f.rec, (void *)&nan, sizeof nan, (off_t)(3 * f.row_bytes + 2 * sizeof(double)), 1);
    expect_refused_row(&f, 3);
    rw(f.rec, saved, 31 * f.row_bytes, 0, 1);

    /* rows 2 and 4 swapped, each whole with its own checksum: the index in the sum finds it */
    rw(f.rec, saved + 4 * f.row_bytes, f.row_bytes, (off_t)(2 * f.row_bytes), 1);
    rw(f.rec, saved + 2 * f.row_bytes, f.row_bytes, (off_t)(4 * f.row_bytes), 1);
    expect_refused_row(&f, 2);
    rw(f.rec, saved, 31 * f.row_bytes, 0, 1);

    /* rows missing: refused with the count, before any row is read */
    assert_int_equal(truncate(f.rec, (off_t)(30 * f.row_bytes + 5)), 0);
    assert_int_equal(resume(&f), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(f.ctx), "hold 30 whole records, fewer than the 31"));
    rw(f.rec, saved, 31 * f.row_bytes, 0, 1);
    assert_int_equal(resume(&f), 0); /* restored: resumes again */
    free(saved);
    teardown(&f);
}

/* Runs `text` checkpointed every 10 steps for 35 steps into a fresh folder (dir: its name). */
static void other_run(fixture *f, const char *text, char *dir, size_t cap)
{
    snprintf(dir, cap, "/tmp/test_ckother_XXXXXX");
    assert_non_null(mkdtemp(dir));
    hs_test_def *def = NULL;
    if (hs_testfile_load_string(f->ctx, text, strlen(text), "other.yaml", &def))
        fail_msg("%s", hs_ctx_message(f->ctx));
    uint8_t hash[HS_CHECKPOINT_HASH_BYTES];
    hs_checkpoint_hash_bytes(text, strlen(text), hash);
    hs_coordinator *c = NULL;
    assert_int_equal(hs_coordinator_create(f->ctx, def, &c), 0);
    assert_int_equal(hs_coordinator_set_checkpoints(c, dir, 10, hash, "other.yaml"), 0);
    assert_int_equal(hs_coordinator_advance(c, 35), 0);
    hs_coordinator_destroy(&c);
    hs_test_def_destroy(&def);
}

static void remove_run(const char *dir)
{
    char path[160];
    snprintf(path, sizeof path, "%s/%s", dir, HS_CHECKPOINT_FILE);
    unlink(path);
    snprintf(path, sizeof path, "%s/%s", dir, HS_CHECKPOINT_RECORDS);
    unlink(path);
    rmdir(dir);
}

static void test_records_of_another_run(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    unsigned char *own = malloc(31 * f.row_bytes), *other = malloc(31 * f.row_bytes);
    assert_non_null(own);
    assert_non_null(other);
    rw(f.rec, own, 31 * f.row_bytes, 0, 0);
    char *text2 = malloc(strlen(TEXT) + 8), *at = NULL;
    assert_non_null(text2);
    strcpy(text2, TEXT);
    assert_non_null(at = strstr(text2, "pga: 250.0"));
    memcpy(at, "pga: 300.0", 10); /* another test, rows of the same width */
    const char *texts[2] = {TEXT, text2};
    for (int k = 0; k < 2; k++) {
        char dir[64], rec[128];
        other_run(&f, texts[k], dir, sizeof dir);
        snprintf(rec, sizeof rec, "%s/%s", dir, HS_CHECKPOINT_RECORDS);
        rw(rec, other, 31 * f.row_bytes, 0, 0);
        if (k == 0) /* the same test, run again: the same numbers, another run */
            assert_int_equal(memcmp(own, other, f.row_bytes - sizeof(double)), 0);
        rw(f.rec, other, 31 * f.row_bytes, 0, 1);
        expect_refused_row(&f, 0);
        assert_non_null(strstr(hs_ctx_message(f.ctx), "or it was written by another run"));
        remove_run(dir);
    }
    rw(f.rec, own, 31 * f.row_bytes, 0, 1);
    assert_int_equal(resume(&f), 0); /* its own: resumes */
    free(own);
    free(other);
    free(text2);
    teardown(&f);
}

static void test_sparse_state(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    /* the header announces 2^27 doubles (1 GiB) of state, and the file is that long, sparse */
    const uint64_t big = (uint64_t)1 << 27;
    rw(f.ck, (void *)&big, sizeof big, 96, 1); /* header offset 96: doubles of state */
    assert_int_equal(truncate(f.ck, (off_t)(1152 + big * sizeof(double))), 0);
    hs_checkpoint_info info;
    const uint64_t before = hs_alloc_count();
    assert_int_equal(hs_checkpoint_read_info(f.ctx, f.dir, &info), 0);
    assert_int_equal(hs_alloc_count(), before); /* nothing allocated, the state not read */
    assert_int_equal(info.state_size, big);
    assert_int_equal(resume(&f), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(f.ctx), "134217728 doubles of state, this test's "));
    /* the header and the file's length disagree: refused from the header alone */
    assert_int_equal(truncate(f.ck, 1152 + 64), 0);
    assert_int_equal(hs_checkpoint_read_info(f.ctx, f.dir, &info), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(f.ctx), "1216 bytes, the header announces 1073742976"));
    teardown(&f);
}

static void test_fifos(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    hs_checkpoint_info info;
    assert_int_equal(unlink(f.rec), 0);
    assert_int_equal(mkfifo(f.rec, 0600), 0);
    assert_int_equal(resume(&f), HS_EINPUT); /* would block in open() for a writer */
    assert_non_null(strstr(hs_ctx_message(f.ctx), "records.bin: is a FIFO (named pipe), not a "
                                                  "regular file"));
    assert_int_equal(unlink(f.ck), 0);
    assert_int_equal(mkfifo(f.ck, 0600), 0);
    assert_int_equal(hs_checkpoint_read_info(f.ctx, f.dir, &info), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(f.ctx), "checkpoint.bin: is a FIFO (named pipe)"));
    assert_int_equal(resume(&f), HS_EINPUT);
    /* a test file that is a FIFO */
    char fifo[160];
    snprintf(fifo, sizeof fifo, "%s/test.yaml", f.dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    hs_test_def *def = NULL;
    assert_int_equal(hs_testfile_load(f.ctx, fifo, &def), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(f.ctx), "test.yaml: is a FIFO (named pipe)"));
    uint8_t hash[HS_CHECKPOINT_HASH_BYTES];
    assert_int_equal(hs_checkpoint_hash_file(f.ctx, fifo, hash), HS_EINPUT);
    unlink(fifo);
    teardown(&f);
}

static void write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

/* hs_checkpoint_hash_test covers the record file: editing one value of it changes the hash, while
 * the test file's own hash does not change. */
static void test_hash_covers_inputs(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[64], yaml[128], rec[128];
    snprintf(dir, sizeof dir, "/tmp/test_ckhash_XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(yaml, sizeof yaml, "%s/t.yaml", dir);
    snprintf(rec, sizeof rec, "%s/rec.txt", dir);
    char text[2048];
    const char *gm = strstr(TEXT, "ground_motion:");
    const char *an = strstr(TEXT, "analysis:");
    snprintf(text, sizeof text, "%.*sground_motion: {file: rec.txt, format: columns, dt: 0.01}\n%s",
             (int)(gm - TEXT), TEXT, an);
    write_file(yaml, text);
    write_file(rec, "0.10 0.20 -0.30\n0.05 0.0 0.0\n");
    hs_test_def *def = NULL;
    if (hs_testfile_load(ctx, yaml, &def)) fail_msg("%s", hs_ctx_message(ctx));
    assert_int_equal(def->ninputs, 1);
    assert_string_equal(def->inputs[0], rec);
    uint8_t h1[32], h2[32], t1[32], t2[32];
    assert_int_equal(hs_checkpoint_hash_test(ctx, yaml, def, h1), 0);
    assert_int_equal(hs_checkpoint_hash_file(ctx, yaml, t1), 0);
    write_file(rec, "0.10 0.20 -0.31\n0.05 0.0 0.0\n"); /* one digit */
    assert_int_equal(hs_checkpoint_hash_test(ctx, yaml, def, h2), 0);
    assert_int_equal(hs_checkpoint_hash_file(ctx, yaml, t2), 0);
    assert_memory_equal(t1, t2, 32);
    assert_memory_not_equal(h1, h2, 32);
    /* the hash is not the test file's alone, so a checkpoint of version 1 cannot match it */
    assert_memory_not_equal(h1, t1, 32);
    hs_test_def_destroy(&def);
    unlink(rec);
    unlink(yaml);
    rmdir(dir);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_records_damage),     cmocka_unit_test(test_records_of_another_run),
        cmocka_unit_test(test_sparse_state),       cmocka_unit_test(test_fifos),
        cmocka_unit_test(test_hash_covers_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
