/* OpenFresco's named setups (hs_setup_preset, src/lab/setup_presets.c) against the closed forms
 * of their strokes at large displacement (0.15 m, 0.12 rad), left and right, to 1e-12. The
 * closed forms are the expressions OpenFresco's setups evaluate (SRC/experimentalSetup/ES*.cpp,
 * transfTrialDisp with nlGeom 1, read for their facts and written here in the expSetup command's
 * 1-based length names); each preset then passes the round-trip, resultant, virtual-work and
 * inverse-force checks of every setup, and phiLocX turns a setup as OpenFresco's rotLocX does. */
#include "hs_test.h"

#include "hs_setup_check.h"
#include "hysim/setup.h"

#include <math.h>
#include <string.h>

static const double u = 0.15, v = -0.07, th = 0.12;

static hs_setup *preset(const char *type, const double *p, int np, int right, double phi)
{
    hs_setup_geometry g;
    memset(&g, 0, sizeof g);
    g.nl_geom = 1;
    assert_int_equal(hs_setup_preset_turned(NULL, type, p, np, right, 0, phi, &g), 0);
    hs_setup *s = NULL;
    assert_int_equal(hs_setup_create(NULL, &g, &s), 0);
    hs_test_setup_check(&g, 0.15, 0.12, 100);
    return s;
}

static void expect(hs_setup *s, const double *q, const double *want, int n)
{
    double x[HS_SETUP_MAX_ACT];
    hs_setup_strokes(s, q, x);
    for (int i = 0; i < n; i++) HS_ASSERT_NEAR(x[i], want[i], 1e-12);
    hs_setup_destroy(&s);
}

/* TwoActuators2d: a horizontal actuator at the control point, the second L above it. */
static void test_two_actuators_2d(void **state)
{
    (void)state;
    const double La1 = 2.0, La2 = 1.7, L = 1.1, c = cos(th), sn = sin(th);
    for (int right = 0; right < 2; right++) {
        const double sg = right ? -1.0 : 1.0, p[3] = {La1, La2, L};
        const double e1 = sg * (u - L * sn) + La2, f1 = L * c - L;
        const double q[2] = {u, th}, want[2] = {sg * u, sqrt(e1 * e1 + f1 * f1) - La2};
        expect(preset("TwoActuators2d", p, 3, right, NAN), q, want, 2);
    }
}

/* ThreeActuators2d (and InvertedVBrace2d): OpenFresco's ESThreeActuators2d with lengths
 * La1 La2 La3 L1 L2. */
static void test_three_actuators_2d(void **state)
{
    (void)state;
    const double La1 = 1.5, La2 = 1.2, La3 = 1.3, L1 = 0.4, L2 = 0.6, c = cos(th), s = sin(th);
    const double p[5] = {La1, La2, La3, L1, L2}, q[3] = {u, v, th};
    for (int right = 0; right < 2; right++) {
        double want[3];
        want[0] = right ? hypot(u - L2 * (1 - c) - La1, v + L2 * s) - La1
                        : hypot(u + L1 * (1 - c) + La1, v - L1 * s) - La1;
        want[1] = hypot(u + L1 * (1 - c), v - L1 * s + La2) - La2;
        want[2] = hypot(u - L2 * (1 - c), v + L2 * s + La3) - La3;
        expect(preset("ThreeActuators2d", p, 5, right, NAN), q, want, 3);
        expect(preset("InvertedVBrace2d", p, 5, right, NAN), q, want, 3);
    }
}

/* ThreeActuatorsJntOff2d and InvertedVBraceJntOff2d: La1 La2 La3 L1 .. L6 (OpenFresco's
 * ES...JntOff2d: the horizontal actuator L1 + L2 left of the control point, the vertical ones at
 * (-L2, -L5) and (L3, -L6)). */
