/* A site's experimental setup (`setup` in a test file's site or a site file; docs/setups.md):
 *
 *   setup:
 *     nl_geom: true                       # exact geometry (false: linearised at rest)
 *     dofs: [ux, rz]                      # the control DOF of each entry of `actuators`
 *     actuators:                          # the setup's own actuators
 *       A1: {base: [-2.0, 0], pin: [0, 0], stroke: 0.3, velocity_limit: 0.5}
 *       A2: {base: [-1.7, 1.1], pin: [0, 1.1], delay_samples: 2}
 *
 * or one of OpenFresco's named setups, whose pins come from its lengths (setup_presets.c):
 *
 *   setup: {type: TwoActuators2d, lengths: [2.0, 1.7, 1.1], pos: left,
 *           actuators: {A1: {stroke: 0.3}, A2: {}}}
 *
 * (`phi_loc_x`: OpenFresco's phiLocX, the setup turned in the plane, degrees.)
 *
 * Pins are [x, y] or [x, y, z] in the control point's axes, the origin at the control point at
 * rest. The geometry is checked here (hs_setup_create), so a mechanism or coincident pins are
 * refused at the file's line. */
#include "testfile_impl.h"

#include <math.h>
#include <string.h>

static const char *const pose_keys[6] = {"ux", "uy", "uz", "rx", "ry", "rz"};

static int pin(hs_tf *L, const hs_ynode *node, const char *what, double out[3])
{
    if (node->kind != HS_YNODE_SEQUENCE || node->n < 2 || node->n > 3)
        return hs_tf_fail(L, node, "%s: expected [x, y] or [x, y, z]", what);
    out[2] = 0.0;
    return hs_tf_num_list(L, node, what, node->n, "coordinate", out);
}

static int setup_actuator(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg,
                          int i, int preset)
{
    static const char *const keys[] = {
        "base", "pin", "stroke", "velocity_limit", "acceleration_limit", "delay_samples"};
    int rc = hs_tf_mapping(L, node, what, keys, sizeof keys / sizeof keys[0]);
    char sub[192];
    const hs_ynode *v;
    for (int k = 0; !rc && preset && k < 2; k++)
        if ((v = hs_ynode_get(node, keys[k])) != NULL)
            rc = hs_tf_fail(L, v,
                            "%s.%s: the setup's type places its actuators; give either type "
                            "and lengths or each actuator's base and pin",
                            what, keys[k]);
    if (!rc && !preset) rc = hs_tf_required(L, node, "base", what, &v);
    if (!rc && !preset)
        rc = pin(L, v, hs_tf_path(sub, sizeof sub, what, "base"), cfg->setup.base[i]);
    if (!rc && !preset) rc = hs_tf_required(L, node, "pin", what, &v);
    if (!rc && !preset) rc = pin(L, v, hs_tf_path(sub, sizeof sub, what, "pin"), cfg->setup.pin[i]);
    hs_actuator_params *p = &cfg->setup_actuator[i];
    *p = hs_actuator_params_default();
    p->rate = cfg->rate;
    p->perfect = cfg->perfect;
    hs_setup_limits *l = &cfg->setup_limits[i];
    static const char *const nums[] = {"stroke", "velocity_limit", "acceleration_limit",
                                       "delay_samples"};
    double *const dst[] = {&l->stroke, &l->vel, &l->acc, &p->a};
    const double lo[] = {0.0, 0.0, 0.0, 1.0};
    for (size_t k = 0; !rc && k < 4; k++) {
        if ((v = hs_ynode_get(node, nums[k])) == NULL) continue;
        rc = hs_tf_num(L, v, hs_tf_path(sub, sizeof sub, what, nums[k]), dst[k]);
        if (!rc && !(*dst[k] >= lo[k]))
            rc = hs_tf_fail(L, v, "%s: must be at least %g (got %g)", sub, lo[k], *dst[k]);
    }
    p->stroke = l->stroke;
    p->velocity_max = l->vel;
    return rc;
}

/* The control DOFs of `dofs` (one per site actuator) into dof[]; n of them. */
static int control_dofs(hs_tf *L, const hs_ynode *v, const char *what, int n, int *dof)
{
    char item[224];
    if (v->kind != HS_YNODE_SEQUENCE || v->n != (size_t)n)
        return hs_tf_fail(L, v,
                          "%s: expected a list of %d control DOFs (ux, uy, uz, rx, ry, rz), one "
                          "for each of the site's %d actuators (the channels the coordinator "
                          "commands)",
                          what, n, n);
    for (size_t k = 0; k < v->n; k++) {
        const hs_ynode *d = v->items[k];
        int found = -1;
        for (int j = 0; j < 6 && d->kind == HS_YNODE_SCALAR; j++)
            if (strcmp(d->text, pose_keys[j]) == 0) found = j;
        if (found < 0)
            return hs_tf_fail(L, d, "%s: expected one of ux, uy, uz, rx, ry, rz",
                              hs_tf_index(item, sizeof item, what, k));
        dof[k] = found;
    }
    return 0;
}

