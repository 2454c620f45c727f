/* CR (Chen and Ricles 2008): explicit in both displacement and velocity, unconditionally stable
 * for linear and softening structures. With K0 the initial stiffness (numerical + experimental),
 *   alpha1 = alpha2 = (M + dt/2 C + dt^2/4 K0)^-1 M
 *   v(n+1) = v(n) + dt alpha1 a(n)
 *   d(n+1) = d(n) + dt v(n) + dt^2 alpha2 a(n)                  (commanded)
 *   M a(n+1) = f(n+1) - C v(n+1) - r(d(n+1), v(n+1)) - r_exp    (M factored once)
 * d(n+1) and v(n+1) are known before the command: one command per step, no iteration, and the
 * numerical model is evaluated once, at the final state. For a linear structure its displacements
 * obey the same two-step recurrence as average-acceleration Newmark, with the load f(n) in place
 * of (f(n+1) + 2 f(n) + f(n-1))/4 (docs/integrators.md). */
#include "integrator_impl.h"

#include <string.h>

typedef struct cr {
    double *alpha1;   /* n x n (dense path) */
    hs_linsolver *As; /* sparse path: M + dt/2 C + dt^2/4 K0 (alpha1 a = As^-1 M a) */
    hs_linsolver *Ms; /* M */
    double *d1, *v1;  /* d(n+1), v(n+1) from predict */
    double *r;
    double *rhs;
} cr;

const hs_param_spec hs_cr_params[] = {{NULL, HS_PARAM_NUM, 0, NULL}};

static void cr_release(cr *s)
{
    hs_linsolver_destroy(&s->Ms);
    hs_linsolver_destroy(&s->As);
    hs_free(s->alpha1);
    hs_free(s->d1);
    hs_free(s->v1);
    hs_free(s->r);
    hs_free(s->rhs);
    s->alpha1 = s->d1 = s->v1 = s->r = s->rhs = NULL;
}

static int cr_setup(hs_integrator *it)
{
    cr *s = it->data;
    cr_release(s);
    const int n = it->n;
    const size_t nn = (size_t)n * (size_t)n;
    const double dt = it->dt;
    if (hs_int_sparse(it)) { /* alpha1 stays a product: A^-1 (M a(n)) at each step */
        s->d1 = hs_dvec((size_t)n);
        s->v1 = hs_dvec((size_t)n);
        s->r = hs_dvec((size_t)n);
        s->rhs = hs_dvec((size_t)n);
        if (!s->d1 || !s->v1 || !s->r || !s->rhs) return HS_ENOMEM;
        int rc = hs_int_factor_combination(it, 1.0, 0.5 * dt, 0.25 * dt * dt,
                                           "M + dt/2 C + dt^2/4 K0", &s->As);
        if (!rc) rc = hs_int_factor_combination(it, 1.0, 0.0, 0.0, "the mass matrix", &s->Ms);
        return rc;
    }
    double *A = hs_dvec(nn);
    hs_linsolver *As = NULL;
    s->alpha1 = hs_dvec(nn);
    s->d1 = hs_dvec((size_t)n);
    s->v1 = hs_dvec((size_t)n);
    s->r = hs_dvec((size_t)n);
    s->rhs = hs_dvec((size_t)n);
    int rc = (!A || !s->alpha1 || !s->d1 || !s->v1 || !s->r || !s->rhs) ? HS_ENOMEM : 0;
    if (!rc) {
        for (size_t k = 0; k < nn; k++)
            A[k] = it->dyn.M[k] + 0.25 * dt * dt * it->dyn.K0[k] +
                   (it->dyn.C ? 0.5 * dt * it->dyn.C[k] : 0.0);
        rc = hs_int_linsolver(it, it->kd, &As);
    }
    if (!rc) rc = hs_linsolver_factor(As, A);
    if (rc == HS_ESINGULAR)
        rc = hs_fail(it->ctx, HS_EINPUT, "integrator cr: M + dt/2 C + dt^2/4 K0 is singular");
    if (!rc) {
        memcpy(s->alpha1, it->dyn.M, nn * sizeof(double));
        for (int j = 0; j < n && !rc; j++)
            rc = hs_linsolver_solve(As, s->alpha1 + (size_t)j * (size_t)n);
    }
    hs_linsolver_destroy(&As);
    hs_free(A);
    if (!rc) rc = hs_int_linsolver(it, it->kd, &s->Ms);
    if (!rc) rc = hs_linsolver_factor(s->Ms, it->dyn.M);
    if (rc == HS_ESINGULAR)
        rc = hs_fail(it->ctx, HS_EINPUT, "integrator cr: the mass matrix is singular");
    return rc;
}

static int cr_predict(hs_integrator *it, hs_step_io *io)
{
    cr *s = it->data;
    const int n = it->n;
    const double dt = it->dt;
    if (s->As) { /* sparse: alpha1 a(n) = A^-1 (M a(n)) */
        hs_csc_matvec(it->dyn.Ms, it->a, s->r);
        const int rc = hs_linsolver_solve(s->As, s->r);
        if (rc) return rc;
    } else {
        hs_matvec(n, s->alpha1, it->a, s->r); /* alpha1 a(n) */
    }
    for (int i = 0; i < n; i++) {
        s->v1[i] = it->v[i] + dt * s->r[i];
        s->d1[i] = it->d[i] + dt * it->v[i] + dt * dt * s->r[i];
    }
    memcpy(io->d_cmd, s->d1, (size_t)n * sizeof(double));
    return 0;
}

static int cr_correct(hs_integrator *it, hs_step_io *io)
{
    cr *s = it->data;
    const int n = it->n;
    int rc = it->dyn.restore(it->dyn.user, s->d1, s->v1, s->r, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < n; i++)
        s->rhs[i] = io->f_n1[i] - s->r[i] - (io->r_exp ? io->r_exp[i] : 0.0);
    hs_int_matvec_add(it, HS_INT_C, s->v1, -1.0, s->rhs);
    rc = hs_linsolver_solve(s->Ms, s->rhs);
    if (rc) return rc;
    memcpy(it->d, s->d1, (size_t)n * sizeof(double));
    memcpy(it->v, s->v1, (size_t)n * sizeof(double));
    memcpy(it->a, s->rhs, (size_t)n * sizeof(double));
    return it->dyn.commit(it->dyn.user); /* the restore above was at the final state */
}

static void cr_destroy(hs_integrator *it)
{
    cr *s = it->data;
    if (!s) return;
    cr_release(s);
    hs_free(s);
    it->data = NULL;
}

int hs_integrator_create_cr(hs_integrator *it, const hs_options *opts)
{
    (void)opts;
    it->data = hs_calloc(1, sizeof(cr));
    if (!it->data) return HS_ENOMEM;
    it->ops.setup = cr_setup;
    it->ops.sparse = 1;
    it->ops.sparse_exp = 1; /* alpha1 from K0 + Ke (initial), factored once */
    it->ops.predict = cr_predict;
    it->ops.correct = cr_correct;
    it->ops.destroy = cr_destroy;
    return 0;
}
