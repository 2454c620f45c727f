/* OpenFresco's commands in hysim's interpreter (docs/openfresco.md, "OpenFresco scripts"):
 * expControl, expSetup, expSite, expElement and the package's utility commands, so that an
 * OpenFresco `*_Local.tcl` script runs unchanged in the script's own analysis.
 *
 * A LocalSite whose control is SimUniaxialMaterials is a perfect virtual laboratory: the
 * specimen is the control's material, driven exactly to the command (OpenFresco's
 * ECSimUniaxialMaterials::control sets the material's trial strain to the command and
 * ::acquire reads back its strain and stress; ::commitState commits it with the step). Through
 * a OneActuator setup (ESOneActuator.cpp: actuator = the basic DOF `dir` of the element's trial
 * vector, the measured force back on that DOF, the other basic DOFs without force) the
 * experimental element is then the numerical element with that material on that basic DOF:
 * expElement twoNodeLink is OpenSees' twoNodeLink (EETwoNodeLink.cpp: the same local axes and
 * basic DOFs), expElement truss is the axial spring between its nodes (EETruss.cpp: basic
 * displacement (u_j - u_i) . (x_j - x_i) / L, force along the chord), expElement beamColumn
 * with -initStif EEBeamColumn2d itself through its transformation (src/fe/fe_link_beam.c), without
 * it (Linear) the twoNodeLink on its cantilever's driven DOF (EEBeamColumn2d.cpp, basic system B).
 * hysim builds exactly that element, marked experimental (its ctrlDisp, daqDisp, daqForce responses
 * answer the actuator's command, measurement and force). Its stiffness is its -initStif over its
 * basic system, initial and tangent, as OpenFresco's (EEBeamColumn2d.cpp setInitialStiff,
 * getTangentStiff "Return InitialStiff"): the link's given stiffness (hs_fe_link_def kb); with
 * -tangStif (an expTangentStiff estimate) the tangent is the perfect specimen's own, a perfect
 * estimate. A setup's similitude factors scale the specimen (ExperimentalSetup.cpp: command
 * ctrlFact trialFact d, force outFact daqFact f): the link's displacement, velocity and force
 * factors.
 *
 * A setup with several actuators drives one material of the control each: NoTransformation's
 * actuator k the basic DOF it names (the link's direction k), a setup with actuator geometry
 * (TwoActuators2d, ThreeActuators2d, ...; opensees_tcl_expsetup.c) the strokes of its platform
 * whose pose is the element's basic DOFs (the link through the setup, src/fe/fe_link_setup.c).
 *
 * expElement generic is that link on absolute node DOFs (opensees_tcl_exp_generic.c). On an
 * Aggregator of setups with actuator geometry, twoNodeLink and the 3-D beamColumn are a link per
 * setup (opensees_tcl_exp_aggregate.c), generic likewise.
 *
 * What does not map yet is refused at its command with the reason: controls of real
 * laboratories (hysim reaches them through its sites) other than the networked ones
 * (opensees_tcl_exp_remote.c), an Aggregator with actuator geometry under the 2-D beamColumn
 * and truss (their basic systems are too small for it), invertedVBrace (no SimUniaxialMaterials
 * control can serve it); an experimental element's stiffness-proportional Rayleigh damping without
 * -initStif, or with betaK/betaKcomm and -tangStif (OpenFresco damps it with the estimate), is
 * refused at the first analyze (opensees_analysis.c). */
#include "opensees_tcl_exp_element.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define STATE(cd) ((hs_os_state *)(cd))

void hs_os_fresco_free(hs_os_state *st)
{
    if (!st->fresco) return;
    hs_of_remote_free(st->fresco); /* opensees_tcl_exp_remote.c */
    hs_free(st->fresco->controls);
    hs_free(st->fresco->setups);
    hs_free(st->fresco->sites);
    hs_free(st->fresco);
    st->fresco = NULL;
}

struct hs_os_fresco *hs_of_state(hs_os_state *st)
{
    if (!st->fresco) st->fresco = hs_calloc(1, sizeof *st->fresco);
    return st->fresco;
}

const hs_of_control *hs_of_find_control(const struct hs_os_fresco *f, int tag)
{
    for (int i = 0; i < f->ncontrols; i++)
        if (f->controls[i].tag == tag) return &f->controls[i];
    return NULL;
}

const hs_of_setup *hs_of_find_setup(const struct hs_os_fresco *f, int tag)
{
    for (int i = 0; i < f->nsetups; i++)
        if (f->setups[i].tag == tag) return &f->setups[i];
    return NULL;
}

static const hs_of_site *find_site(const struct hs_os_fresco *f, int tag)
{
    for (int i = 0; i < f->nsites; i++)
        if (f->sites[i].tag == tag) return &f->sites[i];
    return NULL;
}

