/* Damping matrices from the modes of the initial-stiffness model, and the modes themselves. The
 * initial stiffness is the springs' plus the extra (experimental) stiffness. */
#include "model_impl.h"

#include <math.h>
#include <string.h>

int hs_model_set_extra_stiffness(hs_model *m, const double *K)
{
    const size_t nn = (size_t)m->n * (size_t)m->n;
    if (!K) {
        hs_free(m->Kx);
        m->Kx = NULL;
        hs_csc_destroy(&m->Kxs);
        return 0;
    }
    int rc = hs_model_dense_only(m, "a dense extra stiffness",
                                 "give it in compressed columns "
                                 "(hs_model_set_extra_stiffness_sparse)");
    if (rc) return rc;
    if (!m->Kx && !(m->Kx = hs_dvec(nn))) return HS_ENOMEM;
    memcpy(m->Kx, K, nn * sizeof(double));
    return 0;
}

int hs_model_set_extra_stiffness_sparse(hs_model *m, const hs_csc *K)
{
    hs_csc *copy = NULL;
    const int rc = K ? hs_csc_copy(m->ctx, K, &copy) : 0;
    if (rc) return rc;
    hs_model_set_extra_stiffness(m, NULL);
    m->Kxs = copy;
    return 0;
}

/* The stiffness that modes and damping see: springs + extra stiffness. */
static int total_stiffness(const hs_model *m, double *K)
{
    int rc = hs_model_initial_stiffness(m, K);
    if (!rc && m->Kx)
        for (size_t i = 0; i < (size_t)m->n * (size_t)m->n; i++) K[i] += m->Kx[i];
    return rc;
}

int hs_model_modes(hs_model *m, double *omega2, double *phi)
{
    const size_t n = (size_t)m->n;
    int rc0 = hs_model_dense_only(m, "every mode (LAPACK's dense eigensolver)",
                                  "ask for the lowest modes (hs_model_modes_lowest: ARPACK)");
    if (rc0) return rc0;
    double *K = hs_dvec(n * n), *w = hs_dvec(n), *v = hs_dvec(n * n);
    int rc = (!K || !w || !v) ? HS_ENOMEM : 0;
    if (!rc) rc = total_stiffness(m, K);
    if (!rc) rc = hs_sym_eig(m->ctx, m->n, K, m->M, w, v);
    if (!rc) {
        for (size_t i = 0; i < n; i++)
            if (!(w[i] > 0.0)) {
                rc = hs_fail(m->ctx, HS_EINPUT,
                             "model: mode %zu has omega^2 = %g; the structure is unstable or not "
                             "restrained to the ground",
                             i + 1, w[i]);
                break;
            }
    }
    if (!rc && omega2) memcpy(omega2, w, n * sizeof(double));
    if (!rc && phi) memcpy(phi, v, n * n * sizeof(double));
    hs_free(K);
    hs_free(w);
    hs_free(v);
    return rc;
}

const double *hs_model_damping(const hs_model *m)
{
    return m->C;
}

void hs_model_damping_coefficients(const hs_model *m, double *a0, double *a1)
{
    if (a0) *a0 = m->a0;
    if (a1) *a1 = m->a1;
}

int hs_model_damping_none(hs_model *m)
{
    if (m->C) memset(m->C, 0, (size_t)m->n * (size_t)m->n * sizeof(double));
    m->a0 = m->a1 = 0.0;
    return 0;
}

static int hs_model_damping_mk(hs_model *m, double a0, double a1)
{
    if (!m->C) { /* large: C = a0 M + a1 K0 in compressed columns (hs_model_dynamics) */
        m->a0 = a0;
        m->a1 = a1;
        return 0;
    }
    const size_t n = (size_t)m->n;
    double *K = hs_dvec(n * n);
    if (!K) return HS_ENOMEM;
    int rc = total_stiffness(m, K);
    if (!rc) rc = hs_model_condense_massless(m, K);
    if (rc) {
        hs_free(K);
        return rc;
    }
    hs_mat_axpby(m->n, a0, m->M, a1, K, m->C);
    hs_free(K);
    m->a0 = a0;
    m->a1 = a1;
    return 0;
}

int hs_model_damping_mass_stiffness(hs_model *m, double a0, double a1)
{
    if (!(a0 >= 0.0 && a1 >= 0.0 && isfinite(a0) && isfinite(a1)))
        return hs_fail(m->ctx, HS_EINPUT,
                       "rayleigh damping: the coefficients must be finite and >= 0 (a0 = %g, "
                       "a1 = %g)",
                       a0, a1);
    return hs_model_damping_mk(m, a0, a1);
}

static int hs_model_check_mode(hs_model *m, int mode, const char *what)
{
    if (mode < 0 || mode >= m->n)
        return hs_fail(m->ctx, HS_EINPUT, "%s damping: mode %d does not exist (the model has %d)",
                       what, mode + 1, m->n);
    return 0;
}

