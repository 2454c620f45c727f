/* The test definition loader's `experimental` and `sites` sections: a three-story frame whose
 * stories are all experimental (one element per site) loads with the T matrices, channels,
 * actuator, sensor, specimen and relaxation options and seeds written in the file, and its
 * periods and damping see the experimental initial stiffness (closed forms of the shear
 * building); each of a table of bad files fails with the exact FILE:LINE:COL and a message
 * naming the problem. */
#include "hs_test.h"

#include "hs_text_def.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Stories: k1 = 2.8 (col1 at lab1, stated); cols at lab2 takes its stiffness from the site's
 * intrinsic specimen, channel b1 = c1 (3) and b2 = c2 (2); its actuators [b2, b1] drive stories
 * 2 and 3, so k2 = 2 and k3 = 3; unit masses. */
static const char *const good = "hysim: 1\n"
                                "name: hybrid-two-sites\n"
                                "units: {force: kN, length: mm, time: s}\n"
                                "materials:\n"
                                "  bw: {type: bouc_wen, alpha: 0.1, k0: 2.8, n: 1, gamma: 0.5, "
                                "beta: 0.5}\n"
                                "  c1: {type: elastic, k: 3}\n"
                                "  c2: {type: elastic, k: 2}\n"
                                "structure:\n"
                                "  dofs: 3\n"
                                "  mass: [1, 1, 1]\n"
                                "  damping: {stiffness_proportional: {mode: 1, ratio: 0.05}}\n"
                                "experimental:\n"
                                "  - {name: col1, site: lab1, story: 1, actuators: [a1], "
                                "initial_stiffness: [[2.8]]}\n"
                                "  - {name: cols, site: lab2, dofs: [3, 2, 1],\n"
                                "     T: [[0, 1, -1], [1, -1, 0]], actuators: [b2, b1],\n"
                                "     intrinsic: [[1, 0], [-1, 1]]}\n"
                                "sites:\n"
                                "  lab1:\n"
                                "    kind: virtual\n"
                                "    rate: 2048\n"
                                "    perfect: false\n"
                                "    seed: 3\n"
                                "    actuators:\n"
                                "      a1: {delay_samples: 3, transport_delay: 2, valve: {freq: "
                                "60, zeta: 0.6},\n"
                                "           delay_schedule: [[0, 3], [10, 5]], "
                                "delay_per_velocity: 0.01,\n"
                                "           stroke: 10, velocity_limit: 20, force_limit: 50,\n"
                                "           acceleration_limit: 4000, step_limit: 0.05}\n"
                                "    sensors: {displacement: {rms: 0.0004, bits: 16, range: 10}, "
                                "force: {rms: 0.002}}\n"
                                "    specimen: {type: material, material: bw}\n"
                                "    relaxation: {fraction: 0.1, tau: 2.0}\n"
                                "  lab2:\n"
                                "    kind: virtual\n"
                                "    perfect: true\n"
                                "    actuators: {b1: {}, b2: {delay_samples: 2}}\n"
                                "    specimen: {type: intrinsic, Tp: [[1, 0], [0, 1]], material: "
                                "[c1, c2]}\n"
                                "ground_motion:\n"
                                "  synthetic: {seed: 7, pga: 3.0, duration: 2, dt: 0.01}\n"
                                "analysis:\n"
                                "  integrator: {type: central_difference}\n"
                                "  dt: 0.01\n"
                                "  duration: 2\n"
                                "  time_scale: 4\n"
                                "  seed: 11\n";

