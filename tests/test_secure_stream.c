/* The secure channel's receiving over a byte stream: frames that arrive together (one read
 * brings several), frames that arrive in pieces (a header cut in two, a body in three), a frame
 * cut short (the configured timeout from its first byte, measured), an idle link (the caller's
 * timeout, measured, the channel intact), an oversize header followed by body bytes (refused
 * from the header), the same over a pipe (not a socket), no allocation per frame; each over the
 * stateless transport (hs_transport_fd) and the socket link (hs_transport_socket, waiting inside
 * recv with SO_RCVTIMEO: src/net/transport_fd.c). And the link's own promises: the caller's
 * timeout kept whatever timeout the socket had (none, shorter, longer), short waits, no limit,
 * the socket's timeout set once for a run of equal waits and put back by restore, a signal during
 * a receive. */
#include "hs_test.h"

#include "hysim/secure.h"

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static uint8_t frame[8192], reply[8192], batch[65536];

static hs_secure *make(hs_ctx *ctx, hs_secure_role role, hs_secure_mode mode, int timeout_ms,
                       const hs_transport *tr)
{
    hs_secure_config cfg = {.role = role, .mode = mode, .timeout_ms = timeout_ms};
    for (int i = 0; i < HS_SECURE_KEY_SIZE; i++) cfg.key[i] = (uint8_t)(3 + 11 * i);
    hs_secure *ch = NULL;
    assert_int_equal(hs_secure_create(ctx, &cfg, tr, &ch), 0);
    return ch;
}

/* The handshake in memory between c and s (s's transport is not used by it). */
static void handshake(hs_secure *c, hs_secure *s)
{
    size_t len = 0;
    assert_int_equal(hs_secure_handshake_start(c, frame, sizeof frame, &len), 0);
    hs_secure *to = s, *from = c;
    while (len && !(hs_secure_ready(c) && hs_secure_ready(s))) {
        size_t out = 0;
        assert_int_equal(hs_secure_handshake_input(to, frame, len, reply, sizeof reply, &out), 0);
        memcpy(frame, reply, out);
        len = out;
        hs_secure *t = to;
        to = from;
        from = t;
    }
    assert_true(hs_secure_ready(c) && hs_secure_ready(s));
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

typedef struct pair {
    hs_ctx *ctx;
    int fd[2]; /* fd[0]: the test writes; fd[1]: the channel reads */
    hs_socket_link link;
    hs_transport tr;
    hs_secure *c, *s;
} pair;

/* The transport of the channel under test: 0 stateless, 1 the socket link (a pipe gets the
 * link too: it must fall back to the stateless path). */
static int use_link;

static void pair_open(pair *p, hs_secure_mode mode, int timeout_ms, int use_pipe)
{
    memset(p, 0, sizeof *p);
    hs_ctx_create(&p->ctx);
    if (use_pipe) {
        int q[2];
        assert_int_equal(pipe(q), 0);
        p->fd[0] = q[1];
        p->fd[1] = q[0];
    } else {
        assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, p->fd), 0);
    }
    p->tr = use_link ? hs_transport_socket(&p->link, p->fd[1]) : hs_transport_fd(p->fd[1]);
    p->c = make(p->ctx, HS_SECURE_COORDINATOR, mode, timeout_ms, NULL);
    p->s = make(p->ctx, HS_SECURE_SITE, mode, timeout_ms, &p->tr);
    handshake(p->c, p->s);
}

static void pair_close(pair *p)
{
    hs_secure_destroy(&p->c);
    hs_secure_destroy(&p->s);
    close(p->fd[0]);
    close(p->fd[1]);
    hs_ctx_destroy(&p->ctx);
}

static void expect_target(pair *p, int64_t step, double x)
{
    hs_wire_msg m;
    assert_int_equal(hs_secure_recv(p->s, &m, 1000), 0);
    assert_int_equal(m.type, HS_WIRE_TARGET);
    assert_int_equal(m.step, step);
    assert_true(m.target.x[0] == x);
}

