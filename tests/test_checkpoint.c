/* Checkpoints and resume (docs/checkpoints.md). A hybrid test in virtual time is run once without
 * interruption; a second run of the same definition writes checkpoints, is "killed" at a step
 * drawn from a fixed seed (every object destroyed, the definition too), and a third coordinator,
 * built from a fresh load of the same text, resumes from the folder and finishes. Every record of
 * the resumed run (t, ag, d, v, a, springs, energies, actuators) must equal the uninterrupted run's
 * bit for bit, and so must the energy balance, the hybrid statistics and each site's Table 1 row
 * and tracking figures. Two labs: perfect, and one with actuator delay, sensor noise, relaxation,
 * adaptive compensation, lognormal links with losses and a lognormal compute time (all seeded).
 * Also: writing checkpoints allocates nothing in the loop; a changed test file, a damaged or
 * missing checkpoint and missing records are refused with a sentence; the test-file key. */
#include "hs_test.h"

#include "hysim/checkpoint.h"
#include "hysim/coordinator.h"
#include "hysim/results.h"
#include "hysim/rng.h"
#include "hysim/site.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STEPS 400

/* A two-story frame: story 1 a numerical bilinear spring, story 2 a Bouc-Wen coupon at the site
 * "lab" (one actuator on the story drift). `lab` is the site's extra keys. */
static int test_text(char *buf, size_t size, const char *integrator, const char *lab,
                     const char *analysis_extra, long every)
{
    return snprintf(
        buf, size,
        "hysim: 1\n"
        "name: checkpoint-test\n"
        "units: {force: kip, length: in, time: s}\n"
        "structure:\n"
        "  dofs: 2\n"
        "  mass: [0.0103600103600104, 0.0103600103600104]\n"
        "  springs: [{name: s1, from: ground, to: 1, material: col}]\n"
        "  damping: {stiffness_proportional: {mode: 1, ratio: 0.02}}\n"
        "materials:\n"
        "  col: {type: bilinear, k: 2.8, fy: 0.5, b: 0.05}\n"
        "  coupon: {type: bouc_wen, alpha: 0.05, k0: 2.8, n: 1, gamma: 0.5, beta: 0.5, A0: 1,\n"
        "           delta_a: 0, delta_nu: 0, delta_eta: 0}\n"
        "experimental:\n"
        "  - {name: story2, site: lab, story: 2, actuators: [a1], initial_stiffness: [[2.8]]}\n"
        "sites:\n"
        "  lab:\n"
        "    kind: virtual\n"
        "    rate: 1024\n"
        "    actuators:\n"
        "      a1: {delay_samples: 2}\n"
        "    specimen: {type: material, material: coupon}\n"
        "%s"
        "ground_motion:\n"
        "  synthetic: {seed: 7, pga: 250.0, duration: 4, dt: 0.01}\n"
        "analysis:\n"
        "  integrator: {type: %s}\n"
        "  dt: 0.01\n"
        "  steps: %d\n"
        "  time_scale: 10\n"
        "  seed: 5\n"
        "  checkpoint_every: %ld\n"
        "%s",
        lab, integrator, STEPS, every, analysis_extra);
}

static const char *const PERFECT = "    perfect: true\n";
static const char *const NOISY =
    "    sensors: {displacement: {rms: 0.0001}, force: {rms: 0.001}}\n"
    "    relaxation: {fraction: 0.1, tau: 2.0, v_still: 0.0001}\n"
    "    compensation: {type: adaptive_inverse, a_es: 2, kp: 0.4, ki: 0.04}\n"
    "    link: {delay: {lognormal: {median: 0.03, sigma: 0.75}}, loss: 0.02, rto: 0.05}\n";
static const char *const NOISY_ANALYSIS =
    "  compute_time: {lognormal: {median: 0.01, sigma: 0.5}}\n";

