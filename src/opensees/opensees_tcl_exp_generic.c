/* expElement generic (EEGeneric.cpp): an experimental element on absolute DOFs of one or more
 * nodes, built as links from fixed ground nodes or between pairs of its nodes, each carrying its
 * part of -initStif (docs/openfresco.md, "OpenFresco scripts"); an Aggregator of setups with
 * actuator geometry gives a link per setup. */
#include "opensees_tcl_exp_element.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The ground of an expElement generic's node: a fixed node at its place, tag 1000000000 + the
 * element's tag (the generic element's basic DOFs are the node's absolute displacements, a
 * link from a fixed node measures them). Its tag, or 0 after raising the error. */
static int generic_ground(hs_os_state *st, Tcl_Obj *const objv[], int el_tag, const hs_os_node *at)
{
    const int tag = 1000000000 + el_tag;
    if (el_tag < 1 || el_tag >= 1000000000 || hs_os_find_node(st->m, tag))
        return hs_os_fail(st, objv,
                          "generic: hysim grounds element %d at node %d, which takes an element "
                          "tag 1 to 999999999 and no node %d",
                          el_tag, tag, tag),
               0;
    const hs_os_node where = *at;
    hs_os_node *n = hs_os_push((void **)&st->m->nodes, &st->m->nnodes, sizeof *n);
    if (!n) return hs_os_fail(st, objv, "out of memory"), 0;
    memset(n, 0, sizeof *n);
    n->tag = tag;
    n->x = where.x;
    n->y = where.y;
    n->z = where.z;
    for (int d = 0; d < HS_OS_NDF; d++) n->fix[d] = 1;
    hs_os_where(st, n->where, sizeof n->where);
    if (tag > st->m->node_tag_max) st->m->node_tag_max = tag;
    return tag;
}

/* A free element tag from 1000000000 for a link of an expElement generic, or 0 after raising
 * the error. */
int hs_of_free_element_tag(hs_os_state *st, Tcl_Obj *const objv[])
{
    const int t = st->m->el_tag_max < 1000000000 ? 1000000000 : st->m->el_tag_max + 1;
    if (t < 1000000000 || t == INT_MAX)
        return hs_os_fail(st, objv, "generic: no free element tag for its links"), 0;
    return t;
}

static int generic_pairs(hs_os_state *st, Tcl_Obj *const objv[], int tag, int nb, const int *bnode,
                         const int *bdof, const exp_drive *d, const exp_args *a, const int *at,
                         int nat, int *first);
static int generic_aggregate(hs_os_state *st, Tcl_Obj *const objv[], int tag, int nb,
                             const int *bnode, const int *bdof, const exp_drive *d,
                             const exp_args *a);

/* An Elastic material of modulus E under a free tag from 1000000000 (E 0: the forceless one of
 * a link of an expElement generic that carries stiffness only): its tag, or 0 after raising the
 * error. */
int hs_of_elastic_material(hs_os_state *st, Tcl_Obj *const objv[], double E)
{
    int t = 1000000000;
    while (t < INT_MAX && hs_os_find_material(st->m, t)) t++;
    char cmd[64];
    snprintf(cmd, sizeof cmd, "uniaxialMaterial Elastic %d %.17g", t, E);
    if (t == INT_MAX || Tcl_EvalEx(st->interp, cmd, -1, 0) != TCL_OK)
        return hs_os_fail(st, objv, "cannot define the experimental element's material %d", t), 0;
    return t;
}

int hs_of_generic_zero_material(hs_os_state *st, Tcl_Obj *const objv[])
{
    return hs_of_elastic_material(st, objv, 0.0);
}

/* A link of an expElement generic: element tag between nodes ni and nj of absolute node DOFs,
 * the site's actuators on the listed DOFs of those nodes and -initStif over them, as own says:
 * own[0], own[1] the actuators and the diagonal block of node ni, nj; own[2] the blocks
 * between the two nodes. A link with stiffness and no actuator gets a forceless direction.
 * *made 0: nothing to carry, no link. */
