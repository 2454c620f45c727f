/* hysim pre-test procedures (docs/pretest.md): what an operator runs on a laboratory before a
 * specimen sees an earthquake. Each drives the laboratory through its per-tick exchange (one
 * command per actuator out; measured displacement and force per actuator in), clamps every
 * command to the actuators' stroke and ramps it within their velocity, step and acceleration
 * limits, and stops, returning to the rest, when a measured force passes its limit. Commands
 * are relative to where the rig rests (lab.rest).
 *  - noise: a zero-command run, mean, RMS and spectrum peak per channel;
 *  - stiffness: small sine cycles per actuator in turn, K0l (actuator coordinates) by least
 *    squares of each force against the moving actuator's displacement, with its scatter;
 *  - dynamics: steps per actuator, the transport delay D (ticks) and first-order constant a
 *    (samples) of x(k+1) = x(k) + (x_c(k - D) - x(k)) / a, and a_es = a + D. */
#ifndef HYSIM_PRETEST_H
#define HYSIM_PRETEST_H

#include "hysim/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HS_PRETEST_MAX_ACT 16

/* One controller tick: commands cmd (nact) out, measured x and f (nact each) in. */
typedef int (*hs_pretest_exchange_fn)(void *user, const double *cmd, double *x, double *f);

typedef struct hs_pretest_lab {
    int nact;
    double rate; /* controller ticks per second */
    hs_pretest_exchange_fn exchange;
    void *user;
    /* per actuator, 0 = none (the test's units) */
    double stroke[HS_PRETEST_MAX_ACT], velocity_max[HS_PRETEST_MAX_ACT],
        force_max[HS_PRETEST_MAX_ACT];
    /* where the rig rests (the test's units; 0 for the virtual lab): every procedure's command is
     * relative to it (noise at it, sines about it, steps up from it, the return to it), and the
     * first command is it exactly (docs/pretest.md, "Over a real laboratory") */
    double rest[HS_PRETEST_MAX_ACT];
    /* per actuator, 0 = none: |x_c(k) - 2 x_c(k-1) + x_c(k-2)| rate^2 and |x_c(k) - x_c(k-1)|, as
     * the site controller's acceleration_limit and step_limit. Every command path ramps up and
     * down within the acceleration; without one, a velocity limit is reached in 0.1 s (the
     * site's unloading default). Fields added at the end: a zeroed lab keeps its old meaning
     * but for that ramp (docs/pretest.md) */
    double acceleration_max[HS_PRETEST_MAX_ACT], step_max[HS_PRETEST_MAX_ACT];
} hs_pretest_lab;

/* ---------------------------------------------------------------- noise */

typedef struct hs_pretest_channel {
    double mean, rms; /* rms about the mean */
    double peak_freq; /* Hz of the largest bin of the spectrum (DC excluded) */
    double peak_amp;  /* its amplitude spectral density (units / sqrt(Hz)) */
} hs_pretest_channel;

typedef struct hs_pretest_noise {
    double duration; /* s */
    int64_t ticks;
    hs_pretest_channel x[HS_PRETEST_MAX_ACT], f[HS_PRETEST_MAX_ACT];
} hs_pretest_noise;

/* `duration` s of zero command (at least 256 ticks). The spectrum: Welch's average of Hann-windowed
 * segments of 256 ticks (half overlapping), one-sided density. */
int hs_pretest_noise_run(hs_ctx *ctx, const hs_pretest_lab *lab, double duration,
                         hs_pretest_noise *out);

/* ---------------------------------------------------------------- stiffness */

typedef struct hs_pretest_stiffness_params {
    double amplitude; /* of the sine cycles about the rest (length units), > 0, with the rest <=
                         stroke */
    double frequency; /* Hz, > 0; 2 pi f A <= velocity limit, (2 pi f)^2 A <= acceleration */
    int cycles;       /* >= 1 (default 3) */
} hs_pretest_stiffness_params;

typedef struct hs_pretest_stiffness {
    int nact;
    /* row-major nact x nact: K[i * nact + j] = d f_i / d x_j */
    double K[HS_PRETEST_MAX_ACT * HS_PRETEST_MAX_ACT];
    double stderr_K[HS_PRETEST_MAX_ACT * HS_PRETEST_MAX_ACT]; /* standard error of the slope */
    double scatter[HS_PRETEST_MAX_ACT * HS_PRETEST_MAX_ACT];  /* std. dev. of per-cycle slopes */
    double residual_rms[HS_PRETEST_MAX_ACT * HS_PRETEST_MAX_ACT]; /* of f_i about the line */
} hs_pretest_stiffness;

