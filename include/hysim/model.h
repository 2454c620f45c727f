/* hysim model: lumped masses on global DOFs, springs (uniaxial materials) between two DOFs or a
 * DOF and the ground, the damping matrix, and the restoring force assembly. DOFs are 0-based in
 * the API (the test file numbers them 1..n). Matrices are dense, column-major, n x n. */
#ifndef HYSIM_MODEL_H
#define HYSIM_MODEL_H

#include "hysim/base.h"
#include "hysim/material.h"
#include "hysim/options.h"
#include "hysim/sparse.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HS_GROUND (-1)

typedef struct hs_model hs_model;

int hs_model_create(hs_ctx *ctx, int ndof, hs_model **out);
void hs_model_destroy(hs_model **m);
int hs_model_ndof(const hs_model *m);
hs_ctx *hs_model_ctx(const hs_model *m);

int hs_model_set_mass(hs_model *m, const double *mass); /* lumped, n values > 0 */
/* Before hs_model_set_mass: zero masses are accepted (DOFs without mass kept for experimental
 * elements, hs_fe_keep_dof; at least one DOF must carry mass). Damping is then built on the
 * stiffness condensed to the DOFs with mass and is zero on the others, as a frame's condensed
 * DOFs have it (docs/integrators.md, "Experimental DOFs without mass"). */
void hs_model_allow_massless(hs_model *m);
/* The number of DOFs without mass (0 for every model built without hs_model_allow_massless). */
int hs_model_massless_count(const hs_model *m);
int hs_model_set_influence(hs_model *m, const double *iota); /* ground influence vector */
/* A full mass matrix (n x n, column-major, copied): symmetric positive definite (a frame model's
 * consistent mass, docs/fe_model.md); hs_model_mass then gives its diagonal. */
int hs_model_set_mass_matrix(hs_model *m, const double *M);
const double *hs_model_mass(const hs_model *m); /* the diagonal of M (n) */
const double *hs_model_influence(const hs_model *m);
/* Dense mass matrix (n x n): the lumped masses on the diagonal, or the full matrix; NULL for a
 * large model (hs_model_is_large). */
const double *hs_model_mass_matrix(const hs_model *m);
/* 1 when the model has more than HS_DENSE_MAX_DOFS DOFs (hysim/linalg.h): it keeps no n x n
 * array (mass lumped, damping Rayleigh or none, extra stiffness in compressed columns), the
 * dense accessors return NULL and what needs them fails with a message naming what to change. */
int hs_model_is_large(const hs_model *m);

/* A spring from DOF `from` (or HS_GROUND) to DOF `to`; deformation = d[to] - d[from].
 * The model creates the material from (type, opts) and owns it. `group` names the material
 * group for energy accounting (usually the material's name in the test file). Returns the
 * spring's index, or a negative error code. */
int hs_model_add_spring(hs_model *m, const char *name, int from, int to, const char *mat_type,
                        const hs_options *mat_opts, const char *group);
/* The shear-building shortcut: story i joins DOF i-1 (ground for i = 0) and DOF i. */
int hs_model_add_story(hs_model *m, int story, const char *mat_type, const hs_options *mat_opts,
                       const char *group);

int hs_model_spring_count(const hs_model *m);
/* Story `story` (0-based) ends at DOF `story`: a numerical story (hs_model_add_story) or an
 * experimental one (the test file's `story: i`). When every DOF ends a story the model is a shear
 * building and its DOFs are named by floor. */
int hs_model_mark_story(hs_model *m, int story);
/* The name of DOF i (0-based) in the results (docs/outputs.md, "DOF names"), into buf: a frame's
 * node and direction ("n3_ux", hs_fe_dof_column), a shear building's floor ("floor2"), else the
 * DOF's number ("d2"). */
const char *hs_model_dof_name(const hs_model *m, int i, char *buf, size_t cap);
const char *hs_model_spring_name(const hs_model *m, int s);
void hs_model_spring_dofs(const hs_model *m, int s, int *from, int *to);
hs_material *hs_model_spring_material(const hs_model *m, int s); /* lent */
int hs_model_spring_group(const hs_model *m, int s);
int hs_model_group_count(const hs_model *m);
const char *hs_model_group_name(const hs_model *m, int g);

/* A finalized frame model (include/hysim/fe.h) whose dynamic DOFs are this model's DOFs
 * (hs_fe_ndof = n): its forces and stiffness add to the springs'. The model takes ownership
 * (also on failure). hs_model_fe: the attached frame model (lent) or NULL. */
struct hs_fe;
int hs_model_attach_fe(hs_model *m, struct hs_fe *fe);
struct hs_fe *hs_model_fe(const hs_model *m);

/* 1 if every material is linear elastic (no yielding, no rate dependence). */
int hs_model_is_linear(const hs_model *m);

/* Initial stiffness of the springs (n x n). */
int hs_model_initial_stiffness(const hs_model *m, double *K);

