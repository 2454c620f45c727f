/* The embedded Tcl interpreter of OpenSees models (opensees_tcl.h): the command table (what
 * hysim implements, what it ignores because the test file sets the analysis, what it does not
 * support yet), locations FILE:LINE from Tcl's frame information, and the errors. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "opensees_tcl.h"
#include "io/suggest.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Commands hysim does not have yet, with what the user can do now: one line each to turn into
 * an implementation (a Tcl_ObjCmdProc in the table below). */
static const struct {
    const char *name, *why;
} not_yet[] = {
    {"sp", "imposed displacements are not modelled; fix the DOF"},
    {"nDMaterial", "continuum elements are not in hysim"},
    {"block2D", "continuum meshes are not in hysim"},
    {"mp", "general multi-point constraints are not in hysim; use equalDOF"},
};

/* Output and utility commands that change no result: ignored, one line each (once a name). The
 * analysis commands, queries and recorders are in opensees_tcl_analysis.c, opensees_tcl_query.c
 * and opensees_tcl_recorder.c. */
static const char *const ignored[] = {"initialize",      "printGID",
                                      "printModel",      "print",
                                      "logFile",         "setMaxOpenFiles",
                                      "reset",           "domainChange",
                                      "database",        "setPrecision",
                                      "testIter",        "testNorms",
                                      "modalProperties", "responseSpectrumAnalysis",
                                      "stripXML",        "loadConstant",
                                      "version",         "printA",
                                      "printB",          "numIter",
                                      "puts_log"};

/* OpenSees' display commands (its OpenGL window): hysim draws nothing. */
static const char *const display[] = {"display",    "prp",   "vup",  "vpn",        "vrp",
                                      "viewWindow", "plane", "port", "projection", "fill"};

