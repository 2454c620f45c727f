/* hysim site --config SITE.yaml [--log FILE [--log-max MiB]] [--once]: serves one laboratory
 * (docs/site_server.md) until SIGINT or SIGTERM (or, with --once, until the first test ends); the
 * laboratory is brought to rest before the program exits. The tick log is kept in FILE and
 * FILE.1 of at most --log-max MiB each (default 256). */
#include "cli.h"
#include "cli_monitor.h"

#include "hysim/site_server.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t hs_cli_site_signal;

static void on_signal(int sig)
{
    hs_cli_site_signal = sig;
}

static void log_line(void *user, hs_log_level level, const char *message)
{
    (void)user;
    fprintf(stderr, "hysim site: %s%s\n",
            level == HS_LOG_ERROR  ? "error: "
            : level == HS_LOG_WARN ? "warning: "
                                   : "",
            message);
}

/* The operator's abort of a running test (a signal, the monitor): the site holds and unloads
 * under control (docs/site_controller.md) while the network thread still serves the coordinator,
 * which receives the trip and ends its run as aborted; returns once the unloading has settled and
 * the coordinator has left (or HS_CLI_ABORT_WAIT s). A site without a test, or whose test has
 * ended, stops at once. */
#define HS_CLI_ABORT_WAIT 120.0
static void abort_test(hs_site_server *srv)
{
    hs_site_server_status st;
    hs_site_server_status_get(srv, &st);
    if ((!st.connected && st.last_step < 0) || st.test_ended) return;
    hs_site_server_abort(srv);
    const struct timespec pause = {0, 20000000};
    int settled_at = -1;
    for (int k = 0; k < (int)(HS_CLI_ABORT_WAIT / 0.02); k++) {
        nanosleep(&pause, NULL);
        hs_site_server_status_get(srv, &st);
        const int settled =
            st.tripped && (st.unload == HS_SITE_UNLOAD_DONE || st.unload == HS_SITE_UNLOAD_STROKE ||
                           st.unload == HS_SITE_UNLOAD_HELD);
        if (settled && settled_at < 0) {
            settled_at = k;
            fprintf(stderr, "hysim site: the laboratory is at rest after the abort (%s)\n",
                    st.unload == HS_SITE_UNLOAD_DONE     ? "unloaded"
                    : st.unload == HS_SITE_UNLOAD_STROKE ? "unloading stopped before the stroke"
                                                         : "held, not unloaded");
        }
        /* the coordinator has been told (it leaves), or 2 s more for it to ask */
        if (settled_at >= 0 && (!st.connected || k - settled_at > 100)) return;
    }
}

