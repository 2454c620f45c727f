/* hysim test definition files (YAML, docs/testfile.md): loading and validation. The loader
 * never runs code. Every error names FILE:LINE:COL. */
#ifndef HYSIM_TESTFILE_H
#define HYSIM_TESTFILE_H

#include "hysim/base.h"
#include "hysim/ground_motion.h"
#include "hysim/model.h"
#include "hysim/options.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hs_test_def {
    char name[128];
    char path[1024];     /* the file it was read from */
    char units_force[16], units_length[16], units_time[16];
    hs_model *model;     /* owned: DOFs, masses, springs, damping applied */
    hs_ground_motion *gm; /* owned */
    char integrator[64];
    hs_options *integrator_opts; /* owned */
    double dt;
    int64_t steps;       /* from steps, or duration / dt rounded */
    double time_scale;
    char clock[16];      /* "virtual" | "real" */
    char output_dir[1024];
    char damping_kind[32]; /* rayleigh | stiffness_proportional | modal | none */
    /* Later issues add experimental elements and sites here. */
} hs_test_def;

/* Loads and validates. On error returns HS_EINPUT with "FILE:LINE:COL: message" in ctx.
 * Paths inside the file are relative to the file's folder. */
int hs_testfile_load(hs_ctx *ctx, const char *path, hs_test_def **out);
/* Same, from text in memory; `name` is used in messages and relative paths (fuzzing, tests). */
int hs_testfile_load_string(hs_ctx *ctx, const char *text, size_t len, const char *name,
                            hs_test_def **out);
void hs_test_def_destroy(hs_test_def **def);

#ifdef __cplusplus
}
#endif
#endif
