/* Modified Newton in the implicit integrators (hht and newmark, option `tangent`: current |
 * initial | every N; docs/integrators.md), on bench/frame_gen.h's frame of 3 bays x 30 stories
 * (numbered column line by column line, sparse path, KLU/CHOLMOD):
 * - linear frame declared nonlinear (so that full Newton refactors its tangent at every
 *   iteration): the initial tangent is the current one, so `tangent: initial` gives the full-Newton
 *   response to round-off (bound 1e-12 of the peak) with one solve per step, as full Newton does;
 * - frame on bilinear base hinges that yield: `tangent: initial` and `tangent: every 10` converge
 *   at every step to the same tolerance with more iterations than full Newton (counted), and the
 *   responses differ by less than the tolerance-derived bound: each step's converged state is
 *   within tol |d| of the exact one (relative residual or increment below tol), and a stable,
 *   dissipative scheme carries these errors forward without growth, so after S steps the
 *   difference is below 2 S tol peak (both runs err);
 * - no step after the first allocates (hs_alloc_count) on the sparse path, refreshes included;
 * - a 1-DOF hardening (Duffing) spring whose load jumps at a known step: there the current
 *   tangent exceeds twice the initial effective stiffness, so the fixed-matrix iteration has a
 *   contraction factor above 1 and diverges: the refusal names that step, full Newton passes;
 *   the iteration limit is refused naming the step; a bad `tangent` value is refused. */
#include "hs_test.h"

#include "../bench/frame_gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BAYS    3
#define STORIES 30
#define STEPS   300
#define DT      (1.0 / 256.0)
#define TOL     1e-8

static const double PI = 3.14159265358979323846;

typedef struct run_out {
    double *d;       /* d[step][dof] */
    long iterations; /* Newton solves over the run */
    int max_iterations;
    uint64_t allocations; /* in steps 2.. */
    int n;
} run_out;

/* `type` with `tangent` (NULL: the default) on the frame, sparse path. The frame is declared
 * nonlinear even without hinges, so that full Newton assembles and refactors its tangent. */
