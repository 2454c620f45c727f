/* OpenSees Tcl models (structure.model.opensees, docs/opensees_tcl.md): an embedded Tcl
 * interpreter runs the script with hysim's own implementations of OpenSees' modelling commands,
 * which record the model below (nodes, elements, materials, constraints, damping, loads, ground
 * motion) with OpenSees 3.x's meanings and defaults; opensees_fe.c then builds the hs_fe.
 *
 * Files: opensees_tcl.c (the interpreter, the command table, locations and errors),
 * opensees_tcl_model.c (model, node, fix, mass, equalDOF, geomTransf, element),
 * opensees_tcl_material.c (uniaxialMaterial), opensees_tcl_load.c (rayleigh, region,
 * timeSeries, pattern, load), opensees_tcl_eigen.c (eigen), opensees_tcl_safe.c (the safe
 * interpreter), opensees_fe.c (the hs_fe and the gravity axial forces), testfile_opensees.c (the
 * test file's side). */
#ifndef HS_OPENSEES_TCL_H
#define HS_OPENSEES_TCL_H

#include "hysim/fe.h"
#include "hysim/setup.h"

#include <tcl.h>

#define HS_OS_WHERE 1200 /* "FILE:LINE" */

/* Rayleigh factors of a node or an element (OpenSees' rayleigh and region -rayleigh). */
typedef struct hs_os_rayleigh {
    double alphaM, betaK, betaKinit, betaKcomm;
} hs_os_rayleigh;

#define HS_OS_NDF 6 /* room per node: OpenSees' -ndf 1, 2, 3 or 6 values, in its DOF order */

typedef struct hs_os_node {
    int tag;
    double x, y, z; /* the -ndm coordinates (the others 0) */
    /* updateParameter of a node's coordinate after an analysis: the displacement at that moment,
     * which OpenSees' trusses take as their initial one (opensees_tcl_parameter.c) */
    double uref[3];
    int fix[HS_OS_NDF];
    /* the script's own analysis: an imposedMotion moves this DOF (the live model gives it an
     * equation that the motion holds: opensees_imposed.c; the other builds, eigen's, fix it) */
    unsigned char sp[HS_OS_NDF];
    double mass[HS_OS_NDF]; /* `mass` and -mass replace; element -mass / -rho add at the build */
    hs_os_rayleigh ray;
    char where[HS_OS_WHERE];
} hs_os_node;

typedef enum hs_os_kind {
    HS_OS_TRUSS,
    HS_OS_BEAM,
    HS_OS_ZERO_LENGTH,
    HS_OS_LINK,
    HS_OS_BEAM_COLUMN,
    HS_OS_ZERO_LENGTH_SECTION,
    HS_OS_COUPLED_ZERO_LENGTH,
    HS_OS_TFP_X
} hs_os_kind;

