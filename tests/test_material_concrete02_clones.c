/* Concrete02 over fiber arrays: the entry the program runs (on x86-64 the clone of the
 * processor's instruction set: AVX-512 or AVX2, chosen at load) and the same law built for the
 * baseline instruction set (what a laboratory computer without them runs) give the same bits for
 * every fiber, state and step, along strain histories that crush, unload, crack and reload; a
 * fiber in a block of four fibers on different branches and the fiber alone give the same bits; and
 * the first loading meets the Concrete01 envelope's closed form. */
#include "hs_test.h"

#include "model/material_fibers.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

enum { NF = 37, MAXS = 16, STEPS = 600 }; /* 37 fibers: nine blocks of four and one of one */

static hs_material *concrete02(void)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "fc", -30e6);
    hs_options_set_num(o, "epsc0", -0.002);
    hs_options_set_num(o, "fcu", -6e6);
    hs_options_set_num(o, "epscu", -0.01);
    hs_material *m = NULL;
    assert_int_equal(hs_material_create(NULL, "concrete02", o, &m), 0);
    hs_options_destroy(&o);
    return m;
}

/* fiber i's strain at step k: a cycle of growing amplitude about a mean that differs per fiber,
 * so that the fibers of one block of four take different branches at the same step */
static double strain_at(int i, int k)
{
    const double mean = -0.004 + 0.0003 * (double)(i % 11);
    const double amp = 0.0002 + 0.00003 * (double)k;
    return mean * (double)k / STEPS + amp * sin(0.05 * (double)k * (1.0 + 0.1 * (double)(i % 5)));
}

static void test_clones_equal_baseline(void **state)
{
    (void)state;
    hs_material *m = concrete02();
    hs_fiber_law law;
    double one[MAXS];
    assert_int_equal(hs_material_fiber_law(m, &law, one), 1);
    assert_true(law.rows);
    assert_true(law.state_n <= MAXS);
    const size_t ns = law.state_n, ld = NF;
    double c1[MAXS * NF], c2[MAXS * NF], t1[MAXS * NF], t2[MAXS * NF];
    for (size_t k = 0; k < ns; k++)
        for (size_t i = 0; i < NF; i++) c1[k * ld + i] = c2[k * ld + i] = one[k];
    double e[NF], s1[NF], s2[NF], k1[NF], k2[NF];
    int crushed = 0, cracked = 0;
    for (int step = 1; step <= STEPS; step++) {
        for (int i = 0; i < NF; i++) e[i] = strain_at(i, step);
        law.trial(law.params, NF, ld, e, c1, t1, s1, k1);
        hs_concrete02_fibers_baseline(law.params, NF, ld, e, c2, t2, s2, k2);
        assert_memory_equal(s1, s2, sizeof s1);
        assert_memory_equal(k1, k2, sizeof k1);
        for (size_t k = 0; k < ns; k++)
            assert_memory_equal(t1 + k * ld, t2 + k * ld, NF * sizeof(double));
        for (int i = 0; i < NF; i++) {
            if (e[i] < -0.004 && s1[i] > -25e6) crushed++; /* beyond the peak, softening */
            if (e[i] > 0.0002 && s1[i] < 2.0e6) cracked++; /* past ft = 3 MPa, softened */
        }
        memcpy(c1, t1, ns * ld * sizeof(double)); /* commit */
        memcpy(c2, t2, ns * ld * sizeof(double));
    }
    /* the histories reached every part of the law (else the comparison proves little) */
    assert_true(crushed > 100);
    assert_true(cracked > 100);
    hs_material_destroy(&m);
}

/* A fiber in a block of four whose lanes take different branches (the law's general path) and
 * the same fiber alone (its block's lanes all copies of it: the paths built for one branch) give
 * the same bits, step after step */