/* The controls of real laboratories and co-simulations, each with why hysim refuses it here. */
static const struct {
    const char *name, *why;
} lab_controls[] = {
    {"xPCtarget", "an xPC Target real-time controller"},
    {"Speedgoat", "a Speedgoat real-time controller"},
    {"SCRAMNet", "a SCRAMNet shared-memory controller"},
    {"SCRAMNetGT", "a SCRAMNet GT shared-memory controller"},
    {"dSpace", "a dSpace controller"},
    {"MTSCsi", "an MTS CSI controller"},
    {"NIEseries", "a National Instruments E-series card"},
    {"SimDomain", "an OpenSees domain simulating the specimen"},
    {"SimSimulink", "a Simulink model"},
};

/* expControl SimUniaxialMaterials tag matTag1 <matTag2 ...> (ECSimUniaxialMaterials.cpp; the
 * -ctrlFilters / -daqFilters options of OpenFresco 2.7+ are taken off before this by the wrapper
 * of opensees_tcl_expfilter.c). */
static int cmd_exp_control(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    if (objc < 3)
        return hs_os_fail(st, objv, "expected 'expControl SimUniaxialMaterials tag matTag'");
    const char *type = Tcl_GetString(objv[1]);
    if (!strcmp(type, "SimFEAdapter") || !strcmp(type, "GenericTCP") ||
        !strcmp(type, "LabVIEW")) /* exp_remote.c */
        return hs_of_exp_remote_control(st, interp, objc, objv);
    for (size_t k = 0; k < sizeof lab_controls / sizeof lab_controls[0]; k++)
        if (!strcmp(type, lab_controls[k].name))
            return hs_os_fail(st, objv,
                              "%s (%s) is not supported in a script: hysim drives laboratories "
                              "through its sites (hysim site with a lab back end, "
                              "docs/lab_backends.md; NEES, docs/nees.md); here use "
                              "'expControl SimUniaxialMaterials tag matTag' for a virtual "
                              "laboratory",
                              type, lab_controls[k].why);
    if (strcmp(type, "SimUniaxialMaterials"))
        return hs_os_fail(
            st, objv, "type '%s' is not supported by hysim (it has SimUniaxialMaterials)", type);
    hs_of_control c = {0};
    if (hs_os_int(st, objv, 2, "tag", &c.tag)) return TCL_ERROR;
    for (int i = 3; i < objc; i++) {
        int tag;
        if (Tcl_GetString(objv[i])[0] == '-')
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (it takes the "
                              "materials' tags, -ctrlFilters and -daqFilters)",
                              Tcl_GetString(objv[i]));
        if (hs_os_int(st, objv, i, "matTag", &tag)) return TCL_ERROR;
        if (!hs_os_find_material(st->m, tag))
            return hs_os_fail(st, objv, "no uniaxialMaterial %d (define it first)", tag);
        if (c.nmat == HS_OF_MAX_MATS)
            return hs_os_fail(st, objv, "at most %d materials", HS_OF_MAX_MATS);
        c.mat[c.nmat++] = tag;
    }
    if (!c.nmat) return hs_os_fail(st, objv, "expected the specimens' matTags after the tag");
    struct hs_os_fresco *f = hs_of_state(st);
    if (!f) return hs_os_fail(st, objv, "out of memory");
    if (hs_of_find_control(f, c.tag))
        return hs_os_fail(st, objv, "control %d is already defined", c.tag);
    hs_of_control *slot = hs_os_push((void **)&f->controls, &f->ncontrols, sizeof *slot);
    if (!slot) return hs_os_fail(st, objv, "out of memory");
    *slot = c;
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/* expSite LocalSite tag setupTag */
static int cmd_exp_site(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    if (objc < 2) return hs_os_fail(st, objv, "expected 'expSite LocalSite tag setupTag'");
    const char *type = Tcl_GetString(objv[1]);
    if (!strcmp(type, "RemoteSite") || !strcmp(type, "ShadowSite"))
        return hs_of_exp_remote_site(st, interp, objc, objv); /* opensees_tcl_exp_remote.c */
    if (!strcmp(type, "ActorSite"))
        return hs_os_fail(st, objv,
                          "%s is a server: a script's own analysis in hysim is its client "
                          "(expSite ShadowSite tag ipAddr ipPort); serve the specimen with 'hysim "
                          "site' and connect OpenSees' genericClient, OpenFresco's expElement "
                          "-server or a ShadowSite to it (docs/openfresco.md), or use 'expSite "
                          "LocalSite tag setupTag'",
                          type);
    if (strcmp(type, "LocalSite"))
        return hs_os_fail(st, objv, "type '%s' is not supported by hysim (it has LocalSite)", type);
    hs_of_site s = {0};
    if (objc != 4) return hs_os_fail(st, objv, "expected 'expSite LocalSite tag setupTag'");
    if (hs_os_int(st, objv, 2, "tag", &s.tag) || hs_os_int(st, objv, 3, "setupTag", &s.setup))
        return TCL_ERROR;
    struct hs_os_fresco *f = hs_of_state(st);
    if (!f) return hs_os_fail(st, objv, "out of memory");
    const hs_of_setup *su = hs_of_find_setup(f, s.setup);
    if (!su) return hs_os_fail(st, objv, "no expSetup %d (define it first)", s.setup);
    if (!su->control)
        return hs_os_fail(
            st, objv, "setup %d has no -control: a LocalSite needs the setup's control", s.setup);
    if (find_site(f, s.tag)) return hs_os_fail(st, objv, "site %d is already defined", s.tag);
    hs_of_site *slot = hs_os_push((void **)&f->sites, &f->nsites, sizeof *slot);
    if (!slot) return hs_os_fail(st, objv, "out of memory");
    *slot = s;
    Tcl_ResetResult(interp);
    return TCL_OK;
}

int hs_of_exp_options(hs_os_state *st, Tcl_Obj *const objv[], int objc, int first, int link,
                      exp_args *a)
{
    int i = first;
    while (i < objc) {
        const char *o = Tcl_GetString(objv[i]);
        if (!strcmp(o, "-site")) {
            if (i + 1 >= objc || hs_os_int(st, objv, i + 1, "-site", &a->site))
                return i + 1 >= objc ? hs_os_fail(st, objv, "-site: expected the site's tag")
                                     : TCL_ERROR;
            i += 2;
        } else if (!strcmp(o, "-server")) {
            return hs_os_fail(st, objv,
                              "-server: a networked site; in hysim's own analysis the site is "
                              "local (-site siteTag); to serve OpenSees, run 'hysim site' and "
                              "connect this expElement from OpenSees/OpenFresco "
                              "(docs/openfresco.md)");
        } else if (!strcmp(o, "-initStif") || !strcmp(o, "-initStiff")) {
            double v;
            for (i++; i < objc && Tcl_GetDoubleFromObj(NULL, objv[i], &v) == TCL_OK; i++) {
                if (a->nk == HS_OS_MAX_DIRS * HS_OS_MAX_DIRS)
                    return hs_os_fail(st, objv, "-initStif: at most %d x %d values", HS_OS_MAX_DIRS,
                                      HS_OS_MAX_DIRS);
                a->k[a->nk++] = v;
            }
        } else if (!strcmp(o, "-tangStif") || !strcmp(o, "-tangStiff")) {
            a->own_tangent = 1; /* the perfect specimen's own tangent is used (the file's header) */
            i += 2;
        } else if (!strcmp(o, "-iMod")) {
            i++; /* the initial stiffness modification: nothing to correct in a perfect lab */
        } else if (!strcmp(o, "-doRayleigh") || !strcmp(o, "-noRayleigh")) {
            a->no_rayleigh = !strcmp(o, "-noRayleigh");
            i++;
        } else if (link && !strcmp(o, "-dir")) {
            for (i++; i < objc && Tcl_GetString(objv[i])[0] != '-'; i++) {
                if (a->ndir == HS_OS_NDF)
                    return hs_os_fail(st, objv, "-dir: at most %d directions", HS_OS_NDF);
                if (hs_os_int(st, objv, i, "-dir", &a->dirs[a->ndir++])) return TCL_ERROR;
            }
        } else if (!link && !strcmp(o, "-rho")) {
            if (i + 1 >= objc || hs_os_num(st, objv, i + 1, "-rho", &a->rho))
                return i + 1 >= objc ? hs_os_fail(st, objv, "-rho: expected the mass per length")
                                     : TCL_ERROR;
            i += 2;
        } else if (!link) {
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (expElement %s knows "
                              "-site, -initStif, -tangStif, -iMod, -rho, -doRayleigh, "
                              "-noRayleigh)",
                              o, Tcl_GetString(objv[1]));
        } else {
            if (a->npass == (int)(sizeof a->pass / sizeof a->pass[0]))
                return hs_os_fail(st, objv, "too many options");
            a->pass[a->npass++] = objv[i++];
        }
    }
    if (!a->site) return hs_os_fail(st, objv, "expected -site siteTag (a LocalSite)");
    return TCL_OK;
}

/* The site's specimens through its setup, on the element's basic DOFs (basic_dir[b]: basic DOF
 * b's twoNodeLink direction); checks that the setup's trial vector is the element's basic vector
 * and that the control has a material per actuator (OpenFresco checks the sizes too). */
int hs_of_site_drive(hs_os_state *st, Tcl_Obj *const objv[], int site, int nbasic,
                     const int *basic_dir, exp_drive *d)
{
    if (hs_of_is_remote(st, site)) { /* a ShadowSite (opensees_tcl_exp_remote.c) */
        double one[3];
        const int rc = hs_of_remote_drive(st, objv, site, nbasic, basic_dir, &d->n, d->mat, d->dir,
                                          &d->setup, one);
        for (int k = 0; k < d->n && k < HS_OF_MAX_MATS; k++) memcpy(d->scale[k], one, sizeof one);
        return rc;
    }
    hs_of_remote_size(st, site); /* a GenericTCP control takes its setup's size */
    const struct hs_os_fresco *f = hs_of_state(st);
    const hs_of_site *s = f ? find_site(f, site) : NULL;
    if (!s) return hs_os_fail(st, objv, "no expSite %d (define it first)", site);
    const hs_of_setup *su = hs_of_find_setup(f, s->setup);
    const hs_of_control *c = hs_of_find_control(f, su->control);
    if (su->size_trial != nbasic)
        return hs_os_fail(st, objv,
                          "site %d: its setup %d (%s) has a trial vector of %d, this element has "
                          "%d basic DOFs",
                          site, su->tag, su->type, su->size_trial, nbasic);
    if (c->nmat != su->nact)
        return hs_os_fail(st, objv,
                          "site %d: control %d has %d materials, its setup %d (%s) drives %d "
                          "actuators (one material each)",
                          site, c->tag, c->nmat, su->tag, su->type, su->nact);
    d->n = su->nact;
    d->setup = su;
    for (int k = 0; k < su->nact; k++) {
        const int b = su->trial_dof[k];
        const double scale[3] = {
            su->fac[HS_OF_TRIAL][HS_OF_DISP][b] * su->fac[HS_OF_CTRL][HS_OF_DISP][k],
            su->fac[HS_OF_TRIAL][HS_OF_VEL][b] * su->fac[HS_OF_CTRL][HS_OF_VEL][k],
            su->fac[HS_OF_OUT][HS_OF_FORCE][b] * su->fac[HS_OF_DAQ][HS_OF_FORCE][k]};
        for (int j = 0; su->has_geom && k > 0 && j < 3; j++) /* one set through a geometry */
            if (scale[j] != d->scale[0][j])
                return hs_os_fail(st, objv,
                                  "site %d: setup %d scales actuator 1 by %g and actuator %d by "
                                  "%g (%s); hysim scales the specimens of a setup with actuator "
                                  "geometry by one factor",
                                  site, su->tag, d->scale[0][j], k + 1, scale[j],
                                  j == 0   ? "displacement"
                                  : j == 1 ? "velocity"
                                           : "force");
        memcpy(d->scale[k], scale, sizeof scale);
        d->mat[k] = c->mat[k];
        d->dir[k] = basic_dir[b];
    }
    return TCL_OK;
}

/* -initStif has n x n values, or none (then the specimen's own stiffness is the element's). */
int hs_of_check_init_stif(hs_os_state *st, Tcl_Obj *const objv[], const exp_args *a, int n)
{
    if (a->nk && a->nk != n * n)
        return hs_os_fail(st, objv,
                          "-initStif: %d values; this element has %d basic DOFs, so %d x %d = %d "
                          "values (the stiffness matrix Kij over them)",
                          a->nk, n, n, n, n * n);
    return TCL_OK;
}

/* Defines `element twoNodeLink tag i j -mat m1 .. -dir d1 .. <pass...>` through the element
 * command (one parser for the numerical and the experimental link), then marks it
 * experimental, with its setup's geometry when the setup has one. */
int hs_of_define_link(hs_os_state *st, Tcl_Interp *interp, Tcl_Obj *const objv[],
                      const exp_drive *d, double mass, const exp_args *a, int site,
                      const exp_basic *b)
{
    if (d->setup->nsub)
        return hs_os_fail(st, objv,
                          "setup %d (Aggregator) aggregates setups with actuator geometry; hysim "
                          "maps it on expElement generic, twoNodeLink and the 3-D beamColumn (a "
                          "link per setup)",
                          d->setup->tag);
    Tcl_Obj *w[96];
    int n = 0;
    w[n++] = objv[0];
    w[n++] = Tcl_NewStringObj("twoNodeLink", -1);
    w[n++] = objv[2];
    w[n++] = objv[3];
    w[n++] = objv[4];
    w[n++] = Tcl_NewStringObj("-mat", -1);
    for (int k = 0; k < d->n; k++) w[n++] = Tcl_NewIntObj(d->mat[k]);
    w[n++] = Tcl_NewStringObj("-dir", -1);
    for (int k = 0; k < d->n; k++) w[n++] = Tcl_NewIntObj(d->dir[k]);
    if (mass > 0.0) {
        w[n++] = Tcl_NewStringObj("-mass", -1);
        w[n++] = Tcl_NewDoubleObj(mass);
    }
    for (int k = 0; k < a->npass; k++) w[n++] = a->pass[k];
    for (int k = 0; k < n; k++) Tcl_IncrRefCount(w[k]);
    const int rc = hs_os_cmd_element(st, interp, n, w);
    for (int k = 0; k < n; k++) Tcl_DecrRefCount(w[k]);
    if (rc != TCL_OK) return rc;
    int tag = 0;
    Tcl_GetIntFromObj(NULL, objv[2], &tag);
    hs_of_mark_experimental(hs_os_find_element(st->m, tag), d, a, site, b);
    return TCL_OK;
}

/* Marks link e experimental: its site, Rayleigh flag, similitude factors, setup geometry and
 * -initStif over its basic system b. */
void hs_of_mark_experimental(hs_os_element *e, const exp_drive *d, const exp_args *a, int site,
                             const exp_basic *b)
{
    e->exp_site = site;
    e->exp_rayleigh = !a->no_rayleigh;
    e->exp_scaled = 0;
    for (int k = 0; k < d->n; k++)
        for (int j = 0; j < 3; j++) e->exp_scaled |= d->scale[k][j] != 1.0;
    memcpy(e->exp_scale, d->scale, sizeof d->scale);
    e->exp_has_geom = d->setup->has_geom;
    if (e->exp_has_geom) e->exp_geom = d->setup->g;
    if (a->nk) { /* -initStif: the element's stiffness over its basic system */
        e->nkinit = b->n;
        memcpy(e->kinit_dirs, b->dirs, sizeof e->kinit_dirs);
        e->kinit_shear = b->shear_dist < 0.0 ? e->shear_dist : b->shear_dist;
        memcpy(e->kinit, a->k, (size_t)a->nk * sizeof(double));
        e->exp_own_tangent = a->own_tangent;
        e->rayleigh_ok = e->exp_rayleigh; /* OpenFresco damps it with that stiffness */
    }
}

/* expElement twoNodeLink tag iNode jNode -dir dirs -site siteTag -initStif Kij <-tangStif t>
 * <-orient ...> <-pDelta ...> <-iMod> <-mass m> (EETwoNodeLink.cpp) */
static int exp_link(hs_os_state *st, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    exp_args a = {0};
    if (hs_of_exp_options(st, objv, objc, 5, 1, &a)) return TCL_ERROR;
    if (!a.ndir) return hs_os_fail(st, objv, "expected -dir d1 ... (the basic DOFs)");
    exp_drive d = {0};
    if (hs_of_site_drive(st, objv, a.site, a.ndir, a.dirs, &d)) return TCL_ERROR;
    if (hs_of_check_init_stif(st, objv, &a, a.ndir)) return TCL_ERROR;
    exp_basic b = {.n = a.ndir, .shear_dist = -1.0}; /* EETwoNodeLink: the link's own */
    for (int k = 0; k < a.ndir; k++) b.dirs[k] = a.dirs[k] - 1;
    if (d.setup->nsub) /* an Aggregator with actuator geometry: opensees_tcl_exp_aggregate.c */
        return hs_of_exp_link_aggregate(st, interp, objv, &d, &a, &b, 0.0, 0);
    if (d.setup->has_geom || d.n == a.ndir)
        return hs_of_define_link(st, interp, objv, &d, 0.0, &a, a.site, &b);
    /* a setup that drives some of its -dir DOFs: the others are directions of a forceless
     * material, so that the link's basic vector is OpenFresco's (EETwoNodeLink.cpp: numDir) */
    exp_drive all = d;
    unsigned zero = 0;
    all.n = a.ndir;
    for (int p = 0; p < a.ndir; p++) {
        all.dir[p] = a.dirs[p];
        all.mat[p] = 0;
        all.scale[p][0] = all.scale[p][1] = all.scale[p][2] = 1.0;
        for (int k = 0; k < d.n; k++)
            if (d.setup->trial_dof[k] == p)
                all.mat[p] = d.mat[k], memcpy(all.scale[p], d.scale[k], sizeof d.scale[k]);
        if (all.mat[p]) continue;
        if (!(all.mat[p] = hs_of_generic_zero_material(st, objv))) return TCL_ERROR;
        zero |= 1u << p;
    }
    if (hs_of_define_link(st, interp, objv, &all, 0.0, &a, a.site, &b) != TCL_OK) return TCL_ERROR;
    st->m->els[st->m->nels - 1].exp_zero_dirs = zero;
    return TCL_OK;
}

/* The length of the element's chord (0 after raising the error). */
static double chord(hs_os_state *st, Tcl_Obj *const objv[])
{
    int ti, tj;
    if (hs_os_int(st, objv, 3, "iNode", &ti) || hs_os_int(st, objv, 4, "jNode", &tj)) return 0.0;
    const hs_os_node *ni = hs_os_find_node(st->m, ti), *nj = hs_os_find_node(st->m, tj);
    double L = 0.0;
    if (ni && nj)
        L = sqrt((nj->x - ni->x) * (nj->x - ni->x) + (nj->y - ni->y) * (nj->y - ni->y) +
                 (nj->z - ni->z) * (nj->z - ni->z));
    if (!ni || !nj) return hs_os_fail(st, objv, "no node %d (define it first)", ni ? tj : ti), 0.0;
    if (L == 0.0)
        return hs_os_fail(st, objv, "nodes %d and %d coincide: the element needs a length", ti, tj),
               0.0;
    return L;
}

/* expElement truss tag iNode jNode -site siteTag -initStif Kij <-iMod> <-rho rho> (EETruss.cpp:
 * the axial deformation along the chord, linear geometry; -rho lumped, half at each node) */
static int exp_truss(hs_os_state *st, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    exp_args a = {0};
    if (hs_of_exp_options(st, objv, objc, 5, 0, &a)) return TCL_ERROR;
    static const int axial[1] = {1};
    exp_drive d = {0};
    if (hs_of_site_drive(st, objv, a.site, 1, axial, &d)) return TCL_ERROR;
    if (hs_of_check_init_stif(st, objv, &a, 1)) return TCL_ERROR;
    const double L = chord(st, objv);
    if (L <= 0.0) return TCL_ERROR;
    const exp_basic b = {.n = 1, .dirs = {HS_FE_UX}, .shear_dist = 0.5}; /* EETruss: axial */
    return hs_of_define_link(st, interp, objv, &d, a.rho * L, &a, a.site, &b);
}

/* The transformation transfTag (objv[5]) of an expElement beamColumn, or NULL after the error. */
static const hs_os_transf *beam_transf(hs_os_state *st, int objc, Tcl_Obj *const objv[])
{
    int tt;
    if (objc < 6 || hs_os_int(st, objv, 5, "transfTag", &tt))
        return objc < 6 ? (hs_os_fail(st, objv,
                                      "expected 'expElement beamColumn tag iNode jNode transfTag "
                                      "-site siteTag -initStif Kij'"),
                           NULL)
                        : NULL;
    for (int i = 0; i < st->m->ntransfs; i++)
        if (st->m->transfs[i].tag == tt) return &st->m->transfs[i];
    hs_os_fail(st, objv, "no geomTransf %d (define it first)", tt);
    return NULL;
}

/* expElement beamColumn tag iNode jNode transfTag -site siteTag -initStif K(6x6) <-iMod>
 * <-rho rho> <-noRayleigh> in a 3-D model (EEBeamColumn3d.cpp). Basic system B, the cantilever
 * fixed at iNode: [axial, shear y at jNode, rz, shear z at jNode, ry, torsion] in the
 * geomTransf's axes (LinearCrdTransf3d: local y = vecxz x x, z = x x y), reached from the
 * transformation's basic system A by EEBeamColumn3d::update's linear map (db = [dA0, -L dA1,
 * dA2 - dA1, L dA3, dA4 - dA3, dA5]) whatever the transformation: Linear and PDelta take A
 * linearly (B is then the twoNodeLink's directions 1, 2, 6, 3, 5, 4 with shear distances 1 and
 * y' = local y, which is how the element is built), Corotational takes CorotCrdTransf3d's A
 * (OpenFresco 2.8 warns that its nonlinear B <-> A map is not implemented and uses this one);
 * the forces go back through the transformation (PDelta: N / L on the transverse offsets), its
 * tangent -initStif with the transformation's geometric stiffness. -initStif over B with the
 * couplings between its blocks {axial}, {shear y, rz}, {shear z, ry}, {torsion} dropped as
 * EEBeamColumn3d::setInitialStiff drops them (src/fe/fe_link_beam3.c). */
static int exp_beam_column3(hs_os_state *st, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    const hs_os_transf *t = beam_transf(st, objc, objv);
    if (!t) return TCL_ERROR;
    exp_args a = {0};
    if (hs_of_exp_options(st, objv, objc, 6, 0, &a)) return TCL_ERROR;
    static const int system_b[6] = {1, 2, 6, 3, 5, 4}; /* twoNodeLink -dir numbers */
    exp_drive d = {0};
    if (hs_of_site_drive(st, objv, a.site, 6, system_b, &d)) return TCL_ERROR;
    if (hs_of_check_init_stif(st, objv, &a, 6)) return TCL_ERROR;
    const double L = chord(st, objv);
    if (L <= 0.0) return TCL_ERROR;
    int ti = 0, tj = 0;
    Tcl_GetIntFromObj(NULL, objv[3], &ti), Tcl_GetIntFromObj(NULL, objv[4], &tj);
    const hs_os_node *ni = hs_os_find_node(st->m, ti), *nj = hs_os_find_node(st->m, tj);
    const double x[3] = {(nj->x - ni->x) / L, (nj->y - ni->y) / L, (nj->z - ni->z) / L};
    const double *v = t->vecxz, y[3] = {v[1] * x[2] - v[2] * x[1], v[2] * x[0] - v[0] * x[2],
                                        v[0] * x[1] - v[1] * x[0]};
    if (!(sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]) > 1e-12))
        return hs_os_fail(st, objv,
                          "geomTransf %d: its vecxz [%g, %g, %g] is parallel to the element's "
                          "axis; give one off it",
                          t->tag, v[0], v[1], v[2]);
    a.pass[a.npass++] = Tcl_NewStringObj("-orient", -1); /* y' (local x runs from iNode) */
    for (int c = 0; c < 3; c++) a.pass[a.npass++] = Tcl_NewDoubleObj(y[c]);
    a.pass[a.npass++] = Tcl_NewStringObj("-shearDist", -1); /* the shears at jNode */
    a.pass[a.npass++] = Tcl_NewDoubleObj(1.0);
    a.pass[a.npass++] = Tcl_NewDoubleObj(1.0);
    for (int j = 0; a.nk && j < 6; j++) /* EEBeamColumn3d's blocks of -initStif only */
        for (int i = 0; i < 6; i++) {
            static const int block[6] = {0, 1, 1, 2, 2, 3};
            if (block[i] != block[j]) a.k[j * 6 + i] = 0.0;
        }
    const exp_basic b = {.n = 6,
                         .dirs = {HS_FE3_UX, HS_FE3_UY, HS_FE3_RZ, HS_FE3_UZ, HS_FE3_RY, HS_FE3_RX},
                         .shear_dist = 1.0};
    const int links = d.setup->nsub || d.setup->has_geom; /* opensees_tcl_exp_aggregate.c */
    if (t->kind != HS_FE_LINEAR && (links || !a.nk || a.own_tangent))
        return hs_os_fail(st, objv,
                          "geomTransf %d (%s): hysim's 3-D experimental beamColumn takes it with "
                          "its -initStif (6 x 6), without -tangStif, on a setup without "
                          "actuator geometry (hysim's links through one are linear); "
                          "give those, or 'geomTransf Linear %d vecxzX vecxzY vecxzZ'",
                          t->tag, t->kind == HS_FE_PDELTA ? "PDelta" : "Corotational", t->tag);
    if (links) /* setups with actuator geometry: a link per setup */
        return hs_of_exp_link_aggregate(st, interp, objv, &d, &a, &b, a.rho * L, 1);
    if (hs_of_define_link(st, interp, objv, &d, a.rho * L, &a, a.site, &b) != TCL_OK)
        return TCL_ERROR;
    return hs_of_exp_beam(st, objv, t->kind); /* opensees_tcl_bearing.c */
}

