/* The site server in-process with OpenFresco protocols A and B on ephemeral ports, driven by
 * clients written here from PROTOCOL.md's byte layout (little-endian int32 sizes and float64
 * vectors packed by hand over a plain TCP socket, not the library's OpenFresco code), and by a
 * native client (wire.h, secure.h), all with the same displacement history on a perfect
 * two-actuator lab with a linear specimen K. Protocol A speaks the element's basic DOFs through
 * the site's map T (actuators x = T d, forces T^T f, initial stiffness T^T K T); protocol B and
 * the native protocol speak the actuators' own coordinates. The three must agree step by step:
 * B and native bit for bit, A bit for bit with T^T of the native forces, all with K x to 1e-14.
 * A protocol A client that reconnects after each drop for silence (issue 17: it held the site
 * without end) is refused after three empty sessions, while another address is still served. */
#include "hs_ofr_peer.h"
#include "hs_site_client.h"
#include "hs_test.h"

#include "hysim/site_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

enum { NDOF = 2, NSTEP = 12, DATA_SIZE = 256 };

static char tmpdir[256];
static char keypath[300];
static uint8_t key[HS_SECURE_KEY_SIZE];

/* The specimen (row by row) and the map T from basic DOFs to actuators (row by row): actuator 1
 * on the first story's displacement, actuator 2 on the drift u2 - u1. */
static const double K[4] = {3.0, -1.0, -1.0, 2.0};
static const double T[4] = {1.0, 0.0, -1.0, 1.0};
/* T^T K T by hand: K T = [[4, -1], [-3, 2]], T^T (K T) = [[7, -3], [-3, 2]] */
static const double KB[4] = {7.0, -3.0, -3.0, 2.0};

static const double dt = 0.01; /* s a step: the OpenFresco step_time and the native dt */

/* The history, in basic DOFs, and the actuators' displacements x = T d. */
static void basic_disp(int k, double d[NDOF])
{
    d[0] = 0.3 * sin(0.4 * (double)k);
    d[1] = 0.5 * sin(0.25 * (double)k) + 0.05 * (double)k;
}
static void actuator_disp(const double d[NDOF], double x[NDOF])
{
    for (int i = 0; i < NDOF; i++) x[i] = T[2 * i] * d[0] + T[2 * i + 1] * d[1];
}

static void send_vec(int fd, const double *v, size_t n)
{
    hs_ofr_send_vec(fd, v, n, DATA_SIZE);
}

static void recv_vec(int fd, double *v)
{
    hs_ofr_recv_vec(fd, v, DATA_SIZE);
}

/* ---- the server ---- */

typedef struct srv {
    hs_ctx *ctx;
    hs_site_file *file;
    hs_site_server *s;
} srv;

/* The site with openfresco.idle_timeout `idle` s. */
static void srv_start_idle(srv *v, double idle)
{
    char text[2048];
    snprintf(text, sizeof text,
             "site:\n  name: east\n  listen: \"127.0.0.1:0\"\n  key: %s\n  heartbeat: 0.2\n"
             "  timeout: 3\n  rate: 500\n  perfect: true\n"
             "  actuators: {a1: {stroke: 10}, a2: {stroke: 10}}\n"
             "  specimen: {type: linear, K: [[%g, %g], [%g, %g]]}\n"
             "  openfresco: {protocol_a: 0, protocol_b: 0, T: [[%g, %g], [%g, %g]], "
             "step_time: %g, idle_timeout: %g}\n",
             keypath, K[0], K[1], K[2], K[3], T[0], T[1], T[2], T[3], dt, idle);
    assert_int_equal(hs_ctx_create(&v->ctx), 0);
    const int rc = hs_site_file_load_string(v->ctx, text, strlen(text), "site.yaml", &v->file);
    if (rc) fprintf(stderr, "%s\n", hs_ctx_message(v->ctx));
    assert_int_equal(rc, 0);
    assert_int_equal(hs_site_server_create(v->ctx, hs_site_file_config(v->file), &v->s), 0);
    assert_int_equal(hs_site_server_start(v->s), 0);
}

static void srv_start(srv *v)
{
    srv_start_idle(v, 60.0);
}

static void srv_stop(srv *v)
{
    hs_site_server_status st;
    assert_int_equal(hs_site_server_stop(v->s, 5.0), 0);
    hs_site_server_status_get(v->s, &st);
    print_message("    ticks %lld, late %lld (start delay mean %.1f us, max %.1f us)\n",
                  (long long)st.ticks, (long long)st.late_ticks, 1e6 * st.late_mean,
                  1e6 * st.late_max);
    hs_site_server_destroy(&v->s);
    hs_site_file_destroy(&v->file);
    hs_ctx_destroy(&v->ctx);
}