static void run(const char *type, const char *tangent, int hinged, run_out *out)
{
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_fe *fe = NULL;
    int rc = hs_frame_build(ctx, BAYS, STORIES, 1, hinged ? 2e8 : 0.0, 3e5, &fe);
    assert_int_equal(rc, 0);
    const int n = hs_fe_ndof(fe);
    const double wi = 2.0 * PI, wj = 20.0 * PI, a1 = 2.0 * 0.02 / (wi + wj), a0 = a1 * wi * wj;
    hs_fe_matrices mats = {0};
    hs_dynamics dyn;
    assert_int_equal(hs_fe_sparse_dynamics(fe, a0, a1, &mats, &dyn), 0);
    assert_non_null(dyn.K0s);
    dyn.linear = 0;
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "tol", TOL);
    hs_options_set_num(o, "max_iter", 50);
    if (tangent) hs_options_set_str(o, "tangent", tangent);
    hs_integrator *it = NULL;
    rc = hs_integrator_create(ctx, type, o, &it);
    if (rc) fprintf(stderr, "create: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    double *m = calloc((size_t)n, sizeof *m), *iota = calloc((size_t)n, sizeof *iota);
    double *f0 = calloc((size_t)n, sizeof *f0), *f1 = calloc((size_t)n, sizeof *f1);
    double *dcmd = calloc((size_t)n, sizeof *dcmd);
    hs_fe_mass(fe, m);
    hs_fe_influence(fe, HS_FE_UX, iota);
    assert_int_equal(hs_integrator_setup(it, &dyn, DT, NULL, NULL, f0), 0);
    memset(out, 0, sizeof *out);
    out->n = n;
    out->d = calloc((size_t)STEPS * (size_t)n, sizeof(double));
    for (int s = 0; s < STEPS; s++) {
        const double ag0 = 4.0 * sin(2.0 * PI * 1.2 * s * DT),
                     ag1 = 4.0 * sin(2.0 * PI * 1.2 * (s + 1) * DT);
        for (int i = 0; i < n; i++) {
            f0[i] = -m[i] * iota[i] * ag0;
            f1[i] = -m[i] * iota[i] * ag1;
        }
        hs_step_io io = {.step = s, .t = s * DT, .f_n = f0, .f_n1 = f1, .d_cmd = dcmd};
        const uint64_t before = hs_alloc_count();
        rc = hs_integrator_step(it, &io);
        if (rc) fprintf(stderr, "%s step %d: %s\n", type, s, hs_ctx_message(ctx));
        assert_int_equal(rc, 0);
        if (s > 0) out->allocations += hs_alloc_count() - before;
        out->iterations += io.iterations;
        if (io.iterations > out->max_iterations) out->max_iterations = io.iterations;
        memcpy(out->d + (size_t)s * (size_t)n, hs_integrator_displacement(it),
               (size_t)n * sizeof(double));
    }
    print_message("%s tangent %s%s: %ld solves in %d steps (at most %d a step), %llu "
                  "allocations in steps 2..%d\n",
                  type, tangent ? tangent : "current", hinged ? " (hinged)" : "", out->iterations,
                  STEPS, out->max_iterations, (unsigned long long)out->allocations, STEPS);
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

/* max |a - b| and the peak |a| over every step and DOF. */
static void difference(const run_out *a, const run_out *b, double *diff, double *peak)
{
    *diff = 0.0;
    *peak = 0.0;
    for (size_t k = 0; k < (size_t)STEPS * (size_t)a->n; k++) {
        *diff = fmax(*diff, fabs(a->d[k] - b->d[k]));
        *peak = fmax(*peak, fabs(a->d[k]));
    }
}

static void test_linear_frame(void **state)
{
    (void)state;
    static const char *const types[] = {"hht", "newmark"};
    for (size_t k = 0; k < 2; k++) {
        run_out full, init;
        run(types[k], NULL, 0, &full);
        run(types[k], "initial", 0, &init);
        double diff, peak;
        difference(&full, &init, &diff, &peak);
        print_message("%s linear frame: initial vs current tangent, max difference %g of peak %g "
                      "(%g)\n",
                      types[k], diff, peak, diff / peak);
        assert_true(peak > 1e-3); /* the frame moves (metres) */
        assert_true(diff <= 1e-12 * peak);
        /* one solve a step: the initial tangent is the exact one */
        assert_int_equal(init.iterations, STEPS);
        assert_int_equal(init.max_iterations, 1);
        assert_int_equal(full.iterations, STEPS);
        assert_true(init.allocations == 0);
        free(full.d);
        free(init.d);
    }
}

static void test_yielding_frame(void **state)
{
    (void)state;
    run_out full, init, every;
    run("hht", NULL, 1, &full);
    run("hht", "initial", 1, &init);
    run("hht", "every 10", 1, &every);
    double peak, d_init, d_every;
    difference(&full, &init, &d_init, &peak);
    difference(&full, &every, &d_every, &peak);
    const double bound = 2.0 * STEPS * TOL * peak;
    print_message("hinged frame: peak %g; max difference to full Newton: initial %g, every 10 %g "
                  "(bound 2 S tol peak = %g)\n",
                  peak, d_init, d_every, bound);
    /* the hinges yield: the initial tangent, exact on the linear frame (one solve a step),
     * needs more here */
    assert_true(init.max_iterations >= 2);
    /* the fixed matrix converges more slowly: more solves than full Newton */
    assert_true(init.iterations > full.iterations);
    assert_true(every.iterations > full.iterations);
    assert_true(every.iterations <= init.iterations);
    assert_true(d_init <= bound);
    assert_true(d_every <= bound);
    assert_true(init.allocations == 0);
    assert_true(every.allocations == 0);
    free(full.d);
    free(init.d);
    free(every.d);
}

/* 1-DOF r = k d + k3 d^3, M = 1, no damping. */
#define DK  1.0
#define DK3 1e4
static int duffing_restore(void *user, const double *d, const double *v, double *r, double *Kt,
                           double *Ct)
{
    (void)user;
    (void)v;
    r[0] = DK * d[0] + DK3 * d[0] * d[0] * d[0];
    if (Kt) Kt[0] = DK + 3.0 * DK3 * d[0] * d[0];
    if (Ct) Ct[0] = 0.0;
    return 0;
}
static int duffing_commit(void *user)
{
    (void)user;
    return 0;
}

/* Runs newmark on the Duffing spring, a load of 0.01 that jumps to `jump` at step JUMP (20 steps);
 * returns the rc of the first failing step (0 if none), its message into msg and the iterations
 * of every step into iters (when not NULL). */
#define JUMP 7
static int duffing(const char *tangent, double max_iter, double jump, char *msg, size_t cap,
                   int *iters)
{
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    static const double M = 1.0;
    hs_dynamics dyn = {.n = 1,
                       .M = &M,
                       .K0 = &(const double){DK},
                       .restore = duffing_restore,
                       .commit = duffing_commit};
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "max_iter", max_iter);
    if (tangent) hs_options_set_str(o, "tangent", tangent);
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, "newmark", o, &it), 0);
    const double dt = 0.1, zero = 0.0;
    assert_int_equal(hs_integrator_setup(it, &dyn, dt, NULL, NULL, &zero), 0);
    int rc = 0;
    msg[0] = '\0';
    for (int s = 0; !rc && s < 20; s++) {
        const double f0 = s >= JUMP ? jump : 0.01, f1 = s + 1 >= JUMP ? jump : 0.01;
        double dcmd;
        hs_step_io io = {.step = s, .t = s * dt, .f_n = &f0, .f_n1 = &f1, .d_cmd = &dcmd};
        rc = hs_integrator_step(it, &io);
        if (rc) snprintf(msg, cap, "%s", hs_ctx_message(ctx));
        if (iters) iters[s] = io.iterations;
    }
    hs_options_destroy(&o);
    hs_integrator_destroy(&it);
    hs_ctx_destroy(&ctx);
    return rc;
}

