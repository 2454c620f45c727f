/* OpenFresco's expSetup in hysim's interpreter (docs/openfresco.md, "Setups"): the argument
 * forms of OpenFresco's setup parsers (SRC/experimentalSetup/ES*.cpp, OPF_ES* functions; the
 * similitude factors from SRC/interpreter/ExpSetupCommands.cpp), mapped onto hysim's setups:
 *
 *   OneActuator tag <-control c> dir -sizeTrialOut t o <factors>        actuator on trial DOF dir
 *   NoTransformation tag <-control c> -dof|-dir d1 .. dn -sizeTrialOut t o <factors>
 *                                                                   actuator k on trial DOF dk
 *   TwoActuators2d tag <-control c> La1 La2 L <-nlGeom> <-posAct left|right> <-phiLocX phi>
 *   ThreeActuators2d, InvertedVBrace2d tag <-control c> La1 La2 La3 L1 L2 <-nlGeom>
 *       <-posAct1 left|right> <-phiLocX phi>
 *   ThreeActuatorsJntOff2d, InvertedVBraceJntOff2d tag <-control c> La1 La2 La3 L1 .. L6 ...
 *   ThreeActuators tag <-control c> dof1 dof2 dof3 t o La1 La2 La3 L1 L2 L3 <-nlGeom> <-posAct1>
 *   ThreeActuatorsJntOff tag <-control c> dof1 dof2 dof3 t o La1 La2 La3 L1 .. L7 ...
 *   FourActuators3d tag <-control c> L1 .. L4 a1 .. a4 h h1 h2 arlN arlS LrodN LrodS Hbeam
 *       <-nlGeom> <-phiLocX phi>                 (always the exact geometry, as OpenFresco's)
 *
 * The setups with actuators are hysim's rigid platforms placed from those lengths
 * (hs_setup_preset_turned, src/lab/setup_presets.c, docs/setups.md); their control DOFs ux, uy,
 * rz stand for the element's trial DOFs 1, 2, 3 (the 2-D setups' sizeTrialOut is 3 3) or
 * dof1 dof2 dof3; FourActuators3d's ux, uy, rx, ry for trial DOFs 2, 4, 5, 3 of 6, negated
 * (TRIAL_FOUR). The setups' parsers in OpenFresco read every word after the lengths as one of
 * their options and skip the others, so factors there reach nothing; hysim refuses them (and
 * any unknown option) instead.
 *   Aggregator tag <-control c> -setup s1 s2 ... <factors>   setups one after the other
 *                                                            (aggregated_setups; with geometry:
 *                                                            under expElement generic,
 *                                                            twoNodeLink, 3-D beamColumn) */
#include "opensees_tcl_openfresco.h"

#include <math.h>
#include <string.h>

/* A similitude factor option (ExpSetupCommands.cpp: -trial/-out/-ctrl/-daq, then
 * Dsp|Disp|Displacement, Vel|Velocity, Acc|Accel|Acceleration, Frc|Forc|Force or Time, then
 * Fact; as many numbers as the trial, out, ctrl or daq vector has). 0: not a factor option; -1:
 * an error raised; 1: read (objv[*i] is its last number). ExperimentalSetup.cpp applies them
 * between the element and the control: the command is ctrlFact T(trialFact d), the element's
 * force outFact T'(daqFact f). A SimUniaxialMaterials specimen sees the displacement and
 * velocity ones (its strain and rate) and the force ones; the acceleration and time ones reach
 * nothing it has, the out/daq displacement ones only OpenFresco's daqDisp recorder (hysim's
 * answers d, the same when they undo the trial ones). */
