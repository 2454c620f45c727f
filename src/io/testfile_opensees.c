/* `structure.model: {opensees: SCRIPT, excitation: x|y}`: an OpenSees Tcl script as the frame
 * model (opensees_tcl.h, docs/opensees_tcl.md). The script is an input of the run (hashed into
 * checkpoints, with every file it sources and its record). Its Rayleigh damping and its pattern
 * UniformExcitation are used when the test file gives no structure.damping / ground_motion: the
 * test file wins, and a line says what of the script was left out. */
#include "opensees/opensees_tcl.h"
#include "testfile_impl.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* structure.model.time_limit (seconds > 0) and source_paths (folders, relative to the test
 * file's folder, that the script's `source` may read besides its own): the script's bounds. */
static int script_limits(hs_tf *L, const hs_ynode *node, hs_os_limits *lim, char (*roots)[2048])
{
    const hs_ynode *t = hs_ynode_get(node, "time_limit"), *p = hs_ynode_get(node, "source_paths");
    int rc = t ? hs_tf_num(L, t, "structure.model.time_limit", &lim->seconds) : 0;
    if (!rc && t && !(lim->seconds > 0.0))
        rc = hs_tf_fail(L, t,
                        "structure.model.time_limit: %g: give the seconds the script may "
                        "run, above 0 (default %g)",
                        lim->seconds, HS_OS_DEFAULT_SECONDS);
    if (rc || !p) return rc;
    if (p->kind != HS_YNODE_SEQUENCE || p->nitems > HS_OS_MAX_ROOTS)
        return hs_tf_fail(L, p,
                          "structure.model.source_paths: expected a list of at most %d folders",
                          HS_OS_MAX_ROOTS);
    for (size_t i = 0; !rc && i < p->nitems; i++) {
        char rel[1024];
        rc = hs_tf_str(L, p->items[i], "structure.model.source_paths", rel, sizeof rel);
        struct stat sb;
        if (!rc)
            snprintf(roots[i], sizeof roots[i], "%s%s%s",
                     rel[0] == '/' || !L->dir[0] || p->items[i]->origin ? "" : L->dir,
                     rel[0] == '/' || !L->dir[0] || p->items[i]->origin ? "" : "/", rel);
        if (!rc && (stat(roots[i], &sb) != 0 || !S_ISDIR(sb.st_mode)))
            rc = hs_tf_fail(L, p->items[i],
                            "structure.model.source_paths: '%s' is not a folder (paths are "
                            "relative to the test file's folder)",
                            roots[i]);
        lim->roots[lim->nroots++] = roots[i];
    }
    return rc;
}

