/* Steel02's kernels on fiber arrays with the lanes on the curve packed before their pows
 * (material_steel02_mvec.c: the pows of a call's curve lanes over full vectors, four or eight
 * lanes a call) against the scalar kernel (hs_steel02_fibers_scalar, the material object's bits,
 * test_material_steel02_fibers.c), for every call length n from 1 to 70 (tails of 1 to 3 fibers;
 * more than 60 curve lanes in one call run the pows twice), rows with and without padding, in
 * three regimes: every fiber in the elastic start of its first branch (no lane on the curve),
 * every fiber far past yield (all on the curve), and cyclic histories whose fibers reverse, rest
 * and move on and off the curve in one call (some). Each kernel's trial state matches the
 * scalar one's to the bit but the stress and tangent, which are within 1e-14 of fy and E0 (the
 * vector pow is within 1 ulp of the scalar one); the stresses and tangents returned are the
 * trial rows' own; the rows' padding is left alone. */
#include "hs_test.h"

#include "model/material_fibers.h"
#include "model/material_steel02_impl.h"

#include <math.h>
#include <string.h>

enum { NMAX = 70, PAD = 3, LDMAX = NMAX + PAD, STEPS = 60, NTRIAL = 3 };

static const double FY = 420000.0, E0 = 2.0e8; /* bench/opensees/rc_frame_3x3.tcl's bars */

static hs_material *steel02(void)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "fy", FY);
    hs_options_set_num(o, "E0", E0);
    hs_options_set_num(o, "b", 0.01);
    hs_options_set_num(o, "R0", 18.0);
    hs_material *m = NULL;
    assert_int_equal(hs_material_create(NULL, "steel02", o, &m), 0);
    hs_options_destroy(&o);
    return m;
}

enum regime { NONE, ALL, SOME };

/* fiber i's strain at step k, trial j, in yield strains. NONE: up to 0.1 (R 18: |x| < 2^-3, where
 * 1 + |x|^R rounds to 1); ALL: from 1.5 up to 6 and back down to 4 (past yield each way:
 * on the curve of the first branch, then of the reversal's once its elastic start is passed,
 * which is why the history goes up long before it turns); SOME: cycles about drifts per fiber. */
static double strain_at(enum regime r, size_t i, int k, int j)
{
    const double off = j == NTRIAL - 1 ? 0.0 : 0.003 * (double)(j + 1);
    if (r == NONE) return 0.1 * (double)(k + 1) / STEPS * (1.0 - 0.005 * (double)i) + off * 0.01;
    if (r == ALL) {
        const double up = 1.5 + 4.5 * (double)k / (0.8 * STEPS);
        return (k < 0.8 * STEPS ? up : 6.0 + 2.0 - 0.1 * (double)(k - (int)(0.8 * STEPS))) + off -
               0.01 * (double)i;
    }
    if (i % 9 == 4 && k < 30) return 0.0; /* at rest among moving fibers */
    const double w = 0.09 * (1.0 + 0.11 * (double)(i % 7));
    return (0.4 + 0.02 * (double)k) * sin(w * (double)k + 0.37 * (double)i) +
           (0.6 - 0.2 * (double)(i % 5)) + off;
}

/* lanes on the curve in a trial state (|x| >= x_lin: the rows of material_steel02_impl.h) */
static size_t on_curve(const double *t, size_t n, size_t ld)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const double x =
            (t[S2_E * ld + i] - t[S2_ER * ld + i]) / (t[S2_E0 * ld + i] - t[S2_ER * ld + i]);
        k += t[S2_KON * ld + i] != 3.0 && fabs(x) >= t[S2_X_LIN * ld + i];
    }
    return k;
}

typedef struct seen {
    size_t least, most; /* curve lanes in a call */
    int reversals;
} seen;

/* n fibers along regime r: each kernel and the scalar one from the same committed state, which
 * the scalar kernel's trial then becomes at each step's last trial */