#define HS_OS_MAX_DIRS HS_OS_NDF
typedef struct hs_os_element {
    int tag;
    hs_os_kind kind;
    int ni, nj;           /* node tags */
    double A, E, I;       /* truss: E from its Elastic material; I: Iz */
    double G, J, Iy;      /* 3-D beam */
    double vecxz[3];      /* 3-D beam: its geomTransf's vector xz */
    double rho;           /* mass per length (lumped, 0.5 rho L at each node's translations) */
    int has_aux, aux[2];  /* Truss2 of a material: its transverse truss's node tags */
    hs_fe_tfp_x_def tfpx; /* TripleFrictionPendulumX: its numbers (mat[0..3]: its materials) */
    int cmass;            /* -cMass: rho as the consistent mass (hs_fe_set_element_mass) */
    hs_fe_transf transf;  /* beam */
    int nmat;             /* zero-length, link: materials and their hysim directions */
    int mat[HS_OS_MAX_DIRS], dir[HS_OS_MAX_DIRS];
    int has_orient; /* twoNodeLink: -orient (local x), -shearDist, -mass (0.5 m per node) */
    double orient[3], shear_dist, mass;
    int has_yp; /* twoNodeLink in 3-D: -orient's vector yp (local x-y plane) */
    double yp[3], shear_dist_z;
    int has_p_delta; /* twoNodeLink -pDelta: [My_i My_j Mz_i Mz_j] (2-D: the last two) */
    double p_delta[4];
    /* a bearing's P-Delta (hs_fe_link_def p_delta_bearing, p_delta_rot; opensees_tcl_bearing.c)
     * and its given stiffness per direction (k_dir: expElement bearing's -initStif) */
    int p_delta_bearing;
    double p_delta_rot;
    int has_k_dir[HS_OS_MAX_DIRS];
    double k_dir[HS_OS_MAX_DIRS];
    /* expElement beamColumn with -initStif: EEBeamColumn2d through its geomTransf (hs_fe_link_def
     * exp_beam, beam_transf) */
    int exp_beam;
    hs_fe_transf exp_beam_transf;
    int rayleigh_ok; /* 1: takes the Rayleigh stiffness factors (OpenSees -doRayleigh) */
    hs_os_rayleigh ray;
    int section;     /* truss of a section whose axial response is one material, or
                        zeroLengthSection: its section's tag */
    int force_based; /* beam-column with sections: force- (1, CBDI 2) or displacement-based (0) */
    int bint;        /* its beamIntegration (index into the model's bints) */
    int max_iter;    /* force-based -iter (0: default) */
    double tol;
    int exp_site;     /* expElement: its LocalSite's tag (0: a numerical element) */
    int exp_rayleigh; /* expElement: takes the Rayleigh factors (OpenFresco's default) */
    /* expElement -initStif: the stiffness over its basic system (nkinit x nkinit, column-major),
     * the basic system's directions and shear distance; its initial stiffness, and its tangent
     * unless -tangStif (exp_own_tangent: the perfect specimen's own tangent, a perfect estimate) */
    int nkinit, exp_own_tangent;
    int kinit_dirs[HS_OS_MAX_DIRS];
    double kinit_shear;
    double kinit[HS_OS_MAX_DIRS * HS_OS_MAX_DIRS];
    /* expElement on a scaled setup: its specimens' displacement, velocity and force factors, one
     * set per material (the setup's actuator on it) */
    int exp_scaled;
    double exp_scale[HS_OS_MAX_DIRS][3];
    /* expElement on a setup with actuators: its geometry between the link's directions and its
     * materials (the actuators; hs_fe_link_def.setup) */
    int exp_has_geom;
    hs_setup_geometry exp_geom;
    /* expElement generic: direction k (and -initStif's direction k) is the absolute displacement
     * of DOF dir[k] (kinit_dirs[k]) of node ni (dir_node 0) or nj (1) (hs_fe_link_def absolute) */
    int exp_generic;
    int dir_node[HS_OS_MAX_DIRS], kinit_node[HS_OS_MAX_DIRS];
    /* expElement on a control with signal filters (-ctrlFilters, -daqFilters; the element's
     * copies, opensees_tcl_expfilter.c; hs_fe_link_def ctrl_filter, daq_filter) */
    hs_signal_filter exp_ctrl_filter[HS_SF_RESPONSES], exp_daq_filter[HS_SF_RESPONSES];
    /* expElement generic over three nodes or more: its links, one a pair of nodes, the first
     * with its tag (exp_pieces, their number, > 1 there), the others with tags from 1000000000;
     * its own element responses are not answered */
    int exp_pieces;
    /* expElement generic over one or two nodes on a setup without actuator geometry: its -node
     * list (exp_gn), its basic DOFs in OpenFresco's order (node exp_gnode[exp_gbn[p]]'s DOF
     * exp_gdof[p], 0-based; exp_gnb of them) and each actuator's basic DOF (exp_gpos[k]), for
     * its responses at OpenFresco's shapes (opensees_tcl_exp_response.c); exp_gnb 0: none */
    int exp_gn, exp_gnb;
    int exp_gnode[HS_OS_MAX_DIRS], exp_gbn[HS_OS_MAX_DIRS], exp_gdof[HS_OS_MAX_DIRS];
    int exp_gpos[HS_OS_MAX_DIRS];
    /* expElement twoNodeLink whose setup drives some of its -dir DOFs: bit k, direction k is
     * one of the others (a forceless material; its daqDisp is 0, as OpenFresco's) */
    unsigned exp_zero_dirs;
    int release_z, release_y; /* elasticBeamColumn -release(z) / -releasey: 0 none, 1 i, 2 j, 3 */
    char where[HS_OS_WHERE];
} hs_os_element;

