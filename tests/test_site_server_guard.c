/* No stranger can hold the site (docs/site_server.md, "Strangers"), on real sockets on 127.0.0.1:
 * - 20 silent connections (more than the 8 pending handshakes allowed) do not keep a coordinator
 *   out; a stranger connected during a test is refused at its handshake deadline and never told
 *   who holds the site;
 * - an OpenFresco client silent before its handshake does not hold the site, one that sent its
 *   44 bytes of sizes and then nothing is dropped after openfresco.idle_timeout;
 * - a replayed AUTH_INIT is recognised as such, a sealed AUTH_INIT and a HELLO before the
 *   handshake are answered with an ERROR frame; escape sequences a peer sends are not logged raw;
 * - a flood of bad connections does not make the steps of a live test hold (holds counted with
 *   and without the flood);
 * - out-of-range server times are refused with FILE:LINE:COL and the range;
 * - the tick log is capped: FILE and FILE.1 of at most log_max bytes, the ticks consecutive;
 * - without command.mass a hold timeout is said to end the test in place, still loaded. */
#include "hs_loopback.h"
#include "hs_site_client.h"
#include "hs_test.h"

#include "hysim/cmdgen.h"
#include "hysim/site_server.h"

#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static char tmpdir[256];
static char keypath[300];
static uint8_t key[HS_SECURE_KEY_SIZE];

/* The server's log lines, kept to check what reaches a terminal. */
static char logged[65536];
static size_t logged_len;
static pthread_mutex_t logged_lock = PTHREAD_MUTEX_INITIALIZER;

static void keep_log(void *user, hs_log_level level, const char *message)
{
    (void)user;
    (void)level;
    pthread_mutex_lock(&logged_lock);
    const int n = snprintf(logged + logged_len, sizeof logged - logged_len, "%s\n", message);
    if (n > 0 && (size_t)n < sizeof logged - logged_len) logged_len += (size_t)n;
    pthread_mutex_unlock(&logged_lock);
}

typedef struct srv {
    hs_ctx *ctx;
    hs_site_file *file;
    hs_site_server *s;
    int port, ofa;
} srv;

static void srv_start_log(srv *v, const char *extra, const char *log, double log_max);

static void srv_start(srv *v, const char *extra)
{
    srv_start_log(v, extra, NULL, 0.0);
}

static void srv_start_log(srv *v, const char *extra, const char *log, double log_max)
{
    char text[2048];
    snprintf(text, sizeof text,
             "site:\n  name: east\n  listen: \"127.0.0.1:0\"\n  key: %s\n  heartbeat: 0.2\n"
             "  timeout: 0.8\n  frame_timeout: 0.4\n  rate: 500\n  perfect: true\n"
             "  actuators: {a1: {stroke: 10}}\n  specimen: {type: linear, K: [[2.0]]}\n%s",
             keypath, extra);
    assert_int_equal(hs_ctx_create(&v->ctx), 0);
    logged_len = 0;
    logged[0] = '\0';
    hs_ctx_set_logger(v->ctx, keep_log, NULL, HS_LOG_INFO); /* the refusals are expected */
    const int rc = hs_site_file_load_string(v->ctx, text, strlen(text), "site.yaml", &v->file);
    if (rc) fprintf(stderr, "%s\n", hs_ctx_message(v->ctx));
    assert_int_equal(rc, 0);
    hs_site_server_config *cfg = hs_site_file_config(v->file);
    cfg->log_path = log;
    if (log_max > 0.0) cfg->log_max = log_max;
    assert_int_equal(hs_site_server_create(v->ctx, cfg, &v->s), 0);
    assert_int_equal(hs_site_server_start(v->s), 0);
    v->port = hs_site_server_port(v->s, HS_SITE_PORT_NATIVE);
    v->ofa = hs_site_server_port(v->s, HS_SITE_PORT_OFA);
}

static hs_site_server_status status(srv *v)
{
    hs_site_server_status st;
    hs_site_server_status_get(v->s, &st);
    return st;
}

static void srv_stop_keep(srv *v)
{
    assert_int_equal(hs_site_server_stop(v->s, 5.0), 0);
}

