/* OpenFresco's signal filters in hysim's interpreter (docs/openfresco.md, "Signal filters"):
 * `expSignalFilter TYPE tag ...` and expControl's `-ctrlFilters (5 tags)` / `-daqFilters (5
 * tags)`, one tag per response type (disp vel accel force time; 0: none;
 * SRC/interpreter/ExpControlCommands.cpp). As OpenFresco, a control takes its own copy of each
 * filter when it is defined (ExperimentalControl::setCtrlFilter, getCopy), and an experimental
 * element on a LocalSite of that control takes the control's: SimUniaxialMaterials filters the
 * commands (disp, vel) its materials take and the strain and stress it measures (disp, force;
 * ECSimUniaxialMaterials::setTrialResponse, getDaqResponse); the other response types it has not,
 * so their tags change nothing there. The arithmetic is src/lab/signal_filter.c, its place in the
 * element src/fe/fe_link.c (hs_fe_link_def ctrl_filter, daq_filter).
 *
 * These commands wrap expControl, expElement and wipeExp of opensees_tcl_openfresco.c: the
 * filter options are taken out of expControl's words before it reads them, the filters reach the
 * element after expElement has built it. */
#include "opensees_tcl_openfresco.h"

#include <stdio.h>
#include <string.h>

/* A filter of the script: supported (f), or its type's name and why not. */
typedef struct of_filter {
    int tag;
    hs_signal_filter f;
    char type[32];
    const char *why; /* NULL: supported */
} of_filter;

/* A control's copies of its filters, by response type. */
typedef struct of_filtered_control {
    int control;
    int any;
    hs_signal_filter ctrl[HS_SF_RESPONSES], daq[HS_SF_RESPONSES];
    int ctrl_tag[HS_SF_RESPONSES], daq_tag[HS_SF_RESPONSES]; /* the filters' tags (seeds) */
} of_filtered_control;

typedef struct of_filters {
    hs_os_state *st;
    of_filter *filters;
    int nfilters;
    of_filtered_control *controls;
    int ncontrols;
    Tcl_ObjCmdProc *control_cmd, *element_cmd, *wipe_cmd; /* opensees_tcl_openfresco.c's */
} of_filters;

static void forget(of_filters *s)
{
    hs_free(s->filters);
    hs_free(s->controls);
    s->filters = NULL;
    s->controls = NULL;
    s->nfilters = s->ncontrols = 0;
}

static void delete_filters(ClientData cd, Tcl_Interp *interp)
{
    (void)interp;
    forget(cd);
    hs_free(cd);
}

static const of_filter *find_filter(const of_filters *s, int tag)
{
    for (int i = 0; i < s->nfilters; i++)
        if (s->filters[i].tag == tag) return &s->filters[i];
    return NULL;
}

/* The error types OpenFresco defines that hysim does not follow, and why. */
static const struct {
    const char *type, *why;
} unsupported[] = {
    {"ErrorSimTimeDelay",
     "OpenFresco 2.8's ESFErrorSimTimeDelay::filtering is the undershoot's code on a member "
     "'undershoot' the class does not have (ESFErrorSimTimeDelay.cpp does not compile), so it "
     "defines no delay to follow; a delayed actuator is hysim's virtual laboratory's (a site "
     "with an actuator model, docs/lab_backends.md)"},
    {"ForceBroyden", "a force converter of force control (OpenFresco's ESFForceBroyden), not an "
                     "error of a displacement-controlled laboratory"},
    {"KrylovForceConverter", "a force converter of force control, not an error of a "
                             "displacement-controlled laboratory"},
    {"TangForceConverter", "a force converter of force control, not an error of a "
                           "displacement-controlled laboratory"},
};

