/* The model's private layout. */
#ifndef HS_MODEL_IMPL_H
#define HS_MODEL_IMPL_H

#include "hysim/fe.h"
#include "hysim/linalg.h"
#include "hysim/model.h"

#include <stdio.h>

typedef struct hs_spring {
    char name[32];
    int from, to; /* 0-based DOFs, from may be HS_GROUND */
    hs_material *mat;
    int group;
    double force, deformation; /* committed */
} hs_spring;

struct hs_model {
    hs_ctx *ctx;
    int n;
    double *mass, *iota;
    double *M, *C; /* n x n; NULL for a large model (hs_model_is_large) */
    double *Kx;    /* extra stiffness for modes and damping (n x n), or NULL */
    hs_csc *Kxs;   /* the same in compressed columns (large models), or NULL */
    double a0, a1; /* Rayleigh coefficients of the last damping setter */
    hs_spring *springs;
    int nsprings;
    char **groups;
    int ngroups;
    unsigned char *story_top; /* n: 1 where a story ends (hs_model_mark_story), or NULL */
    int nfloors;              /* DOFs marked: n for a shear building (its DOFs are floors) */
    hs_fe *fe;                /* attached frame model, or NULL */
    int tangent_kd;           /* the dense restore's band (dynamics.c), -1: dense layout */
    int tangent_rate;         /* 1 when a rate-dependent material gives a damping tangent */
    hs_fe_matrices fe_sparse; /* the frame's compressed columns (dynamics_sparse.c), or zeros */
    int massless_ok;          /* hs_model_allow_massless: zero masses accepted */
};

/* model_massless.c: K (n x n, dense) replaced by its static condensation on the DOFs with mass,
 * [Kmm - Km0 K00^-1 K0m, 0; 0, 0] in the model's DOF order (the stiffness that damping sees when
 * some DOFs carry no mass); nothing when every DOF has mass. */
int hs_model_condense_massless(hs_model *m, double *K);

/* Adds the sparse form to dyn (from hs_model_dynamics) when the model is a frame that takes it
 * and pays (dynamics_sparse.c); leaves dyn as it is otherwise. */
int hs_model_dynamics_sparse(hs_model *m, struct hs_dynamics *dyn);
/* Fails with a message naming `what` (needs n x n arrays) and what to change instead when the
 * model is large (hs_model_is_large); 0 otherwise. */
/* The springs' forces added into r (not zeroed) and their tangents into Kt, Ct (either NULL;
 * not zeroed) at d, v: dense n x n when kd < 0, else packed band storage of half-bandwidth kd
 * (one pass: each spring's trial, force and 2 x 2 pattern). */
int hs_model_springs_restore(hs_model *m, const double *d, const double *v, double *r, double *Kt,
                             double *Ct, int kd);
int hs_model_dense_only(const hs_model *m, const char *what, const char *instead);

#endif
