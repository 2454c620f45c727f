/* The frame's matrices in compressed columns (issue 10, section 2): for a frame whose every free
 * DOF carries mass (no condensed DOF; docs/fe_model.md, "Large frames"). The pattern of the
 * stiffness over the dynamic DOFs is built once from the elements' DOF maps (u = T u_r), with a
 * slot list per element (for each pair of map terms: the entry of the element's matrix, its
 * weight c_i c_j and its place in the pattern), so that the per-step assembly adds T^T k T into
 * the values without a search and without allocating. */
#include "fe_impl.h"

#include <string.h>

/* The number of (row term, column term) pairs of an element's matrix: (sum of its maps' terms)^2.
 */
static size_t element_pairs(const hs_fe *fe, const fe_element *e)
{
    const fe_map *maps[FE_MAX_EDOF];
    const int nd = fe_element_maps(fe, e, maps);
    size_t terms = 0;
    for (int i = 0; i < nd; i++)
        for (int t = 0; t < maps[i]->n; t++) terms += maps[i]->eq[t] < fe->neq; /* no support */
    return terms * terms;
}

/* Calls visit(fe, at, entry of ke, dynamic row, dynamic column, weight, arg) for every term pair
 * of element k's matrix, at = at0, at0 + 1, ...: T^T k T, one term of each DOF's map at a time (as
 * the dense assembly). */
typedef void (*pair_visit)(hs_fe *fe, size_t at, int ke, int row, int col, double w, void *arg);
static void element_visit(hs_fe *fe, int k, size_t at, pair_visit visit, void *arg)
{
    const fe_map *maps[FE_MAX_EDOF];
    const int nd = fe_element_maps(fe, &fe->els[k], maps);
    const int q = fe->neq; /* terms >= q: moving supports (fe_support.c), no equation */
    for (int j = 0; j < nd; j++)
        for (int tj = 0; tj < maps[j]->n; tj++)
            for (int i = 0; maps[j]->eq[tj] < q && i < nd; i++)
                for (int ti = 0; ti < maps[i]->n; ti++)
                    if (maps[i]->eq[ti] < q)
                        visit(fe, at++, j * nd + i, fe->eq_dyn[maps[i]->eq[ti]],
                              fe->eq_dyn[maps[j]->eq[tj]], maps[i]->c[ti] * maps[j]->c[tj], arg);
}

typedef struct triplets {
    int *ti, *tj;
} triplets;

static void add_triplet(hs_fe *fe, size_t at, int ke, int row, int col, double w, void *arg)
{
    (void)fe, (void)ke, (void)w;
    triplets *t = arg;
    t->ti[at] = row;
    t->tj[at] = col;
}

static void add_slot(hs_fe *fe, size_t at, int ke, int row, int col, double w, void *arg)
{
    const hs_csc *P = arg;
    fe->slot_ke[at] = ke;
    fe->slot_w[at] = w;
    fe->slot_pos[at] = -1;
    for (int p = P->colptr[col]; p < P->colptr[col + 1]; p++)
        if (P->rowind[p] == row) fe->slot_pos[at] = p;
}

static int split_elements(hs_fe *fe);

#define SLOT_GENERAL (-2) /* slot_eq[0] of an element with a map of several terms or a weight */

/* Element k's equations into eq (FE_MAX_EDOF) when each of its maps is one term of weight 1
 * or none (-1: a support or no term), the assembly then adding its force and matrix entries without
 * the weights (a weight 1 changes no bit); eq[0] = SLOT_GENERAL otherwise. */
static void element_unit_eqs(const hs_fe *fe, int k, int *eq)
{
    const fe_map *maps[FE_MAX_EDOF];
    const int nd = fe_element_maps(fe, &fe->els[k], maps);
    for (int a = 0; a < FE_MAX_EDOF; a++) eq[a] = -1;
    for (int a = 0; a < nd; a++) { /* an empty map (a DOF the element lacks): none */
        if (maps[a]->n > 1 || (maps[a]->n == 1 && maps[a]->c[0] != 1.0)) {
            eq[0] = SLOT_GENERAL;
            return;
        }
        eq[a] = maps[a]->n == 1 && maps[a]->eq[0] < fe->neq ? maps[a]->eq[0] : -1;
    }
}