/* section TYPE tag ... (opensees_tcl_section.c): the hysim description */
typedef struct hs_os_section {
    int tag;
    hs_fe_section_def *def; /* owned */
    char where[HS_OS_WHERE];
} hs_os_section;

/* beamIntegration TYPE tag ... or an element's inline or old-form rule (tag 0) */
#define HS_OS_MAX_IP 20
typedef struct hs_os_bint {
    int tag;
    char rule[16]; /* OpenSees' name */
    int n;
    int sec[HS_OS_MAX_IP]; /* section tags: per point (UserDefined), else [I (or the one), E, J] */
    double lpI, lpJ;
    double xi[HS_OS_MAX_IP], w[HS_OS_MAX_IP];
} hs_os_bint;

typedef struct hs_os_material {
    int tag;
    const char *type; /* hysim's registered material */
    hs_options *opts; /* owned */
    char where[HS_OS_WHERE];
} hs_os_material;

typedef struct hs_os_transf {
    int tag;
    hs_fe_transf kind;
    double vecxz[3]; /* 3-D */
} hs_os_transf;

typedef struct hs_os_equal {
    int master, slave, dofs[HS_OS_NDF];
    char where[HS_OS_WHERE];
} hs_os_equal;

/* rigidDiaphragm perpDirn master slaves... and rigidLink beam|bar master slave
 * (opensees_tcl_rigid.c) */
typedef enum hs_os_rigid_kind { HS_OS_DIAPHRAGM, HS_OS_LINK_BEAM, HS_OS_LINK_BAR } hs_os_rigid_kind;
typedef struct hs_os_rigid {
    hs_os_rigid_kind kind;
    int perp; /* diaphragm: perpDirn - 1 */
    int master;
    int *slaves; /* owned */
    int nslaves;
    char where[HS_OS_WHERE];
} hs_os_rigid;

typedef struct hs_os_load {
    int node;
    double f[HS_OS_NDF];  /* times the pattern's -fact and its series' -factor (gravity) */
    int pattern;          /* index into hs_os_model.patterns (the script's own analysis) */
    double fp[HS_OS_NDF]; /* times the pattern's -fact only: the series' value multiplies it */
    int constant;         /* -const: applied whole at every time, whatever the pattern's factor
                             (OpenSees' NodalLoad::applyLoad with konstant) */
    /* as the script gave them: f = raw kf, fp = raw kp (`parameter ... loadAtNode`) */
    double raw[HS_OS_NDF], kf, kp;
} hs_os_load;

/* eleLoad -ele ... | -range a b -type -beamUniform ... | -beamPoint ... (inside pattern Plain;
 * opensees_tcl_eleload.c): one member load on one element, its values as given, scaled as the
 * pattern's nodal loads (kf: the pattern's -fact times its series' -factor, for the test file's
 * analysis; the script's own analysis: the pattern's factor at the time). */
typedef struct hs_os_eleload {
    int ele;     /* element tag */
    int pattern; /* index into hs_os_model.patterns */
    hs_fe_member_load ld;
    double kf;
    char where[HS_OS_WHERE];
} hs_os_eleload;

/* A time series (opensees_series.c): OpenSees' Path (-dt or -time; -filePath or -values),
 * Linear, Constant, Trig (Sine), with their factor and options. */
typedef enum hs_os_series_kind {
    HS_OS_SERIES_PATH,
    HS_OS_SERIES_LINEAR,
    HS_OS_SERIES_CONSTANT,
    HS_OS_SERIES_TRIG
} hs_os_series_kind;

typedef struct hs_os_series {
    int tag;
    double dt, factor;
    char path[2048]; /* -filePath (read when the script's analysis first needs it) */
    char where[HS_OS_WHERE];
    hs_os_series_kind kind;
    int index;      /* its place in hs_os_model.series (which owns values and times) */
    double *values; /* -values, or the file's numbers once read (owned by the model) */
    double *times;  /* -time / -fileTime (NULL: at -dt) */
    int nvalues;    /* values (and times) */
    char time_path[2048];
    double start_time;                                /* Path -startTime */
    int use_last;                                     /* Path -useLast */
    int prepend_zero;                                 /* Path -prependZero */
    double t_start, t_end, period, shift, zero_shift; /* Trig */
} hs_os_series;

