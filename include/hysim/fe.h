/* hysim frame model in 1-D, 2-D or 3-D (OpenSees' ndm / ndf: 1-D nodes carry ux; 2-D ux, uy, rz;
 * 3-D ux, uy, uz, rx, ry, rz), fixities, nodal masses, constraints by transformation (equal DOF,
 * rigid diaphragm, rigid link) and elements (truss, elastic beam-column 2-D and 3-D with linear,
 * P-Delta or corotational transformation, zero-length springs with any uniaxial material in
 * any DOF, two-node links); lumped or consistent element mass (2-D); uniform or multi-support
 * excitation. docs/fe_model.md.
 *
 * The model's dynamic DOFs are the free, retained DOFs that carry mass; every other retained DOF
 * (typically beam rotations under lumped mass) is condensed statically: at each restore its
 * displacement solves r_0(d, d_0) = 0 by Newton, and the tangent seen by the integrator is the
 * Schur complement Kmm - Km0 K00^-1 K0m. So every integrator (explicit ones included) sees a
 * positive definite mass (diagonal when lumped). The condensation is dense; a frame whose every
 * free DOF carries mass also has a sparse form (hs_fe_sparse_*, fe_sparse.c: compressed columns,
 * docs/fe_model.md "Large frames"). Node ids are the user's (any integers >= 0, OpenSees' node 0
 * included); DOF indices 0-based. */
#ifndef HYSIM_FE_H
#define HYSIM_FE_H

#include "hysim/base.h"
#include "hysim/material.h"
#include "hysim/options.h"
#include "hysim/signal_filter.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hs_fe hs_fe;

/* A DOF of a node is its index among the node's ndf DOFs (OpenSees' dof number - 1): 2-D
 * (ndf 3): ux, uy, rz; 3-D (ndf 6): ux, uy, uz, rx, ry, rz; 1-D: ux. */
enum { HS_FE_UX = 0, HS_FE_UY = 1, HS_FE_RZ = 2 };
enum { HS_FE3_UX = 0, HS_FE3_UY = 1, HS_FE3_UZ = 2, HS_FE3_RX = 3, HS_FE3_RY = 4, HS_FE3_RZ = 5 };

/* Geometric transformations: linear; P-Delta (OpenSees PDeltaCrdTransf2d); corotational (exact
 * rigid-body motion of the chord, small strains in the element frame: Crisfield 1991, ch. 7; 3-D
 * beams: Crisfield 1990, the rotation DOFs read as total rotation vectors, docs/fe_model.md). */
typedef enum hs_fe_transf {
    HS_FE_LINEAR = 0,
    HS_FE_PDELTA = 1,
    HS_FE_COROTATIONAL = 2
} hs_fe_transf;

int hs_fe_create(hs_ctx *ctx, hs_fe **out);
void hs_fe_destroy(hs_fe **fe);

/* The model's dimension, before the first node (OpenSees `model BasicBuilder -ndm -ndf`): ndm 1
 * with ndf 1; ndm 2 with ndf 3 (the default) or 2 (trusses and springs only); ndm 3 with ndf 6 or
 * 3 (trusses and springs only). */
int hs_fe_set_dimension(hs_fe *fe, int ndm, int ndf);
int hs_fe_ndm(const hs_fe *fe);
int hs_fe_ndf(const hs_fe *fe);
/* The name of node DOF dir: "ux", "uy", "uz", "rx", "ry" or "rz". */
const char *hs_fe_dir_name(const hs_fe *fe, int dir);

/* Definition (before hs_fe_finalize). Errors name the node or element. Fixities, masses and DOF
 * flags are arrays of ndf values (3 in the default 2-D model). */
/* The hs_fe_add_ functions of nodes and elements return the index of what they added (>= 0)
 * or a negative HS_E code. */
int hs_fe_add_node(hs_fe *fe, int id, double x, double y);    /* 1-D (y = 0) and 2-D */
int hs_fe_add_node_crd(hs_fe *fe, int id, const double *crd); /* ndm coordinates */
int hs_fe_fix(hs_fe *fe, int id, const int *fix);             /* 1 = restrained */
int hs_fe_add_mass(hs_fe *fe, int id, const double *m);       /* adds the masses (>= 0) */
/* DOFs dofs[d] = 1 of node `slave` follow those of node `master` (u_slave = u_master). */
int hs_fe_equal_dof(hs_fe *fe, int master, int slave, const int *dofs);
/* Rigid diaphragm (OpenSees `rigidDiaphragm perpDirn master slaves`, perp = perpDirn - 1: 0 = x,
 * 1 = y, 2 = z): each slave's two in-plane translations and its rotation about the perpendicular
 * follow the master's, u_s = u_m + theta_m x (x_s - x_m) in the plane. 3-D (ndf 6), or 2-D with
 * perp 2. A slave DOF may not carry mass with a lever arm (lump the floor's mass and rotational
 * inertia on the master). */
int hs_fe_rigid_diaphragm(hs_fe *fe, int perp, int master, const int *slaves, int nslaves);
/* Rigid link (OpenSees `rigidLink beam|bar master slave`): beam: all the slave's DOFs follow the
 * master as a rigid body (u_s = u_m + theta_m x r, theta_s = theta_m); bar: the translations only
 * (u_s = u_m, as OpenSees' RigidRod). */
typedef enum hs_fe_rigid_link_type {
    HS_FE_RIGID_BAR = 0,
    HS_FE_RIGID_BEAM = 1
} hs_fe_rigid_link_type;
int hs_fe_rigid_link(hs_fe *fe, hs_fe_rigid_link_type type, int master, int slave);
/* Truss: axial E A / L. `axial_compression` (>= 0) is the compressive force of gravity loads
 * that the model does not carry, used by the P-Delta transformation only (docs/fe_model.md). */
int hs_fe_add_truss(hs_fe *fe, const char *name, int ni, int nj, double E, double A,
                    hs_fe_transf transf, double axial_compression);
/* Truss of a uniaxial material (OpenSees `element truss|corotTruss tag i j A matTag`): strain
 * the chord's elongation over L (corotational: the current chord's), axial force A times the
 * material's stress (src/fe/fe_truss.c). The element creates the material and owns it. */
