/* OpenSees' analysis commands in hysim's interpreter (opensees_analysis.h): constraints,
 * numberer, system, test, algorithm, integrator, analysis, analyze, loadConst, setTime, getTime,
 * wipeAnalysis, remove. Live (the test file has no analysis section): they run the script's own
 * analysis. Otherwise the test file's analysis wins: they do nothing but keep the time, so that
 * `analyze` returns 0 and `getTime` grows, and a script's `while {$t < $T} {analyze 1 $dt; set t
 * [getTime]}` ends; each says it is ignored once. */
#include "opensees_analysis.h"

#include <stdio.h>
#include <string.h>

#define STATE(cd) ((hs_os_state *)(cd))

static const char *const TEST_FILE = "the test file sets the analysis";

static int set_result_int(Tcl_Interp *interp, int v)
{
    Tcl_SetObjResult(interp, Tcl_NewIntObj(v));
    return TCL_OK;
}

/* A settings command that only a live analysis reads: checked always, used when live. */
static int settings_done(hs_os_state *st, Tcl_Interp *interp, Tcl_Obj *const objv[])
{
    if (!st->live) hs_os_ignored_once(st, Tcl_GetString(objv[0]), TEST_FILE);
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/* constraints, numberer, system: hysim eliminates constraints by transformation and solves
 * the dense system; the choice changes no result beyond round-off. */
static int cmd_accepted(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    return settings_done(STATE(cd), interp, objv);
}

/* constraints type ...: hysim eliminates constraints by transformation; the type matters to a
 * pattern MultipleSupport only (hs_os_settings.handler). */
static int cmd_constraints(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    st->an->set.handler = objc > 1 && strcmp(Tcl_GetString(objv[1]), "Plain") != 0;
    return settings_done(st, interp, objv);
}

/* test NormDispIncr|NormUnbalance|EnergyIncr tol maxIter <printFlag> <normType>;
 * test FixedNumIter iter */
static int cmd_test(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    hs_os_settings *s = &st->an->set;
    if (objc < 3) return hs_os_fail(st, objv, "expected 'test NormDispIncr tol maxIter'");
    const char *type = Tcl_GetString(objv[1]);
    int first = 2;
    if (!strcmp(type, "NormDispIncr"))
        s->test = HS_OS_TEST_DISP;
    else if (!strcmp(type, "NormUnbalance"))
        s->test = HS_OS_TEST_UNBALANCE;
    else if (!strcmp(type, "EnergyIncr"))
        s->test = HS_OS_TEST_ENERGY;
    else if (!strcmp(type, "FixedNumIter")) {
        s->test = HS_OS_TEST_FIXED;
        first = 1;
        s->tol = 0.0;
    } else
        return hs_os_fail(st, objv,
                          "type '%s' is not supported by hysim (NormDispIncr, NormUnbalance, "
                          "EnergyIncr, FixedNumIter)",
                          type);
    if (first == 2 && hs_os_num(st, objv, 2, "tol", &s->tol)) return TCL_ERROR;
    if (first + 1 >= objc) /* OpenSees 3.8: "no numIter specified in test command" */
        return hs_os_fail(st, objv,
                          "no maxIter (OpenSees 3.8 stops here too); give 'test %s%s maxIter', "
                          "e.g. 25",
                          type, first == 2 ? " tol" : "");
    if (hs_os_int(st, objv, first + 1, "maxIter", &s->max_iter)) return TCL_ERROR;
    s->print_flag = 0;
    if (first + 2 < objc && hs_os_int(st, objv, first + 2, "printFlag", &s->print_flag))
        return TCL_ERROR;
    if (first + 3 < objc) {
        int norm;
        if (hs_os_int(st, objv, first + 3, "normType", &norm)) return TCL_ERROR;
        if (norm != 2)
            return hs_os_fail(st, objv, "normType %d: hysim's tests use the 2-norm (2)", norm);
    }
    if (s->max_iter < 1) return hs_os_fail(st, objv, "maxIter %d: must be >= 1", s->max_iter);
    s->has_test = 1;
    return settings_done(st, interp, objv);
}

/* algorithm Newton <-initial> | ModifiedNewton <-initial> | Linear; the Newton variants that
 * converge to the same equilibrium (NewtonLineSearch, KrylovNewton, BFGS, Broyden) run as
 * Newton, with a line. */
static int cmd_algorithm(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    hs_os_settings *s = &st->an->set;
    if (objc < 2) return hs_os_fail(st, objv, "expected 'algorithm Newton'");
    const char *type = Tcl_GetString(objv[1]);
    s->initial = 0;
    for (int i = 2; i < objc; i++)
        if (!strcmp(Tcl_GetString(objv[i]), "-initial")) s->initial = 1;
    if (!strcmp(type, "Newton") || !strcmp(type, "NewtonRaphson"))
        s->alg = HS_OS_ALG_NEWTON;
    else if (!strcmp(type, "ModifiedNewton"))
        s->alg = HS_OS_ALG_MODIFIED_NEWTON;
    else if (!strcmp(type, "Linear"))
        s->alg = HS_OS_ALG_LINEAR;
    else if (!strcmp(type, "NewtonLineSearch") || !strcmp(type, "KrylovNewton") ||
             !strcmp(type, "BFGS") || !strcmp(type, "Broyden")) {
        char where[HS_OS_WHERE];
        if (st->live)
            hs_log(st->ctx, HS_LOG_WARN,
                   "%s: algorithm %s runs as Newton in hysim (the same equilibrium within the "
                   "test's tolerance; the iterations differ)",
                   hs_os_where(st, where, sizeof where), type);
        s->alg = HS_OS_ALG_NEWTON;
        s->initial = 0;
    } else
        return hs_os_fail(st, objv,
                          "type '%s' is not supported by hysim (Newton, ModifiedNewton, Linear, "
                          "each with -initial; NewtonLineSearch, KrylovNewton, BFGS and Broyden "
                          "run as Newton)",
                          type);
    s->has_alg = 1;
    return settings_done(st, interp, objv);
}

/* integrator LoadControl dLambda <Jd minLambda maxLambda>; DisplacementControl node dof incr
 * <Jd min max>; Newmark gamma beta; HHT alpha <gamma beta> */
static int cmd_integrator(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    hs_os_settings *s = &st->an->set;
    if (objc < 3) return hs_os_fail(st, objv, "expected 'integrator LoadControl dLambda'");
    const char *type = Tcl_GetString(objv[1]);
    int first = 2;
    s->explicit_newmark = s->alpha_os = s->update_elem_disp = s->hht = s->hs_fixed = 0;
    st->an->modal_dirty = 1; /* the modal damping's integrator check */
    if (!strcmp(type, "LoadControl")) {
        s->integ = HS_OS_INT_LOAD;
        if (hs_os_num(st, objv, 2, "dLambda", &s->incr)) return TCL_ERROR;
        first = 3;
        st->pseudo_incr = s->incr;
    } else if (!strcmp(type, "DisplacementControl")) {
        s->integ = HS_OS_INT_DISP;
        if (objc < 5)
            return hs_os_fail(st, objv, "expected 'integrator DisplacementControl node dof incr'");
        if (hs_os_int(st, objv, 2, "node", &s->node) || hs_os_int(st, objv, 3, "dof", &s->dof) ||
            hs_os_num(st, objv, 4, "incr", &s->incr))
            return TCL_ERROR;
        if (!hs_os_find_node(st->m, s->node)) return hs_os_fail(st, objv, "no node %d", s->node);
        if (s->dof < 1 || s->dof > st->m->ndf)
            return hs_os_fail(st, objv, "dof %d: expected 1 to %d", s->dof, st->m->ndf);
        s->dof--;
        first = 5;
        st->pseudo_incr = 0.0;
    } else if (!strcmp(type, "HSConstraint")) {
        /* HSConstraint arcLength <psi_u <psi_f <u_ref>>>, 1 each by default (HSConstraint.h) */
        double v[4] = {0.0, 1.0, 1.0, 1.0};
        if (objc > 6)
            return hs_os_fail(st, objv,
                              "expected 'integrator HSConstraint arcLength <psi_u <psi_f "
                              "<u_ref>>>'");
        for (int i = 2; i < objc; i++)
            if (hs_os_num(st, objv, i, "HSConstraint's numbers", &v[i - 2])) return TCL_ERROR;
        if (!(v[0] > 0.0) || v[3] == 0.0 || (v[1] == 0.0 && v[2] == 0.0))
            return hs_os_fail(st, objv,
                              "arcLength must be > 0, u_ref != 0, and psi_u or psi_f != 0");
        s->integ = HS_OS_INT_HSC;
        s->arc2 = v[0] * v[0];
        s->psi_u2 = v[1] * v[1];
        s->psi_f2 = v[2] * v[2];
        s->u_ref2 = v[3] * v[3];
        st->pseudo_incr = 0.0;
        st->an->integ_changed = 1;
        return settings_done(st, interp, objv);
    } else if (!strcmp(type, "EQPath")) {
        /* EQPath arcLength type (EQPath.cpp): types 1 (minimum residual displacement) and 2
         * (normal plane) */
        double arclen;
        int t;
        if (objc != 4) return hs_os_fail(st, objv, "expected 'integrator EQPath arcLength type'");
        if (hs_os_num(st, objv, 2, "arcLength", &arclen) || hs_os_int(st, objv, 3, "type", &t))
            return TCL_ERROR;
        if (!(arclen > 0.0)) return hs_os_fail(st, objv, "arcLength must be > 0");
        if (t != 1 && t != 2)
            return hs_os_fail(st, objv,
                              "type %d is not supported by hysim (1: minimum residual "
                              "displacement, 2: normal plane)",
                              t);
        s->integ = HS_OS_INT_EQPATH;
        s->arclen = arclen;
        s->eq_type = t;
        st->pseudo_incr = 0.0;
        st->an->integ_changed = 1;
        return settings_done(st, interp, objv);
    } else if (!strcmp(type, "NewmarkExplicit")) {
        /* NewmarkExplicit gamma (NewmarkExplicit.cpp): the predictor U + dt V + dt^2/2 A,
         * V + (1 - gamma) dt A, then M + gamma dt C solved for the acceleration (no K) */
        s->integ = HS_OS_INT_NEWMARK;
        if (objc != 3 || hs_os_num(st, objv, 2, "gamma", &s->gamma))
            return objc != 3 ? hs_os_fail(st, objv, "expected 'integrator NewmarkExplicit gamma'")
                             : TCL_ERROR;
        if (!(s->gamma > 0.0)) return hs_os_fail(st, objv, "gamma must be > 0 (OpenSees' too)");
        s->explicit_newmark = 1;
        s->beta = 0.0;
        s->alpha = 1.0;
        st->an->integ_changed = 1;
        return settings_done(st, interp, objv);
    } else if (!strcmp(type, "AlphaOS")) {
        /* AlphaOS alpha <beta gamma> <-updateElemDisp> (AlphaOS.cpp, OPS_AlphaOS): the
         * operator-splitting alpha method; defaults beta = (2 - alpha)^2 / 4, gamma = 1.5 -
         * alpha */
        s->integ = HS_OS_INT_NEWMARK;
        s->alpha_os = 1;
        int nnum = objc - 2;
        if (objc > 2 && !strcmp(Tcl_GetString(objv[objc - 1]), "-updateElemDisp"))
            s->update_elem_disp = 1, nnum--;
        if ((nnum != 1 && nnum != 3) || hs_os_num(st, objv, 2, "alpha", &s->alpha))
            return nnum != 1 && nnum != 3
                       ? hs_os_fail(st, objv,
                                    "expected 'integrator AlphaOS alpha <beta gamma> "
                                    "<-updateElemDisp>'")
                       : TCL_ERROR;
        s->beta = (2.0 - s->alpha) * (2.0 - s->alpha) * 0.25;
        s->gamma = 1.5 - s->alpha;
        if (nnum == 3 && (hs_os_num(st, objv, 3, "beta", &s->beta) ||
                          hs_os_num(st, objv, 4, "gamma", &s->gamma)))
            return TCL_ERROR;
        if (!(s->beta > 0.0 && s->gamma > 0.0))
            return hs_os_fail(st, objv, "beta and gamma must be > 0 (OpenSees' too)");
        st->an->integ_changed = 1;
        return settings_done(st, interp, objv);
    } else if (!strcmp(type, "Newmark")) {
        s->integ = HS_OS_INT_NEWMARK;
        if (objc < 4 || hs_os_num(st, objv, 2, "gamma", &s->gamma) ||
            hs_os_num(st, objv, 3, "beta", &s->beta))
            return hs_os_fail(st, objv, "expected 'integrator Newmark gamma beta'");
        if (objc > 4)
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (Newmark gamma beta)",
                              Tcl_GetString(objv[4]));
        s->alpha = 1.0;
        return (s->beta > 0.0 && s->gamma > 0.0)
                   ? (st->an->integ_changed = 1, settings_done(st, interp, objv))
                   : hs_os_fail(st, objv, "gamma and beta must be > 0 (hysim's implicit Newmark)");
    } else if (!strcmp(type, "NewmarkHSFixedNumIter")) {
        /* NewmarkHSFixedNumIter gamma beta <-polyOrder p> (OpenSees 3.8's
         * NewmarkHSFixedNumIter.cpp, OPS_NewmarkHSFixedNumIter: polyOrder 2 by default, 1 to 3,
         * the domain updated at commit) */
        s->integ = HS_OS_INT_NEWMARK;
        s->hs_fixed = 1;
        s->poly_order = 2;
        if ((objc != 4 && objc != 6) || hs_os_num(st, objv, 2, "gamma", &s->gamma) ||
            hs_os_num(st, objv, 3, "beta", &s->beta))
            return hs_os_fail(st, objv,
                              "expected 'integrator NewmarkHSFixedNumIter gamma beta <-polyOrder "
                              "p>'");
        if (objc == 6 && (strcmp(Tcl_GetString(objv[4]), "-polyOrder") ||
                          hs_os_int(st, objv, 5, "-polyOrder", &s->poly_order)))
            return hs_os_fail(st, objv, "option '%s': expected -polyOrder p (1, 2 or 3)",
                              Tcl_GetString(objv[4]));
        if (s->poly_order < 1 || s->poly_order > 3)
            return hs_os_fail(st, objv, "-polyOrder %d: expected 1, 2 or 3", s->poly_order);
        s->alpha = 1.0;
        if (!(s->beta > 0.0 && s->gamma > 0.0))
            return hs_os_fail(st, objv, "gamma and beta must be > 0 (OpenSees' too)");
        st->an->integ_changed = 1;
        return settings_done(st, interp, objv);
    } else if (!strcmp(type, "HHT")) {
        s->integ = HS_OS_INT_NEWMARK;
        s->hht = 1;
        if (hs_os_num(st, objv, 2, "alpha", &s->alpha)) return TCL_ERROR;
        s->gamma = 1.5 - s->alpha; /* OpenSees' HHT defaults */
        s->beta = (2.0 - s->alpha) * (2.0 - s->alpha) / 4.0;
        if (objc == 5 && (hs_os_num(st, objv, 3, "gamma", &s->gamma) ||
                          hs_os_num(st, objv, 4, "beta", &s->beta)))
            return TCL_ERROR;
        if (objc != 3 && objc != 5)
            return hs_os_fail(st, objv, "expected 'integrator HHT alpha <gamma beta>'");
        st->an->integ_changed = 1;
        return settings_done(st, interp, objv);
    } else
        return hs_os_fail(st, objv,
                          "type '%s' is not supported by hysim (LoadControl, DisplacementControl, "
                          "HSConstraint, EQPath, Newmark, HHT, NewmarkExplicit, AlphaOS, "
                          "NewmarkHSFixedNumIter)",
                          type);
    s->jd = 1.0;
    s->incr_min = s->incr_max = s->incr;
    if (objc > first && hs_os_num(st, objv, first, "Jd", &s->jd)) return TCL_ERROR;
    if (objc > first + 1 && hs_os_num(st, objv, first + 1, "min", &s->incr_min)) return TCL_ERROR;
    if (objc > first + 2 && hs_os_num(st, objv, first + 2, "max", &s->incr_max)) return TCL_ERROR;
    st->an->integ_changed = 1;
    return settings_done(st, interp, objv);
}

