/* OpenSees' rigid constraints in hysim's interpreter (opensees_tcl.h): rigidDiaphragm perpDirn
 * master slaves... and rigidLink beam|bar master slave, with OpenSees 3.x's meanings (the
 * slaves' DOFs follow the master by transformation: hs_fe_rigid_diaphragm, hs_fe_rigid_link).
 * The commands record the constraint; opensees_fe.c gives it to the frame model, whose errors
 * (a slave with a lever-armed mass, a fixed slave DOF, a chain of slaves) name this line. */
#include "opensees_tcl.h"

#include <string.h>

#define STATE(cd) ((hs_os_state *)(cd))

static int node_tag(hs_os_state *st, Tcl_Obj *const objv[], int i, const char *what, int *tag)
{
    if (hs_os_int(st, objv, i, what, tag)) return TCL_ERROR;
    if (!hs_os_find_node(st->m, *tag))
        return hs_os_fail(st, objv, "%s: no node %d (define it with 'node' first)", what, *tag);
    return TCL_OK;
}

static hs_os_rigid *push_rigid(hs_os_state *st, Tcl_Obj *const objv[], int nslaves)
{
    int *slaves = hs_calloc((size_t)nslaves, sizeof *slaves);
    hs_os_rigid *r =
        slaves ? hs_os_push((void **)&st->m->rigids, &st->m->nrigids, sizeof *r) : NULL;
    if (!r) {
        hs_free(slaves);
        hs_os_fail(st, objv, "out of memory");
        return NULL;
    }
    r->slaves = slaves;
    r->nslaves = nslaves;
    hs_os_where(st, r->where, sizeof r->where);
    return r;
}

/* rigidDiaphragm perpDirn masterNode slaveNode1 slaveNode2 ... */
int hs_os_cmd_rigid_diaphragm(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    if (!hs_os_need_model(st, objv)) return TCL_ERROR;
    if (objc < 4)
        return hs_os_fail(st, objv, "expected 'rigidDiaphragm perpDirn masterNode slaveNode ...'");
    int perp, master;
    if (hs_os_int(st, objv, 1, "perpDirn", &perp)) return TCL_ERROR;
    if (perp < 1 || perp > 3)
        return hs_os_fail(st, objv,
                          "perpDirn %d: expected 1 (x), 2 (y) or 3 (z), the axis "
                          "perpendicular to the diaphragm",
                          perp);
    if (node_tag(st, objv, 2, "masterNode", &master)) return TCL_ERROR;
    int tags[1];
    for (int i = 3; i < objc; i++)
        if (node_tag(st, objv, i, "slaveNode", tags)) return TCL_ERROR;
    hs_os_rigid *r = push_rigid(st, objv, objc - 3);
    if (!r) return TCL_ERROR;
    r->kind = HS_OS_DIAPHRAGM;
    r->perp = perp - 1;
    r->master = master;
    for (int i = 3; i < objc; i++) Tcl_GetIntFromObj(NULL, objv[i], &r->slaves[i - 3]);
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/* rigidLink beam|bar masterNode slaveNode */
int hs_os_cmd_rigid_link(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    if (!hs_os_need_model(st, objv)) return TCL_ERROR;
    if (objc != 4)
        return hs_os_fail(st, objv, "expected 'rigidLink beam|bar masterNode slaveNode'");
    const char *type = Tcl_GetString(objv[1]);
    hs_os_rigid_kind kind;
    if (strcmp(type, "beam") == 0)
        kind = HS_OS_LINK_BEAM;
    else if (strcmp(type, "bar") == 0)
        kind = HS_OS_LINK_BAR;
    else
        return hs_os_fail(st, objv, "type '%s': a rigid link is 'beam' or 'bar'", type);
    int master, slave;
    if (node_tag(st, objv, 2, "masterNode", &master) || node_tag(st, objv, 3, "slaveNode", &slave))
        return TCL_ERROR;
    hs_os_rigid *r = push_rigid(st, objv, 1);
    if (!r) return TCL_ERROR;
    r->kind = kind;
    r->master = master;
    r->slaves[0] = slave;
    Tcl_ResetResult(interp);
    return TCL_OK;
}
