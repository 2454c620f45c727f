/* OpenSees' TripleFrictionPendulumX (SRC/element/frictionBearing/TripleFrictionPendulumX.cpp,
 * read for facts): the triple friction pendulum bearing (Fenz & Constantinou 2008) as the
 * series model of Dao et al. 2013 (three bidirectional plastic segments, each with a circular
 * elastic gap: the inner slider's two surfaces and the two outer ones), its friction
 * coefficients scaled by factors of pressure, temperature and velocity, the temperature of each
 * sliding surface from its heat flux mu p v (Kumar et al. 2015; Kim & Constantinou 2023: a half
 * space or a plate of finite thickness; docs/references.md). 3-D, six DOFs a node:
 * horizontal x, y through the series model times the vertical load, vertical and the three
 * rotations through four uniaxial materials, as OpenSees. The surfaces' sliding displacements
 * and velocities that feed the heat come from OpenSees' partitioning "approach 1" (tagT = 1);
 * approach 2 is refused (hs_fe_add_tfp_x). The history of heat fluxes grows one value a time
 * step. docs/fe_model.md, "TripleFrictionPendulumX". */
#include "fe_impl.h"
#include "hysim/linalg.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define NITER 20 /* OpenSees' Niter */

/* the segments' committed or trial state */
typedef struct tfpx_series {
    double K[4], f[2]; /* the series' tangent (per unit vertical load) and force */
    double k[3][4];    /* the three segments' tangents (k12, k34, k56) */
    double d[3][2];    /* their displacements (d1, d3, d5) */
    double ep[3][2];   /* plastic displacements */
    double q[3][2];    /* back forces */
} tfpx_series;

typedef struct fe_tfpx {
    hs_fe_tfp_x_def p;
    hs_material *mat[4]; /* vertical, torsion (z), rocking x, rocking y */
    double v1f, v3f, v5f, gap[3], E[3], H[3], pconv, vconv;
    /* committed */
    tfpx_series c;    /* its ep, q: ep1pr ... (the tmp values at the commit) */
    double dpp[3][2]; /* d at the commit before */
    double Fy_c[3], W_c;
    double u23_c[2], u23_cc[2], u23sum_c, v23sum_c, davg_c[3];
    double mu_c[3], mu_cc[3];
    /* trial */
    tfpx_series t;
    double ep_t[3][2], q_t[3][2];
    double Fy[3], W_t, Fvert, Kvert, torq[3], krot[3], D[3], Hiso;
    double u23[2], u23sum, v23[2], v23sum, vel[3][2];
    double mu[3], kp[3], kT[3], kv[3], temp[3], temp_depth[2], flux[3];
    double vel_avg[3]; /* |v| of the segments at the last update (OpenSees' Vel1Avg ...) */
    /* the heat's history: the times and fluxes of the steps, the factors of the last */
    double *time, *hf[3];
    int count, cap;
    double ftemp[3][3]; /* kp, kT, kv of each surface at the last step (kpFTemp1 ...) */
} fe_tfpx;

static double norm2(const double v[2])
{
    return sqrt(v[0] * v[0] + v[1] * v[1]);
}

static void inv2(const double a[4], double b[4])
{
    const double det = a[0] * a[3] - a[1] * a[2];
    b[0] = a[3] / det;
    b[1] = -a[1] / det;
    b[2] = -a[2] / det;
    b[3] = a[0] / det;
}

/* CircularElasticGap: no force within the gap, E (r - gap) along d beyond it */
static void gap(double k[4], double f[2], double E, double g, const double d[2])
{
    const double r = norm2(d);
    memset(k, 0, 4 * sizeof *k);
    f[0] = f[1] = 0.0;
    if (r == 0.0 || r <= g) return;
    const double sn = d[1] / r, cs = d[0] / r;
    k[0] = E * (1 - g / r * sn * sn);
    k[1] = k[2] = E * g / r * sn * cs;
    k[3] = E * (1 - g / r * cs * cs);
    f[0] = E * (r - g) * cs;
    f[1] = E * (r - g) * sn;
}

/* BidirectionalPlastic: the return map of a circular yield surface of radius Fy with kinematic
 * hardening H (Dao et al. 2013, eqs. 6.2-7 to 6.2-26) */
