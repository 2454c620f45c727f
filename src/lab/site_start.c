/* The site's first command (site_build.h, docs/lab_backends.md "The site's first command"): the
 * rig's position read from the laboratory before any command, refused beyond the stroke, and the
 * controller started there, moving to its rest within half of every limit; or, for a held test
 * restored from the state file, moving back from the rig to its held command. */
#include "site_build.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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

/* A test restored from the site's state file, its controller holding the command it held when
 * the site went down (docs/site_server.md, "A site restarted with a held test"): the rig read at
 * x (`at` in words) is within one tick's reach of it (the command holds), or the command moves
 * back to it from the rig before the test may resume. */
static int back_to_held(hs_ctx *ctx, const hs_site_config *c, hs_site_controller *sc,
                        const double *x, const char *at)
{
    double held[HS_SITE_MAX_ACT], reach[HS_SITE_MAX_ACT];
    memcpy(held, hs_site_controller_command(sc), (size_t)c->nact * sizeof(double));
    const double T = hs_site_controller_resume_at(sc, x, reach);
    char was[HS_SITE_MAX_ACT * 48], tol[HS_SITE_MAX_ACT * 48];
    positions(c, held, was, sizeof was);
    positions(c, reach, tol, sizeof tol);
    if (T > 0.0)
        hs_log(ctx, HS_LOG_WARN,
               "site %s: the held test's command is %s; the rig is at %s, beyond one tick's "
               "reach within half of the limits (%s): it was moved while the site was down. The "
               "command starts at the rig and moves back to the held command in %.3g s, within "
               "half of every speed and acceleration limit; the test may resume once it arrives "
               "(a RESUME before is refused). If the specimen was changed or unloaded meanwhile, "
               "give the test up instead: stop the site and start it with --release",
               c->name, was, at, tol, T);
    else
        hs_log(ctx, HS_LOG_INFO,
               "site %s: the rig is at %s, within one tick's reach (%s) of the held test's "
               "command %s: the command holds there",
               c->name, at, tol, was);
    return 0;
}

int hs_site_rig_position(hs_ctx *ctx, const hs_site_config *c, hs_site_rig *r, double *x)
{
    memset(x, 0, (size_t)c->nact * sizeof(double));
    const int rc = hs_lab_position(ctx, r->io, x);
    if (rc == HS_EUNSUPPORTED && r->lab) return 1; /* the virtual lab (through a setup too) */
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
                           "start again",
                           c->name, c->actuator_names[j], x[j], u[0] ? " " : "", u, stroke,
                           u[0] ? " " : " (the test's length units)", u, c->actuator_names[j]);
    }
    return 0;
}

int hs_site_rig_start(hs_ctx *ctx, const hs_site_config *c, hs_site_rig *r, hs_site_controller *sc)
{
    double x[HS_SITE_MAX_ACT];
    const int rc = hs_site_rig_position(ctx, c, r, x);
    if (rc) return rc < 0 ? rc : 0; /* the virtual lab rests at 0 */
    char at[HS_SITE_MAX_ACT * 48];
    positions(c, x, at, sizeof at);
    if (hs_site_controller_ticks(sc) > 0) return back_to_held(ctx, c, sc, x, at);
    const double T = hs_site_controller_start_at(sc, x);
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
