/* The corotational transformation of the 3-D elastic beam-column (Crisfield 1990, "A consistent
 * co-rotational formulation for non-linear, three-dimensional, beam-elements", CMAME 81; Crisfield
 * 1997, Non-linear Finite Element Analysis of Solids and Structures, vol. 2, ch. 17).
 *
 * Rotations. The model's rotation DOFs of a node, psi = (rx, ry, rz), are read as the node's
 * total rotation vector: its triad is exp(psi) (Rodrigues) times the initial one. The integrators
 * add increments to psi, so an increment is added to the rotation vector instead of being
 * composed with the rotation (OpenSees' CorotCrdTransf3d composes each step's increment with the
 * committed rotation by quaternions). The two agree exactly when the axis does not change (plane
 * motion) and differ at second order in the rotation otherwise; the rigid-body motion is exact
 * either way (a node turned by psi about any axis, |psi| < pi, is exactly that rotation). The
 * nodal moments are the forces conjugate to psi (f = dU / dd), so the tangent is symmetric.
 *
 * Kinematics. The element frame E = [e1 e2 e3]: e1 along the current chord, e3 = e1 x p / |.|,
 * e2 = e3 x e1, p the mean of the two nodes' current y axes; in a rigid-body motion Q it is Q
 * times the initial frame, so the basic deformations vanish. The local rotation of node a is R_a =
 * E^T exp(psi_a) E0, measured by its rotation vector theta n, computed from the tangent-scaled
 * pseudo-vector 2 tan(theta / 2) n = 2 axial(R - R^T) / (1 + tr R) (OpenSees'
 * getTangScaledPseudoVectorFromQuaternion: 2 q / q0), smooth at theta = 0. Basic deformations ub =
 * [Ln - L, theta_z,i, theta_z,j, theta_y,i, theta_y,j, theta_x,j - theta_x,i], forces q = kb ub
 * (the linear element's kb, fe_beam3d.c) with q_0 -= P0.
 *
 * Derivatives. f = B^T q and K = B^T kb B + sum_r q_r d2 ub_r / dd2 with B = d ub / dd, both
 * exact: ub is evaluated in hyper-dual numbers (Fike & Alonso 2011), which carry the first and the
 * mixed second derivative along two chosen directions without truncation error. */
#include "fe_impl.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* a + b e1 + c e2 + d e1 e2, e1^2 = e2^2 = 0: f(x) = f(a) + f'(a) (b e1 + c e2) + (f'(a) d +
 * f''(a) b c) e1 e2. */
typedef struct hd {
    double a, b, c, d;
} hd;

static hd hd_const(double a)
{
    return (hd){a, 0.0, 0.0, 0.0};
}
static hd hd_add(hd x, hd y)
{
    return (hd){x.a + y.a, x.b + y.b, x.c + y.c, x.d + y.d};
}
static hd hd_sub(hd x, hd y)
{
    return (hd){x.a - y.a, x.b - y.b, x.c - y.c, x.d - y.d};
}
static hd hd_scale(hd x, double s)
{
    return (hd){s * x.a, s * x.b, s * x.c, s * x.d};
}
static hd hd_mul(hd x, hd y)
{
    return (hd){x.a * y.a, x.a * y.b + x.b * y.a, x.a * y.c + x.c * y.a,
                x.a * y.d + x.b * y.c + x.c * y.b + x.d * y.a};
}
static hd hd_fn(hd x, double f, double f1, double f2)
{
    return (hd){f, f1 * x.b, f1 * x.c, f1 * x.d + f2 * x.b * x.c};
}
static hd hd_inv(hd x)
{
    return hd_fn(x, 1.0 / x.a, -1.0 / (x.a * x.a), 2.0 / (x.a * x.a * x.a));
}
static hd hd_div(hd x, hd y)
{
    return hd_mul(x, hd_inv(y));
}
static hd hd_sqrt(hd x)
{
    const double r = sqrt(x.a);
    return hd_fn(x, r, 0.5 / r, -0.25 / (r * x.a));
}
static hd hd_sin(hd x)
{
    return hd_fn(x, sin(x.a), cos(x.a), -sin(x.a));
}
static hd hd_cos(hd x)
{
    return hd_fn(x, cos(x.a), -sin(x.a), -cos(x.a));
}

static hd dot3(const hd a[3], const hd b[3])
{
    return hd_add(hd_add(hd_mul(a[0], b[0]), hd_mul(a[1], b[1])), hd_mul(a[2], b[2]));
}

static void cross3(const hd a[3], const hd b[3], hd c[3])
{
    c[0] = hd_sub(hd_mul(a[1], b[2]), hd_mul(a[2], b[1]));
    c[1] = hd_sub(hd_mul(a[2], b[0]), hd_mul(a[0], b[2]));
    c[2] = hd_sub(hd_mul(a[0], b[1]), hd_mul(a[1], b[0]));
}

