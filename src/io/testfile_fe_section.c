/* `structure.model.sections` (docs/fe_model.md, "Beam-columns with sections"; docs/testfile.md):
 * named cross-sections for force_beam_column, disp_beam_column and zero_length_section, as
 * OpenSees' `section Fiber | Elastic | Uniaxial | Aggregator` (hs_fe_section_def):
 *   {name, type: fiber, GJ, patches: [...], layers: [...], fibers: [...]}   (3-D: GJ required)
 *     patches: {type: rect, material, divisions: [ny, nz], I: [y, z], J: [y, z]}
 *              {type: quad, material, divisions: [nij, njk], I, J, K, L}
 *              {type: circ, material, divisions: [ncirc, nrad], center: [y, z],
 *               radius: [ri, re], angles: [a0, a1] (default [0, 360])}
 *     layers:  {type: straight, material, bars, area, start: [y, z], end: [y, z]}
 *              {type: circ, material, bars, area, center: [y, z], radius, angles (default: a
 *               whole circle)}
 *     fibers:  {y, z (default 0), area, material}
 *   {name, type: elastic, EA, EIz (3-D also EIy, GJ)}
 *   {name, type: uniaxial, material, resultant: P | Mz | Vy | My | Vz | T}
 *   {name, type: aggregator, materials: {RESULTANT: material, ...}, section: NAME}
 * The fibers come in the order of the keys patches, layers, fibers as the mapping lists them,
 * each list in its order (the order of OpenSees' commands in a `section Fiber` body). */
#include "testfile_impl.h"

#include "hysim/fe.h"

#include <string.h>

#define MAX_PATCH_FIBERS 1000000L

static const char *const SECTION_TYPES[] = {"fiber", "elastic", "uniaxial", "aggregator"};
static const char *const RESULTANTS[] = {"Mz", "P", "Vy", "My", "Vz", "T"}; /* codes 1..6 */

void hs_tf_fe_sections_free(hs_tf_section_table *s)
{
    for (size_t i = 0; i < s->n; i++) hs_fe_section_def_destroy(&s->def[i]);
    hs_free(s->def);
    hs_free(s->name);
    s->def = NULL;
    s->name = NULL;
    s->n = 0;
}

/* [y, z] of a 2-number list. */
static int point(hs_tf *L, const hs_ynode *map, const char *key, const char *what, double yz[2])
{
    const hs_ynode *v;
    char sub[160];
    int rc = hs_tf_required(L, map, key, what, &v);
    return rc ? rc
              : hs_tf_num_list(L, v, hs_tf_path(sub, sizeof sub, what, key), 2,
                               "section coordinate (y, z)", yz);
}

static int number(hs_tf *L, const hs_ynode *map, const char *key, const char *what, double *x)
{
    const hs_ynode *v;
    char sub[160];
    int rc = hs_tf_required(L, map, key, what, &v);
    return rc ? rc : hs_tf_num(L, v, hs_tf_path(sub, sizeof sub, what, key), x);
}

static int count(hs_tf *L, const hs_ynode *map, const char *key, const char *what, int *n)
{
    const hs_ynode *v;
    char sub[160];
    long x = 0;
    int rc = hs_tf_required(L, map, key, what, &v);
    if (!rc) rc = hs_tf_int(L, v, hs_tf_path(sub, sizeof sub, what, key), 1, 100000, &x);
    *n = (int)x;
    return rc;
}

/* divisions: [n1, n2], each 1 or more; *total = n1 n2 (bounded). */
static int divisions(hs_tf *L, const hs_ynode *map, const char *what, const char *names, int n[2])
{
    const hs_ynode *v;
    char sub[160], item[192];
    int rc = hs_tf_required(L, map, "divisions", what, &v);
    if (rc) return rc;
    hs_tf_path(sub, sizeof sub, what, "divisions");
    if (v->kind != HS_YNODE_SEQUENCE || v->n != 2)
        return hs_tf_fail(L, v, "%s: expected two whole numbers %s", sub, names);
    for (size_t k = 0; k < 2; k++) {
        long x;
        rc = hs_tf_int(L, v->items[k], hs_tf_index(item, sizeof item, sub, k), 1, 100000, &x);
        if (rc) return rc;
        n[k] = (int)x;
    }
    if ((long)n[0] * n[1] > MAX_PATCH_FIBERS)
        return hs_tf_fail(L, v, "%s: %d x %d fibers; at most %ld in one patch", sub, n[0], n[1],
                          MAX_PATCH_FIBERS);
    return 0;
}

