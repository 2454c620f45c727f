/* The integrator registry: one line per algorithm. */
#include "integrator_impl.h"

#include "../base/registry.h"

#include <stdio.h>

/* Each algorithm's create function, defined in its own file. */
int hs_integrator_create_newmark_explicit(hs_integrator *it, const hs_options *opts);
extern const hs_param_spec hs_newmark_explicit_params[];
int hs_integrator_create_central_difference(hs_integrator *it, const hs_options *opts);
extern const hs_param_spec hs_central_difference_params[];
int hs_integrator_create_newmark(hs_integrator *it, const hs_options *opts);
extern const hs_param_spec hs_newmark_params[];
int hs_integrator_create_hht(hs_integrator *it, const hs_options *opts);
extern const hs_param_spec hs_hht_params[];
int hs_integrator_create_exact(hs_integrator *it, const hs_options *opts);
extern const hs_param_spec hs_exact_params[];
int hs_integrator_create_alpha_os(hs_integrator *it, const hs_options *opts);
extern const hs_param_spec hs_alpha_os_params[];
int hs_integrator_create_cr(hs_integrator *it, const hs_options *opts);
extern const hs_param_spec hs_cr_params[];
int hs_integrator_create_kr_alpha(hs_integrator *it, const hs_options *opts);
extern const hs_param_spec hs_kr_alpha_params[];
int hs_integrator_create_ghaboussi_pc(hs_integrator *it, const hs_options *opts);
extern const hs_param_spec hs_ghaboussi_pc_params[];
int hs_integrator_create_os_tangent(hs_integrator *it, const hs_options *opts);
extern const hs_param_spec hs_os_tangent_params[];
int hs_integrator_create_implicit_hht_fe(hs_integrator *it, const hs_options *opts);
extern const hs_param_spec hs_implicit_hht_fe_params[];
int hs_integrator_create_ode4(hs_integrator *it, const hs_options *opts);
extern const hs_param_spec hs_ode4_params[];

static const hs_integrator_entry hs_integrators[] = {
    {"newmark_explicit", hs_integrator_create_newmark_explicit, hs_newmark_explicit_params, 2, 0,
     "explicit Newmark (gamma = 1/2, beta = 0), as in Mosqueda et al. 2004", 0, 0},
    {"central_difference", hs_integrator_create_central_difference, hs_central_difference_params, 2,
     0, "classic central difference, d(-1) from the initial state", 0, 0},
    {"newmark", hs_integrator_create_newmark, hs_newmark_params, 2, 0,
     "implicit Newmark (beta, gamma) with Newton on the numerical restoring force", 0, 1},
    {"hht", hs_integrator_create_hht, hs_hht_params, 2, 0,
     "HHT-alpha in the hybrid form of Mosqueda & Ahmadizadeh 2008b (eq. 3.4), Newton on the "
     "numerical part",
     0, 1},
    {"exact", hs_integrator_create_exact, hs_exact_params, 2, 1,
     "piecewise-exact modal solution for linear models with classical damping (reference)", 1, 0},
    {"alpha_os", hs_integrator_create_alpha_os, hs_alpha_os_params, 2, 0,
     "alpha-operator-splitting (Nakashima; Combescure-Pegon), Hashash et al. 2004, eq. 1-6, K_I = "
     "K0",
     0, 1},
    {"cr", hs_integrator_create_cr, hs_cr_params, 2, 0,
     "CR (Chen-Ricles 2008), explicit displacement and velocity, unconditionally stable", 0, 0},
    {"kr_alpha", hs_integrator_create_kr_alpha, hs_kr_alpha_params, 2, 0,
     "KR-alpha (Kolay-Ricles), explicit with numerical dissipation rho_inf", 0, 0},
    {"ghaboussi_pc", hs_integrator_create_ghaboussi_pc, hs_ghaboussi_pc_params, 2, 0,
     "Ghaboussi's predictor-corrector, Hashash et al. 2004, eq. 7-11 (no experimental stiffness "
     "needed)",
     0, 0},
    {"os_tangent", hs_integrator_create_os_tangent, hs_os_tangent_params, 2, 0,
     "operator splitting with the estimated experimental tangent, Mosqueda & Ahmadizadeh 2008b, "
     "section 5 (HHT-alpha)",
     0, 1},
    {"implicit_hht_fe", hs_integrator_create_implicit_hht_fe, hs_implicit_hht_fe_params, 2, 0,
     "implicit HHT-alpha with estimated experimental forces, explicit fallback (Mosqueda & "
     "Ahmadizadeh 2008a, 2008b)",
     0, 1},
    {"ode4", hs_integrator_create_ode4, hs_ode4_params, 2, 0,
     "classical Runge-Kutta (Simulink's ode4), the measured force held over the step, optionally "
     "from a step before (the RTHS benchmark's loop)",
     0, 0},
};

size_t hs_integrator_registry_count(void)
{
    return sizeof hs_integrators / sizeof hs_integrators[0];
}

const hs_integrator_entry *hs_integrator_registry_get(size_t i)
{
    return i < hs_integrator_registry_count() ? &hs_integrators[i] : NULL;
}

const hs_integrator_entry *hs_integrator_registry_find(const char *name)
{
    return hs_integrator_registry_get(HS_REGISTRY_INDEX(hs_integrators, name));
}

const char *hs_integrator_massless_list(char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < hs_integrator_registry_count(); i++) {
        const hs_integrator_entry *e = hs_integrator_registry_get(i);
        if (!e->massless || used >= cap) continue;
        const int w = snprintf(buf + used, cap - used, "%s%s", used ? ", " : "", e->name);
        if (w > 0) used += (size_t)w;
    }
    return buf;
}