static void unit3(hd v[3])
{
    const hd s = hd_inv(hd_sqrt(dot3(v, v)));
    for (int r = 0; r < 3; r++) v[r] = hd_mul(v[r], s);
}

/* Horner: c[0] + c[1] t + ... */
static hd poly(hd t, const double *c, int n)
{
    hd s = hd_const(c[n - 1]);
    for (int i = n - 2; i >= 0; i--) s = hd_add(hd_mul(s, t), hd_const(c[i]));
    return s;
}

/* exp(psi) = I + a S + b S^2 = (1 - b t) I + a S + b psi psi^T, t = psi . psi, a = sin th / th,
 * b = (1 - cos th) / th^2; series in t below t = 1e-2 (truncation below 1e-21), so that the
 * derivatives at psi = 0 are right. R[3 r + c]: row r, column c. */
static void rotation(const hd psi[3], hd R[9])
{
    static const double ca[6] = {1.0,         -1.0 / 6.0,     1.0 / 120.0,
                                 -1.0 / 5040, 1.0 / 362880.0, -1.0 / 39916800.0};
    static const double cb[6] = {0.5,           -1.0 / 24.0,     1.0 / 720.0,
                                 -1.0 / 40320., 1.0 / 3628800.0, -1.0 / 479001600.0};
    const hd t = dot3(psi, psi);
    hd a, b;
    if (t.a < 1e-2) {
        a = poly(t, ca, 6);
        b = poly(t, cb, 6);
    } else {
        const hd th = hd_sqrt(t);
        a = hd_div(hd_sin(th), th);
        b = hd_div(hd_sub(hd_const(1.0), hd_cos(th)), t);
    }
    const hd diag = hd_sub(hd_const(1.0), hd_mul(b, t));
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) R[3 * r + c] = hd_mul(b, hd_mul(psi[r], psi[c]));
    for (int r = 0; r < 3; r++) R[4 * r] = hd_add(R[4 * r], diag);
    const hd as[3] = {hd_mul(a, psi[0]), hd_mul(a, psi[1]), hd_mul(a, psi[2])};
    R[1] = hd_sub(R[1], as[2]), R[3] = hd_add(R[3], as[2]); /* S = [0 -z y; z 0 -x; -y x 0] */
    R[2] = hd_add(R[2], as[1]), R[6] = hd_sub(R[6], as[1]);
    R[5] = hd_sub(R[5], as[0]), R[7] = hd_add(R[7], as[0]);
}

/* The node's current triad t[n] = exp(psi) E0_n (E0_n: the initial local axis n, row n of e->R). */
static void triad(const fe_element *e, const hd psi[3], hd t[3][3])
{
    hd R[9];
    rotation(psi, R);
    for (int n = 0; n < 3; n++)
        for (int r = 0; r < 3; r++)
            t[n][r] = hd_add(
                hd_add(hd_scale(R[3 * r], e->R[3 * n]), hd_scale(R[3 * r + 1], e->R[3 * n + 1])),
                hd_scale(R[3 * r + 2], e->R[3 * n + 2]));
}

/* The rotation vector of the local rotation E^T t (entries e_m . t_n), from its tangent-scaled
 * pseudo-vector 2 tan(theta / 2) n = 2 axial(R - R^T) / (1 + tr R). */
static void local_rotation(hd E[3][3], hd t[3][3], hd th[3])
{
    hd Rl[3][3];
    for (int m = 0; m < 3; m++)
        for (int n = 0; n < 3; n++) Rl[m][n] = dot3(E[m], t[n]);
    const hd s =
        hd_div(hd_const(2.0), hd_add(hd_const(1.0), hd_add(hd_add(Rl[0][0], Rl[1][1]), Rl[2][2])));
    hd tv[3] = {hd_mul(s, hd_sub(Rl[2][1], Rl[1][2])), hd_mul(s, hd_sub(Rl[0][2], Rl[2][0])),
                hd_mul(s, hd_sub(Rl[1][0], Rl[0][1]))};
    /* the rotation vector theta n = tv g(|tv|^2), g(x) = 2 atan(sqrt(x) / 2) / sqrt(x); series
     * below x = 1e-2 (truncation below 1e-17) */
    static const double cg[7] = {1.0,          -1.0 / 12.0,  1.0 / 80.0,   -1.0 / 448.0,
                                 1.0 / 2304.0, -1.0 / 11264, 1.0 / 53248.0};
    const hd x = dot3(tv, tv);
    hd g;
    if (x.a < 1e-2) {
        g = poly(x, cg, 7);
    } else {
        const hd r = hd_sqrt(x), h = hd_scale(r, 0.5);
        g = hd_div(hd_scale(hd_fn(h, atan(h.a), 1.0 / (1.0 + h.a * h.a),
                                  -2.0 * h.a / ((1.0 + h.a * h.a) * (1.0 + h.a * h.a))),
                            2.0),
                   r);
    }
    for (int r = 0; r < 3; r++) th[r] = hd_mul(tv[r], g);
}

