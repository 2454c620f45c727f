/* OpenSees' `parameter`, `addToParameter`, `updateParameter` for what a script changes between
 * two analyses (OpenSees' Reliability/trussParameter.tcl): a truss's E (its Elastic material's)
 * and A, a pattern's nodal load, a node's coordinate. Facts from OpenSees' SRC:
 * domain/component/TclParameterCommands.cpp (the commands; a parameter's value is its first
 * object's), element/truss/Truss.cpp (setParameter: "A", otherwise the material's;
 * setDomain: the length to the nodes as displaced then, the strain from that displacement on:
 * initialDisp), material/uniaxial/ElasticMaterial.cpp ("E" sets E and Eneg),
 * domain/pattern/LoadPattern.cpp and domain/node/NodalLoad.cpp ("loadAtNode node dof": the last
 * load of the pattern on that node), domain/node/Node.cpp (updateParameter of a coordinate:
 * when it changes, every element's setDomain again).
 * After an analysis hysim rebuilds the live model with the new values (hs_os_live_rebuild): a
 * linear model only (its state is its displacements); a coordinate: trusses only (their initial
 * displacement, Uref), once. Anything else: an error at its line. */
#include "opensees_analysis.h"

#include <string.h>

typedef enum { TARGET_E, TARGET_A, TARGET_LOAD, TARGET_COORD } target_kind;

typedef struct target {
    target_kind kind;
    int index; /* element, load or node index in the model */
    int dof;   /* 0-based: the load's DOF, the coordinate */
} target;

typedef struct hs_os_param {
    int tag;
    target *t;
    int nt;
} hs_os_param;

void hs_os_params_free(hs_os_analysis *an)
{
    for (int k = 0; k < an->nparams; k++) hs_free(an->params[k].t);
    hs_free(an->params);
    an->params = NULL;
    an->nparams = 0;
}

static hs_os_param *find(hs_os_analysis *an, int tag)
{
    for (int k = 0; k < an->nparams; k++)
        if (an->params[k].tag == tag) return &an->params[k];
    return NULL;
}

static const char *const WHAT =
    "hysim has 'element N E' (a truss of an Elastic material), 'element N A' (a truss), "
    "'loadPattern P loadAtNode N dof' and 'node N coord d'";

/* The target named by objv[i..objc) (what follows the parameter's tag). */
static int parse_target(hs_os_state *st, int objc, Tcl_Obj *const objv[], int i, target *t)
{
    const hs_os_model *m = st->m;
    const char *type = i < objc ? Tcl_GetString(objv[i]) : "";
    int tag, dof;
    if (objc - i < 3) return hs_os_fail(st, objv, "expected a parameter's object: %s", WHAT);
    if (hs_os_int(st, objv, i + 1, "tag", &tag)) return TCL_ERROR;
    const char *word = Tcl_GetString(objv[i + 2]);
    if (!strcmp(type, "element")) {
        const hs_os_element *e = hs_os_find_element(m, tag);
        if (!e) return hs_os_fail(st, objv, "no element %d", tag);
        t->index = (int)(e - m->els);
        /* words after E or A are not read (OpenSees' setParameter reads the first) */
        if (!strcmp(word, "A") && e->kind == HS_OS_TRUSS && !e->section) {
            t->kind = TARGET_A;
            return TCL_OK;
        }
        if (!strcmp(word, "E") && e->kind == HS_OS_TRUSS && !e->section && !e->nmat) {
            t->kind = TARGET_E;
            return TCL_OK;
        }
        return hs_os_fail(st, objv, "element %d: '%s' is not a parameter hysim has; %s", tag, word,
                          WHAT);
    }
    if (!strcmp(type, "node")) {
        const hs_os_node *n = hs_os_find_node(m, tag);
        if (!n) return hs_os_fail(st, objv, "no node %d", tag);
        if (strcmp(word, "coord") || objc - i != 4 || hs_os_int(st, objv, i + 3, "coord", &dof) ||
            dof < 1 || dof > m->ndm)
            return hs_os_fail(st, objv, "node %d: expected 'coord d' with d from 1 to %d; %s", tag,
                              m->ndm, WHAT);
        t->kind = TARGET_COORD;
        t->index = (int)(n - m->nodes);
        t->dof = dof - 1;
        return TCL_OK;
    }
    if (!strcmp(type, "loadPattern")) {
        int node, p = -1;
        for (int k = 0; k < m->npatterns; k++)
            if (m->patterns[k].tag == tag) p = k;
        if (p < 0) return hs_os_fail(st, objv, "no pattern %d", tag);
        if (strcmp(word, "loadAtNode") || objc - i != 5 ||
            hs_os_int(st, objv, i + 3, "node", &node) || hs_os_int(st, objv, i + 4, "dof", &dof))
            return hs_os_fail(st, objv, "pattern %d: expected 'loadAtNode node dof'; %s", tag,
                              WHAT);
        if (dof < 1 || dof > m->ndf)
            return hs_os_fail(st, objv, "dof %d: expected 1 to %d", dof, m->ndf);
        t->index = -1;
        for (int l = 0; l < m->nloads; l++) /* the last, as OpenSees' LoadPattern */
            if (m->loads[l].pattern == p && m->loads[l].node == node) t->index = l;
        if (t->index < 0)
            return hs_os_fail(st, objv, "pattern %d has no load at node %d", tag, node);
        t->kind = TARGET_LOAD;
        t->dof = dof - 1;
        return TCL_OK;
    }
    return hs_os_fail(st, objv, "'%s' is not supported by hysim; %s", type, WHAT);
}

