/* The bearings of a script (src/opensees/opensees_tcl_bearing.c), with scripts written here:
 *  - expElement bearing's initial stiffness is diag(k_P, -initStif, k_Mz) over its basic system
 *    (EEBearing2d.cpp setInitialStiff), not its specimen's E0: a vertical bearing of length L
 *    from a fixed node, the free node's K0 over (ux, uy, rz) = [k, 0, k (1 - s) L; 0, k_P, 0;
 *    k (1 - s) L, 0, k ((1 - s) L)^2 + k_Mz] (local x = +Y, y = -X), to 1e-12;
 *  - element elastomericBearingPlasticity's the same with kInit and its -shearDist;
 *  - the errors name SCRIPT:LINE and the command and say what to do: another model than -ndm 2
 *    -ndf 3, force control, a setup that drives more than the shear or scales it, a networked
 *    site, a missing -initStif or material, an -orient whose y turns the moment, an unknown
 *    option, a bad bearing parameter; removeExp of a site; a Corotational expElement beamColumn
 *    without -initStif. */
#include "hs_output.h"
#include "hs_test.h"
#include "hs_tcl_def.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAD                                                                                       \
    "model BasicBuilder -ndm 2 -ndf 3\n"                                                           \
    "node 1 0 0; node 2 0 10 -mass 0.1 0.1 1.0\n"                                                  \
    "fix 1 1 1 1\n"                                                                                \
    "uniaxialMaterial Elastic 1 1000.0\n"                                                          \
    "uniaxialMaterial Elastic 2 169.0\n"                                                           \
    "uniaxialMaterial Steel01 3 6.48 5.0 0.08\n"
#define CTRL  "expControl SimUniaxialMaterials 1 3\n"
#define SETUP CTRL "expSetup NoTransformation 1 -control 1 -dir 2 -sizeTrialOut 3 3\n"
#define SITE  SETUP "expSite LocalSite 1 1\n"

static const char *BODY = "structure:\n  model: {opensees: frame.tcl}\n  damping: {none: true}\n";

/* The model's K0 over (ux, uy, rz) of node 2 against the closed form of a bearing of shear
 * stiffness k at shear distance s. */
static void check_k0(hs_ctx *ctx, const char *dir, const char *tcl, double k, double s)
{
    hs_tcl_write_file(dir, "frame.tcl", tcl);
    char msg[2048];
    hs_test_def *def = hs_tcl_load(ctx, dir, "brg", BODY, msg, sizeof msg);
    if (!def) fprintf(stderr, "%s\n", msg);
    assert_non_null(def);
    const int n = hs_model_ndof(def->model);
    assert_int_equal(n, 3);
    double K[9];
    assert_int_equal(hs_model_initial_stiffness(def->model, K), 0);
    const double a = (1.0 - s) * 10.0;
    const double want[9] = {k, 0.0, k * a, 0.0, 1000.0, 0.0, k * a, 0.0, k * a * a + 169.0};
    for (int i = 0; i < 9; i++) HS_ASSERT_NEAR(K[i], want[i], 1e-12 * want[8]);
    printf("K0: [%g %g %g; %g %g %g; %g %g %g]\n", K[0], K[3], K[6], K[1], K[4], K[7], K[2], K[5],
           K[8]);
    hs_test_def_destroy(&def);
}