static const struct {
    const char *name;
    Tcl_ObjCmdProc *fn;
} commands[] = {
    {"model", hs_os_cmd_model},
    {"node", hs_os_cmd_node},
    {"fix", hs_os_cmd_fix},
    {"fixX", hs_os_cmd_fix_x},
    {"fixY", hs_os_cmd_fix_y},
    {"fixZ", hs_os_cmd_fix_z},
    {"rigidDiaphragm", hs_os_cmd_rigid_diaphragm},
    {"rigidLink", hs_os_cmd_rigid_link},
    {"mass", hs_os_cmd_mass},
    {"equalDOF", hs_os_cmd_equal_dof},
    {"geomTransf", hs_os_cmd_geom_transf},
    {"element", hs_os_cmd_element},
    {"uniaxialMaterial", hs_os_cmd_uniaxial_material},
    {"rayleigh", hs_os_cmd_rayleigh},
    {"region", hs_os_cmd_region},
    {"timeSeries", hs_os_cmd_time_series},
    {"pattern", hs_os_cmd_pattern},
    {"load", hs_os_cmd_load},
    {"eleLoad", hs_os_cmd_ele_load},
    {"groundMotion", hs_os_cmd_ground_motion},
    {"imposedMotion", hs_os_cmd_imposed_motion},
    {"imposedSupportMotion", hs_os_cmd_imposed_motion}, /* TclModelBuilder.cpp: the same */
    {"eigen", hs_os_cmd_eigen},
    {"section", hs_os_cmd_section},
    {"patch", hs_os_cmd_patch},
    {"layer", hs_os_cmd_layer},
    {"fiber", hs_os_cmd_fiber},
    {"beamIntegration", hs_os_cmd_beam_integration},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The room grows by doubling (it is the smallest power of two >= count): a large frame's
 * thousands of nodes and elements cost O(n) copies, not O(n^2). */
void *hs_os_push(void **array, int *count, size_t size)
{
    const int c = *count;
    if (c == 0 || (c & (c - 1)) == 0) { /* full */
        char *grown = hs_realloc(*array, (size_t)(c ? 2 * c : 1) * size);
        if (!grown) return NULL;
        *array = grown;
    }
    char *item = (char *)*array + (size_t)c * size;
    memset(item, 0, size);
    (*count)++;
    return item;
}

int hs_os_add_input(hs_os_model *m, const char *path)
{
    for (int i = 0; i < m->ninputs; i++)
        if (strcmp(m->inputs[i], path) == 0) return 0;
    char **slot = hs_os_push((void **)&m->inputs, &m->ninputs, sizeof *slot);
    if (!slot) return HS_ENOMEM;
    if (!(*slot = hs_strdup(path))) return m->ninputs--, HS_ENOMEM;
    return 0;
}

void hs_os_model_clear(hs_os_model *m)
{
    for (int i = 0; i < m->nmats; i++) hs_options_destroy(&m->mats[i].opts);
    for (int i = 0; i < m->ninputs; i++) hs_free(m->inputs[i]);
    hs_free(m->nodes);
    hs_free(m->els);
    hs_free(m->mats);
    hs_free(m->transfs);
    hs_free(m->equals);
    for (int i = 0; i < m->nrigids; i++) hs_free(m->rigids[i].slaves);
    hs_free(m->rigids);
    hs_free(m->loads);
    hs_free(m->eleloads);
    for (int i = 0; i < m->nseries; i++) {
        hs_free(m->series[i].values);
        hs_free(m->series[i].times);
    }
    hs_free(m->series);
    hs_free(m->patterns);
    hs_free(m->gms);
    hs_free(m->imposed);
    hs_free(m->inputs);
    for (int i = 0; i < m->nsections; i++) hs_fe_section_def_destroy(&m->sections[i].def);
    hs_free(m->sections);
    hs_free(m->bints);
    memset(m, 0, sizeof *m);
}

/* The dictionary of Tcl's frame `level` (info frame LEVEL), or NULL. */
static Tcl_Obj *frame(Tcl_Interp *interp, int level)
{
    char cmd[48];
    snprintf(cmd, sizeof cmd, "info frame %d", level);
    if (Tcl_EvalEx(interp, cmd, -1, 0) != TCL_OK) return NULL;
    return Tcl_GetObjResult(interp);
}

/* The file and line of the innermost frame that has a file: the command being run (its line
 * counts from the file's start, loops and procs included). */
static int current_location(hs_os_state *st, char *file, size_t cap, int *line)
{
    Tcl_Interp *interp = st->interp;
    Tcl_Obj *saved = Tcl_GetObjResult(interp);
    Tcl_IncrRefCount(saved);
    int found = 0, depth = 0;
    if (Tcl_EvalEx(interp, "info frame", -1, 0) == TCL_OK &&
        Tcl_GetIntFromObj(NULL, Tcl_GetObjResult(interp), &depth) == TCL_OK) {
        /* depth is the frame of this `info frame` itself; depth - 1 the command that asks */
        for (int level = depth - 1; level >= 1 && !found; level--) {
            Tcl_Obj *d = frame(interp, level), *f = NULL, *l = NULL;
            if (!d) break;
            Tcl_IncrRefCount(d);
            Tcl_Obj *kf = Tcl_NewStringObj("file", -1), *kl = Tcl_NewStringObj("line", -1);
            Tcl_IncrRefCount(kf);
            Tcl_IncrRefCount(kl);
            if (Tcl_DictObjGet(NULL, d, kf, &f) == TCL_OK && f &&
                Tcl_DictObjGet(NULL, d, kl, &l) == TCL_OK && l &&
                Tcl_GetIntFromObj(NULL, l, line) == TCL_OK) {
                snprintf(file, cap, "%s", Tcl_GetString(f));
                found = 1;
            }
            Tcl_DecrRefCount(kf);
            Tcl_DecrRefCount(kl);
            Tcl_DecrRefCount(d);
        }
    }
    Tcl_SetObjResult(interp, saved);
    Tcl_DecrRefCount(saved);
    return found;
}

/* The top script as the user named it when `path` (Tcl's normalized name) is that file. */
static const char *shown(const hs_os_state *st, const char *path)
{
    return st->abs[0] && strcmp(path, st->abs) == 0 ? st->script : path;
}

const char *hs_os_where(hs_os_state *st, char *buf, size_t cap)
{
    char file[1024];
    int line = 0;
    if (current_location(st, file, sizeof file, &line))
        snprintf(buf, cap, "%s:%d", shown(st, file), line);
    else
        snprintf(buf, cap, "%s", st->script);
    return buf;
}

const char *hs_os_here(hs_os_state *st, char *buf, size_t cap)
{
    char file[1024];
    int line = 0;
    if (!current_location(st, file, sizeof file, &line)) {
        snprintf(buf, cap, "%s", st->dir);
        return buf;
    }
    char *slash = strrchr(file, '/');
    if (slash) *slash = '\0';
    snprintf(buf, cap, "%s", slash ? file : ".");
    return buf;
}

int hs_os_fail(hs_os_state *st, Tcl_Obj *const objv[], const char *fmt, ...)
{
    char where[HS_OS_WHERE], msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(st->error, sizeof st->error, "%s: %s: %s", hs_os_where(st, where, sizeof where),
             Tcl_GetString(objv[0]), msg);
    Tcl_SetObjResult(st->interp, Tcl_NewStringObj(st->error, -1));
    return TCL_ERROR;
}

int hs_os_int(hs_os_state *st, Tcl_Obj *const objv[], int i, const char *what, int *out)
{
    if (Tcl_GetIntFromObj(NULL, objv[i], out) == TCL_OK) return TCL_OK;
    return hs_os_fail(st, objv, "%s: expected an integer, got '%.60s'", what,
                      Tcl_GetString(objv[i]));
}

int hs_os_num(hs_os_state *st, Tcl_Obj *const objv[], int i, const char *what, double *out)
{
    if (Tcl_GetDoubleFromObj(NULL, objv[i], out) == TCL_OK) return TCL_OK;
    return hs_os_fail(st, objv, "%s: expected a number, got '%.60s'", what, Tcl_GetString(objv[i]));
}

int hs_os_need_model(hs_os_state *st, Tcl_Obj *const objv[])
{
    if (st->m->ndm) return 1;
    hs_os_fail(st, objv, "no model yet; start the script with 'model BasicBuilder -ndm 2 -ndf 3'");
    return 0;
}

/* Tags are unique; a script that numbers them 1, 2, ... finds each at tag - 1 at once (a large
 * frame's thousands of nodes and elements would otherwise cost a quadratic search). */
hs_os_node *hs_os_find_node(const hs_os_model *m, int tag)
{
    if (tag > m->node_tag_max) return NULL;
    if (tag >= 1 && tag <= m->nnodes && m->nodes[tag - 1].tag == tag) return &m->nodes[tag - 1];
    for (int i = 0; i < m->nnodes; i++)
        if (m->nodes[i].tag == tag) return &m->nodes[i];
    return NULL;
}

hs_os_element *hs_os_find_element(const hs_os_model *m, int tag)
{
    if (tag > m->el_tag_max) return NULL;
    if (tag >= 1 && tag <= m->nels && m->els[tag - 1].tag == tag) return &m->els[tag - 1];
    for (int i = 0; i < m->nels; i++)
        if (m->els[i].tag == tag) return &m->els[i];
    return NULL;
}

const hs_os_material *hs_os_find_material(const hs_os_model *m, int tag)
{
    for (int i = 0; i < m->nmats; i++)
        if (m->mats[i].tag == tag) return &m->mats[i];
    return NULL;
}

int hs_os_ignored_once(hs_os_state *st, const char *name, const char *why)
{
    for (int i = 0; i < st->nwarned; i++)
        if (strcmp(st->warned[i], name) == 0) return 0;
    if (st->nwarned < (int)(sizeof st->warned / sizeof st->warned[0]))
        snprintf(st->warned[st->nwarned++], sizeof st->warned[0], "%s", name);
    char where[HS_OS_WHERE];
    hs_log(st->ctx, HS_LOG_WARN, "%s: %s ignored (%s)", hs_os_where(st, where, sizeof where), name,
           why);
    return 1;
}

static int cmd_ignored(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    hs_os_ignored_once(cd, Tcl_GetString(objv[0]), "it changes no result in hysim");
    Tcl_ResetResult(interp);
    return TCL_OK;
}

static int cmd_display(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    hs_os_ignored_once(cd, Tcl_GetString(objv[0]), "hysim draws nothing");
    Tcl_ResetResult(interp);
    return TCL_OK;
}

static int cmd_not_yet(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)interp;
    (void)objc;
    const char *name = Tcl_GetString(objv[0]);
    for (size_t i = 0; i < COUNT(not_yet); i++)
        if (strcmp(name, not_yet[i].name) == 0)
            return hs_os_fail(cd, objv, "not yet supported by hysim: %s", not_yet[i].why);
    return hs_os_fail(cd, objv, "not yet supported by hysim");
}

