/* CHOLMOD and KLU on first use (suitesparse_libs.h): dlopen of the libraries the build linked
 * against (HS_CHOLMOD_SONAME / HS_KLU_SONAME from CMake; base/lazy_lib.h). */
#include "base/suitesparse_libs.h"

#include "base/lazy_lib.h"

#ifndef HS_CHOLMOD_SONAME
#define HS_CHOLMOD_SONAME "libcholmod.so.3"
#endif
#ifndef HS_KLU_SONAME
#define HS_KLU_SONAME "libklu.so.1"
#endif

hs_suitesparse_api hs_ss;

#define HS_SS_NAME(f) #f,
#define HS_SS_SLOT(f) (void *)&hs_ss.f,

static const char *const cholmod_names[] = {HS_CHOLMOD_FUNCS(HS_SS_NAME)
                                                HS_CHOLMOD_VARS(HS_SS_NAME)};
static void *const cholmod_slots[] = {HS_CHOLMOD_FUNCS(HS_SS_SLOT) HS_CHOLMOD_VARS(HS_SS_SLOT)};
static hs_lazy_lib cholmod_lib =
    HS_LAZY_LIB("CHOLMOD", "HS_CHOLMOD_LIBRARY", HS_CHOLMOD_SONAME, cholmod_names, cholmod_slots);
static const char *const klu_names[] = {HS_KLU_FUNCS(HS_SS_NAME)};
static void *const klu_slots[] = {HS_KLU_FUNCS(HS_SS_SLOT)};
static hs_lazy_lib klu_lib =
    HS_LAZY_LIB("KLU", "HS_KLU_LIBRARY", HS_KLU_SONAME, klu_names, klu_slots);

int hs_suitesparse_require(hs_ctx *ctx, const char *what)
{
    static const char fix[] = "install Debian's SuiteSparse runtime libraries (libcholmod3 and "
                              "libklu1, as scripts/install-deps.sh does) or set "
                              "HS_CHOLMOD_LIBRARY / HS_KLU_LIBRARY to their files";
    const int rc = hs_lazy_lib_require(ctx, &cholmod_lib, what, fix);
    return rc ? rc : hs_lazy_lib_require(ctx, &klu_lib, what, fix);
}
