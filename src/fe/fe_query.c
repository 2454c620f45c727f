/* Queries of the committed state for recorders (docs/outputs.md, "Recorders"): every retained
 * DOF's displacement, velocity and acceleration from the dynamic DOFs' (the condensed ones through
 * the condensation's tangent), element forces and deformations in OpenSees' terms (global end
 * forces, local end forces, basic forces and deformations), and reactions at fixed DOFs. Nothing
 * here allocates. */
#include "fe_impl.h"

#include <math.h>
#include <string.h>

int hs_fe_node_ndf(const hs_fe *fe, int id)
{
    return fe_node_index(fe, id) >= 0 ? fe->ndf : HS_FE_NO_NODE;
}

int hs_fe_node_coord(const hs_fe *fe, int id, int axis, double *x)
{
    const int k = fe_node_index(fe, id);
    if (k < 0 || axis < 0 || axis >= fe->ndm) return HS_FE_NO_NODE;
    const fe_node *nd = &fe->nodes[k];
    *x = axis == 0 ? nd->x : axis == 1 ? nd->y : nd->z;
    return 0;
}

int hs_fe_equation_count(const hs_fe *fe)
{
    return fe->neq;
}

int hs_fe_node_equation(const hs_fe *fe, int id, int dof)
{
    const int k = fe_node_index(fe, id);
    if (k < 0 || dof < 0 || dof >= fe->ndf) return HS_FE_NO_NODE;
    const fe_map *m = &fe->nodes[k].map[dof];
    if (m->n == 0 || m->eq[0] >= fe->neq) return HS_FE_FIXED; /* a moving support's too */
    /* a free DOF or an equal_dof slave (one term, 1); a rigid slave's lever arm has no one
     * equation */
    return m->n == 1 && m->c[0] == 1.0 ? m->eq[0] : HS_FE_NO_NODE;
}

int hs_fe_expand(hs_fe *fe, int order, const double *x, double *out)
{
    const int q = fe->neq, n = fe->n, n0 = fe->n0;
    for (int i = 0; i < n; i++) out[fe->dyn_eq[i]] = x[i];
    if (order == 0) {
        for (int a = 0; a < n0; a++) out[fe->cond_eq[a]] = fe->u_commit[fe->cond_eq[a]];
        return 0;
    }
    if (n0 == 0) return 0;
    /* r_0(d, d_0(d)) = 0: K00 x_0 + K0m x = 0 at the last restore's tangent (factored in s0) */
    for (int a = 0; a < n0; a++) {
        double s = 0.0;
        for (int j = 0; j < n; j++) s += HS_AT(fe->K_eq, q, fe->cond_eq[a], fe->dyn_eq[j]) * x[j];
        fe->b[a] = -s;
    }
    const int rc = hs_linsolver_solve(fe->s0, fe->b);
    if (rc) return rc;
    for (int a = 0; a < n0; a++) out[fe->cond_eq[a]] = fe->b[a];
    return 0;
}

int hs_fe_element_index(const hs_fe *fe, const char *name)
{
    for (int e = 0; e < fe->nels; e++)
        if (strcmp(fe->els[e].name, name) == 0) return e;
    return -1;
}

const char *hs_fe_element_type(const hs_fe *fe, int e)
{
    static const char *const kinds[] = {"truss", "elastic_beam", "zero_length", "two_node_link"};
    return kinds[fe->els[e].kind];
}

int hs_fe_element_dof(const hs_fe *fe, int e)
{
    return fe->els[e].kind == FE_ZERO_LENGTH ? fe->els[e].dir : -1;
}

int hs_fe_element_response_size(const hs_fe *fe, int e, hs_fe_response r)
{
    const fe_kind kind = fe->els[e].kind;
    hs_material *mats[FE_MAX_MATS];
    if (fe->ndm != 2 || fe->ndf != 3) return 0; /* the responses below are those of 2-D frames */
    switch (r) {
    case HS_FE_GLOBAL_FORCE:
        return 6;
    case HS_FE_LOCAL_FORCE:
        return kind == FE_ZERO_LENGTH || kind == FE_LINK ? 0 : 6;
    case HS_FE_BASIC_FORCE:
    case HS_FE_DEFORMATION:
        return kind == FE_BEAM ? 3 : kind == FE_LINK ? fe_link_materials(&fe->els[e], mats) : 1;
    case HS_FE_STRAIN:
        return kind == FE_TRUSS ? 1 : 0;
    }
    return 0;
}

/* Basic deformations of a line element at the committed state: ub (elongation), and for a beam
 * the end rotations relative to the chord, th_i and th_j. */
