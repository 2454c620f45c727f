/* The refusals of eleLoad, elasticBeamColumn's releases and beamWithHinges
 * (src/opensees/opensees_tcl_eleload.c, opensees_tcl_hinges.c) in scripts written here: each names
 * the script's line (an eleLoad's error: its pattern's line, as any error inside a pattern's
 * body) and what to write instead; and a script whose eleLoads and releases are right
 * loads (the member loads of a test file's analysis enter its gravity solve). */
#include "hs_output.h"
#include "hs_test.h"

#include "hs_tcl_def.h"

#include <stdio.h>
#include <string.h>

static const char *HEAD = "model BasicBuilder -ndm 2 -ndf 3\n"
                          "node 1 0 0; node 2 6 0; node 3 0 3.5 -mass 20 20 0.1\n"
                          "node 4 6 3.5 -mass 20 20 0.1\n"
                          "fix 1 1 1 1; fix 2 1 1 1\n"
                          "geomTransf Linear 1\ngeomTransf Corotational 2\n";

static const char *HEAD3 = "model BasicBuilder -ndm 3 -ndf 6\n"
                           "node 1 0 0 0; node 2 6 0 0\n"
                           "fix 1 1 1 1 1 1 1\n"
                           "geomTransf Linear 1 0 0 1\n";

static void test_errors(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024], tcl[2048];
    hs_test_make_dir(dir, sizeof dir, "opensees_eleload");
    const char *beam = "element elasticBeamColumn 3 3 4 0.01 2e8 1e-4 1\n";
    snprintf(tcl, sizeof tcl, "%s%seleLoad -ele 3 -type -beamUniform -1.0\n", HEAD, beam);
    HS_TCL_FAILS(tcl, "frame.tcl:8", "eleLoad belongs inside 'pattern Plain");
    snprintf(tcl, sizeof tcl,
             "%s%stimeSeries Linear 1\npattern Plain 1 1 {\n eleLoad -ele 3 -type -beamFoo 1\n}\n",
             HEAD, beam);
    HS_TCL_FAILS(tcl, "frame.tcl:9", "-type -beamFoo", "-beamUniform and -beamPoint");
    snprintf(tcl, sizeof tcl,
             "%s%stimeSeries Linear 1\npattern Plain 1 1 {\n eleLoad -ele 3 -type -beamUniform "
             "-1 0 0 0.2 0.8 -2\n}\n",
             HEAD3, "element elasticBeamColumn 3 1 2 0.01 2e8 8e7 2e-4 1e-4 1e-4 1\n");
    HS_TCL_FAILS(tcl, "frame.tcl:7", "3-D load varying along the member", "give one intensity");
    snprintf(tcl, sizeof tcl,
             "%s%stimeSeries Linear 1\npattern Plain 1 1 {\n eleLoad -ele 3 -type -beamUniform "
             "-1 0 0.8 0.2\n}\n",
             HEAD, beam);
    HS_TCL_FAILS(tcl, "frame.tcl:9", "loaded from 0.8 to 0.2", "0 <= aOverL < bOverL <= 1");
    snprintf(tcl, sizeof tcl,
             "%s%stimeSeries Linear 1\npattern Plain 1 1 {\n eleLoad -ele 3 -type -beamUniform "
             "-1 0 0.2 0.8 -1 0 7\n}\n",
             HEAD, beam);
    HS_TCL_FAILS(tcl, "frame.tcl:9", "-beamUniform wy <wx> <aOverL bOverL <wyb wxb>>");
    snprintf(tcl, sizeof tcl,
             "%ssection Elastic 1 2e8 0.01 1e-4\nelement dispBeamColumn 3 3 4 3 1 1\n"
             "timeSeries Linear 1\npattern Plain 1 1 {\n eleLoad -ele 3 -type -beamUniform "
             "-1 0 0.2 0.8\n}\n",
             HEAD);
    HS_TCL_FAILS(tcl, "frame.tcl:10", "partial uniform load on a dispBeamColumn");
    snprintf(tcl, sizeof tcl,
             "%s%stimeSeries Linear 1\npattern Plain 1 1 {\n eleLoad -ele 3 -type -beamPoint "
             "-10 1.5\n}\n",
             HEAD, beam);
    HS_TCL_FAILS(tcl, "frame.tcl:9", "xL = 1.5", "0 to 1");
    snprintf(tcl, sizeof tcl,
             "%s%stimeSeries Linear 1\npattern Plain 1 1 {\n eleLoad -ele 9 -type -beamPoint "
             "-10 0.5\n}\n",
             HEAD, beam);
    HS_TCL_FAILS(tcl, "frame.tcl:9", "no element 9");
    snprintf(tcl, sizeof tcl,
             "%suniaxialMaterial Elastic 1 1e6\nelement truss 3 3 4 0.01 1\ntimeSeries Linear "
             "1\npattern Plain 1 1 {\n eleLoad -range 3 3 -type -beamUniform -1\n}\n",
             HEAD);
    HS_TCL_FAILS(tcl, "frame.tcl:10", "element 3: member loads act on elasticBeamColumn");
    snprintf(
        tcl, sizeof tcl,
        "%sgeomTransf Corotational 2 0 0 1\n"
        "element elasticBeamColumn 1 1 2 0.01 2e8 8e7 2e-4 1e-4 1e-4 2\n"
        "timeSeries Linear 1\npattern Plain 1 1 {\n eleLoad -ele 1 -type -beamUniform -1 0\n}\n",
        HEAD3);
    HS_TCL_FAILS(tcl, "frame.tcl:8", "3-D Corotational transformation", "use Linear or PDelta");
    snprintf(tcl, sizeof tcl, "%selement elasticBeamColumn 3 3 4 0.01 2e8 1e-4 1 -release 4\n",
             HEAD);
    HS_TCL_FAILS(tcl, "frame.tcl:7", "-release 4", "0 (none), 1 (node i), 2 (node j) or 3");
    snprintf(tcl, sizeof tcl, "%selement elasticBeamColumn 3 3 4 0.01 2e8 1e-4 1 -releasey 1\n",
             HEAD);
    HS_TCL_FAILS(tcl, "frame.tcl:7", "-releasey: a 2-D model releases with -release");
    snprintf(tcl, sizeof tcl,
             "%selement elasticBeamColumn 1 1 2 0.01 2e8 8e7 2e-4 1e-4 1e-4 1 -release 1\n", HEAD3);
    HS_TCL_FAILS(tcl, "frame.tcl:5", "a 3-D model releases with -releasez", "-releasey");
    snprintf(tcl, sizeof tcl,
             "%ssection Elastic 1 2e8 0.01 1e-4\n"
             "element beamWithHinges 3 3 4 1 1.0 1 1.0 2e8 0.01 1e-4 1\n",
             HEAD);
    HS_TCL_FAILS(tcl, "frame.tcl:8", "hinge lengths lpI = 1, lpJ = 1", "negative weight");
    snprintf(tcl, sizeof tcl,
             "%ssection Elastic 1 2e8 0.01 1e-4\n"
             "element beamWithHinges 3 3 4 1 0.5 7 0.5 2e8 0.01 1e-4 1\n",
             HEAD);
    HS_TCL_FAILS(tcl, "frame.tcl:8", "no section 7");
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

