/* The secure channel: keys, the mutual handshake over a socketpair (same key, different keys,
 * plain mode on both or one end), and refusal of altered, replayed, reordered and reflected
 * frames. */
#include "hs_test.h"

#include "hysim/secure.h"

#include <sodium.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static uint8_t frame[8192], reply[8192];

static void key_fill(uint8_t key[HS_SECURE_KEY_SIZE], uint8_t seed)
{
    for (int i = 0; i < HS_SECURE_KEY_SIZE; i++) key[i] = (uint8_t)(seed + 7 * i);
}

static hs_secure *make(hs_ctx *ctx, hs_secure_role role, hs_secure_mode mode, uint8_t seed,
                       const hs_transport *tr)
{
    hs_secure_config cfg = {.role = role, .mode = mode, .timeout_ms = 2000};
    key_fill(cfg.key, seed);
    hs_secure *ch = NULL;
    assert_int_equal(hs_secure_create(ctx, &cfg, tr, &ch), 0);
    return ch;
}

/* Pure handshake between two channels in memory. Returns the first failure (or 0). */
static int pump(hs_secure *c, hs_secure *s, int *rc_c, int *rc_s)
{
    size_t len = 0;
    *rc_c = hs_secure_handshake_start(c, frame, sizeof frame, &len);
    *rc_s = 0;
    hs_secure *to = s, *from = c;
    while (!*rc_c && !*rc_s && len && !(hs_secure_ready(c) && hs_secure_ready(s))) {
        size_t out = 0;
        const int rc = hs_secure_handshake_input(to, frame, len, reply, sizeof reply, &out);
        if (to == c)
            *rc_c = rc;
        else
            *rc_s = rc;
        memcpy(frame, reply, out);
        len = out;
        hs_secure *t = to;
        to = from;
        from = t;
        if (rc && len) { /* the refusal reaches the other end */
            size_t ignored = 0;
            const int rc2 =
                hs_secure_handshake_input(to, frame, len, reply, sizeof reply, &ignored);
            if (to == c)
                *rc_c = rc2;
            else
                *rc_s = rc2;
            break;
        }
    }
    return *rc_c ? *rc_c : *rc_s;
}

