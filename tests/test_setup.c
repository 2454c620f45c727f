/* Experimental setups (include/hysim/setup.h) against closed-form geometry written here:
 *  - a two-actuator loading beam in 2-D (the layout of OpenFresco's TwoActuators2d: a horizontal
 *    actuator at the control point, a second one L above it) at large displacement: strokes from
 *    the triangle's sides, to 1e-12;
 *  - three actuators in 2-D (ThreeActuators2d's layout: one horizontal, two vertical);
 *  - a 6-DOF load and boundary condition box (the MUST-SIM LBCB's layout: three vertical
 *    actuators, two along x, one along y) over its workspace;
 * for each: forward-inverse round trips to 1e-12, the force resultant against the sum of the
 * actuators' force vectors and their moments about the control point (1e-12), virtual work
 * (p . dq = f . dx for a small dq, central differences), the inverse force map, the linearised
 * setup's x = J0 q exactly, and the refusals (coincident pins, a mechanism, a DOF twice). */
#include "hs_test.h"

#include "hs_lbcb.h"
#include "hysim/setup.h"

#include <math.h>
#include <string.h>

static void set3(double v[3], double a, double b, double c)
{
    v[0] = a;
    v[1] = b;
    v[2] = c;
}

/* A horizontal actuator at the control point (base La0 to its left) and one L above it (base La1
 * to the left of its pin); the platform translates along x and rotates about z. */
static hs_setup_geometry two_actuators(double La0, double La1, double L, int nl)
{
    hs_setup_geometry g;
    memset(&g, 0, sizeof g);
    g.nact = 2;
    g.ndof = 2;
    g.dof[0] = HS_POSE_UX;
    g.dof[1] = HS_POSE_RZ;
    g.nl_geom = nl;
    set3(g.base[0], -La0, 0, 0);
    set3(g.pin[0], 0, 0, 0);
    set3(g.base[1], -La1, L, 0);
    set3(g.pin[1], 0, L, 0);
    return g;
}

/* One horizontal actuator at (-L0, 0) and two vertical ones under (-L0, 0) and (L1, 0). */
static hs_setup_geometry three_actuators(double La0, double La1, double La2, double L0, double L1)
{
    hs_setup_geometry g;
    memset(&g, 0, sizeof g);
    g.nact = 3;
    g.ndof = 3;
    g.dof[0] = HS_POSE_UX;
    g.dof[1] = HS_POSE_UY;
    g.dof[2] = HS_POSE_RZ;
    g.nl_geom = 1;
    set3(g.pin[0], -L0, 0, 0);
    set3(g.base[0], -L0 - La0, 0, 0);
    set3(g.pin[1], -L0, 0, 0);
    set3(g.base[1], -L0, -La1, 0);
    set3(g.pin[2], L1, 0, 0);
    set3(g.base[2], L1, -La2, 0);
    return g;
}

static hs_setup *make(const hs_setup_geometry *g)
{
    hs_setup *s = NULL;
    assert_int_equal(hs_setup_create(NULL, g, &s), 0);
    return s;
}

static void test_two_actuators_closed_form(void **state)
{
    (void)state;
    const double La0 = 2.0, La1 = 1.7, L = 1.1;
    hs_setup_geometry g = two_actuators(La0, La1, L, 1);
    hs_setup *s = make(&g);
    const double cases[4][2] = {{0.3, 0.2}, {-0.25, -0.15}, {0.05, 0.4}, {-0.4, 0.1}};
    for (int c = 0; c < 4; c++) {
        const double u = cases[c][0], th = cases[c][1];
        double x[2];
        hs_setup_strokes(s, cases[c], x);
        /* actuator 0 stays horizontal; actuator 1's pin moves to (u - L sin th, L cos th). */
        const double x0 = u;
        const double dx1 = u - L * sin(th) + La1, dy1 = L * cos(th) - L;
        const double x1 = sqrt(dx1 * dx1 + dy1 * dy1) - La1;
        assert_true(fabs(x[0] - x0) < 1e-12);
        assert_true(fabs(x[1] - x1) < 1e-12);
        double q[2] = {0, 0};
        assert_int_equal(hs_setup_pose(s, x, q), 0);
        assert_true(fabs(q[0] - u) < 1e-12 && fabs(q[1] - th) < 1e-12);
        /* Forces: actuator 1 pushes along its axis from base to pin. */
        const double f[2] = {3.0, -5.0};
        double p[2];
        hs_setup_forces(s, q, f, p);
        const double n1x = dx1 / (x1 + La1), n1y = dy1 / (x1 + La1);
        const double Fx = f[0] + f[1] * n1x;
        const double rx = -L * sin(th), ry = L * cos(th); /* pin 1 about the control point */
        const double Mz = rx * f[1] * n1y - ry * f[1] * n1x;
        assert_true(fabs(p[0] - Fx) < 1e-12);
        assert_true(fabs(p[1] - Mz) < 1e-12);
    }
    hs_setup_destroy(&s);
}

