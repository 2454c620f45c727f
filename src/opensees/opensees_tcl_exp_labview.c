/* `expControl LabVIEW tag ipAddr ipPort -trialCP cpTag -outCP cpTag` (OpenFresco's ECLabVIEW,
 * SRC/experimentalControl/ECLabVIEW.cpp, read for facts) on hysim's nees:// client
 * (src/net/site_nees.c, docs/nees.md), behind the LocalSite's setup as SimFEAdapter is
 * (opensees_tcl_exp_remote.c). What ECLabVIEW does, and what hysim keeps of it:
 *  - control(): `propose <tid> MDL-00-01` then per trial signal j a triplet: the geometry x, y, z
 *    of its 0-based DOF d (d % 3), `displacement` when d < the node's ndm else `rotation`, and
 *    fact(j) times the setup's actuator displacement j (%.10E); a force signal sends `force` or
 *    `moment` (hysim's NEES lab declines them: refused here), other response types stop it
 *    ("requested response type is not supported"), as does a DOF beyond 6;
 *  - the trial point's -lim are checked on the factored command: beyond them ECLabVIEW asks its
 *    operator (Enter: go on, s: saturate, c: cancel); hysim never prompts: it stops the test
 *    with the command, the limits and the step (hs_of_labview_check), before sending it;
 *  - acquire(): `get-control-point <tid> MDL-00-01` once per output point, every one named
 *    MDL-00-01, and each reply's triplets matched to the output point's signals by DOF:
 *    daqDisp = fact * displacement, daqForce = fact * force; the output point's -lim are not
 *    read. hysim's client reads the reply by its labels the same way;
 *  - a second trial point goes out as `control-point CPNode<NN>` but every output point is read
 *    from MDL-00-01: refused here (one -trialCP, one -outCP), with that reason;
 *  - setup() asks Enter twice and moves to zero first; commitState() sends nothing: hysim's
 *    client asks nothing and moves to zero with nothing (the first trial is the first move),
 *    and opens the session (open-session, set-parameter nstep) at the element's first trial,
 *    not at the expControl line. */
#include "opensees_tcl_openfresco.h"

#include <stdio.h>
#include <string.h>

static const char *rsp_name(int rsp)
{
    return rsp == HS_OF_CP_VEL     ? "velocity"
           : rsp == HS_OF_CP_ACCEL ? "acceleration"
           : rsp == HS_OF_CP_FORCE ? "force"
           : rsp == HS_OF_CP_TIME  ? "time"
                                   : "displacement";
}

/* One control point tag after `opt` at objv[*i] (moved past it). */
static const hs_of_cp *one_point(hs_os_state *st, Tcl_Obj *const objv[], int objc, int *i,
                                 const char *opt)
{
    if (*i >= objc || strcmp(Tcl_GetString(objv[*i]), opt))
        return hs_os_fail(st, objv, "expected %s cpTag", opt), NULL;
    int tag, n = 0;
    for (int k = *i + 1; k < objc && Tcl_GetString(objv[k])[0] != '-'; k++) n++;
    if (n != 1) {
        if (n) /* ECLabVIEW.cpp control() and acquire() */
            hs_os_fail(st, objv,
                       "%s: %d control points: ECLabVIEW names its first trial point MDL-00-01 "
                       "and asks get-control-point MDL-00-01 for every output point, so a "
                       "second point's values could not be told apart; give one %s point with "
                       "all its DOFs (up to 6)",
                       opt, n, opt);
        else
            hs_os_fail(st, objv, "%s: expected a control point tag", opt);
        return NULL;
    }
    if (hs_os_int(st, objv, *i + 1, opt, &tag)) return NULL;
    *i += 2;
    const hs_of_cp *cp = hs_of_find_cp(st->fresco, tag);
    if (!cp) hs_os_fail(st, objv, "%s %d: no expControlPoint %d (define it first)", opt, tag, tag);
    return cp;
}

/* The output point's signals of kind rsp, in order, must be the trial DOFs in order. */
static int out_signals(hs_os_state *st, Tcl_Obj *const objv[], const hs_of_cp *out, int rsp,
                       hs_of_labview *lv, double *fact)
{
    int m = 0;
    for (int j = 0; j < out->n; j++) {
        if (out->s[j].rsp != rsp) continue;
        if (m < lv->n && out->s[j].dof != lv->dof[m])
            return hs_os_fail(st, objv,
                              "-outCP %d: its %s signal %d is DOF %d, the trial's signal %d is "
                              "DOF %d: hysim's NEES client measures each commanded DOF's "
                              "displacement and force, in the trial point's order",
                              out->tag, rsp_name(rsp), m + 1, out->s[j].dof, m + 1, lv->dof[m]);
        if (m < lv->n) fact[m] = out->s[j].fact;
        m++;
    }
    if (m != lv->n)
        return hs_os_fail(st, objv,
                          "-outCP %d: %d %s signals for %d trial DOFs: hysim's NEES client "
                          "measures a displacement and a force for each commanded DOF (list "
                          "both, in the trial point's order)",
                          out->tag, m, rsp_name(rsp), lv->n);
    return TCL_OK;
}

