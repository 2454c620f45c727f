/* Lognormal delay: X = median exp(sigma Z), Z standard normal; ln X has mean ln(median) and
 * standard deviation sigma. P(X > x) = erfc(ln(x / median) / (sigma sqrt 2)) / 2. */
#include "delay_dist_impl.h"

#include <math.h>

const hs_param_spec hs_delay_lognormal_params[] = {
    {"median", HS_PARAM_NUM, 1, "median delay (s)"},
    {"sigma", HS_PARAM_NUM, 1, "standard deviation of the log of the delay"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

/* exp from +, -, *, / and ldexp only, so samples are the same bits on every machine (libm's exp
 * is not required to be correctly rounded). x = k ln2 + r, |r| <= ln2/2 (Cody-Waite, ln 2 in two
 * parts), exp(r) by its Taylor series to r^18 (relative remainder below 1e-19). */
static double exp_portable(double x)
{
    if (x != x) return x;
    if (x > 709.78) return HUGE_VAL;
    if (x < -745.2) return 0.0;
    const double k = nearbyint(x * 1.44269504088896338700);
    const double r = (x - k * 6.93147180369123816490e-01) - k * 1.90821492927058770002e-10;
    double e = 1.0;
    for (int j = 18; j >= 1; j--) e = 1.0 + e * r / (double)j;
    return ldexp(e, (int)k);
}

/* p[0] = median, p[1] = sigma */
static double lognormal_sample(const hs_delay_dist *d, hs_rng *rng)
{
    return d->p[0] * exp_portable(d->p[1] * hs_rng_normal(rng));
}

static double lognormal_survival(const hs_delay_dist *d, double x)
{
    if (!(x > 0.0)) return 1.0;
    if (d->p[1] == 0.0) return x < d->p[0] ? 1.0 : 0.0;
    return 0.5 * erfc(log(x / d->p[0]) / (d->p[1] * 1.41421356237309504880));
}

static double lognormal_mean(const hs_delay_dist *d)
{
    return d->p[0] * exp(0.5 * d->p[1] * d->p[1]);
}

int hs_delay_create_lognormal(hs_delay_dist *d, const hs_options *opts)
{
    d->p[0] = hs_options_num(opts, "median", NAN);
    d->p[1] = hs_options_num(opts, "sigma", NAN);
    d->ops.sample = lognormal_sample;
    d->ops.survival = lognormal_survival;
    d->ops.mean = lognormal_mean;
    if (!(d->p[0] > 0.0) || !isfinite(d->p[0]))
        return hs_fail(d->ctx, HS_EINPUT, "delay lognormal: median must be finite and > 0 (got %g)",
                       d->p[0]);
    if (!(d->p[1] >= 0.0) || !(d->p[1] <= 10.0))
        return hs_fail(d->ctx, HS_EINPUT, "delay lognormal: sigma must be in [0, 10] (got %g)",
                       d->p[1]);
    return 0;
}
