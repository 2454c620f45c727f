/* Implicit Newmark (beta, gamma; average acceleration by default) with Newton on the numerical
 * restoring force. The lab is commanded d(n) + dt v(n) + dt^2/2 a(n) (Mosqueda & Ahmadizadeh 2008b,
 * eq. 3.5); the equation uses the measurement linearised about it. See implicit_core.c and
 * docs/integrators.md.
 */
#include "implicit_core.h"

const hs_param_spec hs_newmark_params[] = {
    {"beta", HS_PARAM_NUM, 0, "Newmark beta (default 0.25; 1/6 = linear acceleration)"},
    {"gamma", HS_PARAM_NUM, 0, "Newmark gamma (default 0.5)"},
    HS_IMPLICIT_NEWTON_PARAMS,
    {NULL, HS_PARAM_NUM, 0, NULL},
};

int hs_integrator_create_newmark(hs_integrator *it, const hs_options *opts)
{
    hs_implicit *s = hs_implicit_attach(it);
    if (!s) return HS_ENOMEM;
    const int rc = hs_implicit_init(it, s, opts, 0.0, hs_options_num(opts, "beta", 0.25),
                                    hs_options_num(opts, "gamma", 0.5));
    return rc ? rc : hs_implicit_tangent_option(it, s, opts);
}
