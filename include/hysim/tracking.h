/* hysim actuator tracking metrics, one object per actuator (Chen & Ricles 2010):
 *  - MTE = max |d_c - d_m|                                   (eq. 4a, length unit of the test)
 *  - RMS = 100 sqrt(sum (d_c - d_m)^2 / sum d_c^2)           (eq. 4b, in percent)
 *  - TI  = (A - TA) / 2, A += (c_i+1 + c_i)(m_i+1 - m_i) / 2,
 *                        TA += (m_i+1 + m_i)(c_i+1 - c_i) / 2 (eq. 3, length^2)
 *    TI is the signed area swept in the synchronized subspace plot (command on the horizontal
 *    axis, measured on the vertical): it rises while the actuator lags, falls while it leads;
 *  - the peak TI: the TI of largest magnitude so far, with its sign (Chen & Ricles 2010, Table 3).
 * d_c is whatever the caller compares against (the desired command, normally). Samples are
 * added one at a time; hs_tracking_add never allocates. Optional series (command, measured,
 * error, TI) are recorded into buffers allocated at creation, for plotting. See
 * docs/compensation.md. */
#ifndef HYSIM_TRACKING_H
#define HYSIM_TRACKING_H

#include "hysim/base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hs_tracking hs_tracking;

/* `capacity`: number of series samples kept (0 = no series); `stride`: every stride-th sample is
 * recorded (0 is taken as 1). Samples beyond the capacity still count in the metrics. */
int hs_tracking_create(hs_ctx *ctx, size_t capacity, size_t stride, hs_tracking **out);
void hs_tracking_destroy(hs_tracking **t); /* NULL-safe, sets *t = NULL */
/* Forgets every sample (metrics and series). */
void hs_tracking_reset(hs_tracking *t);
/* One sample: command (desired) and measured displacement at the same instant. The first sample
 * after a reset opens the loop (no area). Never allocates. */
void hs_tracking_add(hs_tracking *t, double d_command, double d_measured);

size_t hs_tracking_count(const hs_tracking *t); /* samples added since the last reset */
double hs_tracking_mte(const hs_tracking *t);   /* eq. 4a; 0 before any sample */
/* eq. 4b in percent; 0 when every error is 0; NaN when sum d_c^2 = 0 but an error is not. */
double hs_tracking_rms(const hs_tracking *t);
double hs_tracking_ti(const hs_tracking *t);      /* eq. 3a, current */
double hs_tracking_ti_peak(const hs_tracking *t); /* signed TI of largest |TI| so far */
double hs_tracking_error(const hs_tracking *t);   /* last d_c - d_m */

/* The recorded series (lent), each of the returned length; any pointer may be NULL. Entry j is
 * sample j * stride (0-based) since the last reset. */
size_t hs_tracking_series(const hs_tracking *t, const double **command, const double **measured,
                          const double **error, const double **ti);
size_t hs_tracking_stride(const hs_tracking *t);

/* The metrics' state (count, sums, MTE, A, TA, peak, last sample) as doubles, for checkpoints.
 * The series are not part of it: after a load, recording continues at the loaded count and the
 * earlier entries are whatever this object held (a rollback within one run keeps them). */
size_t hs_tracking_state_size(const hs_tracking *t);
int hs_tracking_state_save(const hs_tracking *t, double *out);
int hs_tracking_state_load(hs_tracking *t, const double *in);

#ifdef __cplusplus
}
#endif
#endif
