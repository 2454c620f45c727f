/* Horiuchi et al. (1999) polynomial extrapolation: the cubic through the last four equally spaced
 * desired commands x_t(k), x_t(k-1), x_t(k-2), x_t(k-3), evaluated r samples ahead:
 * x_c = (r+1)(r+2)(r+3)/6 x_t(k) - r(r+2)(r+3)/2 x_t(k-1) + r(r+1)(r+3)/2 x_t(k-2)
 *       - r(r+1)(r+2)/6 x_t(k-3)                             (ALGORITHMS.md; Lagrange weights). */
#include "compensator_impl.h"

#include <math.h>

const hs_param_spec hs_compensator_polynomial_params[] = {
    {"delay", HS_PARAM_NUM, 0, "extrapolation lead r in controller samples (>= 0)"},
    {"delay_s", HS_PARAM_NUM, 0, "the same lead in seconds (r = delay_s * rate); give one"},
    {NULL, HS_PARAM_NUM, 0, NULL}};

typedef struct {
    double r;    /* lead in samples */
    double w[4]; /* weights of x_t(k), x_t(k-1), x_t(k-2), x_t(k-3) */
    double x[3]; /* state: x_t(k-1), x_t(k-2), x_t(k-3) */
} poly_data;

static double poly_tick(hs_compensator *c, double x_desired, double x_measured)
{
    (void)x_measured;
    poly_data *d = c->data;
    const double xc =
        d->w[0] * x_desired + d->w[1] * d->x[0] + d->w[2] * d->x[1] + d->w[3] * d->x[2];
    d->x[2] = d->x[1];
    d->x[1] = d->x[0];
    d->x[0] = x_desired;
    return xc;
}

static void poly_reset(hs_compensator *c, double x0)
{
    poly_data *d = c->data;
    d->x[0] = d->x[1] = d->x[2] = x0;
}

static double poly_a_es(const hs_compensator *c)
{
    return 1.0 + ((const poly_data *)c->data)->r;
}

static size_t poly_state_size(const hs_compensator *c)
{
    (void)c;
    return 3;
}

static int poly_state_save(const hs_compensator *c, double *out)
{
    const poly_data *d = c->data;
    for (int i = 0; i < 3; i++) out[i] = d->x[i];
    return 0;
}

static int poly_state_load(hs_compensator *c, const double *in)
{
    poly_data *d = c->data;
    for (int i = 0; i < 3; i++) d->x[i] = in[i];
    return 0;
}

int hs_compensator_create_polynomial(hs_compensator *c, const hs_options *opts)
{
    const int has_n = hs_options_has(opts, "delay"), has_s = hs_options_has(opts, "delay_s");
    if (has_n == has_s)
        return hs_fail(c->ctx, HS_EINPUT,
                       "compensator polynomial: give the lead as either 'delay' (samples) or "
                       "'delay_s' (seconds)%s",
                       has_n ? ", not both" : "");
    const double r =
        has_n ? hs_options_num(opts, "delay", 0.0) : hs_options_num(opts, "delay_s", 0.0) * c->rate;
    if (!(r >= 0.0 && isfinite(r)))
        return hs_fail(c->ctx, HS_EINPUT,
                       "compensator polynomial: the lead must be >= 0 (got %g samples)", r);
    poly_data *d = hs_calloc(1, sizeof *d);
    if (!d) return hs_fail(c->ctx, HS_ENOMEM, "compensator polynomial: out of memory");
    c->data = d;
    d->r = r;
    d->w[0] = (r + 1.0) * (r + 2.0) * (r + 3.0) / 6.0;
    d->w[1] = -r * (r + 2.0) * (r + 3.0) / 2.0;
    d->w[2] = r * (r + 1.0) * (r + 3.0) / 2.0;
    d->w[3] = -r * (r + 1.0) * (r + 2.0) / 6.0;
    c->ops.tick = poly_tick;
    c->ops.reset = poly_reset;
    c->ops.a_es = poly_a_es;
    c->ops.state_size = poly_state_size;
    c->ops.state_save = poly_state_save;
    c->ops.state_load = poly_state_load;
    return 0;
}
