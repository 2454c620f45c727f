/* SIGINT, SIGTERM and SIGHUP during `hysim run` (docs/checkpoints.md, "Signals"): the operator's
 * stop, as the monitor's abort is. The handler only records the signal (async-signal-safe); the
 * run's progress hook, after each step, asks the coordinator to stop before the next one, so the
 * run ends `aborted` (exit 3) with every step kept in response.csv, results.h5 and summary.json,
 * with or without checkpoints (with `checkpoint_every: 0` a signal used to lose every step). The
 * handler is reset by the first signal: a second one ends the program at once, as before. */
#include "cli.h"

#include "hysim/coordinator.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t run_signal;

static void on_signal(int sig)
{
    run_signal = sig;
}

void hs_cli_run_signals_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    /* a step in progress finishes (restarted calls); a second signal kills */
    sa.sa_flags = (int)(SA_RESTART | SA_RESETHAND);
    sigemptyset(&sa.sa_mask);
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
}

void hs_cli_run_signals_check(struct hs_coordinator *c)
{
    const int sig = run_signal;
    if (!sig) return;
    hs_coordinator_request_stop(c, sig == SIGINT   ? "stopped by SIGINT (the operator)"
                                   : sig == SIGHUP ? "stopped by SIGHUP (the terminal closed)"
                                                   : "stopped by SIGTERM (the operator)");
}
