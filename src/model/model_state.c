/* The model's checkpoint state: per spring, its committed force and deformation and its material's
 * committed state (hs_material_state_*). Masses, damping and the springs' layout come from the
 * test definition and are not saved. */
#include "model_impl.h"

/* layout: spring count, then per spring: force, deformation, material state */
size_t hs_model_state_size(const hs_model *m)
{
    size_t k = 1;
    for (int s = 0; s < m->nsprings; s++) k += 2 + hs_material_state_size(m->springs[s].mat);
    return k + (m->fe ? hs_fe_state_size(m->fe) : 0);
}

int hs_model_state_save(const hs_model *m, double *out)
{
    *out++ = (double)m->nsprings;
    for (int s = 0; s < m->nsprings; s++) {
        const hs_spring *sp = &m->springs[s];
        *out++ = sp->force;
        *out++ = sp->deformation;
        int rc = hs_material_state_save(sp->mat, out);
        if (rc) return rc;
        out += hs_material_state_size(sp->mat);
    }
    return m->fe ? hs_fe_state_save(m->fe, out) : 0;
}

int hs_model_state_load(hs_model *m, const double *in)
{
    if (in[0] != (double)m->nsprings)
        return hs_fail(m->ctx, HS_EINPUT, "model: the saved state has %g springs, this model %d",
                       in[0], m->nsprings);
    in++;
    for (int s = 0; s < m->nsprings; s++) {
        hs_spring *sp = &m->springs[s];
        sp->force = *in++;
        sp->deformation = *in++;
        int rc = hs_material_state_load(sp->mat, in);
        if (rc) return hs_fail(m->ctx, rc, "spring '%s': %s", sp->name, hs_ctx_message(m->ctx));
        in += hs_material_state_size(sp->mat);
    }
    return m->fe ? hs_fe_state_load(m->fe, in) : 0;
}
