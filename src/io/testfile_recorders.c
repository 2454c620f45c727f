/* `output.recorders`: the frame model's recorders (include/hysim/recorders.h, docs/outputs.md
 * "Recorders"), each checked against the model with FILE:LINE:COL errors:
 *   - {name: roof, node: [3, 4], dofs: [x, rz], response: disp | vel | accel | abs_accel |
 * reaction}
 *   - {name: cols, element: [c1, c2], response: force | local_force | basic_force | deformation
 *      | strain}
 *   - {name: story1, drift: {i: 1, j: 3, dof: x, perp: y}} */
#include "testfile_impl.h"

#include "hysim/fe.h"
#include "hysim/recorders.h"

#include <stdio.h>
#include <string.h>

/* The test file's name of node DOF d: x, y, z, rx, ry, rz. */
static const char *dir_key(const hs_fe *fe, int d)
{
    const char *s = hs_fe_dir_name(fe, d);
    return s[0] == 'u' ? s + 1 : s;
}

static int response(hs_tf *L, const hs_ynode *v, const char *what, int element,
                    hs_rec_response *out)
{
    static const char *const node_r[] = {"disp", "vel", "accel", "abs_accel", "reaction"};
    static const char *const el_r[] = {"force", "local_force", "basic_force", "deformation",
                                       "strain"};
    const char *const *known = element ? el_r : node_r;
    char s[32];
    int rc = hs_tf_str(L, v, what, s, sizeof s);
    if (rc) return rc;
    for (int k = 0; k < 5; k++)
        if (strcmp(s, known[k]) == 0) return *out = (hs_rec_response)((element ? 5 : 0) + k), 0;
    const char *near = hs_suggest(s, known, 5);
    return hs_tf_fail(L, v, "%s: '%s' is not a%s response%s%s%s (known: %s)", what, s,
                      element ? "n element" : " node", near ? "; did you mean '" : "",
                      near ? near : "", near ? "'?" : "",
                      element ? "force, local_force, basic_force, deformation, strain"
                              : "disp, vel, accel, abs_accel, reaction");
}

/* A scalar or a list of scalars: its items (one for a scalar). */
static size_t items_of(const hs_ynode *v, const hs_ynode *const **items, const hs_ynode **one)
{
    if (v->kind == HS_YNODE_SEQUENCE) {
        *items = (const hs_ynode *const *)v->items;
        return v->n;
    }
    *one = v;
    *items = one;
    return 1;
}

static int node_id(hs_tf *L, const hs_fe *fe, const hs_ynode *v, const char *what, int *id)
{
    long x;
    int rc = hs_tf_int(L, v, what, 1, 1000000000L, &x);
    if (rc) return rc;
    if (hs_fe_node_ndf(fe, (int)x) < 0)
        return hs_tf_fail(L, v, "%s: no node %ld in structure.model.nodes", what, x);
    *id = (int)x;
    return 0;
}

static int node_recorder(hs_tf *L, hs_fe *fe, const hs_ynode *m, const char *what,
                         hs_recorder_def *d)
{
    const hs_ynode *nv = hs_ynode_get(m, "node"), *dv, *rv, *one;
    const hs_ynode *const *items;
    char sub[160], item[192];
    int rc = hs_tf_required(L, m, "dofs", what, &dv);
    if (!rc) rc = hs_tf_required(L, m, "response", what, &rv);
    if (!rc) rc = response(L, rv, hs_tf_path(sub, sizeof sub, what, "response"), 0, &d->response);
    if (rc) return rc;
    const size_t n = items_of(nv, &items, &one);
    hs_tf_path(sub, sizeof sub, what, "node");
    if (n == 0) return hs_tf_fail(L, nv, "%s: expected a node id or a list of them", sub);
    d->items = hs_calloc(n, sizeof(int));
    if (!d->items) return HS_ENOMEM;
    d->nitems = (int)n;
    for (size_t i = 0; i < n; i++) {
        rc = node_id(L, fe, items[i], hs_tf_index(item, sizeof item, sub, i), &d->items[i]);
        if (rc) return rc;
    }
    const size_t nd = items_of(dv, &items, &one);
    hs_tf_path(sub, sizeof sub, what, "dofs");
    if (nd == 0 || nd > (size_t)hs_fe_ndf(fe)) {
        char known[64] = "";
        for (int k = 0; k < hs_fe_ndf(fe); k++) {
            const size_t len = strlen(known);
            snprintf(known + len, sizeof known - len, "%s%s", k ? ", " : "", dir_key(fe, k));
        }
        return hs_tf_fail(L, dv, "%s: expected 1 to %d of the model's directions [%s]", sub,
                          hs_fe_ndf(fe), known);
    }
    d->ndofs = (int)nd;
    for (size_t k = 0; k < nd; k++) {
        rc = hs_tf_fe_dir(L, items[k], hs_tf_index(item, sizeof item, sub, k), &d->dofs[k]);
        if (rc) return rc;
        for (size_t j = 0; j < k; j++)
            if (d->dofs[j] == d->dofs[k])
                return hs_tf_fail(L, items[k], "%s: the direction is listed twice", item);
    }
    if (d->response != HS_REC_REACTION) return 0;
    for (int i = 0; i < d->nitems; i++) /* a reaction is the force of a support */
        for (int k = 0; k < d->ndofs; k++)
            if (hs_fe_node_fixed(fe, d->items[i], d->dofs[k]) != 1)
                return hs_tf_fail(L, nv,
                                  "%s: node %d %s is not fixed; a reaction is recorded at a "
                                  "fixed DOF (record its disp, or fix it)",
                                  what, d->items[i], dir_key(fe, d->dofs[k]));
    return 0;
}

