/* The test file loader's private parts: the loading state, typed access to YAML nodes with
 * FILE:LINE:COL errors, and the section readers. */
#ifndef HS_TESTFILE_IMPL_H
#define HS_TESTFILE_IMPL_H

#include "hysim/testfile.h"
#include "suggest.h"
#include "yaml_tree.h"

#define HS_TF_MAX_DOFS    1000
#define HS_TF_MAX_FE_DOFS 1000000 /* a frame: compressed columns above HS_DENSE_MAX_DOFS */
#define HS_TF_MAX_STEPS   1000000000LL
#define HS_TF_MAX_SAMPLES 10000000.0        /* synthetic ground motion: duration / dt */
#define HS_TF_MAX_SEED    9007199254740992L /* 2^53: every seed is exact in a double */

/* A material of the `materials` section: validated options, created per spring. */
typedef struct hs_tf_material {
    const char *name; /* lent from the tree */
    const char *type; /* lent from the registry */
    hs_options *opts; /* owned */
    const hs_ynode *node;
} hs_tf_material;

/* What the loader keeps about a site while reading the experimental elements. */
typedef struct hs_tf_site {
    const hs_ynode *node;                      /* the site's mapping */
    const hs_ynode *act_key[HS_SITE_MAX_ACT];  /* each actuator's key, for messages */
    const hs_ynode *act_user[HS_SITE_MAX_ACT]; /* where an element first used it, or NULL */
    int seed_given;                            /* 0: seed = analysis.seed + index */
    double *K0;                                /* specimen initial stiffness (nact x nact,
                                                  column-major), or NULL when unknown */
} hs_tf_site;

/* What an OpenSees Tcl model (structure.model.opensees, testfile_opensees.c) brings besides its
 * frame: its Rayleigh damping and its ground motion, used when the test file gives none. */
typedef struct hs_tf_script {
    int set;
    char name[2048]; /* the script's path, for messages */
    int has_damping;
    double a0, a1;
    char damping_where[1200];
    int neigen; /* the script's last eigen (hs_os_model.eigen_w2) */
    double eigen_w2[8];
    char eigen_where[1200];
    int has_gm;
    char gm_path[2048];
    double gm_dt, gm_scale;
    char gm_where[1200];
    int nsup; /* pattern MultipleSupport's imposedMotions (node id, 0-based DOF, -disp) */
    struct {
        int node, dof, disp;
        char path[2048];
        double dt, scale;
        char where[1200];
    } sup[16];
} hs_tf_script;

typedef struct hs_tf {
    hs_ctx *ctx;
    const char *name; /* file name used in messages */
    char dir[1024];   /* folder of the file, for relative paths */
    hs_test_def *def;
    hs_tf_material *materials;
    size_t nmaterials;
    const hs_ynode
        *damping;         /* structure.damping, applied once the experimental elements are read */
    int has_experimental; /* the file has an `experimental` section */
    const hs_ynode *experimental; /* that section (its control points keep their DOFs in a
                                     frame: testfile_massless.c), or NULL */
    hs_tf_site *sites;            /* def->nsites */
    const char *kind;    /* what the file is, for messages: NULL "test file", "site file" */
    hs_tf_script script; /* structure.model.opensees */
} hs_tf;

/* L->kind, "test file" when unset. */
static inline const char *hs_tf_kind(const hs_tf *L)
{
    return L->kind ? L->kind : "test file";
}

/* Starts reading file `name` (NULL: "<string>") in ctx: its name for messages and its folder for
 * relative paths (testfile.c); HS_EINPUT when the folder does not fit. */
int hs_tf_begin(hs_tf *L, hs_ctx *ctx, const char *name);

/* Applies one `--set KEY=VALUE` to the tree (testfile_set.c); `arg` is lent for the tree's life
 * (messages name it). HS_EINPUT with "--set ARG: ..." when the key cannot be set. */
int hs_tf_set(hs_ctx *ctx, hs_ytree *tree, const char *arg);

/* "NAME:LINE:COL: message" at `at` (HS_EINPUT); "NAME: --set ARG: message" when `at` came from
 * the command line. */
int hs_tf_fail(hs_tf *L, const hs_ynode *at, const char *fmt, ...) HS_PRINTF(3, 4);
/* Prefixes the message that a library call left in ctx with NAME:LINE:COL and `what`. Keeps
 * HS_ENOMEM, turns any other code into HS_EINPUT. */
