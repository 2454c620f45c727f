/* OpenFresco's commands in hysim's Tcl front end (src/opensees/opensees_tcl_openfresco.c,
 * docs/openfresco.md "OpenFresco scripts"), with scripts written here:
 *  - an expElement twoNodeLink on a LocalSite of SimUniaxialMaterials (a perfect virtual
 *    laboratory, OneActuator on the link's second basic DOF) is the numerical twoNodeLink of the
 *    specimen's material on that direction: the same mass and initial stiffness bit for bit;
 *  - an expElement truss on a diagonal is an axial spring along its chord: the free node's
 *    stiffness is k e e^T (e the unit chord) plus the numerical truss, to 1e-12;
 *  - defaultUnits sets OpenSees' unit variables ($kip, $g, $ft, $pi, ...), checked through masses
 *    made of them against the units' definitions;
 *  - every command's errors name SCRIPT:LINE and the command, and say what to do: laboratory
 *    controls, networked sites, setup types hysim does not have, scaled setups, element types
 * not mapped yet, missing or mismatched tags. */
#include "hs_output.h"
#include "hs_test.h"
#include "hs_tcl_def.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAD                                                                                       \
    "model BasicBuilder -ndm 2 -ndf 2\n"                                                           \
    "node 1 0 0; node 2 100 0; node 3 0 54 -mass 0.04 0.04; node 4 100 54 -mass 0.02 0.02\n"       \
    "fix 1 1 1; fix 2 1 1; fix 3 0 1; fix 4 0 1\n"                                                 \
    "uniaxialMaterial Steel02 1 1.5 2.8 0.01 18.5 0.925 0.15 0.0 1.0 0.0 1.0\n"                    \
    "uniaxialMaterial Elastic 2 5.6\n"                                                             \
    "uniaxialMaterial Elastic 3 200\n"                                                             \
    "element truss 3 3 4 1.0 3\n"

static const char *BODY = "structure:\n  model: {opensees: frame.tcl}\n  damping: {none: true}\n";

static hs_test_def *load(hs_ctx *ctx, const char *dir, const char *name, const char *tcl)
{
    hs_tcl_write_file(dir, "frame.tcl", tcl);
    char msg[2048];
    hs_test_def *def = hs_tcl_load(ctx, dir, name, BODY, msg, sizeof msg);
    if (!def) fprintf(stderr, "%s\n", msg);
    assert_non_null(def);
    return def;
}

static double *initial_stiffness(const hs_test_def *def, int *n)
{
    *n = hs_model_ndof(def->model);
    double *K = calloc((size_t)*n * (size_t)*n, sizeof *K);
    assert_non_null(K);
    assert_int_equal(hs_model_initial_stiffness(def->model, K), 0);
    return K;
}