static void test_elements(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = hs_test_load_text(ctx, good, "good.yaml");
    assert_int_equal(def->seed, 11);
    assert_int_equal(def->nexp, 2);
    assert_int_equal(def->nsites, 2);

    const hs_exp_element_def *e = &def->experimental[0];
    assert_string_equal(e->name, "col1");
    assert_string_equal(e->site, "lab1");
    assert_int_equal(e->site_index, 0);
    assert_int_equal(e->nact, 1);
    assert_int_equal(e->channel[0], 0);
    /* story 1: x = d1 */
    HS_ASSERT_NEAR(e->T[0], 1.0, 0.0);
    HS_ASSERT_NEAR(e->T[1], 0.0, 0.0);
    HS_ASSERT_NEAR(e->T[2], 0.0, 0.0);
    assert_non_null(e->K0l);
    HS_ASSERT_NEAR(e->K0l[0], 2.8, 0.0);
    assert_null(e->Tp);

    e = &def->experimental[1];
    assert_string_equal(e->name, "cols");
    assert_int_equal(e->site_index, 1);
    assert_int_equal(e->nact, 2);
    /* actuators [b2, b1]: the site's channels 1 and 0 */
    assert_int_equal(e->channel[0], 1);
    assert_int_equal(e->channel[1], 0);
    /* dofs [3, 2, 1] with rows [0, 1, -1] and [1, -1, 0]: x1 = d2 - d1, x2 = d3 - d2.
     * Column-major 2 x 3: T[dof * 2 + row]. */
    const double T[6] = {-1, 0, 1, -1, 0, 1};
    for (int i = 0; i < 6; i++) HS_ASSERT_NEAR(e->T[i], T[i], 0.0);
    assert_null(e->K0l);
    /* intrinsic [[1, 0], [-1, 1]] column-major */
    assert_non_null(e->Tp);
    HS_ASSERT_NEAR(e->Tp[0], 1.0, 0.0);
    HS_ASSERT_NEAR(e->Tp[1], -1.0, 0.0);
    HS_ASSERT_NEAR(e->Tp[2], 0.0, 0.0);
    HS_ASSERT_NEAR(e->Tp[3], 1.0, 0.0);
    hs_test_def_destroy(&def);
    hs_ctx_destroy(&ctx);
}

