/* Actuator tracking metrics (Chen & Ricles 2010, eq. 3, 4a, 4b): MTE, RMS in percent, the tracking
 * indicator TI (signed area of the synchronized subspace plot) and its peak, with optional series.
 */
#include "hysim/tracking.h"

#include <math.h>
#include <string.h>

/* Scalars of the state, in this order. */
enum {
    TR_COUNT,
    TR_SUM_E2,
    TR_SUM_C2,
    TR_MTE,
    TR_A,
    TR_TA,
    TR_PEAK,
    TR_C_LAST,
    TR_M_LAST,
    TR_NSTATE
};

struct hs_tracking {
    hs_ctx *ctx;
    double s[TR_NSTATE];
    size_t capacity, stride;
    double *series; /* 4 * capacity: command, measured, error, TI */
};

int hs_tracking_create(hs_ctx *ctx, size_t capacity, size_t stride, hs_tracking **out)
{
    if (!out) return hs_fail(ctx, HS_EINVAL, "tracking: no output pointer");
    hs_tracking *t = hs_calloc(1, sizeof *t);
    if (!t) return hs_fail(ctx, HS_ENOMEM, "tracking: out of memory");
    t->ctx = ctx;
    t->capacity = capacity;
    t->stride = stride ? stride : 1;
    if (capacity) {
        t->series = hs_dvec(4 * capacity);
        if (!t->series) {
            hs_free(t);
            return hs_fail(ctx, HS_ENOMEM, "tracking: out of memory for %zu series samples",
                           capacity);
        }
    }
    *out = t;
    return 0;
}

void hs_tracking_destroy(hs_tracking **t)
{
    if (!t || !*t) return;
    hs_free((*t)->series);
    hs_free(*t);
    *t = NULL;
}

void hs_tracking_reset(hs_tracking *t)
{
    memset(t->s, 0, sizeof t->s);
    if (t->series) memset(t->series, 0, 4 * t->capacity * sizeof(double));
}

static double ti_of(const hs_tracking *t)
{
    return 0.5 * (t->s[TR_A] - t->s[TR_TA]); /* eq. 3a */
}

void hs_tracking_add(hs_tracking *t, double c, double m)
{
    double *s = t->s;
    const size_t k = (size_t)s[TR_COUNT];
    if (k > 0) {
        const double c0 = s[TR_C_LAST], m0 = s[TR_M_LAST];
        s[TR_A] += 0.5 * (c + c0) * (m - m0);  /* eq. 3b */
        s[TR_TA] += 0.5 * (m + m0) * (c - c0); /* eq. 3c */
    }
    const double e = c - m, ti = ti_of(t);
    s[TR_SUM_E2] += e * e;
    s[TR_SUM_C2] += c * c;
    if (fabs(e) > s[TR_MTE]) s[TR_MTE] = fabs(e); /* eq. 4a */
    if (fabs(ti) > fabs(s[TR_PEAK])) s[TR_PEAK] = ti;
    s[TR_C_LAST] = c;
    s[TR_M_LAST] = m;
    s[TR_COUNT] = (double)(k + 1);
    if (k % t->stride == 0) {
        const size_t j = k / t->stride;
        if (j < t->capacity) {
            t->series[j] = c;
            t->series[t->capacity + j] = m;
            t->series[2 * t->capacity + j] = e;
            t->series[3 * t->capacity + j] = ti;
        }
    }
}

size_t hs_tracking_count(const hs_tracking *t)
{
    return (size_t)t->s[TR_COUNT];
}

double hs_tracking_mte(const hs_tracking *t)
{
    return t->s[TR_MTE];
}

double hs_tracking_rms(const hs_tracking *t)
{
    if (t->s[TR_SUM_E2] == 0.0) return 0.0;
    if (t->s[TR_SUM_C2] == 0.0) return NAN;
    return 100.0 * sqrt(t->s[TR_SUM_E2] / t->s[TR_SUM_C2]); /* eq. 4b */
}

double hs_tracking_ti(const hs_tracking *t)
{
    return ti_of(t);
}

double hs_tracking_ti_peak(const hs_tracking *t)
{
    return t->s[TR_PEAK];
}

double hs_tracking_error(const hs_tracking *t)
{
    return t->s[TR_C_LAST] - t->s[TR_M_LAST];
}

size_t hs_tracking_series(const hs_tracking *t, const double **command, const double **measured,
                          const double **error, const double **ti)
{
    const size_t k = hs_tracking_count(t);
    size_t n = k ? (k - 1) / t->stride + 1 : 0;
    if (n > t->capacity) n = t->capacity;
    const double *b = t->series;
    if (command) *command = b;
    if (measured) *measured = b ? b + t->capacity : NULL;
    if (error) *error = b ? b + 2 * t->capacity : NULL;
    if (ti) *ti = b ? b + 3 * t->capacity : NULL;
    return n;
}

size_t hs_tracking_stride(const hs_tracking *t)
{
    return t->stride;
}

size_t hs_tracking_state_size(const hs_tracking *t)
{
    (void)t;
    return TR_NSTATE;
}

int hs_tracking_state_save(const hs_tracking *t, double *out)
{
    memcpy(out, t->s, sizeof t->s);
    return 0;
}

int hs_tracking_state_load(hs_tracking *t, const double *in)
{
    const double k = in[TR_COUNT];
    if (!(k >= 0.0 && k < 9.007199254740992e15 && k == floor(k)))
        return hs_fail(t->ctx, HS_EINPUT, "tracking: state holds a bad sample count (%g)", k);
    memcpy(t->s, in, sizeof t->s);
    return 0;
}
