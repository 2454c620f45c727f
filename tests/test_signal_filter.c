/* OpenFresco's signal filters (include/hysim/signal_filter.h, src/lab/signal_filter.c) and their
 * place in an experimental link (hs_fe_link_def ctrl_filter, daq_filter; src/fe/fe_link.c),
 * against closed forms of OpenFresco's definitions (ESFErrorSimUndershoot::filtering,
 * ESFErrorSimRandomGauss::filtering, ECSimUniaxialMaterials, EETwoNodeLink::update):
 *  - undershoot e on a sine d_k = A sin(k w): y_k = d_k - e sign(d_k - d_{k-1}) (d_0 = 0), plus
 *    e where |d_k| < 1e-6, so y_0 = e at rest;
 *  - random Gauss (mean m, std s) on a constant c: the sample mean of y - c is m within 5
 *    standard errors s / sqrt(N), the sample standard deviation s within 5 of its standard
 *    errors s / sqrt(2 N); the same seed and stream repeat the sequence, another stream not;
 *  - an elastic link (k) whose control filters the displacement command with undershoot e, on a
 *    setup with displacement factor 2: its specimen takes 2 u - e going up, its force is
 *    k (2 u - e); the same trial again (moved by less than DBL_EPSILON) sends no new command, so
 *    the force stays; going down 2 u + e; ctrlDisp is the command u before the filter
 *    (hs_fe_link_command), the deformation the measured strain (2 u + e) / 2; a daq force
 *    undershoot gives + e at rest (its first measurement) and takes e off the force going up. */
#include "hs_test.h"

#include "hysim/signal_filter.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void test_undershoot_closed_form(void **state)
{
    (void)state;
    const double e = 0.01, A = 1.5, w = 0.07;
    hs_signal_filter f;
    hs_signal_filter_undershoot(&f, e);
    HS_ASSERT_NEAR(hs_signal_filter_apply(&f, 0.0), e, 0.0); /* at rest: + e */
    double prev = 0.0, worst = 0.0;
    for (int k = 1; k < 400; k++) {
        const double d = A * sin(k * w);
        const double s = d > prev ? 1.0 : d < prev ? -1.0 : 0.0;
        const double y = d - e * s + (fabs(d) < 1e-6 ? e : 0.0);
        const double got = hs_signal_filter_apply(&f, d);
        if (fabs(got - y) > worst) worst = fabs(got - y);
        HS_ASSERT_NEAR(got, y, 1e-15);
        prev = d;
    }
    /* a repeated value: no direction, no error */
    HS_ASSERT_NEAR(hs_signal_filter_apply(&f, prev), prev, 0.0);
    printf("undershoot 0.01 on a sine of 1.5: worst difference from the closed form %.3g\n", worst);
}

static void test_random_gauss_statistics(void **state)
{
    (void)state;
    const double m = 0.002, s = 0.01, c = 3.0;
    const int N = 200000;
    hs_signal_filter f, g, h;
    hs_signal_filter_random_gauss(&f, m, s, 7, 3);
    hs_signal_filter_random_gauss(&g, m, s, 7, 3);
    hs_signal_filter_random_gauss(&h, m, s, 7, 4);
    double sum = 0.0, sum2 = 0.0;
    int same = 1, other = 0;
    for (int k = 0; k < N; k++) {
        const double y = hs_signal_filter_apply(&f, c) - c;
        sum += y;
        sum2 += y * y;
        if (hs_signal_filter_apply(&g, c) - c != y) same = 0;
        if (hs_signal_filter_apply(&h, c) - c != y) other++;
    }
    const double mean = sum / N, sd = sqrt((sum2 - N * mean * mean) / (N - 1));
    printf("random Gauss (0.002, 0.01), %d draws: mean %.6g (se %.2g), std %.6g (se %.2g)\n", N,
           mean, s / sqrt(N), sd, s / sqrt(2.0 * N));
    HS_ASSERT_NEAR(mean, m, 5.0 * s / sqrt(N));
    HS_ASSERT_NEAR(sd, s, 5.0 * s / sqrt(2.0 * N));
    assert_true(same);
    assert_true(other > N - 10);
}

typedef struct model {
    hs_ctx *ctx;
    hs_fe *fe;
    hs_options *o;
    int q; /* node 2's x DOF */
} model;

static const double K = 2.8, E = 0.01;

/* a link from fixed node 1 to node 2 along x, elastic K, displacement factor 2, the ctrl disp
 * filter undershoot E (and the daq force one when daq) */
