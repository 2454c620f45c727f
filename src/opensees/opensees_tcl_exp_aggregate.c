/* expElement twoNodeLink, and the 3-D expElement beamColumn, on an expSetup Aggregator of setups
 * among which some have actuator geometry (docs/openfresco.md, "Setups with several actuators");
 * the 3-D beamColumn on one setup with actuator geometry likewise (a link for it, and the
 * elastic axial force and torsion).
 *
 * ESAggregator.cpp (transfTrialResponse, transfDaqResponse): the element's basic vector is its
 * setups' trial vectors one after the other; setup s takes its own part, gives its actuators'
 * commands (the control's materials in the aggregate's order) and puts its actuators' forces back
 * on that part only. EETwoNodeLink.cpp allows a direction more than once in its -dir list (up to
 * 6 of 0 .. ndf - 1, not checked for repeats; its Tlb has a row per entry), so a 2-D link may
 * carry a ThreeActuators2d platform on -dir 1 2 3 and a OneActuator on a fourth entry 1, the two
 * forces adding on the same direction. The element is therefore the sum of one link per setup,
 * each over its part of the -dir list (through its geometry, or with its materials): hysim builds
 * those links between the element's nodes. With -initStif (the element's stiffness, initial and
 * tangent, as OpenFresco's elements answer it) the first link carries it over the element's
 * directions, each repeated direction's rows and columns added together (Tlb^T K Tlb), and the
 * others carry a zero given stiffness; without it each link has its own exact tangent.
 *
 * The 3-D beamColumn under geomTransf Linear is the same link over its basic system B (the
 * twoNodeLink's directions 1, 2, 6, 3, 5, 4 with shear distances 1 and y' the transformation's
 * local y; fe_link_beam3.c) and EEBeamColumn3d's elastic axial force kb00 db0 and torsion kb55
 * db5 where the test measures none: an Elastic link of those stiffnesses on the axial or torsion
 * direction when no actuator drives it (EEBeamColumn3d.cpp applies them when |qb| < 1e-12, so a
 * driven axial DOF whose measured force is exactly 0 would also take it there: only at rest).
 *
 * The first link has the element's tag, the others free tags from 1000000000; the element's own
 * responses are not answered (the node recorders are). */
#include "opensees_tcl_exp_element.h"

#include <stdio.h>
#include <string.h>

/* -initStif over the basic system b, folded on b's distinct directions into kd (their list in
 * bd): kd[u][v] sums the entries whose directions are u and v (a repeated direction's Tlb rows
 * add up). */
static void fold_init_stif(const exp_args *a, const exp_basic *b, exp_basic *bd, double *kd)
{
    int where[HS_OS_MAX_DIRS];
    *bd = (exp_basic){.shear_dist = b->shear_dist};
    for (int p = 0; p < b->n; p++) {
        where[p] = -1;
        for (int u = 0; u < bd->n; u++)
            if (bd->dirs[u] == b->dirs[p]) where[p] = u;
        if (where[p] < 0) where[p] = bd->n, bd->dirs[bd->n++] = b->dirs[p];
    }
    memset(kd, 0, sizeof(double) * HS_OS_MAX_DIRS * HS_OS_MAX_DIRS);
    for (int q = 0; q < b->n; q++)
        for (int p = 0; p < b->n; p++) kd[where[q] * bd->n + where[p]] += a->k[q * b->n + p];
}

/* One link of the element: tag (0: the element's), the drive dm, -initStif ap over bp; `first`
 * keeps the element's mass and -mass (the others drop them). */
static int piece(hs_os_state *st, Tcl_Interp *interp, Tcl_Obj *const objv[], int tag,
                 const exp_drive *dm, const exp_args *ap, const exp_basic *bp, double mass,
                 int first)
{
    exp_args own = *ap;
    own.npass = 0;
    for (int k = 0; k < ap->npass; k++) {
        if (!first && !strcmp(Tcl_GetString(ap->pass[k]), "-mass")) {
            k++;
            continue;
        }
        own.pass[own.npass++] = ap->pass[k];
    }
    Tcl_Obj *w[5] = {objv[0], objv[1], tag ? Tcl_NewIntObj(tag) : objv[2], objv[3], objv[4]};
    Tcl_IncrRefCount(w[2]);
    const int rc = hs_of_define_link(st, interp, w, dm, first ? mass : 0.0, &own, ap->site, bp);
    Tcl_DecrRefCount(w[2]);
    return rc;
}

/* An Elastic link of stiffness k on direction dir (1-based, a twoNodeLink's -dir): the 3-D
 * beam-column's elastic axial force or torsion where no actuator drives them. */
