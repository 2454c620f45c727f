/* OpenFresco's controls, setups and sites in hysim's interpreter (opensees_tcl_openfresco.c: the
 * commands and the elements; opensees_tcl_expsetup.c: expSetup; docs/openfresco.md). */
#ifndef HS_OPENSEES_TCL_OPENFRESCO_H
#define HS_OPENSEES_TCL_OPENFRESCO_H

#include "opensees_tcl.h"

#include "hysim/nees.h"

#define HS_OF_MAX_MATS HS_OS_NDF

typedef struct hs_of_control {
    int tag, nmat;
    int mat[HS_OF_MAX_MATS]; /* SimUniaxialMaterials: the specimens, one per actuator */
} hs_of_control;

/* The similitude factors' groups and kinds (ExpSetupCommands.cpp spellings -trialDispFact ...) */
enum { HS_OF_TRIAL, HS_OF_OUT, HS_OF_CTRL, HS_OF_DAQ };
enum { HS_OF_DISP, HS_OF_VEL, HS_OF_FORCE };

typedef struct hs_of_setup {
    int tag, control; /* control 0: the site's (none here) */
    char type[32];    /* OpenFresco's name */
    int nact;         /* actuators, one material of the control each */
    /* the trial (basic) DOF (0-based) that actuator k drives (OneActuator, NoTransformation) or
     * that the setup's control DOF k (its geometry's dof[k]) stands for */
    int trial_dof[HS_OF_MAX_MATS];
    int size_trial, size_out;
    int has_geom;                     /* actuators with geometry (TwoActuators2d ...): g */
    hs_setup_geometry g;              /* src/lab/setup_presets.c, OpenFresco's lengths */
    double fac[4][3][HS_OF_MAX_MATS]; /* [group][kind][DOF or actuator], 1 by default */
    /* Aggregator of setups among which some have actuator geometry: their tags in order (nsub
     * > 0 only then; expElement generic, twoNodeLink and the 3-D beamColumn build a link per
     * setup: opensees_tcl_exp_generic.c, opensees_tcl_exp_aggregate.c) */
    int nsub, sub[HS_OF_MAX_MATS];
} hs_of_setup;

typedef struct hs_of_site {
    int tag, setup;
} hs_of_site;

struct hs_os_fresco {
    hs_of_control *controls;
    int ncontrols;
    hs_of_setup *setups;
    int nsetups;
    hs_of_site *sites;
    int nsites;
    struct hs_of_remote **remotes; /* networked sites and controls (opensees_tcl_exp_remote.c) */
    int nremotes;
    struct hs_of_cp *cps; /* expControlPoint (opensees_tcl_exp_cp.c) */
    int ncps;
};

struct hs_os_fresco *hs_of_state(hs_os_state *st);
const hs_of_control *hs_of_find_control(const struct hs_os_fresco *f, int tag);
const hs_of_setup *hs_of_find_setup(const struct hs_os_fresco *f, int tag);

/* expElement bearing tag ... (opensees_tcl_bearing.c) */
int hs_of_exp_bearing(hs_os_state *st, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[]);
/* expElement beamColumn tag ... just defined as its link: with -initStif, EEBeamColumn2d through
 * the transformation `transf` (opensees_tcl_bearing.c) */
int hs_of_exp_beam(hs_os_state *st, Tcl_Obj *const objv[], hs_fe_transf transf);

/* expSignalFilter, and expControl's -ctrlFilters / -daqFilters (opensees_tcl_expfilter.c): wraps
 * expControl, expElement and wipeExp, so after hs_os_openfresco_commands */
int hs_of_expfilter_commands(hs_os_state *st);

/* removeExp type <tag> (opensees_tcl_exp_remove.c) */
int hs_of_cmd_remove_exp(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[]);

/* expSetup TYPE tag ... (opensees_tcl_expsetup.c) */
int hs_of_cmd_exp_setup(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[]);

/* An experimental beam-column's responses at OpenFresco's shapes (opensees_tcl_exp_response.c):
 * the group of a response word (0: none of them), and its values (3, localForce 6; fe NULL
 * before the model builds: zeros), their count, -1 when e is no EEBeamColumn2d of fe, -2 when a
 * node is missing. */
enum {
    HS_OF_RESP_CTRL_DISP = 1,
    HS_OF_RESP_CTRL_VEL,
    HS_OF_RESP_DAQ_DISP,
    HS_OF_RESP_FORCE,
    HS_OF_RESP_LOCAL,
    HS_OF_RESP_GLOBAL
};
int hs_of_exp_beam_word(const char *word);
/* Its daqDisp on a networked site: the site's measured displacements (scaled back) on the DOFs
 * of B it drives, 0 elsewhere (3 values, 6 in 3-D; at most cap); -1 when not networked. */
int hs_of_exp_beam_daq(hs_os_state *st, const hs_os_element *e, double *out, int cap);
int hs_of_exp_beam_values(const hs_os_state *st, const hs_os_element *e, const hs_fe *fe, int group,
                          double *out, int cap);
