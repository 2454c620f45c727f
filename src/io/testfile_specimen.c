/* A virtual site's specimen and relaxation. The type names an entry of the lab's specimen
 * registry and its keys are that entry's parameters, except where the file is friendlier than
 * the registry's flat options:
 *   K, Tp      matrices written row by row ([[...], ...]); p = the rows of Tp
 *   material   the name of a `materials` entry (or a list of names of one type, one per channel):
 *              its type and parameters are copied into the options the specimen expects
 *   voltage    a number (every channel) or a list of one value per actuator
 * The specimen is then created once: values it refuses are reported at the specimen's mapping,
 * and its initial stiffness (when it states one) is kept for the damping of the structure. */
#include "testfile_impl.h"

#include "hysim/material.h"

#include <stdio.h>
#include <string.h>

#define HS_TF_MAX_SPEC_MATS HS_TF_MAX_MATRIX

/* Keys that this file handles itself rather than through the registry's flat parameters. */
static int special(const char *name)
{
    return strcmp(name, "K") == 0 || strcmp(name, "Tp") == 0 || strcmp(name, "p") == 0 ||
           strcmp(name, "material") == 0 || strcmp(name, "voltage") == 0 ||
           strcmp(name, "inner") == 0;
}

static const hs_param_spec *spec_of(const hs_specimen_entry *e, const char *name)
{
    for (const hs_param_spec *p = e->params; p && p->name; p++)
        if (strcmp(p->name, name) == 0) return p;
    return NULL;
}

static int unknown_type(hs_tf *L, const hs_ynode *at, const char *what, const char *type)
{
    const char *names[32];
    size_t n = 0;
    char list[512] = "";
    for (size_t i = 0; i < hs_specimen_registry_count() && n < 32; i++) {
        const char *name = hs_specimen_registry_get(i)->name;
        if (strcmp(name, "relaxation") == 0) continue; /* the site's `relaxation` key */
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", n ? ", " : "", name);
        names[n++] = name;
    }
    if (strcmp(type, "relaxation") == 0)
        return hs_tf_fail(L, at,
                          "%s: write relaxation as the site's 'relaxation: {fraction, tau, ...}' "
                          "next to the specimen",
                          what);
    const char *near = hs_suggest(type, names, n);
    if (near)
        return hs_tf_fail(L, at, "%s: unknown specimen type '%s'; did you mean '%s'? (known: %s)",
                          what, type, near, list);
    return hs_tf_fail(L, at, "%s: unknown specimen type '%s' (known: %s)", what, type, list);
}

/* material: NAME or [NAME, ...] (count names, one type): type and parameters into opts. Number
 * parameters become one value (a single name) or a list of count values. */
static int materials(hs_tf *L, const hs_ynode *node, const char *what, size_t count,
                     const char *count_of, hs_options *opts)
{
    const hs_tf_material *mats[HS_TF_MAX_SPEC_MATS];
    const hs_ynode *at[HS_TF_MAX_SPEC_MATS];
    size_t n = 1;
    char item[224];
    int rc = 0;
    if (node->kind == HS_YNODE_SEQUENCE) {
        if (node->n != count)
            return hs_tf_fail(L, node,
                              "%s: expected one material name or %zu (one per %s), got %zu", what,
                              count, count_of, node->n);
        n = node->n;
        for (size_t i = 0; i < n; i++) {
            at[i] = node->items[i];
            mats[i] = hs_tf_find_material(L, at[i], hs_tf_index(item, sizeof item, what, i), &rc);
            if (!mats[i]) return rc;
            if (strcmp(mats[i]->type, mats[0]->type) != 0)
                return hs_tf_fail(L, at[i],
                                  "%s: material '%s' is a %s, but '%s' is a %s; the materials of "
                                  "one specimen share a type",
                                  item, mats[i]->name, mats[i]->type, mats[0]->name, mats[0]->type);
        }
    } else {
        at[0] = node;
        mats[0] = hs_tf_find_material(L, node, what, &rc);
        if (!mats[0]) return rc;
    }
    rc = hs_options_set_str(opts, "material", mats[0]->type);
    const hs_material_entry *e = hs_material_registry_find(mats[0]->type);
    double values[HS_TF_MAX_SPEC_MATS];
    for (const hs_param_spec *p = e ? e->params : NULL; !rc && p && p->name; p++) {
        const int has0 = hs_options_has(mats[0]->opts, p->name);
        for (size_t i = 1; i < n; i++)
            if (hs_options_has(mats[i]->opts, p->name) != has0)
                return hs_tf_fail(L, at[i],
                                  "%s: materials '%s' and '%s' must state the same parameters "
                                  "('%s' differs)",
                                  what, mats[0]->name, mats[i]->name, p->name);
        if (!has0) continue;
        if (p->kind == HS_PARAM_NUM) {
            for (size_t i = 0; i < n; i++) values[i] = hs_options_num(mats[i]->opts, p->name, 0.0);
            rc = n == 1 ? hs_options_set_num(opts, p->name, values[0])
                        : hs_options_set_list(opts, p->name, values, n);
            continue;
        }
        if (p->kind == HS_PARAM_STR) {
            const char *s0 = hs_options_str(mats[0]->opts, p->name, "");
            for (size_t i = 1; i < n; i++)
                if (strcmp(hs_options_str(mats[i]->opts, p->name, ""), s0) != 0)
                    return hs_tf_fail(L, at[i],
                                      "%s: materials '%s' and '%s' differ in '%s', which one "
                                      "specimen cannot vary per channel",
                                      what, mats[0]->name, mats[i]->name, p->name);
            rc = hs_options_set_str(opts, p->name, s0);
            continue;
        }
        if (n > 1)
            return hs_tf_fail(L, node, "%s: parameter '%s' of %s is a list; give one material name",
                              what, p->name, mats[0]->type);
        const double *v = NULL;
        const size_t m = hs_options_list(mats[0]->opts, p->name, &v);
        rc = hs_options_set_list(opts, p->name, v, m);
    }
    return rc;
}

