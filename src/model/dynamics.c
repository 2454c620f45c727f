/* The model as an integrator sees it (hs_dynamics), for purely numerical runs. */
#include "model_impl.h"

#include "hysim/integrator.h"

static int hs_model_restore_cb(void *user, const double *d, const double *v, double *r, double *Kt,
                               double *Ct)
{
    return hs_model_restore(user, d, v, r, Kt, Ct);
}

static int hs_model_commit_cb(void *user) { return hs_model_commit(user); }

int hs_model_dynamics(hs_model *m, double *K0, hs_dynamics *dyn)
{
    int rc = hs_model_initial_stiffness(m, K0);
    if (rc) return rc;
    dyn->n = m->n;
    dyn->M = m->M;
    dyn->Me = NULL;
    dyn->C = m->C;
    dyn->K0 = K0;
    dyn->Ke = NULL;
    dyn->restore = hs_model_restore_cb;
    dyn->commit = hs_model_commit_cb;
    dyn->user = m;
    dyn->linear = hs_model_is_linear(m);
    return 0;
}
