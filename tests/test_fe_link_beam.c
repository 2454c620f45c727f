/* OpenFresco's experimental beam-column (EEBeamColumn2d) as hysim's link (hs_fe_link_def
 * exp_beam, src/fe/fe_link_beam.c), against closed forms computed here. A horizontal cantilever
 * of length L from a fixed node i; node j moves by (dx, dy, theta):
 *  - Linear with a specimen on each of B's DOFs whose stiffness is -initStif's diagonal: the
 *    force at j is (k0 dx, k1 dy, k2 theta) (B's deformations are node j's displacements) and
 *    node j's block of the tangent is -initStif;
 *  - the shear's specimen only, at a large displacement: EEBeamColumn2d's elastic axial force
 *    along the deformed chord of B, qa = k00 (|(L + dx, dy)| - L) at the angle a = atan2(dy,
 *    L + dx), so the force at j is (cos(a) qa, S(dy) + sin(a) qa, 0) with Linear, PDelta and
 *    Corotational alike (with node i at rest, B's deformations are node j's displacements);
 *    node i's moment is -L F_y under Linear and PDelta (small displacements), -((L + dx) F_y -
 *    dy F_x) under Corotational (equilibrium in the deformed position), and PDelta's lateral
 *    force adds N dy / L with N = the axial force of system A;
 *  - the recorded basic deformation and force are the shear specimen's (dy and S). */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct model {
    hs_ctx *ctx;
    hs_fe *fe;
    hs_options *o[3];
    int q[3];
} model;

static const double L = 50.0, KB[9] = {1300.0, 0, 0, 0, 11.2, -280.0, 0, -280.0, 9333.3};

static hs_options *elastic(double k)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "k", k);
    return o;
}

/* directions ndir of {x, y, rz} (all: elastic of kb's diagonal; one: y, elastic ks) */
static void build(model *m, hs_fe_transf transf, int all, double ks)
{
    memset(m, 0, sizeof *m);
    hs_ctx_create(&m->ctx);
    assert_int_equal(hs_fe_create(m->ctx, &m->fe), 0);
    assert_int_equal(hs_fe_set_dimension(m->fe, 2, 3), 0);
    const double xi[2] = {0, 0}, xj[2] = {L, 0}, one[3] = {1, 1, 1};
    assert_true(hs_fe_add_node_crd(m->fe, 1, xi) >= 0);
    assert_true(hs_fe_add_node_crd(m->fe, 2, xj) >= 0);
    assert_int_equal(hs_fe_add_mass(m->fe, 1, one), 0);
    assert_int_equal(hs_fe_add_mass(m->fe, 2, one), 0);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    def.ndir = all ? 3 : 1;
    for (int d = 0; d < def.ndir; d++) {
        const int dir = all ? d : HS_FE_UY;
        m->o[d] = elastic(all ? KB[d * 4] : ks);
        def.dirs[d] = dir;
        def.mat_type[d] = "elastic";
        def.mat_opts[d] = m->o[d];
    }
    def.shear_dist = 1.0;
    def.nk = 3;
    def.kdirs[0] = HS_FE_UX, def.kdirs[1] = HS_FE_UY, def.kdirs[2] = HS_FE_RZ;
    def.k_shear_dist = 1.0;
    memcpy(def.kb, KB, sizeof KB);
    def.k_tangent = 1;
    def.exp_beam = 1;
    def.beam_transf = transf;
    const int rc = hs_fe_add_link(m->fe, "col", 1, 2, &def);
    if (rc < 0) fprintf(stderr, "%s\n", hs_ctx_message(m->ctx));
    assert_true(rc >= 0);
    assert_int_equal(hs_fe_finalize(m->fe), 0);
}

static void destroy(model *m)
{
    for (int d = 0; d < 3; d++) hs_options_destroy(&m->o[d]);
    hs_fe_destroy(&m->fe);
    hs_ctx_destroy(&m->ctx);
}

