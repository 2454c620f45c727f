/* What the command generator's files see: its layout and the helpers they share. */
#ifndef HS_CMDGEN_IMPL_H
#define HS_CMDGEN_IMPL_H

#include "hysim/cmdgen.h"
#include "hysim/linalg.h"

#define HS_CMDGEN_MAX_ORDER 3

/* Free vibration: Newmark average acceleration with operator splitting (initial stiffness K0),
 * one step per tick, measured restoring force. */
typedef struct hs_cmdgen_fv {
    int enabled;
    double h;                        /* simulated seconds per step */
    double *M, *C, *K0;              /* nact x nact */
    hs_linsolver *meff, *mass;       /* M + h/2 C + h^2/4 K0, and M */
    double *d, *v, *a, *dp, *vp, *r; /* state, predictors, work (nact) */
    int started, stopping;
    double peak_v, peak_f;
    int64_t quiet, ticks, quiet_needed, max_ticks;
    /* the final stop: c = c0 + v0 (s - s^2 / 2), s = j / S */
    double *c0, *v0;
    int64_t stop_j, stop_ticks;
} hs_cmdgen_fv;

struct hs_cmdgen {
    hs_ctx *ctx;
    hs_cmdgen_params p;
    int n, order;
    int64_t N;         /* ticks per step */
    int64_t T1, T2, B; /* extrapolate ticks, slow ticks, blend ticks at each end of slow */
    double slow_m;     /* plateau speed factor of slow (reaches slow_limit exactly) */
    int64_t Th;        /* hold ticks before free_vibration (0 = never) */
    hs_cmdgen_state state;
    int started; /* a first target arrived */
    /* targets, newest first: hist[k * n + j], k = 0 .. order */
    double *hist;
    double *target; /* pending target */
    int pending;
    double *cmd, *vel; /* command and its velocity per tick */
    /* the step: x = step parameter of the command; k ticks of the state so far */
    double x;
    int64_t k;
    double x_slow0; /* x at the start of slow */
    double x_u;     /* x where the interpolation restarted */
    /* interpolation (Hermite restart): c(s) from c0, m0 to c1, m1 over M ticks */
    double *ic0, *im0, *ic1, *im1;
    int64_t iM;
    hs_cmdgen_fv fv;
    hs_cmdgen_step cur, last;
    int have_last;
    hs_cmdgen_summary sum;
};

/* Polynomials (cmdgen_poly.c). Predictor through hist (newest at x = 0, then -1, -2, ...): value
 * and derivative (per unit x) at x, for every actuator. */
void hs_cmdgen_predict(int n, int order, const double *hist, double x, double *c, double *dc);
/* Cubic Hermite on s in [0, 1]: value and derivative (per unit s). */
double hs_cmdgen_hermite(double c0, double m0, double c1, double m1, double s, double *ds);
/* Slow's speed profile: factor rho(tau) and its integral I(tau) over [0, tau] (ticks). */
void hs_cmdgen_slow_profile(int64_t T2, int64_t B, double m, double tau, double *rho, double *I);

/* Free vibration (cmdgen_fv.c) */
int hs_cmdgen_fv_setup(hs_cmdgen *g);
void hs_cmdgen_fv_free(hs_cmdgen_fv *fv);
void hs_cmdgen_fv_reset(hs_cmdgen_fv *fv);
/* One tick; returns HS_CMDGEN_EV_DONE when the final stop is complete, or a negative code. */
int hs_cmdgen_fv_tick(hs_cmdgen *g, const double *f_meas);

/* Statistics (cmdgen_stats.c) */
void hs_cmdgen_stats_clear(hs_cmdgen *g);
void hs_cmdgen_stats_tick(hs_cmdgen *g, hs_cmdgen_state produced_by);
void hs_cmdgen_stats_update(hs_cmdgen *g);
void hs_cmdgen_stats_target(hs_cmdgen *g);

#endif