/* The test and algorithm the script did not give: NormUnbalance 1e-6 25, Newton. */
static void default_test_algorithm(hs_os_settings *s)
{
    if (!s->has_test) {
        s->test = HS_OS_TEST_UNBALANCE;
        s->tol = 1e-6;
        s->max_iter = 25;
    }
    if (!s->has_alg) s->alg = HS_OS_ALG_NEWTON;
}

/* Newmark 0.5 0.25, the transient integrator OpenSees makes when the script gave none. */
static void default_newmark(hs_os_settings *s)
{
    s->integ = HS_OS_INT_NEWMARK;
    s->gamma = 0.5;
    s->beta = 0.25;
    s->alpha = 1.0;
    s->hht = 0;
}

void hs_os_analysis_for_eigen(hs_os_state *st)
{
    if (!st->live || !st->an || st->an->set.analysis) return;
    hs_os_settings *s = &st->an->set;
    s->analysis = 2;
    s->by_eigen = 1; /* the integrator: Newmark at analyze, unless one comes before */
    default_test_algorithm(s);
}

/* analysis Static | Transient: OpenSees' defaults for what the script did not set (NormUnbalance
 * 1e-6 25, Newton; LoadControl 1 or Newmark 0.5 0.25; OpenSeesCommands.cpp). */
