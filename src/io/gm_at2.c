/* PEER NGA .AT2 records: three free header lines, a fourth giving NPTS and DT, either in the old
 * form "4000    0.0100    NPTS, DT" or the newer "NPTS=  4000, DT=   .0100 SEC", then NPTS values
 * in g, any count per line (five in PEER's files). The values are multiplied by `scale`. */
#include "gm_text.h"
#include "../base/number.h"
#include "model/ground_motion_impl.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const hs_param_spec hs_ground_motion_at2_params[] = {
    {"path", HS_PARAM_STR, 1, "the .AT2 file"},
    {"scale", HS_PARAM_NUM, 0, "multiplies the values in g into length/time^2 (default 1)"},
    {"lead", HS_PARAM_NUM, 0, "seconds of zeros before the record, whole steps (default 0)"},
    {"trail", HS_PARAM_NUM, 0, "seconds of zeros after the record, whole steps (default 0)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

#define HS_AT2_HEADER_LINES 4
#define HS_AT2_MAX_NPTS     1e9

/* Reads the number after `key` (case-insensitive) and an optional '=' in s: 1 when found, 0
 * when absent, -1 (*st set) when what follows is not a decimal number (hex is refused). */
static int number_after(const char *s, const char *key, double *v, hs_num_status *st)
{
    size_t k = strlen(key);
    for (const char *p = s; *p; p++) {
        size_t i = 0;
        while (i < k && p[i] && toupper((unsigned char)p[i]) == key[i]) i++;
        if (i < k) continue;
        const char *q = p + k;
        while (*q == ' ' || *q == '\t' || *q == '=') q++;
        *st = hs_number_scan(q, NULL, v);
        return *st == HS_NUM_OK ? 1 : *st == HS_NUM_NOT_A_NUMBER ? 0 : -1;
    }
    return 0;
}

/* Both header forms; 0 on success, -1 when unreadable, -2 (*st set) for a number that breaks
 * the number rule (hex, inf, too large). */
static int parse_npts_dt(const char *line, double *npts, double *dt, hs_num_status *st)
{
    *st = HS_NUM_OK;
    const int n = number_after(line, "NPTS", npts, st);
    if (n < 0) return -2;
    if (n > 0) {
        const int d = number_after(line, "DT", dt, st);
        return d > 0 ? 0 : d < 0 ? -2 : -1;
    }
    const char *end = NULL;
    while (*line == ' ' || *line == '\t') line++;
    *st = hs_number_scan(line, &end, npts);
    if (*st != HS_NUM_OK) return *st == HS_NUM_NOT_A_NUMBER ? -1 : -2;
    const char *q = end;
    while (*q == ' ' || *q == '\t' || *q == ',') q++;
    *st = hs_number_scan(q, NULL, dt);
    return *st == HS_NUM_OK ? 0 : *st == HS_NUM_NOT_A_NUMBER ? -1 : -2;
}

static int read_header(hs_ctx *ctx, hs_gm_text *t, size_t *npts, double *dt)
{
    for (int i = 0; i < HS_AT2_HEADER_LINES; i++)
        if (!hs_gm_text_next(t))
            return hs_fail(
                ctx, HS_EINPUT,
                "%s:%zu: truncated AT2 header: expected %d header lines, the file has %zu", t->path,
                t->line, HS_AT2_HEADER_LINES, t->line);
    char line[512];
    if (t->n >= sizeof line)
        return hs_fail(ctx, HS_EINPUT, "%s:%zu: AT2 header line too long (%zu characters)", t->path,
                       t->line, t->n);
    memcpy(line, t->start, t->n);
    line[t->n] = '\0';
    double n = 0.0, h = 0.0;
    hs_num_status st = HS_NUM_OK;
    const int parsed = parse_npts_dt(line, &n, &h, &st);
    if (parsed == -2)
        return hs_fail(ctx, HS_EINPUT, "%s:%zu: AT2 header line '%s': NPTS or DT %s", t->path,
                       t->line, line, hs_number_problem(st));
    if (parsed)
        return hs_fail(ctx, HS_EINPUT,
                       "%s:%zu: cannot read NPTS and DT from AT2 header line '%s' (expected "
                       "'NPTS=  4000, DT=   .0100 SEC' or '4000    0.0100    NPTS, DT')",
                       t->path, t->line, line);
    if (!(n >= 1.0 && n <= HS_AT2_MAX_NPTS) || floor(n) != n)
        return hs_fail(ctx, HS_EINPUT, "%s:%zu: NPTS must be a positive whole number (got %g)",
                       t->path, t->line, n);
    if (!(h > 0.0) || !isfinite(h))
        return hs_fail(ctx, HS_EINPUT, "%s:%zu: DT must be positive (got %g)", t->path, t->line, h);
    *npts = (size_t)n;
    *dt = h;
    return 0;
}

static int read_at2(hs_ctx *ctx, hs_gm_text *t, double scale, hs_gm_values *v, double *dt)
{
    size_t npts = 0;
    int rc = read_header(ctx, t, &npts, dt);
    if (rc) return rc;
    const size_t header_line = t->line;
    while (hs_gm_text_next(t)) {
        rc = hs_gm_text_values(ctx, t, scale, v);
        if (rc) return rc;
        if (v->n > npts)
            return hs_fail(ctx, HS_EINPUT,
                           "%s:%zu: more values than NPTS = %zu given in the header (line %zu)",
                           t->path, t->line, npts, header_line);
    }
    if (v->n < npts)
        return hs_fail(ctx, HS_EINPUT,
                       "%s:%zu: truncated AT2 record: the header (line %zu) gives NPTS = %zu but "
                       "the file ends after %zu values",
                       t->path, t->line, header_line, npts, v->n);
    return 0;
}

int hs_ground_motion_create_at2(hs_ctx *ctx, const hs_options *opts, hs_ground_motion **out)
{
    const char *path = hs_options_str(opts, "path", NULL);
    const double scale = hs_options_num(opts, "scale", 1.0);
    if (!path) return hs_fail(ctx, HS_EINPUT, "ground motion at2: 'path' must be a string");
    if (!isfinite(scale) || scale == 0.0)
        return hs_fail(ctx, HS_EINPUT, "%s: ground motion at2: scale must be finite and non-zero",
                       path);
    hs_gm_text t;
    int rc = hs_gm_text_open(ctx, path, &t);
    if (rc) return rc;
    hs_gm_values v = {0};
    double dt = 0.0;
    rc = read_at2(ctx, &t, scale, &v, &dt);
    hs_gm_text_close(&t);
    if (!rc) rc = hs_ground_motion_alloc(ctx, v.n, dt, path, out);
    if (!rc) memcpy((*out)->acc, v.v, v.n * sizeof(double));
    hs_gm_values_free(&v);
    return rc;
}
