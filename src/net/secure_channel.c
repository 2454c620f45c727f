/* The secure channel: creation, sealing and opening of frames (XChaCha20-Poly1305, header as
 * associated data, sequence number as nonce, one key per direction), and moving them over a
 * byte transport with bounded waits. */
#include "secure_impl.h"
#include "wire_bytes.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define HS_SECURE_DEFAULT_TIMEOUT_MS 5000

int hs_secure_create(hs_ctx *ctx, const hs_secure_config *cfg, const hs_transport *tr,
                     hs_secure **out)
{
    if (!cfg || !out) return hs_fail(ctx, HS_EINVAL, "secure channel: no configuration");
    *out = NULL;
    if (cfg->role != HS_SECURE_COORDINATOR && cfg->role != HS_SECURE_SITE)
        return hs_fail(ctx, HS_EINVAL, "secure channel: role must be coordinator or site");
    if (cfg->mode != HS_SECURE_PSK && cfg->mode != HS_SECURE_PLAIN)
        return hs_fail(ctx, HS_EINVAL,
                       "secure channel: mode must be psk or plain (plain only when asked for)");
    if (cfg->max_length > HS_WIRE_MAX_LENGTH)
        return hs_fail(ctx, HS_EINVAL, "secure channel: maximum length %lu above %d",
                       (unsigned long)cfg->max_length, HS_WIRE_MAX_LENGTH);
    if (cfg->mode == HS_SECURE_PSK && sodium_is_zero(cfg->key, HS_SECURE_KEY_SIZE))
        return hs_fail(ctx, HS_EINVAL, "secure channel: psk mode with an all-zero key");
    if (sodium_init() < 0)
        return hs_fail(ctx, HS_EUNSUPPORTED, "secure channel: libsodium did not start");
    hs_secure *ch = hs_calloc(1, sizeof *ch);
    if (!ch) return hs_fail(ctx, HS_ENOMEM, "secure channel: out of memory");
    ch->ctx = ctx;
    ch->cfg = *cfg;
    if (!ch->cfg.max_length) ch->cfg.max_length = HS_WIRE_MAX_LENGTH;
    if (!ch->cfg.timeout_ms) ch->cfg.timeout_ms = HS_SECURE_DEFAULT_TIMEOUT_MS;
    if (tr) {
        ch->tr = *tr;
        ch->has_transport = tr->read && tr->write;
    }
    ch->frame_cap = HS_WIRE_HEADER_SIZE + (size_t)ch->cfg.max_length;
    ch->rx = hs_malloc(ch->frame_cap);
    ch->tx = hs_malloc(ch->frame_cap);
    ch->plain = hs_malloc(ch->cfg.max_length);
    if (!ch->rx || !ch->tx || !ch->plain) {
        hs_secure_destroy(&ch);
        return hs_fail(ctx, HS_ENOMEM, "secure channel: out of memory");
    }
    *out = ch;
    return 0;
}

void hs_secure_destroy(hs_secure **chp)
{
    if (!chp || !*chp) return;
    hs_secure *ch = *chp;
    if (ch->rx) sodium_memzero(ch->rx, ch->frame_cap);
    if (ch->tx) sodium_memzero(ch->tx, ch->frame_cap);
    if (ch->plain) sodium_memzero(ch->plain, ch->cfg.max_length);
    hs_free(ch->rx);
    hs_free(ch->tx);
    hs_free(ch->plain);
    sodium_memzero(ch, sizeof *ch);
    hs_free(ch);
    *chp = NULL;
}

int hs_secure_ready(const hs_secure *ch)
{
    return ch && ch->state == HS_SEC_READY;
}

hs_wire_fault hs_secure_fault(const hs_secure *ch)
{
    return ch ? ch->fault : HS_WIRE_FAULT_NONE;
}

hs_secure_mode hs_secure_get_mode(const hs_secure *ch)
{
    return ch ? ch->cfg.mode : HS_SECURE_PSK;
}

static void nonce_of(uint64_t seq, uint8_t n[crypto_aead_xchacha20poly1305_ietf_NPUBBYTES])
{
    memset(n, 0, crypto_aead_xchacha20poly1305_ietf_NPUBBYTES);
    hs_le_put_u64(n, seq);
}

static int refuse(hs_secure *ch, int code, const hs_wire_status *st)
{
    ch->fault = st->fault;
    return hs_fail(ch->ctx, code, "%s", st->text);
}

