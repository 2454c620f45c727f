/* A single-producer single-consumer ring of fixed-size elements, preallocated: the producer
 * (the controller loop) never blocks and never allocates; a full ring refuses the element and
 * the producer counts it. head is written by the producer only, tail by the consumer only;
 * the release store of one and the acquire load by the other order the element's bytes. */
#include "site_server_impl.h"

#include <string.h>

int hs_srv_ring_init(hs_srv_ring *r, size_t elem, size_t cap)
{
    if (cap == 0 || (cap & (cap - 1)) != 0 || elem == 0) return HS_EINVAL;
    r->buf = hs_calloc(cap, elem);
    if (!r->buf) return HS_ENOMEM;
    r->elem = elem;
    r->cap = cap;
    atomic_init(&r->head, 0);
    atomic_init(&r->tail, 0);
    return 0;
}

void hs_srv_ring_fini(hs_srv_ring *r)
{
    hs_free(r->buf);
    r->buf = NULL;
}

int hs_srv_ring_push(hs_srv_ring *r, const void *e)
{
    const size_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    const size_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);
    if (head - tail >= r->cap) return 0;
    memcpy(r->buf + (head & (r->cap - 1)) * r->elem, e, r->elem);
    atomic_store_explicit(&r->head, head + 1, memory_order_release);
    return 1;
}

int hs_srv_ring_pop(hs_srv_ring *r, void *e)
{
    const size_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    const size_t head = atomic_load_explicit(&r->head, memory_order_acquire);
    if (head == tail) return 0;
    memcpy(e, r->buf + (tail & (r->cap - 1)) * r->elem, r->elem);
    atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
    return 1;
}
