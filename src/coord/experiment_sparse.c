/* The experimental substructures as compressed columns (hysim/experiment_sparse.h). T of a
 * control point at frame nodes has a few nonzero columns: the congruence T^T A T is assembled
 * over the pairs of those columns only, and keeps the nonzero products (two elements' DOFs are
 * not coupled). */
#include "hysim/experiment_sparse.h"

#include "hysim/linalg.h"

#include <string.h>

int hs_csc_congruence(hs_ctx *ctx, int n, int nact, const double *T, const double *A, hs_csc **out)
{
    int *cols = hs_calloc((size_t)n, sizeof *cols), nc = 0;
    if (!cols) return HS_ENOMEM;
    for (int p = 0; p < n; p++)
        for (int i = 0; i < nact; i++)
            if (HS_AT(T, nact, i, p) != 0.0) {
                cols[nc++] = p;
                break;
            }
    const size_t nt = (size_t)nc * (size_t)nc;
    int *ti = hs_calloc(nt ? nt : 1, sizeof *ti), *tj = hs_calloc(nt ? nt : 1, sizeof *tj);
    double *tx = hs_dvec(nt ? nt : 1), *AT = hs_dvec((size_t)nact);
    int rc = (!ti || !tj || !tx || !AT) ? HS_ENOMEM : 0;
    int k = 0; /* triplets kept: the nonzero products (an element couples its own DOFs) */
    for (int b = 0; !rc && b < nc; b++) {
        const int q = cols[b];
        for (int i = 0; i < nact; i++) { /* (A T)(:, q) */
            double s = 0.0;
            for (int j = 0; j < nact; j++) s += HS_AT(A, nact, i, j) * HS_AT(T, nact, j, q);
            AT[i] = s;
        }
        for (int a = 0; a < nc; a++) {
            const int p = cols[a];
            double s = 0.0;
            for (int i = 0; i < nact; i++) s += HS_AT(T, nact, i, p) * AT[i];
            if (s == 0.0) continue;
            ti[k] = p;
            tj[k] = q;
            tx[k++] = s;
        }
    }
    if (!rc) rc = hs_csc_from_triplets(ctx, n, n, k, ti, tj, tx, out);
    hs_free(cols);
    hs_free(ti);
    hs_free(tj);
    hs_free(tx);
    hs_free(AT);
    return rc;
}

void hs_experiment_csc_free(hs_experiment_csc *mats)
{
    hs_csc_destroy(&mats->Ke);
    hs_csc_destroy(&mats->Me);
    hs_csc_destroy(&mats->K0);
    hs_csc_destroy(&mats->M);
}

/* *total = X + E on the union of their patterns. */
static int add_sparse(hs_ctx *ctx, const hs_csc *X, const hs_csc *E, hs_csc **total)
{
    const int rc = hs_csc_pattern_union(ctx, X, E, total);
    return rc ? rc : hs_csc_axpby(ctx, 1.0, X, 1.0, E, *total);
}

int hs_dynamics_add_experiment_sparse(hs_ctx *ctx, hs_dynamics *dyn, int nact, const double *T,
                                      const double *K0l, const double *Ml, hs_experiment_csc *mats)
{
    memset(mats, 0, sizeof *mats);
    if (!dyn->K0s) return 0;
    if (nact <= 0 || !T || !K0l)
        return hs_fail(ctx, HS_EINVAL, "experimental substructures: no actuators, T or K0l");
    int rc = hs_csc_congruence(ctx, dyn->n, nact, T, K0l, &mats->Ke);
    if (!rc) rc = add_sparse(ctx, dyn->K0s, mats->Ke, &mats->K0);
    if (!rc && Ml) rc = hs_csc_congruence(ctx, dyn->n, nact, T, Ml, &mats->Me);
    if (!rc && Ml) rc = add_sparse(ctx, dyn->Ms, mats->Me, &mats->M);
    if (rc) {
        hs_experiment_csc_free(mats);
        return rc;
    }
    dyn->Kes = mats->Ke;
    dyn->Mes = mats->Me;
    dyn->K0s = mats->K0;
    if (mats->M) dyn->Ms = mats->M;
    return 0;
}