static int cmd_analysis(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    hs_os_settings *s = &st->an->set;
    if (objc < 2) return hs_os_fail(st, objv, "expected 'analysis Static' or 'analysis Transient'");
    const char *type = Tcl_GetString(objv[1]);
    s->by_eigen = 0;
    if (!strcmp(type, "Static"))
        s->analysis = 1;
    else if (!strcmp(type, "Transient"))
        s->analysis = 2;
    else
        return hs_os_fail(st, objv, "type '%s' is not supported by hysim (Static, Transient)",
                          type);
    default_test_algorithm(s);
    const int dynamic = s->integ == HS_OS_INT_NEWMARK;
    if (s->analysis == 1 && (s->integ == HS_OS_INT_NONE || dynamic)) {
        if (dynamic)
            return hs_os_fail(st, objv,
                              "a static analysis with a transient integrator (give integrator "
                              "LoadControl or DisplacementControl first)");
        s->integ = HS_OS_INT_LOAD;
        s->incr = s->jd = s->incr_min = s->incr_max = 1.0;
        st->an->integ_changed = 1;
    }
    if (s->analysis == 2 && !dynamic) {
        if (s->integ != HS_OS_INT_NONE)
            return hs_os_fail(st, objv,
                              "a transient analysis with a static integrator (give integrator "
                              "Newmark or HHT first)");
        default_newmark(s);
    }
    return settings_done(st, interp, objv);
}

