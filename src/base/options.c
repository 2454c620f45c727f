/* Options: a small ordered dictionary of numbers, strings and number lists. */
#include "hysim/options.h"

#include <string.h>

typedef struct hs_option {
    char *key;
    hs_param_kind kind;
    double num;
    char *str;
    double *list;
    size_t nlist;
} hs_option;

struct hs_options {
    hs_option *items;
    size_t n, cap;
};

int hs_options_create(hs_options **out)
{
    if (!out) return HS_EINVAL;
    *out = hs_calloc(1, sizeof **out);
    return *out ? 0 : HS_ENOMEM;
}

static void hs_option_clear(hs_option *o)
{
    hs_free(o->str);
    hs_free(o->list);
    o->str = NULL;
    o->list = NULL;
    o->nlist = 0;
}

void hs_options_destroy(hs_options **opts)
{
    if (!opts || !*opts) return;
    for (size_t i = 0; i < (*opts)->n; i++) {
        hs_option_clear(&(*opts)->items[i]);
        hs_free((*opts)->items[i].key);
    }
    hs_free((*opts)->items);
    hs_free(*opts);
    *opts = NULL;
}

static hs_option *hs_options_find(const hs_options *o, const char *key)
{
    if (!o || !key) return NULL;
    for (size_t i = 0; i < o->n; i++)
        if (strcmp(o->items[i].key, key) == 0) return &o->items[i];
    return NULL;
}

static hs_option *hs_options_slot(hs_options *o, const char *key)
{
    hs_option *it = hs_options_find(o, key);
    if (it) {
        hs_option_clear(it);
        return it;
    }
    if (o->n == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 8;
        hs_option *items = hs_realloc(o->items, cap * sizeof *items);
        if (!items) return NULL;
        o->items = items;
        o->cap = cap;
    }
    it = &o->items[o->n];
    memset(it, 0, sizeof *it);
    it->key = hs_strdup(key);
    if (!it->key) return NULL;
    o->n++;
    return it;
}

int hs_options_set_num(hs_options *o, const char *key, double value)
{
    if (!o || !key) return HS_EINVAL;
    hs_option *it = hs_options_slot(o, key);
    if (!it) return HS_ENOMEM;
    it->kind = HS_PARAM_NUM;
    it->num = value;
    return 0;
}

int hs_options_set_str(hs_options *o, const char *key, const char *value)
{
    if (!o || !key || !value) return HS_EINVAL;
    hs_option *it = hs_options_slot(o, key);
    if (!it) return HS_ENOMEM;
    it->kind = HS_PARAM_STR;
    it->str = hs_strdup(value);
    return it->str ? 0 : HS_ENOMEM;
}

int hs_options_set_list(hs_options *o, const char *key, const double *values, size_t n)
{
    if (!o || !key || (n && !values)) return HS_EINVAL;
    hs_option *it = hs_options_slot(o, key);
    if (!it) return HS_ENOMEM;
    it->kind = HS_PARAM_LIST;
    it->list = hs_malloc((n ? n : 1) * sizeof(double));
    if (!it->list) return HS_ENOMEM;
    if (n) memcpy(it->list, values, n * sizeof(double));
    it->nlist = n;
    return 0;
}

int hs_options_has(const hs_options *o, const char *key)
{
    return hs_options_find(o, key) != NULL;
}

double hs_options_num(const hs_options *o, const char *key, double def)
{
    const hs_option *it = hs_options_find(o, key);
    return (it && it->kind == HS_PARAM_NUM) ? it->num : def;
}

const char *hs_options_str(const hs_options *o, const char *key, const char *def)
{
    const hs_option *it = hs_options_find(o, key);
    return (it && it->kind == HS_PARAM_STR) ? it->str : def;
}

size_t hs_options_list(const hs_options *o, const char *key, const double **values)
{
    const hs_option *it = hs_options_find(o, key);
    if (!it || it->kind != HS_PARAM_LIST) {
        if (values) *values = NULL;
        return 0;
    }
    if (values) *values = it->list;
    return it->nlist;
}

size_t hs_options_count(const hs_options *o)
{
    return o ? o->n : 0;
}
const char *hs_options_key(const hs_options *o, size_t i)
{
    return (o && i < o->n) ? o->items[i].key : NULL;
}
