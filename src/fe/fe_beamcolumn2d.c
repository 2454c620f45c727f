/* Displacement- and force-based 2-D and 3-D beam-columns in their basic system
 * (fe_beamcolumn.h). */
#include "fe_beamcolumn.h"
#include "hysim/linalg.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* The orders of 2-D fiber sections (P, Mz) and of the 2-D basic system: the inverse as the
 * adjugate times one reciprocal of the determinant (-1 when it is zero). One division instead of
 * an LU's 3 and 6 and a call (the section flexibility at every point of every element iteration;
 * the basic stiffness from the flexibility at every iteration); the same inverse to round-off. */
static int invert2(const double *a, double *inv)
{
    const double det = a[0] * a[3] - a[1] * a[2];
    if (det == 0.0) return -1;
    const double r = 1.0 / det;
    inv[0] = a[3] * r;
    inv[1] = -a[1] * r;
    inv[2] = -a[2] * r;
    inv[3] = a[0] * r;
    return 0;
}

static int invert3(const double *a, double *inv)
{
    const double c0 = a[4] * a[8] - a[5] * a[7], c1 = a[5] * a[6] - a[3] * a[8];
    const double c2 = a[3] * a[7] - a[4] * a[6];
    const double det = a[0] * c0 + a[1] * c1 + a[2] * c2;
    if (det == 0.0) return -1;
    const double r = 1.0 / det;
    inv[0] = c0 * r;
    inv[1] = (a[2] * a[7] - a[1] * a[8]) * r;
    inv[2] = (a[1] * a[5] - a[2] * a[4]) * r;
    inv[3] = c1 * r;
    inv[4] = (a[0] * a[8] - a[2] * a[6]) * r;
    inv[5] = (a[2] * a[3] - a[0] * a[5]) * r;
    inv[6] = c2 * r;
    inv[7] = (a[1] * a[6] - a[0] * a[7]) * r;
    inv[8] = (a[0] * a[4] - a[1] * a[3]) * r;
    return 0;
}

static int invert(const double *a, int n, double *inv)
{
    if (n == 2) return invert2(a, inv);
    if (n == 3) return invert3(a, inv);
    return hs_small_inverse(n, a, inv); /* 3-D sections and basic systems: LAPACK */
}

/* Row k of the force interpolation b (order x nq) of section code `code` at xi
 * (ForceBeamColumn3d::computeSectionForces). */
static void b_row(int code, double xi, double L, double *row)
{
    memset(row, 0, 6 * sizeof *row);
    if (code == FE_SEC_P) row[0] = 1.0;
    if (code == FE_SEC_MZ) {
        row[1] = xi - 1.0;
        row[2] = xi;
    }
    if (code == FE_SEC_VY) row[1] = row[2] = 1.0 / L;
    if (code == FE_SEC_MY) {
        row[3] = xi - 1.0;
        row[4] = xi;
    }
    if (code == FE_SEC_VZ) row[3] = row[4] = 1.0 / L;
    if (code == FE_SEC_T) row[5] = 1.0;
}

/* Row of the displacement-based B (order x nq) of section code `code` at xi
 * (DispBeamColumn3d::update: no shear deformation). */
static void disp_row(int code, double xi, double L, double *row)
{
    memset(row, 0, 6 * sizeof *row);
    if (code == FE_SEC_P) row[0] = 1.0 / L;
    if (code == FE_SEC_MZ) {
        row[1] = (6.0 * xi - 4.0) / L;
        row[2] = (6.0 * xi - 2.0) / L;
    }
    if (code == FE_SEC_MY) {
        row[3] = (6.0 * xi - 4.0) / L;
        row[4] = (6.0 * xi - 2.0) / L;
    }
    if (code == FE_SEC_T) row[5] = 1.0 / L;
}

/* y = A x for the nq x nq row-major A. */
static void mat_vec(const double *A, const double *x, int nq, double *y)
{
    for (int a = 0; a < nq; a++) {
        double t = 0.0;
        for (int b = 0; b < nq; b++) t += A[a * nq + b] * x[b];
        y[a] = t;
    }
}

