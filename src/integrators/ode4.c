/* The classical fourth-order Runge-Kutta method (Simulink's fixed-step solver ode4) on the first-
 * order form q = [d, v], q' = [v, M^-1 (f(t) - C v - r(d, v) - r_e(d))], one step of length dt:
 * the external force linear over the step (f_n, their mean, f_n+1 at the stages), the
 * experimental force held over the step as measured `force_delay` steps before the newest reply
 * (0: the newest), linearised with the experimental stiffness about its own command,
 *   r_e(d) = r_exp(j) + Ke (d - d_cmd(j)),
 * which is exact for a linear elastic substructure on a perfect site and leaves a measured force
 * held as it is where the test file gives the substructure initial_stiffness 0. This is the loop
 * of the RTHS benchmark's Simulink model (Silva et al. 2020; vRTHS_MDOF_SimRT_PI.slx run by
 * F3_simulation_PI.m with ode4, the block "Unit Delay1" on the fed-back force: force_delay 1;
 * docs/rths_benchmark.md, "The benchmark as a test file").
 *
 * predict takes the whole step and commands d(n+1); correct files the measured force and commits.
 * Before the first replies the force is that of the initial state at rest, Ke d0 (the Unit
 * Delay's initial 0 for the benchmark). Dense path only. */
#include "integrator_impl.h"

#include <math.h>
#include <string.h>

#define ODE4_MAX_DELAY 8

