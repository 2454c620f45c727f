/* The two-node link's state determination (forces, tangent, damping from its materials, a given
 * stiffness, its P-Delta, an experimental setup, signal filters or a specimen elsewhere), its
 * responses and commit; built by fe_link_build.c, whose head gives the kinematics. */
#include "fe_link_impl.h"

#include <float.h>
#include <math.h>
#include <string.h>

void fe_link_free(fe_element *e)
{
    if (!e->link) return;
    for (int k = 0; k < e->link->ndir; k++) hs_material_destroy(&e->link->mat[k]);
    hs_setup_destroy(&e->link->setup);
    hs_free(e->link);
    e->link = NULL;
}

int fe_link_given_k(const fe_element *e)
{
    int fixed = 0;
    for (int k = 0; e->link && k < e->link->ndir; k++) fixed |= e->link->kfix[k];
    return e->link && (e->link->has_k || fixed);
}

int fe_link_materials(const fe_element *e, hs_material **mats)
{
    for (int k = 0; k < e->link->ndir; k++) mats[k] = e->link->mat[k];
    return e->link->ndir;
}

int hs_fe_link_direction(const hs_fe *fe, int e, int k)
{
    const fe_element *el = &fe->els[e];
    return el->kind == FE_LINK && k >= 0 && k < el->link->ndir ? el->link->dir[k] : -1;
}

/* A filtered link's commands for its trial basic deformations ub, vb (hs_fe_link_def
 * ctrl_filter; EETwoNodeLink::update and ECSimUniaxialMaterials::setTrialResponse): new ones,
 * each direction's through the filters in turn, when ub moved by more than DBL_EPSILON since
 * the last trial state, else the last ones. 1 when the measurement is to be taken anew (a new
 * command, or none measured yet). */
static int link_command(fe_link *l, const double *ub, const double *vb)
{
    double moved = 0.0;
    for (int d = 0; d < l->ndir; d++) {
        const double m = fabs(ub[d] - l->ubt[d]);
        if (m > moved) moved = m;
    }
    memcpy(l->ubt, ub, (size_t)l->ndir * sizeof(double));
    if (!(moved > DBL_EPSILON)) return !l->measured;
    for (int d = 0; d < l->ndir; d++) {
        l->cmd[d] = hs_signal_filter_apply(&l->cf[HS_SF_DISP], l->da[d] * ub[d]);
        l->cmv[d] = hs_signal_filter_apply(&l->cf[HS_SF_VEL], l->dv[d] * vb[d]);
    }
    return 1;
}

/* Direction d's measured stress through the daq filters (taken anew when fresh, with its strain:
 * ECSimUniaxialMaterials::getDaqResponse, once per command as LocalExpSite's daqFlag). */
static double link_measure(fe_link *l, int d, int fresh)
{
    if (fresh) {
        l->daq_u[d] = hs_signal_filter_apply(&l->df[HS_SF_DISP], hs_material_strain(l->mat[d]));
        l->daq_q[d] = hs_signal_filter_apply(&l->df[HS_SF_FORCE], hs_material_stress(l->mat[d]));
        if (d == l->ndir - 1) l->measured = 1;
    }
    return l->daq_q[d];
}

/* Direction d's last measured strain (force 0) or stress (1) through the daq filters; before the
 * first measurement, the one at rest that OpenFresco's element makes at its first force query (a
 * record before the analysis), the filters' state untouched. */
static double link_daq(const fe_link *l, int d, int force)
{
    if (l->measured) return force ? l->daq_q[d] : l->daq_u[d];
    hs_signal_filter f = l->df[force ? HS_SF_FORCE : HS_SF_DISP];
    return hs_signal_filter_apply(&f, 0.0);
}

int fe_link_beam_moved(const hs_fe *fe, const fe_element *e, const double *u, double f[6],
                       double k[36])
{
    const fe_link *l = e->link;
    if (!l->beam) return 1;
    const fe_map *maps[FE_MAX_EDOF];
    double ug[6];
    fe_element_maps(fe, e, maps);
    for (int i = 0; i < 6; i++) ug[i] = fe_map_value(maps[i], u);
    fe_link_beam_at(e, l->beam_transf, l->kbB, l->qA, ug, f, k);
    return 0;
}

