/* The storage of the script's own analysis (src/opensees/opensees_storage.c) against the dense
 * n x n matrices of the frame model (hs_fe_restore):
 * - a frame without condensed DOFs (bench/frame_gen.h: 2 bays, 3 stories, elastic beams on
 *   yielding base hinges, displaced past the hinges' yield) is stored on its sparse pattern
 *   (fewer values than n^2): the restoring force equals the dense one to 1e-12 of its largest
 *   entry (the constant elements enter as one product) and every stored tangent value the dense
 *   entry at its place to 1e-12 of the largest; the dense tangent has nothing outside the pattern
 *   (gather says so) and a matrix with an entry outside is reported; the products y -= A x and
 *   y = A x equal the dense ones to 1e-12; the factor of the stored tangent solves K x = b with a
 *   residual below 1e-10 of |b|;
 * - a cantilever whose top carries mass in x only (its other DOFs condensed) keeps the full
 *   pattern, whose values are the dense matrix bit for bit. */
#include "hs_test.h"

#include "../bench/frame_gen.h"
#include "opensees/opensees_analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double max_abs(const double *v, size_t n)
{
    double m = 0.0;
    for (size_t k = 0; k < n; k++) m = fmax(m, fabs(v[k]));
    return m;
}

static void test_sparse_frame(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_fe *fe = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    assert_int_equal(hs_frame_build(ctx, 2, 3, 1, 2e8, 3e5, &fe), 0);
    const int n = hs_fe_ndof(fe);
    const size_t nn = (size_t)n * (size_t)n;
    hs_os_storage st;
    assert_int_equal(hs_os_storage_init(ctx, fe, n, &st), 0);
    assert_true(st.sparse);
    assert_true(st.nnz < nn);
    double *d = calloc((size_t)n, sizeof *d), *r = calloc((size_t)n, sizeof *r);
    double *rd = calloc((size_t)n, sizeof *rd), *Kd = calloc(nn, sizeof *Kd);
    double *K = calloc(st.nnz, sizeof *K), *G = calloc(st.nnz, sizeof *G);
    double *y = calloc((size_t)n, sizeof *y), *yd = calloc((size_t)n, sizeof *yd);
    for (int i = 0; i < n; i++) d[i] = 0.02 * sin(0.7 * i + 0.3); /* the hinges yield */
    assert_int_equal(hs_os_storage_restore(&st, NULL, fe, d, NULL, r, K, NULL), 0);
    assert_int_equal(hs_fe_restore(fe, d, NULL, rd, Kd, NULL), 0);
    const double rs = max_abs(rd, (size_t)n), ks = max_abs(Kd, nn);
    for (int i = 0; i < n; i++) assert_true(fabs(r[i] - rd[i]) <= 1e-12 * rs);
    assert_int_equal(hs_os_storage_gather(&st, Kd, G), 0); /* nothing outside the pattern */
    for (size_t k = 0; k < st.nnz; k++) assert_true(fabs(K[k] - G[k]) <= 1e-12 * ks);
    HS_AT(Kd, n, n - 1, 0) = 1.0; /* a corner entry: outside a frame's pattern */
    assert_int_equal(hs_os_storage_gather(&st, Kd, G), 1);
    HS_AT(Kd, n, n - 1, 0) = 0.0;
    /* products: y = K d, and y -= K d back to zero */
    hs_os_storage_matvec(&st, K, d, y);
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++) s += HS_AT(Kd, n, i, j) * d[j];
        yd[i] = s;
    }
    const double ys = max_abs(yd, (size_t)n);
    for (int i = 0; i < n; i++) assert_true(fabs(y[i] - yd[i]) <= 1e-12 * ys);
    hs_os_storage_matvec_sub(&st, K, d, y);
    for (int i = 0; i < n; i++) assert_true(fabs(y[i]) <= 1e-12 * ys);
    /* the factor: K x = b with b = K d gives x = d */
    hs_linsolver *ls = NULL;
    assert_int_equal(hs_os_storage_solver(ctx, &st, &ls), 0);
    assert_int_equal(hs_os_storage_factor(&st, ls, K), 0);
    memcpy(y, yd, (size_t)n * sizeof *y);
    assert_int_equal(hs_linsolver_solve(ls, y), 0);
    hs_os_storage_matvec(&st, K, y, r);
    for (int i = 0; i < n; i++) assert_true(fabs(r[i] - yd[i]) <= 1e-10 * ys);
    printf("frame: n %d, %zu stored values of %zu, solver %s\n", n, st.nnz, nn,
           hs_linsolver_kind(ls));
    hs_linsolver_destroy(&ls);
    hs_os_storage_free(&st);
    free(d), free(r), free(rd), free(Kd), free(K), free(G), free(y), free(yd);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

static void test_condensed_full(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_fe *fe = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    static const int FIX[3] = {1, 1, 1};
    const double mass[3] = {10.0, 0.0, 0.0}; /* uy and rz of node 2 condensed */
    assert_true(hs_fe_add_node(fe, 1, 0.0, 0.0) >= 0);
    assert_true(hs_fe_add_node(fe, 2, 0.0, 3.0) >= 0);
    assert_true(hs_fe_add_node(fe, 3, 4.0, 3.0) >= 0);
    assert_int_equal(hs_fe_fix(fe, 1, FIX), 0);
    assert_int_equal(hs_fe_add_mass(fe, 2, mass), 0);
    assert_int_equal(hs_fe_add_mass(fe, 3, mass), 0);
    assert_true(hs_fe_add_beam(fe, "col", 1, 2, 2e8, 0.01, 1e-4, HS_FE_PDELTA, 0.0) >= 0);
    assert_true(hs_fe_add_beam(fe, "beam", 2, 3, 2e8, 0.01, 2e-4, HS_FE_LINEAR, 0.0) >= 0);
    assert_int_equal(hs_fe_finalize(fe), 0);
    const int n = hs_fe_ndof(fe);
    assert_int_equal(n, 2);
    hs_os_storage st;
    assert_int_equal(hs_os_storage_init(ctx, fe, n, &st), 0);
    assert_false(st.sparse);
    assert_int_equal((int)st.nnz, n * n);
    const double d[2] = {0.01, -0.004};
    double r[2], rd[2] = {0}, K[4], Kd[4] = {0};
    assert_int_equal(hs_os_storage_restore(&st, NULL, fe, d, NULL, r, K, NULL), 0);
    assert_int_equal(hs_fe_restore(fe, d, NULL, rd, Kd, NULL), 0);
    assert_memory_equal(r, rd, sizeof r);
    assert_memory_equal(K, Kd, sizeof K);
    assert_true(K[0] > 0.0 && K[3] > 0.0);
    hs_os_storage_free(&st);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sparse_frame),
        cmocka_unit_test(test_condensed_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
