/* pattern MultipleSupport's imposed motions in the script's own analysis (opensees_analysis.h):
 * OpenSees' ImposedMotionSP (SRC/domain/constraints/ImposedMotionSP.cpp: applyConstraint sets
 * the node's trial velocity and acceleration to the ground motion's, getValue its displacement)
 * applied by MultiSupportPattern::applyLoad at the time the integrator applies the loads (t + dt
 * for Newmark, t + alpha dt for HHT, the load factor for LoadControl), and the Transformation
 * handler's enforceSPs, which sets the node's trial displacement to it
 * (TransformationConstraintHandler.cpp, TransformationDOF_Group.cpp). The DOF has no equation
 * there, so no increment moves it: what the node holds at the commit is the motion at that time
 * (under HHT, at t + alpha dt). OpenSees' Plain handler (its default) takes the constraint as
 * homogeneous (PlainHandler.cpp): no one sets the displacement, which stays where it was, while
 * applyConstraint still gives the node the motion's velocity and acceleration. */
#include "opensees_analysis.h"

int hs_os_live_imposed_resolve(hs_os_live *lv, const hs_os_settings *set)
{
    const hs_os_model *m = lv->m;
    lv->nsp = 0;
    for (int k = 0; k < m->nimposed && k < HS_OS_MAX_IMPOSED; k++) {
        const hs_os_imposed *im = &m->imposed[k];
        hs_fe_dof_map map;
        if (hs_fe_node_map(lv->fe, im->node, im->dof, &map) || map.n != 1 || map.c[0] != 1.0)
            return hs_fail(lv->ctx, HS_EUNSUPPORTED,
                           "%s: imposedMotion: node %d dof %d is not a free DOF of its own (a "
                           "constraint's slave, or fixed): hysim imposes a motion on a free DOF "
                           "only",
                           im->where, im->node, im->dof + 1);
        for (int j = 0; j < lv->nsp; j++)
            if (lv->sp_eq[j] == map.eq[0])
                return hs_fail(lv->ctx, HS_EINPUT,
                               "%s: imposedMotion: node %d dof %d moves the same DOF as the "
                               "imposedMotion at %s",
                               im->where, im->node, im->dof + 1, m->imposed[j].where);
        lv->sp_eq[lv->nsp] = map.eq[0];
        lv->sp_gm[lv->nsp] = im->gm;
        lv->nsp++;
    }
    if (!set) return 0; /* eigen: the equations only */
    const int transient = set->analysis == 2;
    const char *no = NULL;
    if (!transient && set->integ != HS_OS_INT_LOAD)
        no = "a static analysis other than LoadControl";
    else if (transient && (set->alpha_os || set->explicit_newmark || set->hs_fixed))
        no = set->alpha_os           ? "AlphaOS"
             : set->explicit_newmark ? "NewmarkExplicit"
                                     : "NewmarkHSFixedNumIter";
    if (lv->nsp && no)
        return hs_fail(lv->ctx, HS_EUNSUPPORTED,
                       "%s: a pattern MultipleSupport with %s is not yet in the script's own "
                       "analysis (it has LoadControl, Newmark and HHT); use one of those",
                       m->imposed[0].where, no);
    if (lv->nsp && set->handler == 0 && !lv->sp_warned) {
        lv->sp_warned = 1;
        hs_log(lv->ctx, HS_LOG_WARN,
               "%s: constraints Plain (OpenSees' default): its Plain handler takes an imposed "
               "motion as zero (\"homogeneous constraint assumed\"): the DOF stays where it is, "
               "its velocity and acceleration are the ground motion's; give 'constraints "
               "Transformation' to impose the motion",
               m->imposed[0].where);
    }
    return 0;
}

void hs_os_live_imposed_set(hs_os_live *lv, const hs_os_settings *set, double t)
{
    for (int k = 0; k < lv->nsp; k++) {
        double g[3];
        hs_os_ground_motion_at(lv->m, &lv->m->gms[lv->sp_gm[k]], t, g);
        const int q = lv->sp_eq[k];
        if (set->handler == 0) g[0] = lv->U[q]; /* Plain: held where it is */
        lv->Ut[q] = g[0];
        if (set->analysis != 2) continue;
        lv->Ua[q] = g[0];
        lv->Vt[q] = lv->Va[q] = g[1];
        lv->At[q] = g[2];
    }
}

void hs_os_live_imposed_rows(const hs_os_live *lv, double *b)
{
    for (int k = 0; k < lv->nsp; k++) b[lv->sp_eq[k]] = 0.0;
}

void hs_os_live_imposed_matrix(const hs_os_live *lv, double *A)
{
    if (!lv->nsp) return;
    const hs_csc *P = lv->st.P;
    for (int j = 0; j < P->ncols; j++)
        for (int p = P->colptr[j]; p < P->colptr[j + 1]; p++) {
            const int i = P->rowind[p];
            for (int k = 0; k < lv->nsp; k++)
                if (i == lv->sp_eq[k] || j == lv->sp_eq[k]) A[p] = i == j ? 1.0 : 0.0;
        }
}

int hs_os_live_imposed_eq(const hs_os_live *lv, int node, int dof)
{
    for (int k = 0; lv && k < lv->nsp; k++) {
        const hs_os_imposed *im = &lv->m->imposed[k];
        if (im->node == node && im->dof == dof) return lv->sp_eq[k];
    }
    return -1;
}
