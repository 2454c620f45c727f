/* Dense assembly of the retained equations and the static condensation of the massless DOFs
 * (a frame without massless DOFs also has the sparse assembly of fe_sparse.c; docs/fe_model.md,
 * "Large frames", says why the condensation stays dense): r_0(d, d_0) = 0 is solved by Newton at
 * every restore, the integrator sees the forces r_m(d, d_0(d)) and the tangent Kmm - Km0 K00^-1
 * K0m. A frame without condensed DOFs whose band is narrow assembles straight into the caller's
 * packed band (hs_fe_restore_band). */
#include "fe_impl.h"

#include <math.h>
#include <string.h>

#define FE_MAX_ITER 50
#define FE_TOL      1e-12

/* Where an assembly writes its tangents: dense q x q (kd < 0: K_eq, C_eq) or, for a frame without
 * condensed DOFs (equation = dynamic DOF), the caller's packed band of half-bandwidth kd. */
typedef struct fe_target {
    double *K, *C; /* C NULL: no damping tangent */
    int q, kd;
} fe_target;

static inline size_t target_at(const fe_target *t, int qi, int qj)
{
    return t->kd < 0 ? (size_t)qj * (size_t)t->q + (size_t)qi
                     : (size_t)qj * HS_BAND_LD(t->kd) + (size_t)(t->kd + qi - qj);
}

static inline void target_add(const fe_target *t, int qi, int qj, double k, double c)
{
    const size_t at = target_at(t, qi, qj);
    t->K[at] += k;
    if (t->C) t->C[at] += c;
}

/* A zero-length element whose ends are each one DOF of its own, fixed or a moving support
 * (zl_plain > 0, zl_at): looked at once, as the ends' maps are fixed from hs_fe_finalize on. */
static int zl_is_plain(hs_fe *fe, fe_element *e)
{
    if (!e->zl_plain) {
        e->zl_plain = 1;
        for (int b = 0; b < 2; b++) {
            const fe_map *mb = &fe->nodes[b ? e->nj : e->ni].map[e->dir];
            if (mb->n == 1 && mb->c[0] == 1.0)
                e->zl_at[b] = mb->eq[0];
            else if (mb->n == 0)
                e->zl_at[b] = -1;
            else
                e->zl_plain = -1;
        }
    }
    return e->zl_plain > 0;
}

/* A plain zero-length element's force s and tangents at fe->u, fe->v, its ends a, b. */
static inline int zl_plain_state(hs_fe *fe, fe_element *e, int a, int b, int initial, double *s,
                                 double *kt, double *ct)
{
    const double *u = fe->u, *v = fe->v;
    const double du = (b >= 0 ? u[b] : 0.0) - (a >= 0 ? u[a] : 0.0);
    const double dv = v ? (b >= 0 ? v[b] : 0.0) - (a >= 0 ? v[a] : 0.0) : 0.0;
    return fe_zero_length_material(fe, e, du, dv, v != NULL, initial, s, kt, ct);
}

/* Its share of r_eq and of K, C (C NULL: none) at the entries at[] = (a, a), (b, b), (a, b),
 * (b, a); ia, ib: the end is an equation. */
static inline void zl_plain_add(hs_fe *fe, double *K, double *C, const size_t at[4], int a, int b,
                                int ia, int ib, double s, double kt, double ct)
{
    if (ia) {
        fe->r_eq[a] -= s;
        K[at[0]] += kt;
        if (C) C[at[0]] += ct;
    }
    if (ib) {
        fe->r_eq[b] += s;
        K[at[1]] += kt;
        if (C) C[at[1]] += ct;
    }
    if (ia && ib) {
        K[at[2]] += -kt;
        if (C) C[at[2]] += -ct;
        K[at[3]] += -kt;
        if (C) C[at[3]] += -ct;
    }
}

/* A zero-length element's share of r_eq and the tangents: its one direction's two DOFs (what the
 * general assembly below gives from its 2 ndf x 2 ndf matrix, without the zeros). */