static int factor_option(hs_os_state *st, Tcl_Obj *const objv[], int objc, int *i, hs_of_setup *s)
{
    static const char *const GROUP[4] = {"-trial", "-out", "-ctrl", "-daq"};
    static const struct {
        const char *stem;
        int kind; /* HS_OF_DISP, _VEL, _FORCE, or 3: accel or time */
    } KIND[] = {{"Dsp", 0},      {"Disp", 0},  {"Displacement", 0}, {"Vel", 1},
                {"Velocity", 1}, {"Frc", 2},   {"Forc", 2},         {"Force", 2},
                {"Acc", 3},      {"Accel", 3}, {"Acceleration", 3}, {"Time", 3}};
    const char *opt = Tcl_GetString(objv[*i]);
    const size_t len = strlen(opt);
    if (len < 6 || strcmp(opt + len - 4, "Fact") != 0) return 0;
    int g = -1, kind = -1;
    size_t glen = 0;
    for (int k = 0; k < 4; k++)
        if (!strncmp(opt, GROUP[k], strlen(GROUP[k]))) g = k, glen = strlen(GROUP[k]);
    for (size_t k = 0; g >= 0 && k < sizeof KIND / sizeof KIND[0]; k++)
        if (strlen(KIND[k].stem) == len - glen - 4 &&
            !strncmp(opt + glen, KIND[k].stem, len - glen - 4))
            kind = KIND[k].kind;
    if (g < 0 || kind < 0) return 0;
    if (s->has_geom)
        return hs_os_fail(st, objv,
                          "%s: hysim takes no similitude factors on a setup with actuator "
                          "geometry (OpenFresco's %s parser reads them as unknown options and "
                          "ignores them); scale the model or the specimen's material instead",
                          opt, s->type),
               -1;
    const int size = g == HS_OF_TRIAL ? s->size_trial : g == HS_OF_OUT ? s->size_out : s->nact;
    double v[HS_OS_NDF];
    for (int k = 0; k < size; k++) {
        if (*i + 1 + k >= objc || Tcl_GetDoubleFromObj(NULL, objv[*i + 1 + k], &v[k]) != TCL_OK ||
            !isfinite(v[k]))
            return hs_os_fail(st, objv, "%s: expected %d factors (one per %s DOF), got '%s'", opt,
                              size,
                              g == HS_OF_TRIAL ? "trial"
                              : g == HS_OF_OUT ? "output"
                                               : "actuator",
                              *i + 1 + k < objc ? Tcl_GetString(objv[*i + 1 + k]) : "nothing"),
                   -1;
        if (v[k] == 0.0 && kind != 3)
            return hs_os_fail(st, objv, "%s: factor %d is 0; a scale factor is nonzero", opt,
                              k + 1),
                   -1;
    }
    for (int k = 0; kind != 3 && k < size; k++) s->fac[g][kind][k] = v[k];
    *i += size;
    return 1;
}

/* -sizeTrialOut t o at objv[i .. i + 2] */
static int size_trial_out(hs_os_state *st, Tcl_Obj *const objv[], int objc, int i, hs_of_setup *s)
{
    if (i + 2 >= objc || strcmp(Tcl_GetString(objv[i]), "-sizeTrialOut"))
        return hs_os_fail(st, objv, "expected -sizeTrialOut t o (the trial and output sizes)");
    if (hs_os_int(st, objv, i + 1, "sizeTrial", &s->size_trial) ||
        hs_os_int(st, objv, i + 2, "sizeOut", &s->size_out))
        return TCL_ERROR;
    if (s->size_trial < 1 || s->size_trial > HS_OS_NDF || s->size_out != s->size_trial)
        return hs_os_fail(st, objv,
                          "-sizeTrialOut %d %d: hysim maps equal sizes 1 to %d (the element's "
                          "basic DOFs)",
                          s->size_trial, s->size_out, HS_OS_NDF);
    return TCL_OK;
}

