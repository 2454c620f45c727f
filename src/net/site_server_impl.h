/* The site server's private parts (docs/site_server.md):
 *
 *   network thread --targets (SPSC ring, 1 slot)----------> controller loop
 *   network thread --a new laboratory (atomic pointer)----> controller loop
 *   network thread <-the retired laboratory (atomic ptr)--- controller loop
 *   network thread <-measurements (SPSC ring, 8 slots)----- controller loop
 *   writer thread  <-tick records (SPSC ring)-------------- controller loop
 *   anyone         <-status (mutex; the loop only tries it, never waits)
 *
 * The controller loop owns the current laboratory (a "bench": specimen, virtual lab, controller,
 * tracking) and never allocates, formats or touches a file; the network thread builds a bench
 * for each test, hands it over, and destroys the retired one. */
#ifndef HS_SITE_SERVER_IMPL_H
#define HS_SITE_SERVER_IMPL_H

#include "hysim/openfresco.h"
#include "hysim/secure.h"
#include "hysim/site_controller.h"
#include "hysim/site_server.h"
#include "hysim/tracking.h"
#include "hysim/wire.h"
#include "lab/site_build.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

/* the threads' queues: single-producer single-consumer rings (hysim/ring.h) */
#include "hysim/ring.h"

/* ---- messages between the threads ---- */
typedef struct hs_srv_target {
    int64_t generation, step;
    double t;
    double x[HS_SITE_MAX_ACT];
} hs_srv_target;

typedef struct hs_srv_meas {
    int64_t generation, step;
    int error;             /* < 0: the target was refused or the tick failed (code) */
    hs_site_report report; /* the controller's report (limit trip: limit, value, cause) */
    hs_wire_measurement m;
} hs_srv_meas;
/* hs_srv_meas.step of the loop's word that the controller settled into its hold with no target
 * pending: snap holds that state, for the state file (no measurement comes with it) */
#define HS_SRV_HOLD_SNAPSHOT (-2)

/* One tick in the log: then cmd, x, f (nact doubles each). */
typedef struct hs_srv_tick {
    int64_t tick;
    double t;    /* s since the loop started */
    double late; /* s after the deadline the tick started */
    int32_t state, flags;
} hs_srv_tick;

/* ---- a laboratory for one test (site_server_bench.c) ---- */
typedef struct hs_srv_bench {
    hs_ctx *ctx; /* its own: used only by the thread that holds the bench */
    hs_site_rig rig;
    hs_site_controller *sc;
    hs_tracking *track[HS_SITE_MAX_ACT];
    int64_t generation;
    double dt, time_scale;
    int failed; /* a tick failed: the loop stops ticking this bench */
    /* measurement buffers */
    double mx[HS_SITE_MAX_ACT], mf[HS_SITE_MAX_ACT];
    double ht[HS_EXP_HISTORY], hx[HS_EXP_HISTORY * HS_SITE_MAX_ACT],
        hf[HS_EXP_HISTORY * HS_SITE_MAX_ACT];
    hs_srv_meas out; /* the measurement being handed over */
    double *snap;    /* the state at the last measurement or hold (site.state), snap_n doubles */
    size_t snap_n;
    _Atomic uint64_t snap_seq; /* snap's sequence lock: the loop writes it, the network thread
                                * copies it into snap_copy (hysim/shm_lab.h's writer and reader) */
    double *snap_copy;
    int hold_saved; /* the loop saved snap since the controller settled into its hold */
} hs_srv_bench;

/* ---- the test the laboratory is running, and the peer being served (network thread) ---- */
enum { HS_SRV_NONE = 0, HS_SRV_NATIVE, HS_SRV_OFA, HS_SRV_OFB, HS_SRV_NEES };
typedef struct hs_srv_nees hs_srv_nees; /* site_server_nees.c */
enum { HS_SRV_AUTH = 0, HS_SRV_HELLO, HS_SRV_RUN };

