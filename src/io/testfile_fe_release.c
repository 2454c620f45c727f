/* The moment releases of a YAML elastic_beam (docs/fe_model.md, "Member loads and releases"):
 * `release: i | j | both` about local z (2-D and 3-D; OpenSees' elasticBeamColumn -release /
 * -releasez 1, 2, 3) and, in 3-D, `release_y: i | j | both` about local y (-releasey). */
#include "testfile_impl.h"

#include "hysim/fe.h"

#include <string.h>

static int release_key(hs_tf *L, const hs_ynode *el, const char *key, const char *what, int *r)
{
    const hs_ynode *v = hs_ynode_get(el, key);
    char s[16], sub[128];
    *r = 0;
    if (!v) return 0;
    hs_tf_path(sub, sizeof sub, what, key);
    int rc = hs_tf_str(L, v, sub, s, sizeof s);
    if (rc) return rc;
    *r = !strcmp(s, "i")      ? 1
         : !strcmp(s, "j")    ? 2
         : !strcmp(s, "both") ? 3
         : !strcmp(s, "none") ? 0
                              : -1;
    if (*r < 0)
        return hs_tf_fail(
            L, v, "%s: expected i, j, both or none (the end whose moment is zero), got '%s'", sub,
            s);
    return 0;
}

int hs_tf_fe_release(hs_tf *L, hs_fe *fe, const hs_ynode *el, const char *what, int e)
{
    int rz, ry;
    const hs_ynode *v = hs_ynode_get(el, "release_y");
    if (v && hs_fe_ndm(fe) != 3)
        return hs_tf_fail(
            L, v, "%s: 'release_y' is for 3-D beams (ndm: 3); a 2-D beam's release is 'release'",
            what);
    int rc = release_key(L, el, "release", what, &rz);
    if (!rc) rc = release_key(L, el, "release_y", what, &ry);
    if (rc || (!rz && !ry)) return rc;
    rc = hs_fe_set_beam_release(fe, e, rz, ry);
    return rc ? hs_tf_wrap(L, el, what, rc) : 0;
}
