/* Ghaboussi's predictor-corrector (Ghaboussi, Yun and Hashash; Hashash et al. 2004, eq. 7-11):
 *   M a(n+1) + C v(n+1) + K^L d(n+1) + K^NL d~b(n+1) = f(n+1)                      (eq. 7)
 *   d(n+1) = d(n) + dt v(n) + dt^2 [(1/2 - beta) a(n) + beta a(n+1)]                (eq. 8)
 *   v(n+1) = v(n) + dt [(1 - gamma) a(n) + gamma a(n+1)]                            (eq. 9)
 *   d~b(n+1) = d(n) + dt v(n) + dt^2 (1/2 - beta) a(n)   (commanded)                (eq. 10)
 *   beta = 1/4, gamma = 1/2                                                         (eq. 11)
 * Reading (docs/integrators.md): the linear part K^L is implicit (average acceleration); the
 * rest of the structure is "a nonlinear external loading" evaluated at the predictor, i.e.
 * K^NL d~b is the force measured at d~b. hysim takes K^L as the numerical model's stiffness at
 * the initial state (restore's Kt at setup), so no stiffness of the experimental part is needed
 * (the method's point). A nonlinear numerical model enters the same way as the experiment: its
 * force beyond K^L, r(d~, v~) - K^L d~, at the predictor (no iteration). With d(n+1), v(n+1)
 * substituted the K^L d~ terms cancel:
 *   (M + dt/2 C + dt^2/4 K^L) a(n+1) = f(n+1) - C v~ - r(d~, v~) - r_exp,  v~ = v(n) + dt/2 a(n)
 * with the matrix factored once. Linear, all numerical: average-acceleration Newmark. Stability
 * with an experimental part (Hashash et al. 2004, Table 1): omega dt < 2 / sqrt(1 - k^L / k_T). */
#include "integrator_impl.h"

#include <string.h>

typedef struct ghaboussi_pc {
    hs_linsolver *lhs; /* M + dt/2 C + dt^2/4 K^L */
    double *dp, *vp;   /* predictor */
    double *r, *rhs;
} ghaboussi_pc;

const hs_param_spec hs_ghaboussi_pc_params[] = {{NULL, HS_PARAM_NUM, 0, NULL}};

static void gpc_release(ghaboussi_pc *s)
{
    hs_linsolver_destroy(&s->lhs);
    hs_free(s->dp);
    hs_free(s->vp);
    hs_free(s->r);
    hs_free(s->rhs);
    s->dp = s->vp = s->r = s->rhs = NULL;
}

static int gpc_setup(hs_integrator *it)
{
    ghaboussi_pc *s = it->data;
    gpc_release(s);
    const int n = it->n;
    const size_t nn = (size_t)n * (size_t)n;
    const double dt = it->dt;
    double *A = hs_dvec(nn), *KL = hs_dvec(hs_int_tangent_size(it)); /* KL in restore's layout */
    s->dp = hs_dvec((size_t)n);
    s->vp = hs_dvec((size_t)n);
    s->r = hs_dvec((size_t)n);
    s->rhs = hs_dvec((size_t)n);
    int rc = (!A || !KL || !s->dp || !s->vp || !s->r || !s->rhs) ? HS_ENOMEM : 0;
    /* K^L: the numerical model's tangent at the initial state (a trial, not committed) */
    if (!rc) rc = it->dyn.restore(it->dyn.user, it->d, it->v, s->r, KL, NULL);
    if (!rc) {
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                const size_t k = (size_t)j * (size_t)n + (size_t)i;
                A[k] = it->dyn.M[k] + 0.25 * dt * dt * hs_int_tangent_at(it, KL, i, j) +
                       (it->dyn.C ? 0.5 * dt * it->dyn.C[k] : 0.0);
            }
        rc = hs_int_linsolver(it, it->kd_tangent, &s->lhs);
    }
    if (!rc) rc = hs_linsolver_factor(s->lhs, A);
    if (rc == HS_ESINGULAR)
        rc = hs_fail(it->ctx, HS_EINPUT,
                     "integrator ghaboussi_pc: M + dt/2 C + dt^2/4 K^L is singular");
    hs_free(A);
    hs_free(KL);
    return rc;
}

static int gpc_predict(hs_integrator *it, hs_step_io *io)
{
    ghaboussi_pc *s = it->data;
    const double dt = it->dt;
    for (int i = 0; i < it->n; i++) {
        s->dp[i] = it->d[i] + dt * it->v[i] + 0.25 * dt * dt * it->a[i];
        s->vp[i] = it->v[i] + 0.5 * dt * it->a[i];
    }
    memcpy(io->d_cmd, s->dp, (size_t)it->n * sizeof(double));
    return 0;
}

static int gpc_correct(hs_integrator *it, hs_step_io *io)
{
    ghaboussi_pc *s = it->data;
    const int n = it->n;
    const double dt = it->dt;
    int rc = it->dyn.restore(it->dyn.user, s->dp, s->vp, s->r, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < n; i++)
        s->rhs[i] = io->f_n1[i] - s->r[i] - (io->r_exp ? io->r_exp[i] : 0.0);
    if (it->dyn.C) hs_packed_matvec_add(n, it->kd, it->Cp, s->vp, -1.0, s->rhs);
    rc = hs_linsolver_solve(s->lhs, s->rhs);
    if (rc) return rc;
    for (int i = 0; i < n; i++) {
        it->a[i] = s->rhs[i];
        it->d[i] = s->dp[i] + 0.25 * dt * dt * s->rhs[i];
        it->v[i] = s->vp[i] + 0.5 * dt * s->rhs[i];
    }
    /* the numerical model's history follows the corrected state */
    rc = it->dyn.restore(it->dyn.user, it->d, it->v, s->r, NULL, NULL);
    return rc ? rc : it->dyn.commit(it->dyn.user);
}

static void gpc_destroy(hs_integrator *it)
{
    ghaboussi_pc *s = it->data;
    if (!s) return;
    gpc_release(s);
    hs_free(s);
    it->data = NULL;
}

int hs_integrator_create_ghaboussi_pc(hs_integrator *it, const hs_options *opts)
{
    (void)opts;
    it->data = hs_calloc(1, sizeof(ghaboussi_pc));
    if (!it->data) return HS_ENOMEM;
    it->ops.setup = gpc_setup;
    it->ops.predict = gpc_predict;
    it->ops.correct = gpc_correct;
    it->ops.destroy = gpc_destroy;
    return 0;
}
