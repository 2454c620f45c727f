/* The RTHS benchmark's structure and one run of it at the controller rate (Silva et al. 2020):
 * the reference run (the whole three-story frame numerically) and the partitioned run (numerical
 * substructure + compensator + actuator-specimen plant), both with the explicit Chen-Ricles (2008)
 * integrator, alpha = 4 (4 M + 2 dt C + dt^2 K)^-1 M:
 *   x(k+1) = x(k) + dt v(k) + dt^2 alpha a(k),  v(k+1) = v(k) + dt alpha a(k),
 *   M a(k+1) = -Mr iota ag(k+1) - C v(k+1) - K x(k+1) - e1 f_m(k+1)   (f_m = 0 for the reference).
 * The displacement is explicit, so floor 1's x(k+1) is the actuator's target before the plant
 * moves. The compensator works in mm (the unit of Chen and Ricles' (2010) gains kp, ki), the rest
 * in N, m, s. docs/rths_benchmark.md, "Structure" and "Run". */
#include "hysim/compensator.h"
#include "hysim/linalg.h"
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
     * (the package's F1_input_file.m, lines 27-38) */
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

int hs_rths_run(hs_ctx *ctx, const hs_rths_plant_params *plant, const char *comp_type,
                const hs_options *comp_opts, const double *ag, size_t n, double rate, double *y,
                double *x_t, double *x_m)
{
    if (!ag || n < 2 || !(rate > 0.0))
        return hs_fail(ctx, HS_EINVAL, "rths run: missing parameters or record");
    const int hybrid = comp_type != NULL;
    if (hybrid && !plant) return hs_fail(ctx, HS_EINVAL, "rths run: a hybrid run needs a plant");
    const hs_rths_plant_params nominal = hs_rths_plant_nominal();
    hs_rths_structure s;
    hs_rths_structure_build(plant ? plant : &nominal, &s);
    const double *M = hybrid ? s.Mn : s.Mr, *C = hybrid ? s.Cn : s.Cr, *K = hybrid ? s.Kn : s.Kr;
    const double dt = 1.0 / rate;
    double alpha[NF * NF];
    int rc = cr_alpha(ctx, M, C, K, dt, alpha);
    if (rc) return rc;
    hs_rths_plant *pl = NULL;
    hs_compensator *comp = NULL;
    if (hybrid) {
        rc = hs_rths_plant_create(ctx, plant, rate, &pl);
        if (!rc) rc = hs_compensator_create(ctx, comp_type, comp_opts, rate, &comp);
        if (rc) {
            hs_rths_plant_destroy(&pl);
            return rc;
        }
    }
    /* the load -Mr iota ag, the whole structure's masses in both runs (the package's B_ns) */
    double mload[NF];
    for (int i = 0; i < NF; i++) mload[i] = s.Mr[i * NF + i];
    double x[NF] = {0}, v[NF] = {0}, a[NF], da[NF];
    double xm = 0.0, fm = 0.0;
    for (int i = 0; i < NF; i++) a[i] = -mload[i] * ag[0] / M[i * NF + i];
    for (size_t k = 0;; k++) {
        if (y) memcpy(y + k * NF, x, sizeof x);
        if (x_t) x_t[k] = x[0];
        if (x_m) x_m[k] = hybrid ? xm : x[0];
        if (k + 1 == n) break;
        hs_matvec(NF, alpha, a, da); /* alpha is column-major */
        for (int i = 0; i < NF; i++) {
            x[i] += dt * v[i] + dt * dt * da[i];
            v[i] += dt * da[i];
        }
        if (hybrid) {
            hs_rths_plant_tick(pl, hs_compensator_tick(comp, 1e3 * x[0], 1e3 * xm) / 1e3);
            xm = hs_rths_plant_x(pl);
            fm = hs_rths_plant_f(pl);
        }
        for (int i = 0; i < NF; i++) {
            double r = -mload[i] * ag[k + 1] - (i == 0 ? fm : 0.0);
            for (int j = 0; j < NF; j++) r -= C[i * NF + j] * v[j] + K[i * NF + j] * x[j];
            a[i] = r / M[i * NF + i];
        }
        if (!(fabs(fm) < HS_RTHS_FORCE_CAPACITY) || !(fabs(x[0]) < 1e3) || !isfinite(xm)) {
            rc = hs_fail(ctx, HS_EUNSTABLE,
                         "rths run: stopped at sample %zu (t = %g s): actuator force %g N (its "
                         "capacity %g N), floor 1 at %g m, actuator at %g m",
                         k + 1, (double)(k + 1) * dt, fm, HS_RTHS_FORCE_CAPACITY, x[0], xm);
            break;
        }
    }
    hs_compensator_destroy(&comp);
    hs_rths_plant_destroy(&pl);
    return rc;
}