int hs_fe_link_command(const hs_fe *fe, int e, double *out)
{
    const fe_element *el = &fe->els[e];
    if (el->kind != FE_LINK || !el->link->filtered) return 0;
    memcpy(out, el->link->ubt, (size_t)el->link->ndir * sizeof(double));
    return 1;
}

/* A specimen elsewhere takes a new trial only when the element's basic deformations moved by more
 * than DBL_EPSILON since its last trial state, as OpenFresco's elements (EETwoNodeLink::update,
 * EEBeamColumn3d::update: dbDelta over the element's whole basic system, 6 for the 3-D
 * beam-column); else its last measured forces stay (a server that commits each trial it gets,
 * as OpenSees' adapter element, would otherwise see one more). Remembers ub (or db). */
static int spec_moved(fe_link *l, const double *ug, const double *ub)
{
    double db[FE_MAX_EDOF], moved = 0.0;
    const int n = l->beam3 ? 6 : l->ndir;
    for (int p = 0; p < n; p++) {
        db[p] = ub[p];
        if (l->beam3) {
            db[p] = 0.0;
            for (int i = 0; i < 12; i++) db[p] += l->b3.B[p][i] * ug[i];
        }
        const double m = fabs(db[p] - l->spec_db[p]);
        if (m > moved) moved = m;
    }
    memcpy(l->spec_db, db, (size_t)n * sizeof(double));
    return moved > DBL_EPSILON;
}

