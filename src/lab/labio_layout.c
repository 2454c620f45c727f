/* The udp packet layout (include/hysim/labio.h): an ordered list of fields, each float64,
 * float32, int32 or uint32 in little or big endian, packed without gaps (padding is explicit).
 * Values are calibrated per field: test units = gain * raw + offset. */
#include "hysim/labio.h"

#include <math.h>
#include <string.h>

static void put(uint8_t *p, uint64_t bits, int bytes, int big)
{
    for (int i = 0; i < bytes; i++) p[big ? bytes - 1 - i : i] = (uint8_t)(bits >> (8 * i));
}

static uint64_t get(const uint8_t *p, int bytes, int big)
{
    uint64_t bits = 0;
    for (int i = 0; i < bytes; i++) bits |= (uint64_t)p[big ? bytes - 1 - i : i] << (8 * i);
    return bits;
}

/* A value in test units -> raw bits of the field's type. */
static uint64_t encode(const hs_udp_field *f, double value, int is_count)
{
    const double raw = is_count ? value : (value - f->offset) / f->gain;
    switch (f->type) {
    case HS_UDP_FLOAT64: {
        uint64_t b;
        memcpy(&b, &raw, 8);
        return b;
    }
    case HS_UDP_FLOAT32: {
        const float x = (float)raw;
        uint32_t b;
        memcpy(&b, &x, 4);
        return b;
    }
    case HS_UDP_INT32: {
        const double r = nearbyint(raw);
        const int32_t i = !(r >= -2147483648.0) ? INT32_MIN
                          : r > 2147483647.0    ? INT32_MAX
                                                : (int32_t)r;
        return (uint32_t)i;
    }
    default: {
        const double r = nearbyint(raw);
        return !(r >= 0.0) ? 0u : r > 4294967295.0 ? 0xffffffffu : (uint32_t)r;
    }
    }
}

static double decode(const hs_udp_field *f, uint64_t bits, int is_count)
{
    double raw;
    switch (f->type) {
    case HS_UDP_FLOAT64:
        memcpy(&raw, &bits, 8);
        break;
    case HS_UDP_FLOAT32: {
        const uint32_t b = (uint32_t)bits;
        float x;
        memcpy(&x, &b, 4);
        raw = (double)x;
        break;
    }
    case HS_UDP_INT32:
        raw = (double)(int32_t)(uint32_t)bits;
        break;
    default:
        raw = (double)(uint32_t)bits;
    }
    return is_count ? raw : f->gain * raw + f->offset;
}

void hs_udp_pack(const hs_udp_layout *l, const hs_udp_values *v, uint8_t *buf)
{
    uint8_t *p = buf;
    for (int i = 0; i < l->n; i++) {
        const hs_udp_field *f = &l->f[i];
        uint64_t bits = 0;
        switch (f->role) {
        case HS_UDP_PAD:
            break;
        case HS_UDP_COUNTER:
            bits = encode(f, (double)v->counter, 1);
            break;
        case HS_UDP_ECHO:
            bits = encode(f, (double)v->echo, 1);
            break;
        case HS_UDP_STATUS:
            bits = encode(f, (double)v->status, 1);
            break;
        case HS_UDP_TICK:
            bits = encode(f, (double)(uint32_t)v->tick, 1);
            break;
        case HS_UDP_TIME:
            bits = encode(f, v->time, 0);
            break;
        case HS_UDP_COMMAND:
            bits = encode(f, v->cmd[f->channel], 0);
            break;
        case HS_UDP_DISPLACEMENT:
            bits = encode(f, v->x[f->channel], 0);
            break;
        default:
            bits = encode(f, v->f[f->channel], 0);
        }
        if (f->role == HS_UDP_PAD)
            memset(p, 0, (size_t)f->bytes);
        else
            put(p, bits, f->bytes, f->big);
        p += f->bytes;
    }
}

int hs_udp_unpack(const hs_udp_layout *l, const uint8_t *buf, size_t len, hs_udp_values *v)
{
    if (len != l->size) return HS_EPROTO;
    const uint8_t *p = buf;
    hs_udp_values t = *v;
    for (int i = 0; i < l->n; i++) {
        const hs_udp_field *f = &l->f[i];
        const int count = f->role == HS_UDP_COUNTER || f->role == HS_UDP_ECHO ||
                          f->role == HS_UDP_STATUS || f->role == HS_UDP_TICK;
        const double x = f->role == HS_UDP_PAD ? 0.0 : decode(f, get(p, f->bytes, f->big), count);
        p += f->bytes;
        /* a measured value that is not a number goes through, for the site controller to name it
         * (laboratory data, HS_SITE_CAUSE_LAB_DATA) instead of a silent discard that ends as a
         * watchdog; any other field must be finite */
        const int measured = f->role == HS_UDP_DISPLACEMENT || f->role == HS_UDP_FORCE;
        if (!isfinite(x) && !measured) return HS_EPROTO;
        if (count && !(x >= 0.0 && x <= 4294967295.0)) return HS_EPROTO;
        switch (f->role) {
        case HS_UDP_COUNTER:
            t.counter = (uint32_t)x;
            break;
        case HS_UDP_ECHO:
            t.echo = (uint32_t)x;
            break;
        case HS_UDP_STATUS:
            t.status = (uint32_t)x;
            break;
        case HS_UDP_TICK:
            t.tick = (int64_t)x;
            break;
        case HS_UDP_TIME:
            t.time = x;
            break;
        case HS_UDP_COMMAND:
            t.cmd[f->channel] = x;
            break;
        case HS_UDP_DISPLACEMENT:
            t.x[f->channel] = x;
            break;
        case HS_UDP_FORCE:
            t.f[f->channel] = x;
            break;
        default:
            break;
        }
    }
    *v = t;
    return 0;
}

int hs_udp_layout_has(const hs_udp_layout *l, int role)
{
    for (int i = 0; i < l->n; i++)
        if (l->f[i].role == role) return 1;
    return 0;
}
