/* Shared part of the hybrid integrators (os_tangent, implicit_hht_fe): see hybrid_core.h.
 *
 * Operator-splitting step with the estimated tangent (Mosqueda & Ahmadizadeh 2008b, section 5): the
 * command is the explicit predictor d~ = d(n) + dt v(n) + dt^2/2 a(n) (eq. 3.5); the final
 * displacement is d = d~ + beta dt^2 (a(n+1) - a(n)) (eq. 3.6), which is the Newmark relation of
 * the core; the experimental force at d is r^l = r~^l + K_l (T d - x~^m) (eq. 5.1), with the
 * measured force r~^l and displacement x~^m, and enters the HHT-alpha equation (eq. 3.4) as T^T
 * r^l. In the core's terms: r_exp = T^T (r~^l + K_l (T d~ - x~^m)) linearised about d~ with Ke =
 * T^T K_l T. */
#include "hybrid_core.h"

#include <math.h>
#include <string.h>

int hs_hybrid_init(hs_integrator *it, hs_hybrid *h, const hs_options *opts)
{
    const double alpha = hs_options_num(opts, "alpha", -0.05);
    if (!(alpha >= -1.0 / 3.0 - 1e-12 && alpha <= 0.0))
        return hs_fail(it->ctx, HS_EINPUT, "%s: alpha must be in [-1/3, 0] (got %g)", it->type,
                       alpha);
    h->threshold = hs_options_num(opts, "threshold", -1.0);
    if (hs_options_has(opts, "threshold") && !(h->threshold >= 0.0))
        return hs_fail(it->ctx, HS_EINPUT, "%s: threshold must be >= 0 (got %g)", it->type,
                       h->threshold);
    return hs_implicit_init(it, &h->core, opts, alpha, 0.25 * (1.0 - alpha) * (1.0 - alpha),
                            0.5 * (1.0 - 2.0 * alpha));
}

void hs_hybrid_free(hs_hybrid *h)
{
    hs_implicit_free(&h->core);
    hs_tangent_destroy(&h->te);
    hs_force_estimator_destroy(&h->fe);
    double **v[] = {&h->Kg, &h->x_prev, &h->f_prev, &h->xl, &h->fl, &h->rg};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        hs_free(*v[i]);
        *v[i] = NULL;
    }
    h->nact = 0;
    h->have_prev = 0;
}

int hs_hybrid_tangent(const hs_hybrid *h, double *Kl)
{
    if (!h->te) return HS_EUNSUPPORTED;
    memcpy(Kl, hs_tangent_matrix(h->te), (size_t)h->nact * (size_t)h->nact * sizeof(double));
    return 0;
}

void hs_hybrid_to_actuators(const hs_integrator *it, const hs_experiment *exp, const double *d,
                            double *x)
{
    const int m = exp->nact;
    for (int j = 0; j < m; j++) x[j] = 0.0;
    for (int i = 0; i < it->n; i++) {
        if (d[i] == 0.0) continue;
        const double *col = exp->T + (size_t)i * (size_t)m;
        for (int j = 0; j < m; j++) x[j] += col[j] * d[i];
    }
}

void hs_hybrid_add_global(const hs_integrator *it, const hs_experiment *exp, const double *f,
                          double *r)
{
    const int m = exp->nact;
    for (int i = 0; i < it->n; i++) {
        const double *col = exp->T + (size_t)i * (size_t)m;
        double s = 0.0;
        for (int j = 0; j < m; j++) s += col[j] * f[j];
        r[i] += s;
    }
}

/* Kg = T^T K_l T (Mosqueda & Ahmadizadeh 2008b, eq. 5.8), column by column: Kg(:, b) = T^T (K_l
 * T(:, b)). */
static void hybrid_global_stiffness(hs_integrator *it, hs_hybrid *h, const hs_experiment *exp)
{
    const int n = it->n, m = h->nact;
    const double *K = hs_tangent_matrix(h->te);
    for (int b = 0; b < n; b++) {
        const double *tb = exp->T + (size_t)b * (size_t)m;
        for (int j = 0; j < m; j++) {
            double s = 0.0;
            for (int k = 0; k < m; k++) s += HS_AT(K, m, j, k) * tb[k];
            h->fl[j] = s;
        }
        double *col = h->Kg + (size_t)b * (size_t)n;
        for (int a = 0; a < n; a++) col[a] = 0.0;
        hs_hybrid_add_global(it, exp, h->fl, col);
    }
}