/* `wipe`: forgets the model (as OpenSees; a script that wipes after its analysis keeps what was
 * built before: the analysis tail is ignored). Only a wipe before any node clears anything. */
static int cmd_wipe(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    (void)objv;
    hs_os_state *st = cd;
    if (st->live && st->m->nnodes > 0 && hs_os_analysis_wipe(st)) return TCL_ERROR;
    if (st->m->nnodes == 0 || st->live) {
        st->wiped_live |= st->live && st->m->nnodes > 0;
        char **inputs = st->m->inputs;
        const int ninputs = st->m->ninputs;
        st->m->inputs = NULL;
        st->m->ninputs = 0;
        hs_os_model_clear(st->m);
        st->m->inputs = inputs;
        st->m->ninputs = ninputs;
    } else {
        char where[HS_OS_WHERE];
        hs_log(st->ctx, HS_LOG_WARN,
               "%s: wipe after the model is built ignored (hysim keeps the model the script built)",
               hs_os_where(st, where, sizeof where));
    }
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/* `source FILE`: relative to the folder of the script that sources it; the file is an input of
 * the run (hashed into checkpoints). */
static int cmd_source(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = cd;
    if (objc != 2) return hs_os_fail(st, objv, "expected 'source FILE'");
    const char *rel = Tcl_GetString(objv[1]);
    char here[1024], path[2100];
    if (rel[0] == '/')
        snprintf(path, sizeof path, "%s", rel);
    else
        snprintf(path, sizeof path, "%s/%s", hs_os_here(st, here, sizeof here), rel);
    if (hs_os_source_check(st, objv, path) != TCL_OK) return TCL_ERROR;
    if (hs_os_add_input(st->m, path)) return hs_os_fail(st, objv, "out of memory");
    return Tcl_EvalFile(interp, path);
}

/* Any other command: an error that names it and says what hysim has. */
static int cmd_unknown(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)interp;
    hs_os_state *st = cd;
    if (objc < 2) return hs_os_fail(st, objv, "no command");
    char where[HS_OS_WHERE];
    if (hs_os_is_hidden(st, Tcl_GetString(objv[1])))
        return hs_os_fail(st, objv + 1,
                          "not available: hysim runs OpenSees scripts in a safe Tcl interpreter "
                          "(no programs, sockets, opened files or folders; records come in "
                          "through timeSeries Path -filePath, other scripts through source)");
    char list[512] = "", near[64] = "";
    const char *names[COUNT(commands) + COUNT(ignored) + COUNT(display)];
    size_t n = 0;
    for (size_t i = 0; i < COUNT(commands); i++) {
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s, ", commands[i].name);
        names[n++] = commands[i].name;
    }
    for (size_t i = 0; i < COUNT(ignored); i++) names[n++] = ignored[i];
    for (size_t i = 0; i < COUNT(display); i++) names[n++] = display[i];
    const char *guess = hs_suggest(Tcl_GetString(objv[1]), names, n);
    if (guess) snprintf(near, sizeof near, " (did you mean '%s'?)", guess);
    snprintf(st->error, sizeof st->error,
             "%s: %s: unknown command%s; hysim implements the OpenSees modelling commands %swipe, "
             "source, exit and the safe part of Tcl (docs/opensees_tcl.md); remove the command "
             "or model it with these",
             hs_os_where(st, where, sizeof where), Tcl_GetString(objv[1]), near, list);
    Tcl_SetObjResult(st->interp, Tcl_NewStringObj(st->error, -1));
    return TCL_ERROR;
}