static void plastic(double k[4], double f[2], double ep_t[2], double q_t[2], double Fy, double E,
                    double H, const double ep[2], const double q[2], const double d[2])
{
    f[0] = E * (d[0] - ep[0]);
    f[1] = E * (d[1] - ep[1]);
    const double xsi[2] = {f[0] - q[0], f[1] - q[1]}, nx = norm2(xsi), fn = nx - Fy;
    if (fn <= 0.0) {
        k[0] = k[3] = E;
        k[1] = k[2] = 0.0;
        memcpy(ep_t, ep, 2 * sizeof *ep);
        memcpy(q_t, q, 2 * sizeof *q);
        return;
    }
    double n1 = xsi[0] / nx, n2 = xsi[1] / nx;
    const double dlam = fn / (E + H), A = E * E / (E + H), B = E * E * dlam / nx;
    const double EB = E - B, BA = B - A;
    k[0] = EB + BA * n1 * n1;
    k[3] = EB + BA * n2 * n2;
    k[1] = k[2] = BA * n1 * n2;
    n1 *= dlam;
    n2 *= dlam;
    f[0] -= E * n1;
    f[1] -= E * n2;
    ep_t[0] = ep[0] + n1;
    ep_t[1] = ep[1] + n2;
    q_t[0] = q[0] + n1 * H;
    q_t[1] = q[1] + n2 * H;
}

/* Segment: the displacement d of segment s whose force is f + df (Newton on plastic + gap);
 * 0 when it does not converge in NITER iterations */
static int segment(const fe_tfpx *x, int s, double ep_t[2], double q_t[2], double k[4], double d[2],
                   const double ep[2], const double q[2], const double f[2], const double df[2],
                   double Fy, double tol)
{
    double inv[4], dd[2], ki[4], kj[4], fi[2], fj[2];
    inv2(k, inv);
    dd[0] = inv[0] * df[0] + inv[1] * df[1];
    dd[1] = inv[2] * df[0] + inv[3] * df[1];
    memcpy(ep_t, ep, 2 * sizeof *ep);
    memcpy(q_t, q, 2 * sizeof *q);
    int iter = 1, entered = 0;
    while ((norm2(dd) > 0.0001 * tol && iter <= NITER) || !entered) {
        entered = 1;
        iter++;
        d[0] += dd[0];
        d[1] += dd[1];
        plastic(ki, fi, ep_t, q_t, Fy, x->E[s], x->H[s], ep, q, d);
        gap(kj, fj, x->E[s], x->gap[s], d);
        for (int i = 0; i < 4; i++) k[i] = ki[i] + kj[i];
        const double r[2] = {f[0] + df[0] - (fi[0] + fj[0]), f[1] + df[1] - (fi[1] + fj[1])};
        inv2(k, inv);
        dd[0] = inv[0] * r[0] + inv[1] * r[1];
        dd[1] = inv[2] * r[0] + inv[3] * r[1];
    }
    return iter <= NITER;
}

/* StiffnessForm: the series' 2 x 2 tangent from the segments' by condensing the inner nodes of
 * the 8 x 8 assembly (nodes 1, 6 outer; the two inner ones condensed) */
static void series_stiffness(double K[4], const double k12[4], const double k34[4],
                             const double k56[4])
{
    double A[8][8] = {{0}};
    const double *kk[3] = {k12, k34, k56};
    /* segment s joins the DOF pairs (a, b): k12 (0, 4), k34 (4, 6), k56 (2, 6) */
    static const int ends[3][2] = {{0, 4}, {4, 6}, {2, 6}};
    for (int s = 0; s < 3; s++)
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                const int a = ends[s][0], b = ends[s][1];
                const double v = kk[s][i * 2 + j];
                A[a + i][a + j] += v;
                A[b + i][b + j] += v;
                A[a + i][b + j] -= v;
                A[b + i][a + j] -= v;
            }
    /* ktt^-1 (the 4 x 4 block of DOFs 4..7, LAPACK), in t[.][4..7] as the product below reads it */
    double ktt[16], kinv[16], t[4][8];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) ktt[i * 4 + j] = A[4 + i][4 + j];
    if (hs_small_inverse(4, ktt, kinv)) /* singular: a tangent of NaN, as a division by 0 gave */
        for (int i = 0; i < 16; i++) kinv[i] = NAN;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) t[i][4 + j] = kinv[i * 4 + j];
    /* K = (koo - kot ktt^-1 kto) on DOFs 2, 3 (the outer node whose partner is 0, 1 fixed) */
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            double s = A[2 + i][2 + j];
            for (int a = 0; a < 4; a++)
                for (int b = 0; b < 4; b++) s -= A[4 + a][2 + i] * t[a][4 + b] * A[4 + b][2 + j];
            K[i * 2 + j] = s;
        }
}

/* TFPElement: the series under the displacement u + du from the committed state; 0 when a
 * segment does not converge */