static void test_key_parse_and_files(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    uint8_t key[HS_SECURE_KEY_SIZE];
    /* a key drawn once from Python's secrets.token_hex(32), upper and lower case */
    const char *hex = "  CABB4E45F67EC3346F9D84D7A6E9290A2857bc99c955b72cacab5c1ea549b450\n";
    const uint8_t drawn[8] = {0xca, 0xbb, 0x4e, 0x45, 0xf6, 0x7e, 0xc3, 0x34};
    assert_int_equal(hs_secure_key_parse(ctx, (const uint8_t *)hex, strlen(hex), key), 0);
    assert_memory_equal(key, drawn, sizeof drawn);
    assert_int_equal(key[31], 0x50);
    /* no raw 32-byte form: 32 random-looking bytes, 32 newlines, 31 hex digits and a newline */
    uint8_t raw[HS_SECURE_KEY_SIZE];
    for (int i = 0; i < HS_SECURE_KEY_SIZE; i++) raw[i] = (uint8_t)(0xF0 - i);
    assert_int_equal(hs_secure_key_parse(ctx, raw, sizeof raw, key), HS_EINPUT);
    print_message("    %s\n", hs_ctx_message(ctx));
    assert_non_null(strstr(hs_ctx_message(ctx), "is not a hexadecimal digit"));
    assert_non_null(strstr(hs_ctx_message(ctx), "hysim keygen FILE"));
    uint8_t newlines[HS_SECURE_KEY_SIZE];
    memset(newlines, '\n', sizeof newlines);
    assert_int_equal(hs_secure_key_parse(ctx, newlines, sizeof newlines, key), HS_EINPUT);
    print_message("    %s\n", hs_ctx_message(ctx));
    assert_non_null(strstr(hs_ctx_message(ctx), "0 hexadecimal digits, not 64"));
    char cut[33];
    memcpy(cut, hex + 2, 31);
    cut[31] = '\n';
    assert_int_equal(hs_secure_key_parse(ctx, (const uint8_t *)cut, 32, key), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "31 hexadecimal digits, not 64"));
    assert_int_equal(hs_secure_key_parse(ctx, (const uint8_t *)hex + 2, 63, key), HS_EINPUT);
    /* 64 hex digits but not random: one byte repeated, or 15 values (16 are accepted) */
    char weak[65];
    memset(weak, '0', 64);
    weak[64] = '\0';
    assert_int_equal(hs_secure_key_parse(ctx, (const uint8_t *)weak, 64, key), HS_EINPUT);
    print_message("    %s\n", hs_ctx_message(ctx));
    assert_non_null(strstr(hs_ctx_message(ctx), "only 1 different values"));
    for (int i = 0; i < 32; i++) snprintf(weak + 2 * i, 3, "%02x", (unsigned)(i % 15));
    assert_int_equal(hs_secure_key_parse(ctx, (const uint8_t *)weak, 64, key), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "only 15 different values"));
    /* 32 or 16 different values, but made by hand: the counter 00 01 .. 1f (one step), 0 .. f
     * twice (two steps), a pass phrase written in hex (printable), a 16-byte random block twice */
    for (int i = 0; i < 32; i++) snprintf(weak + 2 * i, 3, "%02x", (unsigned)i);
    assert_int_equal(hs_secure_key_parse(ctx, (const uint8_t *)weak, 64, key), HS_EINPUT);
    print_message("    %s\n", hs_ctx_message(ctx));
    assert_non_null(strstr(hs_ctx_message(ctx), "successive bytes take only 1 different values"));
    assert_non_null(strstr(hs_ctx_message(ctx), "hysim keygen FILE"));
    for (int i = 0; i < 32; i++) snprintf(weak + 2 * i, 3, "%02x", (unsigned)(i % 16));
    assert_int_equal(hs_secure_key_parse(ctx, (const uint8_t *)weak, 64, key), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "successive bytes take only 2 different values"));
    const char *phrase = "636f727265637420686f727365206261747465727920737461706c6520343221";
    assert_int_equal(hs_secure_key_parse(ctx, (const uint8_t *)phrase, 64, key), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "all printable ASCII"));
    memcpy(weak, hex + 2, 32);
    memcpy(weak + 32, hex + 2, 32);
    assert_int_equal(hs_secure_key_parse(ctx, (const uint8_t *)weak, 64, key), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "repeats a block of 16 bytes"));
    /* random keys pass: 20000 from libsodium (the checks refuse one with p < 5e-16 each) */
    for (int k = 0; k < 20000; k++) {
        uint8_t r[HS_SECURE_KEY_SIZE];
        randombytes_buf(r, sizeof r);
        sodium_bin2hex(weak, sizeof weak, r, sizeof r);
        if (hs_secure_key_parse(ctx, (const uint8_t *)weak, 64, key) != 0)
            fail_msg("random key %s refused: %s", weak, hs_ctx_message(ctx));
    }
    const char *nothex = "zz0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    assert_int_equal(hs_secure_key_parse(ctx, (const uint8_t *)nothex, 64, key), HS_EINPUT);
    /* generate: a new file of mode 0600 with 64 hex digits and a newline; read gives it back */
    char dir[] = "/tmp/hs_test_secure_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/site.key", dir);
    uint8_t gen[HS_SECURE_KEY_SIZE], back[HS_SECURE_KEY_SIZE];
    assert_int_equal(hs_secure_key_generate(ctx, path, gen), 0);
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0600);
    assert_int_equal(sb.st_size, 65);
    assert_int_equal(hs_secure_key_read(ctx, path, back), 0);
    assert_memory_equal(gen, back, sizeof gen);
    assert_int_equal(hs_secure_key_generate(ctx, path, NULL), HS_EIO); /* never overwrites */
    unlink(path);
    assert_int_equal(hs_secure_key_read(ctx, path, back), HS_EIO);
    assert_non_null(strstr(hs_ctx_message(ctx), "site.key"));
    /* a file of 32 newlines is refused, naming the file and how to make a key */
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < 32; i++) fputc('\n', f);
    fclose(f);
    assert_int_equal(hs_secure_key_read(ctx, path, back), HS_EINPUT);
    print_message("    %s\n", hs_ctx_message(ctx));
    assert_non_null(strstr(hs_ctx_message(ctx), "site.key: not a key"));
    assert_non_null(strstr(hs_ctx_message(ctx), "hysim keygen FILE"));
    unlink(path);
    rmdir(dir);
    /* no implicit plain mode, no all-zero key */
    hs_secure_config cfg = {.role = HS_SECURE_SITE};
    hs_secure *ch = NULL;
    assert_int_equal(hs_secure_create(ctx, &cfg, NULL, &ch), HS_EINVAL);
    cfg.mode = HS_SECURE_PSK;
    assert_int_equal(hs_secure_create(ctx, &cfg, NULL, &ch), HS_EINVAL);
    hs_ctx_destroy(&ctx);
}

