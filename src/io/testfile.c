/* The test definition file loader: reads the YAML tree, checks the top level, hysim, name,
 * units and output, and hands the other sections to their readers (materials, structure, sites,
 * experimental, damping, ground_motion, analysis, in that order). Never runs code. */
#include "testfile_impl.h"

#include "../base/regular_file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define HS_TF_MAX_FILE (16u << 20) /* 16 MiB, docs/testfile.md */

static int too_large(hs_ctx *ctx, const char *path)
{
    return hs_fail(ctx, HS_EINPUT, "%s: larger than %u MiB (%u bytes); not a test definition", path,
                   HS_TF_MAX_FILE >> 20, HS_TF_MAX_FILE);
}

static const char *const hs_tf_top_keys[] = {
    "hysim",         "name",     "units",  "structure",    "materials",
    "ground_motion", "analysis", "output", "experimental", "sites"};
#define HS_TF_NTOP (sizeof hs_tf_top_keys / sizeof hs_tf_top_keys[0])

static int version(hs_tf *L, const hs_ynode *root)
{
    const hs_ynode *v;
    long ver;
    int rc =
        hs_tf_required(L, root, "hysim", "the top level (a test file starts with 'hysim: 1')", &v);
    if (!rc) rc = hs_tf_int(L, v, "hysim", 0, 1000000, &ver);
    if (!rc && ver != 1)
        rc = hs_tf_fail(L, v, "hysim: format version %ld is not supported (this build reads 1)",
                        ver);
    return rc;
}

static int name(hs_tf *L, const hs_ynode *root)
{
    const hs_ynode *v;
    int rc = hs_tf_required(L, root, "name", "the top level", &v);
    if (!rc) rc = hs_tf_str(L, v, "name", L->def->name, sizeof L->def->name);
    if (rc) return rc;
    const char *s = L->def->name;
    for (const char *c = s; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '-' || *c == '_' || *c == '.'))
            return hs_tf_fail(L, v,
                              "name: use letters, digits, '-', '_' and '.' only (it names "
                              "the output folder), got '%s'",
                              s);
    if (s[0] == '.') return hs_tf_fail(L, v, "name: must not start with '.'");
    return 0;
}

static int units(hs_tf *L, const hs_ynode *root)
{
    static const char *const keys[] = {"force", "length", "time"};
    hs_test_def *def = L->def;
    char *const dst[] = {def->units_force, def->units_length, def->units_time};
    const hs_ynode *u;
    int rc =
        hs_tf_required(L, root, "units", "the top level (units are stated, never assumed)", &u);
    if (!rc) rc = hs_tf_mapping(L, u, "units", keys, 3);
    for (size_t i = 0; !rc && i < 3; i++) {
        const hs_ynode *v;
        char what[32];
        rc = hs_tf_required(L, u, keys[i], "units", &v);
        if (!rc) rc = hs_tf_str(L, v, hs_tf_path(what, sizeof what, "units", keys[i]), dst[i], 16);
    }
    return rc;
}

static int output(hs_tf *L, const hs_ynode *root)
{
    static const char *const keys[] = {"dir", "mat", "recorders"};
    hs_test_def *def = L->def;
    const hs_ynode *o = hs_ynode_get(root, "output"), *d;
    snprintf(def->output_dir, sizeof def->output_dir, "runs/%s", def->name);
    if (!o) return 0;
    int rc = hs_tf_mapping(L, o, "output", keys, 3);
    if (!rc && (d = hs_ynode_get(o, "dir")) != NULL)
        rc = hs_tf_str(L, d, "output.dir", def->output_dir, sizeof def->output_dir);
    if (!rc && (d = hs_ynode_get(o, "mat")) != NULL)
        rc = hs_tf_bool(L, d, "output.mat", &def->output_mat);
    if (!rc && (d = hs_ynode_get(o, "recorders")) != NULL) rc = hs_tf_recorders(L, d);
    return rc;
}