static int series(fe_tfpx *x, const double Fy[3], const double u[2], const double dusub[2],
                  double tol)
{
    tfpx_series *t = &x->t;
    double du[2] = {dusub[0], dusub[1]}, ep_in[3][2], q_in[3][2];
    memcpy(ep_in, t->ep, sizeof ep_in);
    memcpy(q_in, t->q, sizeof q_in);
    memcpy(x->ep_t, ep_in, sizeof ep_in);
    memcpy(x->q_t, q_in, sizeof q_in);
    int iter = 1, entered = 0, conv = 1;
    while ((norm2(du) > tol && iter <= NITER && conv) || !entered) {
        entered = 1;
        iter++;
        const double df[2] = {t->K[0] * du[0] + t->K[1] * du[1], t->K[2] * du[0] + t->K[3] * du[1]};
        for (int s = 0; s < 3 && conv; s++)
            conv = segment(x, s, x->ep_t[s], x->q_t[s], t->k[s], t->d[s], ep_in[s], q_in[s], t->f,
                           df, Fy[s], tol);
        if (!conv) break;
        t->f[0] += df[0];
        t->f[1] += df[1];
        for (int i = 0; i < 2; i++)
            du[i] = u[i] + dusub[i] - (t->d[0][i] + t->d[1][i] + t->d[2][i]);
        series_stiffness(t->K, t->k[0], t->k[1], t->k[2]);
    }
    return conv && iter <= NITER;
}

/* dTdt_FINITE: the surface (z = 0) or depth (z = plate) temperature rate of a plate of finite
 * thickness over an insulated space, its image series summed until a term adds < 0.1 % */
static double dtdt_finite(double D, double k, double plate, double z, double tau)
{
    const double pi = 3.14159, s = 2 * sqrt(D * tau);
    double sum = 0.0, prev = 0.0;
    for (int n = 0; n <= 100; n++) {
        const double a = (2 * n * plate + z), b = (2 * (n + 1) * plate - z);
        sum += sqrt(D) / (k * sqrt(tau)) *
                   ((1 / sqrt(pi) * exp(-a / s * a / s) - a / s * erfc(a / s)) +
                    1 / sqrt(pi) * exp(-b / s * b / s) - (b / s) * erfc(b / s)) +
               2 * sqrt(D * tau) / k *
                   (erfc(a / s) * a / (4 * sqrt(D)) * pow(tau, -1.5) +
                    erfc(b / s) * b / (4 * sqrt(D)) * pow(tau, -1.5));
        if (!((sum - prev) / prev * 100 > 0.1)) break;
        prev = sum;
    }
    return sum;
}

/* the temperature factor kT of a surface at temperature T (kTmodel 1, 2, 3: 1/2, 1/3, 2/3 at
 * 200 degrees Celsius) */
static double kT_of(double model, double T)
{
    if (model == 2) return 0.9696 * pow(0.7, T * 0.0289) + 0.2099;
    if (model == 3) return 0.8383 * pow(0.7, T * 0.00851) + 0.2099;
    return 0.789 * (pow(0.7, T / 50.0) + 0.4);
}

static int grow(fe_tfpx *x)
{
    if (x->count < x->cap) return 0;
    const int cap = x->cap ? 2 * x->cap : 2000;
    double *t = hs_realloc(x->time, (size_t)cap * sizeof(double));
    if (!t) return HS_ENOMEM;
    x->time = t;
    for (int s = 0; s < 3; s++) {
        double *h = hs_realloc(x->hf[s], (size_t)cap * sizeof(double));
        if (!h) return HS_ENOMEM;
        x->hf[s] = h;
    }
    x->cap = cap;
    return 0;
}

/* a new time step's heat fluxes, temperatures and friction factors (OpenSees' block under
 * "trialT > DomainTime(iCountTime - 1)") */
static int heat_step(fe_tfpx *x, double t, const double P[3], const double disp[3],
                     const double vel[3], const double rc[3])
{
    const hs_fe_tfp_x_def *p = &x->p;
    int rc_ = grow(x);
    if (rc_) return rc_;
    const int n = x->count;
    x->time[n] = t;
    for (int s = 0; s < 3; s++) {
        x->hf[s][n] =
            disp[s] < rc[s] * sqrt(22.0 / (7.0 * 4.0)) ? x->mu_cc[s] * P[s] * vel[s] : 0.0;
        x->flux[s] = x->hf[s][n];
    }
    for (int s = 0; s < 3; s++) {
        double dT = 0.0, dTz = 0.0;
        if (n > 1 && disp[s] > 0.00000000001) {
            const double plate = s ? p->plate[s - 1] : 0.0;
            for (int j = 0; j <= n; j++) {
                const double Dt = x->time[n] - x->time[n - 1], tau = x->time[j];
                const double q = x->hf[s][n - j];
                if (s == 0 || p->tagT2 == 1) {
                    const double half =
                        sqrt(p->diffu * 7.0 / 22.0) * q * Dt / (p->conduct * sqrt(tau));
                    dT += half;
                    if (s) dTz += half * exp(-plate * plate / (4 * p->diffu * tau));
                } else {
                    dT += q * dtdt_finite(p->diffu, p->conduct, plate, 0, tau) * Dt;
                    dTz += q * dtdt_finite(p->diffu, p->conduct, plate, plate, tau) * Dt;
                }
            }
        }
        x->temp[s] = p->T0 + dT;
        if (s) x->temp_depth[s - 1] = p->T0 + dTz;
    }
    for (int s = 0; s < 3; s++) {
        x->kT[s] = p->kT == 1 ? kT_of(p->kT_model, x->temp[s]) : 1.0;
        x->kp[s] = p->kp == 1 ? pow(0.7, 0.02 * x->pconv * (P[s] - p->pref[s])) : 1.0;
        x->kv[s] = p->kv == 1 ? 1 - 0.50 * exp(-p->vel_rate * x->vconv * vel[s]) : 1.0;
        x->ftemp[s][0] = x->kp[s];
        x->ftemp[s][1] = x->kT[s];
        x->ftemp[s][2] = x->kv[s];
    }
    x->count = n + 1;
    return 0;
}

