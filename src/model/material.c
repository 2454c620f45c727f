/* The uniaxial material object: creation through the registry, trial/commit/revert. */
#include "material_impl.h"

#include <string.h>

hs_material_ctor hs_material_registry_ctor(const char *name);

int hs_material_create(hs_ctx *ctx, const char *type, const hs_options *opts, hs_material **out)
{
    if (!out || !type) return hs_fail(ctx, HS_EINVAL, "material: no type given");
    const hs_material_entry *e = hs_material_registry_find(type);
    hs_material_ctor ctor = hs_material_registry_ctor(type);
    if (!e || !ctor) return hs_fail(ctx, HS_ENOTFOUND, "material: unknown type '%s'", type);
    for (const hs_param_spec *p = e->params; p && p->name; p++)
        if (p->required && !hs_options_has(opts, p->name))
            return hs_fail(ctx, HS_EINPUT, "material %s: missing parameter '%s'", type, p->name);
    hs_material *m = hs_calloc(1, sizeof *m);
    if (!m) return HS_ENOMEM;
    m->ctx = ctx;
    m->type = e->name;
    int rc = ctor(m, opts);
    if (rc) {
        hs_material_destroy(&m);
        return rc;
    }
    /* Start from the virgin state with a consistent trial. */
    rc = hs_material_set_trial(m, 0.0, 0.0);
    if (rc) {
        hs_material_destroy(&m);
        return rc;
    }
    *out = m;
    return 0;
}

void hs_material_destroy(hs_material **m)
{
    if (!m || !*m) return;
    if ((*m)->ops.destroy) (*m)->ops.destroy(*m);
    hs_free(*m);
    *m = NULL;
}

int hs_material_set_trial(hs_material *m, double strain, double strain_rate)
{
    m->strain = strain;
    m->strain_rate = strain_rate;
    return m->ops.set_trial(m, strain, strain_rate);
}

int hs_material_set_trial_transverse(hs_material *m, double strain, double strain_rate,
                                     double transverse_strain)
{
    if (!m->ops.set_trial_transverse) return hs_material_set_trial(m, strain, strain_rate);
    m->strain = strain;
    m->strain_rate = strain_rate;
    return m->ops.set_trial_transverse(m, strain, strain_rate, transverse_strain);
}

int hs_material_has_transverse(const hs_material *m)
{
    return m->ops.set_trial_transverse != NULL;
}

double hs_material_stress(const hs_material *m)
{
    return m->stress;
}
double hs_material_strain_rate(const hs_material *m)
{
    return m->strain_rate;
}
double hs_material_tangent(const hs_material *m)
{
    return m->tangent;
}
double hs_material_rate_tangent(const hs_material *m)
{
    return m->rate_tangent;
}
double hs_material_strain(const hs_material *m)
{
    return m->strain;
}
double hs_material_initial_tangent(const hs_material *m)
{
    return m->ops.initial_tangent(m);
}
int hs_material_commit(hs_material *m)
{
    return m->ops.commit ? m->ops.commit(m) : 0;
}
int hs_material_revert(hs_material *m)
{
    return m->ops.revert ? m->ops.revert(m) : 0;
}
int hs_material_reset(hs_material *m)
{
    int rc = m->ops.reset ? m->ops.reset(m) : 0;
    return rc ? rc : hs_material_set_trial(m, 0.0, 0.0);
}
const char *hs_material_type(const hs_material *m)
{
    return m->type;
}
int hs_material_is_rate_dependent(const hs_material *m)
{
    return m->rate_dependent;
}
int hs_material_is_linear(const hs_material *m)
{
    return m->linear;
}

int hs_material_fiber_law(const hs_material *m, hs_fiber_law *law, double *state)
{
    return m->ops.fiber_law ? m->ops.fiber_law(m, law, state) : 0;
}

size_t hs_material_state_size(const hs_material *m)
{
    return m->ops.state_size ? m->ops.state_size(m) : 0;
}
int hs_material_state_save(const hs_material *m, double *out)
{
    return m->ops.state_save ? m->ops.state_save(m, out) : 0;
}
int hs_material_state_load(hs_material *m, const double *in)
{
    int rc = m->ops.state_load ? m->ops.state_load(m, in) : 0;
    return rc ? rc : hs_material_set_trial(m, m->strain, m->strain_rate);
}