/* ---- protocol A: OpenSees genericClient's messages ---- */

static void drive_protocol_a(int port, double q[NSTEP][NDOF], double K0[NDOF * NDOF])
{
    const int fd = hs_ofr_connect(port);
    /* sizeCtrl [n, n, n, 0, 1], sizeDaq [0, 0, 0, n, 0], dataSize */
    const int32_t sizes[11] = {NDOF, NDOF, NDOF, 0, 1, 0, 0, 0, NDOF, 0, DATA_SIZE};
    uint8_t b[44];
    for (int i = 0; i < 11; i++) hs_ofr_put_i32(b + 4 * i, sizes[i]);
    hs_ofr_send_bytes(fd, b, sizeof b);
    static double r[DATA_SIZE];
    double d[NDOF], prev[NDOF] = {0.0, 0.0};
    for (int k = 1; k <= NSTEP; k++) {
        basic_disp(k, d);
        const double t = dt * (double)k;
        /* trial: d1 d2 | v1 v2 | a1 a2 | t (velocity and acceleration by differences) */
        double m[8] = {3.0, d[0], d[1], (d[0] - prev[0]) / dt, (d[1] - prev[1]) / dt, 0.0, 0.0, t};
        send_vec(fd, m, 8);
        m[0] = 10.0; /* getForce: the reused buffer still holds the trial */
        send_vec(fd, m, 8);
        recv_vec(fd, r);
        q[k - 1][0] = r[0];
        q[k - 1][1] = r[1];
        if (k == 1) {
            m[0] = 12.0; /* getInitialStiff, once: n x n, column-major */
            send_vec(fd, m, 8);
            recv_vec(fd, r);
            memcpy(K0, r, NDOF * NDOF * sizeof(double));
        }
        m[0] = 5.0; /* commitState */
        send_vec(fd, m, 8);
        prev[0] = d[0];
        prev[1] = d[1];
    }
    const double die = 99.0;
    send_vec(fd, &die, 1);
    hs_ofr_expect_eof(fd); /* no reply; the server closes its end */
    close(fd);
}

/* ---- protocol B: a ShadowSite's messages, in the actuators' coordinates ---- */

static void drive_protocol_b(int port, double x_out[NSTEP][NDOF], double f[NSTEP][NDOF])
{
    const int fd = hs_ofr_connect(port);
    uint8_t b[40];
    hs_ofr_put_i32(b, 1); /* byte order */
    hs_ofr_send_bytes(fd, b, 4);
    hs_ofr_recv_bytes(fd, b, 4);
    assert_int_equal(hs_ofr_get_i32(b), 1);
    static double r[DATA_SIZE];
    const double open[3] = {1.0, 7.0, 2.8}; /* [1, clientTag, version] */
    send_vec(fd, open, 3);
    recv_vec(fd, r);
    HS_ASSERT_NEAR(r[0], 0.0, 0.0);
    HS_ASSERT_NEAR(r[2], 2.8, 0.0);
    const double server_tag = r[1];
    /* setup [2, dataSize], sizeCtrl [n, 0, 0, 0, 1], sizeDaq [n, 0, 0, n, 0] */
    const double setup[2] = {2.0, (double)DATA_SIZE};
    send_vec(fd, setup, 2);
    const int32_t sizes[10] = {NDOF, 0, 0, 0, 1, NDOF, 0, 0, NDOF, 0};
    for (int i = 0; i < 10; i++) hs_ofr_put_i32(b + 4 * i, sizes[i]);
    hs_ofr_send_bytes(fd, b, sizeof b);
    for (int k = 1; k <= NSTEP; k++) {
        double d[NDOF], x[NDOF];
        basic_disp(k, d);
        actuator_disp(d, x);
        const double t = dt * (double)k;
        const double trial[4] = {3.0, x[0], x[1], t};
        send_vec(fd, trial, 4);
        const double daq[1] = {6.0};
        send_vec(fd, daq, 1);
        recv_vec(fd, r); /* x1 x2 f1 f2 */
        x_out[k - 1][0] = r[0];
        x_out[k - 1][1] = r[1];
        f[k - 1][0] = r[2];
        f[k - 1][1] = r[3];
        const double commit[4] = {5.0, 0.0, 0.0, t}; /* time at slot 1 + nD + nV + nA + nF */
        send_vec(fd, commit, 4);
    }
    const double die = 99.0;
    send_vec(fd, &die, 1);
    recv_vec(fd, r);
    HS_ASSERT_NEAR(r[0], 4.0, 0.0);
    HS_ASSERT_NEAR(r[1], server_tag, 0.0);
    hs_ofr_expect_eof(fd);
    close(fd);
}

