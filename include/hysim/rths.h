/* The real-time hybrid simulation (RTHS) benchmark of Silva, Gomez, Maghareh, Dyke and Spencer
 * (2020): its actuator-specimen plant with control-structure interaction (CSI), its evaluation
 * criteria J1-J9, and the reference / partitioned three-story structure. docs/rths_benchmark.md
 * gives every value and says which ones could not be confirmed from the paper.
 *
 * Plant (units N, m, s), servo-valve command u to actuator displacement x (Dyke et al. 1995 CSI
 * model as used by the benchmark):
 *     Gxu(s) = a1b0 / [ (s^2 + b1 s + b2) ((s + a3)(me s^2 + ce s + ke) + a2 s) ]
 * closed by a proportional servo controller u = kp (gain r - x), r the command sent to the
 * actuator (the benchmark's Simulink model: kp = 1, gain 1.0261 on the command).
 * The load cell reads the actuator force f = me x'' + ce x' + ke x (a state of the model). */
#ifndef HYSIM_RTHS_H
#define HYSIM_RTHS_H

#include "hysim/base.h"
#include "hysim/options.h"
#include "hysim/results.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hs_rths_plant_params {
    double a1b0, a2, a3; /* actuator: a1*b0 (product), a2, a3 */
    double b1, b2;       /* servo-valve: s^2 + b1 s + b2 */
    double me, ce, ke;   /* specimen: kg, N s/m, N/m */
    double kp;           /* proportional servo gain (command units per m) */
    double gain;         /* gain on the command inside the loop */
} hs_rths_plant_params;

/* the actuator's force capacity (N): a run whose actuator force reaches it has failed (the
 * package's F4_evaluation.m, lines 60-62) */
#define HS_RTHS_FORCE_CAPACITY 8900.0
/* the specimen's damping ratio: ce = 2 zeta sqrt(me ke) */
#define HS_RTHS_SPECIMEN_ZETA 0.0097

/* The nominal plant (docs/rths_benchmark.md, "Plant"). */
hs_rths_plant_params hs_rths_plant_nominal(void);
/* A perturbed plant as the benchmark draws it: b1, b2, a3, ke each plus spread times a normal
 * deviate of the benchmark's standard deviation (3.3, 3.3e3, 1.3, 50e3 N/m), deviates from
 * hs_rng(seed, stream 0) in that order; ce follows ke at the specimen's damping ratio. spread 1 is
 * the benchmark's, 0 the nominal plant. */
hs_rths_plant_params hs_rths_plant_perturbed(unsigned long long seed, double spread);

/* Continuous frequency response of the closed loop r -> x at omega (rad/s), from the transfer
 * function itself (not the state space): magnitude and phase (rad, unwrapped from 0 at DC). */
void hs_rths_plant_freq(const hs_rths_plant_params *p, double omega, double *mag, double *phase);
/* Same for the open-loop Gxu (u -> x). */
void hs_rths_gxu_freq(const hs_rths_plant_params *p, double omega, double *mag, double *phase);

/* The plant discretised at the controller rate for a command held over each sample (exact
 * zero-order hold, matrix exponential of the balanced state matrix). 5 states:
 * valve z, z', actuator force f, displacement x, velocity v. */
typedef struct hs_rths_plant hs_rths_plant;
int hs_rths_plant_create(hs_ctx *ctx, const hs_rths_plant_params *p, double rate,
                         hs_rths_plant **out);
void hs_rths_plant_destroy(hs_rths_plant **pl);
void hs_rths_plant_reset(hs_rths_plant *pl); /* at rest at 0 */
/* One controller sample with the command r held: the state moves to t + h. */
void hs_rths_plant_tick(hs_rths_plant *pl, double r);
double hs_rths_plant_x(const hs_rths_plant *pl); /* displacement (m) */
/* The state layout, for a caller that keeps its own state (a specimen's trial and committed):
 * next = Phi s + Gamma r, one sample with the command r held; no allocation. */
#define HS_RTHS_NSTATE  5
#define HS_RTHS_STATE_F 2
#define HS_RTHS_STATE_X 3
void hs_rths_plant_step(const hs_rths_plant *pl, const double *s, double r, double *next);
/* Re-discretises for another controller rate (no allocation; nothing when the sample differs by
 * less than 1 ppm). */
