/* OpenSees' model-building commands in hysim's interpreter (opensees_tcl.h): model, node, fix,
 * fixX, fixY, fixZ, mass, equalDOF, geomTransf and element (truss, elasticBeamColumn, zeroLength),
 * in 1-D, 2-D and 3-D, with the argument order, options and defaults of OpenSees 3.x. */
#include "opensees_tcl.h"

#include <math.h>
#include <string.h>

#define STATE(cd) ((hs_os_state *)(cd))

int hs_os_cmd_model(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    if (objc < 2) return hs_os_fail(st, objv, "expected 'model BasicBuilder -ndm 2 -ndf 3'");
    const char *b = Tcl_GetString(objv[1]);
    if (strcmp(b, "BasicBuilder") != 0 && strcmp(b, "basic") != 0 && strcmp(b, "Basic") != 0 &&
        strcmp(b, "basicBuilder") != 0)
        return hs_os_fail(st, objv, "builder '%s' is not supported; use BasicBuilder", b);
    int ndm = 0, ndf = 0;
    for (int i = 2; i < objc; i += 2) {
        const char *opt = Tcl_GetString(objv[i]);
        if (i + 1 >= objc) return hs_os_fail(st, objv, "%s: expected a value after it", opt);
        if (strcmp(opt, "-ndm") == 0) {
            if (hs_os_int(st, objv, i + 1, "-ndm", &ndm)) return TCL_ERROR;
        } else if (strcmp(opt, "-ndf") == 0) {
            if (hs_os_int(st, objv, i + 1, "-ndf", &ndf)) return TCL_ERROR;
        } else
            return hs_os_fail(st, objv, "unknown option '%s' (hysim knows -ndm and -ndf)", opt);
    }
    if (ndf == 0) ndf = ndm == 1 ? 1 : ndm == 2 ? 3 : 6; /* OpenSees' defaults */
    if (!((ndm == 1 && ndf == 1) || (ndm == 2 && (ndf == 2 || ndf == 3)) ||
          (ndm == 3 && (ndf == 3 || ndf == 6))))
        return hs_os_fail(st, objv,
                          "-ndm %d -ndf %d: hysim builds -ndm 1 -ndf 1, -ndm 2 with -ndf 3 "
                          "(frames) or -ndf 2 (trusses), -ndm 3 with -ndf 6 (frames) or -ndf 3 "
                          "(trusses)",
                          ndm, ndf);
    if (st->m->ndm && (st->m->ndm != ndm || st->m->ndf != ndf))
        return hs_os_fail(st, objv,
                          "the model was -ndm %d -ndf %d; hysim builds one kind of node per model",
                          st->m->ndm, st->m->ndf);
    st->m->ndm = ndm;
    st->m->ndf = ndf;
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/* Reads ndf numbers from objv[i..] into v (the rest 0). */
static int dof_values(hs_os_state *st, Tcl_Obj *const objv[], int objc, int i, const char *what,
                      double v[HS_OS_NDF])
{
    const int ndf = st->m->ndf;
    for (int d = 0; d < HS_OS_NDF; d++) v[d] = 0.0;
    if (objc - i < ndf)
        return hs_os_fail(st, objv, "%s: expected %d values (one per DOF, -ndf %d)", what, ndf,
                          ndf);
    for (int d = 0; d < ndf; d++)
        if (hs_os_num(st, objv, i + d, what, &v[d])) return TCL_ERROR;
    return TCL_OK;
}

static int node_arg(hs_os_state *st, Tcl_Obj *const objv[], int i, const char *what,
                    hs_os_node **out)
{
    int tag;
    if (hs_os_int(st, objv, i, what, &tag)) return TCL_ERROR;
    *out = hs_os_find_node(st->m, tag);
    if (!*out)
        return hs_os_fail(st, objv, "%s: no node %d (define it with 'node' first)", what, tag);
    return TCL_OK;
}

static int set_mass(hs_os_state *st, Tcl_Obj *const objv[], hs_os_node *n,
                    const double v[HS_OS_NDF])
{
    for (int d = 0; d < HS_OS_NDF; d++)
        if (!(v[d] >= 0.0) || !isfinite(v[d]))
            return hs_os_fail(st, objv, "node %d: a mass must be >= 0 (got %g)", n->tag, v[d]);
    /* OpenSees' DOF order: -ndf 3 masses are ux, uy, rz; -ndf 6 ux, uy, uz, rx, ry, rz */
    for (int d = 0; d < HS_OS_NDF; d++) n->mass[d] = v[d];
    return TCL_OK;
}

int hs_os_cmd_node(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    if (!hs_os_need_model(st, objv)) return TCL_ERROR;
    const int ndm = st->m->ndm;
    static const char *const CRD[3] = {"x", "y", "z"};
    if (objc < 2 + ndm)
        return hs_os_fail(st, objv, "expected 'node tag %s <-mass m...>' (-ndm %d)",
                          ndm == 1   ? "x"
                          : ndm == 2 ? "x y"
                                     : "x y z",
                          ndm);
    int tag;
    double crd[3] = {0, 0, 0}, x;
    if (hs_os_int(st, objv, 1, "tag", &tag)) return TCL_ERROR;
    for (int a = 0; a < ndm; a++)
        if (hs_os_num(st, objv, 2 + a, CRD[a], &crd[a])) return TCL_ERROR;
    if (hs_os_find_node(st->m, tag)) return hs_os_fail(st, objv, "node %d is already defined", tag);
    double mass[HS_OS_NDF] = {0};
    int has_mass = 0;
    for (int i = 2 + ndm; i < objc;) {
        const char *opt = Tcl_GetString(objv[i]);
        if (strcmp(opt, "-mass") == 0) {
            if (dof_values(st, objv, objc, i + 1, "-mass", mass)) return TCL_ERROR;
            has_mass = 1;
            i += 1 + st->m->ndf;
        } else if (Tcl_GetDoubleFromObj(NULL, objv[i], &x) == TCL_OK)
            return hs_os_fail(st, objv, "-ndm %d takes %d coordinates, got another ('%s')", ndm,
                              ndm, opt);
        else
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (node knows -mass; initial "
                              "conditions -disp, -vel are not modelled)",
                              opt);
    }
    hs_os_node *n = hs_os_push((void **)&st->m->nodes, &st->m->nnodes, sizeof *n);
    if (!n) return hs_os_fail(st, objv, "out of memory");
    if (tag > st->m->node_tag_max) st->m->node_tag_max = tag;
    n->tag = tag;
    n->x = crd[0];
    n->y = crd[1];
    n->z = crd[2];
    hs_os_where(st, n->where, sizeof n->where);
    if (has_mass && set_mass(st, objv, n, mass)) return TCL_ERROR;
    Tcl_ResetResult(interp);
    return TCL_OK;
}

int hs_os_cmd_mass(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    hs_os_node *n;
    double v[HS_OS_NDF];
    if (!hs_os_need_model(st, objv)) return TCL_ERROR;
    if (objc != 2 + st->m->ndf)
        return hs_os_fail(st, objv, "expected 'mass node m1 ... m%d' (-ndf %d)", st->m->ndf,
                          st->m->ndf);
    if (node_arg(st, objv, 1, "node", &n) || dof_values(st, objv, objc, 2, "mass", v) ||
        set_mass(st, objv, n, v))
        return TCL_ERROR;
    Tcl_ResetResult(interp);
    return TCL_OK;
}

static int fix_flags(hs_os_state *st, Tcl_Obj *const objv[], int objc, int i, int fix[HS_OS_NDF])
{
    double v[HS_OS_NDF];
    if (dof_values(st, objv, objc, i, "fixity", v)) return TCL_ERROR;
    for (int d = 0; d < HS_OS_NDF; d++) {
        if (v[d] != 0.0 && v[d] != 1.0)
            return hs_os_fail(st, objv, "a fixity is 0 (free) or 1 (fixed), got %g", v[d]);
        fix[d] = v[d] != 0.0;
    }
    return TCL_OK;
}

int hs_os_cmd_fix(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    hs_os_node *n;
    int fix[HS_OS_NDF];
    if (!hs_os_need_model(st, objv)) return TCL_ERROR;
    if (objc != 2 + st->m->ndf)
        return hs_os_fail(st, objv, "expected 'fix node f1 ... f%d' (-ndf %d)", st->m->ndf,
                          st->m->ndf);
    if (node_arg(st, objv, 1, "node", &n) || fix_flags(st, objv, objc, 2, fix)) return TCL_ERROR;
    for (int d = 0; d < HS_OS_NDF; d++) n->fix[d] |= fix[d];
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/* fixX x f... <-tol tol>, fixY y f..., fixZ z f...: every node at that coordinate (OpenSees'
 * default tolerance 1e-10). */
static int fix_at(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[], int axis)
{
    hs_os_state *st = STATE(cd);
    double c, tol = 1e-10;
    int fix[HS_OS_NDF];
    if (!hs_os_need_model(st, objv)) return TCL_ERROR;
    if (axis >= st->m->ndm)
        return hs_os_fail(st, objv, "a -ndm %d model has no coordinate %s", st->m->ndm,
                          axis == 1 ? "y" : "z");
    const int ndf = st->m->ndf;
    const int has_tol = objc == 4 + ndf && strcmp(Tcl_GetString(objv[2 + ndf]), "-tol") == 0;
    if (objc != 2 + ndf && !has_tol)
        return hs_os_fail(st, objv, "expected '%s coordinate f1 ... f%d <-tol tol>'",
                          Tcl_GetString(objv[0]), ndf);
    if (hs_os_num(st, objv, 1, "coordinate", &c) || fix_flags(st, objv, objc, 2, fix) ||
        (has_tol && hs_os_num(st, objv, 3 + ndf, "-tol", &tol)))
        return TCL_ERROR;
    int count = 0;
    for (int i = 0; i < st->m->nnodes; i++) {
        hs_os_node *n = &st->m->nodes[i];
        if (fabs((axis == 0 ? n->x : axis == 1 ? n->y : n->z) - c) > tol) continue;
        for (int d = 0; d < HS_OS_NDF; d++) n->fix[d] |= fix[d];
        count++;
    }
    Tcl_SetObjResult(interp, Tcl_NewIntObj(count));
    return TCL_OK;
}

int hs_os_cmd_fix_x(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    return fix_at(cd, interp, objc, objv, 0);
}

int hs_os_cmd_fix_y(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    return fix_at(cd, interp, objc, objv, 1);
}

int hs_os_cmd_fix_z(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    return fix_at(cd, interp, objc, objv, 2);
}

int hs_os_cmd_equal_dof(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    hs_os_node *master, *slave;
    if (!hs_os_need_model(st, objv)) return TCL_ERROR;
    if (objc < 4) return hs_os_fail(st, objv, "expected 'equalDOF rNode cNode dof1 <dof2 ...>'");
    if (node_arg(st, objv, 1, "rNode", &master) || node_arg(st, objv, 2, "cNode", &slave))
        return TCL_ERROR;
    hs_os_equal *e = hs_os_push((void **)&st->m->equals, &st->m->nequals, sizeof *e);
    if (!e) return hs_os_fail(st, objv, "out of memory");
    e->master = master->tag;
    e->slave = slave->tag;
    hs_os_where(st, e->where, sizeof e->where);
    for (int i = 3; i < objc; i++) {
        int dof;
        if (hs_os_int(st, objv, i, "dof", &dof)) return st->m->nequals--, TCL_ERROR;
        if (dof < 1 || dof > st->m->ndf)
            return st->m->nequals--, hs_os_fail(st, objv, "dof %d: expected 1 to %d (-ndf %d)", dof,
                                                st->m->ndf, st->m->ndf);
        e->dofs[dof - 1] = 1;
    }
    Tcl_ResetResult(interp);
    return TCL_OK;
}

int hs_os_cmd_geom_transf(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    if (!hs_os_need_model(st, objv)) return TCL_ERROR;
    if (objc < 3)
        return hs_os_fail(st, objv, "expected 'geomTransf Linear|PDelta|Corotational tag'");
    const char *type = Tcl_GetString(objv[1]);
    hs_fe_transf kind;
    if (strcmp(type, "Linear") == 0 || strcmp(type, "LinearCrdTransf") == 0)
        kind = HS_FE_LINEAR;
    else if (strcmp(type, "PDelta") == 0 || strcmp(type, "LinearWithPDelta") == 0)
        kind = HS_FE_PDELTA;
    else if (strcmp(type, "Corotational") == 0)
        kind = HS_FE_COROTATIONAL;
    else
        return hs_os_fail(st, objv,
                          "type '%s' is not supported (hysim has Linear, PDelta, "
                          "Corotational)",
                          type);
    int tag;
    double vecxz[3] = {0, 0, 0};
    if (hs_os_int(st, objv, 2, "tag", &tag)) return TCL_ERROR;
    int i = 3;
    if (st->m->ndm == 3) { /* geomTransf TYPE tag vecxzX vecxzY vecxzZ */
        if (objc < 6)
            return hs_os_fail(st, objv,
                              "expected 'geomTransf %s tag vecxzX vecxzY vecxzZ' (a 3-D "
                              "transformation needs the vector xz)",
                              type);
        for (; i < 6; i++)
            if (hs_os_num(st, objv, i, "vecxz", &vecxz[i - 3])) return TCL_ERROR;
    }
    if (objc > i) {
        const char *opt = Tcl_GetString(objv[i]);
        if (opt[0] != '-')
            return hs_os_fail(st, objv,
                              "a vector xz ('%s ...') belongs to 3-D models (-ndm 3); a plane "
                              "transformation takes none",
                              opt);
        return hs_os_fail(st, objv, "option '%s' is not supported by hysim (no joint offsets)",
                          opt);
    }
    for (int k = 0; k < st->m->ntransfs; k++)
        if (st->m->transfs[k].tag == tag)
            return hs_os_fail(st, objv, "transformation %d is already defined", tag);
    hs_os_transf *t = hs_os_push((void **)&st->m->transfs, &st->m->ntransfs, sizeof *t);
    if (!t) return hs_os_fail(st, objv, "out of memory");
    t->tag = tag;
    t->kind = kind;
    memcpy(t->vecxz, vecxz, sizeof vecxz);
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/* --- element TYPE tag ... : one function per type --- */

typedef int element_fn(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e);

/* The tag's two nodes at objv[3], objv[4]. */
static int two_nodes(hs_os_state *st, Tcl_Obj *const objv[], hs_os_element *e)
{
    hs_os_node *ni, *nj;
    if (node_arg(st, objv, 3, "iNode", &ni) || node_arg(st, objv, 4, "jNode", &nj))
        return TCL_ERROR;
    e->ni = ni->tag;
    e->nj = nj->tag;
    return TCL_OK;
}

/* An option's flag value (-doRayleigh 1, -cMass 1). */
static int flag_value(hs_os_state *st, Tcl_Obj *const objv[], int objc, int i, int *out)
{
    if (i + 1 >= objc) return hs_os_fail(st, objv, "%s: expected a value", Tcl_GetString(objv[i]));
    return hs_os_int(st, objv, i + 1, Tcl_GetString(objv[i]), out);
}

/* element truss tag iNode jNode secTag <options>: a section whose axial response is elastic
 * is the elastic truss of E A = its axial stiffness; one whose axial response is one material
 * (section Uniaxial on P, fibers of one material) the truss of that material and area (OpenSees'
 * TrussSection strains the section axially only, SRC/element/truss/TrussSection.cpp). */
static int truss_section(hs_os_state *st, Tcl_Obj *const objv[], hs_os_element *e)
{
    int tag;
    if (two_nodes(st, objv, e) || hs_os_int(st, objv, 5, "secTag", &tag)) return TCL_ERROR;
    const hs_os_section *sec = hs_os_find_section(st->m, tag);
    if (!sec) return hs_os_fail(st, objv, "no section %d (define it first)", tag);
    double EA = 0.0;
    const int linear = hs_fe_section_def_axial(sec->def, &EA);
    if (linear < 0) return hs_os_fail(st, objv, "section %d: %s", tag, hs_ctx_message(st->ctx));
    if (linear) {
        e->E = EA;
        e->A = 1.0;
        return TCL_OK;
    }
    const char *type;
    const hs_options *opts;
    if (!hs_fe_section_def_axial_material(sec->def, &type, &opts, &e->A))
        return hs_os_fail(st, objv,
                          "not yet supported by hysim: a truss of section %d, whose axial "
                          "response is neither elastic nor one uniaxial material (fibers of "
                          "several materials); give the truss a uniaxial material: 'element "
                          "truss tag iNode jNode A matTag'",
                          tag);
    if (tag <= 0) return hs_os_fail(st, objv, "section %d: hysim needs a tag >= 1 here", tag);
    e->section = tag; /* its material (opensees_fe.c) */
    return TCL_OK;
}

/* element truss tag iNode jNode A matTag <-rho rho> <-cMass flag> <-doRayleigh flag>, or the
 * section form tag iNode jNode secTag <options> (OpenSees tells them by the count of words) */
int hs_os_el_truss(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e)
{
    const int section = (objc - 2) % 2 == 0;
    if (objc < 6)
        return hs_os_fail(st, objv,
                          "expected 'element truss tag iNode jNode A matTag <-rho rho> "
                          "<-cMass flag> <-doRayleigh flag>' or 'element truss tag iNode jNode "
                          "secTag <options>'");
    int mat;
    if (section) {
        if (truss_section(st, objv, e)) return TCL_ERROR;
    } else {
        if (two_nodes(st, objv, e) || hs_os_num(st, objv, 5, "A", &e->A) ||
            hs_os_int(st, objv, 6, "matTag", &mat))
            return TCL_ERROR;
        const hs_os_material *m = hs_os_find_material(st->m, mat);
        if (!m) return hs_os_fail(st, objv, "no uniaxialMaterial %d (define it first)", mat);
        if (strcmp(m->type, "elastic") != 0 || hs_options_has(m->opts, "eta") ||
            hs_options_has(m->opts, "Eneg")) { /* a truss of its material (src/fe/fe_truss.c) */
            e->nmat = 1;
            e->mat[0] = mat;
        } else
            e->E = hs_options_num(m->opts, "k", 0.0);
    }
    e->kind = HS_OS_TRUSS;
    e->transf = HS_FE_LINEAR;
    for (int i = section ? 6 : 7; i < objc; i += 2) {
        const char *opt = Tcl_GetString(objv[i]);
        int flag = 0;
        if (strcmp(opt, "-rho") == 0) {
            if (i + 1 >= objc || hs_os_num(st, objv, i + 1, "-rho", &e->rho)) return TCL_ERROR;
        } else if (strcmp(opt, "-doRayleigh") == 0) {
            if (flag_value(st, objv, objc, i, &flag)) return TCL_ERROR;
            e->rayleigh_ok = flag != 0;
        } else if (strcmp(opt, "-cMass") == 0) {
            if (flag_value(st, objv, objc, i, &flag)) return TCL_ERROR;
            e->cmass = flag != 0;
        } else
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (truss knows -rho, "
                              "-cMass, -doRayleigh)",
                              opt);
    }
    return TCL_OK;
}

/* element corotTruss: the truss with the corotational transformation (OpenSees' CorotTruss:
 * engineering strain (Ln - L) / L of the current chord, as hysim's) */
static int el_corot_truss(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e)
{
    if (hs_os_el_truss(st, objc, objv, e)) return TCL_ERROR;
    e->transf = HS_FE_COROTATIONAL;
    return TCL_OK;
}

/* element elasticBeamColumn tag iNode jNode A E Iz transfTag <-mass m> <-cMass> <-release r>, in
 * 3-D element elasticBeamColumn tag iNode jNode A E G J Iy Iz transfTag <-mass m> <-cMass>
 * <-releasez r> <-releasey r> (the releases: opensees_tcl_eleload.c) */
static int el_beam(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e)
{
    const int d3 = st->m->ndm == 3, next = d3 ? 12 : 9;
    if (st->m->ndf != (d3 ? 6 : 3))
        return hs_os_fail(st, objv,
                          "a beam-column needs the rotations: -ndm %d -ndf %d (this model is "
                          "-ndf %d)",
                          st->m->ndm, d3 ? 6 : 3, st->m->ndf);
    if (objc < next)
        return hs_os_fail(st, objv,
                          d3 ? "expected 'element elasticBeamColumn tag iNode jNode A E G J Iy Iz "
                               "transfTag <-mass m> <-cMass>' (the section form is not supported)"
                             : "expected 'element elasticBeamColumn tag iNode jNode A E Iz "
                               "transfTag <-mass m> <-cMass>' (the section form is not supported)");
    int tt;
    if (two_nodes(st, objv, e) || hs_os_num(st, objv, 5, "A", &e->A) ||
        hs_os_num(st, objv, 6, "E", &e->E))
        return TCL_ERROR;
    if (d3 ? (hs_os_num(st, objv, 7, "G", &e->G) || hs_os_num(st, objv, 8, "J", &e->J) ||
              hs_os_num(st, objv, 9, "Iy", &e->Iy) || hs_os_num(st, objv, 10, "Iz", &e->I))
           : hs_os_num(st, objv, 7, "Iz", &e->I))
        return TCL_ERROR;
    if (hs_os_int(st, objv, next - 1, "transfTag", &tt)) return TCL_ERROR;
    const hs_os_transf *t = NULL;
    for (int i = 0; i < st->m->ntransfs; i++)
        if (st->m->transfs[i].tag == tt) t = &st->m->transfs[i];
    if (!t) return hs_os_fail(st, objv, "no geomTransf %d (define it first)", tt);
    e->kind = HS_OS_BEAM;
    e->transf = t->kind;
    memcpy(e->vecxz, t->vecxz, sizeof e->vecxz);
    e->rayleigh_ok = 1; /* ElasticBeam2d and 3d always take the Rayleigh factors */
    for (int i = next; i < objc; i++) {
        const char *opt = Tcl_GetString(objv[i]);
        if (strcmp(opt, "-mass") == 0) {
            if (i + 1 >= objc || hs_os_num(st, objv, ++i, "-mass", &e->rho)) return TCL_ERROR;
        } else if (strcmp(opt, "-cMass") == 0) {
            e->cmass = 1; /* ElasticBeam2d: the flag alone */
        } else if (strcmp(opt, "-lMass") == 0) {
            e->cmass = 0; /* lumped, the default (newer OpenSees' flag; PortalFrame2d.tcl) */
        } else if (!strcmp(opt, "-release") || !strcmp(opt, "-releasez") ||
                   !strcmp(opt, "-releasey")) {
            if (hs_os_el_beam_release(st, objc, objv, i++, e)) return TCL_ERROR;
        } else if (strcmp(opt, "-lMass") == 0) {
            e->cmass = 0; /* lumped, the default */
        } else if (opt[0] == '-' && Tcl_GetDoubleFromObj(NULL, objv[i], &(double){0}) != TCL_OK)
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (elasticBeamColumn "
                              "knows -mass, -cMass and -lMass)",
                              opt);
        else { /* OpenSees' ElasticBeam2d/3d parsers skip any other word */
            char where[HS_OS_WHERE];
            hs_log(st->ctx, HS_LOG_WARN, "%s: element %d: '%s' ignored (as OpenSees ignores it)",
                   hs_os_where(st, where, sizeof where), e->tag, opt);
        }
    }
    return TCL_OK;
}

/* `-mat m1 ... -dir` of a zeroLength or twoNodeLink (`type`): at most `max` materials (else the
 * message `too_many`), each defined already; *first_dir: the word after -dir (or -dof). */
static int material_list(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e,
                         int max, const char *type, const char *too_many, int *first_dir)
{
    int i = 5;
    if (i >= objc || strcmp(Tcl_GetString(objv[i]), "-mat") != 0)
        return hs_os_fail(st, objv, "expected 'element %s tag iNode jNode -mat m1 ... -dir d1 ...'",
                          type);
    for (i++; i < objc && Tcl_GetString(objv[i])[0] != '-'; i++) {
        if (e->nmat == max) return hs_os_fail(st, objv, "%s", too_many);
        int tag;
        if (hs_os_int(st, objv, i, "-mat", &tag)) return TCL_ERROR;
        if (!hs_os_find_material(st->m, tag))
            return hs_os_fail(st, objv, "no uniaxialMaterial %d (define it first)", tag);
        e->mat[e->nmat++] = tag;
    }
    if (i >= objc || (strcmp(Tcl_GetString(objv[i]), "-dir") != 0 &&
                      strcmp(Tcl_GetString(objv[i]), "-dof") != 0))
        return hs_os_fail(st, objv, "expected -dir d1 ... after the materials");
    *first_dir = i + 1;
    return TCL_OK;
}

/* A 2-D zeroLength turned in its plane (-orient x <yp>, x and yp in the plane, z = x cross yp
 * along +z) between coincident nodes is OpenSees' twoNodeLink of zero length with the same local
 * axes (ZeroLength.cpp and TwoNodeLink.cpp: y = z cross x; at L = 0 the shear carries no moment):
 * its directions 1, 2 (and 6, the rotation) become the link's 1, 2, 3. Others: refused. */
static int zero_length_as_link(hs_os_state *st, Tcl_Obj *const objv[], hs_os_element *e,
                               const double v[6], int k)
{
    const hs_os_node *ni = hs_os_find_node(st->m, e->ni), *nj = hs_os_find_node(st->m, e->nj);
    const double z = k == 6 ? v[0] * v[4] - v[1] * v[3] : 1.0;
    if (st->m->ndm != 2 || v[2] != 0.0 || (k == 6 && v[5] != 0.0) || z <= 0.0 || ni->x != nj->x ||
        ni->y != nj->y)
        return hs_os_fail(st, objv,
                          "not yet supported by hysim: a zeroLength oriented other than along the "
                          "global axes, unless turned in the plane of a 2-D model between "
                          "coincident nodes");
    e->kind = HS_OS_LINK;
    e->has_orient = 1;
    for (int c = 0; c < 3; c++) e->orient[c] = v[c];
    e->shear_dist = e->shear_dist_z = 0.5; /* the directions keep their numbers (HS_FE_RZ 2) */
    return TCL_OK;
}

/* element zeroLength tag iNode jNode -mat m1 ... -dir d1 ... <-doRayleigh flag> */
static int el_zero_length(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e)
{
    if (two_nodes(st, objv, e)) return TCL_ERROR;
    e->kind = HS_OS_ZERO_LENGTH;
    int i = 0, ndir = 0;
    char many[64];
    snprintf(many, sizeof many, "at most %d materials", HS_OS_MAX_DIRS);
    if (material_list(st, objc, objv, e, HS_OS_MAX_DIRS, "zeroLength", many, &i)) return TCL_ERROR;
    for (; i < objc && Tcl_GetString(objv[i])[0] != '-'; i++) {
        int d;
        if (hs_os_int(st, objv, i, "-dir", &d)) return TCL_ERROR;
        if (ndir == e->nmat) return hs_os_fail(st, objv, "more directions than materials");
        /* OpenSees in 3-D (and 1-D): direction d is the node's DOF d (1 to ndf: ux, uy, uz, rx,
         * ry, rz). In 2-D: 1, 2 translations along x, y; 6 the rotation about z (3 would be a
         * translation along z, 4 and 5 rotations about x and y: nothing in a plane model) */
        if (st->m->ndm != 2) {
            if (d < 1 || d > st->m->ndf)
                return hs_os_fail(st, objv, "-dir %d: expected 1 to %d (-ndm %d -ndf %d)", d,
                                  st->m->ndf, st->m->ndm, st->m->ndf);
            e->dir[ndir++] = d - 1;
        } else if (d == 1 || d == 2)
            e->dir[ndir++] = d - 1;
        else if (d == 6 && st->m->ndf == 3)
            e->dir[ndir++] = HS_FE_RZ;
        else
            return hs_os_fail(st, objv,
                              "-dir %d acts on nothing in a plane model (-ndf %d): the "
                              "directions are 1 (x), 2 (y)%s",
                              d, st->m->ndf, st->m->ndf == 3 ? " and 6 (rotation about z)" : "");
    }
    if (ndir != e->nmat)
        return hs_os_fail(st, objv, "%d materials but %d directions", e->nmat, ndir);
    for (; i < objc; i++) {
        const char *opt = Tcl_GetString(objv[i]);
        if (strcmp(opt, "-doRayleigh") == 0) {
            int flag = 1; /* OpenSees: the flag alone means 1 */
            if (i + 1 < objc && Tcl_GetIntFromObj(NULL, objv[i + 1], &flag) == TCL_OK) i++;
            e->rayleigh_ok = flag != 0;
        } else if (strcmp(opt, "-orient") == 0) {
            double v[6] = {1, 0, 0, 0, 1, 0};
            int k = 0;
            for (;
                 k < 6 && i + 1 < objc && Tcl_GetDoubleFromObj(NULL, objv[i + 1], &v[k]) == TCL_OK;
                 k++, i++) {
            }
            if (k != 3 && k != 6)
                return hs_os_fail(st, objv, "-orient: expected x1 x2 x3 <yp1 yp2 yp3>");
            if (!(v[0] > 0 && v[1] == 0 && v[2] == 0 &&
                  (k == 3 || (v[3] == 0 && v[4] > 0 && v[5] == 0)))) {
                if (zero_length_as_link(st, objv, e, v, k)) return TCL_ERROR;
            }
        } else
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (zeroLength knows "
                              "-doRayleigh and -orient along the global axes)",
                              opt);
    }
    return TCL_OK;
}

/* The local directions of a twoNodeLink in this model (OpenSees: 1 to ndf). */
static const char *link_dirs(const hs_os_model *m)
{
    return m->ndm == 1 ? "1 (axial)"
           : m->ndm == 2
               ? (m->ndf == 2 ? "1 (axial) and 2 (shear)" : "1 (axial), 2 (shear) and 3 (moment)")
           : m->ndf == 3 ? "1 (axial), 2 (shear along local y) and 3 (shear along local z)"
                         : "1 (axial), 2 and 3 (shear along local y, z), 4 (torsion), 5 and 6 "
                           "(moments about local y, z)";
}

/* -orient x1 x2 x3 <yp1 yp2 yp3> (OpenSees: three numbers are local x in 1-D and 2-D, the vector
 * yp in 3-D with x along the nodes), -pDelta Mratios and -shearDist sDy <sDz> (two and one
 * numbers in 2-D, four and two else). */
static int link_option(hs_os_state *st, int objc, Tcl_Obj *const objv[], int *i, hs_os_element *e)
{
    const char *opt = Tcl_GetString(objv[*i]);
    if (strcmp(opt, "-orient") == 0) {
        double v[6];
        int k = 0;
        for (; k < 6 && *i + 1 < objc && Tcl_GetDoubleFromObj(NULL, objv[*i + 1], &v[k]) == TCL_OK;
             k++, (*i)++) {
        }
        if (k != 3 && k != 6)
            return hs_os_fail(st, objv,
                              "-orient: expected x1 x2 x3 <yp1 yp2 yp3> (%s), got %d numbers",
                              st->m->ndm == 3 ? "in 3-D three numbers are yp, local x then runs "
                                                "from iNode to jNode"
                                              : "local x, then a vector in the local x-y plane",
                              k);
        const int yp_only = k == 3 && st->m->ndm == 3;
        e->has_orient = !yp_only;
        for (int c = 0; c < 3 && !yp_only; c++) e->orient[c] = v[c];
        e->has_yp = k == 6 || yp_only;
        for (int c = 0; c < 3 && e->has_yp; c++) e->yp[c] = v[k - 3 + c];
        return TCL_OK;
    }
    if (strcmp(opt, "-shearDist") == 0) {
        const int n = st->m->ndm == 2 ? 1 : 2;
        for (int c = 0; c < n; c++) {
            double *sd = c == 0 ? &e->shear_dist : &e->shear_dist_z;
            if (*i + 1 >= objc || Tcl_GetDoubleFromObj(NULL, objv[*i + 1], sd) != TCL_OK)
                return n == 1 ? hs_os_fail(st, objv,
                                           "-shearDist: expected sDratio (a fraction of the length "
                                           "from iNode, 0 to 1)")
                              : hs_os_fail(st, objv,
                                           "-shearDist: expected sDy sDz (two numbers in -ndm %d: "
                                           "fractions of the length from iNode, 0 to 1)",
                                           st->m->ndm);
            (*i)++;
        }
        return TCL_OK;
    }
    if (strcmp(opt, "-pDelta") == 0) { /* OpenSees: two numbers in 2-D (about z), four else */
        const int n = st->m->ndm == 2 ? 2 : 4;
        e->has_p_delta = 1;
        for (int c = 4 - n; c < 4; c++, (*i)++)
            if (*i + 1 >= objc ||
                Tcl_GetDoubleFromObj(NULL, objv[*i + 1], &e->p_delta[c]) != TCL_OK)
                return n == 2 ? hs_os_fail(st, objv,
                                           "-pDelta: expected Mratios (two numbers in -ndm 2: the "
                                           "P-Delta moment ratios about local z at iNode and "
                                           "jNode)")
                              : hs_os_fail(st, objv,
                                           "-pDelta: expected Mratios (four numbers in -ndm %d: "
                                           "the P-Delta moment ratios about local y at iNode, "
                                           "jNode, then about local z)",
                                           st->m->ndm);
        return TCL_OK;
    }
    if (strcmp(opt, "-doRayleigh") == 0) {
        int flag = 1; /* the flag alone means 1 */
        if (*i + 1 < objc && Tcl_GetIntFromObj(NULL, objv[*i + 1], &flag) == TCL_OK) (*i)++;
        e->rayleigh_ok = flag != 0;
        return TCL_OK;
    }
    if (strcmp(opt, "-mass") == 0)
        return *i + 1 >= objc ? hs_os_fail(st, objv, "-mass: expected the element's mass")
                              : hs_os_num(st, objv, ++(*i), "-mass", &e->mass);
    return hs_os_fail(st, objv,
                      "option '%s' is not supported by hysim (twoNodeLink knows -orient, "
                      "-pDelta, -shearDist, -doRayleigh, -mass)",
                      opt);
}

/* element twoNodeLink tag iNode jNode -mat m1 ... -dir d1 ... <-orient <x1 x2 x3> yp1 yp2 yp3>
 * <-pDelta Mratios> <-shearDist sDy <sDz>> <-doRayleigh> <-mass m>: directions 1 to ndf in the
 * local frame */
static int el_link(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e)
{
    if (two_nodes(st, objv, e)) return TCL_ERROR;
    e->kind = HS_OS_LINK;
    e->shear_dist = e->shear_dist_z = 0.5;
    int i = 0, ndir = 0;
    char many[160];
    snprintf(many, sizeof many, "at most %d materials (-ndf %d: directions %s)", st->m->ndf,
             st->m->ndf, link_dirs(st->m));
    if (material_list(st, objc, objv, e, st->m->ndf, "twoNodeLink", many, &i)) return TCL_ERROR;
    for (; i < objc && Tcl_GetString(objv[i])[0] != '-'; i++) {
        int d;
        if (hs_os_int(st, objv, i, "-dir", &d)) return TCL_ERROR;
        if (ndir == e->nmat) return hs_os_fail(st, objv, "more directions than materials");
        if (d < 1 || d > st->m->ndf)
            return hs_os_fail(st, objv,
                              "-dir %d: a twoNodeLink in -ndm %d -ndf %d has the local directions "
                              "%s",
                              d, st->m->ndm, st->m->ndf, link_dirs(st->m));
        e->dir[ndir++] = d - 1;
    }
    if (ndir != e->nmat)
        return hs_os_fail(st, objv, "%d materials but %d directions", e->nmat, ndir);
    for (; i < objc; i++)
        if (link_option(st, objc, objv, &i, e) != TCL_OK) return TCL_ERROR;
    return TCL_OK;
}

static const struct {
    const char *name;
    element_fn *fn;
} element_types[] = {
    {"truss", hs_os_el_truss},
    {"Truss", hs_os_el_truss},
    {"Truss2", hs_os_el_truss2},
    {"TripleFrictionPendulumX", hs_os_el_tfp_x},
    {"corotTruss", el_corot_truss},
    {"CorotTruss", el_corot_truss},
    {"elasticBeamColumn", el_beam},
    {"ElasticBeamColumn", el_beam},
    {"elasticBeam", el_beam},
    {"zeroLength", el_zero_length},
    {"ZeroLength", el_zero_length},
    {"twoNodeLink", el_link},
    {"TwoNodeLink", el_link},
    {"forceBeamColumn", hs_os_el_force_beam_column},
    {"forceBeamColumnCBDI", hs_os_el_force_beam_column_cbdi},
    {"dispBeamColumn", hs_os_el_disp_beam_column},
    {"nonlinearBeamColumn", hs_os_el_nonlinear_beam_column},
    {"beamWithHinges", hs_os_el_beam_with_hinges},
    {"zeroLengthSection", hs_os_el_zero_length_section},
    {"CoupledZeroLength", hs_os_el_coupled_zero_length},
    {"elastomericBearingPlasticity", hs_os_el_bearing_plasticity},
};

int hs_os_cmd_element(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)interp; /* st->interp (hs_os_add_element) */
    hs_os_state *st = STATE(cd);
    if (!hs_os_need_model(st, objv)) return TCL_ERROR;
    if (objc < 5) return hs_os_fail(st, objv, "expected 'element type tag iNode jNode ...'");
    const char *type = Tcl_GetString(objv[1]);
    element_fn *fn = NULL;
    for (size_t k = 0; k < sizeof element_types / sizeof element_types[0]; k++)
        if (strcmp(type, element_types[k].name) == 0) fn = element_types[k].fn;
    if (!fn)
        return hs_os_fail(
            st, objv,
            "type '%s' is not supported by hysim (it has truss, Truss2, TripleFrictionPendulumX, "
            "elasticBeamColumn, zeroLength, zeroLengthSection, CoupledZeroLength, "
            "twoNodeLink, elastomericBearingPlasticity, forceBeamColumn, forceBeamColumnCBDI, "
            "dispBeamColumn, "
            "nonlinearBeamColumn and beamWithHinges)",
            type);
    int tag;
    if (hs_os_int(st, objv, 2, "tag", &tag)) return TCL_ERROR;
    if (hs_os_find_element(st->m, tag))
        return hs_os_fail(st, objv, "element %d is already defined", tag);
    hs_os_element e = {.tag = tag};
    if (fn(st, objc, objv, &e)) return TCL_ERROR;
    return hs_os_add_element(st, objv, &e);
}

int hs_os_add_element(hs_os_state *st, Tcl_Obj *const objv[], const hs_os_element *e)
{
    hs_os_element *slot = hs_os_push((void **)&st->m->els, &st->m->nels, sizeof *slot);
    if (!slot) return hs_os_fail(st, objv, "out of memory");
    *slot = *e;
    hs_os_where(st, slot->where, sizeof slot->where);
    if (e->tag > st->m->el_tag_max) st->m->el_tag_max = e->tag;
    Tcl_ResetResult(st->interp);
    return TCL_OK;
}
