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
 *  - the recorded basic deformation and force are the shear specimen's (dy and S);
 *  - at nodes moved after the commit without an update, the tangent (test_moved_tangent);
 *  - the basic velocities and accelerations of OpenFresco's recorders (test_basic_accelerations).
 */
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

static double maxabs(const double *a, size_t n)
{
    double m = 0.0;
    for (size_t i = 0; i < n; i++) m = fmax(m, fabs(a[i]));
    return m;
}

/* B_A^T kbA B_A at element displacements u (node i then j: x, y, rz), column-major 6 x 6: B_A's
 * rows r, -z / Ln + e_3, -z / Ln + e_6 of the deformed chord, kbA -initStif in system A */
static void initial_through_chord(const double u[6], double K[36])
{
    const double dx = L + u[3] - u[0], dy = u[4] - u[1], Ln = hypot(dx, dy);
    const double c = dx / Ln, s = dy / Ln;
    const double rr[6] = {-c, -s, 0, c, s, 0}, z[6] = {s, -c, 0, -s, c, 0};
    double BA[3][6];
    for (int i = 0; i < 6; i++) BA[0][i] = rr[i], BA[1][i] = BA[2][i] = -z[i] / Ln;
    BA[1][2] += 1.0, BA[2][5] += 1.0;
    /* B = [dA0, -L dA1, dA2 - dA1]: kbA = T^T kb T, its couplings to the axial left out */
    const double kA[3][3] = {{KB[0], 0, 0},
                             {0, L * L * KB[4] + L * (KB[5] + KB[7]) + KB[8], -L * KB[7] - KB[8]},
                             {0, -L * KB[5] - KB[8], KB[8]}};
    for (int j = 0; j < 6; j++)
        for (int i = 0; i < 6; i++) {
            double v = 0.0;
            for (int p = 0; p < 3; p++)
                for (int q = 0; q < 3; q++) v += BA[p][i] * kA[p][q] * BA[q][j];
            K[j * 6 + i] = v;
        }
}

/* Nodes moved after the commit without an update (hs_fe_move_nodes, hs_fe_moved_tangent:
 * OpenSees' NewmarkHSFixedNumIter::commit, then the next step's first tangent): the element keeps
 * its last basic forces qA, and its tangent at the moved nodes is B_A^T kbA B_A there plus the
 * geometric stiffness of qA, the derivative of the moved force B_A^T qA at fixed qA (central
 * differences of hs_fe_move_nodes' force). */
static void test_moved_tangent(void **state)
{
    (void)state;
    model m;
    build(&m, HS_FE_COROTATIONAL, 0, 2.8);
    int q[6];
    for (int i = 0; i < 6; i++) q[i] = hs_fe_dof(m.fe, i < 3 ? 1 : 2, i % 3);
    /* the last update at uc (a 24 % drift), the nodes then moved to um */
    const double uc[6] = {0.3, -0.2, 0.05, -3.0, 12.0, 0.2},
                 um[6] = {0.35, -0.22, 0.07, -3.6, 13.1, 0.26};
    double dc[6], dm[6], r[6] = {0}, dr[6], Kc[36] = {0}, K[36];
    for (int i = 0; i < 6; i++) dc[q[i]] = uc[i], dm[q[i]] = um[i];
    assert_int_equal(hs_fe_restore(m.fe, dc, NULL, r, Kc, NULL), 0);
    assert_int_equal(hs_fe_commit(m.fe), 0);
    assert_int_equal(hs_fe_move_nodes(m.fe, dm, dr), 0);
    memcpy(K, Kc, sizeof K);
    assert_int_equal(hs_fe_moved_tangent(m.fe, K, 0), 0);
    double ref[36], change[36], err[36];
    initial_through_chord(um, ref);
    const double h = 1e-5;
    for (int j = 0; j < 6; j++) {
        double d[6], fp[6], fm[6];
        memcpy(d, dm, sizeof d);
        d[q[j]] = dm[q[j]] + h;
        assert_int_equal(hs_fe_move_nodes(m.fe, d, fp), 0);
        d[q[j]] = dm[q[j]] - h;
        assert_int_equal(hs_fe_move_nodes(m.fe, d, fm), 0);
        for (int i = 0; i < 6; i++) ref[j * 6 + i] += (fp[q[i]] - fm[q[i]]) / (2.0 * h);
    }
    for (int j = 0; j < 6; j++)
        for (int i = 0; i < 6; i++) {
            const int a = j * 6 + i, b = q[j] * 6 + q[i];
            change[a] = K[b] - Kc[b];
            err[a] = K[b] - ref[a];
        }
    printf("Corotational, nodes moved: the tangent changes by %.4g (of %.4g) from the last update; "
           "against the closed form and the differences: %.3g\n",
           maxabs(change, 36), maxabs(ref, 36), maxabs(err, 36));
    assert_true(maxabs(change, 36) > 1.0);
    assert_true(maxabs(err, 36) <= 1e-9 * maxabs(ref, 36));
    destroy(&m);
}

