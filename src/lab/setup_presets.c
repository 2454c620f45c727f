/* OpenFresco's named setups as pins of hysim's rigid-platform setup (include/hysim/setup.h,
 * docs/setups.md). The layouts are the ones OpenFresco's setups transform for (read in
 * OpenFresco's SRC/experimentalSetup for their facts: which actuator sits where, which length is
 * which, what "left" and "right" mean, how phiLocX turns the setup); the geometry itself is
 * hysim's, exact at any displacement with nl_geom and linearised at rest without. Lengths are
 * named as OpenFresco's expSetup command takes them (La1 La2 La3 L1 L2 ...).
 *
 *  OneActuator        1 actuator along the control DOF (a translation), any length.
 *  TwoActuators2d     La1 La2 L: a horizontal actuator at the control point (length La1) and one
 *                     L above it (length La2), both on the left (or the right); controls ux, rz.
 *  ThreeActuators2d,  La1 La2 La3 L1 L2: a horizontal actuator at (-L1, 0) (length La1; at
 *  InvertedVBrace     (L2, 0) when on the right) and two vertical ones under (-L1, 0) and (L2, 0)
 *                     (La2, La3); controls ux, uy, rz. The inverted-V brace's loading beam has
 *                     the same layout (its braces meet at the control point).
 *  ...JntOff2d        La1 La2 La3 L1 .. L6 (ThreeActuatorsJntOff2d, InvertedVBraceJntOff2d): the
 *                     same with rigid joint offsets: the horizontal actuator at (-(L1 + L2), 0)
 *                     (right: (L3 + L4, 0)), the vertical ones under (-L2, -L5) and (L3, -L6).
 *  ThreeActuators     La1 La2 La3 L1 L2 L3: the actuators' pins L3 above the control point: the
 *                     horizontal one at (-L1, L3) (right: (L2, L3)), vertical ones under (-L1, L3)
 *                     and (L2, L3).
 *  ThreeActuatorsJntOff  La1 La2 La3 L1 .. L7: the horizontal one at (-(L1 + L2), L6) (right:
 *                     (L3 + L4, L6)), vertical ones under (-L2, L6 - L5) and (L3, L6 - L7).
 *  FourActuators3d    L1 L2 L3 L4 a1 a2 a3 a4 h (and OpenFresco's seven spreader-beam and rod
 *                     lengths, which place no actuator): a column top held by actuators 1 and 3
 *                     along x (pins at (-a1, 0, 0) and (-a3, 0, h), lengths L1, L3) and 2 and 4
 *                     along y (pins at (0, -a2, 0) and (0, -a4, h), lengths L2, L4); controls ux,
 *                     uy, rx, ry.
 *
 * phiLocX turns a setup in the plane (degrees): the 2-D setups' actuators by -phiLocX (OpenFresco
 * rotates the element's displacements by +phiLocX into the setup's axes), FourActuators3d's by
 * +phiLocX (it rotates them by -phiLocX; its default is 45). FourActuators3d's rotations are a
 * rotation vector, as OpenFresco's (transfTrialDisp: R = A B C turns by sqrt(rx^2 + ry^2) about
 * the axis (rx, ry) in the plane): hs_setup_geometry.rot_vector. */
#include "hysim/setup.h"

#include <math.h>
#include <string.h>

#define DEG (3.14159265358979323846 / 180.0)

static void put3(hs_setup_geometry *g, int i, const double b[3], const double p[3])
{
    memcpy(g->base[i], b, sizeof g->base[i]);
    memcpy(g->pin[i], p, sizeof g->pin[i]);
}

static void put(hs_setup_geometry *g, int i, double bx, double by, double px, double py)
{
    const double b[3] = {bx, by, 0.0}, p[3] = {px, py, 0.0};
    put3(g, i, b, p);
}

static void controls(hs_setup_geometry *g, int nact, int ndof, const int *dof)
{
    g->nact = nact;
    g->ndof = ndof;
    memcpy(g->dof, dof, (size_t)ndof * sizeof *dof);
}

/* A loading beam on three actuators: a horizontal one pinned at (xl, yh) (left: its base La0
 * further left) or (xr, yh) (right: its base La0 further right), vertical ones pinned at
 * (x1, y1) and (x2, y2) with their bases La1 and La2 below. */