int fe_link_state(hs_fe *fe, fe_element *e, const fe_map *const maps[], const double *u,
                  const double *v, int initial, double *f, double *k, double *c)
{
    fe_link *l = e->link;
    const int nd = l->nd, n = l->ndir;
    double ug[FE_MAX_EDOF], vg[FE_MAX_EDOF], q[FE_MAX_MATS], ub[FE_MAX_MATS], vb[FE_MAX_MATS];
    double kb[FE_MAX_MATS * FE_MAX_MATS] = {0}, cb[FE_MAX_MATS * FE_MAX_MATS] = {0};
    for (int i = 0; i < nd; i++) {
        ug[i] = initial ? 0.0 : fe_map_value(maps[i], u);
        vg[i] = (!initial && v) ? fe_map_value(maps[i], v) : 0.0;
    }
    if (l->beam) {
        double fb6[6];
        const int rc =
            fe_link_beam_state(fe->ctx, e->name, e, l->beam_transf, l->kbB, l->mat, l->dir, l->da,
                               l->dv, l->fb, n, ug, vg, initial, l->has_spec ? &l->spec : NULL,
                               l->spec_db, l->qs, fe->clock_t, fb6, k, ub, q, l->qA, l->b9);
        if (rc) return rc;
        if (!initial) memcpy(l->ub, ub, sizeof ub), memcpy(l->qs, q, sizeof q);
        if (!initial) memcpy(l->fg, fb6, sizeof fb6);
        if (f && !initial) memcpy(f, fb6, sizeof fb6);
        if (c) memset(c, 0, (size_t)nd * (size_t)nd * sizeof(double));
        return 0;
    }
    for (int d = 0; d < n; d++) {
        const double *b = &l->B[d * nd];
        ub[d] = vb[d] = 0.0;
        for (int i = 0; i < nd; i++) {
            ub[d] += b[i] * ug[i];
            vb[d] += b[i] * vg[i];
        }
    }
    if (!initial) memcpy(l->vbt, vb, (size_t)n * sizeof(double));     /* hs_fe_link_rates */
    if (l->beam3 && l->b3.transf == HS_FE_COROTATIONAL && !initial) { /* B from the corotated A */
        double db[6];
        fe_beam3_deformation(&l->b3, e, ug, db);
        for (int p = 0; p < 6; p++)
            if (l->b3.link[p] >= 0) ub[l->b3.link[p]] = db[p];
    }
    if (l->has_spec) { /* the specimen's forces; the tangent is the given stiffness (below) */
        for (int d = 0; d < n; d++) q[d] = 0.0;
        if (!initial && !spec_moved(l, ug, ub)) {
            memcpy(q, l->qs, (size_t)n * sizeof(double)); /* the last measured, not sent again */
        } else if (!initial) {
            const int rc = l->spec.trial(l->spec.user, l->spec.id, n, ub, vb, fe->clock_t, q);
            if (rc) return rc;
            memcpy(l->ub, ub, sizeof ub), memcpy(l->qs, q, sizeof q);
        }
    }
    if (l->setup) { /* kb, cb: n x n through the setup's actuators */
        const int rc = fe_link_setup_state(fe->ctx, e->name, l->setup, l->mat, l->da, l->dv, l->fb,
                                           ub, vb, initial, q, kb, cb);
        if (rc) return rc;
        if (!initial) memcpy(l->ub, ub, sizeof ub), memcpy(l->qs, q, sizeof q);
    }
    const int fresh = l->filtered && !initial && !l->setup ? link_command(l, ub, vb) : 0;
    for (int d = 0; d < n && !l->setup && !l->has_spec; d++) { /* kb, cb: a material each */
        if (initial) {
            q[d] = 0.0;
            kb[d * n + d] = l->kfix[d]
                                ? l->kval[d]
                                : l->da[d] * l->fb[d] * hs_material_initial_tangent(l->mat[d]);
            continue;
        }
        const int rc = l->filtered
                           ? hs_material_set_trial(l->mat[d], l->cmd[d], l->cmv[d])
                           : hs_material_set_trial(l->mat[d], l->da[d] * ub[d], l->dv[d] * vb[d]);
        if (rc)
            return hs_fail(fe->ctx, rc, "element '%s': direction %d: %s", e->name, d + 1,
                           hs_ctx_message(fe->ctx));
        q[d] = l->fb[d] * hs_material_stress(l->mat[d]);
        if (l->filtered) q[d] = l->fb[d] * link_measure(l, d, fresh);
        kb[d * n + d] =
            l->kfix[d] ? l->kval[d] : l->da[d] * l->fb[d] * hs_material_tangent(l->mat[d]);
        cb[d * n + d] = l->dv[d] * l->fb[d] * hs_material_rate_tangent(l->mat[d]);
    }
    /* P-Delta: N and the deltas of this state (none in the initial one, where N = 0) */
    const double N = (!initial && l->ax >= 0) ? q[l->ax] : 0.0,
                 kN = l->ax >= 0 ? kb[l->ax * n + l->ax] : 0.0;
    double dl[2] = {0.0, 0.0};
    for (int a = 0; a < 2 && !initial; a++)
        for (int i = 0; l->pd[a] && i < nd; i++) dl[a] += l->h[a][i] * ug[i];
    double rot = 0.0; /* a bearing's rotation term rho */
    for (int i = 0; l->bearing && !initial && i < nd; i++) rot += l->hr[i] * ug[i];
    if (!initial) memcpy(l->dl, dl, sizeof dl), l->drot = rot;
    if (f && !initial)
        for (int i = 0; i < nd; i++) {
            double s = 0.0;
            for (int d = 0; d < n; d++) s += l->B[d * nd + i] * q[d];
            f[i] = s + N * (dl[0] * l->g[0][i] + dl[1] * l->g[1][i] + l->rot_c * rot * l->gr[i]);
        }
    if (l->beam3 && !initial) fe_beam3_force(&l->b3, e, ug, vg, q, f); /* qb, elastic N, T */
    for (int j = 0; j < nd; j++)
        for (int i = 0; i < nd; i++) {
            double sk = 0.0, sc = 0.0; /* B^T kb B, B^T cb B */
            for (int b = 0; b < n; b++)
                for (int a = l->setup ? 0 : b; a < (l->setup ? n : b + 1); a++) {
                    const double bb = l->B[a * nd + i] * l->B[b * nd + j];
                    sk += kb[b * n + a] * bb;
                    sc += cb[b * n + a] * bb;
                }
            if (l->has_k && (initial || l->k_tangent)) sk = l->K[j * nd + i];
            /* an OpenFresco element's damping matrix is its Rayleigh damping alone
             * (EETwoNodeLink::getDamp, EETruss::getDamp): its specimen's rate tangent is not in
             * the tangent that -initStif replaces */
            if (l->has_k && l->k_tangent) sc = 0.0;
            /* d(N delta_a g_a) / du: N g_a h_a^T + delta_a g_a k_N B_axial^T (a bearing: at
             * fixed N, with its rotations' term N rot_c g_r h_r^T) */
            for (int a = 0; a < 2 && !initial; a++)
                if (l->pd[a])
                    sk += l->g[a][i] *
                          (N * l->h[a][j] + (l->bearing ? 0.0 : dl[a] * kN * l->B[l->ax * nd + j]));
            if (l->bearing && !initial) sk += N * l->rot_c * l->gr[i] * l->hr[j];
            if (k) k[(size_t)j * (size_t)nd + (size_t)i] = sk;
            if (c) c[(size_t)j * (size_t)nd + (size_t)i] = sc;
        }
    /* the 3-D beam-column's transformation: its geometric stiffness with qA (EEBeamColumn3d::
     * getTangentStiff, "InitialStiff including GeometricStiff") */
    if (l->beam3 && k && !initial && l->has_k && l->k_tangent) fe_beam3_tangent(&l->b3, e, ug, k);
    return 0;
}

