/* The implicit Newmark-family step shared by `newmark` (alpha = 0) and `hht` (the papers' form,
 * Mosqueda & Ahmadizadeh 2008b eq. 3.1-3.4). Not public: only the integrator files include it. */
#ifndef HS_IMPLICIT_CORE_H
#define HS_IMPLICIT_CORE_H

#include "integrator_impl.h"
#include "newton_update.h"

typedef struct hs_implicit {
    double alpha, beta, gamma; /* HHT alpha (0 for Newmark), Newmark beta and gamma */
    double tol;                /* relative tolerance on the displacement increment / residual */
    int max_iter;
    /* Which tangent the Newton matrix holds (option `tangent`): 0 the current one, refactored at
     * every iteration (full Newton, the default); HS_IMPLICIT_INITIAL the one at the initial
     * state, factored once at setup (modified Newton: a step costs solves only); N > 0 the
     * current one at the first trial of every N-th step, kept in between. */
    int refresh;
    int constant; /* 1: linear model without Ke, the matrix is factored once */
    /* sparse full Newton (option `update`): the DOFs on which J may differ from its last full
     * factor and still be solved as a Woodbury update of it (newton_update.h); 0: refactor */
    int update_dofs;
    hs_newton_update *upd; /* owns the solver then (ls NULL) */
    hs_linsolver *ls;      /* effective (Newton) matrix */
    double *J;             /* packed, half-bandwidth it->kd_tangent */
    double *Kt, *Ct;       /* restore's layout (hs_int_tangent_size) */
    double *dp, *vp;       /* Newmark predictors d~ = d + dt v + dt^2 (1/2 - beta) a, v~ */
    double *d1, *v1, *a1;  /* trial state at t(n+1) */
    double *r, *R, *b, *dx, *tmp;
    double *q;  /* restoring force (numerical + experimental) at t(n); HHT state */
    double *cv; /* C v1 at the last residual; cv_ok: a converged step's, v1 = v(n) then */
    int cv_ok;
    /* sparse path (dyn.K0s): J in compressed columns (the union of the patterns of M, C, K0 and
     * the tangent), and the slot in J of each entry of M, C and the tangent */
    hs_csc *Js;
    double *Jmc; /* J's constant part M / (beta dt^2) + (1 + alpha) gamma / (beta dt) C */
    /* with dyn.restore_var: the J positions of dyn.tangent_var and (1 + alpha) Kes at each; J
     * assembled once in full (j_assembled, with Kes when j_with_ke), then at those positions only
     * (j_partial: the last assembly was such) */
    int *jvar;
    double *jvar_ke;
    int j_assembled, j_with_ke, j_partial;
    int *slot_m, *slot_c, *slot_t, *slot_ke, *slot_me; /* ... and of Kes, Mes */
} hs_implicit;

/* Reads the common options (tol, max_iter) and checks beta, gamma, alpha; fills s. */
int hs_implicit_init(hs_integrator *it, hs_implicit *s, const hs_options *opts, double alpha,
                     double beta, double gamma);
#define HS_IMPLICIT_INITIAL (-1)
/* The options `tangent` (current | initial | every N) and `update` (woodbury | refactor,
 * update_dofs) of newmark and hht (docs/integrators.md). */
int hs_implicit_tangent_option(hs_integrator *it, hs_implicit *s, const hs_options *opts);
int hs_implicit_setup(hs_integrator *it, hs_implicit *s);
/* d_cmd = d(n) + dt v(n) + dt^2/2 a(n) (Mosqueda & Ahmadizadeh 2008b, eq. 3.5). */
/* s->J = the Newton matrix at the current s->Kt, s->Ct (Ke joins when with_ke). */
void hs_implicit_assemble(hs_integrator *it, hs_implicit *s, int with_ke);
int hs_implicit_predict(hs_integrator *it, hs_implicit *s, hs_step_io *io);
int hs_implicit_correct(hs_integrator *it, hs_implicit *s, hs_step_io *io);
void hs_implicit_free(hs_implicit *s);
/* Makes it a plain implicit integrator (newmark, hht): a fresh hs_implicit in it->data and the
 * ops that set it up, step and free it, on the dense and sparse paths (Kes by a Woodbury update).
 * Returns that state, NULL when out of memory. */
hs_implicit *hs_implicit_attach(hs_integrator *it);

/* The options newmark and hht share, the tail of their hs_param_spec tables. */
/* clang-format off */
#define HS_IMPLICIT_NEWTON_PARAMS                                                                  \
    {"tol", HS_PARAM_NUM, 0, "Newton tolerance, relative (default 1e-10)"},                        \
    {"max_iter", HS_PARAM_NUM, 0, "Newton iterations per step (default 20)"},                      \
    {"tangent", HS_PARAM_STR, 0,                                                                   \
     "Newton matrix: current (full Newton, default) | initial (factored once) | every N (steps)"}, \
    {"update", HS_PARAM_STR, 0,                                                                    \
     "sparse Newton: woodbury (the factor kept while the tangent changes on few DOFs, default) | " \
     "refactor (every iteration)"},                                                                \
    {"update_dofs", HS_PARAM_NUM, 0,                                                               \
     "woodbury: the DOFs on which the tangent may differ from the factored one (default 64)"}
/* clang-format on */

#endif
