/* hysim network links and task times in virtual time (docs/virtual_time.md).
 *
 * - Delay distributions (registered by name): "constant" {value}, "uniform" {min, max},
 *   "lognormal" {median, sigma}, "empirical" {file} (a histogram: two columns, delay and count or
 *   probability). Values in seconds. Sampling uses hs_rng and only IEEE-exact arithmetic, so the
 *   same seed gives the same bits on every machine.
 * - A link is one direction of a connection (coordinator -> site or site -> coordinator): a delay
 *   distribution, a loss probability with a retransmission timeout, outage windows, and in-order
 *   delivery. Its random stream is seeded from (test seed, link id).
 * - A compute-time model for the integrator's task time: "constant" or "lognormal".
 * - Step timing (Mosqueda et al. 2004): the probability that the time between D_target and the next
 * D_update exceeds the slow and hold thresholds. */
#ifndef HYSIM_LINK_H
#define HYSIM_LINK_H

#include "hysim/base.h"
#include "hysim/options.h"
#include "hysim/rng.h"
#include "hysim/vclock.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- delay distributions ---- */
typedef struct hs_delay_dist hs_delay_dist;

/* Types and their options (seconds): "constant" {value >= 0}; "uniform" {min, max},
 * 0 <= min <= max; "lognormal" {median > 0, sigma >= 0} (X = median exp(sigma Z), Z standard
 * normal); "empirical" {file} read by hs_delay_dist_read_histogram. */
int hs_delay_dist_create(hs_ctx *ctx, const char *type, const hs_options *opts,
                         hs_delay_dist **out);
/* Empirical distribution from a histogram file. Lines: `delay count` (or `delay, count`; count
 * may be a probability: only ratios matter); `#` starts a comment. Each delay is a bin centre,
 * centres strictly increasing; bin edges lie midway between centres, the outer bins are as wide
 * outward as inward (the first edge is clipped at 0). Density is uniform inside a bin, so the CDF
 * is piecewise linear and sampling inverts it with linear interpolation inside the bin. Errors
 * name FILE:LINE. At least two rows. */
int hs_delay_dist_read_histogram(hs_ctx *ctx, const char *path, hs_delay_dist **out);
void hs_delay_dist_destroy(hs_delay_dist **d);

const char *hs_delay_dist_type(const hs_delay_dist *d);
double hs_delay_dist_sample(const hs_delay_dist *d, hs_rng *rng); /* seconds, >= 0 */
double hs_delay_dist_survival(const hs_delay_dist *d, double x);  /* P(X > x), exact */
double hs_delay_dist_mean(const hs_delay_dist *d);                /* E[X], exact */

typedef struct hs_delay_dist_entry {
    const char *name;
    const hs_param_spec *params;
    const char *summary;
} hs_delay_dist_entry;
size_t hs_delay_dist_registry_count(void);
const hs_delay_dist_entry *hs_delay_dist_registry_get(size_t i);
const hs_delay_dist_entry *hs_delay_dist_registry_find(const char *name);

/* ---- links ---- */
typedef struct hs_link hs_link;

/* Conventional link ids: two per site, one each way. */
#define HS_LINK_DOWN                0 /* coordinator -> site (targets) */
#define HS_LINK_UP                  1 /* site -> coordinator (measurements) */
#define HS_LINK_ID(site, direction) ((uint64_t)(site)*2u + (uint64_t)(direction))

/* Options: "delay" (distribution type, default "constant") and that type's keys; "loss"
 * (probability that one transmission is lost, 0 <= loss < 1, default 0); "rto" (retransmission
 * timeout in s, > 0, default 0.2); "max_retries" (default 15: one more loss breaks the link);
 * "outages" (list start1, end1, start2, end2, ... in s: [start, end) windows, sorted, disjoint;
 * an end >= 1e9 s or inf never ends: a disconnection). The random stream is
 * hs_rng_seed(seed, stream(link_id)). */
int hs_link_create(hs_ctx *ctx, const hs_options *opts, uint64_t seed, uint64_t link_id,
                   hs_link **out);
void hs_link_destroy(hs_link **l);
const hs_param_spec *hs_link_params(void); /* the link's own keys (not the delay's) */

