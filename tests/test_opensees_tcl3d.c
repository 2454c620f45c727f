/* 3-D OpenSees Tcl models (docs/opensees_tcl.md "3-D models") against the same models in YAML:
 *  - examples/opensees/floor3d.tcl (3-D elasticBeamColumn with vecxz, PDelta columns, a truss,
 *    rigidDiaphragm with an eccentric master mass, loops over Tcl lists) without its gravity
 *    pattern gives examples/fe_3d_floor.yaml's mass, influence (ground in y) and condensed
 *    initial stiffness bit for bit (that file with axial_compression 0);
 *  - gravity in 3-D: four equal columns under equal loads on a rigid floor carry exactly their
 *    loads (the floor translates down, the beams stay unstrained): the periods of the YAML frame
 *    with axial_compression 500 to 1e-12;
 *  - a three-story 3-D frame built by a proc in a loop, a rigidDiaphragm per floor and a
 *    rigidLink bar; zeroLength springs in 3-D directions on a -ndm 3 -ndf 3 truss model: the
 *    YAML models' matrices bit for bit and so the same periods exactly;
 *  - errors name SCRIPT:LINE and the command for what hysim lacks in 3-D. */
#include "hs_output.h"
#include "hs_test.h"
#include "hs_tcl_def.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The two definitions have the same M, influence, condensed K0 and DOF names, bit for bit. */
static void same_matrices(const hs_test_def *a, const hs_test_def *b, int n_expected)
{
    const int n = hs_model_ndof(a->model);
    assert_int_equal(n, n_expected);
    assert_int_equal(hs_model_ndof(b->model), n);
    const size_t nn = (size_t)n * (size_t)n;
    double *Ka = calloc(nn, sizeof *Ka), *Kb = calloc(nn, sizeof *Kb);
    assert_int_equal(hs_model_initial_stiffness(a->model, Ka), 0);
    assert_int_equal(hs_model_initial_stiffness(b->model, Kb), 0);
    assert_memory_equal(Ka, Kb, nn * sizeof *Ka);
    double knorm = 0.0;
    for (size_t k = 0; k < nn; k++) knorm += fabs(Ka[k]);
    assert_true(knorm > 0.0);
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
    free(Ka);
    free(Kb);
}

/* Periods (s), ascending. */
static int periods(hs_test_def *def, double *T)
{
    const int n = hs_model_ndof(def->model);
    double w2[64];
    assert_true(n <= 64);
    assert_int_equal(hs_model_modes(def->model, w2, NULL), 0);
    for (int i = 0; i < n; i++) T[i] = 2.0 * HS_PI / sqrt(w2[i]);
    return n;
}

/* `text` with every `from` replaced by `to` (malloc'd). */
static char *replace(const char *text, const char *from, const char *to)
{
    char *out = calloc(strlen(text) * 2 + 1, 1);
    assert_non_null(out);
    const char *p = text;
    for (const char *q; (q = strstr(p, from)) != NULL; p = q + strlen(from)) {
        strncat(out, p, (size_t)(q - p));
        strcat(out, to);
    }
    strcat(out, p);
    return out;
}

