/* OpenSees' `recorder Node` and `recorder Element` in the script's own analysis: the file the
 * script names, written under the run's folder (its relative path kept: `-file Data/DFree.out`
 * becomes RUN/Data/DFree.out; hysim never writes beside the script), one row per committed step
 * (or per -dT), each value followed by a space, as OpenSees' DataFileStream writes them (%.6g,
 * or -precision digits; SRC/recorder/NodeRecorder.cpp, ElementRecorder.cpp). When the test
 * file's analysis wins, a recorder is ignored with a line (the test file's output.recorders
 * record). `record` writes one row now. */
#include "opensees_analysis.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define STATE(cd) ((hs_os_state *)(cd))

struct hs_os_recorder {
    int element;      /* 0: Node, 1: Element */
    char file[2048];  /* as the script names it */
    FILE *f;          /* opened at the first row */
    int time;         /* -time: the time first */
    double dT, next;  /* -dT: a row when the time reaches next */
    int precision;    /* -precision (6) */
    int *tags, ntags; /* nodes or elements */
    int *dofs, ndofs; /* Node: 0-based */
    int resp;         /* Node: 0 disp, 1 vel, 2 accel, 3 reaction, 4 incrDisp */
    char word[32];    /* Element: the response */
    double *last;     /* Node incrDisp: the last row's displacements */
    char where[HS_OS_WHERE];
};

void hs_os_recorders_close(hs_os_analysis *an)
{
    for (int i = 0; an && i < an->nrecs; i++) {
        hs_os_recorder *r = &an->recs[i];
        if (r->f) fclose(r->f);
        hs_free(r->tags);
        hs_free(r->dofs);
        hs_free(r->last);
    }
    if (an) an->nrecs = 0;
}

/* Creates the folders of `path` below the run's folder. */
static int make_parents(char *path)
{
    for (char *c = path + 1; *c; c++) {
        if (*c != '/') continue;
        *c = '\0';
        const int bad = mkdir(path, 0777) != 0 && errno != EEXIST;
        *c = '/';
        if (bad) return -1;
    }
    return 0;
}

static int open_file(hs_os_state *st, hs_os_recorder *r)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", st->outdir ? st->outdir : ".", r->file);
    if (make_parents(path) || !(r->f = fopen(path, "w")))
        return hs_fail(st->ctx, HS_EIO, "%s: recorder: cannot write '%s': %s", r->where, path,
                       strerror(errno));
    return 0;
}

static int write_row(hs_os_state *st, hs_os_recorder *r)
{
    const hs_os_live *lv = st->an->lv;
    const double t = lv ? lv->time : 0.0;
    if (r->dT > 0.0) {
        if (t - r->next < -r->dT * 1e-5) return 0;
        r->next = t + r->dT;
    }
    if (!r->f && open_file(st, r)) return HS_EIO;
    const int p = r->precision;
    if (r->time) fprintf(r->f, "%.*g ", p, t);
    for (int k = 0; k < r->ntags; k++) {
        if (!r->element) {
            for (int j = 0; j < r->ndofs; j++) {
                double v;
                if (r->resp == 3)
                    v = hs_os_live_reaction(st->an->lv, r->tags[k], r->dofs[j]);
                else if (r->resp == 4) {
                    const double u = hs_os_live_node(lv, r->tags[k], r->dofs[j], 0);
                    double *last = &r->last[(size_t)k * (size_t)r->ndofs + (size_t)j];
                    v = u - *last;
                    *last = u;
                } else
                    v = hs_os_live_node(lv, r->tags[k], r->dofs[j], r->resp);
                fprintf(r->f, "%.*g ", p, v);
            }
            continue;
        }
        double v[64];
        const int n = hs_os_element_values(st, r->tags[k], r->word, v, 64);
        if (n < 0)
            return hs_fail(st->ctx, HS_EINPUT, "%s: recorder Element: %s of element %d: %s",
                           r->where, r->word, r->tags[k],
                           n == -2 ? "no such element" : "not supported by hysim");
        for (int i = 0; i < n; i++) fprintf(r->f, "%.*g ", p, v[i]);
    }
    fputc('\n', r->f);
    return ferror(r->f) ? hs_fail(st->ctx, HS_EIO, "%s: recorder: write error", r->where) : 0;
}

int hs_os_record(hs_os_state *st)
{
    for (int i = 0; i < st->an->nrecs; i++) {
        const int rc = write_row(st, &st->an->recs[i]);
        if (rc) return rc;
    }
    return 0;
}

