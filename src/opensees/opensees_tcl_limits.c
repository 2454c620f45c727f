/* The bounds of a model script (opensees_tcl.h, docs/opensees_tcl.md "Bounds"): Tcl's interp
 * limits stop a script that runs too long (a time limit, also through vwait and after) or runs
 * too many commands, and `source` reads only regular files of at most 16 MiB under the
 * script's folder or a folder the test file allows (structure.model.source_paths). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "opensees_tcl.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define HS_OS_MAX_SOURCE (16u << 20)

int hs_os_limits_apply(hs_os_state *st, const hs_os_limits *lim)
{
    st->seconds = lim && lim->seconds > 0.0 ? lim->seconds : HS_OS_DEFAULT_SECONDS;
    st->commands = lim && lim->commands > 0 ? lim->commands : HS_OS_DEFAULT_COMMANDS;
    Tcl_Time t;
    Tcl_GetTime(&t);
    const double end = (double)t.sec + 1e-6 * (double)t.usec + st->seconds;
    t.sec = (long)end;
    t.usec = (long)((end - (double)t.sec) * 1e6);
    Tcl_LimitSetTime(st->interp, &t);
    Tcl_LimitTypeSet(st->interp, TCL_LIMIT_TIME);
    Tcl_LimitSetCommands(st->interp, st->commands);
    Tcl_LimitTypeSet(st->interp, TCL_LIMIT_COMMANDS);
    /* the folders `source` may read from: the script's, then the test file's allowances */
    st->nroots = 0;
    if (realpath(st->dir, st->roots[0])) st->nroots = 1;
    for (int i = 0; lim && i < lim->nroots && st->nroots < HS_OS_MAX_ROOTS + 1; i++) {
        if (!realpath(lim->roots[i], st->roots[st->nroots]))
            return hs_fail(st->ctx, HS_EINPUT, "%s: structure.model.source_paths: '%s': %s",
                           st->script, lim->roots[i], strerror(errno));
        st->nroots++;
    }
    return 0;
}

int hs_os_limits_error(hs_os_state *st)
{
    if (!Tcl_LimitExceeded(st->interp)) return 0;
    const int time = Tcl_LimitTypeExceeded(st->interp, TCL_LIMIT_TIME);
    return hs_fail(st->ctx, HS_EINPUT,
                   "%s: stopped after %s: hysim bounds a model script to %g s and %d Tcl commands "
                   "(a loop that never ends, a vwait or an after that waits?); a model that "
                   "needs longer can say so with structure.model.time_limit (seconds)",
                   st->script, time ? "its time limit" : "its command limit", st->seconds,
                   st->commands);
}

/* 1 when path lies in the folder root or below it. */
static int under(const char *path, const char *root)
{
    const size_t n = strlen(root);
    if (n == 1 && root[0] == '/') return 1;
    return strncmp(path, root, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

int hs_os_source_check(hs_os_state *st, Tcl_Obj *const objv[], const char *path)
{
    char real[PATH_MAX];
    struct stat sb;
    if (!realpath(path, real) || stat(real, &sb) != 0)
        return hs_os_fail(st, objv,
                          "cannot open '%s' (a sourced file is relative to the folder of the "
                          "script that sources it)",
                          path);
    if (!S_ISREG(sb.st_mode))
        return hs_os_fail(st, objv, "'%s' is not a regular file: a script sources Tcl files only",
                          path);
    if ((uint64_t)sb.st_size > HS_OS_MAX_SOURCE)
        return hs_os_fail(st, objv,
                          "'%s' is %llu bytes, beyond the 16 MiB a sourced script may "
                          "have",
                          path, (unsigned long long)sb.st_size);
    for (int i = 0; i < st->nroots; i++)
        if (under(real, st->roots[i])) return TCL_OK;
    return hs_os_fail(st, objv,
                      "'%s' is outside the script's folder %s: hysim sources files from the "
                      "script's folder and below only; allow another folder in the test file "
                      "with structure.model.source_paths: [FOLDER]",
                      real, st->nroots ? st->roots[0] : st->dir);
}
