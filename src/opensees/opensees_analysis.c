/* The script's own analysis on hysim's frame model (opensees_analysis.h): the loads of the
 * patterns at a time, Rayleigh damping, the integrators' steps and the algorithms' iterations, in
 * OpenSees' order, on the live model of opensees_live.c. */
#include "opensees_analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* the number of values of each matrix over the storage's pattern */
static size_t nnz(const hs_os_live *lv)
{
    return lv->st.nnz;
}

/* --- loads --- */

/* A pattern's factor at time t (its constant one after loadConst). */
static double pattern_factor(const hs_os_model *m, const hs_os_pattern *p, double t)
{
    if (p->constant) return p->const_factor;
    return p->fact * hs_os_series_value(&m->series[p->series], t);
}

/* P(t): the Plain patterns' nodal loads and the uniform excitations' -M iota a_g (t). */
static void applied_load(const hs_os_live *lv, double t, double *P)
{
    const hs_os_model *m = lv->m;
    memset(P, 0, (size_t)lv->n * sizeof *P);
    for (int l = 0; l < m->nloads; l++) {
        const hs_os_load *ld = &m->loads[l];
        const double lam = ld->constant ? 1.0 : pattern_factor(m, &m->patterns[ld->pattern], t);
        if (lam == 0.0) continue;
        for (int d = 0; d < m->ndf; d++) {
            hs_fe_dof_map map;
            if (ld->fp[d] == 0.0 || hs_fe_node_map(lv->fe, ld->node, d, &map)) continue;
            for (int a = 0; a < map.n; a++) P[map.eq[a]] += map.c[a] * lam * ld->fp[d];
        }
    }
    for (int k = 0; k < m->npatterns; k++) {
        const hs_os_pattern *p = &m->patterns[k];
        if (!p->uniform) continue;
        const double ag = pattern_factor(m, p, t);
        if (ag == 0.0) continue;
        /* -M iota ag, iota the equations' motion under a unit ground translation in dir */
        hs_fe_influence(lv->fe, p->dir, lv->tmp);
        for (int j = 0; j < lv->n; j++) lv->tmp[j] *= ag;
        hs_os_live_mass_sub(lv, lv->tmp, P);
    }
}

void hs_os_live_member_loads(hs_os_live *lv, double t)
{
    const hs_os_model *m = lv->m;
    if (m->neleloads == 0) return;
    for (int k = 0; k < m->npatterns; k++) {
        if (m->patterns[k].uniform) continue;
        const double lam = pattern_factor(m, &m->patterns[k], t);
        hs_fe_member_load_scale(lv->fe, k, lam);
        for (int g = 0; g < lv->ngroups; g++)
            if (lv->gfe[g] != lv->fe) hs_fe_member_load_scale(lv->gfe[g], k, lam);
    }
}

void hs_os_live_load_const(hs_os_live *lv, hs_os_model *m, int set_time, double t)
{
    const double now = lv ? lv->time : 0.0;
    for (int k = 0; k < m->npatterns; k++) {
        hs_os_pattern *p = &m->patterns[k];
        if (!p->constant) p->const_factor = pattern_factor(m, p, now);
        p->constant = 1;
    }
    if (lv && set_time) lv->time = lv->time_commit = t;
    if (lv) lv->phat_ready = 0;
}

/* --- the model's state --- */

static int commit_fe(hs_os_live *lv)
{
    int rc = hs_fe_commit(lv->fe);
    for (int g = 0; !rc && g < lv->ngroups; g++) {
        if (lv->gfe[g] != lv->fe) rc = hs_fe_commit(lv->gfe[g]);
        if (!rc && lv->beta[g][2] != 0.0) /* betaKcommitted: the committed tangent */
            memcpy(lv->Kgc[g], lv->Kgt[g], nnz(lv) * sizeof(double));
    }
    return rc;
}

static void revert_fe(hs_os_live *lv)
{
    hs_fe_revert(lv->fe);
    for (int g = 0; g < lv->ngroups; g++)
        if (lv->gfe[g] != lv->fe) hs_fe_revert(lv->gfe[g]);
}

/* C = alphaM M + sum over groups (betaK Kt + betaKinit K0 + betaKcomm Kcommitted): Cconst (the
 * first two kinds) plus the tangents' terms at each restore, when some group has them (else C is
 * Cconst, formed once). */
static void damping(hs_os_live *lv)
{
    if (!lv->c_varies) return;
    memcpy(lv->C, lv->Cconst, nnz(lv) * sizeof(double));
    for (int g = 0; g < lv->ngroups; g++) {
        const double bt = lv->beta[g][0], bc = lv->beta[g][2];
        if (bt == 0.0 && bc == 0.0) continue;
        for (size_t k = 0; k < nnz(lv); k++) lv->C[k] += bt * lv->Kgt[g][k] + bc * lv->Kgc[g][k];
    }
    lv->keff_ok = 0;
}

