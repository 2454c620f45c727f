/* OpenFresco protocol A, server side (a hysim site answering OpenSees' genericClient or an
 * OpenFresco expElement -server): the 11-int32 sizes message, then dataSize-double messages with
 * the action code in slot 0. 6-15 are answered; 1, 2, 3, 4, 5 and 99 never are; unknown codes are
 * counted and ignored. */
#include "ofr_impl.h"

static int sizes_message(hs_ofr_server *s)
{
    ofr_sizes_decode(s->buf, s->sizes.ctrl);
    ofr_sizes_decode(s->buf + 20, s->sizes.daq);
    s->sizes.data_size = ofr_get_i32(s->buf + 40);
    return ofr_server_begin(s);
}

static int action_message(hs_ofr_server *s)
{
    const int code = ofr_action(ofr_server_msg(s, 0));
    switch (code) {
    case HS_OFR_OPEN:
    case HS_OFR_SETUP:
    case HS_OFR_EXECUTE:
        break;
    case HS_OFR_SET_TRIAL:
        ofr_server_apply_trial(s);
        break;
    case HS_OFR_COMMIT:
        ofr_server_commit(s, s->trial_t);
        break;
    case HS_OFR_GET_DAQ:
        ofr_server_answer_daq(s);
        break;
    case HS_OFR_GET_DISP:
        ofr_server_answer_group(s, HS_OFR_DISP);
        break;
    case HS_OFR_GET_VEL:
        ofr_server_answer_group(s, HS_OFR_VEL);
        break;
    case HS_OFR_GET_ACCEL:
        ofr_server_answer_group(s, HS_OFR_ACCEL);
        break;
    case HS_OFR_GET_FORCE:
        ofr_server_answer_group(s, HS_OFR_FORCE);
        break;
    case HS_OFR_GET_TIME:
        ofr_server_answer_group(s, HS_OFR_TIME);
        break;
    case HS_OFR_GET_INITIAL_STIFF:
    case HS_OFR_GET_TANGENT_STIFF:
    case HS_OFR_GET_DAMP:
    case HS_OFR_GET_MASS:
        ofr_server_answer_matrix(s, code);
        break;
    case HS_OFR_DIE:
        ofr_server_close(s);
        break;
    default:
        s->stats.unknown_codes++;
        hs_log(s->ctx, HS_LOG_WARN, "OpenFresco session: unknown action code %.17g ignored",
               ofr_server_msg(s, 0));
        break;
    }
    return 0;
}

static int message(hs_ofr_server *s)
{
    return s->state == HS_OFR_HANDSHAKE ? sizes_message(s) : action_message(s);
}

const ofr_server_ops ofa_server_ops = {HS_OFR_SIZES_BYTES, message};
