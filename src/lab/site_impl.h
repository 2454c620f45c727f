/* What site implementations see. */
#ifndef HS_SITE_IMPL_H
#define HS_SITE_IMPL_H

#include "hysim/site.h"

struct hs_site_ops {
    int (*setup)(hs_site *s, double dt);
    int (*send_target)(hs_site *s, int64_t step, double t, const double *x, double wall);
    int (*get_measurement)(hs_site *s, hs_site_measurement *m);
    int (*commit)(hs_site *s, int64_t step);
    int (*initial_stiffness)(const hs_site *s, double *K);
    int (*set_stiffness)(hs_site *s, const double *K); /* optional */
    int (*set_velocity)(hs_site *s, const double *v);  /* optional */
    hs_vlab *(*vlab)(hs_site *s);
    int (*summary)(const hs_site *s, hs_site_summary *out);
    size_t (*state_size)(const hs_site *s);
    int (*state_save)(const hs_site *s, double *out);
    int (*state_load)(hs_site *s, const double *in);
    int (*resume)(hs_site *s, int64_t step, const double *x_held); /* optional */
    double (*wait_limit)(const hs_site *s, double usual);          /* optional */
    int (*idle)(hs_site *s);                                       /* optional */
    int (*hold)(const hs_site *s, double *left);                   /* optional */
    void (*end)(hs_site *s);                                       /* optional */
    void (*leave)(hs_site *s, const char *why);                    /* optional */
    void (*destroy)(hs_site *s);
};

struct hs_site {
    hs_ctx *ctx;
    hs_site_config cfg;
    struct hs_site_ops ops;
    void *data;
};

#endif