static double dot(int n, const double *a, const double *b)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

/* --- the integrators (OpenSees' newStep, formUnbalance, formTangent, update, commit) --- */

static int transient(const hs_os_settings *set)
{
    return set->analysis == 2;
}

/* The time at which the loads apply: t + alpha dt during a transient step. */
static void form_unbalance(hs_os_live *lv, const hs_os_settings *set, double t_load, int *rc)
{
    const int n = lv->n;
    if (*rc) return;
    const double *d = transient(set) ? lv->Ua : lv->Ut, *v = transient(set) ? lv->Va : NULL;
    hs_os_live_member_loads(lv, t_load); /* OpenSees' applyLoad: the elements' loads too */
    /* after NewmarkHSFixedNumIter's commit (no update since): the elements as they answer at
     * the moved nodes (hs_fe_move_nodes), OpenSees' first unbalance of the step, and the
     * tangent formed after it (hs_fe_moved_tangent: their transformations at the moved nodes) */
    if (transient(set) && set->hs_fixed && hs_fe_nodes_moved(lv->fe, 0))
        *rc = hs_fe_moved_tangent(lv->fe, lv->Kt, lv->st.sparse);
    if (!(transient(set) && set->hs_fixed && hs_fe_nodes_moved(lv->fe, 1)))
        *rc = hs_os_live_restore(lv, d, v);
    if (*rc) return;
    if (!(lv->P_ok && lv->P_at == t_load)) { /* the step's iterations load at one time */
        applied_load(lv, t_load, lv->P);
        lv->P_ok = 1;
        lv->P_at = t_load;
    }
    for (int i = 0; i < n; i++) lv->b[i] = lv->P[i] - lv->r[i];
    if (!transient(set)) {
        hs_os_live_imposed_rows(lv, lv->b);
        return;
    }
    damping(lv);
    hs_os_storage_matvec_sub(&lv->st, lv->C, lv->Va, lv->b);
    if (lv->Cmodal) /* modalDamping: at t + dt (dense: the modes couple every DOF) */
        hs_matvec_add(n, lv->Cmodal, lv->Vt, -1.0, lv->b);
    hs_os_live_mass_sub(lv, lv->At, lv->b);
    if (set->alpha_os && set->alpha < 1.0) { /* AlphaOS::formElementResidual */
        for (int i = 0; i < n; i++) lv->tmp[i] = lv->Uc[i] - lv->Upt[i];
        hs_os_storage_matvec(&lv->st, set->initial ? lv->K0 : lv->Kt, lv->tmp, lv->Kx);
        for (int i = 0; i < n; i++) lv->b[i] += (set->alpha - 1.0) * lv->Kx[i];
    }
    hs_os_live_imposed_rows(lv, lv->b);
}

/* The effective matrix's part that the tangent does not change: a c2 C + c3 M (HHT, Newmark) or
 * c2 C + M (NewmarkExplicit), formed again when C or the constants change. */
static void keff_constant(hs_os_live *lv, const hs_os_settings *set)
{
    const double a = set->explicit_newmark ? 1.0 : set->alpha;
    const double cm = set->explicit_newmark ? 1.0 : lv->c3;
    if (lv->keff_ok && lv->keff_at[0] == a && lv->keff_at[1] == lv->c2 && lv->keff_at[2] == cm)
        return;
    for (size_t k = 0; k < nnz(lv); k++) lv->Keffc[k] = a * lv->c2 * lv->C[k] + cm * lv->Mv[k];
    lv->keff_at[0] = a;
    lv->keff_at[1] = lv->c2;
    lv->keff_at[2] = cm;
    lv->keff_ok = 1;
}

