/* Ground motions: the PEER AT2 and plain-column readers against the reference records of
 * ../shared (numbers from their README), input errors with file:line, linear interpolation, and
 * the synthetic Kanai-Tajimi generator against its theory (exact PGA, envelope, zero mean,
 * spectral shape and peak), its random numbers against the published xoshiro256** outputs. */
#include "hs_test.h"

#include "hysim/rths.h"
#include "hysim/rng.h"
#include "model/ground_motion_impl.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PI 3.14159265358979323846

/* ---------------------------------------------------------------- helpers */

static hs_ground_motion *load(hs_ctx *ctx, const char *type, const char *path, double dt)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_str(o, "path", path);
    if (dt > 0.0) hs_options_set_num(o, "dt", dt);
    hs_ground_motion *gm = NULL;
    int rc = hs_ground_motion_create(ctx, type, o, &gm);
    if (rc) print_error("%s %s: %s\n", type, path, hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    hs_options_destroy(&o);
    return gm;
}

/* Index of max |acc| (first one). */
static size_t peak_index(const hs_ground_motion *gm)
{
    size_t k = 0;
    for (size_t i = 1; i < gm->npts; i++)
        if (fabs(gm->acc[i]) > fabs(gm->acc[k])) k = i;
    return k;
}

static void check_record(const hs_ground_motion *gm, size_t npts, double dt, double pga_g,
                         double t_peak)
{
    assert_int_equal(gm->npts, npts);
    HS_ASSERT_NEAR(gm->dt, dt, 1e-15);
    HS_ASSERT_NEAR(hs_ground_motion_pga(gm), pga_g, 1e-4);
    HS_ASSERT_NEAR((double)peak_index(gm) * gm->dt, t_peak, 1e-9);
    HS_ASSERT_NEAR(hs_ground_motion_duration(gm), (double)(npts - 1) * dt, 1e-12);
}

/* A scratch directory for small input files, removed by the test. */
static char scratch_dir[256];
static char scratch_files[16][512];
static int scratch_n;

