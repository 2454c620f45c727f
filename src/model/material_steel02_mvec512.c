/* Steel02's pows eight lanes a call with glibc's AVX-512 vector pow (libmvec.so.1:
 * _ZGVeN8vv_pow, called with its vector ABI). This file alone is built for AVX-512F
 * (CMakeLists.txt: the calling convention of a 512-bit vector argument follows the file's
 * instruction set) and runs only where the processor has it, AVX2 and FMA (material_steel02.c
 * chooses it when the program loads; the lanes themselves are material_steel02_mvec.c's).
 * Its results, like the 4-lane variant's, are within 1 ulp of glibc's scalar pow, not its bits,
 * and not always the 4-lane variant's bits either (measured: bench/README.md, h/pow bullet). */
#include "material_steel02_impl.h"

#if defined(HS_HAVE_MVEC) && defined(__x86_64__)
#include <string.h>

typedef double s2_v8 __attribute__((vector_size(8 * sizeof(double))));
typedef double s2_v4 __attribute__((vector_size(4 * sizeof(double))));
s2_v8 _ZGVeN8vv_pow(s2_v8 x, s2_v8 y);
s2_v4 _ZGVdN4vv_pow(s2_v4 x, s2_v4 y);

/* (the last 4 lanes or fewer with the 4-lane pow, which takes 2/3 of the 8-lane one's time: the
 * same bits, bench/README.md) */
void hs_steel02_pows_avx512(size_t k, const double *ax, const double *R, const double *inv_R,
                            double *d1, double *d2)
{
    size_t j = 0;
    for (; j + 4 < k; j += 8) { /* the first pows, then the second ones */
        s2_v8 a, r, v1;
        memcpy(&a, ax + j, sizeof a);
        memcpy(&r, R + j, sizeof r);
        v1 = 1.0 + _ZGVeN8vv_pow(a, r);
        memcpy(d1 + j, &v1, sizeof v1);
    }
    if (j < k) {
        s2_v4 a, r, v1;
        memcpy(&a, ax + j, sizeof a);
        memcpy(&r, R + j, sizeof r);
        v1 = 1.0 + _ZGVdN4vv_pow(a, r);
        memcpy(d1 + j, &v1, sizeof v1);
    }
    for (j = 0; j + 4 < k; j += 8) {
        s2_v8 v1, ir, v2;
        memcpy(&v1, d1 + j, sizeof v1);
        memcpy(&ir, inv_R + j, sizeof ir);
        v2 = _ZGVeN8vv_pow(v1, ir);
        memcpy(d2 + j, &v2, sizeof v2);
    }
    if (j < k) {
        s2_v4 v1, ir, v2;
        memcpy(&v1, d1 + j, sizeof v1);
        memcpy(&ir, inv_R + j, sizeof ir);
        v2 = _ZGVdN4vv_pow(v1, ir);
        memcpy(d2 + j, &v2, sizeof v2);
    }
}
#else
typedef int hs_steel02_mvec512_unused; /* (a translation unit has a declaration) */
#endif