/* the factors and friction of the step at time t (the three time tests of update()) */
static int friction(fe_tfpx *x, double t, double Wavg, const double disp[3], const double vel[3])
{
    const hs_fe_tfp_x_def *p = &x->p;
    const double pi = 3.14159;
    double P[3], rc[3];
    for (int s = 0; s < 3; s++) {
        rc[s] = p->B[s] / 2;
        P[s] = Wavg / (pi * pow(rc[s], 2));
        if (x->count == 0)
            x->kp[s] = x->kT[s] = x->kv[s] = 1.0;
        else {
            x->kp[s] = x->ftemp[s][0];
            x->kT[s] = x->ftemp[s][1];
            x->kv[s] = x->ftemp[s][2];
        }
    }
    /* before the first step OpenSees reads DomainTime(-1), past its vector's start: the heap's
     * word there, a positive denormal; taken as the smallest one */
    double last = x->count ? x->time[x->count - 1] : DBL_TRUE_MIN;
    if (t > last) {
        const int rc_ = heat_step(x, t, P, disp, vel, rc);
        if (rc_) return rc_;
    }
    last = x->time && x->count ? x->time[x->count - 1] : DBL_TRUE_MIN;
    if (t < last) { /* the domain's time went back (loadConst -time 0): a new history */
        if (grow(x)) return HS_ENOMEM;
        x->count = 0;
        x->time[0] = t;
        x->count = 1;
        for (int s = 0; s < 3; s++) {
            x->kp[s] = x->kT[s] = x->kv[s] = 1.0;
            x->ftemp[s][0] = x->ftemp[s][1] = x->ftemp[s][2] = 1.0;
        }
    }
    if (x->count && fabs(t - x->time[x->count - 1]) < 0.00000001)
        for (int s = 0; s < 3; s++) {
            x->kp[s] = x->ftemp[s][0];
            x->kT[s] = x->ftemp[s][1];
            x->kv[s] = x->ftemp[s][2];
        }
    for (int s = 0; s < 3; s++) x->mu[s] = p->mu[s] * x->kp[s] * x->kT[s] * x->kv[s];
    return 0;
}

/* update(): the trial state at the element's DOFs' displacements ut (12: x y z rx ry rz at i,
 * then j), their committed uc and velocities vt */
