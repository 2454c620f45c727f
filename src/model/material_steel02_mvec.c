/* Steel02 over fiber arrays in AVX2 vectors, four fibers a lane each, with glibc's vector pow
 * (libmvec.so.1, part of Debian's libc6: _ZGVdN4vv_pow, its AVX2 variant, called with its vector
 * ABI; or its AVX-512 variant, material_steel02_mvec512.c). This file alone is built for AVX2 and
 * FMA (CMakeLists.txt: clang takes a vector argument's calling convention from the file's
 * instruction set, not the function's) and runs only where the processor has both
 * (material_steel02.c chooses it when the program loads).
 *
 * A call runs in two passes. First each block of four fibers whose lanes all continue on their
 * branch (no fiber at rest, none at a reversal: 97 % of the blocks of
 * bench/opensees/rc_frame_3x3.tcl) is computed in the lanes with the operations of
 * material_steel02.c's s2_branch in their order: its trial rows written (each committed row read
 * once, the 15 rows stored from the registers), the stress and tangent of the lanes off the curve
 * (1 + |x|^R rounds to 1) final, and the lanes on the curve packed to the left of a buffer (x, |x|,
 * R, 1/R and what the curve needs, by a permutation chosen from the lanes' mask: no branch a lane).
 * The other blocks go through the law's branches one fiber after the other (hs_steel02_branches),
 * their fibers on the curve packed with the others. Then the pows run over the packed lanes, full
 * vectors but the last (the first pows of all the lanes, then the second ones: independent calls
 * that overlap), and s2_curve's operations in their order give the curve lanes' stresses and
 * tangents, scattered to their fibers. The buffer holds S2_PACK lanes (on the stack: no
 * allocation); a call with more curve lanes runs the pows each time it fills. The tail of n % 4
 * fibers is read with masked loads (no copies).
 *
 * The vector pow's lanes are independent of one another; its results are within a few ulps of
 * glibc's scalar pow, not its bits (the glibc wiki, "Libmvec": vector versions differ from the
 * scalar ones in accuracy): measured on the law's arguments (|x| in [2^-8, 2^4) with R in [1, 18],
 * and 1 + |x|^R up to 2^41 with 1/R), 16 million pows, 20 % differ from the scalar pow's, by 1 ulp
 * at most. */
#include "material_steel02_impl.h"

#if defined(HS_HAVE_MVEC) && defined(__x86_64__)
#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

typedef double s2_v4 __attribute__((vector_size(4 * sizeof(double))));
typedef int64_t s2_m4 __attribute__((vector_size(4 * sizeof(int64_t))));
s2_v4 _ZGVdN4vv_pow(s2_v4 x, s2_v4 y);

void hs_steel02_pows_avx2(size_t k, const double *ax, const double *R, const double *inv_R,
                          double *d1, double *d2)
{
    const s2_v4 one = {1.0, 1.0, 1.0, 1.0};
    for (size_t j = 0; j < k; j += 4) { /* the first pows, then the second ones */
        s2_v4 a, r, v1;
        memcpy(&a, ax + j, sizeof a);
        memcpy(&r, R + j, sizeof r);
        v1 = one + _ZGVdN4vv_pow(a, r);
        memcpy(d1 + j, &v1, sizeof v1);
    }
    for (size_t j = 0; j < k; j += 4) {
        s2_v4 v1, ir, v2;
        memcpy(&v1, d1 + j, sizeof v1);
        memcpy(&ir, inv_R + j, sizeof ir);
        v2 = _ZGVdN4vv_pow(v1, ir);
        memcpy(d2 + j, &v2, sizeof v2);
    }
}

static inline s2_v4 s2_all(double x)
{
    return (s2_v4){x, x, x, x};
}

/* the lanes of a (set where on; all four when full, a plain load: GCC keeps a masked load with
 * a mask of all ones) */
