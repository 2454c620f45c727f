/* A byte transport over a connected socket or pipe. Each call tries the operation first
 * (MSG_DONTWAIT on a socket, whatever the descriptor's blocking mode) and polls only when it
 * would block, so a frame that fits the socket's buffers or is already there costs one system
 * call; the poll()s of one call share one deadline, timeout_ms from the first time the call would
 * block (a non-blocking attempt later than its start: microseconds; no clock read before). A pipe
 * (recv/send answer ENOTSOCK) is polled first and then read or written, as it may be blocking.
 * Sockets are written with MSG_NOSIGNAL (a closed peer is an error, not a signal).
 *
 * A socket whose last receive found nothing waiting is polled first (poll, recv: two system
 * calls) rather than tried first (recv, poll, recv: three): on one core the peer has not run yet
 * when a reply is asked for, so the first try almost always fails (bench_exchange, "one core").
 * Every PROBE_EVERY-th receive in that mode tries first again, so a socket whose data is there by
 * then (two cores) goes back to one call. The hint is per descriptor number, a relaxed atomic:
 * wrong only for a receive or two after a descriptor is reused, and then only in its cost. */
#include "hysim/secure.h"

#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { HINTS = 1024, PROBE_EVERY = 16 };

/* per descriptor: 0 = try first; 1..PROBE_EVERY = poll first (counting down to the next try) */
static _Atomic unsigned char poll_first[HINTS];

static int fd_of(void *user)
{
    return (int)(intptr_t)user;
}

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

static ptrdiff_t fd_read(void *user, uint8_t *buf, size_t len, int timeout_ms)
{
    const int fd = fd_of(user);
    _Atomic unsigned char *hint = fd >= 0 && fd < HINTS ? &poll_first[fd] : NULL;
    int64_t deadline = -1;
    if (hint) {
        const unsigned char h = atomic_load_explicit(hint, memory_order_relaxed);
        if (h > 0) {
            atomic_store_explicit(hint, (unsigned char)(h - 1), memory_order_relaxed);
            if (h > 1) {
                deadline = deadline_of(timeout_ms);
                const int w = wait_fd(fd, POLLIN, timeout_ms, deadline);
                if (w) return w;
            }
        }
    }
    for (;;) {
        const ssize_t r = recv(fd, buf, len, MSG_DONTWAIT);
        if (r >= 0) return (ptrdiff_t)r;
        if (errno == EINTR) continue;
        if (errno == ENOTSOCK) break;
        if (errno != EAGAIN && errno != EWOULDBLOCK) return HS_ENET;
        if (hint) atomic_store_explicit(hint, (unsigned char)PROBE_EVERY, memory_order_relaxed);
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

static ptrdiff_t fd_write(void *user, const uint8_t *buf, size_t len, int timeout_ms)
{
    const int fd = fd_of(user);
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

hs_transport hs_transport_fd(int fd)
{
    return (hs_transport){.user = (void *)(intptr_t)fd, .read = fd_read, .write = fd_write};
}
