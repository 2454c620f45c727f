/* The recorder and eleResponse answers of OpenFresco's experimental beam-column at OpenFresco's
 * shapes (facts from OpenFresco 2.8's SRC/experimentalElement/EEBeamColumn2d.cpp setResponse and
 * getResponse, SRC/experimentalSetup/ExperimentalSetup.cpp transfDaqResponse and
 * ESOneActuator.cpp / ESNoTransformation.cpp transfDaqDisp; docs/openfresco.md). EEBeamColumn2d
 * answers its whole basic system B (axial, shear at jNode, rotation: 3 values, the setup's
 * `-sizeTrialOut 3 3`) whatever its setup drives:
 *   ctrlDisp, deformation(s), basicDeformation(s) (and OpenFresco's other spellings): db, the
 *     trial displacements of B (dbCtrl, saved in getResistingForce);
 *   ctrlVel: vb likewise;
 *   daqDisp: the site's measured displacements in B: the setup writes its actuators' readings
 *     on the DOFs it drives and leaves the others at the zeros the output vector was made with
 *     (transfDaqDisp), so a perfect laboratory gives db on the driven DOFs, 0 elsewhere;
 *   basicForce(s), daqForce(s): qbDaq, the measured forces with the elastic axial force that
 *     getResistingForce adds where the test measures none (|qb0| < 1e-12);
 *   localForce(s): from qbDaq through B -> A at the deformed chord whatever the transformation,
 *     alpha = atan2(db1, L + db0), qA = [cos a qb0 + sin a qb1, db1 qb0 - (L + db0) qb1 - qb2,
 *     qb2], as [-qA0, (qA1 + qA2) / L, qA1, qA0, -(qA1 + qA2) / L, qA2] (no member loads).
 * The force(s) / globalForce(s) answer stays the element's global force. */
#include "opensees_analysis.h"
#include "opensees_tcl_openfresco.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int hs_of_exp_beam_word(const char *word)
{
    static const struct {
        const char *name;
        int group;
    } words[] = {
        {"defo", HS_OF_RESP_CTRL_DISP},
        {"deformation", HS_OF_RESP_CTRL_DISP},
        {"deformations", HS_OF_RESP_CTRL_DISP},
        {"basicDefo", HS_OF_RESP_CTRL_DISP},
        {"basicDeformation", HS_OF_RESP_CTRL_DISP},
        {"basicDeformations", HS_OF_RESP_CTRL_DISP},
        {"ctrlDisp", HS_OF_RESP_CTRL_DISP},
        {"ctrlDisplacement", HS_OF_RESP_CTRL_DISP},
        {"ctrlDisplacements", HS_OF_RESP_CTRL_DISP},
        {"ctrlVel", HS_OF_RESP_CTRL_VEL},
        {"ctrlVelocity", HS_OF_RESP_CTRL_VEL},
        {"ctrlVelocities", HS_OF_RESP_CTRL_VEL},
        {"daqDisp", HS_OF_RESP_DAQ_DISP},
        {"daqDisplacement", HS_OF_RESP_DAQ_DISP},
        {"daqDisplacements", HS_OF_RESP_DAQ_DISP},
        {"basicForce", HS_OF_RESP_FORCE},
        {"basicForces", HS_OF_RESP_FORCE},
        {"daqForce", HS_OF_RESP_FORCE},
        {"daqForces", HS_OF_RESP_FORCE},
        {"localForce", HS_OF_RESP_LOCAL},
        {"localForces", HS_OF_RESP_LOCAL},
        {"force", HS_OF_RESP_GLOBAL},
        {"forces", HS_OF_RESP_GLOBAL},
        {"globalForce", HS_OF_RESP_GLOBAL},
        {"globalForces", HS_OF_RESP_GLOBAL},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strcmp(word, words[i].name)) return words[i].group;
    return 0;
}

/* EEBeamColumn3d (EEBeamColumn3d.cpp getResponse, Linear): its basic system B of 6 (axial, shear y
 * at jNode, rz, shear z at jNode, ry, torsion) for ctrlDisp, ctrlVel, daqDisp (0 on the DOFs its
 * setup does not drive) and basicForce / daqForce (with the elastic axial force and torsion),
 * localForce the 12 end forces in the geomTransf's axes (src/fe/fe_link_beam3.c). */
