/* A byte transport over a connected socket or pipe: poll() bounds every wait, sockets are written
 * with MSG_NOSIGNAL (a closed peer is an error, not a signal). */
#include "hysim/secure.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <sys/socket.h>
#include <unistd.h>

static int fd_of(void *user)
{
    return (int)(intptr_t)user;
}

static int wait_fd(int fd, short events, int timeout_ms)
{
    struct pollfd p = {.fd = fd, .events = events};
    for (;;) {
        const int r = poll(&p, 1, timeout_ms < 0 ? -1 : timeout_ms);
        if (r > 0) return 0;
        if (r == 0) return HS_ETIMEOUT;
        if (errno != EINTR) return HS_ENET;
    }
}

static ptrdiff_t fd_read(void *user, uint8_t *buf, size_t len, int timeout_ms)
{
    const int fd = fd_of(user);
    const int w = wait_fd(fd, POLLIN, timeout_ms);
    if (w) return w;
    for (;;) {
        ssize_t r = recv(fd, buf, len, 0);
        if (r < 0 && errno == ENOTSOCK) r = read(fd, buf, len);
        if (r >= 0) return (ptrdiff_t)r;
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return HS_ETIMEOUT;
        return HS_ENET;
    }
}

static ptrdiff_t fd_write(void *user, const uint8_t *buf, size_t len, int timeout_ms)
{
    const int fd = fd_of(user);
    const int w = wait_fd(fd, POLLOUT, timeout_ms);
    if (w) return w;
    for (;;) {
        ssize_t r = send(fd, buf, len, MSG_NOSIGNAL);
        if (r < 0 && errno == ENOTSOCK) r = write(fd, buf, len);
        if (r > 0) return (ptrdiff_t)r;
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return HS_ETIMEOUT;
        return HS_ENET;
    }
}

hs_transport hs_transport_fd(int fd)
{
    return (hs_transport){.user = (void *)(intptr_t)fd, .read = fd_read, .write = fd_write};
}
