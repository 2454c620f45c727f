/* The script's own analysis (docs/opensees_tcl.md, "The script's own analysis"): what OpenSees'
 * `constraints ... analysis ... analyze` do, on hysim's frame model. Every free retained DOF is
 * an unknown (hysim's frame condenses nothing here: the model is defined with a unit "mass" on
 * each free DOF only so that hs_fe keeps them all; the real mass matrix is assembled here from
 * the nodes' and elements' lumped masses through the DOF maps). The matrices are values over the
 * frame's sparse pattern (hs_os_storage), factored by the solver the linsolver chooses for it.
 *
 * The meanings are OpenSees 3.x's (SRC/analysis): LoadControl and DisplacementControl
 * (DisplacementControl.cpp: the reference load phat = P(lambda + 1) - R(U) when the integrator
 * first runs, the load factor from the constraint on the controlled DOF at every iteration),
 * Newmark and HHT (HHT.cpp: the predictor, the response at t + alpha dt, loads at t + alpha dt,
 * the commit at t + dt), Newton, ModifiedNewton and Linear (NewtonRaphson.cpp: unbalance, then
 * tangent, solve, update, unbalance, test), the tests NormDispIncr, NormUnbalance, EnergyIncr
 * (the norm of the increment, of the unbalance after the update, half the absolute product), and
 * Rayleigh damping C = alphaM M + betaK Kt + betaKinit K0 + betaKcomm Kcommitted per element
 * group (Element::getDamp, Node). `analyze` returns 0, or -3 when a step fails (the model back
 * at the last commit), as OpenSees' StaticAnalysis and DirectIntegrationAnalysis. */
#ifndef HS_OPENSEES_ANALYSIS_H
#define HS_OPENSEES_ANALYSIS_H

#include "opensees_tcl.h"

#include "hysim/linalg.h"

typedef enum { HS_OS_ALG_NEWTON, HS_OS_ALG_MODIFIED_NEWTON, HS_OS_ALG_LINEAR } hs_os_algorithm;
typedef enum {
    HS_OS_TEST_DISP,
    HS_OS_TEST_UNBALANCE,
    HS_OS_TEST_ENERGY,
    HS_OS_TEST_FIXED
} hs_os_test_kind;
typedef enum {
    HS_OS_INT_NONE,
    HS_OS_INT_LOAD,
    HS_OS_INT_DISP,
    HS_OS_INT_NEWMARK, /* HHT: alpha < 1 */
    HS_OS_INT_HSC,     /* HSConstraint: OpenSees' hyperspherical arc length */
    HS_OS_INT_EQPATH   /* EQPath: minimum residual displacement (1), normal plane (2) */
} hs_os_integrator_kind;

/* What the script's analysis commands set (kept across `analysis`, cleared by wipeAnalysis). */
typedef struct hs_os_settings {
    int analysis; /* 0: none, 1: Static, 2: Transient */
    int by_eigen; /* the Transient analysis eigen made (hs_os_analysis_for_eigen) */
    hs_os_algorithm alg;
    int initial; /* -initial: the initial stiffness */
    int has_alg;
    hs_os_test_kind test;
    double tol;
    int max_iter, print_flag, has_test;
    hs_os_integrator_kind integ;
    double incr, jd, incr_min, incr_max; /* LoadControl / DisplacementControl */
    int node, dof;                       /* DisplacementControl: the controlled DOF (0-based) */
    double arc2, psi_u2, psi_f2, u_ref2; /* HSConstraint: the squares of its four numbers */
    double arclen;                       /* EQPath: the arc length */
    int eq_type;                         /* EQPath: 1 or 2 */
    double gamma, beta, alpha;           /* Newmark (alpha = 1), HHT */
    int explicit_newmark;                /* NewmarkExplicit gamma: the unknown is the accel. */
    int alpha_os, update_elem_disp;      /* AlphaOS alpha <beta gamma> <-updateElemDisp> */
    int hht;                             /* integrator HHT (no modal damping in its tangent) */
    /* NewmarkHSFixedNumIter gamma beta <-polyOrder p> (OpenSees' NewmarkHSFixedNumIter.cpp):
     * Newmark whose iteration k of N moves the displacement to the polynomial through the last
     * steps' starts and the full increment at x = k / N; an extra increment at commit */
    int hs_fixed, poly_order;
    /* constraints: 0 Plain (OpenSees' default: an imposed motion taken as zero, its DOF held,
     * PlainHandler.cpp "homogeneous constraint assumed"), 1 Transformation, Penalty, Lagrange,
     * Auto (hysim eliminates every constraint by transformation) */
    int handler;
} hs_os_settings;

