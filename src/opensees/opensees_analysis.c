/* The script's own analysis on hysim's frame model (opensees_analysis.h): the live model, the
 * loads of the patterns at a time, Rayleigh damping, the integrators' steps and the algorithms'
 * iterations, in OpenSees' order. */
#include "opensees_analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NDF HS_OS_NDF

static size_t nn(const hs_os_live *lv)
{
    return (size_t)lv->n * (size_t)lv->n;
}

/* the number of values of each matrix over the storage's pattern */
static size_t nnz(const hs_os_live *lv)
{
    return lv->st.nnz;
}

/* M += w m T_a^T T_b over the maps of a node DOF carrying lumped mass w m. */
static void add_lumped(const hs_os_live *lv, double *M, int node, int dof, double m)
{
    hs_fe_dof_map map;
    if (m == 0.0 || hs_fe_node_map(lv->fe, node, dof, &map) || map.n == 0) return;
    for (int a = 0; a < map.n; a++)
        for (int b = 0; b < map.n; b++)
            HS_AT(M, lv->n, map.eq[a], map.eq[b]) += map.c[a] * map.c[b] * m;
}

/* The mass (alpha_m 0) or the alphaM-weighted mass (1) of the nodes and the elements. */
static int assemble_mass(hs_os_live *lv, int alpha_m, double *M)
{
    const hs_os_model *m = lv->m;
    double *em = hs_calloc((size_t)m->nnodes * NDF + 1, sizeof *em);
    if (!em) return HS_ENOMEM;
    hs_os_element_masses(m, alpha_m, em);
    for (int i = 0; i < m->nnodes; i++) {
        const hs_os_node *nd = &m->nodes[i];
        const double w = alpha_m ? nd->ray.alphaM : 1.0;
        for (int d = 0; d < m->ndf; d++)
            add_lumped(lv, M, nd->tag, d, w * nd->mass[d] + em[NDF * i + d]);
    }
    hs_free(em);
    return 0;
}

/* The Rayleigh stiffness groups: elements with the same nonzero (betaK, betaKinit, betaKcomm)
 * (trusses, zeroLength and twoNodeLink only with -doRayleigh, as OpenSees). */
static double element_beta(const hs_os_element *e, int k)
{
    if (!e->rayleigh_ok) return 0.0;
    return k == 0 ? e->ray.betaK : k == 1 ? e->ray.betaKinit : e->ray.betaKcomm;
}

/* C's part that no restore changes, Cconst = alphaM M + sum over groups betaKinit K0, and
 * whether some betaK or betaKcommitted makes C change (damping()); the effective matrix's
 * constant part is formed again. */
static void damping_constant(hs_os_live *lv)
{
    memcpy(lv->Cconst, lv->Cm, nnz(lv) * sizeof(double));
    lv->c_varies = 0;
    for (int g = 0; g < lv->ngroups; g++) {
        for (size_t k = 0; k < nnz(lv); k++) lv->Cconst[k] += lv->beta[g][1] * lv->Kg0[g][k];
        lv->c_varies |= lv->beta[g][0] != 0.0 || lv->beta[g][2] != 0.0;
    }
    memcpy(lv->C, lv->Cconst, nnz(lv) * sizeof(double));
    lv->keff_ok = 0;
}