/* parameter tag <object...> | addToParameter tag object... */
static int cmd_parameter(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = cd;
    hs_os_analysis *an = st->an;
    const int add = !strcmp(Tcl_GetString(objv[0]), "addToParameter");
    int tag;
    if (!hs_os_need_model(st, objv)) return TCL_ERROR;
    if (objc < 2 || hs_os_int(st, objv, 1, "tag", &tag))
        return objc < 2
                   ? hs_os_fail(st, objv, "expected '%s tag object...'", Tcl_GetString(objv[0]))
                   : TCL_ERROR;
    hs_os_param *p = find(an, tag);
    if (add && !p)
        return hs_os_fail(st, objv, "no parameter %d (give 'parameter %d' first)", tag, tag);
    if (!add && p) return hs_os_fail(st, objv, "parameter %d exists already", tag);
    target t = {0};
    if ((add || objc > 2) && parse_target(st, objc, objv, 2, &t) != TCL_OK) return TCL_ERROR;
    if (!p) {
        p = hs_os_push((void **)&an->params, &an->nparams, sizeof *p);
        if (!p) return hs_os_fail(st, objv, "out of memory");
        p->tag = tag;
    }
    if (add || objc > 2) {
        target *slot = hs_os_push((void **)&p->t, &p->nt, sizeof *slot);
        if (!slot) return hs_os_fail(st, objv, "out of memory");
        *slot = t;
    }
    Tcl_ResetResult(interp);
    return TCL_OK;
}

static int live_displaced(const hs_os_live *lv)
{
    for (int i = 0; lv && i < lv->n; i++)
        if (lv->U[i] != 0.0) return 1;
    return 0;
}

/* A coordinate changes after an analysis: every element starts again from the nodes as
 * displaced now (trusses only: OpenSees' Truss::setDomain with initialDisp), once. */
static int coordinate_reset(hs_os_state *st, Tcl_Obj *const objv[])
{
    hs_os_model *m = st->m;
    hs_os_live *lv = st->an->lv;
    for (int k = 0; k < m->nels; k++)
        if (m->els[k].kind != HS_OS_TRUSS)
            return hs_os_fail(st, objv,
                              "a node's coordinate after an analysis with element %d (not a "
                              "truss): not yet in hysim (OpenSees starts every element again "
                              "from the displaced nodes; hysim does it for trusses)",
                              m->els[k].tag);
    for (int i = 0; i < m->nnodes; i++)
        for (int d = 0; d < 3; d++)
            if (m->nodes[i].uref[d] != 0.0)
                return hs_os_fail(st, objv,
                                  "a second coordinate update after an analysis: not yet in "
                                  "hysim (OpenSees' trusses keep their first initial "
                                  "displacement but not its length)");
    for (int i = 0; i < m->nnodes; i++)
        for (int d = 0; d < m->ndm && d < m->ndf; d++)
            m->nodes[i].uref[d] = hs_os_live_node(lv, m->nodes[i].tag, d, 0);
    st->an->coord_reset = 1;
    return TCL_OK;
}

