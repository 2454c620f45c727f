/* HHT-alpha in the form of Mosqueda & Ahmadizadeh 2008b, eq. 3.1-3.4 (alpha in [-1/3, 0]):
 *   M a(n+1) + (1+alpha)(C v(n+1) + r(n+1)) - alpha (C v(n) + r(n)) - alpha Me (a(n+1) - a(n))
 *       = (1+alpha) f(n+1) - alpha f(n),  beta = (1-alpha)^2/4, gamma = (1-2 alpha)/2,
 * Newton on the numerical part; r(n) of the previous step is integrator state. The lab is
 * commanded d(n) + dt v(n) + dt^2/2 a(n) (Mosqueda & Ahmadizadeh 2008b, eq. 3.5). See
 * implicit_core.c. */
#include "implicit_core.h"

#include <math.h>
#include <string.h>

const hs_param_spec hs_hht_params[] = {
    {"alpha", HS_PARAM_NUM, 0, "numerical dissipation, in [-1/3, 0] (default -0.05)"},
    HS_IMPLICIT_NEWTON_PARAMS,
    {NULL, HS_PARAM_NUM, 0, NULL},
};

/* r(n) is the state beyond (d, v, a) */
static size_t hht_state_size(const hs_integrator *it)
{
    return (size_t)it->n;
}
static int hht_state_save(const hs_integrator *it, double *out)
{
    const hs_implicit *s = it->data;
    memcpy(out, s->q, (size_t)it->n * sizeof(double));
    return 0;
}
static int hht_state_load(hs_integrator *it, const double *in)
{
    hs_implicit *s = it->data;
    memcpy(s->q, in, (size_t)it->n * sizeof(double));
    return 0;
}

int hs_integrator_create_hht(hs_integrator *it, const hs_options *opts)
{
    hs_implicit *s = hs_implicit_attach(it);
    if (!s) return HS_ENOMEM;
    it->ops.state_size = hht_state_size;
    it->ops.state_save = hht_state_save;
    it->ops.state_load = hht_state_load;
    const double alpha = hs_options_num(opts, "alpha", -0.05);
    if (!(alpha >= -1.0 / 3.0 - 1e-12 && alpha <= 0.0))
        return hs_fail(it->ctx, HS_EINPUT, "hht: alpha must be in [-1/3, 0] (got %g)", alpha);
    const int rc = hs_implicit_init(it, s, opts, alpha, 0.25 * (1.0 - alpha) * (1.0 - alpha),
                                    0.5 * (1.0 - 2.0 * alpha));
    return rc ? rc : hs_implicit_tangent_option(it, s, opts);
}
