/* OpenSees ConcretewBeta (SRC/material/uniaxial/ConcretewBeta.cpp, read for facts): concrete of a
 * parabolic compression envelope to (ec0, fpc), a cubic to the confined peak (ecc, fcc), then
 * linear softening through (ecint, fcint) to the residual (ecres, fcres) held after; tension
 * linear to ft at et0 = ft / E0, then linear softening through (etint, ftint) to (etres, ftres)
 * (or Stevens-Collins stiffening with -M); unloading from compression with lambda's mix of the
 * initial and secant slopes, reloading towards the largest compression or the crack-closing
 * point (eaftc, -alpha ft). Compression negative. The compression softening factor beta of a
 * transverse tensile strain et (ConcretewBeta::computeBeta: 1 at et <= 0, linear to bint at
 * etbint, linear to bres at etbres, bres after) multiplies the compression stresses; the
 * transverse strain comes from a Truss2 element (hs_material_set_trial_transverse, fe_truss.c);
 * a plain uniaxial use (setTrialStrain) has et = 0, beta = 1. State: [strain, stress, tangent,
 * beta, largest compression strain, its stress, its stress without beta, largest tension strain,
 * its stress]. */
#include "material_impl.h"

#include <float.h>
#include <math.h>

const hs_param_spec hs_material_concrete_w_beta_params[] = {
    {"fpc", HS_PARAM_NUM, 1, "compressive strength, <= 0"},
    {"ec0", HS_PARAM_NUM, 1, "strain at fpc, <= 0"},
    {"fcint", HS_PARAM_NUM, 1, "compressive stress at ecint, <= 0"},
    {"ecint", HS_PARAM_NUM, 1, "strain of the softening's break, <= 0"},
    {"fcres", HS_PARAM_NUM, 1, "residual compressive stress, <= 0"},
    {"ecres", HS_PARAM_NUM, 1, "strain where the residual starts, <= ecint"},
    {"ft", HS_PARAM_NUM, 1, "tensile strength, >= 0"},
    {"ftint", HS_PARAM_NUM, 1, "tensile stress at etint, >= 0"},
    {"etint", HS_PARAM_NUM, 1, "strain of the tension softening's break, >= 0"},
    {"ftres", HS_PARAM_NUM, 1, "residual tensile stress, >= 0"},
    {"etres", HS_PARAM_NUM, 1, "strain where the tensile residual starts, >= 0"},
    {"lambda", HS_PARAM_NUM, 0, "unloading: share of the secant slope, 0 to 1 (default 0.5)"},
    {"alpha", HS_PARAM_NUM, 0, "crack-closing stress as a share of ft, >= 0 (default 1)"},
    {"bint", HS_PARAM_NUM, 0, "beta at the transverse strain etbint (default 1)"},
    {"etbint", HS_PARAM_NUM, 0, "transverse strain of bint (default 0)"},
    {"bres", HS_PARAM_NUM, 0, "residual beta (default 1)"},
    {"etbres", HS_PARAM_NUM, 0, "transverse strain of bres (default 0)"},
    {"M", HS_PARAM_NUM, 0, "Stevens-Collins tension stiffening factor, >= 0 (default 0: none)"},
    {"E", HS_PARAM_NUM, 0, "initial tangent, fpc/ec0 to 2 fpc/ec0 (default 2 fpc / ec0)"},
    {"fcc", HS_PARAM_NUM, 0, "confined strength, <= fpc (default fpc)"},
    {"ecc", HS_PARAM_NUM, 0, "strain at fcc, <= ec0 (default ec0)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

enum { CWB_STATE = 9 };

typedef struct cwb_state {
    double e, s, t, beta;
    double emin, smin, smin_pure; /* largest compression: strain, stress, stress without beta */
    double emax, smax;            /* largest tension: strain, stress */
} cwb_state;
_Static_assert(sizeof(cwb_state) == CWB_STATE * sizeof(double), "a flat array of doubles");

typedef struct cwb {
    double fpc, ec0, fcint, ecint, fcres, ecres, fct, ftint, etint, ftres, etres;
    double lambda, alpha, M, E0, fcc, ecc;
    double bint, etbint, bres, etbres;
    double et0, alphafct, eaftc, Esoft1, Esoft2, lambdaM; /* updateStoredValues */
    cwb_state c, t;
} cwb;

/* ConcretewBeta::setValues from the state t (its strain and stress may move: the tension
 * unloading), beta of the trial; the new stress, stress without beta and tangent. */
static void set_values(const cwb *p, cwb_state *t, double e, double beta, double *s, double *sp,
                       double *et)
{
    const cwb_state *c = &p->c;
    if (p->E0 == 0.0) {
        *s = *sp = *et = 0.0;
        return;
    }
    if (t->s >= 0.0 && beta != 1.0) beta = 1.0;
    const double de = e - t->e, E0 = p->E0;
    if (de > 0.0) {
        if (e > c->emax) { /* the tension envelope */
            if (e <= p->et0) {
                *sp = E0 * e;
                *s = *sp;
                *et = E0;
            } else if (p->M == 0.0) {
                if (e <= p->etint) {
                    *et = (p->fct - p->ftint) / (p->et0 - p->etint);
                    *sp = *et * (e - p->etint) + p->ftint;
                } else if (e <= p->etres) {
                    *et = (p->ftint - p->ftres) / (p->etint - p->etres);
                    *sp = *et * (e - p->etres) + p->ftres;
                } else {
                    *sp = p->ftres;
                    *et = 0.0;
                }
                *s = *sp;
            } else if (p->lambdaM == 1.0) {
                *sp = *s = p->fct;
                *et = 0.0;
            } else {
                const double x = exp(-p->lambdaM * (e - p->et0));
                *sp = p->fct * ((1.0 - p->M) * x + p->M);
                *s = *sp;
                *et = -p->lambdaM * p->fct * ((1.0 - p->M) * x);
            }
        } else if (t->s < 0.0) { /* unloading from compression */
            const double E1 = t->e != 0.0 ? t->s / t->e : 0.0;
            *et = (1.0 - p->lambda) * E0 + p->lambda * E1;
            *sp = *et * de + t->s;
            *s = *sp;
            if (E1 > E0 || E1 < 0.0) {
                *et = (c->smax - t->s) / (c->emax - t->e);
                *sp = *et * de + t->s;
                *s = *sp;
            } else if (*s > 0.0) {
                const double zero = e - *s / *et;
                *et = c->smax / (c->emax - zero);
                *sp = *et * (e - zero);
                *s = *sp;
            }
        } else { /* reloading in tension towards the largest tension */
            *et = (c->smax - t->s) / (c->emax - t->e);
            const double secant = t->s / t->e;
            if (e < 0.0 && secant > *et) *et = secant;
            *sp = *et * de + t->s;
            *s = *sp;
        }
        return;
    }
    if (de < 0.0) {
        if (e - c->emin <= DBL_EPSILON) { /* the compression envelope */
            if (e >= p->eaftc && c->emax > 0.0) {
                *et = (p->alphafct - t->s) / (p->eaftc - t->e);
                *sp = *et * de + t->s;
                *et = (beta * p->alphafct - t->s) / (p->eaftc - t->e);
                *s = *et * de + t->s;
            } else if (e >= p->ec0) {
                const double a = p->fpc / (p->ec0 * p->ec0) - E0 / p->ec0;
                *sp = E0 * e + a * (e * e);
                *s = beta * *sp;
                *et = beta * (E0 + 2.0 * a * e);
            } else if (e >= p->ecc) {
                const double a = (p->fpc - p->fcc) / pow(p->ec0 - p->ecc, 3) * pow(e - p->ecc, 2);
                *sp = a * (e - p->ecc) + p->fcc;
                *s = beta * *sp;
                *et = 3.0 * a;
            } else if (e >= p->ecint) {
                *sp = p->Esoft1 * (e - p->ecint) + p->fcint;
                *s = beta * *sp;
                *et = beta * p->Esoft1;
            } else if (e >= p->ecres) {
                *sp = p->Esoft2 * (e - p->ecres) + p->fcres;
                *s = beta * *sp;
                *et = beta * p->Esoft2;
            } else {
                *sp = p->fcres;
                *s = beta * *sp;
                *et = (*s - t->s) / (e - t->e);
            }
        } else if (E0 * de + t->s >= 0.0) { /* unloading in tension, still in tension */
            *et = E0;
            *s = E0 * de + t->s;
            *sp = *s;
        } else { /* towards the compression: the crack closes */
            double us = 0.0, ue = 0.0;
            if (t->s > 0.0) {
                us = t->s;
                ue = t->s / E0;
                t->e = t->e - ue;
                if (t->e < e) {
                    t->e = e;
                    ue = t->e - e;
                    us = E0 * ue;
                }
                t->s = t->s - us;
            }
            if (t->e >= p->eaftc) {
                const double E1a = (p->alphafct - t->s) / (p->eaftc - t->e);
                const double E1 = (beta * p->alphafct - t->s) / (p->eaftc - t->e);
                double E2, E2a, aim;
                if (beta * c->smin_pure > c->smin) {
                    E2a = (c->smin_pure - t->s) / (c->emin - t->e);
                    aim = beta * c->smin_pure;
                    E2 = (aim - t->s) / (c->emin - t->e);
                } else {
                    aim = c->smin;
                    E2 = (aim - t->s) / (c->emin - t->e);
                    E2a = (aim / beta - t->s) / (c->emin - t->e);
                }
                if (E1a > E2a && c->emin <= p->ec0) {
                    *et = (aim - (t->s + us)) / (c->emin - (t->e + ue));
                    *sp = E2a * (e - t->e) + t->s;
                    *s = E2 * (e - t->e) + t->s;
                } else {
                    *et = (beta * p->alphafct - (t->s + us)) / (p->eaftc - (t->e + ue));
                    *sp = E1a * (e - t->e) + t->s;
                    *s = E1 * (e - t->e) + t->s;
                }
            } else { /* OpenSees aims at beta times the pure largest compression */
                const double aim = beta * c->smin_pure, aimA = c->smin_pure;
                const double E2 = (aim - (t->s + us)) / (c->emin - (t->e + ue));
                const double E2a = (aimA - (t->s + us)) / (c->emin - (t->e + ue));
                *et = E2;
                *sp = E2a * (e - t->e) + t->s;
                *s = E2 * (e - t->e) + t->s;
            }
        }
        return;
    }
    *sp = t->s <= 0.0 ? t->s / t->beta : t->s;
    *s = t->s;
    *et = t->t;
}

/* ConcretewBeta::computeBeta: the softening factor at the transverse strain et */
static double beta_at(const cwb *p, double et)
{
    if (et <= 0.0) return 1.0;
    if (et <= p->etbint) return (1.0 - p->bint) / (-p->etbint) * (et - p->etbint) + p->bint;
    if (et <= p->etbres)
        return (p->bint - p->bres) / (p->etbint - p->etbres) * (et - p->etbres) + p->bres;
    return p->bres;
}

/* ConcretewBeta::setTrialStrainwBeta: from the committed state, at the transverse strain et */
static int cwb_set_trial_transverse(hs_material *m, double strain, double strain_rate, double et)
{
    (void)strain_rate;
    cwb *p = m->data;
    cwb_state *t = &p->t;
    *t = p->c; /* revertToLastCommit first */
    m->rate_tangent = 0.0;
    const double beta = beta_at(p, et);
    if (!(fabs(strain - t->e) < DBL_EPSILON)) {
        double s, sp, tan;
        set_values(p, t, strain, beta, &s, &sp, &tan);
        t->t = tan;
        t->s = s;
        t->e = strain;
        t->beta = beta;
        if (t->e >= p->c.emax) {
            t->emax = t->e;
            t->smax = t->s;
        } else if (t->e <= p->c.emin) {
            t->emin = t->e;
            t->smin = t->s;
            t->smin_pure = sp;
        }
    }
    m->stress = t->s;
    m->tangent = t->t;
    return 0;
}

/* setTrialStrain: a transverse strain of 0 */
static int cwb_set_trial(hs_material *m, double strain, double strain_rate)
{
    return cwb_set_trial_transverse(m, strain, strain_rate, 0.0);
}

static int cwb_reset(hs_material *m)
{
    cwb *p = m->data;
    p->c = (cwb_state){.t = p->E0, .beta = 1.0};
    p->t = p->c;
    return 0;
}

static double cwb_initial_tangent(const hs_material *m)
{
    return ((const cwb *)m->data)->E0;
}

static void cwb_destroy(hs_material *m)
{
    hs_free(m->data);
}

/* ConcretewBeta::updateStoredValues */
static void stored_values(cwb *p)
{
    if (p->ec0 == 0.0) {
        p->et0 = p->alphafct = p->eaftc = p->Esoft1 = p->Esoft2 = 0.0;
        p->lambdaM = 1.0;
        return;
    }
    const double E0 = p->E0, fpc = p->fpc, ec0 = p->ec0;
    p->et0 = p->fct / E0;
    p->alphafct = -p->alpha * p->fct;
    const double disc = sqrt(E0 * E0 - 4.0 * (fpc - E0 * ec0) / (ec0 * ec0) * (-p->alphafct));
    const double e1 = (-E0 + disc) / (fpc - E0 * ec0) * 0.5 * (ec0 * ec0);
    const double e2 = (-E0 - disc) / (fpc - E0 * ec0) * 0.5 * (ec0 * ec0);
    p->eaftc = e1 > e2 && e1 <= 0.0 ? e1 : e2;
    p->Esoft1 = ec0 != p->ecint ? (p->fcc - p->fcint) / (p->ecc - p->ecint) : 0.0;
    p->Esoft2 = p->ecint != p->ecres ? (p->fcint - p->fcres) / (p->ecint - p->ecres) : 0.0;
    p->lambdaM = p->M > 0.0 ? 540.0 / sqrt(p->M) : 1.0;
}

static int cwb_check(hs_material *m, int ok, const char *what, double got)
{
    return ok ? 0 : hs_fail(m->ctx, HS_EINPUT, "concrete_w_beta: %s (got %g)", what, got);
}

int hs_material_create_concrete_w_beta(hs_material *m, const hs_options *opts)
{
    cwb *p = hs_calloc(1, sizeof *p);
    if (!p) return HS_ENOMEM;
    m->data = p;
    p->fpc = hs_options_num(opts, "fpc", 0.0);
    p->ec0 = hs_options_num(opts, "ec0", 0.0);
    p->fcint = hs_options_num(opts, "fcint", 0.0);
    p->ecint = hs_options_num(opts, "ecint", 0.0);
    p->fcres = hs_options_num(opts, "fcres", 0.0);
    p->ecres = hs_options_num(opts, "ecres", 0.0);
    p->fct = hs_options_num(opts, "ft", 0.0);
    p->ftint = hs_options_num(opts, "ftint", 0.0);
    p->etint = hs_options_num(opts, "etint", 0.0);
    p->ftres = hs_options_num(opts, "ftres", 0.0);
    p->etres = hs_options_num(opts, "etres", 0.0);
    p->lambda = hs_options_num(opts, "lambda", 0.5);
    p->alpha = hs_options_num(opts, "alpha", 1.0);
    p->M = hs_options_num(opts, "M", 0.0);
    p->E0 = hs_options_num(opts, "E", 0.0);
    p->fcc = hs_options_num(opts, "fcc", 0.0);
    p->ecc = hs_options_num(opts, "ecc", 0.0);
    p->bint = hs_options_num(opts, "bint", 1.0);
    p->etbint = hs_options_num(opts, "etbint", 0.0);
    p->bres = hs_options_num(opts, "bres", 1.0);
    p->etbres = hs_options_num(opts, "etbres", 0.0);
    hs_material_flat_state(m, (double *)&p->c, (double *)&p->t, CWB_STATE);
    m->ops.set_trial = cwb_set_trial;
    m->ops.set_trial_transverse = cwb_set_trial_transverse;
    m->ops.reset = cwb_reset;
    m->ops.initial_tangent = cwb_initial_tangent;
    m->ops.destroy = cwb_destroy;
    int rc;
    if ((rc = cwb_check(m, p->fpc < 0.0 && isfinite(p->fpc), "fpc must be < 0", p->fpc)) ||
        (rc = cwb_check(m, p->ec0 < 0.0 && isfinite(p->ec0), "ec0 must be < 0", p->ec0)) ||
        (rc = cwb_check(m, p->fcint <= 0.0 && p->fcres <= 0.0, "fcint and fcres must be <= 0",
                        p->fcint > 0.0 ? p->fcint : p->fcres)) ||
        (rc = cwb_check(m, p->ecint <= 0.0 && p->ecres <= p->ecint,
                        "ecint must be <= 0 and ecres <= ecint", p->ecres)) ||
        (rc = cwb_check(m, p->fct >= 0.0 && p->ftint >= 0.0 && p->ftres >= 0.0,
                        "ft, ftint and ftres must be >= 0", p->fct)) ||
        (rc = cwb_check(m, p->etint >= 0.0 && p->etres >= 0.0, "etint and etres must be >= 0",
                        p->etint)) ||
        (rc = cwb_check(m, p->lambda >= 0.0 && p->lambda <= 1.0, "lambda must be in [0, 1]",
                        p->lambda)) ||
        (rc = cwb_check(m, p->alpha >= 0.0, "alpha must be >= 0", p->alpha)) ||
        (rc = cwb_check(m, p->M >= 0.0, "M must be >= 0", p->M)) ||
        (rc = cwb_check(m, p->bint >= 0.0 && p->etbint >= 0.0 && p->bres >= 0.0 && p->etbres >= 0.0,
                        "the -beta values bint etbint bres etbres must be >= 0",
                        fmin(fmin(p->bint, p->etbint), fmin(p->bres, p->etbres)))))
        return rc;
    /* OpenSees' constructor: confinement ignored unless fcc <= fpc and ecc <= ec0; E0 within
     * fpc / ec0 and 2 fpc / ec0 (2 fpc / ec0 when not given) */
    if (p->fcc == 0.0 || p->fcc > p->fpc || p->ecc > p->ec0) {
        p->fcc = p->fpc;
        p->ecc = p->ec0;
    }
    if (p->E0 == 0.0 || p->E0 > 2.0 * p->fpc / p->ec0)
        p->E0 = 2.0 * (p->fpc / p->ec0);
    else if (p->E0 < p->fpc / p->ec0)
        p->E0 = p->fpc / p->ec0;
    stored_values(p);
    cwb_reset(m);
    return 0;
}