static int zero_length(hs_fe *fe, fe_element *e, int initial, const fe_target *t)
{
    const int q = fe->neq;
    double s, kt, ct;
    if (zl_is_plain(fe, e)) { /* each end one DOF of its own, fixed, or a moving support */
        const int a = e->zl_at[0], b = e->zl_at[1];
        int rc = zl_plain_state(fe, e, a, b, initial, &s, &kt, &ct);
        if (rc) return rc;
        const int ia = a >= 0 && a < q, ib = b >= 0 && b < q;
        const size_t at[4] = {ia ? target_at(t, a, a) : 0, ib ? target_at(t, b, b) : 0,
                              ia && ib ? target_at(t, a, b) : 0, ia && ib ? target_at(t, b, a) : 0};
        zl_plain_add(fe, t->K, t->C, at, a, b, ia, ib, s, kt, ct);
        return 0;
    }
    const fe_map *m[2] = {&fe->nodes[e->ni].map[e->dir], &fe->nodes[e->nj].map[e->dir]};
    int rc = fe_zero_length_state(fe, e, m[0], m[1], fe->u, fe->v, initial, &s, &kt, &ct);
    if (rc) return rc;
    /* the two ends' equation terms (a fixed end has none), then T^T [-1 1]' s and its tangents */
    int eq[2 * FE_MAX_TERMS], nt = 0;
    double c[2 * FE_MAX_TERMS];
    for (int b = 0; b < 2; b++)
        for (int ti = 0; ti < m[b]->n; ti++)
            if (m[b]->eq[ti] < q) {
                eq[nt] = m[b]->eq[ti];
                c[nt++] = b ? m[b]->c[ti] : -m[b]->c[ti];
            }
    for (int j = 0; j < nt; j++) {
        fe->r_eq[eq[j]] += c[j] * s;
        for (int i = 0; i < nt; i++)
            target_add(t, eq[i], eq[j], c[i] * c[j] * kt, c[i] * c[j] * ct);
    }
    return 0;
}

/* A frame of plain zero-length elements only whose ends are equations or fixed (a shear building
 * read from OpenSees' Tcl: zeroLength stories between nodes): 1 with each element's band entries
 * for kd in zl_slot, else 0 (fe->zl_band says which, for hs_fe_restore_band). */
static int zl_band_slots(hs_fe *fe, int kd)
{
    if (fe->zl_band == kd + 1) return 1;
    if (fe->zl_band < 0) return 0;
    const int q = fe->neq;
    const fe_target t = {NULL, NULL, q, kd};
    fe->zl_band = -1;
    for (int k = 0; k < fe->nels; k++) {
        fe_element *e = &fe->els[k];
        if (e->kind != FE_ZERO_LENGTH || !zl_is_plain(fe, e) || e->zl_at[0] >= q ||
            e->zl_at[1] >= q)
            return 0;
    }
    for (int k = 0; k < fe->nels; k++) {
        fe_element *e = &fe->els[k];
        const int a = e->zl_at[0], b = e->zl_at[1];
        e->zl_slot[0] = a >= 0 ? target_at(&t, a, a) : 0;
        e->zl_slot[1] = b >= 0 ? target_at(&t, b, b) : 0;
        e->zl_slot[2] = a >= 0 && b >= 0 ? target_at(&t, a, b) : 0;
        e->zl_slot[3] = a >= 0 && b >= 0 ? target_at(&t, b, a) : 0;
    }
    fe->zl_band = kd + 1;
    return 1;
}

/* assemble_into for such a frame into its band (zl_band_slots): the same sums in the same order,
 * without the per-element lookups. */
static int zero_length_band(hs_fe *fe, const fe_target *t)
{
    memset(fe->r_eq, 0, (size_t)fe->neq * sizeof(double));
    for (int k = 0; k < fe->nels; k++) {
        fe_element *e = &fe->els[k];
        const int a = e->zl_at[0], b = e->zl_at[1];
        double s, kt, ct;
        const int rc = zl_plain_state(fe, e, a, b, 0, &s, &kt, &ct);
        if (rc) return rc;
        zl_plain_add(fe, t->K, t->C, e->zl_slot, a, b, a >= 0, b >= 0, s, kt, ct);
    }
    return 0;
}

/* r_eq and the tangents at fe->u, fe->v into t (zeroed by the caller); initial: the initial
 * tangent only. */
