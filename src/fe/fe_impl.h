/* The frame model's private layout (include/hysim/fe.h). */
#ifndef HS_FE_IMPL_H
#define HS_FE_IMPL_H

#include "hysim/fe.h"
#include "hysim/linalg.h"
#include "hysim/sparse.h"

#define FE_MAX_NDF   6  /* DOFs per node (3-D) */
#define FE_MAX_TERMS 3  /* terms of one DOF's map (a rigid link's translation: 1 + 2 rotations) */
#define FE_MAX_EDOF  12 /* element DOFs (the 3-D beam) */

/* Spatial codes of the DOFs, the same in every dimension: ux uy uz rx ry rz. */
enum { FE_CX = 0, FE_CY = 1, FE_CZ = 2, FE_CRX = 3, FE_CRY = 4, FE_CRZ = 5 };

/* A DOF's displacement in terms of the retained equations: u = sum c[t] u[eq[t]] (u = T u_r,
 * one row of T). A free retained DOF is (its equation, 1), a fixed one has no term, an equal_dof
 * slave is (the master's equation, 1), a rigid-link slave has the lever-arm terms. */
typedef struct fe_map {
    int n;
    int eq[FE_MAX_TERMS];
    double c[FE_MAX_TERMS];
} fe_map;

typedef struct fe_node {
    int id;
    double x, y, z;
    int fix[FE_MAX_NDF];
    double mass[FE_MAX_NDF];
    int con[FE_MAX_NDF];    /* the constraint that drives this DOF (index into fe->cons), or -1 */
    int eq[FE_MAX_NDF];     /* retained equation of each DOF, or -1 (fixed or constrained) */
    fe_map map[FE_MAX_NDF]; /* set by hs_fe_finalize; a moving support's: (neq + s, 1) */
    int sup[FE_MAX_NDF];    /* a fixed DOF's support motion (fe_support.c), or -1 */
    int keep[FE_MAX_NDF];   /* 1: a dynamic DOF even without mass (hs_fe_keep_dof) */
} fe_node;

typedef enum fe_con_kind {
    FE_EQUAL_DOF,
    FE_RIGID_DIAPHRAGM,
    FE_RIGID_BEAM,
    FE_RIGID_BAR
} fe_con_kind;

typedef struct fe_constraint {
    fe_con_kind kind;
    int master, slave; /* node indices */
    int perp;          /* rigid diaphragm: the perpendicular axis (FE_CX, FE_CY, FE_CZ) */
} fe_constraint;

typedef enum fe_kind {
    FE_TRUSS,
    FE_BEAM,
    FE_ZERO_LENGTH,
    FE_LINK,
    FE_BEAM_COLUMN,
    FE_ZERO_LENGTH_SECTION,
    FE_COUPLED_ZERO_LENGTH,
    FE_TFP_X
} fe_kind;

#define FE_MAX_MATS HS_FE_LINK_MAX_DIRS

struct fe_link;    /* two-node link (fe_link.c) */
struct fe_bc2d;    /* 2-D or 3-D beam-column with sections (fe_beamcolumn2d.c) */
struct fe_section; /* a cross-section (fe_section.h) */