static void test_sites(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = hs_test_load_text(ctx, good, "good.yaml");

    const hs_site_config *s = &def->sites[0];
    assert_string_equal(s->name, "lab1");
    assert_string_equal(s->kind, "virtual");
    assert_int_equal(s->nact, 1);
    assert_string_equal(s->actuator_names[0], "a1");
    HS_ASSERT_NEAR(s->rate, 2048.0, 0.0);
    assert_int_equal(s->perfect, 0);
    assert_int_equal(s->seed, 3); /* stated */
    HS_ASSERT_NEAR(s->time_scale, 4.0, 0.0);
    const hs_actuator_params *a = &s->actuator[0];
    HS_ASSERT_NEAR(a->rate, 2048.0, 0.0);
    HS_ASSERT_NEAR(a->a, 3.0, 0.0);
    assert_int_equal(a->transport_delay, 2);
    HS_ASSERT_NEAR(a->valve_freq, 60.0, 0.0);
    HS_ASSERT_NEAR(a->valve_zeta, 0.6, 0.0);
    assert_true(a->schedule == s->schedule[0]);
    assert_int_equal(a->schedule_points, 2);
    HS_ASSERT_NEAR(a->schedule[0], 0.0, 0.0);
    HS_ASSERT_NEAR(a->schedule[1], 3.0, 0.0);
    HS_ASSERT_NEAR(a->schedule[2], 10.0, 0.0);
    HS_ASSERT_NEAR(a->schedule[3], 5.0, 0.0);
    HS_ASSERT_NEAR(a->a_per_velocity, 0.01, 0.0);
    HS_ASSERT_NEAR(a->stroke, 10.0, 0.0);
    HS_ASSERT_NEAR(a->velocity_max, 20.0, 0.0);
    HS_ASSERT_NEAR(a->force_max, 50.0, 0.0);
    HS_ASSERT_NEAR(s->acceleration_limit[0], 4000.0, 0.0);
    HS_ASSERT_NEAR(s->step_limit[0], 0.05, 0.0);
    HS_ASSERT_NEAR(s->displacement.rms, 0.0004, 0.0);
    assert_int_equal(s->displacement.bits, 16);
    HS_ASSERT_NEAR(s->displacement.range, 10.0, 0.0);
    HS_ASSERT_NEAR(s->force.rms, 0.002, 0.0);
    assert_int_equal(s->force.bits, 0);
    /* specimen: the material `bw` copied as the material specimen expects it */
    assert_string_equal(s->specimen_type, "material");
    assert_string_equal(hs_options_str(s->specimen_opts, "material", ""), "bouc_wen");
    HS_ASSERT_NEAR(hs_options_num(s->specimen_opts, "alpha", -1), 0.1, 0.0);
    HS_ASSERT_NEAR(hs_options_num(s->specimen_opts, "k0", -1), 2.8, 0.0);
    HS_ASSERT_NEAR(hs_options_num(s->specimen_opts, "n", -1), 1.0, 0.0);
    HS_ASSERT_NEAR(hs_options_num(s->specimen_opts, "gamma", -1), 0.5, 0.0);
    HS_ASSERT_NEAR(hs_options_num(s->specimen_opts, "beta", -1), 0.5, 0.0);
    assert_non_null(s->relaxation_opts);
    HS_ASSERT_NEAR(hs_options_num(s->relaxation_opts, "fraction", -1), 0.1, 0.0);
    HS_ASSERT_NEAR(hs_options_num(s->relaxation_opts, "tau", -1), 2.0, 0.0);
    assert_true(hs_options_has(s->relaxation_opts, "v_still"));
    assert_false(hs_options_has(s->relaxation_opts, "tau_recover"));

    s = &def->sites[1];
    assert_string_equal(s->name, "lab2");
    assert_int_equal(s->nact, 2);
    assert_string_equal(s->actuator_names[0], "b1");
    assert_string_equal(s->actuator_names[1], "b2");
    HS_ASSERT_NEAR(s->rate, 1024.0, 0.0); /* default */
    assert_int_equal(s->perfect, 1);
    assert_int_equal(s->seed, 12); /* analysis.seed 11 + index 1 */
    HS_ASSERT_NEAR(s->actuator[0].a, 1.0, 0.0);
    HS_ASSERT_NEAR(s->actuator[1].a, 2.0, 0.0);
    assert_int_equal(s->actuator[0].perfect, 1);
    assert_null(s->actuator[0].schedule);
    HS_ASSERT_NEAR(s->displacement.rms, 0.0, 0.0);
    assert_null(s->relaxation_opts);
    assert_string_equal(s->specimen_type, "intrinsic");
    const double *v = NULL;
    assert_int_equal(hs_options_list(s->specimen_opts, "Tp", &v), 4);
    HS_ASSERT_NEAR(v[0], 1.0, 0.0);
    HS_ASSERT_NEAR(v[1], 0.0, 0.0);
    HS_ASSERT_NEAR(v[3], 1.0, 0.0);
    HS_ASSERT_NEAR(hs_options_num(s->specimen_opts, "p", -1), 2.0, 0.0);
    assert_string_equal(hs_options_str(s->specimen_opts, "material", ""), "elastic");
    assert_int_equal(hs_options_list(s->specimen_opts, "k", &v), 2); /* [c1, c2] */
    HS_ASSERT_NEAR(v[0], 3.0, 0.0);
    HS_ASSERT_NEAR(v[1], 2.0, 0.0);

    /* the site builds from the configuration: its specimen states K = diag(3, 2) */
    hs_site *site = NULL;
    assert_int_equal(hs_site_create(ctx, s, &site), 0);
    double K[4];
    assert_int_equal(hs_site_initial_stiffness(site, K), 0);
    HS_ASSERT_NEAR(K[0], 3.0, 1e-15);
    HS_ASSERT_NEAR(K[3], 2.0, 1e-15);
    HS_ASSERT_NEAR(K[1], 0.0, 0.0);
    hs_site_destroy(&site);
    assert_int_equal(hs_site_create(ctx, &def->sites[0], &site), 0);
    hs_site_destroy(&site);
    hs_test_def_destroy(&def);
    hs_ctx_destroy(&ctx);
}

