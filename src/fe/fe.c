/* The frame model's definition: dimension, nodes, fixities, masses, elements, and the numbering of
 * the DOFs into fixed, constrained (fe_constraints.c), dynamic (with mass) and condensed. */
#include "fe_impl.h"
#include "fe_section.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const CODE_NAME[6] = {"ux", "uy", "uz", "rx", "ry", "rz"};

const char *fe_dof_label(const hs_fe *fe, int d)
{
    return d >= 0 && d < fe->ndf ? CODE_NAME[fe->dof_code[d]] : "?";
}

const char *hs_fe_dir_name(const hs_fe *fe, int dir)
{
    return fe_dof_label(fe, dir);
}

/* The spatial codes of the node DOFs for each (ndm, ndf) (OpenSees' DOF order). */
static int dof_codes(int ndm, int ndf, int codes[FE_MAX_NDF])
{
    static const int D11[] = {FE_CX}, D22[] = {FE_CX, FE_CY}, D23[] = {FE_CX, FE_CY, FE_CRZ},
                     D33[] = {FE_CX, FE_CY, FE_CZ},
                     D36[] = {FE_CX, FE_CY, FE_CZ, FE_CRX, FE_CRY, FE_CRZ};
    const int *c = ndm == 1 && ndf == 1   ? D11
                   : ndm == 2 && ndf == 2 ? D22
                   : ndm == 2 && ndf == 3 ? D23
                   : ndm == 3 && ndf == 3 ? D33
                   : ndm == 3 && ndf == 6 ? D36
                                          : NULL;
    if (!c) return -1;
    for (int d = 0; d < ndf; d++) codes[d] = c[d];
    return 0;
}

int hs_fe_create(hs_ctx *ctx, hs_fe **out)
{
    hs_fe *fe = hs_calloc(1, sizeof *fe);
    if (!fe) return HS_ENOMEM;
    fe->ctx = ctx;
    *out = fe;
    return hs_fe_set_dimension(fe, 2, 3);
}

int hs_fe_set_dimension(hs_fe *fe, int ndm, int ndf)
{
    if (fe->nnodes > 0 || fe->finalized)
        return hs_fail(fe->ctx, HS_EINVAL,
                       "frame model: the dimension (ndm, ndf) is set before the first node");
    int codes[FE_MAX_NDF];
    if (dof_codes(ndm, ndf, codes))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "frame model: ndm %d with ndf %d is not a model hysim knows; use ndm 1 "
                       "with ndf 1, ndm 2 with ndf 3 (or 2, trusses only), ndm 3 with ndf 6 (or 3, "
                       "trusses only)",
                       ndm, ndf);
    fe->ndm = ndm;
    fe->ndf = ndf;
    for (int c = 0; c < 6; c++) fe->code_dof[c] = -1;
    for (int d = 0; d < ndf; d++) {
        fe->dof_code[d] = codes[d];
        fe->code_dof[codes[d]] = d;
    }
    return 0;
}

int hs_fe_ndm(const hs_fe *fe)
{
    return fe->ndm;
}
int hs_fe_ndf(const hs_fe *fe)
{
    return fe->ndf;
}

void hs_fe_destroy(hs_fe **pfe)
{
    if (!pfe || !*pfe) return;
    hs_fe *fe = *pfe;
    for (int e = 0; e < fe->nels; e++) {
        hs_material_destroy(&fe->els[e].mat);
        fe_link_free(&fe->els[e]);
        fe_bc_element_free(&fe->els[e]);
        fe_zls_free(&fe->els[e]);
        fe_tfpx_free(&fe->els[e]);
        hs_free(fe->els[e].kg);
        hs_free(fe->els[e].ml);
    }
    hs_free(fe->els);
    fe_batch_scratch_destroy(&fe->batch_scratch); /* (after the elements' batches) */
    hs_free(fe->ml_el);
    hs_free(fe->ml_at);
    hs_free(fe->nodes);
    hs_free(fe->cons);
    hs_free(fe->eq_node);
    hs_free(fe->eq_dof);
    hs_free(fe->eq_dyn);
    hs_free(fe->dyn_eq);
    hs_free(fe->cond_eq);
    hs_free(fe->u);
    hs_free(fe->v);
    hs_free(fe->u_commit);
    hs_free(fe->u_moved);
    hs_free(fe->r_moved);
    hs_free(fe->r_eq);
    hs_free(fe->r_commit);
    hs_free(fe->K_eq);
    hs_free(fe->C_eq);
    hs_free(fe->K00);
    hs_free(fe->X);
    hs_free(fe->b);
    hs_free(fe->M);
    hs_free(fe->iota_fix);
    fe_support_free(fe);
    hs_linsolver_destroy(&fe->s0);
    hs_csc_destroy(&fe->Kpat);
    hs_free(fe->slot_off);
    hs_free(fe->slot_ke);
    hs_free(fe->slot_pos);
    hs_free(fe->slot_w);
    hs_free(fe->slot_eq);
    hs_free(fe->slot_run);
    hs_free(fe->slot_run_off);
    hs_csc_destroy(&fe->Kconst);
    hs_free(fe->var_els);
    hs_free(fe->var_pos);
    hs_free(fe->x_dyn);
    hs_free(fe);
    *pfe = NULL;
}