typedef struct fe_element {
    char name[32];
    fe_kind kind;
    int ni, nj;              /* node indices */
    double E, A, I, L, c, s; /* 2-D: I, direction cosines c, s; 3-D: I = Iz */
    double G, J, Iy;         /* 3-D beam */
    double R[9];             /* 3-D: rows = local x, y, z axes in global components */
    double P0;               /* gravity compression for P-Delta (>= 0) */
    hs_fe_transf transf;
    int dir;                /* zero-length direction (node DOF index) */
    int dir2;               /* coupled zero-length: its second direction */
    double czl[4];          /* coupled zero-length: last dX, dY; committed force fX, fY */
    hs_material *mat;       /* zero-length material (owned) */
    struct fe_link *link;   /* two-node link data (owned), or NULL */
    struct fe_bc2d *bc;     /* beam-column with sections (owned; FE_BEAM_COLUMN), or NULL */
    struct fe_section *sec; /* zeroLengthSection's section (owned), or NULL; R: its axes */
    void *ext;              /* TripleFrictionPendulumX's data (owned; fe_tfp_x.c), or NULL */
    struct {                /* Truss2 (fe_truss.c): the transverse truss whose strain the */
        int on, n[2];       /* material reads: its nodes' indices, direction, length, the */
        double dir[3], L;   /* angle's |cos| and |sin| to this truss (sin 0: no effect) */
        double cos_t, sin_t;
    } tr;
    double rho;   /* mass per length (truss, beam; fe_mass.c) */
    int cmass;    /* 1: consistent mass, 0: lumped */
    double *kg;   /* elastic truss or beam with the linear transformation: its constant global
                     stiffness (nde x nde), kept at its first use (fe_elements.c), or NULL */
    int zl_plain; /* zero-length: 0 not yet looked at, 1 each end one DOF of its own or fixed
                     (zl_at), -1 constraint terms (fe_assemble.c) */
    int zl_at[2]; /* zero-length, plain: each end's index in u (>= neq: a moving support), or -1
                     (fixed) */
    size_t zl_slot[4]; /* zero-length, plain, in a frame of them only: the packed band entries
                          (a, a), (b, b), (a, b), (b, a) for the band hs_fe->zl_band - 1 */
    int release_z, release_y; /* elastic beam: moment releases (hs_fe_set_beam_release) */
    /* fe_element_maps' answer, kept when the model is finalized (the nodes move no more): nmaps
     * of them, 0 before */
    const fe_map *maps[FE_MAX_EDOF];
    int nmaps;
    struct fe_mload *ml; /* member loads (owned; fe_member_load.c), nml of them */
    int nml;
} fe_element;

struct hs_fe {
    hs_ctx *ctx;
    struct fe_batch_scratch *batch_scratch; /* the beam-columns' batches' shared scratch
                                               (fe_section.h), or NULL before the first */
    int ndm, ndf;
    int code_dof[6]; /* node DOF index of each spatial code, or -1 */
    int dof_code[FE_MAX_NDF];
    fe_node *nodes;
    int nnodes;
    fe_element *els;
    int nels;
    fe_constraint *cons;
    int ncons;
    int finalized;
    int neq;      /* retained equations */
    int n, n0;    /* dynamic and condensed DOFs */
    int nkept;    /* dynamic DOFs without mass (hs_fe_keep_dof), among the n */
    int *eq_node; /* per equation: the node index and DOF that own it */
    int *eq_dof;
    int *eq_dyn;      /* per equation: dynamic index or -1 */
    int warm;         /* 1: u's condensed DOFs hold the last restore's solution (fe_assemble.c) */
    int tan_at;       /* 1: K_eq and K00's factor are the assembly at u (fe_assemble.c) */
    int tan_due;      /* 1: a state was loaded; the next restore assembles there first */
    int *dyn_eq;      /* n */
    int *cond_eq;     /* n0 */
    double *u, *v;    /* trial equation displacements and velocities (neq; + nsup) */
    double *u_commit; /* committed equation displacements (neq; + the supports') */
    /* the nodes moved after the commit without an element update (fe_move_nodes.c; moved 1
     * until the next restore, commit, revert or state load) */
    double *u_moved, *r_moved; /* nmoved each (r_moved: the scratch of their forces) */
    size_t nmoved;
    int moved;
    double *r_eq;        /* neq */
    double *r_commit;    /* condensed force at the last commit (n) */
    double *K_eq, *C_eq; /* neq x neq, at the first dense assembly (NULL on the sparse path) */
    double *K00, *X;     /* n0 x n0, n0 x n */
    double *b;           /* n0 */
    hs_linsolver *s0;    /* for K00 */
    double lref;         /* the longest element (length scale of the convergence test) */
    /* sparse path (fe_sparse.c, no condensed DOF): the stiffness pattern over the dynamic DOFs
     * and, per element, the position of each of its 36 matrix entries in it (-1: fixed DOF) */
    hs_csc *Kpat;
    size_t *slot_off;         /* sparse path (fe_sparse.c): each element's slots, nels + 1 */
    int *slot_ke, *slot_pos;  /* per slot: entry of the element matrix, place in Kpat's values */
    double *slot_w;           /* per slot: the map terms' weight c_i c_j */
    hs_csc *Kconst;           /* sparse path: the constant elements' stiffness (Kpat's pattern) */
    int Kconst_symmetric;     /* Kconst equals its transpose: Kconst d by rows */
    int *var_els, nvar;       /* sparse path: the other elements, assembled one by one */
    int rate_dependent;       /* sparse path: some material is (hs_fe_is_rate_dependent) */
    int *var_pos, nvar_pos;   /* sparse path: Kpat's positions the var_els touch, ascending */
    double *x_dyn;            /* sparse path: scratch, 2 n */
    double *M;                /* mass of the dynamic DOFs (n x n; fe_mass.c) */
    int lumped;               /* 1 when M is diagonal */
    double *iota_fix;         /* n x 3: M^-1 M_fs iota_s for a uniform excitation in x, y, z (the
                                 consistent mass that couples the DOFs to the fixed ones), or NULL */
    struct fe_supports *sup;  /* multi-support excitation (fe_support.c), or NULL */
    int zl_band;              /* hs_fe_restore_band: 0 not looked at, -1 some element is not a plain
                                 zero-length one, kd + 1: all are, their zl_slot for the band kd (fe_assemble.c)
                               */
    double clock_t, clock_dt; /* the analysis' time and step (hs_fe_set_clock) */
    int *ml_el, *ml_at;       /* member load k: its element and its place in the element's list */
    int nml;
    /* sparse path: per element, FE_MAX_EDOF: each DOF's equation when every map of the element
     * is one term of weight 1 or none (-1: a support or none), else [0] = -2 (fe_sparse.c) */
    int *slot_eq;
    /* sparse path: each element's slots as runs of consecutive places and entries (pos, entry,
     * length; slot_run_off: nels + 1 offsets in runs), for the elements of slot_eq's weights 1 */
    int *slot_run;
    size_t *slot_run_off;
};

