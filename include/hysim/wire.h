/* hysim native wire protocol: framed, versioned, little-endian messages between a coordinator and
 * its sites (docs/protocol.md). Pure code: encoding into and decoding from caller buffers, no
 * allocation, no I/O. The secure channel (hysim/secure.h) seals these frames and moves them.
 *
 * A frame is a 28-byte header followed by `length` body bytes:
 *
 *   offset size field
 *        0    4 magic "HSIM" (48 53 49 4D)
 *        4    1 version (HS_WIRE_VERSION)
 *        5    1 type (hs_wire_type)
 *        6    2 flags (u16; HS_WIRE_FLAG_SEALED; other bits must be 0)
 *        8    4 length of the body (u32), bounded by the receiver's maximum
 *       12    8 sequence number (u64, per direction, 0, 1, 2, ...)
 *       20    8 step number (i64, >= 0)
 *
 * The body is the payload, or (sealed) the AEAD ciphertext of the payload and its 16-byte tag.
 * Integers are little-endian, doubles are IEEE-754 binary64 little-endian whatever the host.
 * Decoding validates everything (counts, lengths, finiteness, UTF-8) and names the fault. */
#ifndef HYSIM_WIRE_H
#define HYSIM_WIRE_H

#include "hysim/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HS_WIRE_MAGIC       "HSIM"
#define HS_WIRE_VERSION     1
#define HS_WIRE_HEADER_SIZE 28
#define HS_WIRE_TAG_SIZE    16  /* AEAD tag at the end of a sealed body */
#define HS_WIRE_NONCE_SIZE  32  /* handshake nonces */
#define HS_WIRE_PROOF_SIZE  32  /* handshake proofs */
#define HS_WIRE_MAX_ACT     16  /* actuators per site (HS_SITE_MAX_ACT) */
#define HS_WIRE_MAX_HISTORY 8   /* history samples per actuator (HS_EXP_HISTORY) */
#define HS_WIRE_MAX_STATES  8   /* command generator states counted per step */
#define HS_WIRE_NAME_MAX    64  /* names: up to 63 bytes of UTF-8 and a NUL */
#define HS_WIRE_TEXT_MAX    256 /* error sentences: up to 255 bytes of UTF-8 and a NUL */
/* The largest payload any message of this version can have (a MEASUREMENT with 16 actuators and
 * 8 history samples is 2,867 bytes), and the default bound on the header's length field. */
#define HS_WIRE_MAX_PAYLOAD 4096
#define HS_WIRE_MAX_LENGTH  (HS_WIRE_MAX_PAYLOAD + HS_WIRE_TAG_SIZE)

/* Header flags */
#define HS_WIRE_FLAG_SEALED 0x0001u /* body = AEAD ciphertext || tag */

/* Capabilities (HELLO / HELLO_ACK, negotiated as the intersection) */
#define HS_WIRE_CAP_RESUME   0x0001u /* RESUME / RESUME_ACK after a reconnect */
#define HS_WIRE_CAP_HISTORY  0x0002u /* measurements carry the last samples */
#define HS_WIRE_CAP_TRACKING 0x0004u /* measurements carry MTE, RMS, TI */
#define HS_WIRE_CAP_FREE_VIBRATION                                                                 \
    0x0008u                            /* the site unloads on its own (Mosqueda et al. 2004)       \
                                        */
#define HS_WIRE_CAP_STEP_STATS 0x0010u /* measurements carry the step's TI and a_es */
/* HOLD / HOLD_ACK: while its operator pauses, the coordinator keeps the site's hold alive (the
 * site restarts its hold_timeout) and learns how long the hold would last without it */
#define HS_WIRE_CAP_HOLD 0x0020u
#define HS_WIRE_CAP_ALL  0x003Fu
/* hs_wire_measurement.stats_flags */
#define HS_WIRE_MEAS_RESUMED 0x1u /* the first new step after a RESUME: its delay is the outage */

