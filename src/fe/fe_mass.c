/* The frame model's mass: nodal masses (lumped) plus the elements' distributed mass rho (mass
 * per length) of trusses and beams, as OpenSees' Truss, ElasticBeam2d and ElasticBeam3d: lumped
 * (rho L / 2 on each node's translations, nothing on the rotations; OpenSees' default) or
 * consistent (-cMass: truss rho L / 6 [2 1; 1 2] in each direction; beam the axial
 * rho L / 6 [2 1; 1 2], the cubic Hermitian rho L / 420 [156 22L 54 -13L; ...] in each bending
 * plane and, in 3-D, the torsion rho J / A L / 6 [2 1; 1 2], turned to global axes; the
 * displacement-based beam-column's -cMass the same without torsion, as DispBeamColumn2d/3d).
 * Assembled
 * through the DOFs' maps (T^T M T: a mass on a rigid slave reaches the master's rotations with
 * its lever arms) on the retained equations (neq x neq); the DOFs whose diagonal is positive are
 * the dynamic ones, the others carry no mass at all (M is positive semidefinite, so a zero
 * diagonal has a zero row) and are condensed. docs/fe_model.md, "Mass". */
#include "fe_impl.h"

#include <math.h>
#include <string.h>

#define M6(m, i, j)  ((m)[(size_t)(j)*6 + (size_t)(i)])
#define M12(m, i, j) ((m)[(size_t)(j)*12 + (size_t)(i)])

int hs_fe_set_element_mass(hs_fe *fe, int e, double rho, int consistent)
{
    if (fe->finalized)
        return hs_fail(fe->ctx, HS_EINVAL,
                       "frame model: element mass after the model was finalized");
    if (e < 0 || e >= fe->nels) return hs_fail(fe->ctx, HS_EINVAL, "frame model: no element %d", e);
    fe_element *el = &fe->els[e];
    if (el->kind != FE_TRUSS && el->kind != FE_BEAM && el->kind != FE_BEAM_COLUMN)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': only trusses and beams carry a mass per length (beam-columns "
                       "too; give a link its 'mass', or the nodes theirs)",
                       el->name);
    if (!(rho >= 0.0) || !isfinite(rho))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': rho (mass per length) must be >= 0 (got %g)", el->name, rho);
    el->rho = rho;
    el->cmass = consistent != 0;
    return 0;
}

/* The element's mass matrix in global axes over [ux_i uy_i rz_i ux_j uy_j rz_j]; 0 when none. */
static int element_mass(const fe_element *e, double m[36])
{
    memset(m, 0, 36 * sizeof(double));
    if ((e->kind != FE_TRUSS && e->kind != FE_BEAM && e->kind != FE_BEAM_COLUMN) || !(e->rho > 0.0))
        return 0;
    const double L = e->L;
    if (!e->cmass) {
        M6(m, 0, 0) = M6(m, 1, 1) = M6(m, 3, 3) = M6(m, 4, 4) = 0.5 * e->rho * L;
        return 1;
    }
    if (e->kind == FE_TRUSS) { /* isotropic: no turning needed */
        const double a = e->rho * L / 6.0;
        for (int d = 0; d < 2; d++) {
            M6(m, d, d) = M6(m, 3 + d, 3 + d) = 2.0 * a;
            M6(m, d, 3 + d) = M6(m, 3 + d, d) = a;
        }
        return 1;
    }
    const double a = e->rho * L / 420.0;
    double ml[36] = {0};
    M6(ml, 0, 0) = M6(ml, 3, 3) = 140.0 * a;
    M6(ml, 0, 3) = M6(ml, 3, 0) = 70.0 * a;
    M6(ml, 1, 1) = M6(ml, 4, 4) = 156.0 * a;
    M6(ml, 1, 4) = M6(ml, 4, 1) = 54.0 * a;
    M6(ml, 2, 2) = M6(ml, 5, 5) = 4.0 * L * L * a;
    M6(ml, 2, 5) = M6(ml, 5, 2) = -3.0 * L * L * a;
    M6(ml, 1, 2) = M6(ml, 2, 1) = 22.0 * L * a;
    M6(ml, 4, 5) = M6(ml, 5, 4) = -22.0 * L * a;
    M6(ml, 1, 5) = M6(ml, 5, 1) = -13.0 * L * a;
    M6(ml, 2, 4) = M6(ml, 4, 2) = 13.0 * L * a;
    /* m = R^T ml R, R = blockdiag(r, r), r = [c s 0; -s c 0; 0 0 1] */
    double R[36] = {0};
    for (int b = 0; b < 6; b += 3) {
        M6(R, b, b) = M6(R, b + 1, b + 1) = e->c;
        M6(R, b, b + 1) = e->s;
        M6(R, b + 1, b) = -e->s;
        M6(R, b + 2, b + 2) = 1.0;
    }
    for (int j = 0; j < 6; j++)
        for (int i = 0; i < 6; i++) {
            double s = 0.0;
            for (int p = 0; p < 6; p++)
                for (int q = 0; q < 6; q++) s += M6(R, p, i) * M6(ml, p, q) * M6(R, q, j);
            M6(m, i, j) = s;
        }
    return 1;
}

