/* OpenFresco clients that iterate and crash, against the site server in-process (a perfect
 * one-actuator lab, a Bouc-Wen specimen, protocol A with T = [1]), driven by a raw genericClient
 * written from PROTOCOL.md's layout (tests/support/hs_ofr_peer.c):
 *
 *  - the same trial history (several Newton trials a step, the last one the converged value,
 *    then commit) sent once back to back and once with a 3 ms pause before every trial gives the
 *    same forces bit for bit: the controller runs stepwise for OpenFresco clients, so the command
 *    goes to each trial along the site's ramp and stays there, whatever the client's timing;
 *  - those forces are the Bouc-Wen material's driven directly through the positions the site's
 *    ramp visits (a stepwise command generator with the same N, ticked here): bit for bit;
 *  - and the material taken to each trial in one step from the same state (one backward-Euler
 *    step instead of the site's N sub-steps) within the bound derived below
 *    (test_one_step_bound);
 *  - a client that dies mid-test (closes without DIE) ends its test: the next client's trial
 *    d = 0 on a fresh laboratory answers f = 0 exactly, where the deformed specimen would not. */
#include "hs_ofr_peer.h"
#include "hs_test.h"

#include "hysim/cmdgen.h"
#include "hysim/material.h"
#include "hysim/options.h"
#include "hysim/site_server.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { NSTEP = 40, NTRIAL = 3, DATA = 256, RATE = 1024 };
static const double step_time = 0.01; /* N = round(0.01 * 1024) = 10 ticks a trial */
/* Newton-like trials of a step: past the converged value, short of it, then on it */
static const double trial_frac[NTRIAL] = {1.25, 0.9, 1.0};

/* Bouc-Wen (OpenSees' parameters): yield at z_u = (A0 / (gamma + beta))^(1/n) = 1 */
static const double BW_ALPHA = 0.1, BW_K0 = 2.8, BW_N = 2.0, BW_GAMMA = 0.5, BW_BETA = 0.5,
                    BW_A0 = 1.0;

static double converged(int k)
{
    return 1.5 * sin(6.283185307179586 * (double)k / (double)NSTEP) + 0.3 * sin(0.9 * (double)k);
}
static double trial(int k, int i)
{
    const double a = converged(k - 1), b = converged(k);
    return a + trial_frac[i] * (b - a);
}

/* ---- the server ---- */

typedef struct srv {
    hs_ctx *ctx;
    hs_site_file *file;
    hs_site_server *s;
    int port;
} srv;

static void srv_start(srv *v)
{
    char text[2048];
    snprintf(text, sizeof text,
             "materials:\n  bw: {type: bouc_wen, alpha: %g, k0: %g, n: %g, gamma: %g, beta: %g, "
             "A0: %g}\n"
             "site:\n  name: east\n  listen: \"127.0.0.1:0\"\n  plain: true\n  timeout: 3\n"
             "  rate: %d\n  perfect: true\n  actuators: {a1: {stroke: 10}}\n"
             "  specimen: {type: material, material: bw}\n"
             "  openfresco: {protocol_a: 0, T: [[1]], step_time: %g}\n",
             BW_ALPHA, BW_K0, BW_N, BW_GAMMA, BW_BETA, BW_A0, RATE, step_time);
    assert_int_equal(hs_ctx_create(&v->ctx), 0);
    const int rc = hs_site_file_load_string(v->ctx, text, strlen(text), "site.yaml", &v->file);
    if (rc) fprintf(stderr, "%s\n", hs_ctx_message(v->ctx));
    assert_int_equal(rc, 0);
    assert_int_equal(hs_site_server_create(v->ctx, hs_site_file_config(v->file), &v->s), 0);
    assert_int_equal(hs_site_server_start(v->s), 0);
    v->port = hs_site_server_port(v->s, HS_SITE_PORT_OFA);
    assert_true(v->port > 0);
}

