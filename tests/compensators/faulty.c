/* A faulty compensator plug-in for tests/test_compensator_plugin.c: passes the target through,
 * then from tick `at` on misbehaves as `fault` says: nan (returns NaN), jump (returns the target
 * plus `size`), error (returns -1). Options: "fault=nan|jump|error at=N size=X". */
#include "hysim/compensator_plugin.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct faulty {
    char fault[16];
    long at, ticks;
    double size;
} faulty;

static void *f_open(int actuator, double rate, const char *options, char *err, size_t cap)
{
    (void)actuator;
    (void)rate;
    faulty *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->size = 1.0;
    if (sscanf(options, "fault=%15s at=%ld size=%lf", c->fault, &c->at, &c->size) < 2) {
        snprintf(err, cap, "options: fault=nan|jump|error at=N [size=X]");
        free(c);
        return NULL;
    }
    return c;
}

static int f_tick(void *handle, double x_t, double x_m, double f_m, double *command)
{
    (void)x_m;
    (void)f_m;
    faulty *c = handle;
    *command = x_t;
    if (++c->ticks < c->at) return 0;
    if (strcmp(c->fault, "nan") == 0) *command = NAN;
    if (strcmp(c->fault, "jump") == 0) *command = x_t + c->size;
    return strcmp(c->fault, "error") == 0 ? -1 : 0;
}

static void f_close(void *handle)
{
    free(handle);
}

static const hysim_compensator table = {.abi_version = HYSIM_COMPENSATOR_ABI_VERSION,
                                        .name = "faulty",
                                        .open = f_open,
                                        .tick = f_tick,
                                        .close = f_close};

const hysim_compensator *hysim_compensator_v1(void)
{
    return &table;
}
