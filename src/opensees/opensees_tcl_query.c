/* OpenSees' queries in hysim's interpreter: nodeDisp, nodeVel, nodeAccel, nodeReaction,
 * reactions, eleResponse, eleForce, getNodeTags, getEleTags, nodeCoord. They answer from the
 * model's committed state at that point of the script (the script's own analysis); when the test
 * file's analysis wins, the state is the model's initial one (zeros), said once. */
#include "opensees_analysis.h"
#include "opensees_tcl_openfresco.h"

#include <stdio.h>
#include <string.h>

#define STATE(cd) ((hs_os_state *)(cd))

/* The element response named as OpenSees' recorders and eleResponse name it. */
static int response_kind(const char *word, hs_fe_response *r)
{
    static const struct {
        const char *name;
        hs_fe_response r;
    } names[] = {
        {"force", HS_FE_GLOBAL_FORCE},
        {"forces", HS_FE_GLOBAL_FORCE},
        {"globalForce", HS_FE_GLOBAL_FORCE},
        {"globalForces", HS_FE_GLOBAL_FORCE},
        {"localForce", HS_FE_LOCAL_FORCE},
        {"localForces", HS_FE_LOCAL_FORCE},
        {"basicForce", HS_FE_BASIC_FORCE},
        {"basicForces", HS_FE_BASIC_FORCE},
        {"axialForce", HS_FE_BASIC_FORCE},
        {"deformation", HS_FE_DEFORMATION},
        {"deformations", HS_FE_DEFORMATION},
        {"basicDeformation", HS_FE_DEFORMATION},
        {"basicDeformations", HS_FE_DEFORMATION},
        {"strain", HS_FE_STRAIN},
        {"Parameters", HS_FE_TFP_PARAMETERS}, /* TripleFrictionPendulumX::setResponse */
        {"parameters", HS_FE_TFP_PARAMETERS},
        {"compDisplacement", HS_FE_TFP_COMP_DISPLACEMENT},
        {"compDisplacements", HS_FE_TFP_COMP_DISPLACEMENT},
        {"material strain", HS_FE_STRAIN}, /* a truss's material (Truss.cpp setResponse) */
        {"-material strain", HS_FE_STRAIN},
        /* an experimental element's actuator (opensees_tcl_openfresco.c): its command and
         * measured displacement are the basic deformation, its force the basic force */
        {"ctrlDisp", HS_FE_DEFORMATION},
        {"daqDisp", HS_FE_DEFORMATION},
        {"daqForce", HS_FE_BASIC_FORCE},
        /* OpenFresco's other spellings (EETwoNodeLink.cpp, EETruss.cpp, EEGeneric.cpp
         * setResponse) */
        {"ctrlDisplacement", HS_FE_DEFORMATION},
        {"ctrlDisplacements", HS_FE_DEFORMATION},
        {"daqDisplacement", HS_FE_DEFORMATION},
        {"daqDisplacements", HS_FE_DEFORMATION},
        {"daqForces", HS_FE_BASIC_FORCE},
        {"defo", HS_FE_DEFORMATION},
        {"basicDefo", HS_FE_DEFORMATION},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(word, names[i].name)) return *r = names[i].r, 1;
    return 0;
}

/* A truss's material stress (`material stress`): its basic force over A. */
static int is_material_stress(const char *word)
{
    return !strcmp(word, "material stress") || !strcmp(word, "-material stress");
}

/* The frame model a question about an element is answered from: the live model's, or before any
 * analysis the unloaded model built for the question (*built, to destroy: its responses have the
 * elements' own sizes, as OpenSees' recorders write them from the start); NULL when the model
 * does not build yet (a record before its elements). */
static hs_fe *query_fe(hs_os_state *st, hs_fe **built)
{
    *built = NULL;
    const hs_os_live *lv = st->an ? st->an->lv : NULL;
    if (lv) return lv->fe;
    hs_os_model bare = *st->m;
    bare.nloads = 0;
    bare.neleloads = 0;
    return hs_os_build_live_fe(st->ctx, &bare, st->script, NULL, built) ? NULL : *built;
}

