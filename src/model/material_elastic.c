/* Linear elastic spring: stress = k strain. */
#include "material_impl.h"

const hs_param_spec hs_material_elastic_params[] = {
    {"k", HS_PARAM_NUM, 1, "stiffness (force/length)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

typedef struct elastic {
    double k;
} elastic;

static int elastic_set_trial(hs_material *m, double strain, double strain_rate)
{
    (void)strain_rate;
    const elastic *e = m->data;
    m->stress = e->k * strain;
    m->tangent = e->k;
    m->rate_tangent = 0.0;
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
    m->data = e;
    m->linear = 1;
    m->ops.set_trial = elastic_set_trial;
    m->ops.initial_tangent = elastic_initial_tangent;
    m->ops.destroy = elastic_destroy;
    if (!(e->k >= 0.0)) return hs_fail(m->ctx, HS_EINPUT, "elastic: k must be >= 0 (got %g)", e->k);
    return 0;
}
