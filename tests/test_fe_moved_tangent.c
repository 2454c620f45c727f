/* The tangent at nodes moved without an element update (hs_fe_moved_tangent, src/fe/
 * fe_move_nodes.c): OpenSees' NewmarkHSFixedNumIter::commit moves the nodes, and the next step's
 * first Newton tangent is formed after the unbalance that updated the transformations of the
 * elastic beams and of OpenFresco's EEBeamColumn2d there.
 * Elastic beams (Corotational, PDelta, Linear) hold no state: their tangent at the moved nodes is
 * the one a restore there assembles, dense and sparse. (The experimental beam-column's:
 * tests/test_fe_link_beam.c.) hs_fe_node_trial keeps the last restore's nodes through the move. */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { N = 12 }; /* 4 nodes x 3 DOFs, every one with mass (no condensed DOF) */

static double maxabs(const double *a, size_t n)
{
    double m = 0.0;
    for (size_t i = 0; i < n; i++) m = fmax(m, fabs(a[i]));
    return m;
}

/* A portal frame of elastic beams on pinned bases: the columns Corotational and PDelta, the
 * girder Linear; every free DOF carries mass. */
static hs_fe *portal(hs_ctx *ctx)
{
    hs_fe *fe = NULL;
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 2, 3), 0);
    const double x[4][2] = {{0, 0}, {100, 0}, {0, 50}, {100, 50}}, m[3] = {0.01, 0.01, 1.0};
    const int pin[3] = {1, 1, 0};
    for (int i = 0; i < 4; i++) {
        assert_true(hs_fe_add_node_crd(fe, i + 1, x[i]) >= 0);
        assert_int_equal(hs_fe_add_mass(fe, i + 1, m), 0);
    }
    assert_int_equal(hs_fe_fix(fe, 1, pin), 0);
    assert_int_equal(hs_fe_fix(fe, 2, pin), 0);
    assert_true(hs_fe_add_beam(fe, "left", 1, 3, 29000, 3.55, 22.1, HS_FE_COROTATIONAL, 0) >= 0);
    assert_true(hs_fe_add_beam(fe, "right", 2, 4, 29000, 3.55, 22.1, HS_FE_PDELTA, 0) >= 0);
    assert_true(hs_fe_add_beam(fe, "girder", 3, 4, 29000, 3.55, 22.1, HS_FE_LINEAR, 0) >= 0);
    assert_int_equal(hs_fe_finalize(fe), 0);
    return fe;
}

static void displacements(const hs_fe *fe, int n, double drift, double *d)
{
    memset(d, 0, (size_t)n * sizeof *d);
    d[hs_fe_dof(fe, 1, 2)] = 0.08 * drift;
    d[hs_fe_dof(fe, 2, 2)] = 0.07 * drift;
    d[hs_fe_dof(fe, 3, 0)] = 5.0 * drift, d[hs_fe_dof(fe, 3, 1)] = -0.02 * drift;
    d[hs_fe_dof(fe, 3, 2)] = 0.06 * drift;
    d[hs_fe_dof(fe, 4, 0)] = 5.1 * drift, d[hs_fe_dof(fe, 4, 1)] = 0.03 * drift;
    d[hs_fe_dof(fe, 4, 2)] = 0.05 * drift;
}