static void srv_destroy(srv *v)
{
    hs_site_server_destroy(&v->s);
    hs_site_file_destroy(&v->file);
    hs_ctx_destroy(&v->ctx);
}

static void srv_stop(srv *v)
{
    srv_stop_keep(v);
    srv_destroy(v);
}

/* ---- a coordinator ---- */

/* HELLO (dt, time scale 1 actuator) answered by HELLO_ACK. */
static void client_hello(hs_site_client *c, double dt, double ts)
{
    hs_wire_msg m, r;
    memset(&m, 0, sizeof m);
    m.type = HS_WIRE_HELLO;
    m.hello.version_min = m.hello.version_max = 1;
    m.hello.caps = HS_WIRE_CAP_ALL;
    m.hello.nact = 1;
    m.hello.time_scale = ts;
    m.hello.dt = dt;
    snprintf(m.hello.coordinator, sizeof m.hello.coordinator, "coord-secret");
    snprintf(m.hello.site, sizeof m.hello.site, "east");
    hs_site_client_send(c, &m);
    assert_int_equal(hs_site_client_recv(c, &r), 0);
    assert_int_equal(r.type, HS_WIRE_HELLO_ACK);
}

static void simple(hs_site_client *c, int type, int64_t step)
{
    hs_wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = (hs_wire_type)type;
    m.step = step;
    hs_site_client_send(c, &m);
}

/* Steps first..first+count-1: each measurement is the target bit for bit and 2 x; returns the
 * number of steps whose state sequence includes hold. */
static int run_steps(hs_site_client *c, int64_t first, int count, double dt)
{
    int holds = 0;
    for (int64_t k = first; k < first + count; k++) {
        hs_wire_msg m, r;
        memset(&m, 0, sizeof m);
        m.type = HS_WIRE_TARGET;
        m.step = k;
        m.target.t = dt * (double)k;
        m.target.nact = 1;
        m.target.x[0] = 0.5 * sin(0.05 * (double)k);
        hs_site_client_send(c, &m);
        assert_int_equal(hs_site_client_recv(c, &r), 0);
        assert_int_equal(r.type, HS_WIRE_MEASUREMENT);
        assert_int_equal(r.step, k);
        assert_memory_equal(&r.meas.x[0], &m.target.x[0], sizeof(double));
        HS_ASSERT_NEAR(r.meas.f[0], 2.0 * m.target.x[0], 1e-14);
        if (r.meas.states & HS_CMDGEN_BIT(HS_CMDGEN_HOLD)) holds++;
        simple(c, HS_WIRE_COMMIT, k);
    }
    return holds;
}

static void client_bye(hs_site_client *c)
{
    simple(c, HS_WIRE_BYE, 0);
    hs_wire_msg m;
    assert_int_equal(hs_site_client_recv(c, &m), 0);
    assert_int_equal(m.type, HS_WIRE_BYE);
    hs_site_client_close(c);
}