int hs_tf_wrap(hs_tf *L, const hs_ynode *at, const char *what, int rc);

/* `node` must be a mapping whose keys are all in known[0..nknown). */
int hs_tf_mapping(hs_tf *L, const hs_ynode *node, const char *what, const char *const *known,
                  size_t nknown);
/* The value under `key`, which must be present (else the error points at the mapping). */
int hs_tf_required(hs_tf *L, const hs_ynode *map, const char *key, const char *what,
                   const hs_ynode **out);
/* Typed scalars. */
int hs_tf_num(hs_tf *L, const hs_ynode *node, const char *what, double *out);
int hs_tf_int(hs_tf *L, const hs_ynode *node, const char *what, long lo, long hi, long *out);
int hs_tf_bool(hs_tf *L, const hs_ynode *node, const char *what, int *out);
/* A string scalar of at most cap - 1 bytes, copied into buf. */
int hs_tf_str(hs_tf *L, const hs_ynode *node, const char *what, char *buf, size_t cap);
/* A list of exactly n numbers; `unit_of_n` names what n counts in the message ("DOF"). */
int hs_tf_num_list(hs_tf *L, const hs_ynode *node, const char *what, size_t n,
                   const char *unit_of_n, double *out);
/* Fills opts from a mapping's keys validated against a registry's parameters: kinds checked,
 * required ones present. Keys listed in `skip` belong to the caller and are not parameters. */
int hs_tf_params(hs_tf *L, const hs_ynode *map, const char *what, const hs_param_spec *specs,
                 const char *const *skip, size_t nskip, hs_options *opts);
/* A matrix written row by row as a list of lists ([[a, b], [c, d]]). rows / cols: the expected
 * sizes, or 0 for any (then *nrows / *ncols receive them; at most HS_TF_MAX_MATRIX each);
 * `row_of` and `col_of` name what a row and a column count in messages ("actuator", "DOF").
 * out receives rows x cols values row by row (room for the expected or maximum size). */
#define HS_TF_MAX_MATRIX 64
int hs_tf_matrix(hs_tf *L, const hs_ynode *node, const char *what, size_t rows, size_t cols,
                 const char *row_of, const char *col_of, double *out, size_t *nrows, size_t *ncols);
/* A relative path resolved against the test file's folder; the file must exist. */
int hs_tf_file(hs_tf *L, const hs_ynode *node, const char *what, char *out, size_t cap);
/* The same for a file the run reads as input: also listed in L->def->inputs (hashed into the
 * checkpoint: an edited record cannot be resumed). Key files use hs_tf_file. */
int hs_tf_input(hs_tf *L, const hs_ynode *node, const char *what, char *out, size_t cap);
/* The material `name` of the materials section, or NULL with an error at `node`. */
const hs_tf_material *hs_tf_find_material(hs_tf *L, const hs_ynode *node, const char *what,
                                          int *rc);
/* "what.sub" and "what[i]" (1-based) into buf, for nested messages. */
const char *hs_tf_path(char *buf, size_t cap, const char *what, const char *sub);
const char *hs_tf_index(char *buf, size_t cap, const char *what, size_t i);

/* Sections. */
int hs_tf_materials(hs_tf *L, const hs_ynode *node);
int hs_tf_structure(hs_tf *L, const hs_ynode *node);
/* structure.model: the frame model (testfile_fe.c) into L->def->model. */
int hs_tf_fe_model(hs_tf *L, const hs_ynode *node);
/* The tail of a frame model: dynamic DOFs, masses, the ground influence in `dir`, the model
 * attached to L->def (fe finalized; owned by the model afterwards, destroyed on error). */
int hs_tf_fe_install(hs_tf *L, const hs_ynode *node, struct hs_fe *fe, int dir);
/* structure.model: {opensees: SCRIPT, excitation: x|y} (testfile_opensees.c). */
int hs_tf_opensees_model(hs_tf *L, const hs_ynode *node);
/* No analysis section and an OpenSees script as the structure: *taken = 1 and
 * def->script_analysis names the script, which runs its own analysis (testfile_opensees.c). */
int hs_tf_script_analysis(hs_tf *L, const hs_ynode *root, int *taken);
/* The script's damping (structure.damping absent): its Rayleigh coefficients, or none. */
int hs_tf_opensees_damping(hs_tf *L);
/* ground_motion (node NULL: absent): the test file's wins; else the script's pattern
 * UniformExcitation; else the usual "missing" error. */
