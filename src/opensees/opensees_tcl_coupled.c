/* element CoupledZeroLength tag iNode jNode dirn1 dirn2 matTag <useRayleigh> (OpenSees 3.x,
 * SRC/element/zeroLength/CoupledZeroLength.cpp's OPS_CoupledZeroLength, read for facts): six or
 * seven integers; the directions are the node's DOFs 1 to ndf (in a 2-D frame 3 is the rotation,
 * as OpenSees indexes the node's displacement vector); Rayleigh damping only with useRayleigh 1
 * (OpenSees' default 0). The element: hs_fe_add_coupled_zero_length. */
#include "opensees_tcl.h"

int hs_os_el_coupled_zero_length(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e)
{
    if (objc != 8 && objc != 9)
        return hs_os_fail(st, objv,
                          "expected 'element CoupledZeroLength tag iNode jNode dirn1 dirn2 matTag "
                          "<useRayleigh>' (six or seven integers)");
    e->kind = HS_OS_COUPLED_ZERO_LENGTH;
    static const char *const what[] = {"iNode", "jNode", "dirn1", "dirn2", "matTag", "useRayleigh"};
    int v[6] = {0};
    for (int k = 3; k < objc; k++)
        if (hs_os_int(st, objv, k, what[k - 3], &v[k - 3])) return TCL_ERROR;
    for (int k = 0; k < 2; k++)
        if (!hs_os_find_node(st->m, v[k]))
            return hs_os_fail(st, objv, "no node %d (define it first)", v[k]);
    for (int k = 2; k < 4; k++)
        if (v[k] < 1 || v[k] > st->m->ndf)
            return hs_os_fail(st, objv, "%s %d: expected a DOF of the nodes, 1 to %d (-ndf %d)",
                              what[k], v[k], st->m->ndf, st->m->ndf);
    if (v[2] == v[3])
        return hs_os_fail(st, objv, "dirn1 and dirn2 are both %d: give two different DOFs", v[2]);
    if (!hs_os_find_material(st->m, v[4]))
        return hs_os_fail(st, objv, "no uniaxialMaterial %d (define it first)", v[4]);
    e->ni = v[0];
    e->nj = v[1];
    e->nmat = 1;
    e->mat[0] = v[4];
    e->dir[0] = v[2] - 1;
    e->dir[1] = v[3] - 1;
    e->rayleigh_ok = v[5] == 1; /* CoupledZeroLength::getDamp: useRayleighDamping == 1 */
    return TCL_OK;
}