/* Everything the server sends until it closes (at most cap bytes, 3 s). */
static size_t read_all(int fd, uint8_t *buf, size_t cap)
{
    size_t n = 0;
    struct timeval tv = {3, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    for (;;) {
        const ssize_t r = recv(fd, buf + n, cap - n, 0);
        if (r <= 0) break;
        n += (size_t)r;
        if (n == cap) break;
    }
    return n;
}

/* The last frame of what the server sent must be a plain ERROR containing needle. */
static void expect_error(int fd, const char *needle, const char *never)
{
    uint8_t buf[2048];
    const size_t n = read_all(fd, buf, sizeof buf);
    hs_wire_msg m;
    size_t off = 0, used = 0;
    hs_wire_status st;
    int found = 0;
    while (off < n && hs_wire_decode(buf + off, n - off, 0, &m, &used, &st) == 0) {
        off += used;
        found = m.type == HS_WIRE_ERROR;
    }
    assert_true(found);
    print_message("    refused: %s\n", m.error.text);
    assert_non_null(strstr(m.error.text, needle));
    if (never) assert_null(strstr(m.error.text, never));
}

/* ---- fixtures ---- */

static int setup(void **state)
{
    (void)state;
    return hs_site_key_setup("/tmp/hs_site_guard_XXXXXX", tmpdir, sizeof tmpdir, keypath,
                             sizeof keypath, key);
}

static int teardown(void **state)
{
    (void)state;
    hs_site_key_teardown(tmpdir, keypath);
    return 0;
}

/* ---- tests ---- */

static void test_silent_strangers_do_not_lock_out(void **state)
{
    (void)state;
    srv v;
    srv_start(&v, "");
    int idle[20];
    for (int k = 0; k < 20; k++) idle[k] = hs_loopback_connect(v.port);
    hs_test_pause_ms(50);
    hs_site_client a;
    assert_int_equal(hs_site_client_open(&a, v.port, key), 0); /* before: "busy" */
    client_hello(&a, 0.01, 1.0);
    assert_int_equal(run_steps(&a, 1, 5, 0.01) >= 0, 1);
    /* a stranger while the test runs: silent, refused at its handshake deadline (0.4 s), never
     * told who holds the site */
    const int s1 = hs_loopback_connect(v.port);
    const double t0 = hs_test_now_s();
    expect_error(s1, "no handshake within 0.4 s", "coord-secret");
    const double waited = hs_test_now_s() - t0;
    print_message("    a silent stranger refused after %.3f s\n", waited);
    assert_true(waited > 0.3 && waited < 2.0);
    close(s1);
    simple(&a, HS_WIRE_HEARTBEAT, 0); /* the coordinator is not silent beyond its 0.8 s */
    /* one that begins a handshake and stops: the same */
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_secure *ch = NULL;
    hs_secure_config cfg = {.role = HS_SECURE_COORDINATOR, .mode = HS_SECURE_PSK};
    memcpy(cfg.key, key, sizeof cfg.key);
    assert_int_equal(hs_secure_create(ctx, &cfg, NULL, &ch), 0);
    uint8_t init[256];
    size_t len = 0;
    assert_int_equal(hs_secure_handshake_start(ch, init, sizeof init, &len), 0);
    const int s2 = hs_loopback_connect(v.port);
    assert_int_equal(write(s2, init, len), (ssize_t)len);
    expect_error(s2, "no handshake within", "coord-secret");
    close(s2);
    hs_secure_destroy(&ch);
    hs_ctx_destroy(&ctx);
    assert_int_equal(run_steps(&a, 6, 5, 0.01) >= 0, 1); /* the test goes on */
    client_bye(&a);
    for (int k = 0; k < 20; k++) close(idle[k]);
    const hs_site_server_status st = status(&v);
    print_message("    refused %llu, busy %llu, sessions %llu\n", (unsigned long long)st.refused,
                  (unsigned long long)st.busy, (unsigned long long)st.sessions);
    assert_int_equal(st.sessions, 1);
    assert_int_equal(st.busy, 0);
    assert_true(st.refused >= 22);
    srv_stop(&v);
}

static void test_openfresco_idle_peers(void **state)
{
    (void)state;
    srv v;
    srv_start(&v, "  openfresco: {protocol_a: 0, idle_timeout: 0.5}\n");
    assert_true(v.ofa > 0);
    /* silent before its handshake: does not hold the site */
    const int o1 = hs_loopback_connect(v.ofa);
    hs_test_pause_ms(30);
    hs_site_client a;
    assert_int_equal(hs_site_client_open(&a, v.port, key), 0);
    client_hello(&a, 0.01, 1.0);
    run_steps(&a, 1, 3, 0.01);
    client_bye(&a);
    close(o1);
    /* the 44 bytes of protocol A's sizes, then nothing: holds the site for idle_timeout only */
    const int o2 = hs_loopback_connect(v.ofa);
    const int32_t sizes[11] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 8};
    assert_int_equal(write(o2, sizes, sizeof sizes), (ssize_t)sizeof sizes);
    const double t0 = hs_test_now_s();
    while (!status(&v).connected && hs_test_now_s() - t0 < 2.0) hs_test_pause_ms(2);
    assert_true(status(&v).connected);
    while (status(&v).connected && hs_test_now_s() - t0 < 5.0) hs_test_pause_ms(5);
    const double held = hs_test_now_s() - t0;
    print_message("    an OpenFresco client silent after its sizes held the site %.3f s "
                  "(idle_timeout 0.5 s)\n",
                  held);
    assert_false(status(&v).connected); /* before: held forever */
    assert_true(held > 0.4 && held < 3.0);
    uint8_t buf[64];
    assert_true(read_all(o2, buf, sizeof buf) == 0); /* closed, no bytes: no error channel */
    close(o2);
    assert_int_equal(hs_site_client_open(&a, v.port, key), 0);
    client_hello(&a, 0.01, 1.0);
    run_steps(&a, 1, 3, 0.01);
    client_bye(&a);
    srv_stop(&v);
}

