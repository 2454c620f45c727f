/* hysim experiment view: what hybrid integrators see of the experimental substructures, in
 * actuator coordinates, stacked over every experimental element of every site. The coordinator
 * fills it each step after the sites answer; integrators read it (io->exp) and never see sites. */
#ifndef HYSIM_EXPERIMENT_H
#define HYSIM_EXPERIMENT_H

#include "hysim/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Samples kept per actuator for force estimation (the site's last controller ticks). */
#define HS_EXP_HISTORY 8

typedef struct hs_experiment {
    int nact;          /* actuators, all sites stacked */
    int ndof;          /* global DOFs */
    const double *T;   /* nact x ndof, column-major: actuator displacement x = T d */
    const double *K0l; /* nact x nact initial stiffness in actuator coordinates */
    /* Intrinsic parameters (Mosqueda & Ahmadizadeh 2008b, eq. 5.3: K = T_p^T P T_p), nact x nact,
     * or NULL: then an estimator takes T_p from the eigenvectors of the previous estimate (Mosqueda
     * & Ahmadizadeh 2008a, eq. 7-11). */
    const double *Tp;
    /* This step, at the command io->d_cmd: */
    const double *x_cmd;  /* nact: commanded target */
    const double *x_meas; /* nact: measured displacement when the target was reached */
    const double *f_meas; /* nact: measured force */
    double t_meas;        /* simulation time of the measurement */
    /* The last nhist samples (oldest first) of time, displacement and force per actuator;
     * hist_x[k * nact + j] is sample k of actuator j. */
    int nhist;
    const double *hist_t, *hist_x, *hist_f;
    /* Measurement noise (RMS per actuator, 0 when unknown): sets update thresholds. */
    const double *noise_disp_rms, *noise_force_rms;
} hs_experiment;

#ifdef __cplusplus
}
#endif
#endif
