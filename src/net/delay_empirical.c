/* Empirical delay from a histogram file: bins with uniform density inside, so the CDF is piecewise
 * linear between bin edges; sampling inverts it (binary search, then linear interpolation). */
#include "delay_dist_impl.h"

#include "../base/regular_file.h"
#include "../base/number.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const hs_param_spec hs_delay_empirical_params[] = {
    {"file", HS_PARAM_STR, 1, "histogram file: lines 'delay count' (bin centre in s, count)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

typedef struct histogram {
    size_t n;     /* bins */
    double *edge; /* n + 1 bin edges (s) */
    double *cdf;  /* n + 1: cdf[i] = P(X < edge[i]); cdf[0] = 0, cdf[n] = 1 */
} histogram;

static size_t bin_of_probability(const histogram *h, double u)
{
    size_t lo = 0, hi = h->n - 1; /* largest i with cdf[i] <= u */
    while (lo < hi) {
        const size_t mid = lo + (hi - lo + 1) / 2;
        if (h->cdf[mid] <= u)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static double empirical_sample(const hs_delay_dist *d, hs_rng *rng)
{
    const histogram *h = d->data;
    const double u = hs_rng_uniform(rng);
    const size_t i = bin_of_probability(h, u);
    const double w = (u - h->cdf[i]) / (h->cdf[i + 1] - h->cdf[i]);
    return h->edge[i] + w * (h->edge[i + 1] - h->edge[i]);
}

static double empirical_survival(const hs_delay_dist *d, double x)
{
    const histogram *h = d->data;
    if (x < h->edge[0]) return 1.0;
    if (x >= h->edge[h->n]) return 0.0;
    size_t lo = 0, hi = h->n - 1; /* largest i with edge[i] <= x */
    while (lo < hi) {
        const size_t mid = lo + (hi - lo + 1) / 2;
        if (h->edge[mid] <= x)
            lo = mid;
        else
            hi = mid - 1;
    }
    const double w = (x - h->edge[lo]) / (h->edge[lo + 1] - h->edge[lo]);
    return 1.0 - (h->cdf[lo] + w * (h->cdf[lo + 1] - h->cdf[lo]));
}

static double empirical_mean(const hs_delay_dist *d)
{
    const histogram *h = d->data;
    double m = 0.0;
    for (size_t i = 0; i < h->n; i++)
        m += (h->cdf[i + 1] - h->cdf[i]) * 0.5 * (h->edge[i] + h->edge[i + 1]);
    return m;
}

static void empirical_destroy(hs_delay_dist *d)
{
    histogram *h = d->data;
    if (!h) return;
    hs_free(h->edge);
    hs_free(h->cdf);
    hs_free(h);
}

/* One number at *p (after blanks and one optional comma), by the number rule of every input file
 * (src/base/number.h: decimal only). */
static hs_num_status read_number(const char **p, double *out)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t') s++;
    if (*s == ',') s++;
    while (*s == ' ' || *s == '\t') s++;
    const char *end = NULL;
    const hs_num_status st = hs_number_scan(s, &end, out);
    if (st == HS_NUM_OK) *p = end;
    return st;
}

static int grow(hs_delay_dist *d, double **centre, double **count, size_t *cap)
{
    const size_t ncap = *cap ? 2 * *cap : 64;
    double *c = hs_realloc(*centre, ncap * sizeof *c);
    if (!c) return hs_fail(d->ctx, HS_ENOMEM, "delay empirical: out of memory");
    *centre = c;
    double *w = hs_realloc(*count, ncap * sizeof *w);
    if (!w) return hs_fail(d->ctx, HS_ENOMEM, "delay empirical: out of memory");
    *count = w;
    *cap = ncap;
    return 0;
}

/* Reads the rows; *n rows in centre[], count[]. */
static int read_rows(hs_delay_dist *d, const char *path, FILE *f, double **centre, double **count,
                     size_t *n)
{
    size_t cap = 0;
    char line[1024];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        const size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n' && !feof(f))
            return hs_fail(d->ctx, HS_EINPUT, "%s:%d: line longer than %zu characters", path,
                           lineno, sizeof line - 2);
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        const char *p = line;
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
        if (*p == '\0') continue;
        double x = 0.0, w = 0.0;
        hs_num_status st = read_number(&p, &x);
        if (st == HS_NUM_OK) st = read_number(&p, &w);
        if (st != HS_NUM_OK && st != HS_NUM_NOT_A_NUMBER)
            return hs_fail(d->ctx, HS_EINPUT, "%s:%d: a number %s", path, lineno,
                           hs_number_problem(st));
        if (st != HS_NUM_OK)
            return hs_fail(d->ctx, HS_EINPUT,
                           "%s:%d: expected two numbers: delay (s) and count or probability", path,
                           lineno);
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
        if (*p != '\0')
            return hs_fail(d->ctx, HS_EINPUT, "%s:%d: unexpected text after two numbers: '%.20s'",
                           path, lineno, p);
        if (!isfinite(x) || x < 0.0)
            return hs_fail(d->ctx, HS_EINPUT, "%s:%d: delay must be finite and >= 0 (got %g)", path,
                           lineno, x);
        if (!isfinite(w) || w < 0.0)
            return hs_fail(d->ctx, HS_EINPUT, "%s:%d: count must be finite and >= 0 (got %g)", path,
                           lineno, w);
        if (*n > 0 && !(x > (*centre)[*n - 1]))
            return hs_fail(d->ctx, HS_EINPUT,
                           "%s:%d: delays must increase from row to row (%g after %g)", path,
                           lineno, x, (*centre)[*n - 1]);
        if (*n == cap) {
            const int rc = grow(d, centre, count, &cap);
            if (rc) return rc;
        }
        (*centre)[*n] = x;
        (*count)[*n] = w;
        (*n)++;
    }
    if (ferror(f)) return hs_fail(d->ctx, HS_EIO, "%s:%d: read error", path, lineno + 1);
    if (*n < 2)
        return hs_fail(d->ctx, HS_EINPUT, "%s:%d: a histogram needs at least two rows (found %zu)",
                       path, lineno, *n);
    return 0;
}

static int build(hs_delay_dist *d, const char *path, const double *centre, const double *count,
                 size_t n)
{
    double total = 0.0;
    for (size_t i = 0; i < n; i++) total += count[i];
    if (!(total > 0.0) || !isfinite(total))
        return hs_fail(d->ctx, HS_EINPUT, "%s: the counts sum to %g; need a positive total", path,
                       total);
    histogram *h = hs_calloc(1, sizeof *h);
    if (!h) return hs_fail(d->ctx, HS_ENOMEM, "delay empirical: out of memory");
    d->data = h;
    h->n = n;
    h->edge = hs_calloc(n + 1, sizeof *h->edge);
    h->cdf = hs_calloc(n + 1, sizeof *h->cdf);
    if (!h->edge || !h->cdf) return hs_fail(d->ctx, HS_ENOMEM, "delay empirical: out of memory");
    for (size_t i = 1; i < n; i++) h->edge[i] = 0.5 * (centre[i - 1] + centre[i]);
    h->edge[0] = fmax(0.0, 2.0 * centre[0] - h->edge[1]);
    h->edge[n] = 2.0 * centre[n - 1] - h->edge[n - 1];
    double acc = 0.0;
    for (size_t i = 0; i < n; i++) {
        acc += count[i];
        h->cdf[i + 1] = acc / total;
    }
    h->cdf[n] = 1.0;
    return 0;
}

int hs_delay_empirical_load(hs_delay_dist *d, const char *path)
{
    d->ops.sample = empirical_sample;
    d->ops.survival = empirical_survival;
    d->ops.mean = empirical_mean;
    d->ops.destroy = empirical_destroy;
    if (!path || !*path) return hs_fail(d->ctx, HS_EINPUT, "delay empirical: no file given");
    FILE *f = NULL;
    const int opened = hs_fopen_regular(d->ctx, path, &f, NULL);
    if (opened) return opened;
    double *centre = NULL, *count = NULL;
    size_t n = 0;
    int rc = read_rows(d, path, f, &centre, &count, &n);
    fclose(f);
    if (!rc) rc = build(d, path, centre, count, n);
    hs_free(centre);
    hs_free(count);
    return rc;
}

int hs_delay_create_empirical(hs_delay_dist *d, const hs_options *opts)
{
    return hs_delay_empirical_load(d, hs_options_str(opts, "file", NULL));
}
