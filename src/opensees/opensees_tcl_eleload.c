/* OpenSees' eleLoad in hysim's interpreter (opensees_tcl.h; docs/opensees_tcl.md): member loads
 * of a Plain pattern, as OpenSees' Tcl parser reads them (SRC/modelbuilder/tcl/TclModelBuilder.cpp,
 * TclCommand_addElementalLoad, read for facts):
 *   eleLoad -ele e1 e2 ... | -range a b -type -beamUniform wy <wx> <aL bL>  (-ndm 2)
 *                                             -beamUniform wy wz <wx> <aL bL> (-ndm 3)
 *                                             -beamPoint Py xL <Px>         (-ndm 2)
 *                                             -beamPoint Py Pz xL <Px>      (-ndm 3)
 * in the element's local axes, scaled by the pattern's factor as its nodal loads. The frame model
 * carries them in its elements (src/fe/fe_member_load.c). */
#include "opensees_analysis.h"

#include <stdio.h>
#include <string.h>

#define STATE(cd) ((hs_os_state *)(cd))

/* The element tags of -ele e1 e2 ... and -range a b (as many as given), from objv[*i]. */
static int element_tags(hs_os_state *st, int objc, Tcl_Obj *const objv[], int *i, int **tags,
                        int *n)
{
    while (*i < objc) {
        const char *opt = Tcl_GetString(objv[*i]);
        int a, b;
        if (!strcmp(opt, "-ele")) {
            for ((*i)++; *i < objc && Tcl_GetIntFromObj(NULL, objv[*i], &a) == TCL_OK; (*i)++) {
                int *slot = hs_os_push((void **)tags, n, sizeof *slot);
                if (!slot) return hs_os_fail(st, objv, "out of memory");
                *slot = a;
            }
        } else if (!strcmp(opt, "-range")) {
            if (*i + 2 >= objc || hs_os_int(st, objv, *i + 1, "-range", &a) ||
                hs_os_int(st, objv, *i + 2, "-range", &b))
                return hs_os_fail(st, objv, "-range: expected two element tags (first last)");
            for (int t = a; t <= b; t++) {
                int *slot = hs_os_push((void **)tags, n, sizeof *slot);
                if (!slot) return hs_os_fail(st, objv, "out of memory");
                *slot = t;
            }
            *i += 3;
        } else
            return TCL_OK;
    }
    return TCL_OK;
}

/* The numbers after the type: at least `need`, at most `most` (the optional axial one). */
static int values(hs_os_state *st, int objc, Tcl_Obj *const objv[], int i, int need, int most,
                  const char *form, double *v)
{
    const int n = objc - i;
    if (n < need || n > most) return hs_os_fail(st, objv, "expected '%s'", form);
    for (int k = 0; k < n; k++)
        if (hs_os_num(st, objv, i + k, "load value", &v[k])) return TCL_ERROR;
    return TCL_OK;
}

/* -beamUniform wy <wx> <aL> <bL> <wyb> <wxb> (2-D), wy wz <wx> <aL> <bL> <wyb> <wzb> <wxb>
 * (3-D): OpenSees' partial load when aL > 0 or bL < 1 (2-D also when an end's intensity
 * differs: a trapezoid from the a end's to the b end's; 3-D ignores the b values of a
 * whole-length load, as OpenSees, and hysim refuses a varying partial one). */
