/* Typed access to the YAML tree for the test file loader: every error names FILE:LINE:COL. */
#include "testfile_impl.h"

#include "../base/regular_file.h"
#include "../base/number.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define HS_TF_MSG 768

int hs_tf_fail(hs_tf *L, const hs_ynode *at, const char *fmt, ...)
{
    char msg[HS_TF_MSG];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (at && at->origin)
        return hs_fail(L->ctx, HS_EINPUT, "%s: --set %s: %s", L->name, at->origin, msg);
    return hs_fail(L->ctx, HS_EINPUT, "%s:%d:%d: %s", L->name, at ? at->line : 1, at ? at->col : 1,
                   msg);
}

int hs_tf_wrap(hs_tf *L, const hs_ynode *at, const char *what, int rc)
{
    if (rc == HS_ENOMEM) return rc;
    char msg[HS_TF_MSG];
    snprintf(msg, sizeof msg, "%s", hs_ctx_message(L->ctx));
    return hs_tf_fail(L, at, "%s: %s", what, msg[0] ? msg : hs_strerror(rc));
}

const char *hs_tf_path(char *buf, size_t cap, const char *what, const char *sub)
{
    snprintf(buf, cap, "%s.%.64s", what, sub);
    return buf;
}

const char *hs_tf_index(char *buf, size_t cap, const char *what, size_t i)
{
    snprintf(buf, cap, "%s[%zu]", what, i + 1);
    return buf;
}

/* A scalar's text for messages: clipped, and "nothing" for an empty value. */
static void quoted(const hs_ynode *n, char *buf, size_t cap)
{
    if (n->kind != HS_YNODE_SCALAR) {
        snprintf(buf, cap, "%s", hs_ynode_kind_name(n));
    } else if (n->len == 0 && n->plain) {
        snprintf(buf, cap, "nothing");
    } else {
        snprintf(buf, cap, "'%.40s%s'", n->text, n->len > 40 ? "..." : "");
    }
}

static void join_names(char *buf, size_t cap, const char *const *names, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && used + 1 < cap; i++) {
        int w = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", names[i]);
        if (w < 0) break;
        used += (size_t)w;
    }
}

int hs_tf_mapping(hs_tf *L, const hs_ynode *node, const char *what, const char *const *known,
                  size_t nknown)
{
    if (!node || node->kind != HS_YNODE_MAPPING) {
        char got[64];
        if (node) quoted(node, got, sizeof got);
        return hs_tf_fail(L, node, "%s: expected a mapping ({key: value, ...}), got %s", what,
                          node ? got : "nothing");
    }
    for (size_t i = 0; i < node->n; i++) {
        const hs_ynode *k = hs_ynode_key(node, i);
        int found = 0;
        for (size_t j = 0; j < nknown && !found; j++)
            found = strlen(known[j]) == k->len && memcmp(known[j], k->text, k->len) == 0;
        if (found) continue;
        const char *near = hs_suggest(k->text, known, nknown);
        if (near)
            return hs_tf_fail(L, k, "unknown key '%.60s' in %s; did you mean '%s'?", k->text, what,
                              near);
        char list[512];
        join_names(list, sizeof list, known, nknown);
        return hs_tf_fail(L, k, "unknown key '%.60s' in %s (known keys: %s)", k->text, what,
                          nknown ? list : "none");
    }
    return 0;
}

int hs_tf_required(hs_tf *L, const hs_ynode *map, const char *key, const char *what,
                   const hs_ynode **out)
{
    *out = hs_ynode_get(map, key);
    if (!*out) return hs_tf_fail(L, map, "missing required key '%s' in %s", key, what);
    return 0;
}

static int is_blank(const hs_ynode *n)
{
    return n->kind == HS_YNODE_SCALAR && n->len == 0;
}

int hs_tf_num(hs_tf *L, const hs_ynode *node, const char *what, double *out)
{
    char got[64];
    quoted(node, got, sizeof got);
    if (node->kind != HS_YNODE_SCALAR || !node->plain || is_blank(node) ||
        strlen(node->text) != node->len)
        return hs_tf_fail(L, node, "%s: expected a number, got %s", what, got);
    double v = 0.0;
    const hs_num_status st = hs_number_parse(node->text, node->len, &v);
    if (st == HS_NUM_NOT_A_NUMBER && hs_decimal_comma(node->text, node->len))
        return hs_tf_fail(L, node,
                          "%s: %s has a decimal comma: hysim reads '.' as the decimal mark (write "
                          "0.5, not 0,5)",
                          what, got);
    if (st == HS_NUM_NOT_A_NUMBER)
        return hs_tf_fail(L, node, "%s: expected a number, got %s", what, got);
    if (st != HS_NUM_OK) return hs_tf_fail(L, node, "%s: %s %s", what, got, hs_number_problem(st));
    *out = v;
    return 0;
}