static int build(hs_os_state *st, Tcl_Obj *const objv[])
{
    hs_os_analysis *an = st->an;
    if (an->lv && (an->lv->nnodes != st->m->nnodes || an->lv->nels != st->m->nels))
        return hs_os_fail(st, objv,
                          "not yet supported by hysim: nodes or elements added after an analysis "
                          "(define the whole model before the first analyze)");
    if (!an->lv || an->rebuild) {
        const int rc = an->lv ? hs_os_live_rebuild(st, &an->lv) : hs_os_live_create(st, &an->lv);
        if (rc)
            return hs_os_fail(st, objv, "%s",
                              rc == HS_ENOMEM ? "out of memory" : hs_ctx_message(st->ctx));
    }
    const int rc = hs_os_live_refresh(st, an->lv);
    if (rc)
        return hs_os_fail(st, objv, "%s",
                          rc == HS_ENOMEM ? "out of memory" : hs_ctx_message(st->ctx));
    hs_os_live_initial_velocity(an->lv, st->m);
    int mrc = 0;
    if (an->modes_pending) { /* eigen before the first analyze: the same (initial) state */
        mrc = hs_os_live_modes(st->ctx, an->lv, an->eigen_count);
        an->modes_pending = 0;
        an->modal_dirty = 1;
    }
    if (!mrc && an->modal_dirty)
        mrc = hs_os_live_modal_damping(an->lv, &an->set, an->modal_zeta, an->nmodal, an->modal_q);
    if (mrc)
        return hs_os_fail(st, objv, "%s",
                          mrc == HS_ENOMEM ? "out of memory" : hs_ctx_message(st->ctx));
    an->modal_dirty = 0;
    if (an->integ_changed) {
        an->lv->incr_now = an->set.incr;
        an->lv->iters_last = 0;
        an->lv->phat_ready = 0;
        an->lv->dlambda = 0.0; /* a new integrator's step starts with none (HSConstraint's sign) */
        memset(an->lv->dUstep, 0, (size_t)an->lv->n * sizeof(double)); /* EQPath's sign */
        an->integ_changed = 0;
        /* AlphaOS::domainChanged: the predictor starts at the committed displacement;
         * NewmarkHSFixedNumIter::domainChanged: Ut and Utm1 too */
        memcpy(an->lv->Upt, an->lv->U, (size_t)an->lv->n * sizeof(double));
        memcpy(an->lv->Hst, an->lv->U, (size_t)an->lv->n * sizeof(double));
        memcpy(an->lv->Htm1, an->lv->U, (size_t)an->lv->n * sizeof(double));
    }
    return TCL_OK;
}