/* A load pattern of the script's own analysis: Plain (its series times -fact scales the loads
 * of its body) or UniformExcitation (-M iota a_g(t) in direction dir). loadConst freezes every
 * pattern at its factor then. */
typedef struct hs_os_pattern {
    int tag;
    int series;       /* index into hs_os_model.series */
    double fact;      /* -fact */
    int uniform, dir; /* UniformExcitation and its direction (0-based) */
    int constant;     /* after loadConst: the factor below, whatever the time */
    double const_factor;
    double vel0;   /* UniformExcitation -vel0: the free nodes' initial velocity in dir */
    int vel0_done; /* given to the live model */
    int removed;   /* `remove loadPattern`: its tag may name a new pattern, as in OpenSees */
} hs_os_pattern;

/* pattern MultipleSupport: a groundMotion (its series: accelerations or displacements) and the
 * imposedMotions that move a fixed DOF by one. In the script's own analysis a groundMotion is
 * OpenSees' GroundMotion (opensees_ground_motion.c): its displacement, velocity and acceleration
 * series (indices into hs_os_model.series, the missing ones integrated or differentiated as
 * OpenSees does), -fact, and an imposedMotion is an SP constraint on a free DOF. */
typedef struct hs_os_gmotion {
    int tag, disp; /* disp: -disp (a displacement history), else -accel */
    hs_os_series s;
    int ser[3];    /* the script's own analysis: displacement, velocity, acceleration */
    double fact;   /* -fact */
    double dt_int; /* -dtInt (OpenSees' default 0.01) */
} hs_os_gmotion;
typedef struct hs_os_imposed {
    int node, dof, disp; /* dof 0-based */
    hs_os_series s;      /* the ground motion's series, factor included */
    int gm;              /* the script's own analysis: its index in hs_os_model.gms */
    int pattern;         /* the tag of its pattern */
    char where[HS_OS_WHERE];
} hs_os_imposed;
#define HS_OS_MAX_IMPOSED 16

#define HS_OS_EIGEN_KEPT 8
#define HS_OS_MAX_KEEP   96 /* kept DOFs without mass: 16 control points of 6 DOFs */

/* What the script built. Arrays grow with hs_realloc; hs_os_model_clear frees them. */
typedef struct hs_os_model {
    int ndm, ndf; /* 0 until `model` */
    hs_os_node *nodes;
    int nnodes;
    hs_os_element *els;
    int nels;
    int node_tag_max, el_tag_max; /* the largest tags defined (0: none): a larger one is new */
    hs_os_material *mats;
    int nmats;
    hs_os_transf *transfs;
    int ntransfs;
    hs_os_equal *equals;
    int nequals;
    hs_os_rigid *rigids;
    int nrigids;
    hs_os_load *loads; /* nodal loads of Plain patterns (gravity, held constant) */
    int nloads;
    hs_os_eleload *eleloads; /* member loads of Plain patterns (eleLoad) */
    int neleloads;
    hs_os_series *series;
    int nseries;
    hs_os_pattern *patterns; /* every pattern, in the order defined (the script's analysis) */
    int npatterns;
    /* pattern UniformExcitation: the ground motion when the test file gives none */
    int has_excitation;
    int excitation_dir;      /* a translation: 0 (x), 1 (y), 2 (z) */
    hs_os_series excitation; /* its series, factor times -fact */
    char excitation_where[HS_OS_WHERE];
    hs_os_gmotion *gms; /* pattern MultipleSupport's groundMotions and imposedMotions */
    int ngms;
    hs_os_imposed *imposed;
    int nimposed;
    int has_rayleigh; /* a rayleigh or region -rayleigh command ran */
    char rayleigh_where[HS_OS_WHERE];
    /* the last `eigen`'s values (at most HS_OS_EIGEN_KEPT of them), for hysim check's damping
     * warning: Rayleigh factors computed from them miss their target when the experimental
     * elements' stiffness changes the modes */
    int neigen;
    double eigen_w2[HS_OS_EIGEN_KEPT];
    char eigen_where[HS_OS_WHERE];
    int ninputs;
    char **inputs; /* the script and the files it sourced or read (owned) */
    hs_os_section *sections;
    int nsections;
    hs_os_bint *bints;
    int nbints;
    /* DOFs kept dynamic without mass (hs_fe_keep_dof) in the frame hs_os_build_fe makes: a test
     * file's experimental control points, set by its reader after the script ran (node tag and
     * DOF key "x", "y", "rz", ...; docs/integrators.md, "Experimental DOFs without mass") */
    int nkeep;
    int keep_node[HS_OS_MAX_KEEP];
    char keep_dof[HS_OS_MAX_KEEP][4];
} hs_os_model;