typedef struct hs_srv_test {
    int live;          /* a bench was built for a test that has not ended with BYE / DIE */
    int ended;         /* it ended in order */
    int ended_by_site; /* ended on the site's side: hold timeout, free vibration (not resumable) */
    int openfresco;
    char coordinator[HS_WIRE_NAME_MAX];
    double dt, time_scale;
    int64_t last_step, last_committed; /* -1: none */
    double last_x[HS_SITE_MAX_ACT];
    int awaiting;  /* a target was posted; its measurement is not back */
    int have_meas; /* meas holds the measurement of step meas.step */
    int meas_new;  /* not yet forwarded to the peer */
    hs_srv_meas meas;
    int resumed;         /* a RESUME was accepted: the next new target is the outage's step */
    int64_t outage_step; /* that step (-1 none): its delay includes the coordinator's outage */
    hs_srv_bench *bench; /* the test's laboratory (the loop's; its snap is read after a pump) */
    int state_failed;    /* the state file could not be written at the last measurement */
    char trip_text[HS_WIRE_TEXT_MAX]; /* the trip's sentence, once sent ("" before) */
} hs_srv_test;

/* A connection that has not yet earned the slot (site_server_pending.c): a native peer until its
 * handshake has authenticated it, an OpenFresco peer until its handshake (sizes; byte order,
 * open and setup) is done. Up to HS_SRV_MAX_PENDING at once, each with a deadline of
 * `frame_timeout` from its accept; a new one beyond that replaces the oldest. */
#define HS_SRV_MAX_PENDING     8
#define HS_SRV_PENDING_BUF     512 /* a handshake frame (native) or bytes read (OpenFresco) */
#define HS_SRV_NONCES          64 /* coordinator nonces remembered to recognise a replayed AUTH_INIT */
#define HS_SRV_REFUSALS_LOGGED 10 /* refusals of pending peers logged one by one per second */

/* OpenFresco clients that held the site without moving anything (site_server_strikes.c) */
#define HS_SRV_STRIKES      3  /* empty sessions of one address before it is refused */
#define HS_SRV_STRIKE_ADDRS 16 /* addresses remembered (the oldest is forgotten) */
typedef struct hs_srv_strikes {
    uint32_t addr;       /* IPv4, host order */
    int n;               /* empty sessions in a row */
    int64_t seen, until; /* ns: the last one; refused until */
    int logged;          /* the refusal of this period was logged */
} hs_srv_strikes;

typedef struct hs_srv_pending {
    int kind; /* HS_SRV_NATIVE, HS_SRV_OFA, HS_SRV_OFB; 0: free */
    int fd;
    char peer[64];
    int64_t t_open; /* ns: accepted */
    /* native */
    hs_secure *ch;
    uint8_t rx[HS_SRV_PENDING_BUF];
    size_t rx_len, rx_need;
    uint64_t tx_frames;
    /* OpenFresco */
    hs_ofr_server *ofr;
    hs_ofr_map *map;
} hs_srv_pending;

typedef struct hs_srv_conn {
    int kind; /* HS_SRV_* */
    int fd;
    char peer[64];
    int64_t t_rx, t_hb, t_frame; /* ns: last frame received, last heartbeat sent, frame begun */
    int served;                  /* got past its handshake */
    /* native */
    int phase;
    hs_secure *ch;
    size_t rx_len, rx_need;
    uint64_t tx_frames;
    uint64_t peer_hb;
    int bound;     /* attached to the test (RESUME or a first TARGET) */
    int64_t held;  /* ns: the first HOLD of the current pause (0: not pausing) */
    int resumed;   /* RESUME seen */
    uint32_t caps; /* negotiated (HELLO_ACK) */
    char coordinator[HS_WIRE_NAME_MAX];
    double dt, time_scale;
    /* OpenFresco */
    hs_ofr_server *ofr;
    hs_ofr_map *map;
    /* NEES */
    hs_srv_nees *nees;
} hs_srv_conn;