/* A right script loads (its member loads enter the gravity solve of the P-Delta columns) and its
 * release reaches the frame: the rotational stiffness at the released end is the column's alone. */
static void test_loads(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024], tcl[2048];
    hs_test_make_dir(dir, sizeof dir, "opensees_eleload_ok");
    double k[2];
    for (int r = 0; r < 2; r++) {
        snprintf(tcl, sizeof tcl,
                 "%sgeomTransf PDelta 3\n"
                 "element elasticBeamColumn 1 1 3 0.01 2e8 1e-4 3\n"
                 "element elasticBeamColumn 2 2 4 0.01 2e8 1e-4 3\n"
                 "element elasticBeamColumn 3 3 4 0.01 2e8 2e-4 1 -release %d\n"
                 "timeSeries Linear 1\npattern Plain 1 1 -fact 2.0 {\n"
                 " eleLoad -ele 3 -type -beamUniform -10.0\n"
                 " eleLoad -ele 3 -type -beamPoint -20.0 0.25 1.0\n}\n",
                 HEAD, r ? 2 : 0);
        hs_tcl_write_file(dir, "frame.tcl", tcl);
        hs_test_def *d = hs_tcl_load(ctx, dir, "frame",
                                     "structure:\n  model: {opensees: frame.tcl}\n"
                                     "  damping: {none: true}\n",
                                     NULL, 0);
        assert_non_null(d);
        const int n = hs_model_ndof(d->model);
        assert_int_equal(n, 6);
        double K[36] = {0};
        assert_int_equal(hs_model_initial_stiffness(d->model, K), 0);
        k[r] = K[5 * 6 + 5]; /* node 4 rz */
        hs_test_def_destroy(&d);
    }
    /* node 4's rotation: the column's 4EI/L and the beam's 4EI/L, none of the beam's released at
     * node 4 */
    HS_ASSERT_NEAR(k[0], 4 * 2e8 * 1e-4 / 3.5 + 4 * 2e8 * 2e-4 / 6, 1e-9);
    HS_ASSERT_NEAR(k[1], 4 * 2e8 * 1e-4 / 3.5, 1e-9);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_loads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
