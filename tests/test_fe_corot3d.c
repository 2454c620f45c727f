/* The corotational 3-D elastic beam-column (src/fe/fe_corot3d.c, docs/fe_model.md) against theory:
 *  - a finite rigid-body motion (0.5 rad about a skew axis, with a translation) of a skew beam
 *    leaves no force;
 *  - small displacements give the linear element's forces: the odd part of f(d) is K_lin d to
 *    1e-8 relative, the rest is of second order; the tangent at rest is K_lin to 1e-12;
 *  - at a large deformed state (end rotations of 0.55 rad about different axes, gravity
 *    compression) the tangent is a central finite difference of the restoring force (1e-6);
 *  - a cantilever under a tip moment M (axis not along a global one) bends into the circle of
 *    the Euler elastica, radius EI / M: the tip rotation and position match the closed form of
 *    the n-chord discretisation (1e-9): the tip rotation is M L / EI, the tip off the continuum's
 *    by at most L phi^2 / 6, phi = M L / (2 n EI). */
#include "hs_test.h"

#include "hysim/linalg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const hs_fe_section_3d SEC = {
    .E = 200e9, .G = 77e9, .A = 0.01, .J = 3e-5, .Iy = 2e-5, .Iz = 9e-5};
static const double ALL6[6] = {1, 1, 1, 1, 1, 1};

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static void unit(double v[3])
{
    const double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int k = 0; k < 3; k++) v[k] /= n;
}

/* Rodrigues: the rotation by angle th about unit axis n (row-major). */
static void rotation(const double n[3], double th, double Q[9])
{
    const double c = cos(th), s = sin(th);
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) Q[3 * r + k] = (1 - c) * n[r] * n[k] + (r == k ? c : 0.0);
    Q[1] -= s * n[2], Q[3] += s * n[2];
    Q[2] += s * n[1], Q[6] -= s * n[1];
    Q[5] -= s * n[0], Q[7] += s * n[0];
}

/* One beam between two free nodes with masses on all DOFs (12 dynamic DOFs, node 1 first). */
static hs_fe *one_beam(hs_ctx *ctx, const double xi[3], const double xj[3], const double vecxz[3],
                       hs_fe_transf transf, double P0)
{
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 3, 6), 0);
    assert_true(hs_fe_add_node_crd(fe, 1, xi) >= 0);
    assert_true(hs_fe_add_node_crd(fe, 2, xj) >= 0);
    assert_int_equal(hs_fe_add_mass(fe, 1, ALL6), 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, ALL6), 0);
    assert_true(hs_fe_add_beam_3d(fe, "b", 1, 2, &SEC, vecxz, transf, P0) >= 0);
    int rc = hs_fe_finalize(fe);
    if (rc) fprintf(stderr, "finalize: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    assert_int_equal(hs_fe_ndof(fe), 12);
    for (int n = 0; n < 2; n++)
        for (int d = 0; d < 6; d++) assert_int_equal(hs_fe_dof(fe, n + 1, d), 6 * n + d);
    return fe;
}

static const double XI[3] = {0.5, -0.25, 2.0}, XJ[3] = {2.5, 1.75, 3.0}, VXZ[3] = {0.3, -1.0, 0.4};

