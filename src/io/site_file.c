/* The site server's file (docs/site_server.md): an optional `materials` section and the `site`
 * mapping, whose laboratory keys are read by the test file's site reader (testfile_sites.c) and
 * whose server keys (name, listen, key or plain, timing, openfresco) are read here. Errors are
 * FILE:LINE:COL: message. */
#include "testfile_impl.h"

#include "hysim/site_server.h"

#include "../base/regular_file.h"

#include <arpa/inet.h>
#include <sodium.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HS_SF_MAX_FILE (1u << 20)

struct hs_site_file {
    hs_test_def *def; /* owns the laboratory's options */
    hs_site_server_config cfg;
};

static const char *const top_keys[] = {"hysim", "materials", "site"};
static const char *const site_keys[] = {
    "name",         "listen",     "key",           "plain",      "min_time_scale",
    "heartbeat",    "timeout",    "frame_timeout", "spin",       "late",
    "realtime",     "openfresco", "rate",          "perfect",    "seed",
    "actuators",    "sensors",    "specimen",      "relaxation", "command",
    "compensation", "nees",       "state",         "lab",        "setup"};
static const char *const of_keys[] = {"protocol_a", "protocol_b", "T",           "mass",
                                      "damping",    "step_time",  "idle_timeout"};

#define NKEYS(a) (sizeof a / sizeof a[0])

static int site_name(hs_tf *L, const hs_ynode *v, hs_site_config *c)
{
    int rc = hs_tf_str(L, v, "site.name", c->name, sizeof c->name);
    if (rc) return rc;
    if (!c->name[0]) return hs_tf_fail(L, v, "site.name: must not be empty");
    for (const char *p = c->name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '_' || *p == '.'))
            return hs_tf_fail(L, v, "site.name: use letters, digits, '-', '_' and '.' in '%s'",
                              c->name);
    return 0;
}

/* listen: "HOST:PORT", HOST a numeric IPv4 address, PORT 0..65535 (0: any free port). */
static int listen_addr(hs_tf *L, const hs_ynode *v, hs_site_server_config *c)
{
    char text[96];
    int rc = hs_tf_str(L, v, "site.listen", text, sizeof text);
    if (rc) return rc;
    char *colon = strrchr(text, ':'), *end = NULL;
    const long port = colon ? strtol(colon + 1, &end, 10) : -1;
    if (!colon || colon == text || !end || end == colon + 1 || *end || port < 0 || port > 65535 ||
        (size_t)(colon - text) >= sizeof c->host)
        return hs_tf_fail(L, v, "site.listen: expected \"HOST:PORT\" (port 0..65535), got '%s'",
                          text);
    *colon = '\0';
    struct in_addr a;
    if (inet_pton(AF_INET, text, &a) != 1)
        return hs_tf_fail(L, v, "site.listen: '%s' is not a numeric IPv4 address (127.0.0.1)",
                          text);
    memcpy(c->host, text, (size_t)(colon - text) + 1); /* fits: checked above */
    c->port = (int)port;
    return 0;
}

/* A time in (0, max] s: a huge one would overflow the milliseconds given to poll(). */
static int seconds(hs_tf *L, const hs_ynode *map, const char *key, const char *what, double max,
                   double *out)
{
    const hs_ynode *v = hs_ynode_get(map, key);
    if (!v) return 0;
    double x = 0.0;
    int rc = hs_tf_num(L, v, what, &x);
    if (!rc && !(x > 0.0 && x <= max))
        rc = hs_tf_fail(L, v, "%s: %g s is out of range: give a time in seconds, > 0 and <= %g",
                        what, x, max);
    if (!rc) *out = x;
    return rc;
}

static int port_of(hs_tf *L, const hs_ynode *map, const char *key, const char *what, int *out)
{
    const hs_ynode *v = hs_ynode_get(map, key);
    long p = 0;
    if (!v) return 0;
    int rc = hs_tf_int(L, v, what, 0, 65535, &p);
    *out = (int)p;
    return rc;
}

/* A square matrix nb x nb written row by row, stored row by row. */
static int basic_matrix(hs_tf *L, const hs_ynode *map, const char *key, const char *what, int nb,
                        double *out)
{
    const hs_ynode *v = hs_ynode_get(map, key);
    if (!v) return 0;
    return hs_tf_matrix(L, v, what, (size_t)nb, (size_t)nb, "basic DOF", "basic DOF", out, NULL,
                        NULL);
}