static void test_handshake_refusals(void **state)
{
    (void)state;
    srv v;
    srv_start(&v, "");
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_secure *ch = NULL;
    hs_secure_config cfg = {.role = HS_SECURE_COORDINATOR, .mode = HS_SECURE_PSK};
    memcpy(cfg.key, key, sizeof cfg.key);
    assert_int_equal(hs_secure_create(ctx, &cfg, NULL, &ch), 0);
    uint8_t init[256];
    size_t len = 0;
    assert_int_equal(hs_secure_handshake_start(ch, init, sizeof init, &len), 0);
    /* the AUTH_INIT once: a challenge comes back */
    int fd = hs_loopback_connect(v.port);
    assert_int_equal(write(fd, init, len), (ssize_t)len);
    uint8_t buf[512];
    struct timeval tv = {3, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    assert_true(recv(fd, buf, sizeof buf, 0) > HS_WIRE_HEADER_SIZE);
    assert_int_equal(buf[5], HS_WIRE_AUTH_CHALLENGE);
    close(fd);
    /* the same bytes again: a replayed handshake, said so */
    fd = hs_loopback_connect(v.port);
    assert_int_equal(write(fd, init, len), (ssize_t)len);
    expect_error(fd, "replayed handshake", NULL);
    close(fd);
    /* a sealed AUTH_INIT: an ERROR frame says why */
    fd = hs_loopback_connect(v.port);
    init[6] |= HS_WIRE_FLAG_SEALED;
    init[HS_WIRE_HEADER_SIZE + 5] ^= 0x55; /* another nonce */
    assert_int_equal(write(fd, init, len), (ssize_t)len);
    expect_error(fd, "sealed frame where a plain one is required", NULL);
    close(fd);
    /* a HELLO before the handshake */
    hs_wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = HS_WIRE_HELLO;
    m.hello.version_min = m.hello.version_max = 1;
    m.hello.nact = 1;
    m.hello.dt = 0.01;
    m.hello.time_scale = 1.0;
    hs_wire_status st;
    assert_int_equal(hs_wire_encode(&m, 0, buf, sizeof buf, &len, &st), 0);
    fd = hs_loopback_connect(v.port);
    assert_int_equal(write(fd, buf, len), (ssize_t)len);
    expect_error(fd, "unexpected HELLO", NULL);
    close(fd);
    /* the same HELLO marked sealed (a coordinator that believes its handshake done) */
    buf[6] |= HS_WIRE_FLAG_SEALED;
    fd = hs_loopback_connect(v.port);
    assert_int_equal(write(fd, buf, len), (ssize_t)len);
    expect_error(fd, "HELLO, sequence 0: sealed frame where a plain one is required", NULL);
    close(fd);
    /* an ERROR frame whose sentence holds an escape sequence, and a coordinator whose name holds
     * one: logged with '?' for the control character */
    hs_wire_error_set(&m, 0, HS_EAUTH, "\033[2J\033[31mowned");
    assert_int_equal(hs_wire_encode(&m, 0, buf, sizeof buf, &len, &st), 0);
    fd = hs_loopback_connect(v.port);
    assert_int_equal(write(fd, buf, len), (ssize_t)len);
    read_all(fd, buf, sizeof buf);
    close(fd);
    hs_site_client a;
    assert_int_equal(hs_site_client_open(&a, v.port, key), 0);
    memset(&m, 0, sizeof m);
    m.type = HS_WIRE_HELLO;
    m.hello.version_min = m.hello.version_max = 1;
    m.hello.caps = HS_WIRE_CAP_ALL;
    m.hello.nact = 1;
    m.hello.dt = 0.01;
    m.hello.time_scale = 1.0;
    snprintf(m.hello.coordinator, sizeof m.hello.coordinator, "\033[31mred");
    hs_site_client_send(&a, &m);
    hs_wire_msg r;
    assert_int_equal(hs_site_client_recv(&a, &r), 0);
    assert_int_equal(r.type, HS_WIRE_HELLO_ACK);
    client_bye(&a);
    pthread_mutex_lock(&logged_lock);
    assert_non_null(strstr(logged, "?[2J?[31mowned"));
    assert_non_null(strstr(logged, "coordinator ?[31mred"));
    assert_null(strchr(logged, '\033'));
    pthread_mutex_unlock(&logged_lock);
    hs_secure_destroy(&ch);
    hs_ctx_destroy(&ctx);
    assert_int_equal(status(&v).sessions, 1);
    srv_stop(&v);
}

/* ---- a flood of bad connections during a live test ---- */

typedef struct flood {
    int port;
    atomic_int stop;
    long made;
} flood;

static void *flood_main(void *arg)
{
    flood *f = arg;
    int idle[16];
    int nidle = 0;
    uint32_t r = 7;
    while (!atomic_load(&f->stop)) {
        const int fd = hs_loopback_connect(f->port);
        switch (f->made % 3) {
        case 0: /* connect and go */
            close(fd);
            break;
        case 1: { /* random bytes */
            uint8_t junk[64];
            for (size_t i = 0; i < sizeof junk; i++)
                junk[i] = (uint8_t)((r = r * 1103515245u + 12345u) >> 24);
            if (write(fd, junk, sizeof junk) < 0) {
            }
            close(fd);
            break;
        }
        default: /* connect and say nothing, 16 kept open at a time */
            if (nidle == 16) {
                close(idle[0]);
                memmove(idle, idle + 1, 15 * sizeof idle[0]);
                nidle--;
            }
            idle[nidle++] = fd;
        }
        f->made++;
        hs_test_pause_ms(2);
    }
    for (int k = 0; k < nidle; k++) close(idle[k]);
    return NULL;
}

static void test_flood_does_not_perturb_a_test(void **state)
{
    (void)state;
    srv v;
    srv_start(&v, "");
    hs_site_client a;
    assert_int_equal(hs_site_client_open(&a, v.port, key), 0);
    client_hello(&a, 0.01, 5.0); /* 25 ticks (50 ms) a step: room for a loaded machine */
    const int n = 60;
    const double t0 = hs_test_now_s();
    const int quiet = run_steps(&a, 1, n, 0.01);
    const double t1 = hs_test_now_s();
    flood f = {.port = v.port};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, flood_main, &f), 0);
    const int flooded = run_steps(&a, n + 1, n, 0.01);
    const double t2 = hs_test_now_s();
    atomic_store(&f.stop, 1);
    pthread_join(th, NULL);
    client_bye(&a);
    const hs_site_server_status st = status(&v);
    print_message("    %d steps: %d held without a flood (%.2f s), %d held during a flood of %ld "
                  "bad connections (%.2f s); site refused %llu, busy %llu\n",
                  n, quiet, t1 - t0, flooded, f.made, t2 - t1, (unsigned long long)st.refused,
                  (unsigned long long)st.busy);
    assert_true(f.made >= 100);
    /* the refusals are logged one by one at most 10 a second, the others summed up */
    pthread_mutex_lock(&logged_lock);
    int lines = 0, sums = 0;
    for (const char *q = logged; (q = strstr(q, "refused before holding the site")) != NULL; q++)
        lines++;
    for (const char *q = logged; (q = strstr(q, "not logged one by one")) != NULL; q++) sums++;
    pthread_mutex_unlock(&logged_lock);
    print_message("    %d refusals logged one by one, %d summary lines\n", lines - sums, sums);
    assert_true(lines - sums <= 10 * (int)(t2 - t1 + 2.0));
    assert_true(sums >= 1);
    /* loose: the machine is shared, so a step may hold now and then without any flood; the flood
     * must not add holds beyond that (before: 0.2 % of the steps held because of it) */
    assert_true(flooded <= quiet + 2);
    assert_int_equal(st.sessions, 1);
    assert_int_equal(st.busy, 0);
    srv_stop(&v);
}

