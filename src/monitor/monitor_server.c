/* The monitor's web server (include/hysim/monitor.h, docs/monitor.md), on libmicrohttpd with a
 * thread per connection:
 *   GET  /                  the page (monitor_page.c)
 *   GET  /dygraph.min.js    Debian's dygraphs, read from HS_MON_DYGRAPHS_DIR at start (404 when
 *   GET  /dygraph.min.css   libjs-dygraphs is not installed: the page says so)
 *   GET  /events            the server-sent events: layout, the samples kept so far, then live
 *   POST /pause /resume /abort   header X-Hysim-Token: the token (constant-time comparison)
 * Guards (monitor_guard.h, docs/monitor.md "Security model"): idle connections time out, one
 * address holds a bounded share of the connections, event streams are capped (anonymous ones
 * apart), a Host header that names another site is refused (DNS rebinding), and every answer
 * carries a Content-Security-Policy that keeps the page's requests at home.
 * A drain thread moves samples from the producer's lock-free ring into the server's history
 * (under the server's lock, which the producer never takes). */
#include "hysim/monitor.h"

#include "monitor/monitor_guard.h"

#include <microhttpd.h>
#include <sodium.h>

/* after <microhttpd.h>: its calls through the table that hs_mhd_require fills (libmicrohttpd is
 * loaded when a monitor starts, not at the program's start) */
#include "monitor/mhd_libs_names.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define HS_MON_HISTORY   4096 /* samples kept for a page that connects late */
#define HS_MON_TOKEN_HEX 32
#define HS_MON_CHUNK     16384

struct hs_monitor {
    hs_ctx *ctx;
    struct MHD_Daemon *daemon;
    hs_monitor_ring ring;
    hs_monitor_layout layout;
    char token[HS_MON_TOKEN_HEX + 1];
    char host[INET_ADDRSTRLEN];
    char name[256];     /* the host name given to --monitor ("" for an address) */
    char hostname[256]; /* this machine's name */
    int port;
    double t0;
    atomic_int command;                     /* hs_monitor_command */
    atomic_int stopping;                    /* 1: streams end, the drain thread ends */
    atomic_int streams;                     /* open event streams */
    atomic_int anon_streams, token_streams; /* of which without and with the token */
    pthread_t drain;
    int drain_started;
    pthread_mutex_t lock; /* guards what follows */
    hs_monitor_sample *hist;
    unsigned long long seq; /* samples drained so far */
    int ended;
    char end_event[1536];
    char *js, *css; /* dygraphs (NULL when absent) */
    size_t js_len, css_len;
    char *page; /* monitor_page.c's parts joined */
    size_t page_len;
};

typedef struct hs_mon_stream {
    hs_monitor *m;
    atomic_int *admitted;    /* the count this stream was admitted under */
    unsigned long long next; /* next sample to send */
    int layout_sent, end_sent;
    size_t len, off;
    char buf[HS_MON_CHUNK];
} hs_mon_stream;