/* EEBeamColumn2d's basic accelerations (hs_fe_link_rates' ab: CorotCrdTransf2d's or
 * LinearCrdTransf2d's getBasicTrialAccel through B's map, as its update() forms abCtrl) are the
 * second time derivative of its basic deformations db along the motion u(t) = u0 + v0 t + a0 t^2
 * / 2 of both nodes (central differences of the db each restore leaves at h and 2h,
 * extrapolated), and vb the first. */
static void test_basic_accelerations(void **state)
{
    (void)state;
    const hs_fe_transf kinds[2] = {HS_FE_LINEAR, HS_FE_COROTATIONAL};
    const double u0[6] = {0.3, -0.2, 0.05, -3.0, 12.0, 0.2},
                 v0[6] = {1.5, -0.8, 0.3, -2.0, 4.0, -0.5},
                 a0[6] = {20.0, 15.0, -3.0, -40.0, 60.0, 8.0};
    for (int t = 0; t < 2; t++) {
        model m;
        build(&m, kinds[t], 0, 2.8);
        int q[6];
        for (int i = 0; i < 6; i++) q[i] = hs_fe_dof(m.fe, i < 3 ? 1 : 2, i % 3);
        const double h = 1e-3;
        double db[5][3], b[9];
        int driven[3];
        for (int k = 0; k < 5; k++) { /* t = -2h .. 2h */
            const double tk = (k - 2) * h;
            double d[6], r[6] = {0};
            for (int i = 0; i < 6; i++) d[q[i]] = u0[i] + v0[i] * tk + 0.5 * a0[i] * tk * tk;
            assert_int_equal(hs_fe_restore(m.fe, d, NULL, r, NULL, NULL), 0);
            assert_int_equal(hs_fe_exp_beam_basic(m.fe, 0, b, driven), 0);
            memcpy(db[k], b, sizeof db[k]);
        }
        double d[6], v[6], a[6], r[6] = {0}, vb[3], ab[3], rate[3];
        for (int i = 0; i < 6; i++) d[q[i]] = u0[i], v[q[i]] = v0[i], a[q[i]] = a0[i];
        assert_int_equal(hs_fe_restore(m.fe, d, v, r, NULL, NULL), 0);
        assert_int_equal(hs_fe_link_rates(m.fe, 0, a, vb, ab, rate), 3);
        for (int p = 0; p < 3; p++) {
            /* central differences at h and 2h, extrapolated (Richardson: error h^4) */
            const double v1 = (db[3][p] - db[1][p]) / (2.0 * h),
                         v2 = (db[4][p] - db[0][p]) / (4.0 * h),
                         a1 = (db[3][p] - 2.0 * db[2][p] + db[1][p]) / (h * h),
                         a2 = (db[4][p] - 2.0 * db[2][p] + db[0][p]) / (4.0 * h * h);
            const double fv = (4.0 * v1 - v2) / 3.0, fa = (4.0 * a1 - a2) / 3.0;
            printf("transformation %d, B %d: vb %.10g (differences %.10g), ab %.10g (%.10g)\n", t,
                   p, vb[p], fv, ab[p], fa);
            assert_true(fabs(vb[p] - fv) <= 1e-9 * (fabs(fv) + 1.0));
            assert_true(fabs(ab[p] - fa) <= 1e-6 * (fabs(fa) + 1.0));
        }
        /* the shear's specimen (Elastic, no rate) on B's DOF 1: its rate is vb there, 0 else */
        assert_true(fabs(rate[1] - vb[1]) <= 1e-14 * fabs(vb[1]));
        assert_true(rate[0] == 0.0 && rate[2] == 0.0);
        destroy(&m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear_is_kb_db),
        cmocka_unit_test(test_elastic_axial_force),
        cmocka_unit_test(test_moved_tangent),
        cmocka_unit_test(test_basic_accelerations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
