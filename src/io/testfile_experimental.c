/* The `experimental` section: elements that map global DOFs to actuators of a site, x = T d.
 * `story: i` is the shear-building shortcut (x = d_i - d_(i-1)); `dofs` + `T` state any geometry
 * (T: one row per actuator, one column per listed DOF). Every actuator of every site belongs to
 * exactly one element. The elements' initial stiffness, sum T^T K0l T, becomes the model's extra
 * stiffness so that periods and damping see the whole structure. */
#include "testfile_impl.h"

#include "hysim/experiment_sparse.h"

#include <stdio.h>
#include <string.h>

#define HS_TF_MAX_ELEMENTS 256

static int find_site(hs_tf *L, const hs_ynode *node, const char *what, int *index)
{
    char name[64];
    int rc = hs_tf_str(L, node, what, name, sizeof name);
    if (rc) return rc;
    const hs_test_def *def = L->def;
    const char *names[64];
    char list[512] = "";
    for (int i = 0; i < def->nsites; i++) {
        if (strcmp(def->sites[i].name, name) == 0) return *index = i, 0;
        if (i < 64) names[i] = def->sites[i].name;
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
                 def->sites[i].name);
    }
    const char *near = hs_suggest(name, names, (size_t)(def->nsites < 64 ? def->nsites : 64));
    if (near)
        return hs_tf_fail(L, node, "%s: unknown site '%s'; did you mean '%s'? (known: %s)", what,
                          name, near, list);
    return hs_tf_fail(L, node, "%s: unknown site '%s' (known: %s)", what, name, list);
}

/* The element's actuators: names of its site's actuators, each used once in the whole file. */
static int channels(hs_tf *L, const hs_ynode *node, const char *what, hs_exp_element_def *el)
{
    const hs_site_config *cfg = &L->def->sites[el->site_index];
    hs_tf_site *ts = &L->sites[el->site_index];
    if (node->kind != HS_YNODE_SEQUENCE || node->n == 0)
        return hs_tf_fail(L, node, "%s: expected a list of actuator names of site '%s' ([a1, ...])",
                          what, cfg->name);
    if (node->n > HS_SITE_MAX_ACT)
        return hs_tf_fail(L, node, "%s: at most %d actuators (got %zu)", what, HS_SITE_MAX_ACT,
                          node->n);
    el->nact = (int)node->n;
    const char *names[HS_SITE_MAX_ACT];
    char list[HS_SITE_MAX_ACT * 34] = "", item[160], name[32];
    for (int j = 0; j < cfg->nact; j++) {
        names[j] = cfg->actuator_names[j];
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", j ? ", " : "", names[j]);
    }
    for (size_t i = 0; i < node->n; i++) {
        const hs_ynode *a = node->items[i];
        hs_tf_index(item, sizeof item, what, i);
        int rc = hs_tf_str(L, a, item, name, sizeof name);
        if (rc) return rc;
        int ch = -1;
        for (int j = 0; j < cfg->nact && ch < 0; j++)
            if (strcmp(names[j], name) == 0) ch = j;
        if (ch < 0) {
            const char *near = hs_suggest(name, names, (size_t)cfg->nact);
            if (near)
                return hs_tf_fail(L, a,
                                  "%s: site '%s' has no actuator '%s'; did you mean '%s'? "
                                  "(known: %s)",
                                  item, cfg->name, name, near, list);
            return hs_tf_fail(L, a, "%s: site '%s' has no actuator '%s' (known: %s)", item,
                              cfg->name, name, list);
        }
        if (ts->act_user[ch])
            return hs_tf_fail(L, a,
                              "%s: actuator '%s' of site '%s' is already used (at %d:%d); each "
                              "actuator belongs to exactly one element",
                              item, name, cfg->name, ts->act_user[ch]->line, ts->act_user[ch]->col);
        ts->act_user[ch] = a;
        el->channel[i] = ch;
    }
    return 0;
}

static int dof_number(hs_tf *L, const hs_ynode *node, const char *what, int n, int *dof)
{
    long v;
    int rc = hs_tf_int(L, node, what, 1, n, &v);
    if (!rc) *dof = (int)v - 1;
    return rc;
}

