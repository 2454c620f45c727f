/* hysim test definition files (YAML, docs/testfile.md): loading and validation. The loader
 * never runs code. Every error names FILE:LINE:COL. */
#ifndef HYSIM_TESTFILE_H
#define HYSIM_TESTFILE_H

#include "hysim/base.h"
#include "hysim/ground_motion.h"
#include "hysim/model.h"
#include "hysim/options.h"
#include "hysim/recorders.h"
#include "hysim/site.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An experimental element: global DOFs -> actuator displacements x = T d at one site; forces go
 * back as T^T f. `story: i` is the shear-building shortcut (x = d_i - d_(i-1)). */
typedef struct hs_exp_element_def {
    char name[64];
    char site[64];
    int site_index;               /* index into hs_test_def.sites */
    int nact;                     /* actuators of this element */
    int channel[HS_SITE_MAX_ACT]; /* the site's actuator index of each of them */
    double *T;                    /* nact x ndof, column-major (owned) */
    double *K0l;                  /* nact x nact initial stiffness, actuator coordinates,
                                     column-major (owned), or NULL: taken from the site's
                                     specimen model */
    double *Tp; /* nact x nact intrinsic parameters (Mosqueda & Ahmadizadeh 2008b, eq. 5.3),
                   column-major, or NULL */
} hs_exp_element_def;

/* The Rayleigh damping of an OpenSees Tcl model (structure.model.opensees without
 * structure.damping) and the values of the script's last `eigen` before it, the frequencies its
 * factors were likely computed for (hysim check compares them with the model's own modes). */
typedef struct hs_script_damping {
    int neigen; /* 0: the script ran no eigen, or its damping is not used */
    double eigen_w2[8];
    char eigen_where[1200], rayleigh_where[1200]; /* SCRIPT:LINE */
} hs_script_damping;

typedef struct hs_test_def {
    char name[128];
    char path[1024]; /* the file it was read from */
    char units_force[16], units_length[16], units_time[16];
    hs_model *model;      /* owned: DOFs, masses, springs, damping applied */
    hs_ground_motion *gm; /* owned */
    char integrator[64];
    hs_options *integrator_opts; /* owned */
    double dt;
    int64_t steps; /* from steps, or duration / dt rounded */
    double time_scale;
    char clock[16]; /* "virtual" | "real" */
    char output_dir[1024];
    char reference_run[1024]; /* analysis.reference.run: a reference run's folder ("" = none) */
    int output_mat;           /* output.mat: also write results.mat (MATLAB, through libmatio) */
    char damping_kind[32];    /* rayleigh | stiffness_proportional | modal | none */
    hs_script_damping script_damping; /* a Tcl model's own rayleigh and eigen */
    uint64_t seed; /* analysis.seed: seeds every random stream of the run (default 1) */
    hs_options *compute_time_opts; /* analysis.compute_time ({type: constant|lognormal, ...}),
                                      the integrator's modelled time per step in virtual time;
                                      NULL: 0 (owned) */
    double site_timeout;           /* analysis.site_timeout: wall seconds the coordinator waits for
                                      a measurement before it aborts the test (default 60) */
    int64_t checkpoint_every;      /* analysis.checkpoint_every: steps between checkpoints, 0 =
                                      off (default: 1 when a site is remote, else 100) */
    int initial_acceleration;      /* analysis.initial_acceleration: an hs_initial_acceleration
                                      (hysim/integrator.h), equilibrium (default) or zero */
    double checkpoint_spacing_s;   /* wall seconds at least between two checkpoints: 1 when
                                      checkpoint_every is the default of a run without a remote
                                      site (a short run then writes none), else 0 */
    char script_analysis[2048];    /* structure.model.opensees with no analysis section: the script
                                      runs its own analysis (hs_opensees_script_run; model, gm and
                                      the analysis fields are then unset); "" otherwise */
    int nexp;
    hs_exp_element_def *experimental; /* nexp (owned) */
    int nsites;
    hs_site_config *sites; /* nsites (owned, with their option objects) */
    int nrecorders;
    hs_recorder_def *recorders; /* output.recorders of a frame model (owned) */
    int ninputs;
    char **inputs;      /* the files the definition reads besides itself (ground-motion record,
                           delay and compute-time histograms), resolved, in the order they were read;
                           key files are not listed (owned). A checkpoint's hash covers them all. */
    char **input_roles; /* ninputs: the key that named each input ("ground_motion.file",
                           "structure.model.opensees: source", ...) (owned) */
    char *effective;    /* the definition after the --set overrides, as YAML text (owned) */
    int noverrides;
    char **overrides; /* the --set KEY=VALUE arguments in their order (owned) */
} hs_test_def;

/* Loads and validates. On error returns HS_EINPUT with "FILE:LINE:COL: message" in ctx
 * (HS_EIO with "FILE: cannot open: REASON" when the file cannot be opened;
 * HS_EINPUT when it is not a regular file or larger than 16 MiB). Paths inside the file are
 * relative to the file's folder. */
int hs_testfile_load(hs_ctx *ctx, const char *path, hs_test_def **out);
/* Same, with command-line overrides "KEY=VALUE" applied to the file's tree before it is read
 * (KEY a dotted path, list items as KEY[i]; docs/testfile.md "Overrides"). The strings are lent
 * for the call; messages about an overridden value name "--set KEY=VALUE". */
int hs_testfile_load_set(hs_ctx *ctx, const char *path, const char *const *sets, size_t nsets,
                         hs_test_def **out);
/* Same, from text in memory; `name` is used in messages and relative paths (fuzzing, tests). */
int hs_testfile_load_string(hs_ctx *ctx, const char *text, size_t len, const char *name,
                            hs_test_def **out);
/* What a run of def keeps in memory: doubles per record (hs_results_layout_width of the store the
 * coordinator will create) and (steps + 1) records of them in bytes. The loader refuses a
 * definition whose records exceed this machine's physical memory. */
uint64_t hs_test_def_record_width(const hs_test_def *def);
uint64_t hs_test_def_record_bytes(const hs_test_def *def);
void hs_test_def_destroy(hs_test_def **def);
/* A test file whose script runs its own analysis (def->script_analysis): runs it, its recorders
 * writing below dir (docs/opensees_tcl.md, "The script's own analysis"). HS_EINPUT with
 * "SCRIPT:LINE: COMMAND: ..." when the script fails. */
int hs_testfile_run_script(hs_ctx *ctx, const hs_test_def *def, const char *dir);

#ifdef __cplusplus
}
#endif
#endif