static int build_groups(hs_os_live *lv, const char *script)
{
    const hs_os_model *m = lv->m;
    int rc = 0;
    unsigned char *keep = hs_calloc((size_t)m->nels + 1, 1);
    int *group = hs_calloc((size_t)m->nels + 1, sizeof *group);
    if (!keep || !group) rc = HS_ENOMEM;
    for (int k = 0; !rc && k < m->nels; k++) {
        const hs_os_element *e = &m->els[k];
        group[k] = -1;
        if (element_beta(e, 0) == 0.0 && element_beta(e, 1) == 0.0 && element_beta(e, 2) == 0.0)
            continue;
        int g = 0;
        while (g < lv->ngroups &&
               !(lv->beta[g][0] == element_beta(e, 0) && lv->beta[g][1] == element_beta(e, 1) &&
                 lv->beta[g][2] == element_beta(e, 2)))
            g++;
        if (g == HS_OS_GROUPS)
            rc = hs_fail(lv->ctx, HS_EUNSUPPORTED,
                         "%s: element %d: more than %d distinct Rayleigh stiffness factors",
                         e->where, e->tag, HS_OS_GROUPS);
        else if (g == lv->ngroups) {
            for (int c = 0; c < 3; c++) lv->beta[g][c] = element_beta(e, c);
            lv->ngroups++;
        }
        group[k] = g;
    }
    for (int g = 0; !rc && g < lv->ngroups; g++) {
        int all = 1;
        for (int k = 0; k < m->nels; k++) {
            keep[k] = group[k] == g;
            all &= keep[k];
        }
        if (all)
            lv->gfe[g] = lv->fe; /* every element: the model itself */
        else
            rc = hs_os_build_live_fe(lv->ctx, m, script, keep, &lv->gfe[g]);
        if (!rc && lv->gfe[g] != lv->fe)
            rc = hs_os_storage_part(lv->ctx, &lv->st, lv->gfe[g], &lv->part[g]);
        if (!rc && !(lv->Kg0[g] = hs_dvec(nnz(lv)))) rc = HS_ENOMEM;
        if (!rc && !(lv->Kgc[g] = hs_dvec(nnz(lv)))) rc = HS_ENOMEM;
        if (lv->gfe[g] == lv->fe)
            lv->Kgt[g] = lv->Kt; /* the model's own tangent */
        else if (!rc && !(lv->Kgt[g] = hs_dvec(nnz(lv))))
            rc = HS_ENOMEM;
        if (!rc) rc = hs_os_storage_initial(&lv->st, &lv->part[g], lv->gfe[g], lv->Kg0[g]);
        if (!rc) memcpy(lv->Kgc[g], lv->Kg0[g], nnz(lv) * sizeof(double));
    }
    hs_free(keep);
    hs_free(group);
    if (!rc) damping_constant(lv);
    return rc;
}

static void free_groups(hs_os_live *lv)
{
    for (int g = 0; g < lv->ngroups; g++) {
        if (lv->gfe[g] != lv->fe) hs_fe_destroy(&lv->gfe[g]);
        lv->gfe[g] = NULL;
        hs_os_part_free(&lv->part[g]);
        hs_free(lv->Kg0[g]);
        hs_free(lv->Kgc[g]);
        if (lv->Kgt[g] != lv->Kt) hs_free(lv->Kgt[g]);
        lv->Kg0[g] = lv->Kgc[g] = lv->Kgt[g] = NULL;
    }
    lv->ngroups = 0;
}

/* The matrices stored as values over the storage's pattern. */
#define VALUE_ARRAYS(lv)                                                                           \
    {                                                                                              \
        &(lv)->Mv, &(lv)->Cm, &(lv)->Kt, &(lv)->Ct, &(lv)->K0, &(lv)->Keff, &(lv)->C,              \
            &(lv)->Cconst, &(lv)->Keffc                                                            \
    }

static void free_values(hs_os_live *lv)
{
    double **mat[] = VALUE_ARRAYS(lv);
    for (size_t i = 0; i < sizeof mat / sizeof mat[0]; i++) {
        hs_free(*mat[i]);
        *mat[i] = NULL;
    }
}

static int alloc_values(hs_os_live *lv)
{
    free_values(lv);
    double **mat[] = VALUE_ARRAYS(lv);
    for (size_t i = 0; i < sizeof mat / sizeof mat[0]; i++)
        if (!(*mat[i] = hs_dvec(nnz(lv)))) return HS_ENOMEM;
    return 0;
}

/* M (dense: eigen's) and the values of M and of the alphaM-weighted mass Cm; a mass outside the
 * frame's pattern (a rigid slave's without an element) moves the storage to the full pattern
 * (*moved: the other matrices and the solver are to be made again). */
