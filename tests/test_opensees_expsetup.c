/* OpenFresco's expSetup with actuators in hysim's Tcl front end (src/opensees/
 * opensees_tcl_expsetup.c, docs/openfresco.md "Setups"), with scripts written here. A control
 * point (node 2, free in x, y, rz) is held by an expElement twoNodeLink from a fixed node at
 * the same place (-dir 1 2 3: its basic DOFs are node 2's displacements) on a LocalSite of
 * SimUniaxialMaterials with one Elastic material per actuator, E_i = 100 i; the model's restoring
 * force at a large pose d is the element's basic force q(d):
 *  - TwoActuators2d, left and right, -nlGeom and linear: q against OpenFresco's closed forms of
 *    its strokes (ESTwoActuators2d.cpp transfTrialDisp: x1 = d0, x2 = sqrt((d0 - L sin d2 +
 *    La2)^2 + (L cos d2 - L)^2) - La2 on the left; x2 = d0 - L d2 linear) with the actuator
 *    forces' virtual work q = (dx/dd)^T f, f_i = E_i x_i, to 1e-12; the tangent J^T diag(E) J
 *    when linear, and with -nlGeom the force's derivative with its geometric term (central
 *    differences, 1e-8);
 *  - every other setup's argument order (ThreeActuators2d with -posAct1 and -phiLocX,
 *    InvertedVBrace2d, the joint-offset forms, ThreeActuators and ThreeActuatorsJntOff with their
 *    DOF lists): q equals the force of the setup the test file's `setup: {type: ...}` key makes
 *    from the same lengths (hs_setup_preset_turned, already checked against closed-form geometry
 *    in test_setup_presets.c) through hs_setup_strokes and hs_setup_forces, to 1e-12;
 *  - NoTransformation -dof 2 1 is the numerical twoNodeLink -mat m1 m2 -dir 2 1: the same
 *    restoring force bit for bit;
 *  - expElement generic on node 2 (EEGeneric.cpp: the listed DOFs' absolute displacements) is
 *    the link from the fixed node at its place, bit for bit, through ThreeActuators2d and
 *    through NoTransformation (with another node's undriven DOF in its list), and its
 *    -initStif block over node 2 is its initial stiffness; over two nodes (EEGeneric: any DOFs
 *    of any nodes) it is the grounded links of its materials bit for bit, its -initStif coupling
 *    the nodes exactly its initial stiffness, and through ThreeActuators2d with its pose on DOFs
 *    of both nodes the setup's resultant at that pose to 1e-12;
 *  - FourActuators3d on a 3-D column top's six DOFs: the strokes are OpenFresco's closed form
 *    (ESFourActuators3d.cpp) at a large tilt to 1e-12, with and without -nlGeom, and give the
 *    pose back; Aggregator of setups without geometry is the link of the concatenation, its
 *    factors times its setups';
 *  - the refusals (sizes, material counts, factors on a geometry, lengths, an Aggregator of a
 *    platform) name SCRIPT:LINE and say what to do. */
#include "hs_output.h"
#include "hs_setup_check.h"
#include "hs_test.h"
#include "hs_tcl_def.h"

#include "hysim/setup.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define HEAD                                                                                       \
    "model BasicBuilder -ndm 2 -ndf 3\n"                                                           \
    "node 1 0 0; node 2 0 0 -mass 1 1 1\n"                                                         \
    "fix 1 1 1 1\n"                                                                                \
    "uniaxialMaterial Elastic 1 100; uniaxialMaterial Elastic 2 200\n"                             \
    "uniaxialMaterial Elastic 3 300\n"

static const char *BODY = "structure:\n  model: {opensees: frame.tcl}\n  damping: {none: true}\n";

static hs_test_def *load(hs_ctx *ctx, const char *dir, const char *tcl)
{
    hs_tcl_write_file(dir, "frame.tcl", tcl);
    char msg[2048];
    hs_test_def *def = hs_tcl_load(ctx, dir, "setup", BODY, msg, sizeof msg);
    if (!def) fprintf(stderr, "%s\n%s\n", tcl, msg);
    assert_non_null(def);
    return def;
}

/* The model's restoring force at node 2's displacement d (3), and its tangent (3 x 3,
 * column-major) when Kt is not NULL. */
static void restoring_tangent(hs_ctx *ctx, const char *dir, const char *tcl, const double *d,
                              double *r, double *Kt)
{
    hs_test_def *def = load(ctx, dir, tcl);
    assert_int_equal(hs_model_ndof(def->model), 3);
    assert_int_equal(hs_model_restore(def->model, d, NULL, r, Kt, NULL), 0);
    hs_test_def_destroy(&def);
}