static int openfresco(hs_tf *L, const hs_ynode *node, hs_site_server_config *c)
{
    int rc = hs_tf_mapping(L, node, "site.openfresco", of_keys, NKEYS(of_keys));
    if (!rc) rc = port_of(L, node, "protocol_a", "site.openfresco.protocol_a", &c->ofa_port);
    if (!rc) rc = port_of(L, node, "protocol_b", "site.openfresco.protocol_b", &c->ofb_port);
    if (rc) return rc;
    if (!hs_ynode_get(node, "protocol_a") && !hs_ynode_get(node, "protocol_b"))
        return hs_tf_fail(L, node,
                          "site.openfresco: give protocol_a: PORT and/or protocol_b: PORT (0: any "
                          "free port)");
    const int na = c->site.nact;
    const hs_ynode *t = hs_ynode_get(node, "T");
    if (t) {
        double tmp[HS_SITE_MAX_ACT * HS_TF_MAX_MATRIX];
        size_t cols = 0;
        rc = hs_tf_matrix(L, t, "site.openfresco.T", (size_t)na, 0, "actuator", "basic DOF", tmp,
                          NULL, &cols);
        if (rc) return rc;
        if (cols > HS_SITE_SERVER_MAX_BASIC)
            return hs_tf_fail(L, t, "site.openfresco.T: at most %d basic DOFs (got %zu)",
                              HS_SITE_SERVER_MAX_BASIC, cols);
        c->nbasic = (int)cols;
        memcpy(c->T, tmp, (size_t)na * cols * sizeof(double));
    } else {
        c->nbasic = na;
        memset(c->T, 0, sizeof c->T);
        for (int i = 0; i < na; i++) c->T[i * na + i] = 1.0;
    }
    rc = basic_matrix(L, node, "mass", "site.openfresco.mass", c->nbasic, c->mass);
    if (!rc)
        rc = basic_matrix(L, node, "damping", "site.openfresco.damping", c->nbasic, c->damping);
    if (!rc)
        rc = seconds(L, node, "step_time", "site.openfresco.step_time",
                     HS_SITE_SERVER_STEP_TIME_MAX, &c->of_step_time);
    if (!rc)
        rc = seconds(L, node, "idle_timeout", "site.openfresco.idle_timeout",
                     HS_SITE_SERVER_IDLE_TIMEOUT_MAX, &c->of_idle_timeout);
    return rc;
}