/* fe.c: the node index of a user's id (or -1); an error when the model is finalized; the index of
 * a known node or an error that names `what`. */
int fe_node_index(const hs_fe *fe, int id);
int fe_defining(hs_fe *fe, const char *what);
int fe_known_node(hs_fe *fe, int id, const char *what);
/* "ux", "uy", "uz", "rx", "ry", "rz": the name of node DOF d. */
const char *fe_dof_label(const hs_fe *fe, int d);
/* The maps of the element's DOFs (nde of them, returned): 2-D line elements [ux uy rz]_i,j;
 * 3-D line elements [ux uy uz rx ry rz]_i,j; zero-length: the nodes' ndf DOFs each. A DOF the
 * model or the element lacks has an empty map. */
int fe_element_maps(const hs_fe *fe, const fe_element *e, const fe_map *maps[FE_MAX_EDOF]);
/* Keeps every element's maps (at finalize: the node array is fixed from then on). */
void fe_element_keep_maps(hs_fe *fe);
/* The element's force f (nde) at equation displacements u and velocities v (NULL: zero), the
 * tangent k (nde x nde, column-major) and the rate tangent c when not NULL, in the element's DOFs
 * (fe_element_maps). `initial`: the initial tangent at u = 0 without touching material states (f
 * is then not computed). */
/* After hs_fe_move_nodes: 1 with f the global force (element layout) of an element that answers
 * at the moved nodes (an elastic beam, an experimental beam-column link); else 0. */
int fe_moved_force(hs_fe *fe, fe_element *e, double f[FE_MAX_EDOF]);
int fe_element_state(hs_fe *fe, fe_element *e, const fe_map *const maps[], const double *u,
                     const double *v, int initial, double *f, double *k, double *c);
/* The displacement of a DOF from its map. */
static inline double fe_map_value(const fe_map *m, const double *u)
{
    if (m->n == 1 && m->c[0] == 1.0) return u[m->eq[0]];
    double s = 0.0;
    for (int t = 0; t < m->n; t++) s += m->c[t] * u[m->eq[t]];
    return s;
}
/* A zero-length element's force s (0 when initial), tangent kt and damping tangent ct (0 when
 * initial) along its direction, mi and mj its two nodes' maps of that direction. */
int fe_zero_length_material(hs_fe *fe, fe_element *e, double du, double dv, int rate, int initial,
                            double *s, double *kt, double *ct);
int fe_zero_length_state(hs_fe *fe, fe_element *e, const fe_map *mi, const fe_map *mj,
                         const double *u, const double *v, int initial, double *s, double *kt,
                         double *ct);
/* "node 3 rz" for equation q. */
const char *fe_eq_name(const hs_fe *fe, int q, char *buf, size_t cap);

