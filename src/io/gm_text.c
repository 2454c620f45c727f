/* Ground-motion text files: whole-file reading, lines, checked numbers. */
#include "gm_text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hs_gm_text_open(hs_ctx *ctx, const char *path, hs_gm_text *t)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    FILE *f = fopen(path, "rb");
    if (!f) return hs_fail(ctx, HS_EIO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16;
    t->buf = hs_malloc(cap);
    int rc = t->buf ? 0 : HS_ENOMEM;
    while (!rc) {
        if (t->len + 1 == cap) {
            char *b = hs_realloc(t->buf, 2 * cap);
            if (!b) {
                rc = HS_ENOMEM;
                break;
            }
            t->buf = b;
            cap *= 2;
        }
        size_t got = fread(t->buf + t->len, 1, cap - 1 - t->len, f);
        t->len += got;
        if (got == 0) {
            if (ferror(f)) rc = HS_EIO;
            break;
        }
    }
    fclose(f);
    if (rc) {
        hs_gm_text_close(t);
        return rc == HS_ENOMEM ? hs_fail(ctx, rc, "%s: out of memory reading the file", path)
                               : hs_fail(ctx, rc, "%s: read error", path);
    }
    t->buf[t->len] = '\0';
    if (memchr(t->buf, '\0', t->len)) {
        hs_gm_text_close(t);
        return hs_fail(ctx, HS_EINPUT, "%s: not a text file (it holds a NUL byte)", path);
    }
    return 0;
}

void hs_gm_text_close(hs_gm_text *t)
{
    hs_free(t->buf);
    t->buf = NULL;
    t->len = t->pos = t->n = 0;
    t->start = NULL;
}

int hs_gm_text_next(hs_gm_text *t)
{
    if (t->pos >= t->len) return 0;
    const char *s = t->buf + t->pos;
    const char *nl = memchr(s, '\n', t->len - t->pos);
    size_t n = nl ? (size_t)(nl - s) : t->len - t->pos;
    t->pos += n + (nl ? 1 : 0);
    if (n && s[n - 1] == '\r') n--;
    t->start = s;
    t->n = n;
    t->line++;
    return 1;
}

static int is_separator(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == ',';
}

/* Plain decimal notation only: digits, sign, point, exponent (no hex, nan or inf). */
static int is_plain_decimal(const char *s, const char *e)
{
    for (; s < e; s++)
        if (!strchr("0123456789+-.eE", *s) || *s == '\0') return 0;
    return 1;
}

int hs_gm_text_values(hs_ctx *ctx, const hs_gm_text *t, double scale, hs_gm_values *out)
{
    const char *s = t->start, *end = t->start + t->n;
    while (s < end) {
        while (s < end && is_separator(*s)) s++;
        if (s == end) break;
        const char *e = s;
        while (e < end && !is_separator(*e)) e++;
        char *stop = NULL;
        errno = 0;
        double v = strtod(s, &stop);
        const int col = (int)(s - t->start) + 1;
        const int len = (int)(e - s);
        if (stop != e || !is_plain_decimal(s, e))
            return hs_fail(ctx, HS_EINPUT, "%s:%zu:%d: '%.*s' is not a number", t->path, t->line,
                           col, len, s);
        if (!isfinite(v * scale) || (errno == ERANGE && fabs(v) > 1.0))
            return hs_fail(ctx, HS_EINPUT, "%s:%zu:%d: '%.*s' is out of range", t->path, t->line,
                           col, len, s);
        if (out->n == out->cap) {
            size_t cap = out->cap ? 2 * out->cap : 4096;
            double *nv = hs_realloc(out->v, cap * sizeof *nv);
            if (!nv) return hs_fail(ctx, HS_ENOMEM, "%s: out of memory", t->path);
            out->v = nv;
            out->cap = cap;
        }
        out->v[out->n++] = v * scale;
        s = e;
    }
    return 0;
}

void hs_gm_values_free(hs_gm_values *v)
{
    hs_free(v->v);
    v->v = NULL;
    v->n = v->cap = 0;
}
