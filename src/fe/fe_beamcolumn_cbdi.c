/* The force-based element with curvature-based displacement interpolation (OpenSees'
 * forceBeamColumnCBDI, SRC/element/forceBeamColumn/ForceBeamColumnCBDI2d.cpp, read for facts;
 * Neuenhofer & Filippou 1998): the 2-D force-based element (fe_beamcolumn.h) whose section
 * moments carry the member's own P-delta, Mz(xi) = w(xi) q0 + (xi - 1) q1 + xi q2, with w the
 * transverse displacement relative to the chord integrated from the sections' curvatures through
 * the polynomial through the N integration points: w = L^2 ls kappa, ls = Hk G^-1,
 * G(i, j) = xi_i^j, Hk(i, j) = (xi_i^(j+2) - xi_i) / ((j + 1)(j + 2)) (the double integral of xi^j
 * that vanishes at both ends). Its state determination (ForceBeamColumnCBDI2d::update) is its own:
 * at each element iteration the section deformations of all points are corrected together, twice,
 * by the system (ls L^2 q0 - ks) de = b(w) q - s coupling the curvatures through w; then the
 * flexibility f = sum wt L [b*^T fs b^ + b*^T fs (q0 dw/dq) + 0.5 e_Mz dw/dq on the axial row],
 * b* the interpolation with 0.5 w, b^ with w, dw/dq from (I - q0 L^2 ls FkM) dw/dq = L^2 ls Fks b;
 * the residual deformations vr = sum wt L b*^T vs; q += kv (v - vr) with the kv of the last
 * update, converged when |(v - vr) . dq| < tol, and OpenSees accepts the last iterate after
 * maxIters without an error, as here. Sections of P and Mz only (OpenSees' -shear, the
 * shear-bending CSBDI variant, is not here). */
#include "fe_beamcolumn.h"

#include "hysim/linalg.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define N_MAX FE_BI_MAX
#define S_MAX (2 * FE_BI_MAX) /* section unknowns: P and Mz at each point */

int fe_bc_cbdi_check(hs_ctx *ctx, const fe_bc2d *e)
{
    if (e->nq != 3)
        return hs_fail(ctx, HS_EINPUT, "forceBeamColumnCBDI: 2-D models only (-ndm 2 -ndf 3)");
    for (int p = 0; p < e->bi.n; p++) {
        const fe_section *s = e->sec[p];
        if (s->order != 2 || fe_section_slot(s, FE_SEC_P) < 0 || fe_section_slot(s, FE_SEC_MZ) < 0)
            return hs_fail(ctx, HS_EINPUT,
                           "forceBeamColumnCBDI: the section at point %d has %d resultants; "
                           "hysim's CBDI element takes sections of P and Mz only (no Vy: "
                           "OpenSees' -shear variant is not in hysim)",
                           p + 1, s->order);
    }
    return 0;
}

/* ls = Hk G^-1 (n x n, row-major). */
static int influence(const fe_bc2d *e, double *ls)
{
    const int n = e->bi.n;
    double G[N_MAX * N_MAX], Ginv[N_MAX * N_MAX];
    for (int i = 0; i < n; i++) {
        G[i * n] = 1.0;
        for (int j = 1; j < n; j++) G[i * n + j] = pow(e->bi.xi[i], j);
        for (int j = 0; j < n; j++) Ginv[i * n + j] = i == j;
    }
    if (hs_small_solve(n, G, Ginv, n)) return -1;
    for (int i = 0; i < n; i++) {
        const double xi = e->bi.xi[i];
        double hk[N_MAX];
        for (int j = 0; j < n; j++) hk[j] = (pow(xi, j + 2) - xi) / (j + 1) / (j + 2);
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++) s += hk[k] * Ginv[k * n + j];
            ls[i * n + j] = s;
        }
    }
    return 0;
}

/* The state of one element iteration (the points' sections, their P and Mz slots). */
typedef struct cbdi {
    fe_bc2d *e;
    int n, kp, km;
    double L, ls[N_MAX * N_MAX], w[N_MAX];
} cbdi;

/* w = L^2 ls kappa of the deformations vs. */
static void deflections(cbdi *c, double vs[][FE_SEC_MAX])
{
    for (int i = 0; i < c->n; i++) {
        double s = 0.0;
        for (int j = 0; j < c->n; j++) s += c->ls[i * c->n + j] * vs[j][c->km];
        c->w[i] = c->L * c->L * s;
    }
}