/* Adds the n fibers (y, z, A) of material `mat` to d; the geometry's refusal (n < 0) at `at`. */
static int add_fibers(hs_tf *L, hs_fe_section_def *d, const hs_ynode *at, const char *what, int n,
                      const double *y, const double *z, const double *A, const hs_tf_material *mat)
{
    if (n < 0) return hs_tf_wrap(L, at, what, HS_EINPUT);
    for (int i = 0; i < n; i++) {
        int rc = hs_fe_section_def_fiber(d, y[i], z[i], A[i], mat->type, mat->opts);
        if (rc) return hs_tf_wrap(L, at, what, rc);
    }
    return 0;
}

/* One patch or layer (layer: 1): its type, material and shape into fibers of d. */
static int piece(hs_tf *L, hs_fe_section_def *d, const hs_ynode *p, const char *what, int layer)
{
    static const char *const patch_keys[] = {"type", "material", "divisions", "I",      "J",
                                             "K",    "L",        "center",    "radius", "angles"};
    static const char *const layer_keys[] = {"type",   "material", "bars", "area",  "center",
                                             "radius", "start",    "end",  "angles"};
    char sub[160], type[16];
    const hs_ynode *tn, *mn, *v;
    int rc = layer ? hs_tf_mapping(L, p, what, layer_keys, 9)
                   : hs_tf_mapping(L, p, what, patch_keys, 10);
    if (!rc) rc = hs_tf_required(L, p, "type", what, &tn);
    if (!rc) rc = hs_tf_str(L, tn, hs_tf_path(sub, sizeof sub, what, "type"), type, sizeof type);
    if (!rc) rc = hs_tf_required(L, p, "material", what, &mn);
    if (rc) return rc;
    const hs_tf_material *mat =
        hs_tf_find_material(L, mn, hs_tf_path(sub, sizeof sub, what, "material"), &rc);
    if (!mat) return rc;
    /* the keys of each shape (the mapping check above allows those of all) */
    static const char *const rect[] = {"divisions", "I", "J"};
    static const char *const quad[] = {"divisions", "I", "J", "K", "L"};
    static const char *const circ[] = {"divisions", "center", "radius", "angles"};
    static const char *const straight[] = {"bars", "area", "start", "end"};
    static const char *const lcirc[] = {"bars", "area", "center", "radius", "angles"};
    const char *const *own;
    size_t nown;
    const int is_rect = !layer && strcmp(type, "rect") == 0,
              is_quad = !layer && strcmp(type, "quad") == 0, is_circ = strcmp(type, "circ") == 0,
              is_straight = layer && strcmp(type, "straight") == 0;
    if (is_rect)
        own = rect, nown = 3;
    else if (is_quad)
        own = quad, nown = 5;
    else if (is_circ)
        own = layer ? lcirc : circ, nown = layer ? 5 : 4;
    else if (is_straight)
        own = straight, nown = 4;
    else
        return hs_tf_fail(L, tn, "%s: a %s is %s, got '%s'",
                          hs_tf_path(sub, sizeof sub, what, "type"), layer ? "layer" : "patch",
                          layer ? "straight or circ" : "rect, quad or circ", type);
    for (size_t i = 0; i < p->n; i++) {
        const char *key = hs_ynode_key(p, i)->text;
        int ok = strcmp(key, "type") == 0 || strcmp(key, "material") == 0;
        for (size_t k = 0; !ok && k < nown; k++) ok = strcmp(key, own[k]) == 0;
        if (!ok)
            return hs_tf_fail(L, hs_ynode_key(p, i), "%s: '%s' does not apply to a %s %s", what,
                              key, type, layer ? "layer" : "patch");
    }
    int n[2] = {1, 1}, bars = 0;
    double c[8], r[2] = {0.0, 0.0}, ang[2] = {0.0, 360.0}, area = 0.0;
    if (layer) {
        rc = count(L, p, "bars", what, &bars);
        if (!rc) rc = number(L, p, "area", what, &area);
        n[0] = bars;
    } else {
        rc = divisions(L, p, what,
                       is_rect   ? "[ny, nz] (cells along y and z)"
                       : is_quad ? "[nij, njk] (cells along I-J and J-K)"
                                 : "[ncirc, nrad] (cells around and across the ring)",
                       n);
    }
    if (!rc && (is_rect || is_quad)) rc = point(L, p, "I", what, &c[0]);
    if (!rc && (is_rect || is_quad)) rc = point(L, p, "J", what, &c[2]);
    if (!rc && is_quad) rc = point(L, p, "K", what, &c[4]);
    if (!rc && is_quad) rc = point(L, p, "L", what, &c[6]);
    if (!rc && is_straight) rc = point(L, p, "start", what, &c[0]);
    if (!rc && is_straight) rc = point(L, p, "end", what, &c[2]);
    if (!rc && is_circ) rc = point(L, p, "center", what, &c[0]);
    if (!rc && is_circ) {
        rc = hs_tf_required(L, p, "radius", what, &v);
        hs_tf_path(sub, sizeof sub, what, "radius");
        if (!rc)
            rc = layer ? hs_tf_num(L, v, sub, &r[0])
                       : hs_tf_num_list(L, v, sub, 2, "radius (inner, outer)", r);
    }
    const int whole = layer && is_circ && !hs_ynode_get(p, "angles");
    if (!rc && is_circ && (v = hs_ynode_get(p, "angles")) != NULL)
        rc = hs_tf_num_list(L, v, hs_tf_path(sub, sizeof sub, what, "angles"), 2,
                            "angle in degrees (start, end)", ang);
    if (rc) return rc;
    const size_t cap = (size_t)n[0] * (size_t)n[1];
    double *y = hs_dvec(cap), *z = hs_dvec(cap), *A = hs_dvec(cap);
    int made = HS_ENOMEM;
    if (y && z && A) {
        hs_ctx *ctx = L->ctx;
        const int ic = (int)cap;
        made = is_rect   ? hs_fe_patch_rect(ctx, n[0], n[1], c[0], c[1], c[2], c[3], y, z, A, ic)
               : is_quad ? hs_fe_patch_quad(ctx, n[0], n[1], c, y, z, A, ic)
               : is_straight
                   ? hs_fe_layer_straight(ctx, bars, area, c[0], c[1], c[2], c[3], y, z, A, ic)
               : layer ? hs_fe_layer_circ(ctx, bars, area, c[0], c[1], r[0], whole ? 0.0 : ang[0],
                                          whole ? 0.0 : ang[1], whole, y, z, A, ic)
                       : hs_fe_patch_circ(ctx, n[0], n[1], c[0], c[1], r[0], r[1], ang[0], ang[1],
                                          y, z, A, ic);
        rc = add_fibers(L, d, p, what, made, y, z, A, mat);
    } else {
        rc = HS_ENOMEM;
    }
    hs_free(y);
    hs_free(z);
    hs_free(A);
    return rc;
}