static int push_int(hs_os_state *st, Tcl_Obj *const objv[], int **a, int *n, int v)
{
    int *slot = hs_os_push((void **)a, n, sizeof *slot);
    if (!slot) return hs_os_fail(st, objv, "out of memory");
    *slot = v;
    return TCL_OK;
}

/* Integers after objv[*i] (a Tcl list in one word counts too). */
static int int_list(hs_os_state *st, Tcl_Obj *const objv[], int objc, int *i, int **a, int *n)
{
    int v;
    for ((*i)++; *i < objc; (*i)++) {
        Tcl_Obj **w;
        int nw;
        if (Tcl_GetIntFromObj(NULL, objv[*i], &v) == TCL_OK) {
            if (push_int(st, objv, a, n, v)) return TCL_ERROR;
            continue;
        }
        if (Tcl_ListObjGetElements(NULL, objv[*i], &nw, &w) != TCL_OK || nw < 2 ||
            Tcl_GetIntFromObj(NULL, w[0], &v) != TCL_OK)
            break;
        for (int k = 0; k < nw; k++) {
            if (Tcl_GetIntFromObj(NULL, w[k], &v) != TCL_OK)
                return hs_os_fail(st, objv, "'%s' is not a list of integers",
                                  Tcl_GetString(objv[*i]));
            if (push_int(st, objv, a, n, v)) return TCL_ERROR;
        }
    }
    return TCL_OK;
}

static int parse(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_recorder *r)
{
    const char *type = Tcl_GetString(objv[1]);
    r->element = !strcmp(type, "Element");
    r->precision = 6;
    r->resp = -1;
    for (int i = 2; i < objc;) {
        const char *o = Tcl_GetString(objv[i]);
        const int more = i + 1 < objc;
        if ((!strcmp(o, "-file") || !strcmp(o, "-fileName")) && more) {
            const char *f = Tcl_GetString(objv[i + 1]);
            if (f[0] == '/' || strstr(f, ".."))
                return hs_os_fail(st, objv,
                                  "-file %s: hysim writes the script's recorders inside the run's "
                                  "folder; give a relative path without '..'",
                                  f);
            snprintf(r->file, sizeof r->file, "%s", f);
            i += 2;
        } else if (!strcmp(o, "-time")) {
            r->time = 1;
            i++;
        } else if (!strcmp(o, "-dT") && more) {
            if (hs_os_num(st, objv, i + 1, "-dT", &r->dT)) return TCL_ERROR;
            i += 2;
        } else if (!strcmp(o, "-precision") && more) {
            if (hs_os_int(st, objv, i + 1, "-precision", &r->precision)) return TCL_ERROR;
            i += 2;
        } else if (!strcmp(o, "-closeOnWrite")) {
            i++;
        } else if ((!strcmp(o, "-node") || !strcmp(o, "-nodes") || !strcmp(o, "-ele") ||
                    !strcmp(o, "-eles") || !strcmp(o, "-element"))) {
            if (int_list(st, objv, objc, &i, &r->tags, &r->ntags)) return TCL_ERROR;
        } else if ((!strcmp(o, "-nodeRange") || !strcmp(o, "-eleRange")) && i + 2 < objc) {
            int a, b;
            if (hs_os_int(st, objv, i + 1, o, &a) || hs_os_int(st, objv, i + 2, o, &b))
                return TCL_ERROR;
            for (int t = a; t <= b; t++)
                if (push_int(st, objv, &r->tags, &r->ntags, t)) return TCL_ERROR;
            i += 3;
        } else if (!strcmp(o, "-dof") && !r->element) {
            int *d = NULL, nd = 0;
            if (int_list(st, objv, objc, &i, &d, &nd)) return TCL_ERROR;
            for (int k = 0; k < nd; k++) {
                if (d[k] < 1 || d[k] > st->m->ndf) {
                    hs_free(d);
                    return hs_os_fail(st, objv, "-dof %d: expected 1 to %d", d[k], st->m->ndf);
                }
                if (push_int(st, objv, &r->dofs, &r->ndofs, d[k] - 1)) return hs_free(d), TCL_ERROR;
            }
            hs_free(d);
        } else if (!r->element && (!strcmp(o, "disp") || !strcmp(o, "vel") || !strcmp(o, "accel") ||
                                   !strcmp(o, "reaction") || !strcmp(o, "incrDisp"))) {
            r->resp = !strcmp(o, "disp")       ? 0
                      : !strcmp(o, "vel")      ? 1
                      : !strcmp(o, "accel")    ? 2
                      : !strcmp(o, "reaction") ? 3
                                               : 4;
            i++;
        } else if (r->element && o[0] != '-') {
            double probe[1];
            if (hs_os_element_values(st, 0, o, probe, 1) == -1)
                return hs_os_fail(st, objv,
                                  "response '%s' is not supported by hysim (force, globalForce, "
                                  "localForce, basicForce, deformation, basicDeformation)",
                                  o);
            snprintf(r->word, sizeof r->word, "%s", o);
            if (i + 1 != objc)
                return hs_os_fail(st, objv, "the response '%s' ends the recorder command", o);
            i++;
        } else
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim's recorder %s (-file, "
                              "-time, -dT, -precision, %s, and the response)",
                              o, type, r->element ? "-ele, -eleRange" : "-node, -nodeRange, -dof");
    }
    if (!r->file[0]) return hs_os_fail(st, objv, "expected -file FILE (hysim writes files only)");
    if (!r->ntags) return hs_os_fail(st, objv, "no %s", r->element ? "-ele" : "-node");
    if (r->element ? !r->word[0] : r->resp < 0)
        return hs_os_fail(st, objv, "no response (%s)",
                          r->element ? "force, localForce, ..." : "disp, vel, accel, reaction");
    if (!r->element && !r->ndofs) return hs_os_fail(st, objv, "expected -dof d...");
    for (int k = 0; k < r->ntags; k++)
        if (r->element ? !hs_os_find_element(st->m, r->tags[k])
                       : !hs_os_find_node(st->m, r->tags[k]))
            return hs_os_fail(st, objv, "no %s %d", r->element ? "element" : "node", r->tags[k]);
    if (r->resp == 4 && !(r->last = hs_calloc((size_t)r->ntags * (size_t)r->ndofs, sizeof(double))))
        return hs_os_fail(st, objv, "out of memory");
    return TCL_OK;
}

