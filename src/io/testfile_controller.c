/* A site's controller keys: `command` (the command generator's predictor/corrector, TimeOut rules
 * and free vibration, include/hysim/cmdgen.h) and `compensation` (the actuator delay compensator,
 * include/hysim/compensator.h). The command keys are stored under the generator's field names
 * (extrapolate -> extrapolate_limit, slow -> slow_limit) and checked at their nodes against the
 * generator's ranges; the compensator is validated against its registry entry's parameters and
 * created once with the site's rate, so values it refuses are reported at its mapping. */
#include "testfile_impl.h"

#include "hysim/cmdgen.h"
#include "hysim/compensator.h"
#include "hysim/linalg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A number key of `command`: its file name, the generator's field and the allowed interval
 * (lo_open / hi_open: the end is excluded; hi = HUGE_VAL: no upper end). */
typedef struct command_num {
    const char *key, *field;
    double lo, hi;
    int lo_open, hi_open;
} command_num;

static const command_num command_nums[] = {
    {"extrapolate", "extrapolate_limit", 0.0, 1.0, 1, 1},
    {"slow", "slow_limit", 0.0, 1.0, 1, 0},
    {"slow_factor", "slow_factor", 0.0, 1.0, 1, 0},
    {"blend", "blend", 0.0, HUGE_VAL, 0, 0},
    {"hold_timeout", "hold_timeout", 0.0, HUGE_VAL, 0, 0},
    {"zeta", "zeta", 0.0, 1.0, 0, 1},
    {"v_tol", "v_tol", 0.0, HUGE_VAL, 0, 0},
    {"f_tol", "f_tol", 0.0, HUGE_VAL, 0, 0},
    {"rel_tol", "rel_tol", 0.0, 1.0, 1, 1},
    {"quiet_time", "quiet_time", 0.0, HUGE_VAL, 0, 0},
    {"stop_time", "stop_time", 0.0, HUGE_VAL, 0, 0},
    {"fv_max_time", "fv_max_time", 0.0, HUGE_VAL, 1, 0},
    {"fv_dt", "fv_dt", 0.0, HUGE_VAL, 0, 0},
    /* controlled unloading after a trip (hysim/site_controller.h, hs_site_unload_params) */
    {"unload_after", "unload_after", 0.0, 1e6, 0, 1},
    {"unload_velocity", "unload_velocity", 0.0, HUGE_VAL, 0, 0},
    {"unload_acceleration", "unload_acceleration", 0.0, HUGE_VAL, 0, 0},
    {"unload_force", "unload_force", 0.0, HUGE_VAL, 0, 0},
    /* the A/D and D/A converters around the compensator (hs_site_controller_params) */
    {"converter_interval", "converter_interval", 0.0, HUGE_VAL, 0, 0},
    {"converter_limit", "converter_limit", 0.0, HUGE_VAL, 0, 0},
};
#define HS_TF_NCOMMAND_NUMS (sizeof command_nums / sizeof command_nums[0])

static int in_range(const command_num *k, double x)
{
    const int lo_ok = k->lo_open ? x > k->lo : x >= k->lo;
    const int hi_ok = k->hi == HUGE_VAL || (k->hi_open ? x < k->hi : x <= k->hi);
    return lo_ok && hi_ok;
}

static int out_of_range(hs_tf *L, const hs_ynode *at, const char *what, const command_num *k,
                        double x)
{
    if (k->hi == HUGE_VAL)
        return hs_tf_fail(L, at, "%s: must be %s 0 (got %g)", what, k->lo_open ? ">" : ">=", x);
    return hs_tf_fail(L, at, "%s: must be in %c%g, %g%c (got %g)", what, k->lo_open ? '(' : '[',
                      k->lo, k->hi, k->hi_open ? ')' : ']', x);
}

