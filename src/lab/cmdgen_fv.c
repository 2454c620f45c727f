/* The command generator's free_vibration state: when the coordinator has fallen silent, the site
 * lets its specimen vibrate freely, M a + C v + r = 0 in actuator coordinates, with the locally
 * stored mass M, a damping matrix C with the stored ratio zeta in every mode of (K0, M), and the
 * measured restoring force r. Newmark average acceleration (gamma 1/2, beta 1/4) in operator-
 * splitting form (the predictor is commanded, the measured force at it is corrected with the
 * initial stiffness K0), one step of fv_dt simulated seconds per tick:
 *   d~ = d + h v + h^2/4 a,  v~ = v + h/2 a      (command d~)
 *   (M + h/2 C + h^2/4 K0) a' = -r(d~) - C v~,  d' = d~ + h^2/4 a',  v' = v~ + h/2 a'.
 * For a linear specimen with stiffness K0 this is Newmark's method exactly. When |v| and |f| have
 * stayed below their tolerances for quiet_time, the velocity is brought to zero smoothly over
 * stop_time (c = c0 + v0 (s - s^2/2)) and the command stays there: the test is done. */
#include "cmdgen_impl.h"

#include <math.h>
#include <string.h>

void hs_cmdgen_fv_free(hs_cmdgen_fv *fv)
{
    hs_linsolver_destroy(&fv->meff);
    hs_linsolver_destroy(&fv->mass);
    double **v[] = {&fv->M,  &fv->C,  &fv->K0, &fv->d,  &fv->v, &fv->a,
                    &fv->dp, &fv->vp, &fv->r,  &fv->c0, &fv->v0};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        hs_free(*v[i]);
        *v[i] = NULL;
    }
}

void hs_cmdgen_fv_reset(hs_cmdgen_fv *fv)
{
    fv->started = fv->stopping = 0;
    fv->peak_v = fv->peak_f = 0.0;
    fv->quiet = fv->ticks = fv->stop_j = 0;
}

/* C = M Phi diag(2 zeta omega_i) Phi^T M, Phi M-orthonormal: zeta in every mode. */
static int damping_matrix(hs_cmdgen *g, const double *K)
{
    const int n = g->n;
    const size_t nn = (size_t)n * (size_t)n;
    double *w2 = hs_dvec((size_t)n), *phi = hs_dvec(nn), *B = hs_dvec(nn);
    int rc = (!w2 || !phi || !B) ? HS_ENOMEM : hs_sym_eig(g->ctx, n, K, g->fv.M, w2, phi);
    for (int i = 0; !rc && i < n; i++)
        if (w2[i] < 0.0)
            rc = hs_fail(g->ctx, HS_EINPUT,
                         "command generator: free vibration stiffness has a negative mode "
                         "(omega^2 = %g): no damping ratio applies",
                         w2[i]);
    if (!rc) {
        hs_matmul(n, g->fv.M, phi, B); /* B = M Phi */
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double c = 0.0;
                for (int m = 0; m < n; m++)
                    c += HS_AT(B, n, i, m) * 2.0 * g->p.zeta * sqrt(w2[m]) * HS_AT(B, n, j, m);
                HS_AT(g->fv.C, n, i, j) = c;
            }
    }
    hs_free(w2);
    hs_free(phi);
    hs_free(B);
    return rc;
}

int hs_cmdgen_fv_setup(hs_cmdgen *g)
{
    hs_cmdgen_fv *fv = &g->fv;
    memset(fv, 0, sizeof *fv);
    const hs_cmdgen_params *p = &g->p;
    if (!p->mass) return 0;
    const int n = g->n;
    const size_t nn = (size_t)n * (size_t)n;
    fv->enabled = 1;
    fv->h = p->fv_dt > 0.0 ? p->fv_dt : 1.0 / (p->rate * p->time_scale);
    fv->M = hs_dvec(nn);
    fv->C = hs_dvec(nn);
    fv->K0 = hs_dvec(nn);
    double **v[] = {&fv->d, &fv->v, &fv->a, &fv->dp, &fv->vp, &fv->r, &fv->c0, &fv->v0};
    int rc = (!fv->M || !fv->C || !fv->K0) ? HS_ENOMEM : 0;
    for (size_t i = 0; i < sizeof v / sizeof v[0] && !rc; i++)
        if (!(*v[i] = hs_dvec((size_t)n))) rc = HS_ENOMEM;
    if (rc) return hs_fail(g->ctx, rc, "command generator: out of memory");
    memcpy(fv->M, p->mass, nn * sizeof(double));
    if (p->stiffness) memcpy(fv->K0, p->stiffness, nn * sizeof(double));
    if (p->zeta > 0.0 && (rc = damping_matrix(g, fv->K0)) != 0) return rc;
    double *Meff = hs_dvec(nn);
    if (!Meff) return hs_fail(g->ctx, HS_ENOMEM, "command generator: out of memory");
    const double h = fv->h;
    for (size_t i = 0; i < nn; i++)
        Meff[i] = fv->M[i] + 0.5 * h * fv->C[i] + 0.25 * h * h * fv->K0[i];
    rc = hs_linsolver_create(g->ctx, "dense", n, &fv->meff);
    if (!rc) rc = hs_linsolver_factor(fv->meff, Meff);
    if (!rc) rc = hs_linsolver_create(g->ctx, "dense", n, &fv->mass);
    if (!rc) rc = hs_linsolver_factor(fv->mass, fv->M);
    hs_free(Meff);
    if (rc)
        return hs_fail(g->ctx, rc, "command generator: free vibration mass matrix: %s",
                       hs_ctx_message(g->ctx));
    const double quiet = floor(p->quiet_time * p->rate + 0.5);
    fv->quiet_needed = quiet < 1.0 ? 1 : (int64_t)quiet;
    const double stop = floor(p->stop_time * p->rate + 0.5);
    fv->stop_ticks = stop < 1.0 ? 1 : (int64_t)stop;
    fv->max_ticks = p->fv_max_time > 0.0 ? (int64_t)floor(p->fv_max_time * p->rate + 0.5) : 0;
    return 0;
}

