/* `type: two_node_link` under structure.model.elements (include/hysim/fe.h, hs_fe_add_link), in
 * every model (1-D; 2-D; 3-D):
 *   {type: two_node_link, nodes: [i, j], dirs: [x, y, rz], materials: [a, b, c],
 *    orient: [x1, x2] | [x1, x2, x3] | [x1, x2, x3, yp1, yp2, yp3], yp: [yp1, yp2, yp3],
 *    shear_dist: 0.5 | [sy, sz], mass: m, p_delta: [mz_i, mz_j] | [my_i, my_j, mz_i, mz_j],
 *    p_delta_rotation: c}
 * p_delta_rotation (2-D frames, with p_delta): the bearings' P-Delta, the end moments
 * +- c N (s L rz_i - (1 - s) L rz_j) and the tangent at fixed N (OpenSees'
 * elastomericBearingPlasticity: c 0.5, ratios [0.5, 0.5]; hs_fe_link_def p_delta_rot).
 * dirs are local directions named as the node DOFs (3-D: x axial, y and z shears, rx torsion, ry
 * and rz moments), one material each; orient's first three numbers are local x, yp (3-D) the
 * vector of the local x-y plane. */
#include "testfile_impl.h"

#include "hysim/fe.h"

static int link_dirs(hs_tf *L, const hs_fe *fe, const hs_ynode *el, const char *what,
                     hs_fe_link_def *def, const hs_ynode **dn)
{
    const hs_ynode *mn;
    char sub[128], item[160];
    int rc = hs_tf_required(L, el, "dirs", what, dn);
    if (!rc) rc = hs_tf_required(L, el, "materials", what, &mn);
    if (rc) return rc;
    hs_tf_path(sub, sizeof sub, what, "dirs");
    const int ndf = hs_fe_ndf(fe);
    if ((*dn)->kind != HS_YNODE_SEQUENCE || (*dn)->n == 0 || (*dn)->n > (size_t)ndf)
        return hs_tf_fail(L, *dn,
                          "%s: expected a list of 1 to %d local directions, named as the nodes' "
                          "DOFs (x, y, rz in 2-D; x, y, z, rx, ry, rz in 3-D)",
                          sub, ndf);
    if (mn->kind != HS_YNODE_SEQUENCE || mn->n != (*dn)->n)
        return hs_tf_fail(L, mn,
                          "%s.materials: expected a list of %zu material names, one per "
                          "direction of dirs",
                          what, (*dn)->n);
    def->ndir = (int)(*dn)->n;
    for (size_t k = 0; k < (*dn)->n; k++) {
        rc = hs_tf_fe_dof(L, fe, (*dn)->items[k], hs_tf_index(item, sizeof item, sub, k),
                          &def->dirs[k]);
        if (rc) return rc;
        for (size_t j = 0; j < k; j++)
            if (def->dirs[j] == def->dirs[k])
                return hs_tf_fail(L, (*dn)->items[k], "%s: direction given twice", item);
        const hs_tf_material *mat = hs_tf_find_material(
            L, mn->items[k], hs_tf_index(item, sizeof item, "materials", k), &rc);
        if (!mat) return rc;
        def->mat_type[k] = mat->type;
        def->mat_opts[k] = mat->opts;
    }
    return 0;
}

static int link_orient(hs_tf *L, int ndm, const hs_ynode *on, const char *what, hs_fe_link_def *def)
{
    char sub[128];
    hs_tf_path(sub, sizeof sub, what, "orient");
    if (ndm == 1)
        return hs_tf_fail(L, on, "%s: a 1-D link's local x is global x; remove orient", sub);
    if (on->kind != HS_YNODE_SEQUENCE || (on->n != 2 && on->n != 3 && on->n != 6) ||
        (ndm == 3 && on->n == 2))
        return hs_tf_fail(L, on,
                          "%s: expected the local x axis %s[x1, x2, x3], or x and a vector of the "
                          "local x-y plane [x1, x2, x3, yp1, yp2, yp3] (OpenSees -orient; in 2-D "
                          "y is z cross x)",
                          sub, ndm == 2 ? "[x1, x2] or " : "");
    double v[6] = {0};
    int rc = hs_tf_num_list(L, on, sub, on->n, "component", v);
    if (rc) return rc;
    def->has_orient = 1;
    for (int k = 0; k < 3; k++) def->orient[k] = v[k];
    if (ndm == 2 && !(def->orient[0] != 0.0 || def->orient[1] != 0.0))
        return hs_tf_fail(L, on, "%s: the local x axis has no in-plane part", sub);
    if (ndm == 3 && !(v[0] != 0.0 || v[1] != 0.0 || v[2] != 0.0))
        return hs_tf_fail(L, on, "%s: the local x axis is zero", sub);
    if (on->n == 6 && ndm == 3) {
        def->has_yp = 1;
        for (int k = 0; k < 3; k++) def->yp[k] = v[3 + k];
    }
    return 0;
}