static int generic_piece(hs_os_state *st, Tcl_Obj *const objv[], int tag, int nb, const int *bnode,
                         const int *bdof, const exp_drive *d, const exp_args *a, int ni, int nj,
                         const int own[3], int *made)
{
    hs_os_element e = {.tag = tag, .kind = HS_OS_LINK, .shear_dist = 0.5, .shear_dist_z = 0.5};
    e.ni = ni;
    e.nj = nj;
    e.exp_generic = 1;
    exp_drive dp = *d;               /* its factors by the piece's materials */
    for (int k = 0; k < d->n; k++) { /* actuator k on basic DOF trial_dof[k] */
        const int p = d->setup->trial_dof[k], side = bnode[p] == nj;
        if ((bnode[p] != ni && bnode[p] != nj) || !own[side]) continue;
        memcpy(dp.scale[e.nmat], d->scale[k], sizeof d->scale[k]);
        e.mat[e.nmat] = d->mat[k];
        e.dir[e.nmat] = bdof[p] - 1;
        e.dir_node[e.nmat++] = side;
    }
    exp_basic b = {.shear_dist = 0.5}; /* -initStif over the basic DOFs of those nodes */
    exp_args ap = *a;
    int keep[HS_OS_MAX_DIRS], stiff = 0;
    for (int p = 0; p < nb; p++)
        if (bnode[p] == ni || bnode[p] == nj) {
            e.kinit_node[b.n] = bnode[p] == nj;
            keep[b.n] = p;
            b.dirs[b.n++] = bdof[p] - 1;
        }
    for (int q = 0; a->nk && q < b.n; q++)
        for (int p = 0; p < b.n; p++) {
            const int sq = e.kinit_node[q], sp = e.kinit_node[p];
            const double v = (sq == sp ? own[sq] : own[2]) ? a->k[keep[q] * nb + keep[p]] : 0.0;
            ap.k[q * b.n + p] = v;
            stiff |= v != 0.0;
        }
    if (a->nk) ap.nk = b.n * b.n;
    *made = e.nmat || stiff;
    if (!*made) return TCL_OK;
    if (!e.nmat) { /* stiffness only: a forceless direction carries it */
        if (!(e.mat[0] = hs_of_generic_zero_material(st, objv))) return TCL_ERROR;
        e.dir[0] = b.dirs[0];
        e.dir_node[0] = e.kinit_node[0];
        e.nmat = 1;
        dp.scale[0][0] = dp.scale[0][1] = dp.scale[0][2] = 1.0;
    }
    dp.n = e.nmat;
    hs_of_mark_experimental(&e, &dp, &ap, a->site, &b);
    return hs_os_add_element(st, objv, &e);
}

/* expElement generic tag -node n1 n2 .. -dof d.. -dof d.. .. -site siteTag -initStif Kij <-iMod>
 * <-noRayleigh> (EEGeneric.cpp: the basic DOFs are the listed DOFs of the nodes, node by node,
 * their absolute displacements; the forces go back on them). The element is a twoNodeLink of
 * absolute node DOFs (hs_fe_link_def absolute) between the two nodes its setup's actuators and
 * -initStif act on, or from a fixed node at the place of the one node (generic_ground): actuator
 * k, the control's material k, on the basic DOF its setup names (through the setup's geometry
 * when it has one, whose pose may then take DOFs of both nodes), -initStif over the listed DOFs
 * of those nodes its stiffness (the other listed DOFs have no stiffness and no actuator: they
 * drop out). Over three such nodes or more (a setup without actuator geometry): a link for each
 * pair of them (generic_piece), which add up to the element. */
