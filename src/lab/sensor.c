/* Sensors: measured = quantise(true + rms * N(0, 1)), the noise from a seeded hs_rng stream. */
#include "hysim/lab.h"
#include "hysim/rng.h"

#include <math.h>

struct hs_sensor {
    hs_sensor_params p;
    hs_rng rng;
};

int hs_sensor_create(hs_ctx *ctx, const hs_sensor_params *p, uint64_t seed, uint64_t stream,
                     hs_sensor **out)
{
    if (!p || !out) return hs_fail(ctx, HS_EINVAL, "sensor: no parameters");
    if (!(p->rms >= 0.0))
        return hs_fail(ctx, HS_EINPUT, "sensor: noise rms must be >= 0 (got %g)", p->rms);
    if (p->bits < 0 || p->bits > 52 || (p->bits > 0 && !(p->range > 0.0)))
        return hs_fail(ctx, HS_EINPUT,
                       "sensor: bits must be in 0..52 and range > 0 when quantising (got %d, %g)",
                       p->bits, p->range);
    hs_sensor *s = hs_calloc(1, sizeof *s);
    if (!s) return hs_fail(ctx, HS_ENOMEM, "sensor: out of memory");
    s->p = *p;
    hs_rng_seed(&s->rng, seed, stream);
    *out = s;
    return 0;
}

void hs_sensor_destroy(hs_sensor **s)
{
    if (!s || !*s) return;
    hs_free(*s);
    *s = NULL;
}

double hs_quantise(double y, int bits, double range)
{
    if (bits <= 0) return y;
    const double top = ldexp(1.0, bits) - 1.0; /* highest level index */
    const double q = 2.0 * range / top;
    double i = floor((y + range) / q + 0.5);
    if (i < 0.0) i = 0.0;
    if (i > top) i = top;
    return -range + i * q;
}

double hs_sensor_level(const hs_sensor *s)
{
    return s->p.bits > 0 ? 2.0 * s->p.range / (ldexp(1.0, s->p.bits) - 1.0) : 0.0;
}

double hs_sensor_measure(hs_sensor *s, double true_value)
{
    double y = true_value;
    if (s->p.rms > 0.0) y += s->p.rms * hs_rng_normal(&s->rng);
    return hs_quantise(y, s->p.bits, s->p.range);
}

size_t hs_sensor_state_size(const hs_sensor *s)
{
    (void)s;
    return HS_RNG_STATE_SIZE;
}
int hs_sensor_state_save(const hs_sensor *s, double *out)
{
    hs_rng_state_save(&s->rng, out);
    return 0;
}
int hs_sensor_state_load(hs_sensor *s, const double *in)
{
    hs_rng_state_load(&s->rng, in);
    return 0;
}
