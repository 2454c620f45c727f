/* Bouc-Wen hysteresis with degradation, with OpenSees' BoucWen parameters and meaning:
 *   stress = alpha k0 e + (1 - alpha) k0 z
 *   dz/de  = [A - |z|^n (gamma + beta sign(de z)) nu] / eta
 *   A = A0 - delta_a E,  nu = 1 + delta_nu E,  eta = 1 + delta_eta E,
 *   E the dissipated-energy variable, dE = (1 - alpha) k0 z de.
 * z integrates by one backward-Euler step over the whole strain increment h = e - e_c (or by
 * `substeps` equal ones, an option OpenSees does not have; default 1), with E
 * taken at the end of the step (E = E_c + (1 - alpha) k0 h z) as OpenSees does:
 *   g(z) = eta(E) (z - z_c) - h Phi(z, E) = 0,  Phi = A - |z|^n Psi nu,
 *   Psi = gamma + beta sgn(h z)
 * (multiplied through by eta so that no division appears in the residual). Newton on z, relative
 * tolerance 1e-8, at most 20 iterations, from the predictor z_c + h dz/de|_c clamped into the band.
 * The trial is a function of the committed state and the trial strain alone (no warm start from
 * earlier trials), so revert, retry and checkpoint/resume reproduce results bit for bit. If it
 * fails, or ends on a spurious root outside the band |z| <= max(|z_c|, z_u) that holds the exact
 * solution, the predictor becomes z_c + h A0, then the increment is split into 4, 16, 64, 256
 * equal backward-Euler sub-steps before HS_ECONVERGE. The tangent alpha k0 + (1 - alpha) k0 dz/de
 * is the derivative of the discrete solution (implicit function theorem, chained through the
 * sub-steps when there are any). With e == e_c the trial is the committed state, tangent included.
 * Integer n (1..32) uses multiplications instead of pow(), half-integer n one sqrt().
 * Committed state (checkpoints): [strain, z, E, dz/de]. */
#include "material_impl.h"

#include <math.h>