#define HS_OS_GROUPS 8 /* Rayleigh stiffness groups (distinct factors) */

/* The storage of the analysis' matrices (opensees_storage.c): values over one pattern P, the
 * frame's sparse pattern (hs_fe_sparse_pattern: the elements' DOF maps, found once; restores
 * write into its values through each element's slots) or, for a frame with condensed DOFs or a
 * mass outside that pattern, the full n x n one, whose values are the dense column-major matrix
 * (hs_fe_restore). */
typedef struct hs_os_storage {
    const hs_csc *P; /* the frame's (lent) or the full one (owned: full) */
    hs_csc *full;
    int sparse; /* P is the frame's pattern */
    int n;
    size_t nnz;
    hs_csc view; /* P with the values being factored */
} hs_os_storage;
/* A Rayleigh group's frame (a part of the elements) in P: its own pattern's slots in P's. */
typedef struct hs_os_part {
    int *map;    /* NULL: the same pattern as P (or the full storage) */
    double *val; /* scratch: values over the part's own pattern */
    size_t nnz;
} hs_os_part;
int hs_os_storage_init(hs_ctx *ctx, hs_fe *fe, int n, hs_os_storage *s);
/* Back to the full pattern (a mass outside the frame's pattern). */
int hs_os_storage_to_full(hs_ctx *ctx, hs_os_storage *s);
void hs_os_storage_free(hs_os_storage *s);
/* v = the dense D (n x n) at P's places; 1 when D has a nonzero outside P. */
int hs_os_storage_gather(const hs_os_storage *s, const double *D, double *v);
/* y -= A x (columns with x_j = 0 skipped, as the dense loops did), y = A x. */
void hs_os_storage_matvec_sub(const hs_os_storage *s, const double *A, const double *x, double *y);
void hs_os_storage_matvec(const hs_os_storage *s, const double *A, const double *x, double *y);
/* The slots of a group's frame fe in P (nothing on the full storage). */
int hs_os_storage_part(hs_ctx *ctx, const hs_os_storage *s, hs_fe *fe, hs_os_part *part);
void hs_os_part_free(hs_os_part *part);
/* r, Kt (and Ct, when not NULL and some material is rate-dependent; else left: zero it once)
 * WRITTEN at d, v; part: a group's frame (its Kt only). The initial stiffness into K. */
int hs_os_storage_restore(const hs_os_storage *s, const hs_os_part *part, hs_fe *fe,
                          const double *d, const double *v, double *r, double *Kt, double *Ct);
int hs_os_storage_initial(const hs_os_storage *s, const hs_os_part *part, hs_fe *fe, double *K);
/* The linear solver for P (the linsolver's own choice of dense, banded or sparse) and the factor
 * of the matrix of values A. */
int hs_os_storage_solver(hs_ctx *ctx, const hs_os_storage *s, hs_linsolver **out);
int hs_os_storage_factor(hs_os_storage *s, hs_linsolver *ls, const double *A);

