/* hysim integrators: time-stepping algorithms for M a + C v + r(d, v) + r_e = f.
 *
 * Every step is split in two so that an experimental substructure can sit between the halves:
 *   predict  -> io->d_cmd, the displacement to impose on the experimental elements (global);
 *   (the coordinator commands it at the sites and measures the experimental restoring force)
 *   correct  <- io->r_exp, the measured force at d_cmd (global), and completes the step.
 * Numerical-only runs call hs_integrator_step, which passes r_exp = NULL (no experimental part).
 * Implicit methods iterate on the numerical part only; the experimental part enters linearised
 * about the command: r_e(d) = r_exp + Ke (d - d_cmd). Nothing here knows what a site is. */
#ifndef HYSIM_INTEGRATOR_H
#define HYSIM_INTEGRATOR_H

#include "hysim/base.h"
#include "hysim/experiment.h"
#include "hysim/options.h"
#include "hysim/sparse.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What an integrator sees of the structure. Matrices n x n, column-major, lent (the caller keeps
 * them alive while the integrator lives). */
typedef struct hs_dynamics {
    int n;
    const double *M;  /* total mass (numerical + experimental) */
    const double *Me; /* experimental part of M, or NULL (Mosqueda & Ahmadizadeh 2008b, eq. 3.4) */
    const double *C;  /* viscous damping */
    const double *K0; /* initial stiffness of numerical + experimental parts */
    const double *Ke; /* experimental stiffness, global (initial or the current estimate; its
                         content may change between steps), or NULL without experiment */
    /* Trial numerical restoring force at (d, v): r, and when not NULL the tangents Kt = dr/dd
     * and Ct = dr/dv (n x n, in the layout that tangent_band below gives). Returns 0 or a negative
     * HS_E code. Never allocates. */
    int (*restore)(void *user, const double *d, const double *v, double *r, double *Kt, double *Ct);
    /* Accept the last trial state (called once per step, after the final restore). */
    int (*commit)(void *user);
    void *user;
    int linear; /* 1 when the numerical part is linear elastic (r = K d) */
    /* Layout of Kt and Ct. 0: dense n x n, restore writes every entry. > 0: 1 + their
     * half-bandwidth kt, and Kt, Ct are in packed band storage (linalg.h, HS_BAND_AT with kd =
     * kt: (2 kt + 1) x n doubles); restore writes all of Kt, and all of Ct unless no material is
     * rate-dependent (then Ct is zero and left as it is: the caller zeroes it once).
     * hs_model_dynamics sets it from the springs; integrators use it (with the patterns of M,
     * Me, C, K0, Ke) to choose a banded solver (docs/architecture.md, "Linear solvers"). */
    int tangent_band;
    /* Layout of the experimental substructures (nact, T, K0l, Tp, noise RMS; lent, the per-step
     * measurement fields are not read here), or NULL. The hybrid integrators (os_tangent,
     * implicit_hht_fe) size their estimators from it at setup; without it they size them at the
     * first step that carries io->exp (one allocation then). */
    const struct hs_experiment *exp;
    /* The sparse form (large frames; docs/architecture.md, "Linear solvers"). When K0s is not
     * NULL the integrator reads Ms, Cs (NULL: no damping) and K0s in compressed columns (lent) and
     * never M, C, K0, Me, Ke (which may be NULL): nothing n x n is allocated. Experimental
     * substructures come as Kes (their initial stiffness T^T K0l T, constant) and Mes (their mass,
     * or NULL), with Ms and K0s then total (numerical + experimental) as M and K0 are
     * (hysim/experiment_sparse.h builds them); a dense Ke or Me without Kes keeps the run on the
     * dense path. restore's Kt and Ct are then the
     * values of tangent_pattern's entries (hs_csc_nnz(tangent_pattern) doubles each, in its
     * order); restore writes all of Kt, and all of Ct unless no material is rate-dependent
     * (then it leaves Ct as it is: the caller zeroes it once); tangent_band is ignored.
     * Integrators that take it: central_difference, newmark_explicit, alpha_os, cr, newmark,
     * hht; with Kes (an experiment) alpha_os and cr, whose matrices are factored once with the
     * initial Ke, and newmark and hht, whose Newton matrix holds it as a Woodbury update of the
     * factor without it (os_tangent and implicit_hht_fe change Ke between steps: they stay
     * dense). With the dense M, K0 (and C) given as well,
     * an integrator that cannot take the sparse form takes the dense path instead; without them
     * it is refused with a message that names the integrators that can. */
    const hs_csc *Ms, *Cs, *K0s, *tangent_pattern;
    const hs_csc *Kes, *Mes;
    /* The restore that the sparse path calls (tangents as values of tangent_pattern), when
     * restore itself keeps the dense layout for the dense path; NULL: restore has the sparse
     * layout. */
    int (*restore_sparse)(void *user, const double *d, const double *v, double *r, double *Kt,
                          double *Ct);
    /* Optional, sparse path: the positions (ascending, ntangent_var of them) of tangent_pattern's
     * entries that can change from one restore to the next (the nonlinear elements'; the others
     * keep the values of the first restore), and a restore that writes Kt and Ct at those
     * positions only (the caller keeps the others from a full restore). NULL: any may change. */
    const int *tangent_var;
    int ntangent_var;
    int (*restore_var)(void *user, const double *d, const double *v, double *r, double *Kt,
                       double *Ct);
} hs_dynamics;

