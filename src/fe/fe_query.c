/* Queries of the committed state for recorders (docs/outputs.md, "Recorders"): every retained
 * DOF's displacement, velocity and acceleration from the dynamic DOFs' (the condensed ones through
 * the condensation's tangent), element forces and deformations in OpenSees' terms (global end
 * forces, local end forces, basic forces and deformations), and reactions at fixed DOFs. Nothing
 * here allocates. */
#include "fe_beamcolumn.h"
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

_Static_assert(HS_FE_MAP_TERMS == FE_MAX_TERMS, "a node map has the model's terms");

int hs_fe_node_map(const hs_fe *fe, int id, int dof, hs_fe_dof_map *out)
{
    const int k = fe_node_index(fe, id);
    if (k < 0 || dof < 0 || dof >= fe->ndf) return HS_FE_NO_NODE;
    const fe_map *m = &fe->nodes[k].map[dof];
    memset(out, 0, sizeof *out);
    if (m->n && m->eq[0] >= fe->neq) return 0; /* a moving support: no equation (empty map) */
    out->n = m->n;
    for (int t = 0; t < m->n; t++) {
        out->eq[t] = m->eq[t];
        out->c[t] = m->c[t];
    }
    return 0;
}

double hs_fe_map_value(const hs_fe_dof_map *m, const double *u)
{
    double s = 0.0;
    for (int t = 0; t < m->n; t++) s += m->c[t] * u[m->eq[t]];
    return s;
}

int hs_fe_node_fixed(const hs_fe *fe, int id, int dof)
{
    const int k = fe_node_index(fe, id);
    if (k < 0 || dof < 0 || dof >= fe->ndf) return HS_FE_NO_NODE;
    return fe->nodes[k].fix[dof] != 0;
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
    static const char *const kinds[] = {
        "truss",       "elastic_beam",        "zero_length",        "two_node_link",
        "beam_column", "zero_length_section", "coupled_zero_length"};
    return kinds[fe->els[e].kind];
}

int hs_fe_element_dof(const hs_fe *fe, int e)
{
    return fe->els[e].kind == FE_ZERO_LENGTH ? fe->els[e].dir : -1;
}

int hs_fe_spring_columns(const hs_fe *fe, int max, int *el, int *comp)
{
    int count = 0;
    for (int e = 0; e < fe->nels; e++) {
        const fe_kind kind = fe->els[e].kind;
        if (kind != FE_ZERO_LENGTH && kind != FE_LINK) continue;
        const int ndir =
            kind == FE_LINK ? hs_fe_element_response_size(fe, e, HS_FE_DEFORMATION) : 1;
        for (int k = 0; k < ndir; k++, count++) {
            if (count >= max) continue;
            if (el) el[count] = e;
            if (comp) comp[count] = k;
        }
    }
    return count;
}

/* The element's DOF (in fe_element_maps' layout) of node DOF d: zero-length elements carry the
 * nodes' ndf DOFs; 2-D line elements [ux uy rz]; 3-D ones [ux uy uz rx ry rz]. */
static int element_slot(const hs_fe *fe, const fe_element *e, int d)
{
    if (e->kind == FE_ZERO_LENGTH || e->kind == FE_COUPLED_ZERO_LENGTH) return d;
    const int code = fe->dof_code[d];
    return fe->ndm == 3 ? code : code == FE_CRZ ? 2 : code;
}

