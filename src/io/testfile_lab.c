/* The `lab` section of a site file and the packets of a plant file (docs/lab_backends.md):
 * `lab: {kind: virtual}` (the default) or `lab: {kind: udp, remote, local, reply_timeout,
 * max_missing, endian, command_packet: [...], reply_packet: [...]}`, each packet an ordered list
 * of fields `{ROLE: TYPE, channel, endian, gain, offset, units}` or `{pad: BYTES}`. Errors are
 * FILE:LINE:COL: message. */
#include "testfile_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The laboratory's channels: the site's actuators, or with a setup the setup's own actuators
 * (docs/setups.md), which the packets carry. */
static int lab_channels(const hs_site_config *cfg)
{
    return cfg->has_setup ? cfg->setup.nact : cfg->nact;
}
static const char *lab_channel_name(const hs_site_config *cfg, int j)
{
    return cfg->has_setup ? cfg->setup_names[j] : cfg->actuator_names[j];
}

static const char *const role_names[] = {"pad",   "counter", "time", "command", "displacement",
                                         "force", "status",  "tick", "echo"};
static const char *const type_names[] = {"float64", "float32", "int32", "uint32"};
static const int type_bytes[] = {8, 4, 4, 4};

#define NR (sizeof role_names / sizeof role_names[0])

static int is_count(int role)
{
    return role == HS_UDP_COUNTER || role == HS_UDP_STATUS || role == HS_UDP_TICK ||
           role == HS_UDP_ECHO;
}

static int endian_of(hs_tf *L, const hs_ynode *v, const char *what, int *big)
{
    char e[16];
    int rc = hs_tf_str(L, v, what, e, sizeof e);
    if (rc) return rc;
    if (strcmp(e, "little") && strcmp(e, "big"))
        return hs_tf_fail(L, v, "%s: expected 'little' or 'big', got '%s'", what, e);
    *big = strcmp(e, "big") == 0;
    return 0;
}