static int exp_beam3_values(const hs_os_state *st, const hs_os_element *e, const hs_fe *fe,
                            int group, double *out, int cap)
{
    double b[18] = {0}, v[12] = {0};
    int driven[6] = {0};
    char name[32];
    snprintf(name, sizeof name, "ele%d", e->tag);
    const int k = fe ? hs_fe_element_index(fe, name) : -1;
    if (fe && hs_fe_exp_beam3_basic(fe, k, b, driven)) return -1;
    int size = 6;
    if (group == HS_OF_RESP_LOCAL) { /* qb -> qA (linear), then the end forces */
        const hs_os_node *ni = hs_os_find_node(st->m, e->ni), *nj = hs_os_find_node(st->m, e->nj);
        if (!ni || !nj) return -2;
        const double L =
            sqrt((nj->x - ni->x) * (nj->x - ni->x) + (nj->y - ni->y) * (nj->y - ni->y) +
                 (nj->z - ni->z) * (nj->z - ni->z));
        const double *q = b + 12,
                     qA[6] = {q[0], -L * q[1] - q[2], q[2], L * q[3] - q[4], q[4], q[5]};
        size = 12;
        v[0] = -qA[0], v[6] = qA[0];                                            /* axial */
        v[3] = -qA[5], v[9] = qA[5];                                            /* torsion */
        v[1] = (qA[1] + qA[2]) / L, v[7] = -v[1], v[5] = qA[1], v[11] = qA[2];  /* Vy, Mz */
        v[2] = -(qA[3] + qA[4]) / L, v[8] = -v[2], v[4] = qA[3], v[10] = qA[4]; /* Vz, My */
    } else {
        const int off = group == HS_OF_RESP_CTRL_VEL ? 6 : group == HS_OF_RESP_FORCE ? 12 : 0;
        for (int p = 0; p < 6; p++)
            v[p] = group == HS_OF_RESP_DAQ_DISP && !driven[p] ? 0.0 : b[off + p];
    }
    const int n = size < cap ? size : cap;
    memcpy(out, v, (size_t)n * sizeof(double));
    return n;
}

int hs_of_exp_beam_daq(hs_os_state *st, const hs_os_element *e, double *out, int cap)
{
    static const int b3[6] = {HS_FE3_UX, HS_FE3_UY, HS_FE3_RZ, HS_FE3_UZ, HS_FE3_RY, HS_FE3_RX},
                     b2[3] = {HS_FE_UX, HS_FE_UY, HS_FE_RZ};
    const int nb = st->m->ndm == 3 ? 6 : 3, *b_dirs = nb == 6 ? b3 : b2;
    double x[HS_OS_MAX_DIRS], v[6] = {0};
    const int n = hs_of_remote_daq_disp(st, e->tag, x, HS_OS_MAX_DIRS);
    if (n < 0 || n != e->nmat) return -1;
    for (int p = 0; p < nb; p++)
        for (int k = 0; k < n; k++)
            if (e->dir[k] == b_dirs[p]) v[p] = x[k];
    const int m = nb < cap ? nb : cap;
    memcpy(out, v, (size_t)m * sizeof(double));
    return m;
}

int hs_of_exp_beam_values(const hs_os_state *st, const hs_os_element *e, const hs_fe *fe, int group,
                          double *out, int cap)
{
    if (st->m->ndm == 3) return exp_beam3_values(st, e, fe, group, out, cap);
    const int size = group == HS_OF_RESP_LOCAL ? 6 : 3;
    double b[9] = {0}, v[6];
    int driven[3] = {0, 0, 0};
    char name[32];
    snprintf(name, sizeof name, "ele%d", e->tag);
    if (fe && hs_fe_exp_beam_basic(fe, hs_fe_element_index(fe, name), b, driven)) return -1;
    const double *db = b, *vb = b + 3, *qb = b + 6; /* no model yet: the zeros of rest */
    switch (group) {
    case HS_OF_RESP_CTRL_DISP:
    case HS_OF_RESP_CTRL_VEL:
        memcpy(v, group == HS_OF_RESP_CTRL_DISP ? db : vb, 3 * sizeof(double));
        break;
    case HS_OF_RESP_DAQ_DISP:
        for (int k = 0; k < 3; k++) v[k] = driven[k] ? db[k] : 0.0;
        break;
    case HS_OF_RESP_FORCE:
        memcpy(v, qb, 3 * sizeof(double));
        break;
    default: { /* HS_OF_RESP_LOCAL */
        const hs_os_node *ni = hs_os_find_node(st->m, e->ni), *nj = hs_os_find_node(st->m, e->nj);
        if (!ni || !nj) return -2;
        const double L = hypot(nj->x - ni->x, nj->y - ni->y), a = atan2(db[1], L + db[0]);
        const double qA0 = cos(a) * qb[0] + sin(a) * qb[1],
                     qA1 = db[1] * qb[0] - (L + db[0]) * qb[1] - qb[2], qA2 = qb[2];
        v[0] = -qA0, v[1] = (qA1 + qA2) / L, v[2] = qA1;
        v[3] = qA0, v[4] = -(qA1 + qA2) / L, v[5] = qA2;
    }
    }
    const int n = size < cap ? size : cap;
    memcpy(out, v, (size_t)n * sizeof(double));
    return n;
}