static int masses(hs_os_live *lv, int *moved)
{
    double *Cd = hs_dvec(nn(lv));
    if (!Cd) return HS_ENOMEM;
    memset(lv->M, 0, nn(lv) * sizeof(double)); /* assemble_mass adds */
    int rc = assemble_mass(lv, 0, lv->M);
    if (!rc) rc = assemble_mass(lv, 1, Cd);
    *moved = 0;
    if (!rc && (hs_os_storage_gather(&lv->st, lv->M, lv->Mv) |
                hs_os_storage_gather(&lv->st, Cd, lv->Cm))) {
        *moved = 1;
        rc = hs_os_storage_to_full(lv->ctx, &lv->st);
        if (!rc) rc = alloc_values(lv);
        if (!rc) {
            hs_os_storage_gather(&lv->st, lv->M, lv->Mv);
            hs_os_storage_gather(&lv->st, Cd, lv->Cm);
        }
    }
    hs_free(Cd);
    return rc;
}

/* values (over P) -> the dense n x n matrix (the full storage's values); NULL: no memory */
static double *scatter_dense(const hs_csc *P, int n, const double *values)
{
    double *D = hs_dvec((size_t)n * (size_t)n);
    if (!D) return NULL;
    for (int j = 0; j < P->ncols; j++)
        for (int p = P->colptr[j]; p < P->colptr[j + 1]; p++)
            HS_AT(D, n, P->rowind[p], j) = values[p];
    return D;
}

int hs_os_live_storage_full(hs_os_live *lv)
{
    if (!lv->st.sparse) return 0;
    const hs_csc *P = lv->st.P; /* the frame's: it outlives the move */
    double **mat[] = VALUE_ARRAYS(lv);
    const size_t nmat = sizeof mat / sizeof mat[0];
    /* the value arrays, then each group's K0, Kcommitted and (its own) Kt, as dense matrices */
    double *dense[sizeof mat / sizeof mat[0] + 3 * HS_OS_GROUPS] = {0};
    int alias[HS_OS_GROUPS] = {0}; /* the group's Kt is the model's */
    int rc = 0;
    for (size_t i = 0; !rc && i < nmat; i++)
        if (!(dense[i] = scatter_dense(P, lv->n, *mat[i]))) rc = HS_ENOMEM;
    for (int g = 0; !rc && g < lv->ngroups; g++) {
        double *gm[3] = {lv->Kg0[g], lv->Kgc[g], lv->Kgt[g]};
        alias[g] = lv->Kgt[g] == lv->Kt;
        for (int q = 0; !rc && q < 3 - alias[g]; q++)
            if (!(dense[nmat + 3 * (size_t)g + (size_t)q] = scatter_dense(P, lv->n, gm[q])))
                rc = HS_ENOMEM;
    }
    if (!rc) rc = hs_os_storage_to_full(lv->ctx, &lv->st);
    if (rc) {
        for (size_t i = 0; i < sizeof dense / sizeof dense[0]; i++) hs_free(dense[i]);
        return rc;
    }
    for (size_t i = 0; i < nmat; i++) {
        hs_free(*mat[i]);
        *mat[i] = dense[i];
    }
    for (int g = 0; g < lv->ngroups; g++) {
        double **gm[3] = {&lv->Kg0[g], &lv->Kgc[g], &lv->Kgt[g]};
        for (int q = 0; q < 3 - alias[g]; q++) {
            hs_free(*gm[q]);
            *gm[q] = dense[nmat + 3 * (size_t)g + (size_t)q];
        }
        if (alias[g]) lv->Kgt[g] = lv->Kt;
        if (lv->gfe[g] != lv->fe) { /* the full storage needs no slots */
            hs_os_part_free(&lv->part[g]);
            if (!rc) rc = hs_os_storage_part(lv->ctx, &lv->st, lv->gfe[g], &lv->part[g]);
        }
    }
    hs_linsolver_destroy(&lv->ls);
    if (!rc) rc = hs_os_storage_solver(lv->ctx, &lv->st, &lv->ls);
    lv->keff_ok = 0;
    return rc;
}

/* The initial stiffness and the solver for the storage's pattern. */
static int stiffness_and_solver(hs_os_live *lv)
{
    hs_linsolver_destroy(&lv->ls);
    const int rc = hs_os_storage_initial(&lv->st, NULL, lv->fe, lv->K0);
    return rc ? rc : hs_os_storage_solver(lv->ctx, &lv->st, &lv->ls);
}

