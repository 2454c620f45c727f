/* The single-producer single-consumer ring (include/hysim/ring.h). */
#include "hysim/ring.h"

#include <string.h>

int hs_ring_init(hs_ring *r, size_t elem, size_t cap)
{
    memset(r, 0, sizeof *r);
    if (cap == 0 || (cap & (cap - 1)) != 0 || elem == 0) return HS_EINVAL;
    r->buf = hs_calloc(cap, elem);
    if (!r->buf) return HS_ENOMEM;
    r->elem = elem;
    r->cap = cap;
    atomic_init(&r->head, 0);
    atomic_init(&r->tail, 0);
    return 0;
}

void hs_ring_free(hs_ring *r)
{
    hs_free(r->buf);
    r->buf = NULL;
}

int hs_ring_push(hs_ring *r, const void *e)
{
    const size_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    const size_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);
    if (head - tail >= r->cap) return 0;
    memcpy(r->buf + (head & (r->cap - 1)) * r->elem, e, r->elem);
    atomic_store_explicit(&r->head, head + 1, memory_order_release);
    return 1;
}

int hs_ring_pop(hs_ring *r, void *e)
{
    const size_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    const size_t head = atomic_load_explicit(&r->head, memory_order_acquire);
    if (head == tail) return 0;
    memcpy(e, r->buf + (tail & (r->cap - 1)) * r->elem, r->elem);
    atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
    return 1;
}
