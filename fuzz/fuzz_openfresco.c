/* libFuzzer target: arbitrary bytes into the OpenFresco server sessions (protocols A and B). They
 * must never crash, leak, read out of bounds or hand a non-finite trial to the backend; replies
 * are whole messages (4, 256 * 8 or dataSize * 8 bytes); a refused handshake refuses every later
 * byte. The first byte picks the chunking and whether a valid sizes message (A) or handshake
 * (B) goes first, so that the fuzzer reaches the running state easily. */
#include "hysim/openfresco.h"

#include <math.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct fz {
    double d[2], t;
} fz;

static int fz_trial(void *u, const double *d, const double *v, const double *a, double t)
{
    fz *F = u;
    for (int i = 0; i < 2; i++)
        if (!isfinite(d[i]) || (v && !isfinite(v[i])) || (a && !isfinite(a[i]))) __builtin_trap();
    if (!isfinite(t)) __builtin_trap();
    F->d[0] = d[0];
    F->d[1] = d[1];
    F->t = t;
    return 0;
}

static int fz_force(void *u, double *f)
{
    fz *F = u;
    f[0] = 3.0 * F->d[0] - F->d[1];
    f[1] = -2.0 * F->d[0] + 5.0 * F->d[1];
    return F->d[0] > 1e300 ? HS_ELIMIT : 0; /* a failing backend now and then */
}

static int fz_matrix(void *u, double *K)
{
    (void)u;
    K[0] = 3.0, K[1] = -2.0, K[2] = -1.0, K[3] = 5.0;
    return 0;
}

static int fz_commit(void *u, double t)
{
    (void)u;
    return t < 0 ? HS_EINVAL : 0;
}

static void quiet(void *user, hs_log_level level, const char *message)
{
    (void)user;
    (void)level;
    (void)message;
}

static void put_i32(uint8_t *p, int32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)((uint32_t)v >> (8 * i));
}

static void put_f64(uint8_t *p, double x)
{
    uint64_t u;
    memcpy(&u, &x, 8);
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(u >> (8 * i));
}

static void feed_all(hs_ofr_server *s, hs_ofr_proto proto, const uint8_t *in, size_t n,
                     unsigned chunk)
{
    size_t off = 0, k = 0;
    while (off < n) {
        size_t len = chunk == 0 ? n - off : 1 + (k++ * 131u) % chunk;
        if (len > n - off) len = n - off;
        size_t used = 0;
        const int rc = hs_ofr_server_feed(s, in + off, len, &used);
        if (used > len) __builtin_trap();
        if (rc) {
            if (rc != HS_EPROTO || hs_ofr_server_state(s) != HS_OFR_FAILED) __builtin_trap();
            /* a refused session refuses every later byte */
            off += used;
            if (off < n && (hs_ofr_server_feed(s, in + off, n - off, &used) != HS_EPROTO || used))
                __builtin_trap();
            return;
        }
        off += used;
        size_t rl = 0;
        const uint8_t *r = hs_ofr_server_reply(s, &rl);
        if (r) {
            const size_t ds = hs_ofr_server_state(s) == HS_OFR_HANDSHAKE
                                  ? 0
                                  : (size_t)hs_ofr_server_sizes(s)->data_size * 8;
            const int ok = rl == ds || (proto == HS_OFR_PROTO_B && (rl == 4 || rl == 2048));
            if (!ok) __builtin_trap();
            volatile uint8_t sink = 0;
            for (size_t i = 0; i < rl; i++) sink ^= r[i]; /* every byte readable */
            (void)sink;
            hs_ofr_server_reply_sent(s);
        } else if (used == 0) {
            __builtin_trap(); /* no progress and nothing to send */
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const uint8_t mode = data[0];
    data++;
    size--;
    hs_ctx *ctx = NULL;
    if (hs_ctx_create(&ctx)) return 0;
    hs_ctx_set_logger(ctx, quiet, NULL, HS_LOG_ERROR);
    fz F = {{0, 0}, 0};
    hs_ofr_backend be = {&F,        fz_trial,  NULL,      fz_force,  fz_matrix,
                         fz_matrix, fz_matrix, fz_matrix, fz_commit, NULL};
    const hs_ofr_server_config cfg = {2, 4096, 17};
    static const unsigned chunks[4] = {0, 1, 7, 300};
    const unsigned chunk = chunks[mode & 3];
    /* protocol A */
    hs_ofr_server *s = NULL;
    if (hs_ofr_server_create(ctx, HS_OFR_PROTO_A, &cfg, &be, &s) == 0) {
        if (mode & 4) {
            uint8_t sz[44];
            const int32_t v[11] = {2, 2, 2, 0, 1, 0, 0, 0, 2, 0, (mode & 16) ? 8 : 4};
            for (int i = 0; i < 11; i++) put_i32(sz + 4 * i, v[i]);
            feed_all(s, HS_OFR_PROTO_A, sz, sizeof sz, 0);
        }
        feed_all(s, HS_OFR_PROTO_A, data, size, chunk);
        hs_ofr_server_destroy(&s);
    }
    /* protocol B */
    if (hs_ofr_server_create(ctx, HS_OFR_PROTO_B, &cfg, &be, &s) == 0) {
        if (mode & 8) {
            static uint8_t hs[4 + 2048 + 2048 + 40];
            memset(hs, 0, sizeof hs);
            put_i32(hs, 1);
            put_f64(hs + 4, 1.0);
            put_f64(hs + 12, 3.0);
            put_f64(hs + 20, 2.8);
            put_f64(hs + 4 + 2048, 2.0);
            put_f64(hs + 4 + 2048 + 8, (mode & 16) ? 4.0 : 6.0);
            const int32_t v[10] = {2, 0, 0, 0, 1, 2, 0, 0, 2, 0};
            for (int i = 0; i < 10; i++) put_i32(hs + 4 + 4096 + 4 * i, v[i]);
            feed_all(s, HS_OFR_PROTO_B, hs, sizeof hs, 0);
        }
        feed_all(s, HS_OFR_PROTO_B, data, size, chunk);
        hs_ofr_server_destroy(&s);
    }
    hs_ctx_destroy(&ctx);
    return 0;
}
