/* The RTHS benchmark's structure and one run of it at the controller rate (Silva et al. 2020):
 * the reference run (the whole three-story frame numerically) and the partitioned run (numerical
 * substructure + compensator + actuator-specimen plant), in the loop of the package's Simulink
 * model (the default) or hysim's earlier one (hysim/rths.h, hs_rths_loop).
 *
 * The package's loop (vRTHS_MDOF_SimRT_PI.slx, run by F3_simulation_PI.m with ode4 at the
 * controller step h): at t_k the controller reads x_t(t_k), floor 1 of the numerical
 * substructure, and x_m(t_k), and sends u(t_k), held over the step; the numerical substructure's
 * state space (A_ns, B_ns of F1_input_file.m:40-47) moves by one classical Runge-Kutta step with
 * the ground acceleration linear between the samples (the From File block interpolates) and the
 * force f_m(t_k-1) (the block "Unit Delay1" between the load cell and the substructure).
 *
 * hysim's earlier loop: the explicit Chen-Ricles (2008) integrator, alpha = 4 (4 M + 2 dt C +
 * dt^2 K)^-1 M: x(k+1) = x(k) + dt v(k) + dt^2 alpha a(k), v(k+1) = v(k) + dt alpha a(k),
 * M a(k+1) = -Mr iota ag(k+1) - C v(k+1) - K x(k+1) - e1 f_m(k+1), the compensator acting on
 * x(k+1) before the plant moves. The compensators work in mm (the unit of Chen and Ricles' (2010)
 * adaptive gains), the rest in N, m, s. docs/rths_benchmark.md, "Structure" and "Run". */
#include "hysim/compensator.h"
#include "hysim/linalg.h"
#include "hysim/rng.h"
#include "hysim/rths.h"

#include <math.h>
#include <string.h>

#define NF 3

/* The reference structure, the benchmark package's building case 1 ("Building cases/Case_1.mat":
 * M, K, C; docs/rths_benchmark.md, "Structure"): floors of 1000 kg, the stiffness of the
 * three-story steel frame condensed to its floors, damping 5 % in every mode. Row-major. */
static const double ref_floor_mass = 1000.0;
static const double ref_K[NF * NF] = {
    26054883.879603837,  -23133938.877108198, 5937035.463339146,   /* N/m */
    -23133938.877108198, 32560774.186380334,  -14419970.777236985, /* */
    5937035.463339146,   -14419970.777236981, 9267275.506224312};
static const double ref_C[NF * NF] = {
    14084.275745299876, -7873.031460913151, 440.45149884262497, /* N s/m */
    -7873.031460913151, 14943.622937895665, -6348.672096305332, /* */
    440.4514988426247,  -6348.672096305331, 7223.101316804461};

void hs_rths_structure_build(const hs_rths_plant_params *actual, hs_rths_structure *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < NF * NF; i++) {
        s->Kr[i] = 0.5 * (ref_K[i] + ref_K[(i % NF) * NF + i / NF]); /* exactly symmetric */
        s->Cr[i] = 0.5 * (ref_C[i] + ref_C[(i % NF) * NF + i / NF]);
        if (i % (NF + 1) == 0) s->Mr[i] = ref_floor_mass;
    }
    /* the numerical substructure: the reference minus the specimen actually tested at floor 1
     * (the package's F1_input_file.m, lines 30-38) */
    memcpy(s->Mn, s->Mr, sizeof s->Mn);
    memcpy(s->Cn, s->Cr, sizeof s->Cn);
    memcpy(s->Kn, s->Kr, sizeof s->Kn);
    s->Mn[0] -= actual->me;
    s->Cn[0] -= actual->ce;
    s->Kn[0] -= actual->ke;
}