static int form_tangent(hs_os_live *lv, const hs_os_settings *set, int initial)
{
    const double *K = initial ? lv->K0 : lv->Kt;
    if (!transient(set)) {
        memcpy(lv->Keff, K, nnz(lv) * sizeof(double));
    } else if (set->explicit_newmark) { /* NewmarkExplicit::formEleTangent: c2 C + M */
        keff_constant(lv, set);
        memcpy(lv->Keff, lv->Keffc, nnz(lv) * sizeof(double));
    } else {
        keff_constant(lv, set);
        const double a = set->alpha, *restrict Kc = lv->Keffc;
        double *restrict Ke = lv->Keff;
        for (size_t k = 0, end = nnz(lv); k < end; k++) Ke[k] = a * K[k] + Kc[k];
        if (lv->Cmodal && !set->hht && !lv->modal_q) /* Newmark's getCFactor c2; HHT's 0 */
            for (size_t k = 0; k < nnz(lv); k++) lv->Keff[k] += lv->c2 * lv->Cmodal[k];
    }
    if (transient(set) && lv->rate) { /* the elements' damping tangent */
        const double w = set->explicit_newmark ? lv->c2 : set->alpha * lv->c2;
        for (size_t k = 0; k < nnz(lv); k++) lv->Keff[k] += w * lv->Ct[k];
    }
    hs_os_live_imposed_matrix(lv, lv->Keff);
    const int rc = hs_os_storage_factor(&lv->st, lv->ls, lv->Keff);
    if (rc == HS_ESINGULAR) return hs_fail(lv->ctx, HS_ESINGULAR, "singular tangent");
    return rc;
}

static void set_alpha_state(hs_os_live *lv, const hs_os_settings *set)
{
    const double a = set->alpha;
    for (int i = 0; i < lv->n; i++) {
        lv->Ua[i] = (1.0 - a) * lv->Uc[i] + a * lv->Ut[i];
        lv->Va[i] = (1.0 - a) * lv->Vc[i] + a * lv->Vt[i];
    }
}

/* dUhat = K^-1 phat with the tangent factored now (DisplacementControl). */
static int solve_reference(hs_os_live *lv)
{
    memcpy(lv->dUhat, lv->phat, (size_t)lv->n * sizeof(double));
    return hs_linsolver_solve(lv->ls, lv->dUhat);
}

static int reference_displacement(hs_os_live *lv, const hs_os_settings *set)
{
    const int rc = solve_reference(lv);
    if (rc) return rc;
    if (lv->dUhat[lv->eq_ctrl] == 0.0)
        return hs_fail(lv->ctx, HS_EINPUT,
                       "DisplacementControl: the reference load moves node %d dof %d by nothing "
                       "(is it loaded, and connected?)",
                       set->node, set->dof + 1);
    return 0;
}

/* The arc-length integrators' first increment, dl along the tangent's dUhat, and each
 * iteration's, dl dUhat added to Newton's correction x (HSConstraint and EQPath alike). */
static void arc_first(hs_os_live *lv, double dl)
{
    lv->dlambda = dl;
    lv->time += dl;
    for (int i = 0; i < lv->n; i++) {
        lv->dUstep[i] = dl * lv->dUhat[i];
        lv->Ut[i] += lv->dUstep[i];
    }
}

static void arc_correct(hs_os_live *lv, double dl)
{
    for (int i = 0; i < lv->n; i++) {
        lv->x[i] += dl * lv->dUhat[i];
        lv->dUstep[i] += lv->x[i];
    }
    lv->dlambda += dl;
    lv->time += dl;
}

/* HSConstraint, OpenSees' hyperspherical arc-length (HSConstraint.cpp): the constraint
 *   psi_u^2 / u_ref^2 |dUstep|^2 + psi_f^2 dlambda^2 |phat|^2 = arcLength^2
 * on the step's increments. The first increment follows the tangent, its sign that of the last
 * step's dlambda; each iteration adds dl dUhat to Newton's correction x, dl the root of the
 * constraint's quadratic that keeps the step turning least (the larger cosine). */
static void hsc_first(hs_os_live *lv, const hs_os_settings *set)
{
    const int n = lv->n;
    const double uu = fabs(dot(n, lv->dUhat, lv->dUhat)), ff = dot(n, lv->phat, lv->phat);
    double dl = sqrt(set->arc2 / (set->psi_u2 / set->u_ref2 * uu + set->psi_f2 * ff));
    if (lv->dlambda < 0.0) dl = -dl;
    arc_first(lv, dl);
}

