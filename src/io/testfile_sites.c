/* The `sites` section: where the experimental substructures live. Each site: kind (virtual |
 * remote), controller rate, perfect mode, noise seed, its actuators (servo model and limits, in
 * the order written), sensors, specimen and relaxation (testfile_specimen.c), and its controller:
 * command generator and compensation (testfile_controller.c) and link (testfile_link.c). Values are
 * checked at their nodes; the actuators and sensors are then created once so that nothing the lab
 * refuses can pass. */
#include "testfile_impl.h"

#include "hysim/secure.h"

#include <sodium.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HS_TF_MAX_SITES     64
#define HS_TF_MAX_RATE      100000.0
#define HS_TF_MAX_TRANSPORT 100000L
#define HS_TF_MAX_SCHEDULE  8

static int number_at_least(hs_tf *L, const hs_ynode *node, const char *what, double lo,
                           const char *why, double *out)
{
    int rc = hs_tf_num(L, node, what, out);
    if (!rc && !(*out >= lo))
        rc = hs_tf_fail(L, node, "%s: must be >= %g%s (got %g)", what, lo, why, *out);
    return rc;
}

static int number_positive(hs_tf *L, const hs_ynode *node, const char *what, double *out)
{
    int rc = hs_tf_num(L, node, what, out);
    if (!rc && !(*out > 0.0)) rc = hs_tf_fail(L, node, "%s: must be > 0 (got %g)", what, *out);
    return rc;
}

/* Site and actuator names: they label outputs (summary.json, results.h5). */
static int plain_name(hs_tf *L, const hs_ynode *k, const char *what, size_t cap)
{
    if (k->len == 0 || strlen(k->text) != k->len || k->len >= cap)
        return hs_tf_fail(L, k, "%s: a name must be 1 to %zu characters", what, cap - 1);
    for (const char *c = k->text; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '-' || *c == '_' || *c == '.'))
            return hs_tf_fail(L, k, "%s: use letters, digits, '-', '_' and '.' in '%.40s'", what,
                              k->text);
    return 0;
}

/* valve: {freq: Hz (> 0, below rate / 2), zeta: (> 0, default 0.7)} */
static int valve(hs_tf *L, const hs_ynode *node, const char *what, double rate,
                 hs_actuator_params *p)
{
    static const char *const keys[] = {"freq", "zeta"};
    const hs_ynode *fn, *zn;
    char sub[192];
    int rc = hs_tf_mapping(L, node, what, keys, 2);
    if (!rc) rc = hs_tf_required(L, node, "freq", what, &fn);
    if (!rc) rc = number_positive(L, fn, hs_tf_path(sub, sizeof sub, what, "freq"), &p->valve_freq);
    if (!rc && !(p->valve_freq < 0.5 * rate))
        rc = hs_tf_fail(L, fn, "%s: %g Hz is not below half the controller rate (%g Hz)", sub,
                        p->valve_freq, 0.5 * rate);
    if (!rc && (zn = hs_ynode_get(node, "zeta")) != NULL)
        rc = number_positive(L, zn, hs_tf_path(sub, sizeof sub, what, "zeta"), &p->valve_zeta);
    return rc;
}

/* delay_schedule: [[t0, a0], [t1, a1], ...], at most 8 pairs, times increasing, a >= 1. */
static int schedule(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg, int i)
{
    if (node->kind == HS_YNODE_SEQUENCE && node->n > HS_TF_MAX_SCHEDULE)
        return hs_tf_fail(L, node, "%s: at most %d pairs [t, a] (got %zu)", what,
                          HS_TF_MAX_SCHEDULE, node->n);
    size_t rows = 0;
    double *s = cfg->schedule[i];
    int rc = hs_tf_matrix(L, node, what, 0, 2, "pair", "value of [t, a]", s, &rows, NULL);
    if (rc) return rc;
    char item[192];
    for (size_t k = 0; k < rows; k++) {
        hs_tf_index(item, sizeof item, what, k);
        if (!(s[2 * k + 1] >= 1.0))
            return hs_tf_fail(L, node->items[k]->items[1], "%s: a = %g must be >= 1 sample", item,
                              s[2 * k + 1]);
        if (k > 0 && !(s[2 * k] > s[2 * k - 2]))
            return hs_tf_fail(L, node->items[k]->items[0], "%s: times must increase (%g after %g)",
                              item, s[2 * k], s[2 * k - 2]);
    }
    cfg->actuator[i].schedule = s;
    cfg->actuator[i].schedule_points = rows;
    return 0;
}

