/* The monitor's sample ring (include/hysim/monitor.h): hysim's SPSC ring (hysim/ring.h) of
 * samples, with the count of samples refused because the page fell behind. */
#include "hysim/monitor.h"

int hs_monitor_ring_init(hs_monitor_ring *r, size_t capacity)
{
    size_t cap = 2;
    while (cap < capacity && cap < ((size_t)1 << 30)) cap <<= 1;
    atomic_init(&r->dropped, 0);
    return hs_ring_init(&r->ring, sizeof(hs_monitor_sample), cap);
}

void hs_monitor_ring_free(hs_monitor_ring *r)
{
    hs_ring_free(&r->ring);
}

int hs_monitor_ring_push(hs_monitor_ring *r, const hs_monitor_sample *s)
{
    if (hs_ring_push(&r->ring, s)) return 1;
    atomic_fetch_add_explicit(&r->dropped, 1, memory_order_relaxed);
    return 0;
}

int hs_monitor_ring_pop(hs_monitor_ring *r, hs_monitor_sample *s)
{
    return hs_ring_pop(&r->ring, s);
}

unsigned long long hs_monitor_ring_dropped(hs_monitor_ring *r)
{
    return atomic_load_explicit(&r->dropped, memory_order_relaxed);
}
