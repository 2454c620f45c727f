/* OpenSees' section, patch, layer, fiber, beamIntegration and forceBeamColumn / dispBeamColumn /
 * nonlinearBeamColumn commands (src/opensees/opensees_tcl_section.c, opensees_tcl_beamcolumn.c)
 * in scripts written here:
 *  - a portal frame whose members are beam-columns with `section Elastic`, in each element form
 *    (beamIntegration tag, inline rule, old form, nonlinearBeamColumn, dispBeamColumn), has the
 *    initial stiffness of the elasticBeamColumn frame to 1e-10;
 *  - a fiber section of elastic fibers (patch rect of n layers, layer straight bars, single
 *    fibers) gives the elastic frame with EI = E (b h^3 / 12 (1 - 1/n^2) + sum A_bar y^2);
 *  - the errors name the script's line and what to do. */
#include "hs_output.h"
#include "hs_test.h"

#include "hs_tcl_def.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *HEAD = "model BasicBuilder -ndm 2 -ndf 3\n"
                          "node 1 0 0; node 2 6 0; node 3 0 3.5 -mass 20 20 0.1\n"
                          "node 4 6 3.5 -mass 20 20 0.1\n"
                          "fix 1 1 1 1; fix 2 1 1 1\n"
                          "geomTransf Linear 1\ngeomTransf PDelta 2\n";

static double *stiffness(hs_ctx *ctx, const char *dir, const char *name, const char *tcl, int *n)
{
    char file[64], body[256];
    snprintf(file, sizeof file, "%s.tcl", name);
    hs_tcl_write_file(dir, file, tcl);
    snprintf(body, sizeof body, "structure:\n  model: {opensees: %s}\n  damping: {none: true}\n",
             file);
    hs_test_def *d = hs_tcl_load(ctx, dir, name, body, NULL, 0);
    if (!d) fprintf(stderr, "script %s failed\n", name);
    assert_non_null(d);
    *n = hs_model_ndof(d->model);
    double *K = calloc((size_t)(*n * *n), sizeof *K);
    assert_non_null(K);
    assert_int_equal(hs_model_initial_stiffness(d->model, K), 0);
    hs_test_def_destroy(&d);
    return K;
}

static void same_stiffness(const double *K, const double *R, int n, double rel)
{
    double kmax = 0.0;
    for (int i = 0; i < n * n; i++) kmax = fmax(kmax, fabs(R[i]));
    for (int i = 0; i < n * n; i++) HS_ASSERT_NEAR(K[i], R[i], rel * kmax);
}

static void test_elastic_section_forms(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024], tcl[4096];
    hs_test_make_dir(dir, sizeof dir, "opensees_fiber");
    const char *E = "2e11", *A = "0.01", *I = "2e-4";
    snprintf(tcl, sizeof tcl,
             "%selement elasticBeamColumn 1 1 3 %s %s %s 2\n"
             "element elasticBeamColumn 2 2 4 %s %s %s 2\n"
             "element elasticBeamColumn 3 3 4 %s %s %s 1\n",
             HEAD, A, E, I, A, E, I, A, E, I);
    int n, nr;
    double *R = stiffness(ctx, dir, "ref", tcl, &nr);
    static const char *forms[] = {
        /* beamIntegration tag */
        "beamIntegration Lobatto 7 1 5\n"
        "element forceBeamColumn 1 1 3 2 7\nelement forceBeamColumn 2 2 4 2 7\n"
        "element forceBeamColumn 3 3 4 1 7 -iter 20 1e-14\n",
        /* inline rules and hinges */
        "element forceBeamColumn 1 1 3 2 {Lobatto 1 4}\n"
        "element forceBeamColumn 2 2 4 2 \"HingeRadau 1 0.3 1 0.3 1\"\n"
        "element dispBeamColumn 3 3 4 1 {Legendre 1 3}\n",
        /* old forms */
        "element nonlinearBeamColumn 1 1 3 5 1 2\n"
        "element forceBeamColumn 2 2 4 5 1 2 -integration Radau\n"
        "element dispBeamColumn 3 3 4 3 1 1\n",
        /* a fiber-free aggregator over the elastic section, a UserDefined rule */
        "section Aggregator 2 9 Vy -section 1\n"
        "beamIntegration UserDefined 8 3 1 2 1 0.0 0.5 1.0 0.1666666666666667 "
        "0.6666666666666666 0.1666666666666667\n"
        "element forceBeamColumn 1 1 3 2 8\nelement forceBeamColumn 2 2 4 2 8\n"
        "element dispBeamColumn 3 3 4 1 8\n",
    };
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        snprintf(tcl, sizeof tcl,
                 "%ssection Elastic 1 %s %s %s\nuniaxialMaterial Elastic 9 1e20\n%s", HEAD, E, A, I,
                 forms[f]);
        char name[16];
        snprintf(name, sizeof name, "form%zu", f);
        double *K = stiffness(ctx, dir, name, tcl, &n);
        assert_int_equal(n, nr);
        /* (the aggregated shear spring of form 3 adds L / 1e20 of flexibility: 1e-14) */
        same_stiffness(K, R, n, 1e-10);
        free(K);
    }
    free(R);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