static double hs_mon_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void hs_mon_sleep_ms(long ms)
{
    const struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ---- drain: ring -> history ---- */

static void hs_mon_drain_once(hs_monitor *m)
{
    hs_monitor_sample s;
    pthread_mutex_lock(&m->lock);
    while (hs_monitor_ring_pop(&m->ring, &s)) m->hist[m->seq++ % HS_MON_HISTORY] = s;
    pthread_mutex_unlock(&m->lock);
}

static void *hs_mon_drain_main(void *arg)
{
    hs_monitor *m = arg;
    while (!atomic_load(&m->stopping)) {
        hs_mon_drain_once(m);
        hs_mon_sleep_ms(20);
    }
    return NULL;
}

/* ---- the event stream ---- */

/* Fills st->buf with what is due: the layout, the samples not sent yet (as many as fit), the end.
 * 0 when nothing is due. Under the lock. */
static size_t hs_mon_stream_fill(hs_mon_stream *st)
{
    hs_monitor *m = st->m;
    size_t len = 0;
    if (!st->layout_sent) {
        const int n = hs_monitor_sse_layout(&m->layout, st->buf, sizeof st->buf);
        st->layout_sent = 1;
        if (n > 0) len = (size_t)n;
    }
    if (st->next + HS_MON_HISTORY < m->seq) st->next = m->seq - HS_MON_HISTORY;
    const unsigned long long dropped = hs_monitor_ring_dropped(&m->ring);
    while (st->next < m->seq) {
        const int n = hs_monitor_sse_sample(&m->hist[st->next % HS_MON_HISTORY], st->next, dropped,
                                            st->buf + len, sizeof st->buf - len);
        if (n < 0) break;
        len += (size_t)n;
        st->next++;
    }
    if (len == 0 && m->ended && !st->end_sent) {
        const size_t n = strlen(m->end_event);
        memcpy(st->buf, m->end_event, n);
        len = n;
        st->end_sent = 1;
    }
    return len;
}

static ssize_t hs_mon_stream_read(void *cls, uint64_t pos, char *out, size_t max)
{
    (void)pos;
    hs_mon_stream *st = cls;
    hs_monitor *m = st->m;
    for (int waited = 0; st->off == st->len; waited += 50) {
        if (atomic_load(&m->stopping)) return MHD_CONTENT_READER_END_OF_STREAM;
        pthread_mutex_lock(&m->lock);
        if (st->end_sent) {
            pthread_mutex_unlock(&m->lock);
            return MHD_CONTENT_READER_END_OF_STREAM;
        }
        st->len = hs_mon_stream_fill(st);
        st->off = 0;
        pthread_mutex_unlock(&m->lock);
        if (st->len > 0) break;
        if (waited >= 1000) { /* a comment keeps proxies and the browser from timing out */
            st->len = (size_t)snprintf(st->buf, sizeof st->buf, ": alive\n\n");
            break;
        }
        hs_mon_sleep_ms(50);
    }
    size_t n = st->len - st->off;
    if (n > max) n = max;
    memcpy(out, st->buf + st->off, n);
    st->off += n;
    return (ssize_t)n;
}

static void hs_mon_stream_free(void *cls)
{
    hs_mon_stream *st = cls;
    atomic_fetch_sub(&st->m->streams, 1);
    atomic_fetch_sub(st->admitted, 1);
    hs_free(st);
}

/* ---- requests ---- */

/* Every answer: the page may load and ask only its own server (no <base>, no form, no frame). */
static void hs_mon_guard_headers(struct MHD_Response *r)
{
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src "
                            "'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
                            "base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
}

/* An answer; `close`: the connection ends with it (a refused client holds no slot). */
static enum MHD_Result hs_mon_send(struct MHD_Connection *c, unsigned int code, const char *type,
                                   const void *body, size_t len, enum MHD_ResponseMemoryMode mode,
                                   int close)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)(uintptr_t)body, mode);
    if (!r) return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    if (close) MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
    hs_mon_guard_headers(r);
    const enum MHD_Result ret = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result hs_mon_reply(struct MHD_Connection *c, unsigned int code, const char *type,
                                    const void *body, size_t len, enum MHD_ResponseMemoryMode mode)
{
    return hs_mon_send(c, code, type, body, len, mode, 0);
}

static enum MHD_Result hs_mon_refuse(struct MHD_Connection *c, unsigned int code, const char *text)
{
    return hs_mon_send(c, code, "text/plain; charset=utf-8", text, strlen(text),
                       MHD_RESPMEM_MUST_COPY, 1);
}

static enum MHD_Result hs_mon_text(struct MHD_Connection *c, unsigned int code, const char *text)
{
    return hs_mon_reply(c, code, "text/plain; charset=utf-8", text, strlen(text),
                        MHD_RESPMEM_MUST_COPY);
}

/* 1 when the request carries the token (constant-time comparison of equal lengths). */
static int hs_mon_token_ok(const hs_monitor *m, struct MHD_Connection *c)
{
    const char *given = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Hysim-Token");
    if (!given || strlen(given) != HS_MON_TOKEN_HEX) return 0;
    return sodium_memcmp(given, m->token, HS_MON_TOKEN_HEX) == 0;
}

