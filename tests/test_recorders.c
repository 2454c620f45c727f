/* The frame model's recorders (include/hysim/recorders.h, docs/outputs.md "Recorders") against
 * equilibrium and closed forms, run from test files through the coordinator:
 *  - a cantilever under a slow ground-acceleration ramp: the base reaction equals the inertia of
 *    the tip mass at every step (m a_abs, undamped: equilibrium to round-off), the base moment is
 *    -h times it, and both are the quasi-static load m ag within the ramp's dynamic part
 *    m alpha / omega; the massless tip rotation and its velocity and acceleration are -3 / (2h)
 *    times the tip's (Euler-Bernoulli: theta = P h^2 / 2EI, u = P h^3 / 3EI; a column along +y
 *    pushed in +x turns clockwise); the end rotations relative to the chord (-u/h) are
 *    th_i = u/h and th_j = -u/(2h); abs_accel = accel + ag;
 *  - a portal frame (columns I_c, beam I_b, r = (I_b/L) / (I_c/h), axial deformation made
 *    negligible): each column's end moments share its shear times h as (1 + 3r) / (1 + 6r) at
 *    the base and 3r / (1 + 6r) at the top (slope-deflection), at every step; the base shears sum
 *    to the masses' inertia;
 *  - the same cantilever through every integrator: the condensed tip rotation recorded stays
 *    -3/(2h) times the tip displacement the integrator reports (the model's committed state is
 *    the integrator's), and 100 recorded steps allocate nothing;
 *  - a truss bar at 3-4-5 slope and a zero-length spring in x holding a mass: the truss's
 *    elongation 0.6 u + 0.8 v, strain elongation / 5, axial force EA/L times it and global forces
 *    N [-0.6 -0.8 0 0.6 0.8 0]; the spring's deformation u, force k u and global forces; the
 *    supports' reactions in x and y sum to the mass's inertia m a_abs;
 *  - a two-story frame: a drift recorder is the displacement difference over the story height;
 *  - bad recorders are refused with FILE:LINE:COL and what to do. */
#include "hs_test.h"
#include "hs_text_def.h"

#include "hysim/coordinator.h"
#include "hysim/recorders.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct run {
    char dir[64], path[128];
    hs_ctx *ctx;
    hs_test_def *def;
    hs_coordinator *c;
    const hs_results *r;
} run;

/* Writes ramp.txt (alpha t, dt 0.01, n values) into a fresh folder, loads yaml as FOLDER/t.yaml,
 * runs it to the end. */
static void start(run *x, const char *yaml, double alpha, int n)
{
    memset(x, 0, sizeof *x);
    snprintf(x->dir, sizeof x->dir, "/tmp/hs_recorders_XXXXXX");
    assert_non_null(mkdtemp(x->dir));
    snprintf(x->path, sizeof x->path, "%s/ramp.txt", x->dir);
    FILE *f = fopen(x->path, "w");
    assert_non_null(f);
    for (int k = 0; k < n; k++) fprintf(f, "%.17g\n", alpha * 0.01 * k);
    fclose(f);
    snprintf(x->path, sizeof x->path, "%s/t.yaml", x->dir);
    assert_int_equal(hs_ctx_create(&x->ctx), 0);
    int rc = hs_testfile_load_string(x->ctx, yaml, strlen(yaml), x->path, &x->def);
    if (rc) fprintf(stderr, "%s\n", hs_ctx_message(x->ctx));
    assert_int_equal(rc, 0);
    rc = hs_coordinator_create(x->ctx, x->def, &x->c);
    if (!rc) rc = hs_coordinator_run(x->c);
    if (rc) fprintf(stderr, "%s\n", hs_ctx_message(x->ctx));
    assert_int_equal(rc, 0);
    x->r = hs_coordinator_results(x->c);
    assert_int_equal(hs_results_count(x->r), x->def->steps + 1);
}

