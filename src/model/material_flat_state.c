/* Commit, revert and checkpoints of laws whose state is a flat array of doubles that begins with
 * strain, stress and tangent (hs_material_flat_state, material_impl.h). */
#include "material_impl.h"

#include <string.h>

static int flat_commit(hs_material *m)
{
    memcpy(m->flat_c, m->flat_t, m->flat_n * sizeof(double));
    return 0;
}

static int flat_revert(hs_material *m)
{
    memcpy(m->flat_t, m->flat_c, m->flat_n * sizeof(double));
    m->strain = m->flat_c[0];
    m->stress = m->flat_c[1];
    m->tangent = m->flat_c[2];
    m->rate_tangent = 0.0;
    return 0;
}

static size_t flat_state_size(const hs_material *m)
{
    return m->flat_saved;
}

static int flat_state_save(const hs_material *m, double *out)
{
    memcpy(out, m->flat_c, m->flat_saved * sizeof(double));
    return 0;
}

static int flat_state_load(hs_material *m, const double *in)
{
    memcpy(m->flat_c, in, m->flat_saved * sizeof(double));
    if (m->flat_fill) m->flat_fill(m);
    memcpy(m->flat_t, m->flat_c, m->flat_n * sizeof(double));
    m->strain = in[0]; /* the trial after loading is the committed state */
    m->strain_rate = 0.0;
    return 0;
}

void hs_material_flat_state(hs_material *m, double *committed, double *trial, size_t n)
{
    m->flat_c = committed;
    m->flat_t = trial;
    m->flat_n = m->flat_saved = n;
    m->flat_fill = NULL;
    m->ops.commit = flat_commit;
    m->ops.revert = flat_revert;
    m->ops.state_size = flat_state_size;
    m->ops.state_save = flat_state_save;
    m->ops.state_load = flat_state_load;
}
