/* The one-line message of a safety-limit trip (include/hysim/site_controller.h): which limit,
 * the offending value and the limit with units, the likely cause and what to do. The virtual
 * site and the site server print the same text (docs/site_controller.md, "Limits"). */
#include "hysim/site_controller.h"

#include <math.h>
#include <stdio.h>

static const char *unit(const char *u, const char *fallback)
{
    return u && u[0] ? u : fallback;
}

int hs_site_limit_message(char *buf, size_t cap, const char *site, const char *actuator,
                          const hs_site_report *r, const char *length, const char *force,
                          const char *time)
{
    /* short enough for a wire error sentence (255 bytes) with a site name of 20 characters */
    const char *L = unit(length, "length"), *F = unit(force, "force"), *T = unit(time, "s");
    char what[120], cause[160];
    const int fl = r->limit_flags;
    if (fl & HS_SITE_LIMIT_LAB) {
        if (r->limit_cause == HS_SITE_CAUSE_LAB_WATCHDOG)
            return snprintf(buf, cap,
                            "site %s: laboratory alarm: %.0f replies missing in a row on the "
                            "udp channel (limit %.0f): the real-time target stopped answering; "
                            "the site holds, the test stops",
                            site, r->limit_value, r->limit_bound);
        return snprintf(buf, cap,
                        "site %s: laboratory alarm: the controller raised its %s bit (status "
                        "0x%x); the site holds, the test stops",
                        site, r->limit_cause == HS_SITE_CAUSE_LAB_FAULT ? "fault" : "interlock",
                        (unsigned)r->limit_value);
    }
    if (r->limit_cause == HS_SITE_CAUSE_NOT_A_NUMBER)
        snprintf(what, sizeof what, "command on %s is not a number (%g)", actuator, r->limit_value);
    else if (fl & HS_SITE_LIMIT_DISPLACEMENT)
        snprintf(what, sizeof what, "stroke limit on %s: command %.6g %s beyond +-%g %s", actuator,
                 r->limit_value, L, r->limit_bound, L);
    else if (fl & HS_SITE_LIMIT_VELOCITY)
        snprintf(what, sizeof what, "velocity limit on %s: %.6g %s/%s beyond %g %s/%s", actuator,
                 r->limit_value, L, T, r->limit_bound, L, T);
    else if (fl & HS_SITE_LIMIT_ACCELERATION)
        snprintf(what, sizeof what, "acceleration limit on %s: %.6g beyond %g %s/%s^2", actuator,
                 r->limit_value, r->limit_bound, L, T);
    else if (fl & HS_SITE_LIMIT_STEP)
        snprintf(what, sizeof what, "step limit on %s: %.6g %s in one tick beyond %g %s", actuator,
                 r->limit_value, L, r->limit_bound, L);
    else if (fl & HS_SITE_LIMIT_MEASURED_DISP)
        snprintf(what, sizeof what, "stroke limit on %s: measured %.6g %s beyond +-%g %s", actuator,
                 r->limit_value, L, r->limit_bound, L);
    else if (fl & HS_SITE_LIMIT_MEASURED_FORCE)
        snprintf(what, sizeof what, "force limit on %s: measured %.6g %s beyond +-%g %s", actuator,
                 r->limit_value, F, r->limit_bound, F);
    else
        snprintf(what, sizeof what, "force limit on %s: predicted %.6g %s beyond +-%g %s", actuator,
                 r->limit_value, F, r->limit_bound, F);
    switch (r->limit_cause) {
    case HS_SITE_CAUSE_UNSTABLE:
        snprintf(cause, sizeof cause,
                 "likely an unstable integration: targets grow x%.3g a step, alternating "
                 "(omega dt too large? see hysim check)",
                 r->limit_growth);
        break;
    case HS_SITE_CAUSE_GROWING:
        snprintf(cause, sizeof cause, "likely a diverging response: targets grow x%.3g a step",
                 r->limit_growth);
        break;
    case HS_SITE_CAUSE_LATE:
        snprintf(cause, sizeof cause,
                 "likely the catch-up after a late target (slow/hold: late ticks or network)");
        break;
    case HS_SITE_CAUSE_FAST_TARGETS:
        snprintf(cause, sizeof cause,
                 "the targets alone need %.4g %s/%s: scale the record or raise "
                 "analysis.time_scale",
                 r->limit_speed, L, T);
        break;
    case HS_SITE_CAUSE_BEYOND:
        snprintf(cause, sizeof cause,
                 "the target is beyond the stroke: the response exceeds the travel (hysim check "
                 "estimates it)");
        break;
    case HS_SITE_CAUSE_FORCE:
        snprintf(cause, sizeof cause, "the specimen would resist more than the limit");
        break;
    case HS_SITE_CAUSE_JUMP:
        snprintf(cause, sizeof cause,
                 "the targets jump (%.4g %s/%s over the step): check the coordinator",
                 r->limit_speed, L, T);
        break;
    case HS_SITE_CAUSE_NOT_A_NUMBER:
        snprintf(cause, sizeof cause, "likely a corrupt target or a failed compensator");
        break;
    case HS_SITE_CAUSE_MEASURED:
        snprintf(cause, sizeof cause,
                 "the command is within limits: a failing specimen or sensor, or a controller not "
                 "following");
        break;
    default:
        snprintf(cause, sizeof cause, "cause not recognised");
    }
    return snprintf(buf, cap, "site %s: safety limit: %s; %s; the site holds, the test stops", site,
                    what, cause);
}