typedef enum hs_wire_type {
    /* handshake (the secure channel's own frames) */
    HS_WIRE_AUTH_INIT = 1,      /* coordinator -> site: mode, nonce */
    HS_WIRE_AUTH_CHALLENGE = 2, /* site -> coordinator: mode, nonce, proof */
    HS_WIRE_AUTH_PROOF = 3,     /* coordinator -> site: proof */
    HS_WIRE_AUTH_OK = 4,        /* site -> coordinator: empty, sealed with the session key */
    /* the test */
    HS_WIRE_HELLO = 16,       /* coordinator -> site: what the test needs */
    HS_WIRE_HELLO_ACK = 17,   /* site -> coordinator: what the site agrees to */
    HS_WIRE_TARGET = 18,      /* coordinator -> site: one target per step */
    HS_WIRE_MEASUREMENT = 19, /* site -> coordinator: the step's measurement */
    HS_WIRE_COMMIT = 20,      /* coordinator -> site: the step is committed */
    HS_WIRE_HEARTBEAT = 21,   /* both ways */
    HS_WIRE_ERROR = 22,       /* both ways: code and sentence */
    HS_WIRE_BYE = 23,         /* both ways: orderly end */
    HS_WIRE_RESUME = 24,      /* coordinator -> site: where are you? */
    HS_WIRE_RESUME_ACK = 25,  /* site -> coordinator: last committed step, held displacement */
    HS_WIRE_HOLD = 26,        /* coordinator -> site: the operator pauses; keep the hold alive */
    HS_WIRE_HOLD_ACK = 27     /* site -> coordinator: its state and the hold's time left */
} hs_wire_type;

/* Name of a type ("TARGET"), or NULL for an unknown value. */
const char *hs_wire_type_name(int type);

/* Why a frame was refused. */
typedef enum hs_wire_fault {
    HS_WIRE_FAULT_NONE = 0,
    HS_WIRE_FAULT_TRUNCATED, /* fewer bytes than the header or its length announce */
    HS_WIRE_FAULT_MAGIC,     /* not "HSIM" */
    HS_WIRE_FAULT_VERSION,   /* a version this end does not speak */
    HS_WIRE_FAULT_OVERSIZE,  /* length above the configured maximum */
    HS_WIRE_FAULT_TYPE,      /* unknown message type */
    HS_WIRE_FAULT_FLAGS,     /* unknown flag bits, or sealed/plain not as the channel expects */
    HS_WIRE_FAULT_PAYLOAD,   /* payload does not match its type (sizes, counts, values, UTF-8) */
    HS_WIRE_FAULT_SPACE,     /* encoding: the caller's buffer is too small */
    HS_WIRE_FAULT_AUTH,      /* secure channel: the tag does not verify */
    HS_WIRE_FAULT_SEQUENCE   /* secure channel: not the next sequence number (replay, reorder) */
} hs_wire_fault;

/* A fault and the sentence that explains it ("frame type 18 (TARGET), sequence 4: ..."). */
typedef struct hs_wire_status {
    hs_wire_fault fault;
    char text[224];
} hs_wire_status;

const char *hs_wire_fault_name(hs_wire_fault f); /* "truncated", "bad magic", ... */

typedef struct hs_wire_header {
    uint8_t version, type;
    uint16_t flags;
    uint32_t length; /* body bytes after the header */
    uint64_t seq;
    int64_t step;
} hs_wire_header;

/* ---- payloads ---- */

typedef struct hs_wire_auth {
    uint8_t mode; /* HS_SECURE_PSK or HS_SECURE_PLAIN (hysim/secure.h) */
    uint8_t nonce[HS_WIRE_NONCE_SIZE];
    uint8_t proof[HS_WIRE_PROOF_SIZE];
} hs_wire_auth;

typedef struct hs_wire_act_limits {
    double displacement, velocity, force; /* magnitudes; 0 = not stated */
} hs_wire_act_limits;

