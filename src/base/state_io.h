/* Private helpers for checkpoint state as flat arrays of doubles: a cursor that writes (out set),
 * counts (out and in NULL) or reads (in set). Integers travel as doubles (exact below 2^53) and are
 * checked on the way back; 64-bit words that may exceed 2^53 (virtual times, counters, RNG words)
 * travel as two 32-bit halves. Never allocates. */
#ifndef HS_STATE_IO_H
#define HS_STATE_IO_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct hs_state_io {
    double *out;      /* save: destination, or NULL to count */
    const double *in; /* load: source */
    size_t pos;
    int bad; /* load: a value did not fit (not an integer, out of range) */
} hs_state_io;

static inline hs_state_io hs_state_writer(double *out)
{
    return (hs_state_io){.out = out};
}
static inline hs_state_io hs_state_reader(const double *in)
{
    return (hs_state_io){.in = in};
}

/* save or count */
static inline void hs_state_put(hs_state_io *s, double v)
{
    if (s->out) s->out[s->pos] = v;
    s->pos++;
}
static inline void hs_state_put_n(hs_state_io *s, const double *v, size_t n)
{
    if (s->out && n) memcpy(s->out + s->pos, v, n * sizeof(double));
    s->pos += n;
}
static inline void hs_state_put_u64(hs_state_io *s, uint64_t v)
{
    hs_state_put(s, (double)(v >> 32));
    hs_state_put(s, (double)(v & 0xffffffffu));
}

/* load */
static inline double hs_state_get(hs_state_io *s)
{
    return s->in[s->pos++];
}
static inline void hs_state_get_n(hs_state_io *s, double *v, size_t n)
{
    if (n) memcpy(v, s->in + s->pos, n * sizeof(double));
    s->pos += n;
}
static inline int64_t hs_state_get_int(hs_state_io *s, int64_t lo, int64_t hi)
{
    const double v = hs_state_get(s);
    if (!(v >= (double)lo && v <= (double)hi && v == floor(v))) {
        s->bad = 1;
        return lo;
    }
    return (int64_t)v;
}
static inline uint64_t hs_state_get_u64(hs_state_io *s)
{
    const double hi = hs_state_get(s), lo = hs_state_get(s);
    if (!(hi >= 0.0 && hi <= 4294967295.0 && hi == floor(hi) && lo >= 0.0 && lo <= 4294967295.0 &&
          lo == floor(lo))) {
        s->bad = 1;
        return 0;
    }
    return ((uint64_t)hi << 32) | (uint64_t)lo;
}

/* Both ways: save or count when s->in is NULL (returns v), else load (returns the saved value). */
static inline void hs_state_vec(hs_state_io *s, double *v, size_t n)
{
    if (s->in)
        hs_state_get_n(s, v, n);
    else
        hs_state_put_n(s, v, n);
}
static inline double hs_state_num(hs_state_io *s, double v)
{
    if (s->in) return hs_state_get(s);
    hs_state_put(s, v);
    return v;
}
static inline int64_t hs_state_int(hs_state_io *s, int64_t v, int64_t lo, int64_t hi)
{
    if (s->in) return hs_state_get_int(s, lo, hi);
    hs_state_put(s, (double)v);
    return v;
}
static inline uint64_t hs_state_u64(hs_state_io *s, uint64_t v)
{
    if (s->in) return hs_state_get_u64(s);
    hs_state_put_u64(s, v);
    return v;
}

#define HS_STATE_I64_MAX INT64_C(9007199254740992) /* 2^53 */

#endif
