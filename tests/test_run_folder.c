/* The run folder (include/hysim/run_folder.h, docs/outputs.md): created with its parents; locked
 * (a second open of the same folder, even in this process, is refused until the first is
 * closed); a folder holding any of a run's six files refused in mode NEW with the files named,
 * emptied of exactly those six in mode FORCE (other files kept), kept in mode RESUME; the probe
 * leaves nothing behind; a free-space need larger than the file system is refused. */
#include "hs_test.h"
#include "hysim/run_folder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void touch(const char *dir, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("x\n", f);
    fclose(f);
}

static int exists(const char *dir, const char *name)
{
    char path[256];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return lstat(path, &st) == 0;
}

static void test_run_folder(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char base[] = "/tmp/test_run_folder_XXXXXX";
    assert_non_null(mkdtemp(base));
    char dir[128];
    snprintf(dir, sizeof dir, "%s/a/b", base);

    /* RESUME needs the folder; NEW creates it and its parents */
    hs_run_folder *f = NULL, *g = NULL;
    assert_int_not_equal(hs_run_folder_open(ctx, dir, HS_RUN_FOLDER_RESUME, 0, &f), 0);
    assert_null(f);
    assert_int_equal(hs_run_folder_open(ctx, dir, HS_RUN_FOLDER_NEW, 0, &f), 0);
    assert_non_null(f);
    assert_false(exists(dir, ".hysim-probe.tmp"));

    /* locked: every mode is refused while f is open */
    const hs_run_folder_mode modes[] = {HS_RUN_FOLDER_NEW, HS_RUN_FOLDER_FORCE,
                                        HS_RUN_FOLDER_RESUME};
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(hs_run_folder_open(ctx, dir, modes[i], 0, &g), HS_EINPUT);
        assert_null(g);
        assert_non_null(strstr(hs_ctx_message(ctx), "in use by another hysim run"));
    }
    hs_run_folder_close(&f);
    assert_null(f);

    /* the six files of a run, and a note that is not one */
    for (const char *const *n = hs_run_folder_files; *n; n++) touch(dir, *n);
    touch(dir, "notes.txt");
    touch(dir, "displacement.png");
    assert_int_equal(hs_run_folder_open(ctx, dir, HS_RUN_FOLDER_NEW, 0, &f), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx),
                           "already holds a run (checkpoint.bin, checkpoint.bin.tmp, "
                           "records.bin, summary.json, response.csv, results.h5)"));
    for (const char *const *n = hs_run_folder_files; *n; n++) assert_true(exists(dir, *n));
    /* RESUME keeps them */
    assert_int_equal(hs_run_folder_open(ctx, dir, HS_RUN_FOLDER_RESUME, 0, &f), 0);
    hs_run_folder_close(&f);
    for (const char *const *n = hs_run_folder_files; *n; n++) assert_true(exists(dir, *n));
    /* FORCE removes exactly them */
    assert_int_equal(hs_run_folder_open(ctx, dir, HS_RUN_FOLDER_FORCE, 0, &f), 0);
    int count = 0;
    for (const char *const *n = hs_run_folder_files; *n; n++, count++)
        assert_false(exists(dir, *n));
    assert_int_equal(count, 6);
    assert_true(exists(dir, "notes.txt"));
    assert_true(exists(dir, "displacement.png"));
    hs_run_folder_close(&f);

    /* a need larger than any file system: refused with the figures */
    assert_int_equal(hs_run_folder_open(ctx, dir, HS_RUN_FOLDER_NEW, UINT64_C(1) << 62, &f),
                     HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "MB free, the run will write about 4.61e+12 MB"));
    assert_null(f);
    /* the refusal released the lock */
    assert_int_equal(hs_run_folder_open(ctx, dir, HS_RUN_FOLDER_NEW, 0, &f), 0);
    hs_run_folder_close(&f);

    char path[256];
    snprintf(path, sizeof path, "%s/notes.txt", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/displacement.png", dir);
    unlink(path);
    rmdir(dir);
    snprintf(path, sizeof path, "%s/a", base);
    rmdir(path);
    rmdir(base);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_run_folder)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
