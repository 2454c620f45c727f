/* Multi-point constraints by transformation, u = T u_r (docs/fe_model.md): equal DOF (T a 0/1
 * row), rigid diaphragm and rigid link (rows with the lever-arm terms of the master's rotations,
 * as OpenSees' RigidDiaphragm, RigidBeam and RigidRod). Every DOF gets its row of T as a map
 * (fe_map); the elements gather and scatter through the maps, so K_r = T^T K T is assembled
 * directly, and so is M_r = T^T M T (fe_mass.c: a slave's mass with a lever arm couples the
 * master's translations and rotation, as OpenSees' Transformation handler); no penalty number. */
#include "fe_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const KIND_NAME[] = {"equal_dof", "rigid_diaphragm", "rigid_link beam",
                                        "rigid_link bar"};

static int add_constraint(hs_fe *fe, fe_con_kind kind, int km, int ks, int perp)
{
    fe_constraint *c = hs_realloc(fe->cons, (size_t)(fe->ncons + 1) * sizeof *c);
    if (!c) return HS_ENOMEM;
    fe->cons = c;
    c[fe->ncons] = (fe_constraint){kind, km, ks, perp};
    return fe->ncons++;
}

/* Node ks's DOF d follows constraint ci: refused when another constraint drives it. */
static int claim(hs_fe *fe, int ks, int d, int ci)
{
    fe_node *s = &fe->nodes[ks];
    if (s->con[d] >= 0) {
        const fe_constraint *o = &fe->cons[s->con[d]], *c = &fe->cons[ci];
        if (o->kind == FE_EQUAL_DOF && c->kind == FE_EQUAL_DOF)
            return hs_fail(fe->ctx, HS_EINPUT, "equal_dof: node %d %s already follows node %d",
                           s->id, fe_dof_label(fe, d), fe->nodes[o->master].id);
        return hs_fail(fe->ctx, HS_EINPUT,
                       "%s: node %d %s already follows node %d (%s); a DOF follows one master",
                       KIND_NAME[c->kind], s->id, fe_dof_label(fe, d), fe->nodes[o->master].id,
                       KIND_NAME[o->kind]);
    }
    s->con[d] = ci;
    return 0;
}

static int pair(hs_fe *fe, const char *what, int master, int slave, int *km, int *ks)
{
    int rc = fe_defining(fe, what);
    if (rc) return rc;
    char sub[64];
    snprintf(sub, sizeof sub, "%s master", what);
    if ((*km = fe_known_node(fe, master, sub)) < 0) return *km;
    snprintf(sub, sizeof sub, "%s slave", what);
    if ((*ks = fe_known_node(fe, slave, sub)) < 0) return *ks;
    if (*km == *ks)
        return hs_fail(fe->ctx, HS_EINPUT, "%s: node %d cannot follow itself", what, master);
    return 0;
}

int hs_fe_equal_dof(hs_fe *fe, int master, int slave, const int *dofs)
{
    int km, ks, rc = pair(fe, "equal_dof", master, slave, &km, &ks);
    if (rc) return rc;
    const int ci = add_constraint(fe, FE_EQUAL_DOF, km, ks, -1);
    if (ci < 0) return ci;
    for (int d = 0; d < fe->ndf; d++)
        if (dofs[d] && (rc = claim(fe, ks, d, ci)) != 0) return rc;
    return 0;
}

int hs_fe_rigid_diaphragm(hs_fe *fe, int perp, int master, const int *slaves, int nslaves)
{
    if (!(fe->ndm == 3 && fe->ndf == 6) && !(fe->ndm == 2 && fe->ndf == 3 && perp == FE_CZ))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "rigid_diaphragm: needs a 3-D model with 6 DOFs per node (or a 2-D one "
                       "with 3 and the perpendicular z); this model has ndm %d, ndf %d",
                       fe->ndm, fe->ndf);
    if (perp < 0 || perp > 2)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "rigid_diaphragm: the perpendicular direction is x, y or z (got %d)", perp);
    if (nslaves <= 0)
        return hs_fail(fe->ctx, HS_EINPUT, "rigid_diaphragm of master node %d: no slave nodes",
                       master);
    /* the in-plane translations and the rotation about the perpendicular */
    const int codes[3] = {(perp + 1) % 3, (perp + 2) % 3, FE_CRX + perp};
    for (int i = 0; i < nslaves; i++) {
        int km, ks, rc = pair(fe, "rigid_diaphragm", master, slaves[i], &km, &ks);
        if (rc) return rc;
        const int ci = add_constraint(fe, FE_RIGID_DIAPHRAGM, km, ks, perp);
        if (ci < 0) return ci;
        for (int k = 0; k < 3; k++)
            if ((rc = claim(fe, ks, fe->code_dof[codes[k]], ci)) != 0) return rc;
    }
    return 0;
}

