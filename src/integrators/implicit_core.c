/* The implicit Newmark-family step with Newton on the numerical restoring force.
 *
 * Unknown d = d(n+1); with the Newmark predictors d~ = d(n) + dt v(n) + dt^2 (1/2 - beta) a(n)
 * and v~ = v(n) + dt (1 - gamma) a(n):
 *   a(d) = (d - d~) / (beta dt^2),   v(d) = v~ + gamma dt a(d)
 * and the mosqueda2008b form of the HHT equation (alpha = 0 gives Newmark):
 *   M a + (1 + alpha)(C v + r(d, v) + r_e(d)) - alpha Me a
 *       = (1 + alpha) f(n+1) - alpha f(n) + alpha (C v(n) + q(n)) - alpha Me a(n)
 * q(n) the restoring force (numerical + experimental) of the committed state, r_e(d) = r_exp +
 * Ke (d - d_cmd) the experimental force linearised about the command. Newton matrix:
 *   J = (M - alpha Me) / (beta dt^2) + (1 + alpha) (gamma / (beta dt) (C + Ct) + Kt + Ke).
 * On the sparse path (dyn.K0s) an experiment comes as Kes and Mes (constant, compressed columns).
 * Every matrix loop runs over the band: M, Me, C are the base's packed copies (it->kd), Kt and Ct
 * come from restore packed (dyn.tangent_band) or dense, J is packed with it->kd_tangent and
 * factored by a banded solver when the band is narrow. */
#include "implicit_core.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int hs_implicit_init(hs_integrator *it, hs_implicit *s, const hs_options *opts, double alpha,
                     double beta, double gamma)
{
    s->alpha = alpha;
    s->beta = beta;
    s->gamma = gamma;
    s->tol = hs_options_num(opts, "tol", 1e-10);
    const double mi = hs_options_num(opts, "max_iter", 20.0);
    if (!(beta > 0.0) || !isfinite(beta))
        return hs_fail(it->ctx, HS_EINPUT,
                       "%s: beta must be > 0 (got %g); beta = 0 is the explicit method "
                       "newmark_explicit",
                       it->type, beta);
    if (!(gamma >= 0.0) || !isfinite(gamma))
        return hs_fail(it->ctx, HS_EINPUT, "%s: gamma must be >= 0 (got %g)", it->type, gamma);
    if (!(s->tol > 0.0) || !(s->tol < 1.0))
        return hs_fail(it->ctx, HS_EINPUT, "%s: tol must be in (0, 1) (got %g)", it->type, s->tol);
    if (!(mi >= 1.0 && mi <= 1000.0) || mi != floor(mi))
        return hs_fail(it->ctx, HS_EINPUT, "%s: max_iter must be an integer in 1..1000 (got %g)",
                       it->type, mi);
    s->max_iter = (int)mi;
    return 0;
}

int hs_implicit_tangent_option(hs_integrator *it, hs_implicit *s, const hs_options *opts)
{
    const char *t = hs_options_str(opts, "tangent", "current");
    int every = 0, used = 0;
    if (strcmp(t, "current") == 0)
        s->refresh = 0;
    else if (strcmp(t, "initial") == 0)
        s->refresh = HS_IMPLICIT_INITIAL;
    else if (sscanf(t, "every %d%n", &every, &used) == 1 && t[used] == '\0' && every >= 1)
        s->refresh = every;
    else
        return hs_fail(it->ctx, HS_EINPUT,
                       "%s: tangent must be 'current', 'initial' or 'every N' with N >= 1 steps "
                       "(got '%s')",
                       it->type, t);
    const char *u = hs_options_str(opts, "update", "woodbury");
    const double nd = hs_options_num(opts, "update_dofs", 64.0);
    if (strcmp(u, "woodbury") != 0 && strcmp(u, "refactor") != 0)
        return hs_fail(it->ctx, HS_EINPUT, "%s: update must be 'woodbury' or 'refactor' (got '%s')",
                       it->type, u);
    if (!(nd >= 1.0 && nd <= 4096.0) || nd != floor(nd))
        return hs_fail(it->ctx, HS_EINPUT,
                       "%s: update_dofs must be an integer in 1..4096 (got %g); the update's cost "
                       "grows with its cube",
                       it->type, nd);
    s->update_dofs = strcmp(u, "woodbury") == 0 ? (int)nd : 0;
    return 0;
}

