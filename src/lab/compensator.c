/* The compensator object: creation through the registry, the tick, reset, state. */
#include "compensator_impl.h"

#include <math.h>

int hs_compensator_create(hs_ctx *ctx, const char *type, const hs_options *opts, double rate,
                          hs_compensator **out)
{
    if (!out || !type) return hs_fail(ctx, HS_EINVAL, "compensator: no type given");
    const hs_compensator_entry *e = hs_compensator_registry_find(type);
    hs_compensator_ctor ctor = hs_compensator_registry_ctor(type);
    if (!e || !ctor) return hs_fail(ctx, HS_ENOTFOUND, "compensator: unknown type '%s'", type);
    if (!(rate > 0.0 && isfinite(rate)))
        return hs_fail(ctx, HS_EINPUT, "compensator %s: controller rate must be > 0 Hz (got %g)",
                       type, rate);
    for (const hs_param_spec *p = e->params; p && p->name; p++)
        if (p->required && !hs_options_has(opts, p->name))
            return hs_fail(ctx, HS_EINPUT, "compensator %s: missing parameter '%s'", type, p->name);
    hs_compensator *c = hs_calloc(1, sizeof *c);
    if (!c) return hs_fail(ctx, HS_ENOMEM, "compensator %s: out of memory", type);
    c->ctx = ctx;
    c->type = e->name;
    c->rate = rate;
    c->h = 1.0 / rate;
    int rc = ctor(c, opts);
    if (rc) {
        hs_compensator_destroy(&c);
        return rc;
    }
    c->ops.reset(c, 0.0);
    *out = c;
    return 0;
}

void hs_compensator_destroy(hs_compensator **c)
{
    if (!c || !*c) return;
    if ((*c)->ops.destroy) (*c)->ops.destroy(*c);
    hs_free((*c)->data);
    hs_free(*c);
    *c = NULL;
}

double hs_compensator_tick(hs_compensator *c, double x_desired, double x_measured)
{
    return c->ops.tick(c, x_desired, x_measured);
}

double hs_compensator_tick_force(hs_compensator *c, double x_desired, double x_measured,
                                 double f_measured)
{
    c->f_measured = f_measured;
    return c->ops.tick(c, x_desired, x_measured);
}

void hs_compensator_reset(hs_compensator *c, double x0)
{
    c->ops.reset(c, x0);
}

double hs_compensator_a_es(const hs_compensator *c)
{
    return c->ops.a_es(c);
}

double hs_compensator_delta_a(const hs_compensator *c)
{
    return c->ops.delta_a ? c->ops.delta_a(c) : 0.0;
}

double hs_compensator_ti(const hs_compensator *c)
{
    return c->ops.ti ? c->ops.ti(c) : 0.0;
}

const char *hs_compensator_type(const hs_compensator *c)
{
    return c->type;
}

double hs_compensator_rate(const hs_compensator *c)
{
    return c->rate;
}

size_t hs_compensator_state_size(const hs_compensator *c)
{
    return c->ops.state_size(c);
}

int hs_compensator_state_save(const hs_compensator *c, double *out)
{
    return c->ops.state_save(c, out);
}

int hs_compensator_state_load(hs_compensator *c, const double *in)
{
    return c->ops.state_load(c, in);
}
