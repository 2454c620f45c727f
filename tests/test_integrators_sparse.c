/* Integrators on a structure whose matrices have a wide band of few entries take the sparse
 * solver (hs_int_linsolver -> kind sparse), and give the response of the same structure numbered
 * so that its band is narrow (LAPACK's banded solver): a ring of N masses (a shear building whose
 * top is tied back to the first floor by a brace, springs i-1 to i and 0 to N-1). Numbered in
 * order its half-bandwidth is N - 1; numbered 0, N-1, 1, N-2, ... it is 2. Both run the same
 * load; every DOF's displacement agrees to round-off, for a Newton integrator (hht: tangent
 * factored each iteration) and a factor-once one (alpha_os), and the steps allocate nothing. */
#include "hs_test.h"

#include "hysim/integrator.h"
#include "hysim/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N     150
#define STEPS 200

/* Position of ring DOF i in the narrow numbering. */
static int narrow(int i)
{
    return i < N / 2 ? 2 * i : 2 * (N - 1 - i) + 1;
}

static hs_model *ring(int interleaved)
{
    hs_model *m = NULL;
    assert_int_equal(hs_model_create(NULL, N, &m), 0);
    double mass[N];
    for (int i = 0; i < N; i++) mass[i] = 1.0 + 0.01 * i; /* placed by ring index */
    double placed[N];
    for (int i = 0; i < N; i++) placed[interleaved ? narrow(i) : i] = mass[i];
    assert_int_equal(hs_model_set_mass(m, placed), 0);
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    for (int i = 0; i <= N; i++) { /* spring i: ground-0, i-1 to i, and the brace 0 to N-1 */
        hs_options_set_num(o, "k", 400.0 + 3.0 * i);
        const int from = i == 0 ? HS_GROUND : i == N ? 0 : i - 1, to = i == N ? N - 1 : i;
        const int f = from == HS_GROUND ? HS_GROUND : interleaved ? narrow(from) : from;
        const int t = interleaved ? narrow(to) : to;
        assert_true(hs_model_add_spring(m, "s", f, t, "elastic", o, "s") >= 0);
    }
    hs_options_destroy(&o);
    assert_int_equal(hs_model_damping_rayleigh(m, 0, 1, 0.02, 0.02), 0);
    return m;
}

/* Runs `type` on the ring; d[step][ring DOF] into out. */
static void run(const char *type, int interleaved, double *out)
{
    hs_model *m = ring(interleaved);
    double *K0 = calloc((size_t)N * N, sizeof *K0);
    hs_dynamics dyn;
    assert_int_equal(hs_model_dynamics(m, K0, &dyn), 0);
    hs_ctx *ctx = NULL;
    hs_integrator *it = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    assert_int_equal(hs_integrator_create(ctx, type, NULL, &it), 0);
    double zero[N] = {0}, f0[N], f1[N], dcmd[N];
    const double dt = 0.005;
    assert_int_equal(hs_integrator_setup(it, &dyn, dt, zero, zero, zero), 0);
    const int loaded = interleaved ? narrow(N / 3) : N / 3;
    uint64_t allocations = 0;
    for (int s = 0; s < STEPS; s++) {
        memset(f0, 0, sizeof f0);
        memset(f1, 0, sizeof f1);
        f0[loaded] = 50.0 * sin(9.0 * s * dt);
        f1[loaded] = 50.0 * sin(9.0 * (s + 1) * dt);
        hs_step_io io = {.step = s, .t = s * dt, .f_n = f0, .f_n1 = f1, .d_cmd = dcmd};
        const uint64_t before = hs_alloc_count();
        assert_int_equal(hs_integrator_step(it, &io), 0);
        if (s > 0) allocations += hs_alloc_count() - before; /* the first step may size */
        const double *d = hs_integrator_displacement(it);
        for (int i = 0; i < N; i++) out[s * N + i] = d[interleaved ? narrow(i) : i];
    }
    assert_true(allocations == 0);
    hs_integrator_destroy(&it);
    hs_ctx_destroy(&ctx);
    hs_model_destroy(&m);
    free(K0);
}

static void compare(const char *type)
{
    double *wide = calloc((size_t)STEPS * N, sizeof *wide);
    double *band = calloc((size_t)STEPS * N, sizeof *band);
    run(type, 0, wide);
    run(type, 1, band);
    double peak = 0.0, diff = 0.0;
    for (int k = 0; k < STEPS * N; k++) {
        peak = fmax(peak, fabs(band[k]));
        diff = fmax(diff, fabs(wide[k] - band[k]));
    }
    print_message("%s: peak %.4g, largest difference %.3g\n", type, peak, diff);
    assert_true(peak > 1e-3);          /* the ring moved */
    assert_true(diff <= 1e-10 * peak); /* sparse and banded solutions agree to round-off */
    free(wide);
    free(band);
}

static void test_sparse_pays_here(void **state)
{
    (void)state;
    /* the wide numbering: half-bandwidth N - 1, about 3 N + 2 entries: sparse; the narrow one
     * (band 2) stays with LAPACK */
    assert_true(hs_linsolver_sparse_pays(N, N - 1, 3.0 * N + 2));
    assert_false(hs_linsolver_sparse_pays(N, 2, 5.0 * N));
}

static void test_hht(void **state)
{
    (void)state;
    compare("hht");
}

static void test_alpha_os(void **state)
{
    (void)state;
    compare("alpha_os");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sparse_pays_here),
        cmocka_unit_test(test_hht),
        cmocka_unit_test(test_alpha_os),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
