/* implicit_hht_fe: fully implicit HHT-alpha with experimental forces estimated from the recent
 * measurements (Mosqueda & Ahmadizadeh 2008b, section 4; Mosqueda & Ahmadizadeh 2008a), alpha in
 * [-1/3, 0], beta = (1 - alpha)^2/4, gamma = 1/2 - alpha. command (the ONLY displacement sent to
 * the lab):  d~ = d(n) + dt v(n) + dt^2/2 a(n)  (eq. 3.5) iterations on d (eq. 3.2-3.4,
 * experimental mass Me), starting from d~: r_e(d) = T^T f^(T d): each actuator's force at its trial
 * displacement from second-order polynomials fitted to its last four samples (force_estimator.h),
 * never commanded; Newton matrix (M - alpha Me)/(beta dt^2) + (1 + alpha)(gamma/(beta dt)(C + Ct) +
 * Kt + T^T K_l T), K_l the estimated tangent (tangent_estimator.h, updated once per step from the
 *     measured increments);
 *     converged when ||d^i - d^(i-1)||_inf / ||d^i||_inf < tol                     (eq. 4.1)
 *   fallback when the estimator refuses a time or max_iter is reached:
 *     explicit (eq. 4.2-4.3): d(n+1) = d~, the measured force r~ = T^T r~^l,
 *       (M + (1 + alpha) dt/2 C - alpha Me) a(n+1) = (1 + alpha) f(n+1) - alpha f(n)
 *         - C (v(n) + (1 + alpha) dt/2 a(n)) - (1 + alpha)(r(d~) + r~) - alpha (Me a(n) - r(n)),
 *       v(n+1) = v(n) + dt/2 (a(n) + a(n+1));
 *     or os_tangent (Mosqueda & Ahmadizadeh 2008b, section 5, Mosqueda & Ahmadizadeh 2008a
 * "Simulation Continuity"). Without io->exp it is hht (an experimental force, if any, linearised
 * about d~ with dyn->Ke). */
#include "hybrid_core.h"

#include <math.h>
#include <string.h>

typedef struct fe_int {
    hs_hybrid h; /* first: the shared helpers take it */
    double tol;  /* eq. 4.1 */
    int max_iter;
    int fallback_os;   /* 1: os_tangent, 0: explicit */
    hs_linsolver *els; /* M + (1 + alpha) dt/2 C - alpha Me (eq. 4.3), factored at setup */
    double *vpe;       /* v(n) + dt/2 a(n) */
} fe_int;

