/* hysim 2-D frame model: nodes with 3 DOFs (ux, uy, rz), fixities, nodal masses, equal-DOF
 * constraints by transformation, and elements (truss, elastic beam-column with linear or P-Delta
 * transformation, zero-length springs with any uniaxial material). docs/fe_model.md.
 *
 * The model's dynamic DOFs are the free, retained DOFs that carry mass; every other retained DOF
 * (typically beam rotations) is condensed statically: at each restore its displacement solves
 * r_0(d, d_0) = 0 by Newton, and the tangent seen by the integrator is the Schur complement
 * Kmm - Km0 K00^-1 K0m. So every integrator (explicit ones included) sees a diagonal, positive
 * mass. The condensation is dense; a frame whose every free DOF carries mass also has a sparse
 * form (hs_fe_sparse_*, fe_sparse.c: compressed columns, docs/fe_model.md "Large frames"). Node ids
 * are the user's (any positive integers); DOF indices 0-based. */
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
/* Lumped mass (n) and the ground influence of a uniform excitation in direction dir (n). */
void hs_fe_mass(const hs_fe *fe, double *mass);
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
/* Committed displacement of (node id, dir) (condensed and constrained DOFs included). */
double hs_fe_node_displacement(const hs_fe *fe, int id, int dir);

int hs_fe_element_count(const hs_fe *fe);
const char *hs_fe_element_name(const hs_fe *fe, int e);
/* The material of a zero-length element (lent), or NULL for other elements. */
hs_material *hs_fe_element_material(const hs_fe *fe, int e);

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
/* The frame's matrices in compressed columns: M (lumped, diagonal), K0 and C = a0 M + a1 K0
 * (Rayleigh; NULL when a0 = a1 = 0), owned here (hs_fe_matrices_free). */
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

#ifdef __cplusplus
}
#endif
#endif