typedef struct hs_step_io {
    int64_t step;        /* n: this step goes from t_n to t_n+1 */
    double t;            /* t_n */
    const double *f_n;   /* external force at t_n (n values) */
    const double *f_n1;  /* external force at t_n+1 */
    double *d_cmd;       /* out of predict: displacement to command (n values, caller's buffer) */
    const double *r_exp; /* in to correct: experimental force measured at d_cmd, or NULL */
    /* in to correct: the experimental substructures in actuator coordinates (measured
     * displacements, forces, recent history), or NULL; hybrid integrators (os_tangent,
     * implicit_hht_fe) use it, others need only r_exp. */
    const struct hs_experiment *exp;
    int iterations;        /* out of correct: Newton/estimation iterations taken (0 if none) */
    int fallback;          /* out of correct: 1 when the step fell back to an explicit solution */
    int stiffness_updated; /* out of correct: 1 when the experimental tangent was updated */
} hs_step_io;

typedef struct hs_integrator hs_integrator;

/* Types: see the registry (hs_integrator_registry_*). Options are the type's parameters
 * (e.g. "alpha" for hht and alpha_os, "beta"/"gamma" for newmark, "rho_inf" for kr_alpha,
 * "tol"/"max_iter"/"tangent" for Newton). */
int hs_integrator_create(hs_ctx *ctx, const char *type, const hs_options *opts,
                         hs_integrator **out);
/* How hs_integrator_setup starts the acceleration: from equilibrium (the default),
 * a0 = M^-1 (f0 - C v0 - r(d0, v0) - Ke d0), or zero (OpenSees' start: a record whose first
 * sample is not zero then acts only from the first step on; docs/integrators.md). */
typedef enum hs_initial_acceleration {
    HS_INITIAL_ACCELERATION_EQUILIBRIUM = 0,
    HS_INITIAL_ACCELERATION_ZERO = 1
} hs_initial_acceleration;
/* Before hs_integrator_setup; HS_EINVAL for an unknown value. */
int hs_integrator_set_initial_acceleration(hs_integrator *it, hs_initial_acceleration how);
/* Attaches the dynamics (lent), the step dt and the initial state; f0 the force at t = 0.
 * Computes the initial acceleration as set (from equilibrium by default). Allocates everything
 * the steps need. */
int hs_integrator_setup(hs_integrator *it, const hs_dynamics *dyn, double dt, const double *d0,
                        const double *v0, const double *f0);
int hs_integrator_predict(hs_integrator *it, hs_step_io *io);
int hs_integrator_correct(hs_integrator *it, hs_step_io *io);
/* predict + correct with io->r_exp as given (NULL for a purely numerical model). */
int hs_integrator_step(hs_integrator *it, hs_step_io *io);
void hs_integrator_destroy(hs_integrator **it);
/* 1 when the integrator takes the sparse form of hs_dynamics (with experimental substructures
 * when with_experiment), 0 when it needs the dense matrices (docs/fe_model.md, "Large frames"). */
int hs_integrator_takes_sparse(const hs_integrator *it, int with_experiment);

const char *hs_integrator_type(const hs_integrator *it);
int hs_integrator_ndof(const hs_integrator *it);
double hs_integrator_dt(const hs_integrator *it);
/* Committed state at the current time (lent, n values). */
const double *hs_integrator_displacement(const hs_integrator *it);
const double *hs_integrator_velocity(const hs_integrator *it);
const double *hs_integrator_acceleration(const hs_integrator *it);
/* The experimental tangent stiffness the integrator estimates (os_tangent, implicit_hht_fe):
 * K_l in actuator coordinates, nact x nact column-major, copied into Kl (Mosqueda & Ahmadizadeh
 * 2008b, eq. 5.2-5.9). HS_EUNSUPPORTED (no message: a capability query) when the integrator has
 * none or has not yet been sized for the experiment. Never allocates. */
int hs_integrator_experimental_stiffness(const hs_integrator *it, double *Kl);
/* Overwrites the committed state (tests build amplification matrices with it). */
int hs_integrator_set_state(hs_integrator *it, const double *d, const double *v, const double *a);

/* Whole integrator state as doubles (checkpoints). */
size_t hs_integrator_state_size(const hs_integrator *it);
int hs_integrator_state_save(const hs_integrator *it, double *out);
int hs_integrator_state_load(hs_integrator *it, const double *in);

typedef struct hs_integrator_entry {
    const char *name;
    int (*create)(hs_integrator *it, const hs_options *opts); /* fills ops and data */
    const hs_param_spec *params;
    int order;       /* order of accuracy (1 or 2) */
    int linear_only; /* 1 when only linear numerical models are allowed (the exact solver) */
    const char *summary;
    int numerical_only; /* 1 when it cannot take measured forces (no experimental elements);
                           the test-file loader refuses it with experimental elements */
    int massless;       /* 1 when it takes DOFs without mass (a zero diagonal of M: an
                           experimental element on a frame's massless DOF); the others are
                           refused at setup and by the test-file loader (docs/integrators.md,
                           "Experimental DOFs without mass") */
} hs_integrator_entry;
/* "newmark, hht, ...": the integrators that take DOFs without mass, into buf. */
const char *hs_integrator_massless_list(char *buf, size_t cap);
size_t hs_integrator_registry_count(void);
const hs_integrator_entry *hs_integrator_registry_get(size_t i);
const hs_integrator_entry *hs_integrator_registry_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
