/* What os_tangent and implicit_hht_fe share: the HHT-alpha core (implicit_core.c), the
 * experiment bookkeeping in actuator coordinates (sizing from the experiment layout, the
 * estimated tangent K_l and its global image K = T^T K_l T, Mosqueda & Ahmadizadeh 2008b, eq. 5.8,
 * the previous measurement) and the operator-splitting correction of Mosqueda & Ahmadizadeh 2008b,
 * section 5 (eq. 3.6, 5.1). Not public: only the integrator files include it. */
#ifndef HS_HYBRID_CORE_H
#define HS_HYBRID_CORE_H

#include "force_estimator.h"
#include "implicit_core.h"
#include "tangent_estimator.h"

typedef struct hs_hybrid {
    hs_implicit core;  /* HHT-alpha state (q = r(n)) and Newton work */
    double threshold;  /* option `threshold` (Mosqueda & Ahmadizadeh 2008b, eq. 5.9); < 0: from the
                          noise RMS */
    int want_fe;       /* 1: also size a force estimator (implicit_hht_fe) */
    double max_extrap; /* force estimator: allowed extrapolation, fraction of dt */
    int nact;          /* 0 until sized */
    hs_tangent_estimator *te;
    hs_force_estimator *fe;
    double *Kg;              /* T^T K_l T (n x n); it->dyn.Ke points here once sized */
    double *x_prev, *f_prev; /* the previous measurement (nact) */
    int have_prev;
    double *xl, *fl; /* work (nact) */
    double *rg;      /* work (n) */
} hs_hybrid;

/* Reads alpha (default -0.05, in [-1/3, 0]), tol, max_iter (the core's) and threshold. */
int hs_hybrid_init(hs_integrator *it, hs_hybrid *h, const hs_options *opts);
/* Sizes from it->dyn.exp when given, then sets up the core. */
int hs_hybrid_setup(hs_integrator *it, hs_hybrid *h);
/* Sizes from exp when not yet sized (late sizing allocates once); checks it matches otherwise. */
int hs_hybrid_size(hs_integrator *it, hs_hybrid *h, const hs_experiment *exp);
/* Updates the tangent from the measured increment since the previous step and keeps this
 * measurement. Returns 1 when the tangent was updated, 0 when kept, or a negative HS_E code. */
int hs_hybrid_observe(hs_integrator *it, hs_hybrid *h, const hs_experiment *exp);
/* x = T d (nact) and r += T^T f (n). */
void hs_hybrid_to_actuators(const hs_integrator *it, const hs_experiment *exp, const double *d,
                            double *x);
void hs_hybrid_add_global(const hs_integrator *it, const hs_experiment *exp, const double *f,
                          double *r);
/* The step of Mosqueda & Ahmadizadeh 2008b, section 5: HHT-alpha with the experimental force
 * r = T^T (f_meas + K_l (T d - x_meas)) (eq. 5.1), Newton on the numerical part. */
int hs_hybrid_os_correct(hs_integrator *it, hs_hybrid *h, hs_step_io *io);
void hs_hybrid_free(hs_hybrid *h);
/* Copies K_l (nact x nact) into Kl; HS_EUNSUPPORTED (no message) until sized. */
int hs_hybrid_tangent(const hs_hybrid *h, double *Kl);

/* Checkpoints: q(n), and once sized K_l, P, the previous measurement. */
size_t hs_hybrid_state_size(const hs_integrator *it, const hs_hybrid *h);
int hs_hybrid_state_save(const hs_integrator *it, const hs_hybrid *h, double *out);
int hs_hybrid_state_load(hs_integrator *it, hs_hybrid *h, const double *in);

#endif