int hs_tf_ground_motion_or_script(hs_tf *L, const hs_ynode *root);
/* Adds a resolved input path to L->def->inputs (hashed into checkpoints). */
int hs_tf_add_input(hs_tf *L, const char *path, const char *role);
/* An experimental element's `control_point: {node, dofs}` on the frame model, with `tn` (the
 * element's T, rows actuators, columns the listed DOFs; NULL: identity) into el->T (nact x n).
 * The DOFs must be dynamic (carry mass). */
int hs_tf_control_point(hs_tf *L, const hs_ynode *cp, const hs_ynode *tn, const hs_ynode *acts,
                        const char *what, hs_exp_element_def *el);
/* output.recorders (testfile_recorders.c), after the structure. */
int hs_tf_recorders(hs_tf *L, const hs_ynode *list);
/* A two-node link element's keys (testfile_fe_link.c): dirs, materials, orient, shear_dist,
 * mass; `what` names the element in messages. */
struct hs_fe;
int hs_tf_fe_link(hs_tf *L, struct hs_fe *fe, const hs_ynode *el, const char *what,
                  const char *name, int ni, int nj);
/* structure.model.sections (testfile_fe_section.c): named section descriptions of a 2-D or 3-D
 * frame; names lent from the tree, descriptions owned (they borrow the materials' options). */
struct hs_fe_section_def;
typedef struct hs_tf_section_table {
    size_t n;
    const char **name;
    struct hs_fe_section_def **def;
} hs_tf_section_table;
int hs_tf_fe_sections(hs_tf *L, int ndm, const hs_ynode *list, hs_tf_section_table *out);
void hs_tf_fe_sections_free(hs_tf_section_table *s);
/* The section named at `at`, or NULL with an error. */
const struct hs_fe_section_def *hs_tf_fe_find_section(hs_tf *L, const hs_tf_section_table *t,
                                                      const hs_ynode *at, const char *what,
                                                      int *rc);
/* An elastic_beam's moment releases, `release` and (3-D) `release_y` (testfile_fe_release.c). */
int hs_tf_fe_release(hs_tf *L, struct hs_fe *fe, const hs_ynode *el, const char *what, int e);
/* force_beam_column (force_based 1) / disp_beam_column (0) and zero_length_section elements
 * (testfile_fe_beamcolumn.c); transf and vecxz (3-D, else NULL) read by the caller. */
int hs_tf_fe_beam_column(hs_tf *L, struct hs_fe *fe, const hs_tf_section_table *t,
                         const hs_ynode *el, const char *what, const char *name, int ni, int nj,
                         int force_based, int transf, const double *vecxz);
int hs_tf_fe_zero_length_section(hs_tf *L, struct hs_fe *fe, const hs_tf_section_table *t,
                                 const hs_ynode *el, const char *what, const char *name, int ni,
                                 int nj);
/* A node DOF of the model's frame (2-D: x, y, rz; 3-D: x, y, z, rx, ry, rz; 1-D: x) as its index
 * (HS_FE_UX, ...); hs_tf_fe_dir uses the structure's frame model, or the 2-D names before it. */
int hs_tf_fe_dir(hs_tf *L, const hs_ynode *node, const char *what, int *dir);
/* Before a frame model is finalized: every DOF that an experimental element's control point
 * names (the `experimental` section, read leniently: its own reader reports its errors later) is
 * kept dynamic even without mass (hs_fe_keep_dof; testfile_massless.c). */
int hs_tf_keep_experimental_dofs(hs_tf *L, struct hs_fe *fe);
/* The same for a frame from an OpenSees Tcl script: into m's keep list, before hs_os_build_fe. */
struct hs_os_model;
int hs_tf_keep_experimental_script(hs_tf *L, struct hs_os_model *m);
/* After the analysis section: an integrator that does not take DOFs without mass is refused when
 * the model has some, with the reason and the list of those that do (testfile_massless.c). */
int hs_tf_massless_integrator(hs_tf *L, const hs_ynode *type_node);
int hs_tf_fe_dof(hs_tf *L, const struct hs_fe *fe, const hs_ynode *node, const char *what,
                 int *dir);
int hs_tf_ground_motion(hs_tf *L, const hs_ynode *node);
/* A record: {file, format, ...} or {synthetic: {...}} (the shape of `ground_motion`). */
int hs_tf_record(hs_tf *L, const hs_ynode *node, hs_ground_motion **out);
/* ground_motion: {multi_support: [{node, dir, acceleration | displacement: RECORD}, ...]}
 * (testfile_support.c): each support of structure.model its own motion. */
