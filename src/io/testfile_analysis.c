/* The `ground_motion`, `analysis` and `output` sections: sources and integrators validated
 * against their registries, step count, clock, seed, compute-time model (testfile_link.c), site
 * timeout and checkpoint interval. */
#include "testfile_impl.h"

#include "hysim/coordinator.h"
#include "hysim/fe.h"
#include "hysim/integrator.h"
#include "hysim/linalg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void registry_names(const char **names, size_t *n, size_t cap, int integrators)
{
    *n = 0;
    const size_t count =
        integrators ? hs_integrator_registry_count() : hs_ground_motion_registry_count();
    for (size_t i = 0; i < count && *n < cap; i++) {
        const char *name = integrators ? hs_integrator_registry_get(i)->name
                                       : hs_ground_motion_registry_get(i)->name;
        if (integrators || strcmp(name, "synthetic") != 0) names[(*n)++] = name; /* formats */
    }
}

static int unknown_name(hs_tf *L, const hs_ynode *at, const char *what, const char *kind,
                        const char *name, int integrators)
{
    const char *names[64];
    size_t n;
    registry_names(names, &n, 64, integrators);
    char list[768] = "";
    for (size_t i = 0; i < n; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
    const char *near = hs_suggest(name, names, n);
    if (near)
        return hs_tf_fail(L, at, "%s: unknown %s '%s'; did you mean '%s'? (known: %s)", what, kind,
                          name, near, list);
    return hs_tf_fail(L, at, "%s: unknown %s '%s' (known: %s)", what, kind, name, list);
}

static int resolve_path(hs_tf *L, const hs_ynode *node, char *out, size_t cap)
{
    return hs_tf_input(L, node, "ground_motion.file", out, cap);
}

/* {synthetic: {...}}: parameters from the registry's "synthetic" entry. */
static int synthetic(hs_tf *L, const hs_ynode *gm, const hs_ynode *node, hs_options *opts)
{
    static const char *const keys[] = {"synthetic"};
    int rc = hs_tf_mapping(L, gm, "ground_motion (synthetic: no other key)", keys, 1);
    if (rc) return rc;
    const hs_ground_motion_entry *e = hs_ground_motion_registry_find("synthetic");
    if (!e) return hs_tf_fail(L, node, "ground_motion.synthetic: not available in this build");
    rc = hs_tf_params(L, node, "ground_motion.synthetic", e->params, NULL, 0, opts);
    if (rc) return rc;
    const double duration = hs_options_num(opts, "duration", 0.0),
                 dt = hs_options_num(opts, "dt", 0.0);
    if (hs_options_has(opts, "dt") && !(dt > 0.0))
        return hs_tf_fail(L, hs_ynode_get(node, "dt"),
                          "ground_motion.synthetic.dt: must be > 0 (got %g)", dt);
    if (dt > 0.0 && duration / dt > HS_TF_MAX_SAMPLES)
        return hs_tf_fail(L, node, "ground_motion.synthetic: duration / dt = %g samples exceeds %g",
                          duration / dt, HS_TF_MAX_SAMPLES);
    return 0;
}

/* {file, format, ...}: the format names a registered reader; its parameters (except path,
 * which is `file`) may appear next to `file`. */
static int from_file(hs_tf *L, const hs_ynode *gm, hs_options *opts, const char **type)
{
    const char *what = "ground_motion";
    const hs_ynode *fn, *fmt;
    char format[64];
    int rc = hs_tf_required(L, gm, "file", what, &fn);
    if (!rc) rc = hs_tf_required(L, gm, "format", what, &fmt);
    if (!rc) rc = hs_tf_str(L, fmt, "ground_motion.format", format, sizeof format);
    if (rc) return rc;
    const hs_ground_motion_entry *e = hs_ground_motion_registry_find(format);
    if (!e || strcmp(format, "synthetic") == 0)
        return e ? hs_tf_fail(L, fmt,
                              "ground_motion.format: write 'synthetic: {...}' instead of "
                              "a file for a synthetic record")
                 : unknown_name(L, fmt, "ground_motion.format", "format", format, 0);
    *type = e->name;
    hs_param_spec specs[64];
    size_t n = 0;
    for (const hs_param_spec *p = e->params; p && p->name && n < 63; p++)
        if (strcmp(p->name, "path") != 0) specs[n++] = *p;
    specs[n] = (hs_param_spec){NULL, HS_PARAM_NUM, 0, NULL};
    static const char *const skip[] = {"file", "format"};
    char ctxname[96];
    snprintf(ctxname, sizeof ctxname, "ground_motion (format %s)", e->name);
    rc = hs_tf_params(L, gm, ctxname, specs, skip, 2, opts);
    if (rc) return rc;
    const hs_ynode *dtn = hs_ynode_get(gm, "dt");
    if (dtn && !(hs_options_num(opts, "dt", 0.0) > 0.0))
        return hs_tf_fail(L, dtn, "ground_motion.dt: must be > 0 (got %g)",
                          hs_options_num(opts, "dt", 0.0));
    const hs_ynode *skn = hs_ynode_get(gm, "skip");
    if (skn) {
        const double s = hs_options_num(opts, "skip", 0.0);
        if (!(s >= 0.0 && s == floor(s) && s < 1e9))
            return hs_tf_fail(L, skn,
                              "ground_motion.skip: expected a whole number of lines >= 0 "
                              "(got %g)",
                              s);
    }
    char path[2048];
    rc = resolve_path(L, fn, path, sizeof path);
    if (!rc) rc = hs_options_set_str(opts, "path", path);
    return rc;
}

int hs_tf_ground_motion(hs_tf *L, const hs_ynode *node)
{
    if (node->kind == HS_YNODE_MAPPING && hs_ynode_get(node, "multi_support"))
        return hs_tf_multi_support(L, node);
    return hs_tf_record(L, node, &L->def->gm);
}

int hs_tf_record(hs_tf *L, const hs_ynode *node, hs_ground_motion **out)
{
    if (node->kind != HS_YNODE_MAPPING)
        return hs_tf_fail(L, node,
                          "ground_motion: expected a mapping {file: ..., format: ...} or "
                          "{synthetic: {...}}, got %s",
                          hs_ynode_kind_name(node));
    hs_options *opts = NULL;
    int rc = hs_options_create(&opts);
    if (rc) return rc;
    const char *type = "synthetic";
    const hs_ynode *syn = hs_ynode_get(node, "synthetic");
    if (syn) {
        rc = synthetic(L, node, syn, opts);
    } else if (!hs_ynode_get(node, "file")) {
        static const char *const keys[] = {"file", "format", "dt", "scale", "skip", "synthetic"};
        rc = hs_tf_mapping(L, node, "ground_motion", keys, 6);
        if (!rc)
            rc = hs_tf_fail(L, node,
                            "ground_motion: give either 'file' (with 'format') or "
                            "'synthetic'");
    } else {
        rc = from_file(L, node, opts, &type);
    }
    if (!rc) {
        rc = hs_ground_motion_create(L->ctx, type, opts, out);
        if (rc) rc = hs_tf_wrap(L, syn ? syn : node, "ground_motion", rc);
    }
    hs_options_destroy(&opts);
    return rc;
}

static int integrator(hs_tf *L, const hs_ynode *node)
{
    const char *what = "analysis.integrator";
    const hs_ynode *tn;
    if (node->kind != HS_YNODE_MAPPING)
        return hs_tf_fail(L, node, "%s: expected a mapping {type: NAME, parameters...}, got %s",
                          what, hs_ynode_kind_name(node));
    int rc = hs_tf_required(L, node, "type", what, &tn);
    if (!rc)
        rc = hs_tf_str(L, tn, "analysis.integrator.type", L->def->integrator,
                       sizeof L->def->integrator);
    if (rc) return rc;
    const hs_integrator_entry *e = hs_integrator_registry_find(L->def->integrator);
    if (!e)
        return unknown_name(L, tn, "analysis.integrator.type", "integrator", L->def->integrator, 1);
    const hs_fe *fe = hs_model_fe(L->def->model);
    const char *why = (fe && hs_fe_support_count(fe) > 0)
                          ? hs_coordinator_multi_support_refusal(L->def->integrator)
                          : NULL;
    if (why)
        return hs_tf_fail(L, tn,
                          "%s: '%s' cannot run the multi-support excitation of ground_motion: "
                          "%s; use newmark, hht, alpha_os, cr, ghaboussi_pc or another "
                          "(docs/fe_model.md)",
                          what, L->def->integrator, why);
    rc = hs_options_create(&L->def->integrator_opts);
    static const char *const skip[] = {"type"};
    if (!rc) rc = hs_tf_params(L, node, what, e->params, skip, 1, L->def->integrator_opts);
    if (rc) return rc;
    if (e->numerical_only && L->def->nexp > 0) {
        char list[512] = "";
        for (size_t i = 0; i < hs_integrator_registry_count(); i++)
            if (!hs_integrator_registry_get(i)->numerical_only)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                         list[0] ? ", " : "", hs_integrator_registry_get(i)->name);
        return hs_tf_fail(L, tn,
                          "%s: '%s' cannot take measured forces (it solves numerical models "
                          "only), and this test has %d experimental element(s): use one that "
                          "can (%s; docs/integrators.md)",
                          what, e->name, L->def->nexp, list);
    }
    rc = hs_tf_massless_integrator(L, tn);
    if (rc) return rc;
    if (e->linear_only && !hs_model_is_linear(L->def->model))
        return hs_tf_fail(L, tn,
                          "%s: '%s' handles linear models only, and a material here is "
                          "nonlinear",
                          what, e->name);
    /* The constructor checks parameter values (ranges): try it once. */
    hs_integrator *probe = NULL;
    rc = hs_integrator_create(L->ctx, e->name, L->def->integrator_opts, &probe);
    const int sparse = rc ? 1 : hs_integrator_takes_sparse(probe, L->def->nexp > 0);
    hs_integrator_destroy(&probe);
    if (rc) return hs_tf_wrap(L, node, what, rc);
    if (sparse || !hs_model_is_large(L->def->model)) return 0;
    const int n = hs_model_ndof(L->def->model);
    if (L->def->nexp > 0)
        return hs_tf_fail(L, tn,
                          "%s: integrator %s: experimental substructures on a model of %d DOFs "
                          "(dense matrices up to %d) are taken by alpha_os, cr, newmark and hht "
                          "(their matrices hold the initial Ke); choose one of them",
                          what, e->name, n, HS_DENSE_MAX_DOFS);
    return hs_tf_fail(L, tn,
                      "%s: integrator %s takes only dense matrices, and this model has %d DOFs "
                      "(dense up to %d): use central_difference, newmark_explicit, alpha_os, "
                      "cr, newmark or hht",
                      what, e->name, n, HS_DENSE_MAX_DOFS);
}