static int element_recorder(hs_tf *L, hs_fe *fe, const hs_ynode *m, const char *what,
                            hs_recorder_def *d)
{
    const hs_ynode *ev = hs_ynode_get(m, "element"), *rv, *one;
    const hs_ynode *const *items;
    char sub[160], item[192], name[64];
    if (hs_ynode_get(m, "dofs"))
        return hs_tf_fail(L, hs_ynode_get(m, "dofs"),
                          "%s: 'dofs' is for node recorders (an element response has all its "
                          "components)",
                          what);
    int rc = hs_tf_required(L, m, "response", what, &rv);
    if (!rc) rc = response(L, rv, hs_tf_path(sub, sizeof sub, what, "response"), 1, &d->response);
    if (rc) return rc;
    const size_t n = items_of(ev, &items, &one);
    hs_tf_path(sub, sizeof sub, what, "element");
    if (n == 0) return hs_tf_fail(L, ev, "%s: expected an element name or a list of them", sub);
    d->items = hs_calloc(n, sizeof(int));
    if (!d->items) return HS_ENOMEM;
    d->nitems = (int)n;
    const hs_fe_response fr = (hs_fe_response)(d->response - HS_REC_FORCE);
    for (size_t i = 0; i < n; i++) {
        hs_tf_index(item, sizeof item, sub, i);
        rc = hs_tf_str(L, items[i], item, name, sizeof name);
        if (rc) return rc;
        const int e = hs_fe_element_index(fe, name);
        if (e < 0)
            return hs_tf_fail(L, items[i],
                              "%s: no element '%s' in structure.model.elements (elements are "
                              "named by 'name', else type and position: elastic_beam1, ...)",
                              item, name);
        if (hs_fe_element_response_size(fe, e, fr) == 0)
            return hs_tf_fail(L, items[i],
                              "%s: element '%s' (%s) has no %s (force, local_force, basic_force "
                              "and deformation are for every line element, strain for trusses; "
                              "zero_length and two_node_link elements have force, basic_force and "
                              "deformation)",
                              item, name, hs_fe_element_type(fe, e),
                              hs_rec_response_name(d->response));
        d->items[i] = e;
    }
    return 0;
}

static int drift_recorder(hs_tf *L, hs_fe *fe, const hs_ynode *m, const char *what,
                          hs_recorder_def *d)
{
    static const char *const keys[] = {"i", "j", "dof", "perp"};
    const hs_ynode *dr = hs_ynode_get(m, "drift"), *v;
    char sub[160], item[192];
    hs_tf_path(sub, sizeof sub, what, "drift");
    if (hs_ynode_get(m, "dofs"))
        return hs_tf_fail(L, hs_ynode_get(m, "dofs"), "%s: a drift takes its DOF as drift.dof",
                          what);
    if ((v = hs_ynode_get(m, "response")) != NULL) {
        char s[16];
        int rc = hs_tf_str(L, v, hs_tf_path(item, sizeof item, what, "response"), s, sizeof s);
        if (rc) return rc;
        if (strcmp(s, "drift") != 0)
            return hs_tf_fail(L, v, "%s: a drift recorder records drift (got '%s')", item, s);
    }
    d->response = HS_REC_DRIFT;
    int rc = hs_tf_mapping(L, dr, sub, keys, 4);
    int *const dst[] = {&d->drift_i, &d->drift_j, &d->drift_dof, &d->drift_perp};
    for (int k = 0; !rc && k < 4; k++) {
        rc = hs_tf_required(L, dr, keys[k], sub, &v);
        hs_tf_path(item, sizeof item, sub, keys[k]);
        if (!rc) rc = k < 2 ? node_id(L, fe, v, item, dst[k]) : hs_tf_fe_dir(L, v, item, dst[k]);
        if (!rc && k >= 2 && (hs_fe_dir_name(fe, *dst[k])[0] != 'u' || *dst[k] >= hs_fe_ndm(fe)))
            rc = hs_tf_fail(L, v, "%s: a drift is taken along a translation (%s)", item,
                            hs_fe_ndm(fe) == 3 ? "x, y or z" : "x or y");
        if (!rc && k == 3 && d->drift_perp == d->drift_dof)
            rc = hs_tf_fail(L, v,
                            "%s: perp is the direction across which the drift is taken (y for "
                            "a lateral drift in x), not the drift's own DOF",
                            item);
    }
    if (rc) return rc;
    double xi, xj;
    hs_fe_node_coord(fe, d->drift_i, d->drift_perp, &xi);
    hs_fe_node_coord(fe, d->drift_j, d->drift_perp, &xj);
    if (xi == xj)
        return hs_tf_fail(L, dr,
                          "%s: nodes %d and %d have the same %s coordinate; a drift divides by "
                          "their distance along perp",
                          sub, d->drift_i, d->drift_j, dir_key(fe, d->drift_perp));
    return 0;
}