/* ub depends on the displacements through nine variables only, w = [u_j - u_i, psi_i, psi_j]:
 * the variable of element DOF m and its sign. */
static int var_of(int m)
{
    return m < 3 ? m : m < 6 ? m : m < 9 ? m - 6 : m - 3;
}
static double sign_of(int m)
{
    return m < 3 ? -1.0 : 1.0;
}

/* ub at w with derivative directions a (e1) and b (e2) among the nine; -1: none. */
static void basic(const fe_element *e, const double w[9], int a, int b, hd ub[6])
{
    hd d[9];
    for (int m = 0; m < 9; m++) d[m] = (hd){w[m], m == a ? 1.0 : 0.0, m == b ? 1.0 : 0.0, 0.0};
    hd E[3][3], ti[3][3], tj[3][3], p[3], thi[3], thj[3];
    hd *du = d, x0[3];
    for (int r = 0; r < 3; r++) {
        x0[r] = hd_const(e->R[r]);
        E[0][r] = hd_add(hd_const(e->L * e->R[r]), du[r]);
    }
    const hd Ln = hd_sqrt(dot3(E[0], E[0]));
    /* Ln - L = (2 L x0 . du + du . du) / (Ln + L): no cancellation for small du */
    const hd elong = hd_div(hd_add(hd_scale(dot3(x0, du), 2.0 * e->L), dot3(du, du)),
                            hd_add(Ln, hd_const(e->L)));
    unit3(E[0]);
    triad(e, &d[3], ti);
    triad(e, &d[6], tj);
    for (int r = 0; r < 3; r++) p[r] = hd_add(ti[1][r], tj[1][r]);
    cross3(E[0], p, E[2]);
    unit3(E[2]);
    cross3(E[2], E[0], E[1]);
    local_rotation(E, ti, thi);
    local_rotation(E, tj, thj);
    ub[0] = elong;
    ub[1] = thi[2], ub[2] = thj[2];
    ub[3] = thi[1], ub[4] = thj[1];
    ub[5] = hd_sub(thj[0], thi[0]);
}

/* The elastic beam's law: q = kb ub, q_0 -= P0. */
static int elastic_law(void *arg, const double ub[6], double q[6], double kb[36])
{
    const fe_element *e = arg;
    fe3d_elastic_basic_stiffness(e, (double(*)[6])kb);
    for (int r = 0; r < 6; r++) {
        q[r] = 0.0;
        for (int s = 0; s < 6; s++) q[r] += kb[6 * r + s] * ub[s];
    }
    q[0] -= e->P0;
    return 0;
}

void fe3d_corot_state(const fe_element *e, const double ug[12], double f[12], double k[144])
{
    fe3d_corot_state_law(e, ug, elastic_law, (void *)(uintptr_t)e, f, k);
}

int fe3d_corot_state_law(const fe_element *e, const double ug[12], fe3d_basic_law law, void *arg,
                         double *f, double *k)
{
    double w[9], kb[36], Bw[6][9], Hw[6][9][9], q[6], ub0[6];
    hd ub[6];
    for (int r = 0; r < 3; r++)
        w[r] = ug[6 + r] - ug[r], w[3 + r] = ug[3 + r], w[6 + r] = ug[9 + r];
    for (int b = 0; b < 9; b++) { /* pass (0, b): B's column b and the Hessians' row 0 */
        basic(e, w, k ? 0 : -1, b, ub);
        for (int r = 0; r < 6; r++) Bw[r][b] = ub[r].c, Hw[r][0][b] = Hw[r][b][0] = ub[r].d;
    }
    for (int r = 0; r < 6; r++) ub0[r] = ub[r].a;
    const int rc = law(arg, ub0, q, kb);
    if (rc) return rc;
    for (int i = 0; f && i < 12; i++) {
        f[i] = 0.0;
        for (int r = 0; r < 6; r++) f[i] += sign_of(i) * Bw[r][var_of(i)] * q[r];
    }
    if (!k) return 0;
    for (int a = 1; a < 9; a++)
        for (int b = a; b < 9; b++) {
            basic(e, w, a, b, ub);
            for (int r = 0; r < 6; r++) Hw[r][a][b] = Hw[r][b][a] = ub[r].d;
        }
    double kw[9][9]; /* d2 U / dw2 */
    for (int a = 0; a < 9; a++)
        for (int b = a; b < 9; b++) {
            double v = 0.0;
            for (int r = 0; r < 6; r++) {
                v += q[r] * Hw[r][a][b];
                for (int s = 0; s < 6; s++) v += Bw[r][a] * kb[6 * r + s] * Bw[s][b];
            }
            kw[a][b] = kw[b][a] = v;
        }
    for (int j = 0; j < 12; j++)
        for (int i = 0; i < 12; i++)
            k[(size_t)j * 12 + (size_t)i] = sign_of(i) * sign_of(j) * kw[var_of(i)][var_of(j)];
    return 0;
}