/* 0, or 1 when the constraint has no real root (the step fails), or an HS_E code */
static int hsc_update(hs_os_live *lv, const hs_os_settings *set)
{
    const int n = lv->n;
    const int rc = solve_reference(lv);
    if (rc) return rc;
    const double *h = lv->dUhat, *x = lv->x, *s = lv->dUstep, cu = set->psi_u2 / set->u_ref2,
                 ff = dot(n, lv->phat, lv->phat), dls = lv->dlambda;
    /* a3 as OpenSees 3.8 computes it: its C++ `cu * (s + x) ^ (s + x) - arc2 + dls^2 psi_f2 ff`
     * groups as the dot product of cu (s + x) with (s + x) - arc2 + dls^2 psi_f2 ff taken
     * component by component (^ binds after + and -), not cu |s + x|^2 - arc2 + ...: with it, a
     * step of a linear spring moves by 0.00265 at its first iteration in both programs */
    const double shift = -set->arc2 + dls * dls * set->psi_f2 * ff;
    double sx2 = 0.0;
    for (int i = 0; i < n; i++) sx2 += (s[i] + x[i]) * (s[i] + x[i] + shift);
    const double a1 = cu * dot(n, h, h) + set->psi_f2 * ff;
    const double a2 = 2.0 * (cu * (dot(n, h, x) + dot(n, h, s)) + set->psi_f2 * dls * ff);
    const double a3 = cu * sx2;
    const double disc = a2 * a2 - a1 * a3; /* as OpenSees (its roots take a1 and a2 as written) */
    if (disc < 0.0) return 1; /* no real root: the step fails (OpenSees: update() < 0) */
    double dl;
    if (a1 == 0.0) {
        dl = -a3 / (2.0 * a2);
    } else {
        const double r = sqrt(disc), l1 = (-a2 + r) / a1, l2 = (-a2 - r) / a1;
        const double hs = dot(n, h, s), c = dot(n, s, s) + dot(n, x, s);
        dl = c + l1 * hs > c + l2 * hs ? l1 : l2;
    }
    arc_correct(lv, dl);
    return 0;
}

/* EQPath (OpenSees' EQPath.cpp), types 1 and 2: the first increment arcLength along the
 * tangent's dUhat, signed by its projection on the last step's increment; then at each
 * iteration dl dUhat added to Newton's correction x, dl = -(x . dUhat) / (dUhat . dUhat) (the
 * minimum residual displacement) or -(dU0 . x) / (dU0 . dUhat) (the plane normal to the first
 * increment dU0). */
static void eqpath_first(hs_os_live *lv, const hs_os_settings *set)
{
    const int n = lv->n;
    const double dl = (dot(n, lv->dUstep, lv->dUhat) >= 0.0 ? 1.0 : -1.0) * set->arclen /
                      sqrt(dot(n, lv->dUhat, lv->dUhat));
    arc_first(lv, dl);
    memcpy(lv->dU0, lv->dUstep, (size_t)n * sizeof(double));
}

/* 0, or 1 when the denominator is zero (the step fails, as OpenSees' update() < 0) */
static int eqpath_update(hs_os_live *lv, const hs_os_settings *set)
{
    const int n = lv->n;
    const int rc = solve_reference(lv);
    if (rc) return rc;
    const double *h = lv->dUhat, *w = set->eq_type == 1 ? h : lv->dU0;
    const double den = dot(n, w, h);
    if (den == 0.0) return 1;
    arc_correct(lv, -dot(n, w, lv->x) / den);
    return 0;
}

/* x: the solution of Keff x = b; the step's increment after the update (DisplacementControl
 * adds its load-factor term). */
static int update(hs_os_live *lv, const hs_os_settings *set)
{
    const int n = lv->n;
    if (set->integ == HS_OS_INT_DISP && !transient(set)) {
        const int rc = reference_displacement(lv, set);
        if (rc) return rc;
        const double dl = -lv->x[lv->eq_ctrl] / lv->dUhat[lv->eq_ctrl];
        for (int i = 0; i < n; i++) lv->x[i] += dl * lv->dUhat[i];
        lv->time += dl;
        lv->dlambda += dl;
    }
    if ((set->integ == HS_OS_INT_HSC || set->integ == HS_OS_INT_EQPATH) && !transient(set)) {
        const int rc = set->integ == HS_OS_INT_HSC ? hsc_update(lv, set) : eqpath_update(lv, set);
        if (rc) return rc;
    }
    if (transient(set) && set->alpha_os) { /* AlphaOS::update: the elements stay at Ua */
        for (int i = 0; i < n; i++) {
            lv->Upt[i] = lv->Ut[i];
            lv->Ut[i] += lv->x[i];
            lv->Vt[i] += lv->c2 * lv->x[i];
            lv->At[i] += lv->c3 * lv->x[i];
        }
        return 0;
    }
    if (transient(set) && set->hs_fixed) { /* NewmarkHSFixedNumIter::update */
        const double t = (double)lv->iter_now / set->max_iter;
        for (int i = 0; i < n; i++) {
            const double u = lv->Ut[i] + lv->x[i], a = lv->Hst[i], b = lv->Htm1[i];
            double w; /* the polynomial at x = t through x = 1 (u), 0 (Ut), -1, -2 */
            if (set->poly_order == 1)
                w = t * u - (t - 1.0) * a;
            else if (set->poly_order == 2)
                w = t * (t + 1.0) / 2.0 * u - (t - 1.0) * (t + 1.0) * a + (t - 1.0) * t / 2.0 * b;
            else
                w = t * (t + 1.0) * (t + 2.0) / 6.0 * u -
                    (t - 1.0) * (t + 1.0) * (t + 2.0) / 2.0 * a +
                    (t - 1.0) * t * (t + 2.0) / 2.0 * b -
                    (t - 1.0) * t * (t + 1.0) / 6.0 * lv->Htm2[i];
            lv->x[i] = w - lv->Ut[i]; /* the scaled increment */
            lv->Ut[i] += lv->x[i];
            lv->Vt[i] += lv->c2 * lv->x[i];
            lv->At[i] += lv->c3 * lv->x[i];
        }
        set_alpha_state(lv, set);
        return 0;
    }
    if (transient(set) && set->explicit_newmark) { /* NewmarkExplicit::update: x = dA */
        for (int i = 0; i < n; i++) {
            lv->Vt[i] += lv->c2 * lv->x[i];
            lv->At[i] += lv->x[i];
        }
        set_alpha_state(lv, set);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        lv->Ut[i] += lv->x[i];
        if (transient(set)) {
            lv->Vt[i] += lv->c2 * lv->x[i];
            lv->At[i] += lv->c3 * lv->x[i];
        }
    }
    if (transient(set)) set_alpha_state(lv, set);
    return 0;
}

