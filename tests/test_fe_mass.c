/* Consistent mass (hs_fe_set_element_mass, docs/fe_model.md "Mass"):
 *  - a cantilever's first frequency with consistent beam mass converges to the Euler-Bernoulli
 *    value 1.8751^2 sqrt(EI / (m L^4)) from above (Rayleigh-Ritz), the error falling as h^4;
 *  - the element matrices: a truss's total mass rho L in each direction, a beam's rigid-body
 *    translation carries rho L at any angle and its rotations get mass (dynamic DOFs);
 *  - every registered integrator takes a non-diagonal mass: a 3-DOF linear system written in
 *    skewed coordinates y = T^-1 x (M' = T^T M T full) responds as the diagonal one, T y = x, to
 *    round-off. */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double PI = 3.14159265358979323846;
static const int FIX_ALL[3] = {1, 1, 1};

/* Horizontal cantilever of ne consistent-mass beams (E I, rho), free end at x = L; returns the
 * first circular frequency. */
static double cantilever_omega1(hs_ctx *ctx, int ne, int consistent, int *ndof)
{
    const double E = 2e11, A = 0.01, I = 8e-5, L = 4.0, rho = 78.5;
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    for (int k = 0; k <= ne; k++) assert_true(hs_fe_add_node(fe, k + 1, L * k / ne, 0.0) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, FIX_ALL), 0);
    for (int k = 0; k < ne; k++) {
        const int e = hs_fe_add_beam(fe, "b", k + 1, k + 2, E, A, I, HS_FE_LINEAR, 0.0);
        assert_true(e >= 0);
        assert_int_equal(hs_fe_set_element_mass(fe, e, rho, consistent), 0);
    }
    int rc = hs_fe_finalize(fe);
    if (rc) fprintf(stderr, "finalize: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    const int n = hs_fe_ndof(fe);
    *ndof = n;
    double *M = hs_dvec((size_t)n * (size_t)n), *w2 = hs_dvec((size_t)n);
    hs_model *m = NULL;
    assert_int_equal(hs_model_create(ctx, n, &m), 0);
    hs_fe_mass_matrix(fe, M);
    assert_int_equal(hs_fe_mass_is_lumped(fe), !consistent);
    if (consistent) {
        assert_int_equal(hs_model_set_mass_matrix(m, M), 0);
    } else { /* lumped: the diagonal */
        hs_fe_mass(fe, M);
        assert_int_equal(hs_model_set_mass(m, M), 0);
    }
    assert_int_equal(hs_model_attach_fe(m, fe), 0);
    assert_int_equal(hs_model_modes(m, w2, NULL), 0);
    const double w = sqrt(w2[0]);
    hs_free(M);
    hs_free(w2);
    hs_model_destroy(&m);
    return w;
}

static void test_cantilever_consistent(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const double E = 2e11, I = 8e-5, L = 4.0, rho = 78.5, b1 = 1.875104068711961;
    const double exact = b1 * b1 * sqrt(E * I / (rho * L * L * L * L));
    double err_prev = 0.0;
    for (int ne = 1; ne <= 8; ne *= 2) {
        int n;
        const double w = cantilever_omega1(ctx, ne, 1, &n);
        const double err = w / exact - 1.0;
        printf("consistent mass, %d elements (%d dynamic DOFs): omega1 = %.10g rad/s, exact "
               "%.10g, error %.3g\n",
               ne, n, w, exact, err);
        assert_int_equal(n, 3 * ne); /* rotations and axial DOFs carry mass: none condensed */
        assert_true(err > 0.0);      /* Rayleigh-Ritz: from above */
        if (ne > 1) assert_true(err < err_prev / 8.0); /* h^4: towards 16 per halving */
        err_prev = err;
    }
    assert_true(err_prev < 3e-6); /* 2.08e-6 measured */
    /* lumped: the rotations massless and condensed, the same limit */
    int n;
    const double wl = cantilever_omega1(ctx, 8, 0, &n);
    printf("lumped mass, 8 elements (%d dynamic DOFs): omega1 = %.10g (error %.3g)\n", n, wl,
           wl / exact - 1.0);
    assert_int_equal(n, 16);
    assert_true(fabs(wl / exact - 1.0) < 1e-2);
    hs_ctx_destroy(&ctx);
}

