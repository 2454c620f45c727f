/* OpenFresco client sessions, the plumbing shared by protocols A and B: one message queued at a
 * time (the reused request buffer: action code, then the last trial data), the reply awaited
 * read in any chunking. The protocol's ops say what to send first and what each reply means. */
#include "ofr_impl.h"

int hs_ofr_client_create(hs_ctx *ctx, hs_ofr_proto proto, const hs_ofr_client_config *cfg,
                         hs_ofr_client **out)
{
    if (!out) return hs_fail(ctx, HS_EINVAL, "hs_ofr_client_create: out is NULL");
    *out = NULL;
    if (!cfg ||
        (proto != HS_OFR_PROTO_A && proto != HS_OFR_PROTO_B && proto != HS_OFR_PROTO_ADAPTER))
        return hs_fail(ctx, HS_EINVAL,
                       "hs_ofr_client_create: needs a config and protocol A, B or adapter");
    hs_ofr_sizes sz = cfg->sizes;
    const int n = sz.ctrl[HS_OFR_DISP];
    const int32_t max = cfg->max_data > 0 ? cfg->max_data : HS_OFR_MAX_DATA;
    if (n < 1 || n > max)
        return hs_fail(ctx, HS_EINVAL, "hs_ofr_client_create: sizeCtrl disp = %d", n);
    if (sz.data_size == 0) {
        int64_t ds = 1 + hs_ofr_sizes_sum(sz.ctrl);
        if (hs_ofr_sizes_sum(sz.daq) > ds) ds = hs_ofr_sizes_sum(sz.daq);
        if (proto == HS_OFR_PROTO_A && (int64_t)n * n > ds) ds = (int64_t)n * n;
        sz.data_size = ds > max ? max : (int32_t)ds;
    }
    int rc = hs_ofr_sizes_check(ctx, &sz, n, max);
    if (rc) return rc;
    hs_ofr_client *c = hs_calloc(1, sizeof *c);
    if (!c) return hs_fail(ctx, HS_ENOMEM, "hs_ofr_client_create: out of memory");
    c->ctx = ctx;
    c->ops = proto == HS_OFR_PROTO_A   ? &ofa_client_ops
             : proto == HS_OFR_PROTO_B ? &ofb_client_ops
                                       : &ofr_adapter_client_ops;
    c->sizes = sz;
    c->n = n;
    c->ds = (size_t)sz.data_size;
    c->client_tag = cfg->client_tag;
    const size_t nb = c->ds * 8 > OFR_B_SETUP_BYTES ? c->ds * 8 : OFR_B_SETUP_BYTES;
    c->block = hs_calloc(1, 2 * c->ds * sizeof(double) + 2 * nb);
    if (!c->block) {
        hs_free(c);
        return hs_fail(ctx, HS_ENOMEM, "hs_ofr_client_create: out of memory");
    }
    c->msg = c->block;
    c->vals = c->msg + c->ds;
    c->bytes = (uint8_t *)(c->vals + c->ds);
    c->in = c->bytes + nb;
    c->state = HS_OFR_HANDSHAKE;
    c->code = -1;
    c->ops->start(c);
    *out = c;
    return 0;
}

void hs_ofr_client_destroy(hs_ofr_client **c)
{
    if (!c || !*c) return;
    hs_free((*c)->block);
    hs_free(*c);
    *c = NULL;
}

void ofr_client_queue(hs_ofr_client *c, size_t len)
{
    c->out = c->bytes;
    c->out_len = len;
}

void ofr_client_queue_msg(hs_ofr_client *c)
{
    for (size_t i = 0; i < c->ds; i++) ofr_put_f64(c->bytes + 8 * i, c->msg[i]);
    ofr_client_queue(c, c->ds * 8);
}

void ofr_client_expect(hs_ofr_client *c, size_t len)
{
    c->need = len;
    c->have = 0;
}

void ofr_client_take_values(hs_ofr_client *c, size_t count)
{
    for (size_t i = 0; i < count; i++) c->vals[i] = ofr_get_f64(c->in + 8 * i);
    c->nvals = count;
    c->has_reply = 1;
}