/* HELLO: what the coordinator's test needs; HELLO_ACK: what the site agrees to. */
typedef struct hs_wire_hello {
    uint8_t version_min, version_max; /* HELLO: versions spoken; ACK: both the chosen one */
    uint32_t caps;                    /* HS_WIRE_CAP_* */
    int nact;                         /* 1 .. HS_WIRE_MAX_ACT */
    double rate;       /* controller ticks per s: HELLO the least needed (0 any), ACK the site's */
    double time_scale; /* wall s per simulated s (> 0) */
    double dt;         /* integration step, simulated s (> 0) */
    hs_wire_act_limits limits[HS_WIRE_MAX_ACT]; /* HELLO: peaks the test may need; ACK: site's */
    char coordinator[HS_WIRE_NAME_MAX], site[HS_WIRE_NAME_MAX]; /* HELLO: site may be "" */
} hs_wire_hello;

/* TARGET (the header's step is the step) */
typedef struct hs_wire_target {
    double t; /* simulation time of the target */
    int nact;
    double x[HS_WIRE_MAX_ACT];
} hs_wire_target;

/* MEASUREMENT (the header's step is the step): what hs_site_measurement holds, plus the command
 * generator's step record and the tracking figures. */
typedef struct hs_wire_measurement {
    double t;          /* simulation time at which the target was reached */
    double t_received; /* site clock (s) when the target arrived (D_update) */
    double t_reached;  /* site clock (s) when the command reached it (D_target) */
    int nact;
    int nhist;           /* samples in the history, oldest first (0 .. HS_WIRE_MAX_HISTORY) */
    int nstates;         /* entries in state_ticks (0 .. HS_WIRE_MAX_STATES) */
    uint32_t flags;      /* HS_ACT_LIMIT_* seen during the step */
    uint32_t states;     /* HS_CMDGEN_BIT of every state visited in the step */
    int64_t ticks;       /* controller ticks the step took */
    int64_t delay_ticks; /* ticks from the step's start to its D_update */
    int64_t state_ticks[HS_WIRE_MAX_STATES]; /* ticks spent in each state */
    double x[HS_WIRE_MAX_ACT], f[HS_WIRE_MAX_ACT];
    double mte[HS_WIRE_MAX_ACT], rms[HS_WIRE_MAX_ACT], ti_peak[HS_WIRE_MAX_ACT];
    double hist_t[HS_WIRE_MAX_HISTORY];
    double hist_x[HS_WIRE_MAX_HISTORY * HS_WIRE_MAX_ACT]; /* sample k, actuator j: [k*nact + j] */
    double hist_f[HS_WIRE_MAX_HISTORY * HS_WIRE_MAX_ACT];
    /* with HS_WIRE_CAP_STEP_STATS negotiated (stats = 1): the step's statistics */
    int stats;
    uint32_t stats_flags; /* HS_WIRE_MEAS_* */
    double ti[HS_WIRE_MAX_ACT],
        a_es[HS_WIRE_MAX_ACT]; /* TI now; the compensator's a_es (1: none) */
} hs_wire_measurement;

typedef struct hs_wire_heartbeat {
    uint64_t sent_ns; /* sender's monotonic clock */
    uint64_t echo_ns; /* sent_ns of the last heartbeat received (0: none), for round trips */
} hs_wire_heartbeat;

typedef struct hs_wire_error {
    int32_t code;                /* HS_E* */
    char text[HS_WIRE_TEXT_MAX]; /* UTF-8 sentence */
} hs_wire_error;

/* RESUME: the coordinator's last committed step; RESUME_ACK: the site's last committed step and
 * the displacement it holds (the header's step is the last committed step in both). */
typedef struct hs_wire_resume {
    int nact; /* RESUME_ACK only */
    double x[HS_WIRE_MAX_ACT];
} hs_wire_resume;

/* HOLD_ACK (HS_WIRE_CAP_HOLD; the header's step is the site's last applied step): the site's
 * answer to HOLD, sent after it has restarted its hold timer (HOLD itself has no payload; its
 * step is the coordinator's steps done). */
