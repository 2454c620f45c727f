/* Multi-support excitation (docs/fe_model.md, "Multi-support excitation"): fixed DOFs that follow
 * their own prescribed motion, as OpenSees' MultipleSupport pattern (groundMotion + imposedMotion).
 * The formulation is OpenSees': total displacements. A moving support is an extra equation
 * neq + s whose displacement and velocity the elements read like any other (so K_fs u_s, and a
 * damper's c (v_f - v_s), enter through the restoring force, for nonlinear elements too), and the
 * load on the dynamic DOFs is -(M_fs a_s + C_fs v_s) with C_fs = a0 M_fs + a1 K_fs, the Rayleigh
 * coefficients of the model's damping and K_fs the condensed initial coupling stiffness. */
#include "fe_impl.h"

#include <math.h>
#include <string.h>

typedef struct fe_support {
    int node, dir; /* node index */
    size_t npts;
    double dt;
    double *d, *v, *a; /* samples (owned) */
} fe_support;

typedef struct fe_supports {
    int n, ready;
    fe_support *s;
    double *Kms, *Mms; /* n_dyn x n: condensed coupling stiffness and mass */
    double *vs, *as;   /* velocity and acceleration of each support at the current time */
} fe_supports;

void fe_support_free(hs_fe *fe)
{
    fe_supports *S = fe->sup;
    if (!S) return;
    for (int k = 0; k < S->n; k++) {
        hs_free(S->s[k].d);
        hs_free(S->s[k].v);
        hs_free(S->s[k].a);
    }
    hs_free(S->s);
    hs_free(S->Kms);
    hs_free(S->Mms);
    hs_free(S->vs);
    hs_free(S->as);
    hs_free(S);
    fe->sup = NULL;
}

/* The sampled histories from displacements (v and a by central differences, one-sided at the
 * ends) or from accelerations (v and d by the trapezoidal rule from rest). */
static void fill(fe_support *s, int kind, const double *x)
{
    const size_t n = s->npts;
    const double h = s->dt;
    if (kind == HS_FE_MOTION_ACCELERATION) {
        memcpy(s->a, x, n * sizeof(double));
        s->v[0] = s->d[0] = 0.0;
        for (size_t k = 1; k < n; k++) {
            s->v[k] = s->v[k - 1] + 0.5 * h * (s->a[k - 1] + s->a[k]);
            s->d[k] = s->d[k - 1] + 0.5 * h * (s->v[k - 1] + s->v[k]);
        }
        return;
    }
    memcpy(s->d, x, n * sizeof(double));
    for (int pass = 0; pass < 2; pass++) {
        const double *y = pass ? s->v : s->d;
        double *dy = pass ? s->a : s->v;
        for (size_t k = 0; k < n; k++) {
            const size_t lo = k > 0 ? k - 1 : 0, hi = k + 1 < n ? k + 1 : n - 1;
            dy[k] = hi > lo ? (y[hi] - y[lo]) / ((double)(hi - lo) * h) : 0.0;
        }
    }
}