static void srv_stop(srv *v)
{
    hs_site_server_status st;
    assert_int_equal(hs_site_server_stop(v->s, 5.0), 0);
    hs_site_server_status_get(v->s, &st);
    print_message("    ticks %lld, late %lld (start delay mean %.1f us, max %.1f us)\n",
                  (long long)st.ticks, (long long)st.late_ticks, 1e6 * st.late_mean,
                  1e6 * st.late_max);
    hs_site_server_destroy(&v->s);
    hs_site_file_destroy(&v->file);
    hs_ctx_destroy(&v->ctx);
}

/* Waits (at most 3 s) until the server has let its peer go. */
static void wait_disconnected(srv *v)
{
    hs_site_server_status st;
    for (int k = 0; k < 3000; k++) {
        hs_site_server_status_get(v->s, &st);
        if (!st.connected) return;
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    fail_msg("the site server still serves its peer after 3 s");
}

/* ---- a genericClient: sizes [1,1,1,0,1, 0,0,0,1,0, 256] ---- */

static int client_open(int port)
{
    const int fd = hs_ofr_connect(port);
    const int32_t sizes[11] = {1, 1, 1, 0, 1, 0, 0, 0, 1, 0, DATA};
    hs_ofr_send_sizes(fd, sizes);
    return fd;
}

/* setTrialResponse then getForce: the force of the trial */
static double client_trial(int fd, double d, double t)
{
    double m[5] = {3.0, d, 0.0, 0.0, t}, r[DATA];
    hs_ofr_send_vec(fd, m, 5, DATA);
    m[0] = 10.0;
    hs_ofr_send_vec(fd, m, 5, DATA);
    hs_ofr_recv_vec(fd, r, DATA);
    return r[0];
}

static void client_commit(int fd, double t)
{
    const double m[5] = {5.0, 0.0, 0.0, 0.0, t};
    hs_ofr_send_vec(fd, m, 5, DATA);
}

static void client_die(int fd)
{
    const double die = 99.0;
    hs_ofr_send_vec(fd, &die, 1, DATA);
    hs_ofr_expect_eof(fd);
    close(fd);
}

/* The whole history (steps 1 .. nstep), every trial's force in f[(k - 1) * NTRIAL + i]. */
static void drive(int fd, int nstep, long pause_ns, double *f)
{
    const struct timespec pause = {0, pause_ns};
    for (int k = 1; k <= nstep; k++) {
        const double t = step_time * (double)k;
        for (int i = 0; i < NTRIAL; i++) {
            if (pause_ns) nanosleep(&pause, NULL);
            f[(k - 1) * NTRIAL + i] = client_trial(fd, trial(k, i), t);
        }
        client_commit(fd, t);
    }
}

/* ---- references ---- */

static hs_material *bouc_wen(hs_ctx *ctx)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "alpha", BW_ALPHA);
    hs_options_set_num(o, "k0", BW_K0);
    hs_options_set_num(o, "n", BW_N);
    hs_options_set_num(o, "gamma", BW_GAMMA);
    hs_options_set_num(o, "beta", BW_BETA);
    hs_options_set_num(o, "A0", BW_A0);
    hs_material *m = NULL;
    assert_int_equal(hs_material_create(ctx, "bouc_wen", o, &m), 0);
    hs_options_destroy(&o);
    return m;
}

static double material_to(hs_material *m, double e)
{
    assert_int_equal(hs_material_set_trial(m, e, 0.0), 0);
    assert_int_equal(hs_material_commit(m), 0);
    return hs_material_stress(m);
}

/* The material through the positions of a stepwise command generator (the site's ramp): the
 * force at each trial in f. Before each trial, from the same committed state, the material is
 * also taken to the trial in one step (set_trial, then revert): its force in one[], and what the
 * per-trial bound of test_one_step_bound needs: the increment h, the committed z, and
 * S = sum over the ramp's ticks of (dx / h)^2. */
typedef struct trial_ref {
    double f, one, h, z_c, S;
} trial_ref;

static trial_ref ref[NSTEP * NTRIAL];