static int assemble_into(hs_fe *fe, int initial, const fe_target *t)
{
    const int q = fe->neq;
    memset(fe->r_eq, 0, (size_t)q * sizeof(double));
    for (int k = 0; k < fe->nels; k++) {
        fe_element *e = &fe->els[k];
        if (e->kind == FE_ZERO_LENGTH) {
            int rc = zero_length(fe, e, initial, t);
            if (rc) return rc;
            continue;
        }
        const fe_map *maps[FE_MAX_EDOF];
        const int nd = fe_element_maps(fe, e, maps);
        double f[FE_MAX_EDOF] = {0}, ke[FE_MAX_EDOF * FE_MAX_EDOF], ce[FE_MAX_EDOF * FE_MAX_EDOF];
        int rc = fe_element_state(fe, e, maps, fe->u, fe->v, initial, f, ke, t->C ? ce : NULL);
        if (rc) return rc;
        /* every DOF its own equation or none (no constraint terms): the same sums, direct */
        int eq[FE_MAX_EDOF], plain = 1;
        for (int j = 0; j < nd && plain; j++) {
            plain = maps[j]->n == 0 || (maps[j]->n == 1 && maps[j]->c[0] == 1.0);
            eq[j] = maps[j]->n == 1 && maps[j]->eq[0] < q ? maps[j]->eq[0] : -1;
        }
        if (plain) {
            for (int j = 0; j < nd; j++) {
                if (eq[j] < 0) continue;
                fe->r_eq[eq[j]] += f[j];
                for (int i = 0; i < nd; i++)
                    if (eq[i] >= 0)
                        target_add(t, eq[i], eq[j], ke[(size_t)j * (size_t)nd + (size_t)i],
                                   t->C ? ce[(size_t)j * (size_t)nd + (size_t)i] : 0.0);
            }
            continue;
        }
        /* T^T f and T^T k T, one term of each DOF's map at a time; terms >= q are moving
         * supports (fe_support.c): prescribed, no equation of their own */
        for (int j = 0; j < nd; j++)
            for (int tj = 0; tj < maps[j]->n; tj++) {
                const int qj = maps[j]->eq[tj];
                const double cj = maps[j]->c[tj];
                if (qj >= q) continue;
                fe->r_eq[qj] += cj * f[j];
                for (int i = 0; i < nd; i++)
                    for (int ti = 0; ti < maps[i]->n; ti++) {
                        const int qi = maps[i]->eq[ti];
                        if (qi >= q) continue;
                        const double cij = maps[i]->c[ti] * cj;
                        const size_t ij = (size_t)j * (size_t)nd + (size_t)i;
                        target_add(t, qi, qj, cij * ke[ij], t->C ? cij * ce[ij] : 0.0);
                    }
            }
    }
    return 0;
}

/* r_eq, K_eq (and C_eq when want_c), dense. */
static int assemble(hs_fe *fe, int initial, int want_c)
{
    fe->moved = 0; /* a restore: the elements are at the nodes again */
    const int q = fe->neq;
    const size_t qq = (size_t)q * (size_t)q;
    if (!fe->K_eq) { /* at the first dense use (setup): the sparse path never needs them */
        fe->K_eq = hs_dvec(qq);
        fe->C_eq = hs_dvec(qq);
        if (!fe->K_eq || !fe->C_eq)
            return hs_fail(fe->ctx, HS_ENOMEM,
                           "frame model: out of memory for the dense %d x %d stiffness", q, q);
    }
    fe->tan_at = fe->tan_due = 0;
    memset(fe->K_eq, 0, qq * sizeof(double));
    if (want_c) memset(fe->C_eq, 0, qq * sizeof(double));
    const fe_target t = {fe->K_eq, want_c ? fe->C_eq : NULL, q, -1};
    return assemble_into(fe, initial, &t);
}