/* mass: nact x nact, symmetric positive definite (actuator coordinates), stored row by row. */
static int command_mass(hs_tf *L, const hs_ynode *node, const char *what, int nact,
                        hs_options *opts)
{
    const size_t n = (size_t)nact;
    double M[HS_SITE_MAX_ACT * HS_SITE_MAX_ACT], I[HS_SITE_MAX_ACT * HS_SITE_MAX_ACT],
        lambda[HS_SITE_MAX_ACT], phi[HS_SITE_MAX_ACT * HS_SITE_MAX_ACT];
    int rc = hs_tf_matrix(L, node, what, n, n, "actuator", "actuator", M, NULL, NULL);
    if (rc) return rc;
    double big = 0.0;
    for (size_t i = 0; i < n * n; i++) big = fmax(big, fabs(M[i]));
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (fabs(M[i * n + j] - M[j * n + i]) > 1e-12 * big)
                return hs_tf_fail(L, node->items[i]->items[j],
                                  "%s: the mass matrix must be symmetric (row %zu, column %zu is "
                                  "%g, row %zu, column %zu is %g)",
                                  what, i + 1, j + 1, M[i * n + j], j + 1, i + 1, M[j * n + i]);
    memset(I, 0, sizeof I);
    for (size_t i = 0; i < n; i++) I[i * n + i] = 1.0;
    rc = hs_sym_eig(L->ctx, nact, M, I, lambda, phi); /* eigenvalues of M, ascending */
    if (rc) return hs_tf_wrap(L, node, what, rc);
    if (!(lambda[0] > 0.0))
        return hs_tf_fail(L, node,
                          "%s: the mass matrix must be positive definite (smallest eigenvalue "
                          "%g)",
                          what, lambda[0]);
    return hs_options_set_list(opts, "mass", M, n * n);
}

int hs_tf_command(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg,
                  int no_stiffness)
{
    const char *keys[HS_TF_NCOMMAND_NUMS + 3] = {"order", "mass", "target_delay"};
    for (size_t i = 0; i < HS_TF_NCOMMAND_NUMS; i++) keys[i + 3] = command_nums[i].key;
    int rc = hs_tf_mapping(L, node, what, keys, HS_TF_NCOMMAND_NUMS + 3);
    if (!rc) rc = hs_options_create(&cfg->command_opts);
    if (rc) return rc;
    hs_options *opts = cfg->command_opts;
    char sub[224];
    const hs_ynode *v;
    if ((v = hs_ynode_get(node, "order")) != NULL) {
        long order = 0;
        rc = hs_tf_int(L, v, hs_tf_path(sub, sizeof sub, what, "order"), 1, 3, &order);
        if (!rc) rc = hs_options_set_num(opts, "order", (double)order);
    }
    if (!rc && (v = hs_ynode_get(node, "target_delay")) != NULL) {
        long delay = 0; /* ticks: the RTHS benchmark's controller on the target of t_k */
        rc = hs_tf_int(L, v, hs_tf_path(sub, sizeof sub, what, "target_delay"), 0, 1, &delay);
        if (!rc) rc = hs_options_set_num(opts, "target_delay", (double)delay);
    }
    for (size_t i = 0; !rc && i < HS_TF_NCOMMAND_NUMS; i++) {
        const command_num *k = &command_nums[i];
        if (!(v = hs_ynode_get(node, k->key))) continue;
        double x = 0.0;
        rc = hs_tf_num(L, v, hs_tf_path(sub, sizeof sub, what, k->key), &x);
        if (!rc && !in_range(k, x)) rc = out_of_range(L, v, sub, k, x);
        if (!rc) rc = hs_options_set_num(opts, k->field, x);
    }
    if (rc) return rc;
    /* extrapolate < slow, with the generator's defaults for the one not written */
    const hs_cmdgen_params def = hs_cmdgen_params_default();
    const double e = hs_options_num(opts, "extrapolate_limit", def.extrapolate_limit),
                 s = hs_options_num(opts, "slow_limit", def.slow_limit);
    if (!(e < s)) {
        const hs_ynode *en = hs_ynode_get(node, "extrapolate");
        return hs_tf_fail(L, en ? en : hs_ynode_get(node, "slow"),
                          "%s: extrapolate (%g%s) must be below slow (%g%s): the slow state "
                          "runs from x = extrapolate to x = slow",
                          what, e, en ? "" : ", the default", s,
                          hs_ynode_get(node, "slow") ? "" : ", the default");
    }
    if (!(v = hs_ynode_get(node, "mass"))) return 0;
    rc = command_mass(L, v, hs_tf_path(sub, sizeof sub, what, "mass"), cfg->nact, opts);
    const double zeta = hs_options_num(opts, "zeta", def.zeta);
    if (!rc && no_stiffness && zeta > 0.0)
        rc = hs_tf_fail(L, v,
                        "%s: free vibration with damping ratio %g needs the specimen's initial "
                        "stiffness, and this specimen states none (set zeta: 0)",
                        sub, zeta);
    return rc;
}

