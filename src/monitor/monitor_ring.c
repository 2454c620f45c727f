/* The monitor's single-producer single-consumer ring (include/hysim/monitor.h): the producer owns
 * `head`, the consumer `tail`; each publishes its index with release and reads the other's with
 * acquire, so a slot is never read before it is written nor overwritten before it is read. */
#include "hysim/monitor.h"

#include "hysim/base.h"

#include <string.h>

int hs_monitor_ring_init(hs_monitor_ring *r, size_t capacity)
{
    size_t cap = 2;
    while (cap < capacity && cap < ((size_t)1 << 30)) cap <<= 1;
    memset(r, 0, sizeof *r);
    r->slot = hs_calloc(cap, sizeof *r->slot);
    if (!r->slot) return HS_ENOMEM;
    r->mask = cap - 1;
    atomic_init(&r->head, 0);
    atomic_init(&r->tail, 0);
    atomic_init(&r->dropped, 0);
    return 0;
}

void hs_monitor_ring_free(hs_monitor_ring *r)
{
    hs_free(r->slot);
    r->slot = NULL;
}

int hs_monitor_ring_push(hs_monitor_ring *r, const hs_monitor_sample *s)
{
    const size_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    const size_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);
    if (head - tail > r->mask) {
        atomic_fetch_add_explicit(&r->dropped, 1, memory_order_relaxed);
        return 0;
    }
    r->slot[head & r->mask] = *s;
    atomic_store_explicit(&r->head, head + 1, memory_order_release);
    return 1;
}

int hs_monitor_ring_pop(hs_monitor_ring *r, hs_monitor_sample *s)
{
    const size_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    const size_t head = atomic_load_explicit(&r->head, memory_order_acquire);
    if (head == tail) return 0;
    *s = r->slot[tail & r->mask];
    atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
    return 1;
}

unsigned long long hs_monitor_ring_dropped(hs_monitor_ring *r)
{
    return atomic_load_explicit(&r->dropped, memory_order_relaxed);
}