int fe_link_response(const fe_element *e, hs_fe_response r, double *out)
{
    const fe_link *l = e->link;
    double q[FE_MAX_MATS];
    for (int d = 0; d < l->ndir; d++) /* the committed state: the materials' current values */
        q[d] = (l->setup || l->beam || l->has_spec)
                   ? (r == HS_FE_DEFORMATION ? l->ub[d] : l->qs[d]) /* the last trial */
               : l->filtered            ? (r == HS_FE_DEFORMATION ? link_daq(l, d, 0) / l->da[d]
                                                                  : l->fb[d] * link_daq(l, d, 1))
               : r == HS_FE_DEFORMATION ? hs_material_strain(l->mat[d]) / l->da[d]
                                        : l->fb[d] * hs_material_stress(l->mat[d]);
    if (r == HS_FE_BASIC_FORCE || r == HS_FE_DEFORMATION) {
        memcpy(out, q, (size_t)l->ndir * sizeof(double));
        return 0;
    }
    if (r != HS_FE_GLOBAL_FORCE && r != HS_FE_LOCAL_FORCE) return HS_EINVAL;
    if (l->beam3) { /* its last trial force, global or local */
        if (r == HS_FE_GLOBAL_FORCE)
            memcpy(out, l->b3.fg, sizeof l->b3.fg);
        else
            fe_beam3_local_force(&l->b3, out);
        return 0;
    }
    if (l->beam) { /* its last trial force, global or in the chord's axes at rest */
        if (r == HS_FE_GLOBAL_FORCE)
            memcpy(out, l->fg, sizeof l->fg);
        else
            fe2d_to_local(e, l->fg, out);
        return 0;
    }
    const double *M = r == HS_FE_GLOBAL_FORCE ? l->B : l->T;
    const double N = l->ax >= 0 ? q[l->ax] : 0.0;
    for (int i = 0; i < l->nd; i++) { /* f = B^T q, local T_lb^T q; P-Delta at the last state */
        double s = 0.0;
        for (int d = 0; d < l->ndir; d++) s += M[d * l->nd + i] * q[d];
        for (int a = 0; a < 2; a++)
            if (l->pd[a]) s += N * l->dl[a] * (r == HS_FE_GLOBAL_FORCE ? l->g[a][i] : l->w[a][i]);
        out[i] = s + N * l->rot_c * l->drot * l->gr[i]; /* rotations: the same in both frames */
    }
    return 0;
}

