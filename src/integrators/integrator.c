/* The integrator object: creation through the registry, setup (initial acceleration), the
 * predict/correct split, state access and checkpoints. Algorithms live one per file. */
#include "integrator_impl.h"

#include <math.h>
#include <string.h>

int hs_integrator_create(hs_ctx *ctx, const char *type, const hs_options *opts, hs_integrator **out)
{
    if (!out || !type) return hs_fail(ctx, HS_EINVAL, "integrator: no type given");
    const hs_integrator_entry *e = hs_integrator_registry_find(type);
    if (!e) return hs_fail(ctx, HS_ENOTFOUND, "integrator: unknown type '%s'", type);
    hs_integrator *it = hs_calloc(1, sizeof *it);
    if (!it) return HS_ENOMEM;
    it->ctx = ctx;
    it->type = e->name;
    int rc = e->create(it, opts);
    if (rc) {
        hs_integrator_destroy(&it);
        return rc;
    }
    *out = it;
    return 0;
}

void hs_integrator_destroy(hs_integrator **it)
{
    if (!it || !*it) return;
    hs_integrator *p = *it;
    if (p->ops.destroy) p->ops.destroy(p);
    hs_int_massless_free(p);
    hs_free(p->d);
    hs_free(p->v);
    hs_free(p->a);
    hs_free(p->f_prev);
    hs_int_unpack(p);
    hs_free(p);
    *it = NULL;
}

/* a0 = M^-1 (f0 - C v0 - r(d0, v0) - Ke d0); on the DOFs with mass only when some carry none
 * (massless.c): zero at those, whose rows of M are zero */
static int hs_integrator_initial_acceleration(hs_integrator *it, const double *f0)
{
    const int n = it->n;
    double *r = hs_dvec((size_t)n);
    hs_linsolver *ls = NULL;
    int rc = !r ? HS_ENOMEM : 0;
    if (!rc) rc = it->dyn.restore(it->dyn.user, it->d, it->v, r, NULL, NULL);
    if (!rc) {
        for (int i = 0; i < n; i++) it->a[i] = (f0 ? f0[i] : 0.0) - r[i];
        hs_int_matvec_add(it, HS_INT_C, it->v, -1.0, it->a);
        if (it->dyn.Kes) hs_csc_matvec_add(it->dyn.Kes, it->d, -1.0, it->a);
        if (it->dyn.Ke) hs_band_matvec_add(n, it->kd, it->dyn.Ke, it->d, -1.0, it->a);
        rc = hs_int_sparse(it) ? hs_int_linsolver_csc(it, it->dyn.Ms, 0, &ls)
                               : hs_int_linsolver(it, it->kd, &ls);
    }
    double *M1 = NULL; /* M with 1 on the diagonal of the DOFs without mass */
    if (!rc && hs_int_massless_count(it) > 0) {
        if (!(M1 = hs_dvec((size_t)n * (size_t)n))) rc = HS_ENOMEM;
        if (!rc) memcpy(M1, it->dyn.M, (size_t)n * (size_t)n * sizeof(double));
        for (int i = 0; !rc && i < n; i++)
            if (!hs_int_has_mass(it, i)) {
                HS_AT(M1, n, i, i) = 1.0;
                it->a[i] = 0.0;
            }
    }
    if (!rc)
        rc = hs_int_sparse(it) ? hs_linsolver_factor_csc(ls, it->dyn.Ms)
                               : hs_linsolver_factor(ls, M1 ? M1 : it->dyn.M);
    hs_free(M1);
    if (rc == HS_ESINGULAR)
        rc = hs_fail(it->ctx, HS_EINPUT, "integrator %s: the mass matrix is singular", it->type);
    if (!rc) rc = hs_linsolver_solve(ls, it->a);
    hs_linsolver_destroy(&ls);
    hs_free(r);
    return rc;
}

int hs_integrator_takes_sparse(const hs_integrator *it, int with_experiment)
{
    return it->ops.sparse && (!with_experiment || it->ops.sparse_exp);
}

int hs_integrator_set_initial_acceleration(hs_integrator *it, hs_initial_acceleration how)
{
    if (how != HS_INITIAL_ACCELERATION_EQUILIBRIUM && how != HS_INITIAL_ACCELERATION_ZERO)
        return hs_fail(it->ctx, HS_EINVAL, "integrator %s: unknown initial acceleration %d",
                       it->type, (int)how);
    it->start = how;
    return 0;
}

