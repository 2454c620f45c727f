/* ratchet (OpenSees Ratchet) by hand: the stress E (e - engage) past the engagement, 0 below it;
 * the engagement moves down by whole teeth (RatType 1) or to e + freeTravel (RatType 2) when a
 * committed step pushes back beyond engage - freeTravel, and only at commit. */
#include "hs_material_test.h"

#include <math.h>
#include <stdio.h>

static hs_material *make(double E, double travel, double travel0, double type)
{
    char spec[160];
    snprintf(spec, sizeof spec, "E %.17g freeTravel %.17g freeTravelInitial %.17g RatType %g", E,
             travel, travel0, type);
    return hs_test_material("ratchet", spec);
}

#define go hs_test_material_go

static void test_teeth(void **state)
{
    (void)state;
    hs_material *m = make(1000.0, 0.0015, 0.0005, 1.0);
    assert_true(hs_material_initial_tangent(m) == 0.0); /* 0 is below the first engagement */
    HS_ASSERT_NEAR(go(m, 0.002), 1.5, 1e-13);
    HS_ASSERT_NEAR(hs_material_tangent(m), 1000.0, 0.0);
    /* back to exactly one tooth below: engage 0.0005 -> -0.001 */
    assert_true(go(m, -0.001) == 0.0);
    HS_ASSERT_NEAR(go(m, 0.0), 1.0, 1e-13);
    /* a trial far below that is not committed moves nothing */
    assert_int_equal(hs_material_set_trial(m, -0.05, 0.0), 0);
    assert_int_equal(hs_material_revert(m), 0);
    HS_ASSERT_NEAR(go(m, 0.0005), 1.5, 1e-13);
    /* -0.0041: two more teeth (-0.0025, -0.004), not a third (-0.0055) */
    assert_true(go(m, -0.0041) == 0.0);
    assert_true(hs_material_tangent(m) == 0.0);
    HS_ASSERT_NEAR(go(m, -0.0035), 0.5, 1e-13);
    double st[8];
    assert_int_equal(hs_material_state_size(m), 5);
    assert_int_equal(hs_material_state_save(m, st), 0);
    HS_ASSERT_NEAR(st[3], -0.004, 1e-15);
    assert_true(st[4] == 3.0); /* teeth */
    hs_material_destroy(&m);
}

static void test_continuous(void **state)
{
    (void)state;
    hs_material *m = make(1.0e6, 0.004, 0.0, 2.0);
    assert_true(hs_material_initial_tangent(m) == 1.0e6); /* engaged at 0 */
    assert_true(go(m, -0.005) == 0.0);                    /* engage -> -0.001 */
    HS_ASSERT_NEAR(go(m, 0.0), 1000.0, 1e-9);
    assert_true(go(m, -0.002) == 0.0);  /* not beyond engage - travel = -0.005 */
    assert_true(go(m, -0.0045) == 0.0); /* nor this */
    HS_ASSERT_NEAR(go(m, -0.0005), 500.0, 1e-9);
    assert_true(go(m, -0.006) == 0.0); /* beyond: engage -> -0.002 */
    HS_ASSERT_NEAR(go(m, -0.001), 1000.0, 1e-9);
    /* a step that grows does not ratchet even below engage - travel */
    hs_material *n = make(1.0e6, 0.004, 0.0, 2.0);
    go(n, -0.01); /* engage -0.006 */
    go(n, -0.02); /* engage -0.016 */
    go(n, -0.019);
    HS_ASSERT_NEAR(go(n, -0.015), 1000.0, 1e-9);
    hs_material_destroy(&n);
    hs_material_destroy(&m);
}

static void test_validation(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_material *m = NULL;
    assert_int_equal(hs_test_material_try(ctx, "ratchet",
                                          "E 1 freeTravel 0.1 freeTravelInitial 0 RatType 3", &m),
                     HS_EINPUT);
    assert_string_equal(hs_ctx_message(ctx),
                        "ratchet: RatType must be 1 (by whole teeth) or 2 (continuous) (got 3)");
    assert_int_equal(
        hs_test_material_try(ctx, "ratchet", "E 1 freeTravel 0 freeTravelInitial 0 RatType 1", &m),
        HS_EINPUT);
    assert_string_equal(hs_ctx_message(ctx), "ratchet: freeTravel must be > 0 (got 0)");
    assert_null(m);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_teeth),
        cmocka_unit_test(test_continuous),
        cmocka_unit_test(test_validation),
    };
    return cmocka_run_group_tests_name("materials_ratchet", tests, NULL, NULL);
}
