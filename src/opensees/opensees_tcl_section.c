/* OpenSees' section commands: `section Fiber tag <-GJ GJ | -torsion matTag> { patch ...; layer ...;
 * fiber ... }`, `section Elastic`, `section Aggregator`, `section Uniaxial`, and `beamIntegration`
 * (the argument forms of OpenSees 3.x, SRC/material/section/TclModelBuilderSectionCommand.cpp and
 * the beamIntegration commands, read for facts). Sections become hs_fe_section_def (hysim's
 * fiber sections, docs/fe_model.md "Beam-columns with sections"). */
#include "opensees_tcl.h"

#include <string.h>

#define STATE(cd)  ((hs_os_state *)(cd))
#define MAX_FIBERS 20000 /* fibers of one patch or layer */

const hs_os_section *hs_os_find_section(const hs_os_model *m, int tag)
{
    for (int i = 0; i < m->nsections; i++)
        if (m->sections[i].tag == tag) return &m->sections[i];
    return NULL;
}

/* The material of tag objv[i], or an error. */
static const hs_os_material *material_arg(hs_os_state *st, Tcl_Obj *const objv[], int i)
{
    int tag;
    if (hs_os_int(st, objv, i, "matTag", &tag)) return NULL;
    const hs_os_material *m = hs_os_find_material(st->m, tag);
    if (!m) hs_os_fail(st, objv, "no uniaxialMaterial %d (define it first)", tag);
    return m;
}

/* OpenSees' response codes by name. */
static int code_of(const char *s)
{
    static const struct {
        const char *name;
        int code;
    } codes[] = {{"Mz", 1}, {"P", 2}, {"Vy", 3}, {"My", 4}, {"Vz", 5}, {"T", 6}};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (strcmp(s, codes[i].name) == 0) return codes[i].code;
    return 0;
}

/* Fills the section's where, checks it, and stores it (the model owns def from here). */
static int store_section(hs_os_state *st, Tcl_Obj *const objv[], int tag, hs_fe_section_def *def)
{
    const int order = hs_fe_section_def_check(def);
    if (order < 0) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", hs_ctx_message(st->ctx));
        hs_fe_section_def_destroy(&def);
        return hs_os_fail(st, objv, "%s", msg);
    }
    hs_os_section *s = hs_os_push((void **)&st->m->sections, &st->m->nsections, sizeof *s);
    if (!s) {
        hs_fe_section_def_destroy(&def);
        return hs_os_fail(st, objv, "out of memory");
    }
    s->tag = tag;
    s->def = def;
    hs_os_where(st, s->where, sizeof s->where);
    Tcl_ResetResult(st->interp);
    return TCL_OK;
}

static int section_fiber(hs_os_state *st, int objc, Tcl_Obj *const objv[], int tag,
                         hs_fe_section_def *def)
{
    int i = 3;
    for (; i < objc - 1; i++) {
        const char *opt = Tcl_GetString(objv[i]);
        double GJ;
        if (strcmp(opt, "-GJ") == 0 && i + 1 < objc - 1) {
            if (hs_os_num(st, objv, ++i, "-GJ", &GJ)) return TCL_ERROR;
            hs_fe_section_def_torsion(def, GJ);
        } else if (strcmp(opt, "-torsion") == 0 && i + 1 < objc - 1) {
            int mt;
            if (hs_os_int(st, objv, ++i, "-torsion matTag", &mt)) return TCL_ERROR;
            const hs_os_material *mat = hs_os_find_material(st->m, mt);
            if (!mat)
                return hs_os_fail(st, objv, "-torsion: no uniaxialMaterial %d (define it first)",
                                  mt);
            if (hs_fe_section_def_uniaxial(def, 6, mat->type, mat->opts))
                return hs_os_fail(st, objv, "%s", hs_ctx_message(st->ctx));
        } else {
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (section Fiber "
                              "tag <-GJ GJ | -torsion matTag> {body})",
                              opt);
        }
    }
    if (i != objc - 1)
        return hs_os_fail(st, objv,
                          "expected 'section Fiber tag <-GJ GJ | -torsion matTag> "
                          "{patch/layer/fiber}'");
    st->in_fiber = def;
    const int rc = Tcl_EvalObjEx(st->interp, objv[objc - 1], 0);
    st->in_fiber = NULL;
    (void)tag;
    return rc;
}