void hs_os_model_clear(hs_os_model *m);

/* Runs the script at `path` and fills *m (cleared first). Ignored analysis commands are logged
 * one line each (HS_LOG_WARN). Errors: HS_EINPUT with "SCRIPT:LINE: COMMAND: what to do". */
int hs_opensees_tcl_run(hs_ctx *ctx, const char *path, hs_os_model *m);

/* The bounds of a script (opensees_tcl_limits.c): its wall time and Tcl command count (Tcl's
 * interp limits; 0: the defaults), and the folders besides its own that `source` may read. */
#define HS_OS_DEFAULT_SECONDS  60.0
#define HS_OS_DEFAULT_COMMANDS 200000000
#define HS_OS_MAX_ROOTS        8
typedef struct hs_os_limits {
    double seconds;
    int commands;
    int nroots;
    const char *roots[HS_OS_MAX_ROOTS];
} hs_os_limits;
/* hs_opensees_tcl_run with those bounds (lim NULL: the defaults, the script's folder only). */
int hs_opensees_tcl_run_limited(hs_ctx *ctx, const char *path, const hs_os_limits *lim,
                                hs_os_model *m);

/* Builds and finalizes the frame model of *m (opensees_fe.c): nodes, masses, elements,
 * constraints, the P-Delta axial forces of the Plain patterns' loads. `script` names the file in
 * messages. */
int hs_os_build_fe(hs_ctx *ctx, const hs_os_model *m, const char *script, hs_fe **out);
/* The frame model of the script's own analysis (opensees_analysis.h): every free DOF an unknown
 * (a unit mass on each keeps hs_fe from condensing any), no element mass, no gravity axial
 * force (P-Delta members take their current one); `keep` (NULL: all) the elements. */
int hs_os_build_live_fe(hs_ctx *ctx, const hs_os_model *m, const char *script,
                        const unsigned char *keep, hs_fe **out);
/* The elements' lumped masses (opensees_fe.c: 0.5 rho L at each end's translations), NDF per
 * node in the model's node order, added to mass (`alpha_m`: each times its Rayleigh alphaM). */
void hs_os_element_masses(const hs_os_model *m, int alpha_m, double *mass);
/* The Rayleigh coefficients of the built model: C = a0 M + a1 K0 (hysim's damping is one matrix
 * for the whole model); HS_EINPUT naming the first element or node whose factors differ. */
int hs_os_rayleigh_coefficients(hs_ctx *ctx, const hs_os_model *m, const char *script, double *a0,
                                double *a1, int *warn_tangent);

/* Runs the script with its own analysis (a test file without an analysis section): its
 * analyze, queries and recorders work as in OpenSees; the recorders write below outdir. Errors:
 * HS_EINPUT with "SCRIPT:LINE: COMMAND: what to do". */
int hs_opensees_script_run(hs_ctx *ctx, const char *path, const char *outdir);

/* --- inside the interpreter (opensees_tcl*.c) --- */