/* alpha = 4 (4 M + 2 dt C + dt^2 K)^-1 M, column-major (hs_matvec's order) */
static int cr_alpha(hs_ctx *ctx, const double *M, const double *C, const double *K, double dt,
                    double *alpha)
{
    double A[NF * NF], col[NF];
    for (int i = 0; i < NF * NF; i++) A[i] = 4.0 * M[i] + 2.0 * dt * C[i] + dt * dt * K[i];
    hs_linsolver *ls = NULL;
    int rc = hs_linsolver_create(ctx, "dense", NF, &ls);
    if (!rc) rc = hs_linsolver_factor(ls, A); /* symmetric: storage order does not matter */
    for (int j = 0; j < NF && !rc; j++) {
        for (int i = 0; i < NF; i++) col[i] = 4.0 * M[i * NF + j];
        rc = hs_linsolver_solve(ls, col);
        for (int i = 0; i < NF; i++) HS_AT(alpha, NF, i, j) = col[i];
    }
    hs_linsolver_destroy(&ls);
    return rc;
}

/* The compensator of a run: a registered type (in mm) or the caller's function (in m). */
typedef struct run_comp {
    hs_compensator *reg;
    hs_rths_comp_fn fn;
    void *self;
} run_comp;

static double comp_tick(run_comp *c, double xt, double xm, double fm)
{
    if (c->fn) return c->fn(c->self, xt, xm, fm);
    return hs_compensator_tick(c->reg, 1e3 * xt, 1e3 * xm) / 1e3;
}

/* The package's A/D and D/A (controller_model.slx, blocks "A/D Converter" and "D/A Converter":
 * a saturation then a quantiser, F1_input_file.m:157-160) */
static double converter(double u)
{
    const double q = 1.0 / (double)(1L << HS_RTHS_CONVERTER_BITS);
    return q * round(fmax(-HS_RTHS_CONVERTER_LIMIT, fmin(HS_RTHS_CONVERTER_LIMIT, u)) / q);
}

/* The state equation of a floor model with a diagonal mass matrix (the package's A_ns, B_ns):
 * q = [x, v], q' = [v, M^-1 (-Mr iota ag - C v - K x - e1 f)] */
static void floor_rate(const double *M, const double *C, const double *K, const double *mload,
                       const double *q, double ag, double f, double *dq)
{
    for (int i = 0; i < NF; i++) {
        double r = -mload[i] * ag - (i == 0 ? f : 0.0);
        for (int j = 0; j < NF; j++) r -= C[i * NF + j] * q[NF + j] + K[i * NF + j] * q[j];
        dq[i] = q[NF + i];
        dq[NF + i] = r / M[i * NF + i];
    }
}

/* One step of Simulink's ode4 (the classical fourth-order Runge-Kutta) of length h: the ground
 * acceleration linear from a0 to a1 over the step, the force f held */
