#include "hs_ofr_serve.h"

#include "hysim/base.h"

#include <poll.h>
#include <stdint.h>
#include <sys/socket.h>

void hs_ofr_serve_fd(hs_ofr_server *srv, int fd, int poll_ms)
{
    uint8_t buf[8192];
    struct pollfd p = {.fd = fd, .events = POLLIN};
    while (srv && (hs_ofr_server_state(srv) == HS_OFR_HANDSHAKE ||
                   hs_ofr_server_state(srv) == HS_OFR_RUNNING)) {
        if (poll(&p, 1, poll_ms) != 1) break;
        const ssize_t got = recv(fd, buf, sizeof buf, 0);
        if (got <= 0) break;
        size_t off = 0;
        int rc = 0;
        while (off < (size_t)got && !rc) {
            size_t used = 0, rlen = 0;
            rc = hs_ofr_server_feed(srv, buf + off, (size_t)got - off, &used);
            off += used;
            const uint8_t *reply = hs_ofr_server_reply(srv, &rlen);
            if (reply) {
                if (send(fd, reply, rlen, MSG_NOSIGNAL) != (ssize_t)rlen) rc = HS_ENET;
                hs_ofr_server_reply_sent(srv);
            }
        }
        if (rc) break;
    }
}
