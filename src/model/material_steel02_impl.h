/* Steel02's parameters, the rows of its fibers' states, and its kernels over fiber arrays
 * (material_steel02.c, and material_steel02_mvec.c built for AVX2; library-internal). */
#ifndef HS_MATERIAL_STEEL02_IMPL_H
#define HS_MATERIAL_STEEL02_IMPL_H

#include <stddef.h>

typedef struct s2_law {
    double fy, E0, b, R0, cR1, cR2, a1, a2, a3, a4, sig_init;
    double e_init; /* sig_init / E0 */
    double b1;     /* 1 - b */
} s2_law;

/* A fiber's state, one double a variable (material_steel02.c's s2_state: material_fibers.h's
 * rows): the checkpointed ones, then those cached from e_pl and e_0. */
enum {
    S2_STRAIN, /* the material's strain (without e_init) */
    S2_E,      /* the law's strain (with e_init) */
    S2_S,
    S2_T,
    S2_EMIN,
    S2_EMAX,
    S2_EPL,
    S2_E0,
    S2_S0,
    S2_ER,
    S2_SR,
    S2_KON, /* 0 virgin, 1 towards tension, 2 towards compression, 3 at rest */
    S2_R,
    S2_INV_R,
    S2_X_LIN,
    S2_ROWS
};

/* n fibers' trial states: an hs_fiber_law.trial */
typedef void s2_kernel_fn(const void *params, size_t n, size_t ld, const double *strain,
                          const double *committed, double *trial, double *stress, double *tangent);

/* The kernels this build and processor can run into kernel and name (3 at most): the scalar pow
 * (hs_steel02_fibers_scalar) first, then the vector pow's (tests and benchmarks compare them);
 * returns how many. */
size_t hs_steel02_kernels(s2_kernel_fn **kernel, const char **name);

/* d1 = 1 + ax^R and d2 = d1^(1/R) for k lanes (the arrays padded with finite values to a multiple
 * of the vector's lanes: computed and ignored) */
typedef void s2_pows_fn(size_t k, const double *ax, const double *R, const double *inv_R,
                        double *d1, double *d2);

/* s2_pows_fn with glibc's vector pow, four lanes a call (_ZGVdN4vv_pow: AVX2 and FMA; arrays
 * padded to a multiple of 4) or eight (_ZGVeN8vv_pow: AVX-512F, material_steel02_mvec512.c;
 * a multiple of 8); the first pows of all the lanes, then the second ones. */
s2_pows_fn hs_steel02_pows_avx2, hs_steel02_pows_avx512;

/* n fibers' trial states (an hs_fiber_law.trial; rows of ld doubles) four lanes at a time in
 * AVX2 vectors with glibc's vector pow; the blocks of four with a fiber at rest or at a reversal
 * go through hs_steel02_branches. Both only where the processor has AVX2 and FMA, and only
 * with HS_HAVE_MVEC (CMake found libmvec). */
void hs_steel02_fibers_avx2(const void *params, size_t n, size_t ld, const double *strain,
                            const double *committed, double *trial, double *stress,
                            double *tangent);

/* the same with the pows eight lanes a call (hs_steel02_pows_avx512: AVX-512F processors) */
void hs_steel02_fibers_avx2_pow8(const void *params, size_t n, size_t ld, const double *strain,
                                 const double *committed, double *trial, double *stress,
                                 double *tangent);

/* n <= 4 fibers' trial states (rows of ld doubles) through the law's branches one fiber after the
 * other (material_steel02.c), the pows left out: the fibers off the curve get their stresses and
 * tangents; those on it (bit l of the result set, their x in x[l]) all their trial rows but the
 * stress and tangent, which the pows then give (material_steel02_mvec.c packs them with the
 * call's other lanes on the curve). */
unsigned hs_steel02_branches(const void *params, size_t n, size_t ld, const double *strain,
                             const double *committed, double *trial, double *stress,
                             double *tangent, double *x);

#endif
