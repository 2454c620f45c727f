/* OpenFresco's 3-D experimental beam-column (EEBeamColumn3d.cpp of OpenFresco 2.8, read for
 * facts; hs_fe_link_def exp_beam in a 3-D model). Its basic system B is the cantilever fixed at
 * node i, reached from its transformation's basic system A by EEBeamColumn3d::update's linear map
 * M: db = [dA0, -L dA1, dA2 - dA1, L dA3, dA4 - dA3, dA5], whatever the transformation (its
 * nonlinear branch is commented out; Corotational is warned and run with this map). Under
 * Linear and PDelta A is linear (LinearCrdTransf3d: ub = [axial, rz_i - chord_y, rz_j - chord_y,
 * ry_i + chord_z, ry_j + chord_z, torsion]), so that in the local axes db0 = u_j - u_i (axial),
 * db1 = v_j - v_i - L rz_i (shear along local y at node j), db2 = rz_j - rz_i, db3 = w_j - w_i +
 * L ry_i (shear along local z at node j), db4 = ry_j - ry_i, db5 = rx_j - rx_i (torsion): the
 * twoNodeLink's directions axial, shear y, moment z, shear z, moment y, torsion with shear
 * distances 1 (fe_link.c). Under Corotational A is the corotational beam's (fe_corot3d.c, the
 * order of CorotCrdTransf3d). The site's specimens give the forces of the DOFs they drive, 0
 * elsewhere; where the axial force or the torsion is zero (|qb| < 1e-12: the test measures none)
 * EEBeamColumn3d puts the elastic ones kb00 db0 and kb55 db5. The forces go back as qA = M^T qb
 * through the transformation: Linear B^T qb (the local one T_lb^T qb: getResponse's
 * localForce), PDelta that plus N / L on the local transverse offsets (PDeltaCrdTransf3d, N =
 * qA0), Corotational T(u)^T qA. The stiffness is -initStif through B with the couplings between
 * its blocks {0}, {1, 2}, {3, 4}, {5} left out (EEBeamColumn3d::setInitialStiff builds kbAInit of
 * those blocks only; the caller gives kb so), initial and tangent alike, the tangent with the
 * transformation's geometric stiffness of qA ("InitialStiff including GeometricStiff"). */
#include "fe_impl.h"

#include <math.h>
#include <string.h>

/* B's DOFs as link directions, in B's order */
static const int B_DIRS[6] = {HS_FE3_UX, HS_FE3_UY, HS_FE3_RZ, HS_FE3_UZ, HS_FE3_RY, HS_FE3_RX};

int fe_beam3_dirs_ok(const int *dirs, int n)
{
    if (n != 6) return 0;
    for (int p = 0; p < 6; p++)
        if (dirs[p] != B_DIRS[p]) return 0;
    return 1;
}

/* EEBeamColumn3d::update's map from the transformation's basic system A to B: db = M dA (row r
 * of M in M[r]); its forces back, qA = M^T qb (getResistingForce). */
static void a_to_b(double L, double M[6][6])
{
    memset(M, 0, 6 * sizeof M[0]);
    M[0][0] = 1.0;
    M[1][1] = -L;
    M[2][1] = -1.0, M[2][2] = 1.0;
    M[3][3] = L;
    M[4][3] = -1.0, M[4][4] = 1.0;
    M[5][5] = 1.0;
}

void fe_beam3_init(fe_beam3 *b, const double R[9], double L, const double kb[36],
                   const int *link_dirs, int ndir, int transf)
{
    memset(b, 0, sizeof *b);
    for (int p = 0; p < 6; p++) {
        double t[12] = {0};
        const int d = B_DIRS[p];
        t[d] = -1.0;
        t[6 + d] = 1.0;
        if (d == HS_FE3_UY) t[HS_FE3_RZ] = -L; /* shear distance 1: the shear at node j */
        if (d == HS_FE3_UZ) t[HS_FE3_RY] = L;
        memcpy(b->T[p], t, sizeof t);
        fe3d_to_global(R, t, b->B[p]);
        b->link[p] = -1;
        for (int k = 0; k < ndir; k++)
            if (link_dirs[k] == d) b->link[p] = k;
    }
    b->k_axial = kb[0];
    b->k_torsion = kb[35];
    b->transf = transf;
    b->L = L;
    double M[6][6]; /* kA = M^T kb M (EEBeamColumn3d::getTangentStiff's kbAInit) */
    a_to_b(L, M);
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 6; c++) {
            double s = 0.0;
            for (int i = 0; i < 6; i++)
                for (int j = 0; j < 6; j++) s += M[i][r] * kb[j * 6 + i] * M[j][c];
            b->kA[6 * r + c] = s;
        }
}

/* The corotational transformation's basic law (fe3d_corot_state_law): capture dA, or give qA
 * and kA. */