/* T from `story` or from `dofs` + `T`, expanded to nact x ndof, column-major. */
static int transformation(hs_tf *L, const hs_ynode *node, const char *what, hs_exp_element_def *el,
                          const hs_ynode *acts)
{
    const int n = hs_model_ndof(L->def->model), na = el->nact;
    const hs_ynode *st = hs_ynode_get(node, "story"), *dn = hs_ynode_get(node, "dofs"),
                   *tn = hs_ynode_get(node, "T"), *cp = hs_ynode_get(node, "control_point");
    char sub[160];
    if (cp && (st || dn))
        return hs_tf_fail(L, cp, "%s: give either 'control_point' or '%s', not both", what,
                          st ? "story" : "dofs");
    if (cp) return hs_tf_control_point(L, cp, tn, acts, what, el);
    if (st && (dn || tn))
        return hs_tf_fail(L, dn ? dn : tn, "%s: give either 'story' or 'dofs' with 'T', not both",
                          what);
    if (!st && !dn && !tn)
        return hs_tf_fail(L, node, "missing required key 'story' (or 'dofs' with 'T') in %s", what);
    el->T = hs_dvec((size_t)na * (size_t)n);
    if (!el->T) return HS_ENOMEM;
    if (st) {
        int i;
        int rc = dof_number(L, st, hs_tf_path(sub, sizeof sub, what, "story"), n, &i);
        if (rc) return rc;
        if (na != 1)
            return hs_tf_fail(L, acts, "%s: a story element has one actuator (got %d)", what, na);
        el->T[i] = 1.0; /* row 0, column i */
        if (i > 0) el->T[i - 1] = -1.0;
        return hs_model_mark_story(L->def->model, i); /* DOF i is a floor (its name) */
    }
    if (!dn || !tn)
        return hs_tf_fail(L, node, "missing required key '%s' in %s ('dofs' and 'T' go together)",
                          dn ? "T" : "dofs", what);
    hs_tf_path(sub, sizeof sub, what, "dofs");
    if (dn->kind != HS_YNODE_SEQUENCE || dn->n == 0 || dn->n > (size_t)n)
        return hs_tf_fail(L, dn, "%s: expected a list of 1 to %d DOF numbers ([1, 2, ...])", sub,
                          n);
    int dofs[HS_TF_MAX_MATRIX];
    if (dn->n > HS_TF_MAX_MATRIX)
        return hs_tf_fail(L, dn, "%s: at most %d DOFs per element", sub, HS_TF_MAX_MATRIX);
    char item[192];
    for (size_t k = 0; k < dn->n; k++) {
        int rc = dof_number(L, dn->items[k], hs_tf_index(item, sizeof item, sub, k), n, &dofs[k]);
        if (rc) return rc;
        for (size_t j = 0; j < k; j++)
            if (dofs[j] == dofs[k])
                return hs_tf_fail(L, dn->items[k], "%s: DOF %d is listed twice", item, dofs[k] + 1);
    }
    double Tr[HS_SITE_MAX_ACT * HS_TF_MAX_MATRIX];
    int rc = hs_tf_matrix(L, tn, hs_tf_path(sub, sizeof sub, what, "T"), (size_t)na, dn->n,
                          "actuator", "DOF of dofs", Tr, NULL, NULL);
    if (rc) return rc;
    for (int r = 0; r < na; r++)
        for (size_t k = 0; k < dn->n; k++)
            el->T[(size_t)dofs[k] * (size_t)na + (size_t)r] = Tr[(size_t)r * dn->n + k];
    return 0;
}

/* An nact x nact matrix written row by row, stored column-major (owned). */
static int square(hs_tf *L, const hs_ynode *node, const char *what, int na, double **out)
{
    double M[HS_SITE_MAX_ACT * HS_SITE_MAX_ACT];
    int rc =
        hs_tf_matrix(L, node, what, (size_t)na, (size_t)na, "actuator", "actuator", M, NULL, NULL);
    if (rc) return rc;
    if (!(*out = hs_dvec((size_t)na * (size_t)na))) return HS_ENOMEM;
    for (int i = 0; i < na; i++)
        for (int j = 0; j < na; j++) (*out)[j * na + i] = M[i * na + j];
    return 0;
}

static int element(hs_tf *L, const hs_ynode *node, int e)
{
    static const char *const keys[] = {
        "name",      "site",         "story", "dofs", "T", "actuators", "initial_stiffness",
        "intrinsic", "control_point"};
    hs_exp_element_def *el = &L->def->experimental[e];
    char what[64], sub[160];
    hs_tf_index(what, sizeof what, "experimental", (size_t)e);
    const hs_ynode *v, *acts;
    int rc = hs_tf_mapping(L, node, what, keys, sizeof keys / sizeof keys[0]);
    if (!rc) rc = hs_tf_required(L, node, "name", what, &v);
    if (!rc)
        rc = hs_tf_str(L, v, hs_tf_path(sub, sizeof sub, what, "name"), el->name, sizeof el->name);
    for (int j = 0; !rc && j < e; j++)
        if (strcmp(L->def->experimental[j].name, el->name) == 0)
            rc = hs_tf_fail(L, v, "%s: two experimental elements named '%s'", sub, el->name);
    if (rc) return rc;
    snprintf(what, sizeof what, "experimental.%.48s", el->name);
    rc = hs_tf_required(L, node, "site", what, &v);
    if (!rc) rc = find_site(L, v, hs_tf_path(sub, sizeof sub, what, "site"), &el->site_index);
    if (rc) return rc;
    memcpy(el->site, L->def->sites[el->site_index].name, sizeof el->site);
    rc = hs_tf_required(L, node, "actuators", what, &acts);
    if (!rc) rc = channels(L, acts, hs_tf_path(sub, sizeof sub, what, "actuators"), el);
    if (!rc) rc = transformation(L, node, what, el, acts);
    if (!rc && (v = hs_ynode_get(node, "initial_stiffness")) != NULL)
        rc = square(L, v, hs_tf_path(sub, sizeof sub, what, "initial_stiffness"), el->nact,
                    &el->K0l);
    if (!rc && (v = hs_ynode_get(node, "intrinsic")) != NULL)
        rc = square(L, v, hs_tf_path(sub, sizeof sub, what, "intrinsic"), el->nact, &el->Tp);
    return rc;
}