const hs_param_spec hs_material_bouc_wen_params[] = {
    {"alpha", HS_PARAM_NUM, 1, "post-yield stiffness ratio, 0 <= alpha <= 1"},
    {"k0", HS_PARAM_NUM, 1, "initial stiffness (force/length), > 0"},
    {"n", HS_PARAM_NUM, 1, "smoothness of the transition to yield, >= 1"},
    {"gamma", HS_PARAM_NUM, 1, "shape parameter (OpenSees gamma), gamma + beta > 0"},
    {"beta", HS_PARAM_NUM, 1, "shape parameter multiplying sign(de z) (OpenSees beta)"},
    {"A0", HS_PARAM_NUM, 0, "initial tangent of z (dz/de at z = 0), > 0 (default 1)"},
    {"delta_a", HS_PARAM_NUM, 0, "degradation of A with dissipated energy, >= 0 (default 0)"},
    {"delta_nu", HS_PARAM_NUM, 0, "strength degradation with dissipated energy, >= 0 (default 0)"},
    {"delta_eta", HS_PARAM_NUM, 0,
     "stiffness degradation with dissipated energy, >= 0 (default 0)"},
    {"substeps", HS_PARAM_NUM, 0,
     "backward-Euler sub-steps per strain increment, integer 1..1000 (default 1, as OpenSees)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

#define BW_TOL      1e-8
#define BW_MAXIT    20
#define BW_NINT_MAX 32

typedef struct bouc_wen {
    double alpha, k0, n, gamma, beta, A0, da, dnu, deta;
    double ka, kh; /* alpha k0, (1 - alpha) k0 */
    int nint;      /* n when it is an integer in [1, BW_NINT_MAX], else 0 */
    int nhalf;     /* floor(n - 1) when n is an integer plus 1/2 below BW_NINT_MAX, else -1 */
    double zu0;    /* yield displacement (A0 / (gamma + beta))^(1/n) */
    int nsub;      /* sub-steps per increment (option substeps) */
    int degrading; /* any delta > 0 */
    double psi_load, psi_unload; /* gamma + beta, gamma - beta */
    double e_c, z_c, E_c, dz_c;  /* committed strain, z, E, dz/de */
    double z, E, dz;             /* trial z, E, dz/de */
} bouc_wen;

/* The partial derivatives of g at the end of one backward-Euler step. */
typedef struct bw_step {
    double z, E; /* solution */
    double r_z;  /* 1 / (dg/dz) */
    double g_h;  /* dg/dh (with E following h) */
    double g_zk; /* dg/dz_k (start of step) */
    double g_Ek; /* dg/dE_k */
} bw_step;

/* a^(n-1) and a^n for a >= 0; nint_c > 0 is n known at the call site (else p->nint). */
static inline void bw_powers(const bouc_wen *p, double a, double *pn1, double *pn, const int nint_c)
{
    double q;
    switch (nint_c > 0 ? nint_c : p->nint) {
    case 1:
        q = 1.0;
        break;
    case 2:
        q = a;
        break;
    case 3:
        q = a * a;
        break;
    case 0:
        if (p->nhalf >= 0) {
            q = sqrt(a);
            for (int i = 0; i < p->nhalf; i++) q *= a;
        } else {
            q = a > 0.0 ? pow(a, p->n - 1.0) : 0.0;
        }
        break;
    default:
        q = a;
        for (int i = 2; i < p->nint; i++) q *= a;
        break;
    }
    *pn1 = q;
    *pn = q * a;
}

/* Bound of the exact solution over a step from (zk, Ek): |z| never exceeds max(|zk|, z_u(E)),
 * z_u(E) = ((A0 - delta_a E) / ((gamma + beta) (1 + delta_nu E)))^(1/n) <= z_u(0) for E >= 0.
 * Backward Euler has spurious roots beyond it (large n, large reversals): they are rejected. */
static double bw_band(const bouc_wen *p, double zk, double Ek)
{
    double zu = p->zu0;
    if (Ek < 0.0 && (p->da > 0.0 || p->dnu > 0.0)) {
        const double nu = 1.0 + p->dnu * Ek;
        zu = nu > 0.0 ? pow((p->A0 - p->da * Ek) / ((p->gamma + p->beta) * nu), 1.0 / p->n)
                      : INFINITY;
    }
    const double azk = fabs(zk); /* fmax without its call: both finite or zu = inf */
    return (azk > zu ? azk : zu) * (1.0 + 1e-9);
}

/* One backward-Euler step of size h from (zk, Ek), Newton from the guess z (clamped into the
 * band). 0, or HS_ECONVERGE when Newton fails or ends outside the band. `degrading` is a constant
 * at each call site so that the compiler drops the degradation terms when all deltas are 0. */
#if defined(__GNUC__)
#define BW_INLINE static inline __attribute__((always_inline))
#else
#define BW_INLINE static inline
#endif
BW_INLINE int bw_solve_in(const bouc_wen *p, double zk, double Ek, double h, double z, bw_step *s,
                          const int degrading, const int nint_c)
{
    const double khh = p->kh * h, band = bw_band(p, zk, Ek);
    if (fabs(z) > band) z = copysign(band, z);
    for (int it = 0; it < BW_MAXIT; it++) {
        const double E = Ek + khh * z;
        const double A = degrading ? p->A0 - p->da * E : p->A0;
        const double nu = degrading ? 1.0 + p->dnu * E : 1.0;
        const double eta = degrading ? 1.0 + p->deta * E : 1.0;
        const double hz = h * z;
        const double psi = hz > 0.0 ? p->psi_load : hz < 0.0 ? p->psi_unload : p->gamma;
        const double az = fabs(z);
        double pn1, pn;
        bw_powers(p, az, &pn1, &pn, nint_c);
        const double phi = A - pn * psi * nu;
        const double phi_E = degrading ? -p->da - pn * psi * p->dnu : 0.0;
        const double sz = z > 0.0 ? 1.0 : z < 0.0 ? -1.0 : 0.0;
        const double phi_z = -(nint_c > 0 ? (double)nint_c : p->n) * pn1 * sz * psi * nu;
        const double dz0 = z - zk;
        const double g = eta * dz0 - h * phi;
        const double g_z =
            degrading ? eta + p->deta * khh * dz0 - h * (phi_z + phi_E * khh) : 1.0 - h * phi_z;
        const double r_z = 1.0 / g_z, step = g * r_z;
        const double znew = z - step;
        if (!isfinite(znew)) return HS_ECONVERGE;
        if (fabs(step) <= BW_TOL * (fabs(znew) + fabs(zk) + fabs(h))) {
            if (fabs(znew) > band) return HS_ECONVERGE; /* a spurious root */
            s->z = znew;
            s->E = Ek + khh * znew;
            s->r_z = r_z;
            s->g_h = degrading ? p->deta * p->kh * z * dz0 - phi - khh * phi_E * z : -phi;
            s->g_zk = -eta;
            s->g_Ek = degrading ? p->deta * dz0 - h * phi_E : 0.0;
            return 0;
        }
        z = fabs(znew) > band ? copysign(band, znew) : znew;
    }
    return HS_ECONVERGE;
}

/* The common cases with their constants folded: no degradation with n = 1 or 2 (the smooth and
 * the usual building laws, e.g. Mosqueda and Ahmadizadeh's n = 2); the same arithmetic. */
static int bw_solve(const bouc_wen *p, double zk, double Ek, double h, double z, bw_step *s)
{
    if (p->degrading) return bw_solve_in(p, zk, Ek, h, z, s, 1, 0);
    if (p->nint == 2) return bw_solve_in(p, zk, Ek, h, z, s, 0, 2);
    if (p->nint == 1) return bw_solve_in(p, zk, Ek, h, z, s, 0, 1);
    return bw_solve_in(p, zk, Ek, h, z, s, 0, 0);
}

/* Whole increment h in nsub equal sub-steps, each from the guess z_k + h_k slope (slope: the
 * given one, then that of the previous sub-step); on success sets p->z, p->E, p->dz. */
static int bw_integrate(bouc_wen *p, double h, int nsub, double slope)
{
    bw_step s;
    if (nsub == 1) {
        if (bw_solve(p, p->z_c, p->E_c, h, p->z_c + h * slope, &s)) return HS_ECONVERGE;
        p->z = s.z;
        p->E = s.E;
        p->dz = -s.g_h * s.r_z;
        return 0;
    }
    const double hs = h / nsub, inv = 1.0 / nsub;
    double z = p->z_c, E = p->E_c;
    double dz = 0.0, dE = 0.0; /* derivatives of z_k, E_k w.r.t. the whole increment h */
    for (int k = 0; k < nsub; k++) {
        if (bw_solve(p, z, E, hs, z + hs * slope, &s)) return HS_ECONVERGE;
        slope = -s.g_h * s.r_z;
        const double dz1 = -(s.g_zk * dz + s.g_Ek * dE + s.g_h * inv) * s.r_z;
        dE += p->kh * (s.z * inv + hs * dz1);
        dz = dz1;
        z = s.z;
        E = s.E;
    }
    p->z = z;
    p->E = E;
    p->dz = dz;
    return 0;
}

static void bw_trial_is_committed(hs_material *m, bouc_wen *p)
{
    p->z = p->z_c;
    p->E = p->E_c;
    p->dz = p->dz_c;
    m->stress = p->ka * p->e_c + p->kh * p->z_c;
    m->tangent = p->ka + p->kh * p->dz_c;
}

/* The trial by the whole sequence: predictor on the committed tangent, then on the elastic slope
 * A0, then sub-steps; on success p->z, p->E, p->dz are set. Out of line: the common case (one
 * step, converged from the first predictor) is bouc_wen_set_trial's own. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int
bw_trial(hs_material *m, bouc_wen *p, double h, double strain)
{
    int rc = bw_integrate(p, h, p->nsub, p->dz_c);
    if (rc) rc = bw_integrate(p, h, p->nsub, p->A0);
    for (int k = 4; rc && k <= 256; k *= 4) rc = bw_integrate(p, h, k * p->nsub, p->A0);
    if (rc) {
        bw_trial_is_committed(m, p);
        const double A = p->A0 - p->da * p->E_c;
        return hs_fail(
            m->ctx, HS_ECONVERGE,
            "bouc_wen: Newton on z did not converge (tol %g, %d iterations, up to 256 "
            "times more sub-steps) for the strain increment %g -> %g from z = %g, E = %g%s",
            BW_TOL, BW_MAXIT, p->e_c, strain, p->z_c, p->E_c,
            A <= 0.0 ? " (A = A0 - delta_a E has dropped to <= 0: the degradation "
                       "has exhausted the hysteresis)"
                     : "");
    }
    return 0;
}

static int bouc_wen_set_trial(hs_material *m, double strain, double strain_rate)
{
    (void)strain_rate;
    bouc_wen *p = m->data;
    m->rate_tangent = 0.0;
    const double h = strain - p->e_c;
    if (h == 0.0) {
        bw_trial_is_committed(m, p);
        return 0;
    }
    bw_step s; /* the first attempt of bw_trial, inline (a failed one is repeated there) */
    if (p->nsub == 1 && !bw_solve(p, p->z_c, p->E_c, h, p->z_c + h * p->dz_c, &s)) {
        p->z = s.z;
        p->E = s.E;
        p->dz = -s.g_h * s.r_z;
    } else {
        const int rc = bw_trial(m, p, h, strain);
        if (rc) return rc;
    }
    m->stress = p->ka * strain + p->kh * p->z;
    m->tangent = p->ka + p->kh * p->dz;
    return 0;
}

static int bouc_wen_commit(hs_material *m)
{
    bouc_wen *p = m->data;
    p->e_c = m->strain;
    p->z_c = p->z;
    p->E_c = p->E;
    p->dz_c = p->dz;
    return 0;
}

static int bouc_wen_revert(hs_material *m)
{
    bouc_wen *p = m->data;
    m->strain = p->e_c;
    m->rate_tangent = 0.0;
    bw_trial_is_committed(m, p);
    return 0;
}

static int bouc_wen_reset(hs_material *m)
{
    bouc_wen *p = m->data;
    p->e_c = p->z_c = p->E_c = 0.0;
    p->dz_c = p->A0; /* z = 0, E = 0: dz/de = A0 */
    return 0;
}

static double bouc_wen_initial_tangent(const hs_material *m)
{
    const bouc_wen *p = m->data;
    return p->ka + p->kh * p->A0;
}

static size_t bouc_wen_state_size(const hs_material *m)
{
    (void)m;
    return 4;
}

static int bouc_wen_state_save(const hs_material *m, double *out)
{
    const bouc_wen *p = m->data;
    out[0] = p->e_c;
    out[1] = p->z_c;
    out[2] = p->E_c;
    out[3] = p->dz_c;
    return 0;
}

static int bouc_wen_state_load(hs_material *m, const double *in)
{
    bouc_wen *p = m->data;
    p->e_c = in[0];
    p->z_c = in[1];
    p->E_c = in[2];
    p->dz_c = in[3];
    m->strain = p->e_c; /* the trial after loading is the committed state */
    m->strain_rate = 0.0;
    return 0;
}

static void bouc_wen_destroy(hs_material *m)
{
    hs_free(m->data);
}

static int bw_check(hs_material *m, int ok, const char *what, double got)
{
    return ok ? 0 : hs_fail(m->ctx, HS_EINPUT, "bouc_wen: %s (got %g)", what, got);
}

int hs_material_create_bouc_wen(hs_material *m, const hs_options *opts)
{
    bouc_wen *p = hs_calloc(1, sizeof *p);
    if (!p) return HS_ENOMEM;
    m->data = p;
    p->alpha = hs_options_num(opts, "alpha", 0.0);
    p->k0 = hs_options_num(opts, "k0", 0.0);
    p->n = hs_options_num(opts, "n", 0.0);
    p->gamma = hs_options_num(opts, "gamma", 0.0);
    p->beta = hs_options_num(opts, "beta", 0.0);
    p->A0 = hs_options_num(opts, "A0", 1.0);
    p->da = hs_options_num(opts, "delta_a", 0.0);
    p->dnu = hs_options_num(opts, "delta_nu", 0.0);
    p->deta = hs_options_num(opts, "delta_eta", 0.0);
    const double nsub = hs_options_num(opts, "substeps", 1.0);
    m->ops.set_trial = bouc_wen_set_trial;
    m->ops.commit = bouc_wen_commit;
    m->ops.revert = bouc_wen_revert;
    m->ops.reset = bouc_wen_reset;
    m->ops.initial_tangent = bouc_wen_initial_tangent;
    m->ops.state_size = bouc_wen_state_size;
    m->ops.state_save = bouc_wen_state_save;
    m->ops.state_load = bouc_wen_state_load;
    m->ops.destroy = bouc_wen_destroy;
    int rc;
    if ((rc = bw_check(m, p->k0 > 0.0 && isfinite(p->k0), "k0 must be > 0", p->k0)) ||
        (rc = bw_check(m, p->alpha >= 0.0 && p->alpha <= 1.0, "alpha must be in [0, 1]",
                       p->alpha)) ||
        (rc = bw_check(m, p->n >= 1.0 && isfinite(p->n), "n must be >= 1", p->n)) ||
        (rc = bw_check(m, isfinite(p->gamma), "gamma must be finite", p->gamma)) ||
        (rc = bw_check(m, isfinite(p->beta), "beta must be finite", p->beta)) ||
        (rc = bw_check(m, p->gamma + p->beta > 0.0 && isfinite(p->gamma + p->beta),
                       "gamma + beta must be > 0", p->gamma + p->beta)) ||
        (rc = bw_check(m, p->A0 > 0.0 && isfinite(p->A0), "A0 must be > 0", p->A0)) ||
        (rc = bw_check(m, p->da >= 0.0 && isfinite(p->da), "delta_a must be >= 0", p->da)) ||
        (rc = bw_check(m, p->dnu >= 0.0 && isfinite(p->dnu), "delta_nu must be >= 0", p->dnu)) ||
        (rc =
             bw_check(m, p->deta >= 0.0 && isfinite(p->deta), "delta_eta must be >= 0", p->deta)) ||
        (rc = bw_check(m, nsub >= 1.0 && nsub <= 1000.0 && nsub == floor(nsub),
                       "substeps must be an integer in [1, 1000]", nsub)))
        return rc;
    p->nsub = (int)nsub;
    p->ka = p->alpha * p->k0;
    p->kh = (1.0 - p->alpha) * p->k0;
    p->degrading = p->da > 0.0 || p->dnu > 0.0 || p->deta > 0.0;
    p->psi_load = p->gamma + p->beta;
    p->psi_unload = p->gamma - p->beta;
    p->zu0 = pow(p->A0 / (p->gamma + p->beta), 1.0 / p->n);
    p->nint = p->n <= BW_NINT_MAX && p->n == floor(p->n) ? (int)p->n : 0;
    p->nhalf = !p->nint && p->n <= BW_NINT_MAX && 2.0 * p->n == floor(2.0 * p->n)
                   ? (int)floor(p->n - 1.0)
                   : -1;
    bouc_wen_reset(m);
    return 0;
}
