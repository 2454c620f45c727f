/* Models with DOFs that carry no mass (an experimental element's control point on a frame's
 * massless DOF, hs_fe_keep_dof): their masses are accepted as zero, and the damping built from
 * the stiffness sees the stiffness condensed to the DOFs with mass, so that a frame whose massless
 * DOF is kept has the damping of the same frame with that DOF condensed (docs/integrators.md,
 * "Experimental DOFs without mass"; docs/fe_model.md, "Massless DOFs"). */
#include "model_impl.h"

#include <string.h>

void hs_model_allow_massless(hs_model *m)
{
    m->massless_ok = 1;
}

int hs_model_massless_count(const hs_model *m)
{
    int k = 0;
    for (int i = 0; i < m->n; i++) k += m->mass[i] == 0.0;
    return k;
}

int hs_model_condense_massless(hs_model *m, double *K)
{
    const int n = m->n;
    if (hs_model_massless_count(m) == 0) return 0;
    unsigned char *drop = hs_calloc((size_t)n, 1);
    if (!drop) return HS_ENOMEM;
    for (int i = 0; i < n; i++) drop[i] = m->mass[i] == 0.0;
    int rc = hs_static_condense(m->ctx, n, K, drop);
    hs_free(drop);
    if (rc == HS_ESINGULAR)
        rc = hs_fail(m->ctx, HS_EINPUT,
                     "model: the DOFs without mass have no stiffness of their own (singular "
                     "K00); connect an element to them or give them a mass");
    return rc;
}
