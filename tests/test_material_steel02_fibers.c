/* Steel02 over fiber arrays (material_fibers.h) against the material object, whose stresses
 * test_materials_opensees.c checks against OpenSees' own Steel02 to 1e-12. The law's entry takes
 * glibc's vector pow (libmvec) where the processor has AVX2 and FMA, within 1 ulp of the scalar
 * pow, so its stresses and tangents are within 1e-14 of the object's (relative to fy and E0); the
 * same kernel with the scalar pow (hs_steel02_fibers_scalar, what a processor without AVX2 runs)
 * gives the object's bits. Both along cyclic histories of eleven fibers (two blocks of four and
 * three) through every branch: rest, the first departure both ways, reversals both ways, the
 * elastic start of a branch (1 + |x|^R rounds to 1) and its curve, in the same call; with three
 * trials a step before the commit (Newton) and trials thrown away (revert). Checkpoints: a state
 * gathered from the arrays loads into a new object that continues along the same path, the law's
 * load gives the cached values the arrays hold, and a bad branch flag is refused. The first
 * loading meets the Menegotto-Pinto curve's closed form. */
#include "hs_test.h"

#include "model/material_fibers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { NF = 11, LDMAX = NF + 3, MAXS = 16, STEPS = 900, NTRIAL = 3 };

typedef struct s2_case {
    const char *name;
    double fy, E0, b, R0, cR1, cR2, a1, a2, a3, a4, sig_init;
} s2_case;

static const s2_case CASES[] = {
    /* bench/opensees/rc_frame_3x3.tcl's bars (kN, m) */
    {"frame bars", 420000.0, 2.0e8, 0.01, 18.0, 0.925, 0.15, 0.0, 1.0, 0.0, 1.0, 0.0},
    {"isotropic hardening", 50.0, 29000.0, 0.02, 20.0, 0.925, 0.15, 0.05, 2.0, 0.04, 3.0, 0.0},
    {"initial stress", 50.0, 29000.0, 0.02, 20.0, 0.925, 0.15, 0.0, 1.0, 0.0, 1.0, 20.0},
};

static hs_material *steel02(const s2_case *c)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    const char *keys[] = {"fy", "E0", "b", "R0", "cR1", "cR2", "a1", "a2", "a3", "a4", "sig_init"};
    const double vals[] = {c->fy, c->E0, c->b,  c->R0, c->cR1,     c->cR2,
                           c->a1, c->a2, c->a3, c->a4, c->sig_init};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        hs_options_set_num(o, keys[k], vals[k]);
    hs_material *m = NULL;
    assert_int_equal(hs_material_create(NULL, "steel02", o, &m), 0);
    hs_options_destroy(&o);
    return m;
}

/* Where variable k of fiber i is in the law's arrays (material_fibers.h: rows of ld doubles) */
static size_t at(const hs_fiber_law *law, size_t ld, size_t i, size_t k)
{
    return law->rows ? k * ld + i : i * law->state_n + k;
}

/* fiber i's strain at step k, in yield strains: cycles of growing amplitude about a drift that
 * differs per fiber (the fibers of a block take different branches at one step); fiber 0 rests
 * at zero for the first 60 steps; trial j < NTRIAL - 1 is off the step's strain (Newton) */
static double strain_at(size_t i, int k, int j)
{
    if (i == 0 && k < 60) return 0.0;
    const double w = 0.045 * (1.0 + 0.13 * (double)(i % 5)), amp = 0.3 + 0.012 * (double)k;
    const double drift = (0.8 - 0.3 * (double)(i % 4)) * (double)k / STEPS;
    const double off = j == NTRIAL - 1 ? 0.0 : 0.02 * (double)(j + 1) * cos(0.7 * (double)k);
    return amp * sin(w * (double)k + 0.4 * (double)i) + drift + off;
}

/* What the histories went through (else the comparison proves little) */
typedef struct s2_seen {
    int rest, up_first, down_first, to_tension, to_compression, mixed_blocks;
    double worst_s, worst_t; /* the largest differences, over fy and E0 */
} s2_seen;

/* The fibers on the law's entry and on the scalar kernel against NF material objects along the
 * histories, steps [k0, k1), each trial from the same committed states: the arrays c (the law's
 * layout) and the objects m, which commit the scalar kernel's and the objects' trial (the same
 * bits; the vector pow's trajectory is compared with OpenSees' in test_materials_opensees.c). */
