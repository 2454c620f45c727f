/* A site's `nees` section (docs/nees.md): its control points (which actuator drives which DOF of
 * which point), the protocol variant, and the keys of one side: on a lab (site file) the port,
 * the peers allowed, the reply style and timing; on a coordinator (a nees:// remote site in a
 * test file) the wait for execute. Errors are FILE:LINE:COL: message. */
#include "testfile_impl.h"

#include "hysim/nees.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const lab_keys[] = {"port",     "allow",        "report", "step_time",
                                       "line_gap", "idle_timeout", "mode",   "control_points"};
static const char *const coord_keys[] = {"execute_timeout", "mode", "control_points"};

#define NKEYS(a) (sizeof a / sizeof a[0])

static int positive(hs_tf *L, const hs_ynode *map, const char *key, const char *what, double *out)
{
    const hs_ynode *v = hs_ynode_get(map, key);
    if (!v) return 0;
    char sub[192];
    hs_tf_path(sub, sizeof sub, what, key);
    int rc = hs_tf_num(L, v, sub, out);
    if (!rc && !(*out > 0.0)) rc = hs_tf_fail(L, v, "%s: must be > 0 (got %g)", sub, *out);
    return rc;
}

/* A control point's name goes on the wire: no TAB, space, CR or LF; not a protocol word. */
static int cp_name(hs_tf *L, const hs_ynode *k, const char *what)
{
    if (k->kind != HS_YNODE_SCALAR || k->len == 0 || k->len >= HS_NEES_NAME ||
        strlen(k->text) != k->len)
        return hs_tf_fail(L, k, "%s: a control point name has 1 to %d characters", what,
                          HS_NEES_NAME - 1);
    for (const char *c = k->text; *c; c++)
        if (*c <= ' ' || *c == 0x7f)
            return hs_tf_fail(L, k,
                              "%s: '%s' holds a space or control character (they split "
                              "fields on the wire)",
                              what, k->text);
    static const char *const words[] = {"x",     "y",      "z",     "displacement",  "rotation",
                                        "force", "moment", "dummy", "control-point", "external"};
    for (size_t i = 0; i < NKEYS(words); i++)
        if (strcmp(k->text, words[i]) == 0)
            return hs_tf_fail(L, k, "%s: '%s' is a word of the protocol, not a control point name",
                              what, k->text);
    return 0;
}

/* "x displacement" ... "z rotation" */
static int dof_of(hs_tf *L, const hs_ynode *v, const char *what, int *dof)
{
    char text[64], geom[16] = "", ptype[32] = "";
    int rc = hs_tf_str(L, v, what, text, sizeof text);
    if (rc) return rc;
    int reac = 0;
    if (sscanf(text, "%15s %31s", geom, ptype) != 2 ||
        (*dof = hs_nees_dof(geom, ptype, &reac)) < 0 || reac)
        return hs_tf_fail(L, v,
                          "%s: expected 'x displacement', 'y displacement', 'z displacement', "
                          "'x rotation', 'y rotation' or 'z rotation', got '%s'",
                          what, text);
    return 0;
}

static int actuator_index(hs_tf *L, const hs_ynode *v, const char *what, const hs_site_config *cfg,
                          int *j)
{
    char name[32];
    int rc = hs_tf_str(L, v, what, name, sizeof name);
    if (rc) return rc;
    for (int i = 0; i < cfg->nact; i++)
        if (strcmp(cfg->actuator_names[i], name) == 0) {
            *j = i;
            return 0;
        }
    return hs_tf_fail(L, v, "%s: no actuator '%s' at this site (it has %s%s)", what, name,
                      cfg->actuator_names[0], cfg->nact > 1 ? ", ..." : "");
}

