/* The 2-D bearings of OpenSees and OpenFresco in hysim's interpreter (docs/opensees_tcl.md,
 * docs/openfresco.md): both are hysim's two-node link (src/fe/fe_link.c) of three directions,
 * axial (the -P material), shear, moment (the -Mz material), in the local frame of the chord (or
 * -orient), the shear at -shearDist from iNode (0.5), with the bearings' P-Delta.
 *
 * element elastomericBearingPlasticity tag iNode jNode kInit qd alpha1 alpha2 mu -P matTag -Mz
 * matTag <-orient x1 x2 x3 y1 y2 y3> <-shearDist sD> <-doRayleigh> <-mass m>
 * (ElastomericBearingPlasticity2d.cpp of OpenSees 3.8): the shear is the material
 * bearing_plasticity (k_init kInit, q_yield qd, alpha1, alpha2, mu); P-Delta always, half of N
 * delta at each end and half of N in the rotations' term (p_delta_rot 0.5); Rayleigh damping only
 * with -doRayleigh.
 *
 * expElement bearing tag iNode jNode pFrcCtrl -P matTag -Mz matTag -site siteTag -initStif k
 * <-orient ...> <-pDelta rMz1 rMz2> <-shearDist sD> <-iMod> <-doRayleigh|-noRayleigh> <-mass m>
 * (EEBearing2d.cpp of OpenFresco 2.8): the site drives the shear (its setup's actuator on basic
 * DOF 2, the specimen the control's material); the axial and moment DOFs are the element's own
 * materials (EEBearing2d uses them where the test measures no force); the stiffness is
 * kb = diag(k_P, -initStif, k_Mz) with the materials' tangents, initial and tangent (its
 * setInitialStiff, getTangentStiff), plus the P-Delta of -pDelta: N delta shared by the ratios,
 * the rest as the shear couple, and N in the rotations' term (p_delta_rot 1); Rayleigh damping
 * unless -noRayleigh. */
#include "opensees_tcl_openfresco.h"

#include <math.h>
#include <string.h>

/* tag iNode jNode at objv[2..4] */
static int bearing_nodes(hs_os_state *st, Tcl_Obj *const objv[], hs_os_element *e)
{
    if (st->m->ndm != 2 || st->m->ndf != 3)
        return hs_os_fail(st, objv,
                          "hysim has the 2-D bearing (-ndm 2 -ndf 3, as OpenSees' and "
                          "OpenFresco's 2d elements); this model is -ndm %d -ndf %d",
                          st->m->ndm, st->m->ndf);
    for (int k = 3; k < 5; k++) {
        int tag;
        if (hs_os_int(st, objv, k, k == 3 ? "iNode" : "jNode", &tag)) return TCL_ERROR;
        if (!hs_os_find_node(st->m, tag))
            return hs_os_fail(st, objv, "no node %d (define it first)", tag);
        *(k == 3 ? &e->ni : &e->nj) = tag;
    }
    e->kind = HS_OS_LINK;
    e->shear_dist = 0.5;
    e->nmat = 3;
    e->dir[0] = HS_FE_UX;
    e->dir[1] = HS_FE_UY;
    e->dir[2] = HS_FE_RZ;
    e->has_p_delta = 1; /* the ratios are set by the caller */
    e->p_delta_bearing = 1;
    return TCL_OK;
}

/* -P matTag -Mz matTag at objv[i..i+3]: materials 0 and 2 */
static int bearing_materials(hs_os_state *st, Tcl_Obj *const objv[], int objc, int i,
                             hs_os_element *e)
{
    static const char *const flag[2] = {"-P", "-Mz"};
    for (int k = 0; k < 2; k++, i += 2) {
        int tag;
        if (i + 1 >= objc || strcmp(Tcl_GetString(objv[i]), flag[k]))
            return hs_os_fail(st, objv, "expected '%s matTag' (the %s material) at word %d",
                              flag[k], k ? "bending" : "axial", i + 1);
        if (hs_os_int(st, objv, i + 1, flag[k], &tag)) return TCL_ERROR;
        if (!hs_os_find_material(st->m, tag))
            return hs_os_fail(st, objv, "%s %d: no uniaxialMaterial %d (define it first)", flag[k],
                              tag, tag);
        e->mat[2 * k] = tag;
    }
    return TCL_OK;
}

