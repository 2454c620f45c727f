/* The hybrid integrators of Mosqueda & Ahmadizadeh 2008a and 2008b and their two estimators:
 *  - force estimator: exact on quadratic histories, refuses out-of-limit and complex times;
 *  - tangent estimator: recovers a known coupled stiffness (given T_p, and by diagonalisation);
 *    no update below the threshold; non-positive parameters are rejected;
 *  - numerical-only runs of os_tangent and implicit_hht_fe are hht;
 *  - a perfect linear experiment (measured = commanded, f = K_l x) gives the whole-numerical hht;
 *  - with a lagging actuator implicit_hht_fe stays bounded where newmark_explicit grows;
 *  - nothing allocates in 500 hybrid steps.
 * The experiment is simulated here: a 2-DOF shear building whose story springs are partly
 * experimental, two actuators imposing the story drifts (T = [1 0; -1 1]), a controller at
 * N ticks per step ramping linearly between commands, optionally a first-order actuator lag
 * x_m(k+1) = x_m(k) + (x_target(k+1) - x_m(k)) / a (ALGORITHMS.md, Chen & Ricles 2010 model). */
#include "hs_test.h"

#include "integrators/force_estimator.h"
#include "integrators/tangent_estimator.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- force estimator ------------------------------------------------------------------------ */

static double quad(const double c[3], double s)
{
    return c[0] + s * (c[1] + s * c[2]);
}

static void test_force_estimator_quadratic(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    /* x_j(t), f_j(t) quadratic in s = t - 0.01; actuator 1's x has its vertex at s = 0.015 */
    const double cx[2][3] = {{0.002, 0.5, 3.0}, {-0.001, -0.3, 10.0}};
    const double cf[2][3] = {{100.0, 2000.0, -5e4}, {-40.0, 900.0, 3e4}};
    double t[8], x[16], f[16];
    for (int k = 0; k < 8; k++) {
        t[k] = 0.01 + 0.001 * k;
        for (int j = 0; j < 2; j++) {
            x[k * 2 + j] = quad(cx[j], t[k] - 0.01);
            f[k * 2 + j] = quad(cf[j], t[k] - 0.01);
        }
    }
    hs_force_estimator *fe = NULL;
    assert_int_equal(hs_force_estimator_create(ctx, 2, 0.005, &fe), 0);
    assert_int_equal(hs_force_estimator_fit(fe, 8, t, x, f), 0);
    /* inside the fitted samples (0.014 .. 0.017), at the last, and beyond it */
    const double times[5] = {0.0145, 0.0163, 0.017, 0.0185, 0.0215};
    for (int i = 0; i < 5; i++) {
        double xt[2], fe_f[2], te[2];
        for (int j = 0; j < 2; j++) xt[j] = quad(cx[j], times[i] - 0.01);
        assert_int_equal(hs_force_estimator_estimate(fe, xt, fe_f, te, NULL), 0);
        for (int j = 0; j < 2; j++) {
            const double fx = quad(cf[j], times[i] - 0.01);
            printf("  t* %.4f actuator %d: time %.15f, force %.15g (exact %.15g)\n", times[i], j,
                   te[j], fe_f[j], fx);
            HS_ASSERT_NEAR(fe_f[j], fx, 1e-12 * fabs(fx));
            HS_ASSERT_NEAR(te[j], times[i], 1e-12 * times[i]);
        }
    }
    /* beyond the limit: 0.0235 is 6.5 ms after the last sample, the limit is 5 ms */
    double xt[2], ff[2];
    int which = -1;
    for (int j = 0; j < 2; j++) xt[j] = quad(cx[j], 0.0235 - 0.01);
    assert_int_equal(hs_force_estimator_estimate(fe, xt, ff, NULL, &which), 1);
    assert_int_equal(which, 0);
    /* actuator 1 never goes below its vertex value -0.00325: no real time */
    xt[0] = quad(cx[0], 0.016 - 0.01);
    xt[1] = -0.004;
    assert_int_equal(hs_force_estimator_estimate(fe, xt, ff, NULL, &which), 1);
    assert_int_equal(which, 1);
    /* too few samples or times not increasing: no fit */
    assert_int_equal(hs_force_estimator_fit(fe, 2, t, x, f), 1);
    const double tbad[4] = {0.0, 0.001, 0.001, 0.002};
    assert_int_equal(hs_force_estimator_fit(fe, 4, tbad, x, f), 1);
    assert_int_equal(hs_force_estimator_estimate(fe, xt, ff, NULL, NULL), 1);
    hs_force_estimator_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

/* ---- tangent estimator ---------------------------------------------------------------------- */

static void shear2(double k1, double k2, double K[4]) /* [[k1 + k2, -k2], [-k2, k2]] */
{
    K[0] = k1 + k2;
    K[1] = -k2;
    K[2] = -k2;
    K[3] = k2;
}

static double max_diff(int n, const double *a, const double *b)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(a[i] - b[i]));
    return m;
}