/* The method's name in messages. */
static const char *implicit_method(const hs_implicit *s, char *buf, size_t cap)
{
    if (s->refresh == 0) return "Newton";
    if (s->refresh == HS_IMPLICIT_INITIAL) return "modified Newton (tangent: initial)";
    snprintf(buf, cap, "modified Newton (tangent: every %d)", s->refresh);
    return buf;
}

void hs_implicit_free(hs_implicit *s)
{
    hs_linsolver_destroy(&s->ls);
    hs_newton_update_destroy(&s->upd);
    hs_csc_destroy(&s->Js);
    int **slots[] = {&s->slot_m, &s->slot_c, &s->slot_t, &s->slot_ke, &s->slot_me, &s->jvar};
    for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++) {
        hs_free(*slots[i]);
        *slots[i] = NULL;
    }
    s->j_assembled = s->j_partial = 0;
    double **v[] = {&s->J,  &s->Jmc, &s->jvar_ke, &s->Kt, &s->Ct, &s->cv, &s->dp,  &s->vp, &s->d1,
                    &s->v1, &s->a1,  &s->r,       &s->R,  &s->b,  &s->dx, &s->tmp, &s->q};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        hs_free(*v[i]);
        *v[i] = NULL;
    }
}

/* Element (i, j) of a packed matrix of half-bandwidth kd, 0 outside its band. */
static inline double implicit_packed(const double *B, int kd, int i, int j)
{
    const int dist = i > j ? i - j : j - i;
    return dist <= kd ? HS_BAND_AT(B, kd, i, j) : 0.0;
}

/* J on the sparse path: its constant part, then the tangent (and the experiment's Kes when
 * with_ke) added into their slots (no search, no allocation). */
static void implicit_assemble_sparse(hs_integrator *it, hs_implicit *s, int with_ke)
{
    const hs_dynamics *dyn = &it->dyn;
    const double dt = it->dt, al = s->alpha;
    const double cv = s->gamma / (s->beta * dt);
    double *J = s->Js->val;
    if (s->jvar && s->j_assembled && s->j_with_ke == with_ke) {
        /* only the entries the model's tangent can change (dyn.tangent_var): the same sums as
         * below, in the same order */
        for (int k = 0; k < dyn->ntangent_var; k++) {
            const int p = dyn->tangent_var[k], q = s->jvar[k];
            J[q] = s->Jmc[q] + (1.0 + al) * (s->Kt[p] + cv * s->Ct[p]);
            if (with_ke) J[q] += s->jvar_ke[k];
        }
        s->j_partial = 1;
        return;
    }
    s->j_assembled = 1;
    s->j_with_ke = with_ke;
    s->j_partial = 0;
    memcpy(J, s->Jmc, (size_t)hs_csc_nnz(s->Js) * sizeof *J);
    for (int k = 0, nnz = hs_csc_nnz(dyn->tangent_pattern); k < nnz; k++)
        J[s->slot_t[k]] += (1.0 + al) * (s->Kt[k] + cv * s->Ct[k]);
    if (with_ke && dyn->Kes)
        for (int k = 0, nnz = hs_csc_nnz(dyn->Kes); k < nnz; k++)
            J[s->slot_ke[k]] += (1.0 + al) * dyn->Kes->val[k];
}

/* The constant part of J on the sparse path: (M - alpha Mes) / (beta dt^2) + (1 + alpha) gamma /
 * (beta dt) C. */
static void implicit_constant_sparse(hs_integrator *it, hs_implicit *s)
{
    const hs_dynamics *dyn = &it->dyn;
    const double dt = it->dt, al = s->alpha;
    const double cm = 1.0 / (s->beta * dt * dt), cv = s->gamma / (s->beta * dt);
    memset(s->Jmc, 0, (size_t)hs_csc_nnz(s->Js) * sizeof *s->Jmc);
    for (int k = 0, nnz = hs_csc_nnz(dyn->Ms); k < nnz; k++)
        s->Jmc[s->slot_m[k]] += cm * dyn->Ms->val[k];
    if (dyn->Cs)
        for (int k = 0, nnz = hs_csc_nnz(dyn->Cs); k < nnz; k++)
            s->Jmc[s->slot_c[k]] += (1.0 + al) * cv * dyn->Cs->val[k];
    if (dyn->Mes)
        for (int k = 0, nnz = hs_csc_nnz(dyn->Mes); k < nnz; k++)
            s->Jmc[s->slot_me[k]] -= al * cm * dyn->Mes->val[k];
}