/* Factors K00 of the last assembly; a singular K00 names a DOF without stiffness. */
static int factor_k00(hs_fe *fe)
{
    const int q = fe->neq, n0 = fe->n0;
    for (int b = 0; b < n0; b++)
        for (int a = 0; a < n0; a++)
            HS_AT(fe->K00, n0, a, b) = HS_AT(fe->K_eq, q, fe->cond_eq[a], fe->cond_eq[b]);
    for (int a = 0; a < n0; a++)
        if (HS_AT(fe->K00, n0, a, a) == 0.0) {
            char name[48];
            return hs_fail(fe->ctx, HS_EINPUT,
                           "frame model: %s has neither mass nor stiffness; fix it, give it a "
                           "mass or connect an element to it",
                           fe_eq_name(fe, fe->cond_eq[a], name, sizeof name));
        }
    const int rc = hs_linsolver_factor(fe->s0, fe->K00);
    if (rc)
        return hs_fail(fe->ctx, rc,
                       "frame model: the massless DOFs form a mechanism (singular K00); fix or "
                       "restrain them");
    return 0;
}

/* Adds the Schur complement Kmm - Km0 K00^-1 K0m of fe->K_eq (K00 factored) to K (n x n):
 * X = K00^-1 K0m in one solve of its n right sides. */
static int add_condensed(hs_fe *fe, double *K)
{
    const int q = fe->neq, n = fe->n, n0 = fe->n0;
    for (int j = 0; j < n; j++)
        for (int a = 0; a < n0; a++)
            fe->X[(size_t)j * (size_t)n0 + (size_t)a] =
                HS_AT(fe->K_eq, q, fe->cond_eq[a], fe->dyn_eq[j]);
    if (n0) {
        const int rc = hs_linsolver_solve_n(fe->s0, n, fe->X);
        if (rc) return rc;
    }
    for (int j = 0; j < n; j++) {
        const double *x = &fe->X[(size_t)j * (size_t)n0];
        for (int i = 0; i < n; i++) {
            double s = HS_AT(fe->K_eq, q, fe->dyn_eq[i], fe->dyn_eq[j]);
            for (int a = 0; a < n0; a++)
                s -= HS_AT(fe->K_eq, q, fe->dyn_eq[i], fe->cond_eq[a]) * x[a];
            HS_AT(K, n, i, j) += s;
        }
    }
    return 0;
}

int hs_fe_initial_stiffness(hs_fe *fe, double *K)
{
    if (!fe->finalized) return hs_fail(fe->ctx, HS_EINVAL, "frame model: not finalized");
    int rc = assemble(fe, 1, 0);
    if (!rc && fe->n0) rc = factor_k00(fe);
    if (!rc) rc = add_condensed(fe, K);
    return rc;
}

/* Newton on the condensed DOFs; leaves the assembly and K00's factor at the solution. It starts
 * from the last restore's solution within the step (fe->warm; the committed state after a commit,
 * a revert, a state load or a failed restore): the trial displacements of a step differ little,
 * so one or two corrections do. Converged when the next correction is below FE_TOL times the
 * largest of the displacements and the longest element (the corotational geometry is known to
 * eps times its size, not better); that last correction is not applied, so the assembly and the
 * factor at hand are the solution's (no assembly more). */
static int solve_condensed(hs_fe *fe, int want_c)
{
    const int n0 = fe->n0, linear = hs_fe_is_linear(fe);
    if (!fe->warm)
        for (int a = 0; a < n0; a++) fe->u[fe->cond_eq[a]] = fe->u_commit[fe->cond_eq[a]];
    fe->warm = 0;
    for (int it = 0;; it++) {
        int rc = assemble(fe, 0, want_c);
        if (rc || n0 == 0) return rc;
        if (it > 0 && linear) return 0;
        double du = 0.0, un = 0.0;
        rc = factor_k00(fe);
        if (rc) return rc;
        for (int a = 0; a < n0; a++) fe->b[a] = -fe->r_eq[fe->cond_eq[a]];
        rc = hs_linsolver_solve(fe->s0, fe->b);
        if (rc) return rc;
        for (int a = 0; a < n0; a++) du = fmax(du, fabs(fe->b[a]));
        for (int q = 0; q < fe->neq; q++) un = fmax(un, fabs(fe->u[q]));
        if (!linear && du <= FE_TOL * fmax(un, fe->lref)) {
            fe->warm = fe->tan_at = 1;
            return 0;
        }
        for (int a = 0; a < n0; a++) fe->u[fe->cond_eq[a]] += fe->b[a];
        if (it == FE_MAX_ITER)
            return hs_fail(fe->ctx, HS_ECONVERGE,
                           "frame model: the condensed (massless) DOFs did not reach equilibrium "
                           "in %d iterations (last correction %g, displacement %g); give the "
                           "rotations a small mass to keep them dynamic",
                           FE_MAX_ITER, du, un);
    }
}

