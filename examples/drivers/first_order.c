/* An example hysim laboratory driver (include/hysim/driver.h) that needs no hardware: each
 * actuator is the first-order servo loop of the virtual laboratory (Chen & Ricles 2010),
 *   x(k+1) = x(k) + (u(k) - x(k)) / a,
 * pushing a linear spring specimen, f = k x, one spring per actuator. Options: "a=4 k=2.5
 * x0=1.2e-3" (a >= 1 samples, default 1: perfect tracking; k, default 1; x0, default 0: where every
 * actuator rests when the driver opens, as a rig left displaced, read by the site before its first
 * command). Start a real driver from
 * docs/lab_backends.md's skeleton; this one shows the shape and is what the tests load. */
#include "hysim/driver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ACT 16

typedef struct rig {
    int n;
    double a, k;
    double x[MAX_ACT], u[MAX_ACT];
    int64_t tick;
} rig;

/* "NAME=VALUE" in a space-separated options string; def when absent; NAN when malformed. */
static double option(const char *options, const char *name, double def)
{
    const size_t len = strlen(name);
    for (const char *p = options; p && *p;) {
        while (*p == ' ') p++;
        if (strncmp(p, name, len) == 0 && p[len] == '=') {
            char *end = NULL;
            const double v = strtod(p + len + 1, &end);
            return end != p + len + 1 && (*end == ' ' || *end == '\0') ? v : NAN;
        }
        p = strchr(p, ' ');
    }
    return def;
}

static void *fo_open(int nact, double rate, const char *options, char *err, size_t cap)
{
    const double a = option(options, "a", 1.0), k = option(options, "k", 1.0),
                 x0 = option(options, "x0", 0.0);
    if (nact < 1 || nact > MAX_ACT || !(rate > 0.0)) {
        snprintf(err, cap, "first_order: 1..%d actuators and a rate > 0 (got %d, %g)", MAX_ACT,
                 nact, rate);
        return NULL;
    }
    if (!(a >= 1.0) || !isfinite(k) || !isfinite(x0)) {
        snprintf(err, cap,
                 "first_order: options \"%s\": need a=NUMBER >= 1, k=NUMBER and x0=NUMBER",
                 options);
        return NULL;
    }
    rig *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, cap, "first_order: out of memory");
        return NULL;
    }
    r->n = nact;
    r->a = a;
    r->k = k;
    for (int i = 0; i < nact; i++) r->x[i] = r->u[i] = x0;
    return r;
}

static int fo_write(void *h, const double *cmd)
{
    rig *r = h;
    memcpy(r->u, cmd, (size_t)r->n * sizeof *cmd);
    for (int i = 0; i < r->n; i++) r->x[i] += (r->u[i] - r->x[i]) / r->a;
    r->tick++;
    return 0;
}

static int fo_read(void *h, double *x, double *f, uint32_t *status, int64_t *ctrl_tick)
{
    const rig *r = h;
    for (int i = 0; i < r->n; i++) {
        x[i] = r->x[i];
        f[i] = r->k * r->x[i];
    }
    *status = 0;
    *ctrl_tick = r->tick;
    return 0;
}

static void fo_close(void *h)
{
    free(h);
}

static const hysim_driver table = {.abi_version = HYSIM_DRIVER_ABI_VERSION,
                                   .name = "first_order",
                                   .open = fo_open,
                                   .write = fo_write,
                                   .read = fo_read,
                                   .close = fo_close};

const hysim_driver *hysim_driver_v1(void);
const hysim_driver *hysim_driver_v1(void)
{
    return &table;
}