/* Room for count + 1 items: the array's room is the smallest power of two >= count, doubled
 * when full (a large frame's nodes and elements: O(n) copies, not O(n^2)). NULL: no memory (the
 * array is left as it was). */
static void *fe_grow(void *array, int count, size_t size)
{
    if (count > 0 && (count & (count - 1)) != 0) return array;
    return hs_realloc(array, (size_t)(count ? 2 * count : 1) * size);
}

int fe_node_index(const hs_fe *fe, int id)
{
    if (id >= 1 && id <= fe->nnodes && fe->nodes[id - 1].id == id)
        return id - 1; /* ids 1, 2, ... */
    for (int k = 0; k < fe->nnodes; k++)
        if (fe->nodes[k].id == id) return k;
    return -1;
}

int fe_defining(hs_fe *fe, const char *what)
{
    if (fe->finalized)
        return hs_fail(fe->ctx, HS_EINVAL, "frame model: %s after the model was finalized", what);
    return 0;
}

int fe_known_node(hs_fe *fe, int id, const char *what)
{
    const int k = fe_node_index(fe, id);
    if (k < 0)
        return hs_fail(fe->ctx, HS_EINPUT, "%s: no node %d (define it under nodes)", what, id);
    return k;
}

static int add_node(hs_fe *fe, int id, double x, double y, double z)
{
    int rc = fe_defining(fe, "a node");
    if (rc) return rc;
    if (id < 0) return hs_fail(fe->ctx, HS_EINPUT, "node: id must be >= 0 (got %d)", id);
    if (fe_node_index(fe, id) >= 0)
        return hs_fail(fe->ctx, HS_EINPUT, "node %d is defined twice", id);
    if (!isfinite(x) || !isfinite(y) || !isfinite(z))
        return hs_fail(fe->ctx, HS_EINPUT, "node %d: coordinates must be finite", id);
    fe_node *nodes = fe_grow(fe->nodes, fe->nnodes, sizeof *nodes);
    if (!nodes) return HS_ENOMEM;
    fe->nodes = nodes;
    fe_node *n = &nodes[fe->nnodes];
    memset(n, 0, sizeof *n);
    n->id = id;
    n->x = x;
    n->y = y;
    n->z = z;
    for (int d = 0; d < FE_MAX_NDF; d++) n->con[d] = n->eq[d] = n->sup[d] = -1;
    return fe->nnodes++;
}

int hs_fe_add_node(hs_fe *fe, int id, double x, double y)
{
    if (fe->ndm == 1 && y != 0.0)
        return hs_fail(fe->ctx, HS_EINPUT, "node %d: a 1-D model has only x (got y = %g)", id, y);
    return add_node(fe, id, x, y, 0.0);
}

int hs_fe_add_node_crd(hs_fe *fe, int id, const double *crd)
{
    return add_node(fe, id, crd[0], fe->ndm > 1 ? crd[1] : 0.0, fe->ndm > 2 ? crd[2] : 0.0);
}

int hs_fe_fix(hs_fe *fe, int id, const int *fix)
{
    int rc = fe_defining(fe, "a fixity");
    const int k = rc ? rc : fe_known_node(fe, id, "fix");
    if (k < 0) return k;
    for (int d = 0; d < fe->ndf; d++) fe->nodes[k].fix[d] = fix[d] != 0;
    return 0;
}

