/* The nodes moved after the commit without an element update (OpenSees' NewmarkHSFixedNumIter::
 * commit: one more solve with the last unbalance, setResponse to the nodes, no updateDomain, then
 * commitDomain; docs/opensees_tcl.md). OpenSees' elastic beams answer at the nodes' current
 * displacements (ElasticBeam2d::getResistingForce and ElasticBeam3d's call
 * theCoordTransf->update() first: SRC/element/elasticBeamColumn), and OpenFresco's
 * EEBeamColumn2d::getResistingForce updates its transformation too while its basic forces stay
 * those of its last measurement; the other elements answer at their last update (their
 * materials', sections' and transformations' trial state). So those two kinds' recorded forces,
 * the residual that reactionIncludingInertia reports, and the first unbalance of the next step
 * (NewmarkHSFixedNumIter::newStep updates no element either) take the moved nodes, and so does
 * the first Newton tangent of that step, formed after that unbalance (hs_fe_moved_tangent):
 * ElasticBeam2d::getTangentStiff is its transformation's stiffness of the basic forces there,
 * EEBeamColumn2d::getTangentStiff (OpenFresco 2.8) its -initStif through the transformation
 * there with the geometric stiffness of its last basic forces (CorotCrdTransf2d::
 * getGlobalStiffMatrix: the state of its last update()). */
#include "fe_impl.h"

#include <string.h>

/* The global force f and tangent k (element layout; k NULL: not wanted) of an element that
 * answers at the nodes at equation displacements u: an elastic beam's (ElasticBeam2d::
 * getTangentStiff: the transformation's stiffness of its basic forces there), an experimental
 * beam-column's (EEBeamColumn2d::getResistingForce and getTangentStiff update its transformation,
 * its basic forces stay its last measurement's); 1 for another element. */
static int answer_at(hs_fe *fe, fe_element *e, const double *u, double f[FE_MAX_EDOF],
                     double k[FE_MAX_EDOF * FE_MAX_EDOF])
{
    if (e->kind == FE_LINK) return fe_link_beam_moved(fe, e, u, f, k);
    if (e->kind != FE_BEAM) return 1;
    const fe_map *maps[FE_MAX_EDOF];
    fe_element_maps(fe, e, maps);
    return fe_element_state(fe, e, maps, u, NULL, 0, f, k, NULL) ? -1 : 0;
}

static int force_at(hs_fe *fe, fe_element *e, const double *u, double f[FE_MAX_EDOF])
{
    return answer_at(fe, e, u, f, NULL);
}

int fe_moved_force(hs_fe *fe, fe_element *e, double f[FE_MAX_EDOF])
{
    return fe->moved && force_at(fe, e, fe->u_moved, f) == 0;
}

/* Adds the global forces of the elements that answer at the nodes, at equation displacements u,
 * times s, into r (neq). */
static int nodal_forces(hs_fe *fe, const double *u, double s, double *r)
{
    for (int k = 0; k < fe->nels; k++) {
        fe_element *e = &fe->els[k];
        double f[FE_MAX_EDOF];
        const int rc = force_at(fe, e, u, f);
        if (rc < 0) return HS_EINVAL;
        if (rc) continue;
        const fe_map *maps[FE_MAX_EDOF];
        const int nde = fe_element_maps(fe, e, maps);
        for (int i = 0; i < nde; i++)
            for (int t = 0; t < maps[i]->n; t++)
                if (maps[i]->eq[t] < fe->neq) r[maps[i]->eq[t]] += s * maps[i]->c[t] * f[i];
    }
    return 0;
}

int hs_fe_move_nodes(hs_fe *fe, const double *d, double *dr)
{
    const size_t q = (size_t)fe->neq + (size_t)hs_fe_support_count(fe) + 1;
    if (q != fe->nmoved) { /* once (and again if supports were added since) */
        double *um = hs_realloc(fe->u_moved, q * sizeof(double));
        double *rm = hs_realloc(fe->r_moved, q * sizeof(double));
        if (um) fe->u_moved = um;
        if (rm) fe->r_moved = rm;
        if (!um || !rm) return HS_ENOMEM;
        fe->nmoved = q;
    }
    double *r = fe->r_moved;
    memset(r, 0, q * sizeof(double));
    memcpy(fe->u_moved, fe->u_commit, (q - 1) * sizeof(double));
    for (int i = 0; i < fe->n; i++) fe->u_moved[fe->dyn_eq[i]] = d[i];
    int rc = nodal_forces(fe, fe->u_moved, 1.0, r);
    if (!rc) rc = nodal_forces(fe, fe->u_commit, -1.0, r);
    for (int i = 0; !rc && i < fe->n; i++) dr[i] = r[fe->dyn_eq[i]];
    if (!rc) fe->moved = 1;
    return rc;
}

int hs_fe_nodes_moved(hs_fe *fe, int settle)
{
    const int moved = fe->moved;
    if (settle) fe->moved = 0;
    return moved;
}

/* The change of element e's tangent from the last update to the moved nodes into dk (element
 * layout): 0, or 1 when it has none (an element at its last update, an elastic beam with the
 * linear transformation: its stiffness does not depend on the nodes). */
static int tangent_change(hs_fe *fe, fe_element *e, double dk[FE_MAX_EDOF * FE_MAX_EDOF])
{
    if (e->kind == FE_BEAM && e->transf == HS_FE_LINEAR) return 1;
    double f[FE_MAX_EDOF], k0[FE_MAX_EDOF * FE_MAX_EDOF];
    int rc = answer_at(fe, e, fe->u_moved, f, dk);
    if (!rc) rc = answer_at(fe, e, fe->u_commit, f, k0);
    if (rc) return rc < 0 ? HS_EINVAL : 1;
    for (int i = 0; i < FE_MAX_EDOF * FE_MAX_EDOF; i++) dk[i] -= k0[i];
    return 0;
}

int hs_fe_moved_tangent(hs_fe *fe, double *K, int sparse)
{
    if (!fe->moved) return 0;
    if (!sparse && fe->n0)
        return hs_fail(fe->ctx, HS_EUNSUPPORTED,
                       "frame model: the tangent at moved nodes with %d condensed DOFs is not in "
                       "hysim; give every free DOF a mass",
                       fe->n0);
    const int n = fe->n;
    for (int k = 0; k < fe->nels; k++) {
        fe_element *e = &fe->els[k];
        double dk[FE_MAX_EDOF * FE_MAX_EDOF] = {0};
        const int rc = tangent_change(fe, e, dk);
        if (rc == 1) continue;
        if (rc) return rc;
        if (sparse) { /* the element's slots in the pattern (fe_sparse.c) */
            for (size_t s = fe->slot_off[k]; s < fe->slot_off[k + 1]; s++)
                K[fe->slot_pos[s]] += fe->slot_w[s] * dk[fe->slot_ke[s]];
            continue;
        }
        const fe_map *maps[FE_MAX_EDOF]; /* T^T dk T into the dense n x n */
        const int nd = fe_element_maps(fe, e, maps);
        for (int j = 0; j < nd; j++)
            for (int tj = 0; tj < maps[j]->n; tj++)
                for (int i = 0; maps[j]->eq[tj] < fe->neq && i < nd; i++)
                    for (int ti = 0; ti < maps[i]->n; ti++)
                        if (maps[i]->eq[ti] < fe->neq)
                            HS_AT(K, n, fe->eq_dyn[maps[i]->eq[ti]], fe->eq_dyn[maps[j]->eq[tj]]) +=
                                maps[i]->c[ti] * maps[j]->c[tj] * dk[j * nd + i];
    }
    return 0;
}
