/* Builds an hs_ytree from libyaml's event stream: no recursion, depth-limited, every node
 * registered for freeing, marks converted to 1-based lines and columns. */
#include "yaml_tree.h"

#include <stdio.h>
#include <string.h>
#include <yaml.h>

#define HS_YAML_MAX_DEPTH 64

typedef struct builder {
    hs_ctx *ctx;
    const char *name;
    hs_ytree *tree;
    hs_ynode *stack[HS_YAML_MAX_DEPTH];
    int depth;
} builder;

static int mark_int(size_t v)
{
    return v >= 1000000000u ? 1000000000 : (int)v + 1;
}

static int bfail(builder *b, int line, int col, const char *fmt, const char *a, const char *c)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, a ? a : "", c ? c : "");
    return hs_fail(b->ctx, HS_EINPUT, "%s:%d:%d: %s", b->name, line, col, msg);
}

static hs_ynode *tree_node(hs_ytree *t, hs_ynode_kind kind, int line, int col)
{
    if (t->nall == t->capall) {
        size_t cap = t->capall ? 2 * t->capall : 64;
        hs_ynode **all = hs_realloc(t->all, cap * sizeof *all);
        if (!all) return NULL;
        t->all = all;
        t->capall = cap;
    }
    hs_ynode *n = hs_calloc(1, sizeof *n);
    if (!n) return NULL;
    n->kind = kind;
    n->line = line;
    n->col = col;
    t->all[t->nall++] = n;
    return n;
}

static hs_ynode *node_new(builder *b, hs_ynode_kind kind, const yaml_mark_t *mark)
{
    return tree_node(b->tree, kind, mark_int(mark->line), mark_int(mark->column));
}

static int items_push(hs_ynode *parent, hs_ynode *child)
{
    if (parent->nitems == parent->cap) {
        size_t cap = parent->cap ? 2 * parent->cap : 8;
        hs_ynode **items = hs_realloc(parent->items, cap * sizeof *items);
        if (!items) return HS_ENOMEM;
        parent->items = items;
        parent->cap = cap;
    }
    parent->items[parent->nitems++] = child;
    parent->n = parent->kind == HS_YNODE_MAPPING ? parent->nitems / 2 : parent->nitems;
    return 0;
}

static int same_scalar(const hs_ynode *a, const hs_ynode *b)
{
    return a->kind == HS_YNODE_SCALAR && b->kind == HS_YNODE_SCALAR && a->len == b->len &&
           memcmp(a->text, b->text, a->len) == 0;
}

/* Attaches a new node to the open container (or makes it the root). */
static int attach(builder *b, hs_ynode *node)
{
    if (b->depth == 0) {
        b->tree->root = node;
        return 0;
    }
    hs_ynode *parent = b->stack[b->depth - 1];
    if (parent->kind == HS_YNODE_MAPPING && parent->nitems % 2 == 0) {
        if (node->kind != HS_YNODE_SCALAR)
            return bfail(b, node->line, node->col, "a mapping key must be a plain name, not %s%s",
                         hs_ynode_kind_name(node), NULL);
        for (size_t i = 0; i < parent->nitems; i += 2)
            if (same_scalar(parent->items[i], node)) {
                char first[64];
                snprintf(first, sizeof first, "%d:%d", parent->items[i]->line,
                         parent->items[i]->col);
                char key[80];
                snprintf(key, sizeof key, "%.60s%s", node->text, node->len > 60 ? "..." : "");
                return bfail(b, node->line, node->col, "duplicate key '%s' (first defined at %s)",
                             key, first);
            }
    }
    return items_push(parent, node);
}

static int on_event(builder *b, const yaml_event_t *ev)
{
    const yaml_mark_t *mk = &ev->start_mark;
    const int line = mark_int(mk->line), col = mark_int(mk->column);
    hs_ynode *node = NULL;
    switch (ev->type) {
    case YAML_ALIAS_EVENT:
        return bfail(b, line, col,
                     "YAML aliases (*%s) are not supported in test files: write the value out%s",
                     (const char *)ev->data.alias.anchor, NULL);
    case YAML_SCALAR_EVENT:
        if (ev->data.scalar.tag)
            return bfail(b, line, col, "YAML tags (%s) are not supported in test files%s",
                         (const char *)ev->data.scalar.tag, NULL);
        node = node_new(b, HS_YNODE_SCALAR, mk);
        if (!node) return HS_ENOMEM;
        node->len = ev->data.scalar.length;
        node->text = hs_malloc(node->len + 1);
        if (!node->text) return HS_ENOMEM;
        if (node->len) memcpy(node->text, ev->data.scalar.value, node->len);
        node->text[node->len] = '\0';
        node->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        return attach(b, node);
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT: {
        const yaml_char_t *tag = ev->type == YAML_SEQUENCE_START_EVENT ? ev->data.sequence_start.tag
                                                                       : ev->data.mapping_start.tag;
        if (tag)
            return bfail(b, line, col, "YAML tags (%s) are not supported in test files%s",
                         (const char *)tag, NULL);
        if (b->depth == HS_YAML_MAX_DEPTH)
            return bfail(b, line, col, "nesting deeper than 64 levels%s%s", NULL, NULL);
        node = node_new(
            b, ev->type == YAML_SEQUENCE_START_EVENT ? HS_YNODE_SEQUENCE : HS_YNODE_MAPPING, mk);
        if (!node) return HS_ENOMEM;
        int rc = attach(b, node);
        if (rc) return rc;
        b->stack[b->depth++] = node;
        return 0;
    }
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        if (b->depth > 0) b->depth--;
        return 0;
    default:
        return 0;
    }
}

