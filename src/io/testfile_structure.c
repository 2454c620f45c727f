/* The `materials` and `structure` sections: materials validated against the material registry,
 * then the model (masses, ground influence, stories, springs) and, once the experimental elements
 * are known, its damping. */
#include "testfile_impl.h"

#include "hysim/linalg.h"
#include "hysim/rths.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int hs_tf_materials(hs_tf *L, const hs_ynode *node)
{
    if (node->kind != HS_YNODE_MAPPING || node->n == 0)
        return hs_tf_fail(L, node, "materials: expected a mapping of names to {type: ..., ...}");
    L->materials = hs_calloc(node->n, sizeof *L->materials);
    if (!L->materials) return HS_ENOMEM;
    const char *types[64];
    size_t ntypes = 0;
    for (size_t i = 0; i < hs_material_registry_count() && ntypes < 64; i++)
        types[ntypes++] = hs_material_registry_get(i)->name;
    for (size_t i = 0; i < node->n; i++) {
        const hs_ynode *k = hs_ynode_key(node, i), *v = hs_ynode_value(node, i);
        char what[192], type[64];
        snprintf(what, sizeof what, "materials.%.64s", k->text);
        if (k->len == 0 || strlen(k->text) != k->len || k->len > 63)
            return hs_tf_fail(L, k, "materials: a material name must be 1 to 63 characters");
        if (v->kind != HS_YNODE_MAPPING)
            return hs_tf_fail(L, v, "%s: expected a mapping {type: ..., parameters...}, got %s",
                              what, hs_ynode_kind_name(v));
        const hs_ynode *tn;
        char sub[224];
        int rc = hs_tf_required(L, v, "type", what, &tn);
        if (!rc)
            rc = hs_tf_str(L, tn, hs_tf_path(sub, sizeof sub, what, "type"), type, sizeof type);
        if (rc) return rc;
        const hs_material_entry *e = hs_material_registry_find(type);
        if (!e) {
            const char *near = hs_suggest(type, types, ntypes);
            char list[512] = "";
            for (size_t t = 0; t < ntypes; t++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", t ? ", " : "",
                         types[t]);
            if (near)
                return hs_tf_fail(L, tn, "%s: unknown material type '%s'; did you mean '%s'?", sub,
                                  type, near);
            return hs_tf_fail(L, tn, "%s: unknown material type '%s' (known: %s)", sub, type, list);
        }
        hs_tf_material *m = &L->materials[L->nmaterials++];
        m->name = k->text;
        m->type = e->name;
        m->node = v;
        rc = hs_options_create(&m->opts);
        if (rc) return rc;
        static const char *const skip[] = {"type"};
        rc = hs_tf_params(L, v, what, e->params, skip, 1, m->opts);
        if (rc) return rc;
        /* The constructor checks values (k >= 0, fy > 0, ...): try it once here. */
        hs_material *probe = NULL;
        rc = hs_material_create(L->ctx, m->type, m->opts, &probe);
        hs_material_destroy(&probe);
        if (rc) return hs_tf_wrap(L, v, what, rc);
    }
    return 0;
}

const hs_tf_material *hs_tf_find_material(hs_tf *L, const hs_ynode *node, const char *what, int *rc)
{
    char name[64];
    *rc = hs_tf_str(L, node, what, name, sizeof name);
    if (*rc) return NULL;
    for (size_t i = 0; i < L->nmaterials; i++)
        if (strcmp(L->materials[i].name, name) == 0) return &L->materials[i];
    char list[512] = "";
    const char *names[64];
    size_t nn = 0;
    for (size_t i = 0; i < L->nmaterials; i++) {
        if (nn < 64) names[nn++] = L->materials[i].name;
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
                 L->materials[i].name);
    }
    const char *near = hs_suggest(name, names, nn);
    if (near)
        *rc = hs_tf_fail(L, node, "%s: unknown material '%s'; did you mean '%s'? (known: %s)", what,
                         name, near, list);
    else
        *rc = hs_tf_fail(L, node, "%s: unknown material '%s' (known: %s)", what, name,
                         nn ? list : "none, the file has no materials section");
    return NULL;
}

