/* The plant file of `hysim plant` (include/hysim/plant.h, docs/lab_backends.md): an optional
 * `materials` section and the `plant` mapping, whose laboratory keys are read by the site reader
 * (testfile_sites.c) and whose packets by the lab reader (testfile_lab.c). Errors are
 * FILE:LINE:COL: message. */
#include "testfile_impl.h"

#include "hysim/plant.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hs_plant_file {
    hs_test_def *def; /* owns the laboratory's options */
    hs_plant_config cfg;
};

static const char *const top_keys[] = {"hysim", "materials", "plant"};
static const char *const plant_keys[] = {
    "listen",   "rate",       "perfect",      "seed",           "actuators",    "sensors",
    "specimen", "relaxation", "endian",       "command_packet", "reply_packet", "interlock_after",
    "lab",      "peer",       "peer_timeout", "setup"};

/* `lab: {kind: shm, name, ...}`: the plant serves the shm block (no listen, no packets). */
static int plant_shm(hs_tf *L, const hs_ynode *plant, const hs_ynode *lab, hs_plant_config *c)
{
    static const char *const udp_only[] = {"listen",       "endian", "command_packet",
                                           "reply_packet", "peer",   "peer_timeout"};
    if (!hs_tf_lab_is_shm(lab))
        return hs_tf_fail(L, lab,
                          "plant.lab: only {kind: shm, name: /NAME} (a udp plant has listen and "
                          "the packets at the plant's level)");
    for (size_t i = 0; i < sizeof udp_only / sizeof udp_only[0]; i++) {
        const hs_ynode *v = hs_ynode_get(plant, udp_only[i]);
        if (v)
            return hs_tf_fail(L, v, "plant.%s: a plant on shm has no %s", udp_only[i], udp_only[i]);
    }
    hs_site_config tmp;
    memset(&tmp, 0, sizeof tmp);
    const int rc = hs_tf_lab_shm(L, lab, "plant.lab", &tmp);
    if (!rc) c->shm = tmp.lab.shm;
    return rc;
}

static int load_tree(hs_tf *L, const hs_ynode *root, hs_plant_config *c)
{
    if (!root || root->kind != HS_YNODE_MAPPING)
        return hs_tf_fail(L, root,
                          "expected a mapping with a 'plant' section (see "
                          "docs/lab_backends.md)");
    const hs_ynode *v, *plant;
    int rc = hs_tf_mapping(L, root, "the top level", top_keys, 3);
    if (!rc && (v = hs_ynode_get(root, "hysim")) != NULL) {
        long ver = 0;
        rc = hs_tf_int(L, v, "hysim", 1, 1, &ver);
    }
    if (!rc && (v = hs_ynode_get(root, "materials")) != NULL) rc = hs_tf_materials(L, v);
    if (!rc) rc = hs_tf_required(L, root, "plant", "the top level", &plant);
    if (!rc)
        rc = hs_tf_mapping(L, plant, "plant", plant_keys, sizeof plant_keys / sizeof plant_keys[0]);
    if (rc) return rc;
    hs_site_config *sc = &L->def->sites[0];
    snprintf(sc->name, sizeof sc->name, "plant");
    snprintf(sc->kind, sizeof sc->kind, "virtual");
    L->sites[0].node = plant;
    rc = hs_tf_site_fields(L, plant, "plant", 0);
    const hs_ynode *lab = hs_ynode_get(plant, "lab");
    if (!rc && lab) rc = plant_shm(L, plant, lab, c);
    if (!rc && !lab) rc = hs_tf_required(L, plant, "listen", "plant", &v);
    if (!rc && !lab) rc = hs_tf_udp_address(L, v, "plant.listen", c->listen, sizeof c->listen);
    if (!rc && !lab) rc = hs_tf_udp_packets(L, plant, "plant", sc);
    if (!rc && !lab && (v = hs_ynode_get(plant, "peer")) != NULL) {
        rc = hs_tf_udp_address(L, v, "plant.peer", c->peer, sizeof c->peer);
        if (!rc && strtol(strrchr(c->peer, ':') + 1, NULL, 10) == 0)
            rc = hs_tf_fail(L, v, "plant.peer: give the site's port (its lab's `local:`), not 0");
    }
    c->peer_timeout = 0.5;
    if (!rc && (v = hs_ynode_get(plant, "peer_timeout")) != NULL) {
        rc = hs_tf_num(L, v, "plant.peer_timeout", &c->peer_timeout);
        if (!rc && !(c->peer_timeout >= 0.01 && c->peer_timeout <= 3600.0))
            rc = hs_tf_fail(L, v, "plant.peer_timeout: %g s is outside 0.01..3600 s",
                            c->peer_timeout);
    }
    if (!rc && (v = hs_ynode_get(plant, "interlock_after")) != NULL) {
        long n = 0;
        rc = hs_tf_int(L, v, "plant.interlock_after", 1, 2000000000L, &n);
        c->interlock_after = n;
    }
    if (rc) return rc;
    if (!L->sites[0].seed_given) sc->seed = 1;
    sc->time_scale = 1.0;
    c->lab = *sc;
    return 0;
}

int hs_plant_file_load_string(hs_ctx *ctx, const char *text, size_t len, const char *name,
                              hs_plant_file **out)
{
    if (!out) return hs_fail(ctx, HS_EINVAL, "plant file: no output given");
    *out = NULL;
    hs_tf L = {0};
    const int begun = hs_tf_begin(&L, ctx, name);
    if (begun) return begun;
    hs_plant_file *f = hs_calloc(1, sizeof *f);
    int rc = hs_tf_one_site_begin(&L, "plant file");
    if (!rc && !f) rc = HS_ENOMEM;
    if (!rc) f->def = L.def;
    hs_ytree *tree = NULL;
    if (!rc) rc = hs_ytree_parse(ctx, text, len, L.name, "plant file", &tree);
    if (!rc) rc = load_tree(&L, tree->root, &f->cfg);
    hs_ytree_destroy(&tree);
    hs_tf_one_site_end(&L, f && f->def);
    if (rc) {
        hs_plant_file_destroy(&f);
        return rc;
    }
    *out = f;
    return 0;
}

int hs_plant_file_load(hs_ctx *ctx, const char *path, hs_plant_file **out)
{
    if (!out || !path) return hs_fail(ctx, HS_EINVAL, "plant file: no path given");
    *out = NULL;
    char *text = NULL;
    size_t n = 0;
    int rc = hs_tf_read_text(ctx, path, "plant file", &text, &n);
    if (!rc) rc = hs_plant_file_load_string(ctx, text, n, path, out);
    hs_free(text);
    return rc;
}

hs_plant_config *hs_plant_file_config(hs_plant_file *f)
{
    return f ? &f->cfg : NULL;
}

void hs_plant_file_destroy(hs_plant_file **f)
{
    if (!f || !*f) return;
    hs_test_def_destroy(&(*f)->def);
    hs_free(*f);
    *f = NULL;
}
