/* OpenFresco's networked sites and laboratory controls in a script's own analysis
 * (docs/openfresco.md, "Networked sites in scripts"), each a hysim remote site, the client that
 * a test file's site of that URL gets (src/net/site_openfresco.c):
 *  - `expSite ShadowSite tag <-setup setupTag> ipAddr ipPort <-noDelay> <-dataSize size>` (also
 *    spelled RemoteSite: OpenFresco 2.8's ExpSiteCommands.cpp maps both names to
 *    OPF_ShadowExpSite): openfresco-b://ipAddr:ipPort; the element's basic values go as they are
 *    (ShadowExpSite.cpp without a setup: the server's setup transforms them, ActorExpSite.cpp),
 *    or with -setup (a setup without actuator geometry) the actuators' displacements and
 *    velocities with its factors, for a server whose ActorSite drives its control directly;
 *  - `expControl SimFEAdapter tag ipAddr ipPort -trialCP .. -outCP ..` (ECSimFEAdapter.cpp):
 *    opensees-adapter://ipAddr:ipPort, and `expControl GenericTCP tag ipAddr ipPort -ctrlModes ..
 *    -daqModes ..` (ECGenericTCP.cpp): openfresco-a://ipAddr:ipPort, and `expControl LabVIEW
 *    tag ipAddr ipPort -trialCP cpTag -outCP cpTag` (ECLabVIEW.cpp): nees://ipAddr:ipPort with
 *    the point's DOFs, factors and limits (opensees_tcl_exp_labview.c), each behind the
 *    LocalSite's setup, which scales the command and the force on the client side.
 *
 * The experimental element is the element a LocalSite would give (the same parsers,
 * opensees_tcl_openfresco.c), whose forces come from the site: each trial state of the element
 * sends its driven basic deformations and takes back the measured forces, each commit of the
 * analysis commits the site (where the protocol has a commit), the end of the script (wipeExp,
 * exit) closes it (99). Its tangent and initial stiffness are its -initStif, as OpenFresco's
 * elements answer (EETwoNodeLink.cpp getTangentStiff "Return InitialStiff"); an element on a
 * networked site without -initStif, or with -tangStif (OpenFresco's estimators: not in hysim),
 * is refused at the first analyze. The connection opens at the element's first trial state (an
 * eigen analysis before it asks the -initStif only) and stays open across `analyze` commands.
 *
 * One element per site or control: a ShadowSite carries one element's vectors (OpenFresco's
 * elements each call setTrialResponse on their site). The element's specimen is a stand-in
 * elastic material of zero stiffness at tag 2147483646, so that the element's parser has its
 * -mat list; it is never driven (the frame model's link takes the site's forces instead,
 * hs_fe_link_set_specimen), and a test file's own analysis, which could not drive it, refuses
 * the element (hs_os_networked_element). */
#include "opensees_tcl_openfresco.h"

#include "hysim/site.h"

#include <stdio.h>
#include <string.h>

#define STAND_IN_TAG 2147483646 /* the elements' stand-in material (the file's header) */

struct hs_of_remote {
    int tag;            /* the ShadowSite's, or the control's (is_control) */
    int is_control;     /* expControl SimFEAdapter ... (used through a LocalSite's setup) */
    int sized_by_setup; /* GenericTCP: its channels are its LocalSite's setup's actuators */
    char where[HS_OS_WHERE];
    char url[256];
    int element;                      /* the element on it (0: none yet) */
    int n;                            /* the channels: the element's driven basic DOFs */
    double scale[HS_SITE_MAX_ACT][3]; /* per channel: the setup's displacement, velocity and
                                       * force factors (1: none) */
    hs_of_setup pass;  /* a ShadowSite: no transformation, basic DOF k on channel k */
    int client_setup;  /* a ShadowSite -setup: its setup's tag (its actuators are the channels) */
    hs_of_labview *lv; /* expControl LabVIEW: its point's mapping (opensees_tcl_exp_labview.c) */
    hs_site *site;     /* opened at the first trial */
    int64_t step;
    double x[HS_SITE_MAX_ACT], f[HS_SITE_MAX_ACT]; /* the last measurement */
};

static hs_of_remote *find_remote(const struct hs_os_fresco *f, int tag, int is_control)
{
    for (int i = 0; f && i < f->nremotes; i++)
        if (f->remotes[i]->tag == tag && f->remotes[i]->is_control == is_control)
            return f->remotes[i];
    return NULL;
}

