/* OpenFresco server sessions, the plumbing shared by protocols A and B: bytes in (any
 * chunking) until a message is complete, then the protocol's ops handle it; at most one reply
 * pending at a time; one allocation, when the client's sizes are accepted. */
#include "ofr_impl.h"

int hs_ofr_server_create(hs_ctx *ctx, hs_ofr_proto proto, const hs_ofr_server_config *cfg,
                         const hs_ofr_backend *backend, hs_ofr_server **out)
{
    if (!out) return hs_fail(ctx, HS_EINVAL, "hs_ofr_server_create: out is NULL");
    *out = NULL;
    if (!cfg || !backend || cfg->n < 1 || cfg->max_data < 0)
        return hs_fail(ctx, HS_EINVAL,
                       "hs_ofr_server_create: needs a config with n >= 1 and a backend");
    if (proto != HS_OFR_PROTO_A && proto != HS_OFR_PROTO_B)
        return hs_fail(ctx, HS_EINVAL, "hs_ofr_server_create: unknown protocol %d", (int)proto);
    const int32_t max = cfg->max_data > 0 ? cfg->max_data : HS_OFR_MAX_DATA;
    if ((int64_t)cfg->n > max)
        return hs_fail(ctx, HS_EINVAL, "hs_ofr_server_create: n = %d exceeds the dataSize bound %d",
                       cfg->n, (int)max);
    hs_ofr_server *s = hs_calloc(1, sizeof *s);
    if (!s) return hs_fail(ctx, HS_ENOMEM, "hs_ofr_server_create: out of memory");
    s->ctx = ctx;
    s->ops = proto == HS_OFR_PROTO_A ? &ofa_server_ops : &ofb_server_ops;
    s->cfg = *cfg;
    s->cfg.max_data = max;
    s->be = *backend;
    s->state = HS_OFR_HANDSHAKE;
    s->buf = s->small;
    s->need = s->ops->first_need;
    *out = s;
    return 0;
}

void hs_ofr_server_destroy(hs_ofr_server **s)
{
    if (!s || !*s) return;
    hs_free((*s)->block);
    hs_free(*s);
    *s = NULL;
}

int ofr_server_begin(hs_ofr_server *s)
{
    int rc = hs_ofr_sizes_check(s->ctx, &s->sizes, s->cfg.n, s->cfg.max_data);
    if (rc) return rc;
    const size_t ds = (size_t)s->sizes.data_size, n = (size_t)s->cfg.n;
    /* doubles first (alignment), then the two byte buffers */
    const size_t ndoubles = ds + 3 * n;
    s->block = hs_malloc(ndoubles * sizeof(double) + 2 * ds * 8);
    if (!s->block) return hs_fail(s->ctx, HS_ENOMEM, "OpenFresco session: out of memory");
    double *d = s->block;
    memset(d, 0, ndoubles * sizeof(double));
    s->reply = d;
    s->trial_d = d + ds;
    s->trial_v = s->trial_d + n;
    s->trial_a = s->trial_v + n;
    s->trial_t = 0.0;
    s->data = (uint8_t *)(d + ndoubles);
    s->data_out = s->data + ds * 8;
    s->buf = s->data;
    s->need = ds * 8;
    s->state = HS_OFR_RUNNING;
    return 0;
}

int hs_ofr_server_feed(hs_ofr_server *s, const uint8_t *in, size_t n, size_t *consumed)
{
    size_t used = 0;
    if (consumed) *consumed = 0;
    if (!s || (!in && n)) return hs_fail(s ? s->ctx : NULL, HS_EINVAL, "hs_ofr_server_feed");
    if (s->state == HS_OFR_FAILED)
        return hs_fail(s->ctx, HS_EPROTO, "OpenFresco session: refused earlier, bytes ignored");
    while (used < n && s->out_len == 0) {
        if (s->state == HS_OFR_CLOSED) {
            used = n; /* after 99: nothing more is read */
            break;
        }
        size_t take = s->need - s->have;
        if (take > n - used) take = n - used;
        memcpy(s->buf + s->have, in + used, take);
        s->have += take;
        used += take;
        if (s->have < s->need) break;
        s->have = 0;
        s->stats.messages++;
        const int rc = s->ops->message(s);
        if (rc) {
            s->state = HS_OFR_FAILED;
            if (consumed) *consumed = used;
            return rc;
        }
    }
    if (consumed) *consumed = used;
    return 0;
}

const uint8_t *hs_ofr_server_reply(const hs_ofr_server *s, size_t *len)
{
    if (len) *len = s && s->out_len ? s->out_len : 0;
    return s && s->out_len ? s->out : NULL;
}

void hs_ofr_server_reply_sent(hs_ofr_server *s)
{
    if (s) s->out_len = 0;
}

hs_ofr_state hs_ofr_server_state(const hs_ofr_server *s)
{
    return s ? s->state : HS_OFR_FAILED;
}
size_t hs_ofr_server_partial(const hs_ofr_server *s)
{
    return s ? s->have : 0;
}
const hs_ofr_sizes *hs_ofr_server_sizes(const hs_ofr_server *s)
{
    return &s->sizes;
}
int32_t hs_ofr_server_client_tag(const hs_ofr_server *s)
{
    return s ? s->client_tag : 0;
}

void hs_ofr_server_stats(const hs_ofr_server *s, hs_ofr_stats *out)
{
    if (s && out) *out = s->stats;
}

double ofr_server_msg(const hs_ofr_server *s, size_t i)
{
    return ofr_get_f64(s->buf + 8 * i);
}

void ofr_server_reply_small(hs_ofr_server *s, size_t len)
{
    s->out = s->small_out;
    s->out_len = len;
    s->stats.replies++;
}
