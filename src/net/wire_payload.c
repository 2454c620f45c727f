/* Payloads of the native protocol's messages, one layout per type (docs/protocol.md): encoded
 * from and decoded into hs_wire_msg, every count, size, value and text checked. */
#include "wire_bytes.h"
#include "wire_impl.h"

#include <math.h>

/* ---- encoding ---- */

static int enc_fail(hs_wire_status *st, const hs_wire_msg *m, const char *what)
{
    const char *name = hs_wire_type_name((int)m->type);
    hs_wire_status_set(st, HS_WIRE_FAULT_PAYLOAD, "wire: cannot encode %s: %s",
                       name ? name : "a message of unknown type", what);
    return HS_EINVAL;
}

static int finite_all(const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i])) return 0;
    return 1;
}

/* HOLD_ACK: a state the generator has (HS_WIRE_MAX_STATES), finite non-negative times */
static int hold_ok(const hs_wire_hold *h)
{
    return h->state >= 0 && h->state < HS_WIRE_MAX_STATES && isfinite(h->hold_timeout) &&
           h->hold_timeout >= 0.0 && isfinite(h->left) && h->left >= 0.0;
}

static int name_ok(const char *s, size_t max)
{
    const size_t n = strnlen(s, max);
    return n < max && hs_wire_utf8_valid((const uint8_t *)s, n);
}

static void put_text(hs_wbuf *w, const char *s, int wide)
{
    const size_t n = strlen(s);
    if (wide) {
        uint8_t *q = hs_wbuf_take(w, 2);
        if (q) hs_le_put_u16(q, (uint16_t)n);
    } else {
        hs_wbuf_u8(w, (uint8_t)n);
    }
    hs_wbuf_bytes(w, s, n);
}

/* n values: one bounds check for all of them when they fit (the frame's hot path) */
static void put_f64s(hs_wbuf *w, const double *v, size_t n)
{
    uint8_t *q = hs_wbuf_take(w, 8 * n);
    if (q)
        for (size_t i = 0; i < n; i++) hs_le_put_f64(q + 8 * i, v[i]);
}

static int enc_hello(const hs_wire_msg *m, hs_wbuf *w, hs_wire_status *st)
{
    const hs_wire_hello *h = &m->hello;
    if (h->nact < 1 || h->nact > HS_WIRE_MAX_ACT)
        return enc_fail(st, m, "actuator count out of 1..16");
    if (h->version_min > h->version_max || h->version_min < 1)
        return enc_fail(st, m, "version range");
    if (!isfinite(h->rate) || h->rate < 0 || !isfinite(h->time_scale) || !(h->time_scale > 0) ||
        !isfinite(h->dt) || !(h->dt > 0))
        return enc_fail(st, m, "rate, time scale or dt not finite and positive");
    for (int j = 0; j < h->nact; j++) {
        const hs_wire_act_limits *l = &h->limits[j];
        const double v[3] = {l->displacement, l->velocity, l->force};
        if (!finite_all(v, 3) || v[0] < 0 || v[1] < 0 || v[2] < 0)
            return enc_fail(st, m, "limits must be finite and >= 0");
    }
    if (!name_ok(h->coordinator, HS_WIRE_NAME_MAX) || !name_ok(h->site, HS_WIRE_NAME_MAX))
        return enc_fail(st, m, "names must be UTF-8 of at most 63 bytes");
    hs_wbuf_u8(w, h->version_min);
    hs_wbuf_u8(w, h->version_max);
    hs_wbuf_u32(w, h->caps);
    hs_wbuf_u8(w, (uint8_t)h->nact);
    hs_wbuf_f64(w, h->rate);
    hs_wbuf_f64(w, h->time_scale);
    hs_wbuf_f64(w, h->dt);
    for (int j = 0; j < h->nact; j++) {
        hs_wbuf_f64(w, h->limits[j].displacement);
        hs_wbuf_f64(w, h->limits[j].velocity);
        hs_wbuf_f64(w, h->limits[j].force);
    }
    put_text(w, h->coordinator, 0);
    put_text(w, h->site, 0);
    return 0;
}