void hs_rths_plant_set_rate(hs_rths_plant *pl, double rate);
double hs_rths_plant_rate(const hs_rths_plant *pl);
const hs_rths_plant_params *hs_rths_plant_params_of(const hs_rths_plant *pl);
double hs_rths_plant_f(const hs_rths_plant *pl); /* load cell force (N) */
/* Time delay of the closed loop r -> x at low frequency: -phase(w0) / w0, w0 = 2 pi 0.5 Hz (s). */
double hs_rths_plant_delay(const hs_rths_plant_params *p);

/* Evaluation criteria (docs/rths_benchmark.md, "Criteria"), n samples at spacing dt, exactly as the
 * benchmark package's F4_evaluation_PI.m, lines 11-39 (the original benchmark's file; Li's
 * F4_evaluation.m is the same with his controller's state x for X_m), rounded as it rounds them:
 *  J1 time delay of x_m behind x_t (s): the lag l = 0..49 samples of the largest Pearson
 *     correlation of x_m(k + l) with x_t(k) (the first on a tie), l dt rounded to 0.1 ms;
 *  J2 normalised RMS tracking error std(x_m - x_t) / std(x_t) * 100;
 *  J3 peak tracking error max|x_m - x_t| / max|x_t| * 100;
 *  J4, J5 normalised RMS and peak error of the measured displacement x_m against the reference's
 *     floor 1 (y's floor 1 when x_m is NULL); J6, J7 normalised RMS error of floors 2, 3 of y;
 *     J8, J9 peak error of floors 2, 3; J2-J9 in % rounded to 0.01.
 * J1_signed is hysim's own delay (not the package's): the cross-correlation peak within +-0.1 s
 * with a parabolic sub-sample fit, negative for a lead (hs_rths_delay).
 * y and yref are n x nf, row per sample (nf <= 3 floors; absent floors give NaN). */
typedef struct hs_rths_criteria {
    double J[10];     /* J[1] .. J[9]; J[0] unused */
    double J1_signed; /* s */
} hs_rths_criteria;
double hs_rths_delay(const double *x_t, const double *x_m, size_t n, double dt, double max_lag);
/* the package's J1 (s, unrounded): lag 0..max_samples-1 of the largest Pearson correlation */
double hs_rths_delay_package(const double *x_t, const double *x_m, size_t n, double dt,
                             int max_samples);
double hs_rths_peak_error(const double *y, const double *yref, size_t n, size_t stride);
double hs_rths_rms_error(const double *y, const double *yref, size_t n, size_t stride); /* std */
void hs_rths_criteria_compute(const double *x_t, const double *x_m, const double *y,
                              const double *yref, size_t n, int nf, double dt,
                              hs_rths_criteria *out);
/* "\"rths_criteria\": {\"J1_s\": ..., \"J2_percent\": ..., ..., \"J1_signed_s\": ...}" into buf; 0,
 * or HS_EINVAL if short. */
int hs_rths_criteria_json(const hs_rths_criteria *c, char *buf, size_t size);

/* J1-J9 of a recorded run (hysim/results.h): J1-J3 from actuator `actuator`'s recorded command (the
 * target) and measurement, J4-J9 from the first min(3, ndof) DOFs against the reference run `ref`
 * (NULL: J4-J9 NaN), over the records both runs have; dt the recording interval. Criteria whose
 * signals are absent (no actuator block, NaN records) stay NaN. */
int hs_rths_criteria_from_results(hs_ctx *ctx, const hs_results *run, const hs_results *ref,
                                  int actuator, double dt, hs_rths_criteria *out);

/* The benchmark structure (docs/rths_benchmark.md, "Structure"): the reference three-story frame
 * of the benchmark package's building case 1 (Mr, Cr, Kr) and the partitioned numerical
 * substructure (Mn, Cn, Kn): the reference minus the specimen `actual` (me, ce, ke of the plant
 * tested) at floor 1, as the package builds it, so the reference is the same for every plant and
 * J4-J9 measure the RTHS's error. Matrices 3 x 3 row-major (all symmetric). */
typedef struct hs_rths_structure {
    double Mn[9], Cn[9], Kn[9]; /* numerical substructure */
    double Mr[9], Cr[9], Kr[9]; /* reference structure */
} hs_rths_structure;
void hs_rths_structure_build(const hs_rths_plant_params *actual, hs_rths_structure *s);
/* The plant chosen by the keys plant (nominal | perturbed), seed, spread (specimen_rths.c), as the
 * specimens rths_benchmark and rths_frame and the test file's damping form rths_benchmark take
 * them (hs_specimen_rths_frame_params); `what` names the caller in messages. */
int hs_rths_plant_from_options(hs_ctx *ctx, const hs_options *opts, const char *what,
                               hs_rths_plant_params *p);
