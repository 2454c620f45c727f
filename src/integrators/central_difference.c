/* Classic central difference:
 *   (M/dt^2 + C/(2 dt)) d(n+1) = f(n) - r(n) + (2 M/dt^2) d(n) - (M/dt^2 - C/(2 dt)) d(n-1)
 * started with d(-1) = d0 - dt v0 + dt^2/2 a0. The command of step n -> n+1 is the central
 * difference displacement d(n+1); once its force r(n+1) is measured, the correct half solves
 * the recurrence for d(n+2) and stores the consistent state at t(n+1):
 *   v(n+1) = (d(n+2) - d(n)) / (2 dt),  a(n+1) = (d(n+2) - 2 d(n+1) + d(n)) / dt^2.
 * Then d(n+1) + dt v(n+1) + dt^2/2 a(n+1) = d(n+2): the predict half commands it from (d, v, a),
 * so no extra state is kept (the first command is d0 + dt v0 + dt^2/2 a0, the same as the
 * recurrence from d(-1)). Rate-dependent materials see the backward difference
 * (d(n+1) - d(n)) / dt. */
#include "integrator_impl.h"

#include <string.h>

typedef struct central_difference {
    hs_linsolver *lhs; /* M/dt^2 + C/(2 dt), factored once */
    double *vb;        /* backward-difference velocity */
    double *r;         /* restoring force at d(n+1) */
    double *x;         /* work, then d(n+2) */
} central_difference;

const hs_param_spec hs_central_difference_params[] = {{NULL, HS_PARAM_NUM, 0, NULL}};

static void cd_free(central_difference *s)
{
    hs_linsolver_destroy(&s->lhs);
    hs_free(s->vb);
    hs_free(s->r);
    hs_free(s->x);
    s->vb = s->r = s->x = NULL;
}

static int cd_setup(hs_integrator *it)
{
    central_difference *s = it->data;
    cd_free(s);
    const int n = it->n;
    const double dt = it->dt;
    if (hs_int_sparse(it)) {
        s->vb = hs_dvec((size_t)n);
        s->r = hs_dvec((size_t)n);
        s->x = hs_dvec((size_t)n);
        if (!s->vb || !s->r || !s->x) return HS_ENOMEM;
        return hs_int_factor_combination(it, 1.0 / (dt * dt), 0.5 / dt, 0.0,
                                         "M / dt^2 + C / (2 dt)", &s->lhs);
    }
    double *A = hs_dvec((size_t)n * (size_t)n);
    s->vb = hs_dvec((size_t)n);
    s->r = hs_dvec((size_t)n);
    s->x = hs_dvec((size_t)n);
    int rc = (!A || !s->vb || !s->r || !s->x) ? HS_ENOMEM : 0;
    if (!rc) {
        if (it->dyn.C)
            hs_mat_axpby(n, 1.0 / (dt * dt), it->dyn.M, 0.5 / dt, it->dyn.C, A);
        else
            hs_mat_axpby(n, 1.0 / (dt * dt), it->dyn.M, 0.0, it->dyn.M, A);
        rc = hs_int_linsolver(it, it->kd, &s->lhs);
    }
    if (!rc) rc = hs_linsolver_factor(s->lhs, A);
    hs_free(A);
    return rc;
}

static int cd_predict(hs_integrator *it, hs_step_io *io)
{
    const double dt = it->dt;
    for (int i = 0; i < it->n; i++)
        io->d_cmd[i] = it->d[i] + dt * it->v[i] + 0.5 * dt * dt * it->a[i];
    return 0;
}

static int cd_correct(hs_integrator *it, hs_step_io *io)
{
    central_difference *s = it->data;
    const int n = it->n;
    const double dt = it->dt;
    const double *d1 = io->d_cmd, *d0 = it->d;
    for (int i = 0; i < n; i++) s->vb[i] = (d1[i] - d0[i]) / dt;
    int rc = it->dyn.restore(it->dyn.user, d1, s->vb, s->r, NULL, NULL);
    if (rc) return rc;
    hs_int_add_experimental(it, io, d1, s->r); /* r_exp: measured at d1 itself */
    /* rhs = f(n+1) - r(n+1) + M (2 d(n+1) - d(n)) / dt^2 + C d(n) / (2 dt) */
    for (int i = 0; i < n; i++) s->vb[i] = (2.0 * d1[i] - d0[i]) / (dt * dt);
    if (hs_int_sparse(it))
        hs_csc_matvec(it->dyn.Ms, s->vb, s->x);
    else
        hs_packed_matvec(n, it->kd, it->Mp, s->vb, s->x);
    for (int i = 0; i < n; i++) s->x[i] += io->f_n1[i] - s->r[i];
    hs_int_matvec_add(it, HS_INT_C, d0, 0.5 / dt, s->x);
    rc = hs_linsolver_solve(s->lhs, s->x); /* x = d(n+2) */
    if (rc) return rc;
    for (int i = 0; i < n; i++) {
        const double d2 = s->x[i];
        it->v[i] = (d2 - d0[i]) / (2.0 * dt);
        it->a[i] = (d2 - 2.0 * d1[i] + d0[i]) / (dt * dt);
    }
    memcpy(it->d, d1, (size_t)n * sizeof(double));
    return it->dyn.commit(it->dyn.user);
}

static void cd_destroy(hs_integrator *it)
{
    if (!it->data) return;
    cd_free(it->data);
    hs_free(it->data);
    it->data = NULL;
}

int hs_integrator_create_central_difference(hs_integrator *it, const hs_options *opts)
{
    (void)opts;
    it->data = hs_calloc(1, sizeof(central_difference));
    if (!it->data) return HS_ENOMEM;
    it->ops.setup = cd_setup;
    it->ops.sparse = 1;
    it->ops.predict = cd_predict;
    it->ops.correct = cd_correct;
    it->ops.destroy = cd_destroy;
    return 0;
}