static const char *write_file(const char *name, const char *text)
{
    if (!scratch_dir[0]) {
        snprintf(scratch_dir, sizeof scratch_dir, "/tmp/hs_gm_XXXXXX");
        assert_non_null(mkdtemp(scratch_dir));
    }
    assert_true(scratch_n < 16);
    char *path = scratch_files[scratch_n++];
    snprintf(path, 512, "%s/%s", scratch_dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void scratch_clean(void)
{
    for (int i = 0; i < scratch_n; i++) unlink(scratch_files[i]);
    if (scratch_dir[0]) rmdir(scratch_dir);
    scratch_n = 0;
    scratch_dir[0] = '\0';
}

/* Expects creation to fail with `code` and a message holding every string of `needles`. */
static void expect_failure(const char *type, hs_options *o, int code, const char *const *needles)
{
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_ground_motion *gm = NULL;
    int rc = hs_ground_motion_create(ctx, type, o, &gm);
    const char *msg = hs_ctx_message(ctx);
    print_message("    %s -> %d: %s\n", type, rc, msg);
    assert_int_equal(rc, code);
    assert_null(gm);
    for (const char *const *n = needles; *n; n++)
        if (!strstr(msg, *n)) fail_msg("message '%s' lacks '%s'", msg, *n);
    hs_ctx_destroy(&ctx);
}

/* ---------------------------------------------------------------- readers */

static void test_at2_elcentro(void **state)
{
    (void)state;
    const char *path = hs_test_shared_path("data/records/I-ELC180.AT2");
    if (!path) {
        print_message("SKIP: ../shared/data/records/I-ELC180.AT2 absent (no shared data)\n");
        skip();
    }
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_ground_motion *gm = load(ctx, "at2", path, 0.0);
    check_record(gm, 4000, 0.01, 0.3129, 2.15);
    print_message("    I-ELC180.AT2: %zu points, dt %g s, PGA %.5f g at %.2f s\n", gm->npts, gm->dt,
                  hs_ground_motion_pga(gm), (double)peak_index(gm) * gm->dt);
    /* scale multiplies every value */
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_str(o, "path", path);
    hs_options_set_num(o, "scale", 9.80665);
    hs_ground_motion *scaled = NULL;
    assert_int_equal(hs_ground_motion_create(ctx, "at2", o, &scaled), 0);
    for (size_t i = 0; i < gm->npts; i++) assert_true(scaled->acc[i] == gm->acc[i] * 9.80665);
    hs_options_destroy(&o);
    hs_ground_motion_destroy(&scaled);
    hs_ground_motion_destroy(&gm);
    assert_null(gm);
    hs_ctx_destroy(&ctx);
}

static void test_columns_elcentro(void **state)
{
    (void)state;
    const char *p270 = hs_test_shared_path("data/records/ELC270.txt");
    if (!p270) {
        print_message("SKIP: ../shared/data/records absent (no shared data)\n");
        skip();
    }
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_ground_motion *gm = load(ctx, "columns", p270, 0.01);
    check_record(gm, 4000, 0.01, 0.2148, 11.53);
    print_message("    ELC270.txt: %zu points, PGA %.5f g at %.2f s\n", gm->npts,
                  hs_ground_motion_pga(gm), (double)peak_index(gm) * gm->dt);
    hs_ground_motion_destroy(&gm);

    const char *pns = hs_test_shared_path("data/records/elcentro.txt");
    assert_non_null(pns);
    gm = load(ctx, "columns", pns, 0.02);
    check_record(gm, 1560, 0.02, 0.3188, 2.02);
    print_message("    elcentro.txt: %zu points, PGA %.5f g at %.2f s\n", gm->npts,
                  hs_ground_motion_pga(gm), (double)peak_index(gm) * gm->dt);
    hs_ground_motion_destroy(&gm);
    hs_ctx_destroy(&ctx);
}

/* Both AT2 header forms, and columns with a header, commas and varying counts per line. */
static void test_formats(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    const double want[7] = {0.0, 0.5, -1.25, 2.0e-3, -0.03, 0.125, 1.0};
    const char *newer = write_file("new.AT2", "PEER NGA STRONG MOTION DATABASE RECORD\r\n"
                                              "SOMEWHERE 1/1/99, STATION, 90\r\n"
                                              "ACCELERATION TIME SERIES IN UNITS OF G\r\n"
                                              "NPTS=     7, DT=   .0050 SEC\r\n"
                                              "  0.0 .5 -1.25E+00  2.0e-3 -.3E-1\r\n"
                                              " 0.125  1\r\n\r\n");
    const char *older = write_file("old.AT2", "PEER STRONG MOTION DATABASE RECORD\n"
                                              "X\n"
                                              "ACCELERATION TIME HISTORY IN UNITS OF G\n"
                                              "7    0.0050    NPTS, DT\n"
                                              "0.0 .5 -1.25E+00\n2.0e-3\n-.3E-1 0.125 1");
    const char *cols = write_file("cols.txt", "# time step 0.005 s\nunits: g\n"
                                              "0.0, .5\t-1.25E+00\n\n2.0e-3 -.3E-1 0.125 1\n");
    const char *paths[3] = {newer, older, cols};
    const char *types[3] = {"at2", "at2", "columns"};
    for (int k = 0; k < 3; k++) {
        hs_options *o = NULL;
        hs_options_create(&o);
        hs_options_set_str(o, "path", paths[k]);
        hs_options_set_num(o, "scale", 4.0);
        if (k == 2) {
            hs_options_set_num(o, "dt", 0.005);
            hs_options_set_num(o, "skip", 2);
        }
        hs_ground_motion *gm = NULL;
        int rc = hs_ground_motion_create(ctx, types[k], o, &gm);
        if (rc) print_error("%s\n", hs_ctx_message(ctx));
        assert_int_equal(rc, 0);
        assert_int_equal(gm->npts, 7);
        assert_true(gm->dt == 0.005);
        for (int i = 0; i < 7; i++) assert_true(gm->acc[i] == 4.0 * want[i]);
        hs_ground_motion_destroy(&gm);
        hs_options_destroy(&o);
    }
    scratch_clean();
    hs_ctx_destroy(&ctx);
}

static hs_options *path_opts(const char *path, double dt);

/* lead and trail seconds of zeros (the RTHS benchmark's layout): sampled at any time the padded
 * record equals hs_rths_record_layout's linear interpolation; a lead that is not whole steps is
 * refused with the file and the step */
static void test_lead_trail(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    const char *cols = write_file("pad.txt", "0.5 -1.25 2 0.75\n");
    const double raw[4] = {0.5, -1.25, 2.0, 0.75};
    hs_options *o = path_opts(cols, 0.02);
    hs_options_set_num(o, "scale", 3.0);
    hs_options_set_num(o, "lead", 0.1);
    hs_options_set_num(o, "trail", 0.04);
    hs_ground_motion *gm = NULL;
    assert_int_equal(hs_ground_motion_create(ctx, "columns", o, &gm), 0);
    assert_int_equal(gm->npts, 5 + 4 + 2);
    for (size_t i = 0; i < gm->npts; i++)
        assert_true(gm->acc[i] == (i >= 5 && i < 9 ? 3.0 * raw[i - 5] : 0.0));
    size_t n = 0;
    double *ag = hs_rths_record_layout(raw, 4, 0.02, 3.0, 0.1, 0.04, 1000.0, &n);
    assert_non_null(ag);
    assert_int_equal(n, 201); /* 0 .. 0.2 s at 1 ms */
    for (size_t k = 0; k < n; k++)
        HS_ASSERT_NEAR(hs_ground_motion_at(gm, (double)k / 1000.0), ag[k], 1e-12);
    hs_free(ag);
    hs_ground_motion_destroy(&gm);
    hs_options_set_num(o, "lead", 0.03);
    assert_int_equal(hs_ground_motion_create(ctx, "columns", o, &gm), HS_EINPUT);
    assert_null(gm);
    assert_non_null(strstr(hs_ctx_message(ctx), "pad.txt: ground motion lead 0.03 s"));
    assert_non_null(strstr(hs_ctx_message(ctx), "(dt 0.02 s)"));
    hs_options_destroy(&o);
    scratch_clean();
    hs_ctx_destroy(&ctx);
}

static hs_options *path_opts(const char *path, double dt)
{
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_str(o, "path", path);
    if (dt > 0.0) hs_options_set_num(o, "dt", dt);
    return o;
}

static void test_bad_inputs(void **state)
{
    (void)state;
    char where[600];
    struct {
        const char *type, *name, *text, *at, *what;
        double dt;
    } cases[] = {
        {"columns", "token.txt", "0.1 0.2 0.3\n0.4 abc 0.5\n", ":2:5:", "not a number", 0.01},
        {"columns", "glued.txt", "0.1 0.2-\n", ":1:5:", "not a number", 0.01},
        {"columns", "nan.txt", "0.1\n\n nan\n", ":3:2:", "not a finite number", 0.01},
        /* one rule for every number (docs/testfile.md, "Numbers"): decimal only */
        {"columns", "hex.txt", "0x10\n", ":1:1:", "'0x10' is a hexadecimal number", 0.01},
        {"columns", "hexfp.txt", "0.5 -0X1p3\n", ":1:5:", "hexadecimal", 0.01},
        {"columns", "tiny.txt", "0.1 1e-400\n", ":1:5:", "too small", 0.01},
        /* decimal commas, with the line and column of the first one */
        {"columns", "comma.txt", "0.5\n0,10 0,20 -0,30\n", ":2:1:", "'0,10' has a decimal comma",
         0.01},
        {"columns", "comma2.txt", "0.5, 0.25\n1.0 -0,30\n", ":2:5:", "write -0.30", 0.01},
        /* in exponent form: not two numbers 1 and 5e3 (issue 17) */
        {"columns", "comma3.txt", "0.5\n1,5e3 2.0\n", ":2:1:",
         "'1,5e3' has a decimal comma: hysim reads '.' as the decimal mark and a comma as a "
         "separator between values; write 1.5e3",
         0.01},
        {"columns", "comma4.txt", "0.5 -2,25E-02\n", ":1:5:", "write -2.25E-02", 0.01},
        {"at2", "hexhdr.AT2", "PEER\nX\nUNITS OF G\nNPTS= 0x10, DT= .01 SEC\n1\n",
         ":4:", "hexadecimal", 0},
        {"at2", "hexdt.AT2", "PEER\nX\nUNITS OF G\n2 0x1p-7 NPTS, DT\n1 2\n", ":4:", "hexadecimal",
         0},
        {"at2", "comma.AT2", "PEER\nX\nUNITS OF G\nNPTS= 3, DT= .01 SEC\n0,1 0,2 0,3\n",
         ":5:1:", "decimal comma", 0},
        {"columns", "huge.txt", "1e999\n", ":1:1:", "out of range", 0.01},
        {"columns", "empty.txt", "\n  \n", ":2:", "no values", 0.01},
        {"at2", "short.AT2", "PEER\nX\nUNITS OF G\nNPTS=  10, DT= .01 SEC\n1 2 3 4 5\n6 7\n",
         ":6:", "truncated AT2 record", 0},
        {"at2", "long.AT2", "PEER\nX\nUNITS OF G\n3  0.01  NPTS, DT\n1 2\n3 4\n",
         ":6:", "more values than NPTS = 3", 0},
        {"at2", "header.AT2", "PEER\nX\nUNITS OF G\n", ":3:", "truncated AT2 header", 0},
        {"at2", "nodt.AT2", "PEER\nX\nUNITS OF G\nNPTS=  10\n", ":4:", "cannot read NPTS and DT",
         0},
        {"at2", "npts.AT2", "PEER\nX\nUNITS OF G\n10.5 0.01 NPTS, DT\n", ":4:", "NPTS", 0},
        {"at2", "dt.AT2", "PEER\nX\nUNITS OF G\nNPTS= 2, DT= -0.01\n1 2\n", ":4:", "DT", 0},
        {"at2", "badval.AT2", "PEER\nX\nUNITS OF G\nNPTS= 2, DT= 0.01\n1 2;5\n",
         ":5:3:", "not a number", 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *path = write_file(cases[k].name, cases[k].text);
        snprintf(where, sizeof where, "%s%s", path, cases[k].at);
        const char *needles[] = {where, cases[k].what, NULL};
        hs_options *o = path_opts(path, cases[k].dt);
        expect_failure(cases[k].type, o, HS_EINPUT, needles);
        hs_options_destroy(&o);
        if (scratch_n == 16) scratch_clean();
    }
    /* columns without dt: the message names the file and the missing parameter */
    const char *path = write_file("nodt.txt", "0.1 0.2\n");
    hs_options *o = path_opts(path, 0.0);
    const char *needles[] = {path, "'dt'", NULL};
    expect_failure("columns", o, HS_EINPUT, needles);
    hs_options_set_num(o, "dt", -1.0);
    const char *negative[] = {path, "dt must be", NULL};
    expect_failure("columns", o, HS_EINPUT, negative);
    hs_options_set_num(o, "dt", 0.01);
    hs_options_set_num(o, "skip", 5);
    const char *skips[] = {path, "header lines", NULL};
    expect_failure("columns", o, HS_EINPUT, skips);
    hs_options_destroy(&o);
    /* a missing file is an I/O error naming it */
    o = path_opts("/nonexistent/record.AT2", 0.0);
    const char *missing[] = {"/nonexistent/record.AT2", NULL};
    expect_failure("at2", o, HS_EIO, missing);
    hs_options_destroy(&o);
    /* commas as separators, a subnormal (finite: accepted), a blank after each comma */
    path = write_file("good.txt", "0.5,0.25, -1e-320\n1, 2\n.5e1\n");
    o = path_opts(path, 0.01);
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_ground_motion *gm = NULL;
    if (hs_ground_motion_create(ctx, "columns", o, &gm)) fail_msg("%s", hs_ctx_message(ctx));
    assert_int_equal(gm->npts, 6);
    const double want[] = {0.5, 0.25, -1e-320, 1.0, 2.0, 5.0};
    for (size_t i = 0; i < 6; i++) assert_true(gm->acc[i] == want[i]);
    assert_true(gm->acc[2] != 0.0);
    hs_ground_motion_destroy(&gm);
    hs_ctx_destroy(&ctx);
    hs_options_destroy(&o);
    /* unknown type */
    const char *unknown[] = {"'peer'", NULL};
    expect_failure("peer", NULL, HS_ENOTFOUND, unknown);
    scratch_clean();
}

/* ---------------------------------------------------------------- record object */

static void test_interpolation(void **state)
{
    (void)state;
    /* ramp a(t) = 1 + 25 t sampled at dt = 0.1 over 0 .. 0.9 s */
    double ramp[10];
    for (int i = 0; i < 10; i++) ramp[i] = 1.0 + 2.5 * i;
    hs_ground_motion *gm = NULL;
    assert_int_equal(hs_ground_motion_from_array(NULL, ramp, 10, 0.1, &gm), 0);
    ramp[0] = 99.0; /* copied */
    HS_ASSERT_NEAR(hs_ground_motion_duration(gm), 0.9, 1e-15);
    for (int k = 0; k <= 900; k++) {
        const double t = 0.001 * k;
        HS_ASSERT_NEAR(hs_ground_motion_at(gm, t), 1.0 + 25.0 * t, 1e-12);
    }
    assert_true(hs_ground_motion_at(gm, 0.0) == 1.0);
    assert_true(hs_ground_motion_at(gm, 0.9) == 23.5);
    assert_true(hs_ground_motion_at(gm, -1e-9) == 0.0);
    assert_true(hs_ground_motion_at(gm, 0.9 + 1e-9) == 0.0);
    assert_true(hs_ground_motion_at(gm, 100.0) == 0.0);
    assert_true(hs_ground_motion_at(gm, NAN) == 0.0);
    assert_true(hs_ground_motion_pga(gm) == 23.5);
    hs_ground_motion_destroy(&gm);
    /* bad arrays */
    const double bad[2] = {1.0, INFINITY};
    assert_int_equal(hs_ground_motion_from_array(NULL, bad, 2, 0.1, &gm), HS_EINPUT);
    assert_int_equal(hs_ground_motion_from_array(NULL, ramp, 2, 0.0, &gm), HS_EINPUT);
    assert_int_equal(hs_ground_motion_from_array(NULL, ramp, 0, 0.1, &gm), HS_EINPUT);
}

static void test_registry(void **state)
{
    (void)state;
    assert_int_equal(hs_ground_motion_registry_count(), 3);
    const char *names[3] = {"at2", "columns", "synthetic"};
    for (size_t i = 0; i < 3; i++) {
        const hs_ground_motion_entry *e = hs_ground_motion_registry_find(names[i]);
        assert_non_null(e);
        assert_ptr_equal(e, hs_ground_motion_registry_get(i));
        assert_non_null(e->params);
        assert_non_null(e->summary);
    }
    assert_null(hs_ground_motion_registry_find("nope"));
    assert_null(hs_ground_motion_registry_get(3));
}

/* ---------------------------------------------------------------- random numbers */

static void test_random_reference(void **state)
{
    (void)state;
    /* xoshiro256** from the state {1, 2, 3, 4}: the reference implementation's outputs */
    hs_rng r = {{1, 2, 3, 4}, 0.0, 0};
    const uint64_t xo[10] = {UINT64_C(11520),
                             UINT64_C(0),
                             UINT64_C(1509978240),
                             UINT64_C(1215971899390074240),
                             UINT64_C(1216172134540287360),
                             UINT64_C(607988272756665600),
                             UINT64_C(16172922978634559625),
                             UINT64_C(8476171486693032832),
                             UINT64_C(10595114339597558777),
                             UINT64_C(2904607092377533576)};
    for (int i = 0; i < 10; i++) assert_true(hs_rng_next(&r) == xo[i]);
    /* the envelope's portable exp agrees with the C library to an ulp or two */
    double worst_exp = 0.0;
    for (int k = 1; k <= 20000; k++) {
        const double y = -0.035 * k; /* down to -700, above the subnormals */
        worst_exp = fmax(worst_exp, fabs(hs_gm_exp(y) - exp(y)) / exp(y));
    }
    print_message("    portable exp: worst relative difference from libm %.2e\n", worst_exp);
    assert_true(worst_exp < 1e-15);
    assert_true(hs_gm_exp(0.0) == 1.0 && hs_gm_exp(-800.0) == 0.0);
    /* N(0, 1): sample moments within 5 standard errors */
    hs_rng_seed(&r, 12345, 0);
    const int n = 200000;
    double m1 = 0.0, m2 = 0.0, m4 = 0.0;
    for (int i = 0; i < n; i++) {
        const double z = hs_rng_normal(&r);
        m1 += z;
        m2 += z * z;
        m4 += z * z * z * z;
    }
    m1 /= n, m2 /= n, m4 /= n;
    print_message("    normal deviates: mean %.4f, variance %.4f, 4th moment %.4f\n", m1, m2, m4);
    HS_ASSERT_NEAR(m1, 0.0, 5.0 / sqrt(n));
    HS_ASSERT_NEAR(m2, 1.0, 5.0 * sqrt(2.0 / n));
    HS_ASSERT_NEAR(m4, 3.0, 5.0 * sqrt(96.0 / n));
}

/* ---------------------------------------------------------------- synthetic records */

static hs_ground_motion *synthetic(double seed, double duration, const char *envelope,
                                   double zeta_g)
{
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_num(o, "seed", seed);
    hs_options_set_num(o, "pga", 3.0);
    hs_options_set_num(o, "duration", duration);
    hs_options_set_num(o, "dt", 0.01);
    if (envelope) hs_options_set_str(o, "envelope", envelope);
    if (zeta_g > 0.0) hs_options_set_num(o, "zeta_g", zeta_g);
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_ground_motion *gm = NULL;
    int rc = hs_ground_motion_create(ctx, "synthetic", o, &gm);
    if (rc) print_error("synthetic: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    hs_ctx_destroy(&ctx);
    hs_options_destroy(&o);
    return gm;
}

/* mean square of the samples with a <= t < b */
static double mean_square(const hs_ground_motion *gm, double a, double b)
{
    double s = 0.0;
    size_t n = 0;
    for (size_t i = 0; i < gm->npts; i++) {
        const double t = (double)i * gm->dt;
        if (t >= a && t < b) s += gm->acc[i] * gm->acc[i], n++;
    }
    return s / (double)n;
}

/* The test file's form {seed: 7, pga: 3.0, duration: 20, dt: 0.01}: exact PGA, repeatable. */
static void test_synthetic_pga_and_seed(void **state)
{
    (void)state;
    hs_ground_motion *a = synthetic(7, 20, NULL, 0);
    hs_ground_motion *b = synthetic(7, 20, NULL, 0);
    hs_ground_motion *c = synthetic(8, 20, NULL, 0);
    assert_int_equal(a->npts, 2001);
    assert_true(a->dt == 0.01);
    HS_ASSERT_NEAR(hs_ground_motion_pga(a) / 3.0 - 1.0, 0.0, 1e-12);
    assert_true(hs_ground_motion_pga(a) == 3.0); /* exact by construction */
    assert_true(hs_ground_motion_pga(c) == 3.0);
    assert_memory_equal(a->acc, b->acc, a->npts * sizeof(double));
    assert_true(memcmp(a->acc, c->acc, a->npts * sizeof(double)) != 0);
    size_t same = 0;
    for (size_t i = 0; i < a->npts; i++) same += a->acc[i] == c->acc[i];
    assert_true(same < 10);        /* seeds 7 and 8 share no stretch of samples */
    assert_true(a->acc[0] == 0.0); /* the Jennings envelope starts at zero */
    assert_non_null(strstr(a->source, "seed=7"));
    print_message("    seed 7: %zu points, PGA %.17g, peak at %.2f s\n", a->npts,
                  hs_ground_motion_pga(a), (double)peak_index(a) * a->dt);
    hs_ground_motion_destroy(&a);
    hs_ground_motion_destroy(&b);
    hs_ground_motion_destroy(&c);
}

/* Envelope: defaults rise t1 = 0.1 T, strong t2 = 0.5 T, decay to 5 % at T. For stationary
 * filtered noise the expected mean square in a window is sigma^2 times the mean of e(t)^2 there:
 * rise (t/t1)^4 -> 1/5, trapezoid rise (t/t1)^2 -> 1/3, Jennings tail
 * (1 - e^(-2 c (T - t2))) / (2 c (T - t2)) = (1 - 1/400) / (2 ln 20). Averaged over 32 seeds; the
 * tolerance is about 4 standard errors of that average (one record's ratio scatters by ~0.08). */
static void test_synthetic_envelope(void **state)
{
    (void)state;
    const int nseeds = 32;
    double jr = 0.0, jt = 0.0, tr = 0.0, tt = 0.0;
    for (int s = 0; s < nseeds; s++) {
        hs_ground_motion *j = synthetic(100 + s, 20, "jennings", 0);
        hs_ground_motion *t = synthetic(100 + s, 20, "trapezoid", 0);
        const double js = mean_square(j, 2, 10), ts = mean_square(t, 2, 10);
        assert_true(mean_square(j, 0, 2) < js); /* the rise is quieter than the strong part */
        assert_true(mean_square(t, 0, 2) < ts);
        jr += mean_square(j, 0, 2) / js / nseeds;
        jt += mean_square(j, 10, 20) / js / nseeds;
        tr += mean_square(t, 0, 2) / ts / nseeds;
        tt += mean_square(t, 10, 20) / ts / nseeds;
        assert_true(t->acc[t->npts - 1] == 0.0); /* the trapezoid ends at zero */
        hs_ground_motion_destroy(&j);
        hs_ground_motion_destroy(&t);
    }
    const double jennings_tail = (1.0 - 1.0 / 400.0) / (2.0 * log(20.0));
    print_message("    mean-square ratios to the strong part (32 seeds): jennings rise %.4f "
                  "(1/5), tail %.4f (%.4f); trapezoid rise %.4f (1/3), tail %.4f (1/3)\n",
                  jr, jt, jennings_tail, tr, tt);
    HS_ASSERT_NEAR(jr, 0.2, 0.06);
    HS_ASSERT_NEAR(jt, jennings_tail, 0.05);
    HS_ASSERT_NEAR(tr, 1.0 / 3.0, 0.07);
    HS_ASSERT_NEAR(tt, 1.0 / 3.0, 0.05);
}

/* Mean: the Kanai-Tajimi filter passes DC (|H(0)| = 1), so the mean of a record of length T is
 * not zero but random with var(mean) / rms^2 = 2 pi S(0) / (T sigma^2) = 4 zeta / (T omega_g
 * (1 + 4 zeta^2)) (sigma^2 = pi S0 omega_g (1 + 4 zeta^2) / (2 zeta)); the envelope cancels out.
 * Check the spread of mean/rms over 64 seeds against that, and each record within 5 sigma. */
static void test_synthetic_mean(void **state)
{
    (void)state;
    const double T = 20.0, zeta = 0.6, omega = 15.6;
    const double sd = sqrt(4.0 * zeta / (T * omega * (1.0 + 4.0 * zeta * zeta)));
    const int nseeds = 64;
    double sq = 0.0, avg = 0.0;
    for (int s = 0; s < nseeds; s++) {
        hs_ground_motion *g = synthetic(1000 + s, T, NULL, 0);
        double mean = 0.0, ms = 0.0;
        for (size_t i = 0; i < g->npts; i++) mean += g->acc[i], ms += g->acc[i] * g->acc[i];
        mean /= (double)g->npts;
        const double q = mean / sqrt(ms / (double)g->npts);
        assert_true(fabs(q) < 5.0 * sd);
        sq += q * q / nseeds;
        avg += q / nseeds;
        hs_ground_motion_destroy(&g);
    }
    print_message("    mean/rms over %d seeds: average %.4f, spread %.4f (theory 0 and %.4f)\n",
                  nseeds, avg, sqrt(sq), sd);
    HS_ASSERT_NEAR(avg, 0.0, 4.0 * sd / sqrt(nseeds));
    HS_ASSERT_NEAR(sqrt(sq) / sd, 1.0, 0.35); /* 4 standard errors of an rms of 64 */
}

/* In-place radix-2 FFT of n = 2^k complex values (re, im). */
static void fft(double *re, double *im, size_t n)
{
    for (size_t i = 1, j = 0; i < n; i++) {
        size_t bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) {
            double t = re[i];
            re[i] = re[j], re[j] = t;
            t = im[i];
            im[i] = im[j], im[j] = t;
        }
    }
    for (size_t len = 2; len <= n; len <<= 1) {
        const double ang = -2.0 * PI / (double)len;
        for (size_t i = 0; i < n; i += len)
            for (size_t k = 0; k < len / 2; k++) {
                const double c = cos(ang * (double)k), s = sin(ang * (double)k);
                const double xr = re[i + k + len / 2], xi = im[i + k + len / 2];
                const double tr = xr * c - xi * s, ti = xr * s + xi * c;
                re[i + k + len / 2] = re[i + k] - tr, im[i + k + len / 2] = im[i + k] - ti;
                re[i + k] += tr, im[i + k] += ti;
            }
    }
}

/* |H_KT(omega)|^2 */
static double kt_gain2(double w, double wg, double z)
{
    const double a = wg * wg - w * w, b = 2.0 * z * wg * w;
    return (wg * wg * wg * wg + b * b) / (a * a + b * b);
}

#define SEG   1024 /* periodogram segment (10.24 s) */
#define NSEG  256  /* segments averaged (Welch, Hann window, no overlap) */
#define HALF  4    /* moving average over 2 HALF + 1 frequencies */
#define NBIN  (SEG / 2)
#define SUB   16 /* quadrature points per frequency step for the window's kernel */
#define REACH 8  /* kernel kept over +-REACH frequency steps (Hann sidelobes fall as k^-6) */

/* The exact spectrum of the sampled record: the noise is held over each step, so the samples are
 * y_k = sum_j w_j g_(k-j) with g_m = (h * box)(m dt), box = 1 on [0, dt), and by Poisson's sum
 * G(omega) = (1/dt) sum_n H(omega_n) B(omega_n), omega_n = omega + 2 pi n / dt,
 * B(nu) = (1 - e^(-i nu dt)) / (i nu), H the Kanai-Tajimi transfer function. The terms fall as
 * 1/n^2; beyond 60 aliases on each side they add ~1e-4 of the spectrum. */
static double kt_sampled(double w, double wg, double z, double dt)
{
    double complex sum = 0.0;
    for (int n = -60; n <= 60; n++) {
        const double nu = w + 2.0 * PI * n / dt;
        const double complex h =
            (wg * wg + 2.0 * I * z * wg * nu) / (wg * wg - nu * nu + 2.0 * I * z * wg * nu);
        const double complex b = nu != 0.0 ? (1.0 - cexp(-I * nu * dt)) / (I * nu) : dt;
        sum += h * b;
    }
    return creal(sum * conj(sum)) / (dt * dt);
}

typedef struct kt_figures {
    double peak_est, peak_exact, peak_smoothed, band_lo, band_hi, worst_shape, sigma;
} kt_figures;

/* parabola through three equally spaced values: offset of its top from the middle one */
static double parabola_top(double ym, double y0, double yp)
{
    return 0.5 * (ym - yp) / (ym - 2.0 * y0 + yp);
}

/* Spectrum of a long stationary record (envelope none) against the theory. The estimate is the
 * Welch average of Hann-windowed periodograms; its expectation is the sampled spectrum seen
 * through the window's kernel |W(nu)|^2, which the theory side applies too (quadrature), and both
 * are smoothed alike. Relative standard error from the window: adjacent Hann periodogram values
 * correlate by r_k = (sum w^2 cos(2 pi n k / SEG) / sum w^2)^2 (4/9, 1/36), so the smoothed
 * estimate's error is sqrt((2H+1) + 2 sum (2H+1-k) r_k) / (2H+1) / sqrt(NSEG) = 2.8 %. */
static void kt_spectrum(double zeta, kt_figures *f)
{
    const double wg = 15.6, dt = 0.01;
    hs_ground_motion *g = synthetic(2024, (double)(SEG * NSEG - 1) * dt, "none", zeta);
    assert_int_equal(g->npts, SEG * NSEG);
    static double win[SEG], re[SEG], im[SEG], pw[NBIN], th[NBIN], ps[NBIN], ts[NBIN];
    static double kern[2 * REACH * SUB + 1];
    for (int i = 0; i < SEG; i++) win[i] = 0.5 * (1.0 - cos(2.0 * PI * i / SEG));
    memset(pw, 0, sizeof pw);
    for (int s = 0; s < NSEG; s++) {
        for (int i = 0; i < SEG; i++) re[i] = win[i] * g->acc[s * SEG + i], im[i] = 0.0;
        fft(re, im, SEG);
        for (int j = 0; j < NBIN; j++) pw[j] += re[j] * re[j] + im[j] * im[j];
    }
    hs_ground_motion_destroy(&g);
    const double dw = 2.0 * PI / (SEG * dt);
    /* |W(delta)|^2 on the quadrature grid; the overall scale is fitted below */
    for (int q = -REACH * SUB; q <= REACH * SUB; q++) {
        const double nu = (double)q / SUB * dw * dt;
        double wr = 0.0, wi = 0.0;
        for (int n = 0; n < SEG; n++) wr += win[n] * cos(nu * n), wi -= win[n] * sin(nu * n);
        kern[q + REACH * SUB] = wr * wr + wi * wi;
    }
    const int j0 = (int)ceil(0.2 * wg / dw), j1 = (int)floor(3.0 * wg / dw);
    for (int j = j0 - HALF; j <= j1 + HALF; j++) {
        th[j] = 0.0;
        for (int q = -REACH * SUB; q <= REACH * SUB; q++)
            th[j] +=
                kt_sampled(j * dw + (double)q / SUB * dw, wg, zeta, dt) * kern[q + REACH * SUB];
    }
    for (int j = j0; j <= j1; j++) {
        ps[j] = ts[j] = 0.0;
        for (int k = -HALF; k <= HALF; k++) ps[j] += pw[j + k], ts[j] += th[j + k];
    }
    double w2[2 * HALF + 1];
    for (int k = 0; k <= 2 * HALF; k++) {
        w2[k] = 0.0;
        for (int n = 0; n < SEG; n++) w2[k] += win[n] * win[n] * cos(2.0 * PI * n * k / SEG);
    }
    double var = 2.0 * HALF + 1.0;
    for (int k = 1; k <= 2 * HALF; k++)
        var += 2.0 * (2.0 * HALF + 1.0 - k) * (w2[k] / w2[0]) * (w2[k] / w2[0]);
    const double sigma = sqrt(var) / (2.0 * HALF + 1.0) / sqrt((double)NSEG);
    /* compare over 0.2 .. 3 omega_g, scale fitted as the ratio of sums */
    double sp = 0.0, st = 0.0;
    for (int j = j0; j <= j1; j++) sp += ps[j], st += ts[j];
    const double c = sp / st;
    int jmax = j0, tmax = j0;
    f->worst_shape = 0.0;
    for (int j = j0; j <= j1; j++) {
        f->worst_shape = fmax(f->worst_shape, fabs(ps[j] / (c * ts[j]) - 1.0) / sigma);
        if (ps[j] > ps[jmax]) jmax = j;
        if (ts[j] > ts[tmax]) tmax = j;
    }
    /* estimated peak, and that of the smoothed theory, refined by parabolas */
    f->peak_est = (jmax + parabola_top(ps[jmax - 1], ps[jmax], ps[jmax + 1])) * dw;
    f->peak_smoothed = (tmax + parabola_top(ts[tmax - 1], ts[tmax], ts[tmax + 1])) * dw;
    /* exact peak of |H|^2: d/du [(1 + 4 z^2 u) / ((1 - u)^2 + 4 z^2 u)] = 0 with u = (w/wg)^2
     * gives 2 z^2 u^2 + u - 1 = 0 */
    f->peak_exact = wg * sqrt((sqrt(1.0 + 8.0 * zeta * zeta) - 1.0) / (4.0 * zeta * zeta));
    for (int k = 1; k <= 100; k++) { /* it is the maximum of |H|^2 */
        assert_true(kt_gain2(f->peak_exact, wg, zeta) >
                    kt_gain2(f->peak_exact * (1.0 + 1e-3 * k), wg, zeta));
        assert_true(kt_gain2(f->peak_exact, wg, zeta) >
                    kt_gain2(f->peak_exact * (1.0 - 1e-3 * k), wg, zeta));
    }
    /* where the smoothed theory stays within 4.5 sigma of its top, widened by one frequency step */
    int lo = tmax, hi = tmax;
    while (lo > j0 && ts[lo - 1] >= (1.0 - 4.5 * sigma) * ts[tmax]) lo--;
    while (hi < j1 && ts[hi + 1] >= (1.0 - 4.5 * sigma) * ts[tmax]) hi++;
    f->band_lo = (lo - 1) * dw;
    f->band_hi = (hi + 1) * dw;
    f->sigma = sigma;
}

static void test_synthetic_spectrum(void **state)
{
    (void)state;
    const double zetas[2] = {0.6, 0.2};
    for (int k = 0; k < 2; k++) {
        kt_figures f;
        kt_spectrum(zetas[k], &f);
        print_message("    zeta_g %.1f: spectral peak %.2f rad/s; exact |H|^2 peak %.2f, smoothed "
                      "theory's %.2f (omega_g 15.6); band [%.2f, %.2f]; shape misfit at most "
                      "%.2f x the standard error %.2f %%\n",
                      zetas[k], f.peak_est, f.peak_exact, f.peak_smoothed, f.band_lo, f.band_hi,
                      f.worst_shape, 100.0 * f.sigma);
        assert_true(f.peak_exact >= f.band_lo && f.peak_exact <= f.band_hi);
        assert_true(f.peak_est >= f.band_lo && f.peak_est <= f.band_hi);
        assert_true(f.worst_shape < 5.0);
    }
}

static void test_synthetic_options(void **state)
{
    (void)state;
    struct {
        const char *key;
        double value;
        const char *what;
    } bad[] = {
        {"seed", -1, "seed"},
        {"seed", 1.5, "seed"},
        {"pga", 0, "pga"},
        {"dt", 0, "dt"},
        {"duration", 0.001, "duration"},
        {"omega_g", 400, "Nyquist"},
        {"zeta_g", 0, "zeta_g"},
        {"rise", 15, "rise"},
        {"decay", -1, "decay"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        hs_options *o = NULL;
        hs_options_create(&o);
        hs_options_set_num(o, "seed", 7);
        hs_options_set_num(o, "pga", 3);
        hs_options_set_num(o, "duration", 20);
        hs_options_set_num(o, "dt", 0.01);
        hs_options_set_num(o, "strong", 8);
        hs_options_set_num(o, bad[k].key, bad[k].value);
        const char *needles[] = {bad[k].what, NULL};
        expect_failure("synthetic", o, HS_EINPUT, needles);
        hs_options_destroy(&o);
    }
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_num(o, "seed", 7);
    hs_options_set_num(o, "pga", 3);
    hs_options_set_num(o, "duration", 20);
    const char *needles[] = {"missing parameter 'dt'", NULL};
    expect_failure("synthetic", o, HS_EINPUT, needles);
    hs_options_set_num(o, "dt", 0.01);
    hs_options_set_str(o, "envelope", "boxcar");
    const char *env[] = {"unknown envelope 'boxcar'", NULL};
    expect_failure("synthetic", o, HS_EINPUT, env);
    hs_options_destroy(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_at2_elcentro),
        cmocka_unit_test(test_columns_elcentro),
        cmocka_unit_test(test_formats),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_interpolation),
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_random_reference),
        cmocka_unit_test(test_synthetic_pga_and_seed),
        cmocka_unit_test(test_synthetic_envelope),
        cmocka_unit_test(test_synthetic_mean),
        cmocka_unit_test(test_synthetic_spectrum),
        cmocka_unit_test(test_synthetic_options),
        cmocka_unit_test(test_lead_trail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