void hs_implicit_assemble(hs_integrator *it, hs_implicit *s, int with_ke)
{
    if (s->Js) {
        implicit_assemble_sparse(it, s, with_ke);
        return;
    }
    const int n = it->n, kd = it->kd, kj = it->kd_tangent, kt = hs_int_tangent_kd(it);
    const double dt = it->dt, al = s->alpha;
    const double cm = 1.0 / (s->beta * dt * dt), cv = s->gamma / (s->beta * dt);
    const double *C = it->Cp, *Ke = with_ke ? it->dyn.Ke : NULL, *M = it->Mp, *Me = it->Mep;
    if (!Ke && kt == kd && kd == kj && it->dyn.tangent_band > 0) {
        /* every matrix packed with the same band: one pass over the arrays */
        const size_t size = HS_BAND_LD(kd) * (size_t)n;
        for (size_t k = 0; k < size; k++) {
            double kv = s->Kt[k] + cv * s->Ct[k];
            if (C) kv += cv * C[k];
            double m = M[k];
            if (Me) m -= al * Me[k];
            s->J[k] = cm * m + (1.0 + al) * kv;
        }
        return;
    }
    for (int j = 0; j < n; j++) {
        const int lo = j - kj > 0 ? j - kj : 0, hi = j + kj < n - 1 ? j + kj : n - 1;
        for (int i = lo; i <= hi; i++) {
            double kv =
                hs_int_tangent_at(it, s->Kt, i, j) + cv * hs_int_tangent_at(it, s->Ct, i, j);
            if (C) kv += cv * implicit_packed(C, kd, i, j);
            if (Ke) kv += HS_AT(Ke, n, i, j);
            double m = implicit_packed(M, kd, i, j);
            if (Me) m -= al * implicit_packed(Me, kd, i, j);
            HS_BAND_AT(s->J, kj, i, j) = cm * m + (1.0 + al) * kv;
        }
    }
}

/* J as above, packed with half-bandwidth kd_tangent, factored; Ke joins when `with_ke` (a
 * measurement is being linearised). */
static int implicit_factor(hs_integrator *it, hs_implicit *s, int with_ke)
{
    hs_implicit_assemble(it, s, with_ke);
    int rc = s->upd  ? hs_newton_update_factor_at(s->upd, s->Js, s->j_partial ? s->jvar : NULL,
                                                  it->dyn.ntangent_var)
             : s->Js ? hs_linsolver_factor_csc(s->ls, s->Js)
                     : hs_linsolver_factor_packed(s->ls, it->kd_tangent, s->J);
    if (rc == HS_ESINGULAR)
        return hs_fail(it->ctx, HS_ECONVERGE,
                       "%s: the effective stiffness is singular at step %lld (tangent too soft)",
                       it->type, (long long)it->step + 1);
    return rc;
}

/* The J positions of the tangent entries the model can change (dyn.tangent_var) and the
 * experiment's (1 + alpha) Kes at each (a restore then writes those entries only, and J is
 * updated there only). */
static int implicit_var_slots(hs_integrator *it, hs_implicit *s)
{
    const hs_dynamics *dyn = &it->dyn;
    const int nv = dyn->ntangent_var;
    s->jvar = hs_calloc((size_t)nv + 1, sizeof *s->jvar);
    s->jvar_ke = hs_dvec((size_t)nv + 1);
    if (!s->jvar || !s->jvar_ke) return HS_ENOMEM;
    for (int k = 0; k < nv; k++) s->jvar[k] = s->slot_t[dyn->tangent_var[k]];
    if (dyn->Kes)
        for (int k = 0; k < nv; k++)
            for (int e = 0, nnz = hs_csc_nnz(dyn->Kes); e < nnz; e++)
                if (s->slot_ke[e] == s->jvar[k])
                    s->jvar_ke[k] = (1.0 + s->alpha) * dyn->Kes->val[e];
    return 0;
}