static void reference_ramp(void)
{
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_material *m = bouc_wen(ctx);
    hs_cmdgen_params p = hs_cmdgen_params_default();
    p.rate = RATE;
    p.dt = step_time;
    p.stepwise = 1;
    hs_cmdgen *g = NULL;
    assert_int_equal(hs_cmdgen_create(ctx, &p, &g), 0);
    double x = 0.0, f_c = 0.0;
    for (int k = 1; k <= NSTEP; k++)
        for (int i = 0; i < NTRIAL; i++) {
            trial_ref *r = &ref[(k - 1) * NTRIAL + i];
            const double d = trial(k, i);
            r->h = d - x;
            r->z_c = (f_c - BW_ALPHA * BW_K0 * x) / ((1.0 - BW_ALPHA) * BW_K0);
            assert_int_equal(hs_material_set_trial(m, d, 0.0), 0);
            r->one = hs_material_stress(m);
            assert_int_equal(hs_material_revert(m), 0);
            assert_int_equal(hs_cmdgen_target(g, &d), 0);
            int ev = 0;
            r->S = 0.0;
            for (int tick = 0; !(ev & HS_CMDGEN_EV_TARGET); tick++) {
                assert_true(tick < 100);
                double xn;
                ev = hs_cmdgen_tick(g, NULL, &xn);
                assert_true(ev >= 0);
                r->S += (xn - x) * (xn - x) / (r->h * r->h);
                x = xn;
                f_c = material_to(m, x);
            }
            assert_memory_equal(&x, &d, sizeof d);
            r->f = f_c;
        }
    hs_cmdgen_destroy(&g);
    hs_material_destroy(&m);
    hs_ctx_destroy(&ctx);
}

/* ---- tests ---- */

static double site_f[2][NSTEP * NTRIAL];

static void test_timing_independent(void **state)
{
    (void)state;
    srv v;
    srv_start(&v);
    for (int run = 0; run < 2; run++) {
        const int fd = client_open(v.port);
        drive(fd, NSTEP, run ? 3000000L : 0L, site_f[run]);
        client_die(fd);
        wait_disconnected(&v);
    }
    double peak = 0.0;
    for (int j = 0; j < NSTEP * NTRIAL; j++) {
        assert_memory_equal(&site_f[0][j], &site_f[1][j], sizeof(double));
        if (fabs(site_f[0][j]) > peak) peak = fabs(site_f[0][j]);
    }
    print_message("    %d trials, with and without a 3 ms pause before each: forces equal bit "
                  "for bit (peak |f| %.4g)\n",
                  NSTEP * NTRIAL, peak);
    reference_ramp();
    for (int j = 0; j < NSTEP * NTRIAL; j++)
        assert_memory_equal(&site_f[0][j], &ref[j].f, sizeof(double));
    print_message("    and equal bit for bit to the material driven through the site's ramp\n");
    srv_stop(&v);
}

/* The site's force at each trial against the material taken to the same trial in one step from
 * the same state (the ramp reference, equal to the site bit for bit). Both integrate
 * dz/de = Phi(z) = A0 - |z|^n Psi (Psi = gamma + beta sgn(de z)) by backward Euler: the site with
 * the ramp's sub-steps dx_j (monotone, sum dx_j^2 = S h^2), the one-step run with h. For the exact
 * z(e) within |z| <= z_u, z(e) = z(e + h) - h Phi(z(e + h)) + R, |R| <= h^2 / 2 max |z''|, and a
 * backward-Euler step has (1 - h Phi') (z_1 - z_ex) = (z_c - z(e)) + R with h Phi' <= 0, so its
 * errors add up without growing: the one-step run is within h^2 / 2 Z2 of the exact z, the
 * site within S h^2 / 2 Z2, with Z2 = max |Phi' Phi| = n Psi z*^(n-1) A0 n / (2n - 1) at
 * z*^n = (n - 1) A0 / ((2n - 1) Psi) (n > 1). Unloading (Psi = gamma - beta = 0 here, Phi = A0)
 * is exact in both when z keeps its sign: z_c and z_c + A0 h both of the sign opposite to h.
 * Hence per trial, with Newton's tolerance 1e-8 z_u for each of the N + 1 solves:
 *   |f_site - f_one| <= (1 - alpha) k0 (Z2 h^2 (1 + S) / 2 [loading] + (N + 1) 1e-8 z_u). */