int hs_of_exp_generic(hs_os_state *st, int objc, Tcl_Obj *const objv[])
{
    int tag, nnode = 0, node[HS_OS_MAX_DIRS], nb = 0, bnode[HS_OS_MAX_DIRS], bdof[HS_OS_MAX_DIRS];
    if (hs_os_int(st, objv, 2, "tag", &tag)) return TCL_ERROR;
    int i = 3;
    if (i >= objc || strcmp(Tcl_GetString(objv[i]), "-node"))
        return hs_os_fail(st, objv,
                          "expected 'expElement generic tag -node n1 n2 ... -dof d1 .. -dof d1 .. "
                          "... -site siteTag -initStif Kij'");
    for (i++; i < objc && Tcl_GetString(objv[i])[0] != '-'; i++) {
        if (nnode == HS_OS_MAX_DIRS)
            return hs_os_fail(st, objv, "-node: at most %d nodes", HS_OS_MAX_DIRS);
        if (hs_os_int(st, objv, i, "-node", &node[nnode])) return TCL_ERROR;
        if (!hs_os_find_node(st->m, node[nnode]))
            return hs_os_fail(st, objv, "no node %d (define it first)", node[nnode]);
        nnode++;
    }
    for (int k = 0; k < nnode; k++) {
        if (i >= objc || strcmp(Tcl_GetString(objv[i]), "-dof"))
            return hs_os_fail(st, objv, "expected -dof d1 .. for node %d (one -dof per node)",
                              node[k]);
        for (i++; i < objc && Tcl_GetString(objv[i])[0] != '-'; i++) {
            if (nb == HS_OS_MAX_DIRS)
                return hs_os_fail(st, objv, "-dof: at most %d basic DOFs", HS_OS_MAX_DIRS);
            if (hs_os_int(st, objv, i, "-dof", &bdof[nb])) return TCL_ERROR;
            if (bdof[nb] < 1 || bdof[nb] > st->m->ndf)
                return hs_os_fail(st, objv, "-dof %d of node %d: expected 1 to %d (-ndf %d)",
                                  bdof[nb], node[k], st->m->ndf, st->m->ndf);
            bnode[nb++] = node[k];
        }
    }
    if (!nnode || !nb) return hs_os_fail(st, objv, "expected -node n1 .. and a -dof list per node");
    exp_args a = {0};
    if (hs_of_exp_options(st, objv, objc, i, 0, &a)) return TCL_ERROR;
    if (a.rho != 0.0) return hs_os_fail(st, objv, "-rho: the generic element has no length");
    exp_drive d = {0};
    if (hs_of_site_drive(st, objv, a.site, nb, bdof, &d)) return TCL_ERROR;
    if (hs_of_check_init_stif(st, objv, &a, nb)) return TCL_ERROR;
    if (hs_os_find_element(st->m, tag))
        return hs_os_fail(st, objv, "element %d is already defined", tag);
    /* the nodes it acts on: its driven DOFs' and those -initStif gives stiffness */
    int used[HS_OS_MAX_DIRS] = {0}, at[HS_OS_MAX_DIRS], nat = 0;
    for (int k = 0; k < d.n; k++) used[d.setup->trial_dof[k]] = 1;
    for (int q = 0; q < nb; q++)
        for (int p = 0; p < nb; p++)
            if (a.nk && a.k[q * nb + p] != 0.0) used[p] = used[q] = 1;
    for (int p = 0; p < nb; p++) {
        int seen = 0;
        for (int k = 0; k < nat; k++) seen |= at[k] == bnode[p];
        if (used[p] && !seen) at[nat++] = bnode[p];
    }
    if (d.setup->nsub) return generic_aggregate(st, objv, tag, nb, bnode, bdof, &d, &a);
    const int all[3] = {1, 1, 1};
    int made = 0;
    if (nat <= 2) {
        const int ni =
            nat == 2 ? at[0] : generic_ground(st, objv, tag, hs_os_find_node(st->m, at[0]));
        if (!ni) return TCL_ERROR;
        if (generic_piece(st, objv, tag, nb, bnode, bdof, &d, &a, ni, at[nat - 1], all, &made))
            return TCL_ERROR;
        hs_os_element *e = &st->m->els[st->m->nels - 1]; /* OpenFresco's shapes */
        e->exp_gn = nnode;
        e->exp_gnb = d.setup->has_geom ? 0 : nb;
        memcpy(e->exp_gnode, node, sizeof node);
        for (int p = 0; p < nb; p++) {
            e->exp_gdof[p] = bdof[p] - 1;
            for (int k = 0; k < nnode; k++)
                if (node[k] == bnode[p]) e->exp_gbn[p] = k;
        }
        for (int k = 0; k < d.n; k++) e->exp_gpos[k] = d.setup->trial_dof[k];
        return TCL_OK;
    }
    if (d.setup->has_geom)
        return hs_os_fail(st, objv,
                          "generic: its setup %d (%s) has actuator geometry and the element acts "
                          "on %d nodes; hysim maps such a setup on one or two nodes",
                          d.setup->tag, d.setup->type, nat);
    int first = 0;
    return generic_pairs(st, objv, tag, nb, bnode, bdof, &d, &a, at, nat, &first);
}

/* The links of an expElement generic over the nodes at[0 .. nat - 1] (nat >= 3, or any with
 * `first` set): a link for each pair of them (p, q), with the stiffness between them; node 0's
 * and 1's actuators and own blocks in the link (0, 1), node q's (q >= 2) in (0, q); one node:
 * a link from its ground. The first link takes the element's tag unless *first says the
 * element has one already (its index + 1; set here when 0), the others free tags from
 * 1000000000; that first link counts them (exp_pieces). */