/* The server's own keys (the laboratory is read first: openfresco.T needs nact). */
static int server_keys(hs_tf *L, const hs_ynode *site, hs_site_server_config *c)
{
    const hs_ynode *v, *key = hs_ynode_get(site, "key"), *plain = hs_ynode_get(site, "plain");
    int rc = 0, is_plain = 0;
    if ((v = hs_ynode_get(site, "listen")) != NULL) rc = listen_addr(L, v, c);
    if (!rc && plain) rc = hs_tf_bool(L, plain, "site.plain", &is_plain);
    if (rc) return rc;
    if (plain && !is_plain)
        return hs_tf_fail(L, plain, "site.plain: only 'plain: true' is meaningful (or give a key)");
    if (key && is_plain)
        return hs_tf_fail(L, key, "site.key: a site is either keyed or plain, not both");
    if (!key && !is_plain)
        return hs_tf_fail(L, site,
                          "missing required key 'key' in site (the file holding the key shared "
                          "with coordinators, from 'hysim keygen FILE'; or 'plain: true' to run "
                          "without authentication)");
    if (key) {
        char path[1024];
        rc = hs_tf_file(L, key, "site.key", path, sizeof path); /* its message has FILE:LINE:COL */
        if (rc) return rc;
        rc = hs_secure_key_read(L->ctx, path, c->key);
        if (rc) return rc == HS_EINPUT || rc == HS_EIO ? hs_tf_wrap(L, key, "site.key", rc) : rc;
        c->mode = HS_SECURE_PSK;
    } else {
        c->mode = HS_SECURE_PLAIN;
    }
    static const char *const times[] = {"heartbeat", "timeout", "frame_timeout", "spin", "late"};
    static const double max[] = {HS_SITE_SERVER_HEARTBEAT_MAX, HS_SITE_SERVER_TIMEOUT_MAX,
                                 HS_SITE_SERVER_FRAME_TIMEOUT_MAX, HS_SITE_SERVER_SPIN_MAX,
                                 HS_SITE_SERVER_LATE_MAX};
    double *const dst[] = {&c->heartbeat, &c->timeout, &c->frame_timeout, &c->spin, &c->late};
    char what[64];
    for (size_t i = 0; !rc && i < NKEYS(times); i++)
        rc = seconds(L, site, times[i], hs_tf_path(what, sizeof what, "site", times[i]), max[i],
                     dst[i]);
    if (!rc && (v = hs_ynode_get(site, "min_time_scale")) != NULL) {
        rc = hs_tf_num(L, v, "site.min_time_scale", &c->min_time_scale);
        if (!rc && !(c->min_time_scale >= 0.0))
            rc = hs_tf_fail(L, v, "site.min_time_scale: must be >= 0 (got %g)", c->min_time_scale);
    }
    if (!rc && !(c->heartbeat < c->timeout))
        rc = hs_tf_fail(L, site,
                        "site: the heartbeat (%g s) must be shorter than the timeout (%g s)",
                        c->heartbeat, c->timeout);
    if (!rc && (v = hs_ynode_get(site, "realtime")) != NULL)
        rc = hs_tf_bool(L, v, "site.realtime", &c->realtime);
    if (!rc && (v = hs_ynode_get(site, "openfresco")) != NULL) rc = openfresco(L, v, c);
    if (!rc && (v = hs_ynode_get(site, "nees")) != NULL)
        rc = hs_tf_nees(L, v, "site.nees", &c->site, 1);
    if (!rc && (v = hs_ynode_get(site, "state")) != NULL) {
        char rel[sizeof c->state_path];
        rc = hs_tf_str(L, v, "site.state", rel, sizeof rel);
        const int w = rc ? 0
                      : (rel[0] == '/' || L->dir[0] == '\0')
                          ? snprintf(c->state_path, sizeof c->state_path, "%s", rel)
                          : snprintf(c->state_path, sizeof c->state_path, "%s/%s", L->dir, rel);
        if (!rc && (w < 0 || (size_t)w >= sizeof c->state_path))
            rc = hs_tf_fail(L, v, "site.state: the path is too long");
    }
    return rc;
}

static int load_tree(hs_tf *L, const hs_ynode *root, hs_site_server_config *c)
{
    if (!root || root->kind != HS_YNODE_MAPPING)
        return hs_tf_fail(L, root,
                          "expected a mapping with a 'site' section (see "
                          "docs/site_server.md)");
    const hs_ynode *v, *site;
    int rc = hs_tf_mapping(L, root, "the top level", top_keys, NKEYS(top_keys));
    if (!rc && (v = hs_ynode_get(root, "hysim")) != NULL) {
        long ver = 0;
        rc = hs_tf_int(L, v, "hysim", 0, 1000000, &ver);
        if (!rc && ver != 1)
            rc = hs_tf_fail(L, v, "hysim: format version %ld is not supported (this build reads 1)",
                            ver);
    }
    if (!rc && (v = hs_ynode_get(root, "materials")) != NULL) rc = hs_tf_materials(L, v);
    if (!rc) rc = hs_tf_required(L, root, "site", "the top level", &site);
    if (!rc) rc = hs_tf_mapping(L, site, "site", site_keys, NKEYS(site_keys));
    if (rc) return rc;
    hs_site_config *sc = &L->def->sites[0];
    if (!(v = hs_ynode_get(site, "name")))
        return hs_tf_fail(L, site, "missing required key 'name' in site (coordinators ask for it)");
    rc = site_name(L, v, sc);
    if (rc) return rc;
    snprintf(sc->kind, sizeof sc->kind, "virtual");
    L->sites[0].node = site;
    rc = hs_tf_site_fields(L, site, "site", 0);
    if (!rc && (v = hs_ynode_get(site, "lab")) != NULL) rc = hs_tf_lab(L, v, "site.lab", sc);
    if (rc) return rc;
    if (!L->sites[0].seed_given) sc->seed = 1;
    sc->time_scale = 1.0; /* per test, from the coordinator's HELLO */
    c->site = *sc;
    return server_keys(L, site, c);
}

