/* OpenSees' `recorder Node` and `recorder Element` in the script's own analysis: the file the
 * script names, written under the run's folder (its relative path kept: `-file Data/DFree.out`
 * becomes RUN/Data/DFree.out; hysim never writes beside the script), one row per committed step
 * (or per -dT), each value followed by a space, as OpenSees' DataFileStream writes them (%.6g,
 * or -precision digits; SRC/recorder/NodeRecorder.cpp, ElementRecorder.cpp). When the test
 * file's analysis wins, a recorder is ignored with a line (the test file's output.recorders
 * record). `record` writes one row now. */
#include "opensees_analysis.h"

#include "base/number_text.h"

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
    int resp; /* Node: 0 disp, 1 vel, 2 accel, 3 reaction, 4 incrDisp, 5 reactionIncludingInertia */
    char word[48];        /* Element: the response (words joined by spaces) */
    double *last;         /* Node incrDisp: the last row's displacements */
    int *series, nseries; /* Node -timeSeries: per DOF of -dof the model's series (-1: none),
                             whose value at the time adds to disp, vel, accel (OpenSees' absolute
                             response under a UniformExcitation of that series) */
    int envelope;         /* EnvelopeNode, EnvelopeElement: min, max, |max| rows at the end */
    double *row;          /* a row's values (cap of them) */
    int cap, nrow;        /* envelope: the values of the first row, then of every row */
    double *env;          /* envelope: 3 rows of nrow values (with -time: [t v] pairs) */
    char where[HS_OS_WHERE];
};

/* One value and its space, as OpenSees writes it ("%.*g "): up to 17 digits without printf's
 * arbitrary-precision arithmetic (the same characters: hs_number_text_g). */
static void put_value(FILE *f, double v, int precision)
{
    if (precision > 17) {
        fprintf(f, "%.*g ", precision, v);
        return;
    }
    char text[HS_NUMBER_TEXT_MAX + 1];
    const size_t len = hs_number_text_g(v, precision, text);
    text[len] = ' ';
    fwrite(text, 1, len + 1, f);
}

/* The envelope's three rows (min, max, max |v|; with -time each value after the time it
 * occurred), as OpenSees' EnvelopeNodeRecorder and EnvelopeElementRecorder write them when they
 * close. */
static void write_envelope(hs_os_recorder *r)
{
    const int w = r->time ? 2 : 1;
    for (int k = 0; k < 3 && r->env; k++) {
        for (int i = 0; i < r->nrow * w; i++)
            put_value(r->f, r->env[(size_t)k * (size_t)(r->nrow * w) + (size_t)i], r->precision);
        fputc('\n', r->f);
    }
}

/* The envelope after a row v (n values) at time t, as OpenSees' record(): the first row sets
 * all three; then a new minimum (else a new maximum) moves it, and |max| when larger, each with
 * its time. */
static void update_envelope(hs_os_recorder *r, const double *v, int n, double t, int first)
{
    const int w = r->time ? 2 : 1;
    double *row[3] = {r->env, r->env + n * w, r->env + 2 * n * w}; /* min, max, |max| */
    for (int i = 0; i < n; i++) {
        const double x = v[i], a = x < 0.0 ? -x : x;
        double *val[3], *tim[3];
        for (int k = 0; k < 3; k++) {
            val[k] = &row[k][i * w + w - 1];
            tim[k] = w == 2 ? &row[k][i * w] : NULL;
        }
        int moved = -1;
        if (first) {
            *val[0] = *val[1] = x;
            *val[2] = a;
            for (int k = 0; k < 3 && w == 2; k++) *tim[k] = t;
            continue;
        }
        if (*val[0] > x)
            moved = 0;
        else if (*val[1] < x)
            moved = 1;
        if (moved < 0) continue;
        *val[moved] = x;
        if (w == 2) *tim[moved] = t;
        if (*val[2] < a) {
            *val[2] = a;
            if (w == 2) *tim[2] = t;
        }
    }
}