/* A trial DOF dof (1-based, objv[i]) into s->trial_dof[k] */
static int trial_dof(hs_os_state *st, Tcl_Obj *const objv[], int i, const char *what, int k,
                     hs_of_setup *s)
{
    int d;
    if (hs_os_int(st, objv, i, what, &d)) return TCL_ERROR;
    if (d < 1 || d > s->size_trial)
        return hs_os_fail(st, objv, "%s %d: expected 1 to %d (the size of the trial vector)", what,
                          d, s->size_trial);
    for (int j = 0; j < k; j++)
        if (s->trial_dof[j] == d - 1)
            return hs_os_fail(st, objv, "%s %d is given twice; one actuator per DOF", what, d);
    s->trial_dof[k] = d - 1;
    return TCL_OK;
}

/* OneActuator dir -sizeTrialOut t o; NoTransformation -dof d1 .. -sizeTrialOut t o. Returns the
 * index after them, or -1. */
static int actuators_on_dofs(hs_os_state *st, Tcl_Obj *const objv[], int objc, int i,
                             hs_of_setup *s)
{
    const int one = !strcmp(s->type, "OneActuator");
    int first = i, n = 1;
    if (!one) {
        if (i >= objc ||
            (strcmp(Tcl_GetString(objv[i]), "-dof") && strcmp(Tcl_GetString(objv[i]), "-dir")))
            return hs_os_fail(st, objv,
                              "expected 'expSetup NoTransformation tag <-control ctrlTag> -dof "
                              "d1 d2 ... -sizeTrialOut t o'"),
                   -1;
        first = ++i;
        for (n = 0; i < objc && Tcl_GetString(objv[i])[0] != '-'; i++) n++;
        if (n < 1 || n > HS_OF_MAX_MATS)
            return hs_os_fail(st, objv, "-dof: expected 1 to %d DOFs, got %d", HS_OF_MAX_MATS, n),
                   -1;
    } else if (i + 1 >= objc || strcmp(Tcl_GetString(objv[i + 1]), "-sizeTrialOut")) {
        return hs_os_fail(st, objv,
                          "expected 'expSetup OneActuator tag <-control ctrlTag> dir "
                          "-sizeTrialOut t o'"),
               -1;
    }
    if (size_trial_out(st, objv, objc, first + n, s)) return -1;
    s->nact = n;
    for (int k = 0; k < n; k++)
        if (trial_dof(st, objv, first + k, one ? "dir" : "-dof", k, s)) return -1;
    return first + n + 3;
}

/* The setups with actuator geometry: their lengths as hs_setup_preset_turned takes them. */
static const struct {
    const char *type, *preset;
    int dofs; /* 1: dof1 dof2 dof3 t o before the lengths (ThreeActuators, ...JntOff) */
    int nla, nl;
    const char *pos; /* the option that puts the horizontal actuator right or left, or NULL */
    int ntrial;      /* the trial vector: 3 (ux, uy, rz) or 6 (FourActuators3d) */
} GEOM[] = {
    {"TwoActuators2d", "TwoActuators2d", 0, 2, 1, "-posAct", 3},
    {"ThreeActuators2d", "ThreeActuators2d", 0, 3, 2, "-posAct1", 3},
    {"InvertedVBrace2d", "InvertedVBrace2d", 0, 3, 2, "-posAct1", 3},
    {"ThreeActuatorsJntOff2d", "ThreeActuatorsJntOff2d", 0, 3, 6, "-posAct1", 3},
    {"InvertedVBraceJntOff2d", "InvertedVBraceJntOff2d", 0, 3, 6, "-posAct1", 3},
    {"ThreeActuators", "ThreeActuators", 1, 3, 3, "-posAct1", 3},
    {"ThreeActuatorsJntOff", "ThreeActuatorsJntOff", 1, 3, 7, "-posAct1", 3},
    {"FourActuators3d", "FourActuators3d", 0, 4, 12, NULL, 6},
};