/* Every actuator of every site must belong to an element. */
static int all_used(hs_tf *L)
{
    for (int s = 0; s < L->def->nsites; s++) {
        const hs_site_config *cfg = &L->def->sites[s];
        for (int j = 0; j < cfg->nact; j++)
            if (!L->sites[s].act_user[j])
                return hs_tf_fail(L, L->sites[s].act_key[j],
                                  "sites.%s.actuators: actuator '%s' is used by no experimental "
                                  "element (every actuator belongs to exactly one)",
                                  cfg->name, cfg->actuator_names[j]);
    }
    return 0;
}

/* An element's K0l in actuator coordinates (na x na, column-major): as stated, else the site
 * specimen's initial stiffness at its channels; 0 when neither is known. */
static int element_k0l(const hs_tf *L, const hs_exp_element_def *el, double *Kl)
{
    const int na = el->nact, ns = L->def->sites[el->site_index].nact;
    const double *Ks = L->sites[el->site_index].K0;
    if (!el->K0l && !Ks) return 0;
    for (int j = 0; j < na; j++)
        for (int i = 0; i < na; i++)
            Kl[j * na + i] =
                el->K0l ? el->K0l[j * na + i] : Ks[el->channel[j] * ns + el->channel[i]];
    return 1;
}

/* A large model's Kx in compressed columns (no n x n array): the elements' T^T K0l T summed. */
static int extra_stiffness_sparse(hs_tf *L)
{
    const hs_test_def *def = L->def;
    const int n = hs_model_ndof(def->model);
    hs_csc *K = NULL;
    int rc = 0;
    for (int e = 0; !rc && e < def->nexp; e++) {
        const hs_exp_element_def *el = &def->experimental[e];
        double Kl[HS_SITE_MAX_ACT * HS_SITE_MAX_ACT];
        if (!element_k0l(L, el, Kl)) continue;
        hs_csc *E = NULL, *S = NULL;
        rc = hs_csc_congruence(L->ctx, n, el->nact, el->T, Kl, &E);
        if (!rc && K) rc = hs_csc_pattern_union(L->ctx, K, E, &S);
        if (!rc && K) rc = hs_csc_axpby(L->ctx, 1.0, K, 1.0, E, S);
        if (!rc) {
            hs_csc_destroy(&K);
            K = S ? S : E;
            if (S) hs_csc_destroy(&E);
        } else {
            hs_csc_destroy(&E);
            hs_csc_destroy(&S);
        }
    }
    if (!rc && K) rc = hs_model_set_extra_stiffness_sparse(def->model, K);
    hs_csc_destroy(&K);
    return rc;
}

/* Kx = sum over elements of T^T K0l T, K0l as stated, else the site specimen's initial
 * stiffness at the element's channels; elements with neither add nothing. */
static int extra_stiffness(hs_tf *L)
{
    const hs_test_def *def = L->def;
    const int n = hs_model_ndof(def->model);
    if (hs_model_is_large(def->model)) return extra_stiffness_sparse(L);
    double *K = hs_dvec((size_t)n * (size_t)n);
    if (!K) return HS_ENOMEM;
    int any = 0;
    for (int e = 0; e < def->nexp; e++) {
        const hs_exp_element_def *el = &def->experimental[e];
        const int na = el->nact;
        double Kl[HS_SITE_MAX_ACT * HS_SITE_MAX_ACT];
        if (!element_k0l(L, el, Kl)) continue;
        for (int q = 0; q < n; q++)
            for (int p = 0; p < n; p++) {
                double k = 0.0;
                for (int j = 0; j < na; j++)
                    for (int i = 0; i < na; i++)
                        k += el->T[p * na + i] * Kl[j * na + i] * el->T[q * na + j];
                K[q * n + p] += k;
            }
        any = 1;
    }
    int rc = any ? hs_model_set_extra_stiffness(def->model, K) : 0;
    hs_free(K);
    return rc;
}

int hs_tf_experimental(hs_tf *L, const hs_ynode *node)
{
    if (!node) return all_used(L);
    if (node->kind != HS_YNODE_SEQUENCE || node->n == 0)
        return hs_tf_fail(L, node,
                          "experimental: expected a list of elements ([{name, site, story | dofs "
                          "+ T, actuators}, ...])");
    if (node->n > HS_TF_MAX_ELEMENTS)
        return hs_tf_fail(L, node, "experimental: at most %d elements (got %zu)",
                          HS_TF_MAX_ELEMENTS, node->n);
    L->def->experimental = hs_calloc(node->n, sizeof *L->def->experimental);
    if (!L->def->experimental) return HS_ENOMEM;
    L->def->nexp = (int)node->n;
    for (size_t e = 0; e < node->n; e++) {
        int rc = element(L, node->items[e], (int)e);
        if (rc) return rc;
    }
    int rc = all_used(L);
    return rc ? rc : extra_stiffness(L);
}