int hs_fe_add_mass(hs_fe *fe, int id, const double *m)
{
    int rc = fe_defining(fe, "a mass");
    const int k = rc ? rc : fe_known_node(fe, id, "mass");
    if (k < 0) return k;
    for (int d = 0; d < fe->ndf; d++)
        if (!(m[d] >= 0.0) || !isfinite(m[d]))
            return hs_fail(fe->ctx, HS_EINPUT, "mass of node %d %s must be >= 0 (got %g)", id,
                           fe_dof_label(fe, d), m[d]);
    for (int d = 0; d < fe->ndf; d++) fe->nodes[k].mass[d] += m[d];
    return 0;
}

fe_element *fe_new_element(hs_fe *fe, const char *name, int ni, int nj, int *rc)
{
    *rc = fe_defining(fe, "an element");
    if (*rc) return NULL;
    char what[64];
    snprintf(what, sizeof what, "element '%.32s'", name ? name : "?");
    const int ki = fe_known_node(fe, ni, what);
    const int kj = ki < 0 ? ki : fe_known_node(fe, nj, what);
    if (ki < 0 || kj < 0) {
        *rc = ki < 0 ? ki : kj;
        return NULL;
    }
    fe_element *els = fe_grow(fe->els, fe->nels, sizeof *els);
    if (!els) {
        *rc = HS_ENOMEM;
        return NULL;
    }
    fe->els = els;
    fe_element *e = &els[fe->nels];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name ? name : "element");
    e->ni = ki;
    e->nj = kj;
    return e;
}

/* 3-D section properties (G, J, Iy) and vecxz, or NULL for a truss and in 2-D. */
typedef struct line_3d {
    double G, J, Iy;
    const double *vecxz;
} line_3d;

static int line_element(hs_fe *fe, fe_kind kind, const char *name, int ni, int nj, double E,
                        double A, double I, hs_fe_transf transf, double P0, const line_3d *s3)
{
    int rc;
    const char *nm = name ? name : "?";
    if (kind == FE_BEAM && fe->code_dof[FE_CRZ] < 0)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': a beam-column needs rotations (ndf 3 in 2-D, 6 in 3-D); this "
                       "model has ndm %d, ndf %d",
                       nm, fe->ndm, fe->ndf);
    if (kind == FE_BEAM && (fe->ndm == 3) != (s3 != NULL))
        return hs_fail(fe->ctx, HS_EINPUT,
                       fe->ndm == 3 ? "element '%s': a 3-D beam-column takes E, G, A, J, Iy, Iz "
                                      "and vecxz (hs_fe_add_beam_3d)"
                                    : "element '%s': a 3-D beam-column in a %d-D model",
                       nm, fe->ndm);
    fe_element *e = fe_new_element(fe, name, ni, nj, &rc);
    if (!e) return rc;
    const fe_node *a = &fe->nodes[e->ni], *b = &fe->nodes[e->nj];
    const double dx = b->x - a->x, dy = b->y - a->y, dz = b->z - a->z;
    const double L = fe->ndm == 3 ? sqrt(dx * dx + dy * dy + dz * dz) : sqrt(dx * dx + dy * dy);
    if (!(L > 0.0))
        return hs_fail(fe->ctx, HS_EINPUT, "element '%s': nodes %d and %d coincide (length 0)",
                       e->name, a->id, b->id);
    if (!(E > 0.0) || !(A > 0.0) || !(I >= 0.0) || (kind == FE_BEAM && !(I > 0.0)))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': E, A%s must be > 0 (got E = %g, A = %g, I%s = %g)", e->name,
                       kind != FE_BEAM ? ""
                       : s3            ? ", Iz"
                                       : " and I",
                       E, A, s3 ? "z" : "", I);
    if (s3 && (!(s3->G > 0.0) || !(s3->J > 0.0) || !(s3->Iy > 0.0)))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': G, J and Iy must be > 0 (got G = %g, J = %g, Iy = %g)",
                       e->name, s3->G, s3->J, s3->Iy);
    if (!(P0 >= 0.0))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': axial_compression must be >= 0 (got %g; compression is "
                       "positive)",
                       e->name, P0);
    e->kind = kind;
    e->E = E;
    e->A = A;
    e->I = kind == FE_BEAM ? I : 0.0;
    e->L = L;
    e->c = dx / L;
    e->s = dy / L;
    e->transf = transf;
    e->P0 = P0;
    if (s3) {
        e->G = s3->G;
        e->J = s3->J;
        e->Iy = s3->Iy;
    }
    if (fe->ndm == 3 && (rc = fe3d_line_init(fe, e, s3 ? s3->vecxz : NULL)) != 0) return rc;
    if (L > fe->lref) fe->lref = L;
    return fe->nels++;
}