static int actuator(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg, int i)
{
    static const char *const keys[] = {"delay_samples",  "transport_delay",    "valve",
                                       "delay_schedule", "delay_per_velocity", "stroke",
                                       "velocity_limit", "force_limit",        "acceleration_limit",
                                       "step_limit"};
    hs_actuator_params *p = &cfg->actuator[i];
    *p = hs_actuator_params_default();
    p->rate = cfg->rate;
    p->perfect = cfg->perfect;
    if (node->kind == HS_YNODE_SCALAR && node->len == 0 && node->plain) return 0; /* a1: */
    int rc = hs_tf_mapping(L, node, what, keys, sizeof keys / sizeof keys[0]);
    char sub[192];
    const hs_ynode *v;
    if (!rc && (v = hs_ynode_get(node, "delay_samples")) != NULL)
        rc = number_at_least(L, v, hs_tf_path(sub, sizeof sub, what, "delay_samples"), 1.0,
                             " sample (1 is a one-sample delay)", &p->a);
    if (!rc && (v = hs_ynode_get(node, "transport_delay")) != NULL) {
        long d = 0;
        rc = hs_tf_int(L, v, hs_tf_path(sub, sizeof sub, what, "transport_delay"), 0,
                       HS_TF_MAX_TRANSPORT, &d);
        p->transport_delay = (int)d;
    }
    if (!rc && (v = hs_ynode_get(node, "valve")) != NULL)
        rc = valve(L, v, hs_tf_path(sub, sizeof sub, what, "valve"), cfg->rate, p);
    if (!rc && (v = hs_ynode_get(node, "delay_schedule")) != NULL)
        rc = schedule(L, v, hs_tf_path(sub, sizeof sub, what, "delay_schedule"), cfg, i);
    static const char *const limits[] = {"delay_per_velocity", "stroke",
                                         "velocity_limit",     "force_limit",
                                         "acceleration_limit", "step_limit"};
    double *const dst[] = {
        &p->a_per_velocity,          &p->stroke,         &p->velocity_max, &p->force_max,
        &cfg->acceleration_limit[i], &cfg->step_limit[i]};
    for (size_t k = 0; !rc && k < 6; k++)
        if ((v = hs_ynode_get(node, limits[k])) != NULL)
            rc = number_at_least(L, v, hs_tf_path(sub, sizeof sub, what, limits[k]), 0.0,
                                 " (0: none)", dst[k]);
    if (rc) return rc;
    hs_actuator *probe = NULL;
    rc = hs_actuator_create(L->ctx, p, &probe);
    hs_actuator_destroy(&probe);
    return rc ? hs_tf_wrap(L, node, what, rc) : 0;
}

static int actuators(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg,
                     hs_tf_site *ts)
{
    if (node->kind != HS_YNODE_MAPPING || node->n == 0)
        return hs_tf_fail(L, node,
                          "%s: expected a mapping of actuator names to their parameters "
                          "({a1: {delay_samples: 3}, ...})",
                          what);
    if (node->n > HS_SITE_MAX_ACT)
        return hs_tf_fail(L, node, "%s: at most %d actuators per site (got %zu)", what,
                          HS_SITE_MAX_ACT, node->n);
    cfg->nact = (int)node->n;
    char sub[192];
    for (size_t i = 0; i < node->n; i++) {
        const hs_ynode *k = hs_ynode_key(node, i);
        int rc = plain_name(L, k, what, sizeof cfg->actuator_names[0]);
        if (rc) return rc;
        memcpy(cfg->actuator_names[i], k->text, k->len + 1);
        ts->act_key[i] = k;
        rc = actuator(L, hs_ynode_value(node, i), hs_tf_path(sub, sizeof sub, what, k->text), cfg,
                      (int)i);
        if (rc) return rc;
    }
    return 0;
}