static void test_elastic_beams(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_fe *fe = portal(ctx);
    const int n = hs_fe_ndof(fe);
    assert_int_equal(n, 8);
    double dc[N], dm[N], r[N], dr[N];
    displacements(fe, n, 1.0, dc);
    displacements(fe, n, 1.4, dm);
    /* dense: the last update's tangent at dc, the nodes moved to dm */
    double Kc[N * N] = {0}, K[N * N] = {0}, Km[N * N] = {0};
    assert_int_equal(hs_fe_restore(fe, dc, NULL, r, Kc, NULL), 0);
    assert_int_equal(hs_fe_commit(fe), 0);
    assert_int_equal(hs_fe_move_nodes(fe, dm, dr), 0);
    memcpy(K, Kc, sizeof K);
    assert_int_equal(hs_fe_moved_tangent(fe, K, 0), 0);
    memset(r, 0, sizeof r);
    assert_int_equal(hs_fe_restore(fe, dm, NULL, r, Km, NULL), 0); /* the nodes settle */
    double change[N * N], err[N * N];
    for (int k = 0; k < n * n; k++) change[k] = Km[k] - Kc[k], err[k] = K[k] - Km[k];
    printf("elastic beams, dense: the tangent changes by %.4g (of %.4g) from the last update to "
           "the moved nodes; moved tangent - restore there: %.3g\n",
           maxabs(change, (size_t)(n * n)), maxabs(Km, (size_t)(n * n)),
           maxabs(err, (size_t)(n * n)));
    assert_true(maxabs(change, (size_t)(n * n)) > 1e-3);
    assert_true(maxabs(err, (size_t)(n * n)) <= 1e-12 * maxabs(Km, (size_t)(n * n)));
    /* nothing moved: nothing changes */
    memcpy(K, Km, sizeof K);
    assert_int_equal(hs_fe_moved_tangent(fe, K, 0), 0);
    assert_memory_equal(K, Km, sizeof K);

    /* sparse: the values over the frame's pattern */
    const hs_csc *P = NULL;
    assert_int_equal(hs_fe_sparse_pattern(fe, &P), 0);
    const size_t nnz = (size_t)hs_csc_nnz(P);
    double *Ks = hs_dvec(nnz), *Kms = hs_dvec(nnz), *es = hs_dvec(nnz);
    assert_non_null(Ks), assert_non_null(Kms), assert_non_null(es);
    assert_int_equal(hs_fe_restore_sparse(fe, dc, NULL, r, Ks, NULL), 0);
    assert_int_equal(hs_fe_commit(fe), 0);
    assert_int_equal(hs_fe_move_nodes(fe, dm, dr), 0);
    assert_int_equal(hs_fe_moved_tangent(fe, Ks, 1), 0);
    assert_int_equal(hs_fe_restore_sparse(fe, dm, NULL, r, Kms, NULL), 0);
    for (size_t k = 0; k < nnz; k++) es[k] = Ks[k] - Kms[k];
    printf("elastic beams, sparse (%zu values): moved tangent - restore there: %.3g\n", nnz,
           maxabs(es, nnz));
    assert_true(maxabs(es, nnz) <= 1e-12 * maxabs(Kms, nnz));
    hs_free(Ks), hs_free(Kms), hs_free(es);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

#define assert_near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* hs_fe_node_trial: the nodes at the last restore (OpenFresco's dbCtrl, vbCtrl), which the move
 * leaves, where hs_fe_node_displacement gives the committed ones. */
static void test_node_trial(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_fe *fe = portal(ctx);
    const int n = hs_fe_ndof(fe);
    double dc[N], dm[N], vc[N], r[N], dr[N];
    displacements(fe, n, 1.0, dc);
    displacements(fe, n, 1.4, dm);
    displacements(fe, n, -3.0, vc);
    assert_int_equal(hs_fe_restore(fe, dc, vc, r, NULL, NULL), 0);
    assert_int_equal(hs_fe_commit(fe), 0);
    assert_int_equal(hs_fe_move_nodes(fe, dm, dr), 0);
    /* node 4's ux 5.1 drift, rz 0.05 drift; node 1's rz 0.08 drift; node 1's ux fixed */
    assert_near(hs_fe_node_trial(fe, 4, 0, 0), 5.1, 1e-15);
    assert_near(hs_fe_node_trial(fe, 4, 2, 0), 0.05, 1e-15);
    assert_near(hs_fe_node_trial(fe, 4, 0, 1), -15.3, 1e-13);
    assert_near(hs_fe_node_trial(fe, 1, 2, 1), -0.24, 1e-15);
    assert_near(hs_fe_node_trial(fe, 1, 0, 0), 0.0, 0.0);
    assert_near(hs_fe_node_trial(fe, 9, 0, 0), 0.0, 0.0); /* no node 9 */
    /* a restore at the moved nodes, not committed: the trial moves, the committed stays */
    assert_int_equal(hs_fe_restore(fe, dm, NULL, r, NULL, NULL), 0);
    assert_near(hs_fe_node_trial(fe, 4, 0, 0), 5.1 * 1.4, 1e-14);
    assert_near(hs_fe_node_trial(fe, 4, 0, 1), 0.0, 0.0);
    assert_near(hs_fe_node_displacement(fe, 4, 0), 5.1, 1e-15);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elastic_beams),
        cmocka_unit_test(test_node_trial),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
