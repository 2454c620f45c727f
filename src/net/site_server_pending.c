/* Connections before they hold the slot (docs/site_server.md, "Strangers"). The site serves one
 * peer at a time; the slot goes to a native peer only once its handshake has authenticated it
 * (plain mode: once the handshake is done), to an OpenFresco peer once its own handshake is done.
 * Until then a connection is pending: up to HS_SRV_MAX_PENDING of them, each with `frame_timeout`
 * from its accept to finish; a new one beyond that replaces the oldest (a legitimate handshake
 * takes a round trip or two, a flood would have to replace eight connections within that time).
 * Everything here is non-blocking: a reply the socket does not take at once drops the peer, so a
 * stranger never makes the network thread wait. A stranger is never told who holds the slot. */
#include "site_server_impl.h"

#include <errno.h>
#include <sodium.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int hs_srv_send_bytes(int fd, const uint8_t *buf, size_t len, int timeout_ms)
{
    hs_transport tr = hs_transport_fd(fd);
    size_t done = 0;
    while (done < len) {
        const ptrdiff_t w = tr.write(tr.user, buf + done, len - done, timeout_ms);
        if (w <= 0) return HS_ENET;
        done += (size_t)w;
    }
    return 0;
}

void hs_srv_close_fd(int fd)
{
    if (fd < 0) return;
    shutdown(fd, SHUT_WR);
    uint8_t scratch[4096];
    for (int k = 0; k < 64 && recv(fd, scratch, sizeof scratch, MSG_DONTWAIT) > 0; k++) {
    }
    close(fd);
}

static const char *proto_name(int kind)
{
    return kind == HS_SRV_NATIVE ? "native protocol"
           : kind == HS_SRV_OFA  ? "OpenFresco protocol A"
                                 : "OpenFresco protocol B";
}

/* Frees the entry; the socket is closed unless it moved to the slot (fd < 0). */
static void release(hs_srv_pending *p)
{
    hs_srv_close_fd(p->fd);
    hs_secure_destroy(&p->ch);
    hs_ofr_server_destroy(&p->ofr);
    hs_ofr_map_destroy(&p->map);
    memset(p, 0, sizeof *p);
    p->fd = -1;
}

/* Whether a refusal may be logged line by line: at most HS_SRV_REFUSALS_LOGGED a second, the
 * others counted and summed up in one line (a flood must not flood the operator's terminal, nor
 * keep the network thread writing to it). */
int hs_srv_may_log_refusal(hs_site_server *s)
{
    const int64_t now = hs_srv_now();
    if (now - s->refusals_t0 >= 1000000000) {
        if (s->refusals_quiet)
            hs_log(s->ctx, HS_LOG_WARN,
                   "site %s: %llu more connection(s) refused before holding the site in %.1f s "
                   "(not logged one by one)",
                   s->cfg.site.name, (unsigned long long)s->refusals_quiet,
                   1e-9 * (double)(now - s->refusals_t0));
        s->refusals_t0 = now;
        s->refusals_logged = 0;
        s->refusals_quiet = 0;
    }
    if (s->refusals_logged < HS_SRV_REFUSALS_LOGGED) {
        s->refusals_logged++;
        return 1;
    }
    s->refusals_quiet++;
    return 0;
}

/* Refuses a pending peer: logged, counted, a plain ERROR frame (native) when one is given. */
static void drop(hs_site_server *s, hs_srv_pending *p, const uint8_t *frame, size_t len,
                 const char *why)
{
    if (hs_srv_may_log_refusal(s))
        hs_log(s->ctx, HS_LOG_WARN, "site %s: %s: refused before holding the site: %s",
               s->cfg.site.name, p->peer, why);
    if (frame && len) hs_srv_send_bytes(p->fd, frame, len, 0);
    hs_srv_count(s, &s->status.refused);
    release(p);
}

/* A plain ERROR frame with the sentence, then drop. */
static void refuse(hs_site_server *s, hs_srv_pending *p, int code, const char *why)
{
    hs_wire_msg m;
    hs_wire_error_set(&m, 0, code, "%s", why);
    uint8_t buf[HS_WIRE_HEADER_SIZE + HS_WIRE_TEXT_MAX + 16];
    size_t len = 0;
    hs_wire_status st;
    if (p->kind != HS_SRV_NATIVE || hs_wire_encode(&m, p->tx_frames, buf, sizeof buf, &len, &st))
        len = 0;
    drop(s, p, buf, len, why);
}