/* element force (node i then j: x, y, rz) at node j's displacement uj (node i at rest) */
static void force(model *m, const double uj[3], double f[6], double K[36])
{
    double d[6] = {0}, r[6] = {0}, Kt[36] = {0};
    int q[6];
    for (int i = 0; i < 6; i++) q[i] = hs_fe_dof(m->fe, i < 3 ? 1 : 2, i % 3);
    for (int i = 0; i < 3; i++) d[q[3 + i]] = uj[i];
    assert_int_equal(hs_fe_restore(m->fe, d, NULL, r, K ? Kt : NULL, NULL), 0);
    for (int i = 0; i < 6; i++) f[i] = r[q[i]];
    if (K)
        for (int j = 0; j < 6; j++)
            for (int i = 0; i < 6; i++) K[j * 6 + i] = Kt[q[j] * 6 + q[i]];
}

static void test_linear_is_kb_db(void **state)
{
    (void)state;
    model m;
    build(&m, HS_FE_LINEAR, 1, 0.0);
    const double u[3] = {0.02, 1.5, -0.01};
    double f[6], K[36];
    force(&m, u, f, K);
    HS_ASSERT_NEAR(f[3], KB[0] * u[0], 1e-12 * KB[0]);
    HS_ASSERT_NEAR(f[4], KB[4] * u[1], 1e-12 * KB[0]);
    HS_ASSERT_NEAR(f[5], KB[8] * u[2], 1e-12 * KB[8]);
    /* node j's block of the tangent is -initStif itself (B's DOFs are node j's here) */
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            HS_ASSERT_NEAR(K[(3 + j) * 6 + 3 + i], KB[j * 3 + i], 1e-12 * KB[8]);
    printf("Linear, specimens on every DOF: F_j = (%.6g, %.6g, %.6g), K_jj = -initStif\n", f[3],
           f[4], f[5]);
    destroy(&m);
}

static void test_elastic_axial_force(void **state)
{
    (void)state;
    const double ks = 2.8, u[3] = {-3.0, 12.0, 0.2};
    const double r = hypot(L + u[0], u[1]), a = atan2(u[1], L + u[0]), qa = KB[0] * (r - L);
    const double Fx = cos(a) * qa, Fy = ks * u[1] + sin(a) * qa;
    const hs_fe_transf kinds[3] = {HS_FE_LINEAR, HS_FE_PDELTA, HS_FE_COROTATIONAL};
    for (int t = 0; t < 3; t++) {
        model m;
        build(&m, kinds[t], 0, ks);
        double f[6];
        force(&m, u, f, NULL);
        /* system A's axial force (PDelta's N): Linear, PDelta qA0 = qb0 */
        const double pd = kinds[t] == HS_FE_PDELTA ? Fx * u[1] / L : 0.0;
        const double Mi = kinds[t] == HS_FE_COROTATIONAL ? -((L + u[0]) * Fy - u[1] * Fx) : -L * Fy;
        printf("transformation %d: F_j = (%.9g, %.9g, %.3g), closed form (%.9g, %.9g, 0); M_i "
               "%.9g (closed form %.9g)\n",
               t, f[3], f[4], f[5], Fx, Fy + pd, f[2], Mi);
        HS_ASSERT_NEAR(f[3], Fx, 1e-11 * fabs(Fx));
        HS_ASSERT_NEAR(f[4], Fy + pd, 1e-11 * fabs(Fy));
        HS_ASSERT_NEAR(f[5], 0.0, 1e-11 * fabs(Fy) * L);
        HS_ASSERT_NEAR(f[0], -f[3], 1e-11 * fabs(Fx));
        HS_ASSERT_NEAR(f[1], -f[4], 1e-11 * fabs(Fy));
        HS_ASSERT_NEAR(f[2], Mi, 1e-11 * fabs(Mi));
        assert_int_equal(hs_fe_commit(m.fe), 0);
        double db, qb;
        assert_int_equal(hs_fe_element_response(m.fe, 0, HS_FE_DEFORMATION, &db), 0);
        assert_int_equal(hs_fe_element_response(m.fe, 0, HS_FE_BASIC_FORCE, &qb), 0);
        HS_ASSERT_NEAR(db, u[1], 1e-12 * u[1]);
        HS_ASSERT_NEAR(qb, ks * u[1], 1e-12 * ks * u[1]);
        destroy(&m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear_is_kb_db),
        cmocka_unit_test(test_elastic_axial_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
