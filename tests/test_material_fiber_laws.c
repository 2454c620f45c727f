/* Steel01 and Concrete01 over fiber arrays (material_fibers.h: the law's scalar code one fiber
 * after the other, as the fiber sections run it) give the material objects' bits (the objects
 * match OpenSees to the bit, test_materials_opensees.c), for seven fibers on different branches
 * in one call, with three trials a step (Newton) and trials thrown away (revert); a checkpoint
 * gathered from the arrays loads into new objects that continue along the same path, and Steel01's
 * law refuses a loading flag other than -1, 0, 1. */
#include "hs_test.h"

#include "model/material_fibers.h"

#include <math.h>
#include <string.h>

enum { NF = 7, MAXS = 16, STEPS = 700 };

static hs_material *make(const char *type, const char *const *keys, const double *vals, size_t n)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    for (size_t k = 0; k < n; k++) hs_options_set_num(o, keys[k], vals[k]);
    hs_material *m = NULL;
    assert_int_equal(hs_material_create(NULL, type, o, &m), 0);
    hs_options_destroy(&o);
    return m;
}

static hs_material *steel01(void)
{
    static const char *const k[] = {"fy", "E0", "b", "a1", "a2", "a3", "a4"};
    static const double v[] = {50.0, 29000.0, 0.02, 0.05, 2.0, 0.04, 3.0};
    return make("steel01", k, v, 7);
}

static hs_material *concrete01(void)
{
    static const char *const k[] = {"fpc", "epsc0", "fpcu", "epscu"};
    static const double v[] = {-4.0, -0.002, -0.8, -0.006};
    return make("concrete01", k, v, 4);
}

/* fiber i's strain at step k, trial j of 3: cycles of growing amplitude about a drift that differs
 * per fiber (scale: a few yield strains), Newton's iterates past the step's strain */
static double strain_at(double scale, size_t i, int k, int j)
{
    const double w = 0.05 * (1.0 + 0.11 * (double)i), amp = 0.2 + 0.004 * (double)k;
    const double drift = (0.6 - 0.25 * (double)(i % 5)) * (double)k / STEPS;
    const double e = amp * sin(w * (double)k + 0.7 * (double)i) + drift;
    return scale * (e + (j == 0 ? 0.05 : j == 1 ? -0.01 : 0.0) * amp);
}

/* NF fibers on the law's arrays c against the objects m, steps [k0, k1); returns how many
 * evaluations left the elastic slope (the histories go beyond it) */
static int drive(const hs_fiber_law *law, double scale, double k0_slope, double *c, hs_material **m,
                 int k0, int k1)
{
    const size_t ns = law->state_n;
    double t[MAXS * NF], e[NF], s[NF], k[NF];
    int yielded = 0;
    for (int step = k0; step < k1; step++) {
        const int revert = step % 23 == 0;
        for (int j = -revert; j < 3; j++) { /* j = -1: a trial far off, thrown away */
            for (size_t i = 0; i < NF; i++)
                e[i] = j < 0 ? -2.0 * strain_at(scale, i, step, 2) : strain_at(scale, i, step, j);
            law->trial(law->params, NF, NF, e, c, t, s, k);
            for (size_t i = 0; i < NF; i++) {
                assert_int_equal(hs_material_set_trial(m[i], e[i], 0.0), 0);
                const double so = hs_material_stress(m[i]), ko = hs_material_tangent(m[i]);
                assert_memory_equal(&s[i], &so, sizeof so);
                assert_memory_equal(&k[i], &ko, sizeof ko);
                yielded += fabs(ko) < 0.5 * k0_slope;
                if (j < 0) assert_int_equal(hs_material_revert(m[i]), 0);
            }
        }
        for (size_t i = 0; i < NF; i++) assert_int_equal(hs_material_commit(m[i]), 0);
        memcpy(c, t, ns * NF * sizeof(double));
    }
    return yielded;
}

static void check_law(hs_material *(*make_one)(void), double scale, double k0_slope)
{
    hs_material *m[NF], *proto = make_one();
    hs_fiber_law law;
    double one[MAXS], c[MAXS * NF];
    assert_int_equal(hs_material_fiber_law(proto, &law, one), 1);
    assert_false(law.rows);
    assert_true(law.state_n <= MAXS && law.save_n == hs_material_state_size(proto));
    for (size_t i = 0; i < NF; i++) {
        m[i] = make_one();
        memcpy(c + i * law.state_n, one, law.state_n * sizeof(double));
    }
    int yielded = drive(&law, scale, k0_slope, c, m, 0, STEPS / 2);
    for (size_t i = 0; i < NF; i++) { /* checkpoint from the arrays into new objects */
        double *st = c + i * law.state_n, back[MAXS];
        assert_int_equal(law.load(law.params, NULL, st), 0);
        hs_material_destroy(&m[i]);
        m[i] = make_one();
        assert_int_equal(hs_material_state_load(m[i], st), 0);
        assert_int_equal(hs_material_state_save(m[i], back), 0);
        assert_memory_equal(back, st, law.save_n * sizeof(double));
    }
    yielded += drive(&law, scale, k0_slope, c, m, STEPS / 2, STEPS);
    assert_true(yielded > STEPS);
    for (size_t i = 0; i < NF; i++) hs_material_destroy(&m[i]);
    hs_material_destroy(&proto);
}

static void test_steel01(void **state)
{
    (void)state;
    check_law(steel01, 3.0 * 50.0 / 29000.0, 29000.0);
    hs_material *m = steel01();
    hs_fiber_law law;
    double st[MAXS];
    assert_int_equal(hs_material_fiber_law(m, &law, st), 1);
    st[7] = 0.5;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    assert_int_equal(law.load(law.params, ctx, st), HS_EINPUT);
    assert_string_equal(hs_ctx_message(ctx),
                        "steel01: checkpoint state has loading flag 0.5 (must be -1, 0 or 1)");
    hs_ctx_destroy(&ctx);
    hs_material_destroy(&m);
}

static void test_concrete01(void **state)
{
    (void)state;
    check_law(concrete01, -0.004, 4000.0); /* towards compression: crushing, then cracks */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_steel01),
        cmocka_unit_test(test_concrete01),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