int fe_bc2d_create(hs_ctx *ctx, int force_based, double L, const fe_beam_integration *bi,
                   fe_section **secs, fe_batch_scratch *scratch, fe_bc2d **out)
{
    fe_bc2d *e = hs_calloc(1, sizeof *e);
    int rc = e ? 0 : HS_ENOMEM;
    if (!rc && !(L > 0.0 && isfinite(L)))
        rc = hs_fail(ctx, HS_EINPUT, "beam-column: length %g (must be > 0)", L);
    const int ndm = secs[0]->ndm;
    for (int i = 0; i < bi->n; i++) {
        if (e) e->sec[i] = secs[i];
        if (!rc && (secs[i]->ndm != ndm || !secs[i]->finalized))
            rc = hs_fail(ctx, HS_EINVAL, "beam-column: section %d is not a finalized %d-D one",
                         i + 1, ndm);
        if (!rc && ndm == 3 && fe_section_slot(secs[i], FE_SEC_T) < 0)
            rc = hs_fail(ctx, HS_EINPUT,
                         "beam-column: the section at point %d has no torsion (T): add -GJ to "
                         "section Fiber, or aggregate a material on T",
                         i + 1);
    }
    if (rc) {
        if (e)
            fe_bc2d_destroy(&e);
        else
            for (int i = 0; i < bi->n; i++) fe_section_destroy(&secs[i]);
        return rc;
    }
    e->ctx = ctx;
    e->pt = &e->pts[0];
    e->pt_t = &e->pts[1];
    e->force_based = force_based;
    e->nq = ndm == 3 ? 6 : 3;
    e->L = L;
    e->iL = 1.0 / L;
    e->bi = *bi;
    e->max_iter = 10;
    e->tol = 1e-12;
    e->max_sub = 4;
    e->order2 = 1;
    for (int p = 0; p < bi->n; p++) {
        e->order2 &= e->sec[p]->order == 2;
        if (e->sec[p]->order > e->ns) e->ns = e->sec[p]->order;
    }
    e->pm = e->order2 && e->nq == 3;
    for (int p = 0; p < bi->n; p++)
        e->pm &= e->sec[p]->code[0] == FE_SEC_P && e->sec[p]->code[1] == FE_SEC_MZ;
    /* the virgin state: zero deformations; the force-based element's section flexibilities
     * and basic stiffness from the sections' initial tangents */
    for (int p = 0; p < bi->n && force_based && !rc; p++) {
        double ks[FE_SEC_MAX * FE_SEC_MAX];
        fe_section_initial_tangent(e->sec[p], ks);
        if (invert(ks, e->sec[p]->order, fe_bc_fs(e, e->pt, p)))
            rc = hs_fail(ctx, HS_EINPUT,
                         "forceBeamColumn: the section at point %d has a singular initial "
                         "stiffness (no flexibility)",
                         p + 1);
    }
    if (!rc && force_based && fe_bc2d_initial_stiffness(e, e->kb))
        rc = hs_fail(ctx, HS_EINPUT,
                     "forceBeamColumn: singular initial flexibility (do the sections carry "
                     "axial force and moment?)");
    if (!rc && force_based == 2) rc = fe_bc_cbdi_check(ctx, e);
    /* the points' fiber sections in one law call a material (fe_section_batch): when they
     * qualify, the same bits as one section after the other */
    if (!rc && force_based == 1 && e->pm)
        rc = fe_section_batch_create(e->sec, bi->n, scratch, &e->batch);
    const double zero[6] = {0};
    if (!rc) rc = fe_bc2d_set_trial(e, zero);
    if (!rc) rc = fe_bc2d_commit(e);
    if (rc) {
        fe_bc2d_destroy(&e);
        return rc;
    }
    *out = e;
    return 0;
}

void fe_bc2d_destroy(fe_bc2d **ep)
{
    if (!ep || !*ep) return;
    for (int i = 0; i < (*ep)->bi.n; i++) fe_section_destroy(&(*ep)->sec[i]);
    fe_section_batch_destroy(&(*ep)->batch); /* (the sections' states, after them) */
    hs_free(*ep);
    *ep = NULL;
}

