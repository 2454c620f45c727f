/* The script runs in a safe Tcl interpreter (Tcl_MakeSafe): loading a test file never runs a
 * program, opens a socket or writes a file. What OpenSees scripts commonly use stays: `puts`
 * (stdout and stderr are shared), `file` for names and read-only questions (join, dirname,
 * tail, rootname, extension, split, exists, isfile, isdirectory) with `file mkdir` doing nothing
 * (recorders' folders: hysim's outputs go to the run folder), and `exit`, which ends the script
 * as it ends OpenSees; `set tcl_precision` works (below). `source` is hysim's (opensees_tcl.c). */
#include "opensees_tcl.h"

#include <stdio.h>
#include <string.h>

static const char *const file_queries[] = {"join",        "dirname",   "tail",    "rootname",
                                           "extension",   "split",     "exists",  "isfile",
                                           "isdirectory", "normalize", "pathtype"};

static int cmd_file(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = cd;
    if (objc < 2) return hs_os_fail(st, objv, "expected 'file subcommand ...'");
    const char *sub = Tcl_GetString(objv[1]);
    if (!strcmp(sub, "mkdir")) { /* a recorder's folder: nothing to create */
        Tcl_ResetResult(interp);
        return TCL_OK;
    }
    for (size_t i = 0; i < sizeof file_queries / sizeof file_queries[0]; i++) {
        if (strcmp(sub, file_queries[i]) != 0) continue;
        /* asked of a plain interpreter that only ever runs these */
        const int code = Tcl_EvalObjv(st->aux, objc, objv, 0);
        Tcl_SetObjResult(interp, Tcl_GetObjResult(st->aux));
        if (code != TCL_OK) return hs_os_fail(st, objv, "%s", Tcl_GetStringResult(st->aux));
        return code;
    }
    return hs_os_fail(
        st, objv,
        "'file %s' is not available: hysim runs OpenSees scripts in a safe Tcl "
        "interpreter (file names and read-only questions only: join, dirname, tail, "
        "rootname, extension, split, exists, isfile, isdirectory; mkdir does nothing)",
        sub);
}

static int cmd_exit(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    (void)objv;
    hs_os_state *st = cd;
    st->exited = 1;
    Tcl_SetObjResult(interp, Tcl_NewStringObj("exit", -1));
    return TCL_ERROR; /* unwinds the script; hs_opensees_tcl_run takes it as its end */
}

/* `set`: Tcl's own, except for tcl_precision, which a safe interpreter may not set: its value
 * (0 to 17 digits, as Tcl's) is set through the plain interpreter, the thread's precision that
 * both share, so that scripts print and convert doubles as in OpenSees (reset at the end). */
static Tcl_CmdInfo tcl_set;

static int cmd_set(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = cd;
    const char *name = objc == 3 ? Tcl_GetString(objv[1]) : "";
    if (strcmp(name, "tcl_precision") != 0 && strcmp(name, "::tcl_precision") != 0)
        return tcl_set.objProc(tcl_set.objClientData, interp, objc, objv);
    int digits;
    if (Tcl_GetIntFromObj(NULL, objv[2], &digits) != TCL_OK || digits < 0 || digits > 17)
        return hs_os_fail(st, objv, "tcl_precision: expected 0 to 17 digits, got '%.40s'",
                          Tcl_GetString(objv[2]));
    if (!Tcl_SetVar2Ex(st->aux, "tcl_precision", NULL, objv[2], TCL_GLOBAL_ONLY))
        return hs_os_fail(st, objv, "%s", Tcl_GetStringResult(st->aux));
    Tcl_SetObjResult(interp, objv[2]);
    return TCL_OK;
}

/* `open NAME <access>`: reading a file relative to the folder of the script that runs the
 * command (or, in the script's own analysis, one the script wrote in the run's folder), as
 * OpenSees' ReadRecord.tcl reads a PEER record; writing ("w", "a") only in the script's own
 * analysis and only inside the run's folder (a relative path without ".."): ReadRecord's
 * converted record and a script's own result files go there. With the test file's analysis,
 * writing is refused: loading a test file writes nothing. The channel is the interpreter's: gets,
 * read, puts, close work on it. */
