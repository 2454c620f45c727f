/* The piecewise-exact solver for linear models (the reference of the tests): modal
 * decomposition K0 phi = omega^2 M phi with M-orthonormal modes, classical damping required
 * (Phi^T C Phi diagonal), and each mode
 *   q'' + 2 xi omega q' + omega^2 q = p(t),  p linear between the samples p(n), p(n+1)
 * integrated exactly over the step (the "interpolation of excitation" solution of Nigam and
 * Jennings, written for any damping ratio): with s = (p(n+1) - p(n)) / dt the particular solution
 * is q_p(tau) = (p(n) + s tau)/omega^2 - 2 xi omega s / omega^4, and the rest decays freely:
 *   q_h(dt)  = e^(-sigma dt) [q_h c + (q_h' + sigma q_h) S]
 *   q_h'(dt) = e^(-sigma dt) [q_h' c - (sigma q_h' + omega^2 q_h) S]
 * sigma = xi omega, omega_d^2 = omega^2 - sigma^2, c = cos(omega_d dt), S = sin(omega_d dt) /
 * omega_d (cosh/sinh when overdamped, 1 and dt when critical). The state (d, v) determines the
 * step; a(n+1) = Phi (p - 2 xi omega q' - omega^2 q). The command is the exact d(n+1). Measured
 * forces are not accepted: this solver is for numerical models. */
#include "integrator_impl.h"

#include <math.h>
#include <string.h>

typedef struct exact {
    double *phi;   /* modes (n x n, columns) */
    double *phitm; /* Phi^T M (n x n) */
    double *w2;    /* omega^2 */
    double *sigma; /* xi omega */
    double *ex, *c, *S;
    double *q, *qd, *p0, *p1; /* modal work (n) */
    double *v1, *a1;          /* state at t(n+1) from predict */
} exact;

const hs_param_spec hs_exact_params[] = {{NULL, HS_PARAM_NUM, 0, NULL}};

static void exact_free(exact *s)
{
    double **v[] = {&s->phi, &s->phitm, &s->w2, &s->sigma, &s->ex, &s->c, &s->S,
                    &s->q,   &s->qd,    &s->p0, &s->p1,    &s->v1, &s->a1};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        hs_free(*v[i]);
        *v[i] = NULL;
    }
}

/* Phi^T C Phi must be diagonal: off-diagonal terms below 1e-9 of the largest term. Fills sigma. */
static int exact_modal_damping(hs_integrator *it, exact *s)
{
    const int n = it->n;
    if (!it->dyn.C) return 0; /* sigma stays 0 */
    double *CP = hs_dvec((size_t)n * (size_t)n), *PCP = hs_dvec((size_t)n * (size_t)n);
    int rc = (!CP || !PCP) ? HS_ENOMEM : 0;
    if (!rc) {
        hs_matmul(n, it->dyn.C, s->phi, CP);
        /* PCP(i, j) = phi_i . (C phi_j) */
        double big = 0.0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                double x = 0.0;
                for (int k = 0; k < n; k++) x += HS_AT(s->phi, n, k, i) * HS_AT(CP, n, k, j);
                HS_AT(PCP, n, i, j) = x;
                big = fmax(big, fabs(x));
            }
        for (int j = 0; j < n && !rc; j++)
            for (int i = 0; i < n && !rc; i++)
                if (i != j && fabs(HS_AT(PCP, n, i, j)) > 1e-9 * big)
                    rc = hs_fail(it->ctx, HS_EINPUT,
                                 "exact: the damping is not classical (Phi^T C Phi couples modes "
                                 "%d and %d: %g against %g on the diagonal); use Rayleigh or "
                                 "modal damping, or another integrator",
                                 i + 1, j + 1, HS_AT(PCP, n, i, j), big);
        for (int k = 0; k < n && !rc; k++) s->sigma[k] = 0.5 * HS_AT(PCP, n, k, k);
    }
    hs_free(CP);
    hs_free(PCP);
    return rc;
}

