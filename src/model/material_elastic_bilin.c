/* OpenSees' ElasticBilin: a nonlinear elastic spring with a bilinear backbone on each side, no
 * hysteresis (the same path loading and unloading). Facts from OpenSees 3.8
 * (SRC/material/uniaxial/ElasticBilin.cpp, read for facts):
 * - For e >= 0: stress E1p e below eps2p, E1p eps2p + E2p (e - eps2p) from eps2p on (tangent E2p
 *   at e = eps2p); for e < 0 the mirror with E1n, E2n and eps2n (tangent E2n at e = eps2n).
 * - The three-number form (E1 E2 eps2) uses the same moduli on both sides and eps2n = -eps2p;
 *   a negative eps2p is taken as its magnitude, a positive eps2n as its negative.
 * - The initial tangent is E1p; no state is kept (commit and revert do nothing). */
#include "material_impl.h"

#include <math.h>

const hs_param_spec hs_material_elastic_bilin_params[] = {
    {"E1p", HS_PARAM_NUM, 1, "stiffness for 0 <= strain < eps2p"},
    {"E2p", HS_PARAM_NUM, 1, "stiffness for strain >= eps2p"},
    {"eps2p", HS_PARAM_NUM, 1, "strain where the stiffness changes in tension (its magnitude)"},
    {"E1n", HS_PARAM_NUM, 0, "stiffness for eps2n < strain < 0 (default E1p)"},
    {"E2n", HS_PARAM_NUM, 0, "stiffness for strain <= eps2n (default E2p)"},
    {"eps2n", HS_PARAM_NUM, 0,
     "strain where the stiffness changes in compression (default -eps2p)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

typedef struct elastic_bilin {
    double E1p, E2p, eps2p, E1n, E2n, eps2n;
} elastic_bilin;

static int eb_set_trial(hs_material *m, double strain, double strain_rate)
{
    (void)strain_rate;
    const elastic_bilin *p = m->data;
    if (strain >= 0.0) {
        m->tangent = strain < p->eps2p ? p->E1p : p->E2p;
        m->stress =
            strain < p->eps2p ? p->E1p * strain : p->E1p * p->eps2p + (strain - p->eps2p) * p->E2p;
    } else {
        m->tangent = strain > p->eps2n ? p->E1n : p->E2n;
        m->stress =
            strain > p->eps2n ? p->E1n * strain : p->E1n * p->eps2n + (strain - p->eps2n) * p->E2n;
    }
    m->rate_tangent = 0.0;
    return 0;
}

static double eb_initial_tangent(const hs_material *m)
{
    return ((const elastic_bilin *)m->data)->E1p;
}

static void eb_destroy(hs_material *m)
{
    hs_free(m->data);
}

int hs_material_create_elastic_bilin(hs_material *m, const hs_options *opts)
{
    elastic_bilin *p = hs_calloc(1, sizeof *p);
    if (!p) return HS_ENOMEM;
    m->data = p;
    m->ops.set_trial = eb_set_trial;
    m->ops.initial_tangent = eb_initial_tangent;
    m->ops.destroy = eb_destroy;
    p->E1p = hs_options_num(opts, "E1p", 0.0);
    p->E2p = hs_options_num(opts, "E2p", 0.0);
    p->eps2p = fabs(hs_options_num(opts, "eps2p", 0.0));
    p->E1n = hs_options_num(opts, "E1n", p->E1p);
    p->E2n = hs_options_num(opts, "E2n", p->E2p);
    p->eps2n = -fabs(hs_options_num(opts, "eps2n", p->eps2p));
    const double v[6] = {p->E1p, p->E2p, p->eps2p, p->E1n, p->E2n, p->eps2n};
    static const char *const names[6] = {"E1p", "E2p", "eps2p", "E1n", "E2n", "eps2n"};
    for (int i = 0; i < 6; i++)
        if (!isfinite(v[i]))
            return hs_fail(m->ctx, HS_EINPUT, "elastic_bilin: %s must be a finite number (got %g)",
                           names[i], v[i]);
    return 0;
}