/* ---- the native protocol ---- */

static void native_send(hs_secure *ch, hs_wire_msg *m)
{
    assert_int_equal(hs_secure_send(ch, m), 0);
}

static void native_recv(hs_secure *ch, hs_wire_msg *m)
{
    do assert_int_equal(hs_secure_recv(ch, m, 3000), 0);
    while (m->type == HS_WIRE_HEARTBEAT);
}

static void drive_native(int port, double x_out[NSTEP][NDOF], double f[NSTEP][NDOF])
{
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    const int fd = hs_ofr_connect(port);
    const hs_transport tr = hs_transport_fd(fd);
    hs_secure_config cfg = {
        .role = HS_SECURE_COORDINATOR, .mode = HS_SECURE_PSK, .timeout_ms = 3000};
    memcpy(cfg.key, key, sizeof cfg.key);
    hs_secure *ch = NULL;
    assert_int_equal(hs_secure_create(ctx, &cfg, &tr, &ch), 0);
    assert_int_equal(hs_secure_handshake(ch), 0);
    hs_wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = HS_WIRE_HELLO;
    m.hello.version_min = m.hello.version_max = 1;
    m.hello.caps = HS_WIRE_CAP_ALL;
    m.hello.nact = NDOF;
    m.hello.time_scale = 1.0;
    m.hello.dt = dt;
    snprintf(m.hello.coordinator, sizeof m.hello.coordinator, "native");
    snprintf(m.hello.site, sizeof m.hello.site, "east");
    native_send(ch, &m);
    native_recv(ch, &m);
    assert_int_equal(m.type, HS_WIRE_HELLO_ACK);
    for (int k = 1; k <= NSTEP; k++) {
        double d[NDOF], x[NDOF];
        basic_disp(k, d);
        actuator_disp(d, x);
        memset(&m, 0, sizeof m);
        m.type = HS_WIRE_TARGET;
        m.step = k;
        m.target.t = dt * (double)k;
        m.target.nact = NDOF;
        memcpy(m.target.x, x, sizeof x);
        native_send(ch, &m);
        native_recv(ch, &m);
        assert_int_equal(m.type, HS_WIRE_MEASUREMENT);
        assert_int_equal(m.step, k);
        for (int j = 0; j < NDOF; j++) {
            x_out[k - 1][j] = m.meas.x[j];
            f[k - 1][j] = m.meas.f[j];
        }
        memset(&m, 0, sizeof m);
        m.type = HS_WIRE_COMMIT;
        m.step = k;
        native_send(ch, &m);
    }
    memset(&m, 0, sizeof m);
    m.type = HS_WIRE_BYE;
    native_send(ch, &m);
    native_recv(ch, &m);
    assert_int_equal(m.type, HS_WIRE_BYE);
    hs_secure_destroy(&ch);
    close(fd);
    hs_ctx_destroy(&ctx);
}

/* ---- the test ---- */

