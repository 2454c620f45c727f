/* The model's dynamics declare the band of their tangents and restore writes only that band:
 * springs of stiffness k_s between DOFs give the stiffness matrix sum k_s (e_to - e_from)
 * (e_to - e_from)^T in closed form, and entries outside the band (here filled with a sentinel)
 * are left as they are. */
#include "hs_test.h"

#include "hysim/integrator.h"

#include <math.h>
#include <stdlib.h>

#define N        6
#define SENTINEL 12345.0

/* Springs: ground-0 (k 1), i-1 to i (k i + 1) for i = 1..N-1, and optionally 0 to 3 (k 10). */
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
        assert_true(hs_model_add_spring(m, "brace", 0, 3, "elastic", o, "brace") >= 0);
    }
    hs_options_destroy(&o);
    return m;
}

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
        HS_AT(K, N, 3, 3) += 10.0;
        HS_AT(K, N, 0, 3) -= 10.0;
        HS_AT(K, N, 3, 0) -= 10.0;
    }
    hs_dynamics dyn;
    assert_int_equal(hs_model_dynamics(m, K0, &dyn), 0);
    assert_int_equal(dyn.tangent_band, expect_band);
    for (int k = 0; k < N * N; k++) Kt[k] = Ct[k] = SENTINEL;
    /* the caller's zero inside the band */
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            if (abs(i - j) < dyn.tangent_band) HS_AT(Kt, N, i, j) = HS_AT(Ct, N, i, j) = 0.0;
    assert_int_equal(dyn.restore(dyn.user, d, v, r, Kt, Ct), 0);
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
            const int in = abs(i - j) < dyn.tangent_band;
            assert_true(HS_AT(Kt, N, i, j) == (in ? HS_AT(K, N, i, j) : SENTINEL));
            assert_true(HS_AT(Ct, N, i, j) == (in ? 0.0 : SENTINEL)); /* no rate dependence */
            assert_true(HS_AT(K0, N, i, j) == HS_AT(K, N, i, j));
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
    check(1, 4); /* a spring from DOF 0 to DOF 3: half-bandwidth 3 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shear_building_band),
        cmocka_unit_test(test_brace_widens_band),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
