/* hysim ground motions: acceleration records sampled at a constant dt, in the test's units of
 * length/time^2. Sources are registered by name: "at2" (PEER NGA), "columns" (plain numbers),
 * "synthetic" (seeded Kanai-Tajimi filtered white noise with an envelope, scaled to a PGA). */
#ifndef HYSIM_GROUND_MOTION_H
#define HYSIM_GROUND_MOTION_H

#include "hysim/base.h"
#include "hysim/options.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hs_ground_motion {
    size_t npts;
    double dt;
    double *acc; /* npts values, length/time^2 (owned) */
    char source[256];
} hs_ground_motion;

/* Options by type:
 *  at2:       path (str), scale (num, default 1; the file is in g, so scale = g in the units)
 *  columns:   path (str), dt (num, required), scale (num, default 1), skip (header lines, 0)
 *  synthetic: seed, pga, duration, dt, and optional omega_g (rad/s, 15.6), zeta_g (0.6),
 *             envelope ("jennings" | "trapezoid"), rise, strong (s) */
int hs_ground_motion_create(hs_ctx *ctx, const char *type, const hs_options *opts,
                            hs_ground_motion **out);
/* From values in memory (copied). */
int hs_ground_motion_from_array(hs_ctx *ctx, const double *acc, size_t npts, double dt,
                                hs_ground_motion **out);
void hs_ground_motion_destroy(hs_ground_motion **gm);
/* Acceleration at time t, linear between samples, 0 before 0 and after the record's end. */
double hs_ground_motion_at(const hs_ground_motion *gm, double t);
double hs_ground_motion_duration(const hs_ground_motion *gm); /* (npts - 1) dt */
double hs_ground_motion_pga(const hs_ground_motion *gm);

typedef struct hs_ground_motion_entry {
    const char *name;
    const hs_param_spec *params;
    const char *summary;
} hs_ground_motion_entry;
size_t hs_ground_motion_registry_count(void);
const hs_ground_motion_entry *hs_ground_motion_registry_get(size_t i);
const hs_ground_motion_entry *hs_ground_motion_registry_find(const char *name);

/* The response spectrum at one frequency: peaks of |q| and |q'| of the linear oscillator
 *   q'' + 2 zeta omega q' + omega^2 q = -ag(t)
 * from rest over [0, t_end] (free vibration after the record), integrated exactly for the record's
 * piecewise-linear acceleration (Nigam and Jennings), in sub-steps of at most a twentieth of the
 * period so that the peaks are sampled finely. omega > 0, zeta >= 0. Returns HS_EINVAL for bad
 * arguments. (docs/ground_motion.md, "Response spectrum".) */
int hs_ground_motion_sdof_peak(const hs_ground_motion *gm, double omega, double zeta, double t_end,
                               double *sd, double *sv);

#ifdef __cplusplus
}
#endif
#endif
