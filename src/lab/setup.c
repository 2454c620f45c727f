/* Experimental setups as rigid platforms on pinned actuators (include/hysim/setup.h,
 * docs/setups.md): inverse kinematics in closed form, forward kinematics by Gauss-Newton with
 * LAPACK's least squares (dgels, workspace sized once), the control point's force and moment
 * resultant. Nothing allocates after hs_setup_create. */
#include "hysim/setup.h"

#include <lapacke.h>
#include <math.h>
#include <string.h>

struct hs_setup {
    hs_setup_geometry g;
    double len[HS_SETUP_MAX_ACT];   /* actuator lengths at rest, |p_i - b_i| */
    double size;                    /* the platform's size: the largest pin distance */
    double A[HS_SETUP_MAX_ACT * 6]; /* scratch matrix for dgels, column-major */
    double rhs[HS_SETUP_MAX_ACT];   /* scratch right-hand side */
    double *work;                   /* dgels workspace */
    lapack_int lwork;
};

typedef double mat3[3][3];

static void mat3_mul(mat3 a, mat3 b, mat3 c)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            c[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
}

/* The rotation about fixed axis `axis` (0 x, 1 y, 2 z) by angle a, or its derivative (deriv). */
static void axis_rotation(int axis, double a, int deriv, mat3 r)
{
    const double c = cos(a), s = sin(a);
    const int i = (axis + 1) % 3, j = (axis + 2) % 3;
    memset(r, 0, sizeof(mat3));
    r[axis][axis] = deriv ? 0.0 : 1.0;
    r[i][i] = deriv ? -s : c;
    r[j][j] = deriv ? -s : c;
    r[i][j] = deriv ? -c : -s;
    r[j][i] = deriv ? c : s;
}

/* The full pose (6) of control DOFs q. */
static void full_pose(const hs_setup *s, const double *q, double pose[6])
{
    memset(pose, 0, 6 * sizeof(double));
    for (int k = 0; k < s->g.ndof; k++) pose[s->g.dof[k]] = q[k];
}

/* R = Rz Ry Rx, or its derivative with respect to rotation `d` (0 rx, 1 ry, 2 rz; -1 none). */
static void rotation(const double pose[6], int d, mat3 r)
{
    mat3 rx, ry, rz, t;
    axis_rotation(0, pose[HS_POSE_RX], d == 0, rx);
    axis_rotation(1, pose[HS_POSE_RY], d == 1, ry);
    axis_rotation(2, pose[HS_POSE_RZ], d == 2, rz);
    mat3_mul(ry, rx, t);
    mat3_mul(rz, t, r);
}

/* The rotation vector's R = exp([r]x) = I + a K + b K^2 (Rodrigues; K = [r]x, a = sin t / t,
 * b = (1 - cos t) / t^2, t = |r|), and the left Jacobian Jl = I + b K + c K^2 (c = (t - sin t)
 * / t^3: exp([r + e]x) = exp([Jl e]x) exp([r]x) to first order in e), series below t = 1e-4. */
static void rotation_vector(const double pose[6], mat3 R, mat3 Jl)
{
    const double r[3] = {pose[HS_POSE_RX], pose[HS_POSE_RY], pose[HS_POSE_RZ]};
    const double t2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2], t = sqrt(t2);
    double a, b, c;
    if (t < 1e-4) {
        a = 1.0 - t2 / 6.0 + t2 * t2 / 120.0;
        b = 0.5 - t2 / 24.0 + t2 * t2 / 720.0;
        c = 1.0 / 6.0 - t2 / 120.0 + t2 * t2 / 5040.0;
    } else {
        a = sin(t) / t;
        b = (1.0 - cos(t)) / t2;
        c = (t - sin(t)) / (t2 * t);
    }
    mat3 K = {{0.0, -r[2], r[1]}, {r[2], 0.0, -r[0]}, {-r[1], r[0], 0.0}}, K2;
    mat3_mul(K, K, K2);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            const double id = i == j ? 1.0 : 0.0;
            R[i][j] = id + a * K[i][j] + b * K2[i][j];
            if (Jl) Jl[i][j] = id + b * K[i][j] + c * K2[i][j];
        }
}

/* The platform's rotation at pose (g.rot_vector: the rotation vector's, else Rz Ry Rx). */
static void platform_rotation(const hs_setup *s, const double pose[6], mat3 r)
{
    if (s->g.rot_vector)
        rotation_vector(pose, r, NULL);
    else
        rotation(pose, -1, r);
}

