/* The test definition loader: a valid two-story file gives the masses, stiffness, periods and
 * damping of Mosqueda et al.'s (2004) frame (closed forms), and each of a table of bad files fails
 * with the exact FILE:LINE:COL and a message naming the problem. */
#include "hs_test.h"

#include "hs_text_def.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const double two_pi = 6.283185307179586476925286766559;
static const double m_floor = 4.0 / 386.1; /* 4 kip / g in in/s^2 */
static const double k_story = 2.8;         /* kip/in */

/* The two-story frame with a placeholder for the damping line. */
static const char *const good_head = "hysim: 1\n"
                                     "name: two-story-shear\n"
                                     "units: {force: kip, length: in, time: s}\n"
                                     "structure:\n"
                                     "  dofs: 2\n"
                                     "  mass: [0.0103600103600104, 0.0103600103600104]\n"
                                     "  ground_influence: [1, 1]\n"
                                     "  shear_building:\n"
                                     "    stories: [{material: col}, {material: col}]\n";
static const char *const good_tail = "materials:\n"
                                     "  col: {type: elastic, k: 2.8}\n"
                                     "ground_motion:\n"
                                     "  synthetic: {seed: 7, pga: 3.0, duration: 2, dt: 0.01}\n"
                                     "analysis:\n"
                                     "  integrator: {type: newmark_explicit}\n"
                                     "  dt: 0.01\n"
                                     "  duration: 2\n";

static hs_test_def *load_with_damping(hs_ctx *ctx, const char *damping)
{
    char text[2048];
    snprintf(text, sizeof text, "%s  damping: %s\n%s", good_head, damping, good_tail);
    return hs_test_load_text(ctx, text, "good.yaml");
}

/* Closed-form circular frequencies of the two-story shear frame (equal m, equal k):
 * omega^2 = (k/m) (3 -+ sqrt 5) / 2. */
static double omega_exact(int mode)
{
    const double r = mode == 0 ? (3.0 - sqrt(5.0)) / 2.0 : (3.0 + sqrt(5.0)) / 2.0;
    return sqrt(k_story / m_floor * r);
}

static void test_two_story_model(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = load_with_damping(ctx, "{rayleigh: {modes: [1, 2], ratios: [0.05, 0.05]}}");
    assert_string_equal(def->name, "two-story-shear");
    assert_string_equal(def->units_force, "kip");
    assert_string_equal(def->units_length, "in");
    assert_string_equal(def->units_time, "s");
    assert_string_equal(def->integrator, "newmark_explicit");
    assert_string_equal(def->damping_kind, "rayleigh");
    assert_string_equal(def->clock, "virtual");
    assert_string_equal(def->output_dir, "runs/two-story-shear");
    HS_ASSERT_NEAR(def->dt, 0.01, 0.0);
    HS_ASSERT_NEAR(def->time_scale, 1.0, 0.0);
    assert_int_equal(def->steps, 200); /* 2 s / 0.01 s */
    assert_non_null(def->gm);
    HS_ASSERT_NEAR(def->gm->dt, 0.01, 1e-15);
    HS_ASSERT_NEAR(hs_ground_motion_pga(def->gm), 3.0, 1e-9);

    hs_model *m = def->model;
    assert_int_equal(hs_model_ndof(m), 2);
    const double *mass = hs_model_mass(m);
    HS_ASSERT_NEAR(mass[0], m_floor, 1e-15);
    HS_ASSERT_NEAR(mass[1], m_floor, 1e-15);
    double K[4];
    assert_int_equal(hs_model_initial_stiffness(m, K), 0);
    /* story 1 joins ground-DOF1, story 2 DOF1-DOF2: [[2k, -k], [-k, k]] */
    HS_ASSERT_NEAR(K[0], 2 * k_story, 1e-12);
    HS_ASSERT_NEAR(K[1], -k_story, 1e-12);
    HS_ASSERT_NEAR(K[2], -k_story, 1e-12);
    HS_ASSERT_NEAR(K[3], k_story, 1e-12);
    /* energy groups: the material name */
    assert_int_equal(hs_model_group_count(m), 1);
    assert_string_equal(hs_model_group_name(m, 0), "col");

    double w2[2];
    assert_int_equal(hs_model_modes(m, w2, NULL), 0);
    HS_ASSERT_NEAR(two_pi / sqrt(w2[0]), 0.6184, 1e-4);
    HS_ASSERT_NEAR(two_pi / sqrt(w2[1]), 0.2362, 1e-4);
    HS_ASSERT_NEAR(sqrt(w2[0]), omega_exact(0), 1e-9);
    HS_ASSERT_NEAR(sqrt(w2[1]), omega_exact(1), 1e-9);
    hs_test_def_destroy(&def);
    assert_null(def);
    hs_ctx_destroy(&ctx);
}