/* The trial DOF (0-based) each pose DOF ux uy uz rx ry rz stands for (-1: none): OpenFresco's 2-D
 * setups take [ux, uy, rz]; ESFourActuators3d.cpp transfTrialDisp takes D = (ux, uy, phix,
 * phiy) = -(trial 2, trial 4, trial 5, trial 3) (1-based), the signs being a turn of its
 * actuators by 180 degrees (added to phiLocX), and gives back (transfDaqForce) -Fx, -My, -Fy,
 * -Mx on those trial DOFs, the same turn's resultant. */
static const int TRIAL_2D[6] = {0, 1, -1, -1, -1, 2}, TRIAL_FOUR[6] = {1, 3, -1, 4, 2, -1};

/* The geometry's lengths, -nlGeom, -posAct(1), -phiLocX; returns the index after them, or -1. */
static int actuators_with_geometry(hs_os_state *st, Tcl_Obj *const objv[], int objc, int i, int t,
                                   hs_of_setup *s)
{
    if (GEOM[t].dofs) {
        if (i + 4 >= objc) return hs_os_fail(st, objv, "expected dof1 dof2 dof3 t o"), -1;
        int t_size, o_size;
        if (hs_os_int(st, objv, i + 3, "sizeTrial", &t_size) ||
            hs_os_int(st, objv, i + 4, "sizeOut", &o_size))
            return -1;
        s->size_trial = t_size;
        s->size_out = o_size;
        if (t_size < 3 || t_size > HS_OS_NDF || o_size != t_size)
            return hs_os_fail(st, objv,
                              "sizes %d %d: hysim maps equal sizes 3 to %d (the element's basic "
                              "DOFs)",
                              t_size, o_size, HS_OS_NDF),
                   -1;
        for (int k = 0; k < 3; k++)
            if (trial_dof(st, objv, i + k, "dof", k, s)) return -1;
        i += 5;
    } else {
        s->size_trial = s->size_out = GEOM[t].ntrial; /* OpenFresco's 2-D setups: [ux, uy, rz] */
    }
    const int nlen = GEOM[t].nla + GEOM[t].nl;
    double len[16];
    for (int k = 0; k < nlen; k++)
        if (i + k >= objc || hs_os_num(st, objv, i + k, k < GEOM[t].nla ? "La" : "L", &len[k]))
            return i + k >= objc
                       ? hs_os_fail(st, objv, "expected %d lengths %s after the %s (got %d)", nlen,
                                    hs_setup_preset_lengths(GEOM[t].preset),
                                    GEOM[t].dofs ? "sizes" : "tag and control", k)
                       : -1,
                   -1;
    i += nlen;
    int right = 0;
    double phi = 0.0;
    for (; i < objc; i++) {
        const char *o = Tcl_GetString(objv[i]);
        if (!strcmp(o, "-nlGeom")) {
            s->g.nl_geom = 1;
        } else if (GEOM[t].pos && !strcmp(o, GEOM[t].pos)) {
            const char *p = i + 1 < objc ? Tcl_GetString(objv[i + 1]) : "";
            if (strcmp(p, "left") && strcmp(p, "l") && strcmp(p, "right") && strcmp(p, "r"))
                return hs_os_fail(st, objv, "%s: expected left or right, got '%s'", o, p), -1;
            right = p[0] == 'r';
            i++;
        } else if (!strcmp(o, "-phiLocX") && !GEOM[t].dofs) {
            if (i + 1 >= objc || hs_os_num(st, objv, i + 1, "-phiLocX", &phi))
                return i + 1 >= objc ? hs_os_fail(st, objv, "-phiLocX: expected degrees") : -1, -1;
            i++;
        } else {
            break; /* a factor, refused by the caller, or an unknown option */
        }
    }
    const int four = GEOM[t].ntrial == 6;
    if (four && !s->g.nl_geom)
        hs_os_ignored_once(st, "FourActuators3d's linear geometry",
                           "ESFourActuators3d.cpp has none and uses the exact geometry, with a "
                           "warning; hysim does the same");
    s->g.nl_geom |= four;
    if (hs_setup_preset_turned(st->ctx, GEOM[t].preset, len, nlen, right, 0,
                               four ? phi + 180.0 : phi, &s->g))
        return hs_os_fail(st, objv, "%s", hs_ctx_message(st->ctx)), -1;
    s->has_geom = 1;
    s->nact = s->g.nact;
    for (int k = 0; !GEOM[t].dofs && k < s->g.ndof; k++)
        s->trial_dof[k] = (four ? TRIAL_FOUR : TRIAL_2D)[s->g.dof[k]];
    return i;
}