/* A truss's material tangent (`material tangent`): its material's tangent at the last converged
 * state (an elastic truss's, and before the model builds, the virgin material's). 1 value, or -1 /
 * -2 as hs_os_element_values. */
static int material_tangent(hs_os_state *st, int tag, double *out, int cap)
{
    const hs_os_element *e = hs_os_find_element(st->m, tag);
    if (!e) return -2;
    if (e->kind != HS_OS_TRUSS || cap < 1) return -1;
    hs_fe *built, *fe = query_fe(st, &built);
    char name[32];
    snprintf(name, sizeof name, "ele%d", tag);
    const int k = fe ? hs_fe_element_index(fe, name) : -1;
    const hs_material *m = k < 0 ? NULL : hs_fe_element_material(fe, k);
    int rc = 1;
    if (m)
        out[0] = hs_material_tangent(m);
    else if (e->nmat == 0) /* an elastic truss keeps no material: E is its tangent */
        out[0] = e->E;
    else { /* no model yet: the virgin material's */
        const hs_os_material *om = hs_os_find_material(st->m, e->mat[0]);
        hs_material *v = NULL;
        if (!om || hs_material_create(st->ctx, om->type, om->opts, &v))
            rc = -1;
        else
            out[0] = hs_material_tangent(v);
        hs_material_destroy(&v);
    }
    hs_fe_destroy(&built);
    return rc;
}

/* `section N force|forces|deformation|deformations`: 1 with the point and the kind. */
static int section_word(const char *word, int *point, int *deformation)
{
    char what[24];
    if (sscanf(word, "section %d %23s", point, what) != 2) return 0;
    *deformation = !strcmp(what, "deformation") || !strcmp(what, "deformations");
    return *deformation || !strcmp(what, "force") || !strcmp(what, "forces");
}

/* A beam-column's section response; -1 when it has none. */
static int section_values(hs_os_state *st, const hs_os_element *e, int point, int deformation,
                          double *out, int cap)
{
    if (e->kind != HS_OS_BEAM_COLUMN && e->kind != HS_OS_ZERO_LENGTH_SECTION) return -1;
    hs_fe *built, *fe = query_fe(st, &built);
    if (!fe) { /* a model that does not build yet: the unloaded section (P, Mz in 2-D) */
        for (int i = 0; i < 2 && i < cap; i++) out[i] = 0.0;
        return cap < 2 ? cap : 2;
    }
    char name[32];
    snprintf(name, sizeof name, "ele%d", e->tag);
    const int k = hs_fe_element_index(fe, name);
    const int n = k < 0 ? -2 : hs_fe_section_response(fe, k, point, deformation, out, cap);
    hs_fe_destroy(&built);
    return n < -1 ? n : n < 0 ? -1 : n;
}

/* `deformationsANDforces` (ZeroLength.cpp and TwoNodeLink.cpp: the basic deformations, then
 * the basic forces) */
static int is_defo_and_force(const char *word)
{
    return !strcmp(word, "deformationsANDforces") || !strcmp(word, "deformationANDforces") ||
           !strcmp(word, "deformationANDforce") || !strcmp(word, "defoANDforce");
}

/* An expElement generic on a networked site measures its daqDisp there (the laboratory's or
 * worker's displacements, not the command): its actuators' basic DOFs of out (n values at
 * OpenFresco's shape) take them (opensees_tcl_exp_remote.c; a beam-column's:
 * hs_of_exp_beam_daq). */
static void generic_remote_daq(hs_os_state *st, const hs_os_element *e, double *out, int n)
{
    double m[HS_OS_MAX_DIRS];
    const int nr = hs_of_remote_daq_disp(st, e->tag, m, HS_OS_MAX_DIRS);
    for (int k = 0; k < nr && k < e->nmat; k++)
        if (e->exp_gpos[k] < n) out[e->exp_gpos[k]] = m[k];
}

