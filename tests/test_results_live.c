/* response.csv formatted while the run goes on (hs_coordinator_set_output,
 * src/results/results_live.c) is byte for byte the file written after the run from the same records
 * (hs_results_write_csv); the .part file is gone once it is renamed, and also when the run is
 * written into another folder or not at all. The run: a 2-DOF building, 3000 steps. */
#include "hs_test.h"

#include "hs_output.h"
#include "hysim/coordinator.h"
#include "hysim/results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char text[] =
    "hysim: 1\nname: live\nunits: {force: kip, length: in, time: s}\n"
    "structure:\n  dofs: 2\n  mass: [0.0103600103600104, 0.0103600103600104]\n"
    "  shear_building:\n    stories: [{material: col}, {material: brace}]\n"
    "  damping: {rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}\n"
    "materials:\n  col: {type: elastic, k: 2.8}\n"
    "  brace: {type: bilinear, k: 2.8, fy: 0.25, b: 0.05}\n"
    "ground_motion:\n  synthetic: {seed: 7, pga: 150.0, duration: 30, dt: 0.01}\n"
    "analysis:\n  integrator: {type: newmark}\n  dt: 0.01\n  duration: 30\n"
    "  checkpoint_every: 0\n";

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("%s: cannot open", path);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc(*len + 1);
    assert_int_equal(fread(buf, 1, *len, f), *len);
    fclose(f);
    return buf;
}

static hs_coordinator *start(hs_ctx *ctx, hs_test_def **def)
{
    if (hs_testfile_load_string(ctx, text, strlen(text), "live.yaml", def))
        fail_msg("%s", hs_ctx_message(ctx));
    hs_coordinator *c = NULL;
    assert_int_equal(hs_coordinator_create(ctx, *def, &c), 0);
    return c;
}

static void test_live_equals_after(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_test_def *def = NULL;
    hs_coordinator *c = start(ctx, &def);
    char dir[4096], path[4200], part[4200];
    hs_test_make_dir(dir, sizeof dir, "test_results_live");
    assert_int_equal(hs_coordinator_set_output(c, dir), 0);
    snprintf(part, sizeof part, "%s/response.csv.part", dir);
    assert_int_equal(access(part, F_OK), 0); /* being written */
    if (hs_coordinator_run(c)) fail_msg("%s", hs_ctx_message(ctx));
    assert_int_equal(hs_coordinator_write(c, dir), 0);
    assert_int_equal(access(part, F_OK), -1);
    snprintf(path, sizeof path, "%s/after.csv", dir);
    assert_int_equal(hs_results_write_csv(hs_coordinator_results(c), path), 0);
    size_t n_after, n_live;
    char *after = slurp(path, &n_after);
    snprintf(path, sizeof path, "%s/response.csv", dir);
    char *live = slurp(path, &n_live);
    assert_int_equal(n_live, n_after);
    assert_memory_equal(live, after, n_after);
    int rows = 0;
    for (size_t i = 0; i < n_live; i++) rows += live[i] == '\n';
    assert_int_equal(rows, 3002); /* header, t = 0 and 3000 steps */
    print_message("test_results_live: %d rows, %zu bytes, identical\n", rows, n_live);
    free(after);
    free(live);
    hs_coordinator_destroy(&c);
    hs_test_def_destroy(&def);

    /* written elsewhere: the .part file in the named folder goes, the other folder gets the file */
    c = start(ctx, &def);
    assert_int_equal(hs_coordinator_set_output(c, dir), 0);
    if (hs_coordinator_advance(c, 500)) fail_msg("%s", hs_ctx_message(ctx));
    char other[4110];
    snprintf(other, sizeof other, "%s/other", dir);
    assert_int_equal(hs_coordinator_write(c, other), 0);
    assert_int_equal(access(part, F_OK), -1);
    char other_csv[4200];
    snprintf(other_csv, sizeof other_csv, "%s/response.csv", other);
    char *partial = slurp(other_csv, &n_live);
    rows = 0;
    for (size_t i = 0; i < n_live; i++) rows += partial[i] == '\n';
    assert_int_equal(rows, 502);
    free(partial);
    hs_coordinator_destroy(&c);
    hs_test_def_destroy(&def);

    /* never written: destroying the coordinator removes the .part file */
    c = start(ctx, &def);
    assert_int_equal(hs_coordinator_set_output(c, dir), 0);
    if (hs_coordinator_advance(c, 100)) fail_msg("%s", hs_ctx_message(ctx));
    hs_coordinator_destroy(&c);
    assert_int_equal(access(part, F_OK), -1);
    hs_test_def_destroy(&def);
    hs_test_remove_dir(other);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_live_equals_after)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