int hs_fe_add_truss_material(hs_fe *fe, const char *name, int ni, int nj, double A,
                             hs_fe_transf transf, const char *mat_type, const hs_options *mat_opts);
/* OpenSees' Truss2 (`element Truss2 tag i j auxN1 auxN2 A matTag`): truss e of a material also
 * reads the strain et of the transverse truss from node ni to nj, (u_nj - u_ni) . n_t / L_t,
 * minus its own strain times |cos theta|, over |sin theta| (theta the angle of the two chords),
 * as the material's transverse strain (ConcretewBeta's softening beta). The tangent does not
 * couple the two (as OpenSees). Linear transformation, ndm 2 or 3 (src/fe/fe_truss.c). */
int hs_fe_set_truss_transverse(hs_fe *fe, int e, int ni, int nj);
/* OpenSees' TripleFrictionPendulumX (src/fe/fe_tfp_x.c, docs/fe_model.md): the words of its
 * command after the materials; mat_type/mat_opts: the vertical, torsion (z), rocking x and
 * rocking y materials (created and owned by the element). -ndm 3 -ndf 6; tagT 1 only. */
typedef struct hs_fe_tfp_x_def {
    int tagT, tagT2, kp, kT, kv; /* partitioning, plate (1 half space, 2 finite), tagPres,
                                    tagTemp, tagVel (1: the factor on) */
    double mu[3], L[3], ubar[3], B[3], plate[2];
    double W, uy, kvt, minFv, tol, pref[3], diffu, conduct, T0, vel_rate, kT_model, unit;
} hs_fe_tfp_x_def;
int hs_fe_add_tfp_x(hs_fe *fe, const char *name, int ni, int nj, const hs_fe_tfp_x_def *def,
                    const char *const mat_type[4], const hs_options *const mat_opts[4]);
/* The analysis' time t and time step dt (0 in a static analysis), which time-dependent elements
 * read (TripleFrictionPendulumX's heating and velocities): set before each restore. */
void hs_fe_set_clock(hs_fe *fe, double t, double dt);
/* Elastic beam-column (Euler-Bernoulli): E, A, I. */
int hs_fe_add_beam(hs_fe *fe, const char *name, int ni, int nj, double E, double A, double I,
                   hs_fe_transf transf, double axial_compression);
/* 3-D elastic beam-column (OpenSees `element elasticBeamColumn $tag $i $j $A $E $G $J $Iy $Iz
 * $transf`) with `geomTransf Linear|PDelta $tag vx vy vz`: local x from i to j, local y = vecxz x
 * x, local z = x x y (in the plane of x and vecxz); Iz bends about local z (deflection along y). */
typedef struct hs_fe_section_3d {
    double E, G, A, J, Iy, Iz;
} hs_fe_section_3d;
int hs_fe_add_beam_3d(hs_fe *fe, const char *name, int ni, int nj, const hs_fe_section_3d *sec,
                      const double vecxz[3], hs_fe_transf transf, double axial_compression);
/* Zero-length spring in node DOF dir (any of the ndf): deformation u_j - u_i. The
 * nodes may coincide or not (a zero-length element ignores their distance). The element
 * creates the material from (type, opts) and owns it. */
int hs_fe_add_zero_length(hs_fe *fe, const char *name, int ni, int nj, int dir,
                          const char *mat_type, const hs_options *mat_opts);
/* OpenSees' CoupledZeroLength (fe_coupled_zero_length.c): one material on the resultant of node
 * DOFs dir1 and dir2 of u_j - u_i, its force along that resultant, its tangent on each DOF. */
int hs_fe_add_coupled_zero_length(hs_fe *fe, const char *name, int ni, int nj, int dir1, int dir2,
                                  const char *mat_type, const hs_options *mat_opts);

/* Fiber geometry of OpenSees' patches and layers (fe_section_geometry.c): each writes up to cap
 * fibers (y, z, A) and returns how many it makes (or -1 with a message in ctx for a bad shape).
 * quad: the four corners I J K L counterclockwise, nij cells along I-J and njk along J-K, each
 * cell's fiber at its centroid with its area (OpenSees' QuadPatch / QuadCell); rect: the quad with
 * corners (yI, zI) and (yJ, zJ) opposite; circ: nc cells around and nr across the ring
 * ri..re between the angles a0..a1 (degrees), each a quadrilateral of chords (CircPatch); straight
 * layer: n bars of area A evenly from (y0, z0) to (y1, z1) (one bar: halfway); circular layer: n
 * bars on the arc, with a whole circle's last bar one step short of the first. */
int hs_fe_patch_quad(hs_ctx *ctx, int nij, int njk, const double yz[8], double *y, double *z,
                     double *A, int cap);
int hs_fe_patch_rect(hs_ctx *ctx, int ny, int nz, double yi, double zi, double yj, double zj,
                     double *y, double *z, double *A, int cap);
int hs_fe_patch_circ(hs_ctx *ctx, int nc, int nr, double yc, double zc, double ri, double re,
                     double a0, double a1, double *y, double *z, double *A, int cap);
int hs_fe_layer_straight(hs_ctx *ctx, int n, double area, double y0, double z0, double y1,
                         double z1, double *y, double *z, double *A, int cap);
int hs_fe_layer_circ(hs_ctx *ctx, int n, double area, double yc, double zc, double r, double a0,
                     double a1, int whole, double *y, double *z, double *A, int cap);

/* Beam-columns with sections (OpenSees forceBeamColumn and dispBeamColumn; 2-D and 3-D;
 * docs/fe_model.md, "Beam-columns with sections"). A section is described once and instantiated at
 * each integration point with its own material states. The material options are borrowed: they must
 * outlive the description. */
typedef struct hs_fe_section_def hs_fe_section_def;
int hs_fe_section_def_create(hs_ctx *ctx, int ndm, hs_fe_section_def **out);
void hs_fe_section_def_destroy(hs_fe_section_def **d);
/* A fiber at (y, z) of area A (OpenSees `fiber`; patches and layers give many). */
int hs_fe_section_def_fiber(hs_fe_section_def *d, double y, double z, double A,
                            const char *mat_type, const hs_options *mat_opts);
