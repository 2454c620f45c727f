/* The 3-D line elements: truss (E A / L along the chord; linear, P-Delta or corotational) and the
 * elastic beam-column of OpenSees' elasticBeamColumn 3-D (E, G, A, J, Iy, Iz) with the linear or
 * P-Delta transformation of OpenSees' LinearCrdTransf3d / PDeltaCrdTransf3d: local x along the
 * chord from i to j, local y = vecxz x x, local z = x x y. DOF order [ux uy uz rx ry rz]_i,j.
 *
 * The beam works in its basic system: deformations ub = B ul (axial elongation; the end rotations
 * about local z, th_z - (v_j - v_i) / L; the end rotations about local y, th_y + (w_j - w_i) / L;
 * the twist) and forces q = kb ub with kb = [EA/L; EIz/L (4 2; 2 4); EIy/L (4 2; 2 4); GJ/L], so
 * f_l = B^T q and k_l = B^T kb B; P-Delta adds N / L on the transverse translations (v and w),
 * N = EA/L (u_j - u_i) - axial_compression, as the 2-D element (fe_elements.c). */
#include "fe_impl.h"

#include <math.h>
#include <string.h>

#define K12(k, i, j) ((k)[(size_t)(j)*12 + (size_t)(i)])

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

int fe3d_axes(const double x[3], const double vecxz[3], double R[9])
{
    double *y = &R[3], *z = &R[6];
    for (int k = 0; k < 3; k++) R[k] = x[k];
    cross(vecxz, x, y);
    const double ny = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]),
                 nv = sqrt(vecxz[0] * vecxz[0] + vecxz[1] * vecxz[1] + vecxz[2] * vecxz[2]);
    if (!(ny > 1e-12 * nv)) return HS_EINPUT;
    for (int k = 0; k < 3; k++) y[k] /= ny;
    cross(x, y, z);
    return 0;
}

int fe3d_line_init(hs_fe *fe, fe_element *e, const double vecxz[3])
{
    const fe_node *a = &fe->nodes[e->ni], *b = &fe->nodes[e->nj];
    const double x[3] = {(b->x - a->x) / e->L, (b->y - a->y) / e->L, (b->z - a->z) / e->L};
    for (int k = 0; k < 3; k++) e->R[k] = x[k];
    if (e->kind != FE_BEAM) return 0; /* a truss needs its axis only */
    if (fe3d_axes(x, vecxz, e->R)) {
        const double nv = sqrt(vecxz[0] * vecxz[0] + vecxz[1] * vecxz[1] + vecxz[2] * vecxz[2]);
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': vecxz (%g, %g, %g) is %s the element's axis; give a vector "
                       "in the local x-z plane, not along x",
                       e->name, vecxz[0], vecxz[1], vecxz[2],
                       nv > 0.0 ? "parallel to" : "zero, not");
    }
    return 0;
}

/* v (12) -> blockdiag(R, R, R, R) v and back. */
void fe3d_to_local(const double R[9], const double *g, double *l)
{
    for (int n = 0; n < 12; n += 3)
        for (int r = 0; r < 3; r++)
            l[n + r] = R[3 * r] * g[n] + R[3 * r + 1] * g[n + 1] + R[3 * r + 2] * g[n + 2];
}

void fe3d_to_global(const double R[9], const double *l, double *g)
{
    for (int n = 0; n < 12; n += 3)
        for (int c = 0; c < 3; c++)
            g[n + c] = R[c] * l[n] + R[3 + c] * l[n + 1] + R[6 + c] * l[n + 2];
}

/* k_g = T^T k_l T, T = blockdiag(R, R, R, R) (the stiffness; fe_mass.c: the mass). */
void fe3d_matrix_to_global(const double R[9], const double *kl, double *kg)
{
    double t[144], col[12], out[12];
    for (int j = 0; j < 12; j++) { /* t = k_l T: column j of T is to_local of unit e_j */
        double ej[12] = {0}, tj[12];
        ej[j] = 1.0;
        fe3d_to_local(R, ej, tj);
        for (int i = 0; i < 12; i++) {
            double s = 0.0;
            for (int m = 0; m < 12; m++) s += K12(kl, i, m) * tj[m];
            K12(t, i, j) = s;
        }
    }
    for (int j = 0; j < 12; j++) {
        for (int i = 0; i < 12; i++) col[i] = K12(t, i, j);
        fe3d_to_global(R, col, out);
        for (int i = 0; i < 12; i++) K12(kg, i, j) = out[i];
    }
}

