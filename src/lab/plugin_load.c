/* Loading a lab's own shared library: see plugin_load.h. */
#include "plugin_load.h"

#include <dlfcn.h>

int hs_plugin_load(hs_ctx *ctx, const char *path, const hs_plugin_kind *k, void **dl,
                   hs_plugin_fn *entry)
{
    *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!*dl)
        return hs_fail(ctx, HS_EINPUT,
                       "%s %s: cannot load it: %s; give the path of a shared library built "
                       "against %s",
                       k->what, path, dlerror(), k->header);
    union {
        void *p;
        hs_plugin_fn f;
    } sym;
    sym.p = dlsym(*dl, k->symbol);
    if (!sym.p)
        return hs_fail(ctx, HS_EINPUT,
                       "%s %s: no symbol %s: the library is not a %s (export 'const %s *%s(void)', "
                       "see %s)",
                       k->what, path, k->symbol, k->noun, k->table, k->symbol, k->doc);
    *entry = sym.f;
    return 0;
}