static void build(model *m, int daq)
{
    memset(m, 0, sizeof *m);
    hs_ctx_create(&m->ctx);
    assert_int_equal(hs_fe_create(m->ctx, &m->fe), 0);
    assert_int_equal(hs_fe_set_dimension(m->fe, 2, 3), 0);
    const int fix[3] = {1, 1, 1}, roll[3] = {0, 1, 1};
    const double one[3] = {1, 1, 1};
    assert_true(hs_fe_add_node(m->fe, 1, 0.0, 0.0) >= 0);
    assert_true(hs_fe_add_node(m->fe, 2, 100.0, 0.0) >= 0);
    assert_int_equal(hs_fe_fix(m->fe, 1, fix), 0);
    assert_int_equal(hs_fe_fix(m->fe, 2, roll), 0);
    assert_int_equal(hs_fe_add_mass(m->fe, 2, one), 0);
    assert_int_equal(hs_options_create(&m->o), 0);
    hs_options_set_num(m->o, "k", K);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    def.ndir = 1;
    def.dirs[0] = HS_FE_UX;
    def.mat_type[0] = "elastic";
    def.mat_opts[0] = m->o;
    def.disp_factor[0] = 2.0;
    hs_signal_filter_undershoot(&def.ctrl_filter[HS_SF_DISP], E);
    if (daq) hs_signal_filter_undershoot(&def.daq_filter[HS_SF_FORCE], E);
    assert_true(hs_fe_add_link(m->fe, "exp", 1, 2, &def) >= 0);
    assert_int_equal(hs_fe_finalize(m->fe), 0);
    m->q = hs_fe_dof(m->fe, 2, HS_FE_UX);
    assert_true(m->q >= 0);
}

static void destroy(model *m)
{
    hs_options_destroy(&m->o);
    hs_fe_destroy(&m->fe);
    hs_ctx_destroy(&m->ctx);
}

/* node 2's force at its displacement u */
static double force(model *m, double u)
{
    double d[3] = {0}, r[3] = {0};
    d[m->q] = u;
    assert_int_equal(hs_fe_restore(m->fe, d, NULL, r, NULL, NULL), 0);
    return r[m->q];
}

static void test_link_ctrl_undershoot(void **state)
{
    (void)state;
    model m;
    build(&m, 0);
    const double u1 = 0.3, u2 = 0.2;
    HS_ASSERT_NEAR(force(&m, u1), K * (2 * u1 - E), 1e-14);
    /* the same trial (moved by less than DBL_EPSILON): no new command, the force stays */
    HS_ASSERT_NEAR(force(&m, u1 + 1e-17), K * (2 * u1 - E), 1e-14);
    assert_int_equal(hs_fe_commit(m.fe), 0);
    HS_ASSERT_NEAR(force(&m, u2), K * (2 * u2 + E), 1e-14);
    assert_int_equal(hs_fe_commit(m.fe), 0);
    double cmd = 0.0, db = 0.0, qb = 0.0;
    assert_int_equal(hs_fe_link_command(m.fe, 0, &cmd), 1);
    assert_int_equal(hs_fe_element_response(m.fe, 0, HS_FE_DEFORMATION, &db), 0);
    assert_int_equal(hs_fe_element_response(m.fe, 0, HS_FE_BASIC_FORCE, &qb), 0);
    HS_ASSERT_NEAR(cmd, u2, 1e-15);
    HS_ASSERT_NEAR(db, (2 * u2 + E) / 2, 1e-15);
    HS_ASSERT_NEAR(qb, K * (2 * u2 + E), 1e-14);
    printf("link, undershoot 0.01 on the command 2 u: force %.12g at u 0.3 up, %.12g at 0.2 down\n",
           K * (2 * u1 - E), qb);
    destroy(&m);
}

static void test_link_daq_force_undershoot(void **state)
{
    (void)state;
    model m;
    build(&m, 1);
    /* asked before any state (a record before the analysis): the measurement at rest, + E, the
     * filter untouched */
    double q0 = 0.0;
    assert_int_equal(hs_fe_element_response(m.fe, 0, HS_FE_BASIC_FORCE, &q0), 0);
    HS_ASSERT_NEAR(q0, E, 1e-15);
    /* at rest, the first measurement: 0 through the daq undershoot gives + E */
    HS_ASSERT_NEAR(force(&m, 0.0), E, 1e-15);
    const double u1 = 0.3, f1 = K * (2 * u1 - E);
    HS_ASSERT_NEAR(force(&m, u1), f1 - E, 1e-14); /* the measured force rose: - E */
    HS_ASSERT_NEAR(force(&m, u1), f1 - E, 1e-14); /* no new command, no new measurement */
    destroy(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_undershoot_closed_form),
        cmocka_unit_test(test_random_gauss_statistics),
        cmocka_unit_test(test_link_ctrl_undershoot),
        cmocka_unit_test(test_link_daq_force_undershoot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
