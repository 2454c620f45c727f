/* The passes over a section's fibers shared by fe_section.c and fe_section_batch.c (internal to
 * src/fe): strains, 2-D sums, the groups' state copies. */
#ifndef HS_FE_SECTION_PASSES_H
#define HS_FE_SECTION_PASSES_H

#include "fe_section.h"

#include <string.h>

/* The passes over the fibers are inlined into their callers (fe_section.c, fe_section_batch.c),
 * built once per instruction set (AVX2 where the CPU has it): one entry a trial, the same
 * operations and order in each build (the same bits). */
#define SEC_INLINE static inline __attribute__((always_inline))

/* The fibers' strains (2-D: z NULL), vectorised. */
SEC_INLINE void sec_strains(size_t n, const double *restrict y, const double *restrict z,
                            double eps, double kz, double ky, double *restrict strain)
{
    if (!z)
        for (size_t i = 0; i < n; i++) strain[i] = eps - y[i] * kz;
    else
        for (size_t i = 0; i < n; i++) strain[i] = eps - y[i] * kz + z[i] * ky;
}

/* The sums of a 2-D section over its n fibers: k = sum E A [1 -y; -y y^2], s = sum sigma A [1; -y]
 * as sum[] = {k00, k01, k11, N, Mz}, four fibers at a time in four partial sums each (AVX2 where
 * the CPU has it), added at the end (the order of the sums: round-off). */
typedef double sec_v4 __attribute__((vector_size(4 * sizeof(double))));
typedef struct sec_acc {
    sec_v4 k00, k01, k11, N, Mz;
} sec_acc;

/* Fibers i .. i + 3 (y and A at i) into the partial sums, their stresses and tangents at sp, tp. */
SEC_INLINE void sec_sums_four(sec_acc *a, const double *y, const double *A, const double *sp,
                              const double *tp)
{
    sec_v4 yv, Av, sv, tv;
    memcpy(&yv, y, sizeof yv);
    memcpy(&Av, A, sizeof Av);
    memcpy(&sv, sp, sizeof sv);
    memcpy(&tv, tp, sizeof tv);
    const sec_v4 kA = tv * Av, fA = sv * Av, kAy = kA * yv;
    a->k00 += kA;
    a->k01 -= kAy;
    a->k11 += kAy * yv;
    a->N += fA;
    a->Mz -= fA * yv;
}

/* The partial sums added, then the last m < 4 fibers (y and A at y, A) one by one. */
SEC_INLINE void sec_sums_end(const sec_acc *a, size_t m, const double *y, const double *A,
                             const double *stress, const double *tangent, double *sum)
{
    /* each sum's lanes added as x0 + x1 + (x2 + x3), four sums at once: the four vectors
     * transposed (lane j of c_j holds lane j of k00, k01, k11 and N) */
    const sec_v4 lo01 = __builtin_shufflevector(a->k00, a->k01, 0, 4, 2, 6);
    const sec_v4 hi01 = __builtin_shufflevector(a->k00, a->k01, 1, 5, 3, 7);
    const sec_v4 lo23 = __builtin_shufflevector(a->k11, a->N, 0, 4, 2, 6);
    const sec_v4 hi23 = __builtin_shufflevector(a->k11, a->N, 1, 5, 3, 7);
    const sec_v4 c0 = __builtin_shufflevector(lo01, lo23, 0, 1, 4, 5);
    const sec_v4 c1 = __builtin_shufflevector(hi01, hi23, 0, 1, 4, 5);
    const sec_v4 c2 = __builtin_shufflevector(lo01, lo23, 2, 3, 6, 7);
    const sec_v4 c3 = __builtin_shufflevector(hi01, hi23, 2, 3, 6, 7);
    const sec_v4 r4 = c0 + c1 + (c2 + c3);
    double r[5] = {r4[0], r4[1], r4[2], r4[3], a->Mz[0] + a->Mz[1] + (a->Mz[2] + a->Mz[3])};
    for (size_t i = 0; i < m; i++) {
        const double kA = tangent[i] * A[i], fA = stress[i] * A[i];
        r[0] += kA;
        r[1] -= kA * y[i];
        r[2] += kA * y[i] * y[i];
        r[3] += fA;
        r[4] -= fA * y[i];
    }
    memcpy(sum, r, sizeof r);
}

/* The 2-D sums {k00, k01, k11, N, Mz} as the section's resultants s and tangent ks (P, Mz). */
SEC_INLINE void sec_set_sums_2d(fe_section *s, const double *sum)
{
    s->s[0] = sum[3];
    s->s[1] = sum[4];
    s->ks[0] = sum[0];
    s->ks[1] = s->ks[2] = sum[1];
    s->ks[3] = sum[2];
}

/* The bytes of group g's states, and their copy from `from` to `to` (rows of ld: row by row). */
size_t fe_fiber_group_bytes(const fe_fiber_group *g);
void fe_fiber_group_copy(const fe_fiber_group *g, double *to, const double *from);

/* A batched section's commit (fe_section_commit): the committed and trial arrays of all the
 * batch's sections swapped at once (the sections' views follow lazily: fe_section_batch_views). */
void fe_section_batch_commit(fe_section_batch *b);
/* A batched section's groups' views set right (their c and t swapped when the batch committed
 * an odd number of times since), before any use of them outside the batch's trial; and whether
 * they are swapped now (a const reader takes t for c then). */
void fe_section_batch_views(fe_section *s);
int fe_section_batch_swapped(const fe_section *s);

#endif
