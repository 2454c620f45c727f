/* Nearest-name suggestions by edit distance (Levenshtein with adjacent transpositions, the
 * optimal string alignment distance: 'nmae' is one edit from 'name'). */
#include "suggest.h"

#include <string.h>

#define HS_SUGGEST_MAX 255

size_t hs_edit_distance(const char *a, const char *b)
{
    const size_t na = strlen(a), nb = strlen(b);
    if (na > HS_SUGGEST_MAX || nb > HS_SUGGEST_MAX) return (size_t)-1;
    /* three rows: i - 2 (for transpositions), i - 1, i */
    size_t r0[HS_SUGGEST_MAX + 1], r1[HS_SUGGEST_MAX + 1], r2[HS_SUGGEST_MAX + 1];
    size_t *pp = r0, *prev = r1, *cur = r2;
    for (size_t j = 0; j <= nb; j++) prev[j] = j;
    for (size_t i = 1; i <= na; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t best = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            if (prev[j] + 1 < best) best = prev[j] + 1;
            if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                pp[j - 2] + 1 < best)
                best = pp[j - 2] + 1;
            cur[j] = best;
        }
        size_t *t = pp;
        pp = prev;
        prev = cur;
        cur = t;
    }
    return prev[nb];
}

const char *hs_suggest(const char *word, const char *const *candidates, size_t n)
{
    if (!word) return NULL;
    const size_t wlen = strlen(word);
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        if (!candidates[i]) continue;
        const size_t d = hs_edit_distance(word, candidates[i]);
        size_t limit = strlen(candidates[i]) / 3;
        if (limit < 1) limit = 1;
        if (d <= limit && d < wlen && d < best_d) {
            best = candidates[i];
            best_d = d;
        }
    }
    return best;
}
