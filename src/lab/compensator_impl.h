/* What compensator implementations see. One file per compensator fills the ops table. */
#ifndef HS_COMPENSATOR_IMPL_H
#define HS_COMPENSATOR_IMPL_H

#include "hysim/compensator.h"

struct hs_compensator_ops {
    double (*tick)(hs_compensator *c, double x_desired, double x_measured); /* -> x_c(k) */
    void (*reset)(hs_compensator *c, double x0);
    double (*a_es)(const hs_compensator *c);
    double (*delta_a)(const hs_compensator *c); /* optional */
    double (*ti)(const hs_compensator *c);      /* optional */
    size_t (*state_size)(const hs_compensator *c);
    int (*state_save)(const hs_compensator *c, double *out);
    int (*state_load)(hs_compensator *c, const double *in);
    void (*destroy)(hs_compensator *c); /* frees data (optional) */
};

struct hs_compensator {
    hs_ctx *ctx;
    const char *type; /* registry name (static) */
    struct hs_compensator_ops ops;
    void *data;
    double rate, h;    /* controller rate (Hz), h = 1 / rate */
    double f_measured; /* the force of the tick (hs_compensator_tick_force), for plug-ins */
};

typedef int (*hs_compensator_ctor)(hs_compensator *c, const hs_options *opts);
hs_compensator_ctor hs_compensator_registry_ctor(const char *name);

/* Chen & Ricles 2010, eq. 1 in the time domain, Gc(z) = (a z - (a - 1)) / z:
 * x_c(k) = a x_t(k) - (a - 1) x_t(k-1) = x_t(k) + (a - 1) (x_t(k) - x_t(k-1)),
 * a linear extrapolation of the desired command by a - 1 samples. */
static inline double hs_inverse_command(double a, double x_t, double x_t_prev)
{
    return x_t + (a - 1.0) * (x_t - x_t_prev);
}

#endif