static void test_initial_stiffness(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_bearing");
    check_k0(ctx, dir,
             HEAD SITE "expElement bearing 1 1 2 0 -P 1 -Mz 2 -site 1 -initStif 6.51 -pDelta 0.5 "
                       "0.5\n",
             6.51, 0.5);
    check_k0(ctx, dir,
             HEAD SITE "expElement bearing 1 1 2 0 -P 1 -Mz 2 -site 1 -initStif 6.51 -shearDist "
                       "0.2 -orient 0 1 0 -1 0 0 -noRayleigh\n",
             6.51, 0.2);
    check_k0(ctx, dir,
             HEAD "element elastomericBearingPlasticity 1 1 2 7.5 6.48 0.08 0.0 2.0 -P 1 -Mz 2 "
                  "-shearDist 0.3\n",
             7.5, 0.3);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

static void test_errors(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_bearing");
    /* HEAD has 6 lines, SITE 3 */
    HS_TCL_FAILS("model BasicBuilder -ndm 2 -ndf 2\nnode 1 0 0\nnode 2 0 10\nuniaxialMaterial "
                 "Elastic 1 10\nelement elastomericBearingPlasticity 1 1 2 7.5 6.48 0.08 0 2 -P 1 "
                 "-Mz 1\n",
                 "frame.tcl:5: element: hysim has the 2-D bearing (-ndm 2 -ndf 3");
    HS_TCL_FAILS(HEAD SITE "expElement bearing 1 1 2 1 -P 1 -Mz 2 -site 1 -initStif 6.51\n",
                 "frame.tcl:10: expElement: pFrcCtrl 1: the axial force control", "give 0");
    HS_TCL_FAILS(HEAD CTRL "expSetup OneActuator 1 -control 1 1 -sizeTrialOut 3 3\n"
                           "expSite LocalSite 1 1\n"
                           "expElement bearing 1 1 2 0 -P 1 -Mz 2 -site 1 -initStif 6.51\n",
                 "frame.tcl:10: expElement: site 1: hysim's experimental bearing takes a setup "
                 "that drives its shear alone",
                 "NoTransformation tag -control c -dir 2 -sizeTrialOut 3 3");
    HS_TCL_FAILS(HEAD CTRL "expSetup OneActuator 1 -control 1 2 -sizeTrialOut 3 3 -trialDispFact "
                           "0.5 1 1 -outForceFact 2 1 1\n"
                           "expSite LocalSite 1 1\n"
                           "expElement bearing 1 1 2 0 -P 1 -Mz 2 -site 1 -initStif 6.51\n",
                 "frame.tcl:10: expElement: site 1: setup 1 scales the specimen");
    HS_TCL_FAILS(HEAD SITE "expElement bearing 1 1 2 0 -P 1 -Mz 2 -server 8090 -initStif 6.51 -x\n",
                 "frame.tcl:10: expElement: -server: a networked site", "hysim site");
    HS_TCL_FAILS(HEAD SITE "expElement bearing 1 1 2 0 -P 1 -Mz 2 -site 1 -tangStif 6.51 -x\n",
                 "frame.tcl:10: expElement: expected '-initStif k' after -site");
    HS_TCL_FAILS(HEAD SITE "expElement bearing 1 1 2 0 -P 1 -My 2 -site 1 -initStif 6.51\n",
                 "frame.tcl:10: expElement: expected '-Mz matTag' (the bending material)");
    HS_TCL_FAILS(HEAD SITE "expElement bearing 1 1 2 0 -P 9 -Mz 2 -site 1 -initStif 6.51\n",
                 "frame.tcl:10: expElement: -P 9: no uniaxialMaterial 9 (define it first)");
    HS_TCL_FAILS(HEAD SITE "expElement bearing 1 1 2 0 -P 1 -Mz 2 -site 1 -initStif 6.51 -orient "
                           "0 1 0 1 0 0\n",
                 "frame.tcl:10: expElement: -orient 0 1 0 1 0 0: local z = x x y must point "
                 "along +Z",
                 "give y = (-x2, x1, 0)");
    HS_TCL_FAILS(HEAD SITE "expElement bearing 1 1 2 0 -P 1 -Mz 2 -site 1 -initStif 6.51 -rho 2\n",
                 "frame.tcl:10: expElement: option '-rho' is not supported by hysim (expElement "
                 "bearing knows");
    HS_TCL_FAILS(HEAD "element elastomericBearingPlasticity 1 1 2 0.0 6.48 0.08 0 2 -P 1 -Mz 2\n",
                 "frame.tcl:7: element: bearing_plasticity: k_init must be > 0 (got 0)");
    HS_TCL_FAILS(HEAD "element elastomericBearingPlasticity 1 1 2 7.5 6.48 0.08 0 2 -P 1 -Mz 2 "
                      "-pDelta 0.5 0.5\n",
                 "frame.tcl:7: element: option '-pDelta' is not supported by hysim "
                 "(elastomericBearingPlasticity knows");
    /* the other OpenFresco commands of PortalFrame_Local.tcl: removeExp, a Corotational
     * expElement beamColumn (it needs -initStif) */
    HS_TCL_FAILS(HEAD SITE "removeExp recorders\nremoveExp site 1\n",
                 "frame.tcl:11: removeExp: removeExp site: not supported by hysim",
                 "stay until wipeExp");
    HS_TCL_FAILS(HEAD CTRL "expSetup OneActuator 1 -control 1 2 -sizeTrialOut 3 3\n"
                           "expSite LocalSite 1 1\ngeomTransf Corotational 1\n"
                           "expElement beamColumn 1 1 2 1 -site 1\n",
                 "frame.tcl:11: expElement: geomTransf 1: an experimental beamColumn with "
                 "nonlinear geometry needs its -initStif");
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_initial_stiffness),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