static int update(hs_fe *fe, fe_element *e, fe_tfpx *x, const double ut[12], const double uc[12],
                  const double vt[12])
{
    const hs_fe_tfp_x_def *p = &x->p;
    const double t = fe->clock_t, dt = fe->clock_dt;
    const double u[2] = {uc[6] - uc[0], uc[7] - uc[1]};
    const double utrial[2] = {ut[6] - ut[0], ut[7] - ut[1]};
    double dusub[2] = {utrial[0] - u[0], utrial[1] - u[1]};
    x->D[0] = utrial[0];
    x->D[1] = utrial[1];
    x->D[2] = ut[8] - ut[2];
    const double r[3] = {ut[9] - ut[3], ut[10] - ut[4], ut[11] - ut[5]};
    const double rdot[3] = {vt[9] - vt[3], vt[10] - vt[4], vt[11] - vt[5]};
    x->Hiso = fe->nodes[e->nj].z - fe->nodes[e->ni].z;
    /* 1) the vertical force: compression carries the friction; in tension the minimum */
    hs_material *mv = x->mat[0];
    const double DzOld = hs_material_strain(mv);
    int rc = hs_material_set_trial(mv, x->D[2], vt[8] - vt[2]);
    if (rc) return rc;
    x->Fvert = hs_material_stress(mv);
    x->Kvert = hs_material_tangent(mv);
    if (x->Fvert >= 0.0) {
        x->Kvert = hs_material_initial_tangent(mv);
        if (x->Fvert > x->Kvert * DBL_EPSILON) {
            if ((rc = hs_material_set_trial(mv, DzOld, 0.0)) != 0) return rc;
            x->Kvert = p->kvt;
        }
        x->Fvert = -p->minFv;
    }
    x->W_t = -x->Fvert;
    /* 2) the horizontal series */
    const double TolOriginal = norm2(dusub) * p->tol;
    double tol = TolOriginal;
    x->t = x->c;
    memcpy(x->ep_t, x->c.ep, sizeof x->ep_t);
    memcpy(x->q_t, x->c.q, sizeof x->q_t);
    double err[2] = {dusub[0], dusub[1]};
    const double Wavg = (x->W_c + x->W_t) / 2.0;
    /* partitioning approach 1: the inner slider's displacement from the committed segments */
    const double *d1 = x->c.d[0], *d3 = x->c.d[1], *d5 = x->c.d[2];
    const double uxx = d1[0] + d3[0] + d5[0], uyy = d1[1] + d3[1] + d5[1];
    x->u23[0] = uxx - (x->v3f * d3[0] + x->v5f * d5[0]);
    x->u23[1] = uyy - (x->v3f * d3[1] + x->v5f * d5[1]);
    x->u23sum = norm2(x->u23);
    /* velocities over 2 dt; in a static step (dt 0) none (OpenSees divides by its ops_Dt = 0
     * there: 0 / 0, yet its results show no NaN after a gravity analysis) */
    const double over = dt > 0.0 ? 1.0 / (2 * dt) : 0.0;
    for (int i = 0; i < 2; i++) x->v23[i] = (x->u23[i] - x->u23_cc[i]) * over;
    x->v23sum = norm2(x->v23);
    const double disp[3] = {x->v1f * x->u23sum_c, x->v3f * x->davg_c[1], x->v5f * x->davg_c[2]};
    const double vel[3] = {x->v1f * x->v23sum_c, x->v3f * x->vel_avg[1], x->v5f * x->vel_avg[2]};
    if ((rc = friction(x, t, Wavg, disp, vel)) != 0) return rc;
    double Fy[3], dFy[3];
    for (int s = 0; s < 3; s++) {
        dFy[s] = x->mu[s] - x->Fy_c[s];
        Fy[s] = x->Fy_c[s];
    }
    int nDiv = 0, nWhile = 0;
    double uu[2] = {u[0], u[1]};
    while (nDiv < 10 && norm2(err) > TolOriginal) {
        for (int s = 0; s < 3; s++) Fy[s] += dFy[s];
        const int conv = series(x, Fy, uu, dusub, tol);
        if (!conv && nDiv < 7) {
            uu[0] = u[0];
            uu[1] = u[1];
            for (int s = 0; s < 3; s++) {
                dFy[s] /= 2.0;
                Fy[s] = x->Fy_c[s];
            }
            x->t = x->c;
            dusub[0] /= 2.0;
            dusub[1] /= 2.0;
            nDiv++;
            nWhile = 0;
        } else {
            if (nWhile >= pow(2.0, nDiv)) break;
            memcpy(x->t.ep, x->ep_t, sizeof x->t.ep);
            memcpy(x->t.q, x->q_t, sizeof x->t.q);
            uu[0] += dusub[0];
            uu[1] += dusub[1];
            err[0] = utrial[0] - uu[0];
            err[1] = utrial[1] - uu[1];
            nWhile++;
        }
        /* the segments' velocities by the three-point formula */
        for (int s = 0; s < 3; s++) {
            for (int i = 0; i < 2; i++) x->vel[s][i] = over * (x->t.d[s][i] - x->dpp[s][i]);
            x->vel_avg[s] = norm2(x->vel[s]);
        }
    }
    memcpy(x->Fy, Fy, sizeof Fy);
    (void)tol;
    /* 3) to 5) the torsion and the two rockings */
    static const int mat_of[3] = {2, 3, 1}; /* rx: rotX material, ry: rotY, rz: rotZ */
    for (int a = 0; a < 3; a++) {
        hs_material *m = x->mat[mat_of[a]];
        if ((rc = hs_material_set_trial(m, r[a], rdot[a])) != 0) return rc;
        x->torq[a] = hs_material_stress(m);
        x->krot[a] = hs_material_tangent(m);
    }
    return 0;
}

/* getResistingForce: 12 values */
static void forces(const fe_tfpx *x, double R[12])
{
    memset(R, 0, 12 * sizeof *R);
    const double fv = x->Fvert;
    R[0] = -x->t.f[0] * -fv;
    R[1] = -x->t.f[1] * -fv;
    R[6] = x->t.f[0] * -fv;
    R[7] = x->t.f[1] * -fv;
    const double Mx = -fv * x->D[1] + R[7] * x->Hiso, My = fv * x->D[0] - R[6] * x->Hiso,
                 Mz = R[6] * x->D[1] - R[7] * x->D[0];
    R[3] = R[9] = x->torq[0] + Mx / 2; /* the same sign at both ends, as OpenSees */
    R[4] = R[10] = x->torq[1] + My / 2;
    R[5] = R[11] = x->torq[2] + Mz / 2;
    R[2] = -fv;
    R[8] = fv;
}