static void ode4_step(const double *M, const double *C, const double *K, const double *mload,
                      double *q, double a0, double a1, double f, double h)
{
    double k1[2 * NF], k2[2 * NF], k3[2 * NF], k4[2 * NF], s[2 * NF];
    const double am = 0.5 * (a0 + a1);
    floor_rate(M, C, K, mload, q, a0, f, k1);
    for (int i = 0; i < 2 * NF; i++) s[i] = q[i] + 0.5 * h * k1[i];
    floor_rate(M, C, K, mload, s, am, f, k2);
    for (int i = 0; i < 2 * NF; i++) s[i] = q[i] + 0.5 * h * k2[i];
    floor_rate(M, C, K, mload, s, am, f, k3);
    for (int i = 0; i < 2 * NF; i++) s[i] = q[i] + h * k3[i];
    floor_rate(M, C, K, mload, s, a1, f, k4);
    for (int i = 0; i < 2 * NF; i++) q[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
}

typedef struct run_ctx {
    const double *M, *C, *K, *mload, *ag;
    size_t n;
    double dt;
    hs_rths_plant *pl; /* NULL: the reference run */
    run_comp *comp;
    const hs_rths_run_opts *o;
    double *y, *x_t, *x_m;
} run_ctx;

static int unstable(hs_ctx *ctx, size_t k, double dt, double f, double x, double xm)
{
    return hs_fail(ctx, HS_EUNSTABLE,
                   "rths run: stopped at sample %zu (t = %g s): actuator force %g N (its "
                   "capacity %g N), floor 1 at %g m, actuator at %g m",
                   k, (double)k * dt, f, HS_RTHS_FORCE_CAPACITY, x, xm);
}

/* the package's loop (the file's opening comment) */
static int run_package(hs_ctx *ctx, const run_ctx *r)
{
    const double sd_x = sqrt(HS_RTHS_NOISE_DISP_POWER / r->dt);
    const double sd_f = sqrt(HS_RTHS_NOISE_FORCE_POWER / r->dt);
    hs_rng nx, nf;
    hs_rng_seed(&nx, (uint64_t)r->o->noise_seed, 1);
    hs_rng_seed(&nf, (uint64_t)r->o->noise_seed, 2);
    double q[2 * NF] = {0}, f_delayed = 0.0; /* the Unit Delay starts at 0 */
    for (size_t k = 0;; k++) {
        const double xt = q[0];
        double xm = xt, fm = 0.0, f = 0.0;
        if (r->pl) {
            f = hs_rths_plant_f(r->pl);
            xm = hs_rths_plant_x(r->pl) + (r->o->noise ? sd_x * hs_rng_normal(&nx) : 0.0);
            fm = f + (r->o->noise ? sd_f * hs_rng_normal(&nf) : 0.0);
        }
        if (r->y) memcpy(r->y + k * NF, q, NF * sizeof *q);
        if (r->x_t) r->x_t[k] = xt;
        if (r->x_m) r->x_m[k] = xm;
        if (!(fabs(f) < HS_RTHS_FORCE_CAPACITY) || !(fabs(xt) < 1e3) || !isfinite(xm))
            return unstable(ctx, k, r->dt, f, xt, xm);
        if (k + 1 == r->n) return 0;
        double u = 0.0;
        if (r->pl) {
            const int cv = r->o->converters;
            u = comp_tick(r->comp, cv ? converter(xt) : xt, cv ? converter(xm) : xm, fm);
            if (cv) u = converter(u);
        }
        ode4_step(r->M, r->C, r->K, r->mload, q, r->ag[k], r->ag[k + 1], f_delayed, r->dt);
        if (r->pl) hs_rths_plant_tick(r->pl, u);
        f_delayed = fm;
    }
}

/* hysim's earlier loop (the file's opening comment) */
static int run_early(hs_ctx *ctx, const run_ctx *r)
{
    double alpha[NF * NF];
    int rc = cr_alpha(ctx, r->M, r->C, r->K, r->dt, alpha);
    if (rc) return rc;
    const double dt = r->dt;
    double x[NF] = {0}, v[NF] = {0}, a[NF], da[NF];
    double xm = 0.0, fm = 0.0;
    for (int i = 0; i < NF; i++) a[i] = -r->mload[i] * r->ag[0] / r->M[i * NF + i];
    for (size_t k = 0;; k++) {
        if (r->y) memcpy(r->y + k * NF, x, sizeof x);
        if (r->x_t) r->x_t[k] = x[0];
        if (r->x_m) r->x_m[k] = r->pl ? xm : x[0];
        if (k + 1 == r->n) return 0;
        hs_matvec(NF, alpha, a, da); /* alpha is column-major */
        for (int i = 0; i < NF; i++) {
            x[i] += dt * v[i] + dt * dt * da[i];
            v[i] += dt * da[i];
        }
        if (r->pl) {
            hs_rths_plant_tick(r->pl, comp_tick(r->comp, x[0], xm, fm));
            xm = hs_rths_plant_x(r->pl);
            fm = hs_rths_plant_f(r->pl);
        }
        for (int i = 0; i < NF; i++) {
            double s = -r->mload[i] * r->ag[k + 1] - (i == 0 ? fm : 0.0);
            for (int j = 0; j < NF; j++) s -= r->C[i * NF + j] * v[j] + r->K[i * NF + j] * x[j];
            a[i] = s / r->M[i * NF + i];
        }
        if (!(fabs(fm) < HS_RTHS_FORCE_CAPACITY) || !(fabs(x[0]) < 1e3) || !isfinite(xm))
            return unstable(ctx, k + 1, dt, fm, x[0], xm);
    }
}

int hs_rths_run_with(hs_ctx *ctx, const hs_rths_plant_params *plant, const char *comp_type,
                     const hs_options *comp_opts, hs_rths_comp_fn comp_fn, void *comp_self,
                     const hs_rths_run_opts *opts, const double *ag, size_t n, double rate,
                     double *y, double *x_t, double *x_m)
{
    if (!ag || n < 2 || !(rate > 0.0))
        return hs_fail(ctx, HS_EINVAL, "rths run: missing parameters or record");
    const hs_rths_run_opts defaults = {.loop = HS_RTHS_LOOP_PACKAGE};
    const hs_rths_run_opts *o = opts ? opts : &defaults;
    const int hybrid = comp_type != NULL || comp_fn != NULL;
    if (hybrid && !plant) return hs_fail(ctx, HS_EINVAL, "rths run: a hybrid run needs a plant");
    const hs_rths_plant_params nominal = hs_rths_plant_nominal();
    hs_rths_structure s;
    hs_rths_structure_build(plant ? plant : &nominal, &s);
    /* the load -Mr iota ag, the whole structure's masses in both runs (the package's B_ns) */
    double mload[NF];
    for (int i = 0; i < NF; i++) mload[i] = s.Mr[i * NF + i];
    run_comp comp = {.fn = comp_fn, .self = comp_self};
    run_ctx r = {.M = hybrid ? s.Mn : s.Mr,
                 .C = hybrid ? s.Cn : s.Cr,
                 .K = hybrid ? s.Kn : s.Kr,
                 .mload = mload,
                 .ag = ag,
                 .n = n,
                 .dt = 1.0 / rate,
                 .comp = &comp,
                 .o = o,
                 .y = y,
                 .x_t = x_t,
                 .x_m = x_m};
    int rc = 0;
    if (hybrid) {
        rc = hs_rths_plant_create(ctx, plant, rate, &r.pl);
        if (!rc && !comp_fn) rc = hs_compensator_create(ctx, comp_type, comp_opts, rate, &comp.reg);
    }
    if (!rc) rc = o->loop == HS_RTHS_LOOP_EARLY ? run_early(ctx, &r) : run_package(ctx, &r);
    hs_compensator_destroy(&comp.reg);
    hs_rths_plant_destroy(&r.pl);
    return rc;
}

int hs_rths_run(hs_ctx *ctx, const hs_rths_plant_params *plant, const char *comp_type,
                const hs_options *comp_opts, const double *ag, size_t n, double rate, double *y,
                double *x_t, double *x_m)
{
    return hs_rths_run_with(ctx, plant, comp_type, comp_opts, NULL, NULL, NULL, ag, n, rate, y, x_t,
                            x_m);
}

double *hs_rths_record_layout(const double *acc, size_t npts, double dt, double scale, double lead,
                              double trail, double rate, size_t *n)
{
    if (!acc || npts < 1 || !(dt > 0.0) || !(rate > 0.0) || !(lead >= 0.0) || !(trail >= 0.0) || !n)
        return NULL;
    /* the package's time axis: lead, the record, trail, on the record's own grid (its .mat: 0 to
     * 41.18 s by 0.02 s for El Centro), then sampled at the controller's */
    const double t_end = lead + dt * (double)(npts - 1) + trail;
    *n = (size_t)floor(t_end * rate + 1e-9) + 1;
    double *ag = hs_dvec(*n);
    if (!ag) return NULL;
    for (size_t k = 0; k < *n; k++) {
        const double u = ((double)k / rate - lead) / dt; /* in record samples */
        if (u <= -1.0 || u >= (double)npts) continue;    /* zeros on both sides */
        const double fl = floor(u);
        const long i = (long)fl;
        const double w = u - fl;
        const double a0 = i >= 0 ? acc[i] : 0.0, a1 = i + 1 < (long)npts ? acc[i + 1] : 0.0;
        ag[k] = scale * ((1.0 - w) * a0 + w * a1);
    }
    return ag;
}
