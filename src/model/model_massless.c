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
    const int n = m->n, n0 = hs_model_massless_count(m);
    if (n0 == 0) return 0;
    int *idx = hs_calloc((size_t)n0, sizeof *idx);
    double *K00 = hs_dvec((size_t)n0 * (size_t)n0), *X = hs_dvec((size_t)n0 * (size_t)n);
    hs_linsolver *s = NULL;
    int rc = (!idx || !K00 || !X) ? HS_ENOMEM : 0;
    for (int i = 0, a = 0; !rc && i < n; i++)
        if (m->mass[i] == 0.0) idx[a++] = i;
    for (int b = 0; !rc && b < n0; b++)
        for (int a = 0; a < n0; a++) HS_AT(K00, n0, a, b) = HS_AT(K, n, idx[a], idx[b]);
    if (!rc) rc = hs_linsolver_create(m->ctx, "dense", n0, &s);
    if (!rc) rc = hs_linsolver_factor(s, K00);
    if (rc == HS_ESINGULAR)
        rc = hs_fail(m->ctx, HS_EINPUT,
                     "model: the DOFs without mass have no stiffness of their own (singular "
                     "K00); connect an element to them or give them a mass");
    /* X = K00^-1 K0m, column j of the n; then K -= Km0 X on the DOFs with mass */
    for (int j = 0; !rc && j < n; j++) {
        double *x = &X[(size_t)j * (size_t)n0];
        for (int a = 0; a < n0; a++) x[a] = HS_AT(K, n, idx[a], j);
        rc = hs_linsolver_solve(s, x);
    }
    /* the entries Km0 read live in the massless columns, which the update leaves as they are */
    for (int j = 0; !rc && j < n; j++)
        for (int i = 0; m->mass[j] > 0.0 && i < n; i++) {
            if (m->mass[i] == 0.0) continue;
            double t = 0.0;
            for (int a = 0; a < n0; a++)
                t += HS_AT(K, n, i, idx[a]) * X[(size_t)j * (size_t)n0 + (size_t)a];
            HS_AT(K, n, i, j) -= t;
        }
    for (int a = 0; !rc && a < n0; a++)
        for (int i = 0; i < n; i++) HS_AT(K, n, i, idx[a]) = HS_AT(K, n, idx[a], i) = 0.0;
    hs_linsolver_destroy(&s);
    hs_free(idx);
    hs_free(K00);
    hs_free(X);
    return rc;
}