int hs_fe_element_response_size(const hs_fe *fe, int e, hs_fe_response r)
{
    const fe_kind kind = fe->els[e].kind;
    hs_material *mats[FE_MAX_MATS];
    const int three = fe->ndm == 3;
    /* a corotational 3-D beam's basic system turns with its nodes (fe_corot3d.c): only its global
     * end forces are recorded */
    const int corot3 = three && kind == FE_BEAM && fe->els[e].transf == HS_FE_COROTATIONAL;
    if (corot3 && r != HS_FE_GLOBAL_FORCE) return 0;
    if (kind == FE_ZERO_LENGTH_SECTION) /* its section's resultants and deformations */
        return r == HS_FE_GLOBAL_FORCE                            ? 2 * fe->ndf
               : r == HS_FE_BASIC_FORCE || r == HS_FE_DEFORMATION ? fe->els[e].sec->order
                                                                  : 0;
    if (kind == FE_TFP_X) return fe_tfpx_response_size(r);
    if (r == HS_FE_TFP_COMP_DISPLACEMENT || r == HS_FE_TFP_PARAMETERS) return 0;
    if (kind == FE_COUPLED_ZERO_LENGTH) /* its material's force and deformation */
        return r == HS_FE_GLOBAL_FORCE                            ? 2 * fe->ndf
               : r == HS_FE_BASIC_FORCE || r == HS_FE_DEFORMATION ? 1
                                                                  : 0;
    if (kind == FE_BEAM_COLUMN) /* beam-columns with sections (fe_beamcolumn.h) */
        return r == HS_FE_GLOBAL_FORCE  ? 2 * fe->ndf
               : r == HS_FE_LOCAL_FORCE ? (three ? 12 : 6)
               : r == HS_FE_STRAIN      ? 0
                                        : fe->els[e].bc->nq;
    switch (r) {
    case HS_FE_GLOBAL_FORCE:
        return 2 * fe->ndf;
    case HS_FE_LOCAL_FORCE:
        return kind == FE_ZERO_LENGTH ? 0 : kind == FE_LINK ? 2 * fe->ndf : three ? 12 : 6;
    case HS_FE_BASIC_FORCE:
    case HS_FE_DEFORMATION:
        return kind == FE_BEAM   ? (three ? 6 : 3)
               : kind == FE_LINK ? fe_link_materials(&fe->els[e], mats)
                                 : 1;
    case HS_FE_STRAIN:
        return kind == FE_TRUSS ? 1 : 0;
    case HS_FE_TFP_COMP_DISPLACEMENT:
    case HS_FE_TFP_PARAMETERS:
        return 0;
    }
    return 0;
}

/* The committed displacements of the element's DOFs (fe_element_maps' layout). */
static int element_displacements(const hs_fe *fe, const fe_element *e, double ug[FE_MAX_EDOF])
{
    const fe_map *maps[FE_MAX_EDOF];
    const int nde = fe_element_maps(fe, e, maps);
    for (int i = 0; i < nde; i++) ug[i] = fe_map_value(maps[i], fe->u_commit);
    return nde;
}

/* Basic deformations of a 1-D or 2-D line element at the committed state: ub (elongation), and
 * for a beam the end rotations relative to the chord, th_i and th_j. */