/* Five frames in one write: five receives give them in order, then the link is idle. */
static void run_together(hs_secure_mode mode, int use_pipe)
{
    pair p;
    pair_open(&p, mode, 2000, use_pipe);
    size_t n = 0;
    for (int k = 1; k <= 5; k++) n += seal_target(p.c, k, 0.125 * k, batch + n);
    assert_int_equal(write(p.fd[0], batch, n), (ssize_t)n);
    const uint64_t allocs = hs_alloc_count();
    for (int k = 1; k <= 5; k++) expect_target(&p, k, 0.125 * k);
    assert_true(hs_alloc_count() == allocs); /* no allocation per frame */
    /* idle: the caller's 80 ms, measured, and the channel stays usable */
    hs_wire_msg m;
    const double t0 = hs_test_now_s();
    assert_int_equal(hs_secure_recv(p.s, &m, 80), HS_ETIMEOUT);
    const double waited = hs_test_now_s() - t0;
    assert_true(waited >= 0.080 && waited < 0.5);
    n = seal_target(p.c, 6, -2.5, frame);
    assert_int_equal(write(p.fd[0], frame, n), (ssize_t)n);
    expect_target(&p, 6, -2.5);
    pair_close(&p);
}

static void test_frames_together(void **state)
{
    (void)state;
    run_together(HS_SECURE_PSK, 0);
    run_together(HS_SECURE_PLAIN, 0);
    run_together(HS_SECURE_PSK, 1); /* a pipe: not a socket */
}

/* ---- a writer thread that sends a buffer in pieces ---- */

typedef struct writer {
    int fd;
    const uint8_t *buf;
    size_t cut[8]; /* piece ends, increasing; the last is the total */
    int ncut;
    int pause_ms;
} writer;

static void *writer_main(void *arg)
{
    writer *w = arg;
    size_t at = 0;
    for (int k = 0; k < w->ncut; k++) {
        const struct timespec pause = {0, (long)w->pause_ms * 1000000};
        nanosleep(&pause, NULL);
        if (write(w->fd, w->buf + at, w->cut[k] - at) != (ssize_t)(w->cut[k] - at)) break;
        at = w->cut[k];
    }
    return NULL;
}

/* Two frames in pieces: the first header cut after 10 bytes, its body in two, the second frame's
 * header sharing a write with the first's last body bytes. */
static void test_frames_in_pieces(void **state)
{
    (void)state;
    pair p;
    pair_open(&p, HS_SECURE_PSK, 2000, 0);
    const size_t a = seal_target(p.c, 1, 4.0, batch);
    const size_t b = seal_target(p.c, 2, -8.0, batch + a);
    assert_true(a > HS_WIRE_HEADER_SIZE + 4);
    writer w = {.fd = p.fd[0],
                .buf = batch,
                .cut = {10, HS_WIRE_HEADER_SIZE + 3, a + 5, a + HS_WIRE_HEADER_SIZE + 1, a + b},
                .ncut = 5,
                .pause_ms = 20};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, writer_main, &w), 0);
    const uint64_t allocs = hs_alloc_count();
    expect_target(&p, 1, 4.0);
    expect_target(&p, 2, -8.0);
    assert_true(hs_alloc_count() == allocs);
    pthread_join(th, NULL);
    pair_close(&p);
}

/* A frame cut short: its header and 5 body bytes, then nothing. The caller waits 2 s for a frame
 * to begin, but once it has begun the rest must come within the channel's 150 ms. */
