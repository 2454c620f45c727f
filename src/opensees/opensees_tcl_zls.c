/* element zeroLengthSection tag iNode jNode secTag <-orient x1 x2 x3 yp1 yp2 yp3> <-doRayleigh
 * <flag>> (OpenSees 3.x, SRC/element/zeroLength/TclZeroLength.cpp and ZeroLengthSection.cpp's
 * OPS_ZeroLengthSection, read for facts): -orient takes six numbers (in 2-D also three, local x,
 * with y = z x x in the plane); Rayleigh damping is on unless -doRayleigh 0 (OpenSees' default
 * for this element, unlike zeroLength's). The element: hs_fe_add_zero_length_section. */
#include "opensees_tcl.h"

#include <string.h>

int hs_os_el_zero_length_section(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e)
{
    if (objc < 6)
        return hs_os_fail(st, objv,
                          "expected 'element zeroLengthSection tag iNode jNode secTag <-orient x1 "
                          "x2 x3 yp1 yp2 yp3> <-doRayleigh flag>'");
    e->kind = HS_OS_ZERO_LENGTH_SECTION;
    e->rayleigh_ok = 1;
    for (int k = 3; k <= 4; k++) {
        int tag;
        if (hs_os_int(st, objv, k, k == 3 ? "iNode" : "jNode", &tag)) return TCL_ERROR;
        if (!hs_os_find_node(st->m, tag))
            return hs_os_fail(st, objv, "no node %d (define it first)", tag);
        *(k == 3 ? &e->ni : &e->nj) = tag;
    }
    if (hs_os_int(st, objv, 5, "secTag", &e->section)) return TCL_ERROR;
    if (!hs_os_find_section(st->m, e->section))
        return hs_os_fail(st, objv, "no section %d (define it first)", e->section);
    for (int i = 6; i < objc; i++) {
        const char *opt = Tcl_GetString(objv[i]);
        if (strcmp(opt, "-orient") == 0) {
            double v[6] = {1, 0, 0, 0, 1, 0};
            int k = 0;
            for (;
                 k < 6 && i + 1 < objc && Tcl_GetDoubleFromObj(NULL, objv[i + 1], &v[k]) == TCL_OK;
                 k++, i++) {
            }
            if (k != 6 && !(k == 3 && st->m->ndm == 2))
                return hs_os_fail(st, objv,
                                  "-orient: expected x1 x2 x3 yp1 yp2 yp3%s, got %d numbers",
                                  st->m->ndm == 2 ? " (or x1 x2 x3 in 2-D)" : "", k);
            if (k == 3) { /* OPS_ZeroLengthSection in 2-D: y = z x x */
                v[3] = -v[1];
                v[4] = v[0];
                v[5] = 0.0;
            }
            e->has_orient = e->has_yp = 1;
            memcpy(e->orient, v, sizeof e->orient);
            memcpy(e->yp, v + 3, sizeof e->yp);
        } else if (strcmp(opt, "-doRayleigh") == 0) {
            int flag = 1; /* the flag alone means 1 */
            if (i + 1 < objc && Tcl_GetIntFromObj(NULL, objv[i + 1], &flag) == TCL_OK) i++;
            e->rayleigh_ok = flag != 0;
        } else {
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (zeroLengthSection knows "
                              "-orient and -doRayleigh)",
                              opt);
        }
    }
    return TCL_OK;
}

int hs_os_add_zero_length_section(hs_fe *fe, const hs_os_model *m, const hs_os_element *e,
                                  const char *name)
{
    return hs_fe_add_zero_length_section(
        fe, name, e->ni, e->nj, hs_os_find_section(m, e->section)->def,
        e->has_orient ? e->orient : NULL, e->has_yp ? e->yp : NULL);
}
