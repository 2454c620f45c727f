/* Frames of the native protocol: the 28-byte little-endian header, whole plain frames, names of
 * types and faults, and the sentences that explain a refusal. */
#include "wire_bytes.h"
#include "wire_impl.h"

#include <stdarg.h>
#include <stdio.h>

static const char *const type_names[] = {
    [HS_WIRE_AUTH_INIT] = "AUTH_INIT",
    [HS_WIRE_AUTH_CHALLENGE] = "AUTH_CHALLENGE",
    [HS_WIRE_AUTH_PROOF] = "AUTH_PROOF",
    [HS_WIRE_AUTH_OK] = "AUTH_OK",
    [HS_WIRE_HELLO] = "HELLO",
    [HS_WIRE_HELLO_ACK] = "HELLO_ACK",
    [HS_WIRE_TARGET] = "TARGET",
    [HS_WIRE_MEASUREMENT] = "MEASUREMENT",
    [HS_WIRE_COMMIT] = "COMMIT",
    [HS_WIRE_HEARTBEAT] = "HEARTBEAT",
    [HS_WIRE_ERROR] = "ERROR",
    [HS_WIRE_BYE] = "BYE",
    [HS_WIRE_RESUME] = "RESUME",
    [HS_WIRE_RESUME_ACK] = "RESUME_ACK",
    [HS_WIRE_HOLD] = "HOLD",
    [HS_WIRE_HOLD_ACK] = "HOLD_ACK",
};

const char *hs_wire_type_name(int type)
{
    if (type < 0 || (size_t)type >= sizeof type_names / sizeof type_names[0]) return NULL;
    return type_names[type];
}

const char *hs_wire_fault_name(hs_wire_fault f)
{
    switch (f) {
    case HS_WIRE_FAULT_NONE:
        return "none";
    case HS_WIRE_FAULT_TRUNCATED:
        return "truncated";
    case HS_WIRE_FAULT_MAGIC:
        return "bad magic";
    case HS_WIRE_FAULT_VERSION:
        return "wrong version";
    case HS_WIRE_FAULT_OVERSIZE:
        return "oversize";
    case HS_WIRE_FAULT_TYPE:
        return "unknown type";
    case HS_WIRE_FAULT_FLAGS:
        return "bad flags";
    case HS_WIRE_FAULT_PAYLOAD:
        return "bad payload";
    case HS_WIRE_FAULT_SPACE:
        return "no space";
    case HS_WIRE_FAULT_AUTH:
        return "authentication failed";
    case HS_WIRE_FAULT_SEQUENCE:
        return "out of sequence";
    }
    return "unknown fault";
}

void hs_wire_status_set(hs_wire_status *st, hs_wire_fault fault, const char *fmt, ...)
{
    if (!st) return;
    st->fault = fault;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->text, sizeof st->text, fmt, ap);
    va_end(ap);
}

void hs_wire_status_ok(hs_wire_status *st)
{
    if (!st) return;
    st->fault = HS_WIRE_FAULT_NONE;
    memcpy(st->text, "ok", 3);
}

int hs_wire_utf8_valid(const uint8_t *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        const unsigned c = s[i];
        if (c == 0) return 0;
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t k;
        unsigned cp;
        if (c >= 0xC2 && c <= 0xDF)
            k = 1, cp = c & 0x1Fu;
        else if (c >= 0xE0 && c <= 0xEF)
            k = 2, cp = c & 0x0Fu;
        else if (c >= 0xF0 && c <= 0xF4)
            k = 3, cp = c & 0x07u;
        else
            return 0;
        if (k > n - i - 1) return 0;
        for (size_t j = 1; j <= k; j++) {
            if ((s[i + j] & 0xC0u) != 0x80u) return 0;
            cp = (cp << 6) | (s[i + j] & 0x3Fu);
        }
        if ((k == 2 && cp < 0x800) || (k == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        i += k + 1;
    }
    return 1;
}

size_t hs_wire_utf8_cut(const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n <= max) return n;
    n = max;
    /* step back over continuation bytes to the start of the cut character */
    while (n > 0 && ((unsigned char)s[n] & 0xC0u) == 0x80u) n--;
    return n;
}

void hs_wire_header_encode(const hs_wire_header *h, uint8_t out[HS_WIRE_HEADER_SIZE])
{
    memcpy(out, HS_WIRE_MAGIC, 4);
    out[4] = h->version;
    out[5] = h->type;
    hs_le_put_u16(out + 6, h->flags);
    hs_le_put_u32(out + 8, h->length);
    hs_le_put_u64(out + 12, h->seq);
    hs_le_put_u64(out + 20, hs_le_i64_bits(h->step));
}

