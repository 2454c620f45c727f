/* OpenFresco protocol B, client side (a hysim coordinator in the role of a ShadowSite): int32 1
 * and its echo, open [1, clientTag, 2.8] answered [0, serverTag, 2.8] (another version is
 * refused, as OpenFresco does), setup [2, dataSize] + sizeCtrl + sizeDaq, then 3 (trial), 5
 * (commit, time at slot 1 + nD + nV + nA + nF), 6 (daq, answered) and 99 (answered
 * [4, serverTag]). */
#include "ofr_impl.h"

enum { PHASE_BYTE_ORDER = 0, PHASE_OPEN, PHASE_SETUP };

static void start(hs_ofr_client *c)
{
    ofr_put_i32(c->bytes, 1);
    ofr_client_queue(c, 4);
}

static void sent(hs_ofr_client *c)
{
    if (c->state == HS_OFR_HANDSHAKE) {
        switch (c->phase) {
        case PHASE_BYTE_ORDER:
            ofr_client_expect(c, 4);
            break;
        case PHASE_OPEN:
            ofr_client_expect(c, OFR_B_MSG_BYTES);
            break;
        default:
            c->state = HS_OFR_RUNNING;
            break;
        }
        return;
    }
    if (c->code == HS_OFR_GET_DAQ || c->code == HS_OFR_DIE) ofr_client_expect(c, c->ds * 8);
}

static void queue_open(hs_ofr_client *c)
{
    memset(c->bytes, 0, OFR_B_MSG_BYTES);
    ofr_put_f64(c->bytes, HS_OFR_OPEN);
    ofr_put_f64(c->bytes + 8, (double)c->client_tag);
    ofr_put_f64(c->bytes + 16, HS_OFR_B_VERSION);
    ofr_client_queue(c, OFR_B_MSG_BYTES);
}

static void queue_setup(hs_ofr_client *c)
{
    memset(c->bytes, 0, OFR_B_MSG_BYTES);
    ofr_put_f64(c->bytes, HS_OFR_SETUP);
    ofr_put_f64(c->bytes + 8, (double)c->sizes.data_size);
    ofr_sizes_encode(c->bytes + OFR_B_MSG_BYTES, c->sizes.ctrl);
    ofr_sizes_encode(c->bytes + OFR_B_MSG_BYTES + 20, c->sizes.daq);
    ofr_client_queue(c, OFR_B_SETUP_BYTES);
}

static int reply(hs_ofr_client *c)
{
    if (c->state == HS_OFR_HANDSHAKE && c->phase == PHASE_BYTE_ORDER) {
        const int32_t v = ofr_get_i32(c->in);
        if (v != 1)
            return hs_fail(c->ctx, HS_EPROTO,
                           "OpenFresco protocol B: the server's byte-order word is %d, not 1",
                           (int)v);
        c->phase = PHASE_OPEN;
        queue_open(c);
        return 0;
    }
    if (c->state == HS_OFR_HANDSHAKE) {
        const double code = ofr_get_f64(c->in), tag = ofr_get_f64(c->in + 8),
                     version = ofr_get_f64(c->in + 16);
        if (code != 0.0 || version != HS_OFR_B_VERSION)
            return hs_fail(c->ctx, HS_EPROTO,
                           "OpenFresco protocol B: open answered [%.17g, %.17g, %.17g], expected "
                           "[0, serverTag, 2.8]",
                           code, tag, version);
        c->server_tag = (tag >= -2147483648.0 && tag <= 2147483647.0) ? (int32_t)tag : 0;
        c->phase = PHASE_SETUP;
        queue_setup(c);
        return 0;
    }
    if (c->code == HS_OFR_DIE) {
        const double code = ofr_get_f64(c->in), tag = ofr_get_f64(c->in + 8);
        if (code != 4.0 || tag != (double)c->server_tag)
            return hs_fail(c->ctx, HS_EPROTO,
                           "OpenFresco protocol B: close answered [%.17g, %.17g], expected "
                           "[4, %d]",
                           code, tag, (int)c->server_tag);
        ofr_client_take_values(c, 2);
        c->state = HS_OFR_CLOSED;
        return 0;
    }
    ofr_client_take_values(c, (size_t)hs_ofr_sizes_sum(c->sizes.daq));
    return 0;
}

static int allowed(const hs_ofr_client *c, int code)
{
    (void)c;
    return code == HS_OFR_COMMIT || code == HS_OFR_GET_DAQ || code == HS_OFR_DIE;
}

static void prepare(hs_ofr_client *c, int code)
{
    if (code != HS_OFR_COMMIT) return;
    const size_t slot = 1 + (size_t)(hs_ofr_sizes_sum(c->sizes.ctrl) - c->sizes.ctrl[HS_OFR_TIME]);
    if (slot < c->ds) c->msg[slot] = c->time;
}

const ofr_client_ops ofb_client_ops = {start, sent, reply, allowed, prepare};