/* The options both bearings know: -orient x1 x2 x3 y1 y2 y3 (local x, then y in the x-y plane:
 * z = x x y must be +Z, as hysim's plane link has it), -shearDist sD, -doRayleigh, -mass m.
 * 1 when objv[*i] was one (and *i on its last word), 0 when not, -1 on an error. */
static int bearing_option(hs_os_state *st, Tcl_Obj *const objv[], int objc, int *i,
                          hs_os_element *e)
{
    const char *o = Tcl_GetString(objv[*i]);
    if (!strcmp(o, "-orient")) {
        double v[6];
        for (int k = 0; k < 6; k++)
            if (*i + 1 + k >= objc || Tcl_GetDoubleFromObj(NULL, objv[*i + 1 + k], &v[k]) != TCL_OK)
                return hs_os_fail(st, objv, "-orient: expected x1 x2 x3 y1 y2 y3 (six numbers)"),
                       -1;
        if (!(v[0] * v[4] - v[1] * v[3] > 0.0))
            return hs_os_fail(st, objv,
                              "-orient %g %g %g %g %g %g: local z = x x y must point along +Z "
                              "(hysim's plane link; a y on the other side of x turns the "
                              "moment's sign); give y = (-x2, x1, 0)",
                              v[0], v[1], v[2], v[3], v[4], v[5]),
                   -1;
        e->has_orient = 1;
        for (int c = 0; c < 3; c++) e->orient[c] = v[c];
        *i += 6;
        return 1;
    }
    if (!strcmp(o, "-shearDist")) {
        if (*i + 1 >= objc || hs_os_num(st, objv, *i + 1, "-shearDist", &e->shear_dist))
            return *i + 1 >= objc ? hs_os_fail(st, objv, "-shearDist: expected sDratio"), -1 : -1;
        (*i)++;
        return 1;
    }
    if (!strcmp(o, "-doRayleigh")) {
        e->rayleigh_ok = 1;
        return 1;
    }
    if (!strcmp(o, "-mass")) {
        if (*i + 1 >= objc || hs_os_num(st, objv, *i + 1, "-mass", &e->mass))
            return *i + 1 >= objc ? hs_os_fail(st, objv, "-mass: expected the mass"), -1 : -1;
        (*i)++;
        return 1;
    }
    return 0;
}

int hs_os_el_bearing_plasticity(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_element *e)
{
    if (objc < 14)
        return hs_os_fail(st, objv,
                          "expected 'element elastomericBearingPlasticity tag iNode jNode kInit "
                          "qd alpha1 alpha2 mu -P matTag -Mz matTag <-orient x1 x2 x3 y1 y2 y3> "
                          "<-shearDist sD> <-doRayleigh> <-mass m>'");
    if (bearing_nodes(st, objv, e)) return TCL_ERROR;
    static const char *const name[5] = {"kInit", "qd", "alpha1", "alpha2", "mu"};
    static const char *const key[5] = {"k_init", "q_yield", "alpha1", "alpha2", "mu"};
    double v[5];
    for (int k = 0; k < 5; k++)
        if (hs_os_num(st, objv, 5 + k, name[k], &v[k])) return TCL_ERROR;
    if (bearing_materials(st, objv, objc, 10, e)) return TCL_ERROR;
    for (int i = 14; i < objc; i++) {
        const int r = bearing_option(st, objv, objc, &i, e);
        if (r < 0) return TCL_ERROR;
        if (!r)
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (elastomericBearingPlasticity "
                              "knows -orient, -shearDist, -doRayleigh, -mass)",
                              Tcl_GetString(objv[i]));
    }
    e->p_delta[2] = e->p_delta[3] =
        0.5;              /* ElastomericBearingPlasticity2d: 0.5 N delta at each end */
    e->p_delta_rot = 0.5; /* and 0.5 N in the rotations' term */
    /* the shear: a material of its own, tagged -(element tag) (no script material has one) */
    if (hs_os_find_material(st->m, -e->tag))
        return hs_os_fail(st, objv, "element tag %d: its shear material's tag %d is taken", e->tag,
                          -e->tag);
    hs_options *opts = NULL;
    int rc = hs_options_create(&opts) ? HS_ENOMEM : 0;
    for (int k = 0; !rc && k < 5; k++) rc = hs_options_set_num(opts, key[k], v[k]);
    hs_material *probe = NULL; /* the values checked as a test file's (kInit > 0, ...) */
    if (!rc && hs_material_create(st->ctx, "bearing_plasticity", opts, &probe) != 0) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", hs_ctx_message(st->ctx));
        hs_options_destroy(&opts);
        return hs_os_fail(st, objv, "%s", msg);
    }
    hs_material_destroy(&probe);
    hs_os_material *m = rc ? NULL : hs_os_push((void **)&st->m->mats, &st->m->nmats, sizeof *m);
    if (!m) {
        hs_options_destroy(&opts);
        return hs_os_fail(st, objv, "out of memory");
    }
    m->tag = -e->tag;
    m->type = "bearing_plasticity";
    m->opts = opts;
    hs_os_where(st, m->where, sizeof m->where);
    e->mat[1] = m->tag;
    return TCL_OK;
}

