/* hysim and OpenFresco: byte-exact sessions for OpenFresco's two wire protocols
 * (docs/openfresco.md, /work/shared/docs/PROTOCOL.md).
 *
 * - Protocol A ("generic client" <-> SimApp server): OpenSees `element genericClient`, OpenFresco
 *   `expElement ... -server`. 11 int32 sizes, then dataSize float64 per message, action code in
 *   slot 0.
 * - Protocol B (ShadowSite <-> ActorSite): int32 1 byte-order check, open [1, clientTag, 2.8] ->
 *   [0, serverTag, 2.8], setup [2, dataSize] + 5 + 5 int32, then dataSize float64 per message.
 *
 * Nothing here touches a socket. A session consumes bytes (any chunking) and produces the bytes
 * to send back; a TCP adapter moves them. All integers and doubles are little-endian on the wire
 * whatever the host (what OpenFresco's hosts use in practice).
 *
 * A server session answers through a backend (function pointers, basic-DOF coordinates). The
 * helper hs_ofr_map turns a backend in actuator coordinates into one in basic DOFs with the
 * site's matrix T (n_act x n_basic): u_act = T d, forces T^T f, matrices T^T K T. */
#ifndef HYSIM_OPENFRESCO_H
#define HYSIM_OPENFRESCO_H

#include "hysim/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Action codes (slot 0 of every message after the sizes / setup). */
enum {
    HS_OFR_OPEN = 1,
    HS_OFR_SETUP = 2,
    HS_OFR_SET_TRIAL = 3,
    HS_OFR_EXECUTE = 4,
    HS_OFR_COMMIT = 5,
    HS_OFR_GET_DAQ = 6,
    HS_OFR_GET_DISP = 7,
    HS_OFR_GET_VEL = 8,
    HS_OFR_GET_ACCEL = 9,
    HS_OFR_GET_FORCE = 10,
    HS_OFR_GET_TIME = 11,
    HS_OFR_GET_INITIAL_STIFF = 12,
    HS_OFR_GET_TANGENT_STIFF = 13,
    HS_OFR_GET_DAMP = 14,
    HS_OFR_GET_MASS = 15,
    HS_OFR_DIE = 99
};

/* Groups of the sizes vectors, in wire order. */
enum { HS_OFR_DISP = 0, HS_OFR_VEL, HS_OFR_ACCEL, HS_OFR_FORCE, HS_OFR_TIME, HS_OFR_NGROUPS };

#define HS_OFR_SIZES_BYTES   44    /* protocol A: 11 int32 */
#define HS_OFR_B_MSG_DOUBLES 256   /* protocol B open / setup messages */
#define HS_OFR_B_VERSION     2.8   /* OpenFresco's protocol B version */
#define HS_OFR_MAX_DATA      65536 /* default bound on dataSize (doubles): 512 KiB a message */

/* HS_OFR_PROTO_ADAPTER (clients only): OpenSees' `element adapter`, protocol A's sizes, then
 * only 3 (set trial, no reply), 10 (answered with the daq vector: sum(sizeDaq) values, daqDisp
 * then daqForce) and 99 (no reply; OpenSees exits). Any other code makes OpenSees exit, so the
 * client refuses them. docs/opensees_adapter.md. */
typedef enum { HS_OFR_PROTO_A = 0, HS_OFR_PROTO_B = 1, HS_OFR_PROTO_ADAPTER = 2 } hs_ofr_proto;

/* sizeCtrl, sizeDaq (disp, vel, accel, force, time) and dataSize (doubles per message). */
typedef struct hs_ofr_sizes {
    int32_t ctrl[HS_OFR_NGROUPS];
    int32_t daq[HS_OFR_NGROUPS];
    int32_t data_size;
} hs_ofr_sizes;

/* Checks sizes against what hysim serves with n channels: every size >= 0; ctrl disp = n;
 * ctrl vel, accel and every daq disp, vel, accel, force are 0 or n; ctrl force 0 (force control
 * is not supported); both time sizes 0 or 1; dataSize >= 1 + sum(ctrl), >= sum(daq) and
 * <= max_data (0: HS_OFR_MAX_DATA). HS_EPROTO with a message naming the field otherwise. */
int hs_ofr_sizes_check(hs_ctx *ctx, const hs_ofr_sizes *s, int n, int32_t max_data);
/* Sum of a sizes vector (int64: no overflow whatever the values). */
int64_t hs_ofr_sizes_sum(const int32_t v[HS_OFR_NGROUPS]);