const hs_param_spec hs_implicit_hht_fe_params[] = {
    {"alpha", HS_PARAM_NUM, 0, "numerical dissipation, in [-1/3, 0] (default -0.05)"},
    {"tol", HS_PARAM_NUM, 0, "convergence tolerance of eq. 4.1 (default 1e-6)"},
    {"max_iter", HS_PARAM_NUM, 0, "iterations before falling back (default 10)"},
    {"max_extrapolation", HS_PARAM_NUM, 0,
     "time an estimate may lie beyond the samples, fraction of dt (default 0.5)"},
    {"fallback", HS_PARAM_STR, 0, "explicit | os_tangent (default explicit)"},
    {"threshold", HS_PARAM_NUM, 0,
     "displacement increment that updates the tangent (default: from the noise RMS, Mosqueda & "
     "Ahmadizadeh 2008b "
     "eq. 5.9)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

static int fe_setup(hs_integrator *it)
{
    fe_int *s = it->data;
    hs_linsolver_destroy(&s->els);
    hs_free(s->vpe);
    s->vpe = NULL;
    int rc = hs_hybrid_setup(it, &s->h);
    if (rc) return rc;
    const int n = it->n;
    const double al = s->h.core.alpha;
    s->vpe = hs_dvec((size_t)n);
    if (!s->vpe) return HS_ENOMEM;
    if (s->fallback_os && hs_int_massless_count(it) > 0) return 0; /* no eq. 4.3 to factor */
    if (hs_int_massless_count(it) > 0)
        return hs_fail(it->ctx, HS_EUNSUPPORTED,
                       "%s: the explicit fallback (eq. 4.2-4.3) needs a mass at every DOF, and "
                       "%d DOF(s) carry none; set the integrator's 'fallback: os_tangent'",
                       it->type, hs_int_massless_count(it));
    /* A of eq. 4.3 (setup scratch) */
    double *A = hs_dvec((size_t)n * (size_t)n);
    if (!A) return HS_ENOMEM;
    hs_mat_axpby(n, 1.0, it->dyn.M, 0.5 * (1.0 + al) * it->dt, it->dyn.C, A);
    if (it->dyn.Me) hs_mat_axpby(n, 1.0, A, -al, it->dyn.Me, A);
    rc = hs_int_linsolver(it, it->kd, &s->els);
    if (!rc) rc = hs_linsolver_factor(s->els, A);
    hs_free(A);
    if (rc == HS_ESINGULAR)
        return hs_fail(it->ctx, HS_EINPUT, "%s: M + (1 + alpha) dt/2 C - alpha Me is singular",
                       it->type);
    return rc;
}

static int fe_predict(hs_integrator *it, hs_step_io *io)
{
    fe_int *s = it->data;
    return hs_implicit_predict(it, &s->h.core, io);
}

/* b = (1 + alpha) f(n+1) - alpha f(n) + alpha (C v(n) + r(n)) - alpha Me a(n) */
static void fe_rhs(hs_integrator *it, hs_implicit *c, const hs_step_io *io)
{
    const int n = it->n;
    const double al = c->alpha;
    for (int i = 0; i < n; i++) c->b[i] = (1.0 + al) * io->f_n1[i] - al * io->f_n[i] + al * c->q[i];
    if (it->dyn.C) hs_packed_matvec_add(n, it->kd, it->Cp, it->v, al, c->b);
    if (it->dyn.Me) hs_packed_matvec_add(n, it->kd, it->Mep, it->a, -al, c->b);
}

static void fe_commit_state(hs_integrator *it, hs_implicit *c)
{
    const size_t n = (size_t)it->n;
    memcpy(it->d, c->d1, n * sizeof(double));
    memcpy(it->v, c->v1, n * sizeof(double));
    memcpy(it->a, c->a1, n * sizeof(double));
    memcpy(c->q, c->r, n * sizeof(double));
}

/* The implicit iterations. 0: converged and committed; 1: failed (fall back); < 0: error. */
static int fe_iterate(hs_integrator *it, fe_int *s, hs_step_io *io)
{
    hs_hybrid *h = &s->h;
    hs_implicit *c = &h->core;
    const hs_experiment *exp = io->exp;
    const int n = it->n, kd = it->kd;
    const double dt = it->dt, al = c->alpha, be = c->beta, ga = c->gamma;
    const double cm = 1.0 / (be * dt * dt);
    if (hs_force_estimator_fit(h->fe, exp->nhist, exp->hist_t, exp->hist_x, exp->hist_f)) return 1;
    memcpy(c->d1, io->d_cmd, (size_t)n * sizeof(double));
    double dxnorm = INFINITY;
    for (int iter = 0;; iter++) {
        io->iterations = iter;
        for (int i = 0; i < n; i++) {
            c->a1[i] = (c->d1[i] - c->dp[i]) * cm;
            c->v1[i] = c->vp[i] + ga * dt * c->a1[i];
        }
        int rc = it->dyn.restore(it->dyn.user, c->d1, c->v1, c->r, c->Kt, c->Ct);
        if (rc) return rc;
        hs_hybrid_to_actuators(it, exp, c->d1, h->xl);
        if (hs_force_estimator_estimate(h->fe, h->xl, h->fl, NULL, NULL)) return 1;
        hs_hybrid_add_global(it, exp, h->fl, c->r); /* c->r: numerical + experimental */
        if (iter > 0 && (dxnorm == 0.0 || dxnorm < s->tol * hs_norm_inf(n, c->d1))) return 0;
        if (iter == s->max_iter) return 1;
        /* R = b - (M - alpha Me) a - (1 + alpha)(C v + r) */
        memcpy(c->tmp, c->r, (size_t)n * sizeof(double));
        if (it->dyn.C) hs_packed_matvec_add(n, kd, it->Cp, c->v1, 1.0, c->tmp);
        hs_packed_matvec(n, kd, it->Mp, c->a1, c->R);
        if (it->dyn.Me) hs_packed_matvec_add(n, kd, it->Mep, c->a1, -al, c->R);
        for (int i = 0; i < n; i++) c->R[i] = c->b[i] - c->R[i] - (1.0 + al) * c->tmp[i];
        hs_implicit_assemble(it, c, 1); /* dyn.Ke is T^T K_l T */
        if (hs_linsolver_factor_packed(c->ls, it->kd_tangent, c->J)) {
            hs_ctx_clear(it->ctx); /* a singular trial tangent: the step falls back */
            return 1;
        }
        memcpy(c->dx, c->R, (size_t)n * sizeof(double));
        rc = hs_linsolver_solve(c->ls, c->dx);
        if (rc) return rc;
        for (int i = 0; i < n; i++) c->d1[i] += c->dx[i];
        dxnorm = hs_norm_inf(n, c->dx);
    }
}

/* Explicit completion of the step (eq. 4.2-4.3) with the measured force. */
static int fe_explicit(hs_integrator *it, fe_int *s, const hs_step_io *io)
{
    hs_implicit *c = &s->h.core;
    const int n = it->n;
    const double dt = it->dt, al = c->alpha;
    for (int i = 0; i < n; i++) s->vpe[i] = it->v[i] + 0.5 * dt * it->a[i];
    memcpy(c->d1, io->d_cmd, (size_t)n * sizeof(double));
    int rc = it->dyn.restore(it->dyn.user, c->d1, s->vpe, c->r, NULL, NULL);
    if (rc) return rc;
    hs_hybrid_add_global(it, io->exp, io->exp->f_meas, c->r);
    memcpy(c->a1, c->r, (size_t)n * sizeof(double));
    if (it->dyn.C) hs_packed_matvec_add(n, it->kd, it->Cp, s->vpe, 1.0, c->a1);
    for (int i = 0; i < n; i++) c->a1[i] = c->b[i] - (1.0 + al) * c->a1[i];
    rc = hs_linsolver_solve(s->els, c->a1);
    if (rc) return rc;
    for (int i = 0; i < n; i++) c->v1[i] = it->v[i] + 0.5 * dt * (it->a[i] + c->a1[i]);
    fe_commit_state(it, c);
    return it->dyn.commit(it->dyn.user);
}

static int fe_correct(hs_integrator *it, hs_step_io *io)
{
    fe_int *s = it->data;
    hs_hybrid *h = &s->h;
    hs_implicit *c = &h->core;
    if (!io->exp) return hs_implicit_correct(it, c, io);
    int rc = hs_hybrid_size(it, h, io->exp);
    if (!rc) rc = hs_hybrid_observe(it, h, io->exp);
    if (rc < 0) return rc;
    io->stiffness_updated = rc;
    const int n = it->n;
    const double dt = it->dt;
    for (int i = 0; i < n; i++) {
        c->dp[i] = it->d[i] + dt * it->v[i] + dt * dt * (0.5 - c->beta) * it->a[i];
        c->vp[i] = it->v[i] + dt * (1.0 - c->gamma) * it->a[i];
    }
    fe_rhs(it, c, io);
    rc = fe_iterate(it, s, io);
    if (rc < 0) return rc;
    if (rc == 0) {
        fe_commit_state(it, c);
        return it->dyn.commit(it->dyn.user);
    }
    io->fallback = 1;
    if (!s->fallback_os) return fe_explicit(it, s, io);
    const int tried = io->iterations;
    rc = hs_hybrid_os_correct(it, h, io);
    io->iterations = tried;
    return rc;
}

static size_t fe_state_size(const hs_integrator *it)
{
    return hs_hybrid_state_size(it, it->data);
}
static int fe_state_save(const hs_integrator *it, double *out)
{
    return hs_hybrid_state_save(it, it->data, out);
}
static int fe_state_load(hs_integrator *it, const double *in)
{
    return hs_hybrid_state_load(it, it->data, in);
}

static int fe_tangent(const hs_integrator *it, double *Kl)
{
    const fe_int *s = it->data;
    return hs_hybrid_tangent(&s->h, Kl);
}

static void fe_destroy(hs_integrator *it)
{
    fe_int *s = it->data;
    if (!s) return;
    hs_hybrid_free(&s->h);
    hs_linsolver_destroy(&s->els);
    hs_free(s->vpe);
    hs_free(s);
    it->data = NULL;
}

int hs_integrator_create_implicit_hht_fe(hs_integrator *it, const hs_options *opts)
{
    fe_int *s = hs_calloc(1, sizeof *s);
    if (!s) return HS_ENOMEM;
    it->data = s;
    it->ops.setup = fe_setup;
    it->ops.predict = fe_predict;
    it->ops.correct = fe_correct;
    it->ops.destroy = fe_destroy;
    it->ops.state_size = fe_state_size;
    it->ops.state_save = fe_state_save;
    it->ops.state_load = fe_state_load;
    it->ops.experimental_stiffness = fe_tangent;
    int rc = hs_hybrid_init(it, &s->h, opts);
    if (rc) return rc;
    s->h.want_fe = 1;
    s->tol = hs_options_num(opts, "tol", 1e-6);
    const double mi = hs_options_num(opts, "max_iter", 10.0);
    s->h.max_extrap = hs_options_num(opts, "max_extrapolation", 0.5);
    const char *fb = hs_options_str(opts, "fallback", "explicit");
    if (!(mi >= 1.0 && mi <= 1000.0) || mi != floor(mi))
        return hs_fail(it->ctx, HS_EINPUT, "%s: max_iter must be an integer in 1..1000 (got %g)",
                       it->type, mi);
    s->max_iter = (int)mi;
    if (!(s->h.max_extrap >= 0.0 && s->h.max_extrap <= 10.0))
        return hs_fail(it->ctx, HS_EINPUT,
                       "%s: max_extrapolation must be in [0, 10] steps (got %g)", it->type,
                       s->h.max_extrap);
    if (strcmp(fb, "explicit") == 0)
        s->fallback_os = 0;
    else if (strcmp(fb, "os_tangent") == 0)
        s->fallback_os = 1;
    else
        return hs_fail(it->ctx, HS_EINPUT,
                       "%s: fallback must be 'explicit' or 'os_tangent' (got '%s')", it->type, fb);
    return 0;
}
