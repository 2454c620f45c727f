/* The site server's NEES port in-process (real sockets on 127.0.0.1, ephemeral ports), driven by a
 * client written here from PROTOCOL-NEES.md (plain text lines over TCP, not the library's NEES
 * code): a perfect two-actuator lab (a1 on x displacement, a2 on z rotation of MDL-00-01; springs
 * k_x = 100, k_rz = 5000; strokes 5 and 0.01).
 * - Transcript A's requests byte for byte: every reply arrives alone in its read, the data
 *   replies report the target bit for bit and K x to 1e-14.
 * - ECLabVIEW's requests: 512 bytes with NUL padding, one get-control-point naming the point
 *   twice: two lines, each in its own read, at least most of line_gap apart.
 * - Safety: a propose beyond a stroke is declined (NOK) and the actuators' true positions stay bit
 *   for bit where they were; a later valid step is served.
 * - A peer whose address is not in nees.allow is closed without a byte and counted refused; a
 *   silent one is closed after frame_timeout, one silent after a request after idle_timeout.
 * - Only valid requests are activity (issue 17): a peer that sends declined lines from the start
 *   is closed after frame_timeout, one that sends stray bytes or declined lines after its
 *   open-session after idle_timeout (they used to hold the port for ever).
 * - A site listening on 0.0.0.0 refuses to open its NEES port without `allow` (or `allow: any`).
 * - 40 pipelined get-control-point requests of 16 lines each (line_gap 0.05 s: 30 s of gaps)
 *   neither stall the network thread nor delay the site's stop.
 * - 2000 declined lines are logged a few times, and the logs account for all 2000.
 * - Hex floats and a DOF given twice in one propose are declined; nothing moves.
 * - The site file's `nees` errors come with FILE:LINE:COL. */
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

static const double kx = 100.0, krz = 5000.0;

typedef struct srv {
    hs_ctx *ctx;
    hs_site_file *file;
    hs_site_server *s;
} srv;

/* The site on `host` with `nees.allow: ALLOW` (NULL: no allow key); returns what
 * hs_site_server_create returned (the server is started when 0). */
static int srv_start_on(srv *v, const char *host, const char *allow, double idle)
{
    char text[2048], allow_line[256] = "";
    if (allow) snprintf(allow_line, sizeof allow_line, "    allow: %s\n", allow);
    snprintf(text, sizeof text,
             "site:\n  name: east\n  listen: \"%s:0\"\n  plain: true\n  timeout: 3\n"
             "  frame_timeout: 0.3\n"
             "  rate: 1000\n  perfect: true\n"
             "  actuators: {a1: {stroke: 5}, a2: {stroke: 0.01}}\n"
             "  specimen: {type: linear, K: [[%g, 0], [0, %g]]}\n"
             "  nees:\n    port: 0\n%s    step_time: 0.01\n    line_gap: 0.05\n"
             "    idle_timeout: %g\n"
             "    control_points:\n"
             "      MDL-00-01: {dofs: [x displacement, z rotation], actuators: [a1, a2]}\n",
             host, kx, krz, allow_line, idle);
    memset(v, 0, sizeof *v);
    assert_int_equal(hs_ctx_create(&v->ctx), 0);
    const int rc = hs_site_file_load_string(v->ctx, text, strlen(text), "site.yaml", &v->file);
    if (rc) fprintf(stderr, "%s\n", hs_ctx_message(v->ctx));
    assert_int_equal(rc, 0);
    const int created = hs_site_server_create(v->ctx, hs_site_file_config(v->file), &v->s);
    if (created) return created;
    assert_int_equal(hs_site_server_start(v->s), 0);
    assert_true(hs_site_server_port(v->s, HS_SITE_PORT_NEES) > 0);
    return 0;
}

