/* The monitor's web server (include/hysim/monitor.h) on 127.0.0.1 with a free port, spoken to
 * by a plain socket client: the page, the event stream (the layout, then the samples published
 * so far in order, then the `end` event after hs_monitor_finish), the controls (refused without
 * the token or with a wrong one of the same length, pause -> resume -> abort with it, nothing
 * after an abort), unknown paths, and listen addresses that cannot work. The guards
 * (monitor_guard.h): 40 idle connections and 40 anonymous event streams leave pause and abort
 * reachable (main's server took 32 connections and then nothing); an idle connection is closed
 * after HS_MON_IDLE_S; a Host header naming another site is refused (DNS rebinding) while
 * localhost, addresses and any port pass; every answer carries the Content-Security-Policy. */
#include "hs_test.h"

#include "hysim/monitor.h"
#include "monitor/monitor_guard.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static int connect_to(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    return fd;
}

/* Sends `request` and reads the answer until the peer closes, `until` appears, or 5 s pass. */
static size_t http(int port, const char *request, const char *until, char *out, size_t size)
{
    const int fd = connect_to(port);
    struct timeval tv = {5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    assert_int_equal(send(fd, request, strlen(request), 0), (ssize_t)strlen(request));
    size_t len = 0;
    for (;;) {
        const ssize_t n = recv(fd, out + len, size - 1 - len, 0);
        if (n <= 0) break;
        len += (size_t)n;
        out[len] = '\0';
        if ((until && strstr(out, until)) || len + 1 >= size) break;
    }
    out[len] = '\0';
    close(fd);
    return len;
}

static int status_of(const char *answer)
{
    int code = 0;
    sscanf(answer, "HTTP/1.%*d %d", &code);
    return code;
}

static int control(int port, const char *what, const char *token, char *out, size_t size)
{
    char req[512];
    snprintf(req, sizeof req,
             "POST /%s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: "
             "close\r\n%s%s%s\r\n",
             what, token ? "X-Hysim-Token: " : "", token ? token : "", token ? "\r\n" : "");
    http(port, req, NULL, out, size);
    return status_of(out);
}

static void test_server(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_monitor_layout l;
    memset(&l, 0, sizeof l);
    snprintf(l.title, sizeof l.title, "http-test");
    snprintf(l.role, sizeof l.role, "test");
    l.ndof = 1;
    hs_monitor *m = NULL;
    assert_int_equal(hs_monitor_create(ctx, "127.0.0.1:0", &l, 16, &m), 0);
    const int port = hs_monitor_port(m);
    assert_true(port > 0);
    assert_string_equal(hs_monitor_host(m), "127.0.0.1");
    const char *token = hs_monitor_token(m);
    assert_int_equal(strlen(token), 32);
    static char buf[1 << 16];

    http(port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", NULL, buf,
         sizeof buf);
    assert_int_equal(status_of(buf), 200);
    assert_non_null(strstr(buf, "text/html"));
    assert_non_null(strstr(buf, "new EventSource('events')"));
    assert_non_null(strstr(buf, "</html>"));

    for (int k = 1; k <= 3; k++) {
        hs_monitor_sample s;
        memset(&s, 0, sizeof s);
        s.step = k;
        s.steps = 3;
        s.ndof = 1;
        s.d[0] = 0.25 * k;
        assert_int_equal(hs_monitor_publish(m, &s), 1);
    }
    http(port, "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "\"step\":3,", buf, sizeof buf);
    assert_int_equal(status_of(buf), 200);
    assert_non_null(strstr(buf, "text/event-stream"));
    const char *lay = strstr(buf, "event: layout\ndata: {\"title\":\"http-test\"");
    const char *s1 = strstr(buf, "id: 0\nevent: sample\ndata: {\"step\":1,\"steps\":3,");
    const char *s2 = strstr(buf, "id: 1\nevent: sample\ndata: {\"step\":2,");
    const char *s3 = strstr(buf, "id: 2\nevent: sample\ndata: {\"step\":3,");
    assert_true(lay && s1 && s2 && s3 && lay < s1 && s1 < s2 && s2 < s3);
    assert_non_null(strstr(s3, "\"d\":[0.75]"));

    /* controls */
    assert_int_equal(control(port, "abort", NULL, buf, sizeof buf), 403);
    char wrong[33];
    snprintf(wrong, sizeof wrong, "%s", token);
    wrong[31] = wrong[31] == '0' ? '1' : '0';
    assert_int_equal(control(port, "abort", wrong, buf, sizeof buf), 403);
    assert_int_equal(control(port, "abort", "short", buf, sizeof buf), 403);
    assert_int_equal(hs_monitor_command_get(m), HS_MON_RUN);
    assert_int_equal(control(port, "pause", token, buf, sizeof buf), 200);
    assert_int_equal(hs_monitor_command_get(m), HS_MON_PAUSE);
    assert_int_equal(control(port, "resume", token, buf, sizeof buf), 200);
    assert_int_equal(hs_monitor_command_get(m), HS_MON_RUN);
    assert_int_equal(control(port, "abort", token, buf, sizeof buf), 200);
    assert_int_equal(hs_monitor_command_get(m), HS_MON_ABORT);
    assert_int_equal(control(port, "resume", token, buf, sizeof buf), 409);
    assert_int_equal(hs_monitor_command_get(m), HS_MON_ABORT);
    assert_int_equal(control(port, "explode", token, buf, sizeof buf), 404);
    http(port, "GET /secret HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", NULL, buf,
         sizeof buf);
    assert_int_equal(status_of(buf), 404);

    /* the end: the stream closes after the end event */
    hs_monitor_finish(m, "aborted", "by the operator");
    http(port, "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", NULL, buf,
         sizeof buf);
    assert_non_null(strstr(buf, "event: end\ndata: {\"status\":\"aborted\""));
    hs_monitor_destroy(&m);
    assert_null(m);

    /* addresses that cannot work */
    assert_int_equal(hs_monitor_create(ctx, "127.0.0.1:70000", &l, 16, &m), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "0 to 65535"));
    assert_int_equal(hs_monitor_create(ctx, ":80", &l, 16, &m), HS_EINPUT);
    assert_int_equal(hs_monitor_create(ctx, "no-such-host.invalid:0", &l, 16, &m), HS_EINPUT);
    assert_null(m);
    hs_ctx_destroy(&ctx);
}

