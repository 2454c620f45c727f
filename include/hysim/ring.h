/* hysim ring: a preallocated single-producer single-consumer ring of fixed-size elements. The
 * producer never blocks and never allocates: a full ring refuses the element (the caller counts
 * it). `head` is written by the producer only, `tail` by the consumer only; the release store of
 * one and the acquire load by the other order the element's bytes. */
#ifndef HYSIM_RING_H
#define HYSIM_RING_H

#include "hysim/base.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hs_ring {
    uint8_t *buf;
    size_t elem, cap; /* cap: a power of two */
    atomic_size_t head, tail;
} hs_ring;

/* HS_EINVAL unless cap is a power of two and elem > 0. */
int hs_ring_init(hs_ring *r, size_t elem, size_t cap);
void hs_ring_free(hs_ring *r);
int hs_ring_push(hs_ring *r, const void *e); /* 1 pushed, 0 full; never blocks */
int hs_ring_pop(hs_ring *r, void *e);        /* 1 popped, 0 empty */

#ifdef __cplusplus
}
#endif
#endif