/* The section forces in equilibrium with q at point i: P = q0, Mz = w q0 + (xi - 1) q1 + xi q2. */
static double equilibrium(const cbdi *c, int i, int k, const double *q)
{
    const double xi = c->e->bi.xi[i];
    return k == c->kp ? q[0] : c->w[i] * q[0] + (xi - 1.0) * q[1] + xi * q[2];
}

/* vs -= (ls L^2 q0 - ks)^-1 (b(w) q - s): the correction of every point's deformations. */
static int correct(cbdi *c, const double *q, const double *s, double vs[][FE_SEC_MAX])
{
    const int n = c->n, m = 2 * n;
    double K[S_MAX * S_MAX], r[S_MAX];
    memset(K, 0, (size_t)(m * m) * sizeof *K);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            K[(2 * i + c->km) * m + 2 * j + c->km] += c->ls[i * n + j] * c->L * c->L * q[0];
        const double *ks = c->e->sec[i]->ks;
        for (int a = 0; a < 2; a++) {
            for (int b = 0; b < 2; b++) K[(2 * i + a) * m + 2 * i + b] -= ks[a * 2 + b];
            r[2 * i + a] = equilibrium(c, i, a, q) - s[2 * i + a];
        }
    }
    if (hs_small_solve(m, K, r, 1)) return -1;
    for (int i = 0; i < n; i++)
        for (int a = 0; a < 2; a++) vs[i][a] -= r[2 * i + a];
    return 0;
}

/* dw/dq (n x 3): (I - q0 L^2 ls FkM) dwdq = L^2 ls Fks b (ForceBeamColumnCBDI2d::computedwdq
 * without shear). */
static int dwdq(const cbdi *c, const double *q, double *out)
{
    const fe_bc2d *e = c->e;
    const int n = c->n;
    double A[N_MAX * N_MAX], F[N_MAX * 3];
    for (int i = 0; i < n; i++) {
        const double *fs = fe_bc_fs(e, e->pt_t, i), xi = e->bi.xi[i];
        const double FkM = fs[c->km * 2 + c->km];
        F[i * 3] = F[i * 3 + 1] = F[i * 3 + 2] = 0.0;
        for (int k = 0; k < 2; k++) {
            const double f = fs[c->km * 2 + k];
            if (k == c->kp) F[i * 3] += f;
            if (k == c->km) {
                F[i * 3] += c->w[i] * f;
                F[i * 3 + 1] += (xi - 1.0) * f;
                F[i * 3 + 2] += xi * f;
            }
        }
        for (int j = 0; j < n; j++)
            A[j * n + i] = (i == j) - q[0] * c->L * c->L * FkM * c->ls[j * n + i];
    }
    for (int i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) {
            double s = 0.0;
            for (int k = 0; k < n; k++) s += c->ls[i * n + k] * F[k * 3 + a];
            out[i * 3 + a] = c->L * c->L * s;
        }
    return hs_small_solve(n, A, out, 3);
}

/* One element iteration's flexibility f (3 x 3 row-major) and residual deformations vr. */
static void flexibility(const cbdi *c, const double *q, const double *dw, double vs[][FE_SEC_MAX],
                        double *f, double *vr)
{
    const fe_bc2d *e = c->e;
    memset(f, 0, 9 * sizeof *f);
    memset(vr, 0, 3 * sizeof *vr);
    for (int i = 0; i < c->n; i++) {
        const double xi = e->bi.xi[i], wtL = e->bi.w[i] * c->L, *fs = fe_bc_fs(e, e->pt_t, i);
        double bs[2][3] = {{0}}, bh[2][3] = {{0}}, bq[2][3] = {{0}};
        bs[c->kp][0] = bh[c->kp][0] = 1.0;
        bs[c->km][0] = 0.5 * c->w[i];
        bh[c->km][0] = c->w[i];
        bs[c->km][1] = bh[c->km][1] = xi - 1.0;
        bs[c->km][2] = bh[c->km][2] = xi;
        for (int a = 0; a < 3; a++) bq[c->km][a] = q[0] * dw[i * 3 + a];
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                double s = 0.0, t = 0.0;
                for (int k = 0; k < 2; k++)
                    for (int l = 0; l < 2; l++) {
                        s += bs[k][a] * fs[k * 2 + l] * bh[l][b];
                        t += bs[k][a] * fs[k * 2 + l] * bq[l][b];
                    }
                f[a * 3 + b] += wtL * s;
                f[a * 3 + b] += wtL * t;
            }
        for (int b = 0; b < 3; b++) f[b] += 0.5 * vs[i][c->km] * dw[i * 3 + b] * wtL;
        const double dp = vs[i][c->kp] * wtL, dm = vs[i][c->km] * wtL;
        vr[0] += dp;
        vr[1] += (xi - 1.0) * dm;
        vr[2] += xi * dm;
        vr[0] += 0.5 * c->w[i] * dm;
    }
}