/* The basic system of the beam (OpenSees' order): B (6 x 12, row-major) with ub = B ul, and
 * kb (diagonal blocks) with q = kb ub. */
void fe3d_basic_matrix(double L, double B[6][12])
{
    const double iL = 1.0 / L;
    memset(B, 0, 6 * sizeof B[0]);
    B[0][0] = -1.0, B[0][6] = 1.0;
    B[1][5] = 1.0, B[1][1] = iL, B[1][7] = -iL;
    B[2][11] = 1.0, B[2][1] = iL, B[2][7] = -iL;
    B[3][4] = 1.0, B[3][2] = -iL, B[3][8] = iL;
    B[4][10] = 1.0, B[4][2] = -iL, B[4][8] = iL;
    B[5][3] = -1.0, B[5][9] = 1.0;
}

void fe3d_elastic_basic_stiffness(const fe_element *e, double kb[6][6])
{
    const double L = e->L, ea = e->E * e->A / L, ez = e->E * e->I / L, ey = e->E * e->Iy / L,
                 gj = e->G * e->J / L;
    double rz[4], ry[4]; /* the moment releases (4 2; 2 4 without) */
    fe_release_kb(e->release_z, rz);
    fe_release_kb(e->release_y, ry);
    memset(kb, 0, 6 * sizeof kb[0]);
    kb[0][0] = ea;
    kb[1][1] = rz[0] * ez, kb[1][2] = rz[1] * ez, kb[2][1] = rz[2] * ez, kb[2][2] = rz[3] * ez;
    kb[3][3] = ry[0] * ey, kb[3][4] = ry[1] * ey, kb[4][3] = ry[2] * ey, kb[4][4] = ry[3] * ey;
    kb[5][5] = gj;
}

static void beam_basic(double B[6][12], double kb[6][6], const double ul[12], double ub[6],
                       double q[6])
{
    for (int r = 0; r < 6; r++) {
        ub[r] = 0.0;
        for (int m = 0; m < 12; m++) ub[r] += B[r][m] * ul[m];
    }
    for (int r = 0; r < 6; r++) {
        q[r] = 0.0;
        for (int m = 0; m < 6; m++) q[r] += kb[r][m] * ub[m];
    }
}

/* The member loads' fixed-end forces added to q (their reactions to fl when not NULL). */
static void beam_loads(const fe_element *e, double q[6], double *fl)
{
    if (!e->nml) return;
    double q0[6] = {0}, p0[5] = {0};
    fe_ml_fixed_end(e, 3, q0, p0);
    for (int r = 0; r < 6; r++) q[r] += q0[r];
    if (fl) fe_ml_local_3d(e->L, q0, p0, fl);
}

static void beam_local(const fe_element *e, const double ul[12], double fl[12], double *kl,
                       double *N)
{
    double B[6][12], kb[6][6], ub[6], q[6];
    fe3d_basic_matrix(e->L, B);
    fe3d_elastic_basic_stiffness(e, kb);
    beam_basic(B, kb, ul, ub, q);
    for (int i = 0; i < 12; i++) {
        fl[i] = 0.0;
        for (int r = 0; r < 6; r++) fl[i] += B[r][i] * q[r];
    }
    beam_loads(e, q, fl);
    *N = q[0];
    if (!kl) return;
    for (int j = 0; j < 12; j++)
        for (int i = 0; i < 12; i++) {
            double s = 0.0;
            for (int r = 0; r < 6; r++)
                for (int m = 0; m < 6; m++) s += B[r][i] * kb[r][m] * B[m][j];
            K12(kl, i, j) = s;
        }
}

/* P-Delta on the local transverse translations v (1, 7) and w (2, 8). */
void fe3d_pdelta(double N, double L, const double ul[12], double fl[12], double *kl)
{
    const double kg = N / L;
    for (int a = 1; a <= 2; a++) {
        const int b = a + 6;
        const double d = ul[b] - ul[a];
        fl[a] -= kg * d;
        fl[b] += kg * d;
        if (kl) {
            K12(kl, a, a) += kg;
            K12(kl, b, b) += kg;
            K12(kl, a, b) -= kg;
            K12(kl, b, a) -= kg;
        }
    }
}

