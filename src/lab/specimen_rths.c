/* The RTHS benchmark's actuator and specimen as one specimen (Silva et al. 2020; include/hysim/
 * rths.h, docs/rths_benchmark.md): with control-structure interaction the specimen moves its own
 * actuator, so the lab's actuator model reduces to its limits (hs_vlab makes it perfect) and what
 * reaches this specimen as its "displacement" is the servo controller's command r. Each trial
 * steps the closed servo loop over dt with r held (zero-order hold, discretised for the sample
 * dt, again only when dt changes); the force is the load cell's, and the actuator's position is
 * the plant's displacement (hs_specimen_actuator_position). One channel. */
#include "specimen_impl.h"

#include "hysim/rths.h"

#include <math.h>
#include <string.h>

const hs_param_spec hs_specimen_rths_benchmark_params[] = {
    {"plant", HS_PARAM_STR, 0, "nominal (default) or perturbed (the benchmark's distributions)"},
    {"seed", HS_PARAM_NUM, 0, "perturbed plant: seed of its draw (default 1)"},
    {"spread", HS_PARAM_NUM, 0,
     "perturbed plant: standard deviations in units of the benchmark's (default 1)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

typedef struct rths_spec {
    hs_rths_plant *plant;
    double s_c[HS_RTHS_NSTATE], s[HS_RTHS_NSTATE]; /* committed and trial plant states */
    double pos;                                    /* trial actuator position */
} rths_spec;

static int rths_set_trial(hs_specimen *s, double dt)
{
    rths_spec *r = s->data;
    if (dt > 0.0) {
        hs_rths_plant_set_rate(r->plant, 1.0 / dt);
        hs_rths_plant_step(r->plant, r->s_c, s->x[0], r->s);
    } else {
        memcpy(r->s, r->s_c, sizeof r->s);
    }
    s->force[0] = r->s[HS_RTHS_STATE_F];
    r->pos = r->s[HS_RTHS_STATE_X];
    return isfinite(s->force[0])
               ? 0
               : hs_fail(s->ctx, HS_EUNSTABLE,
                         "specimen rths_benchmark: the plant's state is not finite");
}

static int rths_commit(hs_specimen *s)
{
    rths_spec *r = s->data;
    memcpy(r->s_c, r->s, sizeof r->s_c);
    return 0;
}

static const double *rths_position(const hs_specimen *s)
{
    const rths_spec *r = s->data;
    return &r->pos;
}

static int rths_initial_stiffness(const hs_specimen *s, double *K)
{
    const rths_spec *r = s->data;
    K[0] = hs_rths_plant_params_of(r->plant)->ke; /* the force per displacement at rest */
    return 0;
}

/* layout: the controller rate of the discretisation, the committed plant state */
static size_t rths_state_size(const hs_specimen *s)
{
    (void)s;
    return 1 + HS_RTHS_NSTATE;
}

static int rths_state_save(const hs_specimen *s, double *out)
{
    const rths_spec *r = s->data;
    out[0] = hs_rths_plant_rate(r->plant);
    memcpy(out + 1, r->s_c, sizeof r->s_c);
    return 0;
}

static int rths_state_load(hs_specimen *s, const double *in)
{
    rths_spec *r = s->data;
    if (!(in[0] > 0.0))
        return hs_fail(s->ctx, HS_EINPUT, "specimen rths_benchmark: saved rate %g is not > 0",
                       in[0]);
    hs_rths_plant_set_rate(r->plant, in[0]);
    memcpy(r->s_c, in + 1, sizeof r->s_c);
    return 0;
}

static void rths_destroy(hs_specimen *s)
{
    rths_spec *r = s->data;
    if (r) hs_rths_plant_destroy(&r->plant);
    hs_free(r);
}

int hs_rths_plant_from_options(hs_ctx *ctx, const hs_options *opts, const char *what,
                               hs_rths_plant_params *p)
{
    const char *which = hs_options_str(opts, "plant", "nominal");
    const double seed = hs_options_num(opts, "seed", 1.0);
    const double spread = hs_options_num(opts, "spread", 1.0);
    if (strcmp(which, "nominal") == 0) {
        *p = hs_rths_plant_nominal();
        return 0;
    }
    if (strcmp(which, "perturbed") != 0)
        return hs_fail(ctx, HS_EINPUT, "%s: plant must be nominal or perturbed (got '%s')", what,
                       which);
    if (!(seed >= 0.0 && seed <= 9007199254740992.0 && seed == floor(seed)))
        return hs_fail(ctx, HS_EINPUT, "%s: seed must be a whole number 0..2^53 (got %g)", what,
                       seed);
    if (!(spread >= 0.0 && spread <= 10.0))
        return hs_fail(ctx, HS_EINPUT, "%s: spread must be in [0, 10] (got %g)", what, spread);
    *p = hs_rths_plant_perturbed((unsigned long long)seed, spread);
    return 0;
}

int hs_specimen_create_rths_benchmark(hs_specimen *s, const hs_options *opts)
{
    if (s->n != 1)
        return hs_fail(s->ctx, HS_EINPUT,
                       "specimen rths_benchmark: one actuator (the benchmark's), got %d", s->n);
    hs_rths_plant_params p;
    const int prc = hs_rths_plant_from_options(s->ctx, opts, "specimen rths_benchmark", &p);
    if (prc) return prc;
    rths_spec *r = hs_calloc(1, sizeof *r);
    if (!r) return hs_fail(s->ctx, HS_ENOMEM, "specimen rths_benchmark: out of memory");
    s->data = r;
    s->ops.set_trial = rths_set_trial;
    s->ops.commit = rths_commit;
    s->ops.position = rths_position;
    s->ops.initial_stiffness = rths_initial_stiffness;
    s->ops.state_size = rths_state_size;
    s->ops.state_save = rths_state_save;
    s->ops.state_load = rths_state_load;
    s->ops.destroy = rths_destroy;
    /* discretised for 4096 Hz until the first trial says the lab's rate */
    const int rc = hs_rths_plant_create(s->ctx, &p, 4096.0, &r->plant);
    return rc ? hs_fail(s->ctx, rc, "specimen rths_benchmark: %s", hs_ctx_message(s->ctx)) : 0;
}
