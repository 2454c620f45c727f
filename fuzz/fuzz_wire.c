/* libFuzzer target: the native protocol's frame decoder and the secure channel's opening of a
 * frame, on arbitrary bytes. Neither may crash, read out of bounds or leak; every refusal names
 * a fault and a sentence; whatever decodes re-encodes to the very same bytes (one encoding per
 * message); a keyed channel never accepts a frame it did not get from its peer. */
#include "hysim/secure.h"
#include "hysim/wire.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t out[HS_WIRE_HEADER_SIZE + HS_WIRE_MAX_LENGTH];

static void check_refusal(int rc, const hs_wire_status *st)
{
    if (rc == 0) return;
    if (st->fault == HS_WIRE_FAULT_NONE || st->text[0] == '\0') {
        fprintf(stderr, "refusal %d without a fault or a sentence\n", rc);
        __builtin_trap();
    }
}

static void check_frame(const uint8_t *data, size_t size)
{
    hs_wire_msg msg;
    hs_wire_status st = {0};
    size_t used = 0, len = 0;
    int rc = hs_wire_decode(data, size, 0, &msg, &used, &st);
    check_refusal(rc, &st);
    if (rc == 0) {
        if (used > size || hs_wire_encode(&msg, msg.seq, out, sizeof out, &len, &st) != 0 ||
            len != used || memcmp(out, data, used) != 0) {
            fprintf(stderr, "decoded frame does not re-encode to its bytes: %s\n", st.text);
            __builtin_trap();
        }
    }
    if (size == 0) return;
    /* the payload decoder alone, type from the first byte */
    memset(&msg, 0, sizeof msg);
    rc = hs_wire_payload_decode(data[0], data + 1, size - 1, &msg, &st);
    check_refusal(rc, &st);
    if (rc == 0 && (hs_wire_payload_encode(&msg, out, sizeof out, &len, &st) != 0 ||
                    len != size - 1 || memcmp(out, data + 1, len) != 0)) {
        fprintf(stderr, "decoded payload does not re-encode to its bytes: %s\n", st.text);
        __builtin_trap();
    }
}

/* A keyed coordinator/site pair after the handshake, made once. */
static hs_secure *keyed_site;

static void keyed_pair(hs_ctx *ctx)
{
    static hs_secure *coord;
    static uint8_t a[HS_WIRE_HEADER_SIZE + HS_WIRE_MAX_LENGTH], b[sizeof a];
    hs_secure_config cfg = {.role = HS_SECURE_COORDINATOR, .mode = HS_SECURE_PSK};
    for (int i = 0; i < HS_SECURE_KEY_SIZE; i++) cfg.key[i] = (uint8_t)(i + 1);
    if (hs_secure_create(ctx, &cfg, NULL, &coord)) __builtin_trap();
    cfg.role = HS_SECURE_SITE;
    if (hs_secure_create(ctx, &cfg, NULL, &keyed_site)) __builtin_trap();
    size_t len = 0, n = 0;
    if (hs_secure_handshake_start(coord, a, sizeof a, &len)) __builtin_trap();
    if (hs_secure_handshake_input(keyed_site, a, len, b, sizeof b, &n)) __builtin_trap();
    if (hs_secure_handshake_input(coord, b, n, a, sizeof a, &len)) __builtin_trap();
    if (hs_secure_handshake_input(keyed_site, a, len, b, sizeof b, &n)) __builtin_trap();
    if (hs_secure_handshake_input(coord, b, n, a, sizeof a, &len)) __builtin_trap();
    if (!hs_secure_ready(coord) || !hs_secure_ready(keyed_site)) __builtin_trap();
    hs_secure_destroy(&coord);
}

/* A fresh plain site that has answered an AUTH_INIT: it expects sequence 1 next. */
static hs_secure *plain_site(hs_ctx *ctx)
{
    hs_secure_config cfg = {.role = HS_SECURE_SITE, .mode = HS_SECURE_PLAIN};
    hs_secure *s = NULL;
    if (hs_secure_create(ctx, &cfg, NULL, &s)) return NULL;
    hs_wire_msg init;
    memset(&init, 0, sizeof init);
    init.type = HS_WIRE_AUTH_INIT;
    init.auth.mode = HS_SECURE_PLAIN;
    uint8_t f[64], r[256];
    size_t len = 0, n = 0;
    if (hs_wire_encode(&init, 0, f, sizeof f, &len, NULL) ||
        hs_secure_handshake_input(s, f, len, r, sizeof r, &n) || !hs_secure_ready(s))
        __builtin_trap();
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static hs_ctx *ctx;
    if (!ctx) {
        if (hs_ctx_create(&ctx)) return 0;
        hs_ctx_set_logger(ctx, NULL, NULL, HS_LOG_ERROR);
        keyed_pair(ctx);
    }
    check_frame(data, size);
    hs_wire_msg msg;
    /* nobody forges a sealed frame, and refusals leave the channel as it was */
    if (hs_secure_open(keyed_site, data, size, &msg) == 0) {
        fprintf(stderr, "a keyed channel accepted a frame its peer never sealed\n");
        __builtin_trap();
    }
    if (hs_secure_fault(keyed_site) == HS_WIRE_FAULT_NONE) __builtin_trap();
    hs_secure *s = plain_site(ctx);
    if (s) {
        const int rc = hs_secure_open(s, data, size, &msg);
        if (rc == 0 && (msg.seq != 1 || size < HS_WIRE_HEADER_SIZE)) __builtin_trap();
        hs_secure_destroy(&s);
    }
    return 0;
}