/* The global force of an experimental element built as links between the same two nodes (an
 * Aggregator with actuator geometry under expElement twoNodeLink or beamColumn,
 * opensees_tcl_exp_aggregate.c: its pieces follow the first): the sum of theirs; -1 for another
 * response or another element of pieces. */
static int pieces_force(hs_os_state *st, const hs_os_element *pe, const char *word, double *out,
                        int cap)
{
    hs_fe_response r;
    const int first = (int)(pe - st->m->els), ndf = st->m->ndf;
    if (!response_kind(word, &r) || r != HS_FE_GLOBAL_FORCE || first + pe->exp_pieces > st->m->nels)
        return -1;
    for (int j = 1; j < pe->exp_pieces; j++) {
        const hs_os_element *e = &st->m->els[first + j];
        if (e->ni != pe->ni || e->nj != pe->nj || e->exp_site != pe->exp_site) return -1;
    }
    const int size = 2 * ndf < cap ? 2 * ndf : cap;
    for (int i = 0; i < size; i++) out[i] = 0.0;
    hs_fe *unloaded, *fe = query_fe(st, &unloaded);
    int rc = size;
    for (int j = 0; fe && j < pe->exp_pieces && rc > 0; j++) {
        char name[48];
        double v[64];
        snprintf(name, sizeof name, "ele%d", st->m->els[first + j].tag);
        const int k = hs_fe_element_index(fe, name), fndf = hs_fe_ndf(fe);
        if (k < 0 || hs_fe_element_response_size(fe, k, r) != 2 * fndf ||
            hs_fe_element_response(fe, k, r, v))
            rc = -1;
        for (int a = 0; rc > 0 && a < 2; a++) /* the model's -ndf values a node */
            for (int c = 0; c < ndf && a * ndf + c < size; c++) out[a * ndf + c] += v[a * fndf + c];
    }
    hs_fe_destroy(&unloaded);
    return rc;
}