/* Member loads (fe_member_load.c; hs_fe_add_member_load): each with its factor. */
typedef struct fe_mload {
    hs_fe_member_load ld;
    int group;
    double factor;
} fe_mload;
/* The fixed-end forces of the element's loads in its basic system, q0 ([N Mz_i Mz_j] 2-D, [N
 * Mz_i Mz_j My_i My_j T] 3-D), with its releases (release_z, release_y; 0 for the beam-columns),
 * and the reactions of the simply supported member p0 ([N_i Vy_i Vy_j] 2-D, [N_i Vy_i Vy_j Vz_i
 * Vz_j] 3-D), both added to. OpenSees' ElasticBeam2d/3d::addLoad and DispBeamColumn2d/3d. */
void fe_ml_fixed_end(const fe_element *e, int ndm, double *q0, double *p0);
/* The reactions p0 alone (ForceBeamColumn2d/3d::computeReactions), added to. */
void fe_ml_reactions(const fe_element *e, int ndm, double *p0);
/* The section forces of the loads at x from node i for the section's resultants code[order]
 * (ForceBeamColumn3d::computeSectionForces), added to sp. */
void fe_ml_section_forces(const fe_element *e, double x, const int *code, int order, double *sp);
/* Local end forces of basic forces q and reactions p0, added to fl (2-D 6 values, 3-D 12):
 * OpenSees' LinearCrdTransf2d/3d::getGlobalResistingForce before the rotation. */
void fe_ml_local_2d(double L, const double q[3], const double p0[3], double fl[6]);
void fe_ml_local_3d(double L, const double q[6], const double p0[5], double fl[12]);
/* The basic stiffness of an elastic beam's bending about one axis with release r: 2 x 2
 * (row-major) times EI / L: [4 2; 2 4], [0 0; 0 3] (1), [3 0; 0 0] (2), zero (3). */
void fe_release_kb(int r, double k[4]);

/* fe_constraints.c: the maps of every node DOF (after numbering the retained equations); errors
 * for fixed slaves and chains. */
int fe_constraints_build(hs_fe *fe);
/* fe_beam3d.c: the 3-D truss and beam-column. */
int fe3d_line_init(hs_fe *fe, fe_element *e, const double vecxz[3]);
/* The local axes R (rows x, y, z in global components) of unit x and a vector vecxz in the local
 * x-z plane: y = vecxz x x (normalised), z = x x y. HS_EINPUT (no message) when vecxz is zero or
 * parallel to x. */
int fe3d_axes(const double x[3], const double vecxz[3], double R[9]);
/* g = T^T l for T = blockdiag(R, R, R, R): 12 local components to global. */
void fe3d_to_global(const double R[9], const double *l, double *g);
void fe3d_line_state(const fe_element *e, const double ug[12], double f[12], double k[144]);
/* The basic deformations ub and forces q of a 3-D line element at global displacements ug (beam:
 * [N Mz_i Mz_j My_i My_j T], OpenSees' order; truss: [N]); returns their count (6 or 1). */
int fe3d_basic(const fe_element *e, const double ug[12], double ub[6], double q[6]);
/* kg = T^T kl T, T = blockdiag(R, R, R, R): a 12 x 12 local matrix turned to global axes. */
void fe3d_matrix_to_global(const double R[9], const double *kl, double *kg);

/* A new element slot (not yet counted: the caller fills it and increments fe->nels), or NULL
 * with *rc set (unknown node, model finalized, no memory). */
fe_element *fe_new_element(hs_fe *fe, const char *name, int ni, int nj, int *rc);
/* Mass (fe_mass.c), assembled through the DOFs' maps (T^T M T): nodal and element masses on the
 * retained equations (Meq, neq x neq, or NULL), the coupling of each retained equation to the
 * fixed translations (Mfix, neq x 3: M_fs iota_s per direction x, y, z, or NULL) and to the
 * support motions (Mqs, neq x nsup, or NULL); the dynamic DOFs' block into fe->M once the DOFs
 * are numbered. */
void fe_mass_assemble(const hs_fe *fe, double *Meq, int diag, double *Mfix, double *Mqs);
int fe_mass_finalize(hs_fe *fe, const double *Meq, int diag);
/* 1 when T^T M T is diagonal (no consistent element mass, no mass on a lever arm): Meq is
 * then assembled as its neq diagonal values (diag = 1), so a large frame allocates nothing
 * neq x neq. */
int fe_mass_is_diagonal(const hs_fe *fe);
/* Support motions (fe_support.c): a moving fixed DOF's map is the one term (neq + s, 1), so the
 * elements read the support's displacement and velocity from u[neq + s], v[neq + s]. */
