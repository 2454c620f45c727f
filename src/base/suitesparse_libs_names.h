/* Included after <cholmod.h> and <klu.h> by linsolver_sparse.c: each name below becomes its entry
 * in the table that hs_suitesparse_require fills (suitesparse_libs.h). */
#ifndef HS_SUITESPARSE_LIBS_NAMES_H
#define HS_SUITESPARSE_LIBS_NAMES_H

#include "base/suitesparse_libs.h"

#define cholmod_start       (hs_ss.cholmod_start)
#define cholmod_finish      (hs_ss.cholmod_finish)
#define cholmod_analyze     (hs_ss.cholmod_analyze)
#define cholmod_factorize   (hs_ss.cholmod_factorize)
#define cholmod_solve2      (hs_ss.cholmod_solve2)
#define cholmod_free_factor (hs_ss.cholmod_free_factor)
#define cholmod_free_dense  (hs_ss.cholmod_free_dense)
#define SuiteSparse_config  (*hs_ss.SuiteSparse_config)
#define klu_defaults        (hs_ss.klu_defaults)
#define klu_analyze         (hs_ss.klu_analyze)
#define klu_factor          (hs_ss.klu_factor)
#define klu_refactor        (hs_ss.klu_refactor)
#define klu_rcond           (hs_ss.klu_rcond)
#define klu_solve           (hs_ss.klu_solve)
#define klu_free_numeric    (hs_ss.klu_free_numeric)
#define klu_free_symbolic   (hs_ss.klu_free_symbolic)

#endif
