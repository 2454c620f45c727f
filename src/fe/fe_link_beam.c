/* A two-node link as OpenFresco's experimental beam-column (EEBeamColumn2d.cpp of OpenFresco 2.8,
 * read for facts; hs_fe_link_def beam): 2-D, ndf 3, its coordinate transformation Linear, PDelta
 * or Corotational (OpenSees' LinearCrdTransf2d, PDeltaCrdTransf2d, CorotCrdTransf2d).
 *
 * The transformation gives the basic system A (simply supported): dA = [axial, theta_i - chord,
 * theta_j - chord] (Corotational: [Ln - L, theta_i - (beta - beta0), theta_j - (beta -
 * beta0)]). EEBeamColumn2d's basic system B is the cantilever fixed at node i:
 *   Linear, PDelta: db = [dA0, -L dA1, dA2 - dA1];
 *   Corotational:   db = [(L + dA0) cos dA1 - L, -(L + dA0) sin dA1, dA2 - dA1].
 * The link's directions (HS_FE_UX, UY, RZ: B's axial, shear, rotation) that the site drives
 * take its materials: qb = their force, 0 elsewhere. When the axial force is zero (|qb0| <
 * 1e-12: the test measures none), EEBeamColumn2d puts an elastic one along the deformed chord of
 * B: qA0 = kb00 (sqrt((L + db0)^2 + db1^2) - L), qb0 = cos(a) qA0, qb1 += sin(a) qA0, a =
 * atan2(db1, L + db0). Back to A: Linear, PDelta qA = [qb0, -L qb1 - qb2, qb2]; Corotational
 * qA = [cos(a) qb0 + sin(a) qb1, db1 qb0 - (L + db0) qb1 - qb2, qb2]. The global force is the
 * transformation's (PDelta: N = qA0 on the chord's offset; Corotational: B_A^T qA). The
 * stiffness is -initStif kb (in B) in A, kbA = [kb00, 0, 0; 0, L^2 kb11 + L (kb12 + kb21) + kb22,
 * -L kb12 - kb22; 0, -L kb21 - kb22, kb22] (its couplings to the axial left out, as
 * EEBeamColumn2d does), through the transformation with its geometric stiffness of qA (the
 * tangent: "InitialStiff including GeometricStiff"), and at rest without it (the initial
 * stiffness). A specimen elsewhere (hs_fe_link_set_specimen) gives the forces of the driven DOFs
 * of B instead of the materials. */
#include "fe_impl.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* The transformation at ug: B_A (basic system A from the element's DOFs: global under
 * Corotational, local otherwise), its r and z (Corotational), the deformed length Ln, dA and the
 * local displacements ul (Linear, PDelta). */
typedef struct beam_geometry {
    double BA[3][6], r[6], z[6], Ln, dA[3], ul[6];
} beam_geometry;

static void geometry(const fe_element *e, int corot, int initial, const double ug[6],
                     beam_geometry *g)
{
    const double L = e->L;
    memset(g, 0, sizeof *g);
    g->Ln = L;
    if (corot) {
        const double dx = L * e->c + ug[3] - ug[0], dy = L * e->s + ug[4] - ug[1];
        g->Ln = sqrt(dx * dx + dy * dy);
        const double c = dx / g->Ln, s = dy / g->Ln;
        const double rot = atan2(e->c * s - e->s * c, e->c * c + e->s * s); /* beta - beta0 */
        const double rr[6] = {-c, -s, 0.0, c, s, 0.0}, zz[6] = {s, -c, 0.0, -s, c, 0.0};
        memcpy(g->r, rr, sizeof g->r);
        memcpy(g->z, zz, sizeof g->z);
        for (int i = 0; i < 6; i++) {
            g->BA[0][i] = g->r[i];
            g->BA[1][i] = g->BA[2][i] = -g->z[i] / g->Ln;
        }
        g->BA[1][2] += 1.0;
        g->BA[2][5] += 1.0;
        g->dA[0] = g->Ln - L, g->dA[1] = ug[2] - rot, g->dA[2] = ug[5] - rot;
        return;
    }
    /* local T_A (Linear, PDelta; every transformation at rest) */
    const double TA[3][6] = {
        {-1, 0, 0, 1, 0, 0}, {0, 1.0 / L, 1, 0, -1.0 / L, 0}, {0, 1.0 / L, 0, 0, -1.0 / L, 1}};
    memcpy(g->BA, TA, sizeof g->BA);
    if (!initial) fe2d_to_local(e, ug, g->ul);
    for (int a = 0; a < 3; a++)
        for (int i = 0; i < 6; i++) g->dA[a] += TA[a][i] * g->ul[i];
}

/* -initStif kb (in B) in system A (column-major 3 x 3), its couplings to the axial left out, as
 * EEBeamColumn2d does. */
static void stiffness_in_A(double L, const double kbB[9], double kbA[9])
{
    memset(kbA, 0, 9 * sizeof(double));
    kbA[0] = kbB[0];
    kbA[4] = L * L * kbB[4] + L * (kbB[7] + kbB[5]) + kbB[8];
    kbA[7] = -L * kbB[7] - kbB[8]; /* (1, 2) */
    kbA[5] = -L * kbB[5] - kbB[8]; /* (2, 1) */
    kbA[8] = kbB[8];
}