static void finish(run *x)
{
    hs_coordinator_destroy(&x->c);
    hs_test_def_destroy(&x->def);
    hs_ctx_destroy(&x->ctx);
    char p[160];
    snprintf(p, sizeof p, "%s/ramp.txt", x->dir);
    unlink(p);
    rmdir(x->dir);
}

static const double *rec(const run *x, int j, int64_t k)
{
    const double *v = hs_results_series_recorder(x->r, j, k);
    assert_non_null(v);
    return v;
}

/* Cantilever h = 3 m, E I = 2e4 kN m^2, 10 t at the tip, ramp 1 m/s^2 per s for 20 s. */
static const char *CANTILEVER =
    "hysim: 1\n"
    "name: cantilever\n"
    "units: {force: kN, length: m, time: s}\n"
    "structure:\n"
    "  model:\n"
    "    nodes:\n"
    "      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}\n"
    "      - {id: 2, x: 0, y: 3, mass: [10, 0, 0]}\n"
    "    elements:\n"
    "      - {type: elastic_beam, name: col, nodes: [1, 2], E: 200e6, "
    "A: 0.01, I: 1e-4}\n"
    "  damping: {none: true}\n"
    "ground_motion: {file: ramp.txt, format: columns, dt: 0.01}\n"
    "analysis:\n"
    "  integrator: {type: newmark}\n"
    "  dt: 0.01\n"
    "  steps: 2000\n"
    "output:\n"
    "  recorders:\n"
    "    - {name: base, node: 1, dofs: [x, y, rz], response: reaction}\n"
    "    - {name: tip_a, node: 2, dofs: [x], response: abs_accel}\n"
    "    - {name: tip_rel, node: 2, dofs: [x], response: accel}\n"
    "    - {name: tip_d, node: 2, dofs: [x, rz], response: disp}\n"
    "    - {name: tip_v, node: 2, dofs: [x, rz], response: vel}\n"
    "    - {name: tip_acc, node: 2, dofs: [x, rz], response: accel}\n"
    "    - {name: col_def, element: col, response: deformation}\n"
    "    - {name: col_q, element: [col], response: basic_force}\n"
    "    - {name: col_f, element: col, response: force}\n";

static void test_cantilever_reaction(void **state)
{
    (void)state;
    const double h = 3.0, EI = 200e6 * 1e-4, m = 10.0, alpha = 1.0;
    const double omega = sqrt(3.0 * EI / (h * h * h) / m);
    run x;
    start(&x, CANTILEVER, alpha, 2101);
    double peak = 0.0, worst_eq = 0.0, worst_m = 0.0, worst_qs = 0.0, worst_rot = 0.0,
           worst_th = 0.0, worst_abs = 0.0;
    for (int64_t k = 0; k <= x.def->steps; k++) {
        const double t = 0.01 * (double)k, ag = hs_ground_motion_at(x.def->gm, t);
        const double *R = rec(&x, 0, k), a_abs = rec(&x, 1, k)[0], a_rel = rec(&x, 2, k)[0];
        peak = fmax(peak, fabs(R[0]));
        worst_eq = fmax(worst_eq, fabs(R[0] - m * a_abs)); /* equilibrium */
        worst_m = fmax(worst_m, fabs(R[2] + h * R[0]));    /* moment about the base */
        worst_qs = fmax(worst_qs, fabs(R[0] - m * ag));    /* the quasi-static load */
        worst_abs = fmax(worst_abs, fabs(a_abs - (a_rel + ag)));
        assert_true(fabs(R[1]) <= 1e-9);
        for (int j = 3; j <= 5; j++) { /* disp, vel, accel: rz = 3 / (2h) ux */
            const double *u = rec(&x, j, k);
            worst_rot = fmax(worst_rot, fabs(u[1] + 1.5 / h * u[0]) / (fabs(u[0]) / h + 1e-300));
        }
        const double *th = rec(&x, 6, k), u = rec(&x, 3, k)[0];
        worst_th = fmax(worst_th, fabs(th[1] - u / h) + fabs(th[2] + u / (2.0 * h)));
        const double *q = rec(&x, 7, k), *f = rec(&x, 8, k);
        HS_ASSERT_NEAR(q[1], f[2], 1e-9 * (fabs(f[2]) + 1.0));  /* M_i: basic = global (vertical) */
        HS_ASSERT_NEAR(f[0], R[0], 1e-12 * (fabs(R[0]) + 1.0)); /* one element at the base */
    }
    print_message("    cantilever: peak reaction %.6g kN (m ag at the end %.6g); |R - m a_abs| "
                  "<= %.3g, |M + h R| <= %.3g, |R - m ag| <= %.4g (bound m alpha / omega = "
                  "%.4g); rotations -3/(2h) to %.2g; |th - closed form| <= %.2g; |abs - rel - ag| "
                  "<= %.2g\n",
                  peak, m * alpha * 20.0, worst_eq, worst_m, worst_qs, m * alpha / omega, worst_rot,
                  worst_th, worst_abs);
    assert_true(peak > 0.99 * m * alpha * 20.0 - m * alpha / omega);
    assert_true(worst_eq <= 1e-10 * peak);
    assert_true(worst_m <= 1e-10 * h * peak);
    assert_true(worst_qs <= 1.05 * m * alpha / omega);
    assert_true(worst_qs >= 0.5 * m * alpha / omega); /* the ramp's dynamic part is there */
    assert_true(worst_rot <= 1e-9);
    assert_true(worst_th <= 1e-12);
    assert_true(worst_abs <= 1e-12 * m * alpha * 20.0);
    finish(&x);
}