/* expElement beamColumn tag iNode jNode transfTag -site siteTag -initStif K(3x3) <-iMod>
 * <-rho rho> <-noRayleigh> (EEBeamColumn2d.cpp, a 2-D model): with a Linear transformation its
 * basic system B is the cantilever fixed at iNode, db = [axial, (v_j - v_i) - L theta_i,
 * theta_j - theta_i] in the chord's axes; the OneActuator's DOF among them is the twoNodeLink's
 * direction 1, 2 (its shear taken at jNode: -shearDist 1, OpenSees' TwoNodeLink measures the
 * shear deformation as v_j - v_i - sD L theta_i - (1 - sD) L theta_j) or 3. */
static int exp_beam_column(hs_os_state *st, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    if (st->m->ndm == 3 && st->m->ndf == 6) return exp_beam_column3(st, interp, objc, objv);
    if (st->m->ndm != 2 || st->m->ndf != 3)
        return hs_os_fail(st, objv,
                          "beamColumn: hysim maps the 2-D element (-ndm 2 -ndf 3) and the 3-D one "
                          "(-ndm 3 -ndf 6); this model is -ndm %d -ndf %d",
                          st->m->ndm, st->m->ndf);
    const hs_os_transf *t = beam_transf(st, objc, objv);
    if (!t) return TCL_ERROR;
    const int tt = t->tag;
    exp_args a = {0};
    if (hs_of_exp_options(st, objv, objc, 6, 0, &a)) return TCL_ERROR;
    if (!a.nk && t->kind != HS_FE_LINEAR)
        return hs_os_fail(st, objv,
                          "geomTransf %d: an experimental beamColumn with nonlinear geometry "
                          "needs its -initStif (EEBeamColumn2d's stiffness and elastic axial "
                          "force come from it)",
                          tt);
    static const int system_b[3] = {1, 2, 3}; /* axial, shear, moment */
    exp_drive d = {0};
    if (hs_of_site_drive(st, objv, a.site, 3, system_b, &d)) return TCL_ERROR;
    if (hs_of_check_init_stif(st, objv, &a, 3)) return TCL_ERROR;
    const double L = chord(st, objv);
    if (L <= 0.0) return TCL_ERROR;
    for (int k = 0; k < d.n; k++)
        if (d.dir[k] == 2) { /* the shear at jNode */
            a.pass[a.npass++] = Tcl_NewStringObj("-shearDist", -1);
            a.pass[a.npass++] = Tcl_NewDoubleObj(1.0);
        }
    /* basic system B: [axial, (v_j - v_i) - L theta_i, theta_j - theta_i], the link's axial,
     * shear at jNode (shear distance 1) and moment */
    const exp_basic b = {.n = 3, .dirs = {HS_FE_UX, HS_FE_UY, HS_FE_RZ}, .shear_dist = 1.0};
    if (hs_of_define_link(st, interp, objv, &d, a.rho * L, &a, a.site, &b) != TCL_OK)
        return TCL_ERROR;
    return hs_of_exp_beam(st, objv, t->kind); /* opensees_tcl_bearing.c */
}

