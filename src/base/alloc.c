/* Counted allocation: the step loop must not allocate, and tests prove it with hs_alloc_count. */
#include "hysim/base.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static atomic_uint_fast64_t hs_allocations, hs_largest;

/* Counts a successful allocation of `bytes`. */
static void hs_counted(size_t bytes)
{
    atomic_fetch_add(&hs_allocations, 1);
    uint_fast64_t seen = atomic_load(&hs_largest);
    while (bytes > seen && !atomic_compare_exchange_weak(&hs_largest, &seen, bytes)) {
    }
}

void *hs_malloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (p) hs_counted(size);
    return p;
}

void *hs_calloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (p) hs_counted(count * size);
    return p;
}

void *hs_realloc(void *ptr, size_t size)
{
    void *p = realloc(ptr, size ? size : 1);
    if (p) hs_counted(size);
    return p;
}

void hs_free(void *ptr)
{
    free(ptr);
}

char *hs_strdup(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *p = hs_malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

uint64_t hs_alloc_count(void)
{
    return (uint64_t)atomic_load(&hs_allocations);
}

uint64_t hs_alloc_largest(void)
{
    return (uint64_t)atomic_load(&hs_largest);
}

double *hs_dvec(size_t n)
{
    return hs_calloc(n ? n : 1, sizeof(double));
}