/* The (row, column) pairs of a nodal mass on a rigid slave (its map's terms pairwise, T^T m T)
 * into ti, tj from at (NULL: counted only); returns the next place. An element's mass couples its
 * own DOFs, which its stiffness already does, but a mass on a slave may have no element. */
static size_t slave_mass_pairs(const hs_fe *fe, size_t at, int *ti, int *tj)
{
    for (int k = 0; k < fe->nnodes; k++)
        for (int d = 0; d < fe->ndf; d++) {
            const fe_map *m = &fe->nodes[k].map[d];
            if (!(fe->nodes[k].mass[d] > 0.0) || m->n < 2) continue;
            for (int a = 0; a < m->n; a++)
                for (int b = 0; b < m->n; b++) {
                    if (m->eq[a] >= fe->neq || m->eq[b] >= fe->neq) continue;
                    if (ti) {
                        ti[at] = fe->eq_dyn[m->eq[a]];
                        tj[at] = fe->eq_dyn[m->eq[b]];
                    }
                    at++;
                }
        }
    return at;
}

/* Element k's slots from s as runs (place, entry, length) into run (NULL: counted only): the
 * slots whose places and entries both follow the slot before's. Returns the number of runs. */
static size_t element_runs(const hs_fe *fe, int k, int *run)
{
    size_t n = 0;
    for (size_t s = fe->slot_off[k], end = fe->slot_off[k + 1]; s < end; n++) {
        size_t e = s + 1;
        while (e < end && fe->slot_pos[e] == fe->slot_pos[e - 1] + 1 &&
               fe->slot_ke[e] == fe->slot_ke[e - 1] + 1)
            e++;
        if (run) {
            run[3 * n] = fe->slot_pos[s];
            run[3 * n + 1] = fe->slot_ke[s];
            run[3 * n + 2] = (int)(e - s);
        }
        s = e;
    }
    return n;
}

/* Every element's runs (element_runs), kept for the assembly. */
static int build_runs(hs_fe *fe)
{
    fe->slot_run_off = hs_calloc((size_t)fe->nels + 1, sizeof *fe->slot_run_off);
    if (!fe->slot_run_off) return hs_fail(fe->ctx, HS_ENOMEM, "frame model: out of memory");
    size_t total = 0;
    for (int k = 0; k < fe->nels; k++) {
        fe->slot_run_off[k] = total;
        total += element_runs(fe, k, NULL);
    }
    fe->slot_run_off[fe->nels] = total;
    fe->slot_run = hs_calloc(3 * total + 1, sizeof *fe->slot_run);
    if (!fe->slot_run) return hs_fail(fe->ctx, HS_ENOMEM, "frame model: out of memory");
    for (int k = 0; k < fe->nels; k++) element_runs(fe, k, fe->slot_run + 3 * fe->slot_run_off[k]);
    return 0;
}