static void test_floor_same_as_yaml(void **state)
{
    (void)state;
    const char *src = getenv("HS_SOURCE_DIR");
    assert_non_null(src);
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024], path[1200];
    hs_test_make_dir(dir, sizeof dir, "opensees_tcl3d");
    snprintf(path, sizeof path, "%s/examples/opensees/floor3d.tcl", src);
    char *tcl_text = hs_tcl_read_file(path);
    char *cut = strstr(tcl_text, "\ntimeSeries Linear 1");
    assert_non_null(cut); /* the example's gravity pattern: left out here */
    cut[1] = '\0';
    hs_tcl_write_file(dir, "floor.tcl", tcl_text);
    snprintf(path, sizeof path, "%s/examples/fe_3d_floor.yaml", src);
    char *yaml_text = hs_tcl_read_file(path);
    char *yaml0 = replace(yaml_text, "axial_compression: 500", "axial_compression: 0");
    hs_tcl_write_file(dir, "yaml.yaml", yaml0);
    snprintf(path, sizeof path, "%s/yaml.yaml", dir);
    hs_test_def *yaml = NULL;
    if (hs_testfile_load(ctx, path, &yaml)) fprintf(stderr, "%s\n", hs_ctx_message(ctx));
    hs_test_def *tcl = hs_tcl_load(ctx, dir, "tcl",
                                   "structure:\n  model: {opensees: floor.tcl, excitation: y}\n"
                                   "  damping: {rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}\n",
                                   NULL, 0);
    assert_non_null(tcl);
    assert_non_null(yaml);
    same_matrices(tcl, yaml, 3); /* node 100 ux, uy, rz; the rest condensed or slaves */
    /* the influence of the ground in y: node 100 uy only */
    const double *iota = hs_model_influence(tcl->model);
    assert_true(iota[0] == 0.0 && iota[1] == 1.0 && iota[2] == 0.0);
    assert_memory_equal(hs_model_damping(tcl->model), hs_model_damping(yaml->model),
                        9 * sizeof(double));
    hs_test_def_destroy(&tcl);
    hs_test_def_destroy(&yaml);
    free(tcl_text);
    free(yaml_text);
    free(yaml0);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

/* Four equal columns (vecxz x) under a rigid floor, a corner beam frame; FLOOR_TCL_LOADS adds
 * equal gravity loads on the column tops. */
#define FLOOR_TCL                                                                                  \
    "model BasicBuilder -ndm 3 -ndf 6\n"                                                           \
    "foreach {n x y} {1 0 0 2 6 0 3 6 4 4 0 4} {\n"                                                \
    "  node $n $x $y 0; node [expr {$n + 10}] $x $y 3.5; fix $n 1 1 1 1 1 1\n"                     \
    "}\n"                                                                                          \
    "node 100 3 2 3.5; fix 100 0 0 1 1 1 0; mass 100 40 40 0 0 0 173.0\n"                          \
    "rigidDiaphragm 3 100 11 12 13 14\n"                                                           \
    "geomTransf PDelta 1 1 0 0; geomTransf Linear 2 0 0 1\n"                                       \
    "foreach c {1 2 3 4} {\n"                                                                      \
    "  element elasticBeamColumn $c $c [expr {$c + 10}] 0.04 30e6 12e6 2e-4 1.5e-4 3e-4 1\n"       \
    "}\n"                                                                                          \
    "foreach {e i j} {5 11 12 6 12 13 7 13 14 8 14 11} {\n"                                        \
    "  element elasticBeamColumn $e $i $j 0.05 30e6 12e6 3e-4 2e-4 6e-4 2\n"                       \
    "}\n"

