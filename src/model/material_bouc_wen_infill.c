/* OpenSees' BoucWenInfill (S. Sirotti 2022, after Briseghella et al. 2021): a Bouc-Wen law for
 * masonry infills with stiffness and strength degradation driven by a damage index of energy and
 * peak displacement, and pinching that grows with the energy. Facts from OpenSees 3.8
 * (SRC/material/uniaxial/BoucWenInfill.cpp, read for facts):
 * - Force alpha k e + (1 - alpha) k z; the energy (per unit mass) E = E_c + (1 - alpha) k / mass
 *   de z; the largest |e| so far x_max; the damage index D = E mass / (k xy^2) + x_max / xy.
 * - z of an increment de solves z - z_c - de Phi / (1 + a f g Phi) = 0, with
 *   Phi = A - |z|^n beta0 A exp(n deltaf D) (eta0 + sgn(de z)), A = exp(-deltak D exp(-psi D)),
 *   the pinching a = As x_max / xy, f = exp(-(z / Zs)^2), g = 1 - exp(-(E / epsp)^2 / 2);
 *   sgn(x) = 1 for x > 0, else -1 (also at 0).
 * - Newton from z = 0.01 (the derivative through E as well) until two iterates differ by at most
 *   the tolerance, at most maxNumIter times (OpenSees goes on with a message; hysim stops with an
 *   error). OpenSees' first iterate may use the x_max of an earlier trial of the step; from the
 *   second on it is max(|e|, x_max committed), the one hysim uses throughout (the same root).
 * - Tangent alpha k + (1 - alpha) k dz/de, k when z = 0 and at the virgin state (also the
 *   initial tangent). hysim's dz/de is the implicit one, -F_e / F_z at the root (x_max grows with
 *   |e| when it is the trial's); OpenSees' adds the Newton residual's term F F_ze / F_z^2 with
 *   F of the last iterate and takes x_max as growing only for e > 0 (the same forces).
 * A trial at the committed strain is the committed state. Committed state (checkpoints):
 * [strain, stress, tangent, z, E, x_max]. */
#include "material_impl.h"

#include <math.h>

