/* A two-node link through an experimental setup (hs_fe_link_def.setup; an OpenFresco expSetup
 * with actuators in a script, docs/openfresco.md). The link's basic deformations ub, in the
 * order of the setup's control DOFs, are the pose of the setup's platform; actuator i's stroke
 * x_i(ub) (include/hysim/setup.h: exact geometry with nl_geom, else x = J0 ub) drives material
 * i, as OpenFresco's SimUniaxialMaterials control drives its i-th material with the i-th
 * actuator's command (ECSimUniaxialMaterials.cpp), and the basic forces are the resultant of
 * the actuator forces at the pose (hs_setup_forces), as the setup's transfDaqForce gives them
 * back to the element. Rates: xdot = J(ub) vb. Tangent J^T diag(k_i) J and damping
 * J^T diag(c_i) J at ub, without the geometric term (dJ^T/dub) f of a nonlinear setup: an
 * approximate tangent there, as OpenFresco's elements answer their -initStif instead. */
#include "fe_impl.h"

#include "hysim/setup.h"

int fe_link_setup_state(hs_ctx *ctx, const char *name, const hs_setup *s, hs_material *const *mat,
                        const double *da, const double *dv, const double *fb, const double *ub,
                        const double *vb, int initial, double *q, double *kb, double *cb)
{
    static const double rest[6] = {0.0};
    const int n = hs_setup_ndof(s);
    double J[HS_SETUP_MAX_ACT * 6], x[HS_SETUP_MAX_ACT], f[HS_SETUP_MAX_ACT];
    double k[HS_SETUP_MAX_ACT], c[HS_SETUP_MAX_ACT];
    hs_setup_jacobian(s, initial ? rest : ub, J);
    if (!initial) hs_setup_strokes(s, ub, x);
    for (int i = 0; i < n; i++) {
        if (initial) {
            k[i] = da[i] * fb[i] * hs_material_initial_tangent(mat[i]);
            c[i] = f[i] = 0.0;
            continue;
        }
        double xd = 0.0;
        for (int d = 0; d < n; d++) xd += J[i * n + d] * vb[d];
        const int rc = hs_material_set_trial(mat[i], da[i] * x[i], dv[i] * xd);
        if (rc)
            return hs_fail(ctx, rc, "element '%s': actuator %d: %s", name, i + 1,
                           hs_ctx_message(ctx));
        f[i] = fb[i] * hs_material_stress(mat[i]);
        k[i] = da[i] * fb[i] * hs_material_tangent(mat[i]);
        c[i] = dv[i] * fb[i] * hs_material_rate_tangent(mat[i]);
    }
    if (initial)
        for (int d = 0; d < n; d++) q[d] = 0.0;
    else
        hs_setup_forces(s, ub, f, q);
    for (int b = 0; b < n; b++)
        for (int a = 0; a < n; a++) {
            double sk = 0.0, sc = 0.0;
            for (int i = 0; i < n; i++) {
                const double jj = J[i * n + a] * J[i * n + b];
                sk += k[i] * jj;
                sc += c[i] * jj;
            }
            kb[b * n + a] = sk;
            cb[b * n + a] = sc;
        }
    return 0;
}
