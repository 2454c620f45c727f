/* The specimen object: creation through the registry, trial/commit, state, the shared helpers. */
#include "specimen_impl.h"

#include "hysim/material.h"

#include <string.h>

int hs_specimen_shell(hs_ctx *ctx, const char *type, int n, hs_specimen **out)
{
    if (n < 1) return hs_fail(ctx, HS_EINPUT, "specimen %s: n_act must be >= 1 (got %d)", type, n);
    hs_specimen *s = hs_calloc(1, sizeof *s);
    if (!s) return hs_fail(ctx, HS_ENOMEM, "specimen: out of memory");
    s->ctx = ctx;
    s->type = type;
    s->n = n;
    s->x = hs_dvec((size_t)n);
    s->x_c = hs_dvec((size_t)n);
    s->force = hs_dvec((size_t)n);
    if (!s->x || !s->x_c || !s->force) {
        hs_specimen_destroy(&s);
        return hs_fail(ctx, HS_ENOMEM, "specimen: out of memory");
    }
    *out = s;
    return 0;
}

int hs_specimen_create(hs_ctx *ctx, const char *type, int n_act, const hs_options *opts,
                       hs_specimen **out)
{
    if (!out || !type) return hs_fail(ctx, HS_EINVAL, "specimen: no type given");
    const hs_specimen_entry *e = hs_specimen_registry_find(type);
    hs_specimen_ctor ctor = hs_specimen_registry_ctor(type);
    if (!e || !ctor) return hs_fail(ctx, HS_ENOTFOUND, "specimen: unknown type '%s'", type);
    for (const hs_param_spec *p = e->params; p && p->name; p++)
        if (p->required && !hs_options_has(opts, p->name))
            return hs_fail(ctx, HS_EINPUT, "specimen %s: missing parameter '%s'", type, p->name);
    hs_specimen *s = NULL;
    int rc = hs_specimen_shell(ctx, e->name, n_act, &s);
    if (rc) return rc;
    rc = ctor(s, opts);
    if (!rc) rc = hs_specimen_set_trial(s, 0.0, s->x);
    if (rc) {
        hs_specimen_destroy(&s);
        return rc;
    }
    *out = s;
    return 0;
}

void hs_specimen_destroy(hs_specimen **s)
{
    if (!s || !*s) return;
    if ((*s)->ops.destroy) (*s)->ops.destroy(*s);
    hs_free((*s)->x);
    hs_free((*s)->x_c);
    hs_free((*s)->force);
    hs_free(*s);
    *s = NULL;
}

int hs_specimen_set_trial(hs_specimen *s, double t, const double *x)
{
    if (!(t >= s->t_c))
        return hs_fail(s->ctx, HS_EINVAL, "specimen %s: trial time %g before the committed %g",
                       s->type, t, s->t_c);
    s->t = t;
    if (x != s->x) memcpy(s->x, x, (size_t)s->n * sizeof(double));
    return s->ops.set_trial(s, t - s->t_c);
}

const double *hs_specimen_force(const hs_specimen *s)
{
    return s->force;
}

int hs_specimen_commit(hs_specimen *s)
{
    int rc = s->ops.commit ? s->ops.commit(s) : 0;
    if (rc) return rc;
    s->t_c = s->t;
    memcpy(s->x_c, s->x, (size_t)s->n * sizeof(double));
    return 0;
}

int hs_specimen_n_act(const hs_specimen *s)
{
    return s->n;
}
const char *hs_specimen_type(const hs_specimen *s)
{
    return s->type;
}
hs_specimen *hs_specimen_inner(hs_specimen *s)
{
    return s->inner;
}

const double *hs_specimen_actuator_position(const hs_specimen *s)
{
    while (s->inner) s = s->inner;
    return s->ops.position ? s->ops.position(s) : NULL;
}

int hs_specimen_set_input(hs_specimen *s, int channel, double value)
{
    if (channel < 0 || channel >= s->n)
        return hs_fail(s->ctx, HS_EINVAL, "specimen %s: no channel %d", s->type, channel);
    if (!s->ops.set_input)
        return hs_fail(s->ctx, HS_EUNSUPPORTED, "specimen %s: has no command input", s->type);
    return s->ops.set_input(s, channel, value);
}

int hs_specimen_initial_stiffness(const hs_specimen *s, double *K)
{
    if (!s->ops.initial_stiffness)
        return hs_fail(s->ctx, HS_EUNSUPPORTED, "specimen %s: no initial stiffness", s->type);
    return s->ops.initial_stiffness(s, K);
}

/* layout: t_c, x_c[n], model state */
size_t hs_specimen_state_size(const hs_specimen *s)
{
    return 1 + (size_t)s->n + (s->ops.state_size ? s->ops.state_size(s) : 0);
}

int hs_specimen_state_save(const hs_specimen *s, double *out)
{
    out[0] = s->t_c;
    memcpy(out + 1, s->x_c, (size_t)s->n * sizeof(double));
    return s->ops.state_save ? s->ops.state_save(s, out + 1 + s->n) : 0;
}

int hs_specimen_state_load(hs_specimen *s, const double *in)
{
    s->t_c = in[0];
    memcpy(s->x_c, in + 1, (size_t)s->n * sizeof(double));
    int rc = s->ops.state_load ? s->ops.state_load(s, in + 1 + s->n) : 0;
    return rc ? rc : hs_specimen_set_trial(s, s->t_c, s->x_c);
}

int hs_specimen_param_at(hs_ctx *ctx, const hs_options *opts, const char *where, const char *key,
                         size_t count, size_t i, double *value)
{
    const double *v = NULL;
    size_t m = hs_options_list(opts, key, &v);
    if (m) {
        if (m == count) {
            *value = v[i];
            return 0;
        }
        if (m == 1) {
            *value = v[0];
            return 0;
        }
        return hs_fail(ctx, HS_EINPUT, "specimen %s: '%s' has %zu values, expected 1 or %zu", where,
                       key, m, count);
    }
    if (!hs_options_has(opts, key))
        return hs_fail(ctx, HS_EINPUT, "specimen %s: missing parameter '%s'", where, key);
    *value = hs_options_num(opts, key, 0.0);
    return 0;
}

int hs_specimen_material_options(hs_ctx *ctx, const hs_options *opts, const char *where,
                                 size_t count, size_t i, hs_options **out)
{
    const char *type = hs_options_str(opts, "material", NULL);
    const hs_material_entry *e = type ? hs_material_registry_find(type) : NULL;
    if (!e)
        return hs_fail(ctx, HS_EINPUT, "specimen %s: unknown or missing material type '%s'", where,
                       type ? type : "");
    hs_options *o = NULL;
    if (hs_options_create(&o)) return hs_fail(ctx, HS_ENOMEM, "specimen: out of memory");
    int rc = 0;
    for (const hs_param_spec *p = e->params; p && p->name && !rc; p++) {
        if (!hs_options_has(opts, p->name)) continue; /* the material reports missing ones */
        if (p->kind == HS_PARAM_STR) {
            rc = hs_options_set_str(o, p->name, hs_options_str(opts, p->name, ""));
        } else if (p->kind == HS_PARAM_LIST) {
            const double *v = NULL;
            size_t m = hs_options_list(opts, p->name, &v);
            rc = hs_options_set_list(o, p->name, v, m);
        } else {
            double v = 0.0;
            rc = hs_specimen_param_at(ctx, opts, where, p->name, count, i, &v);
            if (!rc) rc = hs_options_set_num(o, p->name, v);
        }
    }
    if (rc) {
        hs_options_destroy(&o);
        return rc;
    }
    *out = o;
    return 0;
}