/* An elastic part (OpenSees `section Elastic`): EA, EIz (3-D: EIy, GJ). */
int hs_fe_section_def_elastic(hs_fe_section_def *d, double EA, double EIz, double EIy, double GJ);
/* 3-D fiber sections: -GJ. */
int hs_fe_section_def_torsion(hs_fe_section_def *d, double GJ);
/* A uniaxial material on one resultant (OpenSees' codes: 1 Mz, 2 P, 3 Vy, 4 My, 5 Vz, 6 T;
 * `section Uniaxial`, `section Aggregator`). */
int hs_fe_section_def_uniaxial(hs_fe_section_def *d, int code, const char *mat_type,
                               const hs_options *mat_opts);
/* Adds everything of src to d (OpenSees' section Aggregator -section). */
int hs_fe_section_def_append(hs_fe_section_def *d, const hs_fe_section_def *src);
/* A section whose axial resultant P is linear (elastic materials only): 1 and its axial
 * stiffness EA (the initial tangent's P-P term, about the area centroid); 0 when P is absent or
 * some material is nonlinear; a negative error. OpenSees' truss of a section (TrussSection). */
int hs_fe_section_def_axial(const hs_fe_section_def *d, double *EA);
/* A section whose axial resultant is one uniaxial material: on P alone (section Uniaxial,
 * Aggregator without fibers), or fibers all of the same material (at one axial strain they carry
 * sigma(eps) times their total area); 1 with the material (lent) and the area it acts on (1 for a
 * resultant), else 0. */
int hs_fe_section_def_axial_material(const hs_fe_section_def *d, const char **type,
                                     const hs_options **opts, double *A);
/* The section's order (resultants) once complete, or a negative error. */
int hs_fe_section_def_check(hs_fe_section_def *d);

typedef struct hs_fe_beam_column_def {
    int force_based;         /* 1: forceBeamColumn, 0: dispBeamColumn, 2: forceBeamColumnCBDI */
    const char *integration; /* OpenSees' beamIntegration: "Lobatto", "Legendre", "Radau",
                                "NewtonCotes", "UserDefined", "HingeRadau", "HingeRadauTwo",
                                "HingeEndpoint" */
    int npoints;             /* Gauss-type and NewtonCotes rules; UserDefined: with xi, w */
    double lpI, lpJ;         /* hinge rules */
    const double *xi, *w;    /* UserDefined: points in [0, 1] from node i, weights */
    /* the element's section, or for the hinge rules [hinge I, interior, hinge J]; a NULL
     * interior or J takes the first one; UserDefined may give one per point (sec_per_point) */
    const hs_fe_section_def *sec[3];
    const hs_fe_section_def *const *sec_per_point; /* UserDefined: npoints of them, or NULL */
    int max_iter;                                  /* force-based: 0 = OpenSees' 10 */
    double tol;                                    /* force-based: 0 = OpenSees' 1e-12 */
    double vecxz[3]; /* 3-D: the geomTransf's vector in the local x-z plane (hs_fe_add_beam_3d) */
} hs_fe_beam_column_def;
/* The element's index, or a negative error. */
int hs_fe_add_beam_column(hs_fe *fe, const char *name, int ni, int nj,
                          const hs_fe_beam_column_def *def, hs_fe_transf transf);
/* Zero-length section (OpenSees `element zeroLengthSection tag i j secTag <-orient x1 x2 x3 yp1
 * yp2 yp3>`; ndm 2 with ndf 3 or ndm 3 with ndf 6): the section's deformations are the nodes'
 * relative displacements in local axes x (NULL: global X) and y in the plane of x and yp (NULL:
 * global Y): P along x, Vy along y, Vz along z = x x yp, Mz, My, T the relative rotations about
 * z, y, x (src/fe/fe_zero_length_section.c). The element's index, or a negative error. */
int hs_fe_add_zero_length_section(hs_fe *fe, const char *name, int ni, int nj,
                                  const hs_fe_section_def *sec, const double *x, const double *yp);
/* Force-based elements' state determination: iterations of all elements so far, the largest
 * count in one call, and the calls. */
void hs_fe_beam_column_iterations(const hs_fe *fe, long *total, int *largest, long *calls);

/* Two-node link (OpenSees twoNodeLink) in every model (1-D; 2-D with ndf 2 or 3; 3-D with ndf 3
 * or 6): one uniaxial material per basic direction, the deformations being the relative
 * displacements of the end nodes in the element's local frame (src/fe/fe_link.c,
 * docs/fe_model.md). A direction is a node DOF index read in the local axes: 2-D HS_FE_UX
 * (axial), HS_FE_UY (shear), HS_FE_RZ (moment); 3-D HS_FE3_UX (axial), _UY, _UZ (shears along
 * local y, z), _RX (torsion), _RY, _RZ (moments about local y, z); 1-D HS_FE_UX. */
