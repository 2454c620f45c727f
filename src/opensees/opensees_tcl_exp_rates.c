/* The rate responses of OpenFresco's experimental elements (facts from OpenFresco
 * 2.8's SRC/experimentalElement/EETwoNodeLink.cpp and EETruss.cpp setResponse / getResponse,
 * SRC/experimentalControl/ECSimUniaxialMaterials.cpp, SRC/experimentalSetup/ESOneActuator.cpp),
 * one value per basic direction:
 *   ctrlVel (ctrlVelocity, ctrlVelocities): vbCtrl, the basic trial velocities of the element's
 *     last update (saved in getResistingForce);
 *   ctrlAccel (ctrlAcceleration, ...): abCtrl, the nodes' trial accelerations at that update
 *     through the same transformation (update(): Tlb Tgl ag);
 *   daqVel (daqVelocity, ...): the site's measured velocities: ECSimUniaxialMaterials reads each
 *     specimen's getStrainRate(), which OpenSees' UniaxialMaterial answers 0 unless the class
 *     keeps a rate (of hysim's laws: Elastic, ElasticMaterial.h, and Viscous, ViscousMaterial.h,
 *     their trial rate); the setup writes them on the DOFs it drives, the others stay 0;
 *   daqAccel (daqAcceleration, ...): 0, SimUniaxialMaterials measures no acceleration (its
 *     getDaqResponse never writes one).
 * EEGeneric likewise over its listed DOFs (generic_rates), EEBeamColumn2d over its basic system B
 * (beam_rates). A link through a setup with actuator geometry, on a networked site, a 3-D
 * beam-column, or a generic element of several links is not answered here (-1). */
#include "opensees_analysis.h"
#include "opensees_tcl_openfresco.h"

#include <stdio.h>
#include <string.h>

int hs_of_exp_rate_word(const char *word)
{
    static const struct {
        const char *name;
        int rate;
    } words[] = {
        {"ctrlVel", HS_OF_RATE_CTRL_VEL},
        {"ctrlVelocity", HS_OF_RATE_CTRL_VEL},
        {"ctrlVelocities", HS_OF_RATE_CTRL_VEL},
        {"ctrlAccel", HS_OF_RATE_CTRL_ACCEL},
        {"ctrlAcceleration", HS_OF_RATE_CTRL_ACCEL},
        {"ctrlAccelerations", HS_OF_RATE_CTRL_ACCEL},
        {"daqVel", HS_OF_RATE_DAQ_VEL},
        {"daqVelocity", HS_OF_RATE_DAQ_VEL},
        {"daqVelocities", HS_OF_RATE_DAQ_VEL},
        {"daqAccel", HS_OF_RATE_DAQ_ACCEL},
        {"daqAcceleration", HS_OF_RATE_DAQ_ACCEL},
        {"daqAccelerations", HS_OF_RATE_DAQ_ACCEL},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strcmp(word, words[i].name)) return words[i].rate;
    return 0;
}

/* 1 when OpenSees' class of the material keeps its trial rate (getStrainRate). */
static int reports_rate(const hs_os_state *st, int tag)
{
    const hs_os_material *m = hs_os_find_material(st->m, tag);
    return m && m->type && (!strcmp(m->type, "elastic") || !strcmp(m->type, "viscous"));
}

/* EEGeneric (EEGeneric.cpp getResponse): over its listed DOFs in their order, ctrlVel and
 * ctrlAccel the nodes' velocities and accelerations at the last update (absolute DOFs: vbCtrl,
 * abCtrl; not the nodes NewmarkHSFixedNumIter's commit moved), daqVel
 * the actuators' specimens' rates on the DOFs they drive, daqAccel 0. */
