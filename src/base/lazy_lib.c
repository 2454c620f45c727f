/* Libraries loaded on first use (lazy_lib.h). */
#include "base/lazy_lib.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* dlopen of the file named by l->env (when set) or l->soname; each name's symbol into its slot.
 * 1 on success, else 0 with the reason in l->error. */
static int open_lib(hs_lazy_lib *l)
{
    const char *file = getenv(l->env);
    if (!file || !file[0]) file = l->soname;
    /* as at start-up: functions bound when called */
    void *h = dlopen(file, RTLD_LAZY | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(l->error, sizeof l->error, "cannot load %s (%s)", file, e ? e : "dlopen failed");
        return 0;
    }
    /* the process's own definition first: a program linked with the library itself (the tests
     * that read results.h5 back) holds copies of its global variables (H5T_NATIVE_DOUBLE_g, ...,
     * copy relocations) that the library fills, not the library's originals */
    void *self = dlopen(NULL, RTLD_LAZY);
    for (size_t k = 0; k < l->count; k++) {
        void *p = self ? dlsym(self, l->names[k]) : NULL;
        if (!p) p = dlsym(h, l->names[k]); /* the library or the libraries it needs */
        if (!p) {
            snprintf(l->error, sizeof l->error, "%s has no symbol %s", file, l->names[k]);
            if (self) dlclose(self);
            dlclose(h);
            return 0;
        }
        memcpy(l->slots[k], &p, sizeof p); /* object pointer into a function or data pointer */
    }
    if (self) dlclose(self);
    return 1; /* kept loaded for the process's life */
}

int hs_lazy_lib_load(hs_lazy_lib *l)
{
    pthread_mutex_lock(&l->lock);
    if (l->state == 0) l->state = open_lib(l) ? 1 : -1;
    const int ok = l->state == 1;
    pthread_mutex_unlock(&l->lock);
    return ok;
}

int hs_lazy_lib_require(hs_ctx *ctx, hs_lazy_lib *l, const char *what, const char *fix)
{
    if (hs_lazy_lib_load(l)) return 0;
    return hs_fail(ctx, HS_EIO, "%s: %s is needed and %s: %s", what, l->label, l->error, fix);
}
