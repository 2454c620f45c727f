/* An example compensator plug-in (include/hysim/compensator_plugin.h): a model-based feedforward
 * with a proportional feedback, for actuators whose response to a command is close to a pure
 * delay tau (a servo-hydraulic actuator at low frequency: the RTHS benchmark's plant, 25 ms).
 * The feedforward inverts a first-order model of the actuator, x_m' = (x_c - x_m) / tau, with the
 * target's velocity from a backward difference; the feedback corrects the remaining error:
 *     x_c(k) = x_t(k) + tau v_t(k) + kp (x_t(k) - x_m(k))
 * (The second-order Taylor inverse of a pure delay, adding tau^2 / 2 a_t, amplifies the
 * structure's higher modes: on the RTHS benchmark's plant it fails within 3 s.)
 * Options (the site file's `options` string): tau=SECONDS (default 0.025) kp=GAIN (default 0).
 * Built by CMake as the MODULE build/.../compensators/libhysim_compensator_feedforward_p.so; it
 * needs only the C library (docs/rths_benchmark.md, "A compensator plug-in"). */
#include "hysim/compensator_plugin.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ffp {
    double h, tau, kp;
    double x1; /* x_t(k-1) */
} ffp;

/* "tau=0.025 kp=0.2": 0, or -1 with a sentence in err */
static int parse(ffp *c, const char *options, char *err, size_t cap)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", options);
    for (char *save = NULL, *tok = strtok_r(buf, " \t", &save); tok;
         tok = strtok_r(NULL, " \t", &save)) {
        char *eq = strchr(tok, '='), *end = NULL;
        const double v = eq ? strtod(eq + 1, &end) : NAN;
        if (!eq || end == eq + 1 || *end || !isfinite(v)) {
            snprintf(err, cap, "option '%s': write NAME=NUMBER (tau=0.025 kp=0.2)", tok);
            return -1;
        }
        if (strncmp(tok, "tau=", 4) == 0 && v >= 0.0)
            c->tau = v;
        else if (strncmp(tok, "kp=", 3) == 0 && v >= 0.0)
            c->kp = v;
        else {
            snprintf(err, cap, "option '%s': known are tau (s, >= 0) and kp (>= 0)", tok);
            return -1;
        }
    }
    return 0;
}

static void *ffp_open(int actuator, double rate, const char *options, char *err, size_t cap)
{
    (void)actuator;
    ffp *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, cap, "out of memory");
        return NULL;
    }
    c->h = 1.0 / rate;
    c->tau = 0.025;
    if (parse(c, options, err, cap)) {
        free(c);
        return NULL;
    }
    return c;
}

static int ffp_tick(void *handle, double x_t, double x_m, double f_m, double *command)
{
    (void)f_m;
    ffp *c = handle;
    const double v = (x_t - c->x1) / c->h;
    *command = x_t + c->tau * v + c->kp * (x_t - x_m);
    c->x1 = x_t;
    return 0;
}

static void ffp_close(void *handle)
{
    free(handle);
}

static const hysim_compensator table = {.abi_version = HYSIM_COMPENSATOR_ABI_VERSION,
                                        .name = "feedforward_p",
                                        .open = ffp_open,
                                        .tick = ffp_tick,
                                        .close = ffp_close};

const hysim_compensator *hysim_compensator_v1(void)
{
    return &table;
}
