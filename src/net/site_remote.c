/* Site kind "remote": a site reached over the network. The URL's scheme picks the protocol:
 * hysim:// the native protocol (site_native.c), openfresco-a:// an OpenFresco SimApp site or
 * element server, openfresco-b:// an OpenFresco ActorSite, opensees-adapter:// OpenSees' adapter
 * element as a computational module (site_openfresco.c), nees:// a lab speaking the NEES ASCII
 * protocol (site_nees.c). The kind lives in
 * src/net, which the lab layer does not link against: it joins the constant table of kinds in
 * src/coord/site_kinds.c. */
#include "site_net.h"

#include "hysim/openfresco.h"

#include <math.h>
#include <string.h>

int hs_site_kind_remote(hs_site *s)
{
    hs_site_url u;
    int rc = hs_site_url_parse(s, &u);
    if (rc) return rc;
    if (strcmp(u.scheme, "hysim") == 0) return hs_site_create_native(s, &u);
    if (strcmp(u.scheme, "openfresco-a") == 0)
        return hs_site_create_openfresco(s, &u, HS_OFR_PROTO_A);
    if (strcmp(u.scheme, "openfresco-b") == 0)
        return hs_site_create_openfresco(s, &u, HS_OFR_PROTO_B);
    if (strcmp(u.scheme, "opensees-adapter") == 0)
        return hs_site_create_openfresco(s, &u, HS_OFR_PROTO_ADAPTER);
    if (strcmp(u.scheme, "nees") == 0) return hs_site_create_nees(s, &u);
    return hs_fail(s->ctx, HS_EINPUT,
                   "site %s: url '%s': unknown scheme '%s' (hysim, openfresco-a, openfresco-b, "
                   "opensees-adapter or nees)",
                   s->cfg.name, s->cfg.url, u.scheme);
}

void hs_site_tracked_summary(hs_site_summary *out, int64_t steps, int nact,
                             hs_tracking *const *track)
{
    memset(out, 0, sizeof *out);
    out->steps = steps;
    out->nact = nact;
    for (int j = 0; j < nact; j++) {
        out->mte[j] = hs_tracking_mte(track[j]);
        const double rms = hs_tracking_rms(track[j]);
        out->rms[j] = isfinite(rms) ? rms : 0.0;
        out->ti_peak[j] = hs_tracking_ti_peak(track[j]);
        out->a_es[j] = NAN;
    }
}
