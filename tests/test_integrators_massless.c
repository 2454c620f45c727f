/* DOFs without mass in the integrators (src/integrators/massless.c; docs/integrators.md,
 * "Experimental DOFs without mass"). A 3-DOF spring model whose DOF 3 carries no mass: springs
 * ground-1 (k1), 1-2 (k2), 2-3 (k3, experimental: the test plays a perfect lab, r_exp = Ke d_cmd)
 * and 3-ground (k4), a load P sin(w t) at DOF 3 and a ground acceleration. Its static
 * condensation is the 2-DOF model with the spring k3 k4 / (k3 + k4) from DOF 2 to the ground and
 * the load k3 / (k3 + k4) P sin(w t) at DOF 2. Checked for each integrator that takes DOFs without
 * mass (the registry's `massless`):
 *   - the displacements of DOFs 1-2 equal the condensed model's to 1e-12 of the peak (the damping,
 *     C = a0 M + a1 K0, built on the condensed stiffness in both);
 *   - the command at DOF 3 is the static condensation of the step's increment with K0 + Ke,
 *     d3(n) + [P (sin w t(n+1) - sin w t(n)) + k3 (d2~ - d2(n))] / (k3 + k4), to 1e-13;
 *   - no allocation in the steps.
 * The integrators that do not take them are refused at setup with the list of those that do;
 * implicit_hht_fe only with fallback os_tangent. */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STEPS 600
static const double k1 = 400.0, k2 = 300.0, k3 = 250.0, k4 = 150.0, m1 = 1.0, m2 = 0.8;
static const double P = 2.0, W = 7.0, DT = 0.01;

static double ground(double t)
{
    return 3.0 * sin(5.0 * t) * exp(-0.3 * t);
}

static void spring(hs_model *m, int from, int to, double k)
{
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_num(o, "k", k);
    assert_true(hs_model_add_spring(m, "s", from, to, "elastic", o, "s") >= 0);
    hs_options_destroy(&o);
}

/* The model with DOF 3 without mass (hybrid: k3 experimental), or its 2-DOF condensation. */
static hs_model *build(hs_ctx *ctx, int massless, double *Ke)
{
    hs_model *m = NULL;
    const int n = massless ? 3 : 2;
    assert_int_equal(hs_model_create(ctx, n, &m), 0);
    const double mass[3] = {m1, m2, 0.0}, iota[3] = {1.0, 1.0, 1.0};
    if (massless) hs_model_allow_massless(m);
    assert_int_equal(hs_model_set_mass(m, mass), 0);
    assert_int_equal(hs_model_set_influence(m, iota), 0);
    spring(m, HS_GROUND, 0, k1);
    spring(m, 0, 1, k2);
    if (massless) {
        spring(m, HS_GROUND, 2, k4);
        memset(Ke, 0, 9 * sizeof(double));
        HS_AT(Ke, 3, 1, 1) = HS_AT(Ke, 3, 2, 2) = k3;
        HS_AT(Ke, 3, 1, 2) = HS_AT(Ke, 3, 2, 1) = -k3;
        assert_int_equal(hs_model_set_extra_stiffness(m, Ke), 0);
    } else {
        spring(m, HS_GROUND, 1, k3 * k4 / (k3 + k4));
    }
    assert_int_equal(hs_model_damping_mass_stiffness(m, 0.3, 0.002), 0);
    return m;
}

/* f(t): -M iota ag(t), plus P sin(w t) at DOF 3 (massless) or its condensation at DOF 2 */
static void load(int massless, double t, double *f)
{
    f[0] = -m1 * ground(t);
    f[1] = -m2 * ground(t);
    if (massless)
        f[2] = P * sin(W * t);
    else
        f[1] += k3 / (k3 + k4) * P * sin(W * t);
}

/* Runs `type` (options opts) on the model; d (STEPS x 2) receives DOFs 1-2; the command of DOF
 * 3 is checked at every step. Returns the setup's code. */
