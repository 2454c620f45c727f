/* The frame's matrices in compressed columns (issue 10, section 2): for a frame whose every free
 * DOF carries mass (no condensed DOF; docs/fe_model.md, "Large frames"). The pattern of the
 * stiffness over the dynamic DOFs is built once from the elements' equations, with a slot map
 * (36 ints per element: where each entry of its 6 x 6 matrix goes, -1 for a fixed DOF), so that
 * the per-step assembly adds each element's matrix into the values without a search and without
 * allocating. */
#include "fe_impl.h"

#include <string.h>

/* The dynamic index of each of the element's equations, -1 when fixed. */
static void sparse_dofs(const hs_fe *fe, const fe_element *e, int dofs[6])
{
    int eqs[6];
    fe_element_eqs(fe, e, eqs);
    for (int a = 0; a < 6; a++) dofs[a] = eqs[a] >= 0 ? fe->eq_dyn[eqs[a]] : -1;
}

static int build_pattern(hs_fe *fe)
{
    const size_t cap = 36 * (size_t)fe->nels + (size_t)fe->n;
    int *ti = hs_calloc(cap, sizeof *ti), *tj = hs_calloc(cap, sizeof *tj);
    fe->slot = hs_calloc(36 * (size_t)fe->nels + 1, sizeof *fe->slot);
    int rc =
        (!ti || !tj || !fe->slot) ? hs_fail(fe->ctx, HS_ENOMEM, "frame model: out of memory") : 0;
    int nt = 0;
    for (int i = 0; !rc && i < fe->n; i++) { /* the diagonal: a DOF only a mass holds */
        ti[nt] = tj[nt] = i;
        nt++;
    }
    for (int k = 0; !rc && k < fe->nels; k++) {
        int dofs[6];
        sparse_dofs(fe, &fe->els[k], dofs);
        for (int j = 0; j < 6; j++)
            for (int i = 0; i < 6; i++)
                if (dofs[i] >= 0 && dofs[j] >= 0) {
                    ti[nt] = dofs[i];
                    tj[nt++] = dofs[j];
                }
    }
    if (!rc) rc = hs_csc_from_triplets(fe->ctx, fe->n, fe->n, nt, ti, tj, NULL, &fe->Kpat);
    hs_free(ti);
    hs_free(tj);
    if (rc) return rc;
    const hs_csc *P = fe->Kpat;
    for (int k = 0; k < fe->nels; k++) {
        int dofs[6];
        sparse_dofs(fe, &fe->els[k], dofs);
        for (int j = 0; j < 6; j++)
            for (int i = 0; i < 6; i++) {
                int *slot = &fe->slot[36 * (size_t)k + 6 * (size_t)j + (size_t)i];
                *slot = -1;
                if (dofs[i] < 0 || dofs[j] < 0) continue;
                for (int p = P->colptr[dofs[j]]; p < P->colptr[dofs[j] + 1]; p++)
                    if (P->rowind[p] == dofs[i]) *slot = p;
            }
    }
    return 0;
}

int hs_fe_sparse_pattern(hs_fe *fe, const hs_csc **out)
{
    if (!fe->finalized) return hs_fail(fe->ctx, HS_EINVAL, "frame model: not finalized");
    if (fe->n0)
        return hs_fail(fe->ctx, HS_EUNSUPPORTED,
                       "frame model: %d massless DOFs are condensed, which needs dense matrices; "
                       "give every free DOF a mass (rotational mass at the joints) for the sparse "
                       "path (docs/fe_model.md, \"Large frames\")",
                       fe->n0);
    if (!fe->Kpat) {
        const int rc = build_pattern(fe);
        if (rc) return rc;
    }
    *out = fe->Kpat;
    return 0;
}

/* Every element's force into fe->r_eq and its matrices into the slots of Kt, Ct (values of
 * fe->Kpat, when not NULL) at fe->u, fe->v; `initial`: the initial tangent only. */
static int sparse_assemble(hs_fe *fe, int initial, double *Kt, double *Ct)
{
    memset(fe->r_eq, 0, (size_t)fe->neq * sizeof(double));
    for (int k = 0; k < fe->nels; k++) {
        fe_element *e = &fe->els[k];
        double f[6] = {0}, ke[36], ce[36];
        int eqs[6];
        int rc = fe_element_state(fe, e, fe->u, fe->v, initial, f, ke, Ct ? ce : NULL);
        if (rc) return rc;
        fe_element_eqs(fe, e, eqs);
        for (int a = 0; a < 6; a++)
            if (eqs[a] >= 0) fe->r_eq[eqs[a]] += f[a];
        const int *slot = &fe->slot[36 * (size_t)k];
        for (int s = 0; s < 36; s++) {
            if (slot[s] < 0) continue;
            if (Kt) Kt[slot[s]] += ke[s];
            if (Ct) Ct[slot[s]] += ce[s];
        }
    }
    return 0;
}

int hs_fe_initial_stiffness_sparse(hs_fe *fe, double *val)
{
    const hs_csc *P = NULL;
    const int rc = hs_fe_sparse_pattern(fe, &P);
    return rc ? rc : sparse_assemble(fe, 1, val, NULL);
}

int hs_fe_restore_sparse(hs_fe *fe, const double *d, const double *v, double *r, double *Kt,
                         double *Ct)
{
    if (!fe->Kpat)
        return hs_fail(fe->ctx, HS_EINVAL, "frame model: the sparse pattern is not built");
    const int n = fe->n;
    const size_t nnz = (size_t)hs_csc_nnz(fe->Kpat);
    for (int i = 0; i < n; i++) {
        fe->u[fe->dyn_eq[i]] = d[i];
        fe->v[fe->dyn_eq[i]] = v ? v[i] : 0.0;
    }
    if (Kt) memset(Kt, 0, nnz * sizeof *Kt);
    if (Ct && !hs_fe_is_rate_dependent(fe)) Ct = NULL;
    if (Ct) memset(Ct, 0, nnz * sizeof *Ct);
    const int rc = sparse_assemble(fe, 0, Kt, Ct);
    if (rc) return rc;
    for (int i = 0; i < n; i++) r[i] = fe->r_eq[fe->dyn_eq[i]];
    return 0;
}
