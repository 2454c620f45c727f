/* The script's own analysis' live model (opensees_analysis.h): the frame built from the script,
 * its masses, Rayleigh groups and matrices over the storage's pattern, made, refreshed when the
 * script changes them, moved to the full storage, and restored at a displacement. */
#include "opensees_analysis.h"
#include "opensees_tcl_openfresco.h"

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
    const int n = lv->n;
    lv->m_diag = 1;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if (i != j && HS_AT(lv->M, n, i, j) != 0.0) lv->m_diag = 0;
    for (int i = 0; i < n; i++) lv->Md[i] = HS_AT(lv->M, n, i, i);
    return rc;
}

void hs_os_live_mass_sub(const hs_os_live *lv, const double *x, double *y)
{
    if (!lv->m_diag) {
        hs_os_storage_matvec_sub(&lv->st, lv->Mv, x, y);
        return;
    }
    for (int i = 0; i < lv->n; i++) y[i] -= lv->Md[i] * x[i];
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
                    &lv->modal_w2, &lv->modal_mphi, &lv->Cmodal, &lv->Uref, &lv->Ushift, &lv->Hst,
                    &lv->Htm1,     &lv->Htm2,       &lv->Md,     &lv->Aupd};
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

int hs_os_live_refresh(hs_os_state *st, hs_os_live *lv)
{
    const unsigned long long sig = mass_signature(lv->m);
    if (sig == lv->masses) return 0;
    free_groups(lv);
    int moved = 0, rc = masses(lv, &moved);
    if (!rc && moved) rc = stiffness_and_solver(lv);
    if (!rc) rc = build_groups(lv, st->script);
    /* a group of part of a nonlinear model made after an analysis: its elements' history */
    for (int g = 0; !rc && g < lv->ngroups; g++)
        if (lv->gfe[g] != lv->fe && lv->steps > 0 && !hs_fe_is_linear(lv->gfe[g]))
            rc = hs_fe_copy_element_states(lv->gfe[g], lv->fe);
    if (!rc) hs_os_live_member_loads(lv, lv->time);
    if (!rc) rc = hs_os_live_restore(lv, lv->U, NULL); /* the committed tangent of the new groups */
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
        const int given = e->nkinit || e->has_k_dir[1]; /* -initStif (a bearing's: its shear) */
        if (e->exp_site && e->exp_rayleigh &&
            ((!given && e->ray.betaKinit != 0.0) ||
             ((!given || estimated) && (e->ray.betaK != 0.0 || e->ray.betaKcomm != 0.0))))
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
    if (!rc) rc = hs_of_remote_attach(st, lv->fe); /* networked sites' elements */
    if (!rc) {
        lv->n = hs_fe_ndof(lv->fe);
        double **vec[] = {&lv->U,     &lv->V,    &lv->A,   &lv->Ut,     &lv->Vt,  &lv->At,
                          &lv->Ua,    &lv->Va,   &lv->Uc,  &lv->Vc,     &lv->Ac,  &lv->r,
                          &lv->b,     &lv->x,    &lv->P,   &lv->tmp,    &lv->Kx,  &lv->phat,
                          &lv->dUhat, &lv->rg,   &lv->Upt, &lv->dUstep, &lv->dU0, &lv->Hst,
                          &lv->Htm1,  &lv->Htm2, &lv->Md,  &lv->Aupd};
        for (size_t i = 0; !rc && i < sizeof vec / sizeof vec[0]; i++)
            if (!(*vec[i] = hs_dvec((size_t)lv->n))) rc = HS_ENOMEM;
        if (!rc && !(lv->M = hs_dvec(nn(lv)))) rc = HS_ENOMEM;
    }
    if (!rc) rc = hs_os_storage_init(st->ctx, lv->fe, lv->n, &lv->st);
    if (!rc) lv->rate = hs_fe_is_rate_dependent(lv->fe);
    for (int k = 0; k < m->nels; k++) lv->has_exp |= m->els[k].exp_site != 0;
    if (!rc) rc = alloc_values(lv);
    int moved = 0;
    if (!rc) rc = masses(lv, &moved);
    if (!rc) rc = stiffness_and_solver(lv);
    if (!rc) rc = build_groups(lv, st->script);
    if (!rc) hs_os_live_member_loads(lv, lv->time);
    lv->masses = mass_signature(m);
    if (rc) {
        hs_os_live_destroy(&lv);
        return rc;
    }
    *out = lv;
    return 0;
}

/* Restores the model (and every Rayleigh group) at d, v: r, Kt (unless !tangent), Ct and each
 * group's tangent. */
static int restore(hs_os_live *lv, const double *d, const double *v, int tangent)
{
    if (lv->Uref) { /* OpenSees' trusses after a coordinate update: from d - Uref */
        for (int i = 0; i < lv->n; i++) lv->Ushift[i] = d[i] - lv->Uref[i];
        d = lv->Ushift;
    }
    hs_fe_set_clock(lv->fe, lv->time, lv->dt);                /* OpenSees' domain time and ops_Dt */
    memcpy(lv->Aupd, lv->At, (size_t)lv->n * sizeof(double)); /* the nodes' trial accelerations */
    int rc =
        hs_os_storage_restore(&lv->st, NULL, lv->fe, d, v, lv->r, tangent ? lv->Kt : NULL, lv->Ct);
    for (int g = 0; !rc && g < lv->ngroups; g++)
        if (lv->gfe[g] != lv->fe) /* else Kgt is Kt */
            rc = hs_os_storage_restore(&lv->st, &lv->part[g], lv->gfe[g], d, v, lv->rg, lv->Kgt[g],
                                       NULL);
    return rc;
}

int hs_os_live_restore(hs_os_live *lv, const double *d, const double *v)
{
    return restore(lv, d, v, 1);
}

int hs_os_live_update(hs_os_live *lv, const double *d, const double *v)
{
    int tangent = !lv->st.sparse;         /* the full storage is written whole */
    for (int g = 0; g < lv->ngroups; g++) /* betaKcomm: the commit keeps the tangent */
        tangent |= lv->beta[g][2] != 0.0 || lv->gfe[g] != lv->fe;
    return restore(lv, d, v, tangent);
}