/* The load time of the current step. */
static double load_time(const hs_os_live *lv, const hs_os_settings *set)
{
    return transient(set) ? lv->time_commit + set->alpha * lv->dt : lv->time;
}

/* newStep: the predictor and the time (and, under displacement control, the first increment). */
static int new_step(hs_os_live *lv, const hs_os_settings *set, double dt)
{
    const int n = lv->n;
    memcpy(lv->Uc, lv->U, (size_t)n * sizeof(double));
    memcpy(lv->Vc, lv->V, (size_t)n * sizeof(double));
    memcpy(lv->Ac, lv->A, (size_t)n * sizeof(double));
    memcpy(lv->Ut, lv->U, (size_t)n * sizeof(double));
    memcpy(lv->Vt, lv->V, (size_t)n * sizeof(double));
    memcpy(lv->At, lv->A, (size_t)n * sizeof(double));
    if (transient(set) && set->alpha_os) { /* AlphaOS::newStep */
        const double g = set->gamma, b = set->beta, a = set->alpha;
        lv->dt = dt;
        lv->c2 = g / (b * dt);
        lv->c3 = 1.0 / (b * dt * dt);
        for (int i = 0; i < n; i++) {
            lv->Ut[i] = lv->Uc[i] + dt * lv->Vc[i] + (0.5 - b) * dt * dt * lv->Ac[i];
            lv->Vt[i] = lv->Vc[i] + dt * (1.0 - g) * lv->Ac[i];
            lv->At[i] = 0.0;
            lv->Ua[i] = (1.0 - a) * lv->Upt[i] + a * lv->Ut[i];
            lv->Va[i] = (1.0 - a) * lv->Vc[i] + a * lv->Vt[i];
        }
        lv->time = lv->time_commit + a * dt;
        return 0;
    }
    if (transient(set) && set->explicit_newmark) { /* NewmarkExplicit::newStep */
        const double g = set->gamma;
        lv->dt = dt;
        lv->c2 = g * dt;
        lv->c3 = 1.0;
        for (int i = 0; i < n; i++) {
            lv->Ut[i] = lv->Uc[i] + dt * lv->Vc[i] + 0.5 * dt * dt * lv->Ac[i];
            lv->Vt[i] = lv->Vc[i] + dt * (1.0 - g) * lv->Ac[i];
            lv->At[i] = 0.0;
        }
        set_alpha_state(lv, set);
        lv->time = lv->time_commit + dt;
        return 0;
    }
    if (transient(set) && set->hs_fixed) { /* NewmarkHSFixedNumIter::newStep: the history */
        memcpy(lv->Htm2, lv->Htm1, (size_t)n * sizeof(double));
        memcpy(lv->Htm1, lv->Hst, (size_t)n * sizeof(double));
        memcpy(lv->Hst, lv->U, (size_t)n * sizeof(double));
    }
    if (transient(set)) {
        const double g = set->gamma, b = set->beta;
        lv->dt = dt;
        lv->c2 = g / (b * dt);
        lv->c3 = 1.0 / (b * dt * dt);
        for (int i = 0; i < n; i++) {
            lv->Vt[i] = (1.0 - g / b) * lv->Vc[i] + dt * (1.0 - 0.5 * g / b) * lv->Ac[i];
            lv->At[i] = (1.0 - 0.5 / b) * lv->Ac[i] - 1.0 / (b * dt) * lv->Vc[i];
        }
        set_alpha_state(lv, set);
        lv->time = lv->time_commit + set->alpha * dt;
        return 0;
    }
    /* LoadControl and DisplacementControl: the increment scaled by Jd / (iterations of the last
     * step), within [min, max] (LoadControl.cpp, DisplacementControl.cpp) */
    double incr = lv->incr_now;
    if (lv->iters_last > 0) incr *= set->jd / lv->iters_last;
    if (incr < set->incr_min) incr = set->incr_min;
    if (incr > set->incr_max) incr = set->incr_max;
    lv->incr_now = incr;
    lv->iters_last = 0;
    const int arc = set->integ == HS_OS_INT_HSC || set->integ == HS_OS_INT_EQPATH;
    if (set->integ != HS_OS_INT_DISP && !arc) {
        lv->time += incr;
        return 0;
    }
    int rc = hs_os_live_restore(lv, lv->Ut, NULL); /* the tangent at the last commit */
    if (!rc) rc = form_tangent(lv, set, 0);
    if (!rc && arc) {
        rc = solve_reference(lv);
        if (!rc) (set->integ == HS_OS_INT_HSC ? hsc_first : eqpath_first)(lv, set);
        return rc;
    }
    if (!rc) rc = reference_displacement(lv, set);
    if (rc) return rc;
    const double dl = incr / lv->dUhat[lv->eq_ctrl];
    lv->dlambda = dl;
    lv->time += dl;
    for (int i = 0; i < n; i++) lv->Ut[i] += dl * lv->dUhat[i];
    return 0;
}