struct hs_site_server {
    hs_ctx *ctx; /* the network thread's (the caller's before start and after stop) */
    hs_site_server_config cfg;
    int nact;
    double rate;
    double K0[HS_SITE_MAX_ACT * HS_SITE_MAX_ACT]; /* the specimen's initial stiffness */
    int has_K0;
    int lfd[4], port[4];    /* HS_SITE_PORT_* */
    int wake[2];            /* non-blocking pipe: the network thread's wake-up */
    atomic_int wake_posted; /* the loop wrote a byte the network thread has not yet taken */
    pthread_t th_ctl, th_net, th_log;
    int running;
    /* controller loop */
    hs_srv_bench *bench;                /* the loop's (before start: the first one) */
    _Atomic(hs_srv_bench *) bench_next; /* network -> loop */
    _Atomic(hs_srv_bench *) bench_old;  /* loop -> network */
    int handing_over;                   /* loop: the bench moves to bench_next's start first */
    atomic_llong handover_ns;           /* the move's planned duration (loop -> network) */
    atomic_llong generation;            /* of the bench the loop runs */
    int64_t next_generation;
    hs_ring targets, meas, ticks;
    size_t tick_size;
    atomic_int stop_ctl, stop_net, stop_log, ctl_ready, ctl_at_rest, finished;
    atomic_int abort_req; /* the operator's abort, for the loop (hs_site_server_abort) */
    atomic_int hold_req;  /* the coordinator's HOLD: restart the hold timer (network -> loop) */
    hs_rt_grants grants;  /* SCHED_FIFO, mlockall, the latency request (set before ctl_ready) */
    int64_t spin_ns;      /* the spin margin in use (set before ctl_ready) */
    int latency_granted;  /* grants.latency at start (grants.latency is cleared at the end) */
    int64_t wake_p99, wake_max; /* ns, the calibration's wake-up latency (0: not calibrated) */
    char ended_why[224];        /* how a hold timeout ends a test here (unloaded, or in place) */
    /* statistics of the loop (loop-owned) */
    int64_t late_hist[64]; /* start delays: bucket k holds [k, k+1) x 10 us, the last beyond */
    double late_sum, late_max;
    int64_t nticks, nlate;
    int64_t nspun; /* ticks of an active test (spun to their deadline): the lateness figures' */
    int64_t late_by_cause[HS_RT_NCAUSES];
    atomic_ullong log_dropped;
    /* status */
    pthread_mutex_t status_lock;
    hs_site_server_status status;
    /* tick log: the writer's file (rotated by the writer thread only); log_on: ticks are logged */
    FILE *log;
    int log_on;
    double log_bytes; /* written to the current file */
    atomic_ullong log_rotations;
    /* network (network thread) */
    hs_srv_test test;
    hs_srv_conn conn; /* the slot: the one peer being served */
    hs_srv_pending pending[HS_SRV_MAX_PENDING];
    uint8_t nonces[HS_SRV_NONCES][HS_WIRE_NONCE_SIZE]; /* AUTH_INIT nonces seen (a ring) */
    int nonces_n, nonces_next;
    int64_t refusals_t0; /* ns: the current second of refusal logging */
    int refusals_logged;
    uint64_t refusals_quiet; /* refusals not logged one by one in it */
    hs_srv_strikes strikes[HS_SRV_STRIKE_ADDRS];
    uint8_t *rx, *tx; /* HS_WIRE_HEADER_SIZE + HS_WIRE_MAX_LENGTH */
    uint8_t *io;      /* OpenFresco reads */
    size_t io_cap;
};

/* site_server_strikes.c: an OpenFresco session from `peer` ("IP:PORT") ended; `empty`: it
 * posted no target. HS_SRV_STRIKES empty ones in a row refuse the address for ten
 * openfresco.idle_timeouts (hs_srv_struck_out). */
void hs_srv_strike(hs_site_server *s, const char *peer, int empty, int64_t now);
int hs_srv_struck_out(hs_site_server *s, uint32_t addr, int64_t now);

/* site_server_bench.c */
int hs_srv_bench_create(hs_site_server *s, double dt, double time_scale, hs_srv_bench **out);
void hs_srv_bench_destroy(hs_srv_bench **b);
/* Logs a udp laboratory's counts (nothing for a virtual one): when a bench is retired. */
void hs_srv_bench_report(hs_site_server *s, hs_srv_bench *b);
/* Builds a bench and hands it to the loop; waits until the loop runs it (bounded), destroys
 * the retired one. The test record is reset for a new test. */
int hs_srv_new_test(hs_site_server *s, double dt, double time_scale, const char *who,
                    int openfresco);
/* site_server_held.c: 1 (and why, a sentence for the refusal) when a native coordinator's test
 * is held for its resume: only a native coordinator with the key may then start a test. */
int hs_srv_held(hs_site_server *s, char *why, size_t cap);
/* Destroys a bench the loop has retired, if any. */
void hs_srv_reclaim(hs_site_server *s);

/* site_server_state.c: the test's state file (site.state, docs/site_server.md). Restore (at
 * create, before the loop runs): 0 with nothing done when there is no file, the test held again
 * when there is one, HS_EINPUT naming the file when it cannot be used. Write: after a fresh
 * measurement, before it is sent (network thread). Forget: the test ended. */
int hs_srv_state_restore(hs_site_server *s);
int hs_srv_state_write(hs_site_server *s);
void hs_srv_state_forget(hs_site_server *s);

