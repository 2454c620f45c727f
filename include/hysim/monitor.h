/* hysim monitor: a live web page of a running test (docs/monitor.md).
 *
 * The producer (the coordinator's step loop, or a site server's controller side) fills fixed-size
 * samples into a single-producer single-consumer lock-free ring and never waits: when the ring is
 * full the sample is dropped and counted. The web server (libmicrohttpd) drains the ring into its
 * own history and streams it to every page as server-sent events (SSE); the page plots with
 * dygraphs (Debian's libjs-dygraphs, read from /usr/share/javascript/dygraphs at run time).
 * The page's pause, resume and abort need the token printed on the terminal that started the test
 * (compared in constant time); the server listens on loopback unless given a host. */
#ifndef HYSIM_MONITOR_H
#define HYSIM_MONITOR_H

#include "hysim/base.h"
#include "hysim/ring.h"

#include <stdatomic.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HS_MON_MAX_DOF   32
#define HS_MON_MAX_ACT   16
#define HS_MON_MAX_SITES 8
#define HS_MON_NAME      100
#define HS_MON_DOF_NAME  32

/* One moment of the test. Units are the test's. */
typedef struct hs_monitor_sample {
    int64_t step, steps;                 /* steps done, steps of the test */
    double t;                            /* simulation time */
    double wall;                         /* wall-clock seconds since the monitor started */
    int ndof, nact, nsites;              /* entries used below (at most the HS_MON_MAX_* sizes) */
    double d[HS_MON_MAX_DOF];            /* displacement of each DOF (relative) */
    double x_cmd[HS_MON_MAX_ACT];        /* actuator command */
    double x_meas[HS_MON_MAX_ACT];       /* actuator measurement */
    double f_meas[HS_MON_MAX_ACT];       /* actuator's measured force */
    double limit_use[HS_MON_MAX_ACT];    /* largest |x|/stroke, |f|/force limit (0: no limit) */
    int site_states[HS_MON_MAX_SITES];   /* bits (1 << hs_cmdgen_state) visited in the step */
    double site_delay[HS_MON_MAX_SITES]; /* s */
    double energy_error;                 /* relative energy balance error */
    int paused;                          /* 1 while the operator holds the test */
    double paused_s;                     /* wall seconds paused so far (the ETA leaves them out) */
    /* While paused, each site's hold (hs_site_hold, hysim/site.h): HS_SITE_HOLD_* (kept alive,
     * lapsing, untimed, ended, unknown) and the wall s it would last if the keep-alive stopped
     * reaching the site now (a site's own page: its hold_timeout's time left) */
    int site_hold[HS_MON_MAX_SITES];
    double site_hold_left[HS_MON_MAX_SITES]; /* not finite: no limit, or unknown */
    double hold_left; /* the least site_hold_left of the sites not kept alive: the first hold to
                         end unless the operator resumes (not finite: none known); a site's
                         own page: its hold's time left */
} hs_monitor_sample;

/* ---- the ring (monitor_ring.c): hysim/ring.h of samples, counting what it refuses ---- */
typedef struct hs_monitor_ring {
    hs_ring ring;
    atomic_ullong dropped; /* samples refused because the ring was full */
} hs_monitor_ring;

/* capacity: rounded up to a power of two (>= 2). */
int hs_monitor_ring_init(hs_monitor_ring *r, size_t capacity);
void hs_monitor_ring_free(hs_monitor_ring *r);
/* Producer: copies s in; 1 when stored, 0 when the ring was full (dropped and counted). Never
 * waits, never allocates. */
int hs_monitor_ring_push(hs_monitor_ring *r, const hs_monitor_sample *s);
/* Consumer: 1 and the oldest sample in *s, 0 when empty. */
int hs_monitor_ring_pop(hs_monitor_ring *r, hs_monitor_sample *s);
unsigned long long hs_monitor_ring_dropped(hs_monitor_ring *r);

/* ---- names and units, sent once to each page ---- */
typedef struct hs_monitor_layout {
    char title[128]; /* the test's (or site's) name */
    char role[16];   /* "test" | "site" */
    char units_length[16], units_force[16], units_time[16];
    int ndof, nact, nsites;
    char act_names[HS_MON_MAX_ACT][HS_MON_NAME]; /* "site.actuator" */
    char site_names[HS_MON_MAX_SITES][HS_MON_NAME];
    char dof_names[HS_MON_MAX_DOF]
                  [HS_MON_DOF_NAME]; /* the model's ("n3_ux", "floor2"); "" for d1.. */
} hs_monitor_layout;

/* ---- SSE formatting (monitor_sse.c) ---- */
/* Writes one SSE event "id: SEQ\nevent: sample\ndata: {JSON}\n\n" (numbers %.9g, not finite
 * as null). Returns its length, or -1 when it does not fit in size. */
int hs_monitor_sse_sample(const hs_monitor_sample *s, unsigned long long seq,
                          unsigned long long dropped, char *buf, size_t size);
/* "event: layout\ndata: {JSON}\n\n"; -1 when it does not fit. */
int hs_monitor_sse_layout(const hs_monitor_layout *l, char *buf, size_t size);
/* "event: end\ndata: {\"status\":...,\"reason\":...}\n\n"; -1 when it does not fit. */
int hs_monitor_sse_end(const char *status, const char *reason, char *buf, size_t size);

/* ---- the server (monitor_server.c) ---- */
typedef enum {
    HS_MON_RUN = 0,   /* running */
    HS_MON_PAUSE = 1, /* the operator holds the test */
    HS_MON_ABORT = 2  /* the operator ended the test */
} hs_monitor_command;

typedef struct hs_monitor hs_monitor;

/* listen: "PORT" (loopback) or "HOST:PORT" (a name or an IPv4 address; 0.0.0.0 for every
 * interface); PORT 0 picks a free port. The token is made here (32 hex characters from
 * libsodium's randombytes). */
int hs_monitor_create(hs_ctx *ctx, const char *listen, const hs_monitor_layout *layout,
                      size_t ring_capacity, hs_monitor **out);
/* Ends every stream (after the `end` event, when hs_monitor_finish was called) and stops. */
void hs_monitor_destroy(hs_monitor **m);
int hs_monitor_port(const hs_monitor *m);
const char *hs_monitor_host(const hs_monitor *m);
const char *hs_monitor_token(const hs_monitor *m);
/* The producer's side: publishes a sample (stamps its wall time); never waits. */
int hs_monitor_publish(hs_monitor *m, hs_monitor_sample *s);
/* What the operator asked for last (HS_MON_RUN, _PAUSE or _ABORT); abort is final. */
hs_monitor_command hs_monitor_command_get(hs_monitor *m);
unsigned long long hs_monitor_dropped(hs_monitor *m);
/* The test is over: the pages get an `end` event with the status and reason. */
void hs_monitor_finish(hs_monitor *m, const char *status, const char *reason);

/* The page (monitor_page.c), in parts (each within C's portable string length), NULL-ended. */
extern const char *const hs_monitor_page_parts[];
/* Where dygraphs is read from (libjs-dygraphs). */
#define HS_MON_DYGRAPHS_DIR "/usr/share/javascript/dygraphs"

#ifdef __cplusplus
}
#endif
#endif