/* Aggregator -setup s1 s2 ... (ESAggregator.cpp: its trial vector is its setups' trial vectors
 * one after the other, its control vector their actuators', each setup transforming its own part
 * with its own factors): setups without actuator geometry (OneActuator, NoTransformation) make one
 * NoTransformation over the concatenation, with their factors (the caller multiplies them by the
 * aggregate's own, as ESAggregator applies both). When one has actuator geometry, the setups are
 * kept (nsub, sub): expElement generic, twoNodeLink and the 3-D beamColumn build a link per
 * setup (opensees_tcl_exp_generic.c, opensees_tcl_exp_aggregate.c).
 * Returns the index after the tags, or -1. */
static int aggregated_setups(hs_os_state *st, Tcl_Obj *const objv[], int objc, int i,
                             const struct hs_os_fresco *f, hs_of_setup *s)
{
    if (i >= objc || strcmp(Tcl_GetString(objv[i]), "-setup"))
        return hs_os_fail(st, objv,
                          "expected 'expSetup Aggregator tag <-control ctrlTag> -setup "
                          "setupTag1 setupTag2 ...'"),
               -1;
    int n = 0, tag;
    for (i++; i < objc && Tcl_GetIntFromObj(NULL, objv[i], &tag) == TCL_OK; i++, n++) {
        if (n == HS_OF_MAX_MATS)
            return hs_os_fail(st, objv, "-setup: at most %d setups", HS_OF_MAX_MATS), -1;
        const hs_of_setup *m = hs_of_find_setup(f, tag);
        if (!m) return hs_os_fail(st, objv, "-setup: no expSetup %d (define it first)", tag), -1;
        s->nsub |= m->has_geom; /* its setups are kept when one has geometry (below) */
        if (s->size_trial + m->size_trial > HS_OS_NDF || s->nact + m->nact > HS_OF_MAX_MATS)
            return hs_os_fail(st, objv,
                              "-setup %d: the aggregate would have more than %d trial DOFs or "
                              "%d actuators",
                              tag, HS_OS_NDF, HS_OF_MAX_MATS),
                   -1;
        for (int k = 0; k < m->nact; k++) {
            s->trial_dof[s->nact + k] = s->size_trial + m->trial_dof[k];
            for (int g = HS_OF_CTRL; g <= HS_OF_DAQ; g++)
                for (int kind = 0; kind < 3; kind++)
                    s->fac[g][kind][s->nact + k] = m->fac[g][kind][k];
        }
        for (int b = 0; b < m->size_trial; b++)
            for (int g = HS_OF_TRIAL; g <= HS_OF_OUT; g++)
                for (int kind = 0; kind < 3; kind++)
                    s->fac[g][kind][s->size_trial + b] = m->fac[g][kind][b];
        s->sub[n] = tag;
        s->nact += m->nact;
        s->size_trial += m->size_trial;
    }
    if (s->nsub) s->nsub = n;
    if (n < 2)
        return hs_os_fail(st, objv, "-setup: expected at least two setup tags, got %d", n), -1;
    s->size_out = s->size_trial;
    return i;
}