/* A matrix key (K: nact x nact, Tp: any rows x nact) into a row-by-row option list. */
static int matrix_option(hs_tf *L, const hs_ynode *node, const char *what, const char *key,
                         size_t rows, size_t nact, hs_options *opts, size_t *nrows)
{
    double M[HS_TF_MAX_MATRIX * HS_SITE_MAX_ACT];
    size_t r = 0;
    int rc = hs_tf_matrix(L, node, what, rows, nact, rows ? "actuator" : "intrinsic DOF",
                          "actuator", M, &r, NULL);
    if (!rc) rc = hs_options_set_list(opts, key, M, r * nact);
    if (nrows) *nrows = r;
    return rc;
}

static int voltage(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg,
                   hs_options *opts)
{
    if (node->kind != HS_YNODE_SEQUENCE) {
        double v = 0.0;
        int rc = hs_tf_num(L, node, what, &v);
        return rc ? rc : hs_options_set_num(opts, "voltage", v);
    }
    int rc = hs_tf_num_list(L, node, what, (size_t)cfg->nact, "actuator", cfg->voltage);
    if (rc) return rc;
    char item[224];
    for (int i = 0; i < cfg->nact; i++)
        if (!(cfg->voltage[i] >= 0.0))
            return hs_tf_fail(L, node->items[i], "%s: a voltage must be >= 0 (got %g)",
                              hs_tf_index(item, sizeof item, what, (size_t)i), cfg->voltage[i]);
    cfg->has_voltage = 1;
    return 0;
}

/* Creates the specimen once: refused values, and the initial stiffness when it has one. */
static int probe(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg, double *K0,
                 int *has_K0)
{
    hs_specimen *s = NULL;
    int rc = hs_specimen_create(L->ctx, cfg->specimen_type, cfg->nact, cfg->specimen_opts, &s);
    for (int i = 0; !rc && cfg->has_voltage && i < cfg->nact; i++)
        rc = hs_specimen_set_input(s, i, cfg->voltage[i]);
    if (!rc) {
        *has_K0 = hs_specimen_initial_stiffness(s, K0) == 0;
        if (!*has_K0) hs_ctx_clear(L->ctx); /* e.g. mr_damper: none, and that is fine */
    }
    hs_specimen_destroy(&s);
    return rc ? hs_tf_wrap(L, node, what, rc) : 0;
}