void hs_fe_set_clock(hs_fe *fe, double t, double dt)
{
    fe->clock_t = t;
    fe->clock_dt = dt;
}

int hs_fe_add_truss(hs_fe *fe, const char *name, int ni, int nj, double E, double A,
                    hs_fe_transf transf, double axial_compression)
{
    return line_element(fe, FE_TRUSS, name, ni, nj, E, A, 0.0, transf, axial_compression, NULL);
}

int hs_fe_add_truss_material(hs_fe *fe, const char *name, int ni, int nj, double A,
                             hs_fe_transf transf, const char *mat_type, const hs_options *mat_opts)
{
    /* E = 1 passes the checks of the elastic truss; the material gives the stiffness */
    const int k = line_element(fe, FE_TRUSS, name, ni, nj, 1.0, A, 0.0, transf, 0.0, NULL);
    if (k < 0) return k;
    fe_element *e = &fe->els[k];
    const int rc = hs_material_create(fe->ctx, mat_type, mat_opts, &e->mat);
    if (rc) return hs_fail(fe->ctx, rc, "element '%s': %s", e->name, hs_ctx_message(fe->ctx));
    e->E = hs_material_initial_tangent(e->mat);
    return k;
}

int hs_fe_add_beam(hs_fe *fe, const char *name, int ni, int nj, double E, double A, double I,
                   hs_fe_transf transf, double axial_compression)
{
    return line_element(fe, FE_BEAM, name, ni, nj, E, A, I, transf, axial_compression, NULL);
}

int hs_fe_add_beam_3d(hs_fe *fe, const char *name, int ni, int nj, const hs_fe_section_3d *sec,
                      const double vecxz[3], hs_fe_transf transf, double axial_compression)
{
    const line_3d s3 = {sec->G, sec->J, sec->Iy, vecxz};
    return line_element(fe, FE_BEAM, name, ni, nj, sec->E, sec->A, sec->Iz, transf,
                        axial_compression, &s3);
}

int hs_fe_add_zero_length(hs_fe *fe, const char *name, int ni, int nj, int dir,
                          const char *mat_type, const hs_options *mat_opts)
{
    if (dir < 0 || dir >= fe->ndf)
        return hs_fail(fe->ctx, HS_EINPUT, "element '%s': dir must be a DOF of the node (0 to %d)",
                       name ? name : "?", fe->ndf - 1);
    if (ni == nj)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': a zero-length element joins two different nodes (both %d)",
                       name ? name : "?", ni);
    int rc;
    fe_element *e = fe_new_element(fe, name, ni, nj, &rc);
    if (!e) return rc;
    rc = hs_material_create(fe->ctx, mat_type, mat_opts, &e->mat);
    if (rc) return hs_fail(fe->ctx, rc, "element '%s': %s", e->name, hs_ctx_message(fe->ctx));
    e->kind = FE_ZERO_LENGTH;
    e->dir = dir;
    return fe->nels++;
}