static int sensor(hs_tf *L, const hs_ynode *node, const char *what, hs_sensor_params *p)
{
    static const char *const keys[] = {"rms", "bits", "range"};
    const hs_ynode *v;
    char sub[192];
    int rc = hs_tf_mapping(L, node, what, keys, 3);
    if (!rc && (v = hs_ynode_get(node, "rms")) != NULL)
        rc = number_at_least(L, v, hs_tf_path(sub, sizeof sub, what, "rms"), 0.0, " (0: no noise)",
                             &p->rms);
    if (!rc && (v = hs_ynode_get(node, "bits")) != NULL) {
        long bits = 0;
        rc = hs_tf_int(L, v, hs_tf_path(sub, sizeof sub, what, "bits"), 0, 52, &bits);
        p->bits = (int)bits;
    }
    if (!rc && (v = hs_ynode_get(node, "range")) != NULL)
        rc = number_positive(L, v, hs_tf_path(sub, sizeof sub, what, "range"), &p->range);
    if (!rc && p->bits > 0 && !v)
        rc = hs_tf_fail(L, node, "missing required key 'range' in %s (the full scale of %d bits)",
                        what, p->bits);
    if (rc) return rc;
    hs_sensor *probe = NULL;
    rc = hs_sensor_create(L->ctx, p, 1, 1, &probe);
    hs_sensor_destroy(&probe);
    return rc ? hs_tf_wrap(L, node, what, rc) : 0;
}

static int sensors(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg)
{
    static const char *const keys[] = {"displacement", "force"};
    const hs_ynode *v;
    char sub[192];
    int rc = hs_tf_mapping(L, node, what, keys, 2);
    if (!rc && (v = hs_ynode_get(node, "displacement")) != NULL)
        rc = sensor(L, v, hs_tf_path(sub, sizeof sub, what, "displacement"), &cfg->displacement);
    if (!rc && (v = hs_ynode_get(node, "force")) != NULL)
        rc = sensor(L, v, hs_tf_path(sub, sizeof sub, what, "force"), &cfg->force);
    return rc;
}

/* url: hysim://HOST:PORT (the native protocol), openfresco-a://HOST:PORT or
 * openfresco-b://HOST:PORT (an OpenFresco server, protocols A and B), opensees-adapter://HOST:PORT
 * (OpenSees' adapter element), nees://HOST:PORT (a lab speaking the NEES ASCII protocol);
 * PORT 1..65535. */
static int url(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg)
{
    int rc = hs_tf_str(L, node, what, cfg->url, sizeof cfg->url);
    if (rc) return rc;
    static const char *const schemes[] = {"hysim://", "openfresco-a://", "openfresco-b://",
                                          "opensees-adapter://", "nees://"};
    const char *host = NULL;
    for (size_t i = 0; i < sizeof schemes / sizeof schemes[0] && !host; i++)
        if (strncmp(cfg->url, schemes[i], strlen(schemes[i])) == 0)
            host = cfg->url + strlen(schemes[i]);
    const char *colon = strrchr(cfg->url, ':');
    char *end = NULL;
    const long port = colon ? strtol(colon + 1, &end, 10) : 0;
    if (!host || !colon || colon <= host || !end || *end != '\0' || end == colon + 1 || port < 1 ||
        port > 65535 || strchr(host, '/'))
        return hs_tf_fail(L, node,
                          "%s: expected hysim://HOST:PORT, openfresco-a://HOST:PORT, "
                          "openfresco-b://HOST:PORT, opensees-adapter://HOST:PORT or "
                          "nees://HOST:PORT (port 1..65535), got '%s'",
                          what, cfg->url);
    return 0;
}

