/* The uniaxial material registry: one line per material. */
#include "material_impl.h"

#include "../base/registry.h"

int hs_material_create_elastic(hs_material *m, const hs_options *opts);
extern const hs_param_spec hs_material_elastic_params[];
int hs_material_create_bilinear(hs_material *m, const hs_options *opts);
extern const hs_param_spec hs_material_bilinear_params[];
int hs_material_create_bouc_wen(hs_material *m, const hs_options *opts);
extern const hs_param_spec hs_material_bouc_wen_params[];
int hs_material_create_viscous(hs_material *m, const hs_options *opts);
extern const hs_param_spec hs_material_viscous_params[];
int hs_material_create_steel01(hs_material *m, const hs_options *opts);
extern const hs_param_spec hs_material_steel01_params[];
int hs_material_create_steel02(hs_material *m, const hs_options *opts);
extern const hs_param_spec hs_material_steel02_params[];
int hs_material_create_elastic_pp_gap(hs_material *m, const hs_options *opts);
extern const hs_param_spec hs_material_elastic_pp_gap_params[];
int hs_material_create_elastic_pp(hs_material *m, const hs_options *opts);
int hs_material_create_concrete_w_beta(hs_material *m, const hs_options *opts);
extern const hs_param_spec hs_material_concrete_w_beta_params[];
extern const hs_param_spec hs_material_elastic_pp_params[];
int hs_material_create_concrete01(hs_material *m, const hs_options *opts);
extern const hs_param_spec hs_material_concrete01_params[];
int hs_material_create_concrete02(hs_material *m, const hs_options *opts);
extern const hs_param_spec hs_material_concrete02_params[];
int hs_material_create_hysteretic(hs_material *m, const hs_options *opts);
extern const hs_param_spec hs_material_hysteretic_params[];
int hs_material_create_elastic_bilin(hs_material *m, const hs_options *opts);
extern const hs_param_spec hs_material_elastic_bilin_params[];
int hs_material_create_hysteretic_poly(hs_material *m, const hs_options *opts);
extern const hs_param_spec hs_material_hysteretic_poly_params[];
int hs_material_create_hysteretic_smooth(hs_material *m, const hs_options *opts);
extern const hs_param_spec hs_material_hysteretic_smooth_params[];
int hs_material_create_hysteretic_asym(hs_material *m, const hs_options *opts);
extern const hs_param_spec hs_material_hysteretic_asym_params[];
int hs_material_create_ratchet(hs_material *m, const hs_options *opts);
extern const hs_param_spec hs_material_ratchet_params[];
int hs_material_create_steel_brb(hs_material *m, const hs_options *opts);
extern const hs_param_spec hs_material_steel_brb_params[];
int hs_material_create_bwbn(hs_material *m, const hs_options *opts);
extern const hs_param_spec hs_material_bwbn_params[];
int hs_material_create_bouc_wen_infill(hs_material *m, const hs_options *opts);
extern const hs_param_spec hs_material_bouc_wen_infill_params[];
int hs_material_create_bearing_plasticity(hs_material *m, const hs_options *opts);
extern const hs_param_spec hs_material_bearing_plasticity_params[];

