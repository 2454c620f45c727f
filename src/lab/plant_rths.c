/* The RTHS benchmark's actuator-specimen plant with control-structure interaction (Silva et al.
 * 2020), closed by a proportional servo loop and discretised at the controller rate with an exact
 * zero-order hold. States [z, z', f, x, v]:
 *   z'' + b1 z' + b2 z = b2 u          servo-valve, DC gain 1, u = kp (gain r - x)
 *   f'  = (a1b0 / b2) z - a2 v - a3 f  actuator force (oil compressibility a2, leakage a3)
 *   me v' = f - ce v - ke x            specimen moved by the actuator (the CSI: f feeds back v)
 * which is Gxu(s) = a1b0 / [(s^2 + b1 s + b2)((s + a3)(me s^2 + ce s + ke) + a2 s)]. */
#include "hysim/rths.h"

#include "hysim/rng.h"

#include <complex.h>
#include <math.h>
#include <string.h>

#define NS      HS_RTHS_NSTATE
#define NA      6 /* augmented with the held command */
#define RTHS_PI 3.14159265358979323846

struct hs_rths_plant {
    hs_rths_plant_params p;
    double h;
    double Phi[NS * NS], Gam[NS]; /* x(k+1) = Phi x(k) + Gam r(k) */
    double s[NS], tmp[NS];
};

hs_rths_plant_params hs_rths_plant_nominal(void)
{
    /* docs/rths_benchmark.md, "Plant": the benchmark package's F1_input_file.m, lines 24-26 and
     * 76-92 (its Simulink model closes the loop with kp = 1 and the gain on the command) */
    hs_rths_plant_params p = {.a1b0 = 2.1283e13,
                              .a2 = 4.2297e6,
                              .a3 = 3.3,
                              .b1 = 425.0,
                              .b2 = 9.9976e4,
                              .me = 29.13,
                              .ke = 1190e3,
                              .kp = 1.0,
                              .gain = 1.0261};
    p.ce = 2.0 * HS_RTHS_SPECIMEN_ZETA * sqrt(p.me * p.ke);
    return p;
}

hs_rths_plant_params hs_rths_plant_perturbed(unsigned long long seed, double spread)
{
    /* the package's standard deviations (F1_input_file.m, lines 30 and 90-92); the specimen's
     * damping follows its stiffness at the same ratio (line 32) */
    hs_rths_plant_params p = hs_rths_plant_nominal();
    hs_rng r;
    hs_rng_seed(&r, (uint64_t)seed, 0);
    p.b1 += spread * 3.3 * hs_rng_normal(&r);
    p.b2 += spread * 3.3e3 * hs_rng_normal(&r);
    p.a3 += spread * 1.3 * hs_rng_normal(&r);
    p.ke += spread * 50e3 * hs_rng_normal(&r);
    p.ce = 2.0 * HS_RTHS_SPECIMEN_ZETA * sqrt(p.me * p.ke);
    return p;
}

static double complex gxu(const hs_rths_plant_params *p, double w)
{
    const double complex s = I * w;
    const double complex valve = s * s + p->b1 * s + p->b2;
    const double complex act = (s + p->a3) * (p->me * s * s + p->ce * s + p->ke) + p->a2 * s;
    return p->a1b0 / (valve * act);
}

static double complex closed_loop(const hs_rths_plant_params *p, double w)
{
    const double complex g = p->kp * gxu(p, w);
    return p->gain * g / (1.0 + g);
}

/* magnitude and phase unwrapped along a grid from near DC */
static void unwrapped(const hs_rths_plant_params *p, double w, int closed, double *mag,
                      double *phase)
{
    const int n = 2000;
    double ph = 0.0, prev = 0.0;
    double complex g = 0.0;
    for (int i = 1; i <= n; i++) {
        g = closed ? closed_loop(p, w * i / n) : gxu(p, w * i / n);
        double a = carg(g);
        if (i == 1) {
            ph = a;
        } else {
            double d = a - prev;
            while (d > RTHS_PI) d -= 2.0 * RTHS_PI;
            while (d < -RTHS_PI) d += 2.0 * RTHS_PI;
            ph += d;
        }
        prev = a;
    }
    *mag = cabs(g);
    *phase = ph;
}