static enum MHD_Result hs_mon_events(hs_monitor *m, struct MHD_Connection *c)
{
    const int keyed = hs_mon_token_ok(m, c);
    atomic_int *count = keyed ? &m->token_streams : &m->anon_streams;
    if (!hs_monitor_stream_admit(count, keyed ? HS_MON_TOKEN_STREAMS : HS_MON_ANON_STREAMS)) {
        char msg[256];
        snprintf(msg, sizeof msg,
                 "busy: %d event streams %s the token are open already; close a page, or give the "
                 "token in the X-Hysim-Token header\n",
                 keyed ? HS_MON_TOKEN_STREAMS : HS_MON_ANON_STREAMS, keyed ? "with" : "without");
        return hs_mon_refuse(c, MHD_HTTP_SERVICE_UNAVAILABLE, msg);
    }
    hs_mon_stream *st = hs_calloc(1, sizeof *st);
    if (!st) {
        atomic_fetch_sub(count, 1);
        return MHD_NO;
    }
    st->m = m;
    st->admitted = count;
    atomic_fetch_add(&m->streams, 1);
    struct MHD_Response *r = MHD_create_response_from_callback(
        MHD_SIZE_UNKNOWN, HS_MON_CHUNK, hs_mon_stream_read, st, hs_mon_stream_free);
    if (!r) {
        hs_mon_stream_free(st);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    hs_mon_guard_headers(r);
    const enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result hs_mon_control(hs_monitor *m, struct MHD_Connection *c, const char *url)
{
    hs_monitor_command want;
    if (strcmp(url, "/pause") == 0)
        want = HS_MON_PAUSE;
    else if (strcmp(url, "/resume") == 0)
        want = HS_MON_RUN;
    else if (strcmp(url, "/abort") == 0)
        want = HS_MON_ABORT;
    else
        return hs_mon_text(c, MHD_HTTP_NOT_FOUND, "no such control\n");
    if (!hs_mon_token_ok(m, c))
        return hs_mon_text(c, MHD_HTTP_FORBIDDEN,
                           "refused: wrong or missing token (the one printed where the test "
                           "was started)\n");
    if (want != HS_MON_ABORT && strcmp(m->layout.role, "site") == 0)
        return hs_mon_text(c, MHD_HTTP_NOT_IMPLEMENTED,
                           "refused: pause and resume belong to the coordinator's page (hysim run "
                           "--monitor); a site holds by itself when no target comes. Here: "
                           "abort\n");
    int cur = atomic_load(&m->command);
    while (cur != HS_MON_ABORT && !atomic_compare_exchange_weak(&m->command, &cur, (int)want)) {
    }
    if (cur == HS_MON_ABORT && want != HS_MON_ABORT)
        return hs_mon_text(c, MHD_HTTP_CONFLICT, "refused: the test was aborted\n");
    return hs_mon_text(c, MHD_HTTP_OK,
                       want == HS_MON_PAUSE ? "paused: the sites hold\n"
                       : want == HS_MON_RUN ? "resumed\n"
                                            : "aborted: the test ends, every step kept\n");
}

static enum MHD_Result hs_mon_request(void *cls, struct MHD_Connection *c, const char *url,
                                      const char *method, const char *version,
                                      const char *upload_data, size_t *upload_data_size,
                                      void **con_cls)
{
    (void)version;
    (void)upload_data;
    hs_monitor *m = cls;
    static int first;
    if (!*con_cls) { /* headers only: answer on the next call */
        *con_cls = &first;
        return MHD_YES;
    }
    if (*upload_data_size) { /* a body is not used: consume it */
        *upload_data_size = 0;
        return MHD_YES;
    }
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    if (!hs_monitor_host_allowed(host, m->name) && !hs_monitor_host_allowed(host, m->hostname)) {
        char msg[512];
        snprintf(msg, sizeof msg,
                 "refused: the Host header '%.200s' is not this monitor's address (a guard against "
                 "DNS rebinding); open http://%s:%d/ or use an SSH tunnel to 127.0.0.1\n",
                 host, m->host, m->port);
        return hs_mon_refuse(c, MHD_HTTP_MISDIRECTED_REQUEST, msg);
    }
    if (strcmp(method, "POST") == 0) return hs_mon_control(m, c, url);
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return hs_mon_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "GET or POST\n");
    if (strcmp(url, "/") == 0)
        return hs_mon_reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", m->page, m->page_len,
                            MHD_RESPMEM_PERSISTENT);
    if (strcmp(url, "/events") == 0) return hs_mon_events(m, c);
    if (strcmp(url, "/dygraph.min.js") == 0 && m->js)
        return hs_mon_reply(c, MHD_HTTP_OK, "text/javascript", m->js, m->js_len,
                            MHD_RESPMEM_PERSISTENT);
    if (strcmp(url, "/dygraph.min.css") == 0 && m->css)
        return hs_mon_reply(c, MHD_HTTP_OK, "text/css", m->css, m->css_len, MHD_RESPMEM_PERSISTENT);
    return hs_mon_text(c, MHD_HTTP_NOT_FOUND, "not found\n");
}