static void test_tangent_given_tp(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const double Tp[4] = {1.0, -1.0, 0.0, 1.0}; /* drifts: x_p = (x1, x2 - x1) */
    double K0[4], Kt[4];
    shear2(250.0, 150.0, K0);
    shear2(300.0, 120.0, Kt);
    hs_tangent_estimator *te = NULL;
    assert_int_equal(hs_tangent_create(ctx, 2, K0, Tp, &te), 0);
    hs_tangent_set_threshold(te, 1e-4);
    double x0[2] = {0.01, 0.02}, x1[2] = {0.013, 0.018}, r0[2], r1[2];
    hs_matvec(2, Kt, x0, r0);
    hs_matvec(2, Kt, x1, r1);
    assert_int_equal(hs_tangent_update(te, x0, x1, r0, r1), 1);
    printf("  given T_p: K = [%.12g %.12g; %.12g %.12g] (exact [420 -120; -120 120])\n",
           hs_tangent_matrix(te)[0], hs_tangent_matrix(te)[2], hs_tangent_matrix(te)[1],
           hs_tangent_matrix(te)[3]);
    assert_true(max_diff(4, hs_tangent_matrix(te), Kt) <= 1e-10 * 420.0);
    /* below the threshold (||dx||_inf = 5e-5 < 1e-4): kept, even with other forces */
    double x2[2] = {0.01305, 0.01797}, r2[2] = {1e3, -1e3}, Kkeep[4];
    memcpy(Kkeep, hs_tangent_matrix(te), sizeof Kkeep);
    assert_int_equal(hs_tangent_update(te, x1, x2, r1, r2), 0);
    assert_true(max_diff(4, hs_tangent_matrix(te), Kkeep) == 0.0);
    /* a softening story 2 (k2 = -50): rejected, story 1 updated (k1 = 200) */
    double Ks[4], x3[2] = {0.016, 0.024}, r3[2], dr[2], dx[2] = {0.003, 0.006};
    shear2(200.0, -50.0, Ks);
    hs_matvec(2, Ks, dx, dr);
    for (int i = 0; i < 2; i++) r3[i] = r1[i] + dr[i];
    assert_int_equal(hs_tangent_update(te, x1, x3, r1, r3), 1);
    double Kx[4];
    shear2(200.0, 120.0, Kx);
    printf("  softening story 2 rejected: K = [%.12g %.12g; %.12g %.12g]\n",
           hs_tangent_matrix(te)[0], hs_tangent_matrix(te)[2], hs_tangent_matrix(te)[1],
           hs_tangent_matrix(te)[3]);
    assert_true(max_diff(4, hs_tangent_matrix(te), Kx) <= 1e-10 * 320.0);
    /* threshold from noise (Mosqueda & Ahmadizadeh 2008b, eq. 5.9): max(10 x 2e-5, 10 x 0.5 / 120)
     */
    const double nd[2] = {1e-5, 2e-5}, nf[2] = {0.1, 0.5};
    HS_ASSERT_NEAR(hs_tangent_noise_threshold(2, Kt, nd, nf), 10.0 * 0.5 / 120.0, 1e-15);
    HS_ASSERT_NEAR(hs_tangent_noise_threshold(2, Kt, nd, NULL), 2e-4, 1e-18);
    hs_tangent_destroy(&te);
    hs_ctx_destroy(&ctx);
}

