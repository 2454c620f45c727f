/* Helpers shared by the integrator implementations. */
#include "integrator_impl.h"

#include <math.h>

/* A response this large (in the model's length units) is taken as runaway. */
#define HS_RUNAWAY 1e12

void hs_int_add_experimental(const hs_integrator *it, const hs_step_io *io, const double *d,
                             double *out)
{
    if (!io->r_exp) return;
    const int n = it->n;
    for (int i = 0; i < n; i++) out[i] += io->r_exp[i];
    if (it->dyn.Kes && io->d_cmd) { /* sparse path: Kes (d - d_cmd) */
        hs_csc_matvec_add(it->dyn.Kes, d, 1.0, out);
        hs_csc_matvec_add(it->dyn.Kes, io->d_cmd, -1.0, out);
    }
    if (it->dyn.Ke && io->d_cmd)
        for (int j = 0; j < n; j++) {
            const double dd = d[j] - io->d_cmd[j];
            if (dd == 0.0) continue;
            const int lo = j - it->kd > 0 ? j - it->kd : 0;
            const int hi = j + it->kd < n - 1 ? j + it->kd : n - 1;
            for (int i = lo; i <= hi; i++) out[i] += HS_AT(it->dyn.Ke, n, i, j) * dd;
        }
}

void hs_int_bandwidths(hs_integrator *it)
{
    const hs_dynamics *dyn = &it->dyn;
    const int n = it->n;
    int kd = hs_mat_bandwidth(n, dyn->M);
    const int others[] = {hs_mat_bandwidth(n, dyn->Me), hs_mat_bandwidth(n, dyn->C),
                          hs_mat_bandwidth(n, dyn->K0), hs_mat_bandwidth(n, dyn->Ke)};
    for (size_t k = 0; k < sizeof others / sizeof others[0]; k++)
        if (others[k] > kd) kd = others[k];
    const int kt = dyn->tangent_band > 0 ? dyn->tangent_band - 1 : n - 1;
    it->kd = kd;
    it->kd_tangent = kt > kd ? kt : kd;
    if (it->kd_tangent > n - 1) it->kd_tangent = n - 1;
}

size_t hs_int_tangent_size(const hs_integrator *it)
{
    const size_t n = (size_t)it->n;
    return it->dyn.tangent_band > 0 ? HS_BAND_LD(it->dyn.tangent_band - 1) * n : n * n;
}

int hs_int_tangent_kd(const hs_integrator *it)
{
    const int tb = it->dyn.tangent_band;
    return tb > 0 && tb - 1 < it->n - 1 ? tb - 1 : it->n - 1;
}

void hs_int_unpack(hs_integrator *it)
{
    double **p[] = {&it->Mp, &it->Cp, &it->K0p, &it->Mep};
    for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
        hs_free(*p[k]);
        *p[k] = NULL;
    }
}

int hs_int_pack(hs_integrator *it)
{
    hs_int_unpack(it);
    const double *src[] = {it->dyn.M, it->dyn.C, it->dyn.K0, it->dyn.Me};
    double **dst[] = {&it->Mp, &it->Cp, &it->K0p, &it->Mep};
    const size_t size = HS_BAND_LD(it->kd) * (size_t)it->n;
    for (size_t k = 0; k < sizeof src / sizeof src[0]; k++) {
        if (!src[k]) continue;
        *dst[k] = hs_dvec(size);
        if (!*dst[k]) return HS_ENOMEM;
        hs_band_pack(it->n, it->kd, src[k], *dst[k]);
    }
    return 0;
}

/* Entries nonzero in any of M, Me, C, K0, Ke (the tangents are not known at setup). */
static double int_static_nnz(const hs_integrator *it)
{
    const hs_dynamics *dyn = &it->dyn;
    const double *m[] = {dyn->M, dyn->Me, dyn->C, dyn->K0, dyn->Ke};
    const size_t nn = (size_t)it->n * (size_t)it->n;
    double nnz = 0.0;
    for (size_t k = 0; k < nn; k++)
        for (size_t q = 0; q < sizeof m / sizeof m[0]; q++)
            if (m[q] && m[q][k] != 0.0) {
                nnz += 1.0;
                break;
            }
    return nnz;
}