int hs_os_cmd_section(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)interp;
    hs_os_state *st = STATE(cd);
    if (!hs_os_need_model(st, objv)) return TCL_ERROR;
    if (objc < 3) return hs_os_fail(st, objv, "expected 'section type tag args...'");
    const char *type = Tcl_GetString(objv[1]);
    int tag;
    if (hs_os_int(st, objv, 2, "tag", &tag)) return TCL_ERROR;
    if (hs_os_find_section(st->m, tag))
        return hs_os_fail(st, objv, "section %d is already defined", tag);
    if (st->in_fiber) return hs_os_fail(st, objv, "a section inside a section's body");
    hs_fe_section_def *def = NULL;
    if (hs_fe_section_def_create(st->ctx, st->m->ndm, &def))
        return hs_os_fail(st, objv, "%s", hs_ctx_message(st->ctx));
    int rc = TCL_OK;
    const int three = st->m->ndm == 3;
    if (strcmp(type, "Fiber") == 0 || strcmp(type, "fiberSec") == 0) {
        rc = section_fiber(st, objc, objv, tag, def);
    } else if (strcmp(type, "Elastic") == 0) {
        /* 2-D: E A Iz; 3-D: E A Iz Iy G J */
        double v[6] = {0};
        const int n = three ? 6 : 3;
        if (objc - 3 != n)
            rc = hs_os_fail(st, objv,
                            three ? "expected 'section Elastic tag E A Iz Iy G J' (no shear "
                                    "deformation)"
                                  : "expected 'section Elastic tag E A Iz' (no shear deformation)");
        for (int i = 0; rc == TCL_OK && i < n; i++)
            rc = hs_os_num(st, objv, 3 + i, (const char *[]){"E", "A", "Iz", "Iy", "G", "J"}[i],
                           &v[i]);
        if (rc == TCL_OK)
            hs_fe_section_def_elastic(def, v[0] * v[1], v[0] * v[2], v[0] * v[3], v[4] * v[5]);
    } else if (strcmp(type, "Uniaxial") == 0 || strcmp(type, "Generic1D") == 0 ||
               strcmp(type, "Aggregator") == 0 || strcmp(type, "AddDeformation") == 0) {
        const int uni = type[0] == 'U' || type[0] == 'G';
        int i = 3;
        for (; rc == TCL_OK && i + 1 < objc && Tcl_GetString(objv[i])[0] != '-'; i += 2) {
            const hs_os_material *m = material_arg(st, objv, i);
            const int code = m ? code_of(Tcl_GetString(objv[i + 1])) : 0;
            if (!m)
                rc = TCL_ERROR;
            else if (!code)
                rc = hs_os_fail(st, objv, "response code '%s' (P, Mz, My, Vy, Vz or T)",
                                Tcl_GetString(objv[i + 1]));
            else
                rc = hs_fe_section_def_uniaxial(def, code, m->type, m->opts) ? TCL_ERROR : TCL_OK;
        }
        if (rc == TCL_OK && i < objc) {
            int base;
            if (uni || strcmp(Tcl_GetString(objv[i]), "-section") != 0 || i + 2 != objc)
                rc = hs_os_fail(st, objv,
                                uni ? "expected 'section Uniaxial tag matTag code'"
                                    : "expected 'section Aggregator tag matTag1 code1 ... "
                                      "<-section secTag>'");
            else if (hs_os_int(st, objv, i + 1, "-section", &base))
                rc = TCL_ERROR;
            else if (!hs_os_find_section(st->m, base))
                rc = hs_os_fail(st, objv, "no section %d (define it first)", base);
            else
                rc = hs_fe_section_def_append(def, hs_os_find_section(st->m, base)->def) ? TCL_ERROR
                                                                                         : TCL_OK;
        }
        if (rc == TCL_OK && uni && objc != 5)
            rc = hs_os_fail(st, objv, "expected 'section Uniaxial tag matTag code'");
    } else {
        rc = hs_os_fail(st, objv,
                        "type '%s' is not supported by hysim (it has Fiber, Elastic, Aggregator, "
                        "Uniaxial)",
                        type);
    }
    if (rc != TCL_OK) {
        hs_fe_section_def_destroy(&def);
        return TCL_ERROR;
    }
    return store_section(st, objv, tag, def);
}

/* Adds n fibers of material m to the section being defined. */
static int add_fibers(hs_os_state *st, Tcl_Obj *const objv[], const hs_os_material *m, int n,
                      const double *y, const double *z, const double *A)
{
    if (n < 0) return hs_os_fail(st, objv, "%s", hs_ctx_message(st->ctx));
    for (int i = 0; i < n; i++)
        if (hs_fe_section_def_fiber(st->in_fiber, y[i], z[i], A[i], m->type, m->opts))
            return hs_os_fail(st, objv, "%s", hs_ctx_message(st->ctx));
    Tcl_ResetResult(st->interp);
    return TCL_OK;
}

/* Reads objv[from..from+n-1] as integers (the first nint) then numbers into iv, v. */
static int args(hs_os_state *st, Tcl_Obj *const objv[], int from, int nint, int n, int *iv,
                double *v)
{
    for (int i = 0; i < n; i++) {
        if (i < nint ? hs_os_int(st, objv, from + i, "count", &iv[i])
                     : hs_os_num(st, objv, from + i, "coordinate", &v[i - nint]))
            return TCL_ERROR;
    }
    return TCL_OK;
}

