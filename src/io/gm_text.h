/* Reading ground-motion text files: the whole file in memory, walked line by line, numbers parsed
 * with strtod and checked, errors reported as "PATH:LINE:COL: ...". Shared by the AT2 and the
 * columns readers. */
#ifndef HS_GM_TEXT_H
#define HS_GM_TEXT_H

#include "hysim/base.h"

typedef struct hs_gm_text {
    const char *path;
    char *buf; /* the file, NUL-terminated */
    size_t len, pos;
    size_t line;       /* 1-based number of the line last returned by hs_gm_text_line */
    const char *start; /* that line, `n` characters, without the end of line */
    size_t n;
} hs_gm_text;

/* A growing list of values. */
typedef struct hs_gm_values {
    double *v;
    size_t n, cap;
} hs_gm_values;

int hs_gm_text_open(hs_ctx *ctx, const char *path, hs_gm_text *t);
void hs_gm_text_close(hs_gm_text *t);
/* Advances to the next line: 1 when there is one (t->line, t->start, t->n set), 0 at the end. */
int hs_gm_text_next(hs_gm_text *t);
/* Appends every number of the current line (separated by blanks or commas), each times `scale`.
 * A token that is not a finite number fails with HS_EINPUT "PATH:LINE:COL: ...". */
int hs_gm_text_values(hs_ctx *ctx, const hs_gm_text *t, double scale, hs_gm_values *out);
void hs_gm_values_free(hs_gm_values *v);

#endif
