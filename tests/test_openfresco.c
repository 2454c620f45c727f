/* OpenFresco protocols A and B. The clients that drive the server sessions here are written
 * from the byte layout of /work/shared/docs/PROTOCOL.md (hand-built little-endian int32 and
 * float64 arrays, the worked example's literal sizes bytes), not from the library's encoders;
 * expected replies are K d, K, C, M of a linear 2-DOF backend worked out by hand. Malformed
 * input is refused or ignored as docs/openfresco.md says. Then the library's clients talk to
 * its servers in memory. */
#include "hs_test.h"

#include "hysim/openfresco.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- bytes written by hand from PROTOCOL.md: little-endian int32 and IEEE float64 ---- */
static void put_i32(uint8_t *p, int32_t v)
{
    const uint32_t u = (uint32_t)v;
    p[0] = (uint8_t)(u & 0xffu);
    p[1] = (uint8_t)((u >> 8) & 0xffu);
    p[2] = (uint8_t)((u >> 16) & 0xffu);
    p[3] = (uint8_t)(u >> 24);
}

static void put_f64(uint8_t *p, double x)
{
    uint64_t u;
    memcpy(&u, &x, 8);
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(u >> (8 * i));
}

static double get_f64(const uint8_t *p)
{
    uint64_t u = 0;
    for (int i = 0; i < 8; i++) u |= (uint64_t)p[i] << (8 * i);
    double x;
    memcpy(&x, &u, 8);
    return x;
}

/* A dataSize-double message: the given values, then zeros. */
static size_t msg(uint8_t *out, size_t ds, const double *v, size_t nv)
{
    memset(out, 0, ds * 8);
    for (size_t i = 0; i < nv; i++) put_f64(out + 8 * i, v[i]);
    return ds * 8;
}

static size_t sizes_msg(uint8_t *out, const int32_t ctrl[5], const int32_t daq[5], int32_t ds)
{
    for (int g = 0; g < 5; g++) put_i32(out + 4 * g, ctrl[g]);
    for (int g = 0; g < 5; g++) put_i32(out + 20 + 4 * g, daq[g]);
    put_i32(out + 40, ds);
    return 44;
}

/* ---- a linear 2-DOF backend: K = [3 -1; -2 5] (not symmetric: the column order shows),
 * C = diag(0.125, 0.25), M = diag(2, 3), K0 = K ---- */
typedef struct lin {
    int n;
    double K[4], C[4], M[4];
    double d[2], v[2], a[2], t;
    int trials, commits, closes, has_v;
    double commit_t;
} lin;

static lin lin_make(void)
{
    lin L;
    memset(&L, 0, sizeof L);
    L.n = 2;
    const double K[4] = {3.0, -2.0, -1.0, 5.0}; /* column-major: K11, K21, K12, K22 */
    const double C[4] = {0.125, 0.0, 0.0, 0.25};
    const double M[4] = {2.0, 0.0, 0.0, 3.0};
    memcpy(L.K, K, sizeof K);
    memcpy(L.C, C, sizeof C);
    memcpy(L.M, M, sizeof M);
    return L;
}

static int lin_trial(void *u, const double *d, const double *v, const double *a, double t)
{
    lin *L = u;
    memcpy(L->d, d, 2 * sizeof *d);
    L->has_v = v != NULL;
    if (v) memcpy(L->v, v, 2 * sizeof *v);
    if (a) memcpy(L->a, a, 2 * sizeof *a);
    L->t = t;
    L->trials++;
    return 0;
}

static int lin_force(void *u, double *f)
{
    lin *L = u;
    f[0] = L->K[0] * L->d[0] + L->K[2] * L->d[1];
    f[1] = L->K[1] * L->d[0] + L->K[3] * L->d[1];
    return 0;
}

static int lin_K(void *u, double *K)
{
    memcpy(K, ((lin *)u)->K, 4 * sizeof *K);
    return 0;
}

static int lin_C(void *u, double *C)
{
    memcpy(C, ((lin *)u)->C, 4 * sizeof *C);
    return 0;
}

static int lin_M(void *u, double *M)
{
    memcpy(M, ((lin *)u)->M, 4 * sizeof *M);
    return 0;
}

static int lin_commit(void *u, double t)
{
    lin *L = u;
    L->commits++;
    L->commit_t = t;
    return 0;
}

static void lin_close(void *u)
{
    ((lin *)u)->closes++;
}

static hs_ofr_backend lin_backend(lin *L)
{
    hs_ofr_backend b = {L,     lin_trial, NULL,  lin_force,  lin_K,
                        lin_K, lin_C,     lin_M, lin_commit, lin_close};
    return b;
}

static void quiet(void *user, hs_log_level level, const char *message)
{
    (void)user;
    (void)level;
    (void)message;
}

static hs_ctx *quiet_ctx(void)
{
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_ctx_set_logger(ctx, quiet, NULL, HS_LOG_ERROR);
    return ctx;
}

static hs_ofr_server *server(hs_ctx *ctx, hs_ofr_proto p, lin *L, int32_t tag)
{
    hs_ofr_server_config cfg = {2, 0, tag};
    hs_ofr_backend b = lin_backend(L);
    hs_ofr_server *s = NULL;
    assert_int_equal(hs_ofr_server_create(ctx, p, &cfg, &b, &s), 0);
    return s;
}

/* Feeds bytes in chunks of 1..chunk bytes; appends every reply to rep (cap bytes). Returns the
 * reply bytes, or asserts the feed code. */
