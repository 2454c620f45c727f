/* Uniaxial laws run over many fibers at once (library-internal: the fiber sections of src/fe).
 * A law that offers it (Steel01, Steel02, Concrete01, Concrete02) describes itself by an
 * hs_fiber_law: a section keeps the states of all its fibers of one law and parameters in two flat
 * arrays (committed and trial) and calls the law once for all of them, with no material object per
 * fiber. The arrays
 * hold one fiber's state after the other (state_n doubles a fiber, the law's state struct), or,
 * for a law that asks for rows, a structure of arrays: state_n rows of ld doubles, variable k of
 * fiber i at [k * ld + i], so that the law's loop reads and writes whole rows (vectorised). The
 * trial of a fiber is a function of its committed state and trial strain alone, and writes the
 * fiber's whole trial state: commit swaps the arrays, revert copies them. The first save_n doubles
 * of a fiber's state are the material's checkpoint state (hs_material_state_save), the rest values
 * the law caches. */
#ifndef HS_MATERIAL_FIBERS_H
#define HS_MATERIAL_FIBERS_H

#include "hysim/material.h"

#include <stddef.h>

typedef struct hs_fiber_law {
    /* n trial states from the committed ones and the strains (rows: of ld >= n doubles); the
     * stresses and tangents */
    void (*trial)(const void *params, size_t n, size_t ld, const double *strain,
                  const double *committed, double *trial, double *stress, double *tangent);
    /* checks one fiber's checkpoint state (save_n doubles at the head of state, gathered) and
     * fills the cached values; HS_EINPUT with a message when it is not one of the law's */
    int (*load)(const void *params, hs_ctx *ctx, double *state);
    const void *params; /* the law's parameters: fibers whose parameters are equal bytes share */
    size_t params_size;
    size_t state_n, save_n;
    int rows; /* 1: the states as rows (a structure of arrays) */
    double initial_tangent;
} hs_fiber_law;

/* Defines NAME, the law's hs_fiber_law.trial for a law written one fiber at a time (states one
 * fiber after the other): TRIAL(const LAW *, const STATE *committed, STATE *trial, double strain)
 * for each fiber, in one loop (the law's state struct STATE of doubles with members s and t, its
 * stress and tangent). */
#define HS_FIBER_KERNEL(NAME, LAW, STATE, TRIAL)                                                   \
    static void NAME(const void *params, size_t n, size_t ld, const double *strain,                \
                     const double *committed, double *trial, double *stress, double *tangent)      \
    {                                                                                              \
        (void)ld;                                                                                  \
        const STATE *c_ = (const STATE *)(const void *)committed;                                  \
        STATE *t_ = (STATE *)(void *)trial;                                                        \
        for (size_t i = 0; i < n; i++) {                                                           \
            TRIAL((const LAW *)params, &c_[i], &t_[i], strain[i]);                                 \
            stress[i] = t_[i].s;                                                                   \
            tangent[i] = t_[i].t;                                                                  \
        }                                                                                          \
    }

/* 1 and *law (pointing into m, valid while m lives) when m's law runs on fiber arrays, else 0.
 * state, if given, receives m's committed state (law->state_n doubles). */
int hs_material_fiber_law(const hs_material *m, hs_fiber_law *law, double *state);

/* Concrete02's trial (an hs_fiber_law.trial) built for the processor's baseline instruction set
 * only, where the law's own entry runs the clone the processor has (AVX-512, AVX2): for the test
 * that every clone gives the same bits. */
void hs_concrete02_fibers_baseline(const void *params, size_t n, size_t ld, const double *strain,
                                   const double *committed, double *trial, double *stress,
                                   double *tangent);

/* Steel02's trial (an hs_fiber_law.trial) with glibc's scalar pow, where the law's own entry takes
 * libmvec's vector pow on processors with AVX2 (material_steel02.c): the same bits as the
 * material object, for the test that compares the two paths. */
void hs_steel02_fibers_scalar(const void *params, size_t n, size_t ld, const double *strain,
                              const double *committed, double *trial, double *stress,
                              double *tangent);

#endif