extern const hs_param_spec hs_specimen_rths_frame_params[];

/* How a run closes its loop (docs/rths_benchmark.md, "Run"):
 *  HS_RTHS_LOOP_PACKAGE (the default): the package's Simulink model vRTHS_MDOF_SimRT_PI.slx run
 *    by F3_simulation_PI.m: at t_k the compensator acts on x_t(t_k) and x_m(t_k); the numerical
 *    substructure moves to t_k+1 by one ode4 (classical Runge-Kutta) step with the ground
 *    acceleration linear over the step and the force measured at t_k-1 (the model's Unit Delay on
 *    the fed-back force); the plant moves to t_k+1 with the command held. The reference moves
 *    by the same ode4 steps without the force.
 *  HS_RTHS_LOOP_EARLY: hysim's earlier loop, kept to compare: the Chen-Ricles (2008) explicit
 *    integrator, the compensator acting on the next target x_t(t_k+1) and the force measured at
 *    t_k+1 closing the step (two samples faster than the package's). */
typedef enum hs_rths_loop { HS_RTHS_LOOP_PACKAGE = 0, HS_RTHS_LOOP_EARLY = 1 } hs_rths_loop;
/* The package's sensors and converters (F1_input_file.m:136-160), off unless set:
 * noise: band-limited white noise of power 6.25e-14 m^2 s on the displacement and 1.16e-3 N^2 s
 *   on the force, sampled at the controller rate (standard deviations sqrt(power * rate)), normal
 *   deviates from hs_rng(noise_seed, stream 1 and 2);
 * converters: the A/D on x_t and x_m and the D/A on the command of the package's
 *   controller_model.slx: saturation at +-3.8 and quantisation to 1/2^18 in the signal's unit (m).
 */
#define HS_RTHS_NOISE_DISP_POWER  6.25e-14
#define HS_RTHS_NOISE_FORCE_POWER 1.16e-3
#define HS_RTHS_CONVERTER_LIMIT   3.8
#define HS_RTHS_CONVERTER_BITS    18
typedef struct hs_rths_run_opts {
    hs_rths_loop loop;
    int noise;
    unsigned long long noise_seed;
    int converters;
} hs_rths_run_opts;

/* A compensator the caller owns (a plug-in's, hysim/compensator_plugin.h), in place of a
 * registered type: one tick takes x_t, x_m (m) and the force (N) and returns the command (m). */
typedef double (*hs_rths_comp_fn)(void *self, double x_t, double x_m, double f_m);

/* One benchmark run at the controller rate: comp_type NULL and comp_fn NULL = the reference run
 * (the whole reference structure numerically; plant ignored); otherwise the RTHS run: the
 * numerical substructure, the compensator (comp_type: hysim/compensator.h with options
 * comp_opts, in mm as Chen and Ricles' gains; or comp_fn(comp_self, ...)) and the plant `plant`.
 * opts NULL: the package's loop without noise or converters. ag: ground acceleration at the
 * controller rate (m/s^2), n samples. Outputs (n each, may be NULL): floor displacements y (n x 3),
 * x_t (desired), x_m (measured). Returns 0, or an hs error: HS_EUNSTABLE with the step where the
 * actuator's force reached HS_RTHS_FORCE_CAPACITY or the response diverged. */
int hs_rths_run(hs_ctx *ctx, const hs_rths_plant_params *plant, const char *comp_type,
                const hs_options *comp_opts, const double *ag, size_t n, double rate, double *y,
                double *x_t, double *x_m);
int hs_rths_run_with(hs_ctx *ctx, const hs_rths_plant_params *plant, const char *comp_type,
                     const hs_options *comp_opts, hs_rths_comp_fn comp_fn, void *comp_self,
                     const hs_rths_run_opts *opts, const double *ag, size_t n, double rate,
                     double *y, double *x_t, double *x_m);

/* A record in the package's layout (F1_input_file.m:114-132, ElCentroAccelNoScaling.mat): lead
 * seconds of zeros, the npts samples at spacing dt times scale, trail seconds of zeros, linearly
 * interpolated at k / rate for k = 0 .. floor(duration * rate) (Simulink's From File block at the
 * fixed step). The package: lead = trail = 5 s, scale = eq_intensity (0.4 in main.m). Returns a
 * hs_dvec of *n samples (hs_free it), or NULL. */
double *hs_rths_record_layout(const double *acc, size_t npts, double dt, double scale, double lead,
                              double trail, double rate, size_t *n);

#ifdef __cplusplus
}
#endif
#endif