/* J's pattern, the slot maps and the solver (KLU when Newton refactors a large one). */
static int implicit_setup_sparse(hs_integrator *it, hs_implicit *s)
{
    const hs_dynamics *dyn = &it->dyn;
    int rc = hs_int_sparse_pattern(it, 1, &s->Js);
    if (rc) return rc;
    s->slot_m = hs_calloc((size_t)hs_csc_nnz(dyn->Ms) + 1, sizeof(int));
    s->slot_c = hs_calloc((size_t)(dyn->Cs ? hs_csc_nnz(dyn->Cs) : 0) + 1, sizeof(int));
    s->slot_t = hs_calloc((size_t)hs_csc_nnz(dyn->tangent_pattern) + 1, sizeof(int));
    s->slot_ke = hs_calloc((size_t)(dyn->Kes ? hs_csc_nnz(dyn->Kes) : 0) + 1, sizeof(int));
    s->slot_me = hs_calloc((size_t)(dyn->Mes ? hs_csc_nnz(dyn->Mes) : 0) + 1, sizeof(int));
    s->Jmc = hs_dvec((size_t)hs_csc_nnz(s->Js) + 1);
    if (!s->slot_m || !s->slot_c || !s->slot_t || !s->slot_ke || !s->slot_me || !s->Jmc)
        return HS_ENOMEM;
    rc = hs_csc_slot_map(it->ctx, s->Js, dyn->Ms, s->slot_m);
    if (!rc && dyn->Cs) rc = hs_csc_slot_map(it->ctx, s->Js, dyn->Cs, s->slot_c);
    if (!rc) rc = hs_csc_slot_map(it->ctx, s->Js, dyn->tangent_pattern, s->slot_t);
    if (!rc && dyn->Kes) rc = hs_csc_slot_map(it->ctx, s->Js, dyn->Kes, s->slot_ke);
    if (!rc && dyn->Mes) rc = hs_csc_slot_map(it->ctx, s->Js, dyn->Mes, s->slot_me);
    if (!rc) implicit_constant_sparse(it, s);
    if (!rc && dyn->restore_var && dyn->tangent_var) rc = implicit_var_slots(it, s);
    /* refactored when Newton refreshes its tangent; the initial tangent is factored once */
    const int refactor = !s->constant && (s->refresh != HS_IMPLICIT_INITIAL || dyn->linear);
    if (!rc) rc = hs_int_linsolver_csc(it, s->Js, refactor, &s->ls);
    if (rc || !refactor || !s->update_dofs) return rc;
    hs_linsolver *ls = s->ls; /* the update owns it from now on */
    s->ls = NULL;
    return hs_newton_update_create(it->ctx, ls, s->Js, s->update_dofs, &s->upd);
}

/* Solves J x = b in place (the update's solve when there is one). */
static int implicit_solve(hs_implicit *s, double *x)
{
    return s->upd ? hs_newton_update_solve(s->upd, x) : hs_linsolver_solve(s->ls, x);
}

int hs_implicit_setup(hs_integrator *it, hs_implicit *s)
{
    hs_implicit_free(s); /* setup may run more than once */
    s->cv_ok = 0;
    const size_t n = (size_t)it->n;
    const int sparse = hs_int_sparse(it);
    const size_t tsize =
        sparse ? (size_t)hs_csc_nnz(it->dyn.tangent_pattern) + 1 : hs_int_tangent_size(it);
    s->J = sparse ? NULL : hs_dvec(HS_BAND_LD(it->kd_tangent) * n);
    s->Kt = hs_dvec(tsize);
    s->Ct = hs_dvec(tsize);
    double **v[] = {&s->dp, &s->vp, &s->d1, &s->v1,  &s->a1, &s->r,
                    &s->R,  &s->b,  &s->dx, &s->tmp, &s->q,  &s->cv};
    int rc = ((!s->J && !sparse) || !s->Kt || !s->Ct) ? HS_ENOMEM : 0;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        *v[i] = hs_dvec(n);
        if (!*v[i]) rc = HS_ENOMEM;
    }
    s->constant = it->dyn.linear && !it->dyn.Ke && !it->dyn.Kes;
    if (!rc && sparse) rc = implicit_setup_sparse(it, s);
    if (!rc && !sparse) rc = hs_int_linsolver(it, it->kd_tangent, &s->ls);
    if (rc) return rc;
    /* q(0) = r(d0, v0) + Ke d0: the same equilibrium the base used for a(0) */
    rc = it->dyn.restore(it->dyn.user, it->d, it->v, s->q, s->Kt, s->Ct);
    if (rc) return rc;
    if (it->dyn.Ke) hs_band_matvec_add(it->n, it->kd, it->dyn.Ke, it->d, 1.0, s->q);
    if (it->dyn.Kes) hs_csc_matvec_add(it->dyn.Kes, it->d, 1.0, s->q);
    if (!sparse) return s->constant || s->refresh ? implicit_factor(it, s, 0) : 0;
    /* sparse: factored (at the initial tangent when Newton refactors) and solved once here, so
     * that the steps allocate nothing */
    rc = implicit_factor(it, s, 0);
    memset(s->dx, 0, n * sizeof(double));
    return rc ? rc : implicit_solve(s, s->dx);
}

