/* OpenSees' BWBN: the Bouc-Wen-Baber-Noori hysteresis with pinching (Baber & Noori 1985; the
 * pinching as OpenSees has it), without strength or stiffness degradation. Facts from
 * OpenSees 3.8 (SRC/material/uniaxial/BWBN.cpp, read for facts):
 * - Force alpha ko e + (1 - alpha) ko z. The hysteretic variable z of an increment de solves
 *   z - z_c - Phi(z) h(z) de = 0 with Phi = Ao - |z|^n (gamma + beta sgn(de z)), the pinching
 *   h = 1 - zeta1 exp(-(z sgn(de) - q zu)^2 / zeta2^2), zu = (1 / (beta + gamma))^(1/n),
 *   zeta1 = zetas (1 - exp(-p E)), zeta2 = (Shi + deltaShi E)(lamda + zeta1), and the energy
 *   E = E_c + (1 - alpha) ko de z; sgn(x) = 1 for x > 0, else -1 (also at 0).
 * - Newton from z = 0.01 with the derivative of the residual through E as well, until two
 *   iterates differ by at most the tolerance, at most maxNumIter times (OpenSees goes on with the
 *   last iterate and a message; hysim stops with an error).
 * - The tangent: alpha ko + (1 - alpha) ko dz/de, ko when z = 0, alpha ko + (1 - alpha) ko Ao at
 *   the virgin state (also the initial tangent). hysim's dz/de is the consistent one,
 *   (h Phi + b4 Phi de) / (1 - (b9 h + Phi b8) de), b4 = dh/dE (1 - alpha) ko z, b8 = dh/dz,
 *   b9 = dPhi/dz (BWBN.cpp's names); OpenSees writes h Phi - b4 Phi in the numerator, a tangent
 *   that differs from the force's derivative where the pinching grows with E (the same forces
 *   at convergence; hysim's Newton converges quadratically).
 * A trial at the committed strain is the committed state, tangent included (OpenSees recomputes
 * it with sgn(0) = -1: the same force). Committed state (checkpoints): [strain, stress, tangent,
 * z, E]. */
#include "material_impl.h"

#include <math.h>