static int enc_meas(const hs_wire_msg *m, hs_wbuf *w, hs_wire_status *st)
{
    const hs_wire_measurement *s = &m->meas;
    if (s->nact < 1 || s->nact > HS_WIRE_MAX_ACT)
        return enc_fail(st, m, "actuator count out of 1..16");
    if (s->nhist < 0 || s->nhist > HS_WIRE_MAX_HISTORY)
        return enc_fail(st, m, "history count out of 0..8");
    if (s->nstates < 0 || s->nstates > HS_WIRE_MAX_STATES)
        return enc_fail(st, m, "state count out of 0..8");
    const size_t n = (size_t)s->nact, nh = (size_t)s->nhist, nx = n * nh;
    const double times[3] = {s->t, s->t_received, s->t_reached};
    if (!finite_all(times, 3) || !finite_all(s->x, n) || !finite_all(s->f, n) ||
        !finite_all(s->mte, n) || !finite_all(s->rms, n) || !finite_all(s->ti_peak, n) ||
        !finite_all(s->hist_t, nh) || !finite_all(s->hist_x, nx) || !finite_all(s->hist_f, nx) ||
        (s->stats && (!finite_all(s->ti, n) || !finite_all(s->a_es, n))))
        return enc_fail(st, m, "non-finite value");
    if (s->stats && (s->stats_flags & ~(uint32_t)HS_WIRE_MEAS_RESUMED))
        return enc_fail(st, m, "unknown step statistics flags");
    if (s->ticks < 0 || s->delay_ticks < 0) return enc_fail(st, m, "negative tick count");
    for (int k = 0; k < s->nstates; k++)
        if (s->state_ticks[k] < 0) return enc_fail(st, m, "negative tick count");
    hs_wbuf_f64(w, s->t);
    hs_wbuf_f64(w, s->t_received);
    hs_wbuf_f64(w, s->t_reached);
    hs_wbuf_u8(w, (uint8_t)s->nact);
    hs_wbuf_u8(w, (uint8_t)s->nhist);
    hs_wbuf_u8(w, (uint8_t)s->nstates);
    hs_wbuf_u32(w, s->flags);
    hs_wbuf_u32(w, s->states);
    hs_wbuf_i64(w, s->ticks);
    hs_wbuf_i64(w, s->delay_ticks);
    for (int k = 0; k < s->nstates; k++) hs_wbuf_i64(w, s->state_ticks[k]);
    put_f64s(w, s->x, n);
    put_f64s(w, s->f, n);
    put_f64s(w, s->mte, n);
    put_f64s(w, s->rms, n);
    put_f64s(w, s->ti_peak, n);
    put_f64s(w, s->hist_t, nh);
    put_f64s(w, s->hist_x, nx);
    put_f64s(w, s->hist_f, nx);
    if (s->stats) {
        hs_wbuf_u32(w, s->stats_flags);
        put_f64s(w, s->ti, n);
        put_f64s(w, s->a_es, n);
    }
    return 0;
}

static int enc_body(const hs_wire_msg *m, hs_wbuf *w, hs_wire_status *st)
{
    switch (m->type) {
    case HS_WIRE_AUTH_INIT:
        hs_wbuf_u8(w, m->auth.mode);
        hs_wbuf_bytes(w, m->auth.nonce, HS_WIRE_NONCE_SIZE);
        return 0;
    case HS_WIRE_AUTH_CHALLENGE:
        hs_wbuf_u8(w, m->auth.mode);
        hs_wbuf_bytes(w, m->auth.nonce, HS_WIRE_NONCE_SIZE);
        hs_wbuf_bytes(w, m->auth.proof, HS_WIRE_PROOF_SIZE);
        return 0;
    case HS_WIRE_AUTH_PROOF:
        hs_wbuf_bytes(w, m->auth.proof, HS_WIRE_PROOF_SIZE);
        return 0;
    case HS_WIRE_AUTH_OK:
    case HS_WIRE_COMMIT:
    case HS_WIRE_BYE:
        return 0;
    case HS_WIRE_HELLO:
    case HS_WIRE_HELLO_ACK:
        return enc_hello(m, w, st);
    case HS_WIRE_TARGET:
        if (m->target.nact < 1 || m->target.nact > HS_WIRE_MAX_ACT)
            return enc_fail(st, m, "actuator count out of 1..16");
        if (!isfinite(m->target.t) || !finite_all(m->target.x, (size_t)m->target.nact))
            return enc_fail(st, m, "non-finite value");
        hs_wbuf_f64(w, m->target.t);
        hs_wbuf_u8(w, (uint8_t)m->target.nact);
        put_f64s(w, m->target.x, (size_t)m->target.nact);
        return 0;
    case HS_WIRE_MEASUREMENT:
        return enc_meas(m, w, st);
    case HS_WIRE_HEARTBEAT:
        hs_wbuf_u64(w, m->heartbeat.sent_ns);
        hs_wbuf_u64(w, m->heartbeat.echo_ns);
        return 0;
    case HS_WIRE_ERROR:
        if (!name_ok(m->error.text, HS_WIRE_TEXT_MAX))
            return enc_fail(st, m, "the sentence must be UTF-8 of at most 255 bytes");
        hs_wbuf_u32(w, (uint32_t)m->error.code);
        put_text(w, m->error.text, 1);
        return 0;
    case HS_WIRE_RESUME:
    case HS_WIRE_HOLD:
        return 0;
    case HS_WIRE_HOLD_ACK:
        if (!hold_ok(&m->hold))
            return enc_fail(st, m, "state out of 0..7, or times negative or not finite");
        hs_wbuf_u8(w, (uint8_t)m->hold.state);
        hs_wbuf_f64(w, m->hold.hold_timeout);
        hs_wbuf_f64(w, m->hold.left);
        return 0;
    case HS_WIRE_RESUME_ACK:
        if (m->resume.nact < 1 || m->resume.nact > HS_WIRE_MAX_ACT)
            return enc_fail(st, m, "actuator count out of 1..16");
        if (!finite_all(m->resume.x, (size_t)m->resume.nact))
            return enc_fail(st, m, "non-finite value");
        hs_wbuf_u8(w, (uint8_t)m->resume.nact);
        put_f64s(w, m->resume.x, (size_t)m->resume.nact);
        return 0;
    }
    hs_wire_status_set(st, HS_WIRE_FAULT_TYPE, "wire: cannot encode unknown message type %d",
                       (int)m->type);
    return HS_EINVAL;
}

