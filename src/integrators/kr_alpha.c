/* KR-alpha (Kolay and Ricles 2014): explicit, unconditionally stable for linear and softening
 * structures, with numerical dissipation set by rho_inf in [0, 1] (docs ALGORITHMS.md; what
 * OpenSees' KRAlphaExplicit computes). Weights on the new state:
 *   alpha_m = (2 - rho)/(1 + rho), alpha_f = 1/(1 + rho), beta = 1/(1 + rho)^2,
 *   gamma = (3 - rho)/(2 (1 + rho));  A = M + gamma dt C + beta dt^2 K0 (K0 initial)
 *   alpha1 = A^-1 M,  alpha2 = (1/2 + gamma) alpha1,
 *   alpha3 = A^-1 [(1 - alpha_m) M + (1 - alpha_f) gamma dt C + (1 - alpha_f) beta dt^2 K0]
 *   v(n+1) = v(n) + dt alpha1 a(n),  d(n+1) = d(n) + dt v(n) + dt^2 alpha2 a(n)
 *   x(n+af) = (1 - alpha_f) x(n) + alpha_f x(n+1)   (commanded: d(n+af), as OpenSees does)
 *   M (I - alpha3) a(n+1) = f(t(n) + alpha_f dt) - M alpha3 a(n) - C v(n+af) - r(d(n+af))
 *                           - r_exp      (M (I - alpha3) factored once)
 * The load at t(n) + alpha_f dt is interpolated linearly between f(n) and f(n+1). rho_inf = 1
 * (alpha_f = 1/2, alpha3 = I/2) is CR for linear structures. */
#include "integrator_impl.h"

#include <string.h>

typedef struct kr_alpha {
    double rho, am, af, beta, gamma;
    double *alpha1;    /* n x n */
    double *Malpha3;   /* M alpha3, n x n */
    hs_linsolver *lhs; /* M (I - alpha3) = M - M alpha3 */
    double *d1, *v1;   /* d(n+1), v(n+1) from predict */
    double *daf, *vaf; /* d, v at n + alpha_f */
    double *r, *rhs;
} kr_alpha;