typedef struct corot_arg {
    const fe_beam3 *b;
    double dA[6], qA[6];
} corot_arg;

static int corot_capture(void *arg, const double ub[6], double q[6], double kb[36])
{
    corot_arg *a = arg;
    memcpy(a->dA, ub, sizeof a->dA);
    memset(q, 0, 6 * sizeof q[0]);
    memset(kb, 0, 36 * sizeof kb[0]);
    return 0;
}

static int corot_given(void *arg, const double ub[6], double q[6], double kb[36])
{
    const corot_arg *a = arg;
    (void)ub;
    memcpy(q, a->qA, sizeof a->qA);
    memcpy(kb, a->b->kA, sizeof a->b->kA);
    return 0;
}

void fe_beam3_deformation(const fe_beam3 *b, const fe_element *e, const double ug[12], double db[6])
{
    if (b->transf != HS_FE_COROTATIONAL) {
        for (int p = 0; p < 6; p++) {
            db[p] = 0.0;
            for (int i = 0; i < 12; i++) db[p] += b->B[p][i] * ug[i];
        }
        return;
    }
    corot_arg a = {.b = b};
    double M[6][6];
    fe3d_corot_state_law(e, ug, corot_capture, &a, NULL, NULL);
    a_to_b(b->L, M);
    for (int r = 0; r < 6; r++) {
        db[r] = 0.0;
        for (int c = 0; c < 6; c++) db[r] += M[r][c] * a.dA[c];
    }
}

/* qA = M^T qb of the last trial state */
static void basic_a_force(const fe_beam3 *b, double qA[6])
{
    double M[6][6];
    a_to_b(b->L, M);
    for (int c = 0; c < 6; c++) {
        qA[c] = 0.0;
        for (int r = 0; r < 6; r++) qA[c] += M[r][c] * b->b18[12 + r];
    }
}

void fe_beam3_force(fe_beam3 *b, const fe_element *e, const double ug[12], const double vg[12],
                    const double *q, double f[12])
{
    double db[6], vb[6], qb[6];
    fe_beam3_deformation(b, e, ug, db);
    for (int p = 0; p < 6; p++) {
        vb[p] = 0.0;
        for (int i = 0; i < 12; i++) vb[p] += b->B[p][i] * vg[i];
        qb[p] = b->link[p] >= 0 ? q[b->link[p]] : 0.0;
    }
    if (fabs(qb[0]) < 1.0e-12) qb[0] = b->k_axial * db[0];   /* EEBeamColumn3d's elastic axial */
    if (fabs(qb[5]) < 1.0e-12) qb[5] = b->k_torsion * db[5]; /* and torsion */
    for (int p = 0; p < 6; p++) b->b18[p] = db[p], b->b18[6 + p] = vb[p], b->b18[12 + p] = qb[p];
    if (b->transf == HS_FE_COROTATIONAL) { /* T(u)^T qA (CorotCrdTransf3d) */
        corot_arg a = {.b = b};
        basic_a_force(b, a.qA);
        fe3d_corot_state_law(e, ug, corot_given, &a, b->fg, NULL);
    } else {
        for (int i = 0; i < 12; i++) {
            double s = 0.0;
            for (int p = 0; p < 6; p++) s += b->B[p][i] * qb[p];
            b->fg[i] = s;
        }
    }
    if (b->transf == HS_FE_PDELTA) { /* PDeltaCrdTransf3d: N = qA0 on the transverse offsets */
        double ul[12], fl[12] = {0}, pg[12];
        fe3d_to_local(e->R, ug, ul);
        fe3d_pdelta(qb[0], b->L, ul, fl, NULL);
        fe3d_to_global(e->R, fl, pg);
        for (int i = 0; i < 12; i++) b->fg[i] += pg[i];
    }
    if (f) memcpy(f, b->fg, sizeof b->fg);
}

void fe_beam3_tangent(const fe_beam3 *b, const fe_element *e, const double ug[12], double k[144])
{
    if (b->transf == HS_FE_COROTATIONAL) {
        corot_arg a = {.b = b};
        basic_a_force(b, a.qA);
        fe3d_corot_state_law(e, ug, corot_given, &a, NULL, k);
    } else if (b->transf == HS_FE_PDELTA) {
        double ul[12], fl[12] = {0}, kl[144] = {0}, kg[144];
        fe3d_to_local(e->R, ug, ul);
        fe3d_pdelta(b->b18[12], b->L, ul, fl, kl);
        fe3d_matrix_to_global(e->R, kl, kg);
        for (int i = 0; i < 144; i++) k[i] += kg[i];
    }
}

void fe_beam3_local_force(const fe_beam3 *b, double out[12])
{
    for (int i = 0; i < 12; i++) {
        double s = 0.0;
        for (int p = 0; p < 6; p++) s += b->T[p][i] * b->b18[12 + p];
        out[i] = s;
    }
}