/* site_server_loop.c */
void *hs_srv_loop_main(void *arg);
int64_t hs_srv_now(void); /* ns on CLOCK_MONOTONIC */

/* site_server_log.c */
void *hs_srv_log_main(void *arg);

/* site_server_loop.c: the loop hands a measurement to the network thread and wakes it (one
 * write() of one byte to the non-blocking wake pipe, only when no wake-up is pending) */
void hs_srv_post_meas(hs_site_server *s, const hs_srv_meas *m);

/* site_server.c: the network thread's helpers */
void hs_srv_status_net(hs_site_server *s); /* publishes the network's counters */
void hs_srv_close(hs_site_server *s);      /* closes the peer being served */
/* Collects measurements from the loop into the test record (network thread). */
void hs_srv_pump(hs_site_server *s);
/* A snapshot of the status (locks). */
void hs_srv_status_copy(hs_site_server *s, hs_site_server_status *out);
/* Posts a target to the loop (after checks): HS_EPROTO if the slot is busy. */
int hs_srv_post_target(hs_site_server *s, int64_t step, double t, const double *x);
/* A native test the site has ended on its side (hold timeout: free vibration, or done in place)
 * is over: marked ended, its state file removed (nothing can resume it), said once. */
void hs_srv_check_ended(hs_site_server *s);
/* Whether the laboratory is at rest (hold or done, or before its first target). */
int hs_srv_at_rest(const hs_site_server_status *st);
/* Counters (network thread) */
void hs_srv_count(hs_site_server *s, uint64_t *counter);
void hs_srv_log_peer(hs_site_server *s, hs_log_level level, const char *fmt, ...) HS_PRINTF(3, 4);

/* Seconds as whole milliseconds for poll(), within int (the file bounds the timeouts anyway). */
static inline int hs_srv_ms(double seconds)
{
    const double ms = seconds * 1000.0;
    return ms >= 2e9 ? 2000000000 : ms > 0.0 ? (int)ms : 0;
}

/* site_server_pending.c: connections before they hold the slot */
void hs_srv_pending_accept(hs_site_server *s, int which, int fd, const char *peer);
/* Whether a refusal may be logged one by one: HS_SRV_REFUSALS_LOGGED a second, the rest summed
 * up once a second (pending peers, NEES clients refused at accept). */
int hs_srv_may_log_refusal(hs_site_server *s);
void hs_srv_pending_input(hs_site_server *s, int index);
void hs_srv_pending_poll(hs_site_server *s, int64_t now); /* deadlines */
void hs_srv_pending_close_all(hs_site_server *s);
/* Sends len bytes within timeout_ms (0: only what the socket takes now). */
int hs_srv_send_bytes(int fd, const uint8_t *buf, size_t len, int timeout_ms);
/* Our FIN, the peer's unread bytes drained (a close with unread data would reset the connection
 * and could discard the ERROR frame just sent), then close. */
void hs_srv_close_fd(int fd);

/* site_server_native.c */
/* The slot goes to an authenticated native peer (its channel and frame count move over). */
void hs_srv_native_adopt(hs_site_server *s, hs_srv_pending *p);
void hs_srv_native_input(hs_site_server *s);
void hs_srv_native_poll(hs_site_server *s, int64_t now); /* timers, measurements */
/* An authenticated native peer while the slot is taken: a sealed ERROR "busy", naming the
 * coordinator being served (only authenticated peers are ever told who it is). */
void hs_srv_native_refuse_busy(hs_site_server *s, hs_srv_pending *p);
void hs_srv_native_bye(hs_site_server *s, const char *why); /* the server stops */

/* site_server_ofr.c */
/* An OpenFresco session for a new connection (protocol A through the site's map). */
int hs_srv_ofr_session(hs_site_server *s, int proto, hs_ofr_server **ofr, hs_ofr_map **map);
/* The slot goes to an OpenFresco peer whose handshake is done (its session moves over). */
void hs_srv_ofr_adopt(hs_site_server *s, hs_srv_pending *p);
void hs_srv_ofr_input(hs_site_server *s);
void hs_srv_ofr_poll(hs_site_server *s, int64_t now);

/* site_server_nees.c: addr the peer's IPv4 address (host order), checked against nees.allow */
int hs_srv_nees_open(hs_site_server *s, int fd, const char *peer, uint32_t addr);
void hs_srv_nees_input(hs_site_server *s);
void hs_srv_nees_poll(hs_site_server *s, int64_t now);
void hs_srv_nees_destroy(hs_srv_nees **n);

#endif