const hs_param_spec hs_kr_alpha_params[] = {
    {"rho_inf", HS_PARAM_NUM, 0,
     "spectral radius as omega dt -> infinity, in [0, 1] (default 0.5; 1 = no dissipation)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

static void kr_release(kr_alpha *s)
{
    hs_linsolver_destroy(&s->lhs);
    hs_free(s->alpha1);
    hs_free(s->Malpha3);
    hs_free(s->d1);
    hs_free(s->v1);
    hs_free(s->daf);
    hs_free(s->vaf);
    hs_free(s->r);
    hs_free(s->rhs);
    s->alpha1 = s->Malpha3 = s->d1 = s->v1 = s->daf = s->vaf = s->r = s->rhs = NULL;
}

/* X = A^-1 B for the factored A, column by column (B copied into X first). */
static int kr_solve_columns(hs_linsolver *As, int n, const double *B, double *X)
{
    memcpy(X, B, (size_t)n * (size_t)n * sizeof(double));
    for (int j = 0; j < n; j++) {
        int rc = hs_linsolver_solve(As, X + (size_t)j * (size_t)n);
        if (rc) return rc;
    }
    return 0;
}

static int kr_setup(hs_integrator *it)
{
    kr_alpha *s = it->data;
    kr_release(s);
    const int n = it->n;
    const size_t nn = (size_t)n * (size_t)n, nv = (size_t)n;
    const double dt = it->dt;
    const double *M = it->dyn.M, *C = it->dyn.C, *K = it->dyn.K0;
    double *A = hs_dvec(nn), *B = hs_dvec(nn), *alpha3 = hs_dvec(nn);
    hs_linsolver *As = NULL;
    s->alpha1 = hs_dvec(nn);
    s->Malpha3 = hs_dvec(nn);
    s->d1 = hs_dvec(nv);
    s->v1 = hs_dvec(nv);
    s->daf = hs_dvec(nv);
    s->vaf = hs_dvec(nv);
    s->r = hs_dvec(nv);
    s->rhs = hs_dvec(nv);
    int rc = (!A || !B || !alpha3 || !s->alpha1 || !s->Malpha3 || !s->d1 || !s->v1 || !s->daf ||
              !s->vaf || !s->r || !s->rhs)
                 ? HS_ENOMEM
                 : 0;
    if (!rc) {
        const double cm = 1.0 - s->am, cf = 1.0 - s->af;
        for (size_t k = 0; k < nn; k++) {
            const double c = C ? s->gamma * dt * C[k] : 0.0, kk = s->beta * dt * dt * K[k];
            A[k] = M[k] + c + kk;
            B[k] = cm * M[k] + cf * (c + kk);
        }
        rc = hs_int_linsolver(it, it->kd, &As);
    }
    if (!rc) rc = hs_linsolver_factor(As, A);
    if (rc == HS_ESINGULAR)
        rc = hs_fail(it->ctx, HS_EINPUT,
                     "integrator kr_alpha: M + gamma dt C + beta dt^2 K0 is singular");
    if (!rc) rc = kr_solve_columns(As, n, M, s->alpha1);
    if (!rc) rc = kr_solve_columns(As, n, B, alpha3);
    if (!rc) {
        hs_matmul(n, M, alpha3, s->Malpha3);
        hs_mat_axpby(n, 1.0, M, -1.0, s->Malpha3, A); /* A = M (I - alpha3) */
        rc = hs_linsolver_create(it->ctx, "dense", n, &s->lhs);
    }
    if (!rc) rc = hs_linsolver_factor(s->lhs, A);
    if (rc == HS_ESINGULAR)
        rc = hs_fail(it->ctx, HS_EINPUT, "integrator kr_alpha: M (I - alpha3) is singular");
    hs_linsolver_destroy(&As);
    hs_free(A);
    hs_free(B);
    hs_free(alpha3);
    return rc;
}

static int kr_predict(hs_integrator *it, hs_step_io *io)
{
    kr_alpha *s = it->data;
    const int n = it->n;
    const double dt = it->dt, af = s->af;
    hs_matvec(n, s->alpha1, it->a, s->r); /* alpha1 a(n) */
    for (int i = 0; i < n; i++) {
        s->v1[i] = it->v[i] + dt * s->r[i];
        s->d1[i] = it->d[i] + dt * it->v[i] + dt * dt * (0.5 + s->gamma) * s->r[i];
        s->daf[i] = (1.0 - af) * it->d[i] + af * s->d1[i];
        s->vaf[i] = (1.0 - af) * it->v[i] + af * s->v1[i];
    }
    memcpy(io->d_cmd, s->daf, (size_t)n * sizeof(double));
    return 0;
}

static int kr_correct(hs_integrator *it, hs_step_io *io)
{
    kr_alpha *s = it->data;
    const int n = it->n;
    const double af = s->af;
    int rc = it->dyn.restore(it->dyn.user, s->daf, s->vaf, s->r, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < n; i++)
        s->rhs[i] =
            (1.0 - af) * io->f_n[i] + af * io->f_n1[i] - s->r[i] - (io->r_exp ? io->r_exp[i] : 0.0);
    if (it->dyn.C) hs_packed_matvec_add(n, it->kd, it->Cp, s->vaf, -1.0, s->rhs);
    hs_matvec_add(n, s->Malpha3, it->a, -1.0, s->rhs);
    rc = hs_linsolver_solve(s->lhs, s->rhs);
    if (rc) return rc;
    memcpy(it->d, s->d1, (size_t)n * sizeof(double));
    memcpy(it->v, s->v1, (size_t)n * sizeof(double));
    memcpy(it->a, s->rhs, (size_t)n * sizeof(double));
    /* the numerical model's history follows the state at t(n+1) */
    rc = it->dyn.restore(it->dyn.user, it->d, it->v, s->r, NULL, NULL);
    return rc ? rc : it->dyn.commit(it->dyn.user);
}

static void kr_destroy(hs_integrator *it)
{
    kr_alpha *s = it->data;
    if (!s) return;
    kr_release(s);
    hs_free(s);
    it->data = NULL;
}

int hs_integrator_create_kr_alpha(hs_integrator *it, const hs_options *opts)
{
    const double rho = hs_options_num(opts, "rho_inf", 0.5);
    if (!(rho >= 0.0 && rho <= 1.0))
        return hs_fail(it->ctx, HS_EINPUT,
                       "integrator kr_alpha: rho_inf must be in [0, 1] (got %g)", rho);
    kr_alpha *s = hs_calloc(1, sizeof *s);
    if (!s) return HS_ENOMEM;
    s->rho = rho;
    s->am = (2.0 - rho) / (1.0 + rho);
    s->af = 1.0 / (1.0 + rho);
    s->beta = 1.0 / ((1.0 + rho) * (1.0 + rho));
    s->gamma = (3.0 - rho) / (2.0 * (1.0 + rho));
    it->data = s;
    it->ops.setup = kr_setup;
    it->ops.predict = kr_predict;
    it->ops.correct = kr_correct;
    it->ops.destroy = kr_destroy;
    return 0;
}
