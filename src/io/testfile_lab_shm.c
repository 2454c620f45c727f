/* The `lab: {kind: shm, name: /hysim-east, reply_timeout, max_missing, owner}` section of a site
 * file (docs/lab_backends.md, include/hysim/shm_lab.h). Errors are FILE:LINE:COL: message. */
#include "testfile_impl.h"

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hs_tf_lab_is_shm(const hs_ynode *node)
{
    const hs_ynode *k = node && node->kind == HS_YNODE_MAPPING ? hs_ynode_get(node, "kind") : NULL;
    return k && k->kind == HS_YNODE_SCALAR && k->text && strcmp(k->text, "shm") == 0;
}

int hs_tf_lab_shm(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg)
{
    static const char *const keys[] = {"kind", "name", "reply_timeout", "max_missing", "owner"};
    int rc = hs_tf_mapping(L, node, what, keys, sizeof keys / sizeof keys[0]);
    if (rc) return rc;
    snprintf(cfg->lab.kind, sizeof cfg->lab.kind, "shm");
    hs_lab_shm_config *s = &cfg->lab.shm;
    const hs_ynode *v = NULL;
    char sub[192];
    rc = hs_tf_required(L, node, "name", what, &v);
    if (!rc)
        rc = hs_tf_str(L, v, hs_tf_path(sub, sizeof sub, what, "name"), s->name, sizeof s->name);
    if (!rc && (strlen(s->name) < 2 || s->name[0] != '/' || strchr(s->name + 1, '/')))
        rc = hs_tf_fail(L, v,
                        "%s: expected a POSIX shared-memory name: '/' then 1..62 characters "
                        "without '/' (e.g. /hysim-east), got '%s'",
                        sub, s->name);
    if (!rc) rc = hs_tf_lab_watchdog(L, node, what, &s->reply_timeout, &s->max_missing);
    if (!rc && (v = hs_ynode_get(node, "owner")) != NULL) {
        rc = hs_tf_str(L, v, hs_tf_path(sub, sizeof sub, what, "owner"), s->owner, sizeof s->owner);
        char *end = NULL;
        const long uid = rc ? 0 : strtol(s->owner, &end, 10);
        if (!rc && !(end != s->owner && *end == '\0' && uid >= 0) && !getpwnam(s->owner))
            rc = hs_tf_fail(L, v,
                            "%s: '%s' is no user of this computer (the user, or uid, of the "
                            "laboratory's process that creates the block)",
                            sub, s->owner);
    }
    return rc;
}