static void test_every_integrator(void **state)
{
    (void)state;
    static const char *const types[] = {"newmark_explicit", "central_difference",
                                        "newmark",          "hht",
                                        "alpha_os",         "cr",
                                        "kr_alpha",         "ghaboussi_pc",
                                        "os_tangent",       "implicit_hht_fe"};
    const double h = 3.0;
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
        char yaml[4096];
        const char *at = strstr(CANTILEVER, "{type: newmark}");
        snprintf(yaml, sizeof yaml, "%.*s{type: %s}%s", (int)(at - CANTILEVER), CANTILEVER,
                 types[k], at + strlen("{type: newmark}"));
        run x;
        memset(&x, 0, sizeof x);
        snprintf(x.dir, sizeof x.dir, "/tmp/hs_recorders_XXXXXX");
        assert_non_null(mkdtemp(x.dir));
        snprintf(x.path, sizeof x.path, "%s/ramp.txt", x.dir);
        FILE *f = fopen(x.path, "w");
        assert_non_null(f);
        for (int i = 0; i < 2101; i++) fprintf(f, "%.17g\n", 0.01 * i);
        fclose(f);
        snprintf(x.path, sizeof x.path, "%s/t.yaml", x.dir);
        assert_int_equal(hs_ctx_create(&x.ctx), 0);
        int rc = hs_testfile_load_string(x.ctx, yaml, strlen(yaml), x.path, &x.def);
        if (!rc) rc = hs_coordinator_create(x.ctx, x.def, &x.c);
        if (!rc) rc = hs_coordinator_advance(x.c, 10);
        const uint64_t before = hs_alloc_count();
        if (!rc) rc = hs_coordinator_advance(x.c, 100);
        const uint64_t allocs = hs_alloc_count() - before;
        if (rc) fprintf(stderr, "%s: %s\n", types[k], hs_ctx_message(x.ctx));
        assert_int_equal(rc, 0);
        x.r = hs_coordinator_results(x.c);
        double worst = 0.0, peak = 0.0;
        for (int64_t i = 0; i < hs_results_count(x.r); i++) {
            const double u = hs_results_series_d(x.r, i)[0], *tip = rec(&x, 3, i);
            assert_true(tip[0] == u); /* the dynamic DOF is the integrator's */
            peak = fmax(peak, fabs(u));
            worst = fmax(worst, fabs(tip[1] + 1.5 / h * u));
        }
        print_message("    %-18s tip rotation + 3/(2h) u: %.2g (peak u %.3g m); %llu allocations "
                      "in 100 steps\n",
                      types[k], worst, peak, (unsigned long long)allocs);
        assert_true(peak > 1e-3);
        assert_true(worst <= 1e-12 * peak / h);
        assert_true(allocs == 0);
        finish(&x);
    }
}