/* One field of a packet; `reply` selects which roles are allowed. */
static int field(hs_tf *L, const hs_ynode *node, const char *what, const hs_site_config *cfg,
                 int reply, int big_default, hs_udp_field *f)
{
    static const char *const keys[] = {"pad",    "counter", "time",   "command", "displacement",
                                       "force",  "status",  "tick",   "echo",    "channel",
                                       "endian", "gain",    "offset", "units"};
    int rc = hs_tf_mapping(L, node, what, keys, sizeof keys / sizeof keys[0]);
    if (rc) return rc;
    memset(f, 0, sizeof *f);
    f->role = -1;
    f->channel = -1;
    f->gain = 1.0;
    f->big = big_default;
    const hs_ynode *rv = NULL;
    for (size_t r = 0; r < NR; r++) {
        const hs_ynode *v = hs_ynode_get(node, role_names[r]);
        if (!v) continue;
        if (rv)
            return hs_tf_fail(L, v, "%s: one role per field ('%s' and '%s' given)", what,
                              role_names[f->role], role_names[r]);
        rv = v;
        f->role = (int)r;
    }
    if (!rv)
        return hs_tf_fail(L, node,
                          "%s: a field needs one role: counter, time, %s, status, tick, echo "
                          "or pad",
                          what, reply ? "displacement, force" : "command");
    const int ok = f->role == HS_UDP_PAD || f->role == HS_UDP_COUNTER || f->role == HS_UDP_TIME ||
                   (reply ? f->role >= HS_UDP_DISPLACEMENT : f->role == HS_UDP_COMMAND);
    if (!ok)
        return hs_tf_fail(L, rv, "%s: '%s' belongs in the %s packet", what, role_names[f->role],
                          reply ? "command" : "reply");
    char sub[192];
    if (f->role == HS_UDP_PAD) {
        long bytes = 0;
        rc = hs_tf_int(L, rv, hs_tf_path(sub, sizeof sub, what, "pad"), 1, 256, &bytes);
        f->bytes = (int)bytes;
        if (!rc && node->n != 1)
            rc = hs_tf_fail(L, node, "%s: a pad field has only its byte count", what);
        return rc;
    }
    char t[16];
    rc = hs_tf_str(L, rv, hs_tf_path(sub, sizeof sub, what, role_names[f->role]), t, sizeof t);
    if (rc) return rc;
    for (int i = 0; i < 4; i++)
        if (strcmp(t, type_names[i]) == 0) f->type = i, f->bytes = type_bytes[i];
    if (!f->bytes)
        return hs_tf_fail(L, rv, "%s: type '%s': expected float64, float32, int32 or uint32", sub,
                          t);
    if (is_count(f->role) && f->type == HS_UDP_FLOAT32)
        return hs_tf_fail(L, rv,
                          "%s: a float32 %s is exact only up to 2^24 (4.5 hours at 1024 Hz): use "
                          "uint32, int32 or float64",
                          sub, role_names[f->role]);
    const hs_ynode *v;
    const int per_channel =
        f->role == HS_UDP_COMMAND || f->role == HS_UDP_DISPLACEMENT || f->role == HS_UDP_FORCE;
    if ((v = hs_ynode_get(node, "channel")) != NULL) {
        if (!per_channel)
            return hs_tf_fail(L, v,
                              "%s.channel: only command, displacement and force have a "
                              "channel",
                              what);
        char name[32];
        rc = hs_tf_str(L, v, hs_tf_path(sub, sizeof sub, what, "channel"), name, sizeof name);
        if (rc) return rc;
        for (int j = 0; j < lab_channels(cfg); j++)
            if (strcmp(name, lab_channel_name(cfg, j)) == 0) f->channel = j;
        if (f->channel < 0)
            return hs_tf_fail(L, v,
                              "%s: no actuator '%s' (the site's actuators are named in "
                              "'%s')",
                              sub, name, cfg->has_setup ? "setup.actuators" : "actuators");
    } else if (per_channel) {
        if (lab_channels(cfg) != 1)
            return hs_tf_fail(L, node, "%s: missing required key 'channel' (the actuator's name)",
                              what);
        f->channel = 0;
    }
    if (!rc && (v = hs_ynode_get(node, "endian")) != NULL)
        rc = endian_of(L, v, hs_tf_path(sub, sizeof sub, what, "endian"), &f->big);
    static const char *const cal[] = {"gain", "offset", "units"};
    for (int k = 0; k < 3 && !rc; k++) {
        if (!(v = hs_ynode_get(node, cal[k]))) continue;
        if (is_count(f->role))
            return hs_tf_fail(L, v, "%s.%s: only measured and commanded values are calibrated",
                              what, cal[k]);
        hs_tf_path(sub, sizeof sub, what, cal[k]);
        if (k == 2) {
            rc = hs_tf_str(L, v, sub, f->units, sizeof f->units);
        } else {
            double x = 0.0;
            rc = hs_tf_num(L, v, sub, &x);
            if (!rc && k == 0 && !(x != 0.0 && isfinite(x)))
                rc = hs_tf_fail(L, v, "%s: must be a finite number other than 0", sub);
            if (!rc) *(k == 0 ? &f->gain : &f->offset) = x;
        }
    }
    return rc;
}