/* Total mass: a rigid translation u = 1 in x of a free bar or beam has kinetic mass rho L. */
static void test_element_mass_matrices(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const double rho = 3.0, c = 0.6, s = 0.8, L = 5.0;
    for (int beam = 0; beam < 2; beam++) {
        hs_fe *fe = NULL;
        assert_int_equal(hs_fe_create(ctx, &fe), 0);
        assert_true(hs_fe_add_node(fe, 1, 0.0, 0.0) >= 0);
        assert_true(hs_fe_add_node(fe, 2, L * c, L * s) >= 0);
        const double mr[3] = {0.0, 0.0, beam ? 0.0 : 1.0}; /* a truss leaves rz without mass */
        assert_int_equal(hs_fe_add_mass(fe, 1, mr), 0);
        assert_int_equal(hs_fe_add_mass(fe, 2, mr), 0);
        const int e = beam ? hs_fe_add_beam(fe, "b", 1, 2, 1.0, 1.0, 1.0, HS_FE_LINEAR, 0.0)
                           : hs_fe_add_truss(fe, "t", 1, 2, 1.0, 1.0, HS_FE_LINEAR, 0.0);
        assert_int_equal(hs_fe_set_element_mass(fe, e, rho, 1), 0);
        assert_int_equal(hs_fe_finalize(fe), 0);
        assert_int_equal(hs_fe_ndof(fe), 6);
        double M[36];
        hs_fe_mass_matrix(fe, M);
        for (int dir = 0; dir < 2; dir++) {
            double u[6] = {0}, mass = 0.0;
            u[dir] = u[3 + dir] = 1.0;
            for (int j = 0; j < 6; j++)
                for (int i = 0; i < 6; i++) mass += u[i] * M[j * 6 + i] * u[j];
            assert_true(fabs(mass - rho * L) <= 1e-12 * rho * L);
        }
        if (beam) { /* rz_i rz_i: rho L^3 / 105, and the i-j coupling -rho L^3 / 140 */
            assert_true(fabs(M[2 * 6 + 2] - rho * L * L * L / 105.0) <= 1e-12 * rho * L * L * L);
            assert_true(fabs(M[5 * 6 + 2] + rho * L * L * L / 140.0) <= 1e-12 * rho * L * L * L);
        } else { /* truss: rho L / 6 [2 1; 1 2] in x and in y, nothing between x and y */
            assert_true(fabs(M[0] - rho * L / 3.0) <= 1e-12);
            assert_true(fabs(M[3 * 6 + 0] - rho * L / 6.0) <= 1e-12);
            assert_true(M[1 * 6 + 0] == 0.0 && M[4 * 6 + 0] == 0.0);
        }
        hs_fe_destroy(&fe);
    }
    hs_ctx_destroy(&ctx);
}

/* A linear system behind hs_dynamics: r = K d. */
typedef struct lin {
    int n;
    const double *K;
} lin;

static int lin_restore(void *user, const double *d, const double *v, double *r, double *Kt,
                       double *Ct)
{
    (void)v;
    const lin *l = user;
    const int n = l->n;
    hs_matvec(n, l->K, d, r);
    if (Kt) memcpy(Kt, l->K, (size_t)n * (size_t)n * sizeof(double));
    if (Ct) memset(Ct, 0, (size_t)n * (size_t)n * sizeof(double));
    return 0;
}

static int lin_commit(void *user)
{
    (void)user;
    return 0;
}

/* B = T^T A T (3 x 3, column-major). */
static void congruent(const double *T, const double *A, double *B)
{
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) {
            double s = 0.0;
            for (int p = 0; p < 3; p++)
                for (int q = 0; q < 3; q++) s += T[i * 3 + p] * A[q * 3 + p] * T[j * 3 + q];
            B[j * 3 + i] = s;
        }
}

/* 300 steps of a load on (M, C, K); hist (300 x 3) the displacements mapped by T (NULL: as is). */
static int respond(hs_ctx *ctx, const char *type, const double *M, const double *C, const double *K,
                   const double *T, double *hist)
{
    lin l = {3, K};
    hs_dynamics dyn = {.n = 3,
                       .M = M,
                       .C = C,
                       .K0 = K,
                       .restore = lin_restore,
                       .commit = lin_commit,
                       .user = &l,
                       .linear = 1};
    hs_integrator *it = NULL;
    int rc = hs_integrator_create(ctx, type, NULL, &it);
    const double zero[3] = {0}, dt = 0.002, p[3] = {1.0, -0.5, 2.0};
    if (!rc) rc = hs_integrator_setup(it, &dyn, dt, zero, zero, zero);
    for (int k = 0; !rc && k < 300; k++) {
        double f0[3], f1[3], dcmd[3], pp[3];
        for (int i = 0; i < 3; i++) {
            pp[i] = 0.0; /* load T^T p in skewed coordinates */
            for (int q = 0; q < 3; q++) pp[i] += (T ? T[i * 3 + q] : (i == q)) * p[q];
        }
        for (int i = 0; i < 3; i++) {
            f0[i] = pp[i] * sin(9.0 * k * dt);
            f1[i] = pp[i] * sin(9.0 * (k + 1) * dt);
        }
        hs_step_io io = {.step = k, .t = k * dt, .f_n = f0, .f_n1 = f1, .d_cmd = dcmd};
        rc = hs_integrator_step(it, &io);
        const double *y = hs_integrator_displacement(it);
        for (int i = 0; !rc && i < 3; i++) {
            double x = 0.0;
            for (int q = 0; q < 3; q++) x += (T ? T[q * 3 + i] : (i == q)) * y[q];
            hist[k * 3 + i] = x;
        }
    }
    hs_integrator_destroy(&it);
    return rc;
}