#define HS_FE_LINK_MAX_DIRS 6
typedef struct hs_fe_link_def {
    int ndir;                                  /* 1 .. number of DOFs per node */
    int dirs[HS_FE_LINK_MAX_DIRS];             /* local directions (node DOF indices) */
    const char *mat_type[HS_FE_LINK_MAX_DIRS]; /* material type and options per direction */
    const hs_options *mat_opts[HS_FE_LINK_MAX_DIRS];
    int has_orient;    /* 0: local x along the chord i -> j (global X when the nodes coincide,
                          and always in 1-D) */
    double orient[3];  /* local x in global components (OpenSees -orient x1 x2 x3 ...) */
    double shear_dist; /* centre of the shear from node i as a fraction of the length
                          (OpenSees -shearDist; 3-D: along local y); 0.5 by default */
    double mass;       /* element mass, half lumped at each node's translations (-mass) */
    /* 3-D: the vector y' of the local x-y plane (z = x x y', y = z x x; OpenSees -orient ...
     * yp1 yp2 yp3); without it OpenSees' default: global Y, or -X when local x is along +Y, +X
     * when along -Y */
    int has_yp;
    double yp[3];
    double shear_dist_z; /* 3-D: the shear distance along local z (0.5 by default) */
    /* OpenSees -pDelta: the P-Delta moment N delta shared by end moments about local y (i, j)
     * and z (i, j), the rest carried by the shear couple; each >= 0, each pair's sum <= 1. Needs
     * the axial direction (N its basic force); 2-D uses the two about z. */
    int has_p_delta;
    double p_delta[4]; /* [My_i, My_j, Mz_i, Mz_j] ratios */
    /* The bearings' P-Delta (2-D, ndf 3, with has_p_delta; OpenFresco's EEBearing2d, OpenSees'
     * ElastomericBearingPlasticity2d): besides the terms above, the end moments
     * +- p_delta_rot N (s L rz_i - (1 - s) L rz_j) (+ at i, - at j; s the shear distance), and a
     * tangent that keeps N fixed (their addPDeltaStiff: no change of N with the axial
     * deformation). EEBearing2d p_delta_rot 1, ElastomericBearingPlasticity2d 0.5. */
    int p_delta_bearing;
    double p_delta_rot;
    /* A given stiffness per direction (EEBearing2d's -initStif on its shear): direction k's
     * initial and tangent stiffness is k_dir[k] instead of its material's when has_k_dir[k]; its
     * force stays the material's. */
    int has_k_dir[HS_FE_LINK_MAX_DIRS];
    double k_dir[HS_FE_LINK_MAX_DIRS];
    /* A given stiffness (an OpenFresco experimental element's -initStif): kb, nk x nk
     * column-major, over the basic deformations of the directions kdirs read with the shear
     * distances k_shear_dist (and k_shear_dist_z in 3-D), is the link's initial stiffness
     * K = Bk^T kb Bk, and its tangent too when k_tangent; the force stays the materials'. nk 0:
     * none (the materials' stiffness). */
    int nk;
    int kdirs[HS_FE_LINK_MAX_DIRS];
    double k_shear_dist, k_shear_dist_z;
    double kb[HS_FE_LINK_MAX_DIRS * HS_FE_LINK_MAX_DIRS];
    int k_tangent;
    /* A scaled specimen (an OpenFresco setup's similitude factors): per direction the material
     * takes disp_factor ub and vel_factor vb, and the link's force is force_factor times its
     * stress (tangent disp_factor force_factor k); the recorders' deformation and basic force
     * stay the link's (ub; force_factor stress). 1 by default; disp and force factors nonzero. */
    double disp_factor[HS_FE_LINK_MAX_DIRS], vel_factor[HS_FE_LINK_MAX_DIRS];
    double force_factor[HS_FE_LINK_MAX_DIRS];
    /* An experimental setup between the link's directions and its materials (an OpenFresco
     * expSetup with actuators, docs/openfresco.md; NULL: none). Direction k is the setup's
     * control DOF k (the platform's pose), material i its actuator i (nact == ndir): the
     * material takes the stroke x_i(ub) and the link's basic forces are the actuator forces'
     * resultant (include/hysim/setup.h; src/fe/fe_link_setup.c). Copied at hs_fe_add_link. */
    const struct hs_setup_geometry *setup;
    /* OpenFresco's generic element (EEGeneric: basic DOFs are listed DOFs of its nodes, their
     * absolute displacements): with `absolute`, direction k's basic deformation is node DOF
     * dirs[k] of node i (dir_node[k] 0) or j (1) in global axes, and the given stiffness's kdirs
     * likewise with kdir_node; up to HS_FE_LINK_MAX_DIRS of each, no orient, no P-Delta. */
    int absolute;
    int dir_node[HS_FE_LINK_MAX_DIRS], kdir_node[HS_FE_LINK_MAX_DIRS];
    /* OpenFresco's experimental beam-column (EEBeamColumn2d; 2-D, ndf 3; src/fe/fe_link_beam.c):
     * with exp_beam, the given stiffness (nk 3 over x, y, rz: -initStif in its basic system B,
     * the cantilever fixed at node i) and the directions' materials (the site's specimens on
     * B's DOFs) act through the transformation beam_transf (Linear, PDelta or Corotational),
     * with EEBeamColumn2d's elastic axial force where the specimens give none. In 3-D (ndf 6;
     * EEBeamColumn3d, src/fe/fe_link_beam3.c): beam_transf Linear, PDelta or Corotational (B from
     * its A by EEBeamColumn3d's linear map), nk 6 over HS_FE3_UX, UY, RZ, UZ, RY, RX (B: axial,
     * shear y at node j, rz, shear z at node j, ry, torsion) with its inter-block couplings zero,
     * shear distances 1 (shear_dist, shear_dist_z, k_shear_dist, k_shear_dist_z), the directions
     * the driven DOFs of B; the elastic axial force and torsion (kb00 db0, kb55 db5) where the
     * specimens give none. */
    int exp_beam;
    hs_fe_transf beam_transf;
    /* An experimental control's signal filters (OpenFresco's expControl -ctrlFilters and
     * -daqFilters, by response type HS_SF_DISP ..; include/hysim/signal_filter.h), the link's own
     * copies; type HS_SF_NONE: none. ctrl_filter DISP and VEL filter the commands its materials
     * take (disp_factor ub, vel_factor vb; ECSimUniaxialMaterials::setTrialResponse), daq_filter
     * DISP and FORCE their measured strain and stress (::getDaqResponse: the link's deformation
     * and force). As OpenFresco's EETwoNodeLink::update, a new command goes out only when the
     * basic deformations moved by more than DBL_EPSILON since the link's last trial state, and
     * the measurement is filtered once per command, and once at rest before the first. A link
     * without setup and not exp_beam. */
    hs_signal_filter ctrl_filter[HS_SF_RESPONSES], daq_filter[HS_SF_RESPONSES];
} hs_fe_link_def;
/* OpenSees' defaults: no direction, no orient, shear distances 0.5, no mass. */
void hs_fe_link_def_init(hs_fe_link_def *def);
/* The element creates its materials from (mat_type[k], mat_opts[k]) and owns them. */
int hs_fe_add_link(hs_fe *fe, const char *name, int ni, int nj, const hs_fe_link_def *def);