static const struct {
    hs_material_entry entry;
    hs_material_ctor ctor;
} hs_materials[] = {
    {{"elastic", hs_material_elastic_params, "linear elastic spring"}, hs_material_create_elastic},
    {{"bilinear", hs_material_bilinear_params, "bilinear spring, kinematic hardening"},
     hs_material_create_bilinear},
    {{"bouc_wen", hs_material_bouc_wen_params,
      "Bouc-Wen hysteresis with degradation (OpenSees BoucWen)"},
     hs_material_create_bouc_wen},
    {{"viscous", hs_material_viscous_params, "viscous damper c |v|^alpha sign v"},
     hs_material_create_viscous},
    {{"steel01", hs_material_steel01_params,
      "bilinear steel, kinematic + optional isotropic hardening (OpenSees Steel01)"},
     hs_material_create_steel01},
    {{"steel02", hs_material_steel02_params,
      "Giuffre-Menegotto-Pinto steel with isotropic hardening (OpenSees Steel02)"},
     hs_material_create_steel02},
    {{"elastic_pp_gap", hs_material_elastic_pp_gap_params,
      "elastic-perfectly-plastic spring acting after a gap (OpenSees ElasticPPGap)"},
     hs_material_create_elastic_pp_gap},
    {{"elastic_pp", hs_material_elastic_pp_params,
      "elastic-perfectly-plastic, yield strains in tension and compression (OpenSees ElasticPP)"},
     hs_material_create_elastic_pp},
    {{"concrete01", hs_material_concrete01_params,
      "Kent-Scott-Park concrete, no tension, Karsan-Jirsa unloading (OpenSees Concrete01)"},
     hs_material_create_concrete01},
    {{"concrete02", hs_material_concrete02_params,
      "concrete with linear tension softening (OpenSees Concrete02)"},
     hs_material_create_concrete02},
    {{"concrete_w_beta", hs_material_concrete_w_beta_params,
      "concrete of Lu's softening envelopes and tension softening (OpenSees ConcretewBeta)"},
     hs_material_create_concrete_w_beta},
    {{"hysteretic", hs_material_hysteretic_params,
      "trilinear backbones with pinching, damage and unloading degradation (OpenSees "
      "Hysteretic)"},
     hs_material_create_hysteretic},
    {{"elastic_bilin", hs_material_elastic_bilin_params,
      "nonlinear elastic, bilinear on each side (OpenSees ElasticBilin)"},
     hs_material_create_elastic_bilin},
    {{"hysteretic_poly", hs_material_hysteretic_poly_params,
      "smooth hysteresis with a polynomial elastic part (OpenSees HystereticPoly)"},
     hs_material_create_hysteretic_poly},
    {{"hysteretic_smooth", hs_material_hysteretic_smooth_params,
      "smooth exponential hysteresis (OpenSees HystereticSmooth)"},
     hs_material_create_hysteretic_smooth},
    {{"hysteretic_asym", hs_material_hysteretic_asym_params,
      "smooth asymmetric exponential hysteresis (OpenSees HystereticAsym)"},
     hs_material_create_hysteretic_asym},
    {{"ratchet", hs_material_ratchet_params,
      "one-way device engaging after a free travel that ratchets (OpenSees Ratchet)"},
     hs_material_create_ratchet},
    {{"steel_brb", hs_material_steel_brb_params,
      "buckling-restrained brace steel, Zona & Dall'Asta 2012 (OpenSees SteelBRB)"},
     hs_material_create_steel_brb},
    {{"bwbn", hs_material_bwbn_params,
      "Bouc-Wen-Baber-Noori hysteresis with pinching (OpenSees BWBN)"},
     hs_material_create_bwbn},
    {{"bouc_wen_infill", hs_material_bouc_wen_infill_params,
      "Bouc-Wen for masonry infills with damage and pinching (OpenSees BoucWenInfill)"},
     hs_material_create_bouc_wen_infill},
    {{"bearing_plasticity", hs_material_bearing_plasticity_params,
      "elastomeric bearing shear: plasticity with linear and nonlinear hardening (OpenSees "
      "elastomericBearingPlasticity)"},
     hs_material_create_bearing_plasticity},
};

#define HS_NMATERIALS (sizeof hs_materials / sizeof hs_materials[0])

size_t hs_material_registry_count(void)
{
    return HS_NMATERIALS;
}

const hs_material_entry *hs_material_registry_get(size_t i)
{
    return i < HS_NMATERIALS ? &hs_materials[i].entry : NULL;
}

const hs_material_entry *hs_material_registry_find(const char *name)
{
    return hs_material_registry_get(HS_REGISTRY_INDEX(hs_materials, name));
}

hs_material_ctor hs_material_registry_ctor(const char *name)
{
    const size_t i = HS_REGISTRY_INDEX(hs_materials, name);
    return i < HS_NMATERIALS ? hs_materials[i].ctor : NULL;
}