static int uniform(hs_os_state *st, int objc, Tcl_Obj *const objv[], int i, int d3,
                   hs_fe_member_load *ld)
{
    double v[8] = {0};
    const int n = d3 ? 8 : 6;
    const char *form = d3 ? "-beamUniform wy wz <wx> <aOverL bOverL <wyb wzb wxb>>"
                          : "-beamUniform wy <wx> <aOverL bOverL <wyb wxb>>";
    if (values(st, objc, objv, i, d3 ? 2 : 1, n, form, v)) return TCL_ERROR;
    const int given = objc - i, at_a = d3 ? 3 : 2; /* v[at_a], v[at_a + 1]: aL, bL */
    const double aL = given > at_a ? v[at_a] : 0.0, bL = given > at_a + 1 ? v[at_a + 1] : 1.0;
    *ld = (hs_fe_member_load){.y = v[0]};
    ld->z = d3 ? v[1] : 0.0;
    ld->x = d3 ? v[2] : v[1];
    /* the b end's intensities, as given or the a end's */
    const int nb = d3 ? 3 : 2;
    double wb[3] = {ld->y, d3 ? ld->z : ld->x, ld->x};
    for (int k = 0; k < nb && given > at_a + 2 + k; k++) wb[k] = v[at_a + 2 + k];
    const int varies =
        d3 ? wb[0] != ld->y || wb[1] != ld->z || wb[2] != ld->x : wb[0] != ld->y || wb[1] != ld->x;
    const int partial = aL > 0.0 || bL < 1.0;
    if (varies && partial && d3)
        return hs_os_fail(st, objv,
                          "-beamUniform: a 3-D load varying along the member (wyb wzb wxb other "
                          "than wy wz wx) is not supported by hysim (OpenSees' 3-D elements "
                          "disagree on it); give one intensity, or split the member");
    if (partial && !(aL >= 0.0 && aL < bL && bL <= 1.0))
        return hs_os_fail(st, objv,
                          "-beamUniform: loaded from %g to %g of the length: give 0 <= aOverL < "
                          "bOverL <= 1",
                          aL, bL);
    if (partial || (varies && !d3)) { /* OpenSees' Beam2d/3dPartialUniformLoad */
        ld->a = aL;
        ld->b = bL;
    }
    if (varies && !d3) { /* a 2-D trapezoid (3-D: a whole-length load ignores the b values) */
        ld->vary = 1;
        ld->yb = wb[0];
        ld->xb = wb[1];
    }
    return TCL_OK;
}

int hs_os_cmd_ele_load(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    if (!st->in_plain)
        return hs_os_fail(st, objv,
                          "an eleLoad belongs inside 'pattern Plain tag series { ... }' (-pattern "
                          "is not supported)");
    if (st->live && st->an && st->an->lv)
        return hs_os_fail(st, objv,
                          "not yet supported by hysim: member loads defined after the first "
                          "analyze (its model is built then); define every eleLoad before it");
    const int d3 = st->m->ndm == 3;
    if (st->m->ndm != 2 && !d3)
        return hs_os_fail(st, objv, "member loads act on beams of -ndm 2 or 3 models");
    int *tags = NULL, ntags = 0, i = 1;
    if (element_tags(st, objc, objv, &i, &tags, &ntags)) return hs_free(tags), TCL_ERROR;
    int rc = TCL_OK;
    if (ntags == 0)
        rc = hs_os_fail(st, objv, "expected 'eleLoad -ele tag ... | -range first last -type ...'");
    if (!rc && (i + 1 >= objc || strcmp(Tcl_GetString(objv[i]), "-type") != 0))
        rc = hs_os_fail(st, objv, "expected -type -beamUniform or -type -beamPoint after the tags");
    const char *type = rc ? "" : Tcl_GetString(objv[i + 1]);
    hs_fe_member_load ld = {0};
    double v[8] = {0};
    if (rc) {
    } else if (!strcmp(type, "-beamUniform") || !strcmp(type, "beamUniform")) {
        rc = uniform(st, objc, objv, i + 2, d3, &ld);
    } else if (!strcmp(type, "-beamPoint") || !strcmp(type, "beamPoint")) {
        rc = d3 ? values(st, objc, objv, i + 2, 3, 4, "-beamPoint Py Pz xL <Px>", v)
                : values(st, objc, objv, i + 2, 2, 3, "-beamPoint Py xL <Px>", v);
        ld = (hs_fe_member_load){.point = 1, .y = v[0]};
        ld.z = d3 ? v[1] : 0.0;
        ld.x = d3 ? v[3] : v[2];
        ld.xL = d3 ? v[2] : v[1];
        if (!rc && !(ld.xL >= 0.0 && ld.xL <= 1.0))
            rc = hs_os_fail(st, objv,
                            "-beamPoint: xL = %g: give the load's place from node i as a "
                            "fraction of the length, 0 to 1",
                            ld.xL);
    } else
        rc = hs_os_fail(st, objv,
                        "-type %s is not supported by hysim (-beamUniform and -beamPoint)", type);
    for (int k = 0; !rc && k < ntags; k++) {
        const hs_os_element *e = hs_os_find_element(st->m, tags[k]);
        if (!e)
            rc = hs_os_fail(st, objv, "no element %d", tags[k]);
        else if (e->kind != HS_OS_BEAM && !(e->kind == HS_OS_BEAM_COLUMN && e->force_based < 2))
            rc = hs_os_fail(st, objv,
                            "element %d: member loads act on elasticBeamColumn, forceBeamColumn, "
                            "nonlinearBeamColumn, beamWithHinges and dispBeamColumn elements",
                            tags[k]);
        else if ((ld.a != 0.0 || ld.b != 0.0) && e->kind == HS_OS_BEAM_COLUMN && !e->force_based)
            rc = hs_os_fail(st, objv,
                            "element %d: a partial uniform load on a dispBeamColumn (OpenSees' "
                            "DispBeamColumn has none: it ignores the load); give the loaded part "
                            "its own element, or use a forceBeamColumn",
                            tags[k]);
        else if (e->transf == HS_FE_COROTATIONAL && d3)
            rc = hs_os_fail(st, objv,
                            "element %d: member loads on a 3-D Corotational transformation are "
                            "not supported by hysim (use Linear or PDelta; in 2-D all three)",
                            tags[k]);
        hs_os_eleload *l =
            rc ? NULL : hs_os_push((void **)&st->m->eleloads, &st->m->neleloads, sizeof *l);
        if (!rc && !l) rc = hs_os_fail(st, objv, "out of memory");
        if (rc) break;
        *l = (hs_os_eleload){
            .ele = tags[k], .pattern = st->plain_pattern, .ld = ld, .kf = st->plain_factor};
        hs_os_where(st, l->where, sizeof l->where);
    }
    hs_free(tags);
    if (rc) return TCL_ERROR;
    Tcl_ResetResult(interp);
    return TCL_OK;
}

