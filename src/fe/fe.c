/* The 2-D frame model's definition: nodes, fixities, masses, equal-DOF constraints, elements, and
 * the numbering of the DOFs into fixed, constrained, dynamic (with mass) and condensed. */
#include "fe_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const DIR_NAME[3] = {"ux", "uy", "rz"};

int hs_fe_create(hs_ctx *ctx, hs_fe **out)
{
    hs_fe *fe = hs_calloc(1, sizeof *fe);
    if (!fe) return HS_ENOMEM;
    fe->ctx = ctx;
    *out = fe;
    return 0;
}

void hs_fe_destroy(hs_fe **pfe)
{
    if (!pfe || !*pfe) return;
    hs_fe *fe = *pfe;
    for (int e = 0; e < fe->nels; e++) hs_material_destroy(&fe->els[e].mat);
    hs_free(fe->els);
    hs_free(fe->nodes);
    hs_free(fe->eq_dyn);
    hs_free(fe->dyn_eq);
    hs_free(fe->cond_eq);
    hs_free(fe->u);
    hs_free(fe->v);
    hs_free(fe->u_commit);
    hs_free(fe->r_eq);
    hs_free(fe->r_commit);
    hs_free(fe->K_eq);
    hs_free(fe->C_eq);
    hs_free(fe->K00);
    hs_free(fe->X);
    hs_free(fe->b);
    hs_linsolver_destroy(&fe->s0);
    hs_csc_destroy(&fe->Kpat);
    hs_free(fe->slot);
    hs_free(fe);
    *pfe = NULL;
}

static int node_index(const hs_fe *fe, int id)
{
    for (int k = 0; k < fe->nnodes; k++)
        if (fe->nodes[k].id == id) return k;
    return -1;
}

static int defining(hs_fe *fe, const char *what)
{
    if (fe->finalized)
        return hs_fail(fe->ctx, HS_EINVAL, "frame model: %s after the model was finalized", what);
    return 0;
}

static int known_node(hs_fe *fe, int id, const char *what)
{
    const int k = node_index(fe, id);
    if (k < 0)
        return hs_fail(fe->ctx, HS_EINPUT, "%s: no node %d (define it under nodes)", what, id);
    return k;
}

int hs_fe_add_node(hs_fe *fe, int id, double x, double y)
{
    int rc = defining(fe, "a node");
    if (rc) return rc;
    if (id <= 0) return hs_fail(fe->ctx, HS_EINPUT, "node: id must be >= 1 (got %d)", id);
    if (node_index(fe, id) >= 0) return hs_fail(fe->ctx, HS_EINPUT, "node %d is defined twice", id);
    if (!isfinite(x) || !isfinite(y))
        return hs_fail(fe->ctx, HS_EINPUT, "node %d: coordinates must be finite", id);
    fe_node *nodes = hs_realloc(fe->nodes, (size_t)(fe->nnodes + 1) * sizeof *nodes);
    if (!nodes) return HS_ENOMEM;
    fe->nodes = nodes;
    fe_node *n = &nodes[fe->nnodes];
    memset(n, 0, sizeof *n);
    n->id = id;
    n->x = x;
    n->y = y;
    for (int d = 0; d < 3; d++) n->master[d] = n->eq[d] = -1;
    return fe->nnodes++;
}

int hs_fe_fix(hs_fe *fe, int id, const int fix[3])
{
    int rc = defining(fe, "a fixity");
    const int k = rc ? rc : known_node(fe, id, "fix");
    if (k < 0) return k;
    for (int d = 0; d < 3; d++) fe->nodes[k].fix[d] = fix[d] != 0;
    return 0;
}

int hs_fe_add_mass(hs_fe *fe, int id, const double m[3])
{
    int rc = defining(fe, "a mass");
    const int k = rc ? rc : known_node(fe, id, "mass");
    if (k < 0) return k;
    for (int d = 0; d < 3; d++)
        if (!(m[d] >= 0.0) || !isfinite(m[d]))
            return hs_fail(fe->ctx, HS_EINPUT, "mass of node %d %s must be >= 0 (got %g)", id,
                           DIR_NAME[d], m[d]);
    for (int d = 0; d < 3; d++) fe->nodes[k].mass[d] += m[d];
    return 0;
}

int hs_fe_equal_dof(hs_fe *fe, int master, int slave, const int dofs[3])
{
    int rc = defining(fe, "an equal_dof");
    if (rc) return rc;
    const int km = known_node(fe, master, "equal_dof master");
    if (km < 0) return km;
    const int ks = known_node(fe, slave, "equal_dof slave");
    if (ks < 0) return ks;
    if (km == ks)
        return hs_fail(fe->ctx, HS_EINPUT, "equal_dof: node %d cannot follow itself", master);
    for (int d = 0; d < 3; d++) {
        if (!dofs[d]) continue;
        if (fe->nodes[ks].master[d] >= 0)
            return hs_fail(fe->ctx, HS_EINPUT, "equal_dof: node %d %s already follows node %d",
                           slave, DIR_NAME[d], fe->nodes[fe->nodes[ks].master[d]].id);
        fe->nodes[ks].master[d] = km;
    }
    return 0;
}