static int control_point(hs_tf *L, const hs_ynode *node, const char *what, int k,
                         hs_site_config *cfg, int *used)
{
    static const char *const keys[] = {"dofs", "actuators"};
    hs_nees_config *n = &cfg->nees;
    int rc = hs_tf_mapping(L, node, what, keys, 2);
    const hs_ynode *dofs = NULL, *acts = hs_ynode_get(node, "actuators");
    if (!rc) rc = hs_tf_required(L, node, "dofs", what, &dofs);
    if (rc) return rc;
    char sub[192], item[224];
    hs_tf_path(sub, sizeof sub, what, "dofs");
    if (dofs->kind != HS_YNODE_SEQUENCE || dofs->n < 1 || dofs->n > HS_NEES_NDOF)
        return hs_tf_fail(L, dofs,
                          "%s: expected a list of 1 to 6 DOFs ([x displacement, z rotation])", sub);
    if (!acts && n->ncp > 1)
        return hs_tf_fail(L, node,
                          "missing required key 'actuators' in %s (with several control points "
                          "each names the actuators driving its DOFs)",
                          what);
    if (!acts && (int)dofs->n != cfg->nact)
        return hs_tf_fail(L, dofs,
                          "%s: %zu DOF(s) for %d actuator(s): give one DOF per actuator, or "
                          "'actuators: [...]'",
                          sub, dofs->n, cfg->nact);
    if (acts && (acts->kind != HS_YNODE_SEQUENCE || acts->n != dofs->n))
        return hs_tf_fail(L, acts,
                          "%s.actuators: expected a list of %zu actuator names, one per DOF", what,
                          dofs->n);
    int seen[HS_NEES_NDOF] = {0};
    for (size_t i = 0; i < dofs->n; i++) {
        int d = -1, j = (int)i;
        hs_tf_index(item, sizeof item, sub, i);
        rc = dof_of(L, dofs->items[i], item, &d);
        if (rc) return rc;
        if (seen[d])
            return hs_tf_fail(L, dofs->items[i], "%s: '%s %s' is listed twice", item,
                              hs_nees_geom(d), hs_nees_kin(d));
        seen[d] = 1;
        if (acts) {
            char asub[224];
            hs_tf_index(asub, sizeof asub, hs_tf_path(sub, sizeof sub, what, "actuators"), i);
            rc = actuator_index(L, acts->items[i], asub, cfg, &j);
            if (rc) return rc;
            if (used[j])
                return hs_tf_fail(L, acts->items[i], "%s: actuator '%s' already drives a DOF", asub,
                                  cfg->actuator_names[j]);
            hs_tf_path(sub, sizeof sub, what, "dofs");
        }
        used[j] = 1;
        n->act_cp[j] = k;
        n->act_dof[j] = d;
    }
    return 0;
}

static int control_points(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg)
{
    hs_nees_config *n = &cfg->nees;
    if (node->kind != HS_YNODE_MAPPING || node->n < 1 || node->n > HS_NEES_MAX_CP)
        return hs_tf_fail(L, node,
                          "%s: expected a mapping of 1 to %d control points ({MDL-00-01: {dofs: "
                          "[x displacement], actuators: [a1]}})",
                          what, HS_NEES_MAX_CP);
    n->ncp = (int)node->n;
    int used[HS_NEES_MAX_ACT] = {0};
    char sub[192];
    for (size_t i = 0; i < node->n; i++) {
        const hs_ynode *k = hs_ynode_key(node, i);
        int rc = cp_name(L, k, what);
        if (rc) return rc;
        snprintf(n->cp[i], sizeof n->cp[i], "%s", k->text);
        rc = control_point(L, hs_ynode_value(node, i), hs_tf_path(sub, sizeof sub, what, k->text),
                           (int)i, cfg, used);
        if (rc) return rc;
    }
    for (int j = 0; j < cfg->nact; j++)
        if (!used[j])
            return hs_tf_fail(L, node, "%s: actuator '%s' drives no DOF (every actuator needs one)",
                              what, cfg->actuator_names[j]);
    return 0;
}

/* allow: [127.0.0.1, 10.0.0.0/8], or `allow: any` (every peer, written out) */
static int allow(hs_tf *L, const hs_ynode *node, const char *what, hs_nees_config *n)
{
    if (node->kind == HS_YNODE_SCALAR && strcmp(node->text, "any") == 0) {
        n->allow_any = 1;
        return 0;
    }
    if (node->kind != HS_YNODE_SEQUENCE || node->n < 1 || node->n > HS_NEES_MAX_ALLOW)
        return hs_tf_fail(L, node,
                          "%s: expected a list of 1 to %d IPv4 addresses (a.b.c.d or "
                          "a.b.c.d/bits), or 'any'",
                          what, HS_NEES_MAX_ALLOW);
    for (size_t i = 0; i < node->n; i++) {
        char text[64], item[224];
        hs_tf_index(item, sizeof item, what, i);
        int rc = hs_tf_str(L, node->items[i], item, text, sizeof text);
        if (rc) return rc;
        char *slash = strchr(text, '/'), *end = NULL;
        long bits = 32;
        if (slash) {
            *slash = '\0';
            bits = strtol(slash + 1, &end, 10);
        }
        struct in_addr a;
        if (inet_pton(AF_INET, text, &a) != 1 || (slash && (!end || *end || end == slash + 1)) ||
            bits < 0 || bits > 32)
            return hs_tf_fail(L, node->items[i],
                              "%s: expected a numeric IPv4 address or a.b.c.d/bits", item);
        n->allow_addr[i] = ntohl(a.s_addr);
        n->allow_mask[i] = bits == 0 ? 0u : 0xffffffffu << (32 - bits);
    }
    n->nallow = (int)node->n;
    return 0;
}