int hs_os_element_values(hs_os_state *st, int tag, const char *word, double *out, int cap)
{
    int point, deformation;
    if (is_defo_and_force(word)) {
        const hs_os_element *e = hs_os_find_element(st->m, tag);
        if (!e) return -2;
        if (e->kind != HS_OS_ZERO_LENGTH && e->kind != HS_OS_LINK) return -1;
        const int nd = hs_os_element_values(st, tag, "basicDeformation", out, cap);
        if (nd < 0) return nd;
        const int nf = hs_os_element_values(st, tag, "basicForce", out + nd, cap - nd);
        return nf < 0 ? nf : nd + nf;
    }
    if (section_word(word, &point, &deformation)) {
        const hs_os_element *e = hs_os_find_element(st->m, tag);
        return e ? section_values(st, e, point, deformation, out, cap) : -2;
    }
    if (!strcmp(word, "material tangent") || !strcmp(word, "-material tangent"))
        return material_tangent(st, tag, out, cap);
    const hs_os_element *pe = hs_os_find_element(st->m, tag);
    if (pe && pe->exp_pieces > 1) return pieces_force(st, pe, word, out, cap); /* several links */
    const int of_group = hs_of_exp_beam_word(word); /* EEBeamColumn2d's shapes */
    if (of_group) {
        const hs_os_element *e = hs_os_find_element(st->m, tag);
        if (!e) return -2;
        const int beam = e->exp_beam && e->exp_site && of_group != HS_OF_RESP_GLOBAL;
        if (beam && of_group == HS_OF_RESP_DAQ_DISP) {
            const int n = hs_of_exp_beam_daq(st, e, out, cap); /* a networked site's */
            if (n >= 0) return n;
        }
        if (beam || (e->exp_generic && e->exp_gnb > 0)) {
            hs_fe *unloaded, *fe = query_fe(st, &unloaded);
            const int n = beam ? hs_of_exp_beam_values(st, e, fe, of_group, out, cap)
                               : hs_of_exp_generic_values(st, e, fe, of_group, out, cap);
            if (n > 0 && !beam && of_group == HS_OF_RESP_DAQ_DISP)
                generic_remote_daq(st, e, out, n);
            hs_fe_destroy(&unloaded);
            return n;
        }
    }
    const int rate = hs_of_exp_rate_word(word); /* EETwoNodeLink's, EETruss's rates */
    if (rate) {
        if (!pe) return -2;
        hs_fe *unloaded, *fe = query_fe(st, &unloaded);
        const int n = hs_of_exp_link_rates(st, pe, fe, rate, out, cap);
        hs_fe_destroy(&unloaded);
        return n;
    }
    hs_fe_response r = HS_FE_BASIC_FORCE;
    const int stress = is_material_stress(word);
    if (!stress && !response_kind(word, &r)) return -1;
    const hs_os_element *e = hs_os_find_element(st->m, tag);
    if (!e) return -2;
    if (!e->exp_site && (!strncmp(word, "ctrl", 4) || !strncmp(word, "daq", 3) ||
                         !strcmp(word, "defo") || !strcmp(word, "basicDefo")))
        return -1;                                 /* an OpenFresco element's response only */
    if (e->exp_site && !strcmp(word, "daqDisp")) { /* measured by a networked site */
        const int n = hs_of_remote_daq_disp(st, tag, out, cap); /* opensees_tcl_exp_remote.c */
        if (n >= 0) return n;
    }
    if (stress && e->kind != HS_OS_TRUSS) return -1;
    if (stress) {
        const int n = hs_os_element_values(st, tag, "basicForce", out, cap);
        if (n > 0) out[0] /= e->A;
        return n;
    }
    hs_fe *unloaded, *fe = query_fe(st, &unloaded);
    if (!fe) { /* a model that does not build yet (a record before its elements): zeros */
        const int size = e->kind == HS_OS_TRUSS && r != HS_FE_GLOBAL_FORCE ? 1 : 2 * st->m->ndf;
        for (int i = 0; i < size && i < cap; i++) out[i] = 0.0;
        return size < cap ? size : cap;
    }
    int count = 0;
    const int parts = e->kind == HS_OS_ZERO_LENGTH && e->nmat > 1 ? e->nmat : 1;
    for (int j = 0; j < parts && count >= 0; j++) {
        char name[48];
        if (parts > 1) {
            static const char *const PLANE[3] = {"x", "y", "rz"}, *const SPACE[6] = {"x",  "y",
                                                                                     "z",  "rx",
                                                                                     "ry", "rz"};
            snprintf(name, sizeof name, "ele%d.%s", tag,
                     st->m->ndm == 2 ? PLANE[e->dir[j]] : SPACE[e->dir[j]]);
        } else
            snprintf(name, sizeof name, "ele%d", tag);
        const int k = hs_fe_element_index(fe, name);
        if (k < 0) {
            count = -2;
            break;
        }
        int size = hs_fe_element_response_size(fe, k, r);
        double v[64];
        if (size <= 0 || size > 64 || hs_fe_element_response(fe, k, r, v)) {
            count = -1;
            break;
        }
        if (!strcmp(word, "ctrlDisp")) hs_fe_link_command(fe, k, v); /* before its filters */
        const int fndf = hs_fe_ndf(fe);
        if (r == HS_FE_GLOBAL_FORCE && st->m->ndf < fndf && size == 2 * fndf) {
            /* OpenSees gives the model's -ndf values a node (-ndf 2: x, y; hysim's frame also
             * carries the rotation) */
            for (int a = 0; a < 2; a++)
                for (int c = 0; c < st->m->ndf; c++) v[a * st->m->ndf + c] = v[a * fndf + c];
            size = 2 * st->m->ndf;
        }
        if (r == HS_FE_GLOBAL_FORCE && parts > 1) { /* the springs' forces add up */
            for (int i = 0; i < size && i < cap; i++) out[i] = (j ? out[i] : 0.0) + v[i];
            count = size;
        } else
            for (int i = 0; i < size && count < cap; i++) out[count++] = v[i];
    }
    hs_fe_destroy(&unloaded);
    if (e->exp_zero_dirs && hs_of_exp_beam_word(word) == HS_OF_RESP_DAQ_DISP)
        for (int k = 0; k < count; k++) /* the undriven DOFs: the setup measures none */
            if (e->exp_zero_dirs & (1u << k)) out[k] = 0.0;
    return count;
}

