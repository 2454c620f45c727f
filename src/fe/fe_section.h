/* Beam-column cross-sections (private to src/fe): the stress resultants and tangent of a section
 * from its deformations, with OpenSees' conventions (SRC/material/section/FiberSection2d.cpp,
 * FiberSection3d.cpp, SectionAggregator.cpp, ElasticSection2d/3d.cpp, read for facts).
 *
 * Deformations and resultants, in this order (OpenSees' codes in brackets):
 *   2-D: axial strain eps [P], curvature kz [Mz];
 *   3-D: eps [P], kz [Mz], ky [My], and the twist rate [T] when the section has torsion.
 * A fiber at (y, z) from the area centroid has the strain eps - y kz + z ky; so Mz = -sum s A y,
 * My = sum s A z (a positive kz compresses the fibers at positive y). In 2-D a fiber's z is
 * ignored. Aggregated uniaxial materials add one resultant each on their own code (Vy, Vz, or a
 * code the base section lacks: it is appended), an elastic part adds EA, EIz, EIy, GJ on the
 * diagonal.
 *
 * A section is flat arrays: fiber y, z, A, trial strain, stress and tangent. Fibers whose law runs
 * on fiber arrays (material_fibers.h: Steel01, Steel02, Concrete01, Concrete02) are grouped by law
 * and parameters when the section is finalized: each group holds its fibers' committed and trial
 * states in two flat arrays and its law is called once for all of them (no material object per
 * fiber); fibers of a group at one place (y in 2-D; y and z in 3-D) merge into one of their summed
 * area, as they see one strain history (the bars of a layer along z in 2-D, a cover patch's two
 * faces); the other fibers keep a uniaxial material each, after the groups. The trial resultants
 * and tangent live in the section, so state determination allocates nothing. */
#ifndef HS_FE_SECTION_H
#define HS_FE_SECTION_H

#include "hysim/fe.h"
#include "hysim/material.h"
#include "model/material_fibers.h"

#define FE_SEC_MAX 6 /* resultants of a section: P Mz My T Vy Vz */

/* OpenSees' response codes (SectionForceDeformation.h). */
enum { FE_SEC_MZ = 1, FE_SEC_P = 2, FE_SEC_VY = 3, FE_SEC_MY = 4, FE_SEC_VZ = 5, FE_SEC_T = 6 };

#define FE_FIBER_STATE_MAX 32 /* doubles of one grouped fiber's state (Steel02's 15) */

/* The fibers first .. first + n - 1 of a section, of one law and its parameters. */
typedef struct fe_fiber_group {
    hs_fiber_law law; /* law.params points to params */
    void *params;     /* (owned) */
    int first, n;
    double *c, *t;  /* committed and trial states: law.state_n rows of ld doubles (rows), or n
                       states one after the other */
    size_t ld;      /* n, or the rows' length in the arrays of a batch (fe_section_batch) */
    double *virgin; /* the law's virgin state (reset) */
} fe_fiber_group;

typedef struct fe_section {
    hs_ctx *ctx;
    int ndm;              /* 2 or 3 */
    int order;            /* number of resultants */
    int code[FE_SEC_MAX]; /* response code of each resultant */
    int nfib, capfib;     /* fibers */
    double *y, *z, *A;    /* fiber positions (from the reference axes until finalized, then
                             from the area centroid; y then padded by 3 zeros) and areas */
    hs_material **mat;    /* one per fiber (owned); after finalize, NULL for grouped fibers */
    double *strain, *stress, *tangent; /* trial, per fiber (after finalize; scratch of the
                                          trial, not written by a batch) */
    fe_fiber_group *grp;               /* after finalize: the groups, then fibers nobj.. */
    int ngrp, nobj;                    /* groups; the first fiber with a material object */
    int grp_trial;                     /* 1: the groups' trial states were set since the last
                                          commit, revert, reset or load */
    int linear;                        /* every material is linear elastic */
    int fibers_2d; /* 2-D, grouped fibers alone (no material object, elastic part or aggregate) */
    double ybar, zbar; /* area centroid of the fibers (reference axes) */
    double elastic[4]; /* EA, EIz, EIy, GJ of an elastic part (0: none) */
    int has_elastic;   /* 1: the section has an elastic part */
    double GJ;         /* 3-D fiber section: torsional stiffness (-GJ), or 0 */
    int torsion;       /* 1: the section has a torsion resultant */
    int nagg;          /* aggregated uniaxial materials */
    hs_material *agg[FE_SEC_MAX];
    int agg_slot[FE_SEC_MAX]; /* the resultant each acts on */
    int finalized;
    double e[FE_SEC_MAX], s[FE_SEC_MAX], ks[FE_SEC_MAX * FE_SEC_MAX]; /* trial (ks row-major) */
    double e_commit[FE_SEC_MAX];                                      /* committed deformations */
    struct fe_section_places *places; /* y, z and A shared with the other sections of the same
                                         places (fe_section_places), or NULL: its own */
    struct fe_section_batch *batch;   /* the batch holding the groups' states, or NULL */
    unsigned views; /* in a batch: its commits when the groups' views were last set (their c and
                       t are each other's while it differs from the batch's in parity) */
} fe_section;

