/* Seeded pseudo-random numbers with the same bits on every machine: splitmix64 seeding,
 * xoshiro256** generation, Marsaglia's polar method for normal deviates. Only IEEE-exact
 * operations (+, -, *, /, sqrt, frexp) are used; the build turns contraction into FMA off
 * (-ffp-contract=off) for every compiler, so results are the same bits everywhere. */
#include "hysim/rng.h"

#include <math.h>

uint64_t hs_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

void hs_rng_seed(hs_rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t mix = stream;
    uint64_t x = seed ^ hs_splitmix64(&mix);
    if (stream == 0) x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = hs_splitmix64(&x);
    r->spare = 0.0;
    r->has_spare = 0;
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t hs_rng_next(hs_rng *r)
{
    uint64_t *s = r->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double hs_rng_uniform(hs_rng *r)
{
    return (double)(hs_rng_next(r) >> 11) * 0x1.0p-53;
}

/* log x = e ln2 + 2 atanh(w), x = m 2^e with m in [sqrt(1/2), sqrt(2)), w = (m - 1)/(m + 1),
 * |w| <= 0.1716: the odd series of atanh to w^27 is below 1e-20 relative. */
double hs_log_portable(double x)
{
    if (!(x > 0.0)) return x == 0.0 ? -HUGE_VAL : NAN;
    if (isinf(x)) return x;
    int e = 0;
    double m = frexp(x, &e);
    if (m < 0.70710678118654752440) {
        m *= 2.0;
        e -= 1;
    }
    const double w = (m - 1.0) / (m + 1.0);
    const double w2 = w * w;
    double p = 1.0 / 27.0;
    for (int k = 12; k >= 0; k--) p = p * w2 + 1.0 / (double)(2 * k + 1);
    const double de = (double)e;
    /* ln 2 in two parts so that de * hi is exact */
    return de * 6.93147180369123816490e-01 + (de * 1.90821492927058770002e-10 + 2.0 * w * p);
}

double hs_rng_normal(hs_rng *r)
{
    if (r->has_spare) {
        r->has_spare = 0;
        return r->spare;
    }
    double u, v, s;
    do {
        u = 2.0 * hs_rng_uniform(r) - 1.0;
        v = 2.0 * hs_rng_uniform(r) - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double f = sqrt(-2.0 * hs_log_portable(s) / s);
    r->spare = v * f;
    r->has_spare = 1;
    return u * f;
}

void hs_rng_state_save(const hs_rng *r, double *out)
{
    for (int i = 0; i < 4; i++) {
        out[2 * i] = (double)(r->s[i] >> 32);
        out[2 * i + 1] = (double)(r->s[i] & UINT64_C(0xFFFFFFFF));
    }
    out[8] = r->spare;
    out[9] = (double)r->has_spare;
}

void hs_rng_state_load(hs_rng *r, const double *in)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = ((uint64_t)in[2 * i] << 32) | ((uint64_t)in[2 * i + 1] & UINT64_C(0xFFFFFFFF));
    r->spare = in[8];
    r->has_spare = in[9] != 0.0;
}
