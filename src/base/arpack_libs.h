/* ARPACK loaded when a large model's modes are first asked for (eig_sparse.c), not at the
 * program's start: Debian's libarpack2 brings the reference BLAS and LAPACK, libgfortran and
 * libquadmath (base/lazy_lib.h; bench/README.md, "Whole program"). eig_sparse.c includes
 * arpack_libs_names.h after <arpack.h>, which routes its calls through this table. */
#ifndef HS_ARPACK_LIBS_H
#define HS_ARPACK_LIBS_H

#include "hysim/base.h"

#include <arpack.h>

#define HS_ARPACK_FUNCS(X)                                                                         \
    X(dsaupd_c)                                                                                    \
    X(dseupd_c)

#define HS_ARPACK_FN(f) __typeof__(f) *f;
typedef struct hs_arpack_api {
    HS_ARPACK_FUNCS(HS_ARPACK_FN)
} hs_arpack_api;
#undef HS_ARPACK_FN

/* filled once by hs_arpack_require */
extern hs_arpack_api hs_arpack;

/* Loads ARPACK (once per process; HS_ARPACK_LIBRARY names another file): 0, or HS_EIO with a
 * message in ctx naming `what`, the library and what to install. */
int hs_arpack_require(hs_ctx *ctx, const char *what);

#endif
