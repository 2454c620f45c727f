/* Builds an hs_ytree from libyaml's event stream: no recursion, depth-limited, every node
 * registered for freeing, marks converted to 1-based lines and columns. */
#include "yaml_tree.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#define HS_YAML_MAX_DEPTH  64
#define HS_YAML_BLOCK      (64u << 10) /* bytes of nodes and texts per block */
#define HS_YAML_LINEAR_MAX 8           /* keys checked by a scan before a mapping gets a set */

/* A block of the tree's storage: nodes and texts are carved from it, freed all at once. */
struct hs_yblock {
    struct hs_yblock *next;
    size_t used, cap;
    _Alignas(max_align_t) unsigned char data[];
};

/* The keys of one open mapping (open addressing, at most half full), for duplicate checks. */
typedef struct keyset {
    const hs_ynode **slot;
    size_t cap, count;
} keyset;

typedef struct builder {
    hs_ctx *ctx;
    const char *name, *kind;
    hs_ytree *tree;
    hs_ynode *stack[HS_YAML_MAX_DEPTH];
    keyset keys[HS_YAML_MAX_DEPTH];
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

/* n bytes aligned to `align` (a power of two, at most max_align_t's) from the tree's blocks;
 * NULL when out of memory. Texts take align 1, nodes and item arrays a pointer's. */
static void *tree_alloc(hs_ytree *t, size_t n, size_t align)
{
    struct hs_yblock *blk = t->blocks;
    if (blk) blk->used = (blk->used + align - 1) & ~(align - 1);
    if (!blk || blk->used > blk->cap || blk->cap - blk->used < n) {
        const size_t cap = n > HS_YAML_BLOCK / 4 ? n : HS_YAML_BLOCK;
        struct hs_yblock *fresh = hs_malloc(sizeof *fresh + cap);
        if (!fresh) return NULL;
        fresh->used = 0;
        fresh->cap = cap;
        if (blk && n > HS_YAML_BLOCK / 4) { /* a big one: keep the current block in front */
            fresh->next = blk->next;
            blk->next = fresh;
        } else {
            fresh->next = blk;
            t->blocks = fresh;
        }
        blk = fresh;
    }
    void *p = blk->data + blk->used;
    blk->used += n;
    return p;
}

static hs_ynode *node_new(builder *b, hs_ynode_kind kind, const yaml_mark_t *mark)
{
    hs_ynode *n = tree_alloc(b->tree, sizeof *n, _Alignof(hs_ynode));
    if (!n) return NULL;
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->line = mark_int(mark->line);
    n->col = mark_int(mark->column);
    return n;
}

/* Items live in the tree's blocks too: a full array is copied into one twice its size (the old
 * one stays until the tree is freed: at most as much again). */
static int items_push(hs_ytree *t, hs_ynode *parent, hs_ynode *child)
{
    if (parent->nitems == parent->cap) {
        size_t cap = parent->cap ? 2 * parent->cap : 4;
        hs_ynode **items = tree_alloc(t, cap * sizeof *items, _Alignof(hs_ynode *));
        if (!items) return HS_ENOMEM;
        if (parent->nitems) memcpy(items, parent->items, parent->nitems * sizeof *items);
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

static uint64_t text_hash(const hs_ynode *k)
{
    uint64_t h = UINT64_C(14695981039346656037); /* FNV-1a */
    for (size_t i = 0; i < k->len; i++)
        h = (h ^ (unsigned char)k->text[i]) * UINT64_C(1099511628211);
    return h;
}

/* The slot of a key equal to k, or the empty slot where k goes. */
static const hs_ynode **keyset_find(const keyset *s, const hs_ynode *k)
{
    size_t i = (size_t)text_hash(k) & (s->cap - 1);
    while (s->slot[i] && !same_scalar(s->slot[i], k)) i = (i + 1) & (s->cap - 1);
    return &s->slot[i];
}

static int keyset_grow(keyset *s)
{
    keyset bigger = {.cap = s->cap ? 2 * s->cap : 64};
    if (!(bigger.slot = hs_calloc(bigger.cap, sizeof *bigger.slot))) return HS_ENOMEM;
    for (size_t i = 0; i < s->cap; i++)
        if (s->slot[i]) *keyset_find(&bigger, s->slot[i]) = s->slot[i];
    bigger.count = s->count;
    hs_free(s->slot);
    *s = bigger;
    return 0;
}

static void keyset_free(keyset *s)
{
    hs_free(s->slot);
    memset(s, 0, sizeof *s);
}

/* The earlier key of `map` equal to k (NULL: none; then k is remembered). Small mappings are
 * scanned; from HS_YAML_LINEAR_MAX keys on, the mapping's set answers in constant time. */
static const hs_ynode *duplicate_of(const hs_ynode *map, keyset *s, const hs_ynode *k, int *rc)
{
    if (map->n < HS_YAML_LINEAR_MAX) {
        for (size_t i = 0; i < map->nitems; i += 2)
            if (same_scalar(map->items[i], k)) return map->items[i];
        return NULL;
    }
    if (!s->cap) /* the set starts with the keys scanned so far */
        for (size_t i = 0; i < map->nitems; i += 2) {
            if (2 * (s->count + 1) > s->cap && (*rc = keyset_grow(s)) != 0) return NULL;
            *keyset_find(s, map->items[i]) = map->items[i];
            s->count++;
        }
    if (2 * (s->count + 1) > s->cap && (*rc = keyset_grow(s)) != 0) return NULL;
    const hs_ynode **slot = keyset_find(s, k);
    if (*slot) return *slot;
    *slot = k;
    s->count++;
    return NULL;
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
        int rc = 0;
        const hs_ynode *first = duplicate_of(parent, &b->keys[b->depth - 1], node, &rc);
        if (rc) return rc;
        if (first) {
            char at[64];
            snprintf(at, sizeof at, "%d:%d", first->line, first->col);
            char key[80];
            snprintf(key, sizeof key, "%.60s%s", node->text, node->len > 60 ? "..." : "");
            return bfail(b, node->line, node->col, "duplicate key '%s' (first defined at %s)", key,
                         at);
        }
    }
    return items_push(b->tree, parent, node);
}

static int on_event(builder *b, const yaml_event_t *ev)
{
    const yaml_mark_t *mk = &ev->start_mark;
    const int line = mark_int(mk->line), col = mark_int(mk->column);
    hs_ynode *node = NULL;
    switch (ev->type) {
    case YAML_ALIAS_EVENT:
        return bfail(b, line, col,
                     "YAML aliases (*%s) are not supported in %ss: write the value out",
                     (const char *)ev->data.alias.anchor, b->kind);
    case YAML_SCALAR_EVENT:
        if (ev->data.scalar.tag)
            return bfail(b, line, col, "YAML tags (%s) are not supported in %ss",
                         (const char *)ev->data.scalar.tag, b->kind);
        node = node_new(b, HS_YNODE_SCALAR, mk);
        if (!node) return HS_ENOMEM;
        node->len = ev->data.scalar.length;
        node->text = tree_alloc(b->tree, node->len + 1, 1);
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
            return bfail(b, line, col, "YAML tags (%s) are not supported in %ss", (const char *)tag,
                         b->kind);
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
        if (b->depth > 0) keyset_free(&b->keys[--b->depth]);
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

int hs_ytree_parse(hs_ctx *ctx, const char *text, size_t len, const char *name, const char *kind,
                   hs_ytree **out)
{
    if (!out || (!text && len)) return hs_fail(ctx, HS_EINVAL, "yaml: no text");
    *out = NULL;
    builder b = {.ctx = ctx, .name = name ? name : "<string>", .kind = kind ? kind : "test file"};
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
                       "a %s holds one YAML document; a second one starts here%s", b.kind, NULL);
        else if (ev.type == YAML_STREAM_END_EVENT)
            done = 1;
        else
            rc = on_event(&b, &ev);
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    for (int d = 0; d < HS_YAML_MAX_DEPTH; d++) keyset_free(&b.keys[d]);
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
    for (struct hs_yblock *blk = t->blocks; blk;) {
        struct hs_yblock *next = blk->next;
        hs_free(blk);
        blk = next;
    }
    hs_free(t);
    *tree = NULL;
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

hs_ynode *hs_ytree_new_node(hs_ytree *tree, hs_ynode_kind kind, const char *text,
                            const char *origin)
{
    hs_ynode *n = tree_alloc(tree, sizeof *n, _Alignof(hs_ynode));
    if (!n) return NULL;
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->origin = origin;
    if (kind == HS_YNODE_SCALAR) {
        const char *src = text ? text : "";
        n->len = strlen(src);
        n->text = tree_alloc(tree, n->len + 1, 1);
        if (!n->text) return NULL;
        memcpy(n->text, src, n->len + 1);
        n->plain = 1;
    }
    return n;
}

int hs_ynode_append(hs_ytree *tree, hs_ynode *parent, hs_ynode *child)
{
    return items_push(tree, parent, child);
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
