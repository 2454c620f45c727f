/* The Newton matrix kept as a Woodbury update of a factored base (src/integrators/
 * newton_update.h; option `update` of hht and newmark, docs/integrators.md):
 * - a sparse, nonsymmetric 80 x 80 base B factored by KLU and by LAPACK's band; J = B with
 *   entries changed (symmetric and not, a new diagonal, a sign change) on DOF sets of 1 to 10:
 *   the update's solution of J x = b equals LAPACK's dense LU solution of J to 1e-11 (relative),
 *   without a refactor (counted); J equal to the base costs no factor at all;
 * - changes on more DOFs than update_dofs refactor (counted), and the refactored J is the new
 *   base: a later J that differs from it on one DOF is an update again, exact as above;
 * - a hint (the positions where J changed since the last call) finds the same update: the last
 *   update's entries are compared again with the hinted ones, exact as above;
 * - a singular J (a zero row) is refused (HS_ESINGULAR) as a full factor refuses it;
 * - hht full Newton on bench/frame_gen.h's 3 x 30 frame on bilinear base hinges that yield
 *   (sparse path): `update: woodbury` (default) and `update: refactor` take the same Newton
 *   iterations at every step, the responses agree to 1e-9 of the peak (both converge to tol
 *   1e-10 per step, with the same iterates up to round-off), the woodbury run factors its matrix
 *   once while the hinges change the tangent (on up to 4 DOFs) in at least a quarter of the
 *   steps (counted in its update object), and no step after the first allocates; bad option
 *   values are
 *   refused with their range. */
#include "hs_test.h"

#include "../bench/frame_gen.h"
#include "../src/integrators/implicit_core.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N 80

/* A sparse nonsymmetric diagonally dominant base: a band of 3 plus a few far couplings. */
static double base_entry(int i, int j)
{
    if (i == j) return 10.0 + 0.1 * i;
    if (abs(i - j) <= 3) return 1.0 / (1.0 + i + 2 * j);
    if ((i * 7 + j * 3) % 41 == 0) return 0.5;
    return 0.0;
}

/* J's dense values: the base with `nch` changes (i, j, new value). */
typedef struct change {
    int i, j;
    double v;
} change;

static void dense_of(const change *ch, int nch, double *A)
{
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) A[(size_t)j * N + (size_t)i] = base_entry(i, j);
    for (int k = 0; k < nch; k++) A[(size_t)ch[k].j * N + (size_t)ch[k].i] = ch[k].v;
}

/* The pattern: the base's nonzeros and every entry any change below touches. */
static hs_csc *pattern(hs_ctx *ctx, const change *const sets[], const int *sizes, int nsets)
{
    int *ti = malloc(N * N * sizeof *ti), *tj = malloc(N * N * sizeof *tj);
    char *on = calloc(N * N, 1);
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) on[j * N + i] = base_entry(i, j) != 0.0;
    for (int s = 0; s < nsets; s++)
        for (int k = 0; k < sizes[s]; k++) on[sets[s][k].j * N + sets[s][k].i] = 1;
    int nnz = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            if (on[j * N + i]) {
                ti[nnz] = i;
                tj[nnz++] = j;
            }
    hs_csc *P = NULL;
    assert_int_equal(hs_csc_from_triplets(ctx, N, N, nnz, ti, tj, NULL, &P), 0);
    free(ti);
    free(tj);
    free(on);
    return P;
}

static void fill(hs_csc *P, const change *ch, int nch)
{
    double *A = malloc(N * N * sizeof *A);
    dense_of(ch, nch, A);
    for (int j = 0; j < N; j++)
        for (int p = P->colptr[j]; p < P->colptr[j + 1]; p++)
            P->val[p] = A[(size_t)j * N + (size_t)P->rowind[p]];
    free(A);
}