static int load_tree(hs_tf *L, const hs_ynode *root)
{
    if (!root || (root->kind == HS_YNODE_SCALAR && root->len == 0 && root->plain))
        return hs_tf_fail(L, root, "the file is empty; a test definition starts with 'hysim: 1'");
    if (root->kind != HS_YNODE_MAPPING)
        return hs_tf_fail(L, root,
                          "expected a mapping of sections (hysim, name, units, ...), "
                          "got %s",
                          hs_ynode_kind_name(root));
    const hs_ynode *s, *ex = hs_ynode_get(root, "experimental"), *si = hs_ynode_get(root, "sites");
    L->has_experimental = ex != NULL;
    L->experimental = ex;
    int rc = hs_tf_mapping(L, root, "the top level", hs_tf_top_keys, HS_TF_NTOP);
    if (!rc) rc = version(L, root);
    if (!rc) rc = name(L, root);
    if (!rc) rc = units(L, root);
    int script = 0;
    if (!rc) rc = hs_tf_script_analysis(L, root, &script);
    if (script) return rc ? rc : output(L, root);
    /* materials: optional when experimental elements or a frame model's elements may carry all
     * the stiffness (a zero_length element then names a missing material) */
    const hs_ynode *st = hs_ynode_get(root, "structure");
    const int fe = st && st->kind == HS_YNODE_MAPPING && hs_ynode_get(st, "model");
    const int need_materials = (!ex && !fe) || hs_ynode_get(root, "materials");
    if (!rc && need_materials) rc = hs_tf_required(L, root, "materials", "the top level", &s);
    if (!rc && need_materials) rc = hs_tf_materials(L, s);
    if (!rc) rc = hs_tf_required(L, root, "structure", "the top level", &s);
    if (!rc) rc = hs_tf_structure(L, s);
    if (!rc && ex && !si)
        rc = hs_tf_fail(L, root,
                        "missing required key 'sites' in the top level (experimental elements "
                        "name the sites that hold them)");
    if (!rc) rc = hs_tf_sites(L, si);
    if (!rc) rc = hs_tf_experimental(L, ex);
    if (!rc) rc = hs_tf_damping(L);
    if (!rc) rc = hs_tf_ground_motion_or_script(L, root);
    if (!rc) rc = hs_tf_required(L, root, "analysis", "the top level", &s);
    if (!rc) rc = hs_tf_analysis(L, s);
    if (!rc) rc = output(L, root);
    if (!rc) hs_tf_sites_finish(L);
    if (!rc) rc = hs_tf_memory(L, hs_ynode_get(root, "analysis"));
    return rc;
}

int hs_tf_begin(hs_tf *L, hs_ctx *ctx, const char *name)
{
    L->ctx = ctx;
    L->name = name ? name : "<string>";
    const char *slash = strrchr(L->name, '/');
    if (slash) {
        const size_t dl = slash == L->name ? 1 : (size_t)(slash - L->name);
        if (dl >= sizeof L->dir)
            return hs_fail(ctx, HS_EINPUT, "%s: the path is too long", L->name);
        memcpy(L->dir, L->name, dl);
        L->dir[dl] = '\0';
    }
    return 0;
}

/* The definition after the overrides (YAML) and the overrides themselves, for the run's trace. */
static int keep_effective(hs_test_def *def, const hs_ytree *tree, const char *const *sets,
                          size_t nsets)
{
    size_t len = 0;
    /* a node libyaml's emitter refuses leaves the trace without it, not the test unloaded */
    if (hs_ynode_emit(tree->root, &def->effective, &len) == HS_ENOMEM) return HS_ENOMEM;
    if (nsets == 0) return 0;
    if (!(def->overrides = hs_calloc(nsets, sizeof *def->overrides))) return HS_ENOMEM;
    for (size_t i = 0; i < nsets; i++, def->noverrides++)
        if (!(def->overrides[i] = hs_strdup(sets[i]))) return HS_ENOMEM;
    return 0;
}

static int load_text(hs_ctx *ctx, const char *text, size_t len, const char *fname,
                     const char *const *sets, size_t nsets, hs_test_def **out)
{
    if (!out) return hs_fail(ctx, HS_EINVAL, "testfile: no output given");
    *out = NULL;
    hs_tf L = {0};
    const int begun = hs_tf_begin(&L, ctx, fname);
    if (begun) return begun;
    L.def = hs_calloc(1, sizeof *L.def);
    if (!L.def) return HS_ENOMEM;
    snprintf(L.def->path, sizeof L.def->path, "%s", L.name);
    hs_ytree *tree = NULL;
    int rc = hs_ytree_parse(ctx, text, len, L.name, "test file", &tree);
    for (size_t i = 0; !rc && i < nsets; i++) {
        rc = hs_tf_set(ctx, tree, sets[i]);
        if (rc == HS_EINPUT) {
            char msg[1024];
            snprintf(msg, sizeof msg, "%s", hs_ctx_message(ctx));
            hs_fail(ctx, rc, "%s: %s", L.name, msg);
        }
    }
    if (!rc) rc = load_tree(&L, tree->root);
    if (!rc) rc = keep_effective(L.def, tree, sets, nsets);
    hs_ytree_destroy(&tree);
    for (size_t i = 0; i < L.nmaterials; i++) hs_options_destroy(&L.materials[i].opts);
    hs_free(L.materials);
    for (int i = 0; L.sites && i < L.def->nsites; i++) hs_free(L.sites[i].K0);
    hs_free(L.sites);
    if (rc) {
        hs_test_def_destroy(&L.def);
        return rc;
    }
    *out = L.def;
    return 0;
}