typedef struct hs_os_state {
    hs_ctx *ctx;
    hs_os_model *m;
    const char *script; /* the top script, as given */
    char dir[1024];     /* its folder */
    char abs[4096];     /* its real path (Tcl names files so) */
    char error[1024];   /* the last error a hysim command raised */
    Tcl_Interp *interp;
    Tcl_Interp *aux;     /* a plain interpreter for `file`'s read-only questions */
    int in_plain;        /* inside a pattern Plain's body: `load` adds gravity loads */
    int in_multi;        /* inside a pattern MultipleSupport's body (groundMotion, imposedMotion) */
    int multi_tag;       /* that pattern's tag */
    int loads_applied;   /* the loads defined before the last `analyze` (what eigen sees) */
    int exited;          /* the script called `exit` */
    int wiped_live;      /* its own analysis wiped a built model (`wipe` at the end) */
    double plain_factor; /* that pattern's -fact times its series' -factor */
    double pattern_fact; /* that pattern's -fact */
    int plain_pattern;   /* its index in hs_os_model.patterns */
    /* the script's own analysis (opensees_tcl_analysis.c): live when the test file has no
     * analysis section; else the analysis commands only keep time for the script's loops */
    int live;
    struct hs_os_analysis *an; /* settings, live model, recorders (opensees_analysis.h) */
    const char *outdir;        /* where the script's recorders write (live) */
    double pseudo_time;        /* not live: what getTime answers (analyze advances it) */
    double pseudo_incr;        /* not live: the last LoadControl increment */
    char warned[64][32];       /* commands already ignored with a line (one line each) */
    int nwarned;
    double seconds; /* its bounds (opensees_tcl_limits.c) */
    int commands;
    int nroots; /* the folders `source` may read (real paths): its own first */
    char roots[HS_OS_MAX_ROOTS + 1][4096];
    hs_fe_section_def *in_fiber; /* inside a section Fiber's body: patch, layer, fiber add to it */
    struct hs_os_fresco
        *fresco; /* OpenFresco's controls, setups, sites (opensees_tcl_openfresco.c) */
    /* the member loads defined before the last `analyze` (what eigen sees, as loads_applied) */
    int eleloads_applied;
} hs_os_state;

/* opensees_series.c: a series' options from w[first..n) (TYPE given), its value at time t,
 * and adding it to the model (which then owns its numbers). */
int hs_os_series_parse(hs_os_state *st, Tcl_Obj *const objv[], const char *type, Tcl_Obj *const *w,
                       int first, int n, hs_os_series *s);
int hs_os_series_add(hs_os_state *st, Tcl_Obj *const objv[], hs_os_series *s);
double hs_os_series_value(const hs_os_series *s, double t);
/* OpenSees' getDuration and getStartTime of a series (TrigSeries.h, PathSeries.cpp, ...). */
double hs_os_series_duration(const hs_os_series *s);
double hs_os_series_start(const hs_os_series *s);
/* A groundMotion of the script's own analysis: its three series completed as OpenSees'
 * GroundMotion constructor does (opensees_ground_motion.c); its displacement, velocity and
 * acceleration at time t (OpenSees' getDispVelAccel: zero before 0). */
int hs_os_ground_motion_complete(hs_os_state *st, Tcl_Obj *const objv[], hs_os_gmotion *g);
void hs_os_ground_motion_at(const hs_os_model *m, const hs_os_gmotion *g, double t, double out[3]);

/* The analysis commands (opensees_tcl_analysis.c), queries (opensees_tcl_query.c), recorders
 * (opensees_tcl_recorder.c); the end of the analysis side (recorders closed) and `wipe`. */
int hs_os_analysis_commands(hs_os_state *st);
int hs_os_query_commands(hs_os_state *st);
int hs_os_recorder_commands(hs_os_state *st);
/* OpenFresco's expControl, expSetup, expSite, expElement, ... (opensees_tcl_openfresco.c), and
 * what they defined freed; OpenSees' defaultUnits (opensees_tcl_units.c). */
int hs_os_openfresco_commands(hs_os_state *st);
void hs_os_fresco_free(hs_os_state *st);
/* An element of a networked site or control (opensees_tcl_exp_remote.c), or NULL: a test file's
 * analysis cannot drive it. */
const hs_os_element *hs_os_networked_element(const hs_os_model *m);
int hs_os_units_commands(hs_os_state *st);
/* parameter, addToParameter, updateParameter (opensees_tcl_parameter.c) */
int hs_os_parameter_commands(hs_os_state *st);
void hs_os_analysis_end(hs_os_state *st);
int hs_os_analysis_wipe(hs_os_state *st);
/* eigen with no analysis yet: OpenSees 3.8's eigen makes the transient analysis of its defaults
 * (Newmark 0.5 0.25; the test and algorithm given, else NormUnbalance 1e-6 25 and Newton;
 * SRC/tcl/commands.cpp, eigenAnalysis), which a later `analyze N dt` runs
 * (verification/mdofModal.tcl) */
