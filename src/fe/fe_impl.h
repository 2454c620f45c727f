/* The 2-D frame model's private layout (include/hysim/fe.h). */
#ifndef HS_FE_IMPL_H
#define HS_FE_IMPL_H

#include "hysim/fe.h"
#include "hysim/linalg.h"

typedef struct fe_node {
    int id;
    double x, y;
    int fix[3];
    double mass[3];
    int master[3]; /* node index whose DOF this one follows (equal_dof), or -1 */
    int eq[3];     /* retained equation of each DOF, or -1 when fixed */
    int sup[3];    /* a fixed DOF's support motion (fe_support.c), or -1 */
} fe_node;

typedef enum fe_kind { FE_TRUSS, FE_BEAM, FE_ZERO_LENGTH, FE_LINK } fe_kind;

#define FE_NDF      3 /* DOFs per node (2-D frame) */
#define FE_MAX_MATS HS_FE_LINK_MAX_DIRS

struct fe_link; /* two-node link (fe_link.c) */

typedef struct fe_element {
    char name[32];
    fe_kind kind;
    int ni, nj; /* node indices */
    double E, A, I, L, c, s;
    double P0; /* gravity compression for P-Delta (>= 0) */
    hs_fe_transf transf;
    int dir;              /* zero-length direction */
    hs_material *mat;     /* zero-length material (owned) */
    struct fe_link *link; /* two-node link data (owned), or NULL */
    double rho;           /* mass per length (truss, beam; fe_mass.c) */
    int cmass;            /* 1: consistent mass, 0: lumped */
} fe_element;

struct hs_fe {
    hs_ctx *ctx;
    fe_node *nodes;
    int nnodes;
    fe_element *els;
    int nels;
    int finalized;
    int neq;                 /* retained equations */
    int n, n0;               /* dynamic and condensed DOFs */
    int *eq_dyn;             /* per equation: dynamic index or -1 */
    int *dyn_eq;             /* n */
    int *cond_eq;            /* n0 */
    double *u, *v;           /* trial equation displacements and velocities (neq) */
    double *u_commit;        /* committed equation displacements (neq) */
    double *r_eq;            /* neq */
    double *r_commit;        /* condensed force at the last commit (n) */
    double *K_eq, *C_eq;     /* neq x neq */
    double *K00, *X;         /* n0 x n0, n0 x n */
    double *b;               /* n0 */
    hs_linsolver *s0;        /* for K00 */
    double lref;             /* the longest element (length scale of the convergence test) */
    double *M;               /* mass of the dynamic DOFs (n x n; fe_mass.c) */
    int lumped;              /* 1 when M is diagonal */
    double *iota_fix;        /* n x 2: M^-1 M_fs iota_s for a uniform excitation in x, y (the
                                consistent mass that couples the DOFs to the fixed ones), or NULL */
    struct fe_supports *sup; /* multi-support excitation (fe_support.c), or NULL */
};

/* The element's (up to) 6 equations: [ux_i uy_i rz_i ux_j uy_j rz_j]; -1 where none. */
void fe_element_eqs(const hs_fe *fe, const fe_element *e, int eqs[6]);
/* The element's global force f (6) at equation displacements u and velocities v (NULL: zero),
 * the tangent k (6 x 6, column-major) and the rate tangent c when not NULL. `initial`: the
 * initial tangent at u = 0 without touching material states (f is then not computed). */
/* "node 3 rz" for equation q (its master). */
const char *fe_eq_name(const hs_fe *fe, int q, char *buf, size_t cap);
int fe_element_state(hs_fe *fe, fe_element *e, const double *u, const double *v, int initial,
                     double f[6], double k[36], double c[36]);

/* A new element slot (not yet counted: the caller fills it and increments fe->nels), or NULL
 * with *rc set (unknown node, model finalized, no memory). */
fe_element *fe_new_element(hs_fe *fe, const char *name, int ni, int nj, int *rc);
/* Mass (fe_mass.c): nodal and element masses on the retained equations (Meq, neq x neq, or
 * NULL), the coupling of each retained equation to the fixed ux and uy DOFs (Mfix, neq x 2:
 * M_fs iota_s per direction, or NULL) and to the support motions (Mqs, neq x nsup, or NULL);
 * the dynamic DOFs' block into fe->M once the DOFs are numbered. */
void fe_mass_assemble(const hs_fe *fe, double *Meq, double *Mfix, double *Mqs);
int fe_mass_finalize(hs_fe *fe, const double *Meq);
/* Support motions (fe_support.c): the equation of (node, dir) in element equation lists: the
 * retained one, neq + the support motion's index for a moving fixed DOF, or -1. */
int fe_dof_eq(const hs_fe *fe, const fe_node *nd, int d);
void fe_support_free(hs_fe *fe);
/* The element's materials (zero-length: its one; link: one per direction) into mats
 * (FE_MAX_MATS), lent; returns their number. */
int fe_element_materials(const fe_element *e, hs_material **mats);
/* Two-node link (fe_link.c): state as fe_element_state; freeing its data. */
int fe_link_state(hs_fe *fe, fe_element *e, const double *u, const double *v, int initial,
                  double f[6], double k[36], double c[36]);
int fe_link_materials(const fe_element *e, hs_material **mats);
void fe_link_free(fe_element *e);

#endif
