/* The sparse form of a model's dynamics (docs/architecture.md, "Linear solvers"): a frame model
 * without condensed DOFs or springs (with an extra, experimental, stiffness only in its damping
 * here: the coordinator adds it to K0s), damped by Rayleigh (or not at all), of 100
 * DOFs or more and at most a tenth of its stiffness entries nonzero, gives the integrators its M,
 * C, K0 in compressed columns and a restore that assembles the tangent into that pattern; the dense
 * matrices stay in dyn for the coordinator's periods and energy and for the integrators without
 * a sparse branch. */
#include "model_impl.h"

#include "hysim/integrator.h"

/* The sparse path's restore: the frame's (no springs here). */
static int model_sparse_restore(void *user, const double *d, const double *v, double *r, double *Kt,
                                double *Ct)
{
    const hs_model *m = user;
    return hs_fe_restore_sparse(m->fe, d, v, r, Kt, Ct);
}

static int model_sparse_restore_var(void *user, const double *d, const double *v, double *r,
                                    double *Kt, double *Ct)
{
    const hs_model *m = user;
    return hs_fe_restore_sparse_var(m->fe, d, v, r, Kt, Ct);
}

/* 1 when every entry of the dense C is zero (no damping); a large model has no dense C and no
 * modal damping (refused): Rayleigh coefficients or nothing. */
static int damping_zero(const hs_model *m)
{
    if (!m->C) return 1;
    const size_t nn = (size_t)m->n * (size_t)m->n;
    for (size_t k = 0; k < nn; k++)
        if (m->C[k] != 0.0) return 0;
    return 1;
}

/* The extra (experimental) stiffness's share of Rayleigh damping, as the dense C has it:
 * C += a1 Kx on the union of the patterns (Kx is dense in the model; its nonzeros are the
 * experimental elements' DOFs). The stiffness itself stays out of K0s: the coordinator adds the
 * experiment as Kes (hysim/experiment_sparse.h). */
static int damping_extra(hs_model *m)
{
    hs_csc *X = NULL, *U = NULL;
    int rc = m->Kxs ? hs_csc_copy(m->ctx, m->Kxs, &X) : hs_csc_from_dense(m->ctx, m->n, m->Kx, &X);
    if (!rc) rc = hs_csc_pattern_union(m->ctx, m->fe_sparse.C, X, &U);
    if (!rc) rc = hs_csc_axpby(m->ctx, 1.0, m->fe_sparse.C, m->a1, X, U);
    hs_csc_destroy(&X);
    if (rc) {
        hs_csc_destroy(&U);
        return rc;
    }
    hs_csc_destroy(&m->fe_sparse.C);
    m->fe_sparse.C = U;
    return 0;
}

int hs_model_dynamics_sparse(hs_model *m, hs_dynamics *dyn)
{
    hs_fe_matrices_free(&m->fe_sparse);
    if (!m->fe || hs_fe_condensed(m->fe) > 0 || m->nsprings > 0) return 0;
    if (m->a0 == 0.0 && m->a1 == 0.0 && !damping_zero(m)) return 0; /* modal damping: dense */
    const hs_csc *P = NULL;
    int rc = hs_fe_sparse_pattern(m->fe, &P);
    if (rc) return rc;
    /* large and sparse (the solver is chosen apart: LAPACK's band while the band is narrow) */
    if (m->n < 100 || (double)hs_csc_nnz(P) > 0.1 * (double)m->n * (double)m->n) return 0;
    hs_dynamics sd;
    rc = hs_fe_sparse_dynamics(m->fe, m->a0, m->a1, &m->fe_sparse, &sd);
    if (!rc && (m->Kx || m->Kxs) && m->a1 != 0.0) rc = damping_extra(m);
    if (rc) {
        hs_fe_matrices_free(&m->fe_sparse);
        return rc;
    }
    if (m->fe_sparse.C) sd.Cs = m->fe_sparse.C;
    dyn->Ms = sd.Ms;
    dyn->Cs = sd.Cs;
    dyn->K0s = sd.K0s;
    dyn->tangent_pattern = sd.tangent_pattern;
    dyn->restore_sparse = model_sparse_restore;
    dyn->tangent_var = sd.tangent_var;
    dyn->ntangent_var = sd.ntangent_var;
    dyn->restore_var = model_sparse_restore_var;
    return 0;
}