#define K12(k, i, j) ((k)[(size_t)(j)*12 + (size_t)(i)])

/* the 12 x 12 matrix of the horizontal 2 x 2 block kh (times s) and the diagonal springs ka */
static void matrix(double *k, const double kh[4], double s, const double ka[4])
{
    memset(k, 0, 144 * sizeof *k);
    static const int a[2] = {0, 6};
    for (int m = 0; m < 2; m++)
        for (int n = 0; n < 2; n++) {
            const double sg = m == n ? 1.0 : -1.0;
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++) K12(k, a[m] + i, a[n] + j) = sg * kh[i * 2 + j] * s;
        }
    for (int d = 0; d < 4; d++) { /* z, rx, ry, rz */
        const int i = 2 + d;
        K12(k, i, i) = K12(k, i + 6, i + 6) = ka[d];
        K12(k, i, i + 6) = K12(k, i + 6, i) = -ka[d];
    }
}

static fe_tfpx *of(const fe_element *e)
{
    return (fe_tfpx *)e->ext;
}

int fe_tfpx_state(hs_fe *fe, fe_element *e, const fe_map *const maps[], const double *u,
                  const double *v, int initial, double *f, double *k, double *c)
{
    fe_tfpx *x = of(e);
    if (initial) {
        if (k) {
            const double kh[4] = {x->E[0] / 3.0, 0.0, 0.0, x->E[0] / 3.0};
            const double ka[4] = {
                hs_material_initial_tangent(x->mat[0]), hs_material_initial_tangent(x->mat[2]),
                hs_material_initial_tangent(x->mat[3]), hs_material_initial_tangent(x->mat[1])};
            matrix(k, kh, x->p.W, ka);
        }
        return 0;
    }
    double ut[12], uc[12], vt[12];
    for (int i = 0; i < 12; i++) {
        ut[i] = fe_map_value(maps[i], u);
        uc[i] = fe_map_value(maps[i], fe->u_commit);
        vt[i] = v ? fe_map_value(maps[i], v) : 0.0;
    }
    const int rc = update(fe, e, x, ut, uc, vt);
    if (rc) return hs_fail(fe->ctx, rc, "element '%s': %s", e->name, hs_ctx_message(fe->ctx));
    if (f) forces(x, f);
    if (k) {
        const double ka[4] = {x->Kvert, x->krot[0], x->krot[1], x->krot[2]};
        matrix(k, x->t.K, -x->Fvert, ka);
    }
    if (c) {
        const double none[4] = {0}, ca[4] = {
                                        hs_material_rate_tangent(x->mat[0]),
                                        hs_material_rate_tangent(x->mat[2]),
                                        hs_material_rate_tangent(x->mat[3]),
                                        hs_material_rate_tangent(x->mat[1]),
                                    };
        matrix(c, none, 0.0, ca);
    }
    return 0;
}

void fe_tfpx_commit(fe_element *e)
{
    fe_tfpx *x = of(e);
    x->W_c = x->W_t;
    memcpy(x->Fy_c, x->Fy, sizeof x->Fy);
    memcpy(x->dpp, x->c.d, sizeof x->dpp);
    x->c = x->t;
    memcpy(x->c.ep, x->ep_t, sizeof x->c.ep);
    memcpy(x->c.q, x->q_t, sizeof x->c.q);
    memcpy(x->u23_cc, x->u23_c, sizeof x->u23_cc);
    memcpy(x->u23_c, x->u23, sizeof x->u23_c);
    for (int s = 0; s < 3; s++) x->davg_c[s] = norm2(x->c.d[s]);
    x->v23sum_c = x->v23sum;
    x->u23sum_c = x->u23sum;
    memcpy(x->mu_cc, x->mu_c, sizeof x->mu_cc);
    memcpy(x->mu_c, x->mu, sizeof x->mu_c);
}

/* The checkpointed state: the committed series and histories, the last step's velocities and
 * factors (the heat history itself is not kept: a loaded state starts it afresh). */
#define TFPX_SAVED(x)                                                                              \
    {(double *)&(x)->c, sizeof(x)->c}, {(double *)(x)->dpp, sizeof(x)->dpp},                       \
        {(x)->Fy_c, sizeof(x)->Fy_c}, {&(x)->W_c, sizeof(x)->W_c}, {(x)->u23_c, sizeof(x)->u23_c}, \
        {(x)->u23_cc, sizeof(x)->u23_cc}, {&(x)->u23sum_c, sizeof(x)->u23sum_c},                   \
        {&(x)->v23sum_c, sizeof(x)->v23sum_c}, {(x)->davg_c, sizeof(x)->davg_c},                   \
        {(x)->mu_c, sizeof(x)->mu_c}, {(x)->mu_cc, sizeof(x)->mu_cc},                              \
        {(x)->vel_avg, sizeof(x)->vel_avg}, {(double *)(x)->ftemp, sizeof(x)->ftemp},              \
    {                                                                                              \
        (x)->Fy, sizeof(x)->Fy                                                                     \
    }

