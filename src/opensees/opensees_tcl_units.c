/* OpenSees' defaultUnits -force F -length L -time T <-temp X> in hysim's interpreter: the unit
 * variables a script may use afterwards ($kip, $in, $ft, $g, $sec, ... and $pi, $PI), each the
 * size of that unit in the script's units, as OpenSees 3.x sets them (SRC/tcl/commands.cpp,
 * defaultUnits: the same names, conversion factors and spellings). Nothing else changes: hysim
 * takes the script's numbers as they are, the test file's `units` name them. */
#include "opensees_tcl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define STATE(cd) ((hs_os_state *)(cd))

/* The number of script units in one lb, one inch, one second (0: a unit OpenSees refuses). */
static double pound_in(const char *f)
{
    static const struct {
        const char *name;
        double lb;
    } units[] = {
        {"lb", 1.0},
        {"lbs", 1.0},
        {"kip", 0.001},
        {"kips", 0.001},
        {"N", 4.4482216152605},
        {"kN", 0.0044482216152605},
        {"KN", 0.0044482216152605},
        {"kn", 0.0044482216152605},
        {"mN", 0.0000044482216152605},
        {"MN", 0.0000044482216152605},
        {"mn", 0.0000044482216152605},
        {"kgf", 4.4482216152605 / 9.80665},
        {"tonf", 4.4482216152605 / 9.80665 / 1000.0},
    };
    for (size_t k = 0; k < sizeof units / sizeof units[0]; k++)
        if (!strcmp(f, units[k].name)) return units[k].lb;
    return 0.0;
}

static double inch_in(const char *l)
{
    return !strcmp(l, "in") || !strcmp(l, "inch")   ? 1.0
           : !strcmp(l, "ft") || !strcmp(l, "feet") ? 1.0 / 12.0
           : !strcmp(l, "mm")                       ? 25.4
           : !strcmp(l, "cm")                       ? 2.54
           : !strcmp(l, "m")                        ? 0.0254
                                                    : 0.0;
}

static double second_in(const char *t)
{
    return !strcmp(t, "sec") || !strcmp(t, "Sec")     ? 1.0
           : !strcmp(t, "msec") || !strcmp(t, "mSec") ? 1000.0
                                                      : 0.0;
}

/* -force, -Force, -FORCE (and the same for the others): OpenSees' three spellings. */
static int option_is(const char *o, const char *lower, const char *title, const char *upper)
{
    return !strcmp(o, lower) || !strcmp(o, title) || !strcmp(o, upper);
}

static int cmd_default_units(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    const char *force = NULL, *length = NULL, *time = NULL;
    for (int i = 1; i < objc; i += 2) {
        const char *o = Tcl_GetString(objv[i]);
        if (i + 1 >= objc) return hs_os_fail(st, objv, "%s: expected a unit", o);
        const char *v = Tcl_GetString(objv[i + 1]);
        if (option_is(o, "-force", "-Force", "-FORCE"))
            force = v;
        else if (option_is(o, "-length", "-Length", "-LENGTH"))
            length = v;
        else if (option_is(o, "-time", "-Time", "-TIME"))
            time = v;
        else if (!option_is(o, "-temperature", "-Temperature", "-TEMPERATURE") &&
                 !option_is(o, "-temp", "-Temp", "-TEMP"))
            return hs_os_fail(st, objv,
                              "option '%s' is not known (defaultUnits -force F -length L -time T "
                              "<-temp X>)",
                              o);
    }
    if (!force || !length || !time)
        return hs_os_fail(st, objv, "expected 'defaultUnits -force F -length L -time T'");
    const double lb = pound_in(force), in = inch_in(length), sec = second_in(time);
    if (lb == 0.0)
        return hs_os_fail(st, objv,
                          "-force %s: expected lb, lbs, kip, kips, N, kN, KN, kn, mN, MN, mn, "
                          "kgf or tonf",
                          force);
    if (in == 0.0)
        return hs_os_fail(st, objv, "-length %s: expected in, inch, ft, feet, mm, cm or m", length);
    if (sec == 0.0) return hs_os_fail(st, objv, "-time %s: expected sec, Sec, msec or mSec", time);
    const double kip = lb / 0.001, n = lb / 4.4482216152605, kn = lb / 0.0044482216152605,
                 mn = lb / 0.0000044482216152605, kgf = lb / (4.4482216152605 / 9.80665),
                 tonf = lb / (4.4482216152605 / 9.80665 / 1000.0), ft = in * 12.0, mm = in / 25.4,
                 cm = in / 2.54, m = in / 0.0254, msec = sec * 0.001;
    const struct {
        const char *name;
        double v;
    } vars[] = {
        {"lb", lb},
        {"lbf", lb},
        {"kip", kip},
        {"N", n},
        {"kN", kn},
        {"Newton", n},
        {"kNewton", kn},
        {"MN", mn},
        {"kgf", kgf},
        {"tonf", tonf},
        {"in", in},
        {"inch", in},
        {"ft", ft},
        {"mm", mm},
        {"cm", cm},
        {"m", m},
        {"meter", m},
        {"sec", sec},
        {"msec", msec},
        {"g", 32.174049 * ft / (sec * sec)},
        {"kg", n * sec * sec / m},
        {"Mg", 1e3 * n * sec * sec / m},
        {"slug", lb * sec * sec / ft},
        {"Pa", n / (m * m)},
        {"kPa", 1e3 * n / (m * m)},
        {"MPa", 1e6 * n / (m * m)},
        {"psi", lb / (in * in)},
        {"ksi", kip / (in * in)},
        {"psf", lb / (ft * ft)},
        {"ksf", kip / (ft * ft)},
        {"pcf", lb / (ft * ft * ft)},
        {"in2", in * in},
        {"ft2", ft * ft},
        {"mm2", mm * mm},
        {"cm2", cm * cm},
        {"m2", m * m},
        {"in4", in * in * in * in},
        {"ft4", ft * ft * ft * ft},
        {"mm4", mm * mm * mm * mm},
        {"cm4", cm * cm * cm * cm},
        {"m4", m * m * m * m},
        {"pi", 2.0 * asin(1.0)},
        {"PI", 2.0 * asin(1.0)},
    };
    for (size_t k = 0; k < sizeof vars / sizeof vars[0]; k++)
        if (!Tcl_SetVar2Ex(interp, vars[k].name, NULL, Tcl_NewDoubleObj(vars[k].v),
                           TCL_LEAVE_ERR_MSG))
            return TCL_ERROR;
    Tcl_ResetResult(interp);
    return TCL_OK;
}

int hs_os_units_commands(hs_os_state *st)
{
    return Tcl_CreateObjCommand(st->interp, "defaultUnits", cmd_default_units, st, NULL)
               ? 0
               : HS_ENOMEM;
}