static int alloc_work(hs_fe *fe)
{
    const size_t q = (size_t)fe->neq, n = (size_t)fe->n, n0 = (size_t)fe->n0;
    fe->eq_node = hs_calloc(q, sizeof(int));
    fe->eq_dof = hs_calloc(q, sizeof(int));
    fe->eq_dyn = hs_calloc(q, sizeof(int));
    fe->dyn_eq = hs_calloc(n, sizeof(int));
    fe->cond_eq = hs_calloc(n0 ? n0 : 1, sizeof(int));
    fe->u = hs_dvec(q);
    fe->v = hs_dvec(q);
    fe->u_commit = hs_dvec(q);
    fe->r_eq = hs_dvec(q);
    fe->r_commit = hs_dvec(n);
    fe->K00 = hs_dvec(n0 * n0 + 1);
    fe->X = hs_dvec(n0 * n + 1);
    fe->b = hs_dvec(n0 + 1);
    if (!fe->eq_node || !fe->eq_dof || !fe->eq_dyn || !fe->dyn_eq || !fe->cond_eq || !fe->u ||
        !fe->v || !fe->u_commit || !fe->r_eq || !fe->r_commit || !fe->K00 || !fe->X || !fe->b)
        return HS_ENOMEM;
    if (n0) return hs_linsolver_create(fe->ctx, "dense", fe->n0, &fe->s0);
    return 0;
}

/* The mass of equation q in Meq (its neq diagonal values, or neq x neq). */
static double meq_diag(const double *Meq, int neq, int diag, int q)
{
    return diag ? Meq[q] : HS_AT(Meq, neq, q, q);
}

int hs_fe_keep_dof(hs_fe *fe, int id, int dir)
{
    int rc = fe_defining(fe, "a kept DOF");
    const int k = rc ? rc : fe_known_node(fe, id, "keep");
    if (k < 0) return k;
    if (dir < 0 || dir >= fe->ndf)
        return hs_fail(fe->ctx, HS_EINPUT, "node %d: no DOF %d to keep (ndf %d)", id, dir + 1,
                       fe->ndf);
    fe->nodes[k].keep[dir] = 1;
    return 0;
}

/* kept[q] = 1 for the equations of the DOFs hs_fe_keep_dof named: their own, or the terms of
 * their map (an equal_dof or rigid slave keeps what it follows). After fe_constraints_build. */
static void kept_equations(const hs_fe *fe, int *kept)
{
    for (int k = 0; k < fe->nnodes; k++)
        for (int d = 0; d < fe->ndf; d++) {
            const fe_node *nd = &fe->nodes[k];
            if (!nd->keep[d]) continue;
            for (int t = 0; t < nd->map[d].n; t++)
                if (nd->map[d].eq[t] < fe->neq) kept[nd->map[d].eq[t]] = 1;
        }
}