/* A remote site: url, then key (native sites; absent only with `plain: true`) or none
 * (OpenFresco servers speak plain TCP). */
static int remote_link(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg)
{
    char sub[192];
    const hs_ynode *v = hs_ynode_get(node, "url"), *k = hs_ynode_get(node, "key");
    if (!v)
        return hs_tf_fail(L, node,
                          "missing required key 'url' in %s (a remote site is reached at "
                          "hysim://HOST:PORT)",
                          what);
    int rc = url(L, v, hs_tf_path(sub, sizeof sub, what, "url"), cfg);
    const int native = strncmp(cfg->url, "hysim://", 8) == 0;
    const hs_ynode *p = hs_ynode_get(node, "plain");
    if (!rc && p) rc = hs_tf_bool(L, p, hs_tf_path(sub, sizeof sub, what, "plain"), &cfg->plain);
    if (rc) return rc;
    if (!native && (k || p))
        return hs_tf_fail(L, k ? k : p,
                          "%s.%s: an OpenFresco server, OpenSees adapter or NEES lab speaks plain "
                          "TCP (no key, no plain flag)",
                          what, k ? "key" : "plain");
    if (native && cfg->plain && k)
        return hs_tf_fail(L, k, "%s.key: a site in plain mode has no key (remove one of them)",
                          what);
    if (native && !cfg->plain && !k)
        return hs_tf_fail(L, node,
                          "missing required key 'key' in %s (the file holding the key "
                          "shared with the site; or `plain: true` on both ends, unauthenticated)",
                          what);
    if (!k) return 0;
    const char *kwhat = hs_tf_path(sub, sizeof sub, what, "key");
    rc = hs_tf_file(L, k, kwhat, cfg->key, sizeof cfg->key);
    if (rc) return rc;
    /* the key's content is checked here too, so that `hysim check` refuses what `hysim run`
     * would (hs_secure_key_read says what a key file must hold and how to make one) */
    uint8_t key[HS_SECURE_KEY_SIZE];
    rc = hs_secure_key_read(L->ctx, cfg->key, key);
    sodium_memzero(key, sizeof key);
    if (rc) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", hs_ctx_message(L->ctx));
        return hs_tf_fail(L, k, "%s: %s", kwhat, msg);
    }
    return 0;
}

/* The site controller's keys: command generator, compensation, link (testfile_controller.c,
 * testfile_link.c). */
static int controller(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg,
                      int index)
{
    char sub[192];
    const hs_ynode *v;
    int rc = 0;
    if ((v = hs_ynode_get(node, "command")) != NULL)
        rc = hs_tf_command(L, v, hs_tf_path(sub, sizeof sub, what, "command"), cfg,
                           strcmp(cfg->kind, "virtual") == 0 && !L->sites[index].K0);
    if (!rc && (v = hs_ynode_get(node, "compensation")) != NULL)
        rc = hs_tf_compensation(L, v, hs_tf_path(sub, sizeof sub, what, "compensation"), cfg);
    if (!rc && (v = hs_ynode_get(node, "link")) != NULL)
        rc = hs_tf_link(L, v, hs_tf_path(sub, sizeof sub, what, "link"), cfg, index);
    return rc;
}