/* An experimental link's last commands before its signal filters (OpenFresco's ctrlDisp: the
 * basic deformations it was sent) into out (one per direction) when link e has a filter, and 1;
 * else 0 and out untouched (its deformation is its command). */
int hs_fe_link_command(const hs_fe *fe, int e, double *out);
/* A link's specimen elsewhere (an OpenFresco script's experimental element on a networked site,
 * src/opensees/opensees_tcl_exp_remote.c): every trial state of the link whose basic deformations
 * moved by more than DBL_EPSILON since its last one (as OpenFresco's elements; the whole basic
 * system B of an experimental beam-column) sends its basic deformations ub and rates vb (n values
 * each, at the model's clock time t) and takes back its basic forces q (an unmoved one keeps the
 * last q); a commit of the model accepts the last trial (commit). The link then needs its
 * given stiffness (hs_fe_link_def nk > 0), its tangent and initial stiffness, as OpenFresco's
 * elements answer their -initStif; its materials are not used. `user` is lent, `id` is passed
 * back. An experimental beam-column (hs_fe_link_def exp_beam) sends the deformations of its
 * directions in its basic system B and takes their forces (its stiffness is its kb). Not for a
 * link through a setup. */
typedef struct hs_fe_specimen {
    void *user;
    int id;
    int (*trial)(void *user, int id, int n, const double *ub, const double *vb, double t,
                 double *q);
    int (*commit)(void *user, int id);
} hs_fe_specimen;
int hs_fe_link_set_specimen(hs_fe *fe, int e, const hs_fe_specimen *s);

/* Member loads (OpenSees `eleLoad -ele e -type -beamUniform wy <wz> <wx>` and `-beamPoint Py <Pz>
 * xL <Px>`; src/fe/fe_member_load.c, docs/fe_model.md "Member loads and releases") on an elastic
 * beam or a beam-column with sections (linear or P-Delta transformation; 2-D also corotational):
 * in the element's local axes, a load per length (uniform) or a force at xL L from node i (point;
 * 0 <= xL <= 1); 2-D models ignore z. As OpenSees' elements: the elastic beam and the
 * displacement-based beam-column carry the fixed-end forces of the elastic beam (with its end
 * releases), the force-based one the member load's section forces in its equilibrium (Spacone,
 * Filippou & Taucer 1996); both add the reactions of the simply supported member to the end
 * shears and the axial force at i. Each load acts times its group's factor (1 until set: the load
 * pattern's factor at the time of the analysis). */
typedef struct hs_fe_member_load {
    int point;      /* 0: uniform (per length), 1: point */
    double y, z, x; /* local components: wy wz wx, or Py Pz Px */
    double xL;      /* point: its place from node i over the length */
    /* uniform: the loaded part from a L to b L (0 <= a < b <= 1; a = b = 0: the whole member;
     * OpenSees' partial uniform load, not on a displacement-based beam-column) */
    double a, b;
    /* 2-D uniform: varying linearly to wyb, wxb at b L (vary 1; OpenSees' Beam2dPartialUniformLoad
     * trapezoid), else constant */
    int vary;
    double yb, xb;
} hs_fe_member_load;
/* Adds ld to element e (its index) in `group` (>= 0; e.g. its load pattern): the load's index
 * (>= 0), or a negative HS_E code (before hs_fe_finalize). */
int hs_fe_add_member_load(hs_fe *fe, int e, int group, const hs_fe_member_load *ld);
int hs_fe_member_load_count(const hs_fe *fe);
/* Every member load of `group` acts times factor from now on. */
void hs_fe_member_load_scale(hs_fe *fe, int group, double factor);
/* Moment releases of elastic beam e (OpenSees elasticBeamColumn -release / -releasez about local
 * z, -releasey about local y in 3-D): 0 none, 1 at node i, 2 at node j, 3 both; the end moment is
 * zero and the stiffness condensed (3 EI / L at the other end). Before hs_fe_finalize. */
int hs_fe_set_beam_release(hs_fe *fe, int e, int release_z, int release_y);

/* Keeps node DOF `dir` (0-based node DOF index) of node `id` dynamic even without mass (an
 * experimental element's control point: the integrators that take DOFs without mass see it with
 * zero mass instead of condensing it; docs/integrators.md, "Experimental DOFs without mass"). An
 * equal_dof or rigid slave keeps the DOFs it follows. Before hs_fe_finalize. */
int hs_fe_keep_dof(hs_fe *fe, int id, int dir);
/* Numbers the DOFs: fixed, constrained (slaves), dynamic (mass > 0 or kept), condensed. Refuses a
 * model with no DOF with mass, a constrained DOF that is fixed, chains of slaves. */
int hs_fe_finalize(hs_fe *fe);

int hs_fe_ndof(const hs_fe *fe);          /* dynamic DOFs (the integrators' n) */
int hs_fe_condensed(const hs_fe *fe);     /* condensed (massless) DOFs */
int hs_fe_kept_massless(const hs_fe *fe); /* dynamic DOFs without mass (hs_fe_keep_dof) */
int hs_fe_node_count(const hs_fe *fe);
int hs_fe_node_id(const hs_fe *fe, int k);
/* The dynamic DOF index of (node id, dir), or a negative code: HS_FE_FIXED, HS_FE_CONDENSED,
 * HS_FE_NO_NODE, HS_FE_CONSTRAINED (a rigid slave: a combination of the master's DOFs). An
 * equal_dof slave answers its master's. */
#define HS_FE_FIXED       (-1)
#define HS_FE_CONDENSED   (-2)
#define HS_FE_NO_NODE     (-3)
#define HS_FE_CONSTRAINED (-4)
int hs_fe_dof(const hs_fe *fe, int id, int dir);
/* The row of T of (node id, dir) over the dynamic DOFs: u(id, dir) = row . d (row: n values).
 * Returns 0, or HS_FE_NO_NODE, HS_FE_FIXED (no free term), HS_FE_CONDENSED (a term is a massless
 * DOF). A control point on a rigid slave gets its actuator transformation from this. */