static fe_element *new_element(hs_fe *fe, const char *name, int ni, int nj, int *rc)
{
    *rc = defining(fe, "an element");
    if (*rc) return NULL;
    char what[64];
    snprintf(what, sizeof what, "element '%.32s'", name ? name : "?");
    const int ki = known_node(fe, ni, what);
    const int kj = ki < 0 ? ki : known_node(fe, nj, what);
    if (ki < 0 || kj < 0) {
        *rc = ki < 0 ? ki : kj;
        return NULL;
    }
    fe_element *els = hs_realloc(fe->els, (size_t)(fe->nels + 1) * sizeof *els);
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

static int line_element(hs_fe *fe, fe_kind kind, const char *name, int ni, int nj, double E,
                        double A, double I, hs_fe_transf transf, double P0)
{
    int rc;
    fe_element *e = new_element(fe, name, ni, nj, &rc);
    if (!e) return rc;
    const fe_node *a = &fe->nodes[e->ni], *b = &fe->nodes[e->nj];
    const double dx = b->x - a->x, dy = b->y - a->y, L = sqrt(dx * dx + dy * dy);
    if (!(L > 0.0))
        return hs_fail(fe->ctx, HS_EINPUT, "element '%s': nodes %d and %d coincide (length 0)",
                       e->name, a->id, b->id);
    if (!(E > 0.0) || !(A > 0.0) || !(I >= 0.0) || (kind == FE_BEAM && !(I > 0.0)))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': E, A%s must be > 0 (got E = %g, A = %g, I = %g)", e->name,
                       kind == FE_BEAM ? " and I" : "", E, A, I);
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
    if (L > fe->lref) fe->lref = L;
    return fe->nels++;
}

int hs_fe_add_truss(hs_fe *fe, const char *name, int ni, int nj, double E, double A,
                    hs_fe_transf transf, double axial_compression)
{
    return line_element(fe, FE_TRUSS, name, ni, nj, E, A, 0.0, transf, axial_compression);
}

int hs_fe_add_beam(hs_fe *fe, const char *name, int ni, int nj, double E, double A, double I,
                   hs_fe_transf transf, double axial_compression)
{
    return line_element(fe, FE_BEAM, name, ni, nj, E, A, I, transf, axial_compression);
}

int hs_fe_add_zero_length(hs_fe *fe, const char *name, int ni, int nj, int dir,
                          const char *mat_type, const hs_options *mat_opts)
{
    if (dir < 0 || dir > 2)
        return hs_fail(fe->ctx, HS_EINPUT, "element '%s': dir must be x, y or rz",
                       name ? name : "?");
    if (ni == nj)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': a zero-length element joins two different nodes (both %d)",
                       name ? name : "?", ni);
    int rc;
    fe_element *e = new_element(fe, name, ni, nj, &rc);
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
    if (!fe->eq_dyn || !fe->dyn_eq || !fe->cond_eq || !fe->u || !fe->v || !fe->u_commit ||
        !fe->r_eq || !fe->r_commit || !fe->K00 || !fe->X || !fe->b)
        return HS_ENOMEM;
    if (n0) return hs_linsolver_create(fe->ctx, "dense", fe->n0, &fe->s0);
    return 0;
}