static int generic_rates(hs_os_state *st, const hs_os_element *e, hs_fe *fe, int rate, double *out,
                         int cap)
{
    if (e->exp_gnb <= 0 || e->exp_pieces > 1) return -1;
    const hs_os_live *lv = st->an ? st->an->lv : NULL;
    double vb[HS_OS_MAX_DIRS] = {0}, ab[HS_OS_MAX_DIRS] = {0}, r[HS_OS_MAX_DIRS] = {0};
    if (fe && lv && rate == HS_OF_RATE_DAQ_VEL) {
        char name[32];
        snprintf(name, sizeof name, "ele%d", e->tag);
        if (hs_fe_link_rates(fe, hs_fe_element_index(fe, name), lv->Aupd, vb, ab, r) != e->nmat)
            return -1;
    }
    double v[HS_OS_MAX_DIRS] = {0};
    for (int p = 0; p < e->exp_gnb; p++) {
        const int node = e->exp_gnode[e->exp_gbn[p]];
        if (rate == HS_OF_RATE_CTRL_VEL && fe && lv)
            v[p] = hs_fe_node_trial(fe, node, e->exp_gdof[p], 1);
        else if (rate == HS_OF_RATE_CTRL_ACCEL)
            v[p] = hs_os_live_node(lv, node, e->exp_gdof[p], 3);
    }
    for (int m = 0; rate == HS_OF_RATE_DAQ_VEL && m < e->nmat; m++)
        v[e->exp_gpos[m]] = reports_rate(st, e->mat[m]) ? r[m] : 0.0;
    const int n = e->exp_gnb < cap ? e->exp_gnb : cap;
    memcpy(out, v, (size_t)n * sizeof(double));
    return n;
}

/* EEBeamColumn2d (EEBeamColumn2d.cpp getResponse) over its basic system B: ctrlVel vbCtrl,
 * ctrlAccel abCtrl (its transformation's basic accelerations through B's map, update()), daqVel
 * the specimens' rates on the DOFs the setup drives, daqAccel 0. */
static int beam_rates(hs_os_state *st, const hs_os_element *e, hs_fe *fe, int rate, double *out,
                      int cap)
{
    if (st->m->ndm != 2) return -1; /* EEBeamColumn3d's: not here */
    const hs_os_live *lv = st->an ? st->an->lv : NULL;
    double vb[3] = {0}, ab[3] = {0}, r[3] = {0}, v[3] = {0};
    if (fe && lv) {
        char name[32];
        snprintf(name, sizeof name, "ele%d", e->tag);
        if (hs_fe_link_rates(fe, hs_fe_element_index(fe, name), lv->Aupd, vb, ab, r) != 3)
            return -1;
    }
    for (int b = 0; b < 3; b++)
        v[b] = rate == HS_OF_RATE_CTRL_VEL ? vb[b] : rate == HS_OF_RATE_CTRL_ACCEL ? ab[b] : 0.0;
    for (int m = 0; rate == HS_OF_RATE_DAQ_VEL && m < e->nmat; m++) {
        const int b = e->dir[m] == HS_FE_UX ? 0 : e->dir[m] == HS_FE_UY ? 1 : 2;
        v[b] = reports_rate(st, e->mat[m]) ? r[b] : 0.0;
    }
    const int n = 3 < cap ? 3 : cap;
    memcpy(out, v, (size_t)n * sizeof(double));
    return n;
}

int hs_of_exp_link_rates(hs_os_state *st, const hs_os_element *e, hs_fe *fe, int rate, double *out,
                         int cap)
{
    if (e->exp_site && e->exp_generic) return generic_rates(st, e, fe, rate, out, cap);
    if (e->exp_site && e->exp_beam) return beam_rates(st, e, fe, rate, out, cap);
    if (!e->exp_site) return -1;
    const int n = e->nmat;
    double vb[HS_OS_MAX_DIRS] = {0}, ab[HS_OS_MAX_DIRS] = {0}, r[HS_OS_MAX_DIRS] = {0};
    const hs_os_live *lv = st->an ? st->an->lv : NULL;
    if (fe && lv) { /* before the analysis: the zeros of rest */
        char name[32];
        snprintf(name, sizeof name, "ele%d", e->tag);
        if (hs_fe_link_rates(fe, hs_fe_element_index(fe, name), lv->Aupd, vb, ab, r) != n)
            return -1;
    }
    double v[HS_OS_MAX_DIRS];
    for (int d = 0; d < n; d++) {
        const int driven = !(e->exp_zero_dirs & (1u << d)) && reports_rate(st, e->mat[d]);
        v[d] = rate == HS_OF_RATE_CTRL_VEL     ? vb[d]
               : rate == HS_OF_RATE_CTRL_ACCEL ? ab[d]
               : rate == HS_OF_RATE_DAQ_VEL    ? (driven ? r[d] : 0.0)
                                               : 0.0;
    }
    const int m = n < cap ? n : cap;
    memcpy(out, v, (size_t)m * sizeof(double));
    return m;
}