static void srv_start(srv *v, const char *allow, double idle)
{
    char list[128];
    snprintf(list, sizeof list, "[%s]", allow);
    assert_int_equal(srv_start_on(v, "127.0.0.1", list, idle), 0);
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

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- the client: a plain socket, every wait bounded (3 s) ---- */

static int tcp_connect(int port)
{
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct timeval tv = {3, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    return fd;
}

static void send_text(int fd, const char *p, size_t n)
{
    while (n) {
        const ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        assert_true(w > 0);
        p += w;
        n -= (size_t)w;
    }
}

/* One read, as ECLabVIEW and the Java library do: it must hold exactly one whole line. */
static void read_one(int fd, char *buf, size_t cap, double *at)
{
    size_t len = 0;
    ssize_t r;
    do r = recv(fd, buf, cap - 1, 0);
    while (r < 0 && errno == EINTR);
    if (r <= 0) fail_msg("NEES client: no reply within 3 s (recv %zd)", r);
    len = (size_t)r;
    if (at) *at = now();
    buf[len] = '\0';
    /* a whole reply in one burst (TCP_NODELAY, one write) and nothing more */
    assert_true(len >= 2 && len < 512);
    assert_int_equal(buf[len - 1], '\n');
    assert_ptr_equal(strchr(buf, '\n'), buf + len - 1);
    assert_int_not_equal(buf[len - 2], '\t');
}

static void request(int fd, const char *line, char *reply, size_t cap)
{
    send_text(fd, line, strlen(line));
    read_one(fd, reply, cap, NULL);
}

/* The TAB-separated fields of a reply (in place). */
static int fields(char *line, char **f, int cap)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *p = strtok(line, "\t"); p && n < cap; p = strtok(NULL, "\t")) f[n++] = p;
    return n;
}

/* A data reply: OK 0 ID CP x displacement X z rotation R x force F z moment M. */
static void check_data(char *reply, const char *id, const char *cp, double x, double r)
{
    char *f[32];
    const int n = fields(reply, f, 32);
    assert_int_equal(n, 16);
    assert_string_equal(f[0], "OK");
    assert_string_equal(f[1], "0");
    assert_string_equal(f[2], id);
    assert_string_equal(f[3], cp);
    static const char *const labels[8] = {"x", "displacement", "z", "rotation",
                                          "x", "force",        "z", "moment"};
    for (int k = 0; k < 4; k++) {
        assert_string_equal(f[4 + 3 * k], labels[2 * k]);
        assert_string_equal(f[5 + 3 * k], labels[2 * k + 1]);
    }
    assert_true(strtod(f[6], NULL) == x); /* the target, bit for bit */
    assert_true(strtod(f[9], NULL) == r);
    HS_ASSERT_NEAR(strtod(f[12], NULL), kx * x, 1e-14 * fabs(kx * x) + 1e-300);
    HS_ASSERT_NEAR(strtod(f[15], NULL), krz * r, 1e-14 * fabs(krz * r) + 1e-300);
}

