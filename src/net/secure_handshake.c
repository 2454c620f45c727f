/* The secure channel's handshake: mutual challenge-response on fresh nonces with a pre-shared
 * key, and the session keys (docs/protocol.md, "Handshake").
 *
 *   coordinator -> site  AUTH_INIT      mode, Nc
 *   site -> coordinator  AUTH_CHALLENGE mode, Ns, proof_s = HMAC(K_ps, T)
 *   coordinator -> site  AUTH_PROOF     proof_c = HMAC(K_pc, T)
 *   site -> coordinator  AUTH_OK        (sealed with K_sc: the site holds the session keys)
 *
 * S = BLAKE2b-256(key = PSK, "hysim v1 session" | version | mode | Nc | Ns); K_cs, K_sc, K_pc,
 * K_ps = crypto_kdf_derive_from_key(S, id 1..4, "hysimkdf"); T = "hysim v1 transcript" |
 * version | mode | Nc | Ns. Plain mode: AUTH_INIT and AUTH_CHALLENGE only, with mode 2. */
#include "secure_impl.h"

#include <stdio.h>
#include <string.h>

#define KDF_CONTEXT "hysimkdf"

enum { KEY_C2S = 1, KEY_S2C = 2, KEY_PROOF_C = 3, KEY_PROOF_S = 4 };

static const char session_label[] = "hysim v1 session";
static const char transcript_label[] = "hysim v1 transcript";

static void derive(hs_secure *ch, uint8_t mode)
{
    uint8_t master[crypto_kdf_KEYBYTES];
    const uint8_t tail[2] = {HS_WIRE_VERSION, mode};
    crypto_generichash_state gs;
    crypto_generichash_init(&gs, ch->cfg.key, HS_SECURE_KEY_SIZE, sizeof master);
    crypto_generichash_update(&gs, (const uint8_t *)session_label, sizeof session_label - 1);
    crypto_generichash_update(&gs, tail, sizeof tail);
    crypto_generichash_update(&gs, ch->nonce_c, HS_WIRE_NONCE_SIZE);
    crypto_generichash_update(&gs, ch->nonce_s, HS_WIRE_NONCE_SIZE);
    crypto_generichash_final(&gs, master, sizeof master);
    const int coord = ch->cfg.role == HS_SECURE_COORDINATOR;
    crypto_kdf_derive_from_key(ch->key_tx, sizeof ch->key_tx, coord ? KEY_C2S : KEY_S2C,
                               KDF_CONTEXT, master);
    crypto_kdf_derive_from_key(ch->key_rx, sizeof ch->key_rx, coord ? KEY_S2C : KEY_C2S,
                               KDF_CONTEXT, master);
    crypto_kdf_derive_from_key(ch->proof_key_c, sizeof ch->proof_key_c, KEY_PROOF_C, KDF_CONTEXT,
                               master);
    crypto_kdf_derive_from_key(ch->proof_key_s, sizeof ch->proof_key_s, KEY_PROOF_S, KDF_CONTEXT,
                               master);
    sodium_memzero(master, sizeof master);
    sodium_memzero(&gs, sizeof gs);
}

static void proof(const hs_secure *ch, const uint8_t *key, uint8_t out[HS_WIRE_PROOF_SIZE])
{
    uint8_t t[sizeof transcript_label - 1 + 2 + 2 * HS_WIRE_NONCE_SIZE];
    size_t n = sizeof transcript_label - 1;
    memcpy(t, transcript_label, n);
    t[n++] = HS_WIRE_VERSION;
    t[n++] = (uint8_t)ch->cfg.mode;
    memcpy(t + n, ch->nonce_c, HS_WIRE_NONCE_SIZE);
    memcpy(t + n + HS_WIRE_NONCE_SIZE, ch->nonce_s, HS_WIRE_NONCE_SIZE);
    _Static_assert(crypto_auth_BYTES == HS_WIRE_PROOF_SIZE, "proof size");
    crypto_auth(out, t, sizeof t, key);
}

static const char *mode_name(int mode)
{
    return mode == HS_SECURE_PSK ? "psk" : mode == HS_SECURE_PLAIN ? "plain" : "unknown";
}

static const char *role_name(const hs_secure *ch)
{
    return ch->cfg.role == HS_SECURE_COORDINATOR ? "coordinator" : "site";
}

/* Fails the handshake with code and sentence; the ERROR frame for the peer goes into out. */
static int refuse(hs_secure *ch, int code, uint8_t *out, size_t cap, size_t *out_len,
                  const char *fmt, ...) HS_PRINTF(6, 7);