int hs_int_linsolver(hs_integrator *it, int kd, hs_linsolver **out)
{
    /* a large structure with a wide band of few entries (a frame): sparse; else LAPACK's */
    const int sparse =
        kd > 1 && it->n >= 100 && hs_linsolver_sparse_pays(it->n, kd, int_static_nnz(it));
    return hs_linsolver_create_band(it->ctx, sparse ? "sparse" : NULL, it->n, kd, out);
}

int hs_int_check_finite(hs_integrator *it, const double *x, const char *what)
{
    /* !(|x| <= bound) holds for NaN, infinities and runaways alike: one test per value, and the
     * loop that names the DOF runs only on failure */
    int bad = 0;
    for (int i = 0; i < it->n; i++) bad |= !(fabs(x[i]) <= HS_RUNAWAY);
    if (!bad) return 1;
    for (int i = 0; i < it->n; i++)
        if (!isfinite(x[i]) || fabs(x[i]) > HS_RUNAWAY) {
            hs_fail(it->ctx, HS_EUNSTABLE, "integrator %s: %s at DOF %d is %g at step %lld",
                    it->type, what, i + 1, x[i], (long long)it->step + 1);
            return 0;
        }
    return 1;
}

/* The union of M's pattern and those of the others given (NULL: skipped). */
static int int_union(hs_integrator *it, const hs_csc *const *more, size_t count, hs_csc **out)
{
    hs_csc *P = NULL;
    int rc = hs_csc_copy(it->ctx, it->dyn.Ms, &P);
    for (size_t k = 0; !rc && k < count; k++) {
        if (!more[k]) continue;
        hs_csc *U = NULL;
        rc = hs_csc_pattern_union(it->ctx, P, more[k], &U);
        hs_csc_destroy(&P);
        P = U;
    }
    if (rc) {
        hs_csc_destroy(&P);
        return rc;
    }
    *out = P;
    return 0;
}

int hs_int_sparse_pattern(hs_integrator *it, int with_tangent, hs_csc **out)
{
    const hs_dynamics *dyn = &it->dyn;
    const hs_csc *more[] = {dyn->K0s, dyn->Cs, with_tangent ? dyn->tangent_pattern : NULL};
    return int_union(it, more, sizeof more / sizeof more[0], out);
}

int hs_int_linsolver_csc(hs_integrator *it, const hs_csc *P, int refactor, hs_linsolver **out)
{
    const int pays = hs_linsolver_sparse_pays(it->n, hs_csc_bandwidth(P), hs_csc_nnz(P));
    return hs_linsolver_create_sparse(it->ctx, pays ? (refactor ? "klu" : "sparse") : NULL, P, out);
}

int hs_int_factor_combination(hs_integrator *it, double a, double b, double c, const char *what,
                              hs_linsolver **out)
{
    const hs_dynamics *dyn = &it->dyn;
    hs_csc *A = NULL;
    hs_linsolver *ls = NULL;
    double *x = hs_dvec((size_t)it->n);
    const hs_csc *Cs = b != 0.0 ? dyn->Cs : NULL, *more[] = {c != 0.0 ? dyn->K0s : NULL, Cs};
    int rc = x ? int_union(it, more, sizeof more / sizeof more[0], &A) : HS_ENOMEM;
    if (!rc) rc = hs_csc_axpby(it->ctx, a, dyn->Ms, c, more[0], A);
    if (!rc && Cs) rc = hs_csc_axpby(it->ctx, 1.0, A, b, Cs, A);
    if (!rc) rc = hs_int_linsolver_csc(it, A, 0, &ls);
    if (!rc) rc = hs_linsolver_factor_csc(ls, A);
    if (rc == HS_ESINGULAR)
        rc = hs_fail(it->ctx, HS_EINPUT, "integrator %s: %s is singular (%s)", it->type, what,
                     hs_ctx_message(it->ctx));
    if (!rc) rc = hs_linsolver_solve(ls, x); /* sizes the solver's work arrays */
    hs_csc_destroy(&A);
    hs_free(x);
    if (rc) {
        hs_linsolver_destroy(&ls);
        return rc;
    }
    *out = ls;
    return 0;
}
