/* Inputs that used to be misread (docs/testfile.md, "Numbers" and "Limits"): one rule for every
 * number (decimal only: hex refused in YAML values as in records, subnormals such as 1e-320
 * accepted, 1e-400 refused as too small, decimal commas refused); the YAML duplicate-key check
 * beyond the scanned size (hash set) with the positions of both keys; the 16 MiB limit exactly;
 * a definition whose records do not fit in memory refused by the loader (so `check` agrees with
 * `run`); truthful file messages: a symbolic-link loop is not "cannot find", a site file's
 * errors speak of site files, the FILE:LINE:COL prefix appears once for a key error. */
#include "hs_test.h"
#include "hysim/link.h"
#include "hysim/site_server.h"
#include "hysim/testfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* line 16 is "  dt: 0.01", the value at column 7 */
static const char *const BASE = "hysim: 1\n"                                         /* 1 */
                                "name: inputs\n"                                     /* 2 */
                                "units: {force: kip, length: in, time: s}\n"         /* 3 */
                                "structure:\n"                                       /* 4 */
                                "  dofs: 2\n"                                        /* 5 */
                                "  mass: [0.0103600103600104, 0.0103600103600104]\n" /* 6 */
                                "  shear_building:\n"                                /* 7 */
                                "    stories: [{material: col}, {material: col}]\n"  /* 8 */
                                "  damping: {stiffness_proportional: {mode: 1, ratio: 0.02}}\n"
                                "materials:\n"                     /* 10 */
                                "  col: {type: elastic, k: 2.8}\n" /* 11 */
                                "ground_motion:\n"                 /* 12 */
                                "  synthetic: {seed: 7, pga: 100.0, duration: 1, dt: 0.01}\n"
                                "analysis:\n"                   /* 14 */
                                "  integrator: {type: exact}\n" /* 15 */
                                "  dt: 0.01\n"                  /* 16 */
                                "  steps: 100\n";               /* 17 */

/* BASE with the first `from` replaced by `to`; loads it; returns the code, message in ctx. */
static int load_with(hs_ctx *ctx, const char *from, const char *to, hs_test_def **def)
{
    char text[4096];
    const char *at = strstr(BASE, from);
    if (!at) fail_msg("'%s' not in the base text", from);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - BASE), BASE, to, at + strlen(from));
    *def = NULL;
    return hs_testfile_load_string(ctx, text, strlen(text), "in.yaml", def);
}

static void expect(hs_ctx *ctx, const char *from, const char *to, const char *message)
{
    hs_test_def *def = NULL;
    const int rc = load_with(ctx, from, to, &def);
    print_message("    %s -> %s\n", to, rc ? hs_ctx_message(ctx) : "ok");
    if (!message) {
        if (rc) fail_msg("'%s' refused: %s", to, hs_ctx_message(ctx));
        hs_test_def_destroy(&def);
        return;
    }
    assert_int_equal(rc, HS_EINPUT);
    if (!strstr(hs_ctx_message(ctx), message))
        fail_msg("'%s': expected '%s', got '%s'", to, message, hs_ctx_message(ctx));
}

