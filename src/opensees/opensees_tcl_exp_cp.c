/* expControlPoint tag <-node nodeTag> dof rspType <-fact f> <-lim l u> <-relTrial> <-relOut>
 * <-relCtrl> <-relDaq> dof rspType ... (OpenFresco 2.8's OPF_ExperimentalCP in
 * SRC/experimentalControlPoint/ExperimentalCP.cpp, read for facts): a control point's signals,
 * each a DOF (1-based, written 1 or u1, d1, f1, o1) and a response type (1 disp dsp
 * displacement, 2 vel velocity, 3 acc accel acceleration, 4 frc force, 5 t tme time), each with
 * its own factor (1 by default) and limits. The controls of laboratories
 * (opensees_tcl_exp_remote.c) read them: how many signals they command and measure, and of which
 * kind. Signal filters and relative signals are kept as flags; a SimUniaxialMaterials control reads
 * no control point. */
#include "opensees_tcl_openfresco.h"

#include <stdio.h>
#include <string.h>

static int response_type(const char *s)
{
    static const struct {
        const char *name;
        int rsp;
    } types[] = {{"1", HS_OF_CP_DISP},
                 {"dsp", HS_OF_CP_DISP},
                 {"disp", HS_OF_CP_DISP},
                 {"displacement", HS_OF_CP_DISP},
                 {"2", HS_OF_CP_VEL},
                 {"vel", HS_OF_CP_VEL},
                 {"velocity", HS_OF_CP_VEL},
                 {"3", HS_OF_CP_ACCEL},
                 {"acc", HS_OF_CP_ACCEL},
                 {"accel", HS_OF_CP_ACCEL},
                 {"acceleration", HS_OF_CP_ACCEL},
                 {"4", HS_OF_CP_FORCE},
                 {"frc", HS_OF_CP_FORCE},
                 {"force", HS_OF_CP_FORCE},
                 {"5", HS_OF_CP_TIME},
                 {"t", HS_OF_CP_TIME},
                 {"tme", HS_OF_CP_TIME},
                 {"time", HS_OF_CP_TIME}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (!strcmp(s, types[i].name)) return types[i].rsp;
    return -1;
}

/* A DOF word: an integer, or one of the letters d f o u (either case) then an integer (2.8's
 * parser), or the names of older examples, ux uy uz rx ry rz (1 to 6: OneBayFrame/TestLabVIEW,
 * which OpenFresco 2.8's parser refuses; its SDOF_MiniMost_Local.tcl also gives the node without
 * -node, `expControlPoint 1 2 ux disp`: taken when a DOF name follows the node tag). */
static int dof_name(const char *s, int *dof)
{
    static const char *const names[] = {"ux", "uy", "uz", "rx", "ry", "rz"};
    for (int k = 0; k < 6; k++)
        if (!strcmp(s, names[k])) return *dof = k + 1, 1;
    return 0;
}

static int dof_word(const char *s, int *dof)
{
    char c;
    if (dof_name(s, dof)) return 1;
    if (sscanf(s, "%d%c", dof, &c) == 1) return 1;
    return s[0] && strchr("dfouDFOU", s[0]) && sscanf(s + 1, "%d%c", dof, &c) == 1;
}

const hs_of_cp *hs_of_find_cp(const struct hs_os_fresco *f, int tag)
{
    for (int i = 0; f && i < f->ncps; i++)
        if (f->cps[i].tag == tag) return &f->cps[i];
    return NULL;
}

int hs_of_cmd_exp_control_point(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = cd;
    if (objc < 4)
        return hs_os_fail(st, objv,
                          "expected 'expControlPoint tag <-node nodeTag> dof rspType <-fact f> "
                          "<-lim l u> ...'");
    hs_of_cp cp;
    memset(&cp, 0, sizeof cp);
    if (hs_os_int(st, objv, 1, "tag", &cp.tag)) return TCL_ERROR;
    int i = 2, named;
    if (!strcmp(Tcl_GetString(objv[i]), "-node")) {
        if (i + 1 >= objc || hs_os_int(st, objv, i + 1, "-node", &cp.node)) return TCL_ERROR;
        i += 2;
    } else if (objc > 4 && dof_name(Tcl_GetString(objv[3]), &named) &&
               Tcl_GetIntFromObj(NULL, objv[2], &cp.node) == TCL_OK) {
        i = 3; /* the older form `tag nodeTag dir rspType ...` (SDOF_MiniMost_Local.tcl) */
    }
    while (i < objc) {
        int dof;
        const char *w = Tcl_GetString(objv[i]);
        if (!dof_word(w, &dof) || dof < 1)
            return hs_os_fail(
                st, objv, "'%s': expected a DOF (1, 2, ..., u1, f1 ... or ux, uy, uz, rx, ry, rz)",
                w);
        if (cp.n == HS_OF_MAX_SIGNALS)
            return hs_os_fail(st, objv, "at most %d signals", HS_OF_MAX_SIGNALS);
        if (i + 1 >= objc)
            return hs_os_fail(st, objv, "DOF %d: expected its response type after it", dof);
        hs_of_signal *s = &cp.s[cp.n++];
        s->dof = dof;
        s->fact = 1.0;
        s->rsp = response_type(Tcl_GetString(objv[i + 1]));
        if (s->rsp < 0)
            return hs_os_fail(st, objv,
                              "DOF %d: response type '%s': expected disp, vel, accel, force or "
                              "time (or 1 to 5)",
                              dof, Tcl_GetString(objv[i + 1]));
        for (i += 2; i < objc && !dof_word(Tcl_GetString(objv[i]), &dof); i++) {
            const char *o = Tcl_GetString(objv[i]);
            if (!strcmp(o, "-fact") || !strcmp(o, "-factor")) {
                if (i + 1 >= objc || hs_os_num(st, objv, ++i, "-fact", &s->fact)) return TCL_ERROR;
            } else if (!strcmp(o, "-lim") || !strcmp(o, "-limit")) {
                if (i + 2 >= objc || hs_os_num(st, objv, i + 1, "-lim lower", &s->lo) ||
                    hs_os_num(st, objv, i + 2, "-lim upper", &s->hi))
                    return i + 2 >= objc ? hs_os_fail(st, objv, "-lim: expected lower upper")
                                         : TCL_ERROR;
                if (!(s->lo < s->hi))
                    return hs_os_fail(st, objv,
                                      "-lim %g %g: the lower limit must be below the "
                                      "upper",
                                      s->lo, s->hi);
                s->has_lim = 1;
                i += 2;
            } else if (!strcmp(o, "-relTrial") || !strcmp(o, "-relOut") || !strcmp(o, "-relCtrl") ||
                       !strcmp(o, "-relDaq")) {
                s->relative = 1;
            } else {
                return hs_os_fail(st, objv,
                                  "option '%s' is not supported by hysim (expControlPoint knows "
                                  "-fact, -lim, -relTrial, -relOut, -relCtrl, -relDaq)",
                                  o);
            }
        }
    }
    if (!cp.n) return hs_os_fail(st, objv, "expected at least one 'dof rspType' pair");
    struct hs_os_fresco *f = hs_of_state(st);
    if (!f) return hs_os_fail(st, objv, "out of memory");
    if (hs_of_find_cp(f, cp.tag))
        return hs_os_fail(st, objv, "control point %d is already defined", cp.tag);
    hs_of_cp *slot = hs_os_push((void **)&f->cps, &f->ncps, sizeof *slot);
    if (!slot) return hs_os_fail(st, objv, "out of memory");
    *slot = cp;
    Tcl_ResetResult(interp);
    return TCL_OK;
}