/* zeta_k = phi_k^T C phi_k / (2 omega_k) with M-orthonormal phi_k. */
static double modal_ratio(hs_model *m, int k)
{
    double w2[2], phi[4];
    assert_int_equal(hs_model_modes(m, w2, phi), 0);
    const double *C = hs_model_damping(m), *p = phi + 2 * k;
    double q = 0.0;
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) q += p[i] * C[j * 2 + i] * p[j];
    return q / (2.0 * sqrt(w2[k]));
}

static void test_rayleigh_ratios(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = load_with_damping(ctx, "{rayleigh: {modes: [1, 2], ratios: [0.05, 0.03]}}");
    HS_ASSERT_NEAR(modal_ratio(def->model, 0), 0.05, 1e-10);
    HS_ASSERT_NEAR(modal_ratio(def->model, 1), 0.03, 1e-10);
    /* closed form: a1 = 2 (z2 w2 - z1 w1) / (w2^2 - w1^2), a0 = 2 z1 w1 - a1 w1^2 */
    const double w1 = omega_exact(0), w2 = omega_exact(1);
    const double a1 = 2.0 * (0.03 * w2 - 0.05 * w1) / (w2 * w2 - w1 * w1);
    double c0, c1;
    hs_model_damping_coefficients(def->model, &c0, &c1);
    HS_ASSERT_NEAR(c1, a1, 1e-12);
    HS_ASSERT_NEAR(c0, 2.0 * 0.05 * w1 - a1 * w1 * w1, 1e-10);
    hs_test_def_destroy(&def);
    hs_ctx_destroy(&ctx);
}

static void test_stiffness_proportional(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = load_with_damping(ctx, "{stiffness_proportional: {mode: 1, ratio: 0.02}}");
    assert_string_equal(def->damping_kind, "stiffness_proportional");
    double a0, a1;
    hs_model_damping_coefficients(def->model, &a0, &a1);
    HS_ASSERT_NEAR(a0, 0.0, 0.0);
    HS_ASSERT_NEAR(a1, 0.003937, 1e-6);
    HS_ASSERT_NEAR(a1, 2.0 * 0.02 / omega_exact(0), 1e-12);
    HS_ASSERT_NEAR(modal_ratio(def->model, 0), 0.02, 1e-10);
    /* mode 2 gets 0.02 w2 / w1 = 0.02 (3 + sqrt 5) / 2 / ((3 - sqrt 5) / 2)^(1/2) ... */
    HS_ASSERT_NEAR(modal_ratio(def->model, 1), 0.02 * omega_exact(1) / omega_exact(0), 1e-10);
    hs_test_def_destroy(&def);
    hs_ctx_destroy(&ctx);
}

static void test_modal_and_none(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = load_with_damping(ctx, "{modal: {ratios: [0.02, 0.07]}}");
    HS_ASSERT_NEAR(modal_ratio(def->model, 0), 0.02, 1e-10);
    HS_ASSERT_NEAR(modal_ratio(def->model, 1), 0.07, 1e-10);
    hs_test_def_destroy(&def);
    def = load_with_damping(ctx, "{none: true}");
    const double *C = hs_model_damping(def->model);
    for (int i = 0; i < 4; i++) HS_ASSERT_NEAR(C[i], 0.0, 0.0);
    hs_test_def_destroy(&def);
    /* a matrix as written, whatever the modes */
    def = load_with_damping(ctx, "{matrix: [[0.001, -0.0002], [-0.0002, 0.0008]]}");
    assert_string_equal(def->damping_kind, "matrix");
    C = hs_model_damping(def->model);
    const double want[4] = {0.001, -0.0002, -0.0002, 0.0008};
    for (int i = 0; i < 4; i++) HS_ASSERT_NEAR(C[i], want[i], 0.0);
    hs_test_def_destroy(&def);
    hs_ctx_destroy(&ctx);
}

/* Springs instead of the shear building, a file ground motion relative to the test file's
 * folder, steps instead of duration, explicit output and clock. */