typedef struct hs_link_delivery {
    hs_vtime arrival; /* delivery time; HS_VTIME_NEVER when the link is cut for good */
    hs_vtime transit; /* sampled transit time of the transmission that got through */
    int losses;       /* transmissions lost before it (each adds one rto) */
    int held; /* HS_LINK_HELD_* flags: why arrival is later than send + rto*losses + transit */
} hs_link_delivery;
#define HS_LINK_HELD_OUTAGE 1 /* raw arrival fell in an outage: delivered at its end */
#define HS_LINK_HELD_ORDER  2 /* would have overtaken an earlier message: delivered with it */

/* Sends one message at `t_send` (non-decreasing from call to call) and computes its delivery:
 * raw = t_send + losses * rto + transit; moved to the end of an outage that contains it; then
 * max(raw, previous arrival) (in-order, TCP-like). Draws, in order: one uniform per transmission
 * (lost when < loss), then one transit sample. HS_EINVAL when t_send goes back; HS_ENET (arrival
 * NEVER) when more than max_retries transmissions are lost in a row: the link is then broken and
 * delivers nothing more. Never allocates. */
int hs_link_send(hs_link *l, hs_vtime t_send, hs_link_delivery *out);

typedef struct hs_link_stats {
    uint64_t messages;      /* sent */
    uint64_t transmissions; /* including retransmissions */
    uint64_t losses;        /* lost transmissions */
    uint64_t held_outage, held_order;
} hs_link_stats;
void hs_link_get_stats(const hs_link *l, hs_link_stats *out);
uint64_t hs_link_id(const hs_link *l);
const hs_delay_dist *hs_link_delay(const hs_link *l);
/* The link's state as doubles, for checkpoints: its random stream, the last send and arrival
 * (in-order delivery), the outage cursor, the broken flag and the statistics. Load into a link
 * created with the same options and id (HS_EINPUT otherwise). Never allocates. */
size_t hs_link_state_size(const hs_link *l);
int hs_link_state_save(const hs_link *l, double *out);
int hs_link_state_load(hs_link *l, const double *in);

/* ---- compute time (the integrator's task time per step) ---- */
typedef struct hs_compute_model hs_compute_model;
/* Options: "type" "constant" {value} or "lognormal" {median, sigma} (s); default constant 0.
 * Seeded from (seed, id) on a stream apart from the links'. */
int hs_compute_model_create(hs_ctx *ctx, const hs_options *opts, uint64_t seed, uint64_t id,
                            hs_compute_model **out);
void hs_compute_model_destroy(hs_compute_model **m);
hs_vtime hs_compute_model_sample(hs_compute_model *m);
const hs_delay_dist *hs_compute_model_dist(const hs_compute_model *m);
/* Its random stream as doubles, for checkpoints. */
size_t hs_compute_model_state_size(const hs_compute_model *m);
int hs_compute_model_state_save(const hs_compute_model *m, double *out);
int hs_compute_model_state_load(hs_compute_model *m, const double *in);

/* ---- step timing (Mosqueda et al. 2004) ---- */
/* Thresholds on the delay between D_target and D_update for a step of wall time W: the
 * extrapolate state covers `extrapolate_frac` of the step's sub-steps at full speed, the slow
 * state goes on to `slow_frac` at `slow_speed` times that speed, then hold:
 * t_slow = extrapolate_frac W, t_hold = t_slow + (slow_frac - extrapolate_frac) W / slow_speed.
 * Mosqueda et al. 2004: 0.6, 0.8, 0.5 and W = 1.2 s give 0.72 s and 1.2 s; slow_speed = 1 gives 0.8
 * W. */
void hs_step_timing_thresholds(double W, double extrapolate_frac, double slow_frac,
                               double slow_speed, double *t_slow, double *t_hold);

typedef struct hs_step_timing {
    double t_slow, t_hold; /* thresholds (s) */
    double p_slow, p_hold; /* P(delay > t_slow), P(delay > t_hold): fraction of slow, hold steps */
    double se_slow, se_hold; /* standard errors of the estimates (0 when exact) */
    int analytic;            /* 1: closed form (one part), 0: sampled */
} hs_step_timing;

/* The delay is the sum of `nparts` independent parts (e.g. up link, compute, down link). One
 * part: exact, from its survival function (erfc for a lognormal). Several: `nsamples` sums
 * sampled from hs_rng seeded with `seed`, with binomial standard errors. */
int hs_step_timing_estimate(hs_ctx *ctx, const hs_delay_dist *const *parts, size_t nparts,
                            double t_slow, double t_hold, size_t nsamples, uint64_t seed,
                            hs_step_timing *out);

#ifdef __cplusplus
}
#endif
#endif