static void test_frame_cut(void **state)
{
    (void)state;
    pair p;
    pair_open(&p, HS_SECURE_PSK, 150, 0);
    const size_t n = seal_target(p.c, 1, 1.0, frame);
    writer w = {.fd = p.fd[0], .buf = frame, .cut = {HS_WIRE_HEADER_SIZE + 5}, .ncut = 1};
    w.pause_ms = 30;
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, writer_main, &w), 0);
    hs_wire_msg m;
    const double t0 = hs_test_now_s();
    assert_int_equal(hs_secure_recv(p.s, &m, 2000), HS_ETIMEOUT);
    const double waited = hs_test_now_s() - t0;
    /* 30 ms before the first byte, then 150 ms */
    assert_true(waited >= 0.180 && waited < 1.0);
    assert_non_null(strstr(hs_ctx_message(p.ctx), "frame cut after 33 bytes"));
    assert_int_equal(hs_secure_recv(p.s, &m, 10), HS_EPROTO); /* closed for good */
    pthread_join(th, NULL);
    (void)n;
    pair_close(&p);
}

/* A header announcing more than the bound, followed in the same write by body bytes: refused
 * from the header (fault OVERSIZE), nothing allocated. */
static void test_oversize_with_body(void **state)
{
    (void)state;
    pair p;
    memset(&p, 0, sizeof p);
    hs_ctx_create(&p.ctx);
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, p.fd), 0);
    p.tr = use_link ? hs_transport_socket(&p.link, p.fd[1]) : hs_transport_fd(p.fd[1]);
    hs_secure_config cfg = {
        .role = HS_SECURE_SITE, .mode = HS_SECURE_PLAIN, .timeout_ms = 1000, .max_length = 512};
    assert_int_equal(hs_secure_create(p.ctx, &cfg, &p.tr, &p.s), 0);
    cfg.role = HS_SECURE_COORDINATOR;
    assert_int_equal(hs_secure_create(p.ctx, &cfg, NULL, &p.c), 0);
    handshake(p.c, p.s);
    const size_t n = seal_target(p.c, 1, 1.0, batch);
    /* announce 513 bytes (one above the bound) and send them all */
    batch[8] = 0x01, batch[9] = 0x02, batch[10] = 0, batch[11] = 0;
    memset(batch + n, 0x5A, HS_WIRE_HEADER_SIZE + 513 - n);
    const uint64_t allocs = hs_alloc_count();
    assert_int_equal(write(p.fd[0], batch, HS_WIRE_HEADER_SIZE + 513), HS_WIRE_HEADER_SIZE + 513);
    hs_wire_msg m;
    assert_int_equal(hs_secure_recv(p.s, &m, 1000), HS_EPROTO);
    assert_int_equal(hs_secure_fault(p.s), HS_WIRE_FAULT_OVERSIZE);
    assert_true(hs_alloc_count() == allocs);
    pair_close(&p);
}

/* ---- the socket link ---- */

/* The socket's receive timeout in ms (getsockopt; the kernel keeps it in jiffies, rounded up). */
static double rcv_ms(int fd)
{
    struct timeval tv = {0};
    socklen_t n = sizeof tv;
    assert_int_equal(getsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, &n), 0);
    return 1e3 * (double)tv.tv_sec + 1e-3 * (double)tv.tv_usec;
}

static void set_rcv_ms(int fd, int ms)
{
    const struct timeval tv = {.tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000};
    assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv), 0);
}

/* A pair over a socketpair whose reading end had SO_RCVTIMEO preset_ms (0: none) before the
 * link was made on it. */
static void link_open(pair *p, int preset_ms, int timeout_ms)
{
    memset(p, 0, sizeof *p);
    hs_ctx_create(&p->ctx);
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, p->fd), 0);
    if (preset_ms) set_rcv_ms(p->fd[1], preset_ms);
    p->tr = hs_transport_socket(&p->link, p->fd[1]);
    assert_int_equal(p->link.blocking, 1);
    p->c = make(p->ctx, HS_SECURE_COORDINATOR, HS_SECURE_PLAIN, timeout_ms, NULL);
    p->s = make(p->ctx, HS_SECURE_SITE, HS_SECURE_PLAIN, timeout_ms, &p->tr);
    handshake(p->c, p->s);
}

