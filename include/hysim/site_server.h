/* hysim site server: one laboratory behind the site controller, on TCP (docs/site_server.md).
 *
 * Threads: the controller loop ticks the site controller on the monotonic clock at its rate
 * (SCHED_FIFO and locked memory where the system allows; sleep until shortly before each tick,
 * then spin); a network thread serves one coordinator at a time over the native protocol
 * (authenticated and sealed, hysim/secure.h) or an OpenFresco client (protocols A and B, plain
 * TCP); a writer thread logs every tick from a preallocated ring. The controller loop never
 * allocates, formats or touches a file; it never waits on the network: a silent coordinator
 * finds the site extrapolating, slowing, holding and at last unloading on its own.
 *
 * The site's description comes from a site file (hs_site_file_load): the `site` mapping holds
 * the laboratory (the keys of a test file's `sites.NAME`) and the server's own keys (listen,
 * key or plain, heartbeat, timeout, openfresco, ...). The NEES ASCII protocol's port and control
 * points are the laboratory's `nees` section (site.nees, hysim/nees.h; docs/nees.md). */
#ifndef HYSIM_SITE_SERVER_H
#define HYSIM_SITE_SERVER_H

#include "hysim/base.h"
#include "hysim/secure.h"
#include "hysim/rt_loop.h"
#include "hysim/site.h"
#include "hysim/site_controller.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HS_SITE_SERVER_MAX_BASIC 32 /* OpenFresco basic DOFs (protocol A) */

/* Bounds of the server's times (s; each must be > 0 and at most this; the site file refuses
 * others with FILE:LINE:COL and the range, hs_site_server_create with the range). */
#define HS_SITE_SERVER_HEARTBEAT_MAX     60.0
#define HS_SITE_SERVER_TIMEOUT_MAX       3600.0
#define HS_SITE_SERVER_FRAME_TIMEOUT_MAX 60.0
#define HS_SITE_SERVER_SPIN_MAX          0.01
#define HS_SITE_SERVER_LATE_MAX          1.0
#define HS_SITE_SERVER_STEP_TIME_MAX     3600.0
#define HS_SITE_SERVER_IDLE_TIMEOUT_MAX  86400.0
/* The tick log is kept in two files of at most this many bytes each by default (FILE, and
 * FILE.1 with the ticks before); see docs/site_server.md. */
#define HS_SITE_SERVER_LOG_MAX_DEFAULT (256.0 * 1024 * 1024)
#define HS_SITE_SERVER_LOG_MIN         4096.0

typedef struct hs_site_server_config {
    hs_site_config site; /* the laboratory; option pointers lent by the site file */
    char host[64];       /* listen address (numeric IPv4), default 127.0.0.1 */
    int port;            /* native protocol port; 0: any free port (read it back) */
    hs_secure_mode mode; /* HS_SECURE_PSK (key file) or HS_SECURE_PLAIN (explicit) */
    uint8_t key[HS_SECURE_KEY_SIZE];
    double min_time_scale; /* least wall s per simulated s the site accepts (0: any) */
    double heartbeat;      /* s between HEARTBEAT frames (default 1) */
    double timeout;        /* s of silence after which a peer is lost (default 5) */
    double frame_timeout;  /* s for the rest of a frame once begun, and for a new connection's
                              whole handshake (default 2) */
    double spin;           /* s of spinning before each tick; 0 (default): chosen at start from
                              the measured wake-up latency (hysim/rt_loop.h) */
    double late;           /* a tick starting later than this after its deadline is late
                              (s; default a quarter of the period) */
    int realtime;          /* try SCHED_FIFO and mlockall (default 1) */
    /* OpenFresco (plain TCP): ports (-1 off, 0 any free port), the map T (nact x nbasic, row
     * by row; identity when not given), mass and damping in basic DOFs (nbasic x nbasic, row by
     * row; zero when not given), the wall time a step (one trial) takes at the controller */
    int ofa_port, ofb_port;
    int nbasic;
    double T[HS_SITE_MAX_ACT * HS_SITE_SERVER_MAX_BASIC];
    double mass[HS_SITE_SERVER_MAX_BASIC * HS_SITE_SERVER_MAX_BASIC];
    double damping[HS_SITE_SERVER_MAX_BASIC * HS_SITE_SERVER_MAX_BASIC];
    double of_step_time;    /* default 0.05 s */
    double of_idle_timeout; /* s of silence after which an OpenFresco client is dropped (60) */
    const char *log_path;   /* tick log (CSV); NULL: none */
    double log_max;         /* bytes a tick log file may reach before it is rotated to
                               log_path.1 (default HS_SITE_SERVER_LOG_MAX_DEFAULT) */
    /* the test's state file (site.state): written before each measurement is sent, read at
     * start, so that a restarted site process holds its test for a resume; "" none */
    char state_path[1024];
    int once; /* stop serving after the first test ends */
    /* the site file's identity (hs_site_file_load*): its name and the BLAKE2b hash of its bytes.
     * The state file records the hash; a held test is restored only under the same site file. */
    char site_file[256];
    uint8_t site_hash[32];
    int release; /* the operator releases the test held in the state file: it is removed and
                    the site starts without a test (`hysim site --release`) */
} hs_site_server_config;

/* Defaults for everything but the laboratory. */
void hs_site_server_config_default(hs_site_server_config *c);