typedef struct saved_part {
    double *p;
    size_t bytes;
} saved_part;

size_t fe_tfpx_state_size(const fe_element *e)
{
    fe_tfpx *x = of(e);
    const saved_part parts[] = {TFPX_SAVED(x)};
    size_t n = 0;
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++)
        n += parts[k].bytes / sizeof(double);
    return n;
}

void fe_tfpx_state_save(const fe_element *e, double *out)
{
    fe_tfpx *x = of(e);
    const saved_part parts[] = {TFPX_SAVED(x)};
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
        memcpy(out, parts[k].p, parts[k].bytes);
        out += parts[k].bytes / sizeof(double);
    }
}

void fe_tfpx_state_load(fe_element *e, const double *in)
{
    fe_tfpx *x = of(e);
    const saved_part parts[] = {TFPX_SAVED(x)};
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
        memcpy(parts[k].p, in, parts[k].bytes);
        in += parts[k].bytes / sizeof(double);
    }
    x->t = x->c;
    x->count = 0; /* the heat history starts afresh */
}

int fe_tfpx_materials(const fe_element *e, hs_material **mats)
{
    const fe_tfpx *x = of(e);
    for (int i = 0; i < 4; i++) mats[i] = x->mat[i];
    return 4;
}

void fe_tfpx_free(fe_element *e)
{
    fe_tfpx *x = of(e);
    if (!x) return;
    for (int i = 0; i < 4; i++) hs_material_destroy(&x->mat[i]);
    hs_free(x->time);
    for (int s = 0; s < 3; s++) hs_free(x->hf[s]);
    hs_free(x);
    e->ext = NULL;
}

int fe_tfpx_response(const fe_element *e, hs_fe_response r, double *out)
{
    const fe_tfpx *x = of(e);
    double R[12];
    forces(x, R);
    switch (r) {
    case HS_FE_GLOBAL_FORCE:
        memcpy(out, R, sizeof R);
        return 0;
    case HS_FE_BASIC_FORCE: { /* [N Vx Vy T Mx My] (getResponse case 3) */
        const double b[6] = {R[8], R[6], R[7], R[11], R[9], R[10]};
        memcpy(out, b, sizeof b);
        return 0;
    }
    case HS_FE_DEFORMATION: {
        const double b[6] = {x->D[2], x->D[0], x->D[1], 0.0, 0.0, 0.0};
        memcpy(out, b, sizeof b);
        return 0;
    }
    case HS_FE_TFP_COMP_DISPLACEMENT: {
        const double v[12] = {x->u23[0] * x->v1f, x->t.d[1][0] * x->v3f, x->t.d[2][0] * x->v5f,
                              x->u23[1] * x->v1f, x->t.d[1][1] * x->v3f, x->t.d[2][1] * x->v5f,
                              x->v23[0] * x->v1f, x->vel[1][0] * x->v3f, x->vel[2][0] * x->v5f,
                              x->v23[1] * x->v1f, x->vel[1][1] * x->v3f, x->vel[2][1] * x->v5f};
        memcpy(out, v, sizeof v);
        return 0;
    }
    case HS_FE_TFP_PARAMETERS: {
        const double v[20] = {x->temp[0],       x->temp[1], x->temp[2], x->temp_depth[0],
                              x->temp_depth[1], x->mu[0],   x->mu[1],   x->mu[2],
                              x->flux[0],       x->flux[1], x->flux[2], x->kp[0],
                              x->kp[1],         x->kp[2],   x->kT[0],   x->kT[1],
                              x->kT[2],         x->kv[0],   x->kv[1],   x->kv[2]};
        memcpy(out, v, sizeof v);
        return 0;
    }
    default:
        return HS_EINVAL;
    }
}

int fe_tfpx_response_size(hs_fe_response r)
{
    return r == HS_FE_GLOBAL_FORCE            ? 12
           : r == HS_FE_BASIC_FORCE           ? 6
           : r == HS_FE_DEFORMATION           ? 6
           : r == HS_FE_TFP_COMP_DISPLACEMENT ? 12
           : r == HS_FE_TFP_PARAMETERS        ? 20
                                              : 0;
}

