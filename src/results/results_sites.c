/* The results store's site block: what the site controllers did in each step (the command
 * generator's states and the D_target -> D_update delay per site, the tracking error and
 * indicator per stacked actuator), and each site's TimeOut limits. */
#include "results_impl.h"

#include <math.h>
#include <string.h>

static double *nan_block(size_t count)
{
    double *x = hs_calloc(count ? count : 1, sizeof *x);
    for (size_t k = 0; x && k < count; k++) x[k] = NAN;
    return x;
}

int hs_results_sites_init(hs_results *r, const hs_results_layout *layout)
{
    const int ns = layout->nsites, m = r->nact;
    if (ns <= 0) return 0;
    const size_t c = (size_t)r->capacity;
    r->nsites = ns;
    r->site_names = hs_results_names(layout->site_names, ns, "site");
    r->slow_after = nan_block((size_t)ns);
    r->hold_after = nan_block((size_t)ns);
    r->site_states = hs_calloc(c * (size_t)ns, sizeof *r->site_states);
    r->site_delay = nan_block(c * (size_t)ns);
    r->act_te = nan_block(c * (size_t)m);
    r->act_ti = nan_block(c * (size_t)m);
    const char *len = r->units_length;
    const size_t n = strlen(len) + 3;
    r->units_ti = hs_malloc(n);
    if (!r->site_names || !r->slow_after || !r->hold_after || !r->site_states || !r->site_delay ||
        !r->act_te || !r->act_ti || !r->units_ti)
        return HS_ENOMEM;
    snprintf(r->units_ti, n, "%s%s", len, len[0] ? "^2" : ""); /* TI: length^2 */
    for (int s = 0; s < ns; s++) {
        if (layout->site_slow_after) r->slow_after[s] = layout->site_slow_after[s];
        if (layout->site_hold_after) r->hold_after[s] = layout->site_hold_after[s];
    }
    return 0;
}

void hs_results_sites_free(hs_results *r)
{
    hs_results_names_free(r->site_names, r->nsites);
    hs_free(r->slow_after);
    hs_free(r->hold_after);
    hs_free(r->site_states);
    hs_free(r->site_delay);
    hs_free(r->act_te);
    hs_free(r->act_ti);
    hs_free(r->units_ti);
    r->site_names = NULL;
    r->slow_after = r->hold_after = r->site_delay = r->act_te = r->act_ti = NULL;
    r->site_states = NULL;
    r->units_ti = NULL;
    r->nsites = 0;
}

static void put(double *dst, const double *src, int n)
{
    for (int i = 0; i < n; i++) dst[i] = src ? src[i] : NAN;
}

int hs_results_record_sites(hs_results *r, const int *states, const double *delay, const double *te,
                            const double *ti)
{
    if (!r) return HS_EINVAL;
    if (r->nsites <= 0)
        return hs_fail(r->ctx, HS_EINVAL, "results: sites recorded without a site block");
    if (r->count <= 0)
        return hs_fail(r->ctx, HS_EINVAL, "results: sites recorded before any record");
    const size_t k = (size_t)(r->count - 1), ns = (size_t)r->nsites, m = (size_t)r->nact;
    for (size_t s = 0; s < ns; s++) r->site_states[k * ns + s] = states ? states[s] : 0;
    put(r->site_delay + k * ns, delay, r->nsites);
    put(r->act_te + k * m, te, r->nact);
    put(r->act_ti + k * m, ti, r->nact);
    return 0;
}

int hs_results_site_count(const hs_results *r)
{
    return r ? r->nsites : 0;
}