static void test_springs_and_file_record(void **state)
{
    (void)state;
    char dir[] = "/tmp/hs_testfile_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], yaml[256];
    snprintf(path, sizeof path, "%s/rec.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "header line\n0.0 0.1 -0.2\n0.3\n");
    fclose(f);
    snprintf(yaml, sizeof yaml, "%s/t.yaml", dir);
    const char *text = "hysim: 1\n"
                       "name: springs\n"
                       "units: {force: kN, length: m, time: s}\n"
                       "materials:\n"
                       "  a: {type: elastic, k: 100}\n"
                       "  b: {type: elastic, k: 40}\n"
                       "structure:\n"
                       "  dofs: 2\n"
                       "  mass: [1, 2]\n"
                       "  ground_influence: [1, 0.5]\n"
                       "  springs:\n"
                       "    - {name: s1, from: ground, to: 1, material: a}\n"
                       "    - {from: 1, to: 2, material: b}\n"
                       "  damping: {none: true}\n"
                       "ground_motion: {file: rec.txt, format: columns, dt: 0.02, scale: 10, "
                       "skip: 1}\n"
                       "analysis:\n"
                       "  integrator: {type: newmark_explicit}\n"
                       "  dt: 0.01\n"
                       "  steps: 7\n"
                       "  time_scale: 2\n"
                       "  clock: real\n"
                       "output: {dir: out/here}\n";
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = NULL;
    int rc = hs_testfile_load_string(ctx, text, strlen(text), yaml, &def);
    if (rc) fprintf(stderr, "%s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    double K[4];
    assert_int_equal(hs_model_initial_stiffness(def->model, K), 0);
    HS_ASSERT_NEAR(K[0], 140.0, 1e-12);
    HS_ASSERT_NEAR(K[1], -40.0, 1e-12);
    HS_ASSERT_NEAR(K[3], 40.0, 1e-12);
    HS_ASSERT_NEAR(hs_model_influence(def->model)[1], 0.5, 0.0);
    HS_ASSERT_NEAR(hs_model_mass(def->model)[1], 2.0, 0.0);
    assert_int_equal(hs_model_spring_count(def->model), 2);
    assert_string_equal(hs_model_spring_name(def->model, 0), "s1");
    assert_int_equal(hs_model_group_count(def->model), 2);
    assert_int_equal(def->steps, 7);
    HS_ASSERT_NEAR(def->time_scale, 2.0, 0.0);
    assert_string_equal(def->clock, "real");
    assert_string_equal(def->output_dir, "out/here");
    assert_int_equal((int)def->gm->npts, 4);
    HS_ASSERT_NEAR(def->gm->dt, 0.02, 0.0);
    HS_ASSERT_NEAR(def->gm->acc[2], -2.0, 1e-12);
    HS_ASSERT_NEAR(def->gm->acc[3], 3.0, 1e-12);
    hs_test_def_destroy(&def);

    /* the same through hs_testfile_load from disk */
    f = fopen(yaml, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    assert_int_equal(hs_testfile_load(ctx, yaml, &def), 0);
    assert_int_equal(hs_model_spring_count(def->model), 2);
    hs_test_def_destroy(&def);
    /* a missing record names the resolved path */
    remove(path);
    assert_int_equal(hs_testfile_load(ctx, yaml, &def), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), ":15:23: ground_motion.file: cannot find"));
    assert_null(def);
    remove(yaml);
    rmdir(dir);
    assert_int_equal(hs_testfile_load(ctx, yaml, &def), HS_EIO);
    assert_non_null(strstr(hs_ctx_message(ctx), "cannot open: No such file or directory"));
    hs_ctx_destroy(&ctx);
}

/* Bad files: the good file with one substring replaced. */
static const char *const base = "hysim: 1\n"                                        /* 1 */
                                "name: two-story-shear\n"                           /* 2 */
                                "units: {force: kip, length: in, time: s}\n"        /* 3 */
                                "structure:\n"                                      /* 4 */
                                "  dofs: 2\n"                                       /* 5 */
                                "  mass: [0.010360, 0.010360]\n"                    /* 6 */
                                "  ground_influence: [1, 1]\n"                      /* 7 */
                                "  shear_building:\n"                               /* 8 */
                                "    stories: [{material: col}, {material: col}]\n" /* 9 */
                                "  damping: {rayleigh: {modes: [1, 2], ratios: [0.05, 0.05]}}\n"
                                "materials:\n"                                              /* 11 */
                                "  col: {type: elastic, k: 2.8}\n"                          /* 12 */
                                "ground_motion:\n"                                          /* 13 */
                                "  synthetic: {seed: 7, pga: 3.0, duration: 2, dt: 0.01}\n" /* 14 */
                                "analysis:\n"                                               /* 15 */
                                "  integrator: {type: newmark_explicit}\n"                  /* 16 */
                                "  dt: 0.01\n"                                              /* 17 */
                                "  duration: 2\n";                                          /* 18 */

static const hs_bad_case bad_cases[] = {
    {"  damping:", "  dampnig:", "10:3",
     "unknown key 'dampnig' in structure; did you mean 'damping'?"},
    {"  dofs: 2\n", "", "5:3", "missing required key 'dofs' in structure"},
    {"0.010360]", "abc]", "6:20", "structure.mass[2]: expected a number, got 'abc'"},
    {"0.010360]", "-1]", "6:20", "structure.mass[2]: a mass must be > 0"},
    {"  dt: 0.01\n", "  dt: 0\n", "17:7", "analysis.dt: must be > 0"},
    {"{material: col}]", "{material: beam}]", "9:43", "unknown material 'beam' (known: col)"},
    {"newmark_explicit", "newmark_explicitt", "16:22",
     "unknown integrator 'newmark_explicitt'; did you mean 'newmark_explicit'?"},
    {"[0.010360, 0.010360]", "[0.010360]", "6:9", "expected 2 values (one per DOF), got 1"},
    {"  dofs: 2\n", "  dofs: 2\n  dofs: 3\n", "6:3", "duplicate key 'dofs' (first defined at 5:3)"},
    {"[0.010360, 0.010360]", "[0.010360, 0.010360", "7:19", "YAML syntax error"},
    {"[0.010360, 0.010360]", "0.01", "6:9", "structure.mass: expected a list of 2 numbers"},
    {"units: {force: kip, length: in, time: s}\n", "", "1:1",
     "missing required key 'units' in the top level"},
    {"type: elastic", "type: elastc", "12:15",
     "unknown material type 'elastc'; did you mean 'elastic'?"},
    {"k: 2.8", "kk: 2.8", "12:24", "unknown key 'kk' in materials.col; did you mean 'k'?"},
    {"elastic, k: 2.8}", "elastic}", "12:8", "missing required key 'k' in materials.col"},
    {"elastic, k: 2.8}", "steel02, fy: 1, E0: 2.8, b: 0.02, R0: 18, cR: 0.9}", "12:57",
     "unknown key 'cR' in materials.col; did you mean 'cR1'?"},
    {"elastic, k: 2.8}", "steel01, E0: 2.8, b: 0.02}", "12:8",
     "missing required key 'fy' in materials.col"},
    {"elastic, k: 2.8}", "elastic_pp_gap, E: 2.8, fy: 1, gap: 0.1, damage: yes}", "12:8",
     "damage must be \"noDamage\" or \"damage\" (got \"yes\")"},
    {"[0.05, 0.05]", "[0.05, -0.05]", "10:54", "a damping ratio must be >= 0"},
    {"{rayleigh: {modes: [1, 2], ratios: [0.05, 0.05]}}", "{matrix: [[1, 2], [3, 4]]}", "10:21",
     "structure.damping.matrix: damping matrix: entries (2, 1) = 3 and (1, 2) = 2 differ"},
    {"{rayleigh: {modes: [1, 2], ratios: [0.05, 0.05]}}", "{rths_benchmark: {plant: nominal}}",
     "10:29",
     "structure.damping.rths_benchmark: the benchmark's frame has 3 DOFs (the structure "
     "has 2)"},
    {"[{material: col}, {material: col}]", "[{material: col}]", "9:14", "expected 2 stories"},
    {"  duration: 2\n", "  duration: 2\n  steps: 10\n", "19:10", "either 'duration' or 'steps'"},
    {"  duration: 2\n", "  duration: 2\nexperimental: []\n", "1:1",
     "missing required key 'sites' in the top level"},
    {"  duration: 2\n", "  duration: 2\nsites: {}\n", "19:8",
     "sites: expected a mapping of site names"},
    {"hysim: 1", "hysim: 2", "1:8", "format version 2 is not supported"},
    {"{rayleigh: {modes: [1, 2], ratios: [0.05, 0.05]}}", "{none: true, modal: {ratios: [0, 0]}}",
     "10:25", "give exactly one form; 'modal' conflicts with 'none'"},
    {"k: 2.8", "k: \"2.8\"", "12:27", "expected a number, got '2.8'"},
    {"k: 2.8", "k: -2.8", "12:8", "k must be >= 0"},
    {"  dt: 0.01\n", "  dt: fast\n", "17:7", "analysis.dt: expected a number, got 'fast'"},
    {"  duration: 2\n", "  duration: 2\n  clock: wall\n", "19:10", "expected 'virtual' or 'real'"},
    {"modes: [1, 2]", "modes: [1, 3]", "10:35", "must be between 1 and 2 (got 3)"},
    {"modes: [1, 2]", "modes: [1]", "10:31", "expected a list of 2 mode numbers"},
    {"seed: 7, ", "", "14:14", "missing required key 'seed' in ground_motion.synthetic"},
    {"pga: 3.0", "pgaa: 3.0", "14:24",
     "unknown key 'pgaa' in ground_motion.synthetic; did you "
     "mean 'pga'?"},
    {"  synthetic:", "  file: nowhere.txt\n  format: columns\n  dt: 0.01\n  synthetic:", "14:3",
     "unknown key 'file' in ground_motion (synthetic: no other key)"},
    {"ground_motion:\n  synthetic: {seed: 7, pga: 3.0, duration: 2, dt: 0.01}\n",
     "ground_motion: [1]\n", "13:16", "ground_motion: expected a mapping"},
    {"name: two-story-shear", "nmae: two-story-shear", "2:1", "did you mean 'name'?"},
    {"name: two-story-shear", "name: a/b", "2:7", "name: use letters, digits"},
    {"ratios: [0.05, 0.05]", "ratios: [0.05, 0.0]", "10:47", "negative coefficient"},
    {"{material: col}, {material: col}]",
     "{material: col}, {material: col}]\n  springs: "
     "[{from: 2, to: 2, material: col}]",
     "10:27", "a spring must join two different DOFs"},
    {"  dofs: 2\n", "  dofs: *x\n", "5:9", "YAML aliases"},
    {"elastic, k: 2.8}\nground_motion:\n  synthetic: {seed: 7, pga: 3.0, duration: 2, dt: "
     "0.01}\nanalysis:\n  integrator: {type: newmark_explicit}",
     "bilinear, k: 2.8, fy: 1, b: 0.1}\nground_motion:\n  synthetic: {seed: 7, pga: 3.0, "
     "duration: 2, dt: 0.01}\nanalysis:\n  integrator: {type: exact}",
     "16:22", "'exact' handles linear models only"},
    {"  dt: 0.01\n  duration: 2\n", "  dt: 0.01\n", "16:3",
     "missing required key 'duration' (or 'steps') in analysis"},
    {NULL, "", "1:1", "the file is empty"},
    {NULL, "- a\n- b\n", "1:1", "expected a mapping of sections"},
    {NULL, "hysim: 1\n---\nhysim: 1\n", "2:1", "one YAML document"},
    {NULL, "hysim: 1\nname: x\n\tunits: {}\n", "3:1", "YAML syntax error"},
};

static void test_bad_files(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    const size_t ncases = sizeof bad_cases / sizeof bad_cases[0];
    assert_true(ncases >= 15);
    const int failures = hs_test_bad_cases(ctx, base, "bad.yaml", bad_cases, ncases);
    /* the base itself is valid */
    hs_test_def *def = NULL;
    assert_int_equal(hs_testfile_load_string(ctx, base, strlen(base), "bad.yaml", &def), 0);
    hs_test_def_destroy(&def);
    /* and so is it with the OpenSees steels and gap (string option included) */
    static const char *const steels[] = {
        "{type: steel01, fy: 1, E0: 2.8, b: 0.02, a1: 0.1, a2: 2, a3: 0.1, a4: 2}",
        "{type: steel02, fy: 1, E0: 2.8, b: 0.02, R0: 18, cR1: 0.9, cR2: 0.1, sig_init: 0.1}",
        "{type: elastic_pp_gap, E: 2.8, fy: 1, gap: 0, eta: 0.02, damage: damage}",
    };
    for (size_t i = 0; i < 3; i++) {
        char text[2048];
        const char *at = strstr(base, "{type: elastic, k: 2.8}");
        assert_non_null(at);
        snprintf(text, sizeof text, "%.*s%s%s", (int)(at - base), base, steels[i],
                 at + strlen("{type: elastic, k: 2.8}"));
        const int rc = hs_testfile_load_string(ctx, text, strlen(text), "steel.yaml", &def);
        if (rc) fprintf(stderr, "%s\n", hs_ctx_message(ctx));
        assert_int_equal(rc, 0);
        hs_test_def_destroy(&def);
    }
    hs_ctx_destroy(&ctx);
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_story_model),         cmocka_unit_test(test_rayleigh_ratios),
        cmocka_unit_test(test_stiffness_proportional),  cmocka_unit_test(test_modal_and_none),
        cmocka_unit_test(test_springs_and_file_record), cmocka_unit_test(test_bad_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