void hs_srv_pending_accept(hs_site_server *s, int which, int fd, const char *peer)
{
    hs_srv_pending *p = NULL, *oldest = NULL;
    for (int k = 0; k < HS_SRV_MAX_PENDING && !p; k++) {
        hs_srv_pending *q = &s->pending[k];
        if (!q->kind)
            p = q;
        else if (!oldest || q->t_open < oldest->t_open)
            oldest = q;
    }
    if (!p) {
        char why[160];
        snprintf(why, sizeof why,
                 "%d connections were in their handshake; the oldest makes room for %s",
                 HS_SRV_MAX_PENDING, peer);
        drop(s, oldest, NULL, 0, why);
        p = oldest;
    }
    memset(p, 0, sizeof *p);
    p->kind = which == HS_SITE_PORT_NATIVE ? HS_SRV_NATIVE
              : which == HS_SITE_PORT_OFA  ? HS_SRV_OFA
                                           : HS_SRV_OFB;
    p->fd = fd;
    p->t_open = hs_srv_now();
    snprintf(p->peer, sizeof p->peer, "%s", peer);
    int rc;
    if (p->kind == HS_SRV_NATIVE) {
        p->rx_need = HS_WIRE_HEADER_SIZE;
        hs_secure_config sc = {.role = HS_SECURE_SITE, .mode = s->cfg.mode, .timeout_ms = 0};
        memcpy(sc.key, s->cfg.key, sizeof sc.key);
        rc = hs_secure_create(s->ctx, &sc, NULL, &p->ch);
        sodium_memzero(sc.key, sizeof sc.key);
    } else {
        rc = hs_srv_ofr_session(s, p->kind == HS_SRV_OFA ? HS_OFR_PROTO_A : HS_OFR_PROTO_B, &p->ofr,
                                &p->map);
    }
    if (rc) {
        hs_log(s->ctx, HS_LOG_ERROR, "site %s: %s: cannot open a session: %s", s->cfg.site.name,
               peer, hs_ctx_message(s->ctx));
        release(p);
        return;
    }
    hs_log(s->ctx, HS_LOG_DEBUG, "site %s: %s: connected (%s), handshake pending", s->cfg.site.name,
           peer, proto_name(p->kind));
}

/* A replayed handshake: an AUTH_INIT whose coordinator nonce was seen before (a coordinator
 * draws a fresh random one each time). Remembers the nonce. */
static int replayed_init(hs_site_server *s, const hs_srv_pending *p, size_t len)
{
    if (s->cfg.mode != HS_SECURE_PSK || p->rx[5] != HS_WIRE_AUTH_INIT) return 0;
    hs_wire_msg m;
    size_t used = 0;
    hs_wire_status st;
    if (hs_wire_decode(p->rx, len, 0, &m, &used, &st) || m.type != HS_WIRE_AUTH_INIT) return 0;
    for (int k = 0; k < s->nonces_n; k++)
        if (sodium_memcmp(s->nonces[k], m.auth.nonce, HS_WIRE_NONCE_SIZE) == 0) return 1;
    memcpy(s->nonces[s->nonces_next], m.auth.nonce, HS_WIRE_NONCE_SIZE);
    s->nonces_next = (s->nonces_next + 1) % HS_SRV_NONCES;
    if (s->nonces_n < HS_SRV_NONCES) s->nonces_n++;
    return 0;
}

/* One whole handshake frame in p->rx. */
static void native_frame(hs_site_server *s, hs_srv_pending *p, size_t len)
{
    if (replayed_init(s, p, len)) {
        refuse(s, p, HS_EAUTH,
               "AUTH_INIT repeats the nonce of an earlier handshake: a replayed handshake");
        return;
    }
    uint8_t out[HS_SRV_PENDING_BUF + HS_WIRE_TEXT_MAX];
    size_t n = 0;
    const int rc = hs_secure_handshake_input(p->ch, p->rx, len, out, sizeof out, &n);
    if (n && hs_srv_send_bytes(p->fd, out, n, 0) == 0) p->tx_frames++;
    if (rc) {
        char why[512];
        snprintf(why, sizeof why, "%s", hs_ctx_message(s->ctx));
        drop(s, p, NULL, 0, why); /* the ERROR frame, if any, was in out */
        return;
    }
    if (!hs_secure_ready(p->ch)) return;
    if (s->conn.kind) {
        hs_srv_native_refuse_busy(s, p);
        hs_srv_count(s, &s->status.busy);
        release(p);
        return;
    }
    hs_srv_native_adopt(s, p);
    release(p);
}