static void test_three_clients_same_forces(void **state)
{
    (void)state;
    srv v;
    srv_start(&v);
    const int pa = hs_site_server_port(v.s, HS_SITE_PORT_OFA);
    const int pb = hs_site_server_port(v.s, HS_SITE_PORT_OFB);
    const int pn = hs_site_server_port(v.s, HS_SITE_PORT_NATIVE);
    print_message("    ports: native %d, OpenFresco A %d, B %d\n", pn, pa, pb);
    assert_true(pa > 0 && pb > 0 && pn > 0 && pa != pb && pa != pn && pb != pn);

    static double qa[NSTEP][NDOF], xb[NSTEP][NDOF], fb[NSTEP][NDOF], xn[NSTEP][NDOF],
        fn[NSTEP][NDOF];
    double K0[NDOF * NDOF] = {0};
    drive_protocol_a(pa, qa, K0);
    drive_protocol_b(pb, xb, fb);
    drive_native(pn, xn, fn);

    /* getInitialStiff: T^T K T, column-major (symmetric here, the same either way) */
    for (int i = 0; i < NDOF; i++)
        for (int j = 0; j < NDOF; j++) HS_ASSERT_NEAR(K0[j * NDOF + i], KB[i * NDOF + j], 1e-14);

    double worst_ab = 0.0, worst_closed = 0.0, peak = 0.0;
    for (int k = 0; k < NSTEP; k++) {
        double d[NDOF], x[NDOF];
        basic_disp(k + 1, d);
        actuator_disp(d, x);
        for (int j = 0; j < NDOF; j++) {
            /* perfect lab: the target reached bit for bit, through B and native alike */
            assert_memory_equal(&xb[k][j], &x[j], sizeof(double));
            assert_memory_equal(&xn[k][j], &x[j], sizeof(double));
            /* B and native: the same forces, bit for bit */
            assert_memory_equal(&fb[k][j], &fn[k][j], sizeof(double));
            /* and K x, from the closed form */
            const double f = K[2 * j] * x[0] + K[2 * j + 1] * x[1];
            HS_ASSERT_NEAR(fn[k][j], f, 1e-14 * (1.0 + fabs(f)));
            if (fabs(f) > peak) peak = fabs(f);
        }
        for (int i = 0; i < NDOF; i++) {
            /* A: T^T f of the native forces, bit for bit; (T^T K T) d from the closed form */
            const double q = T[i] * fn[k][0] + T[2 + i] * fn[k][1];
            const double qc = KB[2 * i] * d[0] + KB[2 * i + 1] * d[1];
            if (fabs(qa[k][i] - q) > worst_ab) worst_ab = fabs(qa[k][i] - q);
            if (fabs(qa[k][i] - qc) > worst_closed) worst_closed = fabs(qa[k][i] - qc);
            assert_memory_equal(&qa[k][i], &q, sizeof(double));
            HS_ASSERT_NEAR(qa[k][i], qc, 1e-14 * (1.0 + fabs(qc)));
        }
    }
    print_message("    %d steps: B == native bit for bit; |q_A - T^T f_native| max %.3g, "
                  "|q_A - T^T K T d| max %.3g (peak |f| %.3g)\n",
                  NSTEP, worst_ab, worst_closed, peak);

    hs_site_server_status st;
    hs_site_server_status_get(v.s, &st);
    assert_int_equal(st.sessions, 3);
    assert_int_equal(st.refused, 0);
    assert_int_equal(st.last_step, NSTEP); /* the native test's last step */
    srv_stop(&v);
}

/* A protocol A client from `ip` (a loopback address) that sends its sizes and then nothing: how
 * long the site kept the connection open (s). */
static double silent_client(const char *ip, int port)
{
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct timeval tv = {5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    struct sockaddr_in a = {.sin_family = AF_INET};
    inet_pton(AF_INET, ip, &a.sin_addr);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    a.sin_port = htons((uint16_t)port);
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    const int32_t sizes[11] = {NDOF, NDOF, NDOF, 0, 1, 0, 0, 0, NDOF, 0, DATA_SIZE};
    uint8_t b[44];
    for (int i = 0; i < 11; i++) hs_ofr_put_i32(b + 4 * i, sizes[i]);
    const double t0 = hs_test_now_s();
    send(fd, b, sizeof b, MSG_NOSIGNAL);
    char c;
    ssize_t r;
    do r = recv(fd, &c, 1, 0);
    while (r < 0 && errno == EINTR);
    const double held = hs_test_now_s() - t0;
    assert_true(r <= 0); /* closed (a refused connection may be reset) */
    close(fd);
    return held;
}

static void test_reconnecting_client_bounded(void **state)
{
    (void)state;
    srv v;
    srv_start_idle(&v, 0.3);
    const int port = hs_site_server_port(v.s, HS_SITE_PORT_OFA);
    double held[5];
    for (int k = 0; k < 5; k++) held[k] = silent_client("127.0.0.1", port);
    const double other = silent_client("127.0.0.2", port);
    print_message("    one address, silent after its sizes, reconnecting: held %.2f %.2f %.2f s, "
                  "then %.3f %.3f s; another address: %.2f s (idle_timeout 0.3 s)\n",
                  held[0], held[1], held[2], held[3], held[4], other);
    for (int k = 0; k < 3; k++) assert_true(held[k] > 0.25 && held[k] < 2.0);
    for (int k = 3; k < 5; k++) assert_true(held[k] < 0.1);
    assert_true(other > 0.25 && other < 2.0);
    hs_site_server_status st;
    hs_site_server_status_get(v.s, &st);
    assert_int_equal((int)st.refused, 2);
    assert_true(st.x[0] == 0.0 && st.x[1] == 0.0);
    srv_stop(&v);
}

static int setup(void **state)
{
    (void)state;
    return hs_site_key_setup("/tmp/hs_site_ofr_XXXXXX", tmpdir, sizeof tmpdir, keypath,
                             sizeof keypath, key);
}

static int teardown(void **state)
{
    (void)state;
    hs_site_key_teardown(tmpdir, keypath);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_clients_same_forces),
        cmocka_unit_test(test_reconnecting_client_bounded),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