static void test_tangent_diagonalisation(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    double Kt[4];
    shear2(300.0, 120.0, Kt);
    /* closed-form eigenpairs of [[a, b], [b, c]] */
    const double a = Kt[0], b = Kt[2], c = Kt[3];
    const double mid = 0.5 * (a + c), rad = sqrt(0.25 * (a - c) * (a - c) + b * b);
    const double lam[2] = {mid - rad, mid + rad};
    double phi[4];
    for (int k = 0; k < 2; k++) {
        const double u = b, w = lam[k] - a, nrm = sqrt(u * u + w * w);
        phi[2 * k] = u / nrm;
        phi[2 * k + 1] = w / nrm;
    }
    /* K0 with the same eigenvectors and other eigenvalues: Phi diag(0.7 l1, 1.3 l2) Phi^T */
    double K0[4] = {0};
    const double l0[2] = {0.7 * lam[0], 1.3 * lam[1]};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 2; k++) K0[j * 2 + i] += phi[2 * k + i] * l0[k] * phi[2 * k + j];
    hs_tangent_estimator *te = NULL;
    assert_int_equal(hs_tangent_create(ctx, 2, K0, NULL, &te), 0);
    double x[2] = {0.0, 0.0}, r[2] = {0.0, 0.0};
    const double steps[6][2] = {{0.004, 0.001},  {-0.002, 0.005},  {0.003, -0.004},
                                {0.0007, 0.002}, {-0.005, -0.001}, {0.001, 0.0035}};
    for (int s = 0; s < 6; s++) {
        double x1[2] = {x[0] + steps[s][0], x[1] + steps[s][1]}, r1[2];
        hs_matvec(2, Kt, x1, r1);
        assert_int_equal(hs_tangent_update(te, x, x1, r, r1), 1);
        const double err = max_diff(4, hs_tangent_matrix(te), Kt);
        printf("  diagonalisation, update %d: max |K - K_true| = %.3e\n", s + 1, err);
        assert_true(err <= 1e-10 * 420.0);
        memcpy(x, x1, sizeof x);
        memcpy(r, r1, sizeof r);
    }
    hs_tangent_destroy(&te);
    /* not positive-definite: refused */
    double Kbad[4];
    shear2(100.0, -200.0, Kbad);
    assert_int_equal(hs_tangent_create(ctx, 2, Kbad, NULL, &te), HS_EINPUT);
    printf("  %s\n", hs_ctx_message(ctx));
    hs_ctx_destroy(&ctx);
}

/* ---- the simulated structure and lab -------------------------------------------------------- */

#define NT 10 /* controller ticks per integration step */

typedef struct lab {
    double ke[2]; /* story stiffness of the specimen (actuator j imposes drift j) */
    double lag;   /* first-order lag in ticks (1: perfect tracking) */
    double xc_prev[2], xm[2];
    double ht[HS_EXP_HISTORY], hx[2 * HS_EXP_HISTORY], hf[2 * HS_EXP_HISTORY];
    double xcmd[2], xmeas[2], fmeas[2];
    double T[4], K0l[4];
    hs_experiment exp;
} lab;

static void lab_init(lab *L, double ke1, double ke2, double lag)
{
    memset(L, 0, sizeof *L);
    L->ke[0] = ke1;
    L->ke[1] = ke2;
    L->lag = lag;
    const double T[4] = {1.0, -1.0, 0.0, 1.0};
    memcpy(L->T, T, sizeof T);
    L->K0l[0] = ke1;
    L->K0l[3] = ke2;
    hs_experiment e = {.nact = 2,
                       .ndof = 2,
                       .T = L->T,
                       .K0l = L->K0l,
                       .Tp = NULL,
                       .x_cmd = L->xcmd,
                       .x_meas = L->xmeas,
                       .f_meas = L->fmeas,
                       .nhist = 0,
                       .hist_t = L->ht,
                       .hist_x = L->hx,
                       .hist_f = L->hf};
    L->exp = e;
}

