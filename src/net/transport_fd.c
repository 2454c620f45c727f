/* Byte transports over a descriptor.
 *
 * hs_transport_fd (stateless): each call tries the operation first (MSG_DONTWAIT on a socket,
 * whatever the descriptor's blocking mode) and polls only when it would block, so a frame that
 * fits the socket's buffers or is already there costs one system call; the poll()s of one call
 * share one deadline, timeout_ms from the first time the call would block. A pipe (recv/send
 * answer ENOTSOCK) is polled first and then read or written, as it may be blocking. Sockets are
 * written with MSG_NOSIGNAL (a closed peer is an error, not a signal).
 *
 * hs_transport_socket (a link that owns the socket's receive timeout while it lives): a receive
 * that has to wait waits inside recv(), one system call, with the wait bounded by SO_RCVTIMEO,
 * where the stateless transport makes two or three (recv, poll, recv). On one core the reply is
 * never there yet when it is asked for (the peer has not run), so every receive of an exchange
 * waits (bench_exchange, "one core"). The kernel times SO_RCVTIMEO in jiffies, on a timer wheel
 * that may end a wait up to a jiffy early or an eighth of it late, so the socket's timeout is set
 * to 7/8 of the wait less SLACK_MS, and a recv() that times out before the caller's deadline
 * (CLOCK_MONOTONIC, read once at the call's start) waits for the rest with poll(), as the
 * stateless transport does: the caller's timeout is kept to the millisecond either way, never
 * cut short nor stretched. The option is set only when the timeout already on the socket is not
 * within that bound (0 = none, or longer), so a run of receives with the same wait sets it once;
 * the value from before is put back by hs_socket_link_restore. Waits too short for the bound
 * (below 23 ms), a wait of 0 and non-blocking descriptors take the stateless path. */
#include "hysim/secure.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

enum { SLACK_MS = 20 };

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t deadline_of(int timeout_ms)
{
    return timeout_ms > 0 ? now_ns() + (int64_t)timeout_ms * 1000000 : 0;
}

/* Waits for events until deadline (ns on CLOCK_MONOTONIC, the wait rounded up to whole ms;
 * timeout_ms < 0: no limit). */
static int wait_fd(int fd, short events, int timeout_ms, int64_t deadline)
{
    struct pollfd p = {.fd = fd, .events = events};
    for (;;) {
        int ms = -1;
        if (timeout_ms >= 0) {
            const int64_t left = (deadline - now_ns() + 999999) / 1000000;
            ms = left <= 0 ? 0 : (int)(left > 2000000000 ? 2000000000 : left);
        }
        const int r = poll(&p, 1, ms);
        if (r > 0) return 0;
        if (r == 0) return HS_ETIMEOUT;
        if (errno != EINTR) return HS_ENET;
    }
}

/* Reads up to len bytes: tries first, polls when that would block. deadline: the call's (< 0:
 * not read yet; taken from the first time the read would block). */
static ptrdiff_t read_fd(int fd, uint8_t *buf, size_t len, int timeout_ms, int64_t deadline)
{
    for (;;) {
        const ssize_t r = recv(fd, buf, len, MSG_DONTWAIT);
        if (r >= 0) return (ptrdiff_t)r;
        if (errno == EINTR) continue;
        if (errno == ENOTSOCK) break;
        if (errno != EAGAIN && errno != EWOULDBLOCK) return HS_ENET;
        if (deadline < 0) deadline = deadline_of(timeout_ms);
        const int w = wait_fd(fd, POLLIN, timeout_ms, deadline);
        if (w) return w;
    }
    /* not a socket: poll, then read */
    deadline = deadline_of(timeout_ms);
    for (;;) {
        const int w = wait_fd(fd, POLLIN, timeout_ms, deadline);
        if (w) return w;
        const ssize_t r = read(fd, buf, len);
        if (r >= 0) return (ptrdiff_t)r;
        if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) return HS_ENET;
    }
}