void hs_rths_plant_freq(const hs_rths_plant_params *p, double omega, double *mag, double *phase)
{
    unwrapped(p, omega, 1, mag, phase);
}

void hs_rths_gxu_freq(const hs_rths_plant_params *p, double omega, double *mag, double *phase)
{
    unwrapped(p, omega, 0, mag, phase);
}

double hs_rths_plant_delay(const hs_rths_plant_params *p)
{
    const double w0 = 2.0 * RTHS_PI * 0.5;
    double mag, phase;
    unwrapped(p, w0, 1, &mag, &phase);
    return -phase / w0;
}

/* exp(M), M NA x NA row-major: diagonal balancing (powers of 2, Parlett and Reinsch 1969), then
 * scaling and squaring with a Taylor series of the balanced matrix, then unbalancing. */
static void expm_balanced(const double *M, double *E)
{
    double B[NA * NA], d[NA];
    memcpy(B, M, sizeof B);
    for (int i = 0; i < NA; i++) d[i] = 1.0;
    for (int pass = 0, changed = 1; changed && pass < 100; pass++) {
        changed = 0;
        for (int i = 0; i < NA; i++) {
            double c = 0.0, r = 0.0;
            for (int j = 0; j < NA; j++)
                if (j != i) {
                    c += fabs(B[j * NA + i]);
                    r += fabs(B[i * NA + j]);
                }
            if (c == 0.0 || r == 0.0) continue;
            double f = 1.0;
            while (c < r / 2.0) {
                c *= 2.0;
                r /= 2.0;
                f *= 2.0;
            }
            while (c >= r * 2.0) {
                c /= 2.0;
                r *= 2.0;
                f /= 2.0;
            }
            if (f != 1.0) { /* B <- D^-1 B D with D_ii = f: column i times f, row i over f */
                changed = 1;
                d[i] *= f;
                for (int j = 0; j < NA; j++) {
                    B[j * NA + i] *= f;
                    B[i * NA + j] /= f;
                }
            }
        }
    }
    double norm = 0.0;
    for (int j = 0; j < NA; j++) {
        double c = 0.0;
        for (int i = 0; i < NA; i++) c += fabs(B[i * NA + j]);
        if (c > norm) norm = c;
    }
    int sq = 0;
    while (norm > 0.25) {
        norm /= 2.0;
        sq++;
    }
    const double scale = ldexp(1.0, -sq);
    for (int i = 0; i < NA * NA; i++) B[i] *= scale;
    double T[NA * NA], P[NA * NA], Q[NA * NA];
    memset(T, 0, sizeof T);
    memset(P, 0, sizeof P);
    for (int i = 0; i < NA; i++) T[i * NA + i] = P[i * NA + i] = 1.0;
    for (int k = 1; k <= 20; k++) { /* P <- P B / k, T += P */
        for (int i = 0; i < NA; i++)
            for (int j = 0; j < NA; j++) {
                double acc = 0.0;
                for (int m = 0; m < NA; m++) acc += P[i * NA + m] * B[m * NA + j];
                Q[i * NA + j] = acc / k;
            }
        memcpy(P, Q, sizeof P);
        for (int i = 0; i < NA * NA; i++) T[i] += P[i];
    }
    for (int s = 0; s < sq; s++) {
        for (int i = 0; i < NA; i++)
            for (int j = 0; j < NA; j++) {
                double acc = 0.0;
                for (int m = 0; m < NA; m++) acc += T[i * NA + m] * T[m * NA + j];
                Q[i * NA + j] = acc;
            }
        memcpy(T, Q, sizeof T);
    }
    for (int i = 0; i < NA; i++) /* E = D T D^-1 */
        for (int j = 0; j < NA; j++) E[i * NA + j] = d[i] * T[i * NA + j] / d[j];
}

