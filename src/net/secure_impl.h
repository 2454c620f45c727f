/* The secure channel's state, shared by its files (not public). */
#ifndef HS_SECURE_IMPL_H
#define HS_SECURE_IMPL_H

#include "hysim/secure.h"

#include <sodium.h>

typedef enum {
    HS_SEC_NEW = 0,        /* nothing sent or received yet */
    HS_SEC_WAIT_CHALLENGE, /* coordinator: AUTH_INIT sent */
    HS_SEC_WAIT_PROOF,     /* site: AUTH_CHALLENGE sent */
    HS_SEC_WAIT_OK,        /* coordinator: AUTH_PROOF sent */
    HS_SEC_READY,
    HS_SEC_FAILED
} hs_sec_state;

struct hs_secure {
    hs_ctx *ctx;
    hs_secure_config cfg;
    hs_transport tr;
    int has_transport;
    hs_sec_state state;
    uint64_t tx_seq, rx_seq; /* next sequence number to send / to accept */
    uint8_t nonce_c[HS_WIRE_NONCE_SIZE], nonce_s[HS_WIRE_NONCE_SIZE];
    uint8_t key_tx[crypto_aead_xchacha20poly1305_ietf_KEYBYTES];
    uint8_t key_rx[crypto_aead_xchacha20poly1305_ietf_KEYBYTES];
    uint8_t proof_key_c[crypto_auth_KEYBYTES], proof_key_s[crypto_auth_KEYBYTES];
    hs_wire_fault fault;
    size_t frame_cap;    /* HS_WIRE_HEADER_SIZE + max_length */
    uint8_t *rx, *tx;    /* frame buffers (frame_cap) */
    size_t rx_have;      /* bytes received into rx (from its start) */
    size_t rx_frame;     /* bytes of rx's first frame, handed out and consumed on the next read */
    uint8_t *plain;      /* payload buffer (max_length) */
    hs_wire_msg scratch; /* handshake messages */
};

/* Seals (PSK, when the session keys exist) or frames plainly the next frame of this end. */
int hs_secure_frame_out(hs_secure *ch, const hs_wire_msg *msg, int sealed, uint8_t *out, size_t cap,
                        size_t *len);
/* Checks and opens one frame; `sealed` says whether it must be sealed. Sets ch->fault and the
 * context message on refusal; changes nothing then. */
int hs_secure_frame_in(hs_secure *ch, const uint8_t *frame, size_t len, int sealed,
                       hs_wire_msg *msg);

#endif