int hs_fe_add_support_motion(hs_fe *fe, int id, int dir, int kind, const double *values,
                             size_t npts, double dt)
{
    if (!fe->finalized)
        return hs_fail(fe->ctx, HS_EINVAL, "support motion: finalize the frame model first");
    int k = -1;
    for (int i = 0; i < fe->nnodes; i++)
        if (fe->nodes[i].id == id) k = i;
    if (k < 0) return hs_fail(fe->ctx, HS_EINPUT, "support motion: no node %d", id);
    if (dir < 0 || dir >= fe->ndf)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "support motion of node %d: dir %d is not a DOF of this model (ndf %d)", id,
                       dir, fe->ndf);
    fe_node *nd = &fe->nodes[k];
    const char *dname = fe_dof_label(fe, dir);
    for (int c = 0; c < fe->ncons; c++)
        if (fe->cons[c].master == k)
            return hs_fail(fe->ctx, HS_EINPUT,
                           "support motion of node %d %s: the node is the master of a constraint; "
                           "its slaves would not follow the support (move a node that no "
                           "constraint uses)",
                           id, dname);
    if (!nd->fix[dir])
        return hs_fail(fe->ctx, HS_EINPUT,
                       "support motion of node %d %s: the DOF is free; a support motion drives a "
                       "fixed DOF (fix it)",
                       id, dname);
    if (nd->sup[dir] >= 0)
        return hs_fail(fe->ctx, HS_EINPUT, "support motion of node %d %s: given twice", id, dname);
    if (kind != HS_FE_MOTION_DISPLACEMENT && kind != HS_FE_MOTION_ACCELERATION)
        return hs_fail(fe->ctx, HS_EINVAL, "support motion: unknown kind %d", kind);
    if (npts < 2 || !(dt > 0.0))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "support motion of node %d %s: needs at least 2 samples and dt > 0", id,
                       dname);
    for (size_t i = 0; i < npts; i++)
        if (!isfinite(values[i]))
            return hs_fail(fe->ctx, HS_EINPUT, "support motion of node %d %s: sample %zu is %g", id,
                           dname, i + 1, values[i]);
    if (!fe->sup && !(fe->sup = hs_calloc(1, sizeof *fe->sup))) return HS_ENOMEM;
    fe_supports *S = fe->sup;
    const size_t q = (size_t)fe->neq + (size_t)S->n + 1;
    double *u = hs_realloc(fe->u, q * sizeof(double));
    if (u) fe->u = u;
    double *v = hs_realloc(fe->v, q * sizeof(double));
    if (v) fe->v = v;
    double *uc = hs_realloc(fe->u_commit, q * sizeof(double));
    if (uc) fe->u_commit = uc;
    fe_support *list = hs_realloc(S->s, (size_t)(S->n + 1) * sizeof *list);
    if (list) S->s = list;
    if (!u || !v || !uc || !list) return HS_ENOMEM;
    fe->u[q - 1] = fe->v[q - 1] = fe->u_commit[q - 1] = 0.0;
    fe_support *s = &S->s[S->n];
    *s = (fe_support){.node = k, .dir = dir, .npts = npts, .dt = dt};
    s->d = hs_dvec(npts);
    s->v = hs_dvec(npts);
    s->a = hs_dvec(npts);
    if (!s->d || !s->v || !s->a) {
        hs_free(s->d);
        hs_free(s->v);
        hs_free(s->a);
        return HS_ENOMEM;
    }
    fill(s, kind, values);
    nd->sup[dir] = S->n;
    nd->map[dir] = (fe_map){1, {fe->neq + S->n}, {1.0}}; /* the elements read u[neq + s] */
    S->n++;
    S->ready = 0;
    return 0;
}

int hs_fe_support_count(const hs_fe *fe)
{
    return fe->sup ? fe->sup->n : 0;
}

