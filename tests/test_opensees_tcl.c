/* OpenSees Tcl models (structure.model.opensees, docs/opensees_tcl.md) against the same models
 * written in YAML:
 *  - a frame with every element and option hysim maps (P-Delta beams, a leaning-column truss tied
 *    by equalDOF, a Steel02 zero-length hinge, node and element masses) gives the YAML frame's
 *    mass, influence and condensed initial stiffness bit for bit; its rayleigh gives
 *    C = alphaM M + betaK K0;
 *  - gravity loads (pattern Plain) give the P-Delta columns their compression: the periods of
 *    the YAML frame with axial_compression 2000 to 1e-12;
 *  - an N-story frame built by a proc in a loop has the periods of the YAML frame written out;
 *  - each uniaxialMaterial (OpenSees' argument order and defaults) is the YAML material with
 *    named parameters: the same forces along a cyclic history, bit for bit;
 *  - Rayleigh factors follow OpenSees' rules (rayleigh: what exists then; region -ele: its
 *    elements and their nodes; part of the model: refused); a -ndf 2 truss is the YAML truss;
 *  - errors name SCRIPT:LINE and the command (in a proc called from a loop too), and say what
 *    hysim does not support yet. */
#include "hs_output.h"
#include "hs_test.h"
#include "hs_tcl_def.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *FRAME_TCL =
    "# a portal frame on a Steel02 hinge, with a leaning column\n"
    "model BasicBuilder -ndm 2 -ndf 3\n"
    "node 1 0 0; node 2 6 0; node 3 0 3.5 -mass 7 0 0; node 4 6 3.5 -mass 20 0 0\n"
    "node 5 0 0; node 6 9 0; node 7 9 3.5\n"
    "fix 1 1 1 1; fix 2 1 1 1; fix 5 1 1 0; fix 6 1 1 1; fix 7 0 0 1\n"
    "mass 3 20 0 0\n" /* replaces -mass 7, as in OpenSees */
    "mass 7 0 0.5 0\n"
    "geomTransf PDelta 1\n"
    "geomTransf Linear 2\n"
    "uniaxialMaterial Elastic 1 200e6\n"
    "uniaxialMaterial Steel02 2 500 1e5 0.02\n"
    "element elasticBeamColumn 1 5 3 0.02 30e6 2e-3 1\n"
    "element elasticBeamColumn 2 2 4 0.02 30e6 2e-3 1\n"
    "element elasticBeamColumn 3 3 4 0.03 30e6 4e-3 2 -mass 0.5\n"
    "element truss 4 6 7 0.01 1 -doRayleigh 1\n"
    "element zeroLength 5 1 5 -mat 2 -dir 6 -doRayleigh 1\n"
    "equalDOF 4 7 1\n"
    "rayleigh 0.3 0.002 0 0\n";

static const char *FRAME_YAML =
    "materials:\n"
    "  hinge: {type: steel02, fy: 500, E0: 1e5, b: 0.02}\n"
    "structure:\n"
    "  model:\n"
    "    nodes:\n"
    "      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}\n"
    "      - {id: 2, x: 6, y: 0, fix: [1, 1, 1]}\n"
    "      - {id: 3, x: 0, y: 3.5, mass: [21.5, 1.5, 0]}\n"
    "      - {id: 4, x: 6, y: 3.5, mass: [21.5, 1.5, 0]}\n"
    "      - {id: 5, x: 0, y: 0, fix: [1, 1, 0]}\n"
    "      - {id: 6, x: 9, y: 0, fix: [1, 1, 1]}\n"
    "      - {id: 7, x: 9, y: 3.5, fix: [0, 0, 1], mass: [0, 0.5, 0]}\n"
    "    elements:\n"
    "      - {type: elastic_beam, nodes: [5, 3], E: 30e6, A: 0.02, I: 2e-3, transf: pdelta}\n"
    "      - {type: elastic_beam, nodes: [2, 4], E: 30e6, A: 0.02, I: 2e-3, transf: pdelta}\n"
    "      - {type: elastic_beam, nodes: [3, 4], E: 30e6, A: 0.03, I: 4e-3}\n"
    "      - {type: truss, nodes: [6, 7], E: 200e6, A: 0.01}\n"
    "      - {type: zero_length, nodes: [1, 5], dir: rz, material: hinge}\n"
    "    equal_dof:\n"
    "      - {master: 4, slave: 7, dofs: [x]}\n"
    "  damping: {none: true}\n";