static size_t drive(hs_ofr_server *s, const uint8_t *in, size_t n, size_t chunk, uint8_t *rep,
                    size_t cap, int expect_rc)
{
    size_t off = 0, got = 0, k = 0;
    int rc = 0;
    while (off < n) {
        size_t len = chunk <= 1 ? 1 : 1 + (k++ * 7919u) % chunk;
        if (len > n - off) len = n - off;
        size_t used = 0;
        rc = hs_ofr_server_feed(s, in + off, len, &used);
        off += used;
        size_t rl = 0;
        const uint8_t *r = hs_ofr_server_reply(s, &rl);
        if (r) {
            assert_true(got + rl <= cap);
            memcpy(rep + got, r, rl);
            got += rl;
            hs_ofr_server_reply_sent(s);
        }
        if (rc) break;
        if (used == 0 && !r) fail_msg("feed consumed nothing and has no reply");
    }
    assert_int_equal(rc, expect_rc);
    return got;
}

/* The worked example of PROTOCOL.md, byte for byte, in several chunkings. */
static void test_a_worked_example(void **state)
{
    (void)state;
    static const uint8_t sizes[44] = {
        0x02, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00};
    /* 3.0 and 0.5 as IEEE bytes, to pin the float64 layout itself */
    static const uint8_t three[8] = {0, 0, 0, 0, 0, 0, 0x08, 0x40};
    static const uint8_t half[8] = {0, 0, 0, 0, 0, 0, 0xe0, 0x3f};
    uint8_t in[44 + 7 * 64], want[4 * 64], rep[4 * 64];
    size_t n = 0;
    memcpy(in, sizes, 44);
    n = 44;
    const double trial[8] = {3.0, 0.5, -0.25, 0, 0, 0, 0, 0.02};
    n += msg(in + n, 8, trial, 8);
    assert_memory_equal(in + 44, three, 8);
    assert_memory_equal(in + 52, half, 8);
    const double codes[6] = {13.0, 10.0, 12.0, 15.0, 5.0, 99.0};
    for (int i = 0; i < 6; i++) {
        double v[8];
        memcpy(v, trial, sizeof v);
        v[0] = codes[i]; /* the reused buffer: trial data rides along */
        n += msg(in + n, 8, v, 8);
    }
    /* replies: K column-major, K d = [3*0.5 + 0.25, -1 - 1.25], K, M */
    const double K[4] = {3.0, -2.0, -1.0, 5.0}, f[2] = {1.75, -2.25}, M[4] = {2, 0, 0, 3};
    size_t w = 0;
    w += msg(want + w, 8, K, 4);
    w += msg(want + w, 8, f, 2);
    w += msg(want + w, 8, K, 4);
    w += msg(want + w, 8, M, 4);
    const size_t chunks[4] = {1, 5, 64, 4096};
    for (int c = 0; c < 4; c++) {
        hs_ctx *ctx = quiet_ctx();
        lin L = lin_make();
        hs_ofr_server *s = server(ctx, HS_OFR_PROTO_A, &L, 0);
        assert_int_equal(hs_ofr_server_state(s), HS_OFR_HANDSHAKE);
        const size_t got = drive(s, in, n, chunks[c], rep, sizeof rep, 0);
        assert_int_equal(got, w);
        assert_memory_equal(rep, want, w);
        assert_int_equal(L.trials, 1);
        assert_true(L.d[0] == 0.5 && L.d[1] == -0.25 && L.t == 0.02 && L.has_v);
        assert_int_equal(L.commits, 1);
        assert_true(L.commit_t == 0.02);
        assert_int_equal(L.closes, 1);
        assert_int_equal(hs_ofr_server_state(s), HS_OFR_CLOSED);
        const hs_ofr_sizes *sz = hs_ofr_server_sizes(s);
        assert_int_equal(sz->data_size, 8);
        assert_int_equal(sz->daq[HS_OFR_FORCE], 2);
        hs_ofr_stats st;
        hs_ofr_server_stats(s, &st);
        assert_int_equal(st.messages, 8);
        assert_int_equal(st.replies, 4);
        assert_int_equal(st.unknown_codes + st.bad_values + st.backend_errors, 0);
        /* after 99: bytes are swallowed, nothing is answered */
        size_t used = 0;
        assert_int_equal(hs_ofr_server_feed(s, in + 44, 64, &used), 0);
        assert_int_equal(used, 64);
        assert_null(hs_ofr_server_reply(s, &used));
        hs_ofr_server_destroy(&s);
        assert_null(s);
        hs_ctx_destroy(&ctx);
    }
}

/* OpenSees genericClient: sizes [n,n,n,0,1, 0,0,0,n,0, max(256, 1+3n+1, n^2)], its message
 * pattern (trial at t = 0 with zeros, 12 and 15 once, per step 3, 10, 14, 13, 3, 10, 14, 5),
 * replies of dataSize doubles packed from index 0; nothing allocated after the sizes. */