int hs_cli_site(int argc, char **argv)
{
    const char *config = NULL, *log = NULL, *monitor = NULL;
    int once = 0, release = 0;
    double log_mb = HS_SITE_SERVER_LOG_MAX_DEFAULT / (1024.0 * 1024.0);
    for (int i = 1; i < argc; i++) {
        if (hs_cli_is_help(argv[i])) {
            printf("usage: hysim site --config SITE.yaml [--log FILE] [--once]\n"
                   "  serves one laboratory (docs/site_server.md) until SIGINT or SIGTERM; the\n"
                   "  laboratory is brought to rest before the program exits\n"
                   "  --log FILE  one line per controller tick (docs/site_server.md)\n"
                   "  --once      ends after the first test\n"
                   "  --release   gives up the test held in site.state (its coordinator can no\n"
                   "              longer resume it; docs/site_server.md)\n");
            return HS_EXIT_OK;
        }
        if (strcmp(argv[i], "--config") == 0 && i + 1 < argc)
            config = argv[++i];
        else if (strcmp(argv[i], "--log") == 0 && i + 1 < argc)
            log = argv[++i];
        else if (strcmp(argv[i], "--monitor") == 0 && i + 1 < argc)
            monitor = argv[++i];
        else if (strcmp(argv[i], "--log-max") == 0 && i + 1 < argc) {
            char *end = NULL;
            log_mb = strtod(argv[++i], &end);
            if (end == argv[i] || *end || !(log_mb >= 0.01 && log_mb <= 1e6)) {
                fprintf(stderr,
                        "hysim site: --log-max '%s': give the size of a tick log file in MiB, "
                        "from 0.01 to 1e6 (default %g)\n",
                        argv[i], HS_SITE_SERVER_LOG_MAX_DEFAULT / (1024.0 * 1024.0));
                return HS_EXIT_INPUT;
            }
        } else if (strcmp(argv[i], "--once") == 0)
            once = 1;
        else if (strcmp(argv[i], "--release") == 0)
            release = 1;
        else {
            fprintf(stderr, "hysim site: unknown argument '%s'\n", argv[i]);
            config = NULL;
            break;
        }
    }
    if (!config) {
        fprintf(stderr, "usage: hysim site --config SITE.yaml [--log FILE [--log-max MiB]] "
                        "[--once] [--release] [--monitor [HOST:]PORT]\n");
        return HS_EXIT_INPUT;
    }
    hs_ctx *ctx = NULL;
    if (hs_ctx_create(&ctx)) return HS_EXIT_FAILED;
    hs_ctx_set_logger(ctx, log_line, NULL, HS_LOG_INFO);
    hs_site_file *file = NULL;
    hs_site_server *srv = NULL;
    hs_cli_monitor *mon = NULL;
    int code = HS_EXIT_OK, aborted = 0;
    int rc = hs_site_file_load(ctx, config, &file);
    if (rc) {
        fprintf(stderr, "hysim site: %s\n", hs_ctx_message(ctx));
        code = rc == HS_EINPUT || rc == HS_EIO ? HS_EXIT_INPUT : HS_EXIT_FAILED;
        goto done;
    }
    hs_site_server_config *cfg = hs_site_file_config(file);
    cfg->log_path = log;
    cfg->log_max = log_mb * 1024.0 * 1024.0;
    cfg->once = once;
    cfg->release = release;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    rc = hs_site_server_create(ctx, cfg, &srv);
    if (!rc) rc = hs_site_server_start(srv);
    if (rc) {
        fprintf(stderr, "hysim site: %s\n", hs_ctx_message(ctx));
        code = rc == HS_EINPUT ? HS_EXIT_INPUT : HS_EXIT_FAILED; /* e.g. a state file */
        goto done;
    }
    printf("hysim site %s: listening on %s:%d (native protocol, %s)", cfg->site.name, cfg->host,
           hs_site_server_port(srv, HS_SITE_PORT_NATIVE),
           cfg->mode == HS_SECURE_PLAIN ? "plain, no authentication" : "authenticated");
    if (hs_site_server_port(srv, HS_SITE_PORT_OFA) >= 0)
        printf(", %d (OpenFresco A)", hs_site_server_port(srv, HS_SITE_PORT_OFA));
    if (hs_site_server_port(srv, HS_SITE_PORT_OFB) >= 0)
        printf(", %d (OpenFresco B)", hs_site_server_port(srv, HS_SITE_PORT_OFB));
    if (hs_site_server_port(srv, HS_SITE_PORT_NEES) >= 0)
        printf(", %d (NEES, no authentication)", hs_site_server_port(srv, HS_SITE_PORT_NEES));
    printf("\n");
    fflush(stdout);
    if (monitor && hs_cli_monitor_site_start(ctx, monitor, cfg, &mon)) {
        fprintf(stderr, "hysim site: %s\n", hs_ctx_message(ctx));
        code = HS_EXIT_INPUT;
        hs_site_server_stop(srv, 10.0);
        goto done;
    }
    const struct timespec pause = {0, 50000000};
    while (!hs_cli_site_signal && !hs_site_server_finished(srv) && !aborted) {
        nanosleep(&pause, NULL);
        if (mon) aborted = hs_cli_monitor_site_poll(mon, srv, cfg);
    }
    if (aborted)
        fprintf(stderr, "hysim site: aborted by the operator from the monitor page: stopping, "
                        "bringing the laboratory to rest\n");
    else if (hs_cli_site_signal)
        fprintf(stderr, "hysim site: %s: stopping, bringing the laboratory to rest\n",
                hs_cli_site_signal == SIGINT ? "SIGINT" : "SIGTERM");
    if (aborted || hs_cli_site_signal) abort_test(srv);
    if (hs_site_server_stop(srv, 10.0)) code = HS_EXIT_FAILED;
    hs_site_server_status st;
    hs_site_server_status_get(srv, &st);
    fprintf(
        stderr,
        "hysim site: %lld ticks, %lld of an active test, %lld late (%lld wake-up late, %lld work "
        "overran, %lld "
        "catch-up, %lld preempted; start delay mean %.1f us, p99 <= %.0f us, max %.1f us; "
        "spin %.1f us); %llu session(s), %llu refused, %llu busy, %llu lost\n",
        (long long)st.ticks, (long long)st.spun_ticks, (long long)st.late_ticks,
        (long long)st.late_by_cause[HS_RT_WAKE_LATE], (long long)st.late_by_cause[HS_RT_OVERRAN],
        (long long)st.late_by_cause[HS_RT_CATCH_UP], (long long)st.late_by_cause[HS_RT_PREEMPTED],
        1e6 * st.late_mean, 1e6 * st.late_p99, 1e6 * st.late_max, 1e6 * st.spin,
        (unsigned long long)st.sessions, (unsigned long long)st.refused,
        (unsigned long long)st.busy, (unsigned long long)st.lost);
    if (log)
        fprintf(stderr,
                "hysim site: tick log %s: %llu rotation(s) to %s.1 (files of at most %g MiB), "
                "%llu record(s) dropped\n",
                log, (unsigned long long)st.log_rotations, log, log_mb,
                (unsigned long long)st.log_dropped);
    if (aborted && code == HS_EXIT_OK) code = HS_EXIT_ABORTED;
    hs_cli_monitor_end(&mon, aborted ? "aborted" : "stopped",
                       aborted ? "aborted by the operator from the monitor page" : "");
done:
    hs_cli_monitor_end(&mon, "stopped", "");
    hs_site_server_destroy(&srv);
    hs_site_file_destroy(&file);
    hs_ctx_destroy(&ctx);
    return code;
}
