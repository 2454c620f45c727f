/* Ground-motion text files: whole-file reading, lines, checked numbers. */
#include "gm_text.h"

#include "../base/regular_file.h"
#include "../base/number.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hs_gm_text_open(hs_ctx *ctx, const char *path, hs_gm_text *t)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    FILE *f = NULL;
    const int opened = hs_fopen_regular(ctx, path, &f, NULL);
    if (opened) return opened;
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

static int digits_only(const char *s, const char *e)
{
    if (s < e && (*s == '+' || *s == '-')) s++;
    if (s == e) return 0;
    for (; s < e; s++)
        if (*s < '0' || *s > '9') return 0;
    return 1;
}

/* Digits, then an optional exponent (e or E, a sign, digits): the fraction of "1,5e3". */
static int fraction_exponent(const char *s, const char *e)
{
    const char *x = s;
    while (x < e && *x >= '0' && *x <= '9') x++;
    if (x == s || *s == '+' || *s == '-') return 0;
    return x == e || ((*x == 'e' || *x == 'E') && digits_only(x + 1, e));
}

/* "0,10", "1,5e3": a whole number, a comma and digits (with an optional exponent) with no blank
 * between: a decimal comma (or two values run together); refused, as '.' is the decimal mark and
 * a comma only separates values. */
static int decimal_comma(const char *s, const char *e, const char *end, const char **stop)
{
    if (e + 1 >= end || *e != ',' || !digits_only(s, e)) return 0;
    const char *f = e + 1;
    while (f < end && !is_separator(*f)) f++;
    *stop = f;
    return fraction_exponent(e + 1, f);
}

int hs_gm_text_values(hs_ctx *ctx, const hs_gm_text *t, double scale, hs_gm_values *out)
{
    const char *s = t->start, *end = t->start + t->n;
    while (s < end) {
        while (s < end && is_separator(*s)) s++;
        if (s == end) break;
        const char *e = s, *f = NULL;
        while (e < end && !is_separator(*e)) e++;
        const int col = (int)(s - t->start) + 1;
        const int len = (int)(e - s);
        if (decimal_comma(s, e, end, &f))
            return hs_fail(ctx, HS_EINPUT,
                           "%s:%zu:%d: '%.*s' has a decimal comma: hysim reads '.' as the decimal "
                           "mark and a comma as a separator between values; write %.*s.%.*s (or, "
                           "if these are two values, put a blank after the comma)",
                           t->path, t->line, col, (int)(f - s), s, len, s, (int)(f - e - 1), e + 1);
        double v = 0.0;
        const char *stop = NULL;
        hs_num_status st = hs_number_scan(s, &stop, &v);
        if (st == HS_NUM_OK && stop != e) st = HS_NUM_NOT_A_NUMBER;
        if (st == HS_NUM_OK && !isfinite(v * scale)) st = HS_NUM_TOO_LARGE;
        if (st != HS_NUM_OK)
            return hs_fail(ctx, HS_EINPUT, "%s:%zu:%d: '%.*s' %s", t->path, t->line, col, len, s,
                           st == HS_NUM_TOO_LARGE ? "is out of range" : hs_number_problem(st));
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
