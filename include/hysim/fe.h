/* hysim 2-D frame model: nodes with 3 DOFs (ux, uy, rz), fixities, nodal masses, equal-DOF
 * constraints by transformation, and elements (truss, elastic beam-column with linear, P-Delta or
 * corotational transformation, zero-length springs and two-node links with any uniaxial
 * material); lumped or consistent element mass; uniform or multi-support excitation.
 * docs/fe_model.md.
 *
 * The model's dynamic DOFs are the free, retained DOFs that carry mass; every other retained DOF
 * (typically beam rotations under lumped mass) is condensed statically: at each restore its
 * displacement solves r_0(d, d_0) = 0 by Newton, and the tangent seen by the integrator is the
 * Schur complement Kmm - Km0 K00^-1 K0m. So every integrator (explicit ones included) sees a
 * positive definite mass (diagonal when lumped). Matrices are dense now; the sparse path (issue 10
 * section 2) plugs in at the assembly (fe_assemble.c). Node ids are the user's (any positive
 * integers); DOF indices 0-based. */
#ifndef HYSIM_FE_H
#define HYSIM_FE_H

#include "hysim/base.h"
#include "hysim/material.h"
#include "hysim/options.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hs_fe hs_fe;

enum { HS_FE_UX = 0, HS_FE_UY = 1, HS_FE_RZ = 2 };

/* Geometric transformations: linear; P-Delta (OpenSees PDeltaCrdTransf2d); corotational (exact
 * rigid-body motion of the chord, small strains in the element frame: Crisfield 1991, ch. 7). */
typedef enum hs_fe_transf {
    HS_FE_LINEAR = 0,
    HS_FE_PDELTA = 1,
    HS_FE_COROTATIONAL = 2
} hs_fe_transf;

int hs_fe_create(hs_ctx *ctx, hs_fe **out);
void hs_fe_destroy(hs_fe **fe);

/* Definition (before hs_fe_finalize). Errors name the node or element. */
int hs_fe_add_node(hs_fe *fe, int id, double x, double y);
int hs_fe_fix(hs_fe *fe, int id, const int fix[3]);       /* 1 = restrained */
int hs_fe_add_mass(hs_fe *fe, int id, const double m[3]); /* adds mx, my, mrz (>= 0) */
/* DOFs dofs[k] = 1 of node `slave` follow those of node `master` (u_slave = u_master). */
int hs_fe_equal_dof(hs_fe *fe, int master, int slave, const int dofs[3]);
/* Truss: axial E A / L. `axial_compression` (>= 0) is the compressive force of gravity loads
 * that the model does not carry, used by the P-Delta transformation only (docs/fe_model.md). */
int hs_fe_add_truss(hs_fe *fe, const char *name, int ni, int nj, double E, double A,
                    hs_fe_transf transf, double axial_compression);
/* Elastic beam-column (Euler-Bernoulli): E, A, I. */
int hs_fe_add_beam(hs_fe *fe, const char *name, int ni, int nj, double E, double A, double I,
                   hs_fe_transf transf, double axial_compression);
/* Zero-length spring in global direction dir (HS_FE_UX/UY/RZ): deformation u_j - u_i. The
 * nodes may coincide or not (a zero-length element ignores their distance). The element
 * creates the material from (type, opts) and owns it. */
int hs_fe_add_zero_length(hs_fe *fe, const char *name, int ni, int nj, int dir,
                          const char *mat_type, const hs_options *mat_opts);

/* Two-node link (OpenSees twoNodeLink): one uniaxial material per basic direction, the
 * deformations being the relative displacements of the end nodes in the element's local frame
 * (src/fe/fe_link.c, docs/fe_model.md). */