static void basic_deformation(const hs_fe *fe, const fe_element *e, double ub[3])
{
    const fe_map *maps[FE_MAX_EDOF];
    double ug[6];
    fe_element_maps(fe, e, maps); /* 2-D line element: [ux uy rz]_i,j */
    for (int i = 0; i < 6; i++) ug[i] = fe_map_value(maps[i], fe->u_commit);
    ub[1] = ub[2] = 0.0;
    if (e->transf == HS_FE_COROTATIONAL) {
        const double dx = e->L * e->c + ug[3] - ug[0], dy = e->L * e->s + ug[4] - ug[1];
        const double Ln = sqrt(dx * dx + dy * dy), c = dx / Ln, s = dy / Ln;
        const double rot = atan2(e->c * s - e->s * c, e->c * c + e->s * s);
        ub[0] = Ln - e->L;
        if (e->kind == FE_BEAM) {
            ub[1] = ug[2] - rot;
            ub[2] = ug[5] - rot;
        }
        return;
    }
    /* linear and P-Delta: small displacements in the element's initial axes */
    const double ui = e->c * ug[0] + e->s * ug[1], uj = e->c * ug[3] + e->s * ug[4];
    const double vi = -e->s * ug[0] + e->c * ug[1], vj = -e->s * ug[3] + e->c * ug[4];
    ub[0] = uj - ui;
    if (e->kind == FE_BEAM) {
        const double chord = (vj - vi) / e->L;
        ub[1] = ug[2] - chord;
        ub[2] = ug[5] - chord;
    }
}

int hs_fe_element_response(hs_fe *fe, int e, hs_fe_response r, double *out)
{
    fe_element *el = &fe->els[e];
    const int size = hs_fe_element_response_size(fe, e, r);
    if (size == 0) return HS_EINVAL;
    if (el->kind == FE_ZERO_LENGTH) { /* the material's committed force and deformation */
        const double s = hs_material_stress(el->mat);
        if (r == HS_FE_GLOBAL_FORCE) {
            memset(out, 0, 6 * sizeof(double));
            out[el->dir] = -s;
            out[3 + el->dir] = s;
        } else {
            out[0] = r == HS_FE_BASIC_FORCE ? s : hs_material_strain(el->mat);
        }
        return 0;
    }
    if (el->kind == FE_LINK) return fe_link_response(el, r, out);
    if (r == HS_FE_GLOBAL_FORCE) { /* the element's own resisting force (P-Delta included) */
        const fe_map *maps[FE_MAX_EDOF];
        fe_element_maps(fe, el, maps);
        return fe_element_state(fe, el, maps, fe->u_commit, NULL, 0, out, NULL, NULL);
    }
    double ub[3];
    basic_deformation(fe, el, ub);
    if (r == HS_FE_DEFORMATION) {
        memcpy(out, ub, (size_t)size * sizeof(double));
        return 0;
    }
    if (r == HS_FE_STRAIN) {
        out[0] = ub[0] / el->L;
        return 0;
    }
    const double ei = el->E * el->I / el->L;
    const double q[3] = {el->E * el->A / el->L * ub[0], ei * (4.0 * ub[1] + 2.0 * ub[2]),
                         ei * (2.0 * ub[1] + 4.0 * ub[2])};
    if (r == HS_FE_BASIC_FORCE) {
        memcpy(out, q, (size_t)size * sizeof(double));
        return 0;
    }
    /* local end forces from the basic ones (OpenSees' localForce): [-N, V, M_i, N, -V, M_j] */
    const double V = (q[1] + q[2]) / el->L;
    const double loc[6] = {0.0 - q[0], V, q[1], q[0], 0.0 - V, q[2]}; /* 0 - x: no -0 */
    memcpy(out, loc, sizeof loc);
    return 0;
}

int hs_fe_reaction(hs_fe *fe, int id, int dof, double *out)
{
    int k = -1;
    for (int i = 0; i < fe->nnodes; i++)
        if (fe->nodes[i].id == id) k = i;
    if (k < 0 || dof < 0 || dof >= fe->ndf) return HS_FE_NO_NODE;
    if (fe->ndm != 2 || fe->ndf != 3) return HS_EINVAL; /* element forces of 2-D frames only */
    if (!fe->nodes[k].fix[dof]) return HS_EINVAL;       /* not a support */
    double sum = 0.0;
    for (int e = 0; e < fe->nels; e++) {
        const fe_element *el = &fe->els[e];
        if (el->ni != k && el->nj != k) continue;
        double f[6];
        const int rc = hs_fe_element_response(fe, e, HS_FE_GLOBAL_FORCE, f);
        if (rc) return rc;
        if (el->ni == k) sum += f[dof];
        if (el->nj == k) sum += f[3 + dof];
    }
    *out = sum;
    return 0;
}
