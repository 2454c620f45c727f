/* element beamWithHinges as OpenSees 3.8 builds it (SRC/element/forceBeamColumn/
 * ForceBeamColumn2d.cpp, OPS_BeamWithHinges, read for facts): a force-based beam-column with
 * HingeRadau integration over hinge lengths lpI and lpJ, the end sections secI and secJ at the
 * hinges and an elastic section (E A Iz, 3-D E A Iz Iy G J) inside:
 *   element beamWithHinges tag iNode jNode secI lpI secJ lpJ E A Iz transfTag <-iter maxIter tol>
 *                          <-mass m>                                               (-ndm 2)
 *   element beamWithHinges tag iNode jNode secI lpI secJ lpJ E A Iz Iy G J transfTag <...> (3-D)
 */
#include "opensees_tcl.h"

#include <limits.h>
#include <math.h>
#include <string.h>

int hs_os_el_beam_with_hinges(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e)
{
    const int d3 = st->m->ndm == 3, nprop = d3 ? 6 : 3, last = 9 + nprop; /* transfTag */
    if (!(st->m->ndm == 2 && st->m->ndf == 3) && !(d3 && st->m->ndf == 6))
        return hs_os_fail(st, objv, "beamWithHinges needs -ndm 2 -ndf 3 or -ndm 3 -ndf 6");
    if (objc <= last)
        return hs_os_fail(st, objv,
                          d3 ? "expected 'element beamWithHinges tag iNode jNode secI lpI secJ "
                               "lpJ E A Iz Iy G J transfTag'"
                             : "expected 'element beamWithHinges tag iNode jNode secI lpI secJ "
                               "lpJ E A Iz transfTag'");
    e->kind = HS_OS_BEAM_COLUMN;
    e->force_based = 1;
    e->rayleigh_ok = 1;
    hs_os_bint b = {.n = 6};
    snprintf(b.rule, sizeof b.rule, "HingeRadau");
    double p[6];
    int tt;
    if (hs_os_int(st, objv, 3, "iNode", &e->ni) || hs_os_int(st, objv, 4, "jNode", &e->nj) ||
        hs_os_int(st, objv, 5, "secI", &b.sec[0]) || hs_os_num(st, objv, 6, "lpI", &b.lpI) ||
        hs_os_int(st, objv, 7, "secJ", &b.sec[2]) || hs_os_num(st, objv, 8, "lpJ", &b.lpJ) ||
        hs_os_int(st, objv, last, "transfTag", &tt))
        return TCL_ERROR;
    static const char *const NAMES[6] = {"E", "A", "Iz", "Iy", "G", "J"};
    for (int k = 0; k < nprop; k++)
        if (hs_os_num(st, objv, 9 + k, NAMES[k], &p[k])) return TCL_ERROR;
    for (int k = 3; k <= 4; k++)
        if (!hs_os_find_node(st->m, k == 3 ? e->ni : e->nj))
            return hs_os_fail(st, objv, "no node %d (define it first)", k == 3 ? e->ni : e->nj);
    for (int k = 0; k <= 2; k += 2)
        if (!hs_os_find_section(st->m, b.sec[k]))
            return hs_os_fail(st, objv, "no section %d (define it first)", b.sec[k]);
    const hs_os_node *ni = hs_os_find_node(st->m, e->ni), *nj = hs_os_find_node(st->m, e->nj);
    const double dx = nj->x - ni->x, dy = nj->y - ni->y, dz = nj->z - ni->z;
    const double L = sqrt(dx * dx + dy * dy + dz * dz);
    if (!(b.lpI >= 0.0 && b.lpJ >= 0.0 && 4.0 * (b.lpI + b.lpJ) < L))
        return hs_os_fail(st, objv,
                          "hinge lengths lpI = %g, lpJ = %g on a member of length %g: hysim needs "
                          "4 (lpI + lpJ) < L (OpenSees' HingeRadau would integrate the interior "
                          "with the negative weight 0.5 - 2 (lpI + lpJ) / L = %g)",
                          b.lpI, b.lpJ, L, 0.5 - 2.0 * (b.lpI + b.lpJ) / L);
    const hs_os_transf *t = NULL;
    for (int i = 0; i < st->m->ntransfs; i++)
        if (st->m->transfs[i].tag == tt) t = &st->m->transfs[i];
    if (!t) return hs_os_fail(st, objv, "no geomTransf %d (define it first)", tt);
    e->transf = t->kind;
    memcpy(e->vecxz, t->vecxz, sizeof e->vecxz);
    for (int i = last + 1; i < objc; i++) {
        const char *opt = Tcl_GetString(objv[i]);
        if (!strcmp(opt, "-iter")) {
            if (i + 2 >= objc || hs_os_int(st, objv, i + 1, "maxIter", &e->max_iter) ||
                hs_os_num(st, objv, i + 2, "tol", &e->tol))
                return hs_os_fail(st, objv, "-iter: expected maxIter tol");
            i += 2;
        } else if (!strcmp(opt, "-mass")) {
            if (i + 1 >= objc || hs_os_num(st, objv, ++i, "-mass", &e->rho)) return TCL_ERROR;
        } else
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (beamWithHinges knows -iter "
                              "and -mass)",
                              opt);
    }
    /* the interior: an elastic section of its own (an untagged one, as OpenSees' local) */
    hs_fe_section_def *def = NULL;
    int rc = hs_fe_section_def_create(st->ctx, st->m->ndm, &def);
    if (!rc)
        rc = d3 ? hs_fe_section_def_elastic(def, p[0] * p[1], p[0] * p[2], p[0] * p[3], p[4] * p[5])
                : hs_fe_section_def_elastic(def, p[0] * p[1], p[0] * p[2], 0.0, 0.0);
    hs_os_section *s =
        rc ? NULL : hs_os_push((void **)&st->m->sections, &st->m->nsections, sizeof *s);
    if (!s) {
        hs_fe_section_def_destroy(&def);
        return hs_os_fail(st, objv, "out of memory");
    }
    s->tag = INT_MIN + st->m->nsections; /* no script names it */
    s->def = def;
    hs_os_where(st, s->where, sizeof s->where);
    b.sec[1] = s->tag;
    hs_os_bint *slot = hs_os_push((void **)&st->m->bints, &st->m->nbints, sizeof *slot);
    if (!slot) return hs_os_fail(st, objv, "out of memory");
    *slot = b;
    e->bint = st->m->nbints - 1;
    return TCL_OK;
}
