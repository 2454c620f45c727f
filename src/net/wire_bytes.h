/* Explicit little-endian byte order for the wire, whatever the host: integers by shifts, doubles
 * as their IEEE-754 binary64 bit pattern. A writer and a reader over caller buffers that note
 * overflow/underflow instead of running past the end. */
#ifndef HS_WIRE_BYTES_H
#define HS_WIRE_BYTES_H

#include <float.h>
#include <stdint.h>
#include <string.h>

_Static_assert(sizeof(double) == 8 && DBL_MANT_DIG == 53 && DBL_MAX_EXP == 1024,
               "the wire needs IEEE-754 binary64 doubles");

static inline void hs_le_put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)(v >> 8);
}

static inline void hs_le_put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)((v >> (8 * i)) & 0xFFu);
}

static inline void hs_le_put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)((v >> (8 * i)) & 0xFFu);
}

static inline uint16_t hs_le_get_u16(const uint8_t *p)
{
    return (uint16_t)((unsigned)p[0] | ((unsigned)p[1] << 8));
}

/* On a little-endian host a load is the wire's order: one instruction (compilers do not merge
 * the byte loop into one for loads, as they do for stores; callgrind of a frame's decoding). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HS_LE_HOST 1
#else
#define HS_LE_HOST 0
#endif

static inline uint32_t hs_le_get_u32(const uint8_t *p)
{
    uint32_t v = 0;
    if (HS_LE_HOST) {
        memcpy(&v, p, sizeof v);
        return v;
    }
    for (int i = 3; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

static inline uint64_t hs_le_get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    if (HS_LE_HOST) {
        memcpy(&v, p, sizeof v);
        return v;
    }
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

static inline void hs_le_put_f64(uint8_t *p, double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    hs_le_put_u64(p, bits);
}

static inline double hs_le_get_f64(const uint8_t *p)
{
    const uint64_t bits = hs_le_get_u64(p);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* Two's complement int64 <-> u64 without implementation-defined conversions. */
static inline uint64_t hs_le_i64_bits(int64_t v)
{
    return v >= 0 ? (uint64_t)v : ~(uint64_t)(-(v + 1));
}

static inline int64_t hs_le_bits_i64(uint64_t u)
{
    return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}

/* Writer: bytes past `cap` are counted but not written (overflow set). */
typedef struct hs_wbuf {
    uint8_t *p;
    size_t cap, pos;
    int overflow;
} hs_wbuf;

static inline uint8_t *hs_wbuf_take(hs_wbuf *w, size_t n)
{
    if (w->overflow || n > w->cap - w->pos) {
        w->overflow = 1;
        w->pos += n;
        return NULL;
    }
    uint8_t *q = w->p + w->pos;
    w->pos += n;
    return q;
}

static inline void hs_wbuf_u8(hs_wbuf *w, uint8_t v)
{
    uint8_t *q = hs_wbuf_take(w, 1);
    if (q) q[0] = v;
}

static inline void hs_wbuf_u32(hs_wbuf *w, uint32_t v)
{
    uint8_t *q = hs_wbuf_take(w, 4);
    if (q) hs_le_put_u32(q, v);
}

static inline void hs_wbuf_u64(hs_wbuf *w, uint64_t v)
{
    uint8_t *q = hs_wbuf_take(w, 8);
    if (q) hs_le_put_u64(q, v);
}

static inline void hs_wbuf_i64(hs_wbuf *w, int64_t v)
{
    hs_wbuf_u64(w, hs_le_i64_bits(v));
}

static inline void hs_wbuf_f64(hs_wbuf *w, double v)
{
    uint8_t *q = hs_wbuf_take(w, 8);
    if (q) hs_le_put_f64(q, v);
}

static inline void hs_wbuf_bytes(hs_wbuf *w, const void *src, size_t n)
{
    uint8_t *q = hs_wbuf_take(w, n);
    if (q && n) memcpy(q, src, n);
}

/* Reader: reading past the end sets `underflow` and yields zeros. */
typedef struct hs_rbuf {
    const uint8_t *p;
    size_t len, pos;
    int underflow;
} hs_rbuf;

static inline const uint8_t *hs_rbuf_take(hs_rbuf *r, size_t n)
{
    if (r->underflow || n > r->len - r->pos) {
        r->underflow = 1;
        return NULL;
    }
    const uint8_t *q = r->p + r->pos;
    r->pos += n;
    return q;
}

static inline uint8_t hs_rbuf_u8(hs_rbuf *r)
{
    const uint8_t *q = hs_rbuf_take(r, 1);
    return q ? q[0] : 0;
}

static inline uint32_t hs_rbuf_u32(hs_rbuf *r)
{
    const uint8_t *q = hs_rbuf_take(r, 4);
    return q ? hs_le_get_u32(q) : 0;
}

static inline uint64_t hs_rbuf_u64(hs_rbuf *r)
{
    const uint8_t *q = hs_rbuf_take(r, 8);
    return q ? hs_le_get_u64(q) : 0;
}

static inline int64_t hs_rbuf_i64(hs_rbuf *r)
{
    return hs_le_bits_i64(hs_rbuf_u64(r));
}

static inline double hs_rbuf_f64(hs_rbuf *r)
{
    const uint8_t *q = hs_rbuf_take(r, 8);
    return q ? hs_le_get_f64(q) : 0.0;
}

static inline void hs_rbuf_bytes(hs_rbuf *r, void *dst, size_t n)
{
    const uint8_t *q = hs_rbuf_take(r, n);
    if (q && n)
        memcpy(dst, q, n);
    else if (n)
        memset(dst, 0, n);
}

#endif
