/* Steel02 over fiber arrays in AVX2 vectors, four fibers a lane each, with glibc's vector pow
 * (libmvec.so.1, part of Debian's libc6: _ZGVdN4vv_pow, its AVX2 variant, called with its vector
 * ABI). This file alone is built for AVX2 and FMA (CMakeLists.txt: clang takes a vector
 * argument's calling convention from the file's instruction set, not the function's) and runs
 * only where the processor has both (material_steel02.c chooses it when the program loads).
 *
 * A block of four fibers whose lanes all continue on their branch (no fiber at rest, none at a
 * reversal: 97 % of the blocks of bench/opensees/rc_frame_3x3.tcl) is computed in the lanes with
 * the operations of material_steel02.c's s2_branch and s2_curve in their order (the same bits but
 * the pow's); the other blocks go through the law's branches one fiber after the other
 * (hs_steel02_fibers_gathered). The tail of n % 4 fibers is read with masked loads (no copies). The
 * vector pow's lanes are independent of one another; its results are within a few ulps of glibc's
 * scalar pow, not its bits (the glibc wiki, "Libmvec": vector versions differ from the scalar ones
 * in accuracy): measured on the law's arguments (|x| in [2^-8, 2^4) with R in [1, 18], and 1 +
 * |x|^R up to 2^41 with 1/R), 16 million pows, 20 % differ from the scalar pow's, by 1 ulp at most.
 * The 8-lane AVX-512 variant (_ZGVeN8vv_pow) took longer than this one for the three fibers a
 * section's call has (bench/README.md), so this one runs on AVX-512 processors too. */
#include "material_steel02_impl.h"

#if defined(HS_HAVE_MVEC) && defined(__x86_64__)
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

typedef double s2_v4 __attribute__((vector_size(4 * sizeof(double))));
typedef int64_t s2_m4 __attribute__((vector_size(4 * sizeof(int64_t))));
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

static inline s2_v4 s2_all(double x)
{
    return (s2_v4){x, x, x, x};
}

/* the lanes of a (set where on) */
static inline s2_v4 s2_load(const double *a, s2_m4 on)
{
    return (s2_v4)_mm256_maskload_pd(a, (__m256i)on);
}

/* the lanes on of v into a (on: the first m >= 1 lanes): four wide when all, else one by one (a
 * masked store measured slower here: the frame's Steel02 and section sums 4-5 % more samples) */
static inline void s2_store(double *a, s2_m4 on, s2_v4 v)
{
    if (on[3]) {
        memcpy(a, &v, sizeof v);
        return;
    }
    a[0] = v[0];
    if (on[1]) a[1] = v[1];
    if (on[2]) a[2] = v[2];
}

/* a where m is set, else b */
static inline s2_v4 s2_sel(s2_m4 m, s2_v4 a, s2_v4 b)
{
    return (s2_v4)((m & (s2_m4)a) | (~m & (s2_m4)b));
}

static inline int s2_any(s2_m4 m)
{
    return !_mm256_testz_si256((__m256i)m, (__m256i)m);
}

/* The block of m <= 4 fibers at c, t (rows of ld doubles), lanes on: 0 when a fiber is at rest
 * or at a reversal (nothing written), else its trial states, stresses and tangents. wide: the
 * rows but the last are stored in four lanes whatever m, in the rows' order (see below). */