int hs_pretest_stiffness_run(hs_ctx *ctx, const hs_pretest_lab *lab,
                             const hs_pretest_stiffness_params *p, hs_pretest_stiffness *out);

/* ---------------------------------------------------------------- dynamics */

typedef struct hs_pretest_dynamics_params {
    double
        amplitude; /* step height up from the rest (length units), > 0, with the rest <= stroke */
    double hold;   /* s held after each step (default 0.25) */
    int repeats;   /* up-and-down step pairs per actuator (default 2) */
    int max_delay; /* largest transport delay searched, ticks (default 64) */
} hs_pretest_dynamics_params;

typedef struct hs_pretest_dynamics {
    int nact;
    int delay[HS_PRETEST_MAX_ACT];      /* D, ticks */
    double a[HS_PRETEST_MAX_ACT];       /* first-order constant, samples (>= 1) */
    double a_es[HS_PRETEST_MAX_ACT];    /* a + D: the inverse compensator's start
                                           (docs/compensation.md) */
    double fit_rms[HS_PRETEST_MAX_ACT]; /* RMS misfit of the normalised step response */
} hs_pretest_dynamics;

int hs_pretest_dynamics_run(hs_ctx *ctx, const hs_pretest_lab *lab,
                            const hs_pretest_dynamics_params *p, hs_pretest_dynamics *out);

/* Fits D in [0, max_delay] and a in [1, 1000] to a record: u[k] the command sent at tick k,
 * y[k] the displacement measured after it (n ticks, from rest at y = u = 0 before tick 0), by least
 * squares of y against the simulated x(k+1) = x(k) + (u(k - D) - x(k)) / a. *rms: the RMS misfit.
 */
int hs_pretest_fit_delay(const double *u, const double *y, int64_t n, int max_delay, int *delay,
                         double *a, double *rms);

/* ---------------------------------------------------------------- a site's laboratory */

struct hs_site_config;
typedef struct hs_pretest_site hs_pretest_site;
/* The laboratory a site configuration describes (its specimen, relaxation, actuators, sensors at
 * its controller rate; no compensation: the pre-tests see the bare actuators), behind the
 * per-tick exchange, with the actuators' limits. `cfg` is lent for the life of the object. */
int hs_pretest_site_create(hs_ctx *ctx, const struct hs_site_config *cfg, hs_pretest_site **out);
void hs_pretest_site_destroy(hs_pretest_site **s);
const hs_pretest_lab *hs_pretest_site_lab(const hs_pretest_site *s);
/* Writes every tick of the procedures to a CSV file at path (created; closed at destroy): tick,
 * then the command, measured displacement and force of each actuator (`command_a1`, `x_a1`,
 * `f_a1`, ...), in the test's units, %.17g. */
int hs_pretest_site_log(hs_ctx *ctx, hs_pretest_site *s, const char *path);

/* ---------------------------------------------------------------- the JSON file */

typedef struct hs_pretest_report {
    char site[64];
    int nact;
    char actuators[HS_PRETEST_MAX_ACT][32];
    double rate;
    char units_length[16], units_force[16];
    int has_noise, has_stiffness, has_dynamics;
    hs_pretest_noise noise;
    hs_pretest_stiffness_params stiffness_params;
    hs_pretest_stiffness stiffness;
    hs_pretest_dynamics_params dynamics_params;
    hs_pretest_dynamics dynamics;
    /* the test file's initial_stiffness (row-major; NaN where no experimental element gives it) */
    int has_reference;
    double reference[HS_PRETEST_MAX_ACT * HS_PRETEST_MAX_ACT];
} hs_pretest_report;

/* Writes the report as JSON (docs/pretest.md), atomically (FILE.tmp, then renamed). */
int hs_pretest_write(hs_ctx *ctx, const hs_pretest_report *r, const char *path);
/* Reads a file written by hs_pretest_write: site, rate, actuators, stiffness.K0l and dynamics
 * (the rest is for people). Errors are FILE:LINE:COL: message. */
int hs_pretest_read(hs_ctx *ctx, const char *path, hs_pretest_report *r);

#ifdef __cplusplus
}
#endif
#endif
