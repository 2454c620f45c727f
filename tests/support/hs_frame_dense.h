/* The dense view of a frame model for tests that compare the sparse path with it
 * (test_fe_sparse.c, test_fe_sparse_hybrid.c): Rayleigh 2 % at 1 Hz and 10 Hz, dense M, K0 and
 * C = a0 M + a1 K0, and a restore that writes dense tangents. Include after hs_test.h. */
#ifndef HS_FRAME_DENSE_H
#define HS_FRAME_DENSE_H

#include "hysim/hysim.h"

typedef struct hs_frame_dense {
    double *M, *C, *K0, *Ke, *Me; /* n x n; Ke, Me for the caller's experiment (NULL here) */
} hs_frame_dense;

/* Rayleigh 2 % at 1 Hz and 10 Hz: zeta = a0 / (2 w) + a1 w / 2 at both. */
void hs_frame_rayleigh(double *a0, double *a1);
/* The frame's dense M (full when the frame's is), K0 and C into df (allocated) and dyn (restore,
 * commit on fe). */
void hs_frame_dense_dynamics(hs_fe *fe, hs_frame_dense *df, hs_dynamics *dyn);
void hs_frame_dense_free(hs_frame_dense *df);

#endif