static void test_a_opensees_generic_client(void **state)
{
    (void)state;
    hs_ctx *ctx = quiet_ctx();
    lin L = lin_make();
    hs_ofr_server *s = server(ctx, HS_OFR_PROTO_A, &L, 0);
    const int32_t ds = 256; /* max(256, 8, 4) */
    const int32_t ctrl[5] = {2, 2, 2, 0, 1}, daq[5] = {0, 0, 0, 2, 0};
    static uint8_t in[2048 * 8], rep[2048 * 8], want[2048 * 8];
    size_t n = sizes_msg(in, ctrl, daq, ds);
    assert_int_equal(drive(s, in, n, 4096, rep, sizeof rep, 0), 0);
    assert_int_equal(hs_ofr_server_state(s), HS_OFR_RUNNING);
    const uint64_t allocs = hs_alloc_count();
    double v[8] = {3.0, 0, 0, 0, 0, 0, 0, 0.0};
    n = msg(in, (size_t)ds, v, 8);
    assert_int_equal(drive(s, in, n, 4096, rep, sizeof rep, 0), 0); /* no reply to 3 */
    assert_int_equal(L.trials, 1);
    v[0] = 12.0;
    n = msg(in, (size_t)ds, v, 8);
    assert_int_equal(drive(s, in, n, 4096, rep, sizeof rep, 0), (size_t)ds * 8);
    const double K[4] = {3.0, -2.0, -1.0, 5.0}, M[4] = {2, 0, 0, 3}, C[4] = {0.125, 0, 0, 0.25};
    msg(want, (size_t)ds, K, 4);
    assert_memory_equal(rep, want, (size_t)ds * 8);
    v[0] = 15.0;
    n = msg(in, (size_t)ds, v, 8);
    assert_int_equal(drive(s, in, n, 4096, rep, sizeof rep, 0), (size_t)ds * 8);
    msg(want, (size_t)ds, M, 4);
    assert_memory_equal(rep, want, (size_t)ds * 8);
    for (int step = 1; step <= 20; step++) {
        const double t = 0.01 * step, d1 = 0.001 * step, d2 = -0.0005 * step * step;
        const double tv[8] = {3.0, d1, d2, 0.5 * step, -0.25, 1.0, 2.0, t};
        const int seq[8] = {3, 10, 14, 13, 3, 10, 14, 5};
        for (int k = 0; k < 8; k++) {
            double m[8];
            memcpy(m, tv, sizeof m);
            m[0] = seq[k];
            n = msg(in, (size_t)ds, m, 8);
            const size_t got = drive(s, in, n, 97, rep, sizeof rep, 0);
            if (seq[k] == 3 || seq[k] == 5) {
                assert_int_equal(got, 0);
                continue;
            }
            assert_int_equal(got, (size_t)ds * 8);
            if (seq[k] == 10) {
                const double f[2] = {3.0 * d1 - d2, -2.0 * d1 + 5.0 * d2};
                msg(want, (size_t)ds, f, 2);
            } else {
                msg(want, (size_t)ds, seq[k] == 14 ? C : K, 4);
            }
            assert_memory_equal(rep, want, (size_t)ds * 8);
        }
        assert_true(L.v[0] == 0.5 * step && L.a[1] == 2.0 && L.t == t);
        assert_int_equal(L.commits, step);
        assert_true(L.commit_t == t);
    }
    assert_true(hs_alloc_count() == allocs);
    v[0] = 99.0;
    n = msg(in, (size_t)ds, v, 8);
    assert_int_equal(drive(s, in, n, 4096, rep, sizeof rep, 0), 0);
    assert_int_equal(hs_ofr_server_state(s), HS_OFR_CLOSED);
    assert_int_equal(L.closes, 1);
    hs_ofr_server_destroy(&s);
    hs_ctx_destroy(&ctx);
}

/* A 17-DOF genericClient: dataSize = n^2 = 289 > 256; the 17 x 17 tangent comes back whole. */
typedef struct big {
    double K[289];
} big;
static int big_K(void *u, double *K)
{
    memcpy(K, ((big *)u)->K, sizeof((big *)u)->K);
    return 0;
}

static void test_a_big_matrix(void **state)
{
    (void)state;
    hs_ctx *ctx = quiet_ctx();
    big B;
    for (int i = 0; i < 289; i++) B.K[i] = (i % 17 == i / 17) ? 100.0 + i : 1.0 / (1.0 + i);
    hs_ofr_backend b = {0};
    b.user = &B;
    b.get_tangent_stiffness = big_K;
    hs_ofr_server_config cfg = {17, 0, 0};
    hs_ofr_server *s = NULL;
    assert_int_equal(hs_ofr_server_create(ctx, HS_OFR_PROTO_A, &cfg, &b, &s), 0);
    const int32_t ctrl[5] = {17, 17, 17, 0, 1}, daq[5] = {0, 0, 0, 17, 0};
    static uint8_t in[289 * 8], rep[289 * 8];
    size_t n = sizes_msg(in, ctrl, daq, 289);
    drive(s, in, n, 4096, rep, sizeof rep, 0);
    const double v[1] = {13.0};
    n = msg(in, 289, v, 1);
    assert_int_equal(drive(s, in, n, 4096, rep, sizeof rep, 0), 289 * 8);
    for (int i = 0; i < 289; i++) assert_true(get_f64(rep + 8 * i) == B.K[i]);
    /* force with no get_force: zeros, still answered */
    const double f[1] = {10.0};
    n = msg(in, 289, f, 1);
    assert_int_equal(drive(s, in, n, 4096, rep, sizeof rep, 0), 289 * 8);
    for (int i = 0; i < 289; i++) assert_true(get_f64(rep + 8 * i) == 0.0);
    hs_ofr_server_destroy(&s);
    hs_ctx_destroy(&ctx);
}