/* An idle receive of timeout_ms: HS_ETIMEOUT after at least that long (and not much more). */
static void expect_idle(pair *p, int timeout_ms)
{
    hs_wire_msg m;
    const double t0 = hs_test_now_s();
    assert_int_equal(hs_secure_recv(p->s, &m, timeout_ms), HS_ETIMEOUT);
    const double waited = hs_test_now_s() - t0;
    assert_true(waited >= 1e-3 * timeout_ms && waited < 1e-3 * timeout_ms + 0.5);
}

/* A frame of step `step` written by a thread after delay_ms, received within timeout_ms. */
static void expect_late_frame(pair *p, int64_t step, int delay_ms, int timeout_ms)
{
    const size_t n = seal_target(p->c, step, 0.25 * (double)step, batch);
    writer w = {.fd = p->fd[0], .buf = batch, .cut = {n}, .ncut = 1, .pause_ms = delay_ms};
    pthread_t th;
    const double t0 = hs_test_now_s();
    assert_int_equal(pthread_create(&th, NULL, writer_main, &w), 0);
    hs_wire_msg m;
    assert_int_equal(hs_secure_recv(p->s, &m, timeout_ms), 0);
    const double waited = hs_test_now_s() - t0;
    assert_int_equal(m.step, step);
    assert_true(m.target.x[0] == 0.25 * (double)step);
    assert_true(waited >= 1e-3 * delay_ms && waited < 1e-3 * delay_ms + 0.5);
    pthread_join(th, NULL);
}

/* Whatever receive timeout the socket had (none, 40 ms: shorter than the link's bound, 7 s:
 * longer), the caller's timeouts hold: idle waits of 300 ms (the socket's timeout, then poll for
 * the rest) and 10 ms (below the bound: the stateless path), a frame 100 ms late within 1 s (after
 * a 40 ms socket timeout ended), and 30 frames in order. */
static void test_link_timeouts(void **state)
{
    (void)state;
    static const int presets[3] = {0, 40, 7000};
    for (int i = 0; i < 3; i++) {
        pair p;
        link_open(&p, presets[i], 2000);
        expect_idle(&p, 300);
        expect_idle(&p, 10);
        expect_late_frame(&p, 1, 100, 1000);
        for (int k = 2; k <= 31; k++) {
            const size_t n = seal_target(p.c, k, 0.5 * k, frame);
            assert_int_equal(write(p.fd[0], frame, n), (ssize_t)n);
            expect_target(&p, k, 0.5 * k);
        }
        expect_idle(&p, 300);
        pair_close(&p);
    }
}

/* No limit (timeout < 0): a frame 150 ms late arrives whether the socket has no timeout or a
 * 30 ms one (which ends first: the rest is waited for without limit). */
static void test_link_no_limit(void **state)
{
    (void)state;
    static const int presets[2] = {0, 30};
    for (int i = 0; i < 2; i++) {
        pair p;
        link_open(&p, presets[i], 2000);
        expect_late_frame(&p, 1, 150, -1);
        expect_late_frame(&p, 2, 20, -1);
        pair_close(&p);
    }
}

/* The socket's timeout: 1000 - 1000/8 - 20 = 855 ms after a wait of 1 s (a preset 7 s is longer
 * than that bound), kept for a longer wait (2 s: its bound is 1730), lowered for a shorter one
 * (500 ms: 500 - 62 - 20 = 418), and the preset 7 s back after restore; a socket without one gets
 * none back. */