/* ---- over a socketpair: the site runs in a thread ---- */

typedef struct peer {
    hs_ctx *ctx;
    hs_secure *ch;
    int rc;
    int echo; /* receive one message and send it back */
    char message[256];
} peer;

static void *site_main(void *arg)
{
    peer *p = arg;
    p->rc = hs_secure_handshake(p->ch);
    snprintf(p->message, sizeof p->message, "%s", hs_ctx_message(p->ctx));
    if (!p->rc && p->echo) {
        hs_wire_msg m;
        p->rc = hs_secure_recv(p->ch, &m, 2000);
        if (!p->rc) {
            hs_wire_msg r;
            memset(&r, 0, sizeof r);
            r.type = HS_WIRE_MEASUREMENT;
            r.step = m.step;
            r.meas.t = m.target.t;
            r.meas.nact = m.target.nact;
            for (int j = 0; j < m.target.nact; j++) {
                r.meas.x[j] = m.target.x[j];
                r.meas.f[j] = -2.0 * m.target.x[j]; /* a spring of stiffness 2 */
            }
            p->rc = hs_secure_send(p->ch, &r);
        }
    }
    return NULL;
}

typedef struct pair {
    int fd[2];
    hs_ctx *cctx;
    hs_secure *coord;
    peer site;
    pthread_t thread;
} pair;

static void pair_open(pair *p, hs_secure_mode cmode, uint8_t ckey, hs_secure_mode smode,
                      uint8_t skey, int echo)
{
    memset(p, 0, sizeof *p);
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, p->fd), 0);
    hs_ctx_create(&p->cctx);
    hs_ctx_create(&p->site.ctx);
    hs_ctx_set_logger(p->cctx, NULL, NULL, HS_LOG_ERROR);
    hs_ctx_set_logger(p->site.ctx, NULL, NULL, HS_LOG_ERROR);
    const hs_transport tc = hs_transport_fd(p->fd[0]), ts = hs_transport_fd(p->fd[1]);
    p->coord = make(p->cctx, HS_SECURE_COORDINATOR, cmode, ckey, &tc);
    p->site.ch = make(p->site.ctx, HS_SECURE_SITE, smode, skey, &ts);
    p->site.echo = echo;
    assert_int_equal(pthread_create(&p->thread, NULL, site_main, &p->site), 0);
}

static void pair_close(pair *p)
{
    hs_secure_destroy(&p->coord);
    hs_secure_destroy(&p->site.ch);
    close(p->fd[0]);
    close(p->fd[1]);
    hs_ctx_destroy(&p->cctx);
    hs_ctx_destroy(&p->site.ctx);
}

static void exchange(pair *p)
{
    hs_wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = HS_WIRE_TARGET;
    m.step = 12;
    m.target.t = 0.12;
    m.target.nact = 2;
    m.target.x[0] = 0.5;
    m.target.x[1] = -1.25;
    assert_int_equal(hs_secure_send(p->coord, &m), 0);
    hs_wire_msg r;
    assert_int_equal(hs_secure_recv(p->coord, &r, 2000), 0);
    assert_int_equal(r.type, HS_WIRE_MEASUREMENT);
    assert_int_equal(r.step, 12);
    assert_true(r.meas.t == 0.12 && r.meas.f[0] == -1.0 && r.meas.f[1] == 2.5);
    /* sequence numbers: AUTH_INIT 0, AUTH_PROOF 1 (psk), then the target */
    assert_true(r.seq == (hs_secure_get_mode(p->coord) == HS_SECURE_PSK ? 2u : 1u));
}