int hs_of_is_remote(hs_os_state *st, int site)
{
    return st->fresco && find_remote(st->fresco, site, 0) != NULL;
}

/* The networked site or control of element e (its index in *id), or NULL: a ShadowSite, or a
 * LocalSite whose setup's control is a laboratory's. */
static hs_of_remote *remote_of(const struct hs_os_fresco *f, const hs_os_element *e, int *id)
{
    if (!f || !e || !e->exp_site) return NULL;
    hs_of_remote *r = find_remote(f, e->exp_site, 0);
    for (int k = 0; !r && k < f->nsites; k++)
        if (f->sites[k].tag == e->exp_site) {
            const hs_of_setup *su = hs_of_find_setup(f, f->sites[k].setup);
            r = su ? find_remote(f, su->control, 1) : NULL;
        }
    for (int i = 0; r && id && i < f->nremotes; i++)
        if (f->remotes[i] == r) *id = i;
    return r;
}

void hs_of_remote_free(struct hs_os_fresco *f)
{
    for (int i = 0; i < f->nremotes; i++) {
        hs_site_destroy(&f->remotes[i]->site); /* 99: the server ends its test */
        hs_free(f->remotes[i]->lv);
        hs_free(f->remotes[i]);
    }
    hs_free(f->remotes);
    f->remotes = NULL;
    f->nremotes = 0;
    hs_free(f->cps); /* the control points (opensees_tcl_exp_cp.c) */
    f->cps = NULL;
    f->ncps = 0;
}

/* A new networked site or control at SCHEME://host:port (NULL after raising the error). */
static hs_of_remote *new_remote(hs_os_state *st, Tcl_Obj *const objv[], int tag, int is_control,
                                const char *scheme, const char *host, int port)
{
    struct hs_os_fresco *f = hs_of_state(st);
    hs_of_remote *r = f ? hs_calloc(1, sizeof *r) : NULL;
    hs_of_remote **slot = r ? hs_os_push((void **)&f->remotes, &f->nremotes, sizeof *slot) : NULL;
    if (!slot) return hs_free(r), hs_os_fail(st, objv, "out of memory"), NULL;
    *slot = r;
    r->tag = tag;
    r->is_control = is_control;
    for (int k = 0; k < HS_SITE_MAX_ACT; k++)
        r->scale[k][0] = r->scale[k][1] = r->scale[k][2] = 1.0;
    hs_os_where(st, r->where, sizeof r->where);
    snprintf(r->url, sizeof r->url, strchr(host, ':') ? "%s://[%s]:%d" : "%s://%s:%d", scheme, host,
             port);
    return r;
}

/* ipAddr and ipPort at objv[i], objv[i + 1] (checked). */
static int address(hs_os_state *st, Tcl_Obj *const objv[], int objc, int i, const char **host,
                   int *port)
{
    *host = i < objc ? Tcl_GetString(objv[i]) : "";
    if (!(*host)[0] || strlen(*host) > 190 || strpbrk(*host, " /[]"))
        return hs_os_fail(st, objv, "ipAddr '%s': expected a host name or an IP address", *host);
    if (i + 1 >= objc) return hs_os_fail(st, objv, "expected ipPort after ipAddr");
    if (hs_os_int(st, objv, i + 1, "ipPort", port)) return TCL_ERROR;
    if (*port < 1 || *port > 65535)
        return hs_os_fail(st, objv, "ipPort %d: expected 1 to 65535", *port);
    return TCL_OK;
}

/* The channel options OpenFresco's sites and controls share (-ssl, -udp, -noDelay, -dataSize
 * size) from objv[i]: TCL_OK, or the error for the first that hysim cannot give. */
static int channel_options(hs_os_state *st, Tcl_Obj *const objv[], int objc, int i,
                           const char *type)
{
    for (; i < objc; i++) {
        const char *o = Tcl_GetString(objv[i]);
        int size;
        if (!strcmp(o, "-ssl"))
            return hs_os_fail(st, objv,
                              "-ssl: OpenFresco's SSL channel (TCP_SocketSSL) is not in hysim: "
                              "its clients speak plain TCP; reach the server over a trusted "
                              "network or a tunnel (ssh -L), and drop -ssl");
        if (!strcmp(o, "-udp"))
            return hs_os_fail(st, objv,
                              "-udp: OpenFresco's UDP channel (UDP_Socket) is not in hysim: its "
                              "clients speak TCP; drop -udp (and the server's -udp)");
        if (!strcmp(o, "-noDelay")) continue; /* hysim's clients always set TCP_NODELAY */
        if (strcmp(o, "-dataSize"))
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (%s knows -noDelay and "
                              "-dataSize)",
                              o, type);
        if (i + 1 >= objc || hs_os_int(st, objv, ++i, "-dataSize", &size)) return TCL_ERROR;
        if (size < 1) return hs_os_fail(st, objv, "-dataSize %d: expected a positive size", size);
        /* hysim sends the smallest dataSize that fits in its first message (the sizes, or
         * protocol B's setup), from which the server sizes its messages (PROTOCOL.md) */
    }
    return TCL_OK;
}