/* Without command.mass a hold timeout ends the test in place, loaded: the site says so (before:
 * "the specimen was unloaded" with the force at rest 2 x 0.3 = 0.6). */
static void test_hold_timeout_without_mass(void **state)
{
    (void)state;
    srv v;
    srv_start(&v, "  command: {hold_timeout: 0.2}\n");
    hs_site_client a;
    assert_int_equal(hs_site_client_open(&a, v.port, key), 0);
    client_hello(&a, 0.02, 1.0);
    for (int64_t k = 1; k <= 3; k++) {
        hs_wire_msg m, r;
        memset(&m, 0, sizeof m);
        m.type = HS_WIRE_TARGET;
        m.step = k;
        m.target.t = 0.02 * (double)k;
        m.target.nact = 1;
        m.target.x[0] = 0.1 * (double)k;
        hs_site_client_send(&a, &m);
        assert_int_equal(hs_site_client_recv(&a, &r), 0);
        assert_int_equal(r.type, HS_WIRE_MEASUREMENT);
        simple(&a, HS_WIRE_COMMIT, k);
    }
    hs_site_client_close(&a); /* the coordinator vanishes */
    const double t0 = hs_test_now_s();
    while (status(&v).state != HS_CMDGEN_DONE && hs_test_now_s() - t0 < 3.0) hs_test_pause_ms(5);
    const hs_site_server_status st = status(&v);
    print_message("    done after %.3f s, x %.4f, f %.4f: still loaded\n", hs_test_now_s() - t0,
                  st.x[0], st.f[0]);
    assert_int_equal(st.state, HS_CMDGEN_DONE);
    HS_ASSERT_NEAR(st.f[0], 2.0 * st.x[0], 1e-12);
    assert_true(st.f[0] > 0.5); /* held near 0.3 (extrapolation may overshoot a little) */
    assert_int_equal(hs_site_client_open(&a, v.port, key), 0);
    client_hello(&a, 0.02, 1.0);
    simple(&a, HS_WIRE_RESUME, 3);
    hs_wire_msg r;
    assert_int_equal(hs_site_client_recv(&a, &r), 0);
    assert_int_equal(r.type, HS_WIRE_ERROR);
    print_message("    %s\n", r.error.text);
    assert_non_null(strstr(r.error.text, "the specimen still loaded"));
    assert_non_null(strstr(r.error.text, "command.mass"));
    assert_null(strstr(r.error.text, "unloaded"));
    hs_site_client_close(&a);
    srv_stop(&v);
}

