/* The NEES / NTCP "LabVIEW plugin" ASCII protocol (docs/nees.md): the lines UI-SimCor, OpenFresco's
 * ECLabVIEW and the UIUC LBCB tools exchange with a lab's control plugin. One request line, one
 * reply line (one per control point for get-control-point); fields separated by TAB; lines end
 * with LF (CR LF accepted).
 *
 * This header holds what the two ends share: the control-point map of a site (which actuator
 * drives which DOF of which control point), the line assembler and splitter that tolerate every
 * quirk real peers show, the parser of "control point, then geom ptype value triplets", and the
 * reply formatter (no TAB before the line end, under ECLabVIEW's 512 bytes where it can be). The
 * lab side is a byte-free session (hs_nees_session) that the site server drives; the coordinator
 * side is the remote site kind nees://HOST:PORT (src/net/site_nees.c). */
#ifndef HYSIM_NEES_H
#define HYSIM_NEES_H

#include "hysim/base.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HS_NEES_MAX_CP     16    /* control points of a site */
#define HS_NEES_NAME       48    /* bytes of a control point name, NUL included */
#define HS_NEES_MAX_ACT    16    /* = HS_SITE_MAX_ACT */
#define HS_NEES_MAX_LINE   65536 /* longest line read (bytes, without the EOL) */
#define HS_NEES_MAX_FIELDS 1024
#define HS_NEES_ECL_LIMIT  512 /* ECLabVIEW's receive buffer: a reply stays below it */
#define HS_NEES_MAX_ALLOW  16
#define HS_NEES_MAX_OUT    16384 /* longest line written */

/* The six DOFs of a control point: x, y, z displacement, then x, y, z rotation (the OM order). */
enum { HS_NEES_DX = 0, HS_NEES_DY, HS_NEES_DZ, HS_NEES_RX, HS_NEES_RY, HS_NEES_RZ, HS_NEES_NDOF };
/* UI-SimCor's LabView1 (propose, execute, get-control-point) and LabView2 (propose answers with
 * the data). */
enum { HS_NEES_LABVIEW1 = 1, HS_NEES_LABVIEW2 = 2 };

/* A site's `nees` section (site file: the lab side; test file: a nees:// remote site). */
typedef struct hs_nees_config {
    int given; /* the section was written */
    int mode;  /* HS_NEES_LABVIEW1 (default) or HS_NEES_LABVIEW2 */
    int ncp;
    char cp[HS_NEES_MAX_CP][HS_NEES_NAME];
    int act_cp[HS_NEES_MAX_ACT];  /* the control point each actuator drives */
    int act_dof[HS_NEES_MAX_ACT]; /* and its DOF there (HS_NEES_DX..RZ) */
    /* lab side */
    int port;            /* -1: off; 0: any free port */
    int all12;           /* report all 12 quantities of a point (zeros where no actuator) */
    double step_time;    /* wall s an execute takes at the controller (default 0.05) */
    double line_gap;     /* s between two reply lines of one request (default 0.05) */
    double idle_timeout; /* s of silence after which a session ends (default 600) */
    int nallow;          /* 0: any peer (beyond loopback only with allow_any) */
    int allow_any;       /* `allow: any` written out: every peer that reaches the port */
    uint32_t allow_addr[HS_NEES_MAX_ALLOW], allow_mask[HS_NEES_MAX_ALLOW]; /* host order */
    /* coordinator side */
    double execute_timeout; /* s to wait for execute's reply (default 600) */
} hs_nees_config;

/* The defaults: one control point MDL-00-01 whose DOFs x, y, z displacement, x, y, z rotation are
 * driven by the first nact actuators in order (nact <= 6), LabView1, no port. */
void hs_nees_config_default(hs_nees_config *c, int nact);
/* "x displacement" for a DOF, and the reaction's label ("x force", "z moment"). */
const char *hs_nees_geom(int dof);
const char *hs_nees_kin(int dof);      /* "displacement" or "rotation" */
const char *hs_nees_reaction(int dof); /* "force" or "moment" */
/* The DOF of "x" + "rotation" (and of "x" + "moment" when reaction is set); -1 if none. */
int hs_nees_dof(const char *geom, const char *ptype, int *reaction);
/* Whether peer (IPv4, host order) may connect. */
int hs_nees_allowed(const hs_nees_config *c, uint32_t peer);

/* ---- lines ---- */
/* Assembles lines from bytes in any chunking: NUL bytes are dropped, a CR before the LF is
 * stripped, blank lines are skipped, a line longer than HS_NEES_MAX_LINE is cut (its rest up to
 * the LF discarded) and flagged. */
