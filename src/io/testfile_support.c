/* `ground_motion: {multi_support: [...]}`: multi-support excitation of the frame model
 * (docs/fe_model.md, "Multi-support excitation"; hs_fe_add_support_motion). Each entry
 *   {node: ID, dir: x | y | rz, acceleration: RECORD}   or   {..., displacement: RECORD}
 * with RECORD the shape of a uniform `ground_motion` ({file, format, ...} or {synthetic: {...}});
 * a displacement record's numbers are displacements in the test's length unit (after `scale`). */
#include "testfile_impl.h"

#include "hysim/fe.h"
#include "hysim/ground_motion.h"

#include <stdio.h>

static int support(hs_tf *L, hs_fe *fe, const hs_ynode *e, size_t i)
{
    static const char *const keys[] = {"node", "dir", "acceleration", "displacement"};
    char what[64], sub[128];
    hs_tf_index(what, sizeof what, "ground_motion.multi_support", i);
    const hs_ynode *nn, *dn, *an = hs_ynode_get(e, "acceleration"),
                             *xn = hs_ynode_get(e, "displacement");
    long id;
    int dir, rc = hs_tf_mapping(L, e, what, keys, 4);
    if (!rc) rc = hs_tf_required(L, e, "node", what, &nn);
    if (!rc) rc = hs_tf_int(L, nn, hs_tf_path(sub, sizeof sub, what, "node"), 1, 1000000000L, &id);
    if (!rc) rc = hs_tf_required(L, e, "dir", what, &dn);
    if (!rc) rc = hs_tf_fe_dir(L, dn, hs_tf_path(sub, sizeof sub, what, "dir"), &dir);
    if (!rc && (an != NULL) == (xn != NULL))
        rc = hs_tf_fail(L, an ? an : e,
                        "%s: give either 'acceleration' (a record, integrated to displacement) or "
                        "'displacement' (a displacement history), not %s",
                        what, an ? "both" : "neither");
    if (rc) return rc;
    hs_ground_motion *gm = NULL;
    rc = hs_tf_record(L, an ? an : xn, &gm);
    if (rc) return rc;
    rc = hs_fe_add_support_motion(fe, (int)id, dir,
                                  an ? HS_FE_MOTION_ACCELERATION : HS_FE_MOTION_DISPLACEMENT,
                                  gm->acc, gm->npts, gm->dt);
    hs_ground_motion_destroy(&gm);
    return rc ? hs_tf_wrap(L, e, what, rc) : 0;
}

int hs_tf_multi_support(hs_tf *L, const hs_ynode *node)
{
    static const char *const keys[] = {"multi_support"};
    const hs_ynode *list = hs_ynode_get(node, "multi_support");
    int rc = hs_tf_mapping(L, node, "ground_motion (multi_support: no other key)", keys, 1);
    if (rc) return rc;
    hs_fe *fe = hs_model_fe(L->def->model);
    if (!fe)
        return hs_tf_fail(L, list,
                          "ground_motion.multi_support: moves supports of structure.model; this "
                          "structure has no frame model (use one uniform record)");
    if (list->kind != HS_YNODE_SEQUENCE || list->n == 0)
        return hs_tf_fail(L, list,
                          "ground_motion.multi_support: expected a list of {node, dir, "
                          "acceleration | displacement: RECORD}");
    for (size_t i = 0; i < list->n; i++) {
        rc = support(L, fe, list->items[i], i);
        if (rc) return rc;
    }
    rc = hs_fe_support_prepare(fe);
    return rc ? hs_tf_wrap(L, node, "ground_motion.multi_support", rc) : 0;
}