static int build_pattern(hs_fe *fe)
{
    size_t total = 0;
    fe->slot_off = hs_calloc((size_t)fe->nels + 1, sizeof *fe->slot_off);
    if (!fe->slot_off) return hs_fail(fe->ctx, HS_ENOMEM, "frame model: out of memory");
    for (int k = 0; k < fe->nels; k++) {
        fe->slot_off[k] = total;
        total += element_pairs(fe, &fe->els[k]);
    }
    fe->slot_off[fe->nels] = total;
    const size_t cap = slave_mass_pairs(fe, total + (size_t)fe->n, NULL, NULL);
    triplets t = {hs_calloc(cap, sizeof(int)), hs_calloc(cap, sizeof(int))};
    fe->slot_ke = hs_calloc(total + 1, sizeof *fe->slot_ke);
    fe->slot_pos = hs_calloc(total + 1, sizeof *fe->slot_pos);
    fe->slot_w = hs_dvec(total + 1);
    fe->slot_eq = hs_calloc((size_t)fe->nels * FE_MAX_EDOF + 1, sizeof *fe->slot_eq);
    int rc = (!t.ti || !t.tj || !fe->slot_ke || !fe->slot_pos || !fe->slot_w || !fe->slot_eq)
                 ? hs_fail(fe->ctx, HS_ENOMEM, "frame model: out of memory")
                 : 0;
    if (!rc) {
        for (int k = 0; k < fe->nels; k++) element_visit(fe, k, fe->slot_off[k], add_triplet, &t);
        for (int i = 0; i < fe->n; i++) /* the diagonal: a DOF only a mass holds */
            t.ti[total + (size_t)i] = t.tj[total + (size_t)i] = i;
        slave_mass_pairs(fe, total + (size_t)fe->n, t.ti, t.tj);
        rc = hs_csc_from_triplets(fe->ctx, fe->n, fe->n, (int)cap, t.ti, t.tj, NULL, &fe->Kpat);
    }
    hs_free(t.ti);
    hs_free(t.tj);
    if (rc) return rc;
    for (int k = 0; k < fe->nels; k++) {
        element_visit(fe, k, fe->slot_off[k], add_slot, (void *)fe->Kpat);
        element_unit_eqs(fe, k, fe->slot_eq + (size_t)k * FE_MAX_EDOF);
    }
    return build_runs(fe);
}

int hs_fe_sparse_pattern(hs_fe *fe, const hs_csc **out)
{
    if (!fe->finalized) return hs_fail(fe->ctx, HS_EINVAL, "frame model: not finalized");
    if (fe->n0)
        return hs_fail(fe->ctx, HS_EUNSUPPORTED,
                       "frame model: %d massless DOFs are condensed, which needs dense matrices; "
                       "give every free DOF a mass (rotational mass at the joints) for the sparse "
                       "path (docs/fe_model.md, \"Large frames\")",
                       fe->n0);
    if (!fe->Kpat) {
        int rc = build_pattern(fe);
        if (!rc) rc = split_elements(fe);
        if (rc) return rc;
    }
    *out = fe->Kpat;
    return 0;
}

/* An element whose stiffness never changes (elastic truss or beam with the linear
 * transformation, fe_elements.c) and that no moving support drives. */
static int element_constant(hs_fe *fe, fe_element *e)
{
    if ((e->kind != FE_TRUSS && e->kind != FE_BEAM) || e->transf != HS_FE_LINEAR || e->mat ||
        e->link)
        return 0;
    const fe_map *maps[FE_MAX_EDOF];
    const int nd = fe_element_maps(fe, e, maps);
    for (int i = 0; i < nd; i++)
        for (int t = 0; t < maps[i]->n; t++)
            if (maps[i]->eq[t] >= fe->neq) return 0;
    double f[FE_MAX_EDOF], k[FE_MAX_EDOF * FE_MAX_EDOF];
    return fe_element_state(fe, e, maps, NULL, NULL, 1, f, k, NULL) == 0 && e->kg;
}

/* The constant elements summed once into Kconst (their force is then Kconst d, one product), the
 * others listed in var_els: a restore visits those only. */