static int create_commands(hs_os_state *st)
{
    Tcl_Interp *in = st->interp;
    for (size_t i = 0; i < COUNT(commands); i++)
        if (!Tcl_CreateObjCommand(in, commands[i].name, commands[i].fn, st, NULL)) return HS_ENOMEM;
    for (size_t i = 0; i < COUNT(ignored); i++)
        if (!Tcl_CreateObjCommand(in, ignored[i], cmd_ignored, st, NULL)) return HS_ENOMEM;
    for (size_t i = 0; i < COUNT(display); i++)
        if (!Tcl_CreateObjCommand(in, display[i], cmd_display, st, NULL)) return HS_ENOMEM;
    int rc = hs_os_analysis_commands(st);
    if (!rc) rc = hs_os_query_commands(st);
    if (!rc) rc = hs_os_recorder_commands(st);
    if (!rc) rc = hs_os_openfresco_commands(st);
    if (!rc) rc = hs_os_units_commands(st);
    if (!rc) rc = hs_os_parameter_commands(st);
    if (rc) return rc;
    for (size_t i = 0; i < COUNT(not_yet); i++)
        if (!Tcl_CreateObjCommand(in, not_yet[i].name, cmd_not_yet, st, NULL)) return HS_ENOMEM;
    /* `pset name value`: OpenSees' set that also records a parameter of its parallel runs
     * (SRC/tcl/commands.cpp, OPS_SetObjCmd); in one process it is `set`. */
    if (Tcl_CreateAlias(in, "pset", in, "set", 0, NULL) != TCL_OK) return HS_ENOMEM;
    if (!Tcl_CreateObjCommand(in, "wipe", cmd_wipe, st, NULL) ||
        !Tcl_CreateObjCommand(in, "source", cmd_source, st, NULL) ||
        !Tcl_CreateObjCommand(in, "unknown", cmd_unknown, st, NULL))
        return HS_ENOMEM;
    return 0;
}

