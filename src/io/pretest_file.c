/* The pre-test JSON file (docs/pretest.md): written by hand as stable, valid JSON (non-finite
 * numbers as null), read back with the YAML reader (JSON is YAML's flow style), so that a test
 * file's `pretest: FILE.json` gets its errors as FILE:LINE:COL: message. */
#include "hysim/pretest.h"

#include "results/results_impl.h"
#include "testfile_impl.h"

#include "../base/regular_file.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define HS_PRETEST_MAX_FILE (1u << 20)

static void num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.10g", v);
    else
        fputs("null", f);
}

static void text(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++)
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", (unsigned)*s);
        else
            fputc(*s, f);
    fputc('"', f);
}

/* nact x nact, row-major, as a list of rows */
static void matrix(FILE *f, const char *key, const double *m, int n, int last)
{
    fprintf(f, "    \"%s\": [", key);
    for (int i = 0; i < n; i++) {
        fputs(i ? ", [" : "[", f);
        for (int j = 0; j < n; j++) {
            if (j) fputs(", ", f);
            num(f, m[i * n + j]);
        }
        fputc(']', f);
    }
    fprintf(f, "]%s\n", last ? "" : ",");
}

static void channel(FILE *f, const char *what, const hs_pretest_channel *c)
{
    fprintf(f, "\"%s\": {\"mean\": ", what);
    num(f, c->mean);
    fputs(", \"rms\": ", f);
    num(f, c->rms);
    fputs(", \"peak_frequency\": ", f);
    num(f, c->peak_freq);
    fputs(", \"peak_density\": ", f);
    num(f, c->peak_amp);
    fputc('}', f);
}

static void noise(FILE *f, const hs_pretest_report *r)
{
    fprintf(f, "  \"noise\": {\n    \"duration\": ");
    num(f, r->noise.duration);
    fprintf(f, ",\n    \"ticks\": %lld,\n    \"channels\": {\n", (long long)r->noise.ticks);
    for (int j = 0; j < r->nact; j++) {
        fputs("      ", f);
        text(f, r->actuators[j]);
        fputs(": {", f);
        channel(f, "displacement", &r->noise.x[j]);
        fputs(", ", f);
        channel(f, "force", &r->noise.f[j]);
        fprintf(f, "}%s\n", j + 1 < r->nact ? "," : "");
    }
    fputs("    }\n  }", f);
}

static void stiffness(FILE *f, const hs_pretest_report *r)
{
    const hs_pretest_stiffness *k = &r->stiffness;
    const int n = r->nact;
    fputs("  \"stiffness\": {\n    \"amplitude\": ", f);
    num(f, r->stiffness_params.amplitude);
    fputs(",\n    \"frequency\": ", f);
    num(f, r->stiffness_params.frequency);
    fprintf(f, ",\n    \"cycles\": %d,\n", r->stiffness_params.cycles);
    matrix(f, "K0l", k->K, n, 0);
    matrix(f, "standard_error", k->stderr_K, n, 0);
    matrix(f, "cycle_scatter", k->scatter, n, 0);
    matrix(f, "residual_rms", k->residual_rms, n, !r->has_reference);
    if (r->has_reference) {
        double diff[HS_PRETEST_MAX_ACT * HS_PRETEST_MAX_ACT];
        for (int i = 0; i < n * n; i++)
            diff[i] = r->reference[i] != 0.0
                          ? 100.0 * (k->K[i] - r->reference[i]) / fabs(r->reference[i])
                          : NAN;
        matrix(f, "initial_stiffness", r->reference, n, 0);
        matrix(f, "difference_percent", diff, n, 1);
    }
    fputs("  }", f);
}