/* The shear's specimen: the site's setup must drive basic DOF 2 alone, unscaled, with one
 * material (the axial and moment DOFs are the element's own materials). */
static int bearing_site(hs_os_state *st, Tcl_Obj *const objv[], int site, int *mat)
{
    const struct hs_os_fresco *f = hs_of_state(st);
    const hs_of_site *s = NULL;
    for (int k = 0; f && k < f->nsites; k++)
        if (f->sites[k].tag == site) s = &f->sites[k];
    if (!s) return hs_os_fail(st, objv, "no expSite %d (define it first)", site);
    const hs_of_setup *su = hs_of_find_setup(f, s->setup);
    const hs_of_control *c = hs_of_find_control(f, su->control);
    if (su->size_trial != 3 || su->nact != 1 || su->trial_dof[0] != 1 || su->has_geom ||
        c->nmat != 1)
        return hs_os_fail(st, objv,
                          "site %d: hysim's experimental bearing takes a setup that drives its "
                          "shear alone (basic DOF 2 of 3, one material: 'expSetup "
                          "NoTransformation tag -control c -dir 2 -sizeTrialOut 3 3' or "
                          "OneActuator ... 2); setup %d (%s) drives %d actuator(s) over a trial "
                          "vector of %d",
                          site, su->tag, su->type, su->nact, su->size_trial);
    for (int g = 0; g < 4; g++)
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < HS_OF_MAX_MATS; j++)
                if (su->fac[g][k][j] != 1.0)
                    return hs_os_fail(st, objv,
                                      "site %d: setup %d scales the specimen; hysim's "
                                      "experimental bearing takes an unscaled one",
                                      site, su->tag);
    *mat = c->mat[0];
    return TCL_OK;
}