/* A Tcl error that no hysim command raised (a syntax error, `error`, a bad expr): the script's
 * line from -errorline and Tcl's own message and trace. */
static int tcl_error(hs_os_state *st, int code)
{
    Tcl_Obj *opts = Tcl_GetReturnOptions(st->interp, code);
    Tcl_IncrRefCount(opts);
    const char *msg = Tcl_GetStringResult(st->interp);
    if (st->error[0] && strcmp(msg, st->error) == 0) {
        Tcl_DecrRefCount(opts);
        return hs_fail(st->ctx, HS_EINPUT, "%s", st->error);
    }
    Tcl_Obj *k = Tcl_NewStringObj("-errorline", -1), *v = NULL, *ki, *info = NULL;
    Tcl_IncrRefCount(k);
    int line = 0;
    if (Tcl_DictObjGet(NULL, opts, k, &v) == TCL_OK && v) Tcl_GetIntFromObj(NULL, v, &line);
    ki = Tcl_NewStringObj("-errorinfo", -1);
    Tcl_IncrRefCount(ki);
    Tcl_DictObjGet(NULL, opts, ki, &info);
    char text[400], trace[600];
    snprintf(text, sizeof text, "%s", msg);
    const char *t = info ? Tcl_GetString(info) : "";
    if (strncmp(t, msg, strlen(msg)) == 0) t += strlen(msg); /* errorInfo repeats the message */
    while (*t == '\n' || *t == ' ') t++;
    snprintf(trace, sizeof trace, "%s", t);
    for (char *c = text; *c; c++)
        if (*c == '\n') *c = ' ';
    for (char *c = trace; *c; c++)
        if (*c == '\n') *c = ' ';
    const int rc =
        hs_fail(st->ctx, HS_EINPUT, "%s:%d: Tcl error: %s (%s)", st->script, line, text, trace);
    Tcl_DecrRefCount(k);
    Tcl_DecrRefCount(ki);
    Tcl_DecrRefCount(opts);
    return rc;
}