/* Trial restoring force of the springs at displacement d and velocity v (v may be NULL: zero).
 * r (n) receives the forces; Kt (n x n) the tangent d r / d d and Ct the tangent d r / d v when
 * not NULL. Never allocates. */
int hs_model_restore(hs_model *m, const double *d, const double *v, double *r, double *Kt,
                     double *Ct);
int hs_model_commit(hs_model *m);
int hs_model_revert(hs_model *m);
/* Committed force and deformation of a spring (after the last commit). */
double hs_model_spring_force(const hs_model *m, int s);
double hs_model_spring_deformation(const hs_model *m, int s);
/* Committed state of every spring (force, deformation, material state) as doubles, for
 * checkpoints (src/model/model_state.c). Load into a model built from the same definition. */
size_t hs_model_state_size(const hs_model *m);
int hs_model_state_save(const hs_model *m, double *out);
int hs_model_state_load(hs_model *m, const double *in);

/* Damping matrix C (n x n), lent (NULL for a large model: its C is a0 M + a1 K0 in compressed
 * columns, made by hs_model_dynamics); zero until one of the setters runs. Setters use the initial
 * stiffness (springs + extra stiffness) and the lumped mass, so add springs, masses and the
 * extra stiffness first. */
const double *hs_model_damping(const hs_model *m);
int hs_model_damping_none(hs_model *m);
/* Rayleigh: C = a0 M + a1 K0 with ratios zeta_i, zeta_j at modes i, j (0-based). */
int hs_model_damping_rayleigh(hs_model *m, int mode_i, int mode_j, double zeta_i, double zeta_j);
/* Rayleigh from its coefficients (OpenSees' rayleigh alphaM betaK): C = a0 M + a1 K0, both >= 0. */
int hs_model_damping_mass_stiffness(hs_model *m, double a0, double a1);
/* C = a1 K0 with ratio zeta at mode i: a1 = 2 zeta / omega_i. */
int hs_model_damping_stiffness_proportional(hs_model *m, int mode, double zeta);
/* C = M (sum_k 2 zeta_k omega_k phi_k phi_k^T) M with M-orthonormal modes. n ratios. */
int hs_model_damping_modal(hs_model *m, const double *ratios);
/* C given (n x n, symmetric, copied), e.g. the RTHS benchmark's numerical substructure C - ce e1
 * e1' (Silva et al. 2020). Dense models only. */
int hs_model_damping_matrix(hs_model *m, const double *C);
/* The Rayleigh coefficients that the last setter used (zero for modal or none). */
void hs_model_damping_coefficients(const hs_model *m, double *a0, double *a1);

/* Extra stiffness (n x n, copied; NULL clears it) that the modes and the damping setters add to
 * the springs' initial stiffness: the initial stiffness of the experimental substructures,
 * sum T^T K0l T, so that periods and damping see the whole structure even when the numerical
 * model has no springs. hs_model_initial_stiffness, hs_model_restore and hs_model_dynamics stay
 * numerical. Set it before the damping setters. */
int hs_model_set_extra_stiffness(hs_model *m, const double *K);
/* The same in compressed columns (copied), the form a large model takes (the dense one is
 * refused there); the modes of a large frame then see K0 + K. */
int hs_model_set_extra_stiffness_sparse(hs_model *m, const hs_csc *K);

/* Modes of the initial-stiffness model (springs + extra stiffness): circular frequencies squared
 * (ascending) and M-orthonormal shapes (n x n column-major). Either output may be NULL. */
int hs_model_modes(hs_model *m, double *omega2, double *phi);
/* The nev lowest modes (1 <= nev <= n): omega2 (nev) and shapes phi (n x nev, or NULL). Above
 * HS_MODES_DENSE_MAX DOFs a frame without condensed DOFs, springs or extra stiffness takes
 * ARPACK's shift-invert Lanczos on its sparse stiffness (hs_sparse_eig); every other model takes
 * hs_model_modes (LAPACK, every mode) and keeps the lowest nev. */
#define HS_MODES_DENSE_MAX 500
int hs_model_modes_lowest(hs_model *m, int nev, double *omega2, double *phi);
/* 1 when hs_model_modes_lowest takes the sparse eigen-analysis for this model. */
int hs_model_modes_sparse(const hs_model *m);

/* Fills an integrator's view of this model (numerical only: Me = Ke = NULL). K0 is the caller's
 * n x n buffer, filled with the initial stiffness and lent to dyn. A large model (K0 may be NULL
 * then) gives only the sparse form (dyn->M, C, K0 NULL), and fails with a message naming what to
 * change when it has none (springs, condensed DOFs, modal damping). */
struct hs_dynamics;
int hs_model_dynamics(hs_model *m, double *K0, struct hs_dynamics *dyn);

#ifdef __cplusplus
}
#endif
#endif