static int on_commit(void *user)
{
    return hs_os_record(user);
}

/* analyze numIncr <dt>: the result of OpenSees (0, or -3 when a step fails). */
static int cmd_analyze(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    hs_os_settings *s = &st->an->set;
    int steps;
    double dt = 0.0;
    if (objc < 2 || hs_os_int(st, objv, 1, "numIncr", &steps))
        return hs_os_fail(st, objv, "expected 'analyze numIncr <dt>'");
    if (objc > 2 && hs_os_num(st, objv, 2, "dt", &dt)) return TCL_ERROR;
    st->loads_applied = st->m->nloads;
    st->eleloads_applied = st->m->neleloads;
    if (!st->live) {
        hs_os_ignored_once(st, "analyze", TEST_FILE);
        st->pseudo_time += steps * (objc > 2 ? dt : st->pseudo_incr);
        return set_result_int(interp, 0);
    }
    if (!s->analysis)
        return hs_os_fail(st, objv,
                          "no analysis yet (give 'analysis Static' or 'analysis "
                          "Transient' first)");
    if (s->analysis == 2 && s->by_eigen && s->integ != HS_OS_INT_NEWMARK) default_newmark(s);
    if (s->analysis == 2 && !(dt > 0.0))
        return hs_os_fail(st, objv, "a transient analysis takes 'analyze numIncr dt' with dt > 0");
    if (build(st, objv) != TCL_OK) return TCL_ERROR;
    int result = 0;
    st->an->lv->unbalance_read = hs_os_recorders_read_unbalance(st->an);
    const int rc = hs_os_live_analyze(st->an->lv, s, steps, dt, on_commit, st, &result);
    if (rc)
        return hs_os_fail(st, objv, "%s",
                          rc == HS_ENOMEM ? "out of memory" : hs_ctx_message(st->ctx));
    return set_result_int(interp, result);
}