/* The first and last tick numbers of a tick log file, its size and header line. */
static long log_file(const char *path, long *first, long *last)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    assert_non_null(fgets(line, sizeof line, f));
    assert_int_equal(strncmp(line, "tick,t,late,state,trip,command_a1,x_a1,f_a1", 43), 0);
    *first = *last = -1;
    while (fgets(line, sizeof line, f)) {
        const long t = strtol(line, NULL, 10);
        if (*first < 0) *first = t;
        assert_int_equal(t, *last < 0 ? t : *last + 1); /* consecutive */
        *last = t;
    }
    const long size = ftell(f);
    fclose(f);
    return size;
}

static void test_tick_log_capped(void **state)
{
    (void)state;
    char log[400], old[420];
    snprintf(log, sizeof log, "%s/ticks.csv", tmpdir);
    snprintf(old, sizeof old, "%s.1", log);
    srv v;
    srv_start_log(&v, "", log, HS_SITE_SERVER_LOG_MIN);
    hs_test_pause_ms(600); /* 300 ticks of about 50 bytes: several files of 4096 bytes */
    srv_stop_keep(&v);
    const hs_site_server_status st = status(&v);
    srv_destroy(&v);
    long f0, l0, f1, l1;
    const long s1 = log_file(old, &f1, &l1), s0 = log_file(log, &f0, &l0);
    print_message("    %lld ticks: %llu rotations; %s.1 %ld bytes (ticks %ld-%ld), %s %ld bytes "
                  "(ticks %ld-%ld); %llu dropped\n",
                  (long long)st.ticks, (unsigned long long)st.log_rotations, "ticks.csv", s1, f1,
                  l1, "ticks.csv", s0, f0, l0, (unsigned long long)st.log_dropped);
    assert_true(st.log_rotations >= 2);
    assert_int_equal(st.log_dropped, 0);
    assert_true(s1 <= (long)HS_SITE_SERVER_LOG_MIN + 200); /* the cap and one line at most */
    assert_true(s0 <= (long)HS_SITE_SERVER_LOG_MIN + 200);
    assert_true(s1 >= (long)HS_SITE_SERVER_LOG_MIN);
    assert_int_equal(f0, l1 + 1); /* nothing lost between the two files */
    assert_int_equal(l0, st.ticks);
    unlink(log);
    unlink(old);
}

