/* element TripleFrictionPendulumX tag iNode jNode tagT tagT2 vertMatTag rotZMatTag rotXMatTag
 * rotYMatTag tagPres tagTemp tagVel mu1 mu2 mu3 L1 L2 L3 d1 d2 d3 b1 b2 b3 t2 t3 W uy kvt minFv
 * tol Pref1 Pref2 Pref3 Diffu Conduct T0 velRate kTmodel unit (OpenSees 3.8's
 * OPS_TripleFrictionPendulumX, SRC/element/frictionBearing/TripleFrictionPendulumX.cpp, read for
 * facts): 12 integers and 28 numbers. OpenSees takes its four materials from the 5th to 8th
 * integers, tagT2 vertMatTag rotZMatTag rotXMatTag, as the vertical, torsion, rocking x and
 * rocking y materials (rotYMatTag is not read); hysim reads them so, to give OpenSees' results
 * (docs/opensees_tcl.md). The element: hs_fe_add_tfp_x. */
#include "opensees_tcl.h"

int hs_os_el_tfp_x(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e)
{
    if (objc != 42)
        return hs_os_fail(st, objv,
                          "expected 'element TripleFrictionPendulumX tag iNode jNode tagT tagT2 "
                          "vertMatTag rotZMatTag rotXMatTag rotYMatTag tagPres tagTemp tagVel mu1 "
                          "mu2 mu3 L1 L2 L3 d1 d2 d3 b1 b2 b3 t2 t3 W uy kvt minFv tol Pref1 Pref2 "
                          "Pref3 Diffu Conduct T0 velRate kTmodel unit' (12 integers, 28 numbers; "
                          "got %d words)",
                          objc - 1);
    int iv[12];
    for (int k = 0; k < 12; k++)
        if (hs_os_int(st, objv, 2 + k, "an integer of TripleFrictionPendulumX", &iv[k]))
            return TCL_ERROR;
    double dv[28];
    for (int k = 0; k < 28; k++)
        if (hs_os_num(st, objv, 14 + k, "a number of TripleFrictionPendulumX", &dv[k]))
            return TCL_ERROR;
    if (iv[3] != 1)
        return hs_os_fail(st, objv,
                          "tagT %d: hysim has OpenSees' partitioning approach 1 (tagT 1) only; "
                          "approach 2's tracking of the sliding regimes is not yet here",
                          iv[3]);
    for (int k = 1; k < 3; k++)
        if (!hs_os_find_node(st->m, iv[k]))
            return hs_os_fail(st, objv, "no node %d (define it first)", iv[k]);
    if (st->m->ndm != 3 || st->m->ndf != 6)
        return hs_os_fail(st, objv,
                          "a TripleFrictionPendulumX needs -ndm 3 -ndf 6 (this model is "
                          "-ndm %d -ndf %d)",
                          st->m->ndm, st->m->ndf);
    for (int k = 0; k < 4; k++)
        if (!hs_os_find_material(st->m, iv[4 + k]))
            return hs_os_fail(st, objv,
                              "no uniaxialMaterial %d: OpenSees 3.8 takes the four materials from "
                              "the words tagT2 vertMatTag rotZMatTag rotXMatTag (vertical, "
                              "torsion, rocking x, rocking y)",
                              iv[4 + k]);
    e->kind = HS_OS_TFP_X;
    e->ni = iv[1];
    e->nj = iv[2];
    e->nmat = 4;
    for (int k = 0; k < 4; k++) e->mat[k] = iv[4 + k];
    hs_fe_tfp_x_def *p = &e->tfpx;
    p->tagT = iv[3];
    p->tagT2 = iv[4];
    p->kp = iv[9];
    p->kT = iv[10];
    p->kv = iv[11];
    for (int s = 0; s < 3; s++) {
        p->mu[s] = dv[s];
        p->L[s] = dv[3 + s];
        p->ubar[s] = dv[6 + s];
        p->B[s] = dv[9 + s];
        p->pref[s] = dv[19 + s];
    }
    p->plate[0] = dv[12];
    p->plate[1] = dv[13];
    p->W = dv[14];
    p->uy = dv[15];
    p->kvt = dv[16];
    p->minFv = dv[17];
    p->tol = dv[18];
    p->diffu = dv[22];
    p->conduct = dv[23];
    p->T0 = dv[24];
    p->vel_rate = dv[25];
    p->kT_model = dv[26];
    p->unit = dv[27];
    return TCL_OK;
}

int hs_os_add_tfp_x(hs_fe *fe, const hs_os_model *m, const hs_os_element *e, const char *name)
{
    const char *types[4];
    const hs_options *opts[4];
    for (int k = 0; k < 4; k++) {
        const hs_os_material *mat = hs_os_find_material(m, e->mat[k]);
        types[k] = mat->type;
        opts[k] = mat->opts;
    }
    return hs_fe_add_tfp_x(fe, name, e->ni, e->nj, &e->tfpx, types, opts);
}
