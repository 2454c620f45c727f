/* The 2-D bearings (OpenSees' elastomericBearingPlasticity, OpenFresco's expElement bearing) in
 * hysim's link, against closed forms computed here:
 *  - the shear law bearing_plasticity (ElastomericBearingPlasticity2d.cpp's update): with
 *    alpha2 = 0 it is bilinear with kinematic hardening, the same law as Steel01 with
 *    E0 = k_init, b = alpha1 and fy = q_yield / (1 - alpha1) (the whole bearing yields at that
 *    force): equal to 1e-12 over a cycle of growing amplitude; the nonlinear hardening
 *    k3 sgn(u) |u|^mu and its tangent at one point; the elastic limit u_y = q_yield / k0;
 *  - the bearings' P-Delta (hs_fe_link_def p_delta_bearing; EEBearing2d.cpp addPDeltaForces):
 *    a vertical bearing with axial, shear and moment springs, N its axial force, delta the
 *    lateral offset: the local end forces T_lb^T q, the shear (1 - r_i - r_j) N delta / L, the
 *    end moments r_i N delta and r_j N delta, and the rotations' term
 *    c N (s L rz_i - (1 - s) L rz_j) at i (minus at j), c = 1 (EEBearing2d) and 0.5
 *    (ElastomericBearingPlasticity2d), to 1e-12; the recorded global force the same;
 *  - the tangent keeps N fixed (addPDeltaStiff): at a state without lateral offset and rotation
 *    it is the force's derivative (central differences, 1e-6), and elsewhere it differs from the
 *    derivative by exactly delta k_N on the moments' axial column;
 *  - a given stiffness on the shear (k_dir, EEBearing2d's -initStif): a Steel01 shear yielded
 *    far beyond its yield has the tangent of an elastic shear of that stiffness, its force the
 *    Steel01's. */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static hs_options *opts(const char *k1, double v1, const char *k2, double v2, const char *k3,
                        double v3)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, k1, v1);
    if (k2) hs_options_set_num(o, k2, v2);
    if (k3) hs_options_set_num(o, k3, v3);
    return o;
}

static void test_shear_law_is_bilinear(void **state)
{
    (void)state;
    const double k = 6.51, q = 6.48, a1 = 0.08;
    hs_options *ob = opts("k_init", k, "q_yield", q, "alpha1", a1);
    hs_options *os = opts("fy", q / (1.0 - a1), "E0", k, "b", a1);
    hs_material *b = NULL, *s = NULL;
    assert_int_equal(hs_material_create(NULL, "bearing_plasticity", ob, &b), 0);
    assert_int_equal(hs_material_create(NULL, "steel01", os, &s), 0);
    assert_true(hs_material_initial_tangent(b) == k);
    const double uy = q / ((1.0 - a1) * k);
    /* just below and above the elastic limit */
    assert_int_equal(hs_material_set_trial(b, 0.999 * uy, 0.0), 0);
    assert_true(fabs(hs_material_stress(b) - 0.999 * uy * k) <= 1e-12 * q);
    assert_true(hs_material_tangent(b) == (1.0 - a1) * k + a1 * k);
    assert_int_equal(hs_material_set_trial(b, 2.0 * uy, 0.0), 0);
    assert_true(fabs(hs_material_stress(b) - (q + a1 * k * 2.0 * uy)) <= 1e-12 * q);
    assert_true(hs_material_tangent(b) == a1 * k);
    hs_material_revert(b);
    double worst = 0.0, peak = 0.0;
    for (int i = 1; i <= 400; i++) {
        const double u = 4.0 * uy * (i / 400.0) * sin(2.0 * 3.14159265358979323846 * i / 50.0);
        assert_int_equal(hs_material_set_trial(b, u, 0.0), 0);
        assert_int_equal(hs_material_set_trial(s, u, 0.0), 0);
        worst = fmax(worst, fabs(hs_material_stress(b) - hs_material_stress(s)));
        peak = fmax(peak, fabs(hs_material_stress(s)));
        assert_true(fabs(hs_material_tangent(b) - hs_material_tangent(s)) <= 1e-12 * k);
        assert_int_equal(hs_material_commit(b), 0);
        assert_int_equal(hs_material_commit(s), 0);
    }
    printf("bearing_plasticity against steel01 (fy = qd / (1 - alpha1)): %.3g of the peak %.6g\n",
           worst / peak, peak);
    assert_true(peak > 1.2 * q / (1.0 - a1)); /* hardened well past the yield force */
    assert_true(worst <= 1e-12 * peak);
    hs_material_destroy(&b);
    hs_material_destroy(&s);
    hs_options_destroy(&ob);
    hs_options_destroy(&os);
    /* the nonlinear hardening in the elastic range: k0 u + k2 u + k3 sgn(u) |u|^mu */
    hs_options *on = opts("k_init", 10.0, "q_yield", 2.0, "alpha1", 0.1);
    hs_options_set_num(on, "alpha2", 0.05);
    hs_options_set_num(on, "mu", 2.5);
    assert_int_equal(hs_material_create(NULL, "bearing_plasticity", on, &b), 0);
    assert_int_equal(hs_material_set_trial(b, -0.1, 0.0), 0);
    const double qn = 9.0 * -0.1 + 1.0 * -0.1 - 0.5 * pow(0.1, 2.5);
    const double kn = 9.0 + 1.0 + 0.5 * 2.5 * pow(0.1, 1.5);
    assert_true(fabs(hs_material_stress(b) - qn) <= 1e-14);
    assert_true(fabs(hs_material_tangent(b) - kn) <= 1e-13);
    hs_material_destroy(&b);
    hs_options_destroy(&on);
}

