/* libmicrohttpd on first use (mhd_libs.h): dlopen of the library the build linked against
 * (HS_MHD_SONAME from CMake; base/lazy_lib.h). */
#include "monitor/mhd_libs.h"

#include "base/lazy_lib.h"

#ifndef HS_MHD_SONAME
#define HS_MHD_SONAME "libmicrohttpd.so.12"
#endif

hs_mhd_api hs_mhd;

#define HS_MHD_NAME(f) #f,
#define HS_MHD_SLOT(f) (void *)&hs_mhd.f,

static const char *const mhd_names[] = {HS_MHD_FUNCS(HS_MHD_NAME)};
static void *const mhd_slots[] = {HS_MHD_FUNCS(HS_MHD_SLOT)};
static hs_lazy_lib mhd_lib =
    HS_LAZY_LIB("libmicrohttpd", "HS_MHD_LIBRARY", HS_MHD_SONAME, mhd_names, mhd_slots);

int hs_mhd_require(hs_ctx *ctx, const char *what)
{
    return hs_lazy_lib_require(ctx, &mhd_lib, what,
                               "install Debian's libmicrohttpd12 (as scripts/install-deps.sh "
                               "does), set HS_MHD_LIBRARY to its file, or run without --monitor");
}