static void test_uisimcor_and_eclabview(void **state)
{
    (void)state;
    srv v;
    srv_start(&v, "127.0.0.1", 600.0);
    const int fd = tcp_connect(hs_site_server_port(v.s, HS_SITE_PORT_NEES));
    char reply[1024];
    /* PROTOCOL-NEES.md §9 A, the client's lines byte for byte */
    request(fd, "open-session\tdummyOpenSession\n", reply, sizeof reply);
    assert_string_equal(reply, "OK\t0\tdummyOpenSession\tOpen Session Succeeded.\n");
    request(fd, "set-parameter\tdummySetParam\tnstep\t2\n", reply, sizeof reply);
    assert_string_equal(reply, "OK\t0\tdummySetParam\tCommand ignored. Carry on.\n");
    static const char *const tid[2] = {"trans20080720020138.31", "trans20080720020150.31"};
    static const char *const val[2][2] = {{"1.0000000000e-002", "2.0000000000e-004"},
                                          {"2.0000000000e-002", "4.0000000000e-004"}};
    for (int k = 0; k < 2; k++) {
        char line[256], want[128];
        snprintf(line, sizeof line,
                 "propose\t%s\tMDL-00-01\tx\tdisplacement\t%s\tz\trotation\t%s\n", tid[k],
                 val[k][0], val[k][1]);
        request(fd, line, reply, sizeof reply);
        snprintf(want, sizeof want, "OK\t0\t%s\tpropose\tAccepted\n", tid[k]);
        assert_string_equal(reply, want);
        snprintf(line, sizeof line, "execute\t%s\n", tid[k]);
        request(fd, line, reply, sizeof reply);
        snprintf(want, sizeof want, "OK\t0\t%s\texecute\tDone\n", tid[k]);
        assert_string_equal(reply, want);
        request(fd, "get-control-point\tdummy\tMDL-00-01\n", reply, sizeof reply);
        check_data(reply, "dummy", "MDL-00-01", strtod(val[k][0], NULL), strtod(val[k][1], NULL));
    }
    /* the laboratory at rest: two samples 0.1 s apart equal (the controller holds) */
    hs_site_server_status st;
    struct timespec pause = {0, 100000000};
    double x0[2] = {NAN, NAN};
    for (int k = 0; k < 50; k++) {
        hs_site_server_status_get(v.s, &st);
        if (st.x[0] == x0[0] && st.x[1] == x0[1]) break;
        x0[0] = st.x[0], x0[1] = st.x[1];
        nanosleep(&pause, NULL);
    }
    assert_true(st.x[0] == x0[0] && st.x[1] == x0[1]);

    /* beyond a1's stroke: declined, nothing moves (true positions bit for bit), session goes on */
    request(fd, "propose\ttrans3\tMDL-00-01\tx\tdisplacement\t5.5\n", reply, sizeof reply);
    assert_memory_equal(reply, "NOK\t1\ttrans3\t", 13);
    request(fd, "execute\ttrans3\n", reply, sizeof reply);
    assert_string_equal(reply, "OK\t0\ttrans3\texecute\tDone\n");
    nanosleep(&pause, NULL);
    hs_site_server_status_get(v.s, &st);
    assert_true(st.x[0] == x0[0] && st.x[1] == x0[1]);
    assert_int_equal(st.tripped, 0);

    /* ECLabVIEW: its whole 512-byte buffer (NULs after the text), %.10E numbers, the point asked
     * twice in one get-control-point: two lines, each alone in its read, line_gap apart */
    char ecl[512];
    memset(ecl, 0, sizeof ecl);
    const char *p = "propose\tOPFTransaction20261026012812\tMDL-00-01\tx\tdisplacement\t-3."
                    "2500000000E+00\tz\trotation\t-9.9990000000E-03\n";
    memcpy(ecl, p, strlen(p));
    send_text(fd, ecl, sizeof ecl);
    read_one(fd, reply, sizeof reply, NULL);
    assert_string_equal(reply, "OK\t0\tOPFTransaction20261026012812\tpropose\tAccepted\n");
    memset(ecl, 0, sizeof ecl);
    p = "execute\tOPFTransaction20261026012812\n";
    memcpy(ecl, p, strlen(p));
    send_text(fd, ecl, sizeof ecl);
    read_one(fd, reply, sizeof reply, NULL);
    assert_string_equal(reply, "OK\t0\tOPFTransaction20261026012812\texecute\tDone\n");
    p = "get-control-point\tOPFTransaction20261026012812\tMDL-00-01\tMDL-00-01\n";
    send_text(fd, p, strlen(p));
    double t1 = 0, t2 = 0;
    read_one(fd, reply, sizeof reply, &t1);
    check_data(reply, "OPFTransaction20261026012812", "MDL-00-01", -3.25, -9.999e-3);
    read_one(fd, reply, sizeof reply, &t2);
    check_data(reply, "OPFTransaction20261026012812", "MDL-00-01", -3.25, -9.999e-3);
    print_message("    two lines of one request %.1f ms apart (line_gap 50 ms)\n", 1e3 * (t2 - t1));
    assert_true(t2 - t1 > 0.03);

    /* close-session, then the server closes */
    request(fd, "close-session\tOpenFresco\n", reply, sizeof reply);
    assert_string_equal(reply, "OK\t0\tOpenFresco\tClose Session Succeeded.\n");
    char b;
    assert_int_equal(recv(fd, &b, 1, 0), 0);
    close(fd);
    hs_site_server_status_get(v.s, &st);
    assert_int_equal((int)st.sessions, 1);

    /* a second client: its first move starts a new test on a fresh laboratory */
    const int64_t gen = st.generation;
    const int fd2 = tcp_connect(hs_site_server_port(v.s, HS_SITE_PORT_NEES));
    request(fd2, "propose\tt1\tMDL-00-01\tx\tdisplacement\t0.5\n", reply, sizeof reply);
    request(fd2, "execute\tt1\n", reply, sizeof reply);
    assert_string_equal(reply, "OK\t0\tt1\texecute\tDone\n");
    request(fd2, "get-control-point\tMDL-00-01\n", reply, sizeof reply);
    check_data(reply, "dummy", "MDL-00-01", 0.5, 0.0); /* a2 at rest on the fresh lab */
    close(fd2);
    nanosleep(&pause, NULL);
    hs_site_server_status_get(v.s, &st);
    assert_true(st.generation > gen);
    srv_stop(&v);
}