typedef struct hs_os_live {
    hs_ctx *ctx;
    const hs_os_model *m;
    hs_fe *fe;
    int n;
    int nnodes, nels;          /* the model as built (a later node or element: an error) */
    unsigned long long masses; /* signature of the masses and Rayleigh factors as assembled */
    /* Rayleigh stiffness factors of each group of elements; fe of the group (the main one when
     * it holds every element), its initial and last committed tangents */
    int ngroups;
    hs_fe *gfe[HS_OS_GROUPS];
    hs_os_part part[HS_OS_GROUPS];
    double beta[HS_OS_GROUPS][3];
    double *Kg0[HS_OS_GROUPS], *Kgc[HS_OS_GROUPS], *Kgt[HS_OS_GROUPS]; /* Kgt: Kt when all */
    hs_os_storage st; /* the matrices below but M are values over st.P */
    double *M;        /* mass (n x n dense: eigen's) */
    double *Md;       /* its diagonal, and whether it is all of it (m_diag: lumped masses) */
    int m_diag;
    double *Mv, *Cm; /* mass, alphaM-weighted mass */
    /* C's part that no restore changes (alphaM M + betaKinit K0), whether any betaK or
     * betaKcommitted makes C change; the effective matrix's constant part a c2 C + c3 M and the
     * constants it was formed with (keff_ok 0: form it again) */
    double *Cconst, *Keffc;
    int c_varies, keff_ok, rate; /* rate: some material is rate-dependent (Ct) */
    double keff_at[3];
    double *U, *V, *A;    /* committed */
    double *Ut, *Vt, *At; /* trial, at t + dt */
    double *Aupd; /* the trial accelerations at the elements' last update (OpenFresco's abCtrl) */
    double *Ua, *Va; /* at t + alpha dt (HHT), the elements' state (AlphaOS) */
    double *Upt;     /* AlphaOS: the last step's predictor displacement */
    /* NewmarkHSFixedNumIter: its Ut, Utm1, Utm2 (the displacements at the starts of this and
     * the two steps before), the iteration being updated */
    double *Hst, *Htm1, *Htm2;
    int iter_now;
    double *Uc, *Vc, *Ac; /* at the step's start */
    double *r, *b, *x, *Kt, *Ct, *K0, *Keff, *C, *P, *tmp, *phat, *dUhat, *Kx;
    double *rg; /* a Rayleigh group's resisting force (scratch: x holds the increment) */
    hs_linsolver *ls;
    double time, time_commit; /* the domain's time (the load factor in a static analysis) */
    double c2, c3, dt;        /* the transient step's constants */
    int phat_ready, iters_last;
    int P_ok; /* P holds the applied load at P_at (set within one hs_os_live_analyze call) */
    double P_at;
    double incr_now; /* LoadControl / DisplacementControl increment of the last step */
    double dlambda;  /* DisplacementControl, HSConstraint: the step's load-factor increment */
    double *dUstep;  /* HSConstraint, EQPath: the step's displacement increment */
    double *dU0;     /* EQPath: the step's first increment (the normal plane's normal) */
    int eq_ctrl;     /* DisplacementControl: the controlled equation */
    long steps;      /* committed steps */
    /* modalDamping (opensees_tcl_modal.c): the last eigen's modes (omega^2, M phi with phi
     * M-orthonormal, n x nmodes) and the damping matrix sum 2 zeta_i omega_i (M phi_i)(M phi_i)^T
     * (NULL: none) */
    int nmodes, modal_q; /* modal_q: modalDampingQ (none in the tangent) */
    double *modal_w2, *modal_mphi, *Cmodal;
    /* the nodes' displacements when a coordinate was updated (OpenSees' trusses' initial
     * displacement: their force from d - Uref); NULL: none. Ushift: scratch */
    double *Uref, *Ushift;
    /* the lazy last unbalance (opensees_analysis.c, solve_step) is off: an experimental element
     * (each update is a command to its site), or a recorder reading the unbalance after the step
     * (reactionIncludingInertia; set before each analyze) */
    int has_exp, unbalance_read;
    /* pattern MultipleSupport's imposed motions (opensees_imposed.c): each one's equation and
     * ground motion (an index into the model's gms) */
    int nsp, sp_warned;
    int sp_eq[HS_OS_MAX_IMPOSED], sp_gm[HS_OS_MAX_IMPOSED];
} hs_os_live;

/* A recorder of the script (opensees_tcl_recorder.c). */
typedef struct hs_os_recorder hs_os_recorder;

