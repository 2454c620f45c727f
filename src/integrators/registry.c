/* The integrator registry: one line per algorithm. */
#include "integrator_impl.h"

#include <string.h>

/* Each algorithm's create function, defined in its own file. */
int hs_integrator_create_newmark_explicit(hs_integrator *it, const hs_options *opts);
extern const hs_param_spec hs_newmark_explicit_params[];

static const hs_integrator_entry hs_integrators[] = {
    {"newmark_explicit", hs_integrator_create_newmark_explicit, hs_newmark_explicit_params, 2, 0,
     "explicit Newmark (gamma = 1/2, beta = 0), as in seed 000"},
};

size_t hs_integrator_registry_count(void) { return sizeof hs_integrators / sizeof hs_integrators[0]; }

const hs_integrator_entry *hs_integrator_registry_get(size_t i)
{
    return i < hs_integrator_registry_count() ? &hs_integrators[i] : NULL;
}

const hs_integrator_entry *hs_integrator_registry_find(const char *name)
{
    if (!name) return NULL;
    for (size_t i = 0; i < hs_integrator_registry_count(); i++)
        if (strcmp(hs_integrators[i].name, name) == 0) return &hs_integrators[i];
    return NULL;
}