static int exact_setup(hs_integrator *it)
{
    exact *s = it->data;
    exact_free(s);
    const int n = it->n;
    const size_t nn = (size_t)n * (size_t)n;
    s->phi = hs_dvec(nn);
    s->phitm = hs_dvec(nn);
    double **v[] = {&s->w2, &s->sigma, &s->ex, &s->c,  &s->S, &s->q,
                    &s->qd, &s->p0,    &s->p1, &s->v1, &s->a1};
    int rc = (!s->phi || !s->phitm) ? HS_ENOMEM : 0;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        *v[i] = hs_dvec((size_t)n);
        if (!*v[i]) rc = HS_ENOMEM;
    }
    if (rc) return rc;
    rc = hs_sym_eig(it->ctx, n, it->dyn.K0, it->dyn.M, s->w2, s->phi);
    if (rc) return rc;
    for (int k = 0; k < n; k++)
        if (!(s->w2[k] > 0.0))
            return hs_fail(it->ctx, HS_EINPUT,
                           "exact: mode %d has omega^2 = %g; the model must be restrained "
                           "(no rigid-body modes)",
                           k + 1, s->w2[k]);
    for (int j = 0; j < n; j++) /* Phi^T M (M symmetric): row i = (M phi_i)^T */
        for (int i = 0; i < n; i++) {
            double x = 0.0;
            for (int k = 0; k < n; k++) x += HS_AT(s->phi, n, k, i) * HS_AT(it->dyn.M, n, k, j);
            HS_AT(s->phitm, n, i, j) = x;
        }
    rc = exact_modal_damping(it, s);
    if (rc) return rc;
    const double dt = it->dt;
    for (int k = 0; k < n; k++) {
        const double sg = s->sigma[k], wd2 = s->w2[k] - sg * sg;
        s->ex[k] = exp(-sg * dt);
        if (wd2 > 0.0) {
            const double wd = sqrt(wd2);
            s->c[k] = cos(wd * dt);
            s->S[k] = sin(wd * dt) / wd;
        } else if (wd2 < 0.0) {
            const double wh = sqrt(-wd2);
            s->c[k] = cosh(wh * dt);
            s->S[k] = sinh(wh * dt) / wh;
        } else {
            s->c[k] = 1.0;
            s->S[k] = dt;
        }
    }
    return 0;
}

/* x(k) = Phi^T y for the modal load, or Phi^T M y for the modal coordinates */
static void exact_project(int n, const double *P, int transpose_phi, const double *y, double *x)
{
    for (int k = 0; k < n; k++) {
        double acc = 0.0;
        for (int i = 0; i < n; i++)
            acc += (transpose_phi ? HS_AT(P, n, i, k) : HS_AT(P, n, k, i)) * y[i];
        x[k] = acc;
    }
}

static int exact_predict(hs_integrator *it, hs_step_io *io)
{
    exact *s = it->data;
    const int n = it->n;
    const double dt = it->dt;
    exact_project(n, s->phitm, 0, it->d, s->q);
    exact_project(n, s->phitm, 0, it->v, s->qd);
    exact_project(n, s->phi, 1, io->f_n, s->p0);
    exact_project(n, s->phi, 1, io->f_n1, s->p1);
    for (int k = 0; k < n; k++) {
        const double w2 = s->w2[k], sg = s->sigma[k];
        const double sl = (s->p1[k] - s->p0[k]) / dt;
        const double shift = 2.0 * sg * sl / (w2 * w2); /* c s / k^2 with c = 2 sigma */
        const double uh = s->q[k] - (s->p0[k] / w2 - shift), vh = s->qd[k] - sl / w2;
        const double uh1 = s->ex[k] * (uh * s->c[k] + (vh + sg * uh) * s->S[k]);
        const double vh1 = s->ex[k] * (vh * s->c[k] - (sg * vh + w2 * uh) * s->S[k]);
        s->q[k] = uh1 + s->p1[k] / w2 - shift;
        s->qd[k] = vh1 + sl / w2;
        s->p1[k] -= 2.0 * sg * s->qd[k] + w2 * s->q[k]; /* modal acceleration */
    }
    hs_matvec(n, s->phi, s->q, io->d_cmd);
    hs_matvec(n, s->phi, s->qd, s->v1);
    hs_matvec(n, s->phi, s->p1, s->a1);
    return 0;
}

static int exact_correct(hs_integrator *it, hs_step_io *io)
{
    exact *s = it->data;
    if (io->r_exp)
        return hs_fail(it->ctx, HS_EUNSUPPORTED,
                       "exact: the piecewise-exact solver is for numerical models and cannot take "
                       "measured forces (step %lld); use newmark, hht or an explicit method",
                       (long long)io->step + 1);
    const size_t n = (size_t)it->n;
    memcpy(it->d, io->d_cmd, n * sizeof(double));
    memcpy(it->v, s->v1, n * sizeof(double));
    memcpy(it->a, s->a1, n * sizeof(double));
    /* keep the materials' committed state in step (energy accounting reads it) */
    int rc = it->dyn.restore(it->dyn.user, it->d, it->v, s->q, NULL, NULL);
    return rc ? rc : it->dyn.commit(it->dyn.user);
}

static void exact_destroy(hs_integrator *it)
{
    if (!it->data) return;
    exact_free(it->data);
    hs_free(it->data);
    it->data = NULL;
}

int hs_integrator_create_exact(hs_integrator *it, const hs_options *opts)
{
    (void)opts;
    it->data = hs_calloc(1, sizeof(exact));
    if (!it->data) return HS_ENOMEM;
    it->ops.setup = exact_setup;
    it->ops.predict = exact_predict;
    it->ops.correct = exact_correct;
    it->ops.destroy = exact_destroy;
    return 0;
}