/* max |x_update - x_lapack| / max |x_lapack| for J of the changes, b fixed. */
static double solve_error(hs_newton_update *u, hs_csc *P, const change *ch, int nch)
{
    fill(P, ch, nch);
    assert_int_equal(hs_newton_update_factor(u, P), 0);
    double b[N], x[N], *A = malloc(N * N * sizeof *A);
    lapack_int ipiv[N];
    for (int i = 0; i < N; i++) b[i] = x[i] = sin(1.0 + i);
    assert_int_equal(hs_newton_update_solve(u, x), 0);
    dense_of(ch, nch, A);
    assert_int_equal(LAPACKE_dgesv(LAPACK_COL_MAJOR, N, 1, A, N, ipiv, b, N), 0);
    double err = 0.0, peak = 0.0;
    for (int i = 0; i < N; i++) {
        err = fmax(err, fabs(x[i] - b[i]));
        peak = fmax(peak, fabs(b[i]));
    }
    free(A);
    return err / peak;
}

static void test_update_exact(void **state)
{
    (void)state;
    static const change one[] = {{5, 5, 30.0}};
    static const change sym[] = {{10, 12, -4.0}, {12, 10, -4.0}, {10, 10, 2.0}, {12, 12, 3.0}};
    static const change mixed[] = {{0, 0, -9.0},  {20, 33, 1.5}, {33, 20, 0.25}, {40, 41, -2.0},
                                   {79, 79, 1.0}, {41, 40, 7.0}, {60, 61, 0.0},  {2, 1, 3.0}};
    change wide[12], after[13], zero_row[N];
    for (int k = 0; k < 12; k++) /* 12 DOFs > update_dofs */
        wide[k] = after[k] = (change){1 + 6 * k, 1 + 6 * k, 1.0};
    after[12] = (change){30, 30, 55.0};
    int nzero = 0;
    for (int j = 0; j < N; j++)
        if (base_entry(7, j) != 0.0) zero_row[nzero++] = (change){7, j, 0.0};
    const change *const sets[] = {one, sym, mixed, wide, after, zero_row};
    const int sizes[] = {1, 4, 8, 12, 13, nzero};
    static const char *const kinds[] = {"klu", "banded"};
    for (int kk = 0; kk < 2; kk++) {
        hs_ctx *ctx = NULL;
        assert_int_equal(hs_ctx_create(&ctx), 0);
        hs_csc *P = pattern(ctx, sets, sizes, 6);
        hs_linsolver *ls = NULL;
        assert_int_equal(hs_linsolver_create_sparse(ctx, kinds[kk], P, &ls), 0);
        hs_newton_update *u = NULL;
        assert_int_equal(hs_newton_update_create(ctx, ls, P, 10, &u), 0);
        long factors, updates, unchanged;
        int dofs;
        const double e0 = solve_error(u, P, NULL, 0); /* the base: factored */
        const double e1 = solve_error(u, P, NULL, 0); /* unchanged: no factor */
        hs_newton_update_counts(u, &factors, &updates, &unchanged, &dofs);
        assert_int_equal(factors, 1);
        assert_int_equal(updates, 0);
        assert_int_equal(unchanged, 1);
        assert_int_equal(dofs, 0);
        double e[3];
        for (int s = 0; s < 3; s++) e[s] = solve_error(u, P, sets[s], sizes[s]);
        hs_newton_update_counts(u, &factors, &updates, &unchanged, &dofs);
        print_message("%s: base %.2e, unchanged %.2e, updates on 1, 2, 10 DOFs: %.2e %.2e %.2e "
                      "(%ld factor, %ld updates)\n",
                      kinds[kk], e0, e1, e[0], e[1], e[2], factors, updates);
        assert_int_equal(factors, 1); /* every change above kept as an update */
        assert_int_equal(dofs, 10);   /* the last: 8 entries on 10 DOFs */
        for (int s = 0; s < 3; s++) assert_true(e[s] < 1e-11);
        assert_true(e0 < 1e-12 && e1 < 1e-12);
        /* 12 DOFs > update_dofs 10: refactored, the new base */
        const double ew = solve_error(u, P, wide, 12);
        hs_newton_update_counts(u, &factors, &updates, &unchanged, &dofs);
        assert_int_equal(factors, 2);
        assert_true(ew < 1e-12);
        /* one DOF off the new base: an update again */
        const double ea = solve_error(u, P, after, 13);
        hs_newton_update_counts(u, &factors, &updates, &unchanged, &dofs);
        print_message("%s: refactored on 12 DOFs (%.2e), then an update on 1 DOF of the new base "
                      "(%.2e, %d DOF, %ld factors)\n",
                      kinds[kk], ew, ea, dofs, factors);
        assert_int_equal(factors, 2);
        assert_int_equal(dofs, 1);
        assert_true(ea < 1e-11);
        /* a hint: J differs from the last J only at the positions given; the base is the last
         * refactor's (wide), the last J was `after` (one DOF off it): a change at `one`'s entry
         * given as the hint joins the update, exact as above */
        change both[14];
        memcpy(both, after, sizeof after);
        both[13] = one[0];
        fill(P, both, 14);
        int at = -1;
        for (int p = P->colptr[5]; p < P->colptr[6]; p++)
            if (P->rowind[p] == 5) at = p;
        assert_int_equal(hs_newton_update_factor_at(u, P, &at, 1), 0);
        double xh[N], bh[N], *Ah = malloc(N * N * sizeof *Ah);
        lapack_int ipiv[N];
        for (int i = 0; i < N; i++) xh[i] = bh[i] = cos(0.5 * i);
        assert_int_equal(hs_newton_update_solve(u, xh), 0);
        dense_of(both, 14, Ah);
        assert_int_equal(LAPACKE_dgesv(LAPACK_COL_MAJOR, N, 1, Ah, N, ipiv, bh, N), 0);
        double eh = 0.0, ph = 0.0;
        for (int i = 0; i < N; i++) {
            eh = fmax(eh, fabs(xh[i] - bh[i]));
            ph = fmax(ph, fabs(bh[i]));
        }
        free(Ah);
        hs_newton_update_counts(u, &factors, &updates, &unchanged, &dofs);
        print_message("%s: hinted update on %d DOFs: %.2e\n", kinds[kk], dofs, eh / ph);
        assert_int_equal(factors, 2);
        assert_int_equal(dofs, 2); /* 30 (kept from the last update) and 5 (the hint) */
        assert_true(eh < 1e-11 * ph);
        /* a zero row: singular */
        fill(P, zero_row, nzero);
        const int rc = hs_newton_update_factor(u, P);
        print_message("%s: zero row: rc %d (%s)\n", kinds[kk], rc, hs_ctx_message(ctx));
        assert_int_equal(rc, HS_ESINGULAR);
        hs_newton_update_destroy(&u);
        hs_csc_destroy(&P);
        hs_ctx_destroy(&ctx);
    }
}

