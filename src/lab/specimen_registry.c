/* The specimen registry: one line per specimen model. */
#include "specimen_impl.h"

#include "../base/registry.h"

int hs_specimen_create_linear(hs_specimen *s, const hs_options *opts);
int hs_specimen_create_material(hs_specimen *s, const hs_options *opts);
int hs_specimen_create_intrinsic(hs_specimen *s, const hs_options *opts);
int hs_specimen_create_bilinear_degrading(hs_specimen *s, const hs_options *opts);
int hs_specimen_create_mr_damper(hs_specimen *s, const hs_options *opts);
int hs_specimen_create_relaxation_owned(hs_specimen *s, const hs_options *opts);
int hs_specimen_create_rths_benchmark(hs_specimen *s, const hs_options *opts);
int hs_specimen_create_rths_frame(hs_specimen *s, const hs_options *opts);
extern const hs_param_spec hs_specimen_linear_params[], hs_specimen_material_params[],
    hs_specimen_intrinsic_params[], hs_specimen_bilinear_degrading_params[],
    hs_specimen_mr_damper_params[], hs_specimen_relaxation_params[],
    hs_specimen_rths_benchmark_params[], hs_specimen_rths_frame_params[];

static const struct {
    hs_specimen_entry entry;
    hs_specimen_ctor ctor;
} hs_specimens[] = {
    {{"linear", hs_specimen_linear_params, "linear elastic, coupled stiffness matrix"},
     hs_specimen_create_linear},
    {{"material", hs_specimen_material_params, "one uniaxial material per actuator"},
     hs_specimen_create_material},
    {{"intrinsic", hs_specimen_intrinsic_params,
      "intrinsic DOFs with one material each, K = Tp^T P Tp (Mosqueda & Ahmadizadeh 2008b)"},
     hs_specimen_create_intrinsic},
    {{"bilinear_degrading", hs_specimen_bilinear_degrading_params,
      "bilinear with strength degradation after yield (Mosqueda et al. 2004 columns)"},
     hs_specimen_create_bilinear_degrading},
    {{"mr_damper", hs_specimen_mr_damper_params,
      "MR damper, Spencer et al. (1997) modified Bouc-Wen"},
     hs_specimen_create_mr_damper},
    {{"relaxation", hs_specimen_relaxation_params,
      "force relaxation at constant displacement around another specimen (Mosqueda et al. 2004, "
      "Fig. 9)"},
     hs_specimen_create_relaxation_owned},
    {{"rths_benchmark", hs_specimen_rths_benchmark_params,
      "the RTHS benchmark's servo-hydraulic actuator and specimen with control-structure "
      "interaction (Silva et al. 2020)"},
     hs_specimen_create_rths_benchmark},
    {{"rths_frame", hs_specimen_rths_frame_params,
      "the RTHS benchmark's numerical stiffness K - ke e1 e1' of the chosen plant (three floors)"},
     hs_specimen_create_rths_frame},
};

#define HS_NSPECIMENS (sizeof hs_specimens / sizeof hs_specimens[0])

size_t hs_specimen_registry_count(void)
{
    return HS_NSPECIMENS;
}

const hs_specimen_entry *hs_specimen_registry_get(size_t i)
{
    return i < HS_NSPECIMENS ? &hs_specimens[i].entry : NULL;
}

const hs_specimen_entry *hs_specimen_registry_find(const char *name)
{
    return hs_specimen_registry_get(HS_REGISTRY_INDEX(hs_specimens, name));
}

hs_specimen_ctor hs_specimen_registry_ctor(const char *name)
{
    const size_t i = HS_REGISTRY_INDEX(hs_specimens, name);
    return i < HS_NSPECIMENS ? hs_specimens[i].ctor : NULL;
}