static void test_gravity_3d(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_tcl3d");
    hs_tcl_write_file(dir, "floor.tcl",
                      FLOOR_TCL
                      "timeSeries Linear 1\n"
                      "pattern Plain 1 1 { foreach n {11 12 13 14} { load $n 0 0 -500 0 0 0 } "
                      "}\n");
    hs_test_def *tcl = hs_tcl_load(
        ctx, dir, "tcl", "structure:\n  model: {opensees: floor.tcl}\n  damping: {none: true}\n",
        NULL, 0);
    char body[8192] = "structure:\n  model:\n    ndm: 3\n    nodes:\n";
    static const double XY[4][2] = {{0, 0}, {6, 0}, {6, 4}, {0, 4}};
    size_t len;
    for (int c = 0; c < 4; c++) {
        len = strlen(body);
        snprintf(body + len, sizeof body - len,
                 "      - {id: %d, x: %g, y: %g, z: 0, fix: [1, 1, 1, 1, 1, 1]}\n"
                 "      - {id: %d, x: %g, y: %g, z: 3.5}\n",
                 c + 1, XY[c][0], XY[c][1], c + 11, XY[c][0], XY[c][1]);
    }
    strcat(body, "      - {id: 100, x: 3, y: 2, z: 3.5, fix: [0, 0, 1, 1, 1, 0], mass: [40, 40, 0, "
                 "0, 0, 173]}\n    elements:\n");
    for (int c = 0; c < 4; c++) {
        len = strlen(body);
        snprintf(body + len, sizeof body - len,
                 "      - {type: elastic_beam, nodes: [%d, %d], E: 30e6, G: 12e6, A: 0.04, J: "
                 "2e-4, Iy: 1.5e-4, Iz: 3e-4, vecxz: [1, 0, 0], transf: pdelta, "
                 "axial_compression: 500}\n",
                 c + 1, c + 11);
    }
    static const int BEAM[4][2] = {{11, 12}, {12, 13}, {13, 14}, {14, 11}};
    for (int e = 0; e < 4; e++) {
        len = strlen(body);
        snprintf(body + len, sizeof body - len,
                 "      - {type: elastic_beam, nodes: [%d, %d], E: 30e6, G: 12e6, A: 0.05, J: "
                 "3e-4, Iy: 2e-4, Iz: 6e-4, vecxz: [0, 0, 1]}\n",
                 BEAM[e][0], BEAM[e][1]);
    }
    strcat(body, "    rigid_diaphragm:\n      - {perp: z, master: 100, slaves: [11, 12, 13, 14]}\n"
                 "  damping: {none: true}\n");
    hs_test_def *yaml = hs_tcl_load(ctx, dir, "yaml", body, NULL, 0);
    assert_non_null(tcl);
    assert_non_null(yaml);
    double Ta[8], Tb[8];
    assert_int_equal(periods(tcl, Ta), 3);
    assert_int_equal(periods(yaml, Tb), 3);
    for (int i = 0; i < 3; i++) HS_ASSERT_NEAR(Ta[i] / Tb[i], 1.0, 1e-12);
    /* and the compression matters: without it the first period is shorter by more than 1e-4 */
    hs_tcl_write_file(dir, "floor.tcl", FLOOR_TCL);
    hs_test_def *bare = hs_tcl_load(
        ctx, dir, "bare", "structure:\n  model: {opensees: floor.tcl}\n  damping: {none: true}\n",
        NULL, 0);
    assert_non_null(bare);
    periods(bare, Tb);
    assert_true(Ta[0] / Tb[0] - 1.0 > 1e-4);
    hs_test_def_destroy(&tcl);
    hs_test_def_destroy(&yaml);
    hs_test_def_destroy(&bare);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

/* A three-story frame, one proc call per story: nodes 10k+1..10k+4 at the corners, the floor's
 * master 100+k with its mass, a rigidDiaphragm per floor, columns (vecxz x) and beams (vecxz
 * z); a side node with mass hangs off floor 3's master on a rigidLink bar. */
static const char *STORIES_TCL =
    "model BasicBuilder -ndm 3 -ndf 6\n"
    "geomTransf Linear 1 1 0 0\n"
    "geomTransf Linear 2 0 0 1\n"
    "uniaxialMaterial Elastic 1 4e4\n"
    "foreach {n x y} {1 0 0 2 6 0 3 6 4 4 0 4} { node $n $x $y 0; fix $n 1 1 1 1 1 1 }\n"
    "proc story {k m} {\n"
    "  set z [expr {3.2 * $k}]\n"
    "  foreach {i x y} {1 0 0 2 6 0 3 6 4 4 0 4} { node [expr {10 * $k + $i}] $x $y $z }\n"
    "  node [expr {100 + $k}] 3.2 2.1 $z\n"
    "  fix [expr {100 + $k}] 0 0 1 1 1 0\n"
    "  mass [expr {100 + $k}] $m $m 0 0 0 [expr {$m * 52.0 / 12.0}]\n"
    "  rigidDiaphragm 3 [expr {100 + $k}] [expr {10 * $k + 1}] [expr {10 * $k + 2}] [expr {10 * "
    "$k + 3}] [expr {10 * $k + 4}]\n"
    "  foreach i {1 2 3 4} {\n"
    "    element elasticBeamColumn [expr {10 * $k + $i}] [expr {10 * ($k - 1) + $i}] [expr {10 * "
    "$k + $i}] 0.04 30e6 12e6 2e-4 1.5e-4 3e-4 1\n"
    "  }\n"
    "  foreach {e i j} {5 1 2 6 2 3 7 3 4 8 4 1} {\n"
    "    element elasticBeamColumn [expr {10 * $k + $e}] [expr {10 * $k + $i}] [expr {10 * $k + "
    "$j}] 0.05 30e6 12e6 3e-4 2e-4 6e-4 2\n"
    "  }\n"
    "}\n"
    "for {set k 1} {$k <= 3} {incr k} { story $k [expr {50.0 - 10.0 * $k}] }\n"
    "node 200 3.2 5.0 9.6; fix 200 0 0 0 1 1 1; mass 200 2 2 0 0 0 0\n"
    "rigidLink bar 103 200\n";

static void test_stories_by_proc(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_tcl3d");
    hs_tcl_write_file(dir, "frame.tcl", STORIES_TCL);
    hs_test_def *tcl = hs_tcl_load(
        ctx, dir, "tcl", "structure:\n  model: {opensees: frame.tcl}\n  damping: {none: true}\n",
        NULL, 0);
    static char body[16384];
    static const double XY[4][2] = {{0, 0}, {6, 0}, {6, 4}, {0, 4}};
    size_t len;
    snprintf(body, sizeof body, "structure:\n  model:\n    ndm: 3\n    nodes:\n");
    for (int i = 0; i < 4; i++) {
        len = strlen(body);
        snprintf(body + len, sizeof body - len,
                 "      - {id: %d, x: %g, y: %g, z: 0, fix: [1, 1, 1, 1, 1, 1]}\n", i + 1, XY[i][0],
                 XY[i][1]);
    }
    for (int k = 1; k <= 3; k++) {
        const double z = 3.2 * k, m = 50.0 - 10.0 * k;
        for (int i = 0; i < 4; i++) {
            len = strlen(body);
            snprintf(body + len, sizeof body - len, "      - {id: %d, x: %g, y: %g, z: %.17g}\n",
                     10 * k + i + 1, XY[i][0], XY[i][1], z);
        }
        len = strlen(body);
        snprintf(
            body + len, sizeof body - len,
            "      - {id: %d, x: 3.2, y: 2.1, z: %.17g, fix: [0, 0, 1, 1, 1, 0], mass: [%.17g, "
            "%.17g, 0, 0, 0, %.17g]}\n",
            100 + k, z, m, m, m * 52.0 / 12.0);
    }
    strcat(
        body,
        "      - {id: 200, x: 3.2, y: 5.0, z: 9.6, fix: [0, 0, 0, 1, 1, 1], mass: [2, 2, 0, 0, 0, "
        "0]}\n"
        "    elements:\n");
    static const int BEAM[4][2] = {{1, 2}, {2, 3}, {3, 4}, {4, 1}};
    for (int k = 1; k <= 3; k++) {
        for (int i = 1; i <= 4; i++) {
            len = strlen(body);
            snprintf(body + len, sizeof body - len,
                     "      - {type: elastic_beam, name: ele%d, nodes: [%d, %d], E: 30e6, G: "
                     "12e6, A: 0.04, J: 2e-4, Iy: 1.5e-4, Iz: 3e-4, vecxz: [1, 0, 0]}\n",
                     10 * k + i, 10 * (k - 1) + i, 10 * k + i);
        }
        for (int e = 0; e < 4; e++) {
            len = strlen(body);
            snprintf(body + len, sizeof body - len,
                     "      - {type: elastic_beam, name: ele%d, nodes: [%d, %d], E: 30e6, G: "
                     "12e6, A: 0.05, J: 3e-4, Iy: 2e-4, Iz: 6e-4, vecxz: [0, 0, 1]}\n",
                     10 * k + 5 + e, 10 * k + BEAM[e][0], 10 * k + BEAM[e][1]);
        }
    }
    strcat(body, "    rigid_diaphragm:\n");
    for (int k = 1; k <= 3; k++) {
        len = strlen(body);
        snprintf(body + len, sizeof body - len,
                 "      - {perp: z, master: %d, slaves: [%d, %d, %d, %d]}\n", 100 + k, 10 * k + 1,
                 10 * k + 2, 10 * k + 3, 10 * k + 4);
    }
    strcat(body, "    rigid_link:\n      - {type: bar, master: 103, slave: 200}\n"
                 "  damping: {none: true}\n");
    hs_test_def *yaml = hs_tcl_load(ctx, dir, "yaml", body, NULL, 0);
    assert_non_null(tcl);
    assert_non_null(yaml);
    /* 3 floors x (ux, uy, rz); node 200's translations follow floor 3's master by the bar */
    same_matrices(tcl, yaml, 9);
    double Ta[16], Tb[16];
    const int n = periods(tcl, Ta);
    assert_int_equal(periods(yaml, Tb), n);
    for (int i = 0; i < n; i++) assert_true(Ta[i] == Tb[i]);
    hs_test_def_destroy(&tcl);
    hs_test_def_destroy(&yaml);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

/* A -ndm 3 -ndf 3 model: a tripod of trusses (Elastic material, -rho) with a zeroLength spring
 * in direction 3 (z) under its apex, against the YAML model. */
static void test_truss_model(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_tcl3d");
    hs_tcl_write_file(
        dir, "frame.tcl",
        "model BasicBuilder -ndm 3 -ndf 3\n"
        "node 1 0 0 0; node 2 4 0 0; node 3 1 3 0; node 4 1.5 1 3 -mass 5 5 5; node 5 1.5 "
        "1 3\n"
        "foreach n {1 2 3 5} { fix $n 1 1 1 }\n"
        "uniaxialMaterial Elastic 1 200e6\n"
        "uniaxialMaterial Elastic 2 1e3\n"
        "foreach {e i} {1 1 2 2 3 3} { element truss $e $i 4 1e-4 1 -rho 0.3 }\n"
        "element zeroLength 4 5 4 -mat 2 -dir 3\n");
    hs_test_def *tcl = hs_tcl_load(
        ctx, dir, "tcl",
        "structure:\n  model: {opensees: frame.tcl, excitation: z}\n  damping: {none: true}\n",
        NULL, 0);
    /* -rho 0.3 lumps 0.15 L of each truss on node 4's three translations */
    const double d[3][3] = {{1.5, 1, 3}, {1.5 - 4, 1, 3}, {1.5 - 1, 1 - 3, 3}};
    double m4 = 5;
    for (int e = 0; e < 3; e++)
        m4 += 0.5 * 0.3 * sqrt(d[e][0] * d[e][0] + d[e][1] * d[e][1] + d[e][2] * d[e][2]);
    char body[4096];
    snprintf(body, sizeof body,
             "materials:\n  spring: {type: elastic, k: 1e3}\n"
             "structure:\n  model:\n    ndm: 3\n    ndf: 3\n    nodes:\n"
             "      - {id: 1, x: 0, y: 0, z: 0, fix: [1, 1, 1]}\n"
             "      - {id: 2, x: 4, y: 0, z: 0, fix: [1, 1, 1]}\n"
             "      - {id: 3, x: 1, y: 3, z: 0, fix: [1, 1, 1]}\n"
             "      - {id: 4, x: 1.5, y: 1, z: 3, mass: [%.17g, %.17g, %.17g]}\n"
             "      - {id: 5, x: 1.5, y: 1, z: 3, fix: [1, 1, 1]}\n"
             "    elements:\n"
             "      - {type: truss, name: ele1, nodes: [1, 4], E: 200e6, A: 1e-4}\n"
             "      - {type: truss, name: ele2, nodes: [2, 4], E: 200e6, A: 1e-4}\n"
             "      - {type: truss, name: ele3, nodes: [3, 4], E: 200e6, A: 1e-4}\n"
             "      - {type: zero_length, name: ele4, nodes: [5, 4], dir: z, material: spring}\n"
             "    excitation: z\n"
             "  damping: {none: true}\n",
             m4, m4, m4);
    hs_test_def *yaml = hs_tcl_load(ctx, dir, "yaml", body, NULL, 0);
    assert_non_null(tcl);
    assert_non_null(yaml);
    same_matrices(tcl, yaml, 3);
    assert_true(hs_model_influence(tcl->model)[2] == 1.0);
    hs_test_def_destroy(&tcl);
    hs_test_def_destroy(&yaml);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

/* geomTransf Corotational in 3-D is hysim's corotational 3-D beam (fe_corot3d.c): a Tcl cantilever
 * and the YAML one restore the same force at a large tip rotation, bit for bit, and it differs
 * from the linear transformation's there. */
static double cantilever_force(hs_ctx *ctx, const char *dir, const char *name, const char *transf,
                               int tcl, double *r)
{
    char script[1024], body[2048], msg[512];
    if (tcl) {
        snprintf(script, sizeof script,
                 "model BasicBuilder -ndm 3 -ndf 6\nnode 1 0 0 0\nnode 2 0 0 3\n"
                 "fix 1 1 1 1 1 1 1\nmass 2 10 10 10 1 1 1\ngeomTransf %s 1 1 0 0\n"
                 "element elasticBeamColumn 1 1 2 0.02 200e6 80e6 3e-4 2e-4 1e-4 1\n",
                 transf);
        char file[64];
        snprintf(file, sizeof file, "%s.tcl", name);
        hs_tcl_write_file(dir, file, script);
        snprintf(body, sizeof body, "structure:\n  model: {opensees: %s}\n", file);
    } else {
        snprintf(body, sizeof body,
                 "structure:\n  model:\n    ndm: 3\n    ndf: 6\n    nodes:\n"
                 "      - {id: 1, x: 0, y: 0, z: 0, fix: [1, 1, 1, 1, 1, 1]}\n"
                 "      - {id: 2, x: 0, y: 0, z: 3, mass: [10, 10, 10, 1, 1, 1]}\n"
                 "    elements:\n"
                 "      - {type: elastic_beam, nodes: [1, 2], E: 200e6, G: 80e6, A: 0.02, J: 3e-4,"
                 " Iy: 2e-4, Iz: 1e-4, vecxz: [1, 0, 0], transf: %s}\n"
                 "  damping: {none: true}\n",
                 transf);
    }
    hs_test_def *def = hs_tcl_load(ctx, dir, name, body, msg, sizeof msg);
    if (!def) fail_msg("%s: %s", name, msg);
    const int n = hs_model_ndof(def->model);
    assert_int_equal(n, 6);
    double d[6] = {0.4, -0.2, 0.05, 0.3, 0.6, -0.25}; /* large sway and rotations */
    memset(r, 0, 6 * sizeof *r);
    assert_int_equal(hs_model_restore(def->model, d, NULL, r, NULL, NULL), 0);
    double big = 0.0;
    for (int i = 0; i < 6; i++) big = fmax(big, fabs(r[i]));
    hs_test_def_destroy(&def);
    return big;
}

static void test_corotational_3d(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_tcl3d_corot");
    double r_tcl[6], r_yaml[6], r_lin[6];
    const double big = cantilever_force(ctx, dir, "tcl", "Corotational", 1, r_tcl);
    cantilever_force(ctx, dir, "yaml", "corotational", 0, r_yaml);
    cantilever_force(ctx, dir, "lin", "Linear", 1, r_lin);
    assert_true(big > 0.0);
    assert_memory_equal(r_tcl, r_yaml, sizeof r_tcl);
    double diff = 0.0;
    for (int i = 0; i < 6; i++) diff = fmax(diff, fabs(r_tcl[i] - r_lin[i]));
    print_message(
        "3-D cantilever at a large sway: corotational force %.6g, |corot - linear| %.3g\n", big,
        diff);
    assert_true(diff > 1e-3 * big);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

static void test_errors(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_tcl3d");
#define M3                                                                                         \
    "model BasicBuilder -ndm 3\nnode 1 0 0 0; node 2 0 0 3\nfix 1 1 1 1 1 1 1\n"                   \
    "mass 2 1 1 0 0 0 0\n"
    HS_TCL_FAILS("model BasicBuilder -ndm 3 -ndf 4\n", "frame.tcl:1: model: -ndm 3 -ndf 4");
    HS_TCL_FAILS(M3 "geomTransf Linear 1\n", "frame.tcl:5: geomTransf: expected",
                 "vecxzX vecxzY vecxzZ");
    HS_TCL_FAILS(
        M3 "geomTransf Linear 1 1 0 0\nelement elasticBeamColumn 1 1 2 0.02 30e6 2e-3 1\n",
        "frame.tcl:6: element: expected 'element elasticBeamColumn tag iNode jNode A E G J Iy Iz");
    /* vecxz along the member: no plane to bend in (the frame model says so, on this line) */
    HS_TCL_FAILS(M3 "geomTransf Linear 1 0 0 1\n"
                    "element elasticBeamColumn 1 1 2 0.02 30e6 12e6 1e-4 1e-4 2e-4 1\n",
                 "frame.tcl:6: element 1:");
    HS_TCL_FAILS(M3 "uniaxialMaterial Elastic 1 100\nnode 3 0 0 3\n"
                    "element zeroLength 1 2 3 -mat 1 -dir 7\n",
                 "frame.tcl:7: element: -dir 7: expected 1 to 6");
    HS_TCL_FAILS(M3 "node 3 1 0 3\nrigidDiaphragm 4 2 3\n",
                 "frame.tcl:6: rigidDiaphragm: perpDirn 4");
    HS_TCL_FAILS(M3 "rigidDiaphragm 3 2 9\n", "frame.tcl:5: rigidDiaphragm: slaveNode: no node 9");
    HS_TCL_FAILS(M3 "node 3 1 0 3\nrigidLink rod 2 3\n", "frame.tcl:6: rigidLink: type 'rod'");
    hs_tcl_write_file(dir, "rec.txt", "0\n1\n0\n");
    HS_TCL_FAILS(
        M3 "timeSeries Path 1 -dt 0.01 -filePath rec.txt\npattern UniformExcitation 1 4 -accel 1\n",
        "frame.tcl:6: pattern: dir 4", "1 (x), 2 (y) or 3 (z)");
    HS_TCL_FAILS(M3 "node 3 1 0\n", "frame.tcl:5: node: expected 'node tag x y z");
    /* a fixed slave DOF: the line of the rigidLink */
    HS_TCL_FAILS(M3 "node 3 1 0 3; fix 3 1 0 0 0 0 0\nrigidLink bar 2 3\n",
                 "frame.tcl:6: the model: rigid_link bar: node 3 ux is fixed");
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_floor_same_as_yaml),
        cmocka_unit_test(test_gravity_3d),
        cmocka_unit_test(test_stories_by_proc),
        cmocka_unit_test(test_truss_model),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_corotational_3d),
    };
    return cmocka_run_group_tests_name("opensees_tcl3d", tests, NULL, NULL);
}
