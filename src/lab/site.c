/* The site object: dispatch to the kind behind it. */
#include "site_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int hs_site_create_kind(hs_ctx *ctx, const hs_site_config *cfg, hs_site_kind_fn create,
                        hs_site **out)
{
    if (!cfg || !out || !create) return hs_fail(ctx, HS_EINVAL, "site: no configuration");
    if (cfg->nact < 1 || cfg->nact > HS_SITE_MAX_ACT)
        return hs_fail(ctx, HS_EINPUT, "site %s: %d actuators (1 to %d allowed)", cfg->name,
                       cfg->nact, HS_SITE_MAX_ACT);
    hs_site *s = hs_calloc(1, sizeof *s);
    if (!s) return HS_ENOMEM;
    s->ctx = ctx;
    s->cfg = *cfg;
    for (int i = 0; i < cfg->nact; i++)
        if (cfg->actuator[i].schedule == cfg->schedule[i])
            s->cfg.actuator[i].schedule = s->cfg.schedule[i];
    int rc = create(s);
    if (rc) {
        hs_site_destroy(&s);
        return rc;
    }
    *out = s;
    return 0;
}

void hs_site_destroy(hs_site **s)
{
    if (!s || !*s) return;
    if ((*s)->ops.destroy) (*s)->ops.destroy(*s);
    hs_free(*s);
    *s = NULL;
}

int hs_site_setup(hs_site *s, double dt)
{
    return s->ops.setup(s, dt);
}
int hs_site_send_target(hs_site *s, int64_t step, double t, const double *x, double wall)
{
    return s->ops.send_target(s, step, t, x, wall);
}
int hs_site_get_measurement(hs_site *s, hs_site_measurement *m)
{
    return s->ops.get_measurement(s, m);
}
int hs_site_commit(hs_site *s, int64_t step)
{
    return s->ops.commit ? s->ops.commit(s, step) : 0;
}
void hs_site_end(hs_site *s)
{
    if (s->ops.end) s->ops.end(s);
}
int hs_site_nact(const hs_site *s)
{
    return s->cfg.nact;
}
const char *hs_site_name(const hs_site *s)
{
    return s->cfg.name;
}
const char *hs_site_actuator_name(const hs_site *s, int j)
{
    return j >= 0 && j < s->cfg.nact ? s->cfg.actuator_names[j] : "";
}
double hs_site_wait_limit(const hs_site *s, double usual)
{
    return s->ops.wait_limit ? s->ops.wait_limit(s, usual) : usual;
}
int hs_site_initial_stiffness(const hs_site *s, double *K)
{
    return s->ops.initial_stiffness ? s->ops.initial_stiffness(s, K) : HS_EUNSUPPORTED;
}
int hs_site_set_stiffness(hs_site *s, const double *K)
{
    return s->ops.set_stiffness ? s->ops.set_stiffness(s, K) : 0;
}
int hs_site_set_velocity(hs_site *s, const double *v)
{
    return s->ops.set_velocity ? s->ops.set_velocity(s, v) : 0;
}
int hs_site_summary_get(const hs_site *s, hs_site_summary *out)
{
    return s->ops.summary ? s->ops.summary(s, out) : HS_EUNSUPPORTED;
}
hs_vlab *hs_site_vlab(hs_site *s)
{
    return s->ops.vlab ? s->ops.vlab(s) : NULL;
}
size_t hs_site_state_size(const hs_site *s)
{
    return s->ops.state_size ? s->ops.state_size(s) : 0;
}
int hs_site_state_save(const hs_site *s, double *out)
{
    return s->ops.state_save ? s->ops.state_save(s, out) : 0;
}
int hs_site_state_load(hs_site *s, const double *in)
{
    return s->ops.state_load ? s->ops.state_load(s, in) : 0;
}
int hs_site_idle(hs_site *s)
{
    return s->ops.idle ? s->ops.idle(s) : 0;
}
int hs_site_hold(const hs_site *s, double *left)
{
    if (s->ops.hold) return s->ops.hold(s, left);
    const int local = strcmp(s->cfg.kind, "virtual") == 0; /* ticks only when the test steps */
    *left = local ? INFINITY : NAN;
    return local ? HS_SITE_HOLD_UNTIMED : HS_SITE_HOLD_UNKNOWN;
}
void hs_site_leave(hs_site *s, const char *why)
{
    if (s->ops.leave) s->ops.leave(s, why);
}
int hs_site_resume(hs_site *s, int64_t step, const double *x_held)
{
    if (!s->ops.resume)
        return hs_fail(s->ctx, HS_EUNSUPPORTED, "site %s: kind '%s' cannot resume a test",
                       s->cfg.name, s->cfg.kind);
    return s->ops.resume(s, step, x_held);
}