static void test_three_actuators_closed_form(void **state)
{
    (void)state;
    const double La0 = 1.5, La1 = 1.2, La2 = 1.3, L0 = 0.4, L1 = 0.6;
    hs_setup_geometry g = three_actuators(La0, La1, La2, L0, L1);
    hs_setup *s = make(&g);
    const double q[3] = {0.12, -0.08, 0.15};
    double x[3];
    hs_setup_strokes(s, q, x);
    const double c = cos(q[2]), sn = sin(q[2]);
    /* pin 0 = pin 1 at (-L0, 0) -> (u - L0 c, v - L0 s); pin 2 at (L1, 0) -> (u + L1 c, v + L1 s)
     */
    const double p0x = q[0] - L0 * c, p0y = q[1] - L0 * sn, p2x = q[0] + L1 * c,
                 p2y = q[1] + L1 * sn;
    const double x0 = hypot(p0x - (-L0 - La0), p0y) - La0;
    const double x1 = hypot(p0x + L0, p0y + La1) - La1;
    const double x2 = hypot(p2x - L1, p2y + La2) - La2;
    assert_true(fabs(x[0] - x0) < 1e-12 && fabs(x[1] - x1) < 1e-12 && fabs(x[2] - x2) < 1e-12);
    double back[3] = {0, 0, 0};
    assert_int_equal(hs_setup_pose(s, x, back), 0);
    for (int k = 0; k < 3; k++) assert_true(fabs(back[k] - q[k]) < 1e-12);
    hs_setup_destroy(&s);
}

/* Deterministic pseudo-random numbers in [-1, 1]. */
static double uniform(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return ((double)((*seed >> 8) & 0xffffff) / (double)0xffffff) * 2.0 - 1.0;
}

/* Round trips, the force resultant from the actuators' force vectors, virtual work and the
 * inverse force map, at n random poses within +-umax and +-rmax. */
static void check_setup(const hs_setup_geometry *g, double umax, double rmax, int n)
{
    hs_setup *s = make(g);
    const int na = g->nact, nd = g->ndof;
    unsigned seed = 7u;
    double worst_trip = 0.0, worst_force = 0.0, worst_work = 0.0, worst_inverse = 0.0;
    for (int c = 0; c < n; c++) {
        double q[6], x[HS_SETUP_MAX_ACT], back[6] = {0};
        for (int k = 0; k < nd; k++) q[k] = uniform(&seed) * (g->dof[k] < 3 ? umax : rmax);
        hs_setup_strokes(s, q, x);
        assert_int_equal(hs_setup_pose(s, x, back), 0);
        for (int k = 0; k < nd; k++) worst_trip = fmax(worst_trip, fabs(back[k] - q[k]));
        /* resultant by hand: R p_i, the axis from base to pin, sum of forces and moments */
        double f[HS_SETUP_MAX_ACT], p[6], pose[6] = {0}, F[3] = {0}, M[3] = {0};
        for (int i = 0; i < na; i++) f[i] = 10.0 * uniform(&seed);
        hs_setup_forces(s, q, f, p);
        for (int k = 0; k < nd; k++) pose[g->dof[k]] = q[k];
        const double ca = cos(pose[3]), sa = sin(pose[3]), cb = cos(pose[4]), sb = sin(pose[4]);
        const double cg = cos(pose[5]), sg = sin(pose[5]);
        const double R[3][3] = {{cg * cb, cg * sb * sa - sg * ca, cg * sb * ca + sg * sa},
                                {sg * cb, sg * sb * sa + cg * ca, sg * sb * ca - cg * sa},
                                {-sb, cb * sa, cb * ca}};
        for (int i = 0; i < na; i++) {
            double r[3], v[3];
            for (int j = 0; j < 3; j++)
                r[j] = g->nl_geom ? R[j][0] * g->pin[i][0] + R[j][1] * g->pin[i][1] +
                                        R[j][2] * g->pin[i][2]
                                  : g->pin[i][j];
            for (int j = 0; j < 3; j++)
                v[j] = g->nl_geom ? pose[j] + r[j] - g->base[i][j] : g->pin[i][j] - g->base[i][j];
            const double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            double fv[3];
            for (int j = 0; j < 3; j++) fv[j] = f[i] * v[j] / l;
            for (int j = 0; j < 3; j++) F[j] += fv[j];
            M[0] += r[1] * fv[2] - r[2] * fv[1];
            M[1] += r[2] * fv[0] - r[0] * fv[2];
            M[2] += r[0] * fv[1] - r[1] * fv[0];
        }
        for (int k = 0; k < nd; k++) {
            const int d = g->dof[k];
            worst_force = fmax(worst_force, fabs(p[k] - (d < 3 ? F[d] : M[d - 3])));
        }
        /* virtual work in 2-D (one rotation): p . dq = f . dx, dx from central differences */
        if (nd <= 3 && g->dof[nd - 1] != HS_POSE_RX && g->dof[nd - 1] != HS_POSE_RY) {
            for (int k = 0; k < nd; k++) {
                const double h = 1e-6;
                double qp[6], qm[6], xp[HS_SETUP_MAX_ACT], xm[HS_SETUP_MAX_ACT], w = 0.0;
                memcpy(qp, q, sizeof qp);
                memcpy(qm, q, sizeof qm);
                qp[k] += h;
                qm[k] -= h;
                hs_setup_strokes(s, qp, xp);
                hs_setup_strokes(s, qm, xm);
                for (int i = 0; i < na; i++) w += f[i] * (xp[i] - xm[i]) / (2 * h);
                worst_work = fmax(worst_work, fabs(w - p[k]) / (1.0 + fabs(p[k])));
            }
        }
        double fa[HS_SETUP_MAX_ACT], p2[6];
        assert_int_equal(hs_setup_actuator_forces(s, q, p, fa), 0);
        hs_setup_forces(s, q, fa, p2);
        for (int k = 0; k < nd; k++) worst_inverse = fmax(worst_inverse, fabs(p2[k] - p[k]));
    }
    print_message("    nact %d ndof %d nl %d: round trip %.2e, resultant %.2e, work %.2e, inverse "
                  "%.2e\n",
                  na, nd, g->nl_geom, worst_trip, worst_force, worst_work, worst_inverse);
    assert_true(worst_trip < 1e-12);
    assert_true(worst_force < 1e-12);
    assert_true(worst_work < 1e-7); /* central differences, h = 1e-6 */
    assert_true(worst_inverse < 1e-12);
    hs_setup_destroy(&s);
}

