/* What integrator implementations see. One file per algorithm fills the ops table in its
 * create function; the registry (registry.c) lists them by name. */
#ifndef HS_INTEGRATOR_IMPL_H
#define HS_INTEGRATOR_IMPL_H

#include "hysim/integrator.h"
#include "hysim/linalg.h"

struct hs_integrator_ops {
    /* Called by hs_integrator_setup after the base has stored dyn, dt, n and the initial
     * d, v, a (a from equilibrium with the initial stiffness of the experimental part).
     * Allocate work arrays and factor constant matrices here. */
    int (*setup)(hs_integrator *it);
    int (*predict)(hs_integrator *it, hs_step_io *io);
    int (*correct)(hs_integrator *it, hs_step_io *io);
    void (*destroy)(hs_integrator *it); /* frees data (may be NULL) */
    /* Extra state beyond d, v, a, t, step (optional; NULL when none). */
    size_t (*state_size)(const hs_integrator *it);
    int (*state_save)(const hs_integrator *it, double *out);
    int (*state_load)(hs_integrator *it, const double *in);
    /* The estimated experimental tangent K_l (optional; hs_integrator_experimental_stiffness). */
    int (*experimental_stiffness)(const hs_integrator *it, double *Kl);
    /* 1 when the algorithm takes the sparse form of hs_dynamics (dyn.K0s); sparse_exp: also
     * with experimental substructures (dyn.Kes, constant). */
    int sparse, sparse_exp;
};

struct hs_integrator {
    hs_ctx *ctx;
    const char *type; /* registry name (static storage) */
    struct hs_integrator_ops ops;
    void *data;
    hs_dynamics dyn;
    int n;
    double dt;
    double t;
    int64_t step;
    double *d, *v, *a; /* committed state at t_n */
    double *f_prev;    /* external force of the last committed step (n), kept by the base */
    hs_initial_acceleration start; /* how setup starts a (hs_integrator_set_initial_acceleration) */
    /* Half-bandwidths, set by hs_integrator_setup (hs_int_bandwidths): kd of M, Me, C, K0, Ke
     * (the constant matrices; matvecs and their solvers use it), kd_tangent of those and the
     * tangents Kt, Ct from restore (Newton matrices). n - 1 when dense. */
    int kd, kd_tangent;
    /* Packed band copies (linalg.h, half-bandwidth kd) of dyn.M, dyn.C, dyn.K0, dyn.Me, made by
     * hs_integrator_setup for the step loops (NULL when the matrix is absent). Ke is read from
     * dyn (its content may change between steps). */
    double *Mp, *Cp, *K0p, *Mep;
    /* Sparse path: dyn.Ms, dyn.Cs, dyn.K0s (hs_int_matrix order) each equal to its transpose, so
     * that hs_int_matvec_add multiplies by rows (hs_csc_symmetric_matvec_add) */
    unsigned char csc_symmetric[3];
    struct hs_int_massless *ml; /* DOFs without mass (massless.c), or NULL */
};

/* Shared helpers for implementations (src/integrators/common.c). */
/* r_e(d) linearised about the command: out += r_exp + Ke (d - d_cmd); no-op when r_exp NULL. */
void hs_int_add_experimental(const hs_integrator *it, const hs_step_io *io, const double *d,
                             double *out);
/* 1 when every value is finite and below the runaway bound; otherwise records a message naming
 * the step and DOF and returns 0. */
int hs_int_check_finite(hs_integrator *it, const double *x, const char *what);
/* Sets it->kd and it->kd_tangent from the patterns of it->dyn (call again when dyn.Ke changes
 * pattern). */
void hs_int_bandwidths(hs_integrator *it);
/* A linear solver for matrices of half-bandwidth kd (it->kd or it->kd_tangent): sparse (CHOLMOD,
 * KLU when not SPD) when hs_linsolver_sparse_pays on the entries of M, Me, C, K0 and Ke, else
 * banded or dense as hs_linsolver_create_band chooses. */