static int s2_block(const s2_law *p, s2_m4 on, int wide, size_t ld, const double *strain,
                    const double *c, double *t, double *stress, double *tangent)
{
    const s2_v4 eps = s2_load(strain, on), e = eps + s2_all(p->e_init);
    const s2_v4 e_c = s2_load(c + S2_E * ld, on), kon = s2_load(c + S2_KON * ld, on);
    const s2_v4 de = e - e_c, zero = s2_all(0.0);
    /* on its branch: kon 1 (towards tension) with de >= 0, or kon 2 with de <= 0 */
    const s2_m4 up = (s2_m4)(kon == s2_all(1.0)) & (s2_m4)(de >= zero);
    const s2_m4 down = (s2_m4)(kon == s2_all(2.0)) & (s2_m4)(de <= zero);
    if (s2_any(on & ~(up | down))) return 0;
    const s2_v4 e_0 = s2_load(c + S2_E0 * ld, on), e_r = s2_load(c + S2_ER * ld, on);
    const s2_v4 s_0 = s2_load(c + S2_S0 * ld, on), s_r = s2_load(c + S2_SR * ld, on);
    const s2_v4 x_lin = s2_load(c + S2_X_LIN * ld, on);
    const s2_v4 b = s2_all(p->b), b1 = s2_all(p->b1);
    const s2_v4 de0 = e_0 - e_r, x = (e - e_r) / de0, ds = s_0 - s_r;
    const s2_v4 ax = (s2_v4)((s2_m4)x & ~(s2_m4)s2_all(-0.0));
    const s2_m4 lin = (s2_m4)(ax < x_lin), curve = on & ~lin;
    /* 1 + |x|^R is 1: x / 1 and (1 - b) / 1 are exact, the divisions left out (same bits) */
    s2_v4 s = (b * x + b1 * x) * ds + s_r, tg = (b + b1) * ds / de0;
    if (s2_any(curve)) {
        const s2_v4 R = s2_load(c + S2_R * ld, on), inv_R = s2_load(c + S2_INV_R * ld, on);
        /* (the other lanes: 1^1, finite, not used) */
        const s2_v4 one = s2_all(1.0);
        const s2_v4 d1 = one + _ZGVdN4vv_pow(s2_sel(curve, ax, one), s2_sel(curve, R, one));
        const s2_v4 d2 = _ZGVdN4vv_pow(d1, s2_sel(curve, inv_R, one));
        s = s2_sel(curve, (b * x + b1 * x / d2) * ds + s_r, s);
        tg = s2_sel(curve, (b + b1 / (d1 * d2)) * ds / de0, tg);
    }
    for (size_t k = 0; k < S2_ROWS; k++) { /* the trial state: the committed but these four */
        const s2_v4 v = k == S2_STRAIN ? eps
                        : k == S2_E    ? e
                        : k == S2_S    ? s
                        : k == S2_T    ? tg
                                       : s2_load(c + k * ld, on);
        if (wide && k + 1 < S2_ROWS)
            memcpy(t + k * ld, &v, sizeof v);
        else
            s2_store(t + k * ld, on, v);
    }
    s2_store(stress, on, s);
    s2_store(tangent, on, tg);
    return 1;
}

/* The blocks of four fibers, the last n % 4 first. Where the rows follow one another (ld = n, as
 * the fiber sections lay them out) a block stores each row but the last in four lanes, in the
 * rows' order (fewer stores than lane by lane): the lanes past the block's end fall on the next
 * row's first fibers, which the block itself (n <= 4) or the blocks after the first one (the tail)
 * write afterwards. */
void hs_steel02_fibers_avx2(const void *params, size_t n, size_t ld, const double *strain,
                            const double *committed, double *trial, double *stress, double *tangent)
{
    const s2_law *p = params;
    const size_t tail = n % 4;
    for (size_t b = 0; b < n; b += 4) {
        const size_t i = tail ? (b == 0 ? n - tail : b - 4) : b, m = n - i < 4 ? n - i : 4;
        const s2_m4 on = {-1, m > 1 ? -1 : 0, m > 2 ? -1 : 0, m > 3 ? -1 : 0};
        /* (wide: the last row's four lanes from row S2_ROWS - 2 stay in the arrays, which
         * excludes n = 1 alone) */
        const int wide = ld == n && i + 4 <= 2 * ld;
        if (!s2_block(p, on, wide, ld, strain + i, committed + i, trial + i, stress + i,
                      tangent + i))
            hs_steel02_fibers_gathered(params, m, ld, strain + i, committed + i, trial + i,
                                       stress + i, tangent + i);
    }
}
#else
typedef int hs_steel02_mvec_unused; /* (a translation unit has a declaration) */
#endif
