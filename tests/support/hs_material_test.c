/* Helpers for the uniaxial material tests (hs_material_test.h). */
#include "hs_material_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hs_test_material_try(hs_ctx *ctx, const char *type, const char *spec, hs_material **out)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    char buf[1024], *save = NULL;
    snprintf(buf, sizeof buf, "%s", spec);
    for (char *k = strtok_r(buf, " ", &save); k; k = strtok_r(NULL, " ", &save)) {
        const char *v = strtok_r(NULL, " ", &save);
        assert_non_null(v);
        assert_int_equal(hs_options_set_num(o, k, strtod(v, NULL)), 0);
    }
    *out = NULL;
    const int rc = hs_material_create(ctx, type, o, out);
    hs_options_destroy(&o);
    return rc;
}

hs_material *hs_test_material(const char *type, const char *spec)
{
    hs_material *m = NULL;
    if (hs_test_material_try(NULL, type, spec, &m) == 0) return m;
    /* again with a context for the message (the material keeps its context) */
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    const int rc = hs_test_material_try(ctx, type, spec, &m);
    fprintf(stderr, "%s {%s}: %s\n", type, spec, hs_ctx_message(ctx));
    hs_material_destroy(&m);
    hs_ctx_destroy(&ctx);
    assert_int_equal(rc, 0);
    return NULL;
}

double hs_test_material_go(hs_material *m, double e)
{
    assert_int_equal(hs_material_set_trial(m, e, 0.0), 0);
    assert_int_equal(hs_material_commit(m), 0);
    return hs_material_stress(m);
}
