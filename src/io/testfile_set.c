/* Command-line overrides of a test file's scalars (`hysim run FILE --set KEY=VALUE`): KEY is a
 * dotted path through the file's mappings, with 1-based list items in brackets
 * (`analysis.dt`, `sites.lab1.actuators.a1.stroke`, `structure.mass[2]`). The value replaces
 * the scalar in the YAML tree before the tree is read, so it is validated exactly like the
 * file's own text, and every message about it names the --set argument instead of a line. A
 * missing last key (and missing mappings on the way) is added, so a key the file leaves to its
 * default can be set too; unknown keys are then refused like misspelt ones in the file. Setting
 * `ground_motion.file` replaces a synthetic record (`ground_motion.synthetic` is dropped). */
#include "testfile_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HS_SET_MAX_KEY 256

static int set_fail(hs_ctx *ctx, const char *arg, const char *msg, const char *part)
{
    return hs_fail(ctx, HS_EINPUT, "--set %s: %s%s%s", arg, msg, part ? " " : "", part ? part : "");
}

/* Appends a and b to the path in buf (cap bytes) when they fit; the path is for messages. */
static void path_append(char *buf, size_t cap, const char *a, const char *b)
{
    const size_t used = strlen(buf), la = strlen(a), lb = strlen(b);
    if (used + la + lb >= cap) return;
    memcpy(buf + used, a, la);
    memcpy(buf + used + la, b, lb + 1);
}

/* The value under `key` in `map` as a slot (pointer into items), or NULL. */
static hs_ynode **map_slot(hs_ynode *map, const char *key)
{
    const size_t klen = strlen(key);
    for (size_t i = 0; i < map->n; i++) {
        const hs_ynode *k = map->items[2 * i];
        if (k->len == klen && memcmp(k->text, key, klen) == 0) return &map->items[2 * i + 1];
    }
    return NULL;
}

/* Adds key: value (a new scalar or an empty mapping) to map and returns the value's slot. */
static hs_ynode **map_add(hs_ytree *tree, hs_ynode *map, const char *key, hs_ynode_kind kind,
                          const char *arg)
{
    hs_ynode *k = hs_ytree_new_node(tree, HS_YNODE_SCALAR, key, arg);
    hs_ynode *v = k ? hs_ytree_new_node(tree, kind, "", arg) : NULL;
    if (!v || hs_ynode_append(tree, map, k) || hs_ynode_append(tree, map, v)) return NULL;
    return &map->items[map->nitems - 1];
}

int hs_tf_set(hs_ctx *ctx, hs_ytree *tree, const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return set_fail(ctx, arg, "expected KEY=VALUE (a dotted path such as analysis.dt=0.005)",
                        NULL);
    char key[HS_SET_MAX_KEY];
    if ((size_t)(eq - arg) >= sizeof key) return set_fail(ctx, arg, "the key is too long", NULL);
    memcpy(key, arg, (size_t)(eq - arg));
    key[eq - arg] = '\0';
    if (!tree->root || tree->root->kind != HS_YNODE_MAPPING)
        return set_fail(ctx, arg, "the file holds no mapping of sections to set a key in", NULL);
    hs_ynode *root = tree->root;
    hs_ynode **slot = &root;
    char done[HS_SET_MAX_KEY] = ""; /* the path walked so far, for messages */
    for (char *seg = key, *next; seg; seg = next) {
        next = strchr(seg, '.');
        if (next) *next++ = '\0';
        char *bracket = strchr(seg, '[');
        if (bracket) *bracket = '\0';
        if (seg[0] == '\0') return set_fail(ctx, arg, "an empty name in the key", NULL);
        hs_ynode *node = *slot;
        if (node->kind != HS_YNODE_MAPPING)
            return set_fail(ctx, arg, done[0] ? done : "the file", "is not a mapping");
        path_append(done, sizeof done, done[0] ? "." : "", seg);
        hs_ynode **child = map_slot(node, seg);
        if (!child) {
            if (bracket) return set_fail(ctx, arg, done, "is not in the file (no list to index)");
            child = map_add(tree, node, seg, next ? HS_YNODE_MAPPING : HS_YNODE_SCALAR, arg);
            if (!child) return HS_ENOMEM;
        }
        slot = child;
        for (char *b = bracket; b; b = strchr(b, '[')) {
            *b++ = '\0';
            char *end = NULL;
            const long i = strtol(b, &end, 10);
            if (end == b || *end != ']')
                return set_fail(ctx, arg, "expected a 1-based item number in brackets after", done);
            b = end + 1;
            if ((*slot)->kind != HS_YNODE_SEQUENCE)
                return set_fail(ctx, arg, done, "is not a list");
            if (i < 1 || (size_t)i > (*slot)->n) {
                char msg[64];
                snprintf(msg, sizeof msg, "has %zu items; item %ld does not exist", (*slot)->n, i);
                return set_fail(ctx, arg, done, msg);
            }
            char item[32];
            snprintf(item, sizeof item, "[%ld]", i);
            path_append(done, sizeof done, item, "");
            slot = &(*slot)->items[i - 1];
            if (*b != '\0' && *b != '[')
                return set_fail(ctx, arg, "unexpected text after the brackets of", done);
        }
    }
    if ((*slot)->kind != HS_YNODE_SCALAR)
        return set_fail(ctx, arg, done,
                        (*slot)->kind == HS_YNODE_MAPPING
                            ? "is a mapping: --set changes one scalar, name one of its keys"
                            : "is a list: --set changes one scalar, name an item (KEY[1])");
    hs_ynode *value = hs_ytree_new_node(tree, HS_YNODE_SCALAR, eq + 1, arg);
    if (!value) return HS_ENOMEM;
    *slot = value;
    hs_ynode **gm = map_slot(root, "ground_motion");
    if (gm && strcmp(done, "ground_motion.file") == 0) hs_ynode_remove(*gm, "synthetic");
    return 0;
}
