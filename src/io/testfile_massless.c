/* Experimental elements on a frame's DOFs without mass (docs/integrators.md, "Experimental DOFs
 * without mass"): the control points' DOFs are kept dynamic with zero mass instead of condensed,
 * and an integrator that cannot take them is refused with the reason and the list of those that
 * can. */
#include "testfile_impl.h"

#include "hysim/fe.h"
#include "hysim/integrator.h"
#include "opensees/opensees_tcl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The node DOF index called `key` ("x", "y", "rz", ...), or -1. */
static int dof_named(const hs_fe *fe, const char *key)
{
    for (int d = 0; d < hs_fe_ndf(fe); d++) {
        const char *s = hs_fe_dir_name(fe, d);
        if (strcmp(s[0] == 'u' ? s + 1 : s, key) == 0) return d;
    }
    return -1;
}

/* Calls fn(user, node, key) for every DOF that a control point of the experimental section
 * names (read leniently: the experimental reader reports its errors later); stops at fn's error.
 */
static int each_control_dof(const hs_tf *L, int (*fn)(void *user, int node, const char *key),
                            void *user)
{
    const hs_ynode *ex = L->experimental;
    if (!ex || ex->kind != HS_YNODE_SEQUENCE) return 0;
    for (size_t i = 0; i < ex->n; i++) {
        const hs_ynode *el = ex->items[i], *cp, *nn, *dn;
        if (el->kind != HS_YNODE_MAPPING || !(cp = hs_ynode_get(el, "control_point")) ||
            cp->kind != HS_YNODE_MAPPING || !(nn = hs_ynode_get(cp, "node")) ||
            !(dn = hs_ynode_get(cp, "dofs")) || nn->kind != HS_YNODE_SCALAR ||
            dn->kind != HS_YNODE_SEQUENCE)
            continue;
        char *end = NULL;
        const long id = strtol(nn->text, &end, 10);
        if (!end || *end || id < 1 || id > 1000000000L) continue;
        for (size_t k = 0; k < dn->n; k++) {
            if (dn->items[k]->kind != HS_YNODE_SCALAR) continue;
            const int rc = fn(user, (int)id, dn->items[k]->text);
            if (rc) return rc;
        }
    }
    return 0;
}

typedef struct keep_fe {
    hs_ctx *ctx;
    hs_fe *fe;
} keep_fe;

static int keep_in_fe(void *user, int node, const char *key)
{
    const keep_fe *k = user;
    const int d = dof_named(k->fe, key);
    const int rc = d < 0 ? 0 : hs_fe_keep_dof(k->fe, node, d);
    if (rc == HS_ENOMEM) return rc;
    hs_ctx_clear(k->ctx); /* an unknown node: the experimental reader names it */
    return 0;
}

int hs_tf_keep_experimental_dofs(hs_tf *L, hs_fe *fe)
{
    keep_fe k = {L->ctx, fe};
    return each_control_dof(L, keep_in_fe, &k);
}

static int keep_in_script(void *user, int node, const char *key)
{
    hs_os_model *m = user;
    if (m->nkeep == HS_OS_MAX_KEEP || strlen(key) >= sizeof m->keep_dof[0]) return 0;
    m->keep_node[m->nkeep] = node;
    snprintf(m->keep_dof[m->nkeep++], sizeof m->keep_dof[0], "%s", key);
    return 0;
}

int hs_tf_keep_experimental_script(hs_tf *L, hs_os_model *m)
{
    m->nkeep = 0;
    return each_control_dof(L, keep_in_script, m);
}

int hs_tf_massless_integrator(hs_tf *L, const hs_ynode *type_node)
{
    const int n0 = hs_model_massless_count(L->def->model);
    const hs_integrator_entry *e = hs_integrator_registry_find(L->def->integrator);
    if (n0 == 0 || !e) return 0;
    const double *mass = hs_model_mass(L->def->model);
    char first[48] = "", list[160];
    for (int i = 0; i < hs_model_ndof(L->def->model) && !first[0]; i++)
        if (mass[i] == 0.0) hs_model_dof_name(L->def->model, i, first, sizeof first);
    if (!e->massless)
        return hs_tf_fail(L, type_node,
                          "analysis.integrator: '%s' cannot take the experimental DOFs without "
                          "mass (%d, %s first): %s; use one that can (%s; docs/integrators.md, "
                          "\"Experimental DOFs without mass\")",
                          e->name, n0, first,
                          e->numerical_only ? "it solves numerical models only"
                                            : "an explicit method divides by the mass or "
                                              "extrapolates every DOF from its inertia",
                          hs_integrator_massless_list(list, sizeof list));
    if (strcmp(e->name, "implicit_hht_fe") == 0 &&
        strcmp(hs_options_str(L->def->integrator_opts, "fallback", "explicit"), "os_tangent") != 0)
        return hs_tf_fail(L, type_node,
                          "analysis.integrator: implicit_hht_fe's explicit fallback (Mosqueda & "
                          "Ahmadizadeh 2008b, eq. 4.2-4.3) needs a mass at every DOF, and %s "
                          "carries none; add 'fallback: os_tangent'",
                          first);
    return 0;
}