/* hht full Newton on the hinged frame with `update`; the displacements of every step. */
#define BAYS    3
#define STORIES 30
#define STEPS   300
#define DT      (1.0 / 256.0)
#define TOL     1e-10
static const double PI = 3.14159265358979323846;

typedef struct run_out {
    double *d;
    int *iters;
    long factors, updates, unchanged;
    uint64_t allocations;
    int n;
} run_out;

static void run(const char *update, run_out *out)
{
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_fe *fe = NULL;
    assert_int_equal(hs_frame_build(ctx, BAYS, STORIES, 1, 2e8, 3e5, &fe), 0);
    const int n = hs_fe_ndof(fe);
    const double wi = 2.0 * PI, wj = 20.0 * PI, a1 = 2.0 * 0.02 / (wi + wj), a0 = a1 * wi * wj;
    hs_fe_matrices mats = {0};
    hs_dynamics dyn;
    assert_int_equal(hs_fe_sparse_dynamics(fe, a0, a1, &mats, &dyn), 0);
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "tol", TOL);
    hs_options_set_num(o, "max_iter", 50);
    hs_options_set_str(o, "update", update);
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, "hht", o, &it), 0);
    double *m = calloc((size_t)n, sizeof *m), *iota = calloc((size_t)n, sizeof *iota);
    double *f0 = calloc((size_t)n, sizeof *f0), *f1 = calloc((size_t)n, sizeof *f1);
    double *dcmd = calloc((size_t)n, sizeof *dcmd);
    hs_fe_mass(fe, m);
    hs_fe_influence(fe, HS_FE_UX, iota);
    assert_int_equal(hs_integrator_setup(it, &dyn, DT, NULL, NULL, f0), 0);
    memset(out, 0, sizeof *out);
    out->n = n;
    out->d = calloc((size_t)STEPS * (size_t)n, sizeof(double));
    out->iters = calloc(STEPS, sizeof(int));
    for (int s = 0; s < STEPS; s++) {
        const double ag0 = 4.0 * sin(2.0 * PI * 1.2 * s * DT),
                     ag1 = 4.0 * sin(2.0 * PI * 1.2 * (s + 1) * DT);
        for (int i = 0; i < n; i++) {
            f0[i] = -m[i] * iota[i] * ag0;
            f1[i] = -m[i] * iota[i] * ag1;
        }
        hs_step_io io = {.step = s, .t = s * DT, .f_n = f0, .f_n1 = f1, .d_cmd = dcmd};
        const uint64_t before = hs_alloc_count();
        const int rc = hs_integrator_step(it, &io);
        if (rc) fprintf(stderr, "step %d: %s\n", s, hs_ctx_message(ctx));
        assert_int_equal(rc, 0);
        if (s > 0) out->allocations += hs_alloc_count() - before;
        out->iters[s] = io.iterations;
        memcpy(out->d + (size_t)s * (size_t)n, hs_integrator_displacement(it),
               (size_t)n * sizeof(double));
    }
    const hs_implicit *core = it->data;
    if (core->upd)
        hs_newton_update_counts(core->upd, &out->factors, &out->updates, &out->unchanged, NULL);
    free(m);
    free(iota);
    free(f0);
    free(f1);
    free(dcmd);
    hs_options_destroy(&o);
    hs_integrator_destroy(&it);
    hs_fe_matrices_free(&mats);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

