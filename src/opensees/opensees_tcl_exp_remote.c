/* OpenFresco's networked sites in a script's own analysis (docs/openfresco.md, "Networked sites
 * in scripts"): `expSite ShadowSite tag <-setup setupTag> ipAddr ipPort <-ssl> <-udp> <-noDelay>
 * <-dataSize size>` (also spelled RemoteSite: OpenFresco 2.8's ExpSiteCommands.cpp maps both
 * names to OPF_ShadowExpSite) is a hysim remote site at openfresco-b://ipAddr:ipPort, the
 * protocol B client that a test file's site of that URL gets (src/net/site_openfresco.c).
 *
 * The experimental element on it is the element a LocalSite would give (the same parser,
 * opensees_tcl_openfresco.c), whose forces come from the site: each trial state of the
 * element sends its basic deformations (ShadowExpSite.cpp without a setup passes the element's
 * trial vectors as they are: the server's own setup transforms them, ActorExpSite.cpp) and
 * takes back the measured basic forces (the daq force vector), each commit of the analysis
 * commits the site (protocol B action 5), the end of the script (wipeExp, exit) closes it
 * (99). Its tangent and initial stiffness are its -initStif, as OpenFresco's elements answer
 * (EETwoNodeLink.cpp getTangentStiff "Return InitialStiff"); an element on a networked site
 * without -initStif, or with -tangStif (OpenFresco's estimators: not in hysim), is refused at
 * the first analyze. The connection opens at the element's first trial state (an eigen
 * analysis before it asks the -initStif only) and stays open across `analyze` commands.
 *
 * One element per site: a ShadowSite carries one element's vectors (OpenFresco's elements each
 * call setTrialResponse on their site). The element's specimen is a stand-in elastic material
 * of zero stiffness, defined here at tag 2000000000 + the site's tag so that the element's
 * parser has its -mat list; it is never driven (the frame model's link takes the site's
 * forces instead, hs_fe_link_set_specimen). */
#include "opensees_tcl_openfresco.h"

#include "hysim/site.h"

#include <stdio.h>
#include <string.h>

#define STAND_IN_BASE 2000000000

struct hs_of_remote {
    int tag;
    char where[HS_OS_WHERE];
    char url[256];
    int element;      /* the element on the site (0: none yet) */
    int n;            /* its basic DOFs: the site's channels */
    hs_of_setup pass; /* no transformation: basic DOF k on channel k, factors 1 */
    hs_site *site;    /* opened at the first trial */
    int64_t step;
    double x[HS_SITE_MAX_ACT], f[HS_SITE_MAX_ACT]; /* the last measurement */
};

static hs_of_remote *find_remote(const struct hs_os_fresco *f, int tag)
{
    for (int i = 0; f && i < f->nremotes; i++)
        if (f->remotes[i]->tag == tag) return f->remotes[i];
    return NULL;
}

int hs_of_is_remote(hs_os_state *st, int site)
{
    return st->fresco && find_remote(st->fresco, site) != NULL;
}

void hs_of_remote_free(struct hs_os_fresco *f)
{
    for (int i = 0; i < f->nremotes; i++) {
        hs_site_destroy(&f->remotes[i]->site); /* 99: the server's ActorSite ends its test */
        hs_free(f->remotes[i]);
    }
    hs_free(f->remotes);
    f->remotes = NULL;
    f->nremotes = 0;
}