/* updateParameter tag value */
static int cmd_update_parameter(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = cd;
    hs_os_analysis *an = st->an;
    hs_os_model *m = st->m;
    int tag;
    double v;
    if (objc != 3) return hs_os_fail(st, objv, "expected 'updateParameter tag value'");
    if (hs_os_int(st, objv, 1, "tag", &tag) || hs_os_num(st, objv, 2, "value", &v))
        return TCL_ERROR;
    const hs_os_param *p = find(an, tag);
    if (!p) return hs_os_fail(st, objv, "no parameter %d", tag);
    hs_os_live *lv = st->live ? an->lv : NULL;
    for (int k = 0; k < p->nt; k++) {
        const target *t = &p->t[k];
        if (t->kind != TARGET_LOAD && lv && !hs_fe_is_linear(lv->fe))
            return hs_os_fail(st, objv,
                              "an element's or a node's parameter after an analysis of a "
                              "nonlinear model: not yet in hysim (it rebuilds the model, whose "
                              "state must be its displacements only)");
        if (t->kind == TARGET_E) {
            m->els[t->index].E = v;
        } else if (t->kind == TARGET_A) {
            m->els[t->index].A = v;
        } else if (t->kind == TARGET_LOAD) {
            hs_os_load *l = &m->loads[t->index];
            l->raw[t->dof] = v;
            l->f[t->dof] = v * l->kf;
            l->fp[t->dof] = v * l->kp;
            if (lv) lv->phat_ready = 0;
            continue;
        } else {
            hs_os_node *n = &m->nodes[t->index];
            double *c = t->dof == 0 ? &n->x : t->dof == 1 ? &n->y : &n->z;
            if (*c == v) continue; /* OpenSees' Node: no change, no setDomain */
            if (live_displaced(lv) && coordinate_reset(st, objv) != TCL_OK) return TCL_ERROR;
            *c = v;
        }
        if (lv) an->rebuild = 1; /* before any analysis the live model is built from these */
    }
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/* to (the rebuilt model's unknowns) = from (the old one's) through each node DOF's equation in
 * both; an equation new to the rebuilt model (an imposed DOF, fixed before) starts at 0. */
static void remap(const hs_os_live *old, const hs_os_live *lv, const double *from, double *to)
{
    memset(to, 0, (size_t)lv->n * sizeof *to);
    const hs_os_model *m = lv->m;
    for (int i = 0; i < m->nnodes; i++)
        for (int d = 0; d < m->ndf; d++) {
            hs_fe_dof_map a, b;
            if (hs_fe_node_map(old->fe, m->nodes[i].tag, d, &a) ||
                hs_fe_node_map(lv->fe, m->nodes[i].tag, d, &b) || a.n != 1 || b.n != 1 ||
                a.c[0] != 1.0 || b.c[0] != 1.0)
                continue;
            to[b.eq[0]] = from[a.eq[0]];
        }
}

int hs_os_live_rebuild(hs_os_state *st, hs_os_live **plv)
{
    hs_os_analysis *an = st->an;
    hs_os_live *old = *plv, *lv = NULL;
    int rc = hs_os_live_create(st, &lv);
    /* a fixed DOF's imposedMotion: its new equation, the elements as they were */
    if (!rc && an->sp_rebuild) rc = hs_fe_copy_element_states(lv->fe, old->fe);
    for (int g = 0; !rc && an->sp_rebuild && g < lv->ngroups; g++)
        if (lv->gfe[g] != lv->fe)
            rc = hs_fe_copy_element_states(lv->gfe[g], g < old->ngroups ? old->gfe[g] : old->fe);
    if (!rc && lv->n != old->n && !an->sp_rebuild)
        rc = hs_fail(st->ctx, HS_EUNSUPPORTED,
                     "the model rebuilt after updateParameter has %d unknowns, before %d", lv->n,
                     old->n);
    if (!rc && (an->coord_reset || old->Uref)) {
        lv->Uref = hs_dvec((size_t)lv->n);
        lv->Ushift = hs_dvec((size_t)lv->n);
        if (!lv->Uref || !lv->Ushift)
            rc = HS_ENOMEM;
        else
            memcpy(lv->Uref, an->coord_reset ? old->U : old->Uref, (size_t)lv->n * sizeof(double));
    }
    if (rc) {
        hs_os_live_destroy(&lv);
        return rc;
    }
    /* the state: vectors and the integrators' numbers */
    const double *from[] = {old->U,  old->V,  old->A,  old->Ut, old->Vt,  old->At,     old->Ua,
                            old->Va, old->Uc, old->Vc, old->Ac, old->Upt, old->dUstep, old->dU0};
    double *to[] = {lv->U,  lv->V,  lv->A,  lv->Ut, lv->Vt,  lv->At,     lv->Ua,
                    lv->Va, lv->Uc, lv->Vc, lv->Ac, lv->Upt, lv->dUstep, lv->dU0};
    for (size_t i = 0; i < sizeof to / sizeof to[0]; i++)
        if (an->sp_rebuild)
            remap(old, lv, from[i], to[i]);
        else
            memcpy(to[i], from[i], (size_t)lv->n * sizeof(double));
    lv->time = old->time;
    lv->time_commit = old->time_commit;
    hs_os_live_member_loads(lv, lv->time); /* the member loads at that time (eleLoad) */
    lv->c2 = old->c2;
    lv->c3 = old->c3;
    lv->dt = old->dt;
    lv->iters_last = old->iters_last;
    lv->incr_now = old->incr_now;
    lv->dlambda = old->dlambda;
    lv->eq_ctrl = old->eq_ctrl;
    lv->steps = old->steps;
    if (lv->n == old->n) {
        lv->nmodes = old->nmodes; /* the last eigen's modes (the mass is the same) */
        lv->modal_w2 = old->modal_w2;
        lv->modal_mphi = old->modal_mphi;
        old->modal_w2 = old->modal_mphi = NULL;
    } else /* a new equation: the modes again, of the rebuilt model */
        an->modes_pending = an->eigen_count > 0;
    an->modal_dirty = 1;
    hs_os_live_destroy(plv);
    *plv = lv;
    an->rebuild = an->coord_reset = an->sp_rebuild = 0;
    return 0;
}

int hs_os_parameter_commands(hs_os_state *st)
{
    if (!Tcl_CreateObjCommand(st->interp, "parameter", cmd_parameter, st, NULL) ||
        !Tcl_CreateObjCommand(st->interp, "addToParameter", cmd_parameter, st, NULL) ||
        !Tcl_CreateObjCommand(st->interp, "updateParameter", cmd_update_parameter, st, NULL))
        return HS_ENOMEM;
    return 0;
}