int hs_of_exp_bearing(hs_os_state *st, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)interp; /* st->interp (hs_os_add_element) */
    hs_os_element e = {0};
    int pfc, site = 0, i = 10;
    double k_init = 0.0;
    if (objc < 14)
        return hs_os_fail(st, objv,
                          "expected 'expElement bearing tag iNode jNode pFrcCtrl -P matTag -Mz "
                          "matTag -site siteTag -initStif Kij <-orient x1 x2 x3 y1 y2 y3> "
                          "<-pDelta rMz1 rMz2> <-shearDist sD> <-iMod> <-noRayleigh> <-mass m>'");
    if (hs_os_int(st, objv, 2, "tag", &e.tag) || bearing_nodes(st, objv, &e) ||
        hs_os_int(st, objv, 5, "pFrcCtrl", &pfc) || bearing_materials(st, objv, objc, 6, &e))
        return TCL_ERROR;
    if (pfc != 0)
        return hs_os_fail(st, objv,
                          "pFrcCtrl %d: the axial force control (an actuator under force "
                          "control) is not supported by hysim's virtual laboratory; give 0",
                          pfc);
    if (!strcmp(Tcl_GetString(objv[i]), "-server"))
        return hs_os_fail(st, objv,
                          "-server: a networked site; in hysim's own analysis the site is local "
                          "(-site siteTag); to serve OpenSees, run 'hysim site' "
                          "(docs/openfresco.md)");
    if (strcmp(Tcl_GetString(objv[i]), "-site") || hs_os_int(st, objv, i + 1, "-site", &site))
        return strcmp(Tcl_GetString(objv[i]), "-site")
                   ? hs_os_fail(st, objv, "expected '-site siteTag' after -Mz matTag")
                   : TCL_ERROR;
    i += 2;
    if (strcmp(Tcl_GetString(objv[i]), "-initStif") && strcmp(Tcl_GetString(objv[i]), "-initStiff"))
        return hs_os_fail(st, objv,
                          "expected '-initStif k' after -site (the shear's initial stiffness, "
                          "one value)");
    if (i + 1 >= objc || hs_os_num(st, objv, i + 1, "-initStif", &k_init)) return TCL_ERROR;
    e.rayleigh_ok = 1; /* EEBearing2d's default: doRayleigh 1 */
    for (i += 2; i < objc; i++) {
        const char *o = Tcl_GetString(objv[i]);
        const int r = bearing_option(st, objv, objc, &i, &e);
        if (r < 0) return TCL_ERROR;
        if (r) continue;
        if (!strcmp(o, "-pDelta")) {
            for (int c = 2; c < 4; c++, i++)
                if (i + 1 >= objc || hs_os_num(st, objv, i + 1, "-pDelta", &e.p_delta[c]))
                    return i + 1 >= objc ? hs_os_fail(st, objv, "-pDelta: expected rMz1 rMz2")
                                         : TCL_ERROR;
            e.p_delta_rot = 1.0; /* EEBearing2d: N itself in the rotations' term */
        } else if (!strcmp(o, "-noRayleigh")) {
            e.rayleigh_ok = 0;
        } else if (!strcmp(o, "-iMod")) {
            continue; /* nothing to correct in a perfect laboratory */
        } else if (!strcmp(o, "-tangStif") || !strcmp(o, "-tangStiff")) {
            i++; /* EEBearing2d's tangent is its -initStif on the shear whatever the estimate */
        } else {
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (expElement bearing knows "
                              "-orient, -pDelta, -shearDist, -iMod, -doRayleigh, -noRayleigh, "
                              "-mass, -tangStif)",
                              o);
        }
    }
    e.has_p_delta = e.p_delta_rot != 0.0; /* EEBearing2d: P-Delta only with -pDelta */
    e.p_delta_bearing = e.has_p_delta;
    if (bearing_site(st, objv, site, &e.mat[1])) return TCL_ERROR;
    e.has_k_dir[1] = 1;
    e.k_dir[1] = k_init;
    e.exp_site = site;
    e.exp_rayleigh = e.rayleigh_ok;
    if (hs_os_find_element(st->m, e.tag))
        return hs_os_fail(st, objv, "element %d is already defined", e.tag);
    return hs_os_add_element(st, objv, &e);
}

/* expElement beamColumn (EEBeamColumn2d.cpp): with -initStif the element is EEBeamColumn2d's
 * basic system B through its geomTransf, with its elastic axial force where the site measures
 * none (src/fe/fe_link_beam.c); without -initStif (Linear only) the link on the driven DOFs. */
int hs_of_exp_beam(hs_os_state *st, Tcl_Obj *const objv[], hs_fe_transf transf)
{
    int tag = 0;
    Tcl_GetIntFromObj(NULL, objv[2], &tag);
    hs_os_element *e = hs_os_find_element(st->m, tag);
    if (!e) return hs_os_fail(st, objv, "element %d: not defined", tag);
    e->exp_beam = e->nkinit == 3 || e->nkinit == 6; /* EEBeamColumn2d, EEBeamColumn3d */
    e->exp_beam_transf = transf;
    return TCL_OK;
}