static double max_abs(int n, const double *x)
{
    double m = 0.0;
    for (int j = 0; j < n; j++)
        if (fabs(x[j]) > m) m = fabs(x[j]);
    return m;
}

static int stop_tick(hs_cmdgen *g)
{
    hs_cmdgen_fv *fv = &g->fv;
    fv->stop_j++;
    const double S = (double)fv->stop_ticks;
    const double s = fv->stop_j == fv->stop_ticks ? 1.0 : (double)fv->stop_j / S;
    for (int j = 0; j < g->n; j++) {
        g->cmd[j] = fv->c0[j] + fv->v0[j] * (s - 0.5 * s * s);
        g->vel[j] = fv->v0[j] * (1.0 - s) / S;
    }
    return fv->stop_j == fv->stop_ticks ? HS_CMDGEN_EV_DONE : 0;
}

int hs_cmdgen_fv_tick(hs_cmdgen *g, const double *f)
{
    hs_cmdgen_fv *fv = &g->fv;
    const int n = g->n;
    const double h = fv->h;
    if (fv->stopping) return stop_tick(g);
    if (!f)
        return hs_fail(g->ctx, HS_EINVAL,
                       "command generator: free vibration needs the measured forces");
    if (!fv->started) {
        /* from rest in hold: d = command, v = its velocity, M a = -r - C v */
        for (int j = 0; j < n; j++) {
            fv->d[j] = g->cmd[j];
            fv->v[j] = g->vel[j] / h;
            fv->a[j] = -f[j];
        }
        hs_matvec_add(n, fv->C, fv->v, -1.0, fv->a);
        int rc = hs_linsolver_solve(fv->mass, fv->a);
        if (rc) return rc;
        fv->started = 1;
    } else {
        for (int j = 0; j < n; j++) fv->a[j] = -f[j];
        hs_matvec_add(n, fv->C, fv->vp, -1.0, fv->a);
        int rc = hs_linsolver_solve(fv->meff, fv->a);
        if (rc) return rc;
        for (int j = 0; j < n; j++) {
            fv->d[j] = fv->dp[j] + 0.25 * h * h * fv->a[j];
            fv->v[j] = fv->vp[j] + 0.5 * h * fv->a[j];
        }
    }
    fv->ticks++;
    const double vmax = max_abs(n, fv->v), fmax = max_abs(n, f);
    if (vmax > fv->peak_v) fv->peak_v = vmax;
    if (fmax > fv->peak_f) fv->peak_f = fmax;
    const double vt = g->p.v_tol > 0.0 ? g->p.v_tol : g->p.rel_tol * fv->peak_v;
    const double ft = g->p.f_tol > 0.0 ? g->p.f_tol : g->p.rel_tol * fv->peak_f;
    fv->quiet = (vmax <= vt && fmax <= ft) ? fv->quiet + 1 : 0;
    for (int j = 0; j < n; j++) {
        fv->dp[j] = fv->d[j] + h * fv->v[j] + 0.25 * h * h * fv->a[j];
        fv->vp[j] = fv->v[j] + 0.5 * h * fv->a[j];
        g->cmd[j] = fv->dp[j];
        g->vel[j] = fv->vp[j] * h;
    }
    const int capped = fv->max_ticks > 0 && fv->ticks >= fv->max_ticks;
    if (fv->quiet >= fv->quiet_needed || capped) {
        if (capped && fv->quiet < fv->quiet_needed) g->sum.fv_capped = 1;
        fv->stopping = 1;
        fv->stop_j = 0;
        for (int j = 0; j < n; j++) {
            fv->c0[j] = g->cmd[j];
            fv->v0[j] = g->vel[j] * (double)fv->stop_ticks;
        }
    }
    return 0;
}