static int run(hs_ctx *ctx, const char *type, const hs_options *opts, int massless, double *out)
{
    double Ke[9], K0[9], f0[3] = {0}, f1[3], cmd[3];
    hs_model *m = build(ctx, massless, Ke);
    const int n = massless ? 3 : 2;
    hs_dynamics dyn;
    memset(&dyn, 0, sizeof dyn);
    assert_int_equal(hs_model_dynamics(m, K0, &dyn), 0);
    if (massless) {
        for (int k = 0; k < 9; k++) K0[k] += Ke[k]; /* K0: numerical + experimental */
        dyn.Ke = Ke;
    }
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, type, opts, &it), 0);
    const double zero[3] = {0};
    int rc = hs_integrator_setup(it, &dyn, DT, zero, zero, f0);
    const uint64_t before = hs_alloc_count();
    double worst = 0.0;
    for (int s = 0; !rc && s < STEPS; s++) {
        load(massless, (s + 1) * DT, f1);
        double d2n = hs_integrator_displacement(it)[massless ? 1 : 0],
               d3n = massless ? hs_integrator_displacement(it)[2] : 0.0, rexp[3] = {0};
        hs_step_io io = {.step = s, .t = s * DT, .f_n = f0, .f_n1 = f1, .d_cmd = cmd};
        rc = hs_integrator_predict(it, &io);
        if (rc) break;
        if (massless) { /* the perfect lab: r_exp = Ke d_cmd */
            for (int j = 0; j < 3; j++)
                for (int i = 0; i < 3; i++) rexp[i] += HS_AT(Ke, 3, i, j) * cmd[j];
            io.r_exp = rexp;
            const double want =
                d3n +
                (P * (sin(W * (s + 1) * DT) - sin(W * s * DT)) + k3 * (cmd[1] - d2n)) / (k3 + k4);
            worst = fmax(worst, fabs(cmd[2] - want));
        }
        rc = hs_integrator_correct(it, &io);
        for (int i = 0; !rc && i < 2; i++) out[s * 2 + i] = hs_integrator_displacement(it)[i];
        memcpy(f0, f1, (size_t)n * sizeof(double));
    }
    if (!rc && massless) {
        print_message("%-16s command at the massless DOF: largest error %.3g\n", type, worst);
        assert_true(worst <= 1e-13);
        assert_true(hs_alloc_count() == before);
    }
    hs_integrator_destroy(&it);
    hs_model_destroy(&m);
    return rc;
}

static void test_massless_equals_condensed(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    double *ref = calloc(2 * STEPS, sizeof(double)), *got = calloc(2 * STEPS, sizeof(double));
    int taken = 0;
    for (size_t e = 0; e < hs_integrator_registry_count(); e++) {
        const hs_integrator_entry *en = hs_integrator_registry_get(e);
        if (!en->massless) continue;
        hs_options *o = NULL;
        hs_options_create(&o);
        if (strcmp(en->name, "implicit_hht_fe") == 0) {
            hs_options_set_str(o, "fallback", "explicit"); /* eq. 4.3 needs the mass */
            assert_int_equal(run(ctx, en->name, o, 1, got), HS_EUNSUPPORTED);
            assert_non_null(strstr(hs_ctx_message(ctx), "fallback: os_tangent"));
            hs_options_set_str(o, "fallback", "os_tangent");
        }
        assert_int_equal(run(ctx, en->name, o, 0, ref), 0);
        if (run(ctx, en->name, o, 1, got)) fail_msg("%s: %s", en->name, hs_ctx_message(ctx));
        double diff = 0.0, peak = 0.0;
        for (int k = 0; k < 2 * STEPS; k++) {
            diff = fmax(diff, fabs(got[k] - ref[k]));
            peak = fmax(peak, fabs(ref[k]));
        }
        print_message("%-16s massless vs condensed: %.3g of the peak %.4g\n", en->name, diff / peak,
                      peak);
        assert_true(peak > 1e-3 && diff <= 1e-12 * peak);
        hs_options_destroy(&o);
        taken++;
    }
    assert_int_equal(taken, 5); /* newmark, hht, alpha_os, os_tangent, implicit_hht_fe */
    free(ref);
    free(got);
    hs_ctx_destroy(&ctx);
}

static void test_others_refused(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    double *got = calloc(2 * STEPS, sizeof(double));
    char list[160];
    hs_integrator_massless_list(list, sizeof list);
    assert_string_equal(list, "newmark, hht, alpha_os, os_tangent, implicit_hht_fe");
    for (size_t e = 0; e < hs_integrator_registry_count(); e++) {
        const hs_integrator_entry *en = hs_integrator_registry_get(e);
        if (en->massless || en->linear_only) continue;
        assert_int_equal(run(ctx, en->name, NULL, 1, got), HS_EUNSUPPORTED);
        assert_non_null(strstr(hs_ctx_message(ctx), "DOF 3 first"));
        assert_non_null(strstr(hs_ctx_message(ctx), list));
    }
    free(got);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_massless_equals_condensed),
        cmocka_unit_test(test_others_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
