/* element forceBeamColumn / dispBeamColumn / nonlinearBeamColumn in OpenSees 3.x's forms
 * (SRC/element/forceBeamColumn/ForceBeamColumn2d.cpp's OPS_ functions, dispBeamColumn, read for
 * facts):
 *   element forceBeamColumn tag iNode jNode transfTag integrationTag <-iter maxIter tol> <-mass m>
 *   element forceBeamColumn tag iNode jNode transfTag "Lobatto secTag N" <...>   (inline rule)
 *   element forceBeamColumn tag iNode jNode numIntgrPts secTag transfTag <-integration Rule>
 *                           <-iter maxIter tol> <-mass m>                   (old form: Lobatto)
 *   element nonlinearBeamColumn tag iNode jNode numIntgrPts secTag transfTag <-iter maxIter tol>
 *                           <-mass m> <-integration Rule>
 *   element dispBeamColumn  tag iNode jNode numIntgrPts secTag transfTag <-mass m> <-cMass>
 *                           <-integration Rule> | tag iNode jNode transfTag integrationTag
 * 2-D (ndf 3) and 3-D (ndf 6, with the geomTransf's vecxz). The mass per length is lumped (0.5 m L
 * at each node's translations, as OpenSees without -cMass), or consistent with dispBeamColumn's
 * -cMass (forceBeamColumn has none in OpenSees). */
#include "opensees_tcl.h"

#include <string.h>

static int transf_arg(hs_os_state *st, Tcl_Obj *const objv[], int i, hs_os_element *e)
{
    int tag;
    if (hs_os_int(st, objv, i, "transfTag", &tag)) return TCL_ERROR;
    for (int k = 0; k < st->m->ntransfs; k++)
        if (st->m->transfs[k].tag == tag) {
            e->transf = st->m->transfs[k].kind;
            memcpy(e->vecxz, st->m->transfs[k].vecxz, sizeof e->vecxz);
            return TCL_OK;
        }
    return hs_os_fail(st, objv, "no geomTransf %d (define it first)", tag);
}

/* A rule for this element only (old and inline forms): stored untagged, its index in e->bint. */
static int own_bint(hs_os_state *st, Tcl_Obj *const objv[], const hs_os_bint *b, hs_os_element *e)
{
    hs_os_bint *slot = hs_os_push((void **)&st->m->bints, &st->m->nbints, sizeof *slot);
    if (!slot) return hs_os_fail(st, objv, "out of memory");
    *slot = *b;
    slot->tag = 0;
    e->bint = st->m->nbints - 1;
    return TCL_OK;
}

static int options(hs_os_state *st, int objc, Tcl_Obj *const objv[], int i, hs_os_element *e,
                   const char *rule_override, int *has_rule, char *rule)
{
    for (; i < objc; i++) {
        const char *opt = Tcl_GetString(objv[i]);
        if (strcmp(opt, "-iter") == 0 && e->force_based) {
            if (i + 2 >= objc || hs_os_int(st, objv, i + 1, "maxIter", &e->max_iter) ||
                hs_os_num(st, objv, i + 2, "tol", &e->tol))
                return hs_os_fail(st, objv, "-iter: expected maxIter tol");
            i += 2;
        } else if (strcmp(opt, "-mass") == 0 || strcmp(opt, "-rho") == 0) {
            if (i + 1 >= objc || hs_os_num(st, objv, ++i, "-mass", &e->rho)) return TCL_ERROR;
        } else if (strcmp(opt, "-cMass") == 0 && !e->force_based) {
            e->cmass = 1; /* DispBeamColumn2d/3d: the consistent mass (fe_mass.c) */
        } else if (strcmp(opt, "-integration") == 0 && rule_override) {
            if (i + 1 >= objc) return hs_os_fail(st, objv, "-integration: expected a rule name");
            snprintf(rule, 16, "%s", Tcl_GetString(objv[++i]));
            *has_rule = 1;
        } else {
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (%s knows -mass%s%s)", opt,
                              Tcl_GetString(objv[1]), e->force_based ? ", -iter" : ", -cMass",
                              rule_override ? ", -integration" : "");
        }
    }
    return TCL_OK;
}