int hs_fe_exp_beam_basic(const hs_fe *fe, int e, double b[9], int driven[3])
{
    if (e < 0 || e >= fe->nels || fe->els[e].kind != FE_LINK || !fe->els[e].link->beam)
        return HS_EINVAL;
    const fe_link *l = fe->els[e].link;
    memcpy(b, l->b9, sizeof l->b9);
    driven[0] = driven[1] = driven[2] = 0;
    for (int d = 0; d < l->ndir; d++)
        driven[l->dir[d] == HS_FE_UX ? 0 : l->dir[d] == HS_FE_UY ? 1 : 2] = 1;
    return 0;
}

int hs_fe_exp_beam3_basic(const hs_fe *fe, int e, double b[18], int driven[6])
{
    if (e < 0 || e >= fe->nels || fe->els[e].kind != FE_LINK || !fe->els[e].link->beam3)
        return HS_EINVAL;
    const fe_link *l = fe->els[e].link;
    memcpy(b, l->b3.b18, sizeof l->b3.b18);
    for (int p = 0; p < 6; p++) driven[p] = l->b3.link[p] >= 0;
    return 0;
}

int hs_fe_link_set_specimen(hs_fe *fe, int e, const hs_fe_specimen *s)
{
    fe_link *l = e >= 0 && e < fe->nels ? fe->els[e].link : NULL;
    if (!l || fe->els[e].kind != FE_LINK)
        return hs_fail(fe->ctx, HS_EINVAL, "element %d is not a two-node link", e);
    if (l->setup || (!l->has_k && !l->beam) || !s || !s->trial ||
        (l->beam3 && l->b3.transf == HS_FE_COROTATIONAL))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': a specimen elsewhere needs a link with its given "
                       "stiffness, not through a setup nor a 3-D corotational beam-column",
                       fe->els[e].name);
    l->has_spec = 1;
    l->spec = *s;
    l->k_tangent = 1; /* its only stiffness */
    return 0;
}

int fe_link_commit(fe_element *e)
{
    const fe_link *l = e->link;
    return l && l->has_spec && l->spec.commit ? l->spec.commit(l->spec.user, l->spec.id) : 0;
}

int hs_fe_link_rates(const hs_fe *fe, int e, const double *a, double *vb, double *ab, double *rate)
{
    if (e < 0 || e >= fe->nels || fe->els[e].kind != FE_LINK) return HS_EINVAL;
    const fe_element *el = &fe->els[e];
    const fe_link *l = el->link;
    if (l->beam3 || l->setup || l->has_spec) return HS_EINVAL;
    const fe_map *maps[FE_MAX_EDOF];
    fe_element_maps(fe, el, maps);
    double ag[FE_MAX_EDOF]; /* the element's accelerations: its maps' terms over the dynamic DOFs */
    for (int i = 0; i < l->nd; i++) {
        ag[i] = 0.0;
        for (int t = 0; t < maps[i]->n; t++) {
            const int q = maps[i]->eq[t];
            if (q < fe->neq && fe->eq_dyn[q] >= 0) ag[i] += maps[i]->c[t] * a[fe->eq_dyn[q]];
        }
    }
    if (l->beam) { /* over B: the last update's nodes (the last restore's u, v) */
        double ug[6], vg[6];
        for (int i = 0; i < 6; i++)
            ug[i] = fe_map_value(maps[i], fe->u), vg[i] = fe_map_value(maps[i], fe->v);
        fe_link_beam_accel(el, l->beam_transf, ug, vg, ag, ab);
        for (int b = 0; b < 3; b++) vb[b] = l->b9[3 + b], rate[b] = 0.0;
        for (int m = 0; m < l->ndir; m++) {
            const int b = l->dir[m] == HS_FE_UX ? 0 : l->dir[m] == HS_FE_UY ? 1 : 2;
            rate[b] = hs_material_strain_rate(l->mat[m]) / l->dv[m];
        }
        return 3;
    }
    for (int d = 0; d < l->ndir; d++) {
        vb[d] = l->vbt[d];
        ab[d] = 0.0;
        for (int i = 0; i < l->nd; i++) ab[d] += l->B[d * l->nd + i] * ag[i];
        rate[d] = hs_material_strain_rate(l->mat[d]) / l->dv[d];
    }
    return l->ndir;
}