static void before_analysis(hs_os_state *st, const char *name)
{
    if (st->live) return;
    hs_os_ignored_once(
        st, name,
        "it answers 0: the test file sets the analysis, so the script's own does not run");
}

/* nodeDisp node <dof> (and Vel, Accel): one DOF, or the node's ndf values. */
static int node_query(hs_os_state *st, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[],
                      int order)
{
    int tag, dof = 0;
    if (objc < 2 || objc > 3 || hs_os_int(st, objv, 1, "node", &tag))
        return hs_os_fail(st, objv, "expected '%s node <dof>'", Tcl_GetString(objv[0]));
    if (!hs_os_find_node(st->m, tag)) return hs_os_fail(st, objv, "no node %d", tag);
    if (objc == 3 && hs_os_int(st, objv, 2, "dof", &dof)) return TCL_ERROR;
    if (dof < 0 || dof > st->m->ndf)
        return hs_os_fail(st, objv, "dof %d: expected 1 to %d", dof, st->m->ndf);
    static const char *const NAMES[4] = {"nodeDisp", "nodeVel", "nodeAccel", "nodeReaction"};
    before_analysis(st, NAMES[order]);
    const hs_os_live *lv = st->an->lv;
    hs_os_live *mlv = st->an->lv;
    Tcl_Obj *res = Tcl_NewListObj(0, NULL);
    for (int d = dof ? dof - 1 : 0; d < (dof ? dof : st->m->ndf); d++) {
        const double v =
            order == 3 ? hs_os_live_reaction(mlv, tag, d) : hs_os_live_node(lv, tag, d, order);
        if (dof) {
            Tcl_DecrRefCount(res);
            Tcl_SetObjResult(interp, Tcl_NewDoubleObj(v));
            return TCL_OK;
        }
        Tcl_ListObjAppendElement(NULL, res, Tcl_NewDoubleObj(v));
    }
    Tcl_SetObjResult(interp, res);
    return TCL_OK;
}

static int cmd_node_disp(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    return node_query(STATE(cd), interp, objc, objv, 0);
}
static int cmd_node_vel(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    return node_query(STATE(cd), interp, objc, objv, 1);
}
static int cmd_node_accel(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    return node_query(STATE(cd), interp, objc, objv, 2);
}
static int cmd_node_reaction(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    return node_query(STATE(cd), interp, objc, objv, 3);
}

/* reactions: hysim computes them when asked (nodeReaction), nothing to do. */
static int cmd_reactions(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)cd;
    (void)objc;
    (void)objv;
    Tcl_ResetResult(interp);
    return TCL_OK;
}

static int element_query(hs_os_state *st, Tcl_Interp *interp, Tcl_Obj *const objv[], int tag,
                         const char *word, int pick)
{
    double v[64];
    before_analysis(st, pick >= 0 ? "eleForce" : "eleResponse");
    if (pick < 0) pick = 0;
    const int n = hs_os_element_values(st, tag, word, v, 64);
    if (n == -2) return hs_os_fail(st, objv, "no element %d", tag);
    if (n < 0)
        return hs_os_fail(st, objv,
                          "element %d has no response '%s' in hysim (the responses are force, "
                          "globalForce, localForce, basicForce, deformation, basicDeformation, "
                          "a truss's material stress|strain|tangent, a beam-column's section N "
                          "force|deformation; which of them an element gives depends on its "
                          "type)",
                          tag, word);
    if (pick) {
        if (pick > n) return hs_os_fail(st, objv, "dof %d: the element has %d values", pick, n);
        Tcl_SetObjResult(interp, Tcl_NewDoubleObj(v[pick - 1]));
        return TCL_OK;
    }
    Tcl_Obj *res = Tcl_NewListObj(0, NULL);
    for (int i = 0; i < n; i++) Tcl_ListObjAppendElement(NULL, res, Tcl_NewDoubleObj(v[i]));
    Tcl_SetObjResult(interp, res);
    return TCL_OK;
}