/* EEGeneric (EEGeneric.cpp getResponse; ESNoTransformation.cpp, ESOneActuator.cpp
 * transfDaqDisp / transfDaqForce): its basic DOFs are the listed DOFs of its nodes in their
 * order, their absolute displacements; ctrlDisp (and deformation, basicDeformation ...) db,
 * ctrlVel vb, those of its last update (dbCtrl, vbCtrl: saved in getResistingForce from the db, vb
 * that update() took; after NewmarkHSFixedNumIter's commit the nodes have moved since, the
 * element's values have not), daqDisp the measured db on the DOFs the setup drives (the link's
 * deformation of its last trial) and 0 elsewhere,
 * basicForce / daqForce qDaq (the actuators' forces on their DOFs, 0 elsewhere), and force /
 * globalForce / localForce qDaq assembled on the nodes' DOFs (every listed node, -ndf values
 * each). */
int hs_of_exp_generic_values(hs_os_state *st, const hs_os_element *e, hs_fe *fe, int group,
                             double *out, int cap)
{
    const int nb = e->exp_gnb, ndf = st->m->ndf;
    const hs_os_live *lv = st->an ? st->an->lv : NULL;
    double db[HS_OS_MAX_DIRS] = {0}, vb[HS_OS_MAX_DIRS] = {0}, q[HS_OS_MAX_DIRS] = {0},
           dm[HS_OS_MAX_DIRS] = {0};
    for (int p = 0; lv && fe && p < nb; p++) { /* before the analysis: the zeros of rest */
        const int node = e->exp_gnode[e->exp_gbn[p]];
        db[p] = hs_fe_node_trial(fe, node, e->exp_gdof[p], 0);
        vb[p] = hs_fe_node_trial(fe, node, e->exp_gdof[p], 1);
    }
    char name[32];
    snprintf(name, sizeof name, "ele%d", e->tag);
    const int k = fe ? hs_fe_element_index(fe, name) : -1;
    double qm[64], um[64];
    if (fe && (k < 0 || hs_fe_element_response_size(fe, k, HS_FE_BASIC_FORCE) != e->nmat ||
               hs_fe_element_response_size(fe, k, HS_FE_DEFORMATION) != e->nmat ||
               hs_fe_element_response(fe, k, HS_FE_BASIC_FORCE, qm) ||
               hs_fe_element_response(fe, k, HS_FE_DEFORMATION, um)))
        return -1;
    for (int m = 0; fe && m < e->nmat; m++) /* the driven DOFs: the measured, the force */
        dm[e->exp_gpos[m]] = um[m], q[e->exp_gpos[m]] = qm[m];
    double v[HS_OS_MAX_DIRS * HS_OS_NDF] = {0};
    int n = nb;
    for (int p = 0; p < nb; p++)
        v[p] = group == HS_OF_RESP_CTRL_DISP  ? db[p]
               : group == HS_OF_RESP_CTRL_VEL ? vb[p]
               : group == HS_OF_RESP_DAQ_DISP ? dm[p]
                                              : q[p];
    if (group == HS_OF_RESP_LOCAL || group == HS_OF_RESP_GLOBAL) {
        n = e->exp_gn * ndf;
        memset(v, 0, sizeof v);
        for (int p = 0; p < nb; p++) v[e->exp_gbn[p] * ndf + e->exp_gdof[p]] += q[p];
    }
    if (n > cap) n = cap;
    memcpy(out, v, (size_t)n * sizeof(double));
    return n;
}