static void test_truss_and_spring(void **state)
{
    (void)state;
    const char *yaml =
        "hysim: 1\n"
        "name: bar\n"
        "units: {force: kN, length: m, time: s}\n"
        "materials:\n"
        "  spring: {type: elastic, k: 800}\n"
        "structure:\n"
        "  model:\n"
        "    nodes:\n"
        "      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}\n"
        "      - {id: 2, x: 3, y: 4, fix: [0, 0, 1], mass: [2, 2, 0]}\n"
        "      - {id: 3, x: 3, y: 4, fix: [1, 1, 1]}\n"
        "    elements:\n"
        "      - {type: truss, name: bar, nodes: [1, 2], E: 2e5, A: 0.01}\n"
        "      - {type: zero_length, name: zl, nodes: [3, 2], dir: x, material: spring}\n"
        "  damping: {none: true}\n"
        "ground_motion: {synthetic: {seed: 5, pga: 2.0, duration: 2, dt: 0.01}}\n"
        "analysis: {integrator: {type: newmark}, dt: 0.005, steps: 400}\n"
        "output:\n"
        "  recorders:\n"
        "    - {name: d, node: 2, dofs: [x, y], response: disp}\n"
        "    - {name: bar_def, element: bar, response: deformation}\n"
        "    - {name: bar_strain, element: bar, response: strain}\n"
        "    - {name: bar_n, element: bar, response: basic_force}\n"
        "    - {name: bar_f, element: bar, response: force}\n"
        "    - {name: zl_def, element: zl, response: deformation}\n"
        "    - {name: zl_q, element: zl, response: basic_force}\n"
        "    - {name: zl_f, element: zl, response: force}\n"
        "    - {name: reac, node: [1, 3], dofs: [x, y], response: reaction}\n"
        "    - {name: a, node: 2, dofs: [x, y], response: abs_accel}\n";
    run x;
    start(&x, yaml, 0.0, 1);
    const double EA_L = 2e5 * 0.01 / 5.0, k = 800.0, m = 2.0;
    double peak = 0.0, worst = 0.0, peak_r = 0.0, worst_eq = 0.0;
    for (int64_t i = 0; i <= x.def->steps; i++) {
        const double *d = rec(&x, 0, i), e = 0.6 * d[0] + 0.8 * d[1], N = EA_L * e;
        const double bar_f[6] = {-0.6 * N, -0.8 * N, 0.0, 0.6 * N, 0.8 * N, 0.0};
        const double zl_f[6] = {-k * d[0], 0.0, 0.0, k * d[0], 0.0, 0.0};
        double err = fabs(rec(&x, 1, i)[0] - e) + fabs(rec(&x, 2, i)[0] - e / 5.0) +
                     fabs(rec(&x, 3, i)[0] - N) / EA_L + fabs(rec(&x, 5, i)[0] - d[0]) +
                     fabs(rec(&x, 6, i)[0] - k * d[0]) / k;
        for (int j = 0; j < 6; j++)
            err += (fabs(rec(&x, 4, i)[j] - bar_f[j]) + fabs(rec(&x, 7, i)[j] - zl_f[j])) / EA_L;
        peak = fmax(peak, fabs(d[0]) + fabs(d[1]));
        worst = fmax(worst, err);
        const double *R = rec(&x, 8, i), *a = rec(&x, 9, i); /* [R1x R1y R3x R3y] */
        peak_r = fmax(peak_r, fabs(R[0] + R[2]) + fabs(R[1] + R[3]));
        worst_eq = fmax(worst_eq, fabs(R[0] + R[2] - m * a[0]) + fabs(R[1] + R[3] - m * a[1]));
    }
    print_message("    truss and zero-length: peak |u| + |v| %.4g m, recorded against the closed "
                  "forms %.3g (m, or force / stiffness); reactions - inertia %.3g kN (peak %.4g)\n",
                  peak, worst, worst_eq, peak_r);
    assert_true(peak > 1e-4);
    assert_true(worst <= 1e-12 * peak);
    assert_true(peak_r > 0.1);
    assert_true(worst_eq <= 1e-11 * peak_r);
    finish(&x);
}