/* Half-bandwidth that T^T K_l T can reach whatever K_l: the span of the DOFs that T touches. */
static int hybrid_ke_band(const hs_integrator *it, const hs_experiment *exp)
{
    const int m = exp->nact;
    int lo = it->n, hi = -1;
    for (int b = 0; b < it->n; b++) {
        const double *tb = exp->T + (size_t)b * (size_t)m;
        for (int j = 0; j < m; j++)
            if (tb[j] != 0.0) {
                if (b < lo) lo = b;
                hi = b;
                break;
            }
    }
    return hi >= lo ? hi - lo : 0;
}

/* Widens the bands to hold T^T K_l T: the packed copies, and the core's Newton matrix and solver
 * when they exist already (late sizing: allocations once, at the first experimental step). */
static int hybrid_widen_band(hs_integrator *it, hs_hybrid *h, const hs_experiment *exp)
{
    const int kd = hybrid_ke_band(it, exp), kd_old = it->kd, kt_old = it->kd_tangent;
    if (kd > it->kd) it->kd = kd;
    if (it->kd > it->kd_tangent) it->kd_tangent = it->kd;
    int rc = it->kd != kd_old ? hs_int_pack(it) : 0;
    if (rc || !h->core.ls || it->kd_tangent == kt_old) return rc;
    hs_free(h->core.J);
    h->core.J = hs_dvec(HS_BAND_LD(it->kd_tangent) * (size_t)it->n);
    if (!h->core.J) return HS_ENOMEM;
    hs_linsolver_destroy(&h->core.ls);
    return hs_int_linsolver(it, it->kd_tangent, &h->core.ls);
}

int hs_hybrid_size(hs_integrator *it, hs_hybrid *h, const hs_experiment *exp)
{
    if (!exp->T || !exp->K0l || exp->nact <= 0 || exp->ndof != it->n)
        return hs_fail(it->ctx, HS_EINVAL,
                       "%s: incomplete experiment layout (%d actuators, %d DOFs for a model of %d, "
                       "T %s, K0l %s)",
                       it->type, exp->nact, exp->ndof, it->n, exp->T ? "given" : "missing",
                       exp->K0l ? "given" : "missing");
    if (h->nact) {
        if (exp->nact != h->nact)
            return hs_fail(it->ctx, HS_EINVAL,
                           "%s: the experiment has %d actuators at step %lld, %d before", it->type,
                           exp->nact, (long long)it->step + 1, h->nact);
        return 0;
    }
    const size_t n = (size_t)it->n, m = (size_t)exp->nact;
    int rc = hs_tangent_create(it->ctx, exp->nact, exp->K0l, exp->Tp, &h->te);
    if (!rc && h->want_fe)
        rc = hs_force_estimator_create(it->ctx, exp->nact, h->max_extrap * it->dt, &h->fe);
    if (rc) return rc;
    h->Kg = hs_dvec(n * n);
    h->x_prev = hs_dvec(m);
    h->f_prev = hs_dvec(m);
    h->xl = hs_dvec(m);
    h->fl = hs_dvec(m);
    h->rg = hs_dvec(n);
    if (!h->Kg || !h->x_prev || !h->f_prev || !h->xl || !h->fl || !h->rg) return HS_ENOMEM;
    h->nact = exp->nact;
    h->have_prev = 0;
    hs_tangent_set_threshold(h->te, h->threshold >= 0.0
                                        ? h->threshold
                                        : hs_tangent_noise_threshold(exp->nact, exp->K0l,
                                                                     exp->noise_disp_rms,
                                                                     exp->noise_force_rms));
    hybrid_global_stiffness(it, h, exp);
    it->dyn.Ke = h->Kg;
    rc = hybrid_widen_band(it, h, exp);
    if (rc) return rc;
    /* sized after the core's setup: the Newton matrix now holds Ke and must be refactored */
    if (h->core.J) h->core.constant = 0;
    return 0;
}

int hs_hybrid_setup(hs_integrator *it, hs_hybrid *h)
{
    hs_hybrid_free(h); /* setup may run more than once */
    if (it->dyn.exp) {
        int rc = hs_hybrid_size(it, h, it->dyn.exp);
        if (rc) return rc;
    }
    return hs_implicit_setup(it, &h->core);
}

