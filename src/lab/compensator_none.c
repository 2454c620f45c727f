/* No compensation: the command is the desired displacement. */
#include "compensator_impl.h"

const hs_param_spec hs_compensator_none_params[] = {{NULL, HS_PARAM_NUM, 0, NULL}};

static double none_tick(hs_compensator *c, double x_desired, double x_measured)
{
    (void)c;
    (void)x_measured;
    return x_desired;
}

static void none_reset(hs_compensator *c, double x0)
{
    (void)c;
    (void)x0;
}

static double none_a_es(const hs_compensator *c)
{
    (void)c;
    return 1.0;
}

static size_t none_state_size(const hs_compensator *c)
{
    (void)c;
    return 0;
}

static int none_state_save(const hs_compensator *c, double *out)
{
    (void)c;
    (void)out;
    return 0;
}

static int none_state_load(hs_compensator *c, const double *in)
{
    (void)c;
    (void)in;
    return 0;
}

int hs_compensator_create_none(hs_compensator *c, const hs_options *opts)
{
    (void)opts;
    c->ops.tick = none_tick;
    c->ops.reset = none_reset;
    c->ops.a_es = none_a_es;
    c->ops.state_size = none_state_size;
    c->ops.state_save = none_state_save;
    c->ops.state_load = none_state_load;
    return 0;
}
