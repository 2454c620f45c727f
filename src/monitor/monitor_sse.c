/* Server-sent events of the monitor (include/hysim/monitor.h): one event per sample, its data one
 * line of JSON. Numbers are written with %.9g (the page plots, it does not recompute), a number
 * that is not finite as null; names are escaped per RFC 8259. */
#include "hysim/monitor.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct hs_sse_buf {
    char *p;
    size_t size, len;
    int full;
} hs_sse_buf;

static void put(hs_sse_buf *b, const char *fmt, ...) HS_PRINTF(2, 3);
static void put(hs_sse_buf *b, const char *fmt, ...)
{
    if (b->full) return;
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(b->p + b->len, b->size - b->len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= b->size - b->len)
        b->full = 1;
    else
        b->len += (size_t)n;
}

static void put_num(hs_sse_buf *b, double x)
{
    if (isfinite(x))
        put(b, "%.9g", x);
    else
        put(b, "null");
}

static void put_nums(hs_sse_buf *b, const char *key, const double *x, int n)
{
    put(b, ",\"%s\":[", key);
    for (int i = 0; i < n; i++) {
        if (i) put(b, ",");
        put_num(b, x[i]);
    }
    put(b, "]");
}

static void put_str(hs_sse_buf *b, const char *s)
{
    put(b, "\"");
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            put(b, "\\%c", *c);
        else if (*c < 0x20)
            put(b, "\\u%04x", *c);
        else
            put(b, "%c", *c);
    }
    put(b, "\"");
}

static int clampn(int n, int max)
{
    return n < 0 ? 0 : n > max ? max : n;
}

static int done(const hs_sse_buf *b)
{
    return b->full ? -1 : (int)b->len;
}

int hs_monitor_sse_sample(const hs_monitor_sample *s, unsigned long long seq,
                          unsigned long long dropped, char *buf, size_t size)
{
    hs_sse_buf b = {buf, size, 0, size == 0};
    const int nd = clampn(s->ndof, HS_MON_MAX_DOF), na = clampn(s->nact, HS_MON_MAX_ACT),
              ns = clampn(s->nsites, HS_MON_MAX_SITES);
    put(&b, "id: %llu\nevent: sample\ndata: {\"step\":%lld,\"steps\":%lld,\"t\":", seq,
        (long long)s->step, (long long)s->steps);
    put_num(&b, s->t);
    put(&b, ",\"wall\":");
    put_num(&b, s->wall);
    put_nums(&b, "d", s->d, nd);
    put_nums(&b, "xc", s->x_cmd, na);
    put_nums(&b, "xm", s->x_meas, na);
    put_nums(&b, "fm", s->f_meas, na);
    put_nums(&b, "lim", s->limit_use, na);
    put(&b, ",\"states\":[");
    for (int i = 0; i < ns; i++) put(&b, "%s%d", i ? "," : "", s->site_states[i]);
    put(&b, "]");
    put_nums(&b, "delay", s->site_delay, ns);
    put(&b, ",\"eerr\":");
    put_num(&b, s->energy_error);
    put(&b, ",\"paused\":%d,\"paused_s\":", s->paused ? 1 : 0);
    put_num(&b, s->paused_s);
    put(&b, ",\"hold_left\":");
    put_num(&b, s->hold_left);
    put(&b, ",\"holds\":[");
    for (int i = 0; i < ns; i++) put(&b, "%s%d", i ? "," : "", s->site_hold[i]);
    put(&b, "]");
    put_nums(&b, "holds_left", s->site_hold_left, ns);
    put(&b, ",\"dropped\":%llu}\n\n", dropped);
    return done(&b);
}

/* ,"KEY":[...] of n names, each `stride` bytes after the last */
static void put_names(hs_sse_buf *b, const char *key, const char *names, size_t stride, int n)
{
    put(b, ",\"%s\":[", key);
    for (int i = 0; i < n; i++) {
        if (i) put(b, ",");
        put_str(b, names + (size_t)i * stride);
    }
    put(b, "]");
}

int hs_monitor_sse_layout(const hs_monitor_layout *l, char *buf, size_t size)
{
    hs_sse_buf b = {buf, size, 0, size == 0};
    put(&b, "event: layout\ndata: {\"title\":");
    put_str(&b, l->title);
    put(&b, ",\"role\":");
    put_str(&b, l->role);
    put(&b, ",\"units\":{\"length\":");
    put_str(&b, l->units_length);
    put(&b, ",\"force\":");
    put_str(&b, l->units_force);
    put(&b, ",\"time\":");
    put_str(&b, l->units_time);
    put(&b, "},\"ndof\":%d", clampn(l->ndof, HS_MON_MAX_DOF));
    put_names(&b, "actuators", l->act_names[0], HS_MON_NAME, clampn(l->nact, HS_MON_MAX_ACT));
    put_names(&b, "sites", l->site_names[0], HS_MON_NAME, clampn(l->nsites, HS_MON_MAX_SITES));
    if (l->dof_names[0][0]) /* the model's names of the DOFs (the page says d1.. without) */
        put_names(&b, "dofs", l->dof_names[0], HS_MON_DOF_NAME, clampn(l->ndof, HS_MON_MAX_DOF));
    put(&b, "}\n\n");
    return done(&b);
}

int hs_monitor_sse_end(const char *status, const char *reason, char *buf, size_t size)
{
    hs_sse_buf b = {buf, size, 0, size == 0};
    put(&b, "event: end\ndata: {\"status\":");
    put_str(&b, status ? status : "");
    put(&b, ",\"reason\":");
    put_str(&b, reason ? reason : "");
    put(&b, "}\n\n");
    return done(&b);
}
