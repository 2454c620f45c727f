/* OpenFresco's `removeExp type <tag>` in hysim's interpreter (OpenFrescoCommands.cpp's
 * OPF_removeObject, read for facts): the experimental recorders, control points, signal
 * filters and tangent estimators, which hysim's perfect laboratory ignores at their commands,
 * are removed with one line (PortalFrame_Local.tcl's `removeExp recorders` after its gravity
 * analysis); removing controls, setups or sites, which the elements hold, is refused. */
#include "opensees_tcl_openfresco.h"

#include <string.h>

int hs_of_cmd_remove_exp(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = cd;
    static const char *const ignored[] = {"recorder",      "recorders",    "controlPoint",
                                          "controlPoints", "signalFilter", "signalFilters",
                                          "tangentStiff",  "tangentStiffs"};
    if (objc < 2) return hs_os_fail(st, objv, "expected 'removeExp type <tag>'");
    const char *type = Tcl_GetString(objv[1]);
    for (size_t k = 0; k < sizeof ignored / sizeof ignored[0]; k++)
        if (!strcmp(type, ignored[k])) {
            hs_os_ignored_once(st, "removeExp",
                               "hysim keeps no experimental recorders, control points, filters "
                               "or tangent estimators: nothing to remove");
            Tcl_ResetResult(interp);
            return TCL_OK;
        }
    return hs_os_fail(st, objv,
                      "removeExp %s: not supported by hysim (it removes recorders, "
                      "controlPoints, signalFilters, tangentStiffs); the controls, setups and "
                      "sites stay until wipeExp",
                      type);
}