/* The model has no springs; periods and damping see the experimental initial stiffness, the
 * shear building k = (2.8, 2, 3) with unit masses (story 2 is actuator b2 = c2, story 3 b1 = c1):
 * K = [[k1 + k2, -k2, 0], [-k2, k2 + k3, -k3], [0, -k3, k3]]. */
static void test_extra_stiffness(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = hs_test_load_text(ctx, good, "good.yaml");
    hs_model *m = def->model;
    assert_int_equal(hs_model_spring_count(m), 0);
    double K[9];
    assert_int_equal(hs_model_initial_stiffness(m, K), 0);
    for (int i = 0; i < 9; i++) HS_ASSERT_NEAR(K[i], 0.0, 0.0); /* numerical part only */
    const double k1 = 2.8, k2 = 2.0, k3 = 3.0;
    double w2[3], phi[9];
    assert_int_equal(hs_model_modes(m, w2, phi), 0);
    /* characteristic polynomial of K (unit masses): trace, sum of principal 2x2 minors, det */
    const double c1 = (k1 + k2) + (k2 + k3) + k3;
    const double c2 =
        ((k1 + k2) * (k2 + k3) - k2 * k2) + (k1 + k2) * k3 + ((k2 + k3) * k3 - k3 * k3);
    const double c3 = k1 * k2 * k3;
    HS_ASSERT_NEAR(w2[0] + w2[1] + w2[2], c1, 1e-12);
    HS_ASSERT_NEAR(w2[0] * w2[1] + w2[0] * w2[2] + w2[1] * w2[2], c2, 1e-11);
    HS_ASSERT_NEAR(w2[0] * w2[1] * w2[2], c3, 1e-11);
    /* C = a1 K, a1 = 2 zeta / omega_1, zeta = 0.05 */
    const double a1 = 2.0 * 0.05 / sqrt(w2[0]);
    const double *C = hs_model_damping(m);
    HS_ASSERT_NEAR(C[0], a1 * (k1 + k2), 1e-14);
    HS_ASSERT_NEAR(C[1], -a1 * k2, 1e-14);
    HS_ASSERT_NEAR(C[2], 0.0, 1e-14);
    HS_ASSERT_NEAR(C[4], a1 * (k2 + k3), 1e-14);
    HS_ASSERT_NEAR(C[8], a1 * k3, 1e-14);
    /* and mode 1 has 5 % of critical: phi1^T C phi1 / (2 omega_1) */
    double q = 0.0;
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) q += phi[i] * C[j * 3 + i] * phi[j];
    HS_ASSERT_NEAR(q / (2.0 * sqrt(w2[0])), 0.05, 1e-12);
    hs_test_def_destroy(&def);
    hs_ctx_destroy(&ctx);
}

/* A remote site (url, key file relative to the test file), a linear specimen K and an MR damper
 * with one voltage per actuator. */