/* What the site's options ask that hysim's protocol B client cannot give: the reason, or NULL. */
static const char *refused_option(const char *o)
{
    if (!strcmp(o, "-ssl"))
        return "OpenFresco's SSL channel (TCP_SocketSSL) is not in hysim: its protocol B client "
               "speaks plain TCP; reach the server over a trusted network or a tunnel (ssh -L), "
               "and drop -ssl";
    if (!strcmp(o, "-udp"))
        return "OpenFresco's UDP channel (UDP_Socket) is not in hysim: its protocol B client "
               "speaks TCP; drop -udp (the server's ActorSite then without -udp too)";
    return NULL;
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
    int tag, port, i = 3;
    if (hs_os_int(st, objv, 2, "tag", &tag)) return TCL_ERROR;
    if (!strcmp(Tcl_GetString(objv[i]), "-setup"))
        return hs_os_fail(st, objv,
                          "-setup: a ShadowSite that transforms on the client side is not yet in "
                          "hysim; leave the setup to the server (its ActorSite -setup), and give "
                          "'expSite %s %d ipAddr ipPort'",
                          type, tag);
    const char *host = Tcl_GetString(objv[i++]);
    if (!host[0] || strlen(host) > 190 || strpbrk(host, " /[]"))
        return hs_os_fail(st, objv, "ipAddr '%s': expected a host name or an IP address", host);
    if (i >= objc || hs_os_int(st, objv, i, "ipPort", &port)) return TCL_ERROR;
    if (port < 1 || port > 65535)
        return hs_os_fail(st, objv, "ipPort %d: expected 1 to 65535", port);
    for (i++; i < objc; i++) {
        const char *o = Tcl_GetString(objv[i]), *why = refused_option(o);
        int size;
        if (why) return hs_os_fail(st, objv, "%s: %s", o, why);
        if (!strcmp(o, "-noDelay")) continue; /* hysim's client always sets TCP_NODELAY */
        if (strcmp(o, "-dataSize"))
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (%s knows -noDelay and "
                              "-dataSize)",
                              o, type);
        if (i + 1 >= objc || hs_os_int(st, objv, ++i, "-dataSize", &size)) return TCL_ERROR;
        if (size < 1) return hs_os_fail(st, objv, "-dataSize %d: expected a positive size", size);
        /* hysim sends the smallest dataSize that fits, in its setup message: the ActorSite
         * sizes its messages from that message (PROTOCOL.md, protocol B step 3) */
    }
    struct hs_os_fresco *f = hs_of_state(st);
    if (!f) return hs_os_fail(st, objv, "out of memory");
    int taken = find_remote(f, tag) != NULL;
    for (int k = 0; k < f->nsites; k++) taken |= f->sites[k].tag == tag;
    if (taken) return hs_os_fail(st, objv, "site %d is already defined", tag);
    hs_of_remote *r = hs_calloc(1, sizeof *r);
    hs_of_remote **slot = r ? hs_os_push((void **)&f->remotes, &f->nremotes, sizeof *slot) : NULL;
    if (!slot) return hs_free(r), hs_os_fail(st, objv, "out of memory");
    *slot = r;
    r->tag = tag;
    hs_os_where(st, r->where, sizeof r->where);
    snprintf(r->url, sizeof r->url,
             strchr(host, ':') ? "openfresco-b://[%s]:%d" : "openfresco-b://%s:%d", host, port);
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/* The stand-in material of site r's element (see the file's header): its tag, 0 on error. */
static int stand_in(hs_os_state *st, Tcl_Obj *const objv[], const hs_of_remote *r)
{
    const int tag = STAND_IN_BASE + r->tag;
    if (r->tag < 1 || r->tag > 147483647)
        return hs_os_fail(st, objv, "site %d: hysim takes networked site tags 1 to 147483647",
                          r->tag),
               0;
    if (hs_os_find_material(st->m, tag)) return tag;
    hs_os_material *m = hs_os_push((void **)&st->m->mats, &st->m->nmats, sizeof *m);
    if (!m) return hs_os_fail(st, objv, "out of memory"), 0;
    memset(m, 0, sizeof *m);
    m->tag = tag;
    m->type = "elastic";
    if (hs_options_create(&m->opts) || hs_options_set_num(m->opts, "k", 0.0)) {
        hs_options_destroy(&m->opts);
        st->m->nmats--;
        return hs_os_fail(st, objv, "out of memory"), 0;
    }
    hs_os_where(st, m->where, sizeof m->where);
    return tag;
}

int hs_of_remote_drive(hs_os_state *st, Tcl_Obj *const objv[], int site, int nbasic,
                       const int *basic_dir, int *n, int *mat, int *dir, const hs_of_setup **setup,
                       double scale[3])
{
    hs_of_remote *r = find_remote(st->fresco, site);
    int el = 0;
    Tcl_GetIntFromObj(NULL, objv[2], &el);
    if (r->element)
        return hs_os_fail(st, objv,
                          "site %d already serves element %d: a networked site carries one "
                          "element's vectors (define a ShadowSite per element, each with its "
                          "server)",
                          site, r->element);
    if (nbasic > HS_OF_MAX_MATS || nbasic > HS_SITE_MAX_ACT)
        return hs_os_fail(st, objv, "site %d: %d basic DOFs, at most %d", site, nbasic,
                          HS_OF_MAX_MATS);
    const int m = stand_in(st, objv, r);
    if (!m) return TCL_ERROR;
    r->n = nbasic;
    r->pass = (hs_of_setup){.tag = 0, .nact = nbasic, .size_trial = nbasic, .size_out = nbasic};
    snprintf(r->pass.type, sizeof r->pass.type, "ShadowSite");
    for (int k = 0; k < nbasic; k++) {
        r->pass.trial_dof[k] = k;
        mat[k] = m;
        dir[k] = basic_dir[k];
    }
    *n = nbasic;
    *setup = &r->pass;
    scale[0] = scale[1] = scale[2] = 1.0;
    r->element = el;
    return TCL_OK;
}

/* The element's trial state: its basic vectors to the site, the measured forces back. */
static int remote_trial(void *user, int id, int n, const double *ub, const double *vb, double t,
                        double *q)
{
    (void)vb; /* the protocol B client sends the displacement and the time (site_openfresco.c) */
    hs_os_state *st = user;
    hs_of_remote *r = find_remote(st->fresco, id);
    if (!r)
        return hs_fail(st->ctx, HS_EINPUT,
                       "expSite %d: the site was removed (wipeExp) while its element is in the "
                       "model; define the element again on a new site",
                       id);
    if (n != r->n)
        return hs_fail(st->ctx, HS_EINVAL, "expSite %d: %d values for %d channels", id, n, r->n);
    int rc = 0;
    if (!r->site) {
        hs_site_config cfg;
        memset(&cfg, 0, sizeof cfg);
        snprintf(cfg.name, sizeof cfg.name, "expSite %d", r->tag);
        snprintf(cfg.kind, sizeof cfg.kind, "remote");
        snprintf(cfg.url, sizeof cfg.url, "%s", r->url);
        cfg.nact = r->n;
        cfg.rate = 1024.0;
        rc = hs_site_create(st->ctx, &cfg, &r->site);
        if (!rc) rc = hs_site_setup(r->site, 0.0);
        if (rc) {
            hs_site_destroy(&r->site);
            return hs_fail(st->ctx, rc, "%s: expSite %d: %s", r->where, r->tag,
                           hs_ctx_message(st->ctx));
        }
    }
    double hist_t[HS_EXP_HISTORY], hist_x[HS_EXP_HISTORY * HS_SITE_MAX_ACT],
        hist_f[HS_EXP_HISTORY * HS_SITE_MAX_ACT];
    hs_site_measurement m = {
        .x = r->x, .f = r->f, .hist_t = hist_t, .hist_x = hist_x, .hist_f = hist_f};
    rc = hs_site_send_target(r->site, r->step, t, ub, 0.0);
    if (!rc) rc = hs_site_get_measurement(r->site, &m);
    if (rc) return hs_fail(st->ctx, rc, "%s: %s", r->where, hs_ctx_message(st->ctx));
    r->step++;
    memcpy(q, r->f, (size_t)n * sizeof *q);
    return 0;
}

static int remote_commit(void *user, int id)
{
    hs_os_state *st = user;
    hs_of_remote *r = find_remote(st->fresco, id);
    if (!r || !r->site) return 0; /* nothing sent yet */
    const int rc = hs_site_commit(r->site, r->step);
    return rc ? hs_fail(st->ctx, rc, "%s: %s", r->where, hs_ctx_message(st->ctx)) : 0;
}

int hs_of_remote_attach(hs_os_state *st, hs_fe *fe)
{
    const struct hs_os_fresco *f = st->fresco;
    for (int i = 0; f && i < f->nremotes; i++) {
        const hs_of_remote *r = f->remotes[i];
        const hs_os_element *e = r->element ? hs_os_find_element(st->m, r->element) : NULL;
        if (!e || e->exp_site != r->tag) continue; /* none, or removed */
        if (!e->nkinit || e->exp_own_tangent || e->exp_beam || e->kind != HS_OS_LINK)
            return hs_fail(st->ctx, HS_EINPUT, "%s: element %d on networked site %d: %s", e->where,
                           e->tag, r->tag,
                           e->kind != HS_OS_LINK || e->exp_beam
                               ? "hysim runs twoNodeLink, truss and generic elements on a "
                                 "networked site (a beamColumn with -initStif or a bearing: "
                                 "not yet)"
                           : e->exp_own_tangent
                               ? "-tangStif: OpenFresco's tangent estimators are not in hysim; "
                                 "drop -tangStif (the element's tangent is then its -initStif)"
                               : "expected -initStif Kij: the only stiffness a client of a "
                                 "networked site knows (OpenFresco's elements answer it as "
                                 "their tangent too)");
        char name[32];
        snprintf(name, sizeof name, "ele%d", e->tag);
        const int k = hs_fe_element_index(fe, name);
        const hs_fe_specimen spec = {
            .user = st, .id = r->tag, .trial = remote_trial, .commit = remote_commit};
        const int rc = k < 0 ? HS_EINVAL : hs_fe_link_set_specimen(fe, k, &spec);
        if (rc) return hs_fail(st->ctx, rc, "%s: %s", e->where, hs_ctx_message(st->ctx));
    }
    return 0;
}
