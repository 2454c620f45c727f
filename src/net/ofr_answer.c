/* What an OpenFresco server session answers, through its backend: trials applied (finite values
 * only), commits, and replies packed from index 0 into dataSize doubles, zero padded. A failing
 * backend call is counted and answered with zeros: an OpenFresco client has no error channel and
 * waits for its reply forever. */
#include "ofr_impl.h"

#include <math.h>

static void backend_failed(hs_ofr_server *s, const char *what, int rc)
{
    s->stats.backend_errors++;
    hs_log(s->ctx, HS_LOG_WARN, "OpenFresco session: backend %s failed (%s); answered zeros", what,
           hs_strerror(rc));
}

void ofr_server_apply_trial(hs_ofr_server *s)
{
    const int32_t *c = s->sizes.ctrl;
    const size_t count = (size_t)hs_ofr_sizes_sum(c);
    for (size_t i = 1; i <= count; i++)
        if (!isfinite(ofr_server_msg(s, i))) {
            s->stats.bad_values++;
            hs_log(s->ctx, HS_LOG_WARN,
                   "OpenFresco session: trial slot %zu is not finite; trial not applied", i);
            return;
        }
    size_t k = 1;
    double *dst[3] = {s->trial_d, s->trial_v, s->trial_a};
    for (int g = 0; g < 3; g++)
        for (int32_t i = 0; i < c[g]; i++) dst[g][i] = ofr_server_msg(s, k++);
    k += (size_t)c[HS_OFR_FORCE];
    if (c[HS_OFR_TIME]) s->trial_t = ofr_server_msg(s, k);
    if (!s->be.set_trial) return;
    const int rc = s->be.set_trial(s->be.user, s->trial_d, c[HS_OFR_VEL] ? s->trial_v : NULL,
                                   c[HS_OFR_ACCEL] ? s->trial_a : NULL, s->trial_t);
    if (rc) backend_failed(s, "set_trial", rc);
}

void ofr_server_commit(hs_ofr_server *s, double time)
{
    if (!s->be.commit) return;
    const int rc = s->be.commit(s->be.user, time);
    if (rc) backend_failed(s, "commit", rc);
}

void ofr_server_close(hs_ofr_server *s)
{
    s->state = HS_OFR_CLOSED;
    if (s->be.close) s->be.close(s->be.user);
}

static void reply_ready(hs_ofr_server *s)
{
    const size_t ds = (size_t)s->sizes.data_size;
    for (size_t i = 0; i < ds; i++) ofr_put_f64(s->data_out + 8 * i, s->reply[i]);
    s->out = s->data_out;
    s->out_len = ds * 8;
    s->stats.replies++;
}

static void clear_reply(hs_ofr_server *s)
{
    memset(s->reply, 0, (size_t)s->sizes.data_size * sizeof(double));
}

/* n values of group g into out */
static void fill_group(hs_ofr_server *s, int g, double *out)
{
    const size_t n = (size_t)s->cfg.n;
    int rc = 0;
    switch (g) {
    case HS_OFR_DISP:
        if (s->be.get_disp) {
            rc = s->be.get_disp(s->be.user, out);
            if (rc) backend_failed(s, "get_disp", rc);
        } else {
            memcpy(out, s->trial_d, n * sizeof *out);
        }
        break;
    case HS_OFR_VEL:
        memcpy(out, s->trial_v, n * sizeof *out);
        break;
    case HS_OFR_ACCEL:
        memcpy(out, s->trial_a, n * sizeof *out);
        break;
    case HS_OFR_FORCE:
        if (s->be.get_force) {
            rc = s->be.get_force(s->be.user, out);
            if (rc) backend_failed(s, "get_force", rc);
        }
        break;
    default:
        out[0] = s->trial_t;
        break;
    }
    if (rc) memset(out, 0, n * sizeof *out);
}

void ofr_server_answer_group(hs_ofr_server *s, int group)
{
    clear_reply(s);
    fill_group(s, group, s->reply);
    reply_ready(s);
}

void ofr_server_answer_daq(hs_ofr_server *s)
{
    clear_reply(s);
    size_t k = 0;
    for (int g = 0; g < HS_OFR_NGROUPS; g++) {
        const int32_t m = s->sizes.daq[g];
        if (m == 0) continue;
        fill_group(s, g, s->reply + k);
        k += (size_t)m;
    }
    reply_ready(s);
}

void ofr_server_answer_matrix(hs_ofr_server *s, int code)
{
    clear_reply(s);
    const size_t n = (size_t)s->cfg.n;
    if (n * n > (size_t)s->sizes.data_size) {
        s->stats.short_replies++;
        hs_log(s->ctx, HS_LOG_WARN,
               "OpenFresco session: a %zu x %zu matrix does not fit in dataSize %d; answered "
               "zeros",
               n, n, (int)s->sizes.data_size);
    } else {
        int (*get)(void *, double *) =
            code == HS_OFR_GET_INITIAL_STIFF   ? s->be.get_initial_stiffness
            : code == HS_OFR_GET_TANGENT_STIFF ? s->be.get_tangent_stiffness
            : code == HS_OFR_GET_DAMP          ? s->be.get_damping
                                               : s->be.get_mass;
        if (get) {
            const int rc = get(s->be.user, s->reply);
            if (rc) {
                backend_failed(s, "matrix", rc);
                clear_reply(s);
            }
        }
    }
    reply_ready(s);
}

void ofr_server_answer_values(hs_ofr_server *s, const double *v, size_t n)
{
    clear_reply(s);
    memcpy(s->reply, v, n * sizeof *v);
    reply_ready(s);
}