static void same_matrices(const hs_test_def *a, const hs_test_def *b, double *K0, int *n_out)
{
    const int n = hs_model_ndof(a->model);
    assert_int_equal(hs_model_ndof(b->model), n);
    const size_t nn = (size_t)n * (size_t)n;
    double *Ka = calloc(nn, sizeof *Ka), *Kb = calloc(nn, sizeof *Kb);
    assert_int_equal(hs_model_initial_stiffness(a->model, Ka), 0);
    assert_int_equal(hs_model_initial_stiffness(b->model, Kb), 0);
    assert_memory_equal(Ka, Kb, nn * sizeof *Ka);
    assert_memory_equal(hs_model_mass(a->model), hs_model_mass(b->model),
                        (size_t)n * sizeof(double));
    assert_memory_equal(hs_model_influence(a->model), hs_model_influence(b->model),
                        (size_t)n * sizeof(double));
    assert_int_equal(hs_fe_condensed(hs_model_fe(a->model)),
                     hs_fe_condensed(hs_model_fe(b->model)));
    char na[48], nb[48];
    for (int i = 0; i < n; i++)
        assert_string_equal(hs_fe_dof_column(hs_model_fe(a->model), i, na, sizeof na),
                            hs_fe_dof_column(hs_model_fe(b->model), i, nb, sizeof nb));
    if (K0) memcpy(K0, Ka, nn * sizeof *Ka);
    if (n_out) *n_out = n;
    free(Ka);
    free(Kb);
}