/* expElement TYPE tag iNode jNode ... */
static int cmd_exp_element(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    if (!hs_os_need_model(st, objv)) return TCL_ERROR;
    if (objc < 5) return hs_os_fail(st, objv, "expected 'expElement type tag iNode jNode ...'");
    const char *type = Tcl_GetString(objv[1]);
    if (!strcmp(type, "twoNodeLink")) return exp_link(st, interp, objc, objv);
    if (!strcmp(type, "truss")) return exp_truss(st, interp, objc, objv);
    if (!strcmp(type, "beamColumn")) return exp_beam_column(st, interp, objc, objv);
    if (!strcmp(type, "generic")) return hs_of_exp_generic(st, objc, objv);
    if (!strcmp(type, "invertedVBrace"))
        return hs_os_fail(st, objv,
                          "type 'invertedVBrace' is not supported by hysim: OpenFresco's "
                          "EEInvertedVBrace2d needs six load-cell forces from its site (Fx, Fy, "
                          "M of each brace, split between the braces by their directions: "
                          "EEInvertedVBrace2d.cpp), and a SimUniaxialMaterials control measures "
                          "one force per actuator (OpenFresco itself stops at these sizes: "
                          "ECSimUniaxialMaterials::setSize), whose resultant does not say how "
                          "the two braces share it; give each brace its own experimental "
                          "element (expElement truss or twoNodeLink), or hold the braces' top "
                          "with expElement twoNodeLink or generic on an InvertedVBrace2d setup "
                          "(the actuators' resultant)");
    if (!strcmp(type, "bearing")) return hs_of_exp_bearing(st, interp, objc, objv);
    if (!strcmp(type, "corotTruss"))
        return hs_os_fail(
            st, objv,
            "type '%s' is not supported in a script yet (it has twoNodeLink, "
            "truss, beamColumn, generic and bearing); give the experimental element in a test "
            "file's experimental "
            "section (docs/testfile.md)",
            type);
    return hs_os_fail(st, objv,
                      "type '%s' is not supported by hysim (it has twoNodeLink, truss, beamColumn, "
                      "generic, bearing)",
                      type);
}