/* The site's answers, in the client's coordinates (basic DOFs for protocol A, the control
 * channels for protocol B), n values or n x n column-major. Return 0 or a negative HS_E* code;
 * a failing call is counted and answered with zeros (a client is never left waiting). Any
 * function may be NULL: getters then answer zeros (get_disp: the last trial displacement). */
typedef struct hs_ofr_backend {
    void *user;
    /* vel, accel NULL when the client does not send them; time is the last time received
     * (0 before any). Only called with finite values. */
    int (*set_trial)(void *user, const double *disp, const double *vel, const double *accel,
                     double time);
    int (*get_disp)(void *user, double *out); /* measured displacement */
    int (*get_force)(void *user, double *out);
    int (*get_initial_stiffness)(void *user, double *K);
    int (*get_tangent_stiffness)(void *user, double *K);
    int (*get_damping)(void *user, double *C);
    int (*get_mass)(void *user, double *M);
    int (*commit)(void *user, double time);
    void (*close)(void *user); /* the client said 99 (DIE) */
} hs_ofr_backend;

typedef struct hs_ofr_server_config {
    int n;              /* channels the backend serves (basic DOFs for protocol A) */
    int32_t max_data;   /* bound on dataSize checked before allocating (0: HS_OFR_MAX_DATA) */
    int32_t server_tag; /* protocol B: answered to open and close */
} hs_ofr_server_config;

/* What a session has seen. */
typedef struct hs_ofr_stats {
    uint64_t messages;       /* complete messages consumed (sizes / handshake included) */
    uint64_t replies;        /* replies produced */
    uint64_t unknown_codes;  /* ignored: no reply */
    uint64_t bad_values;     /* trials with a non-finite value: not applied */
    uint64_t backend_errors; /* backend calls that failed (answered with zeros) */
    uint64_t short_replies;  /* matrices that do not fit in dataSize (answered with zeros) */
} hs_ofr_stats;

typedef enum {
    HS_OFR_HANDSHAKE = 0, /* waiting for sizes (A) / byte order, open, setup (B) */
    HS_OFR_RUNNING,
    HS_OFR_CLOSED, /* 99 received (or the client's close reply seen) */
    HS_OFR_FAILED  /* refused handshake: the adapter closes the connection */
} hs_ofr_state;

/* ---- server sessions (hysim site answering an OpenFresco client) ---- */
typedef struct hs_ofr_server hs_ofr_server;

/* The backend is copied; its user pointer is lent. n >= 1. */
int hs_ofr_server_create(hs_ctx *ctx, hs_ofr_proto proto, const hs_ofr_server_config *cfg,
                         const hs_ofr_backend *backend, hs_ofr_server **out);
void hs_ofr_server_destroy(hs_ofr_server **s); /* NULL-safe, sets *s = NULL */
/* Consumes bytes from `in` and sets *consumed. Stops early when a reply is pending: send it
 * (hs_ofr_server_reply), call hs_ofr_server_reply_sent, feed the rest. Bytes after 99 are
 * consumed and ignored. Returns 0, or HS_EPROTO (with a message) when the handshake is refused
 * (state HS_OFR_FAILED; further bytes are refused too). Allocates only once, when the sizes
 * are accepted. */
int hs_ofr_server_feed(hs_ofr_server *s, const uint8_t *in, size_t n, size_t *consumed);
/* The pending reply (NULL, *len = 0 when none). */
const uint8_t *hs_ofr_server_reply(const hs_ofr_server *s, size_t *len);
void hs_ofr_server_reply_sent(hs_ofr_server *s);
hs_ofr_state hs_ofr_server_state(const hs_ofr_server *s);
/* Bytes of an incomplete message held (a connection that ends with this > 0 was cut short). */
size_t hs_ofr_server_partial(const hs_ofr_server *s);
/* The client's sizes (valid from HS_OFR_RUNNING). */
const hs_ofr_sizes *hs_ofr_server_sizes(const hs_ofr_server *s);
void hs_ofr_server_stats(const hs_ofr_server *s, hs_ofr_stats *out);
/* Protocol B: the client's tag and version from its open message. */
int32_t hs_ofr_server_client_tag(const hs_ofr_server *s);

