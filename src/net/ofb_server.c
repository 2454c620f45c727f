/* OpenFresco protocol B, server side (a hysim site standing in for an ActorSite): int32 1
 * byte-order check, open [1, clientTag, version] -> [0, serverTag, 2.8], setup [2, dataSize] +
 * 5 + 5 int32, then dataSize-double messages: 3 trial, 5 commit (time at slot
 * 1 + nD + nV + nA + nF), 6 daq (answered), 99 close (answered [4, serverTag]); other codes are
 * counted and ignored. */
#include "ofr_impl.h"

#include <math.h>

enum { PHASE_BYTE_ORDER = 0, PHASE_OPEN, PHASE_SETUP };

static int byte_order(hs_ofr_server *s)
{
    const int32_t v = ofr_get_i32(s->buf);
    if (v != 1)
        return hs_fail(s->ctx, HS_EPROTO,
                       "OpenFresco protocol B: byte-order word is %d, expected 1 "
                       "(little-endian peers only)",
                       (int)v);
    ofr_put_i32(s->small_out, 1);
    ofr_server_reply_small(s, 4);
    s->phase = PHASE_OPEN;
    s->need = OFR_B_MSG_BYTES;
    return 0;
}

static int open_message(hs_ofr_server *s)
{
    const double code = ofr_server_msg(s, 0), tag = ofr_server_msg(s, 1);
    if (ofr_action(code) != HS_OFR_OPEN)
        return hs_fail(s->ctx, HS_EPROTO,
                       "OpenFresco protocol B: expected open [1, ...], got %.17g", code);
    s->client_tag = (tag >= -2147483648.0 && tag <= 2147483647.0) ? (int32_t)tag : 0;
    memset(s->small_out, 0, OFR_B_MSG_BYTES);
    ofr_put_f64(s->small_out, 0.0);
    ofr_put_f64(s->small_out + 8, (double)s->cfg.server_tag);
    ofr_put_f64(s->small_out + 16, HS_OFR_B_VERSION);
    ofr_server_reply_small(s, OFR_B_MSG_BYTES);
    s->phase = PHASE_SETUP;
    s->need = OFR_B_SETUP_BYTES;
    return 0;
}

static int setup_message(hs_ofr_server *s)
{
    const double code = ofr_server_msg(s, 0), ds = ofr_server_msg(s, 1);
    if (ofr_action(code) != HS_OFR_SETUP)
        return hs_fail(s->ctx, HS_EPROTO,
                       "OpenFresco protocol B: expected setup [2, dataSize], got %.17g", code);
    if (!(ds >= 1.0 && ds <= 2147483647.0) || ds != floor(ds))
        return hs_fail(s->ctx, HS_EPROTO, "OpenFresco protocol B: setup dataSize %.17g", ds);
    ofr_sizes_decode(s->buf + OFR_B_MSG_BYTES, s->sizes.ctrl);
    ofr_sizes_decode(s->buf + OFR_B_MSG_BYTES + 20, s->sizes.daq);
    s->sizes.data_size = (int32_t)ds;
    return ofr_server_begin(s);
}

static int action_message(hs_ofr_server *s)
{
    const int code = ofr_action(ofr_server_msg(s, 0));
    switch (code) {
    case HS_OFR_SET_TRIAL:
        ofr_server_apply_trial(s);
        break;
    case HS_OFR_COMMIT: {
        const size_t slot =
            1 + (size_t)(hs_ofr_sizes_sum(s->sizes.ctrl) - s->sizes.ctrl[HS_OFR_TIME]);
        double t = s->trial_t;
        if (slot < (size_t)s->sizes.data_size && isfinite(ofr_server_msg(s, slot)))
            t = ofr_server_msg(s, slot);
        ofr_server_commit(s, t);
        break;
    }
    case HS_OFR_GET_DAQ:
        ofr_server_answer_daq(s);
        break;
    case HS_OFR_DIE: {
        const double bye[2] = {4.0, (double)s->cfg.server_tag};
        ofr_server_answer_values(s, bye, 2);
        ofr_server_close(s);
        break;
    }
    default:
        s->stats.unknown_codes++;
        hs_log(s->ctx, HS_LOG_WARN, "OpenFresco protocol B: action code %.17g ignored",
               ofr_server_msg(s, 0));
        break;
    }
    return 0;
}

static int message(hs_ofr_server *s)
{
    if (s->state == HS_OFR_RUNNING) return action_message(s);
    switch (s->phase) {
    case PHASE_BYTE_ORDER:
        return byte_order(s);
    case PHASE_OPEN:
        return open_message(s);
    default:
        return setup_message(s);
    }
}

const ofr_server_ops ofb_server_ops = {4, message};