/* Phi, Gam for the sample h = 1 / rate; no allocation (a specimen re-discretises in a tick) */
static void discretise(hs_rths_plant *pl, double rate)
{
    const hs_rths_plant_params *p = &pl->p;
    pl->h = 1.0 / rate;
    double M[NA * NA];
    memset(M, 0, sizeof M);
    const double g = p->a1b0 / p->b2;
    /* rows z, z', f, x, v, r */
    M[0 * NA + 1] = 1.0;
    M[1 * NA + 0] = -p->b2;
    M[1 * NA + 1] = -p->b1;
    M[1 * NA + 3] = -p->b2 * p->kp;
    M[1 * NA + 5] = p->b2 * p->kp * p->gain;
    M[2 * NA + 0] = g;
    M[2 * NA + 2] = -p->a3;
    M[2 * NA + 4] = -p->a2;
    M[3 * NA + 4] = 1.0;
    M[4 * NA + 2] = 1.0 / p->me;
    M[4 * NA + 3] = -p->ke / p->me;
    M[4 * NA + 4] = -p->ce / p->me;
    for (int i = 0; i < NA * NA; i++) M[i] *= pl->h;
    double E[NA * NA];
    expm_balanced(M, E);
    for (int i = 0; i < NS; i++) {
        for (int j = 0; j < NS; j++) pl->Phi[i * NS + j] = E[i * NA + j];
        pl->Gam[i] = E[i * NA + NS];
    }
}

int hs_rths_plant_create(hs_ctx *ctx, const hs_rths_plant_params *p, double rate,
                         hs_rths_plant **out)
{
    if (!p || !out) return hs_fail(ctx, HS_EINVAL, "rths plant: no parameters");
    if (!(rate > 0.0))
        return hs_fail(ctx, HS_EINPUT, "rths plant: controller rate must be > 0 Hz (got %g)", rate);
    if (!(p->a1b0 > 0 && p->a2 >= 0 && p->a3 >= 0 && p->b1 > 0 && p->b2 > 0 && p->me > 0 &&
          p->ce >= 0 && p->ke >= 0 && p->kp > 0 && p->gain > 0))
        return hs_fail(ctx, HS_EINPUT,
                       "rths plant: a1b0, b1, b2, me, kp, gain must be > 0 and a2, a3, ce, ke >= 0 "
                       "(a perturbed plant with a3 < 0? choose another seed or a smaller spread)");
    hs_rths_plant *pl = hs_calloc(1, sizeof *pl);
    if (!pl) return hs_fail(ctx, HS_ENOMEM, "rths plant: out of memory");
    pl->p = *p;
    discretise(pl, rate);
    *out = pl;
    return 0;
}

void hs_rths_plant_set_rate(hs_rths_plant *pl, double rate)
{
    /* a sample within 1 ppm of the current one is the same (t - t_c jitters by round-off) */
    if (rate > 0.0 && fabs(1.0 / rate - pl->h) > 1e-6 * pl->h) discretise(pl, rate);
}

double hs_rths_plant_rate(const hs_rths_plant *pl)
{
    return 1.0 / pl->h;
}

const hs_rths_plant_params *hs_rths_plant_params_of(const hs_rths_plant *pl)
{
    return &pl->p;
}

void hs_rths_plant_step(const hs_rths_plant *pl, const double *s, double r, double *next)
{
    for (int i = 0; i < NS; i++) {
        double acc = pl->Gam[i] * r;
        for (int j = 0; j < NS; j++) acc += pl->Phi[i * NS + j] * s[j];
        next[i] = acc;
    }
}

void hs_rths_plant_destroy(hs_rths_plant **pl)
{
    if (!pl || !*pl) return;
    hs_free(*pl);
    *pl = NULL;
}

void hs_rths_plant_reset(hs_rths_plant *pl)
{
    memset(pl->s, 0, sizeof pl->s);
}

void hs_rths_plant_tick(hs_rths_plant *pl, double r)
{
    hs_rths_plant_step(pl, pl->s, r, pl->tmp);
    memcpy(pl->s, pl->tmp, sizeof pl->s);
}

double hs_rths_plant_x(const hs_rths_plant *pl)
{
    return pl->s[HS_RTHS_STATE_X];
}
double hs_rths_plant_f(const hs_rths_plant *pl)
{
    return pl->s[HS_RTHS_STATE_F];
}