static double fib_y[MAX_FIBERS], fib_z[MAX_FIBERS], fib_A[MAX_FIBERS];

int hs_os_cmd_patch(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)interp;
    hs_os_state *st = STATE(cd);
    if (!st->in_fiber) return hs_os_fail(st, objv, "patch outside a section Fiber's body");
    if (objc < 3) return hs_os_fail(st, objv, "expected 'patch type matTag ...'");
    const char *type = Tcl_GetString(objv[1]);
    const hs_os_material *m = material_arg(st, objv, 2);
    if (!m) return TCL_ERROR;
    int iv[2];
    double v[8];
    if (strcmp(type, "rect") == 0 || strcmp(type, "rectangular") == 0) {
        if (objc != 9)
            return hs_os_fail(st, objv, "expected 'patch rect matTag nfY nfZ yI zI yJ zJ'");
        if (args(st, objv, 3, 2, 6, iv, v)) return TCL_ERROR;
        return add_fibers(st, objv, m,
                          hs_fe_patch_rect(st->ctx, iv[0], iv[1], v[0], v[1], v[2], v[3], fib_y,
                                           fib_z, fib_A, MAX_FIBERS),
                          fib_y, fib_z, fib_A);
    }
    if (strcmp(type, "quad") == 0 || strcmp(type, "quadr") == 0) {
        if (objc != 13)
            return hs_os_fail(st, objv,
                              "expected 'patch quad matTag nfIJ nfJK yI zI yJ zJ yK zK yL zL'");
        if (args(st, objv, 3, 2, 10, iv, v)) return TCL_ERROR;
        return add_fibers(
            st, objv, m,
            hs_fe_patch_quad(st->ctx, iv[0], iv[1], v, fib_y, fib_z, fib_A, MAX_FIBERS), fib_y,
            fib_z, fib_A);
    }
    if (strcmp(type, "circ") == 0) {
        if (objc != 11)
            return hs_os_fail(st, objv,
                              "expected 'patch circ matTag numSubdivCirc numSubdivRad yCenter "
                              "zCenter intRad extRad startAng endAng'");
        if (args(st, objv, 3, 2, 8, iv, v)) return TCL_ERROR;
        return add_fibers(st, objv, m,
                          hs_fe_patch_circ(st->ctx, iv[0], iv[1], v[0], v[1], v[2], v[3], v[4],
                                           v[5], fib_y, fib_z, fib_A, MAX_FIBERS),
                          fib_y, fib_z, fib_A);
    }
    return hs_os_fail(st, objv, "patch type '%s' (hysim has rect, quad, circ)", type);
}

int hs_os_cmd_layer(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)interp;
    hs_os_state *st = STATE(cd);
    if (!st->in_fiber) return hs_os_fail(st, objv, "layer outside a section Fiber's body");
    if (objc < 3) return hs_os_fail(st, objv, "expected 'layer type matTag ...'");
    const char *type = Tcl_GetString(objv[1]);
    const hs_os_material *m = material_arg(st, objv, 2);
    if (!m) return TCL_ERROR;
    int iv[1];
    double v[6];
    if (strcmp(type, "straight") == 0) {
        if (objc != 9)
            return hs_os_fail(st, objv,
                              "expected 'layer straight matTag numBars areaBar yStart zStart yEnd "
                              "zEnd'");
        if (args(st, objv, 3, 1, 6, iv, v)) return TCL_ERROR;
        return add_fibers(st, objv, m,
                          hs_fe_layer_straight(st->ctx, iv[0], v[0], v[1], v[2], v[3], v[4], fib_y,
                                               fib_z, fib_A, MAX_FIBERS),
                          fib_y, fib_z, fib_A);
    }
    if (strcmp(type, "circ") == 0) {
        if (objc != 8 && objc != 10)
            return hs_os_fail(st, objv,
                              "expected 'layer circ matTag numBars areaBar yCenter zCenter radius "
                              "<startAng endAng>'");
        if (args(st, objv, 3, 1, objc - 3, iv, v)) return TCL_ERROR;
        return add_fibers(st, objv, m,
                          hs_fe_layer_circ(st->ctx, iv[0], v[0], v[1], v[2], v[3],
                                           objc == 10 ? v[4] : 0.0, objc == 10 ? v[5] : 0.0,
                                           objc == 8, fib_y, fib_z, fib_A, MAX_FIBERS),
                          fib_y, fib_z, fib_A);
    }
    return hs_os_fail(st, objv, "layer type '%s' (hysim has straight, circ)", type);
}