#define HS_FE_LINK_MAX_DIRS 6
typedef struct hs_fe_link_def {
    int ndir;                                  /* 1 .. number of DOFs per node */
    int dirs[HS_FE_LINK_MAX_DIRS];             /* local directions: HS_FE_UX (local x, axial),
                                                  HS_FE_UY (local y, shear), HS_FE_RZ */
    const char *mat_type[HS_FE_LINK_MAX_DIRS]; /* material type and options per direction */
    const hs_options *mat_opts[HS_FE_LINK_MAX_DIRS];
    int has_orient;    /* 0: local x along the chord i -> j (global X when the nodes coincide) */
    double orient[3];  /* local x in global components (OpenSees -orient x1 x2 x3) */
    double shear_dist; /* centre of the shear from node i as a fraction of the length
                          (OpenSees -shearDist); 0.5 by default (hs_fe_link_def_init) */
    double mass;       /* element mass, half lumped at each node's translations (-mass) */
} hs_fe_link_def;
/* OpenSees' defaults: no direction, no orient, shear_dist 0.5, no mass. */
void hs_fe_link_def_init(hs_fe_link_def *def);
/* The element creates its materials from (mat_type[k], mat_opts[k]) and owns them. */
int hs_fe_add_link(hs_fe *fe, const char *name, int ni, int nj, const hs_fe_link_def *def);

/* Numbers the DOFs: fixed, constrained (equal_dof slaves), dynamic (mass > 0), condensed.
 * Refuses a model with no dynamic DOF, a constrained DOF that is fixed, chains of slaves. */
int hs_fe_finalize(hs_fe *fe);

int hs_fe_ndof(const hs_fe *fe);      /* dynamic DOFs (the integrators' n) */
int hs_fe_condensed(const hs_fe *fe); /* condensed (massless) DOFs */
int hs_fe_node_count(const hs_fe *fe);
int hs_fe_node_id(const hs_fe *fe, int k);
/* The dynamic DOF index of (node id, dir), or a negative code: HS_FE_FIXED, HS_FE_CONDENSED,
 * HS_FE_NO_NODE. A slave DOF answers its master's. */
#define HS_FE_FIXED     (-1)
#define HS_FE_CONDENSED (-2)
#define HS_FE_NO_NODE   (-3)
int hs_fe_dof(const hs_fe *fe, int id, int dir);
/* "node 3 ux" for dynamic DOF i, into buf. */
const char *hs_fe_dof_name(const hs_fe *fe, int i, char *buf, size_t cap);
/* Distributed mass of truss or beam e (the index its add function returned): rho per length,
 * lumped (rho L / 2 on each node's translations) or consistent (OpenSees -cMass); before
 * hs_fe_finalize. docs/fe_model.md, "Mass". */
int hs_fe_set_element_mass(hs_fe *fe, int e, double rho, int consistent);
/* The mass of the dynamic DOFs: its diagonal (n), the whole matrix (n x n, column-major), and
 * whether it is diagonal (no consistent element mass couples two dynamic DOFs). With consistent
 * beam mass the rotations carry mass and become dynamic DOFs. */
void hs_fe_mass(const hs_fe *fe, double *mass);
void hs_fe_mass_matrix(const hs_fe *fe, double *M);
int hs_fe_mass_is_lumped(const hs_fe *fe);
/* The ground influence of a uniform excitation in direction dir (n). */
void hs_fe_influence(const hs_fe *fe, int dir, double *iota);

int hs_fe_is_linear(const hs_fe *fe);
int hs_fe_is_rate_dependent(const hs_fe *fe);
/* Condensed initial stiffness (n x n, dense column-major), ADDED to K. */
int hs_fe_initial_stiffness(hs_fe *fe, double *K);
/* Condensed trial restoring force at dynamic displacement d and velocity v (v may be NULL),
 * ADDED to r (n), and the condensed tangents added to Kt, Ct (n x n dense) when not NULL.
 * Velocities of condensed DOFs are taken as zero. Never allocates. */
int hs_fe_restore(hs_fe *fe, const double *d, const double *v, double *r, double *Kt, double *Ct);
int hs_fe_commit(hs_fe *fe);
/* The condensed restoring force at the last commit (n, lent; zero before the first). */
const double *hs_fe_committed_force(const hs_fe *fe);
int hs_fe_revert(hs_fe *fe);
/* Committed displacement of (node id, dir) (condensed and constrained DOFs included; a moving
 * support's at the time last set, hs_fe_support_set_time). */
double hs_fe_node_displacement(const hs_fe *fe, int id, int dir);

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

/* Committed state (condensed displacements, materials) for checkpoints. */
size_t hs_fe_state_size(const hs_fe *fe);
int hs_fe_state_save(const hs_fe *fe, double *out);
int hs_fe_state_load(hs_fe *fe, const double *in);

#ifdef __cplusplus
}
#endif
#endif