static int cmd_open(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = cd;
    if (objc < 2 || objc > 3) return hs_os_fail(st, objv, "expected 'open FILE <r|w|a|w+|a+>'");
    const char *name = Tcl_GetString(objv[1]), *mode = objc == 3 ? Tcl_GetString(objv[2]) : "r";
    const int write = strcmp(mode, "r") != 0;
    static const char *const modes[] = {"r", "w", "a", "w+", "a+"};
    int known = 0;
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) known |= !strcmp(mode, modes[i]);
    if (!known)
        return hs_os_fail(st, objv, "access '%s': hysim opens files with r, w, a, w+ or a+", mode);
    char here[1024], path[4200];
    if (write) {
        if (name[0] == '/' || strstr(name, ".."))
            return hs_os_fail(st, objv,
                              "'%s': hysim writes a script's files inside the run's folder; give "
                              "a relative path without '..'",
                              name);
        if (!st->live)
            return hs_os_fail(st, objv,
                              "not available: hysim runs OpenSees scripts in a safe Tcl "
                              "interpreter and loading a test file writes nothing (without an "
                              "analysis section the script runs its own analysis and may write "
                              "inside the run's folder)");
        snprintf(path, sizeof path, "%s/%s", st->outdir, name);
        for (char *c = path + strlen(st->outdir) + 1; *c; c++) /* its folders */
            if (*c == '/') {
                *c = '\0';
                Tcl_Obj *dir = Tcl_NewStringObj(path, -1);
                Tcl_IncrRefCount(dir);
                Tcl_FSCreateDirectory(dir);
                Tcl_DecrRefCount(dir);
                *c = '/';
            }
    } else if (name[0] == '/')
        snprintf(path, sizeof path, "%s", name);
    else {
        snprintf(path, sizeof path, "%s/%s", hs_os_here(st, here, sizeof here), name);
        FILE *f = fopen(path, "r");
        if (f)
            fclose(f);
        else if (st->live)
            snprintf(path, sizeof path, "%s/%s", st->outdir, name);
    }
    Tcl_Channel ch = Tcl_OpenFileChannel(NULL, path, mode, 0666);
    if (!ch)
        return hs_os_fail(st, objv, "cannot open '%s' (%s)", path, Tcl_ErrnoMsg(Tcl_GetErrno()));
    Tcl_RegisterChannel(interp, ch);
    Tcl_SetObjResult(interp, Tcl_NewStringObj(Tcl_GetChannelName(ch), -1));
    return TCL_OK;
}

void hs_os_precision_reset(hs_os_state *st)
{
    if (st->aux) Tcl_SetVar2(st->aux, "tcl_precision", NULL, "0", TCL_GLOBAL_ONLY);
}

int hs_os_make_safe(hs_os_state *st)
{
    Tcl_Interp *in = st->interp;
    if (Tcl_MakeSafe(in) != TCL_OK || !(st->aux = Tcl_CreateInterp())) return HS_ENOMEM;
    Tcl_RegisterChannel(in, Tcl_GetStdChannel(TCL_STDOUT));
    Tcl_RegisterChannel(in, Tcl_GetStdChannel(TCL_STDERR));
    if (!Tcl_GetCommandInfo(in, "set", &tcl_set) || !tcl_set.isNativeObjectProc) return HS_ENOMEM;
    if (!Tcl_CreateObjCommand(in, "file", cmd_file, st, NULL) ||
        !Tcl_CreateObjCommand(in, "exit", cmd_exit, st, NULL) ||
        !Tcl_CreateObjCommand(in, "set", cmd_set, st, NULL) ||
        !Tcl_CreateObjCommand(in, "open", cmd_open, st, NULL))
        return HS_ENOMEM;
    return 0;
}

int hs_os_is_hidden(hs_os_state *st, const char *name)
{
    Tcl_Obj *saved = Tcl_GetObjResult(st->interp);
    Tcl_IncrRefCount(saved);
    int hidden = 0, n = 0;
    Tcl_Obj **names;
    if (Tcl_EvalEx(st->interp, "interp hidden", -1, 0) == TCL_OK &&
        Tcl_ListObjGetElements(NULL, Tcl_GetObjResult(st->interp), &n, &names) == TCL_OK)
        for (int i = 0; i < n && !hidden; i++) hidden = !strcmp(Tcl_GetString(names[i]), name);
    Tcl_SetObjResult(st->interp, saved);
    Tcl_DecrRefCount(saved);
    return hidden;
}
