/* Steel02's pows four lanes at a time with glibc's vector math library (libmvec), built for AVX2
 * (material_steel02_mvec.c; library-internal). */
#ifndef HS_MATERIAL_STEEL02_MVEC_H
#define HS_MATERIAL_STEEL02_MVEC_H

#include <stddef.h>

/* d1 = 1 + ax^R and d2 = d1^(1/R) in four lanes (the arrays have 4; the lanes past k are computed
 * and ignored). Only on a processor with AVX2 and FMA, and only when HS_HAVE_MVEC is defined
 * (CMake found libmvec). */
void hs_steel02_pows_avx2(size_t k, const double *ax, const double *R, const double *inv_R,
                          double *d1, double *d2);

#endif