static void test_numbers(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    const char *dt = "  dt: 0.01\n";
    expect(ctx, dt, "  dt: 0x1p-7\n",
           "in.yaml:16:7: analysis.dt: '0x1p-7' is a hexadecimal number: hysim reads decimal");
    expect(ctx, "k: 2.8", "k: 0x1A", "in.yaml:11:27: materials.col.k: '0x1A' is a hexadecimal");
    expect(ctx, "  steps: 100\n", "  steps: 0x64\n", "analysis.steps: '0x64' is a hexadecimal");
    expect(ctx, dt, "  dt: 0,01\n",
           "in.yaml:16:7: analysis.dt: '0,01' has a decimal comma: hysim reads '.' as the "
           "decimal mark");
    expect(ctx, dt, "  dt: .inf\n", "analysis.dt: expected a number, got '.inf'");
    expect(ctx, dt, "  dt: inf\n", "analysis.dt: 'inf' is not a finite number");
    expect(ctx, dt, "  dt: 1e999\n", "analysis.dt: '1e999' is too large for a double");
    /* 1e-320 is a subnormal: finite, accepted (it used to be "not a finite number") */
    expect(ctx, "ratio: 0.02", "ratio: 0.02000000000000000000001", NULL);
    hs_test_def *def = NULL;
    assert_int_equal(load_with(ctx, "pga: 100.0", "pga: 1e-320", &def), 0);
    hs_test_def_destroy(&def);
    expect(ctx, "pga: 100.0", "pga: 1e-400", "'1e-400' is too small for a double (below 4.9e-324");
    /* a delay histogram file follows the same rule */
    char hist[] = "/tmp/test_tf_hist_XXXXXX";
    const int fd = mkstemp(hist);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "0.1 30\n0x1p-2 70\n", 18), 18);
    close(fd);
    hs_delay_dist *d = NULL;
    assert_int_equal(hs_delay_dist_read_histogram(ctx, hist, &d), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), ":2: a number is a hexadecimal number"));
    unlink(hist);
    expect(ctx, dt, "  dt: 5.e-3\n", NULL);
    expect(ctx, dt, "  dt: +.5e-2\n", NULL);
    hs_ctx_destroy(&ctx);
}

/* A mapping of n keys "k0".."k(n-1)" with key `dup` written again at the end. */
static char *many_keys(size_t n, size_t dup, size_t *len)
{
    char *text = malloc(n * 24 + 64);
    assert_non_null(text);
    size_t used = (size_t)sprintf(text, "m:\n");
    for (size_t i = 0; i < n; i++) used += (size_t)sprintf(text + used, "  k%zu: 1\n", i);
    used += (size_t)sprintf(text + used, "  k%zu: 2\n", dup);
    *len = used;
    return text;
}

static void test_duplicate_keys(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = NULL;
    /* small mappings (scanned) and large ones (hashed) find the same duplicate */
    const size_t sizes[] = {3, 8, 9, 1000, 80000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const size_t n = sizes[i], dup = n / 2;
        size_t len = 0;
        char *text = many_keys(n, dup, &len);
        assert_int_equal(hs_testfile_load_string(ctx, text, len, "dup.yaml", &def), HS_EINPUT);
        char want[128];
        snprintf(want, sizeof want, "dup.yaml:%zu:3: duplicate key 'k%zu' (first defined at %zu:3)",
                 n + 2, dup, dup + 2);
        if (strcmp(hs_ctx_message(ctx), want) != 0)
            fail_msg("%zu keys: expected '%s', got '%s'", n, want, hs_ctx_message(ctx));
        free(text);
    }
    /* the same key in two different mappings is no duplicate */
    const char *two = "a: {x: 1, y: 2, z: 3, p: 4, q: 5, r: 6, s: 7, t: 8, u: 9}\n"
                      "b: {x: 1, y: 2, z: 3, p: 4, q: 5, r: 6, s: 7, t: 8, u: 9, v: 0}\n"
                      "a2: {x: 1}\n";
    assert_int_equal(hs_testfile_load_string(ctx, two, strlen(two), "two.yaml", &def), HS_EINPUT);
    assert_null(strstr(hs_ctx_message(ctx), "duplicate"));
    assert_non_null(strstr(hs_ctx_message(ctx), "unknown key 'a'"));
    hs_ctx_destroy(&ctx);
}

static void write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    fclose(f);
}