static void test_remote_and_specimens(void **state)
{
    (void)state;
    char dir[] = "/tmp/hs_tfexp_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char keypath[256], yaml[256];
    snprintf(keypath, sizeof keypath, "%s/lab.key", dir);
    snprintf(yaml, sizeof yaml, "%s/t.yaml", dir);
    FILE *f = fopen(keypath, "w");
    assert_non_null(f);
    fputs("cabb4e45f67ec3346f9d84d7a6e9290a2857bc99c955b72cacab5c1ea549b450\n",
          f); /* 64 hex digits */
    fclose(f);
    const char *text = "hysim: 1\n"
                       "name: remote\n"
                       "units: {force: kN, length: m, time: s}\n"
                       "materials: {c: {type: elastic, k: 10}}\n"
                       "structure:\n"
                       "  dofs: 2\n"
                       "  mass: [1, 1]\n"
                       "  springs: [{from: ground, to: 1, material: c}]\n"
                       "  damping: {rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}\n"
                       "experimental:\n"
                       "  - {name: top, site: far, story: 2, actuators: [x]}\n"
                       "  - {name: pair, site: near, dofs: [1, 2], T: [[1, 0], [0, 1]],\n"
                       "     actuators: [p, q]}\n"
                       "  - {name: damper, site: mr, story: 1, actuators: [d]}\n"
                       "sites:\n"
                       "  far: {kind: remote, url: \"hysim://127.0.0.1:8091\", key: lab.key,\n"
                       "        actuators: {x: {}}}\n"
                       "  near: {kind: virtual, actuators: {p: {}, q: {}},\n"
                       "         specimen: {type: linear, K: [[4, -1], [-1, 2]]}}\n"
                       "  mr: {kind: virtual, actuators: {d: {}},\n"
                       "       specimen: {type: mr_damper, voltage: [1.5], scale: 2}}\n"
                       "ground_motion: {synthetic: {seed: 1, pga: 1, duration: 1, dt: 0.01}}\n"
                       "analysis: {integrator: {type: newmark_explicit}, dt: 0.01, steps: 10}\n";
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = hs_test_load_text(ctx, text, yaml);
    assert_int_equal(def->seed, 1); /* default */
    const hs_site_config *far = &def->sites[0], *near = &def->sites[1], *mr = &def->sites[2];
    assert_string_equal(far->kind, "remote");
    assert_string_equal(far->url, "hysim://127.0.0.1:8091");
    assert_string_equal(far->key, keypath);
    assert_null(far->specimen_opts);
    assert_int_equal(far->seed, 1);  /* 1 + 0 */
    assert_int_equal(near->seed, 2); /* 1 + 1 */
    assert_int_equal(mr->seed, 3);
    HS_ASSERT_NEAR(far->time_scale, 1.0, 0.0);
    const double *v = NULL;
    assert_int_equal(hs_options_list(near->specimen_opts, "K", &v), 4);
    HS_ASSERT_NEAR(v[1], -1.0, 0.0);
    HS_ASSERT_NEAR(v[3], 2.0, 0.0);
    assert_int_equal(mr->has_voltage, 1);
    HS_ASSERT_NEAR(mr->voltage[0], 1.5, 0.0);
    HS_ASSERT_NEAR(hs_options_num(mr->specimen_opts, "scale", 0), 2.0, 0.0);
    /* story 2: x = d2 - d1 */
    HS_ASSERT_NEAR(def->experimental[0].T[0], -1.0, 0.0);
    HS_ASSERT_NEAR(def->experimental[0].T[1], 1.0, 0.0);
    /* the remote site and the damper state no initial stiffness: periods see the spring (10)
     * and the linear specimen [[4, -1], [-1, 2]] on (d1, d2): K = [[14, -1], [-1, 2]] */
    double w2[2];
    assert_int_equal(hs_model_modes(def->model, w2, NULL), 0);
    HS_ASSERT_NEAR(w2[0] + w2[1], 16.0, 1e-12);
    HS_ASSERT_NEAR(w2[0] * w2[1], 27.0, 1e-11);
    hs_test_def_destroy(&def);
    remove(keypath);
    remove(yaml);
    rmdir(dir);
    hs_ctx_destroy(&ctx);
}

/* The Mosqueda & Ahmadizadeh 2008b examples: periods 0.50 s and 0.13 s (roots of the 2-DOF
 * characteristic equation m1 m2 l^2 - (m1 k + 2 k m2) l + k^2 = 0 with the file's masses), 5 % at
 * mode 1 on the experimental stiffness, the lab as written; the perfect twin differs only in
 * `perfect`. */