typedef struct run_case {
    char text[4096];
    uint8_t hash[HS_CHECKPOINT_HASH_BYTES];
} run_case;

static hs_test_def *load(hs_ctx *ctx, const run_case *rc)
{
    hs_test_def *def = NULL;
    if (hs_testfile_load_string(ctx, rc->text, strlen(rc->text), "checkpoint-test.yaml", &def))
        fail_msg("%s", hs_ctx_message(ctx));
    return def;
}

static void make_dir(char *dir, size_t len)
{
    snprintf(dir, len, "/tmp/test_checkpoint_XXXXXX");
    assert_non_null(mkdtemp(dir));
}

static void remove_dir(const char *dir)
{
    const char *names[] = {HS_CHECKPOINT_FILE, HS_CHECKPOINT_RECORDS, HS_CHECKPOINT_FILE ".tmp"};
    char path[512];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

/* What a finished run is compared by: every record as a row, energies, statistics, sites. */
typedef struct outcome {
    int64_t count;
    size_t width;
    double *rows;
    hs_energy energy;
    hs_hybrid_stats hybrid;
    hs_site_summary site;
} outcome;

static void capture(hs_coordinator *c, outcome *o)
{
    const hs_results *r = hs_coordinator_results(c);
    o->count = hs_results_count(r);
    o->width = hs_results_record_width(r);
    o->rows = malloc((size_t)o->count * o->width * sizeof(double));
    assert_non_null(o->rows);
    for (int64_t k = 0; k < o->count; k++)
        assert_int_equal(hs_results_record_pack(r, k, o->rows + (size_t)k * o->width), 0);
    o->energy = *hs_coordinator_energy(c);
    assert_int_equal(hs_coordinator_hybrid_stats(c, &o->hybrid), 0);
    memset(&o->site, 0, sizeof o->site);
    assert_int_equal(hs_site_summary_get(hs_coordinator_site(c, 0), &o->site), 0);
}

/* Bit-for-bit equality of two doubles (NaN == NaN when their bits agree). */
static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static void assert_same_outcome(const outcome *a, const outcome *b)
{
    assert_int_equal(a->count, STEPS + 1);
    assert_int_equal(b->count, a->count);
    assert_int_equal(b->width, a->width);
    for (int64_t k = 0; k < a->count; k++)
        for (size_t j = 0; j < a->width; j++) {
            const double x = a->rows[(size_t)k * a->width + j],
                         y = b->rows[(size_t)k * b->width + j];
            if (!same_bits(x, y))
                fail_msg("record %lld, column %zu: uninterrupted %.17g, resumed %.17g",
                         (long long)k, j, x, y);
        }
    assert_true(same_bits(a->energy.input, b->energy.input));
    assert_true(same_bits(a->energy.kinetic, b->energy.kinetic));
    assert_true(same_bits(a->energy.damping, b->energy.damping));
    assert_true(same_bits(a->energy.strain, b->energy.strain));
    assert_true(same_bits(a->energy.experimental, b->energy.experimental));
    assert_true(same_bits(a->energy.error_rel, b->energy.error_rel));
    assert_int_equal(a->hybrid.steps, STEPS);
    assert_int_equal(b->hybrid.steps, a->hybrid.steps);
    assert_int_equal(b->hybrid.implicit_steps, a->hybrid.implicit_steps);
    assert_int_equal(b->hybrid.iterations_max, a->hybrid.iterations_max);
    assert_true(same_bits(a->hybrid.experimental_work, b->hybrid.experimental_work));
    assert_int_equal(a->site.steps, STEPS);
    assert_int_equal(b->site.steps, a->site.steps);
    assert_true(same_bits(a->site.max_delay, b->site.max_delay));
    assert_true(same_bits(a->site.total_time, b->site.total_time));
    assert_true(same_bits(a->site.pct_slow, b->site.pct_slow));
    assert_true(same_bits(a->site.pct_hold, b->site.pct_hold));
    for (int k = 0; k < 8; k++) assert_int_equal(b->site.state_ticks[k], a->site.state_ticks[k]);
    assert_true(same_bits(a->site.mte[0], b->site.mte[0]));
    assert_true(same_bits(a->site.rms[0], b->site.rms[0]));
    assert_true(same_bits(a->site.ti_peak[0], b->site.ti_peak[0]));
    assert_true(same_bits(a->site.a_es[0], b->site.a_es[0]));
}

/* Uninterrupted run, then checkpointed run killed after step k, then resume; compares. */
static void kill_and_resume(const char *integrator, const char *lab, const char *analysis,
                            long every, uint64_t seed, int64_t *k_out, hs_site_summary *site)
{
    run_case rcase;
    assert_true(test_text(rcase.text, sizeof rcase.text, integrator, lab, analysis, every) <
                (int)sizeof rcase.text);
    hs_checkpoint_hash_bytes(rcase.text, strlen(rcase.text), rcase.hash);
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);

    /* the uninterrupted run */
    outcome full, resumed;
    hs_test_def *def = load(ctx, &rcase);
    assert_int_equal(def->checkpoint_every, every);
    hs_coordinator *c = NULL;
    assert_int_equal(hs_coordinator_create(ctx, def, &c), 0);
    if (hs_coordinator_run(c)) fail_msg("%s", hs_ctx_message(ctx));
    capture(c, &full);
    hs_coordinator_destroy(&c);
    hs_test_def_destroy(&def);

    /* the killed run: k drawn from a fixed seed */
    hs_rng rng;
    hs_rng_seed(&rng, seed, 0);
    const int64_t k = 1 + (int64_t)(hs_rng_uniform(&rng) * (STEPS - 1));
    *k_out = k;
    char dir[64];
    make_dir(dir, sizeof dir);
    def = load(ctx, &rcase);
    assert_int_equal(hs_coordinator_create(ctx, def, &c), 0);
    assert_int_equal(hs_coordinator_set_checkpoints(c, dir, def->checkpoint_every, rcase.hash,
                                                    "checkpoint-test.yaml"),
                     0);
    if (hs_coordinator_advance(c, k)) fail_msg("%s", hs_ctx_message(ctx));
    assert_int_equal(hs_coordinator_steps_done(c), k);
    hs_coordinator_destroy(&c); /* the kill: nothing survives but the folder */
    hs_test_def_destroy(&def);

    /* what the folder says: the last checkpoint at a multiple of `every` */
    hs_checkpoint_info info;
    assert_int_equal(hs_checkpoint_read_info(ctx, dir, &info), 0);
    const int64_t saved = k / every * every;
    assert_int_equal(info.step, saved);
    assert_int_equal(info.steps, STEPS);
    assert_int_equal(info.records, saved + 1);
    assert_memory_equal(info.hash, rcase.hash, HS_CHECKPOINT_HASH_BYTES);
    assert_string_equal(info.test_path, "checkpoint-test.yaml");
    char tmp[128];
    snprintf(tmp, sizeof tmp, "%s/%s.tmp", dir, HS_CHECKPOINT_FILE);
    assert_int_equal(access(tmp, F_OK), -1); /* renamed into place */

    /* the resumed run */
    def = load(ctx, &rcase);
    assert_int_equal(hs_coordinator_create(ctx, def, &c), 0);
    if (hs_coordinator_resume(c, dir, rcase.hash)) fail_msg("%s", hs_ctx_message(ctx));
    assert_int_equal(hs_coordinator_steps_done(c), saved);
    assert_int_equal(hs_results_count(hs_coordinator_results(c)), saved + 1);
    assert_int_equal(hs_coordinator_set_checkpoints(c, dir, def->checkpoint_every, rcase.hash,
                                                    "checkpoint-test.yaml"),
                     0);
    if (hs_coordinator_run(c)) fail_msg("%s", hs_ctx_message(ctx));
    capture(c, &resumed);
    assert_same_outcome(&full, &resumed);
    *site = full.site;
    hs_coordinator_destroy(&c);
    hs_test_def_destroy(&def);
    free(full.rows);
    free(resumed.rows);
    remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

static void test_resume_perfect_lab(void **state)
{
    (void)state;
    int64_t k;
    hs_site_summary ss;
    kill_and_resume("newmark_explicit", PERFECT, "", 10, 1, &k, &ss);
    printf("perfect lab, newmark_explicit: killed after step %lld, resumed from step %lld\n",
           (long long)k, (long long)(k / 10 * 10));
    kill_and_resume("os_tangent", PERFECT, "", 1, 2, &k, &ss);
    printf("perfect lab, os_tangent: killed after step %lld, checkpoint every step\n",
           (long long)k);
}

static void test_resume_noisy_lab(void **state)
{
    (void)state;
    int64_t k;
    hs_site_summary ss;
    kill_and_resume("implicit_hht_fe", NOISY, NOISY_ANALYSIS, 7, 3, &k, &ss);
    printf("noisy lab, links, compute time, implicit_hht_fe: killed after step %lld, resumed from "
           "step %lld\n",
           (long long)k, (long long)(k / 7 * 7));
    kill_and_resume("newmark_explicit", NOISY, NOISY_ANALYSIS, 1, 4, &k, &ss);
    printf("noisy lab, newmark_explicit: killed after step %lld; %.1f %% of the steps slowed, "
           "%.1f %% held\n",
           (long long)k, ss.pct_slow, ss.pct_hold);
    /* the links and compute time made the site wait: the event-driven states were exercised */
    assert_true(ss.pct_slow > 0.0);
    assert_true(ss.pct_hold > 0.0);
}

/* Checkpoints every step: the loop still allocates nothing. */
static void test_no_allocation(void **state)
{
    (void)state;
    run_case rcase;
    test_text(rcase.text, sizeof rcase.text, "implicit_hht_fe", NOISY, NOISY_ANALYSIS, 1);
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = load(ctx, &rcase);
    hs_coordinator *c = NULL;
    assert_int_equal(hs_coordinator_create(ctx, def, &c), 0);
    char dir[64];
    make_dir(dir, sizeof dir);
    assert_int_equal(hs_coordinator_set_checkpoints(c, dir, 1, rcase.hash, "x.yaml"), 0);
    assert_int_equal(hs_coordinator_advance(c, 5), 0); /* first-step sizing, if any */
    const uint64_t before = hs_alloc_count();
    assert_int_equal(hs_coordinator_advance(c, 50), 0);
    assert_int_equal(hs_alloc_count(), before);
    hs_checkpoint_info info;
    assert_int_equal(hs_checkpoint_read_info(ctx, dir, &info), 0);
    assert_int_equal(info.step, 55);
    hs_coordinator_destroy(&c);
    hs_test_def_destroy(&def);
    remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

static void flip_byte(const char *path, off_t off)
{
    const int fd = open(path, O_RDWR);
    assert_true(fd >= 0);
    unsigned char b;
    assert_int_equal(pread(fd, &b, 1, off), 1);
    b ^= 0x40;
    assert_int_equal(pwrite(fd, &b, 1, off), 1);
    close(fd);
}

/* Each way a checkpoint can be unusable is refused with its reason. */
static void test_refusals(void **state)
{
    (void)state;
    run_case rcase;
    test_text(rcase.text, sizeof rcase.text, "newmark_explicit", PERFECT, "", 10);
    hs_checkpoint_hash_bytes(rcase.text, strlen(rcase.text), rcase.hash);
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[64], path[128];
    make_dir(dir, sizeof dir);
    hs_test_def *def = load(ctx, &rcase);
    hs_coordinator *c = NULL;
    /* no checkpoint yet */
    assert_int_equal(hs_coordinator_create(ctx, def, &c), 0);
    assert_int_equal(hs_coordinator_resume(c, dir, rcase.hash), HS_ENOTFOUND);
    hs_coordinator_destroy(&c);
    assert_int_equal(hs_coordinator_create(ctx, def, &c), 0);
    assert_int_equal(hs_coordinator_set_checkpoints(c, dir, 10, rcase.hash, "t.yaml"), 0);
    assert_int_equal(hs_coordinator_advance(c, 25), 0);
    hs_coordinator_destroy(&c);
    hs_test_def_destroy(&def);

    /* another test file (one character changed): its hash differs */
    run_case other = rcase;
    char *p = strstr(other.text, "pga: 250.0");
    assert_non_null(p);
    p[5] = '3';
    hs_checkpoint_hash_bytes(other.text, strlen(other.text), other.hash);
    def = load(ctx, &other);
    assert_int_equal(hs_coordinator_create(ctx, def, &c), 0);
    assert_int_equal(hs_coordinator_resume(c, dir, other.hash), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "content hash differs"));
    hs_coordinator_destroy(&c);
    hs_test_def_destroy(&def);

    /* records.bin shorter than the checkpoint says */
    snprintf(path, sizeof path, "%s/%s", dir, HS_CHECKPOINT_RECORDS);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(truncate(path, st.st_size - 8), 0);
    def = load(ctx, &rcase);
    assert_int_equal(hs_coordinator_create(ctx, def, &c), 0);
    assert_int_equal(hs_coordinator_resume(c, dir, rcase.hash), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "fewer than the 21 records"));
    assert_int_not_equal(hs_coordinator_run(c), 0); /* a failed resume leaves it unrunnable */
    hs_coordinator_destroy(&c);

    /* a damaged state */
    snprintf(path, sizeof path, "%s/%s", dir, HS_CHECKPOINT_FILE);
    flip_byte(path, 1152 + 100);
    assert_int_equal(hs_coordinator_create(ctx, def, &c), 0);
    assert_int_equal(hs_coordinator_resume(c, dir, rcase.hash), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "checksum"));
    hs_coordinator_destroy(&c);
    hs_checkpoint_info info; /* the header is sound: the state is checked by the resume only */
    assert_int_equal(hs_checkpoint_read_info(ctx, dir, &info), 0);

    /* not a checkpoint at all */
    flip_byte(path, 0);
    assert_int_equal(hs_checkpoint_read_info(ctx, dir, &info), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "not a hysim checkpoint"));
    hs_test_def_destroy(&def);
    remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