/* Commands that change nothing in a perfect virtual laboratory: one line each. */
static int cmd_exp_ignored(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    hs_os_state *st = STATE(cd);
    const char *name = Tcl_GetString(objv[0]);
    const char *why = !strcmp(name, "expTangentStiff")
                          ? "the perfect specimen's own tangent is used"
                      : !strcmp(name, "expRecorder")
                          ? "the element recorders ctrlDisp, daqDisp, daqForce give the same"
                          : "OpenFresco's commands are built into hysim";
    hs_os_ignored_once(st, name, why);
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/* wipeExp: OpenFresco's controls, setups and sites are gone (the elements stay, as OpenSees'
 * domain keeps them until `wipe`). */
static int cmd_wipe_exp(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)objc, (void)objv;
    hs_os_fresco_free(STATE(cd));
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/* packageVersion: the OpenFresco version whose commands hysim follows. */
static int cmd_package_version(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    (void)cd, (void)objc, (void)objv;
    Tcl_SetObjResult(interp, Tcl_NewStringObj("2.8 (hysim)", -1));
    return TCL_OK;
}

int hs_os_openfresco_commands(hs_os_state *st)
{
    static const struct {
        const char *name;
        Tcl_ObjCmdProc *fn;
    } commands[] = {
        {"expControl", cmd_exp_control},
        {"expSetup", hs_of_cmd_exp_setup},
        {"expSite", cmd_exp_site},
        {"expElement", cmd_exp_element},
        {"expTangentStiff", cmd_exp_ignored},
        {"expRecorder", cmd_exp_ignored},
        {"expControlPoint", hs_of_cmd_exp_control_point}, /* opensees_tcl_exp_cp.c */
        {"loadPackage", cmd_exp_ignored},
        {"wipeExp", cmd_wipe_exp},
        {"removeExp", hs_of_cmd_remove_exp},
        {"packageVersion", cmd_package_version},
    };
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!Tcl_CreateObjCommand(st->interp, commands[i].name, commands[i].fn, st, NULL))
            return HS_ENOMEM;
    return hs_of_expfilter_commands(st); /* expSignalFilter (opensees_tcl_expfilter.c) */
}