void fe_support_free(hs_fe *fe);
/* The element's materials (zero-length: its one; link: one per direction) into mats
 * (FE_MAX_MATS), lent; returns their number. */
int fe_element_materials(const fe_element *e, hs_material **mats);
/* 2-D line elements (fe_elements.c): global <-> local [u v th]_i,j (R = blockdiag(r, r),
 * r = [c s 0; -s c 0; 0 0 1]), k_g = R^T k_l R, and OpenSees' PDeltaCrdTransf2d terms of the
 * axial force N (tension positive) added to the local force and tangent (kl NULL: the force's). */
static inline void fe2d_to_local(const fe_element *e, const double g[6], double l[6])
{
    for (int n = 0; n < 6; n += 3) {
        l[n] = e->c * g[n] + e->s * g[n + 1];
        l[n + 1] = -e->s * g[n] + e->c * g[n + 1];
        l[n + 2] = g[n + 2];
    }
}
static inline void fe2d_to_global(const fe_element *e, const double l[6], double g[6])
{
    for (int n = 0; n < 6; n += 3) {
        g[n] = e->c * l[n] - e->s * l[n + 1];
        g[n + 1] = e->s * l[n] + e->c * l[n + 1];
        g[n + 2] = l[n + 2];
    }
}
void fe2d_stiffness_to_global(const fe_element *e, const double kl[36], double kg[36]);
static inline void fe2d_pdelta(double N, double L, const double ul[6], double fl[6], double kl[36])
{
    const double kg = N / L, dv = ul[4] - ul[1];
    fl[1] -= kg * dv;
    fl[4] += kg * dv;
    if (!kl) return;     /* (no tangent asked) */
    kl[1 * 6 + 1] += kg; /* column-major 6 x 6 */
    kl[4 * 6 + 4] += kg;
    kl[4 * 6 + 1] -= kg;
    kl[1 * 6 + 4] -= kg;
}
/* Beam-columns with sections (fe_beamcolumn_element.c): the state in global DOFs (as
 * fe_element_state), commit, revert, checkpoint state and destruction. */
int fe_bc_element_state(hs_fe *fe, fe_element *e, const fe_map *const maps[], const double *u,
                        int initial, double *f, double *k);
int fe_bc_element_commit(fe_element *e);
int fe_bc_element_revert(fe_element *e);
size_t fe_bc_element_state_size(const fe_element *e);
int fe_bc_element_state_save(const fe_element *e, double *out);
int fe_bc_element_state_load(fe_element *e, const double *in);
void fe_bc_element_free(fe_element *e);
/* zeroLengthSection (fe_zero_length_section.c): state as fe_element_state (line elements' DOF
 * layout), commit, revert, checkpoint state and freeing its section. */
int fe_zls_state(hs_fe *fe, fe_element *e, const fe_map *const maps[], const double *u, int initial,
                 double *f, double *k);
int fe_zls_commit(fe_element *e);
int fe_zls_revert(fe_element *e);
size_t fe_zls_state_size(const fe_element *e);
int fe_zls_state_save(const fe_element *e, double *out);
int fe_zls_state_load(fe_element *e, const double *in);
void fe_zls_free(fe_element *e);
/* Two-node link (fe_link.c, any ndm): state as fe_element_state; freeing its data. */
int fe_link_state(hs_fe *fe, fe_element *e, const fe_map *const maps[], const double *u,
                  const double *v, int initial, double *f, double *k, double *c);
int fe_link_materials(const fe_element *e, hs_material **mats);
/* 1: the link has a given stiffness (hs_fe_link_def kb). */
int fe_link_given_k(const fe_element *e);
void fe_link_free(fe_element *e);
/* A link through an experimental setup (fe_link_setup.c): n = the setup's DOFs = its
 * actuators; sets the actuators' materials to the strokes of the basic deformations ub (rates
 * vb) and gives the basic forces q[n] and the tangent kb and damping cb (n x n, column-major);
 * initial: the materials' initial tangents at rest, q = 0, cb = 0. */