static void three_actuators(hs_setup_geometry *g, int right, const double La[3], double xl,
                            double xr, double yh, double x1, double y1, double x2, double y2)
{
    static const int dof[3] = {HS_POSE_UX, HS_POSE_UY, HS_POSE_RZ};
    controls(g, 3, 3, dof);
    if (right)
        put(g, 0, xr + La[0], yh, xr, yh);
    else
        put(g, 0, xl - La[0], yh, xl, yh);
    put(g, 1, x1, y1 - La[1], x1, y1);
    put(g, 2, x2, y2 - La[2], x2, y2);
}

static void two_actuators_2d(hs_setup_geometry *g, const double *p, int right)
{
    static const int dof[2] = {HS_POSE_UX, HS_POSE_RZ};
    const double side = right ? 1.0 : -1.0; /* where the bases are */
    controls(g, 2, 2, dof);
    put(g, 0, side * p[0], 0.0, 0.0, 0.0);
    put(g, 1, side * p[1], p[2], 0.0, p[2]);
}

static void three_actuators_2d(hs_setup_geometry *g, const double *p, int right)
{
    three_actuators(g, right, p, -p[3], p[4], 0.0, -p[3], 0.0, p[4], 0.0);
}

static void three_actuators_jntoff_2d(hs_setup_geometry *g, const double *p, int right)
{
    const double *L = p + 2; /* L[1] .. L[6] */
    three_actuators(g, right, p, -(L[1] + L[2]), L[3] + L[4], 0.0, -L[2], -L[5], L[3], -L[6]);
}

static void three_actuators_raised(hs_setup_geometry *g, const double *p, int right)
{
    const double *L = p + 2;
    three_actuators(g, right, p, -L[1], L[2], L[3], -L[1], L[3], L[2], L[3]);
}

static void three_actuators_jntoff(hs_setup_geometry *g, const double *p, int right)
{
    const double *L = p + 2;
    three_actuators(g, right, p, -(L[1] + L[2]), L[3] + L[4], L[6], -L[2], L[6] - L[5], L[3],
                    L[6] - L[7]);
}

static void four_actuators_3d(hs_setup_geometry *g, const double *p, int right)
{
    (void)right;
    static const int dof[4] = {HS_POSE_UX, HS_POSE_UY, HS_POSE_RX, HS_POSE_RY};
    const double *L = p, *a = p + 4, h = p[8];
    controls(g, 4, 4, dof);
    g->rot_vector = 1; /* ESFourActuators3d.cpp: R = A B C, the tilt |(rx, ry)| about (rx, ry) */
    for (int i = 0; i < 4; i++) {
        const int along = i % 2;          /* 0: x (actuators 1, 3), 1: y (2, 4) */
        const double z = i < 2 ? 0.0 : h; /* 1, 2 at the control point; 3, 4 h above */
        double pin[3] = {0.0, 0.0, z}, base[3] = {0.0, 0.0, z};
        pin[along] = -a[i];
        base[along] = -a[i] - L[i];
        put3(g, i, base, pin);
    }
}

typedef struct preset {
    const char *name;
    const char *lengths; /* as expSetup takes them */
    int nlen, nlen_full; /* the lengths it takes (nlen_full: OpenFresco's longer list, or 0) */
    int turn;            /* phiLocX's sense: -1, +1, or 0 where the setup cannot turn */
    double phi;          /* phiLocX's default, degrees */
    void (*place)(hs_setup_geometry *g, const double *p, int right);
} preset;

static const preset presets[] = {
    {"TwoActuators2d", "La1 La2 L", 3, 0, 0, 0.0, two_actuators_2d},
    {"ThreeActuators2d", "La1 La2 La3 L1 L2", 5, 0, -1, 0.0, three_actuators_2d},
    {"InvertedVBrace", "La1 La2 La3 L1 L2", 5, 0, -1, 0.0, three_actuators_2d},
    {"InvertedVBrace2d", "La1 La2 La3 L1 L2", 5, 0, -1, 0.0, three_actuators_2d},
    {"ThreeActuatorsJntOff2d", "La1 La2 La3 L1 L2 L3 L4 L5 L6", 9, 0, -1, 0.0,
     three_actuators_jntoff_2d},
    {"InvertedVBraceJntOff2d", "La1 La2 La3 L1 L2 L3 L4 L5 L6", 9, 0, -1, 0.0,
     three_actuators_jntoff_2d},
    {"ThreeActuators", "La1 La2 La3 L1 L2 L3", 6, 0, 0, 0.0, three_actuators_raised},
    {"ThreeActuatorsJntOff", "La1 La2 La3 L1 L2 L3 L4 L5 L6 L7", 10, 0, 0, 0.0,
     three_actuators_jntoff},
    {"FourActuators3d",
     "L1 L2 L3 L4 a1 a2 a3 a4 h (OpenFresco's h1 h2 arlN arlS LrodN LrodS Hbeam "
     "may follow)",
     9, 16, 1, 45.0, four_actuators_3d},
};
#define NPRESETS (sizeof presets / sizeof presets[0])