static int shear_building(hs_tf *L, const hs_ynode *node, int n)
{
    static const char *const keys[] = {"stories"};
    const char *what = "structure.shear_building";
    const hs_ynode *stories;
    int rc = hs_tf_mapping(L, node, what, keys, 1);
    if (!rc) rc = hs_tf_required(L, node, "stories", what, &stories);
    if (rc) return rc;
    if (stories->kind != HS_YNODE_SEQUENCE)
        return hs_tf_fail(L, stories, "%s.stories: expected a list of {material: NAME}, got %s",
                          what, hs_ynode_kind_name(stories));
    if (stories->n != (size_t)n)
        return hs_tf_fail(L, stories,
                          "%s.stories: expected %d stories (one per DOF, structure.dofs = %d), "
                          "got %zu",
                          what, n, n, stories->n);
    static const char *const story_keys[] = {"material"};
    for (size_t i = 0; i < stories->n; i++) {
        const hs_ynode *s = stories->items[i], *mn;
        char sw[96], mw[128];
        hs_tf_index(sw, sizeof sw, "structure.shear_building.stories", i);
        rc = hs_tf_mapping(L, s, sw, story_keys, 1);
        if (!rc) rc = hs_tf_required(L, s, "material", sw, &mn);
        if (rc) return rc;
        const hs_tf_material *mat =
            hs_tf_find_material(L, mn, hs_tf_path(mw, sizeof mw, sw, "material"), &rc);
        if (!mat) return rc;
        rc = hs_model_add_story(L->def->model, (int)i, mat->type, mat->opts, mat->name);
        if (rc < 0) return hs_tf_wrap(L, s, sw, rc);
    }
    return 0;
}

static int spring_dof(hs_tf *L, const hs_ynode *node, const char *what, int n, int ground_ok,
                      int *dof)
{
    if (ground_ok && node->kind == HS_YNODE_SCALAR && strcmp(node->text, "ground") == 0 &&
        node->len == 6) {
        *dof = HS_GROUND;
        return 0;
    }
    if (node->kind == HS_YNODE_SCALAR &&
        !(node->plain && node->len && node->text[0] >= '0' && node->text[0] <= '9'))
        return hs_tf_fail(L, node, "%s: expected %sa DOF number 1..%d, got '%.40s'", what,
                          ground_ok ? "'ground' or " : "", n, node->text);
    long v;
    int rc = hs_tf_int(L, node, what, 1, n, &v);
    if (!rc) *dof = (int)v - 1;
    return rc;
}

static int springs(hs_tf *L, const hs_ynode *node, int n)
{
    if (node->kind != HS_YNODE_SEQUENCE)
        return hs_tf_fail(L, node,
                          "structure.springs: expected a list of {name, from, to, material}, "
                          "got %s",
                          hs_ynode_kind_name(node));
    static const char *const keys[] = {"name", "from", "to", "material"};
    for (size_t i = 0; i < node->n; i++) {
        const hs_ynode *s = node->items[i], *fn, *tn, *mn, *nn;
        char sw[64], sub[96], name[32];
        hs_tf_index(sw, sizeof sw, "structure.springs", i);
        int rc = hs_tf_mapping(L, s, sw, keys, 4);
        if (!rc) rc = hs_tf_required(L, s, "from", sw, &fn);
        if (!rc) rc = hs_tf_required(L, s, "to", sw, &tn);
        if (!rc) rc = hs_tf_required(L, s, "material", sw, &mn);
        if (rc) return rc;
        snprintf(name, sizeof name, "spring%zu", i + 1);
        if ((nn = hs_ynode_get(s, "name")) != NULL) {
            rc = hs_tf_str(L, nn, hs_tf_path(sub, sizeof sub, sw, "name"), name, sizeof name);
            if (rc) return rc;
        }
        int from = 0, to = 0;
        rc = spring_dof(L, fn, hs_tf_path(sub, sizeof sub, sw, "from"), n, 1, &from);
        if (!rc) rc = spring_dof(L, tn, hs_tf_path(sub, sizeof sub, sw, "to"), n, 0, &to);
        if (rc) return rc;
        if (from == to)
            return hs_tf_fail(L, tn, "%s: a spring must join two different DOFs (from = to = %d)",
                              sw, to + 1);
        const hs_tf_material *mat =
            hs_tf_find_material(L, mn, hs_tf_path(sub, sizeof sub, sw, "material"), &rc);
        if (!mat) return rc;
        rc = hs_model_add_spring(L->def->model, name, from, to, mat->type, mat->opts, mat->name);
        if (rc < 0) return hs_tf_wrap(L, s, sw, rc);
    }
    return 0;
}