int hs_implicit_predict(hs_integrator *it, hs_implicit *s, hs_step_io *io)
{
    (void)s;
    const double dt = it->dt;
    for (int i = 0; i < it->n; i++)
        io->d_cmd[i] = it->d[i] + dt * it->v[i] + 0.5 * dt * dt * it->a[i];
    return hs_int_massless_command(it, io, io->d_cmd); /* DOFs without mass: condensed */
}

/* Constant part of the equation at t(n+1) (the right-hand side above). */
static void implicit_rhs(hs_integrator *it, hs_implicit *s, const hs_step_io *io)
{
    const int n = it->n;
    const double al = s->alpha;
    for (int i = 0; i < n; i++) s->b[i] = (1.0 + al) * io->f_n1[i] - al * io->f_n[i];
    if (al == 0.0) return;
    for (int i = 0; i < n; i++) s->b[i] += al * s->q[i];
    /* C v(n): the last step's converged C v1 when v(n) is that v1 (one product fewer a step) */
    if (s->cv_ok && memcmp(it->v, s->v1, (size_t)n * sizeof *s->v1) == 0)
        for (int i = 0; i < n; i++) s->b[i] += al * s->cv[i];
    else
        hs_int_matvec_add(it, HS_INT_C, it->v, al, s->b);
    if (it->dyn.Me) hs_packed_matvec_add(n, it->kd, it->Mep, it->a, -al, s->b);
    if (it->dyn.Mes) hs_csc_matvec_add(it->dyn.Mes, it->a, -al, s->b);
}

/* max(m, |x|), skipping NaN as hs_norm_inf does */
static inline double implicit_max_abs(double m, double x)
{
    const double a = fabs(x);
    return a > m ? a : m;
}

