/* OpenFresco protocol A, client side (a hysim coordinator driving an OpenFresco SimApp server,
 * `openfresco-a://`): the 44-byte sizes first, then requests; 6-15 are answered (6: sum(sizeDaq)
 * values, 7-10: n, 11: one, 12-15: n x n column-major), 1-5 and 99 are not. */
#include "ofr_impl.h"

void ofa_client_start(hs_ofr_client *c)
{
    ofr_sizes_encode(c->bytes, c->sizes.ctrl);
    ofr_sizes_encode(c->bytes + 20, c->sizes.daq);
    ofr_put_i32(c->bytes + 40, c->sizes.data_size);
    ofr_client_queue(c, HS_OFR_SIZES_BYTES);
}

static int answered(int code)
{
    return code >= HS_OFR_GET_DAQ && code <= HS_OFR_GET_MASS;
}

static void sent(hs_ofr_client *c)
{
    if (c->state == HS_OFR_HANDSHAKE) {
        c->state = HS_OFR_RUNNING;
        return;
    }
    if (c->code == HS_OFR_DIE) c->state = HS_OFR_CLOSED;
    if (answered(c->code)) ofr_client_expect(c, c->ds * 8);
}

static int reply(hs_ofr_client *c)
{
    const size_t n = (size_t)c->n;
    size_t count = n;
    if (c->code == HS_OFR_GET_DAQ)
        count = (size_t)hs_ofr_sizes_sum(c->sizes.daq);
    else if (c->code == HS_OFR_GET_TIME)
        count = 1;
    else if (c->code >= HS_OFR_GET_INITIAL_STIFF)
        count = n * n;
    ofr_client_take_values(c, count);
    return 0;
}

static int allowed(const hs_ofr_client *c, int code)
{
    (void)c;
    return (code >= HS_OFR_OPEN && code <= HS_OFR_GET_MASS) || code == HS_OFR_DIE;
}

const ofr_client_ops ofa_client_ops = {ofa_client_start, sent, reply, allowed, NULL};