static void mat3_apply(mat3 r, const double v[3], double out[3])
{
    for (int i = 0; i < 3; i++) out[i] = r[i][0] * v[0] + r[i][1] * v[1] + r[i][2] * v[2];
}

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static double norm3(const double v[3])
{
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

/* Actuator i at pose: its arm r = R p_i (control point to platform pin) and unit axis n (base
 * to pin). Linearised setups keep the rest geometry. Returns the current length. */
static double actuator_axis(const hs_setup *s, int i, const double pose[6], double r[3],
                            double n[3])
{
    const double *p = s->g.pin[i], *b = s->g.base[i];
    double v[3];
    if (s->g.nl_geom) {
        mat3 rot;
        platform_rotation(s, pose, rot);
        mat3_apply(rot, p, r);
        for (int j = 0; j < 3; j++) v[j] = pose[j] + r[j] - b[j];
    } else {
        memcpy(r, p, sizeof(double) * 3);
        for (int j = 0; j < 3; j++) v[j] = p[j] - b[j];
    }
    const double l = norm3(v);
    for (int j = 0; j < 3; j++) n[j] = v[j] / l;
    return l;
}

int hs_setup_nact(const hs_setup *s)
{
    return s->g.nact;
}
int hs_setup_ndof(const hs_setup *s)
{
    return s->g.ndof;
}
const hs_setup_geometry *hs_setup_geometry_of(const hs_setup *s)
{
    return &s->g;
}

/* The rate of actuator i's platform pin t + R p_i with pose DOF d (its arm r = R p_i), into dp. */
static void pin_rate(const hs_setup *s, int i, const double pose[6], const double r[3], int d,
                     double dp[3])
{
    dp[0] = dp[1] = dp[2] = 0.0;
    if (d < 3) {
        dp[d] = 1.0;
    } else if (s->g.nl_geom && s->g.rot_vector) { /* d(R p)/dr_k = (Jl e_k) x (R p) */
        mat3 R, Jl;
        rotation_vector(pose, R, Jl);
        const double col[3] = {Jl[0][d - 3], Jl[1][d - 3], Jl[2][d - 3]};
        cross(col, r, dp);
    } else if (s->g.nl_geom) { /* d(R p)/d(angle) */
        mat3 dr;
        rotation(pose, d - 3, dr);
        mat3_apply(dr, s->g.pin[i], dp);
    } else { /* e_axis x p */
        const double e[3] = {d == 3, d == 4, d == 5};
        cross(e, s->g.pin[i], dp);
    }
}

void hs_setup_jacobian(const hs_setup *s, const double *q, double *J)
{
    double pose[6], r[3], n[3], dp[3];
    full_pose(s, q, pose);
    for (int i = 0; i < s->g.nact; i++) {
        actuator_axis(s, i, pose, r, n);
        for (int k = 0; k < s->g.ndof; k++) {
            pin_rate(s, i, pose, r, s->g.dof[k], dp);
            J[i * s->g.ndof + k] = n[0] * dp[0] + n[1] * dp[1] + n[2] * dp[2];
        }
    }
}

void hs_setup_force_derivative(const hs_setup *s, const double *q, const double *f, double *G)
{
    const int nd = s->g.ndof;
    double pose[6], r[3], n[3];
    full_pose(s, q, pose);
    memset(G, 0, sizeof(double) * (size_t)(nd * nd));
    if (!s->g.nl_geom) return; /* the rest geometry's resultant is linear in f */
    for (int i = 0; i < s->g.nact; i++) {
        const double l = actuator_axis(s, i, pose, r, n);
        for (int b = 0; b < nd; b++) {
            double dv[3], dn[3], dr[3] = {0, 0, 0}, m1[3], m2[3];
            pin_rate(s, i, pose, r, s->g.dof[b], dv);
            const double along = n[0] * dv[0] + n[1] * dv[1] + n[2] * dv[2];
            for (int j = 0; j < 3; j++) dn[j] = (dv[j] - along * n[j]) / l; /* the axis turns */
            if (s->g.dof[b] >= 3) memcpy(dr, dv, sizeof dr);                /* the arm turns */
            cross(dr, n, m1);
            cross(r, dn, m2);
            for (int a = 0; a < nd; a++) {
                const int d = s->g.dof[a];
                G[b * nd + a] += f[i] * (d < 3 ? dn[d] : m1[d - 3] + m2[d - 3]);
            }
        }
    }
}

void hs_setup_strokes(const hs_setup *s, const double *q, double *x)
{
    if (!s->g.nl_geom) { /* x = J0 q */
        double J[HS_SETUP_MAX_ACT * 6];
        hs_setup_jacobian(s, q, J);
        for (int i = 0; i < s->g.nact; i++) {
            x[i] = 0.0;
            for (int k = 0; k < s->g.ndof; k++) x[i] += J[i * s->g.ndof + k] * q[k];
        }
        return;
    }
    double pose[6], r[3], n[3];
    full_pose(s, q, pose);
    for (int i = 0; i < s->g.nact; i++) x[i] = actuator_axis(s, i, pose, r, n) - s->len[i];
}

/* Least squares (or minimum norm) solve of the m x k column-major s->A against s->rhs (length
 * max(m, k)); the solution in s->rhs[0..k). */
static int least_squares(hs_setup *s, int m, int k)
{
    const lapack_int mm = m, kk = k, ld = HS_SETUP_MAX_ACT;
    lapack_int info = LAPACKE_dgels_work(LAPACK_COL_MAJOR, 'N', mm, kk, 1, s->A, ld, s->rhs, ld,
                                         s->work, s->lwork);
    return info == 0 ? 0 : HS_ESINGULAR;
}

int hs_setup_pose(const hs_setup *s_const, const double *x, double *q)
{
    hs_setup *s = (hs_setup *)s_const; /* scratch only */
    const int m = s->g.nact, k = s->g.ndof;
    double qn[6], J[HS_SETUP_MAX_ACT * 6], xq[HS_SETUP_MAX_ACT];
    memcpy(qn, q, sizeof(double) * (size_t)k);
    for (int it = 0; it < 30; it++) {
        hs_setup_jacobian(s, qn, J);
        hs_setup_strokes(s, qn, xq);
        for (int i = 0; i < m; i++) {
            s->rhs[i] = x[i] - xq[i];
            for (int c = 0; c < k; c++) s->A[c * HS_SETUP_MAX_ACT + i] = J[i * k + c];
        }
        if (least_squares(s, m, k)) return HS_ECONVERGE;
        double change = 0.0;
        for (int c = 0; c < k; c++) {
            qn[c] += s->rhs[c];
            const double scale =
                s->g.dof[c] < 3 ? 1.0 : s->size; /* a rotation moves pins by size */
            change = fmax(change, fabs(s->rhs[c]) * scale);
        }
        if (change <= 1e-14 * s->size || !s->g.nl_geom) {
            memcpy(q, qn, sizeof(double) * (size_t)k);
            return 0;
        }
    }
    return HS_ECONVERGE;
}

/* The resultant matrix at q: column i holds actuator i's unit force's components along the
 * control DOFs (force along n_i; moment r_i x n_i about the control point). */
static void resultant_matrix(const hs_setup *s, const double *q, double *Ares, int ld)
{
    double pose[6], r[3], n[3], m[3];
    full_pose(s, q, pose);
    for (int i = 0; i < s->g.nact; i++) {
        actuator_axis(s, i, pose, r, n);
        cross(r, n, m);
        for (int k = 0; k < s->g.ndof; k++) {
            const int d = s->g.dof[k];
            Ares[i * ld + k] = d < 3 ? n[d] : m[d - 3];
        }
    }
}

void hs_setup_forces(const hs_setup *s, const double *q, const double *f, double *p)
{
    double Ares[HS_SETUP_MAX_ACT * 6];
    resultant_matrix(s, q, Ares, 6);
    for (int k = 0; k < s->g.ndof; k++) {
        p[k] = 0.0;
        for (int i = 0; i < s->g.nact; i++) p[k] += Ares[i * 6 + k] * f[i];
    }
}

int hs_setup_actuator_forces(const hs_setup *s_const, const double *q, const double *p, double *f)
{
    hs_setup *s = (hs_setup *)s_const; /* scratch only */
    const int m = s->g.ndof, k = s->g.nact;
    resultant_matrix(s, q, s->A, HS_SETUP_MAX_ACT); /* ndof x nact, column i at A + i * ld */
    memset(s->rhs, 0, sizeof s->rhs);
    memcpy(s->rhs, p, sizeof(double) * (size_t)m);
    if (least_squares(s, m, k)) return HS_ECONVERGE;
    memcpy(f, s->rhs, sizeof(double) * (size_t)k);
    return 0;
}

static const char *const pose_names[6] = {"ux", "uy", "uz", "rx", "ry", "rz"};

int hs_setup_create(hs_ctx *ctx, const hs_setup_geometry *g, hs_setup **out)
{
    *out = NULL;
    if (g->nact < 1 || g->nact > HS_SETUP_MAX_ACT)
        return hs_fail(ctx, HS_EINPUT, "setup: %d actuators; a setup has 1 to %d", g->nact,
                       HS_SETUP_MAX_ACT);
    if (g->ndof < 1 || g->ndof > 6 || g->ndof > g->nact)
        return hs_fail(ctx, HS_EINPUT,
                       "setup: %d control DOFs for %d actuators; a setup controls 1 to 6 DOFs "
                       "and at most one per actuator",
                       g->ndof, g->nact);
    for (int k = 0; k < g->ndof; k++) {
        if (g->dof[k] < 0 || g->dof[k] > 5)
            return hs_fail(ctx, HS_EINPUT, "setup: control DOF %d is %d; expected 0..5 (ux .. rz)",
                           k + 1, g->dof[k]);
        for (int j = 0; j < k; j++)
            if (g->dof[j] == g->dof[k])
                return hs_fail(ctx, HS_EINPUT, "setup: control DOF %s is listed twice",
                               pose_names[g->dof[k]]);
    }
    hs_setup *s = hs_calloc(1, sizeof *s);
    if (!s) return HS_ENOMEM;
    s->g = *g;
    for (int i = 0; i < g->nact; i++) {
        double v[3];
        for (int j = 0; j < 3; j++) v[j] = g->pin[i][j] - g->base[i][j];
        s->len[i] = norm3(v);
        s->size = fmax(s->size, norm3(g->pin[i]));
        if (!(s->len[i] > 0.0) || !isfinite(s->len[i])) {
            hs_free(s);
            return hs_fail(ctx, HS_EINPUT,
                           "setup: actuator %d has its base and platform pins at the same point "
                           "(or a non-finite one); give it its length",
                           i + 1);
        }
    }
    if (!(s->size > 0.0)) s->size = 1.0;
    for (int i = 0; i < g->nact; i++) s->size = fmax(s->size, 1e-3 * s->len[i]);
    /* The workspace for both shapes dgels sees: tall (poses) and wide (actuator forces). */
    double query[2] = {1024.0, 1024.0};
    lapack_int info = LAPACKE_dgels_work(LAPACK_COL_MAJOR, 'N', HS_SETUP_MAX_ACT, 6, 1, s->A,
                                         HS_SETUP_MAX_ACT, s->rhs, HS_SETUP_MAX_ACT, &query[0], -1);
    if (info == 0)
        info = LAPACKE_dgels_work(LAPACK_COL_MAJOR, 'N', 6, HS_SETUP_MAX_ACT, 1, s->A,
                                  HS_SETUP_MAX_ACT, s->rhs, HS_SETUP_MAX_ACT, &query[1], -1);
    s->lwork = (lapack_int)fmax(fmax(query[0], query[1]), 1024.0);
    if (!(s->work = hs_dvec((size_t)s->lwork))) {
        hs_free(s);
        return HS_ENOMEM;
    }
    /* Full column rank at rest: every control DOF moves some actuator independently. */
    double J[HS_SETUP_MAX_ACT * 6], sv[6], q0[6] = {0};
    hs_setup_jacobian(s, q0, J);
    double Jc[HS_SETUP_MAX_ACT * 6], u[1], vt[1], superb[6];
    for (int i = 0; i < g->nact; i++)
        for (int k = 0; k < g->ndof; k++) Jc[k * g->nact + i] = J[i * g->ndof + k];
    info = LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', g->nact, g->ndof, Jc, g->nact, sv, u, 1, vt,
                          1, superb);
    if (info != 0 || !(sv[g->ndof - 1] > 1e-10 * sv[0])) {
        hs_setup_destroy(&s);
        return hs_fail(ctx, HS_EINPUT,
                       "setup: the actuators do not fix every control DOF at rest (the "
                       "Jacobian's smallest singular value is %.3g of its largest): move a pin or "
                       "control fewer DOFs",
                       info == 0 ? sv[g->ndof - 1] / sv[0] : 0.0);
    }
    *out = s;
    return 0;
}

void hs_setup_destroy(hs_setup **s)
{
    if (!s || !*s) return;
    hs_free((*s)->work);
    hs_free(*s);
    *s = NULL;
}