static int generic_pairs(hs_os_state *st, Tcl_Obj *const objv[], int tag, int nb, const int *bnode,
                         const int *bdof, const exp_drive *d, const exp_args *a, const int *at,
                         int nat, int *first)
{
    const int all[3] = {1, 1, 1};
    int npiece = *first ? st->m->els[*first - 1].exp_pieces : 0, made = 0;
    if (nat == 1) {
        const int t = npiece ? hs_of_free_element_tag(st, objv) : tag;
        const int g =
            generic_ground(st, objv, tag + 100000000 * npiece, hs_os_find_node(st->m, at[0]));
        if (!t || !g || generic_piece(st, objv, t, nb, bnode, bdof, d, a, g, at[0], all, &made))
            return TCL_ERROR;
        npiece += made;
        if (made && !*first) *first = st->m->nels;
    }
    for (int p = 0; p < nat; p++)
        for (int q = p + 1; q < nat; q++) {
            const int own[3] = {p == 0 && q == 1, p == 0, 1};
            const int t = npiece ? hs_of_free_element_tag(st, objv) : tag;
            if (!t || generic_piece(st, objv, t, nb, bnode, bdof, d, a, at[p], at[q], own, &made))
                return TCL_ERROR;
            npiece += made;
            if (made && !*first) *first = st->m->nels;
        }
    if (*first) st->m->els[*first - 1].exp_pieces = npiece;
    return TCL_OK;
}

/* expElement generic on an Aggregator of setups with actuator geometry (ESAggregator.cpp: each
 * setup transforms its part of the trial vector into its actuators, and its actuators' forces
 * back on that part): a link for each setup, its actuators the control's materials in the
 * aggregate's order, over the one or two nodes its part names (through its geometry), without
 * stiffness when the element has -initStif; then that -initStif over the nodes it reaches, as
 * links of a forceless material (generic_pairs). */
static int generic_aggregate(hs_os_state *st, Tcl_Obj *const objv[], int tag, int nb,
                             const int *bnode, const int *bdof, const exp_drive *d,
                             const exp_args *a)
{
    const struct hs_os_fresco *f = hs_of_state(st);
    exp_args none = *a; /* the setups' links: no stiffness of their own beside -initStif */
    if (none.nk) memset(none.k, 0, sizeof none.k);
    int toff = 0, aoff = 0, first = 0;
    for (int s = 0; s < d->setup->nsub; s++) {
        const hs_of_setup *m = hs_of_find_setup(f, d->setup->sub[s]);
        hs_of_setup part = *m;
        exp_drive dm = *d;
        dm.n = m->nact;
        dm.setup = &part;
        int at[2], nat = 0;
        for (int k = 0; k < m->nact; k++) {
            part.trial_dof[k] = toff + m->trial_dof[k];
            dm.mat[k] = d->mat[aoff + k];
            memcpy(dm.scale[k], d->scale[aoff + k], sizeof dm.scale[k]);
            const int node = bnode[part.trial_dof[k]];
            if ((nat > 0 && at[0] == node) || (nat > 1 && at[1] == node)) continue;
            if (nat == 2)
                return hs_os_fail(st, objv,
                                  "generic: setup %d (%s) of the Aggregator acts on nodes %d, %d "
                                  "and %d; hysim maps a setup on one or two nodes",
                                  m->tag, m->type, at[0], at[1], node);
            at[nat++] = node;
        }
        if (generic_pairs(st, objv, tag, nb, bnode, bdof, &dm, &none, at, nat, &first))
            return TCL_ERROR;
        toff += m->size_trial;
        aoff += m->nact;
    }
    if (!a->nk) return TCL_OK;
    exp_drive dz = *d; /* -initStif alone: the nodes it reaches */
    dz.n = 0;
    int at[HS_OS_MAX_DIRS], nat = 0;
    for (int p = 0; p < nb; p++) {
        int stiff = 0, seen = 0;
        for (int q = 0; q < nb; q++) stiff |= a->k[q * nb + p] != 0.0 || a->k[p * nb + q] != 0.0;
        for (int k = 0; k < nat; k++) seen |= at[k] == bnode[p];
        if (stiff && !seen) at[nat++] = bnode[p];
    }
    return nat ? generic_pairs(st, objv, tag, nb, bnode, bdof, &dz, a, at, nat, &first) : TCL_OK;
}