/* ---- client sessions (hysim coordinator driving an OpenFresco server) ---- */
typedef struct hs_ofr_client_config {
    hs_ofr_sizes sizes; /* data_size 0: the smallest that fits (A: also n x n matrices) */
    int32_t max_data;   /* 0: HS_OFR_MAX_DATA */
    int32_t client_tag; /* protocol B */
} hs_ofr_client_config;

typedef struct hs_ofr_client hs_ofr_client;

int hs_ofr_client_create(hs_ctx *ctx, hs_ofr_proto proto, const hs_ofr_client_config *cfg,
                         hs_ofr_client **out);
void hs_ofr_client_destroy(hs_ofr_client **c);
/* Bytes the client wants to send now (NULL when none); mark them sent with
 * hs_ofr_client_output_sent. At creation: the sizes (A) or the byte-order int32 (B); protocol B
 * then queues open and setup by itself as the server's answers arrive. */
const uint8_t *hs_ofr_client_output(const hs_ofr_client *c, size_t *len);
void hs_ofr_client_output_sent(hs_ofr_client *c);
/* Consumes reply bytes. HS_EPROTO on a wrong byte order, open reply or version (B), or a close
 * reply that is not [4, serverTag]; bytes nobody waits for are refused (HS_EPROTO). */
int hs_ofr_client_feed(hs_ofr_client *c, const uint8_t *in, size_t n, size_t *consumed);
/* 1 when the handshake is done, nothing is left to send and no reply is awaited. */
int hs_ofr_client_ready(const hs_ofr_client *c);
/* Queues setTrialResponse (3) with disp (n values), vel and accel (when sizeCtrl has them; NULL
 * sends zeros) and time. HS_EINVAL when not ready. */
int hs_ofr_client_set_trial(hs_ofr_client *c, const double *disp, const double *vel,
                            const double *accel, double time);
/* Queues an action-only message (the last trial data rides along; protocol B commit puts the
 * time at slot 1 + nD + nV + nA + nF). Codes: A: 1-15, 99; B: 5, 6, 99. Matrices (12-15) need
 * dataSize >= n^2 (HS_EUNSUPPORTED otherwise). */
int hs_ofr_client_request(hs_ofr_client *c, int code);
/* The values of the last complete reply (count *nvals: sum(daq) for 6, n for 7-10, 1 for 11,
 * n^2 for 12-15); NULL when none. */
const double *hs_ofr_client_reply(const hs_ofr_client *c, size_t *nvals);
hs_ofr_state hs_ofr_client_state(const hs_ofr_client *c);
const hs_ofr_sizes *hs_ofr_client_sizes(const hs_ofr_client *c);
int32_t hs_ofr_client_server_tag(const hs_ofr_client *c); /* protocol B */

/* ---- packing helpers (pure) ---- */
/* Unpacks a vector packed disp|vel|accel|force|time over the non-zero groups of `sizes` (from
 * v[0]) into the given arrays (any may be NULL to skip). Returns the number of values read. */
size_t hs_ofr_unpack(const int32_t sizes[HS_OFR_NGROUPS], const double *v, double *disp,
                     double *vel, double *accel, double *force, double *time);

/* ---- basic DOFs <-> actuators ---- */
/* T is n_act x n_basic, column-major (T[j * nact + i]): u_act = T d_basic. */
void hs_ofr_map_to_actuators(int nact, int nbasic, const double *T, const double *d, double *u);
/* q_basic = T^T f_act */
void hs_ofr_map_force(int nact, int nbasic, const double *T, const double *f, double *q);
/* Kb = T^T K T (K nact x nact, Kb nbasic x nbasic, column-major); work: nact * nbasic. */
void hs_ofr_map_matrix(int nact, int nbasic, const double *T, const double *K, double *work,
                       double *Kb);

typedef struct hs_ofr_map hs_ofr_map;
/* A backend in basic DOFs over `inner` in actuator coordinates: set_trial sends T d, T v, T a;
 * get_force answers T^T f; the four matrices T^T K T; get_disp is left to the server (the
 * trial echo: T need not be invertible). T is copied; inner's user pointer is lent. */
int hs_ofr_map_create(hs_ctx *ctx, int nact, int nbasic, const double *T,
                      const hs_ofr_backend *inner, hs_ofr_map **out);
void hs_ofr_map_destroy(hs_ofr_map **m);
const hs_ofr_backend *hs_ofr_map_backend(const hs_ofr_map *m);

#ifdef __cplusplus
}
#endif
#endif