int hs_model_damping_rayleigh(hs_model *m, int mode_i, int mode_j, double zeta_i, double zeta_j)
{
    int rc = hs_model_check_mode(m, mode_i, "rayleigh");
    if (!rc) rc = hs_model_check_mode(m, mode_j, "rayleigh");
    if (rc) return rc;
    double *w2 = hs_dvec((size_t)m->n);
    if (!w2) return HS_ENOMEM;
    rc = hs_model_modes_lowest(m, 1 + (mode_i > mode_j ? mode_i : mode_j), w2, NULL);
    const double wi = sqrt(w2[mode_i]), wj = sqrt(w2[mode_j]);
    hs_free(w2);
    if (rc) return rc;
    if (mode_i == mode_j || fabs(wi - wj) < 1e-12 * wj) {
        if (fabs(zeta_i - zeta_j) > 0) /* one frequency: stiffness and mass share it equally */
            return hs_fail(m->ctx, HS_EINPUT, "rayleigh damping: the two modes must differ");
        return hs_model_damping_mk(m, zeta_i * wi, zeta_i / wi);
    }
    /* zeta = a0 / (2 w) + a1 w / 2 at both frequencies */
    const double a1 = 2.0 * (zeta_j * wj - zeta_i * wi) / (wj * wj - wi * wi);
    double a0 = 2.0 * zeta_i * wi - a1 * wi * wi;
    /* Ratios chosen for a purely mass- or stiffness-proportional form leave the other term at
     * round-off: snap it to zero (its share of the ratio at both modes below 1e-12). */
    const double w2max = fmax(wi * wi, wj * wj), w2min = fmin(wi * wi, wj * wj);
    double a1s = a1;
    if (fabs(a1) * w2max <= 1e-12 * fabs(a0)) a1s = 0.0;
    if (fabs(a0) <= 1e-12 * fabs(a1) * w2min) a0 = 0.0;
    return hs_model_damping_mk(m, a0, a1s);
}

int hs_model_damping_stiffness_proportional(hs_model *m, int mode, double zeta)
{
    int rc = hs_model_check_mode(m, mode, "stiffness-proportional");
    if (rc) return rc;
    double *w2 = hs_dvec((size_t)m->n);
    if (!w2) return HS_ENOMEM;
    rc = hs_model_modes_lowest(m, mode + 1, w2, NULL);
    const double w = sqrt(w2[mode]);
    hs_free(w2);
    return rc ? rc : hs_model_damping_mk(m, 0.0, 2.0 * zeta / w);
}

int hs_model_damping_modal(hs_model *m, const double *ratios)
{
    int rc0 = hs_model_dense_only(m, "modal damping (every mode, a full C)",
                                  "use Rayleigh damping (damping: {rayleigh: ...})");
    if (rc0) return rc0;
    const int n = m->n;
    const size_t nn = (size_t)n * (size_t)n;
    double *w2 = hs_dvec((size_t)n), *phi = hs_dvec(nn), *Mphi = hs_dvec(nn);
    int rc = (!w2 || !phi || !Mphi) ? HS_ENOMEM : 0;
    if (!rc) rc = hs_model_modes(m, w2, phi);
    if (!rc) {
        hs_matmul(n, m->M, phi, Mphi); /* columns M phi_k */
        memset(m->C, 0, nn * sizeof(double));
        for (int k = 0; k < n; k++) {
            const double c = 2.0 * ratios[k] * sqrt(w2[k]);
            const double *x = Mphi + (size_t)k * (size_t)n;
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) HS_AT(m->C, n, i, j) += c * x[i] * x[j];
        }
        m->a0 = m->a1 = 0.0;
    }
    hs_free(w2);
    hs_free(phi);
    hs_free(Mphi);
    return rc;
}

int hs_model_damping_matrix(hs_model *m, const double *C)
{
    int rc = hs_model_dense_only(m, "a damping matrix", "use Rayleigh damping");
    if (rc) return rc;
    const int n = m->n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++) {
            const double a = HS_AT(C, n, i, j), b = HS_AT(C, n, j, i);
            if (!isfinite(a) || !isfinite(b) || fabs(a - b) > 1e-9 * (fabs(a) + fabs(b)))
                return hs_fail(m->ctx, HS_EINPUT,
                               "damping matrix: entries (%d, %d) = %g and (%d, %d) = %g differ; "
                               "a damping matrix is symmetric",
                               i + 1, j + 1, a, j + 1, i + 1, b);
        }
    for (int i = 0; i < n; i++)
        if (!(HS_AT(C, n, i, i) >= 0.0))
            return hs_fail(m->ctx, HS_EINPUT,
                           "damping matrix: diagonal entry %d is %g; it must be >= 0", i + 1,
                           HS_AT(C, n, i, i));
    memcpy(m->C, C, (size_t)n * (size_t)n * sizeof(double));
    m->a0 = m->a1 = 0.0;
    return 0;
}