static int split_elements(hs_fe *fe)
{
    const size_t nnz = (size_t)hs_csc_nnz(fe->Kpat);
    int rc = hs_csc_copy(fe->ctx, fe->Kpat, &fe->Kconst);
    if (rc) return rc;
    memset(fe->Kconst->val, 0, nnz * sizeof *fe->Kconst->val);
    fe->var_els = hs_calloc((size_t)fe->nels + 1, sizeof *fe->var_els);
    fe->x_dyn = hs_dvec(2 * (size_t)fe->n + 1);
    if (!fe->var_els || !fe->x_dyn)
        return hs_fail(fe->ctx, HS_ENOMEM, "frame model: out of memory");
    fe->nvar = 0;
    fe->rate_dependent = hs_fe_is_rate_dependent(fe);
    char *touched = hs_calloc(nnz + 1, 1);
    if (!touched) return hs_fail(fe->ctx, HS_ENOMEM, "frame model: out of memory");
    for (int k = 0; k < fe->nels; k++) {
        fe_element *e = &fe->els[k];
        const int constant = element_constant(fe, e);
        if (!constant) fe->var_els[fe->nvar++] = k;
        for (size_t s = fe->slot_off[k]; s < fe->slot_off[k + 1]; s++)
            if (constant)
                fe->Kconst->val[fe->slot_pos[s]] += fe->slot_w[s] * e->kg[fe->slot_ke[s]];
            else
                touched[fe->slot_pos[s]] = 1;
    }
    fe->Kconst_symmetric = hs_csc_is_symmetric(fe->Kconst);
    size_t nv = 0;
    for (size_t p = 0; p < nnz; p++) nv += touched[p] ? 1u : 0u;
    fe->var_pos = hs_calloc(nv + 1, sizeof *fe->var_pos);
    if (!fe->var_pos) {
        hs_free(touched);
        return hs_fail(fe->ctx, HS_ENOMEM, "frame model: out of memory");
    }
    fe->nvar_pos = 0;
    for (size_t p = 0; p < nnz; p++)
        if (touched[p]) fe->var_pos[fe->nvar_pos++] = (int)p;
    hs_free(touched);
    return 0;
}

/* Element k's matrix ke added into the slots of Kt when its weights are all 1 (slot_eq), run by
 * run (a node's DOFs are consecutive rows of a column: runs of 3 to 6 entries in 2-D). */
static void add_unit_slots(const hs_fe *fe, int k, const double *restrict ke, double *restrict Kt)
{
    const int *run = fe->slot_run + 3 * fe->slot_run_off[k],
              *end = fe->slot_run + 3 * fe->slot_run_off[k + 1];
    for (; run < end; run += 3) {
        double *restrict to = Kt + run[0];
        const double *restrict from = ke + run[1];
        for (int t = 0; t < run[2]; t++) to[t] += from[t];
    }
}

/* Every element's force into fe->r_eq and its matrices into the slots of Kt, Ct (values of
 * fe->Kpat, when not NULL) at fe->u, fe->v; `initial`: the initial tangent only. The constant
 * elements enter as Kconst: their force Kconst d, their tangent Kconst. */