static void test_allow(void **state)
{
    (void)state;
    srv v;
    srv_start(&v, "10.1.2.3, 192.168.0.0/16", 600.0);
    const int fd = tcp_connect(hs_site_server_port(v.s, HS_SITE_PORT_NEES));
    send_text(fd, "open-session\tdummy\n", 19);
    char b;
    ssize_t r;
    do r = recv(fd, &b, 1, 0);
    while (r < 0 && errno == EINTR);
    assert_true(r <= 0); /* closed without a byte */
    close(fd);
    struct timespec pause = {0, 50000000};
    nanosleep(&pause, NULL);
    hs_site_server_status st;
    hs_site_server_status_get(v.s, &st);
    assert_int_equal((int)st.refused, 1);
    assert_int_equal((int)st.sessions, 0);
    assert_true(st.x[0] == 0.0 && st.x[1] == 0.0);
    srv_stop(&v);
}

/* Silent peers: one that sends nothing is closed after frame_timeout (0.3 s), one silent after a
 * request after idle_timeout (0.6 s); neither moves anything. */
static double closed_after(int fd)
{
    const double t0 = now();
    char b;
    ssize_t r;
    do r = recv(fd, &b, 1, 0);
    while (r < 0 && errno == EINTR);
    assert_int_equal(r, 0);
    close(fd);
    return now() - t0;
}

static void test_silent_peers(void **state)
{
    (void)state;
    srv v;
    srv_start(&v, "127.0.0.1", 0.6);
    const int port = hs_site_server_port(v.s, HS_SITE_PORT_NEES);
    const double t1 = closed_after(tcp_connect(port));
    const int fd = tcp_connect(port);
    char reply[256];
    request(fd, "open-session\tdummy\n", reply, sizeof reply);
    const double t2 = closed_after(fd);
    print_message(
        "    silent from the start: closed after %.2f s (frame_timeout 0.3 s); silent after "
        "open-session: %.2f s (idle_timeout 0.6 s)\n",
        t1, t2);
    assert_true(t1 > 0.25 && t1 < 2.0);
    assert_true(t2 > 0.55 && t2 < 2.5);
    hs_site_server_status st;
    hs_site_server_status_get(v.s, &st);
    assert_int_equal((int)st.refused, 1);
    assert_true(st.x[0] == 0.0 && st.x[1] == 0.0);
    srv_stop(&v);
}

/* Sends `chunk` every 50 ms (errors ignored: the server may have closed) and drains the replies,
 * until the server closes the connection or 3 s pass; returns the time it stayed open (s). */
static double open_while_sending(int fd, const char *chunk)
{
    const double t0 = now();
    const struct timespec pause = {0, 50000000};
    char buf[4096];
    while (now() - t0 < 3.0) {
        send(fd, chunk, strlen(chunk), MSG_NOSIGNAL | MSG_DONTWAIT);
        nanosleep(&pause, NULL);
        ssize_t r;
        while ((r = recv(fd, buf, sizeof buf, MSG_DONTWAIT)) > 0) {
        }
        if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) break;
    }
    close(fd);
    return now() - t0;
}