/* The global force f and tangent k (either NULL) of basic forces qA and stiffness kbA through the
 * transformation at g (corot: Corotational, with its geometric stiffness of qA; PDelta: N = qA0
 * on the chord's offset, unless initial). */
static void through_transformation(const fe_element *e, int transf, int corot, int initial,
                                   const double kbA[9], const double qA[3], const beam_geometry *g,
                                   double f[6], double k[36])
{
    const double(*BA)[6] = g->BA, *r = g->r, *z = g->z, Ln = g->Ln;
    double fl[6], kl[36] = {0};
    for (int i = 0; i < 6; i++) fl[i] = BA[0][i] * qA[0] + BA[1][i] * qA[1] + BA[2][i] * qA[2];
    for (int j = 0; j < 6 && k; j++)
        for (int i = 0; i < 6; i++) {
            double s = 0.0;
            for (int p = 0; p < 3; p++)
                for (int q = 0; q < 3; q++) s += BA[p][i] * kbA[q * 3 + p] * BA[q][j];
            if (corot) /* CorotCrdTransf2d's geometric stiffness of qA */
                s += qA[0] / Ln * z[i] * z[j] +
                     (qA[1] + qA[2]) / (Ln * Ln) * (r[i] * z[j] + z[i] * r[j]);
            kl[j * 6 + i] = s;
        }
    if (corot) { /* already global */
        if (f) memcpy(f, fl, sizeof fl);
        if (k) memcpy(k, kl, sizeof kl);
        return;
    }
    if (transf == HS_FE_PDELTA && !initial) fe2d_pdelta(qA[0], e->L, g->ul, fl, kl);
    if (f) fe2d_to_global(e, fl, f);
    if (k) fe2d_stiffness_to_global(e, kl, k);
}

void fe_link_beam_at(const fe_element *e, int transf, const double kbB[9], const double qA[3],
                     const double ug[6], double f[6], double k[36])
{
    const int corot = transf == HS_FE_COROTATIONAL;
    beam_geometry g;
    geometry(e, corot, 0, ug, &g);
    double kbA[9];
    stiffness_in_A(e->L, kbB, kbA);
    through_transformation(e, transf, corot, 0, kbA, qA, &g, f, k);
}

int fe_link_beam_state(hs_ctx *ctx, const char *name, const fe_element *e, int transf,
                       const double kbB[9], hs_material *const *mat, const int *dir,
                       const double *da, const double *dv, const double *fb, int nmat,
                       const double ug[6], const double vg[6], int initial,
                       const hs_fe_specimen *spec, double spec_db[3], const double *spec_q,
                       double t, double f[6], double k[36], double db_out[3], double qb_out[3],
                       double qA_out[3], double b9[9])
{
    const double L = e->L;
    double kbA[9];
    stiffness_in_A(L, kbB, kbA);
    const int corot = transf == HS_FE_COROTATIONAL && !initial;
    beam_geometry g;
    geometry(e, corot, initial, ug, &g);
    double(*BA)[6] = g.BA, *dA = g.dA, vA[3];
    double vl[6] = {0};
    if (!initial && !corot) fe2d_to_local(e, vg, vl);
    for (int a = 0; a < 3; a++) {
        vA[a] = 0.0;
        for (int i = 0; i < 6; i++) vA[a] += BA[a][i] * (corot ? vg[i] : vl[i]);
    }
    double db[3], vb[3];
    if (corot) {
        const double cs = cos(dA[1]), sn = sin(dA[1]);
        db[0] = (L + dA[0]) * cs - L, db[1] = -(L + dA[0]) * sn, db[2] = dA[2] - dA[1];
        vb[0] = vA[0] * cs - (L + dA[0]) * sn * vA[1];
        vb[1] = -vA[0] * sn - (L + dA[0]) * cs * vA[1];
        vb[2] = vA[2] - vA[1];
    } else {
        db[0] = dA[0], db[1] = -L * dA[1], db[2] = dA[2] - dA[1];
        vb[0] = vA[0], vb[1] = -L * vA[1], vb[2] = vA[2] - vA[1];
    }
    double qb[3] = {0.0, 0.0, 0.0};
    if (spec && !initial) { /* a specimen elsewhere: its forces on the driven DOFs of B */
        double ds[3], vs[3], qs[3] = {0.0, 0.0, 0.0}, moved = 0.0;
        for (int m = 0; m < nmat; m++) {
            const int b = dir[m] == HS_FE_UX ? 0 : dir[m] == HS_FE_UY ? 1 : 2;
            ds[m] = db[b], vs[m] = vb[b];
        }
        for (int b = 0; b < 3; b++) { /* EEBeamColumn2d::update: dbDelta over B */
            if (fabs(db[b] - spec_db[b]) > moved) moved = fabs(db[b] - spec_db[b]);
            spec_db[b] = db[b];
        }
        const int rc = moved > DBL_EPSILON ? spec->trial(spec->user, spec->id, nmat, ds, vs, t, qs)
                                           : (memcpy(qs, spec_q, (size_t)nmat * sizeof(double)), 0);
        if (rc) return rc;
        for (int m = 0; m < nmat; m++) {
            const int b = dir[m] == HS_FE_UX ? 0 : dir[m] == HS_FE_UY ? 1 : 2;
            qb[b] = qs[m];
            db_out[m] = db[b];
            qb_out[m] = qs[m];
        }
    }
    for (int m = 0; m < nmat && !initial && !spec; m++) { /* the site's specimens on B */
        const int b = dir[m] == HS_FE_UX ? 0 : dir[m] == HS_FE_UY ? 1 : 2;
        const int rc = hs_material_set_trial(mat[m], da[m] * db[b], dv[m] * vb[b]);
        if (rc)
            return hs_fail(ctx, rc, "element '%s': direction %d: %s", name, m + 1,
                           hs_ctx_message(ctx));
        qb[b] = fb[m] * hs_material_stress(mat[m]);
        db_out[m] = db[b];
        qb_out[m] = qb[b];
    }
    const double a = atan2(db[1], L + db[0]);
    if (!initial && fabs(qb[0]) < 1.0e-12) { /* EEBeamColumn2d's elastic axial force */
        const double qa0 = kbB[0] * (sqrt((L + db[0]) * (L + db[0]) + db[1] * db[1]) - L);
        qb[0] = cos(a) * qa0;
        qb[1] += sin(a) * qa0;
    }
    if (b9 && !initial)
        for (int i = 0; i < 3; i++) b9[i] = db[i], b9[3 + i] = vb[i], b9[6 + i] = qb[i];
    double qA[3];
    if (corot)
        qA[0] = cos(a) * qb[0] + sin(a) * qb[1],
        qA[1] = db[1] * qb[0] - (L + db[0]) * qb[1] - qb[2];
    else
        qA[0] = qb[0], qA[1] = -L * qb[1] - qb[2];
    qA[2] = qb[2];
    if (qA_out && !initial) memcpy(qA_out, qA, sizeof qA);
    through_transformation(e, transf, corot, initial, kbA, qA, &g, f, k);
    return 0;
}