/* A named setup: its pins from `lengths` and `pos`; `dofs`, when given, must be the type's. */
static int preset(hs_tf *L, const hs_ynode *node, const hs_ynode *type, const char *what,
                  hs_site_config *cfg)
{
    char sub[192], name[32];
    const hs_ynode *v;
    double lengths[16], phi = NAN;
    int np = 0, right = 0, dof[6] = {HS_POSE_UX}, rc;
    rc = hs_tf_str(L, type, hs_tf_path(sub, sizeof sub, what, "type"), name, sizeof name);
    if (!rc && (v = hs_ynode_get(node, "lengths")) != NULL) {
        if (v->kind != HS_YNODE_SEQUENCE || v->n > 16)
            return hs_tf_fail(L, v,
                              "%s.lengths: expected a list of lengths, as OpenFresco's "
                              "expSetup takes them",
                              what);
        np = (int)v->n;
        rc = hs_tf_num_list(L, v, hs_tf_path(sub, sizeof sub, what, "lengths"), v->n, "length",
                            lengths);
    }
    if (!rc && (v = hs_ynode_get(node, "pos")) != NULL) {
        char pos[8];
        rc = hs_tf_str(L, v, hs_tf_path(sub, sizeof sub, what, "pos"), pos, sizeof pos);
        if (!rc && strcmp(pos, "right") != 0 && strcmp(pos, "left") != 0)
            rc = hs_tf_fail(L, v, "%s: expected left or right, got '%s'", sub, pos);
        right = !rc && strcmp(pos, "right") == 0;
    }
    if (!rc && (v = hs_ynode_get(node, "phi_loc_x")) != NULL)
        rc = hs_tf_num(L, v, hs_tf_path(sub, sizeof sub, what, "phi_loc_x"), &phi);
    const hs_ynode *dn = hs_ynode_get(node, "dofs");
    if (!rc && dn)
        rc = control_dofs(L, dn, hs_tf_path(sub, sizeof sub, what, "dofs"), cfg->nact, dof);
    if (rc) return rc;
    rc = hs_setup_preset_turned(L->ctx, name, lengths, np, right, dof[0], phi, &cfg->setup);
    if (rc) return hs_tf_wrap(L, type, what, rc);
    if (cfg->setup.ndof != cfg->nact)
        return hs_tf_fail(L, type,
                          "%s: a %s setup controls %d DOFs; the site has %d actuators (give it one "
                          "per control DOF)",
                          what, name, cfg->setup.ndof, cfg->nact);
    for (int k = 0; dn && k < cfg->nact; k++)
        if (dof[k] != cfg->setup.dof[k])
            return hs_tf_fail(L, dn, "%s.dofs: a %s setup controls %s in position %d, not %s", what,
                              name, pose_keys[cfg->setup.dof[k]], k + 1, pose_keys[dof[k]]);
    return 0;
}

int hs_tf_setup(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg)
{
    static const char *const keys[] = {"nl_geom", "dofs", "actuators", "type",
                                       "lengths", "pos",  "phi_loc_x"};
    int rc = hs_tf_mapping(L, node, what, keys, sizeof keys / sizeof keys[0]);
    char sub[192], item[224];
    const hs_ynode *v, *acts, *type = hs_ynode_get(node, "type");
    hs_setup_geometry *g = &cfg->setup;
    memset(g, 0, sizeof *g);
    g->nl_geom = 1;
    if (!rc && (v = hs_ynode_get(node, "nl_geom")) != NULL)
        rc = hs_tf_bool(L, v, hs_tf_path(sub, sizeof sub, what, "nl_geom"), &g->nl_geom);
    for (int k = 4; !rc && !type && k < 7; k++)
        if ((v = hs_ynode_get(node, keys[k])) != NULL)
            rc = hs_tf_fail(L, v, "%s.%s: only a setup with a type has %s", what, keys[k], keys[k]);
    if (rc) return rc;
    if (type) {
        rc = preset(L, node, type, what, cfg);
    } else {
        rc = hs_tf_required(L, node, "dofs", what, &v);
        if (!rc)
            rc = control_dofs(L, v, hs_tf_path(sub, sizeof sub, what, "dofs"), cfg->nact, g->dof);
        g->ndof = cfg->nact;
    }
    if (!rc) rc = hs_tf_required(L, node, "actuators", what, &acts);
    if (rc) return rc;
    hs_tf_path(sub, sizeof sub, what, "actuators");
    const size_t lo = type ? (size_t)g->nact : (size_t)g->ndof;
    const size_t hi = type ? (size_t)g->nact : HS_SITE_MAX_ACT;
    if (acts->kind != HS_YNODE_MAPPING || acts->n < lo || acts->n > hi)
        return hs_tf_fail(L, acts,
                          "%s: expected a mapping of %zu to %zu actuator names to their "
                          "parameters (%s)",
                          sub, lo, hi,
                          type ? "this type's actuators, in its order"
                               : "base, pin, ...; at least one per control DOF");
    g->nact = (int)acts->n;
    for (size_t i = 0; i < acts->n; i++) {
        const hs_ynode *k = hs_ynode_key(acts, i);
        if (k->len >= sizeof cfg->setup_names[0])
            return hs_tf_fail(L, k, "%s: actuator names have at most %zu characters", sub,
                              sizeof cfg->setup_names[0] - 1);
        memcpy(cfg->setup_names[i], k->text, k->len + 1);
        rc = setup_actuator(L, hs_ynode_value(acts, i), hs_tf_path(item, sizeof item, sub, k->text),
                            cfg, (int)i, type != NULL);
        if (rc) return rc;
    }
    hs_setup *probe = NULL;
    rc = hs_setup_create(L->ctx, g, &probe);
    hs_setup_destroy(&probe);
    if (rc) return hs_tf_wrap(L, node, what, rc);
    cfg->has_setup = 1;
    return 0;
}