static void test_frame_same_as_yaml(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_tcl");
    hs_tcl_write_file(dir, "frame.tcl", FRAME_TCL);
    hs_test_def *tcl =
        hs_tcl_load(ctx, dir, "tcl", "structure:\n  model: {opensees: frame.tcl}\n", NULL, 0);
    hs_test_def *yaml = hs_tcl_load(ctx, dir, "yaml", FRAME_YAML, NULL, 0);
    assert_non_null(tcl);
    assert_non_null(yaml);
    double K0[64];
    int n;
    same_matrices(tcl, yaml, K0, &n);
    assert_int_equal(n, 5); /* nodes 3 and 4 ux uy, node 7 uy (its ux follows node 4) */
    assert_false(hs_model_is_linear(tcl->model)); /* the Steel02 hinge */
    /* rayleigh 0.3 0.002 0 0 on every node and element: C = 0.3 M + 0.002 K0 */
    const double *C = hs_model_damping(tcl->model), *M = hs_model_mass_matrix(tcl->model);
    for (int k = 0; k < n * n; k++)
        HS_ASSERT_NEAR(C[k], 0.3 * M[k] + 0.002 * K0[k], 1e-12 * (fabs(K0[k]) * 0.002 + 1.0));
    assert_string_equal(tcl->damping_kind, "rayleigh");
    /* the script and nothing else is an input (the ground motion is the test file's) */
    assert_int_equal(tcl->ninputs, 1);
    assert_non_null(strstr(tcl->inputs[0], "frame.tcl"));
    hs_test_def_destroy(&tcl);
    hs_test_def_destroy(&yaml);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

/* Periods (s) of a loaded definition, ascending; n of them. */
static void periods(hs_test_def *def, double *T, int *n)
{
    *n = hs_model_ndof(def->model);
    double w2[64];
    assert_int_equal(hs_model_modes(def->model, w2, NULL), 0);
    for (int i = 0; i < *n; i++) T[i] = 2.0 * HS_PI / sqrt(w2[i]);
}

static void test_gravity_pdelta(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_tcl");
    hs_tcl_write_file(dir, "frame.tcl",
                      "model BasicBuilder -ndm 2 -ndf 3\n"
                      "node 1 0 0; node 2 6 0; node 3 0 3.5; node 4 6 3.5\n"
                      "fix 1 1 1 1; fix 2 1 1 1\n"
                      "mass 3 20 0 0; mass 4 20 0 0\n"
                      "geomTransf PDelta 1\n"
                      "geomTransf Linear 2\n"
                      "element elasticBeamColumn 1 1 3 0.02 30e6 2e-3 1\n"
                      "element elasticBeamColumn 2 2 4 0.02 30e6 2e-3 1\n"
                      "element elasticBeamColumn 3 3 4 0.03 30e6 4e-3 2\n"
                      "timeSeries Linear 1\n"
                      "pattern Plain 1 1 { load 3 0 -2000 0; load 4 0 -2000 0 }\n");
    hs_test_def *tcl = hs_tcl_load(
        ctx, dir, "tcl", "structure:\n  model: {opensees: frame.tcl}\n  damping: {none: true}\n",
        NULL, 0);
    hs_test_def *yaml = hs_tcl_load(
        ctx, dir, "yaml",
        "structure:\n  model:\n    nodes:\n"
        "      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}\n      - {id: 2, x: 6, y: 0, fix: [1, 1, 1]}\n"
        "      - {id: 3, x: 0, y: 3.5, mass: [20, 0, 0]}\n"
        "      - {id: 4, x: 6, y: 3.5, mass: [20, 0, 0]}\n    elements:\n"
        "      - {type: elastic_beam, nodes: [1, 3], E: 30e6, A: 0.02, I: 2e-3, transf: pdelta, "
        "axial_compression: 2000}\n"
        "      - {type: elastic_beam, nodes: [2, 4], E: 30e6, A: 0.02, I: 2e-3, transf: pdelta, "
        "axial_compression: 2000}\n"
        "      - {type: elastic_beam, nodes: [3, 4], E: 30e6, A: 0.03, I: 4e-3}\n"
        "  damping: {none: true}\n",
        NULL, 0);
    assert_non_null(tcl);
    assert_non_null(yaml);
    double Ta[8], Tb[8];
    int na, nb;
    periods(tcl, Ta, &na);
    periods(yaml, Tb, &nb);
    assert_int_equal(na, 2);
    assert_int_equal(nb, 2);
    for (int i = 0; i < 2; i++) HS_ASSERT_NEAR(Ta[i] / Tb[i], 1.0, 1e-12);
    /* OpenSees 3.8.0's eigen after the gravity step and loadConst (docs/fe_model.md): 0.26293 s */
    HS_ASSERT_NEAR(Ta[0], 0.26293, 5e-6);
    hs_test_def_destroy(&tcl);
    hs_test_def_destroy(&yaml);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

static void test_stories_by_proc(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_tcl");
    hs_tcl_write_file(
        dir, "stories.tcl",
        "model BasicBuilder -ndm 2 -ndf 3\n"
        "set nStory 5; set h 3.2; set bay 6.0\n"
        "node 1 0 0; node 2 $bay 0\n"
        "fix 1 1 1 1; fix 2 1 1 1\n"
        "geomTransf Linear 1\n"
        "proc story {i h bay m} {\n"
        "    set b [expr {2 * $i + 1}]\n"
        "    node $b 0 [expr {$i * $h}] -mass $m 0 0\n"
        "    node [expr {$b + 1}] $bay [expr {$i * $h}] -mass $m 0 0\n"
        "    element elasticBeamColumn [expr {3 * $i - 2}] [expr {$b - 2}] $b 0.02 200e6 1e-4 1\n"
        "    element elasticBeamColumn [expr {3 * $i - 1}] [expr {$b - 1}] [expr {$b + 1}] "
        "0.02 200e6 1e-4 1\n"
        "    element elasticBeamColumn [expr {3 * $i}] $b [expr {$b + 1}] 0.03 200e6 4e-4 1\n"
        "}\n"
        "for {set i 1} {$i <= $nStory} {incr i} { story $i $h $bay [expr {50.0 - 5 * $i}] }\n");
    char yaml[12000] = "structure:\n  model:\n    nodes:\n"
                       "      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}\n"
                       "      - {id: 2, x: 6.0, y: 0, fix: [1, 1, 1]}\n";
    char els[6000] = "    elements:\n";
    for (int i = 1; i <= 5; i++) {
        const int b = 2 * i + 1;
        char line[400];
        snprintf(line, sizeof line,
                 "      - {id: %d, x: 0, y: %.17g, mass: [%d, 0, 0]}\n"
                 "      - {id: %d, x: 6.0, y: %.17g, mass: [%d, 0, 0]}\n",
                 b, i * 3.2, 50 - 5 * i, b + 1, i * 3.2, 50 - 5 * i);
        strcat(yaml, line);
        snprintf(line, sizeof line,
                 "      - {type: elastic_beam, nodes: [%d, %d], E: 200e6, A: 0.02, I: 1e-4}\n"
                 "      - {type: elastic_beam, nodes: [%d, %d], E: 200e6, A: 0.02, I: 1e-4}\n"
                 "      - {type: elastic_beam, nodes: [%d, %d], E: 200e6, A: 0.03, I: 4e-4}\n",
                 b - 2, b, b - 1, b + 1, b, b + 1);
        strcat(els, line);
    }
    strcat(yaml, els);
    strcat(yaml, "  damping: {none: true}\n");
    hs_test_def *tcl = hs_tcl_load(
        ctx, dir, "tcl", "structure:\n  model: {opensees: stories.tcl}\n  damping: {none: true}\n",
        NULL, 0);
    hs_test_def *ref = hs_tcl_load(ctx, dir, "yaml", yaml, NULL, 0);
    assert_non_null(tcl);
    assert_non_null(ref);
    same_matrices(tcl, ref, NULL, NULL);
    double Ta[16], Tb[16];
    int na, nb;
    periods(tcl, Ta, &na);
    periods(ref, Tb, &nb);
    assert_int_equal(na, 10);
    assert_int_equal(nb, 10);
    for (int i = 0; i < na; i++) assert_true(Ta[i] == Tb[i]);
    printf("5-story frame from a Tcl proc: T1 = %.6g s, as the YAML frame\n", Ta[na - 1]);
    hs_test_def_destroy(&tcl);
    hs_test_def_destroy(&ref);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

/* Each uniaxialMaterial with OpenSees' argument order gives the hysim material written in YAML
 * with named parameters: the same forces along a cyclic deformation history, bit for bit. */
static void test_materials_map(void **state)
{
    (void)state;
    static const struct {
        const char *tcl, *yaml;
    } cases[] = {
        {"Elastic 2 3000.0", "{type: elastic, k: 3000.0}"},
        {"Steel01 2 100.0 5000.0 0.05", "{type: steel01, fy: 100, E0: 5000, b: 0.05}"},
        {"Steel01 2 100.0 5000.0 0.05 0.02 2.0 0.01 3.0",
         "{type: steel01, fy: 100, E0: 5000, b: 0.05, a1: 0.02, a2: 2, a3: 0.01, a4: 3}"},
        {"Steel02 2 100.0 5000.0 0.05", "{type: steel02, fy: 100, E0: 5000, b: 0.05}"},
        {"Steel02 2 100.0 5000.0 0.05 18.0 0.9 0.2",
         "{type: steel02, fy: 100, E0: 5000, b: 0.05, R0: 18, cR1: 0.9, cR2: 0.2}"},
        {"Steel02 2 100.0 5000.0 0.05 18.0 0.9 0.2 0.01 1.5 0.02 2.0 20.0",
         "{type: steel02, fy: 100, E0: 5000, b: 0.05, R0: 18, cR1: 0.9, cR2: 0.2, a1: 0.01, "
         "a2: 1.5, a3: 0.02, a4: 2.0, sig_init: 20}"},
        {"BoucWen 2 0.05 5000.0 2.0 0.4 0.6 1.0 0.1 0.05 0.02",
         "{type: bouc_wen, alpha: 0.05, k0: 5000, n: 2, gamma: 0.4, beta: 0.6, A0: 1, delta_a: "
         "0.1, delta_nu: 0.05, delta_eta: 0.02}"},
        {"BoucWen 2 0.05 5000.0 2.0 0.4 0.6 1.0 0.1 0.05 0.02 1e-8 20",
         "{type: bouc_wen, alpha: 0.05, k0: 5000, n: 2, gamma: 0.4, beta: 0.6, A0: 1, delta_a: "
         "0.1, delta_nu: 0.05, delta_eta: 0.02}"},
        {"ElasticPPGap 2 8000.0 80.0 0.01", "{type: elastic_pp_gap, E: 8000, fy: 80, gap: 0.01}"},
        {"ElasticPPGap 2 8000.0 -80.0 -0.01 0.05 damage",
         "{type: elastic_pp_gap, E: 8000, fy: -80, gap: -0.01, eta: 0.05, damage: damage}"},
        {"Viscous 2 50.0 0.5", "{type: viscous, c: 50, alpha: 0.5}"},
        {"Viscous 2 50.0 0.5 1e-4", "{type: viscous, c: 50, alpha: 0.5, v_reg: 1e-4}"},
        {"Elastic 2 3000.0 20.0 1500.0", "{type: elastic, k: 3000, eta: 20, Eneg: 1500}"},
        {"ElasticPP 2 8000.0 0.01", "{type: elastic_pp, E: 8000, epsyP: 0.01}"},
        {"ElasticPP 2 8000.0 0.01 -0.02 0.001",
         "{type: elastic_pp, E: 8000, epsyP: 0.01, epsyN: -0.02, eps0: 0.001}"},
        {"Concrete01 2 -30.0 -0.02 -6.0 -0.06",
         "{type: concrete01, fpc: -30, epsc0: -0.02, fpcu: -6, epscu: -0.06}"},
        {"Concrete01 2 30.0 0.02 6.0 0.06",
         "{type: concrete01, fpc: -30, epsc0: -0.02, fpcu: -6, epscu: -0.06}"},
        {"Concrete02 2 -30.0 -0.02 -6.0 -0.06",
         "{type: concrete02, fc: -30, epsc0: -0.02, fcu: -6, epscu: -0.06, lambda: 0.1, ft: 3, "
         "Ets: 150}"},
        {"Concrete02 2 -30.0 -0.02 -6.0 -0.06 0.2 2.0 800.0",
         "{type: concrete02, fc: -30, epsc0: -0.02, fcu: -6, epscu: -0.06, lambda: 0.2, ft: 2, "
         "Ets: 800}"},
        {"Hysteretic 2 100.0 0.01 120.0 0.05 -100.0 -0.01 -120.0 -0.05 0.8 0.2 0.01 0.01",
         "{type: hysteretic, s1p: 100, e1p: 0.01, s2p: 120, e2p: 0.05, s1n: -100, e1n: -0.01, "
         "s2n: -120, e2n: -0.05, pinchX: 0.8, pinchY: 0.2, damage1: 0.01, damage2: 0.01}"},
        {"Hysteretic 2 100.0 0.01 120.0 0.03 110.0 0.07 -100.0 -0.01 -120.0 -0.03 -90.0 -0.08 "
         "0.8 0.2 0.01 0.01 0.3",
         "{type: hysteretic, s1p: 100, e1p: 0.01, s2p: 120, e2p: 0.03, s3p: 110, e3p: 0.07, s1n: "
         "-100, e1n: -0.01, s2n: -120, e2n: -0.03, s3n: -90, e3n: -0.08, pinchX: 0.8, pinchY: "
         "0.2, damage1: 0.01, damage2: 0.01, beta: 0.3}"},
        {"ElasticBilin 2 5000.0 500.0 0.02",
         "{type: elastic_bilin, E1p: 5000, E2p: 500, eps2p: 0.02}"},
        {"ElasticBilin 2 5000.0 500.0 0.02 4000.0 -100.0 0.03",
         "{type: elastic_bilin, E1p: 5000, E2p: 500, eps2p: 0.02, E1n: 4000, E2n: -100, eps2n: "
         "-0.03}"},
        {"HystereticPoly 2 5000.0 200.0 3.0 10.0 -5.0 1.0e-6",
         "{type: hysteretic_poly, ka: 5000, kb: 200, a: 3, b1: 10, b2: -5, tol: 1e-6}"},
        {"HystereticSmooth 2 5000.0 200.0 60.0 2.0",
         "{type: hysteretic_smooth, ka: 5000, kb: 200, fbar: 60, beta: 2}"},
        {"HystereticSmooth 2 5000.0 200.0 40.0 2.0 -alpha",
         "{type: hysteretic_smooth, ka: 5000, kb: 200, alpha: 40, beta: 2}"},
        {"HystereticAsym 2 5000.0 200.0 60.0 3.0 2.0 1.5",
         "{type: hysteretic_asym, ka: 5000, kb: 200, fo: 60, b1: 3, b2: 2, gamma: 1.5}"},
        {"HystereticAsym 2 5000.0 200.0 40.0 3.0 2.0 1.5 -alpha",
         "{type: hysteretic_asym, ka: 5000, kb: 200, alpha: 40, b1: 3, b2: 2, gamma: 1.5}"},
        {"Ratchet 2 5000.0 0.01 0.005 1",
         "{type: ratchet, E: 5000, freeTravel: 0.01, freeTravelInitial: 0.005, RatType: 1}"},
        {"SteelBRB 2 5000.0 80.0 120.0 2.0 0.02 0.1 140.0 3.0 0.03 0.2 1.0e-12",
         "{type: steel_brb, E: 5000, sigmaY0: 80, sigmaY_T: 120, alpha_T: 2, beta_T: 0.02, "
         "delta_T: 0.1, sigmaY_C: 140, alpha_C: 3, beta_C: 0.03, delta_C: 0.2, tol: 1e-12}"},
        {"BWBN 2 0.05 5000.0 2 0.4 0.6 1 0.2 0.8 2 0.3 0.01 0.2 1e-12 50",
         "{type: bwbn, alpha: 0.05, ko: 5000, n: 2, gamma: 0.4, beta: 0.6, Ao: 1, q: 0.2, zetas: "
         "0.8, p: 2, Shi: 0.3, deltaShi: 0.01, lamda: 0.2, tolerance: 1e-12, maxNumIter: 50}"},
        {"BoucWenInfill 2 10.0 0.05 0.5 0.3 2.0 5000.0 0.02 0.01 0.005 0.2 0.3 0.5 0.5 1e-12 50",
         "{type: bouc_wen_infill, mass: 10, alpha: 0.05, beta0: 0.5, eta0: 0.3, n: 2, k: 5000, xy: "
         "0.02, deltak: 0.01, deltaf: 0.005, psi: 0.2, Zs: 0.3, As: 0.5, epsp: 0.5, tolerance: "
         "1e-12, maxNumIter: 50}"},
    };
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_tcl");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char tcl[1024], yaml[2048];
        snprintf(tcl, sizeof tcl,
                 "model BasicBuilder -ndm 2 -ndf 3\nnode 1 0 0; node 2 0 0 -mass 10 0 0\n"
                 "fix 1 1 1 1; fix 2 0 1 1\nuniaxialMaterial %s\n"
                 "element zeroLength 1 1 2 -mat 2 -dir 1\n",
                 cases[c].tcl);
        hs_tcl_write_file(dir, "sdof.tcl", tcl);
        snprintf(yaml, sizeof yaml,
                 "materials:\n  m: %s\nstructure:\n  model:\n    nodes:\n"
                 "      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}\n"
                 "      - {id: 2, x: 0, y: 0, fix: [0, 1, 1], mass: [10, 0, 0]}\n"
                 "    elements:\n      - {type: zero_length, nodes: [1, 2], dir: x, material: m}\n"
                 "  damping: {none: true}\n",
                 cases[c].yaml);
        hs_test_def *a = hs_tcl_load(
            ctx, dir, "tcl", "structure:\n  model: {opensees: sdof.tcl}\n  damping: {none: true}\n",
            NULL, 0);
        hs_test_def *b = hs_tcl_load(ctx, dir, "yaml", yaml, NULL, 0);
        if (!a || !b) fprintf(stderr, "case %s\n", cases[c].tcl);
        assert_non_null(a);
        assert_non_null(b);
        hs_material *ma = hs_fe_element_material(hs_model_fe(a->model), 0),
                    *mb = hs_fe_element_material(hs_model_fe(b->model), 0);
        assert_non_null(ma);
        assert_non_null(mb);
        assert_string_equal(hs_material_type(ma), hs_material_type(mb));
        /* three growing cycles to 4 yield deformations and back, with rates */
        for (int k = 1; k <= 600; k++) {
            const double t = k / 200.0, e = 0.08 * t / 3.0 * sin(2.0 * HS_PI * t),
                         v = 0.08 / 3.0 *
                             (sin(2.0 * HS_PI * t) + 2.0 * HS_PI * t * cos(2.0 * HS_PI * t));
            assert_int_equal(hs_material_set_trial(ma, e, v), 0);
            assert_int_equal(hs_material_set_trial(mb, e, v), 0);
            if (hs_material_stress(ma) != hs_material_stress(mb) ||
                hs_material_tangent(ma) != hs_material_tangent(mb)) {
                fprintf(stderr, "%s: step %d: %.17g against %.17g\n", cases[c].tcl, k,
                        hs_material_stress(ma), hs_material_stress(mb));
                fail();
            }
            hs_material_commit(ma);
            hs_material_commit(mb);
        }
        hs_test_def_destroy(&a);
        hs_test_def_destroy(&b);
    }
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

/* C of a loaded definition against a0 M + a1 K0 (relative 1e-13). */
static void damping_is(const hs_test_def *def, double a0, double a1)
{
    const int n = hs_model_ndof(def->model);
    double K0[64];
    assert_int_equal(hs_model_initial_stiffness(def->model, K0), 0);
    const double *C = hs_model_damping(def->model), *M = hs_model_mass_matrix(def->model);
    for (int k = 0; k < n * n; k++)
        HS_ASSERT_NEAR(C[k], a0 * M[k] + a1 * K0[k],
                       1e-13 * (fabs(a1 * K0[k]) + fabs(a0 * M[k]) + 1.0));
}

/* OpenSees' rules for Rayleigh factors: rayleigh sets the nodes and elements that exist then;
 * region -ele takes its elements and their nodes; a region over part of the model is refused
 * (hysim's C is one matrix). A -ndf 2 truss model is the YAML truss with the rotations fixed. */
static void test_rayleigh_and_trusses(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024], msg[2048];
    hs_test_make_dir(dir, sizeof dir, "opensees_tcl");
    const char *frame =
        "model BasicBuilder -ndm 2 -ndf 3\n"
        "node 1 0 0; node 2 6 0; node 3 0 3.5 -mass 20 0 0; node 4 6 3.5 -mass 20 0 0\n"
        "fixY 0.0 1 1 1\n"
        "geomTransf Linear 1\n";
    const char *els = "element elasticBeamColumn 1 1 3 0.02 30e6 2e-3 1\n"
                      "element elasticBeamColumn 2 2 4 0.02 30e6 2e-3 1\n"
                      "element elasticBeamColumn 3 3 4 0.03 30e6 4e-3 1\n";
    const char *yaml = "structure:\n  model: {opensees: frame.tcl}\n";
    char tcl[2048];
    /* a region over every element (and so every node) */
    snprintf(tcl, sizeof tcl, "%s%sregion 1 -ele 1 2 3 -rayleigh 0.2 0.001 0 0\n", frame, els);
    hs_tcl_write_file(dir, "frame.tcl", tcl);
    hs_test_def *def = hs_tcl_load(ctx, dir, "region", yaml, msg, sizeof msg);
    if (!def) fprintf(stderr, "%s\n", msg);
    assert_non_null(def);
    damping_is(def, 0.2, 0.001);
    hs_test_def_destroy(&def);
    /* rayleigh before the elements: the nodes take alphaM, the elements nothing */
    snprintf(tcl, sizeof tcl, "%srayleigh 0.1 0.01 0 0\n%s", frame, els);
    hs_tcl_write_file(dir, "frame.tcl", tcl);
    def = hs_tcl_load(ctx, dir, "early", yaml, msg, sizeof msg);
    assert_non_null(def);
    damping_is(def, 0.1, 0.0);
    hs_test_def_destroy(&def);
    /* a region over two of the three elements */
    snprintf(tcl, sizeof tcl, "%s%sregion 1 -eleRange 1 2 -rayleigh 0.2 0.001 0 0\n", frame, els);
    hs_tcl_write_file(dir, "frame.tcl", tcl);
    def = hs_tcl_load(ctx, dir, "part", yaml, msg, sizeof msg);
    assert_null(def);
    assert_non_null(
        strstr(msg, "element 3: not yet supported by hysim: its Rayleigh stiffness factor"));
    /* -ndf 2: a two-bar truss */
    hs_tcl_write_file(dir, "truss.tcl",
                      "model BasicBuilder -ndm 2 -ndf 2\n"
                      "node 1 0 0; node 2 4 0; node 3 2 1.5\n"
                      "fix 1 1 1; fix 2 1 1\nmass 3 2 2\n"
                      "uniaxialMaterial Elastic 7 2e8\n"
                      "element truss 1 1 3 0.001 7\nelement truss 2 2 3 0.002 7\n");
    hs_test_def *a = hs_tcl_load(
        ctx, dir, "truss", "structure:\n  model: {opensees: truss.tcl}\n  damping: {none: true}\n",
        NULL, 0);
    hs_test_def *b = hs_tcl_load(ctx, dir, "truss_yaml",
                                 "structure:\n  model:\n    nodes:\n"
                                 "      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}\n"
                                 "      - {id: 2, x: 4, y: 0, fix: [1, 1, 1]}\n"
                                 "      - {id: 3, x: 2, y: 1.5, fix: [0, 0, 1], mass: [2, 2, 0]}\n"
                                 "    elements:\n"
                                 "      - {type: truss, nodes: [1, 3], E: 2e8, A: 0.001}\n"
                                 "      - {type: truss, nodes: [2, 3], E: 2e8, A: 0.002}\n"
                                 "  damping: {none: true}\n",
                                 NULL, 0);
    assert_non_null(a);
    assert_non_null(b);
    same_matrices(a, b, NULL, NULL);
    hs_test_def_destroy(&a);
    hs_test_def_destroy(&b);
    /* corotTruss is the corotational truss: the same forces at a large displacement */
    hs_tcl_write_file(dir, "truss.tcl",
                      "model BasicBuilder -ndm 2 -ndf 2\n"
                      "node 1 0 0; node 2 4 0; node 3 2 1.5\n"
                      "fix 1 1 1; fix 2 1 1\nmass 3 2 2\n"
                      "uniaxialMaterial Elastic 7 2e8\n"
                      "element corotTruss 1 1 3 0.001 7\nelement truss 2 2 3 0.002 7\n");
    a = hs_tcl_load(ctx, dir, "truss",
                    "structure:\n  model: {opensees: truss.tcl}\n  damping: {none: true}\n", NULL,
                    0);
    b = hs_tcl_load(ctx, dir, "truss_yaml",
                    "structure:\n  model:\n    nodes:\n"
                    "      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}\n"
                    "      - {id: 2, x: 4, y: 0, fix: [1, 1, 1]}\n"
                    "      - {id: 3, x: 2, y: 1.5, fix: [0, 0, 1], mass: [2, 2, 0]}\n"
                    "    elements:\n"
                    "      - {type: truss, nodes: [1, 3], E: 2e8, A: 0.001, transf: corotational}\n"
                    "      - {type: truss, nodes: [2, 3], E: 2e8, A: 0.002}\n"
                    "  damping: {none: true}\n",
                    NULL, 0);
    assert_non_null(a);
    assert_non_null(b);
    const double d[2] = {0.4, -0.9};
    double ra[2] = {0, 0}, rb[2] = {0, 0}, rl[2] = {0, 0};
    assert_int_equal(hs_model_restore(a->model, d, NULL, ra, NULL, NULL), 0);
    assert_int_equal(hs_model_restore(b->model, d, NULL, rb, NULL, NULL), 0);
    assert_memory_equal(ra, rb, sizeof ra);
    hs_test_def_destroy(&a);
    hs_test_def_destroy(&b);
    /* and not the linear one */
    hs_tcl_write_file(dir, "truss.tcl",
                      "model BasicBuilder -ndm 2 -ndf 2\n"
                      "node 1 0 0; node 2 4 0; node 3 2 1.5\n"
                      "fix 1 1 1; fix 2 1 1\nmass 3 2 2\n"
                      "uniaxialMaterial Elastic 7 2e8\n"
                      "element truss 1 1 3 0.001 7\nelement truss 2 2 3 0.002 7\n");
    hs_test_def *lin = hs_tcl_load(
        ctx, dir, "truss_lin",
        "structure:\n  model: {opensees: truss.tcl}\n  damping: {none: true}\n", NULL, 0);
    assert_non_null(lin);
    assert_int_equal(hs_model_restore(lin->model, d, NULL, rl, NULL, NULL), 0);
    assert_true(fabs(rl[0] - ra[0]) > 1e-3 * fabs(ra[0]));
    hs_test_def_destroy(&lin);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

static void test_errors(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_tcl");
#define M2 "model BasicBuilder -ndm 2 -ndf 3\nnode 1 0 0; node 2 0 3 -mass 1 0 0\nfix 1 1 1 1\n"
    /* an unknown command in a proc called in a loop: the line of the command itself */
    HS_TCL_FAILS(M2 "proc p {} {\n  nDMaterial ElasticIsotropic 1 1 0.3\n}\nfor {set i 0} {$i < 2} "
                    "{incr i} { p }\n",
                 "frame.tcl:5: nDMaterial: not yet supported by hysim");
    HS_TCL_FAILS(
        M2 "proc p {} {\n  elemnt truss 1 1 2 0.1 1\n}\nfor {set i 0} {$i < 2} {incr i} { p }\n",
        "frame.tcl:5: elemnt: unknown command (did you mean 'element'?)");
    HS_TCL_FAILS(M2
                 "geomTransf Linear 1\nelement elasticBeamColumn 1 1 2 0.02 30e6 2e-3 1 -foo 3\n",
                 "frame.tcl:5: element: option '-foo' is not supported by hysim");
    HS_TCL_FAILS(M2 "geomTransf Linear 1\nelement elasticBeamColumn 1 1 2 0.02 30e6 2e-3 7\n",
                 "frame.tcl:5: element: no geomTransf 7");
    HS_TCL_FAILS("model BasicBuilder -ndm 2 -ndf 6\n", "frame.tcl:1: model: -ndm 2 -ndf 6");
    HS_TCL_FAILS(M2 "geomTransf Linear 1 0 0 1\n", "frame.tcl:4: geomTransf: a vector xz",
                 "3-D models (-ndm 3)");
    HS_TCL_FAILS(
        M2 "uniaxialMaterial Elastic 1 100\nelement twoNodeLink 1 1 2 -mat 1 -dir 1 -pDelta 1\n",
        "frame.tcl:5: element: -pDelta: expected Mratios (two numbers in -ndm 2: the P-Delta "
        "moment ratios about local z at iNode and jNode)");
    HS_TCL_FAILS(
        M2 "uniaxialMaterial Elastic 1 100\nelement twoNodeLink 1 1 2 -mat 1 -dir 4\n",
        "frame.tcl:5: element: -dir 4: a twoNodeLink in -ndm 2 -ndf 3 has the local directions 1 "
        "(axial), 2 (shear) and 3 (moment)");
    HS_TCL_FAILS(M2 "uniaxialMaterial Steel02 1 500 1e5 0.02 20\n",
                 "frame.tcl:4: uniaxialMaterial: 4 arguments after the tag", "Steel02 tag Fy E0 b");
    HS_TCL_FAILS(M2 "uniaxialMaterial Steel01 1 500 1e5 1.5\n", "frame.tcl:4: uniaxialMaterial:");
    HS_TCL_FAILS(
        M2 "node 3 0 3\nuniaxialMaterial Elastic 1 100\nelement zeroLength 1 2 3 -mat 1 -dir 3\n",
        "frame.tcl:6: element: -dir 3 acts on nothing");
    HS_TCL_FAILS(M2 "set x [expr {1 +}]\n", "frame.tcl:4: Tcl error");
    HS_TCL_FAILS(M2 "element elasticBeamColumn 1 1 2 0.02 30e6 2e-3\n",
                 "frame.tcl:4: element: expected");
    /* a truss without -doRayleigh takes no stiffness-proportional damping in OpenSees */
    HS_TCL_FAILS(
        M2 "node 3 3 0; fix 3 1 1 1\ngeomTransf Linear 1\nuniaxialMaterial Elastic 1 2e8\n"
           "element elasticBeamColumn 1 1 2 0.02 30e6 2e-3 1\nelement truss 2 3 2 0.01 1\n"
           "rayleigh 0 0.01 0 0\n",
        "frame.tcl:8: element 2: not yet supported by hysim: its Rayleigh stiffness factor",
        "-doRayleigh 1");
    HS_TCL_FAILS(M2 "pattern MultipleSupport 1 {}\n",
                 "frame.tcl:4: pattern: the pattern has no imposedMotion: nothing moves");
    HS_TCL_FAILS(
        M2 "imposedMotion 1 1 1\n",
        "frame.tcl:4: imposedMotion: an imposedMotion belongs inside 'pattern MultipleSupport");
    HS_TCL_FAILS(M2 "pattern MultipleSupport 1 {\n  imposedMotion 1 1 7\n}\n",
                 "frame.tcl:4: imposedMotion: no groundMotion 7");
    HS_TCL_FAILS(M2 "pattern MultipleSupport 1 {\n  groundMotion 1 Plain -vel 3\n}\n",
                 "frame.tcl:4: groundMotion: option '-vel' is not supported by hysim");
    /* the safe interpreter: no programs, no files written */
    HS_TCL_FAILS(M2 "exec touch x\n", "frame.tcl:4: exec: not available", "safe Tcl interpreter");
    HS_TCL_FAILS(M2 "set f [open out.txt w]\n", "frame.tcl:4: open: not available");
    HS_TCL_FAILS(M2 "file delete frame.tcl\n", "frame.tcl:4: file: 'file delete' is not available");
    /* `exit` ends the script as it ends OpenSees; file names and `file mkdir` (nothing) work */
    hs_tcl_write_file(
        dir, "frame.tcl",
        M2 "file mkdir [file join Data [file tail x/run]]\ngeomTransf Linear 1\n"
           "element elasticBeamColumn 1 1 2 0.02 30e6 2e-3 1\nexit\nthis is not Tcl {\n");
    char msg[2048];
    hs_test_def *def = hs_tcl_load(
        ctx, dir, "exit", "structure:\n  model: {opensees: frame.tcl}\n  damping: {none: true}\n",
        msg, sizeof msg);
    if (!def) fprintf(stderr, "%s\n", msg);
    assert_non_null(def);
    assert_int_equal(hs_model_ndof(def->model), 1);
    hs_test_def_destroy(&def);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frame_same_as_yaml),   cmocka_unit_test(test_gravity_pdelta),
        cmocka_unit_test(test_stories_by_proc),      cmocka_unit_test(test_materials_map),
        cmocka_unit_test(test_rayleigh_and_trusses), cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests_name("opensees_tcl", tests, NULL, NULL);
}