/* shear_dist: a fraction (in 3-D both shears') or, in 3-D, [sy, sz]. */
static int link_shear_dist(hs_tf *L, int ndm, int ni, const hs_ynode *v, const char *what,
                           hs_fe_link_def *def)
{
    char sub[128];
    hs_tf_path(sub, sizeof sub, what, "shear_dist");
    double s[2];
    int rc;
    if (v->kind == HS_YNODE_SEQUENCE && ndm == 3) {
        rc = hs_tf_num_list(L, v, sub, 2, "fraction (along local y, z)", s);
    } else {
        rc = hs_tf_num(L, v, sub, &s[0]);
        s[1] = s[0];
    }
    for (int k = 0; !rc && k < 2; k++)
        if (!(s[k] >= 0.0 && s[k] <= 1.0))
            rc = hs_tf_fail(L, v, "%s: a fraction of the length from node %d, 0 to 1 (got %g)", sub,
                            ni, s[k]);
    if (!rc) def->shear_dist = s[0], def->shear_dist_z = s[1];
    return rc;
}

/* p_delta: OpenSees' -pDelta moment ratios, two in 2-D (about z), four in 3-D (y, then z). */
static int link_p_delta(hs_tf *L, int ndm, const hs_ynode *v, const char *what, hs_fe_link_def *def)
{
    char sub[128];
    hs_tf_path(sub, sizeof sub, what, "p_delta");
    if (ndm == 1)
        return hs_tf_fail(L, v, "%s: a 1-D link has no P-Delta (OpenSees ignores it); remove it",
                          sub);
    def->has_p_delta = 1;
    return ndm == 2
               ? hs_tf_num_list(L, v, sub, 2, "P-Delta moment ratio about local z (node i, node j)",
                                &def->p_delta[2])
               : hs_tf_num_list(L, v, sub, 4,
                                "P-Delta moment ratio (about local y at i, j, about z at i, j)",
                                def->p_delta);
}

int hs_tf_fe_link(hs_tf *L, hs_fe *fe, const hs_ynode *el, const char *what, const char *name,
                  int ni, int nj)
{
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    const hs_ynode *dn, *v;
    char sub[128];
    const int ndm = hs_fe_ndm(fe);
    int rc = link_dirs(L, fe, el, what, &def, &dn);
    if (!rc && (v = hs_ynode_get(el, "orient")) != NULL) rc = link_orient(L, ndm, v, what, &def);
    if (!rc && (v = hs_ynode_get(el, "yp")) != NULL) {
        hs_tf_path(sub, sizeof sub, what, "yp");
        if (ndm != 3)
            rc = hs_tf_fail(L, v,
                            "%s: a 3-D link's vector of the local x-y plane (in 2-D y is z "
                            "cross x); remove it",
                            sub);
        else if (def.has_yp)
            rc = hs_tf_fail(L, v, "%s: given twice (orient has six numbers)", sub);
        else
            rc = hs_tf_num_list(L, v, sub, 3, "global component (x, y, z)", def.yp);
        def.has_yp = !rc;
    }
    if (!rc && (v = hs_ynode_get(el, "shear_dist")) != NULL)
        rc = link_shear_dist(L, ndm, ni, v, what, &def);
    if (!rc && (v = hs_ynode_get(el, "p_delta")) != NULL) rc = link_p_delta(L, ndm, v, what, &def);
    if (!rc && (v = hs_ynode_get(el, "p_delta_rotation")) != NULL) {
        rc = hs_tf_num(L, v, hs_tf_path(sub, sizeof sub, what, "p_delta_rotation"),
                       &def.p_delta_rot);
        if (!rc && !def.has_p_delta)
            rc = hs_tf_fail(L, v,
                            "%s: the bearings' rotation term goes with p_delta (give p_delta: "
                            "[0.5, 0.5] for OpenSees' elastomericBearingPlasticity)",
                            sub);
        def.p_delta_bearing = 1;
    }
    if (!rc && (v = hs_ynode_get(el, "mass")) != NULL) {
        rc = hs_tf_num(L, v, hs_tf_path(sub, sizeof sub, what, "mass"), &def.mass);
        if (!rc && !(def.mass >= 0.0))
            rc = hs_tf_fail(L, v, "%s: must be >= 0 (got %g)", sub, def.mass);
    }
    if (rc) return rc;
    rc = hs_fe_add_link(fe, name, ni, nj, &def);
    return rc < 0 ? hs_tf_wrap(L, el, what, rc) : 0;
}