/* Turns the pins about z by angle (radians). */
static void turn(hs_setup_geometry *g, double angle)
{
    const double c = cos(angle), s = sin(angle);
    for (int i = 0; i < g->nact; i++)
        for (int e = 0; e < 2; e++) {
            double *v = e ? g->base[i] : g->pin[i];
            const double x = v[0], y = v[1];
            v[0] = c * x - s * y;
            v[1] = s * x + c * y;
        }
}

const char *hs_setup_preset_lengths(const char *type)
{
    if (strcmp(type, "OneActuator") == 0) return "";
    for (size_t k = 0; k < NPRESETS; k++)
        if (strcmp(type, presets[k].name) == 0) return presets[k].lengths;
    return NULL;
}

int hs_setup_preset_turned(hs_ctx *ctx, const char *type, const double *p, int np, int right,
                           int dof, double phi_deg, hs_setup_geometry *g)
{
    const int nl = g->nl_geom;
    memset(g, 0, sizeof *g);
    g->nl_geom = nl;
    if (strcmp(type, "OneActuator") == 0) {
        if (np != 0 || dof < HS_POSE_UX || dof > HS_POSE_UZ)
            return hs_fail(ctx, HS_EINPUT,
                           "setup OneActuator: no lengths, and one translation DOF (ux, uy or uz) "
                           "in dofs");
        if (!isnan(phi_deg) && phi_deg != 0.0)
            return hs_fail(ctx, HS_EINPUT,
                           "setup OneActuator: phiLocX does not apply (the actuator is along its "
                           "DOF)");
        g->nact = g->ndof = 1;
        g->dof[0] = dof;
        g->base[0][dof] = -1.0; /* any length: the stroke is the displacement along the DOF */
        return 0;
    }
    const preset *t = NULL;
    for (size_t k = 0; k < NPRESETS; k++)
        if (strcmp(type, presets[k].name) == 0) t = &presets[k];
    if (!t)
        return hs_fail(ctx, HS_EINPUT,
                       "setup type '%s' is not known; expected OneActuator, TwoActuators2d, "
                       "ThreeActuators2d, InvertedVBrace2d, ThreeActuatorsJntOff2d, "
                       "InvertedVBraceJntOff2d, ThreeActuators, ThreeActuatorsJntOff or "
                       "FourActuators3d (or give each actuator's base and pin)",
                       type);
    if (np != t->nlen && np != t->nlen_full) {
        if (t->nlen_full)
            return hs_fail(ctx, HS_EINPUT, "setup %s: expected %d or %d lengths %s (got %d)", type,
                           t->nlen, t->nlen_full, t->lengths, np);
        return hs_fail(ctx, HS_EINPUT, "setup %s: expected %d lengths %s (got %d)", type, t->nlen,
                       t->lengths, np);
    }
    for (int k = 0; k < np; k++)
        if (!isfinite(p[k]) || p[k] < 0.0)
            return hs_fail(ctx, HS_EINPUT,
                           "setup %s: length %d of %s is %g; lengths are finite and not negative",
                           type, k + 1, t->lengths, p[k]);
    const double phi = isnan(phi_deg) ? t->phi : phi_deg;
    if (!isfinite(phi))
        return hs_fail(ctx, HS_EINPUT, "setup %s: phiLocX is %g degrees", type, phi);
    if (t->turn == 0 && phi != 0.0)
        return hs_fail(ctx, HS_EINPUT,
                       "setup %s: phiLocX %g: this setup does not turn in the plane (OpenFresco's "
                       "%s takes no phiLocX, or controls no uy to turn ux into)",
                       type, phi, type);
    t->place(g, p, right);
    if (phi != 0.0) turn(g, t->turn * phi * DEG);
    return 0;
}

int hs_setup_preset(hs_ctx *ctx, const char *type, const double *p, int np, int right, int dof,
                    hs_setup_geometry *g)
{
    return hs_setup_preset_turned(ctx, type, p, np, right, dof, NAN, g);
}