/* The analysis side of the interpreter: the settings, the live model, the recorders. */
typedef struct hs_os_analysis {
    hs_os_settings set;
    hs_os_live *lv;
    int integ_changed; /* an integrator command since the last analyze */
    hs_os_recorder *recs;
    int nrecs;
    /* modalDamping: the factor of each mode (OpenSees' Domain keeps them until wipe) */
    double *modal_zeta;
    int nmodal;
    int eigen_count;   /* modes the last eigen found (0: none since wipe or wipeAnalysis) */
    int modes_pending; /* eigen came before the live model: its modes at the first analyze */
    int modal_dirty;   /* the factors or the modes changed: the damping matrix again */
    int modal_q;       /* modalDampingQ: the force only, none in the tangent */
    /* parameter, addToParameter, updateParameter (opensees_tcl_parameter.c) */
    struct hs_os_param *params;
    int nparams;
    int rebuild; /* an element's E or A, or a coordinate, changed since the live model was built */
    /* a fixed DOF's imposedMotion since then: the model rebuilt with its equation, the elements'
     * committed state carried over (hs_os_live_rebuild) */
    int sp_rebuild;
    int coord_reset; /* a coordinate changed after an analysis: the elements start again */
} hs_os_analysis;

/* Writes every recorder's row for the committed state (opensees_tcl_recorder.c); closes them. */
int hs_os_record(hs_os_state *st);
void hs_os_recorders_close(hs_os_analysis *an);
/* 1 when a recorder reads the unbalance of the step's last iteration (reactionIncludingInertia). */
int hs_os_recorders_read_unbalance(const hs_os_analysis *an);

/* Builds the live model of what the script defined so far (at the first analyze). */
int hs_os_live_create(hs_os_state *st, hs_os_live **out);
/* A `mass`, `rayleigh` or `region` after the live model was built: its mass, Rayleigh mass and
 * stiffness groups again (as OpenSees applies them from then on); the committed stiffness of a
 * new group is the tangent at the committed state. Nothing when none changed. */
int hs_os_live_refresh(hs_os_state *st, hs_os_live *lv);
void hs_os_live_destroy(hs_os_live **lv);
/* analyze: numIncr steps (dt for a transient analysis); 0 or -3 (a step failed: back at the
 * last commit); HS_E codes for errors (message in ctx). `on_commit` records after each step. */
int hs_os_live_analyze(hs_os_live *lv, const hs_os_settings *set, int steps, double dt,
                       int (*on_commit)(void *user), void *user, int *result);
/* A probe called after each committed step of every analysis (process-wide; NULL: none):
 * bench/bench_fiber_steps.c times the steps with it. */
void hs_os_live_set_probe(void (*probe)(void *user), void *user);
/* The member loads (eleLoad) of every Plain pattern at its factor at time t, in the model and
 * every Rayleigh group's frame (OpenSees' applyLoad gives the elements their loads). */
void hs_os_live_member_loads(hs_os_live *lv, double t);
/* loadConst: every pattern constant at its factor now; <-time t> sets the time. */
void hs_os_live_load_const(hs_os_live *lv, hs_os_model *m, int set_time, double t);
/* UniformExcitation -vel0: the velocity of every node DOF free in the pattern's direction, once
 * (OpenSees' UniformExcitation::setDomain). */
void hs_os_live_initial_velocity(hs_os_live *lv, hs_os_model *m);
/* The live model's count lowest modes at its committed state (its tangent, condensed onto the
 * DOFs with mass, as `eigen`: opensees_tcl_eigen.c) into lv->modal_w2, lv->modal_mphi. */
int hs_os_live_modes(hs_ctx *ctx, hs_os_live *lv, int count);
/* Stores count modes (omega^2 ascending, phi nk x nk M-orthonormal on the live DOFs keep[nk]). */
int hs_os_live_store_modes(hs_os_live *lv, int count, int nk, const int *keep, const double *w2,
                           const double *phi);
/* Moves the live model's matrices to the full n x n storage, their values kept (modalDamping's
 * tangent couples every DOF); nothing when they are there already. */
