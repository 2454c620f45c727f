/* Internals shared by the OpenFresco sessions (src/net/ofr_*.c, ofa_*.c, ofb_*.c): little-endian
 * codecs, the server and client objects and their per-protocol ops. */
#ifndef HS_OFR_IMPL_H
#define HS_OFR_IMPL_H

#include "hysim/openfresco.h"

#include <string.h>

/* protocol B setup: 256 doubles then 10 int32 */
#define OFR_B_MSG_BYTES   ((size_t)HS_OFR_B_MSG_DOUBLES * 8u)
#define OFR_B_SETUP_BYTES (OFR_B_MSG_BYTES + 40u)

static inline void ofr_put_i32(uint8_t *p, int32_t v)
{
    const uint32_t u = (uint32_t)v;
    for (unsigned i = 0; i < 4; i++) p[i] = (uint8_t)(u >> (8u * i));
}

static inline int32_t ofr_get_i32(const uint8_t *p)
{
    uint32_t u = 0;
    for (unsigned i = 0; i < 4; i++) u |= (uint32_t)p[i] << (8u * i);
    int32_t v;
    memcpy(&v, &u, sizeof v);
    return v;
}

static inline void ofr_put_f64(uint8_t *p, double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    for (unsigned i = 0; i < 8; i++) p[i] = (uint8_t)(u >> (8u * i));
}

static inline double ofr_get_f64(const uint8_t *p)
{
    uint64_t u = 0;
    for (unsigned i = 0; i < 8; i++) u |= (uint64_t)p[i] << (8u * i);
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* The action code in a double: the integer it holds exactly (0..1000), -1 otherwise. */
int ofr_action(double v);
/* Packs disp|vel|accel|force|time over the non-zero groups of `sizes` into v (NULL arrays pack
 * zeros). Returns the number of values written. */
size_t ofr_pack(const int32_t sizes[HS_OFR_NGROUPS], double *v, const double *disp,
                const double *vel, const double *accel, const double *force, double time);
void ofr_sizes_decode(const uint8_t *p, int32_t v[HS_OFR_NGROUPS]);
void ofr_sizes_encode(uint8_t *p, const int32_t v[HS_OFR_NGROUPS]);

/* ---- servers ---- */
typedef struct ofr_server_ops {
    size_t first_need; /* bytes of the first message */
    /* A complete message of s->need bytes is in s->buf. Returns 0 or HS_EPROTO (refused). */
    int (*message)(hs_ofr_server *s);
} ofr_server_ops;

extern const ofr_server_ops ofa_server_ops, ofb_server_ops;

struct hs_ofr_server {
    hs_ctx *ctx;
    const ofr_server_ops *ops;
    hs_ofr_server_config cfg;
    hs_ofr_backend be;
    hs_ofr_state state;
    int phase; /* handshake step (protocol B) */
    hs_ofr_sizes sizes;
    int32_t client_tag;
    size_t need, have; /* bytes of the message being read, bytes held */
    uint8_t *buf;      /* where it is read: small or data */
    const uint8_t *out;
    size_t out_len;
    uint8_t small[OFR_B_SETUP_BYTES];
    uint8_t small_out[OFR_B_MSG_BYTES];
    /* from the accepted sizes on (one allocation) */
    void *block;
    uint8_t *data, *data_out; /* dataSize * 8 bytes each */
    double *reply;            /* dataSize */
    double *trial_d, *trial_v, *trial_a;
    double trial_t;
    hs_ofr_stats stats;
};

/* Accepts s->sizes (checked here) and allocates the running buffers: HS_EPROTO / HS_ENOMEM. */
int ofr_server_begin(hs_ofr_server *s);
double ofr_server_msg(const hs_ofr_server *s, size_t i); /* slot i of the current message */
void ofr_server_apply_trial(hs_ofr_server *s);
void ofr_server_commit(hs_ofr_server *s, double time);
void ofr_server_close(hs_ofr_server *s);
/* Replies (dataSize doubles, zero padded, from index 0) */
void ofr_server_answer_daq(hs_ofr_server *s);
void ofr_server_answer_group(hs_ofr_server *s, int group);
void ofr_server_answer_matrix(hs_ofr_server *s, int code);
void ofr_server_answer_values(hs_ofr_server *s, const double *v, size_t n);
/* Short replies of the handshake, from small_out */
void ofr_server_reply_small(hs_ofr_server *s, size_t len);

/* ---- clients ---- */
typedef struct ofr_client_ops {
    void (*start)(hs_ofr_client *c);
    /* the queued output was sent */
    void (*sent)(hs_ofr_client *c);
    /* a complete expected reply is in c->in: 0 or HS_EPROTO */
    int (*reply)(hs_ofr_client *c);
    int (*allowed)(const hs_ofr_client *c, int code);
    /* fills protocol-specific slots of an action-only message (NULL: none) */
    void (*prepare)(hs_ofr_client *c, int code);
} ofr_client_ops;

extern const ofr_client_ops ofa_client_ops, ofb_client_ops, ofr_adapter_client_ops;
/* Protocol A's first bytes: the 44-byte sizes (ofa_client.c, shared with the adapter's client) */
void ofa_client_start(hs_ofr_client *c);

struct hs_ofr_client {
    hs_ctx *ctx;
    const ofr_client_ops *ops;
    hs_ofr_sizes sizes;
    int n;
    size_t ds;
    int32_t client_tag, server_tag;
    hs_ofr_state state;
    int phase;
    int code;    /* code of the last queued message */
    double time; /* of the last trial */
    const uint8_t *out;
    size_t out_len;
    size_t need, have; /* reply bytes awaited, held */
    void *block;
    double *msg;    /* the reused request (ds) */
    uint8_t *bytes; /* encoded requests: max(ds * 8, setup) */
    uint8_t *in;    /* replies: max(ds * 8, 256 * 8) */
    double *vals;   /* decoded reply (ds) */
    size_t nvals;
    int has_reply;
};

/* Encodes c->msg (ds doubles) into c->bytes and queues it. */
void ofr_client_queue_msg(hs_ofr_client *c);
void ofr_client_queue(hs_ofr_client *c, size_t len); /* c->bytes[0..len) */
void ofr_client_expect(hs_ofr_client *c, size_t len);
/* Decodes the reply in c->in as `count` values (count <= ds) */
void ofr_client_take_values(hs_ofr_client *c, size_t count);

#endif