static void test_handshake_same_key(void **state)
{
    (void)state;
    pair p;
    pair_open(&p, HS_SECURE_PSK, 1, HS_SECURE_PSK, 1, 1);
    const int rc = hs_secure_handshake(p.coord);
    if (rc) fail_msg("coordinator: %s", hs_ctx_message(p.cctx));
    exchange(&p);
    pthread_join(p.thread, NULL);
    if (p.site.rc) fail_msg("site: %s", p.site.message);
    pair_close(&p);
}

static void test_handshake_different_keys(void **state)
{
    (void)state;
    pair p;
    pair_open(&p, HS_SECURE_PSK, 1, HS_SECURE_PSK, 2, 0);
    const int rc = hs_secure_handshake(p.coord);
    pthread_join(p.thread, NULL);
    print_message("coordinator: %s\nsite: %s\n", hs_ctx_message(p.cctx), p.site.message);
    assert_int_equal(rc, HS_EAUTH);
    assert_int_equal(p.site.rc, HS_EAUTH);
    assert_false(hs_secure_ready(p.coord));
    assert_false(hs_secure_ready(p.site.ch));
    pair_close(&p);
}

static void test_plain_mode(void **state)
{
    (void)state;
    pair p;
    pair_open(&p, HS_SECURE_PLAIN, 1, HS_SECURE_PLAIN, 2, 1); /* keys unused */
    assert_int_equal(hs_secure_handshake(p.coord), 0);
    exchange(&p);
    pthread_join(p.thread, NULL);
    assert_int_equal(p.site.rc, 0);
    pair_close(&p);
    /* one end plain, the other keyed: both refuse */
    for (int k = 0; k < 2; k++) {
        pair_open(&p, k ? HS_SECURE_PLAIN : HS_SECURE_PSK, 1, k ? HS_SECURE_PSK : HS_SECURE_PLAIN,
                  1, 0);
        const int rc = hs_secure_handshake(p.coord);
        pthread_join(p.thread, NULL);
        print_message("coordinator: %s\nsite: %s\n", hs_ctx_message(p.cctx), p.site.message);
        assert_int_equal(rc, HS_EAUTH);
        assert_int_equal(p.site.rc, HS_EAUTH);
        assert_non_null(strstr(p.site.message, "plain"));
        pair_close(&p);
    }
}

/* ---- frame refusals, in memory ---- */

static void ready_pair(hs_ctx *ctx, hs_secure_mode mode, hs_secure **c, hs_secure **s)
{
    *c = make(ctx, HS_SECURE_COORDINATOR, mode, 9, NULL);
    *s = make(ctx, HS_SECURE_SITE, mode, 9, NULL);
    int rc_c, rc_s;
    assert_int_equal(pump(*c, *s, &rc_c, &rc_s), 0);
    assert_true(hs_secure_ready(*c) && hs_secure_ready(*s));
}

static size_t seal_target(hs_secure *ch, int64_t step, double x, uint8_t *out)
{
    hs_wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = HS_WIRE_TARGET;
    m.step = step;
    m.target.t = 0.01 * (double)step;
    m.target.nact = 1;
    m.target.x[0] = x;
    size_t len = 0;
    assert_int_equal(hs_secure_seal(ch, &m, out, 8192, &len), 0);
    return len;
}