/* A name that is also a MATLAB field and a Python identifier (results.mat, python/hysim). */
static int valid_name(const char *s)
{
    if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'))) return 0;
    for (const char *c = s; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_'))
            return 0;
    return 1;
}

static int recorder(hs_tf *L, hs_fe *fe, const hs_ynode *m, size_t i, hs_recorder_def *d)
{
    static const char *const keys[] = {"name", "node", "element", "drift", "dofs", "response"};
    char what[64], sub[128];
    hs_tf_index(what, sizeof what, "output.recorders", i);
    int rc = hs_tf_mapping(L, m, what, keys, 6);
    if (rc) return rc;
    const hs_ynode *kinds[3] = {hs_ynode_get(m, "node"), hs_ynode_get(m, "element"),
                                hs_ynode_get(m, "drift")};
    const int nk = (kinds[0] != NULL) + (kinds[1] != NULL) + (kinds[2] != NULL);
    if (nk != 1)
        return hs_tf_fail(L, m,
                          "%s: give exactly one of node (with dofs and response), element (with "
                          "response) or drift ({i, j, dof, perp})",
                          what);
    rc = kinds[0]   ? node_recorder(L, fe, m, what, d)
         : kinds[1] ? element_recorder(L, fe, m, what, d)
                    : drift_recorder(L, fe, m, what, d);
    if (rc) return rc;
    const hs_ynode *nv = hs_ynode_get(m, "name");
    snprintf(d->name, sizeof d->name, "%s%u", hs_rec_response_name(d->response), (unsigned)(i + 1));
    if (nv) {
        rc = hs_tf_str(L, nv, hs_tf_path(sub, sizeof sub, what, "name"), d->name, sizeof d->name);
        if (rc) return rc;
        if (!valid_name(d->name))
            return hs_tf_fail(L, nv,
                              "%s: a letter, then letters, digits and '_' (it names "
                              "recorders/NAME.csv, a results.h5 dataset and a MATLAB field), "
                              "got '%s'",
                              sub, d->name);
    }
    for (int k = 0; k < (int)i; k++)
        if (strcmp(L->def->recorders[k].name, d->name) == 0)
            return hs_tf_fail(L, nv ? nv : m, "%s: a second recorder named '%s'", what, d->name);
    return 0;
}

int hs_tf_recorders(hs_tf *L, const hs_ynode *list)
{
    hs_fe *fe = hs_model_fe(L->def->model);
    if (!fe)
        return hs_tf_fail(L, list,
                          "output.recorders: recorders name nodes and elements of "
                          "structure.model; this structure has no frame model (its DOFs are "
                          "in response.csv and results.h5 already)");
    if (list->kind != HS_YNODE_SEQUENCE || list->n == 0)
        return hs_tf_fail(L, list,
                          "output.recorders: expected a list of {node, dofs, response}, "
                          "{element, response} or {drift: {i, j, dof, perp}}");
    L->def->recorders = hs_calloc(list->n, sizeof *L->def->recorders);
    if (!L->def->recorders) return HS_ENOMEM;
    for (size_t i = 0; i < list->n; i++) {
        L->def->nrecorders = (int)i + 1;
        const int rc = recorder(L, fe, list->items[i], i, &L->def->recorders[i]);
        if (rc) return rc;
    }
    return 0;
}