int hs_os_cmd_fiber(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)interp;
    hs_os_state *st = STATE(cd);
    if (!st->in_fiber) return hs_os_fail(st, objv, "fiber outside a section Fiber's body");
    if (objc != 5) return hs_os_fail(st, objv, "expected 'fiber yLoc zLoc area matTag'");
    double y, z, A;
    if (hs_os_num(st, objv, 1, "yLoc", &y) || hs_os_num(st, objv, 2, "zLoc", &z) ||
        hs_os_num(st, objv, 3, "area", &A))
        return TCL_ERROR;
    const hs_os_material *m = material_arg(st, objv, 4);
    if (!m) return TCL_ERROR;
    return add_fibers(st, objv, m, 1, &y, &z, &A);
}

/* A section tag argument that must exist. */
static int section_arg(hs_os_state *st, Tcl_Obj *const objv[], int i, int *tag)
{
    if (hs_os_int(st, objv, i, "secTag", tag)) return TCL_ERROR;
    if (!hs_os_find_section(st->m, *tag))
        return hs_os_fail(st, objv, "no section %d (define it first)", *tag);
    return TCL_OK;
}

int hs_os_parse_bint(hs_os_state *st, int objc, Tcl_Obj *const objv[], Tcl_Obj *const err[],
                     hs_os_bint *b)
{
    const char *rule = Tcl_GetString(objv[0]);
    snprintf(b->rule, sizeof b->rule, "%s", rule);
    if (!strcmp(rule, "Lobatto") || !strcmp(rule, "Legendre") || !strcmp(rule, "Radau") ||
        !strcmp(rule, "NewtonCotes")) {
        if (objc != 4)
            return hs_os_fail(st, err, "expected 'beamIntegration %s tag secTag N'", rule);
        if (section_arg(st, objv, 2, &b->sec[0]) || hs_os_int(st, objv, 3, "N", &b->n))
            return TCL_ERROR;
        if (b->n < 1 || b->n > HS_OS_MAX_IP)
            return hs_os_fail(st, err, "%d integration points (1 to %d)", b->n, HS_OS_MAX_IP);
        return TCL_OK;
    }
    if (!strcmp(rule, "HingeRadau") || !strcmp(rule, "HingeRadauTwo") ||
        !strcmp(rule, "HingeEndpoint")) {
        if (objc != 7)
            return hs_os_fail(st, err, "expected 'beamIntegration %s tag secI lpI secJ lpJ secE'",
                              rule);
        if (section_arg(st, objv, 2, &b->sec[0]) || hs_os_num(st, objv, 3, "lpI", &b->lpI) ||
            section_arg(st, objv, 4, &b->sec[2]) || hs_os_num(st, objv, 5, "lpJ", &b->lpJ) ||
            section_arg(st, objv, 6, &b->sec[1]))
            return TCL_ERROR;
        return TCL_OK;
    }
    if (!strcmp(rule, "UserDefined")) {
        if (objc < 3 || hs_os_int(st, objv, 2, "N", &b->n)) return TCL_ERROR;
        if (b->n < 1 || b->n > HS_OS_MAX_IP || objc != 3 + 3 * b->n)
            return hs_os_fail(st, err,
                              "expected 'beamIntegration UserDefined tag N secTag1..N loc1..N "
                              "wt1..N' (N from 1 to %d)",
                              HS_OS_MAX_IP);
        for (int i = 0; i < b->n; i++)
            if (section_arg(st, objv, 3 + i, &b->sec[i]) ||
                hs_os_num(st, objv, 3 + b->n + i, "location", &b->xi[i]) ||
                hs_os_num(st, objv, 3 + 2 * b->n + i, "weight", &b->w[i]))
                return TCL_ERROR;
        return TCL_OK;
    }
    return hs_os_fail(st, err,
                      "beamIntegration '%s' is not supported by hysim (it has Lobatto, Legendre, "
                      "Radau, NewtonCotes, UserDefined, HingeRadau, HingeRadauTwo, HingeEndpoint)",
                      rule);
}

int hs_os_cmd_beam_integration(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    if (!hs_os_need_model(st, objv)) return TCL_ERROR;
    if (objc < 3) return hs_os_fail(st, objv, "expected 'beamIntegration type tag args...'");
    hs_os_bint b = {0};
    if (hs_os_int(st, objv, 2, "tag", &b.tag)) return TCL_ERROR;
    for (int i = 0; i < st->m->nbints; i++)
        if (st->m->bints[i].tag == b.tag)
            return hs_os_fail(st, objv, "beamIntegration %d is already defined", b.tag);
    if (hs_os_parse_bint(st, objc - 1, objv + 1, objv, &b)) return TCL_ERROR;
    hs_os_bint *slot = hs_os_push((void **)&st->m->bints, &st->m->nbints, sizeof *slot);
    if (!slot) return hs_os_fail(st, objv, "out of memory");
    *slot = b;
    Tcl_ResetResult(interp);
    return TCL_OK;
}
