/* The dense view of a frame model for the sparse-path tests (hs_frame_dense.h). */
#include "hs_test.h"

#include "hs_frame_dense.h"

#include "hysim/integrator.h"

#include <stdlib.h>
#include <string.h>

void hs_frame_rayleigh(double *a0, double *a1)
{
    const double wi = 2.0 * HS_PI, wj = 20.0 * HS_PI, z = 0.02;
    *a1 = 2.0 * z / (wi + wj);
    *a0 = *a1 * wi * wj;
}

/* r = hs_fe_restore with zeroed outputs, tangents dense. */
static int dense_restore(void *user, const double *d, const double *v, double *r, double *Kt,
                         double *Ct)
{
    hs_fe *fe = user;
    const size_t n = (size_t)hs_fe_ndof(fe);
    memset(r, 0, n * sizeof *r);
    if (Kt) memset(Kt, 0, n * n * sizeof *Kt);
    if (Ct) memset(Ct, 0, n * n * sizeof *Ct);
    return hs_fe_restore(fe, d, v, r, Kt, Ct);
}

static int dense_commit(void *user)
{
    return hs_fe_commit(user);
}

void hs_frame_dense_dynamics(hs_fe *fe, hs_frame_dense *df, hs_dynamics *dyn)
{
    const int n = hs_fe_ndof(fe);
    const size_t nn = (size_t)n * (size_t)n;
    df->M = calloc(nn, sizeof(double));
    df->C = calloc(nn, sizeof(double));
    df->K0 = calloc(nn, sizeof(double));
    double a0, a1;
    assert_true(df->M && df->C && df->K0);
    hs_fe_mass_matrix(fe, df->M); /* full with consistent mass or masses on rigid slaves */
    assert_int_equal(hs_fe_initial_stiffness(fe, df->K0), 0);
    hs_frame_rayleigh(&a0, &a1);
    hs_mat_axpby(n, a0, df->M, a1, df->K0, df->C);
    memset(dyn, 0, sizeof *dyn);
    dyn->n = n;
    dyn->M = df->M;
    dyn->C = df->C;
    dyn->K0 = df->K0;
    dyn->restore = dense_restore;
    dyn->commit = dense_commit;
    dyn->user = fe;
    dyn->linear = hs_fe_is_linear(fe);
}

void hs_frame_dense_free(hs_frame_dense *df)
{
    free(df->M);
    free(df->C);
    free(df->K0);
    free(df->Ke);
    free(df->Me);
    memset(df, 0, sizeof *df);
}