/* Inverts the 2 x 2 row-major a; -1 when singular. */
static int invert2(const double *a, double *inv)
{
    const double det = a[0] * a[3] - a[1] * a[2];
    if (det == 0.0) return -1;
    inv[0] = a[3] / det, inv[1] = -a[1] / det, inv[2] = -a[2] / det, inv[3] = a[0] / det;
    return 0;
}

int fe_bc_cbdi_state(fe_bc2d *e, const double *v)
{
    double dv[3], d2 = 0.0;
    for (int a = 0; a < 3; a++) {
        dv[a] = v[a] - e->v[a];
        d2 += dv[a] * dv[a];
    }
    e->iters_last = 0;
    if (sqrt(d2) <= DBL_EPSILON) return 0; /* as ForceBeamColumnCBDI2d::update */
    e->calls++;
    cbdi c = {.e = e, .n = e->bi.n, .L = e->L};
    c.kp = fe_section_slot(e->sec[0], FE_SEC_P);
    c.km = fe_section_slot(e->sec[0], FE_SEC_MZ);
    if (influence(e, c.ls))
        return hs_fail(e->ctx, HS_ECONVERGE, "forceBeamColumnCBDI: singular interpolation");
    const int n = c.n;
    double st[S_MAX], q[3], kv[9], dq[3], f[9], vr[3], dw[N_MAX * 3];
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 2; k++) st[2 * i + k] = e->sec[i]->s[k];
    *e->pt_t = *e->pt; /* the attempt's arrays from the converged ones */
    memcpy(q, e->q, sizeof q);
    memcpy(kv, e->kb, sizeof kv);
    for (int a = 0; a < 3; a++)
        dq[a] = kv[a * 3] * dv[0] + kv[a * 3 + 1] * dv[1] + kv[a * 3 + 2] * dv[2];
    memset(f, 0, sizeof f);
    for (int j = 0; j < e->max_iter; j++) {
        e->iters_last++;
        for (int a = 0; a < 3; a++) q[a] += dq[a];
        deflections(&c, e->pt_t->vs);
        if (correct(&c, q, st, e->pt_t->vs)) goto singular;
        deflections(&c, e->pt_t->vs);
        double s[S_MAX];
        for (int i = 0; i < n; i++) {
            fe_section *sec = e->sec[i];
            if (fe_section_set_trial(sec, e->pt_t->vs[i])) return HS_ECONVERGE;
            memcpy(fe_bc_sr(e, e->pt_t, i), sec->s, 2 * sizeof(double));
            for (int k = 0; k < 2; k++) s[2 * i + k] = sec->s[k];
        }
        if (correct(&c, q, s, e->pt_t->vs)) goto singular;
        deflections(&c, e->pt_t->vs);
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < 2; k++) st[2 * i + k] = equilibrium(&c, i, k, q);
            if (invert2(e->sec[i]->ks, fe_bc_fs(e, e->pt_t, i))) goto singular;
        }
        if (dwdq(&c, q, dw)) goto singular;
        flexibility(&c, q, dw, e->pt_t->vs, f, vr);
        double r[3], dW = 0.0;
        for (int a = 0; a < 3; a++) r[a] = v[a] - vr[a];
        for (int a = 0; a < 3; a++) {
            dq[a] = kv[a * 3] * r[0] + kv[a * 3 + 1] * r[1] + kv[a * 3 + 2] * r[2];
            dW += r[a] * dq[a];
        }
        if (fabs(dW) < e->tol) break;
    }
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    if (hs_small_solve(3, f, I, 3)) goto singular;
    memcpy(e->kb, I, sizeof I);
    memcpy(e->q, q, sizeof q);
    fe_bc_points_swap(e); /* the attempt's arrays become the converged ones */
    memcpy(e->v, v, sizeof dv);
    e->iters_total += e->iters_last;
    if (e->iters_last > e->iters_max) e->iters_max = e->iters_last;
    return 0;
singular:
    return hs_fail(e->ctx, HS_ECONVERGE,
                   "forceBeamColumnCBDI: a singular system in the element state determination "
                   "(a section without stiffness, or the axial load at the member's buckling "
                   "load)");
}
