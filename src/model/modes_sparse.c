/* The lowest modes of a model: LAPACK's dense eigensolver for small ones (every mode), ARPACK's
 * shift-invert Lanczos on the frame's sparse stiffness for large frames (src/base/eig_sparse.c). */
#include "model_impl.h"

#include "hysim/integrator.h"

#include <string.h>

int hs_model_modes_sparse(const hs_model *m)
{
    return m->n > HS_MODES_DENSE_MAX && m->fe && hs_fe_condensed(m->fe) == 0 && m->nsprings == 0 &&
           !m->Kx;
}

/* The frame's K0 (plus the extra stiffness in compressed columns, when set) and M in compressed
 * columns (M full with consistent element mass or masses on rigid slaves: hs_fe_sparse_dynamics
 * builds it from the frame, as the model's), then ARPACK. */
static int modes_arpack(hs_model *m, int nev, double *omega2, double *phi)
{
    hs_fe_matrices mats = {0};
    hs_dynamics dyn;
    hs_csc *K = NULL;
    int rc = hs_fe_sparse_dynamics(m->fe, 0.0, 0.0, &mats, &dyn);
    if (!rc && m->Kxs) rc = hs_csc_pattern_union(m->ctx, mats.K0, m->Kxs, &K);
    if (!rc && K) rc = hs_csc_axpby(m->ctx, 1.0, mats.K0, 1.0, m->Kxs, K);
    if (!rc) rc = hs_sparse_eig(m->ctx, K ? K : mats.K0, mats.M, nev, omega2, phi);
    if (!rc && !(omega2[0] > 0.0))
        rc = hs_fail(m->ctx, HS_EINPUT,
                     "model: mode 1 has omega^2 = %g; the structure is unstable or not "
                     "restrained to the ground",
                     omega2[0]);
    hs_csc_destroy(&K);
    hs_fe_matrices_free(&mats);
    return rc;
}

int hs_model_modes_lowest(hs_model *m, int nev, double *omega2, double *phi)
{
    const int n = m->n;
    if (nev < 1 || nev > n)
        return hs_fail(m->ctx, HS_EINVAL, "model: %d modes of a model with %d DOFs", nev, n);
    if (hs_model_modes_sparse(m) && nev < n) return modes_arpack(m, nev, omega2, phi);
    int rc0 = hs_model_dense_only(m, "computing the modes of a model with springs",
                                  "make it a frame model without springs, every free DOF with a "
                                  "mass");
    if (rc0) return rc0;
    double *w = hs_dvec((size_t)n), *v = phi ? hs_dvec((size_t)n * (size_t)n) : NULL;
    int rc = (!w || (phi && !v)) ? HS_ENOMEM : hs_model_modes(m, w, v);
    if (!rc) {
        memcpy(omega2, w, (size_t)nev * sizeof *omega2);
        if (phi) memcpy(phi, v, (size_t)n * (size_t)nev * sizeof *phi);
    }
    hs_free(w);
    hs_free(v);
    return rc;
}
