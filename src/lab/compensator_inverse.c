/* Inverse compensation (Chen et al. 2009; Chen & Ricles 2010, eq. 1 with delta_a = 0): the inverse
 * of the first-order actuator model Gp(z) = 1 / (a z - (a - 1)), made causal by 1/z: Gc(z) = (a_es
 * z - (a_es - 1)) / z, x_c(k) = a_es x_t(k) - (a_es - 1) x_t(k-1). a_es in controller samples,
 * clamped below at a_min (default 1: no lead). */
#include "compensator_impl.h"

#include <math.h>

const hs_param_spec hs_compensator_inverse_params[] = {
    {"a_es", HS_PARAM_NUM, 0, "estimated delay constant, controller samples (default 1)"},
    {"a_min", HS_PARAM_NUM, 0, "lower clamp of a_es (default 1: never a lag)"},
    {NULL, HS_PARAM_NUM, 0, NULL}};

typedef struct {
    double a;      /* max(a_min, a_es) */
    double x_prev; /* state: x_t(k-1) */
} inverse_data;

static double inverse_tick(hs_compensator *c, double x_desired, double x_measured)
{
    (void)x_measured;
    inverse_data *d = c->data;
    const double xc = hs_inverse_command(d->a, x_desired, d->x_prev);
    d->x_prev = x_desired;
    return xc;
}

static void inverse_reset(hs_compensator *c, double x0)
{
    ((inverse_data *)c->data)->x_prev = x0;
}

static double inverse_a_es(const hs_compensator *c)
{
    return ((const inverse_data *)c->data)->a;
}

static size_t inverse_state_size(const hs_compensator *c)
{
    (void)c;
    return 1;
}

static int inverse_state_save(const hs_compensator *c, double *out)
{
    out[0] = ((const inverse_data *)c->data)->x_prev;
    return 0;
}

static int inverse_state_load(hs_compensator *c, const double *in)
{
    ((inverse_data *)c->data)->x_prev = in[0];
    return 0;
}

int hs_compensator_create_inverse(hs_compensator *c, const hs_options *opts)
{
    const double a_es = hs_options_num(opts, "a_es", 1.0);
    const double a_min = hs_options_num(opts, "a_min", 1.0);
    if (!isfinite(a_es) || !isfinite(a_min))
        return hs_fail(c->ctx, HS_EINPUT,
                       "compensator inverse: a_es (%g) and a_min (%g) must "
                       "be finite",
                       a_es, a_min);
    inverse_data *d = hs_calloc(1, sizeof *d);
    if (!d) return hs_fail(c->ctx, HS_ENOMEM, "compensator inverse: out of memory");
    c->data = d;
    d->a = a_es < a_min ? a_min : a_es;
    c->ops.tick = inverse_tick;
    c->ops.reset = inverse_reset;
    c->ops.a_es = inverse_a_es;
    c->ops.state_size = inverse_state_size;
    c->ops.state_save = inverse_state_save;
    c->ops.state_load = inverse_state_load;
    return 0;
}
