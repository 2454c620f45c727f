/* The site's first command (site_build.h, docs/lab_backends.md "The site's first command"): the
 * rig's position read from the laboratory before any command, refused beyond the stroke, and the
 * controller started there, moving to its rest within half of every limit. */
#include "site_build.h"

#include <math.h>
#include <stdio.h>

/* "a1 0.0012 m, a2 0 m" */
static void positions(const hs_site_config *c, const double *x, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (int j = 0; j < c->nact && len < cap; j++) {
        const int k =
            snprintf(out + len, cap - len, "%s%s %.6g%s%s", j ? ", " : "", c->actuator_names[j],
                     x[j], c->units_length[0] ? " " : "", c->units_length);
        if (k > 0) len += (size_t)k;
    }
}

int hs_site_rig_start(hs_ctx *ctx, const hs_site_config *c, hs_site_rig *r, hs_site_controller *sc)
{
    double x[HS_SITE_MAX_ACT] = {0};
    const int rc = hs_lab_position(ctx, r->io, x);
    if (rc == HS_EUNSUPPORTED && r->lab) return 0; /* the virtual lab (through a setup too) */
    if (rc)
        return hs_fail(ctx, rc, "site %s: %s (docs/lab_backends.md, \"The site's first command\")",
                       c->name, hs_ctx_message(ctx));
    for (int j = 0; j < c->nact; j++) {
        const double stroke = c->actuator[j].stroke;
        const char *u = c->units_length[0] ? c->units_length : "";
        if (!isfinite(x[j]) || (stroke > 0.0 && !(fabs(x[j]) <= stroke)))
            return hs_fail(ctx, HS_ELIMIT,
                           "site %s: actuator %s rests at %g%s%s, beyond its stroke limit %g%s%s: "
                           "the site will not command it; bring the rig within the stroke at the "
                           "laboratory's own controller (or correct actuators.%s.stroke), then "
                           "start the site again",
                           c->name, c->actuator_names[j], x[j], u[0] ? " " : "", u, stroke,
                           u[0] ? " " : " (the test's length units)", u, c->actuator_names[j]);
    }
    const double T = hs_site_controller_start_at(sc, x);
    char at[HS_SITE_MAX_ACT * 48];
    positions(c, x, at, sizeof at);
    if (T > 0.0)
        hs_log(ctx, HS_LOG_INFO,
               "site %s: the rig rests at %s; the first command is there, and the command moves "
               "to its rest (0) in %.3g s, within half of every speed and acceleration limit",
               c->name, at, T);
    else
        hs_log(ctx, HS_LOG_INFO, "site %s: the rig rests at %s; the first command is there",
               c->name, at);
    return 0;
}
