/* hysim secure channel: the native protocol's frames (hysim/wire.h) between two authenticated
 * ends, over any byte transport (docs/protocol.md, "Security").
 *
 * - A pre-shared key of 32 bytes (a key file: 64 hex digits or 32 raw bytes).
 * - Mutual challenge-response on fresh random nonces: each end proves it knows the key with an
 *   HMAC-SHA-512-256 over both nonces under a key derived for its role; per-session keys, one
 *   per direction, derived from the key and both nonces (BLAKE2b, then crypto_kdf).
 * - Then every frame is sealed with XChaCha20-Poly1305 (header as associated data, nonce = the
 *   sequence number): altered, replayed, reordered, dropped or reflected frames are refused
 *   (HS_EAUTH). Only libsodium primitives; nothing hand-written.
 * - `plain` mode (no key, no MAC, sequence numbers still checked) only when both ends are
 *   explicitly configured for it; a plain end and a keyed end refuse each other (HS_EAUTH).
 *
 * The handshake is a small state machine fed with frames (hs_secure_handshake_start/_input),
 * so that it runs over a socket (hs_secure_handshake) or over an in-memory or virtual-time link;
 * hs_secure_seal/_open are pure as well. A channel is used by one thread at a time. */
#ifndef HYSIM_SECURE_H
#define HYSIM_SECURE_H

#include "hysim/base.h"
#include "hysim/wire.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HS_SECURE_KEY_SIZE 32

typedef enum hs_secure_mode {
    HS_SECURE_PSK = 1,  /* authenticated and sealed (the default a site should use) */
    HS_SECURE_PLAIN = 2 /* no key: framing and sequence checks only; explicit opt-in */
} hs_secure_mode;

typedef enum hs_secure_role {
    HS_SECURE_COORDINATOR = 1, /* opens the handshake */
    HS_SECURE_SITE = 2         /* answers it */
} hs_secure_role;

/* ---- byte transports ---- */

/* read: up to len bytes, waiting at most timeout_ms (< 0: no limit); returns the count (> 0),
 * 0 when the peer closed, or HS_ETIMEOUT / HS_ENET. write: up to len bytes, same returns (never
 * 0). */
typedef struct hs_transport {
    void *user;
    ptrdiff_t (*read)(void *user, uint8_t *buf, size_t len, int timeout_ms);
    ptrdiff_t (*write)(void *user, const uint8_t *buf, size_t len, int timeout_ms);
} hs_transport;

/* A transport over a connected socket or pipe (poll() for timeouts; no SIGPIPE). The fd stays
 * the caller's. Stateless: a receive that has to wait costs recv, poll, recv. */
hs_transport hs_transport_fd(int fd);

/* A transport over a connected socket whose receives wait inside recv() (one system call), bounded
 * by the socket's SO_RCVTIMEO, which the link sets to a little less than the caller's timeout and
 * completes with poll() when it ends first: the caller's timeout is kept as with hs_transport_fd
 * (src/net/transport_fd.c). While the link is in use the socket's receive timeout is its own:
 * nothing else may change it, and another reader of the descriptor sees it. The fields are the
 * transport's. A non-blocking descriptor or a pipe is served as by hs_transport_fd. */
typedef struct hs_socket_link {
    int fd;
    int blocking;           /* a blocking socket: receives can wait in the kernel */
    int rcv_ms;             /* its SO_RCVTIMEO now, ms rounded up (0: none) */
    int changed;            /* the link set it (restored by hs_socket_link_restore) */
    long saved_s, saved_us; /* SO_RCVTIMEO before the link */
} hs_socket_link;

/* Starts a link on fd (two system calls: its flags and its receive timeout) and returns its
 * transport; *link must outlive every channel given the transport. The fd stays the caller's. */
hs_transport hs_transport_socket(hs_socket_link *link, int fd);
/* Puts back the socket's receive timeout from before the link (for a descriptor handed on to
 * another reader; closing it needs nothing). NULL-safe; the link can be used again after. */
void hs_socket_link_restore(hs_socket_link *link);

/* ---- keys ---- */

