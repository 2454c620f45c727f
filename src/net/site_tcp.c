/* The network sites' plumbing: SCHEME://HOST:PORT, a TCP connection with a bounded connect and
 * TCP_NODELAY (every message of a step is small and waits for its answer: Nagle would hold it),
 * bounded sends, and the monotonic clock that real-clock runs use for their timeouts. */
#include "site_net.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

double hs_site_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int hs_site_timeout_ms(const hs_site *s)
{
    const double t = s->cfg.timeout > 0.0 ? s->cfg.timeout : 60.0;
    return t > 86400.0 ? 86400000 : (int)(1000.0 * t + 0.5);
}

int hs_site_url_parse(hs_site *s, hs_site_url *u)
{
    const char *url = s->cfg.url, *sep = strstr(url, "://");
    memset(u, 0, sizeof *u);
    if (!sep || sep == url || (size_t)(sep - url) >= sizeof u->scheme)
        return hs_fail(s->ctx, HS_EINPUT, "site %s: url '%s' is not SCHEME://HOST:PORT",
                       s->cfg.name, url);
    memcpy(u->scheme, url, (size_t)(sep - url));
    const char *host = sep + 3, *colon = NULL, *host_end = NULL;
    if (host[0] == '[') { /* [v6]:port */
        host_end = strchr(host, ']');
        if (host_end && host_end[1] == ':') colon = host_end + 1;
        host++;
    } else {
        colon = strrchr(host, ':');
        host_end = colon;
    }
    char *end = NULL;
    const long port = colon ? strtol(colon + 1, &end, 10) : 0;
    if (!colon || !host_end || host_end <= host || (size_t)(host_end - host) >= sizeof u->host ||
        !end || *end != '\0' || end == colon + 1 || port < 1 || port > 65535)
        return hs_fail(s->ctx, HS_EINPUT,
                       "site %s: url '%s': expected %s://HOST:PORT (port 1..65535)", s->cfg.name,
                       url, u->scheme);
    memcpy(u->host, host, (size_t)(host_end - host));
    snprintf(u->port, sizeof u->port, "%ld", port);
    return 0;
}

/* One address: non-blocking connect, poll for completion within timeout_ms. */
static int connect_one(const struct addrinfo *a, int timeout_ms, int *fd, int *err)
{
    const int s = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (s < 0) {
        *err = errno;
        return -1;
    }
    const int flags = fcntl(s, F_GETFL, 0);
    fcntl(s, F_SETFL, flags | O_NONBLOCK);
    int rc = connect(s, a->ai_addr, a->ai_addrlen);
    if (rc < 0 && errno == EINPROGRESS) {
        struct pollfd p = {.fd = s, .events = POLLOUT};
        int r;
        do r = poll(&p, 1, timeout_ms);
        while (r < 0 && errno == EINTR);
        int so = 0;
        socklen_t len = sizeof so;
        if (r == 0)
            so = ETIMEDOUT;
        else if (r < 0)
            so = errno;
        else if (getsockopt(s, SOL_SOCKET, SO_ERROR, &so, &len) < 0)
            so = errno;
        rc = so ? -1 : 0;
        errno = so;
    }
    if (rc < 0) {
        *err = errno;
        close(s);
        return -1;
    }
    fcntl(s, F_SETFL, flags);
    const int one = 1;
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    *fd = s;
    return 0;
}

int hs_site_tcp_connect(hs_site *s, const hs_site_url *u, int timeout_ms, int *fd)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *list = NULL;
    *fd = -1;
    const int g = getaddrinfo(u->host, u->port, &hints, &list);
    if (g != 0)
        return hs_fail(s->ctx, HS_ENET, "site %s: cannot resolve '%s': %s", s->cfg.name, u->host,
                       gai_strerror(g));
    int err = 0;
    for (const struct addrinfo *a = list; a && *fd < 0; a = a->ai_next)
        connect_one(a, timeout_ms, fd, &err);
    freeaddrinfo(list);
    if (*fd < 0)
        return hs_fail(s->ctx, HS_ENET, "site %s: cannot connect to %s (%s:%s): %s", s->cfg.name,
                       s->cfg.url, u->host, u->port, strerror(err));
    return 0;
}

int hs_site_tcp_send(hs_site *s, int fd, const void *buf, size_t len, int timeout_ms,
                     const char *what)
{
    const uint8_t *p = buf;
    const double deadline = hs_site_clock() + 1e-3 * timeout_ms;
    while (len > 0) {
        const double left = deadline - hs_site_clock();
        struct pollfd pf = {.fd = fd, .events = POLLOUT};
        const int r = left > 0.0 ? poll(&pf, 1, (int)(1000.0 * left) + 1) : 0;
        if (r < 0 && errno == EINTR) continue;
        if (r == 0)
            return hs_fail(s->ctx, HS_ETIMEOUT, "site %s: could not send %s within %d ms",
                           s->cfg.name, what, timeout_ms);
        const ssize_t w = r < 0 ? -1 : send(fd, p, len, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0)
            return hs_fail(s->ctx, HS_ENET, "site %s: the connection is lost (sending %s: %s)",
                           s->cfg.name, what, strerror(errno));
        p += w;
        len -= (size_t)w;
    }
    return 0;
}