int hs_tf_specimen(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg,
                   double *K0, int *has_K0)
{
    *has_K0 = 0;
    if (node->kind != HS_YNODE_MAPPING)
        return hs_tf_fail(L, node, "%s: expected a mapping {type: ..., parameters...}, got %s",
                          what, hs_ynode_kind_name(node));
    const hs_ynode *tn;
    char sub[224];
    int rc = hs_tf_required(L, node, "type", what, &tn);
    if (!rc)
        rc = hs_tf_str(L, tn, hs_tf_path(sub, sizeof sub, what, "type"), cfg->specimen_type,
                       sizeof cfg->specimen_type);
    if (rc) return rc;
    const hs_specimen_entry *e = hs_specimen_registry_find(cfg->specimen_type);
    if (!e || strcmp(e->name, "relaxation") == 0)
        return unknown_type(L, tn, sub, cfg->specimen_type);
    /* the registry's flat parameters, without the ones handled here */
    hs_param_spec flat[64];
    const char *skip[8] = {"type"};
    size_t nflat = 0, nskip = 1;
    for (const hs_param_spec *p = e->params; p && p->name && nflat < 63; p++) {
        if (!special(p->name))
            flat[nflat++] = *p;
        else if (strcmp(p->name, "p") != 0 && strcmp(p->name, "inner") != 0 && nskip < 8)
            skip[nskip++] = p->name;
    }
    flat[nflat] = (hs_param_spec){NULL, HS_PARAM_NUM, 0, NULL};
    rc = hs_options_create(&cfg->specimen_opts);
    if (!rc) rc = hs_tf_params(L, node, what, flat, skip, nskip, cfg->specimen_opts);
    if (rc) return rc;
    for (size_t i = 1; i < nskip; i++) {
        const hs_param_spec *p = spec_of(e, skip[i]);
        if (p->required && !hs_ynode_get(node, p->name))
            return hs_tf_fail(L, node, "missing required key '%s' in %s%s%s%s", p->name, what,
                              p->help ? " (" : "", p->help ? p->help : "", p->help ? ")" : "");
    }
    const size_t nact = (size_t)cfg->nact;
    size_t count = nact;
    const char *count_of = "actuator";
    const hs_ynode *v;
    if ((v = hs_ynode_get(node, "K")) != NULL)
        rc = matrix_option(L, v, hs_tf_path(sub, sizeof sub, what, "K"), "K", nact, nact,
                           cfg->specimen_opts, NULL);
    if (!rc && (v = hs_ynode_get(node, "Tp")) != NULL) {
        rc = matrix_option(L, v, hs_tf_path(sub, sizeof sub, what, "Tp"), "Tp", 0, nact,
                           cfg->specimen_opts, &count);
        count_of = "row of Tp";
        if (!rc) rc = hs_options_set_num(cfg->specimen_opts, "p", (double)count);
    }
    if (!rc && (v = hs_ynode_get(node, "material")) != NULL)
        rc = materials(L, v, hs_tf_path(sub, sizeof sub, what, "material"), count, count_of,
                       cfg->specimen_opts);
    if (!rc && (v = hs_ynode_get(node, "voltage")) != NULL)
        rc = voltage(L, v, hs_tf_path(sub, sizeof sub, what, "voltage"), cfg, cfg->specimen_opts);
    return rc ? rc : probe(L, node, what, cfg, K0, has_K0);
}

int hs_tf_relaxation(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg)
{
    static const char *const keys[] = {"fraction", "tau", "v_still", "tau_recover"};
    const hs_ynode *v;
    char sub[224];
    int rc = hs_tf_mapping(L, node, what, keys, 4);
    if (!rc) rc = hs_options_create(&cfg->relaxation_opts);
    if (rc) return rc;
    double x[4] = {0.0, 0.0, 1e-9, 0.0};
    for (size_t k = 0; k < 4; k++) {
        if (!(v = hs_ynode_get(node, keys[k]))) {
            if (k < 2) return hs_tf_required(L, node, keys[k], what, &v);
            if (k == 3) continue; /* tau_recover: the wrapper's default, tau */
        } else {
            rc = hs_tf_num(L, v, hs_tf_path(sub, sizeof sub, what, keys[k]), &x[k]);
            const int ok = k == 0   ? (x[k] >= 0.0 && x[k] <= 1.0)
                           : k == 2 ? x[k] >= 0.0
                                    : x[k] > 0.0;
            if (!rc && !ok)
                rc = hs_tf_fail(L, v, "%s: must be %s (got %g)", sub,
                                k == 0   ? "between 0 and 1"
                                : k == 2 ? ">= 0"
                                         : "> 0",
                                x[k]);
            if (rc) return rc;
        }
        rc = hs_options_set_num(cfg->relaxation_opts, keys[k], x[k]);
        if (rc) return rc;
    }
    return 0;
}