struct hs_setup;
/* fe_link_beam.c: an OpenFresco experimental beam-column's force f and tangent k (global, 6 and
 * 6 x 6 column-major; either NULL) at ug, vg; its driven DOFs' basic deformations and forces
 * per material in db_out, qb_out, and its whole basic system B in b9 (db, vb, qb with the
 * elastic axial force; not at the initial state), its basic forces in system A in qA_out (NULL:
 * not wanted). kbB: -initStif (column-major 3 x 3, basic system B). A specimen elsewhere (spec)
 * takes a trial only when B's deformations moved by more than DBL_EPSILON from spec_db (its last
 * trial's, updated), else its forces stay spec_q (the last measured, one per material). */
int fe_link_beam_state(hs_ctx *ctx, const char *name, const fe_element *e, int transf,
                       const double kbB[9], hs_material *const *mat, const int *dir,
                       const double *da, const double *dv, const double *fb, int nmat,
                       const double ug[6], const double vg[6], int initial,
                       const hs_fe_specimen *spec, double spec_db[3], const double *spec_q,
                       double t, double f[6], double k[36], double db_out[3], double qb_out[3],
                       double qA_out[3], double b9[9]);
/* Its global force f and tangent k (either NULL) for basic forces qA (system A) through the
 * transformation at ug, the tangent -initStif kbB with the geometric stiffness of qA there: what
 * EEBeamColumn2d::getResistingForce and getTangentStiff give after theCoordTransf->update() at
 * nodes that moved since its last update (its qA is the last update's: fe_move_nodes.c). */
void fe_link_beam_at(const fe_element *e, int transf, const double kbB[9], const double qA[3],
                     const double ug[6], double f[6], double k[36]);
/* Its basic accelerations in B (EEBeamColumn2d::update's ab) at ug, vg, ag: Linear and PDelta
 * through LinearCrdTransf2d's T_A, Corotational through CorotCrdTransf2d::getBasicTrialAccel and
 * the derivatives of B's nonlinear map. */
void fe_link_beam_accel(const fe_element *e, int transf, const double ug[6], const double vg[6],
                        const double ag[6], double ab[3]);
/* fe_link.c: the global force f and tangent k (6, 6 x 6; either NULL) of an experimental
 * beam-column link at equation displacements u, its last trial basic forces through the
 * transformation there; 0, or 1 for another link. */
int fe_link_beam_moved(const hs_fe *fe, const fe_element *e, const double *u, double f[6],
                       double k[36]);
/* fe_link_beam3.c: OpenFresco's 3-D experimental beam-column (EEBeamColumn3d, Linear): the rows
 * of its basic system B (global B, local T: axial, shear y at j, rz, shear z at j, ry, torsion),
 * which link direction drives each (link[p], -1: none), the elastic axial and torsion stiffness
 * (-initStif's kb00, kb55), and its last trial [db, vb, qb] and global force. */
typedef struct fe_beam3 {
    double B[6][12], T[6][12];
    int link[6];
    double k_axial, k_torsion;
    double b18[18], fg[12];
    int transf;    /* hs_fe_transf: Linear, PDelta or Corotational (the transformation's A) */
    double L;      /* the chord's length */
    double kA[36]; /* -initStif in A (row-major), M^T kb M: the corotational tangent's */
} fe_beam3;
/* 1 when dirs (n) are B's DOFs in B's order as link directions (its -initStif's kdirs). */
int fe_beam3_dirs_ok(const int *dirs, int n);
/* Its rows at axes R and length L; kb the -initStif (6 x 6 column-major, B's order); link_dirs
 * the link's ndir directions (the driven DOFs). */
void fe_beam3_init(fe_beam3 *b, const double R[9], double L, const double kb[36],
                   const int *link_dirs, int ndir, int transf);
/* Corotational: B's deformations db (6) at ug from the transformation's A (e: the link, its R and
 * L); the linear and P-Delta ones take B's rows. */
void fe_beam3_deformation(const fe_beam3 *b, const fe_element *e, const double ug[12],
                          double db[6]);
/* The trial state at ug, vg with the link directions' forces q: stores [db, vb, qb] (qb with the
 * elastic axial force and torsion where q gives none) and the global force B^T qb, also in f
 * (NULL: not wanted). */
void fe_beam3_force(fe_beam3 *b, const fe_element *e, const double ug[12], const double vg[12],
                    const double *q, double f[12]);
/* The tangent k (12 x 12 column-major, the given stiffness B^T kb B on entry) at the last trial
 * state with its transformation's geometric stiffness: PDelta adds N / L on the local transverse
 * translations, Corotational replaces it by T^T kA T + sum qA_r d2 dA_r / du2. */