static int refuse(hs_secure *ch, int code, uint8_t *out, size_t cap, size_t *out_len,
                  const char *fmt, ...)
{
    char text[HS_WIRE_TEXT_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    ch->state = HS_SEC_FAILED;
    sodium_memzero(ch->key_tx, sizeof ch->key_tx);
    sodium_memzero(ch->key_rx, sizeof ch->key_rx);
    if (out && out_len) {
        hs_wire_error_set(&ch->scratch, 0, code, "%s", text);
        if (hs_secure_frame_out(ch, &ch->scratch, 0, out, cap, out_len)) *out_len = 0;
    }
    return hs_fail(ch->ctx, code, "handshake (%s): %s", role_name(ch), text);
}

static int send_plain(hs_secure *ch, uint8_t *out, size_t cap, size_t *len)
{
    const int rc = hs_secure_frame_out(ch, &ch->scratch, 0, out, cap, len);
    if (rc) ch->state = HS_SEC_FAILED;
    return rc;
}

int hs_secure_handshake_start(hs_secure *ch, uint8_t *out, size_t cap, size_t *len)
{
    if (!ch || !out || !len) return hs_fail(ch ? ch->ctx : NULL, HS_EINVAL, "handshake: no");
    *len = 0;
    if (ch->state != HS_SEC_NEW)
        return hs_fail(ch->ctx, HS_EPROTO, "handshake (%s): already started", role_name(ch));
    if (ch->cfg.role == HS_SECURE_SITE) return 0;
    randombytes_buf(ch->nonce_c, sizeof ch->nonce_c);
    memset(&ch->scratch, 0, sizeof ch->scratch);
    ch->scratch.type = HS_WIRE_AUTH_INIT;
    ch->scratch.auth.mode = (uint8_t)ch->cfg.mode;
    memcpy(ch->scratch.auth.nonce, ch->nonce_c, HS_WIRE_NONCE_SIZE);
    const int rc = send_plain(ch, out, cap, len);
    if (!rc) ch->state = HS_SEC_WAIT_CHALLENGE;
    return rc;
}

/* The peer's ERROR during the handshake: its refusal. */
static int peer_refused(hs_secure *ch, const hs_wire_msg *m)
{
    ch->state = HS_SEC_FAILED;
    const int code =
        m->error.code == HS_EAUTH || m->error.code == HS_EUNSUPPORTED || m->error.code == HS_EPROTO
            ? m->error.code
            : HS_EPROTO;
    return hs_fail(ch->ctx, code, "handshake (%s): the peer refused: %s", role_name(ch),
                   m->error.text);
}

static int site_input(hs_secure *ch, const hs_wire_msg *m, uint8_t *out, size_t cap,
                      size_t *out_len)
{
    if (ch->state == HS_SEC_NEW && m->type == HS_WIRE_AUTH_INIT) {
        if (m->auth.mode != ch->cfg.mode)
            return refuse(ch, HS_EAUTH, out, cap, out_len,
                          "the coordinator asked for %s mode, this site is configured for %s",
                          mode_name(m->auth.mode), mode_name((int)ch->cfg.mode));
        memcpy(ch->nonce_c, m->auth.nonce, HS_WIRE_NONCE_SIZE);
        memset(&ch->scratch, 0, sizeof ch->scratch);
        ch->scratch.type = HS_WIRE_AUTH_CHALLENGE;
        ch->scratch.auth.mode = (uint8_t)ch->cfg.mode;
        if (ch->cfg.mode == HS_SECURE_PSK) {
            randombytes_buf(ch->nonce_s, sizeof ch->nonce_s);
            derive(ch, (uint8_t)ch->cfg.mode);
            memcpy(ch->scratch.auth.nonce, ch->nonce_s, HS_WIRE_NONCE_SIZE);
            proof(ch, ch->proof_key_s, ch->scratch.auth.proof);
        }
        const int rc = send_plain(ch, out, cap, out_len);
        if (!rc) ch->state = ch->cfg.mode == HS_SECURE_PSK ? HS_SEC_WAIT_PROOF : HS_SEC_READY;
        return rc;
    }
    if (ch->state == HS_SEC_WAIT_PROOF && m->type == HS_WIRE_AUTH_PROOF) {
        uint8_t expect[HS_WIRE_PROOF_SIZE];
        proof(ch, ch->proof_key_c, expect);
        const int ok = sodium_memcmp(expect, m->auth.proof, HS_WIRE_PROOF_SIZE) == 0;
        sodium_memzero(expect, sizeof expect);
        if (!ok)
            return refuse(ch, HS_EAUTH, out, cap, out_len,
                          "the coordinator's proof does not verify: the two ends hold different "
                          "keys, or the proof was replayed from another handshake");
        memset(&ch->scratch, 0, sizeof ch->scratch);
        ch->scratch.type = HS_WIRE_AUTH_OK;
        const int rc = hs_secure_frame_out(ch, &ch->scratch, 1, out, cap, out_len);
        ch->state = rc ? HS_SEC_FAILED : HS_SEC_READY;
        return rc;
    }
    return refuse(ch, HS_EPROTO, out, cap, out_len, "unexpected %s from the coordinator",
                  hs_wire_type_name((int)m->type));
}

static int coordinator_input(hs_secure *ch, const hs_wire_msg *m, uint8_t *out, size_t cap,
                             size_t *out_len)
{
    if (ch->state == HS_SEC_WAIT_CHALLENGE && m->type == HS_WIRE_AUTH_CHALLENGE) {
        if (m->auth.mode != ch->cfg.mode)
            return refuse(ch, HS_EAUTH, out, cap, out_len,
                          "the site answered in %s mode, this coordinator is configured for %s",
                          mode_name(m->auth.mode), mode_name((int)ch->cfg.mode));
        if (ch->cfg.mode == HS_SECURE_PLAIN) {
            ch->state = HS_SEC_READY;
            return 0;
        }
        memcpy(ch->nonce_s, m->auth.nonce, HS_WIRE_NONCE_SIZE);
        derive(ch, (uint8_t)ch->cfg.mode);
        uint8_t expect[HS_WIRE_PROOF_SIZE];
        proof(ch, ch->proof_key_s, expect);
        const int ok = sodium_memcmp(expect, m->auth.proof, HS_WIRE_PROOF_SIZE) == 0;
        sodium_memzero(expect, sizeof expect);
        if (!ok)
            return refuse(ch, HS_EAUTH, out, cap, out_len,
                          "the site's proof does not verify: the two ends hold different keys");
        memset(&ch->scratch, 0, sizeof ch->scratch);
        ch->scratch.type = HS_WIRE_AUTH_PROOF;
        proof(ch, ch->proof_key_c, ch->scratch.auth.proof);
        const int rc = send_plain(ch, out, cap, out_len);
        if (!rc) ch->state = HS_SEC_WAIT_OK;
        return rc;
    }
    return refuse(ch, HS_EPROTO, out, cap, out_len, "unexpected %s from the site",
                  hs_wire_type_name((int)m->type));
}

int hs_secure_handshake_input(hs_secure *ch, const uint8_t *in, size_t in_len, uint8_t *out,
                              size_t cap, size_t *out_len)
{
    if (!ch || !in || !out || !out_len)
        return hs_fail(ch ? ch->ctx : NULL, HS_EINVAL, "handshake: no frame");
    *out_len = 0;
    if (ch->state == HS_SEC_READY || ch->state == HS_SEC_FAILED ||
        (ch->state == HS_SEC_NEW && ch->cfg.role == HS_SECURE_COORDINATOR))
        return hs_fail(ch->ctx, HS_EPROTO, "handshake (%s): no handshake in progress",
                       role_name(ch));
    /* AUTH_OK is the only sealed handshake frame */
    const int sealed =
        ch->state == HS_SEC_WAIT_OK && in_len >= HS_WIRE_HEADER_SIZE && in[5] == HS_WIRE_AUTH_OK;
    int rc = hs_secure_frame_in(ch, in, in_len, sealed, &ch->scratch);
    if (rc) { /* a frame refused before its type is looked at (a sealed AUTH_INIT, ...): the
               * peer is told why all the same */
        char text[HS_WIRE_TEXT_MAX];
        snprintf(text, sizeof text, "%s", hs_ctx_message(ch->ctx));
        return refuse(ch, rc, out, cap, out_len, "%s", text);
    }
    const hs_wire_msg *m = &ch->scratch;
    if (m->type == HS_WIRE_ERROR) return peer_refused(ch, m);
    if (ch->state == HS_SEC_WAIT_OK) {
        if (m->type != HS_WIRE_AUTH_OK)
            return refuse(ch, HS_EPROTO, out, cap, out_len, "unexpected %s from the site",
                          hs_wire_type_name((int)m->type));
        ch->state = HS_SEC_READY;
        return 0;
    }
    rc = ch->cfg.role == HS_SECURE_SITE ? site_input(ch, m, out, cap, out_len)
                                        : coordinator_input(ch, m, out, cap, out_len);
    return rc;
}