/* eleResponse ele response... */
static int cmd_ele_response(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    int tag;
    if (objc < 3 || hs_os_int(st, objv, 1, "element", &tag))
        return hs_os_fail(st, objv, "expected 'eleResponse ele force'");
    char word[64] = ""; /* the response's words joined (`section 1 force`, `material stress`) */
    for (int i = 2; i < objc; i++)
        snprintf(word + strlen(word), sizeof word - strlen(word), "%s%s", i > 2 ? " " : "",
                 Tcl_GetString(objv[i]));
    return element_query(st, interp, objv, tag, word, -1);
}

/* eleForce ele <dof> */
static int cmd_ele_force(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    int tag, dof = 0;
    if (objc < 2 || objc > 3 || hs_os_int(st, objv, 1, "element", &tag) ||
        (objc == 3 && hs_os_int(st, objv, 2, "dof", &dof)))
        return hs_os_fail(st, objv, "expected 'eleForce ele <dof>'");
    return element_query(st, interp, objv, tag, "force", dof);
}

static int cmd_get_tags(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    hs_os_state *st = STATE(cd);
    const int nodes = !strcmp(Tcl_GetString(objv[0]), "getNodeTags");
    Tcl_Obj *res = Tcl_NewListObj(0, NULL);
    const int n = nodes ? st->m->nnodes : st->m->nels;
    for (int i = 0; i < n; i++)
        Tcl_ListObjAppendElement(NULL, res,
                                 Tcl_NewIntObj(nodes ? st->m->nodes[i].tag : st->m->els[i].tag));
    Tcl_SetObjResult(interp, res);
    return TCL_OK;
}

/* nodeCoord node <dim> */
static int cmd_node_coord(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    int tag, dim = 0;
    if (objc < 2 || hs_os_int(st, objv, 1, "node", &tag) ||
        (objc == 3 && hs_os_int(st, objv, 2, "dim", &dim)))
        return hs_os_fail(st, objv, "expected 'nodeCoord node <dim>'");
    const hs_os_node *n = hs_os_find_node(st->m, tag);
    if (!n) return hs_os_fail(st, objv, "no node %d", tag);
    const double x[3] = {n->x, n->y, n->z};
    if (dim < 0 || dim > st->m->ndm)
        return hs_os_fail(st, objv, "dim %d: expected 1 to %d", dim, st->m->ndm);
    if (dim) {
        Tcl_SetObjResult(interp, Tcl_NewDoubleObj(x[dim - 1]));
        return TCL_OK;
    }
    Tcl_Obj *res = Tcl_NewListObj(0, NULL);
    for (int d = 0; d < st->m->ndm; d++)
        Tcl_ListObjAppendElement(NULL, res, Tcl_NewDoubleObj(x[d]));
    Tcl_SetObjResult(interp, res);
    return TCL_OK;
}

/* getPID, getNP: one process (OpenSeesSP / OpenSeesMP scripts ask). */
static int cmd_process(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)cd;
    (void)objc;
    Tcl_SetObjResult(interp, Tcl_NewIntObj(strcmp(Tcl_GetString(objv[0]), "getNP") == 0));
    return TCL_OK;
}

static const struct {
    const char *name;
    Tcl_ObjCmdProc *fn;
} commands[] = {
    {"getPID", cmd_process},       {"getNP", cmd_process},
    {"nodeDisp", cmd_node_disp},   {"nodeVel", cmd_node_vel},
    {"nodeAccel", cmd_node_accel}, {"nodeReaction", cmd_node_reaction},
    {"reactions", cmd_reactions},  {"eleResponse", cmd_ele_response},
    {"eleForce", cmd_ele_force},   {"getNodeTags", cmd_get_tags},
    {"getEleTags", cmd_get_tags},  {"nodeCoord", cmd_node_coord},
};

int hs_os_query_commands(hs_os_state *st)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!Tcl_CreateObjCommand(st->interp, commands[i].name, commands[i].fn, st, NULL))
            return HS_ENOMEM;
    return 0;
}
