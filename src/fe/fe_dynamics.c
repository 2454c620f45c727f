/* The integrators' sparse view of a frame without condensed DOFs (hs_dynamics with Ms, Cs, K0s
 * and the tangent pattern): M lumped, K0 from the elements' slots, C = a0 M + a1 K0 (Rayleigh),
 * and a restore that assembles the tangents into the pattern's values. */
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

static int fe_sparse_commit_cb(void *user)
{
    return hs_fe_commit(user);
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
    if (!rc) { /* the lumped mass: the diagonal */
        const int n = fe->n;
        int *idx = hs_calloc((size_t)n, sizeof *idx);
        double *m = hs_dvec((size_t)n);
        if (!idx || !m) rc = hs_fail(fe->ctx, HS_ENOMEM, "frame model: out of memory");
        if (!rc) {
            hs_fe_mass(fe, m);
            for (int i = 0; i < n; i++) idx[i] = i;
            rc = hs_csc_from_triplets(fe->ctx, n, n, n, idx, idx, m, &mats->M);
        }
        hs_free(idx);
        hs_free(m);
    }
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
    dyn->commit = fe_sparse_commit_cb;
    dyn->user = fe;
    dyn->linear = hs_fe_is_linear(fe);
    return 0;
}