/* The 3-D element's mass in global axes over [ux uy uz rx ry rz]_i,j; 0 when none. OpenSees'
 * ElasticBeam3d::getMass: lumped on the translations only; consistent with the torsional inertia
 * rho J / A (J for the polar moment) and no rotary inertia of the bending rotations, in the
 * initial local axes (also under the corotational transformation). */
static int element_mass_3d(const fe_element *e, double m[144])
{
    memset(m, 0, 144 * sizeof(double));
    if ((e->kind != FE_TRUSS && e->kind != FE_BEAM && e->kind != FE_BEAM_COLUMN) || !(e->rho > 0.0))
        return 0;
    const double L = e->L;
    if (!e->cmass) {
        for (int d = 0; d < 3; d++) M12(m, d, d) = M12(m, 6 + d, 6 + d) = 0.5 * e->rho * L;
        return 1;
    }
    if (e->kind == FE_TRUSS) { /* isotropic: no turning needed */
        const double a = e->rho * L / 6.0;
        for (int d = 0; d < 3; d++) {
            M12(m, d, d) = M12(m, 6 + d, 6 + d) = 2.0 * a;
            M12(m, d, 6 + d) = M12(m, 6 + d, d) = a;
        }
        return 1;
    }
    /* a beam-column with sections: no torsional inertia (DispBeamColumn3d::getMass: "currently
     * no torsional mass") */
    const double a = e->rho * L / 420.0, L2 = L * L;
    const double t = e->kind == FE_BEAM_COLUMN ? 0.0 : a * e->J / e->A;
    double ml[144] = {0};
    M12(ml, 0, 0) = M12(ml, 6, 6) = 140.0 * a; /* axial */
    M12(ml, 0, 6) = M12(ml, 6, 0) = 70.0 * a;
    M12(ml, 3, 3) = M12(ml, 9, 9) = 140.0 * t; /* torsion */
    M12(ml, 3, 9) = M12(ml, 9, 3) = 70.0 * t;
    /* bending in the local x-y plane (v, rz: rz = dv/dx) and x-z plane (w, ry = -dw/dx) */
    const int v[2] = {1, 2}, r[2] = {5, 4};
    const double sg[2] = {1.0, -1.0};
    for (int p = 0; p < 2; p++) {
        const int vi = v[p], vj = v[p] + 6, ri = r[p], rj = r[p] + 6;
        M12(ml, vi, vi) = M12(ml, vj, vj) = 156.0 * a;
        M12(ml, vi, vj) = M12(ml, vj, vi) = 54.0 * a;
        M12(ml, ri, ri) = M12(ml, rj, rj) = 4.0 * L2 * a;
        M12(ml, ri, rj) = M12(ml, rj, ri) = -3.0 * L2 * a;
        M12(ml, vi, ri) = M12(ml, ri, vi) = sg[p] * 22.0 * L * a;
        M12(ml, vj, rj) = M12(ml, rj, vj) = -sg[p] * 22.0 * L * a;
        M12(ml, vi, rj) = M12(ml, rj, vi) = -sg[p] * 13.0 * L * a;
        M12(ml, ri, vj) = M12(ml, vj, ri) = sg[p] * 13.0 * L * a;
    }
    fe3d_matrix_to_global(e->R, ml, m);
    return 1;
}