/* ---- setup ---- */

static char *hs_mon_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *p = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        const long n = ftell(f);
        if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (p = hs_malloc((size_t)n)) &&
            fread(p, 1, (size_t)n, f) != (size_t)n) {
            hs_free(p);
            p = NULL;
        }
        if (p) *len = (size_t)n;
    }
    fclose(f);
    return p;
}

/* "PORT" or "HOST:PORT" -> an IPv4 address (loopback by default). */
static int hs_mon_address(hs_ctx *ctx, const char *listen, struct sockaddr_in *sa, char *name,
                          size_t name_size)
{
    char host[256] = "127.0.0.1";
    const char *colon = strrchr(listen, ':'), *port_s = colon ? colon + 1 : listen;
    if (colon) {
        const size_t n = (size_t)(colon - listen);
        if (n == 0 || n >= sizeof host)
            return hs_fail(ctx, HS_EINPUT, "--monitor %s: give PORT or HOST:PORT", listen);
        memcpy(host, listen, n);
        host[n] = '\0';
    }
    char *end = NULL;
    const long port = strtol(port_s, &end, 10);
    if (!*port_s || *end || port < 0 || port > 65535)
        return hs_fail(ctx, HS_EINPUT,
                       "--monitor %s: the port '%s' is not a number from 0 to 65535 (0: any free "
                       "port)",
                       listen, port_s);
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, NULL, &hints, &res) || !res)
        return hs_fail(ctx, HS_EINPUT, "--monitor %s: cannot resolve '%s' to an IPv4 address",
                       listen, host);
    memcpy(sa, res->ai_addr, sizeof *sa);
    freeaddrinfo(res);
    snprintf(name, name_size, "%s", host);
    sa->sin_port = htons((uint16_t)port);
    return 0;
}