static void restoring(hs_ctx *ctx, const char *dir, const char *tcl, const double *d, double *r)
{
    restoring_tangent(ctx, dir, tcl, d, r, NULL);
}

static const double POSE[3] = {0.15, -0.1, 0.12}; /* ux, uy, rz (rad): a large displacement */

/* OpenFresco's TwoActuators2d, La1 = 2, La2 = 1.7, L = 1.1 */
static void test_two_actuators_closed_form(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_expsetup");
    const double La2 = 1.7, L = 1.1, d0 = POSE[0], t = POSE[2];
    for (int right = 0; right < 2; right++)
        for (int nl = 0; nl < 2; nl++) {
            char tcl[2048];
            snprintf(tcl, sizeof tcl,
                     HEAD "expControl SimUniaxialMaterials 1 1 2\n"
                          "expSetup TwoActuators2d 1 -control 1 2.0 1.7 1.1%s%s\n"
                          "expSite LocalSite 1 1\n"
                          "expElement twoNodeLink 1 1 2 -dir 1 2 3 -site 1\n",
                     nl ? " -nlGeom" : "", right ? " -posAct right" : "");
            double r[3], Kt[9];
            restoring_tangent(ctx, dir, tcl, POSE, r, Kt);
            /* strokes and dx/dd (rows over d0, d2) */
            const double s = right ? -1.0 : 1.0, a = s * (d0 - L * sin(t)) + La2,
                         b = L * cos(t) - L, len = sqrt(a * a + b * b);
            const double x[2] = {s * d0, nl ? len - La2 : s * (d0 - L * t)};
            const double J[2][2] = {
                {s, 0.0},
                {nl ? s * a / len : s, nl ? (-s * a * L * cos(t) - b * L * sin(t)) / len : -s * L}};
            const double f[2] = {100.0 * x[0], 200.0 * x[1]};
            const double q0 = J[0][0] * f[0] + J[1][0] * f[1], q2 = J[0][1] * f[0] + J[1][1] * f[1];
            HS_ASSERT_NEAR(r[0], q0, 1e-12 * fabs(q0));
            HS_ASSERT_NEAR(r[1], 0.0, 0.0); /* uy: no actuator, no force */
            HS_ASSERT_NEAR(r[2], q2, 1e-12 * fabs(q2));
            /* the tangent: J^T diag(E) J over (d0, d2) for the linear setup; with -nlGeom the
             * derivative of the force, its geometric term included: central differences */
            const double E[2] = {100.0, 200.0};
            for (int p = 0; p < 2; p++)
                for (int q = 0; q < 2; q++) {
                    double k = E[0] * J[0][p] * J[0][q] + E[1] * J[1][p] * J[1][q], tol = 1e-12;
                    if (nl) {
                        const double h = 1e-6;
                        double dp[3], dm[3], rp[3], rm[3];
                        memcpy(dp, POSE, sizeof dp);
                        memcpy(dm, POSE, sizeof dm);
                        dp[2 * q] += h;
                        dm[2 * q] -= h;
                        restoring(ctx, dir, tcl, dp, rp);
                        restoring(ctx, dir, tcl, dm, rm);
                        k = (rp[2 * p] - rm[2 * p]) / (2.0 * h);
                        tol = 1e-8;
                    }
                    HS_ASSERT_NEAR(Kt[2 * q * 3 + 2 * p], k, tol * 300.0 * (1.0 + L * L));
                }
        }
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

/* The basic forces q (3) of Elastic actuators E_i = 100 i at pose (3) on the test file's setup
 * hs_setup_preset_turned(preset, len, right, phi) (nl: nl_geom); returns the largest |q|. */
static double preset_forces(hs_ctx *ctx, const char *preset, const double *len, int nlen, int right,
                            double phi, int nl, const double *pose, double *q)
{
    hs_setup_geometry g = {.nl_geom = nl};
    assert_int_equal(hs_setup_preset_turned(ctx, preset, len, nlen, right, 0, phi, &g), 0);
    hs_setup *s = NULL;
    assert_int_equal(hs_setup_create(ctx, &g, &s), 0);
    double x[3], f[3];
    hs_setup_strokes(s, pose, x);
    for (int i = 0; i < 3; i++) f[i] = 100.0 * (i + 1) * x[i];
    hs_setup_forces(s, pose, f, q);
    hs_setup_destroy(&s);
    return fmax(fabs(q[0]), fmax(fabs(q[1]), fabs(q[2])));
}

/* The setup `expSetup TYPE 1 -control 1 ARGS` against hs_setup_preset_turned(preset, len). */
static void check_preset(hs_ctx *ctx, const char *dir, const char *type, const char *args,
                         const char *preset, const double *len, int nlen, int right, double phi,
                         int nl, const int *dofs)
{
    char tcl[2048];
    snprintf(tcl, sizeof tcl,
             HEAD "expControl SimUniaxialMaterials 1 1 2 3\n"
                  "expSetup %s 1 -control 1 %s\n"
                  "expSite LocalSite 1 1\n"
                  "expElement twoNodeLink 1 1 2 -dir 1 2 3 -site 1\n",
             type, args);
    /* the element's basic DOFs (twoNodeLink -dir 1 2 3, zero length: global x, y, rz) in the
     * order of the setup's control DOFs ux, uy, rz: dofs[k] */
    double d[3], r[3];
    for (int k = 0; k < 3; k++) d[dofs[k]] = POSE[k];
    restoring(ctx, dir, tcl, d, r);
    double q[3];
    const double big = preset_forces(ctx, preset, len, nlen, right, phi, nl, POSE, q);
    for (int k = 0; k < 3; k++) HS_ASSERT_NEAR(r[dofs[k]], q[k], 1e-12 * big);
}

static void test_setups_as_the_test_file_makes_them(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_expsetup");
    static const int XYR[3] = {0, 1, 2}, YXR[3] = {1, 0, 2};
    const double l5[5] = {2.0, 1.5, 1.6, 0.9, 1.3};
    const double l9[9] = {2.0, 1.5, 1.6, 0.3, 0.9, 1.1, 0.4, 0.2, 0.25};
    const double l6[6] = {2.0, 1.5, 1.6, 0.9, 1.3, 0.5};
    const double l10[10] = {2.0, 1.5, 1.6, 0.3, 0.9, 1.1, 0.4, 0.2, 0.6, 0.25};
    check_preset(ctx, dir, "ThreeActuators2d", "2.0 1.5 1.6 0.9 1.3 -nlGeom", "ThreeActuators2d",
                 l5, 5, 0, 0.0, 1, XYR);
    check_preset(ctx, dir, "ThreeActuators2d", "2.0 1.5 1.6 0.9 1.3 -posAct1 right -phiLocX 30",
                 "ThreeActuators2d", l5, 5, 1, 30.0, 0, XYR);
    check_preset(ctx, dir, "ThreeActuators2d",
                 "2.0 1.5 1.6 0.9 1.3 -phiLocX -20 -nlGeom -posAct1 r", "ThreeActuators2d", l5, 5,
                 1, -20.0, 1, XYR);
    check_preset(ctx, dir, "InvertedVBrace2d", "2.0 1.5 1.6 0.9 1.3 -nlGeom", "InvertedVBrace2d",
                 l5, 5, 0, 0.0, 1, XYR);
    check_preset(ctx, dir, "ThreeActuatorsJntOff2d",
                 "2.0 1.5 1.6 0.3 0.9 1.1 0.4 0.2 0.25 -nlGeom -posAct1 right -phiLocX 30",
                 "ThreeActuatorsJntOff2d", l9, 9, 1, 30.0, 1, XYR);
    check_preset(ctx, dir, "InvertedVBraceJntOff2d", "2.0 1.5 1.6 0.3 0.9 1.1 0.4 0.2 0.25",
                 "InvertedVBraceJntOff2d", l9, 9, 0, 0.0, 0, XYR);
    /* the 3-D element forms: the DOFs of the trial vector that ux, uy, rz stand for */
    check_preset(ctx, dir, "ThreeActuators", "2 1 3 3 3 2.0 1.5 1.6 0.9 1.3 0.5 -nlGeom",
                 "ThreeActuators", l6, 6, 0, 0.0, 1, YXR);
    check_preset(ctx, dir, "ThreeActuatorsJntOff",
                 "1 2 3 3 3 2.0 1.5 1.6 0.3 0.9 1.1 0.4 0.2 0.6 0.25 -nlGeom -posAct1 right",
                 "ThreeActuatorsJntOff", l10, 10, 1, 0.0, 1, XYR);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

static void test_no_transformation_is_the_link(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_expsetup");
    const char *exp = HEAD "uniaxialMaterial Steel01 4 0.05 300 0.02\n"
                           "expControl SimUniaxialMaterials 1 4 2\n"
                           "expSetup NoTransformation 1 -control 1 -dof 2 1 -sizeTrialOut 3 3\n"
                           "expSite LocalSite 1 1\n"
                           "expElement twoNodeLink 1 1 2 -dir 1 2 3 -site 1\n";
    const char *num = HEAD "uniaxialMaterial Steel01 4 0.05 300 0.02\n"
                           "element twoNodeLink 1 1 2 -mat 4 2 -dir 2 1\n";
    double re[3], rn[3];
    restoring(ctx, dir, exp, POSE, re);
    restoring(ctx, dir, num, POSE, rn);
    assert_memory_equal(re, rn, sizeof re);
    HS_ASSERT_NEAR(re[0], 200.0 * POSE[0], 1e-13); /* axial: material 2 */
    HS_ASSERT_NEAR(re[1], -0.05 - 0.02 * 300.0 * (-POSE[1] - 0.05 / 300.0), 1e-13); /* yielded */
    HS_ASSERT_NEAR(re[2], 0.0, 0.0);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

/* expElement generic: its basic DOFs are the listed DOFs' absolute displacements, so on node 2
 * it is the link from a fixed node at node 2's place: through ThreeActuators2d -nlGeom, and
 * through NoTransformation on two of node 2's listed DOFs (node 1's listed DOF undriven), with
 * its -initStif block of node 2. */
static void test_generic_is_the_grounded_link(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_expsetup");
#define THREE                                                                                      \
    HEAD "expControl SimUniaxialMaterials 1 1 2 3\n"                                               \
         "expSetup ThreeActuators2d 1 -control 1 2.0 1.5 1.6 0.9 1.3 -nlGeom\n"                    \
         "expSite LocalSite 1 1\n"
    double rg[3], rl[3];
    restoring(ctx, dir, THREE "expElement generic 7 -node 2 -dof 1 2 3 -site 1\n", POSE, rg);
    restoring(ctx, dir, THREE "expElement twoNodeLink 7 1 2 -dir 1 2 3 -site 1\n", POSE, rl);
    assert_memory_equal(rg, rl, sizeof rg);
    assert_true(fabs(rg[0]) > 1.0 && fabs(rg[1]) > 1.0 && fabs(rg[2]) > 1.0);
    /* basic DOFs [node 1 ux, node 2 uy, node 2 ux]; actuators on basic 2 and 3 */
    const char *exp = HEAD "uniaxialMaterial Steel01 4 0.05 300 0.02\n"
                           "expControl SimUniaxialMaterials 1 4 2\n"
                           "expSetup NoTransformation 1 -control 1 -dof 2 3 -sizeTrialOut 3 3\n"
                           "expSite LocalSite 1 1\n"
                           "expElement generic 7 -node 1 2 -dof 1 -dof 2 1 -site 1 "
                           "-initStif 5 0 0 0 7 2 0 2 11\n";
    const char *num = HEAD "uniaxialMaterial Steel01 4 0.05 300 0.02\n"
                           "element twoNodeLink 7 1 2 -mat 4 2 -dir 2 1\n";
    restoring(ctx, dir, exp, POSE, rg);
    restoring(ctx, dir, num, POSE, rl);
    assert_memory_equal(rg, rl, sizeof rg);
    HS_ASSERT_NEAR(rg[0], 200.0 * POSE[0], 1e-13);
    hs_test_def *def = load(ctx, dir, exp);
    double K[9];
    assert_int_equal(hs_model_initial_stiffness(def->model, K), 0);
    const double want[9] = {11, 2, 0, 2, 7, 0, 0, 0, 0}; /* over node 2's ux, uy, rz */
    for (int k = 0; k < 9; k++) HS_ASSERT_NEAR(K[k], want[k], 0.0);
    hs_test_def_destroy(&def);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

/* The model's restoring force at d (the 6 DOFs of nodes 2 and 3: ux, uy, rz each) and its
 * initial stiffness (6 x 6, column-major) when K is not NULL. */
static void restoring_two_nodes(hs_ctx *ctx, const char *dir, const char *tcl, const double *d,
                                double *r, double *K)
{
    hs_test_def *def = load(ctx, dir, tcl);
    assert_int_equal(hs_model_ndof(def->model), 6);
    assert_int_equal(hs_model_restore(def->model, d, NULL, r, NULL, NULL), 0);
    if (K) assert_int_equal(hs_model_initial_stiffness(def->model, K), 0);
    hs_test_def_destroy(&def);
}

/* expElement generic over two nodes (EEGeneric.cpp: any DOFs of any nodes, absolute): through
 * NoTransformation with actuators on DOFs of both nodes it is the grounded springs of its
 * materials, bit for bit, and its -initStif coupling the two nodes is its initial stiffness
 * exactly; through ThreeActuators2d -nlGeom whose pose is node 2's ux and node 3's uy and rz, its
 * forces are the setup's resultant at that pose (hs_setup_strokes, hs_setup_forces) to 1e-12. */
static void test_generic_over_two_nodes(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_expsetup");
#define TWO                                                                                        \
    HEAD "node 3 1 0 -mass 1 1 1; node 4 0 0; node 5 1 0\n"                                        \
         "fix 4 1 1 1; fix 5 1 1 1\n"                                                              \
         "uniaxialMaterial Steel01 4 0.05 300 0.02\n"
    const double d[6] = {0.15, -0.1, 0.12, -0.07, 0.05, 0.2}; /* node 2, node 3: ux uy rz */
    /* basic DOFs [n2 ux, n2 uy, n3 ux, n3 rz]; actuators on basic 1, 3, 4 */
    const char *exp = TWO "expControl SimUniaxialMaterials 1 4 2 3\n"
                          "expSetup NoTransformation 1 -control 1 -dof 1 3 4 -sizeTrialOut 4 4\n"
                          "expSite LocalSite 1 1\n"
                          "expElement generic 7 -node 2 3 -dof 1 2 -dof 1 3 -site 1 -initStif "
                          "50 1 -20 3  1 40 2 0  -20 2 60 -4  3 0 -4 70\n";
    const char *num = TWO "element twoNodeLink 7 4 2 -mat 4 -dir 1\n"
                          "element twoNodeLink 8 5 3 -mat 2 3 -dir 1 3\n";
    double re[6], rn[6], K[36];
    restoring_two_nodes(ctx, dir, exp, d, re, K);
    restoring_two_nodes(ctx, dir, num, d, rn, NULL);
    assert_memory_equal(re, rn, sizeof re);
    HS_ASSERT_NEAR(re[3], 200.0 * d[3], 1e-13); /* node 3 ux: material 2 */
    HS_ASSERT_NEAR(re[5], 300.0 * d[5], 1e-13); /* node 3 rz: material 3 */
    HS_ASSERT_NEAR(re[1], 0.0, 0.0);            /* node 2 uy: listed, no actuator */
    /* -initStif over [n2 ux, n2 uy, n3 ux, n3 rz] = model DOFs 0, 1, 3, 5 */
    static const int at[4] = {0, 1, 3, 5};
    const double kinit[16] = {50, 1, -20, 3, 1, 40, 2, 0, -20, 2, 60, -4, 3, 0, -4, 70};
    double want[36] = {0};
    for (int q = 0; q < 4; q++)
        for (int p = 0; p < 4; p++) want[at[q] * 6 + at[p]] = kinit[q * 4 + p];
    for (int k = 0; k < 36; k++) HS_ASSERT_NEAR(K[k], want[k], 0.0);
    /* a platform whose pose (ux, uy, rz) is node 2's ux and node 3's uy and rz */
    const char *plat = TWO "expControl SimUniaxialMaterials 1 1 2 3\n"
                           "expSetup ThreeActuators2d 1 -control 1 2.0 1.5 1.6 0.9 1.3 -nlGeom\n"
                           "expSite LocalSite 1 1\n"
                           "expElement generic 7 -node 2 3 -dof 1 -dof 2 3 -site 1\n";
    restoring_two_nodes(ctx, dir, plat, d, re, NULL);
    const double len[5] = {2.0, 1.5, 1.6, 0.9, 1.3}, pose[3] = {d[0], d[4], d[5]};
    double q[3];
    const double big = preset_forces(ctx, "ThreeActuators2d", len, 5, 0, 0.0, 1, pose, q);
    assert_true(fabs(q[0]) > 1.0 && fabs(q[1]) > 1.0 && fabs(q[2]) > 1.0);
    const double rw[6] = {q[0], 0.0, 0.0, 0.0, q[1], q[2]};
    for (int k = 0; k < 6; k++) HS_ASSERT_NEAR(re[k], rw[k], 1e-12 * big);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

/* OpenFresco's FourActuators3d (ESFourActuators3d.cpp) in a 3-D script: expElement generic on a
 * column top's six DOFs (the trial vector of 6); the setup's D = (ux, uy, phix, phiy) is minus
 * trial DOFs 2, 4, 5, 3. At a large pose the specimens' strokes (Elastic actuators, E_i = 100 i:
 * the restoring force's resultant of f_i = E_i x_i) are OpenFresco's closed form at D, to 1e-12
 * of the largest, turned by -phiLocX 30 and not; with and without -nlGeom the same (OpenFresco
 * has no linear geometry here and uses the exact one); the strokes give the pose back (the round
 * trip basic -> actuator -> basic, hs_setup_pose) to 1e-12; the tangent is the force's derivative
 * (central differences, 1e-6 of stiffnesses of 100 to 400). */
static void test_four_actuators_3d(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_expsetup");
    const double L[4] = {1.6, 1.5, 1.4, 1.3}, a[4] = {0.3, 0.25, 0.35, 0.2}, h = 0.9;
    const double d[6] = {0.02, -0.15, 0.3, 0.05, -0.25, 0.07}; /* node 2: ux uy uz rx ry rz */
    const double D[4] = {-d[1], -d[3], -d[4], -d[2]};
    for (int turned = 0; turned < 2; turned++) {
        double r[2][6];
        for (int nl = 0; nl < 2; nl++) {
            char tcl[2048];
            snprintf(tcl, sizeof tcl,
                     "model BasicBuilder -ndm 3 -ndf 6\n"
                     "node 1 0 0 0; node 2 0 0 0 -mass 1 1 1 1 1 1\n"
                     "fix 1 1 1 1 1 1 1\n"
                     "uniaxialMaterial Elastic 1 100; uniaxialMaterial Elastic 2 200\n"
                     "uniaxialMaterial Elastic 3 300; uniaxialMaterial Elastic 4 400\n"
                     "expControl SimUniaxialMaterials 1 1 2 3 4\n"
                     "expSetup FourActuators3d 1 -control 1 1.6 1.5 1.4 1.3 0.3 0.25 0.35 0.2 "
                     "0.9 0.1 0.2 0.3 0.4 0.5 0.6 0.7%s%s\n"
                     "expSite LocalSite 1 1\n"
                     "expElement generic 7 -node 2 -dof 1 2 3 4 5 6 -site 1\n",
                     nl ? " -nlGeom" : "", turned ? " -phiLocX 30" : "");
            hs_test_def *def = load(ctx, dir, tcl);
            assert_int_equal(hs_model_ndof(def->model), 6);
            double Kt[36];
            assert_int_equal(hs_model_restore(def->model, d, NULL, r[nl], Kt, NULL), 0);
            /* the tangent is the force's derivative (the geometric term included, moments over a
             * rotation vector: not symmetric): central differences */
            for (int b = 0; nl && b < 6; b++) {
                const double step = 1e-6;
                double dp[6], dm[6], rp[6], rm[6];
                memcpy(dp, d, sizeof dp);
                memcpy(dm, d, sizeof dm);
                dp[b] += step;
                dm[b] -= step;
                assert_int_equal(hs_model_restore(def->model, dp, NULL, rp, NULL, NULL), 0);
                assert_int_equal(hs_model_restore(def->model, dm, NULL, rm, NULL, NULL), 0);
                for (int c = 0; c < 6; c++)
                    HS_ASSERT_NEAR(Kt[b * 6 + c], (rp[c] - rm[c]) / (2.0 * step), 1e-6);
            }
            hs_test_def_destroy(&def);
        }
        assert_memory_equal(r[0], r[1], sizeof r[0]); /* -nlGeom or not: the exact geometry */
        double x[4], f[4], q[4];
        hs_test_openfresco_four_actuators(L, a, h, turned ? 30.0 : 0.0, D, x);
        for (int i = 0; i < 4; i++) f[i] = 100.0 * (i + 1) * x[i];
        /* the resultant of those forces on hysim's setup (checked against its actuators' force
         * vectors by hand in test_setup_presets.c), turned by 180 degrees: the trial DOFs */
        const double len[9] = {L[0], L[1], L[2], L[3], a[0], a[1], a[2], a[3], h};
        const double pose[4] = {d[1], d[3], d[4], d[2]};
        hs_setup_geometry g = {.nl_geom = 1};
        assert_int_equal(hs_setup_preset_turned(ctx, "FourActuators3d", len, 9, 0, 0,
                                                turned ? 210.0 : 180.0, &g),
                         0);
        hs_setup *s = NULL;
        assert_int_equal(hs_setup_create(ctx, &g, &s), 0);
        hs_setup_forces(s, pose, f, q);
        double back[4] = {0}, big = 0.0;
        assert_int_equal(hs_setup_pose(s, x, back), 0);
        hs_setup_destroy(&s);
        for (int k = 0; k < 4; k++) HS_ASSERT_NEAR(back[k], pose[k], 1e-12);
        for (int k = 0; k < 4; k++) big = fmax(big, fabs(q[k]));
        assert_true(big > 10.0);
        const double want[6] = {0.0, q[0], q[3], q[1], q[2], 0.0};
        for (int k = 0; k < 6; k++) HS_ASSERT_NEAR(r[1][k], want[k], 1e-12 * big);
    }
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

/* expSetup Aggregator (ESAggregator.cpp: the setups' trial vectors one after the other, their
 * actuators the control's materials in turn) of a OneActuator on its DOF 1 of 1 and a
 * NoTransformation on DOFs 2 and 1 of 2 is the link with the materials on basic DOFs 1, 3, 2,
 * bit for bit; with the aggregate's own -ctrlDispFact 2 2 2 times its setups' -ctrlDispFact 0.5
 * (OneActuator) and -trialDispFact 0.5 0.5 (NoTransformation) the same again, and with the
 * aggregate's factor alone the specimens at twice the displacement. */
static void test_aggregator(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_expsetup");
#define AGG(one, no, agg)                                                                          \
    HEAD "uniaxialMaterial Steel01 4 0.05 300 0.02\n"                                              \
         "expControl SimUniaxialMaterials 1 4 2 3\n"                                               \
         "expSetup OneActuator 2 1 -sizeTrialOut 1 1" one "\n"                                     \
         "expSetup NoTransformation 3 -dof 2 1 -sizeTrialOut 2 2" no "\n"                          \
         "expSetup Aggregator 1 -control 1 -setup 2 3" agg "\n"                                    \
         "expSite LocalSite 1 1\n"                                                                 \
         "expElement twoNodeLink 1 1 2 -dir 1 2 3 -site 1\n"
    const char *num = HEAD "uniaxialMaterial Steel01 4 0.05 300 0.02\n"
                           "element twoNodeLink 1 1 2 -mat 4 2 3 -dir 1 3 2\n";
    double ra[3], rn[3];
    restoring(ctx, dir, AGG("", "", ""), POSE, ra);
    restoring(ctx, dir, num, POSE, rn);
    assert_memory_equal(ra, rn, sizeof ra);
    HS_ASSERT_NEAR(ra[2], 200.0 * POSE[2], 1e-13); /* rz: material 2 */
    restoring(ctx, dir,
              AGG(" -ctrlDispFact 0.5", " -trialDispFact 0.5 0.5", " -ctrlDispFact 2 2 2"), POSE,
              ra);
    assert_memory_equal(ra, rn, sizeof ra);
    restoring(ctx, dir, AGG("", "", " -ctrlDispFact 2 2 2"), POSE, ra);
    HS_ASSERT_NEAR(ra[1], 300.0 * 2.0 * POSE[1], 1e-13); /* uy: material 3 at 2 uy */
    HS_ASSERT_NEAR(ra[2], 200.0 * 2.0 * POSE[2], 1e-13);
    /* an Aggregator with a setup with actuator geometry (tests/cli/openfresco_aggregator.sh):
     * each of its setups on one or two nodes */
    HS_TCL_FAILS(HEAD "node 3 0 1 -mass 1 1 1; node 4 0 2 -mass 1 1 1\n"
                      "expControl SimUniaxialMaterials 1 1 2 3 1\n"
                      "expSetup OneActuator 2 1 -sizeTrialOut 1 1\n"
                      "expSetup ThreeActuators2d 3 2.0 1.5 1.6 0.9 1.3\n"
                      "expSetup Aggregator 1 -control 1 -setup 2 3\n"
                      "expSite LocalSite 1 1\n"
                      "expElement generic 7 -node 2 3 4 -dof 3 1 -dof 2 -dof 3 -site 1\n",
                 "frame.tcl:12: expElement: generic: setup 3 (ThreeActuators2d) of the Aggregator "
                 "acts on nodes 2, 3 and 4; hysim maps a setup on one or two nodes");
    HS_TCL_FAILS(HEAD "expControl SimUniaxialMaterials 1 1\n"
                      "expSetup OneActuator 2 1 -sizeTrialOut 1 1\n"
                      "expSetup Aggregator 1 -control 1 -setup 2\n",
                 "frame.tcl:8: expSetup: -setup: expected at least two setup tags, got 1");
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

static void test_errors(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_expsetup");
#define CTRL HEAD "expControl SimUniaxialMaterials 1 1 2\n"
    /* HEAD has 5 lines, CTRL 6 */
    HS_TCL_FAILS(CTRL "expSetup FourActuators3d 1 -control 1 1 1 1 1 1 1 1 1 1\n",
                 "frame.tcl:7: expSetup: expected 16 lengths L1 L2 L3 L4 a1 a2 a3 a4 h");
    HS_TCL_FAILS(CTRL "expSetup Aggregator 1 -control 1 2 1 2\n",
                 "frame.tcl:7: expSetup: expected 'expSetup Aggregator tag <-control ctrlTag> "
                 "-setup setupTag1 setupTag2 ...'");
    HS_TCL_FAILS(CTRL "expSetup TwoActuators2d 1 -control 1 2.0 1.7\n",
                 "frame.tcl:7: expSetup: expected 3 lengths La1 La2 L after the tag and control "
                 "(got 2)");
    HS_TCL_FAILS(CTRL "expSetup TwoActuators2d 1 -control 1 2.0 1.7 1.1 -phiLocX 30\n",
                 "frame.tcl:7: expSetup: setup TwoActuators2d: phiLocX 30");
    HS_TCL_FAILS(CTRL "expSetup TwoActuators2d 1 -control 1 2.0 1.7 1.1 -posAct up\n",
                 "frame.tcl:7: expSetup: -posAct: expected left or right, got 'up'");
    HS_TCL_FAILS(CTRL "expSetup ThreeActuators2d 1 -control 1 2 1.5 1.6 0.9 1.3 -posAct right\n",
                 "frame.tcl:7: expSetup: option '-posAct' is not supported by hysim "
                 "(ThreeActuators2d knows -control, -nlGeom, -posAct1, -phiLocX)");
    HS_TCL_FAILS(CTRL "expSetup TwoActuators2d 1 -control 1 2.0 1.7 1.1 -trialDispFact 2 2 2\n",
                 "frame.tcl:7: expSetup: -trialDispFact: hysim takes no similitude factors on a "
                 "setup with actuator geometry");
    HS_TCL_FAILS(CTRL "expSetup ThreeActuators 1 -control 1 1 2 2 3 3 2 1.5 1.6 0.9 1.3 0.5\n",
                 "frame.tcl:7: expSetup: dof 2 is given twice");
    HS_TCL_FAILS(CTRL "expSetup NoTransformation 1 -control 1 -dof 1 4 -sizeTrialOut 3 3\n",
                 "frame.tcl:7: expSetup: -dof 4: expected 1 to 3");
    HS_TCL_FAILS(CTRL "expSetup NoTransformation 1 -control 1 1 2 -sizeTrialOut 3 3\n",
                 "frame.tcl:7: expSetup: expected 'expSetup NoTransformation tag <-control "
                 "ctrlTag> -dof d1 d2 ... -sizeTrialOut t o'");
    HS_TCL_FAILS(CTRL "expSetup ThreeActuators2d 1 -control 1 2 1.5 1.6 0.9 1.3\n"
                      "expSite LocalSite 1 1\n"
                      "expElement twoNodeLink 1 1 2 -dir 1 2 3 -site 1\n",
                 "frame.tcl:9: expElement: site 1: control 1 has 2 materials, its setup 1 "
                 "(ThreeActuators2d) drives 3 actuators (one material each)");
    HS_TCL_FAILS(CTRL "expSetup TwoActuators2d 1 -control 1 2.0 1.7 1.1\n"
                      "expSite LocalSite 1 1\n"
                      "expElement twoNodeLink 1 1 2 -dir 1 3 -site 1\n",
                 "frame.tcl:9: expElement: site 1: its setup 1 (TwoActuators2d) has a trial "
                 "vector of 3, this element has 2 basic DOFs");
    /* each actuator takes its own factors (NoTransformation -ctrlDispFact -1 1:
     * tests/cli/openfresco_beam3.sh, Cantilever3D in tests/cli/openfresco_remote.sh); a setup
     * with actuator geometry takes none (above) */
    /* over three nodes: a setup with actuator geometry there is refused (NoTransformation is
     * not: tests/cli/openfresco_generic.sh) */
    HS_TCL_FAILS(HEAD "node 3 1 0 -mass 1 1 1\nexpControl SimUniaxialMaterials 1 1 2 3\n"
                      "expSetup ThreeActuators2d 1 -control 1 30.0 30.0 30.0 20.0 20.0\n"
                      "expSite LocalSite 1 1\n"
                      "expElement generic 7 -node 1 2 3 -dof 1 -dof 1 -dof 1 -site 1\n",
                 "frame.tcl:10: expElement: generic: its setup 1 (ThreeActuators2d) has actuator "
                 "geometry and the element acts on 3 nodes; hysim maps such a setup on one or two "
                 "nodes");
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_actuators_closed_form),
        cmocka_unit_test(test_setups_as_the_test_file_makes_them),
        cmocka_unit_test(test_no_transformation_is_the_link),
        cmocka_unit_test(test_generic_is_the_grounded_link),
        cmocka_unit_test(test_generic_over_two_nodes),
        cmocka_unit_test(test_four_actuators_3d),
        cmocka_unit_test(test_aggregator),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