/* Portal frame: columns h = 3.5 m, I_c = 2e-3, beam L = 6 m, I_b = 4e-3 (E = 30e6 kPa), axial
 * areas large (the closed form neglects axial deformation), 20 t at each top node. */
static const char *PORTAL =
    "hysim: 1\n"
    "name: portal\n"
    "units: {force: kN, length: m, time: s}\n"
    "structure:\n"
    "  model:\n"
    "    nodes:\n"
    "      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}\n"
    "      - {id: 2, x: 6, y: 0, fix: [1, 1, 1]}\n"
    "      - {id: 3, x: 0, y: 3.5, mass: [20, 0, 0]}\n"
    "      - {id: 4, x: 6, y: 3.5, mass: [20, 0, 0]}\n"
    "    elements:\n"
    "      - {type: elastic_beam, name: c1, nodes: [1, 3], E: 30e6, A: 1e3, I: 2e-3}\n"
    "      - {type: elastic_beam, name: c2, nodes: [2, 4], E: 30e6, A: 1e3, I: 2e-3}\n"
    "      - {type: elastic_beam, name: b1, nodes: [3, 4], E: 30e6, A: 1e3, I: 4e-3}\n"
    "  damping: {none: true}\n"
    "ground_motion: {synthetic: {seed: 3, pga: 3.0, duration: 3, dt: 0.01}}\n"
    "analysis:\n"
    "  integrator: {type: newmark}\n"
    "  dt: 0.01\n"
    "  steps: 300\n"
    "output:\n"
    "  recorders:\n"
    "    - {name: cols, element: [c1, c2], response: local_force}\n"
    "    - {name: base, node: [1, 2], dofs: [x], response: reaction}\n"
    "    - {name: top, node: [3, 4], dofs: [x], response: abs_accel}\n";

static void test_portal_moments(void **state)
{
    (void)state;
    const double r = (4e-3 / 6.0) / (2e-3 / 3.5), h = 3.5;
    const double base = (1.0 + 3.0 * r) / (1.0 + 6.0 * r), top = 3.0 * r / (1.0 + 6.0 * r);
    run x;
    start(&x, PORTAL, 0.0, 1);
    double peak = 0.0, worst = 0.0, worst_eq = 0.0;
    for (int64_t k = 0; k <= x.def->steps; k++) {
        const double *f = rec(&x, 0, k), *R = rec(&x, 1, k), *a = rec(&x, 2, k);
        for (int col = 0; col < 2; col++) {
            const double *e = f + 6 * col, Vh = e[1] * h; /* [N_i V_i M_i N_j V_j M_j] */
            peak = fmax(peak, fabs(Vh));
            worst = fmax(worst, fabs(e[2] - base * Vh) + fabs(e[5] - top * Vh));
        }
        worst_eq = fmax(worst_eq, fabs(R[0] + R[1] - 20.0 * (a[0] + a[1])));
    }
    print_message("    portal frame (r = %.4f): peak V h %.5g kN m; column end moments against "
                  "(1 + 3r) / (1 + 6r) = %.6f and 3r / (1 + 6r) = %.6f of V h: worst %.3g; base "
                  "shear - inertia: %.3g kN\n",
                  r, peak, base, top, worst, worst_eq);
    assert_true(peak > 1.0);
    assert_true(worst <= 1e-5 * peak);
    assert_true(worst_eq <= 1e-10 * peak / h);
    finish(&x);
}