const hs_param_spec hs_material_bwbn_params[] = {
    {"alpha", HS_PARAM_NUM, 1, "ratio of the post-yield to the elastic stiffness, in [0, 1]"},
    {"ko", HS_PARAM_NUM, 1, "elastic stiffness, > 0"},
    {"n", HS_PARAM_NUM, 1, "sharpness of the transition, >= 1"},
    {"gamma", HS_PARAM_NUM, 1, "loop shape"},
    {"beta", HS_PARAM_NUM, 1, "loop shape (beta + gamma > 0)"},
    {"Ao", HS_PARAM_NUM, 1, "hysteresis amplitude, > 0"},
    {"q", HS_PARAM_NUM, 1, "pinching: fraction of zu where it acts"},
    {"zetas", HS_PARAM_NUM, 1, "pinching severity, in [0, 1)"},
    {"p", HS_PARAM_NUM, 1, "rate of the pinching's growth with the energy, >= 0"},
    {"Shi", HS_PARAM_NUM, 1, "pinching spread"},
    {"deltaShi", HS_PARAM_NUM, 1, "growth of the spread with the energy"},
    {"lamda", HS_PARAM_NUM, 1, "pinching: coupling of the spread and the severity"},
    {"tolerance", HS_PARAM_NUM, 0, "of z between Newton iterates, > 0 (default 1e-8)"},
    {"maxNumIter", HS_PARAM_NUM, 0, "Newton iterations at most, >= 1 (default 20)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

enum { BW_STATE = 5 };

typedef struct bw_state {
    double e, s, t, z, energy;
} bw_state;
_Static_assert(sizeof(bw_state) == BW_STATE * sizeof(double), "a flat array of doubles");

typedef struct bwbn {
    double alpha, ko, n, gamma, beta, Ao, q, zetas, p, Shi, dShi, lamda, tol;
    int max_iter;
    double zu;
    bw_state c, t;
} bwbn;

static double bw_sgn(double x)
{
    return x > 0.0 ? 1.0 : -1.0;
}

/* One Newton update of z for the increment de; returns the new iterate. */
static double bw_newton(const bwbn *b, double z, double de)
{
    const double E = b->c.energy + (1.0 - b->alpha) * b->ko * de * z;
    const double sd = bw_sgn(de), y = z * sd - b->q * b->zu;
    const double zeta1 = b->zetas * (1.0 - exp(-b->p * E));
    const double zeta2 = (b->Shi + b->dShi * E) * (b->lamda + zeta1);
    const double ex = exp(-pow(y, 2) / (zeta2 * zeta2));
    const double h = 1.0 - zeta1 * ex;
    const double psi = b->gamma + b->beta * bw_sgn(de * z);
    const double phi = b->Ao - pow(fabs(z), b->n) * psi;
    const double f = z - b->c.z - phi * h * de;
    const double E_ = (1.0 - b->alpha) * b->ko * de;
    const double zeta1_ = b->zetas * b->p * exp(-b->p * E) * E_;
    const double zeta2_ =
        b->Shi * zeta1_ + b->lamda * b->dShi * E_ + b->dShi * E * zeta1_ + b->dShi * E_ * zeta1;
    const double h_ = -ex * (zeta1_ - zeta1 * 2.0 * y * sd / (zeta2 * zeta2) +
                             zeta2_ * zeta1 * 2.0 * pow(y, 2) / (zeta2 * zeta2 * zeta2));
    const double pow1 = z == 0.0 ? 0.0 : pow(fabs(z), b->n - 1.0);
    const double phi_ = -b->n * pow1 * bw_sgn(z) * psi;
    const double f_ = 1.0 - (phi_ * h + phi * h_) * de;
    return z - f / f_;
}

/* The tangent at the solved z (OpenSees' form). */
static double bw_tangent(const bwbn *b, double z, double de, double E)
{
    const double k1 = (1.0 - b->alpha) * b->ko;
    if (z == 0.0) return b->alpha * b->ko + k1;
    const double sd = bw_sgn(de), y = z * sd - b->q * b->zu;
    const double zeta1 = b->zetas * (1.0 - exp(-b->p * E));
    const double zeta2 = (b->Shi + b->dShi * E) * (b->lamda + zeta1);
    const double ex = exp(-pow(y, 2) / (zeta2 * zeta2));
    const double psi = b->gamma + b->beta * bw_sgn(de * z);
    const double phi = b->Ao - pow(fabs(z), b->n) * psi;
    const double b1 = k1 * z, b2 = b->zetas * b->p * exp(-b->p * E) * b1;
    const double b3 =
        b->Shi * b2 + b->lamda * b->dShi * b1 + b->dShi * E * b2 + b->dShi * b1 * zeta1;
    const double b4 = -ex * (b2 + b3 * zeta1 * 2.0 * pow(y, 2) / (zeta2 * zeta2 * zeta2));
    const double h = 1.0 - zeta1 * ex;
    const double b5 = k1 * de, b6 = b->zetas * b->p * exp(-b->p * E) * b5;
    const double b7 =
        b->Shi * b6 + b->lamda * b->dShi * b5 + b->dShi * E * b6 + b->dShi * b5 * zeta1;
    const double b8 = -ex * (b6 - zeta1 * 2.0 * y * sd / (zeta2 * zeta2) +
                             b7 * zeta1 * 2.0 * pow(y, 2) / (zeta2 * zeta2 * zeta2));
    const double b9 = -b->n * pow(fabs(z), b->n - 1.0) * bw_sgn(z) * psi;
    const double dz = (h * phi + b4 * phi * de) / (1.0 - (b9 * h + phi * b8) * de);
    return b->alpha * b->ko + k1 * dz;
}

static int bw_set_trial(hs_material *m, double strain, double strain_rate)
{
    (void)strain_rate;
    bwbn *b = m->data;
    const double de = strain - b->c.e;
    b->t = b->c;
    b->t.e = strain;
    if (de != 0.0) {
        double z = 0.01, z_old = 0.01, z_new = 1.0;
        int k = 0;
        while (fabs(z_old - z_new) > b->tol && k < b->max_iter) {
            z_new = bw_newton(b, z, de);
            z_old = z;
            z = z_new;
            k++;
        }
        if (fabs(z_old - z_new) > b->tol || !isfinite(z))
            return hs_fail(m->ctx, HS_ECONVERGE,
                           "bwbn: z of the step from strain %g to %g did not converge in %d "
                           "iterations to %g; take smaller steps or raise maxNumIter",
                           b->c.e, strain, b->max_iter, b->tol);
        b->t.z = z;
        b->t.energy = b->c.energy + (1.0 - b->alpha) * b->ko * de * z;
        b->t.s = b->alpha * b->ko * strain + (1.0 - b->alpha) * b->ko * z;
        b->t.t = bw_tangent(b, z, de, b->t.energy);
    }
    m->stress = b->t.s;
    m->tangent = b->t.t;
    m->rate_tangent = 0.0;
    return 0;
}

static double bw_initial_tangent(const hs_material *m)
{
    const bwbn *b = m->data;
    return b->alpha * b->ko + (1.0 - b->alpha) * b->ko * b->Ao;
}

static int bw_reset(hs_material *m)
{
    bwbn *b = m->data;
    b->c = (bw_state){0.0, 0.0, bw_initial_tangent(m), 0.0, 0.0};
    b->t = b->c;
    return 0;
}

static void bw_destroy(hs_material *m)
{
    hs_free(m->data);
}

static int bw_check(hs_material *m, int ok, const char *what, double got)
{
    return ok ? 0 : hs_fail(m->ctx, HS_EINPUT, "bwbn: %s (got %g)", what, got);
}

int hs_material_create_bwbn(hs_material *m, const hs_options *opts)
{
    bwbn *b = hs_calloc(1, sizeof *b);
    if (!b) return HS_ENOMEM;
    m->data = b;
    hs_material_flat_state(m, (double *)&b->c, (double *)&b->t, BW_STATE);
    m->ops.set_trial = bw_set_trial;
    m->ops.reset = bw_reset;
    m->ops.initial_tangent = bw_initial_tangent;
    m->ops.destroy = bw_destroy;
    b->alpha = hs_options_num(opts, "alpha", 0.0);
    b->ko = hs_options_num(opts, "ko", 0.0);
    b->n = hs_options_num(opts, "n", 0.0);
    b->gamma = hs_options_num(opts, "gamma", 0.0);
    b->beta = hs_options_num(opts, "beta", 0.0);
    b->Ao = hs_options_num(opts, "Ao", 0.0);
    b->q = hs_options_num(opts, "q", 0.0);
    b->zetas = hs_options_num(opts, "zetas", 0.0);
    b->p = hs_options_num(opts, "p", 0.0);
    b->Shi = hs_options_num(opts, "Shi", 0.0);
    b->dShi = hs_options_num(opts, "deltaShi", 0.0);
    b->lamda = hs_options_num(opts, "lamda", 0.0);
    b->tol = hs_options_num(opts, "tolerance", 1.0e-8);
    const double iters = hs_options_num(opts, "maxNumIter", 20.0);
    int rc;
    if ((rc = bw_check(m, b->alpha >= 0.0 && b->alpha <= 1.0, "alpha must be in [0, 1]",
                       b->alpha)) ||
        (rc = bw_check(m, b->ko > 0.0 && isfinite(b->ko), "ko must be > 0", b->ko)) ||
        (rc = bw_check(m, b->n >= 1.0 && isfinite(b->n), "n must be >= 1", b->n)) ||
        (rc = bw_check(m, b->beta + b->gamma > 0.0 && isfinite(b->beta + b->gamma),
                       "beta + gamma must be > 0", b->beta + b->gamma)) ||
        (rc = bw_check(m, b->Ao > 0.0 && isfinite(b->Ao), "Ao must be > 0", b->Ao)) ||
        (rc = bw_check(m, isfinite(b->q), "q must be a finite number", b->q)) ||
        (rc =
             bw_check(m, b->zetas >= 0.0 && b->zetas < 1.0, "zetas must be in [0, 1)", b->zetas)) ||
        (rc = bw_check(m, b->p >= 0.0 && isfinite(b->p), "p must be >= 0", b->p)) ||
        (rc = bw_check(m, isfinite(b->Shi), "Shi must be a finite number", b->Shi)) ||
        (rc = bw_check(m, isfinite(b->dShi), "deltaShi must be a finite number", b->dShi)) ||
        (rc = bw_check(m, isfinite(b->lamda), "lamda must be a finite number", b->lamda)) ||
        (rc = bw_check(m, b->tol > 0.0 && isfinite(b->tol), "tolerance must be > 0", b->tol)) ||
        (rc = bw_check(m, iters >= 1.0 && iters <= 1.0e6 && iters == floor(iters),
                       "maxNumIter must be a whole number >= 1", iters)))
        return rc;
    b->max_iter = (int)iters;
    b->zu = pow(1.0 / (b->beta + b->gamma), 1.0 / b->n);
    bw_reset(m);
    return 0;
}