int hs_tf_multi_support(hs_tf *L, const hs_ynode *node);
int hs_tf_analysis(hs_tf *L, const hs_ynode *node);
/* structure.damping, after the experimental elements (their initial stiffness counts). */
int hs_tf_damping(hs_tf *L);
/* `sites` (node may be NULL: none), then `experimental` (NULL: none; checks that every site
 * actuator is used and sets the model's extra stiffness). */
int hs_tf_sites(hs_tf *L, const hs_ynode *node);
/* The keys a site mapping shares with a site server's file (rate, perfect, seed, actuators,
 * sensors, specimen, relaxation, command, compensation) into L->def->sites[index], whose name
 * and kind are set; the caller has checked the mapping's key set. */
int hs_tf_site_fields(hs_tf *L, const hs_ynode *node, const char *what, int index);
/* A site server's `lab` (testfile_lab.c): kind virtual or udp with its packets; the udp packets
 * alone (command_packet, reply_packet, endian) of a mapping (the plant file); a "HOST:PORT". */
int hs_tf_lab(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg);
int hs_tf_lab_watchdog(hs_tf *L, const hs_ynode *node, const char *what, double *reply_timeout,
                       int *max_missing);
/* lab kind shm (testfile_lab_shm.c) */
int hs_tf_lab_is_shm(const hs_ynode *node);
int hs_tf_lab_shm(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg);
/* The whole text of a site or plant file (at most 1 MiB; hs_free it). */
int hs_tf_read_text(hs_ctx *ctx, const char *path, const char *kind, char **text, size_t *len);
/* A loader of one site's file (site file, plant file), L begun (hs_tf_begin): KIND and a test
 * definition of one site (L->def, owned by the caller once loaded) and its scratch site; then
 * the scratch released (materials, the site's K0; the definition too when `keep_def` is 0). */
int hs_tf_one_site_begin(hs_tf *L, const char *kind);
void hs_tf_one_site_end(hs_tf *L, int keep_def);
int hs_tf_udp_packets(hs_tf *L, const hs_ynode *map, const char *what, hs_site_config *cfg);
int hs_tf_udp_address(hs_tf *L, const hs_ynode *v, const char *what, char *out, size_t cap);
/* A site's `nees` section into cfg->nees (testfile_nees.c): lab = 1 in a site file (port, allow,
 * report, timing), 0 for a nees:// remote site (execute_timeout). Needs the actuators read. */
int hs_tf_nees(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg, int lab);
int hs_tf_experimental(hs_tf *L, const hs_ynode *node);
/* A site's rehearsal keys (testfile_twin.c): `twin: SITE.yaml` (remote sites) and
 * `pretest: FILE.json`, paths resolved against the file's folder (docs/pretest.md). */
int hs_tf_twin(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg);
/* After everything: the records a run will keep must fit in this machine's memory (the error
 * points at analysis.steps or analysis.duration). testfile_memory.c. */
int hs_tf_memory(hs_tf *L, const hs_ynode *analysis);
/* After `analysis`: default site seeds (analysis.seed + index) and the time scale. */
void hs_tf_sites_finish(hs_tf *L);
/* A site's specimen and relaxation (testfile_specimen.c): fills cfg's specimen fields and
 * K0 (nact x nact) when the specimen states an initial stiffness (*has_K0 = 1). */
int hs_tf_specimen(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg,
                   double *K0, int *has_K0);
int hs_tf_relaxation(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg);
/* A site's experimental setup (testfile_setup.c, docs/setups.md), after its actuators. */
int hs_tf_setup(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg);
/* A site's controller (testfile_controller.c): `command` into cfg->command_opts (the command
 * generator's field names; needs cfg->nact; no_stiffness: the site's specimen states no initial
 * stiffness, so damped free vibration is refused) and `compensation` into
 * cfg->compensation_opts (needs cfg->rate; the compensator is created once). */
int hs_tf_command(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg,
                  int no_stiffness);
int hs_tf_compensation(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg);
/* testfile_link.c: a site's `link` into cfg->link_opts (hs_link_create's options; the link is
 * created once as link HS_LINK_ID(index, down)), and `analysis.compute_time` into
 * def->compute_time_opts (the model is created once). */
int hs_tf_link(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg, int index);
int hs_tf_compute_time(hs_tf *L, const hs_ynode *node);

#endif
