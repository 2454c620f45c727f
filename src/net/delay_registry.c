/* The delay distribution registry: one line per family. */
#include "delay_dist_impl.h"

#include "../base/registry.h"

int hs_delay_create_constant(hs_delay_dist *d, const hs_options *opts);
extern const hs_param_spec hs_delay_constant_params[];
int hs_delay_create_uniform(hs_delay_dist *d, const hs_options *opts);
extern const hs_param_spec hs_delay_uniform_params[];
int hs_delay_create_lognormal(hs_delay_dist *d, const hs_options *opts);
extern const hs_param_spec hs_delay_lognormal_params[];
int hs_delay_create_empirical(hs_delay_dist *d, const hs_options *opts);
extern const hs_param_spec hs_delay_empirical_params[];

static const struct {
    hs_delay_dist_entry entry;
    hs_delay_dist_ctor ctor;
} hs_delay_dists[] = {
    {{"constant", hs_delay_constant_params, "the same delay every time"}, hs_delay_create_constant},
    {{"uniform", hs_delay_uniform_params, "uniform between min and max"}, hs_delay_create_uniform},
    {{"lognormal", hs_delay_lognormal_params, "median exp(sigma Z), Z standard normal"},
     hs_delay_create_lognormal},
    {{"empirical", hs_delay_empirical_params, "histogram from a file (delay, count)"},
     hs_delay_create_empirical},
};

#define HS_NDELAY_DISTS (sizeof hs_delay_dists / sizeof hs_delay_dists[0])

size_t hs_delay_dist_registry_count(void)
{
    return HS_NDELAY_DISTS;
}

const hs_delay_dist_entry *hs_delay_dist_registry_get(size_t i)
{
    return i < HS_NDELAY_DISTS ? &hs_delay_dists[i].entry : NULL;
}

const hs_delay_dist_entry *hs_delay_dist_registry_find(const char *name)
{
    return hs_delay_dist_registry_get(HS_REGISTRY_INDEX(hs_delay_dists, name));
}

hs_delay_dist_ctor hs_delay_dist_registry_ctor(const char *name)
{
    const size_t i = HS_REGISTRY_INDEX(hs_delay_dists, name);
    return i < HS_NDELAY_DISTS ? hs_delay_dists[i].ctor : NULL;
}