typedef struct hs_wire_hold {
    int state;           /* the command generator's state (hs_cmdgen_state, 0 .. 7) */
    double hold_timeout; /* s the site holds without a target before it unloads; 0: forever */
    double left;         /* s left before that happens if no HOLD or target comes (>= 0) */
} hs_wire_hold;

/* One message. COMMIT, BYE, AUTH_OK, RESUME and HOLD have no payload. */
typedef struct hs_wire_msg {
    hs_wire_type type;
    int64_t step;
    uint64_t seq; /* set by decoding */
    union {
        hs_wire_auth auth;
        hs_wire_hello hello;
        hs_wire_target target;
        hs_wire_measurement meas;
        hs_wire_heartbeat heartbeat;
        hs_wire_error error;
        hs_wire_resume resume;
        hs_wire_hold hold;
    };
} hs_wire_msg;

/* ---- frames ---- */

/* Header <-> bytes. Decoding checks, in this order: at least HS_WIRE_HEADER_SIZE bytes (TRUNCATED),
 * magic (MAGIC), version (VERSION), type (TYPE), flags (FLAGS), length <= max_length (OVERSIZE;
 * 0 = HS_WIRE_MAX_LENGTH), step >= 0 (PAYLOAD). It reads nothing past the header, so a stream
 * reader knows the body length, bounded, before it reads or allocates anything. */
void hs_wire_header_encode(const hs_wire_header *h, uint8_t out[HS_WIRE_HEADER_SIZE]);
int hs_wire_header_decode(const uint8_t *buf, size_t len, uint32_t max_length, hs_wire_header *h,
                          hs_wire_status *st);

/* Payload of msg (by msg->type) into out[cap]; *len its size. HS_EINVAL (fault SPACE or PAYLOAD)
 * when it does not fit or the message is invalid (counts out of range, non-finite values, text
 * not UTF-8). */
int hs_wire_payload_encode(const hs_wire_msg *msg, uint8_t *out, size_t cap, size_t *len,
                           hs_wire_status *st);
/* Payload of the given type from buf[len] (exactly len bytes) into msg (type set, step and seq
 * untouched). HS_EPROTO (fault PAYLOAD or TYPE) when anything does not match. */
int hs_wire_payload_decode(int type, const uint8_t *buf, size_t len, hs_wire_msg *msg,
                           hs_wire_status *st);

/* A whole plain frame: header (sequence `seq`, flags 0) and payload. */
int hs_wire_encode(const hs_wire_msg *msg, uint64_t seq, uint8_t *out, size_t cap, size_t *len,
                   hs_wire_status *st);
/* A whole plain frame from buf[len] (len may hold more; *used gets the frame's size). Sealed
 * frames are refused here (FLAGS): they go through hs_secure_open. HS_EPROTO on any fault. */
int hs_wire_decode(const uint8_t *buf, size_t len, uint32_t max_length, hs_wire_msg *msg,
                   size_t *used, hs_wire_status *st);

/* An ERROR message: code and printf-style sentence, cut at a UTF-8 boundary to fit. */
void hs_wire_error_set(hs_wire_msg *msg, int64_t step, int code, const char *fmt, ...)
    HS_PRINTF(4, 5);

/* ---- version and capability negotiation (the site's side) ---- */

/* The site answers a HELLO `offer` from its own description `site` (nact, controller rate, least
 * time scale it can run at, limits per actuator, versions and capabilities it has, its name).
 * On success *ack is the HELLO_ACK to send; otherwise returns HS_EUNSUPPORTED and *refusal is
 * the ERROR to send, with a sentence that says what the site cannot do. */
int hs_wire_negotiate(const hs_wire_hello *offer, const hs_wire_hello *site, hs_wire_hello *ack,
                      hs_wire_msg *refusal);

#ifdef __cplusplus
}
#endif
#endif