/* revertToStart: the virgin state */
static void virgin(fe_tfpx *x)
{
    const hs_fe_tfp_x_def *p = &x->p;
    for (int s = 0; s < 3; s++) {
        x->kT[s] = p->kT == 1 ? 0.789 * (pow(0.7, p->T0 / 50.0) + 0.4) : 1.0;
        x->kp[s] = p->kp == 1 ? pow(0.7, 0.02 * x->pconv * (p->pref[s] - p->pref[s])) : 1.0;
        x->kv[s] = p->kv == 1 ? 1 - 0.50 * exp(-p->vel_rate * x->vconv * 0.0) : 1.0;
        x->Fy[s] = p->mu[s] * x->kp[s] * x->kT[s] * x->kv[s];
        x->temp[s] = p->T0;
    }
    x->temp_depth[0] = x->temp_depth[1] = p->T0;
    x->W_c = x->W_t = p->W;
    const double E = 3.0 * x->Fy[0] / p->uy;
    const double Ep[3] = {1.0 / (2.0 * p->L[0]), 1.0 / (p->L[1] - p->L[0]),
                          1.0 / (p->L[2] - p->L[0])};
    for (int s = 0; s < 3; s++) {
        x->E[s] = E; /* OpenSees: all three from Fy1 */
        x->H[s] = E * Ep[s] / (E - Ep[s]);
        memset(x->c.k[s], 0, 4 * sizeof(double));
        x->c.k[s][0] = x->c.k[s][3] = E;
    }
    series_stiffness(x->c.K, x->c.k[0], x->c.k[1], x->c.k[2]);
    x->t = x->c;
}

int hs_fe_add_tfp_x(hs_fe *fe, const char *name, int ni, int nj, const hs_fe_tfp_x_def *def,
                    const char *const mat_type[4], const hs_options *const mat_opts[4])
{
    if (fe->ndm != 3 || fe->ndf != 6)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': a TripleFrictionPendulumX needs -ndm 3 -ndf 6", name);
    if (def->tagT != 1)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': tagT %d: hysim has OpenSees' partitioning approach 1 "
                       "(tagT 1) only; approach 2's regime tracking is not yet here",
                       name, def->tagT);
    const double L1 = def->L[0], L2 = def->L[1], L3 = def->L[2];
    if (!(L1 > 0.0 && L2 > L1 && L3 > L1 && def->uy > 0.0 && def->W > 0.0))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': needs 0 < L1 < L2, L3 (got %g %g %g), uy > 0 (got %g) and "
                       "W > 0 (got %g)",
                       name, L1, L2, L3, def->uy, def->W);
    if (def->kT == 1 && def->kT_model != 1 && def->kT_model != 2 && def->kT_model != 3)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': kTmodel %g: expected 1, 2 or 3 (kT = 1/2, 1/3, 2/3 at 200 "
                       "degrees Celsius)",
                       name, def->kT_model);
    if (def->unit < 1 || def->unit > 8 || def->unit != floor(def->unit))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': unit %g: expected 1 to 8 (N m, kN m, N mm, kN mm, lb in, "
                       "kip in, lb ft, kip ft)",
                       name, def->unit);
    int rc;
    fe_element *e = fe_new_element(fe, name, ni, nj, &rc);
    if (!e) return rc;
    fe_tfpx *x = hs_calloc(1, sizeof *x);
    if (!x) return HS_ENOMEM;
    e->kind = FE_TFP_X;
    e->ext = x;
    x->p = *def;
    for (int i = 0; i < 4; i++)
        if ((rc = hs_material_create(fe->ctx, mat_type[i], mat_opts[i], &x->mat[i])) != 0) {
            fe_tfpx_free(e);
            return hs_fail(fe->ctx, rc, "element '%s': %s", name, hs_ctx_message(fe->ctx));
        }
    /* the pressure unit to MPa, the velocity unit to m/s (OpenSees' constructor) */
    static const double PCONV[8] = {0.000001, 0.001, 1.0,        1000.0,
                                    0.006894, 6.894, 0.00004788, 0.04788};
    static const double VCONV[8] = {1.0, 1.0, 0.001, 0.001, 0.0254, 0.0254, 0.3048, 0.3048};
    x->pconv = PCONV[(int)def->unit - 1];
    x->vconv = VCONV[(int)def->unit - 1];
    x->v1f = 0.5;
    x->v3f = L2 / (L2 - L1);
    x->v5f = L3 / (L3 - L1);
    const double *ub = def->ubar;
    x->gap[0] =
        2 * ub[0] + ub[1] + ub[2] + def->B[0] / 2 - ub[1] * (1 - L1 / L2) - ub[2] * (1 - L1 / L3);
    x->gap[1] = ub[1] * (1 - L1 / L2);
    x->gap[2] = ub[2] * (1 - L1 / L3);
    virgin(x);
    const fe_node *a = &fe->nodes[e->ni], *b = &fe->nodes[e->nj];
    const double L = sqrt((b->x - a->x) * (b->x - a->x) + (b->y - a->y) * (b->y - a->y) +
                          (b->z - a->z) * (b->z - a->z));
    e->L = L;
    return fe->nels++;
}