int hs_secure_frame_out(hs_secure *ch, const hs_wire_msg *msg, int sealed, uint8_t *out, size_t cap,
                        size_t *len)
{
    hs_wire_status st = {0};
    if (ch->tx_seq == UINT64_MAX)
        return hs_fail(ch->ctx, HS_EPROTO, "secure channel: sequence numbers exhausted");
    if (!sealed) {
        const int rc = hs_wire_encode(msg, ch->tx_seq, out, cap, len, &st);
        if (rc) return refuse(ch, rc, &st);
        ch->tx_seq++;
        return 0;
    }
    if (cap < HS_WIRE_HEADER_SIZE + HS_WIRE_TAG_SIZE || msg->step < 0) {
        st.fault = HS_WIRE_FAULT_SPACE;
        snprintf(st.text, sizeof st.text, "secure channel: no room for a sealed frame");
        return refuse(ch, HS_EINVAL, &st);
    }
    size_t plen = 0;
    const size_t room = cap - HS_WIRE_HEADER_SIZE - HS_WIRE_TAG_SIZE;
    int rc = hs_wire_payload_encode(
        msg, ch->plain, room < ch->cfg.max_length ? room : ch->cfg.max_length, &plen, &st);
    if (rc) return refuse(ch, rc, &st);
    const hs_wire_header h = {.version = HS_WIRE_VERSION,
                              .type = (uint8_t)msg->type,
                              .flags = HS_WIRE_FLAG_SEALED,
                              .length = (uint32_t)(plen + HS_WIRE_TAG_SIZE),
                              .seq = ch->tx_seq,
                              .step = msg->step};
    hs_wire_header_encode(&h, out);
    uint8_t nonce[crypto_aead_xchacha20poly1305_ietf_NPUBBYTES];
    nonce_of(ch->tx_seq, nonce);
    unsigned long long clen = 0;
    crypto_aead_xchacha20poly1305_ietf_encrypt(out + HS_WIRE_HEADER_SIZE, &clen, ch->plain, plen,
                                               out, HS_WIRE_HEADER_SIZE, NULL, nonce, ch->key_tx);
    sodium_memzero(ch->plain, plen);
    *len = HS_WIRE_HEADER_SIZE + (size_t)clen;
    ch->tx_seq++;
    return 0;
}

int hs_secure_frame_in(hs_secure *ch, const uint8_t *frame, size_t len, int sealed,
                       hs_wire_msg *msg)
{
    hs_wire_status st = {0};
    hs_wire_header h;
    int rc = hs_wire_header_decode(frame, len, ch->cfg.max_length, &h, &st);
    if (rc) return refuse(ch, rc, &st);
    const char *name = hs_wire_type_name(h.type);
    if (len - HS_WIRE_HEADER_SIZE != h.length) {
        st.fault =
            len - HS_WIRE_HEADER_SIZE < h.length ? HS_WIRE_FAULT_TRUNCATED : HS_WIRE_FAULT_PAYLOAD;
        snprintf(st.text, sizeof st.text,
                 "secure channel: %s, sequence %llu: body of %lu bytes announced, %zu present",
                 name, (unsigned long long)h.seq, (unsigned long)h.length,
                 len - HS_WIRE_HEADER_SIZE);
        return refuse(ch, HS_EPROTO, &st);
    }
    const int is_sealed = (h.flags & HS_WIRE_FLAG_SEALED) != 0;
    if (is_sealed != sealed) {
        st.fault = HS_WIRE_FAULT_FLAGS;
        snprintf(st.text, sizeof st.text,
                 "secure channel: %s, sequence %llu: %s frame where a %s "
                 "one is required",
                 name, (unsigned long long)h.seq, is_sealed ? "sealed" : "plain",
                 sealed ? "sealed" : "plain");
        return refuse(ch, HS_EAUTH, &st);
    }
    const uint8_t *payload = frame + HS_WIRE_HEADER_SIZE;
    size_t plen = h.length;
    if (sealed) {
        if (h.length < HS_WIRE_TAG_SIZE) {
            st.fault = HS_WIRE_FAULT_TRUNCATED;
            snprintf(st.text, sizeof st.text,
                     "secure channel: %s, sequence %llu: sealed body of %lu bytes is shorter "
                     "than its tag",
                     name, (unsigned long long)h.seq, (unsigned long)h.length);
            return refuse(ch, HS_EAUTH, &st);
        }
        uint8_t nonce[crypto_aead_xchacha20poly1305_ietf_NPUBBYTES];
        nonce_of(h.seq, nonce);
        unsigned long long mlen = 0;
        if (crypto_aead_xchacha20poly1305_ietf_decrypt(ch->plain, &mlen, NULL, payload, h.length,
                                                       frame, HS_WIRE_HEADER_SIZE, nonce,
                                                       ch->key_rx) != 0) {
            st.fault = HS_WIRE_FAULT_AUTH;
            snprintf(st.text, sizeof st.text,
                     "secure channel: %s, sequence %llu: the tag does not verify (altered, sealed "
                     "with another key, or sent back to its sender)",
                     name, (unsigned long long)h.seq);
            return refuse(ch, HS_EAUTH, &st);
        }
        payload = ch->plain;
        plen = (size_t)mlen;
    }
    if (h.seq != ch->rx_seq) {
        st.fault = HS_WIRE_FAULT_SEQUENCE;
        snprintf(st.text, sizeof st.text,
                 "secure channel: %s, sequence %llu where %llu is next: %s", name,
                 (unsigned long long)h.seq, (unsigned long long)ch->rx_seq,
                 h.seq < ch->rx_seq ? "replayed or reordered" : "frames missing");
        if (sealed) sodium_memzero(ch->plain, plen);
        return refuse(ch, HS_EAUTH, &st);
    }
    ch->rx_seq++; /* the frame is authentic and in order: it is consumed, even if malformed */
    msg->step = h.step;
    msg->seq = h.seq;
    rc = hs_wire_payload_decode(h.type, payload, plen, msg, &st);
    if (sealed) sodium_memzero(ch->plain, plen);
    if (rc) {
        st.text[sizeof st.text - 1] = '\0';
        return refuse(ch, rc, &st);
    }
    msg->step = h.step;
    msg->seq = h.seq;
    ch->fault = HS_WIRE_FAULT_NONE;
    return 0;
}