typedef struct hs_nees_lines {
    char buf[HS_NEES_MAX_LINE + 1];
    size_t len;
    int overlong;  /* the line being read is too long */
    int truncated; /* the line returned was cut */
    int ready;     /* buf holds a line returned by the last push */
} hs_nees_lines;
/* Takes bytes from data; returns 1 with a complete line in L->buf (NUL-terminated, L->len bytes,
 * valid until the next call) and *used the bytes taken, or 0 when all of data was taken and no
 * line is complete yet. */
int hs_nees_lines_push(hs_nees_lines *L, const uint8_t *data, size_t n, size_t *used);

/* A line split in place: the command word (up to the first TAB or SPACE, lower-cased, a `:suffix`
 * dropped), then the TAB-separated fields with empty ones removed (a transaction ID may hold
 * spaces). For a reply the "command" is the status (OK, NOK, ERROR, ...). */
typedef struct hs_nees_msg {
    char cmd[32];
    const char *raw_cmd; /* as written (suffix kept) */
    int nf;
    char *f[HS_NEES_MAX_FIELDS];
    int too_many; /* fields beyond HS_NEES_MAX_FIELDS were dropped */
} hs_nees_msg;
void hs_nees_split(char *line, hs_nees_msg *m);

/* Control points and triplets: "CP geom ptype value ... [CP2 ...]" with `control-point NAME` also
 * naming a point (ECLabVIEW) and `NAME external VALUE` triplets (sensors) kept as ptype external.
 * Returns the number of triplets (<= cap) or -1 with the reason in why. */
typedef struct hs_nees_triplet {
    const char *cp;   /* the control point as written */
    int dof;          /* HS_NEES_DX..RZ, -1 for an external sensor */
    int reaction;     /* force or moment */
    const char *name; /* the sensor (external) */
    double v;
} hs_nees_triplet;
int hs_nees_points(char *const *f, int nf, hs_nees_triplet *out, int cap, char *why, size_t wcap);

/* The index of a control point named `name` (exactly, else without a `:suffix`), -1 if none. */
int hs_nees_find_cp(const hs_nees_config *c, const char *name);

/* A line being built: fields joined by TAB, never a TAB before the EOL. */
typedef struct hs_nees_out {
    char buf[HS_NEES_MAX_OUT + 2];
    size_t len;
    int overflow; /* a field did not fit: the line is incomplete */
} hs_nees_out;
void hs_nees_out_start(hs_nees_out *o, const char *first);
void hs_nees_out_field(hs_nees_out *o, const char *field);  /* control and 8-bit bytes: '?' */
void hs_nees_out_num(hs_nees_out *o, double v, int digits); /* %.*E, digits significant */
void hs_nees_out_end(hs_nees_out *o);                       /* appends LF */

/* ---- the lab side: a session without sockets ---- */
typedef struct hs_nees_session hs_nees_session;
/* What the session asks of the site after a line. */
typedef enum {
    HS_NEES_ACT_NONE = 0, /* nothing to send */
    HS_NEES_ACT_REPLY,    /* send the lines */
    HS_NEES_ACT_MOVE,     /* move the actuators to x, then call hs_nees_session_moved */
    HS_NEES_ACT_CLOSE     /* send the lines, then end the session */
} hs_nees_act;
typedef struct hs_nees_action {
    hs_nees_act kind;
    int nlines;
    const char *line[HS_NEES_MAX_CP + 1];
    size_t len[HS_NEES_MAX_CP + 1];
    double x[HS_NEES_MAX_ACT]; /* MOVE: the actuators' target */
    int declined;              /* the line was answered with an error token */
} hs_nees_action;

/* nact actuators named names[j] with strokes stroke[j] (0: none). */
int hs_nees_session_create(hs_ctx *ctx, const hs_nees_config *cfg, int nact,
                           const char *const *names, const double *stroke, hs_nees_session **out);
void hs_nees_session_destroy(hs_nees_session **s);
/* The laboratory's state: what get-control-point reports before a move, and where the DOFs a
 * propose leaves out stay (a pending proposal is dropped). */
void hs_nees_session_state(hs_nees_session *s, const double *x, const double *f);
/* One request line (modified in place). */
void hs_nees_session_line(hs_nees_session *s, char *line, hs_nees_action *a);
/* A MOVE ended: measured x and f, or err != 0 with a reason (the reply is an error token). */
void hs_nees_session_moved(hs_nees_session *s, const double *x, const double *f, int err,
                           const char *why, hs_nees_action *a);
/* The reply to a line that was cut (too long). */
void hs_nees_session_overlong(hs_nees_session *s, hs_nees_action *a);

#ifdef __cplusplus
}
#endif
#endif