int hs_wire_payload_encode(const hs_wire_msg *msg, uint8_t *out, size_t cap, size_t *len,
                           hs_wire_status *st)
{
    if (!msg || !len || (!out && cap)) {
        hs_wire_status_set(st, HS_WIRE_FAULT_PAYLOAD, "wire: nothing to encode");
        return HS_EINVAL;
    }
    hs_wbuf w = {.p = out, .cap = cap};
    const int rc = enc_body(msg, &w, st);
    if (rc) return rc;
    if (w.overflow) {
        hs_wire_status_set(st, HS_WIRE_FAULT_SPACE,
                           "wire: %s needs %zu payload bytes, the buffer holds %zu",
                           hs_wire_type_name((int)msg->type), w.pos, cap);
        return HS_EINVAL;
    }
    *len = w.pos;
    hs_wire_status_ok(st);
    return 0;
}

/* ---- decoding ---- */

static int bad(hs_wire_status *st, int type, size_t len, const char *what)
{
    hs_wire_status_set(st, HS_WIRE_FAULT_PAYLOAD, "wire: %s payload (%zu bytes): %s",
                       hs_wire_type_name(type), len, what);
    return HS_EPROTO;
}

static int get_f64s(hs_rbuf *r, double *v, size_t n)
{
    int ok = 1;
    const uint8_t *q = n <= (r->len - r->pos) / 8 ? hs_rbuf_take(r, 8 * n) : NULL;
    for (size_t i = 0; i < n; i++) {
        /* all n in one take when they fit; else one by one up to the end (zeros past it) */
        v[i] = q ? hs_le_get_f64(q + 8 * i) : hs_rbuf_f64(r);
        if (!isfinite(v[i])) ok = 0;
    }
    return ok;
}

/* A length-prefixed text into dst[max] (NUL-terminated): 0 when too long or not UTF-8. */
static int get_text(hs_rbuf *r, char *dst, size_t max, int wide)
{
    size_t n;
    if (wide) {
        const uint8_t *q = hs_rbuf_take(r, 2);
        n = q ? hs_le_get_u16(q) : 0;
    } else {
        n = hs_rbuf_u8(r);
    }
    if (n >= max) return 0;
    const uint8_t *q = hs_rbuf_take(r, n);
    if (!q) return 0;
    if (!hs_wire_utf8_valid(q, n)) return 0;
    memcpy(dst, q, n);
    dst[n] = '\0';
    return 1;
}