static inline s2_v4 s2_load(const double *a, s2_m4 on, int full)
{
    if (full) {
        s2_v4 v;
        memcpy(&v, a, sizeof v);
        return v;
    }
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

static inline int s2_any(s2_m4 m)
{
    return !_mm256_testz_si256((__m256i)m, (__m256i)m);
}

/* The lanes on the curve of a call, packed (the arrays padded for the 8-lane pow and for a
 * block's four lanes stored whole past the last one). */
enum { S2_PACK = 64, S2_PAD = 8 };
typedef struct s2_pack {
    size_t k; /* lanes packed */
    int64_t at[S2_PACK + S2_PAD];
    double x[S2_PACK + S2_PAD], ax[S2_PACK + S2_PAD], R[S2_PACK + S2_PAD];
    double inv_R[S2_PACK + S2_PAD], ds[S2_PACK + S2_PAD], de0[S2_PACK + S2_PAD];
    double s_r[S2_PACK + S2_PAD], d1[S2_PACK + S2_PAD], d2[S2_PACK + S2_PAD];
} s2_pack;

/* For each mask of four lanes, the 32-bit halves of the lanes set, to the left, in order (the
 * lanes past them: anything) */
#define S2_L(a, b, c, d)                                                                           \
    {                                                                                              \
        2 * (a), 2 * (a) + 1, 2 * (b), 2 * (b) + 1, 2 * (c), 2 * (c) + 1, 2 * (d), 2 * (d) + 1     \
    }
static const int32_t s2_left[16][8] __attribute__((aligned(32))) = {
    S2_L(0, 0, 0, 0), S2_L(0, 0, 0, 0), S2_L(1, 0, 0, 0), S2_L(0, 1, 0, 0),
    S2_L(2, 0, 0, 0), S2_L(0, 2, 0, 0), S2_L(1, 2, 0, 0), S2_L(0, 1, 2, 0),
    S2_L(3, 0, 0, 0), S2_L(0, 3, 0, 0), S2_L(1, 3, 0, 0), S2_L(0, 1, 3, 0),
    S2_L(2, 3, 0, 0), S2_L(0, 2, 3, 0), S2_L(1, 2, 3, 0), S2_L(0, 1, 2, 3),
};
#undef S2_L

/* v's lanes chosen by perm (s2_left), four stored at a */
static inline void s2_put(void *a, __m256i perm, s2_v4 v)
{
    const __m256 p = _mm256_permutevar8x32_ps((__m256)v, perm);
    memcpy(a, &p, sizeof p);
}

/* The block of m <= 4 fibers at i (c, t: rows of ld doubles), lanes on: 0 when a fiber is at rest
 * or at a reversal (nothing written), else its trial states, and the stresses and tangents off the
 * curve (q takes the lanes on it). full: m is 4 (on all set). wide: the rows but the last are
 * stored in four lanes whatever m, in the rows' order (see below). */
static inline __attribute__((always_inline)) int
s2_block(const s2_law *p, s2_pack *q, s2_m4 on, int full, int wide, size_t i, size_t ld,
         const double *strain, const double *c, double *t, double *stress, double *tangent)
{
    s2_v4 v[S2_ROWS]; /* the trial state: the committed but the strains, stress and tangent */
    for (size_t k = 0; k < S2_ROWS; k++)
        if (k != S2_STRAIN && k != S2_S && k != S2_T) v[k] = s2_load(c + k * ld + i, on, full);
    const s2_v4 eps = s2_load(strain + i, on, full), e = eps + s2_all(p->e_init);
    const s2_v4 de = e - v[S2_E], zero = s2_all(0.0);
    /* on its branch: kon 1 (towards tension) with de >= 0, or kon 2 with de <= 0 */
    const s2_m4 up = (s2_m4)(v[S2_KON] == s2_all(1.0)) & (s2_m4)(de >= zero);
    const s2_m4 down = (s2_m4)(v[S2_KON] == s2_all(2.0)) & (s2_m4)(de <= zero);
    if (s2_any(on & ~(up | down))) return 0;
    const s2_v4 b = s2_all(p->b), b1 = s2_all(p->b1);
    const s2_v4 de0 = v[S2_E0] - v[S2_ER], x = (e - v[S2_ER]) / de0, ds = v[S2_S0] - v[S2_SR];
    const s2_v4 ax = (s2_v4)((s2_m4)x & ~(s2_m4)s2_all(-0.0));
    const s2_m4 curve = on & ~(s2_m4)(ax < v[S2_X_LIN]);
    /* 1 + |x|^R is 1: x / 1 and (1 - b) / 1 are exact, the divisions left out (same bits); the
     * curve's lanes are written again when their pows have run */
    v[S2_STRAIN] = eps;
    v[S2_E] = e;
    v[S2_S] = (b * x + b1 * x) * ds + v[S2_SR];
    v[S2_T] = (b + b1) * ds / de0;
    const int mask = _mm256_movemask_pd((__m256d)curve);
    if (mask) {
        __m256i perm;
        memcpy(&perm, s2_left[mask], sizeof perm);
        const size_t k = q->k;
        const s2_m4 at = {(int64_t)i, (int64_t)i + 1, (int64_t)i + 2, (int64_t)i + 3};
        s2_put(q->at + k, perm, (s2_v4)at);
        s2_put(q->x + k, perm, x);
        s2_put(q->ax + k, perm, ax);
        s2_put(q->R + k, perm, v[S2_R]);
        s2_put(q->inv_R + k, perm, v[S2_INV_R]);
        s2_put(q->ds + k, perm, ds);
        s2_put(q->de0 + k, perm, de0);
        s2_put(q->s_r + k, perm, v[S2_SR]);
        q->k = k + (size_t)__builtin_popcount((unsigned)mask);
    }
    for (size_t k = 0; k < S2_ROWS; k++) {
        if (wide && k + 1 < S2_ROWS)
            memcpy(t + k * ld + i, &v[k], sizeof v[k]);
        else
            s2_store(t + k * ld + i, on, v[k]);
    }
    s2_store(stress + i, on, v[S2_S]);
    s2_store(tangent + i, on, v[S2_T]);
    return 1;
}

/* The block of m <= 4 fibers at i through the law's branches (hs_steel02_branches), its fibers on
 * the curve packed in q with the operations of s2_block */
static void s2_branches(const s2_law *p, s2_pack *q, size_t m, size_t i, size_t ld,
                        const double *strain, const double *c, double *t, double *stress,
                        double *tangent)
{
    double x[4];
    const unsigned curve =
        hs_steel02_branches(p, m, ld, strain + i, c + i, t + i, stress + i, tangent + i, x);
    for (size_t l = 0; l < m; l++) {
        if (!(curve >> l & 1u)) continue;
        const size_t k = q->k++, f = i + l;
        const double e_0 = t[S2_E0 * ld + f], e_r = t[S2_ER * ld + f], s_r = t[S2_SR * ld + f];
        q->at[k] = (int64_t)f;
        q->x[k] = x[l];
        q->ax[k] = fabs(x[l]);
        q->R[k] = t[S2_R * ld + f];
        q->inv_R[k] = t[S2_INV_R * ld + f];
        q->ds[k] = t[S2_S0 * ld + f] - s_r;
        q->de0[k] = e_0 - e_r;
        q->s_r[k] = s_r;
    }
}

/* The packed lanes' pows (w lanes a vector), then their stresses and tangents (s2_curve's
 * operations in their order) written to their fibers; q emptied. */
static inline __attribute__((always_inline)) void s2_finish(s2_pows_fn *pows, size_t w,
                                                            const s2_law *p, s2_pack *q, size_t ld,
                                                            double *t, double *stress,
                                                            double *tangent)
{
    const size_t k = q->k;
    for (size_t l = k; l < (k + w - 1) / w * w; l++) /* (1^1: finite, not used) */
        q->ax[l] = q->R[l] = q->inv_R[l] = 1.0;
    pows(k, q->ax, q->R, q->inv_R, q->d1, q->d2);
    const s2_v4 b = s2_all(p->b), b1 = s2_all(p->b1);
    for (size_t j = 0; j < k; j += 4) {
        s2_v4 x, ds, de0, s_r, d1, d2;
        memcpy(&x, q->x + j, sizeof x);
        memcpy(&ds, q->ds + j, sizeof ds);
        memcpy(&de0, q->de0 + j, sizeof de0);
        memcpy(&s_r, q->s_r + j, sizeof s_r);
        memcpy(&d1, q->d1 + j, sizeof d1);
        memcpy(&d2, q->d2 + j, sizeof d2);
        const s2_v4 s = (b * x + b1 * x / d2) * ds + s_r, tg = (b + b1 / (d1 * d2)) * ds / de0;
        memcpy(q->d1 + j, &s, sizeof s); /* (d1, d2 now the stresses and tangents) */
        memcpy(q->d2 + j, &tg, sizeof tg);
    }
    for (size_t l = 0; l < k; l++) {
        const size_t i = (size_t)q->at[l];
        t[S2_S * ld + i] = stress[i] = q->d1[l];
        t[S2_T * ld + i] = tangent[i] = q->d2[l];
    }
    q->k = 0;
}

/* The blocks of four fibers, the last n % 4 first, then the pows of the lanes on the curve.
 * Where the rows follow one another (ld = n, as the fiber sections lay them out) a block stores
 * each row but the last in four lanes, in the rows' order (fewer stores than lane by lane): the
 * lanes past the block's end fall on the next row's first fibers, which the block itself (n <= 4)
 * or the blocks after the first one (the tail) write afterwards. */
static inline __attribute__((always_inline)) void
s2_fibers_lanes(s2_pows_fn *pows, size_t w, const void *params, size_t n, size_t ld,
                const double *strain, const double *committed, double *trial, double *stress,
                double *tangent)
{
    const s2_law *p = params;
    s2_pack q;
    q.k = 0;
    const size_t tail = n % 4;
    if (tail) { /* (wide: the last row's four lanes from row S2_ROWS - 2 stay in the arrays,
                 * which excludes n = 1 alone) */
        const size_t i = n - tail;
        const s2_m4 on = {-1, tail > 1 ? -1 : 0, tail > 2 ? -1 : 0, 0};
        if (!s2_block(p, &q, on, 0, ld == n && i + 4 <= 2 * ld, i, ld, strain, committed, trial,
                      stress, tangent))
            s2_branches(p, &q, tail, i, ld, strain, committed, trial, stress, tangent);
    }
    const s2_m4 all = {-1, -1, -1, -1};
    for (size_t i = 0; i + 4 <= n; i += 4) {
        if (q.k + 4 > S2_PACK) s2_finish(pows, w, p, &q, ld, trial, stress, tangent);
        if (!s2_block(p, &q, all, 1, ld == n, i, ld, strain, committed, trial, stress, tangent))
            s2_branches(p, &q, 4, i, ld, strain, committed, trial, stress, tangent);
    }
    if (q.k) s2_finish(pows, w, p, &q, ld, trial, stress, tangent);
}

void hs_steel02_fibers_avx2(const void *params, size_t n, size_t ld, const double *strain,
                            const double *committed, double *trial, double *stress, double *tangent)
{
    s2_fibers_lanes(hs_steel02_pows_avx2, 4, params, n, ld, strain, committed, trial, stress,
                    tangent);
}

void hs_steel02_fibers_avx2_pow8(const void *params, size_t n, size_t ld, const double *strain,
                                 const double *committed, double *trial, double *stress,
                                 double *tangent)
{
    s2_fibers_lanes(hs_steel02_pows_avx512, 8, params, n, ld, strain, committed, trial, stress,
                    tangent);
}
#else
typedef int hs_steel02_mvec_unused; /* (a translation unit has a declaration) */
#endif