static void test_mosqueda2008b_examples(void **state)
{
    (void)state;
    if (!hs_test_shared_path("data/records/ELC270.txt")) {
        printf("SKIP: ../shared is absent (the examples read ELC270.txt)\n");
        skip();
    }
    const char *files[2] = {"examples/mosqueda2008b_linear_hybrid.yaml",
                            "examples/mosqueda2008b_linear_hybrid_perfect.yaml"};
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    const double two_pi = 6.283185307179586476925286766559, k = 1.0;
    for (int f = 0; f < 2; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s", hs_test_source_path(files[f]));
        hs_test_def *def = NULL;
        int rc = hs_testfile_load(ctx, path, &def);
        if (rc) fprintf(stderr, "%s\n", hs_ctx_message(ctx));
        assert_int_equal(rc, 0);
        const double *m = hs_model_mass(def->model);
        const double b = m[0] * k + 2.0 * k * m[1], disc = b * b - 4.0 * m[0] * m[1] * k * k;
        const double l1 = (b - sqrt(disc)) / (2.0 * m[0] * m[1]);
        const double l2 = (b + sqrt(disc)) / (2.0 * m[0] * m[1]);
        HS_ASSERT_NEAR(two_pi / sqrt(l1), 0.50, 1e-9);
        HS_ASSERT_NEAR(two_pi / sqrt(l2), 0.13, 1e-9);
        double w2[2], phi[4];
        assert_int_equal(hs_model_modes(def->model, w2, phi), 0);
        HS_ASSERT_NEAR(w2[0], l1, 1e-9 * l1);
        HS_ASSERT_NEAR(w2[1], l2, 1e-9 * l2);
        const double *C = hs_model_damping(def->model);
        double q = 0.0;
        for (int j = 0; j < 2; j++)
            for (int i = 0; i < 2; i++) q += phi[i] * C[j * 2 + i] * phi[j];
        HS_ASSERT_NEAR(q / (2.0 * sqrt(w2[0])), 0.05, 1e-12);
        HS_ASSERT_NEAR(def->dt, 10.0 / 1024.0, 0.0);
        assert_string_equal(def->integrator, "central_difference");
        assert_int_equal(def->nexp, 1);
        assert_int_equal(def->nsites, 1);
        const hs_site_config *s = &def->sites[0];
        assert_int_equal(s->perfect, f);
        assert_int_equal(s->nact, 2);
        HS_ASSERT_NEAR(s->rate, 1024.0, 0.0);
        HS_ASSERT_NEAR(s->actuator[0].a, 3.0, 0.0);
        HS_ASSERT_NEAR(s->actuator[1].a, 3.0, 0.0);
        HS_ASSERT_NEAR(s->displacement.rms, 0.01, 0.0);
        assert_string_equal(def->units_length, "mm");
        /* x = (d1, d2 - d1) */
        const double *T = def->experimental[0].T;
        HS_ASSERT_NEAR(T[0], 1.0, 0.0);
        HS_ASSERT_NEAR(T[1], -1.0, 0.0);
        HS_ASSERT_NEAR(T[2], 0.0, 0.0);
        HS_ASSERT_NEAR(T[3], 1.0, 0.0);
        hs_test_def_destroy(&def);
    }
    hs_ctx_destroy(&ctx);
}

/* Bad files: the base with one substring replaced. */
static const char *const base =
    "hysim: 1\n"                                                                 /* 1 */
    "name: hybrid\n"                                                             /* 2 */
    "units: {force: kN, length: mm, time: s}\n"                                  /* 3 */
    "materials:\n"                                                               /* 4 */
    "  bw: {type: bouc_wen, alpha: 0.1, k0: 2.8, n: 1, gamma: 0.5, beta: 0.5}\n" /* 5 */
    "  el: {type: elastic, k: 2}\n"                                              /* 6 */
    "structure:\n"                                                               /* 7 */
    "  dofs: 3\n"                                                                /* 8 */
    "  mass: [1, 1, 1]\n"                                                        /* 9 */
    "  damping: {stiffness_proportional: {mode: 1, ratio: 0.05}}\n"              /* 10 */
    "experimental:\n"                                                            /* 11 */
    "  - {name: col1, site: lab1, story: 1, actuators: [a1], initial_stiffness: [[2.8]]}\n"
    "  - {name: cols, site: lab2, dofs: [2, 3], T: [[1, 0], [-1, 1]], actuators: [b1, b2]}\n"
    "sites:\n"                                                  /* 14 */
    "  lab1:\n"                                                 /* 15 */
    "    kind: virtual\n"                                       /* 16 */
    "    rate: 1024\n"                                          /* 17 */
    "    actuators:\n"                                          /* 18 */
    "      a1: {delay_samples: 3, stroke: 10}\n"                /* 19 */
    "    specimen: {type: material, material: bw}\n"            /* 20 */
    "    relaxation: {fraction: 0.1, tau: 2}\n"                 /* 21 */
    "  lab2:\n"                                                 /* 22 */
    "    kind: virtual\n"                                       /* 23 */
    "    actuators: {b1: {}, b2: {}}\n"                         /* 24 */
    "    specimen: {type: linear, K: [[2, 0], [0, 2]]}\n"       /* 25 */
    "ground_motion:\n"                                          /* 26 */
    "  synthetic: {seed: 7, pga: 3.0, duration: 2, dt: 0.01}\n" /* 27 */
    "analysis:\n"                                               /* 28 */
    "  integrator: {type: central_difference}\n"                /* 29 */
    "  dt: 0.01\n"                                              /* 30 */
    "  duration: 2\n";                                          /* 31 */

