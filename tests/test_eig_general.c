/* The general eigenproblem K phi = lambda M phi of a nonsymmetric K (hs_gen_eig, as OpenSees'
 * eigen -fullGenLapack), against closed forms:
 *  - K = [4 1; 0 2], M = diag(1, 2): det(K - lambda M) = (4 - lambda)(2 - 2 lambda), so lambda
 *    = 1 and 4 ascending, phi_1 = (1, -3) / sqrt(19) and phi_2 = (1, 0), M-normalized;
 *  - a rotation K = [0 -1; 1 0], M = I: lambda = +-i, reported as -|lambda| = -1 (OpenSees);
 *  - M = diag(1, 0): one finite eigenvalue (2) and an infinite one, last. */
#include "hs_test.h"

#include <math.h>

static void test_closed_forms(void **state)
{
    (void)state;
    double w[2], phi[4];
    const double K[4] = {4, 0, 1, 2}, M[4] = {1, 0, 0, 2}; /* column-major */
    assert_int_equal(hs_gen_eig(NULL, 2, K, M, w, phi), 0);
    HS_ASSERT_NEAR(w[0], 1.0, 1e-14);
    HS_ASSERT_NEAR(w[1], 4.0, 1e-14);
    const double s = phi[0] > 0 ? 1.0 : -1.0, t = phi[2] > 0 ? 1.0 : -1.0;
    HS_ASSERT_NEAR(s * phi[0], 1.0 / sqrt(19.0), 1e-14);
    HS_ASSERT_NEAR(s * phi[1], -3.0 / sqrt(19.0), 1e-14);
    HS_ASSERT_NEAR(t * phi[2], 1.0, 1e-14);
    HS_ASSERT_NEAR(phi[3], 0.0, 1e-14);
    const double R[4] = {0, 1, -1, 0}, I[4] = {1, 0, 0, 1};
    assert_int_equal(hs_gen_eig(NULL, 2, R, I, w, phi), 0);
    HS_ASSERT_NEAR(w[0], -1.0, 1e-14);
    HS_ASSERT_NEAR(w[1], -1.0, 1e-14);
    const double D[4] = {2, 0, 0, 3}, S[4] = {1, 0, 0, 0};
    assert_int_equal(hs_gen_eig(NULL, 2, D, S, w, phi), 0);
    HS_ASSERT_NEAR(w[0], 2.0, 1e-14);
    assert_true(isinf(w[1]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_closed_forms)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