int hs_site_file_load_string(hs_ctx *ctx, const char *text, size_t len, const char *name,
                             hs_site_file **out)
{
    if (!out) return hs_fail(ctx, HS_EINVAL, "site file: no output given");
    *out = NULL;
    hs_tf L = {0};
    const int begun = hs_tf_begin(&L, ctx, name);
    if (begun) return begun;
    hs_site_file *f = hs_calloc(1, sizeof *f);
    int rc = hs_tf_one_site_begin(&L, "site file");
    if (!rc && !f) rc = HS_ENOMEM;
    if (!rc) {
        f->def = L.def;
        hs_site_server_config_default(&f->cfg);
    }
    hs_ytree *tree = NULL;
    if (!rc) rc = hs_ytree_parse(ctx, text, len, L.name, "site file", &tree);
    if (!rc) rc = load_tree(&L, tree->root, &f->cfg);
    if (!rc) { /* what a held test is bound to (site_server_state.c) */
        snprintf(f->cfg.site_file, sizeof f->cfg.site_file, "%s", name ? name : "");
        crypto_generichash(f->cfg.site_hash, sizeof f->cfg.site_hash, (const unsigned char *)text,
                           len, NULL, 0);
    }
    hs_ytree_destroy(&tree);
    hs_tf_one_site_end(&L, f && f->def);
    if (rc) {
        hs_site_file_destroy(&f);
        return rc;
    }
    *out = f;
    return 0;
}

int hs_tf_one_site_begin(hs_tf *L, const char *kind)
{
    L->kind = kind;
    L->def = hs_calloc(1, sizeof *L->def);
    if (L->def) L->def->sites = hs_calloc(1, sizeof *L->def->sites);
    L->sites = hs_calloc(1, sizeof *L->sites);
    if (!L->def || !L->def->sites || !L->sites) return HS_ENOMEM;
    L->def->nsites = 1;
    return 0;
}

void hs_tf_one_site_end(hs_tf *L, int keep_def)
{
    for (size_t i = 0; i < L->nmaterials; i++) hs_options_destroy(&L->materials[i].opts);
    hs_free(L->materials);
    L->materials = NULL;
    if (L->sites) hs_free(L->sites[0].K0);
    hs_free(L->sites);
    L->sites = NULL;
    if (!keep_def) hs_test_def_destroy(&L->def);
}

int hs_tf_read_text(hs_ctx *ctx, const char *path, const char *kind, char **text, size_t *len)
{
    *text = NULL;
    FILE *fp = NULL;
    const int opened = hs_fopen_regular(ctx, path, &fp, NULL);
    if (opened) return opened;
    char *t = hs_malloc(HS_SF_MAX_FILE + 1);
    size_t n = t ? fread(t, 1, HS_SF_MAX_FILE + 1, fp) : 0;
    const int err = ferror(fp);
    fclose(fp);
    int rc = !t                   ? HS_ENOMEM
             : err                ? hs_fail(ctx, HS_EIO, "%s: cannot read", path)
             : n > HS_SF_MAX_FILE ? hs_fail(ctx, HS_EINPUT, "%s: larger than %u KB; not a %s", path,
                                            HS_SF_MAX_FILE >> 10, kind)
                                  : 0;
    if (rc) {
        hs_free(t);
        return rc;
    }
    *text = t;
    *len = n;
    return 0;
}

int hs_site_file_load(hs_ctx *ctx, const char *path, hs_site_file **out)
{
    if (!out || !path) return hs_fail(ctx, HS_EINVAL, "site file: no path given");
    *out = NULL;
    char *text = NULL;
    size_t n = 0;
    int rc = hs_tf_read_text(ctx, path, "site file", &text, &n);
    if (!rc) rc = hs_site_file_load_string(ctx, text, n, path, out);
    hs_free(text);
    return rc;
}

hs_site_server_config *hs_site_file_config(hs_site_file *f)
{
    return f ? &f->cfg : NULL;
}

void hs_site_file_destroy(hs_site_file **f)
{
    if (!f || !*f) return;
    hs_test_def_destroy(&(*f)->def);
    hs_free(*f);
    *f = NULL;
}

void hs_site_server_config_default(hs_site_server_config *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->host, sizeof c->host, "127.0.0.1");
    c->port = 8091;
    c->mode = HS_SECURE_PSK;
    c->heartbeat = 1.0;
    c->timeout = 5.0;
    c->frame_timeout = 2.0;
    c->spin = 0.0; /* chosen at start from the measured wake-up latency */
    c->realtime = 1;
    c->ofa_port = c->ofb_port = -1;
    c->of_step_time = 0.05;
    c->of_idle_timeout = 60.0;
    c->log_max = HS_SITE_SERVER_LOG_MAX_DEFAULT;
}