int hs_fe_finalize(hs_fe *fe)
{
    int rc = fe_defining(fe, "finalize");
    if (rc) return rc;
    if (fe->nnodes == 0) return hs_fail(fe->ctx, HS_EINPUT, "frame model: no nodes");
    /* Retained: free and not constrained, numbered in node order. */
    int neq = 0;
    for (int k = 0; k < fe->nnodes; k++)
        for (int d = 0; d < fe->ndf; d++) {
            fe_node *nd = &fe->nodes[k];
            if (!nd->fix[d] && nd->con[d] < 0) nd->eq[d] = neq++;
        }
    rc = fe_constraints_build(fe);
    if (rc) return rc;
    if (neq == 0) return hs_fail(fe->ctx, HS_EINPUT, "frame model: every DOF is fixed");
    /* Mass on the retained equations (T^T M T through the maps: nodal and element masses); a DOF
     * with a positive diagonal is dynamic */
    fe->neq = neq;
    const int diag = fe_mass_is_diagonal(fe);
    if (!diag && neq > HS_DENSE_MAX_DOFS) /* linalg.h: nothing n x n for large frames */
        return hs_fail(fe->ctx, HS_EUNSUPPORTED,
                       "frame model: a consistent element mass (cmass, -cMass) or an element mass "
                       "on rigid slaves couples the DOFs, which takes a dense mass matrix, and "
                       "this model has %d free DOFs (dense matrices up to %d); lump the masses on "
                       "the nodes",
                       neq, HS_DENSE_MAX_DOFS);
    double *Meq = hs_dvec(diag ? (size_t)neq : (size_t)neq * (size_t)neq);
    int *kept = hs_calloc((size_t)neq, sizeof *kept);
    if (!Meq || !kept) {
        hs_free(Meq);
        hs_free(kept);
        return HS_ENOMEM;
    }
    fe_mass_assemble(fe, Meq, diag, NULL, NULL);
    kept_equations(fe, kept);
    for (int q = 0; q < neq; q++) {
        const int has_mass = meq_diag(Meq, neq, diag, q) > 0.0;
        if (has_mass || kept[q])
            fe->n++;
        else
            fe->n0++;
        if (!has_mass && kept[q]) fe->nkept++;
    }
    if (fe->n == fe->nkept) {
        hs_free(Meq);
        hs_free(kept);
        return hs_fail(fe->ctx, HS_EINPUT,
                       "frame model: no free DOF carries mass; give masses to the nodes");
    }
    if (fe->n0 > 0 && neq > HS_DENSE_MAX_DOFS) {
        hs_free(Meq);
        hs_free(kept);
        return hs_fail(fe->ctx, HS_EUNSUPPORTED,
                       "frame model: %d of its %d free DOFs carry no mass and would be condensed, "
                       "which takes dense n x n matrices (up to %d DOFs); give every free DOF a "
                       "mass (the rotations a rotational inertia: mass [m, m, J])",
                       fe->n0, neq, HS_DENSE_MAX_DOFS);
    }
    if (fe->nkept > 0 && (!diag || neq > HS_DENSE_MAX_DOFS)) {
        hs_free(Meq);
        hs_free(kept);
        return hs_fail(fe->ctx, HS_EUNSUPPORTED,
                       "frame model: %d DOFs without mass are kept for experimental elements, "
                       "which takes a lumped mass (no consistent element mass) and dense "
                       "matrices (up to %d DOFs; this model has %d); lump the masses on the "
                       "nodes or give those DOFs a mass",
                       fe->nkept, HS_DENSE_MAX_DOFS, neq);
    }
    rc = alloc_work(fe);
    if (rc) {
        hs_free(Meq);
        hs_free(kept);
        return rc;
    }
    /* retained DOFs in node order: the mass decides dynamic or condensed */
    int i = 0, i0 = 0;
    for (int k = 0; k < fe->nnodes; k++)
        for (int d = 0; d < fe->ndf; d++) {
            const int q = fe->nodes[k].eq[d];
            if (q < 0) continue;
            fe->eq_node[q] = k;
            fe->eq_dof[q] = d;
            if (meq_diag(Meq, neq, diag, q) > 0.0 || kept[q]) {
                fe->eq_dyn[q] = i;
                fe->dyn_eq[i++] = q;
            } else {
                fe->eq_dyn[q] = -1;
                fe->cond_eq[i0++] = q;
            }
        }
    if (!rc) rc = fe_mass_finalize(fe, Meq, diag);
    hs_free(Meq);
    hs_free(kept);
    if (rc) return rc;
    fe->finalized = 1;
    fe_element_keep_maps(fe);
    /* Every condensed DOF needs stiffness: K00 must be regular. */
    if (fe->n0) {
        double *K = hs_dvec((size_t)fe->n * (size_t)fe->n);
        if (!K) return HS_ENOMEM;
        rc = hs_fe_initial_stiffness(fe, K);
        hs_free(K);
        if (rc) return rc;
    }
    return 0;
}

int hs_fe_ndof(const hs_fe *fe)
{
    return fe->n;
}
int hs_fe_kept_massless(const hs_fe *fe)
{
    return fe->nkept;
}
int hs_fe_condensed(const hs_fe *fe)
{
    return fe->n0;
}
int hs_fe_node_count(const hs_fe *fe)
{
    return fe->nnodes;
}
int hs_fe_node_id(const hs_fe *fe, int k)
{
    return fe->nodes[k].id;
}

int hs_fe_dof(const hs_fe *fe, int id, int dir)
{
    const int k = fe_node_index(fe, id);
    if (k < 0 || dir < 0 || dir >= fe->ndf) return HS_FE_NO_NODE;
    const fe_map *m = &fe->nodes[k].map[dir];
    if (m->n == 0 || m->eq[0] >= fe->neq) return HS_FE_FIXED; /* fixed, or a moving support */
    if (m->n > 1 || m->c[0] != 1.0) return HS_FE_CONSTRAINED;
    const int q = m->eq[0];
    return fe->eq_dyn[q] >= 0 ? fe->eq_dyn[q] : HS_FE_CONDENSED;
}