int hs_tf_opensees_model(hs_tf *L, const hs_ynode *node)
{
    static const char *const keys[] = {"opensees", "excitation", "time_limit", "source_paths"};
    const char *what = "structure.model";
    const hs_ynode *v = hs_ynode_get(node, "opensees"), *xn = hs_ynode_get(node, "excitation");
    char path[2048], roots[HS_OS_MAX_ROOTS][2048];
    hs_os_limits lim = {.seconds = 0.0};
    int rc = hs_tf_mapping(L, node, what, keys, 4);
    if (!rc) rc = hs_tf_input(L, v, "structure.model.opensees", path, sizeof path);
    if (!rc) rc = script_limits(L, node, &lim, roots);
    if (rc) return rc;
    hs_os_model m;
    rc = hs_opensees_tcl_run_limited(L->ctx, path, &lim, &m);
    if (rc) return hs_tf_wrap(L, v, "structure.model.opensees", rc);
    hs_tf_script *s = &L->script;
    s->set = 1; /* L->damping (structure.damping) is known: testfile_structure.c */
    snprintf(s->name, sizeof s->name, "%s", path);
    for (int i = 1; !rc && i < m.ninputs; i++)
        rc = hs_tf_add_input(L, m.inputs[i], "structure.model.opensees: source");
    int dir = m.has_excitation ? m.excitation_dir : HS_FE_UX;
    hs_fe *fe = NULL;
    const hs_os_element *remote = rc ? NULL : hs_os_networked_element(&m);
    if (remote) /* its forces come only through the script's own analysis */
        rc = hs_tf_fail(L, v,
                        "structure.model.opensees: %s: element %d is on a networked site "
                        "(expSite ShadowSite or expControl SimFEAdapter), which only the script's "
                        "own analysis drives: remove the test file's analysis section, or give the "
                        "site in its sites section (url) and the element in its experimental "
                        "section",
                        remote->where, remote->tag);
    if (!rc) rc = hs_tf_keep_experimental_script(L, &m);
    if (!rc) {
        rc = hs_os_build_fe(L->ctx, &m, path, &fe);
        if (rc) rc = hs_tf_wrap(L, v, "structure.model.opensees", rc);
    }
    static const char *const AXIS[3] = {"x", "y", "z"};
    if (!rc && xn) {
        rc = hs_tf_fe_dof(L, fe, xn, "structure.model.excitation", &dir);
        if (!rc && dir >= m.ndm) /* the translations come first */
            rc = hs_tf_fail(L, xn, "structure.model.excitation: the ground moves in %s, not %s",
                            m.ndm == 1   ? "x"
                            : m.ndm == 2 ? "x or y"
                                         : "x, y or z",
                            hs_fe_dir_name(fe, dir));
    }
    int geometric = 0;
    for (int k = 0; k < m.nels; k++) geometric |= m.els[k].transf != HS_FE_LINEAR;
    if (!rc && (m.nloads > 0 || m.neleloads > 0) && !geometric)
        hs_log(L->ctx, HS_LOG_WARN,
               "%s: the loads of pattern Plain (load, eleLoad) change nothing: hysim integrates "
               "about the static "
               "equilibrium, and no P-Delta or corotational member takes their axial forces",
               path);
    int tangent = 0;
    if (!rc && m.has_rayleigh) {
        rc = hs_os_rayleigh_coefficients(L->ctx, &m, path, &s->a0, &s->a1, &tangent);
        if (rc) rc = hs_tf_wrap(L, v, "structure.model.opensees", rc);
        s->has_damping = 1;
        snprintf(s->damping_where, sizeof s->damping_where, "%s", m.rayleigh_where);
        s->neigen = m.neigen;
        memcpy(s->eigen_w2, m.eigen_w2, (size_t)m.neigen * sizeof *m.eigen_w2);
        snprintf(s->eigen_where, sizeof s->eigen_where, "%s", m.eigen_where);
        if (!rc && tangent && !hs_fe_is_linear(fe) && !L->damping)
            hs_log(L->ctx, HS_LOG_WARN,
                   "%s: rayleigh: hysim's damping matrix is constant, alphaM M + (betaK + "
                   "betaKinit + betaKcomm) K0 with K0 the initial stiffness; OpenSees' betaK and "
                   "betaKcomm use the current and the last committed tangent, so the damping of "
                   "this nonlinear model differs from OpenSees' once it leaves its initial "
                   "stiffness (docs/opensees_tcl.md)",
                   m.rayleigh_where);
    }
    if (!rc && m.has_rayleigh && L->damping)
        hs_log(L->ctx, HS_LOG_WARN,
               "%s: rayleigh ignored (the test file's structure.damping is used)",
               m.rayleigh_where);
    if (!rc && m.has_excitation) {
        s->has_gm = 1;
        snprintf(s->gm_path, sizeof s->gm_path, "%s", m.excitation.path);
        s->gm_dt = m.excitation.dt;
        s->gm_scale = m.excitation.factor;
        snprintf(s->gm_where, sizeof s->gm_where, "%s", m.excitation_where);
        if (xn && dir != m.excitation_dir)
            hs_log(L->ctx, HS_LOG_WARN,
                   "%s: pattern UniformExcitation in %s; structure.model.excitation (%s) is used",
                   m.excitation_where, AXIS[m.excitation_dir], AXIS[dir]);
    }
    if (!rc && m.nimposed && m.has_excitation)
        rc = hs_tf_fail(L, v,
                        "structure.model.opensees: %s: a UniformExcitation (%s) and a "
                        "MultipleSupport pattern: hysim runs one excitation (give every support "
                        "its imposedMotion instead)",
                        path, m.excitation_where);
    for (int k = 0; !rc && k < m.nimposed && k < 16; k++) {
        const hs_os_imposed *im = &m.imposed[k];
        s->sup[k].node = im->node;
        s->sup[k].dof = im->dof;
        s->sup[k].disp = im->disp;
        snprintf(s->sup[k].path, sizeof s->sup[k].path, "%s", im->s.path);
        s->sup[k].dt = im->s.dt;
        s->sup[k].scale = im->s.factor;
        snprintf(s->sup[k].where, sizeof s->sup[k].where, "%s", im->where);
        s->nsup = k + 1;
    }
    hs_os_model_clear(&m);
    if (rc) {
        hs_fe_destroy(&fe);
        return rc;
    }
    return hs_tf_fe_install(L, node, fe, dir);
}