typedef struct model {
    hs_ctx *ctx;
    hs_fe *fe;
    hs_options *o[3];
    int q[6];
} model;

/* A vertical bearing of length L from the origin (local x = +Y, y = -X), unit masses on every
 * DOF; shear material `shear` (elastic or steel01 of stiffness ks) with a given stiffness kfix
 * on the shear when > 0. */
static void build(model *m, double L, double s, const double k[3], const double r[2], double c,
                  const char *shear, double kfix)
{
    memset(m, 0, sizeof *m);
    hs_ctx_create(&m->ctx);
    assert_int_equal(hs_fe_create(m->ctx, &m->fe), 0);
    assert_int_equal(hs_fe_set_dimension(m->fe, 2, 3), 0);
    const double xi[2] = {0, 0}, xj[2] = {0, L}, one[3] = {1, 1, 1};
    assert_true(hs_fe_add_node_crd(m->fe, 1, xi) >= 0);
    assert_true(hs_fe_add_node_crd(m->fe, 2, xj) >= 0);
    assert_int_equal(hs_fe_add_mass(m->fe, 1, one), 0);
    assert_int_equal(hs_fe_add_mass(m->fe, 2, one), 0);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    def.ndir = 3;
    for (int d = 0; d < 3; d++) {
        const int steel = d == 1 && !strcmp(shear, "steel01");
        m->o[d] = steel ? opts("fy", 0.01 * k[d], "E0", k[d], "b", 0.05)
                        : opts("k", k[d], NULL, 0, NULL, 0);
        def.dirs[d] = d;
        def.mat_type[d] = steel ? "steel01" : "elastic";
        def.mat_opts[d] = m->o[d];
    }
    def.shear_dist = s;
    def.has_p_delta = 1;
    def.p_delta[2] = r[0];
    def.p_delta[3] = r[1];
    def.p_delta_bearing = 1;
    def.p_delta_rot = c;
    def.has_k_dir[1] = kfix > 0.0;
    def.k_dir[1] = kfix;
    const int rc = hs_fe_add_link(m->fe, "brg", 1, 2, &def);
    if (rc < 0) fprintf(stderr, "%s\n", hs_ctx_message(m->ctx));
    assert_true(rc >= 0);
    assert_int_equal(hs_fe_finalize(m->fe), 0);
    assert_int_equal(hs_fe_ndof(m->fe), 6);
    for (int i = 0; i < 6; i++) m->q[i] = hs_fe_dof(m->fe, i < 3 ? 1 : 2, i % 3);
}