/* One integration step in the lab: ramp from the last command to x_c over NT ticks. */
static void lab_step(lab *L, double t0, double dt, const double *xc)
{
    for (int k = 1; k <= NT; k++) {
        const double s = (double)k / NT;
        for (int j = 0; j < 2; j++) {
            const double target = L->xc_prev[j] + s * (xc[j] - L->xc_prev[j]);
            L->xm[j] += (target - L->xm[j]) / L->lag;
        }
        if (L->exp.nhist == HS_EXP_HISTORY) {
            memmove(L->ht, L->ht + 1, (HS_EXP_HISTORY - 1) * sizeof(double));
            memmove(L->hx, L->hx + 2, 2 * (HS_EXP_HISTORY - 1) * sizeof(double));
            memmove(L->hf, L->hf + 2, 2 * (HS_EXP_HISTORY - 1) * sizeof(double));
            L->exp.nhist--;
        }
        const int m = L->exp.nhist++;
        L->ht[m] = t0 + s * dt;
        for (int j = 0; j < 2; j++) {
            L->hx[2 * m + j] = L->xm[j];
            L->hf[2 * m + j] = L->ke[j] * L->xm[j];
        }
    }
    for (int j = 0; j < 2; j++) {
        L->xcmd[j] = L->xc_prev[j] = xc[j];
        L->xmeas[j] = L->xm[j];
        L->fmeas[j] = L->ke[j] * L->xm[j];
    }
    L->exp.t_meas = t0 + dt;
}

/* K = T^T diag(k) T for the drift transformation */
static void story_matrix(double k1, double k2, double K[4])
{
    shear2(k1, k2, K);
}

typedef struct building {
    double M[4], C[4], Kn[4], Ke[4], Kall[4];
    hs_test_linear num, all; /* r = Kn d, r = Kall d */
} building;

/* m = 1, 1; numerical stories kn, experimental ke; Rayleigh damping xi in both modes of Kall */
static void building_init(building *b, const double kn[2], const double ke[2], double xi)
{
    memset(b, 0, sizeof *b);
    b->M[0] = b->M[3] = 1.0;
    story_matrix(kn[0], kn[1], b->Kn);
    story_matrix(ke[0], ke[1], b->Ke);
    for (int k = 0; k < 4; k++) b->Kall[k] = b->Kn[k] + b->Ke[k];
    const double a = b->Kall[0], c = b->Kall[3], off = b->Kall[1];
    const double mid = 0.5 * (a + c), rad = sqrt(0.25 * (a - c) * (a - c) + off * off);
    const double w1 = sqrt(mid - rad), w2 = sqrt(mid + rad);
    const double a0 = 2.0 * xi * w1 * w2 / (w1 + w2), a1 = 2.0 * xi / (w1 + w2);
    for (int k = 0; k < 4; k++) b->C[k] = a0 * b->M[k] + a1 * b->Kall[k];
    b->num = (hs_test_linear){2, b->Kn};
    b->all = (hs_test_linear){2, b->Kall};
}

/* smooth ground motion for 3 s, then free vibration: f = -M 1 ag */
static double ground(double t)
{
    if (t >= 3.0) return 0.0;
    return 2.0 * sin(9.0 * t) * 0.5 * (1.0 - cos(2.0 * HS_PI * t / 3.0));
}

typedef struct run {
    double *d; /* 2 per step */
    int steps, converged, fallbacks, updates;
    uint64_t allocations;
} run;

/* Runs `type` for nsteps; lab NULL: the whole numerical model; otherwise the hybrid model with
 * the simulated lab (dyn.exp set so nothing allocates in the steps). use_exp 0 gives the
 * integrator only r_exp (what newmark_explicit takes). */