int hs_testfile_load_string(hs_ctx *ctx, const char *text, size_t len, const char *fname,
                            hs_test_def **out)
{
    return load_text(ctx, text, len, fname, NULL, 0, out);
}

/* Reads a whole regular file of at most HS_TF_MAX_FILE bytes into a counted buffer. */
static int read_all(hs_ctx *ctx, const char *path, char **text, size_t *len)
{
    FILE *f = NULL;
    uint64_t size = 0;
    int rc = hs_fopen_regular(ctx, path, &f, &size);
    if (rc) return rc;
    char *buf = NULL;
    size_t n = 0;
    if (size > HS_TF_MAX_FILE)
        rc = too_large(ctx, path);
    else if (!(buf = hs_malloc((size_t)size + 2)))
        rc = HS_ENOMEM;
    if (!rc) {
        /* one byte more than the status said: a file that grew past it is caught too */
        n = fread(buf, 1, (size_t)size + 1, f);
        if (ferror(f))
            rc = hs_fail(ctx, HS_EIO, "%s: cannot read: %s", path, strerror(errno));
        else if (n > size)
            rc = n > HS_TF_MAX_FILE ? too_large(ctx, path)
                                    : hs_fail(ctx, HS_EIO, "%s: changed while being read", path);
    }
    fclose(f);
    if (rc) {
        hs_free(buf);
        return rc;
    }
    *text = buf;
    *len = n;
    return 0;
}

int hs_testfile_load(hs_ctx *ctx, const char *path, hs_test_def **out)
{
    return hs_testfile_load_set(ctx, path, NULL, 0, out);
}

int hs_testfile_load_set(hs_ctx *ctx, const char *path, const char *const *sets, size_t nsets,
                         hs_test_def **out)
{
    if (!out || !path) return hs_fail(ctx, HS_EINVAL, "testfile: no path given");
    *out = NULL;
    char *text = NULL;
    size_t len = 0;
    int rc = read_all(ctx, path, &text, &len);
    if (rc) return rc;
    rc = load_text(ctx, text, len, path, sets, nsets, out);
    hs_free(text);
    return rc;
}

void hs_test_def_destroy(hs_test_def **def)
{
    if (!def || !*def) return;
    hs_model_destroy(&(*def)->model);
    hs_ground_motion_destroy(&(*def)->gm);
    hs_options_destroy(&(*def)->integrator_opts);
    hs_options_destroy(&(*def)->compute_time_opts);
    for (int i = 0; (*def)->experimental && i < (*def)->nexp; i++) {
        hs_free((*def)->experimental[i].T);
        hs_free((*def)->experimental[i].K0l);
        hs_free((*def)->experimental[i].Tp);
    }
    hs_free((*def)->experimental);
    for (int i = 0; (*def)->sites && i < (*def)->nsites; i++) {
        hs_options_destroy(&(*def)->sites[i].specimen_opts);
        hs_options_destroy(&(*def)->sites[i].relaxation_opts);
        hs_options_destroy(&(*def)->sites[i].command_opts);
        hs_options_destroy(&(*def)->sites[i].compensation_opts);
        hs_options_destroy(&(*def)->sites[i].link_opts);
    }
    hs_free((*def)->sites);
    for (int i = 0; (*def)->recorders && i < (*def)->nrecorders; i++)
        hs_free((*def)->recorders[i].items);
    hs_free((*def)->recorders);
    for (int i = 0; (*def)->inputs && i < (*def)->ninputs; i++) hs_free((*def)->inputs[i]);
    hs_free((*def)->inputs);
    for (int i = 0; (*def)->input_roles && i < (*def)->ninputs; i++)
        hs_free((*def)->input_roles[i]);
    hs_free((*def)->input_roles);
    hs_free((*def)->effective);
    for (int i = 0; (*def)->overrides && i < (*def)->noverrides; i++) hs_free((*def)->overrides[i]);
    hs_free((*def)->overrides);
    hs_free(*def);
    *def = NULL;
}
