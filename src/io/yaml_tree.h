/* A small in-memory YAML node tree built from libyaml events, with 1-based line/column marks.
 * Mappings keep their keys in order; duplicate or non-scalar keys and aliases are rejected while
 * building, so the test file loader walks a plain tree. Internal to the test file loader. */
#ifndef HS_YAML_TREE_H
#define HS_YAML_TREE_H

#include "hysim/base.h"

typedef enum { HS_YNODE_SCALAR, HS_YNODE_SEQUENCE, HS_YNODE_MAPPING } hs_ynode_kind;

typedef struct hs_ynode {
    hs_ynode_kind kind;
    int line, col;      /* 1-based start mark */
    int plain;          /* scalar written without quotes (numbers and booleans must be plain) */
    char *text;         /* scalar value (NUL-terminated) */
    size_t len;         /* scalar length (may hold NUL bytes: then it is not a valid string) */
    const char *origin; /* NULL: read from the file at line:col; else the command-line argument
                           that set it (`--set KEY=VALUE`, lent by the caller) */
    struct hs_ynode **items; /* sequence: items; mapping: key, value, key, value, ... */
    size_t n;                /* number of entries (mapping: pairs) */
    size_t nitems, cap;      /* length and capacity of items */
} hs_ynode;

/* The tree owns its nodes, texts and item arrays in 64 KiB blocks (yaml_tree.c), not one
 * allocation each: a 16 MiB file of one-line mappings peaks at 463 MB, not 734 MB. */
typedef struct hs_ytree {
    hs_ynode *root; /* NULL for an empty document */
    struct hs_yblock *blocks;
} hs_ytree;

/* Parses `text` (len bytes). On error returns HS_EINPUT with "NAME:LINE:COL: message" in ctx
 * (or HS_ENOMEM); `kind` names the file in messages ("test file", "site file"; NULL: "test
 * file"). Duplicate keys are found with a hash set per open mapping: linear in the file. */
int hs_ytree_parse(hs_ctx *ctx, const char *text, size_t len, const char *name, const char *kind,
                   hs_ytree **out);
void hs_ytree_destroy(hs_ytree **tree);

/* Edits for command-line overrides (testfile_set.c): a new node owned by the tree (a scalar
 * holding a copy of `text`, or an empty mapping; line 0, column 0, the given origin), appended
 * to a mapping as key/value or to a sequence, and a mapping entry removed. NULL / HS_ENOMEM when
 * out of memory. */
hs_ynode *hs_ytree_new_node(hs_ytree *tree, hs_ynode_kind kind, const char *text,
                            const char *origin);
int hs_ynode_append(hs_ytree *tree, hs_ynode *parent, hs_ynode *child);
void hs_ynode_remove(hs_ynode *map, const char *key);

/* The tree under root as YAML text (yaml_emit.c; block style, plain scalars kept plain, quoted
 * ones double-quoted): *text (NUL-ended, *len bytes, hs_free it). HS_ENOMEM, or HS_EINVAL when
 * libyaml refuses a node. */
int hs_ynode_emit(const hs_ynode *root, char **text, size_t *len);

/* Mapping access: the i-th key/value and the value under `key` (NULL when absent). */
const hs_ynode *hs_ynode_key(const hs_ynode *map, size_t i);
const hs_ynode *hs_ynode_value(const hs_ynode *map, size_t i);
const hs_ynode *hs_ynode_get(const hs_ynode *map, const char *key);
/* "a scalar", "a list", "a mapping": for messages. */
const char *hs_ynode_kind_name(const hs_ynode *node);

#endif
