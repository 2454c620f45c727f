/* One direction of a network connection in virtual time: sampled transit delay, losses repaired by
 * retransmission after a timeout, outage windows that hold messages until they end, and in-order
 * (TCP-like) delivery. */
#include "delay_dist_impl.h"

#include <math.h>

#define HS_LINK_STREAM_TAG UINT64_C(0x4C494E4B00000000) /* "LINK" */

static const hs_param_spec link_params[] = {
    {"delay", HS_PARAM_STR, 0, "delay distribution: constant, uniform, lognormal, empirical"},
    {"loss", HS_PARAM_NUM, 0, "probability that one transmission is lost (0 <= loss < 1)"},
    {"rto", HS_PARAM_NUM, 0, "retransmission timeout (s): added once per lost transmission"},
    {"max_retries", HS_PARAM_NUM, 0, "lost transmissions in a row that break the link"},
    {"outages", HS_PARAM_LIST, 0, "[start, end) windows in s: start1, end1, start2, end2, ..."},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

struct hs_link {
    hs_ctx *ctx;
    uint64_t id;
    hs_delay_dist *delay;
    hs_rng rng;
    double loss;
    hs_vtime rto;
    int max_retries;
    size_t n_outages;
    hs_vtime *outage;   /* 2 n_outages: start, end (HS_VTIME_NEVER: never ends) */
    size_t next_outage; /* first window that may still matter (arrivals never go back) */
    hs_vtime last_send, last_arrival;
    int broken;
    hs_link_stats stats;
};

const hs_param_spec *hs_link_params(void)
{
    return link_params;
}

static int read_outages(hs_link *l, const hs_options *opts)
{
    const double *v = NULL;
    const size_t n = hs_options_list(opts, "outages", &v);
    if (n == 0) return 0;
    if (n % 2)
        return hs_fail(l->ctx, HS_EINPUT,
                       "link %llu: outages need start, end pairs (got %zu numbers)",
                       (unsigned long long)l->id, n);
    l->outage = hs_calloc(n, sizeof *l->outage);
    if (!l->outage) return hs_fail(l->ctx, HS_ENOMEM, "link: out of memory");
    l->n_outages = n / 2;
    for (size_t k = 0; k < l->n_outages; k++) {
        const double s = v[2 * k], e = v[2 * k + 1];
        if (!(s >= 0.0) || !(e > s) || (k > 0 && !(s >= v[2 * k - 1])))
            return hs_fail(l->ctx, HS_EINPUT,
                           "link %llu: outage %zu [%g, %g) s: need 0 <= start < end, sorted and "
                           "disjoint windows",
                           (unsigned long long)l->id, k + 1, s, e);
        l->outage[2 * k] = hs_vtime_from_seconds(s);
        l->outage[2 * k + 1] = e >= 1e9 ? HS_VTIME_NEVER : hs_vtime_from_seconds(e);
    }
    return 0;
}

int hs_link_create(hs_ctx *ctx, const hs_options *opts, uint64_t seed, uint64_t link_id,
                   hs_link **out)
{
    if (!out) return hs_fail(ctx, HS_EINVAL, "link: no output pointer");
    *out = NULL;
    hs_link *l = hs_calloc(1, sizeof *l);
    if (!l) return hs_fail(ctx, HS_ENOMEM, "link: out of memory");
    l->ctx = ctx;
    l->id = link_id;
    int rc = hs_delay_dist_create(ctx, hs_options_str(opts, "delay", "constant"), opts, &l->delay);
    l->loss = hs_options_num(opts, "loss", 0.0);
    const double rto = hs_options_num(opts, "rto", 0.2);
    const double retries = hs_options_num(opts, "max_retries", 15.0);
    if (!rc && !(l->loss >= 0.0 && l->loss < 1.0))
        rc = hs_fail(ctx, HS_EINPUT, "link %llu: loss must be in [0, 1) (got %g)",
                     (unsigned long long)link_id, l->loss);
    if (!rc && !(rto > 0.0 && rto < 1e6))
        rc = hs_fail(ctx, HS_EINPUT, "link %llu: rto must be > 0 s (got %g)",
                     (unsigned long long)link_id, rto);
    if (!rc && !(retries >= 0.0 && retries <= 1000.0 && retries == floor(retries)))
        rc = hs_fail(ctx, HS_EINPUT,
                     "link %llu: max_retries must be an integer in [0, 1000] (got %g)",
                     (unsigned long long)link_id, retries);
    if (!rc) rc = read_outages(l, opts);
    if (rc) {
        hs_link_destroy(&l);
        return rc;
    }
    l->rto = hs_vtime_from_seconds(rto);
    l->max_retries = (int)retries;
    hs_rng_seed(&l->rng, seed, HS_LINK_STREAM_TAG ^ link_id);
    *out = l;
    return 0;
}

void hs_link_destroy(hs_link **l)
{
    if (!l || !*l) return;
    hs_delay_dist_destroy(&(*l)->delay);
    hs_free((*l)->outage);
    hs_free(*l);
    *l = NULL;
}

/* Moves t to the end of every outage window containing it (windows may touch). */
static hs_vtime after_outages(hs_link *l, hs_vtime t, int *held)
{
    while (l->next_outage < l->n_outages && l->outage[2 * l->next_outage + 1] <= t)
        l->next_outage++;
    for (size_t k = l->next_outage; k < l->n_outages; k++) {
        if (t < l->outage[2 * k]) break;
        if (t < l->outage[2 * k + 1]) {
            t = l->outage[2 * k + 1];
            *held = 1;
        }
    }
    return t;
}

static hs_vtime add_sat(hs_vtime a, hs_vtime b)
{
    return (a >= HS_VTIME_NEVER - b) ? HS_VTIME_NEVER : a + b;
}

int hs_link_send(hs_link *l, hs_vtime t_send, hs_link_delivery *out)
{
    hs_link_delivery d = {.arrival = HS_VTIME_NEVER};
    if (t_send < l->last_send) {
        *out = d;
        return hs_fail(l->ctx, HS_EINVAL, "link %llu: message sent at %.9f s after one at %.9f s",
                       (unsigned long long)l->id, hs_vtime_seconds(t_send),
                       hs_vtime_seconds(l->last_send));
    }
    l->last_send = t_send;
    l->stats.messages++;
    if (l->broken) {
        *out = d;
        return hs_fail(l->ctx, HS_ENET, "link %llu: broken (too many losses) before %.9f s",
                       (unsigned long long)l->id, hs_vtime_seconds(t_send));
    }
    for (;;) {
        l->stats.transmissions++;
        if (!(hs_rng_uniform(&l->rng) < l->loss)) break;
        l->stats.losses++;
        if (++d.losses > l->max_retries) {
            l->broken = 1;
            *out = d;
            return hs_fail(l->ctx, HS_ENET,
                           "link %llu: message sent at %.9f s lost %d times in a row: link broken",
                           (unsigned long long)l->id, hs_vtime_seconds(t_send), d.losses);
        }
    }
    d.transit = hs_vtime_from_seconds(hs_delay_dist_sample(l->delay, &l->rng));
    hs_vtime t = add_sat(add_sat(t_send, (hs_vtime)d.losses * l->rto), d.transit);
    int held = 0;
    t = after_outages(l, t, &held);
    if (held) {
        d.held |= HS_LINK_HELD_OUTAGE;
        l->stats.held_outage++;
    }
    if (t < l->last_arrival) {
        t = l->last_arrival;
        d.held |= HS_LINK_HELD_ORDER;
        l->stats.held_order++;
    }
    l->last_arrival = t;
    d.arrival = t;
    *out = d;
    return 0;
}

void hs_link_get_stats(const hs_link *l, hs_link_stats *out)
{
    *out = l->stats;
}
uint64_t hs_link_id(const hs_link *l)
{
    return l->id;
}
const hs_delay_dist *hs_link_delay(const hs_link *l)
{
    return l->delay;
}

/* ---- checkpoint state ----
 * layout: id (2 halves), outage windows (count), RNG (HS_RNG_STATE_SIZE), next outage, last send,
 * last arrival (2 halves each), broken, statistics (5 counters, 2 halves each) */
#include "../base/state_io.h"

static void link_walk(hs_link *l, hs_state_io *s)
{
    if (s->in)
        hs_rng_state_load(&l->rng, s->in + s->pos);
    else if (s->out)
        hs_rng_state_save(&l->rng, s->out + s->pos);
    s->pos += HS_RNG_STATE_SIZE;
    l->next_outage = (size_t)hs_state_int(s, (int64_t)l->next_outage, 0, (int64_t)l->n_outages);
    l->last_send = (hs_vtime)hs_state_u64(s, (uint64_t)l->last_send);
    l->last_arrival = (hs_vtime)hs_state_u64(s, (uint64_t)l->last_arrival);
    l->broken = (int)hs_state_int(s, l->broken, 0, 1);
    uint64_t *counters[] = {&l->stats.messages, &l->stats.transmissions, &l->stats.losses,
                            &l->stats.held_outage, &l->stats.held_order};
    for (size_t k = 0; k < sizeof counters / sizeof counters[0]; k++)
        *counters[k] = hs_state_u64(s, *counters[k]);
}

size_t hs_link_state_size(const hs_link *l)
{
    hs_state_io s = hs_state_writer(NULL);
    link_walk((hs_link *)l, &s); /* counting writes nothing */
    return 3 + s.pos;
}

int hs_link_state_save(const hs_link *l, double *out)
{
    hs_state_io s = hs_state_writer(out);
    hs_state_put_u64(&s, l->id);
    hs_state_put(&s, (double)l->n_outages);
    link_walk((hs_link *)l, &s); /* saving reads l only */
    return 0;
}

int hs_link_state_load(hs_link *l, const double *in)
{
    hs_state_io s = hs_state_reader(in);
    const uint64_t id = hs_state_get_u64(&s);
    const double nout = hs_state_get(&s);
    if (s.bad || id != l->id || nout != (double)l->n_outages)
        return hs_fail(l->ctx, HS_EINPUT,
                       "link %llu: the saved state is for link %llu with %g outage windows, this "
                       "one has %zu",
                       (unsigned long long)l->id, (unsigned long long)id, nout, l->n_outages);
    link_walk(l, &s);
    if (s.bad || l->last_send < 0 || l->last_arrival < 0)
        return hs_fail(l->ctx, HS_EINPUT, "link %llu: the saved state holds an impossible value",
                       (unsigned long long)l->id);
    return 0;
}