int hs_fe_dof_row(const hs_fe *fe, int id, int dir, double *row)
{
    const int k = fe_node_index(fe, id);
    if (k < 0 || dir < 0 || dir >= fe->ndf) return HS_FE_NO_NODE;
    const fe_map *m = &fe->nodes[k].map[dir];
    if (m->n == 0 || m->eq[0] >= fe->neq) return HS_FE_FIXED; /* fixed, or a moving support */
    for (int t = 0; t < m->n; t++)
        if (fe->eq_dyn[m->eq[t]] < 0) return HS_FE_CONDENSED;
    memset(row, 0, (size_t)fe->n * sizeof(double));
    for (int t = 0; t < m->n; t++) row[fe->eq_dyn[m->eq[t]]] += m->c[t];
    return 0;
}

const char *fe_eq_name(const hs_fe *fe, int q, char *buf, size_t cap)
{
    snprintf(buf, cap, "node %d %s", fe->nodes[fe->eq_node[q]].id, fe_dof_label(fe, fe->eq_dof[q]));
    return buf;
}

const char *hs_fe_dof_column(const hs_fe *fe, int i, char *buf, size_t cap)
{
    const int q = fe->dyn_eq[i];
    snprintf(buf, cap, "n%d_%s", fe->nodes[fe->eq_node[q]].id, fe_dof_label(fe, fe->eq_dof[q]));
    return buf;
}

void hs_fe_influence(const hs_fe *fe, int dir, double *iota)
{
    for (int i = 0; i < fe->n; i++) {
        iota[i] = fe->eq_dof[fe->dyn_eq[i]] == dir ? 1.0 : 0.0;
        /* consistent mass between the DOFs and the supports: M iota = M_ff iota_f + M_fs iota_s */
        const int code = dir >= 0 && dir < fe->ndf ? fe->dof_code[dir] : -1;
        if (fe->iota_fix && code >= FE_CX && code <= FE_CZ)
            iota[i] += fe->iota_fix[(size_t)code * (size_t)fe->n + (size_t)i];
    }
}

int hs_fe_is_linear(const hs_fe *fe)
{
    for (int e = 0; e < fe->nels; e++) {
        const fe_element *el = &fe->els[e];
        hs_material *mats[FE_MAX_MATS];
        for (int k = fe_element_materials(el, mats) - 1; k >= 0; k--)
            if (!hs_material_is_linear(mats[k])) return 0;
        if (el->transf != HS_FE_LINEAR || el->bc || el->kind == FE_TFP_X) return 0;
        if (fe_link_given_k(el)) return 0; /* its tangent is not its force's derivative */
    }
    return 1;
}

int hs_fe_is_rate_dependent(const hs_fe *fe)
{
    for (int e = 0; e < fe->nels; e++) {
        hs_material *mats[FE_MAX_MATS];
        for (int k = fe_element_materials(&fe->els[e], mats) - 1; k >= 0; k--)
            if (hs_material_is_rate_dependent(mats[k])) return 1;
    }
    return 0;
}

double hs_fe_node_displacement(const hs_fe *fe, int id, int dir)
{
    const int k = fe_node_index(fe, id);
    if (k < 0 || dir < 0 || dir >= fe->ndf || !fe->finalized) return 0.0;
    return fe_map_value(&fe->nodes[k].map[dir], fe->u_commit);
}

double hs_fe_node_trial(const hs_fe *fe, int id, int dir, int order)
{
    const int k = fe_node_index(fe, id);
    if (k < 0 || dir < 0 || dir >= fe->ndf || !fe->finalized) return 0.0;
    return fe_map_value(&fe->nodes[k].map[dir], order ? fe->v : fe->u);
}

int hs_fe_element_count(const hs_fe *fe)
{
    return fe->nels;
}
const char *hs_fe_element_name(const hs_fe *fe, int e)
{
    return fe->els[e].name;
}
hs_material *hs_fe_element_material(const hs_fe *fe, int e)
{
    return hs_fe_element_material_at(fe, e, 0);
}
hs_material *hs_fe_element_material_at(const hs_fe *fe, int e, int k)
{
    hs_material *mats[FE_MAX_MATS];
    return k >= 0 && k < fe_element_materials(&fe->els[e], mats) ? mats[k] : NULL;
}