/* The points' arrays (deformations, resisting forces, flexibilities) from one set to another:
 * the entries their sections' orders use (2, 2 and 4 of 6, 6 and 36 for a 2-D fiber section;
 * the others are never read). */
static inline void copy_points(const fe_bc2d *e, fe_bc_points *to, fe_bc_points *from)
{
    if (e->order2) { /* fixed sizes: a few moves a point, sr and fs in one block, no section read */
        for (int p = 0; p < e->bi.n; p++) memcpy(to->vs[p], from->vs[p], 2 * sizeof(double));
        memcpy(to->srfs, from->srfs, (size_t)e->bi.n * 6 * sizeof(double));
        return;
    }
    for (int p = 0; p < e->bi.n; p++) {
        const int n = e->sec[p]->order;
        for (int k = 0; k < n; k++) {
            to->vs[p][k] = from->vs[p][k];
            fe_bc_sr(e, to, p)[k] = fe_bc_sr(e, from, p)[k];
        }
        for (int k = 0; k < n * n; k++) fe_bc_fs(e, to, p)[k] = fe_bc_fs(e, from, p)[k];
    }
}

static int disp_state(fe_bc2d *e, const double *v)
{
    const double L = e->L;
    const int nq = e->nq;
    memset(e->q, 0, sizeof e->q);
    memset(e->kb, 0, sizeof e->kb);
    int rc = 0;
    for (int p = 0; p < e->bi.n; p++) {
        fe_section *s = e->sec[p];
        const double xi = e->bi.xi[p], wL = e->bi.w[p] * L;
        double B[FE_SEC_MAX][6], d[FE_SEC_MAX];
        for (int k = 0; k < s->order; k++) {
            disp_row(s->code[k], xi, L, B[k]);
            d[k] = 0.0;
            for (int a = 0; a < nq; a++) d[k] += B[k][a] * v[a];
        }
        const int r = fe_section_set_trial(s, d);
        if (r && !rc) rc = r;
        const int n = s->order;
        for (int k = 0; k < n; k++)
            for (int a = 0; a < nq; a++) {
                if (B[k][a] == 0.0) continue;
                e->q[a] += wL * B[k][a] * s->s[k];
                for (int l = 0; l < n; l++)
                    for (int b = 0; b < nq; b++)
                        e->kb[a * nq + b] += wL * B[k][a] * s->ks[k * n + l] * B[l][b];
            }
    }
    return rc;
}

/* One section of an iteration of force_attempt (its point p, order n; nq basic forces): the
 * section's deformations from the force residual, its state, and its parts of the flexibility f
 * (nq x nq) and the integrated deformations vr; -1 on a section error. */
static inline int attempt_point(fe_bc2d *e, int p, int n, int nq, const double *q, int l, int j,
                                double *f, double *vr)
{
    fe_section *s = e->sec[p];
    const double L = e->L;
    const double xi = e->bi.xi[p], wL = e->bi.w[p] * L;
    double b[FE_SEC_MAX][6], ss[FE_SEC_MAX], ds[FE_SEC_MAX], fs0[FE_SEC_MAX * FE_SEC_MAX];
    for (int k = 0; k < n; k++) {
        b_row(s->code[k], xi, L, b[k]);
        ss[k] = b[k][0] * q[0];
        for (int a = 1; a < nq; a++) ss[k] += b[k][a] * q[a];
        if (e->loaded) ss[k] += e->sp[p][k];
        ds[k] = ss[k] - fe_bc_sr(e, e->pt_t, p)[k];
    }
    const double *fl = fe_bc_fs(e, e->pt_t, p);
    if (l == 1 || (l == 2 && j == 0)) {
        double k0[FE_SEC_MAX * FE_SEC_MAX];
        fe_section_initial_tangent(s, k0);
        if (invert(k0, n, fs0)) return -1;
        fl = fs0;
    }
    for (int k = 0; k < n; k++) {
        double d = 0.0;
        for (int m = 0; m < n; m++) d += fl[k * n + m] * ds[m];
        e->pt_t->vs[p][k] += d;
    }
    const int r = fe_section_set_trial(s, e->pt_t->vs[p]);
    if (r) return -1;
    memcpy(fe_bc_sr(e, e->pt_t, p), s->s, (size_t)n * sizeof(double));
    if (invert(s->ks, n, fe_bc_fs(e, e->pt_t, p))) {
        hs_fail(e->ctx, HS_ECONVERGE,
                "forceBeamColumn: the section at point %d (xi = %g) has lost its "
                "stiffness (singular tangent)",
                p + 1, xi);
        return -1;
    }
    const double *fsec = fe_bc_fs(e, e->pt_t, p);
    double dvs[FE_SEC_MAX];
    for (int k = 0; k < n; k++) {
        double d = 0.0;
        for (int m = 0; m < n; m++) d += fsec[k * n + m] * (ss[m] - s->s[m]);
        dvs[k] = d + e->pt_t->vs[p][k];
    }
    for (int k = 0; k < n; k++) {
        for (int a = 0; a < nq; a++) {
            if (b[k][a] == 0.0) continue;
            vr[a] += b[k][a] * dvs[k] * wL;
            for (int m = 0; m < n; m++)
                for (int c = 0; c < nq; c++)
                    f[a * nq + c] += b[k][a] * fsec[k * n + m] * b[m][c] * wL;
        }
    }
    return 0;
}