static void test_integrators_full_mass(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    /* a three-story shear building, k = 1e4, m = 10, 2 % Rayleigh-like damping C = 0.01 K */
    const double M[9] = {10, 0, 0, 0, 10, 0, 0, 0, 10};
    const double K[9] = {2e4, -1e4, 0, -1e4, 2e4, -1e4, 0, -1e4, 1e4};
    double C[9];
    for (int k = 0; k < 9; k++) C[k] = 0.001 * K[k];
    /* x = T y; T (column-major) well conditioned, not orthogonal */
    const double T[9] = {1.0, 0.3, -0.2, 0.1, 1.2, 0.4, 0.5, -0.3, 0.9};
    double Ms[9], Cs[9], Ks[9];
    congruent(T, M, Ms);
    congruent(T, C, Cs);
    congruent(T, K, Ks);
    assert_true(fabs(Ms[1]) > 1.0); /* the mass in y is full */
    const size_t count = hs_integrator_registry_count();
    int checked = 0;
    for (size_t e = 0; e < count; e++) {
        const char *type = hs_integrator_registry_get(e)->name;
        double a[900], b[900];
        int rc = respond(ctx, type, M, C, K, NULL, a);
        if (rc) fprintf(stderr, "%s (diagonal mass): %s\n", type, hs_ctx_message(ctx));
        assert_int_equal(rc, 0);
        rc = respond(ctx, type, Ms, Cs, Ks, T, b);
        if (rc) fprintf(stderr, "%s (full mass): %s\n", type, hs_ctx_message(ctx));
        assert_int_equal(rc, 0);
        double peak = 0.0, diff = 0.0;
        for (int k = 0; k < 900; k++) {
            peak = fmax(peak, fabs(a[k]));
            diff = fmax(diff, fabs(a[k] - b[k]));
        }
        printf("%-20s full mass vs diagonal: max |difference| %.3g of peak %.3g\n", type, diff,
               peak);
        assert_true(peak > 1e-5);
        assert_true(diff <= 1e-10 * peak);
        checked++;
    }
    assert_true(checked >= 11);
    hs_ctx_destroy(&ctx);
}

static void test_mass_errors(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_true(hs_fe_add_node(fe, 1, 0.0, 0.0) >= 0);
    assert_true(hs_fe_add_node(fe, 2, 1.0, 0.0) >= 0);
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "k", 1.0);
    const int z = hs_fe_add_zero_length(fe, "z", 1, 2, HS_FE_UX, "elastic", o);
    assert_true(z >= 0);
    assert_int_equal(hs_fe_set_element_mass(fe, z, 1.0, 1), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "only trusses and beams carry a mass per length"));
    const int t = hs_fe_add_truss(fe, "t", 1, 2, 1.0, 1.0, HS_FE_LINEAR, 0.0);
    assert_int_equal(hs_fe_set_element_mass(fe, t, -1.0, 1), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "rho (mass per length) must be >= 0"));
    hs_fe_destroy(&fe);
    hs_options_destroy(&o);
    /* a mass matrix that is not positive definite */
    hs_model *m = NULL;
    assert_int_equal(hs_model_create(ctx, 2, &m), 0);
    const double bad[4] = {1.0, 2.0, 2.0, 1.0};
    assert_int_equal(hs_model_set_mass_matrix(m, bad), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "not positive definite"));
    hs_model_destroy(&m);
    hs_ctx_destroy(&ctx);
    (void)PI;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cantilever_consistent),
        cmocka_unit_test(test_element_mass_matrices),
        cmocka_unit_test(test_integrators_full_mass),
        cmocka_unit_test(test_mass_errors),
    };
    return cmocka_run_group_tests_name("fe_mass", tests, NULL, NULL);
}
