/* hysim uniaxial materials: force-deformation laws of springs, story shears and dampers.
 * Each keeps its trial and committed states apart: set_trial may be called any number of times
 * within a step (Newton), commit accepts the last trial, revert returns to the committed state. */
#ifndef HYSIM_MATERIAL_H
#define HYSIM_MATERIAL_H

#include "hysim/base.h"
#include "hysim/options.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hs_material hs_material;

/* Registered types: "elastic" {k}, "bilinear" {k, fy, b}, "bouc_wen" {alpha, k0, n, gamma,
 * beta, A0, delta_a, delta_nu, delta_eta}, "viscous" {c, alpha} (stress c |v|^alpha sign v),
 * "steel01", "steel02", "elastic_pp_gap", "elastic_pp", "concrete01", "concrete02",
 * "hysteretic", "elastic_bilin", "hysteretic_poly", "hysteretic_smooth", "hysteretic_asym",
 * "ratchet", "steel_brb", "bwbn", "bouc_wen_infill" (OpenSees' laws; docs/materials.md). */
int hs_material_create(hs_ctx *ctx, const char *type, const hs_options *opts, hs_material **out);
void hs_material_destroy(hs_material **m);

/* Trial deformation and deformation rate; computes the trial stress and tangents.
 * HS_ECONVERGE (with a message) when a local iteration fails. Never allocates. */
int hs_material_set_trial(hs_material *m, double strain, double strain_rate);
/* The same with a strain across the material's axis (OpenSees' setTrialStrainwBeta, the strain
 * of a Truss2 element's transverse truss): ConcretewBeta softens its compression by beta of it;
 * a law without such an effect ignores it. hs_material_has_transverse: 1 for such a law. */
int hs_material_set_trial_transverse(hs_material *m, double strain, double strain_rate,
                                     double transverse_strain);
int hs_material_has_transverse(const hs_material *m);
double hs_material_stress(const hs_material *m);       /* trial force */
double hs_material_strain_rate(const hs_material *m);  /* trial deformation rate */
double hs_material_tangent(const hs_material *m);      /* d stress / d strain (trial) */
double hs_material_rate_tangent(const hs_material *m); /* d stress / d strain_rate (trial) */
double hs_material_initial_tangent(const hs_material *m);
double hs_material_strain(const hs_material *m); /* trial strain */
int hs_material_commit(hs_material *m);
int hs_material_revert(hs_material *m); /* back to the last committed state */
int hs_material_reset(hs_material *m);  /* back to the virgin state */
const char *hs_material_type(const hs_material *m);
/* 1 when the force depends on the rate (dampers): its work counts as damping energy. */
int hs_material_is_rate_dependent(const hs_material *m);
/* 1 for linear elastic laws (lets implicit methods skip Newton). */
int hs_material_is_linear(const hs_material *m);

/* Committed state as a flat array of doubles (checkpoints). size() gives the count. */
size_t hs_material_state_size(const hs_material *m);
int hs_material_state_save(const hs_material *m, double *out);
int hs_material_state_load(hs_material *m, const double *in);

/* The registry: names, constructors' parameters. */
typedef struct hs_material_entry {
    const char *name;
    const hs_param_spec *params;
    const char *summary;
} hs_material_entry;
size_t hs_material_registry_count(void);
const hs_material_entry *hs_material_registry_get(size_t i);
const hs_material_entry *hs_material_registry_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