void hs_os_recorders_close(hs_os_analysis *an)
{
    for (int i = 0; an && i < an->nrecs; i++) {
        hs_os_recorder *r = &an->recs[i];
        if (r->f && r->envelope) write_envelope(r);
        if (r->f) fclose(r->f);
        hs_free(r->row);
        hs_free(r->env);
        hs_free(r->series);
        hs_free(r->tags);
        hs_free(r->dofs);
        hs_free(r->last);
    }
    if (an) an->nrecs = 0;
}

int hs_os_recorders_read_unbalance(const hs_os_analysis *an)
{
    for (int i = 0; i < an->nrecs; i++)
        if (!an->recs[i].element && an->recs[i].resp == 5) return 1;
    return 0;
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

/* Appends v to the row (grown as needed). */
static int push_value(hs_os_recorder *r, int *n, double v)
{
    if (*n == r->cap) {
        const int cap = r->cap ? 2 * r->cap : 16;
        double *grown = hs_realloc(r->row, (size_t)cap * sizeof *grown);
        if (!grown) return HS_ENOMEM;
        r->row = grown;
        r->cap = cap;
    }
    r->row[(*n)++] = v;
    return 0;
}

/* The row of the committed state: its count, or a negative error. */
static int row_values(hs_os_state *st, hs_os_recorder *r)
{
    const hs_os_live *lv = st->an->lv;
    int n = 0;
    for (int k = 0; k < r->ntags; k++) {
        if (!r->element) {
            for (int j = 0; j < r->ndofs; j++) {
                double v;
                if (r->resp == 3)
                    v = hs_os_live_reaction(st->an->lv, r->tags[k], r->dofs[j]);
                else if (r->resp == 5)
                    v = hs_os_live_reaction_inertia(st->an->lv, r->tags[k], r->dofs[j]);
                else if (r->resp == 4) {
                    const double u = hs_os_live_node(lv, r->tags[k], r->dofs[j], 0);
                    double *last = &r->last[(size_t)k * (size_t)r->ndofs + (size_t)j];
                    v = u - *last;
                    *last = u;
                } else
                    v = hs_os_live_node(lv, r->tags[k], r->dofs[j], r->resp);
                if (r->resp <= 2 && j < r->nseries && r->series[j] >= 0)
                    v += hs_os_series_value(&st->m->series[r->series[j]], lv ? lv->time : 0.0);
                if (push_value(r, &n, v)) return HS_ENOMEM;
            }
            continue;
        }
        double v[64];
        const int m = hs_os_element_values(st, r->tags[k], r->word, v, 64);
        const hs_os_element *pe = m == -1 ? hs_os_find_element(st->m, r->tags[k]) : NULL;
        if (m < 0)
            return hs_fail(st->ctx, HS_EINPUT, "%s: recorder Element: %s of element %d: %s",
                           r->where, r->word, r->tags[k],
                           m == -2 ? "no such element"
                           : pe && pe->exp_pieces > 1
                               ? "not answered: hysim builds this experimental element as several "
                                 "links (an Aggregator of setups with actuator geometry, or a "
                                 "generic element over several nodes, docs/openfresco.md); record "
                                 "its force (between two nodes) or its nodes"
                               : "not supported by hysim");
        for (int i = 0; i < m; i++)
            if (push_value(r, &n, v[i])) return HS_ENOMEM;
    }
    return n;
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
    const int n = row_values(st, r);
    if (n < 0) return n;
    if (r->envelope) {
        const int first = !r->env;
        if (first) {
            r->nrow = n;
            r->env = hs_calloc((size_t)(3 * n * (r->time ? 2 : 1)) + 1, sizeof *r->env);
            if (!r->env) return HS_ENOMEM;
        }
        update_envelope(r, r->row, n < r->nrow ? n : r->nrow, t, first);
        return 0;
    }
    const int p = r->precision;
    if (r->time) put_value(r->f, t, p);
    for (int i = 0; i < n; i++) put_value(r->f, r->row[i], p);
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
    r->envelope = !strncmp(type, "Envelope", 8);
    r->element = !strcmp(type, "Element") || !strcmp(type, "EnvelopeElement");
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
        } else if (!strcmp(o, "-time") || !strcmp(o, "-load")) { /* -load: OpenSees' -time */
            r->time = 1;
            i++;
        } else if (!strcmp(o, "-dT") && more) {
            if (hs_os_num(st, objv, i + 1, "-dT", &r->dT)) return TCL_ERROR;
            i += 2;
        } else if (!strcmp(o, "-precision") && more) {
            if (hs_os_int(st, objv, i + 1, "-precision", &r->precision)) return TCL_ERROR;
            i += 2;
        } else if (!strcmp(o, "-timeSeries") && !r->element) {
            int *tags = NULL, nt = 0;
            if (int_list(st, objv, objc, &i, &tags, &nt)) return hs_free(tags), TCL_ERROR;
            for (int k = 0; k < nt; k++) {
                int idx = -1;
                for (int q = 0; tags[k] > 0 && q < st->m->nseries; q++)
                    if (st->m->series[q].tag == tags[k]) idx = q;
                if (tags[k] > 0 && idx < 0) {
                    hs_free(tags);
                    return hs_os_fail(st, objv, "-timeSeries: no timeSeries %d", tags[k]);
                }
                if (push_int(st, objv, &r->series, &r->nseries, idx))
                    return hs_free(tags), TCL_ERROR;
            }
            hs_free(tags);
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
                                   !strcmp(o, "reaction") || !strcmp(o, "incrDisp") ||
                                   !strcmp(o, "reactionIncludingInertia"))) {
            r->resp = !strcmp(o, "disp")       ? 0
                      : !strcmp(o, "vel")      ? 1
                      : !strcmp(o, "accel")    ? 2
                      : !strcmp(o, "reaction") ? 3
                      : !strcmp(o, "incrDisp") ? 4
                                               : 5;
            i++;
        } else if (r->element && (o[0] != '-' || !strcmp(o, "-material"))) {
            /* the response: the rest of the command (`material stress` is two words) */
            r->word[0] = '\0';
            for (; i < objc; i++)
                snprintf(r->word + strlen(r->word), sizeof r->word - strlen(r->word), "%s%s",
                         r->word[0] ? " " : "", Tcl_GetString(objv[i]));
            double probe[1];
            if (hs_os_element_values(st, 0, r->word, probe, 1) == -1)
                return hs_os_fail(
                    st, objv,
                    "response '%s' is not supported by hysim (force, globalForce, "
                    "localForce, basicForce, axialForce, deformation, "
                    "basicDeformation, deformationsANDforces; a truss's material stress, strain "
                    "and tangent; a "
                    "beam-column's section N force and deformation)",
                    r->word);
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
    for (int k = 0; r->element && k < r->ntags; k++)
        if (!hs_os_find_element(st->m, r->tags[k]))
            return hs_os_fail(st, objv, "no element %d", r->tags[k]);
    int kept = 0; /* NodeRecorder::initialize records the nodes that exist and skips the others */
    for (int k = 0; !r->element && k < r->ntags; k++) {
        if (hs_os_find_node(st->m, r->tags[k])) {
            r->tags[kept++] = r->tags[k];
            continue;
        }
        char where[HS_OS_WHERE];
        hs_log(st->ctx, HS_LOG_WARN,
               "%s: recorder: no node %d: left out of %s (as OpenSees' NodeRecorder leaves out "
               "the nodes that do not exist)",
               hs_os_where(st, where, sizeof where), r->tags[k], r->file);
    }
    if (!r->element) r->ntags = kept;
    if (r->resp == 4 &&
        !(r->last = hs_calloc((size_t)r->ntags * (size_t)r->ndofs + 1, sizeof(double))))
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
    if (strcmp(type, "Node") && strcmp(type, "Element") && strcmp(type, "EnvelopeNode") &&
        strcmp(type, "EnvelopeElement"))
        return hs_os_fail(st, objv,
                          "type '%s' is not supported by hysim (Node, Element, EnvelopeNode, "
                          "EnvelopeElement; display ignored)",
                          type);
    hs_os_recorder r = {0};
    if (parse(st, objc, objv, &r) != TCL_OK) {
        hs_free(r.tags);
        hs_free(r.dofs);
        hs_free(r.last);
        hs_free(r.series);
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