static int fiber(hs_tf *L, hs_fe_section_def *d, const hs_ynode *f, const char *what)
{
    static const char *const keys[] = {"y", "z", "area", "material"};
    const hs_ynode *mn, *v;
    char sub[160];
    double y = 0.0, z = 0.0, A = 0.0;
    int rc = hs_tf_mapping(L, f, what, keys, 4);
    if (!rc) rc = number(L, f, "y", what, &y);
    if (!rc && (v = hs_ynode_get(f, "z")) != NULL)
        rc = hs_tf_num(L, v, hs_tf_path(sub, sizeof sub, what, "z"), &z);
    if (!rc) rc = number(L, f, "area", what, &A);
    if (!rc) rc = hs_tf_required(L, f, "material", what, &mn);
    if (rc) return rc;
    const hs_tf_material *mat =
        hs_tf_find_material(L, mn, hs_tf_path(sub, sizeof sub, what, "material"), &rc);
    return mat ? add_fibers(L, d, f, what, 1, &y, &z, &A, mat) : rc;
}

/* patches, layers and fibers in the order the mapping gives them; GJ. */
static int fiber_section(hs_tf *L, hs_fe_section_def *d, int ndm, const hs_ynode *s,
                         const char *what)
{
    char sub[160], item[192];
    const hs_ynode *v;
    int rc = 0;
    for (size_t i = 0; !rc && i < s->n; i++) {
        const char *key = hs_ynode_key(s, i)->text;
        const int which = strcmp(key, "patches") == 0  ? 0
                          : strcmp(key, "layers") == 0 ? 1
                          : strcmp(key, "fibers") == 0 ? 2
                                                       : -1;
        if (which < 0) continue;
        v = hs_ynode_value(s, i);
        hs_tf_path(sub, sizeof sub, what, key);
        if (v->kind != HS_YNODE_SEQUENCE || v->n == 0)
            return hs_tf_fail(L, v, "%s: expected a list of %s", sub,
                              which == 0   ? "{type: rect | quad | circ, material, ...}"
                              : which == 1 ? "{type: straight | circ, material, bars, area, ...}"
                                           : "{y, z, area, material}");
        for (size_t k = 0; !rc && k < v->n; k++) {
            hs_tf_index(item, sizeof item, sub, k);
            rc =
                which == 2 ? fiber(L, d, v->items[k], item) : piece(L, d, v->items[k], item, which);
        }
    }
    if (rc) return rc;
    if (!hs_ynode_get(s, "patches") && !hs_ynode_get(s, "layers") && !hs_ynode_get(s, "fibers"))
        return hs_tf_fail(L, s, "%s: a fiber section needs patches, layers or fibers", what);
    if ((v = hs_ynode_get(s, "GJ")) != NULL) {
        double GJ;
        rc = hs_tf_num(L, v, hs_tf_path(sub, sizeof sub, what, "GJ"), &GJ);
        if (!rc && ndm != 3)
            rc = hs_tf_fail(L, v, "%s: a 2-D section has no torsion; remove GJ", sub);
        if (!rc && !(GJ > 0.0)) rc = hs_tf_fail(L, v, "%s: must be > 0 (got %g)", sub, GJ);
        if (!rc) hs_fe_section_def_torsion(d, GJ);
    } else if (ndm == 3) {
        rc = hs_tf_fail(L, s,
                        "%s: a 3-D fiber section needs GJ, its torsional stiffness (as OpenSees' "
                        "section Fiber -GJ)",
                        what);
    }
    return rc;
}

