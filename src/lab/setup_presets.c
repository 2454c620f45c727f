/* OpenFresco's named 2-D setups as pins of hysim's rigid-platform setup (include/hysim/setup.h,
 * docs/setups.md). The layouts are the ones OpenFresco's setups transform for (read in
 * OpenFresco's SRC/experimentalSetup for their facts: which actuator sits where, which length is
 * which, what "left" and "right" mean); the geometry itself is hysim's, exact at any displacement
 * with nl_geom and linearised at rest without.
 *
 *  OneActuator       1 actuator along the control DOF (a translation), any length.
 *  TwoActuators2d    La1 La2 L: a horizontal actuator at the control point (length La1) and one
 *                    L above it (length La2), both on the left (or the right) of the specimen;
 *                    controls ux and rz.
 *  ThreeActuators2d  La1 La2 La3 L1 L2: a horizontal actuator at (-L1, 0) (length La1; at (L2, 0)
 *  InvertedVBrace    when on the right) and two vertical ones under (-L1, 0) and (L2, 0) (lengths
 *                    La2, La3); controls ux, uy and rz. The inverted-V brace's loading beam has
 *                    the same layout (its braces meet at the control point). */
#include "hysim/setup.h"

#include <string.h>

static void put(hs_setup_geometry *g, int i, double bx, double by, double px, double py)
{
    g->base[i][0] = bx;
    g->base[i][1] = by;
    g->base[i][2] = 0.0;
    g->pin[i][0] = px;
    g->pin[i][1] = py;
    g->pin[i][2] = 0.0;
}

int hs_setup_preset(hs_ctx *ctx, const char *type, const double *p, int np, int right, int dof,
                    hs_setup_geometry *g)
{
    const int nl = g->nl_geom;
    memset(g, 0, sizeof *g);
    g->nl_geom = nl;
    const double side = right ? 1.0 : -1.0; /* where the horizontal actuator's base is */
    if (strcmp(type, "OneActuator") == 0) {
        if (np != 0 || dof < HS_POSE_UX || dof > HS_POSE_UZ)
            return hs_fail(ctx, HS_EINPUT,
                           "setup OneActuator: no lengths, and one translation DOF (ux, uy or uz) "
                           "in dofs");
        g->nact = g->ndof = 1;
        g->dof[0] = dof;
        g->pin[0][dof] = 0.0;
        g->base[0][dof] = -1.0; /* any length: the stroke is the displacement along the DOF */
        return 0;
    }
    if (strcmp(type, "TwoActuators2d") == 0) {
        if (np != 3)
            return hs_fail(ctx, HS_EINPUT,
                           "setup TwoActuators2d: expected 3 lengths La1 La2 L (got %d)", np);
        g->nact = g->ndof = 2;
        g->dof[0] = HS_POSE_UX;
        g->dof[1] = HS_POSE_RZ;
        put(g, 0, side * p[0], 0.0, 0.0, 0.0);
        put(g, 1, side * p[1], p[2], 0.0, p[2]);
        return 0;
    }
    if (strcmp(type, "ThreeActuators2d") == 0 || strcmp(type, "InvertedVBrace") == 0) {
        if (np != 5)
            return hs_fail(ctx, HS_EINPUT,
                           "setup %s: expected 5 lengths La1 La2 La3 L1 L2 (got %d)", type, np);
        g->nact = g->ndof = 3;
        g->dof[0] = HS_POSE_UX;
        g->dof[1] = HS_POSE_UY;
        g->dof[2] = HS_POSE_RZ;
        const double L1 = p[3], L2 = p[4];
        const double hx = right ? L2 : -L1; /* the horizontal actuator's pin */
        put(g, 0, hx + side * p[0], 0.0, hx, 0.0);
        put(g, 1, -L1, -p[1], -L1, 0.0);
        put(g, 2, L2, -p[2], L2, 0.0);
        return 0;
    }
    return hs_fail(ctx, HS_EINPUT,
                   "setup type '%s' is not known; expected OneActuator, TwoActuators2d, "
                   "ThreeActuators2d or InvertedVBrace (or give each actuator's base and pin)",
                   type);
}