static void destroy(model *m)
{
    for (int d = 0; d < 3; d++) hs_options_destroy(&m->o[d]);
    hs_fe_destroy(&m->fe);
    hs_ctx_destroy(&m->ctx);
}

static void force(model *m, const double *u, double *f, double *K)
{
    double d[6] = {0}, r[6] = {0}, Kt[36] = {0};
    for (int i = 0; i < 6; i++) d[m->q[i]] = u[i];
    assert_int_equal(hs_fe_restore(m->fe, d, NULL, r, K ? Kt : NULL, NULL), 0);
    for (int i = 0; i < 6; i++) f[i] = r[m->q[i]];
    if (K)
        for (int j = 0; j < 6; j++)
            for (int i = 0; i < 6; i++) K[j * 6 + i] = Kt[m->q[j] * 6 + m->q[i]];
}

/* EEBearing2d's global end forces at u (closed form: local forces, then T_gl^T). */
static void closed_form(double L, double s, const double k[3], const double r[2], double c,
                        const double *u, double g[6])
{
    const double ul[6] = {u[1], -u[0], u[2], u[4], -u[3], u[5]}; /* x' = Y, y' = -X */
    const double delta = ul[4] - ul[1];
    const double ub[3] = {ul[3] - ul[0], delta - s * L * ul[2] - (1.0 - s) * L * ul[5],
                          ul[5] - ul[2]};
    const double N = k[0] * ub[0], qs = k[1] * ub[1], qm = k[2] * ub[2];
    double pl[6] = {-N, -qs, -s * L * qs - qm, N, qs, -(1.0 - s) * L * qs + qm};
    const double V = (1.0 - r[0] - r[1]) * N * delta / L;
    const double rot = c * N * (s * L * ul[2] - (1.0 - s) * L * ul[5]);
    pl[1] -= V, pl[4] += V;
    pl[2] += r[0] * N * delta + rot;
    pl[5] += r[1] * N * delta - rot;
    const double gl[6] = {-pl[1], pl[0], pl[2], -pl[4], pl[3], pl[5]};
    memcpy(g, gl, sizeof gl);
}

static void test_p_delta_forces(void **state)
{
    (void)state;
    const double L = 10.0, k[3] = {1000.0, 6.51, 169.0};
    const double u[6] = {0.01, -0.002, 0.003, 0.8, -0.03, -0.004};
    const struct {
        double s, r[2], c;
    } cases[] = {{0.5, {0.5, 0.5}, 1.0}, {0.3, {0.2, 0.3}, 1.0}, {0.5, {0.5, 0.5}, 0.5}};
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        model m;
        build(&m, L, cases[t].s, k, cases[t].r, cases[t].c, "elastic", 0.0);
        double f[6], g[6], fr[6], fmax_ = 0.0, worst = 0.0;
        force(&m, u, f, NULL);
        closed_form(L, cases[t].s, k, cases[t].r, cases[t].c, u, g);
        for (int i = 0; i < 6; i++) fmax_ = fmax(fmax_, fabs(g[i]));
        for (int i = 0; i < 6; i++) worst = fmax(worst, fabs(f[i] - g[i]));
        assert_int_equal(hs_fe_commit(m.fe), 0);
        assert_int_equal(hs_fe_element_response(m.fe, 0, HS_FE_GLOBAL_FORCE, fr), 0);
        for (int i = 0; i < 6; i++) worst = fmax(worst, fabs(fr[i] - g[i]));
        const double rot_i = g[2] - (closed_form(L, cases[t].s, k, cases[t].r, 0.0, u, fr), fr[2]);
        printf("bearing s %.1f ratios %.1f %.1f c %.1f: %.3g of the largest end force %.6g "
               "(the rotations' moment at i %.6g)\n",
               cases[t].s, cases[t].r[0], cases[t].r[1], cases[t].c, worst / fmax_, fmax_, rot_i);
        assert_true(fabs(rot_i) > 1e-3 * fmax_); /* the rotations' term is there */
        assert_true(worst <= 1e-12 * fmax_);
        destroy(&m);
    }
}

