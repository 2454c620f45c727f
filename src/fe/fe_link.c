/* Two-node link element with OpenSees' twoNodeLink semantics (2-D, 3 DOFs per node): one
 * uniaxial material per basic direction; local x along the chord i -> j (or `orient`), local y =
 * z x x; the basic deformations are the relative displacements of the end nodes in the local frame,
 * ub = B u with B = T_lb T_gl:
 *   axial   ub = ux'_j - ux'_i
 *   shear   ub = uy'_j - uy'_i - s L rz_i - (1 - s) L rz_j   (s: shear distance from node i)
 *   moment  ub = rz_j - rz_i
 * (L the distance of the nodes, s = 0.5 by default, no P-Delta moments: OpenSees' defaults), and
 * f = B^T q, K = B^T diag(k) B, C = B^T diag(c) B. The geometry stays the initial one (small
 * displacements), as in OpenSees. docs/fe_model.md, "Two-node link". */
#include "fe_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define FE_NDF 3            /* DOFs per node of the 2-D link: ux uy rz */
#define ND     (2 * FE_NDF) /* element DOFs */

typedef struct fe_link {
    int ndir;
    int dir[FE_MAX_MATS];
    hs_material *mat[FE_MAX_MATS];
    double B[FE_MAX_MATS * ND]; /* basic <- global, row k = direction k */
} fe_link;

void hs_fe_link_def_init(hs_fe_link_def *def)
{
    memset(def, 0, sizeof *def);
    def->shear_dist = 0.5;
}

void fe_link_free(fe_element *e)
{
    if (!e->link) return;
    for (int k = 0; k < e->link->ndir; k++) hs_material_destroy(&e->link->mat[k]);
    hs_free(e->link);
    e->link = NULL;
}

int fe_link_materials(const fe_element *e, hs_material **mats)
{
    for (int k = 0; k < e->link->ndir; k++) mats[k] = e->link->mat[k];
    return e->link->ndir;
}

/* B = T_lb T_gl for local axes x = (cx, cy), y = (-cy, cx), length L, shear distance s. */
static void link_b(fe_link *l, double cx, double cy, double L, double s)
{
    double Tgl[ND * ND] = {0}; /* row-major: local <- global */
    for (int a = 0; a < 2; a++) {
        const int o = a * FE_NDF;
        Tgl[(o + 0) * ND + o + 0] = cx;
        Tgl[(o + 0) * ND + o + 1] = cy;
        Tgl[(o + 1) * ND + o + 0] = -cy;
        Tgl[(o + 1) * ND + o + 1] = cx;
        Tgl[(o + 2) * ND + o + 2] = 1.0;
    }
    for (int k = 0; k < l->ndir; k++) {
        double tlb[ND] = {0};
        const int d = l->dir[k];
        tlb[d] = -1.0;
        tlb[d + FE_NDF] = 1.0;
        if (d == HS_FE_UY) {
            tlb[HS_FE_RZ] = -s * L;
            tlb[FE_NDF + HS_FE_RZ] = -(1.0 - s) * L;
        }
        for (int i = 0; i < ND; i++) {
            double b = 0.0;
            for (int m = 0; m < ND; m++) b += tlb[m] * Tgl[m * ND + i];
            l->B[k * ND + i] = b;
        }
    }
}

static int link_check(hs_fe *fe, const char *name, int ni, int nj, const hs_fe_link_def *def)
{
    const char *nm = name ? name : "?";
    if (!def || def->ndir < 1 || def->ndir > FE_NDF)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': a two-node link needs 1 to %d directions (got %d)", nm,
                       FE_NDF, def ? def->ndir : 0);
    for (int k = 0; k < def->ndir; k++) {
        if (def->dirs[k] < 0 || def->dirs[k] >= FE_NDF)
            return hs_fail(fe->ctx, HS_EINPUT,
                           "element '%s': direction %d must be x, y or rz (local axes)", nm, k + 1);
        for (int j = 0; j < k; j++)
            if (def->dirs[j] == def->dirs[k])
                return hs_fail(fe->ctx, HS_EINPUT,
                               "element '%s': direction %d is given twice; one material per "
                               "direction",
                               nm, k + 1);
        if (!def->mat_type[k])
            return hs_fail(fe->ctx, HS_EINPUT, "element '%s': direction %d has no material", nm,
                           k + 1);
    }
    if (!(def->shear_dist >= 0.0 && def->shear_dist <= 1.0))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': shear_dist is a fraction of the length from node %d, 0 to 1 "
                       "(got %g)",
                       nm, ni, def->shear_dist);
    if (!(def->mass >= 0.0) || !isfinite(def->mass))
        return hs_fail(fe->ctx, HS_EINPUT, "element '%s': mass must be >= 0 (got %g)", nm,
                       def->mass);
    if (ni == nj)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': a two-node link joins two different nodes (both %d)", nm, ni);
    return 0;
}