int hs_int_linsolver(hs_integrator *it, int kd, hs_linsolver **out);
/* The layout of the tangents that dyn.restore fills: packed with half-bandwidth
 * dyn.tangent_band - 1 when it is > 0, else dense n x n. Size in doubles, half-bandwidth
 * (n - 1 when dense) and element (i, j). */
size_t hs_int_tangent_size(const hs_integrator *it);
int hs_int_tangent_kd(const hs_integrator *it);
static inline double hs_int_tangent_at(const hs_integrator *it, const double *K, int i, int j)
{
    const int tb = it->dyn.tangent_band;
    if (tb <= 0) return HS_AT(K, it->n, i, j);
    const int dist = i > j ? i - j : j - i;
    return dist < tb ? HS_BAND_AT(K, tb - 1, i, j) : 0.0;
}
/* The sparse form of the dynamics (dyn.K0s; compressed columns, no n x n array anywhere). */
static inline int hs_int_sparse(const hs_integrator *it)
{
    return it->dyn.K0s != NULL;
}
typedef enum hs_int_matrix { HS_INT_M, HS_INT_C, HS_INT_K0 } hs_int_matrix;
/* y += alpha X x for X = M, C or K0 of the dynamics: the packed band copy (it->Mp, ...), or the
 * compressed columns on the sparse path. An absent C adds nothing. Never allocates. */
static inline void hs_int_matvec_add(const hs_integrator *it, hs_int_matrix which, const double *x,
                                     double alpha, double *y)
{
    const hs_dynamics *dyn = &it->dyn;
    if (dyn->K0s) {
        const hs_csc *A = which == HS_INT_M ? dyn->Ms : which == HS_INT_C ? dyn->Cs : dyn->K0s;
        if (A && it->csc_symmetric[which])
            hs_csc_symmetric_matvec_add(A, x, alpha, y);
        else if (A)
            hs_csc_matvec_add(A, x, alpha, y);
        return;
    }
    const double *A = which == HS_INT_M ? it->Mp : which == HS_INT_C ? it->Cp : it->K0p;
    if (A) hs_packed_matvec_add(it->n, it->kd, A, x, alpha, y);
}
/* Sparse path: the union of the patterns of M, C, K0 and, when with_tangent, the tangent's. */
int hs_int_sparse_pattern(hs_integrator *it, int with_tangent, hs_csc **out);
/* Sparse path: a solver for matrices of pattern P. Factored once (refactor 0): CHOLMOD (KLU when
 * not SPD) when hs_linsolver_sparse_pays, else LAPACK's band or dense; refactored at every
 * Newton iteration (refactor 1): KLU, whose refactor and solve allocate nothing (CHOLMOD's
 * numeric factor allocates its update workspace at every call), else LAPACK's band or dense. */
int hs_int_linsolver_csc(hs_integrator *it, const hs_csc *P, int refactor, hs_linsolver **out);
/* Sparse path: a M + b C + c K0 factored once (and solved once, so that the step's solves
 * allocate nothing); `what` names the matrix in the error for a singular one. */
int hs_int_factor_combination(hs_integrator *it, double a, double b, double c, const char *what,
                              hs_linsolver **out);
/* DOFs without mass (massless.c; docs/integrators.md, "Experimental DOFs without mass"). Setup
 * finds the zero diagonal entries of dyn's M, refuses an integrator that does not take them (the
 * registry's `massless`) and factors K_I,00 = K0 there (called by hs_integrator_setup); the
 * command rewrites d's massless entries with the static condensation of the step's increment
 * d~ - d(n) (the entries with mass) and of f(n+1) - f(n). */
typedef struct hs_int_massless hs_int_massless;
int hs_int_massless_setup(hs_integrator *it, const hs_dynamics *dyn);
void hs_int_massless_free(hs_integrator *it);
int hs_int_massless_count(const hs_integrator *it);
int hs_int_has_mass(const hs_integrator *it, int i);
int hs_int_massless_command(const hs_integrator *it, const hs_step_io *io, double *d);
/* Makes it->Mp, Cp, K0p, Mep from it->dyn and it->kd. */
int hs_int_pack(hs_integrator *it);
void hs_int_unpack(hs_integrator *it);

#endif
