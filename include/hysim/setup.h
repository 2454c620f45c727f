/* hysim experimental setups: the geometry between a control point and the actuators that move
 * it (docs/setups.md).
 *
 * A setup is a rigid platform (the specimen's end, a loading beam, a load and boundary condition
 * box) whose pose q, its displacements and rotations at a control point, is set by actuators
 * pinned at both ends: actuator i runs from its base pin b_i (fixed) to its platform pin p_i
 * (moving with the platform). Its stroke is its change of length,
 *     x_i(q) = |t + R(q) p_i - b_i| - |p_i - b_i|,
 * and its force f_i (positive pushing the platform along the actuator, from base to pin) gives the
 * control point's force and moment resultant. OpenFresco's setups (OneActuator, TwoActuators2d,
 * ThreeActuators2d, InvertedVBrace2d, FourActuators3d, ...) and a 6-DOF load and boundary
 * condition box are all such platforms; their parameters become pins (setup_presets.c).
 *
 * Pose: t = (ux, uy, uz), R = Rz(rz) Ry(ry) Rx(rx) (rotations about the fixed x, then y, then z
 * axes), or with rot_vector the rotation by |r| about r = (rx, ry, rz); in 2-D only ux, uy, rz. The
 * setup controls `ndof` of these six (the others are held at 0 by the specimen or the setup's own
 * guides). With `nl_geom` 0 the map is linearised at rest (x = J0 q, p = J0^T f, OpenFresco's
 * default); with 1 it is exact at any displacement. Nothing here allocates after hs_setup_create;
 * every call is safe at a controller's rate. The forward solve and the force inverse use the
 * setup's own scratch: one thread per setup (a site's loop thread drives both its laboratory
 * wrapper and a virtual specimen on the same setup). */
#ifndef HYSIM_SETUP_H
#define HYSIM_SETUP_H

#include "hysim/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HS_SETUP_MAX_ACT 16

/* The six pose DOFs of a control point, in the order of hs_setup_geometry.dof. */
enum { HS_POSE_UX, HS_POSE_UY, HS_POSE_UZ, HS_POSE_RX, HS_POSE_RY, HS_POSE_RZ };

typedef struct hs_setup_geometry {
    int nact;    /* 1..HS_SETUP_MAX_ACT actuators */
    int ndof;    /* 1..6 controlled pose DOFs, ndof <= nact */
    int dof[6];  /* dof[k]: the pose DOF (HS_POSE_*) that control DOF k stands for, distinct */
    int nl_geom; /* 0: linearised at rest; 1: exact geometry */
    /* 0: R = Rz(rz) Ry(ry) Rx(rx); 1: R = exp([r]x), the rotation by angle |r| about the
     * rotation vector r = (rx, ry, rz) (OpenFresco's FourActuators3d tilts its column top so,
     * ESFourActuators3d.cpp). Equal to first order. */
    int rot_vector;
    /* Pins, in the control point's axes with its origin at the control point at rest. */
    double base[HS_SETUP_MAX_ACT][3]; /* fixed end of actuator i */
    double pin[HS_SETUP_MAX_ACT][3];  /* platform end of actuator i, at rest */
} hs_setup_geometry;

typedef struct hs_setup hs_setup;

/* Checks the geometry (pins apart, distinct DOFs, a Jacobian of full column rank at rest, so the
 * actuators fix every controlled DOF) and makes the setup. Errors name the actuator or DOF. */
int hs_setup_create(hs_ctx *ctx, const hs_setup_geometry *g, hs_setup **out);
void hs_setup_destroy(hs_setup **s);
int hs_setup_nact(const hs_setup *s);
int hs_setup_ndof(const hs_setup *s);
const hs_setup_geometry *hs_setup_geometry_of(const hs_setup *s);

/* Inverse kinematics: the actuators' strokes x[nact] that put the control point at q[ndof]. */
void hs_setup_strokes(const hs_setup *s, const double *q, double *x);

/* The Jacobian dx/dq at q, row-major nact x ndof (J[i * ndof + k]). */
void hs_setup_jacobian(const hs_setup *s, const double *q, double *J);

/* Forward kinematics: the pose q[ndof] whose strokes are x[nact] (least squares when nact > ndof),
 * by Gauss-Newton from q's value on entry (warm start: the last pose), to a change below
 * 1e-14 of the platform's size. Returns 0, or HS_ECONVERGE (q unchanged) when it does not
 * converge in 30 iterations: strokes no pose reaches. */
