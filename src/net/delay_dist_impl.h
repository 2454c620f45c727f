/* What delay distribution implementations see. One file per family fills the ops table. */
#ifndef HS_DELAY_DIST_IMPL_H
#define HS_DELAY_DIST_IMPL_H

#include "hysim/link.h"

struct hs_delay_dist_ops {
    double (*sample)(const hs_delay_dist *d, hs_rng *rng); /* seconds */
    double (*survival)(const hs_delay_dist *d, double x);  /* P(X > x) */
    double (*mean)(const hs_delay_dist *d);
    void (*destroy)(hs_delay_dist *d); /* frees data */
};

struct hs_delay_dist {
    hs_ctx *ctx;
    const char *type; /* registry name (static) */
    struct hs_delay_dist_ops ops;
    void *data;
    double p[2]; /* parameters of the two-parameter families (no data needed) */
};

typedef int (*hs_delay_dist_ctor)(hs_delay_dist *d, const hs_options *opts);
hs_delay_dist_ctor hs_delay_dist_registry_ctor(const char *name);

/* The empirical family from a histogram file (delay_empirical.c). */
int hs_delay_empirical_load(hs_delay_dist *d, const char *path);

#endif