static void test_flipped_bits(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_secure *c, *s;
    ready_pair(ctx, HS_SECURE_PSK, &c, &s);
    const size_t len = seal_target(c, 1, 0.25, frame);
    assert_int_equal(len, HS_WIRE_HEADER_SIZE + 17 + HS_WIRE_TAG_SIZE);
    /* the plaintext double 0.25 (00 .. 00 D0 3F) is not visible in the sealed body */
    const uint8_t quarter[8] = {0, 0, 0, 0, 0, 0, 0xD0, 0x3F};
    for (size_t i = HS_WIRE_HEADER_SIZE; i + 8 <= len; i++)
        assert_true(memcmp(frame + i, quarter, 8) != 0);
    hs_wire_msg m;
    int auth_faults = 0;
    for (size_t bit = 0; bit < 8 * len; bit++) {
        memcpy(reply, frame, len);
        reply[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        const int rc = hs_secure_open(s, reply, len, &m);
        if (rc == 0) fail_msg("bit %zu flipped: frame accepted", bit);
        if (bit == 8 * 27 + 7) { /* the step's sign bit: a negative step, refused by the header */
            assert_int_equal(rc, HS_EPROTO);
        } else if (bit / 8 >= 12) { /* sequence, step, body, tag: the tag catches it */
            assert_int_equal(rc, HS_EAUTH);
            assert_int_equal(hs_secure_fault(s), HS_WIRE_FAULT_AUTH);
            auth_faults++;
        }
    }
    assert_int_equal(auth_faults, 8 * ((int)len - 12) - 1);
    /* refused frames changed nothing: the original still opens */
    assert_int_equal(hs_secure_open(s, frame, len, &m), 0);
    assert_true(m.target.x[0] == 0.25 && m.step == 1);
    hs_secure_destroy(&c);
    hs_secure_destroy(&s);
    hs_ctx_destroy(&ctx);
}

static void test_replay_reorder_reflect(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    for (int mode = HS_SECURE_PSK; mode <= HS_SECURE_PLAIN; mode++) {
        hs_secure *c, *s;
        ready_pair(ctx, (hs_secure_mode)mode, &c, &s);
        uint8_t f1[256], f2[256];
        const size_t n1 = seal_target(c, 1, 1.0, f1), n2 = seal_target(c, 2, 2.0, f2);
        hs_wire_msg m;
        /* reordered: 2 before 1 */
        assert_int_equal(hs_secure_open(s, f2, n2, &m), HS_EAUTH);
        assert_int_equal(hs_secure_fault(s), HS_WIRE_FAULT_SEQUENCE);
        assert_int_equal(hs_secure_open(s, f1, n1, &m), 0);
        assert_true(m.target.x[0] == 1.0);
        /* replayed */
        assert_int_equal(hs_secure_open(s, f1, n1, &m), HS_EAUTH);
        assert_int_equal(hs_secure_fault(s), HS_WIRE_FAULT_SEQUENCE);
        assert_int_equal(hs_secure_open(s, f2, n2, &m), 0);
        assert_int_equal(hs_secure_open(s, f2, n2, &m), HS_EAUTH);
        if (mode == HS_SECURE_PSK) {
            /* reflected: a frame the site sealed, sent back to the site */
            const size_t n3 = seal_target(s, 3, 3.0, f1);
            assert_int_equal(hs_secure_open(s, f1, n3, &m), HS_EAUTH);
            assert_int_equal(hs_secure_fault(s), HS_WIRE_FAULT_AUTH);
            /* a plain frame on a sealed channel */
            size_t n4 = 0;
            assert_int_equal(hs_wire_encode(&m, 3, f2, sizeof f2, &n4, NULL), 0);
            assert_int_equal(hs_secure_open(s, f2, n4, &m), HS_EAUTH);
            assert_int_equal(hs_secure_fault(s), HS_WIRE_FAULT_FLAGS);
            /* the coordinator still opens the site's frame */
            assert_int_equal(hs_secure_open(c, f1, n3, &m), 0);
            assert_true(m.target.x[0] == 3.0);
        }
        hs_secure_destroy(&c);
        hs_secure_destroy(&s);
    }
    hs_ctx_destroy(&ctx);
}

/* Over a socket: a flipped bit closes the channel; an oversize header is refused before its body
 * is read (no allocation); an idle link times out and stays usable. */
static void test_stream_refusals(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    int fd[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, fd), 0);
    const hs_transport ts = hs_transport_fd(fd[1]);
    hs_secure *c = make(ctx, HS_SECURE_COORDINATOR, HS_SECURE_PSK, 5, NULL);
    hs_secure *s = make(ctx, HS_SECURE_SITE, HS_SECURE_PSK, 5, &ts);
    int rc_c, rc_s;
    assert_int_equal(pump(c, s, &rc_c, &rc_s), 0);
    hs_wire_msg m;
    assert_int_equal(hs_secure_recv(s, &m, 50), HS_ETIMEOUT);
    size_t len = seal_target(c, 1, 0.5, frame);
    assert_int_equal(write(fd[0], frame, len), (ssize_t)len);
    assert_int_equal(hs_secure_recv(s, &m, 1000), 0);
    assert_true(m.target.x[0] == 0.5);
    /* oversize: a header announcing 1 MiB, and nothing else */
    memcpy(reply, frame, HS_WIRE_HEADER_SIZE);
    reply[8] = 0, reply[9] = 0, reply[10] = 0x10, reply[11] = 0;
    const uint64_t allocs = hs_alloc_count();
    assert_int_equal(write(fd[0], reply, HS_WIRE_HEADER_SIZE), HS_WIRE_HEADER_SIZE);
    assert_int_equal(hs_secure_recv(s, &m, 1000), HS_EPROTO);
    assert_int_equal(hs_secure_fault(s), HS_WIRE_FAULT_OVERSIZE);
    assert_true(hs_alloc_count() == allocs);
    assert_int_equal(hs_secure_recv(s, &m, 10), HS_EPROTO); /* closed for good */
    hs_secure_destroy(&s);
    close(fd[1]);
    /* a flipped bit over the stream */
    close(fd[0]);
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, fd), 0);
    hs_secure_destroy(&c);
    c = make(ctx, HS_SECURE_COORDINATOR, HS_SECURE_PSK, 5, NULL);
    const hs_transport ts2 = hs_transport_fd(fd[1]);
    s = make(ctx, HS_SECURE_SITE, HS_SECURE_PSK, 5, &ts2);
    assert_int_equal(pump(c, s, &rc_c, &rc_s), 0);
    len = seal_target(c, 1, 0.5, frame);
    frame[len - 20] ^= 0x04;
    assert_int_equal(write(fd[0], frame, len), (ssize_t)len);
    assert_int_equal(hs_secure_recv(s, &m, 1000), HS_EAUTH);
    assert_int_equal(hs_secure_fault(s), HS_WIRE_FAULT_AUTH);
    assert_non_null(strstr(hs_ctx_message(ctx), "does not verify"));
    hs_secure_destroy(&c);
    hs_secure_destroy(&s);
    close(fd[0]);
    close(fd[1]);
    hs_ctx_destroy(&ctx);
}