/* Truss: the chord n (current chord when corotational), axial force N; f = N n at j, -N n at i;
 * k = EA/L n n^T + (N / Ln) (I - n n^T) for the geometric transformations, on the translations. */
static void truss(const fe_element *e, const double ug[12], double f[12], double *k)
{
    const double *x = e->R, ea = e->E * e->A / e->L;
    double n[3], du[3], Ln = e->L;
    for (int r = 0; r < 3; r++) du[r] = ug[6 + r] - ug[r];
    if (e->transf == HS_FE_COROTATIONAL) {
        double d[3];
        for (int r = 0; r < 3; r++) d[r] = e->L * x[r] + du[r];
        Ln = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        for (int r = 0; r < 3; r++) n[r] = d[r] / Ln;
    } else {
        for (int r = 0; r < 3; r++) n[r] = x[r];
    }
    const double elong =
        e->transf == HS_FE_COROTATIONAL ? Ln - e->L : n[0] * du[0] + n[1] * du[1] + n[2] * du[2];
    const double Nel = ea * elong, N = Nel - e->P0;
    const int geom = e->transf != HS_FE_LINEAR;
    memset(f, 0, 12 * sizeof(double));
    for (int r = 0; r < 3; r++) {
        /* axial force along n; P-Delta: N / L times the transverse part of du */
        double fr = (e->transf == HS_FE_COROTATIONAL ? N : Nel) * n[r];
        if (e->transf == HS_FE_PDELTA) {
            const double dn = n[0] * du[0] + n[1] * du[1] + n[2] * du[2];
            fr += N / e->L * (du[r] - dn * n[r]);
        }
        f[6 + r] = fr;
        f[r] = -fr;
    }
    if (!k) return;
    memset(k, 0, 144 * sizeof(double));
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            double v = ea * n[a] * n[b];
            if (geom) v += N / Ln * ((a == b ? 1.0 : 0.0) - n[a] * n[b]);
            K12(k, a, b) = K12(k, 6 + a, 6 + b) = v;
            K12(k, a, 6 + b) = K12(k, 6 + a, b) = -v;
        }
}

void fe3d_line_state(const fe_element *e, const double ug[12], double f[12], double k[144])
{
    if (e->kind == FE_TRUSS) {
        truss(e, ug, f, k);
        return;
    }
    if (e->transf == HS_FE_COROTATIONAL) {
        fe3d_corot_state(e, ug, f, k);
        return;
    }
    double ul[12], fl[12], kl[144], N;
    fe3d_to_local(e->R, ug, ul);
    beam_local(e, ul, fl, k ? kl : NULL, &N);
    if (e->transf == HS_FE_PDELTA) fe3d_pdelta(N - e->P0, e->L, ul, fl, k ? kl : NULL);
    fe3d_to_global(e->R, fl, f);
    if (k) fe3d_matrix_to_global(e->R, kl, k);
}

/* Elongation of a truss (the chord's length change when corotational). */
static double truss_elongation(const fe_element *e, const double ug[12])
{
    double du[3], d2 = 0.0, dn = 0.0;
    for (int r = 0; r < 3; r++) {
        du[r] = ug[6 + r] - ug[r];
        dn += e->R[r] * du[r];
        const double d = e->L * e->R[r] + du[r];
        d2 += d * d;
    }
    return e->transf == HS_FE_COROTATIONAL ? sqrt(d2) - e->L : dn;
}

int fe3d_basic(const fe_element *e, const double ug[12], double ub[6], double q[6])
{
    if (e->kind == FE_TRUSS) {
        ub[0] = truss_elongation(e, ug);
        q[0] = e->E * e->A / e->L * ub[0];
        return 1;
    }
    double ul[12], B[6][12], kb[6][6];
    fe3d_to_local(e->R, ug, ul);
    fe3d_basic_matrix(e->L, B);
    fe3d_elastic_basic_stiffness(e, kb);
    beam_basic(B, kb, ul, ub, q);
    beam_loads(e, q, NULL);
    return 6;
}