/* The reference load of DisplacementControl: P(lambda + 1) - R(U) at the last commit. */
static int reference_load(hs_os_live *lv, const hs_os_settings *set)
{
    hs_fe_dof_map map;
    const int disp = set->integ == HS_OS_INT_DISP;
    if (disp &&
        (hs_fe_node_map(lv->fe, set->node, set->dof, &map) || map.n != 1 || map.c[0] != 1.0))
        return hs_fail(lv->ctx, HS_EINPUT,
                       "DisplacementControl: node %d dof %d is not a free DOF of the model",
                       set->node, set->dof + 1);
    if (disp) lv->eq_ctrl = map.eq[0];
    hs_os_live_member_loads(lv, lv->time + 1.0);
    int rc = hs_os_live_restore(lv, lv->U, NULL);
    hs_os_live_member_loads(lv, lv->time);
    if (rc) return rc;
    applied_load(lv, lv->time + 1.0, lv->phat);
    int any = 0;
    for (int i = 0; i < lv->n; i++) {
        lv->phat[i] -= lv->r[i];
        any |= lv->phat[i] != 0.0;
    }
    if (!any)
        return hs_fail(lv->ctx, HS_EINPUT,
                       "%s: no reference load (a pattern Plain whose series "
                       "grows with the load factor, e.g. Linear)",
                       disp                          ? "DisplacementControl"
                       : set->integ == HS_OS_INT_HSC ? "HSConstraint"
                                                     : "EQPath");
    lv->phat_ready = 1;
    return 0;
}

/* The convergence test after an iteration: 1 converged, 0 go on, -1 failed. */
static int test(const hs_os_live *lv, const hs_os_settings *set, int iter)
{
    double norm = 0.0;
    switch (set->test) {
    case HS_OS_TEST_DISP:
        norm = sqrt(dot(lv->n, lv->x, lv->x));
        break;
    case HS_OS_TEST_UNBALANCE:
        norm = sqrt(dot(lv->n, lv->b, lv->b));
        break;
    case HS_OS_TEST_ENERGY:
        norm = 0.5 * fabs(dot(lv->n, lv->x, lv->b));
        break;
    case HS_OS_TEST_FIXED:
        return iter >= set->max_iter ? 1 : 0;
    }
    if (norm <= set->tol) return 1;
    if (iter >= set->max_iter) return set->print_flag == 5 ? 1 : -1;
    return 0;
}

/* The lazy last unbalance: OpenSees forms the unbalance after every update, the elements'
 * state at the new trial, and then tests. A displacement-increment test reads only the increment,
 * so the unbalance after the update that converges is read by nothing when HHT's commit
 * evaluates the elements again at t + dt (alpha < 1): hysim tests first there and leaves it out,
 * one element state determination a step fewer. The elements' state at t + dt is the same for
 * the laws (a trial from the committed state); a force-based element's iterations start from the
 * iteration before's trial instead (a difference within its tolerance: docs/fe_model.md, "Fiber
 * state determination"). Off where the unbalance or the updates are read: an experimental
 * element, a reactionIncludingInertia recorder, the other tests, AlphaOS and the other Newmark
 * variants, Newmark itself (alpha 1: no evaluation at commit to move it to). */