/* The condensed DOFs' first-order move for the dynamic DOFs' move from u to d: with K_eq and K00's
 * factor the assembly at u (a nonlinear frame's last restore, fe->tan_at), u_0 += -K00^-1 K0m
 * (d - u_m). A restore late in a Newton step then starts within round-off of its solution and
 * converges at its first assembly instead of its second (docs/fe_model.md, "Condensation"). */
static int predict_condensed(hs_fe *fe, const double *d)
{
    const int q = fe->neq, n = fe->n, n0 = fe->n0;
    if (fe->tan_due && !hs_fe_is_linear(fe)) { /* a resumed run: the tangent an uninterrupted
                                                * one has after its commit, at the same state */
        int rc = assemble(fe, 0, 0);
        if (!rc) rc = factor_k00(fe);
        if (rc) return rc;
        fe->tan_at = 1;
    }
    fe->tan_due = 0;
    if (!fe->tan_at || n0 == 0) return 0;
    for (int a = 0; a < n0; a++) {
        double s = 0.0;
        for (int j = 0; j < n; j++)
            s -= HS_AT(fe->K_eq, q, fe->cond_eq[a], fe->dyn_eq[j]) * (d[j] - fe->u[fe->dyn_eq[j]]);
        fe->b[a] = s;
    }
    const int rc = hs_linsolver_solve(fe->s0, fe->b);
    if (rc) return rc;
    for (int a = 0; a < n0; a++) fe->u[fe->cond_eq[a]] += fe->b[a];
    fe->warm = 1;
    return 0;
}

/* The restore of hs_fe_restore and hs_fe_restore_band: the tangents dense (kd < 0) or in packed
 * band storage of half-bandwidth kd (no condensed DOFs: the Schur complement would fill the band)
 */
static int restore(hs_fe *fe, const double *d, const double *v, double *r, double *Kt, double *Ct)
{
    if (!fe->finalized) return hs_fail(fe->ctx, HS_EINVAL, "frame model: not finalized");
    const int q = fe->neq, n = fe->n;
    int rc = predict_condensed(fe, d);
    if (rc) return rc;
    memset(fe->v, 0, (size_t)q * sizeof(double));
    for (int i = 0; i < n; i++) {
        fe->u[fe->dyn_eq[i]] = d[i];
        if (v) fe->v[fe->dyn_eq[i]] = v[i];
    }
    rc = solve_condensed(fe, Ct != NULL);
    if (rc) return rc;
    for (int i = 0; i < n; i++) r[i] += fe->r_eq[fe->dyn_eq[i]];
    if (Kt) rc = add_condensed(fe, Kt);
    if (!rc && Ct) /* condensed DOFs carry no velocity: the dynamic block of C */
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                HS_AT(Ct, n, i, j) += HS_AT(fe->C_eq, q, fe->dyn_eq[i], fe->dyn_eq[j]);
    return rc;
}

int hs_fe_restore(hs_fe *fe, const double *d, const double *v, double *r, double *Kt, double *Ct)
{
    return restore(fe, d, v, r, Kt, Ct);
}

int hs_fe_restore_band(hs_fe *fe, const double *d, const double *v, double *r, double *Kt,
                       double *Ct, int kd)
{
    if (!fe->finalized || fe->n0 || kd < 0 || !Kt)
        return hs_fail(fe->ctx, HS_EINVAL,
                       "frame model: band tangents need a finalized frame without condensed DOFs "
                       "(%d), kd >= 0 (%d) and Kt",
                       fe->n0, kd);
    const int n = fe->n; /* no condensed DOF: equation i is dynamic DOF i (hs_fe_tangent_band) */
    memcpy(fe->u, d, (size_t)n * sizeof(double));
    if (v)
        memcpy(fe->v, v, (size_t)n * sizeof(double));
    else
        memset(fe->v, 0, (size_t)n * sizeof(double));
    const fe_target t = {Kt, Ct, n, kd};
    int rc = zl_band_slots(fe, kd) ? zero_length_band(fe, &t) : assemble_into(fe, 0, &t);
    for (int i = 0; !rc && i < n; i++) r[i] += fe->r_eq[i];
    return rc;
}

