/* The compensator registry: one line per delay compensation method. */
#include "compensator_impl.h"

#include "../base/registry.h"

int hs_compensator_create_none(hs_compensator *c, const hs_options *opts);
int hs_compensator_create_polynomial(hs_compensator *c, const hs_options *opts);
int hs_compensator_create_inverse(hs_compensator *c, const hs_options *opts);
int hs_compensator_create_adaptive_inverse(hs_compensator *c, const hs_options *opts);
extern const hs_param_spec hs_compensator_none_params[], hs_compensator_polynomial_params[],
    hs_compensator_inverse_params[], hs_compensator_adaptive_inverse_params[];

static const struct {
    hs_compensator_entry entry;
    hs_compensator_ctor ctor;
} hs_compensators[] = {
    {{"none", hs_compensator_none_params, "no compensation: the command is the desired one"},
     hs_compensator_create_none},
    {{"polynomial", hs_compensator_polynomial_params,
      "Horiuchi et al. (1999): cubic extrapolation of the last four desired commands"},
     hs_compensator_create_polynomial},
    {{"inverse", hs_compensator_inverse_params,
      "inverse of the first-order actuator model, Gc = (a_es z - (a_es - 1)) / z (Chen & Ricles "
      "2010)"},
     hs_compensator_create_inverse},
    {{"adaptive_inverse", hs_compensator_adaptive_inverse_params,
      "inverse compensation with a_es adapted by a PI law on the tracking indicator (Chen & Ricles "
      "2010)"},
     hs_compensator_create_adaptive_inverse},
};

#define HS_NCOMPENSATORS (sizeof hs_compensators / sizeof hs_compensators[0])

size_t hs_compensator_registry_count(void)
{
    return HS_NCOMPENSATORS;
}

const hs_compensator_entry *hs_compensator_registry_get(size_t i)
{
    return i < HS_NCOMPENSATORS ? &hs_compensators[i].entry : NULL;
}

const hs_compensator_entry *hs_compensator_registry_find(const char *name)
{
    return hs_compensator_registry_get(HS_REGISTRY_INDEX(hs_compensators, name));
}

hs_compensator_ctor hs_compensator_registry_ctor(const char *name)
{
    const size_t i = HS_REGISTRY_INDEX(hs_compensators, name);
    return i < HS_NCOMPENSATORS ? hs_compensators[i].ctor : NULL;
}
