/* hysim laboratory exchange: what a site controller sends to its laboratory and reads back at every
 * controller tick, behind one ops table (docs/lab_backends.md).
 *
 *   out: one command per actuator (the test's units, after the site's safety limits);
 *   in:  measured displacement and force per actuator, a status word (HS_LAB_ST_*: interlock,
 *        fault, watchdog) and the laboratory controller's own tick count.
 *
 * Back ends: "virtual" (the in-process virtual laboratory, hysim/lab.h, unchanged in its numbers)
 * "udp" (one datagram each way per tick to a real-time target, with a packet layout declared in
 * the site file, src/lab/labio_udp.c) and "driver" (a lab's own library, hysim/driver.h).
 * Everything is allocated at creation; an exchange never allocates. */
#ifndef HYSIM_LABIO_H
#define HYSIM_LABIO_H

#include "hysim/base.h"
#include "hysim/lab.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HS_LAB_MAX_ACT    16   /* = HS_SITE_MAX_ACT */
#define HS_UDP_MAX_FIELDS 64   /* fields of one packet */
#define HS_UDP_MAX_BYTES  1472 /* one Ethernet frame's UDP payload */

/* Status bits of an exchange. INTERLOCK and FAULT come from the laboratory's controller (bit 0
 * and bit 1 of its status field); WATCHDOG is the back end's own (too many missing replies). Any
 * of them makes the site hold. */
enum { HS_LAB_ST_INTERLOCK = 1, HS_LAB_ST_FAULT = 2, HS_LAB_ST_WATCHDOG = 4 };

/* One tick's input from the laboratory. x and f are the caller's buffers (nact each). */
typedef struct hs_lab_input {
    double *x, *f;
    uint32_t status;   /* HS_LAB_ST_* */
    int64_t ctrl_tick; /* the laboratory controller's own tick count */
    int missing;       /* replies missing in a row now (0 for the virtual lab) */
    int missing_max;   /* the count that raises HS_LAB_ST_WATCHDOG (0: none) */
} hs_lab_input;

typedef struct hs_lab_ops {
    const char *kind;
    /* one controller tick: send cmd (nact), fill in; never allocates; < 0: HS_E* */
    int (*exchange)(void *self, const double *cmd, hs_lab_input *in);
    int (*actuator_flags)(void *self, int channel); /* HS_ACT_LIMIT_* of the last tick (or NULL) */
    const double *(*true_displacement)(void *self); /* what the lab knows best (nact) */
    const double *(*true_force)(void *self);
    /* the last alarm (watchdog, interlock, fault) as one sentence, "" when none (or NULL) */
    const char *(*alarm)(void *self);
    /* Where the rig is before the site's first command (nact, the test's units), read without
     * commanding anything (docs/lab_backends.md, "The site's first command"): shm reads the reply
     * block the laboratory's process wrote when it mapped it, a driver calls its read alone, udp
     * waits on its fixed local address for the target's periodic reply. 0, or an error with a
     * message that says what to do (or NULL: the back end has none; the virtual lab rests at 0). */
    int (*position)(void *self, hs_ctx *ctx, double *x);
    /* Lets go of what a successor laboratory needs (udp: closes the socket of a fixed local
     * address, which the next test's laboratory binds at its first exchange); no exchange follows.
     * Never allocates. NULL: nothing to let go. */
    void (*detach)(void *self);
    void (*destroy)(void *self); /* NULL: self is lent */
} hs_lab_ops;

typedef struct hs_lab hs_lab;

/* A laboratory over `self` with `ops` (ops is static; self owned when ops->destroy != NULL). */
int hs_lab_create(hs_ctx *ctx, const hs_lab_ops *ops, void *self, int nact, double rate,
                  hs_lab **out);
/* The virtual laboratory as a back end (vlab lent): status 0, the lab's tick count. */
int hs_lab_virtual(hs_ctx *ctx, hs_vlab *vlab, hs_lab **out);
void hs_lab_destroy(hs_lab **lab);
int hs_lab_exchange(hs_lab *lab, const double *cmd, hs_lab_input *in);
int hs_lab_nact(const hs_lab *lab);
double hs_lab_rate(const hs_lab *lab);
const char *hs_lab_kind(const hs_lab *lab);
int hs_lab_actuator_flags(hs_lab *lab, int channel);
const double *hs_lab_true_displacement(hs_lab *lab);
const double *hs_lab_true_force(hs_lab *lab);
const char *hs_lab_alarm(hs_lab *lab);
void *hs_lab_self(hs_lab *lab);
/* The rig's position before any command (ops->position): 0 and x (nact) filled, HS_EUNSUPPORTED
 * when the back end has no such operation (x untouched), or the back end's error. */
int hs_lab_position(hs_ctx *ctx, hs_lab *lab, double *x);
/* The laboratory of a test that ends, handing over to the next one's (ops->detach). */
void hs_lab_detach(hs_lab *lab);
/* How long a back end waits for the rig's position at most (udp: the target's periodic reply). */
#define HS_LAB_POSITION_WAIT 1.0

