/* TripleFrictionPendulumX (src/fe/fe_tfp_x.c) against the closed form of a triple friction
 * pendulum at constant friction (tagPres = tagTemp = tagVel = 0): the series model carries the
 * same force f (per unit vertical load W) through its three segments, each elastic (stiffness
 * E = 3 mu1 / uy) to its friction mu_s, then sliding with the stiffness of its radii, 1 / (2 L1),
 * 1 / (L2 - L1), 1 / (L3 - L1) (Fenz & Constantinou 2008: the regimes' stiffnesses W / (2 L1),
 * W / (L1 + L2), W / (L2 + L3) between the transitions at f = mu2 and f = mu3). So
 * u(f) = sum_s min(f, mu_s) / E + max(f - mu_s, 0) / Ep_s, and the horizontal force is W f(u).
 * The bearing is pushed in x in steps, each committed, under the vertical load W of its elastic
 * vertical material; the force matches the closed form to 1e-9 of W mu3 in every regime, its
 * tangent the regime's W / (L_sum + the elastic segments' 1 / E); the vertical force is -W, the
 * torsion and rockings their elastic materials'. The command's partitioning approach 2 (tagT 0) is
 * refused. */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double W = 1000.0, KV = 1e9, UY = 0.001;
static const double MU[3] = {0.02, 0.05, 0.1}, L[3] = {0.5, 2.0, 3.0};

static hs_fe_tfp_x_def def(int tagT)
{
    hs_fe_tfp_x_def p = {.tagT = tagT,
                         .tagT2 = 1,
                         .W = W,
                         .uy = UY,
                         .kvt = 1.0,
                         .minFv = 0.1,
                         .tol = 1e-8,
                         .diffu = 0.444e-5,
                         .conduct = 18.0,
                         .T0 = 20.0,
                         .vel_rate = 100.0,
                         .kT_model = 1.0,
                         .unit = 1.0};
    for (int s = 0; s < 3; s++) {
        p.mu[s] = MU[s];
        p.L[s] = L[s];
        p.ubar[s] = 0.5;
        p.B[s] = 0.5;
        p.pref[s] = 1.0;
    }
    p.plate[0] = p.plate[1] = 0.02;
    return p;
}

static hs_fe *bearing_of(hs_ctx *ctx, const hs_fe_tfp_x_def *p, int *rc);

static hs_fe *bearing(hs_ctx *ctx, int tagT, int *rc)
{
    const hs_fe_tfp_x_def p = def(tagT);
    return bearing_of(ctx, &p, rc);
}

static hs_fe *bearing_of(hs_ctx *ctx, const hs_fe_tfp_x_def *p, int *rc)
{
    hs_fe *fe = NULL;
    const double o[3] = {0.0, 0.0, 0.0}, m[6] = {1, 1, 1, 1, 1, 1};
    const int all[6] = {1, 1, 1, 1, 1, 1}, xz[6] = {0, 1, 0, 1, 1, 1};
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 3, 6), 0);
    assert_true(hs_fe_add_node_crd(fe, 1, o) >= 0);
    assert_true(hs_fe_add_node_crd(fe, 2, o) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, all), 0);
    assert_int_equal(hs_fe_fix(fe, 2, xz), 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, m), 0);
    hs_options *ov = NULL, * or = NULL;
    assert_int_equal(hs_options_create(&ov), 0);
    assert_int_equal(hs_options_create(& or), 0);
    hs_options_set_num(ov, "k", KV);
    hs_options_set_num(or, "k", 10.0);
    const char *types[4] = {"elastic", "elastic", "elastic", "elastic"};
    const hs_options *opts[4] = {ov, or, or, or };
    *rc = hs_fe_add_tfp_x(fe, "tfp", 1, 2, p, types, opts);
    hs_options_destroy(&ov);
    hs_options_destroy(& or);
    if (*rc >= 0) assert_int_equal(hs_fe_finalize(fe), 0);
    return fe;
}