/* Issue 17, hole 4: any byte kept the session for another idle_timeout (600 s by default). */
static void test_only_valid_requests_hold(void **state)
{
    (void)state;
    srv v;
    srv_start(&v, "127.0.0.1", 0.6);
    const int port = hs_site_server_port(v.s, HS_SITE_PORT_NEES);
    /* no session ever opened: declined lines from the start, closed after frame_timeout */
    const double t_junk = open_while_sending(tcp_connect(port), "bogus\tline\n");
    char reply[256];
    int fd = tcp_connect(port);
    request(fd, "open-session\tdummy\n", reply, sizeof reply);
    const double t_bytes = open_while_sending(fd, "g"); /* a line that never ends */
    fd = tcp_connect(port);
    request(fd, "open-session\tdummy\n", reply, sizeof reply);
    const double t_declined = open_while_sending(fd, "propose\tt\tMDL-00-01\tx\tdisplacement\t9\n");
    print_message("    held by: declined lines from the start %.2f s (frame_timeout 0.3 s); after "
                  "open-session, a byte every 50 ms %.2f s, a declined propose every 50 ms %.2f s "
                  "(idle_timeout 0.6 s)\n",
                  t_junk, t_bytes, t_declined);
    assert_true(t_junk > 0.25 && t_junk < 1.5);
    assert_true(t_bytes > 0.55 && t_bytes < 2.0);
    assert_true(t_declined > 0.55 && t_declined < 2.0);
    hs_site_server_status st;
    hs_site_server_status_get(v.s, &st);
    assert_true(st.x[0] == 0.0 && st.x[1] == 0.0);
    srv_stop(&v);
}

static void test_beyond_loopback_needs_allow(void **state)
{
    (void)state;
    srv v;
    assert_int_equal(srv_start_on(&v, "0.0.0.0", NULL, 600.0), HS_EINPUT);
    const char *msg = hs_ctx_message(v.ctx);
    print_message("    %s\n", msg);
    assert_non_null(strstr(msg, "would listen on 0.0.0.0"));
    assert_non_null(strstr(msg, "site.nees.allow"));
    assert_non_null(strstr(msg, "'allow: any'"));
    assert_null(v.s);
    hs_site_file_destroy(&v.file);
    hs_ctx_destroy(&v.ctx);
    /* written out, either way, it starts; a loopback client is then served */
    static const char *const allows[2] = {"any", "[127.0.0.0/8]"};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(srv_start_on(&v, "0.0.0.0", allows[k], 600.0), 0);
        const int fd = tcp_connect(hs_site_server_port(v.s, HS_SITE_PORT_NEES));
        char reply[256];
        request(fd, "open-session\tdummy\n", reply, sizeof reply);
        assert_string_equal(reply, "OK\t0\tdummy\tOpen Session Succeeded.\n");
        close(fd);
        srv_stop(&v);
    }
}

/* Pipelined requests of many lines: 40 x 15 gaps of 0.05 s used to block the network thread for
 * 30 s (a SIGTERM took 57.8 s); the site stops within a second now, answering as it goes. */
