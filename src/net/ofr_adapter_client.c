/* OpenSees' adapter element, client side (`opensees-adapter://`, docs/opensees_adapter.md):
 * protocol A's 44-byte sizes, then per step 3 (the trial displacement; no reply) and 10, which
 * OpenSees answers with its whole send vector, daqDisp then daqForce (sum(sizeDaq) values, zero
 * padded to dataSize), once it has started its next step; 99 at the end (no reply: OpenSees
 * exits). The adapter takes no other code (it would exit), so none other is allowed. */
#include "ofr_impl.h"

static void sent(hs_ofr_client *c)
{
    if (c->state == HS_OFR_HANDSHAKE) {
        c->state = HS_OFR_RUNNING;
        return;
    }
    if (c->code == HS_OFR_DIE) c->state = HS_OFR_CLOSED;
    if (c->code == HS_OFR_GET_FORCE) ofr_client_expect(c, c->ds * 8);
}

static int reply(hs_ofr_client *c)
{
    ofr_client_take_values(c, (size_t)hs_ofr_sizes_sum(c->sizes.daq));
    return 0;
}

static int allowed(const hs_ofr_client *c, int code)
{
    (void)c;
    return code == HS_OFR_GET_FORCE || code == HS_OFR_DIE;
}

const ofr_client_ops ofr_adapter_client_ops = {ofa_client_start, sent, reply, allowed, NULL};