/* Kms = K_ms - K_m0 K00^-1 K_0s from the initial tangents; Mms from the element masses. */
int hs_fe_support_prepare(hs_fe *fe)
{
    fe_supports *S = fe->sup;
    if (!S || S->ready) return 0;
    const int q = fe->neq, n = fe->n, n0 = fe->n0, ns = S->n;
    double *Kqs = hs_dvec((size_t)q * (size_t)ns), *Mqs = hs_dvec((size_t)q * (size_t)ns),
           *Kc = hs_dvec((size_t)n * (size_t)n), *x = hs_dvec((size_t)n0 + 1);
    hs_free(S->Kms);
    hs_free(S->Mms);
    hs_free(S->vs);
    hs_free(S->as);
    S->Kms = hs_dvec((size_t)n * (size_t)ns);
    S->Mms = hs_dvec((size_t)n * (size_t)ns);
    S->vs = hs_dvec((size_t)ns);
    S->as = hs_dvec((size_t)ns);
    int rc = (!Kqs || !Mqs || !Kc || !x || !S->Kms || !S->Mms || !S->vs || !S->as) ? HS_ENOMEM : 0;
    for (int k = 0; !rc && k < fe->nels; k++) { /* T^T k T, the columns of the supports */
        fe_element *e = &fe->els[k];
        const fe_map *maps[FE_MAX_EDOF];
        const int nd = fe_element_maps(fe, e, maps);
        double f[FE_MAX_EDOF] = {0}, ke[FE_MAX_EDOF * FE_MAX_EDOF];
        rc = fe_element_state(fe, e, maps, fe->u, NULL, 1, f, ke, NULL);
        for (int j = 0; !rc && j < nd; j++)
            for (int tj = 0; tj < maps[j]->n; tj++) {
                const int qj = maps[j]->eq[tj];
                if (qj < q) continue;
                for (int i = 0; i < nd; i++)
                    for (int ti = 0; ti < maps[i]->n; ti++) {
                        const int qi = maps[i]->eq[ti];
                        if (qi < q)
                            HS_AT(Kqs, q, qi, qj - q) += maps[i]->c[ti] * maps[j]->c[tj] *
                                                         ke[(size_t)j * (size_t)nd + (size_t)i];
                    }
            }
    }
    /* the initial assembly of the retained equations and K00 factored */
    if (!rc) rc = hs_fe_initial_stiffness(fe, Kc);
    if (!rc) fe_mass_assemble(fe, NULL, 0, NULL, Mqs);
    for (int s = 0; !rc && s < ns; s++) {
        for (int a = 0; a < n0; a++) x[a] = HS_AT(Kqs, q, fe->cond_eq[a], s);
        if (n0) rc = hs_linsolver_solve(fe->s0, x);
        for (int i = 0; !rc && i < n; i++) {
            double k = HS_AT(Kqs, q, fe->dyn_eq[i], s);
            for (int a = 0; a < n0; a++)
                k -= HS_AT(fe->K_eq, q, fe->dyn_eq[i], fe->cond_eq[a]) * x[a];
            HS_AT(S->Kms, n, i, s) = k;
            HS_AT(S->Mms, n, i, s) = HS_AT(Mqs, q, fe->dyn_eq[i], s);
        }
    }
    hs_free(Kqs);
    hs_free(Mqs);
    hs_free(Kc);
    hs_free(x);
    if (!rc) S->ready = 1;
    return rc;
}

/* The history y at t: linear between samples; before 0 the first sample, after the end the last
 * (hold: a displacement) or zero (a velocity or acceleration). */
static double at(const fe_support *s, const double *y, double t, int hold)
{
    if (!(t > 0.0)) return y[0];
    const double x = t / s->dt, last = (double)(s->npts - 1);
    if (x >= last) /* the last sample (to round-off), then held or zero */
        return (hold || x <= last * (1.0 + 1e-12)) ? y[s->npts - 1] : 0.0;
    const size_t k = (size_t)x;
    const double w = x - (double)k;
    return (1.0 - w) * y[k] + w * y[k + 1];
}

void hs_fe_support_set_time(hs_fe *fe, double t)
{
    fe_supports *S = fe->sup;
    for (int k = 0; S && k < S->n; k++) {
        const fe_support *s = &S->s[k];
        /* prescribed: the committed displacement (queries, recorders) is the one set */
        fe->u[fe->neq + k] = fe->u_commit[fe->neq + k] = at(s, s->d, t, 1);
        fe->v[fe->neq + k] = S->vs ? (S->vs[k] = at(s, s->v, t, 0)) : at(s, s->v, t, 0);
        if (S->as) S->as[k] = at(s, s->a, t, 0);
    }
}

double hs_fe_support_displacement(const hs_fe *fe, int k)
{
    return fe->u[fe->neq + k];
}

int hs_fe_support_load(const hs_fe *fe, double a0, double a1, double *f)
{
    const fe_supports *S = fe->sup;
    if (!S) return 0;
    if (!S->ready)
        return hs_fail(fe->ctx, HS_EINVAL, "support motion: call hs_fe_support_prepare first");
    const int n = fe->n;
    for (int s = 0; s < S->n; s++) {
        const double as = S->as[s], vs = S->vs[s];
        for (int i = 0; i < n; i++) {
            const double m = HS_AT(S->Mms, n, i, s), k = HS_AT(S->Kms, n, i, s);
            f[i] -= m * as + (a0 * m + a1 * k) * vs;
        }
    }
    return 0;
}
