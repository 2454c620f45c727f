/* The laboratory a site configuration describes, for the pre-test procedures: the same rig as the
 * site's (site_build.h) without compensation, its per-tick exchange and its actuators' limits. */
#include "hysim/pretest.h"
#include "hysim/site.h"

#include "site_build.h"

#include <string.h>

struct hs_pretest_site {
    hs_site_config cfg; /* a copy without compensation; option pointers lent */
    hs_site_rig rig;
    hs_pretest_lab lab;
};

/* Through the site's laboratory exchange: the vlab's actuators, or a setup's control DOFs. */
static int exchange(void *user, const double *cmd, double *x, double *f)
{
    hs_lab_input in = {.x = x, .f = f};
    return hs_lab_exchange(((hs_pretest_site *)user)->rig.io, cmd, &in);
}

int hs_pretest_site_create(hs_ctx *ctx, const hs_site_config *cfg, hs_pretest_site **out)
{
    if (!cfg || !out) return hs_fail(ctx, HS_EINVAL, "pretest: no site configuration");
    *out = NULL;
    if (cfg->nact < 1 || cfg->nact > HS_PRETEST_MAX_ACT)
        return hs_fail(ctx, HS_EINPUT, "pretest: site %s has %d actuators (1 to %d)", cfg->name,
                       cfg->nact, HS_PRETEST_MAX_ACT);
    hs_pretest_site *s = hs_calloc(1, sizeof *s);
    if (!s) return hs_fail(ctx, HS_ENOMEM, "pretest: out of memory");
    s->cfg = *cfg;
    s->cfg.compensation_opts = NULL;
    int rc = hs_site_rig_create(ctx, &s->cfg, cfg->rate, &s->rig);
    if (!rc) rc = hs_site_rig_lab(ctx, &s->cfg, cfg->rate, &s->rig);
    if (rc) {
        hs_pretest_site_destroy(&s);
        return rc;
    }
    s->lab.nact = cfg->nact;
    s->lab.rate = cfg->rate;
    s->lab.exchange = exchange;
    s->lab.user = s;
    for (int j = 0; j < cfg->nact; j++) {
        s->lab.stroke[j] = cfg->actuator[j].stroke;
        s->lab.velocity_max[j] = cfg->actuator[j].velocity_max;
        s->lab.force_max[j] = cfg->actuator[j].force_max;
    }
    *out = s;
    return 0;
}

void hs_pretest_site_destroy(hs_pretest_site **s)
{
    if (!s || !*s) return;
    hs_site_rig_release(&(*s)->rig);
    hs_free(*s);
    *s = NULL;
}

const hs_pretest_lab *hs_pretest_site_lab(const hs_pretest_site *s)
{
    return s ? &s->lab : NULL;
}