/* A column section of elastic fibers: a 0.3 x 0.5 rectangle of 10 layers along y plus two bar
 * layers and two single fibers; EI = E (b h^3 / 12 (1 - 1/100) + sum A y^2), EA = E (b h +
 * bars). */
static void test_fiber_section_frame(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024], tcl[4096];
    hs_test_make_dir(dir, sizeof dir, "opensees_fiber");
    const double E = 2e10, b = 0.3, h = 0.5, Ab = 5e-4;
    const double EA = E * (b * h + 8 * Ab + 2 * Ab);
    const double EI =
        E * (b * h * h * h / 12.0 * (1.0 - 1.0 / 100.0) + 8 * Ab * 0.2 * 0.2 + 2 * Ab * 0.1 * 0.1);
    snprintf(tcl, sizeof tcl,
             "%suniaxialMaterial Elastic 1 %.17g\n"
             "section Fiber 1 {\n"
             "  patch rect 1 10 3 -0.25 -0.15 0.25 0.15\n"
             "  layer straight 1 4 %.17g 0.2 -0.1 0.2 0.1\n"
             "  layer straight 1 4 %.17g -0.2 -0.1 -0.2 0.1\n"
             "  fiber 0.1 0.0 %.17g 1\n"
             "  fiber -0.1 0.0 %.17g 1\n"
             "}\n"
             "beamIntegration Lobatto 1 1 5\n"
             "element forceBeamColumn 1 1 3 2 1\nelement forceBeamColumn 2 2 4 2 1\n"
             "element dispBeamColumn 3 3 4 3 1 1\n",
             HEAD, E, Ab, Ab, Ab, Ab);
    int n, nr;
    double *K = stiffness(ctx, dir, "fiber", tcl, &n);
    snprintf(tcl, sizeof tcl,
             "%selement elasticBeamColumn 1 1 3 1.0 %.17g %.17g 2\n"
             "element elasticBeamColumn 2 2 4 1.0 %.17g %.17g 2\n"
             "element elasticBeamColumn 3 3 4 1.0 %.17g %.17g 1\n",
             HEAD, EA, EI / EA, EA, EI / EA, EA, EI / EA);
    double *R = stiffness(ctx, dir, "ref", tcl, &nr);
    assert_int_equal(n, nr);
    same_stiffness(K, R, n, 1e-10);
    free(K);
    free(R);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

static void test_errors(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024], tcl[2048];
    hs_test_make_dir(dir, sizeof dir, "opensees_fiber");
    snprintf(tcl, sizeof tcl, "%suniaxialMaterial Elastic 1 1e9\npatch rect 1 2 2 0 0 1 1\n", HEAD);
    HS_TCL_FAILS(tcl, "frame.tcl:8", "patch outside a section Fiber's body");
    snprintf(tcl, sizeof tcl, "%ssection Fiber 1 {\n  patch rect 4 2 2 0 0 1 1\n}\n", HEAD);
    HS_TCL_FAILS(tcl, "frame.tcl:7", "no uniaxialMaterial 4"); /* (the section's line) */
    snprintf(tcl, sizeof tcl,
             "%suniaxialMaterial Elastic 1 1e9\nsection Fiber 1 {\n"
             "  patch quad 1 2 2 0 0 0 1 1 1 1 0\n}\n",
             HEAD);
    HS_TCL_FAILS(tcl, "frame.tcl:8", "counterclockwise");
    snprintf(tcl, sizeof tcl, "%selement forceBeamColumn 1 1 3 2 5\n", HEAD);
    HS_TCL_FAILS(tcl, "frame.tcl:7", "no beamIntegration 5");
    snprintf(tcl, sizeof tcl, "%ssection Elastic 1 2e11 0.01 2e-4\nbeamIntegration Gauss 1 1 3\n",
             HEAD);
    HS_TCL_FAILS(tcl, "frame.tcl:8", "'Gauss' is not supported", "Lobatto");
    snprintf(tcl, sizeof tcl,
             "%ssection Elastic 1 2e11 0.01 2e-4\n"
             "element forceBeamColumn 1 1 3 2 {HingeRadau 1 2.0 1 2.0 1}\n",
             HEAD);
    HS_TCL_FAILS(tcl, "hinge lengths", "4 (lpI + lpJ) < L");
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elastic_section_forms),
        cmocka_unit_test(test_fiber_section_frame),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests_name("opensees_fiber", tests, NULL, NULL);
}