/* ---- the site file ---- */
typedef struct hs_site_file hs_site_file;
/* Reads a site file: errors as FILE:LINE:COL: message (HS_EINPUT). The key file named by
 * `site.key` is read (relative to the site file's folder). */
int hs_site_file_load(hs_ctx *ctx, const char *path, hs_site_file **out);
int hs_site_file_load_string(hs_ctx *ctx, const char *text, size_t len, const char *name,
                             hs_site_file **out);
/* The configuration (lent; may be modified by the caller before hs_site_server_create). */
hs_site_server_config *hs_site_file_config(hs_site_file *f);
void hs_site_file_destroy(hs_site_file **f);

/* ---- the server ---- */
typedef struct hs_site_server hs_site_server;

enum { HS_SITE_PORT_NATIVE = 0, HS_SITE_PORT_OFA = 1, HS_SITE_PORT_OFB = 2, HS_SITE_PORT_NEES = 3 };

/* Builds the laboratory and binds the ports (cfg is copied; its options must outlive the
 * server). Nothing runs until hs_site_server_start. */
int hs_site_server_create(hs_ctx *ctx, const hs_site_server_config *cfg, hs_site_server **out);
/* Starts the controller loop, the writer and the network thread. Logs (warning) when real-time
 * scheduling or memory locking is not available. */
int hs_site_server_start(hs_site_server *s);
/* The bound port (-1 when off). */
int hs_site_server_port(const hs_site_server *s, int which);
/* 1 once the server has finished on its own (`once`: the first test ended). */
int hs_site_server_finished(const hs_site_server *s);
/* Stops serving (peers are told), brings the laboratory to rest (the controller runs until it
 * holds or is done, at most `rest_timeout` s), joins the threads, flushes the log. */
int hs_site_server_stop(hs_site_server *s, double rest_timeout);
/* The operator's abort (SIGINT/SIGTERM to `hysim site`, the monitor's abort): the controller
 * latches a trip (HS_SITE_LIMIT_ABORT), holds and unloads under control
 * (docs/site_controller.md); the coordinator receives the trip with its measurement, or as the
 * refusal of its next target, and ends its run as aborted. Returns at once; watch
 * hs_site_server_status.unload. Safe from any thread. */
void hs_site_server_abort(hs_site_server *s);
void hs_site_server_destroy(hs_site_server **s); /* stops first when running */

typedef struct hs_site_server_status {
    /* controller loop */
    int64_t ticks;       /* ticks run */
    int64_t spun_ticks;  /* of which a test was active (spun to the deadline): the late figures' */
    int64_t late_ticks;  /* ticks that started later than `late` after their deadline */
    double late_max;     /* s, largest start delay */
    double late_mean;    /* s, mean start delay */
    double late_p99;     /* s, 99th percentile of the start delay (histogram bound) */
    int realtime;        /* SCHED_FIFO granted */
    int locked;          /* mlockall granted */
    int latency_request; /* a 0 us PM QoS request held on /dev/cpu_dma_latency */
    double spin;         /* s, the spin margin in use */
    int spin_calibrated; /* 1: chosen from the wake-up latency measured at start; 0: the file's */
    double wake_p99, wake_max; /* s, the calibration's wake-up latency (0 when not calibrated) */
    /* late ticks by cause (HS_RT_WAKE_LATE, HS_RT_OVERRAN, HS_RT_CATCH_UP, HS_RT_PREEMPTED of
     * hysim/rt_loop.h; entry 0 unused): they add up to late_ticks */
    int64_t late_by_cause[HS_RT_NCAUSES];
    /* laboratory */
    int state;   /* hs_cmdgen_state of the controller */
    int moving;  /* the command moves within the limits: to a new test's start, from the rig to
                  * the rest or to a restored test's held command (hs_site_controller_moving) */
    int tripped; /* HS_SITE_LIMIT_* of a latched trip */
    int unload;  /* HS_SITE_UNLOAD_* after a trip (hysim/site_controller.h) */
    hs_site_report trip;       /* that trip: limit, channel, value, cause (when tripped) */
    double x[HS_SITE_MAX_ACT]; /* the actuators' true positions */
    double f[HS_SITE_MAX_ACT]; /* the specimen's true forces */
    double command[HS_SITE_MAX_ACT];
    int64_t generation;  /* laboratory built for the current test (0: the first) */
    double hold_timeout; /* s the controller holds without a target before it unloads (0: ever) */
    double hold_left;    /* s before that would happen (INFINITY: nothing times out now) */
    /* network */
    int64_t last_step;      /* last target step applied (-1: none) */
    int64_t last_committed; /* last committed step (-1: none) */
    uint64_t sessions;      /* peers served past their handshake */
    uint64_t refused;       /* peers refused (bad frames, wrong key, negotiation) */
    uint64_t busy;          /* peers refused because a test was running */
    uint64_t lost;          /* coordinators declared lost (silent beyond the timeout) */
    uint64_t holds;         /* HOLDs taken from the test's coordinator (its operator's pauses) */
    int connected;          /* a peer is being served */
    int test_ended;         /* the last test ended (its coordinator said BYE) */
    uint64_t log_dropped;   /* tick records the writer could not keep up with (or write) */
    uint64_t log_rotations; /* times the tick log reached log_max and was moved to FILE.1 */
} hs_site_server_status;

void hs_site_server_status_get(hs_site_server *s, hs_site_server_status *out);

#ifdef __cplusplus
}
#endif
#endif