static void test_joint_offsets_2d(void **state)
{
    (void)state;
    const double La1 = 1.5, La2 = 1.2, La3 = 1.3, L1 = 0.2, L2 = 0.4, L3 = 0.6, L4 = 0.25;
    const double L5 = 0.15, L6 = 0.1, c = cos(th), s = sin(th);
    const double R0 = hypot(L2, L5), a0 = atan2(L5, L2), R1 = hypot(L3, L6), a1 = atan2(L6, L3);
    const double p[9] = {La1, La2, La3, L1, L2, L3, L4, L5, L6}, q[3] = {u, v, th};
    for (int right = 0; right < 2; right++) {
        double want[3];
        want[0] = right ? hypot(u + (L3 + L4) * c - L3 - L4 - La1, v + (L3 + L4) * s) - La1
                        : hypot(u - (L1 + L2) * c + L1 + L2 + La1, v - (L1 + L2) * s) - La1;
        want[1] = hypot(u - R0 * cos(a0 + th) + L2, v - R0 * sin(a0 + th) + La2 + L5) - La2;
        want[2] = hypot(u + R1 * cos(th - a1) - L3, v + R1 * sin(th - a1) + La3 + L6) - La3;
        expect(preset("ThreeActuatorsJntOff2d", p, 9, right, NAN), q, want, 3);
        expect(preset("InvertedVBraceJntOff2d", p, 9, right, NAN), q, want, 3);
    }
    /* with no offsets it is ThreeActuators2d */
    const double p0[9] = {La1, La2, La3, 0, L2, L3, 0, 0, 0}, p5[5] = {La1, La2, La3, L2, L3};
    double x0[3];
    hs_setup *s0 = preset("ThreeActuatorsJntOff2d", p0, 9, 0, NAN);
    hs_setup_strokes(s0, q, x0);
    hs_setup_destroy(&s0);
    expect(preset("ThreeActuators2d", p5, 5, 0, NAN), q, x0, 3);
}

/* ThreeActuators (La1 La2 La3 L1 L2 L3: the pins L3 above the control point) and
 * ThreeActuatorsJntOff (La1 La2 La3 L1 .. L7), OpenFresco's ESThreeActuators(JntOff). */
static void test_raised_control_point(void **state)
{
    (void)state;
    const double La1 = 1.5, La2 = 1.2, La3 = 1.3, L1 = 0.4, L2 = 0.6, L3 = 0.3, c = cos(th);
    const double s = sin(th), q[3] = {u, v, th};
    const double p[6] = {La1, La2, La3, L1, L2, L3};
    for (int right = 0; right < 2; right++) {
        double want[3];
        want[0] = right ? hypot(u - L2 * (1 - c) - L3 * s - La1, v + L2 * s - L3 * (1 - c)) - La1
                        : hypot(u + L1 * (1 - c) - L3 * s + La1, v - L1 * s - L3 * (1 - c)) - La1;
        want[1] = hypot(u + L1 * (1 - c) - L3 * s, v - L1 * s - L3 * (1 - c) + La2) - La2;
        want[2] = hypot(u - L2 * (1 - c) - L3 * s, v + L2 * s - L3 * (1 - c) + La3) - La3;
        expect(preset("ThreeActuators", p, 6, right, NAN), q, want, 3);
    }
    const double J[7] = {0.2, 0.4, 0.6, 0.25, 0.1, 0.35, 0.05}; /* L1 .. L7 */
    const double pj[10] = {La1, La2, La3, J[0], J[1], J[2], J[3], J[4], J[5], J[6]};
    const double h = J[5], h1 = h - J[4], h2 = h - J[6];
    for (int right = 0; right < 2; right++) {
        double want[3];
        const double a = J[0] + J[1], b = J[2] + J[3];
        want[0] = right ? hypot(u - b * (1 - c) - h * s - La1, v + b * s - h * (1 - c)) - La1
                        : hypot(u + a * (1 - c) - h * s + La1, v - a * s - h * (1 - c)) - La1;
        want[1] = hypot(u + J[1] * (1 - c) - h1 * s, v - J[1] * s - h1 * (1 - c) + La2) - La2;
        want[2] = hypot(u - J[2] * (1 - c) - h2 * s, v + J[2] * s - h2 * (1 - c) + La3) - La3;
        expect(preset("ThreeActuatorsJntOff", pj, 10, right, NAN), q, want, 3);
    }
}

/* FourActuators3d (its rotations a rotation vector, as OpenFresco's tilt) against OpenFresco's
 * strokes at a large pose (0.15, 0.04 in translation, a tilt of 0.39 rad), not turned and turned
 * by phiLocX 30, with its 9 lengths and with OpenFresco's 16 (the spreader beam's and rods' seven
 * place no actuator). */
static void test_four_actuators_3d(void **state)
{
    (void)state;
    const double L[4] = {1.6, 1.5, 1.4, 1.3}, a[4] = {0.3, 0.25, 0.35, 0.2}, h = 0.9;
    const double p[16] = {L[0], L[1], L[2], L[3], a[0], a[1], a[2], a[3], h, 1, 2, 3, 4, 5, 6, 7};
    const double q[4] = {u, 0.04, 0.25, -0.3};
    for (int turned = 0; turned < 2; turned++) {
        double want[4];
        hs_test_openfresco_four_actuators(L, a, h, turned ? 30.0 : 0.0, q, want);
        expect(preset("FourActuators3d", p, 9, 0, turned ? 30.0 : 0.0), q, want, 4);
        expect(preset("FourActuators3d", p, 16, 0, turned ? 30.0 : 0.0), q, want, 4);
    }
    /* the tilt about one axis (OpenFresco's d2 = 0 branch: alpha = +-pi/2) */
    const double q2[4] = {-u, 0.04, 0.0, 0.35};
    double want[4];
    hs_test_openfresco_four_actuators(L, a, h, 0.0, q2, want);
    expect(preset("FourActuators3d", p, 9, 0, 0.0), q2, want, 4);
}