/* expSignalFilter ErrorSimUndershoot tag error | ErrorSimRandomGauss tag avg std | TYPE tag ... */
static int cmd_signal_filter(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    of_filters *s = cd;
    hs_os_state *st = s->st;
    if (objc < 3)
        return hs_os_fail(st, objv,
                          "expected 'expSignalFilter ErrorSimUndershoot tag error' or "
                          "'expSignalFilter ErrorSimRandomGauss tag avg std'");
    const char *type = Tcl_GetString(objv[1]);
    of_filter f = {0};
    if (hs_os_int(st, objv, 2, "tag", &f.tag)) return TCL_ERROR;
    snprintf(f.type, sizeof f.type, "%s", type);
    if (!strcmp(type, "ErrorSimUndershoot")) {
        double e;
        if (objc != 4)
            return hs_os_fail(st, objv, "expected 'expSignalFilter ErrorSimUndershoot tag error'");
        if (hs_os_num(st, objv, 3, "error", &e)) return TCL_ERROR;
        hs_signal_filter_undershoot(&f.f, e);
    } else if (!strcmp(type, "ErrorSimRandomGauss")) {
        double mean, sigma;
        if (objc != 5)
            return hs_os_fail(st, objv,
                              "expected 'expSignalFilter ErrorSimRandomGauss tag avg std'");
        if (hs_os_num(st, objv, 3, "avg", &mean) || hs_os_num(st, objv, 4, "std", &sigma))
            return TCL_ERROR;
        if (!(sigma >= 0.0))
            return hs_os_fail(st, objv, "std %g: a standard deviation is >= 0", sigma);
        hs_signal_filter_random_gauss(&f.f, mean, sigma, 0, 0); /* seeded per element below */
    } else {
        f.why = "not an error type OpenFresco defines (it has ErrorSimUndershoot, "
                "ErrorSimRandomGauss)";
        for (size_t k = 0; k < sizeof unsupported / sizeof unsupported[0]; k++)
            if (!strcmp(type, unsupported[k].type)) f.why = unsupported[k].why;
    }
    if (find_filter(s, f.tag)) return hs_os_fail(st, objv, "filter %d is already defined", f.tag);
    of_filter *slot = hs_os_push((void **)&s->filters, &s->nfilters, sizeof *slot);
    if (!slot) return hs_os_fail(st, objv, "out of memory");
    *slot = f;
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/* Reads -ctrlFilters / -daqFilters at objv[i] (5 tags) into c; TCL_ERROR after the message. */
static int filter_option(of_filters *s, Tcl_Obj *const objv[], int objc, int i, int daq,
                         of_filtered_control *c)
{
    hs_os_state *st = s->st;
    static const char *const RESP[HS_SF_RESPONSES] = {"disp", "vel", "accel", "force", "time"};
    if (i + HS_SF_RESPONSES >= objc)
        return hs_os_fail(st, objv,
                          "%s: expected 5 filter tags (disp vel accel force time; 0: none)",
                          Tcl_GetString(objv[i]));
    for (int r = 0; r < HS_SF_RESPONSES; r++) {
        int tag;
        if (hs_os_int(st, objv, i + 1 + r, Tcl_GetString(objv[i]), &tag)) return TCL_ERROR;
        if (tag <= 0) continue;
        const of_filter *f = find_filter(s, tag);
        if (!f)
            return hs_os_fail(st, objv, "%s: no expSignalFilter %d (define it first)",
                              Tcl_GetString(objv[i]), tag);
        if (f->why)
            return hs_os_fail(st, objv, "%s: filter %d (%s, on %s): not supported by hysim: %s",
                              Tcl_GetString(objv[i]), tag, f->type, RESP[r], f->why);
        (daq ? c->daq : c->ctrl)[r] = f->f; /* the control's copy (getCopy) */
        (daq ? c->daq_tag : c->ctrl_tag)[r] = tag;
        c->any = 1;
    }
    return TCL_OK;
}

/* expControl TYPE tag ... <-ctrlFilters (5 tags)> <-daqFilters (5 tags)>: the filter options
 * taken out, the rest read by opensees_tcl_openfresco.c. */
static int cmd_control(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    of_filters *s = cd;
    of_filtered_control c = {0};
    Tcl_Obj *w[256];
    int n = 0;
    if (objc > (int)(sizeof w / sizeof w[0]))
        return hs_os_fail(s->st, objv, "too many words (at most %d)",
                          (int)(sizeof w / sizeof w[0]));
    for (int i = 0; i < objc; i++) {
        const char *o = Tcl_GetString(objv[i]);
        const int ctrl = !strcmp(o, "-ctrlFilters") || !strcmp(o, "-ctrlFilter");
        const int daq = !strcmp(o, "-daqFilters") || !strcmp(o, "-daqFilter");
        if (i >= 3 && (ctrl || daq)) {
            if (filter_option(s, objv, objc, i, daq, &c)) return TCL_ERROR;
            i += HS_SF_RESPONSES;
            continue;
        }
        w[n++] = objv[i];
    }
    const int rc = s->control_cmd(s->st, interp, n, w);
    if (rc != TCL_OK || !c.any) return rc;
    if (hs_os_int(s->st, objv, 2, "tag", &c.control)) return TCL_ERROR;
    of_filtered_control *slot = hs_os_push((void **)&s->controls, &s->ncontrols, sizeof *slot);
    if (!slot) return hs_os_fail(s->st, objv, "out of memory");
    *slot = c;
    return TCL_OK;
}

/* The filters of the control behind site `site` (NULL: none). */
static const of_filtered_control *site_filters(const of_filters *s, int site)
{
    const struct hs_os_fresco *f = s->st->fresco;
    for (int i = 0; f && i < f->nsites; i++) {
        if (f->sites[i].tag != site) continue;
        const hs_of_setup *su = hs_of_find_setup(f, f->sites[i].setup);
        for (int k = 0; su && k < s->ncontrols; k++)
            if (s->controls[k].control == su->control) return &s->controls[k];
    }
    return NULL;
}

/* expElement ...: built by opensees_tcl_openfresco.c, then given its control's filters; a
 * random Gauss filter is seeded with (its tag, the element's tag and the filter's place), so
 * that a run repeats itself (OpenFresco seeds with the clock). */
static int cmd_element(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    of_filters *s = cd;
    hs_os_state *st = s->st;
    const int rc = s->element_cmd(st, interp, objc, objv);
    int tag;
    if (rc != TCL_OK || !s->ncontrols || objc < 3 ||
        Tcl_GetIntFromObj(NULL, objv[2], &tag) != TCL_OK)
        return rc;
    hs_os_element *e = hs_os_find_element(st->m, tag);
    const of_filtered_control *c = e && e->exp_site ? site_filters(s, e->exp_site) : NULL;
    if (!c) return rc;
    if (e->exp_has_geom || e->exp_beam || e->exp_pieces > 1)
        return hs_os_fail(st, objv,
                          "control %d has signal filters: hysim filters the signals of an "
                          "element whose setup has no actuator geometry (OneActuator, "
                          "NoTransformation, or an Aggregator of those) and that is not a "
                          "beamColumn with -initStif",
                          c->control);
    for (int r = 0; r < HS_SF_RESPONSES; r++) {
        e->exp_ctrl_filter[r] = c->ctrl[r];
        e->exp_daq_filter[r] = c->daq[r];
        if (c->ctrl[r].type == HS_SF_RANDOM_GAUSS)
            hs_rng_seed(&e->exp_ctrl_filter[r].rng, (uint64_t)c->ctrl_tag[r],
                        (uint64_t)tag * 16u + (uint64_t)r);
        if (c->daq[r].type == HS_SF_RANDOM_GAUSS)
            hs_rng_seed(&e->exp_daq_filter[r].rng, (uint64_t)c->daq_tag[r],
                        (uint64_t)tag * 16u + 8u + (uint64_t)r);
    }
    return rc;
}

/* wipeExp: the filters are forgotten with the controls. */
static int cmd_wipe(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    of_filters *s = cd;
    forget(s);
    return s->wipe_cmd(s->st, interp, objc, objv);
}

int hs_of_expfilter_commands(hs_os_state *st)
{
    Tcl_CmdInfo control, element, wipe;
    if (!Tcl_GetCommandInfo(st->interp, "expControl", &control) ||
        !Tcl_GetCommandInfo(st->interp, "expElement", &element) ||
        !Tcl_GetCommandInfo(st->interp, "wipeExp", &wipe))
        return HS_EINVAL; /* hs_os_openfresco_commands first */
    of_filters *s = hs_calloc(1, sizeof *s);
    if (!s) return HS_ENOMEM;
    s->st = st;
    s->control_cmd = control.objProc;
    s->element_cmd = element.objProc;
    s->wipe_cmd = wipe.objProc;
    Tcl_SetAssocData(st->interp, "hysim expSignalFilter", delete_filters, s);
    if (!Tcl_CreateObjCommand(st->interp, "expSignalFilter", cmd_signal_filter, s, NULL) ||
        !Tcl_CreateObjCommand(st->interp, "expControl", cmd_control, s, NULL) ||
        !Tcl_CreateObjCommand(st->interp, "expElement", cmd_element, s, NULL) ||
        !Tcl_CreateObjCommand(st->interp, "wipeExp", cmd_wipe, s, NULL))
        return HS_ENOMEM;
    return 0;
}