int hs_monitor_create(hs_ctx *ctx, const char *listen, const hs_monitor_layout *layout,
                      size_t ring_capacity, hs_monitor **out)
{
    if (sodium_init() < 0) return hs_fail(ctx, HS_EINVAL, "monitor: libsodium did not start");
    struct sockaddr_in sa;
    char name[256], what[300];
    snprintf(what, sizeof what, "--monitor %s", listen);
    int rc = hs_mhd_require(ctx, what);
    if (!rc) rc = hs_mon_address(ctx, listen, &sa, name, sizeof name);
    if (rc) return rc;
    hs_monitor *m = hs_calloc(1, sizeof *m);
    if (!m) return HS_ENOMEM;
    snprintf(m->name, sizeof m->name, "%s", name);
    if (gethostname(m->hostname, sizeof m->hostname - 1) != 0) m->hostname[0] = '\0';
    m->ctx = ctx;
    m->layout = *layout;
    pthread_mutex_init(&m->lock, NULL);
    atomic_init(&m->command, HS_MON_RUN);
    atomic_init(&m->stopping, 0);
    atomic_init(&m->streams, 0);
    atomic_init(&m->anon_streams, 0);
    atomic_init(&m->token_streams, 0);
    m->t0 = hs_mon_now();
    unsigned char raw[HS_MON_TOKEN_HEX / 2];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2hex(m->token, sizeof m->token, raw, sizeof raw);
    inet_ntop(AF_INET, &sa.sin_addr, m->host, sizeof m->host);
    m->js = hs_mon_slurp(HS_MON_DYGRAPHS_DIR "/dygraph.min.js", &m->js_len);
    m->css = hs_mon_slurp(HS_MON_DYGRAPHS_DIR "/dygraph.min.css", &m->css_len);
    m->hist = hs_calloc(HS_MON_HISTORY, sizeof *m->hist);
    for (int i = 0; hs_monitor_page_parts[i]; i++) m->page_len += strlen(hs_monitor_page_parts[i]);
    if ((m->page = hs_malloc(m->page_len + 1))) {
        size_t at = 0;
        for (int i = 0; hs_monitor_page_parts[i]; i++) {
            const size_t n = strlen(hs_monitor_page_parts[i]);
            memcpy(m->page + at, hs_monitor_page_parts[i], n);
            at += n;
        }
        m->page[at] = '\0';
    }
    rc = m->hist && m->page ? hs_monitor_ring_init(&m->ring, ring_capacity) : HS_ENOMEM;
    if (!rc && pthread_create(&m->drain, NULL, hs_mon_drain_main, m) == 0)
        m->drain_started = 1;
    else if (!rc)
        rc = hs_fail(ctx, HS_ENOMEM, "monitor: cannot start a thread");
    if (!rc) {
        m->daemon = MHD_start_daemon(
            MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION, 0, NULL, NULL,
            hs_mon_request, m, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
            MHD_OPTION_CONNECTION_LIMIT, (unsigned int)HS_MON_CONNECTIONS,
            MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)HS_MON_PER_ADDRESS,
            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)HS_MON_IDLE_S, MHD_OPTION_END);
        if (!m->daemon)
            rc = hs_fail(ctx, HS_ENET,
                         "--monitor %s: cannot listen on %s:%d (in use, or not an address of "
                         "this machine?)",
                         listen, m->host, (int)ntohs(sa.sin_port));
    }
    if (!rc) {
        const union MHD_DaemonInfo *info =
            MHD_get_daemon_info(m->daemon, MHD_DAEMON_INFO_BIND_PORT);
        m->port = info ? (int)info->port : (int)ntohs(sa.sin_port);
    }
    if (rc) {
        hs_monitor_destroy(&m);
        return rc;
    }
    *out = m;
    return 0;
}

void hs_monitor_destroy(hs_monitor **pm)
{
    if (!pm || !*pm) return;
    hs_monitor *m = *pm;
    /* let the pages read the end of the test (at most 1.5 s) */
    for (int i = 0; m->daemon && m->ended && i < 30 && atomic_load(&m->streams) > 0; i++)
        hs_mon_sleep_ms(50);
    atomic_store(&m->stopping, 1);
    if (m->daemon) MHD_stop_daemon(m->daemon);
    if (m->drain_started) pthread_join(m->drain, NULL);
    pthread_mutex_destroy(&m->lock);
    hs_monitor_ring_free(&m->ring);
    hs_free(m->hist);
    hs_free(m->js);
    hs_free(m->css);
    hs_free(m->page);
    hs_free(m);
    *pm = NULL;
}

int hs_monitor_port(const hs_monitor *m)
{
    return m->port;
}
const char *hs_monitor_host(const hs_monitor *m)
{
    return m->host;
}
const char *hs_monitor_token(const hs_monitor *m)
{
    return m->token;
}

int hs_monitor_publish(hs_monitor *m, hs_monitor_sample *s)
{
    s->wall = hs_mon_now() - m->t0;
    return hs_monitor_ring_push(&m->ring, s);
}

hs_monitor_command hs_monitor_command_get(hs_monitor *m)
{
    return (hs_monitor_command)atomic_load(&m->command);
}

unsigned long long hs_monitor_dropped(hs_monitor *m)
{
    return hs_monitor_ring_dropped(&m->ring);
}

void hs_monitor_finish(hs_monitor *m, const char *status, const char *reason)
{
    hs_mon_drain_once(m);
    pthread_mutex_lock(&m->lock);
    if (hs_monitor_sse_end(status, reason, m->end_event, sizeof m->end_event) < 0)
        hs_monitor_sse_end(status, "", m->end_event, sizeof m->end_event);
    m->ended = 1;
    pthread_mutex_unlock(&m->lock);
}