int hs_setup_pose(const hs_setup *s, const double *x, double *q);

/* The force and moment resultant at the control point, in its fixed axes, of actuator forces
 * f[nact] with the platform at q: p[k] is the component along control DOF k (a force for a
 * translation, a moment about the control point for a rotation). Linearised setups use the rest
 * geometry (p = J0^T f). */
void hs_setup_forces(const hs_setup *s, const double *q, const double *f, double *p);

/* The derivative of hs_setup_forces at q with the actuator forces f[nact] held, the setup's
 * geometric stiffness: G[b * ndof + a] = d p_a / d q_b (ndof x ndof, column-major), from the
 * actuators' axes turning (d n_i / dq) and the platform's arms turning (d (R p_i) / dq); zero
 * for a linearised setup. The tangent of the control point's force is then
 * Ares diag(df_i / dx_i) J + G (Ares: hs_setup_forces' matrix, J^T in 2-D). */
void hs_setup_force_derivative(const hs_setup *s, const double *q, const double *f, double *G);

/* Actuator forces f[nact] that hold the platform at q against a control-point load p[ndof]
 * (the minimum-norm solution when nact > ndof): J^T f = p, the inverse of hs_setup_forces for
 * a virtual laboratory's specimen acting through the setup. */
int hs_setup_actuator_forces(const hs_setup *s, const double *q, const double *p, double *f);

/* OpenFresco's named setups as pins (src/lab/setup_presets.c, docs/setups.md): type
 * "OneActuator" (no lengths; `dof` the translation it drives), "TwoActuators2d" (La1 La2 L),
 * "ThreeActuators2d", "InvertedVBrace2d" or "InvertedVBrace" (La1 La2 La3 L1 L2), their joint-
 * offset forms "ThreeActuatorsJntOff2d", "InvertedVBraceJntOff2d" (La1 La2 La3 L1 .. L6),
 * "ThreeActuators" (La1 La2 La3 L1 L2 L3), "ThreeActuatorsJntOff" (La1 La2 La3 L1 .. L7) and
 * "FourActuators3d" (L1 .. L4 a1 .. a4 h, or OpenFresco's 16), in OpenFresco's order; `right`:
 * the horizontal actuator on the specimen's right. hs_setup_preset_turned also turns the setup in
 * the plane by OpenFresco's phiLocX (degrees; NAN: the type's default, 45 for FourActuators3d,
 * else 0). Fills g (keeping g->nl_geom); HS_EINPUT with what is expected otherwise. */
int hs_setup_preset(hs_ctx *ctx, const char *type, const double *lengths, int nlengths, int right,
                    int dof, hs_setup_geometry *g);
int hs_setup_preset_turned(hs_ctx *ctx, const char *type, const double *lengths, int nlengths,
                           int right, int dof, double phi_deg, hs_setup_geometry *g);
/* The lengths a named setup takes, as OpenFresco's expSetup names them ("" for OneActuator), or
 * NULL for a name that is not a setup type. */
const char *hs_setup_preset_lengths(const char *type);

/* ---------------------------------------------------------------- a laboratory through a setup */

/* One physical actuator's limits behind a setup (0 = none): |stroke| <= stroke, |increment| rate
 * <= vel, |second difference| rate^2 <= acc. */
typedef struct hs_setup_limits {
    double stroke, vel, acc;
} hs_setup_limits;

/* A laboratory whose channels are the setup's control DOFs over `inner`, a laboratory of the
 * setup's actuators (owned: destroyed with the wrapper; the setup is lent). Each tick the command
 * (control DOFs) becomes strokes (inverse kinematics); a stroke that would cross its actuator's
 * limit is never sent: the actuators brake together within their acceleration limits and hold,
 * and the exchange reports HS_LAB_ST_FAULT from then on with an alarm that names the actuator,
 * the value and the limit (the site controller then holds, as for a lab's fault bit). The
 * measured strokes give the control point's displacements (forward kinematics, warm-started)
 * and the measured actuator forces its force and moment resultant (src/lab/labio_setup.c). */
struct hs_lab;
int hs_lab_setup_create(hs_ctx *ctx, struct hs_lab *inner, const hs_setup *setup,
                        const hs_setup_limits *limits, struct hs_lab **out);
/* The strokes last sent to the inner laboratory (nact), NULL for another kind of lab. */
const double *hs_lab_setup_strokes(struct hs_lab *lab);

#ifdef __cplusplus
}
#endif

#endif