static ptrdiff_t write_fd(int fd, const uint8_t *buf, size_t len, int timeout_ms)
{
    int64_t deadline = -1;
    for (;;) {
        const ssize_t r = send(fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (r > 0) return (ptrdiff_t)r;
        if (r == 0) return HS_ENET;
        if (errno == EINTR) continue;
        if (errno == ENOTSOCK) break;
        if (errno != EAGAIN && errno != EWOULDBLOCK) return HS_ENET;
        if (deadline < 0) deadline = deadline_of(timeout_ms);
        const int w = wait_fd(fd, POLLOUT, timeout_ms, deadline);
        if (w) return w;
    }
    deadline = deadline_of(timeout_ms);
    for (;;) {
        const int w = wait_fd(fd, POLLOUT, timeout_ms, deadline);
        if (w) return w;
        const ssize_t r = write(fd, buf, len);
        if (r > 0) return (ptrdiff_t)r;
        if (r == 0) return HS_ENET;
        if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) return HS_ENET;
    }
}

/* ---- stateless ---- */

static int fd_of(void *user)
{
    return (int)(intptr_t)user;
}

static ptrdiff_t fd_read(void *user, uint8_t *buf, size_t len, int timeout_ms)
{
    return read_fd(fd_of(user), buf, len, timeout_ms, -1);
}

static ptrdiff_t fd_write(void *user, const uint8_t *buf, size_t len, int timeout_ms)
{
    return write_fd(fd_of(user), buf, len, timeout_ms);
}

hs_transport hs_transport_fd(int fd)
{
    return (hs_transport){.user = (void *)(intptr_t)fd, .read = fd_read, .write = fd_write};
}

/* ---- a link: waits inside recv() ---- */

/* The longest SO_RCVTIMEO that cannot outlast a wait of timeout_ms; < 1: too short a wait. */
static int kernel_ms(int timeout_ms)
{
    return timeout_ms - timeout_ms / 8 - SLACK_MS;
}

/* A socket timeout in ms, rounded up (compared against the bound: a longer one is replaced). */
static int ms_of(long long s, long long us)
{
    const long long ms = s * 1000 + (us + 999) / 1000;
    return ms > 2000000000 ? 2000000000 : (int)ms;
}

static int set_rcvtimeo(hs_socket_link *l, int ms)
{
    const struct timeval tv = {.tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000};
    if (setsockopt(l->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv)) return -1;
    l->rcv_ms = ms;
    l->changed = 1;
    return 0;
}

static ptrdiff_t link_read(void *user, uint8_t *buf, size_t len, int timeout_ms)
{
    hs_socket_link *l = user;
    if (!l->blocking || timeout_ms == 0) return read_fd(l->fd, buf, len, timeout_ms, -1);
    const int64_t deadline = deadline_of(timeout_ms);
    if (timeout_ms > 0) {
        const int k = kernel_ms(timeout_ms);
        if (k < 1) return read_fd(l->fd, buf, len, timeout_ms, deadline);
        if ((l->rcv_ms == 0 || l->rcv_ms > k) && set_rcvtimeo(l, k))
            return read_fd(l->fd, buf, len, timeout_ms, deadline);
    }
    /* no limit: whatever timeout the socket has, the rest is waited for below */
    const ssize_t r = recv(l->fd, buf, len, 0);
    if (r >= 0) return (ptrdiff_t)r;
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return HS_ENET;
    /* the socket's timeout ended before the caller's, or a signal came: the rest by poll() */
    return read_fd(l->fd, buf, len, timeout_ms, deadline);
}

static ptrdiff_t link_write(void *user, const uint8_t *buf, size_t len, int timeout_ms)
{
    const hs_socket_link *l = user;
    return write_fd(l->fd, buf, len, timeout_ms);
}

hs_transport hs_transport_socket(hs_socket_link *link, int fd)
{
    *link = (hs_socket_link){.fd = fd};
    struct timeval tv = {0};
    socklen_t n = sizeof tv;
    const int flags = fcntl(fd, F_GETFL);
    if (flags >= 0 && !(flags & O_NONBLOCK) &&
        getsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, &n) == 0 && n == sizeof tv) {
        link->blocking = 1;
        link->saved_s = (long)tv.tv_sec;
        link->saved_us = (long)tv.tv_usec;
        link->rcv_ms = ms_of(link->saved_s, link->saved_us);
    }
    return (hs_transport){.user = link, .read = link_read, .write = link_write};
}

void hs_socket_link_restore(hs_socket_link *link)
{
    if (!link || !link->changed) return;
    const struct timeval tv = {.tv_sec = (time_t)link->saved_s,
                               .tv_usec = (suseconds_t)link->saved_us};
    setsockopt(link->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    link->changed = 0;
    link->rcv_ms = ms_of(link->saved_s, link->saved_us);
}
