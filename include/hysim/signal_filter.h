/* Signal filters of an experimental control (OpenFresco's expSignalFilter; docs/openfresco.md,
 * "Signal filters"): the errors a laboratory adds to a command or a measurement, applied to one
 * value at a time in the order OpenFresco's control passes them (ECSimUniaxialMaterials: each
 * DOF of the response in turn, one filter object per response type and control). Facts from
 * OpenFresco's SRC/experimentalSignalFilter:
 *  - undershoot e (ESFErrorSimUndershoot::filtering): y = d - e when d rose since the last call,
 *    d + e when it fell, d when it is equal; then + e more when |d| < 1e-6; the last input is
 *    remembered (0 at first);
 *  - random Gauss (ESFErrorSimRandomGauss::filtering): y = d + mean + sigma n, n a standard
 *    normal deviate. OpenFresco draws n from its own generator seeded with the clock (Numerical
 *    Recipes' ran3 and Box-Muller); hysim draws it from hs_rng seeded with (seed, stream), so a
 *    run repeats itself and its statistics are OpenFresco's, not its bits. */
#ifndef HYSIM_SIGNAL_FILTER_H
#define HYSIM_SIGNAL_FILTER_H

#include "hysim/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hs_signal_filter_type {
    HS_SF_NONE, /* passes the value through */
    HS_SF_UNDERSHOOT,
    HS_SF_RANDOM_GAUSS
} hs_signal_filter_type;

/* OpenFresco's five response types (OF_Resp_Disp .. OF_Resp_Time), the order of the five tags of
 * expControl's -ctrlFilters and -daqFilters */
enum { HS_SF_DISP, HS_SF_VEL, HS_SF_ACCEL, HS_SF_FORCE, HS_SF_TIME, HS_SF_RESPONSES };

/* A filter and its state (a plain struct: copying it copies the state, as OpenFresco's getCopy). */
typedef struct hs_signal_filter {
    hs_signal_filter_type type;
    double error;       /* undershoot */
    double mean, sigma; /* random Gauss */
    double last;        /* undershoot: the last input (predata) */
    hs_rng rng;         /* random Gauss */
} hs_signal_filter;

void hs_signal_filter_undershoot(hs_signal_filter *f, double error);
void hs_signal_filter_random_gauss(hs_signal_filter *f, double mean, double sigma, uint64_t seed,
                                   uint64_t stream);
/* The filtered value of d (advances the filter's state). */
double hs_signal_filter_apply(hs_signal_filter *f, double d);

#ifdef __cplusplus
}
#endif

#endif