/* attempt_point for a 2-D section of P and Mz (a fiber section) in the 2-D basic system: b =
 * [1 0 0; 0 xi-1 xi] written out, its zero terms left out (the same sums otherwise). In two
 * halves around the section's trial (the points' sections of a batch are set between them): the
 * section forces ss in equilibrium with q and the section's new deformations, then its parts of f
 * and vr. ns: the element's largest section order (its points' packed arrays), 2 given as a
 * constant where every section is of P and Mz. */
static inline int point_pm_deform(fe_bc2d *e, int p, int ns, fe_bc_points *from, const double *q,
                                  int l, int j, double *ss)
{
    const fe_section *s = e->sec[p];
    const double xi = e->bi.xi[p], b1 = xi - 1.0, b2 = xi;
    /* the member loads' section forces (fe_member_load.c) add to b q, as in attempt_point */
    const double ss0 = q[0] + (e->loaded ? e->sp[p][0] : 0.0),
                 ss1 = b1 * q[1] + b2 * q[2] + (e->loaded ? e->sp[p][1] : 0.0);
    ss[0] = ss0;
    ss[1] = ss1;
    const double *sr = fe_bc_point_sr(from, p, ns);
    const double ds0 = ss0 - sr[0], ds1 = ss1 - sr[1];
    const double *fl = sr + ns;
    double fs0[4];
    if (l == 1 || (l == 2 && j == 0)) {
        double k0[FE_SEC_MAX * FE_SEC_MAX];
        fe_section_initial_tangent(s, k0);
        if (invert2(k0, fs0)) return -1;
        fl = fs0;
    }
    double *vs = e->pt_t->vs[p];
    vs[0] = from->vs[p][0] + (fl[0] * ds0 + fl[1] * ds1);
    vs[1] = from->vs[p][1] + (fl[2] * ds0 + fl[3] * ds1);
    return 0;
}

static inline int point_pm_sums(fe_bc2d *e, int p, int ns, const double *ss, double *f, double *vr)
{
    const fe_section *s = e->sec[p];
    const double xi = e->bi.xi[p], wL = e->bi.w[p] * e->L, b1 = xi - 1.0, b2 = xi;
    const double ss0 = ss[0], ss1 = ss[1];
    const double *vs = e->pt_t->vs[p];
    double *sr = fe_bc_point_sr(e->pt_t, p, ns), *fs = sr + ns;
    sr[0] = s->s[0];
    sr[1] = s->s[1];
    if (invert2(s->ks, fs)) {
        hs_fail(e->ctx, HS_ECONVERGE,
                "forceBeamColumn: the section at point %d (xi = %g) has lost its stiffness "
                "(singular tangent)",
                p + 1, xi);
        return -1;
    }
    const double r0 = ss0 - s->s[0], r1 = ss1 - s->s[1];
    const double dvs0 = fs[0] * r0 + fs[1] * r1 + vs[0], dvs1 = fs[2] * r0 + fs[3] * r1 + vs[1];
    vr[0] += dvs0 * wL;
    vr[1] += b1 * dvs1 * wL;
    vr[2] += b2 * dvs1 * wL;
    f[0] += fs[0] * wL;
    f[1] += fs[1] * b1 * wL;
    f[2] += fs[1] * b2 * wL;
    f[3] += b1 * fs[2] * wL;
    f[4] += b1 * fs[3] * b1 * wL;
    f[5] += b1 * fs[3] * b2 * wL;
    f[6] += b2 * fs[2] * wL;
    f[7] += b2 * fs[3] * b1 * wL;
    f[8] += b2 * fs[3] * b2 * wL;
    return 0;
}

