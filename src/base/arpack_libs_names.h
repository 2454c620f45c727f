/* Included after <arpack.h> by eig_sparse.c: each name below becomes its entry in the table that
 * hs_arpack_require fills (arpack_libs.h). */
#ifndef HS_ARPACK_LIBS_NAMES_H
#define HS_ARPACK_LIBS_NAMES_H

#include "base/arpack_libs.h"

#define dsaupd_c (hs_arpack.dsaupd_c)
#define dseupd_c (hs_arpack.dseupd_c)

#endif