static void test_one_step_bound(void **state)
{
    (void)state;
    const double psi = BW_GAMMA + BW_BETA, zu = pow(BW_A0 / psi, 1.0 / BW_N);
    const double zs = pow((BW_N - 1.0) * BW_A0 / ((2.0 * BW_N - 1.0) * psi), 1.0 / BW_N);
    const double Z2 = BW_N * psi * pow(zs, BW_N - 1.0) * BW_A0 * BW_N / (2.0 * BW_N - 1.0);
    const double N = floor(step_time * RATE + 0.5), tol = (N + 1.0) * 1e-8 * zu;
    double worst = 0.0, worst_ratio = 0.0, worst_unload = 0.0;
    int loading = 0;
    for (int j = 0; j < NSTEP * NTRIAL; j++) {
        const trial_ref *r = &ref[j];
        const int unload = r->h * r->z_c < 0.0 && r->h * (r->z_c + BW_A0 * r->h) < 0.0;
        const double bound = (1.0 - BW_ALPHA) * BW_K0 *
                             ((unload ? 0.0 : Z2 * r->h * r->h * (1.0 + r->S) / 2.0) + tol);
        const double e = fabs(r->f - r->one);
        assert_true(e <= bound);
        if (e > worst) worst = e;
        if (!unload && e / bound > worst_ratio) worst_ratio = e / bound;
        if (unload && e > worst_unload) worst_unload = e;
        loading += !unload;
    }
    print_message("    site vs the material taken to each trial in one step: max |df| %.4g; "
                  "%d loading trials within their bounds (largest share %.2f, Z2 %.4f), "
                  "%d unloading ones within %.3g\n",
                  worst, loading, worst_ratio, Z2, NSTEP * NTRIAL - loading, worst_unload);
    assert_true(worst > 0.0); /* the sub-stepping is there: the two are different integrations */
}

static void test_lost_client_ends_test(void **state)
{
    (void)state;
    srv v;
    srv_start(&v);
    /* the first client deforms the specimen past yield, then vanishes without DIE */
    static double f[NSTEP * NTRIAL];
    int fd = client_open(v.port);
    drive(fd, NSTEP / 2, 0L, f);
    const double residual = f[(NSTEP / 2 - 1) * NTRIAL + NTRIAL - 1];
    close(fd);
    wait_disconnected(&v);
    hs_site_server_status st;
    hs_site_server_status_get(v.s, &st);
    assert_int_equal(st.lost, 1);
    /* the same path on the first client's lab: returning to 0 leaves a force (hysteresis) */
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_material *m = bouc_wen(ctx);
    for (int k = 1; k <= NSTEP / 2; k++)
        for (int i = 0; i < NTRIAL; i++) material_to(m, trial(k, i));
    const double used = material_to(m, 0.0);
    hs_material_destroy(&m);
    hs_ctx_destroy(&ctx);
    /* the next client starts a new test on a fresh laboratory: d = 0 gives f = 0 */
    fd = client_open(v.port);
    const double f0 = client_trial(fd, 0.0, step_time);
    client_die(fd);
    print_message("    after a lost client (force %.4g at its last trial): d = 0 gives f = %g on "
                  "the fresh laboratory (%.4g on the used one)\n",
                  residual, f0, used);
    assert_true(fabs(used) > 0.1);
    HS_ASSERT_NEAR(f0, 0.0, 0.0);
    srv_stop(&v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timing_independent),
        cmocka_unit_test(test_one_step_bound),
        cmocka_unit_test(test_lost_client_ends_test),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