int hs_fe_finalize(hs_fe *fe)
{
    int rc = defining(fe, "finalize");
    if (rc) return rc;
    if (fe->nnodes == 0) return hs_fail(fe->ctx, HS_EINPUT, "frame model: no nodes");
    /* Masters: retained, free; slaves take their master's equation (no chains). */
    for (int k = 0; k < fe->nnodes; k++)
        for (int d = 0; d < 3; d++) {
            const fe_node *s = &fe->nodes[k];
            if (s->master[d] < 0) continue;
            const fe_node *m = &fe->nodes[s->master[d]];
            if (s->fix[d])
                return hs_fail(fe->ctx, HS_EINPUT,
                               "equal_dof: node %d %s is fixed; a fixed DOF cannot follow node %d",
                               s->id, DIR_NAME[d], m->id);
            if (m->master[d] >= 0)
                return hs_fail(fe->ctx, HS_EINPUT,
                               "equal_dof: node %d %s follows node %d, which itself follows node "
                               "%d; make both follow node %d",
                               s->id, DIR_NAME[d], m->id, fe->nodes[m->master[d]].id,
                               fe->nodes[m->master[d]].id);
            if (m->fix[d])
                return hs_fail(fe->ctx, HS_EINPUT,
                               "equal_dof: master node %d %s is fixed; fix node %d %s instead",
                               m->id, DIR_NAME[d], s->id, DIR_NAME[d]);
        }
    int neq = 0;
    for (int k = 0; k < fe->nnodes; k++)
        for (int d = 0; d < 3; d++) {
            fe_node *nd = &fe->nodes[k];
            if (!nd->fix[d] && nd->master[d] < 0) nd->eq[d] = neq++;
        }
    for (int k = 0; k < fe->nnodes; k++)
        for (int d = 0; d < 3; d++) {
            fe_node *nd = &fe->nodes[k];
            if (nd->master[d] >= 0) nd->eq[d] = fe->nodes[nd->master[d]].eq[d];
        }
    if (neq == 0) return hs_fail(fe->ctx, HS_EINPUT, "frame model: every DOF is fixed");
    /* Mass per equation: T^T M T with T a 0/1 map stays diagonal. */
    double *meq = hs_dvec((size_t)neq);
    if (!meq) return HS_ENOMEM;
    for (int k = 0; k < fe->nnodes; k++)
        for (int d = 0; d < 3; d++)
            if (fe->nodes[k].eq[d] >= 0) meq[fe->nodes[k].eq[d]] += fe->nodes[k].mass[d];
    fe->neq = neq;
    for (int q = 0; q < neq; q++) {
        if (meq[q] > 0.0)
            fe->n++;
        else
            fe->n0++;
    }
    hs_free(meq);
    if (fe->n == 0)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "frame model: no free DOF carries mass; give masses to the nodes");
    rc = alloc_work(fe);
    if (rc) return rc;
    int i = 0, i0 = 0;
    for (int k = 0; k < fe->nnodes; k++)
        for (int d = 0; d < 3; d++) {
            const fe_node *nd = &fe->nodes[k];
            if (nd->master[d] >= 0 || nd->eq[d] < 0) continue;
            /* retained DOFs in node order: the mass decides dynamic or condensed */
            double m = 0.0;
            for (int k2 = 0; k2 < fe->nnodes; k2++)
                if (fe->nodes[k2].eq[d] == nd->eq[d]) m += fe->nodes[k2].mass[d];
            if (m > 0.0) {
                fe->eq_dyn[nd->eq[d]] = i;
                fe->dyn_eq[i++] = nd->eq[d];
            } else {
                fe->eq_dyn[nd->eq[d]] = -1;
                fe->cond_eq[i0++] = nd->eq[d];
            }
        }
    fe->finalized = 1;
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
    const int k = node_index(fe, id);
    if (k < 0 || dir < 0 || dir > 2) return HS_FE_NO_NODE;
    const int q = fe->nodes[k].eq[dir];
    if (q < 0) return HS_FE_FIXED;
    return fe->eq_dyn[q] >= 0 ? fe->eq_dyn[q] : HS_FE_CONDENSED;
}

/* The node and direction that own equation q (the master's). */
static void eq_owner(const hs_fe *fe, int q, int *node, int *dir)
{
    for (int k = 0; k < fe->nnodes; k++)
        for (int d = 0; d < 3; d++)
            if (fe->nodes[k].eq[d] == q && fe->nodes[k].master[d] < 0) {
                *node = fe->nodes[k].id;
                *dir = d;
                return;
            }
    *node = 0;
    *dir = 0;
}

const char *hs_fe_dof_name(const hs_fe *fe, int i, char *buf, size_t cap)
{
    int node, dir;
    eq_owner(fe, fe->dyn_eq[i], &node, &dir);
    snprintf(buf, cap, "node %d %s", node, DIR_NAME[dir]);
    return buf;
}

const char *fe_eq_name(const hs_fe *fe, int q, char *buf, size_t cap)
{
    int node, dir;
    eq_owner(fe, q, &node, &dir);
    snprintf(buf, cap, "node %d %s", node, DIR_NAME[dir]);
    return buf;
}

void hs_fe_mass(const hs_fe *fe, double *mass)
{
    memset(mass, 0, (size_t)fe->n * sizeof(double));
    for (int k = 0; k < fe->nnodes; k++)
        for (int d = 0; d < 3; d++) {
            const int q = fe->nodes[k].eq[d];
            if (q >= 0 && fe->eq_dyn[q] >= 0) mass[fe->eq_dyn[q]] += fe->nodes[k].mass[d];
        }
}

void hs_fe_influence(const hs_fe *fe, int dir, double *iota)
{
    for (int i = 0; i < fe->n; i++) {
        int node, d;
        eq_owner(fe, fe->dyn_eq[i], &node, &d);
        iota[i] = d == dir ? 1.0 : 0.0;
    }
}

int hs_fe_is_linear(const hs_fe *fe)
{
    for (int e = 0; e < fe->nels; e++) {
        const fe_element *el = &fe->els[e];
        if (el->mat && !hs_material_is_linear(el->mat)) return 0;
        if (el->kind != FE_ZERO_LENGTH && el->transf != HS_FE_LINEAR) return 0;
    }
    return 1;
}

int hs_fe_is_rate_dependent(const hs_fe *fe)
{
    for (int e = 0; e < fe->nels; e++)
        if (fe->els[e].mat && hs_material_is_rate_dependent(fe->els[e].mat)) return 1;
    return 0;
}

double hs_fe_node_displacement(const hs_fe *fe, int id, int dir)
{
    const int k = node_index(fe, id);
    if (k < 0 || dir < 0 || dir > 2 || fe->nodes[k].eq[dir] < 0) return 0.0;
    return fe->u_commit[fe->nodes[k].eq[dir]];
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
    return fe->els[e].mat;
}