static void test_site_file_time_bounds(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_site_file *f = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    static const char *const bad[][2] = {
        {"site:\n  name: e\n  plain: true\n  timeout: 1e300\n  actuators: {a1: {}}\n"
         "  specimen: {type: linear, K: [[1]]}\n",
         "site.yaml:4:12: site.timeout: 1e+300 s is out of range: give a time in seconds, > 0 "
         "and <= 3600"},
        {"site:\n  name: e\n  plain: true\n  frame_timeout: 3e6\n  actuators: {a1: {}}\n"
         "  specimen: {type: linear, K: [[1]]}\n",
         "site.yaml:4:18: site.frame_timeout: 3e+06 s is out of range: give a time in seconds, > "
         "0 and <= 60"},
        {"site:\n  name: e\n  plain: true\n  heartbeat: -1\n  actuators: {a1: {}}\n"
         "  specimen: {type: linear, K: [[1]]}\n",
         "site.yaml:4:14: site.heartbeat: -1 s is out of range"},
        {"site:\n  name: e\n  plain: true\n  actuators: {a1: {}}\n"
         "  specimen: {type: linear, K: [[1]]}\n  openfresco: {protocol_a: 0, idle_timeout: "
         "1e9}\n",
         "site.yaml:6:45: site.openfresco.idle_timeout: 1e+09 s is out of range: give a time in "
         "seconds, > 0 and <= 86400"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const int rc = hs_site_file_load_string(ctx, bad[i][0], strlen(bad[i][0]), "site.yaml", &f);
        print_message("    %s\n", hs_ctx_message(ctx));
        assert_int_equal(rc, HS_EINPUT);
        assert_non_null(strstr(hs_ctx_message(ctx), bad[i][1]));
    }
    /* the API refuses them too */
    const char *ok = "site:\n  name: e\n  plain: true\n  actuators: {a1: {}}\n"
                     "  specimen: {type: linear, K: [[1]]}\n";
    assert_int_equal(hs_site_file_load_string(ctx, ok, strlen(ok), "site.yaml", &f), 0);
    hs_site_server_config cfg = *hs_site_file_config(f);
    cfg.frame_timeout = 1e300;
    hs_site_server *s = NULL;
    assert_int_equal(hs_site_server_create(ctx, &cfg, &s), HS_EINVAL);
    assert_non_null(strstr(hs_ctx_message(ctx), "0 < frame_timeout <= 60 s"));
    hs_site_file_destroy(&f);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_site_file_time_bounds),
        cmocka_unit_test(test_silent_strangers_do_not_lock_out),
        cmocka_unit_test(test_openfresco_idle_peers),
        cmocka_unit_test(test_handshake_refusals),
        cmocka_unit_test(test_flood_does_not_perturb_a_test),
        cmocka_unit_test(test_tick_log_capped),
        cmocka_unit_test(test_hold_timeout_without_mass),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