static int cmd_recorder(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    const char *type = objc > 1 ? Tcl_GetString(objv[1]) : "";
    char where[HS_OS_WHERE];
    if (!strcmp(type, "display") || !strcmp(type, "plot")) {
        hs_log(st->ctx, HS_LOG_WARN, "%s: recorder %s ignored (hysim draws nothing)",
               hs_os_where(st, where, sizeof where), type);
        Tcl_ResetResult(interp);
        return TCL_OK;
    }
    if (!st->live) {
        hs_log(st->ctx, HS_LOG_WARN,
               "%s: recorder ignored (the test file sets the analysis; its output.recorders "
               "record)",
               hs_os_where(st, where, sizeof where));
        Tcl_ResetResult(interp);
        return TCL_OK;
    }
    for (int i = 2; i < objc; i++)
        if (!strcmp(Tcl_GetString(objv[i]), "tangStif")) { /* OpenFresco's estimated tangent */
            hs_log(st->ctx, HS_LOG_WARN,
                   "%s: recorder %s ... tangStif ignored (an experimental element's estimated "
                   "tangent; hysim's perfect specimen uses its own)",
                   hs_os_where(st, where, sizeof where), type);
            Tcl_ResetResult(interp);
            return TCL_OK;
        }
    if (strcmp(type, "Node") && strcmp(type, "Element"))
        return hs_os_fail(
            st, objv, "type '%s' is not supported by hysim (Node, Element; display ignored)", type);
    hs_os_recorder r = {0};
    if (parse(st, objc, objv, &r) != TCL_OK) {
        hs_free(r.tags);
        hs_free(r.dofs);
        hs_free(r.last);
        return TCL_ERROR;
    }
    hs_os_where(st, r.where, sizeof r.where);
    hs_os_recorder *slot = hs_os_push((void **)&st->an->recs, &st->an->nrecs, sizeof *slot);
    if (!slot) return hs_os_fail(st, objv, "out of memory");
    *slot = r;
    Tcl_SetObjResult(interp, Tcl_NewIntObj(st->an->nrecs - 1));
    return TCL_OK;
}

/* record: one row of every recorder now. */
static int cmd_record(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    hs_os_state *st = STATE(cd);
    if (st->live && hs_os_record(st)) return hs_os_fail(st, objv, "%s", hs_ctx_message(st->ctx));
    Tcl_ResetResult(interp);
    return TCL_OK;
}

int hs_os_recorder_commands(hs_os_state *st)
{
    if (!Tcl_CreateObjCommand(st->interp, "recorder", cmd_recorder, st, NULL) ||
        !Tcl_CreateObjCommand(st->interp, "record", cmd_record, st, NULL))
        return HS_ENOMEM;
    return 0;
}