const hs_param_spec hs_ode4_params[] = {
    {"force_delay", HS_PARAM_NUM, 0,
     "the measured force of this many steps before the newest reply (default 0; the RTHS "
     "benchmark's Unit Delay: 1)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

typedef struct ode4 {
    int delay;
    hs_linsolver *mass; /* M, factored once */
    double *hist_r;     /* (delay + 1) x n: replies, newest first */
    double *hist_d;     /* their commands */
    double *k, *s, *r;  /* stage rates (4 x 2n), stage state (2n), force work (n) */
    double *d1, *v1;    /* the step's end state (predict) */
} ode4;

static void ode4_free(ode4 *s)
{
    hs_linsolver_destroy(&s->mass);
    double **arrays[] = {&s->hist_r, &s->hist_d, &s->k, &s->s, &s->r, &s->d1, &s->v1};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
        hs_free(*arrays[i]);
        *arrays[i] = NULL;
    }
}

static int ode4_setup(hs_integrator *it)
{
    ode4 *s = it->data;
    ode4_free(s);
    const size_t n = (size_t)it->n, nh = (size_t)(s->delay + 1) * n;
    s->hist_r = hs_dvec(nh);
    s->hist_d = hs_dvec(nh);
    s->k = hs_dvec(8 * n);
    s->s = hs_dvec(2 * n);
    s->r = hs_dvec(n);
    s->d1 = hs_dvec(n);
    s->v1 = hs_dvec(n);
    if (!s->hist_r || !s->hist_d || !s->k || !s->s || !s->r || !s->d1 || !s->v1) return HS_ENOMEM;
    for (int j = 0; j <= s->delay; j++) { /* at rest in the initial state: r_e = Ke d0 */
        memcpy(s->hist_d + (size_t)j * n, it->d, n * sizeof(double));
        if (it->dyn.Ke) hs_matvec(it->n, it->dyn.Ke, it->d, s->hist_r + (size_t)j * n);
    }
    int rc = hs_int_linsolver(it, it->kd, &s->mass);
    if (!rc) rc = hs_linsolver_factor(s->mass, it->dyn.M);
    return rc;
}

/* dq = q' at q = [d, v] under the external force f */
static int ode4_rate(hs_integrator *it, const double *q, const double *f, double *dq)
{
    ode4 *s = it->data;
    const int n = it->n;
    const double *d = q, *v = q + n;
    int rc = it->dyn.restore(it->dyn.user, d, v, s->r, NULL, NULL);
    if (rc) return rc;
    double *acc = dq + n;
    for (int i = 0; i < n; i++) acc[i] = f[i] - s->r[i];
    hs_int_matvec_add(it, HS_INT_C, v, -1.0, acc);
    if (it->dyn.Ke) { /* the held experimental force, linearised about its command */
        const double *rj = s->hist_r + (size_t)s->delay * (size_t)n;
        const double *dj = s->hist_d + (size_t)s->delay * (size_t)n;
        for (int i = 0; i < n; i++) {
            double re = rj[i];
            for (int j = 0; j < n; j++) re += HS_AT(it->dyn.Ke, n, i, j) * (d[j] - dj[j]);
            acc[i] -= re;
        }
    }
    memcpy(dq, v, (size_t)n * sizeof(double));
    return hs_linsolver_solve(s->mass, acc);
}

static int ode4_predict(hs_integrator *it, hs_step_io *io)
{
    ode4 *s = it->data;
    const int n = it->n, m = 2 * n;
    const double h = it->dt;
    double *k1 = s->k, *k2 = k1 + m, *k3 = k2 + m, *k4 = k3 + m, *fm = s->d1;
    for (int i = 0; i < n; i++) fm[i] = 0.5 * (io->f_n[i] + io->f_n1[i]);
    memcpy(s->s, it->d, (size_t)n * sizeof(double));
    memcpy(s->s + n, it->v, (size_t)n * sizeof(double));
    int rc = ode4_rate(it, s->s, io->f_n, k1);
    for (int i = 0; i < n && !rc; i++) {
        s->s[i] = it->d[i] + 0.5 * h * k1[i];
        s->s[n + i] = it->v[i] + 0.5 * h * k1[n + i];
    }
    if (!rc) rc = ode4_rate(it, s->s, fm, k2);
    for (int i = 0; i < n && !rc; i++) {
        s->s[i] = it->d[i] + 0.5 * h * k2[i];
        s->s[n + i] = it->v[i] + 0.5 * h * k2[n + i];
    }
    if (!rc) rc = ode4_rate(it, s->s, fm, k3);
    for (int i = 0; i < n && !rc; i++) {
        s->s[i] = it->d[i] + h * k3[i];
        s->s[n + i] = it->v[i] + h * k3[n + i];
    }
    if (!rc) rc = ode4_rate(it, s->s, io->f_n1, k4);
    if (rc) return rc;
    for (int i = 0; i < n; i++) {
        s->d1[i] = it->d[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        s->v1[i] = it->v[i] + h / 6.0 * (k1[n + i] + 2.0 * k2[n + i] + 2.0 * k3[n + i] + k4[n + i]);
    }
    if (!hs_int_check_finite(it, s->d1, "displacement")) return HS_EUNSTABLE;
    memcpy(io->d_cmd, s->d1, (size_t)n * sizeof(double));
    return 0;
}

static int ode4_correct(hs_integrator *it, hs_step_io *io)
{
    ode4 *s = it->data;
    const size_t n = (size_t)it->n;
    if (io->r_exp) { /* file the reply, newest first */
        memmove(s->hist_r + n, s->hist_r, (size_t)s->delay * n * sizeof(double));
        memmove(s->hist_d + n, s->hist_d, (size_t)s->delay * n * sizeof(double));
        memcpy(s->hist_r, io->r_exp, n * sizeof(double));
        memcpy(s->hist_d, io->d_cmd, n * sizeof(double));
    }
    /* the acceleration at t_n+1 as the next step's first stage sees it */
    memcpy(s->s, s->d1, n * sizeof(double));
    memcpy(s->s + n, s->v1, n * sizeof(double));
    int rc = ode4_rate(it, s->s, io->f_n1, s->k);
    if (rc) return rc;
    memcpy(it->d, s->d1, n * sizeof(double));
    memcpy(it->v, s->v1, n * sizeof(double));
    memcpy(it->a, s->k + n, n * sizeof(double));
    return it->dyn.commit(it->dyn.user);
}

static size_t ode4_state_size(const hs_integrator *it)
{
    const ode4 *s = it->data;
    return 2 * (size_t)(s->delay + 1) * (size_t)it->n;
}

static int ode4_state_save(const hs_integrator *it, double *out)
{
    const ode4 *s = it->data;
    const size_t nh = (size_t)(s->delay + 1) * (size_t)it->n;
    memcpy(out, s->hist_r, nh * sizeof(double));
    memcpy(out + nh, s->hist_d, nh * sizeof(double));
    return 0;
}

static int ode4_state_load(hs_integrator *it, const double *in)
{
    ode4 *s = it->data;
    const size_t nh = (size_t)(s->delay + 1) * (size_t)it->n;
    memcpy(s->hist_r, in, nh * sizeof(double));
    memcpy(s->hist_d, in + nh, nh * sizeof(double));
    return 0;
}

static void ode4_destroy(hs_integrator *it)
{
    if (!it->data) return;
    ode4_free(it->data);
    hs_free(it->data);
    it->data = NULL;
}

int hs_integrator_create_ode4(hs_integrator *it, const hs_options *opts)
{
    const double delay = hs_options_num(opts, "force_delay", 0.0);
    if (!(delay >= 0.0 && delay <= ODE4_MAX_DELAY) || floor(delay) != delay)
        return hs_fail(it->ctx, HS_EINPUT,
                       "integrator ode4: force_delay must be a whole number of steps from 0 to %d "
                       "(got %g; the RTHS benchmark's Unit Delay is 1)",
                       ODE4_MAX_DELAY, delay);
    ode4 *s = hs_calloc(1, sizeof *s);
    if (!s) return HS_ENOMEM;
    s->delay = (int)delay;
    it->data = s;
    it->ops.setup = ode4_setup;
    it->ops.predict = ode4_predict;
    it->ops.correct = ode4_correct;
    it->ops.destroy = ode4_destroy;
    it->ops.state_size = ode4_state_size;
    it->ops.state_save = ode4_state_save;
    it->ops.state_load = ode4_state_load;
    return 0;
}
