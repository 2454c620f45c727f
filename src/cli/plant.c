/* hysim plant --config PLANT.yaml: plays a laboratory behind the udp back end
 * (docs/lab_backends.md, include/hysim/plant.h) until SIGINT or SIGTERM. Prints "plant listening on
 * HOST:PORT" once bound, and its counts when it stops. */
#include "cli.h"

#include "hysim/plant.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t hs_cli_plant_signal;

static void on_signal(int sig)
{
    hs_cli_plant_signal = sig;
}

static void ready(void *user, int port)
{
    const hs_plant_config *c = user;
    if (port < 0) {
        printf("plant serving shm %s (%g Hz, %d actuator(s))\n", c->shm.name, c->lab.rate,
               c->lab.nact);
        fflush(stdout);
        return;
    }
    char host[64];
    snprintf(host, sizeof host, "%s", c->listen);
    char *colon = strrchr(host, ':');
    if (colon) *colon = '\0';
    printf("plant listening on %s:%d (udp, %g Hz, %d actuator(s))\n", host, port, c->lab.rate,
           c->lab.nact);
    fflush(stdout);
}

/* "X[,X...]": one number per actuator, or one for all; the count, or -1 when malformed. */
static int parse_start(const char *text, double *x)
{
    int n = 0;
    for (const char *p = text; n < HS_LAB_MAX_ACT; n++) {
        char *end = NULL;
        x[n] = strtod(p, &end);
        if (end == p || !isfinite(x[n]) || (*end != ',' && *end != '\0')) return -1;
        if (*end == '\0') return n + 1;
        p = end + 1;
    }
    return -1;
}

int hs_cli_plant(int argc, char **argv)
{
    const char *config = NULL, *start = NULL;
    for (int i = 1; i < argc; i++) {
        if (hs_cli_is_help(argv[i])) {
            printf(
                "usage: hysim plant --config PLANT.yaml [--start X[,X...]]\n"
                "  plays a servo-hydraulic controller, its actuators and specimen behind udp\n"
                "  (plant: {listen, packets}) or shm (plant: {lab: {kind: shm, name}})\n"
                "  (docs/lab_backends.md) until SIGINT or SIGTERM\n"
                "  --start X[,X...]  where the actuators rest before any command, one value\n"
                "                    per actuator (or one for all), in the test's length units\n");
            return HS_EXIT_OK;
        }
        if (strcmp(argv[i], "--config") == 0 && i + 1 < argc)
            config = argv[++i];
        else if (strcmp(argv[i], "--start") == 0 && i + 1 < argc)
            start = argv[++i];
        else {
            fprintf(stderr, "hysim plant: unknown argument '%s'\n", argv[i]);
            config = NULL;
            break;
        }
    }
    if (!config) {
        fprintf(stderr, "usage: hysim plant --config PLANT.yaml\n");
        return HS_EXIT_INPUT;
    }
    hs_ctx *ctx = NULL;
    if (hs_ctx_create(&ctx)) return HS_EXIT_FAILED;
    hs_plant_file *file = NULL;
    int code = HS_EXIT_OK;
    int rc = hs_plant_file_load(ctx, config, &file);
    if (rc) {
        fprintf(stderr, "hysim plant: %s\n", hs_ctx_message(ctx));
        code = rc == HS_EINPUT || rc == HS_EIO ? HS_EXIT_INPUT : HS_EXIT_FAILED;
    } else {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        hs_plant_counts k;
        memset(&k, 0, sizeof k);
        hs_plant_config *c = hs_plant_file_config(file);
        const int nlab = c->lab.has_setup ? c->lab.setup.nact : c->lab.nact;
        double x[HS_LAB_MAX_ACT];
        const int ns = start ? parse_start(start, x) : 0;
        if (start && ns != 1 && ns != nlab) {
            fprintf(stderr,
                    "hysim plant: --start '%s': give one number per actuator (%d, separated by "
                    "commas) or one for all, in the test's length units\n",
                    start, nlab);
            hs_plant_file_destroy(&file);
            hs_ctx_destroy(&ctx);
            return HS_EXIT_INPUT;
        }
        for (int j = 0; start && j < nlab; j++) c->start[j] = x[ns == 1 ? 0 : j];
        rc = hs_plant_run(ctx, c, &hs_cli_plant_signal, ready, c, &k);
        if (rc) {
            fprintf(stderr, "hysim plant: %s\n", hs_ctx_message(ctx));
            code = HS_EXIT_FAILED;
        }
        fprintf(stderr,
                "hysim plant: %lld commands answered, %lld replies sent, %lld ticks (%lld without "
                "a command), %lld peer(s) served (%lld seen to end), ignored: %lld malformed, "
                "%lld duplicated, %lld out of order, %lld foreign\n",
                (long long)k.commands, (long long)k.replies, (long long)k.ticks,
                (long long)k.idle_ticks, (long long)k.peers, (long long)k.peers_ended,
                (long long)k.malformed, (long long)k.duplicated, (long long)k.out_of_order,
                (long long)k.foreign);
    }
    hs_plant_file_destroy(&file);
    hs_ctx_destroy(&ctx);
    return code;
}