int hs_implicit_correct(hs_integrator *it, hs_implicit *s, hs_step_io *io)
{
    const int n = it->n;
    const double dt = it->dt, al = s->alpha, be = s->beta, ga = s->gamma;
    const int with_ke = io->r_exp && (it->dyn.Ke || it->dyn.Kes);
    for (int i = 0; i < n; i++) {
        s->dp[i] = it->d[i] + dt * it->v[i] + dt * dt * (0.5 - be) * it->a[i];
        s->vp[i] = it->v[i] + dt * (1.0 - ga) * it->a[i];
    }
    implicit_rhs(it, s, io);
    const int constant = it->dyn.linear && (s->constant || it->dyn.Ke || it->dyn.Kes);
    if (constant && !s->constant) {
        /* linear, but Ke may have changed since the last step: refactor (no allocation);
         * Kt and Ct are the constant ones from setup */
        int rc = implicit_factor(it, s, with_ke);
        if (rc) return rc;
    }
    memcpy(s->d1, io->d_cmd, (size_t)n * sizeof(double));
    const double bnorm = hs_norm_inf(n, s->b);
    s->cv_ok = 0; /* until this step converges */
    /* modified Newton (tangent: initial | every N) keeps its factor between refreshes */
    const int refresh_now = s->refresh > 0 && io->step % s->refresh == 0;
    double dxnorm = INFINITY, rnorm = 0.0;
    int iter = 0;
    for (;;) {
        const int tangent = !constant && (s->refresh == 0 || (refresh_now && iter == 0));
        for (int i = 0; i < n; i++) {
            s->a1[i] = (s->d1[i] - s->dp[i]) / (be * dt * dt);
            s->v1[i] = s->vp[i] + ga * dt * s->a1[i];
        }
        /* the tangent's constant entries stay from setup's full restore */
        int rc = tangent && s->jvar
                     ? it->dyn.restore_var(it->dyn.user, s->d1, s->v1, s->r, s->Kt, s->Ct)
                     : it->dyn.restore(it->dyn.user, s->d1, s->v1, s->r, tangent ? s->Kt : NULL,
                                       tangent ? s->Ct : NULL);
        if (rc) return rc;
        hs_int_add_experimental(it, io, s->d1, s->r); /* s->r: numerical + experimental */
        /* R = b - M a + alpha Me a - (1 + alpha)(C v + r) */
        memset(s->cv, 0, (size_t)n * sizeof(double));
        hs_int_matvec_add(it, HS_INT_C, s->v1, 1.0, s->cv);
        for (int i = 0; i < n; i++) s->tmp[i] = s->r[i] + s->cv[i];
        if (s->Js)
            hs_csc_matvec(it->dyn.Ms, s->a1, s->R);
        else
            hs_packed_matvec(n, it->kd, it->Mp, s->a1, s->R);
        double fnorm = 0.0, mnorm = 0.0; /* ||C v + r||, ||M a|| (one pass) */
        for (int i = 0; i < n; i++) {
            fnorm = implicit_max_abs(fnorm, s->tmp[i]);
            mnorm = implicit_max_abs(mnorm, s->R[i]);
        }
        if (it->dyn.Me && al != 0.0) hs_packed_matvec_add(n, it->kd, it->Mep, s->a1, -al, s->R);
        if (it->dyn.Mes && al != 0.0) hs_csc_matvec_add(it->dyn.Mes, s->a1, -al, s->R);
        rnorm = 0.0;
        for (int i = 0; i < n; i++) {
            s->R[i] = s->b[i] - s->R[i] - (1.0 + al) * s->tmp[i];
            rnorm = implicit_max_abs(rnorm, s->R[i]);
        }
        const double ref = bnorm + mnorm + (1.0 + al) * fnorm;
        char name[48];
        /* before the test below, which an infinite force scale would pass */
        if (!(rnorm <= DBL_MAX))
            return hs_fail(it->ctx, HS_ECONVERGE,
                           "%s: %s diverged at step %lld (t = %g): the residual is %g after %d "
                           "iterations; %s",
                           it->type, implicit_method(s, name, sizeof name), (long long)io->step + 1,
                           io->t + dt, rnorm, iter,
                           s->refresh ? "refresh the tangent more often (tangent: every N or "
                                        "current) or shorten dt"
                                      : "shorten dt");
        if (rnorm <= s->tol * ref || (iter > 0 && dxnorm <= s->tol * hs_norm_inf(n, s->d1))) break;
        if (constant && iter == 1) break; /* linear: one solve is the exact solution */
        if (iter == s->max_iter)
            return hs_fail(it->ctx, HS_ECONVERGE,
                           "%s: %s did not converge in %d iterations at step %lld (t = %g): "
                           "residual %g, relative displacement increment %g, tolerance %g%s",
                           it->type, implicit_method(s, name, sizeof name), s->max_iter,
                           (long long)io->step + 1, io->t + dt, rnorm,
                           dxnorm / fmax(hs_norm_inf(n, s->d1), 1e-300), s->tol,
                           s->refresh ? "; raise max_iter or refresh the tangent more often "
                                        "(tangent: every N or current)"
                                      : "");
        if (tangent) {
            rc = implicit_factor(it, s, with_ke);
            if (rc) return rc;
        }
        memcpy(s->dx, s->R, (size_t)n * sizeof(double));
        rc = implicit_solve(s, s->dx);
        if (rc) return rc;
        dxnorm = 0.0;
        for (int i = 0; i < n; i++) {
            s->d1[i] += s->dx[i];
            dxnorm = implicit_max_abs(dxnorm, s->dx[i]);
        }
        iter++;
    }
    /* the last restore was at the final state: commit it */
    memcpy(it->d, s->d1, (size_t)n * sizeof(double));
    memcpy(it->v, s->v1, (size_t)n * sizeof(double));
    memcpy(it->a, s->a1, (size_t)n * sizeof(double));
    memcpy(s->q, s->r, (size_t)n * sizeof(double));
    s->cv_ok = 1;
    io->iterations = constant ? 0 : iter;
    return it->dyn.commit(it->dyn.user);
}

static int implicit_setup(hs_integrator *it)
{
    return hs_implicit_setup(it, it->data);
}

static int implicit_predict(hs_integrator *it, hs_step_io *io)
{
    return hs_implicit_predict(it, it->data, io);
}

static int implicit_correct(hs_integrator *it, hs_step_io *io)
{
    return hs_implicit_correct(it, it->data, io);
}

static void implicit_destroy(hs_integrator *it)
{
    if (!it->data) return;
    hs_implicit_free(it->data);
    hs_free(it->data);
    it->data = NULL;
}

hs_implicit *hs_implicit_attach(hs_integrator *it)
{
    hs_implicit *s = hs_calloc(1, sizeof *s);
    if (!s) return NULL;
    it->data = s;
    it->ops.setup = implicit_setup;
    it->ops.sparse = 1;
    it->ops.sparse_exp = 1; /* Kes (initial) in Newton's matrix: a Woodbury update */
    it->ops.predict = implicit_predict;
    it->ops.correct = implicit_correct;
    it->ops.destroy = implicit_destroy;
    return s;
}