static int unknown_compensator(hs_tf *L, const hs_ynode *at, const char *what, const char *type)
{
    const char *names[32];
    size_t n = 0;
    char list[512] = "";
    for (size_t i = 0; i < hs_compensator_registry_count() && n < 32; i++) {
        names[n] = hs_compensator_registry_get(i)->name;
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", n ? ", " : "", names[n]);
        n++;
    }
    const char *near = hs_suggest(type, names, n);
    if (near)
        return hs_tf_fail(L, at, "%s: unknown compensator '%s'; did you mean '%s'? (known: %s)",
                          what, type, near, list);
    return hs_tf_fail(L, at, "%s: unknown compensator '%s' (known: %s)", what, type, list);
}

/* `type: plugin`: a compensator plug-in (hysim/compensator_plugin.h), in a site file only, with
 * the lab driver's rules: `path` an existing file relative to the site file's folder, `options`
 * passed to its open as they are; loaded once here so that a bad library is refused at its line. */
static int compensation_plugin(hs_tf *L, const hs_ynode *node, const char *what,
                               hs_site_config *cfg, const hs_ynode *tn)
{
    if (strcmp(hs_tf_kind(L), "site file") != 0)
        return hs_tf_fail(L, tn,
                          "%s: a compensator plug-in is loaded by a site file only (the lab's own "
                          "code stays in the lab, like a lab driver); in a %s choose one of the "
                          "built-in compensators",
                          what, hs_tf_kind(L));
    static const char *const keys[] = {"type", "path", "options"};
    char sub[224], path[256] = "", options[256] = "";
    const hs_ynode *v;
    int rc = hs_tf_mapping(L, node, what, keys, 3);
    if (!rc) rc = hs_tf_required(L, node, "path", what, &v);
    if (!rc) rc = hs_tf_file(L, v, hs_tf_path(sub, sizeof sub, what, "path"), path, sizeof path);
    if (!rc && (v = hs_ynode_get(node, "options")) != NULL)
        rc = hs_tf_str(L, v, hs_tf_path(sub, sizeof sub, what, "options"), options, sizeof options);
    if (!rc) rc = hs_options_create(&cfg->compensation_opts);
    if (!rc) rc = hs_options_set_str(cfg->compensation_opts, "type", "plugin");
    if (!rc) rc = hs_options_set_str(cfg->compensation_opts, "path", path);
    if (!rc) rc = hs_options_set_str(cfg->compensation_opts, "options", options);
    if (rc) return rc;
    hs_compensator *probe = NULL;
    rc = hs_compensator_plugin_create(L->ctx, path, options, 0, cfg->rate, &probe);
    hs_compensator_destroy(&probe);
    return rc ? hs_tf_wrap(L, node, what, rc) : 0;
}

int hs_tf_compensation(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg)
{
    if (node->kind != HS_YNODE_MAPPING)
        return hs_tf_fail(L, node, "%s: expected a mapping {type: NAME, parameters...}, got %s",
                          what, hs_ynode_kind_name(node));
    const hs_ynode *tn;
    char sub[224], type[64];
    int rc = hs_tf_required(L, node, "type", what, &tn);
    if (!rc) rc = hs_tf_str(L, tn, hs_tf_path(sub, sizeof sub, what, "type"), type, sizeof type);
    if (rc) return rc;
    if (strcmp(type, "plugin") == 0) return compensation_plugin(L, node, what, cfg, tn);
    const hs_compensator_entry *e = hs_compensator_registry_find(type);
    if (!e) return unknown_compensator(L, tn, sub, type);
    static const char *const skip[] = {"type"};
    rc = hs_options_create(&cfg->compensation_opts);
    if (!rc) rc = hs_options_set_str(cfg->compensation_opts, "type", e->name);
    if (!rc) rc = hs_tf_params(L, node, what, e->params, skip, 1, cfg->compensation_opts);
    if (rc) return rc;
    hs_compensator *probe = NULL;
    rc = hs_compensator_create(L->ctx, e->name, cfg->compensation_opts, cfg->rate, &probe);
    hs_compensator_destroy(&probe);
    return rc ? hs_tf_wrap(L, node, what, rc) : 0;
}