/* 64 hexadecimal digits (surrounding whitespace allowed), nothing else; a key whose 32 bytes take
 * fewer than 16 different values is refused as not random. HS_EINPUT with what a key file must
 * hold and `hysim keygen FILE`. */
int hs_secure_key_parse(hs_ctx *ctx, const uint8_t *data, size_t len,
                        uint8_t key[HS_SECURE_KEY_SIZE]);
/* Reads a key file (errors name the file). Warns when the file is readable by group or others. */
int hs_secure_key_read(hs_ctx *ctx, const char *path, uint8_t key[HS_SECURE_KEY_SIZE]);
/* A fresh random key, written as 64 hex digits and a newline to a new file of mode 0600
 * (refuses to overwrite). key may be NULL. */
int hs_secure_key_generate(hs_ctx *ctx, const char *path, uint8_t key[HS_SECURE_KEY_SIZE]);

/* ---- the channel ---- */

typedef struct hs_secure_config {
    hs_secure_role role;
    hs_secure_mode mode;             /* must be set: there is no implicit plain mode */
    uint8_t key[HS_SECURE_KEY_SIZE]; /* HS_SECURE_PSK */
    uint32_t max_length;             /* bound on a received frame's body; 0 = HS_WIRE_MAX_LENGTH */
    int timeout_ms;                  /* handshake and sends, per frame; 0 = 5000; < 0 = no limit */
} hs_secure_config;

typedef struct hs_secure hs_secure;

/* tr may be NULL when only the pure functions (start/input/seal/open) are used. The config is
 * copied (its key wiped from the channel on destroy). */
int hs_secure_create(hs_ctx *ctx, const hs_secure_config *cfg, const hs_transport *tr,
                     hs_secure **out);
void hs_secure_destroy(hs_secure **ch); /* NULL-safe; wipes keys and buffers */

/* Pure handshake. start: the coordinator's first frame into out (the site: *len = 0). input:
 * one received frame; the frame to answer (if any, else *out_len = 0) into out, including an
 * ERROR frame to send when this end refuses. Returns 0 (continue, or done when
 * hs_secure_ready()), HS_EAUTH (wrong key, mode mismatch, peer refused authentication) or
 * HS_EPROTO (malformed or unexpected frame). out needs HS_WIRE_HEADER_SIZE + HS_WIRE_MAX_LENGTH
 * bytes at most. */
int hs_secure_handshake_start(hs_secure *ch, uint8_t *out, size_t cap, size_t *len);
int hs_secure_handshake_input(hs_secure *ch, const uint8_t *in, size_t in_len, uint8_t *out,
                              size_t cap, size_t *out_len);
int hs_secure_ready(const hs_secure *ch);

/* The handshake over the transport, blocking up to the configured timeout per frame. */
int hs_secure_handshake(hs_secure *ch);

/* Seal msg as the next frame of this end (takes one sequence number) into out[cap]. */
int hs_secure_seal(hs_secure *ch, const hs_wire_msg *msg, uint8_t *out, size_t cap, size_t *len);
/* Open one whole frame (exactly len bytes) from the peer: header checks, tag, sequence (must be
 * the next one), payload. HS_EAUTH (fault AUTH, SEQUENCE or FLAGS) or HS_EPROTO; a refused frame
 * changes nothing in the channel. */
int hs_secure_open(hs_secure *ch, const uint8_t *frame, size_t len, hs_wire_msg *msg);

/* Seal and write / read and open one message over the transport. recv waits up to timeout_ms
 * for the frame to begin (HS_ETIMEOUT, channel intact) and then up to the configured timeout for
 * the rest. Any refused frame or broken stream closes the channel for good (later calls fail). */
int hs_secure_send(hs_secure *ch, const hs_wire_msg *msg);
int hs_secure_recv(hs_secure *ch, hs_wire_msg *msg, int timeout_ms);

/* The fault of the last refusal (HS_WIRE_FAULT_NONE if none). */
hs_wire_fault hs_secure_fault(const hs_secure *ch);
hs_secure_mode hs_secure_get_mode(const hs_secure *ch);

#ifdef __cplusplus
}
#endif
#endif