static void test_rigid_body_motion(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_fe *fe = one_beam(ctx, XI, XJ, VXZ, HS_FE_COROTATIONAL, 0.0);
    double n[3] = {1.0, -2.0, 0.7}, Q[9];
    unit(n);
    const double th = 0.5, c0[3] = {1.0, 0.3, -0.2}, tr[3] = {0.2, -0.1, 0.05};
    rotation(n, th, Q);
    double d[12], r[12] = {0}, K[144] = {0};
    const double *X[2] = {XI, XJ};
    for (int a = 0; a < 2; a++)
        for (int k = 0; k < 3; k++) {
            d[6 * a + k] = tr[k] - (X[a][k] - c0[k]);
            for (int m = 0; m < 3; m++) d[6 * a + k] += Q[3 * k + m] * (X[a][m] - c0[m]);
            d[6 * a + 3 + k] = th * n[k];
        }
    assert_int_equal(hs_fe_restore(fe, d, NULL, r, K, NULL), 0);
    const double L = 3.0, Fs = SEC.E * SEC.Iz / (L * L); /* a force scale: 2e9 N */
    for (int i = 0; i < 12; i++) HS_ASSERT_NEAR(r[i] / (i % 6 < 3 ? Fs : Fs * L), 0.0, 1e-12);
    /* the same motion through the linear transformation is far from free of force */
    hs_fe *lin = one_beam(ctx, XI, XJ, VXZ, HS_FE_LINEAR, 0.0);
    double rl[12] = {0};
    assert_int_equal(hs_fe_restore(lin, d, NULL, rl, NULL, NULL), 0);
    assert_true(hs_norm_inf(12, rl) > 1e-3 * Fs);
    hs_fe_destroy(&lin);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

static void test_small_displacements(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_fe *fe = one_beam(ctx, XI, XJ, VXZ, HS_FE_COROTATIONAL, 0.0);
    hs_fe *lin = one_beam(ctx, XI, XJ, VXZ, HS_FE_LINEAR, 0.0);
    double Kc[144] = {0}, Kl[144] = {0};
    assert_int_equal(hs_fe_initial_stiffness(fe, Kc), 0);
    assert_int_equal(hs_fe_initial_stiffness(lin, Kl), 0);
    const double kmax = hs_norm_inf(144, Kl);
    for (int i = 0; i < 144; i++) HS_ASSERT_NEAR(Kc[i] / kmax, Kl[i] / kmax, 1e-12);
    /* the tangent at d = 0 through restore, too */
    double r0[12] = {0}, K0[144] = {0}, zero[12] = {0};
    assert_int_equal(hs_fe_restore(fe, zero, NULL, r0, K0, NULL), 0);
    for (int i = 0; i < 144; i++) HS_ASSERT_NEAR(K0[i] / kmax, Kl[i] / kmax, 1e-12);
    /* displacements of a L, rotations of a rad: f(d) = K d + O(a^2) (the second-order term is
     * mostly EA/L times the elongation (du . du) / 2L, so |f - K d| / |K d| grows as a), and the
     * odd part (f(d) - f(-d)) / 2 = K d + O(a^3) */
    const double pat[12] = {0.3, -0.7, 0.5, 0.9, -0.4, 0.6, -0.2, 0.8, -0.5, -0.3, 0.7, 0.1};
    const double amp[3] = {1e-5, 1e-6, 1e-7};
    double raw[3];
    for (int a = 0; a < 3; a++) {
        double d[12], dm[12], rc[12] = {0}, rm[12] = {0}, rl[12] = {0}, diff[12], odd[12];
        for (int i = 0; i < 12; i++)
            d[i] = amp[a] * pat[i] * (i % 6 < 3 ? 3.0 : 1.0), dm[i] = -d[i];
        assert_int_equal(hs_fe_restore(fe, d, NULL, rc, NULL, NULL), 0);
        assert_int_equal(hs_fe_restore(fe, dm, NULL, rm, NULL, NULL), 0);
        assert_int_equal(hs_fe_restore(lin, d, NULL, rl, NULL, NULL), 0);
        for (int i = 0; i < 12; i++)
            diff[i] = rc[i] - rl[i], odd[i] = 0.5 * (rc[i] - rm[i]) - rl[i];
        raw[a] = hs_norm2(12, diff) / hs_norm2(12, rl);
        const double rel = hs_norm2(12, odd) / hs_norm2(12, rl);
        printf("small displacements, amplitude %g: |f(d) - K_lin d| / |K_lin d| = %.3g, odd part "
               "%.3g\n",
               amp[a], raw[a], rel);
        assert_true(rel < 1e-8);
        assert_true(raw[a] < 10.0 * amp[a]);
    }
    HS_ASSERT_NEAR(raw[0] / raw[1], 10.0, 0.1); /* second order: ten times less at a / 10 */
    HS_ASSERT_NEAR(raw[1] / raw[2], 10.0, 0.1);
    hs_fe_destroy(&lin);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

static void test_tangent_finite_difference(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_fe *fe = one_beam(ctx, XI, XJ, VXZ, HS_FE_COROTATIONAL, 2e6);
    /* end rotations of 0.3 to 0.6 rad about different axes, a chord turned by about 0.1 rad,
     * stretched 0.3 % */
    const double d[12] = {0.01, -0.02, 0.015, 0.3, -0.2, 0.4, 0.1, -0.35, 0.31, -0.25, 0.45, 0.2};
    double r[12] = {0}, K[144] = {0};
    assert_int_equal(hs_fe_restore(fe, d, NULL, r, K, NULL), 0);
    double worst = 0.0, kmax = hs_norm_inf(144, K);
    for (int j = 0; j < 12; j++) {
        const double h = 1e-6;
        double dp[12], dm[12], rp[12] = {0}, rm[12] = {0};
        memcpy(dp, d, sizeof dp);
        memcpy(dm, d, sizeof dm);
        dp[j] += h, dm[j] -= h;
        assert_int_equal(hs_fe_restore(fe, dp, NULL, rp, NULL, NULL), 0);
        assert_int_equal(hs_fe_restore(fe, dm, NULL, rm, NULL, NULL), 0);
        for (int i = 0; i < 12; i++) {
            const double fd = (rp[i] - rm[i]) / (2 * h), e = fabs(fd - K[j * 12 + i]) / kmax;
            if (e > worst) worst = e;
        }
    }
    printf("tangent vs central difference at a large deformed state: max |K - K_fd| / max |K| "
           "= %.3g\n",
           worst);
    assert_true(worst < 1e-6);
    /* the geometric part is there: the tangent differs from the one at rest */
    double K0[144] = {0};
    assert_int_equal(hs_fe_initial_stiffness(fe, K0), 0);
    double far = 0.0;
    for (int i = 0; i < 144; i++) far = fmax(far, fabs(K[i] - K0[i]) / kmax);
    assert_true(far > 1e-2);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

/* A cantilever of n elements along unit axis x (vecxz v) with a tip moment M about the local y
 * axis (bending with Iy), solved by Newton in load steps; returns the tip displacement and
 * rotation vector. */
static void elastica(hs_ctx *ctx, int n, const double x[3], const double v[3], double M, double L,
                     double tip[6])
{
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 3, 6), 0);
    const int fix[6] = {1, 1, 1, 1, 1, 1};
    for (int k = 0; k <= n; k++) {
        const double c[3] = {L * k / n * x[0], L * k / n * x[1], L * k / n * x[2]};
        assert_true(hs_fe_add_node_crd(fe, k + 1, c) >= 0);
        if (k == 0)
            assert_int_equal(hs_fe_fix(fe, 1, fix), 0);
        else
            assert_int_equal(hs_fe_add_mass(fe, k + 1, ALL6), 0);
    }
    for (int k = 0; k < n; k++) {
        char name[16];
        snprintf(name, sizeof name, "e%d", k);
        assert_true(hs_fe_add_beam_3d(fe, name, k + 1, k + 2, &SEC, v, HS_FE_COROTATIONAL, 0.0) >=
                    0);
    }
    assert_int_equal(hs_fe_finalize(fe), 0);
    const int N = 6 * n;
    assert_int_equal(hs_fe_ndof(fe), N);
    double y[3], yl[3], d[6 * 32] = {0}, r[6 * 32], p[6 * 32];
    assert_true(n <= 32);
    double *K = malloc((size_t)N * (size_t)N * sizeof(double));
    assert_non_null(K);
    cross(v, x, y); /* the local y axis */
    unit(y);
    memcpy(yl, y, sizeof yl);
    hs_linsolver *s = NULL;
    assert_int_equal(hs_linsolver_create(ctx, "dense", N, &s), 0);
    const int steps = 10;
    for (int st = 1; st <= steps; st++) {
        memset(p, 0, (size_t)N * sizeof(double));
        for (int k = 0; k < 3; k++) p[N - 3 + k] = M * st / steps * yl[k];
        int it = 0;
        for (;; it++) {
            assert_true(it < 30);
            memset(r, 0, (size_t)N * sizeof(double));
            memset(K, 0, (size_t)N * (size_t)N * sizeof(double));
            assert_int_equal(hs_fe_restore(fe, d, NULL, r, K, NULL), 0);
            for (int i = 0; i < N; i++) r[i] = p[i] - r[i];
            if (hs_norm_inf(N, r) < 1e-9 * M / L) break;
            assert_int_equal(hs_linsolver_factor(s, K), 0);
            assert_int_equal(hs_linsolver_solve(s, r), 0);
            for (int i = 0; i < N; i++) d[i] += r[i];
        }
    }
    memcpy(tip, &d[N - 6], 6 * sizeof(double));
    free(K);
    hs_linsolver_destroy(&s);
    hs_fe_destroy(&fe);
}

static void test_elastica(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    double x[3] = {1.0, 2.0, 2.0}, v[3] = {0.3, -1.0, 0.4}, y[3], z[3];
    unit(x);
    cross(v, x, y);
    unit(y);
    cross(x, y, z);
    const double L = 3.0, EI = SEC.E * SEC.Iy, th = 2.0, M = th * EI / L; /* 2 rad at the tip */
    const int ns[2] = {8, 32};
    for (int t = 0; t < 2; t++) {
        const int n = ns[t];
        double tip[6];
        elastica(ctx, n, x, v, M, L, tip);
        /* continuum: a circle of radius R = EI / M from the root, tangent x, curving towards -z
         * (a positive rotation about y turns x towards -z) */
        const double R = EI / M, ax = R * sin(th), tz = -R * (1 - cos(th));
        /* n chords of length L / n, each bent by equal and opposite end rotations phi: end
         * moment 2 EIy / (L / n) phi = M, tip rotation 2 n phi = M L / EIy exactly; the nodes lie
         * on the circle of radius (L / n) / (2 sin phi) through them */
        const double phi = M * L / (2.0 * n * EI), thd = 2.0 * n * phi,
                     Rd = L / n / (2.0 * sin(phi)), axd = Rd * sin(thd), tzd = -Rd * (1 - cos(thd));
        double ua = 0.0, uy = 0.0, uz = 0.0, ry = 0.0, rx = 0.0, rz = 0.0;
        for (int k = 0; k < 3; k++) {
            ua += tip[k] * x[k], uy += tip[k] * y[k], uz += tip[k] * z[k];
            rx += tip[3 + k] * x[k], ry += tip[3 + k] * y[k], rz += tip[3 + k] * z[k];
        }
        printf("elastica n = %d: tip rotation %.10f (chords %.10f, circle %.10f); tip (along, "
               "across) = (%.9f, %.9f), chords (%.9f, %.9f), circle (%.9f, %.9f)\n",
               n, ry, thd, th, L + ua, uz, axd, tzd, ax, tz);
        HS_ASSERT_NEAR(ry, thd, 1e-9);
        HS_ASSERT_NEAR((L + ua) / L, axd / L, 1e-9);
        HS_ASSERT_NEAR(uz / L, tzd / L, 1e-9);
        HS_ASSERT_NEAR(uy / L, 0.0, 1e-12);
        HS_ASSERT_NEAR(rx, 0.0, 1e-12);
        HS_ASSERT_NEAR(rz, 0.0, 1e-12);
        /* the discretisation's error: the chords' circle is larger by phi / sin phi - 1 =
         * phi^2 / 6 + ..., so the tip is off the continuum's by at most L phi^2 / 6 */
        const double bound = L * phi * phi / 6.0, off = hypot(L + ua - ax, uz - tz);
        HS_ASSERT_NEAR(ry, th, 1e-9);
        assert_true(off <= 1.01 * bound);
        assert_true(off >= 0.5 * bound);
    }
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rigid_body_motion),
        cmocka_unit_test(test_small_displacements),
        cmocka_unit_test(test_tangent_finite_difference),
        cmocka_unit_test(test_elastica),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
