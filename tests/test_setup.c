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
#include "hs_setup_check.h"
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

static void test_round_trips_and_equilibrium(void **state)
{
    (void)state;
    hs_setup_geometry g2 = two_actuators(2.0, 1.7, 1.1, 1);
    hs_test_setup_check(&g2, 0.4, 0.3, 200);
    hs_setup_geometry g3 = three_actuators(1.5, 1.2, 1.3, 0.4, 0.6);
    hs_test_setup_check(&g3, 0.2, 0.2, 200);
    hs_setup_geometry g6 = hs_test_lbcb(1);
    hs_test_setup_check(&g6, 0.15, 0.1, 500);
    hs_setup_geometry l6 = hs_test_lbcb(0);
    hs_test_setup_check(&l6, 0.15, 0.1, 100);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_actuators_closed_form),
        cmocka_unit_test(test_three_actuators_closed_form),
        cmocka_unit_test(test_round_trips_and_equilibrium),
        cmocka_unit_test(test_linearised),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_unreachable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