int hs_of_cmd_exp_setup(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = (hs_os_state *)cd;
    if (objc < 3) return hs_os_fail(st, objv, "expected 'expSetup type tag ...'");
    const char *type = Tcl_GetString(objv[1]);
    int t = -1;
    for (int k = 0; k < (int)(sizeof GEOM / sizeof GEOM[0]); k++)
        if (!strcmp(type, GEOM[k].type)) t = k;
    const int aggregate = !strcmp(type, "Aggregator");
    if (t < 0 && !aggregate && strcmp(type, "OneActuator") && strcmp(type, "NoTransformation"))
        return hs_os_fail(st, objv,
                          "type '%s' is not supported by hysim (it has OneActuator, "
                          "NoTransformation, TwoActuators2d, ThreeActuators2d, InvertedVBrace2d, "
                          "ThreeActuatorsJntOff2d, InvertedVBraceJntOff2d, ThreeActuators, "
                          "ThreeActuatorsJntOff, FourActuators3d, Aggregator)",
                          type);
    hs_of_setup s = {0};
    snprintf(s.type, sizeof s.type, "%s", type);
    if (hs_os_int(st, objv, 2, "tag", &s.tag)) return TCL_ERROR;
    int i = 3;
    if (i < objc &&
        (!strcmp(Tcl_GetString(objv[i]), "-control") || !strcmp(Tcl_GetString(objv[i]), "-ctrl"))) {
        if (i + 1 >= objc || hs_os_int(st, objv, i + 1, "-control", &s.control))
            return i + 1 >= objc ? hs_os_fail(st, objv, "-control: expected the control's tag")
                                 : TCL_ERROR;
        i += 2;
    }
    struct hs_os_fresco *f = hs_of_state(st);
    if (!f) return hs_os_fail(st, objv, "out of memory");
    if (s.control && !hs_of_find_control(f, s.control))
        return hs_os_fail(st, objv, "no expControl %d (define it first)", s.control);
    for (int g = 0; g < 4; g++)
        for (int k = 0; k < 3; k++)
            for (int a = 0; a < HS_OF_MAX_MATS; a++) s.fac[g][k][a] = 1.0;
    i = aggregate ? aggregated_setups(st, objv, objc, i, f, &s)
        : t < 0   ? actuators_on_dofs(st, objv, objc, i, &s)
                  : actuators_with_geometry(st, objv, objc, i, t, &s);
    if (i < 0) return TCL_ERROR;
    hs_of_setup own = s; /* the setup's own factors, times an aggregate's setups' (s.fac) */
    for (int g = 0; g < 4; g++)
        for (int k = 0; k < 3; k++)
            for (int a = 0; a < HS_OF_MAX_MATS; a++) own.fac[g][k][a] = 1.0;
    for (; i < objc; i++) {
        const int r = factor_option(st, objv, objc, &i, &own);
        if (r < 0) return TCL_ERROR;
        if (!r)
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (%s knows -control, %s)",
                              Tcl_GetString(objv[i]), type,
                              aggregate ? "-setup and the factors -trialDispFact ... -daqTimeFact"
                              : t < 0   ? "-sizeTrialOut and the factors -trialDispFact ... "
                                          "-daqTimeFact"
                              : !GEOM[t].pos                    ? "-nlGeom, -phiLocX"
                              : !strcmp(GEOM[t].pos, "-posAct") ? "-nlGeom, -posAct, -phiLocX"
                              : GEOM[t].dofs                    ? "-nlGeom, -posAct1"
                                                                : "-nlGeom, -posAct1, -phiLocX");
    }
    for (int g = 0; g < 4; g++)
        for (int k = 0; k < 3; k++)
            for (int a = 0; a < HS_OF_MAX_MATS; a++) s.fac[g][k][a] *= own.fac[g][k][a];
    if (hs_of_find_setup(f, s.tag))
        return hs_os_fail(st, objv, "setup %d is already defined", s.tag);
    hs_of_setup *slot = hs_os_push((void **)&f->setups, &f->nsetups, sizeof *slot);
    if (!slot) return hs_os_fail(st, objv, "out of memory");
    *slot = s;
    Tcl_ResetResult(interp);
    return TCL_OK;
}
