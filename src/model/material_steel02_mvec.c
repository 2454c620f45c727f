/* Steel02's pows with glibc's vector pow of four lanes (libmvec.so.1, part of Debian's libc6:
 * _ZGVdN4vv_pow, its AVX2 variant), called with its vector ABI. This file alone is built for AVX2
 * and FMA (CMakeLists.txt: clang takes a vector argument's calling convention from the file's
 * instruction set, not the function's), and runs only where the processor has both
 * (material_steel02.c chooses it when the program loads). The lanes are independent of one
 * another. The results are within a few ulps of glibc's scalar pow, not its bits (the glibc wiki,
 * "Libmvec": vector versions differ from the scalar ones in accuracy); measured on the law's
 * arguments (|x| in [2^-8, 2^4) with R in [1, 18], and 1 + |x|^R up to 2^41 with 1/R), 16 million
 * pows: 20 % differ from the scalar pow's, by 1 ulp at most. The 8-lane AVX-512 variant
 * (_ZGVeN8vv_pow) took longer than this one for the 2-3 lanes a section's call has
 * (bench/README.md), so this one runs on AVX-512 processors too. */
#include "material_steel02_mvec.h"

#if defined(HS_HAVE_MVEC) && defined(__x86_64__)
#include <string.h>

typedef double s2_v4 __attribute__((vector_size(4 * sizeof(double))));
s2_v4 _ZGVdN4vv_pow(s2_v4 x, s2_v4 y);

void hs_steel02_pows_avx2(size_t k, const double *ax, const double *R, const double *inv_R,
                          double *d1, double *d2)
{
    (void)k;
    s2_v4 a, r, ir;
    memcpy(&a, ax, sizeof a);
    memcpy(&r, R, sizeof r);
    memcpy(&ir, inv_R, sizeof ir);
    const s2_v4 one = {1.0, 1.0, 1.0, 1.0};
    const s2_v4 v1 = one + _ZGVdN4vv_pow(a, r), v2 = _ZGVdN4vv_pow(v1, ir);
    memcpy(d1, &v1, sizeof v1);
    memcpy(d2, &v2, sizeof v2);
}
#else
typedef int hs_steel02_mvec_unused; /* (a translation unit has a declaration) */
#endif