static int ratio(hs_tf *L, const hs_ynode *node, const char *what, double *z)
{
    int rc = hs_tf_num(L, node, what, z);
    if (!rc && !(*z >= 0.0))
        rc = hs_tf_fail(L, node, "%s: a damping ratio must be >= 0 (got %g)", what, *z);
    return rc;
}

static int damping_rayleigh(hs_tf *L, const hs_ynode *node, int n)
{
    static const char *const keys[] = {"modes", "ratios"};
    const char *what = "structure.damping.rayleigh";
    const hs_ynode *mn, *zn;
    int rc = hs_tf_mapping(L, node, what, keys, 2);
    if (!rc) rc = hs_tf_required(L, node, "modes", what, &mn);
    if (!rc) rc = hs_tf_required(L, node, "ratios", what, &zn);
    if (rc) return rc;
    if (mn->kind != HS_YNODE_SEQUENCE || mn->n != 2)
        return hs_tf_fail(L, mn, "%s.modes: expected a list of 2 mode numbers [i, j], got %s", what,
                          mn->kind == HS_YNODE_SEQUENCE ? "another length"
                                                        : hs_ynode_kind_name(mn));
    if (zn->kind != HS_YNODE_SEQUENCE || zn->n != 2)
        return hs_tf_fail(L, zn, "%s.ratios: expected a list of 2 ratios [zi, zj], got %s", what,
                          zn->kind == HS_YNODE_SEQUENCE ? "another length"
                                                        : hs_ynode_kind_name(zn));
    long mode[2];
    double z[2];
    char sub[96];
    for (size_t k = 0; k < 2; k++) {
        rc = hs_tf_int(L, mn->items[k],
                       hs_tf_index(sub, sizeof sub, "structure.damping.rayleigh.modes", k), 1, n,
                       &mode[k]);
        if (!rc)
            rc = ratio(L, zn->items[k],
                       hs_tf_index(sub, sizeof sub, "structure.damping.rayleigh.ratios", k), &z[k]);
        if (rc) return rc;
    }
    if (mode[0] == mode[1])
        return hs_tf_fail(L, mn->items[1], "%s.modes: the two modes must differ (both are %ld)",
                          what, mode[0]);
    rc = hs_model_damping_rayleigh(L->def->model, (int)mode[0] - 1, (int)mode[1] - 1, z[0], z[1]);
    if (rc) return hs_tf_wrap(L, node, what, rc);
    double a0, a1;
    hs_model_damping_coefficients(L->def->model, &a0, &a1);
    if (a0 < 0.0 || a1 < 0.0)
        return hs_tf_fail(L, zn,
                          "%s: these ratios give a negative coefficient (a0 = %g, a1 = %g), i.e. "
                          "negative damping in some modes",
                          what, a0, a1);
    return 0;
}

static int damping_stiffness(hs_tf *L, const hs_ynode *node, int n)
{
    static const char *const keys[] = {"mode", "ratio"};
    const char *what = "structure.damping.stiffness_proportional";
    const hs_ynode *mn, *zn;
    long mode;
    double z;
    int rc = hs_tf_mapping(L, node, what, keys, 2);
    if (!rc) rc = hs_tf_required(L, node, "mode", what, &mn);
    if (!rc) rc = hs_tf_required(L, node, "ratio", what, &zn);
    if (!rc) rc = hs_tf_int(L, mn, "structure.damping.stiffness_proportional.mode", 1, n, &mode);
    if (!rc) rc = ratio(L, zn, "structure.damping.stiffness_proportional.ratio", &z);
    if (rc) return rc;
    rc = hs_model_damping_stiffness_proportional(L->def->model, (int)mode - 1, z);
    return rc ? hs_tf_wrap(L, node, what, rc) : 0;
}