static void test_blocks_equal_one_fiber(void **state)
{
    (void)state;
    hs_material *m = concrete02();
    hs_fiber_law law;
    double one[MAXS];
    assert_int_equal(hs_material_fiber_law(m, &law, one), 1);
    const size_t ns = law.state_n, ld = NF;
    double c[MAXS * NF], t[MAXS * NF], c1[NF][MAXS], t1[MAXS];
    for (size_t k = 0; k < ns; k++)
        for (size_t i = 0; i < NF; i++) c[k * ld + i] = c1[i][k] = one[k];
    double e[NF], s[NF], k4[NF];
    int mixed_env = 0, mixed_un = 0;
    for (int step = 1; step <= STEPS; step++) {
        for (int i = 0; i < NF; i++) e[i] = strain_at(i, step);
        law.trial(law.params, NF, ld, e, c, t, s, k4);
        for (size_t i = 0; i < NF; i++) {
            double s1, k1;
            law.trial(law.params, 1, 1, &e[i], c1[i], t1, &s1, &k1);
            assert_memory_equal(&s1, &s[i], sizeof s1);
            assert_memory_equal(&k1, &k4[i], sizeof k1);
            for (size_t k = 0; k < ns; k++)
                assert_memory_equal(&t1[k], &t[k * ld + i], sizeof t1[k]);
            memcpy(c1[i], t1, ns * sizeof(double)); /* commit */
        }
        /* blocks with lanes beyond e_min and lanes not (the general path; rows 3 and 7 of
         * material_concrete02.c's state: e_min, e_t), or on both sides of e_t */
        for (size_t b = 0; b + 4 <= NF; b += 4) {
            int env = 0, un = 0;
            for (size_t l = 0; l < 4; l++) {
                env += e[b + l] < c[3 * ld + b + l];
                un += e[b + l] <= c[7 * ld + b + l];
            }
            mixed_env += env > 0 && env < 4;
            mixed_un += un > 0 && un < 4;
        }
        memcpy(c, t, ns * ld * sizeof(double));
    }
    assert_true(mixed_env > 100);
    assert_true(mixed_un > 100);
    hs_material_destroy(&m);
}

/* First loading in compression: s = fc (2 x - x^2), x = e / epsc0, tangent fc (2 - 2 x) / epsc0
 * (Concrete01's envelope that Concrete02 shares), for fibers alone and in blocks of four */
static void test_first_loading_closed_form(void **state)
{
    (void)state;
    hs_material *m = concrete02();
    hs_fiber_law law;
    double one[MAXS];
    assert_int_equal(hs_material_fiber_law(m, &law, one), 1);
    const size_t ns = law.state_n;
    for (size_t n = 1; n <= 9; n++) {
        double c[MAXS * 9], t[MAXS * 9], e[9], s[9], k[9];
        for (size_t r = 0; r < ns; r++)
            for (size_t i = 0; i < n; i++) c[r * n + i] = one[r];
        for (size_t i = 0; i < n; i++) e[i] = -0.0002 * (double)(i + 1);
        hs_concrete02_fibers_baseline(law.params, n, n, e, c, t, s, k);
        for (size_t i = 0; i < n; i++) {
            const double x = e[i] / -0.002;
            assert_true(fabs(s[i] - (-30e6 * (2.0 * x - x * x))) <= 3e-5);        /* 1e-12 of fc */
            assert_true(fabs(k[i] - (-30e6 * (2.0 - 2.0 * x) / -0.002)) <= 3e-2); /* 1e-12 of Ec0 */
        }
        law.trial(law.params, n, n, e, c, t, s, k);
        for (size_t i = 0; i < n; i++) {
            const double x = e[i] / -0.002;
            assert_true(fabs(s[i] - (-30e6 * (2.0 * x - x * x))) <= 3e-5); /* 1e-12 of fc */
        }
    }
    hs_material_destroy(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clones_equal_baseline),
        cmocka_unit_test(test_blocks_equal_one_fiber),
        cmocka_unit_test(test_first_loading_closed_form),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