int hs_tf_int(hs_tf *L, const hs_ynode *node, const char *what, long lo, long hi, long *out)
{
    double v = 0.0;
    int rc = hs_tf_num(L, node, what, &v);
    if (rc) return rc;
    if (v != floor(v)) return hs_tf_fail(L, node, "%s: expected a whole number, got %g", what, v);
    if (v < (double)lo || v > (double)hi)
        return hs_tf_fail(L, node, "%s: must be between %ld and %ld (got %.15g)", what, lo, hi, v);
    *out = (long)v;
    return 0;
}

int hs_tf_bool(hs_tf *L, const hs_ynode *node, const char *what, int *out)
{
    if (node->kind == HS_YNODE_SCALAR && node->plain) {
        if (strcmp(node->text, "true") == 0) return *out = 1, 0;
        if (strcmp(node->text, "false") == 0) return *out = 0, 0;
    }
    char got[64];
    quoted(node, got, sizeof got);
    return hs_tf_fail(L, node, "%s: expected true or false, got %s", what, got);
}

int hs_tf_str(hs_tf *L, const hs_ynode *node, const char *what, char *buf, size_t cap)
{
    if (node->kind != HS_YNODE_SCALAR || is_blank(node)) {
        char got[64];
        quoted(node, got, sizeof got);
        return hs_tf_fail(L, node, "%s: expected a text value, got %s", what, got);
    }
    if (strlen(node->text) != node->len)
        return hs_tf_fail(L, node, "%s: the text contains a NUL character", what);
    if (node->len >= cap)
        return hs_tf_fail(L, node, "%s: longer than %zu characters", what, cap - 1);
    for (size_t i = 0; i < node->len; i++) {
        const unsigned char c = (unsigned char)node->text[i];
        if (c < 0x20 || c == 0x7f) /* names and units are printed: no escape sequences */
            return hs_tf_fail(L, node,
                              "%s: control character 0x%02x at character %zu; use printable text",
                              what, (unsigned)c, i + 1);
    }
    memcpy(buf, node->text, node->len + 1);
    return 0;
}

int hs_tf_num_list(hs_tf *L, const hs_ynode *node, const char *what, size_t n,
                   const char *unit_of_n, double *out)
{
    if (node->kind != HS_YNODE_SEQUENCE) {
        char got[64];
        quoted(node, got, sizeof got);
        return hs_tf_fail(L, node, "%s: expected a list of %zu numbers ([a, b, ...]), got %s", what,
                          n, got);
    }
    if (node->n != n)
        return hs_tf_fail(L, node, "%s: expected %zu values (one per %s), got %zu", what, n,
                          unit_of_n, node->n);
    char item[160];
    for (size_t i = 0; i < n; i++) {
        int rc = hs_tf_num(L, node->items[i], hs_tf_index(item, sizeof item, what, i), &out[i]);
        if (rc) return rc;
    }
    return 0;
}

static int param_value(hs_tf *L, const hs_ynode *v, const char *what, const hs_param_spec *p,
                       hs_options *opts)
{
    if (p->kind == HS_PARAM_NUM) {
        double x;
        int rc = hs_tf_num(L, v, what, &x);
        return rc ? rc : hs_options_set_num(opts, p->name, x);
    }
    if (p->kind == HS_PARAM_STR) {
        char s[1024];
        int rc = hs_tf_str(L, v, what, s, sizeof s);
        return rc ? rc : hs_options_set_str(opts, p->name, s);
    }
    if (v->kind != HS_YNODE_SEQUENCE) {
        char got[64];
        quoted(v, got, sizeof got);
        return hs_tf_fail(L, v, "%s: expected a list of numbers, got %s", what, got);
    }
    double *x = hs_dvec(v->n ? v->n : 1);
    if (!x) return HS_ENOMEM;
    int rc = hs_tf_num_list(L, v, what, v->n, "entry", x);
    if (!rc) rc = hs_options_set_list(opts, p->name, x, v->n);
    hs_free(x);
    return rc;
}

#define HS_TF_MAX_KNOWN 64

int hs_tf_params(hs_tf *L, const hs_ynode *map, const char *what, const hs_param_spec *specs,
                 const char *const *skip, size_t nskip, hs_options *opts)
{
    const char *known[HS_TF_MAX_KNOWN];
    size_t nknown = 0;
    for (size_t i = 0; i < nskip && nknown < HS_TF_MAX_KNOWN; i++) known[nknown++] = skip[i];
    for (const hs_param_spec *p = specs; p && p->name && nknown < HS_TF_MAX_KNOWN; p++)
        known[nknown++] = p->name;
    int rc = hs_tf_mapping(L, map, what, known, nknown);
    if (rc) return rc;
    char sub[192];
    for (const hs_param_spec *p = specs; p && p->name; p++) {
        const hs_ynode *v = hs_ynode_get(map, p->name);
        if (!v) {
            if (p->required)
                return hs_tf_fail(L, map, "missing required key '%s' in %s%s%s%s", p->name, what,
                                  p->help ? " (" : "", p->help ? p->help : "", p->help ? ")" : "");
            continue;
        }
        rc = param_value(L, v, hs_tf_path(sub, sizeof sub, what, p->name), p, opts);
        if (rc) return rc;
    }
    return 0;
}