static void test_link_option_restored(void **state)
{
    (void)state;
    pair p;
    link_open(&p, 7000, 2000);
    assert_true(fabs(rcv_ms(p.fd[1]) - 7000.0) < 20.0);
    expect_late_frame(&p, 1, 5, 1000);
    assert_int_equal(p.link.rcv_ms, 855);
    assert_true(rcv_ms(p.fd[1]) >= 855.0 && rcv_ms(p.fd[1]) < 875.0);
    expect_late_frame(&p, 2, 5, 2000);
    assert_int_equal(p.link.rcv_ms, 855);
    expect_late_frame(&p, 3, 5, 500);
    assert_int_equal(p.link.rcv_ms, 418);
    assert_true(rcv_ms(p.fd[1]) >= 418.0 && rcv_ms(p.fd[1]) < 438.0);
    hs_socket_link_restore(&p.link);
    assert_int_equal(p.link.changed, 0);
    assert_true(fabs(rcv_ms(p.fd[1]) - 7000.0) < 20.0);
    /* usable again after restore */
    expect_late_frame(&p, 4, 5, 1000);
    assert_int_equal(p.link.rcv_ms, 855);
    pair_close(&p);

    link_open(&p, 0, 2000);
    expect_late_frame(&p, 1, 5, 1000);
    assert_true(rcv_ms(p.fd[1]) >= 855.0);
    hs_socket_link_restore(&p.link);
    assert_true(rcv_ms(p.fd[1]) == 0.0);
    hs_socket_link_restore(NULL);
    pair_close(&p);
}

/* ---- a signal during a receive ---- */

static void on_signal(int sig)
{
    (void)sig;
}

typedef struct signaller {
    pthread_t target;
    int after_ms;
} signaller;

static void *signaller_main(void *arg)
{
    const signaller *g = arg;
    const struct timespec pause = {0, (long)g->after_ms * 1000000};
    nanosleep(&pause, NULL);
    pthread_kill(g->target, SIGUSR1);
    return NULL;
}

/* A signal (handler without SA_RESTART: recv answers EINTR) 50 ms into a receive: an idle
 * receive still waits its 300 ms, and a frame 150 ms late is still received. */
static void test_link_signal(void **state)
{
    (void)state;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    assert_int_equal(sigaction(SIGUSR1, &sa, &old), 0);
    pair p;
    link_open(&p, 0, 2000);
    signaller g = {.target = pthread_self(), .after_ms = 50};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, signaller_main, &g), 0);
    expect_idle(&p, 300);
    pthread_join(th, NULL);
    assert_int_equal(pthread_create(&th, NULL, signaller_main, &g), 0);
    expect_late_frame(&p, 1, 150, 1000);
    pthread_join(th, NULL);
    pair_close(&p);
    sigaction(SIGUSR1, &old, NULL);
}

/* A non-blocking socket is served as by the stateless transport: its timeout is not touched,
 * idle waits and late frames keep the caller's timeout. */
static void test_link_nonblocking(void **state)
{
    (void)state;
    pair p;
    memset(&p, 0, sizeof p);
    hs_ctx_create(&p.ctx);
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, p.fd), 0);
    p.tr = hs_transport_socket(&p.link, p.fd[1]);
    assert_int_equal(p.link.blocking, 0);
    p.c = make(p.ctx, HS_SECURE_COORDINATOR, HS_SECURE_PLAIN, 2000, NULL);
    p.s = make(p.ctx, HS_SECURE_SITE, HS_SECURE_PLAIN, 2000, &p.tr);
    handshake(p.c, p.s);
    expect_idle(&p, 60);
    expect_late_frame(&p, 1, 50, 1000);
    assert_int_equal(p.link.changed, 0);
    assert_true(rcv_ms(p.fd[1]) == 0.0);
    pair_close(&p);
}

int main(void)
{
    const struct CMUnitTest stream[] = {
        cmocka_unit_test(test_frames_together),
        cmocka_unit_test(test_frames_in_pieces),
        cmocka_unit_test(test_frame_cut),
        cmocka_unit_test(test_oversize_with_body),
    };
    const struct CMUnitTest link[] = {
        cmocka_unit_test(test_link_timeouts),        cmocka_unit_test(test_link_no_limit),
        cmocka_unit_test(test_link_option_restored), cmocka_unit_test(test_link_nonblocking),
        cmocka_unit_test(test_link_signal),
    };
    int failed = 0;
    for (use_link = 0; use_link <= 1; use_link++) /* each stream case over both transports */
        failed |=
            cmocka_run_group_tests_name(use_link ? "stream_link" : "stream_fd", stream, NULL, NULL);
    failed |= cmocka_run_group_tests_name("link", link, NULL, NULL);
    return failed;
}