static void drive(s2_kernel_fn *kernel, const hs_fiber_law *law, const double *one, enum regime r,
                  size_t n, size_t ld, seen *sn)
{
    static double c[S2_ROWS * LDMAX], t[S2_ROWS * LDMAX], t0[S2_ROWS * LDMAX];
    double e[NMAX], s[NMAX], k[NMAX], s0[NMAX], k0[NMAX];
    for (size_t v = 0; v < S2_ROWS * ld; v++) c[v] = -777.0;
    for (size_t v = 0; v < S2_ROWS; v++)
        for (size_t i = 0; i < n; i++) c[v * ld + i] = one[v];
    for (int step = 0; step < STEPS; step++) {
        for (int j = 0; j < NTRIAL; j++) {
            for (size_t i = 0; i < n; i++) e[i] = FY / E0 * strain_at(r, i, step, j);
            for (size_t v = 0; v < S2_ROWS * ld; v++) t[v] = t0[v] = 12345.0;
            kernel(law->params, n, ld, e, c, t, s, k);
            hs_steel02_fibers_scalar(law->params, n, ld, e, c, t0, s0, k0);
            for (size_t v = 0; v < S2_ROWS; v++) {
                for (size_t i = n; i < ld; i++) assert_true(t[v * ld + i] == 12345.0);
                if (v == S2_S || v == S2_T) continue;
                for (size_t i = 0; i < n; i++)
                    if (memcmp(&t[v * ld + i], &t0[v * ld + i], sizeof(double)))
                        fail_msg("n %zu, ld %zu, step %d, trial %d, fiber %zu: row %zu is %.17g, "
                                 "the scalar kernel's %.17g",
                                 n, ld, step, j, i, v, t[v * ld + i], t0[v * ld + i]);
            }
            for (size_t i = 0; i < n; i++) {
                assert_memory_equal(&s[i], &t[S2_S * ld + i], sizeof s[i]);
                assert_memory_equal(&k[i], &t[S2_T * ld + i], sizeof k[i]);
                assert_memory_equal(&s0[i], &t0[S2_S * ld + i], sizeof s0[i]);
                if (fabs(s[i] - s0[i]) > 1e-14 * FY || fabs(k[i] - k0[i]) > 1e-14 * E0)
                    fail_msg("n %zu, ld %zu, step %d, trial %d, fiber %zu, strain %.17g: stress "
                             "%.17g / %.17g, tangent %.17g / %.17g (scalar kernel)",
                             n, ld, step, j, i, e[i], s[i], s0[i], k[i], k0[i]);
            }
            const size_t m = on_curve(t0, n, ld);
            if (m < sn->least) sn->least = m;
            if (m > sn->most) sn->most = m;
        }
        for (size_t i = 0; i < n; i++)
            sn->reversals += (c[S2_KON * ld + i] == 1.0 && t0[S2_KON * ld + i] == 2.0) ||
                             (c[S2_KON * ld + i] == 2.0 && t0[S2_KON * ld + i] == 1.0);
        memcpy(c, t0, sizeof c);
    }
}

static void test_packed_curve_lanes(void **state)
{
    (void)state;
    hs_material *m = steel02();
    hs_fiber_law law;
    double one[S2_ROWS];
    assert_int_equal(hs_material_fiber_law(m, &law, one), 1);
    assert_true(law.rows && law.state_n == S2_ROWS);
    s2_kernel_fn *kernel[3];
    const char *name[3];
    const size_t nk = hs_steel02_kernels(kernel, name);
    assert_true(nk >= 1 && kernel[0] == hs_steel02_fibers_scalar);
    if (nk == 1)
        print_message("    only the scalar kernel here (no libmvec, or no AVX2 and FMA)\n");
    assert_true(kernel[nk - 1] == law.trial); /* the entry: the last one */
    for (size_t q = nk > 1; q < nk; q++) {    /* (the scalar one alone: against itself) */
        seen none = {NMAX, 0, 0}, all = {NMAX, 0, 0}, some = {NMAX, 0, 0};
        for (size_t n = 1; n <= NMAX; n++)
            for (size_t ld = n; ld <= n + PAD; ld += PAD) {
                drive(kernel[q], &law, one, NONE, n, ld, &none);
                seen a = {NMAX, 0, 0};
                drive(kernel[q], &law, one, ALL, n, ld, &a);
                /* (the reversal's elastic start: fewer on the curve for a few steps) */
                assert_int_equal(a.most, n);
                all.most = a.most > all.most ? a.most : all.most;
                all.reversals += a.reversals;
                drive(kernel[q], &law, one, SOME, n, ld, &some);
            }
        print_message("    %-30s curve lanes a call: none %zu-%zu, all up to %zu (%d reversals), "
                      "some %zu-%zu (%d reversals)\n",
                      name[q], none.least, none.most, all.most, all.reversals, some.least,
                      some.most, some.reversals);
        assert_int_equal(none.most, 0);
        assert_int_equal(all.most, NMAX);
        assert_true(all.reversals >= NMAX);
        assert_true(some.least == 0 && some.most > 60 && some.reversals > 1000);
    }
    hs_material_destroy(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_packed_curve_lanes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