/* loadConst <-time t> */
static int cmd_load_const(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    double t = 0.0;
    int set_time = 0;
    if (objc == 3 && !strcmp(Tcl_GetString(objv[1]), "-time")) {
        if (hs_os_num(st, objv, 2, "-time", &t)) return TCL_ERROR;
        set_time = 1;
    } else if (objc != 1)
        return hs_os_fail(st, objv, "expected 'loadConst <-time t>'");
    if (!st->live) {
        if (set_time) st->pseudo_time = t;
        return settings_done(st, interp, objv);
    }
    hs_os_live_load_const(st->an->lv, st->m, set_time, t);
    Tcl_ResetResult(interp);
    return TCL_OK;
}

static int cmd_set_time(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    double t;
    if (objc != 2 || hs_os_num(st, objv, 1, "time", &t))
        return hs_os_fail(st, objv, "expected 'setTime t'");
    st->pseudo_time = t;
    if (st->an->lv) st->an->lv->time = st->an->lv->time_commit = t;
    Tcl_ResetResult(interp);
    return TCL_OK;
}

static int cmd_get_time(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    (void)objv;
    hs_os_state *st = STATE(cd);
    const double t = st->live ? (st->an->lv ? st->an->lv->time : 0.0) : st->pseudo_time;
    Tcl_SetObjResult(interp, Tcl_NewDoubleObj(t));
    return TCL_OK;
}

