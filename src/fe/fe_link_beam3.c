/* OpenFresco's 3-D experimental beam-column (EEBeamColumn3d.cpp of OpenFresco 2.8, read for
 * facts; hs_fe_link_def exp_beam in a 3-D model) with a Linear transformation (OpenSees'
 * LinearCrdTransf3d). Its basic system B is the cantilever fixed at node i, from
 * LinearCrdTransf3d's basic system A (ub = [axial, rz_i - chord_y, rz_j - chord_y, ry_i + chord_z,
 * ry_j + chord_z, torsion]) as EEBeamColumn3d::update maps it: db = [dA0, -L dA1, dA2 - dA1, L dA3,
 * dA4 - dA3, dA5], in the local axes db0 = u_j - u_i                   (axial) db1 = v_j - v_i - L
 * rz_i          (shear along local y at node j) db2 = rz_j - rz_i                 (rotation about
 * local z) db3 = w_j - w_i + L ry_i          (shear along local z at node j) db4 = ry_j - ry_i
 * (rotation about local y) db5 = rx_j - rx_i                 (torsion) i.e. the twoNodeLink's
 * directions axial, shear y, moment z, shear z, moment y, torsion with shear distances 1
 * (fe_link.c). The site's specimens give the forces of the DOFs they drive, 0 elsewhere; where the
 * axial force or the torsion is zero (|qb| < 1e-12: the test measures none) EEBeamColumn3d puts the
 * elastic ones kb00 db0 and kb55 db5 (linear: not the 2-D element's deformed chord). The global
 * force is B^T qb (the local one T_lb^T qb: EEBeamColumn3d getResponse's localForce), the stiffness
 * -initStif through B with the couplings between its blocks {0}, {1, 2}, {3, 4}, {5} left out
 * (EEBeamColumn3d::setInitialStiff builds kbAInit of those blocks only; the caller gives kb so),
 * initial and tangent alike (Linear: no geometric stiffness). */
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

void fe_beam3_init(fe_beam3 *b, const double R[9], double L, const double kb[36],
                   const int *link_dirs, int ndir)
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
}

void fe_beam3_force(fe_beam3 *b, const double ug[12], const double vg[12], const double *q,
                    double f[12])
{
    double db[6], vb[6], qb[6];
    for (int p = 0; p < 6; p++) {
        db[p] = vb[p] = 0.0;
        for (int i = 0; i < 12; i++) db[p] += b->B[p][i] * ug[i], vb[p] += b->B[p][i] * vg[i];
        qb[p] = b->link[p] >= 0 ? q[b->link[p]] : 0.0;
    }
    if (fabs(qb[0]) < 1.0e-12) qb[0] = b->k_axial * db[0];   /* EEBeamColumn3d's elastic axial */
    if (fabs(qb[5]) < 1.0e-12) qb[5] = b->k_torsion * db[5]; /* and torsion */
    for (int p = 0; p < 6; p++) b->b18[p] = db[p], b->b18[6 + p] = vb[p], b->b18[12 + p] = qb[p];
    for (int i = 0; i < 12; i++) {
        double s = 0.0;
        for (int p = 0; p < 6; p++) s += b->B[p][i] * qb[p];
        b->fg[i] = s;
        if (f) f[i] = s;
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