static int elastic_section(hs_tf *L, hs_fe_section_def *d, int ndm, const hs_ynode *s,
                           const char *what)
{
    static const char *const keys[] = {"EA", "EIz", "EIy", "GJ"};
    double v[4] = {0.0, 0.0, 0.0, 0.0};
    int rc = 0;
    for (int k = 0; !rc && k < 4; k++) {
        const hs_ynode *n = hs_ynode_get(s, keys[k]);
        char sub[160];
        if (k >= 2 && ndm != 3) {
            if (n)
                rc =
                    hs_tf_fail(L, n, "%s: %s is for 3-D sections (ndm: 3); a 2-D one takes EA, EIz",
                               what, keys[k]);
            continue;
        }
        rc = number(L, s, keys[k], what, &v[k]);
        if (!rc && !(v[k] > 0.0))
            rc = hs_tf_fail(L, hs_ynode_get(s, keys[k]), "%s: must be > 0 (got %g)",
                            hs_tf_path(sub, sizeof sub, what, keys[k]), v[k]);
    }
    if (rc) return rc;
    rc = hs_fe_section_def_elastic(d, v[0], v[1], v[2], v[3]);
    return rc ? hs_tf_wrap(L, s, what, rc) : 0;
}

/* A resultant's name (P, Mz, Vy, My, Vz, T) at `at` into its OpenSees code. */
static int resultant(hs_tf *L, const hs_ynode *at, const char *text, const char *what, int ndm,
                     int *code)
{
    for (int k = 0; k < 6; k++)
        if (strcmp(text, RESULTANTS[k]) == 0) {
            if (ndm != 3 && k >= 3)
                return hs_tf_fail(L, at, "%s: %s is a 3-D resultant; a 2-D section has P, Mz, Vy",
                                  what, text);
            return *code = k + 1, 0;
        }
    return hs_tf_fail(L, at, "%s: expected a resultant P, Mz, Vy%s, got '%s'", what,
                      ndm == 3 ? ", My, Vz or T" : " (3-D also My, Vz, T)", text);
}