/* Line and column of a byte offset (for reader errors, which carry no mark). */
static void offset_mark(const char *text, size_t len, size_t off, int *line, int *col)
{
    size_t l = 0, c = 0;
    for (size_t i = 0; i < off && i < len; i++) {
        if (text[i] == '\n') {
            l++;
            c = 0;
        } else {
            c++;
        }
    }
    *line = mark_int(l);
    *col = mark_int(c);
}

static int syntax_error(builder *b, const yaml_parser_t *p, const char *text, size_t len)
{
    int line, col;
    const char *problem = p->problem ? p->problem : "malformed YAML";
    if (p->error == YAML_READER_ERROR) {
        offset_mark(text, len, p->problem_offset, &line, &col);
        return hs_fail(b->ctx, HS_EINPUT, "%s:%d:%d: YAML syntax error: %s", b->name, line, col,
                       problem);
    }
    if (p->error == YAML_MEMORY_ERROR) return HS_ENOMEM;
    line = mark_int(p->problem_mark.line);
    col = mark_int(p->problem_mark.column);
    if (p->context)
        return hs_fail(b->ctx, HS_EINPUT, "%s:%d:%d: YAML syntax error: %s (%s at line %d)",
                       b->name, line, col, problem, p->context, mark_int(p->context_mark.line));
    return hs_fail(b->ctx, HS_EINPUT, "%s:%d:%d: YAML syntax error: %s", b->name, line, col,
                   problem);
}

int hs_ytree_parse(hs_ctx *ctx, const char *text, size_t len, const char *name, hs_ytree **out)
{
    if (!out || (!text && len)) return hs_fail(ctx, HS_EINVAL, "yaml: no text");
    *out = NULL;
    builder b = {.ctx = ctx, .name = name ? name : "<string>"};
    b.tree = hs_calloc(1, sizeof *b.tree);
    if (!b.tree) return HS_ENOMEM;
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        hs_ytree_destroy(&b.tree);
        return HS_ENOMEM;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)(text ? text : ""), len);
    int rc = 0, documents = 0, done = 0;
    while (!rc && !done) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            rc = syntax_error(&b, &parser, text, len);
            break;
        }
        if (ev.type == YAML_DOCUMENT_START_EVENT && ++documents > 1)
            rc = bfail(&b, mark_int(ev.start_mark.line), mark_int(ev.start_mark.column),
                       "a test file holds one YAML document; a second one starts here%s%s", NULL,
                       NULL);
        else if (ev.type == YAML_STREAM_END_EVENT)
            done = 1;
        else
            rc = on_event(&b, &ev);
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    if (rc) {
        hs_ytree_destroy(&b.tree);
        return rc;
    }
    *out = b.tree;
    return 0;
}

void hs_ytree_destroy(hs_ytree **tree)
{
    if (!tree || !*tree) return;
    hs_ytree *t = *tree;
    for (size_t i = 0; i < t->nall; i++) {
        hs_free(t->all[i]->text);
        hs_free(t->all[i]->items);
        hs_free(t->all[i]);
    }
    hs_free(t->all);
    hs_free(t);
    *tree = NULL;
}

hs_ynode *hs_ytree_new_node(hs_ytree *tree, hs_ynode_kind kind, const char *text,
                            const char *origin)
{
    hs_ynode *n = tree_node(tree, kind, 0, 0);
    if (!n) return NULL;
    n->origin = origin;
    if (kind == HS_YNODE_SCALAR) {
        n->len = strlen(text ? text : "");
        n->text = hs_malloc(n->len + 1);
        if (!n->text) return NULL;
        memcpy(n->text, text ? text : "", n->len + 1);
        n->plain = 1;
    }
    return n;
}

int hs_ynode_append(hs_ynode *parent, hs_ynode *child)
{
    return items_push(parent, child);
}

void hs_ynode_remove(hs_ynode *map, const char *key)
{
    if (!map || map->kind != HS_YNODE_MAPPING) return;
    const size_t klen = strlen(key);
    for (size_t i = 0; i < map->n; i++) {
        const hs_ynode *k = map->items[2 * i];
        if (k->len != klen || memcmp(k->text, key, klen) != 0) continue;
        memmove(map->items + 2 * i, map->items + 2 * i + 2,
                (map->nitems - 2 * i - 2) * sizeof *map->items);
        map->nitems -= 2;
        map->n = map->nitems / 2;
        return;
    }
}

const hs_ynode *hs_ynode_key(const hs_ynode *map, size_t i)
{
    return (map && map->kind == HS_YNODE_MAPPING && i < map->n) ? map->items[2 * i] : NULL;
}

const hs_ynode *hs_ynode_value(const hs_ynode *map, size_t i)
{
    return (map && map->kind == HS_YNODE_MAPPING && i < map->n) ? map->items[2 * i + 1] : NULL;
}

const hs_ynode *hs_ynode_get(const hs_ynode *map, const char *key)
{
    if (!map || map->kind != HS_YNODE_MAPPING || !key) return NULL;
    const size_t klen = strlen(key);
    for (size_t i = 0; i < map->n; i++) {
        const hs_ynode *k = map->items[2 * i];
        if (k->len == klen && memcmp(k->text, key, klen) == 0) return map->items[2 * i + 1];
    }
    return NULL;
}

const char *hs_ynode_kind_name(const hs_ynode *node)
{
    if (!node) return "nothing";
    switch (node->kind) {
    case HS_YNODE_SCALAR:
        return "a scalar";
    case HS_YNODE_SEQUENCE:
        return "a list";
    default:
        return "a mapping";
    }
}
