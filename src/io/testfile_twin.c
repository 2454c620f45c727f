/* A site's rehearsal keys (docs/pretest.md): `twin: SITE.yaml`, the site file describing a remote
 * site's laboratory, and `pretest: FILE.json`, the pre-test results that update the twin. Both
 * must name existing files; `hysim run --rehearse` reads them, an ordinary run does not. */
#include "testfile_impl.h"

#include <string.h>

int hs_tf_twin(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg)
{
    char sub[192];
    const hs_ynode *v = hs_ynode_get(node, "twin");
    int rc = 0;
    if (v && strcmp(cfg->kind, "remote") != 0)
        return hs_tf_fail(
            L, v, "%s.twin: only a remote site has a twin (a virtual site is its own)", what);
    if (v)
        rc = hs_tf_file(L, v, hs_tf_path(sub, sizeof sub, what, "twin"), cfg->twin,
                        sizeof cfg->twin);
    if (!rc && (v = hs_ynode_get(node, "pretest")) != NULL)
        rc = hs_tf_file(L, v, hs_tf_path(sub, sizeof sub, what, "pretest"), cfg->pretest,
                        sizeof cfg->pretest);
    return rc;
}
