/* The test file loader's private parts: the loading state, typed access to YAML nodes with
 * FILE:LINE:COL errors, and the section readers. */
#ifndef HS_TESTFILE_IMPL_H
#define HS_TESTFILE_IMPL_H

#include "hysim/testfile.h"
#include "suggest.h"
#include "yaml_tree.h"

#define HS_TF_MAX_DOFS    1000
#define HS_TF_MAX_STEPS   1000000000LL
#define HS_TF_MAX_SAMPLES 10000000.0 /* synthetic ground motion: duration / dt */

/* A material of the `materials` section: validated options, created per spring. */
typedef struct hs_tf_material {
    const char *name; /* lent from the tree */
    const char *type; /* lent from the registry */
    hs_options *opts; /* owned */
    const hs_ynode *node;
} hs_tf_material;

typedef struct hs_tf {
    hs_ctx *ctx;
    const char *name; /* file name used in messages */
    char dir[1024];   /* folder of the file, for relative paths */
    hs_test_def *def;
    hs_tf_material *materials;
    size_t nmaterials;
} hs_tf;

/* "NAME:LINE:COL: message" at `at` (HS_EINPUT). */
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
/* "what.sub" and "what[i]" (1-based) into buf, for nested messages. */
const char *hs_tf_path(char *buf, size_t cap, const char *what, const char *sub);
const char *hs_tf_index(char *buf, size_t cap, const char *what, size_t i);

/* Sections. */
int hs_tf_materials(hs_tf *L, const hs_ynode *node);
int hs_tf_structure(hs_tf *L, const hs_ynode *node);
int hs_tf_ground_motion(hs_tf *L, const hs_ynode *node);
int hs_tf_analysis(hs_tf *L, const hs_ynode *node);

#endif