int hs_tf_matrix(hs_tf *L, const hs_ynode *node, const char *what, size_t rows, size_t cols,
                 const char *row_of, const char *col_of, double *out, size_t *nrows, size_t *ncols)
{
    char got[64];
    if (node->kind != HS_YNODE_SEQUENCE || node->n == 0 ||
        node->items[0]->kind != HS_YNODE_SEQUENCE) {
        quoted(node, got, sizeof got);
        return hs_tf_fail(L, node,
                          "%s: expected a matrix written row by row ([[a, b], [c, d]]), "
                          "got %s",
                          what,
                          node->kind == HS_YNODE_SEQUENCE && node->n ? "a list of numbers" : got);
    }
    if (rows && node->n != rows)
        return hs_tf_fail(L, node, "%s: expected %zu rows (one per %s), got %zu", what, rows,
                          row_of, node->n);
    if (!rows && node->n > HS_TF_MAX_MATRIX)
        return hs_tf_fail(L, node, "%s: more than %d rows", what, HS_TF_MAX_MATRIX);
    const size_t r = node->n;
    size_t c = cols ? cols : node->items[0]->n;
    if (!cols && (c == 0 || c > HS_TF_MAX_MATRIX))
        return hs_tf_fail(L, node->items[0], "%s: a row must have 1 to %d values", what,
                          HS_TF_MAX_MATRIX);
    char item[160];
    for (size_t i = 0; i < r; i++) {
        const hs_ynode *row = node->items[i];
        hs_tf_index(item, sizeof item, what, i);
        if (row->kind != HS_YNODE_SEQUENCE) {
            quoted(row, got, sizeof got);
            return hs_tf_fail(L, row, "%s: expected a row [a, b, ...], got %s", item, got);
        }
        if (row->n != c)
            return hs_tf_fail(L, row, "%s: expected %zu values (one per %s), got %zu", item, c,
                              col_of, row->n);
        int rc = hs_tf_num_list(L, row, item, c, col_of, out + i * c);
        if (rc) return rc;
    }
    if (nrows) *nrows = r;
    if (ncols) *ncols = c;
    return 0;
}

int hs_tf_file(hs_tf *L, const hs_ynode *node, const char *what, char *out, size_t cap)
{
    char rel[1024];
    int rc = hs_tf_str(L, node, what, rel, sizeof rel);
    if (rc) return rc;
    /* a path given on the command line (--set) is relative to the working folder */
    int w = (rel[0] == '/' || L->dir[0] == '\0' || node->origin)
                ? snprintf(out, cap, "%s", rel)
                : snprintf(out, cap, "%s/%s", L->dir, rel);
    if (w < 0 || (size_t)w >= cap) return hs_tf_fail(L, node, "%s: the path is too long", what);
    struct stat st;
    if (stat(out, &st) != 0) {
        if (errno == ENOENT)
            return hs_tf_fail(L, node, "%s: cannot find '%s' (%s)", what, out,
                              node->origin
                                  ? "a path given with --set is relative to the working folder"
                              : strcmp(hs_tf_kind(L), "site file") == 0
                                  ? "paths are relative to the site file's folder"
                                  : "paths are relative to the test file's folder");
        return hs_tf_fail(L, node, "%s: cannot open '%s': %s", what, out, strerror(errno));
    }
    if (!S_ISREG(st.st_mode))
        return hs_tf_fail(L, node, "%s: '%s' is %s, not a regular file", what, out,
                          hs_file_kind((unsigned)st.st_mode));
    return 0;
}

int hs_tf_input(hs_tf *L, const hs_ynode *node, const char *what, char *out, size_t cap)
{
    int rc = hs_tf_file(L, node, what, out, cap);
    return rc ? rc : hs_tf_add_input(L, out, what);
}

int hs_tf_add_input(hs_tf *L, const char *path, const char *role)
{
    hs_test_def *def = L->def;
    const size_t n = (size_t)def->ninputs + 1;
    char **grown = hs_realloc(def->inputs, n * sizeof *grown);
    if (!grown) return HS_ENOMEM;
    def->inputs = grown;
    grown = hs_realloc(def->input_roles, n * sizeof *grown);
    if (!grown) return HS_ENOMEM;
    def->input_roles = grown;
    def->inputs[n - 1] = hs_strdup(path);
    def->input_roles[n - 1] = hs_strdup(role);
    if (!def->inputs[n - 1] || !def->input_roles[n - 1]) {
        hs_free(def->inputs[n - 1]);
        hs_free(def->input_roles[n - 1]);
        return HS_ENOMEM;
    }
    def->ninputs++;
    return 0;
}