void hs_os_live_destroy(hs_os_live **plv)
{
    hs_os_live *lv = *plv;
    if (!lv) return;
    free_groups(lv);
    double **v[] = {&lv->M,        &lv->U,          &lv->V,      &lv->A,    &lv->Ut,     &lv->Vt,
                    &lv->At,       &lv->Ua,         &lv->Va,     &lv->Uc,   &lv->Vc,     &lv->Ac,
                    &lv->r,        &lv->b,          &lv->x,      &lv->P,    &lv->tmp,    &lv->phat,
                    &lv->Kx,       &lv->dUhat,      &lv->rg,     &lv->Upt,  &lv->dUstep, &lv->dU0,
                    &lv->modal_w2, &lv->modal_mphi, &lv->Cmodal, &lv->Uref, &lv->Ushift};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) hs_free(*v[i]);
    free_values(lv);
    hs_os_storage_free(&lv->st);
    hs_fe_destroy(&lv->fe);
    hs_linsolver_destroy(&lv->ls);
    hs_free(lv);
    *plv = NULL;
}

/* FNV-1a over the nodes' masses and every Rayleigh factor. */
static unsigned long long mass_signature(const hs_os_model *m)
{
    unsigned long long h = 1469598103934665603ULL;
    const unsigned char *b;
    for (int i = 0; i < m->nnodes; i++) {
        b = (const unsigned char *)m->nodes[i].mass;
        for (size_t k = 0; k < sizeof m->nodes[i].mass; k++) h = (h ^ b[k]) * 1099511628211ULL;
        b = (const unsigned char *)&m->nodes[i].ray;
        for (size_t k = 0; k < sizeof m->nodes[i].ray; k++) h = (h ^ b[k]) * 1099511628211ULL;
    }
    for (int i = 0; i < m->nels; i++) {
        b = (const unsigned char *)&m->els[i].ray;
        for (size_t k = 0; k < sizeof m->els[i].ray; k++) h = (h ^ b[k]) * 1099511628211ULL;
    }
    return h;
}

static int restore(hs_os_live *lv, const double *d, const double *v);

int hs_os_live_refresh(hs_os_state *st, hs_os_live *lv)
{
    const unsigned long long sig = mass_signature(lv->m);
    if (sig == lv->masses) return 0;
    free_groups(lv);
    int moved = 0, rc = masses(lv, &moved);
    if (!rc && moved) rc = stiffness_and_solver(lv);
    if (!rc) rc = build_groups(lv, st->script);
    for (int g = 0; !rc && g < lv->ngroups; g++)
        if (lv->gfe[g] != lv->fe && lv->steps > 0 && !hs_fe_is_linear(lv->gfe[g]))
            rc = hs_fail(lv->ctx, HS_EUNSUPPORTED,
                         "not yet supported by hysim: Rayleigh stiffness factors given after an "
                         "analysis to part of a nonlinear model (its elements' history is in the "
                         "whole model only); give them to every element, or before the first "
                         "analyze");
    if (!rc) rc = restore(lv, lv->U, NULL); /* the committed tangent of the new groups */
    for (int g = 0; !rc && g < lv->ngroups; g++)
        memcpy(lv->Kgc[g], lv->Kgt[g], nnz(lv) * sizeof(double));
    if (!rc) lv->masses = sig;
    return rc;
}