void fe_beam3_tangent(const fe_beam3 *b, const fe_element *e, const double ug[12], double k[144]);
/* Its last trial local force T^T qb (EEBeamColumn3d's localForce). */
void fe_beam3_local_force(const fe_beam3 *b, double out[12]);
int fe_link_setup_state(hs_ctx *ctx, const char *name, const struct hs_setup *s,
                        hs_material *const *mat, const double *da, const double *dv,
                        const double *fb, const double *ub, const double *vb, int initial,
                        double *q, double *kb, double *cb);
/* A link's committed response for the recorders (fe_query.c): global and local force (in
 * fe_element_maps' layout: 6 or 12 values), basic force and deformation (one per direction);
 * HS_EINVAL for the others. */
int fe_link_response(const fe_element *e, hs_fe_response r, double *out);
/* A link's commit of its specimen elsewhere (hs_fe_link_set_specimen; 0 for the others). */
int fe_link_commit(fe_element *e);
/* fe_truss.c: a truss of a uniaxial material (e->mat): its state as fe_element_state, and its
 * committed response for the recorders (hs_fe_element_response's layout). */
int fe_truss_state(hs_fe *fe, fe_element *e, const fe_map *const maps[], const double *u,
                   const double *v, int initial, double *f, double *k, double *c);
int fe_truss_response(const hs_fe *fe, const fe_element *e, hs_fe_response r, double *out);
/* fe_coupled_zero_length.c: OpenSees' CoupledZeroLength (e->mat on the resultant of e->dir and
 * e->dir2): its state as fe_element_state (the zero-length layout), the committed force's
 * direction at a commit, and its committed response (global force, basic force, deformation). */
int fe_czl_state(hs_fe *fe, fe_element *e, const fe_map *const maps[], const double *u,
                 const double *v, int initial, double *f, double *k, double *c);
void fe_czl_commit(fe_element *e);
int fe_czl_response(const hs_fe *fe, const fe_element *e, hs_fe_response r, double *out);
#define FE_CZL_STATE 4 /* checkpointed values: e->czl */
/* fe_tfp_x.c: TripleFrictionPendulumX (the zero-length layout, ndf 6): its state as
 * fe_element_state, commit, materials (4), committed response and its size, freeing. */
int fe_tfpx_state(hs_fe *fe, fe_element *e, const fe_map *const maps[], const double *u,
                  const double *v, int initial, double *f, double *k, double *c);
void fe_tfpx_commit(fe_element *e);
int fe_tfpx_materials(const fe_element *e, hs_material **mats);
/* its checkpointed state (the committed series and histories, not the heat history) */
size_t fe_tfpx_state_size(const fe_element *e);
void fe_tfpx_state_save(const fe_element *e, double *out);
void fe_tfpx_state_load(fe_element *e, const double *in);
int fe_tfpx_response(const fe_element *e, hs_fe_response r, double *out);
int fe_tfpx_response_size(hs_fe_response r);
void fe_tfpx_free(fe_element *e);
/* fe_corot3d.c: the 3-D beam-column with the corotational transformation (k may be NULL). */
void fe3d_corot_state(const fe_element *e, const double ug[12], double f[12], double k[144]);
/* The same transformation around any basic law: law(arg, ub, q, kb) gives the basic forces q
 * (6) and tangent kb (6 x 6, row-major) at the basic deformations ub (its error is returned);
 * f (12) and k (12 x 12, column-major) may be NULL. */
typedef int (*fe3d_basic_law)(void *arg, const double ub[6], double q[6], double kb[36]);
int fe3d_corot_state_law(const fe_element *e, const double ug[12], fe3d_basic_law law, void *arg,
                         double *f, double *k);
/* fe_beam3d.c, the pieces of the linear and P-Delta transformations: 12 global components to
 * local (T = blockdiag(R, R, R, R)); the basic matrix B (ub = B ul, OpenSees' order [N Mz_i Mz_j
 * My_i My_j T]); the elastic beam's kb; P-Delta's N / L on the local transverse translations
 * (added to fl and kl, column-major; kl may be NULL). */
void fe3d_to_local(const double R[9], const double *g, double *l);
void fe3d_basic_matrix(double L, double B[6][12]);
void fe3d_elastic_basic_stiffness(const fe_element *e, double kb[6][6]);
void fe3d_pdelta(double N, double L, const double ul[12], double fl[12], double *kl);

#endif
