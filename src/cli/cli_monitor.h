/* The live monitor of `hysim run --monitor` and `hysim site --monitor` (docs/monitor.md): the
 * program's side of include/hysim/monitor.h. */
#ifndef HS_CLI_MONITOR_H
#define HS_CLI_MONITOR_H

#include "hysim/coordinator.h"
#include "hysim/monitor.h"
#include "hysim/site_server.h"

typedef struct hs_cli_monitor hs_cli_monitor;

/* Starts the page of a test and prints its address and token on stderr. */
int hs_cli_monitor_run_start(hs_ctx *ctx, const char *listen, const hs_test_def *def,
                             hs_coordinator *c, hs_cli_monitor **out);
/* From the step loop's progress callback, after each committed step: publishes a sample a few
 * dozen times a second (never waits on the page), holds while the operator pauses, and asks the
 * coordinator to stop on an abort. */
void hs_cli_monitor_run_step(hs_cli_monitor *m);
/* Starts the page of a site server (site_monitor.c). */
int hs_cli_monitor_site_start(hs_ctx *ctx, const char *listen, const hs_site_server_config *cfg,
                              hs_cli_monitor **out);
/* Publishes the server's status; 1 when the operator aborted (the server is to stop). */
int hs_cli_monitor_site_poll(hs_cli_monitor *m, hs_site_server *srv,
                             const hs_site_server_config *cfg);
/* Sends the end (status, reason) to the pages and stops the server. */
void hs_cli_monitor_end(hs_cli_monitor **m, const char *status, const char *reason);

/* Shared by both (run_monitor.c) */
hs_cli_monitor *hs_cli_monitor_new(hs_ctx *ctx, const char *listen, const hs_monitor_layout *l);
hs_monitor *hs_cli_monitor_server(hs_cli_monitor *m);
/* |x| / limit, 0 when there is no limit. */
double hs_cli_monitor_use(double x, double limit);

#endif