/* OpenFresco expElement -server: sizeCtrl [n,n,n,0,1], sizeDaq [n,n,n,n,1], dataSize
 * max(256, 4n+1); 6 answers [d, v, a, K d, t] from index 0. */
static void test_a_expelement(void **state)
{
    (void)state;
    hs_ctx *ctx = quiet_ctx();
    lin L = lin_make();
    hs_ofr_server *s = server(ctx, HS_OFR_PROTO_A, &L, 0);
    const int32_t ctrl[5] = {2, 2, 2, 0, 1}, daq[5] = {2, 2, 2, 2, 1};
    static uint8_t in[256 * 8], rep[256 * 8], want[256 * 8];
    size_t n = sizes_msg(in, ctrl, daq, 256);
    drive(s, in, n, 4096, rep, sizeof rep, 0);
    const double tv[8] = {3.0, 0.5, 0.25, -1.0, 2.0, 4.0, -8.0, 1.5};
    n = msg(in, 256, tv, 8);
    assert_int_equal(drive(s, in, n, 4096, rep, sizeof rep, 0), 0);
    double m[8];
    memcpy(m, tv, sizeof m);
    m[0] = 6.0;
    n = msg(in, 256, m, 8);
    assert_int_equal(drive(s, in, n, 4096, rep, sizeof rep, 0), 256 * 8);
    /* K d = [1.5 - 0.25, -1 + 1.25] */
    const double daqv[9] = {0.5, 0.25, -1.0, 2.0, 4.0, -8.0, 1.25, 0.25, 1.5};
    msg(want, 256, daqv, 9);
    assert_memory_equal(rep, want, 256 * 8);
    /* 7, 8, 9, 11: single groups from index 0 */
    const double g7[2] = {0.5, 0.25}, g8[2] = {-1.0, 2.0}, g9[2] = {4.0, -8.0}, g11[1] = {1.5};
    const double *g[4] = {g7, g8, g9, g11};
    const int codes[4] = {7, 8, 9, 11};
    for (int k = 0; k < 4; k++) {
        m[0] = codes[k];
        n = msg(in, 256, m, 8);
        assert_int_equal(drive(s, in, n, 4096, rep, sizeof rep, 0), 256 * 8);
        msg(want, 256, g[k], codes[k] == 11 ? 1 : 2);
        assert_memory_equal(rep, want, 256 * 8);
    }
    /* 1, 2, 4 are accepted silently */
    for (int c = 1; c <= 4; c += (c == 2 ? 2 : 1)) {
        m[0] = c;
        n = msg(in, 256, m, 8);
        assert_int_equal(drive(s, in, n, 4096, rep, sizeof rep, 0), 0);
    }
    hs_ofr_stats st;
    hs_ofr_server_stats(s, &st);
    assert_int_equal(st.unknown_codes, 0);
    hs_ofr_server_destroy(&s);
    hs_ctx_destroy(&ctx);
}