static int sealed_mode(const hs_secure *ch)
{
    return ch->cfg.mode == HS_SECURE_PSK;
}

static int need_ready(hs_secure *ch, const char *what)
{
    if (ch->state == HS_SEC_READY) return 0;
    if (ch->state == HS_SEC_FAILED)
        return hs_fail(ch->ctx, HS_EPROTO, "secure channel: cannot %s: closed after a failure",
                       what);
    return hs_fail(ch->ctx, HS_EPROTO, "secure channel: cannot %s before the handshake", what);
}

int hs_secure_seal(hs_secure *ch, const hs_wire_msg *msg, uint8_t *out, size_t cap, size_t *len)
{
    if (!ch || !msg || !out || !len) return hs_fail(ch ? ch->ctx : NULL, HS_EINVAL, "seal: no");
    const int rc = need_ready(ch, "seal");
    if (rc) return rc;
    return hs_secure_frame_out(ch, msg, sealed_mode(ch), out, cap, len);
}

int hs_secure_open(hs_secure *ch, const uint8_t *frame, size_t len, hs_wire_msg *msg)
{
    if (!ch || !frame || !msg) return hs_fail(ch ? ch->ctx : NULL, HS_EINVAL, "open: no frame");
    const int rc = need_ready(ch, "open a frame");
    if (rc) return rc;
    return hs_secure_frame_in(ch, frame, len, sealed_mode(ch), msg);
}

/* ---- over the transport ---- */

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int remaining(int64_t deadline, int timeout_ms)
{
    if (timeout_ms < 0) return -1;
    const int64_t r = deadline - now_ms();
    return r <= 0 ? 0 : (int)(r > 2000000000 ? 2000000000 : r);
}

static int write_all(hs_secure *ch, const uint8_t *buf, size_t len)
{
    const int tmo = ch->cfg.timeout_ms;
    const int64_t deadline = now_ms() + (tmo < 0 ? 0 : tmo);
    size_t done = 0;
    while (done < len) {
        const ptrdiff_t w =
            ch->tr.write(ch->tr.user, buf + done, len - done, remaining(deadline, tmo));
        if (w <= 0) {
            ch->state = HS_SEC_FAILED;
            return hs_fail(ch->ctx, w == HS_ETIMEOUT ? HS_ETIMEOUT : HS_ENET,
                           "secure channel: cannot send a frame (%zu of %zu bytes written): %s",
                           done, len, hs_strerror(w == 0 ? HS_ENET : (int)w));
        }
        done += (size_t)w;
    }
    return 0;
}

/* Receiving: the transport is asked for whatever has arrived, up to the room left in ch->rx, so
 * that one read usually brings a whole frame (header and body) and sometimes the beginning of
 * the next, which stays in ch->rx for the next call. ch->rx holds at most one frame's bytes
 * beyond the one being handed out (frame_cap), and a frame's extent is taken from its header
 * only after the header has been checked and its length bounded by max_length. */

/* Brings ch->rx up to `need` bytes. While nothing of this frame has arrived (*started == 0),
 * the wait is first_ms and its expiry leaves the stream intact; from the frame's first byte on,
 * the rest must come within the configured timeout (*deadline, < 0 until a wait needs it: the
 * clock is read only when a frame does not come whole in one read). */
