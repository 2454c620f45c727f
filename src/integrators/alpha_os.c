/* alpha-operator-splitting (Nakashima et al.; Combescure and Pegon), Hashash et al. 2004, eq. 1-6.
 *   beta = (1 - alpha)^2 / 4, gamma = 1/2 - alpha, alpha in [-1/3, 0]
 *   d~ = d(n) + dt v(n) + dt^2 (1/2 - beta) a(n),  v~ = v(n) + dt (1 - gamma) a(n)   (commanded)
 *   r~(n+1) = r(d~, v~) + r_exp: numerical and measured forces both at the predictor (no Newton)
 *   r(n+1) ~ K_I d(n+1) + p(n+1), p(n+1) = r~(n+1) - K_I d~   (eq. 1, K_I = dyn->K0)
 *   M a(n+1) + (1+alpha)(C v(n+1) + K_I d(n+1) + p(n+1)) - alpha (C v(n) + K_I d(n) + p(n))
 *       = (1+alpha) f(n+1) - alpha f(n)                                         (eq. 2)
 *   d(n+1) = d~ + beta dt^2 a(n+1),  v(n+1) = v~ + gamma dt a(n+1)              (eq. 4-5)
 * With d(n+1), v(n+1) substituted, [M + (1+alpha) gamma dt C + (1+alpha) beta dt^2 K_I] a(n+1)
 *   = (1+alpha)(f(n+1) - C v~ - r~(n+1)) - alpha (f(n) - C v(n) - K_I d(n) - p(n)),
 * a constant matrix factored once. The paper prints -alpha F(n+1) on the right of eq. 2; the
 * method (and Combescure-Pegon) has -alpha F(n), used here. p(n) is the only state beyond
 * (d, v, a); it is zero for a linear structure whose stiffness is K_I. */
#include "integrator_impl.h"

#include <string.h>

typedef struct alpha_os {
    double alpha, beta, gamma;
    hs_linsolver *lhs; /* M + (1+alpha) gamma dt C + (1+alpha) beta dt^2 K_I */
    double *dp, *vp;   /* predictor d~, v~ */
    double *p;         /* p(n) = r~(n) - K_I d~(n), the force not carried by K_I */
    double *r;         /* restoring force (scratch) */
    double *rhs;
} alpha_os;