/* Malformed protocol A input: refused before allocating, or ignored, never a crash. */
static void test_a_malformed(void **state)
{
    (void)state;
    hs_ctx *ctx = quiet_ctx();
    uint8_t in[64 * 16], rep[64 * 16];
    struct {
        int32_t ctrl[5], daq[5], ds;
    } bad[] = {
        {{-1, 2, 2, 0, 1}, {0, 0, 0, 2, 0}, 256},         /* negative */
        {{2, 2, 2, 0, 1}, {0, 0, 0, -2, 0}, 256},         /* negative daq */
        {{2, 2, 2, 0, 1}, {0, 0, 0, 2, 0}, -8},           /* negative dataSize */
        {{2, 2, 2, 0, 1}, {0, 0, 0, 2, 0}, 0x7fffffff},   /* huge */
        {{2, 2, 2, 0, 1}, {0, 0, 0, 2, 0}, 65537},        /* just above the bound */
        {{2, 2, 2, 0, 1}, {0, 0, 0, 2, 0}, 7},            /* 1 + 2 + 2 + 2 + 1 = 8 needed */
        {{3, 3, 3, 0, 1}, {0, 0, 0, 3, 0}, 256},          /* not this site's n */
        {{2, 2, 2, 2, 1}, {0, 0, 0, 2, 0}, 256},          /* force control */
        {{2, 2, 2, 0, 2}, {0, 0, 0, 2, 0}, 256},          /* two times */
        {{2, 0x7fffffff, 2, 0, 1}, {0, 0, 0, 2, 0}, 256}, /* overflowing sums */
        {{2, 2, 2, 0, 1}, {0x7fffffff, 0, 0, 2, 0}, 256},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        lin L = lin_make();
        hs_ofr_server *s = server(ctx, HS_OFR_PROTO_A, &L, 0);
        const size_t n = sizes_msg(in, bad[k].ctrl, bad[k].daq, bad[k].ds);
        const uint64_t allocs = hs_alloc_count();
        assert_int_equal(drive(s, in, n, 4096, rep, sizeof rep, HS_EPROTO), 0);
        assert_true(hs_alloc_count() == allocs);
        assert_int_equal(hs_ofr_server_state(s), HS_OFR_FAILED);
        assert_true(strstr(hs_ctx_message(ctx), "OpenFresco sizes") != NULL);
        size_t used = 1;
        assert_int_equal(hs_ofr_server_feed(s, in, 8, &used), HS_EPROTO);
        assert_int_equal(used, 0);
        hs_ofr_server_destroy(&s);
    }
    /* truncated: the sizes, then 100 bytes of a 64-byte x 2 stream */
    lin L = lin_make();
    hs_ofr_server *s = server(ctx, HS_OFR_PROTO_A, &L, 0);
    const int32_t ctrl[5] = {2, 2, 2, 0, 1}, daq[5] = {0, 0, 0, 2, 0};
    size_t n = sizes_msg(in, ctrl, daq, 8);
    assert_int_equal(drive(s, in, 20, 4096, rep, sizeof rep, 0), 0);
    assert_int_equal(hs_ofr_server_partial(s), 20);
    assert_int_equal(hs_ofr_server_state(s), HS_OFR_HANDSHAKE);
    drive(s, in + 20, n - 20, 4096, rep, sizeof rep, 0);
    const double tr[8] = {3.0, 1.0, 1.0, 0, 0, 0, 0, 0.1};
    msg(in, 8, tr, 8);
    assert_int_equal(drive(s, in, 63, 4096, rep, sizeof rep, 0), 0);
    assert_int_equal(L.trials, 0);
    assert_int_equal(hs_ofr_server_partial(s), 63);
    drive(s, in + 63, 1, 1, rep, sizeof rep, 0);
    assert_int_equal(L.trials, 1);
    /* unknown codes: no reply, counted; the session goes on */
    const double unknown[] = {0.0, 16.0, 98.0, 100.0, 3.5, NAN, -1.0, 1e300, -INFINITY, 1001.0};
    const size_t nu = sizeof unknown / sizeof unknown[0];
    for (size_t k = 0; k < nu; k++) {
        const double m[1] = {unknown[k]};
        msg(in, 8, m, 1);
        assert_int_equal(drive(s, in, 64, 4096, rep, sizeof rep, 0), 0);
    }
    /* a non-finite trial is not applied */
    const double nan_trial[8] = {3.0, NAN, 0, 0, 0, 0, 0, 0.2};
    msg(in, 8, nan_trial, 8);
    assert_int_equal(drive(s, in, 64, 4096, rep, sizeof rep, 0), 0);
    assert_int_equal(L.trials, 1);
    const double f10[1] = {10.0};
    msg(in, 8, f10, 1);
    assert_int_equal(drive(s, in, 64, 4096, rep, sizeof rep, 0), 64);
    assert_true(get_f64(rep) == 2.0 && get_f64(rep + 8) == 3.0); /* K [1, 1] */
    hs_ofr_stats st;
    hs_ofr_server_stats(s, &st);
    assert_int_equal(st.unknown_codes, nu);
    assert_int_equal(st.bad_values, 1);
    assert_int_equal(hs_ofr_server_state(s), HS_OFR_RUNNING);
    /* a matrix that does not fit in dataSize 6 (n = 2 needs 4; fits) vs n^2 > dataSize */
    hs_ofr_server_destroy(&s);
    hs_ofr_server_config cfg3 = {3, 0, 0};
    lin L3 = lin_make();
    hs_ofr_backend b3 = lin_backend(&L3);
    assert_int_equal(hs_ofr_server_create(ctx, HS_OFR_PROTO_A, &cfg3, &b3, &s), 0);
    const int32_t c3[5] = {3, 0, 0, 0, 1}, d3[5] = {0, 0, 0, 3, 0};
    n = sizes_msg(in, c3, d3, 5);
    drive(s, in, n, 4096, rep, sizeof rep, 0);
    const double m13[1] = {13.0};
    msg(in, 5, m13, 1);
    assert_int_equal(drive(s, in, 40, 4096, rep, sizeof rep, 0), 40);
    for (int i = 0; i < 5; i++) assert_true(get_f64(rep + 8 * i) == 0.0);
    hs_ofr_server_stats(s, &st);
    assert_int_equal(st.short_replies, 1);
    hs_ofr_server_destroy(&s);
    /* bad configurations */
    hs_ofr_server_config cfg0 = {0, 0, 0};
    assert_int_equal(hs_ofr_server_create(ctx, HS_OFR_PROTO_A, &cfg0, &b3, &s), HS_EINVAL);
    assert_null(s);
    hs_ctx_destroy(&ctx);
}

/* Protocol B handshake and messages from hand-built bytes. */
static size_t b_handshake(uint8_t *in, int32_t ds, const int32_t ctrl[5], const int32_t daq[5])
{
    size_t n = 0;
    const uint8_t one[4] = {0x01, 0x00, 0x00, 0x00};
    memcpy(in, one, 4);
    n = 4;
    const double open[3] = {1.0, 7.0, 2.8};
    n += msg(in + n, 256, open, 3);
    const double setup[2] = {2.0, (double)ds};
    n += msg(in + n, 256, setup, 2);
    for (int g = 0; g < 5; g++) put_i32(in + n + 4 * g, ctrl[g]);
    for (int g = 0; g < 5; g++) put_i32(in + n + 20 + 4 * g, daq[g]);
    return n + 40;
}

