/* Signal filters of an experimental control (include/hysim/signal_filter.h; facts from
 * OpenFresco's ESFErrorSimUndershoot.cpp and ESFErrorSimRandomGauss.cpp). */
#include "hysim/signal_filter.h"

#include <math.h>
#include <string.h>

void hs_signal_filter_undershoot(hs_signal_filter *f, double error)
{
    memset(f, 0, sizeof *f);
    f->type = HS_SF_UNDERSHOOT;
    f->error = error;
}

void hs_signal_filter_random_gauss(hs_signal_filter *f, double mean, double sigma, uint64_t seed,
                                   uint64_t stream)
{
    memset(f, 0, sizeof *f);
    f->type = HS_SF_RANDOM_GAUSS;
    f->mean = mean;
    f->sigma = sigma;
    hs_rng_seed(&f->rng, seed, stream);
}

double hs_signal_filter_apply(hs_signal_filter *f, double d)
{
    double y = d;
    switch (f->type) {
    case HS_SF_NONE:
        break;
    case HS_SF_UNDERSHOOT: /* short of the target in the direction it moves */
        if (d > f->last)
            y -= f->error;
        else if (d < f->last)
            y += f->error;
        if (fabs(d) < 1.0e-6) y += f->error; /* as ESFErrorSimUndershoot::filtering */
        f->last = d;
        break;
    case HS_SF_RANDOM_GAUSS:
        y += f->mean + f->sigma * hs_rng_normal(&f->rng);
        break;
    }
    return y;
}
