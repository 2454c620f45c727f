/* Loading a lab's own shared library (a lab driver, a compensator plug-in): dlopen, then its one
 * exported entry function, with messages that say what to do (src/lab/plugin_load.c). */
#ifndef HS_LAB_PLUGIN_LOAD_H
#define HS_LAB_PLUGIN_LOAD_H

#include "hysim/base.h"

typedef void (*hs_plugin_fn)(void); /* the entry, to be cast to its own type */

/* What is loaded, for the messages. */
typedef struct hs_plugin_kind {
    const char *what;   /* "lab driver" */
    const char *symbol; /* "hysim_driver_v1", the entry */
    const char *header; /* "include/hysim/driver.h" */
    const char *noun;   /* "hysim driver" */
    const char *table;  /* "hysim_driver", the table's type */
    const char *doc;    /* "docs/lab_backends.md" */
} hs_plugin_kind;

/* *dl and *entry on success (dlclose *dl); HS_EINPUT with a message that says what to do
 * otherwise (*dl may be set: dlclose it). */
int hs_plugin_load(hs_ctx *ctx, const char *path, const hs_plugin_kind *k, void **dl,
                   hs_plugin_fn *entry);

#endif