static void test_refusals(void **state)
{
    (void)state;
    char msg[512], want[64];
    /* J0 = M/(beta dt^2) + k = 401; a load of 1000 puts d near (1000/1e4)^(1/3) = 0.46, where
     * 3 k3 d^2 = 6.4e3 >> J0: the fixed-matrix iteration's factor |1 - Jt/J0| is about 15 */
    assert_int_equal(duffing(NULL, 50, 1000.0, msg, sizeof msg, NULL), 0);
    const int rc = duffing("initial", 50, 1000.0, msg, sizeof msg, NULL);
    print_message("diverging: %s\n", msg);
    assert_int_equal(rc, HS_ECONVERGE);
    snprintf(want, sizeof want, "at step %d ", JUMP);
    assert_non_null(strstr(msg, want));
    assert_non_null(strstr(msg, "modified Newton (tangent: initial)"));
    /* a load of 1 (static d = 0.046, peak about 0.09: 3 k3 d^2 up to about 0.6 J0) converges
     * slowly; with max_iter 3 the refusal names the first step that needs more than 3 */
    int iters[20], first = -1;
    assert_int_equal(duffing("initial", 200, 1.0, msg, sizeof msg, iters), 0);
    for (int s = 0; s < 20 && first < 0; s++)
        if (iters[s] > 3) first = s;
    assert_true(first >= JUMP - 1);
    const int rc2 = duffing("initial", 3, 1.0, msg, sizeof msg, NULL);
    print_message("iteration limit (%d iterations at step %d): %s\n", iters[first], first + 1, msg);
    assert_int_equal(rc2, HS_ECONVERGE);
    snprintf(want, sizeof want, "at step %d ", first + 1);
    assert_non_null(strstr(msg, want));
    assert_non_null(strstr(msg, "did not converge in 3 iterations"));
    assert_non_null(strstr(msg, "tangent: every N"));
    /* bad values */
    static const char *const bad[] = {"every 0", "every", "initia", "every 3x"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        hs_ctx *ctx = NULL;
        assert_int_equal(hs_ctx_create(&ctx), 0);
        hs_options *o = NULL;
        assert_int_equal(hs_options_create(&o), 0);
        hs_options_set_str(o, "tangent", bad[k]);
        hs_integrator *it = NULL;
        assert_int_equal(hs_integrator_create(ctx, "hht", o, &it), HS_EINPUT);
        assert_non_null(strstr(hs_ctx_message(ctx), "'initial' or 'every N'"));
        hs_integrator_destroy(&it);
        hs_options_destroy(&o);
        hs_ctx_destroy(&ctx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear_frame),
        cmocka_unit_test(test_yielding_frame),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