int hs_fe_dof_row(const hs_fe *fe, int id, int dir, double *row);
/* "n3_ux" for dynamic DOF i, into buf: the column name of the results (docs/outputs.md), as the
 * node recorders name their columns. */
const char *hs_fe_dof_column(const hs_fe *fe, int i, char *buf, size_t cap);
/* Distributed mass of truss or beam e (the index its add function returned): rho per length,
 * lumped (rho L / 2 on each node's translations) or consistent (OpenSees -cMass); 2-D models;
 * before hs_fe_finalize. docs/fe_model.md, "Mass". */
int hs_fe_set_element_mass(hs_fe *fe, int e, double rho, int consistent);
/* The mass of the dynamic DOFs: its diagonal (n), the whole matrix (n x n, column-major), and
 * whether it is diagonal (no consistent element mass couples two dynamic DOFs). T^T M T through
 * the DOFs' maps. With consistent
 * beam mass the rotations carry mass and become dynamic DOFs. */
void hs_fe_mass(const hs_fe *fe, double *mass);
void hs_fe_mass_matrix(const hs_fe *fe, double *M);
int hs_fe_mass_is_lumped(const hs_fe *fe);
/* The ground influence of a uniform excitation in direction dir (n; a translation: 0 = x, 1 = y,
 * 2 = z). */
void hs_fe_influence(const hs_fe *fe, int dir, double *iota);

int hs_fe_is_linear(const hs_fe *fe);
int hs_fe_is_rate_dependent(const hs_fe *fe);
/* Condensed initial stiffness (n x n, dense column-major), ADDED to K. */
int hs_fe_initial_stiffness(hs_fe *fe, double *K);
/* Condensed trial restoring force at dynamic displacement d and velocity v (v may be NULL),
 * ADDED to r (n), and the condensed tangents added to Kt, Ct (n x n dense) when not NULL.
 * Velocities of condensed DOFs are taken as zero. Never allocates. */
int hs_fe_restore(hs_fe *fe, const double *d, const double *v, double *r, double *Kt, double *Ct);
/* The half-bandwidth of the tangents of a frame without condensed DOFs (its sparse pattern's
 * largest |i - j|), or -1 when some DOF is condensed. */
int hs_fe_tangent_band(hs_fe *fe);
/* hs_fe_restore with Kt, Ct in packed band storage of half-bandwidth kd (>= hs_fe_tangent_band;
 * linalg.h, HS_BAND_AT), for a frame without condensed DOFs: small frames take a banded solver. */
int hs_fe_restore_band(hs_fe *fe, const double *d, const double *v, double *r, double *Kt,
                       double *Ct, int kd);
int hs_fe_commit(hs_fe *fe);
/* After a commit: the nodes move to dynamic displacements d without an element update (OpenSees'
 * NewmarkHSFixedNumIter::commit). Until the next restore, commit or revert, the elastic beams
 * (OpenSees' ElasticBeam2d/3d update their transformation when asked for their force) answer
 * their recorded global force at d, the other elements at their committed state; dr (n) gets
 * the change of the restoring force that makes (src/fe/fe_move_nodes.c). */
int hs_fe_move_nodes(hs_fe *fe, const double *d, double *dr);
/* After hs_fe_move_nodes: adds to K (the last restore's tangent: sparse 1, values over
 * hs_fe_sparse_pattern's pattern; 0, dense n x n, column-major) the change of the tangents of
 * the elements that answer at the moved nodes (OpenSees' next Newton tangent is formed after the
 * unbalance that updated their transformations: ElasticBeam2d's, OpenFresco's EEBeamColumn2d's
 * -initStif with the geometric stiffness of its last basic forces); the others keep their last
 * update's. Nothing when the nodes did not move; HS_EUNSUPPORTED dense with condensed DOFs. */
int hs_fe_moved_tangent(hs_fe *fe, double *K, int sparse);
/* 1 after hs_fe_move_nodes until the next restore, commit or revert; settle 1: the elements are
 * taken as they answer there (the restoring force hs_fe_move_nodes gave, the caller's), and
 * their recorded forces are their own state's again. */
int hs_fe_nodes_moved(hs_fe *fe, int settle);
/* The condensed restoring force at the last commit (n, lent; zero before the first). */
const double *hs_fe_committed_force(const hs_fe *fe);
int hs_fe_revert(hs_fe *fe);
/* Committed displacement of (node id, dir) (condensed and constrained DOFs included; a moving
 * support's at the time last set, hs_fe_support_set_time). */
double hs_fe_node_displacement(const hs_fe *fe, int id, int dir);
/* The trial displacement (order 0) or velocity (order 1) of (node id, dir) at the last restore:
 * the nodes the elements were last updated at (OpenFresco's dbCtrl, vbCtrl of EEGeneric.cpp),
 * which NewmarkHSFixedNumIter's commit leaves behind when it moves the nodes
 * (hs_fe_move_nodes). */
double hs_fe_node_trial(const hs_fe *fe, int id, int dir, int order);

int hs_fe_element_count(const hs_fe *fe);
const char *hs_fe_element_name(const hs_fe *fe, int e);
/* The material of a zero-length element (lent), or NULL for other elements; for a two-node link
 * the material of its first direction. */
hs_material *hs_fe_element_material(const hs_fe *fe, int e);
/* The k-th material of element e (zero-length: k = 0; link: one per direction), or NULL. */
hs_material *hs_fe_element_material_at(const hs_fe *fe, int e, int k);

/* Multi-support excitation (OpenSees' MultipleSupport pattern; docs/fe_model.md): the fixed DOF
 * (node id, dir) follows its own history, npts samples at dt, of displacement (velocity and
 * acceleration by central differences) or of acceleration (integrated from rest by the trapezoidal
 * rule); linear between samples, held at the last displacement after the end. After
 * hs_fe_finalize. The response is then in total displacements: the elements see the supports'
 * displacements and velocities, the load on the dynamic DOFs is -(M_fs a_s + C_fs v_s). */
