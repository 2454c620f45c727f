/* The 2-D frame model's private layout (include/hysim/fe.h). */
#ifndef HS_FE_IMPL_H
#define HS_FE_IMPL_H

#include "hysim/fe.h"
#include "hysim/linalg.h"
#include "hysim/sparse.h"

typedef struct fe_node {
    int id;
    double x, y;
    int fix[3];
    double mass[3];
    int master[3]; /* node index whose DOF this one follows (equal_dof), or -1 */
    int eq[3];     /* retained equation of each DOF, or -1 when fixed */
} fe_node;

typedef enum fe_kind { FE_TRUSS, FE_BEAM, FE_ZERO_LENGTH } fe_kind;

typedef struct fe_element {
    char name[32];
    fe_kind kind;
    int ni, nj; /* node indices */
    double E, A, I, L, c, s;
    double P0; /* gravity compression for P-Delta (>= 0) */
    hs_fe_transf transf;
    int dir;          /* zero-length direction */
    hs_material *mat; /* zero-length material (owned) */
} fe_element;

struct hs_fe {
    hs_ctx *ctx;
    fe_node *nodes;
    int nnodes;
    fe_element *els;
    int nels;
    int finalized;
    int neq;             /* retained equations */
    int n, n0;           /* dynamic and condensed DOFs */
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
    int *slot;
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

#endif