void hs_os_analysis_for_eigen(hs_os_state *st);
/* One line "WHERE: NAME ignored (WHY)" the first time NAME is ignored; 1 when it said it. */
int hs_os_ignored_once(hs_os_state *st, const char *name, const char *why);
/* Element `tag`'s response `word` (OpenSees' names) at the last commit into out (cap values):
 * the count, -1 for a response hysim does not have, -2 for no such element. */
int hs_os_element_values(hs_os_state *st, int tag, const char *word, double *out, int cap);

/* Sets the interpreter's time and command limits and the folders `source` may read. */
int hs_os_limits_apply(hs_os_state *st, const hs_os_limits *lim);
/* After the script: HS_EINPUT with what happened when a limit stopped it, else 0. */
int hs_os_limits_error(hs_os_state *st);
/* TCL_OK when `source` may read path (a regular file of at most 16 MiB under an allowed folder),
 * else the command's error. */
int hs_os_source_check(hs_os_state *st, Tcl_Obj *const objv[], const char *path);

/* The safe interpreter (opensees_tcl_safe.c): Tcl_MakeSafe, stdout and stderr shared, `file`
 * for names and read-only questions, `exit` ending the script. */
int hs_os_make_safe(hs_os_state *st);
/* The thread's tcl_precision back to Tcl's default (the script may have set it). */
void hs_os_precision_reset(hs_os_state *st);
/* 1 when `name` is a command the safe interpreter hides (exec, open, socket, cd, ...). */
int hs_os_is_hidden(hs_os_state *st, const char *name);
/* "FILE:LINE" of the command being run (the innermost frame with a file). */
const char *hs_os_where(hs_os_state *st, char *buf, size_t cap);
/* The folder of the script that runs the current command (for relative paths). */
const char *hs_os_here(hs_os_state *st, char *buf, size_t cap);
/* Raises "FILE:LINE: CMD: message" as the command's Tcl error; returns TCL_ERROR. */
int hs_os_fail(hs_os_state *st, Tcl_Obj *const objv[], const char *fmt, ...) HS_PRINTF(3, 4);
/* Typed arguments, with an error naming the command and `what` on a bad value. */
int hs_os_int(hs_os_state *st, Tcl_Obj *const objv[], int i, const char *what, int *out);
int hs_os_num(hs_os_state *st, Tcl_Obj *const objv[], int i, const char *what, double *out);
/* 1 when `model` has run; else raises the error. */
int hs_os_need_model(hs_os_state *st, Tcl_Obj *const objv[]);
hs_os_node *hs_os_find_node(const hs_os_model *m, int tag);
hs_os_element *hs_os_find_element(const hs_os_model *m, int tag);
const hs_os_material *hs_os_find_material(const hs_os_model *m, int tag);
/* Grows an array of `count` items of `size` by one zeroed item; NULL when out of memory. */
void *hs_os_push(void **array, int *count, size_t size);
/* Adds element e (its tag new) to the model at the command's line; the command's result. */
int hs_os_add_element(hs_os_state *st, Tcl_Obj *const objv[], const hs_os_element *e);
int hs_os_add_input(hs_os_model *m, const char *path);

/* The commands: each is a Tcl_ObjCmdProc with the hs_os_state as client data. */
Tcl_ObjCmdProc hs_os_cmd_model, hs_os_cmd_node, hs_os_cmd_fix, hs_os_cmd_fix_x, hs_os_cmd_fix_y,
    hs_os_cmd_fix_z, hs_os_cmd_mass, hs_os_cmd_equal_dof, hs_os_cmd_geom_transf, hs_os_cmd_element;
Tcl_ObjCmdProc hs_os_cmd_rigid_diaphragm, hs_os_cmd_rigid_link;
Tcl_ObjCmdProc hs_os_cmd_uniaxial_material;
Tcl_ObjCmdProc hs_os_cmd_rayleigh, hs_os_cmd_region, hs_os_cmd_time_series, hs_os_cmd_pattern,
    hs_os_cmd_load, hs_os_cmd_ground_motion, hs_os_cmd_imposed_motion;