static void dynamics(FILE *f, const hs_pretest_report *r)
{
    const hs_pretest_dynamics *d = &r->dynamics;
    fputs("  \"dynamics\": {\n    \"amplitude\": ", f);
    num(f, r->dynamics_params.amplitude);
    fputs(",\n    \"hold\": ", f);
    num(f, r->dynamics_params.hold);
    fprintf(f, ",\n    \"repeats\": %d,\n    \"actuators\": {\n", r->dynamics_params.repeats);
    for (int j = 0; j < r->nact; j++) {
        fputs("      ", f);
        text(f, r->actuators[j]);
        fprintf(f, ": {\"transport_delay\": %d, \"a\": ", d->delay[j]);
        num(f, d->a[j]);
        fputs(", \"a_es\": ", f);
        num(f, d->a_es[j]);
        fputs(", \"fit_rms\": ", f);
        num(f, d->fit_rms[j]);
        fprintf(f, "}%s\n", j + 1 < r->nact ? "," : "");
    }
    fputs("    }\n  }", f);
}

int hs_pretest_write(hs_ctx *ctx, const hs_pretest_report *r, const char *path)
{
    hs_atomic_file af = {0};
    int rc = hs_atomic_open(ctx, path, &af);
    if (rc) return rc;
    FILE *f = af.f;
    fputs("{\n  \"hysim_pretest\": 1,\n  \"site\": ", f);
    text(f, r->site);
    fputs(",\n  \"rate\": ", f);
    num(f, r->rate);
    if (r->units_length[0] && r->units_force[0]) {
        fputs(",\n  \"units\": {\"length\": ", f);
        text(f, r->units_length);
        fputs(", \"force\": ", f);
        text(f, r->units_force);
        fputs("}", f);
    }
    fputs(",\n  \"actuators\": [", f);
    for (int j = 0; j < r->nact; j++) {
        if (j) fputs(", ", f);
        text(f, r->actuators[j]);
    }
    fputs("]", f);
    if (r->has_noise) fputs(",\n", f), noise(f, r);
    if (r->has_stiffness) fputs(",\n", f), stiffness(f, r);
    if (r->has_dynamics) fputs(",\n", f), dynamics(f, r);
    fputs("\n}\n", f);
    return hs_atomic_finish(ctx, &af, ferror(f) != 0);
}

/* ---------------------------------------------------------------- reading */

static int read_dynamics(hs_tf *L, const hs_ynode *node, hs_pretest_report *r)
{
    static const char *const keys[] = {"amplitude", "hold", "repeats", "actuators"};
    static const char *const act_keys[] = {"transport_delay", "a", "a_es", "fit_rms"};
    const hs_ynode *acts, *v;
    int rc = hs_tf_mapping(L, node, "dynamics", keys, 4);
    if (!rc) rc = hs_tf_required(L, node, "actuators", "dynamics", &acts);
    if (!rc && (acts->kind != HS_YNODE_MAPPING || acts->n != (size_t)r->nact))
        rc = hs_tf_fail(L, acts, "dynamics.actuators: expected one entry per actuator (%d)",
                        r->nact);
    char what[128], sub[160];
    for (int j = 0; j < r->nact && !rc; j++) {
        const hs_ynode *k = hs_ynode_key(acts, (size_t)j), *a = hs_ynode_value(acts, (size_t)j);
        if (strcmp(k->text, r->actuators[j]) != 0)
            return hs_tf_fail(L, k, "dynamics.actuators: '%s' where actuator %d is '%s'", k->text,
                              j + 1, r->actuators[j]);
        snprintf(what, sizeof what, "dynamics.actuators.%s", r->actuators[j]);
        long D = 0;
        rc = hs_tf_mapping(L, a, what, act_keys, 4);
        if (!rc) rc = hs_tf_required(L, a, "transport_delay", what, &v);
        if (!rc)
            rc = hs_tf_int(L, v, hs_tf_path(sub, sizeof sub, what, "transport_delay"), 0, 100000,
                           &D);
        r->dynamics.delay[j] = (int)D;
        if (!rc) rc = hs_tf_required(L, a, "a", what, &v);
        if (!rc) rc = hs_tf_num(L, v, hs_tf_path(sub, sizeof sub, what, "a"), &r->dynamics.a[j]);
        if (!rc && !(r->dynamics.a[j] >= 1.0))
            rc = hs_tf_fail(L, v, "%s.a: %g must be >= 1 sample", what, r->dynamics.a[j]);
        if (!rc) rc = hs_tf_required(L, a, "a_es", what, &v);
        if (!rc)
            rc = hs_tf_num(L, v, hs_tf_path(sub, sizeof sub, what, "a_es"), &r->dynamics.a_es[j]);
    }
    r->dynamics.nact = r->nact;
    r->has_dynamics = !rc;
    return rc;
}

