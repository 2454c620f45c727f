/* What specimen implementations see. One file per specimen fills the ops table. */
#ifndef HS_SPECIMEN_IMPL_H
#define HS_SPECIMEN_IMPL_H

#include "hysim/lab.h"

struct hs_specimen_ops {
    /* Computes s->force from s->x at s->t, given the committed s->x_c, s->t_c (dt = t - t_c). */
    int (*set_trial)(hs_specimen *s, double dt);
    int (*commit)(hs_specimen *s);
    int (*set_input)(hs_specimen *s, int channel, double value); /* optional */
    int (*initial_stiffness)(const hs_specimen *s, double *K);   /* optional, column-major */
    /* optional: a specimen that moves its own actuator (control-structure interaction) gives the
     * actuator positions of its trial (n) */
    const double *(*position)(const hs_specimen *s);
    size_t (*state_size)(const hs_specimen *s); /* model state beyond t, x */
    int (*state_save)(const hs_specimen *s, double *out);
    int (*state_load)(hs_specimen *s, const double *in);
    void (*destroy)(hs_specimen *s); /* frees data */
};

struct hs_specimen {
    hs_ctx *ctx;
    const char *type; /* registry name (static) */
    struct hs_specimen_ops ops;
    void *data;
    int n;              /* actuator channels */
    double t, t_c;      /* trial and committed time */
    double *x, *x_c;    /* trial and committed displacements (n) */
    double *force;      /* trial forces (n) */
    hs_specimen *inner; /* wrapped specimen (lent), or NULL */
};

typedef int (*hs_specimen_ctor)(hs_specimen *s, const hs_options *opts);
hs_specimen_ctor hs_specimen_registry_ctor(const char *name);
/* Allocates the shell (x, x_c, force) for n channels. */
int hs_specimen_shell(hs_ctx *ctx, const char *type, int n, hs_specimen **out);
/* Reads a parameter given as a number (same for all) or a list of `count` numbers: value i. */
int hs_specimen_param_at(hs_ctx *ctx, const hs_options *opts, const char *where, const char *key,
                         size_t count, size_t i, double *value);
/* Options for the uniaxial material of entry i, built from `opts` (material type + parameters as
 * numbers or lists of `count`). The caller destroys *out. Setup only (allocates). */
int hs_specimen_material_options(hs_ctx *ctx, const hs_options *opts, const char *where,
                                 size_t count, size_t i, hs_options **out);

#endif
