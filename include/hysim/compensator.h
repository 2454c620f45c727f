/* hysim actuator delay compensation, one object per actuator, stepped at the controller rate.
 * Each tick k takes the desired displacement x_t(k) (from the command generator) and the
 * displacement measured at that instant x_m(k) (before the command is sent), and returns the
 * command x_c(k) to send to the actuator. Registered types (see docs/compensation.md):
 *  none:             x_c(k) = x_t(k)
 *  polynomial:       Horiuchi et al. (1999): the cubic through x_t(k), x_t(k-1), x_t(k-2),
 *                    x_t(k-3) evaluated r samples ahead (options delay [samples] or
 *                    delay_s [seconds])
 *  inverse:          Chen & Ricles 2010, eq. 1 with delta_a = 0, Gc(z) = (a_es z - (a_es - 1)) / z:
 *                    x_c(k) = a_es x_t(k) - (a_es - 1) x_t(k-1)   (options a_es, a_min)
 *  adaptive_inverse: Chen & Ricles 2010, eq. 1-3: a_es + delta_a, delta_a = kp TI + ki int TI dt,
 * TI the tracking indicator of x_t against x_m (options a_es, kp, ki, ti_lag, a_min, a_max) a_es is
 * counted in controller samples (the unit of the actuator's `a` in hysim/lab.h), so with Gp(z) = 1
 * / (a z - (a - 1)) and a_es = a, Gc Gp = 1/z. Everything is allocated at creation; ticks never
 * allocate. */
#ifndef HYSIM_COMPENSATOR_H
#define HYSIM_COMPENSATOR_H

#include "hysim/base.h"
#include "hysim/options.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hs_compensator hs_compensator;

/* `rate`: controller rate in Hz (> 0), the rate at which hs_compensator_tick is called. The
 * compensator starts at rest at 0 (hs_compensator_reset to start elsewhere). */
int hs_compensator_create(hs_ctx *ctx, const char *type, const hs_options *opts, double rate,
                          hs_compensator **out);
void hs_compensator_destroy(hs_compensator **c); /* NULL-safe, sets *c = NULL */
/* One controller sample: desired x_t(k), measured x_m(k) -> command x_c(k). Never allocates. */
double hs_compensator_tick(hs_compensator *c, double x_desired, double x_measured);
/* The same with the force measured at that instant, which a plug-in receives (the built-in
 * compensators ignore it). The site controller ticks its compensators this way. */
double hs_compensator_tick_force(hs_compensator *c, double x_desired, double x_measured,
                                 double f_measured);
/* A compensator plug-in (hysim/compensator_plugin.h) for actuator `actuator`: the shared library
 * at `path` (no slash: the working folder), its options string; type "plugin". Loaded by a site
 * file only. HS_EINPUT with a sentence saying what to do when the library is not a plug-in of
 * this ABI or its open fails. A tick whose plug-in returns an error gives NaN from then on (the
 * site's limits trip on it). */
int hs_compensator_plugin_create(hs_ctx *ctx, const char *path, const char *options, int actuator,
                                 double rate, hs_compensator **out);
/* At rest at x0: past desired commands = x0, delta_a = 0, TI and its integral = 0. */
void hs_compensator_reset(hs_compensator *c, double x0);
/* The compensation parameter used by the last tick (samples): inverse: a_es (clamped);
 * adaptive_inverse: a_es + delta_a (clamped); polynomial: 1 + r (the a_es of an inverse
 * compensator with the same low-frequency lead, r samples); none: 1. */
double hs_compensator_a_es(const hs_compensator *c);
double hs_compensator_delta_a(const hs_compensator *c); /* adaptive_inverse; 0 for the others */
double hs_compensator_ti(const hs_compensator *c);      /* adaptive_inverse's TI; 0 otherwise */
const char *hs_compensator_type(const hs_compensator *c);
double hs_compensator_rate(const hs_compensator *c);
size_t hs_compensator_state_size(const hs_compensator *c);
int hs_compensator_state_save(const hs_compensator *c, double *out);
int hs_compensator_state_load(hs_compensator *c, const double *in);

typedef struct hs_compensator_entry {
    const char *name;
    const hs_param_spec *params;
    const char *summary;
} hs_compensator_entry;
size_t hs_compensator_registry_count(void);
const hs_compensator_entry *hs_compensator_registry_get(size_t i);
const hs_compensator_entry *hs_compensator_registry_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