int hs_os_live_create(hs_os_state *st, hs_os_live **out)
{
    *out = NULL;
    const hs_os_model *m = st->m;
    for (int k = 0; k < m->nels; k++)
        if (m->els[k].cmass && m->els[k].rho > 0.0)
            return hs_fail(st->ctx, HS_EUNSUPPORTED,
                           "%s: element %d: -cMass: not yet in the script's own analysis (its "
                           "mass is lumped there); remove -cMass, or give the test file an "
                           "analysis section",
                           m->els[k].where, m->els[k].tag);
    for (int k = 0; k < m->nels; k++) {
        const hs_os_element *e = &m->els[k];
        /* OpenFresco damps an experimental element with its -initStif (betaKinit; betaK and
         * betaKcomm too, its tangent being -initStif), or with an estimated tangent (-tangStif):
         * hysim has the first (the element's given stiffness), not the estimate */
        const int estimated = e->nkinit && e->exp_own_tangent;
        if (e->exp_site && e->exp_rayleigh &&
            ((!e->nkinit && e->ray.betaKinit != 0.0) ||
             ((!e->nkinit || estimated) && (e->ray.betaK != 0.0 || e->ray.betaKcomm != 0.0))))
            return hs_fail(st->ctx, HS_EUNSUPPORTED,
                           "%s: expElement %d: stiffness-proportional Rayleigh damping of an "
                           "experimental element %s is not yet in hysim; give the element "
                           "-noRayleigh, or rayleigh %s 0",
                           e->where, e->tag,
                           estimated ? "with an estimated tangent (-tangStif: OpenFresco damps "
                                       "it with the estimate)"
                                     : "without -initStif (OpenFresco damps it with that "
                                       "stiffness)",
                           estimated ? "betaK and betaKcomm" : "betaK, betaKinit, betaKcomm");
    }
    hs_os_live *lv = hs_calloc(1, sizeof *lv);
    if (!lv) return HS_ENOMEM;
    lv->ctx = st->ctx;
    lv->m = m;
    lv->nnodes = m->nnodes;
    lv->nels = m->nels;
    int rc = hs_os_build_live_fe(st->ctx, m, st->script, NULL, &lv->fe);
    if (!rc) {
        lv->n = hs_fe_ndof(lv->fe);
        double **vec[] = {&lv->U,     &lv->V,  &lv->A,   &lv->Ut,     &lv->Vt, &lv->At,
                          &lv->Ua,    &lv->Va, &lv->Uc,  &lv->Vc,     &lv->Ac, &lv->r,
                          &lv->b,     &lv->x,  &lv->P,   &lv->tmp,    &lv->Kx, &lv->phat,
                          &lv->dUhat, &lv->rg, &lv->Upt, &lv->dUstep, &lv->dU0};
        for (size_t i = 0; !rc && i < sizeof vec / sizeof vec[0]; i++)
            if (!(*vec[i] = hs_dvec((size_t)lv->n))) rc = HS_ENOMEM;
        if (!rc && !(lv->M = hs_dvec(nn(lv)))) rc = HS_ENOMEM;
    }
    if (!rc) rc = hs_os_storage_init(st->ctx, lv->fe, lv->n, &lv->st);
    if (!rc) lv->rate = hs_fe_is_rate_dependent(lv->fe);
    if (!rc) rc = alloc_values(lv);
    int moved = 0;
    if (!rc) rc = masses(lv, &moved);
    if (!rc) rc = stiffness_and_solver(lv);
    if (!rc) rc = build_groups(lv, st->script);
    lv->masses = mass_signature(m);
    if (rc) {
        hs_os_live_destroy(&lv);
        return rc;
    }
    *out = lv;
    return 0;
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
        hs_os_storage_matvec_sub(&lv->st, lv->Mv, lv->tmp, P);
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

/* Restores the model (and every Rayleigh group) at d, v: r, Kt, Ct and each group's tangent. */
static int restore(hs_os_live *lv, const double *d, const double *v)
{
    if (lv->Uref) { /* OpenSees' trusses after a coordinate update: from d - Uref */
        for (int i = 0; i < lv->n; i++) lv->Ushift[i] = d[i] - lv->Uref[i];
        d = lv->Ushift;
    }
    int rc = hs_os_storage_restore(&lv->st, NULL, lv->fe, d, v, lv->r, lv->Kt, lv->Ct);
    for (int g = 0; !rc && g < lv->ngroups; g++)
        if (lv->gfe[g] != lv->fe) /* else Kgt is Kt */
            rc = hs_os_storage_restore(&lv->st, &lv->part[g], lv->gfe[g], d, v, lv->rg, lv->Kgt[g],
                                       NULL);
    return rc;
}

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
    *rc = restore(lv, d, v);
    if (*rc) return;
    applied_load(lv, t_load, lv->P);
    for (int i = 0; i < n; i++) lv->b[i] = lv->P[i] - lv->r[i];
    if (!transient(set)) return;
    damping(lv);
    hs_os_storage_matvec_sub(&lv->st, lv->C, lv->Va, lv->b);
    if (lv->Cmodal) /* modalDamping: at t + dt (dense: the modes couple every DOF) */
        hs_matvec_add(n, lv->Cmodal, lv->Vt, -1.0, lv->b);
    hs_os_storage_matvec_sub(&lv->st, lv->Mv, lv->At, lv->b);
    if (set->alpha_os && set->alpha < 1.0) { /* AlphaOS::formElementResidual */
        for (int i = 0; i < n; i++) lv->tmp[i] = lv->Uc[i] - lv->Upt[i];
        hs_os_storage_matvec(&lv->st, set->initial ? lv->K0 : lv->Kt, lv->tmp, lv->Kx);
        for (int i = 0; i < n; i++) lv->b[i] += (set->alpha - 1.0) * lv->Kx[i];
    }
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
        const double a = set->alpha;
        for (size_t k = 0; k < nnz(lv); k++) lv->Keff[k] = a * K[k] + lv->Keffc[k];
        if (lv->Cmodal && !set->hht && !lv->modal_q) /* Newmark's getCFactor c2; HHT's 0 */
            for (size_t k = 0; k < nnz(lv); k++) lv->Keff[k] += lv->c2 * lv->Cmodal[k];
    }
    if (transient(set) && lv->rate) { /* the elements' damping tangent */
        const double w = set->explicit_newmark ? lv->c2 : set->alpha * lv->c2;
        for (size_t k = 0; k < nnz(lv); k++) lv->Keff[k] += w * lv->Ct[k];
    }
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
    int rc = restore(lv, lv->Ut, NULL); /* the tangent at the last commit */
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
    int rc = restore(lv, lv->U, NULL);
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