static void drive(const s2_case *cs, const hs_fiber_law *law, size_t ld, double *c, hs_material **m,
                  int k0, int k1, s2_seen *seen)
{
    const double ey = cs->fy / cs->E0;
    const size_t ns = law->state_n, kon = law->save_n - 1; /* the branch flag: the last saved */
    double t[MAXS * LDMAX], t2[MAXS * LDMAX], e[NF], s[NF], k[NF], s2[NF], k2[NF];
    for (int step = k0; step < k1; step++) {
        const int revert = step % 37 == 0;
        for (int j = -revert; j < NTRIAL; j++) {
            for (size_t i = 0; i < NF; i++) /* j = -1: a trial far off, thrown away */
                e[i] = ey * (j < 0 ? -3.0 * strain_at(i, step, 0) : strain_at(i, step, j));
            for (size_t v = 0; v < ns * ld; v++) t[v] = t2[v] = 12345.0;
            law->trial(law->params, NF, ld, e, c, t, s, k);
            hs_steel02_fibers_scalar(law->params, NF, ld, e, c, t2, s2, k2);
            for (size_t v = 0; v < ns; v++) /* the rows' padding past the fibers: untouched */
                for (size_t i = NF; i < ld; i++) assert_true(t[v * ld + i] == 12345.0);
            int lin[3] = {0}, curve[3] = {0};
            for (size_t i = 0; i < NF; i++) {
                assert_int_equal(hs_material_set_trial(m[i], e[i], 0.0), 0);
                const double so = hs_material_stress(m[i]), ko = hs_material_tangent(m[i]);
                assert_memory_equal(&s2[i], &so, sizeof so); /* the scalar kernel: the bits */
                assert_memory_equal(&k2[i], &ko, sizeof ko);
                const double ds = fabs(s[i] - so) / cs->fy, dk = fabs(k[i] - ko) / cs->E0;
                if (ds > 1e-14 || dk > 1e-14)
                    fail_msg("%s: fiber %zu, step %d, trial %d, strain %.17g: stress %.17g / "
                             "%.17g, tangent %.17g / %.17g (object)",
                             cs->name, i, step, j, e[i], s[i], so, k[i], ko);
                seen->worst_s = fmax(seen->worst_s, ds);
                seen->worst_t = fmax(seen->worst_t, dk);
                assert_true(t[at(law, ld, i, kon)] == t2[at(law, ld, i, kon)]);
                lin[i / 4] += fabs(ko - cs->E0) <= 1e-9 * cs->E0;
                curve[i / 4] += ko < (1.0 - 1e-6) * cs->E0;
            }
            for (int b = 0; b < 3; b++) seen->mixed_blocks += lin[b] && curve[b];
            if (j < 0)
                for (size_t i = 0; i < NF; i++) assert_int_equal(hs_material_revert(m[i]), 0);
        }
        for (size_t i = 0; i < NF; i++) { /* commit */
            const double was = c[at(law, ld, i, kon)], now = t2[at(law, ld, i, kon)];
            seen->rest += now == 3.0;
            seen->up_first += (was == 0.0 || was == 3.0) && now == 1.0;
            seen->down_first += (was == 0.0 || was == 3.0) && now == 2.0;
            seen->to_tension += was == 2.0 && now == 1.0;
            seen->to_compression += was == 1.0 && now == 2.0;
            assert_int_equal(hs_material_commit(m[i]), 0);
        }
        memcpy(c, t2, ns * ld * sizeof(double));
    }
}

static void test_fibers_match_object(void **state)
{
    (void)state;
    for (size_t cs = 0; cs < sizeof CASES / sizeof CASES[0]; cs++) {
        hs_material *m[NF];
        hs_fiber_law law;
        double one[MAXS], c[MAXS * LDMAX];
        const size_t ld = cs == 1 ? LDMAX : NF; /* rows with padding past the fibers, or not */
        for (size_t i = 0; i < NF; i++) m[i] = steel02(&CASES[cs]);
        assert_int_equal(hs_material_fiber_law(m[0], &law, one), 1);
        assert_true(law.state_n <= MAXS && law.save_n == hs_material_state_size(m[0]));
        for (size_t i = 0; i < NF; i++)
            for (size_t k = 0; k < law.state_n; k++) c[at(&law, ld, i, k)] = one[k];
        s2_seen seen = {0};
        drive(&CASES[cs], &law, ld, c, m, 0, STEPS, &seen);
        print_message("    %-20s rest %d, first departures %d up %d down, reversals %d to tension "
                      "%d to compression, %d calls with elastic and curved fibers in a block; "
                      "largest differences %.2g fy, %.2g E0\n",
                      CASES[cs].name, seen.rest, seen.up_first, seen.down_first, seen.to_tension,
                      seen.to_compression, seen.mixed_blocks, seen.worst_s, seen.worst_t);
        assert_true(seen.rest > 10 && seen.up_first >= 1 && seen.down_first >= 1);
        assert_true(seen.to_tension > 50 && seen.to_compression > 50);
        assert_true(seen.mixed_blocks > 100);
        for (size_t i = 0; i < NF; i++) hs_material_destroy(&m[i]);
    }
}

/* A checkpoint gathered from the arrays at step 400 loads into new objects that
 * continue with the arrays; the law's load fills the cached values the arrays hold, to the bit; a
 * branch flag other than 0, 1, 2, 3 is refused with a message. */