static void basic_deformation(const hs_fe *fe, const fe_element *e, double ub[3])
{
    double ug[FE_MAX_EDOF];
    element_displacements(fe, e, ug); /* [ux uy rz]_i,j */
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

/* Basic deformations ub and forces q of a line element (their count). */
static int basic_state(const hs_fe *fe, const fe_element *el, double ub[6], double q[6])
{
    if (fe->ndm == 3) {
        double ug[FE_MAX_EDOF];
        element_displacements(fe, el, ug);
        return fe3d_basic(el, ug, ub, q);
    }
    basic_deformation(fe, el, ub);
    const double ei = el->E * el->I / el->L;
    double kb[4], q0[3] = {0}, p0[3] = {0};
    fe_release_kb(el->release_z, kb);
    if (el->kind == FE_BEAM) fe_ml_fixed_end(el, 2, q0, p0);
    q[0] = el->E * el->A / el->L * ub[0] + q0[0];
    q[1] = ei * (kb[0] * ub[1] + kb[1] * ub[2]) + q0[1];
    q[2] = ei * (kb[2] * ub[1] + kb[3] * ub[2]) + q0[2];
    return el->kind == FE_BEAM ? 3 : 1;
}

/* Local end forces from the basic ones (OpenSees' localForce of ElasticBeam2d / 3d): 2-D
 * [-N, V, M_i, N, -V, M_j] with V = (M_i + M_j) / L; 3-D [N Vy Vz T My Mz]_i,j with the shear
 * along y from the moments about z and the shear along z from those about y. 0 - x: no -0. */
static void local_force(const hs_fe *fe, const fe_element *el, const double q[6], double *out)
{
    if (el->kind == FE_BEAM && el->nml) { /* with the member loads' reactions */
        double p0[5] = {0};
        fe_ml_reactions(el, fe->ndm, p0);
        memset(out, 0, (size_t)(fe->ndm == 3 ? 12 : 6) * sizeof(double));
        if (fe->ndm == 3)
            fe_ml_local_3d(el->L, q, p0, out);
        else
            fe_ml_local_2d(el->L, q, p0, out);
        return;
    }
    if (fe->ndm != 3) {
        const double V = el->kind == FE_BEAM ? (q[1] + q[2]) / el->L : 0.0;
        const double loc[6] = {0.0 - q[0], V,       el->kind == FE_BEAM ? q[1] : 0.0,
                               q[0],       0.0 - V, el->kind == FE_BEAM ? q[2] : 0.0};
        memcpy(out, loc, sizeof loc);
        return;
    }
    memset(out, 0, 12 * sizeof(double));
    out[0] = 0.0 - q[0];
    out[6] = q[0];
    if (el->kind != FE_BEAM) return;
    const double Vy = (q[1] + q[2]) / el->L, Vz = (q[3] + q[4]) / el->L;
    out[1] = Vy, out[7] = 0.0 - Vy;
    out[2] = 0.0 - Vz, out[8] = Vz;
    out[3] = 0.0 - q[5], out[9] = q[5];
    out[4] = q[3], out[10] = q[4];
    out[5] = q[1], out[11] = q[2];
}

int hs_fe_element_response(hs_fe *fe, int e, hs_fe_response r, double *out)
{
    fe_element *el = &fe->els[e];
    const int size = hs_fe_element_response_size(fe, e, r), ndf = fe->ndf;
    if (size == 0) return HS_EINVAL;
    if (el->kind == FE_ZERO_LENGTH) { /* the material's committed force and deformation */
        const double s = hs_material_stress(el->mat);
        if (r == HS_FE_GLOBAL_FORCE) {
            memset(out, 0, (size_t)size * sizeof(double));
            out[el->dir] = -s;
            out[ndf + el->dir] = s;
        } else {
            out[0] = r == HS_FE_BASIC_FORCE ? s : hs_material_strain(el->mat);
        }
        return 0;
    }
    if (el->kind == FE_TRUSS && el->mat) return fe_truss_response(fe, el, r, out);
    if (el->kind == FE_COUPLED_ZERO_LENGTH) return fe_czl_response(fe, el, r, out);
    if (el->kind == FE_TFP_X) return fe_tfpx_response(el, r, out);
    if (el->kind == FE_ZERO_LENGTH_SECTION && r != HS_FE_GLOBAL_FORCE) {
        const fe_section *s = el->sec; /* committed: its trial after the commit */
        memcpy(out, r == HS_FE_DEFORMATION ? s->e : s->s, (size_t)s->order * sizeof(double));
        return 0;
    }
    if (el->kind == FE_BEAM_COLUMN && r != HS_FE_GLOBAL_FORCE) {
        /* the committed basic system; local forces as OpenSees' ForceBeamColumn2d and
         * DispBeamColumn2d give them: [-N, V, M_i, N, -V, M_j], V = (M_i + M_j) / L; 3-D as
         * ForceBeamColumn3d::getResponse: [-N, Vy, -Vz, -T, My_i, Mz_i, N, -Vy, Vz, T, My_j,
         * Mz_j], Vy = (Mz_i + Mz_j) / L, Vz = (My_i + My_j) / L */
        const fe_bc2d *bc = el->bc;
        const double *q = bc->q_c;
        if (r == HS_FE_LOCAL_FORCE && el->nml) { /* with the member loads' reactions */
            double p0[5] = {0};
            fe_ml_reactions(el, fe->ndm, p0);
            memset(out, 0, (size_t)size * sizeof(double));
            if (bc->nq == 6)
                fe_ml_local_3d(bc->L, q, p0, out);
            else
                fe_ml_local_2d(bc->L, q, p0, out);
            return 0;
        }
        if (r == HS_FE_DEFORMATION) {
            memcpy(out, bc->v_c, (size_t)bc->nq * sizeof(double));
        } else if (r == HS_FE_BASIC_FORCE) {
            memcpy(out, q, (size_t)bc->nq * sizeof(double));
        } else if (bc->nq == 6) {
            const double Vy = (q[1] + q[2]) / bc->L, Vz = (q[3] + q[4]) / bc->L;
            const double loc[12] = {0.0 - q[0], Vy,       0.0 - Vz, 0.0 - q[5], q[3], q[1],
                                    q[0],       0.0 - Vy, Vz,       q[5],       q[4], q[2]};
            memcpy(out, loc, sizeof loc);
        } else {
            const double V = (bc->q_c[1] + bc->q_c[2]) / bc->L;
            const double loc[6] = {0.0 - bc->q_c[0], V,       bc->q_c[1],
                                   bc->q_c[0],       0.0 - V, bc->q_c[2]};
            memcpy(out, loc, sizeof loc);
        }
        return 0;
    }
    const int link_ends =
        el->kind == FE_LINK && (r == HS_FE_GLOBAL_FORCE || r == HS_FE_LOCAL_FORCE);
    if (el->kind == FE_LINK && !link_ends) return fe_link_response(el, r, out);
    if (r == HS_FE_GLOBAL_FORCE || link_ends) { /* its own resisting force (P-Delta included) */
        const fe_map *maps[FE_MAX_EDOF];
        double f[FE_MAX_EDOF];
        fe_element_maps(fe, el, maps);
        const int rc = r == HS_FE_GLOBAL_FORCE && fe_moved_force(fe, el, f) ? 0
                       : el->kind == FE_LINK /* its materials' committed forces */
                           ? fe_link_response(el, r, f)
                           : fe_element_state(fe, el, maps, fe->u_commit, NULL, 0, f, NULL, NULL);
        if (rc) return rc;
        const int per = fe->ndm == 3 ? 6 : 3;
        for (int d = 0; d < ndf; d++) { /* the element's layout -> ndf values per node */
            const int k = element_slot(fe, el, d);
            out[d] = f[k];
            out[ndf + d] = f[per + k];
        }
        return 0;
    }
    double ub[6], q[6];
    const int nb = basic_state(fe, el, ub, q);
    if (r == HS_FE_DEFORMATION)
        memcpy(out, ub, (size_t)nb * sizeof(double));
    else if (r == HS_FE_STRAIN)
        out[0] = ub[0] / el->L;
    else if (r == HS_FE_BASIC_FORCE)
        memcpy(out, q, (size_t)nb * sizeof(double));
    else
        local_force(fe, el, q, out);
    return 0;
}

int hs_fe_reaction(hs_fe *fe, int id, int dof, double *out)
{
    const int k = fe_node_index(fe, id);
    if (k < 0 || dof < 0 || dof >= fe->ndf) return HS_FE_NO_NODE;
    if (!fe->nodes[k].fix[dof]) return HS_EINVAL; /* not a support */
    double sum = 0.0, f[2 * FE_MAX_NDF];
    for (int e = 0; e < fe->nels; e++) {
        const fe_element *el = &fe->els[e];
        if (el->ni != k && el->nj != k) continue;
        const int rc = hs_fe_element_response(fe, e, HS_FE_GLOBAL_FORCE, f);
        if (rc) return rc;
        if (el->ni == k) sum += f[dof];
        if (el->nj == k) sum += f[fe->ndf + dof];
    }
    *out = sum;
    return 0;
}

int hs_fe_section_response(const hs_fe *fe, int e, int point, int deformation, double *out, int cap)
{
    if (e < 0 || e >= fe->nels) return HS_EINVAL;
    const fe_element *el = &fe->els[e];
    const fe_section *s = NULL; /* committed: its trial after the commit */
    if (el->kind == FE_ZERO_LENGTH_SECTION && point == 1) s = el->sec;
    if (el->kind == FE_BEAM_COLUMN && point >= 1 && point <= el->bc->bi.n)
        s = el->bc->sec[point - 1];
    if (!s) return HS_EINVAL;
    const double *v = deformation ? s->e : s->s;
    const int n = s->order < cap ? s->order : cap;
    memcpy(out, v, (size_t)n * sizeof(double));
    return n;
}
