/* Private: the name lookup shared by the registries (integrators, materials, ground motions,
 * specimens, compensators, delay distributions), whose tables are static arrays of entries that
 * each begin with their name. */
#ifndef HS_REGISTRY_H
#define HS_REGISTRY_H

#include <stddef.h>
#include <string.h>

/* The index of the entry called `name` among the n entries of `stride` bytes from `table`, each
 * beginning with its name (a `const char *` first member, or the first member of a first struct
 * member); n when there is none or name is NULL. */
static inline size_t hs_registry_index(const void *table, size_t n, size_t stride, const char *name)
{
    const char *entry = table;
    for (size_t i = 0; name && i < n; i++, entry += stride)
        if (strcmp(*(const char *const *)(const void *)entry, name) == 0) return i;
    return n;
}

/* hs_registry_index over a whole static array. */
#define HS_REGISTRY_INDEX(table, name)                                                             \
    hs_registry_index((table), sizeof(table) / sizeof((table)[0]), sizeof((table)[0]), (name))

#endif
