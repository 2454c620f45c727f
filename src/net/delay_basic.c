/* Constant and uniform delays. */
#include "delay_dist_impl.h"

#include <math.h>

const hs_param_spec hs_delay_constant_params[] = {
    {"value", HS_PARAM_NUM, 1, "the delay (s)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};
const hs_param_spec hs_delay_uniform_params[] = {
    {"min", HS_PARAM_NUM, 1, "shortest delay (s)"},
    {"max", HS_PARAM_NUM, 1, "longest delay (s)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

static double constant_sample(const hs_delay_dist *d, hs_rng *rng)
{
    (void)rng;
    return d->p[0];
}
static double constant_survival(const hs_delay_dist *d, double x)
{
    return x < d->p[0] ? 1.0 : 0.0;
}
static double constant_mean(const hs_delay_dist *d)
{
    return d->p[0];
}

int hs_delay_create_constant(hs_delay_dist *d, const hs_options *opts)
{
    d->p[0] = hs_options_num(opts, "value", NAN);
    d->ops.sample = constant_sample;
    d->ops.survival = constant_survival;
    d->ops.mean = constant_mean;
    if (!(d->p[0] >= 0.0) || !isfinite(d->p[0]))
        return hs_fail(d->ctx, HS_EINPUT, "delay constant: value must be finite and >= 0 (got %g)",
                       d->p[0]);
    return 0;
}

/* p[0] = min, p[1] = max */
static double uniform_sample(const hs_delay_dist *d, hs_rng *rng)
{
    return d->p[0] + (d->p[1] - d->p[0]) * hs_rng_uniform(rng);
}
static double uniform_survival(const hs_delay_dist *d, double x)
{
    if (x < d->p[0]) return 1.0;
    if (x >= d->p[1]) return 0.0;
    return (d->p[1] - x) / (d->p[1] - d->p[0]);
}
static double uniform_mean(const hs_delay_dist *d)
{
    return 0.5 * (d->p[0] + d->p[1]);
}

int hs_delay_create_uniform(hs_delay_dist *d, const hs_options *opts)
{
    d->p[0] = hs_options_num(opts, "min", NAN);
    d->p[1] = hs_options_num(opts, "max", NAN);
    d->ops.sample = uniform_sample;
    d->ops.survival = uniform_survival;
    d->ops.mean = uniform_mean;
    if (!(d->p[0] >= 0.0) || !(d->p[1] >= d->p[0]) || !isfinite(d->p[1]))
        return hs_fail(d->ctx, HS_EINPUT,
                       "delay uniform: need finite 0 <= min <= max (got min %g, max %g)", d->p[0],
                       d->p[1]);
    return 0;
}