static int elastic_piece(hs_os_state *st, Tcl_Interp *interp, Tcl_Obj *const objv[],
                         const exp_drive *d, const exp_args *a, int dir, double k)
{
    const int tag = hs_of_free_element_tag(st, objv), mat = hs_of_elastic_material(st, objv, k);
    if (!tag || !mat) return TCL_ERROR;
    exp_drive de = *d;
    de.n = 1;
    de.mat[0] = mat;
    de.dir[0] = dir;
    de.scale[0][0] = de.scale[0][1] = de.scale[0][2] = 1.0;
    hs_of_setup none = {.nact = 1, .size_trial = 1};
    snprintf(none.type, sizeof none.type, "%s", "NoTransformation");
    de.setup = &none;
    exp_args ae = *a;
    exp_basic be = {.n = 1, .dirs = {dir - 1}, .shear_dist = 1.0};
    ae.nk = 1;
    ae.k[0] = 0.0; /* its stiffness is in the element's -initStif */
    return piece(st, interp, objv, tag, &de, &ae, &be, 0.0, 0);
}

static int aggregate(hs_os_state *st, Tcl_Interp *interp, Tcl_Obj *const objv[], const exp_drive *d,
                     const exp_args *a, const exp_basic *b, double mass, int beam3)
{
    const struct hs_os_fresco *f = hs_of_state(st);
    for (int k = 0; k < a->npass; k++)
        if (!strcmp(Tcl_GetString(a->pass[k]), "-pDelta"))
            return hs_os_fail(st, objv,
                              "-pDelta: setup %d (%s) aggregates setups with actuator "
                              "geometry, and hysim builds the element as a link per setup, "
                              "which cannot share one axial force; leave -pDelta out (the "
                              "geometry setups carry their own) or give each setup its own "
                              "element",
                              d->setup->tag, d->setup->type);
    if (beam3 && !a->nk)
        return hs_os_fail(st, objv,
                          "setup %d (%s): the 3-D beamColumn on it needs its -initStif (6 x 6; "
                          "EEBeamColumn3d's stiffness and elastic axial force and torsion come "
                          "from it)",
                          d->setup->tag, d->setup->type);
    int tag = 0;
    Tcl_GetIntFromObj(NULL, objv[2], &tag);
    exp_basic bd;
    double kd[HS_OS_MAX_DIRS * HS_OS_MAX_DIRS];
    if (a->nk) fold_init_stif(a, b, &bd, kd);
    int aoff = 0, npiece = 0, driven[HS_OS_MAX_DIRS] = {0};
    const int nsetups = d->setup->nsub ? d->setup->nsub : 1; /* a setup alone: itself */
    for (int s = 0; s < nsetups; s++) {
        const hs_of_setup *m = d->setup->nsub ? hs_of_find_setup(f, d->setup->sub[s]) : d->setup;
        if (m->nsub)
            return hs_os_fail(st, objv,
                              "setup %d (Aggregator) aggregates setup %d, itself an Aggregator "
                              "with actuator geometry; list its setups in setup %d instead",
                              d->setup->tag, m->tag, d->setup->tag);
        exp_drive dm = *d;
        dm.setup = m;
        dm.n = m->nact;
        for (int k = 0; k < m->nact; k++) {
            dm.mat[k] = d->mat[aoff + k];
            dm.dir[k] = d->dir[aoff + k];
            memcpy(dm.scale[k], d->scale[aoff + k], sizeof dm.scale[k]);
            driven[d->setup->trial_dof[aoff + k]] = 1;
        }
        exp_args ap = *a;
        exp_basic bp = {.n = m->nact, .shear_dist = b->shear_dist};
        for (int k = 0; k < m->nact; k++) bp.dirs[k] = dm.dir[k] - 1;
        if (a->nk && s == 0) { /* the element's -initStif, on its distinct directions */
            bp = bd;
            ap.nk = bd.n * bd.n;
            memcpy(ap.k, kd, sizeof kd);
        } else if (a->nk) { /* the others: no stiffness of their own */
            ap.nk = m->nact * m->nact;
            memset(ap.k, 0, sizeof ap.k);
        }
        const int t = s == 0 ? 0 : hs_of_free_element_tag(st, objv);
        if ((s && !t) || piece(st, interp, objv, t, &dm, &ap, &bp, mass, s == 0) != TCL_OK)
            return TCL_ERROR;
        npiece++;
        aoff += m->nact;
    }
    for (int p = 0; beam3 && p < 6; p += 5) /* B's axial (0) and torsion (5) where undriven */
        if (!driven[p] && a->k[p * 6 + p] != 0.0) {
            if (elastic_piece(st, interp, objv, d, a, p == 0 ? 1 : 4, a->k[p * 6 + p]))
                return TCL_ERROR;
            npiece++;
        }
    hs_os_element *e = hs_os_find_element(st->m, tag);
    if (e) e->exp_pieces = npiece;
    return TCL_OK;
}

int hs_of_exp_link_aggregate(hs_os_state *st, Tcl_Interp *interp, Tcl_Obj *const objv[],
                             const exp_drive *d, const exp_args *a, const exp_basic *b, double mass,
                             int beam3)
{
    /* the options go to every link's command, which frees the unshared ones after it */
    for (int k = 0; k < a->npass; k++) Tcl_IncrRefCount(a->pass[k]);
    const int rc = aggregate(st, interp, objv, d, a, b, mass, beam3);
    for (int k = 0; k < a->npass; k++) Tcl_DecrRefCount(a->pass[k]);
    return rc;
}
