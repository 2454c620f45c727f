/* SuiteSparse (CHOLMOD, KLU and their SuiteSparse_config) loaded when a sparse linear solver is
 * first created (linsolver_sparse.c), not at the program's start: CHOLMOD brings METIS, GNU
 * OpenMP, CAMD, CCOLAMD, ... (base/lazy_lib.h; bench/README.md, "Whole program"). Small models
 * (the dense and band solvers) never load it. linsolver_sparse.c includes suitesparse_libs_names.h
 * after <cholmod.h> and <klu.h>, which routes its calls through this table. */
#ifndef HS_SUITESPARSE_LIBS_H
#define HS_SUITESPARSE_LIBS_H

#include "hysim/base.h"

#include <cholmod.h>
#include <klu.h>

#define HS_CHOLMOD_FUNCS(X)                                                                        \
    X(cholmod_start)                                                                               \
    X(cholmod_finish)                                                                              \
    X(cholmod_analyze)                                                                             \
    X(cholmod_factorize)                                                                           \
    X(cholmod_solve2)                                                                              \
    X(cholmod_free_factor)                                                                         \
    X(cholmod_free_dense)
#define HS_CHOLMOD_VARS(X) X(SuiteSparse_config)
#define HS_KLU_FUNCS(X)                                                                            \
    X(klu_defaults)                                                                                \
    X(klu_analyze)                                                                                 \
    X(klu_factor)                                                                                  \
    X(klu_refactor)                                                                                \
    X(klu_rcond)                                                                                   \
    X(klu_solve)                                                                                   \
    X(klu_free_numeric)                                                                            \
    X(klu_free_symbolic)

#define HS_SS_FN(f) __typeof__(f) *f;
typedef struct hs_suitesparse_api {
    HS_CHOLMOD_FUNCS(HS_SS_FN)
    HS_CHOLMOD_VARS(HS_SS_FN)
    HS_KLU_FUNCS(HS_SS_FN)
} hs_suitesparse_api;
#undef HS_SS_FN

/* filled once by hs_suitesparse_require */
extern hs_suitesparse_api hs_ss;

/* Loads CHOLMOD and KLU (once per process; HS_CHOLMOD_LIBRARY / HS_KLU_LIBRARY name other files)
 * and makes SuiteSparse allocate through hs_malloc: 0, or HS_EIO with a message in ctx naming
 * `what`, the library and what to install. */
int hs_suitesparse_require(hs_ctx *ctx, const char *what);

#endif