/* phiLocX: OpenFresco's 2-D setups take d = R(phi) u into their axes (rotLocX), so a turned
 * setup at (u, v, th) has the strokes of the unturned one at (R(phi) (u, v), th), at any
 * rotation; FourActuators3d takes d = R(-phi) u, so at a translation its strokes are the
 * unturned ones at R(-phi) (u, v). */
static void test_turned(void **state)
{
    (void)state;
    const double phi = 30.0, r = phi * (3.14159265358979323846 / 180.0), c = cos(r), s = sin(r);
    const double p[9] = {1.5, 1.2, 1.3, 0.2, 0.4, 0.6, 0.25, 0.15, 0.1};
    const double q[3] = {u, v, th}, qd[3] = {c * u - s * v, s * u + c * v, th};
    double x[3];
    hs_setup *s0 = preset("ThreeActuatorsJntOff2d", p, 9, 1, 0.0);
    hs_setup_strokes(s0, qd, x);
    hs_setup_destroy(&s0);
    expect(preset("ThreeActuatorsJntOff2d", p, 9, 1, phi), q, x, 3);
    const double p4[9] = {1.6, 1.5, 1.4, 1.3, 0.3, 0.25, 0.35, 0.2, 0.9};
    const double r45 = 45.0 * (3.14159265358979323846 / 180.0), c4 = cos(r45), s4 = sin(r45);
    const double t[4] = {u, v, 0, 0}, td[4] = {c4 * u + s4 * v, -s4 * u + c4 * v, 0, 0};
    double x4[4];
    s0 = preset("FourActuators3d", p4, 9, 0, 0.0);
    hs_setup_strokes(s0, td, x4);
    hs_setup_destroy(&s0);
    expect(preset("FourActuators3d", p4, 9, 0, NAN), t, x4, 4); /* the default: 45 */
}

static void test_refusals(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_setup_geometry g;
    memset(&g, 0, sizeof g);
    assert_int_equal(hs_setup_preset(ctx, "FiveActuators", NULL, 0, 0, 0, &g), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "ThreeActuatorsJntOff2d"));
    const double two[3] = {1, 2, 1};
    assert_int_equal(hs_setup_preset(ctx, "TwoActuators2d", two, 2, 0, 0, &g), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "expected 3 lengths La1 La2 L (got 2)"));
    assert_int_equal(hs_setup_preset_turned(ctx, "TwoActuators2d", two, 3, 0, 0, 10.0, &g),
                     HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "does not turn"));
    const double four[10] = {1, 1, 1, 1, 0.1, 0.1, 0.1, 0.1, 1, 1};
    assert_int_equal(hs_setup_preset(ctx, "FourActuators3d", four, 10, 0, 0, &g), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "expected 9 or 16 lengths"));
    const double neg[5] = {1.5, -1.2, 1.3, 0.4, 0.6};
    assert_int_equal(hs_setup_preset(ctx, "ThreeActuators2d", neg, 5, 0, 0, &g), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "length 2 of La1 La2 La3 L1 L2 is -1.2"));
    assert_string_equal(hs_setup_preset_lengths("ThreeActuators"), "La1 La2 La3 L1 L2 L3");
    assert_null(hs_setup_preset_lengths("ESAggregator"));
    /* OneActuator: along its DOF, the stroke is the displacement */
    memset(&g, 0, sizeof g);
    assert_int_equal(hs_setup_preset(NULL, "OneActuator", NULL, 0, 0, HS_POSE_UY, &g), 0);
    hs_setup *s = NULL;
    assert_int_equal(hs_setup_create(NULL, &g, &s), 0);
    double q = 0.37, x;
    hs_setup_strokes(s, &q, &x);
    HS_ASSERT_NEAR(x, q, 1e-15);
    hs_setup_destroy(&s);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_actuators_2d),  cmocka_unit_test(test_three_actuators_2d),
        cmocka_unit_test(test_joint_offsets_2d),  cmocka_unit_test(test_raised_control_point),
        cmocka_unit_test(test_four_actuators_3d), cmocka_unit_test(test_turned),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