int hs_fe_tangent_band(hs_fe *fe)
{
    const hs_csc *P = NULL;
    if (!fe->finalized || fe->n0 || fe->neq != fe->n || hs_fe_sparse_pattern(fe, &P)) return -1;
    for (int i = 0; i < fe->n; i++)
        if (fe->dyn_eq[i] != i) return -1;
    int kd = 0;
    for (int j = 0; j < P->ncols; j++)
        for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++) {
            const int dist = P->rowind[k] > j ? P->rowind[k] - j : j - P->rowind[k];
            if (dist > kd) kd = dist;
        }
    return kd;
}

int hs_fe_commit(hs_fe *fe)
{
    const int nels = fe->var_els ? fe->nvar : fe->nels; /* sparse path: the others are elastic */
    for (int v = 0; v < nels; v++) {
        const int k = fe->var_els ? fe->var_els[v] : v;
        if (fe->els[k].bc) {
            const int rc = fe_bc_element_commit(&fe->els[k]);
            if (rc) return rc;
        }
        if (fe->els[k].sec) {
            const int rc = fe_zls_commit(&fe->els[k]);
            if (rc) return rc;
        }
        hs_material *mats[FE_MAX_MATS];
        for (int j = 0, nm = fe_element_materials(&fe->els[k], mats); j < nm; j++) {
            int rc = hs_material_commit(mats[j]);
            if (rc) return rc;
        }
        if (fe->els[k].kind == FE_COUPLED_ZERO_LENGTH) fe_czl_commit(&fe->els[k]);
        if (fe->els[k].kind == FE_TFP_X) fe_tfpx_commit(&fe->els[k]);
        if (fe->els[k].kind == FE_LINK) {
            const int rc = fe_link_commit(&fe->els[k]); /* a specimen elsewhere */
            if (rc) return rc;
        }
    }
    memcpy(fe->u_commit, fe->u, (size_t)fe->neq * sizeof(double));
    fe->moved = 0;
    fe->warm = 0; /* K_eq and K00's factor stay those at u, the committed state (tan_at) */
    for (int i = 0; i < fe->n; i++) fe->r_commit[i] = fe->r_eq[fe->dyn_eq[i]];
    return 0;
}

const double *hs_fe_committed_force(const hs_fe *fe)
{
    return fe->r_commit;
}

int hs_fe_revert(hs_fe *fe)
{
    for (int k = 0; k < fe->nels; k++) {
        if (fe->els[k].bc) {
            const int rc = fe_bc_element_revert(&fe->els[k]);
            if (rc) return rc;
        }
        if (fe->els[k].sec) {
            const int rc = fe_zls_revert(&fe->els[k]);
            if (rc) return rc;
        }
        hs_material *mats[FE_MAX_MATS];
        for (int j = 0, nm = fe_element_materials(&fe->els[k], mats); j < nm; j++) {
            int rc = hs_material_revert(mats[j]);
            if (rc) return rc;
        }
    }
    memcpy(fe->u, fe->u_commit, (size_t)fe->neq * sizeof(double));
    fe->warm = fe->tan_at = fe->moved = 0;
    return 0;
}

/* layout: neq, committed equation displacements, each element material's state */
/* One element's committed state: its beam-column or section state, its coupled zero-length
 * state, its materials'. */
static size_t element_state_size(const fe_element *el)
{
    size_t k = 0;
    if (el->bc) k += fe_bc_element_state_size(el);
    if (el->sec) k += fe_zls_state_size(el);
    if (el->kind == FE_COUPLED_ZERO_LENGTH) k += FE_CZL_STATE;
    if (el->kind == FE_TFP_X) k += fe_tfpx_state_size(el);
    hs_material *mats[FE_MAX_MATS];
    for (int j = 0, nm = fe_element_materials(el, mats); j < nm; j++)
        k += hs_material_state_size(mats[j]);
    return k;
}

