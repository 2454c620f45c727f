/* The site kinds: one constant table in the layer that sees both the lab (virtual sites) and the
 * network (remote sites). */
#include "../base/registry.h"

#include "hysim/site.h"

static const struct {
    const char *kind;
    hs_site_kind_fn create;
} hs_site_kinds[] = {
    {"virtual", hs_site_kind_virtual},
    {"remote", hs_site_kind_remote},
};

int hs_site_create(hs_ctx *ctx, const hs_site_config *cfg, hs_site **out)
{
    if (!cfg || !out) return hs_fail(ctx, HS_EINVAL, "site: no configuration");
    const size_t k = HS_REGISTRY_INDEX(hs_site_kinds, cfg->kind);
    if (k < sizeof hs_site_kinds / sizeof hs_site_kinds[0])
        return hs_site_create_kind(ctx, cfg, hs_site_kinds[k].create, out);
    return hs_fail(ctx, HS_EUNSUPPORTED, "site %s: kind '%s' is not available (virtual, remote)",
                   cfg->name, cfg->kind);
}
