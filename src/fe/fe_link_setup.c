/* A two-node link through an experimental setup (hs_fe_link_def.setup; an OpenFresco expSetup
 * with actuators in a script, docs/openfresco.md). The link's basic deformations ub, in the
 * order of the setup's control DOFs, are the pose of the setup's platform; actuator i's stroke
 * x_i(ub) (include/hysim/setup.h: exact geometry with nl_geom, else x = J0 ub) drives material
 * i, as OpenFresco's SimUniaxialMaterials control drives its i-th material with the i-th
 * actuator's command (ECSimUniaxialMaterials.cpp), and the basic forces are the resultant of
 * the actuator forces at the pose (hs_setup_forces), as the setup's transfDaqForce gives them
 * back to the element. Rates: xdot = J(ub) vb. The tangent is the exact derivative of those
 * forces, A diag(k_i) J + G at ub (A the resultant's matrix, hs_setup_forces, equal to J^T in
 * 2-D; G the geometric term of a nonlinear setup, the actuators' axes and the platform's arms
 * turning under the forces f, hs_setup_force_derivative), the damping A diag(c_i) J. OpenFresco
 * has no such tangent: its setups transform displacements and forces only, and its elements
 * answer their -initStif (EETwoNodeLink.cpp getTangentStiff); so does hysim's link when given
 * one (fe_link.c). */
#include "fe_impl.h"

#include "hysim/setup.h"

#include <string.h>

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
    /* A: column i the resultant of a unit force in actuator i (J^T at rest, for `initial`) */
    double A[HS_SETUP_MAX_ACT * 6], e[HS_SETUP_MAX_ACT] = {0};
    for (int i = 0; i < n; i++) {
        e[i] = 1.0;
        hs_setup_forces(s, initial ? rest : ub, e, &A[i * n]);
        e[i] = 0.0;
    }
    if (initial)
        for (int d = 0; d < n; d++) q[d] = 0.0;
    else
        hs_setup_forces(s, ub, f, q);
    if (initial)
        memset(kb, 0, sizeof(double) * (size_t)(n * n));
    else
        hs_setup_force_derivative(s, ub, f, kb);
    for (int b = 0; b < n; b++)
        for (int a = 0; a < n; a++) {
            double sk = 0.0, sc = 0.0;
            for (int i = 0; i < n; i++) {
                const double aj = A[i * n + a] * J[i * n + b];
                sk += k[i] * aj;
                sc += c[i] * aj;
            }
            kb[b * n + a] += sk;
            cb[b * n + a] = sc;
        }
    return 0;
}