/* Runs the script within `lim` (NULL: the defaults); outdir non-NULL: its own analysis live, its
 * recorders writing there. */
static int run(hs_ctx *ctx, const char *path, const hs_os_limits *lim, hs_os_model *m,
               const char *outdir)
{
    memset(m, 0, sizeof *m);
    hs_os_state st = {.ctx = ctx, .m = m, .script = path, .live = outdir != NULL, .outdir = outdir};
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(st.dir, sizeof st.dir, "%.*s", (int)(slash - path), path);
    else
        snprintf(st.dir, sizeof st.dir, ".");
    FILE *f = fopen(path, "r");
    if (!f) return hs_fail(ctx, HS_EIO, "%s: cannot open the OpenSees script", path);
    fclose(f);
    if (!realpath(path, st.abs)) st.abs[0] = '\0';
    int rc = hs_os_add_input(m, path);
    if (rc) return rc;
    Tcl_FindExecutable(NULL);
    st.interp = Tcl_CreateInterp();
    if (!st.interp) return HS_ENOMEM;
    rc = hs_os_make_safe(&st);
    if (!rc) rc = create_commands(&st);
    if (!rc) rc = hs_os_limits_apply(&st, lim);
    if (!rc) {
        const int code = Tcl_EvalFile(st.interp, path);
        if (code == TCL_ERROR && !st.exited && !(rc = hs_os_limits_error(&st)))
            rc = tcl_error(&st, code);
    }
    /* a script's own analysis may end with `wipe` (OpenSees' and OpenFresco's examples do) */
    if (!rc && !m->ndm && !st.wiped_live)
        rc = hs_fail(ctx, HS_EINPUT,
                     "%s: the script has no 'model BasicBuilder -ndm 2 -ndf 3' command", path);
    if (!rc && m->nnodes == 0 && !st.wiped_live)
        rc = hs_fail(ctx, HS_EINPUT, "%s: the script defines no node", path);
    hs_os_analysis_end(&st);
    hs_os_fresco_free(&st);
    hs_os_precision_reset(&st);
    Tcl_DeleteInterp(st.interp);
    if (st.aux) Tcl_DeleteInterp(st.aux);
    if (rc) hs_os_model_clear(m);
    return rc;
}

int hs_opensees_tcl_run(hs_ctx *ctx, const char *path, hs_os_model *m)
{
    return run(ctx, path, NULL, m, NULL);
}

int hs_opensees_tcl_run_limited(hs_ctx *ctx, const char *path, const hs_os_limits *lim,
                                hs_os_model *m)
{
    return run(ctx, path, lim, m, NULL);
}

int hs_opensees_script_run(hs_ctx *ctx, const char *path, const char *outdir)
{
    hs_os_model m;
    /* a script's own analysis may run for long (a transient of many steps): a day, not the
     * model script's minute; the command bound stays */
    const hs_os_limits lim = {.seconds = 86400.0, .commands = HS_OS_DEFAULT_COMMANDS};
    const int rc = run(ctx, path, &lim, &m, outdir);
    if (!rc) hs_os_model_clear(&m);
    return rc;
}