/* Adds m to the retained equations (Meq), the fixed translations (Mfix) and the supports (Mqs):
 * one term of each map at a time, T^T m T (a fixed DOF's map has no term, a moving support's map
 * the one term neq + s). */
static void add_mass(const hs_fe *fe, const fe_map *mi, const fe_map *mj, int fixed_code, double m,
                     double *Meq, int diag, double *Mfix, double *Mqs)
{
    const int q = fe->neq;
    for (int ti = 0; ti < mi->n; ti++) {
        const int qi = mi->eq[ti];
        if (qi >= q) continue;
        const double ci = mi->c[ti] * m;
        if (Mfix && fixed_code >= 0) Mfix[(size_t)fixed_code * (size_t)q + (size_t)qi] += ci;
        for (int tj = 0; tj < mj->n; tj++) {
            const int qj = mj->eq[tj];
            if (qj < q && Meq && !diag) HS_AT(Meq, q, qi, qj) += ci * mj->c[tj];
            if (qj < q && Meq && diag && qi == qj) Meq[qi] += ci * mj->c[tj];
            if (qj >= q && Mqs) HS_AT(Mqs, q, qi, qj - q) += ci * mj->c[tj];
        }
    }
}

int fe_mass_is_diagonal(const hs_fe *fe)
{
    for (int k = 0; k < fe->nnodes; k++) /* a nodal mass on a lever arm couples the master */
        for (int d = 0; d < fe->ndf; d++)
            if (fe->nodes[k].mass[d] > 0.0 && fe->nodes[k].map[d].n > 1) return 0;
    for (int k = 0; k < fe->nels; k++) {
        const fe_element *el = &fe->els[k];
        if (!(el->rho > 0.0)) continue;
        if (el->cmass) return 0;
        const fe_map *maps[FE_MAX_EDOF];
        for (int i = fe_element_maps(fe, el, maps) - 1; i >= 0; i--)
            if (maps[i]->n > 1) return 0; /* lumped on a rigid slave: lever arms couple */
    }
    return 1;
}

void fe_mass_assemble(const hs_fe *fe, double *Meq, int diag, double *Mfix, double *Mqs)
{
    const int q = fe->neq;
    if (Meq) memset(Meq, 0, (size_t)q * (size_t)(diag ? 1 : q) * sizeof(double));
    for (int k = 0; k < fe->nnodes; k++) /* nodal masses (the fixed DOFs' move with the ground) */
        for (int d = 0; d < fe->ndf; d++) {
            const fe_map *m = &fe->nodes[k].map[d];
            if (fe->nodes[k].mass[d] > 0.0)
                add_mass(fe, m, m, -1, fe->nodes[k].mass[d], Meq, diag, NULL, Mqs);
        }
    static const int CODES_2D[3] = {FE_CX, FE_CY, FE_CRZ};
    const int nde = fe->ndm == 3 ? 12 : 6, per = nde / 2;
    for (int k = 0; k < fe->nels; k++) {
        const fe_element *el = &fe->els[k];
        double m[144];
        if (!(fe->ndm == 3 ? element_mass_3d(el, m) : element_mass(el, m))) continue;
        /* the maps are [ux uy rz]_i,j in 1-D and 2-D, [ux uy uz rx ry rz]_i,j in 3-D; a DOF the
         * model or the element lacks (a truss's rotations) has none and its mass none there */
        const fe_map *maps[FE_MAX_EDOF];
        fe_element_maps(fe, el, maps);
        for (int j = 0; j < nde; j++) {
            const fe_node *nj = &fe->nodes[j < per ? el->ni : el->nj];
            const int code = per == 6 ? j % 6 : CODES_2D[j % 3], dj = fe->code_dof[code];
            /* a fixed translation: it moves with a uniform ground motion */
            const int fixed = dj >= 0 && code < FE_CRX && nj->fix[dj] ? code : -1;
            for (int i = 0; i < nde; i++) {
                const double mij = m[(size_t)j * (size_t)nde + (size_t)i];
                if (mij != 0.0) add_mass(fe, maps[i], maps[j], fixed, mij, Meq, diag, Mfix, Mqs);
            }
        }
    }
}