int hs_wire_header_decode(const uint8_t *buf, size_t len, uint32_t max_length, hs_wire_header *h,
                          hs_wire_status *st)
{
    if (!buf || !h) {
        hs_wire_status_set(st, HS_WIRE_FAULT_TRUNCATED, "wire: no frame");
        return HS_EINVAL;
    }
    if (max_length == 0) max_length = HS_WIRE_MAX_LENGTH;
    if (len < HS_WIRE_HEADER_SIZE) {
        hs_wire_status_set(st, HS_WIRE_FAULT_TRUNCATED,
                           "wire: truncated frame: %zu bytes, a header needs %d", len,
                           HS_WIRE_HEADER_SIZE);
        return HS_EPROTO;
    }
    if (memcmp(buf, HS_WIRE_MAGIC, 4) != 0) {
        hs_wire_status_set(st, HS_WIRE_FAULT_MAGIC,
                           "wire: bad magic %02x %02x %02x %02x (expected 48 53 49 4d, \"HSIM\"): "
                           "not a hysim peer",
                           buf[0], buf[1], buf[2], buf[3]);
        return HS_EPROTO;
    }
    h->version = buf[4];
    h->type = buf[5];
    h->flags = hs_le_get_u16(buf + 6);
    h->length = hs_le_get_u32(buf + 8);
    h->seq = hs_le_get_u64(buf + 12);
    h->step = hs_le_bits_i64(hs_le_get_u64(buf + 20));
    if (h->version != HS_WIRE_VERSION) {
        hs_wire_status_set(st, HS_WIRE_FAULT_VERSION,
                           "wire: protocol version %u, this end speaks version %d", h->version,
                           HS_WIRE_VERSION);
        return HS_EPROTO;
    }
    const char *name = hs_wire_type_name(h->type);
    if (!name) {
        hs_wire_status_set(st, HS_WIRE_FAULT_TYPE, "wire: unknown message type %u (sequence %llu)",
                           h->type, (unsigned long long)h->seq);
        return HS_EPROTO;
    }
    if (h->flags & ~HS_WIRE_FLAG_SEALED) {
        hs_wire_status_set(st, HS_WIRE_FAULT_FLAGS,
                           "wire: %s, sequence %llu: unknown flag bits 0x%04x", name,
                           (unsigned long long)h->seq, (unsigned)(h->flags & ~HS_WIRE_FLAG_SEALED));
        return HS_EPROTO;
    }
    if (h->length > max_length) {
        hs_wire_status_set(st, HS_WIRE_FAULT_OVERSIZE,
                           "wire: %s, sequence %llu: body of %lu bytes exceeds the maximum %lu",
                           name, (unsigned long long)h->seq, (unsigned long)h->length,
                           (unsigned long)max_length);
        return HS_EPROTO;
    }
    if (h->step < 0) {
        hs_wire_status_set(st, HS_WIRE_FAULT_PAYLOAD, "wire: %s, sequence %llu: negative step %lld",
                           name, (unsigned long long)h->seq, (long long)h->step);
        return HS_EPROTO;
    }
    hs_wire_status_ok(st);
    return 0;
}

int hs_wire_encode(const hs_wire_msg *msg, uint64_t seq, uint8_t *out, size_t cap, size_t *len,
                   hs_wire_status *st)
{
    if (!msg || !out || !len) {
        hs_wire_status_set(st, HS_WIRE_FAULT_PAYLOAD, "wire: nothing to encode");
        return HS_EINVAL;
    }
    if (cap < HS_WIRE_HEADER_SIZE) {
        hs_wire_status_set(st, HS_WIRE_FAULT_SPACE, "wire: %zu bytes cannot hold a %d-byte header",
                           cap, HS_WIRE_HEADER_SIZE);
        return HS_EINVAL;
    }
    if (msg->step < 0) {
        hs_wire_status_set(st, HS_WIRE_FAULT_PAYLOAD, "wire: negative step %lld",
                           (long long)msg->step);
        return HS_EINVAL;
    }
    size_t n = 0;
    const int rc =
        hs_wire_payload_encode(msg, out + HS_WIRE_HEADER_SIZE, cap - HS_WIRE_HEADER_SIZE, &n, st);
    if (rc) return rc;
    const hs_wire_header h = {.version = HS_WIRE_VERSION,
                              .type = (uint8_t)msg->type,
                              .flags = 0,
                              .length = (uint32_t)n,
                              .seq = seq,
                              .step = msg->step};
    hs_wire_header_encode(&h, out);
    *len = HS_WIRE_HEADER_SIZE + n;
    return 0;
}

int hs_wire_decode(const uint8_t *buf, size_t len, uint32_t max_length, hs_wire_msg *msg,
                   size_t *used, hs_wire_status *st)
{
    hs_wire_header h;
    int rc = hs_wire_header_decode(buf, len, max_length, &h, st);
    if (rc) return rc;
    if (!msg) return HS_EINVAL;
    if (h.flags & HS_WIRE_FLAG_SEALED) {
        hs_wire_status_set(st, HS_WIRE_FAULT_FLAGS,
                           "wire: %s, sequence %llu: sealed frame where a plain one was expected",
                           hs_wire_type_name(h.type), (unsigned long long)h.seq);
        return HS_EPROTO;
    }
    if (h.length > len - HS_WIRE_HEADER_SIZE) {
        hs_wire_status_set(st, HS_WIRE_FAULT_TRUNCATED,
                           "wire: %s, sequence %llu: truncated: body of %lu bytes announced, %zu "
                           "present",
                           hs_wire_type_name(h.type), (unsigned long long)h.seq,
                           (unsigned long)h.length, len - HS_WIRE_HEADER_SIZE);
        return HS_EPROTO;
    }
    rc = hs_wire_payload_decode(h.type, buf + HS_WIRE_HEADER_SIZE, h.length, msg, st);
    if (rc) return rc;
    msg->step = h.step;
    msg->seq = h.seq;
    if (used) *used = HS_WIRE_HEADER_SIZE + (size_t)h.length;
    return 0;
}

void hs_wire_error_set(hs_wire_msg *msg, int64_t step, int code, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    memset(msg, 0, sizeof *msg);
    msg->type = HS_WIRE_ERROR;
    msg->step = step < 0 ? 0 : step;
    msg->error.code = code;
    const size_t n = hs_wire_utf8_cut(text, HS_WIRE_TEXT_MAX - 1);
    memcpy(msg->error.text, text, n);
    msg->error.text[n] = '\0';
    if (!hs_wire_utf8_valid((const uint8_t *)msg->error.text, n))
        for (size_t i = 0; i < n; i++)
            if ((unsigned char)msg->error.text[i] >= 0x80) msg->error.text[i] = '?';
}