static int read_tree(hs_tf *L, const hs_ynode *root, hs_pretest_report *r)
{
    static const char *const keys[] = {"hysim_pretest", "site",  "rate",      "units",
                                       "actuators",     "noise", "stiffness", "dynamics"};
    const hs_ynode *v, *acts;
    if (!root || root->kind != HS_YNODE_MAPPING)
        return hs_tf_fail(L, root, "expected a JSON object written by hysim pretest");
    int rc = hs_tf_mapping(L, root, "the top level", keys, sizeof keys / sizeof keys[0]);
    long version = 0;
    if (!rc) rc = hs_tf_required(L, root, "hysim_pretest", "the top level", &v);
    if (!rc) rc = hs_tf_int(L, v, "hysim_pretest", 1, 1, &version);
    if (!rc) rc = hs_tf_required(L, root, "site", "the top level", &v);
    if (!rc) rc = hs_tf_str(L, v, "site", r->site, sizeof r->site);
    if (!rc) rc = hs_tf_required(L, root, "rate", "the top level", &v);
    if (!rc) rc = hs_tf_num(L, v, "rate", &r->rate);
    if (!rc) rc = hs_tf_required(L, root, "actuators", "the top level", &acts);
    if (rc) return rc;
    if (acts->kind != HS_YNODE_SEQUENCE || acts->n < 1 || acts->n > HS_PRETEST_MAX_ACT)
        return hs_tf_fail(L, acts, "actuators: expected a list of 1 to %d names",
                          HS_PRETEST_MAX_ACT);
    r->nact = (int)acts->n;
    for (size_t j = 0; j < acts->n && !rc; j++)
        rc = hs_tf_str(L, acts->items[j], "actuators", r->actuators[j], sizeof r->actuators[j]);
    const hs_ynode *st = hs_ynode_get(root, "stiffness");
    if (!rc && st) {
        if (!(v = hs_ynode_get(st, "K0l")))
            return hs_tf_fail(L, st, "missing required key 'K0l' in stiffness");
        rc = hs_tf_matrix(L, v, "stiffness.K0l", (size_t)r->nact, (size_t)r->nact, "actuator",
                          "actuator", r->stiffness.K, NULL, NULL);
        r->stiffness.nact = r->nact;
        r->has_stiffness = !rc;
    }
    const hs_ynode *dy = hs_ynode_get(root, "dynamics");
    if (!rc && dy) rc = read_dynamics(L, dy, r);
    return rc;
}

int hs_pretest_read(hs_ctx *ctx, const char *path, hs_pretest_report *r)
{
    memset(r, 0, sizeof *r);
    FILE *fp = NULL;
    int rc = hs_fopen_regular(ctx, path, &fp, NULL);
    if (rc) return rc;
    char *buf = hs_malloc(HS_PRETEST_MAX_FILE + 1);
    const size_t n = buf ? fread(buf, 1, HS_PRETEST_MAX_FILE + 1, fp) : 0;
    fclose(fp);
    if (!buf) return hs_fail(ctx, HS_ENOMEM, "%s: out of memory", path);
    if (n > HS_PRETEST_MAX_FILE) {
        hs_free(buf);
        return hs_fail(ctx, HS_EINPUT, "%s: larger than %u KB; not a pretest file", path,
                       HS_PRETEST_MAX_FILE >> 10);
    }
    hs_tf L = {0};
    rc = hs_tf_begin(&L, ctx, path);
    L.kind = "pretest file";
    hs_ytree *tree = NULL;
    if (!rc) rc = hs_ytree_parse(ctx, buf, n, path, "pretest file", &tree);
    if (!rc) rc = read_tree(&L, tree->root, r);
    hs_ytree_destroy(&tree);
    hs_free(buf);
    return rc;
}