static void native_input(hs_site_server *s, hs_srv_pending *p)
{
    while (p->kind) {
        const ssize_t r = recv(p->fd, p->rx + p->rx_len, p->rx_need - p->rx_len, MSG_DONTWAIT);
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
        if (r <= 0) {
            char why[160];
            if (p->rx_len)
                snprintf(why, sizeof why, "frame cut after %zu of %zu bytes: the peer closed",
                         p->rx_len, p->rx_need);
            else
                snprintf(why, sizeof why, "closed the connection before its handshake was done");
            if (p->rx_len)
                refuse(s, p, HS_EPROTO, why);
            else
                drop(s, p, NULL, 0, why);
            return;
        }
        p->rx_len += (size_t)r;
        if (p->rx_len < p->rx_need) continue;
        if (p->rx_need == HS_WIRE_HEADER_SIZE) {
            hs_wire_header h;
            hs_wire_status st;
            if (hs_wire_header_decode(p->rx, p->rx_len, 0, &h, &st)) {
                refuse(s, p, HS_EPROTO, st.text);
                return;
            }
            if (h.length > HS_SRV_PENDING_BUF - HS_WIRE_HEADER_SIZE) {
                char why[160];
                snprintf(why, sizeof why,
                         "%s frame of %lu bytes before the handshake is done (at most %d)",
                         hs_wire_type_name((int)h.type), (unsigned long)h.length,
                         HS_SRV_PENDING_BUF - HS_WIRE_HEADER_SIZE);
                refuse(s, p, HS_EPROTO, why);
                return;
            }
            p->rx_need = HS_WIRE_HEADER_SIZE + h.length;
            if (p->rx_need > HS_WIRE_HEADER_SIZE) continue;
        }
        const size_t len = p->rx_len;
        p->rx_len = 0;
        p->rx_need = HS_WIRE_HEADER_SIZE;
        native_frame(s, p, len);
    }
}

/* OpenFresco: bytes are fed one at a time while the handshake lasts, so that it stops exactly
 * where the handshake ends; what follows stays in p->rx for the slot. */
static void ofr_input(hs_site_server *s, hs_srv_pending *p)
{
    const ssize_t r = recv(p->fd, p->rx, sizeof p->rx, MSG_DONTWAIT);
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (r <= 0) {
        drop(s, p, NULL, 0, "the OpenFresco client closed the connection during its handshake");
        return;
    }
    size_t off = 0;
    while (off < (size_t)r && hs_ofr_server_state(p->ofr) == HS_OFR_HANDSHAKE) {
        size_t used = 0;
        const int rc = hs_ofr_server_feed(p->ofr, p->rx + off, 1, &used);
        off += used;
        size_t len = 0;
        const uint8_t *reply = hs_ofr_server_reply(p->ofr, &len);
        if (reply && len) {
            if (hs_srv_send_bytes(p->fd, reply, len, 0)) {
                drop(s, p, NULL, 0, "the OpenFresco client does not read its replies");
                return;
            }
            hs_ofr_server_reply_sent(p->ofr);
        }
        if (rc) {
            char why[512];
            snprintf(why, sizeof why, "%s", hs_ctx_message(s->ctx));
            drop(s, p, NULL, 0, why);
            return;
        }
        if (!used && !reply) break;
    }
    if (hs_ofr_server_state(p->ofr) != HS_OFR_RUNNING) return;
    p->rx_len = (size_t)r - off;
    memmove(p->rx, p->rx + off, p->rx_len);
    char held[512];
    if (s->conn.kind || hs_srv_held(s, held, sizeof held)) {
        if (hs_srv_may_log_refusal(s))
            hs_log(s->ctx, HS_LOG_WARN, "site %s: %s: OpenFresco client refused: %s",
                   s->cfg.site.name, p->peer, s->conn.kind ? "busy" : held);
        hs_srv_count(s, &s->status.busy);
        release(p);
        return;
    }
    hs_srv_ofr_adopt(s, p);
    release(p);
}

void hs_srv_pending_input(hs_site_server *s, int index)
{
    hs_srv_pending *p = &s->pending[index];
    if (p->kind == HS_SRV_NATIVE)
        native_input(s, p);
    else if (p->kind)
        ofr_input(s, p);
}

void hs_srv_pending_poll(hs_site_server *s, int64_t now)
{
    for (int k = 0; k < HS_SRV_MAX_PENDING; k++) {
        hs_srv_pending *p = &s->pending[k];
        if (!p->kind || 1e-9 * (double)(now - p->t_open) <= s->cfg.frame_timeout) continue;
        char why[160];
        snprintf(why, sizeof why, "no %shandshake within %g s",
                 p->kind == HS_SRV_NATIVE ? "" : "OpenFresco ", s->cfg.frame_timeout);
        refuse(s, p, HS_ETIMEOUT, why);
    }
}

void hs_srv_pending_close_all(hs_site_server *s)
{
    for (int k = 0; k < HS_SRV_MAX_PENDING; k++)
        if (s->pending[k].kind) release(&s->pending[k]);
}
