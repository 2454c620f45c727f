/* Mosqueda et al.'s (2004) timing analysis: how often the delay between D_target and the next
 * D_update exceeds the slow and hold thresholds of the event-driven command generator. */
#include "delay_dist_impl.h"

#include <math.h>

#define HS_TIMING_STREAM_TAG UINT64_C(0x54494D4500000000) /* "TIME" */

void hs_step_timing_thresholds(double W, double extrapolate_frac, double slow_frac,
                               double slow_speed, double *t_slow, double *t_hold)
{
    const double ts = extrapolate_frac * W;
    if (t_slow) *t_slow = ts;
    if (t_hold) *t_hold = ts + (slow_frac - extrapolate_frac) * W / slow_speed;
}

int hs_step_timing_estimate(hs_ctx *ctx, const hs_delay_dist *const *parts, size_t nparts,
                            double t_slow, double t_hold, size_t nsamples, uint64_t seed,
                            hs_step_timing *out)
{
    if (!out || !parts || nparts == 0)
        return hs_fail(ctx, HS_EINVAL, "step timing: no delay given");
    for (size_t k = 0; k < nparts; k++)
        if (!parts[k]) return hs_fail(ctx, HS_EINVAL, "step timing: part %zu is missing", k + 1);
    hs_step_timing r = {.t_slow = t_slow, .t_hold = t_hold};
    if (nparts == 1) {
        r.p_slow = hs_delay_dist_survival(parts[0], t_slow);
        r.p_hold = hs_delay_dist_survival(parts[0], t_hold);
        r.analytic = 1;
        *out = r;
        return 0;
    }
    if (nsamples < 2)
        return hs_fail(ctx, HS_EINVAL, "step timing: %zu parts need nsamples >= 2 (got %zu)",
                       nparts, nsamples);
    hs_rng rng;
    hs_rng_seed(&rng, seed, HS_TIMING_STREAM_TAG);
    size_t slow = 0, hold = 0;
    for (size_t i = 0; i < nsamples; i++) {
        double x = 0.0;
        for (size_t k = 0; k < nparts; k++) x += hs_delay_dist_sample(parts[k], &rng);
        slow += x > t_slow;
        hold += x > t_hold;
    }
    const double n = (double)nsamples;
    r.p_slow = (double)slow / n;
    r.p_hold = (double)hold / n;
    r.se_slow = sqrt(r.p_slow * (1.0 - r.p_slow) / n);
    r.se_hold = sqrt(r.p_hold * (1.0 - r.p_hold) / n);
    *out = r;
    return 0;
}