/* analysis.checkpoint_every: default 100 with virtual sites, 1 with a remote one, 0 = off, a
 * negative value refused at its position. */
static void test_testfile_key(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    run_case rcase;
    test_text(rcase.text, sizeof rcase.text, "newmark_explicit", PERFECT, "", 0);
    hs_test_def *def = load(ctx, &rcase);
    assert_int_equal(def->checkpoint_every, 0);
    hs_test_def_destroy(&def);
    char *line = strstr(rcase.text, "  checkpoint_every: 0\n");
    assert_non_null(line);
    memmove(line, line + strlen("  checkpoint_every: 0\n"),
            strlen(line + strlen("  checkpoint_every: 0\n")) + 1);
    def = load(ctx, &rcase);
    assert_int_equal(def->checkpoint_every, 100);
    assert_true(def->checkpoint_spacing_s == 1.0); /* the default: at most one a second */
    hs_test_def_destroy(&def);

    test_text(rcase.text, sizeof rcase.text, "newmark_explicit", PERFECT, "", -3);
    assert_int_equal(hs_testfile_load_string(ctx, rcase.text, strlen(rcase.text), "bad.yaml", &def),
                     HS_EINPUT);
    /* line 31 of the text, column 21: the value after "  checkpoint_every: " */
    assert_string_equal(hs_ctx_message(ctx), "bad.yaml:31:21: analysis.checkpoint_every: must be "
                                             "between 0 and 1000000000 (got -3)");

    /* a remote site: every step by default */
    char dir[64], key[128];
    make_dir(dir, sizeof dir);
    snprintf(key, sizeof key, "%s/lab2.key", dir);
    FILE *f = fopen(key, "w");
    assert_non_null(f);
    fputs("7db56dee2bc7c68b766c47a6d50e6e141019276dad6405a76932fb4b646ad043\n", f); /* random */
    fclose(f);
    static const char remote[] =
        "hysim: 1\n"
        "name: remote\n"
        "units: {force: kip, length: in, time: s}\n"
        "structure:\n"
        "  dofs: 1\n"
        "  mass: [0.01]\n"
        "  damping: {none: true}\n"
        "experimental:\n"
        "  - {name: col, site: lab2, story: 1, actuators: [b1], initial_stiffness: [[2.8]]}\n"
        "sites:\n"
        "  lab2: {kind: remote, url: \"hysim://127.0.0.1:8091\", key: lab2.key,\n"
        "         actuators: {b1: {}}}\n"
        "ground_motion:\n"
        "  synthetic: {seed: 7, pga: 250.0, duration: 1, dt: 0.01}\n"
        "analysis:\n"
        "  integrator: {type: newmark_explicit}\n"
        "  dt: 0.01\n"
        "  steps: 10\n";
    char path[128];
    snprintf(path, sizeof path, "%s/remote.yaml", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(remote, f);
    fclose(f);
    if (hs_testfile_load(ctx, path, &def)) fail_msg("%s", hs_ctx_message(ctx));
    assert_int_equal(def->checkpoint_every, 1);
    assert_true(def->checkpoint_spacing_s ==
                0.0); /* a remote site: every step, whatever the time */
    hs_test_def_destroy(&def);
    unlink(path);
    unlink(key);
    rmdir(dir);
    hs_ctx_destroy(&ctx);
}

/* The wall-clock spacing of default checkpoints: with 1000 s (never reached by this run) a due
 * checkpoint is skipped, so the folder holds none; with 0, the one at the last multiple of
 * `every`. A set interval (the file's checkpoint_every) has spacing 0. */
static void test_spacing(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    run_case rcase;
    test_text(rcase.text, sizeof rcase.text, "newmark_explicit", PERFECT, "", 10);
    hs_checkpoint_hash_bytes(rcase.text, strlen(rcase.text), rcase.hash);
    for (int spaced = 1; spaced >= 0; spaced--) {
        hs_test_def *def = load(ctx, &rcase);
        assert_true(def->checkpoint_spacing_s == 0.0);
        def->checkpoint_spacing_s = spaced ? 1000.0 : 0.0;
        hs_coordinator *c = NULL;
        assert_int_equal(hs_coordinator_create(ctx, def, &c), 0);
        char dir[64];
        make_dir(dir, sizeof dir);
        assert_int_equal(
            hs_coordinator_set_checkpoints(c, dir, 10, rcase.hash, "checkpoint-test.yaml"), 0);
        if (hs_coordinator_advance(c, 95)) fail_msg("%s", hs_ctx_message(ctx));
        hs_checkpoint_info info;
        if (spaced) {
            assert_int_not_equal(hs_checkpoint_read_info(ctx, dir, &info), 0);
        } else {
            assert_int_equal(hs_checkpoint_read_info(ctx, dir, &info), 0);
            assert_int_equal(info.step, 90);
        }
        hs_coordinator_destroy(&c);
        hs_test_def_destroy(&def);
        remove_dir(dir);
    }
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resume_perfect_lab), cmocka_unit_test(test_resume_noisy_lab),
        cmocka_unit_test(test_no_allocation),      cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_testfile_key),       cmocka_unit_test(test_spacing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
