/* Linear elastic spring: stress = k strain (Eneg k' for strain < 0 when given, as OpenSees'
 * Elastic with Eneg), plus eta times the strain rate (OpenSees' Elastic with eta,
 * SRC/material/uniaxial/ElasticMaterial.cpp, read for facts: the tangent is k for strain >= 0,
 * Eneg below; the initial tangent is k). With eta != 0 the material is rate-dependent (its work,
 * elastic part included, counts as damping energy; the elastic part's work vanishes over a closed
 * cycle); with Eneg != k it is not linear. */
#include "material_impl.h"

#include <math.h>

const hs_param_spec hs_material_elastic_params[] = {
    {"k", HS_PARAM_NUM, 1, "stiffness (force/length) for strain >= 0"},
    {"eta", HS_PARAM_NUM, 0, "damping: force per unit strain rate, >= 0 (default 0)"},
    {"Eneg", HS_PARAM_NUM, 0, "stiffness for strain < 0, >= 0 (default k)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

typedef struct elastic {
    double k, eta, kneg;
} elastic;

static int elastic_set_trial(hs_material *m, double strain, double strain_rate)
{
    const elastic *e = m->data;
    m->tangent = strain >= 0.0 ? e->k : e->kneg;
    m->stress = m->tangent * strain + e->eta * strain_rate;
    m->rate_tangent = e->eta;
    return 0;
}

static double elastic_initial_tangent(const hs_material *m)
{
    return ((const elastic *)m->data)->k;
}

static void elastic_destroy(hs_material *m)
{
    hs_free(m->data);
}

int hs_material_create_elastic(hs_material *m, const hs_options *opts)
{
    elastic *e = hs_calloc(1, sizeof *e);
    if (!e) return HS_ENOMEM;
    e->k = hs_options_num(opts, "k", 0.0);
    e->eta = hs_options_num(opts, "eta", 0.0);
    e->kneg = hs_options_num(opts, "Eneg", e->k);
    m->data = e;
    m->linear = e->eta == 0.0 && e->kneg == e->k;
    m->rate_dependent = e->eta != 0.0;
    m->ops.set_trial = elastic_set_trial;
    m->ops.initial_tangent = elastic_initial_tangent;
    m->ops.destroy = elastic_destroy;
    if (!(e->k >= 0.0 && isfinite(e->k)))
        return hs_fail(m->ctx, HS_EINPUT, "elastic: k must be >= 0 (got %g)", e->k);
    if (!(e->eta >= 0.0 && isfinite(e->eta)))
        return hs_fail(m->ctx, HS_EINPUT, "elastic: eta must be >= 0 (got %g)", e->eta);
    if (!(e->kneg >= 0.0 && isfinite(e->kneg)))
        return hs_fail(m->ctx, HS_EINPUT, "elastic: Eneg must be >= 0 (got %g)", e->kneg);
    return 0;
}