static void test_pipelined_requests_do_not_stall(void **state)
{
    (void)state;
    srv v;
    srv_start(&v, "127.0.0.1", 600.0);
    const int fd = tcp_connect(hs_site_server_port(v.s, HS_SITE_PORT_NEES));
    char req[1024] = "get-control-point\tid";
    for (int k = 0; k < 16; k++) strcat(req, "\tMDL-00-01");
    strcat(req, "\n");
    char all[40 * sizeof req];
    all[0] = '\0';
    for (int k = 0; k < 40; k++) strcat(all, req);
    send_text(fd, all, strlen(all));
    char reply[1024];
    double t1 = 0.0, t2 = 0.0;
    read_one(fd, reply, sizeof reply, &t1);
    check_data(reply, "id", "MDL-00-01", 0.0, 0.0);
    read_one(fd, reply, sizeof reply, &t2); /* the second line, line_gap later, alone */
    check_data(reply, "id", "MDL-00-01", 0.0, 0.0);
    hs_site_server_status st;
    hs_site_server_status_get(v.s, &st); /* the status answers while lines are queued */
    const double t0 = now();
    assert_int_equal(hs_site_server_stop(v.s, 5.0), 0);
    const double took = now() - t0;
    print_message("    lines %.1f ms apart; stopped %.3f s after 600 lines were asked (30 s of "
                  "gaps)\n",
                  1e3 * (t2 - t1), took);
    assert_true(t2 - t1 > 0.03);
    assert_true(took < 2.0);
    close(fd);
    hs_site_server_destroy(&v.s);
    hs_site_file_destroy(&v.file);
    hs_ctx_destroy(&v.ctx);
}

typedef struct log_count {
    int declined;         /* "declined:" lines */
    long long not_logged; /* the declines they say were not logged */
} log_count;

static void count_log(void *user, hs_log_level level, const char *message)
{
    (void)level;
    log_count *c = user;
    const char *d = strstr(message, "declined: ");
    if (d) c->declined++;
    const char *and = strstr(message, "(and ");
    if (d && and) c->not_logged += strtoll(and+5, NULL, 10);
    const char *more = strstr(message, "more declined requests were not logged");
    if (more) {
        const char *p = more;
        while (p > message && p[-1] == ' ') p--;
        while (p > message && p[-1] >= '0' && p[-1] <= '9') p--;
        c->not_logged += strtoll(p, NULL, 10);
    }
}

/* 1 MB of junk used to give 22 MB of log: 2000 declined lines are logged a few times, and what
 * is logged accounts for every one of them. */
static void test_declines_logged_with_a_rate_limit(void **state)
{
    (void)state;
    srv v;
    srv_start(&v, "127.0.0.1", 600.0);
    log_count c = {0, 0};
    hs_ctx_set_logger(v.ctx, count_log, &c, HS_LOG_WARN);
    const int fd = tcp_connect(hs_site_server_port(v.s, HS_SITE_PORT_NEES));
    char reply[256];
    request(fd, "open-session\tdummy\n", reply, sizeof reply);
    enum { N = 2000 };
    for (int k = 0; k < N; k++) {
        request(fd, "frobnicate\tx\n", reply, sizeof reply);
        assert_memory_equal(reply, "NOK\t1\tx\tUnknown command frobnicate", 33);
    }
    close(fd);
    const struct timespec pause = {0, 10000000};
    hs_site_server_status st;
    for (int k = 0; k < 300; k++) { /* the server has seen the close (and logged the rest) */
        hs_site_server_status_get(v.s, &st);
        if (!st.connected) break;
        nanosleep(&pause, NULL);
    }
    assert_int_equal(st.connected, 0);
    srv_stop(&v);
    print_message("    %d declined requests: %d log lines, %lld reported as not logged\n", N,
                  c.declined, c.not_logged);
    assert_true(c.declined >= 5 && c.declined <= 10);
    assert_int_equal(c.declined + c.not_logged, N);
}

static void test_hex_and_duplicate_dofs_declined(void **state)
{
    (void)state;
    srv v;
    srv_start(&v, "127.0.0.1", 600.0);
    const int fd = tcp_connect(hs_site_server_port(v.s, HS_SITE_PORT_NEES));
    char reply[512];
    request(fd, "propose\th1\tMDL-00-01\tx\tdisplacement\t0x1p-2\n", reply, sizeof reply);
    assert_memory_equal(reply, "NOK\t1\th1\t", 9);
    assert_non_null(strstr(reply, "'0x1p-2'"));
    assert_non_null(strstr(reply, "not a finite decimal number"));
    request(fd, "propose\td1\tMDL-00-01\tx\tdisplacement\t1\tx\tdisplacement\t4\n", reply,
            sizeof reply);
    assert_memory_equal(reply, "NOK\t1\td1\t", 9);
    assert_non_null(strstr(reply, "x displacement is given twice (actuator a1)"));
    request(fd, "execute\td1\n", reply, sizeof reply); /* nothing pending: nothing moves */
    assert_string_equal(reply, "OK\t0\td1\texecute\tDone\n");
    request(fd, "get-control-point\tMDL-00-01\n", reply, sizeof reply);
    check_data(reply, "dummy", "MDL-00-01", 0.0, 0.0);
    close(fd);
    hs_site_server_status st;
    hs_site_server_status_get(v.s, &st);
    assert_true(st.x[0] == 0.0 && st.x[1] == 0.0);
    srv_stop(&v);
}

