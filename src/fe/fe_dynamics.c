/* The integrators' sparse view of a frame without condensed DOFs (hs_dynamics with Ms, Cs, K0s
 * and the tangent pattern): M (lumped or consistent), K0 from the elements' slots, C = a0 M + a1 K0
 * (Rayleigh), and a restore that assembles the tangents into the pattern's values. */
#include "fe_impl.h"

#include "hysim/integrator.h"

#include <string.h>

void hs_fe_matrices_free(hs_fe_matrices *mats)
{
    hs_csc_destroy(&mats->M);
    hs_csc_destroy(&mats->C);
    hs_csc_destroy(&mats->K0);
}

static int fe_sparse_restore_cb(void *user, const double *d, const double *v, double *r, double *Kt,
                                double *Ct)
{
    return hs_fe_restore_sparse(user, d, v, r, Kt, Ct);
}

static int fe_sparse_restore_var_cb(void *user, const double *d, const double *v, double *r,
                                    double *Kt, double *Ct)
{
    return hs_fe_restore_sparse_var(user, d, v, r, Kt, Ct);
}

static int fe_sparse_commit_cb(void *user)
{
    return hs_fe_commit(user);
}

/* M in compressed columns: the diagonal when lumped, else the nonzeros of the full mass
 * (fe_mass.c; its pattern lies within K0's: an element's mass couples only its own DOFs, and
 * fe_sparse.c adds the master's DOFs that a mass on a rigid slave couples). */
static int mass_matrix(hs_fe *fe, hs_csc **out)
{
    const int n = fe->n;
    size_t nnz = 0;
    if (hs_fe_mass_is_lumped(fe))
        nnz = (size_t)n;
    else
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) nnz += HS_AT(fe->M, n, i, j) != 0.0 || i == j;
    int *ti = hs_calloc(nnz + 1, sizeof *ti), *tj = hs_calloc(nnz + 1, sizeof *tj);
    double *m = hs_dvec(nnz + 1);
    int rc = (!ti || !tj || !m) ? hs_fail(fe->ctx, HS_ENOMEM, "frame model: out of memory") : 0;
    if (!rc) {
        size_t at = 0;
        for (int j = 0; j < n; j++)
            for (int i = hs_fe_mass_is_lumped(fe) ? j : 0; i < n; i++) {
                const double v = hs_fe_mass_is_lumped(fe) ? fe->M[i] : HS_AT(fe->M, n, i, j);
                if (v != 0.0 || i == j) { /* the diagonal always (a lumped zero too) */
                    ti[at] = i;
                    tj[at] = j;
                    m[at++] = v;
                }
                if (hs_fe_mass_is_lumped(fe)) break;
            }
        rc = hs_csc_from_triplets(fe->ctx, n, n, (int)at, ti, tj, m, out);
    }
    hs_free(ti);
    hs_free(tj);
    hs_free(m);
    return rc;
}

int hs_fe_sparse_dynamics(hs_fe *fe, double a0, double a1, hs_fe_matrices *mats, hs_dynamics *dyn)
{
    memset(mats, 0, sizeof *mats);
    const hs_csc *P = NULL;
    int rc = hs_fe_sparse_pattern(fe, &P);
    if (!rc) rc = hs_csc_copy(fe->ctx, P, &mats->K0);
    if (!rc) {
        memset(mats->K0->val, 0, (size_t)hs_csc_nnz(P) * sizeof(double));
        rc = hs_fe_initial_stiffness_sparse(fe, mats->K0->val);
    }
    if (!rc) rc = mass_matrix(fe, &mats->M);
    if (!rc && (a0 != 0.0 || a1 != 0.0)) {
        rc = hs_csc_copy(fe->ctx, mats->K0, &mats->C); /* K0's pattern holds the diagonal */
        if (!rc) rc = hs_csc_axpby(fe->ctx, a0, mats->M, a1, mats->K0, mats->C);
    }
    if (rc) {
        hs_fe_matrices_free(mats);
        return rc;
    }
    memset(dyn, 0, sizeof *dyn);
    dyn->n = fe->n;
    dyn->Ms = mats->M;
    dyn->Cs = mats->C;
    dyn->K0s = mats->K0;
    dyn->tangent_pattern = P;
    dyn->restore = fe_sparse_restore_cb;
    dyn->tangent_var = fe->var_pos;
    dyn->ntangent_var = fe->nvar_pos;
    dyn->restore_var = fe_sparse_restore_var_cb;
    dyn->commit = fe_sparse_commit_cb;
    dyn->user = fe;
    dyn->linear = hs_fe_is_linear(fe);
    return 0;
}