/* expSite ShadowSite|RemoteSite tag <-setup setupTag> ipAddr ipPort <-ssl> <-udp> <-noDelay>
 * <-dataSize size> (ShadowExpSite.cpp OPF_ShadowExpSite: 3 to 7 words after the type) */
int hs_of_exp_remote_site(hs_os_state *st, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    const char *type = Tcl_GetString(objv[1]);
    if (objc < 5 || objc > 9)
        return hs_os_fail(st, objv,
                          "expected 'expSite %s tag <-setup setupTag> ipAddr ipPort <-noDelay> "
                          "<-dataSize size>'",
                          type);
    int tag, port;
    const char *host;
    if (hs_os_int(st, objv, 2, "tag", &tag)) return TCL_ERROR;
    int setup = 0, i = 3;
    if (!strcmp(Tcl_GetString(objv[3]), "-setup")) { /* the setup on the client side */
        if (hs_os_int(st, objv, 4, "-setup", &setup)) return TCL_ERROR;
        const hs_of_setup *su = hs_of_find_setup(hs_of_state(st), setup);
        if (!su) return hs_os_fail(st, objv, "-setup: no expSetup %d (define it first)", setup);
        if (su->has_geom || su->nsub || su->nact > HS_SITE_MAX_ACT)
            return hs_os_fail(st, objv,
                              "-setup %d (%s): hysim's ShadowSite transforms on the client side "
                              "through setups without actuator geometry (OneActuator, "
                              "NoTransformation, their Aggregator), at most %d actuators; give "
                              "this one to the server (ActorSite -setup) and 'expSite %s %d "
                              "ipAddr ipPort' here",
                              setup, su->type, HS_SITE_MAX_ACT, type, tag);
        i = 5;
    }
    if (address(st, objv, objc, i, &host, &port) || channel_options(st, objv, objc, i + 2, type))
        return TCL_ERROR;
    struct hs_os_fresco *f = hs_of_state(st);
    if (!f) return hs_os_fail(st, objv, "out of memory");
    int taken = find_remote(f, tag, 0) != NULL;
    for (int k = 0; k < f->nsites; k++) taken |= f->sites[k].tag == tag;
    if (taken) return hs_os_fail(st, objv, "site %d is already defined", tag);
    hs_of_remote *r = new_remote(st, objv, tag, 0, "openfresco-b", host, port);
    if (!r) return TCL_ERROR;
    r->client_setup = setup;
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/* The elements' stand-in material (see the file's header): its tag, 0 on error. */
static int stand_in(hs_os_state *st, Tcl_Obj *const objv[])
{
    const hs_os_material *have = hs_os_find_material(st->m, STAND_IN_TAG);
    if (have) return have->type && !strcmp(have->type, "elastic") ? STAND_IN_TAG : 0;
    hs_os_material *m = hs_os_push((void **)&st->m->mats, &st->m->nmats, sizeof *m);
    if (!m) return hs_os_fail(st, objv, "out of memory"), 0;
    memset(m, 0, sizeof *m);
    m->tag = STAND_IN_TAG;
    m->type = "elastic";
    if (hs_options_create(&m->opts) || hs_options_set_num(m->opts, "k", 0.0)) {
        hs_options_destroy(&m->opts);
        st->m->nmats--;
        return hs_os_fail(st, objv, "out of memory"), 0;
    }
    hs_os_where(st, m->where, sizeof m->where);
    return STAND_IN_TAG;
}

/* The signals of the control points `list` (tags from objv[*i] up to the next option) of kind
 * rsp (-1: any), counted into *n; refuses kinds other than those allowed (bit 1 << rsp). */
static int cp_signals(hs_os_state *st, Tcl_Obj *const objv[], int objc, int *i, const char *opt,
                      int allowed, int count_rsp, int *n)
{
    int tags = 0;
    for (; *i < objc && Tcl_GetString(objv[*i])[0] != '-'; (*i)++, tags++) {
        int tag;
        if (hs_os_int(st, objv, *i, opt, &tag)) return TCL_ERROR;
        const hs_of_cp *cp = hs_of_find_cp(st->fresco, tag);
        if (!cp)
            return hs_os_fail(st, objv, "%s %d: no expControlPoint %d (define it first)", opt, tag,
                              tag);
        for (int k = 0; k < cp->n; k++) {
            if (!(allowed & (1 << cp->s[k].rsp)))
                return hs_os_fail(st, objv,
                                  "%s %d: signal %d (DOF %d) is a %s; hysim's remote controls "
                                  "command displacements and measure displacements and forces",
                                  opt, tag, k + 1, cp->s[k].dof,
                                  cp->s[k].rsp == HS_OF_CP_VEL     ? "velocity"
                                  : cp->s[k].rsp == HS_OF_CP_ACCEL ? "acceleration"
                                  : cp->s[k].rsp == HS_OF_CP_FORCE ? "force"
                                  : cp->s[k].rsp == HS_OF_CP_TIME  ? "time"
                                                                   : "displacement");
            if (cp->s[k].relative)
                return hs_os_fail(st, objv,
                                  "%s %d: relative signals (-relTrial ...) are not yet in hysim",
                                  opt, tag);
            *n += cp->s[k].rsp == count_rsp;
        }
    }
    if (!tags) return hs_os_fail(st, objv, "%s: expected control point tags", opt);
    return TCL_OK;
}

/* expControl GenericTCP tag ipAddr ipPort -ctrlModes (5 modes) -daqModes (5 modes) <-initFile f>
 * <-ssl> <-udp> (ECGenericTCP.cpp: a laboratory controller that is a protocol A server: the
 * sizes, then 3 setTrialResponse and 6 getDaqResponse per trial, 99 at the end; its modes
 * switch disp, vel, accel, force, time on or off, each sized by the setup): hysim's
 * openfresco-a:// client, which commands displacements (and the time) and measures
 * displacements and forces, so the modes must be 1 0 0 0 0|1 and 1 0 0 1 0. Its channels are
 * the actuators of the setup that names it (set when its LocalSite's element is defined).
 * Differences from ECGenericTCP, said in docs/openfresco.md: no console prompts and no trial at
 * zero before the test (ECGenericTCP::setup asks Enter and shows the first daq values), and a
 * commit (5) with each step, which ECGenericTCP::commitState does not send. */
static int generic_tcp(hs_os_state *st, Tcl_Obj *const objv[], int objc, int tag)
{
    static const int ctrl_ok[5] = {1, 0, 0, 0, -1}, daq_ok[5] = {1, 0, 0, 1, 0};
    const char *host;
    int port, i = 5;
    if (address(st, objv, objc, 3, &host, &port)) return TCL_ERROR;
    for (int g = 0; g < 2; g++) {
        const char *opt = g ? "-daqModes" : "-ctrlModes";
        const int *ok = g ? daq_ok : ctrl_ok;
        if (i >= objc || strcmp(Tcl_GetString(objv[i]), opt))
            return hs_os_fail(st, objv,
                              "expected %s followed by 5 modes (disp vel accel force "
                              "time, 0 or 1)",
                              opt);
        for (int k = 0; k < 5; k++) {
            int mode;
            if (i + 1 + k >= objc || hs_os_int(st, objv, i + 1 + k, opt, &mode))
                return i + 1 + k >= objc ? hs_os_fail(st, objv, "%s: expected 5 modes", opt)
                                         : TCL_ERROR;
            if ((ok[k] >= 0 && (mode != 0) != ok[k]) || mode < 0 || mode > 1)
                return hs_os_fail(st, objv,
                                  "%s %s: hysim's protocol A client commands displacements (and "
                                  "the time) and measures displacements and forces: expected "
                                  "%s",
                                  opt, Tcl_GetString(objv[i + 1 + k]),
                                  g ? "-daqModes 1 0 0 1 0"
                                    : "-ctrlModes 1 0 0 0 0 (or 1 0 0 0 1)");
        }
        i += 6;
    }
    for (int k = i; k < objc; k++)
        if (!strcmp(Tcl_GetString(objv[k]), "-initFile"))
            return hs_os_fail(st, objv,
                              "-initFile: hysim's protocol A client sends no parameter file to "
                              "the controller (ECGenericTCP sends it line by line with action "
                              "2); set the controller up on its side and drop -initFile");
    if (channel_options(st, objv, objc, i, "GenericTCP")) return TCL_ERROR;
    if (!stand_in(st, objv)) return TCL_ERROR;
    struct hs_os_fresco *f = hs_of_state(st);
    hs_of_control c = {.tag = tag}; /* its materials: once its setup is known */
    hs_of_control *slot = f ? hs_os_push((void **)&f->controls, &f->ncontrols, sizeof *slot) : NULL;
    if (!slot) return hs_os_fail(st, objv, "out of memory");
    *slot = c;
    hs_of_remote *r = new_remote(st, objv, tag, 1, "openfresco-a", host, port);
    if (!r) return TCL_ERROR;
    r->sized_by_setup = 1;
    return TCL_OK;
}

void hs_of_remote_size(hs_os_state *st, int site)
{
    struct hs_os_fresco *f = st->fresco;
    const hs_of_setup *su = NULL;
    for (int k = 0; f && k < f->nsites; k++)
        if (f->sites[k].tag == site) su = hs_of_find_setup(f, f->sites[k].setup);
    const hs_of_remote *r = su ? find_remote(f, su->control, 1) : NULL;
    if (!r || !r->sized_by_setup) return;
    for (int k = 0; k < f->ncontrols; k++)
        if (f->controls[k].tag == su->control && f->controls[k].nmat == 0 &&
            su->nact <= HS_OF_MAX_MATS) {
            f->controls[k].nmat = su->nact;
            for (int a = 0; a < su->nact; a++) f->controls[k].mat[a] = STAND_IN_TAG;
        }
}

/* A laboratory's control `tag` of n channels (a stand-in material each) at SCHEME://host:port. */
static hs_of_remote *add_control(hs_os_state *st, Tcl_Obj *const objv[], int tag, int n,
                                 const char *scheme, const char *host, int port)
{
    struct hs_os_fresco *f = hs_of_state(st);
    if (!f) return hs_os_fail(st, objv, "out of memory"), NULL;
    hs_of_control c = {.tag = tag, .nmat = n};
    for (int k = 0; k < n; k++)
        if (!(c.mat[k] = stand_in(st, objv))) return NULL;
    hs_of_control *slot = hs_os_push((void **)&f->controls, &f->ncontrols, sizeof *slot);
    if (!slot) return hs_os_fail(st, objv, "out of memory"), NULL;
    *slot = c;
    return new_remote(st, objv, tag, 1, scheme, host, port);
}

/* expControl LabVIEW tag ipAddr ipPort -trialCP cpTag -outCP cpTag (ECLabVIEW.cpp): hysim's
 * nees:// client, its channels the trial point's signals (opensees_tcl_exp_labview.c). */
static int labview(hs_os_state *st, Tcl_Obj *const objv[], int objc, int tag)
{
    const char *host;
    int port;
    hs_of_labview lv;
    if (address(st, objv, objc, 3, &host, &port) || hs_of_labview_map(st, objv, objc, 5, &lv))
        return TCL_ERROR;
    hs_of_remote *r = add_control(st, objv, tag, lv.n, "nees", host, port);
    if (!r) return TCL_ERROR;
    if (!(r->lv = hs_malloc(sizeof lv))) return hs_os_fail(st, objv, "out of memory");
    *r->lv = lv;
    return TCL_OK;
}

/* expControl SimFEAdapter tag ipAddr ipPort -trialCP cpTags -outCP cpTags <-ssl> <-udp>
 * <-dataSize size> (ECSimFEAdapter.cpp: OpenSees' adapter element at ipAddr:ipPort, sent the
 * trial control points' displacements with action 3, asked 10 for its daq vector, displacement
 * then force over the output control points; no commit; 99 at the end): hysim's
 * opensees-adapter:// client. Its actuators are the trial signals, one per material of the
 * control as the LocalSite's setup sees it (a stand-in each). */
int hs_of_exp_remote_control(hs_os_state *st, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    const char *type = Tcl_GetString(objv[1]);
    int tag, port, i = 5, ntrial = 0, ndisp = 0, nforce = 0;
    const char *host;
    if (objc < 9)
        return hs_os_fail(st, objv,
                          "expected 'expControl %s tag ipAddr ipPort -trialCP cpTags -outCP "
                          "cpTags'",
                          type);
    if (hs_os_int(st, objv, 2, "tag", &tag)) return TCL_ERROR;
    if (hs_of_find_control(hs_of_state(st), tag))
        return hs_os_fail(st, objv, "control %d is already defined", tag);
    if (!strcmp(type, "GenericTCP") || !strcmp(type, "LabVIEW")) {
        if ((type[0] == 'G' ? generic_tcp : labview)(st, objv, objc, tag)) return TCL_ERROR;
        Tcl_ResetResult(interp);
        return TCL_OK;
    }
    if (address(st, objv, objc, 3, &host, &port)) return TCL_ERROR;
    if (strcmp(Tcl_GetString(objv[i++]), "-trialCP"))
        return hs_os_fail(st, objv, "expected -trialCP cpTags after ipPort");
    if (cp_signals(st, objv, objc, &i, "-trialCP", 1 << HS_OF_CP_DISP, HS_OF_CP_DISP, &ntrial))
        return TCL_ERROR;
    if (i >= objc || strcmp(Tcl_GetString(objv[i++]), "-outCP"))
        return hs_os_fail(st, objv, "expected -outCP cpTags after the trial control points");
    const int daq = 1 << HS_OF_CP_DISP | 1 << HS_OF_CP_FORCE;
    if (cp_signals(st, objv, objc, &i, "-outCP", daq, HS_OF_CP_DISP, &ndisp)) return TCL_ERROR;
    for (int k = i - 1; k >= 0 && Tcl_GetString(objv[k])[0] != '-'; k--) {
        int t;
        Tcl_GetIntFromObj(NULL, objv[k], &t);
        const hs_of_cp *cp = hs_of_find_cp(st->fresco, t);
        for (int j = 0; cp && j < cp->n; j++) nforce += cp->s[j].rsp == HS_OF_CP_FORCE;
    }
    if (channel_options(st, objv, objc, i, type)) return TCL_ERROR;
    if (ntrial > HS_OF_MAX_MATS || ndisp != ntrial || nforce != ntrial)
        return hs_os_fail(st, objv,
                          "%d trial displacements, %d measured displacements, %d forces: hysim's "
                          "adapter client measures a displacement and a force per commanded "
                          "displacement (at most %d; the adapter element answers both)",
                          ntrial, ndisp, nforce, HS_OF_MAX_MATS);
    if (!add_control(st, objv, tag, ntrial, "opensees-adapter", host, port)) return TCL_ERROR;
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/* The drive of the element on a ShadowSite with its setup on the client side (ShadowExpSite.cpp:
 * the setup transforms the element's vectors into its control's, which go to the server's
 * control as they are): actuator k on basic DOF trial_dof[k], the setup's factors applied here
 * (remote_trial), the actuators' velocities sent too (ECSimUniaxialMaterials takes them). */
static int client_setup_drive(hs_os_state *st, Tcl_Obj *const objv[], hs_of_remote *r, int nbasic,
                              const int *basic_dir, int stand, int *n, int *mat, int *dir,
                              const hs_of_setup **setup, double scale[3])
{
    const hs_of_setup *su = hs_of_find_setup(st->fresco, r->client_setup);
    if (!su || su->size_trial != nbasic || su->nact != nbasic)
        return hs_os_fail(st, objv,
                          "site %d: its setup %d (%s) has a trial vector of %d and %d actuators; "
                          "this element has %d basic DOFs (hysim's ShadowSite -setup drives "
                          "each of them with an actuator)",
                          r->tag, r->client_setup, su ? su->type : "?", su ? su->size_trial : 0,
                          su ? su->nact : 0, nbasic);
    for (int k = 0; k < su->nact; k++) {
        const int b = su->trial_dof[k];
        mat[k] = stand;
        dir[k] = basic_dir[b];
        r->scale[k][0] = su->fac[HS_OF_TRIAL][HS_OF_DISP][b] * su->fac[HS_OF_CTRL][HS_OF_DISP][k];
        r->scale[k][1] = su->fac[HS_OF_TRIAL][HS_OF_VEL][b] * su->fac[HS_OF_CTRL][HS_OF_VEL][k];
        r->scale[k][2] = su->fac[HS_OF_OUT][HS_OF_FORCE][b] * su->fac[HS_OF_DAQ][HS_OF_FORCE][k];
    }
    *n = r->n = su->nact;
    *setup = su;
    scale[0] = scale[1] = scale[2] = 1.0; /* the element's own: the factors act here */
    Tcl_GetIntFromObj(NULL, objv[2], &r->element);
    return TCL_OK;
}

int hs_of_remote_drive(hs_os_state *st, Tcl_Obj *const objv[], int site, int nbasic,
                       const int *basic_dir, int *n, int *mat, int *dir, const hs_of_setup **setup,
                       double scale[3])
{
    hs_of_remote *r = find_remote(st->fresco, site, 0);
    if (r->element)
        return hs_os_fail(st, objv,
                          "site %d already serves element %d: a networked site carries one "
                          "element's vectors (define a ShadowSite per element, each with its "
                          "server)",
                          site, r->element);
    if (nbasic > HS_OF_MAX_MATS || nbasic > HS_SITE_MAX_ACT)
        return hs_os_fail(st, objv, "site %d: %d basic DOFs, at most %d", site, nbasic,
                          HS_OF_MAX_MATS);
    const int m = stand_in(st, objv);
    if (!m) return TCL_ERROR;
    if (r->client_setup) /* its setup's actuators are the channels */
        return client_setup_drive(st, objv, r, nbasic, basic_dir, m, n, mat, dir, setup, scale);
    r->pass = (hs_of_setup){.tag = 0, .nact = nbasic, .size_trial = nbasic, .size_out = nbasic};
    snprintf(r->pass.type, sizeof r->pass.type, "ShadowSite");
    for (int k = 0; k < nbasic; k++) {
        r->pass.trial_dof[k] = k;
        mat[k] = m;
        dir[k] = basic_dir[k];
    }
    *n = r->n = nbasic;
    *setup = &r->pass;
    scale[0] = scale[1] = scale[2] = 1.0;
    Tcl_GetIntFromObj(NULL, objv[2], &r->element);
    return TCL_OK;
}

/* The element's trial state: its driven basic deformations, scaled by the setup, to the site;
 * the measured forces, scaled back, to the element. */
static int remote_trial(void *user, int id, int n, const double *ub, const double *vb, double t,
                        double *q)
{
    hs_os_state *st = user; /* the clients send the displacement (and protocol B the time; a
                             * ShadowSite -setup the velocities too) */
    const struct hs_os_fresco *f = st->fresco;
    hs_of_remote *r = f && id < f->nremotes ? f->remotes[id] : NULL;
    if (!r)
        return hs_fail(st->ctx, HS_EINPUT,
                       "an experimental element's site or control was removed (wipeExp) while "
                       "the element is in the model; define the element again");
    if (n != r->n || n > HS_SITE_MAX_ACT)
        return hs_fail(st->ctx, HS_EINVAL, "%s: %d values for %d channels", r->where, n, r->n);
    int rc = 0;
    if (!r->site) {
        hs_site_config cfg;
        memset(&cfg, 0, sizeof cfg);
        snprintf(cfg.name, sizeof cfg.name, "%s %d", r->is_control ? "expControl" : "expSite",
                 r->tag);
        snprintf(cfg.kind, sizeof cfg.kind, "remote");
        snprintf(cfg.url, sizeof cfg.url, "%s", r->url);
        cfg.nact = r->n;
        cfg.rate = 1024.0;
        if (r->lv) cfg.nees = r->lv->nees; /* LabVIEW: its control point */
        cfg.ofr_velocity = r->client_setup != 0;
        rc = hs_site_create(st->ctx, &cfg, &r->site);
        if (!rc) rc = hs_site_setup(r->site, 0.0);
        if (rc) {
            hs_site_destroy(&r->site);
            return hs_fail(st->ctx, rc, "%s: %s", r->where, hs_ctx_message(st->ctx));
        }
    }
    double x[HS_SITE_MAX_ACT], hist_t[HS_EXP_HISTORY], hist_x[HS_EXP_HISTORY * HS_SITE_MAX_ACT],
        hist_f[HS_EXP_HISTORY * HS_SITE_MAX_ACT];
    for (int k = 0; k < n; k++) {
        x[k] = r->scale[k][0] * ub[k] * (r->lv ? r->lv->fact_trial[k] : 1.0);
        if (r->lv && hs_of_labview_check(st->ctx, r->lv, r->where, r->tag, r->step, k, x[k]))
            return HS_ELIMIT;
    }
    hs_site_measurement m = {
        .x = r->x, .f = r->f, .hist_t = hist_t, .hist_x = hist_x, .hist_f = hist_f};
    if (r->client_setup) {
        double v[HS_SITE_MAX_ACT];
        for (int k = 0; k < n; k++) v[k] = r->scale[k][1] * vb[k];
        hs_site_set_velocity(r->site, v);
    }
    rc = hs_site_send_target(r->site, r->step, t, x, 0.0);
    if (!rc) rc = hs_site_get_measurement(r->site, &m);
    if (rc) return hs_fail(st->ctx, rc, "%s: %s", r->where, hs_ctx_message(st->ctx));
    r->step++;
    for (int k = 0; k < n; k++)
        q[k] = r->scale[k][2] * r->f[k] * (r->lv ? r->lv->fact_force[k] : 1.0);
    return 0;
}

static int remote_commit(void *user, int id)
{
    hs_os_state *st = user;
    const struct hs_os_fresco *f = st->fresco;
    hs_of_remote *r = f && id < f->nremotes ? f->remotes[id] : NULL;
    if (!r || !r->site) return 0; /* nothing sent yet */
    const int rc = hs_site_commit(r->site, r->step);
    return rc ? hs_fail(st->ctx, rc, "%s: %s", r->where, hs_ctx_message(st->ctx)) : 0;
}

int hs_of_remote_daq_disp(hs_os_state *st, int element, double *out, int cap)
{
    const hs_os_element *e = hs_os_find_element(st->m, element);
    hs_of_remote *r = remote_of(st->fresco, e, NULL);
    if (!r || r->element != element) return -1;
    for (int k = 0; k < r->n && k < cap; k++)
        out[k] = r->x[k] * (r->lv ? r->lv->fact_disp[k] : 1.0) / r->scale[k][0];
    return r->n < cap ? r->n : cap;
}

int hs_of_remote_attach(hs_os_state *st, hs_fe *fe)
{
    const hs_os_model *m = st->m;
    for (int j = 0; j < m->nels; j++) {
        const hs_os_element *e = &m->els[j];
        int id = 0;
        hs_of_remote *r = remote_of(st->fresco, e, &id);
        if (!r) continue;
        if (r->is_control && r->element && r->element != e->tag)
            return hs_fail(st->ctx, HS_EINPUT,
                           "%s: element %d: control %d already drives element %d: a "
                           "laboratory's control carries one element's vectors",
                           e->where, e->tag, r->tag, r->element);
        if (!e->nkinit || e->exp_own_tangent || (e->kind != HS_OS_LINK))
            return hs_fail(st->ctx, HS_EINPUT, "%s: element %d on networked site %d: %s", e->where,
                           e->tag, e->exp_site,
                           e->kind != HS_OS_LINK
                               ? "hysim runs twoNodeLink, truss, beamColumn and generic "
                                 "elements on a networked site (a bearing: not yet)"
                           : e->exp_own_tangent
                               ? "-tangStif: OpenFresco's tangent estimators are not in hysim; "
                                 "drop -tangStif (the element's tangent is then its -initStif)"
                               : "expected -initStif Kij: the only stiffness a client of a "
                                 "networked site knows (OpenFresco's elements answer it as "
                                 "their tangent too)");
        if (r->lv && e->nmat != r->lv->n)
            return hs_fail(st->ctx, HS_EINPUT,
                           "%s: element %d drives %d channels of expControl LabVIEW %d, whose "
                           "trial control point has %d signals (one per channel)",
                           e->where, e->tag, e->nmat, r->tag, r->lv->n);
        r->element = e->tag;
        r->n = e->nmat;
        if (e->exp_scaled) /* the setup's factors, applied here instead of by the materials */
            for (int k = 0; k < e->nmat && k < HS_SITE_MAX_ACT; k++)
                memcpy(r->scale[k], e->exp_scale[k], sizeof r->scale[k]);
        char name[32];
        snprintf(name, sizeof name, "ele%d", e->tag);
        const int k = hs_fe_element_index(fe, name);
        const hs_fe_specimen spec = {
            .user = st, .id = id, .trial = remote_trial, .commit = remote_commit};
        const int rc = k < 0 ? HS_EINVAL : hs_fe_link_set_specimen(fe, k, &spec);
        if (rc) return hs_fail(st->ctx, rc, "%s: %s", e->where, hs_ctx_message(st->ctx));
    }
    return 0;
}

const hs_os_element *hs_os_networked_element(const hs_os_model *m)
{
    for (int k = 0; k < m->nels; k++)
        for (int j = 0; m->els[k].kind == HS_OS_LINK && j < m->els[k].nmat; j++)
            if (m->els[k].mat[j] == STAND_IN_TAG) return &m->els[k];
    return NULL;
}