int hs_integrator_setup(hs_integrator *it, const hs_dynamics *dyn, double dt, const double *d0,
                        const double *v0, const double *f0)
{
    const int has_sparse = dyn && dyn->K0s && dyn->Ms && dyn->tangent_pattern,
              has_dense = dyn && dyn->M && dyn->K0;
    if (!it || !dyn || dyn->n <= 0 || !dyn->restore || (!has_sparse && !has_dense))
        return hs_fail(it ? it->ctx : NULL, HS_EINVAL, "integrator: incomplete dynamics");
    /* the sparse path when the dynamics has it and the algorithm takes it: with an experiment
     * only as Kes (a dense Ke or Me alone keeps the dense path) and for sparse_exp algorithms */
    const int dense_exp = dyn && (dyn->Me || dyn->Ke), sparse_exp = dyn && dyn->Kes;
    const int sparse =
        has_sparse && it->ops.sparse && (sparse_exp ? it->ops.sparse_exp : !dense_exp);
    if (has_sparse && !has_dense && !sparse) {
        if (!sparse_exp && !dense_exp)
            return hs_fail(it->ctx, HS_EUNSUPPORTED,
                           "integrator %s: this structure's matrices are sparse (%d DOFs), and %s "
                           "takes only dense ones; use central_difference, newmark_explicit, "
                           "alpha_os, cr, newmark or hht",
                           it->type, dyn->n, it->type);
        return hs_fail(it->ctx, HS_EUNSUPPORTED,
                       "integrator %s: experimental substructures on a structure with sparse "
                       "matrices (%d DOFs) are taken by alpha_os, cr, newmark and hht (their "
                       "matrices hold the initial Ke)%s; choose one of them (integrators that "
                       "update Ke between steps need the dense matrices)",
                       it->type, dyn->n,
                       sparse_exp ? "" : ", and only as compressed columns (dyn.Kes)");
    }
    if (!(dt > 0.0) || !isfinite(dt))
        return hs_fail(it->ctx, HS_EINPUT, "integrator %s: dt must be > 0 (got %g)", it->type, dt);
    const hs_integrator_entry *e = hs_integrator_registry_find(it->type);
    if (e && e->linear_only && !dyn->linear)
        return hs_fail(it->ctx, HS_EINPUT,
                       "integrator %s: only for linear models, and this model has nonlinear "
                       "materials",
                       it->type);
    it->dyn = *dyn;
    if (!sparse) {
        it->dyn.Ms = it->dyn.Cs = it->dyn.K0s = it->dyn.tangent_pattern = NULL;
        it->dyn.Kes = it->dyn.Mes = NULL;
        it->dyn.tangent_var = NULL;
        it->dyn.ntangent_var = 0;
        it->dyn.restore_var = NULL;
    } else {
        it->dyn.M = it->dyn.C = it->dyn.K0 = it->dyn.Ke = it->dyn.Me = NULL; /* never read */
        if (dyn->restore_sparse) it->dyn.restore = dyn->restore_sparse;
    }
    it->n = dyn->n;
    it->dt = dt;
    it->t = 0.0;
    it->step = 0;
    const size_t n = (size_t)dyn->n;
    hs_free(it->d);
    hs_free(it->v);
    hs_free(it->a);
    hs_free(it->f_prev);
    it->d = hs_dvec(n);
    it->v = hs_dvec(n);
    it->a = hs_dvec(n);
    it->f_prev = hs_dvec(n);
    if (!it->d || !it->v || !it->a || !it->f_prev) return HS_ENOMEM;
    if (d0) memcpy(it->d, d0, n * sizeof(double));
    if (v0) memcpy(it->v, v0, n * sizeof(double));
    if (f0) memcpy(it->f_prev, f0, n * sizeof(double));
    int rc = 0;
    if (sparse) { /* no band, no packed copies: the step loops read the compressed columns */
        hs_int_unpack(it);
        const hs_csc *csc[] = {it->dyn.Ms, it->dyn.Cs, it->dyn.K0s};
        for (int k = 0; k < 3; k++)
            it->csc_symmetric[k] = (unsigned char)(csc[k] && hs_csc_is_symmetric(csc[k]));
        it->kd = it->kd_tangent = dyn->n - 1;
    } else {
        hs_int_bandwidths(it);
        rc = hs_int_pack(it);
    }
    if (!rc) rc = hs_int_massless_setup(it, &it->dyn);
    if (rc) return rc;
    if (it->start == HS_INITIAL_ACCELERATION_EQUILIBRIUM) {
        rc = hs_integrator_initial_acceleration(it, f0);
        if (rc) return rc;
    } /* else zero, as allocated */
    return it->ops.setup ? it->ops.setup(it) : 0;
}

