/* ARPACK on first use (arpack_libs.h): dlopen of the library the build linked against
 * (HS_ARPACK_SONAME from CMake; base/lazy_lib.h). */
#include "base/arpack_libs.h"

#include "base/lazy_lib.h"

#ifndef HS_ARPACK_SONAME
#define HS_ARPACK_SONAME "libarpack.so.2"
#endif

hs_arpack_api hs_arpack;

#define HS_ARPACK_NAME(f) #f,
#define HS_ARPACK_SLOT(f) (void *)&hs_arpack.f,

static const char *const arpack_names[] = {HS_ARPACK_FUNCS(HS_ARPACK_NAME)};
static void *const arpack_slots[] = {HS_ARPACK_FUNCS(HS_ARPACK_SLOT)};
static hs_lazy_lib arpack_lib =
    HS_LAZY_LIB("ARPACK", "HS_ARPACK_LIBRARY", HS_ARPACK_SONAME, arpack_names, arpack_slots);

int hs_arpack_require(hs_ctx *ctx, const char *what)
{
    return hs_lazy_lib_require(ctx, &arpack_lib, what,
                               "install Debian's libarpack2 (as scripts/install-deps.sh does) or "
                               "set HS_ARPACK_LIBRARY to its file");
}