int hs_tf_nees(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg, int lab)
{
    hs_nees_config *n = &cfg->nees;
    hs_nees_config_default(n, cfg->nact);
    n->given = 1;
    int rc = lab ? hs_tf_mapping(L, node, what, lab_keys, NKEYS(lab_keys))
                 : hs_tf_mapping(L, node, what, coord_keys, NKEYS(coord_keys));
    if (rc) return rc;
    char sub[192];
    const hs_ynode *v;
    if ((v = hs_ynode_get(node, "mode")) != NULL) {
        char mode[32];
        rc = hs_tf_str(L, v, hs_tf_path(sub, sizeof sub, what, "mode"), mode, sizeof mode);
        if (rc) return rc;
        if (strcmp(mode, "labview1") == 0)
            n->mode = HS_NEES_LABVIEW1;
        else if (strcmp(mode, "labview2") == 0)
            n->mode = HS_NEES_LABVIEW2;
        else
            return hs_tf_fail(L, v,
                              "%s: expected labview1 (propose, execute, get-control-point) "
                              "or labview2 (propose answers with the data), got '%s'",
                              sub, mode);
    }
    if ((v = hs_ynode_get(node, "control_points")) != NULL) {
        rc = control_points(L, v, hs_tf_path(sub, sizeof sub, what, "control_points"), cfg);
    } else if (cfg->nact > HS_NEES_NDOF) {
        rc = hs_tf_fail(L, node,
                        "missing required key 'control_points' in %s (%d actuators do not fit "
                        "the 6 DOFs of one control point)",
                        what, cfg->nact);
    }
    if (rc) return rc;
    if (!lab) return positive(L, node, "execute_timeout", what, &n->execute_timeout);
    if ((v = hs_ynode_get(node, "port")) != NULL) {
        long p = 0;
        rc = hs_tf_int(L, v, hs_tf_path(sub, sizeof sub, what, "port"), 0, 65535, &p);
        n->port = (int)p;
    } else {
        rc = hs_tf_fail(L, node,
                        "missing required key 'port' in %s (the TCP port NEES clients connect "
                        "to; 0: any free port)",
                        what);
    }
    if (!rc && (v = hs_ynode_get(node, "allow")) != NULL)
        rc = allow(L, v, hs_tf_path(sub, sizeof sub, what, "allow"), n);
    if (!rc && (v = hs_ynode_get(node, "report")) != NULL) {
        char rep[32];
        rc = hs_tf_str(L, v, hs_tf_path(sub, sizeof sub, what, "report"), rep, sizeof rep);
        if (!rc && strcmp(rep, "all12") == 0)
            n->all12 = 1;
        else if (!rc && strcmp(rep, "driven") != 0)
            rc = hs_tf_fail(L, v,
                            "%s: expected driven (the DOFs with an actuator: ECLabVIEW) or all12 "
                            "(the LBCB Operations Manager's 12 values), got '%s'",
                            sub, rep);
    }
    if (!rc) rc = positive(L, node, "step_time", what, &n->step_time);
    if (!rc) rc = positive(L, node, "line_gap", what, &n->line_gap);
    if (!rc) rc = positive(L, node, "idle_timeout", what, &n->idle_timeout);
    if (!rc && n->idle_timeout > 86400.0)
        rc = hs_tf_fail(L, hs_ynode_get(node, "idle_timeout"),
                        "%s.idle_timeout: at most 86400 s (got %g)", what, n->idle_timeout);
    return rc;
}
