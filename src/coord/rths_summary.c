/* J1-J9 of the RTHS benchmark (Silva et al. 2020) from a run's recorded results: J1-J3 from one
 * actuator's command (the target x_t the integrator asked for) and measurement, J4-J9 from the
 * first three DOFs against a reference run's (docs/rths_benchmark.md, "Criteria in a run"). */
#include "hysim/results.h"
#include "hysim/rths.h"

#include <math.h>

int hs_rths_criteria_from_results(hs_ctx *ctx, const hs_results *run, const hs_results *ref,
                                  int actuator, double dt, hs_rths_criteria *out)
{
    for (int j = 0; j < 10; j++) out->J[j] = NAN;
    if (!run || !(dt > 0.0)) return hs_fail(ctx, HS_EINVAL, "rths criteria: no run or no dt");
    int64_t n = hs_results_count(run);
    const int nact = hs_results_actuator_count(run);
    if (ref && hs_results_count(ref) < n) n = hs_results_count(ref); /* the common records */
    if (n < 3) return 0;
    double *xt = hs_dvec((size_t)n), *xm = hs_dvec((size_t)n);
    double *y = hs_dvec(3 * (size_t)n), *yr = hs_dvec(3 * (size_t)n);
    int rc = 0;
    if (!xt || !xm || !y || !yr) {
        rc = hs_fail(ctx, HS_ENOMEM, "rths criteria: out of memory");
        goto done;
    }
    int has_act = actuator >= 0 && actuator < nact, nd = 0;
    while (ref && nd < 3 && !isnan(hs_results_peak_abs_disp(run, nd)) &&
           !isnan(hs_results_peak_abs_disp(ref, nd)))
        nd++; /* floors: the first min(3, ndof) DOFs of both runs */
    for (int64_t k = 0; k < n; k++) {
        const size_t kk = (size_t)k;
        if (has_act) {
            /* a record without a command or measurement (the first, at t = 0) holds the
             * previous value, 0 (at rest) at the start */
            const double a = hs_results_series_act_cmd(run, k)[actuator];
            const double b = hs_results_series_act_meas(run, k)[actuator];
            xt[kk] = isfinite(a) ? a : (k ? xt[kk - 1] : 0.0);
            xm[kk] = isfinite(b) ? b : (k ? xm[kk - 1] : 0.0);
        }
        for (int i = 0; i < nd; i++) {
            y[(size_t)nd * kk + (size_t)i] = hs_results_series_d(run, k)[i];
            yr[(size_t)nd * kk + (size_t)i] = hs_results_series_d(ref, k)[i];
        }
    }
    hs_rths_criteria_compute(has_act ? xt : NULL, has_act ? xm : NULL, nd ? y : NULL,
                             nd ? yr : NULL, (size_t)n, nd, dt, out);
done:
    hs_free(xt);
    hs_free(xm);
    hs_free(y);
    hs_free(yr);
    return rc;
}
