/* What ground-motion sources see: the constructors (one per file, mapped by the registry in
 * ground_motion.c) and the allocation of a record. */
#ifndef HS_GROUND_MOTION_IMPL_H
#define HS_GROUND_MOTION_IMPL_H

#include "hysim/ground_motion.h"

/* Builds a record from options; on failure *out stays NULL and ctx holds the message. */
typedef int (*hs_ground_motion_ctor)(hs_ctx *ctx, const hs_options *opts, hs_ground_motion **out);

int hs_ground_motion_create_at2(hs_ctx *ctx, const hs_options *opts, hs_ground_motion **out);
int hs_ground_motion_create_columns(hs_ctx *ctx, const hs_options *opts, hs_ground_motion **out);
int hs_ground_motion_create_synthetic(hs_ctx *ctx, const hs_options *opts, hs_ground_motion **out);
extern const hs_param_spec hs_ground_motion_at2_params[];
extern const hs_param_spec hs_ground_motion_columns_params[];
extern const hs_param_spec hs_ground_motion_synthetic_params[];

/* A record of npts zeros (npts >= 1, dt > 0 finite), with `source` copied (truncated to fit). */
int hs_ground_motion_alloc(hs_ctx *ctx, size_t npts, double dt, const char *source,
                           hs_ground_motion **out);

/* lead and trail seconds of zeros before and after the record (whole steps of its dt), as the
 * RTHS benchmark's records are laid out (F1_input_file.m:114-117, ElCentroAccelNoScaling.mat: 5 s
 * each); *gm is replaced. Called by hs_ground_motion_create with the options lead and trail. */
int hs_ground_motion_pad(hs_ctx *ctx, double lead, double trail, hs_ground_motion **gm);

/* exp(x) from +, -, *, /, floor and ldexp only (same bits on every IEEE-754 machine), for the
 * synthetic record's envelope; x <= 709 (0 below -745). In gm_synthetic.c. */
double hs_gm_exp(double x);

#endif