static void test_drift(void **state)
{
    (void)state;
    const char *yaml = "hysim: 1\n"
                       "name: two-story\n"
                       "units: {force: kN, length: m, time: s}\n"
                       "structure:\n"
                       "  model:\n"
                       "    nodes:\n"
                       "      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}\n"
                       "      - {id: 3, x: 0, y: 3.2, mass: [25, 0, 0]}\n"
                       "      - {id: 5, x: 0, y: 6.4, mass: [25, 0, 0]}\n"
                       "    elements:\n"
                       "      - {type: elastic_beam, nodes: [1, 3], E: 200e6, A: 0.01, I: 1e-4}\n"
                       "      - {type: elastic_beam, nodes: [3, 5], E: 200e6, A: 0.01, I: 1e-4}\n"
                       "  damping: {rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}\n"
                       "ground_motion: {synthetic: {seed: 7, pga: 3.0, duration: 2, dt: 0.01}}\n"
                       "analysis: {integrator: {type: central_difference}, dt: 0.005, steps: 400}\n"
                       "output:\n"
                       "  recorders:\n"
                       "    - {name: s1, drift: {i: 1, j: 3, dof: x, perp: y}}\n"
                       "    - {name: s2, drift: {i: 3, j: 5, dof: x, perp: y}}\n"
                       "    - {name: roof, drift: {i: 5, j: 1, dof: x, perp: y}}\n";
    run x;
    start(&x, yaml, 0.0, 1);
    double peak = 0.0, worst = 0.0;
    for (int64_t k = 0; k <= x.def->steps; k++) {
        const double *d = hs_results_series_d(x.r, k); /* node 3 ux, node 5 ux */
        const double e[3] = {d[0] / 3.2, (d[1] - d[0]) / 3.2, (0.0 - d[1]) / (0.0 - 6.4)};
        for (int j = 0; j < 3; j++) {
            peak = fmax(peak, fabs(e[j]));
            worst = fmax(worst, fabs(rec(&x, j, k)[0] - e[j]));
        }
    }
    print_message("    drifts: peak %.4g, largest difference from (u_j - u_i) / (y_j - y_i) %.3g\n",
                  peak, worst);
    assert_true(peak > 1e-4);
    assert_true(worst <= 1e-15 * peak);
    finish(&x);
}

/* A recorder line replacing the portal's recorders; the message must carry LINE:COL and say
 * what. */
static void refused(const char *recorder, int line, const char *says)
{
    hs_test_refused_tail(PORTAL, "  recorders:\n", recorder, line, says);
}

static void test_errors(void **state)
{
    (void)state;
    refused("    - {node: [3], dofs: [x], response: reaction}\n", 23, "node 3 x is not fixed");
    refused("    - {node: [9], dofs: [x], response: disp}\n", 23, "no node 9");
    refused("    - {node: 3, dofs: [x], response: dsip}\n", 23, "did you mean 'disp'");
    refused("    - {element: [c1, c9], response: force}\n", 23, "no element 'c9'");
    refused("    - {element: c1, response: strain}\n", 23,
            "element 'c1' (elastic_beam) has no strain");
    refused("    - {drift: {i: 3, j: 4, dof: x, perp: y}}\n", 23, "same y coordinate");
    refused("    - {drift: {i: 1, j: 3, dof: x, perp: x}}\n", 23, "perp is the direction");
    refused("    - {name: a, node: 3, dofs: [x], response: disp}\n"
            "    - {name: a, node: 4, dofs: [x], response: disp}\n",
            24, "a second recorder named 'a'");
    refused("    - {name: a/b, node: 3, dofs: [x], response: disp}\n", 23,
            "names recorders/NAME.csv");
    refused("    - {node: 3, element: c1, response: disp}\n", 23, "exactly one of");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cantilever_reaction),
        cmocka_unit_test(test_every_integrator),
        cmocka_unit_test(test_truss_and_spring),
        cmocka_unit_test(test_portal_moments),
        cmocka_unit_test(test_drift),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
