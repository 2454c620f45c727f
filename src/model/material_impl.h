/* What uniaxial material implementations see. One file per material fills the ops table. */
#ifndef HS_MATERIAL_IMPL_H
#define HS_MATERIAL_IMPL_H

#include "hysim/material.h"
#include "material_fibers.h"

struct hs_material_ops {
    /* Computes trial stress and tangents from (strain, strain_rate) and the committed state. */
    int (*set_trial)(hs_material *m, double strain, double strain_rate);
    /* Optional: the same with a transverse strain (ConcretewBeta's softening; Truss2). */
    int (*set_trial_transverse)(hs_material *m, double strain, double strain_rate,
                                double transverse_strain);
    int (*commit)(hs_material *m);
    int (*revert)(hs_material *m);
    int (*reset)(hs_material *m);
    double (*initial_tangent)(const hs_material *m);
    size_t (*state_size)(const hs_material *m);
    int (*state_save)(const hs_material *m, double *out);
    int (*state_load)(hs_material *m, const double *in);
    void (*destroy)(hs_material *m); /* frees data */
    /* laws that run on fiber arrays (material_fibers.h): the description, m's committed state */
    int (*fiber_law)(const hs_material *m, hs_fiber_law *law, double *state);
};

struct hs_material {
    hs_ctx *ctx;
    const char *type; /* registry name (static) */
    struct hs_material_ops ops;
    void *data;
    int rate_dependent;
    int linear; /* 1 for linear elastic laws */
    /* trial results, written by set_trial */
    double strain, strain_rate, stress, tangent, rate_tangent;
    /* hs_material_flat_state: the law's committed and trial states */
    double *flat_c, *flat_t;
    size_t flat_n, flat_saved;         /* doubles a state; the checkpointed head of them */
    void (*flat_fill)(hs_material *m); /* after a load: the committed state's cached values */
};

/* For laws whose committed and trial states are each n doubles beginning with strain, stress and
 * tangent (a struct of doubles only): commit copies the trial to the committed state, revert the
 * committed state to the trial (and to m's trial results), and the checkpoint state is the
 * committed array. Sets those ops of m; set_trial, reset, initial_tangent, destroy stay the law's.
 * A law that caches values at the end of its state sets m->flat_saved (the checkpointed head)
 * and m->flat_fill (recomputes the rest of flat_c after a load).
 * (material_flat_state.c) */
void hs_material_flat_state(hs_material *m, double *committed, double *trial, size_t n);

/* Constructors, one per file; the registry (material_registry.c) maps names to them. */
typedef int (*hs_material_ctor)(hs_material *m, const hs_options *opts);

#endif