Tcl_ObjCmdProc hs_os_cmd_eigen;
/* eleLoad (opensees_tcl_eleload.c); the member loads added to a frame built from the model
 * (el_index: each element's index in fe, -1 when not there): each load's group is its pattern
 * (`by_pattern`, the script's own analysis: hs_fe_member_load_scale per pattern) or its own
 * index in m->eleloads, scaled then by its kf (the gravity solve of the test file's analysis). */
Tcl_ObjCmdProc hs_os_cmd_ele_load;
/* elasticBeamColumn's -release r / -releasez r (about local z), -releasey r (3-D, about local y)
 * at objv[i] (opensees_tcl_eleload.c) */
int hs_os_el_beam_release(hs_os_state *st, int objc, Tcl_Obj *const objv[], int i,
                          hs_os_element *e);
int hs_os_add_member_loads(hs_ctx *ctx, hs_fe *fe, const hs_os_model *m, const int *el_index,
                           int by_pattern);
Tcl_ObjCmdProc hs_os_cmd_section, hs_os_cmd_patch, hs_os_cmd_layer, hs_os_cmd_fiber,
    hs_os_cmd_beam_integration;
/* element forceBeamColumn / dispBeamColumn / nonlinearBeamColumn (opensees_tcl_beamcolumn.c) */
int hs_os_el_force_beam_column(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e);
int hs_os_el_force_beam_column_cbdi(hs_os_state *st, int objc, Tcl_Obj *const objv[],
                                    hs_os_element *e);
int hs_os_el_disp_beam_column(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e);
int hs_os_el_nonlinear_beam_column(hs_os_state *st, int objc, Tcl_Obj *const objv[],
                                   hs_os_element *e);
/* element beamWithHinges (opensees_tcl_hinges.c): forceBeamColumn with HingeRadau */
int hs_os_el_beam_with_hinges(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e);
/* element zeroLengthSection (opensees_tcl_zls.c): the command, and the element in the live
 * model. */
/* element truss (opensees_tcl_model.c) and Truss2 (opensees_tcl_truss2.c), the truss's words with
 * two auxiliary nodes (at most HS_OS_TRUSS2_WORDS words in all). */
#define HS_OS_TRUSS2_WORDS 15
int hs_os_el_truss(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e);
int hs_os_el_truss2(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e);
/* element TripleFrictionPendulumX (opensees_tcl_tfpx.c): the command, the element. */
int hs_os_el_tfp_x(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e);
int hs_os_add_tfp_x(hs_fe *fe, const hs_os_model *m, const hs_os_element *e, const char *name);
/* element elastomericBearingPlasticity (opensees_tcl_bearing.c). */
int hs_os_el_bearing_plasticity(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e);
/* element CoupledZeroLength (opensees_tcl_coupled.c). */
int hs_os_el_coupled_zero_length(hs_os_state *st, int objc, Tcl_Obj *const objv[],
                                 hs_os_element *e);
int hs_os_el_zero_length_section(hs_os_state *st, int objc, Tcl_Obj *const objv[],
                                 hs_os_element *e);
int hs_os_add_zero_length_section(hs_fe *fe, const hs_os_model *m, const hs_os_element *e,
                                  const char *name);
/* Adds a beam-column with sections to the frame (opensees_tcl_beamcolumn.c): the element's index
 * or a negative error. */
int hs_os_add_beam_column(hs_fe *fe, const hs_os_model *m, const hs_os_element *e, const char *name,
                          hs_fe_transf transf);
/* A beamIntegration rule from objv[0..objc-1] = RULE tag args... (the tag at 1 is not read);
 * errors are raised on the command err (opensees_tcl_section.c). */
int hs_os_parse_bint(hs_os_state *st, int objc, Tcl_Obj *const objv[], Tcl_Obj *const err[],
                     hs_os_bint *b);
/* The section of `tag`, or NULL. */
const hs_os_section *hs_os_find_section(const hs_os_model *m, int tag);

#endif