/* Fresh nonces: the same message in two sessions with the same key seals differently. */
static void test_sessions_differ(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_secure *c1, *s1, *c2, *s2;
    ready_pair(ctx, HS_SECURE_PSK, &c1, &s1);
    ready_pair(ctx, HS_SECURE_PSK, &c2, &s2);
    uint8_t a[256], b[256];
    const size_t na = seal_target(c1, 5, 1.0, a), nb = seal_target(c2, 5, 1.0, b);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, HS_WIRE_HEADER_SIZE); /* same header */
    assert_memory_not_equal(a + HS_WIRE_HEADER_SIZE, b + HS_WIRE_HEADER_SIZE,
                            na - HS_WIRE_HEADER_SIZE);
    hs_wire_msg m;
    assert_int_equal(hs_secure_open(s2, a, na, &m), HS_EAUTH); /* session 1's frame */
    assert_int_equal(hs_secure_open(s1, a, na, &m), 0);
    hs_secure_destroy(&c1);
    hs_secure_destroy(&s1);
    hs_secure_destroy(&c2);
    hs_secure_destroy(&s2);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_parse_and_files),
        cmocka_unit_test(test_handshake_same_key),
        cmocka_unit_test(test_handshake_different_keys),
        cmocka_unit_test(test_plain_mode),
        cmocka_unit_test(test_flipped_bits),
        cmocka_unit_test(test_replay_reorder_reflect),
        cmocka_unit_test(test_stream_refusals),
        cmocka_unit_test(test_sessions_differ),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