int hs_fe_rigid_link(hs_fe *fe, hs_fe_rigid_link_type type, int master, int slave)
{
    const char *what = type == HS_FE_RIGID_BEAM ? "rigid_link beam" : "rigid_link bar";
    if (type == HS_FE_RIGID_BEAM && fe->code_dof[FE_CRZ] < 0)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "%s: needs rotations (ndf 3 in 2-D, 6 in 3-D); this model has ndm %d, ndf "
                       "%d (use a bar)",
                       what, fe->ndm, fe->ndf);
    int km, ks, rc = pair(fe, what, master, slave, &km, &ks);
    if (rc) return rc;
    const int ci =
        add_constraint(fe, type == HS_FE_RIGID_BEAM ? FE_RIGID_BEAM : FE_RIGID_BAR, km, ks, -1);
    if (ci < 0) return ci;
    for (int d = 0; d < fe->ndf; d++) /* a bar ties the translations only */
        if ((type == HS_FE_RIGID_BEAM || fe->dof_code[d] < FE_CRX) &&
            (rc = claim(fe, ks, d, ci)) != 0)
            return rc;
    return 0;
}

/* The terms (master node DOF, coefficient) of slave DOF d of node s under constraint c:
 * u_s = u_m + theta_m x r for a rigid translation (r from master to slave; a diaphragm uses the
 * rotation about its perpendicular only), u_s = u_m otherwise. */
static int terms(const hs_fe *fe, const fe_constraint *c, int d, int mdof[FE_MAX_TERMS],
                 double coef[FE_MAX_TERMS])
{
    const fe_node *s = &fe->nodes[c->slave], *m = &fe->nodes[c->master];
    const int code = fe->dof_code[d];
    int n = 0;
    mdof[n] = d;
    coef[n++] = 1.0;
    if (code >= FE_CRX || (c->kind != FE_RIGID_BEAM && c->kind != FE_RIGID_DIAPHRAGM)) return n;
    const double r[3] = {s->x - m->x, s->y - m->y, s->z - m->z};
    /* (theta x r)_code = theta_{code+1} r_{code+2} - theta_{code+2} r_{code+1} */
    const int a = (code + 1) % 3, b = (code + 2) % 3;
    const int rot[2] = {FE_CRX + a, FE_CRX + b};
    const double lever[2] = {r[b], -r[a]};
    for (int k = 0; k < 2; k++) {
        if (c->kind == FE_RIGID_DIAPHRAGM && rot[k] != FE_CRX + c->perp) continue;
        if (fe->code_dof[rot[k]] < 0 || lever[k] == 0.0) continue;
        mdof[n] = fe->code_dof[rot[k]];
        coef[n++] = lever[k];
    }
    return n;
}

int fe_constraints_build(hs_fe *fe)
{
    for (int k = 0; k < fe->nnodes; k++)
        for (int d = 0; d < fe->ndf; d++) {
            fe_node *nd = &fe->nodes[k];
            nd->map[d].n = 0;
            if (nd->eq[d] >= 0) nd->map[d] = (fe_map){1, {nd->eq[d]}, {1.0}};
        }
    for (int k = 0; k < fe->nnodes; k++)
        for (int d = 0; d < fe->ndf; d++) {
            fe_node *s = &fe->nodes[k];
            if (s->con[d] < 0) continue;
            const fe_constraint *c = &fe->cons[s->con[d]];
            const char *what = KIND_NAME[c->kind];
            const fe_node *m = &fe->nodes[c->master];
            if (s->fix[d])
                return hs_fail(fe->ctx, HS_EINPUT,
                               "%s: node %d %s is fixed; a fixed DOF cannot follow node %d", what,
                               s->id, fe_dof_label(fe, d), m->id);
            int mdof[FE_MAX_TERMS];
            double coef[FE_MAX_TERMS];
            const int nt = terms(fe, c, d, mdof, coef);
            fe_map *map = &s->map[d];
            for (int t = 0; t < nt; t++) {
                const int md = mdof[t];
                if (m->con[md] >= 0) {
                    const int top = fe->nodes[fe->cons[m->con[md]].master].id;
                    return hs_fail(fe->ctx, HS_EINPUT,
                                   "%s: node %d %s follows node %d, which itself follows node "
                                   "%d; make both follow node %d",
                                   what, s->id, fe_dof_label(fe, d), m->id, top, top);
                }
                if (m->fix[md]) {
                    if (c->kind == FE_EQUAL_DOF)
                        return hs_fail(fe->ctx, HS_EINPUT,
                                       "equal_dof: master node %d %s is fixed; fix node %d %s "
                                       "instead",
                                       m->id, fe_dof_label(fe, md), s->id, fe_dof_label(fe, d));
                    continue; /* a fixed master DOF contributes nothing */
                }
                map->eq[map->n] = m->eq[md];
                map->c[map->n++] = coef[t];
            }
        }
    return 0;
}