int hs_fe_add_link(hs_fe *fe, const char *name, int ni, int nj, const hs_fe_link_def *def)
{
    if (fe->ndm != 2 || fe->ndf != 3)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': the two-node link is 2-D with rotations (ndm 2, ndf 3); this "
                       "model has ndm %d, ndf %d (in other models use zero_length springs)",
                       name ? name : "?", fe->ndm, fe->ndf);
    int rc = link_check(fe, name, ni, nj, def);
    if (rc) return rc;
    fe_element *e = fe_new_element(fe, name, ni, nj, &rc);
    if (!e) return rc;
    const fe_node *a = &fe->nodes[e->ni], *b = &fe->nodes[e->nj];
    const double dx = b->x - a->x, dy = b->y - a->y, L = sqrt(dx * dx + dy * dy);
    double cx = 1.0, cy = 0.0; /* coincident nodes: global X (the geometry says nothing) */
    if (def->has_orient) {
        const double n = hypot(def->orient[0], def->orient[1]);
        if (!(n > 0.0) || !isfinite(n))
            return hs_fail(fe->ctx, HS_EINPUT,
                           "element '%s': orient (the local x axis) must have a nonzero, finite "
                           "in-plane part (got [%g, %g])",
                           e->name, def->orient[0], def->orient[1]);
        cx = def->orient[0] / n;
        cy = def->orient[1] / n;
    } else if (L > 0.0) {
        cx = dx / L;
        cy = dy / L;
    }
    fe_link *l = hs_calloc(1, sizeof *l);
    if (!l) return HS_ENOMEM;
    l->ndir = def->ndir;
    for (int k = 0; k < def->ndir; k++) {
        l->dir[k] = def->dirs[k];
        rc = hs_material_create(fe->ctx, def->mat_type[k], def->mat_opts[k], &l->mat[k]);
        if (rc) {
            for (int j = 0; j < k; j++) hs_material_destroy(&l->mat[j]);
            hs_free(l);
            return hs_fail(fe->ctx, rc, "element '%s': direction %d: %s", e->name, k + 1,
                           hs_ctx_message(fe->ctx));
        }
    }
    link_b(l, cx, cy, L, def->shear_dist);
    if (def->mass > 0.0) {
        const double m[3] = {0.5 * def->mass, 0.5 * def->mass, 0.0};
        rc = hs_fe_add_mass(fe, ni, m);
        if (!rc) rc = hs_fe_add_mass(fe, nj, m);
        if (rc) {
            e->link = l;
            fe_link_free(e);
            return rc;
        }
    }
    e->kind = FE_LINK;
    e->link = l;
    e->L = L;
    e->c = cx;
    e->s = cy;
    if (L > fe->lref) fe->lref = L;
    return fe->nels++;
}

int fe_link_state(hs_fe *fe, fe_element *e, const fe_map *const maps[], const double *u,
                  const double *v, int initial, double f[6], double k[36], double c[36])
{
    const fe_link *l = e->link;
    double ug[ND], vg[ND], q[FE_MAX_MATS], kb[FE_MAX_MATS], cb[FE_MAX_MATS];
    for (int i = 0; i < ND; i++) {
        ug[i] = initial ? 0.0 : fe_map_value(maps[i], u);
        vg[i] = (!initial && v) ? fe_map_value(maps[i], v) : 0.0;
    }
    for (int d = 0; d < l->ndir; d++) {
        const double *b = &l->B[d * ND];
        if (initial) {
            q[d] = cb[d] = 0.0;
            kb[d] = hs_material_initial_tangent(l->mat[d]);
            continue;
        }
        double ub = 0.0, vb = 0.0;
        for (int i = 0; i < ND; i++) {
            ub += b[i] * ug[i];
            vb += b[i] * vg[i];
        }
        const int rc = hs_material_set_trial(l->mat[d], ub, vb);
        if (rc)
            return hs_fail(fe->ctx, rc, "element '%s': direction %d: %s", e->name, d + 1,
                           hs_ctx_message(fe->ctx));
        q[d] = hs_material_stress(l->mat[d]);
        kb[d] = hs_material_tangent(l->mat[d]);
        cb[d] = hs_material_rate_tangent(l->mat[d]);
    }
    if (f && !initial)
        for (int i = 0; i < ND; i++) {
            double s = 0.0;
            for (int d = 0; d < l->ndir; d++) s += l->B[d * ND + i] * q[d];
            f[i] = s;
        }
    for (int j = 0; j < ND; j++)
        for (int i = 0; i < ND; i++) {
            double sk = 0.0, sc = 0.0;
            for (int d = 0; d < l->ndir; d++) {
                const double bb = l->B[d * ND + i] * l->B[d * ND + j];
                sk += kb[d] * bb;
                sc += cb[d] * bb;
            }
            if (k) k[(size_t)j * ND + (size_t)i] = sk;
            if (c) c[(size_t)j * ND + (size_t)i] = sc;
        }
    return 0;
}

int fe_link_response(const fe_element *e, hs_fe_response r, double *out)
{
    const fe_link *l = e->link;
    double q[FE_MAX_MATS];
    for (int d = 0; d < l->ndir; d++) /* the committed state: the materials' current values */
        q[d] =
            r == HS_FE_DEFORMATION ? hs_material_strain(l->mat[d]) : hs_material_stress(l->mat[d]);
    if (r == HS_FE_BASIC_FORCE || r == HS_FE_DEFORMATION) {
        memcpy(out, q, (size_t)l->ndir * sizeof(double));
        return 0;
    }
    if (r != HS_FE_GLOBAL_FORCE) return HS_EINVAL;
    for (int i = 0; i < ND; i++) { /* f = B^T q */
        double s = 0.0;
        for (int d = 0; d < l->ndir; d++) s += l->B[d * ND + i] * q[d];
        out[i] = s;
    }
    return 0;
}