static int site(hs_tf *L, const hs_ynode *k, const hs_ynode *node, int index)
{
    static const char *const keys[] = {
        "kind",     "rate",       "perfect", "seed", "actuators", "sensors",
        "specimen", "relaxation", "url",     "key",  "command",   "compensation",
        "link",     "plain",      "nees",    "twin", "pretest",   "setup"};
    hs_site_config *cfg = &L->def->sites[index];
    hs_tf_site *ts = &L->sites[index];
    ts->node = node;
    char what[96], sub[192];
    int rc = plain_name(L, k, "sites", sizeof cfg->name);
    if (rc) return rc;
    memcpy(cfg->name, k->text, k->len + 1);
    snprintf(what, sizeof what, "sites.%s", cfg->name);
    for (int j = 0; j < index; j++)
        if (strcmp(L->def->sites[j].name, cfg->name) == 0)
            return hs_tf_fail(L, k, "sites: two sites named '%s'", cfg->name);
    const hs_ynode *v;
    /* a real laboratory is a site file's (docs/lab_backends.md): said so, not "unknown key" */
    if ((v = hs_ynode_get(node, "lab")) != NULL)
        return hs_tf_fail(L, v,
                          "%s.lab: a laboratory back end (udp, shm, driver) runs behind `hysim "
                          "site` only, with its real clock and a resume that reads where the rig "
                          "is: put this lab in a site file (hysim site --config SITE.yaml) and "
                          "make this site remote (url, key)",
                          what);
    rc = hs_tf_mapping(L, node, what, keys, sizeof keys / sizeof keys[0]);
    if (!rc) rc = hs_tf_required(L, node, "kind", what, &v);
    if (!rc)
        rc =
            hs_tf_str(L, v, hs_tf_path(sub, sizeof sub, what, "kind"), cfg->kind, sizeof cfg->kind);
    if (rc) return rc;
    const int remote = strcmp(cfg->kind, "remote") == 0;
    if (!remote && strcmp(cfg->kind, "virtual") != 0)
        return hs_tf_fail(L, v, "%s: expected 'virtual' or 'remote', got '%s'", sub, cfg->kind);
    if (remote) {
        rc = remote_link(L, node, what, cfg);
        if (rc) return rc;
    } else {
        static const char *const remote_only[] = {"url", "key", "plain"};
        for (size_t i = 0; i < 3; i++)
            if ((v = hs_ynode_get(node, remote_only[i])) != NULL)
                return hs_tf_fail(L, v, "%s.%s: only remote sites have a %s", what, remote_only[i],
                                  remote_only[i]);
    }
    rc = hs_tf_site_fields(L, node, what, index);
    if (!rc) rc = hs_tf_twin(L, node, what, cfg);
    const int nees = remote && strncmp(cfg->url, "nees://", 7) == 0;
    if (!rc && (v = hs_ynode_get(node, "nees")) != NULL) {
        if (!nees)
            return hs_tf_fail(L, v, "%s.nees: only a site at nees://HOST:PORT has a nees section",
                              what);
        rc = hs_tf_nees(L, v, hs_tf_path(sub, sizeof sub, what, "nees"), cfg, 0);
    } else if (!rc && nees) {
        hs_nees_config_default(&cfg->nees, cfg->nact);
        if (cfg->nact > HS_NEES_NDOF)
            rc = hs_tf_fail(L, node,
                            "missing required key 'nees' in %s (%d actuators do not fit the 6 "
                            "DOFs of one control point: give nees.control_points)",
                            what, cfg->nact);
    }
    return rc;
}

