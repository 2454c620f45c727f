/* `type: two_node_link` under structure.model.elements (include/hysim/fe.h, hs_fe_add_link):
 *   {type: two_node_link, nodes: [i, j], dirs: [x, y, rz], materials: [a, b, c],
 *    orient: [x1, x2] | [x1, x2, x3] | [x1, x2, x3, y1, y2, y3], shear_dist: 0.5, mass: m}
 * dirs are local directions (x along the chord or orient, y = z cross x), one material each. */
#include "testfile_impl.h"

#include "hysim/fe.h"

#include <stdio.h>

static int link_dirs(hs_tf *L, const hs_ynode *el, const char *what, hs_fe_link_def *def,
                     const hs_ynode **dn)
{
    const hs_ynode *mn;
    char sub[128], item[160];
    int rc = hs_tf_required(L, el, "dirs", what, dn);
    if (!rc) rc = hs_tf_required(L, el, "materials", what, &mn);
    if (rc) return rc;
    hs_tf_path(sub, sizeof sub, what, "dirs");
    if ((*dn)->kind != HS_YNODE_SEQUENCE || (*dn)->n == 0 || (*dn)->n > 3)
        return hs_tf_fail(L, *dn, "%s: expected a list of 1 to 3 local directions ([x, y, rz])",
                          sub);
    if (mn->kind != HS_YNODE_SEQUENCE || mn->n != (*dn)->n)
        return hs_tf_fail(L, mn,
                          "%s.materials: expected a list of %zu material names, one per "
                          "direction of dirs",
                          what, (*dn)->n);
    def->ndir = (int)(*dn)->n;
    for (size_t k = 0; k < (*dn)->n; k++) {
        rc =
            hs_tf_fe_dir(L, (*dn)->items[k], hs_tf_index(item, sizeof item, sub, k), &def->dirs[k]);
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

static int link_orient(hs_tf *L, const hs_ynode *on, const char *what, hs_fe_link_def *def)
{
    char sub[128];
    hs_tf_path(sub, sizeof sub, what, "orient");
    if (on->kind != HS_YNODE_SEQUENCE || (on->n != 2 && on->n != 3 && on->n != 6))
        return hs_tf_fail(L, on,
                          "%s: expected the local x axis [x1, x2] or [x1, x2, x3], or x and y "
                          "[x1, x2, x3, y1, y2, y3] (OpenSees -orient; in 2-D y is z cross x)",
                          sub);
    double v[6] = {0};
    int rc = hs_tf_num_list(L, on, sub, on->n, "component", v);
    if (rc) return rc;
    def->has_orient = 1;
    for (int k = 0; k < 3; k++) def->orient[k] = v[k];
    if (!(def->orient[0] != 0.0 || def->orient[1] != 0.0))
        return hs_tf_fail(L, on, "%s: the local x axis has no in-plane part", sub);
    return 0;
}

int hs_tf_fe_link(hs_tf *L, hs_fe *fe, const hs_ynode *el, const char *what, const char *name,
                  int ni, int nj)
{
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    const hs_ynode *dn, *v;
    char sub[128];
    if (hs_fe_ndm(fe) != 2 || hs_fe_ndf(fe) != 3)
        return hs_tf_fail(L, el,
                          "%s: two_node_link is 2-D with rotations for now (ndm: 2, ndf: 3); this "
                          "model has ndm %d, ndf %d (use zero_length springs)",
                          what, hs_fe_ndm(fe), hs_fe_ndf(fe));
    int rc = link_dirs(L, el, what, &def, &dn);
    if (!rc && (v = hs_ynode_get(el, "orient")) != NULL) rc = link_orient(L, v, what, &def);
    if (!rc && (v = hs_ynode_get(el, "shear_dist")) != NULL) {
        rc = hs_tf_num(L, v, hs_tf_path(sub, sizeof sub, what, "shear_dist"), &def.shear_dist);
        if (!rc && !(def.shear_dist >= 0.0 && def.shear_dist <= 1.0))
            rc = hs_tf_fail(L, v, "%s: a fraction of the length from node %d, 0 to 1 (got %g)", sub,
                            ni, def.shear_dist);
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