int hs_integrator_predict(hs_integrator *it, hs_step_io *io)
{
    io->iterations = 0;
    io->fallback = 0;
    io->stiffness_updated = 0;
    int rc = it->ops.predict(it, io);
    if (!rc && !hs_int_check_finite(it, io->d_cmd, "command displacement")) rc = HS_EUNSTABLE;
    return rc;
}

int hs_integrator_correct(hs_integrator *it, hs_step_io *io)
{
    int rc = it->ops.correct(it, io);
    if (rc) return rc;
    if (!hs_int_check_finite(it, it->d, "displacement") ||
        !hs_int_check_finite(it, it->v, "velocity") ||
        !hs_int_check_finite(it, it->a, "acceleration"))
        return HS_EUNSTABLE;
    memcpy(it->f_prev, io->f_n1, (size_t)it->n * sizeof(double));
    it->step = io->step + 1;
    it->t = io->t + it->dt;
    return 0;
}

int hs_integrator_step(hs_integrator *it, hs_step_io *io)
{
    int rc = hs_integrator_predict(it, io);
    return rc ? rc : hs_integrator_correct(it, io);
}

const char *hs_integrator_type(const hs_integrator *it)
{
    return it->type;
}
int hs_integrator_ndof(const hs_integrator *it)
{
    return it->n;
}
double hs_integrator_dt(const hs_integrator *it)
{
    return it->dt;
}
const double *hs_integrator_displacement(const hs_integrator *it)
{
    return it->d;
}
const double *hs_integrator_velocity(const hs_integrator *it)
{
    return it->v;
}
const double *hs_integrator_acceleration(const hs_integrator *it)
{
    return it->a;
}

int hs_integrator_experimental_stiffness(const hs_integrator *it, double *Kl)
{
    if (!it || !Kl || !it->ops.experimental_stiffness) return HS_EUNSUPPORTED;
    return it->ops.experimental_stiffness(it, Kl);
}

int hs_integrator_set_state(hs_integrator *it, const double *d, const double *v, const double *a)
{
    const size_t n = (size_t)it->n;
    if (d) memcpy(it->d, d, n * sizeof(double));
    if (v) memcpy(it->v, v, n * sizeof(double));
    if (a) memcpy(it->a, a, n * sizeof(double));
    return 0;
}

size_t hs_integrator_state_size(const hs_integrator *it)
{
    size_t extra = it->ops.state_size ? it->ops.state_size(it) : 0;
    return 2 + 4 * (size_t)it->n + extra;
}

int hs_integrator_state_save(const hs_integrator *it, double *out)
{
    const size_t n = (size_t)it->n;
    out[0] = it->t;
    out[1] = (double)it->step;
    memcpy(out + 2, it->d, n * sizeof(double));
    memcpy(out + 2 + n, it->v, n * sizeof(double));
    memcpy(out + 2 + 2 * n, it->a, n * sizeof(double));
    memcpy(out + 2 + 3 * n, it->f_prev, n * sizeof(double));
    return it->ops.state_save ? it->ops.state_save(it, out + 2 + 4 * n) : 0;
}

int hs_integrator_state_load(hs_integrator *it, const double *in)
{
    const size_t n = (size_t)it->n;
    it->t = in[0];
    it->step = (int64_t)in[1];
    memcpy(it->d, in + 2, n * sizeof(double));
    memcpy(it->v, in + 2 + n, n * sizeof(double));
    memcpy(it->a, in + 2 + 2 * n, n * sizeof(double));
    memcpy(it->f_prev, in + 2 + 3 * n, n * sizeof(double));
    return it->ops.state_load ? it->ops.state_load(it, in + 2 + 4 * n) : 0;
}