static int sparse_assemble(hs_fe *fe, int initial, int var_only, double *Kt, double *Ct)
{
    memset(fe->r_eq, 0, (size_t)fe->neq * sizeof(double));
    if (!initial && fe->nvar < fe->nels) { /* some constant element: Kconst is not zero */
        const int n = fe->n;
        for (int i = 0; i < n; i++) fe->x_dyn[i] = fe->u[fe->dyn_eq[i]];
        double *y = fe->x_dyn + n; /* Kconst d over the dynamic DOFs */
        if (fe->Kconst_symmetric) {
            memset(y, 0, (size_t)n * sizeof *y);
            hs_csc_symmetric_matvec_add(fe->Kconst, fe->x_dyn, 1.0, y);
        } else {
            hs_csc_matvec(fe->Kconst, fe->x_dyn, y);
        }
        for (int i = 0; i < n; i++) fe->r_eq[fe->dyn_eq[i]] = y[i];
    }
    if (Kt && var_only)
        for (int q = 0; q < fe->nvar_pos; q++) Kt[fe->var_pos[q]] = fe->Kconst->val[fe->var_pos[q]];
    else if (Kt && fe->nvar == fe->nels) /* no constant element: Kconst is zero, not read */
        memset(Kt, 0, (size_t)hs_csc_nnz(fe->Kpat) * sizeof *Kt);
    else if (Kt)
        memcpy(Kt, fe->Kconst->val, (size_t)hs_csc_nnz(fe->Kpat) * sizeof *Kt);
    for (int v = 0; v < fe->nvar; v++) {
        const int k = fe->var_els[v];
        fe_element *e = &fe->els[k];
        const fe_map *own[FE_MAX_EDOF]; /* the maps kept at finalize are read in place */
        const int nd = e->nmaps ? e->nmaps : fe_element_maps(fe, e, own);
        const fe_map *const *maps = e->nmaps ? e->maps : own;
        double f[FE_MAX_EDOF] = {0}, ke[FE_MAX_EDOF * FE_MAX_EDOF], ce[FE_MAX_EDOF * FE_MAX_EDOF];
        int rc =
            fe_element_state(fe, e, maps, fe->u, fe->v, initial, f, Kt ? ke : NULL, Ct ? ce : NULL);
        if (rc) return rc;
        const int *eq = fe->slot_eq + (size_t)k * FE_MAX_EDOF;
        if (eq[0] == SLOT_GENERAL) {
            for (int a = 0; a < nd; a++)
                for (int t = 0; t < maps[a]->n; t++)
                    if (maps[a]->eq[t] < fe->neq) fe->r_eq[maps[a]->eq[t]] += maps[a]->c[t] * f[a];
        } else {
            for (int a = 0; a < nd; a++)
                if (eq[a] >= 0) fe->r_eq[eq[a]] += f[a];
        }
        if (Kt && !Ct && eq[0] != SLOT_GENERAL) {
            add_unit_slots(fe, k, ke, Kt);
            continue;
        }
        for (size_t s = fe->slot_off[k]; (Kt || Ct) && s < fe->slot_off[k + 1]; s++) {
            const int p = fe->slot_pos[s];
            if (Kt) Kt[p] += fe->slot_w[s] * ke[fe->slot_ke[s]];
            if (Ct) Ct[p] += fe->slot_w[s] * ce[fe->slot_ke[s]];
        }
    }
    return 0;
}

int hs_fe_initial_stiffness_sparse(hs_fe *fe, double *val)
{
    const hs_csc *P = NULL;
    const int rc = hs_fe_sparse_pattern(fe, &P);
    return rc ? rc : sparse_assemble(fe, 1, 0, val, NULL);
}

/* A restore on the sparse path; var_only: Kt and Ct written at var_pos only. */
static int restore_sparse(hs_fe *fe, const double *d, const double *v, double *r, double *Kt,
                          double *Ct, int var_only)
{
    if (!fe->Kpat || !fe->Kconst)
        return hs_fail(fe->ctx, HS_EINVAL, "frame model: the sparse pattern is not built");
    const int n = fe->n;
    fe->moved = 0; /* a restore: the elements are at the nodes again */
    for (int i = 0; i < n; i++) {
        fe->u[fe->dyn_eq[i]] = d[i];
        fe->v[fe->dyn_eq[i]] = v ? v[i] : 0.0;
    }
    if (Ct && !fe->rate_dependent) Ct = NULL;
    if (Ct && var_only)
        for (int q = 0; q < fe->nvar_pos; q++) Ct[fe->var_pos[q]] = 0.0;
    else if (Ct)
        memset(Ct, 0, (size_t)hs_csc_nnz(fe->Kpat) * sizeof *Ct);
    const int rc = sparse_assemble(fe, 0, var_only, Kt, Ct);
    if (rc) return rc;
    for (int i = 0; i < n; i++) r[i] = fe->r_eq[fe->dyn_eq[i]];
    return 0;
}

int hs_fe_restore_sparse(hs_fe *fe, const double *d, const double *v, double *r, double *Kt,
                         double *Ct)
{
    return restore_sparse(fe, d, v, r, Kt, Ct, 0);
}

int hs_fe_restore_sparse_var(hs_fe *fe, const double *d, const double *v, double *r, double *Kt,
                             double *Ct)
{
    return restore_sparse(fe, d, v, r, Kt, Ct, 1);
}