static int fill(hs_secure *ch, size_t need, int first_ms, int *started, int64_t *deadline)
{
    const int tmo = ch->cfg.timeout_ms;
    while (ch->rx_have < need) {
        if (*started && *deadline < 0) *deadline = now_ms() + (tmo < 0 ? 0 : tmo);
        const int wait = *started ? remaining(*deadline, tmo) : first_ms;
        const ptrdiff_t r =
            ch->tr.read(ch->tr.user, ch->rx + ch->rx_have, ch->frame_cap - ch->rx_have, wait);
        if (r == HS_ETIMEOUT && !*started)
            return hs_fail(ch->ctx, HS_ETIMEOUT, "secure channel: no frame within %d ms", first_ms);
        if (r <= 0) {
            ch->state = HS_SEC_FAILED;
            if (r == 0)
                return hs_fail(ch->ctx, HS_ENET, "secure channel: the peer closed the connection");
            return hs_fail(ch->ctx, r == HS_ETIMEOUT ? HS_ETIMEOUT : HS_ENET,
                           "secure channel: frame cut after %zu bytes: %s", ch->rx_have,
                           hs_strerror((int)r));
        }
        *started = 1; /* the deadline is read from the clock only if another read is needed */
        ch->rx_have += (size_t)r;
    }
    return 0;
}

/* One frame from the transport at the start of ch->rx (*len bytes): the header is checked (and
 * its length bounded) before the body is waited for. The previous frame is dropped first. */
static int read_frame(hs_secure *ch, int first_ms, size_t *len)
{
    if (ch->rx_frame) {
        ch->rx_have -= ch->rx_frame;
        if (ch->rx_have) memmove(ch->rx, ch->rx + ch->rx_frame, ch->rx_have);
        ch->rx_frame = 0;
    }
    int started = ch->rx_have > 0;
    int64_t deadline = -1; /* from the frame's first byte (or this call), when first needed */
    int rc = fill(ch, HS_WIRE_HEADER_SIZE, first_ms, &started, &deadline);
    if (rc) return rc;
    hs_wire_header h;
    hs_wire_status st = {0};
    rc = hs_wire_header_decode(ch->rx, HS_WIRE_HEADER_SIZE, ch->cfg.max_length, &h, &st);
    if (rc) {
        ch->state = HS_SEC_FAILED;
        return refuse(ch, rc, &st);
    }
    const size_t n = HS_WIRE_HEADER_SIZE + (size_t)h.length;
    rc = fill(ch, n, first_ms, &started, &deadline);
    if (rc) return rc;
    ch->rx_frame = n;
    *len = n;
    return 0;
}

int hs_secure_handshake(hs_secure *ch)
{
    if (!ch || !ch->has_transport)
        return hs_fail(ch ? ch->ctx : NULL, HS_EINVAL, "handshake: no transport");
    size_t len = 0;
    int rc = hs_secure_handshake_start(ch, ch->tx, ch->frame_cap, &len);
    if (!rc && len) rc = write_all(ch, ch->tx, len);
    while (!rc && !hs_secure_ready(ch)) {
        size_t in_len = 0;
        rc = read_frame(ch, ch->cfg.timeout_ms, &in_len);
        if (rc) break;
        len = 0;
        rc = hs_secure_handshake_input(ch, ch->rx, in_len, ch->tx, ch->frame_cap, &len);
        if (len && !rc) {
            rc = write_all(ch, ch->tx, len);
        } else if (len) {
            /* this end's refusal: send it, and keep the handshake's verdict and reason */
            char why[256];
            snprintf(why, sizeof why, "%s", hs_ctx_message(ch->ctx));
            write_all(ch, ch->tx, len);
            hs_fail(ch->ctx, rc, "%s", why);
        }
    }
    if (rc) ch->state = HS_SEC_FAILED;
    return rc;
}

int hs_secure_send(hs_secure *ch, const hs_wire_msg *msg)
{
    if (!ch || !msg) return hs_fail(ch ? ch->ctx : NULL, HS_EINVAL, "send: no message");
    if (!ch->has_transport) return hs_fail(ch->ctx, HS_EINVAL, "send: no transport");
    size_t len = 0;
    const int rc = hs_secure_seal(ch, msg, ch->tx, ch->frame_cap, &len);
    if (rc) return rc;
    return write_all(ch, ch->tx, len);
}

int hs_secure_recv(hs_secure *ch, hs_wire_msg *msg, int timeout_ms)
{
    if (!ch || !msg) return hs_fail(ch ? ch->ctx : NULL, HS_EINVAL, "recv: no message");
    if (!ch->has_transport) return hs_fail(ch->ctx, HS_EINVAL, "recv: no transport");
    int rc = need_ready(ch, "receive");
    if (rc) return rc;
    size_t len = 0;
    rc = read_frame(ch, timeout_ms, &len);
    if (rc) return rc;
    rc = hs_secure_frame_in(ch, ch->rx, len, sealed_mode(ch), msg);
    if (rc) ch->state = HS_SEC_FAILED;
    return rc;
}