static void test_b_actor_site(void **state)
{
    (void)state;
    hs_ctx *ctx = quiet_ctx();
    lin L = lin_make();
    hs_ofr_server *s = server(ctx, HS_OFR_PROTO_B, &L, 42);
    static uint8_t in[8192], rep[8192], want[8192];
    const int32_t ctrl[5] = {2, 0, 0, 0, 1}, daq[5] = {2, 0, 0, 2, 0};
    const size_t ds = 12;
    size_t n = b_handshake(in, (int32_t)ds, ctrl, daq);
    assert_int_equal(n, 4 + 2048 + 2048 + 40);
    /* replies: 01 00 00 00, then [0, 42, 2.8] in 256 doubles */
    const size_t got = drive(s, in, n, 333, rep, sizeof rep, 0);
    assert_int_equal(got, 4 + 2048);
    const uint8_t one[4] = {1, 0, 0, 0};
    assert_memory_equal(rep, one, 4);
    const double openr[3] = {0.0, 42.0, 2.8};
    msg(want, 256, openr, 3);
    assert_memory_equal(rep + 4, want, 2048);
    assert_int_equal(hs_ofr_server_client_tag(s), 7);
    assert_int_equal(hs_ofr_server_state(s), HS_OFR_RUNNING);
    /* trial [3, d1, d2, t]; daq [d1, d2, f1, f2]; commit time at slot 1 + 2 = 3 */
    const double tr[4] = {3.0, 0.5, -0.25, 0.02};
    n = msg(in, ds, tr, 4);
    assert_int_equal(drive(s, in, n, 4096, rep, sizeof rep, 0), 0);
    assert_true(L.d[0] == 0.5 && L.t == 0.02 && !L.has_v);
    const double g6[4] = {6.0, 0.5, -0.25, 0.02};
    n = msg(in, ds, g6, 4);
    assert_int_equal(drive(s, in, n, 4096, rep, sizeof rep, 0), ds * 8);
    const double daqv[4] = {0.5, -0.25, 1.75, -2.25};
    msg(want, ds, daqv, 4);
    assert_memory_equal(rep, want, ds * 8);
    const double c5[4] = {5.0, 0.5, -0.25, 0.04};
    n = msg(in, ds, c5, 4);
    assert_int_equal(drive(s, in, n, 4096, rep, sizeof rep, 0), 0);
    assert_int_equal(L.commits, 1);
    assert_true(L.commit_t == 0.04);
    /* codes outside 3/5/6/99 are ignored, even protocol A's getters */
    const double other[] = {10.0, 13.0, 1.0, 0.5, NAN};
    for (size_t k = 0; k < sizeof other / sizeof other[0]; k++) {
        const double m[1] = {other[k]};
        n = msg(in, ds, m, 1);
        assert_int_equal(drive(s, in, n, 4096, rep, sizeof rep, 0), 0);
    }
    const double die[1] = {99.0};
    n = msg(in, ds, die, 1);
    assert_int_equal(drive(s, in, n, 4096, rep, sizeof rep, 0), ds * 8);
    const double bye[2] = {4.0, 42.0};
    msg(want, ds, bye, 2);
    assert_memory_equal(rep, want, ds * 8);
    assert_int_equal(hs_ofr_server_state(s), HS_OFR_CLOSED);
    assert_int_equal(L.closes, 1);
    hs_ofr_stats st;
    hs_ofr_server_stats(s, &st);
    assert_int_equal(st.unknown_codes, 5);
    hs_ofr_server_destroy(&s);
    hs_ctx_destroy(&ctx);
}

static void test_b_malformed(void **state)
{
    (void)state;
    hs_ctx *ctx = quiet_ctx();
    static uint8_t in[8192], rep[8192];
    const int32_t ctrl[5] = {2, 0, 0, 0, 1}, daq[5] = {2, 0, 0, 2, 0};
    /* big-endian byte-order word, a wrong open code, bad setups */
    for (int k = 0; k < 7; k++) {
        lin L = lin_make();
        hs_ofr_server *s = server(ctx, HS_OFR_PROTO_B, &L, 42);
        int32_t ds = 12, c2[5], d2[5];
        memcpy(c2, ctrl, sizeof c2);
        memcpy(d2, daq, sizeof d2);
        if (k == 3) ds = 0x7fffffff;
        if (k == 4) ds = 3;
        if (k == 5) c2[0] = -2;
        if (k == 6) d2[3] = 5;
        size_t n = b_handshake(in, ds, c2, d2);
        if (k == 0) in[0] = 0, in[3] = 1;
        if (k == 1) put_f64(in + 4, 2.0);
        if (k == 2) put_f64(in + 4 + 2048 + 8, 12.5);
        const uint64_t allocs = hs_alloc_count();
        drive(s, in, n, 4096, rep, sizeof rep, HS_EPROTO);
        assert_true(hs_alloc_count() == allocs);
        assert_int_equal(hs_ofr_server_state(s), HS_OFR_FAILED);
        hs_ofr_server_destroy(&s);
    }
    hs_ctx_destroy(&ctx);
}

/* Pumps every queued byte between a client and a server until the client is ready again. */
static void pump(hs_ofr_client *c, hs_ofr_server *s)
{
    for (int guard = 0; guard < 100; guard++) {
        size_t len = 0, used = 0;
        const uint8_t *o = hs_ofr_client_output(c, &len);
        if (o) {
            /* in two pieces, to exercise the buffering */
            assert_int_equal(hs_ofr_server_feed(s, o, len / 3, &used), 0);
            assert_int_equal(used, len / 3);
            assert_int_equal(hs_ofr_server_feed(s, o + used, len - used, &used), 0);
            hs_ofr_client_output_sent(c);
        }
        const uint8_t *r = hs_ofr_server_reply(s, &len);
        if (r) {
            assert_int_equal(hs_ofr_client_feed(c, r, len, &used), 0);
            assert_int_equal(used, len);
            hs_ofr_server_reply_sent(s);
        }
        if (!o && !r) return;
    }
    fail_msg("client and server never settled");
}