static int lazy_unbalance(const hs_os_live *lv, const hs_os_settings *set)
{
    return transient(set) && set->integ == HS_OS_INT_NEWMARK && set->alpha != 1.0 &&
           !set->alpha_os && !set->hs_fixed && !set->explicit_newmark &&
           set->test == HS_OS_TEST_DISP && set->alg != HS_OS_ALG_LINEAR && !lv->has_exp &&
           !lv->unbalance_read;
}

/* solveCurrentStep: 0 converged, 1 failed, HS_E codes. */
static int solve_step(hs_os_live *lv, const hs_os_settings *set)
{
    int rc = 0;
    form_unbalance(lv, set, load_time(lv, set), &rc);
    if (rc) return rc;
    const int newton = set->alg == HS_OS_ALG_NEWTON, lazy = lazy_unbalance(lv, set);
    if (!newton) rc = form_tangent(lv, set, set->initial); /* once a step */
    for (int iter = 1; !rc; iter++) {
        if (newton) rc = form_tangent(lv, set, set->initial);
        if (rc) break;
        memcpy(lv->x, lv->b, (size_t)lv->n * sizeof(double));
        rc = hs_linsolver_solve(lv->ls, lv->x);
        lv->iter_now = iter; /* the test's count (NewmarkHSFixedNumIter's x) */
        if (!rc) rc = update(lv, set);
        if (!rc) hs_os_live_imposed_set(lv, set, load_time(lv, set));
        if (!rc && lazy && test(lv, set, iter) > 0) {
            lv->iters_last = iter;
            return 0;
        }
        form_unbalance(lv, set, load_time(lv, set), &rc);
        if (rc) break;
        lv->iters_last = iter;
        if (set->alg == HS_OS_ALG_LINEAR) return 0;
        const int t = test(lv, set, iter);
        if (t) return t > 0 ? 0 : 1;
    }
    return rc == HS_ESINGULAR ? 1 : rc;
}

static int commit(hs_os_live *lv, const hs_os_settings *set)
{
    const size_t bytes = (size_t)lv->n * sizeof(double);
    int rc = 0;
    /* AlphaOS::commit: the elements at Ua with the corrected velocity (AlphaOS::update sets the
     * nodes' velocity, updates the domain, then only the nodes' displacement), unless
     * -updateElemDisp (then at Ut) */
    if (transient(set) && set->alpha_os)
        rc = hs_os_live_restore(lv, set->update_elem_disp ? lv->Ut : lv->Ua, lv->Vt);
    else if (transient(set) && set->alpha != 1.0) /* HHT::commit: the elements at t + dt */
        rc = hs_os_live_update(lv, lv->Ut, lv->Vt);
    if (!rc) rc = commit_fe(lv);
    if (!rc && transient(set) && set->hs_fixed) { /* NewmarkHSFixedNumIter::commit: one more
        increment from the last unbalance, to the nodes only (the elements keep the state of the
        last iteration) */
        rc = form_tangent(lv, set, set->initial);
        memcpy(lv->x, lv->b, bytes);
        if (!rc) rc = hs_linsolver_solve(lv->ls, lv->x);
        for (int i = 0; !rc && i < lv->n; i++) {
            lv->Ut[i] += lv->x[i];
            lv->Vt[i] += lv->c2 * lv->x[i];
            lv->At[i] += lv->c3 * lv->x[i];
        }
        /* what OpenSees then records (Domain::commit, calculateNodalReactions): the elastic
         * beams' forces at the moved nodes, the other elements' at their last update, and the
         * residual with the moved nodes' velocity and acceleration (reactionIncludingInertia:
         * Node::getUnbalancedLoadIncInertia, its mass and alphaM terms) */
        if (!rc) rc = hs_fe_move_nodes(lv->fe, lv->Ut, lv->tmp);
        for (int i = 0; !rc && i < lv->n; i++) {
            lv->r[i] += lv->tmp[i]; /* the restoring force there, until the next update */
            lv->b[i] = lv->P[i] - lv->r[i];
        }
        if (!rc) {
            hs_os_storage_matvec_sub(&lv->st, lv->C, lv->Vt, lv->b);
            if (lv->Cmodal) hs_matvec_add(lv->n, lv->Cmodal, lv->Vt, -1.0, lv->b);
            hs_os_storage_matvec_sub(&lv->st, lv->Mv, lv->At, lv->b);
        }
    }
    if (rc) return rc;
    memcpy(lv->U, lv->Ut, bytes);
    if (transient(set)) {
        memcpy(lv->V, lv->Vt, bytes);
        memcpy(lv->A, lv->At, bytes);
        /* HHT::commit, AlphaOS::commit: t + alpha dt, then + (1 - alpha) dt (the same time
         * to the last bit; Newmark's alpha 1 gives t + dt) */
        lv->time = (lv->time_commit + set->alpha * lv->dt) + (1.0 - set->alpha) * lv->dt;
    }
    lv->time_commit = lv->time;
    lv->steps++;
    return 0;
}

