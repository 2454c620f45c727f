/* The virtual clock: a binary min-heap of events ordered by (time, insertion sequence), allocated
 * once at creation. */
#include "hysim/vclock.h"

#include <math.h>

struct hs_vclock {
    hs_ctx *ctx;
    hs_vevent *heap;
    size_t n, capacity;
    uint64_t next_seq;
    hs_vtime now;
};

hs_vtime hs_vtime_from_seconds(double seconds)
{
    if (!(seconds > 0.0)) return 0;
    const double ns = seconds * 1e9;
    if (ns >= 9.2e18) return HS_VTIME_NEVER;
    return (hs_vtime)llround(ns);
}

double hs_vtime_seconds(hs_vtime t)
{
    return (double)t * 1e-9;
}

int hs_vclock_create(hs_ctx *ctx, size_t capacity, hs_vclock **out)
{
    if (!out) return hs_fail(ctx, HS_EINVAL, "vclock: no output pointer");
    *out = NULL;
    if (capacity == 0) return hs_fail(ctx, HS_EINVAL, "vclock: capacity must be > 0");
    hs_vclock *c = hs_calloc(1, sizeof *c);
    if (!c) return hs_fail(ctx, HS_ENOMEM, "vclock: out of memory");
    c->heap = hs_calloc(capacity, sizeof *c->heap);
    if (!c->heap) {
        hs_free(c);
        return hs_fail(ctx, HS_ENOMEM, "vclock: out of memory for %zu events", capacity);
    }
    c->ctx = ctx;
    c->capacity = capacity;
    *out = c;
    return 0;
}

void hs_vclock_destroy(hs_vclock **c)
{
    if (!c || !*c) return;
    hs_free((*c)->heap);
    hs_free(*c);
    *c = NULL;
}

hs_vtime hs_vclock_now(const hs_vclock *c)
{
    return c->now;
}
size_t hs_vclock_pending(const hs_vclock *c)
{
    return c->n;
}
size_t hs_vclock_capacity(const hs_vclock *c)
{
    return c->capacity;
}
uint64_t hs_vclock_pushed(const hs_vclock *c)
{
    return c->next_seq;
}

static int earlier(const hs_vevent *a, const hs_vevent *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void sift_up(hs_vevent *h, size_t i)
{
    const hs_vevent e = h[i];
    while (i > 0) {
        const size_t parent = (i - 1) / 2;
        if (!earlier(&e, &h[parent])) break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = e;
}

static void sift_down(hs_vevent *h, size_t n, size_t i)
{
    const hs_vevent e = h[i];
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && earlier(&h[child + 1], &h[child])) child++;
        if (!earlier(&h[child], &e)) break;
        h[i] = h[child];
        i = child;
    }
    h[i] = e;
}

int hs_vclock_push_event(hs_vclock *c, const hs_vevent *ev)
{
    if (ev->time < c->now)
        return hs_fail(c->ctx, HS_EINVAL,
                       "vclock: event kind %d for target %d scheduled at %.9f s, before now "
                       "(%.9f s)",
                       (int)ev->kind, (int)ev->target, hs_vtime_seconds(ev->time),
                       hs_vtime_seconds(c->now));
    if (c->n == c->capacity)
        return hs_fail(c->ctx, HS_ENOMEM,
                       "vclock: event queue full (%zu pending) at %.9f s pushing kind %d for "
                       "target %d",
                       c->n, hs_vtime_seconds(c->now), (int)ev->kind, (int)ev->target);
    hs_vevent *slot = &c->heap[c->n];
    *slot = *ev;
    slot->seq = c->next_seq++;
    sift_up(c->heap, c->n);
    c->n++;
    return 0;
}

int hs_vclock_push(hs_vclock *c, hs_vtime time, int32_t kind, int32_t target, uint32_t payload)
{
    const hs_vevent ev = {.time = time, .kind = kind, .target = target, .payload = payload};
    return hs_vclock_push_event(c, &ev);
}

int hs_vclock_peek(const hs_vclock *c, hs_vevent *out)
{
    if (c->n == 0) return 0;
    if (out) *out = c->heap[0];
    return 1;
}

int hs_vclock_pop(hs_vclock *c, hs_vevent *out)
{
    if (c->n == 0) return 0;
    const hs_vevent top = c->heap[0];
    c->n--;
    if (c->n > 0) {
        c->heap[0] = c->heap[c->n];
        sift_down(c->heap, c->n, 0);
    }
    c->now = top.time;
    if (out) *out = top;
    return 1;
}

int hs_vclock_pop_until(hs_vclock *c, hs_vtime limit, hs_vevent *out)
{
    if (c->n > 0 && c->heap[0].time <= limit) return hs_vclock_pop(c, out);
    if (limit > c->now) c->now = limit;
    return 0;
}

size_t hs_vclock_cancel(hs_vclock *c, int32_t kind, int32_t target)
{
    size_t kept = 0;
    for (size_t i = 0; i < c->n; i++)
        if (!(c->heap[i].kind == kind && c->heap[i].target == target)) c->heap[kept++] = c->heap[i];
    const size_t removed = c->n - kept;
    c->n = kept;
    /* Rebuild the heap; the order (time, seq) is total, so pops come out the same. */
    if (removed)
        for (size_t i = kept / 2; i-- > 0;) sift_down(c->heap, kept, i);
    return removed;
}

hs_vtime hs_vtick_time(hs_vtime origin, double rate_hz, int64_t n)
{
    return origin + (hs_vtime)llround((double)n * 1e9 / rate_hz);
}

int hs_vclock_push_tick(hs_vclock *c, hs_vtime origin, double rate_hz, int64_t n, int32_t kind,
                        int32_t target, uint32_t payload)
{
    if (!(rate_hz > 0.0) || !isfinite(rate_hz))
        return hs_fail(c->ctx, HS_EINVAL, "vclock: tick rate of target %d must be > 0 (got %g)",
                       (int)target, rate_hz);
    const hs_vevent ev = {.time = hs_vtick_time(origin, rate_hz, n),
                          .tick = n,
                          .kind = kind,
                          .target = target,
                          .payload = payload};
    return hs_vclock_push_event(c, &ev);
}

int hs_vclock_push_next_tick(hs_vclock *c, const hs_vevent *cur, hs_vtime origin, double rate_hz)
{
    return hs_vclock_push_tick(c, origin, rate_hz, cur->tick + 1, cur->kind, cur->target,
                               cur->payload);
}