static int dec_hello(hs_rbuf *r, hs_wire_hello *h, int type, hs_wire_status *st)
{
    h->version_min = hs_rbuf_u8(r);
    h->version_max = hs_rbuf_u8(r);
    h->caps = hs_rbuf_u32(r);
    h->nact = hs_rbuf_u8(r);
    if (r->underflow) return bad(st, type, r->len, "too short");
    if (h->version_min < 1 || h->version_min > h->version_max)
        return bad(st, type, r->len, "version range empty");
    if (type == HS_WIRE_HELLO_ACK && h->version_min != h->version_max)
        return bad(st, type, r->len, "the answer must name one version");
    if (h->nact < 1 || h->nact > HS_WIRE_MAX_ACT)
        return bad(st, type, r->len, "actuator count out of 1..16");
    h->rate = hs_rbuf_f64(r);
    h->time_scale = hs_rbuf_f64(r);
    h->dt = hs_rbuf_f64(r);
    if (!isfinite(h->rate) || h->rate < 0 || !isfinite(h->time_scale) || !(h->time_scale > 0) ||
        !isfinite(h->dt) || !(h->dt > 0))
        return bad(st, type, r->len, "rate, time scale or dt not finite and positive");
    if (type == HS_WIRE_HELLO_ACK && !(h->rate > 0))
        return bad(st, type, r->len, "the site's controller rate must be positive");
    for (int j = 0; j < h->nact; j++) {
        double v[3];
        const int ok = get_f64s(r, v, 3);
        if (!ok || v[0] < 0 || v[1] < 0 || v[2] < 0)
            return bad(st, type, r->len, "limits must be finite and >= 0");
        h->limits[j] = (hs_wire_act_limits){v[0], v[1], v[2]};
    }
    if (!get_text(r, h->coordinator, HS_WIRE_NAME_MAX, 0) ||
        !get_text(r, h->site, HS_WIRE_NAME_MAX, 0))
        return bad(st, type, r->len, "names must be UTF-8 of at most 63 bytes");
    return 0;
}

static int dec_meas(hs_rbuf *r, hs_wire_measurement *s, hs_wire_status *st)
{
    const int type = HS_WIRE_MEASUREMENT;
    double times[3];
    const int tok = get_f64s(r, times, 3);
    s->t = times[0];
    s->t_received = times[1];
    s->t_reached = times[2];
    s->nact = hs_rbuf_u8(r);
    s->nhist = hs_rbuf_u8(r);
    s->nstates = hs_rbuf_u8(r);
    s->flags = hs_rbuf_u32(r);
    s->states = hs_rbuf_u32(r);
    s->ticks = hs_rbuf_i64(r);
    s->delay_ticks = hs_rbuf_i64(r);
    if (r->underflow) return bad(st, type, r->len, "too short");
    if (!tok) return bad(st, type, r->len, "non-finite time");
    if (s->nact < 1 || s->nact > HS_WIRE_MAX_ACT)
        return bad(st, type, r->len, "actuator count out of 1..16");
    if (s->nhist > HS_WIRE_MAX_HISTORY) return bad(st, type, r->len, "history count above 8");
    if (s->nstates > HS_WIRE_MAX_STATES) return bad(st, type, r->len, "state count above 8");
    if (s->ticks < 0 || s->delay_ticks < 0) return bad(st, type, r->len, "negative tick count");
    /* the exact size follows from the counts: check it before reading the arrays */
    const size_t n = (size_t)s->nact, nh = (size_t)s->nhist, nx = n * nh;
    const size_t expect = r->pos + 8 * ((size_t)s->nstates + 5 * n + nh + 2 * nx);
    /* the step's statistics (HS_WIRE_CAP_STEP_STATS) follow when the length says so */
    s->stats = r->len == expect + 4 + 16 * n;
    if (r->len != expect && !s->stats)
        return bad(st, type, r->len, "size does not match the counts");
    for (int k = 0; k < s->nstates; k++) {
        s->state_ticks[k] = hs_rbuf_i64(r);
        if (s->state_ticks[k] < 0) return bad(st, type, r->len, "negative tick count");
    }
    const int ok = get_f64s(r, s->x, n) & get_f64s(r, s->f, n) & get_f64s(r, s->mte, n) &
                   get_f64s(r, s->rms, n) & get_f64s(r, s->ti_peak, n) &
                   get_f64s(r, s->hist_t, nh) & get_f64s(r, s->hist_x, nx) &
                   get_f64s(r, s->hist_f, nx);
    if (!ok) return bad(st, type, r->len, "non-finite value");
    if (!s->stats) return 0;
    s->stats_flags = hs_rbuf_u32(r);
    if (s->stats_flags & ~(uint32_t)HS_WIRE_MEAS_RESUMED)
        return bad(st, type, r->len, "unknown step statistics flags");
    if (!(get_f64s(r, s->ti, n) & get_f64s(r, s->a_es, n)))
        return bad(st, type, r->len, "non-finite value");
    return 0;
}