const hs_param_spec hs_alpha_os_params[] = {
    {"alpha", HS_PARAM_NUM, 0, "HHT alpha in [-1/3, 0] (default -0.05)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

/* Frees what setup allocates (setup may run again on the same integrator). */
static void aos_release(alpha_os *s)
{
    hs_linsolver_destroy(&s->lhs);
    hs_free(s->dp);
    hs_free(s->vp);
    hs_free(s->p);
    hs_free(s->r);
    hs_free(s->rhs);
    s->dp = s->vp = s->p = s->r = s->rhs = NULL;
}

static int aos_setup(hs_integrator *it)
{
    alpha_os *s = it->data;
    aos_release(s);
    const int n = it->n;
    const size_t nn = (size_t)n * (size_t)n;
    const double dt = it->dt, a1 = 1.0 + s->alpha;
    double *A = hs_int_sparse(it) ? NULL : hs_dvec(nn);
    s->dp = hs_dvec((size_t)n);
    s->vp = hs_dvec((size_t)n);
    s->p = hs_dvec((size_t)n);
    s->r = hs_dvec((size_t)n);
    s->rhs = hs_dvec((size_t)n);
    if ((!A && !hs_int_sparse(it)) || !s->dp || !s->vp || !s->p || !s->r || !s->rhs) {
        hs_free(A);
        return HS_ENOMEM;
    }
    int rc;
    if (hs_int_sparse(it)) {
        rc =
            hs_int_factor_combination(it, 1.0, a1 * s->gamma * dt, a1 * s->beta * dt * dt,
                                      "M + (1+alpha) gamma dt C + (1+alpha) beta dt^2 K0", &s->lhs);
    } else {
        for (size_t k = 0; k < nn; k++)
            A[k] = it->dyn.M[k] + a1 * s->beta * dt * dt * it->dyn.K0[k] +
                   (it->dyn.C ? a1 * s->gamma * dt * it->dyn.C[k] : 0.0);
        rc = hs_int_linsolver(it, it->kd, &s->lhs);
        if (!rc) rc = hs_linsolver_factor(s->lhs, A);
        hs_free(A);
    }
    if (rc == HS_ESINGULAR)
        return hs_fail(it->ctx, HS_EINPUT,
                       "integrator alpha_os: M + (1+alpha) gamma dt C + (1+alpha) beta dt^2 K0 "
                       "is singular");
    if (rc) return rc;
    /* p(0): the initial force (experimental part estimated with Ke, as for a(0)) less K_I d(0) */
    rc = it->dyn.restore(it->dyn.user, it->d, it->v, s->p, NULL, NULL);
    if (rc) return rc;
    if (it->dyn.Ke) hs_band_matvec_add(n, it->kd, it->dyn.Ke, it->d, 1.0, s->p);
    if (it->dyn.Kes) hs_csc_matvec_add(it->dyn.Kes, it->d, 1.0, s->p);
    hs_int_matvec_add(it, HS_INT_K0, it->d, -1.0, s->p);
    return 0;
}

static int aos_predict(hs_integrator *it, hs_step_io *io)
{
    alpha_os *s = it->data;
    const double dt = it->dt;
    for (int i = 0; i < it->n; i++) {
        s->dp[i] = it->d[i] + dt * it->v[i] + dt * dt * (0.5 - s->beta) * it->a[i];
        s->vp[i] = it->v[i] + dt * (1.0 - s->gamma) * it->a[i];
    }
    /* DOFs without mass: the static condensation of the predictor with K_I (massless.c) */
    const int rc = hs_int_massless_command(it, io, s->dp);
    if (rc) return rc;
    memcpy(io->d_cmd, s->dp, (size_t)it->n * sizeof(double));
    return 0;
}

static int aos_correct(hs_integrator *it, hs_step_io *io)
{
    alpha_os *s = it->data;
    const int n = it->n;
    const double dt = it->dt, al = s->alpha, a1 = 1.0 + s->alpha;
    /* r~(n+1) at the predictor: numerical part evaluated there, measured part as measured */
    int rc = it->dyn.restore(it->dyn.user, s->dp, s->vp, s->r, NULL, NULL);
    if (rc) return rc;
    if (io->r_exp)
        for (int i = 0; i < n; i++) s->r[i] += io->r_exp[i];
    /* rhs = (1+alpha)(f(n+1) - C v~ - r~) - alpha (f(n) - C v(n) - K_I d(n) - p(n)) */
    for (int i = 0; i < n; i++)
        s->rhs[i] = a1 * (io->f_n1[i] - s->r[i]) - al * (io->f_n[i] - s->p[i]);
    hs_int_matvec_add(it, HS_INT_C, s->vp, -a1, s->rhs);
    hs_int_matvec_add(it, HS_INT_C, it->v, al, s->rhs);
    hs_int_matvec_add(it, HS_INT_K0, it->d, al, s->rhs);
    rc = hs_linsolver_solve(s->lhs, s->rhs);
    if (rc) return rc;
    /* p(n+1) = r~(n+1) - K_I d~(n+1) */
    memcpy(s->p, s->r, (size_t)n * sizeof(double));
    hs_int_matvec_add(it, HS_INT_K0, s->dp, -1.0, s->p);
    for (int i = 0; i < n; i++) {
        it->a[i] = s->rhs[i];
        it->d[i] = s->dp[i] + s->beta * dt * dt * s->rhs[i];
        it->v[i] = s->vp[i] + s->gamma * dt * s->rhs[i];
    }
    /* the numerical model's history follows the corrected state */
    rc = it->dyn.restore(it->dyn.user, it->d, it->v, s->r, NULL, NULL);
    return rc ? rc : it->dyn.commit(it->dyn.user);
}

static size_t aos_state_size(const hs_integrator *it)
{
    return (size_t)it->n;
}

static int aos_state_save(const hs_integrator *it, double *out)
{
    const alpha_os *s = it->data;
    memcpy(out, s->p, (size_t)it->n * sizeof(double));
    return 0;
}

static int aos_state_load(hs_integrator *it, const double *in)
{
    alpha_os *s = it->data;
    memcpy(s->p, in, (size_t)it->n * sizeof(double));
    return 0;
}

static void aos_destroy(hs_integrator *it)
{
    alpha_os *s = it->data;
    if (!s) return;
    aos_release(s);
    hs_free(s);
    it->data = NULL;
}

int hs_integrator_create_alpha_os(hs_integrator *it, const hs_options *opts)
{
    const double alpha = hs_options_num(opts, "alpha", -0.05);
    if (!(alpha >= -1.0 / 3.0 - 1e-12 && alpha <= 0.0))
        return hs_fail(it->ctx, HS_EINPUT,
                       "integrator alpha_os: alpha must be in [-1/3, 0] (got %g)", alpha);
    alpha_os *s = hs_calloc(1, sizeof *s);
    if (!s) return HS_ENOMEM;
    s->alpha = alpha;
    s->beta = 0.25 * (1.0 - alpha) * (1.0 - alpha);
    s->gamma = 0.5 - alpha;
    it->data = s;
    it->ops.setup = aos_setup;
    it->ops.sparse = 1;
    it->ops.sparse_exp = 1; /* K_I = K0 + Ke (initial) factored once */
    it->ops.predict = aos_predict;
    it->ops.correct = aos_correct;
    it->ops.destroy = aos_destroy;
    it->ops.state_size = aos_state_size;
    it->ops.state_save = aos_state_save;
    it->ops.state_load = aos_state_load;
    return 0;
}
