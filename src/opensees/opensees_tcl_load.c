/* OpenSees' damping and loading commands in hysim's interpreter (opensees_tcl.h): rayleigh and
 * region -rayleigh (the factors of the nodes and elements that exist when they run, as in
 * OpenSees), timeSeries (Path from a file; Linear and Constant for gravity patterns), pattern
 * UniformExcitation (the ground motion when the test file gives none), pattern Plain and load
 * (gravity loads held constant: their axial forces enter the P-Delta members). */
#include "opensees_analysis.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define STATE(cd) ((hs_os_state *)(cd))

static int rayleigh_args(hs_os_state *st, Tcl_Obj *const objv[], int i, hs_os_rayleigh *r)
{
    if (hs_os_num(st, objv, i, "alphaM", &r->alphaM) ||
        hs_os_num(st, objv, i + 1, "betaK", &r->betaK) ||
        hs_os_num(st, objv, i + 2, "betaKinit", &r->betaKinit) ||
        hs_os_num(st, objv, i + 3, "betaKcomm", &r->betaKcomm))
        return TCL_ERROR;
    return TCL_OK;
}

int hs_os_cmd_rayleigh(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    hs_os_rayleigh r;
    if (objc != 5)
        return hs_os_fail(st, objv, "expected 'rayleigh alphaM betaK betaKinit betaKcomm'");
    if (rayleigh_args(st, objv, 1, &r)) return TCL_ERROR;
    /* OpenSees: every node and element that exists now (a later one has no damping) */
    for (int i = 0; i < st->m->nnodes; i++) st->m->nodes[i].ray = r;
    for (int i = 0; i < st->m->nels; i++) st->m->els[i].ray = r;
    st->m->has_rayleigh = 1;
    hs_os_where(st, st->m->rayleigh_where, sizeof st->m->rayleigh_where);
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/* Tags after objv[*i] until the next option; a range a b when `range`. */
static int tag_list(hs_os_state *st, Tcl_Obj *const objv[], int objc, int *i, int range, int **tags,
                    int *n)
{
    const char *opt = Tcl_GetString(objv[*i]);
    int a, b;
    if (range) {
        if (*i + 2 >= objc || hs_os_int(st, objv, *i + 1, opt, &a) ||
            hs_os_int(st, objv, *i + 2, opt, &b))
            return hs_os_fail(st, objv, "%s: expected two tags (first last)", opt);
        for (int t = a; t <= b; t++) {
            int *slot = hs_os_push((void **)tags, n, sizeof *slot);
            if (!slot) return hs_os_fail(st, objv, "out of memory");
            *slot = t;
        }
        *i += 3;
        return TCL_OK;
    }
    for ((*i)++; *i < objc && Tcl_GetIntFromObj(NULL, objv[*i], &a) == TCL_OK; (*i)++) {
        int *slot = hs_os_push((void **)tags, n, sizeof *slot);
        if (!slot) return hs_os_fail(st, objv, "out of memory");
        *slot = a;
    }
    return TCL_OK;
}

static int contains(const int *tags, int n, int tag)
{
    for (int i = 0; i < n; i++)
        if (tags[i] == tag) return 1;
    return 0;
}

/* region tag <-ele ...> <-eleOnly ...> <-eleRange a b> <-node ...> <-nodeOnly ...>
 * <-nodeRange a b> -rayleigh alphaM betaK betaKinit betaKcomm. As OpenSees' MeshRegion: -ele
 * takes the elements' nodes too, -node the elements whose nodes are all in the region; the
 * -Only forms do not. */
int hs_os_cmd_region(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    hs_os_model *m = st->m;
    int *eles = NULL, *nodes = NULL, ne = 0, nn = 0, ele_only = 0, node_only = 0, has_ray = 0;
    hs_os_rayleigh r = {0, 0, 0, 0};
    int rc = objc < 3 ? hs_os_fail(st, objv, "expected 'region tag -ele ... -rayleigh ...'") : 0;
    for (int i = 2; !rc && i < objc;) {
        const char *opt = Tcl_GetString(objv[i]);
        if (!strcmp(opt, "-ele") || !strcmp(opt, "-eleOnly")) {
            ele_only |= !strcmp(opt, "-eleOnly");
            rc = tag_list(st, objv, objc, &i, 0, &eles, &ne);
        } else if (!strcmp(opt, "-eleRange") || !strcmp(opt, "-eleOnlyRange")) {
            ele_only |= !strcmp(opt, "-eleOnlyRange");
            rc = tag_list(st, objv, objc, &i, 1, &eles, &ne);
        } else if (!strcmp(opt, "-node") || !strcmp(opt, "-nodeOnly")) {
            node_only |= !strcmp(opt, "-nodeOnly");
            rc = tag_list(st, objv, objc, &i, 0, &nodes, &nn);
        } else if (!strcmp(opt, "-nodeRange") || !strcmp(opt, "-nodeOnlyRange")) {
            node_only |= !strcmp(opt, "-nodeOnlyRange");
            rc = tag_list(st, objv, objc, &i, 1, &nodes, &nn);
        } else if (!strcmp(opt, "-rayleigh")) {
            rc = i + 4 < objc ? rayleigh_args(st, objv, i + 1, &r)
                              : hs_os_fail(st, objv,
                                           "-rayleigh: expected alphaM betaK "
                                           "betaKinit betaKcomm");
            has_ray = 1;
            i += 5;
        } else
            rc = hs_os_fail(st, objv,
                            "option '%s' is not supported by hysim (region knows -ele, "
                            "-eleOnly, -eleRange, -node, -nodeOnly, -nodeRange, "
                            "-rayleigh)",
                            opt);
    }
    if (!rc && has_ray) {
        for (int k = 0; k < m->nels; k++) {
            hs_os_element *e = &m->els[k];
            const int in = contains(eles, ne, e->tag) ||
                           (!node_only && contains(nodes, nn, e->ni) && contains(nodes, nn, e->nj));
            if (in) e->ray = r;
        }
        for (int k = 0; k < m->nnodes; k++) {
            hs_os_node *n = &m->nodes[k];
            int in = contains(nodes, nn, n->tag);
            for (int j = 0; !in && !ele_only && j < m->nels; j++)
                in = contains(eles, ne, m->els[j].tag) &&
                     (m->els[j].ni == n->tag || m->els[j].nj == n->tag);
            if (in) n->ray.alphaM = r.alphaM;
        }
        m->has_rayleigh = 1;
        hs_os_where(st, m->rayleigh_where, sizeof m->rayleigh_where);
    }
    hs_free(eles);
    hs_free(nodes);
    if (rc) return TCL_ERROR;
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/* timeSeries TYPE tag ... (opensees_series.c) */
int hs_os_cmd_time_series(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    if (objc < 3) return hs_os_fail(st, objv, "expected 'timeSeries Path tag -dt dt -filePath f'");
    hs_os_series s = {0};
    if (hs_os_int(st, objv, 2, "tag", &s.tag)) return TCL_ERROR;
    for (int i = 0; i < st->m->nseries; i++)
        if (st->m->series[i].tag == s.tag)
            return hs_os_fail(st, objv, "timeSeries %d is already defined", s.tag);
    if (hs_os_series_parse(st, objv, Tcl_GetString(objv[1]), objv, 3, objc, &s) ||
        hs_os_series_add(st, objv, &s))
        return TCL_ERROR;
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/* A series argument: a tag, or an inline spec ("Series -dt ... -filePath ...", "Linear"), which
 * joins the model's series with no tag of its own. */
static int series_arg(hs_os_state *st, Tcl_Obj *const objv[], int i, hs_os_series *out)
{
    int tag;
    if (Tcl_GetIntFromObj(NULL, objv[i], &tag) == TCL_OK) {
        for (int k = 0; k < st->m->nseries; k++)
            if (st->m->series[k].tag == tag) return *out = st->m->series[k], TCL_OK;
        return hs_os_fail(st, objv, "no timeSeries %d (define it first)", tag);
    }
    Tcl_Obj **w;
    int n;
    if (Tcl_ListObjGetElements(NULL, objv[i], &n, &w) != TCL_OK || n < 1)
        return hs_os_fail(st, objv, "expected a timeSeries tag or spec, got '%.60s'",
                          Tcl_GetString(objv[i]));
    *out = (hs_os_series){.tag = INT_MIN};
    if (hs_os_series_parse(st, objv, Tcl_GetString(w[0]), w, 1, n, out) ||
        hs_os_series_add(st, objv, out))
        return TCL_ERROR;
    return TCL_OK;
}

/* The pattern of the script's own analysis (opensees_tcl_analysis.c): its series and -fact. */
static int add_pattern(hs_os_state *st, Tcl_Obj *const objv[], int tag, const hs_os_series *s,
                       double fact, int uniform, int dir)
{
    for (int k = 0; k < st->m->npatterns; k++)
        if (st->m->patterns[k].tag == tag && !st->m->patterns[k].removed)
            return hs_os_fail(st, objv, "pattern %d is already defined", tag);
    hs_os_pattern *p = hs_os_push((void **)&st->m->patterns, &st->m->npatterns, sizeof *p);
    if (!p) return hs_os_fail(st, objv, "out of memory");
    *p = (hs_os_pattern){
        .tag = tag, .series = s->index, .fact = fact, .uniform = uniform, .dir = dir};
    return TCL_OK;
}

static int uniform_excitation(hs_os_state *st, int objc, Tcl_Obj *const objv[])
{
    hs_os_model *m = st->m;
    int dir;
    if (objc < 6)
        return hs_os_fail(st, objv,
                          "expected 'pattern UniformExcitation tag dir -accel "
                          "series <-fact f>'");
    if (hs_os_int(st, objv, 3, "dir", &dir)) return TCL_ERROR;
    if (dir < 1 || dir > m->ndm) /* OpenSees: dir is the DOF, 1 to ndm the translations */
        return hs_os_fail(st, objv, "dir %d: the ground of a -ndm %d model moves in %s", dir,
                          m->ndm,
                          m->ndm == 1   ? "1 (x)"
                          : m->ndm == 2 ? "1 (x) or 2 (y)"
                                        : "1 (x), 2 (y) or 3 (z)");
    double fact = 1.0, v0 = 0.0;
    int has_accel = 0;
    hs_os_series s;
    for (int i = 4; i < objc; i += 2) {
        const char *opt = Tcl_GetString(objv[i]);
        if (i + 1 >= objc) return hs_os_fail(st, objv, "%s: expected a value", opt);
        if (!strcmp(opt, "-accel") || !strcmp(opt, "-acceleration")) {
            if (series_arg(st, objv, i + 1, &s)) return TCL_ERROR;
            if (!st->live && (s.kind != HS_OS_SERIES_PATH || !s.path[0] || s.times))
                return hs_os_fail(st, objv,
                                  "-accel: a ground motion is a Path series of a file at -dt "
                                  "(the test file's analysis reads records at a constant step)");
            has_accel = 1;
        } else if (!strcmp(opt, "-fact") || !strcmp(opt, "-factor")) {
            if (hs_os_num(st, objv, i + 1, opt, &fact)) return TCL_ERROR;
        } else if (!strcmp(opt, "-vel0") || !strcmp(opt, "-initialVel")) {
            if (hs_os_num(st, objv, i + 1, opt, &v0)) return TCL_ERROR;
            if (v0 != 0.0 && !st->live)
                return hs_os_fail(st, objv, "%s %g: not supported by hysim (it starts at rest)",
                                  opt, v0);
        } else
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (UniformExcitation "
                              "knows -accel and -fact; -vel and -disp records are not "
                              "supported)",
                              opt);
    }
    if (!has_accel) return hs_os_fail(st, objv, "expected -accel SERIES");
    int tag;
    if (hs_os_int(st, objv, 2, "tag", &tag) || add_pattern(st, objv, tag, &s, fact, 1, dir - 1))
        return TCL_ERROR;
    m->patterns[m->npatterns - 1].vel0 = v0;
    if (st->live) return TCL_OK; /* the script's analysis applies every one */
    if (m->has_excitation)
        return hs_os_fail(st, objv,
                          "a second UniformExcitation (the first at %s): hysim takes "
                          "one ground-motion component",
                          m->excitation_where);
    m->has_excitation = 1;
    m->excitation_dir = dir - 1;
    m->excitation = s;
    m->excitation.factor *= fact;
    hs_os_where(st, m->excitation_where, sizeof m->excitation_where);
    return TCL_OK;
}

/* pattern Plain tag series <-fact f> {body}: the body runs; its `load`s are gravity loads. */
static int plain(hs_os_state *st, int objc, Tcl_Obj *const objv[])
{
    hs_os_series s;
    double fact = 1.0;
    if (objc != 5 && objc != 7)
        return hs_os_fail(st, objv, "expected 'pattern Plain tag series <-fact f> {load ...}'");
    if (series_arg(st, objv, 3, &s)) return TCL_ERROR;
    if (!st->live && s.kind != HS_OS_SERIES_LINEAR && s.kind != HS_OS_SERIES_CONSTANT)
        return hs_os_fail(st, objv,
                          "not yet supported by hysim: a Plain pattern of a Path series "
                          "(time-varying loads); hysim holds Plain loads constant as "
                          "gravity (Linear or Constant series)");
    if (objc == 7) {
        const char *opt = Tcl_GetString(objv[4]);
        if (strcmp(opt, "-fact") && strcmp(opt, "-factor"))
            return hs_os_fail(st, objv, "option '%s': expected -fact", opt);
        if (hs_os_num(st, objv, 5, "-fact", &fact)) return TCL_ERROR;
    }
    if (st->in_plain) return hs_os_fail(st, objv, "a pattern inside a pattern");
    int tag;
    if (hs_os_int(st, objv, 2, "tag", &tag) || add_pattern(st, objv, tag, &s, fact, 0, 0))
        return TCL_ERROR;
    st->in_plain = 1;
    st->plain_pattern = st->m->npatterns - 1;
    st->pattern_fact = fact;
    st->plain_factor = fact * s.factor;
    const int code = Tcl_EvalObjEx(st->interp, objv[objc - 1], 0);
    st->in_plain = 0;
    return code == TCL_ERROR ? TCL_ERROR : TCL_OK;
}

/* pattern MultipleSupport tag {body}: the body's groundMotion and imposedMotion commands
 * (docs/opensees_tcl.md; hysim's multi-support excitation, docs/fe_model.md). */
static int multiple_support(hs_os_state *st, int objc, Tcl_Obj *const objv[])
{
    if (objc != 4)
        return hs_os_fail(st, objv,
                          "expected 'pattern MultipleSupport tag {groundMotion ...; "
                          "imposedMotion ...}'");
    if (st->in_plain || st->in_multi) return hs_os_fail(st, objv, "a pattern inside a pattern");
    if (st->m->nimposed)
        return hs_os_fail(st, objv,
                          "a second MultipleSupport pattern: give every imposedMotion in one");
    st->in_multi = 1;
    if (hs_os_int(st, objv, 2, "tag", &st->multi_tag)) return st->in_multi = 0, TCL_ERROR;
    const int code = Tcl_EvalObjEx(st->interp, objv[3], 0);
    st->in_multi = 0;
    if (code == TCL_ERROR) return TCL_ERROR;
    if (st->m->nimposed == 0)
        return hs_os_fail(st, objv, "the pattern has no imposedMotion: nothing moves");
    return TCL_OK;
}

/* The script's own analysis: OpenSees' GroundMotion of any series given as -disp, -vel, -accel
 * (tags or inline specs), -fact, -dtInt (TclGroundMotionCommand.cpp); opensees_ground_motion.c
 * makes the missing series. */
static int live_ground_motion(hs_os_state *st, int objc, Tcl_Obj *const objv[], hs_os_gmotion *g)
{
    static const char *const names[3][2] = {
        {"-disp", "-displacement"}, {"-vel", "-velocity"}, {"-accel", "-acceleration"}};
    g->fact = 1.0;
    g->dt_int = 0.01;
    for (int k = 0; k < 3; k++) g->ser[k] = -1;
    for (int i = 3; i < objc; i += 2) {
        const char *opt = Tcl_GetString(objv[i]);
        if (i + 1 >= objc) return hs_os_fail(st, objv, "%s: expected a value", opt);
        int kind = -1;
        for (int k = 0; k < 3; k++)
            if (!strcmp(opt, names[k][0]) || !strcmp(opt, names[k][1])) kind = k;
        hs_os_series s;
        if (kind >= 0) {
            if (series_arg(st, objv, i + 1, &s)) return TCL_ERROR;
            g->ser[kind] = s.index;
        } else if (!strcmp(opt, "-fact") || !strcmp(opt, "-factor")) {
            if (hs_os_num(st, objv, i + 1, opt, &g->fact)) return TCL_ERROR;
        } else if (!strcmp(opt, "-dtInt") || !strcmp(opt, "-dtIntegrator") ||
                   !strcmp(opt, "-deltaT")) {
            if (hs_os_num(st, objv, i + 1, opt, &g->dt_int)) return TCL_ERROR;
        } else if (!strcmp(opt, "-int") || !strcmp(opt, "-integrator")) {
            if (strcmp(Tcl_GetString(objv[i + 1]), "Trapezoidal"))
                return hs_os_fail(st, objv,
                                  "%s '%s': hysim integrates with OpenSees' default, Trapezoidal",
                                  opt, Tcl_GetString(objv[i + 1]));
        } else
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (groundMotion knows -disp, "
                              "-vel, -accel, -fact, -dtInt, -int Trapezoidal)",
                              opt);
    }
    if (g->ser[0] < 0 && g->ser[1] < 0 && g->ser[2] < 0)
        return hs_os_fail(st, objv, "expected -disp, -vel or -accel SERIES");
    return hs_os_ground_motion_complete(st, objv, g);
}

/* groundMotion tag Plain|Series -accel series | -disp series <-fact f> (inside MultipleSupport) */
int hs_os_cmd_ground_motion(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    if (!st->in_multi)
        return hs_os_fail(st, objv,
                          "a groundMotion belongs inside 'pattern MultipleSupport tag { ... }'");
    const char *type = objc > 2 ? Tcl_GetString(objv[2]) : "";
    if (objc < 5 || (strcmp(type, "Plain") && strcmp(type, "Series")))
        return hs_os_fail(st, objv,
                          "expected 'groundMotion tag Plain -accel series | -disp series "
                          "<-fact f>' (the Interpolated form is not supported)");
    hs_os_gmotion g = {0};
    if (hs_os_int(st, objv, 1, "tag", &g.tag)) return TCL_ERROR;
    for (int k = 0; k < st->m->ngms; k++)
        if (st->m->gms[k].tag == g.tag)
            return hs_os_fail(st, objv, "groundMotion %d is already defined", g.tag);
    double fact = 1.0;
    int given = 0;
    if (st->live && live_ground_motion(st, objc, objv, &g)) return TCL_ERROR;
    for (int i = 3; !st->live && i < objc; i += 2) {
        const char *opt = Tcl_GetString(objv[i]);
        if (i + 1 >= objc) return hs_os_fail(st, objv, "%s: expected a value", opt);
        const int acc = !strcmp(opt, "-accel") || !strcmp(opt, "-acceleration");
        if (acc || !strcmp(opt, "-disp") || !strcmp(opt, "-displacement")) {
            if (given++)
                return hs_os_fail(st, objv,
                                  "give one of -accel and -disp (hysim derives the others)");
            if (series_arg(st, objv, i + 1, &g.s)) return TCL_ERROR;
            if (!g.s.path[0])
                return hs_os_fail(st, objv, "%s: a ground motion is a Path series", opt);
            g.disp = !acc;
        } else if (!strcmp(opt, "-fact") || !strcmp(opt, "-factor")) {
            if (hs_os_num(st, objv, i + 1, opt, &fact)) return TCL_ERROR;
        } else
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (groundMotion knows -accel, "
                              "-disp and -fact; not -vel)",
                              opt);
    }
    if (!given && !st->live) return hs_os_fail(st, objv, "expected -accel SERIES or -disp SERIES");
    g.s.factor *= fact;
    hs_os_gmotion *slot = hs_os_push((void **)&st->m->gms, &st->m->ngms, sizeof *slot);
    if (!slot) return hs_os_fail(st, objv, "out of memory");
    *slot = g;
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/* The script's own analysis: an imposedMotion of a fixed DOF (OpenSees' usual support motion:
 * the pattern's SP constraint overrides the fix's). The live model gives the DOF an equation
 * that the motion holds (built after an analysis: rebuilt at the next analyze, the elements'
 * state carried over); a DOF that a constraint reads from is not moved (its slaves would not
 * follow). */
static int fixed_support(hs_os_state *st, Tcl_Obj *const objv[], int node, int dof)
{
    const hs_os_model *m = st->m;
    if (st->an && st->an->lv) st->an->rebuild = st->an->sp_rebuild = 1;
    int master = 0;
    for (int k = 0; k < m->nequals; k++) master |= m->equals[k].master == node;
    for (int k = 0; k < m->nrigids; k++) master |= m->rigids[k].master == node;
    if (master)
        return hs_os_fail(st, objv,
                          "node %d dof %d: the node retains a constraint (equalDOF, "
                          "rigidDiaphragm, rigidLink); moving it as a support is not yet in the "
                          "script's own analysis",
                          node, dof + 1);
    return TCL_OK;
}

/* imposedMotion node dof gmTag (inside MultipleSupport): with the test file's analysis the DOF
 * must be fixed (a moving support, fe_support.c); in the script's own analysis it is an SP
 * constraint, on a free DOF or a fixed one, as OpenSees' (opensees_imposed.c). */
int hs_os_cmd_imposed_motion(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    if (!st->in_multi)
        return hs_os_fail(st, objv,
                          "an imposedMotion belongs inside 'pattern MultipleSupport tag { ... }'");
    if (objc != 4) return hs_os_fail(st, objv, "expected 'imposedMotion node dof gmTag'");
    hs_os_imposed im = {0};
    int gm;
    if (hs_os_int(st, objv, 1, "node", &im.node) || hs_os_int(st, objv, 2, "dof", &im.dof) ||
        hs_os_int(st, objv, 3, "gmTag", &gm))
        return TCL_ERROR;
    const hs_os_node *n = hs_os_find_node(st->m, im.node);
    if (!n) return hs_os_fail(st, objv, "no node %d", im.node);
    if (im.dof < 1 || im.dof > st->m->ndf)
        return hs_os_fail(st, objv, "dof %d: expected 1 to %d (-ndf %d)", im.dof, st->m->ndf,
                          st->m->ndf);
    im.dof--;
    if (!n->fix[im.dof] && !st->live)
        return hs_os_fail(st, objv,
                          "node %d dof %d is free; an imposed motion drives a fixed DOF (fix it)",
                          im.node, im.dof + 1);
    if (n->fix[im.dof] && st->live && fixed_support(st, objv, im.node, im.dof)) return TCL_ERROR;
    if (st->live) hs_os_find_node(st->m, im.node)->sp[im.dof] = 1;
    for (int k = 0; k < st->m->nimposed; k++)
        if (st->m->imposed[k].node == im.node && st->m->imposed[k].dof == im.dof)
            return hs_os_fail(st, objv, "node %d dof %d has an imposedMotion already (at %s)",
                              im.node, im.dof + 1, st->m->imposed[k].where);
    const hs_os_gmotion *g = NULL;
    for (int k = 0; k < st->m->ngms; k++)
        if (st->m->gms[k].tag == gm) g = &st->m->gms[k], im.gm = k;
    if (!g)
        return hs_os_fail(st, objv, "no groundMotion %d (define it first, in this pattern)", gm);
    if (st->m->nimposed == HS_OS_MAX_IMPOSED)
        return hs_os_fail(st, objv, "at most %d imposed motions", HS_OS_MAX_IMPOSED);
    im.disp = g->disp;
    im.s = g->s;
    im.pattern = st->multi_tag;
    hs_os_where(st, im.where, sizeof im.where);
    hs_os_imposed *slot = hs_os_push((void **)&st->m->imposed, &st->m->nimposed, sizeof *slot);
    if (!slot) return hs_os_fail(st, objv, "out of memory");
    *slot = im;
    Tcl_ResetResult(interp);
    return TCL_OK;
}

int hs_os_cmd_pattern(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    if (!hs_os_need_model(st, objv)) return TCL_ERROR;
    if (objc < 4) return hs_os_fail(st, objv, "expected 'pattern type tag ...'");
    const char *type = Tcl_GetString(objv[1]);
    int tag, rc;
    if (hs_os_int(st, objv, 2, "tag", &tag)) return TCL_ERROR;
    if (!strcmp(type, "UniformExcitation"))
        rc = uniform_excitation(st, objc, objv);
    else if (!strcmp(type, "Plain"))
        rc = plain(st, objc, objv);
    else if (!strcmp(type, "MultipleSupport") || !strcmp(type, "MultiSupport") ||
             !strcmp(type, "MultipleSupportExcitation")) /* TclPatternCommand.cpp's names */
        rc = multiple_support(st, objc, objv);
    else
        rc = hs_os_fail(st, objv,
                        "type '%s' is not supported by hysim (UniformExcitation, Plain, "
                        "MultipleSupport)",
                        type);
    if (rc) return TCL_ERROR;
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/* load node f1 ... fndf <-const> (inside pattern Plain). -const: the load acts whole at every
 * time, neither the series nor the pattern's -fact scaling it (OpenSees' NodalLoad with
 * konstant, SRC/domain/load/NodalLoad.cpp). */
int hs_os_cmd_load(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = STATE(cd);
    if (!st->in_plain)
        return hs_os_fail(st, objv, "a load belongs inside 'pattern Plain tag series { ... }'");
    const int ndf = st->m->ndf;
    const int constant = objc == 3 + ndf && !strcmp(Tcl_GetString(objv[objc - 1]), "-const");
    if (objc != 2 + ndf + constant)
        return hs_os_fail(st, objv,
                          "expected 'load node f1 ... f%d <-const>' (-ndf %d; -pattern is not "
                          "supported)",
                          ndf, ndf);
    int tag;
    if (hs_os_int(st, objv, 1, "node", &tag)) return TCL_ERROR;
    if (!hs_os_find_node(st->m, tag)) return hs_os_fail(st, objv, "no node %d", tag);
    hs_os_load *l = hs_os_push((void **)&st->m->loads, &st->m->nloads, sizeof *l);
    if (!l) return hs_os_fail(st, objv, "out of memory");
    l->node = tag;
    l->pattern = st->plain_pattern;
    l->constant = constant;
    for (int d = 0; d < ndf; d++) {
        if (hs_os_num(st, objv, 2 + d, "force", &l->f[d])) return st->m->nloads--, TCL_ERROR;
        l->raw[d] = l->f[d];
        l->fp[d] = l->f[d] * (constant ? 1.0 : st->pattern_fact);
        if (!constant) l->f[d] *= st->plain_factor;
    }
    l->kp = constant ? 1.0 : st->pattern_fact;
    l->kf = constant ? 1.0 : st->plain_factor;
    Tcl_ResetResult(interp);
    return TCL_OK;
}