static const hs_bad_case bad_cases[] = {
    /* the twelve the issue names */
    {"site: lab1", "site: lab3", "12:24",
     "unknown site 'lab3'; did you mean 'lab1'? (known: lab1, lab2)"},
    {"actuators: [b1, b2]", "actuators: [b1, b1]", "13:82",
     "actuator 'b1' of site 'lab2' is already used (at 13:78)"},
    {"{b1: {}, b2: {}}\n    specimen: {type: linear, K: [[2, 0], [0, 2]]}",
     "{b1: {}, b2: {}, b3: {}}\n    specimen: {type: linear, K: [[2, 0, 0], [0, 2, 0], [0, 0, 1]]}",
     "24:33", "sites.lab2.actuators: actuator 'b3' is used by no experimental element"},
    {"T: [[1, 0], [-1, 1]]", "T: [[1, 0]]", "13:47",
     "experimental.cols.T: expected 2 rows (one per actuator), got 1"},
    {"story: 1", "story: 4", "12:37", "experimental.col1.story: must be between 1 and 3 (got 4)"},
    {"type: linear", "type: linaer", "25:22",
     "sites.lab2.specimen.type: unknown specimen type 'linaer'; did you mean 'linear'?"},
    {"material: bw}", "material: bx}", "20:42",
     "sites.lab1.specimen.material: unknown material 'bx'"},
    {"delay_samples: 3", "delay_samples: -3", "19:27",
     "sites.lab1.actuators.a1.delay_samples: must be >= 1"},
    {"rate: 1024", "rate: 0", "17:11", "sites.lab1.rate: must be between 1 and 100000 Hz (got 0)"},
    {"  lab1:\n    kind: virtual", "  lab1:\n    kind: virtul", "16:11",
     "sites.lab1.kind: expected 'virtual' or 'remote', got 'virtul'"},
    {"  lab2:\n    kind: virtual", "  lab2:\n    kind: remote", "23:5",
     "missing required key 'url' in sites.lab2"},
    {"[[2.8]]", "[[2.8, 0]]", "12:77",
     "experimental.col1.initial_stiffness[1]: expected 1 values (one per actuator), got 2"},
    /* more */
    {"[[2.8]]", "[2.8]", "12:76", "initial_stiffness: expected a matrix written row by row"},
    {"    rate: 1024\n", "    rate: 1024\n    perfekt: true\n", "18:5",
     "unknown key 'perfekt' in sites.lab1; did you mean 'perfect'?"},
    {"actuators: [a1]", "actuators: [a2]", "12:52",
     "site 'lab1' has no actuator 'a2'; did you mean 'a1'?"},
    {"dofs: [2, 3], T: [[1, 0], [-1, 1]],", "story: 2,", "13:51",
     "a story element has one actuator (got 2)"},
    {"fraction: 0.1", "fraction: 1.5", "21:28",
     "sites.lab1.relaxation.fraction: must be between 0 and 1"},
    {"  duration: 2\n", "  duration: 2\n  seed: -1\n", "32:9", "analysis.seed: must be between 0"},
    {"{type: linear, K: [[2, 0], [0, 2]]}", "{type: bilinear_degrading, k: 2, fy: -1}", "25:15",
     "sites.lab2.specimen: "},
    {"stroke: 10", "delay_schedule: [[0, 3], [1, 0.5]]", "19:59",
     "delay_schedule[2]: a = 0.5 must be >= 1 sample"},
    {"stroke: 10", "stroke: 10, step_limit: -1", "19:54",
     "sites.lab1.actuators.a1.step_limit: must be >= 0 (0: none) (got -1)"},
    {"stroke: 10", "stroke: 10, acceleration_limit: x", "19:62", "acceleration_limit"},
    {"stroke: 10", "valve: {freq: 600}", "19:44",
     "valve.freq: 600 Hz is not below half the controller rate (512 Hz)"},
    {"dofs: [2, 3]", "dofs: [2, 2]", "13:40", "DOF 2 is listed twice"},
    {"{type: material, material: bw}", "{type: relaxation, inner: linear}", "20:22",
     "write relaxation as the site's 'relaxation"},
    {"story: 1, ", "", "12:5",
     "missing required key 'story' (or 'dofs' with 'T') in "
     "experimental.col1"},
    {"story: 1, ", "story: 1, dofs: [1], ", "12:46", "give either 'story' or 'dofs' with 'T'"},
    {"initial_stiffness", "initial_stiffnes", "12:57",
     "unknown key 'initial_stiffnes' in experimental[1]; did you mean 'initial_stiffness'?"},
    {"sites:\n", "sitez:\n", "14:1", "did you mean 'sites'?"},
    {"materials:\n  bw: {type: bouc_wen, alpha: 0.1, k0: 2.8, n: 1, gamma: 0.5, beta: 0.5}\n"
     "  el: {type: elastic, k: 2}\n",
     "", "17:42", "unknown material 'bw' (known: none, the file has no materials section)"},
    {"    specimen: {type: linear, K: [[2, 0], [0, 2]]}\n", "", "23:5",
     "missing required key 'specimen' in sites.lab2"},
    {"K: [[2, 0], [0, 2]]", "K: [[2, 0]]", "25:33",
     "sites.lab2.specimen.K: expected 2 rows (one per actuator), got 1"},
    {"material: bw}", "material: [bw, el]}", "20:42",
     "material: expected one material name or 1 (one per actuator), got 2"},
    {"{delay_samples: 3, stroke: 10}", "{delay_samples: 3, stroke: 10, url: x}", "19:42",
     "unknown key 'url' in sites.lab1.actuators.a1"},
    {"    rate: 1024\n", "    rate: 1024\n    url: \"hysim://h:1\"\n", "18:10",
     "sites.lab1.url: only remote sites have a url"},
    {"    rate: 1024\n", "    rate: 1024\n    lab: {kind: udp}\n", "18:10",
     "sites.lab1.lab: a laboratory back end (udp, shm, driver) runs behind `hysim site` only"},
    {"  lab2:\n    kind: virtual", "  lab2:\n    kind: remote\n    url: \"http://h:80\"", "24:10",
     "sites.lab2.url: expected hysim://HOST:PORT"},
};

static void test_bad_files(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    /* the base is valid */
    hs_test_def *def = NULL;
    int rc = hs_testfile_load_string(ctx, base, strlen(base), "bad.yaml", &def);
    if (rc) fprintf(stderr, "base: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    hs_test_def_destroy(&def);
    const size_t ncases = sizeof bad_cases / sizeof bad_cases[0];
    const int failures = hs_test_bad_cases(ctx, base, "bad.yaml", bad_cases, ncases);
    assert_true(ncases >= 12);
    hs_ctx_destroy(&ctx);
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elements),
        cmocka_unit_test(test_sites),
        cmocka_unit_test(test_extra_stiffness),
        cmocka_unit_test(test_remote_and_specimens),
        cmocka_unit_test(test_mosqueda2008b_examples),
        cmocka_unit_test(test_bad_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