static inline int attempt_point_pm(fe_bc2d *e, int p, int ns, fe_bc_points *from, const double *q,
                                   int l, int j, double *f, double *vr)
{
    double ss[2];
    if (point_pm_deform(e, p, ns, from, q, l, j, ss) ||
        fe_section_set_trial(e->sec[p], e->pt_t->vs[p]))
        return -1;
    return point_pm_sums(e, p, ns, ss, f, vr);
}

/* The points of one iteration of force_attempt_pm whose sections are a batch: every point's
 * deformations, the sections in one call, then the points' sums in their order (the same sums). */
static inline int attempt_points_batch(fe_bc2d *e, fe_bc_points *from, const double *q, int l,
                                       int j, double *f, double *vr)
{
    double ss[FE_BI_MAX][2];
    for (int p = 0; p < e->bi.n; p++)
        if (point_pm_deform(e, p, 2, from, q, l, j, ss[p])) return -1;
    fe_section_batch_set_trial(e->batch, e->pt_t->vs);
    for (int p = 0; p < e->bi.n; p++)
        if (point_pm_sums(e, p, 2, ss[p], f, vr)) return -1;
    return 0;
}

/* A converged attempt's basic forces q, stiffness kv (nq x nq) and points' arrays become the
 * element's converged state: the attempt's set of arrays becomes the converged one, the old
 * converged set the next attempt's scratch (swapped, not copied). */
static inline void attempt_accept(fe_bc2d *e, const double *q, const double *kv, int nq)
{
    memcpy(e->q, q, (size_t)nq * sizeof *q);
    memcpy(e->kb, kv, (size_t)(nq * nq) * sizeof *kv);
    fe_bc_points_swap(e);
}

/* force_attempt for the 2-D basic system with sections of P and Mz only (e->pm: fiber sections):
 * fixed sizes, 3 x 3 products written out in mat_vec's order of additions, f zeroed in
 * registers (the same sums as the general loop, to the bit). No copy of the points' arrays: the
 * first iteration reads the converged set and writes every used entry of the attempt's (vs, sr,
 * fs), the next ones read and write the attempt's; a new attempt starts from the converged set
 * again. */
static int force_attempt_pm(fe_bc2d *e, const double *v_in, const double *dv, int l, int iters)
{
    const int np = e->bi.n;
    double q[3], kv[9];
    memcpy(kv, e->kb, sizeof kv);
    for (int a = 0; a < 3; a++) {
        double t = 0.0;
        t += kv[a * 3] * dv[0];
        t += kv[a * 3 + 1] * dv[1];
        t += kv[a * 3 + 2] * dv[2];
        q[a] = t + e->q[a];
    }
    for (int j = 0; j < iters; j++) {
        e->iters_last++;
        double f[9] = {0}, vr[3] = {0};
        fe_bc_points *from = j ? e->pt_t : e->pt;
        if (e->batch) {
            if (attempt_points_batch(e, from, q, l, j, f, vr)) return -1;
        } else
            for (int p = 0; p < np; p++)
                if (attempt_point_pm(e, p, 2, from, q, l, j, f, vr)) return -1;
        if (invert3(f, kv)) return -1;
        double r[3], dq[3];
        for (int a = 0; a < 3; a++) r[a] = v_in[a] + dv[a] - vr[a];
        for (int a = 0; a < 3; a++) {
            double t = 0.0;
            t += kv[a * 3] * r[0];
            t += kv[a * 3 + 1] * r[1];
            t += kv[a * 3 + 2] * r[2];
            dq[a] = t;
        }
        double dW = 0.0;
        for (int a = 0; a < 3; a++) {
            dW += r[a] * dq[a];
            q[a] += dq[a];
        }
        if (fabs(dW) < e->tol) {
            attempt_accept(e, q, kv, 3);
            return 1;
        }
    }
    return 0;
}