/* A test file whose structure is an OpenSees script and that has no analysis section: the
 * script runs its own analysis at `hysim run` (docs/opensees_tcl.md, "The script's own
 * analysis"). What applies only to the test file's analysis is refused at its key. */
int hs_tf_script_analysis(hs_tf *L, const hs_ynode *root, int *taken)
{
    *taken = 0;
    const hs_ynode *st = hs_ynode_get(root, "structure");
    const hs_ynode *mo = st && st->kind == HS_YNODE_MAPPING ? hs_ynode_get(st, "model") : NULL;
    const hs_ynode *v = mo && mo->kind == HS_YNODE_MAPPING ? hs_ynode_get(mo, "opensees") : NULL;
    if (!v || hs_ynode_get(root, "analysis")) return 0;
    *taken = 1;
    static const char *const why =
        "applies to the test file's analysis; without an analysis section the script runs its "
        "own (docs/opensees_tcl.md): add an analysis section or remove this key";
    static const char *const top[] = {"materials", "ground_motion", "experimental", "sites"};
    for (size_t i = 0; i < sizeof top / sizeof top[0]; i++) {
        const hs_ynode *x = hs_ynode_get(root, top[i]);
        if (x) return hs_tf_fail(L, x, "%s: %s", top[i], why);
    }
    static const char *const skeys[] = {"model"}, *const mkeys[] = {"opensees"};
    int rc = hs_tf_mapping(L, st, "structure (the script's own analysis)", skeys, 1);
    if (!rc) rc = hs_tf_mapping(L, mo, "structure.model (the script's own analysis)", mkeys, 1);
    const hs_ynode *out = hs_ynode_get(root, "output");
    for (size_t i = 0; !rc && out && i < 2; i++) {
        const char *k = i ? "recorders" : "mat";
        const hs_ynode *x = hs_ynode_get(out, k);
        if (x) rc = hs_tf_fail(L, x, "output.%s: %s (the script's recorders write files)", k, why);
    }
    if (!rc)
        rc = hs_tf_input(L, v, "structure.model.opensees", L->def->script_analysis,
                         sizeof L->def->script_analysis);
    return rc;
}

int hs_testfile_run_script(hs_ctx *ctx, const hs_test_def *def, const char *dir)
{
    if (!def->script_analysis[0])
        return hs_fail(ctx, HS_EINVAL, "%s: the test file has an analysis section", def->path);
    return hs_opensees_script_run(ctx, def->script_analysis, dir);
}

int hs_tf_opensees_damping(hs_tf *L)
{
    const hs_tf_script *s = &L->script;
    snprintf(L->def->damping_kind, sizeof L->def->damping_kind, "%s",
             s->has_damping ? "rayleigh" : "none");
    if (!s->has_damping)
        hs_log(L->ctx, HS_LOG_WARN,
               "%s: no rayleigh command and no structure.damping: undamped, as in OpenSees",
               s->name);
    hs_script_damping *d = &L->def->script_damping; /* for hysim check */
    d->neigen = s->has_damping ? s->neigen : 0;
    memcpy(d->eigen_w2, s->eigen_w2, sizeof d->eigen_w2);
    snprintf(d->eigen_where, sizeof d->eigen_where, "%s", s->eigen_where);
    snprintf(d->rayleigh_where, sizeof d->rayleigh_where, "%s", s->damping_where);
    const int rc = hs_model_damping_mass_stiffness(L->def->model, s->a0, s->a1);
    return rc ? hs_fail(L->ctx, rc, "%s: %s", s->damping_where, hs_ctx_message(L->ctx)) : 0;
}