/* A story spring between nodes i and j behind one actuator on the drift: T = [-1, 1]; the
 * actuator's spring k = 250 answers f = k (u_j - u_i); in basic DOFs q = [-f, f] and
 * K_basic = k [1 -1; -1 1]. The library's protocol A client drives the server in memory. */
typedef struct spring {
    double k, u, t;
    int trials;
} spring;
static int sp_trial(void *user, const double *u, const double *v, const double *a, double t)
{
    (void)v;
    (void)a;
    spring *S = user;
    S->u = u[0];
    S->t = t;
    S->trials++;
    return 0;
}
static int sp_force(void *user, double *f)
{
    spring *S = user;
    f[0] = S->k * S->u;
    return 0;
}
static int sp_K(void *user, double *K)
{
    K[0] = ((spring *)user)->k;
    return 0;
}

static void test_client_server_a_mapped(void **state)
{
    (void)state;
    hs_ctx *ctx = quiet_ctx();
    spring S = {250.0, 0.0, 0.0, 0};
    hs_ofr_backend inner = {0};
    inner.user = &S;
    inner.set_trial = sp_trial;
    inner.get_force = sp_force;
    inner.get_initial_stiffness = sp_K;
    inner.get_tangent_stiffness = sp_K;
    const double T[2] = {-1.0, 1.0};
    hs_ofr_map *map = NULL;
    assert_int_equal(hs_ofr_map_create(ctx, 1, 2, T, &inner, &map), 0);
    hs_ofr_server_config scfg = {2, 0, 0};
    hs_ofr_server *s = NULL;
    assert_int_equal(hs_ofr_server_create(ctx, HS_OFR_PROTO_A, &scfg, hs_ofr_map_backend(map), &s),
                     0);
    hs_ofr_client_config ccfg = {{{2, 2, 2, 0, 1}, {0, 0, 0, 2, 0}, 256}, 0, 0};
    hs_ofr_client *c = NULL;
    assert_int_equal(hs_ofr_client_create(ctx, HS_OFR_PROTO_A, &ccfg, &c), 0);
    assert_false(hs_ofr_client_ready(c));
    size_t len = 0;
    const uint8_t *o = hs_ofr_client_output(c, &len);
    assert_int_equal(len, 44);
    const uint8_t want_sizes[44] = {2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0,
                                    0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                    0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0};
    assert_memory_equal(o, want_sizes, 44);
    pump(c, s);
    assert_true(hs_ofr_client_ready(c));
    assert_int_equal(hs_ofr_client_request(c, HS_OFR_GET_INITIAL_STIFF), 0);
    pump(c, s);
    size_t nv = 0;
    const double *K = hs_ofr_client_reply(c, &nv);
    assert_int_equal(nv, 4);
    const double Kb[4] = {250.0, -250.0, -250.0, 250.0};
    for (int i = 0; i < 4; i++) assert_true(K[i] == Kb[i]);
    for (int step = 1; step <= 50; step++) {
        const double d[2] = {0.001 * step, 0.003 * step - 0.0001 * step * step};
        const double vel[2] = {1.0, 2.0};
        assert_int_equal(hs_ofr_client_set_trial(c, d, vel, NULL, 0.01 * step), 0);
        pump(c, s);
        assert_null(hs_ofr_client_reply(c, &nv));
        assert_int_equal(hs_ofr_client_request(c, HS_OFR_GET_FORCE), 0);
        pump(c, s);
        const double *q = hs_ofr_client_reply(c, &nv);
        assert_int_equal(nv, 2);
        const double f = 250.0 * (d[1] - d[0]);
        HS_ASSERT_NEAR(q[0], -f, 1e-13);
        HS_ASSERT_NEAR(q[1], f, 1e-13);
        assert_true(S.t == 0.01 * step);
        assert_int_equal(hs_ofr_client_request(c, HS_OFR_COMMIT), 0);
        pump(c, s);
    }
    assert_int_equal(S.trials, 50);
    /* B-only and unknown codes are refused by the client itself */
    assert_int_equal(hs_ofr_client_request(c, 42), HS_EINVAL);
    assert_int_equal(hs_ofr_client_request(c, HS_OFR_DIE), 0);
    pump(c, s);
    assert_int_equal(hs_ofr_client_state(c), HS_OFR_CLOSED);
    assert_int_equal(hs_ofr_server_state(s), HS_OFR_CLOSED);
    hs_ofr_client_destroy(&c);
    hs_ofr_server_destroy(&s);
    hs_ofr_map_destroy(&map);
    hs_ctx_destroy(&ctx);
}