/* One attempt from the converged trial (q, vs, sr, fs) towards v_in + dv with flexibility mode
 * l (0: current, 1: initial, 2: initial at the first iteration); 1 when converged (the state
 * then holds it: attempt_accept), 0 when not within `iters`, < 0 on a section error. */
static int force_attempt(fe_bc2d *e, const double *v_in, const double *dv, int l, int iters)
{
    if (e->pm) return force_attempt_pm(e, v_in, dv, l, iters);
    const int np = e->bi.n, nq = e->nq;
    const size_t kv_bytes = (size_t)(nq * nq) * sizeof(double); /* (9 of 36 in 2-D) */
    double q[6], kv[36];
    memcpy(kv, e->kb, kv_bytes);
    mat_vec(kv, dv, nq, q);
    for (int a = 0; a < nq; a++) q[a] += e->q[a];
    copy_points(e, e->pt_t, e->pt); /* the attempt's arrays from the converged ones */
    for (int j = 0; j < iters; j++) {
        e->iters_last++;
        double f[36], vr[6] = {0};
        memset(f, 0, kv_bytes);
        for (int p = 0; p < np; p++) {
            const fe_section *s = e->sec[p];
            const int r =
                s->order == 2 && nq == 3 && s->code[0] == FE_SEC_P && s->code[1] == FE_SEC_MZ
                    ? attempt_point_pm(e, p, e->ns, e->pt_t, q, l, j, f, vr)
                    : attempt_point(e, p, s->order, nq, q, l, j, f, vr);
            if (r) return -1;
        }
        if (invert(f, nq, kv)) return -1;
        double r[6], dq[6];
        for (int a = 0; a < nq; a++) r[a] = v_in[a] + dv[a] - vr[a];
        mat_vec(kv, r, nq, dq);
        double dW = 0.0;
        for (int a = 0; a < nq; a++) {
            dW += r[a] * dq[a];
            q[a] += dq[a];
        }
        if (fabs(dW) < e->tol) {
            attempt_accept(e, q, kv, nq);
            return 1;
        }
    }
    return 0;
}

/* force_state with nq basic forces (3 given as a constant for the P-Mz elements' fixed sizes). */
static inline int force_state_n(fe_bc2d *e, const double *v, const int nq)
{
    double v_in[6], to_do[6], dv[6];
    memcpy(v_in, e->v, sizeof v_in);
    for (int a = 0; a < nq; a++) to_do[a] = dv[a] = v[a] - v_in[a];
    e->iters_last = 0;
    /* No increment since the last trial (norm <= DBL_EPSILON): the state (q, kb) stands, as
     * OpenSees' ForceBeamColumn2d::update returns (ForceBeamColumn2d.cpp, read for facts): no
     * iteration, no fiber evaluated. Another element iteration would move the sections by their
     * residual strains and, from a state accepted unconverged, turn yielding fibres elastic in
     * the tangent (Example3.2.tcl). */
    double dv2 = 0.0;
    for (int a = 0; a < nq; a++) dv2 += dv[a] * dv[a];
    if (sqrt(dv2) <= DBL_EPSILON && !e->loaded) return 0;
    e->calls++;
    int sub = 1;
    while (sub <= e->max_sub) {
        int ok = 0;
        for (int l = 0; l < 3 && !ok; l++) {
            const int r = force_attempt(e, v_in, dv, l, l == 1 ? 10 * e->max_iter : e->max_iter);
            if (r < 0) return HS_ECONVERGE;
            if (r == 1) {
                ok = 1;
                for (int a = 0; a < nq; a++) {
                    to_do[a] -= dv[a];
                    v_in[a] += dv[a];
                    e->v[a] = v_in[a];
                }
            }
        }
        if (ok) {
            double left = 0.0;
            for (int a = 0; a < nq; a++) left += fabs(to_do[a]);
            if (left <= DBL_EPSILON) break;
            memcpy(dv, to_do, sizeof dv);
            sub = 1;
        } else {
            for (int a = 0; a < nq; a++) dv[a] /= 10.0;
            sub++;
        }
    }
    e->iters_total += e->iters_last;
    if (e->iters_last > e->iters_max) e->iters_max = e->iters_last;
    if (sub > e->max_sub)
        return hs_fail(e->ctx, HS_ECONVERGE,
                       "forceBeamColumn: element state determination did not converge to the "
                       "work tolerance %g in %d iterations (increment of the basic deformations "
                       "[%g, %g, %g%s])",
                       e->tol, e->iters_last, v[0] - e->v_c[0], v[1] - e->v_c[1], v[2] - e->v_c[2],
                       nq > 3 ? ", ..." : "");
    return 0;
}