int hs_of_labview_map(hs_os_state *st, Tcl_Obj *const objv[], int objc, int i, hs_of_labview *lv)
{
    memset(lv, 0, sizeof *lv);
    const hs_of_cp *trial = one_point(st, objv, objc, &i, "-trialCP");
    const hs_of_cp *out = trial ? one_point(st, objv, objc, &i, "-outCP") : NULL;
    if (!out) return TCL_ERROR;
    if (i < objc)
        return hs_os_fail(st, objv,
                          "option '%s': expControl LabVIEW takes -trialCP cpTag -outCP cpTag "
                          "(ECLabVIEW.cpp reads nothing else; signal filters go with "
                          "-ctrlFilters / -daqFilters)",
                          Tcl_GetString(objv[i]));
    if (trial->node <= 0 || !hs_os_find_node(st->m, trial->node))
        return hs_os_fail(st, objv,
                          "-trialCP %d: expected -node nodeTag of a defined node (ECLabVIEW "
                          "reads the node's ndm to tell displacements from rotations)",
                          trial->tag);
    if (trial->n > HS_OF_MAX_MATS)
        return hs_os_fail(st, objv, "-trialCP %d: %d signals, at most %d (one NEES point)",
                          trial->tag, trial->n, HS_OF_MAX_MATS);
    hs_nees_config_default(&lv->nees, trial->n);
    lv->nees.given = 1;
    lv->n = trial->n;
    lv->cp_trial = trial->tag;
    lv->cp_out = out->tag;
    lv->node = trial->node;
    for (int k = 0; k < trial->n; k++) {
        const hs_of_signal *s = &trial->s[k];
        if (s->rsp != HS_OF_CP_DISP)
            return hs_os_fail(st, objv,
                              "-trialCP %d: signal %d (DOF %d) is a %s: hysim's NEES client "
                              "commands displacements and rotations (%s)",
                              trial->tag, k + 1, s->dof, rsp_name(s->rsp),
                              s->rsp == HS_OF_CP_FORCE
                                  ? "a NEES lab's force targets are declined, docs/nees.md"
                                  : "ECLabVIEW stops on it too: requested response type is "
                                    "not supported");
        if (s->relative)
            return hs_os_fail(st, objv,
                              "-trialCP %d: relative signals (-relTrial ...) are not yet in "
                              "hysim",
                              trial->tag);
        if (s->dof > 6)
            return hs_os_fail(st, objv,
                              "-trialCP %d: DOF %d: a NEES control point has DOFs 1 to 6 (x, y, "
                              "z; ECLabVIEW: requested dof is not supported)",
                              trial->tag, s->dof);
        const int d = s->dof - 1;
        const int nees = (d < st->m->ndm ? HS_NEES_DX : HS_NEES_RX) + d % 3;
        for (int j = 0; j < k; j++)
            if (lv->nees.act_dof[j] == nees)
                return hs_os_fail(st, objv,
                                  "-trialCP %d: DOFs %d and %d are both '%s %s' on the wire "
                                  "(ndm %d): a NEES lab declines a DOF given twice",
                                  trial->tag, lv->dof[j], s->dof, hs_nees_geom(nees),
                                  hs_nees_kin(nees), st->m->ndm);
        lv->dof[k] = s->dof;
        lv->nees.act_dof[k] = nees;
        lv->fact_trial[k] = s->fact;
        lv->has_lim[k] = s->has_lim;
        lv->lo[k] = s->lo;
        lv->hi[k] = s->hi;
    }
    for (int j = 0; j < out->n; j++)
        if (out->s[j].relative ||
            (out->s[j].rsp != HS_OF_CP_DISP && out->s[j].rsp != HS_OF_CP_FORCE))
            return hs_os_fail(st, objv,
                              "-outCP %d: signal %d (DOF %d): %s; hysim's NEES client measures "
                              "displacements and forces",
                              out->tag, j + 1, out->s[j].dof,
                              out->s[j].relative ? "relative signals are not yet in hysim"
                                                 : rsp_name(out->s[j].rsp));
    if (out_signals(st, objv, out, HS_OF_CP_DISP, lv, lv->fact_disp) ||
        out_signals(st, objv, out, HS_OF_CP_FORCE, lv, lv->fact_force))
        return TCL_ERROR;
    return TCL_OK;
}

int hs_of_labview_check(hs_ctx *ctx, const hs_of_labview *lv, const char *where, int tag,
                        long long step, int k, double cmd)
{
    if (!lv->has_lim[k] || (cmd >= lv->lo[k] && cmd <= lv->hi[k])) return 0;
    const int d = lv->nees.act_dof[k];
    return hs_fail(ctx, HS_ELIMIT,
                   "%s: expControl LabVIEW %d: trial %lld: the command %.10E of control point %d "
                   "signal %d (node %d DOF %d, %s %s on the wire) is beyond its -lim %g %g; "
                   "ECLabVIEW would ask its operator to go on, saturate or cancel: hysim stops "
                   "the test before sending it (widen -lim, or scale the record down)",
                   where, tag, step + 1, cmd, lv->cp_trial, k + 1, lv->node, lv->dof[k],
                   hs_nees_geom(d), hs_nees_kin(d), lv->lo[k], lv->hi[k]);
}