static hs_monitor *start(hs_ctx *ctx, const char *title)
{
    hs_monitor_layout l;
    memset(&l, 0, sizeof l);
    snprintf(l.title, sizeof l.title, "%s", title);
    snprintf(l.role, sizeof l.role, "test");
    l.ndof = 1;
    hs_monitor *m = NULL;
    assert_int_equal(hs_monitor_create(ctx, "127.0.0.1:0", &l, 16, &m), 0);
    return m;
}

/* A crowd of idle connections and anonymous streams: the controls still answer at once. */
static void test_crowd(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_monitor *m = start(ctx, "crowd");
    const int port = hs_monitor_port(m);
    static char buf[1 << 14];
    enum { IDLE = 40, STREAMS = 40 };
    int idle[IDLE], streams[STREAMS], refused = 0, served = 0;
    for (int i = 0; i < IDLE; i++) idle[i] = connect_to(port);
    for (int i = 0; i < STREAMS; i++) {
        streams[i] = connect_to(port);
        const char *get = "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        assert_int_equal(send(streams[i], get, strlen(get), 0), (ssize_t)strlen(get));
        struct timeval tv = {5, 0};
        setsockopt(streams[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        const ssize_t n = recv(streams[i], buf, sizeof buf - 1, 0);
        assert_true(n > 0);
        buf[n] = '\0';
        if (status_of(buf) == 503) {
            refused++;
            assert_non_null(strstr(buf, "X-Hysim-Token"));
        } else if (status_of(buf) == 200) {
            served++;
        }
    }
    assert_int_equal(served, HS_MON_ANON_STREAMS);
    assert_int_equal(refused, STREAMS - HS_MON_ANON_STREAMS);
    /* the token's holder still gets a stream, and the controls answer */
    http(port, "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "event: layout", buf, sizeof buf);
    assert_int_equal(status_of(buf), 503);
    char req[256];
    snprintf(req, sizeof req,
             "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Hysim-Token: %s\r\n\r\n",
             hs_monitor_token(m));
    http(port, req, "event: layout", buf, sizeof buf);
    assert_int_equal(status_of(buf), 200);
    const double t0 = hs_test_now_s();
    assert_int_equal(control(port, "pause", hs_monitor_token(m), buf, sizeof buf), 200);
    assert_int_equal(control(port, "abort", hs_monitor_token(m), buf, sizeof buf), 200);
    assert_true(hs_test_now_s() - t0 < 2.0);
    assert_int_equal(hs_monitor_command_get(m), HS_MON_ABORT);
    /* an idle connection is closed after HS_MON_IDLE_S (loose bounds: a shared machine) */
    struct timeval tv = {HS_MON_IDLE_S * 4, 0};
    setsockopt(idle[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    assert_int_equal(recv(idle[0], buf, sizeof buf, 0), 0);
    const double waited = hs_test_now_s() - t0;
    assert_true(waited > 0.5 * HS_MON_IDLE_S && waited < 4.0 * HS_MON_IDLE_S);
    for (int i = 0; i < IDLE; i++) close(idle[i]);
    for (int i = 0; i < STREAMS; i++) close(streams[i]);
    hs_monitor_destroy(&m);
    hs_ctx_destroy(&ctx);
}

/* DNS rebinding: a page of another site that made its name point at 127.0.0.1 sends its own
 * name as Host; refused. What a browser on this machine or through a tunnel sends passes. */
static void test_host(void **state)
{
    (void)state;
    assert_true(hs_monitor_host_allowed(NULL, NULL));
    assert_true(hs_monitor_host_allowed("127.0.0.1:8080", NULL));
    assert_true(hs_monitor_host_allowed("localhost:9000", NULL));
    assert_true(hs_monitor_host_allowed("LOCALHOST.", NULL));
    assert_true(hs_monitor_host_allowed("[::1]:8080", NULL));
    assert_true(hs_monitor_host_allowed("10.0.0.7", NULL));
    assert_true(hs_monitor_host_allowed("labpc:8080", "labpc"));
    assert_false(hs_monitor_host_allowed("evil.example:8080", NULL));
    assert_false(hs_monitor_host_allowed("evil.example:8080", "labpc"));
    assert_false(hs_monitor_host_allowed("localhost.evil.example", NULL));
    assert_false(hs_monitor_host_allowed("[::1", NULL));
    assert_false(hs_monitor_host_allowed("[::1]x", NULL));
    assert_false(hs_monitor_host_allowed("", NULL));
    assert_false(hs_monitor_host_allowed(":80", NULL));

    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_monitor *m = start(ctx, "host");
    const int port = hs_monitor_port(m);
    static char buf[1 << 16];
    http(port, "GET / HTTP/1.1\r\nHost: rebind.example:8080\r\nConnection: close\r\n\r\n", NULL,
         buf, sizeof buf);
    assert_int_equal(status_of(buf), 421);
    assert_non_null(strstr(buf, "DNS rebinding"));
    assert_null(strstr(buf, "EventSource"));
    char req[256];
    snprintf(req, sizeof req,
             "POST /abort HTTP/1.1\r\nHost: rebind.example\r\nContent-Length: "
             "0\r\nConnection: close\r\nX-Hysim-Token: %s\r\n\r\n",
             hs_monitor_token(m));
    http(port, req, NULL, buf, sizeof buf);
    assert_int_equal(status_of(buf), 421);
    assert_int_equal(hs_monitor_command_get(m), HS_MON_RUN);
    http(port, "GET / HTTP/1.1\r\nHost: localhost:12345\r\nConnection: close\r\n\r\n", NULL, buf,
         sizeof buf);
    assert_int_equal(status_of(buf), 200);
    assert_non_null(strstr(buf, "base-uri 'none'"));
    assert_non_null(strstr(buf, "connect-src 'self'"));
    assert_non_null(strstr(buf, "X-Content-Type-Options: nosniff"));
    /* the page escapes what it hands dygraphs (labels and axis titles are HTML there) */
    assert_non_null(strstr(buf, "labels:labels.map(esc),ylabel:esc(ylabel)"));
    hs_monitor_destroy(&m);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_server), cmocka_unit_test(test_host),
                                       cmocka_unit_test(test_crowd)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