const hs_param_spec hs_material_bouc_wen_infill_params[] = {
    {"mass", HS_PARAM_NUM, 1, "mass that normalises the energy, > 0"},
    {"alpha", HS_PARAM_NUM, 1, "ratio of the post-yield to the elastic stiffness, in [0, 1]"},
    {"beta0", HS_PARAM_NUM, 1, "loop shape"},
    {"eta0", HS_PARAM_NUM, 1, "loop shape"},
    {"n", HS_PARAM_NUM, 1, "sharpness of the transition, >= 1"},
    {"k", HS_PARAM_NUM, 1, "elastic stiffness, > 0"},
    {"xy", HS_PARAM_NUM, 1, "yield displacement, > 0"},
    {"deltak", HS_PARAM_NUM, 1, "stiffness degradation with the damage index, >= 0"},
    {"deltaf", HS_PARAM_NUM, 1, "strength degradation with the damage index, >= 0"},
    {"psi", HS_PARAM_NUM, 1, "decay of the stiffness degradation with the damage index"},
    {"Zs", HS_PARAM_NUM, 1, "pinching: width in z, > 0"},
    {"As", HS_PARAM_NUM, 1, "pinching: severity per yield displacement reached, >= 0"},
    {"epsp", HS_PARAM_NUM, 1, "pinching: energy of its growth, > 0"},
    {"tolerance", HS_PARAM_NUM, 0, "of z between Newton iterates, > 0 (default 1e-8)"},
    {"maxNumIter", HS_PARAM_NUM, 0, "Newton iterations at most, >= 1 (default 20)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

enum { BI_STATE = 6 };

typedef struct bi_state {
    double e, s, t, z, energy, x_max;
} bi_state;
_Static_assert(sizeof(bi_state) == BI_STATE * sizeof(double), "a flat array of doubles");

typedef struct bouc_wen_infill {
    double mass, alpha, beta0, eta0, n, k, xy, deltak, deltaf, psi, Zs, As, epsp, tol;
    int max_iter;
    bi_state c, t;
} bouc_wen_infill;

static double bi_sgn(double x)
{
    return x > 0.0 ? 1.0 : -1.0;
}

/* The degradation terms of the damage index D and their derivative along dD. */
typedef struct bi_deg {
    double A, bk, bf, A_, bk_, bf_;
} bi_deg;

static bi_deg bi_degradation(const bouc_wen_infill *b, double D, double dD)
{
    bi_deg g;
    const double pk = exp(-b->psi * D), pk_ = pk * (-b->psi * dD);
    g.A = exp(-b->deltak * D * pk);
    g.A_ = g.A * (-b->deltak * dD * pk - b->deltak * D * pk_);
    g.bk = b->beta0 * g.A;
    g.bk_ = b->beta0 * g.A_;
    g.bf = exp(b->n * b->deltaf * D);
    g.bf_ = g.bf * (b->n * b->deltaf * dD);
    return g;
}

/* Residual F(z) of the step to strain e (increment de, x_max xm) and its derivatives in z
 * and, when F_e is not NULL, in e. */
static double bi_residual(const bouc_wen_infill *b, double z, double e, double de, double xm,
                          double *F_z, double *F_e)
{
    const double k1 = (1.0 - b->alpha) * b->k / b->mass;
    const double E = b->c.energy + k1 * de * z;
    const double f = exp(-pow(z / b->Zs, 2)), a = b->As * fabs(xm) / b->xy;
    const double gx = exp(-0.5 * pow(E / b->epsp, 2)), g = 1.0 - gx;
    const double D = E * b->mass / (b->k * b->xy * b->xy) + fabs(xm) / b->xy;
    const double psi = b->eta0 + bi_sgn(de * z);
    const double pw = z == 0.0 ? 0.0 : pow(fabs(z), b->n);
    const double pw_z = z == 0.0 ? 0.0 : b->n * pow(fabs(z), b->n - 1.0) * bi_sgn(z);
    /* along z */
    const double E_z = k1 * de, D_z = E_z * b->mass / (b->k * b->xy * b->xy);
    const bi_deg dz = bi_degradation(b, D, D_z);
    const double phi = dz.A - pw * dz.bk * dz.bf * psi;
    const double den = 1.0 + a * f * g * phi;
    const double f_z = -2.0 * z / pow(b->Zs, 2) * f, g_z = gx * E * E_z / pow(b->epsp, 2);
    const double phi_z =
        dz.A_ - (pw_z * dz.bk * dz.bf + pw * dz.bk_ * dz.bf + pw * dz.bk * dz.bf_) * psi;
    *F_z = 1.0 -
           de * (phi_z * den - phi * (a * f_z * g * phi + a * f * g_z * phi + a * f * g * phi_z)) /
               (den * den);
    if (F_e) {
        /* along e: de, E (through de) and, when it is the trial's, x_max grow */
        const int grows = fabs(e) >= b->c.x_max && e != 0.0;
        const double xm_e = grows ? bi_sgn(e) : 0.0;
        const double E_e = k1 * z;
        const double D_e = E_e * b->mass / (b->k * b->xy * b->xy) + xm_e / b->xy;
        const double a_e = b->As * xm_e / b->xy, g_e = gx * E * E_e / pow(b->epsp, 2);
        const bi_deg dx = bi_degradation(b, D, D_e);
        const double phi_e = dx.A_ - (dx.bk_ * dx.bf + dx.bk * dx.bf_) * pw * psi;
        *F_e =
            -phi / den -
            de * (phi_e * den - phi * (a_e * f * g * phi + a * f * g_e * phi + a * f * g * phi_e)) /
                (den * den);
    }
    return z - b->c.z - de * phi / den;
}

static int bi_set_trial(hs_material *m, double strain, double strain_rate)
{
    (void)strain_rate;
    bouc_wen_infill *b = m->data;
    const double de = strain - b->c.e;
    b->t = b->c;
    b->t.e = strain;
    if (de != 0.0) {
        const double xm = fmax(fabs(strain), b->c.x_max);
        double z = 0.01, z_old = 0.01, z_new = 1.0, F_z;
        int k = 0;
        while (fabs(z_old - z_new) > b->tol && k < b->max_iter) {
            const double F = bi_residual(b, z, strain, de, xm, &F_z, NULL);
            z_new = z - F / F_z;
            z_old = z;
            z = z_new;
            k++;
        }
        if (fabs(z_old - z_new) > b->tol || !isfinite(z))
            return hs_fail(m->ctx, HS_ECONVERGE,
                           "bouc_wen_infill: z of the step from strain %g to %g did not converge "
                           "in %d iterations to %g; take smaller steps or raise maxNumIter",
                           b->c.e, strain, b->max_iter, b->tol);
        b->t.z = z;
        b->t.x_max = xm;
        b->t.energy = b->c.energy + (1.0 - b->alpha) * b->k / b->mass * de * z;
        b->t.s = b->alpha * b->k * strain + (1.0 - b->alpha) * b->k * z;
        double F_e;
        bi_residual(b, z, strain, de, xm, &F_z, &F_e);
        b->t.t = z == 0.0 ? b->k : b->alpha * b->k + (1.0 - b->alpha) * b->k * (-F_e / F_z);
    }
    m->stress = b->t.s;
    m->tangent = b->t.t;
    m->rate_tangent = 0.0;
    return 0;
}

static double bi_initial_tangent(const hs_material *m)
{
    return ((const bouc_wen_infill *)m->data)->k;
}

static int bi_reset(hs_material *m)
{
    bouc_wen_infill *b = m->data;
    b->c = (bi_state){0.0, 0.0, b->k, 0.0, 0.0, 0.0};
    b->t = b->c;
    return 0;
}

static void bi_destroy(hs_material *m)
{
    hs_free(m->data);
}

static int bi_check(hs_material *m, int ok, const char *what, double got)
{
    return ok ? 0 : hs_fail(m->ctx, HS_EINPUT, "bouc_wen_infill: %s (got %g)", what, got);
}

int hs_material_create_bouc_wen_infill(hs_material *m, const hs_options *opts)
{
    bouc_wen_infill *b = hs_calloc(1, sizeof *b);
    if (!b) return HS_ENOMEM;
    m->data = b;
    hs_material_flat_state(m, (double *)&b->c, (double *)&b->t, BI_STATE);
    m->ops.set_trial = bi_set_trial;
    m->ops.reset = bi_reset;
    m->ops.initial_tangent = bi_initial_tangent;
    m->ops.destroy = bi_destroy;
    b->mass = hs_options_num(opts, "mass", 0.0);
    b->alpha = hs_options_num(opts, "alpha", 0.0);
    b->beta0 = hs_options_num(opts, "beta0", 0.0);
    b->eta0 = hs_options_num(opts, "eta0", 0.0);
    b->n = hs_options_num(opts, "n", 0.0);
    b->k = hs_options_num(opts, "k", 0.0);
    b->xy = hs_options_num(opts, "xy", 0.0);
    b->deltak = hs_options_num(opts, "deltak", 0.0);
    b->deltaf = hs_options_num(opts, "deltaf", 0.0);
    b->psi = hs_options_num(opts, "psi", 0.0);
    b->Zs = hs_options_num(opts, "Zs", 0.0);
    b->As = hs_options_num(opts, "As", 0.0);
    b->epsp = hs_options_num(opts, "epsp", 0.0);
    b->tol = hs_options_num(opts, "tolerance", 1.0e-8);
    const double iters = hs_options_num(opts, "maxNumIter", 20.0);
    int rc;
    if ((rc = bi_check(m, b->mass > 0.0 && isfinite(b->mass), "mass must be > 0", b->mass)) ||
        (rc = bi_check(m, b->alpha >= 0.0 && b->alpha <= 1.0, "alpha must be in [0, 1]",
                       b->alpha)) ||
        (rc = bi_check(m, isfinite(b->beta0), "beta0 must be a finite number", b->beta0)) ||
        (rc = bi_check(m, isfinite(b->eta0), "eta0 must be a finite number", b->eta0)) ||
        (rc = bi_check(m, b->n >= 1.0 && isfinite(b->n), "n must be >= 1", b->n)) ||
        (rc = bi_check(m, b->k > 0.0 && isfinite(b->k), "k must be > 0", b->k)) ||
        (rc = bi_check(m, b->xy > 0.0 && isfinite(b->xy), "xy must be > 0", b->xy)) ||
        (rc = bi_check(m, b->deltak >= 0.0 && isfinite(b->deltak), "deltak must be >= 0",
                       b->deltak)) ||
        (rc = bi_check(m, b->deltaf >= 0.0 && isfinite(b->deltaf), "deltaf must be >= 0",
                       b->deltaf)) ||
        (rc = bi_check(m, isfinite(b->psi), "psi must be a finite number", b->psi)) ||
        (rc = bi_check(m, b->Zs > 0.0 && isfinite(b->Zs), "Zs must be > 0", b->Zs)) ||
        (rc = bi_check(m, b->As >= 0.0 && isfinite(b->As), "As must be >= 0", b->As)) ||
        (rc = bi_check(m, b->epsp > 0.0 && isfinite(b->epsp), "epsp must be > 0", b->epsp)) ||
        (rc = bi_check(m, b->tol > 0.0 && isfinite(b->tol), "tolerance must be > 0", b->tol)) ||
        (rc = bi_check(m, iters >= 1.0 && iters <= 1.0e7 && iters == floor(iters),
                       "maxNumIter must be a whole number >= 1", iters)))
        return rc;
    b->max_iter = (int)iters;
    bi_reset(m);
    return 0;
}