/* 16 MiB exactly loads; one byte more is refused (it used to be 32 MiB). */
static void test_size_limit(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    const size_t limit = (size_t)16 << 20;
    char *text = malloc(limit + 2);
    assert_non_null(text);
    const size_t base = strlen(BASE);
    memcpy(text, BASE, base);
    /* comment lines of 64 bytes fill the rest up to the limit */
    for (size_t i = base; i < limit; i++) text[i] = ((i - base) % 64 == 0) ? '#' : 'x';
    for (size_t i = base + 63; i < limit; i += 64) text[i] = '\n';
    text[limit - 1] = '\n';
    char path[] = "/tmp/test_tf_limit_XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_file(path, text, limit);
    hs_test_def *def = NULL;
    if (hs_testfile_load(ctx, path, &def)) fail_msg("16 MiB: %s", hs_ctx_message(ctx));
    hs_test_def_destroy(&def);
    text[limit] = '\n';
    write_file(path, text, limit + 1);
    assert_int_equal(hs_testfile_load(ctx, path, &def), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "larger than 16 MiB (16777216 bytes)"));
    unlink(path);
    free(text);
    hs_ctx_destroy(&ctx);
}

/* 10^9 steps keep 10^9 + 1 records of (at least) 18 doubles: 144 GB, more than any machine this
 * runs on; `check` used to say ok. A short test keeps 101 records: fine. */
static void test_memory(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = NULL;
    assert_int_equal(load_with(ctx, "  steps: 100\n", "  steps: 100\n", &def), 0);
    /* t, ag, d v a (2 DOFs), 2 springs x (deformation, force), 6 energies, 1 group */
    assert_int_equal(hs_test_def_record_width(def), 2 + 3 * 2 + 2 * 2 + 6 + 1);
    assert_int_equal(hs_test_def_record_bytes(def), 101 * 19 * 8);
    hs_test_def_destroy(&def);
    expect(ctx, "  steps: 100\n", "  steps: 1000000000\n",
           "in.yaml:17:10: analysis.steps: 1000000000 steps keep 1000000001 records of 19 values, "
           "152 GB in memory, more than this machine's");
    expect(ctx, "  steps: 100\n", "  duration: 1e7\n", "analysis.duration: 1000000000 steps keep");
    hs_ctx_destroy(&ctx);
}

static void test_file_messages(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[] = "/tmp/test_tf_msgs_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char a[64], b[64];
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    assert_int_equal(symlink("b", a), 0); /* a -> b -> a */
    assert_int_equal(symlink("a", b), 0);
    char to[160];
    snprintf(to, sizeof to, "  {file: %s, format: columns, dt: 0.01}\n", a);
    char want[160];
    snprintf(want, sizeof want,
             "ground_motion.file: cannot open '%s': Too many levels of symbolic "
             "links",
             a);
    expect(ctx, "  synthetic: {seed: 7, pga: 100.0, duration: 1, dt: 0.01}\n", to, want);

    /* a site file: its key error has one FILE:LINE:COL; YAML refusals speak of site files */
    char site[512];
    snprintf(site, sizeof site,
             "site:\n  name: e\n  key: %s/missing.key\n  actuators: {a1: {}}\n  specimen: {type: "
             "linear, K: [[1]]}\n",
             dir);
    hs_site_file *sf = NULL;
    assert_int_equal(hs_site_file_load_string(ctx, site, strlen(site), "site.yaml", &sf),
                     HS_EINPUT);
    const char *msg = hs_ctx_message(ctx);
    print_message("    %s\n", msg);
    assert_ptr_equal(strstr(msg, "site.yaml:3:8: site.key: cannot find"), msg);
    assert_null(strstr(msg + 1, "site.yaml:"));
    assert_non_null(strstr(msg, "relative to the site file's folder"));
    const char *alias = "site: &x {name: e}\nother: *x\n";
    assert_int_equal(hs_site_file_load_string(ctx, alias, strlen(alias), "site.yaml", &sf),
                     HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "not supported in site files"));
    const char *two = "site: {name: e}\n---\nsite: {name: f}\n";
    assert_int_equal(hs_site_file_load_string(ctx, two, strlen(two), "site.yaml", &sf), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "a site file holds one YAML document"));
    unlink(a);
    unlink(b);
    rmdir(dir);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers),       cmocka_unit_test(test_duplicate_keys),
        cmocka_unit_test(test_size_limit),    cmocka_unit_test(test_memory),
        cmocka_unit_test(test_file_messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