static int dec_body(int type, hs_rbuf *r, hs_wire_msg *m, hs_wire_status *st)
{
    switch (type) {
    case HS_WIRE_AUTH_INIT:
        m->auth.mode = hs_rbuf_u8(r);
        hs_rbuf_bytes(r, m->auth.nonce, HS_WIRE_NONCE_SIZE);
        return 0;
    case HS_WIRE_AUTH_CHALLENGE:
        m->auth.mode = hs_rbuf_u8(r);
        hs_rbuf_bytes(r, m->auth.nonce, HS_WIRE_NONCE_SIZE);
        hs_rbuf_bytes(r, m->auth.proof, HS_WIRE_PROOF_SIZE);
        return 0;
    case HS_WIRE_AUTH_PROOF:
        hs_rbuf_bytes(r, m->auth.proof, HS_WIRE_PROOF_SIZE);
        return 0;
    case HS_WIRE_AUTH_OK:
    case HS_WIRE_COMMIT:
    case HS_WIRE_BYE:
    case HS_WIRE_RESUME:
    case HS_WIRE_HOLD:
        return 0;
    case HS_WIRE_HOLD_ACK:
        m->hold.state = hs_rbuf_u8(r);
        m->hold.hold_timeout = hs_rbuf_f64(r);
        m->hold.left = hs_rbuf_f64(r);
        if (r->underflow) return bad(st, type, r->len, "too short");
        if (!hold_ok(&m->hold))
            return bad(st, type, r->len, "state out of 0..7, or times negative or not finite");
        return 0;
    case HS_WIRE_HELLO:
    case HS_WIRE_HELLO_ACK:
        return dec_hello(r, &m->hello, type, st);
    case HS_WIRE_TARGET:
        m->target.t = hs_rbuf_f64(r);
        m->target.nact = hs_rbuf_u8(r);
        if (r->underflow) return bad(st, type, r->len, "too short");
        if (m->target.nact < 1 || m->target.nact > HS_WIRE_MAX_ACT)
            return bad(st, type, r->len, "actuator count out of 1..16");
        if (!isfinite(m->target.t) | !get_f64s(r, m->target.x, (size_t)m->target.nact))
            return bad(st, type, r->len, "non-finite value");
        return 0;
    case HS_WIRE_MEASUREMENT:
        return dec_meas(r, &m->meas, st);
    case HS_WIRE_HEARTBEAT:
        m->heartbeat.sent_ns = hs_rbuf_u64(r);
        m->heartbeat.echo_ns = hs_rbuf_u64(r);
        return 0;
    case HS_WIRE_ERROR: {
        const uint32_t u = hs_rbuf_u32(r);
        m->error.code = u <= (uint32_t)INT32_MAX ? (int32_t)u : -(int32_t)(~u) - 1;
    }
        if (!get_text(r, m->error.text, HS_WIRE_TEXT_MAX, 1))
            return bad(st, type, r->len, "the sentence must be UTF-8 of at most 255 bytes");
        return 0;
    case HS_WIRE_RESUME_ACK:
        m->resume.nact = hs_rbuf_u8(r);
        if (r->underflow) return bad(st, type, r->len, "too short");
        if (m->resume.nact < 1 || m->resume.nact > HS_WIRE_MAX_ACT)
            return bad(st, type, r->len, "actuator count out of 1..16");
        if (!get_f64s(r, m->resume.x, (size_t)m->resume.nact))
            return bad(st, type, r->len, "non-finite value");
        return 0;
    }
    hs_wire_status_set(st, HS_WIRE_FAULT_TYPE, "wire: unknown message type %d", type);
    return HS_EPROTO;
}

int hs_wire_payload_decode(int type, const uint8_t *buf, size_t len, hs_wire_msg *msg,
                           hs_wire_status *st)
{
    if (!msg || (!buf && len)) {
        hs_wire_status_set(st, HS_WIRE_FAULT_PAYLOAD, "wire: nothing to decode");
        return HS_EINVAL;
    }
    if (!hs_wire_type_name(type)) {
        hs_wire_status_set(st, HS_WIRE_FAULT_TYPE, "wire: unknown message type %d", type);
        return HS_EPROTO;
    }
    const int64_t step = msg->step;
    const uint64_t seq = msg->seq;
    memset(msg, 0, sizeof *msg);
    msg->type = (hs_wire_type)type;
    msg->step = step;
    msg->seq = seq;
    hs_rbuf r = {.p = buf, .len = len};
    const int rc = dec_body(type, &r, msg, st);
    if (rc) return rc;
    if (r.underflow) return bad(st, type, len, "too short");
    if (r.pos != len) return bad(st, type, len, "bytes left over after the payload");
    hs_wire_status_ok(st);
    return 0;
}
