/* A link whose forces come from a specimen elsewhere (hs_fe_link_set_specimen, the frame model's
 * side of an OpenFresco script's networked site): the specimen here is a closed form, q_k =
 * k_k ub_k^3 + c_k vb_k (a cubic spring and a dashpot per direction), so the link's resisting
 * force at any displacement is B^T q with B the skewed link's rows (axial [-c -s 0 c s 0],
 * shear [s -c -sd L -s c -(1-sd) L]); the specimen sees exactly B d and B v; the tangent is the
 * given stiffness Bk^T kb Bk whatever the state; the initial state asks nothing; a commit
 * reaches the specimen once; a specimen's error stops the restore with its message. */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct spec_state {
    int trials, commits, fail;
    double ub[2], vb[2], t;
} spec_state;

static const double KS[2] = {3.0e3, 7.0e2}, CS[2] = {11.0, 5.0};

static int cubic_trial(void *user, int id, int n, const double *ub, const double *vb, double t,
                       double *q)
{
    spec_state *s = user;
    assert_int_equal(id, 42);
    assert_int_equal(n, 2);
    s->trials++;
    if (s->fail) return HS_ENET;
    for (int k = 0; k < n; k++) {
        s->ub[k] = ub[k];
        s->vb[k] = vb[k];
        q[k] = KS[k] * ub[k] * ub[k] * ub[k] + CS[k] * vb[k];
    }
    s->t = t;
    return 0;
}

static int count_commit(void *user, int id)
{
    (void)id;
    ((spec_state *)user)->commits++;
    return 0;
}

static void test_specimen_forces(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_fe *fe = NULL;
    const double m[3] = {1.0, 1.0, 1.0};
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_true(hs_fe_add_node(fe, 1, 0.0, 0.0) >= 0);
    assert_true(hs_fe_add_node(fe, 2, 3.0, 4.0) >= 0);
    assert_int_equal(hs_fe_add_mass(fe, 1, m), 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, m), 0);
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "k", 0.0); /* a stand-in: never driven */
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    def.ndir = 2;
    def.dirs[0] = HS_FE_UX;
    def.dirs[1] = HS_FE_UY;
    def.mat_type[0] = def.mat_type[1] = "elastic";
    def.mat_opts[0] = def.mat_opts[1] = o;
    def.shear_dist = 0.3;
    def.nk = 2; /* the given stiffness over the same directions */
    def.kdirs[0] = HS_FE_UX;
    def.kdirs[1] = HS_FE_UY;
    def.k_shear_dist = 0.3;
    def.kb[0] = 100.0, def.kb[1] = 0.0, def.kb[2] = 0.0, def.kb[3] = 20.0;
    def.k_tangent = 0; /* the specimen makes it the tangent anyway */
    const int e = hs_fe_add_link(fe, "spec", 1, 2, &def);
    assert_true(e >= 0);
    assert_int_equal(hs_fe_finalize(fe), 0);
    spec_state s = {0};
    const hs_fe_specimen sp = {.user = &s, .id = 42, .trial = cubic_trial, .commit = count_commit};
    assert_int_equal(hs_fe_link_set_specimen(fe, e, &sp), 0);
    const int n = hs_fe_ndof(fe);
    assert_int_equal(n, 6);
    const double c = 0.6, sn = 0.8, L = 5.0, sd = 0.3;
    const double B[2][6] = {{-c, -sn, 0.0, c, sn, 0.0}, {sn, -c, -sd * L, -sn, c, -(1.0 - sd) * L}};
    double K0[36] = {0}, r[6] = {0}, Kt[36] = {0}; /* restore adds into r */
    assert_int_equal(hs_fe_initial_stiffness(fe, K0), 0);
    assert_int_equal(s.trials, 0); /* the initial state asks nothing */
    const double d[6] = {0.01, -0.02, 0.003, 0.05, 0.04, -0.01};
    const double v[6] = {0.1, 0.2, -0.3, 0.4, -0.5, 0.6};
    hs_fe_set_clock(fe, 1.25, 0.01);
    assert_int_equal(hs_fe_restore(fe, d, v, r, Kt, NULL), 0);
    assert_int_equal(s.trials, 1);
    HS_ASSERT_NEAR(s.t, 1.25, 0.0);
    double q[2];
    for (int k = 0; k < 2; k++) {
        double ub = 0.0, vb = 0.0;
        for (int i = 0; i < 6; i++) ub += B[k][i] * d[i], vb += B[k][i] * v[i];
        HS_ASSERT_NEAR(s.ub[k], ub, 1e-15);
        HS_ASSERT_NEAR(s.vb[k], vb, 1e-15);
        q[k] = KS[k] * ub * ub * ub + CS[k] * vb;
    }
    for (int i = 0; i < 6; i++) {
        HS_ASSERT_NEAR(r[i], B[0][i] * q[0] + B[1][i] * q[1], 1e-12);
        for (int j = 0; j < 6; j++) {
            const double kij = 100.0 * B[0][i] * B[0][j] + 20.0 * B[1][i] * B[1][j];
            HS_ASSERT_NEAR(Kt[j * 6 + i], kij, 1e-12);
            HS_ASSERT_NEAR(K0[j * 6 + i], kij, 1e-12);
        }
    }
    assert_int_equal(hs_fe_commit(fe), 0);
    assert_int_equal(s.commits, 1);
    double qb[2];
    assert_int_equal(hs_fe_element_response(fe, e, HS_FE_BASIC_FORCE, qb), 0);
    HS_ASSERT_NEAR(qb[0], q[0], 1e-15);
    HS_ASSERT_NEAR(qb[1], q[1], 1e-15);
    /* the same deformations again: no new trial (OpenFresco's elements send none), the last
     * forces stay */
    memset(r, 0, sizeof r);
    assert_int_equal(hs_fe_restore(fe, d, v, r, Kt, NULL), 0);
    assert_int_equal(s.trials, 1);
    for (int i = 0; i < 6; i++) HS_ASSERT_NEAR(r[i], B[0][i] * q[0] + B[1][i] * q[1], 1e-12);
    s.fail = 1;
    const double moved[6] = {0.01, -0.02, 0.003, 0.05, 0.04, -0.011};
    assert_int_not_equal(hs_fe_restore(fe, moved, v, r, Kt, NULL), 0);
    hs_options_destroy(&o);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

/* A link without a given stiffness, or through a setup, takes no specimen. */
static void test_specimen_refused(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    const double m[3] = {1.0, 1.0, 1.0};
    assert_true(hs_fe_add_node(fe, 1, 0.0, 0.0) >= 0);
    assert_true(hs_fe_add_node(fe, 2, 1.0, 0.0) >= 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, m), 0);
    const int fix[3] = {1, 1, 1};
    assert_int_equal(hs_fe_fix(fe, 1, fix), 0);
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "k", 1.0);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    def.ndir = 1;
    def.dirs[0] = HS_FE_UX;
    def.mat_type[0] = "elastic";
    def.mat_opts[0] = o;
    const int e = hs_fe_add_link(fe, "plain", 1, 2, &def);
    assert_true(e >= 0);
    assert_int_equal(hs_fe_finalize(fe), 0);
    spec_state s = {0};
    const hs_fe_specimen sp = {.user = &s, .id = 42, .trial = cubic_trial};
    assert_int_equal(hs_fe_link_set_specimen(fe, e, &sp), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "needs a link with its given stiffness"));
    assert_int_equal(hs_fe_link_set_specimen(fe, 7, &sp), HS_EINVAL);
    hs_options_destroy(&o);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specimen_forces),
        cmocka_unit_test(test_specimen_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