/* An empty section of a 2-D or 3-D model. */
int fe_section_create(hs_ctx *ctx, int ndm, fe_section **out);
void fe_section_destroy(fe_section **s);
/* A fiber at (y, z) (reference axes) of area A > 0 with its own material (the section owns it). */
int fe_section_add_fiber(fe_section *s, double y, double z, double A, hs_material *mat);
/* An elastic part (OpenSees' section Elastic): EA, EIz; in 3-D also EIy and GJ. */
int fe_section_set_elastic(fe_section *s, double EA, double EIz, double EIy, double GJ);
/* 3-D: the torsional stiffness GJ of a fiber section (-GJ). */
int fe_section_set_torsion(fe_section *s, double GJ);
/* A uniaxial material on resultant `code` (section Uniaxial, section Aggregator); the section
 * owns it. A code the section already has is an error unless it is Vy or Vz. */
int fe_section_add_uniaxial(fe_section *s, int code, hs_material *mat);
/* Fixes the layout (fiber positions from the area centroid, the resultants' order) and sets the
 * trial to zero deformation. */
int fe_section_finalize(fe_section *s);

/* Trial deformations e (order of them): the resultants s->s and tangent s->ks. Never
 * allocates. HS_ECONVERGE from a material is passed on. */
int fe_section_set_trial(fe_section *s, const double *e);
/* The initial tangent (order x order, row-major) without touching the states. */
void fe_section_initial_tangent(const fe_section *s, double *ks);
int fe_section_commit(fe_section *s);
int fe_section_revert(fe_section *s);
int fe_section_reset(fe_section *s);
/* Checkpoint: the committed deformations, then the committed states of the section's materials
 * (fibers in order, then aggregated materials), each as its material's checkpoint state; loading
 * sets the committed state only (the caller sets the trial). */
size_t fe_section_state_size(const fe_section *s);
int fe_section_state_save(const fe_section *s, double *out);
int fe_section_state_load(fe_section *s, const double *in);
/* The index of resultant `code` in the section, or -1. */
int fe_section_slot(const fe_section *s, int code);

/* A new section with its own materials from a description (fe_beamcolumn_element.c); its
 * fibers' places (y, z, A) shared with the sections made before from the description (below). */
int fe_section_make(const hs_fe_section_def *d, fe_section **out);

/* Fibers' places (y, z, A after finalize) that several sections read: the sections made from one
 * description (each element's integration points, every element of that section) keep one copy
 * instead of one each, read by every trial (a frame's sections' places then stay in the nearest
 * cache: bench/README.md). Counted references; a section's places never change after finalize. */
typedef struct fe_section_places fe_section_places;
/* A reference to the places of finalized section s (they become shared if they were its own);
 * NULL when out of memory (nothing changed). */
fe_section_places *fe_section_places_of(fe_section *s);
/* Finalized section s reads the places p instead of its own when they are the same numbers
 * (fibers, y, z, A: 1), else nothing changes (0). */
int fe_section_use_places(fe_section *s, fe_section_places *p);
void fe_section_places_release(fe_section_places **p);

/* The sections of an element's integration points set in one call per material group (a 2-D
 * force-based element's points take their trial deformations from one basic force at each element
 * iteration): each group's fibers of all the sections in one law call, their states laid out one
 * section after the other in the batch's arrays (the rows of section k's group are views at its
 * offset, rows of ld = the fibers of all the sections), each section's sums read from the laws'
 * outputs in its fibers' order as fe_section_set_trial sums them (the same operations per fiber,
 * the same bits). Every other use of the sections (their own trial, commit, revert, reset,
 * checkpoints) works on the views unchanged, but a section's commit swaps the committed and trial
 * arrays of the whole batch: the batch's sections are committed together (as the element commits
 * all its points; a section not set since its last commit, revert, reset or load keeps its state).
 * Only 2-D sections of grouped fibers alone (fibers_2d) with the same groups (law and parameters)
 * form one.
 */
typedef struct fe_section_batch fe_section_batch;
/* The scratch that the batches of one model share: a batch's strains, stresses and tangents are
 * written and read within one trial, and a model's elements are set one after the other (one
 * thread a model), so its batches need one copy, not one each: less memory read a Newton iteration
 * (bench/README.md). Destroyed after the batches that use it. */
typedef struct fe_batch_scratch fe_batch_scratch;
int fe_batch_scratch_create(fe_batch_scratch **out);
void fe_batch_scratch_destroy(fe_batch_scratch **s);
/* A batch of the nsec sections (not owned; they must outlive it and stay in it), its scratch in
 * `scratch` (NULL: its own), *out NULL when they do not qualify (the per-section path then
 * stays). */
int fe_section_batch_create(fe_section **secs, int nsec, fe_batch_scratch *scratch,
                            fe_section_batch **out);
void fe_section_batch_destroy(fe_section_batch **b);
/* Trial deformations e[k] (P, Mz) of section k: each section's s->s and s->ks. Never allocates.
 * (e is only read; not const: ISO C before C2x would not take an element's arrays so qualified.) */
void fe_section_batch_set_trial(fe_section_batch *b, double (*e)[FE_SEC_MAX]);

/* The fiber geometry of patches and layers: hs_fe_patch_quad ... (include/hysim/fe.h). */

#endif