static void expect_error(const char *nees, const char *where, const char *what)
{
    char text[1024];
    snprintf(text, sizeof text,
             "site:\n  name: east\n  plain: true\n  actuators: {a1: {}, a2: {}}\n"
             "  specimen: {type: linear, K: [[1, 0], [0, 1]]}\n  nees: %s\n",
             nees);
    hs_ctx *ctx = NULL;
    hs_site_file *f = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    assert_int_equal(hs_site_file_load_string(ctx, text, strlen(text), "lab.yaml", &f), HS_EINPUT);
    const char *msg = hs_ctx_message(ctx);
    if (!strstr(msg, where) || !strstr(msg, what))
        fail_msg("expected '%s' and '%s' in: %s", where, what, msg);
    hs_ctx_destroy(&ctx);
}

static void test_site_file_errors(void **state)
{
    (void)state;
    expect_error("{allow: [127.0.0.1]}", "lab.yaml:6:9:", "missing required key 'port'");
    expect_error("{port: 0, allow: [localhost]}", "lab.yaml:6:27:", "numeric IPv4");
    expect_error("{port: 0, allow: [1.2.3.4/33]}", "lab.yaml:6:27:", "numeric IPv4");
    expect_error("{port: 0, allow: all}", "lab.yaml:6:26:", "or 'any'");
    expect_error("{port: 0, mode: labview3}", "lab.yaml:6:25:", "expected labview1");
    expect_error("{port: 0, execute_timeout: 3}", "lab.yaml:6:19:", "unknown key");
    expect_error("{port: 0, control_points: {MDL-00-01: {dofs: [x displacement, x force]}}}",
                 "lab.yaml:6:", "got 'x force'");
    expect_error("{port: 0, control_points: {MDL-00-01: {dofs: [x displacement, x displacement]}}}",
                 "lab.yaml:6:", "listed twice");
    expect_error("{port: 0, control_points: {MDL-00-01: {dofs: [x displacement]}}}",
                 "lab.yaml:6:", "1 DOF(s) for 2 actuator(s)");
    expect_error("{port: 0, control_points: {A: {dofs: [x displacement], actuators: [a1]}, B: "
                 "{dofs: [y displacement], actuators: [a1]}}}",
                 "lab.yaml:6:", "already drives a DOF");
    expect_error("{port: 0, control_points: {A: {dofs: [x displacement], actuators: [a1]}, B: "
                 "{dofs: [y displacement], actuators: [a3]}}}",
                 "lab.yaml:6:", "no actuator 'a3'");
    expect_error("{port: 0, control_points: {A: {dofs: [x displacement], actuators: [a1]}}}",
                 "lab.yaml:6:", "actuator 'a2' drives no DOF");
    expect_error("{port: 0, control_points: {'MDL 1': {dofs: [x displacement, y displacement]}}}",
                 "lab.yaml:6:", "space or control character");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_site_file_errors),
        cmocka_unit_test(test_uisimcor_and_eclabview),
        cmocka_unit_test(test_allow),
        cmocka_unit_test(test_silent_peers),
        cmocka_unit_test(test_only_valid_requests_hold),
        cmocka_unit_test(test_beyond_loopback_needs_allow),
        cmocka_unit_test(test_pipelined_requests_do_not_stall),
        cmocka_unit_test(test_declines_logged_with_a_rate_limit),
        cmocka_unit_test(test_hex_and_duplicate_dofs_declined),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