static void test_checkpoint_restore(void **state)
{
    (void)state;
    const s2_case *cs = &CASES[1];
    hs_material *m[NF];
    hs_fiber_law law;
    double one[MAXS], c[MAXS * NF];
    for (size_t i = 0; i < NF; i++) m[i] = steel02(cs);
    hs_material *proto = steel02(cs); /* the law's parameters live with it */
    assert_int_equal(hs_material_fiber_law(proto, &law, one), 1);
    for (size_t i = 0; i < NF; i++)
        for (size_t k = 0; k < law.state_n; k++) c[at(&law, NF, i, k)] = one[k];
    s2_seen seen = {0};
    drive(cs, &law, NF, c, m, 0, 400, &seen);
    for (size_t i = 0; i < NF; i++) {
        double saved[MAXS], filled[MAXS], back[MAXS];
        for (size_t k = 0; k < law.state_n; k++) saved[k] = c[at(&law, NF, i, k)];
        memcpy(filled, saved, law.save_n * sizeof(double));
        for (size_t k = law.save_n; k < law.state_n; k++) filled[k] = -1.0;
        assert_int_equal(law.load(law.params, NULL, filled), 0);
        assert_memory_equal(filled, saved, law.state_n * sizeof(double));
        hs_material_destroy(&m[i]);
        m[i] = steel02(cs);
        assert_int_equal(hs_material_state_load(m[i], saved), 0);
        assert_int_equal(hs_material_state_save(m[i], back), 0);
        assert_memory_equal(back, saved, law.save_n * sizeof(double));
    }
    drive(cs, &law, NF, c, m, 400, STEPS, &seen);
    assert_true(seen.to_tension > 50 && seen.to_compression > 50);
    double bad[MAXS];
    for (size_t k = 0; k < law.state_n; k++) bad[k] = c[at(&law, NF, 0, k)];
    bad[law.save_n - 1] = 1.5;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    assert_int_equal(law.load(law.params, ctx, bad), HS_EINPUT);
    assert_string_equal(hs_ctx_message(ctx),
                        "steel02: checkpoint state has branch flag 1.5 (must be 0, 1, 2 or 3)");
    hs_ctx_destroy(&ctx);
    for (size_t i = 0; i < NF; i++) hs_material_destroy(&m[i]);
    hs_material_destroy(&proto);
}

/* The first loading from rest follows s = fy (b x + (1 - b) x / (1 + |x|^R0)^(1/R0)), x = e / e_y,
 * with the tangent its derivative E0 (b + (1 - b) / (1 + |x|^R0)^(1 + 1/R0)) (Menegotto & Pinto
 * 1973; R = R0 on the first branch), for n = 1 to 9 fibers at once, each at its own strain */
static void test_first_loading_closed_form(void **state)
{
    (void)state;
    const s2_case *cs = &CASES[0];
    hs_material *m = steel02(cs);
    hs_fiber_law law;
    double one[MAXS];
    assert_int_equal(hs_material_fiber_law(m, &law, one), 1);
    const double ey = cs->fy / cs->E0, b = cs->b, R = cs->R0;
    for (size_t n = 1; n <= 9; n++) { /* arrays of their exact sizes (ASan: nothing past them) */
        double *c = malloc(law.state_n * n * sizeof(double));
        double *t = malloc(law.state_n * n * sizeof(double));
        double *e = malloc(n * sizeof(double)), *s = malloc(n * sizeof(double));
        double *k = malloc(n * sizeof(double));
        assert_true(c && t && e && s && k);
        for (size_t i = 0; i < n; i++)
            for (size_t r = 0; r < law.state_n; r++) c[at(&law, n, i, r)] = one[r];
        /* half way first and committed (the departure from rest), then on along the branch */
        for (int half = 1; half >= 0; half--) {
            for (size_t i = 0; i < n; i++)
                e[i] = ey * (i % 2 ? -1.0 : 1.0) * 0.45 * (double)(i + 1) * (half ? 0.5 : 1.0);
            law.trial(law.params, n, n, e, c, t, s, k);
            memcpy(c, t, law.state_n * n * sizeof(double));
        }
        for (size_t i = 0; i < n; i++) {
            const double x = e[i] / ey, d = 1.0 + pow(fabs(x), R);
            const double s_th = cs->fy * (b * x + (1.0 - b) * x / pow(d, 1.0 / R));
            const double k_th = cs->E0 * (b + (1.0 - b) / pow(d, 1.0 + 1.0 / R));
            HS_ASSERT_NEAR(s[i], s_th, 1e-13 * cs->fy);
            HS_ASSERT_NEAR(k[i], k_th, 1e-13 * cs->E0);
        }
        free(c);
        free(t);
        free(e);
        free(s);
        free(k);
    }
    hs_material_destroy(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fibers_match_object),
        cmocka_unit_test(test_checkpoint_restore),
        cmocka_unit_test(test_first_loading_closed_form),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