static int beam_column(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e,
                       int force_based, int old_only)
{
    e->kind = HS_OS_BEAM_COLUMN;
    e->force_based = force_based;
    e->rayleigh_ok = 1; /* ForceBeamColumn2d, DispBeamColumn2d: Element::getDamp, always */
    if (objc < 7)
        return hs_os_fail(st, objv, "expected 'element %s tag iNode jNode ...'",
                          Tcl_GetString(objv[1]));
    for (int k = 3; k <= 4; k++) {
        int tag;
        if (hs_os_int(st, objv, k, k == 3 ? "iNode" : "jNode", &tag)) return TCL_ERROR;
        if (!hs_os_find_node(st->m, tag))
            return hs_os_fail(st, objv, "no node %d (define it first)", tag);
        *(k == 3 ? &e->ni : &e->nj) = tag;
    }
    if (!(st->m->ndm == 2 && st->m->ndf == 3) && !(st->m->ndm == 3 && st->m->ndf == 6))
        return hs_os_fail(st, objv,
                          "%s in -ndm %d -ndf %d: the element needs -ndf 3 in 2-D, 6 in 3-D",
                          Tcl_GetString(objv[1]), st->m->ndm, st->m->ndf);
    /* the form: old (numIntgrPts secTag transfTag), inline (transfTag "Rule ..."), or new
     * (transfTag integrationTag) */
    int n_list = 0;
    Tcl_Obj **list = NULL;
    if (Tcl_ListObjGetElements(NULL, objv[6], &n_list, &list) != TCL_OK) n_list = 0;
    const int old = old_only || (objc > 7 && Tcl_GetString(objv[7])[0] != '-') ||
                    (n_list == 1 && objc > 7 && Tcl_GetString(objv[7])[0] != '-');
    hs_os_bint b = {0};
    if (old) {
        if (objc < 8)
            return hs_os_fail(st, objv,
                              "expected 'element %s tag iNode jNode numIntgrPts secTag transfTag'",
                              Tcl_GetString(objv[1]));
        int sec;
        if (hs_os_int(st, objv, 5, "numIntgrPts", &b.n) || hs_os_int(st, objv, 6, "secTag", &sec) ||
            transf_arg(st, objv, 7, e))
            return TCL_ERROR;
        if (!hs_os_find_section(st->m, sec))
            return hs_os_fail(st, objv, "no section %d (define it first)", sec);
        if (b.n < 1 || b.n > HS_OS_MAX_IP)
            return hs_os_fail(st, objv, "%d integration points (1 to %d)", b.n, HS_OS_MAX_IP);
        b.sec[0] = sec;
        snprintf(b.rule, sizeof b.rule, "%s", force_based ? "Lobatto" : "Legendre");
        int has_rule = 0;
        if (options(st, objc, objv, 8, e, "x", &has_rule, b.rule)) return TCL_ERROR;
        if (strcmp(b.rule, "Lobatto") && strcmp(b.rule, "Legendre") && strcmp(b.rule, "Radau") &&
            strcmp(b.rule, "NewtonCotes"))
            return hs_os_fail(st, objv,
                              "-integration %s: the old form takes Lobatto, Legendre, Radau or "
                              "NewtonCotes (use beamIntegration for the others)",
                              b.rule);
        return own_bint(st, objv, &b, e);
    }
    if (transf_arg(st, objv, 5, e)) return TCL_ERROR;
    if (n_list > 1) { /* inline: "Rule secTag N" etc. with the tag left out */
        Tcl_Obj *words[3 * HS_OS_MAX_IP + 4];
        if (n_list + 1 > (int)(sizeof words / sizeof words[0]))
            return hs_os_fail(st, objv, "the inline integration has too many words");
        words[0] = list[0];
        words[1] = objv[2]; /* a placeholder tag */
        for (int i = 1; i < n_list; i++) words[i + 1] = list[i];
        if (hs_os_parse_bint(st, n_list + 1, words, objv, &b)) return TCL_ERROR;
        if (options(st, objc, objv, 7, e, NULL, NULL, NULL)) return TCL_ERROR;
        return own_bint(st, objv, &b, e);
    }
    int itag;
    if (hs_os_int(st, objv, 6, "integrationTag", &itag)) return TCL_ERROR;
    e->bint = -1;
    for (int k = 0; k < st->m->nbints; k++)
        if (st->m->bints[k].tag == itag && itag != 0) e->bint = k;
    if (e->bint < 0) return hs_os_fail(st, objv, "no beamIntegration %d (define it first)", itag);
    return options(st, objc, objv, 7, e, NULL, NULL, NULL);
}

int hs_os_el_force_beam_column(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e)
{
    return beam_column(st, objc, objv, e, 1, 0);
}

/* element forceBeamColumnCBDI tag iNode jNode transfTag integrationTag | "Rule ..." <-iter maxIter
 * tol> <-mass m>: 2-D only, as OpenSees' OPS_ForceBeamColumnCBDI2d (ndm 2, ndf 3) */
int hs_os_el_force_beam_column_cbdi(hs_os_state *st, int objc, Tcl_Obj *const objv[],
                                    hs_os_element *e)
{
    if (st->m->ndm != 2 || st->m->ndf != 3)
        return hs_os_fail(st, objv,
                          "forceBeamColumnCBDI needs -ndm 2 -ndf 3 (OpenSees' element is 2-D "
                          "only); this model has -ndm %d -ndf %d",
                          st->m->ndm, st->m->ndf);
    return beam_column(st, objc, objv, e, 2, 0);
}

int hs_os_el_disp_beam_column(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e)
{
    return beam_column(st, objc, objv, e, 0, 0);
}

int hs_os_el_nonlinear_beam_column(hs_os_state *st, int objc, Tcl_Obj *const objv[],
                                   hs_os_element *e)
{
    return beam_column(st, objc, objv, e, 1, 1);
}

int hs_os_add_beam_column(hs_fe *fe, const hs_os_model *m, const hs_os_element *e, const char *name,
                          hs_fe_transf transf)
{
    const hs_os_bint *b = &m->bints[e->bint];
    const int user = strcmp(b->rule, "UserDefined") == 0;
    const hs_fe_section_def *per[HS_OS_MAX_IP] = {0};
    for (int i = 0; user && i < b->n; i++) per[i] = hs_os_find_section(m, b->sec[i])->def;
    const hs_os_section *s1 = hs_os_find_section(m, b->sec[0]);
    const hs_os_section *se = b->sec[1] ? hs_os_find_section(m, b->sec[1]) : NULL;
    const hs_os_section *sj = b->sec[2] ? hs_os_find_section(m, b->sec[2]) : NULL;
    const hs_fe_beam_column_def def = {
        .force_based = e->force_based,
        .integration = b->rule,
        .npoints = b->n,
        .lpI = b->lpI,
        .lpJ = b->lpJ,
        .xi = b->xi,
        .w = b->w,
        .sec = {s1->def, se ? se->def : NULL, sj ? sj->def : NULL},
        .sec_per_point = user ? per : NULL,
        .max_iter = e->max_iter,
        .tol = e->tol,
        .vecxz = {e->vecxz[0], e->vecxz[1], e->vecxz[2]},
    };
    return hs_fe_add_beam_column(fe, name, e->ni, e->nj, &def, transf);
}