static void test_hinged_frame(void **state)
{
    (void)state;
    run_out w, r;
    run("woodbury", &w);
    run("refactor", &r);
    double diff = 0.0, peak = 0.0;
    for (size_t k = 0; k < (size_t)STEPS * (size_t)w.n; k++) {
        diff = fmax(diff, fabs(w.d[k] - r.d[k]));
        peak = fmax(peak, fabs(r.d[k]));
    }
    long iters = 0;
    int same = 1, most = 0;
    for (int s = 0; s < STEPS; s++) {
        iters += r.iters[s];
        same = same && w.iters[s] == r.iters[s];
        most = w.iters[s] > most ? w.iters[s] : most;
    }
    print_message("hinged frame, hht full Newton: %ld solves in %d steps (at most %d); woodbury: "
                  "%ld full factors, %ld updates, %ld unchanged, %llu allocations after step 1; "
                  "largest difference to refactor %.3g of peak %.3g\n",
                  iters, STEPS, most, w.factors, w.updates, w.unchanged,
                  (unsigned long long)w.allocations, diff, peak);
    assert_true(peak > 1e-3);
    assert_true(same);
    assert_true(diff <= 1e-9 * peak);
    /* one factor call per solve, and setup's */
    assert_true(w.updates + w.factors + w.unchanged == iters + 1);
    assert_true(w.updates >= STEPS / 4); /* the hinges yield: the tangent differs from the base */
    assert_true(w.factors * 20 < iters); /* the base is factored rarely */
    assert_true(w.allocations == 0);
    free(w.d);
    free(w.iters);
    free(r.d);
    free(r.iters);
}

static void test_bad_options(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    static const char *const keys[] = {"update", "update_dofs"};
    for (int k = 0; k < 2; k++) {
        hs_options *o = NULL;
        assert_int_equal(hs_options_create(&o), 0);
        if (k == 0)
            hs_options_set_str(o, keys[k], "cholesky");
        else
            hs_options_set_num(o, keys[k], 0.5);
        hs_integrator *it = NULL;
        assert_int_equal(hs_integrator_create(ctx, "newmark", o, &it), HS_EINPUT);
        print_message("%s\n", hs_ctx_message(ctx));
        assert_non_null(strstr(hs_ctx_message(ctx), keys[k]));
        assert_non_null(strstr(hs_ctx_message(ctx), k == 0 ? "woodbury" : "1..4096"));
        hs_integrator_destroy(&it);
        hs_options_destroy(&o);
    }
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_update_exact),
        cmocka_unit_test(test_hinged_frame),
        cmocka_unit_test(test_bad_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
