/* Nearest-name suggestions for unknown keys ("did you mean 'X'?"). Internal to src/io. */
#ifndef HS_SUGGEST_H
#define HS_SUGGEST_H

#include <stddef.h>

/* Edit distance between a and b (insertions, deletions, substitutions, adjacent swaps), or
 * (size_t)-1 when either is longer than 255 characters. */
size_t hs_edit_distance(const char *a, const char *b);
/* The candidate nearest to `word`, or NULL when none is close: the distance must be at most
 * max(1, strlen(candidate) / 3) and smaller than the word's length. */
const char *hs_suggest(const char *word, const char *const *candidates, size_t n);

#endif