const uint8_t *hs_ofr_client_output(const hs_ofr_client *c, size_t *len)
{
    if (len) *len = c && c->out_len ? c->out_len : 0;
    return c && c->out_len ? c->out : NULL;
}

void hs_ofr_client_output_sent(hs_ofr_client *c)
{
    if (!c || !c->out_len) return;
    c->out_len = 0;
    c->ops->sent(c);
}

int hs_ofr_client_feed(hs_ofr_client *c, const uint8_t *in, size_t n, size_t *consumed)
{
    size_t used = 0;
    if (consumed) *consumed = 0;
    if (!c || (!in && n)) return hs_fail(c ? c->ctx : NULL, HS_EINVAL, "hs_ofr_client_feed");
    while (used < n) {
        if (c->need == 0 || c->state == HS_OFR_FAILED) {
            if (consumed) *consumed = used;
            return hs_fail(c->ctx, HS_EPROTO,
                           "OpenFresco client: %zu bytes arrived that no request asked for",
                           n - used);
        }
        size_t take = c->need - c->have;
        if (take > n - used) take = n - used;
        memcpy(c->in + c->have, in + used, take);
        c->have += take;
        used += take;
        if (c->have < c->need) break;
        c->need = c->have = 0;
        const int rc = c->ops->reply(c);
        if (rc) {
            c->state = HS_OFR_FAILED;
            if (consumed) *consumed = used;
            return rc;
        }
    }
    if (consumed) *consumed = used;
    return 0;
}

int hs_ofr_client_ready(const hs_ofr_client *c)
{
    return c && c->state == HS_OFR_RUNNING && c->out_len == 0 && c->need == 0;
}

int hs_ofr_client_set_trial(hs_ofr_client *c, const double *disp, const double *vel,
                            const double *accel, double time)
{
    if (!hs_ofr_client_ready(c) || !disp)
        return hs_fail(c ? c->ctx : NULL, HS_EINVAL,
                       "OpenFresco client: set_trial while not ready (or no displacement)");
    c->msg[0] = HS_OFR_SET_TRIAL;
    ofr_pack(c->sizes.ctrl, c->msg + 1, disp, vel, accel, NULL, time);
    c->time = time;
    c->code = HS_OFR_SET_TRIAL;
    c->has_reply = 0;
    ofr_client_queue_msg(c);
    return 0;
}

int hs_ofr_client_request(hs_ofr_client *c, int code)
{
    if (!hs_ofr_client_ready(c))
        return hs_fail(c ? c->ctx : NULL, HS_EINVAL, "OpenFresco client: request while not ready");
    if (!c->ops->allowed(c, code))
        return hs_fail(c->ctx, HS_EINVAL, "OpenFresco client: action code %d not in this protocol",
                       code);
    if (code >= HS_OFR_GET_INITIAL_STIFF && code <= HS_OFR_GET_MASS &&
        (size_t)c->n * (size_t)c->n > c->ds)
        return hs_fail(c->ctx, HS_EUNSUPPORTED,
                       "OpenFresco client: a %d x %d matrix does not fit in dataSize %zu", c->n,
                       c->n, c->ds);
    c->msg[0] = code;
    if (c->ops->prepare) c->ops->prepare(c, code);
    c->code = code;
    c->has_reply = 0;
    ofr_client_queue_msg(c);
    return 0;
}

const double *hs_ofr_client_reply(const hs_ofr_client *c, size_t *nvals)
{
    if (nvals) *nvals = c && c->has_reply ? c->nvals : 0;
    return c && c->has_reply ? c->vals : NULL;
}

hs_ofr_state hs_ofr_client_state(const hs_ofr_client *c)
{
    return c ? c->state : HS_OFR_FAILED;
}
const hs_ofr_sizes *hs_ofr_client_sizes(const hs_ofr_client *c)
{
    return &c->sizes;
}
int32_t hs_ofr_client_server_tag(const hs_ofr_client *c)
{
    return c ? c->server_tag : 0;
}