static void (*step_probe)(void *user); /* hs_os_live_set_probe */
static void *step_probe_user;

void hs_os_live_set_probe(void (*probe)(void *user), void *user)
{
    step_probe = probe;
    step_probe_user = user;
}

int hs_os_live_analyze(hs_os_live *lv, const hs_os_settings *set, int steps, double dt,
                       int (*on_commit)(void *user), void *user, int *result)
{
    *result = 0;
    lv->P_ok = 0; /* the patterns and loads may have changed since the last analyze */
    const int rc_sp = hs_os_live_imposed_resolve(lv, set);
    if (rc_sp) return rc_sp;
    if ((set->integ == HS_OS_INT_DISP || set->integ == HS_OS_INT_HSC ||
         set->integ == HS_OS_INT_EQPATH) &&
        !transient(set) && !lv->phat_ready) {
        const int rc = reference_load(lv, set);
        if (rc) return rc;
    }
    for (int s = 0; s < steps; s++) {
        int rc = new_step(lv, set, dt);
        if (!rc) hs_os_live_imposed_set(lv, set, load_time(lv, set));
        if (!rc) rc = solve_step(lv, set);
        if (rc == 1 || rc == HS_ESINGULAR) { /* OpenSees: back to the last commit, -3 */
            revert_fe(lv);
            lv->time = lv->time_commit;
            hs_log(lv->ctx, HS_LOG_WARN,
                   "analyze: the step from time %g did not converge%s; the model is back at "
                   "its last commit (analyze returns -3)",
                   lv->time_commit, rc == HS_ESINGULAR ? " (singular tangent)" : "");
            hs_ctx_clear(lv->ctx);
            *result = -3;
            return 0;
        }
        if (!rc) rc = commit(lv, set);
        if (!rc && step_probe) step_probe(step_probe_user);
        if (!rc && on_commit) rc = on_commit(user);
        if (rc) return rc;
    }
    return 0;
}

void hs_os_live_initial_velocity(hs_os_live *lv, hs_os_model *m)
{
    for (int k = 0; k < m->npatterns; k++) {
        hs_os_pattern *p = &m->patterns[k];
        if (!p->uniform || p->vel0 == 0.0 || p->vel0_done) continue;
        p->vel0_done = 1;
        for (int i = 0; i < m->nnodes; i++) { /* UniformExcitation::setDomain: free in dir */
            hs_fe_dof_map map;
            if (m->nodes[i].fix[p->dir] || hs_fe_node_map(lv->fe, m->nodes[i].tag, p->dir, &map) ||
                map.n != 1 || map.c[0] != 1.0)
                continue;
            lv->V[map.eq[0]] = p->vel0;
        }
    }
}

double hs_os_live_node(const hs_os_live *lv, int node, int dof, int order)
{
    hs_fe_dof_map map;
    if (!lv || hs_fe_node_map(lv->fe, node, dof, &map)) return 0.0;
    const double *x = order == 0 ? lv->U : order == 1 ? lv->V : order == 2 ? lv->A : lv->Aupd;
    double u = 0.0;
    for (int t = 0; t < map.n; t++) u += map.c[t] * x[map.eq[t]];
    return u;
}

double hs_os_live_reaction_inertia(hs_os_live *lv, int node, int dof)
{
    hs_fe_dof_map map;
    if (!lv || hs_fe_node_map(lv->fe, node, dof, &map) || map.n == 0)
        return hs_os_live_reaction(lv, node, dof);
    double r = 0.0;
    for (int a = 0; a < map.n; a++) r -= map.c[a] * lv->b[map.eq[a]];
    return r;
}

double hs_os_live_reaction(hs_os_live *lv, int node, int dof)
{
    double r = 0.0;
    const int q = hs_os_live_imposed_eq(lv, node, dof);
    if (q >= 0) return lv->r[q] - lv->P[q]; /* an imposed DOF: the force that holds it */
    if (!lv || hs_fe_reaction(lv->fe, node, dof, &r)) {
        if (lv) hs_ctx_clear(lv->ctx);
        return 0.0;
    }
    return r;
}