static int damping_modal(hs_tf *L, const hs_ynode *node, int n)
{
    static const char *const keys[] = {"ratios"};
    const char *what = "structure.damping.modal";
    const hs_ynode *zn;
    int rc = hs_tf_mapping(L, node, what, keys, 1);
    if (!rc) rc = hs_tf_required(L, node, "ratios", what, &zn);
    if (rc) return rc;
    double *z = hs_dvec((size_t)n);
    if (!z) return HS_ENOMEM;
    rc = hs_tf_num_list(L, zn, "structure.damping.modal.ratios", (size_t)n, "mode", z);
    char sub[96];
    for (int k = 0; !rc && k < n; k++)
        rc =
            ratio(L, zn->items[k],
                  hs_tf_index(sub, sizeof sub, "structure.damping.modal.ratios", (size_t)k), &z[k]);
    if (!rc) {
        rc = hs_model_damping_modal(L->def->model, z);
        if (rc) rc = hs_tf_wrap(L, node, what, rc);
    }
    hs_free(z);
    return rc;
}

/* C row by row */
static int damping_matrix(hs_tf *L, const hs_ynode *node, int n)
{
    const char *what = "structure.damping.matrix";
    const size_t nn = (size_t)n * (size_t)n;
    double *rows = hs_dvec(nn), *C = hs_dvec(nn);
    int rc = rows && C ? 0 : HS_ENOMEM;
    if (!rc) rc = hs_tf_matrix(L, node, what, (size_t)n, (size_t)n, "DOF", "DOF", rows, NULL, NULL);
    for (int i = 0; !rc && i < n; i++) /* row by row as written, into column-major */
        for (int j = 0; j < n; j++) HS_AT(C, n, i, j) = rows[(size_t)i * (size_t)n + (size_t)j];
    if (!rc) rc = hs_model_damping_matrix(L->def->model, C);
    hs_free(rows);
    hs_free(C);
    if (rc == HS_ENOMEM) return rc;
    return rc ? hs_tf_wrap(L, node, what, rc) : 0;
}

/* The RTHS benchmark's numerical substructure: the package's C less the specimen's ce of the
 * chosen plant at floor 1, C - ce e1 e1' (F1_input_file.m:26,32,38; hysim/rths.h) */
static int damping_rths(hs_tf *L, const hs_ynode *node, int n)
{
    const char *what = "structure.damping.rths_benchmark";
    if (n != 3)
        return hs_tf_fail(L, node, "%s: the benchmark's frame has 3 DOFs (the structure has %d)",
                          what, n);
    hs_options *o = NULL;
    int rc = hs_options_create(&o);
    if (!rc) rc = hs_tf_params(L, node, what, hs_specimen_rths_frame_params, NULL, 0, o);
    hs_rths_plant_params p;
    if (!rc && hs_rths_plant_from_options(L->ctx, o, what, &p))
        rc = hs_tf_fail(L, node, "%s", hs_ctx_message(L->ctx));
    hs_options_destroy(&o);
    if (rc) return rc;
    hs_rths_structure st;
    hs_rths_structure_build(&p, &st);
    rc = hs_model_damping_matrix(L->def->model, st.Cn);
    return rc ? hs_tf_wrap(L, node, what, rc) : 0;
}

static int damping(hs_tf *L, const hs_ynode *node, int n)
{
    static const char *const forms[] = {"rayleigh", "stiffness_proportional", "modal", "none",
                                        "matrix",   "rths_benchmark"};
    const char *what = "structure.damping";
    int rc = hs_tf_mapping(L, node, what, forms, 6);
    if (rc) return rc;
    if (node->n == 0)
        return hs_tf_fail(L, node,
                          "%s: state one of rayleigh, stiffness_proportional, modal, matrix, "
                          "rths_benchmark or none",
                          what);
    if (node->n > 1)
        return hs_tf_fail(L, hs_ynode_key(node, 1),
                          "%s: give exactly one form; '%s' conflicts with '%s'", what,
                          hs_ynode_key(node, 1)->text, hs_ynode_key(node, 0)->text);
    const char *form = hs_ynode_key(node, 0)->text;
    const hs_ynode *v = hs_ynode_value(node, 0);
    snprintf(L->def->damping_kind, sizeof L->def->damping_kind, "%s", form);
    if (strcmp(form, "rayleigh") == 0) return damping_rayleigh(L, v, n);
    if (strcmp(form, "stiffness_proportional") == 0) return damping_stiffness(L, v, n);
    if (strcmp(form, "modal") == 0) return damping_modal(L, v, n);
    if (strcmp(form, "matrix") == 0) return damping_matrix(L, v, n);
    if (strcmp(form, "rths_benchmark") == 0) return damping_rths(L, v, n);
    int none;
    rc = hs_tf_bool(L, v, "structure.damping.none", &none);
    if (rc) return rc;
    if (!none)
        return hs_tf_fail(L, v,
                          "structure.damping.none: write 'none: true' for an undamped structure, "
                          "or state another form");
    return hs_model_damping_none(L->def->model);
}