int hs_hybrid_observe(hs_integrator *it, hs_hybrid *h, const hs_experiment *exp)
{
    if (!exp->x_meas || !exp->f_meas)
        return hs_fail(it->ctx, HS_EINVAL, "%s: no measurement in the experiment at step %lld",
                       it->type, (long long)it->step + 1);
    const size_t m = (size_t)h->nact;
    if (h->threshold < 0.0)
        hs_tangent_set_threshold(h->te,
                                 hs_tangent_noise_threshold(h->nact, exp->K0l, exp->noise_disp_rms,
                                                            exp->noise_force_rms));
    if (hybrid_ke_band(it, exp) > it->kd)
        return hs_fail(it->ctx, HS_EINVAL,
                       "%s: the experiment's transformation T reaches DOFs farther apart at step "
                       "%lld than when the integrator was sized",
                       it->type, (long long)it->step + 1);
    int updated = 0;
    if (h->have_prev) {
        updated = hs_tangent_update(h->te, h->x_prev, exp->x_meas, h->f_prev, exp->f_meas);
        if (updated < 0) return updated;
    }
    hybrid_global_stiffness(it, h, exp); /* every step: T is lent per step, K_l may be restored */
    memcpy(h->x_prev, exp->x_meas, m * sizeof(double));
    memcpy(h->f_prev, exp->f_meas, m * sizeof(double));
    h->have_prev = 1;
    return updated;
}

int hs_hybrid_os_correct(hs_integrator *it, hs_hybrid *h, hs_step_io *io)
{
    const hs_experiment *exp = io->exp;
    const double *K = hs_tangent_matrix(h->te);
    const int m = h->nact;
    /* f_l = r~^l + K_l (T d~ - x~^m): eq. 5.1 at the command */
    hs_hybrid_to_actuators(it, exp, io->d_cmd, h->xl);
    for (int j = 0; j < m; j++) h->xl[j] -= exp->x_meas[j];
    for (int j = 0; j < m; j++) {
        double s = exp->f_meas[j];
        for (int k = 0; k < m; k++) s += HS_AT(K, m, j, k) * h->xl[k];
        h->fl[j] = s;
    }
    for (int i = 0; i < it->n; i++) h->rg[i] = 0.0;
    hs_hybrid_add_global(it, exp, h->fl, h->rg);
    hs_step_io os = *io;
    os.r_exp = h->rg;
    const int rc = hs_implicit_correct(it, &h->core, &os);
    io->iterations = os.iterations;
    return rc;
}

size_t hs_hybrid_state_size(const hs_integrator *it, const hs_hybrid *h)
{
    size_t s = (size_t)it->n + 1; /* q, nact */
    if (h->nact) s += hs_tangent_state_size(h->te) + 2 * (size_t)h->nact + 1;
    return s;
}

int hs_hybrid_state_save(const hs_integrator *it, const hs_hybrid *h, double *out)
{
    const size_t n = (size_t)it->n, m = (size_t)h->nact;
    memcpy(out, h->core.q, n * sizeof(double));
    out[n] = (double)h->nact;
    if (!h->nact) return 0;
    double *p = out + n + 1;
    hs_tangent_state_save(h->te, p);
    p += hs_tangent_state_size(h->te);
    memcpy(p, h->x_prev, m * sizeof(double));
    memcpy(p + m, h->f_prev, m * sizeof(double));
    p[2 * m] = (double)h->have_prev;
    return 0;
}

int hs_hybrid_state_load(hs_integrator *it, hs_hybrid *h, const double *in)
{
    const size_t n = (size_t)it->n, m = (size_t)h->nact;
    memcpy(h->core.q, in, n * sizeof(double));
    if ((int)in[n] != h->nact)
        return hs_fail(it->ctx, HS_EINPUT,
                       "%s: the checkpoint has %d actuators, the integrator %d (load after the "
                       "experiment is known)",
                       it->type, (int)in[n], h->nact);
    if (!h->nact) return 0;
    const double *p = in + n + 1;
    hs_tangent_state_load(h->te, p);
    p += hs_tangent_state_size(h->te);
    memcpy(h->x_prev, p, m * sizeof(double));
    memcpy(h->f_prev, p + m, m * sizeof(double));
    h->have_prev = p[2 * m] != 0.0;
    return 0; /* Kg = T^T K_l T is rebuilt at the next observation */
}