/* A packet: the ordered list under `key`, each actuator's values exactly once. */
static int packet(hs_tf *L, const hs_ynode *map, const char *key, const char *what,
                  const hs_site_config *cfg, int reply, int big, hs_udp_layout *out)
{
    const hs_ynode *list;
    char sub[192], item[200];
    hs_tf_path(sub, sizeof sub, what, key);
    int rc = hs_tf_required(L, map, key, what, &list);
    if (rc) return rc;
    if (list->kind != HS_YNODE_SEQUENCE || list->nitems == 0)
        return hs_tf_fail(L, list,
                          "%s: expected a list of fields, e.g. [{counter: uint32}, "
                          "{%s: float64, channel: %s}]",
                          sub, reply ? "displacement" : "command", lab_channel_name(cfg, 0));
    if (list->nitems > HS_UDP_MAX_FIELDS)
        return hs_tf_fail(L, list, "%s: at most %d fields (got %zu)", sub, HS_UDP_MAX_FIELDS,
                          list->nitems);
    memset(out, 0, sizeof *out);
    int seen[NR][HS_LAB_MAX_ACT];
    memset(seen, 0, sizeof seen);
    for (size_t i = 0; i < list->nitems; i++) {
        hs_udp_field *f = &out->f[out->n];
        rc = field(L, list->items[i], hs_tf_index(item, sizeof item, sub, i), cfg, reply, big, f);
        if (rc) return rc;
        const int ch = f->channel < 0 ? 0 : f->channel;
        if (f->role != HS_UDP_PAD && seen[f->role][ch]++)
            return hs_tf_fail(L, list->items[i], "%s: a second %s%s%s", item, role_names[f->role],
                              f->channel < 0 ? "" : " of ",
                              f->channel < 0 ? "" : lab_channel_name(cfg, f->channel));
        out->size += (size_t)f->bytes;
        out->n++;
    }
    if (out->size > HS_UDP_MAX_BYTES)
        return hs_tf_fail(L, list, "%s: %zu bytes do not fit one datagram of %d bytes", sub,
                          out->size, HS_UDP_MAX_BYTES);
    const int need[] = {HS_UDP_COMMAND, HS_UDP_DISPLACEMENT, HS_UDP_FORCE};
    for (int k = reply ? 1 : 0; k < (reply ? 3 : 1); k++)
        for (int j = 0; j < lab_channels(cfg); j++)
            if (!seen[need[k]][j])
                return hs_tf_fail(L, list, "%s: missing field: the %s of actuator %s", sub,
                                  role_names[need[k]], lab_channel_name(cfg, j));
    return 0;
}

int hs_tf_udp_packets(hs_tf *L, const hs_ynode *map, const char *what, hs_site_config *cfg)
{
    int big = 0, rc = 0;
    const hs_ynode *v;
    char sub[192];
    if ((v = hs_ynode_get(map, "endian")) != NULL)
        rc = endian_of(L, v, hs_tf_path(sub, sizeof sub, what, "endian"), &big);
    hs_lab_udp_config *u = &cfg->lab.udp;
    if (!rc) rc = packet(L, map, "command_packet", what, cfg, 0, big, &u->command);
    if (!rc) rc = packet(L, map, "reply_packet", what, cfg, 1, big, &u->reply);
    if (!rc && hs_udp_layout_has(&u->reply, HS_UDP_ECHO) &&
        !hs_udp_layout_has(&u->command, HS_UDP_COUNTER))
        rc = hs_tf_fail(L, hs_ynode_get(map, "reply_packet"),
                        "%s.reply_packet: an echo field needs a counter in the command packet",
                        what);
    return rc;
}

/* "HOST:PORT" with a numeric IPv4 host. */
int hs_tf_udp_address(hs_tf *L, const hs_ynode *v, const char *what, char *out, size_t cap)
{
    int rc = hs_tf_str(L, v, what, out, cap);
    if (rc) return rc;
    unsigned char sa[64];
    if (hs_udp_address(out, sa))
        return hs_tf_fail(L, v,
                          "%s: expected \"HOST:PORT\" (numeric IPv4, port 0..65535), got "
                          "'%s'",
                          what, out);
    return 0;
}

/* kind driver: `path` (an existing file, relative to the site file's folder) and `options`. */
static int hs_tf_lab_driver(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg)
{
    const hs_ynode *v = NULL;
    char sub[192];
    int rc = hs_tf_required(L, node, "path", what, &v);
    if (!rc)
        rc = hs_tf_file(L, v, hs_tf_path(sub, sizeof sub, what, "path"), cfg->lab.driver.path,
                        sizeof cfg->lab.driver.path);
    if (!rc && (v = hs_ynode_get(node, "options")) != NULL)
        rc = hs_tf_str(L, v, hs_tf_path(sub, sizeof sub, what, "options"), cfg->lab.driver.options,
                       sizeof cfg->lab.driver.options);
    return rc;
}

/* The watchdog keys of a udp or shm laboratory: reply_timeout (s, > 0 and <= 1) and max_missing
 * (1..1000000; 5 when absent). */