void fe_link_beam_accel(const fe_element *e, int transf, const double ug[6], const double vg[6],
                        const double ag[6], double ab[3])
{
    const double L = e->L;
    double ul[6], vl[6], al[6], abA[3];
    fe2d_to_local(e, ug, ul);
    fe2d_to_local(e, vg, vl);
    fe2d_to_local(e, ag, al);
    if (transf !=
        HS_FE_COROTATIONAL) { /* LinearCrdTransf2d: T_A al; B = [dA0, -L dA1, dA2 - dA1] */
        const double dv = (al[4] - al[1]) / L;
        abA[0] = al[3] - al[0], abA[1] = al[2] - dv, abA[2] = al[5] - dv;
        ab[0] = abA[0], ab[1] = -L * abA[1], ab[2] = abA[2] - abA[1];
        return;
    }
    /* CorotCrdTransf2d::getBasicTrialVel and getBasicTrialAccel: the chord (Lx, Ly) in the axes
     * at rest, its rates */
    const double Lx = L + ul[3] - ul[0], Ly = ul[4] - ul[1], Ln = hypot(Lx, Ly);
    const double Lxd = vl[3] - vl[0], Lyd = vl[4] - vl[1], Lxdd = al[3] - al[0],
                 Lydd = al[4] - al[1];
    const double vbA0 = (Lx * Lxd + Ly * Lyd) / Ln,
                 vbA1 = vl[2] - (Lx * Lyd - Ly * Lxd) / (Ln * Ln);
    const double p = Lx * Lxd + Ly * Lyd;
    abA[0] = (Lxd * Lxd + Lx * Lxdd + Ly * Lydd + Lyd * Lyd) / Ln - p * p / (Ln * Ln * Ln);
    abA[1] = al[2] - (Lx * Lydd - Ly * Lxdd) / (Ln * Ln) +
             2.0 * (Lx * Lyd - Ly * Lxd) * p / (Ln * Ln * Ln * Ln);
    abA[2] = al[5] + abA[1] - al[2];
    /* EEBeamColumn2d::update (nonlinear B): the derivatives of db = [(L + dA0) cos dA1 - L,
     * -(L + dA0) sin dA1, dA2 - dA1] */
    beam_geometry g;
    geometry(e, 1, 0, ug, &g);
    const double c = cos(g.dA[1]), s = sin(g.dA[1]), La = L + g.dA[0];
    ab[0] = abA[0] * c - 2.0 * vbA0 * s * vbA1 - La * c * vbA1 * vbA1 - La * s * abA[1];
    ab[1] = -abA[0] * s - 2.0 * vbA0 * c * vbA1 + La * s * vbA1 * vbA1 - La * c * abA[1];
    ab[2] = abA[2] - abA[1];
}