static void run_model(const char *type, const hs_options *o, building *b, lab *L, int use_exp,
                      double dt, int nsteps, run *out)
{
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_dynamics dyn = {.n = 2,
                       .M = b->M,
                       .C = b->C,
                       .K0 = b->Kall,
                       .Ke = L ? b->Ke : NULL,
                       .restore = hs_test_linear_restore,
                       .commit = hs_test_commit_nothing,
                       .user = L ? (void *)&b->num : (void *)&b->all,
                       .linear = 1,
                       .exp = L && use_exp ? &L->exp : NULL};
    hs_integrator *it = NULL;
    assert_int_equal(hs_integrator_create(ctx, type, o, &it), 0);
    const double z[2] = {0, 0};
    int rc = hs_integrator_setup(it, &dyn, dt, z, z, z);
    if (rc) fail_msg("%s: %s", type, hs_ctx_message(ctx));
    out->steps = out->converged = out->fallbacks = out->updates = 0;
    const uint64_t before = hs_alloc_count();
    double f0[2] = {0, 0}, f1[2], dcmd[2], xc[2], rexp[2];
    for (int n = 0; n < nsteps; n++) {
        const double ag = ground((n + 1) * dt);
        f1[0] = -b->M[0] * ag;
        f1[1] = -b->M[3] * ag;
        hs_step_io io = {.step = n, .t = n * dt, .f_n = f0, .f_n1 = f1, .d_cmd = dcmd};
        rc = hs_integrator_predict(it, &io);
        if (!rc && L) {
            xc[0] = dcmd[0];
            xc[1] = dcmd[1] - dcmd[0];
            lab_step(L, n * dt, dt, xc);
            rexp[0] = L->fmeas[0] - L->fmeas[1]; /* T^T f */
            rexp[1] = L->fmeas[1];
            io.r_exp = rexp;
            if (use_exp) io.exp = &L->exp;
        }
        if (!rc) rc = hs_integrator_correct(it, &io);
        if (rc == HS_EUNSTABLE) { /* runaway: keep the steps done */
            out->d[2 * n] = out->d[2 * n + 1] = INFINITY;
            hs_ctx_clear(ctx);
            break;
        }
        if (rc) fail_msg("%s step %d: %s", type, n + 1, hs_ctx_message(ctx));
        out->steps++;
        out->fallbacks += io.fallback;
        out->converged += L && use_exp && !io.fallback;
        out->updates += io.stiffness_updated;
        memcpy(out->d + 2 * n, hs_integrator_displacement(it), 2 * sizeof(double));
        memcpy(f0, f1, sizeof f0);
    }
    out->allocations = hs_alloc_count() - before;
    hs_integrator_destroy(&it);
    hs_ctx_destroy(&ctx);
}

/* ---- numerical-only: the hybrid integrators are hht ----------------------------------------- */

static void test_numerical_is_hht(void **state)
{
    (void)state;
    const double kn[2] = {400.0, 300.0}, ke[2] = {0.0, 0.0};
    building b;
    building_init(&b, kn, ke, 0.02);
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_num(o, "alpha", -0.1);
    const int N = 300;
    double dh[600], dx[600];
    run rh = {.d = dh}, rx = {.d = dx};
    run_model("hht", o, &b, NULL, 0, 0.01, N, &rh);
    const char *types[2] = {"os_tangent", "implicit_hht_fe"};
    for (int t = 0; t < 2; t++) {
        run_model(types[t], o, &b, NULL, 0, 0.01, N, &rx);
        const double peak = hs_norm_inf(2 * N, dh), diff = max_diff(2 * N, dh, dx);
        printf("  %-16s numerical model vs hht: max difference %.2e (peak %.4f)\n", types[t], diff,
               peak);
        assert_int_equal(rx.steps, N);
        assert_true(diff <= 1e-8 * peak);
    }
    hs_options_destroy(&o);
}

/* ---- a perfect linear experiment ------------------------------------------------------------ */

static void test_perfect_experiment(void **state)
{
    (void)state;
    const double kn[2] = {150.0, 100.0}, ke[2] = {250.0, 200.0};
    building b;
    building_init(&b, kn, ke, 0.02);
    const int N = 400;
    const double dt = 0.01;
    static double dref[800], dx[800];
    run rr = {.d = dref}, rx = {.d = dx};
    run_model("hht", NULL, &b, NULL, 0, dt, N, &rr);
    const double peak = hs_norm_inf(2 * N, dref);
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_str(o, "fallback", "os_tangent");
    const char *types[2] = {"os_tangent", "implicit_hht_fe"};
    for (int t = 0; t < 2; t++) {
        lab L;
        lab_init(&L, ke[0], ke[1], 1.0);
        run_model(types[t], o, &b, &L, 1, dt, N, &rx);
        const double diff = max_diff(2 * N, dref, dx);
        printf("  %-16s perfect lab vs whole-numerical hht: max difference %.2e (peak %.4f); "
               "fallbacks %d of %d steps, tangent updates %d\n",
               types[t], diff, peak, rx.fallbacks, N, rx.updates);
        assert_int_equal(rx.steps, N);
        assert_true(diff <= 1e-9 * peak);
        if (t == 1) assert_true(rx.converged > N / 2); /* the estimated forces carry the run */
    }
    /* with the explicit fallback the refused steps are explicit: close, not equal */
    lab L;
    lab_init(&L, ke[0], ke[1], 1.0);
    run_model("implicit_hht_fe", NULL, &b, &L, 1, dt, N, &rx);
    printf("  implicit_hht_fe  (explicit fallback) vs hht: max difference %.2e, %d fallbacks\n",
           max_diff(2 * N, dref, dx), rx.fallbacks);
    assert_true(max_diff(2 * N, dref, dx) <= 1e-2 * peak);
    hs_options_destroy(&o);
}