static void test_round_trips_and_equilibrium(void **state)
{
    (void)state;
    hs_setup_geometry g2 = two_actuators(2.0, 1.7, 1.1, 1);
    check_setup(&g2, 0.4, 0.3, 200);
    hs_setup_geometry g3 = three_actuators(1.5, 1.2, 1.3, 0.4, 0.6);
    check_setup(&g3, 0.2, 0.2, 200);
    hs_setup_geometry g6 = hs_test_lbcb(1);
    check_setup(&g6, 0.15, 0.1, 500);
    hs_setup_geometry l6 = hs_test_lbcb(0);
    check_setup(&l6, 0.15, 0.1, 100);
}

/* Linearised: x = J0 q exactly, whatever q; the nonlinear setup's Jacobian at rest is J0. */
static void test_linearised(void **state)
{
    (void)state;
    hs_setup_geometry gl = hs_test_lbcb(0), gn = hs_test_lbcb(1);
    hs_setup *l = make(&gl), *n = make(&gn);
    double q[6] = {0.1, -0.05, 0.02, 0.03, -0.04, 0.05}, x[6], J0[36], Jn[36], z[6] = {0};
    hs_setup_jacobian(l, q, J0);
    hs_setup_jacobian(n, z, Jn);
    hs_setup_strokes(l, q, x);
    for (int i = 0; i < 6; i++) {
        double xi = 0.0;
        for (int k = 0; k < 6; k++) {
            xi += J0[i * 6 + k] * q[k];
            assert_true(fabs(J0[i * 6 + k] - Jn[i * 6 + k]) < 1e-15);
        }
        assert_true(fabs(x[i] - xi) < 1e-15);
    }
    /* the vertical actuators see uz and the two rotations; x actuators ux and rz */
    assert_true(fabs(J0[0 * 6 + HS_POSE_UZ] - 1.0) < 1e-15);
    assert_true(fabs(J0[3 * 6 + HS_POSE_RZ] - 0.45) < 1e-15); /* pin y -0.45: -(-0.45) */
    hs_setup_destroy(&l);
    hs_setup_destroy(&n);
}

static void test_refusals(void **state)
{
    (void)state;
    hs_setup *s = NULL;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_setup_geometry g = two_actuators(2.0, 1.7, 1.1, 1);
    memcpy(g.base[1], g.pin[1], sizeof g.base[1]);
    assert_int_equal(hs_setup_create(ctx, &g, &s), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "actuator 2 has its base and platform pins"));
    g = two_actuators(2.0, 1.7, 0.0, 1); /* both actuators on one line: rz is free */
    assert_int_equal(hs_setup_create(ctx, &g, &s), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "do not fix every control DOF"));
    g = two_actuators(2.0, 1.7, 1.1, 1);
    g.dof[1] = HS_POSE_UX;
    assert_int_equal(hs_setup_create(ctx, &g, &s), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "ux is listed twice"));
    assert_null(s);
    hs_ctx_destroy(&ctx);
}