enum { HS_FE_MOTION_DISPLACEMENT = 0, HS_FE_MOTION_ACCELERATION = 1 };
int hs_fe_add_support_motion(hs_fe *fe, int id, int dir, int kind, const double *values,
                             size_t npts, double dt);
int hs_fe_support_count(const hs_fe *fe);
/* Once every support motion is added: the condensed coupling of the dynamic DOFs to the supports
 * (stiffness, mass). Allocates; not in the step loop. */
int hs_fe_support_prepare(hs_fe *fe);
/* Moves every support to time t: the restores that follow see the supports there. */
void hs_fe_support_set_time(hs_fe *fe, double t);
/* Adds -(M_fs a_s + (a0 M_fs + a1 K_fs) v_s) at the time set to f (n); a0, a1 the Rayleigh
 * coefficients of the damping (C = a0 M + a1 K0). Never allocates. */
int hs_fe_support_load(const hs_fe *fe, double a0, double a1, double *f);
/* Support motion k's displacement at the time set. */
double hs_fe_support_displacement(const hs_fe *fe, int k);

/* Recorder queries of the committed state (src/fe/fe_query.c; docs/outputs.md "Recorders").
 * Nodes are addressed by id and DOF index (0 <= dof < hs_fe_node_ndf). None allocates. */
int hs_fe_node_ndf(const hs_fe *fe, int id); /* DOFs of the node (3 in 2-D), or HS_FE_NO_NODE */
/* Coordinate `axis` (0 = x, 1 = y, 2 = z; < ndm) of node id into *x; HS_FE_NO_NODE when there
 * is none. */
int hs_fe_node_coord(const hs_fe *fe, int id, int axis, double *x);
/* Retained equations (dynamic + condensed), the vector hs_fe_expand fills. */
int hs_fe_equation_count(const hs_fe *fe);
/* The map of node DOF (id, dof) over the retained equations (its row of u = T u_r): u(id, dof) =
 * sum c[t] u[eq[t]], t < n. A free DOF is (its equation, 1), an equal_dof slave its master's, a
 * rigid slave (diaphragm, link) the master's DOFs with their lever arms; n = 0: a fixed DOF (or
 * one whose master is fixed, or a moving support). Returns 0 or HS_FE_NO_NODE. hs_fe_map_value
 * evaluates it on an hs_fe_expand vector (no allocation). */
#define HS_FE_MAP_TERMS 3
typedef struct hs_fe_dof_map {
    int n;
    int eq[HS_FE_MAP_TERMS];
    double c[HS_FE_MAP_TERMS];
} hs_fe_dof_map;
int hs_fe_node_map(const hs_fe *fe, int id, int dof, hs_fe_dof_map *out);
double hs_fe_map_value(const hs_fe_dof_map *m, const double *u);
/* 1 when (id, dof) is fixed (a support), 0 when not, HS_FE_NO_NODE. */
int hs_fe_node_fixed(const hs_fe *fe, int id, int dof);
/* Every retained equation's value (out, hs_fe_equation_count) from the dynamic DOFs' x (n):
 * order 0 displacements (condensed DOFs: their committed displacement), 1 velocities or 2
 * accelerations (condensed DOFs: x_0 = -K00^-1 K0m x with the tangent of the last restore, the
 * derivative of the condensation). */
int hs_fe_expand(hs_fe *fe, int order, const double *x, double *out);
/* Element responses at the last commit, in OpenSees' terms (docs/outputs.md "Recorders"):
 *  - global force (`force`): the element's resisting force at its two nodes, ndf values per node
 *    in the node's DOF order (2-D: [Fx Fy Mz]_i,j; 3-D: [Fx Fy Fz Mx My Mz]_i,j; P-Delta terms
 *    included);
 *  - local force (`localForce`, line elements): 2-D [N V M]_i,j; 3-D [N Vy Vz T My Mz]_i,j
 *    (ElasticBeam3d's; a truss has its N only); a two-node link's T_lb^T q, ndf per node;
 *  - basic force (`basicForce`): 2-D beam [N M_i M_j]; 3-D beam [N Mz_i Mz_j My_i My_j T]; truss
 *    [N]; zero-length [F]; two-node link one per direction;
 *  - basic deformation (`basicDeformation`), the same components: elongation and end rotations
 *    relative to the chord (3-D: about local z, then local y, then the twist); zero-length
 *    [u_j - u_i]; two-node link one per direction;
 *  - a truss's strain (elongation / L).
 * Basic and local forces are those of the element's deformation (the gravity `axial_compression`
 * and the P-Delta terms are not in them, as OpenSees' basic system). */
typedef enum hs_fe_response {
    HS_FE_GLOBAL_FORCE,
    HS_FE_LOCAL_FORCE,
    HS_FE_BASIC_FORCE,
    HS_FE_DEFORMATION,
    HS_FE_STRAIN,
    HS_FE_TFP_COMP_DISPLACEMENT, /* TripleFrictionPendulumX `compDisplacement` (12) */
    HS_FE_TFP_PARAMETERS         /* TripleFrictionPendulumX `Parameters` (20) */
} hs_fe_response;
int hs_fe_element_index(const hs_fe *fe, const char *name); /* -1 when there is none */
const char *hs_fe_element_type(const hs_fe *fe, int e);     /* truss, elastic_beam, zero_length,
                                                               two_node_link */
int hs_fe_element_dof(const hs_fe *fe, int e); /* a zero-length element's DOF index, else -1 */
/* Direction k of two-node link e: a node DOF index read in the link's local axes; else -1. */
int hs_fe_link_direction(const hs_fe *fe, int e, int k);
/* The frame's springs as the results record them (docs/outputs.md, "Springs of a frame"): one
 * column a zero-length element and a direction of a two-node link, in element order; the first
 * `max` into el[k] (the element) and comp[k] (its basic component; either may be NULL). Returns
 * the count of all of them (more than max when some are left out). */