/* ---- a lagging actuator --------------------------------------------------------------------- */

/* largest |d| over steps [from, to) */
static double peak_between(const run *r, int from, int to)
{
    double m = 0.0;
    for (int n = from; n < to && n <= r->steps; n++) /* d[steps] is INFINITY after a runaway */
        m = fmax(m, fmax(fabs(r->d[2 * n]), fabs(r->d[2 * n + 1])));
    return m;
}

static void test_lagging_actuator(void **state)
{
    (void)state;
    const double kn[2] = {100.0, 80.0}, ke[2] = {900.0, 700.0};
    building b;
    building_init(&b, kn, ke, 0.01);
    const int N = 700;
    const double dt = 0.01, lag = 4.0;
    static double de[1400], df[1400];
    run re = {.d = de}, rf = {.d = df};
    lab L;
    lab_init(&L, ke[0], ke[1], lag);
    run_model("newmark_explicit", NULL, &b, &L, 0, dt, N, &re);
    lab_init(&L, ke[0], ke[1], lag);
    run_model("implicit_hht_fe", NULL, &b, &L, 1, dt, N, &rf);
    static double dos[1400];
    run ro = {.d = dos};
    lab_init(&L, ke[0], ke[1], lag);
    run_model("os_tangent", NULL, &b, &L, 1, dt, N, &ro);
    const double po = peak_between(&ro, 0, 300), po_end = peak_between(&ro, 600, 700);
    const double pe = peak_between(&re, 0, 300), pe_end = peak_between(&re, 600, 700);
    const double pf = peak_between(&rf, 0, 300), pf_end = peak_between(&rf, 600, 700);
    printf("  lag %.0f ticks of %d per step\n", lag, NT);
    printf("  newmark_explicit: peak %.4g during the motion, %.4g in 6-7 s (ratio %.3g), %d "
           "steps\n",
           pe, pe_end, pe_end / pe, re.steps);
    printf("  implicit_hht_fe : peak %.4g during the motion, %.4g in 6-7 s (ratio %.3g); "
           "implicit steps %d of %d (%.1f %%), fallbacks %d, tangent updates %d; "
           "allocations in %d steps: %llu\n",
           pf, pf_end, pf_end / pf, rf.converged, rf.steps, 100.0 * rf.converged / rf.steps,
           rf.fallbacks, rf.updates, N, (unsigned long long)rf.allocations);
    printf("  os_tangent      : peak %.4g during the motion, %.4g in 6-7 s (ratio %.3g), "
           "tangent updates %d\n",
           po, po_end, po_end / po, ro.updates);
    assert_int_equal(rf.steps, N);
    assert_int_equal(ro.steps, N);
    assert_true(po_end < 0.5 * po);
    assert_true(rf.converged > N / 2);
    assert_true(pf_end < 0.5 * pf);                 /* decays after the motion */
    assert_true(re.steps < N || pe_end > 2.0 * pe); /* the explicit run grows */
    assert_true(rf.allocations == 0);
}

/* ---- no allocation ----------------------------------------------------------------------------
 */

static void test_no_allocation(void **state)
{
    (void)state;
    const double kn[2] = {150.0, 100.0}, ke[2] = {250.0, 200.0};
    building b;
    building_init(&b, kn, ke, 0.02);
    static double d[1000];
    run r = {.d = d};
    const char *types[2] = {"os_tangent", "implicit_hht_fe"};
    for (int t = 0; t < 2; t++) {
        lab L;
        lab_init(&L, ke[0], ke[1], 3.0);
        run_model(types[t], NULL, &b, &L, 1, 0.01, 500, &r);
        printf("  %-16s allocations during 500 hybrid steps: %llu\n", types[t],
               (unsigned long long)r.allocations);
        assert_int_equal(r.steps, 500);
        assert_true(r.allocations == 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_force_estimator_quadratic),
        cmocka_unit_test(test_tangent_given_tp),
        cmocka_unit_test(test_tangent_diagonalisation),
        cmocka_unit_test(test_numerical_is_hht),
        cmocka_unit_test(test_perfect_experiment),
        cmocka_unit_test(test_lagging_actuator),
        cmocka_unit_test(test_no_allocation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