/* the closed form: u of the force f (per W) */
static double u_of(double f)
{
    const double E = 3.0 * MU[0] / UY,
                 Ep[3] = {1.0 / (2 * L[0]), 1.0 / (L[1] - L[0]), 1.0 / (L[2] - L[0])};
    double u = 0.0;
    for (int s = 0; s < 3; s++) u += fmin(f, MU[s]) / E + fmax(f - MU[s], 0.0) / Ep[s];
    return u;
}

/* its inverse by bisection (u_of increases) */
static double f_of(double u)
{
    double a = 0.0, b = 1.0;
    for (int k = 0; k < 200; k++) {
        const double m = 0.5 * (a + b);
        if (u_of(m) < u)
            a = m;
        else
            b = m;
    }
    return 0.5 * (a + b);
}

/* one step of the bearing to x (its DOF ix of d) at time t (dt 0.01), committed: r and K there
 * (K may be NULL) */
static void step_to(hs_fe *fe, double *d, int ix, double x, double t, double r[2], double *K)
{
    d[ix] = x;
    hs_fe_set_clock(fe, t, 0.01);
    memset(r, 0, 2 * sizeof *r);
    if (K) memset(K, 0, 4 * sizeof *K);
    assert_int_equal(hs_fe_restore(fe, d, NULL, r, K, NULL), 0);
    assert_int_equal(hs_fe_commit(fe), 0);
}