int hs_tf_site_fields(hs_tf *L, const hs_ynode *node, const char *what, int index)
{
    hs_site_config *cfg = &L->def->sites[index];
    hs_tf_site *ts = &L->sites[index];
    const int remote = strcmp(cfg->kind, "remote") == 0;
    const hs_ynode *v;
    char sub[192];
    int rc = 0;
    cfg->rate = 1024.0;
    if ((v = hs_ynode_get(node, "rate")) != NULL) {
        rc = hs_tf_num(L, v, hs_tf_path(sub, sizeof sub, what, "rate"), &cfg->rate);
        if (!rc && !(cfg->rate >= 1.0 && cfg->rate <= HS_TF_MAX_RATE))
            rc = hs_tf_fail(L, v, "%s: must be between 1 and %g Hz (got %g)", sub, HS_TF_MAX_RATE,
                            cfg->rate);
        if (remote) cfg->need_rate = cfg->rate; /* the least the test needs from the site */
    }
    if (!rc && (v = hs_ynode_get(node, "perfect")) != NULL)
        rc = hs_tf_bool(L, v, hs_tf_path(sub, sizeof sub, what, "perfect"), &cfg->perfect);
    if (!rc && (v = hs_ynode_get(node, "seed")) != NULL) {
        long seed = 0;
        rc = hs_tf_int(L, v, hs_tf_path(sub, sizeof sub, what, "seed"), 0, HS_TF_MAX_SEED, &seed);
        cfg->seed = (uint64_t)seed;
        ts->seed_given = 1;
    }
    if (!rc) rc = hs_tf_required(L, node, "actuators", what, &v);
    if (!rc) rc = actuators(L, v, hs_tf_path(sub, sizeof sub, what, "actuators"), cfg, ts);
    if (!rc && (v = hs_ynode_get(node, "sensors")) != NULL)
        rc = sensors(L, v, hs_tf_path(sub, sizeof sub, what, "sensors"), cfg);
    if (!rc && (v = hs_ynode_get(node, "setup")) != NULL)
        rc = hs_tf_setup(L, v, hs_tf_path(sub, sizeof sub, what, "setup"), cfg);
    if (rc) return rc;
    const hs_ynode *sp = hs_ynode_get(node, "specimen"), *rx = hs_ynode_get(node, "relaxation");
    if (!sp && !remote)
        return hs_tf_fail(L, node,
                          "missing required key 'specimen' in %s (a virtual site simulates "
                          "its specimen)",
                          what);
    if (sp) {
        const size_t nn = (size_t)cfg->nact * (size_t)cfg->nact;
        int has_K0 = 0;
        ts->K0 = hs_dvec(nn);
        if (!ts->K0) return HS_ENOMEM;
        rc = hs_tf_specimen(L, sp, hs_tf_path(sub, sizeof sub, what, "specimen"), cfg, ts->K0,
                            &has_K0);
        if (!rc && !has_K0) {
            hs_free(ts->K0);
            ts->K0 = NULL;
        }
    }
    if (!rc && rx) {
        if (!sp) return hs_tf_fail(L, rx, "%s.relaxation: relaxation needs a specimen", what);
        rc = hs_tf_relaxation(L, rx, hs_tf_path(sub, sizeof sub, what, "relaxation"), cfg);
    }
    return rc ? rc : controller(L, node, what, cfg, index);
}

int hs_tf_sites(hs_tf *L, const hs_ynode *node)
{
    if (!node) return 0;
    if (node->kind != HS_YNODE_MAPPING || node->n == 0)
        return hs_tf_fail(L, node,
                          "sites: expected a mapping of site names to {kind: virtual | remote, "
                          "...}");
    if (node->n > HS_TF_MAX_SITES)
        return hs_tf_fail(L, node, "sites: at most %d sites (got %zu)", HS_TF_MAX_SITES, node->n);
    L->def->sites = hs_calloc(node->n, sizeof *L->def->sites);
    L->sites = hs_calloc(node->n, sizeof *L->sites);
    if (!L->def->sites || !L->sites) return HS_ENOMEM;
    L->def->nsites = (int)node->n;
    for (size_t i = 0; i < node->n; i++) {
        int rc = site(L, hs_ynode_key(node, i), hs_ynode_value(node, i), (int)i);
        if (rc) return rc;
    }
    return 0;
}

void hs_tf_sites_finish(hs_tf *L)
{
    hs_test_def *def = L->def;
    for (int i = 0; i < def->nsites; i++) {
        if (!L->sites[i].seed_given) def->sites[i].seed = def->seed + (uint64_t)i;
        def->sites[i].time_scale = def->time_scale;
        def->sites[i].timeout = def->site_timeout > 0.0 ? def->site_timeout : 60.0;
        hs_site_config *c = &def->sites[i];
        snprintf(c->units_length, sizeof c->units_length, "%s", def->units_length);
        snprintf(c->units_force, sizeof c->units_force, "%s", def->units_force);
        snprintf(c->units_time, sizeof c->units_time, "%s", def->units_time);
    }
}