int hs_tf_structure(hs_tf *L, const hs_ynode *node)
{
    static const char *const keys[] = {
        "dofs", "mass", "ground_influence", "shear_building", "springs", "damping", "model"};
    const char *what = "structure";
    const hs_ynode *dn, *mn, *damp, *fm;
    long n;
    int rc = hs_tf_mapping(L, node, what, keys, 7);
    if (!rc && (fm = hs_ynode_get(node, "model")) != NULL) { /* the frame model */
        for (size_t k = 0; k < 5; k++)
            if (hs_ynode_get(node, keys[k]))
                return hs_tf_fail(L, hs_ynode_get(node, keys[k]),
                                  "structure: '%s' does not go with 'model' (the frame model "
                                  "states its nodes, masses and elements)",
                                  keys[k]);
        /* an OpenSees script may state its damping (rayleigh): testfile_opensees.c */
        damp = hs_ynode_get(node, "damping");
        if (!damp && !(fm->kind == HS_YNODE_MAPPING && hs_ynode_get(fm, "opensees")))
            rc = hs_tf_required(L, node, "damping", what, &damp);
        L->damping = damp;
        return rc ? rc : hs_tf_fe_model(L, fm);
    }
    if (!rc) rc = hs_tf_required(L, node, "dofs", what, &dn);
    if (!rc) rc = hs_tf_int(L, dn, "structure.dofs", 1, HS_TF_MAX_DOFS, &n);
    if (!rc) rc = hs_tf_required(L, node, "mass", what, &mn);
    if (!rc) rc = hs_tf_required(L, node, "damping", what, &damp);
    if (rc) return rc;
    const hs_ynode *sb = hs_ynode_get(node, "shear_building"), *sp = hs_ynode_get(node, "springs");
    if (!sb && !sp && !L->has_experimental)
        return hs_tf_fail(L, node,
                          "structure: no stiffness; give shear_building, springs or both (or "
                          "experimental elements)");
    double *mass = hs_dvec((size_t)n), *iota = hs_dvec((size_t)n);
    rc = (!mass || !iota) ? HS_ENOMEM : 0;
    if (!rc) rc = hs_tf_num_list(L, mn, "structure.mass", (size_t)n, "DOF", mass);
    char sub[64];
    for (long i = 0; !rc && i < n; i++)
        if (!(mass[i] > 0.0))
            rc = hs_tf_fail(L, mn->items[i], "%s: a mass must be > 0 (got %g)",
                            hs_tf_index(sub, sizeof sub, "structure.mass", (size_t)i), mass[i]);
    const hs_ynode *gi = hs_ynode_get(node, "ground_influence");
    for (long i = 0; i < n && iota; i++) iota[i] = 1.0;
    if (!rc && gi) rc = hs_tf_num_list(L, gi, "structure.ground_influence", (size_t)n, "DOF", iota);
    if (!rc) rc = hs_model_create(L->ctx, (int)n, &L->def->model);
    if (!rc) rc = hs_model_set_mass(L->def->model, mass);
    if (!rc) rc = hs_model_set_influence(L->def->model, iota);
    hs_free(mass);
    hs_free(iota);
    if (!rc && sb) rc = shear_building(L, sb, (int)n);
    if (!rc && sp) rc = springs(L, sp, (int)n);
    L->damping = damp;
    return rc;
}

int hs_tf_damping(hs_tf *L)
{
    if (L->script.set && !L->damping) return hs_tf_opensees_damping(L); /* its rayleigh */
    return damping(L, L->damping, hs_model_ndof(L->def->model));
}
