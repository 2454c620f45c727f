/* The model's dynamics declare the band of their tangents and restore fills them in packed band
 * storage: springs of stiffness k_s between DOFs give the stiffness matrix sum k_s (e_to -
 * e_from) (e_to - e_from)^T in closed form; without rate-dependent materials Ct (here filled with
 * a sentinel) is left as it is. A band so wide that packing would not save memory keeps the dense
 * layout. */
#include "hs_test.h"

#include "hysim/integrator.h"

#include <math.h>
#include <stdlib.h>

#define N        8
#define SENTINEL 12345.0

/* Springs: ground-0 (k 1), i-1 to i (k i + 1) for i = 1..N-1, and a brace 0 to `brace` (k 10)
 * when brace > 0. */
static hs_model *chain(int brace)
{
    hs_model *m = NULL;
    assert_int_equal(hs_model_create(NULL, N, &m), 0);
    double mass[N];
    for (int i = 0; i < N; i++) mass[i] = 1.0;
    assert_int_equal(hs_model_set_mass(m, mass), 0);
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    for (int i = 0; i < N; i++) {
        hs_options_set_num(o, "k", i + 1.0);
        assert_true(hs_model_add_story(m, i, "elastic", o, "story") >= 0);
    }
    if (brace) {
        hs_options_set_num(o, "k", 10.0);
        assert_true(hs_model_add_spring(m, "brace", 0, brace, "elastic", o, "brace") >= 0);
    }
    hs_options_destroy(&o);
    return m;
}

/* expect_band: dyn.tangent_band (0: the dense layout) */
static void check(int brace, int expect_band)
{
    hs_model *m = chain(brace);
    double K0[N * N], Kt[N * N], Ct[N * N], r[N], d[N], v[N], K[N * N] = {0};
    for (int i = 0; i < N; i++) {
        d[i] = 0.001 * (i + 1);
        v[i] = 0.0;
    }
    /* the closed form */
    for (int i = 0; i < N; i++) {
        const double k = i + 1.0;
        HS_AT(K, N, i, i) += k;
        if (i > 0) {
            HS_AT(K, N, i - 1, i - 1) += k;
            HS_AT(K, N, i - 1, i) -= k;
            HS_AT(K, N, i, i - 1) -= k;
        }
    }
    if (brace) {
        HS_AT(K, N, 0, 0) += 10.0;
        HS_AT(K, N, brace, brace) += 10.0;
        HS_AT(K, N, 0, brace) -= 10.0;
        HS_AT(K, N, brace, 0) -= 10.0;
    }
    hs_dynamics dyn;
    assert_int_equal(hs_model_dynamics(m, K0, &dyn), 0);
    assert_int_equal(dyn.tangent_band, expect_band);
    for (int k = 0; k < N * N; k++) Kt[k] = Ct[k] = SENTINEL;
    assert_int_equal(dyn.restore(dyn.user, d, v, r, Kt, Ct), 0);
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) assert_true(HS_AT(K0, N, i, j) == HS_AT(K, N, i, j));
    if (expect_band == 0) { /* dense layout, every entry written */
        for (int k = 0; k < N * N; k++) assert_true(Kt[k] == K[k] && Ct[k] == 0.0);
    } else {
        const int kd = expect_band - 1;
        for (int j = 0; j < N; j++)
            for (int i = 0; i < N; i++) {
                if (abs(i - j) <= kd)
                    assert_true(HS_BAND_AT(Kt, kd, i, j) == HS_AT(K, N, i, j));
                else
                    assert_true(HS_AT(K, N, i, j) == 0.0); /* nothing outside the band */
            }
        /* the packed array is written whole (padding zero), Ct not at all */
        for (size_t k = 0; k < HS_BAND_LD(kd) * N; k++) assert_true(Kt[k] != SENTINEL);
        for (int k = 0; k < N * N; k++) assert_true(Ct[k] == SENTINEL);
    }
    /* r = K d for elastic springs */
    for (int i = 0; i < N; i++) {
        double ki = 0.0;
        for (int j = 0; j < N; j++) ki += HS_AT(K, N, i, j) * d[j];
        assert_true(fabs(r[i] - ki) <= 1e-15 * 100.0);
    }
    hs_model_destroy(&m);
}

static void test_shear_building_band(void **state)
{
    (void)state;
    check(0, 2); /* tridiagonal: half-bandwidth 1 */
}

static void test_brace_widens_band(void **state)
{
    (void)state;
    check(3, 4); /* a spring from DOF 0 to DOF 3: half-bandwidth 3, packed (7 x 8 < 8 x 8) */
    check(6, 0); /* DOF 0 to DOF 6: packed would be 13 x 8, the dense layout is smaller */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shear_building_band),
        cmocka_unit_test(test_brace_widens_band),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