/* An expElement generic's (exp_gnb > 0) likewise: its basic vector over every DOF it lists, in
 * its order, and its global (and local) force over every node it lists (EEGeneric.cpp). */
int hs_of_exp_generic_values(hs_os_state *st, const hs_os_element *e, hs_fe *fe, int group,
                             double *out, int cap);

/* The rate responses of an experimental twoNodeLink or truss (opensees_tcl_exp_rates.c): the
 * kind a word names (0: none), and its values, one per basic direction (fe or the analysis
 * absent: zeros), their count; -1 for another element. */
enum { HS_OF_RATE_CTRL_VEL = 1, HS_OF_RATE_CTRL_ACCEL, HS_OF_RATE_DAQ_VEL, HS_OF_RATE_DAQ_ACCEL };
int hs_of_exp_rate_word(const char *word);
int hs_of_exp_link_rates(hs_os_state *st, const hs_os_element *e, hs_fe *fe, int rate, double *out,
                         int cap);

/* A control point's signals (expControlPoint, opensees_tcl_exp_cp.c): OpenFresco's response
 * types (OF_Resp_Disp ... OF_Resp_Time), DOFs 1-based. */
enum { HS_OF_CP_DISP, HS_OF_CP_VEL, HS_OF_CP_ACCEL, HS_OF_CP_FORCE, HS_OF_CP_TIME };
#define HS_OF_MAX_SIGNALS 32
typedef struct hs_of_signal {
    int dof, rsp, has_lim, relative;
    double fact, lo, hi;
} hs_of_signal;
typedef struct hs_of_cp {
    int tag, node, n; /* node 0: none given */
    hs_of_signal s[HS_OF_MAX_SIGNALS];
} hs_of_cp;
int hs_of_cmd_exp_control_point(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[]);
const hs_of_cp *hs_of_find_cp(const struct hs_os_fresco *f, int tag);

/* Networked sites (opensees_tcl_exp_remote.c): expSite ShadowSite / RemoteSite; whether `site`
 * is one; the drive of an element on it (no transformation, a stand-in material per basic DOF,
 * factors 1); the frame model's links of those elements bound to their sites (at the live
 * model's build); the sites closed (hs_os_fresco_free). */
typedef struct hs_of_remote hs_of_remote;
int hs_of_exp_remote_site(hs_os_state *st, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[]);
int hs_of_is_remote(hs_os_state *st, int site);
int hs_of_remote_drive(hs_os_state *st, Tcl_Obj *const objv[], int site, int nbasic,
                       const int *basic_dir, int *n, int *mat, int *dir, const hs_of_setup **setup,
                       double scale[3]);
int hs_of_remote_attach(hs_os_state *st, hs_fe *fe);
void hs_of_remote_free(struct hs_os_fresco *f);
/* expControl SimFEAdapter / GenericTCP tag ...: a laboratory (or a finite-element
 * program) behind a hysim remote site, driven through the LocalSite's setup */
int hs_of_exp_remote_control(hs_os_state *st, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[]);
/* expControl LabVIEW's mapping onto hysim's nees:// client (opensees_tcl_exp_labview.c): the
 * control point MDL-00-01 whose DOFs are the trial signals' (channel k: trial signal k), the
 * factors ECLabVIEW applies per signal (command = fact_trial * the setup's actuator
 * displacement; daq = fact_disp * the measured displacement, fact_force * the measured force)
 * and the trial signals' -lim, checked on the factored command before it is sent. */
typedef struct hs_of_labview {
    int n, cp_trial, cp_out, node;
    int dof[HS_OF_MAX_MATS]; /* the trial signals' DOFs (1-based, as written) */
    double fact_trial[HS_OF_MAX_MATS], fact_disp[HS_OF_MAX_MATS], fact_force[HS_OF_MAX_MATS];
    int has_lim[HS_OF_MAX_MATS];
    double lo[HS_OF_MAX_MATS], hi[HS_OF_MAX_MATS];
    hs_nees_config nees;
} hs_of_labview;
/* Parses `-trialCP cpTag -outCP cpTag` from objv[i] into lv (TCL_OK, or the error raised). */
int hs_of_labview_map(hs_os_state *st, Tcl_Obj *const objv[], int objc, int i, hs_of_labview *lv);
/* channel k's command `cmd` within the trial signal's -lim (0), or the error raised */
int hs_of_labview_check(hs_ctx *ctx, const hs_of_labview *lv, const char *where, int tag,
                        long long step, int k, double cmd);
/* The measured basic displacements of an element on a networked site (its daqDisp): the count,
 * or -1 when the element is on none */
int hs_of_remote_daq_disp(hs_os_state *st, int element, double *out, int cap);
/* A GenericTCP control behind `site` (a LocalSite) takes its setup's actuators as its channels */
void hs_of_remote_size(hs_os_state *st, int site);

#endif