static void test_link_is_its_material(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_openfresco");
    hs_test_def *exp = load(ctx, dir, "exp",
                            HEAD "loadPackage OpenFrescoTcl\nset ver [packageVersion]\n"
                                 "expControlPoint 1 1 disp\n"
                                 "expControl SimUniaxialMaterials 1 1\n"
                                 "expControl SimUniaxialMaterials 2 2\n"
                                 "expSetup OneActuator 1 -control 1 1 -sizeTrialOut 1 1\n"
                                 "expSetup OneActuator 2 -control 2 2 -sizeTrialOut 2 2 "
                                 "-trialDispFact 1 1 -outForceFact 1 1\n"
                                 "expSite LocalSite 1 1\nexpSite LocalSite 2 2\n"
                                 "expTangentStiff Broyden 1\n"
                                 "expElement twoNodeLink 1 1 3 -dir 2 -site 1 -initStif 2.8\n"
                                 "expElement twoNodeLink 2 2 4 -dir 1 2 -site 2 -initStif 1 0 0 "
                                 "5.6 -iMod\nwipeExp\n");
    hs_test_def *num = load(ctx, dir, "num",
                            HEAD "element twoNodeLink 1 1 3 -mat 1 -dir 2\n"
                                 "element twoNodeLink 2 2 4 -mat 2 -dir 2\n");
    int n = 0, m = 0;
    double *Ke = initial_stiffness(exp, &n), *Kn = initial_stiffness(num, &m);
    assert_int_equal(n, 2);
    assert_int_equal(m, 2);
    assert_memory_equal(Ke, Kn, 4 * sizeof *Ke);
    assert_memory_equal(hs_model_mass(exp->model), hs_model_mass(num->model), 2 * sizeof(double));
    /* the story springs (2.8 and 5.6 in shear) and the beam (EA / L = 200 / 100) */
    HS_ASSERT_NEAR(Ke[0], 2.8 + 2.0, 1e-12);
    HS_ASSERT_NEAR(Ke[3], 5.6 + 2.0, 1e-12);
    HS_ASSERT_NEAR(Ke[1], -2.0, 1e-12);
    free(Ke);
    free(Kn);
    hs_test_def_destroy(&exp);
    hs_test_def_destroy(&num);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

static void test_truss_is_an_axial_spring(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_openfresco");
    /* node 4 at (72, 96) on a horizontal elastic truss from (0, 96) and the experimental truss
     * from (168, 0): chord (-96, 96) / (96 sqrt 2) */
    hs_test_def *def = load(ctx, dir, "truss",
                            "model BasicBuilder -ndm 2 -ndf 2\n"
                            "node 1 0 96; node 3 168 0; node 4 72 96 -mass 0.1 0.1\n"
                            "fix 1 1 1; fix 3 1 1\n"
                            "uniaxialMaterial Elastic 1 3000\n"
                            "uniaxialMaterial Steel01 2 50 110.485 0.1\n"
                            "expControl SimUniaxialMaterials 1 2\n"
                            "expSetup OneActuator 1 -control 1 1 -sizeTrialOut 1 1\n"
                            "expSite LocalSite 1 1\n"
                            "element truss 1 1 4 10.0 1\n"
                            "expElement truss 3 3 4 -site 1 -initStif 110.485 -tangStif 1\n");
    int n = 0;
    double *K = initial_stiffness(def, &n);
    assert_int_equal(n, 2);
    const double k = 110.485, c = -1.0 / sqrt(2.0), s = 1.0 / sqrt(2.0), kt = 3000.0 * 10.0 / 72;
    HS_ASSERT_NEAR(K[0], k * c * c + kt, 1e-12 * kt);
    HS_ASSERT_NEAR(K[1], k * c * s, 1e-12 * kt);
    HS_ASSERT_NEAR(K[2], k * c * s, 1e-12 * kt);
    HS_ASSERT_NEAR(K[3], k * s * s, 1e-12 * kt);
    free(K);
    hs_test_def_destroy(&def);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

/* A scaled specimen (ExperimentalSetup.cpp): the command is ctrlDispFact trialDispFact d (the
 * trial factor of the driven DOF), the element's force outForceFact daqForceFact times the
 * specimen's; here a = 2 * 500, b = 0.004 * 0.5, so the story spring's stiffness is a b 5.6 =
 * 11.2, next to the beam's EA / L = 2. */
static void test_scaled_specimen(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_openfresco");
    hs_test_def *def = load(ctx, dir, "scaled",
                            HEAD "expControl SimUniaxialMaterials 2 2\n"
                                 "expSetup OneActuator 2 -control 2 2 -sizeTrialOut 2 2 "
                                 "-trialDispFact 7 500 -ctrlDispFact 2 -outForceFact 9 0.004 "
                                 "-daqForceFact 0.5 -outDispFact 1 0.002 -trialTimeFact 1 1\n"
                                 "expSite LocalSite 2 2\n"
                                 "expElement twoNodeLink 2 2 4 -dir 1 2 -site 2\n");
    int n = 0;
    double *K = initial_stiffness(def, &n);
    assert_int_equal(n, 2);
    HS_ASSERT_NEAR(K[3], 2.0 * 500.0 * 0.004 * 0.5 * 5.6 + 2.0, 1e-12);
    HS_ASSERT_NEAR(K[0], 2.0, 1e-12);
    free(K);
    hs_test_def_destroy(&def);
    HS_TCL_FAILS(HEAD "expControl SimUniaxialMaterials 2 2\n"
                      "expSetup OneActuator 2 -control 2 1 -sizeTrialOut 1 1 -trialDispFact 0\n",
                 "frame.tcl:9: expSetup: -trialDispFact: factor 1 is 0; a scale factor is "
                 "nonzero");
    HS_TCL_FAILS(HEAD "expControl SimUniaxialMaterials 2 2\n"
                      "expSetup OneActuator 2 -control 2 1 -sizeTrialOut 2 2 -outForceFact 3\n",
                 "frame.tcl:9: expSetup: -outForceFact: expected 2 factors (one per output DOF), "
                 "got 'nothing'");
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

/* The two experimental beamColumns of test_beam_column_*: a column of height L = 54 from node 1
 * (pinned: its rotation free) to node 2 (sliding in x), driven on its shear DOF by a Steel02
 * specimen, and a beam of length 100 from node 1 to node 3 (sliding in x) on its axial DOF by an
 * Elastic 600 specimen; INIT1 and INIT2 their -initStif (or nothing). */
#define BC_SCRIPT(INIT1, INIT2)                                                                    \
    "model BasicBuilder -ndm 2 -ndf 3\n"                                                           \
    "node 1 0 0 -mass 0 0 2.0; node 2 0 54 -mass 0.1 0 0\n"                                        \
    "node 3 100 0 -mass 0.1 0 0\n"                                                                 \
    "fix 1 1 1 0; fix 2 0 1 1; fix 3 0 1 1\n"                                                      \
    "uniaxialMaterial Steel02 1 1.5 2.8 0.01 18.5 0.925 0.15 0.0 1.0 0.0 1.0\n"                    \
    "uniaxialMaterial Elastic 2 600\n"                                                             \
    "expControl SimUniaxialMaterials 1 1\nexpControl SimUniaxialMaterials 2 2\n"                   \
    "expSetup OneActuator 1 -control 1 2 -sizeTrialOut 3 3\n"                                      \
    "expSetup OneActuator 2 -control 2 1 -sizeTrialOut 3 3\n"                                      \
    "expSite LocalSite 1 1\nexpSite LocalSite 2 2\n"                                               \
    "geomTransf Linear 1\n"                                                                        \
    "expElement beamColumn 1 1 2 1 -site 1 " INIT1 " -noRayleigh\n"                                \
    "expElement beamColumn 2 1 3 1 -site 2 " INIT2 "\n"

/* expElement beamColumn (Linear) without -initStif: its specimen on the driven DOF of the
 * cantilever, (v_j - v_i) - L theta_i for the shear. The column's v = -u_x in its axes, so
 * d = -(u2x + L theta1) and K over (u2x, theta1) = k [1 L; L L^2]; the beam's axial DOF is
 * EA / L along x. */
static void test_beam_column_is_a_cantilever(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_openfresco");
    hs_test_def *def = load(ctx, dir, "bc", BC_SCRIPT("", ""));
    int n = 0;
    double *K = initial_stiffness(def, &n);
    assert_int_equal(n, 3);
    /* DOFs in node order: theta1, u2x, u3x */
    const double k = 2.8, L = 54.0;
    HS_ASSERT_NEAR(K[0], k * L * L, 1e-12 * k * L * L);
    HS_ASSERT_NEAR(K[1], k * L, 1e-12 * k * L);
    HS_ASSERT_NEAR(K[4], k, 1e-12 * k);
    HS_ASSERT_NEAR(K[8], 600.0, 1e-12 * 600.0);
    HS_ASSERT_NEAR(K[2], 0.0, 1e-12);
    free(K);
    hs_test_def_destroy(&def);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

/* With -initStif the element's stiffness is B^T K_init B over basic system B (EEBeamColumn2d's
 * setInitialStiff / getTangentStiff), whatever its specimen: for the column b1 = d(db1) / d(theta1,
 * u2x) = (-L, -1), b2 = d(theta2 - theta1) = (-1, 0), so K(theta1, theta1) = k11 L^2 + 2 k12 L +
 * k22, K(theta1, u2x) = k11 L + k12, K(u2x, u2x) = k11; the beam (K_init = I, length 100) adds
 * 100^2 + 1 at theta1 and its axial 1 at u3x (not the specimen's 600). Its tangent is the same. */
static void test_beam_column_init_stif(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_openfresco");
    hs_test_def *def = load(ctx, dir, "bci",
                            BC_SCRIPT("-initStif 1213 0 0 0 11.2 -302.4 0 -302.4 10886.4",
                                      "-initStif 1 0 0 0 1 0 0 0 1"));
    int n = 0;
    double *K = initial_stiffness(def, &n);
    assert_int_equal(n, 3);
    const double k11 = 11.2, k12 = -302.4, k22 = 10886.4, L = 54.0;
    const double k00 = k11 * L * L + 2.0 * k12 * L + k22 + 100.0 * 100.0 + 1.0;
    HS_ASSERT_NEAR(K[0], k00, 1e-12 * k00);
    HS_ASSERT_NEAR(K[1], k11 * L + k12, 1e-12 * k00);
    HS_ASSERT_NEAR(K[3], k11 * L + k12, 1e-12 * k00);
    HS_ASSERT_NEAR(K[4], k11, 1e-12 * k00);
    HS_ASSERT_NEAR(K[8], 1.0, 1e-12 * k00);
    HS_ASSERT_NEAR(K[2], 0.0, 1e-12 * k00);
    HS_ASSERT_NEAR(K[5], 0.0, 1e-12 * k00);
    free(K);
    hs_test_def_destroy(&def);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

/* A zeroLength turned in the plane between coincident nodes (ThreeSpanBridge's bearings:
 * -orient 0 1 0 -1 0 0, local x along global y, local y along -x): dir 1 (mat 1) acts along y,
 * dir 2 (mat 2) along x; off the plane or between distinct nodes it is still refused. */
static void test_zero_length_turned(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_openfresco");
#define ZL                                                                                         \
    "model BasicBuilder -ndm 2 -ndf 3\nnode 1 0 0; node 2 0 0 -mass 1 1 0\n"                       \
    "fix 1 1 1 1; fix 2 0 0 1\nuniaxialMaterial Elastic 1 1e4\nuniaxialMaterial Elastic 2 12\n"
    hs_test_def *def = load(ctx, dir, "zl",
                            ZL "element zeroLength 1 1 2 -mat 1 2 -dir 1 2 -orient 0 1 0 -1 0 0\n");
    int n = 0;
    double *K = initial_stiffness(def, &n);
    assert_int_equal(n, 2);
    HS_ASSERT_NEAR(K[0], 12.0, 1e-12);
    HS_ASSERT_NEAR(K[3], 1e4, 1e-8);
    HS_ASSERT_NEAR(K[1], 0.0, 1e-12);
    free(K);
    hs_test_def_destroy(&def);
    HS_TCL_FAILS(ZL "element zeroLength 1 1 2 -mat 1 2 -dir 1 2 -orient 0 1 0 1 0 0\n",
                 "frame.tcl:6: element: not yet supported by hysim: a zeroLength oriented other "
                 "than along the global axes, unless turned in the plane");
    HS_TCL_FAILS(ZL "node 3 1 0\nelement zeroLength 1 1 3 -mat 1 -dir 1 -orient 0 1 0\n",
                 "frame.tcl:7: element: not yet supported by hysim: a zeroLength oriented");
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

static void test_default_units(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_openfresco");
    /* kip, in, sec: g = 32.174049 ft/s^2 = 386.088588 in/s^2; in kN, m: one kip is
     * 4.4482216152605 kN, one ft 0.3048 m */
    hs_test_def *a = load(ctx, dir, "kip",
                          "defaultUnits -force kip -length in -time sec -temp F\n"
                          "model BasicBuilder -ndm 2 -ndf 2\n"
                          "node 1 0 0; node 2 [expr 10*$ft] 0 -mass [expr $kip/$g] $pi\n"
                          "fix 1 1 1\nuniaxialMaterial Elastic 1 [expr $ksi*$in2]\n"
                          "element twoNodeLink 1 1 2 -mat 1 1 -dir 1 2\n");
    const double *M = hs_model_mass(a->model);
    HS_ASSERT_NEAR(M[0], 1.0 / (32.174049 * 12.0), 1e-15);
    HS_ASSERT_NEAR(M[1], acos(-1.0), 0.0);
    hs_test_def *b = load(ctx, dir, "kN",
                          "defaultUnits -Force kN -Length m -Time sec\n"
                          "model BasicBuilder -ndm 2 -ndf 2\n"
                          "node 1 0 0; node 2 1 0 -mass [expr $kip] [expr $ft/$in]\n"
                          "fix 1 1 1\nuniaxialMaterial Elastic 1 1\n"
                          "element twoNodeLink 1 1 2 -mat 1 1 -dir 1 2\n");
    M = hs_model_mass(b->model);
    HS_ASSERT_NEAR(M[0], 4.4482216152605, 1e-12);
    HS_ASSERT_NEAR(M[1], 12.0, 1e-12);
    hs_test_def_destroy(&a);
    hs_test_def_destroy(&b);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

static void test_errors(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_openfresco");
#define CTRL  "expControl SimUniaxialMaterials 1 1\n"
#define SETUP CTRL "expSetup OneActuator 1 -control 1 1 -sizeTrialOut 1 1\n"
#define SITE  SETUP "expSite LocalSite 1 1\n"
    /* HEAD has 7 lines: the first command below is line 8 */
    HS_TCL_FAILS(HEAD "expControl xPCtarget 1 192.168.2.20 22222 D:/Hybrid -trialCP 1 -outCP 2\n",
                 "frame.tcl:8: expControl: xPCtarget (an xPC Target real-time controller) is not "
                 "supported in a script",
                 "docs/lab_backends.md", "expControl SimUniaxialMaterials tag matTag");
    HS_TCL_FAILS(HEAD "expControl SimDomain 1 -trialCP 1 -outCP 2\n",
                 "frame.tcl:8: expControl: SimDomain");
    HS_TCL_FAILS(HEAD "expControl Foo 1 1\n",
                 "frame.tcl:8: expControl: type 'Foo' is not supported by hysim (it has "
                 "SimUniaxialMaterials)");
    HS_TCL_FAILS(HEAD "expControl SimUniaxialMaterials 1 9\n",
                 "frame.tcl:8: expControl: no uniaxialMaterial 9 (define it first)");
    HS_TCL_FAILS(HEAD "expControl SimUniaxialMaterials 1\n",
                 "frame.tcl:8: expControl: expected the specimens' matTags after the tag");
    HS_TCL_FAILS(HEAD CTRL "expSetup FiveActuators3d 1 -control 1 1 1 1 1 1 1 1 1 1\n",
                 "frame.tcl:9: expSetup: type 'FiveActuators3d' is not supported by hysim (it "
                 "has OneActuator, NoTransformation,",
                 "FourActuators3d, Aggregator)");
    HS_TCL_FAILS(HEAD CTRL "expSetup OneActuator 1 -control 1 3 -sizeTrialOut 1 1\n",
                 "frame.tcl:9: expSetup: dir 3: expected 1 to 1");
    HS_TCL_FAILS(HEAD CTRL "expSetup OneActuator 1 -control 7 1 -sizeTrialOut 1 1\n",
                 "frame.tcl:9: expSetup: no expControl 7 (define it first)");
    HS_TCL_FAILS(HEAD CTRL
                 "expSetup OneActuator 1 -control 1 1 -sizeTrialOut 1 1 -trialFooFact 25.4\n",
                 "frame.tcl:9: expSetup: option '-trialFooFact' is not supported by hysim");
    HS_TCL_FAILS(HEAD SETUP "expSite ActorSite 1 -setup 1 8090\n",
                 "frame.tcl:10: expSite: ActorSite is a server", "expSite ShadowSite",
                 "hysim site");
    /* wipeExp forgets the controls, setups and sites */
    HS_TCL_FAILS(HEAD SITE "wipeExp\nexpElement twoNodeLink 1 1 3 -dir 2 -site 1\n",
                 "frame.tcl:12: expElement: no expSite 1 (define it first)");
    HS_TCL_FAILS(HEAD SETUP "expSite LocalSite 1 4\n",
                 "frame.tcl:10: expSite: no expSetup 4 (define it first)");
    HS_TCL_FAILS(HEAD SITE "expElement invertedVBrace 1 1 2 3 -site 1\n",
                 "frame.tcl:11: expElement: type 'invertedVBrace' is not supported by hysim",
                 "EEInvertedVBrace2d.cpp", "ECSimUniaxialMaterials::setSize");
    HS_TCL_FAILS(HEAD SITE "expElement beamColumn 1 1 3 1 -site 1 -initStif 1 0 0 0 1 0 0 0 1\n",
                 "frame.tcl:11: expElement: beamColumn: hysim maps the 2-D element (-ndm 2 -ndf "
                 "3) and the 3-D one (-ndm 3 -ndf 6); this model is -ndm 2 -ndf 2");
    HS_TCL_FAILS(HEAD SITE "expElement twoNodeLink 1 1 3 -dir 2 -server 8090 127.0.0.1\n",
                 "frame.tcl:11: expElement: -server: a networked site");
    HS_TCL_FAILS(HEAD SITE "expElement twoNodeLink 1 1 3 -dir 2 -initStif 2.8\n",
                 "frame.tcl:11: expElement: expected -site siteTag");
    HS_TCL_FAILS(HEAD SITE "expElement twoNodeLink 1 1 3 -dir 1 2 -site 1 -initStif 1 0 0 1\n",
                 "frame.tcl:11: expElement: site 1: its setup 1 (OneActuator) has a trial vector "
                 "of 1, this element has 2 basic DOFs");
    HS_TCL_FAILS(HEAD SITE "expElement twoNodeLink 1 1 3 -dir 2 -site 1 -initStif 2.8 0\n",
                 "frame.tcl:11: expElement: -initStif: 2 values; this element has 1 basic DOFs, "
                 "so 1 x 1 = 1 values");
    HS_TCL_FAILS(HEAD SITE "expElement twoNodeLink 1 1 3 -dir 2 -site 5 -initStif 2.8\n",
                 "frame.tcl:11: expElement: no expSite 5 (define it first)");
    /* the numerical element's parser answers for the options it has */
    HS_TCL_FAILS(HEAD SITE "expElement twoNodeLink 1 1 3 -dir 2 -site 1 -foo 3\n",
                 "frame.tcl:11: expElement: option '-foo' is not supported by hysim (twoNodeLink "
                 "knows");
    HS_TCL_FAILS(HEAD SITE "expElement twoNodeLink 3 1 3 -dir 2 -site 1\n",
                 "frame.tcl:11: expElement: element 3 is already defined");
    HS_TCL_FAILS(HEAD SITE "expElement truss 4 1 3 -site 1 -cMass\n",
                 "frame.tcl:11: expElement: option '-cMass' is not supported by hysim "
                 "(expElement truss knows");
    HS_TCL_FAILS("defaultUnits -force kip -length furlong -time sec\n",
                 "frame.tcl:1: defaultUnits: -length furlong: expected in, inch, ft, feet, mm, cm "
                 "or m");
    HS_TCL_FAILS("defaultUnits -force kip -length in\n",
                 "frame.tcl:1: defaultUnits: expected 'defaultUnits -force F -length L -time T'");
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_link_is_its_material),
        cmocka_unit_test(test_truss_is_an_axial_spring),
        cmocka_unit_test(test_beam_column_is_a_cantilever),
        cmocka_unit_test(test_beam_column_init_stif),
        cmocka_unit_test(test_scaled_specimen),
        cmocka_unit_test(test_zero_length_turned),
        cmocka_unit_test(test_default_units),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