/* wipeAnalysis: the settings back to none (the model and its state stay). */
static int cmd_wipe_analysis(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    hs_os_state *st = STATE(cd);
    memset(&st->an->set, 0, sizeof st->an->set);
    /* OpenSees' AnalysisModel goes, with the eigenvalues: modal damping has no modes until the
     * next eigen (IncrementalIntegrator::addModalDampingForce resets numModes to 0) */
    st->an->eigen_count = 0;
    st->an->modes_pending = 0;
    if (st->an->lv) st->an->lv->nmodes = 0;
    st->an->modal_dirty = 1;
    return settings_done(st, interp, objv);
}

/* remove loadPattern tag | recorders: a pattern stops loading; the recorders close. */
static int cmd_remove(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    const char *what = objc > 1 ? Tcl_GetString(objv[1]) : "";
    int tag;
    if (!strcmp(what, "recorders")) {
        hs_os_recorders_close(st->an);
    } else if ((!strcmp(what, "loadPattern") || !strcmp(what, "pattern")) && objc == 3 &&
               hs_os_int(st, objv, 2, "tag", &tag) == TCL_OK) {
        for (int k = 0; k < st->m->nimposed; k++)
            if (st->m->imposed[k].pattern == tag)
                return hs_os_fail(st, objv,
                                  "pattern %d is a MultipleSupport (its imposedMotion at %s): "
                                  "removing its imposed motions is not yet supported by hysim",
                                  tag, st->m->imposed[k].where);
        for (int k = 0; k < st->m->npatterns; k++)
            if (st->m->patterns[k].tag == tag) {
                st->m->patterns[k].constant = 1;
                st->m->patterns[k].const_factor = 0.0;
                st->m->patterns[k].removed = 1;
            }
        if (st->an->lv) st->an->lv->phat_ready = 0;
    } else
        return hs_os_fail(st, objv,
                          "expected 'remove loadPattern tag' or 'remove recorders' (hysim removes "
                          "nothing else)");
    Tcl_ResetResult(interp);
    return TCL_OK;
}

static const struct {
    const char *name;
    Tcl_ObjCmdProc *fn;
} commands[] = {
    {"modalDamping", hs_os_cmd_modal_damping},
    {"modalDampingQ", hs_os_cmd_modal_damping},
    {"constraints", cmd_constraints},
    {"numberer", cmd_accepted},
    {"system", cmd_accepted},
    {"test", cmd_test},
    {"algorithm", cmd_algorithm},
    {"integrator", cmd_integrator},
    {"analysis", cmd_analysis},
    {"analyze", cmd_analyze},
    {"loadConst", cmd_load_const},
    {"setTime", cmd_set_time},
    {"getTime", cmd_get_time},
    {"wipeAnalysis", cmd_wipe_analysis},
    {"remove", cmd_remove},
};

int hs_os_analysis_commands(hs_os_state *st)
{
    st->an = hs_calloc(1, sizeof *st->an);
    if (!st->an) return HS_ENOMEM;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!Tcl_CreateObjCommand(st->interp, commands[i].name, commands[i].fn, st, NULL))
            return HS_ENOMEM;
    return 0;
}

void hs_os_analysis_end(hs_os_state *st)
{
    if (!st->an) return;
    hs_os_recorders_close(st->an);
    hs_os_live_destroy(&st->an->lv);
    hs_free(st->an->recs);
    hs_free(st->an->modal_zeta);
    hs_os_params_free(st->an);
    hs_free(st->an);
    st->an = NULL;
}

int hs_os_analysis_wipe(hs_os_state *st)
{
    hs_os_analysis_end(st);
    st->an = hs_calloc(1, sizeof *st->an);
    st->pseudo_time = 0.0;
    return st->an ? 0 : HS_ENOMEM;
}