int hs_fe_spring_columns(const hs_fe *fe, int max, int *el, int *comp);
/* The springs a run records at most (the first in element order; recorders record any other). */
#define HS_FE_SPRINGS_RECORDED 256
/* Values of response r of element e (0: the element has no such response). */
int hs_fe_element_response_size(const hs_fe *fe, int e, hs_fe_response r);
int hs_fe_element_response(hs_fe *fe, int e, hs_fe_response r, double *out);
/* An experimental link's rates for OpenFresco's recorders (EETwoNodeLink, EETruss, EEGeneric
 * getResponse), one per direction: vb its last trial's basic velocities (vbCtrl), ab = B a with
 * a the dynamic DOFs' accelerations the caller gives (abCtrl: the nodes' trial accelerations at
 * that update; a moving support's taken as 0), rate its materials' trial deformation rates over
 * the velocity factors. Returns the number of directions; an experimental beam-column's over its
 * basic system B (3: EEBeamColumn2d's vbCtrl, abCtrl through its transformation, the rates on the
 * DOFs its site drives, 0 elsewhere). HS_EINVAL for another element, a 3-D beam-column, a link
 * through a setup with actuator geometry or with a specimen elsewhere. */
int hs_fe_link_rates(const hs_fe *fe, int e, const double *a, double *vb, double *ab, double *rate);
/* An OpenFresco experimental beam-column (hs_fe_link_def exp_beam): its whole basic system B at
 * the last trial state, b = [db0 db1 db2, vb0 vb1 vb2, qb0 qb1 qb2] (axial, shear at node j,
 * rotation; qb with EEBeamColumn2d's elastic axial force), and which of B's DOFs its site drives
 * (driven[k] 1). HS_EINVAL for another element. */
int hs_fe_exp_beam_basic(const hs_fe *fe, int e, double b[9], int driven[3]);
/* The 3-D one (EEBeamColumn3d, Linear; src/fe/fe_link_beam3.c): b = [db, vb, qb] over B's six
 * DOFs (axial, shear y at node j, rz, shear z at node j, ry, torsion; qb with the elastic axial
 * force and torsion where the site gives none), driven[p] 1 where its site drives DOF p. */
int hs_fe_exp_beam3_basic(const hs_fe *fe, int e, double b[18], int driven[6]);
/* A beam-column's section at integration point `point` (1 from node i, OpenSees' `section N`):
 * its committed resultants (deformation 0: P, Mz, ... in the section's order) or deformations
 * (1); at most cap values, their count returned; HS_EINVAL for another element or point. */
int hs_fe_section_response(const hs_fe *fe, int e, int point, int deformation, double *out,
                           int cap);
/* The force-based beam-columns' element state determination (Spacone, Filippou & Taucer 1996)
 * since the model was built: how many such elements, the calls that iterated (a trial whose basic
 * deformations did not move runs none), the iterations in all, the most of one call (all its
 * attempts), and the elements' tolerance on the work (the largest) and maxIters (the largest).
 * elements 0: the model has none. */
typedef struct hs_fe_iterations {
    int elements;
    long calls, iterations;
    int most, max_iter;
    double tol;
} hs_fe_iterations;
void hs_fe_force_based_iterations(const hs_fe *fe, hs_fe_iterations *out);
/* Reaction at the fixed DOF (id, dof): the sum of the committed global forces of the elements
 * at that node (OpenSees `reactions` without -dynamic: no inertia or damping of a supported mass).
 * HS_EINVAL when the DOF is not fixed. */
int hs_fe_reaction(hs_fe *fe, int id, int dof, double *out);
/* The sparse path (docs/fe_model.md, "Large frames"), for a frame without condensed DOFs (every
 * free DOF carries mass; HS_EUNSUPPORTED with a message otherwise). The pattern of the stiffness
 * over the dynamic DOFs (n x n, its diagonal included; lent), built at the first call with each
 * element's slots in it (allocates; nothing after). */
struct hs_csc;
int hs_fe_sparse_pattern(hs_fe *fe, const struct hs_csc **out);
/* The initial stiffness as values of that pattern (nnz), ADDED to val. */
int hs_fe_initial_stiffness_sparse(hs_fe *fe, double *val);
/* hs_fe_restore with the tangents as values of the pattern, but WRITING r (n), Kt (when not
 * NULL) and Ct (when not NULL and some material is rate-dependent; otherwise Ct is left as it
 * is: zero it once). Never allocates. */
int hs_fe_restore_sparse(hs_fe *fe, const double *d, const double *v, double *r, double *Kt,
                         double *Ct);
/* The same, writing Kt and Ct only at the positions of the nonlinear elements' entries (those
 * hs_fe_sparse_dynamics lists as dyn->tangent_var): the others keep a full restore's values. */
int hs_fe_restore_sparse_var(hs_fe *fe, const double *d, const double *v, double *r, double *Kt,
                             double *Ct);
/* The frame's matrices in compressed columns: M (lumped: diagonal; consistent: its nonzeros), K0
 * and C = a0 M + a1 K0 (Rayleigh; NULL when a0 = a1 = 0), owned here (hs_fe_matrices_free). */
typedef struct hs_fe_matrices {
    struct hs_csc *M, *C, *K0;
} hs_fe_matrices;
void hs_fe_matrices_free(hs_fe_matrices *mats);
/* Builds mats and the integrators' sparse view of the frame in dyn (dyn->Ms, Cs, K0s and the
 * tangent pattern; restore and commit on the frame; M, C, K0 NULL: nothing n x n). */
struct hs_dynamics;
int hs_fe_sparse_dynamics(hs_fe *fe, double a0, double a1, hs_fe_matrices *mats,
                          struct hs_dynamics *dyn);

/* Committed state (condensed displacements, materials) for checkpoints. */
size_t hs_fe_state_size(const hs_fe *fe);
int hs_fe_state_save(const hs_fe *fe, double *out);
int hs_fe_state_load(hs_fe *fe, const double *in);
/* The committed state of each of dst's elements taken from src's element of the same name (a
 * model of some of src's elements, built the same way): their materials' history. */
int hs_fe_copy_element_states(hs_fe *dst, const hs_fe *src);

#ifdef __cplusplus
}
#endif
#endif