/* solveCurrentStep: 0 converged, 1 failed, HS_E codes. */
static int solve_step(hs_os_live *lv, const hs_os_settings *set)
{
    int rc = 0;
    form_unbalance(lv, set, load_time(lv, set), &rc);
    if (rc) return rc;
    const int newton = set->alg == HS_OS_ALG_NEWTON;
    if (!newton) rc = form_tangent(lv, set, set->initial); /* once a step */
    for (int iter = 1; !rc; iter++) {
        if (newton) rc = form_tangent(lv, set, set->initial);
        if (rc) break;
        memcpy(lv->x, lv->b, (size_t)lv->n * sizeof(double));
        rc = hs_linsolver_solve(lv->ls, lv->x);
        if (!rc) rc = update(lv, set);
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
    if (transient(set) && set->alpha_os) /* AlphaOS::commit: the elements at Ua, unless */
        rc = set->update_elem_disp ? restore(lv, lv->Ut, lv->Vt) : restore(lv, lv->Ua, lv->Va);
    else if (transient(set) && set->alpha != 1.0)
        rc = restore(lv, lv->Ut, lv->Vt);
    if (!rc) rc = commit_fe(lv);
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
    if ((set->integ == HS_OS_INT_DISP || set->integ == HS_OS_INT_HSC ||
         set->integ == HS_OS_INT_EQPATH) &&
        !transient(set) && !lv->phat_ready) {
        const int rc = reference_load(lv, set);
        if (rc) return rc;
    }
    for (int s = 0; s < steps; s++) {
        int rc = new_step(lv, set, dt);
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
    const double *x = order == 0 ? lv->U : order == 1 ? lv->V : lv->A;
    double u = 0.0;
    for (int t = 0; t < map.n; t++) u += map.c[t] * x[map.eq[t]];
    return u;
}

double hs_os_live_reaction(hs_os_live *lv, int node, int dof)
{
    double r = 0.0;
    if (!lv || hs_fe_reaction(lv->fe, node, dof, &r)) {
        if (lv) hs_ctx_clear(lv->ctx);
        return 0.0;
    }
    return r;
}