int hs_os_add_member_loads(hs_ctx *ctx, hs_fe *fe, const hs_os_model *m, const int *el_index,
                           int by_pattern)
{
    for (int k = 0; k < m->neleloads; k++) {
        const hs_os_eleload *l = &m->eleloads[k];
        int at = -1;
        for (int j = 0; j < m->nels && at < 0; j++)
            if (m->els[j].tag == l->ele) at = el_index[j];
        if (at < 0) continue; /* not in this frame (a Rayleigh group's part) */
        const int rc = hs_fe_add_member_load(fe, at, by_pattern ? l->pattern : k, &l->ld);
        if (rc < 0) {
            char msg[1024];
            snprintf(msg, sizeof msg, "%s", hs_ctx_message(ctx));
            return hs_fail(ctx, rc == HS_ENOMEM ? rc : HS_EINPUT, "%s: eleLoad: %s", l->where, msg);
        }
        if (!by_pattern) hs_fe_member_load_scale(fe, k, l->kf);
    }
    return 0;
}

/* elasticBeamColumn -release r (2-D), -releasez r, -releasey r (3-D; ElasticBeam2d.cpp,
 * ElasticBeam3d.cpp): 0 none, 1 at node i, 2 at node j, 3 both. */
int hs_os_el_beam_release(hs_os_state *st, int objc, Tcl_Obj *const objv[], int i, hs_os_element *e)
{
    const char *opt = Tcl_GetString(objv[i]);
    const int d3 = st->m->ndm == 3;
    int r;
    if (d3 ? !strcmp(opt, "-release") : !strcmp(opt, "-releasey"))
        return hs_os_fail(st, objv, "%s: a %s model releases with %s", opt, d3 ? "3-D" : "2-D",
                          d3 ? "-releasez (about local z) and -releasey (about local y)"
                             : "-release (or -releasez)");
    if (i + 1 >= objc || hs_os_int(st, objv, i + 1, opt, &r)) return TCL_ERROR;
    if (r < 0 || r > 3)
        return hs_os_fail(st, objv, "%s %d: expected 0 (none), 1 (node i), 2 (node j) or 3 (both)",
                          opt, r);
    if (!strcmp(opt, "-releasey"))
        e->release_y = r;
    else
        e->release_z = r;
    return TCL_OK;
}