static int uniaxial_section(hs_tf *L, hs_fe_section_def *d, int ndm, const hs_ynode *s,
                            const char *what)
{
    const hs_ynode *mn, *rn;
    char sub[160], r[8];
    int code = 0, rc = hs_tf_required(L, s, "material", what, &mn);
    if (!rc) rc = hs_tf_required(L, s, "resultant", what, &rn);
    if (!rc) rc = hs_tf_str(L, rn, hs_tf_path(sub, sizeof sub, what, "resultant"), r, sizeof r);
    if (!rc) rc = resultant(L, rn, r, sub, ndm, &code);
    if (rc) return rc;
    const hs_tf_material *mat =
        hs_tf_find_material(L, mn, hs_tf_path(sub, sizeof sub, what, "material"), &rc);
    if (!mat) return rc;
    rc = hs_fe_section_def_uniaxial(d, code, mat->type, mat->opts);
    return rc ? hs_tf_wrap(L, s, what, rc) : 0;
}

/* The section `name` at `at` among the first n of t (scope: where they are, for the message), or
 * NULL with an error. */
static const hs_fe_section_def *named(hs_tf *L, const hs_tf_section_table *t, size_t n,
                                      const hs_ynode *at, const char *what, const char *scope,
                                      int *rc)
{
    char name[64];
    *rc = hs_tf_str(L, at, what, name, sizeof name);
    if (*rc) return NULL;
    for (size_t i = 0; i < n; i++)
        if (strcmp(t->name[i], name) == 0) return t->def[i];
    const char *near = hs_suggest(name, t->name, n);
    *rc = hs_tf_fail(L, at, "%s: no section '%s' %s%s%s%s", what, name, scope,
                     near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
    return NULL;
}

static int aggregator_section(hs_tf *L, hs_fe_section_def *d, int ndm, const hs_ynode *s,
                              const char *what, const hs_tf_section_table *t, size_t index)
{
    const hs_ynode *mn = hs_ynode_get(s, "materials"), *sn = hs_ynode_get(s, "section");
    char sub[160], item[192];
    int rc = 0;
    if (!mn && !sn)
        return hs_tf_fail(L, s,
                          "%s: an aggregator needs materials ({P: NAME, Vy: NAME, ...}) and/or a "
                          "section to add them to",
                          what);
    if (mn) {
        hs_tf_path(sub, sizeof sub, what, "materials");
        if (mn->kind != HS_YNODE_MAPPING || mn->n == 0)
            return hs_tf_fail(L, mn,
                              "%s: expected a mapping of resultants to material names ({Vy: "
                              "shear, T: torsion})",
                              sub);
        for (size_t i = 0; i < mn->n; i++) {
            const hs_ynode *k = hs_ynode_key(mn, i);
            int code = 0;
            hs_tf_path(item, sizeof item, sub, k->text);
            rc = resultant(L, k, k->text, item, ndm, &code);
            if (rc) return rc;
            const hs_tf_material *mat = hs_tf_find_material(L, hs_ynode_value(mn, i), item, &rc);
            if (!mat) return rc;
            rc = hs_fe_section_def_uniaxial(d, code, mat->type, mat->opts);
            if (rc) return hs_tf_wrap(L, k, item, rc);
        }
    }
    if (sn) {
        const hs_fe_section_def *base =
            named(L, t, index, sn, hs_tf_path(sub, sizeof sub, what, "section"),
                  "above it in structure.model.sections (define it first)", &rc);
        if (!base) return rc;
        rc = hs_fe_section_def_append(d, base);
        if (rc) return hs_tf_wrap(L, sn, sub, rc);
    }
    return 0;
}

/* Keys of each section type besides name and type. */
static const char *const SECTION_KEYS[][4] = {{"patches", "layers", "fibers", "GJ"},
                                              {"EA", "EIz", "EIy", "GJ"},
                                              {"material", "resultant", NULL, NULL},
                                              {"materials", "section", NULL, NULL}};

static int section(hs_tf *L, int ndm, const hs_ynode *s, size_t i, hs_tf_section_table *t)
{
    static const char *const keys[] = {"name",      "type",      "patches", "layers", "fibers",
                                       "GJ",        "EA",        "EIz",     "EIy",    "material",
                                       "resultant", "materials", "section"};
    char what[64], sub[96], type[16];
    const hs_ynode *nn, *tn;
    hs_tf_index(what, sizeof what, "structure.model.sections", i);
    int rc = hs_tf_mapping(L, s, what, keys, sizeof keys / sizeof keys[0]);
    if (!rc) rc = hs_tf_required(L, s, "name", what, &nn);
    if (!rc) rc = hs_tf_required(L, s, "type", what, &tn);
    if (!rc) rc = hs_tf_str(L, tn, hs_tf_path(sub, sizeof sub, what, "type"), type, sizeof type);
    if (rc) return rc;
    int kind = -1;
    for (int k = 0; k < 4; k++)
        if (strcmp(type, SECTION_TYPES[k]) == 0) kind = k;
    if (kind < 0) {
        const char *near = hs_suggest(type, SECTION_TYPES, 4);
        return hs_tf_fail(L, tn,
                          "%s: unknown section type '%s'%s%s%s (known: fiber, elastic, uniaxial, "
                          "aggregator)",
                          sub, type, near ? "; did you mean '" : "", near ? near : "",
                          near ? "'?" : "");
    }
    for (size_t k = 0; k < s->n; k++) {
        const hs_ynode *key = hs_ynode_key(s, k);
        int own = strcmp(key->text, "name") == 0 || strcmp(key->text, "type") == 0;
        for (int j = 0; !own && j < 4; j++)
            own = SECTION_KEYS[kind][j] && strcmp(key->text, SECTION_KEYS[kind][j]) == 0;
        if (!own)
            return hs_tf_fail(L, key, "%s: '%s' does not apply to a %s section", what, key->text,
                              type);
    }
    if (nn->kind != HS_YNODE_SCALAR || nn->len == 0 || nn->len > 63)
        return hs_tf_fail(L, nn, "%s.name: expected a name of 1 to 63 characters", what);
    for (size_t k = 0; k < i; k++)
        if (strcmp(t->name[k], nn->text) == 0)
            return hs_tf_fail(L, nn, "%s.name: section '%s' is defined twice", what, nn->text);
    rc = hs_fe_section_def_create(L->ctx, ndm, &t->def[i]);
    if (rc) return hs_tf_wrap(L, s, what, rc);
    t->name[i] = nn->text;
    t->n = i + 1;
    hs_fe_section_def *d = t->def[i];
    rc = kind == 0   ? fiber_section(L, d, ndm, s, what)
         : kind == 1 ? elastic_section(L, d, ndm, s, what)
         : kind == 2 ? uniaxial_section(L, d, ndm, s, what)
                     : aggregator_section(L, d, ndm, s, what, t, i);
    if (!rc && (rc = hs_fe_section_def_check(d)) < 0) rc = hs_tf_wrap(L, s, what, rc);
    return rc < 0 ? rc : 0;
}

int hs_tf_fe_sections(hs_tf *L, int ndm, const hs_ynode *list, hs_tf_section_table *t)
{
    memset(t, 0, sizeof *t);
    if (ndm != 2 && ndm != 3)
        return hs_tf_fail(L, list,
                          "structure.model.sections: sections are for 2-D and 3-D frames (ndm: 2 "
                          "or 3)");
    if (list->kind != HS_YNODE_SEQUENCE || list->n == 0 || list->n > 10000)
        return hs_tf_fail(L, list,
                          "structure.model.sections: expected a list of {name, type: fiber | "
                          "elastic | uniaxial | aggregator, ...}");
    t->def = hs_calloc(list->n, sizeof *t->def);
    t->name = hs_calloc(list->n, sizeof *t->name);
    if (!t->def || !t->name) {
        hs_tf_fe_sections_free(t);
        return HS_ENOMEM;
    }
    int rc = 0;
    for (size_t i = 0; !rc && i < list->n; i++) rc = section(L, ndm, list->items[i], i, t);
    if (rc) hs_tf_fe_sections_free(t);
    return rc;
}

const hs_fe_section_def *hs_tf_fe_find_section(hs_tf *L, const hs_tf_section_table *t,
                                               const hs_ynode *at, const char *what, int *rc)
{
    if (t->n == 0) {
        *rc = hs_tf_fail(L, at,
                         "%s: the model has no sections (give structure.model.sections: [{name, "
                         "type: fiber | elastic | uniaxial | aggregator, ...}])",
                         what);
        return NULL;
    }
    return named(L, t, t->n, at, what, "in structure.model.sections", rc);
}
