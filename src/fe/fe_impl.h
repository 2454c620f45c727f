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
    fe_map map[FE_MAX_NDF]; /* set by hs_fe_finalize */
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

typedef enum fe_kind { FE_TRUSS, FE_BEAM, FE_ZERO_LENGTH } fe_kind;

typedef struct fe_element {
    char name[32];
    fe_kind kind;
    int ni, nj;              /* node indices */
    double E, A, I, L, c, s; /* 2-D: I, direction cosines c, s; 3-D: I = Iz */
    double G, J, Iy;         /* 3-D beam */
    double R[9];             /* 3-D: rows = local x, y, z axes in global components */
    double P0;               /* gravity compression for P-Delta (>= 0) */
    hs_fe_transf transf;
    int dir;          /* zero-length direction (node DOF index) */
    hs_material *mat; /* zero-length material (owned) */
} fe_element;

struct hs_fe {
    hs_ctx *ctx;
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
    int *eq_node; /* per equation: the node index and DOF that own it */
    int *eq_dof;
    int *eq_dyn;         /* per equation: dynamic index or -1 */
    int *dyn_eq;         /* n */
    int *cond_eq;        /* n0 */
    double *u, *v;       /* trial equation displacements and velocities (neq) */
    double *u_commit;    /* committed equation displacements (neq) */
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
    size_t *slot_off;        /* sparse path (fe_sparse.c): each element's slots, nels + 1 */
    int *slot_ke, *slot_pos; /* per slot: entry of the element matrix, place in Kpat's values */
    double *slot_w;          /* per slot: the map terms' weight c_i c_j */
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
/* The element's force f (nde) at equation displacements u and velocities v (NULL: zero), the
 * tangent k (nde x nde, column-major) and the rate tangent c when not NULL, in the element's DOFs
 * (fe_element_maps). `initial`: the initial tangent at u = 0 without touching material states (f
 * is then not computed). */
int fe_element_state(hs_fe *fe, fe_element *e, const fe_map *const maps[], const double *u,
                     const double *v, int initial, double *f, double *k, double *c);
/* The displacement of a DOF from its map. */
double fe_map_value(const fe_map *m, const double *u);
/* "node 3 rz" for equation q. */
const char *fe_eq_name(const hs_fe *fe, int q, char *buf, size_t cap);

/* fe_constraints.c: the maps of every node DOF (after numbering the retained equations); errors
 * for fixed slaves, chains, masses that T^T M T would couple. */
int fe_constraints_build(hs_fe *fe);
/* fe_beam3d.c: the 3-D truss and beam-column. */
int fe3d_line_init(hs_fe *fe, fe_element *e, const double vecxz[3]);
void fe3d_line_state(const fe_element *e, const double ug[12], double f[12], double k[144]);
/* fe_corot3d.c: the 3-D beam-column with the corotational transformation (k may be NULL). */
void fe3d_corot_state(const fe_element *e, const double ug[12], double f[12], double k[144]);

#endif