static void test_tangent_at_fixed_n(void **state)
{
    (void)state;
    const double L = 10.0, s = 0.4, k[3] = {1000.0, 6.51, 169.0}, r[2] = {0.3, 0.6}, h = 1e-6;
    model m;
    build(&m, L, s, k, r, 1.0, "elastic", 0.0);
    /* 1. axial shortening only: the derivative of the force */
    const double u0[6] = {0, 0, 0, 0, -0.02, 0};
    double K[36], f[6], fp[6], fm[6], up[6], kmax = 0.0, worst = 0.0;
    force(&m, u0, f, K);
    for (int i = 0; i < 36; i++) kmax = fmax(kmax, fabs(K[i]));
    for (int j = 0; j < 6; j++) {
        memcpy(up, u0, sizeof up);
        up[j] += h;
        force(&m, up, fp, NULL);
        up[j] -= 2.0 * h;
        force(&m, up, fm, NULL);
        for (int i = 0; i < 6; i++)
            worst = fmax(worst, fabs((fp[i] - fm[i]) / (2.0 * h) - K[j * 6 + i]));
    }
    printf("tangent at rest laterally: %.3g of the largest entry %.6g from central differences\n",
           worst / kmax, kmax);
    assert_true(worst <= 1e-6 * kmax);
    /* 2. with a lateral offset: d(moment_i)/d(u_y) differs from the tangent's by delta k_N only
     * (the tangent keeps N fixed; local delta = -(u_xj - u_xi)) */
    const double u1[6] = {0, 0, 0, 0.5, -0.02, 0};
    force(&m, u1, f, K);
    memcpy(up, u1, sizeof up);
    up[4] += h;
    force(&m, up, fp, NULL);
    up[4] -= 2.0 * h;
    force(&m, up, fm, NULL);
    const double fd = (fp[2] - fm[2]) / (2.0 * h), delta = -0.5;
    printf("d(M_i)/d(u_yj): central difference %.9g, tangent %.9g, r_i delta k_N %.9g\n", fd,
           K[4 * 6 + 2], r[0] * delta * k[0]);
    assert_true(fabs(fd - K[4 * 6 + 2] - r[0] * delta * k[0]) <= 1e-6 * kmax);
    destroy(&m);
}

static void test_given_shear_stiffness(void **state)
{
    (void)state;
    const double L = 10.0, k[3] = {1000.0, 6.51, 169.0}, r[2] = {0.5, 0.5};
    const double u[6] = {0, 0, 0, 3.0, -0.02, 0.001}; /* the shear 300 times its yield */
    model a, b;
    build(&a, L, 0.5, k, r, 1.0, "steel01", k[1]);
    build(&b, L, 0.5, k, r, 1.0, "elastic", 0.0);
    double fa[6], fb[6], Ka[36], Kb[36], kmax = 0.0, worst = 0.0;
    force(&a, u, fa, Ka);
    force(&b, u, fb, Kb);
    for (int i = 0; i < 36; i++) kmax = fmax(kmax, fabs(Kb[i]));
    for (int i = 0; i < 36; i++) worst = fmax(worst, fabs(Ka[i] - Kb[i]));
    printf("steel01 shear with the given stiffness %.3g: tangent %.3g from the elastic one's; "
           "shear force %.6g (elastic %.6g)\n",
           k[1], worst / kmax, -fa[3], -fb[3]);
    assert_true(worst <= 1e-12 * kmax);
    assert_true(fabs(fa[3]) < 0.2 * fabs(fb[3])); /* the force is the yielded steel's */
    destroy(&a);
    destroy(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shear_law_is_bilinear),
        cmocka_unit_test(test_p_delta_forces),
        cmocka_unit_test(test_tangent_at_fixed_n),
        cmocka_unit_test(test_given_shear_stiffness),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