int hs_tf_lab_watchdog(hs_tf *L, const hs_ynode *node, const char *what, double *reply_timeout,
                       int *max_missing)
{
    const hs_ynode *v;
    char sub[192];
    int rc = 0;
    *max_missing = 5;
    if ((v = hs_ynode_get(node, "reply_timeout")) != NULL) {
        rc = hs_tf_num(L, v, hs_tf_path(sub, sizeof sub, what, "reply_timeout"), reply_timeout);
        if (!rc && !(*reply_timeout > 0.0 && *reply_timeout <= 1.0))
            rc = hs_tf_fail(L, v,
                            "%s: %g s is out of range: > 0 and <= 1 s (default: half a "
                            "tick)",
                            sub, *reply_timeout);
    }
    if (!rc && (v = hs_ynode_get(node, "max_missing")) != NULL) {
        long m = 0;
        rc = hs_tf_int(L, v, hs_tf_path(sub, sizeof sub, what, "max_missing"), 1, 1000000, &m);
        *max_missing = (int)m;
    }
    return rc;
}

int hs_tf_lab(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg)
{
    if (hs_tf_lab_is_shm(node)) return hs_tf_lab_shm(L, node, what, cfg);
    static const char *const keys[] = {"kind",          "remote", "local",          "reply_timeout",
                                       "max_missing",   "endian", "command_packet", "reply_packet",
                                       "rests_at_zero", "path",   "options"};
    const size_t nudp = 9; /* keys[1..nudp-1] are the udp back end's, the rest the driver's */
    int rc = hs_tf_mapping(L, node, what, keys, sizeof keys / sizeof keys[0]);
    const hs_ynode *v = NULL;
    char sub[192];
    if (!rc) rc = hs_tf_required(L, node, "kind", what, &v);
    if (!rc)
        rc = hs_tf_str(L, v, hs_tf_path(sub, sizeof sub, what, "kind"), cfg->lab.kind,
                       sizeof cfg->lab.kind);
    if (rc) return rc;
    if (strcmp(cfg->lab.kind, "virtual") == 0) {
        for (size_t i = 1; i < sizeof keys / sizeof keys[0]; i++)
            if ((v = hs_ynode_get(node, keys[i])) != NULL)
                return hs_tf_fail(L, v, "%s.%s: only a %s laboratory has a %s", what, keys[i],
                                  i < nudp ? "udp" : "driver", keys[i]);
        return 0;
    }
    const int driver = strcmp(cfg->lab.kind, "driver") == 0;
    if (strcmp(cfg->lab.kind, "udp") != 0 && !driver)
        return hs_tf_fail(L, v, "%s: expected 'virtual', 'udp', 'shm' or 'driver', got '%s'", sub,
                          cfg->lab.kind);
    for (size_t i = driver ? 1 : nudp; i < (driver ? nudp : sizeof keys / sizeof keys[0]); i++)
        if ((v = hs_ynode_get(node, keys[i])) != NULL)
            return hs_tf_fail(L, v, "%s.%s: only a %s laboratory has a %s", what, keys[i],
                              driver ? "udp" : "driver", keys[i]);
    if (driver) return hs_tf_lab_driver(L, node, what, cfg);
    hs_lab_udp_config *u = &cfg->lab.udp;
    rc = hs_tf_required(L, node, "remote", what, &v);
    if (!rc)
        rc = hs_tf_udp_address(L, v, hs_tf_path(sub, sizeof sub, what, "remote"), u->remote,
                               sizeof u->remote);
    if (!rc && (v = hs_ynode_get(node, "local")) != NULL)
        rc = hs_tf_udp_address(L, v, hs_tf_path(sub, sizeof sub, what, "local"), u->local,
                               sizeof u->local);
    if (!rc) rc = hs_tf_lab_watchdog(L, node, what, &u->reply_timeout, &u->max_missing);
    if (!rc && (v = hs_ynode_get(node, "rests_at_zero")) != NULL)
        rc =
            hs_tf_bool(L, v, hs_tf_path(sub, sizeof sub, what, "rests_at_zero"), &u->rests_at_zero);
    return rc ? rc : hs_tf_udp_packets(L, node, what, cfg);
}