/* Strokes that no pose reaches (the horizontal actuator shorter than its own base distance
 * allows): the forward solve says so and leaves q alone. */
static void test_unreachable(void **state)
{
    (void)state;
    hs_setup_geometry g = two_actuators(2.0, 1.7, 1.1, 1);
    hs_setup *s = make(&g);
    const double x[2] = {0.0, 5.0}; /* actuator 1 five metres longer with actuator 0 at rest */
    double q[2] = {0.01, 0.02};
    int rc = hs_setup_pose(s, x, q);
    if (rc == 0) { /* a pose was found: it must reproduce the strokes */
        double xq[2];
        hs_setup_strokes(s, q, xq);
        assert_true(fabs(xq[0] - x[0]) < 1e-9 && fabs(xq[1] - x[1]) < 1e-9);
    } else {
        assert_int_equal(rc, HS_ECONVERGE);
        assert_true(q[0] == 0.01 && q[1] == 0.02);
    }
    hs_setup_destroy(&s);
}

/* OpenFresco's named setups (hs_setup_preset) against the closed forms of their layouts, left and
 * right, at large displacement: a TwoActuators2d's second actuator L above the control point, a
 * ThreeActuators2d's horizontal actuator at (-L1, 0) (left) or (L2, 0) (right) and its vertical
 * ones under (-L1, 0) and (L2, 0). */
static void test_presets(void **state)
{
    (void)state;
    const double La1 = 2.0, La2 = 1.7, La3 = 1.4, L = 1.1, L1 = 0.4, L2 = 0.6;
    const double u = 0.15, v = -0.07, th = 0.12, c = cos(th), sn = sin(th);
    for (int right = 0; right < 2; right++) {
        const double sg = right ? -1.0 : 1.0; /* the horizontal strokes' sign */
        hs_setup_geometry g;
        memset(&g, 0, sizeof g);
        g.nl_geom = 1;
        const double two[3] = {La1, La2, L};
        assert_int_equal(hs_setup_preset(NULL, "TwoActuators2d", two, 3, right, 0, &g), 0);
        hs_setup *s = make(&g);
        double q2[2] = {u, th}, x2[2];
        hs_setup_strokes(s, q2, x2);
        const double e1 = sg * (u - L * sn) + La2, f1 = L * c - L;
        assert_true(fabs(x2[0] - sg * u) < 1e-12);
        assert_true(fabs(x2[1] - (sqrt(e1 * e1 + f1 * f1) - La2)) < 1e-12);
        hs_setup_destroy(&s);
        const double three[5] = {La1, La2, La3, L1, L2};
        assert_int_equal(hs_setup_preset(NULL, "ThreeActuators2d", three, 5, right, 0, &g), 0);
        s = make(&g);
        double q3[3] = {u, v, th}, x3[3];
        hs_setup_strokes(s, q3, x3);
        const double hx = right ? L2 : -L1; /* the horizontal actuator's pin at rest */
        const double px = u + hx * c, py = v + hx * sn;
        const double x0 = hypot(px - (hx - sg * La1), py) - La1;
        const double x1 = hypot(u - L1 * c + L1, v - L1 * sn + La2) - La2;
        const double x2b = hypot(u + L2 * c - L2, v + L2 * sn + La3) - La3;
        assert_true(fabs(x3[0] - x0) < 1e-12);
        assert_true(fabs(x3[1] - x1) < 1e-12);
        assert_true(fabs(x3[2] - x2b) < 1e-12);
        hs_setup_destroy(&s);
    }
    hs_setup_geometry g;
    memset(&g, 0, sizeof g);
    assert_int_equal(hs_setup_preset(NULL, "OneActuator", NULL, 0, 0, HS_POSE_UY, &g), 0);
    hs_setup *s = make(&g);
    double q = 0.37, x;
    hs_setup_strokes(s, &q, &x);
    assert_true(fabs(x - q) < 1e-15);
    hs_setup_destroy(&s);
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    assert_int_equal(hs_setup_preset(ctx, "FiveActuators", NULL, 0, 0, 0, &g), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "TwoActuators2d"));
    const double two[2] = {1, 2};
    assert_int_equal(hs_setup_preset(ctx, "TwoActuators2d", two, 2, 0, 0, &g), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "expected 3 lengths La1 La2 L (got 2)"));
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_actuators_closed_form),
        cmocka_unit_test(test_three_actuators_closed_form),
        cmocka_unit_test(test_round_trips_and_equilibrium),
        cmocka_unit_test(test_linearised),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_unreachable),
        cmocka_unit_test(test_presets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