/* The script's pattern MultipleSupport: each imposedMotion's Path series (numbers at -dt, times
 * -factor and -fact) as the support motion of its fixed DOF (fe_support.c). */
static int script_supports(hs_tf *L)
{
    const hs_tf_script *s = &L->script;
    hs_fe *fe = hs_model_fe(L->def->model);
    int rc = 0;
    for (int k = 0; !rc && k < s->nsup; k++) {
        hs_options *opts = NULL;
        hs_ground_motion *gm = NULL;
        rc = hs_options_create(&opts);
        if (!rc) rc = hs_options_set_str(opts, "path", s->sup[k].path);
        if (!rc) rc = hs_options_set_num(opts, "dt", s->sup[k].dt);
        if (!rc) rc = hs_options_set_num(opts, "scale", s->sup[k].scale);
        if (!rc) rc = hs_tf_add_input(L, s->sup[k].path, "structure.model.opensees: imposedMotion");
        if (!rc) rc = hs_ground_motion_create(L->ctx, "columns", opts, &gm);
        if (!rc)
            rc = hs_fe_add_support_motion(fe, s->sup[k].node, s->sup[k].dof,
                                          s->sup[k].disp ? HS_FE_MOTION_DISPLACEMENT
                                                         : HS_FE_MOTION_ACCELERATION,
                                          gm->acc, gm->npts, gm->dt);
        if (rc)
            rc = hs_fail(L->ctx, rc == HS_ENOMEM ? rc : HS_EINPUT, "%s: imposedMotion: %s",
                         s->sup[k].where, hs_ctx_message(L->ctx));
        hs_ground_motion_destroy(&gm);
        hs_options_destroy(&opts);
    }
    if (!rc && (rc = hs_fe_support_prepare(fe)) != 0)
        rc = hs_fail(L->ctx, rc, "%s: %s", s->sup[0].where, hs_ctx_message(L->ctx));
    return rc;
}

int hs_tf_ground_motion_or_script(hs_tf *L, const hs_ynode *root)
{
    const hs_ynode *node = hs_ynode_get(root, "ground_motion");
    const hs_tf_script *s = &L->script;
    if (!node && s->nsup) return script_supports(L);
    if (node && s->nsup)
        hs_log(L->ctx, HS_LOG_WARN,
               "%s: pattern MultipleSupport ignored (the test file's ground_motion is used)",
               s->sup[0].where);
    if (node || !s->has_gm) {
        if (node && s->has_gm)
            hs_log(L->ctx, HS_LOG_WARN,
                   "%s: pattern UniformExcitation ignored (the test file's ground_motion is used)",
                   s->gm_where);
        if (!node && s->set)
            return hs_tf_fail(L, root,
                              "missing required key 'ground_motion' in the top level (or a "
                              "pattern UniformExcitation or MultipleSupport with Path series in "
                              "%s)",
                              s->name);
        int rc = hs_tf_required(L, root, "ground_motion", "the top level", &node);
        return rc ? rc : hs_tf_ground_motion(L, node);
    }
    /* the script's record: a Path series of numbers at -dt, times -factor and -fact */
    hs_options *opts = NULL;
    int rc = hs_options_create(&opts);
    if (!rc) rc = hs_options_set_str(opts, "path", s->gm_path);
    if (!rc) rc = hs_options_set_num(opts, "dt", s->gm_dt);
    if (!rc) rc = hs_options_set_num(opts, "scale", s->gm_scale);
    if (!rc) rc = hs_tf_add_input(L, s->gm_path, "structure.model.opensees: Path");
    if (!rc) {
        rc = hs_ground_motion_create(L->ctx, "columns", opts, &L->def->gm);
        if (rc)
            rc = hs_fail(L->ctx, rc == HS_ENOMEM ? rc : HS_EINPUT, "%s: %s", s->gm_where,
                         hs_ctx_message(L->ctx));
    }
    hs_options_destroy(&opts);
    return rc;
}
