/* element Truss2 tag iNode jNode auxN1 auxN2 A matTag <-rho rho> <-doRayleigh flag> (OpenSees'
 * Truss2, SRC/element/truss/Truss2.cpp's OPS_Truss2, read for facts): the truss of its material
 * whose ConcretewBeta reads the strain of the transverse truss auxN1 -> auxN2 (docs/fe_model.md;
 * the frame's hs_fe_set_truss_transverse). The words are those of `element truss` with the two
 * auxiliary nodes inserted after jNode; Truss2 knows -rho (lumped) and -doRayleigh only. */
#include "opensees_tcl.h"

#include <string.h>

int hs_os_el_truss2(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e)
{
    if (objc < 9 || (objc - 9) % 2 != 0)
        return hs_os_fail(st, objv,
                          "expected 'element Truss2 tag iNode jNode auxN1 auxN2 A matTag <-rho "
                          "rho> <-doRayleigh flag>'");
    int aux[2];
    for (int k = 0; k < 2; k++) {
        if (hs_os_int(st, objv, 5 + k, k ? "auxN2" : "auxN1", &aux[k])) return TCL_ERROR;
        if (!hs_os_find_node(st->m, aux[k]))
            return hs_os_fail(st, objv, "no node %d (define it first)", aux[k]);
    }
    for (int i = 9; i < objc; i += 2)
        if (strcmp(Tcl_GetString(objv[i]), "-rho") != 0 &&
            strcmp(Tcl_GetString(objv[i]), "-doRayleigh") != 0)
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by Truss2 (it knows -rho and "
                              "-doRayleigh)",
                              Tcl_GetString(objv[i]));
    Tcl_Obj *truss[HS_OS_TRUSS2_WORDS];
    if (objc - 2 > HS_OS_TRUSS2_WORDS) return hs_os_fail(st, objv, "too many words (%d)", objc);
    for (int i = 0, j = 0; i < objc; i++)
        if (i != 5 && i != 6) truss[j++] = objv[i];
    if (hs_os_el_truss(st, objc - 2, truss, e)) return TCL_ERROR;
    if (e->nmat) { /* an elastic truss has no transverse effect: the plain elastic truss */
        e->has_aux = 1;
        e->aux[0] = aux[0];
        e->aux[1] = aux[1];
    }
    return TCL_OK;
}