int hs_os_live_storage_full(hs_os_live *lv);
/* y -= M x (the diagonal's products alone when the mass is lumped: the same bits, the other
 * entries being zeros; opensees_live.c). */
void hs_os_live_mass_sub(const hs_os_live *lv, const double *x, double *y);
/* r, Kt, Ct of the model and every Rayleigh group's tangent at d, v (opensees_live.c). */
int hs_os_live_restore(hs_os_live *lv, const double *d, const double *v);
/* The elements' state at d, v and r (Ct), the tangent left as it was where nothing reads it
 * before the next restore (HHT's commit: no Rayleigh group damping with the committed tangent);
 * Kt is then stale until the next hs_os_live_restore. */
int hs_os_live_update(hs_os_live *lv, const double *d, const double *v);
/* The modal damping matrix of the stored modes and the factors zeta[nzeta] (none when nzeta or
 * the modes are 0; modal_q: modalDampingQ's, not in the tangent); HS_EUNSUPPORTED for an integrator
 * hysim has it not for (ctx message). */
int hs_os_live_modal_damping(hs_os_live *lv, const hs_os_settings *set, const double *zeta,
                             int nzeta, int modal_q);
/* The live model again after updateParameter changed what its elements hold (a linear model
 * only: its state is its displacements), the state carried over (opensees_tcl_parameter.c). */
int hs_os_live_rebuild(hs_os_state *st, hs_os_live **lv);
void hs_os_params_free(hs_os_analysis *an);
/* modalDamping|modalDampingQ factor | factor1 factor2 ... (opensees_tcl_modal.c) */
Tcl_ObjCmdProc hs_os_cmd_modal_damping;
/* A node DOF's committed displacement, velocity or acceleration (order 0, 1, 2), or its
 * acceleration at the elements' last update (3). */
double hs_os_live_node(const hs_os_live *lv, int node, int dof, int order);
/* The reaction at a node DOF (the elements' committed forces minus the loads there). */
double hs_os_live_reaction(hs_os_live *lv, int node, int dof);
/* OpenSees' reactionIncludingInertia (Domain::calculateNodalReactions(1): the elements' forces
 * with their inertia and damping less the node's unbalance with its inertia): at a fixed DOF
 * the reaction above; at a free one the last unbalance's negative, -(P - R - C v - M a) (the
 * residual of equilibrium: 0 where the step converged). */
double hs_os_live_reaction_inertia(hs_os_live *lv, int node, int dof);

/* pattern MultipleSupport in the script's own analysis (opensees_imposed.c): OpenSees'
 * ImposedMotionSP on a free DOF under the Transformation handler, which takes the DOF out of the
 * equations and sets its displacement, velocity and acceleration to the ground motion's at the
 * time the loads apply. hysim keeps the DOF's equation and makes it say so: its value set at
 * every predictor and update, its unbalance zero, its row and column of the effective matrix
 * those of the identity (the other equations see the motion through the elements, and their
 * damping and mass through the column products, as OpenSees' elements read the node's velocity
 * and acceleration). Resolve maps the model's imposedMotions to equations (0, or HS_E codes with
 * the reason: a DOF that is not a free DOF of its own, an integrator not yet supported; set NULL:
 * the equations only, for eigen, which takes them as fixed as OpenSees' constraint handlers do). */
int hs_os_live_imposed_resolve(hs_os_live *lv, const hs_os_settings *set);
void hs_os_live_imposed_set(hs_os_live *lv, const hs_os_settings *set, double t);
void hs_os_live_imposed_rows(const hs_os_live *lv, double *b);
void hs_os_live_imposed_matrix(const hs_os_live *lv, double *A);
/* The equation of node's DOF when an imposed motion holds it, else -1. OpenSees' reaction there
 * is the elements' force less the loads (Domain::calculateNodalReactions): hysim's restoring
 * force less the applied load at that equation, at the commit. */
int hs_os_live_imposed_eq(const hs_os_live *lv, int node, int dof);

#endif
