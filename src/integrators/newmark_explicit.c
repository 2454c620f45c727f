/* Explicit Newmark (gamma = 1/2, beta = 0), the integrator of Mosqueda et al. 2004:
 *   d(n+1) = d(n) + dt v(n) + dt^2/2 a(n)                    (commanded to the lab)
 *   (M + dt/2 C) a(n+1) = f(n+1) - r(d(n+1)) - r_e(n+1) - C (v(n) + dt/2 a(n))
 *   v(n+1) = v(n) + dt/2 (a(n) + a(n+1))
 * Rate-dependent materials see the predicted velocity v(n) + dt/2 a(n). */
#include "integrator_impl.h"

#include <string.h>

typedef struct newmark_explicit {
    hs_linsolver *lhs; /* M + dt/2 C, factored once */
    double *vp;        /* predicted velocity */
    double *r;         /* numerical restoring force */
    double *rhs;
} newmark_explicit;

const hs_param_spec hs_newmark_explicit_params[] = {{NULL, HS_PARAM_NUM, 0, NULL}};

static int ne_setup(hs_integrator *it)
{
    newmark_explicit *s = it->data;
    const int n = it->n;
    const size_t nn = (size_t)n * (size_t)n;
    double *A = hs_int_sparse(it) ? NULL : hs_dvec(nn);
    s->vp = hs_dvec((size_t)n);
    s->r = hs_dvec((size_t)n);
    s->rhs = hs_dvec((size_t)n);
    if ((!A && !hs_int_sparse(it)) || !s->vp || !s->r || !s->rhs) {
        hs_free(A);
        return HS_ENOMEM;
    }
    if (hs_int_sparse(it))
        return hs_int_factor_combination(it, 1.0, 0.5 * it->dt, 0.0, "M + dt/2 C", &s->lhs);
    hs_mat_axpby(n, 1.0, it->dyn.M, 0.5 * it->dt, it->dyn.C, A);
    int rc = hs_int_linsolver(it, it->kd, &s->lhs);
    if (!rc) rc = hs_linsolver_factor(s->lhs, A);
    hs_free(A);
    return rc;
}

static int ne_predict(hs_integrator *it, hs_step_io *io)
{
    const double dt = it->dt;
    for (int i = 0; i < it->n; i++)
        io->d_cmd[i] = it->d[i] + dt * it->v[i] + 0.5 * dt * dt * it->a[i];
    return 0;
}

static int ne_correct(hs_integrator *it, hs_step_io *io)
{
    newmark_explicit *s = it->data;
    const int n = it->n;
    const double dt = it->dt;
    for (int i = 0; i < n; i++) s->vp[i] = it->v[i] + 0.5 * dt * it->a[i];
    int rc = it->dyn.restore(it->dyn.user, io->d_cmd, s->vp, s->r, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < n; i++)
        s->rhs[i] = io->f_n1[i] - s->r[i] - (io->r_exp ? io->r_exp[i] : 0.0);
    hs_int_matvec_add(it, HS_INT_C, s->vp, -1.0, s->rhs);
    rc = hs_linsolver_solve(s->lhs, s->rhs);
    if (rc) return rc;
    for (int i = 0; i < n; i++) {
        it->v[i] += 0.5 * dt * (it->a[i] + s->rhs[i]);
        it->a[i] = s->rhs[i];
        it->d[i] = io->d_cmd[i];
    }
    return it->dyn.commit(it->dyn.user);
}

static void ne_destroy(hs_integrator *it)
{
    newmark_explicit *s = it->data;
    if (!s) return;
    hs_linsolver_destroy(&s->lhs);
    hs_free(s->vp);
    hs_free(s->r);
    hs_free(s->rhs);
    hs_free(s);
    it->data = NULL;
}

int hs_integrator_create_newmark_explicit(hs_integrator *it, const hs_options *opts)
{
    (void)opts;
    it->data = hs_calloc(1, sizeof(newmark_explicit));
    if (!it->data) return HS_ENOMEM;
    it->ops.setup = ne_setup;
    it->ops.sparse = 1;
    it->ops.predict = ne_predict;
    it->ops.correct = ne_correct;
    it->ops.destroy = ne_destroy;
    return 0;
}
