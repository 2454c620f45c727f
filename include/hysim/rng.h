/* hysim pseudo-random numbers: a small seeded generator whose bits are the same on every machine
 * (splitmix64 expands the seed, xoshiro256** generates, Marsaglia's polar method gives normal
 * deviates with a log written from +, -, *, / and frexp only). For sensor noise and synthetic
 * signals; not for cryptography. The whole state is a plain struct: copy it to save it. */
#ifndef HYSIM_RNG_H
#define HYSIM_RNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hs_rng {
    uint64_t s[4]; /* xoshiro256** state */
    double spare;  /* second normal deviate of the last polar pair */
    int has_spare;
} hs_rng;

/* splitmix64 (Steele, Lea, Flood 2014): advances *state, returns the next output. */
uint64_t hs_splitmix64(uint64_t *state);
/* Seeds the generator: the four state words are four splitmix64 outputs from `seed`.
 * `stream` is mixed into the seed so that channels seeded alike draw independent sequences. */
void hs_rng_seed(hs_rng *r, uint64_t seed, uint64_t stream);
uint64_t hs_rng_next(hs_rng *r);  /* xoshiro256** (Blackman, Vigna 2018) */
double hs_rng_uniform(hs_rng *r); /* in [0, 1), 53 random bits */
double hs_rng_normal(hs_rng *r);  /* standard normal deviate (mean 0, variance 1) */
/* Natural logarithm from +, -, *, / and frexp (same bits everywhere, within a few ulp of the exact
 * value). */
double hs_log_portable(double x);

/* The state as 10 doubles, each exactly representable (32-bit halves), for checkpoints. */
#define HS_RNG_STATE_SIZE 10
void hs_rng_state_save(const hs_rng *r, double *out);
void hs_rng_state_load(hs_rng *r, const double *in);

#ifdef __cplusplus
}
#endif
#endif