/* iota_fix = M^-1 M_fs iota_s per direction when a consistent mass couples a dynamic DOF to a
 * fixed one (OpenSees' UniformExcitation loads -M R ag over every node, fixed ones included). */
static int mass_fixed_coupling(hs_fe *fe)
{
    const int q = fe->neq, n = fe->n;
    double *Mfix = hs_dvec(3 * (size_t)q);
    if (!Mfix) return HS_ENOMEM;
    fe_mass_assemble(fe, NULL, 0, Mfix, NULL);
    int any = 0;
    for (int k = 0; k < 3 * q; k++) any |= Mfix[k] != 0.0;
    int rc = 0;
    if (any) {
        hs_linsolver *s = NULL;
        fe->iota_fix = hs_dvec(3 * (size_t)n);
        rc = !fe->iota_fix ? HS_ENOMEM
             : fe->lumped  ? 0
                           : hs_linsolver_create(fe->ctx, "dense", n, &s);
        if (!rc && s) rc = hs_linsolver_factor(s, fe->M);
        for (int d = 0; !rc && d < 3; d++) {
            double *x = &fe->iota_fix[(size_t)d * (size_t)n];
            for (int i = 0; i < n; i++) x[i] = Mfix[(size_t)d * (size_t)q + (size_t)fe->dyn_eq[i]];
            if (s)
                rc = hs_linsolver_solve(s, x);
            else
                for (int i = 0; i < n; i++) x[i] = fe->M[i] > 0.0 ? x[i] / fe->M[i] : 0.0;
        }
        hs_linsolver_destroy(&s);
    }
    hs_free(Mfix);
    return rc;
}

int fe_mass_finalize(hs_fe *fe, const double *Meq, int diag)
{
    const int q = fe->neq, n = fe->n;
    fe->lumped = 1; /* M diagonal: kept as its n values (large frames: nothing n x n) */
    for (int j = 0; !diag && j < n; j++)
        for (int i = 0; i < n; i++)
            if (i != j && HS_AT(Meq, q, fe->dyn_eq[i], fe->dyn_eq[j]) != 0.0) fe->lumped = 0;
    fe->M = hs_dvec(fe->lumped ? (size_t)n : (size_t)n * (size_t)n);
    if (!fe->M) return HS_ENOMEM;
    for (int j = 0; j < n; j++) {
        const int qj = fe->dyn_eq[j];
        if (fe->lumped)
            fe->M[j] = diag ? Meq[qj] : HS_AT(Meq, q, qj, qj);
        else
            for (int i = 0; i < n; i++) HS_AT(fe->M, n, i, j) = HS_AT(Meq, q, fe->dyn_eq[i], qj);
    }
    return mass_fixed_coupling(fe);
}

void hs_fe_mass(const hs_fe *fe, double *mass)
{
    for (int i = 0; i < fe->n; i++) mass[i] = fe->lumped ? fe->M[i] : HS_AT(fe->M, fe->n, i, i);
}

void hs_fe_mass_matrix(const hs_fe *fe, double *M)
{
    const size_t n = (size_t)fe->n;
    if (!fe->lumped) {
        memcpy(M, fe->M, n * n * sizeof(double));
        return;
    }
    memset(M, 0, n * n * sizeof(double));
    for (size_t i = 0; i < n; i++) M[i * n + i] = fe->M[i];
}

int hs_fe_mass_is_lumped(const hs_fe *fe)
{
    return fe->lumped;
}