static int positive(hs_tf *L, const hs_ynode *node, const char *what, double *out)
{
    int rc = hs_tf_num(L, node, what, out);
    if (!rc && !(*out > 0.0)) rc = hs_tf_fail(L, node, "%s: must be > 0 (got %g)", what, *out);
    return rc;
}

/* reference: {run: DIR}: a reference run's folder, as written (relative to the working directory
 * of hysim run, as output.dir); read when the run starts */
static int reference(hs_tf *L, const hs_ynode *node)
{
    static const char *const keys[] = {"run"};
    const hs_ynode *run;
    int rc = hs_tf_mapping(L, node, "analysis.reference", keys, 1);
    if (!rc) rc = hs_tf_required(L, node, "run", "analysis.reference", &run);
    if (!rc)
        rc = hs_tf_str(L, run, "analysis.reference.run", L->def->reference_run,
                       sizeof L->def->reference_run);
    if (!rc && !L->def->reference_run[0])
        rc = hs_tf_fail(L, run, "analysis.reference.run: an empty folder name");
    return rc;
}

int hs_tf_analysis(hs_tf *L, const hs_ynode *node)
{
    static const char *const keys[] = {"integrator",
                                       "dt",
                                       "duration",
                                       "steps",
                                       "time_scale",
                                       "clock",
                                       "seed",
                                       "compute_time",
                                       "site_timeout",
                                       "checkpoint_every",
                                       "initial_acceleration",
                                       "reference"};
    const char *what = "analysis";
    hs_test_def *def = L->def;
    const hs_ynode *in, *dtn;
    int rc = hs_tf_mapping(L, node, what, keys, sizeof keys / sizeof keys[0]);
    if (!rc) rc = hs_tf_required(L, node, "integrator", what, &in);
    if (!rc) rc = integrator(L, in);
    if (!rc) rc = hs_tf_required(L, node, "dt", what, &dtn);
    if (!rc) rc = positive(L, dtn, "analysis.dt", &def->dt);
    if (rc) return rc;
    const hs_ynode *du = hs_ynode_get(node, "duration"), *st = hs_ynode_get(node, "steps");
    if (du && st) return hs_tf_fail(L, st, "analysis: give either 'duration' or 'steps', not both");
    if (!du && !st)
        return hs_tf_fail(L, node, "missing required key 'duration' (or 'steps') in analysis");
    if (st) {
        long steps;
        rc = hs_tf_int(L, st, "analysis.steps", 1, (long)HS_TF_MAX_STEPS, &steps);
        def->steps = steps;
    } else {
        double duration;
        rc = positive(L, du, "analysis.duration", &duration);
        if (!rc && !(duration / def->dt <= (double)HS_TF_MAX_STEPS))
            rc = hs_tf_fail(L, du, "analysis.duration: duration / dt = %g steps exceeds %lld",
                            duration / def->dt, HS_TF_MAX_STEPS);
        if (!rc) def->steps = (int64_t)llround(duration / def->dt);
        if (!rc && def->steps < 1)
            rc = hs_tf_fail(L, du, "analysis.duration: shorter than one step (dt = %g)", def->dt);
    }
    if (rc) return rc;
    def->time_scale = 1.0;
    const hs_ynode *ts = hs_ynode_get(node, "time_scale"), *ck = hs_ynode_get(node, "clock");
    if (ts) rc = positive(L, ts, "analysis.time_scale", &def->time_scale);
    snprintf(def->clock, sizeof def->clock, "virtual");
    if (!rc && ck) {
        rc = hs_tf_str(L, ck, "analysis.clock", def->clock, sizeof def->clock);
        if (!rc && strcmp(def->clock, "virtual") != 0 && strcmp(def->clock, "real") != 0)
            rc = hs_tf_fail(L, ck, "analysis.clock: expected 'virtual' or 'real', got '%s'",
                            def->clock);
    }
    def->seed = 1;
    const hs_ynode *sd = hs_ynode_get(node, "seed");
    if (!rc && sd) {
        long seed = 0;
        rc = hs_tf_int(L, sd, "analysis.seed", 0, HS_TF_MAX_SEED, &seed);
        def->seed = (uint64_t)seed;
    }
    const hs_ynode *ct = hs_ynode_get(node, "compute_time"),
                   *to = hs_ynode_get(node, "site_timeout");
    if (!rc && ct) rc = hs_tf_compute_time(L, ct);
    def->site_timeout = 60.0;
    if (!rc && to) rc = positive(L, to, "analysis.site_timeout", &def->site_timeout);
    /* checkpoints: every step when a site is remote (a lost site costs one step), else every 100
     * steps and at most one a second (a kill then costs at most about a second of computing, and
     * the fsyncs do not slow a fast run down: docs/checkpoints.md) */
    def->checkpoint_every = 100;
    def->checkpoint_spacing_s = 1.0;
    for (int i = 0; i < def->nsites; i++)
        if (strcmp(def->sites[i].kind, "remote") == 0) {
            def->checkpoint_every = 1;
            def->checkpoint_spacing_s = 0.0;
        }
    const hs_ynode *ce = hs_ynode_get(node, "checkpoint_every");
    if (!rc && ce) {
        long every = 0;
        rc = hs_tf_int(L, ce, "analysis.checkpoint_every", 0, (long)HS_TF_MAX_STEPS, &every);
        def->checkpoint_every = every;
        def->checkpoint_spacing_s = 0.0;
    }
    const hs_ynode *ia = hs_ynode_get(node, "initial_acceleration");
    def->initial_acceleration = HS_INITIAL_ACCELERATION_EQUILIBRIUM;
    if (!rc && ia) {
        char how[32];
        rc = hs_tf_str(L, ia, "analysis.initial_acceleration", how, sizeof how);
        if (!rc && strcmp(how, "zero") == 0)
            def->initial_acceleration = HS_INITIAL_ACCELERATION_ZERO;
        else if (!rc && strcmp(how, "equilibrium") != 0)
            rc = hs_tf_fail(L, ia,
                            "analysis.initial_acceleration: expected 'equilibrium' (the default: "
                            "a(0) from the equation of motion at t = 0) or 'zero' (as OpenSees "
                            "starts), got '%s'",
                            how);
    }
    const hs_ynode *rf = hs_ynode_get(node, "reference");
    if (!rc && rf) rc = reference(L, rf);
    /* a remote site holds only its last step (and the one before): a resume must start from a
     * checkpoint of the last committed step (docs/checkpoints.md) */
    for (int i = 0; !rc && ce && def->checkpoint_every > 1 && i < def->nsites; i++)
        if (strcmp(def->sites[i].kind, "remote") == 0)
            rc = hs_tf_fail(L, ce,
                            "analysis.checkpoint_every: %lld with remote site '%s': a remote site "
                            "keeps only its last step, so a distributed run resumes only from a "
                            "checkpoint of every step; use 1 (the default with remote sites) or 0 "
                            "(no checkpoints, no resume)",
                            (long long)def->checkpoint_every, def->sites[i].name);
    return rc;
}