static int force_state(fe_bc2d *e, const double *v)
{
    return e->pm ? force_state_n(e, v, 3) : force_state_n(e, v, e->nq);
}

int fe_bc2d_set_trial(fe_bc2d *e, const double *v)
{
    if (!e->force_based) {
        memcpy(e->v, v, (size_t)e->nq * sizeof *v);
        const int rc = disp_state(e, v);
        for (int a = 0; e->loaded && a < e->nq; a++) e->q[a] += e->q0[a];
        return rc;
    }
    return e->force_based == 2 ? fe_bc_cbdi_state(e, v) : force_state(e, v);
}

int fe_bc2d_commit(fe_bc2d *e)
{
    int rc = 0;
    for (int p = 0; p < e->bi.n; p++) {
        const int r = fe_section_commit(e->sec[p]);
        if (r && !rc) rc = r;
    }
    memcpy(e->v_c, e->v, sizeof e->v);
    memcpy(e->q_c, e->q, sizeof e->q);
    if (e->nq == 3) /* (a fixed size: moves, no call) */
        memcpy(e->kb_c, e->kb, 9 * sizeof *e->kb);
    else
        memcpy(e->kb_c, e->kb, 36 * sizeof *e->kb);
    copy_points(e, &e->pt_c, e->pt);
    return rc;
}

int fe_bc2d_revert(fe_bc2d *e)
{
    int rc = 0;
    for (int p = 0; p < e->bi.n; p++) {
        const int r = fe_section_revert(e->sec[p]);
        if (r && !rc) rc = r;
    }
    memcpy(e->v, e->v_c, sizeof e->v);
    memcpy(e->q, e->q_c, sizeof e->q);
    memcpy(e->kb, e->kb_c, (size_t)(e->nq * e->nq) * sizeof *e->kb);
    copy_points(e, e->pt, &e->pt_c);
    return rc;
}

int fe_bc2d_initial_stiffness(const fe_bc2d *e, double *kb)
{
    const double L = e->L;
    const int nq = e->nq;
    double k[36] = {0}, f[36] = {0};
    for (int p = 0; p < e->bi.n; p++) {
        const fe_section *s = e->sec[p];
        const int n = s->order;
        const double xi = e->bi.xi[p], wL = e->bi.w[p] * L;
        double ks[FE_SEC_MAX * FE_SEC_MAX], fs[FE_SEC_MAX * FE_SEC_MAX], B[FE_SEC_MAX][6];
        fe_section_initial_tangent(s, ks);
        const double *m = ks;
        if (e->force_based) {
            if (invert(ks, n, fs)) return -1;
            m = fs;
        }
        for (int r = 0; r < n; r++) (e->force_based ? b_row : disp_row)(s->code[r], xi, L, B[r]);
        double *acc = e->force_based ? f : k;
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++)
                for (int a = 0; a < nq; a++)
                    for (int b = 0; b < nq; b++)
                        acc[a * nq + b] += wL * B[r][a] * m[r * n + c] * B[c][b];
    }
    if (e->force_based) return invert(f, nq, kb);
    memcpy(kb, k, (size_t)(nq * nq) * sizeof *kb);
    return 0;
}