/* ---------------------------------------------------------------- udp packet layout */

enum { HS_UDP_FLOAT64, HS_UDP_FLOAT32, HS_UDP_INT32, HS_UDP_UINT32 };
enum {
    HS_UDP_PAD,          /* `bytes` of zeros (ignored when read) */
    HS_UDP_COUNTER,      /* the sender's sequence counter (+1 a packet) */
    HS_UDP_TIME,         /* the sender's time stamp, s (tick / rate) */
    HS_UDP_COMMAND,      /* command of `channel` (commands) */
    HS_UDP_DISPLACEMENT, /* measured displacement of `channel` (replies) */
    HS_UDP_FORCE,        /* measured force of `channel` (replies) */
    HS_UDP_STATUS,       /* status word: bit 0 interlock, bit 1 fault (replies) */
    HS_UDP_TICK,         /* the controller's own tick count (replies) */
    HS_UDP_ECHO          /* the counter of the command this reply answers (replies) */
};

typedef struct hs_udp_field {
    int role, type, big; /* HS_UDP_<role>, HS_UDP_<type>, 1: big endian */
    int channel;         /* actuator index (command, displacement, force), else -1 */
    int bytes;           /* size in the packet */
    double gain, offset; /* calibration: value in test units = gain * raw + offset */
    char units[16];      /* the raw value's units (documentation, messages) */
} hs_udp_field;

typedef struct hs_udp_layout {
    int n;
    hs_udp_field f[HS_UDP_MAX_FIELDS];
    size_t size; /* bytes of the packet */
} hs_udp_layout;

/* The values a packet carries (in the test's units). */
typedef struct hs_udp_values {
    uint32_t counter, echo, status;
    int64_t tick;
    double time;
    double cmd[HS_LAB_MAX_ACT], x[HS_LAB_MAX_ACT], f[HS_LAB_MAX_ACT];
} hs_udp_values;

/* Writes the packet (layout->size bytes). Integer fields of continuous values are rounded and
 * saturated. */
void hs_udp_pack(const hs_udp_layout *l, const hs_udp_values *v, uint8_t *buf);
/* Reads a packet of `len` bytes: 0, or HS_EPROTO when its size is not the layout's or a value is
 * not finite (a malformed packet). Fields the layout lacks are left as they are in v. */
int hs_udp_unpack(const hs_udp_layout *l, const uint8_t *buf, size_t len, hs_udp_values *v);
int hs_udp_layout_has(const hs_udp_layout *l, int role);

/* ---------------------------------------------------------------- udp back end */

typedef struct hs_lab_udp_config {
    char remote[64];      /* "HOST:PORT" of the real-time target (commands go there) */
    char local[64];       /* "HOST:PORT" the site binds ("0.0.0.0:0" by default) */
    double reply_timeout; /* s to wait for the reply within a tick; 0: half a tick */
    int max_missing;      /* replies missing in a row that make the site hold (default 5) */
    int rests_at_zero;    /* 1: the operator states that the rig rests at 0 (a target that cannot
                             report its position before a command: local without a port) */
    hs_udp_layout command, reply;
} hs_lab_udp_config;

/* The udp counters (all since creation). */
typedef struct hs_lab_udp_counts {
    int64_t sent, received; /* datagrams; received = accepted replies */
    int64_t missing;        /* ticks without an accepted reply */
    int64_t late;           /* replies to an earlier command (needs an echo field) */
    int64_t duplicated;     /* a counter seen already */
    int64_t out_of_order;   /* a counter older than the last accepted */
    int64_t malformed;      /* wrong size or a value not finite */
    int64_t foreign;        /* from an address other than the remote */
    int missing_run;        /* missing in a row now */
    int missing_run_max;
} hs_lab_udp_counts;

int hs_lab_udp_create(hs_ctx *ctx, const hs_lab_udp_config *c, int nact, double rate, hs_lab **out);
/* The counters of a udp laboratory (zeros for another kind). */
hs_lab_udp_counts hs_lab_udp_counts_get(hs_lab *lab);
/* Parses "HOST:PORT" (numeric IPv4) into a sockaddr_in (as bytes, sizeof struct sockaddr_in). */
int hs_udp_address(const char *text, void *sockaddr_in_out);

/* ---------------------------------------------------------------- driver back end */

/* A laboratory over a driver library (include/hysim/driver.h) loaded from `path` with dlopen;
 * `options` is passed to its open. HS_EINPUT with a message for a missing file, a missing symbol
 * or a wrong ABI version; HS_EIO when the driver's open fails. */
int hs_lab_driver_create(hs_ctx *ctx, const char *path, const char *options, int nact, double rate,
                         hs_lab **out);

#ifdef __cplusplus
}
#endif
#endif