/* ShadowSite client <-> ActorSite server in memory, with the linear backend. */
static void test_client_server_b(void **state)
{
    (void)state;
    hs_ctx *ctx = quiet_ctx();
    lin L = lin_make();
    hs_ofr_server *s = server(ctx, HS_OFR_PROTO_B, &L, 5);
    hs_ofr_client_config ccfg = {{{2, 0, 0, 0, 1}, {2, 0, 0, 2, 0}, 0}, 0, 9};
    hs_ofr_client *c = NULL;
    assert_int_equal(hs_ofr_client_create(ctx, HS_OFR_PROTO_B, &ccfg, &c), 0);
    assert_int_equal(hs_ofr_client_sizes(c)->data_size, 4); /* max(1 + 3, 4) */
    pump(c, s);
    assert_true(hs_ofr_client_ready(c));
    assert_int_equal(hs_ofr_client_server_tag(c), 5);
    assert_int_equal(hs_ofr_server_client_tag(s), 9);
    assert_int_equal(hs_ofr_server_sizes(s)->data_size, 4);
    assert_int_equal(hs_ofr_client_request(c, HS_OFR_GET_FORCE), HS_EINVAL); /* A only */
    for (int step = 1; step <= 30; step++) {
        const double d[2] = {0.25 * step, -0.125 * step}, t = 0.5 * step;
        assert_int_equal(hs_ofr_client_set_trial(c, d, NULL, NULL, t), 0);
        pump(c, s);
        assert_int_equal(hs_ofr_client_request(c, HS_OFR_GET_DAQ), 0);
        pump(c, s);
        size_t nv = 0;
        const double *daq = hs_ofr_client_reply(c, &nv);
        assert_int_equal(nv, 4);
        double dd[2], ff[2];
        assert_int_equal(hs_ofr_unpack(hs_ofr_client_sizes(c)->daq, daq, dd, NULL, NULL, ff, NULL),
                         4);
        assert_true(dd[0] == d[0] && dd[1] == d[1]);
        assert_true(ff[0] == 3.0 * d[0] - d[1] && ff[1] == -2.0 * d[0] + 5.0 * d[1]);
        assert_int_equal(hs_ofr_client_request(c, HS_OFR_COMMIT), 0);
        pump(c, s);
        assert_true(L.commit_t == t);
    }
    assert_int_equal(hs_ofr_client_request(c, HS_OFR_DIE), 0);
    pump(c, s);
    assert_int_equal(hs_ofr_client_state(c), HS_OFR_CLOSED);
    assert_int_equal(hs_ofr_server_state(s), HS_OFR_CLOSED);
    /* a late byte nobody asked for */
    const uint8_t z = 0;
    size_t used = 0;
    assert_int_equal(hs_ofr_client_feed(c, &z, 1, &used), HS_EPROTO);
    hs_ofr_client_destroy(&c);
    hs_ofr_server_destroy(&s);
    hs_ctx_destroy(&ctx);
}

/* A protocol B client refuses a server that answers another version. */
static void test_b_client_version(void **state)
{
    (void)state;
    hs_ctx *ctx = quiet_ctx();
    hs_ofr_client_config ccfg = {{{1, 0, 0, 0, 1}, {1, 0, 0, 1, 0}, 0}, 0, 1};
    hs_ofr_client *c = NULL;
    assert_int_equal(hs_ofr_client_create(ctx, HS_OFR_PROTO_B, &ccfg, &c), 0);
    size_t len = 0, used = 0;
    const uint8_t *o = hs_ofr_client_output(c, &len);
    const uint8_t one[4] = {1, 0, 0, 0};
    assert_int_equal(len, 4);
    assert_memory_equal(o, one, 4);
    hs_ofr_client_output_sent(c);
    assert_int_equal(hs_ofr_client_feed(c, one, 4, &used), 0);
    o = hs_ofr_client_output(c, &len);
    assert_int_equal(len, 2048);
    assert_true(get_f64(o) == 1.0 && get_f64(o + 8) == 1.0 && get_f64(o + 16) == 2.8);
    hs_ofr_client_output_sent(c);
    static uint8_t r[2048];
    const double old[3] = {0.0, 3.0, 2.7};
    msg(r, 256, old, 3);
    assert_int_equal(hs_ofr_client_feed(c, r, 2048, &used), HS_EPROTO);
    assert_int_equal(hs_ofr_client_state(c), HS_OFR_FAILED);
    hs_ofr_client_destroy(&c);
    hs_ctx_destroy(&ctx);
}

/* T^T K T and T^T f by hand for T = [1 0 -1; 0 2 1], K = [2 1; 1 3]; work is conserved:
 * q . d = f . (T d). */
static void test_map_math(void **state)
{
    (void)state;
    const double T[6] = {1, 0, 0, 2, -1, 1}; /* column-major 2 x 3 */
    const double K[4] = {2, 1, 1, 3};
    double work[6], Kb[9];
    hs_ofr_map_matrix(2, 3, T, K, work, Kb);
    const double want[9] = {2, 2, -1, 2, 12, 4, -1, 4, 3};
    for (int i = 0; i < 9; i++) assert_true(Kb[i] == want[i]);
    const double d[3] = {0.5, -1.0, 2.0};
    double u[2], q[3];
    hs_ofr_map_to_actuators(2, 3, T, d, u);
    assert_true(u[0] == -1.5 && u[1] == 0.0);
    const double f[2] = {4.0, -3.0};
    hs_ofr_map_force(2, 3, T, f, q);
    assert_true(q[0] == 4.0 && q[1] == -6.0 && q[2] == -7.0);
    assert_true(q[0] * d[0] + q[1] * d[1] + q[2] * d[2] == f[0] * u[0] + f[1] * u[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_worked_example), cmocka_unit_test(test_a_opensees_generic_client),
        cmocka_unit_test(test_a_big_matrix),     cmocka_unit_test(test_a_expelement),
        cmocka_unit_test(test_a_malformed),      cmocka_unit_test(test_b_actor_site),
        cmocka_unit_test(test_b_malformed),      cmocka_unit_test(test_client_server_a_mapped),
        cmocka_unit_test(test_client_server_b),  cmocka_unit_test(test_b_client_version),
        cmocka_unit_test(test_map_math),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
