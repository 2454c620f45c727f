/* The delay distribution object: creation through the registry, sampling, survival, mean. */
#include "delay_dist_impl.h"

int hs_delay_dist_create(hs_ctx *ctx, const char *type, const hs_options *opts, hs_delay_dist **out)
{
    if (!out || !type) return hs_fail(ctx, HS_EINVAL, "delay: no distribution type given");
    *out = NULL;
    const hs_delay_dist_entry *e = hs_delay_dist_registry_find(type);
    hs_delay_dist_ctor ctor = hs_delay_dist_registry_ctor(type);
    if (!e || !ctor)
        return hs_fail(ctx, HS_ENOTFOUND,
                       "delay: unknown distribution '%s' (constant, uniform, lognormal, "
                       "empirical)",
                       type);
    for (const hs_param_spec *p = e->params; p && p->name; p++)
        if (p->required && !hs_options_has(opts, p->name))
            return hs_fail(ctx, HS_EINPUT, "delay %s: missing parameter '%s'", type, p->name);
    hs_delay_dist *d = hs_calloc(1, sizeof *d);
    if (!d) return hs_fail(ctx, HS_ENOMEM, "delay %s: out of memory", type);
    d->ctx = ctx;
    d->type = e->name;
    const int rc = ctor(d, opts);
    if (rc) {
        hs_delay_dist_destroy(&d);
        return rc;
    }
    *out = d;
    return 0;
}

int hs_delay_dist_read_histogram(hs_ctx *ctx, const char *path, hs_delay_dist **out)
{
    hs_options *o = NULL;
    int rc = hs_options_create(&o);
    if (rc) return hs_fail(ctx, rc, "delay empirical: out of memory");
    rc = hs_options_set_str(o, "file", path ? path : "");
    if (!rc) rc = hs_delay_dist_create(ctx, "empirical", o, out);
    hs_options_destroy(&o);
    return rc;
}

void hs_delay_dist_destroy(hs_delay_dist **d)
{
    if (!d || !*d) return;
    if ((*d)->ops.destroy) (*d)->ops.destroy(*d);
    hs_free(*d);
    *d = NULL;
}

const char *hs_delay_dist_type(const hs_delay_dist *d)
{
    return d->type;
}
double hs_delay_dist_sample(const hs_delay_dist *d, hs_rng *rng)
{
    return d->ops.sample(d, rng);
}
double hs_delay_dist_survival(const hs_delay_dist *d, double x)
{
    return d->ops.survival(d, x);
}
double hs_delay_dist_mean(const hs_delay_dist *d)
{
    return d->ops.mean(d);
}
