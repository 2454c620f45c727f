/* hysim options: a small dictionary of named numbers, strings and number lists, used to pass
 * parameters to the constructors of registered objects (integrators, materials, ground motions). */
#ifndef HYSIM_OPTIONS_H
#define HYSIM_OPTIONS_H

#include "hysim/base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hs_options hs_options;

int hs_options_create(hs_options **out);
void hs_options_destroy(hs_options **opts);
int hs_options_set_num(hs_options *o, const char *key, double value);
int hs_options_set_str(hs_options *o, const char *key, const char *value);
int hs_options_set_list(hs_options *o, const char *key, const double *values, size_t n);
int hs_options_has(const hs_options *o, const char *key);
/* Value of a number (or `def` when absent or o is NULL). */
double hs_options_num(const hs_options *o, const char *key, double def);
/* String value (or `def`). The pointer is lent. */
const char *hs_options_str(const hs_options *o, const char *key, const char *def);
/* Number list: returns its length and lends the values (NULL, 0 when absent). */
size_t hs_options_list(const hs_options *o, const char *key, const double **values);
size_t hs_options_count(const hs_options *o);
const char *hs_options_key(const hs_options *o, size_t i);

/* The parameters a registered implementation accepts; a NULL name ends a list. The test file
 * loader uses them to reject unknown keys (suggesting the nearest) and to report missing ones. */
typedef enum { HS_PARAM_NUM, HS_PARAM_STR, HS_PARAM_LIST } hs_param_kind;
typedef struct hs_param_spec {
    const char *name;
    hs_param_kind kind;
    int required;
    const char *help;
} hs_param_spec;

#ifdef __cplusplus
}
#endif
#endif