static int element_state_save(const fe_element *el, double *out)
{
    if (el->bc) {
        const int rc = fe_bc_element_state_save(el, out);
        if (rc) return rc;
        out += fe_bc_element_state_size(el);
    }
    if (el->sec) {
        const int rc = fe_zls_state_save(el, out);
        if (rc) return rc;
        out += fe_zls_state_size(el);
    }
    if (el->kind == FE_COUPLED_ZERO_LENGTH) {
        memcpy(out, el->czl, sizeof el->czl);
        out += FE_CZL_STATE;
    }
    if (el->kind == FE_TFP_X) {
        fe_tfpx_state_save(el, out);
        out += fe_tfpx_state_size(el);
    }
    hs_material *mats[FE_MAX_MATS];
    for (int j = 0, nm = fe_element_materials(el, mats); j < nm; j++) {
        int rc = hs_material_state_save(mats[j], out);
        if (rc) return rc;
        out += hs_material_state_size(mats[j]);
    }
    return 0;
}

static int element_state_load(hs_fe *fe, fe_element *el, const double *in)
{
    if (el->bc) {
        const int rc = fe_bc_element_state_load(el, in);
        if (rc) return rc;
        in += fe_bc_element_state_size(el);
    }
    if (el->sec) {
        const int rc = fe_zls_state_load(el, in);
        if (rc) return rc;
        in += fe_zls_state_size(el);
    }
    if (el->kind == FE_COUPLED_ZERO_LENGTH) {
        memcpy(el->czl, in, sizeof el->czl);
        in += FE_CZL_STATE;
    }
    if (el->kind == FE_TFP_X) {
        fe_tfpx_state_load(el, in);
        in += fe_tfpx_state_size(el);
    }
    hs_material *mats[FE_MAX_MATS];
    for (int j = 0, nm = fe_element_materials(el, mats); j < nm; j++) {
        int rc = hs_material_state_load(mats[j], in);
        if (rc) return hs_fail(fe->ctx, rc, "element '%s': %s", el->name, hs_ctx_message(fe->ctx));
        in += hs_material_state_size(mats[j]);
    }
    return 0;
}

size_t hs_fe_state_size(const hs_fe *fe)
{
    size_t k = 1 + (size_t)fe->neq;
    for (int e = 0; e < fe->nels; e++) k += element_state_size(&fe->els[e]);
    return k;
}

int hs_fe_state_save(const hs_fe *fe, double *out)
{
    *out++ = (double)fe->neq;
    memcpy(out, fe->u_commit, (size_t)fe->neq * sizeof(double));
    out += fe->neq;
    for (int e = 0; e < fe->nels; e++) {
        const int rc = element_state_save(&fe->els[e], out);
        if (rc) return rc;
        out += element_state_size(&fe->els[e]);
    }
    return 0;
}

int hs_fe_state_load(hs_fe *fe, const double *in)
{
    if (in[0] != (double)fe->neq)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "frame model: the saved state has %g equations, this model %d", in[0],
                       fe->neq);
    in++;
    memcpy(fe->u_commit, in, (size_t)fe->neq * sizeof(double));
    memcpy(fe->u, in, (size_t)fe->neq * sizeof(double));
    fe->warm = fe->tan_at = fe->moved = 0;
    fe->tan_due = fe->n0 > 0; /* predict_condensed assembles at the loaded state first */
    in += fe->neq;
    for (int e = 0; e < fe->nels; e++) {
        const int rc = element_state_load(fe, &fe->els[e], in);
        if (rc) return rc;
        in += element_state_size(&fe->els[e]);
    }
    return 0;
}

int hs_fe_copy_element_states(hs_fe *dst, const hs_fe *src)
{
    for (int e = 0; e < dst->nels; e++) {
        fe_element *d = &dst->els[e];
        const fe_element *s = NULL;
        for (int k = 0; !s && k < src->nels; k++)
            if (!strcmp(src->els[k].name, d->name)) s = &src->els[k];
        const size_t n = s ? element_state_size(s) : 0;
        if (!s || n != element_state_size(d))
            return hs_fail(dst->ctx, HS_EINPUT,
                           "element '%s': no element of that name and state in the model to copy "
                           "from",
                           d->name);
        double *buf = hs_dvec(n + 1);
        int rc = buf ? element_state_save(s, buf) : HS_ENOMEM;
        if (!rc) rc = element_state_load(dst, d, buf);
        hs_free(buf);
        if (rc) return rc;
    }
    return 0;
}