static void test_backbone_at_constant_friction(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    int rc;
    hs_fe *fe = bearing(ctx, 1, &rc);
    if (rc < 0) fprintf(stderr, "tfp: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    assert_false(hs_fe_is_linear(fe)); /* elastic materials, yet friction */
    const int n = hs_fe_ndof(fe), ix = hs_fe_dof(fe, 2, 0), iz = hs_fe_dof(fe, 2, 2);
    assert_int_equal(n, 2);
    double d[2] = {0}, r[2], K[4];
    d[iz] = -W / KV;
    const double u2 = u_of(MU[1]), u3 = u_of(MU[2]); /* the transitions */
    double worst = 0.0;
    int regimes[3] = {0};
    for (int step = 1; step <= 300; step++) {
        step_to(fe, d, ix, 0.001 * step, 0.01 * step, r, K);
        const double want = W * f_of(d[ix]), err = fabs(r[ix] - want) / (W * MU[2]);
        if (err > worst) worst = err;
        assert_true(fabs(r[iz] + W) < 1e-6 * W); /* R(8) = Fvert, the compression -W */
        /* well inside a regime the tangent is W over the sliding segments' 1 / Ep (the sums of
         * radii) plus the elastic ones' 1 / E */
        const double e = UY / (3.0 * MU[0]);
        const double lsum = d[ix] < 0.8 * u2                        ? 2 * L[0] + 2 * e
                            : d[ix] > 1.1 * u2 && d[ix] < 0.95 * u3 ? L[0] + L[1] + e
                            : d[ix] > 1.05 * u3                     ? L[1] + L[2]
                                                                    : 0.0;
        if (lsum > 0.0 && d[ix] > 0.01) {
            regimes[lsum == 2 * L[0] + 2 * e ? 0 : lsum == L[0] + L[1] + e ? 1 : 2]++;
            assert_true(fabs(K[ix * n + ix] / (W / lsum) - 1.0) < 1e-6);
        }
    }
    fprintf(stderr,
            "backbone: worst %.3g of W mu3; regimes' steps %d %d %d; transitions %.6f %.6f\n",
            worst, regimes[0], regimes[1], regimes[2], u2, u3);
    assert_true(worst < 1e-9);
    assert_true(regimes[0] > 5 && regimes[1] > 5 && regimes[2] > 5);
    double R[12], b[6];
    const int k = hs_fe_element_index(fe, "tfp");
    assert_int_equal(hs_fe_element_response(fe, k, HS_FE_BASIC_FORCE, b), 0);
    assert_int_equal(hs_fe_element_response(fe, k, HS_FE_GLOBAL_FORCE, R), 0);
    assert_true(fabs(b[0] - (-W)) < 1e-6 * W && b[1] == R[6]); /* [N Vx Vy T Mx My] */
    assert_int_equal(hs_fe_element_response_size(fe, k, HS_FE_TFP_PARAMETERS), 20);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

/* a checkpoint: a second bearing loaded with the state of the first at 0.1 m takes the next
 * steps (unloading back, then on) as the first does */
static void test_checkpoint(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    int rc;
    hs_fe *a = bearing(ctx, 1, &rc), *b = bearing(ctx, 1, &rc);
    assert_int_equal(rc, 0);
    const int ix = hs_fe_dof(a, 2, 0), iz = hs_fe_dof(a, 2, 2);
    double d[2] = {0}, ra[2], rb[2];
    d[iz] = -W / KV;
    for (int step = 1; step <= 100; step++) step_to(a, d, ix, 0.001 * step, 0.01 * step, ra, NULL);
    const size_t n = hs_fe_state_size(a);
    assert_int_equal(n, hs_fe_state_size(b));
    double *saved = test_malloc(n * sizeof *saved);
    assert_int_equal(hs_fe_state_save(a, saved), 0);
    assert_int_equal(hs_fe_state_load(b, saved), 0);
    test_free(saved);
    const double path[3] = {0.09, 0.05, 0.12};
    for (int k = 0; k < 3; k++) {
        step_to(a, d, ix, path[k], 1.01 + 0.01 * k, ra, NULL);
        step_to(b, d, ix, path[k], 1.01 + 0.01 * k, rb, NULL);
        assert_true(ra[ix] == rb[ix] && ra[iz] == rb[iz]);
    }
    /* reloaded to 0.12 m: pushing again */
    assert_true(ra[ix] > 0.0);
    hs_fe_destroy(&a);
    hs_fe_destroy(&b);
    hs_ctx_destroy(&ctx);
}

/* the pressure factor (tagPres 1, unit 3: N and mm, pressures in MPa): at the first step each
 * surface's kp = 0.7^(0.02 (p - p_ref)), p = W / (3.14159 (b / 2)^2) (OpenSees' pi), here
 * p_ref = p - 10 so kp = 0.7^0.2, and the friction mu_ref kp; the Parameters response gives
 * them in its columns 6-8 (mu) and 12-14 (kp) */
static void test_pressure_factor(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_fe_tfp_x_def p = def(1);
    p.kp = 1;
    p.unit = 3.0;
    const double pressure = W / (3.14159 * pow(0.5 / 2, 2));
    for (int s = 0; s < 3; s++) p.pref[s] = pressure - 10.0;
    int rc;
    hs_fe *fe = bearing_of(ctx, &p, &rc);
    assert_int_equal(rc, 0);
    const int ix = hs_fe_dof(fe, 2, 0), iz = hs_fe_dof(fe, 2, 2);
    double d[2] = {0}, r[2], par[20];
    d[iz] = -W / KV;
    step_to(fe, d, ix, 0.001, 0.01, r, NULL);
    const int k = hs_fe_element_index(fe, "tfp");
    assert_int_equal(hs_fe_element_response(fe, k, HS_FE_TFP_PARAMETERS, par), 0);
    const double kp = pow(0.7, 0.2);
    for (int s = 0; s < 3; s++) {
        assert_true(fabs(par[11 + s] - kp) < 1e-12);
        assert_true(fabs(par[5 + s] - MU[s] * kp) < 1e-12);
        assert_true(par[14 + s] == 1.0 && par[17 + s] == 1.0); /* kT, kv off */
    }
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

static void test_approach_2_refused(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    int rc;
    hs_fe *fe = bearing(ctx, 0, &rc);
    assert_int_equal(rc, HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "approach 1"));
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_backbone_at_constant_friction),
        cmocka_unit_test(test_checkpoint),
        cmocka_unit_test(test_pressure_factor),
        cmocka_unit_test(test_approach_2_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
