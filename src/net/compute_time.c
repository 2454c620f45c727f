/* The integrator's task time per step: a constant or lognormal duration, seeded per model. */
#include "delay_dist_impl.h"

#include <string.h>

#define HS_COMPUTE_STREAM_TAG UINT64_C(0x434F4D5000000000) /* "COMP" */

struct hs_compute_model {
    hs_delay_dist *dist;
    hs_rng rng;
};

int hs_compute_model_create(hs_ctx *ctx, const hs_options *opts, uint64_t seed, uint64_t id,
                            hs_compute_model **out)
{
    if (!out) return hs_fail(ctx, HS_EINVAL, "compute time: no output pointer");
    *out = NULL;
    const char *type = hs_options_str(opts, "type", "constant");
    if (strcmp(type, "constant") != 0 && strcmp(type, "lognormal") != 0)
        return hs_fail(ctx, HS_EINPUT,
                       "compute time: type must be constant or lognormal (got '%s')", type);
    hs_compute_model *m = hs_calloc(1, sizeof *m);
    if (!m) return hs_fail(ctx, HS_ENOMEM, "compute time: out of memory");
    int rc = 0;
    if (strcmp(type, "constant") == 0 && !hs_options_has(opts, "value")) {
        hs_options *zero = NULL;
        rc = hs_options_create(&zero);
        if (!rc) rc = hs_options_set_num(zero, "value", 0.0);
        if (!rc) rc = hs_delay_dist_create(ctx, "constant", zero, &m->dist);
        hs_options_destroy(&zero);
    } else {
        rc = hs_delay_dist_create(ctx, type, opts, &m->dist);
    }
    if (rc) {
        hs_compute_model_destroy(&m);
        return rc;
    }
    hs_rng_seed(&m->rng, seed, HS_COMPUTE_STREAM_TAG ^ id);
    *out = m;
    return 0;
}

void hs_compute_model_destroy(hs_compute_model **m)
{
    if (!m || !*m) return;
    hs_delay_dist_destroy(&(*m)->dist);
    hs_free(*m);
    *m = NULL;
}

hs_vtime hs_compute_model_sample(hs_compute_model *m)
{
    return hs_vtime_from_seconds(hs_delay_dist_sample(m->dist, &m->rng));
}

const hs_delay_dist *hs_compute_model_dist(const hs_compute_model *m)
{
    return m->dist;
}

/* Checkpoint state: the random stream (the distribution has none). */
size_t hs_compute_model_state_size(const hs_compute_model *m)
{
    (void)m;
    return HS_RNG_STATE_SIZE;
}
int hs_compute_model_state_save(const hs_compute_model *m, double *out)
{
    hs_rng_state_save(&m->rng, out);
    return 0;
}
int hs_compute_model_state_load(hs_compute_model *m, const double *in)
{
    hs_rng_state_load(&m->rng, in);
    return 0;
}
